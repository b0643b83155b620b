package io.seqlink.backend.cuda;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.FramePattern;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.bench.BenchWork;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.PublishChannel;

/**
 * {@link CycleBenchmark}'s {@code cycle-channel} row: the same cycle through the public channel API on a runtime
 * of its own (claim, fill on the producer stream, {@code commitDevice}, publish; the consumer port polled by the
 * calling thread with a device listener that checksums each frame on the consumer stream; the ack): what a
 * user's code pays. No C++ twin. Runs on the calling thread.
 */
final class ChannelApiCycle {

    private ChannelApiCycle() {
    }

    static void run(BenchReport report, int producer, int consumer, int slots, int timedFrames, int warmup, long size) {
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().backend(BackendSelection.CUDA).open()) {
            PublishChannel ch = rt.openChannel(ChannelSpec.builder("cycle-bench")
                    .producer(producer).consumers(consumer).slots(slots).slotBytes(size).build());
            ConsumerPort port = ch.consumer(consumer);
            MappedBuffer sums = rt.backend().device(consumer).allocateMapped(8 * 1024);
            port.subscribeDevice(frames -> {
                for (long s = frames.first(); s <= frames.last(); s++) {
                    BenchWork.on(frames.stream()).checksum(frames.memory(), frames.payloadOffset(s), size, sums, 8 * (s % 1024));
                }
            });
            int frames = BenchReport.framesFor(timedFrames, size);
            long total = (long) warmup + frames;
            BenchReport.Timed timed = BenchReport.timeFrames(warmup, frames, i -> { }, i -> {
                long seq = ch.tryClaim();
                if (seq <= 0) {
                    throw new IllegalStateException("claim returned status " + seq + ": " + ch.snapshot());
                }
                BenchWork.on(ch.producerStream()).fill(ch.ring(), ch.payloadOffset(seq), size, seq);
                ch.commitDevice((int) size);
                ch.publish();
                while (port.poll(1) == 0) {
                    Thread.onSpinWait();
                }
                while (port.acknowledged() < seq) {
                    Thread.onSpinWait();
                }
            });
            long[] verified = BenchReport.verifyLast(total, size,
                    s -> sums.getAcquire(8 * (s % 1024)) == FramePattern.expectedChecksum(s, (int) size));
            report.latency("cycle-channel", "java-channel-api", size, frames, timed, verified);
            sums.close();
        }
    }
}
