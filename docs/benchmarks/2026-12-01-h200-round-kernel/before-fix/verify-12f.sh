#!/usr/bin/env bash
# issue-12f verification on the GPU: the GPU suite, compute-sanitizer over the Java device-listener rows
# (armed, in-kernel ack, round kernel), and the device-listener rows twice at 16 KiB and 1 MiB
set -uo pipefail
B=.gpu
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
[ -x /tmp/jre/bin/java ] || tar xJf $B/jre.tar.xz -C /tmp
JAVA=/tmp/jre/bin/java
CP="$B/lib/*:$B/test-classes"
JOPTS=(-XX:+UseParallelGC -Xms1g -Xmx4g -Dseqlink-build.host-check=$B/native/seqlink-host-check -Dseqlink-build.litmus=$B/native/seqlink-litmus)
t0=$(date +%s); log=$OUT/log.txt
for i in 1 2; do
  timeout -k 5 100 $JAVA "${JOPTS[@]}" -cp "$CP" io.seqlink.backend.cuda.CycleBenchmark --mode cycle-device-armed --sizes 16384,1048576 --warmup 10000 > $OUT/rows-$i.json 2>> $log; echo "rows $i rc=$? +$(( $(date +%s) - t0 ))s" >> $log
done
timeout -k 5 200 $JAVA "${JOPTS[@]}" -cp "$CP" org.junit.platform.console.ConsoleLauncher execute --disable-banner --details=tree --select-package io.seqlink.gpu --include-tag gpu > $OUT/junit-raw.log 2>&1; echo "junit rc=$? +$(( $(date +%s) - t0 ))s" >> $log
sed 's/\x1b\[[0-9;]*m//g' $OUT/junit-raw.log > $OUT/junit.log; rm -f $OUT/junit-raw.log
for tool in memcheck racecheck synccheck; do
  timeout -k 5 90 compute-sanitizer --tool $tool --error-exitcode 3 --print-limit 20 $JAVA "${JOPTS[@]}" -cp "$CP" io.seqlink.backend.cuda.CycleBenchmark --mode cycle-device-armed --sizes 16384 --frames 50 --warmup 10 --slots 16 > $OUT/sanitizer-$tool.log 2>&1; echo "sanitizer $tool rc=$? +$(( $(date +%s) - t0 ))s" >> $log
done
grep -E "tests (successful|failed|found)" $OUT/junit.log >> $log
grep -hE "ERROR SUMMARY|RACECHECK SUMMARY" $OUT/sanitizer-*.log >> $log
