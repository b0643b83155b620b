// seqlink_args.cuh: the fixed arguments of the channel kernels, passed by value (they land in the
// kernel's constant parameter bank, so reading them costs nothing). They are built ONCE per binding,
// on the Java side by io.seqlink.backend.cuda.KernelArgs at the offsets below (all fields are 64-bit,
// so there is no padding to disagree about), and the launch only varies the scalars after them.
// io.seqlink.gpu.KernelLayoutContractTest compares the offsets with the host check's output.
#pragma once

#include <cstdint>

namespace seqlink {

// The most push targets (replicas) one publish step writes.
constexpr int MAX_PUSH_TARGETS = 16;

// Scratch words of one binding, in device memory of the device that runs the kernel (128 bytes,
// zeroed at bind, min_published set to all ones). Used only by multi-block launches.
struct Scratch {
    uint32_t arrivals;       // blocks that finished; the last one resets it to 0
    uint32_t pad0;
    uint64_t min_published;  // consume: the smallest publish_seq any block acquired; reset to ~0
    uint64_t acc;            // checksum: XOR of the blocks' folds; reset to 0
    uint64_t pad1[13];
};
static_assert(sizeof(Scratch) == 128, "Scratch is one 128-byte line");

// seqlink_publish(PublishArgs a, uint64_t count)
struct PublishArgs {
    uint64_t control;     //   0: control block (producer device)
    uint64_t ring;        //   8: ring (producer device)
    uint64_t mirror;      //  16: producer's host mirror (device address of mapped memory)
    uint64_t scratch;     //  24: Scratch on the producer device
    uint64_t slots;       //  32
    uint64_t stride;      //  40
    uint64_t slot_bytes;  //  48
    uint64_t max_batch;   //  56
    uint64_t push_count;  //  64: replicas in use
    uint64_t staging;     //  72: host-mapped ring of the same shape whose headers hold each frame's length
                          //      (the publish step copies them into the ring); 0: the ring has them already
    uint64_t push_control[MAX_PUSH_TARGETS];  //  80: replica control blocks
    uint64_t push_ring[MAX_PUSH_TARGETS];     // 208: replica rings
};
static_assert(sizeof(PublishArgs) == 336, "PublishArgs layout is shared with Java");

// seqlink_consume(ConsumeArgs a, uint64_t from, uint64_t to, uint64_t round)
struct ConsumeArgs {
    uint64_t control;     //   0: control block to acquire publish_seq from (producer's or a replica)
    uint64_t ring;        //   8: ring holding the frames (producer's or a replica)
    uint64_t local_ring;  //  16: consumer-local ring to copy into, 0 in direct mode
    uint64_t block;       //  24: consumer block (consumer device)
    uint64_t mirror;      //  32: consumer's host mirror
    uint64_t scratch;     //  40: Scratch on the consumer device
    uint64_t slots;       //  48
    uint64_t stride;      //  56
    uint64_t slot_bytes;  //  64
    uint64_t max_batch;   //  72
    uint64_t lapping;     //  80: 1 under latest delivery
};
static_assert(sizeof(ConsumeArgs) == 88, "ConsumeArgs layout is shared with Java");

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
