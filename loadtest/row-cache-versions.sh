#!/usr/bin/env bash
# Hot GETs through the Cassandra row cache, unversioned and versioned (Enabled) bucket, next to
# the store alone (dev.cairn.store.cassandra.RowCacheBench, in the object store's bench jar;
# docs/cassandra.md, "The row cache"). With
# --baseline-jar, the same bench also runs on another build of the service, alternately with
# this one, run after run, so both see the same machine: the bench class is taken from this
# build and run against the other build's classes.
# Prints each run's phases (build, phase, ops/s, p50 ms, p99 ms, row hit ratio), then the median
# ops/s of each build and phase.
#
# usage: loadtest/row-cache-versions.sh [options]
#   --baseline-jar JAR  another build's service jar to compare with (default: none)
#   --runs N            runs of each build (default 2)
#   --threads N         client threads (default 8)
#   --seconds N         each timed phase (default 10)
#   --keys N            objects in each bucket (default 500)
#   --size BYTES        each object (default 20480)
#
# Uses the local Cassandra cluster of `bin/cairn cassandra` (CAIRN_CASSANDRA_* as there),
# starting it when it does not answer and then stopping it at exit.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
baseline="" runs=2 threads=8 seconds=10 keys=500 size=20480
while [ $# -gt 0 ]; do
  case "$1" in
    --baseline-jar) baseline=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --keys) keys=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "row-cache-versions: unknown option $1" >&2; exit 2 ;;
  esac
done
jar=$root/service/target/cairn-service.jar
[ -f "$jar" ] || { echo "row-cache-versions: $jar is missing: ./mvnw -q -B -DskipTests package -pl service -am" >&2; exit 2; }
work=$(mktemp -d -t cairn-row-cache-versions.XXXXXX)
started_cluster=0
cleanup() {
  local status=$?
  if [ "$started_cluster" = 1 ]; then
    "$root/bin/cairn" cassandra stop >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
  exit $status
}
trap cleanup EXIT INT TERM
if grep -q "does not answer" <<<"$("$root/bin/cairn" cassandra status 2>&1 || true)"; then
  echo "== starting the local Cassandra cluster" >&2
  started_cluster=1
  "$root/bin/cairn" cassandra start >&2
fi
net=${CAIRN_CASSANDRA_NET:-127.0.0} first=${CAIRN_CASSANDRA_FIRST:-21} cql_port=${CAIRN_CASSANDRA_PORT:-9042}
contact_points="$net.$first:$cql_port,$net.$((first + 1)):$cql_port"

# The bench's classes are built apart from the store (service/object-store/src/bench); this
# build's bench jar runs on either build's classes.
bench_jar=$(ls "$root"/service/object-store/target/cairn-object-store-*-bench.jar 2>/dev/null | head -n 1)
[ -n "$bench_jar" ] || { echo "row-cache-versions: the store bench's jar is missing: ./mvnw -q -B -DskipTests package -pl service -am" >&2; exit 2; }

bench() { # build-name jar
  echo "== $1" >&2
  java -Xmx1g -cp "$2" -Dloader.path="$bench_jar" -Dloader.main=dev.cairn.store.cassandra.RowCacheBench \
    org.springframework.boot.loader.launch.PropertiesLauncher "$contact_points" "$threads" "$seconds" "$size" \
    "$keys" 1 2>"$work/bench.log" | { grep -E '^(cache|store)-get-' || true; } | sed "s/^/$1 /" ||
    { cat "$work/bench.log" >&2; exit 1; }
}
: >"$work/results"
for run in $(seq 1 "$runs"); do
  if [ -n "$baseline" ]; then
    bench baseline "$baseline" | tee -a "$work/results"
  fi
  bench this "$jar" | tee -a "$work/results"
done
echo
echo "median ops/s over $runs runs (build phase ops/s):"
for key in $(awk '{ print $1 "|" $2 }' "$work/results" | sort -u); do
  awk -v b="${key%|*}" -v p="${key#*|}" '$1 == b && $2 == p { print $3 }' "$work/results" | sort -g |
    awk -v k="${key%|*} ${key#*|}" '{ a[NR] = $1 } END { printf "%s %.1f\n", k, NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
done
