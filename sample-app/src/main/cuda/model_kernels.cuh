// model_kernels.cuh: the sample's model, u8 -> float32 normalisation and a float32 matrix-vector product,
// with every rounding spelled out so the result equals the Java twins (io.seqlink.sample.pipeline.ModelKernels)
// and the host reference (ReferenceModel) bit for bit. Compiled into the sample's fat binary (sample_kernels.cu).
#pragma once

#include <cstdint>

namespace seqlink {
namespace model {

// dst[i] = (src[i] / 255 - mean) / std_dev for `count` unsigned 8-bit pixels. Every thread of the grid.
__device__ inline void normalize(uint64_t src, uint64_t dst, uint32_t count, float mean, float std_dev) {
    const uint8_t* in = reinterpret_cast<const uint8_t*>(src);
    float* out = reinterpret_cast<float*>(dst);
    const uint64_t threads = static_cast<uint64_t>(gridDim.x) * blockDim.x;
    for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += threads) {
        const float p = __uint2float_rn(in[i]);
        out[i] = __fdiv_rn(__fsub_rn(__fdiv_rn(p, 255.0f), mean), std_dev);
    }
}

// y = W x for a row-major rows x cols float32 matrix: one thread per row, accumulating in order with
// separate multiply and add roundings (no fused multiply-add). Every thread of the grid.
__device__ inline void matvec(uint64_t weights, uint64_t x, uint64_t y, uint32_t rows, uint32_t cols) {
    const float* w = reinterpret_cast<const float*>(weights);
    const float* xv = reinterpret_cast<const float*>(x);
    float* yv = reinterpret_cast<float*>(y);
    const uint64_t threads = static_cast<uint64_t>(gridDim.x) * blockDim.x;
    for (uint64_t row = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; row < rows; row += threads) {
        float acc = 0.0f;
        const float* wr = w + row * cols;
        for (uint32_t k = 0; k < cols; k++) {
            acc = __fadd_rn(acc, __fmul_rn(wr[k], xv[k]));
        }
        yv[row] = acc;
    }
}

}  // namespace model
}  // namespace seqlink
