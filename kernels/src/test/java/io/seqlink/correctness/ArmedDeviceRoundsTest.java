package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.RetryPolicy;
import io.seqlink.testing.ArmedChecksumListener;
import io.seqlink.testing.ArmedChecksumListener.Ending;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A caught-up consumer whose device listener {@linkplain io.seqlink.channel.DeviceFrameHandler#acceptsArmedRounds
 * accepts armed rounds} enqueues its next round whole before the frame is published: the wait on the frame's
 * doorbell, the consume step, the listener's kernels and the ack of what the consume step took. A round
 * released without its frame (pause, close, stall timeout) does nothing on the device: its kernels see
 * {@code READY_TO < first} and its ack leaves {@code acked} where it was; the frame comes once, later, by an
 * ordinary round. The listener ({@link ArmedChecksumListener}) counts on the device what its kernels took, so
 * "exactly once, in order, intact" is checked where the work ran. Each test runs on an inline and a threaded
 * stream; those that take the frame run also with the listener {@linkplain DeviceFrameHandler#acknowledgesInKernel
 * acknowledging in its kernel} (no ack step: the round's last kernel acknowledges what the descriptor says was taken).
 */
class ArmedDeviceRoundsTest {

    static final Duration WAIT = Duration.ofSeconds(20);
    static final int LENGTH = 48;
    private static final RetryPolicy NO_BACKOFF = new RetryPolicy(3, Duration.ZERO, 1.0, Duration.ZERO);

    /**
     * Every stream mode, with the listener's acknowledgement from the channel's ack step, from its own last kernel,
     * and from its one round kernel (consuming in its kernel: no consume step either).
     */
    static Stream<Arguments> modesAndAcks() {
        return Stream.of(EmulatedTopology.StreamMode.values())
                .flatMap(m -> Stream.of(Ending.values()).map(e -> Arguments.of(m, e)));
    }

    static SeqlinkRuntime open(EmulatedTopology.StreamMode mode) {
        return Rig.runtime(EmulatedTopology.builder(2).streamMode(mode).build()).open();
    }

    static void offer(PublishChannel ch, long s) {
        assertThat(ch.offer(ArmedChecksumListener.payload(s, LENGTH), 0, LENGTH)).isEqualTo(s);
    }

    /** Polls until the port acknowledged {@code s} and its poller saw the round that did land. */
    static boolean awaitAcked(ConsumerPort port, long s) {
        return Rig.await(WAIT, () -> port.poll(1) >= 0 && port.acknowledged() >= s && port.snapshot().delivered()
                + port.snapshot().deadLettered() >= s);
    }

    /**
     * A producer of frames 1 to {@code frames} that yields now and then and, once in 64 frames, tells
     * {@code failNext} the frame after the one it published (a listener to fail there, before its work).
     */
    static Thread producer(PublishChannel ch, int frames, LongConsumer failNext) {
        return new Thread(() -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (long s = 1; s <= frames; s++) {
                while (ch.offer(ArmedChecksumListener.payload(s, LENGTH), 0, LENGTH) < 0) {
                    Thread.onSpinWait();
                }
                if (random.nextInt(4) == 0) {
                    Thread.yield();
                }
                if (random.nextInt(64) == 0) {
                    failNext.accept(s + 1);
                }
            }
        }, "producer");
    }

    /**
     * {@code listener} armed, which the first time it is called publishes frame 1 (seen on the device before the round is
     * released) and fails after enqueuing its work, once that work ran: the round's steps looked at the frame before the
     * channel's cancel (which follows the failure) marked the round, so they took it (a round that looks after the mark
     * takes nothing: {@link ArmedRoundsCancelMarkTest}).
     */
    static DeviceFrameHandler failingAsFrameOneComes(PublishChannel ch, ArmedChecksumListener listener) {
        AtomicBoolean first = new AtomicBoolean(true);
        return new DeviceFrameHandler() {
            @Override
            public boolean acceptsArmedRounds() {
                return true;
            }

            @Override
            public boolean consumesInKernel() {
                return listener.consumesInKernel();
            }

            @Override
            public void onFrames(DeviceFrames frames) {
                boolean failing = first.getAndSet(false);
                if (failing) {
                    offer(ch, 1);
                    ch.producerStream().synchronize(); // published on the device before the round is released
                    listener.failOnce(1, true);
                }
                try {
                    listener.onFrames(frames);
                } catch (RuntimeException ex) {
                    if (failing) { // the round's work (its consume step, the listener's kernels) ran before the cancel
                        Rig.await(WAIT, () -> frames.stream().completed());
                    }
                    throw ex;
                }
            }
        };
    }

    @ParameterizedTest
    @MethodSource("modesAndAcks")
    void anIdleDeviceListenerIsArmedAndEachFrameIsTakenByItsArmedRound(EmulatedTopology.StreamMode mode, Ending ending) {
        try (SeqlinkRuntime rt = open(mode)) {
            PublishChannel ch = rt.openChannel(Rig.channel("armed-device", 0, 1).build());
            ConsumerPort port = ch.consumer(1);
            ArmedChecksumListener listener = new ArmedChecksumListener(port.stream(), 20, LENGTH, ending);
            port.subscribeDevice(listener);
            for (long s = 1; s <= 20; s++) {
                assertThat(port.poll(1)).isZero();
                assertThat(port.stream().completed()).as("frame %d armed: the wait holds the stream", s).isFalse();
                assertThat(listener.calls(s)).as("the listener's work for frame %d is enqueued as it is armed", s).isEqualTo(1);
                offer(ch, s);
                assertThat(awaitAcked(port, s)).isTrue();
                assertThat(listener.deliveries(s)).isEqualTo(1);
                assertThat(listener.intact(s)).isTrue();
            }
            assertThat(listener.untakenLaunches()).isZero();
            assertThat(listener.outOfOrder()).isZero();
            for (long s = 1; s <= 20; s++) {
                assertThat(listener.calls(s)).as("frame %d: its armed call only, no ordinary round", s).isEqualTo(1);
            }
            ConsumerSnapshot c = port.snapshot();
            assertThat(c.delivered()).isEqualTo(20);
            assertThat(c.hostEmptyPolls()).as("no round started by seeing the mirror move: %s", c).isZero();
            assertThat(c.armedReleased() + c.armedEarlyWakes() + c.deviceEmptyPolls()).as("%s", c).isZero();
            ch.close();
            listener.close();
        }
    }

    /**
     * A channel whose ring is in host memory (its consumer was named a host listener as it opened, and a device listener
     * subscribed instead) has no doorbells, so a device listener there is never armed (its publish, a stream write,
     * would otherwise pay one more per frame for them) and takes every frame, once and intact, by an ordinary round.
     */
    @ParameterizedTest
    @MethodSource("modesAndAcks")
    void aDeviceListenerOnAHostRingIsNeverArmedAndTakesEveryFrameByAnOrdinaryRound(EmulatedTopology.StreamMode mode,
            Ending ending) {
        try (SeqlinkRuntime rt = open(mode)) {
            PublishChannel ch = rt.openChannel(Rig.channel("device-on-host-ring", 0, 1).hostListeners(1).build());
            ConsumerPort port = ch.consumer(1);
            ArmedChecksumListener listener = new ArmedChecksumListener(port.stream(), 20, LENGTH, ending);
            port.subscribeDevice(listener);
            for (long s = 1; s <= 20; s++) {
                assertThat(port.poll(1)).isZero();
                assertThat(Rig.await(WAIT, () -> port.stream().completed())).as("frame %d not armed: no wait holds the stream", s)
                        .isTrue();
                offer(ch, s);
                assertThat(awaitAcked(port, s)).isTrue();
                assertThat(listener.deliveries(s)).isEqualTo(1);
                assertThat(listener.intact(s)).isTrue();
            }
            assertThat(listener.outOfOrder()).isZero();
            ConsumerSnapshot c = port.snapshot();
            assertThat(c.delivered()).isEqualTo(20);
            assertThat(c.armedReleased() + c.armedEarlyWakes()).as("%s", c).isZero();
            ch.close();
            listener.close();
        }
    }

    @ParameterizedTest
    @MethodSource("modesAndAcks")
    void aReleasedArmedDeviceRoundDoesNothingAndItsAckMovesNothing(EmulatedTopology.StreamMode mode, Ending ending) {
        try (SeqlinkRuntime rt = open(mode)) {
            PublishChannel ch = rt.openChannel(Rig.channel("armed-device-release", 0, 1).build());
            ConsumerPort port = ch.consumer(1);
            ArmedChecksumListener listener = new ArmedChecksumListener(port.stream(), 8, LENGTH, ending);
            port.subscribeDevice(listener);
            for (long s = 1; s <= 3; s++) {
                port.poll(1);
                offer(ch, s);
                assertThat(awaitAcked(port, s)).isTrue();
            }
            assertThat(port.poll(1)).isZero();
            assertThat(port.stream().completed()).as("frame 4 armed").isFalse();
            assertThat(port.pause()).isTrue();
            assertThat(Rig.await(WAIT, () -> port.stream().completed())).as("the released round ran to its end").isTrue();
            assertThat(listener.untakenLaunches()).as("the released round's kernel saw READY_TO < first").isEqualTo(1);
            assertThat(listener.deliveries(4)).isZero();
            assertThat(port.acknowledged()).as("the released round's ack acknowledged what it took: nothing").isEqualTo(3);
            assertThat(port.resume()).isTrue();
            offer(ch, 4);
            assertThat(awaitAcked(port, 4)).isTrue();
            assertThat(listener.deliveries(4)).isEqualTo(1);
            assertThat(listener.intact(4)).isTrue();
            assertThat(listener.calls(4)).as("the released armed call, then the ordinary round's").isEqualTo(2);
            ConsumerSnapshot c = port.snapshot();
            assertThat(c.armedReleased()).as("%s", c).isEqualTo(1);
            assertThat(c.delivered()).as("%s", c).isEqualTo(4);
            ch.close();
            listener.close();
        }
    }

    /**
     * The listener throws once, after enqueuing its kernel, as frame 1's round is armed: that round gets no ack and
     * is released at once; the ordinary round that takes frame 1 resumes at attempt 2 (the armed call counted
     * as the first), so with 2 attempts the frame is delivered once after one retry, and with 1 it is
     * dead-lettered once without a second call.
     */
    @ParameterizedTest
    @MethodSource("modesAndAcks")
    void aListenerThatFailsAsItsRoundIsArmedIsRetriedByTheOrdinaryRound(EmulatedTopology.StreamMode mode, Ending ending) {
        for (int attempts = 1; attempts <= 2; attempts++) {
            try (SeqlinkRuntime rt = open(mode)) {
                PublishChannel ch = rt.openChannel(Rig.channel("armed-device-fail", 0, 1).build());
                List<Long> deadLettered = new CopyOnWriteArrayList<>();
                ConsumerPort port = ch.consumer(1).retryPolicy(new RetryPolicy(attempts, Duration.ZERO, 1.0, Duration.ZERO))
                        .errorHandler((frame, cause) -> deadLettered.add(frame.sequence()));
                ArmedChecksumListener listener = new ArmedChecksumListener(port.stream(), 8, LENGTH, ending);
                port.subscribeDevice(listener);
                listener.failOnce(1, true);
                assertThat(port.poll(1)).isZero();
                assertThat(Rig.await(WAIT, () -> port.poll(1) >= 0 && port.stream().completed()))
                        .as("the failed armed round was released at once").isTrue();
                offer(ch, 1);
                assertThat(awaitAcked(port, 1)).isTrue();
                port.poll(1);
                offer(ch, 2);
                assertThat(awaitAcked(port, 2)).isTrue();
                ConsumerSnapshot c = port.snapshot();
                assertThat(listener.deliveries(2)).isEqualTo(1);
                if (attempts == 1) {
                    assertThat(deadLettered).as("%s", c).containsExactly(1L);
                    assertThat(listener.calls(1)).as("no attempt beyond the policy's one").isEqualTo(1);
                    assertThat(listener.deliveries(1)).isZero();
                    assertThat(c.delivered()).as("%s", c).isEqualTo(1);
                } else {
                    assertThat(deadLettered).as("%s", c).isEmpty();
                    assertThat(listener.calls(1)).isEqualTo(2);
                    assertThat(listener.deliveries(1)).isEqualTo(1);
                    assertThat(listener.intact(1)).isTrue();
                    assertThat(c.retries()).as("%s", c).isEqualTo(1);
                    assertThat(c.delivered()).as("%s", c).isEqualTo(2);
                }
                ch.close();
                listener.close();
            }
        }
    }

    /**
     * The frame comes while its armed round's listener is failing (the listener publishes it, then enqueues its
     * kernel and throws): the consume step takes it but the round has no ack step; with one attempt the frame goes
     * to the error handler, which refuses it: the consumer holds at it, unacknowledged, and a later round
     * delivers it.
     */
    @ParameterizedTest
    @EnumSource(EmulatedTopology.StreamMode.class)
    void aFrameTakenByAnArmedRoundWhoseListenerFailedIsNotAcknowledged(EmulatedTopology.StreamMode mode) {
        try (SeqlinkRuntime rt = open(mode)) {
            PublishChannel ch = rt.openChannel(Rig.channel("armed-device-refused", 0, 1).build());
            List<Long> refused = new CopyOnWriteArrayList<>();
            ConsumerPort port = ch.consumer(1).retryPolicy(new RetryPolicy(1, Duration.ZERO, 1.0, Duration.ZERO))
                    .errorHandler((frame, cause) -> {
                        refused.add(frame.sequence());
                        throw new IllegalStateException("the test's error handler refuses every frame");
                    });
            ArmedChecksumListener listener = new ArmedChecksumListener(port.stream(), 8, LENGTH);
            port.subscribeDevice(failingAsFrameOneComes(ch, listener));
            assertThat(port.poll(1)).isZero();
            assertThat(Rig.await(WAIT, () -> port.poll(1) >= 0 && refused.size() == 1)).isTrue();
            assertThat(port.stream().completed()).as("the dead letter brought the frame to the host: the stream ran").isTrue();
            assertThat(listener.deliveries(1)).as("the failed attempt's kernel ran on the frame, as on any stream").isEqualTo(1);
            assertThat(port.acknowledged()).as("a frame no listener handled is not acknowledged").isZero();
            assertThat(port.snapshot().delivered()).isZero();
            assertThat(awaitAcked(port, 1)).as("after the hold, an ordinary round delivers it").isTrue();
            assertThat(listener.deliveries(1)).isEqualTo(2);
            assertThat(refused).containsExactly(1L);
            ch.close();
            listener.close();
        }
    }

    /**
     * A live producer against random pauses, a short stall timeout (the poller releases its own armed round)
     * and listener failures (thrown before its work, in armed rounds and ordinary ones alike): every frame is
     * taken once by the listener's kernels, in order and intact, and acknowledged; the close accounts for
     * every frame.
     */
    @ParameterizedTest
    @MethodSource("modesAndAcks")
    void aLiveProducerRacingReleasesAndFailuresLosesAndRepeatsNothing(EmulatedTopology.StreamMode mode, Ending ending)
            throws Exception {
        int frames = 2_000;
        try (SeqlinkRuntime rt = open(mode)) {
            ChannelSpec spec = Rig.channel("armed-device-race", 0, 1).slots(8).stallTimeout(Duration.ofMillis(2)).build();
            PublishChannel ch = rt.openChannel(spec);
            ConsumerPort port = ch.consumer(1).retryPolicy(NO_BACKOFF);
            ArmedChecksumListener listener = new ArmedChecksumListener(port.stream(), frames, LENGTH, ending);
            port.subscribeDevice(listener);
            AtomicBoolean done = new AtomicBoolean();
            // failures before its work: a failed attempt's kernels would take the frame too
            Thread producer = producer(ch, frames, s -> listener.failOnce(s, false));
            Thread releaser = Rig.releaser(port, done);
            producer.start();
            releaser.start();
            boolean all = Rig.await(Duration.ofSeconds(60), () -> port.poll(4) >= 0 && port.acknowledged() >= frames);
            done.set(true);
            producer.join();
            releaser.join();
            port.resume();
            ConsumerSnapshot c = port.snapshot();
            assertThat(all).as("acknowledged %d of %d: %s", port.acknowledged(), frames, c).isTrue();
            DrainReport report = ch.drainAndClose(Duration.ofSeconds(5));
            assertThat(report.clean()).as("%s", report).isTrue();
            long wrong = 0;
            for (long s = 1; s <= frames; s++) {
                if (listener.deliveries(s) != 1 || !listener.intact(s)) {
                    wrong++;
                }
            }
            assertThat(wrong).as("frames not taken exactly once intact: %s", c).isZero();
            assertThat(listener.outOfOrder()).isZero();
            assertThat(c.deadLettered()).isZero();
            assertThat(c.armedEarlyWakes()).as("the doorbell follows the add: no wait passes before its frame: %s", c).isZero();
            listener.close();
        }
    }

    /** The launcher's device loop arms device rounds too; closing the channel releases the last one and accounts for every frame. */
    @ParameterizedTest
    @MethodSource("modesAndAcks")
    void theLauncherArmsDeviceRoundsAndTheCloseReleasesTheLast(EmulatedTopology.StreamMode mode, Ending ending) {
        int frames = 300;
        try (SeqlinkRuntime rt = open(mode)) {
            PublishChannel ch = rt.openChannel(Rig.channel("armed-device-loop", 0, 1).build());
            ConsumerPort port = ch.consumer(1);
            ArmedChecksumListener listener = new ArmedChecksumListener(port.stream(), frames, LENGTH, ending);
            port.subscribeDevice(listener);
            rt.start();
            for (long s = 1; s <= frames; s++) {
                offer(ch, s);
                long expected = s;
                if (s % 3 == 0) { // let the loop catch up and arm the next frame
                    assertThat(Rig.await(WAIT, () -> port.acknowledged() >= expected)).isTrue();
                }
            }
            assertThat(Rig.await(WAIT, () -> port.acknowledged() >= frames)).isTrue();
            DrainReport report = ch.drainAndClose(Duration.ofSeconds(5));
            assertThat(report.clean()).as("%s", report).isTrue();
            assertThat(Rig.await(WAIT, () -> port.stream().completed())).as("no wait left on the consumer stream").isTrue();
            for (long s = 1; s <= frames; s++) {
                assertThat(listener.deliveries(s)).as("frame %d", s).isEqualTo(1);
                assertThat(listener.intact(s)).as("frame %d", s).isTrue();
            }
            ConsumerSnapshot c = port.snapshot();
            assertThat(c.delivered()).as("%s", c).isEqualTo(frames);
            listener.close();
        }
    }

    /**
     * A listener that says it acknowledges in its kernel gets no ack step from the channel, in armed rounds and in
     * ordinary ones: this one's kernels never acknowledge, so its frames are taken and counted delivered, and the
     * acknowledgement stays where it was (the producer would stall on backpressure: the contract's stated cost).
     */
    @ParameterizedTest
    @EnumSource(EmulatedTopology.StreamMode.class)
    void aListenerThatAcknowledgesInItsKernelGetsNoAckStepFromTheChannel(EmulatedTopology.StreamMode mode) {
        for (boolean armedRounds : new boolean[] {true, false}) {
            try (SeqlinkRuntime rt = open(mode)) {
                PublishChannel ch = rt.openChannel(Rig.channel("in-kernel-ack-missing", 0, 1).armedRounds(armedRounds).build());
                ConsumerPort port = ch.consumer(1);
                ArmedChecksumListener plain = new ArmedChecksumListener(port.stream(), 8, LENGTH);
                port.subscribeDevice(new DeviceFrameHandler() {
                    @Override
                    public boolean acceptsArmedRounds() {
                        return true;
                    }

                    @Override
                    public boolean acknowledgesInKernel() {
                        return true; // but its kernels do not
                    }

                    @Override
                    public void onFrames(DeviceFrames frames) {
                        plain.onFrames(frames);
                    }
                });
                for (long s = 1; s <= 3; s++) {
                    port.poll(1);
                    offer(ch, s);
                    long expected = s;
                    assertThat(Rig.await(WAIT, () -> port.poll(1) >= 0 && plain.deliveries(expected) == 1
                            && port.snapshot().delivered() >= expected)).as("armed rounds %s, frame %d", armedRounds, s).isTrue();
                }
                assertThat(port.pause()).isTrue(); // releases an armed round: the stream then runs to its end
                assertThat(Rig.await(WAIT, () -> port.stream().completed())).as("everything enqueued ran").isTrue();
                assertThat(port.acknowledged()).as("armed rounds %s: no ack step after the listener's kernels", armedRounds).isZero();
                // nothing will acknowledge the frames: a plain close() would wait out the whole stall timeout for them
                ch.drainAndClose(Duration.ofMillis(200));
                plain.close();
            }
        }
    }

    /**
     * A listener that acknowledges in its kernel fails for good on frame 1 (every attempt throws before its work): the
     * frame is dead-lettered and the channel acknowledges it itself, so nothing stalls; frame 2 is acknowledged by the
     * listener's kernel.
     */
    @ParameterizedTest
    @EnumSource(EmulatedTopology.StreamMode.class)
    void aRoundTheAcknowledgingListenerFailedIsAcknowledgedByTheChannel(EmulatedTopology.StreamMode mode) {
        try (SeqlinkRuntime rt = open(mode)) {
            PublishChannel ch = rt.openChannel(Rig.channel("in-kernel-ack-failed", 0, 1).armedRounds(false).build());
            List<Long> deadLettered = new CopyOnWriteArrayList<>();
            ConsumerPort port = ch.consumer(1).retryPolicy(new RetryPolicy(1, Duration.ZERO, 1.0, Duration.ZERO))
                    .errorHandler((frame, cause) -> deadLettered.add(frame.sequence()));
            ArmedChecksumListener listener = new ArmedChecksumListener(port.stream(), 8, LENGTH, Ending.ACK_IN_KERNEL);
            port.subscribeDevice(listener);
            listener.failOnce(1, false);
            offer(ch, 1);
            assertThat(awaitAcked(port, 1)).as("the dead-lettered frame is acknowledged by the channel").isTrue();
            assertThat(deadLettered).containsExactly(1L);
            assertThat(listener.deliveries(1)).isZero();
            offer(ch, 2);
            assertThat(awaitAcked(port, 2)).as("the next frame by the listener's kernel").isTrue();
            assertThat(listener.deliveries(2)).isEqualTo(1);
            assertThat(listener.intact(2)).isTrue();
            ch.close();
            listener.close();
        }
    }
}
