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
 * Armed rounds of a device listener: frame 1's whole round is enqueued before anything is published
 * (wait on the doorbell, consume step, the listener's kernel, {@code seqlink_ack_ready}); then the producer
 * publishes frame 1 while another thread releases the round (pause, then resume) and polls. The listener's
 * kernel (a Java twin, run in the consumer's stream) takes the frame only when the round's descriptor says the
 * consume step took it; the ack acknowledges what the descriptor says. Whatever the interleaving, acked never
 * passes a frame no kernel took, and frame 1 is taken exactly once, intact. r1 = kernels that took frame 1 when
 * the actors are done, r2 = acked then, r3 = kernels that took it once the arbiter polled it in, r4 = acked
 * then (r1 and r3 are 100 more when a kernel found the frame torn).
 */
@JCStressTest
@Description("An armed device round released by a cancel while its frame is published: the ack covers only what was taken")
@Outcome(id = {"0, 0, 1, 1", "1, 1, 1, 1"}, expect = ACCEPTABLE, desc = "Frame 1 taken once, acknowledged after it was taken")
@Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE, desc = "Taken when the actors were done, its ack still queued behind")
@Outcome(expect = FORBIDDEN, desc = "Acknowledged without being taken, taken twice or torn, or lost")
@State
public class ArmedDeviceRoundCancelTest implements DeviceFrameHandler {

    static final long DATA = 0x5EED_F00D_CAFE_0D12L;
    static final int BYTES = 64;
    static final KernelModule MODULE = KernelModule.builder("jcstress", KernelImage.ofResource("no/such/image.fatbin"))
            .emulated("take", ArmedDeviceRoundCancelTest::take).build();

    final ChannelFixture f;
    private KernelCall kernel;
    /** Host memory the kernel writes: word 0 the times it took frame 1, word 1 the times it found it torn. */
    private MappedBuffer results;

    public ArmedDeviceRoundCancelTest() {
        f = new ChannelFixture(Transport.PEER_ATOMIC, 4, BYTES, this);
        f.poll(8); // nothing published: arms frame 1, its listener's kernel and ack enqueued behind the wait
    }

    @Override
    public boolean acceptsArmedRounds() {
        return true;
    }

    @Override
    public void onFrames(DeviceFrames frames) {
        if (kernel == null) {
            results = frames.stream().device().allocateMapped(Memory.ALIGNMENT);
            kernel = frames.stream().bindKernel(MODULE, "take", KernelParam.POINTER, KernelParam.POINTER, KernelParam.U64,
                    KernelParam.POINTER).pointer(3, results, 0);
        }
        for (long s = frames.first(); s <= frames.last(); s++) {
            kernel.pointer(0, frames.descriptor(), 0).pointer(1, frames.memory(), frames.payloadOffset(s)).u64(2, s).launch(1, 1);
        }
    }

    /** The listener's kernel: takes frame s only when the round's descriptor says the consume step took it. */
    private static void take(KernelInvocation call) {
        ByteBuffer descriptor = call.memory(0);
        long s = call.u64(2);
        if (descriptor.getLong(call.offset(0) + ConsumerBlock.READY_TO) < s) { // stream order after the consume step
            return;
        }
        ByteBuffer ring = call.memory(1);
        ByteBuffer out = call.memory(3);
        int at = call.offset(3);
        for (int i = 0; i < BYTES; i += 8) {
            if (ring.getLong(call.offset(1) + i) != DATA) {
                out.putLong(at + 8, out.getLong(at + 8) + 1);
                break;
            }
        }
        out.putLong(at, out.getLong(at) + 1);
    }

    private int taken() {
        return (int) results.getAcquire(0) + (results.getAcquire(8) > 0 ? 100 : 0);
    }

    @Actor
    public void producer() {
        f.publishWords(DATA, BYTES);
    }

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
        r.r1 = taken();
        r.r2 = (int) f.port.acknowledged();
        for (int i = 0; i < 1_000 && f.port.acknowledged() < 1; i++) {
            f.poll(8);
        }
        r.r3 = taken();
        r.r4 = (int) f.port.acknowledged();
    }
}
