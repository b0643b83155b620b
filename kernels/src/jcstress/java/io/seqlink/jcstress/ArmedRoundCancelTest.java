package io.seqlink.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.seqlink.channel.Delivery;
import io.seqlink.channel.Frame;
import io.seqlink.channel.FrameHandler;
import io.seqlink.channel.ReadMode;
import io.seqlink.topology.Transport;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Armed rounds: the consumer's round for frame 1 is armed before anything is published (the
 * fixture polls once), then the producer publishes frame 1 while another thread releases the armed round
 * (a pause, which cancels it, then a resume) and then polls. Whatever the interleaving, a
 * released round takes nothing (its consume step's acquire read finds nothing published) and frame 1 is
 * delivered exactly once, with its data: by the armed round, or by an ordinary round after a release.
 * The arbiter polls until the frame came. r1 = the sequence delivered, r2 = words of its payload that hold
 * {@link #DATA} (fewest over all deliveries), r3 = deliveries, r4 = the acknowledged position.
 */
@JCStressTest
@Description("A round armed on a doorbell, released by a cancel while the frame is published: delivered once, intact")
@Outcome(id = "1, 8, 1, 1", expect = ACCEPTABLE, desc = "Frame 1 delivered once with its data")
@Outcome(expect = FORBIDDEN, desc = "A frame read before it was published, delivered twice, lost, or a released round delivered")
@State
public class ArmedRoundCancelTest implements FrameHandler {

    static final long DATA = 0x5EED_F00D_CAFE_0012L;
    static final int BYTES = 64;

    final ChannelFixture f = new ChannelFixture(Delivery.LOSSLESS, ReadMode.COPY, Transport.PEER_ATOMIC, 4, BYTES, this);
    int seen;
    int words = Integer.MAX_VALUE;
    int deliveries;

    public ArmedRoundCancelTest() {
        f.poll(8); // nothing published: arms frame 1
    }

    @Override
    public void onFrame(Frame frame) {
        seen = (int) frame.sequence();
        words = Math.min(words, ChannelFixture.wordsEqual(frame.payload(), DATA));
        deliveries++;
    }

    @Actor
    public void producer() {
        f.publishWords(DATA, BYTES);
    }

    /** Two actors at most (CI has two CPUs): the release and a poll on one, the publish on the other. */
    @Actor
    public void releaserThenConsumer() {
        if (f.port.pause()) {
            f.port.resume();
        }
        f.poll(8);
        f.poll(8);
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        for (int i = 0; i < 1_000 && deliveries == 0; i++) {
            f.poll(8);
        }
        r.r1 = seen;
        r.r2 = deliveries == 0 ? 0 : words;
        r.r3 = deliveries;
        r.r4 = (int) f.port.acknowledged();
    }
}
