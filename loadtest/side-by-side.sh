#!/usr/bin/env bash
# Side by side: the same workload against Cairn (the service on its embedded engine) and against
# nginx serving the same files from a directory, both on loopback, driven by the same client.
# Prints every run's table and Cairn's ratios to nginx. See docs/load-benchmarks.md.
#
# usage: loadtest/side-by-side.sh [options]
#   --count N           objects in the dataset (default 20000)
#   --object-size S     every object this size (default 20KiB)
#   --threads N         client threads (default 16)
#   --duration D        time bound of each measured run (default 30s)
#   --ops N             count bound of each measured run (default 10000000)
#   --warmup D          untimed GET run before each measured GET run (default 10s)
#   --traversal         also run the classified-ads portal study's experiment: GETs with a backup-like traversal
#                       (Cairn: ListObjectsV2 + GET of every object; nginx: a walk of its directory)
#   --workdir DIR       keep everything here (default: a fresh temporary directory, removed at exit)
#
# Needs nginx and redis-server (bin/install-test-deps installs both). Starts Redis, Cairn and
# nginx on free loopback ports with their own data, config and pid files; a trap stops them all.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

count=20000 object_size=20KiB threads=16 duration=30s ops=10000000 warmup=10s traversal=0 workdir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --count) count=$2; shift 2 ;;
    --object-size) object_size=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --ops) ops=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --traversal) traversal=1; shift ;;
    --workdir) workdir=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "side-by-side: unknown option $1" >&2; exit 2 ;;
  esac
done

nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
redis_bin=$(command -v redis-server || echo /usr/bin/redis-server)
for b in "$nginx_bin" "$redis_bin"; do
  [ -x "$b" ] || { echo "side-by-side: $(basename "$b") is not installed (run bin/install-test-deps as root)" >&2; exit 2; }
done

keep=1
if [ -z "$workdir" ]; then
  workdir=$(mktemp -d -t cairn-side-by-side.XXXXXX)
  keep=0
fi
mkdir -p "$workdir"/{cairn,files,nginx/tmp,redis,results}
workdir=$(cd "$workdir" && pwd)

pids=()
me=side-by-side
stop_more() {
  if [ -f "$workdir/nginx/nginx.pid" ]; then
    kill "$(cat "$workdir/nginx/nginx.pid")" 2>/dev/null || true
  fi
}
# shellcheck source=processes.sh
. "$root/loadtest/processes.sh"
trap cleanup EXIT INT TERM

redis_port=$(free_port)
cairn_port=$(free_port)
nginx_port=$(free_port)
access_key=side-by-side
secret_key=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')

"$redis_bin" --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize no \
  --dir "$workdir/redis" >"$workdir/redis/redis.log" 2>&1 &
pids+=($!)
await_port redis-server "$redis_port" "${pids[-1]}"

# The service jar and the tools are built on first use by bin/cairn.
SERVER_PORT=$cairn_port SERVER_ADDRESS=127.0.0.1 CAIRN_DATA_DIR="$workdir/cairn" \
  CAIRN_AUTH_ACCESS_KEY=$access_key CAIRN_AUTH_SECRET_KEY=$secret_key \
  "$root/bin/cairn" serve >"$workdir/cairn/cairn.log" 2>&1 &
pids+=($!)
await_port cairn "$cairn_port" "${pids[-1]}"

user_line=""
[ "$(id -u)" = 0 ] && user_line="user root;"
cat >"$workdir/nginx/nginx.conf" <<NGINX
$user_line
worker_processes auto;
pid $workdir/nginx/nginx.pid;
error_log $workdir/nginx/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_timeout 120s;
  keepalive_requests 10000000;
  open_file_cache max=100000 inactive=60s;
  client_body_temp_path $workdir/nginx/tmp/body;
  proxy_temp_path $workdir/nginx/tmp/proxy;
  fastcgi_temp_path $workdir/nginx/tmp/fastcgi;
  uwsgi_temp_path $workdir/nginx/tmp/uwsgi;
  scgi_temp_path $workdir/nginx/tmp/scgi;
  types { image/jpeg jpg; }
  server {
    listen 127.0.0.1:$nginx_port;
    root $workdir/files;
    location / {
      dav_methods PUT;
      create_full_put_path on;
      client_max_body_size 16m;
      client_body_buffer_size 1m;
    }
  }
}
NGINX
"$nginx_bin" -p "$workdir/nginx" -c "$workdir/nginx/nginx.conf" -e "$workdir/nginx/error.log"
for _ in $(seq 1 50); do [ -s "$workdir/nginx/nginx.pid" ] && break; sleep 0.1; done
await_port nginx "$nginx_port" "$(cat "$workdir/nginx/nginx.pid")"

lt() { "$root/bin/cairn" loadtest "$@"; }
common=(--redis "127.0.0.1:$redis_port" --dataset side)
s3=(--endpoint "http://127.0.0.1:$cairn_port" --bucket side --access-key "$access_key" --secret-key "$secret_key")
cairn_http=(--http "http://127.0.0.1:$cairn_port/side/")
nginx_http=(--http "http://127.0.0.1:$nginx_port/")
bounds=(--threads "$threads" --duration "$duration" --ops "$ops" --quiet)
out=$workdir/results

echo "== load: $count objects of $object_size into Cairn (S3, public-read bucket) and $workdir/files" >&2
lt load "${common[@]}" "${s3[@]}" --public-read --count "$count" --object-size "$object_size" \
  --to-directory "$workdir/files" --threads 8

# GET, Zipfian (YCSB's scrambled Zipfian), hot set in cache: both through the same plain HTTP client.
for who in cairn nginx; do
  if [ $who = cairn ]; then target=("${cairn_http[@]}"); else target=("${nginx_http[@]}"); fi
  echo "== GET $who" >&2
  lt run "${common[@]}" "${target[@]}" -w read-only --threads "$threads" --duration "$warmup" --ops "$ops" \
    --quiet --label "$who-warmup" --out "$out/$who-warmup.json" >/dev/null
  lt run "${common[@]}" "${target[@]}" -w read-only "${bounds[@]}" --label "$who-get" --out "$out/$who-get.json"
done

if [ "$traversal" = 1 ]; then
  half=$(( ${duration%s} / 3 ))
  echo "== GET with a concurrent traversal (the classified-ads portal study's experiment)" >&2
  lt run "${common[@]}" "${cairn_http[@]}" -w read-only "${bounds[@]}" --label cairn-get-traversal \
    --traversal --traversal-endpoint "http://127.0.0.1:$cairn_port" --traversal-delay "${half}s" \
    "${s3[@]:2}" --out "$out/cairn-get-traversal.json"
  lt run "${common[@]}" "${nginx_http[@]}" -w read-only "${bounds[@]}" --label nginx-get-traversal \
    --traversal --traversal-directory "$workdir/files" --traversal-delay "${half}s" \
    --out "$out/nginx-get-traversal.json"
fi

# PUT: Cairn through S3 (SigV4-signed, acknowledged once durable); nginx through WebDAV PUT (a
# file write, not synced).
echo "== PUT cairn" >&2
lt run "${common[@]}" "${s3[@]}" -w write-only "${bounds[@]}" --label cairn-put --out "$out/cairn-put.json"
echo "== PUT nginx" >&2
lt run "${common[@]}" "${nginx_http[@]}" -w write-only "${bounds[@]}" --label nginx-put --out "$out/nginx-put.json"

echo
echo "== Cairn's ratios to nginx (GET, then PUT)"
lt compare "$out/cairn-get.json" "$out/nginx-get.json"
echo
lt compare "$out/cairn-put.json" "$out/nginx-put.json"
reports=("$out/cairn-get.json" "$out/nginx-get.json" "$out/cairn-put.json" "$out/nginx-put.json")
if [ "$traversal" = 1 ]; then
  echo
  lt compare "$out/cairn-get-traversal.json" "$out/nginx-get-traversal.json"
  reports+=("$out/cairn-get-traversal.json" "$out/nginx-get-traversal.json")
fi
lt report "${reports[@]}" --out "$out/side-by-side.html" >/dev/null
echo "report: $out/side-by-side.html"
