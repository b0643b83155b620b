package io.seqlink.report;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Latency percentiles in microseconds, as the reports print them. {@link #EMPTY} (all NaN, written
 * as {@code null}) stands for "not measured". Made by a {@link LatencyHistogram} or read from the C++
 * comparator's documents.
 *
 * @param count how many latencies the figures summarise (in JSON: {@code samples})
 */
public record Percentiles(@JsonProperty("samples") long count, double p50, double p90, double p99, double p999, double mean,
        double min, double max) {

    public static final Percentiles EMPTY = new Percentiles(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            Double.NaN, Double.NaN);

    /** Whether there were samples. */
    public boolean measured() {
        return !Double.isNaN(p50);
    }
}
