package io.seqlink.backend.cuda;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.bench.BenchWork;
import io.seqlink.bench.ChecksumListener;
import io.seqlink.bench.TakenChecksumListener;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.PublishChannel;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@link CycleBenchmark}'s {@code cycle-channel} rows. {@link #run}: the same cycle through the public channel API on a runtime
 * of its own (claim, fill on the producer stream, {@code commitDevice}, publish; the consumer port polled by the
 * calling thread with a device listener that checksums each frame on the consumer stream; the ack): what a
 * user's code pays. No C++ twin. Runs on the calling thread.
 *
 * <p>{@link #runDeviceArmed}: {@code cycle-channel-device-armed}, the device listener's cycle with armed rounds
 * next to {@code cycle-channel}, and {@code cycle-channel-device-acking}, the same listener acknowledging
 * in its kernel (no ack step), and {@code cycle-channel-device-round}, the same checksum as a listener that consumes in
 * its kernel (one kernel per round: no consume step, no ack step; C++ twin {@code steps-fused}); {@link #throughputDevice}:
 * their pipelined forms ({@code channel-device-armed}, {@code -acking}, {@code -round}), and the ordinary rounds'.
 * The host listener's rows are the harness's {@code host} scenario ({@code io.seqlink.bench.HostListenerBench}).
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
            port.subscribeDevice(new ChecksumListener(size, sums));
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
                awaitTaken(port, seq);
            });
            long[] verified = BenchReport.verifySums(sums, total, size);
            report.latency("cycle-channel", "java-channel-api", size, frames, timed, verified);
            sums.close();
        }
    }

    /**
     * {@code cycle-channel-device-armed}: {@link #run}'s cycle with a device listener that takes armed rounds
     * ({@link TakenChecksumListener}: its checksum kernel reads the round's descriptor): an untimed poll arms frame
     * s (wait, consume, the listener's checksum, the ack of what was taken, all enqueued before the publish); the
     * timed part publishes, polls until the round landed and spins until the ack. No host hop between the publish
     * and the consumer's steps.
     */
    static void runDeviceArmed(BenchReport report, int producer, int consumer, int slots, int timedFrames, int warmup, long size,
            TakenChecksumListener.Ending ending) {
        String row = switch (ending) {
            case ACK_STEP -> "cycle-channel-device-armed";
            case ACK_IN_KERNEL -> "cycle-channel-device-acking";
            case ROUND_KERNEL -> "cycle-channel-device-round";
        };
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().backend(BackendSelection.CUDA).open()) {
            PublishChannel ch = open(rt, row, producer, consumer, slots, size, true);
            ConsumerPort port = ch.consumer(consumer);
            MappedBuffer sums = rt.backend().device(consumer).allocateMapped(8 * 1024);
            TakenChecksumListener listener = new TakenChecksumListener(port.stream(), size, sums, ending);
            port.subscribeDevice(listener);
            int frames = BenchReport.framesFor(timedFrames, size);
            long total = (long) warmup + frames;
            BenchReport.Timed timed = BenchReport.timeFrames(warmup, frames, s -> port.poll(1), s -> {
                long seq = produce(ch, size);
                awaitTaken(port, seq);
            });
            long[] verified = BenchReport.verifySums(sums, total, size);
            report.latency(row, "java-channel-api", size, frames, timed, verified);
            ch.close();
            listener.close();
            sums.close();
        }
    }

    /**
     * Pipelined, device listener ({@code channel-device} / {@code channel-device-armed}): a producer thread publishes
     * {@code 4 x frames} frames while the calling thread polls rounds of up to the channel's batch, the listener
     * checksumming each frame on the consumer stream ({@link TakenChecksumListener}); with {@code armed} the poller
     * arms the next frame whenever it caught up, without, every round waits for the host to see the publish.
     */
    static void throughputDevice(BenchReport report, int producer, int consumer, int slots, int timedFrames, long size,
            boolean armed, TakenChecksumListener.Ending ending) {
        String row = switch (ending) {
            case ACK_STEP -> armed ? "channel-device-armed" : "channel-device";
            case ACK_IN_KERNEL -> "channel-device-acking";
            case ROUND_KERNEL -> "channel-device-round";
        };
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().backend(BackendSelection.CUDA).open()) {
            PublishChannel ch = open(rt, "tp-" + row, producer, consumer, slots, size, armed);
            ConsumerPort port = ch.consumer(consumer);
            MappedBuffer sums = rt.backend().device(consumer).allocateMapped(8 * 1024);
            TakenChecksumListener listener = new TakenChecksumListener(port.stream(), size, sums, ending);
            port.subscribeDevice(listener);
            long total = 4L * BenchReport.framesFor(timedFrames, size);
            int batch = ch.spec().maxPublishBatch();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            long start = System.nanoTime();
            Thread prod = startProducer(ch, size, total, failure);
            while (port.acknowledged() < total && failure.get() == null) {
                port.poll(batch);
            }
            BenchReport.join(prod);
            if (failure.get() != null) {
                throw new IllegalStateException("throughput run failed", failure.get());
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long[] verified = BenchReport.verifySums(sums, total, size);
            report.throughput(row, size, total, 1, seconds, verified);
            ch.close();
            listener.close();
            sums.close();
        }
    }

    /** Polls the port until a round took a frame (its listener's work enqueued), then spins until frame {@code seq}'s ack. */
    private static void awaitTaken(ConsumerPort port, long seq) {
        while (port.poll(1) == 0) {
            Thread.onSpinWait();
        }
        while (port.acknowledged() < seq) {
            Thread.onSpinWait();
        }
    }

    /** A producer thread publishing frames 1 to {@code total} ({@link #produce}); a failure lands in {@code failure}. */
    private static Thread startProducer(PublishChannel ch, long size, long total, AtomicReference<Throwable> failure) {
        Thread prod = new Thread(() -> {
            try {
                for (long s = 1; s <= total; s++) {
                    produce(ch, size);
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "bench-producer");
        prod.start();
        return prod;
    }

    /** Opens the channel and binds the fill kernel (binding loads a module, which would release an armed round). */
    private static PublishChannel open(SeqlinkRuntime rt, String name, int producer, int consumer, int slots, long size,
            boolean armed) {
        PublishChannel ch = rt.openChannel(ChannelSpec.builder(name).producer(producer)
                .consumers(consumer).slots(slots).slotBytes(size).armedRounds(armed).build());
        BenchWork.on(ch.producerStream());
        return ch;
    }

    /** Claims, fills on the producer stream, commits and publishes the next frame. */
    private static long produce(PublishChannel ch, long size) {
        long seq = ch.claim();
        if (seq <= 0) {
            throw new IllegalStateException("claim returned status " + seq + ": " + ch.snapshot());
        }
        BenchWork.on(ch.producerStream()).fill(ch.ring(), ch.payloadOffset(seq), size, seq);
        ch.commitDevice((int) size);
        ch.publish();
        return seq;
    }
}
