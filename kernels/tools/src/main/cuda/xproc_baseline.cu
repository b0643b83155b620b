// seqlink-xproc-baseline: the hand-written cross-process hand-off a user would write instead of a shared channel
// for a host consumer in another process, and the same hand-off with the consumer a thread of the producer's
// process, in one run. Self-contained (no runtime headers): it is the floor, not the channel.
//
// Per frame s (one frame in flight, as CrossProcessLatencyBench's latency rows):
//   producer  t0 = CLOCK_MONOTONIC; fill kernel (word k of frame s = pattern(s, k)) into a device buffer;
//             cudaMemcpyAsync D2H into a /dev/shm file mapped by both processes and registered in the producer with
//             cudaHostRegister(Portable|Mapped); cuStreamWriteValue64 of s into the landing word in the same file
//             (a one-thread kernel storing it where the device has no 64-bit stream memory operations); then it
//             spins on the consumer's acknowledgement word before the next frame
//   consumer  spins on the landing word (acquire), checks the frame's first and last word, stores its
//             CLOCK_MONOTONIC time, then release-stores s into the acknowledgement word
//   latency   the consumer's time minus t0 (CLOCK_MONOTONIC is one clock for every process of the host)
// The consumer process is fork()ed before the first CUDA call (it never touches CUDA: the shared file is all it
// reads); the in-process consumer is a thread on a second file of the same layout.
//
// --consumer device: the hand-written hand-off to a consumer KERNEL in another process, by CUDA IPC (what a device
// listener in a consumer process is compared with):
//   producer  t0; fill kernel into a device buffer (the frame, and its word count in the buffer's header);
//             cuStreamWriteValue64 of s into the buffer's sequence word (device memory, the stream's barrier before
//             it); then it spins on the acknowledgement word in the shared file; latency: its own clock when it saw it
//   consumer  opens the buffer by cudaIpcOpenMemHandle (the handle comes through the shared file) and keeps two rounds
//             enqueued ahead, each cuStreamWaitValue64(sequence >= s) -> a check kernel reading every word of frame s
//             (a mismatch adds to the file's `wrong` with a system-scope atomic) -> cuStreamWriteValue64 of s into the
//             acknowledgement word (the file, registered in its context); the host only tops the rounds up
// The in-process twin is a thread of the producer's process with a stream of its own on the same buffer (one context).
// Two processes' contexts on one GPU take turns on it (time-slicing, unless MPS runs): the cross-process row pays that.
//
// Usage: seqlink-xproc-baseline [--sizes 64,16384,1048576] [--frames 20000] [--warmup 1000] [--dir /dev/shm]
//                               [--json FILE] [--device 0] [--consumer host|device]
// Prints a table (us) on stdout; --json writes rows {"path","bytes","n","p50_us","p99_us","p999_us","max_us","wrong"}
// (the field names of CrossProcessLatencyBench's JSON). Exit status: 0 when every frame checked, 1 when a frame was
// wrong or a consumer stopped answering, 2 on usage or CUDA errors.
#include <cuda.h>
#include <cuda_runtime.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "bench_errors.cuh"

namespace {

using harness::die;

// ---- the shared file's layout: control words on their own cache lines, then the frame (page aligned) ----
constexpr uint64_t HEADER_BYTES = 4096;
constexpr uint64_t SPIN_TIMEOUT_NS = 10ull * 1000 * 1000 * 1000;  // a consumer silent this long has failed

struct Control {
    alignas(128) uint64_t landing;   // the sequence the stream wrote last (device writes, consumer reads)
    alignas(128) uint64_t ack;       // the sequence the consumer checked last (consumer writes, producer reads)
    alignas(128) uint64_t ack_ns;    // the consumer's CLOCK_MONOTONIC when it had checked `ack`
    alignas(128) uint64_t bytes;     // the frame size of the current row (producer writes before its first frame)
    alignas(128) uint64_t wrong;     // frames whose first or last word was not the pattern's
    alignas(128) uint64_t stop;      // 1: the consumer returns
    alignas(128) uint64_t ipc_ready; // --consumer device: 1 once `ipc` holds the producer's buffer
    alignas(128) cudaIpcMemHandle_t ipc;
};
static_assert(sizeof(Control) <= HEADER_BYTES, "control words fit the header");

inline uint64_t now_ns() {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return uint64_t(t.tv_sec) * 1000000000ull + uint64_t(t.tv_nsec);
}

__host__ __device__ inline uint64_t pattern(uint64_t s, uint64_t k) {
    return (s * 0x9E3779B97F4A7C15ull) ^ (k * 0xC2B2AE3D27D4EB4Full) ^ 0x5EC11A4Bull;
}

__global__ void fill(uint64_t* frame, uint64_t words, uint64_t s) {
    for (uint64_t k = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; k < words; k += uint64_t(gridDim.x) * blockDim.x) {
        frame[k] = pattern(s, k);
    }
}

// The landing store where the device has no 64-bit stream memory operations: after the copy in stream order.
__global__ void write_value(volatile uint64_t* word, uint64_t v) {
    __threadfence_system();
    *word = v;
}

inline uint64_t load_acquire(const uint64_t* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
inline void store_release(uint64_t* p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }

// A shared file of the layout above, owner-only, unlinked as soon as it is mapped (nothing is left behind).
struct Shared {
    uint8_t* base = nullptr;
    uint64_t length = 0;
    Control* ctl() const { return reinterpret_cast<Control*>(base); }
    uint8_t* frame() const { return base + HEADER_BYTES; }
};

Shared map_shared(const std::string& dir, const char* tag, uint64_t max_bytes) {
    Shared s;
    s.length = HEADER_BYTES + ((max_bytes + 4095) / 4096) * 4096;
    std::string path = dir + "/seqlink-xproc-baseline-" + std::to_string(getpid()) + "-" + tag;
    int fd = open(path.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0) die("cannot create %s: %s (set --dir to a writable tmpfs directory)", path.c_str(), std::strerror(errno));
    if (ftruncate(fd, off_t(s.length)) != 0) die("ftruncate %s: %s", path.c_str(), std::strerror(errno));
    void* p = mmap(nullptr, s.length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) die("mmap %s: %s", path.c_str(), std::strerror(errno));
    close(fd);
    unlink(path.c_str());
    s.base = static_cast<uint8_t*>(p);
    std::memset(s.base, 0, s.length);
    return s;
}

// The consumer: every new landing sequence is checked (first and last word), timed and acknowledged.
void consume(Shared sh) {
    Control* c = sh.ctl();
    uint64_t last = 0;
    uint64_t spins = 0;
    for (;;) {
        uint64_t s = load_acquire(&c->landing);
        if (s == last) {
            if ((++spins & 0xFFFF) == 0 && load_acquire(&c->stop)) return;
            continue;
        }
        spins = 0;
        const uint64_t words = load_acquire(&c->bytes) / 8;
        const volatile uint64_t* w = reinterpret_cast<const volatile uint64_t*>(sh.frame());
        if (words > 0 && (w[0] != pattern(s, 0) || w[words - 1] != pattern(s, words - 1))) {
            __atomic_fetch_add(&c->wrong, 1, __ATOMIC_RELAXED);
        }
        __atomic_store_n(&c->ack_ns, now_ns(), __ATOMIC_RELAXED);
        store_release(&c->ack, s);
        last = s;
    }
}

// ---- --consumer device: the producer's device buffer (sequence word, word count, then the frame) ----
constexpr uint64_t BUF_SEQ = 0;            // word index: the published sequence (the consumer's stream waits on it)
constexpr uint64_t BUF_WORDS = 16;         // word index: frame s's length in words (the fill kernel writes it)
constexpr uint64_t BUF_FRAME_BYTES = 256;  // the frame's offset in the buffer

__global__ void fill_counted(uint64_t* buf, uint64_t words, uint64_t s) {
    uint64_t* frame = buf + BUF_FRAME_BYTES / 8;
    for (uint64_t k = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; k < words; k += uint64_t(gridDim.x) * blockDim.x) {
        frame[k] = pattern(s, k);
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) buf[BUF_WORDS] = words;
}

// Every word of frame s against the pattern; mismatches into *wrong (host-mapped; any count above 0 fails the run).
__global__ void check_frame(const uint64_t* buf, uint64_t s, unsigned long long* wrong) {
    const volatile uint64_t* vbuf = buf;
    const uint64_t words = vbuf[BUF_WORDS];
    const uint64_t* frame = buf + BUF_FRAME_BYTES / 8;
    unsigned long long bad = 0;
    for (uint64_t k = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; k < words; k += uint64_t(gridDim.x) * blockDim.x) {
        bad += frame[k] != pattern(s, k);
    }
    if (bad) atomicAdd_system(wrong, bad);
}

// The fill's and the check's grid for a frame of `words`: a thread per word, at most 8 blocks of 256 per SM.
int grid_for(uint64_t words, int sms) {
    return int(std::max<uint64_t>(1, std::min<uint64_t>((words + 255) / 256, uint64_t(sms) * 8)));
}

using WaitValue64 = CUresult (*)(CUstream, CUdeviceptr, cuuint64_t, unsigned int);
using WriteValue64 = CUresult (*)(CUstream, CUdeviceptr, cuuint64_t, unsigned int);

void* driver_entry(const char* symbol) {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q{};
    if (cudaGetDriverEntryPointByVersion(symbol, &p, 12000, cudaEnableDefault, &q) != cudaSuccess || q != cudaDriverEntryPointSuccess) {
        return nullptr;
    }
    return p;
}

// The consumer kernel's side: `total` frames in order, two rounds enqueued ahead. `buf`: the producer's buffer (the
// pointer itself in process, null for the IPC handle in the file); sh: the file holding the acknowledgement.
void consume_on_device(Shared sh, int device, uint64_t* buf, uint64_t total) {
    Control* c = sh.ctl();
    RT(cudaSetDevice(device));
    int sms = 0;
    RT(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    if (buf == nullptr) {
        while (!load_acquire(&c->ipc_ready)) {
        }
        void* opened = nullptr;
        RT(cudaIpcOpenMemHandle(&opened, c->ipc, cudaIpcMemLazyEnablePeerAccess));
        buf = static_cast<uint64_t*>(opened);
        RT(cudaHostRegister(sh.base, sh.length, cudaHostRegisterPortable | cudaHostRegisterMapped));
    }
    auto wait64 = reinterpret_cast<WaitValue64>(driver_entry("cuStreamWaitValue64"));
    auto write64 = reinterpret_cast<WriteValue64>(driver_entry("cuStreamWriteValue64"));
    if (!wait64 || !write64) die("--consumer device needs 64-bit stream memory operations (cuStreamWaitValue64)");
    void* ack_dev = nullptr;
    void* wrong_dev = nullptr;
    RT(cudaHostGetDevicePointer(&ack_dev, &c->ack, 0));
    RT(cudaHostGetDevicePointer(&wrong_dev, &c->wrong, 0));
    cudaStream_t st{};
    RT(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    const uint64_t max_words = load_acquire(&c->bytes) / 8;  // the largest frame: the producer sets it before forking work
    const int grid = grid_for(max_words, sms);
    for (uint64_t s = 1; s <= total; s++) {
        while (s > 2 && load_acquire(&c->ack) < s - 2) {  // two rounds ahead at most
            if (load_acquire(&c->stop)) break;
        }
        if (load_acquire(&c->stop)) break;
        CUresult e = wait64(reinterpret_cast<CUstream>(st), CUdeviceptr(buf + BUF_SEQ), s, CU_STREAM_WAIT_VALUE_GEQ);
        if (e != CUDA_SUCCESS) die("cuStreamWaitValue64 failed: %d", int(e));
        check_frame<<<grid, 256, 0, st>>>(buf, s, static_cast<unsigned long long*>(wrong_dev));
        RT(cudaGetLastError());
        e = write64(reinterpret_cast<CUstream>(st), CUdeviceptr(ack_dev), s, CU_STREAM_WRITE_VALUE_DEFAULT);
        if (e != CUDA_SUCCESS) die("cuStreamWriteValue64 failed: %d", int(e));
    }
    while (!load_acquire(&c->stop)) {
    }
    RT(cudaStreamSynchronize(st));
}

struct Row {
    std::string path;
    uint64_t bytes = 0, n = 0, wrong = 0;
    double p50 = 0, p99 = 0, p999 = 0, max = 0;  // us
    bool stalled = false;
};

double pct(const std::vector<uint64_t>& sorted, double q) {
    if (sorted.empty()) return 0;
    size_t i = size_t(q * double(sorted.size() - 1) + 0.5);
    return double(sorted[std::min(i, sorted.size() - 1)]) / 1e3;
}

// The producer's side of one row: device buffer, stream, the registered shared file.
struct Producer {
    cudaStream_t st{};
    uint64_t* dev = nullptr;
    WriteValue64 write64 = nullptr;
    int sms = 0;

    Producer(int device, uint64_t max_bytes) {
        RT(cudaSetDevice(device));
        RT(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        RT(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
        RT(cudaMalloc(&dev, std::max<uint64_t>(max_bytes, 8)));
        // Driver entry points through the runtime (no libcuda at link time), as seqlink-cycle-bench fetches them.
        using DeviceGet = CUresult (*)(CUdevice*, int);
        using DeviceGetAttribute = CUresult (*)(int*, CUdevice_attribute, CUdevice);
        auto entry = driver_entry;
        auto deviceGet = reinterpret_cast<DeviceGet>(entry("cuDeviceGet"));
        auto deviceGetAttribute = reinterpret_cast<DeviceGetAttribute>(entry("cuDeviceGetAttribute"));
        CUdevice dev{};
        int memops = 0;
        if (deviceGet && deviceGetAttribute && deviceGet(&dev, device) == CUDA_SUCCESS
                && deviceGetAttribute(&memops, CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, dev) == CUDA_SUCCESS && memops) {
            write64 = reinterpret_cast<WriteValue64>(entry("cuStreamWriteValue64"));
        }
    }

    // One row: frames one at a time, each enqueued by hand_off(s) from its start t0, then awaited until the consumer
    // acknowledged it; time(t0) is its sample (taken after the acknowledgement).
    template <typename HandOff, typename Time>
    Row timed(const char* path, Control* c, uint64_t bytes, uint64_t frames, uint64_t warmup, uint64_t& seq, HandOff hand_off,
            Time time) {
        const uint64_t wrong0 = load_acquire(&c->wrong);
        std::vector<uint64_t> lat;
        lat.reserve(frames);
        Row r;
        r.path = path;
        r.bytes = bytes;
        const uint64_t row_start = now_ns();
        for (uint64_t i = 0; i < warmup + frames; i++) {
            const uint64_t s = ++seq;
            const uint64_t t0 = now_ns();
            hand_off(s);
            uint64_t spins = 0;
            while (load_acquire(&c->ack) < s) {
                if ((++spins & 0xFFFF) == 0 && now_ns() - t0 > SPIN_TIMEOUT_NS) {
                    std::fprintf(stderr, "seqlink-xproc-baseline: %s %llu B: frame %llu not acknowledged in 10 s\n", path,
                                 (unsigned long long)bytes, (unsigned long long)s);
                    r.stalled = true;
                    break;
                }
            }
            if (r.stalled) break;
            const uint64_t t = time(t0);
            if (i >= warmup) lat.push_back(t);
        }
        RT(cudaStreamSynchronize(st));
        std::sort(lat.begin(), lat.end());
        r.n = lat.size();
        // progress on stderr, so a call cut short still shows each finished row and how long it took
        std::fprintf(stderr, "seqlink-xproc-baseline: %s %llu B: %llu frames in %.1f s, p50 %.2f us\n", path,
                     (unsigned long long)bytes, (unsigned long long)(warmup + frames), double(now_ns() - row_start) / 1e9,
                     pct(lat, 0.50));
        r.wrong = load_acquire(&c->wrong) - wrong0;
        r.p50 = pct(lat, 0.50);
        r.p99 = pct(lat, 0.99);
        r.p999 = pct(lat, 0.999);
        r.max = lat.empty() ? 0 : double(lat.back()) / 1e3;
        return r;
    }

    // The host consumer's hand-off: fill, the copy into the file, the landing word; timed to the consumer's check.
    Row run(const char* path, Shared sh, uint64_t bytes, uint64_t frames, uint64_t warmup, uint64_t& seq) {
        Control* c = sh.ctl();
        void* landing_dev = nullptr;
        RT(cudaHostGetDevicePointer(&landing_dev, &c->landing, 0));
        store_release(&c->bytes, bytes);
        const uint64_t words = bytes / 8;
        const int grid = grid_for(words, sms);
        return timed(path, c, bytes, frames, warmup, seq, [&](uint64_t s) {
            fill<<<grid, 256, 0, st>>>(dev, words, s);
            RT(cudaGetLastError());
            RT(cudaMemcpyAsync(sh.frame(), dev, bytes, cudaMemcpyDeviceToHost, st));
            if (write64) {
                CUresult e = write64(st, CUdeviceptr(landing_dev), s, CU_STREAM_WRITE_VALUE_DEFAULT);
                if (e != CUDA_SUCCESS) die("cuStreamWriteValue64 failed: %d", int(e));
            } else {
                write_value<<<1, 1, 0, st>>>(static_cast<volatile uint64_t*>(landing_dev), s);
                RT(cudaGetLastError());
            }
        }, [&](uint64_t t0) {
            const uint64_t t1 = __atomic_load_n(&c->ack_ns, __ATOMIC_RELAXED);
            return t1 > t0 ? t1 - t0 : 0;
        });
    }

    // The device consumer's hand-off: fill_counted, then the sequence word; timed to the acknowledgement seen here.
    Row run_device(const char* path, Shared sh, uint64_t* buf, uint64_t bytes, uint64_t frames, uint64_t warmup, uint64_t& seq) {
        const uint64_t words = bytes / 8;
        const int grid = grid_for(words, sms);
        return timed(path, sh.ctl(), bytes, frames, warmup, seq, [&](uint64_t s) {
            fill_counted<<<grid, 256, 0, st>>>(buf, words, s);
            RT(cudaGetLastError());
            CUresult e = write64(st, CUdeviceptr(buf + BUF_SEQ), s, CU_STREAM_WRITE_VALUE_DEFAULT);
            if (e != CUDA_SUCCESS) die("cuStreamWriteValue64 failed: %d", int(e));
        }, [](uint64_t t0) { return now_ns() - t0; });
    }
};

std::vector<uint64_t> parse_sizes(const char* s) {
    std::vector<uint64_t> v;
    std::string str(s);
    size_t pos = 0;
    while (pos <= str.size()) {
        size_t comma = str.find(',', pos);
        std::string part = str.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        char* end = nullptr;
        unsigned long long b = std::strtoull(part.c_str(), &end, 10);
        if (part.empty() || *end != '\0' || b < 8 || b % 8 != 0) die("--sizes: '%s' is not a multiple of 8 bytes, at least 8", part.c_str());
        v.push_back(b);
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    return v;
}

}  // namespace

int main(int argc, char** argv) {
    harness::program_name = "seqlink-xproc-baseline";
    std::vector<uint64_t> sizes{64, 16384, 1048576};
    uint64_t frames = 20000, warmup = 1000;
    std::string dir = "/dev/shm";
    const char* json = nullptr;
    int device = 0;
    bool device_consumer = false;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (i + 1 >= argc) die("%s needs a value", a.c_str());
        const char* v = argv[++i];
        if (a == "--sizes") sizes = parse_sizes(v);
        else if (a == "--frames") frames = std::strtoull(v, nullptr, 10);
        else if (a == "--warmup") warmup = std::strtoull(v, nullptr, 10);
        else if (a == "--dir") dir = v;
        else if (a == "--json") json = v;
        else if (a == "--device") device = std::atoi(v);
        else if (a == "--consumer") {
            if (std::strcmp(v, "host") && std::strcmp(v, "device")) die("--consumer takes host or device, not %s", v);
            device_consumer = std::strcmp(v, "device") == 0;
        }
        else die("unknown argument %s (see the usage in xproc_baseline.cu)", a.c_str());
    }
    if (frames == 0) die("--frames must be at least 1");
    const uint64_t max_bytes = *std::max_element(sizes.begin(), sizes.end());

    // Both files are mapped and the consumer process forked before the first CUDA call.
    Shared cross = map_shared(dir, "cross", max_bytes);
    Shared local = map_shared(dir, "local", max_bytes);
    auto warmup_for = [&](uint64_t bytes) { return bytes > 65536 ? std::min<uint64_t>(warmup, 200) : warmup; };
    uint64_t total = 0;  // a consumer kernel's frames: every row's warm-up and frames
    for (uint64_t bytes : sizes) total += warmup_for(bytes) + frames;
    store_release(&cross.ctl()->bytes, max_bytes);  // the device consumer sizes its grid by the largest frame
    store_release(&local.ctl()->bytes, max_bytes);
    const pid_t parent = getpid();
    pid_t child = fork();
    if (child < 0) die("fork: %s", std::strerror(errno));
    if (child == 0) {
        // The producer's end (a CUDA error, a timeout's kill) ends the consumer too: it never spins orphaned.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(3);
        if (device_consumer) {
            consume_on_device(cross, device, nullptr, total);
        } else {
            consume(cross);
        }
        _exit(0);
    }

    Producer prod(device, max_bytes);
    if (device_consumer && !prod.write64) die("--consumer device needs 64-bit stream memory operations");
    RT(cudaHostRegister(cross.base, cross.length, cudaHostRegisterPortable | cudaHostRegisterMapped));
    RT(cudaHostRegister(local.base, local.length, cudaHostRegisterPortable | cudaHostRegisterMapped));
    uint64_t* buf_cross = nullptr;  // --consumer device: the frame buffers, the cross-process one exported by IPC
    uint64_t* buf_local = nullptr;
    if (device_consumer) {
        RT(cudaMalloc(&buf_cross, BUF_FRAME_BYTES + max_bytes));
        RT(cudaMalloc(&buf_local, BUF_FRAME_BYTES + max_bytes));
        RT(cudaMemset(buf_cross, 0, BUF_FRAME_BYTES + max_bytes));
        RT(cudaMemset(buf_local, 0, BUF_FRAME_BYTES + max_bytes));
        RT(cudaIpcGetMemHandle(&cross.ctl()->ipc, buf_cross));
        store_release(&cross.ctl()->ipc_ready, 1);
    }
    std::thread consumer_thread = device_consumer ? std::thread(consume_on_device, local, device, buf_local, total)
                                                  : std::thread(consume, local);

    cudaDeviceProp prop{};
    RT(cudaGetDeviceProperties(&prop, device));
    std::vector<Row> rows;
    uint64_t seq_local = 0, seq_cross = 0;
    bool failed = false;
    for (uint64_t bytes : sizes) {
        const uint64_t w = warmup_for(bytes);
        if (device_consumer) {
            rows.push_back(prod.run_device("in-process", local, buf_local, bytes, frames, w, seq_local));
            rows.push_back(prod.run_device("cross-process", cross, buf_cross, bytes, frames, w, seq_cross));
        } else {
            rows.push_back(prod.run("in-process", local, bytes, frames, w, seq_local));
            rows.push_back(prod.run("cross-process", cross, bytes, frames, w, seq_cross));
        }
        for (size_t k = rows.size() - 2; k < rows.size(); k++) failed |= rows[k].stalled || rows[k].wrong != 0;
        if (failed) break;
    }

    if (device_consumer) {
        // rounds still enqueued for frames that will not come (a row failed) pass on a sequence above every frame
        const uint64_t release = ~0ull;
        RT(cudaMemcpy(buf_cross + BUF_SEQ, &release, 8, cudaMemcpyHostToDevice));
        RT(cudaMemcpy(buf_local + BUF_SEQ, &release, 8, cudaMemcpyHostToDevice));
    }
    store_release(&cross.ctl()->stop, 1);
    store_release(&local.ctl()->stop, 1);
    consumer_thread.join();
    int status = 0;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::fprintf(stderr, "seqlink-xproc-baseline: the consumer process ended abnormally (status %d)\n", status);
        failed = true;
    }
    cudaHostUnregister(cross.base);
    cudaHostUnregister(local.base);
    if (device_consumer) {
        cudaFree(buf_cross);
        cudaFree(buf_local);
    }

    if (device_consumer) {
        std::printf("\nhand-written hand-off: fill + cuStreamWriteValue64 of the sequence (device memory), consumer kernel "
                    "behind cuStreamWaitValue64 (another process: cudaIpcOpenMemHandle), acknowledgement by a stream write "
                    "into a shared /dev/shm file, %s, %llu frames each (us, the producer's cycle)\n",
                    prop.name, (unsigned long long)frames);
    } else {
        std::printf("\nhand-written hand-off: fill + D2H copy into a shared /dev/shm file + %s, host consumer, %s, "
                    "%llu frames each (us)\n",
                    prod.write64 ? "cuStreamWriteValue64" : "write_value kernel", prop.name, (unsigned long long)frames);
    }
    std::printf("%-14s %9s %9s %9s %9s %9s %7s\n", "path", "bytes", "p50", "p99", "p99.9", "max", "wrong");
    for (const Row& r : rows) {
        std::printf("%-14s %9llu %9.2f %9.2f %9.2f %9.2f %7llu%s\n", r.path.c_str(), (unsigned long long)r.bytes, r.p50, r.p99,
                    r.p999, r.max, (unsigned long long)r.wrong, r.stalled ? "  STALLED" : "");
    }
    for (size_t k = 0; k + 1 < rows.size(); k += 2) {
        if (rows[k].p50 > 0) {
            std::printf("cross/in p50 at %llu B: %.2fx\n", (unsigned long long)rows[k].bytes, rows[k + 1].p50 / rows[k].p50);
        }
    }
    if (json) {
        FILE* f = std::fopen(json, "w");
        if (!f) die("cannot write %s: %s", json, std::strerror(errno));
        std::fprintf(f, "{\"tool\":\"seqlink-xproc-baseline\",\"device\":\"%s\",\"consumer\":\"%s\",\"flag_write\":\"%s\","
                        "\"frames\":%llu,\"ok\":%s,\"rows\":[",
                     prop.name, device_consumer ? "device" : "host", prod.write64 ? "cuStreamWriteValue64" : "write_value kernel",
                     (unsigned long long)frames, failed ? "false" : "true");
        for (size_t k = 0; k < rows.size(); k++) {
            const Row& r = rows[k];
            std::fprintf(f, "%s{\"path\":\"%s\",\"bytes\":%llu,\"n\":%llu,\"p50_us\":%.3f,\"p99_us\":%.3f,\"p999_us\":%.3f,"
                            "\"max_us\":%.3f,\"wrong\":%llu,\"stalled\":%s}",
                         k ? "," : "", r.path.c_str(), (unsigned long long)r.bytes, (unsigned long long)r.n, r.p50, r.p99, r.p999,
                         r.max, (unsigned long long)r.wrong, r.stalled ? "true" : "false");
        }
        std::fprintf(f, "]}\n");
        std::fclose(f);
    }
    return failed ? 1 : 0;
}
