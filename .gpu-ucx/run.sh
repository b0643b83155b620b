#!/usr/bin/env bash
# run.sh of the bundle that scripts/ucx/build-ucx-bundle.sh makes: runs kernels/ucx's benchmark
# (UcxBridgeBenchmarkTests) and then the million-frame two-process test through the JUnit console
# launcher, with nothing from the host but its C library, libstdc++ and a shell: the bundle's Java
# runtime, its UCX (LD_LIBRARY_PATH, UCX_MODULE_DIR) and UCX_TLS=tcp over loopback.
# Writes under $OUT: ucx-bench/ucx-bench.{json,md}, ucx-peers/*.log, junit-*/ (XML reports), *.log, host.txt.
#
# Usage: OUT=/some/dir bash run.sh        (limits: BENCH_LIMIT_S=90, MILLION_LIMIT_S=60; MILLION_LIMIT_S=0 skips it)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/seqlink-ucx-out}
mkdir -p "$out"

jre_parent=${TMPDIR:-/tmp}/seqlink-ucx-jre
rm -rf "$jre_parent" && mkdir -p "$jre_parent" && tar -xJf "$here/jre.tar.xz" -C "$jre_parent" || { echo "[run] cannot unpack the JRE" >&2; exit 1; }
java=$jre_parent/jre/bin/java
export JAVA_HOME=$jre_parent/jre
export LD_LIBRARY_PATH=$here/ucx/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export UCX_MODULE_DIR=$here/ucx/lib/ucx
export UCX_TLS=tcp
export NCCL_NVLS_ENABLE=0
export PATH=$here/ucx/bin:$PATH
unset JAVA_TOOL_OPTIONS _JAVA_OPTIONS JDK_JAVA_OPTIONS

{
  echo "date: $(date -u +%FT%TZ)"
  echo "nproc: $(nproc)"
  echo "uname: $(uname -a)"
  echo "libc: $(ldd --version 2>&1 | head -1)"
  echo "load: $(cat /proc/loadavg 2>/dev/null)"
  echo "java: $("$java" -version 2>&1 | head -1) ($java)"
  echo "ucx_info: $(ucx_info -v 2>&1 | grep -i version | head -1) ($(command -v ucx_info))"
  echo "tcp devices: $(ucx_info -d 2>/dev/null | grep -A1 'Transport: tcp' | grep Device | awk '{print $3}' | tr '\n' ' ')"
  echo "bundle: $(head -1 "$here/BUNDLE.txt" 2>/dev/null)"
} | tee "$out/host.txt"

cp="$here/classes/kernels:$here/classes/ucx:$here/test-classes"
for jar in "$here"/lib/*.jar; do cp="$cp:$jar"; done

# One launcher run in a process group of its own (the two-process test's peer JVMs join it), killed whole
# past its limit. The peers start with this JVM's java and class path (PeerProcess), so the bundle's.
launch() {
  local name=$1 limit=$2
  shift 2
  setsid "$java" -Dseqlink-build.ucx-reports="$out/ucx-bench" -cp "$cp" org.junit.platform.console.ConsoleLauncher execute \
    --disable-banner --details=tree --reports-dir="$out/junit-$name" "$@" > "$out/$name.log" 2>&1 &
  local pid=$! start=$SECONDS
  while kill -0 "$pid" 2>/dev/null; do
    if [ $((SECONDS - start)) -ge "$limit" ]; then
      echo "[run] $name: past ${limit} s, killing its process group" | tee -a "$out/$name.log"
      kill -TERM -- "-$pid" 2>/dev/null; sleep 3; kill -KILL -- "-$pid" 2>/dev/null
      break
    fi
    sleep 1
  done
  wait "$pid"
  local rc=$?
  echo "[run] $name: exit $rc after $((SECONDS - start)) s; $(grep -E 'tests (successful|failed|aborted)' "$out/$name.log" | tr -s ' ' | tr '\n' ' ')"
  return "$rc"
}

launch benchmark "${BENCH_LIMIT_S:-90}" --select-class=io.seqlink.ucx.bench.UcxBridgeBenchmarkTests
bench_rc=$?
million_rc=0
if [ "${MILLION_LIMIT_S:-60}" -gt 0 ]; then
  launch million "${MILLION_LIMIT_S:-60}" \
    --select-method='io.seqlink.ucx.process.TwoProcessBridgeTests#carriesAMillionChecksummedFramesBetweenTwoProcessesWithNoneLostDuplicatedOrCorrupt'
  million_rc=$?
fi

echo
if [ -f "$out/ucx-bench/ucx-bench.md" ]; then
  cat "$out/ucx-bench/ucx-bench.md"
else
  echo "[run] no ucx-bench.md; the benchmark log's tail:"; tail -40 "$out/benchmark.log"
fi
[ "$million_rc" -eq 0 ] || { echo "[run] the million-frame test's log tail:"; tail -40 "$out/million.log"; }
rm -rf "$jre_parent"
[ "$bench_rc" -eq 0 ] && [ "$million_rc" -eq 0 ]
