// test_kernels.cu: the GPU tests' own kernels (io/seqlink/kernels/test/seqlink-test.fatbin on the test
// class path), launched through the user-kernel API like any user's: the frame pattern's fill and
// checksum (io.seqlink.backend.PatternKernels names them and holds their Java twins), and a kernel that
// provokes a sticky device error on purpose.
#include <cstdint>

#include "seqlink_pattern.cuh"
#include "seqlink_sync.cuh"

extern "C" __global__ void pattern_fill(uint64_t dst, uint64_t length, uint64_t seed) {
    seqlink::fill_pattern_grid(dst, length, seed);
}

extern "C" __global__ void __launch_bounds__(256) pattern_checksum(uint64_t src, uint64_t length, uint64_t out,
        uint64_t scratch) {
    seqlink::checksum_grid(src, length, out, scratch);
}

// mode 0 stores to `address` (pass an unmapped one: CUDA_ERROR_ILLEGAL_ADDRESS), mode 1 traps
// (CUDA_ERROR_LAUNCH_FAILED). The context is unusable afterwards: run it in a process of its own.
extern "C" __global__ void test_fault(uint64_t address, uint32_t mode) {
    if (blockIdx.x != 0 || threadIdx.x != 0) {
        return;
    }
    if (mode == 0) {
        seqlink::st_relaxed_sys(reinterpret_cast<uint64_t*>(address), 1);
    } else {
        __trap();
    }
}
