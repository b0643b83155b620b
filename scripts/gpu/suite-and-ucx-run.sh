#!/usr/bin/env bash
# Runs ON the GPU host, from the repository root, with .gpu/ (scripts/gpu/build-bundle.sh) and .gpu-ucx/
# (scripts/ucx/build-ucx-bundle.sh, its jre.tar.xz left out to fit the carry: .gpu's runtime serves both; the revision
# before authentication's kernels/ucx classes copied in as classes/ucx-old and test-classes-old, and
# scripts/ucx/run-ucx-before-after.sh as ab.sh): one device call that checks a merged tree and times the UCX bridge
# on the host's quiet cores.
#   1. the GPU suite, the contract tests and compute-sanitizer on the C++ sanitize mode and the Java paths
#      (fastpath-run.sh, STEPS=junit,sanitize,sanitize-java)
#   2. the UCX bridge benchmark, this tree's and the earlier revision's classes alternated (ab.sh, HOSTILE=0)
# Writes $OUT/checks-summary.txt, $OUT/ucx-summary.txt and everything in $OUT/results.tar.gz.
set -uo pipefail
cd "$(dirname "$0")/../.."
final=${OUT:?set OUT}
work=/tmp/seqlink-suite-ucx
rm -rf "$work" && mkdir -p "$work/checks" "$work/ucx"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
OUT="$work/checks" STEPS=junit,sanitize,sanitize-java JUNIT_LIMIT=220 bash scripts/gpu/fastpath-run.sh full > "$work/checks/stdout.txt" 2>&1
echo "checks exit $?"
if [ -d .gpu-ucx ]; then
  [ -f .gpu-ucx/jre.tar.xz ] || cp .gpu/jre.tar.xz .gpu-ucx/jre.tar.xz
  OUT="$work/ucx" HOSTILE=0 timeout -k 5 300 bash .gpu-ucx/ab.sh > "$work/ucx/stdout.txt" 2>&1
  echo "ucx exit $?"
fi
tar czf "$final/results.tar.gz" -C "$work" .
cp "$work/checks/summary.txt" "$final/checks-summary.txt" 2>/dev/null
cp "$work/ucx/stdout.txt" "$final/ucx-summary.txt" 2>/dev/null
grep -h "tests successful\|tests failed\|ERROR SUMMARY" "$work/checks/junit.log" "$work/checks/sanitizer.log" 2>/dev/null | sort | uniq -c
grep "^\[ab\]" "$work/ucx/stdout.txt" 2>/dev/null
