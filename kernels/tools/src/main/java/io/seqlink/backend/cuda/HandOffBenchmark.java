package io.seqlink.backend.cuda;

import io.seqlink.backend.Backend;
import jcuda.driver.CUevent;

/**
 * The Java rows of the fast-path harness beside {@code seqlink-cycle-bench}'s, same names, same work (the
 * pattern filled on the producer side, copied to the consumer side, checksummed there), launched from
 * Java: the naive hand-offs ({@code naive-1s}, {@code naive-2s} and their {@code -async} throughput
 * forms, here) and the floor's mechanism through the user-kernel API ({@code floor}, {@code floor-pipelined},
 * {@code floor-batched}, {@code floor-batched-large}: {@link FloorRows}), each on a {@link HandOffRig} of its
 * own. Prints one JSON document ({@code "impl":"java-spi"}).
 *
 * <pre>
 * java -cp ... io.seqlink.backend.cuda.HandOffBenchmark [--mode latency|throughput|all] [--sizes 16384,1048576]
 *      [--frames N] [--warmup N] [--slots N] [--depth N] [--batch N] [--short]
 * </pre>
 */
public final class HandOffBenchmark {

    /** The options every row reads: frames per row, untimed frames first, ring slots, rounds armed ahead, frames per batch. */
    record Settings(String mode, int frames, int warmup, int slots, int depth, int batch) {
    }

    /** The document's {@code device}. */
    record DeviceInfo(String description) {
    }

    private final Settings settings;
    private final long[] sizes;
    private final BenchReport report = new BenchReport("java-spi");

    private HandOffBenchmark(String[] args) {
        BenchArgs a = new BenchArgs(args, "HandOffBenchmark's javadoc", "--mode", "--sizes", "--frames", "--warmup", "--slots",
                "--depth", "--batch");
        this.sizes = a.numbers("--sizes", new long[] {16384, 1 << 20});
        this.settings = new Settings(a.text("--mode", "all"), (int) a.number("--frames", a.quick() ? 2000 : 20000),
                (int) a.number("--warmup", a.quick() ? 200 : 1000), (int) a.number("--slots", 64), (int) a.number("--depth", 4),
                (int) a.number("--batch", 16));
    }

    public static void main(String[] args) {
        System.exit(new HandOffBenchmark(args).run());
    }

    private int run() {
        CudaBackendProvider provider = new CudaBackendProvider();
        if (!provider.detect().usable()) {
            System.err.println("HandOffBenchmark: no usable CUDA driver: " + provider.detect().summary());
            return 2;
        }
        String mode = settings.mode();
        FloorRows floor = new FloorRows(settings, report);
        try (Backend backend = provider.open()) {
            for (long size : sizes) {
                if (mode.equals("all") || mode.equals("latency")) {
                    naiveLatency(backend, size, false);
                    naiveLatency(backend, size, true);
                    floor.latency(backend, size);
                }
                if (mode.equals("all") || mode.equals("throughput")) {
                    naiveThroughput(backend, size, false);
                    naiveThroughput(backend, size, true);
                    floor.throughput(backend, size, 1, "floor-pipelined");
                    floor.throughput(backend, size, settings.batch(), "floor-batched");
                    floor.throughput(backend, size, Math.min(48, settings.slots() / 2), "floor-batched-large");
                }
                System.err.println("HandOffBenchmark: " + size + " B done");
            }
            System.out.print(report.write("seqlink-handoff-bench", 1, settings, new DeviceInfo(backend.description())));
        }
        return report.ok() ? 0 : 1;
    }

    /** fill + copy + checksum + synchronize per frame: on one stream, or across two with an event. */
    private void naiveLatency(Backend backend, long size, boolean twoStreams) {
        try (HandOffRig r = new HandOffRig(backend, settings.slots(), size)) {
            CUevent copied = r.newEvent();
            int n = BenchReport.framesFor(settings.frames(), size);
            BenchReport.Timed timed = BenchReport.timeFrames(settings.warmup(), n, s -> { }, s -> {
                CudaStream fillStream = twoStreams ? r.ps : r.cs;
                (twoStreams ? r.pw : r.cw).fill(r.ring, r.g.payloadOffsetOf(s), size, s);
                fillStream.copy(r.ring, r.g.payloadOffsetOf(s), r.local, r.g.payloadOffsetOf(s), size);
                if (twoStreams) {
                    HandOffRig.record(copied, r.ps);
                    HandOffRig.waitFor(copied, r.cs);
                }
                r.cw.checksum(r.local, r.g.payloadOffsetOf(s), size, r.results, 8 * (s % 1024));
                r.cs.synchronize();
            });
            report.latency(twoStreams ? "naive-2s" : "naive-1s", size, n, timed, r.verifyLast((long) settings.warmup() + n, size));
        }
    }

    /** The same work with frames in flight: one stream, or two with events gating the reuse of each slot. */
    private void naiveThroughput(Backend backend, long size, boolean twoStreams) {
        int slots = settings.slots();
        try (HandOffRig r = new HandOffRig(backend, slots, size)) {
            CUevent[] copied = new CUevent[slots];
            CUevent[] checked = new CUevent[slots];
            for (int i = 0; i < slots; i++) {
                copied[i] = r.newEvent();
                checked[i] = r.newEvent();
            }
            long total = 4L * BenchReport.framesFor(settings.frames(), size);
            long start = System.nanoTime();
            for (long s = 1; s <= total; s++) {
                int i = (int) ((s - 1) % slots);
                long at = r.g.payloadOffsetOf(s);
                if (twoStreams) {
                    if (s > slots) {
                        HandOffRig.waitFor(checked[i], r.ps); // the slot's last checksum is done
                    }
                    r.pw.fill(r.ring, at, size, s);
                    r.ps.copy(r.ring, at, r.local, at, size);
                    HandOffRig.record(copied[i], r.ps);
                    HandOffRig.waitFor(copied[i], r.cs);
                    r.cw.checksum(r.local, at, size, r.results, 8 * (s % 1024));
                    HandOffRig.record(checked[i], r.cs);
                } else {
                    r.cw.fill(r.ring, at, size, s);
                    r.cs.copy(r.ring, at, r.local, at, size);
                    r.cw.checksum(r.local, at, size, r.results, 8 * (s % 1024));
                }
            }
            r.cs.synchronize();
            report.throughput(twoStreams ? "naive-2s-async" : "naive-1s-async", size, total, 1, (System.nanoTime() - start) / 1e9,
                    r.verifyLast(total, size));
        }
    }
}
