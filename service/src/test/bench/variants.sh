#!/usr/bin/env bash
# Image variants' figures (docs/variants.md). PARTS picks them (default "libraries cold hot"):
#   libraries  libvips and ImageIO (+libwebp) on the same JPEGs of ~20 KiB and ~300 KiB to 320 px,
#              one thread: "library source output renders/s p99_ms cpu_ms/render" (LibraryBench)
#   cold       variants never rendered before, through the service, next to libvips alone in a
#              loop, rounds alternated: "source cairn_renders/s cairn_p99_ms library_renders/s
#              library_p99_ms ratio" (VariantBench)
#   hot        wrk on one 20 KiB public object: the original GET and a cached variant GET (320 px
#              WebP), rounds alternated; the service's CPU time per request (all its threads, from
#              /proc) and requests/s, medians, and the variant ÷ original ratio of requests/s.
#              BEFORE_JAR=x.jar measures the original GET on that build too (a build without variants).
#   memory     64 concurrent cold variants (320 px WebP) of 24-megapixel JPEGs (6000x4000): the
#              service's RSS before and its peak during (sampled every 0.2 s), and the statuses.
# usage: service/src/test/bench/variants.sh [ROUNDS] [SECONDS]   (from the repository root, after
#        ./mvnw -pl service -am package -DskipTests; needs libvips42 and wrk)
set -euo pipefail
ROUNDS=${1:-5}
SECS=${2:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
WORK=$(mktemp -d /tmp/cairn-variants-bench.XXXXXX)
KEY=BENCHKEY SECRET=benchsecretbenchsecretbenchsecret1234 TOKEN=bench-variant-token
JAR=${JAR:-$ROOT/service/target/cairn-service.jar}
PARTS=${PARTS:-libraries cold hot memory}
PORT=${VARIANTS_PORT:-9141}
has() { case " $PARTS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

(cd "$ROOT" && ./mvnw -B -q -o -pl service -am dependency:build-classpath -Dmaven.test.skip=true \
    -Dmdep.outputFile="$WORK/cp.txt" >/dev/null)
CP="$ROOT/service/target/test-classes:$ROOT/service/target/classes:$ROOT/service/object-store/target/classes"
CP="$CP:$ROOT/storage-engine/target/classes:$(tr ':' '\n' <"$WORK/cp.txt" | grep -v /dev/cairn/ | paste -sd:)"

start() { # JAR PORT DATA: a service, waited for
  java -jar "$1" --server.port="$2" --server.address=127.0.0.1 --cairn.data-dir="$3" \
      --cairn.auth.access-key=$KEY --cairn.auth.secret-key=$SECRET --cairn.variants.secure-token=$TOKEN \
      --logging.level.dev.cairn.service.access=WARN >"$3.log" 2>&1 &
  pids+=($!); started=$!
  for _ in $(seq 180); do curl -sf "http://127.0.0.1:$2/actuator/health" >/dev/null 2>&1 && return; sleep 1; done
  echo "the service on port $2 did not start" >&2; exit 1
}
s3() { curl -sf --aws-sigv4 "aws:amz:us-east-1:s3" --user "$KEY:$SECRET" -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" "$@"; }
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
median() { sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg)"

if has libraries; then
  echo "## library source output renders/s p99_ms cpu_ms/render"
  java -cp "$CP" dev.cairn.service.variants.LibraryBench "$ROUNDS"
fi

if has cold; then
  start "$JAR" "$PORT" "$WORK/cold"
  s3 -X PUT -H "x-amz-acl: public-read" "http://127.0.0.1:$PORT/cold" >/dev/null
  for size in 20 300; do
    java -cp "$CP" dev.cairn.service.variants.LibraryBench write "$WORK/src/${size}KiB" $((size * 1024)) 12 2>/dev/null
    for f in "$WORK/src/${size}KiB"/*.jpg; do
      s3 -X PUT --data-binary "@$f" "http://127.0.0.1:$PORT/cold/${size}KiB/$(basename "$f")" >/dev/null
    done
  done
  echo "## source cairn_renders/s cairn_p99_ms library_renders/s library_p99_ms ratio"
  java -cp "$CP" dev.cairn.service.variants.VariantBench "http://127.0.0.1:$PORT" cold $TOKEN "$ROUNDS" 24 \
      "$WORK/src/20KiB" "$WORK/src/300KiB"
  kill "$started"; wait "$started" 2>/dev/null || true
fi

if has hot; then
  java -cp "$CP" dev.cairn.service.variants.LibraryBench write "$WORK/hotsrc" 20480 1 2>/dev/null
  builds=("$JAR"); [ -n "${BEFORE_JAR:-}" ] && builds+=("$BEFORE_JAR")
  declare -A spid
  for i in "${!builds[@]}"; do
    p=$((PORT + 1 + i))
    start "${builds[$i]}" "$p" "$WORK/hot$i"; spid[$i]=$started
    s3 -X PUT -H "x-amz-acl: public-read" "http://127.0.0.1:$p/hot" >/dev/null
    s3 -X PUT --data-binary "@$WORK/hotsrc/0.jpg" "http://127.0.0.1:$p/hot/src.jpg" >/dev/null
  done
  path=/hot/src.jpg query="w=320&fm=webp"
  sig=$(printf '%s' "$TOKEN$path?$query" | md5sum | cut -d' ' -f1)
  variant="$path?$query&s=$sig"
  curl -sf -o /dev/null "http://127.0.0.1:$((PORT + 1))$variant"
  hz=$(getconf CLK_TCK)
  measure() { # NAME PORT PID URLPATH
    local before after out reqs
    before=$(cpu "$3")
    out=$(wrk -t1 -c8 -d"${SECS}s" "http://127.0.0.1:$2$4")
    after=$(cpu "$3")
    reqs=$(awk '/requests in/ {print $1}' <<<"$out")
    awk -v n="$1" -v r="$reqs" -v c=$((after - before)) -v hz="$hz" -v s="$SECS" \
        'BEGIN {printf "%s %.1f %.1f\n", n, r / s, c / hz * 1e6 / r}' >>"$WORK/hot.txt"
  }
  for i in "${!builds[@]}"; do measure warm$i $((PORT + 1 + i)) "${spid[$i]}" "$path"; done
  : >"$WORK/hot.txt"
  for _ in $(seq "$ROUNDS"); do
    measure original $((PORT + 1)) "${spid[0]}" "$path"
    measure variant $((PORT + 1)) "${spid[0]}" "$variant"
    [ -n "${BEFORE_JAR:-}" ] && measure original-before $((PORT + 2)) "${spid[1]}" "$path"
  done
  echo "## hot GET (20 KiB source): requests/s and CPU µs/request, median of $ROUNDS rounds of ${SECS} s"
  for n in original variant original-before; do
    grep -q "^$n " "$WORK/hot.txt" || continue
    echo "$n $(awk -v n=$n '$1 == n {print $2}' "$WORK/hot.txt" | median) req/s" \
        "$(awk -v n=$n '$1 == n {print $3}' "$WORK/hot.txt" | median) cpu_us/req"
  done
  o=$(awk '$1 == "original" {print $2}' "$WORK/hot.txt" | median)
  v=$(awk '$1 == "variant" {print $2}' "$WORK/hot.txt" | median)
  echo "variant/original requests/s: $(awk -v v="$v" -v o="$o" 'BEGIN {printf "%.2f", v / o}')"
fi

if has memory; then
  start "$JAR" $((PORT + 5)) "$WORK/mem"; mpid=$started
  s3 -X PUT -H "x-amz-acl: public-read" "http://127.0.0.1:$((PORT + 5))/mem" >/dev/null
  java -cp "$CP" dev.cairn.service.variants.LibraryBench write "$WORK/big" 6000x4000 4
  for i in 0 1 2 3; do s3 -X PUT --data-binary "@$WORK/big/$i.jpg" "http://127.0.0.1:$((PORT + 5))/mem/$i.jpg" >/dev/null; done
  rss() { awk '/VmRSS/ {print $2}' "/proc/$mpid/status"; }
  idle=$(rss); echo "$idle" >"$WORK/peak"
  (peak=$idle; while [ ! -e "$WORK/mem.done" ]; do
     r=$(rss); [ "$r" -gt "$peak" ] && peak=$r && echo "$peak" >"$WORK/peak"; sleep 0.2; done) & sampler=$!
  curls=()
  for n in $(seq 64); do
    p=/mem/$((n % 4)).jpg q="w=320&fm=webp&q=$n"
    sig=$(printf '%s' "$TOKEN$p?$q" | md5sum | cut -d' ' -f1)
    curl -s -o /dev/null -w "%{http_code}\n" "http://127.0.0.1:$((PORT + 5))$p?$q&s=$sig" >>"$WORK/mem-status" & curls+=($!)
  done
  wait "${curls[@]}" || true
  touch "$WORK/mem.done"; wait "$sampler" || true
  echo "## 64 concurrent renders of 24-megapixel JPEGs (6000x4000, $(stat -c %s "$WORK/big/0.jpg") bytes)"
  echo "rss before $((idle / 1024)) MiB, peak $(( $(cat "$WORK/peak") / 1024 )) MiB; statuses: $(sort "$WORK/mem-status" | uniq -c | tr '\n' ' ')"
fi
echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg)"
