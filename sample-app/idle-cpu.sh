#!/usr/bin/env bash
# What an idle seqlink service costs in CPU, read from /proc: for each idle strategy and channel count, starts
# IdleService (8 emulated devices; channel i produced on device i mod 8 and consumed by the 7 others, each with
# a host listener; no frame published), waits until it idles, and reads the process's utime + stime from
# /proc/<pid>/stat at the start and the end of a window. One line per run: strategy, channels, consumers,
# threads, CPU as % of one core, and the machine's load average (1 minute, /proc/loadavg) at the start and the end
# of the window.
#
#   sample-app/idle-cpu.sh [seconds] [strategies] [channel counts]
#   sample-app/idle-cpu.sh 60 "backoff low-latency busy-spin" "1 8 64 256"
#
# IDLE_CP: the classpath (default: built here by Maven from sample-app's test classes and dependencies).
# PARALLEL=n: run up to n services at once (each busy-spin one takes a core per device loop: 8).
# LABEL: a word printed first on every line (e.g. before / after).
# SETTLE: seconds between IDLE READY and the window (default 10: startup's compilation and collections settle; a large
# service's JIT compiler can still be at work then, which a longer SETTLE leaves out).
set -euo pipefail
cd "$(dirname "$0")"
WINDOW=${1:-60}
STRATEGIES=${2:-backoff busy-spin}
COUNTS=${3:-1 8 64 256}
JAVA=${JAVA:-java}
PARALLEL=${PARALLEL:-1}
LABEL=${LABEL:-}
SETTLE=${SETTLE:-10}
if [[ -z "${IDLE_CP:-}" ]]; then
  mvn -B -ntp -q test-compile dependency:build-classpath -Dmdep.outputFile=target/idle-cp.txt -Dmdep.includeScope=test \
    ${MAVEN_REPO:+-Dmaven.repo.local=$MAVEN_REPO}
  IDLE_CP="target/test-classes:target/classes:$(cat target/idle-cp.txt)"
fi
TICKS=$(getconf CLK_TCK)

measure() { # strategy channels
  local strategy=$1 n=$2 log pid a b t0 t1 cpu consumers load0 load1
  log=$(mktemp)
  $JAVA -Xmx1g -cp "$IDLE_CP" io.seqlink.idlecpu.IdleService --channels="$n" \
    --seqlink.launcher.idle-strategy="$strategy" > "$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 1200); do
    grep -q "IDLE READY" "$log" && break
    kill -0 $pid 2>/dev/null || { echo "IdleService $strategy $n exited:" >&2; cat "$log" >&2; return 1; }
    sleep 0.5
  done
  sleep "$SETTLE" # let startup's compilation and collections settle
  read -r -a a < /proc/$pid/stat
  t0=$(date +%s.%N)
  load0=$(cut -d' ' -f1 /proc/loadavg)
  sleep "$WINDOW"
  read -r -a b < /proc/$pid/stat
  t1=$(date +%s.%N)
  load1=$(cut -d' ' -f1 /proc/loadavg)
  consumers=$(sed -n 's/.*IDLE READY [0-9]* channel(s), \([0-9]*\) consumer.*/\1/p' "$log")
  kill $pid; wait $pid 2>/dev/null || true
  cpu=$(echo "(${b[13]} + ${b[14]} - ${a[13]} - ${a[14]}) / $TICKS / ($t1 - $t0) * 100" | bc -l)
  printf '%s%-12s %8d %9s %7s %9.2f %11s\n' "${LABEL:+$LABEL }" "$strategy" "$n" "$consumers" "${b[19]}" "$cpu" "$load0-$load1"
  rm -f "$log"
}

printf '%s%-12s %8s %9s %7s %9s %11s\n' "${LABEL:+label }" strategy channels consumers threads "cpu%" "load"
running=0
for strategy in $STRATEGIES; do
  for n in $COUNTS; do
    measure "$strategy" "$n" &
    running=$((running + 1))
    if (( running >= PARALLEL )); then
      wait -n || true
      running=$((running - 1))
    fi
  done
done
wait
