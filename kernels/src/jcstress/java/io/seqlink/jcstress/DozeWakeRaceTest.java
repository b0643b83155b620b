package io.seqlink.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.seqlink.channel.Delivery;
import io.seqlink.channel.ReadMode;
import io.seqlink.channel.consumer.PortDriver;
import io.seqlink.channel.lifecycle.Channels;
import io.seqlink.topology.Transport;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A publish racing a device loop's decision to doze: the loop arms the channel's publish bell with its waker, then
 * looks at the port's backlog (what the launcher's loop does before it parks); the producer claims, commits and
 * publishes one frame, whose publish step rings the bell. r1 = the ring ran the waker (on the producer's thread),
 * r2 = the loop's look saw the frame. Neither would leave the frame unseen while the loop parks.
 */
@JCStressTest
@Description("publish vs. arm-then-look: the loop sees the frame or the publish wakes the loop")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "The loop looked first; the publish rang its armed bell")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The publish rang first; the loop's look saw the frame")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Both: the loop wakes once more than needed")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "Frame unseen: the loop would park with a frame waiting and no wake-up")
@State
public class DozeWakeRaceTest {

    final ChannelFixture f = new ChannelFixture(Delivery.LOSSLESS, ReadMode.COPY, Transport.PEER_ATOMIC, 4, 64, frame -> { });
    final PortDriver driver = Channels.driver(f.port);
    volatile int woken;
    final Runnable waker = () -> woken = 1;

    @Actor
    public void producer(II_Result r) {
        f.publishWords(0x5EED_F00DL, 64);
        r.r1 = woken; // the waker runs inside the publish, on this thread
    }

    @Actor
    public void loop(II_Result r) {
        driver.armWake(waker);
        r.r2 = f.port.backlog() > 0 ? 1 : 0;
    }
}
