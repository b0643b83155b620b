package io.seqlink.autoconfigure.reliability;

import static io.seqlink.autoconfigure.reliability.FaultRig.await;
import static io.seqlink.autoconfigure.reliability.FaultRig.range;
import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.autoconfigure.TestChannels;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.ConsumerState;
import io.seqlink.channel.Frame;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.health.SeqlinkHealthSettings;
import io.seqlink.spring.health.SeqlinkHealthStatus;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * A stalled consumer: a lossless channel whose only consumer stops acknowledging, either
 * because its device's stream stops running work ({@code EmulatedFaults.stallDevice}) or because its
 * listener blocks. Health turns {@code DEGRADED} once the stall timeout passed (docs/operations.md),
 * the stall shows in the meters, the producer's {@code claim(timeout)} comes back with
 * {@code BACK_PRESSURED} after its timeout (a status, not a hang), and once the consumer resumes
 * every frame arrives, in order, once; health is {@code UP} again.
 */
class StalledConsumerReliabilityTests {

    static final Duration STALL_TIMEOUT = Duration.ofMillis(300);
    static final long CLAIM_TIMEOUT_MS = 250;
    static final int SLOTS = 16;
    /** Scheduling slack on a shared 2-core machine; measured figures are printed. */
    static final Duration SLACK = Duration.ofMillis(1500);

    enum Stall {
        /** The consumer device's stream stops running work: consume steps queue, nothing lands. */
        DEVICE_STREAM,
        /** The listener blocks inside a frame, holding the launcher thread of its device. */
        BLOCKING_LISTENER
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Stall.class)
    void stalledConsumerTurnsHealthDegradedBackPressuresTheProducerBoundedlyAndRecoversWithNothingLost(Stall how)
            throws Exception {
        ChannelSpec spec = ChannelSpec.builder("frames").producer(0).consumers(1).slots(SLOTS).slotBytes(64)
                .stallTimeout(STALL_TIMEOUT).backpressureTimeout(Duration.ofMillis(CLAIM_TIMEOUT_MS)).build();
        // lag threshold 1.0: only a full ring counts as lagging, so the stall alone turns health DEGRADED below
        try (FaultRig rig = FaultRig.open(2, new SeqlinkHealthSettings(1.0, false), spec)) {
            PublishChannel ch = rig.channel("frames");
            CountDownLatch release = new CountDownLatch(1);
            BlockingRecorder recorder = new BlockingRecorder(how == Stall.BLOCKING_LISTENER ? 21 : -1, release);
            ch.consumer(1).subscribe(recorder);
            rig.rt.start();
            rig.publish("frames", 1, 20);
            assertThat(rig.rt.launcher().awaitDrained(Duration.ofSeconds(10))).isTrue();
            assertThat(rig.health("frames").getStatus()).isEqualTo(Status.UP);

            // ---- the stall
            if (how == Stall.DEVICE_STREAM) {
                rig.faults.stallDevice(1);
            }
            TestChannels.publishLong(ch, 21);
            long stallStart = System.nanoTime();
            Health degraded = await(Duration.ofSeconds(10), () -> rig.health("frames"),
                    h -> h.getDetails().containsKey("stalledConsumers"));
            long toDegradedMs = (System.nanoTime() - stallStart) / 1_000_000;
            System.out.printf("%s: health DEGRADED %d ms after the first unacknowledged frame (stall timeout %d ms)%n", how,
                    toDegradedMs, STALL_TIMEOUT.toMillis());
            assertThat(degraded.getStatus()).isEqualTo(SeqlinkHealthStatus.DEGRADED);
            assertThat(degraded.getDetails()).containsEntry("stalledConsumers", List.of(1));
            // the watchdog counts from its last look before the frame, which a busy scheduler may have
            // delayed: so "not before the stall timeout" is asserted with half of it as the margin
            assertThat(toDegradedMs).as("not long before the stall timeout")
                    .isGreaterThanOrEqualTo(STALL_TIMEOUT.toMillis() / 2)
                    .as("within the stall timeout plus a watchdog period and scheduling slack")
                    .isLessThanOrEqualTo(STALL_TIMEOUT.plus(FaultRig.WATCHDOG).plus(SLACK).toMillis());
            assertThat(rig.aggregate()).isEqualTo(SeqlinkHealthStatus.DEGRADED);
            assertThat(rig.meter("seqlink.consumer.stalled", "channel", "frames", "consumer", "1")).isEqualTo(1);
            assertThat(rig.meter("seqlink.consumer.stalls", "channel", "frames", "consumer", "1")).isEqualTo(1);
            assertThat(ch.consumer(1).state()).as("stalled, not dead").isEqualTo(ConsumerState.ACTIVE);

            // ---- the producer: lossless backpressure is bounded and reported as a status
            long published = 21;
            long status;
            long claimNanos;
            while (true) {
                long t = System.nanoTime();
                status = ch.claim(CLAIM_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                claimNanos = System.nanoTime() - t;
                if (status < 0) {
                    break;
                }
                ch.buffer().putLong(0, ++published);
                ch.commit(8);
                ch.publish();
                assertThat(published).as("the ring holds at most %d unacknowledged frames", SLOTS).isLessThanOrEqualTo(20 + SLOTS);
            }
            System.out.printf("%s: claim(%d ms) returned %s after %d ms%n", how, CLAIM_TIMEOUT_MS, ClaimStatus.describe(status),
                    claimNanos / 1_000_000);
            assertThat(status).isEqualTo(ClaimStatus.BACK_PRESSURED);
            assertThat(published).as("every slot was used before the producer was held back").isEqualTo(20 + SLOTS);
            assertThat(claimNanos).as("claim waited its timeout, and not much longer")
                    .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(CLAIM_TIMEOUT_MS))
                    .isLessThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(CLAIM_TIMEOUT_MS) + SLACK.toNanos());
            assertThat(ch.tryClaim()).isEqualTo(ClaimStatus.BACK_PRESSURED);
            assertThat(ch.offer(new byte[8], 0, 8)).isEqualTo(ClaimStatus.BACK_PRESSURED);
            assertThat(ch.state()).isEqualTo(ChannelState.OPEN);
            assertThat(rig.meter("seqlink.channel.backpressure.waits", "channel", "frames")).isPositive();
            assertThat(rig.meter("seqlink.consumer.lag", "channel", "frames", "consumer", "1")).isEqualTo(SLOTS);

            // ---- resume: everything recovers, nothing lost, duplicated or reordered
            if (how == Stall.DEVICE_STREAM) {
                rig.faults.resumeDevice(1);
            } else {
                release.countDown();
            }
            assertThat(rig.rt.launcher().awaitDrained(Duration.ofSeconds(10))).isTrue();
            Health up = await(Duration.ofSeconds(5), () -> rig.health("frames"), h -> h.getStatus().equals(Status.UP));
            assertThat(up.getStatus()).isEqualTo(Status.UP);
            assertThat(up.getDetails()).doesNotContainKey("stalledConsumers");
            assertThat(recorder.values).containsExactlyElementsOf(range(1, published));
            rig.publish("frames", published + 1, published + 3L * SLOTS); // the ring wraps again
            assertThat(rig.rt.launcher().awaitDrained(Duration.ofSeconds(10))).isTrue();
            assertThat(recorder.values).containsExactlyElementsOf(range(1, published + 3L * SLOTS));
            assertThat(rig.meter("seqlink.consumer.stalled", "channel", "frames", "consumer", "1")).isZero();
            assertThat(rig.meter("seqlink.consumer.stalls", "channel", "frames", "consumer", "1")).isEqualTo(1);
            assertThat(rig.meter("seqlink.consumer.lag", "channel", "frames", "consumer", "1")).isZero();
            assertThat(rig.aggregate()).isEqualTo(Status.UP);
        }
    }

    /** Records every value; blocks inside the frame of value {@code blockAt} until released. */
    static final class BlockingRecorder extends FaultRig.Recorder {
        private final long blockAt;
        private final CountDownLatch release;

        BlockingRecorder(long blockAt, CountDownLatch release) {
            this.blockAt = blockAt;
            this.release = release;
        }

        @Override
        public void onFrame(Frame frame) {
            if (TestChannels.readLong(frame.payload()) == blockAt) {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            super.onFrame(frame);
        }
    }
}
