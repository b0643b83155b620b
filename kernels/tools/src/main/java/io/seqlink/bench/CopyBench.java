package io.seqlink.bench;

import io.seqlink.backend.Backend;
import io.seqlink.backend.DeviceBuffer;
import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.FramePattern;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.report.LatencyHistogram;

/**
 * Plain device copies through the SPI ({@code cuMemcpyAsync} on CUDA): the bandwidth of large copies,
 * which frames of 1 MiB and more are judged against, and the per-frame latency of "copy, then
 * synchronise the stream", the simplest hand-off a Java user could write instead of a channel.
 */
final class CopyBench {

    /** Trials of the bandwidth measurement; the best counts. */
    static final int TRIALS = 3;

    private final BenchEnvironment env;

    CopyBench(BenchEnvironment env) {
        this.env = env;
    }

    /** Bandwidth of back-to-back copies of {@code bytes} from device {@code src} to device {@code dst}, on dst's stream. */
    Results.CopyRow bandwidth(String kind, int src, int dst, long bytes) {
        Backend backend = env.backend();
        if (src != dst) {
            backend.enablePeerAccess(dst, src);
        }
        try (DeviceBuffer from = backend.device(src).allocate(Alloc.lines(bytes));
                DeviceBuffer to = backend.device(dst).allocate(Alloc.lines(bytes));
                DeviceStream stream = backend.device(dst).newStream("bench-copy-bandwidth")) {
            BenchWork.on(stream).fill(from, 0, bytes, 1); // never time copies of zeros
            stream.copy(from, 0, to, 0, bytes);
            stream.synchronize();
            int repeats = repeatsFor(bytes);
            double best = 0;
            for (int trial = 0; trial < TRIALS; trial++) { // a ceiling: the best trial, so a disturbed one does not lower it
                long t0 = System.nanoTime();
                for (int i = 0; i < repeats; i++) {
                    stream.copy(from, 0, to, 0, bytes);
                }
                stream.synchronize();
                double seconds = (System.nanoTime() - t0) / 1e9;
                best = Math.max(best, repeats * (double) bytes / seconds / 1e9);
            }
            return new Results.CopyRow(kind, src, dst, bytes, repeats * TRIALS, best);
        }
    }

    /** Enough copies for about 8 GiB on a GPU (a few ms each), a handful on the CPU reference. */
    private int repeatsFor(long bytes) {
        if (env.emulated()) {
            return 8;
        }
        return (int) Math.max(8, Math.min(256, (8L << 30) / bytes));
    }

    /** Per-frame latency of copying {@code size} bytes producer -> consumer and synchronising the consumer's stream. */
    Results.CycleRow copyThenSynchronize(long size) {
        Backend backend = env.backend();
        int p = env.producer();
        int c = env.consumer();
        if (p != c) {
            backend.enablePeerAccess(c, p);
        }
        int frames = Math.min(env.framesFor(size), BenchEnvironment.LARGE_FRAME_CAP);
        int warmup = Math.min(env.warmupFor(size), 500);
        try (DeviceBuffer from = backend.device(p).allocate(Alloc.lines(size));
                DeviceBuffer to = backend.device(c).allocate(Alloc.lines(size));
                MappedBuffer sum = backend.device(c).allocateMapped(Alloc.lines(8));
                DeviceStream stream = backend.device(c).newStream("bench-copy-sync")) {
            BenchWork.on(stream).fill(from, 0, size, 7);
            stream.synchronize();
            LatencyHistogram latency = new LatencyHistogram();
            long allocBefore = -1;
            for (int i = 0; i < warmup + frames; i++) {
                if (i == warmup) {
                    latency.reset();
                    allocBefore = AllocationMeter.current();
                }
                long t0 = System.nanoTime();
                stream.copy(from, 0, to, 0, size);
                stream.synchronize();
                latency.record(System.nanoTime() - t0);
            }
            long allocAfter = AllocationMeter.current();
            BenchWork.on(stream).checksum(to, 0, size, sum, 0);
            stream.synchronize();
            boolean ok = sum.getAcquire(0) == FramePattern.expectedChecksum(7, (int) size);
            return new Results.CycleRow(Results.JAVA, "copy-sync", size, latency.percentiles(), ok ? 1 : 0, ok ? 0 : 1,
                    AllocationMeter.perFrame(allocBefore, allocAfter, frames), Double.NaN);
        }
    }
}
