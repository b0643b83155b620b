#!/usr/bin/env bash
# Runs ON the GPU host, from the repository root, with .gpu/ (scripts/gpu/build-bundle.sh): two CUDA soaks side by side
# on the one GPU with the ring in device memory (no consumer named as a host listener), so every frame goes through
# the publish step (a batch of stream writes for a few frames, the kernel for more) and the consumer's stream stages it
# for a host listener:
#   lossless  SoakMain --ring device --delivery lossless: stalls and consumer pauses injected, every frame checked
#   latest    SoakMain --ring device --delivery latest --max-rate 50000: the lapping check (writer_busy) under the same
#             chaos, every delivered frame checked, missed = gaps
# $OUT: lossless.txt, latest.txt (each soak's last lines), lossless.json, latest.json.
# Usage: OUT=... bash scripts/gpu/device-ring-soaks-run.sh [duration]   (default 5m)
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?set OUT}"
duration=${1:-5m}
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
mkdir -p "$OUT"
[ -x /tmp/jre/bin/java ] || tar xJf .gpu/jre.tar.xz -C /tmp
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/env.txt" 2>&1
soak() { # name, then SoakMain's options
  local name=$1
  shift
  timeout -k 5 420 /tmp/jre/bin/java -XX:+UseParallelGC -Xmx2g -cp ".gpu/lib/*" io.seqlink.soak.SoakMain --backend cuda \
    --duration "$duration" --frames 0 --slots 64 --slot-bytes 16384 --ring device --json "$OUT/$name.json" "$@" \
    > "/tmp/soak-$name.log" 2>&1
  local rc=$?
  tail -40 "/tmp/soak-$name.log" > "$OUT/$name.txt"
  echo "$name soak: exit $rc"
}
t0=$(date +%s)
soak lossless --delivery lossless &
lossless=$!
soak latest --delivery latest --max-rate 50000 &
latest=$!
wait "$lossless" "$latest"
echo "both after $(( $(date +%s) - t0 ))s"
for name in lossless latest; do
  echo "== $name"
  grep -E "seqlink runtime|seqlink soak|published|consumer [0-9]|memory|PASSED|FAILED" "$OUT/$name.txt" | cut -c1-260
done
