package io.seqlink.autoconfigure.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.TestChannels;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.backend.emulated.LinkMode;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.lifecycle.Channels;
import io.seqlink.channel.ConsumerFailurePolicy;
import io.seqlink.backend.DeviceException;
import io.seqlink.channel.PublishChannel;
import io.seqlink.idle.IdleStrategyKind;
import io.seqlink.launcher.LauncherSettings;
import io.seqlink.spring.health.SeqlinkHealthContributor;
import io.seqlink.spring.health.SeqlinkHealthSettings;
import io.seqlink.spring.health.SeqlinkHealthStatus;
import io.seqlink.topology.LinkClass;
import io.seqlink.topology.TopologyPolicy;
import io.seqlink.topology.UnsupportedLinkPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/** What the seqlink health composite reports in each state, from cached state only. */
class SeqlinkHealthContributorTests {

    @Test
    void healthyChannelAndTopologyAreUp() {
        withChannel(ChannelSpec.builder("frames").producer(0).consumers(1).slots(8).slotBytes(64), SeqlinkHealthSettings.defaults(),
                (rt, ch, health) -> {
                    assertThat(child(health, "topology").getStatus()).isEqualTo(Status.UP);
                    Health frames = child(health, "frames");
                    assertThat(frames.getStatus()).isEqualTo(Status.UP);
                    assertThat(frames.getDetails()).containsEntry("backend", "emulated").containsKey("consumers");
                });
    }

    @Test
    void laggingConsumerIsDegradedAndNamed() {
        withChannel(ChannelSpec.builder("frames").producer(0).consumers(1).slots(8).slotBytes(64), SeqlinkHealthSettings.defaults(),
                (rt, ch, health) -> {
                    publish(ch, 6); // nobody consumes: lag 6 of 8 slots >= 0.75
                    Health frames = child(health, "frames");
                    assertThat(frames.getStatus()).isEqualTo(SeqlinkHealthStatus.DEGRADED);
                    assertThat(frames.getDetails()).containsEntry("laggingConsumers", List.of(1)).containsEntry("lagThreshold", 6L);
                });
    }

    @Test
    void laggingConsumerIsDownWhenConfiguredToFailOnDegraded() {
        withChannel(ChannelSpec.builder("frames").producer(0).consumers(1).slots(8).slotBytes(64),
                new SeqlinkHealthSettings(0.5, true), (rt, ch, health) -> {
                    publish(ch, 4);
                    assertThat(child(health, "frames").getStatus()).isEqualTo(Status.DOWN);
                });
    }

    @Test
    void stalledConsumerIsDegradedWithinTheStallTimeout() {
        withChannel(ChannelSpec.builder("frames").producer(0).consumers(1).slots(64).slotBytes(64)
                .stallTimeout(Duration.ofMillis(50)), SeqlinkHealthSettings.defaults(), (rt, ch, health) -> {
                    rt.start();
                    publish(ch, 1); // far below the lag threshold, but nobody acknowledges it
                    Health frames = await(() -> child(health, "frames"), h -> h.getDetails().containsKey("stalledConsumers"));
                    assertThat(frames.getStatus()).isEqualTo(SeqlinkHealthStatus.DEGRADED);
                    assertThat(frames.getDetails()).containsEntry("stalledConsumers", List.of(1));
                });
    }

    @Test
    void pausedConsumerIsNamed() {
        withChannel(ChannelSpec.builder("frames").producer(0).consumers(1).slots(8).slotBytes(64), SeqlinkHealthSettings.defaults(),
                (rt, ch, health) -> {
                    ch.consumer(1).pause();
                    assertThat(child(health, "frames").getDetails()).containsEntry("pausedConsumers", List.of(1));
                });
    }

    @Test
    void failedChannelIsDown() {
        withChannel(ChannelSpec.builder("frames").producer(0).consumers(1).slots(8).slotBytes(64), SeqlinkHealthSettings.defaults(),
                (rt, ch, health) -> {
                    Channels.fail(ch, new IllegalStateException("sticky CUDA error on device 0"), 0);
                    Health frames = child(health, "frames");
                    assertThat(frames.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(frames.getDetails()).containsEntry("failure", "sticky CUDA error on device 0");
                });
    }

    @Test
    void droppedConsumerIsDegradedAndAWaitedForDeadConsumerIsDown() {
        withChannel(ChannelSpec.builder("frames").producer(0).consumers(1).slots(8).slotBytes(64)
                .consumerFailurePolicy(ConsumerFailurePolicy.DROP_CONSUMER), SeqlinkHealthSettings.defaults(), (rt, ch, health) -> {
                    Channels.consumerDeviceLost(ch, 1, lost());
                    Health frames = child(health, "frames");
                    assertThat(frames.getStatus()).isEqualTo(SeqlinkHealthStatus.DEGRADED);
                    assertThat(frames.getDetails()).containsEntry("deadConsumers", List.of(1));
                });
        withChannel(ChannelSpec.builder("frames").producer(0).consumers(1).slots(8).slotBytes(64)
                .consumerFailurePolicy(ConsumerFailurePolicy.KEEP_WAITING), SeqlinkHealthSettings.defaults(), (rt, ch, health) -> {
                    Channels.consumerDeviceLost(ch, 1, lost());
                    assertThat(child(health, "frames").getStatus()).isEqualTo(Status.DOWN);
                });
    }

    @Test
    void closedChannelIsOutOfServiceAndReadsNoFreedMemory() {
        withChannel(ChannelSpec.builder("frames").producer(0).consumers(1).slots(8).slotBytes(64), SeqlinkHealthSettings.defaults(),
                (rt, ch, health) -> {
                    HealthIndicator indicator = (HealthIndicator) health.getContributor("frames");
                    indicator.health(); // a snapshot while open
                    ch.drainAndClose(Duration.ZERO);
                    Health frames = indicator.health();
                    assertThat(frames.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
                    assertThat(frames.getDetails()).containsEntry("state", io.seqlink.channel.ChannelState.CLOSED);
                });
    }

    @Test
    void degradedLinkUnderPolicyWarnMakesTheTopologyDegraded() {
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().backend(BackendSelection.EMULATED)
                .emulated(EmulatedTopology.builder(2).link(0, 1, LinkMode.PCIE_PEER).build())
                .policy(new TopologyPolicy(LinkClass.PEER_ATOMIC, UnsupportedLinkPolicy.WARN)).open()) {
            rt.openChannel(ChannelSpec.builder("frames").producer(0).consumers(1).slots(8).slotBytes(64).build());
            SeqlinkHealthContributor health = new SeqlinkHealthContributor(rt, SeqlinkHealthSettings.defaults());
            Health topology = child(health, "topology");
            assertThat(topology.getStatus()).isEqualTo(SeqlinkHealthStatus.DEGRADED);
            assertThat(topology.getDetails()).containsEntry("degradedLinks", List.of("0->1"));
            assertThat(topology.getDetails().get("links")).isEqualTo(Map.of("0->1", "PEER_COPY", "1->0", "PEER_COPY"));
            assertThat(child(new SeqlinkHealthContributor(rt, new SeqlinkHealthSettings(0.75, true)), "topology").getStatus())
                    .isEqualTo(Status.DOWN);
        }
    }

    @Test
    void channelsOpenedAfterStartupAppearInTheComposite() {
        withChannel(ChannelSpec.builder("frames").producer(0).consumers(1).slots(8).slotBytes(64), SeqlinkHealthSettings.defaults(),
                (rt, ch, health) -> {
                    rt.openChannel(ChannelSpec.builder("late").producer(1).consumers(0).slots(8).slotBytes(64).build());
                    assertThat(health.stream().map(e -> e.name())).containsExactly("topology", "frames", "late");
                    assertThat(health.getContributor("late")).isInstanceOf(HealthIndicator.class);
                });
    }

    // ---- helpers ----------------------------------------------------------------------------

    interface ChannelTest {
        void run(SeqlinkRuntime rt, PublishChannel ch, SeqlinkHealthContributor health);
    }

    static void withChannel(ChannelSpec.Builder spec, SeqlinkHealthSettings settings, ChannelTest test) {
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().backend(BackendSelection.EMULATED)
                .emulated(EmulatedTopology.allNvlink(2))
                .launcher(new LauncherSettings(IdleStrategyKind.PARK, 32, Duration.ofMillis(10)))
                .drainTimeout(Duration.ZERO).open()) {
            PublishChannel ch = rt.openChannel(spec.build());
            test.run(rt, ch, new SeqlinkHealthContributor(rt, settings));
        }
    }

    static Health child(SeqlinkHealthContributor health, String name) {
        return ((HealthIndicator) health.getContributor(name)).health();
    }

    static void publish(PublishChannel ch, int n) {
        for (int i = 1; i <= n; i++) {
            TestChannels.publishLong(ch, i);
        }
    }

    static DeviceException lost() {
        return new DeviceException("CUDA_ERROR_DEVICE_UNAVAILABLE", "device", 1, true, "device 1 fell off the bus");
    }

    static <T> T await(Supplier<T> supplier, java.util.function.Predicate<T> done) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        T value = supplier.get();
        while (!done.test(value) && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
            value = supplier.get();
        }
        return value;
    }

}
