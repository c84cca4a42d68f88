#!/usr/bin/env bash
# Hot GETs against nginx static, measured alternately in the same run. The baseline is nginx
# serving the same 20 KB as a static file (sendfile, one worker); a bare Jetty handler serving it
# from memory is measured too, for reference only. Per round it prints requests/s of nginx and of
# the bare Jetty handler and, for each build measured, of an anonymous public-read GET of one
# object, presigned GETs cycling over 2000 keys and header-signed GETs over the same keys, with
# their ratios to nginx static, and the service's CPU time per request (all its threads: less
# disturbed by other jobs on the machine than requests/s), next to which the summary puts nginx's
# worker CPU per request; then the medians of the ratios to nginx
# (the figures the targets are stated in), and for reference to the better of nginx and bare Jetty.
# usage: service/src/test/bench/ratio.sh [ROUNDS] [SECONDS]   (from the repository root, after
#        ./mvnw -pl service -am package -DskipTests; needs wrk, nginx, python3 with boto3)
#   JAR=x.jar             the build to measure (default service/target/cairn-service.jar)
#   JARS="old.jar new.jar" several builds, each its own service, measured in alternating order
#   ACCESS_LOG=INFO        the services' access log level (default WARN: no line per request)
set -euo pipefail
ROUNDS=${1:-5}
SECS=${2:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
WORK=$(mktemp -d /tmp/cairn-bench.XXXXXX)
KEY=BENCHKEY SECRET=benchsecretbenchsecretbenchsecret1234
JARS=${JARS:-${JAR:-$ROOT/service/target/cairn-service.jar}}
CEIL_PORT=${CEIL_PORT:-9200} NGINX_PORT=${NGINX_PORT:-9300} CAIRN_PORT=${CAIRN_PORT:-9100}
# boto3 lives in the tests' virtual environment (bin/install-test-deps).
PATH="$("$ROOT/bin/test-venv")/bin:$PATH"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

read -r -a jars <<<"$JARS"
ports=()
for i in "${!jars[@]}"; do ports+=($((CAIRN_PORT + i))); done

# The bare handler runs on the Jetty the service jar carries (no local Maven repository needed).
mkdir -p "$WORK/jetty-lib"
unzip -q -j -o "${jars[0]}" 'BOOT-INF/lib/jetty-*' 'BOOT-INF/lib/slf4j-api-*' -d "$WORK/jetty-lib"
java -cp "$ROOT/service/target/test-classes:$WORK/jetty-lib/*" dev.cairn.service.bench.BareJettyCeiling \
    "$CEIL_PORT" >"$WORK/ceiling.log" 2>&1 & pids+=($!)
cairn_pids=()
for i in "${!jars[@]}"; do
  java -jar "${jars[$i]}" --server.port="${ports[$i]}" --cairn.data-dir="$WORK/data$i" \
      --cairn.auth.access-key=$KEY --cairn.auth.secret-key=$SECRET \
      --logging.level.dev.cairn.service.access="${ACCESS_LOG:-WARN}" >"$WORK/cairn$i.log" 2>&1 & pids+=($!) cairn_pids+=($!)
done
mkdir -p "$WORK/nginx/www"
chmod 755 "$WORK" "$WORK/nginx" "$WORK/nginx/www"   # nginx's worker may run as another user
python3 -c 'import sys; sys.stdout.buffer.write(bytes(range(256)) * 80)' >"$WORK/nginx/www/hot"
cat >"$WORK/nginx/nginx.conf" <<CONF
daemon off; worker_processes 1; error_log $WORK/nginx/error.log warn; pid $WORK/nginx/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off; sendfile on; tcp_nopush on; keepalive_requests 1000000;
  client_body_temp_path $WORK/nginx/body; proxy_temp_path $WORK/nginx/proxy;
  fastcgi_temp_path $WORK/nginx/fastcgi; uwsgi_temp_path $WORK/nginx/uwsgi; scgi_temp_path $WORK/nginx/scgi;
  server { listen 127.0.0.1:$NGINX_PORT; root $WORK/nginx/www; default_type application/octet-stream; }
}
CONF
nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" >"$WORK/nginx/stdout.log" 2>&1 & pids+=($!) nginx_master=$!
up() { curl -sf -o /dev/null "$1"; }
for _ in $(seq 120); do
  ready=1
  for p in "${ports[@]}"; do up "http://127.0.0.1:$p/actuator/health" || ready=0; done
  up "http://127.0.0.1:$CEIL_PORT/" && up "http://127.0.0.1:$NGINX_PORT/hot" || ready=0
  [ $ready = 1 ] && break
  sleep 1
done

for p in "${ports[@]}"; do
python3 - "$p" $KEY $SECRET <<'PY'
import sys, boto3
from botocore.config import Config
port, access, secret = sys.argv[1:4]
s3 = boto3.client("s3", endpoint_url="http://127.0.0.1:" + port, aws_access_key_id=access,
                  aws_secret_access_key=secret, region_name="us-east-1",
                  config=Config(signature_version="s3v4", s3={"addressing_style": "path"}))
s3.create_bucket(Bucket="bench", ACL="public-read")
body = bytes(range(256)) * 80
s3.put_object(Bucket="bench", Key="hot", Body=body)
for i in range(2000):
    s3.put_object(Bucket="bench", Key="obj/%07d" % i, Body=body[:-16] + b"%016d" % i)
PY
python3 "$HERE/presign.py" "http://127.0.0.1:$p" $KEY $SECRET bench get 2000 obj/ >"$WORK/get$p.txt"
done

rps() {
  local out
  out=$(wrk "$@")
  if grep -q 'Non-2xx' <<<"$out"; then echo "ratio.sh: non-2xx answers from $*" >&2; fi
  awk '/requests in/ {print $1}' <<<"$out" >"$WORK/requests"
  awk '/Requests\/sec/ {print $2}' <<<"$out"
}
anon() { rps -t2 -c16 -d"${SECS}s" "http://127.0.0.1:$1/bench/hot"; }
presigned() { WRK_URLS="$WORK/get$1.txt" WRK_THREADS=2 rps -t2 -c16 -d"${SECS}s" -s "$HERE/urls.lua" "http://127.0.0.1:$1"; }
# Header-signed requests carry the time they were signed: signed again before each measurement.
signed() {
  [ "${SIGN:-yes}" = no ] || python3 "$HERE/sign_headers.py" "http://127.0.0.1:$1" $KEY $SECRET bench 2000 obj/ >"$WORK/signed$1.txt"
  WRK_SIGNED="$WORK/signed$1.txt" WRK_THREADS=2 rps -t2 -c16 -d"${SECS}s" -s "$HERE/signed.lua" "http://127.0.0.1:$1"
}
jetty() { rps -t2 -c16 -d"${SECS}s" "http://127.0.0.1:$CEIL_PORT/"; }
nginx_static() { rps -t2 -c16 -d"${SECS}s" "http://127.0.0.1:$NGINX_PORT/hot"; }
# Warm-up: JIT and the object cache.
for p in "${ports[@]}"; do SECS=10 anon "$p" >/dev/null; SECS=10 presigned "$p" >/dev/null; SECS=10 signed "$p" >/dev/null; done
SECS=5 jetty >/dev/null; SECS=3 nginx_static >/dev/null

HZ=$(getconf CLK_TCK)
# nginx serves from its one worker process: its CPU per request is the baseline's.
nginx_worker=$(pgrep -P "$nginx_master" | head -n 1)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# µs of the service's CPU per request of the last wrk run, from ticks before and after it.
cpu_per_request() { awk -v a="$1" -v b="$2" -v n="$(cat "$WORK/requests")" -v hz="$HZ" 'BEGIN {printf "%.1f", (b - a) * 1e6 / hz / n}'; }
ratio() { awk -v a="$1" -v c="$2" 'BEGIN {printf "%.3f", a / c}'; }
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
printf '%-5s %-4s %9s %9s %9s %9s %9s %9s %7s %7s %7s %7s %7s %7s\n' round jar nginx jetty ceiling anon presigned signed \
    anon/n pre/n sig/n 'anon us' 'pre us' 'sig us'
declare -A r
for round in $(seq "$ROUNDS"); do
  t0=$(cpu_ticks "$nginx_worker"); n=$(nginx_static); t1=$(cpu_ticks "$nginx_worker"); un=$(cpu_per_request "$t0" "$t1")
  r[nginx.u]+="$un "
  j=$(jetty)
  c=$(awk -v a="$n" -v b="$j" 'BEGIN {print (a > b) ? a : b}')
  r[jetty_nginx]+="$(ratio "$j" "$n") "
  order=("${!jars[@]}")
  if (( round % 2 == 0 )); then order=($(printf '%s\n' "${order[@]}" | sort -rn)); fi
  for i in "${order[@]}"; do
    p=${ports[$i]}
    pid=${cairn_pids[$i]}
    t0=$(cpu_ticks "$pid"); a=$(anon "$p"); t1=$(cpu_ticks "$pid"); ua=$(cpu_per_request "$t0" "$t1")
    s=$(presigned "$p"); t2=$(cpu_ticks "$pid"); us=$(cpu_per_request "$t1" "$t2")
    python3 "$HERE/sign_headers.py" "http://127.0.0.1:$p" $KEY $SECRET bench 2000 obj/ >"$WORK/signed$p.txt"
    t3=$(cpu_ticks "$pid"); h=$(SIGN=no signed "$p"); t4=$(cpu_ticks "$pid"); uh=$(cpu_per_request "$t3" "$t4")
    for kind in a s h; do
      r[$i.$kind.c]+="$(ratio "${!kind}" "$c") "
      r[$i.$kind.n]+="$(ratio "${!kind}" "$n") "
    done
    r[$i.a.u]+="$ua " r[$i.s.u]+="$us " r[$i.h.u]+="$uh "
    printf '%-5s %-4s %9s %9s %9s %9s %9s %9s %7s %7s %7s %7s %7s %7s\n' "$round" "$i" "$n" "$j" "$c" "$a" "$s" "$h" \
        "$(ratio "$a" "$n")" "$(ratio "$s" "$n")" "$(ratio "$h" "$n")" "$ua" "$us" "$uh"
  done
done
echo "median bare jetty / nginx static: $(median ${r[jetty_nginx]});  nginx worker CPU µs per request: $(median ${r[nginx.u]})"
for i in "${!jars[@]}"; do
  echo "jar $i (${jars[$i]})"
  echo "jar $i: median ratio to nginx static:        anonymous $(median ${r[$i.a.n]})  presigned $(median ${r[$i.s.n]})  header-signed $(median ${r[$i.h.n]})   (targets 0.8, 0.7, 0.7)"
  echo "jar $i: median service CPU µs per request:   anonymous $(median ${r[$i.a.u]})  presigned $(median ${r[$i.s.u]})  header-signed $(median ${r[$i.h.u]})"
  echo "jar $i: (reference) median ratio to the better of nginx and bare Jetty: anonymous $(median ${r[$i.a.c]})  presigned $(median ${r[$i.s.c]})  header-signed $(median ${r[$i.h.c]})"
done
