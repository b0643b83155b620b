package io.seqlink.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.Delivery;
import io.seqlink.channel.Frame;
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
 * Edge ack → slot reuse (lossless): the producer may not overwrite a slot before every consumer has
 * acknowledged the frame in it. Two slots, frames 1 and 2 published up front: the ring is full. The
 * consumer reads frame 1 (8 words of 1) and acknowledges it; concurrently the producer tries to claim
 * frame 3—which lives in frame 1's slot—and, if it gets it, writes 8 words of 3 there.
 * r1 = sequence the consumer got, r2 = words of it that still hold 1, r3 = the producer's claim
 * (3, or -1 for BACK_PRESSURED).
 */
public final class AckBeforeReuseTest {

    static final int BYTES = 64;

    private AckBeforeReuseTest() {
    }

    abstract static class Body implements FrameHandler {
        final ChannelFixture f;
        int seen;
        int words;

        Body(Transport transport, ReadMode readMode) {
            f = new ChannelFixture(Delivery.LOSSLESS, readMode, transport, 2, BYTES, this);
            f.publishWords(1, BYTES);
            f.publishWords(2, BYTES);
        }

        @Override
        public void onFrame(Frame frame) {
            seen = (int) frame.sequence();
            words = ChannelFixture.wordsEqual(frame.payload(), 1);
        }

        void consume(III_Result r) {
            f.poll(1);
            r.r1 = seen;
            r.r2 = words;
        }

        void produce(III_Result r) {
            long claim = f.publishWords(3, BYTES);
            r.r3 = (int) claim;
        }
    }

    @JCStressTest
    @Description("PEER_ATOMIC, copy mode: the consume step copies the slot, the ack follows the listener")
    @Outcome(id = "1, 8, 3", expect = ACCEPTABLE, desc = "Frame 1 read intact, acknowledged, then its slot reused")
    @Outcome(id = "1, 8, -1", expect = ACCEPTABLE, desc = "Frame 1 read intact; the claim came before the ack")
    @Outcome(expect = FORBIDDEN, desc = "The producer overwrote a slot the consumer had not acknowledged")
    @State
    public static class PeerAtomicCopy extends Body {
        public PeerAtomicCopy() {
            super(Transport.PEER_ATOMIC, ReadMode.COPY);
        }

        @Actor
        public void consumer(III_Result r) {
            consume(r);
        }

        @Actor
        public void producer(III_Result r) {
            produce(r);
        }
    }

    @JCStressTest
    @Description("HOST_STAGED, direct mode: the listener reads the very slot the producer's push would overwrite")
    @Outcome(id = "1, 8, 3", expect = ACCEPTABLE, desc = "Frame 1 read intact, acknowledged, then its slot reused")
    @Outcome(id = "1, 8, -1", expect = ACCEPTABLE, desc = "Frame 1 read intact; the claim came before the ack")
    @Outcome(expect = FORBIDDEN, desc = "The producer overwrote a slot the consumer had not acknowledged")
    @State
    public static class HostStagedDirect extends Body {
        public HostStagedDirect() {
            super(Transport.HOST_STAGED, ReadMode.DIRECT);
        }

        @Actor
        public void consumer(III_Result r) {
            consume(r);
        }

        @Actor
        public void producer(III_Result r) {
            produce(r);
        }
    }

    static {
        // ClaimStatus.BACK_PRESSURED is the "-1" of the outcomes above.
        if (ClaimStatus.BACK_PRESSURED != -1) {
            throw new AssertionError("BACK_PRESSURED changed; update the outcomes");
        }
    }
}
