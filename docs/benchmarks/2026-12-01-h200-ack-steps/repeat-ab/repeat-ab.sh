#!/usr/bin/env bash
# three alternating repeats of the ack A/B rows: C++ latency (channel vs channel-ack-kernel, steps-armed-taken vs -acking)
# and the Java device-listener rows (cycle-channel-device-armed vs -acking, channel-device-armed vs -acking), 16 KiB
set -uo pipefail
B=.gpu
[ -x /tmp/jre/bin/java ] || tar xJf $B/jre.tar.xz -C /tmp
JAVA=/tmp/jre/bin/java
CP="$B/lib/*:$B/test-classes"
for i in 1 2 3; do
  timeout -k 5 60 $B/native/seqlink-cycle-bench --mode latency --sizes 16384 > $OUT/cpp-$i.json 2>/dev/null; echo "cpp $i rc=$?"
  timeout -k 5 90 $JAVA -XX:+UseParallelGC -Xms1g -Xmx4g -cp "$CP" io.seqlink.backend.cuda.CycleBenchmark --mode cycle-device-armed --sizes 16384 --warmup 10000 > $OUT/java-$i.json 2>/dev/null; echo "java $i rc=$?"
done
