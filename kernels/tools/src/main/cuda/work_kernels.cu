// work_kernels.cu: the benchmarks' device work as user kernels: the frame pattern's fill and checksum
// (io.seqlink.backend.PatternKernels binds them; every module that uses them compiles these two entry points
// over the runtime's shipped seqlink_pattern.cuh, since a shipped header defines no kernels), the checksum of
// a device listener that takes armed rounds, with or without acknowledging in its kernel, and the round kernel of
// one that consumes in its kernel
// (io.seqlink.bench.TakenChecksumListener), the pipeline benchmark's workload (pipeline_kernels.cuh, io.seqlink.bench.PipelineKernels), the launch-path no-ops
// LaunchVariantsBenchmark times, and the zero-copy hand-off's fill into host memory (seqlink-cycle-bench --mode host).
#include <cstdint>

#include "pipeline_kernels.cuh"
#include "seqlink_device.cuh"
#include "seqlink_pattern.cuh"

extern "C" __global__ void pattern_fill(uint64_t dst, uint64_t length, uint64_t seed) {
    seqlink::fill_pattern_grid(dst, length, seed);
}

extern "C" __global__ void __launch_bounds__(256) pattern_checksum(uint64_t src, uint64_t length, uint64_t out,
        uint64_t scratch) {
    seqlink::checksum_grid(src, length, out, scratch);
}

// pattern_checksum of frame `sequence`, only when the consume step before it on the stream took the frame
// (round_frames reads the descriptor in stream order; every block reads the same words, so all return or
// none): an armed round released without its frame checksums nothing.
extern "C" __global__ void __launch_bounds__(256) pattern_checksum_taken(uint64_t descriptor, uint64_t sequence,
        uint64_t src, uint64_t length, uint64_t out, uint64_t scratch) {
    uint64_t from;
    uint64_t to;
    if (!seqlink::device::round_frames(descriptor, sequence, sequence, &from, &to)) {
        return;
    }
    seqlink::checksum_grid(src, length, out, scratch);
}

// pattern_checksum_taken that also acknowledges the round when `acknowledgement` is not 0 (the round's last
// frame: io.seqlink.bench.TakenChecksumListener with in-kernel acks). `scratch` is two Scratch lines: the
// checksum's fold, then the acknowledgement's arrival counter (round_arrivals, tagged with `round`). Every
// block reaches the acknowledgement, also when the round took nothing (it then writes the last
// acknowledgement again: nothing moves).
extern "C" __global__ void __launch_bounds__(256) pattern_checksum_taken_acking(uint64_t descriptor, uint64_t sequence,
        uint64_t src, uint64_t length, uint64_t out, uint64_t scratch, uint64_t acknowledgement, uint64_t round) {
    uint64_t from;
    uint64_t to;
    if (seqlink::device::round_frames(descriptor, sequence, sequence, &from, &to)) {
        seqlink::checksum_grid(src, length, out, scratch);
    }
    if (acknowledgement != 0) {
        seqlink::Scratch* line = reinterpret_cast<seqlink::Scratch*>(scratch) + 1;
        seqlink::device::acknowledge_taken_at_end(descriptor, acknowledgement, &line->round_arrivals, round);
    }
}

// A device listener whose one kernel is the whole round (io.seqlink.bench.TakenChecksumListener's round mode;
// DeviceFrameHandler.consumesInKernel): take_round, the checksum of each frame it took, read in place, into word
// s % 1024 of `out`, then end_round (descriptor, counters, the acknowledgement, the mirror's ROUND). One frame:
// the whole grid folds it through `scratch`, the checksum's own Scratch line; several: each block folds whole
// frames alone (a grid fold per frame would share one line between frames, and a block that ran ahead to the
// next frame would mix its share into the last one's). The round's agreement and arrival use the handle's line.
extern "C" __global__ void __launch_bounds__(256) pattern_checksum_round(const seqlink::ConsumeArgs c, uint64_t first,
        uint64_t last, uint64_t round, uint64_t armed, uint64_t out, uint64_t scratch) {
    const seqlink::device::TakenRound taken = seqlink::device::take_round(c, first, last, round, armed != 0);
    if (taken.end == taken.from) {
        seqlink::checksum_grid(reinterpret_cast<uint64_t>(seqlink::device::payload(c, taken.from)),
                seqlink::device::length(c, taken.from), out + 8 * (taken.from % 1024), scratch);
    } else {
        for (uint64_t s = taken.from + blockIdx.x; s <= taken.end; s += gridDim.x) {
            seqlink::checksum_block(reinterpret_cast<uint64_t>(seqlink::device::payload(c, s)), seqlink::device::length(c, s),
                    out + 8 * (s % 1024));
        }
    }
    seqlink::device::end_round(c, taken);
}

extern "C" __global__ void pipeline_expand(uint64_t src, uint64_t dst, uint32_t count) {
    seqlink::bench::expand(src, dst, count);
}

extern "C" __global__ void pipeline_infer(uint64_t weights, uint64_t x, uint64_t y, uint32_t rows, uint32_t cols) {
    seqlink::bench::infer(weights, x, y, rows, cols);
}

// The zero-copy hand-off's producer: the pattern of frame `seed` written straight into mapped host memory at dst,
// then, by the last block of the grid to finish, one release store of `seed` into the host word at flag, so a host
// that reads the word with acquire ordering finds the whole frame (every block's writes come before its arrival,
// whose acq_rel add the last block's release is cumulative over). A grid of more than one block counts its
// arrivals in the zeroed word at arrivals, and leaves it zeroed.
extern "C" __global__ void __launch_bounds__(256) host_fill_flag(uint64_t dst, uint64_t length, uint64_t seed, uint64_t flag,
        uint64_t arrivals) {
    seqlink::fill_pattern_grid(dst, length, seed);
    if (!seqlink::grid::sole_or_last_block(reinterpret_cast<uint32_t*>(arrivals))) {
        return;
    }
    if (threadIdx.x == 0) {
        seqlink::st_release_sys(reinterpret_cast<uint64_t*>(flag), seed);
    }
}

extern "C" __global__ void bench_noop() {
}

// Five 64-bit parameters, like a typical workload launch; does nothing unless a == b (never, by the caller).
extern "C" __global__ void bench_noop5(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e) {
    if (a == b && a != 0 && threadIdx.x == 0) {
        *reinterpret_cast<uint64_t*>(a) = c + d + e;
    }
}
