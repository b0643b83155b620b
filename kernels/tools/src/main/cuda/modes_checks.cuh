// modes_checks.cuh: the kernels' bandwidth at frame sizes, and the armed rounds' cancellation.
//
//   bandwidth     each copying or checksumming step on one frame of 1, 16 and 64 MiB, launched back to back
//                 and timed with events, against cudaMemcpyAsync of the same bytes (the measured ceiling;
//                 copies count bytes read plus written); each also as the nodes of one graph, replayed: the
//                 device's time per kernel without the host's launch rate, which bounds the stream loop at
//                 1 MiB (about 4 us per launch); and the publish tail's GPU time (publish_cost)
//   cancel        rounds armed on doorbells of frames nobody publishes, released by the host (a store of
//                 each frame's own sequence into its doorbell): the time until the consumer stream is idle,
//                 and that every released round took nothing and acknowledged nothing
//   cancel-race   a producer publishing while the host cancels armed rounds at random: every frame is still
//                 taken once, in order, intact, and no round hangs
#pragma once

#include <atomic>
#include <random>
#include <thread>

#include "bench_rig.cuh"

namespace harness {

// The GPU time of one publish step: 200 of them as the nodes of one graph, replayed, against 200 empty
// kernels the same way (what the graph's node spacing costs): the pre-review tail, today's tail with the
// length in the ring, with the length read from the pinned staging ring, with doorbells; and a producer
// kernel publishing at its end against the same kernel without the publish.
inline void publish_cost(int p, int c) {
    Rig r(p, c, 64, 4096, true);
    PublishArgs plain = r.pa;
    plain.doorbells = 0;
    const int nodes = 200;
    auto time_graph = [&](const char* step, auto node) {
        cudaGraph_t graph;
        cudaGraphExec_t exec;
        RT(cudaStreamBeginCapture(r.ps, cudaStreamCaptureModeThreadLocal));
        for (int i = 0; i < nodes; i++) node();
        RT(cudaStreamEndCapture(r.ps, &graph));
        RT(cudaGraphInstantiate(&exec, graph, 0));
        cudaEvent_t start, stop;
        RT(cudaEventCreate(&start));
        RT(cudaEventCreate(&stop));
        RT(cudaGraphLaunch(exec, r.ps));  // warm-up
        RT(cudaEventRecord(start, r.ps));
        for (int k = 0; k < 5; k++) RT(cudaGraphLaunch(exec, r.ps));
        RT(cudaEventRecord(stop, r.ps));
        RT(cudaEventSynchronize(stop));
        float ms = 0;
        RT(cudaEventElapsedTime(&ms, start, stop));
        Json row;
        row["mode"] = "publish-cost";
        row["step"] = step;
        row["nodes"] = nodes * 5;
        row["us_per_node"] = rounded(ms * 1e3 / (nodes * 5), 3);
        add_result(std::move(row));
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
        RT(cudaGraphExecDestroy(exec));
        RT(cudaGraphDestroy(graph));
    };
    PublishArgs in_ring = plain;
    in_ring.staging = 0;  // lengths already in the ring (a producer kernel wrote them)
    RT(cudaSetDevice(p));
    time_graph("empty-kernel", [&] { bench_noop<<<1, 32, 0, r.ps>>>(); });
    time_graph("publish-legacy-6-membars", [&] { fp_publish_legacy<<<1, 32, 0, r.ps>>>(in_ring, 1); });
    time_graph("publish-step", [&] { seqlink_publish<<<1, 32, 0, r.ps>>>(in_ring, 1); });
    time_graph("publish-step-staged-length", [&] { seqlink_publish<<<1, 32, 0, r.ps>>>(plain, 1); });
    time_graph("publish-step-doorbells", [&] {
        PublishArgs d = r.pa;
        d.staging = 0;
        seqlink_publish<<<1, 32, 0, r.ps>>>(d, 1);
    });
    time_graph("fill-64B", [&] { pattern_fill<<<1, 256, 0, r.ps>>>(r.payload(1), 64, 1); });
    time_graph("fill-64B-publish-at-end", [&] { fp_produce<<<1, 256, 0, r.ps>>>(r.pa_kernel, 1, 64); });
    RT(cudaStreamSynchronize(r.ps));
}

inline void bandwidth(const Options& o, int p, int c) {
    (void)o;
    if (p != c) {
        return;  // one device's memory bandwidth
    }
    publish_cost(p, c);
    cudaEvent_t start, stop;
    RT(cudaEventCreate(&start));
    RT(cudaEventCreate(&stop));
    for (uint64_t size : {1ull << 20, 16ull << 20, 64ull << 20}) {
        Rig r(p, c, 2, size);
        r.produce_steps(1, size);
        r.produce_steps(2, size);
        RT(cudaStreamSynchronize(r.ps));
        const int reps = size >= (64ull << 20) ? 10 : 40;
        auto elapsed_ms = [&](auto work) {
            RT(cudaEventRecord(start, r.cs));
            work();
            RT(cudaEventRecord(stop, r.cs));
            RT(cudaEventSynchronize(stop));
            float ms = 0;
            RT(cudaEventElapsedTime(&ms, start, stop));
            return static_cast<double>(ms);
        };
        auto time = [&](const char* step, double bytes_per_launch, auto launch) {
            launch(0);  // warm-up
            const double ms = elapsed_ms([&] { for (int i = 0; i < reps; i++) launch(i); });
            cudaGraph_t graph;
            cudaGraphExec_t exec;
            RT(cudaStreamBeginCapture(r.cs, cudaStreamCaptureModeThreadLocal));
            for (int i = 0; i < reps; i++) launch(i);
            RT(cudaStreamEndCapture(r.cs, &graph));
            RT(cudaGraphInstantiate(&exec, graph, 0));
            RT(cudaGraphLaunch(exec, r.cs));  // warm-up
            const double graph_ms = elapsed_ms([&] { RT(cudaGraphLaunch(exec, r.cs)); });
            RT(cudaGraphExecDestroy(exec));
            RT(cudaGraphDestroy(graph));
            Json row;
            row["mode"] = "bandwidth";
            row["step"] = step;
            row["frame_bytes"] = size;
            row["launches"] = reps;
            row["us_per_launch"] = rounded(ms * 1e3 / reps, 3);
            row["gb_per_s"] = rounded(bytes_per_launch * reps / (ms * 1e-3) / 1e9, 1);
            row["us_per_launch_graph"] = rounded(graph_ms * 1e3 / reps, 3);
            row["gb_per_s_graph"] = rounded(bytes_per_launch * reps / (graph_ms * 1e-3) / 1e9, 1);
            add_result(std::move(row));
        };
        const uint64_t s_payload = layout::SLOT_HEADER_BYTES;
        time("memcpy-d2d", 2.0 * size, [&](int i) {
            RT(cudaMemcpyAsync(r.local + r.offset(1 + i % 2) + s_payload, r.ring + r.offset(1 + i % 2) + s_payload, size,
                    cudaMemcpyDeviceToDevice, r.cs));
        });
        time("consume-step-copy", 2.0 * size, [&](int i) {
            seqlink_consume<<<r.consume_grid(r.stride), 256, 0, r.cs>>>(r.ca, 1 + i % 2, 1 + i % 2, 1, 0);
            LAUNCHED();
        });
        // the consume grid before 2026-12-02: a block per 32 KiB (32 blocks at 1 MiB), at most two per SM
        time("consume-step-copy-32k", 2.0 * size, [&](int i) {
            seqlink_consume<<<blocks_for(r.stride, 32 * 1024, 2 * r.sms), 256, 0, r.cs>>>(r.ca, 1 + i % 2, 1 + i % 2, 1, 0);
            LAUNCHED();
        });
        time("pattern-checksum", 1.0 * size, [&](int i) {
            pattern_checksum<<<r.grid_for(size), 256, 0, r.cs>>>(r.payload(1 + i % 2), size, r.results_dev, addr(r.checksum_scratch));
            LAUNCHED();
        });
        time("pattern-fill", 1.0 * size, [&](int i) {
            pattern_fill<<<r.grid_for(size), 256, 0, r.cs>>>(r.payload(1 + i % 2), size, 1 + i % 2);
            LAUNCHED();
        });
        time("fused-copy-checksum", 2.0 * size, [&](int i) {
            r.consume_fused(1 + i % 2, 1 + i % 2, size);
        });
        RT(cudaStreamSynchronize(r.cs));
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
}

// Polls the consumer stream until its queue is empty; false after 2 s (a round the host could not release).
inline bool drained(Rig& r) {
    auto start = Clock::now();
    while (true) {
        cudaError_t e = cudaStreamQuery(r.cs);
        if (e == cudaSuccess) return true;
        if (e != cudaErrorNotReady) die("cudaStreamQuery: %s", cudaGetErrorName(e));
        if (Clock::now() - start > std::chrono::seconds(2)) return false;
    }
}

inline void cancel_latency(const Options& o, int p, int c, int repeats = 200) {
    Rig r(p, c, o.slots, 4096, true);
    RT(cudaSetDevice(c));
    const uint64_t rounds = 4;
    std::vector<double> lat;
    uint64_t hung = 0, took = 0;
    uint64_t base = 0;
    for (int it = 0; it < repeats; it++) {
        const uint64_t empty_before = r.empty_rounds();
        for (uint64_t s = base + 1; s <= base + rounds; s++) {
            r.arm_doorbell(s);
            r.consume_fused(s, s, 4096);
        }
        std::this_thread::sleep_for(std::chrono::microseconds(20));  // the first wait is pending on the device
        auto t0 = Clock::now();
        for (uint64_t s = base + 1; s <= base + rounds; s++) {
            r.cancel(s);
        }
        if (!drained(r)) {
            hung++;
            all_ok = false;
            break;
        }
        lat.push_back(micros(Clock::now() - t0));
        took += rounds - (r.empty_rounds() - empty_before);
        base += rounds;
    }
    const bool ok = hung == 0 && took == 0 && r.acked() == 0;
    if (!ok) all_ok = false;
    Json row;
    row["mode"] = "cancel";
    row["armed_rounds"] = rounds;
    row["repeats"] = repeats;
    row["cancel_to_idle_us"] = latency_json(percentiles(lat));
    row["hung"] = hung;
    row["rounds_that_took_frames"] = took;
    row["acknowledged"] = r.acked();
    row["ok"] = ok;
    add_result(std::move(row));
}

inline void cancel_race(const Options& o, int p, int c) {
    const uint64_t size = 16384;
    const uint64_t total = std::min<uint64_t>(o.frames, 4000);
    Rig r(p, c, o.slots, size, true);
    std::atomic<bool> failed{false};
    std::thread producer([&] {
        RT(cudaSetDevice(p));
        std::mt19937_64 rnd(7);
        for (uint64_t s = 1; s <= total && !failed; s++) {
            if (s > r.slots) await_at_least(r.cmirror, s - r.slots, "ack (backpressure)");
            r.produce_fused(1, size);
            if (rnd() % 4 == 0) std::this_thread::sleep_for(std::chrono::microseconds(rnd() % 30));
        }
    });
    RT(cudaSetDevice(c));
    std::mt19937_64 rnd(11);
    uint64_t cancels = 0, rearms = 0, hung = 0;  // rearms: cancelled rounds whose frame an ordinary round took
    for (uint64_t next = 1; next <= total;) {
        const uint64_t empty_before = r.empty_rounds();
        r.arm_doorbell(next);
        r.consume_fused(next, next, size);
        if (rnd() % 3 == 0) {
            std::this_thread::sleep_for(std::chrono::microseconds(rnd() % 20));
            r.cancel(next);
            cancels++;
        }
        if (!drained(r)) {  // only a cancel or the frame can release the round; the producer keeps publishing
            hung++;
            failed = true;
            break;
        }
        if (r.acked() < next && r.empty_rounds() > empty_before) {
            // released before the frame was there: it took nothing. The frame goes to an ordinary round once
            // the host sees it published (re-arming on the same doorbell would pass at once: it holds `next`).
            rearms++;
            await_at_least(r.mirror + layout::CONTROL_PUBLISH_SEQ / 8, next, "publish mirror");
            r.consume_fused(next, next, size);
            if (!drained(r)) {
                hung++;
                failed = true;
                break;
            }
        }
        if (r.acked() < next) {
            failed = true;
            break;
        }
        next++;
    }
    producer.join();
    uint64_t corrupt = 0;
    for (uint64_t s = total > 1000 ? total - 1000 : 1; s <= total; s++) corrupt += r.result(s) != expected_checksum(s, size);
    const bool ok = !failed && hung == 0 && corrupt == 0 && r.acked() == total;
    if (!ok) all_ok = false;
    Json row;
    row["mode"] = "cancel-race";
    row["frames"] = total;
    row["cancels"] = cancels;
    row["taken_unarmed_after_cancel"] = rearms;
    row["hung"] = hung;
    row["corrupt"] = corrupt;
    row["acknowledged"] = r.acked();
    row["ok"] = ok;
    add_result(std::move(row));
}

}  // namespace harness
