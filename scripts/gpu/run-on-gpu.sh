#!/usr/bin/env bash
# Runs ON the GPU host (no Maven, no JDK, no network), from the repository root, with .gpu/ built by
# scripts/gpu/build-bundle.sh. Every step writes under $OUT (at most 8 files) and the last thing printed
# is a summary table.
#
#   $OUT/env.txt               nvidia-smi, driver, GPU, kernel, Java
#   $OUT/launch-variants.json  LaunchVariantsBenchmark: per-launch cost of each JCuda launch path
#   $OUT/cycle-cpp.json        seqlink-cycle-bench (C++ comparator): latency and throughput rows (the channel, naive
#                              hand-offs, the floor, armed rounds), bandwidth, cancel, memcpy-peer, the article's schemes
#   $OUT/cycle-java.json       CycleBenchmark: the same cycle through the Java SPI
#   $OUT/junit.log             JUnit console launcher, io.seqlink.gpu and the two-process channel on CUDA, tag gpu
#                              (and the header contract tests)
#   $OUT/sanitizer.log         compute-sanitizer memcheck, racecheck, synccheck on seqlink-cycle-bench --mode sanitize
#   $OUT/run.log               everything above in order, with each step's exit status and time
#   $OUT/summary.txt           the summary table (also printed last)
#
# Usage: scripts/gpu/run-on-gpu.sh [quick|full]   (default full)
#   quick: shorter benchmarks (2000 frames, 0.5 s schemes); full: 20000 frames, 2 s schemes
#   STEPS=env,launch,cpp,java,junit,sanitize (default: all) selects steps; SANITIZERS="memcheck racecheck
#   synccheck" (default) the compute-sanitizer tools; JUNIT_LIMIT the suite's time limit in seconds (300), TEST_LIMIT
#   each test's (120).
set -uo pipefail
cd "$(dirname "$0")/../.."
profile=${1:-full}
OUT=${OUT:-/tmp/seqlink-gpu-out}
mkdir -p "$OUT"
steps=${STEPS:-env,launch,cpp,java,junit,sanitize}
bundle=.gpu
log="$OUT/run.log"
: > "$log"
# Never let anything here touch NVLink multicast (shared hosts): seqlink itself never calls cuMulticastCreate.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1

status_lines=()
run_step() { # name timeout_s command...
  local name=$1 limit=$2
  shift 2
  local t0=$(date +%s)
  echo "==== [$name] $* (limit ${limit}s)" >> "$log"   # not to stdout: callers redirect it into result files
  timeout -k 10 "$limit" "$@"
  local rc=$?
  local dt=$(( $(date +%s) - t0 ))
  echo "==== [$name] exit $rc after ${dt}s" >> "$log"
  status_lines+=("$name: exit $rc, ${dt}s")
  return $rc
}
want() { [[ ",$steps," == *",$1,"* ]]; }

if [ ! -f "$bundle/jre.tar.xz" ]; then
  echo "no $bundle/jre.tar.xz: run scripts/gpu/build-bundle.sh on the build machine and carry .gpu" >&2
  exit 2
fi
[ -x /tmp/jre/bin/java ] || tar xJf "$bundle/jre.tar.xz" -C /tmp  # once: extracting again under a running JVM breaks it
JAVA=/tmp/jre/bin/java
CP="$bundle/lib/*:$bundle/test-classes"
JOPTS=(-XX:+UseParallelGC -Xms1g -Xmx4g -Dseqlink-build.host-check=$bundle/native/seqlink-host-check -Dseqlink-build.litmus=$bundle/native/seqlink-litmus)
if [ "$profile" = quick ]; then
  bench_args=(--short)
  java_warmup=(--warmup 2000)
else
  bench_args=()
  java_warmup=(--warmup 10000) # JIT: C2 compiles the hot path after ~10^4 calls; the C++ twin needs no such warm-up
fi

if want env; then
  {
    date -u +"date: %Y-%m-%dT%H:%M:%SZ"
    nvidia-smi || true
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,pstate --format=csv || true
    nvidia-smi topo -m || true
    uname -a
    "$JAVA" -version 2>&1
    command -v compute-sanitizer || echo "no compute-sanitizer on PATH"
    nproc
  } > "$OUT/env.txt" 2>&1
  cat "$OUT/env.txt" >> "$log"
  head -20 "$OUT/env.txt"
fi

if want launch; then
  run_step launch-variants 120 "$JAVA" "${JOPTS[@]}" -cp "$CP" io.seqlink.backend.cuda.LaunchVariantsBenchmark \
    > "$OUT/launch-variants.json" 2>> "$log"
fi
if want cpp; then
  run_step cycle-cpp 240 "$bundle/native/seqlink-cycle-bench" --mode all "${bench_args[@]}" > "$OUT/cycle-cpp.json" 2>> "$log"
fi
if want java; then
  run_step cycle-java 240 "$JAVA" "${JOPTS[@]}" -cp "$CP" io.seqlink.backend.cuda.CycleBenchmark --mode all "${bench_args[@]}" "${java_warmup[@]}" \
    > "$OUT/cycle-java.json" 2>> "$log"
fi
if want junit; then
  junit_limit=${JUNIT_LIMIT:-300}
  # testfeed: a line per test as it ends, so a suite cut short by its limit still shows what passed; each test ends
  # after TEST_LIMIT (a separate thread: a call stuck in the driver cannot hold the suite); 15 s before the step's
  # limit the JVM is sent SIGQUIT, so a suite that is stuck anyway leaves its threads' stacks in junit.log
  run_step junit "$junit_limit" timeout -s QUIT -k 15 $(( junit_limit - 15 )) "$JAVA" "${JOPTS[@]}" -cp "$CP" \
    org.junit.platform.console.ConsoleLauncher execute --disable-banner --details=testfeed \
    --config=junit.jupiter.execution.timeout.default="${TEST_LIMIT:-120}s" \
    --config=junit.jupiter.execution.timeout.thread.mode.default=SEPARATE_THREAD \
    --select-package io.seqlink.gpu --select-class io.seqlink.backend.cuda.WaitsReleasedGpuTest \
    --select-class io.seqlink.shared.CudaTwoProcessChannelGpuTest \
    --select-class io.seqlink.channel.shared.CudaSharedRingPlaceGpuTest \
    --include-tag gpu > "$OUT/junit.log" 2>&1
  run_step junit-contract 60 "$JAVA" "${JOPTS[@]}" -cp "$CP" org.junit.platform.console.ConsoleLauncher execute \
    --disable-banner --details=summary --select-class io.seqlink.gpu.KernelLayoutContractTest \
    --select-class io.seqlink.gpu.FramePatternHostContractTest --select-class io.seqlink.gpu.CudaDetectionTest >> "$OUT/junit.log" 2>&1
  tail -40 "$OUT/junit.log" >> "$log"
fi
if want sanitize; then
  : > "$OUT/sanitizer.log"
  if command -v compute-sanitizer >/dev/null 2>&1; then
    for tool in ${SANITIZERS:-memcheck racecheck synccheck}; do
      run_step "sanitizer-$tool" 150 compute-sanitizer --tool "$tool" --error-exitcode 3 --print-limit 20 \
        "$bundle/native/seqlink-cycle-bench" --mode sanitize >> "$OUT/sanitizer.log" 2>&1
    done
  else
    echo "compute-sanitizer not found" | tee -a "$OUT/sanitizer.log"
  fi
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|========= (Error|Race)|\"ok\"" "$OUT/sanitizer.log" | tail -20 >> "$log"
fi

python3 - "$OUT" "${status_lines[@]}" > "$OUT/summary.txt" <<'PY'
import json, os, re, sys
out = sys.argv[1]
status = sys.argv[2:]
def load(name):
    p = os.path.join(out, name)
    try:
        with open(p) as f:
            return json.load(f)
    except Exception as e:
        return {"error": f"{name}: {e}"}
def n(x):
    # the C++ tools write a figure they could not measure as null
    return float("nan") if x is None else x
lines = ["seqlink GPU run summary", "", "steps:"] + ["  " + s for s in status]
lv = load("launch-variants.json")
if "results" in lv:
    lines += ["", "launch path (per operation, best of 3 x %s)" % lv.get("launches"), "  %-30s %9s %9s %9s" % ("variant", "host_us", "rate_us", "alloc_B")]
    for r in lv["results"]:
        if "host_us" in r:
            lines.append("  %-30s %9.3f %9.3f %9.1f" % (r["variant"], r["host_us"], r["rate_us"], r["alloc_bytes"]))
        else:
            l = r["launch_to_done_us"]
            lines.append("  %-30s p50 %.2f us  p99 %.2f us" % (r["variant"], l["p50"], l["p99"]))
cpp, java = load("cycle-cpp.json"), load("cycle-java.json")
def index(doc):
    # version 2 rows carry a kind; the channel's rows are "channel" in both kinds (scripts/gpu/fastpath-summary.py
    # prints every row with its ratios to the naive hand-off and to the floor)
    m = {}
    for r in doc.get("results", []):
        mode = r.get("mode")
        if r.get("kind") == "throughput":
            mode = "throughput" if mode == "channel" else "tp:" + str(mode)
        elif mode == "channel":
            mode = "cycle"
        m[(mode, r.get("frame_bytes"))] = r
    return m
ci, ji = index(cpp), index(java)
if ci or ji:
    lines += ["", "publish -> consume -> ack cycle (latency us; Java / C++ ratio; goal <= 1.25)",
              "  %-11s %8s | %8s %8s | %8s %8s | %6s %6s | %s" % ("mode", "bytes", "C++ p50", "C++ p99", "Java p50", "Java p99", "r p50", "r p99", "corrupt C++/Java")]
    for key in sorted(set(ci) | set(ji), key=lambda k: (str(k[0]), k[1] or 0)):
        mode, size = key
        c, j = ci.get(key), ji.get(key)
        if mode in ("cycle", "wait-value", "memcpy-peer", "cycle-channel", "cycle-channel-device-armed", "floor", "naive-2s"):
            cl = c["latency_us"] if c else None
            jl = j["latency_us"] if j else None
            r50 = "%.2f" % (jl["p50"] / cl["p50"]) if cl and jl and cl["p50"] else "-"
            r99 = "%.2f" % (jl["p99"] / cl["p99"]) if cl and jl and cl["p99"] else "-"
            lines.append("  %-11s %8s | %8s %8s | %8s %8s | %6s %6s | %s/%s" % (mode, size,
                "%.2f" % cl["p50"] if cl else "-", "%.2f" % cl["p99"] if cl else "-",
                "%.2f" % jl["p50"] if jl else "-", "%.2f" % jl["p99"] if jl else "-", r50, r99,
                c.get("corrupt", "-") if c else "-", j.get("corrupt", "-") if j else "-"))
    lines += ["", "throughput (GB/s)", "  %8s %10s %10s %10s" % ("bytes", "C++", "Java", "memcpyPeer")]
    for size in sorted({k[1] for k in set(ci) | set(ji) if k[1]}):
        c, j, m = ci.get(("throughput", size)), ji.get(("throughput", size)), ci.get(("memcpy-peer", size))
        lines.append("  %8s %10s %10s %10s" % (size, "%.3f" % c["gb_per_s"] if c else "-", "%.3f" % j["gb_per_s"] if j else "-",
                                              "%.3f" % m["gb_per_s"] if m else "-"))
    schemes = [r for r in cpp.get("results", []) if r.get("mode") == "scheme"]
    if schemes:
        lines += ["", "the article's schemes (%s)" % schemes[0].get("topology"),
                  "  %-22s %9s %9s %9s %9s %9s %9s %8s" % ("scheme", "rounds", "GB/s", "p50 us", "p99 us", "p99.9 us", "reads/rnd", "timeouts")]
        for r in schemes:
            l = r["latency_us"]
            lines.append("  %-22s %9d %9.3f %9.2f %9.2f %9.2f %9.1f %8d" % (r["scheme"], r["rounds"], n(r["gb_per_s"]), n(l["p50"]),
                                                                      n(l["p99"]), n(l["p999"]), n(r["remote_reads_per_round"]),
                                                                      r["timeouts"]))
    chan = [r for r in java.get("results", []) if r.get("mode") in ("cycle-channel", "cycle-channel-device-armed")]
    if chan:
        lines += ["", "cycle through the public channel API (Java)", "  %-27s %8s %9s %9s %9s" % ("mode", "bytes", "p50 us", "p99 us", "alloc/frm")]
        for r in chan:
            lines.append("  %-27s %8s %9.2f %9.2f %9.2f" % (r["mode"], r["frame_bytes"], r["latency_us"]["p50"], r["latency_us"]["p99"], r["alloc_bytes_per_frame"]))
for name in ("cycle-cpp.json", "cycle-java.json", "launch-variants.json"):
    d = load(name)
    if "error" in d:
        lines.append("!! " + d["error"])
try:
    text = open(os.path.join(out, "junit.log"), errors="replace").read()
    counts = re.findall(r"\[\s*(\d+) tests (successful|failed|skipped|aborted)\s*\]", text)
    if counts:
        lines += ["", "JUnit: " + ", ".join(f"{n} {k}" for n, k in counts)]
    for m in (re.findall(r"[✘]\s+(.*)", text) + re.findall(r"^(.* :: (?:FAILED|ABORTED).*)$", text, re.M))[:20]:
        lines.append("  FAILED: " + m.strip())
except Exception as e:
    lines.append("junit.log: %s" % e)
try:
    text = open(os.path.join(out, "sanitizer.log"), errors="replace").read()
    for m in re.findall(r"========= (ERROR SUMMARY: .*|RACECHECK SUMMARY: .*)", text):
        lines.append("sanitizer: " + m)
except Exception as e:
    lines.append("sanitizer.log: %s" % e)
print("\n".join(lines))
PY
cat "$OUT/summary.txt" >> "$log"
cat "$OUT/summary.txt"
