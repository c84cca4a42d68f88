#!/usr/bin/env bash
# The web console's figures: thumbnail generation (images/s per format, one thread), the time
# until a prefix of 200 images shows in full in headless Chromium (cold: no thumbnail made yet;
# warm: made, browser cache off), and the S3 hot path with the console on and off (ratio.sh,
# runs alternated). Prints a table, then one JSON line.
# usage: service/src/test/bench/console.sh [ROUNDS] [RATIO_RUNS]   (from the repository root, after
#        ./mvnw -pl service -am package -DskipTests; needs chromium, chromium-driver, wrk and the
#        Python packages of bin/install-test-deps). RATIO_RUNS=0 skips the hot-path comparison;
#        PARTS (default "thumbs browse ratio") picks the parts to run; JAR measures another build.
set -euo pipefail
ROUNDS=${1:-3}
RATIO_RUNS=${2:-2}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
WORK=$(mktemp -d /tmp/cairn-console-bench.XXXXXX)
KEY=BENCHKEY SECRET=benchsecretbenchsecretbenchsecret1234
export JAR=${JAR:-$ROOT/service/target/cairn-service.jar}
PARTS=${PARTS:-thumbs browse ratio}
has() { case " $PARTS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
PORT=${CONSOLE_PORT:-9131}
PATH="$("$ROOT/bin/test-venv")/bin:$PATH"
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

(cd "$ROOT" && ./mvnw -B -q -o -pl service dependency:build-classpath -Dmdep.outputFile="$WORK/cp.txt" >/dev/null)
CP="$ROOT/service/target/test-classes:$ROOT/service/target/classes:$(cat "$WORK/cp.txt")"

: >"$WORK/thumbs.txt"; : >"$WORK/browse.txt"; : >"$WORK/ratio.txt"
has thumbs && java -cp "$CP" dev.cairn.service.console.ThumbnailBench speed "$ROUNDS" >"$WORK/thumbs.txt"
if has browse; then
  for r in $(seq "$ROUNDS"); do
    java -cp "$CP" dev.cairn.service.console.ThumbnailBench write "$WORK/images/r$r" 200 "$r"
  done

  java -jar "$JAR" --server.port="$PORT" --server.address=127.0.0.1 --cairn.data-dir="$WORK/data" \
      --cairn.auth.access-key=$KEY --cairn.auth.secret-key=$SECRET \
      --logging.level.dev.cairn.service.access=WARN >"$WORK/cairn.log" 2>&1 & pid=$!
  for _ in $(seq 180); do
    curl -sf "http://127.0.0.1:$PORT/actuator/health" >/dev/null 2>&1 && break
    sleep 1
  done
  python3 "$HERE/console_browse.py" "http://127.0.0.1:$PORT" $KEY $SECRET "$WORK/images" "$ROUNDS" >"$WORK/browse.txt"
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
fi

has ratio || RATIO_RUNS=0
for run in $(seq "$RATIO_RUNS"); do
  for mode in on off; do
    if [ "$mode" = off ]; then opts=-Dcairn.console.enabled=false; else opts=; fi
    line=$(JAVA_TOOL_OPTIONS="$opts" CAIRN_PORT=9132 CEIL_PORT=9232 "$HERE/ratio.sh" 3 5 2>/dev/null \
        | grep 'median ratio to the ceiling' | head -n 1 || true)
    anonymous=$(grep -o 'anonymous [0-9.]*' <<<"$line" | awk '{print $2}' || true)
    presigned=$(grep -o ' presigned [0-9.]*' <<<"$line" | awk '{print $2}' || true)
    echo "$run $mode ${anonymous:-failed} ${presigned:-failed}" >>"$WORK/ratio.txt"
  done
done

median() { sort -n | awk '{v[NR]=$1} END {if (NR == 0) print "null"; else print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
cat "$WORK/thumbs.txt" "$WORK/browse.txt" "$WORK/ratio.txt" >"${RAW_OUT:-/dev/null}"
echo "thumbnail generation, 256 px, one thread (median of $ROUNDS rounds)"
printf '%-6s %11s %10s\n' format pixels images/s
awk '{printf "%-6s %11s %10s\n", $1, $2 "x" $3, $4}' "$WORK/thumbs.txt"
echo
echo "200-image prefix in full, headless Chromium, browser cache off (seconds)"
printf '%-6s %8s %8s\n' round cold warm
for r in $(seq "$ROUNDS"); do
  printf '%-6s %8s %8s\n' "$r" "$(awk -v r="$r" '$1 == r && $2 == "cold" {print $3}' "$WORK/browse.txt")" \
      "$(awk -v r="$r" '$1 == r && $2 == "warm" {print $3}' "$WORK/browse.txt")"
done
cold=$(awk '$2 == "cold" {print $3}' "$WORK/browse.txt" | median)
warm=$(awk '$2 == "warm" {print $3}' "$WORK/browse.txt" | median)
echo "median: cold $cold  warm $warm"
echo
echo "hot GET ratio to the bare Jetty ceiling (ratio.sh 3 5), console on and off, alternated"
printf '%-4s %-5s %10s %10s\n' run mode anonymous presigned
awk '{printf "%-4s %-5s %10s %10s\n", $1, $2, $3, $4}' "$WORK/ratio.txt"
measured() { awk -v mode="$1" -v col="$2" '$2 == mode && $col != "failed" {print $col}' "$WORK/ratio.txt" | median; }
on_a=$(measured on 3); off_a=$(measured off 3)
on_p=$(measured on 4); off_p=$(measured off 4)
echo "median: on anonymous $on_a presigned $on_p; off anonymous $off_a presigned $off_p"
thumbs_json=$(awk 'BEGIN {printf "{"} {printf "%s\"%s_%sx%s\": %s", (NR > 1 ? ", " : ""), $1, $2, $3, $4} END {printf "}"}' "$WORK/thumbs.txt")
echo "{\"bench\": \"console\", \"thumbnails_per_second\": $thumbs_json, \"prefix200_seconds\": {\"cold\": $cold, \"warm\": $warm}, \"hot_get_ratio\": {\"console_on\": {\"anonymous\": $on_a, \"presigned\": $on_p}, \"console_off\": {\"anonymous\": $off_a, \"presigned\": $off_p}}}"
