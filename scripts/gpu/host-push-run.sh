#!/usr/bin/env bash
# Runs ON the GPU host, from the repository root, with .gpu/ (scripts/gpu/build-bundle.sh): who pushes a host
# listener's frames into host memory, A/B/A in one device call on one build:
#   A  the copy engine after the publish kernel (the default: cuMemcpyAsync of the batch's slots, then stream writes of
#      the replica's writer_busy and publish_seq)
#   B  the publish kernel's grid (-Dseqlink.cuda.host-push=kernel)
#   A' the copy engine again (drift shows as A != A')
# each host-path-run.sh quick at $SIZES (default 16K,1M; the C++ comparator in every run, so every ratio is over its
# own run's naive-d2h); then compute-sanitizer memcheck over a short host scenario on the copy-engine path.
# $OUT: junit.log (CudaChannelGpuTest, CudaBackendGpuTest), a-summary.txt, b-summary.txt, a2-summary.txt, sanitizer.log, results.tar.gz (everything raw), run.log
# Usage: bash scripts/gpu/host-push-run.sh [quick|full]     STEPS=a,b,a2,junit,sanitize (default a,b,junit,sanitize)
set -uo pipefail
cd "$(dirname "$0")/../.."
final=${OUT:?set OUT}
profile=${1:-quick}
steps=${STEPS:-a,b,junit,sanitize}
sizes=${SIZES:-16K,1M}
work=/tmp/seqlink-host-push
rm -rf "$work"
mkdir -p "$work"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
want() { [[ ",$steps," == *",$1,"* ]]; }
log="$final/run.log"
: > "$log"
start=$(date +%s)
side() { # name extra-jvm-options
  mkdir -p "$work/$1"
  local t0=$(date +%s)
  HOST_LIMIT=${HOST_LIMIT:-200} HOST_ARGS="--sizes $sizes" JAVA_OPTS_EXTRA="$2" OUT="$work/$1" \
    bash scripts/gpu/host-path-run.sh "$profile" > "$work/$1/stdout.txt" 2>&1
  echo "$1 ($2): exit $? after $(( $(date +%s) - t0 ))s, +$(( $(date +%s) - start ))s" | tee -a "$log"
  cp "$work/$1/summary.txt" "$final/$1-summary.txt" 2>/dev/null
}
want a && side a "-Dseqlink.cuda.host-push=copy-engine"
want b && side b "-Dseqlink.cuda.host-push=kernel"
want a2 && side a2 "-Dseqlink.cuda.host-push=copy-engine"
tar xJf .gpu/jre.tar.xz -C /tmp 2>/dev/null
if want junit; then
  t0=$(date +%s)
  timeout -k 5 "${JUNIT_LIMIT:-150}" /tmp/jre/bin/java -XX:+UseParallelGC -Xms1g -Xmx4g -cp ".gpu/lib/*:.gpu/test-classes" \
    org.junit.platform.console.ConsoleLauncher execute --disable-banner --details=tree --include-tag gpu \
    --select-class io.seqlink.gpu.CudaChannelGpuTest --select-class io.seqlink.gpu.CudaBackendGpuTest > "$final/junit.log" 2>&1
  echo "junit CudaChannelGpuTest + CudaBackendGpuTest (copy-engine host push): exit $? after $(( $(date +%s) - t0 ))s" | tee -a "$log"
  grep -E "tests (successful|failed)" "$final/junit.log" | tee -a "$log"
fi
if want sanitize; then
  s_out=$(mktemp -d)
  t0=$(date +%s)
  timeout -k 5 120 compute-sanitizer --tool memcheck --error-exitcode 3 --print-limit 20 \
    /tmp/jre/bin/java -XX:+UseParallelGC -Xms1g -Xmx4g -cp ".gpu/lib/*" io.seqlink.bench.BenchMain --backend cuda \
    --scenarios host --sizes 64,16384 --frames 100 --warmup 20 --slots 16 --comparator none --out "$s_out" \
    > "$final/sanitizer.log" 2>&1
  echo "sanitize memcheck (copy-engine host push): exit $? after $(( $(date +%s) - t0 ))s" | tee -a "$log"
  grep -h "corrupt\|host-launcher\|host-polled" "$s_out/bench-results.md" 2>/dev/null | head -8 >> "$final/sanitizer.log"
fi
tar czf "$final/results.tar.gz" -C "$work" .
for s in a b a2; do
  [ -f "$final/$s-summary.txt" ] && { echo "== $s"; grep -E "^\| .*(MISS|PASS)|\| (C\+\+|Java) +\| (naive-d2h|zero-copy|host-launcher|host-polled) " "$final/$s-summary.txt" | cut -c1-120 | head -30; }
done
grep -h "ERROR SUMMARY" "$final/sanitizer.log" 2>/dev/null
cat "$log"
