// seqlink-cycle-bench: the C++ comparator of the benchmark harness. The hand-offs a user would write by
// hand (naive, one stream and two), the channel's own steps as the Java path drives them, the fast-path
// prototypes (pre-armed rounds on the device word or on cancellable doorbells, fused kernels through the
// shipped device header), the forbidden spinning floor, the kernels' bandwidth at frame sizes, the armed
// rounds' cancellation, and the source article's four schemes. The runtime's kernels are compiled in
// from the same sources as the runtime fat binary. One JSON document on stdout; progress on stderr.
//
// Usage: seqlink-cycle-bench [options]
//   --mode M        latency | throughput | bandwidth | cancel | schemes | sanitize | host | all (default all)
//                   latency:    naive-1s, naive-1s-graph, naive-2s, channel, channel-ack-kernel, wait-value, steps-armed,
//                               steps-armed-taken, steps-armed-acking, steps-graph, steps-fused, floor, floor-doorbell,
//                               spin, memcpy-peer (modes_latency.cuh)
//                   throughput: naive-1s-async, naive-2s-async, channel, floor-pipelined, floor-batched,
//                               floor-batched-large (48 frames), steps-batched (modes_throughput.cuh)
//                   bandwidth:  each copy/checksum step on 1, 16, 64 MiB (modes_checks.cuh)
//                   cancel:     cancel (release latency) and cancel-race (modes_checks.cuh)
//                   schemes:    mutex+spin, flag+spin, lock-free counter, counter+double buffer
//                   host:       naive-d2h, d2h-flag, zero-copy, naive-d2h-pipelined, zero-copy-pipelined: the hand-written
//                               device-to-host hand-offs a host listener is judged against (modes_host.cuh; not in all)
//                   sanitize:   every kernel once, small, checked (for compute-sanitizer)
//   --sizes LIST    frame sizes in bytes, comma separated (default 16384,1048576)
//   --frames N      timed frames per size and row (default 20000; at most 2000 above 64 KiB; throughput 4x)
//   --warmup N      untimed frames first (default 1000)
//   --slots N       ring slots (default 64)
//   --depth N       rounds kept armed ahead by the pipelined armed rows (default 4)
//   --batch N       frames per producer kernel and per round of the batched rows (default 16)
//   --duration-s S  seconds per scheme (default 2; the article ran 30)
//   --producer D    producer device (default 0); --consumer D (default 1 if there are two devices, else 0)
//   --threads N     producer and consumer threads of the schemes (default 256); --packet N bytes (default 64)
//   --max-spins N   polls without progress before a spinning wait gives up (default 2000000)
//   --ring-budget B largest ring of the host rows in bytes (default 268435456): fewer slots for large frames
//   --max-bytes B   most payload bytes per latency row (throughput rows 4x): fewer frames for large sizes, at
//                   least 50 (default 0: no cap)
//   --short         a quick run: frames 2000, warmup 200, duration 0.5 s
//
// JSON: {"tool":"seqlink-cycle-bench","version":2,"config":{...},"device":{...},"ok":..,"results":[...]}; each
// result names its "mode" (and "frame_bytes"); latency rows carry "latency_us" {p50,p90,p99,p999,mean,min,max},
// throughput rows "gb_per_s". With device.consumer_stream_memops64 false the ordinary rounds' acks (rows
// channel, wait-value, throughput channel) fell back to the seqlink_ack kernel, as the runtime's do. Exit
// status: 0 when every check passed, 1 when a frame was corrupt or a check failed, 2 on usage or CUDA errors.
// GB/s are 10^9 bytes per second.
#include "seqlink_runtime.cu"
#include "seqlink_tools.cu"

#include "bench_host.cuh"
#include "bench_rig.cuh"
#include "modes_checks.cuh"
#include "modes_host.cuh"
#include "modes_latency.cuh"
#include "modes_sanitize.cuh"
#include "modes_schemes.cuh"
#include "modes_throughput.cuh"

namespace harness {
namespace {

uint64_t parse_u64(const char* flag, const char* v) {
    char* end = nullptr;
    unsigned long long x = std::strtoull(v, &end, 10);
    if (end == v || *end != 0) die("%s needs a number, got '%s'", flag, v);
    return x;
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto next = [&]() -> const char* {
            if (i + 1 >= argc) die("%s needs a value", a.c_str());
            return argv[++i];
        };
        if (a == "--mode") o.mode = next();
        else if (a == "--sizes") {
            o.sizes.clear();
            std::string s = next();
            size_t p = 0;
            while (p <= s.size()) {
                size_t c = s.find(',', p);
                std::string item = s.substr(p, c == std::string::npos ? std::string::npos : c - p);
                o.sizes.push_back(parse_u64("--sizes", item.c_str()));
                if (c == std::string::npos) break;
                p = c + 1;
            }
        } else if (a == "--frames") o.frames = parse_u64("--frames", next());
        else if (a == "--warmup") o.warmup = parse_u64("--warmup", next());
        else if (a == "--duration-s") o.duration_s = std::atof(next());
        else if (a == "--slots") o.slots = parse_u64("--slots", next());
        else if (a == "--depth") o.depth = parse_u64("--depth", next());
        else if (a == "--batch") o.batch = parse_u64("--batch", next());
        else if (a == "--producer") o.producer = static_cast<int>(parse_u64("--producer", next()));
        else if (a == "--consumer") o.consumer = static_cast<int>(parse_u64("--consumer", next()));
        else if (a == "--threads") o.threads = static_cast<int>(parse_u64("--threads", next()));
        else if (a == "--packet") o.packet = parse_u64("--packet", next());
        else if (a == "--max-spins") o.max_spins = parse_u64("--max-spins", next());
        else if (a == "--ring-budget") o.ring_budget = parse_u64("--ring-budget", next());
        else if (a == "--max-bytes") o.max_bytes = parse_u64("--max-bytes", next());
        else if (a == "--short") {
            o.frames = 2000;
            o.warmup = 200;
            o.duration_s = 0.5;
        } else if (a == "--help" || a == "-h") {
            std::printf("see the comment block at the top of cycle_bench.cu\n");
            std::exit(0);
        } else die("unknown option '%s' (see the comment block at the top of cycle_bench.cu)", a.c_str());
    }
    if (o.slots < 4) die("--slots must be at least 4");
    if (o.depth < 1) die("--depth must be at least 1");
    if (o.batch < 1 || o.batch > seqlink::fastpath::MAX_ROUND || o.batch >= o.slots) die("--batch must be from 1 to 64 and below --slots");
    if (o.threads < 32 || o.threads > 1024 || o.threads % 32) die("--threads must be a multiple of 32 from 32 to 1024");
    if (o.packet < 16 || o.packet % 8) die("--packet must be a multiple of 8 of at least 16");
    for (uint64_t s : o.sizes) if (s < 1) die("--sizes must be at least 1 byte each");
    return o;
}

Json device_json(int p, int c) {
    cudaDeviceProp pp{}, cp{};
    RT(cudaGetDeviceProperties(&pp, p));
    RT(cudaGetDeviceProperties(&cp, c));
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    int count = 0;
    RT(cudaGetDeviceCount(&count));
    int access = 1;
    if (p != c) RT(cudaDeviceCanAccessPeer(&access, c, p));
    Json d;
    d["producer"] = p;
    d["consumer"] = c;
    d["producer_name"] = pp.name;
    d["consumer_name"] = cp.name;
    d["devices"] = count;
    d["driver"] = fmt("%d.%d", driver / 1000, (driver % 1000) / 10);
    d["runtime"] = fmt("%d.%d", runtime / 1000, (runtime % 1000) / 10);
    d["same_device"] = p == c;
    d["peer_access"] = access != 0;
    d["consumer_stream_memops64"] = stream_memops64(c);
    d["topology"] = p == c ? "producer and consumer on two streams of one GPU" : "producer and consumer on two GPUs";
    return d;
}

}  // namespace
}  // namespace harness

int main(int argc, char** argv) {
    using namespace harness;
    // Load every kernel when the module loads. Under lazy loading (CUDA 12+ default) a kernel's first launch
    // waits for the kernels running on the device, so a baseline producer launched next to its spinning
    // consumer would not start until the consumer's spin limit ran out (seen on an H200).
    setenv("CUDA_MODULE_LOADING", "EAGER", 0);
    Options o = parse(argc, argv);
    int count = 0;
    RT(cudaGetDeviceCount(&count));
    int p = o.producer;
    int c = o.consumer >= 0 ? o.consumer : (count > 1 ? 1 : 0);
    if (p >= count || c >= count) die("--producer %d / --consumer %d: only %d device(s)", p, c, count);
    RT(cudaSetDevice(p));
    RT(cudaFree(nullptr));
    RT(cudaSetDevice(c));
    RT(cudaFree(nullptr));
    entry_point("cuStreamWriteValue64", &drv.writeValue64);
    entry_point("cuStreamWaitValue64", &drv.waitValue64);
    entry_point("cuStreamBatchMemOp", &drv.batchMemOp);
    entry_point("cuGetErrorName", &drv.getErrorName);
    entry_point("cuDeviceGet", &drv.deviceGet);
    entry_point("cuDeviceGetAttribute", &drv.deviceGetAttribute);
    auto want = [&](const char* m) { return o.mode == "all" || o.mode == m; };
    bool known = false;
    for (const char* m : {"all", "latency", "throughput", "bandwidth", "cancel", "schemes", "sanitize", "host"}) known |= o.mode == m;
    if (!known) die("--mode '%s' is not one of latency, throughput, bandwidth, cancel, schemes, sanitize, host, all", o.mode.c_str());
    if (o.mode == "sanitize") {
        mode_sanitize(o, p, c);
    } else if (o.mode == "host") {
        for (uint64_t size : o.sizes) {
            host_rows(o, size);
            std::fprintf(stderr, "seqlink-cycle-bench: host rows, %llu B done\n", (unsigned long long)size);
        }
    } else {
        for (uint64_t size : o.sizes) {
            if (want("latency")) {
                naive_latency(o, p, c, size);
                channel_latency(o, p, c, size);
                floor_latency(o, p, c, size);
                memop_publish_latency(o, p, c, size);
                memcpy_peer(o, p, c, size);
            }
            if (want("throughput")) {
                naive_throughput(o, p, c, size);
                channel_throughput(o, p, c, size);
                armed_throughput(o, p, c, size, 1, false, "floor-pipelined");
                armed_throughput(o, p, c, size, o.batch, false, "floor-batched");
                armed_throughput(o, p, c, size, std::min<uint64_t>(48, o.slots / 2), false, "floor-batched-large");
                armed_throughput(o, p, c, size, o.batch, true, "steps-batched");
            }
            std::fprintf(stderr, "seqlink-cycle-bench: %llu B done\n", (unsigned long long)size);
        }
        if (want("bandwidth")) bandwidth(o, p, c);
        if (want("cancel")) {
            cancel_latency(o, p, c);
            cancel_race(o, p, c);
        }
        if (want("schemes")) {
            for (const Scheme& sc : SCHEMES) {
                mode_scheme(o, p, c, sc, o.duration_s, o.max_spins);
                std::fprintf(stderr, "seqlink-cycle-bench: scheme %s done\n", sc.name);
            }
        }
    }
    Json config;
    config["mode"] = o.mode;
    config["frames"] = o.frames;
    config["warmup"] = o.warmup;
    config["duration_s"] = o.duration_s;
    config["slots"] = o.slots;
    config["depth"] = o.depth;
    config["batch"] = o.batch;
    config["threads"] = o.threads;
    config["packet_bytes"] = o.packet;
    config["ring_budget"] = o.ring_budget;
    config["max_bytes"] = o.max_bytes;
    Json doc;
    doc["tool"] = "seqlink-cycle-bench";
    doc["version"] = 2;
    doc["config"] = config;
    doc["device"] = device_json(p, c);
    doc["ok"] = all_ok;
    doc["results"] = results_json;
    std::printf("%s\n", doc.dump(2).c_str());
    return all_ok ? 0 : 1;
}
