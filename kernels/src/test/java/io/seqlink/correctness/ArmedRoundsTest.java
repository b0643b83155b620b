package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.DeviceException;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ChannelState;
import io.seqlink.channel.ConsumerFailurePolicy;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.PublishChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A caught-up host-listener consumer keeps its next round armed on its stream behind a
 * wait on the frame's doorbell, and the host releases that wait on close, pause, stall timeout and a
 * device's failure without the producer; a released round delivers nothing and its frame is delivered
 * once, later, by an ordinary round. Each test runs on an inline stream (the wait is looked at again
 * when the poller asks) and on a threaded one (a worker holds its queue at the wait).
 *
 * <p>"Armed" is observed as the consumer's stream not completing while nothing is published: only a
 * stream wait holds an emulated stream that nobody stalled.
 */
class ArmedRoundsTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private static SeqlinkRuntime open(EmulatedTopology.StreamMode mode) {
        return Rig.runtime(EmulatedTopology.builder(2).streamMode(mode).build()).open();
    }

    /** A channel whose consumer subscribed a listener recording sequences and polled once: its frame 1 is armed. */
    private record Armed(PublishChannel channel, ConsumerPort port, List<Long> got) {
    }

    private static Armed arm(SeqlinkRuntime rt, ChannelSpec spec) {
        PublishChannel ch = rt.openChannel(spec);
        ConsumerPort port = ch.consumer(1);
        List<Long> got = new CopyOnWriteArrayList<>();
        port.subscribe(f -> got.add(f.sequence()));
        assertThat(port.poll(1)).isZero();
        assertThat(port.stream().completed()).as("frame 1 armed: the wait holds the stream").isFalse();
        return new Armed(ch, port, got);
    }

    @ParameterizedTest
    @EnumSource(EmulatedTopology.StreamMode.class)
    void anIdleConsumerArmsItsNextFrameAndTakesItWhenItIsPublished(EmulatedTopology.StreamMode mode) {
        try (SeqlinkRuntime rt = open(mode)) {
            PublishChannel ch = rt.openChannel(Rig.channel("armed", 0, 1).build());
            ConsumerPort port = ch.consumer(1);
            List<Long> got = new CopyOnWriteArrayList<>();
            port.subscribe(f -> {
                assertThat(Rig.intact(f.payload(), f.length())).isTrue();
                got.add(f.sequence());
            });
            for (long s = 1; s <= 20; s++) {
                assertThat(port.poll(1)).isZero();
                assertThat(port.stream().completed()).as("frame %d armed: the wait holds the stream", s).isFalse();
                ch.offer(Rig.frame(s, -s), 0, 24);
                long expected = s;
                assertThat(Rig.await(WAIT, () -> port.poll(1) >= 0 && got.size() == expected)).isTrue();
            }
            assertThat(got).hasSize(20).isSorted().doesNotHaveDuplicates();
            assertThat(port.snapshot().hostEmptyPolls()).as("no round started by seeing the mirror move idle").isZero();
            assertEmptyLandings(port, 0, 0);
        }
    }

    @ParameterizedTest
    @EnumSource(EmulatedTopology.StreamMode.class)
    void closeReleasesTheArmedRoundAndNothingIsDelivered(EmulatedTopology.StreamMode mode) {
        try (SeqlinkRuntime rt = open(mode)) {
            Armed a = arm(rt, Rig.channel("armed-close", 0, 1).build());
            PublishChannel ch = a.channel();
            ConsumerPort port = a.port();
            List<Long> got = a.got();
            DrainReport report = ch.drainAndClose(Duration.ofSeconds(5));
            assertThat(report.clean()).isTrue();
            assertThat(ch.state()).isEqualTo(ChannelState.CLOSED);
            assertThat(port.stream().completed()).as("the wait was released before the stream closed, not dropped").isTrue();
            assertThat(got).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(EmulatedTopology.StreamMode.class)
    void pauseReleasesTheArmedRoundAndTheFrameComesOnceAfterResume(EmulatedTopology.StreamMode mode) {
        try (SeqlinkRuntime rt = open(mode)) {
            Armed a = arm(rt, Rig.channel("armed-pause", 0, 1).build());
            PublishChannel ch = a.channel();
            ConsumerPort port = a.port();
            List<Long> got = a.got();
            assertThat(port.pause()).isTrue();
            assertThat(Rig.await(WAIT, () -> port.stream().completed())).as("the released wait lets the stream drain").isTrue();
            ch.offer(Rig.frame(1, 1), 0, 24);
            for (int i = 0; i < 100; i++) {
                port.poll(1);
            }
            assertThat(got).as("paused: nothing delivered").isEmpty();
            assertThat(port.resume()).isTrue();
            assertThat(Rig.await(WAIT, () -> port.poll(1) >= 0 && got.size() == 1)).isTrue();
            ch.offer(Rig.frame(2, 2), 0, 24);
            assertThat(Rig.await(WAIT, () -> port.poll(1) >= 0 && got.size() == 2)).isTrue();
            assertThat(got).containsExactly(1L, 2L);
            assertEmptyLandings(port, 0, 1);
        }
    }

    @ParameterizedTest
    @EnumSource(EmulatedTopology.StreamMode.class)
    void aRoundArmedLongerThanTheStallTimeoutIsReleasedAndItsFrameIsNeverArmedAgain(EmulatedTopology.StreamMode mode) {
        try (SeqlinkRuntime rt = open(mode)) {
            Armed a = arm(rt, Rig.channel("armed-stall", 0, 1).stallTimeout(Duration.ofMillis(30)).build());
            PublishChannel ch = a.channel();
            ConsumerPort port = a.port();
            List<Long> got = a.got();
            assertThat(Rig.await(WAIT, () -> port.poll(1) == 0 && port.stream().completed()))
                    .as("the poller released its own wait after the stall timeout").isTrue();
            for (int i = 0; i < 50; i++) {
                port.poll(1);
                assertThat(port.stream().completed()).as("frame 1 is not armed again").isTrue();
            }
            ch.offer(Rig.frame(1, 1), 0, 24);
            assertThat(Rig.await(WAIT, () -> port.poll(1) >= 0 && got.size() == 1)).isTrue();
            assertThat(port.poll(1)).isZero();
            assertThat(port.stream().completed()).as("frame 2 is armed").isFalse();
            assertThat(got).containsExactly(1L);
            assertEmptyLandings(port, 0, 1);
        }
    }

    @ParameterizedTest
    @EnumSource(EmulatedTopology.StreamMode.class)
    void aFailedProducerDeviceReleasesTheArmedRound(EmulatedTopology.StreamMode mode) {
        try (SeqlinkRuntime rt = open(mode)) {
            Armed a = arm(rt, Rig.channel("armed-fault", 0, 1)
                    .consumerFailurePolicy(ConsumerFailurePolicy.DROP_CONSUMER).build());
            PublishChannel ch = a.channel();
            ConsumerPort port = a.port();
            List<Long> got = a.got();
            Rig.emulated(rt).faults().failNextLaunches(0, 1);
            // the failed launch fails the device; the channel learns it at its next producer call (threaded
            // streams fail asynchronously)
            assertThat(Rig.await(WAIT, () -> {
                try {
                    ch.offer(Rig.frame(1, 1), 0, 24);
                } catch (RuntimeException expected) {
                    // the channel failed
                }
                return ch.state() == ChannelState.FAILED;
            })).isTrue();
            assertThat(Rig.await(WAIT, () -> finished(port))).as("no wait left on the consumer stream").isTrue();
            ch.close();
            assertThat(got).isEmpty();
        }
    }

    /** Whether the consumer stream ran everything it was given (or failed: then nothing waits on it either). */
    private static boolean finished(ConsumerPort port) {
        try {
            return port.stream().completed();
        } catch (DeviceException failed) {
            return true;
        }
    }

    /**
     * A live producer against random pauses (each one releases the armed round): every frame is delivered
     * once, in order and intact, whether a round took it armed, released, or by an ordinary round.
     */
    @ParameterizedTest
    @EnumSource(EmulatedTopology.StreamMode.class)
    void aLiveProducerRacingRandomReleasesLosesAndRepeatsNothing(EmulatedTopology.StreamMode mode) throws Exception {
        int frames = 3_000;
        try (SeqlinkRuntime rt = open(mode)) {
            PublishChannel ch = rt.openChannel(Rig.channel("armed-race", 0, 1).slots(8).build());
            ConsumerPort port = ch.consumer(1);
            List<Long> got = new CopyOnWriteArrayList<>();
            List<String> torn = new CopyOnWriteArrayList<>();
            port.subscribe(f -> {
                if (!Rig.intact(f.payload(), f.length()) || f.payload().getLong(0) != f.sequence()) {
                    torn.add("frame " + f.sequence());
                }
                got.add(f.sequence());
            });
            AtomicBoolean done = new AtomicBoolean();
            Thread producer = new Thread(() -> {
                for (long s = 1; s <= frames; s++) {
                    while (ch.offer(Rig.frame(s, s * 7), 0, 24) < 0) {
                        Thread.onSpinWait();
                    }
                    if (ThreadLocalRandom.current().nextInt(4) == 0) {
                        Thread.yield();
                    }
                }
            });
            Thread releaser = Rig.releaser(port, done);
            producer.start();
            releaser.start();
            boolean all = Rig.await(Duration.ofSeconds(60), () -> port.poll(4) >= 0 && got.size() >= frames);
            done.set(true);
            producer.join();
            releaser.join();
            assertThat(all).as("delivered %d of %d", got.size(), frames).isTrue();
            assertThat(torn).isEmpty();
            assertThat(got).hasSize(frames).isSorted().doesNotHaveDuplicates();
            assertThat(port.snapshot().rounds()).isPositive();
            ConsumerSnapshot c = port.snapshot();
            assertThat(c.armedEarlyWakes()).as("the doorbell follows the add: no wait passes before its frame: %s", c).isZero();
            assertThat(c.deviceEmptyPolls()).as("ordinary steps start on frames seen published: %s", c).isZero();
        }
    }

    /**
     * Two consumers arm the same frame on the channel's one doorbell ring; one pauses, and its cancel releases
     * the other's wait too. The paused consumer counts a released round, the other an empty landing it did
     * not cause (reported with the early wakes); neither counts an ordinary step that found nothing, and both
     * take the frame once when it comes.
     */
    @ParameterizedTest
    @EnumSource(EmulatedTopology.StreamMode.class)
    void anArmedRoundThatLandsEmptyIsCountedApartFromOrdinarySteps(EmulatedTopology.StreamMode mode) {
        try (SeqlinkRuntime rt = Rig.runtime(EmulatedTopology.builder(3).streamMode(mode).build()).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("armed-count", 0, 1, 2).build());
            ConsumerPort pausing = ch.consumer(1);
            ConsumerPort other = ch.consumer(2);
            List<Long> gotPausing = new CopyOnWriteArrayList<>();
            List<Long> gotOther = new CopyOnWriteArrayList<>();
            pausing.subscribe(f -> gotPausing.add(f.sequence()));
            other.subscribe(f -> gotOther.add(f.sequence()));
            assertThat(pausing.poll(1)).isZero();
            assertThat(other.poll(1)).isZero();
            assertThat(other.stream().completed()).as("frame 1 armed on the other consumer").isFalse();
            assertThat(pausing.pause()).isTrue();
            assertThat(Rig.await(WAIT, () -> other.poll(1) >= 0 && other.stream().completed()))
                    .as("the other consumer's wait passed on the raised doorbell").isTrue();
            assertThat(Rig.await(WAIT, () -> other.poll(1) >= 0 && other.snapshot().armedEarlyWakes() == 1)).isTrue();
            assertThat(pausing.resume()).isTrue();
            assertThat(Rig.await(WAIT, () -> pausing.poll(1) >= 0 && pausing.snapshot().armedReleased() == 1)).isTrue();
            ch.offer(Rig.frame(1, 1), 0, 24);
            assertThat(Rig.await(WAIT, () -> pausing.poll(1) + other.poll(1) >= 0 && gotPausing.size() == 1 && gotOther.size() == 1))
                    .isTrue();
            assertThat(gotPausing).containsExactly(1L);
            assertThat(gotOther).containsExactly(1L);
            assertEmptyLandings(pausing, 0, 1);
            assertEmptyLandings(other, 1, 0);
        }
    }

    private static void assertEmptyLandings(ConsumerPort port, long earlyWakes, long released) {
        ConsumerSnapshot c = port.snapshot();
        assertThat(c.armedEarlyWakes()).as("armed rounds landed empty though the host did not release them: %s", c).isEqualTo(earlyWakes);
        assertThat(c.armedReleased()).as("armed rounds the host released: %s", c).isEqualTo(released);
        assertThat(c.deviceEmptyPolls()).as("ordinary consume steps that found nothing: %s", c).isZero();
        assertThat(c.deviceConsumeSteps()).as("every step on the device is counted once: %s", c)
                .isEqualTo(c.deviceReads() + earlyWakes + released);
    }
}
