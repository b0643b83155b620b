// consume.cu: the consume step of a consumer (its Java twin: io.seqlink.backend.emulated.EmulatedConsumeKernel).
//
//   seqlink_consume  one ld.acquire.sys of publish_seq per block (seqlink_device.cuh), the copy of the
//                    ready slots into the consumer's local ring (copy mode), the lapping check under
//                    latest delivery, the stamp check, counters and the descriptor, mirror round last
#include "seqlink_args.cuh"
#include "seqlink_device.cuh"
#include "seqlink_grid.cuh"
#include "seqlink_layout.cuh"
#include "seqlink_sync.cuh"

using namespace seqlink;
using namespace seqlink::layout;

namespace {

// The end of a consume round, run by every thread of the (last) block: validation, counters, the
// descriptor into the device block and the host mirror, the mirror's round last.
__device__ void finish_round(const ConsumeArgs& a, uint64_t from, uint64_t end, uint64_t published, uint64_t round,
        const grid::RingShape& r) {
    __shared__ uint64_t s_valid_from;
    __shared__ unsigned long long s_bad;  // highest sequence whose stamp did not match (0: none)
    const bool any = end >= from;
    if (threadIdx.x == 0) {
        uint64_t valid_from = from;
        if (any && a.lapping) {
            // Every thread's data reads are ordered before this read by its own fence.acq_rel.sys and the
            // barrier (or arrival counter) that brought us here: no further fence is needed.
            const int64_t writer_busy = static_cast<int64_t>(ld_acquire_sys(word_at(a.control, CONTROL_WRITER_BUSY)));
            const int64_t oldest_intact = writer_busy - static_cast<int64_t>(r.slots) + 1;
            if (oldest_intact > static_cast<int64_t>(valid_from)) {
                valid_from = static_cast<uint64_t>(oldest_intact);
            }
        }
        s_valid_from = valid_from;
        s_bad = 0;
    }
    __syncthreads();
    if (any) {
        // The stamps of what was read must match: the copies in the local ring (copy mode) or the frames
        // in place (direct mode). Strong loads: other blocks wrote the local ring.
        const uint64_t source = a.local_ring != 0 ? a.local_ring : a.ring;
        for (uint64_t s = s_valid_from + threadIdx.x; s <= end; s += blockDim.x) {
            if (ld_relaxed_sys(word_at(source, grid::slot_offset(s, r) + SLOT_STAMP)) != s) {
                atomicMax(&s_bad, static_cast<unsigned long long>(s));
            }
        }
    }
    __syncthreads();
    if (threadIdx.x != 0) {
        return;
    }
    uint64_t reads = ld_relaxed_sys(word_at(a.block, CONSUMER_READS));
    uint64_t empty_polls = ld_relaxed_sys(word_at(a.block, CONSUMER_EMPTY_POLLS));
    uint64_t laps = ld_relaxed_sys(word_at(a.block, CONSUMER_LAPS));
    uint64_t valid_from = from;
    if (!any) {
        empty_polls++;
    } else {
        reads++;
        valid_from = s_valid_from;
        if (s_bad != 0 && s_bad >= valid_from) {
            valid_from = s_bad + 1;  // never expected above writer_busy's bound; the second line of defence
        }
        valid_from = min(valid_from, end + 1);
        if (valid_from > from) {
            laps += valid_from - from;
        }
    }
    // The device block: counters this step reads next time, and the descriptor a device listener's
    // kernels read in stream order (no round word: nothing on the device waits for one).
    st_relaxed_sys(word_at(a.block, CONSUMER_READS), reads);
    st_relaxed_sys(word_at(a.block, CONSUMER_EMPTY_POLLS), empty_polls);
    st_relaxed_sys(word_at(a.block, CONSUMER_LAPS), laps);
    st_relaxed_sys(word_at(a.block, CONSUMER_READY_FROM), from);
    st_relaxed_sys(word_at(a.block, CONSUMER_READY_TO), end);
    st_relaxed_sys(word_at(a.block, CONSUMER_VALID_FROM), valid_from);
    st_relaxed_sys(word_at(a.block, CONSUMER_OBSERVED_PUBLISH), published);
    // The host mirror: posted writes, round last with release so a host that acquires it sees the rest
    // (and, through the acquire read of this round, the frames of a host-memory replica).
    st_relaxed_sys(word_at(a.mirror, CONSUMER_READS), reads);
    st_relaxed_sys(word_at(a.mirror, CONSUMER_EMPTY_POLLS), empty_polls);
    st_relaxed_sys(word_at(a.mirror, CONSUMER_LAPS), laps);
    st_relaxed_sys(word_at(a.mirror, CONSUMER_READY_FROM), from);
    st_relaxed_sys(word_at(a.mirror, CONSUMER_READY_TO), end);
    st_relaxed_sys(word_at(a.mirror, CONSUMER_VALID_FROM), valid_from);
    st_relaxed_sys(word_at(a.mirror, CONSUMER_OBSERVED_PUBLISH), published);
    st_release_sys(word_at(a.mirror, CONSUMER_ROUND), round);
}

}  // namespace

// Takes frames from..to the launcher saw published. Each block's thread 0 does one ld.acquire.sys of
// publish_seq and shares it (one cross-device read per block; a one-block launch, the usual case, makes
// one per round). Blocks copy their share of the ready slots, each up to its own value, into the local
// ring; the last block clips the round to the smallest value any block acquired (no agreement round trip
// before the copy: device::acquire_published's is for kernels that cannot clip), validates and writes
// counters and the descriptor.
extern "C" __global__ void __launch_bounds__(256) seqlink_consume(const ConsumeArgs a, uint64_t from, uint64_t to,
        uint64_t round) {
    const grid::RingShape r = device::ring_shape(a);
    uint64_t published = device::detail::acquire_published_by_block(a);
    uint64_t end = min(to, published);
    if (a.local_ring != 0 && end >= from) {
        if (a.lapping) {
            grid::copy_frames<true, false>(a.ring, a.local_ring, from, end, r);
        } else {
            grid::copy_frames<false, false>(a.ring, a.local_ring, from, end, r);
        }
    }
    if (a.lapping) {
        fence_acq_rel_sys();  // each thread: its data reads stay before the writer_busy check
    }
    if (gridDim.x > 1) {
        __shared__ uint64_t s_min;
        Scratch* scratch = reinterpret_cast<Scratch*>(a.scratch);
        if (threadIdx.x == 0) {
            atomicMin(reinterpret_cast<unsigned long long*>(&scratch->min_sequence), static_cast<unsigned long long>(published));
        }
        if (!grid::last_block_arrives(&scratch->arrivals)) {
            return;
        }
        if (threadIdx.x == 0) {
            // every block copied at least up to the smallest value any block acquired
            s_min = ld_relaxed_sys(&scratch->min_sequence);
            st_relaxed_sys(&scratch->min_sequence, ~0ull);
        }
        __syncthreads();
        published = s_min;
        end = min(to, published);
    } else {
        __syncthreads();
    }
    finish_round(a, from, end, published, round, r);
}
