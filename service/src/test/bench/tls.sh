#!/usr/bin/env bash
# HTTPS against plain HTTP for GETs of 20 KB objects, in one service process that serves both
# (cairn.tls.http-port on loopback): anonymous GETs of one public-read object, then presigned GETs
# cycling over 2000 keys. One run of each, keep-alive connections (wrk), so it measures TLS record
# encryption, not handshakes. Prints a table, then one JSON line. The machine may be shared:
# figures from one run are noisy; compare the ratio, not the absolute numbers.
# usage: service/src/test/bench/tls.sh [SECONDS]   (from the repository root, after
#        ./mvnw -pl service -am package -DskipTests; needs wrk, openssl, boto3 (bin/test-venv))
set -euo pipefail
SECS=${1:-10}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
WORK=$(mktemp -d /tmp/cairn-tls-bench.XXXXXX)
KEY=BENCHKEY SECRET=benchsecretbenchsecretbenchsecret1234
JAR=${JAR:-$ROOT/service/target/cairn-service.jar}
TLS_PORT=${TLS_PORT:-9443} PLAIN_PORT=${PLAIN_PORT:-9180}
PY=$("$ROOT/bin/test-venv")/bin/python
[ -x "$PY" ] || PY=python3
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

cd "$WORK"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key -out ca.pem -days 1 \
    -subj "/CN=Cairn bench CA" -addext basicConstraints=critical,CA:TRUE 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout server.key -out server.csr \
    -subj /CN=localhost 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' >server.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 1 -out server.pem \
    -extfile server.ext 2>/dev/null

java -jar "$JAR" --server.port="$TLS_PORT" --server.address=127.0.0.1 --cairn.data-dir="$WORK/data" \
    --cairn.tls.certificate="$WORK/server.pem" --cairn.tls.private-key="$WORK/server.key" \
    --cairn.tls.http-port="$PLAIN_PORT" --cairn.auth.access-key=$KEY --cairn.auth.secret-key=$SECRET \
    --logging.level.dev.cairn.service.access=WARN >"$WORK/cairn.log" 2>&1 & pid=$!
for _ in $(seq 120); do
  curl -sf "http://127.0.0.1:$PLAIN_PORT/actuator/health" >/dev/null 2>&1 && break
  sleep 1
done
curl -sf --cacert ca.pem "https://127.0.0.1:$TLS_PORT/actuator/health" >/dev/null

"$PY" - "$PLAIN_PORT" $KEY $SECRET <<'PY'
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
"$PY" "$HERE/presign.py" "http://127.0.0.1:$PLAIN_PORT" $KEY $SECRET bench get 2000 obj/ >plain.txt
"$PY" "$HERE/presign.py" "https://127.0.0.1:$TLS_PORT" $KEY $SECRET bench get 2000 obj/ >tls.txt

rps() { wrk "$@" | awk '/Requests\/sec/ {print $2}'; }
anon() { rps -t2 -c16 -d"${SECS}s" "$1/bench/hot"; }
signed() { WRK_URLS="$2" WRK_THREADS=2 rps -t2 -c16 -d"${SECS}s" -s "$HERE/urls.lua" "$1"; }
PLAIN=http://127.0.0.1:$PLAIN_PORT HTTPS=https://127.0.0.1:$TLS_PORT
# Warm-up: JIT and the object cache.
SECS=5 anon "$PLAIN" >/dev/null; SECS=5 anon "$HTTPS" >/dev/null; SECS=5 signed "$HTTPS" tls.txt >/dev/null

ap=$(anon "$PLAIN"); at=$(anon "$HTTPS"); sp=$(signed "$PLAIN" plain.txt); st=$(signed "$HTTPS" tls.txt)
ra=$(awk -v t="$at" -v p="$ap" 'BEGIN {printf "%.3f", t / p}')
rs=$(awk -v t="$st" -v p="$sp" 'BEGIN {printf "%.3f", t / p}')
printf '%-22s %12s %12s %8s\n' "GET 20 KB, ${SECS}s each" "http req/s" "https req/s" ratio
printf '%-22s %12s %12s %8s\n' anonymous "$ap" "$at" "$ra"
printf '%-22s %12s %12s %8s\n' presigned "$sp" "$st" "$rs"
printf '{"bench":"tls","seconds":%s,"anon_http":%s,"anon_https":%s,"anon_ratio":%s,"presigned_http":%s,"presigned_https":%s,"presigned_ratio":%s}\n' \
    "$SECS" "$ap" "$at" "$ra" "$sp" "$st" "$rs"
