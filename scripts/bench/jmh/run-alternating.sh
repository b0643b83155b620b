#!/usr/bin/env bash
# The producer-path comparison with the jars alternating (before, after, armed, twice), then the 1 -> 1
# end-to-end figures of before and after, for a quiet host (the GPU host).
#
#   JAVA=/path/to/java OUT=/some/dir bash run-alternating.sh
#
#   JARS   folder holding before.jar, after.jar and armed.jar (built by build.sh); default: this script's folder
#   JAVA   java binary, or a JRE directory; default: a JRE unpacked from $JARS/jre.tar.xz, else java on PATH
#   CPUS   taskset cpu list; default 2-5
set -u
here=$(cd "$(dirname "$0")" && pwd)
jars=${JARS:-$here}
out=${OUT:-.}
cpus=${CPUS:-2-5}
java=${JAVA:-}
if [ -z "$java" ] && [ -f "$jars/jre.tar.xz" ]; then
  mkdir -p /tmp/jmh-jre && tar xJf "$jars/jre.tar.xz" -C /tmp/jmh-jre && java=/tmp/jmh-jre/jre/bin/java
fi
java=${java:-java}
[ -d "$java" ] && java=$java/bin/java
mkdir -p "$out"
"$java" -version 2>&1 | head -1; nproc; uptime
for round in 1 2; do
  for side in before after armed; do
    [ -f "$jars/$side.jar" ] || continue
    echo "== round $round $side $(date -u +%T)"
    taskset -c "$cpus" "$java" -jar "$jars/$side.jar" 'io\.seqlink\.jmh\.SeqlinkProducerPathBenchmark\.(offer|batch)$' \
      -f 1 -wi 5 -w 1s -i 5 -r 1s -rf json -rff "$out/pp-$side-$round.json" 2>&1 | grep -E "^Seqlink"
  done
done
for side in before after; do
  echo "== e2e $side $(date -u +%T)"
  taskset -c "$cpus" "$java" -jar "$jars/$side.jar" 'io\.seqlink\.jmh\.SeqlinkEmulatedBenchmark\.(offer|batch)$' -p consumers=1 \
    -f 1 -wi 4 -w 1s -i 5 -r 1s -rf json -rff "$out/e2e-$side.json" 2>&1 | grep -E "^Seqlink"
done
