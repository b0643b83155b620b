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
 * A listener's removal racing its port's rounds: the port has caught up and armed frame 1 for listener A (the fixture
 * polls once), then one actor publishes frame 1 and polls while the other removes A. The actor publishes at once when
 * it already sees the removal returned (so that frame must never reach A), otherwise it publishes concurrently with the
 * removal (A may take it: a call that began before the removal returned). Whatever the interleaving, no round armed for
 * A survives the removal (the arbiter finds the consumer's stream free), and frame 1 is delivered exactly once: to A
 * or, later, to B, which the arbiter subscribes and polls. r1 = deliveries to A of a frame published after the removal
 * returned, r2 = whether the stream held an armed wait once both actors were done (1 = it did), r3 = deliveries of
 * frame 1 over both listeners, r4 = the acknowledged position at the end.
 */
@JCStressTest
@Description("unsubscribe() racing an armed round and a publish: a frame published after it returned never reaches the removed listener, "
        + "nothing stays armed, the frame is delivered once")
@Outcome(id = "0, 0, 1, 1", expect = ACCEPTABLE, desc = "Frame 1 delivered once, to A before its removal returned or to B")
@Outcome(expect = FORBIDDEN, desc = "A frame published after the removal returned reached A, a round armed for A outlived it, or frame 1 lost or duplicated")
@State
public class ListenerRemovalTest {

    static final int BYTES = 64;

    final ChannelFixture f;
    final FrameHandler a;
    final FrameHandler b;
    volatile boolean removed;
    boolean publishedAfterRemoval;
    int deliveriesToA;
    int deliveries;

    public ListenerRemovalTest() {
        a = (Frame frame) -> {
            deliveriesToA++;
            deliveries++;
        };
        b = (Frame frame) -> deliveries++;
        f = new ChannelFixture(Delivery.LOSSLESS, ReadMode.COPY, Transport.PEER_ATOMIC, 4, BYTES, a);
        f.poll(8); // nothing published: arms frame 1 for A
    }

    @Actor
    public void producerThenConsumer() {
        publishedAfterRemoval = removed;
        f.publishWords(1, BYTES);
        f.pollRacingRemoval(8);
        f.pollRacingRemoval(8);
    }

    @Actor
    public void remover() {
        f.port.unsubscribe();
        removed = true;
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = publishedAfterRemoval ? deliveriesToA : 0;
        r.r2 = f.port.stream().completed() ? 0 : 1;
        f.port.subscribe(b);
        for (int i = 0; i < 1_000 && f.port.acknowledged() < 1; i++) {
            f.poll(8);
        }
        r.r3 = deliveries;
        r.r4 = (int) f.port.acknowledged();
    }
}
