package io.seqlink.autoconfigure.reliability;

import static io.seqlink.autoconfigure.reliability.FaultRig.await;
import static io.seqlink.autoconfigure.reliability.FaultRig.range;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.backend.DeviceException;
import io.seqlink.channel.ChannelFailedException;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.health.SeqlinkHealthSettings;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * A failed launch or a sticky CUDA error: four emulated devices, channel {@code a} from
 * device 0 to 1, {@code b} from 2 to 3, {@code c} from 3 to 0. A kernel launch fails on one device
 * ({@code EmulatedFaults.failNextLaunches}, a sticky {@code CUDA_ERROR_LAUNCH_FAILED}): the channels
 * that device touches fail closed with an error naming the device and the call, their health is
 * {@code DOWN} and {@code seqlink_channel_failed} is 1; the JVM and the runtime go on, and channel
 * {@code b}, on other devices, keeps publishing and delivering every frame.
 * (The consumer-side fault alone, without the other channels, is {@code ConsumerDeviceFaultTest}.)
 */
class FailedLaunchReliabilityTests {

    private static FaultRig rig() {
        return FaultRig.open(4, SeqlinkHealthSettings.defaults(),
                ChannelSpec.builder("a").producer(0).consumers(1).slots(16).slotBytes(64).build(),
                ChannelSpec.builder("b").producer(2).consumers(3).slots(16).slotBytes(64).build(),
                ChannelSpec.builder("c").producer(3).consumers(0).slots(16).slotBytes(64).build());
    }

    @Test
    void aFailedLaunchOnAProducerDeviceFailsItsChannelsClosedAndTheOthersKeepWorking() {
        try (FaultRig rig = rig()) {
            FaultRig.Recorder a = rig.record("a", 1);
            FaultRig.Recorder b = rig.record("b", 3);
            FaultRig.Recorder c = rig.record("c", 0);
            rig.rt.start();
            for (String ch : new String[] {"a", "b", "c"}) {
                rig.publish(ch, 1, 10);
            }
            assertThat(rig.rt.launcher().awaitDrained(Duration.ofSeconds(10))).isTrue();
            assertThat(rig.aggregate()).isEqualTo(Status.UP);

            rig.faults.failNextLaunches(0, 1);
            PublishChannel channelA = rig.channel("a");
            assertThat(channelA.claim(100, TimeUnit.MILLISECONDS)).isEqualTo(11);
            channelA.buffer().putLong(0, 11);
            channelA.commit(8);
            assertThatThrownBy(channelA::publish).isInstanceOf(ChannelFailedException.class)
                    .hasMessageContaining("channel 'a' failed and is closed")
                    .hasMessageContaining("CUDA_ERROR_LAUNCH_FAILED")
                    .hasMessageContaining("seqlink_publish")
                    .hasMessageContaining("on device 0")
                    .hasRootCauseInstanceOf(DeviceException.class);

            // fails closed: no claim, no publish
            assertThat(channelA.state()).isEqualTo(ChannelState.FAILED);
            assertThat(channelA.tryClaim()).isEqualTo(ClaimStatus.FAILED);
            assertThat(channelA.offer(new byte[8], 0, 8)).isEqualTo(ClaimStatus.FAILED);
            assertThatThrownBy(channelA::publish).isInstanceOf(ChannelFailedException.class);
            Health healthA = rig.health("a");
            assertThat(healthA.getStatus()).isEqualTo(Status.DOWN);
            assertThat((String) healthA.getDetails().get("failure")).contains("CUDA_ERROR_LAUNCH_FAILED").contains("device 0");
            assertThat(rig.meter("seqlink.channel.failed", "channel", "a")).isEqualTo(1);
            // channel c's consumer is on the failed device: it is dead, and c fails (fail-channel, the default)
            assertThat(rig.channel("c").consumer(0).state()).isEqualTo(ConsumerState.DEAD);
            assertThat(rig.channel("c").state()).isEqualTo(ChannelState.FAILED);
            assertThat(rig.health("c").getStatus()).isEqualTo(Status.DOWN);
            assertThat(rig.meter("seqlink.channel.failed", "channel", "c")).isEqualTo(1);
            assertThat(rig.aggregate()).isEqualTo(Status.DOWN);
            // the device stays unusable for this process (sticky): a new channel on it is refused, clearly
            assertThatThrownBy(() -> rig.rt.openChannel(ChannelSpec.builder("again").producer(0).consumers(1).slots(4)
                    .slotBytes(64).build())).isInstanceOf(DeviceException.class).hasMessageContaining("CUDA_ERROR_LAUNCH_FAILED");
            assertThat(rig.rt.channel("again")).isEmpty();

            assertOtherChannelKeepsWorking(rig, b);
            assertThat(a.values).containsExactlyElementsOf(range(1, 10));
            assertThat(c.values).containsExactlyElementsOf(range(1, 10));
        }
    }

    @Test
    void aFailedLaunchOnAConsumerDeviceFailsItsChannelClosedAndTheOthersKeepWorking() {
        try (FaultRig rig = rig()) {
            rig.record("a", 1);
            FaultRig.Recorder b = rig.record("b", 3);
            rig.record("c", 0);
            rig.rt.start();
            rig.publish("b", 1, 10);
            rig.faults.failNextLaunches(1, 1);
            rig.publish("a", 1, 1); // the consume step on device 1 fails
            PublishChannel channelA = rig.channel("a");
            assertThat(await(Duration.ofSeconds(10), channelA::state, s -> s == ChannelState.FAILED)).isEqualTo(ChannelState.FAILED);
            assertThat(channelA.consumer(1).state()).isEqualTo(ConsumerState.DEAD);
            assertThat(channelA.failure()).hasMessageContaining("CUDA_ERROR_LAUNCH_FAILED").hasMessageContaining("seqlink_consume");
            assertThat(channelA.tryClaim()).isEqualTo(ClaimStatus.FAILED);
            assertThat(rig.health("a").getStatus()).isEqualTo(Status.DOWN);
            assertThat(rig.meter("seqlink.channel.failed", "channel", "a")).isEqualTo(1);
            assertThat(rig.channel("c").state()).as("device 1 plays no part in c").isEqualTo(ChannelState.OPEN);
            assertOtherChannelKeepsWorking(rig, b);
        }
    }

    /** Channel b (devices 2 -> 3) publishes 300 more frames after the fault: all arrive, in order; its health is UP. */
    private static void assertOtherChannelKeepsWorking(FaultRig rig, FaultRig.Recorder b) {
        rig.publish("b", 11, 310);
        assertThat(rig.rt.launcher().awaitDrained(Duration.ofSeconds(10))).isTrue();
        assertThat(b.values).containsExactlyElementsOf(range(1, 310));
        assertThat(rig.channel("b").state()).isEqualTo(ChannelState.OPEN);
        assertThat(rig.health("b").getStatus()).isEqualTo(Status.UP);
        assertThat(rig.meter("seqlink.channel.failed", "channel", "b")).isZero();
        assertThat(rig.meter("seqlink.consumer.consumed", "channel", "b", "consumer", "3")).isEqualTo(310);
    }
}
