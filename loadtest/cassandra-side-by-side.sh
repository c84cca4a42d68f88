#!/usr/bin/env bash
# The Cassandra store next to the embedded engine: the same 20 KB GET and PUT workload, through
# the same client, against one service on each backend, in one run; then the Cassandra
# service's row cache during the GET runs, read from its Prometheus endpoint. Before the timed
# GETs every store is warmed with a uniform pass over its keys (five reads per key), so the
# timed GETs measure the row cache; misses are counted separately and measured on their own
# below. GETs run twice: signed through the AWS SDK (S3), and as plain HTTP GETs of the
# public-read bucket (the tool's lean client, so the service rather than the client is what gets
# measured). Then, on the same cluster, the cluster alone (single-row writes and reads at
# LOCAL_QUORUM) next to the Cassandra store alone (PUT, and GET without the row cache: what a
# miss costs), with the same threads (dev.cairn.store.cassandra.CassandraBench). The Cassandra
# service's settling counters over its PUT run come from its Prometheus endpoint too; the store
# alone's settling counts and statement times per PUT are in results/bench.log.
# Prints one table and one JSON line. See docs/cassandra.md ("Figures").
#
# usage: loadtest/cassandra-side-by-side.sh [options]
#   --count N           objects in each dataset (default 2000)
#   --object-size S     every object this size (default 20KiB)
#   --threads N         client threads (default 16)
#   --duration D        time bound of each measured run (default 20s)
#   --warm-reads N      untimed uniform reads per key before the measured GET runs (default 5)
#   --workdir DIR       keep everything here (default: a fresh temporary directory, removed at exit)
#   --service-jar JAR   run both services and the store bench on this jar (default: the checkout's
#                       service/target/cairn-service.jar), e.g. a copy kept from an older build; the
#                       bench's own classes are this checkout's (its object store's bench jar)
#   --put-only          skip the GET runs and their warm-up (PUT figures and the bench only)
#
# Needs redis-server (the load tool's key registry; bin/install-test-deps installs it). Uses the
# local Cassandra cluster of `bin/cairn cassandra` (CAIRN_CASSANDRA_* as there), starting it
# when it does not answer and then stopping it at exit. Both services listen on free loopback
# ports with their own data directories; a trap stops everything this script started.
# The timed PUT run first warms up for as long as it is timed, in the same client JVM (--warmup);
# the CPU per PUT of the service and of the client is sampled over the timed part alone.
# About 8 minutes with the defaults, cluster start excluded.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

count=2000 object_size=20KiB threads=16 duration=20s warm_reads=5 workdir=""
service_jar="" put_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --count) count=$2; shift 2 ;;
    --object-size) object_size=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --warm-reads) warm_reads=$2; shift 2 ;;
    --workdir) workdir=$2; shift 2 ;;
    --service-jar) service_jar=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
    --put-only) put_only=1; shift ;;
    -h|--help) sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "cassandra-side-by-side: unknown option $1" >&2; exit 2 ;;
  esac
done

redis_bin=$(command -v redis-server || echo /usr/bin/redis-server)
[ -x "$redis_bin" ] || { echo "cassandra-side-by-side: redis-server is not installed (run bin/install-test-deps as root)" >&2; exit 2; }

keep=1
if [ -z "$workdir" ]; then
  workdir=$(mktemp -d -t cairn-cassandra-side-by-side.XXXXXX)
  keep=0
fi
mkdir -p "$workdir"/{embedded,cassandra,redis,results}
workdir=$(cd "$workdir" && pwd)

pids=()
me=cassandra-side-by-side
started_cluster=0
stop_more() {
  if [ "$started_cluster" = 1 ]; then
    "$root/bin/cairn" cassandra stop >/dev/null 2>&1 || true
  fi
}
# shellcheck source=processes.sh
. "$root/loadtest/processes.sh"
trap cleanup EXIT INT TERM

cluster_status=$("$root/bin/cairn" cassandra status 2>&1 || true)
if grep -q "does not answer" <<<"$cluster_status"; then
  echo "== starting the local Cassandra cluster" >&2
  started_cluster=1
  "$root/bin/cairn" cassandra start >&2
fi

redis_port=$(free_port)
"$redis_bin" --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize no \
  --dir "$workdir/redis" >"$workdir/redis/redis.log" 2>&1 &
pids+=($!)
await_port redis-server "$redis_port" "${pids[-1]}"

net=${CAIRN_CASSANDRA_NET:-127.0.0} first=${CAIRN_CASSANDRA_FIRST:-21} cql_port=${CAIRN_CASSANDRA_PORT:-9042}
contact_points="$net.$first:$cql_port,$net.$((first + 1)):$cql_port"

access_key=cassandra-side-by-side
secret_key=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
declare -A port server_pid
for store in embedded cassandra; do
  port[$store]=$(free_port)
  # Arguments rank above the packaged settings (server.port: 9000).
  serve=("$root/bin/cairn" serve)
  [ -n "$service_jar" ] && serve=(java ${CAIRN_JAVA_OPTS:-} -jar "$service_jar")
  "${serve[@]}" --server.port="${port[$store]}" --server.address=127.0.0.1 \
    --cairn.data-dir="$workdir/$store" --cairn.store="$store" --cairn.cassandra.contact-points="$contact_points" \
    --cairn.auth.access-key="$access_key" --cairn.auth.secret-key="$secret_key" \
    --logging.level.dev.cairn.service.access=WARN >"$workdir/$store/cairn.log" 2>&1 &
  pids+=($!)
  server_pid[$store]=$!
  await_port "cairn ($store)" "${port[$store]}" "${pids[-1]}"
done

lt() { "$root/bin/cairn" loadtest "$@"; }
bucket=side-$(date +%s)
out=$workdir/results
bounds=(--threads "$threads" --duration "$duration" --ops 100000000 --quiet)

row_cache() { # the Cassandra service's row cache counters: row hits, row misses, content hits, content misses
  curl -fsS -u "$access_key:$secret_key" "http://127.0.0.1:${port[cassandra]}/actuator/prometheus" | awk '
    /^cairn_row_cache_row_hits_total/ {rh=$2} /^cairn_row_cache_row_misses_total/ {rm=$2}
    /^cairn_row_cache_content_hits_total/ {ch=$2} /^cairn_row_cache_content_misses_total/ {cm=$2}
    END {printf "%d %d %d %d\n", rh, rm, ch, cm}'
}

cpu_ticks() { # user + system CPU of a process so far, in clock ticks
  awk '{print $14 + $15}' "/proc/$1/stat"
}
declare -A service_cpu client_cpu
# Waits until the load client's warm-up threads have come and gone: its timed run has begun.
await_recording() { # pid
  local seen=0
  while kill -0 "$1" 2>/dev/null; do
    if grep -qs '^loadtest-warmup' /proc/"$1"/task/*/comm; then
      seen=1
    elif [ $seen = 1 ]; then
      return 0
    fi
    sleep 0.1
  done
}

settling() { # the Cassandra service's settling: settles, self-settled, coalesced, overtaken, backlog now
  curl -fsS -u "$access_key:$secret_key" "http://127.0.0.1:${port[cassandra]}/actuator/prometheus" | awk '
    /^cairn_cassandra_settles_total/ {s=$2} /^cairn_cassandra_settles_self_total/ {self=$2}
    /^cairn_cassandra_settles_coalesced_total/ {c=$2} /^cairn_cassandra_settles_overtaken_total/ {o=$2}
    /^cairn_cassandra_settle_backlog/ {b=$2}
    END {printf "%d %d %d %d %d\n", s, self, c, o, b}'
}

before="0 0 0 0" after="0 0 0 0" # row cache counters, read around the GET runs
for store in embedded cassandra; do
  common=(--redis "127.0.0.1:$redis_port" --dataset "$store")
  s3=(--endpoint "http://127.0.0.1:${port[$store]}" --bucket "$bucket" --access-key "$access_key" --secret-key "$secret_key")
  echo "== $store: load $count objects of $object_size" >&2
  lt load "${common[@]}" "${s3[@]}" --public-read --count "$count" --object-size "$object_size" --threads 8 >&2
  if [ "$put_only" = 0 ]; then
  echo "== $store: warm-up, $warm_reads uniform reads per key (untimed)" >&2
  lt run "${common[@]}" --http "http://127.0.0.1:${port[$store]}/$bucket/" -w read-only --distribution uniform \
    --threads "$threads" --duration 600s --ops $((count * warm_reads)) \
    --quiet --label "$store-warmup" --out "$out/$store-warmup.json" >/dev/null
  echo "== $store: GET (read-only, Zipfian)" >&2
  [ $store = cassandra ] && before=$(row_cache)
  lt run "${common[@]}" "${s3[@]}" -w read-only "${bounds[@]}" --label "$store-get" --out "$out/$store-get.json" >&2
  echo "== $store: GET over plain HTTP (read-only, Zipfian)" >&2
  lt run "${common[@]}" --http "http://127.0.0.1:${port[$store]}/$bucket/" -w read-only "${bounds[@]}" \
    --label "$store-http-get" --out "$out/$store-http-get.json" >&2
  [ $store = cassandra ] && after=$(row_cache)
  fi
  # Untimed PUTs first, in the timed client's own JVM (--warmup): a cluster and a service that had
  # only loaded and read wrote at two thirds of their warmed rate in their first PUT run (110, 116,
  # 164 PUT/s in three runs back to back), and a client warmed in another JVM compiled its own code
  # again during the timed run, on the same two cores as the cluster.
  echo "== $store: PUT (write-only: a new version of an existing key), after a warm-up of $duration in the same client" >&2
  "$root/bin/cairn" loadtest run "${common[@]}" "${s3[@]}" -w write-only --warmup "$duration" "${bounds[@]}" \
    --label "$store-put" --out "$out/$store-put.json" >&2 &
  client=$!
  await_recording "$client"
  [ $store = cassandra ] && settle_before=$(settling)
  service_cpu0=$(cpu_ticks "${server_pid[$store]}")
  client_cpu0=$(cpu_ticks "$client" 2>/dev/null || echo 0)
  client_cpu1=$client_cpu0
  while kill -0 "$client" 2>/dev/null; do
    client_cpu1=$(cpu_ticks "$client" 2>/dev/null || echo "$client_cpu1")
    sleep 0.2
  done
  wait "$client"
  service_cpu[$store]=$(( $(cpu_ticks "${server_pid[$store]}") - service_cpu0 ))
  client_cpu[$store]=$(( client_cpu1 - client_cpu0 ))
  [ $store = cassandra ] && settle_after=$(settling)
done

secs=${duration%s}
echo "== the cluster alone, then the Cassandra store alone ($threads threads, ${secs}s each)" >&2
# The store bench is built apart from the store (service/object-store/src/bench): its jar goes
# beside the service's classes.
bench_jar=$(ls "$root"/service/object-store/target/cairn-object-store-*-bench.jar 2>/dev/null | head -n 1)
[ -n "$bench_jar" ] || { echo "$me: the store bench's jar is missing: ./mvnw -q -B -DskipTests package -pl service -am" >&2; exit 2; }
java -cp "${service_jar:-$root/service/target/cairn-service.jar}" -Dloader.path="$bench_jar" \
  -Dloader.main=dev.cairn.store.cassandra.CassandraBench org.springframework.boot.loader.launch.PropertiesLauncher "$contact_points" "$threads" "$secs" 20480 "$count" \
  >"$out/bench.txt" 2>"$out/bench.log" || { cat "$out/bench.log" >&2; exit 1; }
declare -A bench
while read -r phase ops p50 p99; do bench[$phase]="$ops $p50 $p99"; done <"$out/bench.txt"

figures() { # result file of a one-operation run -> "ops/s p50-ms p99-ms errors"
  [ -e "$1" ] || { echo "0 0 0 0"; return; } # a run left out (--put-only)
  jq -r '.perOperation | to_entries[0].value | [.opsPerSecond, .p50Ms, .p99Ms, .errorCount] | @tsv' "$1"
}
read -r rh0 rm0 ch0 cm0 <<<"$before"
read -r rh1 rm1 ch1 cm1 <<<"$after"
echo
printf '%-10s %13s %14s %13s %14s %13s %14s %7s\n' store "S3 GET ops/s" "S3 GET p99 ms" \
  "HTTP GET ops/s" "HTTP GET p99 ms" "S3 PUT ops/s" "S3 PUT p99 ms" errors
json='{"objects":'$count',"threads":'$threads',"seconds":'$secs
declare -A ops
for store in embedded cassandra; do
  read -r gops gp50 gp99 gerr < <(figures "$out/$store-get.json")
  read -r hops hp50 hp99 herr < <(figures "$out/$store-http-get.json")
  read -r pops pp50 pp99 perr < <(figures "$out/$store-put.json")
  ops[$store-get]=$gops ops[$store-http]=$hops ops[$store-put]=$pops
  printf '%-10s %13.0f %14.2f %13.0f %14.2f %13.0f %14.2f %7d\n' "$store" "$gops" "$gp99" "$hops" "$hp99" \
    "$pops" "$pp99" $((gerr + herr + perr))
  json+=",\"$store\":{\"s3Get\":{\"opsPerSecond\":$gops,\"p99Ms\":$gp99},\"httpGet\":{\"opsPerSecond\":$hops,\"p50Ms\":$hp50,\"p99Ms\":$hp99},\"s3Put\":{\"opsPerSecond\":$pops,\"p50Ms\":$pp50,\"p99Ms\":$pp99},\"errors\":$((gerr + herr + perr))}"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }
tick_ms=$(awk -v hz="$(getconf CLK_TCK)" 'BEGIN { print 1000 / hz }')
for store in embedded cassandra; do
  awk -v ops="${ops[$store-put]}" -v secs="$secs" -v svc="${service_cpu[$store]}" -v tick="$tick_ms" \
    -v client="${client_cpu[$store]}" -v store="$store" 'BEGIN {
    n = ops * secs; if (n < 1) n = 1
    printf "CPU per S3 PUT on %s: service %.2f ms, client %.2f ms\n", store, svc * tick / n, client * tick / n }'
done
echo
printf 'cassandra / embedded: S3 GET %s, HTTP GET %s, S3 PUT %s\n' "$(ratio "${ops[cassandra-get]}" "${ops[embedded-get]}")" \
  "$(ratio "${ops[cassandra-http]}" "${ops[embedded-http]}")" "$(ratio "${ops[cassandra-put]}" "${ops[embedded-put]}")"
awk -v rh=$((rh1 - rh0)) -v rm=$((rm1 - rm0)) -v ch=$((ch1 - ch0)) -v cm=$((cm1 - cm0)) 'BEGIN {
  printf "row cache in front of Cassandra, measured GET runs: object rows %d hits, %d misses (%.1f%% hits); content %d hits, %d misses\n",
    rh, rm, rh + rm ? 100 * rh / (rh + rm) : 0, ch, cm }'
read -r ss0 sf0 sc0 so0 _ <<<"$settle_before"
read -r ss1 sf1 sc1 so1 sb1 <<<"$settle_after"
printf 'the Cassandra service settling during its S3 PUT run: settles %d, self-settled %d, coalesced %d, overtaken %d; backlog at its end %d\n' \
  $((ss1 - ss0)) $((sf1 - sf0)) $((sc1 - sc0)) $((so1 - so0)) "$sb1"
echo
printf '%-18s %10s %9s %9s\n' "alone" "ops/s" "p50 ms" "p99 ms"
for phase in cluster-write cluster-read store-put-uniform store-put store-get; do
  read -r o p50 p99 <<<"${bench[$phase]}"
  printf '%-18s %10.0f %9.2f %9.2f\n' "$phase" "$o" "$p50" "$p99"
  json+=",\"$phase\":{\"opsPerSecond\":$o,\"p50Ms\":$p50,\"p99Ms\":$p99}"
done
printf 'S3 PUT through the Cassandra service / the store alone (store-put): %s\n' \
  "$(ratio "${ops[cassandra-put]}" "$(cut -d' ' -f1 <<<"${bench[store-put]}")")"
echo "(store-put: Zipfian keys, as the S3 PUT run; store-get is the Cassandra store without the row cache: what a row cache miss costs)"
grep -E '^store-put[a-z-]*: [0-9]' "$out/bench.log" || true
json+=",\"serviceSettling\":{\"settles\":$((ss1 - ss0)),\"selfSettled\":$((sf1 - sf0)),\"coalesced\":$((sc1 - sc0)),\"overtaken\":$((so1 - so0))}"
json+=",\"rowCache\":{\"rowHits\":$((rh1 - rh0)),\"rowMisses\":$((rm1 - rm0)),\"contentHits\":$((ch1 - ch0)),\"contentMisses\":$((cm1 - cm0))}"
json+=",\"ratios\":{\"s3PutOverStoreAlone\":$(ratio "${ops[cassandra-put]}" "$(cut -d' ' -f1 <<<"${bench[store-put]}")"),\"s3Get\":$(ratio "${ops[cassandra-get]}" "${ops[embedded-get]}"),\"httpGet\":$(ratio "${ops[cassandra-http]}" "${ops[embedded-http]}"),\"s3Put\":$(ratio "${ops[cassandra-put]}" "${ops[embedded-put]}")}}"
echo
echo "$json"
