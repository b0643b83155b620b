package io.seqlink.backend.cuda;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;

/** Percentiles, JSON fragments and an allocation meter for the benchmark mains of this package. */
final class BenchSupport {

    private BenchSupport() {
    }

    /** Latency percentiles in microseconds of {@code count} nanosecond samples (sorts a copy). */
    static String latencyJson(long[] nanos, int count) {
        long[] v = Arrays.copyOf(nanos, count);
        Arrays.sort(v);
        double sum = 0;
        for (long x : v) {
            sum += x;
        }
        return String.format(Locale.ROOT,
                "{\"p50\":%.3f,\"p90\":%.3f,\"p99\":%.3f,\"p999\":%.3f,\"mean\":%.3f,\"min\":%.3f,\"max\":%.3f}",
                at(v, 0.5), at(v, 0.9), at(v, 0.99), at(v, 0.999), count == 0 ? 0 : sum / count / 1e3,
                count == 0 ? 0 : v[0] / 1e3, count == 0 ? 0 : v[count - 1] / 1e3);
    }

    static double percentileMicros(long[] nanos, int count, double q) {
        long[] v = Arrays.copyOf(nanos, count);
        Arrays.sort(v);
        return at(v, q);
    }

    private static double at(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)));
        return sorted[i] / 1e3;
    }

    static String json(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    /** Bytes the calling thread allocated so far (HotSpot's per-thread counter), or -1 where unavailable. */
    static long allocatedBytes() {
        try {
            java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
            if (bean instanceof com.sun.management.ThreadMXBean hs) {
                return hs.getCurrentThreadAllocatedBytes();
            }
        } catch (RuntimeException | LinkageError ex) {
            // no jdk.management: report unknown
        }
        return -1;
    }

    /** Spins until the word reaches {@code target}; throws after 10 s (a bug, never a legitimate wait). */
    static void awaitAtLeast(io.seqlink.backend.MappedBuffer mirror, long offset, long target, String what) {
        long deadline = 0;
        int n = 0;
        while (mirror.getAcquire(offset) < target) {
            if ((++n & 0xFFFF) == 0) {
                long now = System.nanoTime();
                if (deadline == 0) {
                    deadline = now + 10_000_000_000L;
                } else if (now - deadline > 0) {
                    throw new IllegalStateException("waited 10 s for " + what + " to reach " + target + " (it is "
                            + mirror.getAcquire(offset) + ")");
                }
            }
            Thread.onSpinWait();
        }
    }

    static long parseLong(String flag, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException ex) {
            throw new IllegalArgumentException(flag + " needs a number, got '" + value + "'");
        }
    }
}
