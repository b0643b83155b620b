#!/usr/bin/env bash
# Runs ON the GPU host, from the repository root, with .gpu/ (scripts/gpu/build-bundle.sh): the checks of channels
# between processes, the host path, tracing and the sample service in one device call, each step in a folder of $OUT
# and under a limit cut to what is left of BUDGET (540 s from the start). Steps (STEPS, comma separated, run in that
# order; default xproc,host,tracing,sample):
#   xproc    cross-process-run.sh STEPS=XPROC_STEPS (suite,latency,baseline,sanitize) in XPROC_LIMIT s (230; the suite
#            alone takes 100-300 s): the two-JVM GPU suite, the channel's cross-process rows beside the hand-written
#            hand-off's, memcheck over both JVMs                                           -> $OUT/xproc/
#   host     host-path-check.sh HOST_PROFILE (quick) STEPS=HOST_STEPS (junit,rows,sanitize) at SIZES (16K,1M), SANITIZERS (memcheck): CudaChannelGpuTest +
#            CudaBackendGpuTest, the host listener rows against the hand-written copy, memcheck -> $OUT/host/
#   publish  memop-publish-run.sh RUNS=PUBLISH_RUNS (2) BUILDS=PUBLISH_BUILDS (this): the comparator's cheaper-publish rows
#            beside steps-fused and floor, alternated with Java's round-kernel rows of each build named -> $OUT/publish/
#   tracing  tracing-cost-run.sh cuda TRACING_FRAMES (200000): a channel with tracing off, on unsampled, at 1 % and
#            100 %                                                                            -> $OUT/tracing/
#   ab       host-ab-run.sh AB_PROFILE (full): the host listener rows at 16 KiB and 1 MiB of this tree against an earlier
#            build's seqlink jars in .gpu/before-host/, A/B/A (the C++ comparator in the first A) -> $OUT/ab/
#   soaks    soaks-run.sh SOAK (5m): the host-ring soak and the two-process soak side by side, and beside them the
#            host step's junit and memcheck (pass/fail checks, not timings)                 -> $OUT/soaks/
#   sample   sample-run.sh gpu1 5000: the sample service on one GPU, every result recomputed (a bundle built with
#            SAMPLE=1; .gpu and the tree then exceed a call's 64 MiB: carry .gpu's parts, not .gpu/native) -> $OUT/sample/
# Usage: OUT=... bash scripts/gpu/checks-run.sh     $OUT: summary.txt (each step's exit status, seconds and the tail of its
# output) and <step>.tar.gz (the step's folder, its stdout.txt included)
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?set OUT}"
steps=${STEPS:-xproc,host,tracing,sample}
host_check() { # the host step's checks, $1: its STEPS
  env STEPS="$1" SANITIZERS="${SANITIZERS:-memcheck}" JUNIT_LIMIT=${JUNIT_LIMIT:-90} SIZES=${SIZES:-16K,1M} HOST_LIMIT=${HOST_LIMIT:-70} \
    bash scripts/gpu/host-path-check.sh "${HOST_PROFILE:-quick}"
}
soaks_with_checks() { # the two soaks, and the host step's junit and memcheck beside them
  bash scripts/gpu/soaks-run.sh "${SOAK:-5m}" &
  local soaks=$!
  mkdir -p "$OUT/checks"
  OUT="$OUT/checks" host_check junit,sanitize > "$OUT/checks/stdout.txt" 2>&1
  echo "checks beside the soaks: exit $?"
  wait "$soaks"
}
export -f host_check soaks_with_checks  # the steps run them under timeout, in a shell of their own
budget=${BUDGET:-540}
start=$(date +%s)
summary="$OUT/summary.txt"
: > "$summary"
left() { echo $(( budget - ($(date +%s) - start) - 10 )); }
step() { # name limit command...: the command under timeout, its limit no more than what is left
  local name=$1 limit=$2
  shift 2
  local l
  l=$(left)
  if [ "$l" -lt 30 ]; then
    echo "$name: SKIPPED (budget spent)" | tee -a "$summary"
    return 0
  fi
  [ "$limit" -gt "$l" ] && limit=$l
  mkdir -p "$OUT/$name"
  local t0=$(date +%s)
  OUT="$OUT/$name" timeout -k 5 "$limit" "$@" > "$OUT/$name/stdout.txt" 2>&1
  local rc=$?
  echo "$name: exit $rc after $(( $(date +%s) - t0 ))s (limit ${limit}s)" | tee -a "$summary"
  tail -n 30 "$OUT/$name/stdout.txt" | cut -c1-220 | tee -a "$summary"
  # one file per step comes back (a device call returns few files)
  tar czf "$OUT/$name.tar.gz" -C "$OUT" "$name" && rm -rf "${OUT:?}/$name"
}
[ -x /tmp/jre/bin/java ] || tar xJf .gpu/jre.tar.xz -C /tmp  # once: extracting again under a running JVM breaks it
IFS=, read -r -a order <<< "$steps"
for name in "${order[@]}"; do
  case "$name" in
    xproc) step xproc "${XPROC_LIMIT:-230}" env STEPS="${XPROC_STEPS:-suite,latency,baseline,sanitize}" \
      BUDGET=$(( ${XPROC_LIMIT:-230} - 10 )) bash scripts/gpu/cross-process-run.sh ;;
    host) step host "${HOST_STEP_LIMIT:-180}" bash -c 'host_check "$0"' "${HOST_STEPS:-junit,rows,sanitize}" ;;
    ab) step ab 200 bash scripts/gpu/host-ab-run.sh "${AB_PROFILE:-full}" ;;
    publish) step publish 240 env RUNS="${PUBLISH_RUNS:-2}" BUILDS="${PUBLISH_BUILDS:-this}" bash scripts/gpu/memop-publish-run.sh ;;
    soaks) step soaks 420 bash -c soaks_with_checks ;;
    tracing) step tracing 120 bash scripts/gpu/tracing-cost-run.sh cuda "${TRACING_FRAMES:-200000}" ;;
    sample) step sample 150 env SAMPLE_LIMIT=110 bash scripts/gpu/sample-run.sh gpu1 5000 ;;
    *) echo "$name: unknown step (xproc, host, ab, publish, soaks, tracing, sample)" | tee -a "$summary" ;;
  esac
done
echo "total $(( $(date +%s) - start ))s" | tee -a "$summary"
