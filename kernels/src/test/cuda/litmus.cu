// seqlink-litmus: a litmus test on the GPU for every ordering helper of seqlink_sync.cuh (and the grid
// hand-off of seqlink_grid.cuh), so the choice of each PTX instruction is checked where jcstress cannot
// look: the emulated backend has no scopes and no incoherent L1.
//
// Each test runs many trials and counts the outcome its ordering forbids ("weak"). Tests marked "never"
// must count none. Controls take the ordering away and show that the test can see a weak outcome at all:
// the one marked "must-fail" has to (it reads data through the SM's non-coherent L1, which a relaxed read
// of the flag does not invalidate), the others are reported for information.
//
// Message passing (MP), the shape of publish -> consume: the reader first loads the data word (so its
// L1 may hold the stale 0), says it is ready, then waits for the flag and loads the data again; the
// writer waits for "ready", writes the data with a plain store, then sets the flag. Weak: flag seen,
// data 0. One writer and one reader lane per pair, pairs in different blocks (different SMs), fresh words
// every trial, so nothing is reset while another thread may read it.
//
// Prints one JSON document on stdout; exit status 0 when every "never" test saw nothing weak and every
// "must-fail" control saw something, 1 otherwise, 2 on CUDA errors.
// Usage: seqlink-litmus [--trials N] (per test, default 64 pairs x 2000)
#include <cuda_runtime.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "seqlink_grid.cuh"
#include "seqlink_sync.cuh"

using namespace seqlink;

namespace {

#define RT(call)                                                                                               \
    do {                                                                                                       \
        cudaError_t e_ = (call);                                                                               \
        if (e_ != cudaSuccess) {                                                                               \
            std::fprintf(stderr, "seqlink-litmus: %s failed: %s (%s:%d)\n", #call, cudaGetErrorName(e_), __FILE__, \
                    __LINE__);                                                                                 \
            std::exit(2);                                                                                      \
        }                                                                                                      \
    } while (0)

constexpr uint64_t LINE = 128;              // every word on a line of its own
constexpr uint64_t MAX_SPINS = 200000;      // a wait that makes no progress this long is a timeout

struct Counts {
    unsigned long long trials;
    unsigned long long weak;
    unsigned long long timeouts;
};

__device__ __forceinline__ uint64_t* at(uint64_t base, uint64_t pairs, uint64_t trial, uint64_t pair) {
    return reinterpret_cast<uint64_t*>(base + (trial * pairs + pair) * LINE);
}

// ---- writers: data = 1 (plain), then the flag ------------------------------------------------------------

struct WriteRelease {  // st_release_sys
    static __device__ void run(uint64_t* data, uint64_t* flag) { *data = 1; st_release_sys(flag, 1); }
};
struct WriteReleaseU32 {  // st_release_sys_u32
    static __device__ void run(uint64_t* data, uint64_t* flag) {
        *data = 1;
        st_release_sys_u32(reinterpret_cast<uint32_t*>(flag), 1);
    }
};
struct WriteRedRelease {  // red_release_sys_add: the article's publish
    static __device__ void run(uint64_t* data, uint64_t* flag) { *data = 1; red_release_sys_add(flag, 1); }
};
struct WriteFenceRed {  // fence_acq_rel_sys + red_relaxed_sys_add: seqlink's publish tail
    static __device__ void run(uint64_t* data, uint64_t* flag) {
        *data = 1;
        fence_acq_rel_sys();
        red_relaxed_sys_add(flag, 1);
    }
};
struct WriteAtomRelease {  // atom_add_release_sys
    static __device__ void run(uint64_t* data, uint64_t* flag) { *data = 1; atom_add_release_sys(flag, 1); }
};
struct WriteFenceStore {  // fence_acq_rel_sys + st_relaxed_sys: the mirror store of the publish tail
    static __device__ void run(uint64_t* data, uint64_t* flag) {
        *data = 1;
        fence_acq_rel_sys();
        st_relaxed_sys(flag, 1);
    }
};
struct WriteFenceStoreU32 {  // fence_acq_rel_sys + st_relaxed_sys_u32
    static __device__ void run(uint64_t* data, uint64_t* flag) {
        *data = 1;
        fence_acq_rel_sys();
        st_relaxed_sys_u32(reinterpret_cast<uint32_t*>(flag), 1);
    }
};
struct WriteFenceGpuStore {  // fence_acq_rel_gpu + st_relaxed_sys: enough between SMs of one device
    static __device__ void run(uint64_t* data, uint64_t* flag) {
        *data = 1;
        fence_acq_rel_gpu();
        st_relaxed_sys(flag, 1);
    }
};
struct WriteFenceScStore {  // fence_sc_sys + st_relaxed_sys
    static __device__ void run(uint64_t* data, uint64_t* flag) {
        *data = 1;
        fence_sc_sys();
        st_relaxed_sys(flag, 1);
    }
};
struct WriteRelaxed {  // control: no release at all
    static __device__ void run(uint64_t* data, uint64_t* flag) { *data = 1; st_relaxed_sys(flag, 1); }
};

// ---- readers: wait for the flag, then load the data (plain: through L1) -----------------------------------

struct ReadAcquire {  // ld_acquire_sys
    static __device__ uint64_t flag(uint64_t* f) { return ld_acquire_sys(f); }
    static __device__ void after() {}
};
struct ReadAcquireU32 {  // ld_acquire_sys_u32
    static __device__ uint64_t flag(uint64_t* f) { return ld_acquire_sys_u32(reinterpret_cast<uint32_t*>(f)); }
    static __device__ void after() {}
};
struct ReadRelaxedFence {  // ld_relaxed_sys + fence_acq_rel_sys
    static __device__ uint64_t flag(uint64_t* f) { return ld_relaxed_sys(f); }
    static __device__ void after() { fence_acq_rel_sys(); }
};
struct ReadRelaxedU32Fence {  // ld_relaxed_sys_u32 + fence_acq_rel_sys
    static __device__ uint64_t flag(uint64_t* f) { return ld_relaxed_sys_u32(reinterpret_cast<uint32_t*>(f)); }
    static __device__ void after() { fence_acq_rel_sys(); }
};
struct ReadRelaxedFenceGpu {  // ld_relaxed_sys + fence_acq_rel_gpu
    static __device__ uint64_t flag(uint64_t* f) { return ld_relaxed_sys(f); }
    static __device__ void after() { fence_acq_rel_gpu(); }
};
struct ReadRelaxed {  // control: no acquire; the data load may hit the stale L1 line
    static __device__ uint64_t flag(uint64_t* f) { return ld_relaxed_sys(f); }
    static __device__ void after() {}
};

// Volatile 16-byte data read (the latest-delivery copy's load): strong, so never a stale L1 line even
// without an acquire. Used with ReadRelaxed: the flag read is relaxed, the data read volatile.
struct DataPlain {
    static __device__ uint64_t load(uint64_t* d) { return *d; }
};
struct DataVolatileV4 {
    static __device__ uint64_t load(uint64_t* d) {
        uint4 v = ld_volatile_v4(reinterpret_cast<const uint4*>(d));
        return static_cast<uint64_t>(v.x) | (static_cast<uint64_t>(v.y) << 32);
    }
};

// Blocks [0, pairs) write, [pairs, 2 pairs) read; lane 0 of each works.
template <typename W, typename R, typename D>
__global__ void mp(uint64_t data, uint64_t flags, uint64_t ready, uint64_t pairs, uint64_t trials, Counts* out) {
    if (threadIdx.x != 0) {
        return;
    }
    const bool writer = blockIdx.x < pairs;
    const uint64_t pair = writer ? blockIdx.x : blockIdx.x - pairs;
    unsigned long long weak = 0, timeouts = 0, sink = 0;
    for (uint64_t t = 0; t < trials; t++) {
        uint64_t* d = at(data, pairs, t, pair);
        uint64_t* f = at(flags, pairs, t, pair);
        uint64_t* r = at(ready, pairs, t, pair);
        if (writer) {
            uint64_t spins = 0;
            while (ld_relaxed_sys(r) == 0 && ++spins < MAX_SPINS) {
            }
            W::run(d, f);
        } else {
            sink += *d;  // the stale line, cached in this SM's L1
            st_relaxed_sys(r, 1);
            uint64_t spins = 0;
            bool seen = false;
            while (!(seen = R::flag(f) != 0) && ++spins < MAX_SPINS) {
            }
            if (!seen) {
                timeouts++;
                continue;
            }
            R::after();
            if (D::load(d) == 0) {
                weak++;
            }
        }
    }
    if (!writer) {
        atomicAdd(&out->trials, static_cast<unsigned long long>(trials));
        atomicAdd(&out->weak, weak);
        atomicAdd(&out->timeouts, timeouts);
        if (sink == 0x5EED) {
            out->trials = 0;  // never: keeps the pre-load live
        }
    }
}

// Store buffering: x = 1; FENCE; r0 = y  ||  y = 1; FENCE; r1 = x. Weak: r0 == r1 == 0, which only an sc
// fence forbids. Pair p uses blocks p and p + pairs; both start a trial when a shared "go" word says so.
template <bool SC>
__global__ void sb(uint64_t xs, uint64_t ys, uint64_t results, uint64_t ready, uint64_t pairs, uint64_t trials,
        Counts* out) {
    if (threadIdx.x != 0) {
        return;
    }
    const bool first = blockIdx.x < pairs;
    const uint64_t pair = first ? blockIdx.x : blockIdx.x - pairs;
    unsigned long long weak = 0;
    for (uint64_t t = 0; t < trials; t++) {
        uint64_t* x = at(xs, pairs, t, pair);
        uint64_t* y = at(ys, pairs, t, pair);
        uint64_t* mine = at(results, pairs, t, pair) + (first ? 0 : 1);
        uint64_t* r = at(ready, pairs, t, pair);
        // meet: each side bumps the ready word and waits for both
        atom_add_relaxed_sys(r, 1);
        uint64_t spins = 0;
        while (ld_relaxed_sys(r) < 2 && ++spins < MAX_SPINS) {
        }
        st_relaxed_sys(first ? x : y, 1);
        if (SC) {
            fence_sc_sys();
        } else {
            fence_acq_rel_sys();
        }
        uint64_t seen = ld_relaxed_sys(first ? y : x);
        st_relaxed_sys(mine, seen + 1);  // 1: saw 0, 2: saw 1
        if (!first) {
            // the second side tallies once both results are in
            uint64_t* other = mine - 1;
            spins = 0;
            uint64_t o;
            while ((o = ld_relaxed_sys(other)) == 0 && ++spins < MAX_SPINS) {
            }
            if (o == 1 && seen == 0) {
                weak++;
            }
        }
    }
    if (!first) {
        atomicAdd(&out->trials, static_cast<unsigned long long>(trials));
        atomicAdd(&out->weak, weak);
    }
}

// The grid hand-off (last_block_arrives: atom_add_acq_rel_gpu_u32 after bar.sync): every block first
// caches all blocks' words in its L1, writes its own word of the trial, arrives; the last block must
// then see every word. Control (ACQ_REL false): a relaxed arrival counter.
template <bool ACQ_REL>
__global__ void arrive(uint64_t words, uint32_t* arrivals, uint64_t trials, Counts* out) {
    const uint64_t blocks = gridDim.x;
    unsigned long long weak = 0, sink = 0, checked = 0;
    __shared__ int s_last;
    for (uint64_t t = 0; t < trials; t++) {
        uint64_t* w = reinterpret_cast<uint64_t*>(words + t * blocks * LINE);
        for (uint64_t b = threadIdx.x; b < blocks; b += blockDim.x) {
            sink += w[b * (LINE / 8)];
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            w[blockIdx.x * (LINE / 8)] = t + 1;
        }
        bool last;
        if (ACQ_REL) {
            last = grid::last_block_arrives(&arrivals[t]);
        } else {
            __syncthreads();
            if (threadIdx.x == 0) {
                s_last = atomicAdd(&arrivals[t], 1u) == blocks - 1;
            }
            __syncthreads();
            last = s_last != 0;
        }
        if (last) {
            checked++;
            for (uint64_t b = threadIdx.x; b < blocks; b += blockDim.x) {
                if (w[b * (LINE / 8)] != t + 1) {
                    weak++;
                }
            }
        }
        __syncthreads();
    }
    if (checked != 0 || weak != 0) {
        atomicAdd(&out->weak, weak);
        if (threadIdx.x == 0) {
            atomicAdd(&out->trials, checked);
        }
    }
    if (sink == 0x5EED) {
        out->trials = 0;
    }
}

// Mutual exclusion (atom_cas_acquire_sys_u32 to lock, st_release_sys_u32 to unlock): every block adds 1
// to a plain counter `adds` times under the lock. Weak: any lost update. Control: no lock.
template <bool LOCKED>
__global__ void mutex(uint32_t* lock, uint64_t* counter, uint32_t adds) {
    if (threadIdx.x != 0) {
        return;
    }
    for (uint32_t i = 0; i < adds; i++) {
        if (LOCKED) {
            uint64_t spins = 0;
            while (atom_cas_acquire_sys_u32(lock, 0, 1) != 0 && ++spins < 100 * MAX_SPINS) {
            }
        }
        uint64_t v = *counter;  // plain: only the lock's acquire keeps this from reading a stale L1 line
        *counter = v + 1;
        if (LOCKED) {
            st_release_sys_u32(lock, 0);
        } else {
            asm volatile("" ::: "memory");  // keep the compiler from folding the iterations
        }
    }
}

// Atomicity of atom_add_relaxed_sys: every thread adds 1, `adds` times, to one word.
__global__ void counted(uint64_t* word, uint32_t adds) {
    for (uint32_t i = 0; i < adds; i++) {
        atom_add_relaxed_sys(word, 1);
    }
}

// Device writes, host reads (the producer's mirror edge): data in mapped memory, then the flag; the host
// thread waits for the flag with an acquire load and checks the data.
__global__ void to_host(uint64_t data, uint64_t flags, uint64_t trials) {
    for (uint64_t t = 0; t < trials; t++) {
        uint64_t* d = reinterpret_cast<uint64_t*>(data + t * LINE);
        uint64_t* f = reinterpret_cast<uint64_t*>(flags + t * LINE);
        *d = t + 1;
        fence_acq_rel_sys();
        st_relaxed_sys(f, 1);
        __nanosleep(200);
    }
}

// Host writes, device reads (staging lengths, the armed rounds' doorbells): the host stores data then the
// flag with release; the device acquires the flag and checks the data.
__global__ void from_host(uint64_t data, uint64_t flags, uint64_t trials, Counts* out) {
    unsigned long long weak = 0, timeouts = 0, sink = 0;
    for (uint64_t t = 0; t < trials; t++) {
        uint64_t* d = reinterpret_cast<uint64_t*>(data + t * LINE);
        uint64_t* f = reinterpret_cast<uint64_t*>(flags + t * LINE);
        sink += *d;
        uint64_t spins = 0;
        while (ld_acquire_sys(f) == 0 && ++spins < 50 * MAX_SPINS) {
        }
        if (spins >= 50 * MAX_SPINS) {
            timeouts++;
            continue;
        }
        if (*d != t + 1) {
            weak++;
        }
    }
    out->trials = trials;
    out->weak = weak;
    out->timeouts = timeouts;
    if (sink == 0x5EED) {
        out->trials = 0;
    }
}

// ---- host side -----------------------------------------------------------------------------------------

std::string results;
bool all_ok = true;

void report(const char* test, const char* helpers, const char* expect, const Counts& c) {
    bool ok = std::strcmp(expect, "never") == 0 ? c.weak == 0 && c.trials > 0 && c.timeouts * 100 <= c.trials
            : std::strcmp(expect, "must-fail") == 0 ? c.weak > 0 : true;
    if (!ok) {
        all_ok = false;
    }
    char buf[512];
    std::snprintf(buf, sizeof buf,
            "{\"test\":\"%s\",\"helpers\":\"%s\",\"expect\":\"%s\",\"trials\":%llu,\"weak\":%llu,\"timeouts\":%llu,\"ok\":%s}",
            test, helpers, expect, c.trials, c.weak, c.timeouts, ok ? "true" : "false");
    if (!results.empty()) {
        results += ",\n    ";
    }
    results += buf;
    std::fprintf(stderr, "seqlink-litmus: %-28s %-52s %-9s trials %8llu weak %6llu timeouts %llu%s\n", test, helpers,
            expect, c.trials, c.weak, c.timeouts, ok ? "" : "  <-- FAILED");
}

struct Arena {
    uint64_t base = 0;
    size_t bytes = 0;
    explicit Arena(size_t b) : bytes(b) {
        void* p = nullptr;
        RT(cudaMalloc(&p, b));
        base = reinterpret_cast<uint64_t>(p);
    }
    void clear() { RT(cudaMemset(reinterpret_cast<void*>(base), 0, bytes)); }
    ~Arena() { cudaFree(reinterpret_cast<void*>(base)); }
};

Counts* counts() {
    static Counts* c = nullptr;
    if (c == nullptr) {
        RT(cudaHostAlloc(reinterpret_cast<void**>(&c), sizeof(Counts), cudaHostAllocMapped));
    }
    std::memset(c, 0, sizeof(Counts));
    return c;
}

template <typename W, typename R, typename D>
void run_mp(const char* test, const char* helpers, const char* expect, uint64_t pairs, uint64_t trials) {
    const size_t words = pairs * trials * LINE;
    static Arena* data = nullptr;
    static Arena* flags = nullptr;
    static Arena* ready = nullptr;
    if (data == nullptr || data->bytes < words) {
        delete data;
        delete flags;
        delete ready;
        data = new Arena(words);
        flags = new Arena(words);
        ready = new Arena(words);
    }
    data->clear();
    flags->clear();
    ready->clear();
    Counts* c = counts();
    mp<W, R, D><<<2 * pairs, 32>>>(data->base, flags->base, ready->base, pairs, trials, c);
    RT(cudaGetLastError());
    RT(cudaDeviceSynchronize());
    report(test, helpers, expect, *c);
}

template <bool SC>
void run_sb(const char* test, const char* helpers, const char* expect, uint64_t pairs, uint64_t trials) {
    const size_t words = pairs * trials * LINE;
    Arena xs(words), ys(words), rs(words), ready(words);
    xs.clear();
    ys.clear();
    rs.clear();
    ready.clear();
    Counts* c = counts();
    sb<SC><<<2 * pairs, 32>>>(xs.base, ys.base, rs.base, ready.base, pairs, trials, c);
    RT(cudaGetLastError());
    RT(cudaDeviceSynchronize());
    report(test, helpers, expect, *c);
}

template <bool ACQ_REL>
void run_arrive(const char* test, const char* helpers, const char* expect, uint64_t blocks, uint64_t trials) {
    Arena words(blocks * trials * LINE);
    Arena arrivals(trials * sizeof(uint32_t));
    words.clear();
    arrivals.clear();
    Counts* c = counts();
    arrive<ACQ_REL><<<blocks, 256>>>(words.base, reinterpret_cast<uint32_t*>(arrivals.base), trials, c);
    RT(cudaGetLastError());
    RT(cudaDeviceSynchronize());
    report(test, helpers, expect, *c);
}

template <bool LOCKED>
void run_mutex(const char* test, const char* helpers, const char* expect, uint32_t blocks, uint32_t adds) {
    Arena words(2 * LINE);
    words.clear();
    mutex<LOCKED><<<blocks, 32>>>(reinterpret_cast<uint32_t*>(words.base), reinterpret_cast<uint64_t*>(words.base + LINE),
            adds);
    RT(cudaGetLastError());
    RT(cudaDeviceSynchronize());
    uint64_t got = 0;
    RT(cudaMemcpy(&got, reinterpret_cast<void*>(words.base + LINE), 8, cudaMemcpyDeviceToHost));
    Counts c{static_cast<unsigned long long>(blocks) * adds, static_cast<unsigned long long>(blocks) * adds - got, 0};
    report(test, helpers, expect, c);
}

void run_counted(uint32_t blocks, uint32_t adds) {
    Arena word(LINE);
    word.clear();
    counted<<<blocks, 256>>>(reinterpret_cast<uint64_t*>(word.base), adds);
    RT(cudaGetLastError());
    RT(cudaDeviceSynchronize());
    uint64_t got = 0;
    RT(cudaMemcpy(&got, reinterpret_cast<void*>(word.base), 8, cudaMemcpyDeviceToHost));
    unsigned long long want = static_cast<unsigned long long>(blocks) * 256 * adds;
    Counts c{want, want - got, 0};
    report("atomicity-counted-add", "atom_add_relaxed_sys", "never", c);
}

uint8_t* mapped(size_t bytes, uint64_t* device) {
    void* h = nullptr;
    RT(cudaHostAlloc(&h, bytes, cudaHostAllocMapped | cudaHostAllocPortable));
    std::memset(h, 0, bytes);
    void* d = nullptr;
    RT(cudaHostGetDevicePointer(&d, h, 0));
    *device = reinterpret_cast<uint64_t>(d);
    return static_cast<uint8_t*>(h);
}

void run_to_host(uint64_t trials) {
    uint64_t dd = 0, fd = 0;
    uint8_t* data = mapped(trials * LINE, &dd);
    uint8_t* flags = mapped(trials * LINE, &fd);
    to_host<<<1, 1>>>(dd, fd, trials);
    RT(cudaGetLastError());
    Counts c{trials, 0, 0};
    for (uint64_t t = 0; t < trials; t++) {
        const uint64_t* f = reinterpret_cast<const uint64_t*>(flags + t * LINE);
        const volatile uint64_t* d = reinterpret_cast<const volatile uint64_t*>(data + t * LINE);
        uint64_t spins = 0;
        while (__atomic_load_n(f, __ATOMIC_ACQUIRE) == 0 && ++spins < 1000000000ull) {
        }
        if (*d != t + 1) {
            c.weak++;
        }
    }
    RT(cudaDeviceSynchronize());
    report("mp-device-to-host", "fence_acq_rel_sys+st_relaxed_sys | host acquire", "never", c);
    cudaFreeHost(data);
    cudaFreeHost(flags);
}

void run_from_host(uint64_t trials) {
    uint64_t dd = 0, fd = 0;
    uint8_t* data = mapped(trials * LINE, &dd);
    uint8_t* flags = mapped(trials * LINE, &fd);
    Counts* c = counts();
    from_host<<<1, 1>>>(dd, fd, trials, c);
    RT(cudaGetLastError());
    for (uint64_t t = 0; t < trials; t++) {
        reinterpret_cast<volatile uint64_t*>(data + t * LINE)[0] = t + 1;
        __atomic_store_n(reinterpret_cast<uint64_t*>(flags + t * LINE), 1, __ATOMIC_RELEASE);
        for (volatile int i = 0; i < 200; i++) {
        }
    }
    RT(cudaDeviceSynchronize());
    report("mp-host-to-device", "host release | ld_acquire_sys", "never", *c);
    cudaFreeHost(data);
    cudaFreeHost(flags);
}

}  // namespace

int main(int argc, char** argv) {
    uint64_t trials = 2000;
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--trials") == 0 && i + 1 < argc) {
            trials = std::strtoull(argv[++i], nullptr, 10);
        } else {
            std::fprintf(stderr, "usage: seqlink-litmus [--trials N]\n");
            return 2;
        }
    }
    int sms = 0;
    RT(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const uint64_t pairs = sms >= 128 ? 64 : static_cast<uint64_t>(sms / 2);  // one lane per SM, all resident
    RT(cudaFree(nullptr));

    run_mp<WriteRelease, ReadAcquire, DataPlain>("mp-release-acquire", "st_release_sys | ld_acquire_sys", "never", pairs, trials);
    run_mp<WriteReleaseU32, ReadAcquireU32, DataPlain>("mp-release-acquire-u32", "st_release_sys_u32 | ld_acquire_sys_u32",
            "never", pairs, trials);
    run_mp<WriteRedRelease, ReadAcquire, DataPlain>("mp-red-release", "red_release_sys_add | ld_acquire_sys", "never", pairs,
            trials);
    run_mp<WriteFenceRed, ReadAcquire, DataPlain>("mp-publish-tail", "fence_acq_rel_sys+red_relaxed_sys_add | ld_acquire_sys",
            "never", pairs, trials);
    run_mp<WriteAtomRelease, ReadAcquire, DataPlain>("mp-atom-release", "atom_add_release_sys | ld_acquire_sys", "never",
            pairs, trials);
    run_mp<WriteFenceStore, ReadRelaxedFence, DataPlain>("mp-fence-fence", "fence_acq_rel_sys+st_relaxed_sys | ld_relaxed_sys+fence_acq_rel_sys",
            "never", pairs, trials);
    run_mp<WriteFenceStoreU32, ReadRelaxedU32Fence, DataPlain>("mp-fence-fence-u32",
            "fence_acq_rel_sys+st_relaxed_sys_u32 | ld_relaxed_sys_u32+fence_acq_rel_sys", "never", pairs, trials);
    run_mp<WriteFenceGpuStore, ReadRelaxedFenceGpu, DataPlain>("mp-fence-gpu", "fence_acq_rel_gpu | fence_acq_rel_gpu",
            "never", pairs, trials);
    run_mp<WriteFenceScStore, ReadAcquire, DataPlain>("mp-fence-sc", "fence_sc_sys+st_relaxed_sys | ld_acquire_sys", "never",
            pairs, trials);
    run_mp<WriteRelease, ReadRelaxed, DataVolatileV4>("mp-volatile-v4-data", "st_release_sys | ld_relaxed_sys, ld_volatile_v4",
            "never", pairs, trials);
    run_mp<WriteRelease, ReadRelaxed, DataPlain>("control-no-acquire", "st_release_sys | ld_relaxed_sys (no acquire)",
            "must-fail", pairs, trials);
    run_mp<WriteRelaxed, ReadAcquire, DataPlain>("control-no-release", "st_relaxed_sys (no release) | ld_acquire_sys", "control",
            pairs, trials);
    run_sb<true>("sb-fence-sc", "fence_sc_sys", "never", pairs, trials);
    run_sb<false>("control-sb-acq-rel", "fence_acq_rel_sys (not sc)", "control", pairs, trials);
    run_arrive<true>("arrival-last-block", "atom_add_acq_rel_gpu_u32 (last_block_arrives)", "never", 2 * pairs, trials / 4);
    run_arrive<false>("control-arrival-relaxed", "atomicAdd (relaxed) arrival", "control", 2 * pairs, trials / 4);
    run_mutex<true>("mutex-cas-acquire", "atom_cas_acquire_sys_u32 | st_release_sys_u32", "never", static_cast<uint32_t>(pairs),
            200);
    run_mutex<false>("control-mutex-none", "no lock", "control", static_cast<uint32_t>(pairs), 200);
    run_counted(static_cast<uint32_t>(2 * pairs), 64);
    run_to_host(trials);
    run_from_host(trials);

    cudaDeviceProp prop{};
    RT(cudaGetDeviceProperties(&prop, 0));
    int driver = 0;
    cudaDriverGetVersion(&driver);
    std::printf("{\"tool\":\"seqlink-litmus\",\"device\":\"%s\",\"driver\":\"%d.%d\",\"pairs\":%llu,\"trials_per_pair\":%llu,"
            "\"ok\":%s,\n  \"results\":[\n    %s\n  ]}\n",
            prop.name, driver / 1000, (driver % 1000) / 10, static_cast<unsigned long long>(pairs),
            static_cast<unsigned long long>(trials), all_ok ? "true" : "false", results.c_str());
    return all_ok ? 0 : 1;
}
