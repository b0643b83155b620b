package io.seqlink.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.seqlink.channel.ChannelState;
import io.seqlink.channel.ClaimStatus;
import io.seqlink.channel.Delivery;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameHandler;
import io.seqlink.channel.ReadMode;
import io.seqlink.topology.Transport;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIII_Result;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Claims given back: by their owner ({@code abandon()}) while another producer publishes, and on behalf
 * of a producer thread that died holding one, by whichever of two racing producers finds the window
 * stopped at it. Forbidden: a published range holding a frame that was never committed (the consumer
 * would get the claim's half-written words, or the padding itself); a sequence given back twice
 * ({@code claimsAbandoned} 2); the claim's producer-guard entry released twice (the guard would then read
 * as shut, and the next claim would return CLOSED) or never (the channel could not close).
 *
 * <p>Results (the first two tests): r1, r2 = the actors' sequences; r3 = frames the consumer got that are not a committed
 * frame (wrong words or length, or the padding); r4 = frames it got; r5 = claims given back; r6 = the
 * sequence of one more claim made after both actors (a status if the guard was broken).
 */
public final class ClaimGivenBackTest {

    static final int BYTES = 64;

    private ClaimGivenBackTest() {
    }

    /** Counts the frames the consumer gets, and those that are not a whole frame of the producers' words. */
    abstract static class Counting implements FrameHandler {
        int bad;
        int got;

        @Override
        public void onFrame(Frame frame) {
            got++;
            ByteBuffer p = frame.payload();
            if (frame.length() != BYTES || (ChannelFixture.wordsEqual(p, 22) != BYTES / 8 && ChannelFixture.wordsEqual(p, 33) != BYTES / 8)) {
                bad++;
            }
        }

        /** Publishes a frame of {@code word}s, trying again while back-pressured (frames of the other actor in flight). */
        static long publish(ChannelFixture f, long word) {
            long seq;
            while ((seq = f.publishWords(word, BYTES)) == ClaimStatus.BACK_PRESSURED) {
                Thread.onSpinWait();
            }
            return seq;
        }

        void finish(ChannelFixture f, IIIIII_Result r) {
            long published = f.channel.snapshot().published();
            for (int polls = 0; polls < 16 && f.port.acknowledged() < published; polls++) {
                f.poll(8); // a poll takes one step of a round: the consume step, then its delivery
            }
            r.r3 = bad;
            r.r4 = got;
            r.r5 = (int) f.channel.snapshot().claimsAbandoned();
            long next = f.channel.tryClaim();
            r.r6 = (int) next;
            if (next > 0) {
                f.channel.commit(0);
            }
        }
    }

    @JCStressTest
    @Description("A claim given back by its owner while another producer publishes: padding, never a frame, once")
    @Outcome(id = {"1, 2, 0, 1, 1, 3", "2, 1, 0, 1, 1, 3"}, expect = ACCEPTABLE,
            desc = "The consumer got the committed frame only; the claim was given back once; the guard is whole")
    @Outcome(expect = FORBIDDEN, desc = "An uncommitted frame or the padding delivered, a claim given back twice, or the guard broken")
    @State
    public static class AbandonRacesPublish extends Counting {
        final ChannelFixture f = new ChannelFixture(Delivery.LOSSLESS, ReadMode.COPY, Transport.PEER_ATOMIC, 8, BYTES, 4, this);

        @Actor
        public void abandoner(IIIIII_Result r) {
            long seq = f.channel.tryClaim();
            r.r1 = (int) seq;
            if (seq > 0) {
                ByteBuffer b = f.channel.buffer();
                for (int i = 0; i < BYTES; i += 8) {
                    b.putLong(i, 11); // words that must never reach the consumer
                }
                f.channel.abandon();
            }
        }

        @Actor
        public void publisherThenConsumer(IIIIII_Result r) {
            r.r2 = (int) publish(f, 22);
            f.poll(8);
        }

        @Arbiter
        public void arbiter(IIIIII_Result r) {
            finish(f, r);
        }
    }

    /**
     * A thread claimed sequence 1, wrote part of it and died before the actors start; both actors then
     * publish a frame through a window of two (the second finds it full and helps), so either may be the
     * one whose publish finds the dead claim and gives it back.
     */
    @JCStressTest
    @Description("A dead producer's claim, given back by one of two racing producers: once, its guard entry once")
    @Outcome(id = {"2, 3, 0, 2, 1, 4", "3, 2, 0, 2, 1, 4"}, expect = ACCEPTABLE,
            desc = "Both frames delivered whole, the dead claim given back once, the guard whole")
    @Outcome(expect = FORBIDDEN, desc = "The dead claim delivered or given back twice, a frame lost, or the guard broken")
    @State
    public static class DeadOwnerRescueRacesProducer extends Counting {
        final ChannelFixture f = new ChannelFixture(Delivery.LOSSLESS, ReadMode.COPY, Transport.PEER_ATOMIC, 8, BYTES, 2, this);

        public DeadOwnerRescueRacesProducer() {
            claimAndDie(f);
        }

        @Actor
        public void first(IIIIII_Result r) {
            r.r1 = (int) publish(f, 22);
        }

        @Actor
        public void second(IIIIII_Result r) {
            r.r2 = (int) publish(f, 33);
        }

        @Arbiter
        public void arbiter(IIIIII_Result r) {
            finish(f, r);
        }
    }

    /** A thread that claims a frame of {@code f}'s channel, writes part of it and dies; returns once it is dead. */
    static void claimAndDie(ChannelFixture f) {
        Thread doomed = new Thread(() -> {
            if (f.channel.tryClaim() > 0) {
                f.channel.buffer().putLong(0, 11);
            }
        }, "doomed-producer");
        doomed.start();
        try {
            doomed.join();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A thread claimed sequence 1 and died; a producer publishes a frame while the channel is closed. Both
     * the producer's publish and the drain (which gives back dead claims, since no producer may follow it)
     * may find the dead claim: exactly one gives it back and releases its guard entry. A second release
     * would free the channel's memory while the producer is still inside its call (the emulated device
     * fails on the touch, and the channel with it); none would keep the memory for good. r1 = the
     * producer's claim (2, or CLOSED when the drain came first); r2 = claims given back; r3 = 1 when the
     * channel ended CLOSED (not FAILED); r4 = 1 when no allocation is left once both are done.
     */
    @JCStressTest
    @Description("A dead producer's claim, given back by the close racing a producer: once, its guard entry once")
    @Outcome(id = {"2, 1, 1, 1", "-2, 1, 1, 1"}, expect = ACCEPTABLE,
            desc = "Given back once, the channel closed cleanly and freed everything")
    @Outcome(expect = FORBIDDEN, desc = "Given back twice or never, the memory freed under the producer, or kept")
    @State
    public static class DeadOwnerRescueRacesClose {
        final ChannelFixture f = new ChannelFixture(Delivery.LOSSLESS, ReadMode.COPY, Transport.PEER_ATOMIC, 8, BYTES, 4,
                frame -> { });

        public DeadOwnerRescueRacesClose() {
            claimAndDie(f);
        }

        @Actor
        public void producer(IIII_Result r) {
            long seq = f.channel.tryClaim();
            r.r1 = (int) seq;
            if (seq > 0) {
                ByteBuffer b = f.channel.buffer();
                b.putLong(0, 22);
                try {
                    f.channel.commit(8);
                    f.channel.publish();
                } catch (IllegalStateException closedMeanwhile) {
                    // the close shut the producers while this claim was written: the commit drops it
                }
            }
        }

        @Actor
        public void closer() {
            f.channel.drainAndClose(Duration.ZERO);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r2 = (int) f.channel.snapshot().claimsAbandoned();
            r.r3 = f.channel.state() == ChannelState.CLOSED ? 1 : 0;
            r.r4 = f.backend.liveAllocations() == 0 ? 1 : 0;
        }
    }
}
