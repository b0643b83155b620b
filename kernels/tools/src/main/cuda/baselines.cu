// baselines.cu: the source article's four schemes as benchmark baselines, one producer and one consumer
// kernel each, run by the C++ comparator (cycle_bench.cu): mutex + spin, flag + spin, lock-free counter,
// counter + double buffer. Tools only: never part of the runtime fat binary.
#include "bench_args.cuh"
#include "seqlink_layout.cuh"
#include "seqlink_pattern.cuh"
#include "seqlink_sync.cuh"

// One block of producer threads and one block of consumer threads, on two GPUs or two streams of one.
// A round moves blockDim.x packets (one per thread, packet_bytes each). Waits are polling loops, as
// in the article, but bounded: max_spins polls without progress count a timeout and end the kernel,
// so a missing partner (say, two kernels that are not co-resident) can never hang the GPU.
// Packet word 0 is the round number, word 1 the producer's globaltimer; the consumer checks them.

namespace seqlink {
namespace bench {

using namespace layout;

constexpr uint64_t WORD_LINE = 128;  // control words sit on lines of their own

__device__ __forceinline__ BenchResults* results(const BenchArgs& a) {
    return reinterpret_cast<BenchResults*>(a.results);
}

// Writes this thread's packet of `round` into buffer `buffer`.
__device__ __forceinline__ void write_packet(const BenchArgs& a, uint64_t buffer, uint64_t round, uint64_t now) {
    uint64_t base = a.data + (buffer * blockDim.x + threadIdx.x) * a.packet_bytes;
    uint64_t* p = reinterpret_cast<uint64_t*>(base);
    p[0] = round;
    p[1] = now;
    for (uint64_t w = 2; w < a.packet_bytes / 8; w++) {
        p[w] = pattern_word(round, w);
    }
}

// Reads this thread's packet from buffer `buffer`; returns whether it is round `round` intact, and
// its producer timestamp in *stamp_ns. Counts its loads as remote reads.
__device__ __forceinline__ bool read_packet(const BenchArgs& a, uint64_t buffer, uint64_t round, uint64_t* stamp_ns,
        uint64_t* remote) {
    uint64_t base = a.data + (buffer * blockDim.x + threadIdx.x) * a.packet_bytes;
    const volatile uint64_t* p = reinterpret_cast<const volatile uint64_t*>(base);
    bool ok = p[0] == round;
    *stamp_ns = p[1];
    for (uint64_t w = 2; w < a.packet_bytes / 8; w++) {
        ok &= p[w] == pattern_word(round, w);
    }
    *remote += a.packet_bytes / 8;
    return ok;
}

// Block-wide AND of a per-thread flag (every thread gets the result).
__device__ __forceinline__ bool block_all(bool v) {
    return __syncthreads_and(v ? 1 : 0) != 0;
}

// Thread 0 records one received round: intact or corrupt, and its latency in the histogram.
__device__ void record_round(const BenchArgs& a, bool intact, uint64_t stamp_ns) {
    bool all = block_all(intact);
    if (threadIdx.x == 0) {
        uint64_t now = global_timer_ns();
        volatile BenchResults* r = results(a);
        if (all) {
            r->rounds_received = r->rounds_received + 1;
            int b = latency_bucket(now > stamp_ns ? now - stamp_ns : 0);
            r->histogram[b] = r->histogram[b] + 1;
        } else {
            r->corrupt = r->corrupt + 1;
        }
        r->end_ns = now;
    }
}

// Sums every thread's count of remote reads into the results (thread 0 writes).
__device__ void report_remote_reads(const BenchArgs& a, uint64_t n) {
    __shared__ unsigned long long s_sum;
    if (threadIdx.x == 0) {
        s_sum = 0;
    }
    __syncthreads();
    atomicAdd(&s_sum, static_cast<unsigned long long>(n));
    __syncthreads();
    if (threadIdx.x == 0) {
        results(a)->remote_reads = s_sum;
        __threadfence_system();
        st_release_sys(&results(a)->consumer_done, 1);
    }
}

__device__ void report_producer_done(const BenchArgs& a, uint64_t* done_word) {
    if (threadIdx.x == 0) {
        st_release_sys(done_word, 1);
        __threadfence_system();
        st_release_sys(&results(a)->producer_done, 1);
    }
}

}  // namespace bench
}  // namespace seqlink

using namespace seqlink;
using namespace seqlink::bench;

// Scheme 1, global mutex + spin. control+0: lock (u32), +128: version (u64, rounds written),
// +256: consumed (u64, rounds read), +384: producer done flag. One packet buffer.
extern "C" __global__ void seqlink_bench_mutex_producer(const BenchArgs a) {
    __shared__ int s_go;
    uint32_t* lock = reinterpret_cast<uint32_t*>(a.control);
    uint64_t* version = word_at(a.control, WORD_LINE);
    uint64_t* consumed = word_at(a.control, 2 * WORD_LINE);
    uint64_t* done = word_at(a.control, 3 * WORD_LINE);
    uint64_t start = global_timer_ns();
    if (threadIdx.x == 0) {
        results(a)->start_ns = start;
    }
    uint64_t round = 0;
    uint64_t spins = 0;
    while (true) {
        if (threadIdx.x == 0) {
            int go = 0;  // 1: write a round; 0: retry; -1: stop
            if (global_timer_ns() - start >= a.duration_ns) {
                go = -1;
            } else if (atom_cas_acquire_sys_u32(lock, 0, 1) == 0) {
                if (ld_relaxed_sys(consumed) == round) {
                    go = 1;  // the last round was read: hold the lock while writing the next
                } else {
                    st_release_sys_u32(lock, 0);
                }
            }
            if (go == 0 && ++spins > a.max_spins) {
                results(a)->producer_timeouts++;
                go = -1;
            }
            s_go = go;
        }
        __syncthreads();
        int go = s_go;
        __syncthreads();
        if (go < 0) {
            break;
        }
        if (go == 0) {
            continue;
        }
        round++;
        write_packet(a, 0, round, global_timer_ns());
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence_system();
            st_relaxed_sys(version, round);
            st_release_sys_u32(lock, 0);
            results(a)->rounds_published = round;
            spins = 0;
        }
    }
    report_producer_done(a, done);
}

extern "C" __global__ void seqlink_bench_mutex_consumer(const BenchArgs a) {
    __shared__ int s_go;
    __shared__ uint64_t s_round;
    uint32_t* lock = reinterpret_cast<uint32_t*>(a.control);
    uint64_t* version = word_at(a.control, WORD_LINE);
    uint64_t* consumed = word_at(a.control, 2 * WORD_LINE);
    uint64_t* done = word_at(a.control, 3 * WORD_LINE);
    uint64_t seen = 0;
    uint64_t spins = 0;
    uint64_t remote = 0;
    while (true) {
        if (threadIdx.x == 0) {
            int go = 0;
            remote++;
            if (atom_cas_acquire_sys_u32(lock, 0, 1) == 0) {
                remote++;
                uint64_t v = ld_relaxed_sys(version);
                if (v > seen) {
                    go = 1;  // hold the lock while the block reads
                    s_round = v;
                } else {
                    st_release_sys_u32(lock, 0);
                    remote++;
                    if (ld_relaxed_sys(done) != 0) {
                        go = -1;
                    }
                }
            }
            if (go == 0 && ++spins > a.max_spins) {
                results(a)->consumer_timeouts++;
                go = -1;
            }
            s_go = go;
        }
        __syncthreads();
        int go = s_go;
        uint64_t round = s_round;
        __syncthreads();
        if (go < 0) {
            break;
        }
        if (go == 0) {
            continue;
        }
        uint64_t stamp = 0;
        bool ok = read_packet(a, 0, round, &stamp, &remote);
        record_round(a, ok, stamp);
        if (threadIdx.x == 0) {
            seen = round;
            st_relaxed_sys(consumed, round);
            st_release_sys_u32(lock, 0);
            spins = 0;
        }
        __syncthreads();
    }
    report_remote_reads(a, remote);
}

// Scheme 2, atomic flag + spin. control+0: flag (u32: 0 empty, 1 full), +128: round (u64),
// +384: producer done. Every consumer thread polls the flag, as in the article's first version.
extern "C" __global__ void seqlink_bench_flag_producer(const BenchArgs a) {
    __shared__ int s_go;
    uint32_t* flag = reinterpret_cast<uint32_t*>(a.control);
    uint64_t* round_word = word_at(a.control, WORD_LINE);
    uint64_t* done = word_at(a.control, 3 * WORD_LINE);
    uint64_t start = global_timer_ns();
    if (threadIdx.x == 0) {
        results(a)->start_ns = start;
    }
    uint64_t round = 0;
    uint64_t spins = 0;
    while (true) {
        if (threadIdx.x == 0) {
            int go = 0;
            if (global_timer_ns() - start >= a.duration_ns) {
                go = -1;
            } else if (ld_acquire_sys_u32(flag) == 0) {
                go = 1;
            } else if (++spins > a.max_spins) {
                results(a)->producer_timeouts++;
                go = -1;
            }
            s_go = go;
        }
        __syncthreads();
        int go = s_go;
        __syncthreads();
        if (go < 0) {
            break;
        }
        if (go == 0) {
            continue;
        }
        round++;
        write_packet(a, 0, round, global_timer_ns());
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence_system();
            st_relaxed_sys(round_word, round);
            atomicExch_system(flag, 1u);
            results(a)->rounds_published = round;
            spins = 0;
        }
    }
    report_producer_done(a, done);
}

extern "C" __global__ void seqlink_bench_flag_consumer(const BenchArgs a) {
    uint32_t* flag = reinterpret_cast<uint32_t*>(a.control);
    uint64_t* round_word = word_at(a.control, WORD_LINE);
    uint64_t* done = word_at(a.control, 3 * WORD_LINE);
    uint64_t spins = 0;
    uint64_t remote = 0;
    while (true) {
        // every thread polls the flag: the cross-device read storm of the article's first version
        bool full = ld_acquire_sys_u32(flag) == 1;
        remote++;
        bool stop = false;
        if (!full) {
            remote++;
            stop = ld_relaxed_sys(done) != 0 && ld_acquire_sys_u32(flag) == 0;
            if (++spins > a.max_spins) {
                if (threadIdx.x == 0) {
                    results(a)->consumer_timeouts++;
                }
                stop = true;
            }
        }
        int state = __syncthreads_or(stop ? 2 : 0) ? 2 : (__syncthreads_and(full ? 1 : 0) ? 1 : 0);
        if (state == 2) {
            break;
        }
        if (state == 0) {
            continue;
        }
        spins = 0;
        uint64_t round = ld_relaxed_sys(round_word);
        remote++;
        uint64_t stamp = 0;
        bool ok = read_packet(a, 0, round, &stamp, &remote);
        record_round(a, ok, stamp);
        if (threadIdx.x == 0) {
            __threadfence_system();
            atomicExch_system(flag, 0u);
        }
        __syncthreads();
    }
    report_remote_reads(a, remote);
}

// Schemes 3 and 4, lock-free monotonic counter (slots = 1) and counter + double buffer (slots = 2).
// control+0: publish_seq (u64, producer-resident), +128: consumed (u64, written by the consumer with
// a release store), +384: producer done. The producer writes round r into buffer r % slots once the
// consumer has read round r - slots, then publishes with fence.sc.sys + red.release.sys; the consumer's
// thread 0 does one ld.acquire.sys of publish_seq per poll and shares it through shared memory.
extern "C" __global__ void seqlink_bench_counter_producer(const BenchArgs a) {
    __shared__ int s_go;
    uint64_t* publish_seq = word_at(a.control, 0);
    uint64_t* consumed = word_at(a.control, WORD_LINE);
    uint64_t* done = word_at(a.control, 3 * WORD_LINE);
    uint64_t start = global_timer_ns();
    if (threadIdx.x == 0) {
        results(a)->start_ns = start;
    }
    uint64_t round = 0;
    uint64_t spins = 0;
    while (true) {
        if (threadIdx.x == 0) {
            int go = 0;
            if (global_timer_ns() - start >= a.duration_ns) {
                go = -1;
            } else if (round + 1 <= ld_acquire_sys(consumed) + a.slots) {
                go = 1;  // the buffer of round + 1 was read (local poll: our own memory)
            } else if (++spins > a.max_spins) {
                results(a)->producer_timeouts++;
                go = -1;
            }
            s_go = go;
        }
        __syncthreads();
        int go = s_go;
        __syncthreads();
        if (go < 0) {
            break;
        }
        if (go == 0) {
            continue;
        }
        round++;
        write_packet(a, round % a.slots, round, global_timer_ns());
        __syncthreads();
        if (threadIdx.x == 0) {
            fence_sc_sys();
            red_release_sys_add(publish_seq, 1);
            results(a)->rounds_published = round;
            spins = 0;
        }
    }
    report_producer_done(a, done);
}

extern "C" __global__ void seqlink_bench_counter_consumer(const BenchArgs a) {
    __shared__ uint64_t s_published;
    __shared__ int s_stop;
    uint64_t* publish_seq = word_at(a.control, 0);
    uint64_t* consumed = word_at(a.control, WORD_LINE);
    uint64_t* done = word_at(a.control, 3 * WORD_LINE);
    uint64_t seen = 0;
    uint64_t spins = 0;
    uint64_t remote = 0;
    while (true) {
        if (threadIdx.x == 0) {
            uint64_t p = ld_acquire_sys(publish_seq);  // one cross-device read per poll
            remote++;
            int stop = 0;
            if (p == seen) {
                remote++;
                if (ld_acquire_sys(done) != 0 && ld_acquire_sys(publish_seq) == seen) {
                    stop = 1;
                } else if (++spins > a.max_spins) {
                    results(a)->consumer_timeouts++;
                    stop = 1;
                } else {
                    __nanosleep(64);  // back off: the CPU-side launcher's job in the real library
                }
            }
            s_published = p;
            s_stop = stop;
        }
        __syncthreads();
        uint64_t p = s_published;
        int stop = s_stop;
        __syncthreads();
        if (stop) {
            break;
        }
        if (p == seen) {
            continue;
        }
        spins = 0;
        for (uint64_t round = seen + 1; round <= p; round++) {
            uint64_t stamp = 0;
            bool ok = read_packet(a, round % a.slots, round, &stamp, &remote);
            record_round(a, ok, stamp);
        }
        seen = p;
        __syncthreads();
        if (threadIdx.x == 0) {
            st_release_sys(consumed, seen);  // the ack: a release store into the producer's memory
        }
    }
    report_remote_reads(a, remote);
}
