// bench_args.cuh: the arguments and results of the source article's four schemes (the benchmark
// baselines of baselines.cu), shared by the kernels and the C++ comparator that reads the results.
#pragma once

#include <cstdint>

namespace seqlink {

// The article's four schemes (benchmark baselines), one producer and one consumer kernel each.
struct BenchArgs {
    uint64_t control;       //  0: producer-resident control words, each on its own 128-byte line
    uint64_t data;          //  8: producer-resident packet buffers
    uint64_t results;       // 16: host-mapped BenchResults
    uint64_t duration_ns;   // 24: how long the producer keeps publishing
    uint64_t max_spins;     // 32: a wait that makes no progress this many times gives up (timeout)
    uint64_t slots;         // 40: packet buffers of the counter schemes (1: single, 2: double buffer)
    uint64_t packet_bytes;  // 48: bytes per packet (64); each of the block's threads moves one packet
    uint64_t reserved;      // 56
};

// Written by the baseline kernels into host-mapped memory. Each word has one writer (the producer's
// or the consumer's thread 0): device atomics on host memory are not native on every host.
struct BenchResults {
    uint64_t rounds_published;   //   0: producer rounds (each moves blockDim.x packets)
    uint64_t rounds_received;    //   8: consumer rounds received intact
    uint64_t producer_timeouts;  //  16: producer waits that gave up after max_spins
    uint64_t consumer_timeouts;  //  24: consumer waits that gave up after max_spins
    uint64_t remote_reads;       //  32: consumer loads of producer-resident memory (polls + data)
    uint64_t corrupt;            //  40: rounds whose packets did not match their stamp
    uint64_t start_ns;           //  48: producer's globaltimer at start
    uint64_t end_ns;             //  56: consumer's globaltimer at its last round
    uint64_t producer_done;      //  64: 1 once the producer kernel left
    uint64_t consumer_done;      //  72: 1 once the consumer kernel left
    uint64_t reserved[6];        //  80
    uint64_t histogram[256];     // 128: latency histogram, 8 buckets per octave of nanoseconds
};
static_assert(sizeof(BenchResults) == 128 + 256 * 8, "BenchResults layout is read by the host");

// Latency histogram bucket of v nanoseconds: 8 buckets per power of two (about 9% wide).
__host__ __device__ __forceinline__ int latency_bucket(uint64_t v) {
    if (v < 8) {
        return static_cast<int>(v);
    }
    int msb = 63;
    while (!((v >> msb) & 1)) {
        msb--;
    }
    int sub = static_cast<int>((v >> (msb - 3)) & 7);
    int b = (msb - 2) * 8 + sub;
    return b > 255 ? 255 : b;
}

// The lower edge, in nanoseconds, of histogram bucket b (inverse of latency_bucket).
__host__ __device__ __forceinline__ uint64_t latency_bucket_floor(int b) {
    if (b < 8) {
        return static_cast<uint64_t>(b);
    }
    int msb = b / 8 + 2;
    uint64_t sub = static_cast<uint64_t>(b % 8);
    return (1ull << msb) | (sub << (msb - 3));
}

}  // namespace seqlink
