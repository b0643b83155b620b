// modes_throughput.cuh: frames in flight, a kernel per frame (or per batch), GB/s of frame payload.
//
//   naive-1s-async      fill + copy + checksum per frame on one stream, one synchronise at the end
//   naive-2s-async      fill + copy + record on the producer stream, wait + checksum + record on the
//                       consumer stream; the producer waits for a buffer's checksum before refilling it
//   channel             the channel today: a producer thread (claim = wait for the ack `slots` behind, fill,
//                       commit, publish) and a consumer thread (poll the mirror, consume up to max_batch,
//                       checksum each, ack: ordinary rounds, so cuStreamWriteValue64 where the device has
//                       64-bit stream memory operations)
//   floor-pipelined     producer kernels publishing at their end; the consumer thread keeps `depth` fused
//                       consumer rounds armed on the device publish_seq
//   floor-batched       the same, `batch` frames per producer kernel and per consumer round
//   steps-batched       the channel's own steps under backlog: `batch` fills + one publish step; consumer
//                       rounds of `batch` frames armed on the doorbell (consume, checksums, ack kernel)
#pragma once

#include <atomic>
#include <thread>

#include "bench_rig.cuh"

namespace harness {

inline void throughput_result(const char* mode, uint64_t size, uint64_t total, double seconds, Rig& r, uint64_t extra_batch = 0) {
    uint64_t verified = 0, corrupt = 0;
    for (uint64_t s = total > fastpath::RESULT_SLOTS - 1 ? total - (fastpath::RESULT_SLOTS - 1) : 1; s <= total; s++) {
        if (!checked(s, size)) continue;
        if (r.result(s) == expected_checksum(s, size)) verified++;
        else corrupt++;
    }
    if (corrupt) all_ok = false;
    Json row;
    row["mode"] = mode;
    row["kind"] = "throughput";
    row["frame_bytes"] = size;
    row["frames"] = total;
    row["batch"] = extra_batch ? extra_batch : 1;
    row["seconds"] = rounded(seconds, 4);
    row["frames_per_s"] = rounded(total / seconds, 1);
    row["gb_per_s"] = rounded(total * (double)size / seconds / 1e9, 3);
    row["verified"] = verified;
    row["corrupt"] = corrupt;
    add_result(std::move(row));
}

inline double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

inline void naive_throughput(const Options& o, int p, int c, uint64_t size) {
    const uint64_t total = 4 * frames_for(o, size);
    Rig r(p, c, o.slots, size);
    if (p == c) {
        auto t0 = Clock::now();
        for (uint64_t s = 1; s <= total; s++) {
            pattern_fill<<<r.grid_for(size), 256, 0, r.cs>>>(r.payload(s), size, s);
            LAUNCHED();
            r.copy_payload(s, size, r.cs);
            r.checksum_local(s, size);
        }
        RT(cudaStreamSynchronize(r.cs));
        throughput_result("naive-1s-async", size, total, seconds_since(t0), r);
    }
    std::vector<cudaEvent_t> copied(r.slots), checked_ev(r.slots);
    for (uint64_t i = 0; i < r.slots; i++) {
        RT(cudaEventCreateWithFlags(&copied[i], cudaEventDisableTiming));
        RT(cudaEventCreateWithFlags(&checked_ev[i], cudaEventDisableTiming));
    }
    auto t0 = Clock::now();
    for (uint64_t s = 1; s <= total; s++) {
        const uint64_t i = (s - 1) % r.slots;
        RT(cudaSetDevice(p));
        if (s > r.slots) RT(cudaStreamWaitEvent(r.ps, checked_ev[i], 0));  // the slot's last checksum is done
        r.fill(s, size);
        r.copy_payload(s, size, r.ps);
        RT(cudaEventRecord(copied[i], r.ps));
        RT(cudaSetDevice(c));
        RT(cudaStreamWaitEvent(r.cs, copied[i], 0));
        r.checksum_local(s, size);
        RT(cudaEventRecord(checked_ev[i], r.cs));
    }
    RT(cudaStreamSynchronize(r.cs));
    throughput_result("naive-2s-async", size, total, seconds_since(t0), r);
    for (uint64_t i = 0; i < r.slots; i++) {
        cudaEventDestroy(copied[i]);
        cudaEventDestroy(checked_ev[i]);
    }
}

inline void channel_throughput(const Options& o, int p, int c, uint64_t size) {
    const uint64_t total = 4 * frames_for(o, size);
    Rig r(p, c, o.slots, size);
    const uint64_t batch = r.pa.max_batch;
    auto t0 = Clock::now();
    std::thread producer([&] {
        RT(cudaSetDevice(p));
        for (uint64_t s = 1; s <= total; s++) {
            if (s > r.slots) await_at_least(r.cmirror, s - r.slots, "ack (backpressure)");
            r.produce_steps(s, size);
        }
    });
    std::thread consumer([&] {
        RT(cudaSetDevice(c));
        uint64_t next = 1;
        while (next <= total) {
            uint64_t pub = r.published();
            if (pub < next) continue;
            uint64_t to = std::min(pub, next + batch - 1);
            r.consume_steps(next, to, size, to, AckStep::write_value);
            next = to + 1;
        }
    });
    producer.join();
    consumer.join();
    await_at_least(r.cmirror, total, "final ack");
    throughput_result("channel", size, total, seconds_since(t0), r);
}

// Producer kernels of `batch` frames; consumer rounds of `batch` frames armed `depth` rounds ahead, on the
// device word (floor) or the doorbell with the channel's own steps (steps).
inline void armed_throughput(const Options& o, int p, int c, uint64_t size, uint64_t batch, bool steps, const char* mode) {
    const uint64_t total = (4 * frames_for(o, size) + batch - 1) / batch * batch;
    Rig r(p, c, o.slots, size, steps);
    if (batch > r.pa.max_batch || batch > fastpath::MAX_ROUND) die("--batch %llu is above the channel's max batch", (unsigned long long)batch);
    auto t0 = Clock::now();
    std::thread producer([&] {
        RT(cudaSetDevice(p));
        for (uint64_t s = 1; s <= total; s += batch) {
            const uint64_t last = s + batch - 1;
            if (last > r.slots) await_at_least(r.cmirror, last - r.slots, "ack (backpressure)");
            if (steps) {
                for (uint64_t f = s; f <= last; f++) {
                    r.fill(f, size);
                    r.commit(f, size);
                }
                r.publish(batch);
            } else {
                r.produce_fused(batch, size);
            }
        }
    });
    std::thread consumer([&] {
        RT(cudaSetDevice(c));
        for (uint64_t s = 1; s <= total; s += batch) {
            const uint64_t last = s + batch - 1;
            if (last > o.depth * batch) await_at_least(r.cmirror, last - o.depth * batch, "ack (armed depth)");
            if (steps) {
                r.arm_doorbell(last);
                r.consume_steps(s, last, size, last, AckStep::kernel);  // an armed round's ack: a kernel
            } else {
                r.arm_device(last);
                r.consume_fused(s, last, size);
            }
        }
    });
    producer.join();
    consumer.join();
    await_at_least(r.cmirror, total, "final ack");
    throughput_result(mode, size, total, seconds_since(t0), r, batch);
}

}  // namespace harness
