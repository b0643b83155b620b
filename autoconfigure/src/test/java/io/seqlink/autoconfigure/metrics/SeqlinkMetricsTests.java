package io.seqlink.autoconfigure.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.TestChannels;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.backend.emulated.LinkMode;
import io.seqlink.topology.LinkClass;
import io.seqlink.topology.TopologyPolicy;
import io.seqlink.topology.UnsupportedLinkPolicy;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.metrics.SeqlinkMetrics;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** seqlink's meters follow the channel's counters and the probe's figures. */
class SeqlinkMetricsTests {

    @Test
    void metersFollowPublishedConsumedAndTheLatencyOfEveryFrame() {
        try (SeqlinkRuntime rt = runtime()) {
            PublishChannel ch = rt.openChannel(ChannelSpec.builder("frames").producer(0).consumers(1).slots(16).slotBytes(64).build());
            ch.consumer(1).subscribe(frame -> { });
            MeterRegistry registry = new SimpleMeterRegistry();
            new SeqlinkMetrics(rt).bindTo(registry);
            rt.start();
            for (int i = 1; i <= 100; i++) {
                TestChannels.publishLong(ch, i);
            }
            assertThat(rt.launcher().awaitDrained(Duration.ofSeconds(10))).isTrue();
            assertThat(registry.get("seqlink.channel.published").tags("channel", "frames", "device", "0").functionCounter().count())
                    .isEqualTo(100);
            assertThat(registry.get("seqlink.consumer.consumed").tags("channel", "frames", "consumer", "1", "device", "1")
                    .functionCounter().count()).isEqualTo(100);
            assertThat(registry.get("seqlink.consumer.lag").tag("channel", "frames").gauge().value()).isZero();
            assertThat(registry.get("seqlink.consumer.position").tag("channel", "frames").gauge().value()).isEqualTo(100);
            Timer latency = registry.get("seqlink.consumer.latency").tags("channel", "frames", "consumer", "1").timer();
            assertThat(latency.count()).isEqualTo(100);
            assertThat(latency.max(TimeUnit.NANOSECONDS)).isPositive();
            HistogramSnapshot histogram = latency.takeSnapshot();
            assertThat(histogram.percentileValues()).as("no percentiles unless the application asks").isEmpty();
            assertThat(histogram.histogramCounts()).isEmpty();
            assertThat(registry.get("seqlink.link.atomic.latency").tags("producer", "0", "consumer", "1").gauge().value())
                    .isPositive().isLessThan(1.0);
            assertThat(registry.get("seqlink.link.scaling.ratio").tags("producer", "0", "consumer", "1").gauge().value())
                    .isPositive();
        }
    }

    @Test
    void backpressureCountsEachClaimThatFoundNoSlotOnceAndTheTimeItWaited() {
        try (SeqlinkRuntime rt = runtime()) {
            PublishChannel ch = rt.openChannel(ChannelSpec.builder("frames").producer(0).consumers(1).slots(4).slotBytes(64)
                    .backpressureTimeout(Duration.ZERO).build());
            MeterRegistry registry = new SimpleMeterRegistry();
            new SeqlinkMetrics(rt).bindTo(registry);
            while (ch.offer(new byte[8], 0, 8) > 0) {
                // fill the ring: the last offer found no slot
            }
            assertThat(registry.get("seqlink.channel.backpressure.waits").functionCounter().count()).isEqualTo(1);
            long start = System.nanoTime();
            assertThat(ch.claim(50, TimeUnit.MILLISECONDS)).isEqualTo(ClaimStatus.BACK_PRESSURED);
            double waited = (System.nanoTime() - start) / 1e9;
            assertThat(registry.get("seqlink.channel.backpressure.waits").functionCounter().count())
                    .as("one blocking claim that retried many times counts once").isEqualTo(2);
            assertThat(registry.get("seqlink.channel.backpressure.wait").functionCounter().count())
                    .isBetween(0.05, waited);
            assertThat(registry.get("seqlink.consumer.lag").gauge().value()).isEqualTo(4);
        }
    }

    /**
     * 10,000 blocking claims on a healthy channel (the producer paced below what its consumer takes): a
     * claim that finds no slot counts once, however long it waits, and its wait is timed, so the alert of
     * docs/operations.md (producers waiting more than half the time) stays quiet instead of firing on
     * every short wait.
     */
    @Test
    void theBackpressureAlertStaysQuietOnAHealthyChannel() {
        try (SeqlinkRuntime rt = runtime()) {
            // a ring of 1,024 absorbs the consumer's scheduling hiccups on a busy machine; the rate is what it takes easily
            PublishChannel ch = rt.openChannel(ChannelSpec.builder("frames").producer(0).consumers(1).slots(1024).slotBytes(64)
                    .build());
            ch.consumer(1).subscribe(frame -> { });
            MeterRegistry registry = new SimpleMeterRegistry();
            new SeqlinkMetrics(rt).bindTo(registry);
            rt.start();
            int claims = 10_000;
            long start = System.nanoTime();
            for (int i = 0; i < claims; i++) {
                long seq = ch.claim();
                assertThat(seq).isPositive();
                ch.buffer().putLong(0, seq);
                ch.commit(8);
                ch.publish();
                long paceUntil = System.nanoTime() + 100_000; // 10,000 frames/s: well within what the consumer takes
                while (System.nanoTime() - paceUntil < 0) {
                    Thread.onSpinWait();
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double waits = registry.get("seqlink.channel.backpressure.waits").functionCounter().count();
            double waitSeconds = registry.get("seqlink.channel.backpressure.wait").functionCounter().count();
            assertThat(waits).as("claims that found no slot, of %d", claims).isLessThanOrEqualTo(claims);
            // SeqlinkBackpressured: rate(seqlink_channel_backpressure_wait_seconds_total[5m]) > 0.5
            assertThat(waitSeconds / seconds).as("share of the time spent waiting for a slot (%.3f s of %.3f s)", waitSeconds, seconds)
                    .isLessThan(0.5);
        }
    }

    @Test
    void metersOfAClosedChannelKeepTheirLastValueWithoutReadingFreedMemory() {
        try (SeqlinkRuntime rt = runtime()) {
            PublishChannel ch = rt.openChannel(ChannelSpec.builder("frames").producer(0).consumers(1).slots(4).slotBytes(64).build());
            MeterRegistry registry = new SimpleMeterRegistry();
            new SeqlinkMetrics(rt).bindTo(registry);
            TestChannels.publishLong(ch, 1);
            assertThat(registry.get("seqlink.channel.published").functionCounter().count()).isEqualTo(1);
            ch.drainAndClose(Duration.ZERO);
            assertThat(registry.get("seqlink.channel.published").functionCounter().count()).isEqualTo(1);
            assertThat(registry.get("seqlink.consumer.lag").gauge().value()).isEqualTo(1);
        }
    }

    @Test
    void aLinkBelowTheRequiredClassIsOneAndALinkThatSatisfiesItZero() {
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().backend(BackendSelection.EMULATED)
                .emulated(EmulatedTopology.builder(3).link(0, 1, LinkMode.PCIE_PEER).build())
                .policy(new TopologyPolicy(LinkClass.PEER_ATOMIC, UnsupportedLinkPolicy.WARN)).drainTimeout(Duration.ZERO).open()) {
            rt.openChannel(ChannelSpec.builder("frames").producer(0).consumers(1, 2).slots(8).slotBytes(64).build());
            MeterRegistry registry = new SimpleMeterRegistry();
            new SeqlinkMetrics(rt).bindTo(registry);
            assertThat(registry.get("seqlink.link.below.required").tags("producer", "0", "consumer", "1", "required", "peer-atomic")
                    .gauge().value()).as("0 -> 1 is peer-copy").isEqualTo(1);
            assertThat(registry.get("seqlink.link.below.required").tags("producer", "0", "consumer", "2").gauge().value())
                    .as("0 -> 2 is peer-atomic").isZero();
        }
    }

    private static SeqlinkRuntime runtime() {
        return SeqlinkRuntime.builder().backend(BackendSelection.EMULATED).emulated(EmulatedTopology.allNvlink(2))
                .drainTimeout(Duration.ZERO).open();
    }
}
