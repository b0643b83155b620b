package io.seqlink.autoconfigure.reliability;

import static io.seqlink.autoconfigure.reliability.FaultRig.range;
import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.autoconfigure.SeqlinkAutoConfiguration;
import io.seqlink.autoconfigure.TestChannels;
import io.seqlink.autoconfigure.channel.SeqlinkChannelsAutoConfiguration;
import io.seqlink.autoconfigure.listener.SeqlinkListenerAutoConfiguration;
import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameErrorHandler;
import io.seqlink.channel.PublishChannel;
import io.seqlink.spring.listener.ChannelListener;
import io.seqlink.spring.listener.ListenerContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A listener that throws, for the two listener kinds {@code ChannelListenerTests} does not
 * make fail: a batch listener ({@code List<Frame>}) and a device listener ({@code DeviceFrames}). Each
 * failure is retried, then every frame of the failed batch or round goes to the {@code FrameErrorHandler}
 * with its payload; every published frame is handled or dead-lettered, none both, none lost, over a
 * 16-slot ring that wraps 18 times. (Per-frame listeners: {@code ChannelListenerTests}
 * {@code failingListenerIsRetried...}, {@code frameFailingEveryAttemptGoesToTheErrorHandler...},
 * {@code errorHandlerThatThrowsHolds...}.)
 */
class ListenerFailureReliabilityTests {

    static final int FRAMES = 300;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SeqlinkAutoConfiguration.class, SeqlinkChannelsAutoConfiguration.class,
                    SeqlinkListenerAutoConfiguration.class))
            .withPropertyValues(TestChannels.EMULATED_FRAMES)
            .withPropertyValues("seqlink.verify.enabled=false", "seqlink.launcher.idle-strategy=park",
                    "seqlink.listener.retry.initial-backoff=1ms", "seqlink.listener.retry.max-backoff=2ms");

    @Test
    void failingBatchesAreRetriedThenDeadLetteredFrameByFrameAndNothingIsLost() {
        DeadLetters dead = new DeadLetters();
        runner.withBean(FrameErrorHandler.class, () -> dead).withBean(PoisonBatchListener.class).run(context -> {
            publish(context);
            PoisonBatchListener l = context.getBean(PoisonBatchListener.class);
            assertEveryFrameHandledOrDeadLettered(l.handled, dead);
            assertThat(dead.sequences).as("every poisoned frame is dead-lettered").contains(13L, 26L, 299L);
            assertThat(l.failedBatches.get()).isPositive();
            ConsumerSnapshot c = snapshot(context);
            assertThat(c.retries()).as("two retries per failed batch").isEqualTo(2L * l.failedBatches.get());
            assertThat(c.deadLettered()).isEqualTo(dead.sequences.size());
            assertThat(c.acknowledged()).as("the consumer moved past every frame").isEqualTo(FRAMES);
        });
    }

    @Test
    void failingDeviceRoundsAreRetriedThenDeadLetteredFrameByFrameAndNothingIsLost() {
        DeadLetters dead = new DeadLetters();
        runner.withBean(FrameErrorHandler.class, () -> dead).withBean(PoisonDeviceListener.class).run(context -> {
            publish(context);
            PoisonDeviceListener l = context.getBean(PoisonDeviceListener.class);
            assertEveryFrameHandledOrDeadLettered(l.handled, dead);
            assertThat(dead.sequences).contains(13L, 26L, 299L);
            assertThat(l.attemptsOfFailedRounds).as("each failed round is tried three times, attempt 1, 2, 3")
                    .allSatisfy(attempts -> assertThat(attempts).containsExactly(1, 2, 3));
            assertThat(snapshot(context).deadLettered()).isEqualTo(dead.sequences.size());
        });
    }

    private static void publish(AssertableApplicationContext context) {
        PublishChannel ch = context.getBean("frames", PublishChannel.class);
        for (long v = 1; v <= FRAMES; v++) {
            TestChannels.publishLong(ch, v); // the value is the sequence
        }
        assertThat(context.getBean(SeqlinkRuntime.class).launcher().awaitDrained(Duration.ofSeconds(20))).isTrue();
    }

    private static void assertEveryFrameHandledOrDeadLettered(List<Long> handled, DeadLetters dead) {
        assertThat(dead.payloads).as("the error handler gets each frame's own payload").isEqualTo(dead.sequences);
        Set<Long> both = new HashSet<>(handled);
        both.retainAll(dead.sequences);
        assertThat(both).as("no frame both handled and dead-lettered").isEmpty();
        List<Long> all = new ArrayList<>(handled);
        all.addAll(dead.sequences);
        assertThat(all).as("every frame handled or dead-lettered, exactly once").containsExactlyInAnyOrderElementsOf(range(1, FRAMES));
        assertThat(dead.sequences).as("dead letters in sequence order").isSorted();
    }

    private static ConsumerSnapshot snapshot(AssertableApplicationContext context) {
        return context.getBean("frames", PublishChannel.class).snapshot().consumers().get(0);
    }

    static boolean poisoned(long from, long to) {
        for (long s = from; s <= to; s++) {
            if (s % 13 == 0) {
                return true;
            }
        }
        return false;
    }

    /** Fails every attempt of a batch holding a multiple of 13; records the frames of batches it took. */
    static class PoisonBatchListener {
        final List<Long> handled = new CopyOnWriteArrayList<>();
        final AtomicInteger failedBatches = new AtomicInteger();

        @ChannelListener("frames")
        void onBatch(List<Frame> frames, ListenerContext context) {
            long first = frames.get(0).sequence();
            long last = frames.get(frames.size() - 1).sequence();
            if (poisoned(first, last)) {
                if (context.attempt() == 1) {
                    failedBatches.incrementAndGet();
                }
                throw new IllegalStateException("poisoned batch " + first + ".." + last);
            }
            for (Frame f : frames) {
                handled.add(TestChannels.readLong(f.payload()));
            }
        }
    }

    /** Fails every attempt of a round holding a multiple of 13; records the rounds it took. */
    static class PoisonDeviceListener {
        final List<Long> handled = new CopyOnWriteArrayList<>();
        final List<List<Integer>> attemptsOfFailedRounds = new CopyOnWriteArrayList<>();
        private List<Integer> current;

        @ChannelListener("frames")
        void onFrames(DeviceFrames frames, ListenerContext context) {
            if (poisoned(frames.first(), frames.last())) {
                if (context.attempt() == 1) {
                    current = new CopyOnWriteArrayList<>();
                    attemptsOfFailedRounds.add(current);
                }
                current.add(context.attempt());
                throw new IllegalStateException("poisoned round " + frames.first() + ".." + frames.last());
            }
            for (long s = frames.first(); s <= frames.last(); s++) {
                handled.add(s);
            }
        }
    }

    static class DeadLetters implements FrameErrorHandler {
        final List<Long> sequences = new CopyOnWriteArrayList<>();
        final List<Long> payloads = new CopyOnWriteArrayList<>();

        @Override
        public void onFailedFrame(Frame frame, Exception cause) {
            sequences.add(frame.sequence());
            payloads.add(TestChannels.readLong(frame.payload()));
        }
    }
}
