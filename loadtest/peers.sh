#!/usr/bin/env bash
# Cairn next to MinIO and SeaweedFS, measured by the same clients in the same run (docs/load-benchmarks.md,
# "Peers").
#
# 1. Throughput: warp PUT and warp GET of 20 KiB objects, 16 concurrent, against Cairn (the
#    service on its embedded engine, every write synced before it is acknowledged), MinIO (one
#    drive in a temporary directory, synced) and SeaweedFS (`weed server` with its S3 gateway:
#    master, one volume server and filer in one process; it does not sync a PUT), with the syncs
#    per PUT each server makes (strace).
# 2. Tails at equal load, measured by vegeta, a light open-loop client that sends presigned
#    requests prepared beforehand: the GET and the PUT rate each peer sustains closed loop
#    (--concurrent workers), then open loop at the better peer's rate against every server, p99s
#    compared. Every PUT carries content of its own (no server is helped by deduplication).
# Prints a table with Cairn's ratios to each peer, and one JSON line with every figure. Each warp
# run's median and slowest second (objects answered) are in the table; a second under a tenth of
# the median is a stall (service/src/test/bench/stalls.py): the summary line then says FAIL and
# names the runs, and the script exits with 1 after printing everything. Warm-up runs are not judged.
#
# usage: loadtest/peers.sh [options]
#   --duration D        each warp run and each measured vegeta run, in seconds (default 20)
#   --concurrent N      warp's concurrency and the closed-loop workers (default 16)
#   --object-size S     object size (default 20KiB)
#   --count N           objects loaded for the GET tails (default 2000)
#   --put-bodies N      distinct PUT bodies for the tails (default 60000; a warning when a run
#                       needs more)
#   --no-tails          only the warp runs
#   --workdir DIR       keep everything here (default: a temporary directory, removed at exit)
#
# Builds warp, MinIO, SeaweedFS and vegeta with the machine's Go (loadtest/install-peers.sh, pinned
# versions; SeaweedFS takes a quarter of an hour the first time on two cores) and uses the
# project's Python environment (bin/test-venv) for presigning. Every server listens on free
# loopback ports and is stopped at exit.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

duration=20 concurrent=16 object_size=20KiB count=2000 put_bodies=60000 tails=1 workdir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration=${2%s}; shift 2 ;;
    --concurrent) concurrent=$2; shift 2 ;;
    --object-size) object_size=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --put-bodies) put_bodies=$2; shift 2 ;;
    --no-tails) tails=0; shift ;;
    --workdir) workdir=$2; shift 2 ;;
    -h|--help) sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "peers: unknown option $1" >&2; exit 2 ;;
  esac
done

bin=$("$root/loadtest/install-peers.sh" warp minio seaweedfs vegeta)
object_bytes=$(numfmt --from=auto "${object_size%B}")
python=$("$root/bin/test-venv")/bin/python3

keep=1
if [ -z "$workdir" ]; then
  workdir=$(mktemp -d -t cairn-peers.XXXXXX)
  keep=0
fi
mkdir -p "$workdir"/{cairn,minio,seaweedfs,results,warp,tails}
workdir=$(cd "$workdir" && pwd)
pids=()
me=peers
# shellcheck source=processes.sh
. "$root/loadtest/processes.sh"
trap cleanup EXIT INT TERM

servers=(cairn minio seaweedfs)
peers=(minio seaweedfs)
declare -A name=([cairn]=Cairn [minio]=MinIO [seaweedfs]=SeaweedFS) port pid
access_key=peers-bench
secret_key=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
# SeaweedFS listens on each of its ports and on that port + 10000 (gRPC). Each bucket takes volumes
# of its own: 100 of at most 512 MB (none preallocated), where the default 8 run out at the second.
free_port_pair() {
  local p
  while :; do
    p=$(free_port)
    [ "$p" -lt 50000 ] && ! (exec 3<>"/dev/tcp/127.0.0.1/$((p + 10000))") 2>/dev/null && { echo "$p"; return; }
  done
}
port[cairn]=$(free_port) port[minio]=$(free_port) minio_console=$(free_port)
port[seaweedfs]=$(free_port_pair) weed_master=$(free_port_pair) weed_volume=$(free_port_pair) weed_filer=$(free_port_pair)

SERVER_PORT=${port[cairn]} SERVER_ADDRESS=127.0.0.1 CAIRN_DATA_DIR="$workdir/cairn" \
  CAIRN_AUTH_ACCESS_KEY=$access_key CAIRN_AUTH_SECRET_KEY=$secret_key \
  "$root/bin/cairn" serve >"$workdir/cairn/cairn.log" 2>&1 &
pids+=($!) pid[cairn]=$!
MINIO_ROOT_USER=$access_key MINIO_ROOT_PASSWORD=$secret_key MINIO_BROWSER=off \
  "$bin/minio" server --quiet --address "127.0.0.1:${port[minio]}" --console-address "127.0.0.1:$minio_console" \
  "$workdir/minio/data" >"$workdir/minio/minio.log" 2>&1 &
pids+=($!) pid[minio]=$!
cat >"$workdir/seaweedfs/s3.json" <<JSON
{"identities": [{"name": "bench", "credentials": [{"accessKey": "$access_key", "secretKey": "$secret_key"}],
                 "actions": ["Admin", "Read", "List", "Tagging", "Write"]}]}
JSON
mkdir -p "$workdir/seaweedfs/data"
"$bin/weed" server -ip=127.0.0.1 -ip.bind=127.0.0.1 -dir="$workdir/seaweedfs/data" \
  -master.port="$weed_master" -volume.port="$weed_volume" -filer.port="$weed_filer" \
  -s3 -s3.port="${port[seaweedfs]}" -s3.config="$workdir/seaweedfs/s3.json" \
  -s3.port.iceberg=0 -iam=false -volume.max=100 -master.volumeSizeLimitMB=512 \
  >"$workdir/seaweedfs/weed.log" 2>&1 &
pids+=($!) pid[seaweedfs]=$!
for who in "${servers[@]}"; do await_port "$who" "${port[$who]}" "${pid[$who]}"; done
for _ in $(seq 120); do curl -sf -o /dev/null "http://127.0.0.1:${port[cairn]}/actuator/health" && break; sleep 0.5; done
for _ in $(seq 120); do curl -sf -o /dev/null "http://127.0.0.1:${port[minio]}/minio/health/ready" && break; sleep 0.5; done
# SeaweedFS answers S3 once its filer has a volume to write to: wait for a bucket listing.
for _ in $(seq 240); do
  "$python" -c 'import sys, boto3; boto3.client("s3", endpoint_url=sys.argv[1], aws_access_key_id=sys.argv[2],
    aws_secret_access_key=sys.argv[3], region_name="us-east-1").list_buckets()' \
    "http://127.0.0.1:${port[seaweedfs]}" "$access_key" "$secret_key" 2>/dev/null && break
  sleep 0.5
done
declare -A fig

# warp PUT then GET on one server; its summary lines go to results/, the figures into fig[]. A
# judged run with a stalled second is added to stalled[].
stalled=()
warp_run() { # who op seconds [not-judged: a warm-up, or a run under strace]
  local out=$workdir/results/warp-$1-$2.txt extra=()
  [ "$2" = get ] && extra=(--objects 2500)
  "$bin/warp" "$2" --host "127.0.0.1:${port[$1]}" --access-key "$access_key" --secret-key "$secret_key" \
    --obj.size "$object_size" --concurrent "$concurrent" --duration "${3}s" --bucket "warp-$2" --no-color \
    --benchdata "$workdir/warp/$1-$2" "${extra[@]}" >"$out" 2>&1 || { cat "$out" >&2; return 1; }
  local explain=--explain
  [ -z "${4:-}" ] || explain=""
  read -r ops p50 p99 errors median slowest stalls < <(python3 "$root/service/src/test/bench/warp_summary.py" \
    $explain "$out" "$workdir/warp/$1-$2.csv.zst")
  [ "$errors" = 0 ] || echo "peers: $errors failed requests in warp $2 against $1" >&2
  fig[$1.$2.ops]=$ops fig[$1.$2.p50]=$p50 fig[$1.$2.p99]=$p99 fig[$1.$2.median]=$median fig[$1.$2.slowest]=$slowest
  if [ -z "${4:-}" ] && [ "$stalls" != 0 ]; then
    stalled+=("${name[$1]} $2 (${3}s run: $stalls stalled seconds, median second $median objects)")
  fi
}
# Syncs (fsync + fdatasync) per PUT of a short warp PUT run, from strace's count of the server's
# calls over the PUTs warp made. strace slows every call, so fewer PUTs share a group commit than
# without it: for Cairn this is an upper bound.
syncs_per_put() { # who
  local st_out=$workdir/results/strace-$1.txt
  strace -qq -f -c -e trace=fsync,fdatasync,sync_file_range -o "$st_out" -p "${pid[$1]}" & local st=$!
  sleep 1
  warp_run "$1" put 5 under-strace
  kill -INT $st; wait $st 2>/dev/null || true
  local calls puts
  calls=$(awk '$NF ~ /^(fsync|fdatasync)$/ {n += $4} END {print n + 0}' "$st_out")
  puts=$(zstd -dc "$workdir/warp/$1-put.csv.zst" | awk -F'\t' 'NR > 1 && $9 == "" {n++} END {print n + 0}')
  fig[$1.syncs]=$(awk -v c="$calls" -v n="$puts" 'BEGIN {printf "%.3f", (n > 0) ? c / n : 0}')
}

echo "== warp: PUT and GET of $object_size, $concurrent concurrent, ${duration}s each" >&2
for who in "${servers[@]}"; do
  warp_run "$who" put 5 warm-up >/dev/null
  warp_run "$who" put "$duration"
  warp_run "$who" get "$duration"
done
have_strace=0
if command -v strace >/dev/null; then
  have_strace=1
  for who in "${servers[@]}"; do syncs_per_put "$who"; done
  # syncs_per_put's short run overwrote the PUT figures: measure them again.
  for who in "${servers[@]}"; do warp_run "$who" put "$duration"; done
fi

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", (b > 0) ? a / b : 0}'; }
row() { # label key [no-ratio]
  local line
  line=$(printf '%-28s' "$1")
  for who in "${servers[@]}"; do line+=$(printf ' %11s' "${fig[$who.$2]}"); done
  if [ -z "${3:-}" ]; then
    for peer in "${peers[@]}"; do line+=$(printf ' %11s' "$(ratio "${fig[cairn.$2]}" "${fig[$peer.$2]}")"); done
  fi
  echo "$line"
}
echo
printf '%-28s %11s %11s %11s %11s %11s\n' "warp, $object_size, c=$concurrent" Cairn MinIO SeaweedFS Cairn/MinIO Cairn/Seaweed
row 'GET obj/s' get.ops
row 'GET p50 ms' get.p50
row 'GET p99 ms' get.p99
row 'GET median second, obj' get.median no-ratio
row 'GET slowest second, obj' get.slowest no-ratio
row 'PUT obj/s' put.ops
row 'PUT p50 ms' put.p50
row 'PUT p99 ms' put.p99
row 'PUT median second, obj' put.median no-ratio
row 'PUT slowest second, obj' put.slowest no-ratio
[ $have_strace = 1 ] && row 'syncs per PUT (strace)' syncs no-ratio
echo "(Cairn and MinIO sync every PUT before acknowledging it; SeaweedFS does not.)"
if [ ${#stalled[@]} = 0 ]; then
  echo "stalls: none (no second under a tenth of its run's median)"
else
  echo "stalls: FAIL: ${stalled[*]}"
fi
json="{\"bench\":\"peers\",\"objectSize\":\"$object_size\",\"concurrent\":$concurrent,\"seconds\":$duration"
for who in "${servers[@]}"; do
  json+=",\"$who\":{\"getObjPerSecond\":${fig[$who.get.ops]},\"getP50Ms\":${fig[$who.get.p50]},\"getP99Ms\":${fig[$who.get.p99]}"
  json+=",\"putObjPerSecond\":${fig[$who.put.ops]},\"putP50Ms\":${fig[$who.put.p50]},\"putP99Ms\":${fig[$who.put.p99]}"
  json+=",\"getMedianSecond\":${fig[$who.get.median]},\"getSlowestSecond\":${fig[$who.get.slowest]}"
  json+=",\"putMedianSecond\":${fig[$who.put.median]},\"putSlowestSecond\":${fig[$who.put.slowest]}"
  [ $have_strace = 1 ] && json+=",\"syncsPerPut\":${fig[$who.syncs]}"
  json+="}"
done
for peer in "${peers[@]}"; do
  json+=",\"putRatio_$peer\":$(ratio "${fig[cairn.put.ops]}" "${fig[$peer.put.ops]}"),\"getRatio_$peer\":$(ratio "${fig[cairn.get.ops]}" "${fig[$peer.get.ops]}")"
done

if [ $tails = 1 ]; then
  . "$root/loadtest/peers-tails.sh"
fi
json+=",\"stalledRuns\":${#stalled[@]}"
echo "$json}"
[ ${#stalled[@]} = 0 ]
