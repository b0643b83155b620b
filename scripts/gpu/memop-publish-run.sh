#!/usr/bin/env bash
# Runs ON the GPU host, from the repository root, with .gpu/ (scripts/gpu/build-bundle.sh): the publish made of stream
# writes against the publish kernel, for a device listener with the channel's own steps. Alternates, RUNS times, the
# C++ comparator's latency rows (naive-2s, steps-fused = the round kernel's twin, the prototype rows
# steps-fused-memops, steps-fused-batch, steps-fused-no-staging, steps-fused-graph-publish and memop-floor, floor) with Java's round-kernel rows (CycleBenchmark
# cycle-device-armed: the armed ack step, the in-kernel ack, the round kernel, and their pipelined forms).
# BUILDS names the Java builds to time, in order, each run: this (.gpu) or a folder of .gpu holding an earlier revision's
# lib/ and test-classes/ (scripts/gpu/earlier-bundle.sh), so a change is read against the spread between runs.
# Usage: OUT=... [RUNS=2] [SIZES=16384,1048576] [BUILDS="this before-graph"] bash scripts/gpu/memop-publish-run.sh
#   $OUT/cpp-<i>.json, $OUT/java-<i>-<k>-<build>.json (run i, k-th build named), $OUT/env.txt, $OUT/run.log
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?set OUT}"
mkdir -p "$OUT"
runs=${RUNS:-2}
sizes=${SIZES:-16384,1048576}
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
[ -x /tmp/jre/bin/java ] || tar xJf .gpu/jre.tar.xz -C /tmp
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/env.txt" 2>&1
log="$OUT/run.log"
for i in $(seq 1 "$runs"); do
  t0=$(date +%s)
  timeout -k 5 120 .gpu/native/seqlink-cycle-bench --mode latency --sizes "$sizes" > "$OUT/cpp-$i.json" 2>> "$log"
  echo "cpp run $i: exit $? after $(( $(date +%s) - t0 ))s" | tee -a "$log"
  k=0
  for build in ${BUILDS:-this}; do
    k=$((k + 1))
    bundle=.gpu
    if [ "$build" != this ]; then
      bundle=/tmp/seqlink-ab-$build
      [ -d "$bundle" ] || bash scripts/gpu/earlier-bundle.sh ".gpu/$build" "$bundle" >> "$log" 2>&1 || { echo "no bundle $build" | tee -a "$log"; continue; }
    fi
    t0=$(date +%s)
    timeout -k 5 120 /tmp/jre/bin/java -XX:+UseParallelGC -Xms1g -Xmx4g -cp "$bundle/lib/*:$bundle/test-classes" \
      io.seqlink.backend.cuda.CycleBenchmark --mode cycle-device-armed --sizes "$sizes" --warmup 10000 \
      > "$OUT/java-$i-$k-$build.json" 2>> "$log"
    echo "java run $i ($build): exit $? after $(( $(date +%s) - t0 ))s" | tee -a "$log"
  done
done
python3 - "$OUT" <<'EOF'
import glob, json, sys
out = sys.argv[1]
for f in sorted(glob.glob(out + "/cpp-*.json")) + sorted(glob.glob(out + "/java-*.json")):
    try:
        doc = json.load(open(f))
    except Exception as e:
        print(f, "unreadable:", e)
        continue
    rows = doc.get("results") or doc.get("cycles") or doc.get("rows") or []
    for r in rows:
        lat = r.get("latency_us")
        if not lat:
            continue
        print("%-24s %-28s %8s  p50 %7.2f  p99 %7.2f  corrupt %s" % (f.split("/")[-1], r.get("mode"), r.get("frame_bytes"),
              lat.get("p50", 0), lat.get("p99", 0), r.get("corrupt")))
EOF
