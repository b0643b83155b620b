#!/usr/bin/env bash
# Runs ON the GPU host, from the repository root, with .gpu/ built by scripts/gpu/build-bundle.sh and an earlier
# build's seqlink jars in .gpu/before-host/ (copy .gpu/lib/seqlink-*.jar there before rebuilding the bundle): the host
# listener rows of this tree against that build's in one device call, A/B/A (host-path-run.sh quick, 16 KiB and 1 MiB;
# the C++ comparator only in the first A, as the reference). Drift shows as A != A'.
# Writes $OUT/{a,b,a2}-summary.txt, $OUT/results.tar.gz.
# Usage: bash scripts/gpu/host-ab-run.sh [full|quick]     (default quick)
set -uo pipefail
cd "$(dirname "$0")/../.."
final=${OUT:?set OUT}
profile=${1:-quick}
work=/tmp/seqlink-host-ab
rm -rf "$work" /tmp/seqlink-ab-before /tmp/seqlink-ab-after
mkdir -p "$work/a" "$work/b" "$work/a2"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
if ! ls .gpu/before-host/seqlink-kernels-*.jar > /dev/null 2>&1; then
  echo "no .gpu/before-host/seqlink-kernels-*.jar: copy an earlier bundle's seqlink jars there" >&2
  exit 2
fi
# two bundles without the comparator: this tree's and the earlier build's jars with this bundle's other libraries
for side in before after; do
  b=/tmp/seqlink-ab-$side
  mkdir -p "$b/lib" "$b/native"
  cp .gpu/jre.tar.xz "$b/"
  for jar in .gpu/lib/*.jar; do
    case "$(basename "$jar")" in seqlink-*) [ "$side" = after ] && cp "$jar" "$b/lib/" ;; *) cp "$jar" "$b/lib/" ;; esac
  done
done
cp .gpu/before-host/seqlink-*.jar /tmp/seqlink-ab-before/lib/
HOST_ARGS="--sizes 16K,1M" OUT="$work/a" bash scripts/gpu/host-path-run.sh "$profile" > "$work/a/stdout.txt" 2>&1
echo "A exit $?"
HOST_ARGS="--sizes 16K,1M" BUNDLE=/tmp/seqlink-ab-before OUT="$work/b" bash scripts/gpu/host-path-run.sh "$profile" > "$work/b/stdout.txt" 2>&1
echo "B exit $?"
HOST_ARGS="--sizes 16K,1M" BUNDLE=/tmp/seqlink-ab-after OUT="$work/a2" bash scripts/gpu/host-path-run.sh "$profile" > "$work/a2/stdout.txt" 2>&1
echo "A' exit $?"
tar czf "$final/results.tar.gz" -C "$work" .
for s in a b a2; do cp "$work/$s/summary.txt" "$final/$s-summary.txt" 2>/dev/null; done
grep -h "host-launcher \|naive-d2h " "$work"/a/summary.txt "$work"/b/summary.txt "$work"/a2/summary.txt
