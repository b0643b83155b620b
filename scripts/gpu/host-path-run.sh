#!/usr/bin/env bash
# Runs ON the GPU host (no Maven, no JDK, no network), from the repository root, with .gpu/ built by
# scripts/gpu/build-bundle.sh: the host listener against the hand-written device-to-host copy, in one call, the rows
# of the harness's host scenario and nothing else (io.seqlink.bench.BenchMain --scenarios host):
#   C++ (seqlink-cycle-bench --mode host, run by the harness first, on a quiet GPU): naive-d2h (fill + cudaMemcpyAsync
#       D2H into pinned memory + cudaStreamSynchronize), d2h-flag (the copy + cuStreamWriteValue64 of a host word the
#       host spins on), zero-copy (the fill kernel writes into mapped host memory and release-stores the word), and
#       the pipelined naive-d2h-pipelined and zero-copy-pipelined;
#   Java: naive-d2h and naive-d2h-pipelined through the backend SPI; the channel's host listener through the launcher
#       (host-launcher: a started runtime, a subscribed FrameHandler, as a Spring service gets frames) and polled
#       (host-polled), armed rounds on (the default) and off (-unarmed), one frame in flight and pipelined;
# at 64 B, 16 KiB, 1 MiB and 16 MiB, with the targets judged on this run's own figures.
#
# Writes under $OUT (default /tmp/seqlink-host-path), flat, at most 6 files:
#   env.txt             date, nvidia-smi (GPU, driver, clocks), CPUs, load, Java, git revision, the command
#   bench-results.md    the harness's report: the targets, then the host rows with their ratios to naive-d2h
#   bench-results.json  every figure, and the comparator's whole JSON document (comparator_runs)
#   bench-plot.svg      only where the JVM can draw text (a font); the reports do not need it
#   bench.log           the harness's progress (a line per row), the comparator's stderr, exit status and time
#   summary.txt         the targets of the host rows and the host section of the report (also printed last)
#
# Usage: bash scripts/gpu/host-path-run.sh [full|quick]       (default full; sized for a few minutes at most on an H200)
#   full:  20000 timed frames per latency row (2000 above 64 KiB, 256 at 16 MiB), 10000 untimed first (the JIT);
#          pipelined rows move 4x as many
#   quick: 2000 timed frames, 2000 untimed (about half a minute)
#   HOST_ARGS="--sizes 16K,1M"   extra harness options, appended (they win over the profile's)
#   BUNDLE=/tmp/other-bundle     run another bundle (jre.tar.xz, lib/, native/) than .gpu
#   HOST_LIMIT=420               wall-clock limit in seconds of the harness's JVM (its reports are saved after each
#                                frame size, so a run cut short keeps the sizes it finished)
set -uo pipefail
cd "$(dirname "$0")/../.."
profile=${1:-full}
OUT=${OUT:-/tmp/seqlink-host-path}
mkdir -p "$OUT"
bundle=${BUNDLE:-.gpu}
log="$OUT/bench.log"
: > "$log"
start=$(date +%s)
# never let anything here touch NVLink multicast (shared hosts); seqlink itself never calls cuMulticastCreate
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1

say() { echo "[host-path-run] $*" | tee -a "$log" >&2; }

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
  full)  args=(--frames 20000 --warmup 10000) ;;
  quick) args=(--frames 2000 --warmup 2000) ;;
  *) say "unknown profile '$profile': use full or quick"; exit 2 ;;
esac
# 4 GiB per latency row caps the 16 MiB rows at 256 timed frames (1,024 pipelined); smaller sizes keep their counts
args+=(--sizes 64,16K,1M,16M --bytes-per-size 4G)
common=(--backend cuda --scenarios host --comparator-timeout 240s)
if [ -x "$comparator" ]; then
  common+=(--comparator "$comparator")
else
  say "no executable $comparator in the bundle: the C++ rows will be reported as failed and the ratios taken over the Java rows"
fi
# shellcheck disable=SC2206
extra=(${HOST_ARGS:-})
command=("$JAVA" "${JOPTS[@]}" -cp "$CP" io.seqlink.bench.BenchMain "${common[@]}" "${args[@]}" "${extra[@]}" --out "$OUT")

{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"
  echo "profile: $profile"
  echo "command: ${command[*]}"
  nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.sm,clocks.max.sm,pstate,persistence_mode,mig.mode.current --format=csv 2>&1 || echo "nvidia-smi failed"
  nvidia-smi topo -m 2>&1 || true
  echo "cpus: $(nproc); load: $(cat /proc/loadavg 2>/dev/null)"
  grep -m1 "model name" /proc/cpuinfo 2>/dev/null || true
  uname -a
  "$JAVA" -version 2>&1
  command -v git >/dev/null 2>&1 && git rev-parse HEAD 2>/dev/null && git status --short 2>/dev/null | head -20
  ls -la "$bundle/lib" "$bundle/native" 2>&1
} > "$OUT/env.txt" 2>&1

limit=${HOST_LIMIT:-420}
say "harness, scenario host, limit ${limit}s"
t0=$(date +%s)
timeout -k 10 "$limit" "${command[@]}" > /dev/null 2>> "$log"
rc=$?
say "harness: exit $rc after $(( $(date +%s) - t0 ))s (0 clean, 1 a row failed or a frame was corrupt, 2 bad options, 124/137 timed out, other: crashed)"

# the summary: the host targets and the host section of the report
if [ -f "$OUT/bench-results.md" ]; then
  {
    echo "seqlink host path: $(date -u +%Y-%m-%dT%H:%M:%SZ), profile $profile, harness exit $rc"
    echo
    echo "## Targets (host listener)"
    echo
    awk '/^## Targets/ {t=1; next} /^## / {t=0} t && (/^\| target/ || /^\| -/ || /host listener|naive-d2h|heap bytes per frame|armed rounds/)' \
      "$OUT/bench-results.md"
    echo
    awk '/^## Host listeners/ {h=1} /^## / && !/^## Host listeners/ {h=0} h' "$OUT/bench-results.md"
    awk '/^## (Failures|Notes)/ {n=1} n' "$OUT/bench-results.md"
  } > "$OUT/summary.txt"
else
  echo "seqlink host path: no report (harness exit $rc); see bench.log" > "$OUT/summary.txt"
fi
say "done after $(( $(date +%s) - start ))s; files: $(cd "$OUT" && ls | tr '\n' ' ')"
grep -E "FAILED|Exception" "$log" | tail -15
cat "$OUT/summary.txt"
exit "$rc"
