#!/usr/bin/env bash
# Compiles kernels/src/main/cuda/*.cu into one fat binary, packaged as a classpath resource, and the
# CUDA C++ comparator used by the benchmarks. Called by Maven in generate-resources.
# Without nvcc it writes nothing but a notice: the build succeeds and the CUDA backend reports at
# startup that its kernels are missing.
# Usage: build-kernels.sh <source-dir> <resource-out-dir> <native-out-dir>
set -euo pipefail
src=${1:?source dir}; res=${2:?resource out dir}; native=${3:?native out dir}

nvcc=${NVCC:-}
if [ -z "$nvcc" ]; then
  if command -v nvcc >/dev/null 2>&1; then nvcc=$(command -v nvcc)
  elif [ -x /usr/local/cuda/bin/nvcc ]; then nvcc=/usr/local/cuda/bin/nvcc
  fi
fi
mkdir -p "$res" "$native"
if [ ! -f "$src/seqlink_kernels.cu" ]; then
  echo "[seqlink] no $src/seqlink_kernels.cu: nothing to compile."
  exit 0
fi
if [ -z "$nvcc" ]; then
  echo "[seqlink] nvcc not found (set NVCC or put it on PATH): CUDA kernels NOT built; the cuda backend will report them missing."
  exit 0
fi

# SASS for Ampere (sm_80: A100) and Hopper (sm_90: H100/H200), PTX for compute_90 so that newer
# GPUs (Blackwell and later) JIT-compile it at module load. docs/architecture.md explains the choice.
gencode=(-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90)
out="$res/io/seqlink/kernels"
mkdir -p "$out"
stamp="$out/seqlink.fatbin"
newest=$(find "$src" -type f \( -name '*.cu' -o -name '*.cuh' \) -newer "$stamp" 2>/dev/null | head -1 || true)
if [ -f "$stamp" ] && [ -z "$newest" ]; then
  echo "[seqlink] kernels up to date: $stamp"
else
  echo "[seqlink] $($nvcc --version | tail -1)"
  "$nvcc" -fatbin -std=c++17 -O3 "${gencode[@]}" -I"$src" -o "$stamp" "$src/seqlink_kernels.cu"
  echo "[seqlink] built $stamp ($(wc -c <"$stamp") bytes)"
fi
# The C++ comparator: the same publish/consume cycle written by hand against the CUDA runtime (driver
# entry points are fetched at run time, so no libcuda is needed to link). Documented at its top.
if [ -f "$src/bench/cycle_bench.cu" ]; then
  bin="$native/seqlink-cycle-bench"
  newest=$(find "$src" -type f \( -name '*.cu' -o -name '*.cuh' \) -newer "$bin" 2>/dev/null | head -1 || true)
  if [ ! -f "$bin" ] || [ -n "$newest" ]; then
    "$nvcc" -std=c++17 -O3 "${gencode[@]}" -I"$src" -o "$bin" "$src/bench/cycle_bench.cu"
    echo "[seqlink] built $bin"
  fi
fi
# The host check: prints layouts, argument structs and pattern checksums from the compiled headers, for
# the contract tests (runs without a GPU).
if [ -f "$src/test/host_check.cu" ]; then
  bin="$native/seqlink-host-check"
  newest=$(find "$src" -type f \( -name '*.cu' -o -name '*.cuh' \) -newer "$bin" 2>/dev/null | head -1 || true)
  if [ ! -f "$bin" ] || [ -n "$newest" ]; then
    "$nvcc" -std=c++17 -O2 -o "$bin" "$src/test/host_check.cu"
    echo "[seqlink] built $bin"
  fi
fi
