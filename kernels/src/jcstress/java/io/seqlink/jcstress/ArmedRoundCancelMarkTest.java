package io.seqlink.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.seqlink.channel.ConsumerSnapshot;
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
 * The cancel word: a round armed for frame 1 (the fixture polls once before anything is published) is cancelled by
 * one actor (a pause: {@code ArmedRound.cancel} marks the round in the mirror's {@code ARM_CANCEL}, then raises its
 * doorbell; then the actor says so in a volatile) while the other actor reads that volatile, publishes frame 1 and
 * runs the consumer's stream itself (an inline stream: the armed consume step runs on that thread right after the
 * publish, racing the cancel). A publish that began after {@code cancel()} returned must never be taken by the
 * cancelled round: its consume step reads the mark after its acquire read of that publish. A frame published before
 * may go either way. The arbiter resumes and polls until the frame came. r1 = the producer saw the cancel done before
 * it published, r2 = the armed round took the frame (it did not land empty), r3 = deliveries, r4 = acknowledged.
 */
@JCStressTest
@Description("A cancelled armed round never takes a frame whose publish began after the cancel returned")
@Outcome(id = {"0, 0, 1, 1", "0, 1, 1, 1"}, expect = ACCEPTABLE, desc = "Published before the cancel returned: either round may take it, once")
@Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE, desc = "Published after the cancel returned: an ordinary round took it, once")
@Outcome(id = "1, 1, 1, 1", expect = FORBIDDEN, desc = "The cancelled round took a frame published after the cancel returned")
@Outcome(expect = FORBIDDEN, desc = "Lost, delivered twice, or not acknowledged")
@State
public class ArmedRoundCancelMarkTest implements FrameHandler {

    static final long DATA = 0x5EED_F00D_CAFE_0021L;
    static final int BYTES = 64;

    final ChannelFixture f = new ChannelFixture(Delivery.LOSSLESS, ReadMode.COPY, Transport.PEER_ATOMIC, 4, BYTES, this);
    volatile boolean cancelReturned;
    boolean publishedAfterCancel;
    int deliveries;

    public ArmedRoundCancelMarkTest() {
        f.poll(8); // nothing published: arms frame 1
    }

    @Override
    public void onFrame(Frame frame) {
        deliveries++;
    }

    @Actor
    public void canceller() {
        f.port.pause(); // cancels the armed round
        cancelReturned = true;
    }

    /** Two actors at most (CI has two CPUs): the publish and the consumer's stream on one, the cancel on the other. */
    @Actor
    public void producerThenStream() {
        publishedAfterCancel = cancelReturned;
        f.publishWords(DATA, BYTES);
        f.port.stream().completed(); // runs the armed round's steps here, if its wait passed
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        f.port.resume();
        for (int i = 0; i < 1_000 && deliveries == 0; i++) {
            f.poll(8);
        }
        ConsumerSnapshot c = f.port.snapshot();
        r.r1 = publishedAfterCancel ? 1 : 0;
        r.r2 = c.armedReleased() + c.armedEarlyWakes() == 0 ? 1 : 0;
        r.r3 = deliveries;
        r.r4 = (int) f.port.acknowledged();
    }
}
