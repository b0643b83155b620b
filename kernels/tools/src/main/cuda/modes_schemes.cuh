// modes_schemes.cuh: the source article's four schemes (baselines.cu), one producer and one consumer block
// on two GPUs or two streams of one, for --duration-s seconds each.
#pragma once

#include "bench_args.cuh"
#include "bench_host.cuh"

namespace harness {

using SchemeKernel = void (*)(const seqlink::BenchArgs);

struct Scheme {
    const char* name;
    SchemeKernel producer;
    SchemeKernel consumer;
    uint64_t slots;
};

inline void mode_scheme(const Options& o, int p, int c, const Scheme& sc, double duration_s, uint64_t max_spins) {
    RT(cudaSetDevice(p));
    void *control = nullptr, *data = nullptr;
    RT(cudaMalloc(&control, 1024));
    RT(cudaMemset(control, 0, 1024));
    RT(cudaMalloc(&data, 2 * o.threads * o.packet));
    RT(cudaMemset(data, 0, 2 * o.threads * o.packet));
    seqlink::BenchResults* res = nullptr;
    RT(cudaHostAlloc(reinterpret_cast<void**>(&res), sizeof(seqlink::BenchResults), cudaHostAllocMapped | cudaHostAllocPortable));
    std::memset(res, 0, sizeof(seqlink::BenchResults));
    uint64_t res_dev = 0;
    RT(cudaHostGetDevicePointer(reinterpret_cast<void**>(&res_dev), res, 0));
    cudaStream_t ps, cs;
    RT(cudaStreamCreateWithFlags(&ps, cudaStreamNonBlocking));
    RT(cudaSetDevice(c));
    if (p != c) {
        cudaError_t e = cudaDeviceEnablePeerAccess(p, 0);
        if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled) die("peer access: %s", cudaGetErrorName(e));
        cudaGetLastError();
    }
    RT(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking));
    seqlink::BenchArgs a{};
    a.control = reinterpret_cast<uint64_t>(control);
    a.data = reinterpret_cast<uint64_t>(data);
    a.results = res_dev;
    a.duration_ns = static_cast<uint64_t>(duration_s * 1e9);
    a.max_spins = max_spins;
    a.slots = sc.slots;
    a.packet_bytes = o.packet;
    // both kernels loaded before either runs (see main: lazy loading would serialise them)
    cudaFuncAttributes attr{};
    RT(cudaFuncGetAttributes(&attr, sc.consumer));
    RT(cudaFuncGetAttributes(&attr, sc.producer));
    // consumer first, so its block is resident when the producer starts
    sc.consumer<<<1, o.threads, 0, cs>>>(a);
    LAUNCHED();
    RT(cudaSetDevice(p));
    sc.producer<<<1, o.threads, 0, ps>>>(a);
    LAUNCHED();
    RT(cudaStreamSynchronize(ps));
    RT(cudaSetDevice(c));
    RT(cudaStreamSynchronize(cs));
    uint64_t rounds = res->rounds_received;
    double seconds = res->end_ns > res->start_ns && p == c ? (res->end_ns - res->start_ns) / 1e9 : duration_s;
    uint64_t count = 0;
    for (int b = 0; b < 256; b++) count += res->histogram[b];
    auto pct = [&](double q) {
        if (count == 0) return 0.0;
        uint64_t want = static_cast<uint64_t>(q * (count - 1)) + 1, seen = 0;
        for (int b = 0; b < 256; b++) {
            seen += res->histogram[b];
            if (seen >= want) return seqlink::latency_bucket_floor(b) / 1e3;
        }
        return 0.0;
    };
    uint64_t timeouts = res->producer_timeouts + res->consumer_timeouts;
    if (res->corrupt) all_ok = false;
    Json latency;
    latency["p50"] = rounded(pct(0.5), 3);
    latency["p99"] = rounded(pct(0.99), 3);
    latency["p999"] = rounded(pct(0.999), 3);
    Json row;
    row["mode"] = "scheme";
    row["scheme"] = sc.name;
    row["slots"] = sc.slots;
    row["threads"] = o.threads;
    row["packet_bytes"] = o.packet;
    row["seconds"] = rounded(seconds, 4);
    row["rounds"] = rounds;
    row["rounds_published"] = res->rounds_published;
    row["gb_per_s"] = rounded(rounds * (double)o.threads * o.packet / seconds / 1e9, 4);
    row["latency_us"] = latency;
    row["remote_reads_per_round"] = rounded(rounds ? res->remote_reads / (double)rounds : 0.0, 2);
    row["timeouts"] = timeouts;
    row["producer_timeouts"] = res->producer_timeouts;
    row["consumer_timeouts"] = res->consumer_timeouts;
    row["corrupt"] = res->corrupt;
    row["topology"] = p == c ? "two streams of one GPU (globaltimer latencies exact)"
                             : "two GPUs (latencies from unsynchronised globaltimers: approximate)";
    add_result(std::move(row));
    cudaStreamDestroy(cs);
    RT(cudaSetDevice(p));
    cudaStreamDestroy(ps);
    cudaFreeHost(res);
    cudaFree(control);
    cudaFree(data);
}

inline const Scheme SCHEMES[] = {
        {"mutex-spin", seqlink_bench_mutex_producer, seqlink_bench_mutex_consumer, 1},
        {"flag-spin", seqlink_bench_flag_producer, seqlink_bench_flag_consumer, 1},
        {"lock-free-counter", seqlink_bench_counter_producer, seqlink_bench_counter_consumer, 1},
        {"counter-double-buffer", seqlink_bench_counter_producer, seqlink_bench_counter_consumer, 2},
};

}  // namespace harness
