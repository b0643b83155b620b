#!/usr/bin/env bash
# One device call for everything that needs the GPU, ordered so the timings see a quiet GPU:
#   1. timing: launch variants, the C++ comparator, the Java cycle     (scripts/gpu/run-on-gpu.sh, timing steps)
#   2. the benchmark harness, standard profile                         (scripts/bench/run-bench-on-gpu.sh)
#   3. the 5-minute soak on the cuda backend (io.seqlink.soak.SoakMain), with the functional GPU suite
#      and compute-sanitizer running beside it (their results are pass/fail, not timings)
# Everything lands in $OUT/results.tar.gz; the summaries are also copied flat into $OUT.
# Usage (on the GPU host, repository root, .gpu carried): bash scripts/gpu/final-run.sh [soak-duration]
#   STEPS=timing,bench,soak (default: all three). A device call may last 600 s; the three with a 5-minute soak
#   can come close, so after scripts/gpu/fastpath-run.sh (which has the timing rows) run STEPS=bench,soak: the
#   harness's pipeline scenario is the synchronisation share, the soak exercises the channel's publish tail.
#   BENCH_ARGS is passed on to the harness (e.g. BENCH_ARGS="--scenarios pipeline,copy" for those two only).
set -uo pipefail
cd "$(dirname "$0")/../.."
final=${OUT:?set OUT}
soak_duration=${1:-5m}
steps=${STEPS:-timing,bench,soak}
want() { case ",$steps," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }
work=/tmp/seqlink-final
rm -rf "$work"
mkdir -p "$work/timing" "$work/bench" "$work/suite" "$work/soak"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
start=$(date +%s)
stamp() { echo "[final-run +$(( $(date +%s) - start ))s] $*"; }

[ -x /tmp/jre/bin/java ] || tar xJf .gpu/jre.tar.xz -C /tmp  # once: extracting again under a running JVM breaks it
if want timing; then
  stamp "1/3 timing"
  OUT="$work/timing" STEPS=env,launch,cpp,java timeout -k 5 200 bash scripts/gpu/run-on-gpu.sh full > "$work/timing/stdout.txt" 2>&1
  stamp "timing exit $?"
fi

if want bench; then
  stamp "2/3 benchmark harness"
  OUT="$work/bench" BENCH_LIMIT=150 BENCH_BUDGET=165 timeout -k 5 175 bash scripts/bench/run-bench-on-gpu.sh standard \
    > "$work/bench/stdout.txt" 2>&1
  stamp "bench exit $?"
fi

if want soak; then
  stamp "3/3 soak ($soak_duration) with the functional suite beside it"
  /tmp/jre/bin/java -XX:+UseParallelGC -Xmx2g -cp ".gpu/lib/*" io.seqlink.soak.SoakMain --backend cuda --duration "$soak_duration" \
    --frames 0 --slots 64 --slot-bytes 16384 --json "$work/soak/soak.json" > "$work/soak/soak.log" 2>&1 &
  soak_pid=$!
  OUT="$work/suite" STEPS=junit,sanitize JUNIT_LIMIT=200 timeout -k 5 240 bash scripts/gpu/run-on-gpu.sh full > "$work/suite/stdout.txt" 2>&1
  stamp "suite exit $?"
  wait "$soak_pid"
  stamp "soak exit $?"
fi

tar czf "$final/results.tar.gz" -C "$work" .
cp "$work/timing/summary.txt" "$final/timing-summary.txt" 2>/dev/null
cp "$work/suite/summary.txt" "$final/suite-summary.txt" 2>/dev/null
cp "$work/bench/bench-results.md" "$final/bench-results.md" 2>/dev/null
tail -60 "$work/soak/soak.log" > "$final/soak-summary.txt" 2>/dev/null
stamp "done"
echo "=== timing";  tail -30 "$work/timing/summary.txt" 2>/dev/null
echo "=== suite";   tail -25 "$work/suite/summary.txt" 2>/dev/null; grep -E "tests (successful|failed)|ERROR SUMMARY" "$work/suite/junit.log" "$work/suite/sanitizer.log" 2>/dev/null | tail -8
echo "=== bench";   grep -E "PASS|MISS|NOT MEASURED" "$work/bench/bench-results.md" 2>/dev/null | head -20
echo "=== soak";    tail -25 "$work/soak/soak.log" 2>/dev/null
