#!/usr/bin/env bash
# Hot GET next to the machine's ceiling, measured alternately in the same run: prints, per round,
# requests/s of the bare Jetty handler and of Cairn (anonymous public-read GET of one 20 KB
# object, then presigned GETs cycling over 2000 keys of 20 KB) and their ratios, then the medians.
# usage: service/src/test/bench/ratio.sh [ROUNDS] [SECONDS]   (from the repository root, after
#        ./mvnw -pl service -am package -DskipTests; needs wrk, python3 with boto3)
set -euo pipefail
ROUNDS=${1:-5}
SECS=${2:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
WORK=$(mktemp -d /tmp/cairn-bench.XXXXXX)
KEY=BENCHKEY SECRET=benchsecretbenchsecretbenchsecret1234
JAR=${JAR:-$ROOT/service/target/cairn-service.jar}
CEIL_PORT=${CEIL_PORT:-9200} CAIRN_PORT=${CAIRN_PORT:-9100}
# boto3 lives in the tests' virtual environment (bin/install-test-deps).
PATH="$("$ROOT/bin/test-venv")/bin:$PATH"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

(cd "$ROOT" && ./mvnw -B -q -o -pl service dependency:build-classpath -Dmdep.outputFile="$WORK/cp.txt" >/dev/null)
java -cp "$ROOT/service/target/test-classes:$(cat "$WORK/cp.txt")" dev.cairn.service.bench.BareJettyCeiling \
    "$CEIL_PORT" >"$WORK/ceiling.log" 2>&1 & pids+=($!)
java -jar "$JAR" --server.port="$CAIRN_PORT" --cairn.data-dir="$WORK/data" \
    --cairn.auth.access-key=$KEY --cairn.auth.secret-key=$SECRET \
    --logging.level.dev.cairn.service.access=WARN >"$WORK/cairn.log" 2>&1 & pids+=($!)
for _ in $(seq 120); do
  curl -sf "http://127.0.0.1:$CAIRN_PORT/actuator/health" >/dev/null 2>&1 && curl -s "http://127.0.0.1:$CEIL_PORT/" >/dev/null 2>&1 && break
  sleep 1
done

python3 - "$CAIRN_PORT" $KEY $SECRET <<'PY'
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
python3 "$HERE/presign.py" "http://127.0.0.1:$CAIRN_PORT" $KEY $SECRET bench get 2000 obj/ >"$WORK/get.txt"

rps() { wrk "$@" | awk '/Requests\/sec/ {print $2}'; }
anon() { rps -t2 -c16 -d"${SECS}s" "http://127.0.0.1:$CAIRN_PORT/bench/hot"; }
signed() { WRK_URLS="$WORK/get.txt" WRK_THREADS=2 rps -t2 -c16 -d"${SECS}s" -s "$HERE/urls.lua" "http://127.0.0.1:$CAIRN_PORT"; }
ceiling() { rps -t2 -c16 -d"${SECS}s" "http://127.0.0.1:$CEIL_PORT/"; }
# Warm-up: JIT and the object cache.
SECS=10 anon >/dev/null; SECS=10 signed >/dev/null; SECS=5 ceiling >/dev/null

printf '%-6s %10s %10s %8s %10s %10s %8s\n' round ceiling anon ratio ceiling presigned ratio
ra=() rp=()
for r in $(seq "$ROUNDS"); do
  c1=$(ceiling); a=$(anon); c2=$(ceiling); p=$(signed)
  x=$(awk -v a="$a" -v c="$c1" 'BEGIN {printf "%.3f", a / c}')
  y=$(awk -v a="$p" -v c="$c2" 'BEGIN {printf "%.3f", a / c}')
  ra+=("$x") rp+=("$y")
  printf '%-6s %10s %10s %8s %10s %10s %8s\n' "$r" "$c1" "$a" "$x" "$c2" "$p" "$y"
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
echo "median ratio: anonymous $(median "${ra[@]}")  presigned $(median "${rp[@]}")"
