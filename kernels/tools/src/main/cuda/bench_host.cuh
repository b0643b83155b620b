// bench_host.cuh: what the C++ comparator's modes share on the host: errors, the driver entry points
// (fetched through the runtime, so the binary needs no libcuda at link time), the JSON result list
// (nlohmann/json: strings escaped, a non-finite figure written as null), percentiles, waits with a
// deadline, and the pattern's expected checksums.
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include "bench_errors.cuh"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "seqlink_layout.cuh"
#include "seqlink_pattern.cuh"

namespace harness {

using Clock = std::chrono::steady_clock;


// Driver entry points, fetched through the runtime so the binary needs no libcuda at link time.
struct DriverApi {
    CUresult (*writeValue64)(CUstream, CUdeviceptr, cuuint64_t, unsigned int) = nullptr;
    CUresult (*waitValue64)(CUstream, CUdeviceptr, cuuint64_t, unsigned int) = nullptr;
    CUresult (*batchMemOp)(CUstream, unsigned int, CUstreamBatchMemOpParams*, unsigned int) = nullptr;
    CUresult (*getErrorName)(CUresult, const char**) = nullptr;
    CUresult (*deviceGet)(CUdevice*, int) = nullptr;
    CUresult (*deviceGetAttribute)(int*, CUdevice_attribute, CUdevice) = nullptr;
};
inline DriverApi drv;

template <typename F>
inline void entry_point(const char* symbol, F* fn) {
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

// Whether device d runs 64-bit stream memory operations: what the runtime asks before it acknowledges an
// ordinary round with cuStreamWriteValue64 (without them it launches the ack kernel instead).
inline bool stream_memops64(int d) {
    CUdevice dev{};
    DRV(drv.deviceGet(&dev, d));
    int can = 0;
    DRV(drv.deviceGetAttribute(&can, CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, dev));
    return can != 0;
}

// ---- JSON output --------------------------------------------------------------------------------

// What every mode reads from the command line (see cycle_bench.cu's header for each option).
struct Options {
    std::string mode = "all";
    std::vector<uint64_t> sizes{16384, 1048576};
    uint64_t frames = 20000;
    uint64_t warmup = 1000;
    double duration_s = 2.0;
    uint64_t slots = 64;
    uint64_t depth = 4;
    uint64_t batch = 16;
    int producer = 0;
    int consumer = -1;
    int threads = 256;
    uint64_t packet = 64;
    uint64_t max_spins = 2000000ull;
    uint64_t ring_budget = 256ull << 20;  // largest ring of the host rows (the harness's --ring-budget)
    uint64_t max_bytes = 0;               // most payload bytes a latency row moves (4x for throughput); 0: no cap
};

// Frames above 64 KiB are many times slower to verify on the host than to move: fewer of them, and only
// every 16th checked (the Java benchmark applies the same rules); --max-bytes caps them further (at least 50,
// as the harness's --bytes-per-size does).
inline uint64_t frames_for(const Options& o, uint64_t size) {
    const uint64_t frames = size > 65536 ? std::min<uint64_t>(o.frames, 2000) : o.frames;
    return o.max_bytes == 0 ? frames : std::min<uint64_t>(frames, std::max<uint64_t>(50, o.max_bytes / size));
}

inline bool checked(uint64_t s, uint64_t size) {
    return size <= 65536 || s % 16 == 0;
}

// Members keep the order they are written in, as the Java side's records do.
using Json = nlohmann::ordered_json;

inline Json results_json = Json::array();
inline bool all_ok = true;

inline void add_result(Json row) {
    results_json.push_back(std::move(row));
}

// A figure rounded to `digits` decimals for the report (a non-finite one stays so: nlohmann writes null).
inline double rounded(double x, int digits) {
    if (!std::isfinite(x)) return x;
    const double scale = std::pow(10.0, digits);
    return std::round(x * scale) / scale;
}

// printf-style text for a string value (the JSON library escapes it).
inline std::string fmt(const char* f, ...) {
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

inline Percentiles percentiles(std::vector<double> v) {
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

inline Json latency_json(const Percentiles& p) {
    Json j;
    j["p50"] = rounded(p.p50, 3);
    j["p90"] = rounded(p.p90, 3);
    j["p99"] = rounded(p.p99, 3);
    j["p999"] = rounded(p.p999, 3);
    j["mean"] = rounded(p.mean, 3);
    j["min"] = rounded(p.min, 3);
    j["max"] = rounded(p.max, 3);
    return j;
}

// ---- host-side helpers ----------------------------------------------------------------------------

inline uint64_t load_acquire(const volatile uint64_t* p) {
    return __atomic_load_n(const_cast<const uint64_t*>(p), __ATOMIC_ACQUIRE);
}

// Spins until done() holds; dies after 10 s naming what() (a bug, never a legitimate wait).
template <typename Done, typename What>
inline void await_until(Done done, What what) {
    auto start = Clock::now();
    uint32_t n = 0;
    while (!done()) {
        if ((++n & 0xFFFF) == 0 && Clock::now() - start > std::chrono::seconds(10)) {
            die("waited 10 s for %s", what().c_str());
        }
    }
}

// Spins until *p >= target (await_until's deadline).
inline void await_at_least(const volatile uint64_t* p, uint64_t target, const char* what) {
    await_until([&] { return load_acquire(p) >= target; }, [&] {
        return fmt("%s to reach %llu (it is %llu)", what, (unsigned long long)target, (unsigned long long)load_acquire(p));
    });
}

inline double micros(Clock::duration d) {
    return std::chrono::duration<double, std::micro>(d).count();
}

inline uint64_t stride_for(uint64_t slot_bytes) {
    return (seqlink::layout::SLOT_HEADER_BYTES + slot_bytes + 127) & ~127ull;
}

inline uint64_t expected_checksum(uint64_t seed, uint64_t length) {
    uint64_t words = length >> 3;
    uint64_t acc = 0;
    for (uint64_t k = 0; k < words; k++) acc ^= seqlink::checksum_term(seqlink::pattern_word(seed, k), k);
    if (length & 7) {
        uint64_t mask = (1ull << ((length & 7) << 3)) - 1;
        acc ^= seqlink::checksum_term(seqlink::pattern_word(seed, words) & mask, words);
    }
    return seqlink::checksum_finish(acc, length);
}

inline int blocks_for(uint64_t units, uint64_t per_block, int max_blocks) {
    uint64_t b = (units + per_block - 1) / per_block;
    return static_cast<int>(std::max<uint64_t>(1, std::min<uint64_t>(b, max_blocks)));
}

}  // namespace harness
