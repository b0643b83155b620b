package io.seqlink.sample.pipeline;

import io.seqlink.backend.KernelImage;
import io.seqlink.backend.KernelModule;
import io.seqlink.backend.PatternKernels;

/**
 * The sample's own kernels ({@code src/main/cuda/sample_kernels.cu}, built by nvcc with this module into
 * {@code io/seqlink/sample/seqlink-sample.fatbin}): the frame pattern's fill and checksum (with the twins of
 * the runtime's {@link PatternKernels}) and the model ({@link ModelKernels}), with the Java twins the emulated
 * backend runs instead. Without nvcc the jar has no image and the CUDA backend reports it missing when a
 * pipeline binds them.
 */
final class SampleKernels {

    static final KernelModule MODULE = ModelKernels.withTwins(PatternKernels.withTwins(
            KernelModule.builder("seqlink-sample", KernelImage.ofResource("io/seqlink/sample/seqlink-sample.fatbin")))).build();

    private SampleKernels() {
    }
}
