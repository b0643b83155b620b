// consume.cu: the consume step of a consumer (its Java twin: io.seqlink.backend.emulated.EmulatedConsumeKernel).
//
//   seqlink_consume  one ld.acquire.sys of publish_seq per block (seqlink_device.cuh), an armed round's
//                    read of the host's cancel word, the copy of the ready slots into the consumer's local
//                    ring (copy mode), the lapping check under latest delivery, the stamp check, counters
//                    (an ordinary round that took less than asked: SHORT_ROUNDS) and the descriptor, mirror
//                    round last
#include "seqlink_args.cuh"
#include "seqlink_device.cuh"
#include "seqlink_grid.cuh"
#include "seqlink_layout.cuh"
#include "seqlink_sync.cuh"

using namespace seqlink;
using namespace seqlink::layout;

// Takes frames from..to the launcher saw published (armed = 1: an armed round, enqueued before its frame
// was seen; then the host may have cancelled it). Each block's thread 0 does one ld.acquire.sys of
// publish_seq and shares it (one cross-device read per block; a one-block launch, the usual case, makes one
// per round). Blocks copy their share of the ready slots, each up to its own bound, into the local ring; the
// last block clips the round to the smallest bound any block had (no agreement round trip before the copy:
// device::acquire_published's is for kernels that cannot clip), then, armed, reads the block's ARM_CANCEL
// ONCE for the grid (device::detail::round_bound: a cancelled round's bound is from - 1, it took nothing),
// validates and writes counters and the descriptor (device::detail::finish_consume_round, shared with
// device::end_round). What a cancelled round copied is a
// published frame's own bytes in slots no listener reads (the descriptor says nothing was taken; the next
// round copies them again). The read comes after the last block's acquire of every block's arrival, so it sees
// every mark a per-block read would have (memory-model.md, "The cancel word"). An ordinary round never ends
// short of `to` (the launcher saw `to` in the producer's mirror, stored after the publish's fences); one that
// does counts in SHORT_ROUNDS, which the runtime checks.
extern "C" __global__ void __launch_bounds__(256) seqlink_consume(const ConsumeArgs a, uint64_t from, uint64_t to,
        uint64_t round, uint64_t armed) {
    const grid::RingShape r = device::ring_shape(a);
    uint64_t published = device::detail::acquire_published_by_block(a);  // an armed round's cancel: once, below
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
            // every block copied at least up to the smallest bound any block had
            s_min = ld_relaxed_sys(&scratch->min_sequence);
            st_relaxed_sys(&scratch->min_sequence, ~0ull);
        }
        __syncthreads();
        published = s_min;
    } else {
        __syncthreads();
    }
    if (armed != 0) {
        __shared__ uint64_t s_bound;
        if (threadIdx.x == 0) {
            s_bound = device::detail::round_bound(a, from, published, round, true);  // the grid's one read of the cancel mark
        }
        __syncthreads();
        published = s_bound;
    }
    end = min(to, published);
    device::detail::finish_consume_round(a, from, end, published, round, a.local_ring != 0 ? a.local_ring : a.ring, false,
            armed == 0 && end < to);
}
