// seqlink_pattern.cuh: the frame pattern and checksum of io.seqlink.backend.FramePattern, bit for bit.
// Host and device code, so the host check (test/host_check.cu) and the kernels share one definition;
// under nvcc also the grid-wide fill and checksum that the probe's kernels, the tests', the tools' and
// the sample's workload kernels are thin entry points to.
//
//   pattern word k of seed s:  mix(s + k)                       (little-endian 64-bit words)
//   checksum of n bytes:       mix(n ^ XOR_k mix(word_k + k * GOLDEN)), the last partial word zero-padded
//   mix:                       the SplitMix64 finaliser
//
// XOR is associative and commutative, so the words can be folded in any order, by any thread.
#pragma once

#include <cstdint>

#ifdef __CUDACC__
#include "seqlink_args.cuh"
#include "seqlink_grid.cuh"
#include "seqlink_sync.cuh"
#endif

namespace seqlink {

constexpr uint64_t PATTERN_GOLDEN = 0x9E3779B97F4A7C15ull;

__host__ __device__ __forceinline__ uint64_t pattern_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Word k of the pattern for seed.
__host__ __device__ __forceinline__ uint64_t pattern_word(uint64_t seed, uint64_t k) {
    return pattern_mix(seed + k);
}

// The contribution of (zero-padded) word k with value w to the checksum fold.
__host__ __device__ __forceinline__ uint64_t checksum_term(uint64_t w, uint64_t k) {
    return pattern_mix(w + k * PATTERN_GOLDEN);
}

// The checksum from the XOR of all terms.
__host__ __device__ __forceinline__ uint64_t checksum_finish(uint64_t folded, uint64_t length) {
    return pattern_mix(folded ^ length);
}

// Reference implementation on a host or device byte array (one thread).
__host__ __device__ inline uint64_t checksum_serial(const uint8_t* p, uint64_t length) {
    uint64_t words = length >> 3;
    uint64_t acc = 0;
    for (uint64_t k = 0; k < words; k++) {
        uint64_t w = 0;
        for (int b = 0; b < 8; b++) {
            w |= static_cast<uint64_t>(p[k * 8 + b]) << (8 * b);
        }
        acc ^= checksum_term(w, k);
    }
    if (length & 7) {
        uint64_t tail = 0;
        for (uint64_t i = words << 3; i < length; i++) {
            tail |= static_cast<uint64_t>(p[i]) << ((i & 7) << 3);
        }
        acc ^= checksum_term(tail, words);
    }
    return checksum_finish(acc, length);
}

// Reference fill on a host or device byte array (one thread).
__host__ __device__ inline void fill_serial(uint8_t* p, uint64_t length, uint64_t seed) {
    uint64_t words = length >> 3;
    for (uint64_t k = 0; k < words; k++) {
        uint64_t w = pattern_word(seed, k);
        for (int b = 0; b < 8; b++) {
            p[k * 8 + b] = static_cast<uint8_t>(w >> (8 * b));
        }
    }
    uint64_t last = pattern_word(seed, words);
    for (uint64_t i = words << 3; i < length; i++) {
        p[i] = static_cast<uint8_t>(last >> ((i & 7) << 3));
    }
}

#ifdef __CUDACC__

// Writes `length` bytes of the pattern for `seed` at dst, spread over `threads` threads of which this is
// number `tid`: 16-byte stores when dst is 16-byte aligned (two pattern words each), bytes otherwise.
__device__ inline void fill_pattern_part(uint64_t dst, uint64_t length, uint64_t seed, uint64_t tid, uint64_t threads) {
    const uint64_t words = length >> 3;
    uint64_t done = 0;
    if ((dst & 15) == 0) {
        const uint64_t pairs = words >> 1;
        ulonglong2* p = reinterpret_cast<ulonglong2*>(dst);
        for (uint64_t i = tid; i < pairs; i += threads) {
            p[i] = make_ulonglong2(pattern_word(seed, 2 * i), pattern_word(seed, 2 * i + 1));
        }
        done = pairs << 1;
    }
    uint8_t* bytes = reinterpret_cast<uint8_t*>(dst);
    for (uint64_t k = done + tid; k < words; k += threads) {
        const uint64_t w = pattern_word(seed, k);
#pragma unroll
        for (int b = 0; b < 8; b++) {
            bytes[k * 8 + b] = static_cast<uint8_t>(w >> (8 * b));
        }
    }
    if (tid == 0 && (length & 7) != 0) {
        const uint64_t last = pattern_word(seed, words);
        for (uint64_t i = words << 3; i < length; i++) {
            bytes[i] = static_cast<uint8_t>(last >> ((i & 7) << 3));
        }
    }
}

// The same, spread over the whole grid. Call from every thread.
__device__ inline void fill_pattern_grid(uint64_t dst, uint64_t length, uint64_t seed) {
    fill_pattern_part(dst, length, seed, static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x,
            static_cast<uint64_t>(gridDim.x) * blockDim.x);
}

// Thread `tid` of `threads`' share of the checksum fold of `length` bytes at src (XOR the shares, then
// checksum_finish): 16-byte loads when src is 16-byte aligned, two in flight per iteration.
__device__ inline uint64_t checksum_fold_part(uint64_t src, uint64_t length, uint64_t tid, uint64_t threads) {
    const uint64_t words = length >> 3;
    uint64_t acc = 0;
    uint64_t done = 0;
    if ((src & 15) == 0) {
        const uint64_t pairs = words >> 1;
        const ulonglong2* p = reinterpret_cast<const ulonglong2*>(src);
        uint64_t i = tid;
        for (; i + threads < pairs; i += 2 * threads) {
            const ulonglong2 a = p[i];
            const ulonglong2 b = p[i + threads];
            acc ^= checksum_term(a.x, 2 * i) ^ checksum_term(a.y, 2 * i + 1);
            acc ^= checksum_term(b.x, 2 * (i + threads)) ^ checksum_term(b.y, 2 * (i + threads) + 1);
        }
        if (i < pairs) {
            const ulonglong2 a = p[i];
            acc ^= checksum_term(a.x, 2 * i) ^ checksum_term(a.y, 2 * i + 1);
        }
        done = pairs << 1;
    }
    const uint8_t* bytes = reinterpret_cast<const uint8_t*>(src);
    for (uint64_t k = done + tid; k < words; k += threads) {
        uint64_t w = 0;
#pragma unroll
        for (int b = 0; b < 8; b++) {
            w |= static_cast<uint64_t>(bytes[k * 8 + b]) << (8 * b);
        }
        acc ^= checksum_term(w, k);
    }
    if (tid == 0 && (length & 7) != 0) {
        uint64_t tail = 0;
        for (uint64_t i = words << 3; i < length; i++) {
            tail |= static_cast<uint64_t>(bytes[i]) << ((i & 7) << 3);
        }
        acc ^= checksum_term(tail, words);
    }
    return acc;
}

// This thread's share of the fold over the whole grid.
__device__ inline uint64_t checksum_fold_grid(uint64_t src, uint64_t length) {
    return checksum_fold_part(src, length, static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x,
            static_cast<uint64_t>(gridDim.x) * blockDim.x);
}

// Writes the checksum of `length` bytes at src into the word at out, folded by this block alone (no scratch
// line: blocks checksumming different frames never share one). Call from every thread of the block.
__device__ inline void checksum_block(uint64_t src, uint64_t length, uint64_t out) {
    const uint64_t acc = grid::block_xor(checksum_fold_part(src, length, threadIdx.x, blockDim.x));
    if (threadIdx.x == 0) {
        st_relaxed_sys(reinterpret_cast<uint64_t*>(out), checksum_finish(acc, length));
    }
}

// Writes the checksum of `length` bytes at src into the word at out. A grid of more than one block folds
// through the Scratch line at `scratch` (zeroed once; left zeroed); the last block writes the result.
// Call from every thread.
__device__ inline void checksum_grid(uint64_t src, uint64_t length, uint64_t out, uint64_t scratch) {
    const uint64_t acc = grid::block_xor(checksum_fold_grid(src, length));
    if (gridDim.x == 1) {
        if (threadIdx.x == 0) {
            st_relaxed_sys(reinterpret_cast<uint64_t*>(out), checksum_finish(acc, length));
        }
        return;
    }
    Scratch* s = reinterpret_cast<Scratch*>(scratch);
    if (threadIdx.x == 0) {
        atomicXor(reinterpret_cast<unsigned long long*>(&s->acc), static_cast<unsigned long long>(acc));
    }
    if (!grid::last_block_arrives(&s->arrivals)) {
        return;
    }
    if (threadIdx.x == 0) {
        const uint64_t all = atomicExch(reinterpret_cast<unsigned long long*>(&s->acc), 0ull);
        st_relaxed_sys(reinterpret_cast<uint64_t*>(out), checksum_finish(all, length));
    }
}

#endif  // __CUDACC__

}  // namespace seqlink
