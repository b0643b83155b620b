// seqlink_layout.cuh: byte offsets of the shared memory layouts, the same numbers as the Java classes
// io.seqlink.layout.ControlBlock, ConsumerBlock and SlotHeader (their javadoc draws them).
// io.seqlink.gpu.KernelLayoutContractTest parses this file and compares every constant with Java.
#pragma once

#include <cstdint>

namespace seqlink {
namespace layout {

// ControlBlock: 64 bytes of words in a 128-byte line of its own. The host mirror holds publish_seq
// only; replicas hold both words.
constexpr uint64_t CONTROL_PUBLISH_SEQ = 0;
constexpr uint64_t CONTROL_WRITER_BUSY = 8;
constexpr uint64_t CONTROL_BYTES = 128;

// ConsumerBlock: line 0 cursor, line 1 descriptor and reports. consumed_seq, round, host_round and
// protocol_error are written to the host mirror only (nothing on a device reads them); arm_cancel is the one
// word the host writes (the mirror's is its record, the device block's what kernels read).
constexpr uint64_t CONSUMER_CONSUMED_SEQ = 0;
constexpr uint64_t CONSUMER_READS = 8;
constexpr uint64_t CONSUMER_EMPTY_POLLS = 16;
constexpr uint64_t CONSUMER_LAPS = 24;
constexpr uint64_t CONSUMER_READY_FROM = 128;
constexpr uint64_t CONSUMER_READY_TO = 136;
constexpr uint64_t CONSUMER_VALID_FROM = 144;
constexpr uint64_t CONSUMER_OBSERVED_PUBLISH = 152;
constexpr uint64_t CONSUMER_ROUND = 160;
constexpr uint64_t CONSUMER_HOST_ROUND = 168;
// Ordinary (not armed) rounds that took fewer frames than the launcher asked for (end < to): the launcher
// only asks for frames it saw in the producer's mirror, so this stays 0; the runtime fails the consumer if not.
constexpr uint64_t CONSUMER_SHORT_ROUNDS = 176;
// Host-written: the highest armed round number the host cancelled (ArmedRound.cancel: a monotonic raise of the
// mirror's word, stored into the device block's by Device.storeWord before its doorbell raise). An armed round r
// reads the block's word after its acquire read of publish_seq and takes nothing when it is >= r.
constexpr uint64_t CONSUMER_ARM_CANCEL = 184;
// 0, or why a round kernel or an in-kernel ack failed its round: PROTOCOL_SITE_* << PROTOCOL_SITE_SHIFT
// | the number of the round whose launch found its grid counter left by another launch (a block of it returned
// before take_round, end_round or acknowledge_taken_at_end). The runtime fails the consumer if it is not 0.
constexpr uint64_t CONSUMER_PROTOCOL_ERROR = 192;
constexpr uint64_t CONSUMER_BYTES = 256;

constexpr uint64_t PROTOCOL_SITE_SHIFT = 56;
constexpr uint64_t PROTOCOL_ROUND_MASK = (1ull << PROTOCOL_SITE_SHIFT) - 1;
constexpr uint64_t PROTOCOL_SITE_TAKE_ROUND = 1;
constexpr uint64_t PROTOCOL_SITE_END_ROUND = 2;
constexpr uint64_t PROTOCOL_SITE_ACKNOWLEDGE_TAKEN = 3;

// SlotHeader: in front of every slot's payload.
constexpr uint64_t SLOT_STAMP = 0;
constexpr uint64_t SLOT_LENGTH = 8;
constexpr uint64_t SLOT_HEADER_BYTES = 64;

// Every allocation and every slot starts on a 128-byte line.
constexpr uint64_t LINE_BYTES = 128;

}  // namespace layout

// A 64-bit word at a byte offset of a device address.
__host__ __device__ __forceinline__ uint64_t* word_at(uint64_t base, uint64_t offset) {
    return reinterpret_cast<uint64_t*>(base + offset);
}

}  // namespace seqlink
