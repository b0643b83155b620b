// sample_like_kernels.cuh: the entry points of the frame pattern (io.seqlink.backend.PatternKernels) and the
// sample-like model (io.seqlink.bench.ModelKernels), each a thin kernel over its device code. Included by the
// tools' fat binary (work_kernels.cu) and by the sample's (sample-app/src/main/cuda/sample_kernels.cu): a fat
// binary that holds them is a module those two Java classes can bind. Include it in one translation unit.
#pragma once

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
