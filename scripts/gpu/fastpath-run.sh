#!/usr/bin/env bash
# Runs ON the GPU host (no Maven, no JDK, no network), from the repository root, with the bundle built by
# scripts/gpu/build-bundle.sh (in $BUNDLE, default .gpu): the fast path's proof in one call, ordered so the
# timings see a quiet GPU first.
#
#   $OUT/run.log          env (nvidia-smi, driver), the channel steps' MEMBARs in the SASS, launch variants,
#                         each step's exit status and time
#   $OUT/cycle-cpp.json   seqlink-cycle-bench --mode all: naive hand-offs, channel, armed rounds, floor, spin,
#                         throughput forms, bandwidth, cancel, the article's schemes
#   $OUT/java-cycle.json  CycleBenchmark: the channel's cycle and throughput through the SPI, and through the API
#   $OUT/java-handoff.json HandOffBenchmark: the naive hand-offs and the floor launched from Java
#   $OUT/litmus.json      seqlink-litmus: one litmus test per ordering helper
#   $OUT/junit.log        the GPU suite (tag gpu) and the header contract tests
#   $OUT/sanitizer.log    compute-sanitizer memcheck, racecheck, synccheck on seqlink-cycle-bench --mode sanitize, and
#                         (step sanitize-java) on short runs of the Java channel with armed rounds: the harness's host
#                         scenario (BenchMain --scenarios host: host listeners polled and through the launcher, armed
#                         and not) and CycleBenchmark --mode cycle-device-armed (the armed rounds' waits, consume steps, a
#                         device listener's kernels and the descriptor-reading ack, and their release at close)
#   $OUT/summary.txt      every row with its ratio to the naive two-stream hand-off and to the C++ floor
#
# Usage: bash scripts/gpu/fastpath-run.sh [quick|full]   STEPS=env,sass,cpp,java,litmus,junit,sanitize,sanitize-java,launch
set -uo pipefail
cd "$(dirname "$0")/../.."
profile=${1:-full}
OUT=${OUT:?set OUT}
bundle=${BUNDLE:-.gpu}
steps=${STEPS:-env,sass,cpp,java,litmus,junit,sanitize,sanitize-java,launch}
log="$OUT/run.log"
: > "$log"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
start=$(date +%s)
status=()
step() { # name limit command...
  local name=$1 limit=$2
  shift 2
  local t0=$(date +%s)
  echo "==== [$name] $* (limit ${limit}s, +$((t0 - start))s)" >> "$log"
  timeout -k 5 "$limit" "$@"
  local rc=$?
  status+=("$name: exit $rc, $(( $(date +%s) - t0 ))s")
  echo "==== [$name] exit $rc after $(( $(date +%s) - t0 ))s" >> "$log"
  return $rc
}
want() { [[ ",$steps," == *",$1,"* ]]; }

[ -x /tmp/jre/bin/java ] || tar xJf "$bundle/jre.tar.xz" -C /tmp  # once: extracting again under a running JVM breaks it
JAVA=/tmp/jre/bin/java
CP="$bundle/lib/*:$bundle/test-classes"
JOPTS=(-XX:+UseParallelGC -Xms1g -Xmx4g -Dseqlink-build.host-check=$bundle/native/seqlink-host-check -Dseqlink-build.litmus=$bundle/native/seqlink-litmus)
if [ "$profile" = quick ]; then cpp_args=(--short); java_args=(--short --warmup 2000); else cpp_args=(); java_args=(--warmup 10000); fi

if want env; then
  { date -u +"date: %Y-%m-%dT%H:%M:%SZ"; nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv;
    uname -a; "$JAVA" -version 2>&1; command -v compute-sanitizer cuobjdump; nproc; } >> "$log" 2>&1
fi
if want sass; then
  # the MEMBARs each channel step pays (docs/memory-model.md): from the runtime fat binary in the jar
  work=$(mktemp -d)
  python3 -c "import sys, zipfile, glob; open(sys.argv[1], 'wb').write(zipfile.ZipFile(glob.glob(sys.argv[2])[0]).read('io/seqlink/kernels/seqlink.fatbin'))" \
    "$work/seqlink.fatbin" "$bundle/lib/seqlink-kernels-*.jar"
  if command -v cuobjdump >/dev/null; then
    cuobjdump -sass -arch sm_90 "$work/seqlink.fatbin" > "$work/sass.txt" 2>&1
    head -c 2000 "$work/sass.txt" >> "$log"
    python3 - "$work/sass.txt" >> "$log" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
for part in re.split(r"\n\s*Function : ", text)[1:]:
    name = part.split("\n", 1)[0].strip()
    membars = re.findall(r"MEMBAR[.A-Z]*", part)
    cctl = len(re.findall(r"CCTL\.IVALL", part))
    print("sass %-28s MEMBAR x%d %s CCTL.IVALL x%d" % (name, len(membars), sorted(set(membars)), cctl))
PY
  fi
  rm -rf "$work"
fi
if want cpp; then
  step cycle-cpp 200 "$bundle/native/seqlink-cycle-bench" --mode all "${cpp_args[@]}" > "$OUT/cycle-cpp.json" 2>> "$log"
fi
if want java; then
  step java-handoff 150 "$JAVA" "${JOPTS[@]}" -cp "$CP" io.seqlink.backend.cuda.HandOffBenchmark "${java_args[@]}" \
    > "$OUT/java-handoff.json" 2>> "$log"
  step java-cycle 240 "$JAVA" "${JOPTS[@]}" -cp "$CP" io.seqlink.backend.cuda.CycleBenchmark --sizes 16384,1048576 "${java_args[@]}" \
    > "$OUT/java-cycle.json" 2>> "$log"
fi
if want litmus; then
  step litmus 180 "$bundle/native/seqlink-litmus" > "$OUT/litmus.json" 2>> "$log"
fi
if want junit; then
  step junit "${JUNIT_LIMIT:-200}" "$JAVA" "${JOPTS[@]}" -cp "$CP" org.junit.platform.console.ConsoleLauncher execute \
    --disable-banner --details=tree --select-package io.seqlink.gpu --select-class io.seqlink.backend.cuda.WaitsReleasedGpuTest \
    --select-class io.seqlink.shared.CudaTwoProcessChannelGpuTest \
    --include-tag gpu > "$OUT/junit.log" 2>&1
  step junit-contract 60 "$JAVA" "${JOPTS[@]}" -cp "$CP" org.junit.platform.console.ConsoleLauncher execute \
    --disable-banner --details=summary --select-class io.seqlink.gpu.KernelLayoutContractTest \
    --select-class io.seqlink.gpu.FramePatternHostContractTest --select-class io.seqlink.gpu.RuntimeFatbinContentsTest \
    --select-class io.seqlink.gpu.DeviceHeadersShippedTest >> "$OUT/junit.log" 2>&1
fi
if want sanitize; then
  : > "$OUT/sanitizer.log"
  for tool in ${SANITIZERS:-memcheck racecheck synccheck}; do
    step "sanitizer-$tool" 120 compute-sanitizer --tool "$tool" --error-exitcode 3 --print-limit 20 \
      "$bundle/native/seqlink-cycle-bench" --mode sanitize >> "$OUT/sanitizer.log" 2>&1
  done
fi
if want sanitize-java; then
  for tool in ${SANITIZERS:-memcheck racecheck synccheck}; do
    echo "==== compute-sanitizer --tool $tool: java BenchMain --scenarios host" >> "$OUT/sanitizer.log"
    host_out=$(mktemp -d)
    step "sanitizer-java-$tool-host" 120 compute-sanitizer --tool "$tool" --error-exitcode 3 --print-limit 20 \
      "$JAVA" "${JOPTS[@]}" -cp "$CP" io.seqlink.bench.BenchMain --backend cuda --scenarios host --sizes 16384 \
      --frames 50 --warmup 10 --slots 16 --comparator none --out "$host_out" >> "$OUT/sanitizer.log" 2>&1
    rm -rf "$host_out"
    echo "==== compute-sanitizer --tool $tool: java CycleBenchmark --mode cycle-device-armed" >> "$OUT/sanitizer.log"
    step "sanitizer-java-$tool-cycle-device-armed" 90 compute-sanitizer --tool "$tool" --error-exitcode 3 --print-limit 20 \
      "$JAVA" "${JOPTS[@]}" -cp "$CP" io.seqlink.backend.cuda.CycleBenchmark --mode cycle-device-armed --sizes 16384 \
      --frames 50 --warmup 10 --slots 16 >> "$OUT/sanitizer.log" 2>&1
  done
fi
if want launch; then
  step launch-variants 60 "$JAVA" "${JOPTS[@]}" -cp "$CP" io.seqlink.backend.cuda.LaunchVariantsBenchmark >> "$log" 2>&1
fi
printf '%s\n' "${status[@]}" >> "$log"
python3 scripts/gpu/fastpath-summary.py "$OUT" "${status[@]}" > "$OUT/summary.txt" 2>&1
cat "$OUT/summary.txt"
