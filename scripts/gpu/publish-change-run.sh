#!/usr/bin/env bash
# Runs ON the GPU host, from the repository root, with .gpu/ (scripts/gpu/build-bundle.sh) and an earlier revision's
# jars in .gpu/$BEFORE (scripts/gpu/build-before.sh; default before): a change to the publish step checked and timed
# against that revision in one device call:
#   1. publish  memop-publish-run.sh RUNS=2 BUILDS="this $BEFORE": the comparator's publish rows beside Java's
#               round-kernel rows of both builds, alternated (limit 250 s)                         -> $OUT/publish/
#   2. suite    the whole GPU suite (cross-process-run.sh STEPS=suite), with device-ring-soaks-run.sh $SOAK (3m) beside
#               it: two soaks whose frames all go through the publish step            -> $OUT/xproc/, $OUT/soaks/
#   3. device   cross-process-run.sh STEPS=device at 64 B, 16 KiB and 1 MiB, DEVICE_FRAMES (500), once the soaks ended,
#               with what is left of BUDGET (560 s)                                                 -> $OUT/device/
# $OUT/summary.txt: each part's exit status and seconds. Usage: OUT=... [BEFORE=before-x] bash scripts/gpu/publish-change-run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?set OUT}"
mkdir -p "$OUT"
budget=${BUDGET:-560}
start=$(date +%s)
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
[ -x /tmp/jre/bin/java ] || tar xJf .gpu/jre.tar.xz -C /tmp  # once, before any part starts a JVM
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$OUT/env.txt" 2>&1
date -u >> "$OUT/env.txt"
note() { echo "$1 after $(( $(date +%s) - start ))s" | tee -a "$OUT/summary.txt"; }

OUT="$OUT/publish" RUNS=2 BUILDS="this ${BEFORE:-before}" timeout -k 5 250 bash scripts/gpu/memop-publish-run.sh \
  > "$OUT/publish.txt" 2>&1
note "publish: exit $?"

OUT="$OUT/soaks" bash scripts/gpu/device-ring-soaks-run.sh "${SOAK:-3m}" > "$OUT/soaks.txt" 2>&1 &
soaks=$!
OUT="$OUT/xproc" STEPS=suite JUNIT_LIMIT=200 BUDGET=290 timeout -k 5 300 bash scripts/gpu/cross-process-run.sh \
  > "$OUT/suite.txt" 2>&1
note "suite: exit $?"
wait "$soaks"
note "soaks: exit $?"

left=$(( budget - ($(date +%s) - start) - 10 ))
if [ "$left" -gt 40 ]; then
  OUT="$OUT/device" STEPS=device DEVICE_FRAMES="${DEVICE_FRAMES:-500}" DEVICE_SIZES=64,16384,1048576 \
    DEVICE_LIMIT=$(( left * 55 / 100 )) DEVICE_BASELINE_LIMIT=$(( left * 35 / 100 )) BUDGET="$left" \
    timeout -k 5 "$left" bash scripts/gpu/cross-process-run.sh > "$OUT/device.txt" 2>&1
  note "device: exit $?"
else
  note "device: SKIPPED (budget spent)"
fi
cat "$OUT/summary.txt"
tail -30 "$OUT/publish.txt"
tail -12 "$OUT/suite.txt"
tail -14 "$OUT/soaks.txt"
tail -20 "$OUT/device.txt" 2>/dev/null
