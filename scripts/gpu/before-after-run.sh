#!/usr/bin/env bash
# Runs ON the GPU host, from the repository root, with .gpu/ built by scripts/gpu/build-bundle.sh and an earlier
# revision's jars beside it in .gpu/before/ (scripts/gpu/build-before.sh <revision>): one device call that compares
# this tree with that revision in the same run, then checks this tree.
#   1. this tree's fast path: env, SASS, the C++ comparator, the Java hand-offs and cycle       (fastpath-run.sh)
#   2. the same Java rows with the earlier revision's jars, then this tree's again (A/B/A: drift shows as A != A)
#   3. the host listener against the hand-written device-to-host copy                          (host-path-run.sh)
#   4. this tree's checks: litmus, the GPU suite, compute-sanitizer on the C++ and Java paths  (fastpath-run.sh)
# Everything lands in $OUT/results.tar.gz; the summaries are copied flat into $OUT (8 files at most).
# Usage: bash scripts/gpu/before-after-run.sh      HOST_ARGS (host-path-run.sh's) sizes the host rows; PARTS (ab,host,checks)
#        picks the parts (ab: 1 and 2); A_STEPS (env,sass,cpp,java) are fastpath-run.sh's steps for this tree's first run
set -uo pipefail
cd "$(dirname "$0")/../.."
final=${OUT:?set OUT}
work=/tmp/seqlink-before-after
rm -rf "$work" /tmp/seqlink-before-bundle
mkdir -p "$work/after" "$work/before" "$work/again" "$work/host" "$work/checks"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
start=$(date +%s)
stamp() { echo "[before-after +$(( $(date +%s) - start ))s] $*"; }

# the earlier revision's bundle: this bundle's libraries and natives, that revision's seqlink jars and test classes
before=/tmp/seqlink-before-bundle
bash scripts/gpu/earlier-bundle.sh .gpu/before "$before" || exit 2

parts=${PARTS:-ab,host,checks}
want() { [[ ",$parts," == *",$1,"* ]]; }
if want ab; then
stamp "1/4 this tree: ${A_STEPS:-env,sass,cpp,java}"
OUT="$work/after" STEPS=${A_STEPS:-env,sass,cpp,java} bash scripts/gpu/fastpath-run.sh full > "$work/after/stdout.txt" 2>&1
stamp "exit $?"
stamp "2/4 the earlier revision's java rows, then this tree's again"
OUT="$work/before" BUNDLE="$before" STEPS=java bash scripts/gpu/fastpath-run.sh full > "$work/before/stdout.txt" 2>&1
stamp "exit $?"
OUT="$work/again" STEPS=java bash scripts/gpu/fastpath-run.sh full > "$work/again/stdout.txt" 2>&1
stamp "exit $?"
fi
if want host; then
stamp "3/4 host path"
OUT="$work/host" HOST_LIMIT=${HOST_LIMIT:-200} HOST_ARGS="${HOST_ARGS:-}" bash scripts/gpu/host-path-run.sh full > "$work/host/stdout.txt" 2>&1
stamp "exit $?"
fi
if want checks; then
stamp "4/4 checks: litmus, GPU suite, compute-sanitizer"
OUT="$work/checks" STEPS=litmus,junit,sanitize,sanitize-java bash scripts/gpu/fastpath-run.sh full > "$work/checks/stdout.txt" 2>&1
stamp "exit $?"
fi

tar czf "$final/results.tar.gz" -C "$work" .
for part in after before again host checks; do
  [ -f "$work/$part/summary.txt" ] && cp "$work/$part/summary.txt" "$final/$part-summary.txt"
done
grep -hE "Tests (successful|failed)|tests (successful|failed)|containers failed" "$work/checks/junit.log" 2>/dev/null | head -6
grep -hE "ERROR SUMMARY|exit [1-9]" "$work/checks/sanitizer.log" "$work/checks/run.log" 2>/dev/null | sort | uniq -c | head -20
stamp "done; files: $(cd "$final" && ls | tr '\n' ' ')"
