#!/usr/bin/env bash
# Serving p99 before, during and after full backups, one run, four set-ups:
#   (a) cassandra-backup-dc   Cassandra store, the backup job reads datacenter "backup"
#   (b) cassandra-serving-dc  the same job pointed at datacenter "serving" (baseline)
#   (c) embedded-checkpoint   embedded store, checkpoint read around the caches, --read-rate, idle I/O
#   (d) embedded-through-caches  the same without throttle, reading through caches, normal priority (baseline)
#
#   backup-dc/bench/serving-p99.sh [--count N] [--phase SECONDS] [--threads T] [--read-rate R]
#                                  [--only a,b,c,d] [--workdir DIR]
#
# Serving load: the load generator's workload b (95 % GET, 5 % PUT, Zipfian) on a dataset of the
# portal's sizes (lognormal, median 20 KiB, p90 50 KiB), closed loop. Each set-up runs three
# measured phases of --phase seconds: before, during (full backups run back to back, each into a
# fresh directory target, until the phase ends), after. The table gives serving p99 per phase
# and the rise during; the last line is one JSON object with every figure.
#
# One machine stands in for separate datacenters: the backup datacenter's node gets nice 19 and
# the idle I/O class (renice, ionice -c3), and so does the backup job itself. Cassandra runs its own
# local cluster (bin/cassandra-cluster, addresses 127.0.0.$CAIRN_BENCH_CASSANDRA_FIRST.., default
# 71; a cluster already running there is reused and left running).
# Needs redis-server (the load generator's key registry) and built jars:
#   ./mvnw -o -q -DskipTests package -pl service,backup-dc,loadtest -am
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

count=3000
phase=20
threads=8
read_rate=8M
only=a,b,c,d
workdir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --count) count=$2; shift 2 ;;
    --phase) phase=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --read-rate) read_rate=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --workdir) workdir=$2; shift 2 ;;
    -h|--help) sed -n 2,22p "$0"; exit 0 ;;
    *) echo "serving-p99: unknown option $1" >&2; exit 2 ;;
  esac
done

service_jar=$root/service/target/cairn-service.jar
backup_cp="$root/backup-dc/target/cairn-backup.jar:$root/backup-dc/target/lib/*"
loadtest_cp="$root/loadtest/target/cairn-loadtest.jar:$root/loadtest/target/lib/*"
for f in "$service_jar" "$root/backup-dc/target/cairn-backup.jar" "$root/loadtest/target/cairn-loadtest.jar"; do
  [ -e "$f" ] || { echo "serving-p99: $f missing; build: ./mvnw -o -q -DskipTests package -pl service,backup-dc,loadtest -am" >&2; exit 2; }
done
redis_bin=$(command -v redis-server || echo /usr/bin/redis-server)
[ -x "$redis_bin" ] || { echo "serving-p99: redis-server is not installed" >&2; exit 2; }

keep=1
if [ -z "$workdir" ]; then
  workdir=$(mktemp -d -t cairn-serving-p99.XXXXXX)
  keep=0
fi
mkdir -p "$workdir"/{redis,results}
workdir=$(cd "$workdir" && pwd)
pids=()
me=serving-p99
service_pid=""
stop_more() {
  [ -n "$service_pid" ] && kill "$service_pid" 2>/dev/null || true
  if [ "${cluster_started:-0}" = 1 ]; then
    cassandra stop >/dev/null 2>&1 || true
  fi
}
# shellcheck source=../../loadtest/processes.sh
. "$root/loadtest/processes.sh"
trap cleanup EXIT INT TERM

first=${CAIRN_BENCH_CASSANDRA_FIRST:-71}
cassandra() {
  CAIRN_CASSANDRA_DIR=${CAIRN_BENCH_CASSANDRA_DIR:-$workdir/cassandra} CAIRN_CASSANDRA_FIRST=$first \
    CAIRN_CASSANDRA_NET=127.0.0 CAIRN_CASSANDRA_SERVING=2 CAIRN_CASSANDRA_BACKUP=1 "$root/bin/cassandra-cluster" "$@"
}

access_key=BENCHADMIN
secret_key=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
printf '%s\n' "$access_key" >"$workdir/access"
printf '%s\n' "$secret_key" >"$workdir/secret"

redis_port=$(free_port)
"$redis_bin" --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize no \
  --dir "$workdir/redis" >"$workdir/redis/redis.log" 2>&1 &
pids+=($!)
await_port redis-server "$redis_port" "${pids[-1]}"

lt() { java -cp "$loadtest_cp" dev.cairn.loadtest.Main loadtest "$@"; }
backup() { nice -n 19 ionice -c3 java -cp "$backup_cp" dev.cairn.backup.Main "$@"; }

start_service() { # data-dir extra-args...
  local data=$1; shift
  port=$(free_port)
  mkdir -p "$data"
  java -Xmx1g -jar "$service_jar" --server.port="$port" --server.address=127.0.0.1 --cairn.data-dir="$data" \
    --cairn.auth.access-key="$access_key" --cairn.auth.secret-key="$secret_key" \
    --logging.level.dev.cairn.service.access=WARN "$@" >"$data.log" 2>&1 &
  service_pid=$!
  await_port cairn "$port" "$service_pid"
}
stop_service() {
  kill "$service_pid" 2>/dev/null || true
  wait "$service_pid" 2>/dev/null || true
  service_pid=""
}

# p99 of reads and of all operations from a result file.
p99() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); p=d["perOperation"]; print(p.get("read",{}).get("p99Ms",0))' "$1"; }

measure() { # name backup-args...
  local name=$1; shift
  local ds=$name common s3
  common=(--redis "127.0.0.1:$redis_port" --dataset "$ds")
  s3=(--endpoint "http://127.0.0.1:$port" --bucket "$ds" --access-key "$access_key" --secret-key "$secret_key")
  echo "== $name: load $count objects" >&2
  lt load "${common[@]}" "${s3[@]}" --count "$count" --threads 4 >/dev/null
  run() { lt run "${common[@]}" "${s3[@]}" -w b --threads "$threads" --duration "${phase}s" --quiet \
            --label "$name-$1" --out "$workdir/results/$name-$1.json" >/dev/null; }
  echo "== $name: warm-up, then before" >&2
  lt run "${common[@]}" "${s3[@]}" -w b --threads "$threads" --duration 5s --quiet --out "$workdir/results/$name-warmup.json" >/dev/null
  run before
  echo "== $name: during (full backups back to back)" >&2
  run during &
  local load_pid=$!
  local started n=0 first_secs="" status=ok
  (
    i=0
    while kill -0 "$load_pid" 2>/dev/null; do
      i=$((i + 1))
      start=$(date +%s.%N)
      if backup run "$@" --target "dir:$workdir/targets/$name-$i" --report "$workdir/results/$name-backup-$i.json" \
          >"$workdir/results/$name-backup-$i.log" 2>&1; then
        echo "$i $(echo "$(date +%s.%N) - $start" | bc)" >>"$workdir/results/$name-backups.txt"
      else
        kill -0 "$load_pid" 2>/dev/null && echo "failed $i" >>"$workdir/results/$name-backups.txt"
      fi
    done
  ) &
  local loop_pid=$!
  wait "$load_pid"
  pkill -P "$loop_pid" 2>/dev/null || true
  kill "$loop_pid" 2>/dev/null || true
  wait "$loop_pid" 2>/dev/null || true
  sleep 2
  echo "== $name: after" >&2
  run after
  n=$(grep -c -v failed "$workdir/results/$name-backups.txt" 2>/dev/null || true)
  first_secs=$(awk '!/failed/ {print $2; exit}' "$workdir/results/$name-backups.txt" 2>/dev/null || true)
  grep -q failed "$workdir/results/$name-backups.txt" 2>/dev/null && status="failed: see $workdir/results/$name-backup-*.log"
  printf '%s %s %s %s %s %s %s\n' "$name" "$(p99 "$workdir/results/$name-before.json")" \
    "$(p99 "$workdir/results/$name-during.json")" "$(p99 "$workdir/results/$name-after.json")" \
    "${n:-0}" "${first_secs:-none}" "${status// /_}" >>"$workdir/results/summary.txt"
}

: >"$workdir/results/summary.txt"
mkdir -p "$workdir/targets"

if [[ $only == *a* || $only == *b* ]]; then
  cluster_started=0
  if cassandra status 2>&1 | grep -qv "CQL answers"; then
    echo "== starting Cassandra (3 nodes) ..." >&2
    cassandra start >&2
    cluster_started=1
  fi
  cdir=${CAIRN_BENCH_CASSANDRA_DIR:-$workdir/cassandra}
  backup_pid=$(cat "$cdir/node3/pid")
  renice -n 19 -p "$backup_pid" >/dev/null
  ionice -c3 -p "$backup_pid" || echo "serving-p99: ionice refused; the backup node keeps its I/O class" >&2
  serving_points="127.0.0.$first:9042,127.0.0.$((first + 1)):9042"
  start_service "$workdir/cassandra-service" --cairn.store=cassandra \
    --cairn.cassandra.contact-points="$serving_points" --cairn.cassandra.keyspace=bench
  [[ $only == *a* ]] && measure cassandra-backup-dc --source cassandra --contact-points "127.0.0.$((first + 2)):9042" \
    --datacenter backup --keyspace bench
  [[ $only == *b* ]] && measure cassandra-serving-dc --source cassandra --contact-points "127.0.0.$first:9042" \
    --datacenter serving --keyspace bench
  stop_service
fi

if [[ $only == *c* || $only == *d* ]]; then
  start_service "$workdir/embedded-service"
  embedded=(--source embedded --service-url "http://127.0.0.1:$port" --admin-access-key-file "$workdir/access"
            --admin-secret-key-file "$workdir/secret")
  [[ $only == *c* ]] && measure embedded-checkpoint "${embedded[@]}" --read-rate "$read_rate"
  [[ $only == *d* ]] && measure embedded-through-caches "${embedded[@]}" --through-caches
  stop_service
fi

echo
echo "Serving read p99 (ms), workload b (95% GET / 5% PUT, Zipfian), $count objects, $threads threads, ${phase}s per phase."
echo "One machine: the backup datacenter's node and the backup job run at nice 19 with the idle I/O class."
printf '%-26s %10s %10s %10s %9s %8s %12s  %s\n' setup before during after rise full-bkps first-bkp-s status
python3 - "$workdir/results/summary.txt" "$count" "$phase" "$threads" "$read_rate" <<'PY'
import json, sys
rows = []
for line in open(sys.argv[1]):
    name, before, during, after, n, first, status = line.split()
    b, d, a = float(before), float(during), float(after)
    rise = (d / b - 1) * 100 if b > 0 else float("nan")
    print(f"{name:<26} {b:10.2f} {d:10.2f} {a:10.2f} {rise:+8.1f}% {n:>8} {first:>12}  {status}")
    rows.append({"setup": name, "p99BeforeMs": b, "p99DuringMs": d, "p99AfterMs": a, "riseDuringPct": round(rise, 1),
                 "fullBackupsDuring": int(n), "firstBackupSeconds": None if first == "none" else float(first),
                 "status": status})
print(json.dumps({"benchmark": "serving-p99", "objects": int(sys.argv[2]), "phaseSeconds": int(sys.argv[3]),
                  "threads": int(sys.argv[4]), "embeddedReadRate": sys.argv[5], "workload": "b",
                  "isolation": "backup node and job: nice 19, ionice -c3", "results": rows}))
PY
