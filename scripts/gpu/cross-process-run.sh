#!/usr/bin/env bash
# Runs ON the GPU host, from the repository root, with .gpu/ (scripts/gpu/build-bundle.sh): channels between
# processes on the CUDA backend, checked and timed. Steps (STEPS, comma separated; default all five, which do not fit
# one 600 s device call: split them, e.g. STEPS=suite,latency,baseline,sanitize then STEPS=soak). The bench's consumers
# run on device CONSUMER_DEVICE (0), in the producer's process and in the other one; on a host with two GPUs,
# CONSUMER_DEVICE=1 times one process per GPU against the in-process cross-GPU cycle (the hand-written baseline stays
# on one GPU):
#   suite     the GPU suite with CudaTwoProcessChannelGpuTest (the two-JVM channel tests, both processes on CUDA) and
#             the contract tests (run-on-gpu.sh STEPS=env,junit; limit JUNIT_LIMIT, 240 s)
#   twojvm    only the suite's cross-process classes (CudaTwoProcessChannelGpuTest, CudaSharedRingPlaceGpuTest; not in
#             the default steps; limit TWOJVM_LIMIT, 150 s) -> junit.log
#   latency   CrossProcessLatencyBench --backend cuda --fill device: a frame's claim, fill kernel and publish -> host
#             listener call (the work the hand-written hand-off times), a consumer in the producer's
#             process against one in another process, 64 B, 16 KiB and 1 MiB (limit 150 s)
#   latency-host  the same with --fill host: two words written by the host, timed from the publish (the channel's
#             hand-off alone; not in the default steps; its files go into logs.tar.gz)
#   throughput  the same, --fill device --gap-us 0: frames back to back, GB/s in and across processes (not in the default
#             steps; its files go into logs.tar.gz)
#   device    a device listener: CrossProcessLatencyBench --listener device (claim, fill kernel, publish -> the
#             listener's kernel checking every byte -> the acknowledgement the producer sees, in and across processes)
#             beside seqlink-xproc-baseline --consumer device (the hand-written CUDA IPC hand-off to a consumer kernel
#             in another process, and its in-process twin), at DEVICE_SIZES (the sizes) with DEVICE_FRAMES (5000) a
#             row; not in the default steps; limits DEVICE_LIMIT (130 s) and DEVICE_BASELINE_LIMIT (70 s); each row
#             adds 2,000 warm-up frames; device-latency.json and device-baseline.json go into logs.tar.gz)
#   baseline  seqlink-xproc-baseline: the hand-written hand-off (fill, D2H copy into a shared /dev/shm file,
#             cuStreamWriteValue64 of a landing word, a host consumer process checking and acknowledging), in another
#             process and in the producer's, the same sizes (limit 90 s); with latency, a ratio line per size
#   soak      TwoProcessSoak --backend cuda --duration ${SOAK:-5m} --restart-every ${RESTART:-60s}: the consumer
#             process killed (kill -9) and re-attached every period, every generation checked (limit: SOAK + 120 s)
#   sanitize  compute-sanitizer memcheck --target-processes all over CrossProcessLatencyBench --backend cuda --frames
#             200 --sizes 16384 (both JVMs; limit 200 s), over a device listener in a consumer process
#             (CudaTwoProcessChannelGpuTest's case at 2,000 frames, both JVMs; limit 200 s) and over seqlink-xproc-baseline
#             (limit 60 s)
# Every step runs under `timeout`, its limit cut to what is left of BUDGET (540 s from the start) so one call ends in time.
# $OUT (8 files at most): summary.txt (every step's verdict and figures, also printed last), junit.log, latency.json,
# latency.txt, baseline.json, soak.json, sanitizer.txt (the sanitizer's summaries), logs.tar.gz (run.log, env.txt,
# baseline.txt, soak.txt, the full sanitizer log, the child JVMs' logs). FRAMES (20000) and GAP_US (200) set the
# latency bench and the baseline's frame count.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${OUT:?set OUT}"
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
steps=${STEPS:-suite,latency,baseline,soak,sanitize}
budget=${BUDGET:-540}
frames=${FRAMES:-20000}
sizes=64,16384,1048576
soak=${SOAK:-5m}
work=$(mktemp -d /tmp/seqlink-xproc-XXXX)
log="$work/run.log"
: > "$log"
start=$(date +%s)
want() { [[ ",$steps," == *",$1,"* ]]; }
status=()
step() { # name limit command...: runs it under timeout, its limit no more than what is left of the budget
  local name=$1 limit=$2
  shift 2
  local left=$(( budget - ($(date +%s) - start) - 10 ))
  if [ "$left" -lt 20 ]; then
    status+=("$name: SKIPPED (budget of ${budget}s spent)")
    echo "==== [$name] skipped: budget spent" >> "$log"
    return 124
  fi
  [ "$limit" -gt "$left" ] && limit=$left
  local t0=$(date +%s)
  echo "==== [$name] $* (limit ${limit}s, +$((t0 - start))s)" >> "$log"
  timeout -k 5 "$limit" "$@"
  local rc=$?
  local dt=$(( $(date +%s) - t0 ))
  echo "==== [$name] exit $rc after ${dt}s" >> "$log"
  status+=("$name: exit $rc, ${dt}s$([ $rc -eq 124 ] || [ $rc -eq 137 ] && echo ' (TIMED OUT)')")
  return $rc
}
seconds() { # 5m, 90s, 1h -> seconds
  case "$1" in
    *h) echo $(( ${1%h} * 3600 )) ;; *m) echo $(( ${1%m} * 60 )) ;; *s) echo "${1%s}" ;; *) echo "$1" ;;
  esac
}

backend=${BACKEND:-cuda}   # BACKEND=emulated with XPROC_JAVA and XPROC_CP set: a dry run of the Java steps without a GPU
if [ -n "${XPROC_JAVA:-}" ] && [ -n "${XPROC_CP:-}" ]; then
  JAVA=$XPROC_JAVA
  CP=$XPROC_CP
elif [ ! -f .gpu/jre.tar.xz ]; then
  echo "no .gpu/jre.tar.xz: run scripts/gpu/build-bundle.sh on the build machine and carry .gpu" >&2
  exit 2
else
  [ -x /tmp/jre/bin/java ] || tar xJf .gpu/jre.tar.xz -C /tmp  # once: extracting again under a running JVM breaks it
  JAVA=/tmp/jre/bin/java
  CP=".gpu/lib/*:.gpu/test-classes"
fi
JOPTS=(-XX:+UseParallelGC -Xms1g -Xmx4g)
BASELINE=.gpu/native/seqlink-xproc-baseline
SANITIZER=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)

if want suite; then
  suite_out="$work/suite"
  mkdir -p "$suite_out"
  # run-on-gpu.sh applies JUNIT_LIMIT itself; the outer limit leaves it room for the contract tests
  limit=$(( ${JUNIT_LIMIT:-240} + 70 ))
  step suite "$limit" env OUT="$suite_out" STEPS=env,junit JUNIT_LIMIT="${JUNIT_LIMIT:-240}" \
    bash scripts/gpu/run-on-gpu.sh quick > "$suite_out/stdout.txt" 2>&1
  cp "$suite_out/junit.log" "$OUT/junit.log" 2>/dev/null
  cp "$suite_out/env.txt" "$work/env.txt" 2>/dev/null
  cat "$suite_out/run.log" >> "$log" 2>/dev/null
fi
if want twojvm; then
  # the suite's cross-process classes alone, when a call has no room for the whole GPU suite
  step twojvm "${TWOJVM_LIMIT:-150}" "$JAVA" "${JOPTS[@]}" -cp "$CP" org.junit.platform.console.ConsoleLauncher execute \
    --disable-banner --details=tree --select-class io.seqlink.shared.CudaTwoProcessChannelGpuTest \
    --select-class io.seqlink.channel.shared.CudaSharedRingPlaceGpuTest --include-tag gpu > "$OUT/junit.log" 2>&1
fi
if want latency; then
  step latency 150 "$JAVA" "${JOPTS[@]}" -cp "$CP" io.seqlink.shared.CrossProcessLatencyBench --backend "$backend" --consumer-device "${CONSUMER_DEVICE:-0}" \
    --fill device --frames "$frames" --gap-us "${GAP_US:-200}" --sizes "$sizes" --json "$OUT/latency.json" > "$OUT/latency.txt" 2>&1
fi
if want latency-host; then
  step latency-host 150 "$JAVA" "${JOPTS[@]}" -cp "$CP" io.seqlink.shared.CrossProcessLatencyBench --backend "$backend" --consumer-device "${CONSUMER_DEVICE:-0}" \
    --fill host --frames "$frames" --gap-us "${GAP_US:-200}" --sizes "$sizes" --json "$work/latency-host.json" \
    > "$work/latency-host.txt" 2>&1
fi
if want throughput; then
  step throughput 150 "$JAVA" "${JOPTS[@]}" -cp "$CP" io.seqlink.shared.CrossProcessLatencyBench --backend "$backend" --consumer-device "${CONSUMER_DEVICE:-0}" \
    --fill device --frames "$frames" --gap-us 0 --sizes "$sizes" --json "$work/throughput.json" > "$work/throughput.txt" 2>&1
fi
if want device; then
  step device-latency "${DEVICE_LIMIT:-130}" "$JAVA" "${JOPTS[@]}" -cp "$CP" io.seqlink.shared.CrossProcessLatencyBench --backend "$backend" --consumer-device "${CONSUMER_DEVICE:-0}" \
    --listener device --frames "${DEVICE_FRAMES:-5000}" --gap-us "${GAP_US:-200}" --sizes "${DEVICE_SIZES:-$sizes}" \
    --json "$work/device-latency.json" > "$work/device-latency.txt" 2>&1
  if [ -x "$BASELINE" ]; then
    step device-baseline "${DEVICE_BASELINE_LIMIT:-70}" "$BASELINE" --consumer device --frames "${DEVICE_FRAMES:-5000}" --sizes "${DEVICE_SIZES:-$sizes}" \
      --json "$work/device-baseline.json" > "$work/device-baseline.txt" 2>&1
  fi
fi
if want baseline; then
  if [ -x "$BASELINE" ]; then
    step baseline 90 "$BASELINE" --frames "$frames" --sizes "$sizes" --json "$OUT/baseline.json" > "$work/baseline.txt" 2>&1
  else
    status+=("baseline: NOT RUN ($BASELINE missing: was the bundle built with nvcc?)")
  fi
fi
if want soak; then
  soak_s=$(seconds "$soak")
  step soak $(( soak_s + 120 )) "$JAVA" "${JOPTS[@]}" -cp "$CP" io.seqlink.shared.TwoProcessSoak --backend "$backend" \
    --duration "$soak" --restart-every "${RESTART:-60s}" --json "$OUT/soak.json" > "$work/soak.txt" 2>&1
fi
if want sanitize; then
  if [ -x "$SANITIZER" ]; then
    {
      echo "==== memcheck: CrossProcessLatencyBench --backend cuda --frames 200 --sizes 16384 (both JVMs)"
      step sanitize-java 200 "$SANITIZER" --tool memcheck --target-processes all --error-exitcode 3 --print-limit 20 \
        "$JAVA" "${JOPTS[@]}" -cp "$CP" io.seqlink.shared.CrossProcessLatencyBench --backend cuda --frames 200 \
        --gap-us 200 --sizes 16384 2>&1
      echo "==== memcheck: a device listener in a consumer process (CudaTwoProcessChannelGpuTest, 2,000 frames; both JVMs)"
      step sanitize-device 200 "$SANITIZER" --tool memcheck --target-processes all --error-exitcode 3 --print-limit 20 \
        "$JAVA" "${JOPTS[@]}" -Dseqlink-build.ipc.deviceFrames=2000 -cp "$CP" \
        org.junit.platform.console.ConsoleLauncher execute --disable-banner --details=tree --include-tag gpu \
        --select-method 'io.seqlink.shared.CudaTwoProcessChannelGpuTest#checksummedFramesReachADeviceListenerInAConsumerProcess' 2>&1
      echo "==== memcheck: seqlink-xproc-baseline --frames 200 --sizes 16384"
      [ -x "$BASELINE" ] && step sanitize-baseline 60 "$SANITIZER" --tool memcheck --target-processes all \
        --error-exitcode 3 --print-limit 20 "$BASELINE" --frames 200 --warmup 10 --sizes 16384 2>&1
    } > "$work/sanitizer.log"
    grep -E "^==== |ERROR SUMMARY|========= (Error|Invalid|Program hit)|Target application" "$work/sanitizer.log" \
      | head -60 > "$OUT/sanitizer.txt"
  else
    status+=("sanitize: NOT RUN (no compute-sanitizer)")
  fi
fi

[ -d target/child-jvms ] && cp -r target/child-jvms "$work/child-jvms"
python3 - "$OUT" "$work" "${status[@]}" > "$OUT/summary.txt" <<'PY'
import json, os, re, sys
out, work, status = sys.argv[1], sys.argv[2], sys.argv[3:]
print("seqlink cross-process run summary")
print("\nsteps:")
for s in status:
    print("  " + s)
def load(name, where=None):
    try:
        with open(os.path.join(where or out, name)) as f:
            return json.load(f)
    except Exception as e:
        return None
junit = os.path.join(out, "junit.log")
if os.path.exists(junit):
    text = open(junit, errors="replace").read()
    counts = re.findall(r"\[\s*(\d+) tests (successful|failed)\s*\]", text)
    print("\nsuite: " + ", ".join(f"{n} {w}" for n, w in counts))
    for line in text.splitlines():
        if "✘" in line:
            print("  FAILED " + line.strip()[:150])
    m = re.search(r"\d+ frames [^\n]*across the process boundary[^\n]*", text)
    if m:
        print("  " + m.group(0).strip()[:160])
lat, base = load("latency.json"), load("baseline.json")
def rows(doc):
    return {(r["path"], r["bytes"]): r for r in (doc or {}).get("rows", [])}
def table(L, B, hand_written):
    """The channel's rows (L) beside the hand-written ones (B), p50 / p99 us (wrong frames), and the cross-process ratio."""
    print(f"{'bytes':>8} {'channel in-proc':>20} {'channel x-proc':>20} {hand_written + ' in':>20} {hand_written + ' x':>20} {'x-proc ratio':>13}")
    for b in sorted({k[1] for k in list(L) + list(B)}):
        def cell(d, path):
            r = d.get((path, b))
            return f"{r['p50_us']:.2f} / {r['p99_us']:.2f} ({r['wrong']})" if r else "-"
        ratio = "-"
        lx, bx = L.get(("cross-process", b)), B.get(("cross-process", b))
        if lx and bx and bx["p50_us"] > 0:
            ratio = f"{lx['p50_us'] / bx['p50_us']:.2f}x"
        print(f"{b:>8} {cell(L, 'in-process'):>20} {cell(L, 'cross-process'):>20} {cell(B, 'in-process'):>20} "
              f"{cell(B, 'cross-process'):>20} {ratio:>13}")
    print(f"  x-proc ratio: the channel's cross-process p50 over the {hand_written}'s cross-process p50 (target <= 1.1x)")
L, B = rows(lat), rows(base)
if L or B:
    fill = (lat or {}).get("fill", "host")
    print("\nframe -> host consumer, p50 / p99 us (wrong frames); the channel's frames "
          + ("claimed, filled by a kernel and published, as the hand-written ones are filled and copied" if fill == "device"
             else "written by the host and timed from the publish (not the hand-written hand-off's work)"))
    table(L, B, "hand-written")
    if base is not None:
        print(f"  hand-written: {base.get('device')}, landing word by {base.get('flag_write')}, ok={base.get('ok')}")
DL, DB = rows(load("device-latency.json", work)), rows(load("device-baseline.json", work))
if DL or DB:
    print("\nframe -> device listener's kernel -> acknowledgement seen by the producer, p50 / p99 us (wrong frames)")
    table(DL, DB, "IPC hand-off")
hand_off = load("latency-host.json", work)
if hand_off is not None:
    print("\nthe channel's hand-off alone (--fill host: two words written by the host, timed from the publish), p50 / p99 us")
    for r in hand_off.get("rows", []):
        print(f"  {r['path']:>14} {r['bytes']:>8}: {r['p50_us']:.2f} / {r['p99_us']:.2f} ({r['wrong']} wrong)")
tp = load("throughput.json", work)
if tp is not None:
    print("\nback to back (--gap-us 0, --fill device), GB/s: in the producer's process / across processes")
    T = rows(tp)
    for b in sorted({k[1] for k in T}):
        i, x = T.get(("in-process", b)), T.get(("cross-process", b))
        ratio = f"{x['gb_per_s'] / i['gb_per_s']:.2f}x" if i and x and i.get("gb_per_s") else "-"
        print(f"  {b:>8}: {i['gb_per_s'] if i else '-'} / {x['gb_per_s'] if x else '-'} ({ratio}; wrong {i and i['wrong']}, {x and x['wrong']})")
soak = load("soak.json")
if soak is not None:
    gens = soak.get("generations", [])
    print("\nsoak: " + ", ".join(f"{k}={v}" for k, v in soak.items() if not isinstance(v, (list, dict))))
    for g in gens[:12]:
        print("  " + ", ".join(f"{k}={v}" for k, v in g.items()))
san = os.path.join(out, "sanitizer.txt")
if os.path.exists(san):
    print("\nsanitizer:")
    for line in open(san, errors="replace"):
        if "ERROR SUMMARY" in line or line.startswith("===="):
            print("  " + line.rstrip()[:150])
PY
tar czf "$OUT/logs.tar.gz" -C "$work" . 2>/dev/null
cat "$OUT/summary.txt"
