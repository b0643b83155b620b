// seqlink_sync.cuh: the memory-ordering primitives of seqlink, one named inline-PTX helper each.
//
// Every cross-thread, cross-kernel or cross-device hand-off in seqlink goes through one of these, so
// the ordering argument (docs/memory-model.md) can name the instruction at each edge and a driver or
// compiler quirk is fixed in one place (the style of NCCL's and DeepEP's ptx helpers). Each helper
// has a litmus test on the GPU (kernels/src/test/cuda/litmus.cu, run by OrderingLitmusGpuTest) that must
// see no forbidden outcome, and a control with its ordering taken away. Asserted to fail on an H200, so
// a weakening there shows before it shows as a corrupt frame: the removal of every acquire (ld_acquire_sys,
// _u32, the reader's fence_acq_rel_sys / _gpu, the acquire of atom_cas_acq_rel_gpu_u64), of st_release_sys's
// release, of the arrival counter's acq_rel (atom_add_acq_rel_gpu_u32), of the lock, and of the add's
// atomicity. Reported but not shown to fail here: the removal of the other release writes (st_release_sys_u32,
// red_release_sys_add, the fence before red_relaxed_sys_add, atom_add_release_sys: the same reordering as
// st_release_sys's, rare, not yet measured for them), of the round-tagged arrival counter's acq_rel
// (atom_add_acq_rel_gpu_u64: its rows are not yet run on a GPU, so its control is reported, not asserted),
// fence_sc_sys's store-buffering guarantee (never observed on an H200, even with fence_acq_rel_sys: that test
// cannot fail there), and the host's side of the host edges (x86).
//
// Scopes: .sys = every thread of every device and the host (needed for peer GPUs and host-mapped
// mirrors); .gpu = every thread of this device (enough for words only this device touches).
// All need sm_70+ (the PTX memory model); seqlink builds sm_80 and sm_90.
#pragma once

#include <cstdint>

namespace seqlink {

// ---- loads ------------------------------------------------------------------------------------

// Acquire load, system scope: no later load or store of this thread is performed before it, and it
// synchronises with the release (store, add or fence) whose value it reads, on any device or the host.
__device__ __forceinline__ uint64_t ld_acquire_sys(const uint64_t* p) {
    uint64_t v;
    asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ uint32_t ld_acquire_sys_u32(const uint32_t* p) {
    uint32_t v;
    asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

// Relaxed load, system scope: a strong (morally strong) read that never returns a stale cached
// copy, but orders nothing by itself. Used for the producer's own words and polling loops.
__device__ __forceinline__ uint64_t ld_relaxed_sys(const uint64_t* p) {
    uint64_t v;
    asm volatile("ld.relaxed.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ uint32_t ld_relaxed_sys_u32(const uint32_t* p) {
    uint32_t v;
    asm volatile("ld.relaxed.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

// 16-byte volatile load: a strong (relaxed, system scope) read of four words, for data that a
// writer may be overwriting while we read it (latest delivery). Strong reads are what lets a later
// fence + acquire read of writer_busy tell us whether the data could have been overwritten.
__device__ __forceinline__ uint4 ld_volatile_v4(const uint4* p) {
    uint4 v;
    asm volatile("ld.volatile.global.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p) : "memory");
    return v;
}

// ---- stores -----------------------------------------------------------------------------------

// Release store, system scope: every earlier load and store of this thread (and, cumulatively,
// every write it has observed) is performed before the stored value can be seen anywhere.
__device__ __forceinline__ void st_release_sys(uint64_t* p, uint64_t v) {
    asm volatile("st.release.sys.global.u64 [%0], %1;" :: "l"(p), "l"(v) : "memory");
}

__device__ __forceinline__ void st_release_sys_u32(uint32_t* p, uint32_t v) {
    asm volatile("st.release.sys.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

// Relaxed store, system scope: strong (never torn, visible to strong reads), orders nothing.
__device__ __forceinline__ void st_relaxed_sys(uint64_t* p, uint64_t v) {
    asm volatile("st.relaxed.sys.global.u64 [%0], %1;" :: "l"(p), "l"(v) : "memory");
}

__device__ __forceinline__ void st_relaxed_sys_u32(uint32_t* p, uint32_t v) {
    asm volatile("st.relaxed.sys.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

// ---- read-modify-write ------------------------------------------------------------------------

// Release reduction (add without a returned value), system scope: the source article's publish.
// Everything this thread wrote or observed before is visible to whoever acquires the new sum. No round
// trip: the cheapest cross-device atomic (one unconditional add, one thread). It compiles to
// MEMBAR.ALL.SYS + RED, the same as fence_acq_rel_sys + red_relaxed_sys_add, which seqlink's publish
// tail (seqlink_device.cuh) writes instead so that the one fence also releases the replica stores.
__device__ __forceinline__ void red_release_sys_add(uint64_t* p, uint64_t v) {
    asm volatile("red.release.sys.global.add.u64 [%0], %1;" :: "l"(p), "l"(v) : "memory");
}

// Relaxed reduction, system scope: atomic, orders nothing by itself. After fence_acq_rel_sys it is a
// release add (the PTX "release pattern": the fence releases every strong write that follows it in
// this thread), which is how the publish step releases the add and the replica stores with ONE fence.
__device__ __forceinline__ void red_relaxed_sys_add(uint64_t* p, uint64_t v) {
    asm volatile("red.relaxed.sys.global.add.u64 [%0], %1;" :: "l"(p), "l"(v) : "memory");
}

// Release fetch-and-add, system scope: as red_release_sys_add but returns the old value (a round
// trip). The probe measures its dependent-chain latency.
__device__ __forceinline__ uint64_t atom_add_release_sys(uint64_t* p, uint64_t v) {
    uint64_t old;
    asm volatile("atom.release.sys.global.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(p), "l"(v) : "memory");
    return old;
}

// Relaxed fetch-and-add, system scope: atomic across every device with native atomics, orders
// nothing (atomicAdd_system). The probe's throughput and counted-add checks use it.
__device__ __forceinline__ uint64_t atom_add_relaxed_sys(uint64_t* p, uint64_t v) {
    uint64_t old;
    asm volatile("atom.relaxed.sys.global.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(p), "l"(v) : "memory");
    return old;
}

// Acquire-release fetch-and-add on a 32-bit counter, device scope: the arrival counter by which the
// last block of a grid learns that every other block has finished (and sees what they wrote).
__device__ __forceinline__ uint32_t atom_add_acq_rel_gpu_u32(uint32_t* p, uint32_t v) {
    uint32_t old;
    asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
    return old;
}

// Acquire-release fetch-and-add on a 64-bit word, device scope: the arrival counter of a round's grid, whose
// word carries the round's number beside the count (grid::count_in_round), so a launch can tell its own
// blocks' arrivals from those an earlier launch left.
__device__ __forceinline__ uint64_t atom_add_acq_rel_gpu_u64(uint64_t* p, uint64_t v) {
    uint64_t old;
    asm volatile("atom.acq_rel.gpu.global.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(p), "l"(v) : "memory");
    return old;
}

// Acquire-release compare-and-swap on a 64-bit word, device scope: how the blocks of one grid agree on a
// value (device::acquire_published). The first block's swap publishes what it acquired before (release),
// and a later block's failed swap returns that value with acquire ordering, so that block is ordered after
// everything the first block's acquire read synchronised with.
__device__ __forceinline__ uint64_t atom_cas_acq_rel_gpu_u64(uint64_t* p, uint64_t expected, uint64_t desired) {
    uint64_t old;
    asm volatile("atom.acq_rel.gpu.global.cas.b64 %0, [%1], %2, %3;"
                 : "=l"(old) : "l"(p), "l"(expected), "l"(desired) : "memory");
    return old;
}

// Acquire compare-and-swap, system scope: a lock's acquire (the benchmark's mutex baseline only:
// seqlink itself never CASes across devices, where CAS may fall back to slow paths).
__device__ __forceinline__ uint32_t atom_cas_acquire_sys_u32(uint32_t* p, uint32_t expected, uint32_t desired) {
    uint32_t old;
    asm volatile("atom.acquire.sys.global.cas.b32 %0, [%1], %2, %3;"
                 : "=r"(old) : "l"(p), "r"(expected), "r"(desired) : "memory");
    return old;
}

// ---- fences -----------------------------------------------------------------------------------

// Sequentially consistent fence, system scope: orders everything before it against everything
// after it, for every observer, and takes part in the single total order of sc fences (store
// buffering needs it; message passing does not). Costs MEMBAR.SC.SYS plus an L1 invalidation, so
// seqlink's channel steps use none: a release/acquire pair or fence_acq_rel_sys is enough for each of
// their hand-offs (docs/memory-model.md). The benchmark baselines and the litmus tests use it.
__device__ __forceinline__ void fence_sc_sys() {
    asm volatile("fence.sc.sys;" ::: "memory");
}

// Acquire-release fence, system scope: earlier loads and stores are ordered before later ones as
// seen by any device or the host; with a strong access on each side it synchronises like a
// release/acquire pair. Compiles to one MEMBAR.ALL.SYS, as does every .release.sys operation; ptxas
// merges none of them, so each one written is one paid.
__device__ __forceinline__ void fence_acq_rel_sys() {
    asm volatile("fence.acq_rel.sys;" ::: "memory");
}

// Acquire-release fence, device scope: the same, for words only this device touches.
__device__ __forceinline__ void fence_acq_rel_gpu() {
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
}

// ---- time ---------------------------------------------------------------------------------------

// The global nanosecond timer (same clock on every SM of a device; not synchronised across devices).
__device__ __forceinline__ uint64_t global_timer_ns() {
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

}  // namespace seqlink
