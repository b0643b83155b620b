// work_kernels.cu: the benchmarks' device work as user kernels (io.seqlink.bench.BenchWork binds them): the
// frame pattern's fill and checksum and the sample-like model (sample_like_kernels.cuh), and the launch-path
// no-ops LaunchVariantsBenchmark times.
#include <cstdint>

#include "sample_like_kernels.cuh"

extern "C" __global__ void bench_noop() {
}

// Five 64-bit parameters, like a typical workload launch; does nothing unless a == b (never, by the caller).
extern "C" __global__ void bench_noop5(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e) {
    if (a == b && a != 0 && threadIdx.x == 0) {
        *reinterpret_cast<uint64_t*>(a) = c + d + e;
    }
}
