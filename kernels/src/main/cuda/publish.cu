// publish.cu: the publish step of a channel (its Java twin: io.seqlink.backend.emulated.EmulatedPublishKernel).
//
//   seqlink_publish_init  writer_busy = max_batch on the control block and every replica, before anything
//                         is claimed, so a lapping reader never trusts a slot the producer may be writing
//   seqlink_publish       pushes to replicas (when there are any), stamps, then the publish tail of
//                         seqlink_device.cuh: one release add, writer_busy, replica words, doorbells, mirror
#include "seqlink_args.cuh"
#include "seqlink_device.cuh"
#include "seqlink_grid.cuh"
#include "seqlink_layout.cuh"
#include "seqlink_sync.cuh"

using namespace seqlink;
using namespace seqlink::layout;

// One thread. The host synchronises on it before the first claim, so relaxed stores suffice.
extern "C" __global__ void seqlink_publish_init(const PublishArgs a) {
    if (grid::global_thread() != 0) {
        return;
    }
    st_relaxed_sys(word_at(a.control, CONTROL_WRITER_BUSY), a.max_batch);
    for (uint64_t t = 0; t < a.push_count; t++) {
        st_relaxed_sys(word_at(a.push_control[t], CONTROL_WRITER_BUSY), a.max_batch);
    }
    fence_acq_rel_sys();
}

// Publishes the next `count` frames, whose data earlier work on this stream wrote. Without push targets:
// one warp, one thread publishes. With push targets: a grid copies the frames into every replica
// (writing each copied header's stamp and length itself, since the ring's own headers are being stamped
// concurrently), and the last block to finish publishes. The launcher zeroes Scratch at bind.
extern "C" __global__ void __launch_bounds__(256) seqlink_publish(const PublishArgs a, uint64_t count) {
    if (a.push_count != 0) {
        __shared__ uint64_t s_first;
        if (threadIdx.x == 0) {
            s_first = device::first_unpublished(a);
        }
        __syncthreads();
        const grid::RingShape r = device::ring_shape(a);
        for (uint64_t t = 0; t < a.push_count; t++) {
            grid::copy_frames<false, true>(a.ring, a.push_ring[t], s_first, s_first + count - 1, r, a.staging);
        }
    }
    device::publish_at_end(a, count);
}
