#!/usr/bin/env bash
# Runs ON the GPU host, from the repository root, with .gpu/ (scripts/gpu/build-bundle.sh): channels between
# processes on the CUDA backend, checked and timed in one device call.
#   1. the GPU suite with CudaTwoProcessChannelGpuTest (the two-JVM channel tests, both processes on CUDA) and the
#      contract tests (run-on-gpu.sh STEPS=env,junit)
#   2. CrossProcessLatencyBench --backend cuda: frame publish -> host listener call, a consumer in the producer's
#      process against one in another process, 64 B, 16 KiB and 1 MiB (limit 150 s)
# $OUT: env.txt, junit.log, run.log, summary.txt (step 1), latency.json, latency.txt (step 2), child-jvms.tar.gz (the
# child JVMs' logs). FRAMES (20000) and GAP_US (200) set the bench.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?set OUT}"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
tar xJf .gpu/jre.tar.xz -C /tmp
JAVA=/tmp/jre/bin/java
CP=".gpu/lib/*:.gpu/test-classes"
STEPS=env,junit JUNIT_LIMIT=${JUNIT_LIMIT:-330} bash scripts/gpu/run-on-gpu.sh quick > /dev/null 2>&1
echo "suite exit $?"
timeout -k 5 150 "$JAVA" -XX:+UseParallelGC -Xms1g -Xmx4g -cp "$CP" io.seqlink.shared.CrossProcessLatencyBench --backend cuda \
  --frames "${FRAMES:-20000}" --gap-us "${GAP_US:-200}" --sizes 64,16384,1048576 --json "$OUT/latency.json" \
  > "$OUT/latency.txt" 2>&1
echo "latency exit $?"
[ -d target/child-jvms ] && tar czf "$OUT/child-jvms.tar.gz" target/child-jvms
grep -h "tests successful\|tests failed" "$OUT/junit.log" | sort | uniq -c
grep -E "✘" "$OUT/junit.log" | head -12
grep -A7 "CudaTwoProcessChannelGpuTest" "$OUT/junit.log" | head -8
grep -v "INFO\|DEBUG\|WARN" "$OUT/latency.txt" | tail -10
