package io.seqlink.correctness;

import static io.seqlink.correctness.FrameContextTest.spanOf;
import static io.seqlink.correctness.FrameContextTest.traceHigh;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.Delivery;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.channel.FrameContext;
import io.seqlink.channel.PublishChannel;
import io.seqlink.topology.Transport;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A device listener learns each frame's trace context from {@link DeviceFrames#context(long, FrameContext)}, read on
 * the host from the header words the producer wrote, while the frames themselves stay on the device: every frame of
 * every round shows its own context (or none), on host-written and device-written frames, over every transport, on a
 * 16-slot ring that puts frames with and without one in every slot lap after lap. A frame whose slot the producer has
 * claimed again shows none, never the later frame's.
 */
class DeviceFrameContextTest {

    private static final int FRAMES = 2_000;

    /** Frame {@code s} (one producer thread: the sequence is the frame's id) carries a context when {@code s % 3 == 0}. */
    static boolean traced(long sequence) {
        return sequence % 3 == 0;
    }

    /** Checks the context of every frame of every round against its sequence; enqueues no work of its own. */
    static final class ContextCheck implements DeviceFrameHandler {
        final FrameContext seen = new FrameContext();
        final AtomicLong seenFrames = new AtomicLong();
        final AtomicLong withContext = new AtomicLong();
        final AtomicLong wrong = new AtomicLong();
        final AtomicReference<String> firstWrong = new AtomicReference<>();
        final AtomicReference<Throwable> outside = new AtomicReference<>();

        @Override
        public void onFrames(DeviceFrames frames) {
            if (outside.get() == null) {
                try {
                    frames.context(frames.last() + 1, seen);
                } catch (Throwable t) {
                    outside.set(t);
                }
            }
            for (long s = frames.first(); s <= frames.last(); s++) {
                boolean has = frames.context(s, seen);
                boolean right = has == traced(s) && frames.hasContext(s) == has
                        && (!has || (seen.traceIdHigh() == traceHigh(s) && seen.traceIdLow() == ~s && seen.spanId() == spanOf(s)
                                && seen.flags() == 1));
                if (!right) {
                    wrong.incrementAndGet();
                    firstWrong.compareAndSet(null, "frame " + s + ": " + seen);
                }
                if (has) {
                    withContext.incrementAndGet();
                }
                seenFrames.incrementAndGet();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = {"PEER_ATOMIC", "PEER_COPY", "HOST_STAGED"})
    void everyFrameOfEveryRoundShowsItsOwnContext(Transport transport) {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("device-ctx-" + transport.name().toLowerCase().replace('_', '-'), 0, 1)
                    .transport(transport).slots(16).maxPublishBatch(4).build());
            ContextCheck check = new ContextCheck();
            ConsumerPort port = ch.consumer(1).subscribeDevice(check);
            rt.start();
            FrameContext context = new FrameContext();
            ByteBuffer src = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
            for (long s = 1; s <= FRAMES; ) {
                FrameContext c = traced(s) ? context.set(traceHigh(s), ~s, spanOf(s), 1) : context.clear();
                switch ((int) (s % 3 + s / 3 % 3) % 3) { // each way of publishing meets frames with and without a context
                    case 0 -> { // offer
                        src.clear();
                        Rig.writeFrame(src, s, ~s);
                        if ((c.isPresent() ? ch.offer(src, c) : ch.offer(src)) <= 0) {
                            Thread.onSpinWait();
                            continue;
                        }
                    }
                    case 1 -> { // a claim the host writes
                        if (ch.tryClaim() <= 0) {
                            ch.publish();
                            Thread.onSpinWait();
                            continue;
                        }
                        Rig.writeFrame(ch.buffer(), s, ~s);
                        ch.context(c);
                        ch.commit(24);
                        ch.publish();
                    }
                    default -> { // a claim a "kernel" writes on the producer stream
                        long seq = ch.tryClaim();
                        if (seq <= 0) {
                            ch.publish();
                            Thread.onSpinWait();
                            continue;
                        }
                        long at = ch.payloadOffset(seq);
                        ch.producerStream().writeValue(ch.ring(), at, s);
                        ch.context(c);
                        ch.commitDevice(8);
                        ch.publish();
                    }
                }
                s++;
            }
            assertThat(Rig.await(Duration.ofSeconds(60), () -> port.acknowledged() >= FRAMES)).as("acknowledged: %s",
                    port.snapshot()).isTrue();
            assertThat(check.seenFrames.get()).isEqualTo(FRAMES);
            assertThat(check.wrong.get()).as("frames whose context was missing, stale or wrong; the first: %s",
                    check.firstWrong.get()).isZero();
            assertThat(check.withContext.get()).isEqualTo(FRAMES / 3);
            assertThat(check.outside.get()).as("a frame outside the round").isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is not in this round of channel");
        }
    }

    @Test
    void aFrameWhoseSlotWasClaimedAgainShowsNoContextNeverTheLaterFramesOne() throws Exception {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            // latest delivery: the producer never waits for the consumer, so it laps the round the listener holds
            PublishChannel ch = rt.openChannel(Rig.channel("device-ctx-lapped", 0, 1).delivery(Delivery.LATEST).slots(4)
                    .maxPublishBatch(1).build());
            CountDownLatch inCall = new CountDownLatch(1);
            CountDownLatch lapped = new CountDownLatch(1);
            FrameContext before = new FrameContext();
            FrameContext after = new FrameContext();
            AtomicReference<Boolean> hadBefore = new AtomicReference<>();
            AtomicReference<Boolean> hadAfter = new AtomicReference<>();
            ch.consumer(1).subscribeDevice(frames -> {
                if (frames.first() != 1 || hadBefore.get() != null) {
                    return;
                }
                hadBefore.set(frames.context(1, before));
                inCall.countDown();
                if (!lapped.await(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the producer did not lap the round");
                }
                hadAfter.set(frames.context(1, after));
            });
            rt.start();
            FrameContext context = new FrameContext();
            ByteBuffer src = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
            assertThat(ch.offer(src, context.set(traceHigh(1), ~1L, spanOf(1), 1))).isEqualTo(1);
            assertThat(inCall.await(60, TimeUnit.SECONDS)).as("the listener's call for frame 1").isTrue();
            for (long s = 2; s <= 5; s++) { // frame 5 takes frame 1's slot, with a context of its own
                assertThat(ch.offer(src, context.set(traceHigh(s), ~s, spanOf(s), 1))).isEqualTo(s);
            }
            lapped.countDown();
            assertThat(Rig.await(Duration.ofSeconds(60), () -> hadAfter.get() != null)).isTrue();
            assertThat(hadBefore.get()).isTrue();
            assertThat(before.traceIdHigh()).isEqualTo(traceHigh(1));
            assertThat(before.spanId()).isEqualTo(spanOf(1));
            assertThat(hadAfter.get()).as("frame 1's slot holds frame 5: %s", after).isFalse();
            assertThat(after.isPresent()).isFalse();
        }
    }
}
