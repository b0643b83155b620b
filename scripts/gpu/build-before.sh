#!/usr/bin/env bash
# Builds .gpu/before/ (ignored by git): an earlier revision's seqlink jars and kernels test classes, for
# scripts/gpu/before-after-run.sh to time beside this tree's in one device call. Run HERE, after
# scripts/gpu/build-bundle.sh. The revision is built in a temporary worktree (nvcc needed, Maven offline first).
# Usage: scripts/gpu/build-before.sh <revision>
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rev=${1:?usage: build-before.sh <revision>}
tree=$(mktemp -d)/before
git -C "$root" worktree add --detach "$tree" "$rev" >/dev/null
trap 'git -C "$root" worktree remove --force "$tree"' EXIT
mvn_() { mvn -B -q -o "$@" || mvn -B -q "$@"; }
(cd "$tree" && mvn_ -pl kernels,kernels/tools -am -DskipTests -Djcstress.skip=true package \
  && mvn_ -pl kernels -Djcstress.skip=true test-compile)
out="$root/.gpu/before"
rm -rf "$out"
mkdir -p "$out/lib"
cp "$tree"/kernels/target/seqlink-kernels-*.jar "$tree"/kernels/tools/target/seqlink-tools-*.jar "$out/lib/"
rm -f "$out"/lib/*-javadoc.jar "$out"/lib/*-sources.jar  # the runs load classes only
cp -r "$tree/kernels/target/test-classes" "$out/test-classes"
git -C "$tree" rev-parse HEAD > "$out/REVISION"
echo "[before] $(cat "$out/REVISION") in $out: $(du -sh "$out" | cut -f1)"
