#!/usr/bin/env bash
# Builds one runnable JMH jar from a seqlink checkout: build.sh CHECKOUT OUT.jar
# (test-compile runs JMH's annotation processor; package copies the runtime deps to kernels/tools/target/lib).
set -euo pipefail
tree=$(realpath "$1"); out=$(realpath -m "$2")
m2=${M2_REPO:-$HOME/.m2/repository}
(cd "$tree" && mvn -B -ntp -o -q -pl kernels/tools -am package -DskipTests -Djcstress.skip=true)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
jars=()
for j in "$tree"/kernels/tools/target/lib/*.jar; do
  case $(basename "$j") in jfreechart-*|org.jfree.svg-*|jackson-*|HdrHistogram-*) ;; *) jars+=("$j") ;; esac
done
jars+=("$m2/org/openjdk/jmh/jmh-core/1.37/jmh-core-1.37.jar"
       "$m2/net/sf/jopt-simple/jopt-simple/5.0.4/jopt-simple-5.0.4.jar"
       "$m2/org/apache/commons/commons-math3/3.6.1/commons-math3-3.6.1.jar"
       "$m2/com/lmax/disruptor/4.0.0/disruptor-4.0.0.jar")
for j in "${jars[@]}"; do (cd "$stage" && unzip -qo "$j" -x 'META-INF/*.SF' 'META-INF/*.RSA' 'META-INF/*.DSA' 'META-INF/MANIFEST.MF' 'module-info.class' 'META-INF/versions/*/module-info.class' 2>&1 | grep -v "excluded filename not matched" || true); done
# the benchmarks and JMH's generated stubs + META-INF/BenchmarkList last, so they win
mkdir -p "$stage/io/seqlink/jmh" "$stage/META-INF"
cp -r "$tree"/kernels/tools/target/test-classes/io/seqlink/jmh/. "$stage/io/seqlink/jmh/"
cp "$tree"/kernels/tools/target/test-classes/META-INF/BenchmarkList "$tree"/kernels/tools/target/test-classes/META-INF/CompilerHints "$stage/META-INF/"
(cd "$stage" && jar --create --file "$out" --main-class org.openjdk.jmh.Main .)
ls -la "$out"
