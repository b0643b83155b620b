package io.seqlink.channel;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.backend.emulated.EmulatedTopology;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A launch that fails on the consumer's device while a round is in flight: the word the consumer waits
 * for never lands, so only asking the stream reveals the fault. The consumer must die and the channel
 * follow its failure policy, instead of waiting silently.
 */
class ConsumerDeviceFaultTest {

    @Test
    void aFailedLaunchOnTheConsumersDeviceFailsTheChannelInsteadOfStallingIt() {
        EmulatedTopology topology = EmulatedTopology.builder(2).streamMode(EmulatedTopology.StreamMode.THREADED).build();
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().backend(BackendSelection.EMULATED).emulated(topology).open()) {
            PublishChannel ch = rt.openChannel(ChannelSpec.builder("faulty").producer(0).consumers(1).slots(8).slotBytes(64).build());
            ConsumerPort port = ch.consumer(1);
            ((EmulatedBackend) rt.backend()).faults().failNextLaunches(1, 1);
            assertThat(ch.offer(new byte[] {1, 2, 3}, 0, 3)).isPositive();

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (port.state() != ConsumerState.DEAD && System.nanoTime() < deadline) {
                port.poll(frame -> { }, 8);
            }

            assertThat(port.state()).isEqualTo(ConsumerState.DEAD);
            assertThat(port.failure()).hasMessageContaining("CUDA_ERROR_LAUNCH_FAILED");
            assertThat(ch.state()).isEqualTo(ChannelState.FAILED);
            assertThat(ch.tryClaim()).isEqualTo(ClaimStatus.FAILED);
        }
    }
}
