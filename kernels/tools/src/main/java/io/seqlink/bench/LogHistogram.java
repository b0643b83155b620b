package io.seqlink.bench;

/**
 * A latency histogram of 8 buckets per power of two of nanoseconds (about 9% wide): the same buckets
 * as the comparator's scheme kernels ({@code latency_bucket} in {@code seqlink_args.cuh}), so the CPU
 * reference and the GPU runs report percentiles at the same resolution. Recording never allocates.
 */
final class LogHistogram {

    private final long[] buckets = new long[256];
    private long count;

    static int bucket(long nanos) {
        if (nanos < 8) {
            return (int) Math.max(0, nanos);
        }
        int msb = 63 - Long.numberOfLeadingZeros(nanos);
        int sub = (int) ((nanos >>> (msb - 3)) & 7);
        return Math.min(255, (msb - 2) * 8 + sub);
    }

    /** Lower edge of bucket {@code b} in nanoseconds (inverse of {@link #bucket}). */
    static long floor(int b) {
        if (b < 8) {
            return b;
        }
        int msb = b / 8 + 2;
        long sub = b % 8;
        return (1L << msb) | (sub << (msb - 3));
    }

    void record(long nanos) {
        buckets[bucket(nanos)]++;
        count++;
    }

    long count() {
        return count;
    }

    /** The lower edge, in microseconds, of the bucket holding quantile {@code q} (the comparator's rule). */
    double percentileMicros(double q) {
        if (count == 0) {
            return Double.NaN;
        }
        long want = (long) (q * (count - 1)) + 1;
        long seen = 0;
        for (int b = 0; b < buckets.length; b++) {
            seen += buckets[b];
            if (seen >= want) {
                return floor(b) / 1e3;
            }
        }
        return Double.NaN;
    }
}
