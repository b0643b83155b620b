// test_kernels.cu: the GPU tests' own kernels (io/seqlink/kernels/test/seqlink-test.fatbin on the test
// class path), launched through the user-kernel API like any user's: the frame pattern's fill and
// checksum (io.seqlink.backend.PatternKernels names them and holds their Java twins), a device listener's
// kernels for armed rounds (and the round kernel of one that consumes in its kernel) (io.seqlink.testing.ArmedChecksumListener holds its twin),
// one that tells padding from frames (io.seqlink.testing.PaddingFlagsListener), and a kernel that provokes a
// sticky device error on purpose.
#include <cstdint>

#include "seqlink_device.cuh"
#include "seqlink_pattern.cuh"
#include "seqlink_sync.cuh"

extern "C" __global__ void pattern_fill(uint64_t dst, uint64_t length, uint64_t seed) {
    seqlink::fill_pattern_grid(dst, length, seed);
}

extern "C" __global__ void __launch_bounds__(256) pattern_checksum(uint64_t src, uint64_t length, uint64_t out,
        uint64_t scratch) {
    seqlink::checksum_grid(src, length, out, scratch);
}

// A device listener's work on frame `sequence` of an armed (or ordinary) round, one thread: does nothing but
// count the launch in results[0] when the round's consume step did not take the frame (round_frames, stream
// order); otherwise counts a frame below the last one taken in results[2], then the delivery of the frame in
// results[2 + 2s] and its checksum in results[3 + 2s]. results is host memory the test reads after the acks.
namespace {

__device__ void armed_take(uint64_t descriptor, uint64_t payload, uint64_t sequence, uint64_t length, uint64_t results) {
    if (blockIdx.x != 0 || threadIdx.x != 0) {
        return;
    }
    volatile uint64_t* r = reinterpret_cast<volatile uint64_t*>(results);
    uint64_t from;
    uint64_t to;
    if (!seqlink::device::round_frames(descriptor, sequence, sequence, &from, &to)) {
        r[0] = r[0] + 1;
        return;
    }
    if (sequence <= r[1]) {
        r[2] = r[2] + 1;
    }
    r[1] = sequence;
    r[2 + 2 * sequence] = r[2 + 2 * sequence] + 1;
    r[3 + 2 * sequence] = seqlink::checksum_serial(reinterpret_cast<const uint8_t*>(payload), length);
}

}  // namespace

extern "C" __global__ void test_armed_take(uint64_t descriptor, uint64_t payload, uint64_t sequence, uint64_t length,
        uint64_t results) {
    armed_take(descriptor, payload, sequence, length, results);
}

// test_armed_take, then the round's acknowledgement from the kernel (a listener that acknowledges in its
// kernel: the channel enqueues no ack step) over `arrivals` (a zeroed word of device memory) tagged with the
// round. Launched with one block by ArmedChecksumListener (which then touches no counter) and with several by
// RoundGridCounterGpuTest; every block calls acknowledge_taken_at_end except block `skip_block` (a misused
// kernel: that block returns first) when it is below the grid's size.
extern "C" __global__ void test_armed_take_acking(uint64_t descriptor, uint64_t payload, uint64_t sequence,
        uint64_t length, uint64_t results, uint64_t acknowledgement, uint64_t arrivals, uint64_t round,
        uint64_t skip_block) {
    armed_take(descriptor, payload, sequence, length, results);
    if (blockIdx.x == skip_block) {
        return;
    }
    seqlink::device::acknowledge_taken_at_end(descriptor, acknowledgement, reinterpret_cast<uint64_t*>(arrivals), round);
}

// A device listener whose one kernel is the whole round (DeviceFrameHandler.consumesInKernel: the channel enqueues
// no consume step and no ack step): take_round from every thread, then block 0's thread 0 counts, per frame taken
// and read in place, what armed_take counts (a round that took nothing: results[0]); end_round from every thread
// writes the descriptor and acknowledges. io.seqlink.testing.ArmedChecksumListener holds its twin. Block
// `skip_block`, when it is below the grid's size, is a misused kernel's: it returns before take_round when
// `skip_take` is 1, else between take_round and end_round (RoundGridCounterGpuTest).
extern "C" __global__ void test_round_take(const seqlink::ConsumeArgs c, uint64_t first, uint64_t last, uint64_t round,
        uint64_t armed, uint64_t results, uint64_t skip_block, uint64_t skip_take) {
    if (blockIdx.x == skip_block && skip_take != 0) {
        return;
    }
    const seqlink::device::TakenRound taken = seqlink::device::take_round(c, first, last, round, armed != 0);
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        volatile uint64_t* r = reinterpret_cast<volatile uint64_t*>(results);
        if (taken.end < taken.from) {
            r[0] = r[0] + 1;
        }
        for (uint64_t s = taken.from; s <= taken.end; s++) {
            if (s <= r[1]) {
                r[2] = r[2] + 1;
            }
            r[1] = s;
            r[2 + 2 * s] = r[2 + 2 * s] + 1;
            r[3 + 2 * s] = seqlink::checksum_serial(seqlink::device::payload(c, s), seqlink::device::length(c, s));
        }
    }
    if (blockIdx.x == skip_block) {
        return;
    }
    seqlink::device::end_round(c, taken);
}

// A device listener's kernel that looks at each frame of its round with seqlink::device::abandoned: results[s] = 1
// for padding (a claim the producer gave back), 2 for a frame. One thread, in stream order after the channel's
// consume step; it reads the ring the consumer reads (the producer's, or the replica a push transport wrote).
// io.seqlink.testing.PaddingFlagsListener holds its twin.
extern "C" __global__ void test_abandoned(const seqlink::ConsumeArgs c, uint64_t first, uint64_t last, uint64_t results) {
    if (blockIdx.x != 0 || threadIdx.x != 0) {
        return;
    }
    volatile uint64_t* r = reinterpret_cast<volatile uint64_t*>(results);
    for (uint64_t s = first; s <= last; s++) {
        r[s] = seqlink::device::abandoned(c, s) ? 1 : 2;
    }
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
