package io.seqlink.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Latency percentiles in microseconds. {@link #EMPTY} (all NaN) stands for "not measured".
 * Percentile {@code q} of {@code n} sorted samples is the sample at rank {@code round(q (n - 1))},
 * the same rule as the C++ comparator.
 */
record Percentiles(long count, double p50, double p90, double p99, double p999, double mean, double min, double max) {

    static final Percentiles EMPTY = new Percentiles(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            Double.NaN);

    /** From {@code count} nanosecond samples (sorts them in place). */
    static Percentiles ofNanos(long[] nanos, int count) {
        if (count == 0) {
            return EMPTY;
        }
        Arrays.sort(nanos, 0, count);
        double sum = 0;
        for (int i = 0; i < count; i++) {
            sum += nanos[i];
        }
        return new Percentiles(count, at(nanos, count, 0.5), at(nanos, count, 0.9), at(nanos, count, 0.99), at(nanos, count, 0.999),
                sum / count / 1e3, nanos[0] / 1e3, nanos[count - 1] / 1e3);
    }

    private static double at(long[] sorted, int count, double q) {
        int i = (int) Math.min(count - 1, Math.round(q * (count - 1)));
        return sorted[i] / 1e3;
    }

    /** From a comparator's {@code latency_us} object; absent members are NaN. */
    static Percentiles ofJson(Map<String, Object> m, long count) {
        if (m.isEmpty()) {
            return EMPTY;
        }
        return new Percentiles(count, Json.number(m, "p50"), Json.number(m, "p90"), Json.number(m, "p99"), Json.number(m, "p999"),
                Json.number(m, "mean"), Json.number(m, "min"), Json.number(m, "max"));
    }

    boolean measured() {
        return !Double.isNaN(p50);
    }

    Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("samples", count);
        m.put("p50", p50);
        m.put("p90", p90);
        m.put("p99", p99);
        m.put("p999", p999);
        m.put("mean", mean);
        m.put("min", min);
        m.put("max", max);
        return m;
    }
}
