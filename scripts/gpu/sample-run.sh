#!/usr/bin/env bash
# Runs ON the GPU host, from the repository root, with .gpu/ (SAMPLE=1 scripts/gpu/build-bundle.sh, which unpacks the
# sample service into .gpu/sample; carry .gpu/jre.tar.xz, .gpu/lib and .gpu/sample): the sample service on a GPU profile through sample-app/gpu-smoke.sh (verify, then the
# service, FRAMES frames posted over HTTP, every result recomputed on the host, the collector's end-to-end latency).
# $OUT: the smoke's files (verify table, inject/pipeline/seqlink/health JSON, the scrape's seqlink_ and sample_ lines,
# the service log) and summary.txt.
# Then the service alone at RATE frames/s from its own source for PACED_SECONDS (default 2000 and 10; 0 skips): frames
# apart, so its end-to-end latency (source -> the GPU stages -> the collector's host listener) is a frame's own, not a
# burst's queueing; paced.json (the pipeline's answer) and paced-metrics.txt (the scrape's seqlink_ and sample_ lines).
# VERIFY_EVERY (default 1) is the paced service's sample.pipeline.verify-every: the collector recomputes every n-th
# result on its listener thread, so a large n leaves the channels' own share of the end-to-end latency. PACED_ARGS: more
# options of the paced service (e.g. --seqlink.launcher.idle-strategy=busy-spin).
# Usage: bash scripts/gpu/sample-run.sh [PROFILE] [FRAMES]      (default gpu1 5000)
set -uo pipefail
cd "$(dirname "$0")/../.."
final=${OUT:?set OUT}
profile=${1:-gpu1}
frames=${2:-5000}
backend=${BACKEND:-cuda}   # BACKEND=emulated: a dry run without a GPU
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
[ -f .gpu/sample/classpath.txt ] || { echo "no .gpu/sample: build the bundle with SAMPLE=1 scripts/gpu/build-bundle.sh" | tee "$final/summary.txt"; exit 1; }
[ -x /tmp/jre/bin/java ] || tar xJf .gpu/jre.tar.xz -C /tmp
t0=$(date +%s)
BACKEND=$backend JAVA=/tmp/jre/bin/java CLASSPATH_FILE=.gpu/sample/classpath.txt OUT="$final" timeout -k 5 "${SAMPLE_LIMIT:-240}" \
  bash sample-app/gpu-smoke.sh "$profile" "$frames" > "$final/summary.txt" 2>&1
echo "sample $profile $frames: exit $? after $(( $(date +%s) - t0 ))s" | tee -a "$final/summary.txt"
grep -E "RESULT|backend|device [0-9]|channel " "$final/summary.txt" | cut -c1-300 | head -20
paced=${PACED_SECONDS:-10}
[ "$paced" -gt 0 ] || exit 0
port=19$((RANDOM % 900 + 100))
/tmp/jre/bin/java -cp "$(cat .gpu/sample/classpath.txt)" io.seqlink.sample.SampleApplication --spring.profiles.active="$profile" \
  --seqlink.backend="$backend" --server.port="$port" --sample.pipeline.source-rate="${RATE:-2000}" \
  --sample.pipeline.verify-every="${VERIFY_EVERY:-1}" ${PACED_ARGS:-} > "$final/paced-service.log" 2>&1 &
pid=$!
timeout -k 5 $((paced + 90)) python3 - "$port" "$paced" "$final" <<'PY' | tee -a "$final/summary.txt"
import json, os, sys, time, urllib.request
port, seconds, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def get(path):
    with urllib.request.urlopen(f"http://localhost:{port}{path}", timeout=30) as r:
        return r.read().decode()
deadline = time.time() + 60
while True:
    try:
        get("/actuator/health"); break
    except Exception:
        if time.time() > deadline:
            sys.exit("paced: the service did not serve within 60 s")
        time.sleep(0.5)
before = json.loads(get("/api/pipeline"))
time.sleep(seconds)
p = json.loads(get("/api/pipeline"))
open(f"{out}/paced.json", "w").write(json.dumps({"before": before, "after": p}, indent=2))
open(f"{out}/paced-metrics.txt", "w").write("\n".join(l for l in get("/actuator/prometheus").splitlines()
                                                      if l.startswith(("seqlink_", "sample_"))))
n = p["collected"] - before["collected"]
print(f"paced: {n} frames collected in {seconds} s at source-rate {p['sourceRate']}, verify-every {os.environ.get('VERIFY_EVERY', '1')}; failures {p['failures']}, lost {p['lost']}, "
      f"verified {p['verifiedFully']} of {p['collected']}; end to end since start mean {p['endToEndLatency']['meanMicros']} us, "
      f"max {p['endToEndLatency']['maxMicros']} us over {p['endToEndLatency']['count']} frames")
import re
lat = {}
for l in get("/actuator/prometheus").splitlines():
    m = re.match(r'seqlink_consumer_latency_seconds_(count|sum)\{channel="([^"]+)",consumer="(\d+)"[^}]*\} (\S+)', l)
    if m:
        lat.setdefault((m.group(2), m.group(3)), {})[m.group(1)] = float(m.group(4))
for (ch, c), v in sorted(lat.items()):
    if v.get("count"):
        print(f"paced: channel {ch} consumer {c}: publish -> listener done mean {1e6 * v['sum'] / v['count']:.1f} us over {int(v['count'])} frames")
PY
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
grep -E "ERROR|Exception" "$final/paced-service.log" | head -5 || true
