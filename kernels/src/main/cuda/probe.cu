// probe.cu: the link probe's kernels (io.seqlink.backend.cuda.CudaProbe runs them; its Java twin is
// io.seqlink.backend.emulated.EmulatedProbe): a pattern written on one device and checksummed on the
// other, counted remote adds, dependent-chain latencies of an add and of an acquire load, and the
// throughput of remote adds as threads are added.
#include "seqlink_args.cuh"
#include "seqlink_grid.cuh"
#include "seqlink_layout.cuh"
#include "seqlink_pattern.cuh"
#include "seqlink_sync.cuh"

using namespace seqlink;

// Functional check, first half: `length` bytes of the pattern for `seed` at dst (FramePattern.fill).
extern "C" __global__ void seqlink_probe_fill(uint64_t dst, uint64_t length, uint64_t seed) {
    fill_pattern_grid(dst, length, seed);
}

// Functional check, second half: FramePattern.checksum of `length` bytes at src into the word at out,
// read over the link by the other device. Multi-block launches fold through the Scratch at `scratch`.
extern "C" __global__ void __launch_bounds__(256) seqlink_probe_checksum(uint64_t src, uint64_t length, uint64_t out,
        uint64_t scratch) {
    checksum_grid(src, length, out, scratch);
}

// Functional check: every thread adds 1 to the word at target `adds` times (relaxed, system scope).
// The host compares the sum with threads x adds: a shortfall means remote adds are not atomic.
extern "C" __global__ void seqlink_probe_counted_add(uint64_t target, uint32_t adds) {
    uint64_t* p = reinterpret_cast<uint64_t*>(target);
    for (uint32_t i = 0; i < adds; i++) {
        atom_add_relaxed_sys(p, 1);
    }
}

// Dependent chain of n atom.add.release.sys: each address depends on the last returned value, so no
// two are in flight. out[0] = elapsed ns (globaltimer), out[1] = the last value (keeps the chain live).
extern "C" __global__ void seqlink_probe_chain_add(uint64_t target, uint32_t n, uint64_t out) {
    if (grid::global_thread() != 0) {
        return;
    }
    uint64_t v = 0;
    uint64_t t0 = global_timer_ns();
    for (uint32_t i = 0; i < n; i++) {
        v = atom_add_release_sys(word_at(target, 8 + ((v & 1) << 3)), 1);
    }
    uint64_t t1 = global_timer_ns();
    st_relaxed_sys(word_at(out, 0), t1 - t0);
    st_relaxed_sys(word_at(out, 8), v);
}

// Dependent chain of n ld.acquire.sys, as above.
extern "C" __global__ void seqlink_probe_chain_load(uint64_t target, uint32_t n, uint64_t out) {
    if (grid::global_thread() != 0) {
        return;
    }
    uint64_t v = 0;
    uint64_t t0 = global_timer_ns();
    for (uint32_t i = 0; i < n; i++) {
        v = ld_acquire_sys(word_at(target, 8 + ((v & 1) << 3)));
    }
    uint64_t t1 = global_timer_ns();
    st_relaxed_sys(word_at(out, 0), t1 - t0);
    st_relaxed_sys(word_at(out, 8), v);
}

// Throughput: every thread does `ops` fetch-and-adds on its own word at base (8 bytes apart); the
// host times the launch. The returned values are folded so the adds stay round trips.
extern "C" __global__ void seqlink_probe_throughput(uint64_t base, uint32_t ops) {
    uint64_t* p = word_at(base, grid::global_thread() * 8);
    uint64_t sink = 0;
    for (uint32_t i = 0; i < ops; i++) {
        sink += atom_add_relaxed_sys(p, 1);
    }
    if (sink == 0x5EEDull && ops == 0) {
        *p = sink;  // never taken; keeps the returned values used
    }
}
