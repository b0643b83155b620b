#!/usr/bin/env bash
# Runs ON the GPU host (bundle in .gpu): one GPU test method N times, a line per run, the first corrupt frame
# the verifier described (if any). What found and then cleared the latest-delivery copy bug (gpu-results.md).
#
#   bash scripts/gpu/repeat-test.sh N [method]
#   method default: io.seqlink.gpu.CudaChannelGpuTest#latestDeliveryLapsASlowConsumerButNeverDeliversACorruptFrame(boolean)
set -u
cd "$(dirname "$0")/../.."
n=${1:-8}
method=${2:-'io.seqlink.gpu.CudaChannelGpuTest#latestDeliveryLapsASlowConsumerButNeverDeliversACorruptFrame(boolean)'}
[ -x /tmp/jre/bin/java ] || tar xJf .gpu/jre.tar.xz -C /tmp
log=$(mktemp)
clean=0
for i in $(seq 1 "$n"); do
  timeout 120 /tmp/jre/bin/java -XX:+UseParallelGC -cp ".gpu/lib/*:.gpu/test-classes" org.junit.platform.console.ConsoleLauncher \
    execute --disable-banner --details=tree --select-method "$method" > "$log" 2>&1
  rc=$?
  [ "$rc" = 0 ] && clean=$((clean + 1))
  echo "run $i exit $rc $(grep -a 'tests successful\|tests failed' "$log" | tr -s ' ' | tr '\n' ' ')"
  grep -a 'first corrupt' "$log" | sed 's/\x1b\[[0-9;]*m//g' | grep -o 'armed rounds [a-z]*.*first corrupt: [^/]*' | head -2
done
echo "clean runs: $clean of $n"
rm -f "$log"
