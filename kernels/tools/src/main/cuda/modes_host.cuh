// modes_host.cuh: the hand-written device-to-host hand-offs a host listener is measured against (--mode host):
// what a user writes instead of a channel to get a frame a kernel made into host memory. One stream of the
// producer device. Each frame is the pattern of its sequence (pattern_fill: word k of frame s is
// pattern_word(s, k)); the host checks the first and last word of every frame as soon as it sees the frame,
// and the whole frame's checksum of the frames `checked` selects only after the frame's time is taken (at most
// HOST_VERIFY_BYTES per row), as the Java rows do.
//
//   naive-d2h            fill kernel + cudaMemcpyAsync D2H into pinned host memory + cudaStreamSynchronize
//   d2h-flag             fill + the copy + cuStreamWriteValue64 of the sequence into a host word; the host
//                        spins on the word (no synchronise call)
//   zero-copy            host_fill_flag: the fill kernel writes the frame into mapped host memory and its last
//                        block release-stores the sequence into a host word; the host spins on the word
//   zero-copy-memop      the fill kernel writes the frame into mapped host memory, then cuStreamWriteValue64 of the
//                        sequence into the host word (a channel's host ring publishes so); the host spins on the word
// throughput: frames back to back, as many in flight as the ring has slots (--slots, fewer where the ring would
// exceed --ring-budget), each slot's next frame enqueued once the host checked its last one:
//   naive-d2h-pipelined  per frame: fill + copy + a stream write of the sequence into the host word; the copy
//                        engine's pipeline, what a host listener's pipelined rows are judged against
//   zero-copy-pipelined  host_fill_flag per frame
//   zero-copy-memop-pipelined  the fill into host memory and the stream write per frame
// The pipelined rows check every frame's first and last word as it lands and, after the timer stopped, the
// checksums of the frames the host ring still holds.
#pragma once

#include "bench_rig.cuh"
#include "modes_latency.cuh"
#include "modes_throughput.cuh"

namespace harness {

// Most bytes of checksum the host computes per row (the Java rows' budget): a 16 MiB frame takes milliseconds.
constexpr uint64_t HOST_VERIFY_BYTES = 256ull << 20;

// Slots of the host rows' rings: the ring's, fewer where they would exceed the ring budget, at least 4.
inline uint64_t host_slots(const Options& o, uint64_t size) {
    const uint64_t fit = std::max<uint64_t>(4, o.ring_budget / stride_for(size));
    return std::min<uint64_t>(o.slots, fit);
}

// Untimed frames first: the harness's rule for its Java rows (at most 200 above 64 KiB, and a quarter of --max-bytes).
inline uint64_t host_warmup(const Options& o, uint64_t size) {
    const uint64_t w = size > 65536 ? std::min<uint64_t>(o.warmup, 200) : o.warmup;
    return o.max_bytes == 0 ? w : std::min<uint64_t>(w, std::max<uint64_t>(20, o.max_bytes / 4 / size));
}

// The checksum of the pattern's `length` bytes at p (host memory, little-endian words), as checksum_serial
// computes it, a word at a time.
inline uint64_t host_checksum(const uint8_t* p, uint64_t length) {
    const uint64_t words = length >> 3;
    uint64_t acc = 0;
    for (uint64_t k = 0; k < words; k++) {
        uint64_t w;
        std::memcpy(&w, p + 8 * k, 8);
        acc ^= seqlink::checksum_term(w, k);
    }
    if (length & 7) {
        uint64_t tail = 0;
        std::memcpy(&tail, p + 8 * words, length & 7);
        acc ^= seqlink::checksum_term(tail, words);
    }
    return seqlink::checksum_finish(acc, length);
}

// Whether frame s's first and last whole words at p are the pattern's (frames under 8 bytes have none).
inline bool host_words_ok(const uint8_t* p, uint64_t s, uint64_t length) {
    const uint64_t words = length >> 3;
    if (words == 0) return true;
    const volatile uint64_t* w = reinterpret_cast<const volatile uint64_t*>(p);
    return w[0] == seqlink::pattern_word(s, 0) && w[words - 1] == seqlink::pattern_word(s, words - 1);
}

// One device's stream, a ring of frames on the device and one in pinned mapped host memory, the host word the
// stream (or the fill kernel) writes each landed frame's sequence into, and the fill kernel's arrival counter.
struct HostRig {
    int d, sms;
    uint64_t slots, size, stride;
    uint8_t* dev = nullptr;
    uint8_t* host = nullptr;
    uint64_t host_dev = 0;
    volatile uint64_t* flag = nullptr;
    uint64_t flag_dev = 0;
    uint32_t* arrivals = nullptr;
    cudaStream_t st{};
    bool memops64 = false;  // cuStreamWriteValue64 here; else the runtime's seqlink_write_value kernel, as the runtime falls back
    uint64_t verify_left = HOST_VERIFY_BYTES;
    uint64_t verified = 0, corrupt = 0;

    HostRig(int device, uint64_t slots_, uint64_t size_)
        : d(device), slots(slots_), size(size_), stride(stride_for(size_)) {
        RT(cudaSetDevice(d));
        RT(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d));
        dev = device_alloc<uint8_t>(slots * stride);
        host = mapped_alloc(slots * stride, &host_dev);
        flag = reinterpret_cast<volatile uint64_t*>(mapped_alloc(128, &flag_dev));
        arrivals = device_alloc<uint32_t>(128);
        RT(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
        memops64 = stream_memops64(d);
    }

    HostRig(const HostRig&) = delete;
    HostRig& operator=(const HostRig&) = delete;

    ~HostRig() {
        cudaSetDevice(d);
        cudaStreamSynchronize(st);
        cudaStreamDestroy(st);
        cudaFree(dev);
        cudaFree(arrivals);
        cudaFreeHost(host);
        cudaFreeHost(const_cast<uint64_t*>(flag));
    }

    uint64_t offset(uint64_t s) const { return ((s - 1) % slots) * stride; }
    int grid() const { return blocks_for(size, 256 * 32, 8 * sms); }

    void fill(uint64_t s) {
        pattern_fill<<<grid(), 256, 0, st>>>(addr(dev) + offset(s), size, s);
        LAUNCHED();
    }

    void copy(uint64_t s) {
        RT(cudaMemcpyAsync(host + offset(s), dev + offset(s), size, cudaMemcpyDeviceToHost, st));
    }

    // The sequence into the host word, after everything before it on the stream (the copy).
    void write_flag(uint64_t s) {
        if (memops64) {
            DRV(drv.writeValue64(reinterpret_cast<CUstream>(st), static_cast<CUdeviceptr>(flag_dev), s, CU_STREAM_WRITE_VALUE_DEFAULT));
        } else {
            seqlink_write_value<<<1, 1, 0, st>>>(flag_dev, s);
            LAUNCHED();
        }
    }

    // The plain fill kernel, into the frame's slot of the host ring.
    void fill_host_slot(uint64_t s) {
        pattern_fill<<<grid(), 256, 0, st>>>(host_dev + offset(s), size, s);
        LAUNCHED();
    }

    void fill_into_host(uint64_t s) {
        host_fill_flag<<<grid(), 256, 0, st>>>(host_dev + offset(s), size, s, flag_dev, addr(arrivals));
        LAUNCHED();
    }

    void await_flag(uint64_t s) { await_at_least(flag, s, "the host word"); }

    // The host's per-frame check of frame s, which has landed in its slot: a mismatch counts corrupt.
    void check_words(uint64_t s) {
        if (!host_words_ok(host + offset(s), s, size)) corrupt++;
    }

    // The checksum of frame s in its slot, while the budget lasts, for the frames `checked` selects.
    void verify(uint64_t s) {
        if (checked(s, size)) verify_held(s);
    }

    // The same for any frame (those the ring still holds after a pipelined run), while the budget lasts.
    void verify_held(uint64_t s) {
        if (verify_left < size) return;
        verify_left -= size;
        if (host_checksum(host + offset(s), size) == expected_checksum(s, size)) verified++;
        else corrupt++;
    }

    // What wrote the host word, for the rows whose stream writes it.
    Json flag_write() const { return member("flag_write", memops64 ? "cuStreamWriteValue64" : "seqlink_write_value kernel"); }
};

// One frame in flight: produce(s) enqueues frame s, land(s) waits until the host may read it; the time runs from
// the first call until the host checked its first and last word.
template <typename Produce, typename Land>
void host_latency_row(const Options& o, const char* mode, uint64_t size, bool stream_writes_flag, Produce produce, Land land) {
    HostRig r(o.producer, host_slots(o, size), size);
    const uint64_t frames = frames_for(o, size);
    const uint64_t warmup = host_warmup(o, size);
    std::vector<double> lat;
    lat.reserve(frames);
    for (uint64_t s = 1; s <= warmup + frames; s++) {
        auto t0 = Clock::now();
        produce(r, s);
        land(r, s);
        r.check_words(s);
        auto t1 = Clock::now();
        if (s > warmup) {
            lat.push_back(micros(t1 - t0));
            r.verify(s);
        }
    }
    add_latency(mode, size, frames, lat, r.verified, r.corrupt, stream_writes_flag ? r.flag_write() : Json::object());
}

// Frames first..last back to back, one host slot per frame in flight: before frame s takes its slot the host waits
// until frame s - slots landed and checks it; then the last frames.
template <typename Produce>
void host_pipeline(HostRig& r, uint64_t first, uint64_t last, Produce produce) {
    for (uint64_t s = first; s <= last; s++) {
        if (s >= first + r.slots) {
            r.await_flag(s - r.slots);
            r.check_words(s - r.slots);
        }
        produce(r, s);
    }
    for (uint64_t s = std::max(first, last >= r.slots ? last - r.slots + 1 : 1); s <= last; s++) {
        r.await_flag(s);
        r.check_words(s);
    }
}

// Untimed warm-up frames, then `total` timed ones (host_pipeline): the time runs until the last frame is checked; the
// frames the host ring still holds are checksummed after it.
template <typename Produce>
void host_throughput_row(const Options& o, const char* mode, uint64_t size, bool stream_writes_flag, Produce produce) {
    HostRig r(o.producer, host_slots(o, size), size);
    const uint64_t warmup = host_warmup(o, size);
    const uint64_t total = 4 * frames_for(o, size);
    const uint64_t last = warmup + total;
    host_pipeline(r, 1, warmup, produce);
    auto t0 = Clock::now();
    host_pipeline(r, warmup + 1, last, produce);
    const double seconds = seconds_since(t0);
    for (uint64_t s = std::max(warmup + 1, last >= r.slots ? last - r.slots + 1 : 1); s <= last; s++) r.verify_held(s);
    if (r.corrupt) all_ok = false;
    Json row;
    row["mode"] = mode;
    row["kind"] = "throughput";
    row["frame_bytes"] = size;
    row["frames"] = total;
    row["batch"] = 1;
    row["in_flight"] = r.slots;
    row["seconds"] = rounded(seconds, 4);
    row["frames_per_s"] = rounded(total / seconds, 1);
    row["gb_per_s"] = rounded(total * (double)size / seconds / 1e9, 3);
    row["verified"] = r.verified;
    row["corrupt"] = r.corrupt;
    if (stream_writes_flag) row.update(r.flag_write());
    add_result(std::move(row));
}

inline void host_rows(const Options& o, uint64_t size) {
    host_latency_row(o, "naive-d2h", size, false, [](HostRig& r, uint64_t s) {
        r.fill(s);
        r.copy(s);
    }, [](HostRig& r, uint64_t) { RT(cudaStreamSynchronize(r.st)); });
    host_latency_row(o, "d2h-flag", size, true, [](HostRig& r, uint64_t s) {
        r.fill(s);
        r.copy(s);
        r.write_flag(s);
    }, [](HostRig& r, uint64_t s) { r.await_flag(s); });
    host_latency_row(o, "zero-copy", size, false, [](HostRig& r, uint64_t s) { r.fill_into_host(s); },
            [](HostRig& r, uint64_t s) { r.await_flag(s); });
    host_throughput_row(o, "naive-d2h-pipelined", size, true, [](HostRig& r, uint64_t s) {
        r.fill(s);
        r.copy(s);
        r.write_flag(s);
    });
    host_throughput_row(o, "zero-copy-pipelined", size, false, [](HostRig& r, uint64_t s) { r.fill_into_host(s); });
    host_latency_row(o, "zero-copy-memop", size, true, [](HostRig& r, uint64_t s) {
        r.fill_host_slot(s);
        r.write_flag(s);
    }, [](HostRig& r, uint64_t s) { r.await_flag(s); });
    host_throughput_row(o, "zero-copy-memop-pipelined", size, true, [](HostRig& r, uint64_t s) {
        r.fill_host_slot(s);
        r.write_flag(s);
    });
}

}  // namespace harness
