#!/usr/bin/env bash
# Builds a self-contained bundle (ignored by git, .gpu*/) for running kernels/ucx's benchmark
# (UcxBridgeBenchmarkTests) and the million-frame two-process test on a host with no Java, no Maven,
# no UCX and no network (the GPU host's CPUs). Run HERE, where Debian's libucx0 + ucx-utils are installed.
#
#   OUT/run.sh          unpacks the runtime, points the dynamic loader and UCX at the bundle, runs the tests
#   OUT/jre.tar.xz      trimmed Java 17 runtime (the modules the tests' classpath needs, no java.desktop)
#   OUT/lib/*.jar       JUCX, Agrona, slf4j + logback, AssertJ, Jackson 3, HdrHistogram, JSpecify,
#                       the JUnit console launcher (standalone)
#   OUT/classes/        seqlink-kernels and seqlink-ucx (main), OUT/test-classes/ seqlink-ucx's tests
#   OUT/ucx/lib/        this machine's UCX (libucp, libuct, libucs, libucm) and libnuma; ucx/lib/ucx/ the
#                       transport modules that need nothing else (cma; ib and rdmacm need libibverbs: left out)
#   OUT/ucx/bin/        ucx_info (UcxEnvironment reads UCX's version from it)
#
# Usage: scripts/ucx/build-ucx-bundle.sh [OUT]        (default OUT: .gpu-ucx in the repository root)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=$(mkdir -p "${1:-$root/.gpu-ucx}" && cd "${1:-$root/.gpu-ucx}" && pwd)
junit_console_version=6.0.3
jdk=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
ucx_libdir=/usr/lib/x86_64-linux-gnu
budget_mib=25

mvn_() { mvn -B -ntp -q -o "$@" || mvn -B -ntp -q "$@"; }

echo "[ucx-bundle] compiling kernels/ucx and its tests; resolving their test classpath"
mvn_ -pl kernels/ucx -am -Djcstress.skip=true test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/test-classpath.txt

rm -rf "$out/lib" "$out/classes" "$out/test-classes" "$out/ucx"
mkdir -p "$out/lib" "$out/classes" "$out/ucx/lib/ucx" "$out/ucx/bin"
# the jars the benchmark and the process tests load (no Spring: they do not start a context; no JUnit:
# the console launcher carries its own)
for artifact in agrona jucx slf4j-api jspecify logback-classic logback-core assertj-core jackson-databind jackson-core \
    jackson-annotations HdrHistogram; do
  jar=$(tr ':' '\n' < kernels/ucx/target/test-classpath.txt | grep -E "/$artifact-[0-9][^/]*\.jar$" | head -1)
  [ -n "$jar" ] || { echo "[ucx-bundle] no $artifact jar on kernels/ucx's test classpath" >&2; exit 1; }
  cp "$jar" "$out/lib/"
done
console="$HOME/.m2/repository/org/junit/platform/junit-platform-console-standalone/$junit_console_version/junit-platform-console-standalone-$junit_console_version.jar"
[ -f "$console" ] || mvn -B -q dependency:get -Dartifact="org.junit.platform:junit-platform-console-standalone:$junit_console_version"
cp "$console" "$out/lib/"
cp -r kernels/target/classes "$out/classes/kernels"
rm -f "$out/classes/kernels/io/seqlink/kernels/"*.fatbin   # the emulated backend loads no device code
cp -r kernels/ucx/target/classes "$out/classes/ucx"
cp -r kernels/ucx/target/test-classes "$out/test-classes"

echo "[ucx-bundle] copying UCX from $ucx_libdir"
for lib in libucp.so.0 libuct.so.0 libucs.so.0 libucm.so.0 libnuma.so.1; do
  src=$(readlink -f "$ucx_libdir/$lib")
  [ -f "$src" ] || { echo "[ucx-bundle] $ucx_libdir/$lib is missing: apt-get install libucx0" >&2; exit 1; }
  cp "$src" "$out/ucx/lib/$lib"
done
cp "$(readlink -f "$ucx_libdir/ucx/libuct_cma.so.0")" "$out/ucx/lib/ucx/libuct_cma.so.0"
cp "$(command -v ucx_info)" "$out/ucx/bin/ucx_info" || { echo "[ucx-bundle] no ucx_info: apt-get install ucx-utils" >&2; exit 1; }
cp scripts/ucx/run-ucx-bundle.sh "$out/run.sh"
git log -1 --format='built from %H (%s)' > "$out/BUNDLE.txt"
dpkg-query -W libucx0 ucx-utils libnuma1 >> "$out/BUNDLE.txt" 2>/dev/null || true

if [ ! -f "$out/jre.tar.xz" ]; then
  echo "[ucx-bundle] making the Java runtime"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  "$jdk/bin/jlink" --add-modules java.base,java.compiler,java.logging,java.management,java.naming,java.sql,java.xml,jdk.jfr,jdk.management,jdk.unsupported \
    --strip-debug --no-man-pages --no-header-files --compress=0 --output "$work/jre"
  tar -C "$work" -cf - jre | xz -9 -T2 > "$out/jre.tar.xz"
fi

size=$(du -sm "$out" | cut -f1)
echo "[ucx-bundle] $out: ${size} MiB"
if [ "$size" -gt "$budget_mib" ]; then
  echo "[ucx-bundle] the bundle is ${size} MiB, over the ${budget_mib} MiB budget" >&2
  exit 1
fi
