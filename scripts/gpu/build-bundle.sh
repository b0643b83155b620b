#!/usr/bin/env bash
# Builds .gpu/ (ignored by git): everything the GPU host needs to run seqlink's GPU suite, benchmarks and
# sanitizer checks without Maven, a JDK or a network. Run HERE (the build machine), then carry `.gpu`
# to the GPU host and run scripts/gpu/run-on-gpu.sh there.
#
#   .gpu/jre.tar.xz          trimmed Java 17 runtime (/work/shared/tools/make-jre.sh)
#   .gpu/lib/*.jar           seqlink-kernels (the runtime, with the fat binary), seqlink-tools (the benchmark
#                            harness, soak runner, CUDA benchmarks) and its libraries (Jackson, HdrHistogram,
#                            JFreeChart, JFreeSVG, JSpecify), JCuda + its driver natives only, slf4j (+ simple),
#                            AssertJ, the JUnit console launcher (standalone)
#   .gpu/test-classes/       the kernels module's compiled tests (io.seqlink.gpu and the rest)
#   .gpu/sample/             with SAMPLE=1 only: the sample service unpacked (classes/, the libraries .gpu/lib lacks
#                            in lib/) and classpath.txt, its classpath over both (JCuda's driver natives only, no
#                            slf4j-simple), for sample-app/gpu-smoke.sh (scripts/gpu/sample-run.sh). It adds 22 MiB:
#                            a device call carries at most 64 MiB with the tracked tree (about 9 MiB), so a call that
#                            runs the sample carries .gpu's parts it needs (not .gpu/native, say), not all of .gpu
#   .gpu/tracing/            the tracing cost harness (TracingCost, from autoconfigure's tests), the auto-configuration
#                            jar (only its Spring-free io.seqlink.spring.observation classes are loaded) and
#                            Micrometer Observation + Tracing over Brave (~1 MiB; scripts/gpu/tracing-cost-run.sh)
#   .gpu/native/             seqlink-cycle-bench (the C++ comparator), seqlink-xproc-baseline (the hand-written
#                            cross-process hand-off), seqlink-host-check, seqlink-litmus (the ordering
#                            litmus tests) and the runtime's PTX
#
# Usage: [SAMPLE=1] scripts/gpu/build-bundle.sh     (needs nvcc; Maven runs offline first, online if that fails)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out="$root/.gpu"
junit_console_version=6.0.3

mvn_() { mvn -B -q -o "$@" || mvn -B -q "$@"; }

echo "[bundle] building the runtime and the tools (nvcc + javac)"
# installed, so that the autoconfigure module's dependency copy below resolves the runtime it depends on
mvn_ -pl kernels,kernels/tools,autoconfigure -am -DskipTests -Djcstress.skip=true -Dseqlink.gpu-programs install
mvn_ -pl kernels -Djcstress.skip=true test-compile
# the jar goes first: with its classes unchanged, the jar plugin keeps the old (already repackaged) jar and the
# repackaged jar keeps the libraries it nested before, the runtime's too
if [ "${SAMPLE:-0}" = 1 ]; then
  rm -f "$root"/sample-app/target/seqlink-sample-app*.jar
  mvn_ -pl sample-app -am -DskipTests -Djcstress.skip=true package
fi
native="$root/kernels/target/native"
tools_native="$root/kernels/tools/target/native"
for bin in "$tools_native/seqlink-cycle-bench" "$tools_native/seqlink-xproc-baseline" "$native/seqlink-host-check" "$native/seqlink-litmus"; do
  [ -x "$bin" ] || { echo "[bundle] $bin was not built (is nvcc installed?)" >&2; exit 1; }
done
[ -f "$root/kernels/target/classes/io/seqlink/kernels/seqlink.fatbin" ] || { echo "[bundle] no fat binary was built" >&2; exit 1; }

rm -rf "$out/lib" "$out/test-classes" "$out/native" "$out/sample"
mkdir -p "$out/lib" "$out/native"
# the tools' runtime classpath: seqlink-kernels, JCuda, slf4j and the report libraries (kernels/tools/target/lib)
find "$root/kernels/tools/target" -maxdepth 1 -name 'seqlink-tools-*.jar' ! -name '*-sources.jar' ! -name '*-javadoc.jar' \
  -exec cp {} "$out/lib/" \;
cp "$root"/kernels/tools/target/lib/*.jar "$out/lib/"
cp -r "$root/kernels/target/test-classes" "$out/test-classes"
cp "$tools_native/seqlink-cycle-bench" "$tools_native/seqlink-xproc-baseline" "$native/seqlink-host-check" "$native/seqlink-litmus" "$native/seqlink_runtime.ptx" "$out/native/"

echo "[bundle] the tracing cost harness"
mvn_ -pl autoconfigure -Djcstress.skip=true test-compile
rm -rf "$out/tracing"
mkdir -p "$out/tracing/classes/io/seqlink/autoconfigure/observation"
cp "$root"/autoconfigure/target/test-classes/io/seqlink/autoconfigure/observation/TracingCost*.class \
  "$out/tracing/classes/io/seqlink/autoconfigure/observation/"
cp "$root"/autoconfigure/target/seqlink-spring-boot-autoconfigure-[0-9]*[0-9T].jar "$out/tracing/"
tracing_deps=$(mktemp -d)
mvn_ -pl autoconfigure dependency:copy-dependencies -DincludeScope=test -DoutputDirectory="$tracing_deps"
for pattern in 'micrometer-commons-*.jar' 'micrometer-observation-[0-9]*.jar' 'micrometer-tracing-[0-9]*.jar' \
    'micrometer-tracing-bridge-brave-*.jar' 'context-propagation-*.jar' 'brave-[0-9]*.jar' 'brave-propagation-tracecontext-*.jar'; do
  found=$(find "$tracing_deps" -maxdepth 1 -name "$pattern" | head -1)
  [ -n "$found" ] || { echo "[bundle] no $pattern among the autoconfigure module's dependencies" >&2; exit 1; }
  cp "$found" "$out/tracing/"
done
rm -rf "$tracing_deps"

echo "[bundle] copying dependencies"
deps=$(mktemp -d)
trap 'rm -rf "$deps"' EXIT
mvn_ -pl kernels dependency:copy-dependencies -DincludeScope=test -DoutputDirectory="$deps"
# the GPU suite's test libraries (the runtime ones came with the tools)
# (AssertJ without Byte Buddy: the suite uses no soft assertions or AssertJ assumptions, which need it)
for pattern in 'assertj-core-*.jar'; do
  found=$(find "$deps" -maxdepth 1 -name "$pattern" | head -1)
  [ -n "$found" ] || { echo "[bundle] no $pattern among the kernels module's dependencies" >&2; exit 1; }
  cp "$found" "$out/lib/"
done
# JCuda's natives jar carries four libraries (25 MB); seqlink loads only the driver API's.
natives=$(find "$deps" -maxdepth 1 -name 'jcuda-natives-*.jar' | head -1)
( cd "$deps" && mkdir -p natives && cd natives && unzip -q "$natives" 'lib/libJCudaDriver-*' 'META-INF/MANIFEST.MF' \
  && zip -q -r "$out/lib/jcuda-natives-driver-only.jar" . )
console="$HOME/.m2/repository/org/junit/platform/junit-platform-console-standalone/$junit_console_version/junit-platform-console-standalone-$junit_console_version.jar"
if [ ! -f "$console" ]; then
  mvn -B -q dependency:get -Dartifact="org.junit.platform:junit-platform-console-standalone:$junit_console_version"
fi
cp "$console" "$out/lib/"

if [ "${SAMPLE:-0}" = 1 ]; then
  echo "[bundle] unpacking the sample service"
  sample_jar="$root/sample-app/target/seqlink-sample-app.jar"
  mkdir -p "$out/sample/lib"
  ( cd "$out/sample" && unzip -q "$sample_jar" 'BOOT-INF/classes/*' 'BOOT-INF/lib/*' && mv BOOT-INF/classes classes )
  : > "$out/sample/classpath.txt"
  entries=(.gpu/sample/classes)
  for jar in "$out"/sample/BOOT-INF/lib/*.jar; do
    name=$(basename "$jar")
    if [[ $name == jcuda-natives-* ]]; then
      entries+=(.gpu/lib/jcuda-natives-driver-only.jar)
    elif [ -f "$out/lib/$name" ]; then
      entries+=(".gpu/lib/$name")
    else
      mv "$jar" "$out/sample/lib/"
      entries+=(".gpu/sample/lib/$name")
    fi
  done
  rm -rf "$out/sample/BOOT-INF"
  (IFS=:; echo "${entries[*]}") > "$out/sample/classpath.txt"
fi

if [ ! -f "$out/jre.tar.xz" ]; then
  echo "[bundle] making the Java runtime"
  /work/shared/tools/make-jre.sh "$out/jre.tar.xz"
fi

size=$(du -sm "$out" | cut -f1)
echo "[bundle] $out: ${size} MiB"
ls -la "$out" "$out/lib" "$out/native"
if [ "$size" -gt 60 ]; then
  echo "[bundle] .gpu is ${size} MiB, over the 60 MiB budget" >&2
  exit 1
fi
tracked=$(git -C "$root" ls-files -z | du --files0-from=- -cm 2>/dev/null | tail -1 | cut -f1)
if [ $((size + tracked)) -gt 63 ]; then
  echo "[bundle] .gpu (${size} MiB) and the tracked tree (${tracked} MiB) are over a device call's 64 MiB: carry the parts" \
    "of .gpu a call needs (a sample run needs jre.tar.xz, lib and sample; the rows need native)"
fi
