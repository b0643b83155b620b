// sample_kernels.cu: the sample pipeline's kernels (io/seqlink/sample/seqlink-sample.fatbin), bound through
// the user-kernel API by io.seqlink.sample.pipeline.SampleKernels: the synthetic image (the frame pattern),
// its normalisation into the slot, the checksums, and the inference's matvec. The pattern's device code is
// the runtime's shipped seqlink_pattern.cuh (io.seqlink.backend.PatternKernels binds its two entry points,
// which every module that uses it compiles itself: a shipped header defines no kernels); the model's is
// this module's model_kernels.cuh.
#include <cstdint>

#include "model_kernels.cuh"
#include "seqlink_pattern.cuh"

extern "C" __global__ void pattern_fill(uint64_t dst, uint64_t length, uint64_t seed) {
    seqlink::fill_pattern_grid(dst, length, seed);
}

extern "C" __global__ void __launch_bounds__(256) pattern_checksum(uint64_t src, uint64_t length, uint64_t out,
        uint64_t scratch) {
    seqlink::checksum_grid(src, length, out, scratch);
}

extern "C" __global__ void model_normalize(uint64_t src, uint64_t dst, uint32_t count, float mean, float std_dev) {
    seqlink::model::normalize(src, dst, count, mean, std_dev);
}

extern "C" __global__ void model_matvec(uint64_t weights, uint64_t x, uint64_t y, uint32_t rows, uint32_t cols) {
    seqlink::model::matvec(weights, x, y, rows, cols);
}
