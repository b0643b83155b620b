// seqlink-cycle-bench: the C++ comparator. The same publish -> consume -> ack cycle as the Java
// channel path, written by hand in CUDA C++ with the same kernels (seqlink_kernels.cu is compiled
// into this binary), plus the alternatives a user would otherwise pick and the source article's four
// schemes. Prints one JSON document on stdout; progress and errors go to stderr.
//
// Usage: seqlink-cycle-bench [options]
//   --mode M          cycle | throughput | memcpy-peer | wait-value | schemes | sanitize | all  (default all)
//                     cycle:        per-frame latency of fill+length+publish -> host sees the mirror ->
//                                   consume(copy)+checksum+ack -> host sees the ack (one frame in flight)
//                     throughput:   producer and consumer host threads, frames in flight up to --slots
//                     memcpy-peer:  cudaMemcpyPeerAsync of the frame + event record + event synchronise
//                     wait-value:   the cycle with the consumer's work enqueued in advance behind
//                                   cuStreamWaitValue64(publish_seq mirror >= s)
//                     schemes:      mutex+spin, flag+spin, lock-free counter, counter+double buffer
//                                   (one block of --threads producer and consumer threads, --packet bytes each)
//                     sanitize:     a short run of every kernel with correctness checks (for compute-sanitizer)
//   --sizes LIST      frame sizes in bytes, comma separated (default 64,16384,1048576)
//   --frames N        timed frames per size (default 20000; throughput mode moves 4x as many)
//   --warmup N        untimed frames per size first (default 1000)
//   --duration-s S    seconds per scheme (default 2; the article ran 30)
//   --slots N         ring slots (default 64)
//   --producer D      producer device (default 0)
//   --consumer D      consumer device (default 1 if there are two devices, else 0)
//   --threads N       producer and consumer threads of the schemes (default 256)
//   --packet N        bytes per packet of the schemes (default 64)
//   --max-spins N     polls without progress before a scheme's wait gives up (default 2000000, about a second)
//   --short           a quick run: frames 2000, warmup 200, duration 0.5 s
//
// JSON: {"tool":"seqlink-cycle-bench","version":1,"config":{...},"device":{...},"results":[...]}
//   cycle / wait-value / memcpy-peer result: {"mode","frame_bytes","frames","latency_us":{"p50","p90","p99",
//     "p999","mean","min","max"},"verified","corrupt"}
//   throughput result: {"mode","frame_bytes","frames","seconds","frames_per_s","gb_per_s","verified","corrupt"}
//   scheme result: {"mode":"scheme","scheme","slots","threads","packet_bytes","seconds","rounds","gb_per_s",
//     "latency_us":{"p50","p99","p999"} (histogram, 8 buckets per octave),"remote_reads_per_round",
//     "timeouts","corrupt","topology"}
//   sanitize result: {"mode":"sanitize","check","ok","detail"}
// Exit status: 0 when every check passed, 1 when a frame was corrupt or a check failed, 2 on usage or
// CUDA errors. GB/s are 10^9 bytes per second.
#include "../seqlink_kernels.cu"

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

using seqlink::ConsumeArgs;
using seqlink::PublishArgs;
using Clock = std::chrono::steady_clock;

// ---- errors -------------------------------------------------------------------------------------

[[noreturn]] void die(const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::fprintf(stderr, "seqlink-cycle-bench: ");
    std::vfprintf(stderr, fmt, ap);
    std::fprintf(stderr, "\n");
    va_end(ap);
    std::exit(2);
}

#define RT(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) die("%s failed: %s (%s:%d)", #call, cudaGetErrorName(e_), __FILE__, __LINE__); \
    } while (0)

// Driver entry points, fetched through the runtime so the binary needs no libcuda at link time.
struct DriverApi {
    CUresult (*writeValue64)(CUstream, CUdeviceptr, cuuint64_t, unsigned int) = nullptr;
    CUresult (*waitValue64)(CUstream, CUdeviceptr, cuuint64_t, unsigned int) = nullptr;
    CUresult (*getErrorName)(CUresult, const char**) = nullptr;
} drv;

template <typename F>
void entry_point(const char* symbol, F* fn) {
    cudaDriverEntryPointQueryResult status{};
    void* p = nullptr;
    cudaError_t e = cudaGetDriverEntryPointByVersion(symbol, &p, 12000, cudaEnableDefault, &status);
    if (e != cudaSuccess || status != cudaDriverEntryPointSuccess || p == nullptr) {
        die("the driver has no %s (%s)", symbol, cudaGetErrorName(e));
    }
    *fn = reinterpret_cast<F>(p);
}

#define DRV(call)                                                                                  \
    do {                                                                                           \
        CUresult e_ = (call);                                                                      \
        if (e_ != CUDA_SUCCESS) {                                                                  \
            const char* n_ = nullptr;                                                              \
            if (drv.getErrorName) drv.getErrorName(e_, &n_);                                       \
            die("%s failed: %s (%s:%d)", #call, n_ ? n_ : "?", __FILE__, __LINE__);                \
        }                                                                                          \
    } while (0)

#define LAUNCHED() RT(cudaGetLastError())

// ---- options ------------------------------------------------------------------------------------

struct Options {
    std::string mode = "all";
    std::vector<uint64_t> sizes{64, 16384, 1048576};
    uint64_t frames = 20000;
    uint64_t warmup = 1000;
    double duration_s = 2.0;
    uint64_t slots = 64;
    int producer = 0;
    int consumer = -1;
    int threads = 256;
    uint64_t packet = 64;
    uint64_t max_spins = 2000000ull;
};

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
        else if (a == "--producer") o.producer = static_cast<int>(parse_u64("--producer", next()));
        else if (a == "--consumer") o.consumer = static_cast<int>(parse_u64("--consumer", next()));
        else if (a == "--threads") o.threads = static_cast<int>(parse_u64("--threads", next()));
        else if (a == "--packet") o.packet = parse_u64("--packet", next());
        else if (a == "--max-spins") o.max_spins = parse_u64("--max-spins", next());
        else if (a == "--short") {
            o.frames = 2000;
            o.warmup = 200;
            o.duration_s = 0.5;
        } else if (a == "--help" || a == "-h") {
            std::printf("see the comment block at the top of cycle_bench.cu\n");
            std::exit(0);
        } else die("unknown option '%s' (see the comment block at the top of cycle_bench.cu)", a.c_str());
    }
    if (o.slots < 2) die("--slots must be at least 2");
    if (o.threads < 32 || o.threads > 1024 || o.threads % 32) die("--threads must be a multiple of 32 from 32 to 1024");
    if (o.packet < 16 || o.packet % 8) die("--packet must be a multiple of 8 of at least 16");
    for (uint64_t s : o.sizes) if (s < 1) die("--sizes must be at least 1 byte each");
    return o;
}

// ---- JSON output --------------------------------------------------------------------------------

std::string results_json;
bool all_ok = true;

void add_result(const std::string& json) {
    if (!results_json.empty()) results_json += ",\n    ";
    results_json += json;
}

std::string fmt(const char* f, ...) {
    char buf[2048];
    va_list ap;
    va_start(ap, f);
    std::vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    return buf;
}

struct Percentiles {
    double p50, p90, p99, p999, mean, min, max;
};

Percentiles percentiles(std::vector<double> v) {
    Percentiles p{};
    if (v.empty()) return p;
    std::sort(v.begin(), v.end());
    auto at = [&](double q) { return v[std::min(v.size() - 1, static_cast<size_t>(q * (v.size() - 1) + 0.5))]; };
    double sum = 0;
    for (double x : v) sum += x;
    p.p50 = at(0.5);
    p.p90 = at(0.9);
    p.p99 = at(0.99);
    p.p999 = at(0.999);
    p.mean = sum / v.size();
    p.min = v.front();
    p.max = v.back();
    return p;
}

std::string latency_json(const Percentiles& p) {
    return fmt("{\"p50\":%.3f,\"p90\":%.3f,\"p99\":%.3f,\"p999\":%.3f,\"mean\":%.3f,\"min\":%.3f,\"max\":%.3f}", p.p50,
            p.p90, p.p99, p.p999, p.mean, p.min, p.max);
}

// ---- host-side helpers ----------------------------------------------------------------------------

inline uint64_t load_acquire(const volatile uint64_t* p) {
    return __atomic_load_n(const_cast<const uint64_t*>(p), __ATOMIC_ACQUIRE);
}

// Spins until *p >= target; dies after 10 s (a bug, never a legitimate wait).
inline void await_at_least(const volatile uint64_t* p, uint64_t target, const char* what) {
    auto start = Clock::now();
    uint32_t n = 0;
    while (load_acquire(p) < target) {
        if ((++n & 0xFFFF) == 0 && Clock::now() - start > std::chrono::seconds(10)) {
            die("waited 10 s for %s to reach %llu (it is %llu)", what, (unsigned long long)target,
                    (unsigned long long)load_acquire(p));
        }
    }
}

inline double micros(Clock::duration d) {
    return std::chrono::duration<double, std::micro>(d).count();
}

uint64_t stride_for(uint64_t slot_bytes) {
    return (seqlink::layout::SLOT_HEADER_BYTES + slot_bytes + 127) & ~127ull;
}

uint64_t pattern_checksum(uint64_t seed, uint64_t length) {
    uint64_t words = length >> 3;
    uint64_t acc = 0;
    for (uint64_t k = 0; k < words; k++) acc ^= seqlink::checksum_term(seqlink::pattern_word(seed, k), k);
    if (length & 7) {
        uint64_t mask = (1ull << ((length & 7) << 3)) - 1;
        acc ^= seqlink::checksum_term(seqlink::pattern_word(seed, words) & mask, words);
    }
    return seqlink::checksum_finish(acc, length);
}

int blocks_for(uint64_t units, uint64_t per_block, int max_blocks) {
    uint64_t b = (units + per_block - 1) / per_block;
    return static_cast<int>(std::max<uint64_t>(1, std::min<uint64_t>(b, max_blocks)));
}

// ---- one channel, as the Java SPI lays it out -------------------------------------------------------

struct Channel {
    int producer, consumer;
    uint64_t slots, slot_bytes, stride;
    int sms;
    uint64_t* control = nullptr;        // producer device
    uint8_t* ring = nullptr;            // producer device
    volatile uint64_t* mirror = nullptr;  // host mapped
    uint64_t mirror_dev = 0;
    uint64_t* block = nullptr;          // consumer device
    volatile uint64_t* cmirror = nullptr;  // host mapped
    uint64_t cmirror_dev = 0;
    uint8_t* local = nullptr;           // consumer device
    seqlink::Scratch* consume_scratch = nullptr;
    seqlink::Scratch* checksum_scratch = nullptr;
    volatile uint64_t* results = nullptr;  // host mapped checksum results
    uint64_t results_dev = 0;
    cudaStream_t ps{}, cs{};
    PublishArgs pa{};
    ConsumeArgs ca{};

    uint64_t offset(uint64_t s) const { return ((s - 1) % slots) * stride; }

    Channel(int p, int c, uint64_t slots_, uint64_t slot_bytes_, bool lapping = false)
        : producer(p), consumer(c), slots(slots_), slot_bytes(slot_bytes_), stride(stride_for(slot_bytes_)) {
        RT(cudaSetDevice(producer));
        RT(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, producer));
        RT(cudaMalloc(&control, 128));
        RT(cudaMemset(control, 0, 128));
        RT(cudaMalloc(&ring, slots * stride));
        RT(cudaMemset(ring, 0, slots * stride));
        void* h = nullptr;
        RT(cudaHostAlloc(&h, 128, cudaHostAllocMapped | cudaHostAllocPortable));
        std::memset(h, 0, 128);
        mirror = static_cast<volatile uint64_t*>(h);
        void* d = nullptr;
        RT(cudaHostGetDevicePointer(&d, h, 0));
        mirror_dev = reinterpret_cast<uint64_t>(d);
        RT(cudaStreamCreateWithFlags(&ps, cudaStreamNonBlocking));
        RT(cudaSetDevice(consumer));
        RT(cudaMalloc(&block, 256));
        RT(cudaMemset(block, 0, 256));
        RT(cudaHostAlloc(&h, 256, cudaHostAllocMapped | cudaHostAllocPortable));
        std::memset(h, 0, 256);
        cmirror = static_cast<volatile uint64_t*>(h);
        RT(cudaHostGetDevicePointer(&d, h, 0));
        cmirror_dev = reinterpret_cast<uint64_t>(d);
        RT(cudaMalloc(&local, slots * stride));
        RT(cudaMemset(local, 0, slots * stride));
        RT(cudaMalloc(&consume_scratch, sizeof(seqlink::Scratch)));
        RT(cudaMemset(consume_scratch, 0, sizeof(seqlink::Scratch)));
        RT(cudaMemset(&consume_scratch->min_published, 0xFF, 8));
        RT(cudaMalloc(&checksum_scratch, sizeof(seqlink::Scratch)));
        RT(cudaMemset(checksum_scratch, 0, sizeof(seqlink::Scratch)));
        RT(cudaHostAlloc(&h, 8 * 1024, cudaHostAllocMapped | cudaHostAllocPortable));
        std::memset(h, 0, 8 * 1024);
        results = static_cast<volatile uint64_t*>(h);
        RT(cudaHostGetDevicePointer(&d, h, 0));
        results_dev = reinterpret_cast<uint64_t>(d);
        RT(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking));
        if (producer != consumer) {
            cudaError_t e = cudaDeviceEnablePeerAccess(producer, 0);  // consumer reads producer memory
            if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled) die("peer access %d -> %d: %s", consumer, producer, cudaGetErrorName(e));
            cudaGetLastError();
        }

        pa.control = reinterpret_cast<uint64_t>(control);
        pa.ring = reinterpret_cast<uint64_t>(ring);
        pa.mirror = mirror_dev;
        pa.scratch = 0;
        pa.slots = slots;
        pa.stride = stride;
        pa.slot_bytes = slot_bytes;
        pa.max_batch = 16 < slots - 1 ? 16 : slots - 1;
        pa.push_count = 0;
        ca.control = pa.control;
        ca.ring = pa.ring;
        ca.local_ring = reinterpret_cast<uint64_t>(local);
        ca.block = reinterpret_cast<uint64_t>(block);
        ca.mirror = cmirror_dev;
        ca.scratch = reinterpret_cast<uint64_t>(consume_scratch);
        ca.slots = slots;
        ca.stride = stride;
        ca.slot_bytes = slot_bytes;
        ca.max_batch = pa.max_batch;
        ca.lapping = lapping ? 1 : 0;
        RT(cudaSetDevice(producer));
        seqlink_publish_init<<<1, 1, 0, ps>>>(pa);
        LAUNCHED();
        RT(cudaStreamSynchronize(ps));
    }

    ~Channel() {
        cudaSetDevice(producer);
        cudaStreamSynchronize(ps);
        cudaStreamDestroy(ps);
        cudaFree(control);
        cudaFree(ring);
        cudaFreeHost(const_cast<uint64_t*>(mirror));
        cudaSetDevice(consumer);
        cudaStreamSynchronize(cs);
        cudaStreamDestroy(cs);
        cudaFree(block);
        cudaFree(local);
        cudaFree(consume_scratch);
        cudaFree(checksum_scratch);
        cudaFreeHost(const_cast<uint64_t*>(cmirror));
        cudaFreeHost(const_cast<uint64_t*>(results));
    }

    // Producer side of frame s: the pattern into the slot, the length word, the publish.
    void produce(uint64_t s, uint64_t length) {
        uint8_t* slot = ring + offset(s);
        seqlink_fill_pattern<<<blocks_for(length >> 3, 256 * 4, 4 * sms), 256, 0, ps>>>(
                reinterpret_cast<uint64_t>(slot + seqlink::layout::SLOT_HEADER_BYTES), length, s);
        LAUNCHED();
        DRV(drv.writeValue64(reinterpret_cast<CUstream>(ps), reinterpret_cast<CUdeviceptr>(slot + seqlink::layout::SLOT_LENGTH),
                length, CU_STREAM_WRITE_VALUE_DEFAULT));
        seqlink_publish<<<1, 32, 0, ps>>>(pa, 1);
        LAUNCHED();
    }

    // Consumer side of frames from..to: consume (copy), a checksum per frame, the ack.
    void consume(uint64_t from, uint64_t to, uint64_t length, uint64_t round) {
        int blocks = blocks_for((to - from + 1) * stride, 32 * 1024, 2 * sms);
        seqlink_consume<<<blocks, 256, 0, cs>>>(ca, from, to, round);
        LAUNCHED();
        for (uint64_t s = from; s <= to; s++) {
            seqlink_checksum<<<blocks_for(length, 64 * 1024, 4 * sms), 256, 0, cs>>>(
                    reinterpret_cast<uint64_t>(local + offset(s) + seqlink::layout::SLOT_HEADER_BYTES), length,
                    results_dev + 8 * (s % 1024), reinterpret_cast<uint64_t>(checksum_scratch));
            LAUNCHED();
        }
        seqlink_ack<<<1, 1, 0, cs>>>(reinterpret_cast<uint64_t>(block), cmirror_dev, to);
        LAUNCHED();
    }

    uint64_t published() const { return load_acquire(mirror + seqlink::layout::CONTROL_PUBLISH_SEQ / 8); }
    uint64_t result(uint64_t s) const { return results[s % 1024]; }
};

// ---- modes --------------------------------------------------------------------------------------------

// Frames above 64 KiB are many times slower to verify on the host than to move: fewer of them, and
// only every 16th checked (the Java benchmark applies the same rules).
uint64_t frames_for(const Options& o, uint64_t size) {
    return size > 65536 ? std::min<uint64_t>(o.frames, 2000) : o.frames;
}

bool checked(uint64_t s, uint64_t size) {
    return size <= 65536 || s % 16 == 0;
}

void mode_cycle(const Options& o, int p, int c, uint64_t size, bool wait_value) {
    Channel ch(p, c, o.slots, size);
    const uint64_t frames = frames_for(o, size);
    std::vector<double> lat;
    lat.reserve(frames);
    uint64_t verified = 0, corrupt = 0;
    uint64_t total = o.warmup + frames;
    for (uint64_t s = 1; s <= total; s++) {
        if (wait_value) {
            // pre-arm: the consumer's work waits in its stream for the mirror to reach s
            RT(cudaSetDevice(c));
            DRV(drv.waitValue64(reinterpret_cast<CUstream>(ch.cs), ch.mirror_dev + seqlink::layout::CONTROL_PUBLISH_SEQ, s,
                    CU_STREAM_WAIT_VALUE_GEQ));
            ch.consume(s, s, size, s);
        }
        RT(cudaSetDevice(p));
        auto t0 = Clock::now();
        ch.produce(s, size);
        if (!wait_value) {
            await_at_least(ch.mirror + seqlink::layout::CONTROL_PUBLISH_SEQ / 8, s, "publish_seq mirror");
            if (c != p) RT(cudaSetDevice(c));
            ch.consume(s, s, size, s);
        }
        await_at_least(ch.cmirror + seqlink::layout::CONSUMER_CONSUMED_SEQ / 8, s, "consumed_seq mirror");
        auto t1 = Clock::now();
        if (s > o.warmup) {
            lat.push_back(micros(t1 - t0));
            if (checked(s, size)) {
                if (ch.result(s) == pattern_checksum(s, size)) verified++;
                else corrupt++;
            }
        }
    }
    if (corrupt) all_ok = false;
    add_result(fmt("{\"mode\":\"%s\",\"frame_bytes\":%llu,\"frames\":%llu,\"latency_us\":%s,\"verified\":%llu,\"corrupt\":%llu}",
            wait_value ? "wait-value" : "cycle", (unsigned long long)size, (unsigned long long)frames,
            latency_json(percentiles(lat)).c_str(), (unsigned long long)verified, (unsigned long long)corrupt));
}

void mode_throughput(const Options& o, int p, int c, uint64_t size) {
    Channel ch(p, c, o.slots, size);
    const uint64_t total = 4 * frames_for(o, size);
    const uint64_t batch = ch.pa.max_batch;
    std::atomic<uint64_t> verified{0}, corrupt{0};
    auto start = Clock::now();
    std::thread producer([&] {
        RT(cudaSetDevice(p));
        for (uint64_t s = 1; s <= total; s++) {
            // lossless backpressure: slot s last held s - slots, which must be acknowledged
            if (s > ch.slots) await_at_least(ch.cmirror + seqlink::layout::CONSUMER_CONSUMED_SEQ / 8, s - ch.slots, "ack (backpressure)");
            ch.produce(s, size);
        }
    });
    std::thread consumer([&] {
        RT(cudaSetDevice(c));
        uint64_t next = 1;
        while (next <= total) {
            uint64_t pub = ch.published();
            if (pub < next) continue;
            uint64_t to = std::min(pub, next + batch - 1);
            ch.consume(next, to, size, to);
            next = to + 1;
        }
    });
    producer.join();
    consumer.join();
    await_at_least(ch.cmirror + seqlink::layout::CONSUMER_CONSUMED_SEQ / 8, total, "final ack");
    double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    // spot-check the last 1024 checksums (older results were overwritten by design)
    for (uint64_t s = total > 1023 ? total - 1023 : 1; s <= total; s++) {
        if (!checked(s, size)) continue;
        if (ch.result(s) == pattern_checksum(s, size)) verified++;
        else corrupt++;
    }
    if (corrupt) all_ok = false;
    add_result(fmt("{\"mode\":\"throughput\",\"frame_bytes\":%llu,\"frames\":%llu,\"seconds\":%.4f,\"frames_per_s\":%.1f,"
            "\"gb_per_s\":%.3f,\"verified\":%llu,\"corrupt\":%llu}",
            (unsigned long long)size, (unsigned long long)total, seconds, total / seconds, total * (double)size / seconds / 1e9,
            (unsigned long long)verified.load(), (unsigned long long)corrupt.load()));
}

void mode_memcpy_peer(const Options& o, int p, int c, uint64_t size) {
    void *src = nullptr, *dst = nullptr;
    RT(cudaSetDevice(p));
    RT(cudaMalloc(&src, size));
    seqlink_fill_pattern<<<64, 256>>>(reinterpret_cast<uint64_t>(src), size, 7);
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
    seqlink_checksum<<<1, 256, 0, s>>>(reinterpret_cast<uint64_t>(dst), size, check_dev, 0);
    LAUNCHED();
    RT(cudaStreamSynchronize(s));
    bool ok = *check == pattern_checksum(7, size);
    if (!ok) all_ok = false;
    add_result(fmt("{\"mode\":\"memcpy-peer\",\"frame_bytes\":%llu,\"frames\":%llu,\"latency_us\":%s,\"gb_per_s\":%.3f,"
            "\"verified\":%d,\"corrupt\":%d}", (unsigned long long)size, (unsigned long long)frames,
            latency_json(percentiles(lat)).c_str(), n * (double)size / seconds / 1e9, ok ? 1 : 0, ok ? 0 : 1));
    cudaFreeHost(check);
    cudaEventDestroy(ev);
    cudaStreamDestroy(s);
    cudaFree(dst);
    RT(cudaSetDevice(p));
    cudaFree(src);
}

// ---- the article's schemes ----------------------------------------------------------------------------

using SchemeKernel = void (*)(const seqlink::BenchArgs);

struct Scheme {
    const char* name;
    SchemeKernel producer;
    SchemeKernel consumer;
    uint64_t slots;
};

void mode_scheme(const Options& o, int p, int c, const Scheme& sc, double duration_s, uint64_t max_spins) {
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
    add_result(fmt("{\"mode\":\"scheme\",\"scheme\":\"%s\",\"slots\":%llu,\"threads\":%d,\"packet_bytes\":%llu,\"seconds\":%.4f,"
            "\"rounds\":%llu,\"rounds_published\":%llu,\"gb_per_s\":%.4f,\"latency_us\":{\"p50\":%.3f,\"p99\":%.3f,\"p999\":%.3f},"
            "\"remote_reads_per_round\":%.2f,\"timeouts\":%llu,\"producer_timeouts\":%llu,\"consumer_timeouts\":%llu,"
            "\"corrupt\":%llu,\"topology\":\"%s\"}",
            sc.name, (unsigned long long)sc.slots, o.threads, (unsigned long long)o.packet, seconds, (unsigned long long)rounds,
            (unsigned long long)res->rounds_published, rounds * (double)o.threads * o.packet / seconds / 1e9, pct(0.5), pct(0.99),
            pct(0.999), rounds ? res->remote_reads / (double)rounds : 0.0, (unsigned long long)timeouts,
            (unsigned long long)res->producer_timeouts, (unsigned long long)res->consumer_timeouts, (unsigned long long)res->corrupt,
            p == c ? "two streams of one GPU (globaltimer latencies exact)"
                   : "two GPUs (latencies from unsynchronised globaltimers: approximate)"));
    cudaStreamDestroy(cs);
    RT(cudaSetDevice(p));
    cudaStreamDestroy(ps);
    cudaFreeHost(res);
    cudaFree(control);
    cudaFree(data);
}

const Scheme SCHEMES[] = {
        {"mutex-spin", seqlink_bench_mutex_producer, seqlink_bench_mutex_consumer, 1},
        {"flag-spin", seqlink_bench_flag_producer, seqlink_bench_flag_consumer, 1},
        {"lock-free-counter", seqlink_bench_counter_producer, seqlink_bench_counter_consumer, 1},
        {"counter-double-buffer", seqlink_bench_counter_producer, seqlink_bench_counter_consumer, 2},
};

// ---- sanitize: every kernel once, small, with checks --------------------------------------------------

void check(const char* name, bool ok, const std::string& detail) {
    if (!ok) all_ok = false;
    add_result(fmt("{\"mode\":\"sanitize\",\"check\":\"%s\",\"ok\":%s,\"detail\":\"%s\"}", name, ok ? "true" : "false", detail.c_str()));
}

void mode_sanitize(const Options& o, int p, int c) {
    // the cycle at sizes that take one block, an odd tail, and a multi-block consume
    for (uint64_t size : {64ull, 16389ull, 200000ull}) {
        Channel ch(p, c, 8, size);
        uint64_t bad = 0;
        for (uint64_t s = 1; s <= 12; s++) {
            RT(cudaSetDevice(p));
            ch.produce(s, size);
            await_at_least(ch.mirror, s, "publish mirror");
            RT(cudaSetDevice(c));
            ch.consume(s, s, size, s);
            await_at_least(ch.cmirror, s, "ack mirror");
            if (ch.result(s) != pattern_checksum(s, size)) bad++;
        }
        check("cycle", bad == 0, fmt("%llu B x 12 frames, %llu corrupt", (unsigned long long)size, (unsigned long long)bad));
    }
    // batch consume of several frames, and latest mode lapped by the producer
    {
        Channel ch(p, c, 4, 1000, true);
        RT(cudaSetDevice(p));
        for (uint64_t s = 1; s <= 3; s++) ch.produce(s, 1000);
        RT(cudaStreamSynchronize(ch.ps));
        RT(cudaSetDevice(c));
        ch.consume(1, 3, 1000, 1);
        RT(cudaStreamSynchronize(ch.cs));
        // writer_busy = 3 + max_batch 3 = 6: the producer may be writing frames up to 6, whose slots are
        // those of frames 2 and 3 - 4 = ... so only frame 3 is certainly intact (oldest intact 6 - 4 + 1 = 3)
        uint64_t reads = ch.cmirror[1], valid_from = ch.cmirror[seqlink::layout::CONSUMER_VALID_FROM / 8];
        uint64_t laps0 = ch.cmirror[seqlink::layout::CONSUMER_LAPS / 8];
        bool ok = ch.result(3) == pattern_checksum(3, 1000) && reads == 1 && valid_from == 3 && laps0 == 2;
        // lap: publish 3 more (slots 4, max_batch 3): frames 4..6 overwrite slots of 1..3 and writer_busy = 9
        RT(cudaSetDevice(p));
        for (uint64_t s = 4; s <= 6; s++) ch.produce(s, 1000);
        RT(cudaStreamSynchronize(ch.ps));
        RT(cudaSetDevice(c));
        ch.consume(4, 6, 1000, 2);
        RT(cudaStreamSynchronize(ch.cs));
        uint64_t laps = ch.cmirror[seqlink::layout::CONSUMER_LAPS / 8];
        valid_from = ch.cmirror[seqlink::layout::CONSUMER_VALID_FROM / 8];
        // writer_busy = 6 + 3 = 9 -> oldest intact 9 - 4 + 1 = 6: frames 4, 5 are reported lapped too
        ok = ok && valid_from == 6 && laps == 4 && ch.result(6) == pattern_checksum(6, 1000);
        check("batch-and-lapping", ok, fmt("valid_from %llu laps %llu", (unsigned long long)valid_from, (unsigned long long)laps));
    }
    // publish with push targets: a device replica and a host replica, multi-block
    {
        uint64_t size = 100000, slots = 4, stride = stride_for(size);
        Channel ch(p, c, slots, size);
        RT(cudaSetDevice(c));
        uint64_t *rc = nullptr;
        uint8_t* rr = nullptr;
        RT(cudaMalloc(&rc, 128));
        RT(cudaMemset(rc, 0, 128));
        RT(cudaMalloc(&rr, slots * stride));
        RT(cudaMemset(rr, 0, slots * stride));
        void* hc = nullptr;
        void* hr = nullptr;
        RT(cudaHostAlloc(&hc, 128, cudaHostAllocMapped | cudaHostAllocPortable));
        RT(cudaHostAlloc(&hr, slots * stride, cudaHostAllocMapped | cudaHostAllocPortable));
        std::memset(hc, 0, 128);
        std::memset(hr, 0, slots * stride);
        void *hcd = nullptr, *hrd = nullptr;
        RT(cudaHostGetDevicePointer(&hcd, hc, 0));
        RT(cudaHostGetDevicePointer(&hrd, hr, 0));
        seqlink::Scratch* scratch = nullptr;
        RT(cudaSetDevice(p));
        if (p != c) {
            cudaError_t e = cudaDeviceEnablePeerAccess(c, 0);
            if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled) die("peer access: %s", cudaGetErrorName(e));
            cudaGetLastError();
        }
        RT(cudaMalloc(&scratch, sizeof(seqlink::Scratch)));
        RT(cudaMemset(scratch, 0, sizeof(seqlink::Scratch)));
        PublishArgs pa = ch.pa;
        pa.scratch = reinterpret_cast<uint64_t>(scratch);
        pa.push_count = 2;
        pa.push_control[0] = reinterpret_cast<uint64_t>(rc);
        pa.push_ring[0] = reinterpret_cast<uint64_t>(rr);
        pa.push_control[1] = reinterpret_cast<uint64_t>(hcd);
        pa.push_ring[1] = reinterpret_cast<uint64_t>(hrd);
        seqlink_publish_init<<<1, 1, 0, ch.ps>>>(pa);
        for (uint64_t s = 1; s <= 2; s++) {
            uint8_t* slot = ch.ring + ch.offset(s);
            seqlink_fill_pattern<<<8, 256, 0, ch.ps>>>(reinterpret_cast<uint64_t>(slot + 64), size, s);
            DRV(drv.writeValue64(reinterpret_cast<CUstream>(ch.ps), reinterpret_cast<CUdeviceptr>(slot + 8), size, 0));
        }
        seqlink_publish<<<blocks_for(2 * stride, 32 * 1024, 2 * ch.sms), 256, 0, ch.ps>>>(pa, 2);
        LAUNCHED();
        RT(cudaStreamSynchronize(ch.ps));
        // consume from each replica (as PEER_COPY and HOST_STAGED consumers do)
        bool ok = true;
        std::string detail;
        for (int t = 0; t < 2; t++) {
            ConsumeArgs ca = ch.ca;
            ca.control = pa.push_control[t];
            ca.ring = pa.push_ring[t];
            RT(cudaSetDevice(c));
            seqlink_consume<<<4, 256, 0, ch.cs>>>(ca, 1, 2, 20 + t);
            seqlink_checksum<<<2, 256, 0, ch.cs>>>(reinterpret_cast<uint64_t>(ch.local + ch.offset(2) + 64), size,
                    ch.results_dev + 8 * 900, reinterpret_cast<uint64_t>(ch.checksum_scratch));
            LAUNCHED();
            RT(cudaStreamSynchronize(ch.cs));
            bool this_ok = ch.cmirror[seqlink::layout::CONSUMER_READY_TO / 8] == 2 && ch.results[900] == pattern_checksum(2, size)
                    && ch.cmirror[seqlink::layout::CONSUMER_VALID_FROM / 8] == 1;
            detail += fmt("replica %d %s; ", t, this_ok ? "intact" : "WRONG");
            ok &= this_ok;
        }
        ok &= static_cast<volatile uint64_t*>(hc)[0] == 2;
        check("push-replicas", ok, detail);
        RT(cudaSetDevice(p));
        cudaFree(scratch);
        RT(cudaSetDevice(c));
        cudaFree(rc);
        cudaFree(rr);
        cudaFreeHost(hc);
        cudaFreeHost(hr);
    }
    // workloads: normalize and matvec against host arithmetic with the same roundings
    {
        RT(cudaSetDevice(c));
        const int n = 1000, rows = 37, cols = 53;
        uint8_t* px = nullptr;
        float *out = nullptr, *w = nullptr, *x = nullptr, *y = nullptr;
        // pinned mapped host memory: with unified addressing the host pointer is the device pointer
        RT(cudaHostAlloc(reinterpret_cast<void**>(&px), n, cudaHostAllocMapped | cudaHostAllocPortable));
        RT(cudaHostAlloc(reinterpret_cast<void**>(&out), 4 * n, cudaHostAllocMapped | cudaHostAllocPortable));
        RT(cudaHostAlloc(reinterpret_cast<void**>(&w), 4 * rows * cols, cudaHostAllocMapped | cudaHostAllocPortable));
        RT(cudaHostAlloc(reinterpret_cast<void**>(&x), 4 * cols, cudaHostAllocMapped | cudaHostAllocPortable));
        RT(cudaHostAlloc(reinterpret_cast<void**>(&y), 4 * rows, cudaHostAllocMapped | cudaHostAllocPortable));
        for (int i = 0; i < n; i++) px[i] = static_cast<uint8_t>(i * 7);
        for (int i = 0; i < rows * cols; i++) w[i] = (i % 17) * 0.37f - 2.1f;
        for (int i = 0; i < cols; i++) x[i] = (i % 5) * 1.3f + 0.01f;
        seqlink_normalize<<<4, 256>>>(reinterpret_cast<uint64_t>(px), reinterpret_cast<uint64_t>(out), n, 0.485f, 0.229f);
        seqlink_matvec<<<1, 64>>>(reinterpret_cast<uint64_t>(w), reinterpret_cast<uint64_t>(x), reinterpret_cast<uint64_t>(y), rows, cols);
        LAUNCHED();
        RT(cudaDeviceSynchronize());
        int bad = 0;
        for (int i = 0; i < n; i++) {
            volatile float q = static_cast<float>(px[i]) / 255.0f;
            volatile float d = q - 0.485f;
            volatile float e = d / 0.229f;
            if (std::memcmp(const_cast<float*>(&e), &out[i], 4) != 0) bad++;
        }
        for (int r = 0; r < rows; r++) {
            volatile float acc = 0.0f;
            for (int k = 0; k < cols; k++) {
                volatile float m = w[r * cols + k] * x[k];
                acc = acc + m;
            }
            if (std::memcmp(const_cast<float*>(&acc), &y[r], 4) != 0) bad++;
        }
        check("normalize-matvec", bad == 0, fmt("%d mismatching values", bad));
        cudaFreeHost(px);
        cudaFreeHost(out);
        cudaFreeHost(w);
        cudaFreeHost(x);
        cudaFreeHost(y);
    }
    // probe kernels, small
    {
        RT(cudaSetDevice(p));
        uint64_t* target = nullptr;
        RT(cudaMalloc(&target, 1 << 20));
        RT(cudaMemset(target, 0, 1 << 20));
        RT(cudaSetDevice(c));
        uint64_t* out = nullptr;
        RT(cudaHostAlloc(reinterpret_cast<void**>(&out), 64, cudaHostAllocMapped | cudaHostAllocPortable));
        seqlink_probe_counted_add<<<4, 256>>>(reinterpret_cast<uint64_t>(target), 16);
        seqlink_probe_chain_add<<<1, 1>>>(reinterpret_cast<uint64_t>(target) + 64, 100, reinterpret_cast<uint64_t>(out));
        seqlink_probe_chain_load<<<1, 1>>>(reinterpret_cast<uint64_t>(target) + 64, 100, reinterpret_cast<uint64_t>(out) + 16);
        seqlink_probe_throughput<<<2, 256>>>(reinterpret_cast<uint64_t>(target) + 4096, 8);
        seqlink_noop<<<1, 1>>>();
        seqlink_noop5<<<1, 1>>>(1, 2, 3, 4, 5);
        LAUNCHED();
        RT(cudaDeviceSynchronize());
        uint64_t sum = 0;
        RT(cudaMemcpy(&sum, target, 8, cudaMemcpyDeviceToHost));
        check("probe", sum == 4 * 256 * 16, fmt("counted adds %llu of %d; chain add %llu ns, load %llu ns per 100",
                (unsigned long long)sum, 4 * 256 * 16, (unsigned long long)out[0], (unsigned long long)out[2]));
        cudaFreeHost(out);
        RT(cudaSetDevice(p));
        cudaFree(target);
    }
    // the four schemes, briefly, with a small spin bound (a sanitizer may serialise the two kernels)
    for (const Scheme& sc : SCHEMES) {
        mode_scheme(o, p, c, sc, 0.02, 20000);
    }
}

std::string device_json(int p, int c) {
    cudaDeviceProp pp{}, cp{};
    RT(cudaGetDeviceProperties(&pp, p));
    RT(cudaGetDeviceProperties(&cp, c));
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    int count = 0;
    RT(cudaGetDeviceCount(&count));
    int access = 1;
    if (p != c) RT(cudaDeviceCanAccessPeer(&access, c, p));
    return fmt("{\"producer\":%d,\"consumer\":%d,\"producer_name\":\"%s\",\"consumer_name\":\"%s\",\"devices\":%d,"
            "\"driver\":\"%d.%d\",\"runtime\":\"%d.%d\",\"same_device\":%s,\"peer_access\":%s,\"topology\":\"%s\"}",
            p, c, pp.name, cp.name, count, drv / 1000, (drv % 1000) / 10, rt / 1000, (rt % 1000) / 10, p == c ? "true" : "false",
            access ? "true" : "false", p == c ? "producer and consumer on two streams of one GPU" : "producer and consumer on two GPUs");
}

}  // namespace

int main(int argc, char** argv) {
    // Load every kernel when the module loads. Under lazy loading (CUDA 12+ default) a kernel's first
    // launch waits for the kernels running on the device, so a baseline producer launched next to its
    // spinning consumer would not start until the consumer's spin limit ran out (seen on an H200).
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
    entry_point("cuGetErrorName", &drv.getErrorName);
    auto want = [&](const char* m) { return o.mode == "all" || o.mode == m; };
    bool known = false;
    for (const char* m : {"all", "cycle", "throughput", "memcpy-peer", "wait-value", "schemes", "sanitize"}) known |= o.mode == m;
    if (!known) die("--mode '%s' is not one of cycle, throughput, memcpy-peer, wait-value, schemes, sanitize, all", o.mode.c_str());
    if (o.mode == "sanitize") {
        mode_sanitize(o, p, c);
    }
    for (uint64_t size : o.sizes) {
        if (want("cycle")) mode_cycle(o, p, c, size, false);
        if (want("wait-value")) mode_cycle(o, p, c, size, true);
        if (want("throughput")) mode_throughput(o, p, c, size);
        if (want("memcpy-peer")) mode_memcpy_peer(o, p, c, size);
        std::fprintf(stderr, "seqlink-cycle-bench: %llu B done\n", (unsigned long long)size);
    }
    if (want("schemes")) {
        for (const Scheme& sc : SCHEMES) {
            mode_scheme(o, p, c, sc, o.duration_s, o.max_spins);
            std::fprintf(stderr, "seqlink-cycle-bench: scheme %s done\n", sc.name);
        }
    }
    std::printf("{\"tool\":\"seqlink-cycle-bench\",\"version\":1,\n  \"config\":{\"mode\":\"%s\",\"frames\":%llu,\"warmup\":%llu,"
            "\"duration_s\":%.3f,\"slots\":%llu,\"threads\":%d,\"packet_bytes\":%llu},\n  \"device\":%s,\n  \"ok\":%s,\n"
            "  \"results\":[\n    %s\n  ]}\n",
            o.mode.c_str(), (unsigned long long)o.frames, (unsigned long long)o.warmup, o.duration_s, (unsigned long long)o.slots,
            o.threads, (unsigned long long)o.packet, device_json(p, c).c_str(), all_ok ? "true" : "false", results_json.c_str());
    return all_ok ? 0 : 1;
}
