// pipeline_kernels.cuh: the tools' own sample-like workload, for the pipeline benchmark (io.seqlink.bench.PipelineBench,
// whose Java twins are io.seqlink.bench.PipelineKernels): a producer step the shape of the sample's normalisation
// (a byte read and a word written per pixel) and a consumer step the shape of its inference (one thread per output
// row, a multiply-add per weight, in order). Integer arithmetic, wrapping: the sums do not depend on rounding, so
// the twins equal the kernels bit for bit with nothing spelled out. The sample's own model (float32) is the
// sample's (sample-app/src/main/cuda/model_kernels.cuh); this is not a copy of it, and neither module uses the other's.
#pragma once

#include <cstdint>

#include "seqlink_grid.cuh"

namespace seqlink {
namespace bench {

// What pipeline_expand multiplies each pixel (plus one) by, modulo 2^32 (the 32-bit golden ratio).
constexpr uint32_t EXPAND_MULTIPLIER = 0x9E3779B1u;

// dst[i] = (src[i] + 1) * EXPAND_MULTIPLIER (mod 2^32) for `count` 8-bit pixels. Every thread of the grid.
__device__ inline void expand(uint64_t src, uint64_t dst, uint32_t count) {
    const uint8_t* in = reinterpret_cast<const uint8_t*>(src);
    uint32_t* out = reinterpret_cast<uint32_t*>(dst);
    const uint64_t threads = seqlink::grid::global_threads();
    for (uint64_t i = seqlink::grid::global_thread(); i < count; i += threads) {
        out[i] = (static_cast<uint32_t>(in[i]) + 1u) * EXPAND_MULTIPLIER;
    }
}

// y[r] = sum over k of w[r * cols + k] * x[k] (32-bit words, 64-bit products and sum, mod 2^64) for a row-major
// rows x cols matrix: one thread per row. Every thread of the grid.
__device__ inline void infer(uint64_t weights, uint64_t x, uint64_t y, uint32_t rows, uint32_t cols) {
    const uint32_t* w = reinterpret_cast<const uint32_t*>(weights);
    const uint32_t* xv = reinterpret_cast<const uint32_t*>(x);
    uint64_t* yv = reinterpret_cast<uint64_t*>(y);
    const uint64_t threads = seqlink::grid::global_threads();
    for (uint64_t row = seqlink::grid::global_thread(); row < rows; row += threads) {
        uint64_t acc = 0;
        const uint32_t* wr = w + row * cols;
        for (uint32_t k = 0; k < cols; k++) {
            acc += static_cast<uint64_t>(wr[k]) * xv[k];
        }
        yv[row] = acc;
    }
}

}  // namespace bench
}  // namespace seqlink
