// seqlink_device.cuh: a seqlink channel from inside your own kernels. Shipped in the seqlink-kernels
// jar (classpath folder io/seqlink/cuda/include/, with the headers it includes); docs/device-kernels.md
// shows a producer and a consumer kernel and the Java call that launches them with the channel's handles.
//
//   producer kernel   write frames first.. into payload(a, s), their lengths with set_length(a, s, n),
//                     then, as the kernel's last act and from EVERY thread of every block,
//                     publish_at_end(a, count): the one release-ordered publish of the batch, with the
//                     stamps, writer_busy, doorbells and host mirror the channel's publish step writes.
//   consumer kernel   begin with acquire_published(c) from every thread (thread 0 of each block makes
//                     the one acquire read of publish_seq; the blocks of a grid agree on one value), read
//                     the frames up to the value it returns, and end with acknowledge_at_end(c, last)
//                     from every thread when no other step acknowledges.
//   device listener   (DeviceFrameHandler: kernels the channel's own consume step precedes on the stream)
//                     round_frames(descriptor, first, last, &from, &to): the frames the round took; an
//                     armed round's may be none. A listener that acknowledges in its kernel ends the round's
//                     last kernel with acknowledge_taken_at_end(descriptor, acknowledgement, arrivals).
//
// `a` and `c` are the channel's handles, by value (seqlink::PublishArgs, seqlink::ConsumeArgs), as the
// Java call that launches your kernel passes them. The shipped subset: publish_at_end serves channels
// without push consumers (PEER_ATOMIC, SAME_DEVICE); with PEER_COPY or HOST_STAGED consumers write the
// frames in your kernel and let the channel's publish step, which copies them to the replicas, follow.
// The channel's own steps (publish.cu, consume.cu, ack.cu) are written with these same functions.
//
// Ordering, once per batch (docs/memory-model.md names every edge):
//   fence.acq_rel.sys                 frames, stamps and replica copies before everything below
//   red.relaxed.sys.add publish_seq   the publish: with the fence, a release add
//   st.relaxed.sys writer_busy, replica publish_seq / writer_busy
//   fence.acq_rel.sys                 writer_busy before any later frame write; the add before the doorbells
//                                     and the mirror (the doorbells' release: a wait that passes finds the add)
//   st.relaxed.sys doorbells, mirror  the consumer streams' waits and the host learn of the batch last
// Two MEMBAR.ALL.SYS per batch, whatever the number of replicas.
#pragma once

#include <cstdint>

#include "seqlink_args.cuh"
#include "seqlink_grid.cuh"
#include "seqlink_layout.cuh"
#include "seqlink_sync.cuh"

namespace seqlink {
namespace device {

__host__ __device__ __forceinline__ grid::RingShape ring_shape(const PublishArgs& a) {
    return grid::RingShape{a.slots, a.stride, a.slot_bytes};
}

__host__ __device__ __forceinline__ grid::RingShape ring_shape(const ConsumeArgs& c) {
    return grid::RingShape{c.slots, c.stride, c.slot_bytes};
}

// ---- producer ---------------------------------------------------------------------------------------

// The sequence the next publish starts at. The producer's own word, written only by earlier publishes
// of its stream: a strong read sees the last one. Valid until this kernel publishes.
__device__ __forceinline__ uint64_t first_unpublished(const PublishArgs& a) {
    return ld_relaxed_sys(word_at(a.control, layout::CONTROL_PUBLISH_SEQ)) + 1;
}

// Where frame s's payload goes in the producer's ring.
__device__ __forceinline__ uint8_t* payload(const PublishArgs& a, uint64_t s) {
    return reinterpret_cast<uint8_t*>(a.ring + grid::slot_offset(s, ring_shape(a)) + layout::SLOT_HEADER_BYTES);
}

// Records frame s's length in its slot header (plain store: the publish orders it).
__device__ __forceinline__ void set_length(const PublishArgs& a, uint64_t s, uint64_t length) {
    *word_at(a.ring, grid::slot_offset(s, ring_shape(a)) + layout::SLOT_LENGTH) = length;
}

namespace detail {

// Stamps the headers of first..last with their sequences, and copies each length from the staging ring
// when the handle names one; one lane per frame, plain stores (the publish tail orders them).
__device__ inline void stamp_frames(const PublishArgs& a, uint64_t first, uint64_t last) {
    const grid::RingShape r = ring_shape(a);
    for (uint64_t s = first + threadIdx.x; s <= last; s += blockDim.x) {
        const uint64_t off = grid::slot_offset(s, r);
        *word_at(a.ring, off + layout::SLOT_STAMP) = s;
        if (a.staging != 0) {
            *word_at(a.ring, off + layout::SLOT_LENGTH) = *word_at(a.staging, off + layout::SLOT_LENGTH);
        }
    }
}

// The publish of first..last by ONE thread, after every write of the batch (frames, stamps, replica
// copies) is ordered before it: by stream order, bar.sync, or the grid's arrival counter.
__device__ inline void publish_tail(const PublishArgs& a, uint64_t first, uint64_t last) {
    fence_acq_rel_sys();
    red_relaxed_sys_add(word_at(a.control, layout::CONTROL_PUBLISH_SEQ), last - first + 1);
    const uint64_t writer_busy = last + a.max_batch;
    st_relaxed_sys(word_at(a.control, layout::CONTROL_WRITER_BUSY), writer_busy);
    for (uint64_t t = 0; t < a.push_count; t++) {
        // replicas: single-writer stores into the consumer's memory, released by the same fence
        st_relaxed_sys(word_at(a.push_control[t], layout::CONTROL_PUBLISH_SEQ), last);
        st_relaxed_sys(word_at(a.push_control[t], layout::CONTROL_WRITER_BUSY), writer_busy);
    }
    fence_acq_rel_sys();
    if (a.doorbells != 0) {
        // after the fence, which orders the add before every doorbell store (a consumer stream whose wait
        // passes on doorbell s finds publish_seq >= s by its acquire read: no early wake); not ordered
        // before the mirror store below, and no need: the host arms s only after it saw the mirror at
        // s - 1, which a later batch stored (s - 1 and the last lap's s - n never share a batch, n = 2 x
        // slots > max_batch), after its own first fence, so the last lap's store to word s % n landed
        for (uint64_t s = first; s <= last; s++) {
            st_relaxed_sys(word_at(a.doorbells, (s % a.doorbell_count) * 8), s);
        }
    }
    st_relaxed_sys(word_at(a.mirror, layout::CONTROL_PUBLISH_SEQ), last);
}

}  // namespace detail

// Publishes the next `count` frames (1 <= count <= max_batch), whose data this kernel (and earlier work
// on its stream) wrote. Call from every thread of every block as the kernel's last act: the last block
// to arrive stamps the headers and one of its threads publishes. A grid of more than one block needs the
// handle's scratch line (the Java handles always carry one). No thread waits for another block.
__device__ inline void publish_at_end(const PublishArgs& a, uint64_t count) {
    if (!grid::sole_or_last_block(&reinterpret_cast<Scratch*>(a.scratch)->arrivals)) {
        return;
    }
    __shared__ uint64_t s_first;
    if (threadIdx.x == 0) {
        s_first = first_unpublished(a);
    }
    __syncthreads();
    const uint64_t first = s_first;
    detail::stamp_frames(a, first, first + count - 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        detail::publish_tail(a, first, first + count - 1);
    }
}

// ---- consumer ---------------------------------------------------------------------------------------

namespace detail {

// Thread 0 of this block reads publish_seq ONCE with acquire ordering and shares it through shared
// memory; the barrier hands value and ordering to every thread of the block. The block's own value:
// blocks of one grid may read different ones (the consume step copies to its own and clips the round to
// the grid's minimum; a kernel that does not should call acquire_published).
__device__ inline uint64_t acquire_published_by_block(const ConsumeArgs& c) {
    __shared__ uint64_t s_published;
    if (threadIdx.x == 0) {
        s_published = ld_acquire_sys(word_at(c.control, layout::CONTROL_PUBLISH_SEQ));
    }
    __syncthreads();
    return s_published;
}

}  // namespace detail

// The consumer's first act, from every thread of every block: the grid's one value of publish_seq.
// Thread 0 of each block reads publish_seq ONCE with acquire ordering; in a grid of more than one block
// the blocks then agree on one of the values read (grid::first_value_of_grid over the handle's scratch
// line), so every block takes the same frames and a sequence the kernel acknowledges was read by all of
// it. A block whose own read saw less takes a value it did not acquire itself: its acq_rel swap orders
// it after the winner's acquire read, and so after the publish that read synchronised with. The barrier
// hands value and ordering to every thread of the block; thread 0 then counts the block as a taker (the
// last resets the line) while the others go on. Once per launch; no block waits for another.
__device__ inline uint64_t acquire_published(const ConsumeArgs& c) {
    __shared__ uint64_t s_published;
    Scratch* scratch = reinterpret_cast<Scratch*>(c.scratch);
    if (threadIdx.x == 0) {
        uint64_t published = ld_acquire_sys(word_at(c.control, layout::CONTROL_PUBLISH_SEQ));
        if (gridDim.x > 1) {
            published = grid::first_value_of_grid(&scratch->grid_published, published);
        }
        s_published = published;
    }
    __syncthreads();
    if (gridDim.x > 1 && threadIdx.x == 0) {
        grid::took_first_value(&scratch->grid_published, &scratch->acquired);
    }
    return s_published;
}

// Frame s's payload and length in the ring the consumer reads (the producer's, or its replica).
__device__ __forceinline__ const uint8_t* payload(const ConsumeArgs& c, uint64_t s) {
    return reinterpret_cast<const uint8_t*>(c.ring + grid::slot_offset(s, ring_shape(c)) + layout::SLOT_HEADER_BYTES);
}

__device__ __forceinline__ uint64_t length(const ConsumeArgs& c, uint64_t s) {
    const int64_t raw = static_cast<int64_t>(*word_at(c.ring, grid::slot_offset(s, ring_shape(c)) + layout::SLOT_LENGTH));
    return raw < 0 ? 0 : min(static_cast<uint64_t>(raw), c.slot_bytes);
}

// Acknowledges every frame up to `sequence` from one thread, after its reads (and those the barrier
// or stream order put before it): one release store into the host mirror the producer's backpressure
// reads.
__device__ __forceinline__ void acknowledge(uint64_t mirror, uint64_t sequence) {
    st_release_sys(word_at(mirror, layout::CONSUMER_CONSUMED_SEQ), sequence);
}

// ---- a device listener's kernels (DeviceFrames) ---------------------------------------------------

// The frames of first..last the round's consume step took, from the consumer's device block
// (DeviceFrames.descriptor()): from = max(first, valid_from), to = min(last, ready_to); false when none.
// A listener that takes armed rounds (DeviceFrameHandler.acceptsArmedRounds) must call it and do nothing
// when it returns false: an armed round released without its frame has ready_to < first. Ordering: stream
// order only. The consume step wrote the words earlier on this kernel's stream, and kernel boundaries of
// one stream make them visible (CUDA programming guide); strong relaxed loads, no acquire: nothing
// races them. Read it from any thread; valid until the next consume step on the stream.
__device__ __forceinline__ bool round_frames(uint64_t descriptor, uint64_t first, uint64_t last, uint64_t* from,
        uint64_t* to) {
    const uint64_t valid_from = ld_relaxed_sys(word_at(descriptor, layout::CONSUMER_VALID_FROM));
    const uint64_t ready_to = ld_relaxed_sys(word_at(descriptor, layout::CONSUMER_READY_TO));
    *from = max(first, valid_from);
    *to = min(last, ready_to);
    return *from <= *to;
}

// Acknowledges what the consume step before it on the stream took (the device block's ready_to, read in
// stream order as round_frames reads it), from one thread: one release store into the host mirror, after
// the reads stream order put before it. Safe to enqueue before the frames exist: a round that took nothing
// has ready_to = from - 1, the last acknowledgement (the host starts a round only at the frame after it).
__device__ __forceinline__ void acknowledge_taken(uint64_t descriptor, uint64_t mirror) {
    acknowledge(mirror, ld_relaxed_sys(word_at(descriptor, layout::CONSUMER_READY_TO)));
}

// The acknowledgement of a round from a device listener's own LAST kernel of the round
// (DeviceFrameHandler.acknowledgesInKernel: the channel then enqueues no ack step, one step fewer per
// round): every thread of every block calls it as the kernel's last act, after its reads of the round's
// frames; the last block to arrive (over `arrivals`, a Scratch line's counter this kernel uses for nothing
// else) acknowledges what the descriptor says the round took, from one thread: one release store into the
// acknowledgement word (DeviceFrames.acknowledgement(), the consumer's host mirror). Ordering: each block's
// reads before its acq_rel arrival (bar.sync, then the device-scope add), the last block's acquire of the
// count before its release store, so no frame is acknowledged before every block has read it. A round that
// took nothing writes READY_TO = from - 1, the last acknowledgement: nothing moves.
__device__ inline void acknowledge_taken_at_end(uint64_t descriptor, uint64_t acknowledgement, uint32_t* arrivals) {
    if (grid::sole_or_last_block(arrivals) && threadIdx.x == 0) {
        acknowledge_taken(descriptor, acknowledgement);
    }
}

// The consumer's last act when nothing else acknowledges: every thread of every block calls it after
// its reads of the frames, passing at most what acquire_published returned; the last block to arrive
// acknowledges the SMALLEST sequence any block passed (with acquire_published's agreement they pass the
// same one), so no frame is acknowledged that a block has not read. A grid of more than one block needs
// the handle's scratch line.
__device__ inline void acknowledge_at_end(const ConsumeArgs& c, uint64_t sequence) {
    if (gridDim.x == 1) {
        __syncthreads();
        if (threadIdx.x == 0) {
            acknowledge(c.mirror, sequence);
        }
        return;
    }
    Scratch* scratch = reinterpret_cast<Scratch*>(c.scratch);
    unsigned long long* smallest = reinterpret_cast<unsigned long long*>(&scratch->min_sequence);
    if (threadIdx.x == 0) {
        atomicMin(smallest, static_cast<unsigned long long>(sequence));  // before this block's arrival (release)
    }
    if (grid::last_block_arrives(&scratch->arrivals) && threadIdx.x == 0) {
        acknowledge(c.mirror, atomicExch(smallest, ~0ull));  // read and reset for the next launch
    }
}

}  // namespace device
}  // namespace seqlink
