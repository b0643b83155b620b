package io.seqlink.bench;

import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.Memory;
import io.seqlink.backend.PatternKernels;

/**
 * A module's pattern kernels ({@link PatternKernels}) and sample-like model kernels ({@link ModelKernels})
 * bound to one stream: the device work of the benchmarks (the tools' module) and of the sample (its own).
 * Thread-safe like its parts.
 */
public final class ModelWork {

    private final PatternKernels pattern;
    private final ModelKernels model;

    /** Binds the four kernels of {@code module} to {@code stream}. */
    public ModelWork(DeviceStream stream, KernelModule module) {
        this.pattern = PatternKernels.on(stream, module);
        this.model = ModelKernels.on(stream, module);
    }

    public void fillPattern(Memory dst, long offset, long length, long seed) {
        pattern.fill(dst, offset, length, seed);
    }

    public void checksum(Memory src, long offset, long length, Memory out, long outOffset) {
        pattern.checksum(src, offset, length, out, outOffset);
    }

    public void normalize(Memory src, long srcOffset, Memory dst, long dstOffset, int count, float mean, float std) {
        model.normalize(src, srcOffset, dst, dstOffset, count, mean, std);
    }

    public void matvec(Memory weights, long weightsOffset, Memory x, long xOffset, Memory y, long yOffset, int rows, int cols) {
        model.matvec(weights, weightsOffset, x, xOffset, y, yOffset, rows, cols);
    }
}
