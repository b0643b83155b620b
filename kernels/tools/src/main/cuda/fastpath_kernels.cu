// fastpath_kernels.cu: the C++ comparator's prototypes of the fast path, written with the
// shipped device header seqlink_device.cuh, so what they measure is what a user's kernels (and, later,
// the Java launcher) can do:
//
//   fp_produce         a producer kernel that writes `count` frames (the pattern) and publishes them at
//                      its end: the one release-ordered publish of the batch, doorbells included
//   fp_fill            fp_produce without the publish: the pattern and each frame's length in its header, for the
//                      rows whose publish is a separate step that does not copy lengths (memop-floor,
//                      steps-fused-no-staging)
//   fp_consume         a consumer kernel, pre-armed behind a stream wait: the one acquire read, the copy
//                      into the local ring fused with the checksum (one pass over the bytes), the ack at
//                      its end. Finding less published than it was armed for (an early wake or a host
//                      cancel) it takes nothing and acknowledges nothing
//   fp_spin_consume    the bounded spinning consumer: FORBIDDEN in the product (a kernel that waits for
//                      another can deadlock the GPU); here only as the physical floor
//   fp_publish_legacy  a publish tail with six system membars, the shape the runtime's avoids (fence.sc.sys, release add,
//                      dead batch_size store, release writer_busy, fence.sc.sys, two release mirror stores:
//                      six system membars), without pushes: only so its cost is measured beside today's
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

// Which frame of a round of `frames` this block works on, and which part of it: with at least as many
// blocks as frames each frame gets gridDim.x / frames blocks (the rest idle), otherwise each block takes
// whole frames in turn. Per-block uniform, so every thread of a block makes the same choice.
struct FramePart {
    uint64_t first_frame, frame_stride, part, parts;
};

__device__ __forceinline__ FramePart frame_part(uint64_t frames) {
    if (gridDim.x >= frames) {
        const uint64_t per = gridDim.x / frames;
        return FramePart{blockIdx.x / per, frames, blockIdx.x % per, per};
    }
    return FramePart{blockIdx.x, gridDim.x, 0, 1};
}

// Copies frame s's slot into `local` and folds its payload's checksum terms, over the block's part of the
// frame; one atomicXor per block into the frame's fold word. Every thread of the block. Two 16-byte pieces
// per thread are loaded before either is stored: the compiler cannot move a load above a store to `local`
// (they may alias), so one piece per iteration would cost a memory round trip per piece; a 1 MiB frame on
// 129 blocks is two pieces per thread, now one round trip.
__device__ void copy_and_fold(const ConsumeArgs& c, uint64_t s, uint64_t local, const FramePart& fp, unsigned long long* fold) {
    const grid::RingShape r = device::ring_shape(c);
    const uint64_t length = device::length(c, s);
    const uint64_t pieces = (layout::SLOT_HEADER_BYTES + length + 15) / 16;
    const uint64_t off = grid::slot_offset(s, r);
    const uint4* in = reinterpret_cast<const uint4*>(c.ring + off);
    uint4* out = reinterpret_cast<uint4*>(local + off);
    const uint64_t step = fp.parts * blockDim.x;
    constexpr uint64_t header_pieces = layout::SLOT_HEADER_BYTES / 16;
    uint64_t acc = 0;
    for (uint64_t i = fp.part * blockDim.x + threadIdx.x; i < pieces; i += 2 * step) {
        const uint64_t j = i + step;
        const uint4 a = in[i];
        const uint4 b = j < pieces ? in[j] : make_uint4(0, 0, 0, 0);
        out[i] = a;
        if (i >= header_pieces) {
            acc ^= piece_terms(a, 16 * i - layout::SLOT_HEADER_BYTES, length);
        }
        if (j < pieces) {
            out[j] = b;
            if (j >= header_pieces) {
                acc ^= piece_terms(b, 16 * j - layout::SLOT_HEADER_BYTES, length);
            }
        }
    }
    acc = grid::block_xor(acc);
    if (threadIdx.x == 0 && acc != 0) {
        atomicXor(&fold[s % MAX_ROUND], static_cast<unsigned long long>(acc));
    }
}

}  // namespace fastpath
}  // namespace seqlink

using namespace seqlink;
using namespace seqlink::fastpath;

// Frames first..first+count-1 of the channel (first: the next unpublished): the pattern for seed s, `length`
// bytes each, and each frame's length in its header. The grid is split over the frames (frame_part), so a batch
// fills in parallel.
__device__ __forceinline__ void fill_frames(const PublishArgs& a, uint64_t count, uint64_t length) {
    const uint64_t first = device::first_unpublished(a);
    const FramePart fp = frame_part(count);
    for (uint64_t f = fp.first_frame; f < count; f += fp.frame_stride) {
        const uint64_t s = first + f;
        fill_pattern_part(reinterpret_cast<uint64_t>(device::payload(a, s)), length, s, fp.part * blockDim.x + threadIdx.x,
                fp.parts * blockDim.x);
        if (fp.part == 0 && threadIdx.x == 0) {
            device::set_length(a, s, length);
        }
    }
}

// The frames, then their publish.
extern "C" __global__ void __launch_bounds__(256) fp_produce(const PublishArgs a, uint64_t count, uint64_t length) {
    fill_frames(a, count, length);
    device::publish_at_end(a, count);
}

// The frames without the publish: a separate step publishes them.
extern "C" __global__ void __launch_bounds__(256) fp_fill(const PublishArgs a, uint64_t count, uint64_t length) {
    fill_frames(a, count, length);
}

// Frames from..to (at most MAX_ROUND) into `local` (a ring of the channel's shape) with their checksums
// into results, folded per frame through `folds` (MAX_ROUND zeroed words, left zeroed), then the ack. The
// grid is split over the frames; its blocks work to the one publish_seq they agreed on (acquire_published),
// so the last block's `end` is every block's and the ack covers only frames every block took.
extern "C" __global__ void __launch_bounds__(256) fp_consume(const ConsumeArgs c, uint64_t from, uint64_t to, uint64_t local,
        uint64_t results, uint64_t folds) {
    const uint64_t published = device::acquire_published(c);
    const uint64_t end = min(to, published);
    unsigned long long* fold = reinterpret_cast<unsigned long long*>(folds);
    if (end >= from) {
        const FramePart fp = frame_part(end - from + 1);
        for (uint64_t f = fp.first_frame; from + f <= end; f += fp.frame_stride) {
            copy_and_fold(c, from + f, local, fp, fold);
        }
    }
    if (!grid::sole_or_last_block(&reinterpret_cast<Scratch*>(c.scratch)->arrivals) || threadIdx.x != 0) {
        return;
    }
    uint64_t* out = reinterpret_cast<uint64_t*>(results);
    if (end < from) {
        // an early wake or a cancelled round: nothing taken, nothing acknowledged (every block agreed on the
        // same publish_seq, so none of them folded anything)
        st_relaxed_sys(&out[RESULT_EMPTY], out[RESULT_EMPTY] + 1);
        return;
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

// The pre-review publish tail (one block, no pushes, lengths already in the ring): for the cost comparison.
extern "C" __global__ void fp_publish_legacy(const PublishArgs a, uint64_t count) {
    if (threadIdx.x != 0 || blockIdx.x != 0) {
        return;
    }
    const uint64_t first = device::first_unpublished(a);
    const uint64_t last = first + count - 1;
    for (uint64_t s = first; s <= last; s++) {
        *word_at(a.ring, grid::slot_offset(s, device::ring_shape(a)) + layout::SLOT_STAMP) = s;
    }
    fence_sc_sys();
    red_release_sys_add(word_at(a.control, layout::CONTROL_PUBLISH_SEQ), count);
    st_relaxed_sys(word_at(a.control, 16), count);  // a batch_size word nothing reads (unused in the runtime's layout)
    const uint64_t writer_busy = last + a.max_batch;
    st_release_sys(word_at(a.control, layout::CONTROL_WRITER_BUSY), writer_busy);
    fence_sc_sys();
    st_release_sys(word_at(a.mirror, layout::CONTROL_PUBLISH_SEQ), last);
    st_release_sys(word_at(a.mirror, layout::CONTROL_WRITER_BUSY), writer_busy);
}
