#!/usr/bin/env bash
# Runs ON the GPU host (no Maven, no JDK, no network), from the repository root, with the bundle built by
# scripts/gpu/build-bundle.sh (in $BUNDLE, default .gpu): what tracing costs per frame on a channel of the CUDA
# backend (producer device 0, a host listener on device 1, or 0 on a one-GPU host), tracing off, on but unsampled,
# on at 1% and at 100% (TracingCost: docs/operations.md, "Tracing").
#
#   $OUT/tracing-cost.log   the table (ns/frame, frames/s, producer and listener B/frame, spans, frames with a context)
#   $OUT/tracing-cost.json  the same rows
#
# Class path (what build-bundle.sh puts in .gpu/tracing and .gpu/lib): the TracingCost classes (autoconfigure's
# test tree), seqlink-spring-boot-autoconfigure (only io.seqlink.spring.observation is loaded: no Spring class),
# seqlink-kernels (with the fat binary), agrona, jspecify, slf4j-api, jcuda + its driver natives, and
# micrometer-commons, micrometer-observation, micrometer-tracing, micrometer-tracing-bridge-brave,
# context-propagation, brave, brave-propagation-tracecontext.
#
# Usage: bash scripts/gpu/tracing-cost-run.sh [cuda|emulated] [frames]   (defaults: cuda, 1000000)
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:?set OUT}
bundle=${BUNDLE:-.gpu}
backend=${1:-cuda}
frames=${2:-1000000}
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
[ -x /tmp/jre/bin/java ] || tar xJf "$bundle/jre.tar.xz" -C /tmp
cp="$bundle/tracing/classes"
for jar in "$bundle"/tracing/*.jar "$bundle"/lib/*.jar; do
  cp="$cp:$jar"
done
timeout -k 5 900 /tmp/jre/bin/java -cp "$cp" io.seqlink.autoconfigure.observation.TracingCost --backend "$backend" \
  --frames "$frames" --warmup $((frames / 10)) --json "$OUT/tracing-cost.json" 2>&1 | tee "$OUT/tracing-cost.log"
