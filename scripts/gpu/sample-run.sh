#!/usr/bin/env bash
# Runs ON the GPU host, from the repository root, with .gpu/ (scripts/gpu/build-bundle.sh, which unpacks the sample
# service into .gpu/sample): the sample service on a GPU profile through sample-app/gpu-smoke.sh (verify, then the
# service, FRAMES frames posted over HTTP, every result recomputed on the host, the collector's end-to-end latency).
# $OUT: the smoke's files (verify table, inject/pipeline/seqlink/health JSON, the scrape's seqlink_ and sample_ lines,
# the service log) and summary.txt.
# Usage: bash scripts/gpu/sample-run.sh [PROFILE] [FRAMES]      (default gpu1 5000; EXTRA_ARGS: more service arguments)
set -uo pipefail
cd "$(dirname "$0")/../.."
final=${OUT:?set OUT}
profile=${1:-gpu1}
frames=${2:-5000}
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
[ -f .gpu/sample/classpath.txt ] || { echo "no .gpu/sample: build the bundle with scripts/gpu/build-bundle.sh" | tee "$final/summary.txt"; exit 1; }
[ -x /tmp/jre/bin/java ] || tar xJf .gpu/jre.tar.xz -C /tmp
t0=$(date +%s)
JAVA=/tmp/jre/bin/java CLASSPATH_FILE=.gpu/sample/classpath.txt OUT="$final" timeout -k 5 "${SAMPLE_LIMIT:-240}" \
  bash sample-app/gpu-smoke.sh "$profile" "$frames" > "$final/summary.txt" 2>&1
echo "sample $profile $frames: exit $? after $(( $(date +%s) - t0 ))s" | tee -a "$final/summary.txt"
grep -E "RESULT|backend|device [0-9]|channel " "$final/summary.txt" | cut -c1-300 | head -20
