#!/usr/bin/env bash
# Cairn next to MinIO, measured by the same clients in the same run (docs/loadtest.md, "Peers").
#
# 1. Throughput: warp PUT and warp GET of 20 KiB objects, 16 concurrent, against Cairn (the
#    service on its embedded engine, every write synced before it is acknowledged) and MinIO
#    (one drive in a temporary directory), with the syncs per PUT each server makes (strace).
# 2. Tails at equal load: the load generator finds, closed loop, the GET and the PUT rate MinIO
#    sustains, then runs each open loop at that rate against both, and compares the p99s.
# Prints a table with Cairn's ratios to MinIO, and one JSON line with every figure.
#
# usage: loadtest/peers.sh [options]
#   --duration D        each warp run and each measured open-loop run, in seconds (default 20)
#   --concurrent N      warp's concurrency and the closed-loop threads (default 16)
#   --object-size S     object size (default 20KiB)
#   --count N           objects loaded for the tails runs (default 2000)
#   --no-tails          only the warp runs
#   --workdir DIR       keep everything here (default: a temporary directory, removed at exit)
#
# Builds warp and MinIO with the machine's Go (loadtest/install-peers.sh, pinned versions) and
# needs redis-server for the load generator's key registry. Every server listens on a free
# loopback port and is stopped at exit.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

duration=20 concurrent=16 object_size=20KiB count=2000 tails=1 workdir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration=${2%s}; shift 2 ;;
    --concurrent) concurrent=$2; shift 2 ;;
    --object-size) object_size=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --no-tails) tails=0; shift ;;
    --workdir) workdir=$2; shift 2 ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "peers: unknown option $1" >&2; exit 2 ;;
  esac
done

bin=$("$root/loadtest/install-peers.sh" warp minio)
redis_bin=$(command -v redis-server || echo /usr/bin/redis-server)
[ -x "$redis_bin" ] || { echo "peers: redis-server is not installed (run bin/install-test-deps as root)" >&2; exit 2; }

keep=1
if [ -z "$workdir" ]; then
  workdir=$(mktemp -d -t cairn-peers.XXXXXX)
  keep=0
fi
mkdir -p "$workdir"/{cairn,minio,redis,results,warp}
workdir=$(cd "$workdir" && pwd)
pids=()
me=peers
# shellcheck source=processes.sh
. "$root/loadtest/processes.sh"
trap cleanup EXIT INT TERM

access_key=peers-bench
secret_key=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
cairn_port=$(free_port) minio_port=$(free_port) minio_console=$(free_port) redis_port=$(free_port)

SERVER_PORT=$cairn_port SERVER_ADDRESS=127.0.0.1 CAIRN_DATA_DIR="$workdir/cairn" \
  CAIRN_AUTH_ACCESS_KEY=$access_key CAIRN_AUTH_SECRET_KEY=$secret_key \
  "$root/bin/cairn" serve >"$workdir/cairn/cairn.log" 2>&1 &
pids+=($!) cairn_pid=$!
MINIO_ROOT_USER=$access_key MINIO_ROOT_PASSWORD=$secret_key MINIO_BROWSER=off \
  "$bin/minio" server --quiet --address "127.0.0.1:$minio_port" --console-address "127.0.0.1:$minio_console" \
  "$workdir/minio/data" >"$workdir/minio/minio.log" 2>&1 &
pids+=($!) minio_pid=$!
"$redis_bin" --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --dir "$workdir/redis" \
  >"$workdir/redis/redis.log" 2>&1 &
pids+=($!)
await_port cairn "$cairn_port" "$cairn_pid"
await_port minio "$minio_port" "$minio_pid"
await_port redis-server "$redis_port" "${pids[-1]}"
for _ in $(seq 120); do curl -sf -o /dev/null "http://127.0.0.1:$cairn_port/actuator/health" && break; sleep 0.5; done
for _ in $(seq 120); do curl -sf -o /dev/null "http://127.0.0.1:$minio_port/minio/health/ready" && break; sleep 0.5; done

port_of() { if [ "$1" = cairn ]; then echo "$cairn_port"; else echo "$minio_port"; fi; }
pid_of() { if [ "$1" = cairn ]; then echo "$cairn_pid"; else echo "$minio_pid"; fi; }
declare -A fig

# warp PUT then GET on one server; its summary lines go to results/, the figures into fig[].
warp_run() { # who op seconds
  local out=$workdir/results/warp-$1-$2.txt extra=()
  [ "$2" = get ] && extra=(--objects 2500)
  "$bin/warp" "$2" --host "127.0.0.1:$(port_of "$1")" --access-key "$access_key" --secret-key "$secret_key" \
    --obj.size "$object_size" --concurrent "$concurrent" --duration "${3}s" --bucket "warp-$2" --no-color \
    --benchdata "$workdir/warp/$1-$2" "${extra[@]}" >"$out" 2>&1 || { cat "$out" >&2; return 1; }
  read -r ops p50 p99 errors < <(python3 "$root/service/src/test/bench/warp_summary.py" "$out" \
    "$workdir/warp/$1-$2.csv.zst")
  [ "$errors" = 0 ] || echo "peers: $errors failed requests in warp $2 against $1" >&2
  fig[$1.$2.ops]=$ops fig[$1.$2.p50]=$p50 fig[$1.$2.p99]=$p99
}
# Syncs (fsync + fdatasync) per PUT of a short warp PUT run, from strace's count of the server's
# calls over the PUTs warp made. strace slows every call, so fewer PUTs share a group commit than
# without it: for Cairn this is an upper bound.
syncs_per_put() { # who
  local st_out=$workdir/results/strace-$1.txt
  strace -qq -f -c -e trace=fsync,fdatasync,sync_file_range -o "$st_out" -p "$(pid_of "$1")" & local st=$!
  sleep 1
  warp_run "$1" put 5
  kill -INT $st; wait $st 2>/dev/null || true
  local calls puts
  calls=$(awk '$NF ~ /^(fsync|fdatasync)$/ {n += $4} END {print n + 0}' "$st_out")
  puts=$(zstd -dc "$workdir/warp/$1-put.csv.zst" | awk -F'\t' 'NR > 1 && $9 == "" {n++} END {print n + 0}')
  fig[$1.syncs]=$(awk -v c="$calls" -v n="$puts" 'BEGIN {printf "%.3f", (n > 0) ? c / n : 0}')
}

echo "== warp: PUT and GET of $object_size, $concurrent concurrent, ${duration}s each" >&2
for who in cairn minio; do
  warp_run "$who" put 5 >/dev/null   # warm-up
  warp_run "$who" put "$duration"
  warp_run "$who" get "$duration"
done
have_strace=0
if command -v strace >/dev/null; then
  have_strace=1
  for who in cairn minio; do syncs_per_put "$who"; done
  # syncs_per_put's short run overwrote the PUT figures: measure them again.
  for who in cairn minio; do warp_run "$who" put "$duration"; done
fi

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", (b > 0) ? a / b : 0}'; }
echo
printf '%-28s %12s %12s %12s\n' "warp, $object_size, c=$concurrent" Cairn MinIO Cairn/MinIO
printf '%-28s %12s %12s %12s\n' 'GET obj/s' "${fig[cairn.get.ops]}" "${fig[minio.get.ops]}" "$(ratio "${fig[cairn.get.ops]}" "${fig[minio.get.ops]}")"
printf '%-28s %12s %12s %12s\n' 'GET p50 ms' "${fig[cairn.get.p50]}" "${fig[minio.get.p50]}" "$(ratio "${fig[cairn.get.p50]}" "${fig[minio.get.p50]}")"
printf '%-28s %12s %12s %12s\n' 'GET p99 ms' "${fig[cairn.get.p99]}" "${fig[minio.get.p99]}" "$(ratio "${fig[cairn.get.p99]}" "${fig[minio.get.p99]}")"
printf '%-28s %12s %12s %12s\n' 'PUT obj/s (both synced)' "${fig[cairn.put.ops]}" "${fig[minio.put.ops]}" "$(ratio "${fig[cairn.put.ops]}" "${fig[minio.put.ops]}")"
printf '%-28s %12s %12s %12s\n' 'PUT p50 ms' "${fig[cairn.put.p50]}" "${fig[minio.put.p50]}" "$(ratio "${fig[cairn.put.p50]}" "${fig[minio.put.p50]}")"
printf '%-28s %12s %12s %12s\n' 'PUT p99 ms' "${fig[cairn.put.p99]}" "${fig[minio.put.p99]}" "$(ratio "${fig[cairn.put.p99]}" "${fig[minio.put.p99]}")"
if [ $have_strace = 1 ]; then
  printf '%-28s %12s %12s\n' 'syncs per PUT (strace)' "${fig[cairn.syncs]}" "${fig[minio.syncs]}"
fi
json="{\"bench\":\"peers\",\"objectSize\":\"$object_size\",\"concurrent\":$concurrent,\"seconds\":$duration"
for who in cairn minio; do
  json+=",\"$who\":{\"getObjPerSecond\":${fig[$who.get.ops]},\"getP50Ms\":${fig[$who.get.p50]},\"getP99Ms\":${fig[$who.get.p99]}"
  json+=",\"putObjPerSecond\":${fig[$who.put.ops]},\"putP50Ms\":${fig[$who.put.p50]},\"putP99Ms\":${fig[$who.put.p99]}"
  [ $have_strace = 1 ] && json+=",\"syncsPerPut\":${fig[$who.syncs]}"
  json+="}"
done
json+=",\"putRatio\":$(ratio "${fig[cairn.put.ops]}" "${fig[minio.put.ops]}"),\"getRatio\":$(ratio "${fig[cairn.get.ops]}" "${fig[minio.get.ops]}")"

if [ $tails = 1 ]; then
  lt() { "$root/bin/cairn" loadtest "$@"; }
  figure() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); o=r["perOperation"][sys.argv[2]]; print(o[sys.argv[3]])' "$@"; }
  target() { # who
    echo --endpoint "http://127.0.0.1:$(port_of "$1")" --bucket tails --access-key "$access_key" --secret-key "$secret_key" \
      --redis "127.0.0.1:$redis_port" --dataset "tails-$1"
  }
  for who in cairn minio; do
    echo "== tails: loading $count objects into $who" >&2
    # shellcheck disable=SC2046
    lt load $(target "$who") --count "$count" --object-size "$object_size" --threads 8 >/dev/null
  done
  out=$workdir/results
  for kind in get put; do
    if [ $kind = get ]; then workload=read-only op=read; else workload=write-only op=update; fi
    echo "== tails: $kind rate MinIO sustains, closed loop, $concurrent threads" >&2
    # shellcheck disable=SC2046
    lt run $(target minio) -w $workload --threads "$concurrent" --duration "${duration}s" --quiet \
      --label "minio-$kind-closed" --out "$out/minio-$kind-closed.json" >/dev/null
    rate=$(figure "$out/minio-$kind-closed.json" "$op" opsPerSecond)
    rate=$(awk -v r="$rate" 'BEGIN {printf "%d", r}')
    for who in cairn minio; do
      echo "== tails: $kind open loop at $rate/s against $who" >&2
      # shellcheck disable=SC2046
      lt run $(target "$who") -w $workload --rate "$rate" --threads $((concurrent * 4)) --duration "${duration}s" \
        --quiet --label "$who-$kind-open" --out "$out/$who-$kind-open.json" >/dev/null
      fig[$who.$kind.open.p99]=$(printf '%.1f' "$(figure "$out/$who-$kind-open.json" "$op" p99Ms)")
      fig[$who.$kind.open.ops]=$(printf '%.1f' "$(figure "$out/$who-$kind-open.json" "$op" opsPerSecond)")
    done
    fig[$kind.rate]=$rate
  done
  echo
  printf '%-36s %12s %12s %12s\n' 'open loop at the rate MinIO sustains' Cairn MinIO Cairn/MinIO
  for kind in get put; do
    printf '%-36s %12s %12s %12s\n' "${kind^^} at ${fig[$kind.rate]}/s: p99 ms" "${fig[cairn.$kind.open.p99]}" \
      "${fig[minio.$kind.open.p99]}" "$(ratio "${fig[cairn.$kind.open.p99]}" "${fig[minio.$kind.open.p99]}")"
    printf '%-36s %12s %12s\n' "${kind^^} at ${fig[$kind.rate]}/s: achieved ops/s" "${fig[cairn.$kind.open.ops]}" \
      "${fig[minio.$kind.open.ops]}"
  done
  json+=",\"openLoop\":{\"getRate\":${fig[get.rate]},\"putRate\":${fig[put.rate]}"
  for who in cairn minio; do
    json+=",\"$who\":{\"getP99Ms\":${fig[$who.get.open.p99]},\"putP99Ms\":${fig[$who.put.open.p99]}}"
  done
  json+="}"
fi
echo "$json}"
