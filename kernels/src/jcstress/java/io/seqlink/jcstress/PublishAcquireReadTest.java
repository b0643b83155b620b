package io.seqlink.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.seqlink.channel.Delivery;
import io.seqlink.channel.FrameHandler;
import io.seqlink.channel.ReadMode;
import io.seqlink.topology.Transport;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Edge publish → acquire → read: a consumer that sees frame 1 published must see frame 1's data.
 * The producer writes a 64-byte frame (8 words of {@link #DATA}), commits and publishes it; the
 * consumer polls once. r1 = the sequence delivered (0: none yet), r2 = words of the delivered payload
 * that hold {@link #DATA}, r3 = the consumer's acknowledged position (a frame skipped as "overwritten"
 * would show as acknowledged but not delivered: lost). One nested class per transport, since each moves data and sequence by a
 * different path (pull over the link, push into a replica on the consumer, push into pinned host memory).
 */
public final class PublishAcquireReadTest {

    static final long DATA = 0x5EED_F00D_CAFE_0001L;
    static final int BYTES = 64;

    private PublishAcquireReadTest() {
    }

    /** Shared body: the actors of every variant. */
    abstract static class Body implements FrameHandler {
        final ChannelFixture f;
        int seen;
        int words;

        Body(Transport transport, ReadMode readMode) {
            f = new ChannelFixture(Delivery.LOSSLESS, readMode, transport, 4, BYTES, this);
        }

        @Override
        public void onFrame(io.seqlink.channel.Frame frame) {
            seen = (int) frame.sequence();
            words = ChannelFixture.wordsEqual(frame.payload(), DATA);
        }

        void produce() {
            f.publishWords(DATA, BYTES);
        }

        void consume(III_Result r) {
            f.poll(8);
            r.r1 = seen;
            r.r2 = words;
            r.r3 = (int) f.port.acknowledged();
        }
    }

    @JCStressTest
    @Description("PEER_ATOMIC, copy mode: consumer pulls publish_seq and data over the link")
    @Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "Consumer polled before the publish")
    @Outcome(id = "1, 8, 1", expect = ACCEPTABLE, desc = "Frame 1 delivered with its data")
    @Outcome(expect = FORBIDDEN, desc = "Sequence seen but the data is old or torn, or the frame was skipped")
    @State
    public static class PeerAtomicCopy extends Body {
        public PeerAtomicCopy() {
            super(Transport.PEER_ATOMIC, ReadMode.COPY);
        }

        @Actor
        public void producer() {
            produce();
        }

        @Actor
        public void consumer(III_Result r) {
            consume(r);
        }
    }

    @JCStressTest
    @Description("PEER_COPY: the publish step pushes the frame, then the sequence, into a replica on the consumer")
    @Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "Consumer polled before the publish")
    @Outcome(id = "1, 8, 1", expect = ACCEPTABLE, desc = "Frame 1 delivered with its data")
    @Outcome(expect = FORBIDDEN, desc = "Sequence seen but the data is old or torn, or the frame was skipped")
    @State
    public static class PeerCopy extends Body {
        public PeerCopy() {
            super(Transport.PEER_COPY, ReadMode.COPY);
        }

        @Actor
        public void producer() {
            produce();
        }

        @Actor
        public void consumer(III_Result r) {
            consume(r);
        }
    }

    @JCStressTest
    @Description("HOST_STAGED, direct mode: the listener reads the pushed frame in pinned host memory")
    @Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "Consumer polled before the publish")
    @Outcome(id = "1, 8, 1", expect = ACCEPTABLE, desc = "Frame 1 delivered with its data")
    @Outcome(expect = FORBIDDEN, desc = "Sequence seen but the data is old or torn, or the frame was skipped")
    @State
    public static class HostStagedDirect extends Body {
        public HostStagedDirect() {
            super(Transport.HOST_STAGED, ReadMode.DIRECT);
        }

        @Actor
        public void producer() {
            produce();
        }

        @Actor
        public void consumer(III_Result r) {
            consume(r);
        }
    }
}
