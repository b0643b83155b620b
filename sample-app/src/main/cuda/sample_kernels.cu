// sample_kernels.cu: the sample pipeline's kernels (io/seqlink/sample/seqlink-sample.fatbin), bound through
// the user-kernel API by io.seqlink.sample.pipeline.SampleKernels: the synthetic image (the frame pattern),
// its normalisation into the slot, the checksums, and the inference's matvec. The entry points and the model's
// device code are the tools module's (sample_like_kernels.cuh, model_kernels.cuh), whose Java twins
// (io.seqlink.bench.ModelKernels, io.seqlink.backend.PatternKernels) the emulated backend runs; the pattern's
// device code is the runtime's shipped seqlink_pattern.cuh.
#include "sample_like_kernels.cuh"
