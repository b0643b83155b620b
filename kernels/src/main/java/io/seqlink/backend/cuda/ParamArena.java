package io.seqlink.backend.cuda;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import jcuda.Pointer;
import jcuda.driver.JCudaDriver;

/**
 * Pinned host memory carved into fixed-size kernel-parameter blocks ({@link ParamBlock}), one per
 * bound kernel. A block holds the kernel's {@code void* params[]} array and the parameter values it
 * points to, so a launch passes one JCuda {@link Pointer} whose native address is that array: the
 * driver copies the values during {@code cuLaunchKernel}, and JCuda only reads the pointer's address
 * (no per-parameter JNI work, which costs about 5 µs per launch with parameter objects).
 */
final class ParamArena implements AutoCloseable {

    /** Bytes of one parameter block. */
    static final int BLOCK_BYTES = 1024;
    private static final int BLOCKS_PER_CHUNK = 64;

    private final int device;
    private final List<Pointer> chunks = new ArrayList<>();
    private final ArrayDeque<ParamBlock> free = new ArrayDeque<>();
    private boolean closed;

    ParamArena(int device) {
        this.device = device;
    }

    /** A zeroed block; the caller's context must be current. */
    synchronized ParamBlock take() {
        if (closed) {
            throw new IllegalStateException("the CUDA backend is closed");
        }
        if (free.isEmpty()) {
            grow();
        }
        ParamBlock b = free.pop();
        ByteBuffer view = b.view();
        for (int i = 0; i < BLOCK_BYTES; i += 8) {
            view.putLong(i, 0L);
        }
        return b;
    }

    synchronized void give(ParamBlock block) {
        if (!closed) {
            free.push(block);
        }
    }

    private void grow() {
        Pointer chunk = new Pointer();
        long bytes = (long) BLOCK_BYTES * BLOCKS_PER_CHUNK;
        Cu.check(JCudaDriver.cuMemAllocHost(chunk, bytes), "cuMemAllocHost", device, "kernel parameter blocks");
        chunks.add(chunk);
        ByteBuffer all = chunk.getByteBuffer(0, bytes).order(ByteOrder.nativeOrder());
        long base = NativePointers.address(chunk);
        for (int i = 0; i < BLOCKS_PER_CHUNK; i++) {
            ByteBuffer view = all.slice(i * BLOCK_BYTES, BLOCK_BYTES).order(ByteOrder.nativeOrder());
            free.push(new ParamBlock(base + (long) i * BLOCK_BYTES, view));
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        free.clear();
        for (Pointer chunk : chunks) {
            JCudaDriver.cuMemFreeHost(chunk);
        }
        chunks.clear();
    }
}
