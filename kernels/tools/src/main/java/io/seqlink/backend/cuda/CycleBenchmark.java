package io.seqlink.backend.cuda;

import io.seqlink.backend.Backend;
import io.seqlink.backend.FramePattern;
import io.seqlink.bench.TakenChecksumListener;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Java side of the comparison with {@code seqlink-cycle-bench}: the same publish -> consume -> ack
 * cycle, step for step, through the backend SPI (what the channel layer drives; {@link CycleRig}), so the two
 * differ only in the launch path. Prints one JSON document like the C++ comparator's ({@code "impl":"java-spi"}),
 * written by Jackson ({@link BenchReport}).
 *
 * <pre>
 * java -cp ... io.seqlink.backend.cuda.CycleBenchmark
 *      [--mode cycle|throughput|wait-value|cycle-channel|cycle-device-armed|all]
 *      [--sizes 64,16384,1048576] [--frames N] [--warmup N] [--slots N] [--producer D] [--consumer D] [--short]
 * </pre>
 * Per frame (cycle, reported as mode {@code channel} like the C++ row): fill the slot (kernel), commit its
 * length into the pinned staging ring (a host store, as {@code commitDevice} does), publish (kernel, which
 * copies the length); the host sees the mirror; consume (kernel, copy mode), checksum (kernel), ack
 * (kernel); the host sees the ack. {@code wait-value} enqueues the consumer's steps ahead behind a stream wait
 * on the mirror. Every frame's checksum up to 64 KiB (every 16th above) is compared with {@link FramePattern}.
 * {@code alloc_bytes_per_frame} is what the measuring thread allocated per timed frame. Mode
 * {@code cycle-channel} runs the same cycle through the public channel API instead ({@link ChannelApiCycle}), with a
 * device listener; {@code cycle-device-armed} that listener's cycle with armed rounds ({@code cycle-channel-device-armed},
 * acknowledging in its kernel {@code cycle-channel-device-acking}, consuming in its kernel {@code cycle-channel-device-round})
 * and the pipelined channel with a device listener, armed rounds off and on ({@code channel-device},
 * {@code channel-device-armed}, {@code -acking}, {@code -round}). The host listener's rows are the harness's {@code host}
 * scenario ({@code BenchMain --scenarios host}).
 */
public final class CycleBenchmark {

    /** The document's {@code config}. */
    record Config(String mode, int frames, int warmup, int slots) {
    }

    /** The document's {@code device}. */
    record DeviceInfo(int producer, int consumer, String description, boolean sameDevice) {
    }

    private final Config config;
    private final long[] sizes;
    private final int producer;
    private final int consumer;
    private final BenchReport report = new BenchReport("java-spi");

    private CycleBenchmark(String[] args) {
        BenchArgs a = new BenchArgs(args, "CycleBenchmark's javadoc", "--mode", "--sizes", "--frames", "--warmup", "--slots",
                "--producer", "--consumer");
        this.config = new Config(a.text("--mode", "all"), (int) a.number("--frames", a.quick() ? 2000 : 20000),
                (int) a.number("--warmup", a.quick() ? 200 : 1000), (int) a.number("--slots", 64));
        this.sizes = a.numbers("--sizes", new long[] {64, 16384, 1048576});
        this.producer = (int) a.number("--producer", 0);
        this.consumer = (int) a.number("--consumer", -1);
    }

    public static void main(String[] args) {
        System.exit(new CycleBenchmark(args).run());
    }

    private int run() {
        CudaBackendProvider provider = new CudaBackendProvider();
        var detection = provider.detect();
        if (!detection.usable()) {
            System.err.println("CycleBenchmark: no usable CUDA driver: " + detection.summary());
            return 2;
        }
        String mode = config.mode();
        try (Backend backend = provider.open()) {
            int c = consumer >= 0 ? consumer : (backend.deviceCount() > 1 ? 1 : 0);
            for (long size : sizes) {
                if (mode.equals("all") || mode.equals("cycle")) {
                    cycle(backend, c, size, false);
                }
                if (mode.equals("all") || mode.equals("wait-value")) {
                    cycle(backend, c, size, true);
                }
                if (mode.equals("all") || mode.equals("throughput")) {
                    throughput(backend, c, size);
                }
                if (mode.equals("all") || mode.equals("cycle-channel")) {
                    ChannelApiCycle.run(report, producer, c, config.slots(), config.frames(), config.warmup(), size);
                }
                if (mode.equals("all") || mode.equals("cycle-channel") || mode.equals("cycle-device-armed")) {
                    for (TakenChecksumListener.Ending ending : TakenChecksumListener.Ending.values()) {
                        ChannelApiCycle.runDeviceArmed(report, producer, c, config.slots(), config.frames(), config.warmup(), size, ending);
                    }
                }
                if (mode.equals("all") || mode.equals("throughput") || mode.equals("cycle-device-armed")) {
                    ChannelApiCycle.throughputDevice(report, producer, c, config.slots(), config.frames(), size, false,
                            TakenChecksumListener.Ending.ACK_STEP);
                    for (TakenChecksumListener.Ending ending : TakenChecksumListener.Ending.values()) {
                        ChannelApiCycle.throughputDevice(report, producer, c, config.slots(), config.frames(), size, true, ending);
                    }
                }
                System.err.println("CycleBenchmark: " + size + " B done");
            }
            System.out.print(report.write("seqlink-cycle-bench", 1, config,
                    new DeviceInfo(producer, c, backend.description(), producer == c)));
        }
        return report.ok() ? 0 : 1;
    }

    private void cycle(Backend backend, int c, long size, boolean waitValue) {
        try (CycleRig r = new CycleRig(backend, producer, c, config.slots(), size)) {
            int frames = BenchReport.framesFor(config.frames(), size);
            CudaStream cs = (CudaStream) r.cs;
            BenchReport.Timed timed = BenchReport.timeFrames(config.warmup(), frames, s -> {
                if (waitValue) { // the consumer's steps queued ahead, behind a stream wait on the mirror
                    cs.waitValueAtLeast(r.mirror, ControlBlock.PUBLISH_SEQ, s);
                    r.consume(s, s, size, s);
                }
            }, s -> {
                r.produce(s, size);
                if (!waitValue) {
                    BenchSupport.awaitAtLeast(r.mirror, ControlBlock.PUBLISH_SEQ, s, "publish_seq mirror");
                    r.consume(s, s, size, s);
                }
                BenchSupport.awaitAtLeast(r.cmirror, ConsumerBlock.CONSUMED_SEQ, s, "consumed_seq mirror");
            });
            report.latency(waitValue ? "wait-value" : "channel", size, frames, timed, r.verifyLast((long) config.warmup() + frames, size));
        }
    }

    /** A producer thread (claim = wait for the ack a ring behind, then produce) and a consumer thread (rounds up to max_batch). */
    private void throughput(Backend backend, int c, long size) {
        int slots = config.slots();
        try (CycleRig r = new CycleRig(backend, producer, c, slots, size)) {
            long total = 4L * BenchReport.framesFor(config.frames(), size);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            long start = System.nanoTime();
            Thread prod = new Thread(() -> {
                try {
                    for (long s = 1; s <= total; s++) {
                        if (s > slots) {
                            BenchSupport.awaitAtLeast(r.cmirror, ConsumerBlock.CONSUMED_SEQ, s - slots, "ack (backpressure)");
                        }
                        r.produce(s, size);
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }, "bench-producer");
            Thread cons = new Thread(() -> {
                try {
                    long next = 1;
                    while (next <= total && failure.get() == null) {
                        long pub = r.mirror.getAcquire(ControlBlock.PUBLISH_SEQ);
                        if (pub < next) {
                            Thread.onSpinWait();
                            continue;
                        }
                        long to = Math.min(pub, next + r.maxBatch - 1);
                        r.consume(next, to, size, to);
                        next = to + 1;
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }, "bench-consumer");
            prod.start();
            cons.start();
            BenchReport.join(prod);
            BenchReport.join(cons);
            if (failure.get() != null) {
                throw new IllegalStateException("throughput run failed", failure.get());
            }
            BenchSupport.awaitAtLeast(r.cmirror, ConsumerBlock.CONSUMED_SEQ, total, "final ack");
            report.throughput("channel", size, total, 1, (System.nanoTime() - start) / 1e9, r.verifyLast(total, size));
        }
    }
}
