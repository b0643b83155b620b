package io.seqlink.backend.cuda;

import io.seqlink.backend.FramePattern;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.report.LatencyHistogram;
import io.seqlink.report.Percentiles;
import io.seqlink.report.ReportJson;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.function.LongPredicate;

/**
 * The rows the Java CUDA benchmarks print, in the C++ comparator's JSON shape (snake_case members through
 * Jackson, {@link ReportJson}), the rules they share with it (fewer frames and a sample of checks above
 * 64 KiB), and the verdict: a run is ok while no row counted a corrupt frame. Owned by the benchmark's main
 * thread, which alone adds rows.
 */
final class BenchReport {

    /** Frames above 64 KiB are many times slower to verify on the host than to move: at most this many. */
    static final int LARGE_FRAMES = 2000;

    /** The document: {@code config} and {@code device} are the benchmark's own records. */
    record Document(String tool, String impl, int version, Object config, Object device, boolean ok, List<Object> results) {
    }

    /** One frame in flight; {@code allocBytesPerFrame}: what the measuring thread allocated per timed frame. */
    record LatencyRow(String mode, String kind, String impl, long frameBytes, int frames, Percentiles latencyUs, long verified,
            long corrupt, double allocBytesPerFrame) {
    }

    /** Frames in flight; {@code batch}: frames per producer kernel and per consumer round. */
    record ThroughputRow(String mode, String kind, String impl, long frameBytes, long frames, int batch, double seconds,
            double framesPerS, double gbPerS, long verified, long corrupt) {
    }

    /** What a latency run measured: the timed frames' percentiles and the measuring thread's bytes allocated per timed frame. */
    record Timed(Percentiles latency, double allocBytesPerFrame) {
    }

    private final String impl;
    private final List<Object> rows = new ArrayList<>();
    private boolean ok = true;

    BenchReport(String impl) {
        this.impl = impl;
    }

    static int framesFor(int frames, long size) {
        return size > 65536 ? Math.min(frames, LARGE_FRAMES) : frames;
    }

    /** Whether frame {@code s}'s checksum is checked: every frame up to 64 KiB, every 16th above. */
    static boolean checked(long s, long size) {
        return size <= 65536 || s % 16 == 0;
    }

    /** {verified, corrupt} over the last 1,024 frames up to {@code total} that {@link #checked} selects. */
    static long[] verifyLast(long total, long size, LongPredicate intact) {
        long[] counts = new long[2];
        for (long s = Math.max(1, total - 1023); s <= total; s++) {
            if (checked(s, size)) {
                counts[intact.test(s) ? 0 : 1]++;
            }
        }
        return counts;
    }

    /** {@link #verifyLast} of checksums the consumer's kernels wrote to word {@code s % 1024} of {@code sums}. */
    static long[] verifySums(MappedBuffer sums, long total, long size) {
        return verifyLast(total, size, s -> sums.getAcquire(8 * (s % 1024)) == FramePattern.expectedChecksum(s, (int) size));
    }

    /**
     * Runs frames 1 to {@code warmup + frames} on the calling thread, one in flight: {@code arm(s)} untimed (work
     * queued ahead of frame s), then {@code frame(s)}, timed from its call until it returns (until the frame is
     * done). The first {@code warmup} frames are not counted, nor is what the calling thread allocated for them.
     */
    static Timed timeFrames(int warmup, int frames, LongConsumer arm, LongConsumer frame) {
        LatencyHistogram lat = new LatencyHistogram();
        long allocStart = 0;
        long total = (long) warmup + frames;
        for (long s = 1; s <= total; s++) {
            if (s == warmup + 1) {
                lat.reset();
                allocStart = BenchSupport.allocatedBytes();
            }
            arm.accept(s);
            long t0 = System.nanoTime();
            frame.accept(s);
            lat.record(System.nanoTime() - t0);
        }
        long allocEnd = BenchSupport.allocatedBytes();
        return new Timed(lat.percentiles(), allocStart < 0 || allocEnd < 0 ? -1.0 : (allocEnd - allocStart) / (double) frames);
    }

    void latency(String mode, long size, int frames, Timed timed, long[] verified) {
        latency(mode, impl, size, frames, timed, verified);
    }

    /** A latency row of another impl (the channel API's, say). */
    void latency(String mode, String rowImpl, long size, int frames, Timed timed, long[] verified) {
        add(new LatencyRow(mode, "latency", rowImpl, size, frames, timed.latency(), verified[0], verified[1], timed.allocBytesPerFrame()),
                verified[1]);
    }

    void throughput(String mode, long size, long frames, int batch, double seconds, long[] verified) {
        add(new ThroughputRow(mode, "throughput", impl, size, frames, batch, seconds, frames / seconds,
                frames * (double) size / seconds / 1e9, verified[0], verified[1]), verified[1]);
    }

    private void add(Object row, long corrupt) {
        rows.add(row);
        ok &= corrupt == 0;
    }

    boolean ok() {
        return ok;
    }

    /** The whole document as indented JSON. */
    String write(String tool, int version, Object config, Object device) {
        return ReportJson.writeSnakeCase(new Document(tool, impl, version, config, device, ok, rows));
    }

    /** Joins a benchmark's worker thread, keeping this thread's interrupt. */
    static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
