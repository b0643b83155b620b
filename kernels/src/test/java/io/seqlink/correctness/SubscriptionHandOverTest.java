package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.backend.emulated.EmulatedTopology;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.FrameHandler;
import io.seqlink.channel.PublishChannel;
import io.seqlink.channel.RetryPolicy;
import io.seqlink.testing.ArmedChecksumListener;
import io.seqlink.testing.ArmedChecksumListener.Ending;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A listener's removal, as {@link ConsumerPort}'s contract states it: once {@code unsubscribe()} (or a replacing
 * {@code subscribe}) returns, the old listener is never called again; a frame it refused after its removal is neither
 * retried on it nor dead-lettered and stays unacknowledged; the next listener takes over from the first
 * unacknowledged frame; and a round armed for the old listener is released before the call returns, so a port
 * without a listener holds nothing armed on its stream.
 */
class SubscriptionHandOverTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final RetryPolicy QUICK_RETRIES = new RetryPolicy(3, Duration.ZERO, 1.0, Duration.ZERO);

    private static SeqlinkRuntime open(EmulatedTopology.StreamMode mode) {
        return Rig.runtime(EmulatedTopology.builder(2).streamMode(mode).build()).open();
    }

    private static void offer(PublishChannel ch, long s) {
        assertThat(ch.offer(Rig.frame(s, 0), 0, 24)).isEqualTo(s);
    }

    /** A listener that records the frames it was called with. */
    private static final class Recording implements FrameHandler {
        final List<Long> calls = new CopyOnWriteArrayList<>();

        @Override
        public void onFrame(io.seqlink.channel.Frame frame) {
            calls.add(frame.sequence());
        }
    }

    /**
     * A listener that unsubscribes itself and then throws: the frame is not retried on it, not dead-lettered, not
     * acknowledged, and the listener subscribed afterwards gets it. Polled by the user (the retry would wait on the
     * caller) and by the launcher (the retry would go to the port's listener thread).
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aListenerThatUnsubscribesAndThrowsIsNotRetriedAndItsFrameGoesToTheNext(boolean launcher) {
        try (SeqlinkRuntime rt = open(EmulatedTopology.StreamMode.INLINE)) {
            PublishChannel ch = rt.openChannel(Rig.channel("leaves-and-throws", 0, 1).build());
            AtomicInteger deadLettered = new AtomicInteger();
            AtomicInteger calls = new AtomicInteger();
            ConsumerPort port = ch.consumer(1).retryPolicy(QUICK_RETRIES).errorHandler((f, cause) -> deadLettered.incrementAndGet());
            port.subscribe(frame -> {
                calls.incrementAndGet();
                port.unsubscribe();
                throw new IllegalStateException("leaving");
            });
            offer(ch, 1);
            if (launcher) {
                rt.start();
                assertThat(Rig.await(WAIT, () -> !port.subscribed())).isTrue();
                LockSupport.parkNanos(Duration.ofMillis(100).toNanos()); // room for a retry, were one to come
            } else {
                port.poll(8);
            }
            assertThat(calls.get()).as("called once: not retried after its removal").isEqualTo(1);
            assertThat(deadLettered.get()).as("not dead-lettered").isZero();
            assertThat(port.acknowledged()).as("left unacknowledged").isZero();
            assertThat(port.retrying()).isFalse();

            Recording next = new Recording();
            port.subscribe(next);
            if (launcher) {
                assertThat(Rig.await(WAIT, () -> port.acknowledged() >= 1)).isTrue();
            } else {
                port.poll(8);
            }
            assertThat(next.calls).containsExactly(1L);
            assertThat(port.acknowledged()).isEqualTo(1);
            assertThat(deadLettered.get()).isZero();
        }
    }

    /**
     * A caught-up host listener whose next round is armed is unsubscribed; a frame published after {@code unsubscribe()}
     * returned goes to the listener subscribed later, never to the removed one, and without waiting for the armed
     * round to time out.
     */
    @ParameterizedTest
    @EnumSource(EmulatedTopology.StreamMode.class)
    void aFramePublishedAfterTheRemovalGoesToTheNextListenerOnly(EmulatedTopology.StreamMode mode) {
        try (SeqlinkRuntime rt = open(mode)) {
            PublishChannel ch = rt.openChannel(Rig.channel("armed-hand-over", 0, 1).stallTimeout(Duration.ofSeconds(30)).build());
            ConsumerPort port = ch.consumer(1);
            Recording first = new Recording();
            port.subscribe(first);
            rt.start();
            offer(ch, 1);
            assertThat(Rig.await(WAIT, () -> port.acknowledged() >= 1)).isTrue();
            assertThat(Rig.await(WAIT, () -> port.snapshot().rounds() >= 2)).as("frame 2's round armed").isTrue();

            assertThat(port.unsubscribe()).isTrue();
            offer(ch, 2);
            LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
            Recording second = new Recording();
            long subscribed = System.nanoTime();
            port.subscribe(second);
            assertThat(Rig.await(WAIT, () -> second.calls.contains(2L))).isTrue();
            long tookMillis = Duration.ofNanos(System.nanoTime() - subscribed).toMillis();

            assertThat(first.calls).as("the removed listener").containsExactly(1L);
            assertThat(second.calls).as("the next listener").containsExactly(2L);
            assertThat(tookMillis).as("delivered by the next listener's own round, not after a timeout").isLessThan(10_000);
            assertThat(Rig.await(WAIT, () -> port.acknowledged() == 2)).isTrue();
        }
    }

    /**
     * The armed round of a port whose listener was removed is released at once: the port's stream is free again long
     * before the channel's stall timeout, though nothing is published and nobody polls the port any more.
     */
    @ParameterizedTest
    @EnumSource(EmulatedTopology.StreamMode.class)
    void aPortWithoutAListenerHoldsNothingArmed(EmulatedTopology.StreamMode mode) {
        try (SeqlinkRuntime rt = open(mode)) {
            PublishChannel ch = rt.openChannel(Rig.channel("armed-unsubscribed", 0, 1).stallTimeout(Duration.ofMinutes(5)).build());
            ConsumerPort port = ch.consumer(1);
            port.subscribe(new Recording());
            rt.start();
            offer(ch, 1);
            assertThat(Rig.await(WAIT, () -> port.acknowledged() >= 1)).isTrue();
            assertThat(Rig.await(WAIT, () -> port.snapshot().rounds() >= 2)).as("frame 2's round armed").isTrue();
            assertThat(port.stream().completed()).as("the armed wait holds the stream").isFalse();

            port.unsubscribe();
            assertThat(Rig.await(WAIT, () -> port.stream().completed())).as("released by the unsubscribe").isTrue();
        }
    }

    /**
     * The same for a device listener that takes armed rounds: its round armed before the frame exists is released by
     * the removal, and a frame published after {@code unsubscribe()} returned never reaches its kernels; the next
     * listener takes it.
     */
    @ParameterizedTest
    @EnumSource(Ending.class)
    void aRemovedArmedDeviceListenerNeverTakesAFramePublishedAfterItsRemoval(Ending ending) {
        try (SeqlinkRuntime rt = open(EmulatedTopology.StreamMode.INLINE)) {
            PublishChannel ch = rt.openChannel(Rig.channel("armed-device-hand-over", 0, 1).stallTimeout(Duration.ofMinutes(5)).build());
            ConsumerPort port = ch.consumer(1);
            ArmedChecksumListener first = new ArmedChecksumListener(port.stream(), 8, ArmedDeviceRoundsTest.LENGTH, ending);
            port.subscribeDevice(first);
            port.poll(1); // nothing published: frame 1 is armed, the listener's work waits behind it
            assertThat(first.calls(1)).isEqualTo(1);

            port.unsubscribe();
            ArmedDeviceRoundsTest.offer(ch, 1);
            assertThat(Rig.await(WAIT, () -> port.stream().completed())).as("the released round ran to its end").isTrue();
            assertThat(first.deliveries(1)).as("the removed listener's kernels took nothing").isZero();

            ArmedChecksumListener second = new ArmedChecksumListener(port.stream(), 8, ArmedDeviceRoundsTest.LENGTH, ending);
            port.subscribeDevice(second);
            assertThat(ArmedDeviceRoundsTest.awaitAcked(port, 1)).isTrue();
            assertThat(second.deliveries(1)).isEqualTo(1);
            assertThat(second.intact(1)).isTrue();
            ConsumerSnapshot c = port.snapshot();
            assertThat(c.delivered()).as("%s", c).isEqualTo(1);
            ch.close();
            first.close();
            second.close();
        }
    }

    /**
     * A listener that acknowledges in its kernel acknowledges on the device before the host counts the frame: the
     * port's acknowledgement never shows a frame its counts do not show handled.
     */
    @ParameterizedTest
    @EnumSource(value = Ending.class, names = {"ACK_IN_KERNEL", "ROUND_KERNEL"})
    void anAcknowledgementIsNeverAheadOfTheDeliveredCount(Ending ending) {
        try (SeqlinkRuntime rt = open(EmulatedTopology.StreamMode.INLINE)) {
            PublishChannel ch = rt.openChannel(Rig.channel("ack-not-ahead", 0, 1).build());
            ConsumerPort port = ch.consumer(1);
            ArmedChecksumListener listener = new ArmedChecksumListener(port.stream(), 8, ArmedDeviceRoundsTest.LENGTH, ending);
            port.subscribeDevice(listener);
            for (long s = 1; s <= 4; s++) {
                port.poll(1); // arms frame s
                ArmedDeviceRoundsTest.offer(ch, s);
                port.stream().completed(); // the armed round runs on the device: its kernel acknowledges s
                ConsumerSnapshot before = port.snapshot();
                assertThat(before.acknowledged()).as("frame %d before the poller saw its round: %s", s, before)
                        .isLessThanOrEqualTo(before.delivered());
                assertThat(port.acknowledged()).isLessThanOrEqualTo(before.delivered());
                assertThat(ArmedDeviceRoundsTest.awaitAcked(port, s)).isTrue();
                ConsumerSnapshot after = port.snapshot();
                assertThat(after.acknowledged()).isEqualTo(s);
                assertThat(after.delivered()).isEqualTo(s);
            }
            ch.close();
            listener.close();
        }
    }
}
