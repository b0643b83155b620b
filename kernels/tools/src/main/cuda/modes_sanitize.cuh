// modes_sanitize.cuh: every kernel once, small, with its result checked: what compute-sanitizer
// (memcheck, racecheck, synccheck) runs (`--mode sanitize`).
#pragma once

#include "bench_rig.cuh"
#include "modes_checks.cuh"
#include "modes_host.cuh"
#include "modes_schemes.cuh"

namespace harness {

inline void check(const char* name, bool ok, const std::string& detail) {
    if (!ok) all_ok = false;
    Json row;
    row["mode"] = "sanitize";
    row["check"] = name;
    row["ok"] = ok;
    row["detail"] = detail;
    add_result(std::move(row));
}

inline void sanitize_channel(int p, int c) {
    // the channel's steps at sizes that take one block, an odd tail, and a multi-block consume
    for (uint64_t size : {64ull, 16389ull, 200000ull}) {
        Rig r(p, c, 8, size);
        uint64_t bad = 0;
        for (uint64_t s = 1; s <= 12; s++) {
            RT(cudaSetDevice(p));
            r.produce_steps(s, size);
            await_at_least(r.mirror, s, "publish mirror");
            RT(cudaSetDevice(c));
            r.consume_steps(s, s, size, s, AckStep::write_value);  // ordinary rounds, as the runtime acks them
            await_at_least(r.cmirror, s, "ack mirror");
            RT(cudaStreamSynchronize(r.cs));
            bad += r.result(s) != expected_checksum(s, size);
        }
        check("channel-steps", bad == 0, fmt("%llu B x 12 frames, %llu corrupt", (unsigned long long)size, (unsigned long long)bad));
    }
    // a batch consume of several frames, then latest delivery lapped by the producer (max_batch 3, slots 4);
    // acked by the seqlink_ack kernel (the runtime's fallback, and the armed rows' ack), so it is checked too
    {
        Rig r(p, c, 4, 1000);
        r.ca.lapping = 1;
        RT(cudaSetDevice(p));
        for (uint64_t s = 1; s <= 3; s++) r.produce_steps(s, 1000);
        RT(cudaStreamSynchronize(r.ps));
        RT(cudaSetDevice(c));
        r.consume_steps(1, 3, 1000, 1, AckStep::kernel);
        RT(cudaStreamSynchronize(r.cs));
        // writer_busy = 3 + 3 = 6: slots of frames 2 and 3 - 4... only frame 3 is certainly intact (6 - 4 + 1)
        uint64_t reads = r.cmirror[layout::CONSUMER_READS / 8], valid_from = r.cmirror[layout::CONSUMER_VALID_FROM / 8];
        uint64_t laps0 = r.cmirror[layout::CONSUMER_LAPS / 8];
        bool ok = r.result(3) == expected_checksum(3, 1000) && reads == 1 && valid_from == 3 && laps0 == 2;
        RT(cudaSetDevice(p));
        for (uint64_t s = 4; s <= 6; s++) r.produce_steps(s, 1000);
        RT(cudaStreamSynchronize(r.ps));
        RT(cudaSetDevice(c));
        r.consume_steps(4, 6, 1000, 2, AckStep::kernel);
        RT(cudaStreamSynchronize(r.cs));
        uint64_t laps = r.cmirror[layout::CONSUMER_LAPS / 8];
        valid_from = r.cmirror[layout::CONSUMER_VALID_FROM / 8];
        // writer_busy = 6 + 3 = 9 -> oldest intact 6: frames 4 and 5 are reported lapped too
        ok = ok && valid_from == 6 && laps == 4 && r.result(6) == expected_checksum(6, 1000)
                && r.cmirror[layout::CONSUMER_ROUND / 8] == 2;
        check("batch-and-lapping", ok, fmt("valid_from %llu laps %llu", (unsigned long long)valid_from, (unsigned long long)laps));
    }
    // the publish step with push targets: a device replica and a host replica, multi-block
    {
        const uint64_t size = 100000, slots = 4;
        Rig r(p, c, slots, size);
        RT(cudaSetDevice(c));
        uint64_t* rc = device_alloc<uint64_t>(layout::CONTROL_BYTES);
        uint8_t* rr = device_alloc<uint8_t>(slots * r.stride);
        uint64_t hc_dev = 0, hr_dev = 0;
        uint8_t* hc = mapped_alloc(layout::CONTROL_BYTES, &hc_dev);
        uint8_t* hr = mapped_alloc(slots * r.stride, &hr_dev);
        RT(cudaSetDevice(p));
        if (p != c) {
            cudaError_t e = cudaDeviceEnablePeerAccess(c, 0);
            if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled) die("peer access: %s", cudaGetErrorName(e));
            cudaGetLastError();
        }
        PublishArgs pa = r.pa;
        pa.push_count = 2;
        pa.push_control[0] = addr(rc);
        pa.push_ring[0] = addr(rr);
        pa.push_control[1] = hc_dev;
        pa.push_ring[1] = hr_dev;
        seqlink_publish_init<<<1, 1, 0, r.ps>>>(pa);
        for (uint64_t s = 1; s <= 2; s++) {
            r.fill(s, size);
            r.commit(s, size);
        }
        seqlink_publish<<<blocks_for(2 * r.stride, 32 * 1024, 2 * r.sms), 256, 0, r.ps>>>(pa, 2);
        LAUNCHED();
        RT(cudaStreamSynchronize(r.ps));
        bool ok = reinterpret_cast<volatile uint64_t*>(hc)[0] == 2 && reinterpret_cast<volatile uint64_t*>(hc)[1] == 2 + pa.max_batch;
        std::string detail;
        for (int t = 0; t < 2; t++) {
            ConsumeArgs ca = r.ca;
            ca.control = pa.push_control[t];
            ca.ring = pa.push_ring[t];
            RT(cudaSetDevice(c));
            seqlink_consume<<<4, 256, 0, r.cs>>>(ca, 1, 2, 20 + t, 0);
            pattern_checksum<<<2, 256, 0, r.cs>>>(addr(r.local) + r.offset(2) + layout::SLOT_HEADER_BYTES, size, r.results_dev + 8 * 900,
                    addr(r.checksum_scratch));
            LAUNCHED();
            RT(cudaStreamSynchronize(r.cs));
            bool this_ok = r.cmirror[layout::CONSUMER_READY_TO / 8] == 2 && r.results[900] == expected_checksum(2, size)
                    && r.cmirror[layout::CONSUMER_VALID_FROM / 8] == 1;
            detail += fmt("replica %d %s; ", t, this_ok ? "intact" : "WRONG");
            ok &= this_ok;
        }
        check("push-replicas", ok, detail);
        RT(cudaSetDevice(c));
        cudaFree(rc);
        cudaFree(rr);
        cudaFreeHost(hc);
        cudaFreeHost(hr);
    }
}

// The armed rounds of a device listener that takes them (rows steps-armed-taken and steps-armed-acking) at
// sizes of one block, an odd tail, and a multi-block checksum (the in-kernel ack's arrival counter): the
// frames first, so each round's doorbell has passed when it is armed (a sanitizer may serialise the two
// sides); then a round armed before its frame exists and released by the host, which must checksum nothing
// and acknowledge nothing new; then that frame, taken by the next round.
inline void sanitize_taken_rounds(int p, int c) {
    struct Listener {
        const char* row;
        void (Rig::*round)(uint64_t, uint64_t, uint64_t);
    };
    for (const Listener& l : {Listener{"steps-armed-taken", &Rig::consume_taken_steps}, Listener{"steps-armed-acking", &Rig::consume_acking_steps}}) {
        for (uint64_t size : {64ull, 16389ull, 200000ull}) {
            Rig r(p, c, 8, size, true);
            const uint64_t frames = 6, released = frames + 1;
            RT(cudaSetDevice(p));
            for (uint64_t s = 1; s <= frames; s++) r.produce_steps(s, size);
            RT(cudaStreamSynchronize(r.ps));
            RT(cudaSetDevice(c));
            // rounds are numbered as the runtime numbers them, one more per round: the retake of the released
            // frame is a later round than the one cancelled (ARM_CANCEL >= a round's number cancels it)
            uint64_t number = 0;
            auto take = [&](uint64_t s) {
                r.arm_doorbell(s);
                (r.*l.round)(s, size, ++number);
                RT(cudaStreamSynchronize(r.cs));
                return r.result(s) == expected_checksum(s, size) && r.acked() == s;
            };
            uint64_t wrong = 0;
            for (uint64_t s = 1; s <= frames; s++) wrong += !take(s);
            r.arm_doorbell(released);
            (r.*l.round)(released, size, ++number);
            r.cancel(released, number);
            RT(cudaStreamSynchronize(r.cs));
            // results start zeroed: nothing checksummed; the ack stays at the last frame taken
            const bool released_ok = r.result(released) == 0 && r.acked() == frames && r.early_wakes() == 1;
            RT(cudaSetDevice(p));
            r.produce_steps(released, size);
            RT(cudaStreamSynchronize(r.ps));
            RT(cudaSetDevice(c));
            wrong += !take(released);  // its doorbell holds `released` already: the wait passes at once
            check(l.row, wrong == 0 && released_ok, fmt("%llu B x %llu frames, %llu wrong; the released round %s", (unsigned long long)size,
                    (unsigned long long)released, (unsigned long long)wrong, released_ok ? "took nothing, acknowledged nothing new" : "WRONG"));
        }
    }
}

// A misused round kernel: block `skip_block` returns between take_round and end_round.
__global__ void __launch_bounds__(256) sanitize_round_skipping_end(const ConsumeArgs c, uint64_t first, uint64_t last,
        uint64_t round, uint64_t skip_block) {
    const seqlink::device::TakenRound taken = seqlink::device::take_round(c, first, last, round, false);
    if (blockIdx.x == skip_block) {
        return;
    }
    seqlink::device::end_round(c, taken);
}

// The round kernel of a listener that consumes in its kernel (pattern_checksum_round: take_round, the frames read
// in place, end_round) with one block and with four: ordinary rounds take their frames and acknowledge them; an
// ordinary round given more than is published counts a short round; an armed round the host cancels before its
// frame is published takes nothing even though its wait passes after the publish; a launch of which one block
// skips end_round acknowledges nothing, and the next round's launch finds the counter left and fails its round
// (PROTOCOL_ERROR set, nothing acknowledged, the round landed as one that took nothing).
inline void sanitize_round_kernel(int p, int c) {
    for (int blocks : {1, 4}) {
        const uint64_t size = 4096;
        Rig r(p, c, 8, size, true);
        auto word = [&](uint64_t offset) { return load_acquire(r.cmirror + offset / 8); };
        auto round_kernel = [&](uint64_t first, uint64_t last, uint64_t round, bool armed) {
            pattern_checksum_round<<<blocks, 256, 0, r.cs>>>(r.ca, first, last, round, armed ? 1 : 0, r.results_dev,
                    addr(r.checksum_scratch));
            LAUNCHED();
        };
        RT(cudaSetDevice(p));
        for (uint64_t s = 1; s <= 3; s++) r.produce_steps(s, size);
        RT(cudaStreamSynchronize(r.ps));
        RT(cudaSetDevice(c));
        round_kernel(1, 3, 1, false);
        RT(cudaStreamSynchronize(r.cs));
        uint64_t bad = 0;
        for (uint64_t s = 1; s <= 3; s++) bad += r.result(s) != expected_checksum(s, size);
        bool ok = bad == 0 && r.acked() == 3 && word(layout::CONSUMER_ROUND) == 1 && word(layout::CONSUMER_SHORT_ROUNDS) == 0;
        round_kernel(4, 5, 2, false);  // nothing more published: takes nothing, and it was asked for two
        RT(cudaStreamSynchronize(r.cs));
        ok = ok && r.acked() == 3 && word(layout::CONSUMER_READY_TO) == 3 && word(layout::CONSUMER_SHORT_ROUNDS) == 1;
        check("round-kernel", ok, fmt("%d block(s): %llu corrupt, acked %llu, short rounds %llu", blocks, (unsigned long long)bad,
                (unsigned long long)r.acked(), (unsigned long long)word(layout::CONSUMER_SHORT_ROUNDS)));

        r.arm_doorbell(4);
        round_kernel(4, 4, 3, true);
        r.cancel(4, 3);  // the mark, then the doorbell: the wait passes before the frame exists, or after it
        RT(cudaSetDevice(p));
        r.produce_steps(4, size);  // published after the cancel returned
        RT(cudaStreamSynchronize(r.ps));
        RT(cudaSetDevice(c));
        RT(cudaStreamSynchronize(r.cs));
        const bool cancelled_ok = r.acked() == 3 && r.result(4) == 0 && word(layout::CONSUMER_ROUND) == 3
                && word(layout::CONSUMER_READY_TO) == 3 && word(layout::CONSUMER_SHORT_ROUNDS) == 1;
        round_kernel(4, 4, 4, false);  // the frame by an ordinary round
        RT(cudaStreamSynchronize(r.cs));
        check("round-kernel-armed-cancel", cancelled_ok && r.acked() == 4 && r.result(4) == expected_checksum(4, size),
                fmt("%d block(s): the cancelled round %s; then acked %llu", blocks,
                        cancelled_ok ? "took nothing" : "WRONG", (unsigned long long)r.acked()));

        if (blocks > 1) {
            RT(cudaSetDevice(p));
            r.produce_steps(5, size);
            RT(cudaStreamSynchronize(r.ps));
            RT(cudaSetDevice(c));
            sanitize_round_skipping_end<<<blocks, 256, 0, r.cs>>>(r.ca, 5, 5, 5, blocks - 1);
            LAUNCHED();
            RT(cudaStreamSynchronize(r.cs));
            const bool skipped_ok = r.acked() == 4 && word(layout::CONSUMER_ROUND) == 4 && word(layout::CONSUMER_PROTOCOL_ERROR) == 0;
            round_kernel(5, 5, 6, false);
            RT(cudaStreamSynchronize(r.cs));
            const uint64_t expected = layout::PROTOCOL_SITE_END_ROUND << layout::PROTOCOL_SITE_SHIFT | 6;
            const bool failed_ok = r.acked() == 4 && word(layout::CONSUMER_ROUND) == 6 && word(layout::CONSUMER_READY_TO) == 4
                    && word(layout::CONSUMER_PROTOCOL_ERROR) == expected;
            check("round-kernel-early-return", skipped_ok && failed_ok,
                    fmt("%d blocks: the launch with a block returned early %s; the next round %s (protocol_error 0x%llx)", blocks,
                            skipped_ok ? "acknowledged nothing" : "WRONG", failed_ok ? "failed, acknowledging nothing" : "WRONG",
                            (unsigned long long)word(layout::CONSUMER_PROTOCOL_ERROR)));
        }
    }
}

inline void sanitize_fast_path(const Options& o, int p, int c) {
    // a producer kernel writing 3 frames of 200000 bytes (multi-block) and publishing at its end; one
    // consumer kernel taking them (multi-block, fused copy + checksum, ack); doorbells written
    {
        Rig r(p, c, 8, 200000, true);
        RT(cudaSetDevice(p));
        r.produce_fused(3, 200000);
        RT(cudaStreamSynchronize(r.ps));
        RT(cudaSetDevice(c));
        r.arm_doorbell(3);
        r.consume_fused(1, 3, 200000);
        RT(cudaStreamSynchronize(r.cs));
        uint64_t bad = 0;
        for (uint64_t s = 1; s <= 3; s++) bad += r.result(s) != expected_checksum(s, 200000);
        bool ok = bad == 0 && r.acked() == 3 && r.doorbells[3 % r.doorbell_count] == 3 && r.published() == 3;
        check("producer-and-consumer-kernels", ok, fmt("%llu corrupt, acked %llu", (unsigned long long)bad, (unsigned long long)r.acked()));
    }
    cancel_latency(o, p, c, 5);
    {
        // frames first, so the spinning consumer needs no partner running beside it (a sanitizer may serialise)
        Rig r(p, c, 8, 4096);
        RT(cudaSetDevice(p));
        for (int i = 0; i < 5; i++) r.produce_fused(1, 4096);
        RT(cudaStreamSynchronize(r.ps));
        RT(cudaSetDevice(c));
        fp_spin_consume<<<1, 256, 0, r.cs>>>(r.ca, 5, addr(r.local), r.results_dev, 200000ull);
        LAUNCHED();
        RT(cudaStreamSynchronize(r.cs));
        check("spin-consumer", r.acked() == 5 && r.result(5) == expected_checksum(5, 4096), fmt("acked %llu", (unsigned long long)r.acked()));
    }
}

inline void sanitize_work(int p, int c) {
    // the pipeline benchmark's kernels against host arithmetic (wrapping integer sums)
    RT(cudaSetDevice(c));
    const int n = 1000, rows = 37, cols = 53;
    uint64_t px_d, out_d, w_d, x_d, y_d;
    uint8_t* px = mapped_alloc(n, &px_d);
    uint32_t* out = reinterpret_cast<uint32_t*>(mapped_alloc(4 * n, &out_d));
    uint32_t* w = reinterpret_cast<uint32_t*>(mapped_alloc(4 * rows * cols, &w_d));
    uint32_t* x = reinterpret_cast<uint32_t*>(mapped_alloc(4 * cols, &x_d));
    uint64_t* y = reinterpret_cast<uint64_t*>(mapped_alloc(8 * rows, &y_d));
    for (int i = 0; i < n; i++) px[i] = static_cast<uint8_t>(i * 7);
    for (int i = 0; i < rows * cols; i++) w[i] = static_cast<uint32_t>(seqlink::pattern_mix(i));
    for (int i = 0; i < cols; i++) x[i] = static_cast<uint32_t>(seqlink::pattern_mix(1000 + i));
    pipeline_expand<<<4, 256>>>(px_d, out_d, n);
    pipeline_infer<<<1, 64>>>(w_d, x_d, y_d, rows, cols);
    LAUNCHED();
    RT(cudaDeviceSynchronize());
    int bad = 0;
    for (int i = 0; i < n; i++) {
        if (out[i] != (static_cast<uint32_t>(px[i]) + 1u) * seqlink::bench::EXPAND_MULTIPLIER) bad++;
    }
    for (int r = 0; r < rows; r++) {
        uint64_t acc = 0;
        for (int k = 0; k < cols; k++) acc += static_cast<uint64_t>(w[r * cols + k]) * x[k];
        if (acc != y[r]) bad++;
    }
    check("pipeline-kernels", bad == 0, fmt("%d mismatching values", bad));
    cudaFreeHost(px);
    cudaFreeHost(out);
    cudaFreeHost(w);
    cudaFreeHost(x);
    cudaFreeHost(y);
    // the probe's kernels, small
    RT(cudaSetDevice(p));
    uint64_t* target = device_alloc<uint64_t>(1 << 20);
    RT(cudaSetDevice(c));
    uint64_t res_d = 0;
    volatile uint64_t* res = reinterpret_cast<volatile uint64_t*>(mapped_alloc(64, &res_d));
    seqlink_probe_fill<<<4, 256>>>(addr(target) + 65536, 100000, 9);
    seqlink_probe_checksum<<<1, 256>>>(addr(target) + 65536, 100000, res_d + 32, 0);
    seqlink_probe_counted_add<<<4, 256>>>(addr(target), 16);
    seqlink_probe_chain_add<<<1, 1>>>(addr(target) + 64, 100, res_d);
    seqlink_probe_chain_load<<<1, 1>>>(addr(target) + 64, 100, res_d + 16);
    seqlink_probe_throughput<<<2, 256>>>(addr(target) + 4096, 8);
    bench_noop<<<1, 1>>>();
    bench_noop5<<<1, 1>>>(1, 2, 3, 4, 5);
    LAUNCHED();
    RT(cudaDeviceSynchronize());
    uint64_t sum = 0;
    RT(cudaMemcpy(&sum, target, 8, cudaMemcpyDeviceToHost));
    check("probe", sum == 4 * 256 * 16 && res[4] == expected_checksum(9, 100000),
            fmt("counted adds %llu of %d; pattern %s", (unsigned long long)sum, 4 * 256 * 16,
                    res[4] == expected_checksum(9, 100000) ? "intact" : "WRONG"));
    cudaFreeHost(const_cast<uint64_t*>(res));
    RT(cudaSetDevice(p));
    cudaFree(target);
}

// The host rows' hand-offs (modes_host.cuh) at sizes of one block, an odd tail, and several blocks: the copy with a
// stream-written host word, and the fill into mapped host memory with its release-stored word.
inline void sanitize_host(int p) {
    for (uint64_t size : {64ull, 16389ull, 200000ull}) {
        HostRig r(p, 4, size);
        uint64_t bad = 0;
        for (uint64_t s = 1; s <= 12; s++) {
            if (s % 2) {
                r.fill(s);
                r.copy(s);
                r.write_flag(s);
            } else {
                r.fill_into_host(s);
            }
            r.await_flag(s);
            bad += !host_words_ok(r.host + r.offset(s), s, size) || host_checksum(r.host + r.offset(s), size) != expected_checksum(s, size);
        }
        RT(cudaStreamSynchronize(r.st));
        check("host-hand-offs", bad == 0, fmt("%llu B x 12 frames, %llu corrupt", (unsigned long long)size, (unsigned long long)bad));
    }
}

inline void mode_sanitize(const Options& o, int p, int c) {
    sanitize_channel(p, c);
    sanitize_host(p);
    sanitize_taken_rounds(p, c);
    sanitize_round_kernel(p, c);
    sanitize_fast_path(o, p, c);
    sanitize_work(p, c);
    // the four schemes, briefly, with a small spin bound (a sanitizer may serialise the two kernels)
    for (const Scheme& sc : SCHEMES) {
        mode_scheme(o, p, c, sc, 0.02, 20000);
    }
}

}  // namespace harness
