#!/usr/bin/env bash
# The single-producer JMH comparison of two builds, before.jar vs after.jar (built by build.sh), on the emulated
# backend: SeqlinkProducerPathBenchmark.{offer,batch} (the producer's own path, ns/op) and
# SeqlinkEmulatedBenchmark.{offer,batch} with consumers=1, payload 64 and 16384 (1 -> 1 end to end, ops/s).
# The bar: no single-producer figure more than 10% slower after.
#
#   JAVA=/tmp/jre/bin/java OUT=/some/dir bash run.sh
#
#   JAVA      java binary, or a JRE/JDK directory (then $JAVA/bin/java); default: java on PATH
#   OUT       where jmh-before.json, jmh-after.json, jmh-*.log and ratio.txt go; default: .
#   CPUS      taskset cpu list; default 2-5 (four cores of a 16-core GPU host)
#   JMH_TIME  iteration options; default "-wi 5 -w 1s -i 5 -r 1s"; a smoke test: JMH_TIME="-wi 1 -i 1 -r 200ms -w 200ms"
#   JARS      folder holding before.jar and after.jar; default: this script's folder
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
jars=${JARS:-$here}
out=${OUT:-.}
cpus=${CPUS:-2-5}
time_opts=${JMH_TIME:--wi 5 -w 1s -i 5 -r 1s}
java=${JAVA:-java}
[ -d "$java" ] && java=$java/bin/java
mkdir -p "$out"
"$java" -version 2>&1 | head -1
nproc
for side in before after; do
  echo "==== $side ($jars/$side.jar) on cpus $cpus: $(date -u +%FT%TZ)"
  # -p consumers=1 only binds SeqlinkEmulatedBenchmark (the producer-path benchmark has no parameters)
  # shellcheck disable=SC2086
  taskset -c "$cpus" "$java" -jar "$jars/$side.jar" \
    'io\.seqlink\.jmh\.SeqlinkProducerPathBenchmark\.(offer|batch)$' \
    'io\.seqlink\.jmh\.SeqlinkEmulatedBenchmark\.(offer|batch)$' \
    -p consumers=1 -f 1 $time_opts -foe true \
    -rf json -rff "$out/jmh-$side.json" 2>&1 | tee "$out/jmh-$side.log" | grep --line-buffered -E '^(Benchmark|Seqlink|# Run complete)|ERROR|Exception' || true
  [ -s "$out/jmh-$side.json" ] || { echo "no $out/jmh-$side.json: see $out/jmh-$side.log" >&2; exit 1; }
done

python3 - "$out/jmh-before.json" "$out/jmh-after.json" <<'PY' | tee "$out/ratio.txt"
import json, sys

def load(path):
    rows = {}
    for r in json.load(open(path)):
        params = ",".join(f"{k}={v}" for k, v in sorted((r.get("params") or {}).items()))
        name = r["benchmark"].rsplit(".", 2)
        key = f"{name[-2]}.{name[-1]}" + (f" [{params}]" if params else "")
        m = r["primaryMetric"]
        rows[key] = (float(m["score"]), float(m["scoreError"]), m["scoreUnit"], r["mode"])  # scoreError is "NaN" for one iteration
    return rows

before, after = load(sys.argv[1]), load(sys.argv[2])
print(f"{'benchmark':<60} {'before':>22} {'after':>22}  speed after/before (>1: after faster)")
worst = None
for key in sorted(before.keys() & after.keys()):
    b, be, unit, mode = before[key]
    a, ae, _, _ = after[key]
    # speed ratio > 1: after is faster; avgt (ns/op) is inverted so both modes read the same way
    speed = (b / a) if mode in ("avgt", "sample", "ss") else (a / b)
    flag = "  <-- more than 10% slower" if speed < 0.90 else ""
    worst = speed if worst is None else min(worst, speed)
    print(f"{key:<60} {b:>12.4g} ±{be:<8.2g} {a:>12.4g} ±{ae:<8.2g}  {speed:6.3f}  {unit:<6}{flag}")
missing = sorted(before.keys() ^ after.keys())
if missing:
    print("only on one side:", ", ".join(missing))
if worst is not None:
    print(f"worst speed ratio: {worst:.3f} (bar: >= 0.90)")
PY
