#!/usr/bin/env bash
# Runs ON the GPU host, from the repository root, with .gpu/ (scripts/gpu/build-bundle.sh): the two 5-minute CUDA soaks
# side by side in one device call, on the one GPU (three processes' contexts, time-sliced):
#   host     SoakMain --backend cuda: a host listener on the producer's device (its ring in host memory), stalls and
#            consumer pauses injected, every frame checked (lost, duplicated, corrupt, gaps)
#   xproc    cross-process-run.sh STEPS=soak: TwoProcessSoak, the consumer process killed (kill -9) and re-attached
#            every ${RESTART:-60s}, every generation checked
# $OUT: host-soak.txt (the soak's last lines), host-soak.json, and what cross-process-run.sh writes (summary.txt,
# soak.json, logs.tar.gz). Usage: bash scripts/gpu/soaks-run.sh [duration]   (default 5m)
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?set OUT}"
duration=${1:-5m}
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
[ -x /tmp/jre/bin/java ] || tar xJf .gpu/jre.tar.xz -C /tmp  # once: extracting again under a running JVM breaks it
t0=$(date +%s)
timeout -k 5 400 /tmp/jre/bin/java -XX:+UseParallelGC -Xmx2g -cp ".gpu/lib/*" io.seqlink.soak.SoakMain --backend cuda \
  --duration "$duration" --frames 0 --slots 64 --slot-bytes 16384 --json "$OUT/host-soak.json" > /tmp/host-soak.log 2>&1 &
host_pid=$!
SOAK=$duration STEPS=soak BUDGET=${BUDGET:-560} bash scripts/gpu/cross-process-run.sh > /tmp/xproc-soak.txt 2>&1
echo "xproc soak: exit $? after $(( $(date +%s) - t0 ))s"
wait "$host_pid"
echo "host soak: exit $? after $(( $(date +%s) - t0 ))s"
tail -60 /tmp/host-soak.log > "$OUT/host-soak.txt"
tail -25 /tmp/host-soak.log
tail -30 /tmp/xproc-soak.txt
