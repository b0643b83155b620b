// fastpath_kernels.cu: the C++ comparator's prototypes of the fast path (issue 12), written with the
// shipped device header seqlink_device.cuh, so what they measure is what a user's kernels (and, later,
// the Java launcher) can do:
//
//   fp_produce         a producer kernel that writes `count` frames (the pattern) and publishes them at
//                      its end: the one release-ordered publish of the batch, doorbells included
//   fp_consume         a consumer kernel, pre-armed behind a stream wait: the one acquire read, the copy
//                      into the local ring fused with the checksum (one pass over the bytes), the ack at
//                      its end. Finding less published than it was armed for (an early wake or a host
//                      cancel) it takes nothing and acknowledges nothing
//   fp_spin_consume    the bounded spinning consumer: FORBIDDEN in the product (a kernel that waits for
//                      another can deadlock the GPU); here only as the physical floor
//
// Results (host-mapped, one writer per word: the last block's thread 0, in stream order):
//   [s % 1024] checksum of frame s      [RESULT_TAKEN] last frame taken      [RESULT_EMPTY] empty rounds
#include <cstdint>

#include "seqlink_device.cuh"
#include "seqlink_grid.cuh"
#include "seqlink_pattern.cuh"

namespace seqlink {
namespace fastpath {

constexpr uint64_t RESULT_SLOTS = 1024;
constexpr uint64_t RESULT_TAKEN = 1024;
constexpr uint64_t RESULT_EMPTY = 1025;
constexpr uint64_t RESULT_WORDS = 1032;
constexpr uint64_t MAX_ROUND = 64;  // frames one consume round checks (per-frame fold words in `folds`)

// The checksum terms of the 16-byte piece at payload byte `pos` (words pos/8 and pos/8 + 1) of a frame of
// `length` bytes, the last partial word zero-padded, as FramePattern folds them.
__device__ __forceinline__ uint64_t piece_terms(uint4 v, uint64_t pos, uint64_t length) {
    uint64_t acc = 0;
    const uint64_t w[2] = {static_cast<uint64_t>(v.x) | (static_cast<uint64_t>(v.y) << 32),
                           static_cast<uint64_t>(v.z) | (static_cast<uint64_t>(v.w) << 32)};
#pragma unroll
    for (int j = 0; j < 2; j++) {
        const uint64_t at = pos + 8 * j;
        if (at + 8 <= length) {
            acc ^= checksum_term(w[j], at >> 3);
        } else if (at < length) {
            acc ^= checksum_term(w[j] & ((1ull << ((length - at) * 8)) - 1), at >> 3);
        }
    }
    return acc;
}

}  // namespace fastpath
}  // namespace seqlink

using namespace seqlink;
using namespace seqlink::fastpath;

// Frames first..first+count-1 of the channel: the pattern for seed s, `length` bytes each, then the publish.
extern "C" __global__ void __launch_bounds__(256) fp_produce(const PublishArgs a, uint64_t count, uint64_t length) {
    const uint64_t first = device::first_unpublished(a);
    for (uint64_t s = first; s < first + count; s++) {
        fill_pattern_grid(reinterpret_cast<uint64_t>(device::payload(a, s)), length, s);
        if (blockIdx.x == 0 && threadIdx.x == 0) {
            device::set_length(a, s, length);
        }
    }
    device::publish_at_end(a, count);
}

// Frames from..to (at most MAX_ROUND) into `local` (a ring of the channel's shape) with their checksums
// into results, folded per frame through `folds` (MAX_ROUND zeroed words, left zeroed), then the ack.
extern "C" __global__ void __launch_bounds__(256) fp_consume(const ConsumeArgs c, uint64_t from, uint64_t to, uint64_t local,
        uint64_t results, uint64_t folds) {
    const uint64_t published = device::acquire_published(c);
    const uint64_t end = min(to, published);
    const grid::RingShape r = device::ring_shape(c);
    unsigned long long* fold = reinterpret_cast<unsigned long long*>(folds);
    if (end >= from) {
        const uint64_t frames = end - from + 1;
        const uint64_t thread = grid::global_thread();
        const uint64_t threads = grid::global_threads();
        for (uint64_t f = 0; f < frames; f++) {
            const uint64_t s = from + f;
            const uint64_t length = device::length(c, s);
            const uint64_t pieces = (layout::SLOT_HEADER_BYTES + length + 15) / 16;
            const uint64_t off = grid::slot_offset(s, r);
            uint64_t acc = 0;
            for (uint64_t i = thread; i < pieces; i += threads) {
                const uint4 v = reinterpret_cast<const uint4*>(c.ring + off)[i];
                reinterpret_cast<uint4*>(local + off)[i] = v;
                if (i >= layout::SLOT_HEADER_BYTES / 16) {
                    acc ^= piece_terms(v, 16 * i - layout::SLOT_HEADER_BYTES, length);
                }
            }
            acc = grid::block_xor(acc);
            if (threadIdx.x == 0 && acc != 0) {
                atomicXor(&fold[s % MAX_ROUND], static_cast<unsigned long long>(acc));
            }
        }
    }
    if (!grid::sole_or_last_block(&reinterpret_cast<Scratch*>(c.scratch)->arrivals) || threadIdx.x != 0) {
        return;
    }
    uint64_t* out = reinterpret_cast<uint64_t*>(results);
    if (end < from) {
        st_relaxed_sys(&out[RESULT_EMPTY], out[RESULT_EMPTY] + 1);
        return;  // an early wake or a cancelled round: nothing taken, nothing acknowledged
    }
    for (uint64_t s = from; s <= end; s++) {
        const uint64_t all = atomicExch(&fold[s % MAX_ROUND], 0ull);
        st_relaxed_sys(&out[s % RESULT_SLOTS], checksum_finish(all, device::length(c, s)));
    }
    st_relaxed_sys(&out[RESULT_TAKEN], end);
    device::acknowledge(c.mirror, end);  // release: the checksums and the copies are ordered before it
}

// FORBIDDEN in the product. One block polls publish_seq (thread 0, acquire, bounded: max_spins polls without
// progress end the kernel) and for each new frame copies it with its checksum and acknowledges it, until
// `frames` frames were taken.
extern "C" __global__ void __launch_bounds__(256) fp_spin_consume(const ConsumeArgs c, uint64_t frames, uint64_t local,
        uint64_t results, uint64_t max_spins) {
    __shared__ uint64_t s_published;
    __shared__ int s_stop;
    const grid::RingShape r = device::ring_shape(c);
    uint64_t* out = reinterpret_cast<uint64_t*>(results);
    uint64_t next = 1;
    while (next <= frames) {
        if (threadIdx.x == 0) {
            uint64_t p;
            uint64_t spins = 0;
            while ((p = ld_acquire_sys(word_at(c.control, layout::CONTROL_PUBLISH_SEQ))) < next && ++spins < max_spins) {
            }
            s_published = p;
            s_stop = p < next;
        }
        __syncthreads();
        if (s_stop) {
            return;
        }
        for (; next <= s_published; next++) {
            const uint64_t length = device::length(c, next);
            const uint64_t pieces = (layout::SLOT_HEADER_BYTES + length + 15) / 16;
            const uint64_t off = grid::slot_offset(next, r);
            uint64_t acc = 0;
            for (uint64_t i = threadIdx.x; i < pieces; i += blockDim.x) {
                const uint4 v = reinterpret_cast<const uint4*>(c.ring + off)[i];
                reinterpret_cast<uint4*>(local + off)[i] = v;
                if (i >= layout::SLOT_HEADER_BYTES / 16) {
                    acc ^= piece_terms(v, 16 * i - layout::SLOT_HEADER_BYTES, length);
                }
            }
            acc = grid::block_xor(acc);
            if (threadIdx.x == 0) {
                st_relaxed_sys(&out[next % RESULT_SLOTS], checksum_finish(acc, length));
                st_relaxed_sys(&out[RESULT_TAKEN], next);
                device::acknowledge(c.mirror, next);
            }
            __syncthreads();
        }
    }
}
