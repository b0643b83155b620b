#!/usr/bin/env bash
set -uo pipefail
B=.gpu
[ -x /tmp/jre/bin/java ] || tar xJf $B/jre.tar.xz -C /tmp
JAVA=/tmp/jre/bin/java
CP="$B/lib/*:$B/test-classes"
for i in 1 2 3; do
  timeout -k 5 100 $JAVA -XX:+UseParallelGC -Xms1g -Xmx4g -cp "$CP" io.seqlink.backend.cuda.CycleBenchmark --mode cycle-device-armed --sizes 16384,1048576 --warmup 10000 > $OUT/rows-$i.json 2>> $OUT/log.txt; echo "rows $i rc=$?" >> $OUT/log.txt
done
timeout -k 5 90 compute-sanitizer --tool memcheck --error-exitcode 3 --print-limit 20 $JAVA -cp "$CP" io.seqlink.backend.cuda.CycleBenchmark --mode cycle-device-armed --sizes 16384 --frames 50 --warmup 10 --slots 16 > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?" >> $OUT/log.txt
grep -h "ERROR SUMMARY" $OUT/memcheck.log >> $OUT/log.txt
