#!/usr/bin/env bash
# Runs ON the GPU host, from the repository root, with .gpu/ (scripts/gpu/build-bundle.sh): the host listener path
# checked and timed in one device call:
#   1. rows   host-path-run.sh (quick by default) at $SIZES (default 64,16K,1M,16M): the host listener through the
#             launcher and polled against the C++ and Java hand-written device-to-host copy of the same run
#   2. junit  CudaChannelGpuTest and CudaBackendGpuTest (every transport, 10^6 frames through a host listener)
#   3. memcheck  compute-sanitizer memcheck and racecheck over a short host scenario (BenchMain --scenarios host)
# $OUT: summary.txt (the rows' targets and table), junit.log, sanitizer.log, results.tar.gz (the rows' raw files), run.log
# Usage: bash scripts/gpu/host-path-check.sh [quick|full]     STEPS=rows,junit,sanitize (default all)
set -uo pipefail
cd "$(dirname "$0")/../.."
final=${OUT:?set OUT}
profile=${1:-quick}
steps=${STEPS:-rows,junit,sanitize}
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
want() { [[ ",$steps," == *",$1,"* ]]; }
log="$final/run.log"
: > "$log"
[ -x /tmp/jre/bin/java ] || tar xJf .gpu/jre.tar.xz -C /tmp  # once: extracting again under a running JVM breaks it
JAVA=/tmp/jre/bin/java
JOPTS=(-XX:+UseParallelGC -Xms1g -Xmx4g)
if want rows; then
  rows=/tmp/seqlink-host-rows
  rm -rf "$rows"
  mkdir -p "$rows"
  t0=$(date +%s)
  HOST_LIMIT=${HOST_LIMIT:-300} HOST_ARGS="--sizes ${SIZES:-64,16K,1M,16M}" OUT="$rows" \
    bash scripts/gpu/host-path-run.sh "$profile" > "$rows/stdout.txt" 2>&1
  echo "rows: exit $? after $(( $(date +%s) - t0 ))s" | tee -a "$log"
  cp "$rows/summary.txt" "$final/summary.txt" 2>/dev/null
  tar czf "$final/results.tar.gz" -C "$rows" .
fi
if want junit; then
  t0=$(date +%s)
  timeout -k 5 "${JUNIT_LIMIT:-150}" "$JAVA" "${JOPTS[@]}" -cp ".gpu/lib/*:.gpu/test-classes" \
    org.junit.platform.console.ConsoleLauncher execute --disable-banner --details=tree --include-tag gpu \
    --select-class io.seqlink.gpu.CudaChannelGpuTest --select-class io.seqlink.gpu.CudaBackendGpuTest \
    --select-class io.seqlink.channel.shared.CudaSharedRingPlaceGpuTest > "$final/junit.log" 2>&1
  echo "junit CudaChannelGpuTest + CudaBackendGpuTest + CudaSharedRingPlaceGpuTest: exit $? after $(( $(date +%s) - t0 ))s" | tee -a "$log"
  grep -E "tests (successful|failed)" "$final/junit.log" | tee -a "$log"
  grep -E "✘" "$final/junit.log" | cut -c1-400 | head -5 | tee -a "$log"
fi
if want sanitize; then
  : > "$final/sanitizer.log"
  for tool in ${SANITIZERS:-memcheck racecheck}; do
    s_out=$(mktemp -d)
    t0=$(date +%s)
    echo "==== compute-sanitizer --tool $tool: BenchMain --scenarios host" >> "$final/sanitizer.log"
    timeout -k 5 120 compute-sanitizer --tool "$tool" --error-exitcode 3 --print-limit 20 \
      "$JAVA" "${JOPTS[@]}" -cp ".gpu/lib/*" io.seqlink.bench.BenchMain --backend cuda \
      --scenarios host --sizes 64,16384 --frames 100 --warmup 20 --slots 16 --comparator none --out "$s_out" \
      >> "$final/sanitizer.log" 2>&1
    echo "sanitize $tool: exit $? after $(( $(date +%s) - t0 ))s" | tee -a "$log"
    grep -h "| Java | host-" "$s_out/bench-results.md" 2>/dev/null | head -8 >> "$final/sanitizer.log"
    rm -rf "$s_out"
  done
  grep -h "ERROR SUMMARY" "$final/sanitizer.log" | tee -a "$log"
fi
[ -f "$final/summary.txt" ] && grep -E "^\| .*(MISS|PASS)|\| (C\+\+|Java) +\| (naive-d2h|zero-copy|host-launcher|host-polled) " \
  "$final/summary.txt" | cut -c1-130 | head -60
cat "$log"
