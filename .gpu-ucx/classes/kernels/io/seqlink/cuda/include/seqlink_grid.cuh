// seqlink_grid.cuh: grid-level building blocks shared by the channel steps, the probe and the device
// header: thread numbering, the last-block hand-off of a multi-block launch, block reductions, and the
// slot copy that the consume step and the publish step's pushes use. No kernel lives here.
#pragma once

#include <cstdint>

#include "seqlink_layout.cuh"
#include "seqlink_sync.cuh"

namespace seqlink {
namespace grid {

// Threads per block of the multi-threaded kernels (copy, checksum): the launchers use the same number.
constexpr int BLOCK_THREADS = 256;
// 16-byte pieces each thread keeps in flight while copying (several loads before the first store).
constexpr int COPY_UNROLL = 4;

struct RingShape {
    uint64_t slots;
    uint64_t stride;
    uint64_t slot_bytes;
};

// Byte offset of frame `sequence`'s slot (sequences start at 1).
__host__ __device__ __forceinline__ uint64_t slot_offset(uint64_t sequence, const RingShape& r) {
    return ((sequence - 1) % r.slots) * r.stride;
}

__device__ __forceinline__ uint64_t global_thread() {
    return static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

__device__ __forceinline__ uint64_t global_threads() {
    return static_cast<uint64_t>(gridDim.x) * blockDim.x;
}

// Whether this block is the last of its grid to get here. Every block's writes (and reads) before the
// call happen before everything the last block does after it: bar.sync, then a device-scope acq_rel
// add on the counter. The last block resets the counter for the next launch, which stream order puts
// after this one. Call from every thread of the block; no thread waits for another block.
__device__ inline bool last_block_arrives(uint32_t* arrivals) {
    __shared__ int s_last;
    __syncthreads();
    if (threadIdx.x == 0) {
        uint32_t before = atom_add_acq_rel_gpu_u32(arrivals, 1);
        s_last = before == gridDim.x - 1;
        if (s_last) {
            st_relaxed_sys_u32(arrivals, 0);
        }
    }
    __syncthreads();
    return s_last != 0;
}

// Whether this thread's block may go on as "the one block" of the launch: block 0 of a one-block grid,
// the last to arrive of a larger one. Call from every thread.
__device__ __forceinline__ bool sole_or_last_block(uint32_t* arrivals) {
    if (gridDim.x == 1) {
        __syncthreads();
        return true;
    }
    return last_block_arrives(arrivals);
}

// The grid's one value: every block offers `mine` and gets back the value the FIRST block to get here
// offered, so all blocks of the launch work on the same value. One atom.acq_rel.gpu compare-and-swap of
// 1 + mine into *slot (0: empty): the winner's swap releases what it did before (an acquire read, say),
// and a later block's failed swap acquires it. Thread 0 of EVERY block, once per launch, then
// took_first_value (a block that skips either leaves the slot set); no block waits for another.
__device__ __forceinline__ uint64_t first_value_of_grid(uint64_t* slot, uint64_t mine) {
    const uint64_t seen = atom_cas_acq_rel_gpu_u64(slot, 0, mine + 1);
    return seen == 0 ? mine : seen - 1;
}

// After this block's first_value_of_grid (same thread, program order): an acq_rel count of the blocks that
// took the value; the last one resets slot and counter for the next launch (stream order), after every
// block's swap. Separate so the rest of the block need not wait for this second round trip.
__device__ __forceinline__ void took_first_value(uint64_t* slot, uint32_t* takers) {
    if (atom_add_acq_rel_gpu_u32(takers, 1) == gridDim.x - 1) {
        st_relaxed_sys(slot, 0);
        st_relaxed_sys_u32(takers, 0);
    }
}

// ---- grid counters tagged with a round ----------------------------------------------------------------
//
// The counters above are reset by the last block to arrive: a launch in which a block never arrives (it
// returned early) leaves them counted, and the next launch would count on from there, so a block that is
// not last would believe it is and hand off (acknowledge, say) while others still read. A channel round's
// counters (a round kernel's take_round and end_round, a device listener's acknowledge_taken_at_end) carry the
// round's number instead: every block of round r adds STEP(r) = (r << 32) + 1 to one 64-bit word, so n blocks
// of round r leave it at (n * r mod 2^32) << 32 | n whatever the order, and the last of the grid resets it to
// 0. A word that does not have that form, or counts the whole grid or more, holds another launch's leftover:
// the block takes its own add back (the leftover stays exactly as it was, so every later launch finds it as
// well) and reports it. A leftover of k blocks of round r' passes for round r's only if k * (r' - r) is a
// multiple of 2^32 (a second launch of the same round, or rounds 2^32 / k apart): a launch of one round is told
// from the launches of every other. One atom.acq_rel.gpu add per block, as last_block_arrives: no compare-and-swap
// loop, so a grid of hundreds of blocks does not serialise on the word.

// What a block's arrival at a round's grid counter found.
enum class RoundArrival { NOT_LAST, LAST, LEFTOVER };

// Counts this block into round `round`'s grid counter, from ONE thread, once per launch (grid of `blocks`).
// Ordering: as last_block_arrives's (the add is acq_rel; every block's earlier work, ordered before this
// thread by a barrier, is released to the last block, which acquires the whole chain).
__device__ inline RoundArrival count_in_round(uint64_t* counter, uint64_t round, uint64_t blocks) {
    constexpr uint64_t LOW = 0xFFFFFFFFull;
    const uint64_t step = (round << 32) + 1;
    const uint64_t before = atom_add_acq_rel_gpu_u64(counter, step);
    const uint64_t counted = before & LOW;
    if ((before >> 32) != ((counted * round) & LOW) || counted >= blocks) {
        atom_add_acq_rel_gpu_u64(counter, 0 - step);  // our add back out: the leftover stays as it was
        return RoundArrival::LEFTOVER;
    }
    if (counted + 1 == blocks) {
        st_relaxed_sys(counter, 0);  // every block of the launch counted: clean for the next (stream order)
        return RoundArrival::LAST;
    }
    return RoundArrival::NOT_LAST;
}

// last_block_arrives over round `round`'s counter: LAST in the one block of the grid that may go on (a grid of
// one block touches no counter), NOT_LAST in the others, LEFTOVER in every block when the counter held another
// launch's counts (the verdict is the grid's: no block of this launch changes a leftover). Call from every thread.
__device__ inline RoundArrival block_ends_round(uint64_t* counter, uint64_t round) {
    __shared__ int s_arrival;
    __syncthreads();
    if (gridDim.x == 1) {
        return RoundArrival::LAST;
    }
    if (threadIdx.x == 0) {
        s_arrival = static_cast<int>(count_in_round(counter, round, gridDim.x));
    }
    __syncthreads();
    return static_cast<RoundArrival>(s_arrival);
}

// XOR of v over the block; the result is valid in thread 0. Call from every thread; may be called again
// (the first barrier keeps a new call's writes behind the last call's read).
__device__ inline uint64_t block_xor(uint64_t v) {
    __shared__ uint64_t s_warp[32];
    __syncthreads();
    for (int o = 16; o > 0; o >>= 1) {
        v ^= __shfl_xor_sync(0xffffffffu, v, o);
    }
    int warp = threadIdx.x >> 5;
    int lane = threadIdx.x & 31;
    if (lane == 0) {
        s_warp[warp] = v;
    }
    __syncthreads();
    uint64_t r = 0;
    if (threadIdx.x == 0) {
        int warps = (blockDim.x + 31) >> 5;
        for (int w = 0; w < warps; w++) {
            r ^= s_warp[w];
        }
    }
    return r;
}

// Inclusive prefix sum over the first blockDim.x entries of values (shared memory), in place.
__device__ inline void block_inclusive_scan(uint64_t* values) {
    for (unsigned step = 1; step < blockDim.x; step <<= 1) {
        uint64_t add = threadIdx.x >= step ? values[threadIdx.x - step] : 0;
        __syncthreads();
        values[threadIdx.x] += add;
        __syncthreads();
    }
}

template <bool STRONG>
__device__ __forceinline__ uint4 load16(const uint4* p) {
    if (STRONG) {
        return ld_volatile_v4(p);
    }
    return *p;
}

// Copies the slots of frames first..last (header plus payload up to its length, clamped to the slot
// size, in 16-byte pieces) from the ring at src to the same slots of the ring at dst, spread over
// every thread of the grid: piece i of the round goes to global thread i (mod the grid), so every block
// must lay the round's pieces out alike. STRONG: the source may be overwritten while we read (latest
// delivery), so read it with strong loads, and copy whole slots: a lapped frame's length can change
// between two blocks' reads of it, and a layout built from lengths would then differ from block to
// block and leave pieces of the valid frames after it copied by nobody (the H200 showed it: 17 stale
// pieces in a frame the lap check had rightly kept). STAMP: write {sequence, length} into each copied header instead of the
// source's first 16 bytes (the publish step pushes frames whose stamps it is writing itself); the
// lengths come from length_src when it is not 0, and a negative one (padding) is written as it is, so a
// replica's reader sees the padding too. Must be called by every thread of the block.
template <bool STRONG, bool STAMP>
__device__ void copy_frames(uint64_t src, uint64_t dst, uint64_t first, uint64_t last, const RingShape& r,
                            uint64_t length_src = 0) {
    __shared__ uint64_t s_end[BLOCK_THREADS];  // inclusive scan of the 16-byte pieces per frame
    __shared__ uint64_t s_length[BLOCK_THREADS];
    for (uint64_t group = first; group <= last; group += blockDim.x) {
        uint64_t frames = min(static_cast<uint64_t>(blockDim.x), last - group + 1);
        __syncthreads();  // the previous group's readers of s_end are done
        uint64_t pieces = 0;
        uint64_t length = 0;
        uint64_t header_length = 0;  // the length word a stamped header gets: padding's negative one kept as it is
        if (threadIdx.x < frames) {
            uint64_t s = group + threadIdx.x;
            if (STRONG) {
                length = r.slot_bytes;  // no length read: the layout must not depend on what a writer may change
                header_length = length;
            } else {
                header_length = *word_at(length_src != 0 ? length_src : src, slot_offset(s, r) + layout::SLOT_LENGTH);
                int64_t raw = static_cast<int64_t>(header_length);
                length = raw < 0 ? 0 : min(static_cast<uint64_t>(raw), r.slot_bytes);
            }
            pieces = (layout::SLOT_HEADER_BYTES + length + 15) / 16;
        }
        s_end[threadIdx.x] = pieces;
        s_length[threadIdx.x] = header_length;
        __syncthreads();
        block_inclusive_scan(s_end);
        uint64_t total = s_end[frames - 1];
        uint64_t stride = global_threads();
        for (uint64_t base = global_thread(); base < total; base += stride * COPY_UNROLL) {
            uint4 v[COPY_UNROLL];
            uint64_t offset[COPY_UNROLL];
#pragma unroll
            for (int u = 0; u < COPY_UNROLL; u++) {
                uint64_t i = base + u * stride;
                offset[u] = ~0ull;
                if (i < total) {
                    // the frame holding piece i: the first whose inclusive end exceeds i
                    uint64_t lo = 0;
                    uint64_t hi = frames - 1;
                    while (lo < hi) {
                        uint64_t mid = (lo + hi) >> 1;
                        if (s_end[mid] > i) {
                            hi = mid;
                        } else {
                            lo = mid + 1;
                        }
                    }
                    uint64_t piece = i - (lo == 0 ? 0 : s_end[lo - 1]);
                    uint64_t s = group + lo;
                    offset[u] = slot_offset(s, r) + piece * 16;
                    v[u] = load16<STRONG>(reinterpret_cast<const uint4*>(src + offset[u]));
                    if (STAMP && piece == 0) {
                        uint64_t len = s_length[lo];
                        v[u].x = static_cast<uint32_t>(s);
                        v[u].y = static_cast<uint32_t>(s >> 32);
                        v[u].z = static_cast<uint32_t>(len);
                        v[u].w = static_cast<uint32_t>(len >> 32);
                    }
                }
            }
#pragma unroll
            for (int u = 0; u < COPY_UNROLL; u++) {
                if (offset[u] != ~0ull) {
                    *reinterpret_cast<uint4*>(dst + offset[u]) = v[u];
                }
            }
        }
    }
    __syncthreads();
}

}  // namespace grid
}  // namespace seqlink
