// bench_rig.cuh: one channel laid out as the Java SPI lays it out (control block, ring, host mirror,
// staging lengths, doorbells on the producer side; consumer block, host mirror, local ring on the consumer
// side), with every step the modes compose: the channel's own steps (publish, consume, the ack as a stream
// memory operation or a kernel), the pattern kernels a producer and a device listener run (also the listener
// that takes armed rounds, with or without acknowledging in its kernel), the fused prototypes of
// fastpath_kernels.cu, and the stream waits that pre-arm a consumer round on the device word, the host
// mirror, or a doorbell.
#pragma once

#include <mutex>

#include "bench_host.cuh"

namespace harness {

using seqlink::ConsumeArgs;
using seqlink::PublishArgs;
using seqlink::Scratch;
namespace layout = seqlink::layout;
namespace fastpath = seqlink::fastpath;

template <typename T>
T* device_alloc(uint64_t bytes) {
    void* p = nullptr;
    RT(cudaMalloc(&p, bytes));
    RT(cudaMemset(p, 0, bytes));
    return static_cast<T*>(p);
}

// Pinned host memory mapped into the device address space, zeroed; *device gets the device address.
inline uint8_t* mapped_alloc(uint64_t bytes, uint64_t* device) {
    void* h = nullptr;
    RT(cudaHostAlloc(&h, bytes, cudaHostAllocMapped | cudaHostAllocPortable));
    std::memset(h, 0, bytes);
    void* d = nullptr;
    RT(cudaHostGetDevicePointer(&d, h, 0));
    *device = reinterpret_cast<uint64_t>(d);
    return static_cast<uint8_t*>(h);
}

inline uint64_t addr(const void* p) {
    return reinterpret_cast<uint64_t>(p);
}

// How consume_steps acknowledges a round of the plain checksum listener.
enum class AckStep {
    // An ordinary round's, its sequence known on the host (as the runtime acknowledges):
    // cuStreamWriteValue64 of consumed_seq, whose default memory barrier orders the listener's kernels
    // before it in the stream; the seqlink_ack kernel where the consumer device has no 64-bit stream
    // memory operations, as the runtime falls back.
    write_value,
    // The seqlink_ack kernel (one thread, one release store): the armed rows' ack as the bench has run them,
    // and channel-ack-kernel's, the A/B of the memop.
    kernel,
};

struct Rig {
    int p, c, sms;
    uint64_t slots, slot_bytes, stride, doorbell_count;
    uint64_t* control = nullptr;   // producer device
    uint8_t* ring = nullptr;       // producer device
    Scratch* publish_scratch = nullptr;
    volatile uint64_t* mirror = nullptr;  // host: producer mirror
    uint64_t mirror_dev = 0;
    uint8_t* staging = nullptr;    // host: committed lengths, same shape as the ring
    uint64_t staging_dev = 0;
    volatile uint64_t* doorbells = nullptr;  // host
    uint64_t doorbells_dev = 0;
    uint64_t* block = nullptr;     // consumer device
    volatile uint64_t* cmirror = nullptr;  // host: consumer mirror
    uint64_t cmirror_dev = 0;
    uint8_t* local = nullptr;      // consumer device
    Scratch* consume_scratch = nullptr;
    Scratch* fp_scratch = nullptr;
    Scratch* checksum_scratch = nullptr;  // two lines: the checksum's fold, then the in-kernel ack's arrivals
    unsigned long long* folds = nullptr;
    volatile uint64_t* results = nullptr;  // host: fastpath::RESULT_WORDS
    uint64_t results_dev = 0;
    cudaStream_t ps{}, cs{};
    cudaStream_t marks{};   // consumer device, made before cs: the cancel mark's stores (Device.storeWord)
    std::mutex mark_lock;   // the mark's stores in the order of the mirror's monotonic values
    bool memops64 = false;  // the consumer device runs 64-bit stream memory operations (AckStep::write_value)
    PublishArgs pa{};       // the channel's publish step: lengths from the staging ring
    PublishArgs pa_kernel{};  // the same channel as a producer kernel's handle: lengths written in the kernel
    ConsumeArgs ca{};
    ConsumeArgs ca_kernel{};

    Rig(int producer, int consumer, uint64_t slots_, uint64_t slot_bytes_, bool with_doorbells = false)
        : p(producer), c(consumer), slots(slots_), slot_bytes(slot_bytes_), stride(stride_for(slot_bytes_)),
          doorbell_count(2 * slots_) {
        RT(cudaSetDevice(p));
        RT(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, p));
        control = device_alloc<uint64_t>(layout::CONTROL_BYTES);
        ring = device_alloc<uint8_t>(slots * stride);
        publish_scratch = device_alloc<Scratch>(sizeof(Scratch));
        mirror = reinterpret_cast<volatile uint64_t*>(mapped_alloc(layout::CONTROL_BYTES, &mirror_dev));
        staging = mapped_alloc(slots * stride, &staging_dev);
        doorbells = reinterpret_cast<volatile uint64_t*>(mapped_alloc(8 * doorbell_count, &doorbells_dev));
        RT(cudaStreamCreateWithFlags(&ps, cudaStreamNonBlocking));
        RT(cudaSetDevice(c));
        RT(cudaStreamCreateWithFlags(&marks, cudaStreamNonBlocking));
        block = device_alloc<uint64_t>(256);
        cmirror = reinterpret_cast<volatile uint64_t*>(mapped_alloc(256, &cmirror_dev));
        local = device_alloc<uint8_t>(slots * stride);
        consume_scratch = device_alloc<Scratch>(sizeof(Scratch));
        RT(cudaMemset(&consume_scratch->min_sequence, 0xFF, 8));  // as the Java binding does
        fp_scratch = device_alloc<Scratch>(sizeof(Scratch));
        RT(cudaMemset(&fp_scratch->min_sequence, 0xFF, 8));
        checksum_scratch = device_alloc<Scratch>(2 * sizeof(Scratch));  // zeroed, as the kernels leave them
        folds = device_alloc<unsigned long long>(8 * fastpath::MAX_ROUND);
        results = reinterpret_cast<volatile uint64_t*>(mapped_alloc(8 * fastpath::RESULT_WORDS, &results_dev));
        RT(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking));
        memops64 = stream_memops64(c);
        if (p != c) {
            cudaError_t e = cudaDeviceEnablePeerAccess(p, 0);  // the consumer reads the producer's memory
            if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled) die("peer access %d -> %d: %s", c, p, cudaGetErrorName(e));
            cudaGetLastError();
        }
        pa.control = addr(control);
        pa.ring = addr(ring);
        pa.mirror = mirror_dev;
        pa.scratch = addr(publish_scratch);
        pa.slots = slots;
        pa.stride = stride;
        pa.slot_bytes = slot_bytes;
        pa.max_batch = std::min<uint64_t>(64, slots - 1);
        pa.staging = staging_dev;
        pa.doorbells = with_doorbells ? doorbells_dev : 0;
        pa.doorbell_count = doorbell_count;
        pa_kernel = pa;
        pa_kernel.staging = 0;
        ca.control = addr(control);
        ca.ring = addr(ring);
        ca.local_ring = addr(local);
        ca.block = addr(block);
        ca.mirror = cmirror_dev;
        ca.scratch = addr(consume_scratch);
        ca.slots = slots;
        ca.stride = stride;
        ca.slot_bytes = slot_bytes;
        ca.max_batch = pa.max_batch;
        ca.lapping = 0;
        ca_kernel = ca;
        ca_kernel.scratch = addr(fp_scratch);
        RT(cudaSetDevice(p));
        seqlink_publish_init<<<1, 1, 0, ps>>>(pa);
        LAUNCHED();
        RT(cudaStreamSynchronize(ps));
    }

    Rig(const Rig&) = delete;
    Rig& operator=(const Rig&) = delete;

    ~Rig() {
        cudaSetDevice(p);
        cudaStreamSynchronize(ps);
        cudaStreamDestroy(ps);
        cudaFree(control);
        cudaFree(ring);
        cudaFree(publish_scratch);
        cudaFreeHost(const_cast<uint64_t*>(mirror));
        cudaFreeHost(staging);
        cudaFreeHost(const_cast<uint64_t*>(doorbells));
        cudaSetDevice(c);
        cudaStreamSynchronize(cs);
        cudaStreamDestroy(cs);
        cudaStreamDestroy(marks);
        cudaFree(block);
        cudaFree(local);
        cudaFree(consume_scratch);
        cudaFree(fp_scratch);
        cudaFree(checksum_scratch);
        cudaFree(folds);
        cudaFreeHost(const_cast<uint64_t*>(cmirror));
        cudaFreeHost(const_cast<uint64_t*>(results));
    }

    uint64_t offset(uint64_t s) const { return ((s - 1) % slots) * stride; }
    uint64_t payload(uint64_t s) const { return addr(ring) + offset(s) + layout::SLOT_HEADER_BYTES; }
    // Frame s's doorbell (device memory): what its publish raises and what a round armed for it waits on.
    uint64_t doorbell_word(uint64_t s) const { return doorbells_dev + 8 * (s % doorbell_count); }
    int grid_for(uint64_t bytes) const { return blocks_for(bytes, 256 * 32, 8 * sms); }
    // The consume step's grid as the Java binding sizes it (CudaConsumeKernel, KernelArgs.CONSUME_BYTES_PER_BLOCK):
    // one block up to 32 KiB, above that a block per 8 KiB, at most two per SM.
    int consume_grid(uint64_t bytes) const { return bytes <= 32 * 1024 ? 1 : blocks_for(bytes, 8 * 1024, 2 * sms); }

    // ---- producer side (current device: p) ----

    // The pattern of frame s into its slot (a producer's kernel).
    void fill(uint64_t s, uint64_t length) {
        pattern_fill<<<grid_for(length), 256, 0, ps>>>(payload(s), length, s);
        LAUNCHED();
    }

    // commitDevice: the length into the pinned staging header, a plain host store (no driver call).
    void commit(uint64_t s, uint64_t length) {
        reinterpret_cast<volatile uint64_t*>(staging + offset(s) + layout::SLOT_LENGTH)[0] = length;
    }

    // The channel's publish step for the next `count` frames.
    void publish(uint64_t count) {
        seqlink_publish<<<1, 32, 0, ps>>>(pa, count);
        LAUNCHED();
    }

    // The publish kernel on the producer-kernel handle (no staging ring: the lengths are not copied), for the
    // steps-fused-no-staging row.
    void publish_without_staging(uint64_t count) {
        seqlink_publish<<<1, 32, 0, ps>>>(pa_kernel, count);
        LAUNCHED();
    }

    // The next frame's pattern and its length in its slot header, in one kernel that does not publish (fp_fill):
    // the producer side of the rows whose publish neither copies a staged length nor is the kernel's own.
    void fill_with_length(uint64_t length) {
        fp_fill<<<grid_for(length), 256, 0, ps>>>(pa_kernel, 1, length);
        LAUNCHED();
    }

    // fill + commit + publish of frame s: the channel's producer side today.
    void produce_steps(uint64_t s, uint64_t length) {
        fill(s, length);
        commit(s, length);
        publish(1);
    }

    // A PROTOTYPE, not the runtime's publish (the memop-publish rows): the publish step's writes for frame s as
    // stream memory operations after the fill on the producer stream: frame s's stamp and length into its slot
    // header, publish_seq = s (a release store: the producer is its only writer, so the store is the add's
    // monotonic value), writer_busy, the doorbell and the mirror. Each write carries the stream's memory barrier
    // (CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER is refused by the v2 entry points, which CUDA 12+ resolves to:
    // CUDA_ERROR_INVALID_VALUE). `batched`: the six as one cuStreamBatchMemOp (the C driver API; JCuda 12.6's
    // binding of it carries no operations), otherwise six cuStreamWriteValue64 calls (what Java could issue).
    void publish_memops(uint64_t s, uint64_t length, bool batched) {
        const uint64_t header = addr(ring) + offset(s);
        struct Write { uint64_t word, value; };
        const Write writes[] = {
            {header + layout::SLOT_STAMP, s},
            {header + layout::SLOT_LENGTH, length},
            {addr(control) + layout::CONTROL_PUBLISH_SEQ, s},
            {addr(control) + layout::CONTROL_WRITER_BUSY, s + pa.max_batch},
            {doorbell_word(s), s},
            {mirror_dev + layout::CONTROL_PUBLISH_SEQ, s},
        };
        if (batched) {
            CUstreamBatchMemOpParams ops[6];
            std::memset(ops, 0, sizeof(ops));
            for (int i = 0; i < 6; i++) {
                ops[i].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_64;
                ops[i].writeValue.address = static_cast<CUdeviceptr>(writes[i].word);
                ops[i].writeValue.value64 = writes[i].value;
                ops[i].writeValue.flags = CU_STREAM_WRITE_VALUE_DEFAULT;
            }
            DRV(drv.batchMemOp(reinterpret_cast<CUstream>(ps), 6, ops, 0));
            return;
        }
        for (const Write& w : writes) {
            DRV(drv.writeValue64(reinterpret_cast<CUstream>(ps), static_cast<CUdeviceptr>(w.word), w.value,
                    CU_STREAM_WRITE_VALUE_DEFAULT));
        }
    }

    // The least a stream-write publish can be: one release store of publish_seq after a fill that wrote the length
    // (fill_with_length; no stamp, doorbell or mirror: the memop-floor row's consumer waits on the device word and
    // does not check stamps).
    void publish_one_memop(uint64_t s) {
        DRV(drv.writeValue64(reinterpret_cast<CUstream>(ps), static_cast<CUdeviceptr>(addr(control) + layout::CONTROL_PUBLISH_SEQ),
                s, CU_STREAM_WRITE_VALUE_DEFAULT));
    }

    // The least a stream-write publish can be for a consumer armed on a doorbell: publish_seq = s, then frame s's
    // doorbell, two release stores after a fill that wrote the length (fill_with_length; no stamp, writer_busy or
    // mirror): the memop-doorbell row, which tells what each write of publish_memops costs.
    void publish_two_memops(uint64_t s) {
        publish_one_memop(s);
        DRV(drv.writeValue64(reinterpret_cast<CUstream>(ps), static_cast<CUdeviceptr>(doorbell_word(s)),
                s, CU_STREAM_WRITE_VALUE_DEFAULT));
    }

    // One producer kernel writing `count` frames and publishing them at its end (the device header).
    void produce_fused(uint64_t count, uint64_t length) {
        fp_produce<<<grid_for(count * length), 256, 0, ps>>>(pa_kernel, count, length);
        LAUNCHED();
    }

    // ---- consumer side (current device: c) ----

    uint64_t local_payload(uint64_t s) const { return addr(local) + offset(s) + layout::SLOT_HEADER_BYTES; }
    uint64_t result_word(uint64_t s) const { return results_dev + 8 * (s % fastpath::RESULT_SLOTS); }

    // A device listener's work: the checksum of frame s's payload in the local ring, into results.
    void checksum_local(uint64_t s, uint64_t length) {
        pattern_checksum<<<grid_for(length), 256, 0, cs>>>(local_payload(s), length, result_word(s), addr(checksum_scratch));
        LAUNCHED();
    }

    // The naive hand-off's copy: frame s's payload from the ring to the local ring, on `stream`.
    void copy_payload(uint64_t s, uint64_t length, cudaStream_t stream) {
        RT(cudaMemcpyAsync(local + offset(s) + layout::SLOT_HEADER_BYTES, ring + offset(s) + layout::SLOT_HEADER_BYTES, length,
                cudaMemcpyDefault, stream));
    }

    // The channel's consume step: frames from..to into the local ring, the descriptor into the device block.
    // armed: a round enqueued before its frame was seen (it reads the host's cancel word, cancel() below).
    void consume(uint64_t from, uint64_t to, uint64_t round, bool armed = false) {
        seqlink_consume<<<consume_grid((to - from + 1) * stride), 256, 0, cs>>>(ca, from, to, round, armed ? 1 : 0);
        LAUNCHED();
    }

    // The ack of every frame up to `to`, after the work before it on the consumer stream.
    void ack(uint64_t to, AckStep step) {
        if (step == AckStep::write_value && memops64) {
            DRV(drv.writeValue64(reinterpret_cast<CUstream>(cs), static_cast<CUdeviceptr>(cmirror_dev + layout::CONSUMER_CONSUMED_SEQ),
                    to, CU_STREAM_WRITE_VALUE_DEFAULT));
            return;
        }
        seqlink_ack<<<1, 1, 0, cs>>>(cmirror_dev, to);
        LAUNCHED();
    }

    // The channel's consumer side with a plain device listener: consume (copy), a checksum per frame, ack.
    void consume_steps(uint64_t from, uint64_t to, uint64_t length, uint64_t round, AckStep ack_step) {
        consume(from, to, round);
        for (uint64_t s = from; s <= to; s++) {
            checksum_local(s, length);
        }
        ack(to, ack_step);
    }

    // An armed round of frame s for a device listener that takes armed rounds (TakenChecksumListener):
    // consume, the listener's pattern_checksum_taken (nothing when the round took nothing), and the armed
    // round's ack of what the consume step took (seqlink_ack_ready): Java's cycle-channel-device-armed.
    // round: the round's number (by default the frame's; a round retaken after a cancel needs a later one).
    void consume_taken_steps(uint64_t s, uint64_t length, uint64_t round = 0) {
        consume(s, s, round != 0 ? round : s, true);
        pattern_checksum_taken<<<grid_for(length), 256, 0, cs>>>(addr(block), s, local_payload(s), length, result_word(s),
                addr(checksum_scratch));
        LAUNCHED();
        seqlink_ack_ready<<<1, 1, 0, cs>>>(addr(block), cmirror_dev);
        LAUNCHED();
    }

    // The same round for a listener that acknowledges in its kernel (acknowledge_taken_at_end over the second
    // scratch line, tagged with the round): consume, then the listener's one kernel; no ack step.
    void consume_acking_steps(uint64_t s, uint64_t length, uint64_t round = 0) {
        if (round == 0) round = s;
        consume(s, s, round, true);
        pattern_checksum_taken_acking<<<grid_for(length), 256, 0, cs>>>(addr(block), s, local_payload(s), length, result_word(s),
                addr(checksum_scratch), cmirror_dev, round);
        LAUNCHED();
    }

    // One consumer kernel: acquire, copy with checksum, ack.
    void consume_fused(uint64_t from, uint64_t to, uint64_t length) {
        fp_consume<<<grid_for((to - from + 1) * (length + 64)), 256, 0, cs>>>(ca_kernel, from, to, addr(local), results_dev,
                addr(folds));
        LAUNCHED();
    }

    // Pre-arm: later work on the consumer stream starts once the word is >= s (the front end waits, no SM).
    void arm_device(uint64_t s) { wait(addr(control) + layout::CONTROL_PUBLISH_SEQ, s); }
    void arm_mirror(uint64_t s) { wait(mirror_dev + layout::CONTROL_PUBLISH_SEQ, s); }
    void arm_doorbell(uint64_t s) { wait(doorbell_word(s), s); }

    void wait(uint64_t word, uint64_t s) {
        DRV(drv.waitValue64(reinterpret_cast<CUstream>(cs), static_cast<CUdeviceptr>(word), s, CU_STREAM_WAIT_VALUE_GEQ));
    }

    // The host's release of a round armed on frame s's doorbell, as the runtime's ArmedRound.cancel makes it:
    // the round's number into the consumer mirror's ARM_CANCEL (`round`; by default the frame, as the rig
    // numbers most armed rounds; a monotonic raise: the host's record), then that value into the consumer
    // block's ARM_CANCEL, which kernels read (a stream write on the marks stream and its synchronize, as
    // CancelMark and Device.storeWord do), so an armed consume step that reads it after its acquire takes nothing,
    // THEN a store of s into the doorbell. A later store by the publish can only be s or a later lap, so the wait
    // cannot be re-blocked whatever the interleaving.
    void cancel(uint64_t s, uint64_t round = 0) {
        if (round == 0) round = s;
        uint64_t* mark = const_cast<uint64_t*>(&cmirror[layout::CONSUMER_ARM_CANCEL / 8]);
        for (uint64_t seen = __atomic_load_n(mark, __ATOMIC_ACQUIRE);
                seen < round && !__atomic_compare_exchange_n(mark, &seen, round, false, __ATOMIC_SEQ_CST, __ATOMIC_ACQUIRE);) {
        }
        {
            std::lock_guard<std::mutex> held(mark_lock);
            DRV(drv.writeValue64(reinterpret_cast<CUstream>(marks), static_cast<CUdeviceptr>(addr(block) + layout::CONSUMER_ARM_CANCEL),
                    __atomic_load_n(mark, __ATOMIC_ACQUIRE), CU_STREAM_WRITE_VALUE_DEFAULT));
            RT(cudaStreamSynchronize(marks));
        }
        __atomic_store_n(const_cast<uint64_t*>(&doorbells[s % doorbell_count]), s, __ATOMIC_RELEASE);
    }

    uint64_t published() const { return load_acquire(mirror + layout::CONTROL_PUBLISH_SEQ / 8); }
    uint64_t acked() const { return load_acquire(cmirror + layout::CONSUMER_CONSUMED_SEQ / 8); }
    uint64_t early_wakes() const { return cmirror[layout::CONSUMER_EMPTY_POLLS / 8]; }
    // Whether the consume step of round `round` (one round in flight) landed in the mirror without frame s.
    bool landed_without(uint64_t round, uint64_t s) const {
        return load_acquire(cmirror + layout::CONSUMER_ROUND / 8) >= round && cmirror[layout::CONSUMER_READY_TO / 8] < s;
    }
    uint64_t result(uint64_t s) const { return results[s % fastpath::RESULT_SLOTS]; }
    uint64_t empty_rounds() const { return results[fastpath::RESULT_EMPTY]; }
};

}  // namespace harness
