package io.seqlink.spring.metrics;

import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How {@code seqlink.consumer.latency} is distributed: as Micrometer's summary alone ({@code _count},
 * {@code _sum}, {@code _max}: cannot be aggregated across instances), or with histogram buckets
 * ({@code _bucket} series that Prometheus' {@code histogram_quantile} sums over instances). Immutable;
 * safe from any thread.
 *
 * @param percentileHistogram whether to publish Micrometer's percentile histogram, its buckets between
 *                            {@code minimumExpected} and {@code maximumExpected}
 * @param serviceLevelObjectives extra bucket boundaries, published whether or not the histogram is on
 * @param minimumExpected     the smallest latency the histogram's buckets resolve
 * @param maximumExpected     the largest latency the histogram's buckets resolve
 */
public record LatencyDistribution(boolean percentileHistogram, List<Duration> serviceLevelObjectives, Duration minimumExpected,
        Duration maximumExpected) {

    /** Buckets from 1 µs (a frame on the fast path) to 1 s (a listener that blocks). */
    public static final Duration DEFAULT_MINIMUM = Duration.ofNanos(1_000);
    public static final Duration DEFAULT_MAXIMUM = Duration.ofSeconds(1);

    /** The summary alone, no bucket: what the meter has without configuration. */
    public static final LatencyDistribution SUMMARY = new LatencyDistribution(false, List.of(), DEFAULT_MINIMUM, DEFAULT_MAXIMUM);

    public LatencyDistribution {
        serviceLevelObjectives = List.copyOf(serviceLevelObjectives);
        Objects.requireNonNull(minimumExpected, "minimumExpected");
        Objects.requireNonNull(maximumExpected, "maximumExpected");
    }

    /** Applies this distribution to a timer being built. */
    Timer.Builder applyTo(Timer.Builder timer) {
        if (percentileHistogram) {
            timer.publishPercentileHistogram(true).minimumExpectedValue(minimumExpected).maximumExpectedValue(maximumExpected);
        }
        if (!serviceLevelObjectives.isEmpty()) {
            timer.serviceLevelObjectives(serviceLevelObjectives.toArray(Duration[]::new));
        }
        return timer;
    }
}
