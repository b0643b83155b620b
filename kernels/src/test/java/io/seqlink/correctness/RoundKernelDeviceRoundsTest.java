package io.seqlink.correctness;

import static io.seqlink.correctness.ArmedDeviceRoundsTest.LENGTH;
import static io.seqlink.correctness.ArmedDeviceRoundsTest.WAIT;
import static io.seqlink.correctness.ArmedDeviceRoundsTest.awaitAcked;
import static io.seqlink.correctness.ArmedDeviceRoundsTest.offer;
import static io.seqlink.correctness.ArmedDeviceRoundsTest.open;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.Delivery;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.DrainReport;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.RetryPolicy;
import io.seqlink.testing.ArmedChecksumListener;
import io.seqlink.testing.ArmedChecksumListener.Ending;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The fast path: a device listener that {@linkplain DeviceFrameHandler#consumesInKernel consumes in its
 * kernel} makes each round ONE kernel ({@code take_round} .. {@code end_round}): the channel enqueues neither its
 * consume step nor an ack step for it, and lands the rounds such a listener failed with its own consume step. The
 * cases every ending shares (armed rounds taken, released, retried; a live producer racing releases and failures;
 * the launcher) run in {@link ArmedDeviceRoundsTest} with {@link Ending#ROUND_KERNEL}; these are the round kernel's
 * own: what it leaves out, its failures, dead letters, and a listener switched to and from it while frames flow.
 * Each runs on an inline and a threaded stream.
 */
class RoundKernelDeviceRoundsTest {

    @ParameterizedTest
    @EnumSource(EmulatedTopology.StreamMode.class)
    void aRoundKernelListenerIsRefusedOnALatestChannelNamingTheFix(EmulatedTopology.StreamMode mode) {
        try (SeqlinkRuntime rt = open(mode)) {
            PublishChannel ch = rt.openChannel(Rig.channel("round-kernel-latest", 0, 1).delivery(Delivery.LATEST).build());
            ConsumerPort port = ch.consumer(1);
            ArmedChecksumListener listener = new ArmedChecksumListener(port.stream(), 4, LENGTH, Ending.ROUND_KERNEL);
            assertThatThrownBy(() -> port.subscribeDevice(listener)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("consumesInKernel").hasMessageContaining("LOSSLESS");
            assertThatThrownBy(() -> port.subscribeDeviceIfNone(listener, RetryPolicy.defaults(), (f, c) -> { }))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("consumesInKernel");
            assertThat(port.subscribed()).isFalse();
            ch.close();
            listener.close();
        }
    }

    /**
     * Ordinary and armed rounds: each frame is taken once, intact, in order, by the one kernel, which acknowledges
     * it; the device counters count ONE consume per round (the kernel's end_round), so the channel enqueued no
     * consume step of its own.
     */
    @ParameterizedTest
    @EnumSource(EmulatedTopology.StreamMode.class)
    void eachRoundIsTheListenersOneKernelWithNoConsumeOrAckStepOfTheChannel(EmulatedTopology.StreamMode mode) {
        for (boolean armedRounds : new boolean[] {false, true}) {
            try (SeqlinkRuntime rt = open(mode)) {
                PublishChannel ch = rt.openChannel(Rig.channel("round-kernel-steps", 0, 1).armedRounds(armedRounds).build());
                ConsumerPort port = ch.consumer(1);
                ArmedChecksumListener listener = new ArmedChecksumListener(port.stream(), 12, LENGTH, Ending.ROUND_KERNEL);
                port.subscribeDevice(listener);
                for (long s = 1; s <= 12; s++) {
                    port.poll(1);
                    offer(ch, s);
                    assertThat(awaitAcked(port, s)).as("armed %s, frame %d", armedRounds, s).isTrue();
                    assertThat(listener.deliveries(s)).isEqualTo(1);
                    assertThat(listener.intact(s)).isTrue();
                }
                assertThat(Rig.await(WAIT, () -> port.stream().completed() || port.pause() && port.stream().completed())).isTrue();
                ConsumerSnapshot c = port.snapshot();
                assertThat(listener.outOfOrder()).isZero();
                assertThat(c.delivered()).as("%s", c).isEqualTo(12);
                assertThat(c.deviceReads()).as("one consume per round that took a frame, the kernel's: %s", c).isEqualTo(12);
                assertThat(port.acknowledged()).isEqualTo(12);
                ch.close();
                listener.close();
            }
        }
    }

    /**
     * An armed call that throws lands its round by the channel's consume step: before its work (nothing else would
     * land it) and after it (its kernel lands it too, taking nothing: the frame had not come). The frame then comes
     * once by the ordinary round, at attempt 2.
     */
    @ParameterizedTest
    @EnumSource(EmulatedTopology.StreamMode.class)
    void aFailedArmedCallLandsItsRoundByTheChannelsConsumeStep(EmulatedTopology.StreamMode mode) {
        for (boolean afterWork : new boolean[] {false, true}) {
            try (SeqlinkRuntime rt = open(mode)) {
                PublishChannel ch = rt.openChannel(Rig.channel("round-kernel-armed-fail", 0, 1).build());
                ConsumerPort port = ch.consumer(1).retryPolicy(new RetryPolicy(2, Duration.ZERO, 1.0, Duration.ZERO));
                ArmedChecksumListener listener = new ArmedChecksumListener(port.stream(), 8, LENGTH, Ending.ROUND_KERNEL);
                port.subscribeDevice(listener);
                listener.failOnce(1, afterWork);
                assertThat(port.poll(1)).isZero();
                assertThat(Rig.await(WAIT, () -> port.poll(1) >= 0 && port.snapshot().armedReleased() == 1))
                        .as("after work %s: the failed armed round landed", afterWork).isTrue();
                assertThat(port.acknowledged()).isZero();
                offer(ch, 1);
                assertThat(awaitAcked(port, 1)).isTrue();
                port.poll(1);
                offer(ch, 2);
                assertThat(awaitAcked(port, 2)).isTrue();
                ConsumerSnapshot c = port.snapshot();
                assertThat(listener.deliveries(1)).as("%s", c).isEqualTo(1);
                assertThat(listener.intact(1)).isTrue();
                assertThat(listener.deliveries(2)).isEqualTo(1);
                assertThat(c.retries()).as("%s", c).isEqualTo(1);
                assertThat(c.delivered()).as("%s", c).isEqualTo(2);
                ch.close();
                listener.close();
            }
        }
    }

    /**
     * The frame comes while its armed round's listener is failing AFTER enqueuing its kernel: that kernel takes the
     * frame and acknowledges it (it cannot be taken back); the channel, landing the round, sees the acknowledgement
     * and counts the frame delivered, once: no retry, no dead letter, no second delivery, though the channel's own
     * consume step landed the same round again behind the kernel.
     */
    @ParameterizedTest
    @EnumSource(EmulatedTopology.StreamMode.class)
    void aFrameTheFailedCallsRoundKernelTookIsDeliveredOnceAndNeverAgain(EmulatedTopology.StreamMode mode) {
        try (SeqlinkRuntime rt = open(mode)) {
            PublishChannel ch = rt.openChannel(Rig.channel("round-kernel-took", 0, 1).build());
            List<Long> deadLettered = new CopyOnWriteArrayList<>();
            ConsumerPort port = ch.consumer(1).retryPolicy(new RetryPolicy(1, Duration.ZERO, 1.0, Duration.ZERO))
                    .errorHandler((frame, cause) -> deadLettered.add(frame.sequence()));
            ArmedChecksumListener listener = new ArmedChecksumListener(port.stream(), 8, LENGTH, Ending.ROUND_KERNEL);
            port.subscribeDevice(ArmedDeviceRoundsTest.failingAsFrameOneComes(ch, listener));
            assertThat(port.poll(1)).isZero();
            assertThat(awaitAcked(port, 1)).as("the kernel's acknowledgement, seen as the round landed").isTrue();
            port.poll(1);
            offer(ch, 2);
            assertThat(awaitAcked(port, 2)).isTrue();
            assertThat(Rig.await(WAIT, () -> port.pause() && port.stream().completed())).isTrue();
            ConsumerSnapshot c = port.snapshot();
            assertThat(listener.deliveries(1)).as("%s", c).isEqualTo(1);
            assertThat(listener.intact(1)).isTrue();
            assertThat(listener.calls(1)).as("no retry of a frame the kernel took").isEqualTo(1);
            assertThat(deadLettered).isEmpty();
            assertThat(listener.deliveries(2)).isEqualTo(1);
            assertThat(c.delivered()).as("%s", c).isEqualTo(2);
            assertThat(c.retries()).as("%s", c).isZero();
            ch.close();
            listener.close();
        }
    }

    /**
     * A round kernel's listener fails for good (every attempt throws before its work), in ordinary and armed rounds:
     * the channel's consume step brings the frame to the host first, so the error handler gets the frame's own
     * bytes; the channel acknowledges it; the next frame goes to the listener's kernel.
     */
    @ParameterizedTest
    @EnumSource(EmulatedTopology.StreamMode.class)
    void aDeadLetteredRoundKernelRoundHandsTheFramesBytesAndIsAcknowledgedByTheChannel(EmulatedTopology.StreamMode mode) {
        for (boolean armedRounds : new boolean[] {false, true}) {
            try (SeqlinkRuntime rt = open(mode)) {
                PublishChannel ch = rt.openChannel(Rig.channel("round-kernel-dead", 0, 1).armedRounds(armedRounds).build());
                List<Long> deadLettered = new CopyOnWriteArrayList<>();
                List<Boolean> intact = new CopyOnWriteArrayList<>();
                ConsumerPort port = ch.consumer(1).retryPolicy(new RetryPolicy(1, Duration.ZERO, 1.0, Duration.ZERO))
                        .errorHandler((frame, cause) -> {
                            deadLettered.add(frame.sequence());
                            byte[] bytes = new byte[frame.length()];
                            frame.payload().get(bytes);
                            intact.add(Arrays.equals(bytes, ArmedChecksumListener.payload(frame.sequence(), LENGTH)));
                        });
                ArmedChecksumListener listener = new ArmedChecksumListener(port.stream(), 8, LENGTH, Ending.ROUND_KERNEL);
                port.subscribeDevice(listener);
                listener.failOnce(1, false);
                port.poll(1);
                offer(ch, 1);
                assertThat(awaitAcked(port, 1)).as("armed %s: the dead-lettered frame is acknowledged by the channel", armedRounds)
                        .isTrue();
                assertThat(deadLettered).containsExactly(1L);
                assertThat(intact).as("the error handler got the frame's bytes").containsExactly(true);
                assertThat(listener.deliveries(1)).isZero();
                port.poll(1);
                offer(ch, 2);
                assertThat(awaitAcked(port, 2)).as("the next frame by the listener's kernel").isTrue();
                assertThat(listener.deliveries(2)).isEqualTo(1);
                assertThat(listener.intact(2)).isTrue();
                ch.close();
                listener.close();
            }
        }
    }

    /**
     * A live producer (2,000 frames) while another thread switches the port's listener between one that consumes in
     * its kernel and an ordinary one (the channel's consume and ack steps) and a third pauses and resumes it (armed
     * rounds released), with failures before work: every frame is taken exactly once, intact, by one of the two, in
     * order, and acknowledged; the close accounts for every frame.
     */
    @ParameterizedTest
    @EnumSource(EmulatedTopology.StreamMode.class)
    void aListenerSwitchedToAndFromTheRoundKernelWhileFramesFlowLosesAndRepeatsNothing(EmulatedTopology.StreamMode mode)
            throws Exception {
        int frames = 2_000;
        try (SeqlinkRuntime rt = open(mode)) {
            ChannelSpec spec = Rig.channel("round-kernel-switch", 0, 1).slots(8).stallTimeout(Duration.ofMillis(2)).build();
            PublishChannel ch = rt.openChannel(spec);
            ConsumerPort port = ch.consumer(1).retryPolicy(new RetryPolicy(3, Duration.ZERO, 1.0, Duration.ZERO));
            ArmedChecksumListener fused = new ArmedChecksumListener(port.stream(), frames, LENGTH, Ending.ROUND_KERNEL);
            ArmedChecksumListener plain = new ArmedChecksumListener(port.stream(), frames, LENGTH, Ending.ACK_STEP);
            port.subscribeDevice(fused);
            AtomicBoolean done = new AtomicBoolean();
            Thread producer = ArmedDeviceRoundsTest.producer(ch, frames,
                    s -> (ThreadLocalRandom.current().nextBoolean() ? fused : plain).failOnce(s, false));
            Thread switcher = new Thread(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (!done.get()) {
                    port.subscribeDevice(random.nextBoolean() ? fused : plain);
                    for (int i = random.nextInt(200); i > 0; i--) {
                        Thread.onSpinWait();
                    }
                }
            }, "switcher");
            Thread releaser = Rig.releaser(port, done);
            producer.start();
            switcher.start();
            releaser.start();
            boolean all = Rig.await(Duration.ofSeconds(60), () -> port.poll(4) >= 0 && port.acknowledged() >= frames);
            done.set(true);
            producer.join();
            switcher.join();
            releaser.join();
            port.resume();
            ConsumerSnapshot c = port.snapshot();
            assertThat(all).as("acknowledged %d of %d: %s", port.acknowledged(), frames, c).isTrue();
            DrainReport report = ch.drainAndClose(Duration.ofSeconds(5));
            assertThat(report.clean()).as("%s", report).isTrue();
            long wrong = 0;
            long byFused = 0;
            for (long s = 1; s <= frames; s++) {
                long f = fused.deliveries(s);
                long p = plain.deliveries(s);
                byFused += f;
                if (f + p != 1 || !(f == 1 ? fused.intact(s) : plain.intact(s))) {
                    wrong++;
                }
            }
            assertThat(wrong).as("frames not taken exactly once intact: %s", c).isZero();
            assertThat(byFused).as("both listeners took frames").isBetween(1L, frames - 1L);
            assertThat(fused.outOfOrder() + plain.outOfOrder()).isZero();
            assertThat(c.deadLettered()).isZero();
            fused.close();
            plain.close();
        }
    }
}
