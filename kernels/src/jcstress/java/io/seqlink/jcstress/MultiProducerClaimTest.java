package io.seqlink.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

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
import org.openjdk.jcstress.infra.results.IIII_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The multi-producer claim: producers race on the claim cursor with a CAS, commit in any order, and
 * whoever publishes takes the committed prefix of the window with one publish step.
 */
public final class MultiProducerClaimTest {

    static final int BYTES = 64;

    private MultiProducerClaimTest() {
    }

    @JCStressTest
    @Description("Two producers claim at once: each holds its own sequence")
    @Outcome(id = {"1, 2", "2, 1"}, expect = ACCEPTABLE, desc = "One sequence each")
    @Outcome(expect = FORBIDDEN, desc = "Two producers hold one sequence, or a claim was refused on a free ring")
    @State
    public static class DistinctSequences {
        final ChannelFixture f = new ChannelFixture(Delivery.LOSSLESS, ReadMode.COPY, Transport.PEER_ATOMIC, 8, BYTES, 4,
                frame -> { });

        @Actor
        public void first(II_Result r) {
            r.r1 = (int) f.channel.tryClaim();
        }

        @Actor
        public void second(II_Result r) {
            r.r2 = (int) f.channel.tryClaim();
        }
    }

    /**
     * Two producers publish a frame each (8 words of their own value); the second then polls the
     * consumer at once (two actors: jcstress runs no more actors than there are CPUs, and CI has two). A
     * publish that took a frame the first producer was still writing would hand the consumer a slot
     * without its words. r1, r2 = the producers' sequences; r3 = frames the consumer got whose words are
     * not one producer's value; r4 = frames it got.
     */
    @JCStressTest
    @Description("Two producers publish, one then consumes: a published range never holds an uncommitted frame")
    @Outcome(id = {"1, 2, 0, 0", "1, 2, 0, 1", "1, 2, 0, 2", "2, 1, 0, 0", "2, 1, 0, 1", "2, 1, 0, 2"}, expect = ACCEPTABLE,
            desc = "Every frame the consumer got was whole")
    @Outcome(expect = FORBIDDEN, desc = "A published range held an uncommitted frame, or two producers held one sequence")
    @State
    public static class PublishedFramesAreCommitted implements FrameHandler {
        final ChannelFixture f = new ChannelFixture(Delivery.LOSSLESS, ReadMode.COPY, Transport.PEER_ATOMIC, 8, BYTES, 4, this);
        int torn;
        int got;

        @Override
        public void onFrame(Frame frame) {
            got++;
            int ones = ChannelFixture.wordsEqual(frame.payload(), 11);
            int twos = ChannelFixture.wordsEqual(frame.payload(), 22);
            if (frame.length() != BYTES || (ones != BYTES / 8 && twos != BYTES / 8)) {
                torn++;
            }
        }

        @Actor
        public void producer(IIII_Result r) {
            r.r1 = (int) f.publishWords(11, BYTES);
        }

        @Actor
        public void producerThenConsumer(IIII_Result r) {
            r.r2 = (int) f.publishWords(22, BYTES);
            f.poll(8);
            r.r3 = torn;
            r.r4 = got;
        }
    }
}
