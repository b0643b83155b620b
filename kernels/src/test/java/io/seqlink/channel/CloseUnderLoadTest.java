package io.seqlink.channel;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.BackendSelection;
import io.seqlink.backend.emulated.EmulatedBackend;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.topology.VerifierSettings;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Closing a channel while its consumer's stream is still running a consume step must not break the
 * device for everyone else: the step finishes (or is dropped) before the channel's memory is freed.
 * Why: memory freed before the streams are closed would let the running step touch freed memory, and
 * the emulated device would be marked failed (sticky), killing every other channel on it.
 */
class CloseUnderLoadTest {

    @Test
    void closingDuringARunningConsumeStepLeavesTheDeviceUsable() {
        // 400 ms per remote access on 0 <-> 1: a consume step on device 1 takes at least 800 ms, far
        // longer than the 1 ms drain below waits, however the scheduler treats this test
        EmulatedTopology topology = EmulatedTopology.builder(2).streamMode(EmulatedTopology.StreamMode.THREADED)
                .latency(0, 1, 400_000_000).build();
        try (SeqlinkRuntime rt = SeqlinkRuntime.builder().backend(BackendSelection.EMULATED).emulated(topology)
                .verifier(VerifierSettings.defaults().withEnabled(false)).open()) {
            PublishChannel slow = rt.openChannel(ChannelSpec.builder("slow").producer(0).consumers(1).slots(4).slotBytes(64).build());
            AtomicInteger slowDelivered = new AtomicInteger();
            slow.consumer(1).subscribe(f -> slowDelivered.incrementAndGet());
            rt.start();
            assertThat(slow.offer(new byte[8], 0, 8)).isEqualTo(1);
            while (slow.consumer(1).snapshot().rounds() == 0) {
                LockSupport.parkNanos(100_000); // the launcher has enqueued the consume step
            }
            DrainReport report = slow.drainAndClose(Duration.ofMillis(1));
            // The close waits for (or drops) the running step, so on a loaded machine the frame may land meanwhile:
            // either way the report accounts for it, delivered or undelivered, never both and never neither
            long undelivered = report.undelivered().getOrDefault(1, 0L);
            assertThat(undelivered + slowDelivered.get()).as("frame 1 delivered or reported undelivered: %s", report).isEqualTo(1);
            assertThat(report.timedOut()).as("the report times out exactly when it leaves a frame undelivered").isEqualTo(undelivered > 0);

            // The memory (streams first) is released by whoever leaves the channel last: the drainer, or the launcher
            // when it is still inside the step's poll as the drain returns, so the release is awaited, not assumed
            EmulatedBackend backend = (EmulatedBackend) rt.backend();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (backend.liveStreams() > 0 && System.nanoTime() < deadline) {
                LockSupport.parkNanos(1_000_000);
            }
            assertThat(backend.liveStreams()).as("every stream of the closed channel is released").isZero();
            PublishChannel next = rt.openChannel(ChannelSpec.builder("next").producer(0).consumers(1).slots(4).slotBytes(64).build());
            long[] got = new long[1];
            next.consumer(1).subscribe(f -> got[0] = f.sequence());
            assertThat(next.offer(new byte[8], 0, 8)).isEqualTo(1);
            assertThat(rt.launcher().awaitDrained(Duration.ofSeconds(10))).isTrue();
            assertThat(got[0]).isEqualTo(1);
            assertThat(next.state()).isEqualTo(ChannelState.OPEN);
            assertThat(next.consumer(1).state()).isEqualTo(ConsumerState.ACTIVE);
        }
    }
}
