#!/usr/bin/env bash
# Durable PUTs of 20 KiB objects by warp (16 concurrent), for one or more builds of the service
# measured in alternating order in the same run. Per round and build: warp's obj/s, p50 and p99,
# and the service's CPU time per PUT (all its threads; less disturbed by other jobs on the machine
# than obj/s), and the engine's syncs per PUT when strace is there (SYSCALLS=1). Then the medians.
# Each measured run's median and slowest second (objects answered) are printed next to each other;
# a second under a tenth of the median is a stall (warp_summary.py, stalls.py): the round's row
# ends in STALL, the summary line in FAIL, and the script exits with 1 after printing everything.
# usage: service/src/test/bench/put.sh [ROUNDS] [SECONDS]   (from the repository root, after
#        ./mvnw -pl service -am package -DskipTests; builds warp with loadtest/install-peers.sh)
#   JAR=x.jar             the build to measure (default service/target/cairn-service.jar)
#   JARS="old.jar new.jar" several builds, each its own service, measured in alternating order
#   SIZE=20KiB CONCURRENT=16  the objects and the client's concurrency
#   SYSCALLS=1            one more short run per build under strace -c: fsync/fdatasync/write per PUT
set -euo pipefail
ROUNDS=${1:-5}
SECS=${2:-10}
SIZE=${SIZE:-20KiB}
CONCURRENT=${CONCURRENT:-16}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
WORK=$(mktemp -d /tmp/cairn-put-bench.XXXXXX)
KEY=BENCHKEY SECRET=benchsecretbenchsecretbenchsecret1234
JARS=${JARS:-${JAR:-$ROOT/service/target/cairn-service.jar}}
WARP="$("$ROOT/loadtest/install-peers.sh" warp)/warp"
pids=() me=put.sh workdir=$WORK keep=0
# shellcheck source=../../../../loadtest/processes.sh
. "$ROOT/loadtest/processes.sh"
trap cleanup EXIT INT TERM

read -r -a jars <<<"$JARS"
ports=() cairn_pids=()
for i in "${!jars[@]}"; do
  ports+=("$(free_port)")
  java ${BENCH_JAVA_OPTS:-} -jar "${jars[$i]}" --server.address=127.0.0.1 --server.port="${ports[$i]}" \
      --cairn.data-dir="$WORK/data$i" --cairn.auth.access-key=$KEY --cairn.auth.secret-key=$SECRET >"$WORK/cairn$i.log" 2>&1 & pids+=($!) cairn_pids+=($!)
done
for i in "${!jars[@]}"; do await_port "cairn $i" "${ports[$i]}" "${cairn_pids[$i]}"; done
for i in "${!jars[@]}"; do
  for _ in $(seq 120); do curl -sf -o /dev/null "http://127.0.0.1:${ports[$i]}/actuator/health" && break; sleep 0.5; done
done

# warp's summary: obj/s, the p50 and p99 of its requests (ms), failed requests, the median and the
# slowest second's objects, the seconds under a tenth of the median (named on standard error).
warp_put() { # port seconds [--explain]
  "$WARP" put --host "127.0.0.1:$1" --access-key $KEY --secret-key $SECRET --obj.size "$SIZE" \
      --concurrent "$CONCURRENT" --duration "${2}s" --bucket "warp-bench" --noclear --no-color \
      --benchdata "$WORK/warp-$1" >"$WORK/warp.out" 2>&1 || { cat "$WORK/warp.out" >&2; return 1; }
  python3 "$HERE/warp_summary.py" ${3:-} "$WORK/warp.out" "$WORK/warp-$1.csv.zst"
}
# PUTs the service has answered, from its own request counter.
put_count() {
  curl -sf -u "$KEY:$SECRET" "http://127.0.0.1:$1/actuator/prometheus" \
    | awk '/^cairn_s3_requests_seconds_count\{.*operation="PutObject"/ {print int($2)}'
}
HZ=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

# Warm-up: JIT, and the engine's first memtables and files. Its first seconds are the JIT's: not judged.
for i in "${!jars[@]}"; do warp_put "${ports[$i]}" 8 >/dev/null; done

printf '%-5s %-4s %10s %8s %8s %10s %9s %9s\n' round jar 'obj/s' 'p50 ms' 'p99 ms' 'cpu us/put' 'median s' 'slowest s'
declare -A r
stalled_runs=0
for round in $(seq "$ROUNDS"); do
  order=("${!jars[@]}")
  if (( round % 2 == 0 )); then order=($(printf '%s\n' "${order[@]}" | sort -rn)); fi
  for i in "${order[@]}"; do
    p=${ports[$i]} pid=${cairn_pids[$i]}
    c0=$(put_count "$p"); t0=$(cpu_ticks "$pid")
    read -r ops p50 p99 _ med slow stalls < <(warp_put "$p" "$SECS" --explain)
    t1=$(cpu_ticks "$pid"); c1=$(put_count "$p")
    us=$(awk -v a="$t0" -v b="$t1" -v n="$((c1 - c0))" -v hz="$HZ" 'BEGIN {printf "%.0f", (b - a) * 1e6 / hz / n}')
    r[$i.ops]+="$ops " r[$i.p50]+="$p50 " r[$i.p99]+="$p99 " r[$i.us]+="$us " r[$i.stalls]=$(( ${r[$i.stalls]:-0} + stalls ))
    flag=""
    (( stalls == 0 )) || { flag="  STALL: $stalls stalled seconds"; stalled_runs=$((stalled_runs + 1)); }
    printf '%-5s %-4s %10s %8s %8s %10s %9s %9s%s\n' "$round" "$i" "$ops" "$p50" "$p99" "$us" "$med" "$slow" "$flag"
  done
done
json="{\"bench\":\"put\",\"size\":\"$SIZE\",\"concurrent\":$CONCURRENT,\"seconds\":$SECS,\"rounds\":$ROUNDS"
for i in "${!jars[@]}"; do
  m_ops=$(median ${r[$i.ops]}) m_p50=$(median ${r[$i.p50]}) m_p99=$(median ${r[$i.p99]}) m_us=$(median ${r[$i.us]})
  stalls=${r[$i.stalls]:-0}
  verdict="no stall"
  (( stalls == 0 )) || verdict="FAIL: $stalls stalled seconds"
  # A stall the service caused usually leaves a warning in its log; one from the machine's load does not.
  warnings=$(grep -cE '^[0-9TZ:.-]+ +(WARN|ERROR) ' "$WORK/cairn$i.log" || true)
  echo "jar $i (${jars[$i]}): median obj/s $m_ops  p50 $m_p50 ms  p99 $m_p99 ms  service CPU µs per PUT $m_us  $verdict"
  if (( warnings > 0 )); then
    echo "jar $i: the service logged $warnings warnings and errors:"
    grep -E -A3 '^[0-9TZ:.-]+ +(WARN|ERROR) ' "$WORK/cairn$i.log" | head -40 | sed 's/^/  /'
  fi
  json+=",\"jar$i\":{\"objPerSecond\":$m_ops,\"p50Ms\":$m_p50,\"p99Ms\":$m_p99,\"cpuMicrosPerPut\":$m_us,\"stalledSeconds\":$stalls,\"logWarnings\":$warnings}"
done
if (( ${#jars[@]} > 1 )); then
  last=$(( ${#jars[@]} - 1 ))
  ratio=$(awk -v a="$(median ${r[$last.ops]})" -v b="$(median ${r[0.ops]})" 'BEGIN {printf "%.3f", a / b}')
  echo "jar $last / jar 0, median obj/s: $ratio"
  json+=",\"ratioLastToFirst\":$ratio"
fi

if [ "${SYSCALLS:-0}" = 1 ] && command -v strace >/dev/null; then
  for i in "${!jars[@]}"; do
    p=${ports[$i]}
    c0=$(put_count "$p")
    strace -f -c -e trace=fsync,fdatasync,write,pwrite64,writev -o "$WORK/strace$i" -p "${cairn_pids[$i]}" & st=$!
    sleep 1
    warp_put "$p" 5 >/dev/null
    kill -INT $st; wait $st 2>/dev/null || true
    c1=$(put_count "$p")
    echo "jar $i: system calls per PUT over $((c1 - c0)) PUTs:"
    awk -v n="$((c1 - c0))" '$NF ~ /^(fsync|fdatasync|write|pwrite64|writev)$/ {printf "  %-10s %.3f\n", $NF, $4 / n}' "$WORK/strace$i"
  done
fi
echo "$json}"
(( stalled_runs == 0 ))
