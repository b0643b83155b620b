package io.seqlink.backend.cuda;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A stream recording a wait against a call that waits for queued work ({@link HostWaitRelease}): the consumer's
 * poller arms a round (records the wait on its word, then says so) while a producer thread loads a module (a call run
 * {@code around} the streams' waits). If the call, once running, sees that the wait was recorded, the wait must already
 * be released: on a GPU the call would otherwise wait for it for ever. r1 = 1 when the call saw the wait recorded;
 * r2 = the wait's word as the call read it after that (1: raised, released).
 */
@JCStressTest
@Description("A wait recorded while a call that waits for queued work runs is released")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The call ran before the wait was recorded (it did not wait for it)")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The wait was recorded and released while the call ran; the call read first")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The call saw the wait recorded, and released")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "The call saw the wait recorded and not released: it would wait for ever")
@Outcome(expect = FORBIDDEN, desc = "Not a result of this test")
@State
public class HostWaitReleaseRaceTest {

    private final HostWaitRelease release = new HostWaitRelease();
    private final HostWaitRelease.Pending stream = release.pending();
    private final AtomicLong word = new AtomicLong();
    private final HostWaitRelease.Word hostWord = (offset, value) -> word.getAndAccumulate(value, Math::max);
    private volatile int recorded;

    @Actor
    public void consumerArms() {
        stream.record(hostWord, 0, 1);
        recorded = 1;
    }

    @Actor
    public void producerLoadsAModule(II_Result r) {
        release.around(List.of(stream), () -> {
            r.r1 = recorded;
            r.r2 = (int) word.get();
            return null;
        });
    }
}
