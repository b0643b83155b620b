#!/usr/bin/env bash
# Runs the packaged sample on real GPUs and checks the pipeline end to end: `verify` for the profile,
# then the service on that profile, N frames injected over HTTP, and the collector's verdict (every
# result collected and identical to the host's recomputation). For a GPU host; CI has none.
#
# Usage: sample-app/gpu-smoke.sh PROFILE [FRAMES]     e.g. sample-app/gpu-smoke.sh gpu2 5000
# Env:   JAVA (default: java on PATH), JAR (default: sample-app/target/seqlink-sample-app.jar), or CLASSPATH_FILE
#        (a file holding the unpacked service's classpath, as .gpu/sample/classpath.txt: run from it instead of the jar),
#        OUT  (default: sample-app/target/gpu-smoke): where verify's table, the JSON answers and the log go;
#        BACKEND (default cuda; emulated tries the script without a GPU).
# Exit:  0 when verify passed (or only reported links below the required class) and every frame came
#        back verified; 1 otherwise.
set -uo pipefail
profile=${1:?usage: gpu-smoke.sh PROFILE [FRAMES]}
frames=${2:-2000}
java=${JAVA:-java}
jar=${JAR:-sample-app/target/seqlink-sample-app.jar}
out=${OUT:-sample-app/target/gpu-smoke}
backend=${BACKEND:-cuda}
if [ -n "${CLASSPATH_FILE:-}" ]; then
  service=("$java" -cp "$(cat "$CLASSPATH_FILE")" io.seqlink.sample.SampleApplication)
else
  service=("$java" -jar "$jar")
fi
mkdir -p "$out"
port=18$((RANDOM % 900 + 100))
fail=0

echo "== $profile: verify"
"${service[@]}" verify --spring.profiles.active="$profile" --seqlink.backend="$backend" >"$out/$profile-verify.txt" 2>&1
status=$?
cat "$out/$profile-verify.txt"
echo "verify exit status: $status (0 ok, 2 a link below the required class, 1 could not start)"
[ "$status" -eq 1 ] && fail=1

echo "== $profile: service on port $port, $frames frames"
"${service[@]}" --spring.profiles.active="$profile" --seqlink.backend="$backend" --server.port="$port" \
  --sample.pipeline.source-rate=0 \
  >"$out/$profile-service.log" 2>&1 &
pid=$!
# HTTP through python3 (curl is not on every GPU image).
python3 - "$port" "$pid" "$frames" "$profile" "$out" "$backend" <<'PY' || fail=1
import json, os, sys, time, urllib.request
port, pid, n, profile, out, backend = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6]
base = f"http://localhost:{port}"
def get(path):
    with urllib.request.urlopen(base + path, timeout=30) as r:
        return r.read().decode()
def save(name, text):
    open(f"{out}/{profile}-{name}", "w").write(text)
deadline = time.time() + 120
while True:
    try:
        get("/actuator/health"); break
    except Exception:
        try:
            os.kill(pid, 0)
        except OSError:
            sys.exit("the service exited before serving: see " + f"{out}/{profile}-service.log")
        if time.time() > deadline:
            sys.exit("the service did not serve within 120 s")
        time.sleep(0.5)
start = time.time()
req = urllib.request.Request(base + "/api/frames", data=json.dumps({"count": n, "seed": 1}).encode(),
                             headers={"Content-Type": "application/json"}, method="POST")
try:
    with urllib.request.urlopen(req, timeout=120) as r:
        answer = r.read().decode()
except urllib.error.HTTPError as e:
    answer = e.read().decode()
print(answer); save("inject.json", answer)
while True:
    p = json.loads(get("/api/pipeline"))
    if p["collected"] >= n or time.time() - start > 120:
        break
    time.sleep(0.05)
secs = time.time() - start
save("pipeline.json", json.dumps(p, indent=2))
save("seqlink.json", get("/actuator/seqlink"))
save("health.json", get("/actuator/health"))
save("metrics.txt", "\n".join(l for l in get("/actuator/prometheus").splitlines() if l.startswith(("seqlink_", "sample_"))))
print(f"backend {p['backend']}: produced {p['produced']}, collected {p['collected']}, verified bit for bit "
      f"{p['verifiedFully']}, failures {p['failures']}, lost {p['lost']}; {n / secs:.0f} frames/s from the POST to the "
      f"last result (HTTP included); mean end to end {p['endToEndLatency']['meanMicros']} us")
for d in p["inference"]:
    print(f"  device {d['device']}: inferred {d['inferred']}, forwarded {d['forwarded']}, collected {d['collected']}, "
          f"failures {d['failures']}")
for name, ch in json.loads(get("/actuator/seqlink"))["channels"].items():
    print(f"  channel {name}: published {ch['publishedOnDevice']}, transports "
          + ", ".join(f"{c['device']}={c['transport']}" for c in ch["consumers"]))
ok = p["backend"] == backend and p["collected"] == n and p["verifiedFully"] == n and p["failures"] == 0
print("RESULT:", "OK" if ok else "FAIL", p.get("lastFailure") or "")
sys.exit(0 if ok else 1)
PY
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
grep -E "EMULATED|seqlink runtime:|seqlink link|channel '.*' open|seqlink stopped|ERROR|Exception" "$out/$profile-service.log" \
  | cut -c1-400 | head -40
exit $fail
