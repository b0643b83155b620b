package io.seqlink.bench;

import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.Memory;
import io.seqlink.backend.PatternKernels;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.ReadMode;
import io.seqlink.report.LatencyHistogram;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The Java channel path, one frame in flight: what a user's code pays per frame through the public
 * API. Per frame, timed on one thread: claim; the pattern written by a kernel on the producer stream;
 * {@code commitDevice}; {@code publish}; the consumer port polled until it takes the frame (its device
 * listener enqueues a checksum kernel between the consume and the ack); spin until the ack's host
 * mirror shows the frame. The C++ comparator's {@code cycle} mode does the same steps by hand.
 */
final class ChannelCycleBench {

    private final BenchEnvironment env;

    ChannelCycleBench(BenchEnvironment env) {
        this.env = env;
    }

    Results.CycleRow run(long size) {
        int frames = env.framesFor(size);
        int warmup = env.warmupFor(size);
        PublishChannel ch = null;
        MappedBuffer sums = null;
        try {
            ch = env.openChannel("cycle", List.of(env.consumer()), size, env.slotsFor(size), ReadMode.COPY);
            ConsumerPort port = ch.consumer(env.consumer());
            sums = env.backend().device(env.consumer()).allocateMapped(8L * ChecksumListener.RESULT_WORDS);
            port.subscribeDevice(new ChecksumListener(size, sums));
            PatternKernels producerWork = BenchWork.on(ch.producerStream());
            Memory ring = ch.ring();
            LongSupplier acknowledged = port::acknowledged; // built once: a method reference per frame could allocate
            LatencyHistogram latency = new LatencyHistogram();
            long total = (long) warmup + frames;
            ConsumerSnapshot before = port.snapshot(); // replaced after the warm-up
            long allocBefore = -1;
            for (long i = 1; i <= total; i++) {
                if (i == warmup + 1) {
                    latency.reset();
                    before = port.snapshot();
                    allocBefore = AllocationMeter.current();
                }
                long t0 = System.nanoTime();
                long seq = claim(ch);
                producerWork.fill(ring, ch.payloadOffset(seq), size, seq);
                ch.commitDevice((int) size);
                ch.publish();
                awaitDelivery(port);
                Spin.awaitAtLeast(acknowledged, seq, "the consumer's ack (cycle)");
                long t1 = System.nanoTime();
                latency.record(t1 - t0);
            }
            long allocAfter = AllocationMeter.current();
            ConsumerSnapshot after = port.snapshot();
            FrameVerifier.Outcome check = FrameVerifier.verify(sums, total, size);
            double reads = (after.deviceConsumeSteps() - before.deviceConsumeSteps())
                    / (double) frames;
            return new Results.CycleRow(Results.JAVA, "cycle", size, latency.percentiles(), check.verified(),
                    check.corrupt(), AllocationMeter.perFrame(allocBefore, allocAfter, frames), reads);
        } finally {
            BenchEnvironment.closeQuietly(ch);
            if (sums != null) {
                sums.close();
            }
        }
    }

    /** Claims the next slot; with one frame in flight it is always free, so anything else is a failure. */
    static long claim(PublishChannel ch) {
        long seq = ch.tryClaim();
        int spins = 0;
        while (seq == ClaimStatus.BACK_PRESSURED) {
            if (++spins > 100_000_000) {
                throw new Spin.StuckException("channel " + ch.name() + " stayed back-pressured: " + ch.snapshot());
            }
            Thread.onSpinWait();
            seq = ch.tryClaim();
        }
        if (seq <= 0) {
            throw new IllegalStateException("claim on channel " + ch.name() + " returned status " + seq + ": " + ch.snapshot());
        }
        return seq;
    }

    /** Polls the port until it takes a frame (a device listener returns as soon as its work is enqueued). */
    static void awaitDelivery(ConsumerPort port) {
        int spins = 0;
        long deadline = 0;
        while (port.poll(1) == 0) {
            if ((++spins & 1023) == 0) {
                if (port.state() == ConsumerState.DEAD) {
                    throw new IllegalStateException("consumer " + port.device() + " died: " + port.failure());
                }
                long now = System.nanoTime();
                if (deadline == 0) {
                    deadline = now + Spin.DEFAULT_TIMEOUT_NANOS;
                } else if (now - deadline > 0) {
                    throw new Spin.StuckException("consumer " + port.device() + " took no frame for 10 s: " + port.snapshot());
                }
            }
            Thread.onSpinWait();
        }
    }
}
