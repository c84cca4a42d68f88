#!/usr/bin/env bash
# The soak: Cairn under a mixed load (GET, PUT, new keys, listings, CopyObject, DELETE, multipart
# uploads: the load tool's `mixed` workload) at a fraction of the most it sustains, for a long
# time, with caches far smaller than the data so they churn all along. On the Cassandra store one
# serving node is stopped and started again in the middle. It samples the service's RSS, heap,
# open file descriptors and threads, and prints the errors (outside and inside the restart
# window), those samples over time, a verdict per target, and one JSON line. docs/load-benchmarks.md, "Soak".
#
# usage: loadtest/soak.sh [options]
#   --store S           embedded or cassandra (default embedded)
#   --duration SECONDS  the measured soak (default 600)
#   --count N           objects loaded first (default 20000, the case study's sizes)
#   --threads N         client threads (default 16)
#   --fraction F        the soak's rate as a fraction of the mix's measured maximum (default 0.8)
#   --probe SECONDS     the closed-loop run that measures that maximum (default 20)
#   --heap SIZE         the service's -Xmx (default 1g); RSS must stay within heap + 512 MiB
#   --workdir DIR       keep everything here (default: a fresh temporary directory, removed at exit)
#
# Needs redis-server and jq (bin/install-test-deps installs them) and the JDK's jstat. Cassandra:
# the local cluster of `bin/cairn cassandra` (started when it does not answer, stopped at exit).
# Everything listens on free loopback ports; a trap stops what the script started.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

store=embedded duration=600 count=20000 threads=16 fraction=0.8 probe=20 heap=1g workdir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --store) store=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --fraction) fraction=$2; shift 2 ;;
    --probe) probe=$2; shift 2 ;;
    --heap) heap=$2; shift 2 ;;
    --workdir) workdir=$2; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "soak: unknown option $1" >&2; exit 2 ;;
  esac
done
case "$store" in embedded|cassandra) ;; *) echo "soak: --store is embedded or cassandra" >&2; exit 2 ;; esac
[[ $duration =~ ^[0-9]+$ && $duration -ge 30 ]] || { echo "soak: --duration is whole seconds, at least 30" >&2; exit 2; }
for tool in redis-server jq jstat; do
  command -v "$tool" >/dev/null || { echo "soak: $tool is not installed (bin/install-test-deps)" >&2; exit 2; }
done

keep=1
if [ -z "$workdir" ]; then
  workdir=$(mktemp -d -t cairn-soak.XXXXXX)
  keep=0
fi
mkdir -p "$workdir"/{cairn,redis,results}
workdir=$(cd "$workdir" && pwd)
out=$workdir/results

pids=()
me=soak
started_cluster=0
sampler=""
stop_more() {
  [ -n "$sampler" ] && kill "$sampler" 2>/dev/null || true
  if [ "$started_cluster" = 1 ]; then
    "$root/bin/cairn" cassandra stop >/dev/null 2>&1 || true
  fi
}
# shellcheck source=processes.sh
. "$root/loadtest/processes.sh"
trap cleanup EXIT INT TERM

if [ "$store" = cassandra ]; then
  if grep -q "does not answer" <<<"$("$root/bin/cairn" cassandra status 2>&1 || true)"; then
    echo "== starting the local Cassandra cluster" >&2
    started_cluster=1
    "$root/bin/cairn" cassandra start >&2
  fi
fi

redis_port=$(free_port)
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize no \
  --dir "$workdir/redis" >"$workdir/redis/redis.log" 2>&1 &
pids+=($!)
await_port redis-server "$redis_port" "${pids[-1]}"

access_key=soak
secret_key=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
port=$(free_port)
# Caches far below the data (about 26 KiB x count), so every tier evicts all along.
CAIRN_JAVA_OPTS="-Xmx$heap" "$root/bin/cairn" serve --server.port="$port" --server.address=127.0.0.1 \
  --cairn.data-dir="$workdir/cairn" --cairn.store="$store" \
  --cairn.auth.access-key="$access_key" --cairn.auth.secret-key="$secret_key" \
  --cairn.cache.object-cache-size=16MB --cairn.engine.block-cache-size=16MB \
  --cairn.cassandra.cache.memory-size=16MB \
  --logging.level.dev.cairn.service.access=WARN >"$workdir/cairn/cairn.log" 2>&1 &
cairn_pid=$!
pids+=("$cairn_pid")
await_port cairn "$port" "$cairn_pid"

lt() { "$root/bin/cairn" loadtest "$@"; }
common=(--redis "127.0.0.1:$redis_port" --dataset soak)
s3=(--endpoint "http://127.0.0.1:$port" --bucket soak --access-key "$access_key" --secret-key "$secret_key")

echo "== load $count objects" >&2
lt load "${common[@]}" "${s3[@]}" --count "$count" --threads 8 >&2

echo "== probe: the mixed workload, closed loop, ${probe}s" >&2
lt run "${common[@]}" "${s3[@]}" -w mixed --threads "$threads" --duration "${probe}s" --ops 100000000 --quiet \
  --label probe --out "$out/probe.json" >/dev/null
max=$(jq '.opsPerSecond' "$out/probe.json")
rate=$(awk -v m="$max" -v f="$fraction" 'BEGIN { r = int(m * f); print (r < 1 ? 1 : r) }')
echo "== mixed workload maximum $(printf '%.0f' "$max") ops/s; soak at $rate ops/s for ${duration}s" >&2

sample() { # seconds-since-start rss-kB heap-kB fds threads, every 5 s, until killed
  local start=$SECONDS
  while kill -0 "$cairn_pid" 2>/dev/null; do
    local rss threads fds heap_kb
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$cairn_pid/status")
    threads=$(awk '/^Threads:/ {print $2}' "/proc/$cairn_pid/status")
    fds=$(find "/proc/$cairn_pid/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
    heap_kb=$(jstat -gc "$cairn_pid" 2>/dev/null | awk 'NR == 2 {printf "%d", $3 + $4 + $6 + $8}')
    printf '%d\t%s\t%s\t%s\t%s\n' $((SECONDS - start)) "$rss" "${heap_kb:-0}" "$fds" "$threads"
    sleep 5
  done
}
sample >"$out/samples.tsv" &
sampler=$!

soak_run() { # label seconds
  lt run "${common[@]}" "${s3[@]}" -w mixed --threads "$threads" --rate "$rate" --duration "$2s" \
    --ops 100000000 --interval 5s --quiet --label "$1" --out "$out/$1.json" >/dev/null
}
if [ "$store" = embedded ]; then
  soak_run soak "$duration"
  runs=(soak)
  window=()
else
  # Before, the restart window (node 1 of datacenter serving stopped 10 s in, started again 30 s
  # later, then 30 s to settle), after.
  window_s=$((10 + 30 + 60 + 30))
  before_s=$(((duration - window_s) / 2))
  [ "$before_s" -ge 10 ] || { echo "soak: --duration must be at least $((window_s + 20)) on Cassandra" >&2; exit 2; }
  after_s=$((duration - window_s - before_s))
  soak_run before "$before_s"
  ( sleep 10; "$root/bin/cairn" cassandra stop-node 1; sleep 30; "$root/bin/cairn" cassandra start-node 1 ) \
    >"$out/restart.log" 2>&1 &
  restarter=$!
  soak_run restart-window "$window_s"
  wait "$restarter" || { echo "soak: the node restart failed: $(cat "$out/restart.log")" >&2; exit 1; }
  soak_run after "$after_s"
  runs=(before after)
  window=(restart-window)
fi
kill "$sampler" 2>/dev/null || true
wait "$sampler" 2>/dev/null || true
sampler=""

echo
printf '%-15s %-10s %9s %9s %9s %9s %s\n' run operation count ops/s "p50 ms" "p99 ms" errors
for f in "$out"/{before,soak,restart-window,after}.json; do
  [ -f "$f" ] || continue
  jq -r --arg run "$(basename "$f" .json)" '.perOperation | to_entries[] |
    [$run, .key, .value.count, (.value.opsPerSecond | floor), .value.p50Ms, .value.p99Ms,
     ((.value.errors // {}) | to_entries | map("\(.key)=\(.value)") | join(" "))] | @tsv' "$f" |
    awk -F '\t' '{printf "%-15s %-10s %9d %9d %9.2f %9.2f %s\n", $1, $2, $3, $4, $5, $6, $7}'
done

echo
echo "service, sampled every 5 s: seconds, RSS MiB, heap MiB, file descriptors, threads"
awk -F '\t' 'NR == 1 || NR % 12 == 0 {printf "  %5d %8.0f %8.0f %6d %6d\n", $1, $2 / 1024, $3 / 1024, $4, $5}' "$out/samples.tsv"

errors_outside=0
for r in "${runs[@]}"; do
  errors_outside=$((errors_outside + $(jq '.errors' "$out/$r.json")))
done
window_errors=0 window_not_503=0
for r in "${window[@]}"; do
  window_errors=$((window_errors + $(jq '.errors' "$out/$r.json")))
  window_not_503=$((window_not_503 + $(jq '[.perOperation[] | (.errors // {}) | to_entries[] |
    select(.key != "s3-SlowDown" and .key != "http-503") | .value] | add // 0' "$out/$r.json")))
done
heap_mib=$(numfmt --from=iec "${heap^^}" | awk '{print $1 / 1048576}')
# Flat: the last minute's mean within 10 % (file descriptors: 16) of the second minute's, after warm-up.
read -r rss_max heap_max fds_early fds_late threads_early threads_late rss_early rss_late < <(awk -F '\t' '
  { n++; t[n] = $1; rss[n] = $2; fd[n] = $4; th[n] = $5; if ($2 > rm) rm = $2; if ($3 > hm) hm = $3 }
  END {
    last = t[n]
    for (i = 1; i <= n; i++) {
      if (t[i] >= 60 && t[i] < 120) { e++; fe += fd[i]; te += th[i]; re += rss[i] }
      if (t[i] > last - 60) { l++; fl += fd[i]; tl += th[i]; rl += rss[i] }
    }
    if (!e) { e = 1; fe = fd[1]; te = th[1]; re = rss[1] }
    printf "%.0f %.0f %.1f %.1f %.1f %.1f %.0f %.0f\n", rm / 1024, hm / 1024, fe / e, fl / l, te / e, tl / l, re / e / 1024, rl / l / 1024
  }' "$out/samples.tsv")
verdict() { if [ "$1" = 1 ]; then echo met; else echo "NOT met"; fi; }
ok_errors=$([ "$errors_outside" -eq 0 ] && echo 1 || echo 0)
ok_window=$([ "$window_not_503" -eq 0 ] && echo 1 || echo 0)
ok_rss=$(awk -v r="$rss_max" -v h="$heap_mib" 'BEGIN { print (r <= h + 512) ? 1 : 0 }')
ok_fds=$(awk -v a="$fds_early" -v b="$fds_late" 'BEGIN { print (b <= a + 16) ? 1 : 0 }')
ok_threads=$(awk -v a="$threads_early" -v b="$threads_late" 'BEGIN { print (b <= a * 1.1 + 1) ? 1 : 0 }')
echo
echo "errors outside the restart window: $errors_outside (target 0): $(verdict "$ok_errors")"
[ "$store" = cassandra ] && echo "errors inside the restart window: $window_errors, of which not a retryable 503: $window_not_503 (target 0): $(verdict "$ok_window")"
echo "RSS: max $rss_max MiB, second minute $rss_early MiB, last minute $rss_late MiB (bound: heap $heap_mib MiB + 512): $(verdict "$ok_rss")"
echo "heap: max $heap_max MiB of $heap_mib"
echo "file descriptors: second minute $fds_early, last minute $fds_late (flat): $(verdict "$ok_fds")"
echo "threads: second minute $threads_early, last minute $threads_late (flat): $(verdict "$ok_threads")"
jq -cn --arg store "$store" --argjson duration "$duration" --argjson max "$max" --argjson rate "$rate" \
  --argjson errors_outside "$errors_outside" --argjson window_errors "$window_errors" \
  --argjson window_not_503 "$window_not_503" --argjson rss_max "$rss_max" --argjson heap_max "$heap_max" \
  --argjson rss_early "$rss_early" --argjson rss_late "$rss_late" --argjson fds_early "$fds_early" \
  --argjson fds_late "$fds_late" --argjson threads_early "$threads_early" --argjson threads_late "$threads_late" \
  '{soak: $store, duration_s: $duration, max_ops: $max, rate_ops: $rate, errors_outside_window: $errors_outside,
    errors_in_window: $window_errors, window_errors_not_503: $window_not_503, rss_max_mib: $rss_max,
    heap_max_mib: $heap_max, rss_second_minute_mib: $rss_early, rss_last_minute_mib: $rss_late,
    fds_second_minute: $fds_early, fds_last_minute: $fds_late, threads_second_minute: $threads_early,
    threads_last_minute: $threads_late}'
[ "$ok_errors" = 1 ] && [ "$ok_window" = 1 ] && [ "$ok_rss" = 1 ] && [ "$ok_fds" = 1 ] && [ "$ok_threads" = 1 ]
