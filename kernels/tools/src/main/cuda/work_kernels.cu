// work_kernels.cu: the benchmarks' device work as user kernels (io.seqlink.bench.BenchWork binds them):
// the frame pattern's fill and checksum (io.seqlink.backend.PatternKernels), the sample-like model
// (io.seqlink.bench.ModelKernels), and the launch-path no-ops LaunchVariantsBenchmark times.
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

extern "C" __global__ void bench_noop() {
}

// Five 64-bit parameters, like a typical workload launch; does nothing unless a == b (never, by the caller).
extern "C" __global__ void bench_noop5(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e) {
    if (a == b && a != 0 && threadIdx.x == 0) {
        *reinterpret_cast<uint64_t*>(a) = c + d + e;
    }
}
