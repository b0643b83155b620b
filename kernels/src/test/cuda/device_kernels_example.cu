#include <cstdint>

#include "seqlink_device.cuh"

// Producer: writes the next `count` frames of `length` bytes (byte i of frame s is (s + i) & 0xFF), then
// publishes them, all from this one kernel: the one release-ordered publish of the batch at its end.
extern "C" __global__ void example_produce(const seqlink::PublishArgs channel, uint64_t count, uint64_t length) {
    const uint64_t first = seqlink::device::first_unpublished(channel);
    const uint64_t thread = blockIdx.x * blockDim.x + threadIdx.x;
    const uint64_t threads = gridDim.x * blockDim.x;
    for (uint64_t s = first; s < first + count; s++) {
        uint8_t* frame = seqlink::device::payload(channel, s);
        for (uint64_t i = thread; i < length; i += threads) {
            frame[i] = static_cast<uint8_t>(s + i);
        }
        if (thread == 0) {
            seqlink::device::set_length(channel, s, length);
        }
    }
    seqlink::device::publish_at_end(channel, count);  // every thread, last
}

// Consumer: begins with the one acquire read, adds up the bytes of frames from..to (which the host saw
// published) into *sum, and acknowledges them at its end.
extern "C" __global__ void example_consume(const seqlink::ConsumeArgs consumer, uint64_t from, uint64_t to,
        unsigned long long* sum) {
    const uint64_t published = seqlink::device::acquire_published(consumer);  // every thread, first
    const uint64_t last = min(to, published);
    const uint64_t thread = blockIdx.x * blockDim.x + threadIdx.x;
    const uint64_t threads = gridDim.x * blockDim.x;
    unsigned long long mine = 0;
    for (uint64_t s = from; s <= last; s++) {
        const uint8_t* frame = seqlink::device::payload(consumer, s);
        for (uint64_t i = thread; i < seqlink::device::length(consumer, s); i += threads) {
            mine += frame[i];
        }
    }
    atomicAdd(sum, mine);
    seqlink::device::acknowledge_at_end(consumer, last);  // every thread, last
}
