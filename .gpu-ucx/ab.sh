#!/usr/bin/env bash
# The bridge benchmark (UcxBridgeBenchmarkTests) with seqlink-ucx's classes of two revisions, interleaved
# (after, before, three times each, in one sitting: the same machine and load for both), then, unless
# HOSTILE=0, HostilePeerTests twice. Runs from a bundle of scripts/ucx/build-ucx-bundle.sh to which the
# other revision's kernels/ucx/target/classes and test-classes were copied as classes/ucx-old and
# test-classes-old (build that revision elsewhere, e.g. from `git archive REV | tar -x -C DIR`).
#
# Usage: cp scripts/ucx/run-ucx-before-after.sh BUNDLE/ab.sh && OUT=/some/dir [HOSTILE=0] bash BUNDLE/ab.sh
# Writes OUT/{after,before}-N/ucx-bench/ucx-bench.{json,md}, OUT/*.log, OUT/host.txt.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/seqlink-ucx-out}
mkdir -p "$out"
jre_parent=${TMPDIR:-/tmp}/seqlink-ucx-jre
rm -rf "$jre_parent" && mkdir -p "$jre_parent" && tar -xJf "$here/jre.tar.xz" -C "$jre_parent"
java=$jre_parent/jre/bin/java
export JAVA_HOME=$jre_parent/jre
export LD_LIBRARY_PATH=$here/ucx/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export UCX_MODULE_DIR=$here/ucx/lib/ucx
export UCX_TLS=tcp
export PATH=$here/ucx/bin:$PATH
unset JAVA_TOOL_OPTIONS _JAVA_OPTIONS JDK_JAVA_OPTIONS
{ echo "date: $(date -u +%FT%TZ)"; echo "nproc: $(nproc)"; echo "load: $(cat /proc/loadavg)"; echo "uname: $(uname -a)"; } | tee "$out/host.txt"
libs=""; for jar in "$here"/lib/*.jar; do libs="$libs:$jar"; done
run() { # name classes test-classes limit selector
  local name=$1 main=$2 tests=$3 limit=$4; shift 4
  mkdir -p "$out/$name"
  timeout "$limit" "$java" -Dseqlink-build.ucx-reports="$out/$name/ucx-bench" -cp "$here/classes/kernels:$here/classes/$main:$here/$tests$libs" \
    org.junit.platform.console.ConsoleLauncher execute --disable-banner --details=tree --reports-dir="$out/$name/junit" "$@" > "$out/$name.log" 2>&1
  echo "[ab] $name exit $? $(grep -E 'tests (successful|failed)' "$out/$name.log" | tr -s ' ' | tr '\n' ' ') load $(cut -d' ' -f1-3 /proc/loadavg)"
}
B=--select-class=io.seqlink.ucx.bench.UcxBridgeBenchmarkTests
for i in 1 2 3; do
  run "after-$i" ucx test-classes 120 "$B"
  run "before-$i" ucx-old test-classes-old 120 "$B"
done
for f in after-1 before-1 after-2 before-2 after-3 before-3; do echo "== $f"; cat "$out/$f/ucx-bench/ucx-bench.md" 2>/dev/null; done
if [ "${HOSTILE:-1}" = 1 ]; then
  for i in 1 2; do
    run "hostile-$i" ucx test-classes 200 --select-class=io.seqlink.ucx.process.HostilePeerTests
  done
  mkdir -p "$out/peers"; cp -r "$(dirname "$out/x")"/hostile-1/ucx-peers "$out/peers/hostile-1" 2>/dev/null || true
fi
rm -rf "$jre_parent"
