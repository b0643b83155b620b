package io.seqlink.testing;

import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.KernelCall;
import io.seqlink.backend.KernelImage;
import io.seqlink.backend.KernelInvocation;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.KernelParam;
import io.seqlink.backend.MappedBuffer;
import io.seqlink.channel.DeviceFrameHandler;
import io.seqlink.channel.DeviceFrames;
import io.seqlink.layout.SlotHeader;
import java.nio.ByteBuffer;

/**
 * A device listener whose one kernel per round ({@code test_abandoned} in {@code src/test/cuda/test_kernels.cu},
 * Java twin here) asks {@code seqlink::device::abandoned(c, s)} of every frame of the round, in the ring the
 * consumer reads, and writes the answer into host-mapped results: {@link #flag} 1 for padding, 2 for a frame,
 * 0 for a sequence no round held.
 */
public final class PaddingFlagsListener implements DeviceFrameHandler {

    public static final KernelModule MODULE = KernelModule.builder("seqlink-test-padding",
            KernelImage.ofResource("io/seqlink/kernels/test/seqlink-test.fatbin"))
            .emulated("test_abandoned", PaddingFlagsListener::flags).build();

    private final MappedBuffer results;
    private final KernelCall flags;

    /** Binds the kernel to {@code stream} (the consumer's) for sequences up to {@code frames}. */
    public PaddingFlagsListener(DeviceStream stream, int frames) {
        this.results = stream.device().allocateMapped(8L * (frames + 1));
        for (long at = 0; at < results.bytes(); at += 8) {
            results.setRelease(at, 0);
        }
        this.flags = stream.bindKernel(MODULE, "test_abandoned", KernelParam.CONSUME_HANDLES, KernelParam.U64, KernelParam.U64,
                KernelParam.POINTER).pointer(3, results, 0).handOver();
    }

    @Override
    public void onFrames(DeviceFrames frames) {
        flags.consumeHandles(0, frames.consumeHandles()).u64(1, frames.first()).u64(2, frames.last()).launch(1, 32);
    }

    /** The kernel's twin: {@code abandoned(c, s)} is a negative length word in the ring the consumer reads. */
    private static void flags(KernelInvocation call) {
        ByteBuffer ring = call.ring(0);
        ByteBuffer r = call.memory(3);
        int base = call.offset(3);
        for (long s = call.u64(1); s <= call.u64(2); s++) {
            boolean padding = ring.getLong(call.slotOffset(0, s) + SlotHeader.LENGTH) < 0;
            r.putLong(base + 8 * (int) s, padding ? 1 : 2);
        }
    }

    /** What the kernel said of {@code sequence}: 1 padding, 2 a frame, 0 not seen. */
    public long flag(long sequence) {
        return results.getAcquire(8 * sequence);
    }

    /** Frees the results buffer (after the channel closed). */
    public void close() {
        results.close();
    }
}
