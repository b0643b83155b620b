package io.seqlink.report;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Nanosecond latencies recorded into an HdrHistogram at three significant digits (every figure within
 * 0.1 % of the exact sample), up to ten minutes; a longer one is recorded as ten minutes. Recording
 * never allocates. One writer thread: record from one thread, read after that thread is done (or
 * joined), as the benchmarks do.
 */
public final class LatencyHistogram {

    static final long HIGHEST_NANOS = TimeUnit.MINUTES.toNanos(10);

    private final Histogram histogram = new Histogram(HIGHEST_NANOS, 3);

    /** Records one latency. */
    public void record(long nanos) {
        histogram.recordValue(Math.max(0, Math.min(HIGHEST_NANOS, nanos)));
    }

    /**
     * Forgets what was recorded, allocating nothing. The benchmarks record their warm-up frames too and
     * reset when the timed frames start, so the JIT has seen the recording path with real values by then.
     */
    public void reset() {
        histogram.reset();
    }

    public long count() {
        return histogram.getTotalCount();
    }

    /** The percentiles in microseconds, or {@link Percentiles#EMPTY} when nothing was recorded. */
    public Percentiles percentiles() {
        if (histogram.getTotalCount() == 0) {
            return Percentiles.EMPTY;
        }
        return new Percentiles(histogram.getTotalCount(), micros(50), micros(90), micros(99), micros(99.9),
                histogram.getMean() / 1e3, histogram.getMinValue() / 1e3, histogram.getMaxValue() / 1e3);
    }

    private double micros(double percentile) {
        return histogram.getValueAtPercentile(percentile) / 1e3;
    }
}
