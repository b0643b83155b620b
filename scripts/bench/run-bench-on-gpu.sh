#!/usr/bin/env bash
# Runs the benchmark harness (io.seqlink.bench.BenchMain) ON the GPU host: no Maven, no JDK, no network.
# Run it from the repository root with .gpu/ built on the build machine by scripts/gpu/build-bundle.sh
# (JRE, jars incl. seqlink-tools with io.seqlink.bench and seqlink-kernels, JCuda, the C++ comparator in .gpu/native).
#
# Writes under $OUT (default /tmp/seqlink-bench-out), flat, at most 6 files:
#   env.txt               date, nvidia-smi (GPU, driver, clocks, topology), CPUs, load, Java, git revision
#   bench-results.md      the Markdown report (targets, the article's schemes, Java vs C++, sweeps, sync share)
#   bench-results.json    every figure, plus the comparator's raw JSON documents
#   bench-plot.svg        latency percentiles and throughput against frame size
#   bench.log             the harness's progress, the comparator's stderr, each step's exit status and time
#   parts.md              only if the one-JVM run crashed or hung: the per-scenario reruns, one section each
#
# Usage: bash scripts/bench/run-bench-on-gpu.sh [standard|quick]      (default standard, about 2-3 minutes)
#   standard: 5 s per article scheme, 7 frame sizes 64 B .. 16 MiB, 5000 frames per size
#   quick:    2 s per scheme, 4 sizes, 2000 frames (about 1 minute)
#   BENCH_ARGS="--pipeline-rows 256 ..."  extra harness options, appended (they win over the profile's)
#   BENCH_LIMIT=200                        wall-clock limit in seconds of the one-JVM run
#   BENCH_BUDGET=240                       wall-clock limit in seconds of the whole script, reruns included
#
# Robustness: the harness fences off every scenario and frame size (a failure is reported, the rest runs) and saves its
# three reports after every scenario. If the JVM itself dies (a native crash in the driver) or hangs past BENCH_LIMIT,
# bench-results.* keep what finished, and every scenario that did not is rerun in a JVM of its own while time remains;
# those reports are collected in parts.md.
set -uo pipefail
cd "$(dirname "$0")/../.."
profile=${1:-standard}
OUT=${OUT:-/tmp/seqlink-bench-out}
mkdir -p "$OUT"
bundle=.gpu
log="$OUT/bench.log"
: > "$log"
start=$(date +%s)
# never let anything here touch NVLink multicast (shared hosts); seqlink itself never calls cuMulticastCreate
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1

say() { echo "[run-bench-on-gpu] $*" | tee -a "$log" >&2; }

if [ ! -x /tmp/jre/bin/java ]; then
  if [ ! -f "$bundle/jre.tar.xz" ]; then
    say "no /tmp/jre and no $bundle/jre.tar.xz: run scripts/gpu/build-bundle.sh on the build machine and carry .gpu"
    exit 2
  fi
  tar xJf "$bundle/jre.tar.xz" -C /tmp
fi
JAVA=/tmp/jre/bin/java
CP="$bundle/lib/*"
JOPTS=(-XX:+UseParallelGC -Xms1g -Xmx4g)
comparator="$bundle/native/seqlink-cycle-bench"

case "$profile" in
  quick)
    args=(--duration 2s --sizes 64,16K,1M,16M --frames 2000 --warmup 2000 --pipeline-frames 100) ;;
  standard)
    args=(--duration 5s --sizes 64,1K,16K,256K,1M,4M,16M --frames 5000 --warmup 5000 --pipeline-frames 200) ;;
  *)
    say "unknown profile '$profile': use standard or quick"; exit 2 ;;
esac
common=(--backend cuda --comparator-timeout 90s)
if [ -x "$comparator" ]; then
  common+=(--comparator "$comparator")
else
  say "no executable $comparator in the bundle: the article's schemes and the C++ columns will be reported as failed"
  common+=(--comparator none)
fi
# shellcheck disable=SC2206
extra=(${BENCH_ARGS:-})

{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"
  echo "profile: $profile; harness args: ${common[*]} ${args[*]} ${extra[*]}"
  nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,pstate,persistence_mode,mig.mode.current --format=csv 2>&1 || echo "nvidia-smi failed"
  nvidia-smi topo -m 2>&1 || true
  nvidia-smi -q 2>/dev/null | grep -iE "CUDA Version|Virtualization|Product Name" | sort -u || true
  echo "cpus: $(nproc); load: $(cat /proc/loadavg 2>/dev/null)"
  grep -m1 "model name" /proc/cpuinfo 2>/dev/null || true
  uname -a
  "$JAVA" -version 2>&1
  command -v git >/dev/null 2>&1 && git rev-parse HEAD 2>/dev/null && git status --short 2>/dev/null | head -20
  ls -la "$bundle/lib" "$bundle/native" 2>&1
} > "$OUT/env.txt" 2>&1

# The bundle must hold the harness (seqlink-tools; a stale bundle may lack it: rebuild it).
if ! "$JAVA" -cp "$CP" io.seqlink.bench.BenchMain --help > /dev/null 2>> "$log"; then
  say "the bundle's jars have no io.seqlink.bench.BenchMain: rebuild .gpu with scripts/gpu/build-bundle.sh"
  exit 2
fi

limit=${BENCH_LIMIT:-200}
budget=${BENCH_BUDGET:-240}
say "one-JVM run, limit ${limit}s"
t0=$(date +%s)
timeout -k 10 "$limit" "$JAVA" "${JOPTS[@]}" -cp "$CP" io.seqlink.bench.BenchMain "${common[@]}" "${args[@]}" "${extra[@]}" \
  --out "$OUT" > "$OUT/stdout.tmp" 2>> "$log"
rc=$?
say "one-JVM run: exit $rc after $(( $(date +%s) - t0 ))s (0 clean, 1 a scenario failed or a frame was corrupt, 2 bad options, 124/137 timed out, other: crashed)"
rm -f "$OUT/stdout.tmp"   # the same Markdown is in bench-results.md

if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && [ "$rc" -ne 2 ]; then
  # The JVM died or hung. The harness saves its reports after every scenario, so bench-results.* hold what finished;
  # rerun each scenario that did not, alone, while time remains, so one crash does not cost the rest.
  done_list=""
  if [ -f "$OUT/bench-results.json" ] && command -v python3 >/dev/null 2>&1; then
    done_list=$(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1])).get("scenarios_done", [])))' \
      "$OUT/bench-results.json" 2>/dev/null)
  fi
  say "scenarios finished before the crash: ${done_list:-none}"
  : > "$OUT/parts.md"
  for scenario in copy sweep comparator schemes fanout pipeline; do
    case " $done_list " in *" $scenario "*) continue ;; esac
    left=$(( budget - ($(date +%s) - start) ))
    if [ "$left" -lt 30 ]; then
      say "no time left for scenario $scenario"
      echo "## $scenario: not rerun (out of time)" >> "$OUT/parts.md"
      continue
    fi
    part=$(mktemp -d)
    say "rerun: scenario $scenario alone (limit $(( left < 120 ? left : 120 ))s)"
    timeout -k 5 $(( left < 120 ? left : 120 )) "$JAVA" "${JOPTS[@]}" -cp "$CP" io.seqlink.bench.BenchMain "${common[@]}" "${args[@]}" \
      "${extra[@]}" --scenarios "$scenario" --out "$part" > /dev/null 2>> "$log"
    prc=$?
    say "rerun $scenario: exit $prc"
    {
      echo "# scenario $scenario (own JVM, exit $prc)"
      echo
      if [ -f "$part/bench-results.md" ]; then cat "$part/bench-results.md"; else echo "(no report: the JVM died or hung again; see bench.log)"; fi
      echo
    } >> "$OUT/parts.md"
    # keep the plot and JSON of the sweep when the whole run left none
    if [ "$scenario" = sweep ] && [ ! -f "$OUT/bench-plot.svg" ] && [ -f "$part/bench-plot.svg" ]; then
      cp "$part/bench-plot.svg" "$OUT/bench-plot.svg"
      cp "$part/bench-results.json" "$OUT/bench-results.json"
    fi
    rm -rf "$part"
  done
fi

say "done after $(( $(date +%s) - start ))s; files: $(cd "$OUT" && ls | tr '\n' ' ')"
# last, for whoever reads only the tail: the report (or the parts)
if [ -f "$OUT/bench-results.md" ]; then cat "$OUT/bench-results.md"; fi
if [ -f "$OUT/parts.md" ]; then cat "$OUT/parts.md"; fi
echo
grep -E "FAILED|Exception|error" "$log" | tail -15
exit "$rc"
