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
//   round kernel      (DeviceFrameHandler.consumesInKernel: no consume step, no ack step) begins with
//                     take_round(c, first, last, round, armed) from every thread, reads the frames it took
//                     in place, and ends with end_round(c, taken) from every thread: descriptor, counters,
//                     the acknowledgement, the mirror's ROUND last.
//   device listener   (DeviceFrameHandler: kernels the channel's own consume step precedes on the stream)
//                     round_frames(descriptor, first, last, &from, &to): the frames the round took; an
//                     armed round's may be none. Skip a frame for which abandoned(c, s) holds (padding). A
//                     listener that acknowledges in its kernel ends the round's last kernel with
//                     acknowledge_taken_at_end(descriptor, acknowledgement, arrivals, round).
//   every block       of a round kernel or an acknowledging kernel calls those functions once per launch: a
//                     block that returns early leaves the round's grid counter counted, and the next round's
//                     launch then fails its round (nothing taken, nothing acknowledged, the consumer's
//                     PROTOCOL_ERROR word set, and the runtime fails the consumer naming the rule).
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

// The bound an armed round may take frames to, from ONE thread right after its acquire read of publish_seq
// returned `published`: `published`, or from - 1 (nothing) when the host cancelled the round: the consumer
// block's ARM_CANCEL (host-written, monotonic: ArmedRound.cancel stores the round's number there, through
// Device.storeWord, done before it raises the doorbell) is >= round. One ld.relaxed.sys of the consumer's own
// device memory, in program order after the acquire, so it sees the mark of every cancel that returned before
// the publish of any frame the acquire read saw (memory-model.md, "The cancel word"); made only when the round
// would take something. Device memory, not the host mirror: every block of a round kernel reads it, and
// uncached reads of one pinned host word queue up. Not armed: `published` (nothing cancels an ordinary round,
// and it reads nothing more).
__device__ __forceinline__ uint64_t round_bound(const ConsumeArgs& c, uint64_t from, uint64_t published, uint64_t round,
        bool armed) {
    if (armed && published >= from && ld_relaxed_sys(word_at(c.block, layout::CONSUMER_ARM_CANCEL)) >= round) {
        return from - 1;
    }
    return published;
}

// Thread 0 of this block reads publish_seq ONCE with acquire ordering and shares it through shared
// memory; the barrier hands value and ordering to every thread of the block. The block's own value:
// blocks of one grid may read different ones (the consume step copies to its own and clips the round to
// the grid's minimum, then reads an armed round's cancel word once: round_bound; a kernel that does not
// clip should call acquire_published).
__device__ inline uint64_t acquire_published_by_block(const ConsumeArgs& c) {
    __shared__ uint64_t s_published;
    if (threadIdx.x == 0) {
        s_published = ld_acquire_sys(word_at(c.control, layout::CONTROL_PUBLISH_SEQ));
    }
    __syncthreads();
    return s_published;
}

// The consumer mirror's PROTOCOL_ERROR value for round `round`'s failure at `site` (layout::PROTOCOL_SITE_*).
__device__ __forceinline__ uint64_t protocol_error(uint64_t site, uint64_t round) {
    return site << layout::PROTOCOL_SITE_SHIFT | (round & layout::PROTOCOL_ROUND_MASK);
}

// Records a round's failure in the consumer's host mirror (one thread): a strong store; the runtime's watchdog
// reads it, and a round kernel's ROUND release after it lands the failed round.
__device__ __forceinline__ void report_protocol_error(uint64_t mirror, uint64_t error) {
    st_relaxed_sys(word_at(mirror, layout::CONSUMER_PROTOCOL_ERROR), error);
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

// Whether frame s is padding: the sequence of a claim the producer gave back (PublishChannel.abandon(), or
// a producer thread that died holding it), published so sequences stay contiguous. Its length word is
// negative (length() says 0). A device listener skips it: no work, no result; the round's acknowledgement
// covers it like any frame, and the host counts it as padding, not delivered.
__device__ __forceinline__ bool abandoned(const ConsumeArgs& c, uint64_t s) {
    return static_cast<int64_t>(*word_at(c.ring, grid::slot_offset(s, ring_shape(c)) + layout::SLOT_LENGTH)) < 0;
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
// frames; the last block to arrive (over `arrivals`, a zeroed 64-bit word of device memory this kernel uses
// for nothing else; a grid of one block touches none, so it may be null) acknowledges what the descriptor
// says the round took, from one thread: one release store into the acknowledgement word
// (DeviceFrames.acknowledgement(), the consumer's host mirror). `round` is DeviceFrames.round(): the counter is
// tagged with it (grid::count_in_round), so a launch that finds counts an earlier launch left (one of its blocks
// returned before this call) acknowledges nothing and sets the mirror's PROTOCOL_ERROR, which fails the
// consumer. Ordering: each block's reads before its acq_rel arrival (bar.sync, then the device-scope add), the
// last block's acquire of the count before its release store, so no frame is acknowledged before every block
// has read it. A round that took nothing writes READY_TO = from - 1, the last acknowledgement: nothing moves.
__device__ inline void acknowledge_taken_at_end(uint64_t descriptor, uint64_t acknowledgement, uint64_t* arrivals,
        uint64_t round) {
    const grid::RoundArrival arrival = grid::block_ends_round(arrivals, round);
    if (threadIdx.x != 0) {
        return;
    }
    if (arrival == grid::RoundArrival::LAST) {
        acknowledge_taken(descriptor, acknowledgement);
    } else if (arrival == grid::RoundArrival::LEFTOVER && blockIdx.x == 0) {
        detail::report_protocol_error(acknowledgement, detail::protocol_error(layout::PROTOCOL_SITE_ACKNOWLEDGE_TAKEN, round));
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

// ---- the consume round's end, shared by the consume step and a kernel that consumes in place ---------

namespace detail {

// The end of a consume round over from..end (end < from: it took nothing), run by EVERY thread of the one
// (or last-arriving) block, after every block's reads of the frames: validation of the stamps read at
// `source` (the local ring in copy mode, the ring read in place otherwise), counters (with `short_round`, an
// ordinary round that took less than the launcher asked for, counted in SHORT_ROUNDS), the descriptor into
// the device block and the host mirror, and with `acknowledges` the acknowledgement of `end`; the mirror's
// ROUND last. Ordering: the block's barriers put every thread's reads before thread 0's stores; thread 0's
// st.release.sys of consumed_seq (when it acknowledges) and then of ROUND release them, so a host that
// acquires ROUND = round finds the descriptor, the counters and the acknowledgement.
__device__ inline void finish_consume_round(const ConsumeArgs& a, uint64_t from, uint64_t end, uint64_t published,
        uint64_t round, uint64_t source, bool acknowledges, bool short_round) {
    const grid::RingShape r = ring_shape(a);
    __shared__ uint64_t s_valid_from;
    __shared__ unsigned long long s_bad;  // highest sequence whose stamp did not match (0: none)
    const bool any = end >= from;
    if (threadIdx.x == 0) {
        uint64_t valid_from = from;
        if (any && a.lapping) {
            // Every thread's data reads are ordered before this read by its own fence.acq_rel.sys and the
            // barrier (or arrival counter) that brought us here: no further fence is needed.
            const int64_t writer_busy = static_cast<int64_t>(ld_acquire_sys(word_at(a.control, layout::CONTROL_WRITER_BUSY)));
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
        // The stamps of what was read must match. Strong loads: other blocks may have written `source`.
        for (uint64_t s = s_valid_from + threadIdx.x; s <= end; s += blockDim.x) {
            if (ld_relaxed_sys(word_at(source, grid::slot_offset(s, r) + layout::SLOT_STAMP)) != s) {
                atomicMax(&s_bad, static_cast<unsigned long long>(s));
            }
        }
    }
    __syncthreads();
    if (threadIdx.x != 0) {
        return;
    }
    uint64_t reads = ld_relaxed_sys(word_at(a.block, layout::CONSUMER_READS));
    uint64_t empty_polls = ld_relaxed_sys(word_at(a.block, layout::CONSUMER_EMPTY_POLLS));
    uint64_t laps = ld_relaxed_sys(word_at(a.block, layout::CONSUMER_LAPS));
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
    if (short_round) {
        // never expected: the launcher asks only for frames the producer's mirror showed, which is stored
        // after the publish's fences (memory-model.md P9); the runtime fails the consumer when it is not 0
        const uint64_t shorts = ld_relaxed_sys(word_at(a.block, layout::CONSUMER_SHORT_ROUNDS)) + 1;
        st_relaxed_sys(word_at(a.block, layout::CONSUMER_SHORT_ROUNDS), shorts);
        st_relaxed_sys(word_at(a.mirror, layout::CONSUMER_SHORT_ROUNDS), shorts);
    }
    // The device block: counters this step reads next time, and the descriptor a device listener's
    // kernels read in stream order (no round word: nothing on the device waits for one).
    st_relaxed_sys(word_at(a.block, layout::CONSUMER_READS), reads);
    st_relaxed_sys(word_at(a.block, layout::CONSUMER_EMPTY_POLLS), empty_polls);
    st_relaxed_sys(word_at(a.block, layout::CONSUMER_LAPS), laps);
    st_relaxed_sys(word_at(a.block, layout::CONSUMER_READY_FROM), from);
    st_relaxed_sys(word_at(a.block, layout::CONSUMER_READY_TO), end);
    st_relaxed_sys(word_at(a.block, layout::CONSUMER_VALID_FROM), valid_from);
    st_relaxed_sys(word_at(a.block, layout::CONSUMER_OBSERVED_PUBLISH), published);
    // The host mirror: posted writes, round last with release so a host that acquires it sees the rest
    // (and, through the acquire read of this round, the frames of a host-memory replica).
    st_relaxed_sys(word_at(a.mirror, layout::CONSUMER_READS), reads);
    st_relaxed_sys(word_at(a.mirror, layout::CONSUMER_EMPTY_POLLS), empty_polls);
    st_relaxed_sys(word_at(a.mirror, layout::CONSUMER_LAPS), laps);
    st_relaxed_sys(word_at(a.mirror, layout::CONSUMER_READY_FROM), from);
    st_relaxed_sys(word_at(a.mirror, layout::CONSUMER_READY_TO), end);
    st_relaxed_sys(word_at(a.mirror, layout::CONSUMER_VALID_FROM), valid_from);
    st_relaxed_sys(word_at(a.mirror, layout::CONSUMER_OBSERVED_PUBLISH), published);
    if (acknowledges && any) {
        // a round that took nothing acknowledges nothing: the last acknowledgement stays (it is from - 1)
        st_release_sys(word_at(a.mirror, layout::CONSUMER_CONSUMED_SEQ), end);
    }
    st_release_sys(word_at(a.mirror, layout::CONSUMER_ROUND), round);
}

}  // namespace detail

// ---- a device listener whose one kernel is the whole round (DeviceFrameHandler.consumesInKernel) ----

// What take_round took: frames from..end (end < from: none), the bound the grid agreed on, and the round
// as the launch was given it (end_round's arguments).
struct TakenRound {
    uint64_t from;
    uint64_t end;
    uint64_t published;       // publish_seq as the grid's acquire read returned it (from - 1: a cancelled armed round)
    uint64_t to;              // DeviceFrames.last(): what the launcher asked for
    uint64_t round;           // DeviceFrames.round()
    bool armed;               // DeviceFrames.armed()
    uint64_t protocol_error;  // not 0: the agreement's counter held another launch's counts; nothing taken
};

// The round kernel's first act, from EVERY thread of every block (the channel enqueued no consume step).
// Thread 0 of each block: one ld.acquire.sys of publish_seq; for an armed round, the host's cancel word
// after it (detail::round_bound: a cancelled round's bound is first - 1); in a grid of more than one block,
// the agreement on the first block's bound (grid::first_value_of_grid over the handle's scratch line
// round_published) and the block's count over round_takers, tagged with `round` (grid::count_in_round): a
// launch that finds counts another launch left takes nothing and reports it (end_round sets the mirror's
// PROTOCOL_ERROR). The barrier then hands the bound and its ordering to every thread. The round's frames are
// first..end, end = min(last, bound): read them where they are (payload(c, s), length(c, s)); the acquire
// read orders those reads after the publish. first, last, round, armed: DeviceFrames.first(), last(), round(),
// armed(). Once per launch; no block waits for another.
__device__ inline TakenRound take_round(const ConsumeArgs& c, uint64_t first, uint64_t last, uint64_t round, bool armed) {
    __shared__ uint64_t s_bound;
    __shared__ uint64_t s_error;
    Scratch* scratch = reinterpret_cast<Scratch*>(c.scratch);
    if (threadIdx.x == 0) {
        uint64_t bound = detail::round_bound(c, first, ld_acquire_sys(word_at(c.control, layout::CONTROL_PUBLISH_SEQ)), round,
                armed);
        uint64_t error = 0;
        if (gridDim.x > 1) {
            bound = grid::first_value_of_grid(&scratch->round_published, bound);
            const grid::RoundArrival taker = grid::count_in_round(&scratch->round_takers, round, gridDim.x);
            if (taker == grid::RoundArrival::LEFTOVER) {
                error = detail::protocol_error(layout::PROTOCOL_SITE_TAKE_ROUND, round);
            } else if (taker == grid::RoundArrival::LAST) {
                st_relaxed_sys(&scratch->round_published, 0);  // after every block's swap (each swapped, then counted)
            }
        }
        s_bound = bound;
        s_error = error;
    }
    __syncthreads();
    const uint64_t error = s_error;
    return TakenRound{first, error != 0 ? first - 1 : min(last, s_bound), s_bound, last, round, armed, error};
}

// The round kernel's last act, from EVERY thread of every block, after its reads of the frames: the last
// block to arrive (over the scratch line's round_arrivals, tagged with taken.round; no block waits) ends the
// round as the consume step does (detail::finish_consume_round over the frames in place: stamps, counters,
// descriptor, mirror) and acknowledges taken.end with one st.release.sys of the mirror's consumed_seq BEFORE
// the mirror's ROUND st.release.sys: a host that sees the round landed sees the ack too. An ordinary round
// that took less than it was given (end < to: the mirror ran ahead of publish_seq) counts in SHORT_ROUNDS.
// Ordering: each block's reads before its bar.sync and acq_rel arrival; the last block's acquire of the
// count before thread 0's release stores, so nothing is acknowledged before every block read it. A round
// that took nothing acknowledges nothing. A launch whose take_round or end_round found counts another launch
// left (a block of an earlier launch returned early) acknowledges nothing either: block 0 sets the mirror's
// PROTOCOL_ERROR and lands the round as one that took nothing.
__device__ inline void end_round(const ConsumeArgs& c, const TakenRound& taken) {
    const grid::RoundArrival arrival = grid::block_ends_round(&reinterpret_cast<Scratch*>(c.scratch)->round_arrivals,
            taken.round);
    uint64_t error = taken.protocol_error;  // take_round's, which found it first
    if (arrival == grid::RoundArrival::LEFTOVER) {
        if (blockIdx.x != 0) {
            return;
        }
        if (error == 0) {
            error = detail::protocol_error(layout::PROTOCOL_SITE_END_ROUND, taken.round);
        }
    } else if (arrival == grid::RoundArrival::NOT_LAST) {
        return;
    }
    if (error != 0) {
        if (threadIdx.x == 0) {
            detail::report_protocol_error(c.mirror, error);  // before finish's ROUND release
        }
        detail::finish_consume_round(c, taken.from, taken.from - 1, taken.published, taken.round, c.ring, true, false);
        return;
    }
    detail::finish_consume_round(c, taken.from, taken.end, taken.published, taken.round, c.ring, true,
            !taken.armed && taken.end < taken.to);
}

}  // namespace device
}  // namespace seqlink
