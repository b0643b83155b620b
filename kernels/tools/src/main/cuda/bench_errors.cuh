// bench_errors.cuh: how seqlink's native benchmarks stop on an error: one line naming the program, exit status 2.
#pragma once

#include <cuda_runtime.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace harness {

// The name the message starts with; a program other than seqlink-cycle-bench sets it first thing in main.
inline const char* program_name = "seqlink-cycle-bench";

[[noreturn]] inline void die(const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::fprintf(stderr, "%s: ", program_name);
    std::vfprintf(stderr, fmt, ap);
    std::fprintf(stderr, "\n");
    va_end(ap);
    std::exit(2);
}

}  // namespace harness

#define RT(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) ::harness::die("%s failed: %s (%s:%d)", #call, cudaGetErrorName(e_), __FILE__, __LINE__); \
    } while (0)
