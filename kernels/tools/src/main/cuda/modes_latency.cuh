// modes_latency.cuh: one frame in flight, timed on the host from the frame's first call until the host
// sees it done (a synchronize returns, or the consumer's ack lands in host memory). The same work in every
// row: the pattern written on the producer side, copied to the consumer side, checksummed there.
//
//   naive-1s         fill kernel + cudaMemcpyAsync + checksum kernel + cudaStreamSynchronize, one stream
//   naive-1s-graph   the same three as one CUDA graph, launched and synchronised per frame
//   naive-2s         fill + copy on the producer stream, event record, stream wait, checksum on the consumer
//                    stream, synchronise (what GPU 0 -> GPU 1 needs)
//   channel          the channel today: fill, commit (pinned length), publish step; the host sees the mirror;
//                    consume step, checksum kernel (a device listener), the ack as cuStreamWriteValue64 (an
//                    ordinary round; the seqlink_ack kernel without 64-bit stream memory operations); the host
//                    sees the ack
//   channel-ack-kernel  the same with the seqlink_ack kernel (the memop's A/B)
//   wait-value       channel, the consumer's steps enqueued ahead behind a stream wait on the host mirror
//   steps-armed      the same, armed on the frame's doorbell: the cancellable pre-armed round; its ack stays
//                    the seqlink_ack kernel of the frame's sequence
//   steps-armed-taken   the same armed round for a listener that takes armed rounds: consume step,
//                    pattern_checksum_taken (reads the descriptor), seqlink_ack_ready (what was taken): the
//                    twin of Java's cycle-channel-device-armed
//   steps-armed-acking  the same listener acknowledging in its kernel: consume step, then
//                    pattern_checksum_taken_acking (acknowledge_taken_at_end); no ack step: the twin of Java's
//                    cycle-channel-device-acking
//   steps-graph      steps-armed's round captured as one CUDA graph (made and launched ahead)
//   steps-fused      the channel's producer steps; the consumer armed on the doorbell runs ONE kernel
//                    (acquire, copy + checksum, ack): the ack fused into the consume step
//   floor            the C++ floor: one producer kernel publishing at its end; a consumer kernel armed behind
//                    a stream wait on the device publish_seq (acquire, copy + checksum, ack)
//   floor-doorbell   the floor armed on the doorbell instead (what the host can cancel)
//   spin             FORBIDDEN in the product: a persistent consumer kernel spinning on publish_seq
//   steps-fused-memops  steps-fused with the publish step's six writes as cuStreamWriteValue64 calls instead of
//                    the publish kernel (a PROTOTYPE: Rig::publish_memops)
//   steps-fused-batch   the same six writes as one cuStreamBatchMemOp (not reachable from JCuda 12.6)
//   steps-fused-no-staging  steps-fused with the publish kernel's handle without the staging ring, the fill kernel
//                    writing the length (what a length passed as the kernel's argument would save: the read of
//                    pinned host memory before the stamps)
//   steps-fused-graph-publish  steps-fused with the publish kernel (count 1) launched as a one-node CUDA graph made
//                    once (cudaGraphLaunch per frame: a cheaper host call than the kernel launch)
//   memop-floor      the fill kernel (writing the length), then ONE stream write of publish_seq; the consumer armed on the device word
//                    runs floor's one kernel: the least any stream-write publish costs
//   memop-doorbell   the fill kernel (writing the length), then two stream writes, publish_seq and the frame's doorbell;
//                    the consumer is steps-fused's, armed on the doorbell: with steps-fused-memops' six writes, what
//                    each write costs
//   memcpy-peer      cudaMemcpyPeerAsync of the frame + event record + event synchronise (and its bandwidth)
#pragma once

#include "bench_rig.cuh"

namespace harness {

// One latency row: the members every latency row has, then those of `extra`.
inline void add_latency(const char* mode, uint64_t size, uint64_t frames, const std::vector<double>& lat, uint64_t verified,
        uint64_t corrupt, const Json& extra) {
    if (corrupt) all_ok = false;
    Json row;
    row["mode"] = mode;
    row["kind"] = "latency";
    row["frame_bytes"] = size;
    row["frames"] = frames;
    row["latency_us"] = latency_json(percentiles(lat));
    row["verified"] = verified;
    row["corrupt"] = corrupt;
    row.update(extra);
    add_result(std::move(row));
}

// Runs `total` frames; arm(s) is untimed work queued ahead of frame s, frame(s) issues it, done(s) waits
// for it. Rows report latency percentiles, the checksums verified, and the members `extra()` returns.
template <typename Arm, typename Frame, typename Done, typename Extra>
void latency_row(const Options& o, const char* mode, uint64_t size, Rig& r, Arm arm, Frame frame, Done done, Extra extra) {
    const uint64_t frames = frames_for(o, size);
    const uint64_t total = o.warmup + frames;
    std::vector<double> lat;
    lat.reserve(frames);
    uint64_t verified = 0, corrupt = 0;
    for (uint64_t s = 1; s <= total; s++) {
        arm(s);
        auto t0 = Clock::now();
        frame(s);
        done(s);
        auto t1 = Clock::now();
        if (s > o.warmup) {
            lat.push_back(micros(t1 - t0));
            if (checked(s, size)) {
                if (r.result(s) == expected_checksum(s, size)) {
                    verified++;
                } else {
                    corrupt++;
                }
            }
        }
    }
    add_latency(mode, size, frames, lat, verified, corrupt, extra());
}

inline auto no_extra() {
    return [] { return Json::object(); };
}

// Waits until frame s's armed round (round s) acknowledged s, or landed without its frame: an early wake
// (the doorbell passed before the consume step's acquire read saw the publish). The acks of what was taken
// (seqlink_ack_ready, acknowledge_taken_at_end) then acknowledge s - 1, so the ack alone would never reach
// s: the frame stays untaken, the row counts it corrupt and its early_wakes say why. The landing is looked
// at every 256th spin only, so the spin on the ack is the other rows' spin.
inline void await_armed_round(const Rig& r, uint64_t s) {
    uint32_t spins = 0;
    await_until([&] { return r.acked() >= s || ((++spins & 0xFF) == 0 && r.landed_without(s, s)); }, [&] {
        return fmt("the ack of armed round %llu (it is %llu)", (unsigned long long)s, (unsigned long long)r.acked());
    });
}

// One extra member.
inline Json member(const char* name, Json value) {
    Json j;
    j[name] = std::move(value);
    return j;
}

// A row whose consumer is steps-fused's: ONE kernel (acquire, copy + checksum, ack) armed on frame s's doorbell;
// produce(s) is the producer's side of frame s.
template <typename Produce>
void fused_doorbell_row(const Options& o, int p, int c, const char* mode, uint64_t size, Rig& r, Produce produce) {
    latency_row(o, mode, size, r, [&](uint64_t s) {
        if (p != c) RT(cudaSetDevice(c));
        r.arm_doorbell(s);
        r.consume_fused(s, s, size);
    }, [&](uint64_t s) {
        if (p != c) RT(cudaSetDevice(p));
        produce(s);
    }, [&](uint64_t s) { await_at_least(r.cmirror, s, "ack"); }, [&] {
        return member("early_wakes", r.empty_rounds());
    });
}

inline void naive_latency(const Options& o, int p, int c, uint64_t size) {
    {
        Rig r(p, c, o.slots, size);
        cudaEvent_t e;
        RT(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
        if (p == c) {
            latency_row(o, "naive-1s", size, r, [](uint64_t) {}, [&](uint64_t s) {
                pattern_fill<<<r.grid_for(size), 256, 0, r.cs>>>(r.payload(s), size, s);
                LAUNCHED();
                r.copy_payload(s, size, r.cs);
                r.checksum_local(s, size);
            }, [&](uint64_t) { RT(cudaStreamSynchronize(r.cs)); }, no_extra());
        }
        latency_row(o, "naive-2s", size, r, [](uint64_t) {}, [&](uint64_t s) {
            RT(cudaSetDevice(p));
            r.fill(s, size);
            r.copy_payload(s, size, r.ps);
            RT(cudaEventRecord(e, r.ps));
            RT(cudaSetDevice(c));
            RT(cudaStreamWaitEvent(r.cs, e, 0));
            r.checksum_local(s, size);
        }, [&](uint64_t) { RT(cudaStreamSynchronize(r.cs)); }, no_extra());
        RT(cudaEventDestroy(e));
    }
    if (p == c) {
        // one graph of the three steps for frame 1, replayed: every frame checks as frame 1
        Rig r(p, c, o.slots, size);
        cudaGraph_t graph;
        cudaGraphExec_t exec;
        RT(cudaStreamBeginCapture(r.cs, cudaStreamCaptureModeThreadLocal));
        pattern_fill<<<r.grid_for(size), 256, 0, r.cs>>>(r.payload(1), size, 1);
        RT(cudaMemcpyAsync(r.local + r.offset(1) + layout::SLOT_HEADER_BYTES, r.ring + r.offset(1) + layout::SLOT_HEADER_BYTES, size,
                cudaMemcpyDefault, r.cs));
        pattern_checksum<<<r.grid_for(size), 256, 0, r.cs>>>(addr(r.local) + r.offset(1) + layout::SLOT_HEADER_BYTES, size,
                r.results_dev, addr(r.checksum_scratch));
        RT(cudaStreamEndCapture(r.cs, &graph));
        RT(cudaGraphInstantiate(&exec, graph, 0));
        const uint64_t frames = frames_for(o, size);
        std::vector<double> lat;
        uint64_t corrupt = 0;
        const uint64_t want = expected_checksum(1, size);
        for (uint64_t i = 0; i < o.warmup + frames; i++) {
            r.results[0] = 0;
            auto t0 = Clock::now();
            RT(cudaGraphLaunch(exec, r.cs));
            RT(cudaStreamSynchronize(r.cs));
            auto t1 = Clock::now();
            if (i >= o.warmup) {
                lat.push_back(micros(t1 - t0));
                corrupt += r.results[0] != want;
            }
        }
        add_latency("naive-1s-graph", size, frames, lat, frames - corrupt, corrupt, Json::object());
        RT(cudaGraphExecDestroy(exec));
        RT(cudaGraphDestroy(graph));
    }
}

inline void channel_latency(const Options& o, int p, int c, uint64_t size) {
    auto to_producer = [&] { if (p != c) RT(cudaSetDevice(p)); };
    auto to_consumer = [&] { if (p != c) RT(cudaSetDevice(c)); };
    // ordinary rounds: the host sees the publish, then enqueues the consumer's steps
    const std::pair<const char*, AckStep> host_hop_rows[] = {{"channel", AckStep::write_value}, {"channel-ack-kernel", AckStep::kernel}};
    for (const auto& row : host_hop_rows) {
        Rig r(p, c, o.slots, size);
        latency_row(o, row.first, size, r, [](uint64_t) {}, [&](uint64_t s) {
            to_producer();
            r.produce_steps(s, size);
            await_at_least(r.mirror + layout::CONTROL_PUBLISH_SEQ / 8, s, "publish mirror");
            to_consumer();
            r.consume_steps(s, s, size, s, row.second);
        }, [&](uint64_t s) { await_at_least(r.cmirror, s, "ack"); }, no_extra());
    }
    {
        // still an ordinary round: the host passes the sequence the wait is on
        Rig r(p, c, o.slots, size);
        latency_row(o, "wait-value", size, r, [&](uint64_t s) {
            to_consumer();
            r.arm_mirror(s);
            r.consume_steps(s, s, size, s, AckStep::write_value);
        }, [&](uint64_t s) {
            to_producer();
            r.produce_steps(s, size);
        }, [&](uint64_t s) { await_at_least(r.cmirror, s, "ack"); }, no_extra());
    }
    // armed rounds: round_steps(r, s) enqueued behind a wait on frame s's doorbell before its producer steps
    auto doorbell_row = [&](const char* mode, auto round_steps) {
        Rig r(p, c, o.slots, size, true);
        latency_row(o, mode, size, r, [&](uint64_t s) {
            to_consumer();
            r.arm_doorbell(s);
            round_steps(r, s);
        }, [&](uint64_t s) {
            to_producer();
            r.produce_steps(s, size);
        }, [&](uint64_t s) { await_armed_round(r, s); }, [&] { return member("early_wakes", r.early_wakes()); });
    };
    doorbell_row("steps-armed", [&](Rig& r, uint64_t s) { r.consume_steps(s, s, size, s, AckStep::kernel); });  // ack: the kernel
    doorbell_row("steps-armed-taken", [&](Rig& r, uint64_t s) { r.consume_taken_steps(s, size); });
    doorbell_row("steps-armed-acking", [&](Rig& r, uint64_t s) { r.consume_acking_steps(s, size); });
    {
        // the armed round (wait + consume + checksum + ack) as one CUDA graph, made and launched ahead
        Rig r(p, c, o.slots, size, true);
        to_consumer();
        cudaGraphExec_t exec = nullptr;
        std::string unsupported;
        latency_row(o, "steps-graph", size, r, [&](uint64_t s) {
            if (!unsupported.empty()) return;
            cudaGraph_t graph;
            RT(cudaStreamBeginCapture(r.cs, cudaStreamCaptureModeThreadLocal));
            CUresult w = drv.waitValue64(reinterpret_cast<CUstream>(r.cs),
                    static_cast<CUdeviceptr>(r.doorbell_word(s)), s, CU_STREAM_WAIT_VALUE_GEQ);
            r.consume_steps(s, s, size, s, AckStep::kernel);  // an armed round's ack: a kernel, as steps-armed's
            cudaError_t e = cudaStreamEndCapture(r.cs, &graph);
            if (w != CUDA_SUCCESS || e != cudaSuccess) {
                const char* n = nullptr;
                if (drv.getErrorName) drv.getErrorName(w, &n);
                unsupported = fmt("stream capture of cuStreamWaitValue64: %s / %s", n ? n : "?", cudaGetErrorName(e));
                cudaGetLastError();
                return;
            }
            if (exec) RT(cudaGraphExecDestroy(exec));
            RT(cudaGraphInstantiate(&exec, graph, 0));
            RT(cudaGraphDestroy(graph));
            RT(cudaGraphLaunch(exec, r.cs));
        }, [&](uint64_t s) {
            to_producer();
            r.produce_steps(s, size);
            if (!unsupported.empty()) {
                to_consumer();
                r.consume_steps(s, s, size, s, AckStep::kernel);  // keeps the row running; reported as unsupported below
            }
        }, [&](uint64_t s) { await_at_least(r.cmirror, s, "ack"); }, [&] {
            return unsupported.empty() ? Json::object() : member("unsupported", unsupported);
        });
        if (exec) RT(cudaGraphExecDestroy(exec));
    }
    {
        Rig r(p, c, o.slots, size, true);
        fused_doorbell_row(o, p, c, "steps-fused", size, r, [&](uint64_t s) { r.produce_steps(s, size); });
    }
}

inline void floor_latency(const Options& o, int p, int c, uint64_t size) {
    auto to_producer = [&] { if (p != c) RT(cudaSetDevice(p)); };
    auto to_consumer = [&] { if (p != c) RT(cudaSetDevice(c)); };
    {
        Rig r(p, c, o.slots, size);
        latency_row(o, "floor", size, r, [&](uint64_t s) {
            to_consumer();
            r.arm_device(s);
            r.consume_fused(s, s, size);
        }, [&](uint64_t) {
            to_producer();
            r.produce_fused(1, size);
        }, [&](uint64_t s) { await_at_least(r.cmirror, s, "ack"); }, no_extra());
    }
    {
        Rig r(p, c, o.slots, size, true);
        fused_doorbell_row(o, p, c, "floor-doorbell", size, r, [&](uint64_t) { r.produce_fused(1, size); });
    }
    {
        // FORBIDDEN in the product: the consumer kernel spins. Started once; it takes every frame.
        Rig r(p, c, o.slots, size);
        const uint64_t total = o.warmup + frames_for(o, size);
        to_consumer();
        cudaFuncAttributes attr{};
        RT(cudaFuncGetAttributes(&attr, fp_spin_consume));  // loaded before it spins (see main: lazy loading)
        RT(cudaFuncGetAttributes(&attr, fp_produce));
        fp_spin_consume<<<1, 256, 0, r.cs>>>(r.ca, total, addr(r.local), r.results_dev, o.max_spins);
        LAUNCHED();
        latency_row(o, "spin", size, r, [](uint64_t) {}, [&](uint64_t) {
            to_producer();
            r.produce_fused(1, size);
        }, [&](uint64_t s) { await_at_least(r.cmirror, s, "ack"); }, [] {
            return member("forbidden", "a consumer kernel that spins on another kernel's progress");
        });
        to_consumer();
        RT(cudaStreamSynchronize(r.cs));
    }
}

// The prototype rows of a publish made of stream writes (Rig::publish_memops), beside steps-fused and floor.
inline void memop_publish_latency(const Options& o, int p, int c, uint64_t size) {
    auto to_producer = [&] { if (p != c) RT(cudaSetDevice(p)); };
    auto to_consumer = [&] { if (p != c) RT(cudaSetDevice(c)); };
    for (bool batched : {false, true}) {
        Rig r(p, c, o.slots, size, true);
        fused_doorbell_row(o, p, c, batched ? "steps-fused-batch" : "steps-fused-memops", size, r, [&](uint64_t s) {
            r.fill(s, size);
            r.publish_memops(s, size, batched);
        });
    }
    {
        Rig r(p, c, o.slots, size, true);
        fused_doorbell_row(o, p, c, "steps-fused-no-staging", size, r, [&](uint64_t) {
            r.fill_with_length(size);
            r.publish_without_staging(1);
        });
    }
    {
        Rig r(p, c, o.slots, size, true);
        to_producer();
        cudaGraph_t graph;
        cudaGraphExec_t publish_one = nullptr;
        RT(cudaStreamBeginCapture(r.ps, cudaStreamCaptureModeThreadLocal));
        r.publish(1);
        RT(cudaStreamEndCapture(r.ps, &graph));
        RT(cudaGraphInstantiate(&publish_one, graph, 0));
        RT(cudaGraphDestroy(graph));
        fused_doorbell_row(o, p, c, "steps-fused-graph-publish", size, r, [&](uint64_t s) {
            r.fill(s, size);
            r.commit(s, size);
            RT(cudaGraphLaunch(publish_one, r.ps));
        });
        to_producer();
        RT(cudaStreamSynchronize(r.ps));
        RT(cudaGraphExecDestroy(publish_one));
    }
    {
        Rig r(p, c, o.slots, size, true);
        fused_doorbell_row(o, p, c, "memop-doorbell", size, r, [&](uint64_t s) {
            r.fill_with_length(size);
            r.publish_two_memops(s);
        });
    }
    {
        Rig r(p, c, o.slots, size);
        latency_row(o, "memop-floor", size, r, [&](uint64_t s) {
            to_consumer();
            r.arm_device(s);
            r.consume_fused(s, s, size);
        }, [&](uint64_t s) {
            to_producer();
            r.fill_with_length(size);
            r.publish_one_memop(s);
        }, [&](uint64_t s) { await_at_least(r.cmirror, s, "ack"); }, no_extra());
    }
}

// cudaMemcpyPeerAsync of the frame between the two devices (or on one), timed to its event, and back to back.
inline void memcpy_peer(const Options& o, int p, int c, uint64_t size) {
    void *src = nullptr, *dst = nullptr;
    RT(cudaSetDevice(p));
    RT(cudaMalloc(&src, size));
    pattern_fill<<<64, 256>>>(reinterpret_cast<uint64_t>(src), size, 7);
    LAUNCHED();
    RT(cudaDeviceSynchronize());
    RT(cudaSetDevice(c));
    RT(cudaMalloc(&dst, size));
    cudaStream_t s;
    RT(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t ev;
    RT(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    std::vector<double> lat;
    const uint64_t frames = frames_for(o, size);
    for (uint64_t i = 0; i < o.warmup + frames; i++) {
        auto t0 = Clock::now();
        RT(cudaMemcpyPeerAsync(dst, c, src, p, size, s));
        RT(cudaEventRecord(ev, s));
        RT(cudaEventSynchronize(ev));
        if (i >= o.warmup) lat.push_back(micros(Clock::now() - t0));
    }
    // bandwidth: back-to-back copies, one sync
    uint64_t n = std::max<uint64_t>(16, std::min<uint64_t>(frames, (8ull << 30) / size));
    auto t0 = Clock::now();
    for (uint64_t i = 0; i < n; i++) RT(cudaMemcpyPeerAsync(dst, c, src, p, size, s));
    RT(cudaStreamSynchronize(s));
    double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    uint64_t* check = nullptr;
    RT(cudaHostAlloc(reinterpret_cast<void**>(&check), 8, cudaHostAllocMapped));
    uint64_t check_dev = 0;
    RT(cudaHostGetDevicePointer(reinterpret_cast<void**>(&check_dev), check, 0));
    pattern_checksum<<<1, 256, 0, s>>>(reinterpret_cast<uint64_t>(dst), size, check_dev, 0);
    LAUNCHED();
    RT(cudaStreamSynchronize(s));
    bool ok = *check == expected_checksum(7, size);
    add_latency("memcpy-peer", size, frames, lat, ok ? 1 : 0, ok ? 0 : 1, member("gb_per_s", rounded(n * (double)size / seconds / 1e9, 3)));
    cudaFreeHost(check);
    cudaEventDestroy(ev);
    cudaStreamDestroy(s);
    cudaFree(dst);
    RT(cudaSetDevice(p));
    cudaFree(src);
}

}  // namespace harness
