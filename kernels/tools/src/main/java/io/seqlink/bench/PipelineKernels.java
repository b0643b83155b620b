package io.seqlink.bench;

import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.KernelCall;
import io.seqlink.backend.KernelInvocation;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.KernelParam;
import io.seqlink.backend.Memory;
import java.nio.ByteBuffer;

/**
 * The pipeline benchmark's workload as user kernels on one stream ({@code pipeline_kernels.cuh}, compiled into
 * the tools' fat binary by {@code work_kernels.cu}): a producer step the shape of the sample's normalisation and
 * a consumer step the shape of its inference, in wrapping integer arithmetic, so the Java twins (here, also the
 * host reference {@link PipelineBench} checks results with) equal the kernels bit for bit.
 *
 * <pre>{@code
 * extern "C" __global__ void pipeline_expand(uint64_t src, uint64_t dst, uint32_t count);
 *     // dst[i] = (src[i] + 1) * 0x9E3779B1 (mod 2^32): u8 pixels to 32-bit words
 * extern "C" __global__ void pipeline_infer(uint64_t weights, uint64_t x, uint64_t y, uint32_t rows, uint32_t cols);
 *     // y[r] = sum_k w[r * cols + k] * x[k] (u32 x u32, summed mod 2^64): one thread per row
 * }</pre>
 *
 * <p>Thread-safe: each launching method sets its call's arguments and launches under the instance's lock; the
 * static arithmetic is safe from any thread.
 */
public final class PipelineKernels {

    /** {@code pipeline_expand(uint64_t src, uint64_t dst, uint32_t count)}. */
    public static final String EXPAND = "pipeline_expand";
    /** {@code pipeline_infer(uint64_t weights, uint64_t x, uint64_t y, uint32_t rows, uint32_t cols)}. */
    public static final String INFER = "pipeline_infer";
    /** {@code seqlink::bench::EXPAND_MULTIPLIER}. */
    static final int EXPAND_MULTIPLIER = 0x9E3779B1;

    private final KernelCall expand;
    private final KernelCall infer;
    private final int maxBlocks;

    private PipelineKernels(DeviceStream stream, KernelModule module) {
        this.expand = stream.bindKernel(module, EXPAND, KernelParam.POINTER, KernelParam.POINTER, KernelParam.U32);
        this.infer = stream.bindKernel(module, INFER, KernelParam.POINTER, KernelParam.POINTER, KernelParam.POINTER,
                KernelParam.U32, KernelParam.U32);
        this.maxBlocks = 4 * stream.device().multiprocessors();
    }

    /** The pipeline kernels of {@code module} on {@code stream}. */
    public static PipelineKernels on(DeviceStream stream, KernelModule module) {
        return new PipelineKernels(stream, module);
    }

    /** Adds the Java twins of {@link #EXPAND} and {@link #INFER} to a module under construction. */
    public static KernelModule.Builder withTwins(KernelModule.Builder module) {
        return module.emulated(EXPAND, PipelineKernels::expandTwin).emulated(INFER, PipelineKernels::inferTwin);
    }

    /** Enqueues the expansion of {@code count} 8-bit pixels at {@code src} into 32-bit words at {@code dst}. */
    public synchronized void expand(Memory src, long srcOffset, Memory dst, long dstOffset, int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative, was " + count);
        }
        if (count > 0) {
            expand.pointer(0, src, srcOffset).pointer(1, dst, dstOffset).u32(2, count).launch(blocks(count, 1024), 256);
        }
    }

    /** Enqueues {@code y = W x} for a row-major {@code rows x cols} matrix of 32-bit words into 64-bit sums. */
    public synchronized void infer(Memory weights, long weightsOffset, Memory x, long xOffset, Memory y, long yOffset, int rows,
            int cols) {
        if (rows < 0 || cols < 0) {
            throw new IllegalArgumentException("rows and cols must not be negative, were " + rows + " x " + cols);
        }
        if (rows > 0) {
            infer.pointer(0, weights, weightsOffset).pointer(1, x, xOffset).pointer(2, y, yOffset).u32(3, rows).u32(4, cols)
                    .launch(blocks(rows, 128), 128);
        }
    }

    private int blocks(long units, long perBlock) {
        return (int) Math.max(1, Math.min(maxBlocks, (units + perBlock - 1) / perBlock));
    }

    /** {@code pipeline_expand}'s arithmetic on little-endian buffers (absolute indices). */
    static void expand(ByteBuffer src, int srcIndex, ByteBuffer dst, int dstIndex, int count) {
        for (int i = 0; i < count; i++) {
            dst.putInt(dstIndex + 4 * i, ((src.get(srcIndex + i) & 0xFF) + 1) * EXPAND_MULTIPLIER);
        }
    }

    /** {@code pipeline_infer}'s arithmetic on little-endian buffers (absolute indices): unsigned words, wrapping sums. */
    static void infer(ByteBuffer w, int wIndex, ByteBuffer x, int xIndex, ByteBuffer y, int yIndex, int rows, int cols) {
        for (int r = 0; r < rows; r++) {
            long acc = 0;
            int row = wIndex + 4 * r * cols;
            for (int k = 0; k < cols; k++) {
                acc += Integer.toUnsignedLong(w.getInt(row + 4 * k)) * Integer.toUnsignedLong(x.getInt(xIndex + 4 * k));
            }
            y.putLong(yIndex + 8 * r, acc);
        }
    }

    private static void expandTwin(KernelInvocation call) {
        expand(call.memory(0), call.offset(0), call.memory(1), call.offset(1), call.u32(2));
    }

    private static void inferTwin(KernelInvocation call) {
        infer(call.memory(0), call.offset(0), call.memory(1), call.offset(1), call.memory(2), call.offset(2), call.u32(3), call.u32(4));
    }
}
