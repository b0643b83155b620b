package io.seqlink.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.seqlink.channel.Delivery;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameHandler;
import io.seqlink.channel.ReadMode;
import io.seqlink.topology.Transport;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Latest delivery never hands out a torn frame. Two slots of 8 KiB, one frame per publish: the
 * producer never waits, so publishing frames 1..{@link #FRAMES} laps a consumer while it copies. Every
 * word of frame {@code s} holds {@code s}; the consumer polls three times and checks each frame it is
 * given. (Frames this large make the copies overlap often enough that removing the consume step's
 * {@code writer_busy} check is caught within a quick run.)
 * r1 = frames delivered torn (a word not equal to the frame's sequence, or out of order), must be 0;
 * r2 (arbiter) = whether delivered + missed accounts for every frame the consumer moved past (its
 * acknowledged position), i.e. missed equals the gaps in what it saw.
 */
public final class LatestNeverTornTest {

    static final int BYTES = 8192;
    static final int FRAMES = 8;
    /** Read-only sources: frame {@code s} is {@code SOURCES[s]}, every word {@code s}. Shared by all states. */
    static final ByteBuffer[] SOURCES = new ByteBuffer[FRAMES + 1];

    static {
        for (int s = 1; s <= FRAMES; s++) {
            ByteBuffer b = ByteBuffer.allocateDirect(BYTES).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < BYTES; i += 8) {
                b.putLong(i, s);
            }
            SOURCES[s] = b.asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
        }
    }

    private LatestNeverTornTest() {
    }

    abstract static class Body implements FrameHandler {
        final ChannelFixture f;
        int torn;
        long last;
        long delivered;

        Body(Transport transport) {
            f = new ChannelFixture(Delivery.LATEST, ReadMode.COPY, transport, 2, BYTES, this);
        }

        @Override
        public void onFrame(Frame frame) {
            long s = frame.sequence();
            if (s <= last || frame.length() != BYTES || ChannelFixture.wordsEqual(frame.payload(), s) != BYTES / 8) {
                torn++;
            }
            last = s;
            delivered++;
        }

        void produce() {
            // offer: one bulk copy into staging, the commit copy, the publish step; as fast as the
            // producer goes, so it laps the consumer while the consumer copies.
            for (int s = 1; s <= FRAMES; s++) {
                f.channel.offer(SOURCES[s]);
            }
        }

        void consume(II_Result r) {
            for (int i = 0; i < 3; i++) {
                f.poll(FRAMES);
            }
            r.r1 = torn;
        }

        void account(II_Result r) {
            long missed = f.port.snapshot().missed();
            long acknowledged = f.port.acknowledged();
            r.r2 = delivered + missed == acknowledged && acknowledged >= last ? 1 : 0;
        }
    }

    @JCStressTest
    @Description("PEER_ATOMIC, copy mode: the consume step validates writer_busy after copying")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "Every delivered frame intact; missed counts the gaps")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "Frames intact, but missed does not match the gaps")
    @Outcome(expect = FORBIDDEN, desc = "A torn or reordered frame was delivered")
    @State
    public static class PeerAtomic extends Body {
        public PeerAtomic() {
            super(Transport.PEER_ATOMIC);
        }

        @Actor
        public void producer() {
            produce();
        }

        @Actor
        public void consumer(II_Result r) {
            consume(r);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            account(r);
        }
    }

    @JCStressTest
    @Description("PEER_COPY: frames pushed into a replica on the consumer, validated against the replica's writer_busy")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "Every delivered frame intact; missed counts the gaps")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "Frames intact, but missed does not match the gaps")
    @Outcome(expect = FORBIDDEN, desc = "A torn or reordered frame was delivered")
    @State
    public static class PeerCopy extends Body {
        public PeerCopy() {
            super(Transport.PEER_COPY);
        }

        @Actor
        public void producer() {
            produce();
        }

        @Actor
        public void consumer(II_Result r) {
            consume(r);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            account(r);
        }
    }
}
