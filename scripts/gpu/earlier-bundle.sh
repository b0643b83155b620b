#!/usr/bin/env bash
# Runs ON the GPU host, from the repository root: makes a bundle of an earlier revision at TARGET from this bundle's
# runtime, libraries and natives (.gpu) and that revision's seqlink jars and test classes (SOURCE/lib, SOURCE/test-classes,
# from scripts/gpu/build-before.sh), for scripts that time builds side by side (fastpath-run.sh BUNDLE=TARGET).
# Usage: bash scripts/gpu/earlier-bundle.sh SOURCE TARGET
set -euo pipefail
source_dir=${1:?usage: earlier-bundle.sh SOURCE TARGET}
target=${2:?usage: earlier-bundle.sh SOURCE TARGET}
[ -d "$source_dir/lib" ] || { echo "no $source_dir/lib: run scripts/gpu/build-before.sh <revision> on the build machine" >&2; exit 2; }
rm -rf "$target"
mkdir -p "$target/lib"
cp .gpu/jre.tar.xz "$target/"
cp -r .gpu/native "$target/"
for jar in .gpu/lib/*.jar; do
  case "$(basename "$jar")" in seqlink-*) ;; *) cp "$jar" "$target/lib/" ;; esac
done
cp "$source_dir"/lib/*.jar "$target/lib/"
cp -r "$source_dir/test-classes" "$target/"
