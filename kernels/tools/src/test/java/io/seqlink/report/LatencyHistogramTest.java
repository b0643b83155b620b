package io.seqlink.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The benchmarks' latency percentiles: HdrHistogram at three significant digits, in microseconds. */
class LatencyHistogramTest {

    @Test
    void percentilesAreWithinATenthOfAPercentOfTheExactSamples() {
        LatencyHistogram h = new LatencyHistogram();
        for (long ns = 1_000; ns <= 100_000; ns += 1_000) { // 1..100 µs, 100 samples
            h.record(ns);
        }
        Percentiles p = h.percentiles();
        assertThat(p.count()).isEqualTo(100);
        assertThat(p.p50()).isCloseTo(50, within(50 * 0.001));
        assertThat(p.p90()).isCloseTo(90, within(90 * 0.001));
        assertThat(p.p99()).isCloseTo(99, within(99 * 0.001));
        assertThat(p.p999()).isCloseTo(100, within(100 * 0.001));
        assertThat(p.min()).isCloseTo(1, within(0.001));
        assertThat(p.max()).isCloseTo(100, within(100 * 0.001));
        assertThat(p.mean()).isCloseTo(50.5, within(50.5 * 0.001));
    }

    @Test
    void nothingRecordedIsNotMeasured() {
        assertThat(new LatencyHistogram().percentiles()).isEqualTo(Percentiles.EMPTY);
        assertThat(Percentiles.EMPTY.measured()).isFalse();
    }

    @Test
    void resetForgetsTheWarmUpAndAnOverlongLatencyIsClamped() {
        LatencyHistogram h = new LatencyHistogram();
        h.record(5_000);
        h.reset();
        h.record(Long.MAX_VALUE);
        assertThat(h.count()).isEqualTo(1);
        assertThat(h.percentiles().max() * 1e3).isCloseTo(LatencyHistogram.HIGHEST_NANOS, within(LatencyHistogram.HIGHEST_NANOS * 0.001));
    }
}
