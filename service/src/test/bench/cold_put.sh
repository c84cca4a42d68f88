#!/usr/bin/env bash
# A fresh server's first seconds of warp PUT (20 KiB, 16 concurrent), the first benchmark a user
# runs: each round starts every server anew on an empty directory right before its run, in
# alternating order, and stops it after. Servers: Cairn as `bin/cairn serve` starts it (unpacked
# jar and class-data sharing archive), Cairn from the fat jar (`CAIRN_CDS=0`, as before), and MinIO.
# Per run: start-up seconds, warp's obj/s, p50 and p99, the median and slowest second (a second
# under a tenth of the median is a stall: STALL, and the script exits with 1 after printing
# everything); then the medians and Cairn's ratios to MinIO (per round, and of the medians).
# usage: service/src/test/bench/cold_put.sh [ROUNDS] [SECONDS]   (from the repository root; builds
#        warp and MinIO with loadtest/install-peers.sh on first use)
#   SERVERS="serve fat minio"   which to measure
set -euo pipefail
ROUNDS=${1:-3}
SECS=${2:-15}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
read -r -a servers <<<"${SERVERS:-serve fat minio}"
KEY=BENCHKEY SECRET=benchsecretbenchsecretbenchsecret1234
BIN="$("$ROOT/loadtest/install-peers.sh" warp minio)"
PATH="$("$ROOT/bin/test-venv")/bin:$PATH"
pids=() me=cold_put.sh workdir=$(mktemp -d /tmp/cairn-cold-put.XXXXXX) keep=0
# shellcheck source=../../../../loadtest/processes.sh
. "$ROOT/loadtest/processes.sh"
# The servers run in the subshells that measure them: their ids are kept in a file for the exit.
stop_more() { [ -f "$workdir/servers" ] && while read -r p; do kill "$p" 2>/dev/null || true; done <"$workdir/servers"; return 0; }
trap cleanup EXIT INT TERM

# The first `bin/cairn serve` after a build writes the archive when it stops: one short run first.
"$ROOT/bin/cairn" serve --server.address=127.0.0.1 --server.port="$(free_port)" \
    --cairn.data-dir="$workdir/first" >"$workdir/first.log" 2>&1 &
first=$!
for _ in $(seq 240); do grep -q 'Started CairnApplication' "$workdir/first.log" && break; sleep 0.5; done
kill "$first"; wait "$first" 2>/dev/null || true

now() { date +%s.%N; }
run() { # server round
  local s=$1 dir="$workdir/$1-$2" port t0 pid health
  port=$(free_port)
  mkdir -p "$dir"
  t0=$(now)
  case $s in
    serve|fat)
      [ "$s" = fat ] && cds=0 || cds=1
      CAIRN_CDS=$cds "$ROOT/bin/cairn" serve --server.address=127.0.0.1 --server.port="$port" \
          --cairn.data-dir="$dir/data" --cairn.auth.access-key=$KEY --cairn.auth.secret-key=$SECRET \
          >"$dir/server.log" 2>&1 &
      health=actuator/health ;;
    minio)
      MINIO_ROOT_USER=$KEY MINIO_ROOT_PASSWORD=$SECRET MINIO_BROWSER=off "$BIN/minio" server --quiet \
          --address "127.0.0.1:$port" --console-address "127.0.0.1:$(free_port)" "$dir/data" >"$dir/server.log" 2>&1 &
      health=minio/health/ready ;;
  esac
  pid=$!
  echo "$pid" >>"$workdir/servers"
  for _ in $(seq 1200); do curl -sf -o /dev/null "http://127.0.0.1:$port/$health" && break; sleep 0.1; done
  local up
  up=$(awk -v a="$t0" -v b="$(now)" 'BEGIN {printf "%.1f", b - a}')
  "$BIN/warp" put --host "127.0.0.1:$port" --access-key $KEY --secret-key $SECRET --obj.size 20KiB \
      --concurrent 16 --duration "${SECS}s" --bucket warp-bench --noclear --no-color \
      --benchdata "$dir/warp" >"$dir/warp.out" 2>&1 || { cat "$dir/warp.out" >&2; kill "$pid"; return 1; }
  kill "$pid"; wait "$pid" 2>/dev/null || true
  echo "$up $(python3 "$HERE/warp_summary.py" --explain "$dir/warp.out" "$dir/warp.csv.zst")"
}
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

echo "load: $(uptime)"
printf '%-5s %-6s %8s %9s %8s %8s %9s %9s\n' round server 'up s' 'obj/s' 'p50 ms' 'p99 ms' 'median s' 'slowest s'
declare -A r
stalled=0
for round in $(seq "$ROUNDS"); do
  order=("${servers[@]}")
  if (( round % 2 == 0 )); then order=($(printf '%s\n' "${servers[@]}" | tac)); fi
  for s in "${order[@]}"; do
    read -r up ops p50 p99 _ med slow stalls < <(run "$s" "$round")
    r[$s]+="$ops " r[$s.up]+="$up " r[$s.$round]=$ops
    flag=""
    (( stalls == 0 )) || { flag="  STALL: $stalls stalled seconds"; stalled=$((stalled + 1)); }
    printf '%-5s %-6s %8s %9s %8s %8s %9s %9s%s\n' "$round" "$s" "$up" "$ops" "$p50" "$p99" "$med" "$slow" "$flag"
  done
done
echo "load: $(uptime)"
for s in "${servers[@]}"; do
  echo "$s: median obj/s $(median ${r[$s]})  median start-up $(median ${r[$s.up]}) s"
done
if [[ " ${servers[*]} " == *" minio "* ]]; then
  for s in "${servers[@]}"; do
    [ "$s" = minio ] && continue
    per=()
    for round in $(seq "$ROUNDS"); do per+=("$(awk -v a="${r[$s.$round]}" -v b="${r[minio.$round]}" 'BEGIN {printf "%.2f", a / b}')"); done
    echo "$s / minio: per round ${per[*]}  median $(median "${per[@]}")  medians' ratio $(awk -v a="$(median ${r[$s]})" -v b="$(median ${r[minio]})" 'BEGIN {printf "%.2f", a / b}')  (target 3)"
  done
fi
(( stalled == 0 )) || { echo "FAIL: $stalled runs with stalled seconds"; exit 1; }
