package io.seqlink.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.seqlink.channel.ConsumerSnapshot;
import io.seqlink.channel.ConsumerState;
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
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A consumer dies of a device failure (its next launch fails, injected) while another thread takes its
 * snapshot: the snapshot sees it alive, or dead with the failure that killed it, never dead without one (a
 * health check or an operator would be told "dead" with no reason). r1 = 1 when the snapshot says DEAD,
 * r2 = 1 when it carries a failure.
 */
@JCStressTest
@Description("A consumer seen dead is seen with the failure that killed it")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "Seen before its death")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Seen dead, with its failure")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "Seen dead without its failure")
@Outcome(expect = FORBIDDEN, desc = "A failure on a consumer that is not dead")
@State
public class ConsumerDeathSnapshotTest implements FrameHandler {

    final ChannelFixture f = new ChannelFixture(Delivery.LOSSLESS, ReadMode.COPY, Transport.PEER_ATOMIC, 4, 64, this);

    public ConsumerDeathSnapshotTest() {
        f.publishWords(7, 64);
        f.faults.failNextLaunches(ChannelFixture.CONSUMER, 1);
    }

    @Override
    public void onFrame(Frame frame) {
    }

    @Actor
    public void poller() {
        try {
            f.poll(8); // the consume step's launch fails: the consumer dies of it
        } catch (RuntimeException expected) {
            // a poll may report the death it caused; the snapshot is what is checked
        }
    }

    @Actor
    public void observer(II_Result r) {
        ConsumerSnapshot s = f.port.snapshot();
        r.r1 = s.state() == ConsumerState.DEAD ? 1 : 0;
        r.r2 = s.failure() != null ? 1 : 0;
    }
}
