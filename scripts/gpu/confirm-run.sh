#!/usr/bin/env bash
# Runs ON the GPU host, from the repository root, with .gpu/ built by scripts/gpu/build-bundle.sh: a short device
# call that confirms a change's rows on a quiet GPU, then the 5-minute soak beside the GPU suite and compute-sanitizer.
#   1. the Java cycle at 16 KiB and 1 MiB (CycleBenchmark: the channel, host and device listeners, armed rounds)
#   2. the host listener against the hand-written device-to-host copy (host-path-run.sh)
#   3. the soak on the cuda backend with the GPU suite and compute-sanitizer beside it (final-run.sh, step soak)
# Everything lands in $OUT/results.tar.gz; the summaries are copied flat into $OUT.
# Usage: bash scripts/gpu/confirm-run.sh [soak-duration]      (default 5m)
set -uo pipefail
cd "$(dirname "$0")/../.."
final=${OUT:?set OUT}
soak=${1:-5m}
work=/tmp/seqlink-confirm
rm -rf "$work"
mkdir -p "$work/cycle" "$work/host" "$work/final"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
start=$(date +%s)
stamp() { echo "[confirm +$(( $(date +%s) - start ))s] $*"; }

[ -x /tmp/jre/bin/java ] || tar xJf .gpu/jre.tar.xz -C /tmp  # once: extracting again under a running JVM breaks it
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } > "$work/env.txt" 2>&1
stamp "1/3 java cycle"
timeout -k 5 120 /tmp/jre/bin/java -XX:+UseParallelGC -Xms1g -Xmx4g -cp ".gpu/lib/*:.gpu/test-classes" io.seqlink.backend.cuda.CycleBenchmark \
  --sizes 16384,1048576 --warmup 10000 > "$work/cycle/java-cycle.json" 2> "$work/cycle/stderr.txt"
stamp "exit $?"
python3 scripts/gpu/fastpath-summary.py "$work/cycle" > "$work/cycle/summary.txt" 2>&1
stamp "2/3 host path"
OUT="$work/host" HOST_LIMIT=120 bash scripts/gpu/host-path-run.sh full > "$work/host/stdout.txt" 2>&1
stamp "exit $?"
stamp "3/3 soak $soak beside the suite"
OUT="$work/final" STEPS=soak bash scripts/gpu/final-run.sh "$soak" > "$work/final/stdout.txt" 2>&1
stamp "exit $?"

tar czf "$final/results.tar.gz" -C "$work" .
cp "$work/env.txt" "$final/env.txt"
cp "$work/cycle/summary.txt" "$final/cycle-summary.txt" 2>/dev/null
cp "$work/host/summary.txt" "$final/host-summary.txt" 2>/dev/null
cp "$work/final/soak-summary.txt" "$final/soak-summary.txt" 2>/dev/null
cp "$work/final/suite-summary.txt" "$final/suite-summary.txt" 2>/dev/null
tail -40 "$work/final/stdout.txt"
stamp "done; files: $(cd "$final" && ls | tr '\n' ' ')"
