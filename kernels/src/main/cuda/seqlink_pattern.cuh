// seqlink_pattern.cuh: the frame pattern and checksum of io.seqlink.backend.FramePattern, bit for bit.
// Host and device code, so the host check (test/host_check.cu) and the kernels share one definition.
//
//   pattern word k of seed s:  mix(s + k)                       (little-endian 64-bit words)
//   checksum of n bytes:       mix(n ^ XOR_k mix(word_k + k * GOLDEN)), the last partial word zero-padded
//   mix:                       the SplitMix64 finaliser
//
// XOR is associative and commutative, so the words can be folded in any order, by any thread.
#pragma once

#include <cstdint>

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

}  // namespace seqlink
