// ack.cu: the ack steps of a consumer (a given sequence, or what the descriptor says was taken) and the
// stream-ordered word write (their Java twins: io.seqlink.backend.emulated.EmulatedAckKernel and
// EmulatedDevice.writeValue).
#include "seqlink_device.cuh"
#include "seqlink_grid.cuh"
#include "seqlink_sync.cuh"

using namespace seqlink;

// Acknowledges every frame up to `sequence` after the listener's work (stream order): one release store
// of consumed_seq into the consumer's host mirror, where the producer's backpressure reads it.
extern "C" __global__ void seqlink_ack(uint64_t mirror, uint64_t sequence) {
    if (grid::global_thread() == 0) {
        device::acknowledge(mirror, sequence);
    }
}

// The ack of an armed round, enqueued before its frame exists: acknowledges what the consume step before
// it on the stream took (the device block's ready_to, stream order), one release store of consumed_seq.
// A round released without its frame wrote ready_to = from - 1, the last acknowledgement: nothing moves.
extern "C" __global__ void seqlink_ack_ready(uint64_t block, uint64_t mirror) {
    if (grid::global_thread() == 0) {
        device::acknowledge_taken(block, mirror);
    }
}

// One release store of a word, after all earlier work of the stream (cuStreamWriteValue64's fallback
// where 64-bit stream memory operations are unsupported).
extern "C" __global__ void seqlink_write_value(uint64_t address, uint64_t value) {
    if (grid::global_thread() == 0) {
        st_release_sys(reinterpret_cast<uint64_t*>(address), value);
    }
}
