package io.seqlink.backend.cuda;

import io.seqlink.backend.ConsumeBinding;
import io.seqlink.backend.ConsumeKernel;
import io.seqlink.backend.Memory;
import io.seqlink.layout.ConsumerBlock;
import io.seqlink.layout.ControlBlock;
import io.seqlink.layout.RingGeometry;
import jcuda.Pointer;
import jcuda.driver.JCudaDriver;

/**
 * The consume step on the consumer's stream ({@code seqlink_consume}). Fixed arguments live in the
 * binding's parameter block; a round rewrites {@code from}, {@code to}, {@code round} and {@code armed} only.
 *
 * <p>Copy mode sizes the grid from the round's bytes: one block up to 32 KiB (the usual case: one
 * cross-device acquire read per round), above that a block per 8 KiB up to two per multiprocessor
 * ({@link KernelArgs#CONSUME_BYTES_PER_BLOCK} says why); direct mode copies nothing and runs one block.
 */
final class CudaConsumeKernel implements ConsumeKernel {

    private final CudaStream stream;
    private final KernelLaunch launch;
    private final boolean copyMode;
    private final long stride;
    private final int maxBlocks;

    CudaConsumeKernel(CudaStream stream, ConsumeBinding b) {
        this.stream = stream;
        CudaBackend backend = stream.backend();
        RingGeometry g = b.geometry();
        this.copyMode = b.copyMode();
        this.stride = g.stride();
        this.maxBlocks = 2 * stream.context().multiprocessors();
        long control = backend.own(b.control(), "control").at(0, ControlBlock.BYTES, "control");
        long ring = backend.own(b.ring(), "ring").at(0, g.ringBytes(), "ring");
        Memory local = b.localRing(); // set exactly when copyMode
        long localRing = local != null ? backend.own(local, "localRing").at(0, g.ringBytes(), "localRing") : 0;
        long block = backend.own(b.block(), "block").at(0, ConsumerBlock.BYTES, "block");
        long mirror = backend.own(b.mirror(), "mirror").at(0, ConsumerBlock.BYTES, "mirror");
        CudaDeviceBuffer scratch = (CudaDeviceBuffer) stream.cudaDevice().allocate(KernelArgs.SCRATCH_BYTES);
        try {
            // min_sequence starts (and is reset to) all ones: atomicMin's identity (the step's clip, acknowledge_at_end)
            stream.context().bind();
            Cu.check(JCudaDriver.cuMemcpyHtoD(NativePointers.devicePointer(scratch.address() + KernelArgs.SCRATCH_MIN_SEQUENCE),
                    Pointer.to(new long[] {-1L}), 8), "cuMemcpyHtoD", stream.context().ordinal(), "consume scratch");
            this.launch = new KernelLaunch(stream.context(), "seqlink_consume", KernelArgs.CONSUME_BYTES, 8, 8, 8, 8);
        } catch (RuntimeException ex) {
            scratch.close();
            throw ex;
        }
        ParamBlock p = launch.params;
        p.putStructWord(0, KernelArgs.CONSUME_CONTROL, control);
        p.putStructWord(0, KernelArgs.CONSUME_RING, ring);
        p.putStructWord(0, KernelArgs.CONSUME_LOCAL_RING, localRing);
        p.putStructWord(0, KernelArgs.CONSUME_BLOCK, block);
        p.putStructWord(0, KernelArgs.CONSUME_MIRROR, mirror);
        p.putStructWord(0, KernelArgs.CONSUME_SCRATCH, scratch.address());
        p.putStructWord(0, KernelArgs.CONSUME_SLOTS, g.slots());
        p.putStructWord(0, KernelArgs.CONSUME_STRIDE, g.stride());
        p.putStructWord(0, KernelArgs.CONSUME_SLOT_BYTES, g.slotBytes());
        p.putStructWord(0, KernelArgs.CONSUME_MAX_BATCH, b.maxBatch());
        p.putStructWord(0, KernelArgs.CONSUME_LAPPING, b.lapping() ? 1 : 0);
        stream.onClose(() -> {
            launch.release();
            scratch.close();
        });
    }

    CudaStream stream() {
        return stream;
    }

    /** Copies this consumer's handles ({@code ConsumeArgs}) into parameter {@code index} of a user kernel's block. */
    synchronized void copyHandles(ParamBlock dst, int index) {
        dst.view().put(dst.valueOffset(index), launch.params.view(), launch.params.valueOffset(0), KernelArgs.CONSUME_BYTES);
    }

    @Override
    public void enqueue(long from, long to, long round) {
        launch(from, to, round, 0);
    }

    @Override
    public void enqueueArmed(long from, long to, long round) {
        launch(from, to, round, 1);
    }

    private synchronized void launch(long from, long to, long round, long armed) {
        if (from < 1) {
            throw new IllegalArgumentException("from must be 1 or more (sequences start at 1), was " + from);
        }
        stream.checkOpen();
        ParamBlock p = launch.params;
        p.putLong(1, from);
        p.putLong(2, to);
        p.putLong(3, round);
        p.putLong(4, armed);
        int blocks = 1;
        if (copyMode && to >= from) {
            long bytes = (to - from + 1) * stride;
            if (bytes > KernelArgs.BYTES_PER_BLOCK) {
                blocks = (int) Math.min(maxBlocks,
                        (bytes + KernelArgs.CONSUME_BYTES_PER_BLOCK - 1) / KernelArgs.CONSUME_BYTES_PER_BLOCK);
            }
        }
        launch.launch(stream.handle(), blocks, KernelArgs.BLOCK_THREADS);
    }
}
