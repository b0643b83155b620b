package io.seqlink.correctness;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqlink.SeqlinkRuntime;
import io.seqlink.channel.ChannelSpec;
import io.seqlink.channel.ConsumerPort;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameContext;
import io.seqlink.channel.FrameHandler;
import io.seqlink.channel.PublishChannel;
import io.seqlink.topology.Transport;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The trace context a producer writes into a frame's header reaches the host listener with that frame, and only with
 * it, on every route a host listener's frames take: the ring in host memory written in place (host push on
 * {@code PEER_ATOMIC}), a pushed replica ({@code PEER_COPY}, {@code HOST_STAGED}), and the consumer stream's staging
 * copy (no push hint). Every third frame carries one, by {@code offer(src, context)} or by a claim's
 * {@code context(...)}; a 16-slot ring makes every slot carry frames with and without one lap after lap, so a context
 * an earlier frame left in its slot would show on a later one.
 */
class FrameContextTest {

    private static final int FRAMES = 2_000;

    static long traceHigh(long id) {
        return 0x1000_0000_0000_0000L | id;
    }

    static long spanOf(long id) {
        return 0x0abc_0000_0000_0000L | id;
    }

    /** Checks each frame's context against the id in its payload. */
    static final class ContextCheck implements FrameHandler {
        final FrameContext seen = new FrameContext();
        final AtomicLong frames = new AtomicLong();
        final AtomicLong withContext = new AtomicLong();
        final AtomicLong wrong = new AtomicLong();

        @Override
        public void onFrame(Frame frame) {
            long id = frame.payload().getLong(0);
            boolean expected = id % 3 == 0;
            boolean has = frame.context(seen);
            if (has != expected || frame.hasContext() != expected) {
                wrong.incrementAndGet();
            } else if (has && (seen.traceIdHigh() != traceHigh(id) || seen.traceIdLow() != ~id || seen.spanId() != spanOf(id)
                    || seen.flags() != 1)) {
                wrong.incrementAndGet();
            }
            if (has) {
                withContext.incrementAndGet();
            }
            frames.incrementAndGet();
        }
    }

    @ParameterizedTest(name = "{0}, host push {1}")
    @CsvSource({"PEER_ATOMIC, true", "PEER_COPY, true", "HOST_STAGED, true", "PEER_COPY, false", "PEER_ATOMIC, false",
            "HOST_STAGED, false"})
    void theContextTravelsWithItsFrameOnlyOnEveryRoute(Transport transport, boolean hostPush) {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            ChannelSpec.Builder spec = Rig.channel("ctx-" + transport.name().toLowerCase().replace('_', '-') + (hostPush ? "-push" : ""),
                    0, 1).transport(transport).slots(16).maxPublishBatch(4);
            if (hostPush) {
                spec.hostListeners(1);
            }
            PublishChannel ch = rt.openChannel(spec.build());
            ContextCheck check = new ContextCheck();
            ConsumerPort port = ch.consumer(1).subscribe(check);
            rt.start();
            FrameContext context = new FrameContext();
            ByteBuffer src = ByteBuffer.allocate(24).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            for (long id = 1; id <= FRAMES; ) {
                boolean traced = id % 3 == 0;
                if (id % 2 == 0) { // the claim path
                    long seq = ch.tryClaim();
                    if (seq <= 0) {
                        ch.publish();
                        Thread.onSpinWait();
                        continue;
                    }
                    ByteBuffer slot = ch.buffer();
                    Rig.writeFrame(slot, id, ~id);
                    if (traced) {
                        ch.context(context.set(traceHigh(id), ~id, spanOf(id), 1));
                    }
                    ch.commit(24);
                    ch.publish();
                    id++;
                } else {
                    src.clear();
                    Rig.writeFrame(src, id, ~id);
                    long seq = traced ? ch.offer(src, context.set(traceHigh(id), ~id, spanOf(id), 1)) : ch.offer(src);
                    if (seq > 0) {
                        id++;
                    } else {
                        Thread.onSpinWait();
                    }
                }
            }
            assertThat(Rig.await(Duration.ofSeconds(60), () -> port.acknowledged() >= FRAMES)).as("acknowledged: %s", port.snapshot())
                    .isTrue();
            assertThat(check.frames.get()).isEqualTo(FRAMES);
            assertThat(check.wrong.get()).as("frames whose context was missing, stale or wrong").isZero();
            assertThat(check.withContext.get()).isEqualTo(FRAMES / 3);
        }
    }

    @Test
    void aDeviceWrittenFrameCarriesItsContextAndALaterOneInTheSameSlotNone() {
        try (SeqlinkRuntime rt = Rig.runtime(2).open()) {
            PublishChannel ch = rt.openChannel(Rig.channel("ctx-device", 0, 1).transport(Transport.PEER_COPY).slots(4)
                    .maxPublishBatch(1).build());
            ContextCheck check = new ContextCheck();
            ConsumerPort port = ch.consumer(1).subscribe(check);
            rt.start();
            FrameContext context = new FrameContext();
            for (long id = 1; id <= 200; ) {
                long seq = ch.tryClaim();
                if (seq <= 0) {
                    Thread.onSpinWait();
                    continue;
                }
                // the "kernel": stream writes of the frame's words into the claimed slot
                long at = ch.payloadOffset(seq);
                ch.producerStream().writeValue(ch.ring(), at, id);
                ch.producerStream().writeValue(ch.ring(), at + 8, ~id);
                ch.producerStream().writeValue(ch.ring(), at + 16, Rig.check(id, ~id));
                if (id % 3 == 0) {
                    ch.context(context.set(traceHigh(id), ~id, spanOf(id), 1));
                }
                ch.commitDevice(24);
                ch.publish();
                id++;
            }
            assertThat(Rig.await(Duration.ofSeconds(60), () -> port.acknowledged() >= 200)).as("acknowledged: %s", port.snapshot())
                    .isTrue();
            assertThat(check.wrong.get()).as("frames whose context was missing, stale or wrong").isZero();
            assertThat(check.withContext.get()).isEqualTo(66);
        }
    }

    @Test
    void traceparentRoundTrips() {
        FrameContext c = new FrameContext();
        assertThat(c.setTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).isTrue();
        assertThat(c.traceIdHigh()).isEqualTo(0x4bf92f3577b34da6L);
        assertThat(c.spanId()).isEqualTo(0x00f067aa0ba902b7L);
        assertThat(c.flags()).isEqualTo(1);
        assertThat(c.traceparent()).isEqualTo("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        assertThat(c.traceIdHex()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(c.setTraceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01")).as("all-zero trace id").isFalse();
        assertThat(c.setTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7")).isFalse();
        assertThat(c.setTraceparent("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01")).as("upper case").isFalse();
        assertThat(c.isPresent()).isFalse();
    }
}
