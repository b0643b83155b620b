package io.seqlink.sample.pipeline;

import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.KernelCall;
import io.seqlink.backend.KernelInvocation;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.KernelParam;
import io.seqlink.backend.Memory;
import java.nio.ByteBuffer;

/**
 * The sample's model as user kernels on one stream: u8 -> float32 normalisation and a float32
 * matrix-vector product, rounded step by step so the CUDA kernels, their Java twins and the host reference
 * ({@link ReferenceModel}) agree bit for bit. The device code is the sample's {@code src/main/cuda/model_kernels.cuh};
 * {@code sample_kernels.cu} compiles its two entry points into the sample's fat binary:
 *
 * <pre>{@code
 * extern "C" __global__ void model_normalize(uint64_t src, uint64_t dst, uint32_t count, float mean, float std_dev);
 * extern "C" __global__ void model_matvec(uint64_t weights, uint64_t x, uint64_t y, uint32_t rows, uint32_t cols);
 * }</pre>
 *
 * <p>Thread-safe: each method sets its call's arguments and launches under the instance's lock.
 */
final class ModelKernels {

    /** {@code model_normalize(uint64_t src, uint64_t dst, uint32_t count, float mean, float std_dev)}. */
    static final String NORMALIZE = "model_normalize";
    /** {@code model_matvec(uint64_t weights, uint64_t x, uint64_t y, uint32_t rows, uint32_t cols)}. */
    static final String MATVEC = "model_matvec";

    private final KernelCall normalize;
    private final KernelCall matvec;
    private final int maxBlocks;

    private ModelKernels(DeviceStream stream, KernelModule module) {
        this.normalize = stream.bindKernel(module, NORMALIZE, KernelParam.POINTER, KernelParam.POINTER, KernelParam.U32,
                KernelParam.F32, KernelParam.F32);
        this.matvec = stream.bindKernel(module, MATVEC, KernelParam.POINTER, KernelParam.POINTER, KernelParam.POINTER,
                KernelParam.U32, KernelParam.U32);
        this.maxBlocks = 4 * stream.device().multiprocessors();
    }

    /** The model kernels of {@code module} on {@code stream}. */
    static ModelKernels on(DeviceStream stream, KernelModule module) {
        return new ModelKernels(stream, module);
    }

    /** Adds the Java twins of {@link #NORMALIZE} and {@link #MATVEC} to a module under construction. */
    static KernelModule.Builder withTwins(KernelModule.Builder module) {
        return module.emulated(NORMALIZE, ModelKernels::normalizeTwin).emulated(MATVEC, ModelKernels::matvecTwin);
    }

    /** Enqueues {@code dst[i] = (src[i] / 255 - mean) / std} for {@code count} unsigned 8-bit pixels, in float32. */
    synchronized void normalize(Memory src, long srcOffset, Memory dst, long dstOffset, int count, float mean, float std) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative, was " + count);
        }
        if (count == 0) {
            return;
        }
        normalize.pointer(0, src, srcOffset).pointer(1, dst, dstOffset).u32(2, count).f32(3, mean).f32(4, std)
                .launch(blocks(count, 1024), 256);
    }

    /** Enqueues {@code y = W x} for a row-major {@code rows x cols} float32 matrix. */
    synchronized void matvec(Memory weights, long weightsOffset, Memory x, long xOffset, Memory y, long yOffset,
            int rows, int cols) {
        if (rows < 0 || cols < 0) {
            throw new IllegalArgumentException("rows and cols must not be negative, were " + rows + " x " + cols);
        }
        if (rows == 0) {
            return;
        }
        matvec.pointer(0, weights, weightsOffset).pointer(1, x, xOffset).pointer(2, y, yOffset).u32(3, rows).u32(4, cols)
                .launch(blocks(rows, 128), 128);
    }

    private int blocks(long units, long perBlock) {
        return (int) Math.max(1, Math.min(maxBlocks, (units + perBlock - 1) / perBlock));
    }

    // The twins round every step as the kernels do (Java never fuses a multiply-add).

    private static void normalizeTwin(KernelInvocation call) {
        ByteBuffer src = call.memory(0);
        ByteBuffer dst = call.memory(1);
        int s = call.offset(0);
        int d = call.offset(1);
        int count = call.u32(2);
        float mean = call.f32(3);
        float std = call.f32(4);
        for (int i = 0; i < count; i++) {
            dst.putFloat(d + 4 * i, ReferenceModel.normalize(src.get(s + i), mean, std));
        }
    }

    private static void matvecTwin(KernelInvocation call) {
        ByteBuffer w = call.memory(0);
        ByteBuffer x = call.memory(1);
        ByteBuffer y = call.memory(2);
        int wi = call.offset(0);
        int xi = call.offset(1);
        int yi = call.offset(2);
        int rows = call.u32(3);
        int cols = call.u32(4);
        for (int r = 0; r < rows; r++) {
            float acc = 0f;
            int row = wi + 4 * r * cols;
            for (int k = 0; k < cols; k++) {
                acc += w.getFloat(row + 4 * k) * x.getFloat(xi + 4 * k);
            }
            y.putFloat(yi + 4 * r, acc);
        }
    }
}
