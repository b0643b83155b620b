package io.seqlink.sample.pipeline;

import io.seqlink.backend.DeviceStream;
import io.seqlink.backend.Memory;
import io.seqlink.backend.PatternKernels;

/**
 * The sample's device work bound to one stream: the frame pattern's fill and checksum ({@link PatternKernels},
 * the synthetic images and the end-to-end checksums) and the model ({@link ModelKernels}), all from the
 * sample's own fat binary ({@link SampleKernels}). Thread-safe like its parts.
 */
final class SampleWork {

    private final PatternKernels pattern;
    private final ModelKernels model;

    /** Binds the sample's four kernels to {@code stream}. */
    SampleWork(DeviceStream stream) {
        this.pattern = PatternKernels.on(stream, SampleKernels.MODULE);
        this.model = ModelKernels.on(stream, SampleKernels.MODULE);
    }

    void fillPattern(Memory dst, long offset, long length, long seed) {
        pattern.fill(dst, offset, length, seed);
    }

    void checksum(Memory src, long offset, long length, Memory out, long outOffset) {
        pattern.checksum(src, offset, length, out, outOffset);
    }

    void normalize(Memory src, long srcOffset, Memory dst, long dstOffset, int count, float mean, float std) {
        model.normalize(src, srcOffset, dst, dstOffset, count, mean, std);
    }

    void matvec(Memory weights, long weightsOffset, Memory x, long xOffset, Memory y, long yOffset, int rows, int cols) {
        model.matvec(weights, weightsOffset, x, xOffset, y, yOffset, rows, cols);
    }
}
