#!/usr/bin/env bash
# The service end to end at growing object counts: for each count, a fresh Cairn service (embedded
# engine) loaded through S3 with the load generator's image-like objects, a clean stop and start, cold
# GETs over plain HTTP right after the start and again with the service warm, and a kill -9 during
# PUTs and a start. Prints two tables and one JSON
# line. See docs/load-benchmarks.md, "Scale".
#
# usage: loadtest/scale-service.sh [options]
#   --sizes LIST        object counts, comma-separated (default 100000,1000000)
#   --dir DIR           where the data goes, one directory per count, deleted after its run
#                       (default: a fresh temporary directory)
#   --threads N         loader and client threads (default 16)
#   --duration S        seconds of each cold GET run (default 30)
#   --min-free-gb G     free space the run must leave on DIR's file system: it refuses to start a
#                       count, or stops its load, rather than go below (default 12)
#   --no-drop-caches    do not drop the page cache before each start and GET run (dropped as root)
#
# Needs redis-server, curl and jq. Everything listens on free loopback ports; a trap stops it all
# and deletes the data, also on failure.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

sizes=100000,1000000 dir="" threads=16 duration=30 min_free_gb=12 drop=1
while [ $# -gt 0 ]; do
  case "$1" in
    --sizes) sizes=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --duration) duration=${2%s}; shift 2 ;;
    --min-free-gb) min_free_gb=$2; shift 2 ;;
    --no-drop-caches) drop=0; shift ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "scale-service: unknown option $1" >&2; exit 2 ;;
  esac
done
for b in redis-server curl jq; do
  command -v "$b" >/dev/null || { echo "scale-service: $b is not installed" >&2; exit 2; }
done
[ -w /proc/sys/vm/drop_caches ] || drop=0

keep=0
if [ -z "$dir" ]; then
  workdir=$(mktemp -d -t cairn-scale-service.XXXXXX)
else
  mkdir -p "$dir"
  workdir=$(mktemp -d "$(cd "$dir" && pwd)/service.XXXXXX")
fi
mkdir -p "$workdir/redis" "$workdir/results"
pids=()
cairn_pid=""
me=scale-service
stop_more() {
  if [ -n "$cairn_pid" ]; then kill -9 "$cairn_pid" 2>/dev/null || true; fi
}
# shellcheck source=processes.sh
. "$root/loadtest/processes.sh"
trap cleanup EXIT INT TERM

min_free_kb=$(awk -v g="$min_free_gb" 'BEGIN { printf "%d", g * 1e9 / 1024 }')
free_kb() { df -Pk "$workdir" | awk 'NR == 2 { print $4 }'; }
drop_caches() { # why
  if [ "$drop" = 1 ]; then
    sync
    echo 3 >/proc/sys/vm/drop_caches
    echo "$me: page cache dropped $1" >&2
  fi
}
now_ms() { date +%s%3N; }
proc_io() { awk '/^read_bytes|^write_bytes|^cancelled_write_bytes/ { printf "%s ", $2 } END { print "" }' "/proc/$1/io"; }
device_stat_file() {
  local dev
  dev=$(stat -c '%d' "$workdir")
  echo "/sys/dev/block/$((dev >> 8 & 0xfff | (dev >> 32 & ~0xfff))):$((dev & 0xff | (dev >> 12 & ~0xff)))/stat"
}
device_reads() { # reads completed and sectors read by the whole device
  local f
  f=$(device_stat_file)
  if [ -r "$f" ]; then awk '{ print $1, $3 }' "$f"; else echo "0 0"; fi
}
device_written() { # 512-byte sectors written by the whole device
  local f
  f=$(device_stat_file)
  if [ -r "$f" ]; then awk '{ print $7 }' "$f"; else echo 0; fi
}
metric() { # name: one value from the service's Prometheus page
  curl -fsS -u "$access_key:$secret_key" "http://127.0.0.1:$cairn_port/actuator/prometheus" |
    awk -v m="$1" 'index($1, m) == 1 && substr($1, length(m) + 1, 1) ~ /^(\{|)$/ { v += $2; found = 1 }
      END { print found ? v : 0 }'
}

redis_port=$(free_port)
"$(command -v redis-server)" --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize no \
  --dir "$workdir/redis" >"$workdir/redis/redis.log" 2>&1 &
pids+=($!)
await_port redis-server "$redis_port" "${pids[-1]}"

access_key=scale
secret_key=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
lt() { "$root/bin/cairn" loadtest "$@"; }
# For clients run in the background: bin/cairn execs the JVM, so $! is the client itself and a kill stops
# it. A backgrounded shell function would leave its JVM running after the kill.
lt_exec() { exec "$root/bin/cairn" loadtest "$@"; }
# Builds the tools and the service jar (when missing or older than their sources) before anything is timed.
"$root/bin/cairn" loadtest --help >/dev/null
"$root/bin/cairn" keys --help >/dev/null 2>&1 || true
[ -e "$root/service/target/cairn-service.jar" ] || { echo "$me: the service jar is missing" >&2; exit 2; }

start_cairn() { # data-dir log; sets cairn_pid and start_ms (time until a signed request answers)
  local t0=$(now_ms)
  SERVER_PORT=$cairn_port SERVER_ADDRESS=127.0.0.1 CAIRN_DATA_DIR="$1" \
    CAIRN_AUTH_ACCESS_KEY=$access_key CAIRN_AUTH_SECRET_KEY=$secret_key \
    java ${CAIRN_JAVA_OPTS:-} -jar "$root/service/target/cairn-service.jar" >>"$2" 2>&1 &
  cairn_pid=$!
  for _ in $(seq 1 6000); do
    if curl -fsS -o /dev/null -u "$access_key:$secret_key" "http://127.0.0.1:$cairn_port/actuator/health" 2>/dev/null; then
      start_ms=$(( $(now_ms) - t0 ))
      return 0
    fi
    if ! kill -0 "$cairn_pid" 2>/dev/null; then
      echo "$me: the service exited while starting; the end of its log (deleted at exit):" >&2
      tail -n 60 "$2" >&2
      exit 1
    fi
    sleep 0.05
  done
  echo "$me: the service did not start; the end of its log (deleted at exit):" >&2
  tail -n 60 "$2" >&2
  exit 1
}
stop_cairn() { # signal; sets stop_ms
  local t0=$(now_ms)
  kill "-$1" "$cairn_pid" 2>/dev/null || true
  wait "$cairn_pid" 2>/dev/null || true
  stop_ms=$(( $(now_ms) - t0 ))
  cairn_pid=""
}
num() { # a JSON number, or null for anything else
  if [[ $1 =~ ^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$ ]]; then echo "$1"; else echo null; fi
}
run_figures() { # result file -> "ops/s p50-ms p99-ms errors"
  jq -r '.perOperation | to_entries[0].value | [.opsPerSecond, .p50Ms, .p99Ms, .errorCount] | @tsv' "$1"
}

# Cold GETs of uniform keys for $duration seconds, the page cache dropped first; sets get_ops, get_p50,
# get_p99, get_errors and, per GET, device_reads_per_get, block_reads_per_get, bytes_per_get.
# Run twice per count: "just started" (right after a start: the JVM's compilers still warming the GET
# path) and "service warm" (the same service again, its page cache dropped once more).
cold_gets() { # phase name
  local phase=$1 tag=${1// /-}
  echo "== $count objects: cold GETs over plain HTTP, uniform keys, ${duration}s, $phase" >&2
  drop_caches "before the cold GETs ($phase)"
  local rb0 rb1 dr0 dr1 bm0 bm1 gets out="$workdir/results/get-$tag-$count.json"
  read -r rb0 _ _ < <(proc_io "$cairn_pid")
  read -r dr0 _ < <(device_reads)
  bm0=$(metric cairn_engine_block_cache_misses)
  lt run "${common[@]}" --http "http://127.0.0.1:$cairn_port/scale/" -w read-only --distribution uniform \
    --threads "$threads" --duration "${duration}s" --ops 100000000 --quiet --label "cold-get-$tag-$count" \
    --out "$out" >&2
  read -r rb1 _ _ < <(proc_io "$cairn_pid")
  read -r dr1 _ < <(device_reads)
  bm1=$(metric cairn_engine_block_cache_misses)
  read -r get_ops get_p50 get_p99 get_errors < <(run_figures "$out")
  gets=$(jq '.perOperation | to_entries[0].value.count' "$out")
  per_get() { awk -v a="$1" -v n="$gets" 'BEGIN { printf "%.3f", (n > 0 ? a / n : 0) }'; }
  bytes_per_get=$(per_get $((rb1 - rb0)))
  device_reads_per_get=$(per_get $((dr1 - dr0)))
  block_reads_per_get=$(per_get $((bm1 - bm0)))
}

rows=()
warm_rows=()
json_rows=()
IFS=, read -r -a counts <<<"$sizes"
for count in "${counts[@]}"; do
  data="$workdir/cairn-$count"
  log="$workdir/results/cairn-$count.log"
  mkdir -p "$data"
  need_kb=$(( count * 29 ))  # about 26.4 KiB of content per object, plus rows, LSM and slack
  if [ $(( $(free_kb) - need_kb )) -lt "$min_free_kb" ]; then
    echo "$me: $count objects need about $((need_kb / 1000000)) GB; $(( $(free_kb) / 1000000 )) GB free and $min_free_gb GB must stay free" >&2
    exit 1
  fi
  cairn_port=$(free_port)
  start_cairn "$data" "$log"
  common=(--redis "127.0.0.1:$redis_port" --dataset "scale$count")
  s3=(--endpoint "http://127.0.0.1:$cairn_port" --bucket scale --access-key "$access_key" --secret-key "$secret_key")

  echo "== $count objects: load through S3 ($threads threads)" >&2
  read -r rb0 wb0 cw0 < <(proc_io "$cairn_pid")
  dw0=$(device_written)
  lt_exec load "${common[@]}" "${s3[@]}" --public-read --count "$count" --threads "$threads" \
    >"$workdir/results/load-$count.txt" 2>&1 &
  load_pid=$!
  pids+=("$load_pid")
  while kill -0 "$load_pid" 2>/dev/null; do
    if [ "$(free_kb)" -lt "$min_free_kb" ]; then
      kill "$load_pid"
      echo "$me: free space fell below $min_free_gb GB during the load; stopped" >&2
      exit 1
    fi
    sleep 2
  done
  if ! wait "$load_pid"; then
    cat "$workdir/results/load-$count.txt" >&2
    echo "$me: the service's warnings and errors during the load (its log is deleted at exit):" >&2
    grep -E -A4 '^[0-9TZ:.-]+ +(WARN|ERROR) ' "$log" | tail -n 60 >&2 || true
    exit 1
  fi
  summary=$(grep '^loaded ' "$workdir/results/load-$count.txt")
  echo "$summary" >&2
  load_ops=$(sed -E 's/.* ([0-9,.]+) objects\/s.*/\1/' <<<"$summary" | tr -d ,)
  load_mbs=$(sed -E 's/.* ([0-9,.]+) MB\/s.*/\1/' <<<"$summary" | tr -d ,)
  load_mb=$(sed -E 's/.*objects \([^)]*\), ([0-9,.]+) MB in.*/\1/' <<<"$summary" | tr -d ,)
  # Background writes (flushes, compactions) settle; write amplification counts them too.
  last=-1
  for _ in $(seq 1 120); do
    read -r _ wb _ < <(proc_io "$cairn_pid")
    [ $((wb - last)) -lt 1048576 ] && break
    last=$wb
    sleep 1
  done
  read -r rb1 wb1 cw1 < <(proc_io "$cairn_pid")
  dw1=$(device_written)
  write_amp=$(awk -v w=$((wb1 - wb0 - (cw1 - cw0))) -v mb="$load_mb" 'BEGIN { printf "%.3f", w / (mb * 1e6) }')
  write_amp_disk=$(awk -v w=$(((dw1 - dw0) * 512)) -v mb="$load_mb" 'BEGIN { printf "%.3f", (w > 0 ? w / (mb * 1e6) : 0) }')
  data_gb=$(du -sk "$data" | awk '{ printf "%.1f", $1 * 1024 / 1e9 }')

  stop_cairn TERM
  clean_stop_ms=$stop_ms
  drop_caches "before the start after a clean stop"
  start_cairn "$data" "$log"
  open_clean_ms=$start_ms
  index_filter=$(metric cairn_engine_index_filter_bytes)  # after the open, which flushes the log into a table

  cold_gets "just started"
  started=("$get_ops" "$get_p50" "$get_p99" "$get_errors" "$device_reads_per_get" "$block_reads_per_get" "$bytes_per_get")
  cold_gets "service warm"
  warm=("$get_ops" "$get_p50" "$get_p99" "$get_errors" "$device_reads_per_get" "$block_reads_per_get" "$bytes_per_get")
  read -r get_ops get_p50 get_p99 get_errors device_reads_per_get block_reads_per_get bytes_per_get <<<"${started[*]}"

  echo "== $count objects: kill -9 during PUTs, then start" >&2
  lt_exec run "${common[@]}" "${s3[@]}" -w write-only --threads "$threads" --duration 30s --ops 100000000 \
    --quiet --label "put-$count" --out "$workdir/results/put-$count.json" >/dev/null 2>&1 &
  put_pid=$!
  pids+=("$put_pid")
  sleep 5
  stop_cairn KILL
  kill "$put_pid" 2>/dev/null || true
  wait "$put_pid" 2>/dev/null || true
  drop_caches "before the start after kill -9"
  start_cairn "$data" "$log"
  open_kill_ms=$start_ms
  stop_cairn TERM
  rm -rf "$data"

  rows+=("$(printf '%-9s %8s %9.0f %7.1f %13s %8.0f %6.2f %7.2f %7.3f %8.3f %9s %8.0f %5s %10s %9s %9s' \
    "$count" "$data_gb" "$load_ops" "$load_mbs" "$write_amp/$write_amp_disk" "$get_ops" "$get_p50" "$get_p99" \
    "$device_reads_per_get" "$block_reads_per_get" "$(printf '%.0f' "$bytes_per_get")" \
    "$(awk -v b="$index_filter" -v n="$count" 'BEGIN { printf "%.1f", b / n }')" "$get_errors" \
    "$clean_stop_ms" "$open_clean_ms" "$open_kill_ms")")
  echo "$me: ${rows[-1]}" >&2
  warm_rows+=("$(printf '%-9s %8.0f %6.2f %7.2f %7.3f %8.3f %9.0f %5s' "$count" "${warm[0]}" "${warm[1]}" "${warm[2]}" \
    "${warm[4]}" "${warm[5]}" "${warm[6]}" "${warm[3]}")")
  index_filter_per_object=$(awk -v b="$index_filter" -v n="$count" 'BEGIN { printf "%.3f", b / n }')
  json_rows+=("$(printf '{"objects":%s,"data_gb":%s,"load_ops":%s,"load_mb_per_s":%s,"write_amp_kernel_count":%s,"write_amp_disk":%s,'\
'"get_ops":%s,"get_p50_ms":%s,"get_p99_ms":%s,"get_errors":%s,"device_reads_per_get":%s,'\
'"block_reads_per_get":%s,"read_bytes_per_get":%s,"index_filter_bytes_per_object":%s,"stop_ms":%s,'\
'"start_after_stop_ms":%s,"start_after_kill_ms":%s,"warm":{"get_ops":%s,"get_p50_ms":%s,"get_p99_ms":%s,'\
'"get_errors":%s,"device_reads_per_get":%s,"block_reads_per_get":%s,"read_bytes_per_get":%s}}' "$(num "$count")" "$(num "$data_gb")" "$(num "$load_ops")" \
    "$(num "$load_mbs")" "$(num "$write_amp")" "$(num "$write_amp_disk")" "$(num "$get_ops")" "$(num "$get_p50")" "$(num "$get_p99")" \
    "$(num "$get_errors")" "$(num "$device_reads_per_get")" "$(num "$block_reads_per_get")" \
    "$(num "$bytes_per_get")" "$(num "$index_filter_per_object")" "$(num "$clean_stop_ms")" \
    "$(num "$open_clean_ms")" "$(num "$open_kill_ms")" "$(num "${warm[0]}")" "$(num "${warm[1]}")" "$(num "${warm[2]}")" \
    "$(num "${warm[3]}")" "$(num "${warm[4]}")" "$(num "${warm[5]}")" "$(num "${warm[6]}")")")
done

echo
echo "Scale through the service: load via S3 ($threads threads), cold GETs via plain HTTP just after a start (uniform keys," \
  "${duration}s), page cache $([ "$drop" = 1 ] && echo "dropped (sync; echo 3 > /proc/sys/vm/drop_caches) before each start and GET run" || echo "NOT dropped")."
printf '%-9s %8s %9s %7s %13s %8s %6s %7s %7s %8s %9s %8s %5s %10s %9s %9s\n' objects "data GB" "load o/s" \
  "MB/s" "write amp" "GET/s" "p50" "p99 ms" "dev rd" "blocks" "bytes" "idx+filt" errs "stop ms" "start ms" "start ms"
printf '%-9s %8s %9s %7s %13s %8s %6s %7s %7s %8s %9s %8s %5s %10s %9s %9s\n' "" "" "" "" "(kern/disk)" "" "" "" \
  "/GET" "/GET" "read/GET" "B/obj" "" "(clean)" "(clean)" "(kill -9)"
printf '%s\n' "${rows[@]}"
echo
echo "The same cold GETs again, service warm (its compilers done with the GET path; page cache dropped again):"
printf '%-9s %8s %6s %7s %7s %8s %9s %5s\n' objects "GET/s" "p50" "p99 ms" "dev rd" "blocks" "bytes" errs
printf '%-9s %8s %6s %7s %7s %8s %9s %5s\n' "" "" "" "" "/GET" "/GET" "read/GET" ""
printf '%s\n' "${warm_rows[@]}"
echo
echo "write amp: the kernel's count of the service's dirtied bytes (/proc/<pid>/io, a whole large folio per dirtied"
echo "block) and the block device's sectors written (whole machine), each over the load and its settling, ÷ user bytes."
echo "dev rd/GET: reads completed by the whole block device (other processes included); blocks/GET: the engine's"
echo "block cache misses (a GET reads an object row and a content row); bytes read/GET: the service's /proc/<pid>/io"
echo "read_bytes; start ms: from starting the JVM to the first answered request (Spring and the engine's open)."
printf '{"benchmark":"scale-service","threads":%d,"get_seconds":%d,"page_cache_dropped":%s,"sizes":[%s]}\n' \
  "$threads" "$duration" "$([ "$drop" = 1 ] && echo true || echo false)" "$(IFS=,; echo "${json_rows[*]}")"
