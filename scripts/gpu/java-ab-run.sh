#!/usr/bin/env bash
# Runs ON the GPU host, from the repository root, with .gpu/ (scripts/gpu/build-bundle.sh) and earlier revisions' jars
# (scripts/gpu/build-before.sh, each moved to a folder of its own under .gpu/): the Java fast-path rows
# (fastpath-run.sh STEPS=java: HandOffBenchmark and CycleBenchmark at 16 KiB and 1 MiB) of each build named, in the
# order named, in one device call, so their differences are read against the spread between runs of one build.
#   this       this tree's bundle (.gpu)
#   DIR        .gpu/DIR/lib/seqlink-*.jar and .gpu/DIR/test-classes with this bundle's libraries, runtime and natives
# $OUT: <n>-<name>-summary.txt per run, rows.txt (the p50 of each latency row and the GB/s of each throughput row, a
# column per run), run.log.
# Usage: OUT=... bash scripts/gpu/java-ab-run.sh this before-85c6ea3 before this before-85c6ea3 before
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?set OUT}"
[ "$#" -gt 0 ] || { echo "name the builds to run: this, or a folder of .gpu holding lib/ and test-classes/" >&2; exit 2; }
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
mkdir -p "$OUT"
rm -rf /tmp/seqlink-ab-*  # bundles of an earlier call on this machine may be of other builds
log="$OUT/run.log"
: > "$log"
start=$(date +%s)
n=0
for name in "$@"; do
  n=$((n + 1))
  bundle=.gpu
  if [ "$name" != this ]; then
    bundle=/tmp/seqlink-ab-$name
    if [ ! -d "$bundle" ] && ! bash scripts/gpu/earlier-bundle.sh ".gpu/$name" "$bundle" >> "$log" 2>&1; then
      echo "no bundle for $name (.gpu/$name/lib, .gpu/$name/test-classes)" | tee -a "$log"
      continue
    fi
  fi
  work=/tmp/seqlink-ab-run-$n
  rm -rf "$work"
  mkdir -p "$work"
  t0=$(date +%s)
  OUT="$work" BUNDLE="$bundle" STEPS=java bash scripts/gpu/fastpath-run.sh full > "$work/stdout.txt" 2>&1
  echo "run $n ($name): exit $? after $(( $(date +%s) - t0 ))s" | tee -a "$log"
  cp "$work/summary.txt" "$OUT/$n-$name-summary.txt" 2>/dev/null
done
python3 - "$OUT" "$@" > "$OUT/rows.txt" <<'PY'
import os, re, sys
out, names = sys.argv[1], sys.argv[2:]
runs = []
for i, name in enumerate(names, 1):
    rows, sec = {}, None
    path = os.path.join(out, f"{i}-{name}-summary.txt")
    if os.path.exists(path):
        for line in open(path):
            m = re.match(r"(latency|throughput), (\d+) B", line)
            if m:
                sec = (m.group(1), int(m.group(2)))
                continue
            m = re.match(r"\s+Java\s+(\S+)\s+(?:\d+\s+)?([\d.]+)", line)
            if m and sec:
                rows[(sec, m.group(1))] = float(m.group(2))
    runs.append((f"{i}:{name}", rows))
keys = []
for _, rows in runs:
    keys += [k for k in rows if k not in keys]
print(f"{'row':44}" + "".join(f"{n:>18}" for n, _ in runs))
for k in keys:
    label = f"{k[0][0][:3]} {k[0][1]:>8} {k[1]}"
    print(f"{label:44}" + "".join(f"{rows.get(k, float('nan')):>18.3f}" for _, rows in runs))
print("latency rows: p50 us; throughput rows: GB/s")
PY
cat "$OUT/rows.txt"
echo "total $(( $(date +%s) - start ))s" | tee -a "$log"
