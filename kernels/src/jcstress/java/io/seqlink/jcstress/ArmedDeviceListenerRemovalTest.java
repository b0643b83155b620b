package io.seqlink.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.seqlink.backend.KernelCall;
import io.seqlink.backend.KernelImage;
import io.seqlink.backend.KernelInvocation;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.KernelParam;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.backend.Memory;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.topology.Transport;
import java.nio.ByteBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A device listener that takes armed rounds, removed while its round for frame 1 is armed (its kernel is enqueued
 * behind the wait before the frame exists). One actor removes it and then raises a flag; the other publishes frame 1
 * only if it saw the flag (so that publish began after {@code unsubscribe()} returned), and otherwise leaves the
 * publish to the arbiter. A frame published after the removal returned must never be taken by the removed listener's
 * kernel: the removal released the armed round, and its consume step, reading the round's cancel word after its
 * acquire of {@code publish_seq}, takes nothing. The arbiter then subscribes a second listener, publishes frame 1 if
 * nobody did, and polls until it is acknowledged: it is taken exactly once over both listeners. r1 = whether the
 * publish came after the removal, r2 = frames the removed listener's kernel took, r3 = frames taken over both,
 * r4 = the acknowledged position at the end. Every publish here begins after the removal returned (the arbiter runs after
 * both actors), so the removed listener's kernel may never take the frame.
 */
@JCStressTest
@Description("An armed device listener removed while its frame is published: a frame published after the removal returned "
        + "never reaches its kernel")
@Outcome(id = {"1, 0, 1, 1", "0, 0, 1, 1"}, expect = ACCEPTABLE,
        desc = "Published after the removal returned (by the actor that saw it, or by the arbiter): taken once, by the second listener")
@Outcome(expect = FORBIDDEN, desc = "The removed listener took a frame published after its removal, or the frame was lost or duplicated")
@State
public class ArmedDeviceListenerRemovalTest {

    static final long DATA = 0x5EED_F00D_CAFE_0E15L;
    static final int BYTES = 64;
    static final KernelModule MODULE = KernelModule.builder("jcstress-removal", KernelImage.ofResource("no/such/image.fatbin"))
            .emulated("take", ArmedDeviceListenerRemovalTest::take).build();

    final Listener first = new Listener();
    final Listener second = new Listener();
    final ChannelFixture f;
    volatile boolean removed;
    boolean publishedAfterRemoval;

    public ArmedDeviceListenerRemovalTest() {
        f = new ChannelFixture(Transport.PEER_ATOMIC, 4, BYTES, first);
        f.poll(8); // nothing published: arms frame 1, the first listener's kernel and ack enqueued behind the wait
    }

    /** A device listener whose kernel counts, in host memory, the frames its round's consume step took. */
    static final class Listener implements DeviceFrameHandler {
        private KernelCall kernel;
        private MappedBuffer results;

        @Override
        public boolean acceptsArmedRounds() {
            return true;
        }

        @Override
        public void onFrames(DeviceFrames frames) {
            if (kernel == null) {
                results = frames.stream().device().allocateMapped(Memory.ALIGNMENT);
                kernel = frames.stream().bindKernel(MODULE, "take", KernelParam.POINTER, KernelParam.U64, KernelParam.POINTER)
                        .pointer(2, results, 0);
            }
            for (long s = frames.first(); s <= frames.last(); s++) {
                kernel.pointer(0, frames.descriptor(), 0).u64(1, s).launch(1, 1);
            }
        }

        int taken() {
            return results == null ? 0 : (int) results.getAcquire(0);
        }
    }

    /** The listener's kernel: counts frame s when the round's descriptor says the consume step took it (stream order). */
    private static void take(KernelInvocation call) {
        ByteBuffer descriptor = call.memory(0);
        if (descriptor.getLong(call.offset(0) + ConsumerBlock.READY_TO) >= call.u64(1)) {
            ByteBuffer out = call.memory(2);
            out.putLong(call.offset(2), out.getLong(call.offset(2)) + 1);
        }
    }

    @Actor
    public void remover() {
        f.port.unsubscribe();
        removed = true;
    }

    @Actor
    public void producerThenConsumer() {
        if (removed) {
            f.publishWords(DATA, BYTES);
            publishedAfterRemoval = true;
        }
        f.pollRacingRemoval(8);
        f.port.stream().completed(); // lets a released round run to its end on the inline stream
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        f.port.stream().completed();
        r.r1 = publishedAfterRemoval ? 1 : 0;
        r.r2 = first.taken();
        f.port.subscribeDevice(second);
        if (!publishedAfterRemoval) {
            f.publishWords(DATA, BYTES);
        }
        for (int i = 0; i < 1_000 && f.port.acknowledged() < 1; i++) {
            f.poll(8);
        }
        r.r3 = first.taken() + second.taken();
        r.r4 = (int) f.port.acknowledged();
    }
}
