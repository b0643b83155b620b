package io.seqlink.shared;

import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameHandler;
import java.util.Arrays;

/**
 * A host listener for {@link CrossProcessLatencyBench}: each frame's first word is {@code System.nanoTime()} at its
 * publish (CLOCK_MONOTONIC on Linux, one clock for every process of the host); it records the time to its own call and
 * checks the frame's last word (the sequence), so it reads both ends of the frame and nothing between. It samples the
 * frames after the first {@link #WARMUP}, and keeps the first sampled frame's start and the last one's call time: with
 * frames sent back to back, {@link #window()} is the time the samples took to cross. No allocation per frame: the
 * samples go into an array made up front.
 */
final class LatencySink implements FrameHandler {

    /** Frames before the samples begin (the JIT compiles the path meanwhile). */
    static final int WARMUP = 2_000;

    private final long[] nanos;
    private long seen;
    private volatile int count;
    private volatile long wrong;
    private long firstStart;
    private volatile long lastCall;

    LatencySink(int frames) {
        this.nanos = new long[frames];
    }

    @Override
    public void onFrame(Frame frame) {
        long now = System.nanoTime();
        var p = frame.payload();
        if (p.getLong(p.limit() - 8) != frame.sequence()) {
            wrong++;
        }
        int n = count;
        if (++seen > WARMUP && n < nanos.length) {
            long start = p.getLong(0);
            nanos[n] = now - start;
            if (n == 0) {
                firstStart = start;
            }
            lastCall = now;
            count = n + 1;
        }
    }

    int count() {
        return count;
    }

    long wrong() {
        return wrong;
    }

    /** From the first sampled frame's start to the last sampled frame's call, in nanoseconds (0 before a sample). */
    long window() {
        long last = lastCall; // volatile read first: firstStart was written before the first lastCall
        return count == 0 ? 0 : last - firstStart;
    }

    /** p50, p99, p99.9 and max in nanoseconds of the samples so far; call once {@link #count()} stopped moving. */
    long[] percentiles() {
        return percentilesOf(Arrays.copyOf(nanos, count));
    }

    /** p50, p99, p99.9 and max of {@code samples} (sorted in place). */
    static long[] percentilesOf(long[] samples) {
        Arrays.sort(samples);
        return new long[] {at(samples, 0.50), at(samples, 0.99), at(samples, 0.999),
            samples.length == 0 ? 0 : samples[samples.length - 1]};
    }

    private static long at(long[] sorted, double q) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) Math.floor(q * sorted.length))];
    }
}
