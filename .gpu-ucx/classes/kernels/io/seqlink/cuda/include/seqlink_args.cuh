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
// zeroed at bind, min_sequence set to all ones). Used only by multi-block launches; every launch leaves
// them as it found them, so the next launch on the stream (stream order) starts from the same state. The
// round_* words serve a round kernel (device::take_round, end_round) alone, apart from the consume step's
// and a free-standing consumer kernel's: their counters are tagged with the round (grid::count_in_round), so
// a launch that finds counts another launch left (a block returned early) fails its round instead of
// counting on from them.
struct Scratch {
    uint32_t arrivals;        // blocks that finished; the last one resets it to 0
    uint32_t acquired;        // device::acquire_published: blocks that took the grid's value; the last resets it
    uint64_t min_sequence;    // the smallest sequence the blocks reached: the consume step's clip to the least
                              // publish_seq a block acquired, acknowledge_at_end's ack; reset to ~0
    uint64_t acc;             // checksum: XOR of the blocks' folds; reset to 0
    uint64_t grid_published;  // device::acquire_published: 1 + the value the grid agreed on (0: none yet); reset to 0
    uint64_t round_published; // device::take_round: 1 + the bound the grid agreed on; reset to 0 by the last taker
    uint64_t round_takers;    // device::take_round: the round-tagged count of the blocks that took it; reset to 0
    uint64_t round_arrivals;  // device::end_round: the round-tagged count of the blocks that ended; reset to 0
    uint64_t pad1[9];
};
static_assert(sizeof(Scratch) == 128, "Scratch is one 128-byte line");

// seqlink_publish(PublishArgs a, uint64_t count); also the handle a user's producer kernel takes to
// publish at its end (seqlink_device.cuh)
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
                          //      (the publish step copies them into the ring); 0: the ring has them already,
                          //      always 0 in the handles a user kernel gets (it writes them: set_length)
    uint64_t doorbells;   //  80: host-mapped ring of doorbell_count words; the publish writes word
                          //      s % doorbell_count = s for each frame s it publishes, so a consumer round
                          //      armed behind cuStreamWaitValue64(word >= s) starts when s is out, and the
                          //      host can release it by writing s itself; 0: no armed consumers
    uint64_t doorbell_count;  //  88
    uint64_t push_control[MAX_PUSH_TARGETS];  //  96: replica control blocks
    uint64_t push_ring[MAX_PUSH_TARGETS];     // 224: replica rings
};
static_assert(sizeof(PublishArgs) == 352, "PublishArgs layout is shared with Java");

// seqlink_consume(ConsumeArgs a, uint64_t from, uint64_t to, uint64_t round, uint64_t armed); also the handle a
// user's consumer kernel takes to begin with the acquire read and end with the ack (seqlink_device.cuh)
struct ConsumeArgs {
    uint64_t control;     //   0: control block to acquire publish_seq from (producer's or a replica)
    uint64_t ring;        //   8: ring holding the frames (producer's or a replica)
    uint64_t local_ring;  //  16: consumer-local ring to copy into, 0 in direct mode
    uint64_t block;       //  24: consumer block (consumer device; an armed round reads its ARM_CANCEL word)
    uint64_t mirror;      //  32: consumer's host mirror
    uint64_t scratch;     //  40: Scratch on the consumer device
    uint64_t slots;       //  48
    uint64_t stride;      //  56
    uint64_t slot_bytes;  //  64
    uint64_t max_batch;   //  72
    uint64_t lapping;     //  80: 1 under latest delivery
};
static_assert(sizeof(ConsumeArgs) == 88, "ConsumeArgs layout is shared with Java");

}  // namespace seqlink
