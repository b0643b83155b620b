package io.seqlink.autoconfigure.reliability;

import static io.seqlink.autoconfigure.reliability.FaultRig.await;
import static io.seqlink.autoconfigure.reliability.FaultRig.range;
import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.ConsumerFailurePolicy;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.health.SeqlinkHealthSettings;
import io.seqlink.spring.health.SeqlinkHealthStatus;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * A lost consumer device: channel {@code frames} from device 0 to devices 1 and 2; device 1
 * falls off the bus ({@code EmulatedFaults.loseDevice}). For each {@code consumer-failure-policy} the
 * consumer on device 1 is marked {@code DEAD} with the driver error ({@code seqlink_consumer_dead} 1), the
 * policy applies, and health and meters show it as docs/operations.md says:
 *
 * <ul>
 * <li>{@code fail-channel}: the channel fails ({@code FAILED}, claims return {@code FAILED}); health
 * {@code DOWN}; {@code seqlink_channel_failed} 1; at close every published frame is delivered or
 * reported undelivered, per consumer;</li>
 * <li>{@code drop-consumer}: the producer goes on for device 2, which gets every frame; health
 * {@code DEGRADED}; the dead consumer's lag grows, its position stands still;</li>
 * <li>{@code keep-waiting}: the dead consumer still holds the producer back: claims come back
 * {@code BACK_PRESSURED} once the ring is full; health {@code DOWN}; backpressure waits grow.</li>
 * </ul>
 */
class LostConsumerDeviceReliabilityTests {

    static final int SLOTS = 16;

    @ParameterizedTest(name = "{0}")
    @EnumSource(ConsumerFailurePolicy.class)
    void lostConsumerDeviceMarksTheConsumerDeadAndAppliesThePolicy(ConsumerFailurePolicy policy) {
        ChannelSpec spec = ChannelSpec.builder("frames").producer(0).consumers(1, 2).slots(SLOTS).slotBytes(64)
                .backpressureTimeout(Duration.ofMillis(100)).consumerFailurePolicy(policy).build();
        try (FaultRig rig = FaultRig.open(3, SeqlinkHealthSettings.defaults(), spec)) {
            PublishChannel ch = rig.channel("frames");
            FaultRig.Recorder one = rig.record("frames", 1);
            FaultRig.Recorder two = rig.record("frames", 2);
            rig.rt.start();
            rig.publish("frames", 1, 10);
            assertThat(rig.rt.launcher().awaitDrained(Duration.ofSeconds(10))).isTrue();
            assertThat(rig.aggregate()).isEqualTo(Status.UP);

            rig.faults.loseDevice(1);
            rig.publish("frames", 11, 11); // the consumer on device 1 learns of the loss when it next has work
            ConsumerState dead = await(Duration.ofSeconds(10), () -> ch.consumer(1).state(), s -> s == ConsumerState.DEAD);
            assertThat(dead).isEqualTo(ConsumerState.DEAD);
            assertThat(ch.consumer(1).failure()).hasMessageContaining("CUDA_ERROR_DEVICE_UNAVAILABLE")
                    .hasMessageContaining("device 1");
            assertThat(one.values).containsExactlyElementsOf(range(1, 10));
            assertThat(rig.meter("seqlink.consumer.dead", "channel", "frames", "consumer", "1")).isEqualTo(1);
            assertThat(rig.meter("seqlink.consumer.dead", "channel", "frames", "consumer", "2")).isZero();
            long ackOne = ch.consumer(1).acknowledged();
            assertThat(ackOne).isEqualTo(10);
            Health health;

            switch (policy) {
                case FAIL_CHANNEL -> {
                    assertThat(await(Duration.ofSeconds(5), ch::state, s -> s == ChannelState.FAILED)).isEqualTo(ChannelState.FAILED);
                    assertThat(ch.failure()).hasMessageContaining("CUDA_ERROR_DEVICE_UNAVAILABLE");
                    assertThat(ch.tryClaim()).isEqualTo(ClaimStatus.FAILED);
                    assertThat(ch.claim(50, TimeUnit.MILLISECONDS)).isEqualTo(ClaimStatus.FAILED);
                    assertThat(ch.offer(new byte[8], 0, 8)).isEqualTo(ClaimStatus.FAILED);
                    health = rig.health("frames");
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    assertThat((String) health.getDetails().get("failure")).contains("CUDA_ERROR_DEVICE_UNAVAILABLE");
                    assertThat(rig.meter("seqlink.channel.failed", "channel", "frames")).isEqualTo(1);
                    assertThat(rig.aggregate()).isEqualTo(Status.DOWN);
                    // nothing silently lost: whatever a consumer did not take is reported at close
                    DrainReport report = ch.drainAndClose(Duration.ZERO);
                    assertThat(report.published()).isEqualTo(11);
                    assertThat(one.size() + report.undelivered().getOrDefault(1, 0L)).isGreaterThanOrEqualTo(11);
                    assertThat(two.size() + report.undelivered().getOrDefault(2, 0L)).isGreaterThanOrEqualTo(11);
                    assertThat(two.values).containsExactlyElementsOf(range(1, two.size()));
                }
                case DROP_CONSUMER -> {
                    rig.publish("frames", 12, 100); // six rings' worth: the dead consumer holds nothing back
                    assertThat(rig.rt.launcher().awaitDrained(Duration.ofSeconds(10))).isTrue();
                    assertThat(two.values).containsExactlyElementsOf(range(1, 100));
                    assertThat(ch.state()).isEqualTo(ChannelState.OPEN);
                    health = rig.health("frames");
                    assertThat(health.getStatus()).isEqualTo(SeqlinkHealthStatus.DEGRADED);
                    assertThat(rig.aggregate()).isEqualTo(SeqlinkHealthStatus.DEGRADED);
                    assertThat(rig.meter("seqlink.channel.failed", "channel", "frames")).isZero();
                    assertThat(rig.meter("seqlink.consumer.lag", "channel", "frames", "consumer", "1")).isEqualTo(100 - ackOne);
                    assertThat(rig.meter("seqlink.consumer.position", "channel", "frames", "consumer", "1")).isEqualTo(ackOne);
                    assertThat(rig.meter("seqlink.consumer.lag", "channel", "frames", "consumer", "2")).isZero();
                    assertThat(rig.meter("seqlink.consumer.consumed", "channel", "frames", "consumer", "2")).isEqualTo(100);
                    DrainReport report = ch.drainAndClose(Duration.ZERO);
                    assertThat(report.undelivered()).containsExactly(java.util.Map.entry(1, 100 - ackOne));
                }
                case KEEP_WAITING -> {
                    long published = 11;
                    long status;
                    while ((status = ch.claim(100, TimeUnit.MILLISECONDS)) > 0) {
                        ch.buffer().putLong(0, ++published);
                        ch.commit(8);
                        ch.publish();
                        assertThat(published).isLessThanOrEqualTo(ackOne + SLOTS);
                    }
                    assertThat(status).isEqualTo(ClaimStatus.BACK_PRESSURED);
                    assertThat(published).isEqualTo(ackOne + SLOTS);
                    long total = published;
                    assertThat(await(Duration.ofSeconds(10), () -> two.size(), n -> n == total)).isEqualTo((int) total);
                    assertThat(two.values).containsExactlyElementsOf(range(1, total));
                    assertThat(ch.state()).isEqualTo(ChannelState.OPEN);
                    health = rig.health("frames");
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(rig.aggregate()).isEqualTo(Status.DOWN);
                    assertThat(rig.meter("seqlink.channel.failed", "channel", "frames")).isZero();
                    assertThat(rig.meter("seqlink.channel.backpressure.waits", "channel", "frames")).isPositive();
                    assertThat(rig.meter("seqlink.consumer.lag", "channel", "frames", "consumer", "1")).isEqualTo(SLOTS);
                }
                default -> throw new IllegalStateException(policy.name());
            }
            assertThat(health.getDetails()).containsEntry("deadConsumers", List.of(1));
            System.out.printf("%s: health %s, details %s%n", policy, health.getStatus(), health.getDetails());
        }
    }
}
