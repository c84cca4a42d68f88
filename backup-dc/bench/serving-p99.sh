#!/usr/bin/env bash
# Serving p99 before, during and after full backups, one run, four set-ups:
#   (c) embedded-checkpoint      embedded store, checkpoint read around the caches, --read-rate, idle I/O
#   (d) embedded-through-caches  the same without throttle, reading through caches, normal priority (baseline)
#   (a) cassandra-backup-dc      Cassandra store, the backup job reads datacenter "backup"
#   (b) cassandra-serving-dc     the same job pointed at datacenter "serving" (baseline)
#   (e) idle-cpu-floor           no backup: two SHA-256 loops over /dev/zero in the idle CPU class
#                                (chrt -i 0) beside the embedded store, what any work at idle
#                                priority costs serving on this machine (a control, not in the default;
#                                under --backup-cpu the loops share (c)'s quota, so (e) is then what
#                                the same CPU budget costs serving when it does nothing but compute)
#
#   backup-dc/bench/serving-p99.sh [--count N] [--cassandra-count N] [--phase SECONDS] [--settle SECONDS]
#                                  [--load-fraction F] [--read-rate R] [--rounds N] [--only a,b,c,d,e]
#                                  [--client-warmup SECONDS] [--backup-cpu PERCENT] [--target-root DIR]
#                                  [--idle-cgroup] [--workdir DIR]
#
# Serving load: the load generator's workload b (95 % GET, 5 % PUT, Zipfian) on a dataset of the
# portal's sizes (lognormal, median 20 KiB, p90 50 KiB), open loop. For each set-up the script
# first measures the store's maximum (closed loop, 8 threads, 8 s), then offers --load-fraction of
# it (default 0.55) at a fixed rate, so that serving leaves the machine room and a backup at idle
# priority gets to run. First the same open loop runs unrecorded for --settle seconds (default: one
# phase), so that "before" starts warm: caches filled, the cluster's reads at their steady state.
# Three measured phases of --phase seconds: before, during (full backups
# back to back, each into a fresh directory target, until the phase ends), after. The table gives
# serving read p99 per phase, the rise during, the backups completed during the phase and the
# first one's time; the last line is one JSON object with every figure. With --rounds N (default 1)
# each set-up repeats before, during, after N times back to back, and the table adds the median
# over the rounds, so one stall (a flush, a collection) shows as one round's outlier. The slowest
# read of each "after" phase is printed too, for the same reason. Where in "during" the slow reads
# fall: "start-3s" is the median of the read p99s of the seconds that began within 3 s after a
# backup started (the job's start-up, the service's checkpoint), "rest" that of the other seconds
# (the steady scan); each round's seconds are in results/<set-up>-r<N>-timeline.txt. Each phase's
# client is a fresh JVM that first runs --client-warmup seconds unrecorded (default 15; with 5,
# the first seconds of every phase, before and after as much as during, carried the client's own
# compilation at two to four times the p99 of its last seconds); the first backup of "during"
# starts a second after that warm-up, inside the measured phase.
#
# Each backup writes into a fresh directory under --target-root (default: the work directory, so
# on the store's file system), deleted after its round.
#
# Sizes: --count objects (default 5000, ~130 MB) in the embedded store, so a backup at the default
# --read-rate 8M takes ~17 s; --cassandra-count (default 1500, ~40 MB) in the local cluster, loaded
# by 8 writers (~1 min). (a) and (b) read the same keyspace, (c) and (d) the same store.
#
# One machine stands in for separate datacenters. The backup datacenter's node and the backup job of
# (a) and (b), which stands for a job on that datacenter's hardware, get a low CPU weight (a cgroup:
# cgroups v2 cpu.weight 1, else v1 cpu.shares 2, when the cgroup file system is writable), nice 19
# and the idle I/O class (renice, ionice -c3; the I/O class counts only under an I/O scheduler with
# classes, BFQ); the script prints what it applied. The job of (c) runs on the service's host as
# the product runs it: nice 19 and the idle I/O class. --backup-cpu P (default 0: none) also caps
# the backup side's CPU at P % of one core with a cgroup quota (v2 cpu.max, v1 cpu.cfs_quota_us),
# as a container's CPU limit does: (c)'s job alone, and (a)/(b)'s backup node with its job,
# together. A quota, unlike a weight or the idle class, also bounds what the backup's CPU costs
# serving when the two virtual CPUs share one physical core. A cgroup competes with the
# processes beside it by its own weight, whatever the priority of the threads inside it: in the
# quota's cgroup, which otherwise keeps the default weight, the job's nice 19 and (e)'s idle class
# count only among themselves. --idle-cgroup puts both cgroups as a whole in the idle class
# (cpu.idle 1, cgroups v1 and v2 alike, Linux 5.15 and later), so that a serving thread that wakes
# preempts them as it would preempt an idle thread outside any cgroup. (d) runs at normal priority.
# Cassandra runs its own local cluster (bin/cassandra-cluster,
# addresses 127.0.0.$CAIRN_BENCH_CASSANDRA_FIRST.., else $CAIRN_TEST_CASSANDRA_FIRST, else 71;
# a cluster already running there is reused and left running).
# Needs redis-server (the load generator's key registry) and built jars:
#   ./mvnw -o -q -DskipTests package -pl service,backup-dc,loadtest -am
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

count=5000
cassandra_count=1500
phase=30
settle=""
client_warmup=15
load_fraction=0.55
read_rate=8M
rounds=1
backup_cpu=0
idle_cgroup=0
target_root=""
only=a,b,c,d
workdir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --count) count=$2; shift 2 ;;
    --cassandra-count) cassandra_count=$2; shift 2 ;;
    --phase) phase=$2; shift 2 ;;
    --settle) settle=$2; shift 2 ;;
    --client-warmup) client_warmup=$2; shift 2 ;;
    --load-fraction) load_fraction=$2; shift 2 ;;
    --read-rate) read_rate=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --backup-cpu) backup_cpu=$2; shift 2 ;;
    --idle-cgroup) idle_cgroup=1; shift ;;
    --target-root) target_root=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --workdir) workdir=$2; shift 2 ;;
    -h|--help) sed -n 2,64p "$0"; exit 0 ;;
    *) echo "serving-p99: unknown option $1" >&2; exit 2 ;;
  esac
done

settle=${settle:-$phase}
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
low_cgroup=""
cap_cgroup=""
stop_more() {
  [ -n "$service_pid" ] && kill "$service_pid" 2>/dev/null || true
  if [ "${cluster_started:-0}" = 1 ]; then
    cassandra stop >/dev/null 2>&1 || true
  fi
  release_cgroup "$low_cgroup"
  release_cgroup "$cap_cgroup"
}
# shellcheck source=../../loadtest/processes.sh
. "$root/loadtest/processes.sh"
trap cleanup EXIT INT TERM

first=${CAIRN_BENCH_CASSANDRA_FIRST:-${CAIRN_TEST_CASSANDRA_FIRST:-71}}
cassandra() {
  CAIRN_CASSANDRA_DIR=${CAIRN_BENCH_CASSANDRA_DIR:-$workdir/cassandra} CAIRN_CASSANDRA_FIRST=$first \
    CAIRN_CASSANDRA_NET=127.0.0 CAIRN_CASSANDRA_SERVING=2 CAIRN_CASSANDRA_BACKUP=1 "$root/bin/cassandra-cluster" "$@"
}

# The backup side's cgroups, when this user may create them (v2, else v1's cpu controller): "low"
# for (a)/(b)'s backup node and job (the least CPU weight, and the --backup-cpu quota), "cap" for
# (c)'s job (the quota alone).
isolation="nice 19, ionice -c3"
cap_isolation="nice 19, ionice -c3"
cgroup_version=""
if [ -w /sys/fs/cgroup/cgroup.procs ] && [ -e /sys/fs/cgroup/cgroup.controllers ]; then
  cgroup_version=2
elif [ -w /sys/fs/cgroup/cpu ]; then
  cgroup_version=1
fi
new_cgroup() { # name weight(0: default) quota-percent(0: none); prints the directory, or nothing
  local d
  case "$cgroup_version" in
    2) d=/sys/fs/cgroup/cairn-serving-p99-$1-$$ ;;
    1) d=/sys/fs/cgroup/cpu/cairn-serving-p99-$1-$$ ;;
    *) return 0 ;;
  esac
  mkdir "$d" 2>/dev/null || return 0
  if { [ "$2" = 0 ] || { [ $cgroup_version = 2 ] && echo "$2" >"$d/cpu.weight"; } ||
                       { [ $cgroup_version = 1 ] && echo $((2 * $2)) >"$d/cpu.shares"; }; } 2>/dev/null &&
     { [ "$3" = 0 ] || { [ $cgroup_version = 2 ] && echo "$(($3 * 1000)) 100000" >"$d/cpu.max"; } ||
                       { [ $cgroup_version = 1 ] && echo 100000 >"$d/cpu.cfs_period_us" && echo $(($3 * 1000)) >"$d/cpu.cfs_quota_us"; }; } 2>/dev/null; then
    if [ "$idle_cgroup" = 1 ] && ! echo 1 >"$d/cpu.idle" 2>/dev/null; then
      rmdir "$d" 2>/dev/null || true
      echo "serving-p99: --idle-cgroup: cannot write $d/cpu.idle" >&2
      return 0
    fi
    echo "$d"
  else
    rmdir "$d" 2>/dev/null || true
  fi
}
make_cgroups() {
  local quota=""
  [ "$backup_cpu" != 0 ] && quota=", CPU quota $backup_cpu % of one core"
  [ "$idle_cgroup" = 1 ] && quota="$quota, the cgroup idle (cpu.idle 1)"
  low_cgroup=$(new_cgroup low 1 "$backup_cpu")
  if [ -n "$low_cgroup" ]; then
    if [ $cgroup_version = 2 ]; then
      isolation="cgroup v2 cpu.weight 1$quota, nice 19, ionice -c3"
      echo 1 >"$low_cgroup/io.weight" 2>/dev/null && isolation="cgroup v2 cpu.weight 1 io.weight 1$quota, nice 19, ionice -c3"
    else
      isolation="cgroup v1 cpu.shares 2 (others 1024)$quota, nice 19, ionice -c3"
    fi
  else
    echo "serving-p99: no writable cgroup; low priority by nice and ionice alone" >&2
  fi
  if [ "$backup_cpu" != 0 ]; then
    cap_cgroup=$(new_cgroup cap 0 "$backup_cpu")
    if [ -n "$cap_cgroup" ]; then
      cap_isolation="cgroup v$cgroup_version CPU quota $backup_cpu % of one core$([ "$idle_cgroup" = 1 ] && echo ", the cgroup idle (cpu.idle 1)"), nice 19, ionice -c3"
    else
      echo "serving-p99: --backup-cpu $backup_cpu: no writable cgroup for the quota" >&2
      exit 2
    fi
  fi
}
release_cgroup() { # directory
  [ -n "$1" ] || return 0
  local parent pid
  parent=$(dirname "$1")
  for pid in $(cat "$1/cgroup.procs" 2>/dev/null); do
    echo "$pid" >"$parent/cgroup.procs" 2>/dev/null || true
  done
  rmdir "$1" 2>/dev/null || true
}
deprioritize() { # pid
  [ -n "$low_cgroup" ] && { echo "$1" >"$low_cgroup/cgroup.procs" 2>/dev/null || echo "serving-p99: cannot move $1 into $low_cgroup" >&2; }
  renice -n 19 -p "$1" >/dev/null 2>&1 || true
  ionice -c3 -p "$1" 2>/dev/null || true
}
make_cgroups
disk=$(basename "$(df --output=source "$workdir" | tail -1)")
[ -e "/sys/block/$disk" ] || disk=$(lsblk -no pkname "/dev/$disk" 2>/dev/null || true)
io_scheduler=$(grep -o '\[[a-z-]*\]' "/sys/block/$disk/queue/scheduler" 2>/dev/null | tr -d '[]' || true)
echo "serving-p99: backup side of a, b: $isolation; job of c: $cap_isolation; I/O scheduler of $workdir: ${io_scheduler:-unknown}" >&2

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
# The backup job as `bin/cairn backup` runs it, by BACKUP_PRIORITY: backup-dc (a, b: the "low"
# cgroup, nice 19, idle I/O), idle (c: nice 19, idle I/O, the "cap" cgroup when --backup-cpu),
# normal (the baseline d); burner (e) runs no backup but two hashing loops in the idle CPU class
# until the phase is over (in the "cap" cgroup when --backup-cpu).
backup() {
  case "${BACKUP_PRIORITY:-idle}" in
    normal) exec "$root/bin/cairn" backup "$@" ;;
    burner) [ -n "$cap_cgroup" ] && echo $BASHPID >"$cap_cgroup/cgroup.procs" 2>/dev/null
            exec chrt -i 0 timeout -s TERM "$((phase + 10))s" sh -c 'sha256sum /dev/zero & sha256sum /dev/zero & wait' ;;
    backup-dc) [ -n "$low_cgroup" ] && echo $BASHPID >"$low_cgroup/cgroup.procs" 2>/dev/null ;;
    idle) [ -n "$cap_cgroup" ] && echo $BASHPID >"$cap_cgroup/cgroup.procs" 2>/dev/null ;;
  esac
  exec nice -n 19 ionice -c3 "$root/bin/cairn" backup "$@"
}
# bin/cairn rebuilds a module whose sources are newer than its jar: here, before anything is measured.
"$root/bin/cairn" backup --help >/dev/null

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

json_field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, {"d": d}))' "$@"; }
p99() { json_field "$1" 'd["perOperation"].get("read",{}).get("p99Ms",0)'; }
pmax() { json_field "$1" 'd["perOperation"].get("read",{}).get("maxMs",0)'; }

load_dataset() { # dataset count
  local started=$SECONDS
  echo "== $1: load $2 objects (8 writers)" >&2
  lt load --redis "127.0.0.1:$redis_port" --dataset "$1" --endpoint "http://127.0.0.1:$port" --bucket "$1" \
    --access-key "$access_key" --secret-key "$secret_key" --count "$2" --threads 8 >/dev/null
  echo "== $1: loaded in $((SECONDS - started)) s" >&2
}

measure() { # name dataset backup-args...
  local name=$1 ds=$2; shift 2
  local common s3 max rate
  common=(--redis "127.0.0.1:$redis_port" --dataset "$ds")
  s3=(--endpoint "http://127.0.0.1:$port" --bucket "$ds" --access-key "$access_key" --secret-key "$secret_key")
  echo "== $name: warm-up, then the store's maximum (closed loop, 8 threads)" >&2
  lt run "${common[@]}" "${s3[@]}" -w b --threads 8 --duration 5s --quiet --out "$workdir/results/$name-warmup.json" >/dev/null
  lt run "${common[@]}" "${s3[@]}" -w b --threads 8 --duration 8s --quiet --out "$workdir/results/$name-max.json" >/dev/null
  max=$(json_field "$workdir/results/$name-max.json" 'd["opsPerSecond"]')
  rate=$(python3 -c "import sys; print(max(10, int(float(sys.argv[1]) * float(sys.argv[2]))))" "$max" "$load_fraction")
  echo "== $name: maximum $max ops/s; serving at $rate ops/s (open loop)" >&2
  run() { lt run "${common[@]}" "${s3[@]}" -w b --rate "$rate" --threads 16 --warmup "${client_warmup}s" --duration "${phase}s" --quiet \
            --label "$name-$1" --out "$workdir/results/$name-$1.json" >/dev/null; }
  if [ "$settle" -gt 0 ]; then
    echo "== $name: settling for ${settle}s at that rate (unrecorded)" >&2
    lt run "${common[@]}" "${s3[@]}" -w b --rate "$rate" --threads 16 --duration "${settle}s" --quiet \
        --out "$workdir/results/$name-settle.json" >/dev/null
  fi
  local round
  for round in $(seq 1 "$rounds"); do
    measure_round "$name" "$round" "$@"
  done
}

measure_round() { # name round backup-args...: before, during (backups back to back), after
  local name=$1 round=$2; shift 2
  local tag=$name-r$round
  run "before-r$round"
  echo "== $name, round $round: during (full backups back to back)" >&2
  run "during-r$round" &
  local load_pid=$!
  local n first_secs status=ok
  : >"$workdir/results/$tag-backups.txt"
  : >"$workdir/results/$tag-starts.txt"
  (
    sleep "$((client_warmup + 1))" # the load's start and unrecorded warm-up: the first backup starts inside the phase
    i=0
    while kill -0 "$load_pid" 2>/dev/null; do
      i=$((i + 1))
      start=$(date +%s.%N)
      echo "$start" >>"$workdir/results/$tag-starts.txt"
      if (backup run "$@" --target "dir:$target_root/$tag-$i" --report "$workdir/results/$tag-backup-$i.json") \
          >"$workdir/results/$tag-backup-$i.log" 2>&1; then
        if kill -0 "$load_pid" 2>/dev/null; then
          echo "$i $(echo "$(date +%s.%N) - $start" | bc)" >>"$workdir/results/$tag-backups.txt"
        fi
      else
        kill -0 "$load_pid" 2>/dev/null && echo "failed $i" >>"$workdir/results/$tag-backups.txt"
      fi
    done
  ) &
  local loop_pid=$!
  wait "$load_pid"
  pkill -P "$loop_pid" 2>/dev/null || true
  kill "$loop_pid" 2>/dev/null || true
  wait "$loop_pid" 2>/dev/null || true
  rm -rf "${target_root:?}/$tag-"*
  sleep 2
  echo "== $name, round $round: after" >&2
  run "after-r$round"
  n=$(grep -c -v failed "$workdir/results/$tag-backups.txt" || true)
  first_secs=$(awk '!/failed/ {print $2; exit}' "$workdir/results/$tag-backups.txt")
  grep -q failed "$workdir/results/$tag-backups.txt" && status="failed: see $workdir/results/$tag-backup-*.log"
  read -r start_p99 rest_p99 < <(python3 - "$workdir/results/$name-during-r$round.json" "$workdir/results/$tag-starts.txt" \
    "$workdir/results/$tag-timeline.txt" <<'PY'
import datetime, json, statistics, sys
# Each second of "during": its read p99, and whether it began within 3 s after a backup started
# (the job's start-up and the service's checkpoint) or later (the steady scan).
run = json.load(open(sys.argv[1]))
t0 = datetime.datetime.fromisoformat(run["startedAt"].replace("Z", "+00:00")).timestamp()
starts = [float(x) for x in open(sys.argv[2]).read().split()]
near, rest = [], []
with open(sys.argv[3], "w") as out:
    for iv in run["timeline"]:
        p99 = iv.get("p99Ms", {}).get("read")
        if p99 is None:
            continue
        at = t0 + iv["start"]
        starting = any(0 <= at - s < 3 for s in starts)
        (near if starting else rest).append(p99)
        out.write("%6.1f %8.2f %8.2f %s\n" % (iv["start"], p99, iv.get("maxMs", {}).get("read", 0), "start" if starting else "-"))
med = lambda xs: "%.2f" % statistics.median(xs) if xs else "nan"
print(med(near), med(rest))
PY
)
  printf '%s %s %s %s %s %s %s %s %s %s %s %s %s\n' "$name" "$round" "$max" "$rate" \
    "$(p99 "$workdir/results/$name-before-r$round.json")" "$(p99 "$workdir/results/$name-during-r$round.json")" \
    "$(p99 "$workdir/results/$name-after-r$round.json")" "$(pmax "$workdir/results/$name-after-r$round.json")" \
    "${n:-0}" "${first_secs:-none}" "${status// /_}" "$start_p99" "$rest_p99" >>"$workdir/results/summary.txt"
}

: >"$workdir/results/summary.txt"
target_root=${target_root:-$workdir/targets}
mkdir -p "$target_root"

if [[ $only == *c* || $only == *d* || $only == *e* ]]; then
  start_service "$workdir/embedded-service"
  embedded=(--source embedded --service-url "http://127.0.0.1:$port" --admin-access-key-file "$workdir/access"
            --admin-secret-key-file "$workdir/secret")
  load_dataset embedded "$count"
  [[ $only == *c* ]] && measure embedded-checkpoint embedded "${embedded[@]}" --read-rate "$read_rate"
  [[ $only == *d* ]] && BACKUP_PRIORITY=normal measure embedded-through-caches embedded "${embedded[@]}" --through-caches
  [[ $only == *e* ]] && BACKUP_PRIORITY=burner measure idle-cpu-floor embedded
  stop_service
fi

if [[ $only == *a* || $only == *b* ]]; then
  cluster_started=0
  cluster_state=$(cassandra status 2>&1 || true)
  if grep -q "does not answer\|stopped" <<<"$cluster_state"; then
    echo "== starting Cassandra (3 nodes at 127.0.0.$first..) ..." >&2
    cassandra start >&2
    cluster_started=1
  fi
  cdir=${CAIRN_BENCH_CASSANDRA_DIR:-$workdir/cassandra}
  deprioritize "$(cat "$cdir/node3/pid")"
  serving_points="127.0.0.$first:9042,127.0.0.$((first + 1)):9042"
  start_service "$workdir/cassandra-service" --cairn.store=cassandra \
    --cairn.cassandra.contact-points="$serving_points" --cairn.cassandra.keyspace=bench
  load_dataset cassandra "$cassandra_count"
  [[ $only == *a* ]] && BACKUP_PRIORITY=backup-dc measure cassandra-backup-dc cassandra --source cassandra \
    --contact-points "127.0.0.$((first + 2)):9042" --datacenter backup --keyspace bench
  [[ $only == *b* ]] && BACKUP_PRIORITY=backup-dc measure cassandra-serving-dc cassandra --source cassandra \
    --contact-points "127.0.0.$first:9042" --datacenter serving --keyspace bench
  stop_service
fi

echo
echo "Serving read p99 (ms), workload b (95% GET / 5% PUT, Zipfian), open loop at $load_fraction of the measured maximum,"
echo "${phase}s per phase; embedded $count objects (--read-rate $read_rate), Cassandra $cassandra_count objects."
echo "One machine: the backup datacenter's node and the backup job of a, b: $isolation (I/O scheduler ${io_scheduler:-unknown});"
echo "the job of c: $cap_isolation; d at normal priority; e: no backup, two SHA-256 loops at SCHED_IDLE${cap_cgroup:+ in the CPU quota of c}."
printf '%-26s %5s %8s %8s %9s %9s %9s %8s %8s %6s %8s %8s %8s  %s\n' setup round max-ops/s rate before during after after-max rise bkps first-s start-3s rest status
python3 - "$workdir/results/summary.txt" "$count" "$cassandra_count" "$phase" "$load_fraction" "$read_rate" \
  "$isolation" "${io_scheduler:-unknown}" "$rounds" "$cap_isolation" "$backup_cpu" <<'PY'
import json, statistics, sys
rows, by_setup = [], {}
for line in open(sys.argv[1]):
    name, rnd, mx, rate, before, during, after, after_max, n, first, status, start_p99, rest_p99 = line.split()
    b, d, a = float(before), float(during), float(after)
    rise = (d / b - 1) * 100 if b > 0 else float("nan")
    print(f"{name:<26} {rnd:>5} {float(mx):8.0f} {int(rate):8d} {b:9.2f} {d:9.2f} {a:9.2f} {float(after_max):8.1f}"
          f" {rise:+7.1f}% {n:>6} {first:>8} {float(start_p99):8.2f} {float(rest_p99):8.2f}  {status}")
    row = {"setup": name, "round": int(rnd), "maxOpsPerSecond": round(float(mx), 1), "rateOpsPerSecond": int(rate),
           "p99BeforeMs": b, "p99DuringMs": d, "p99AfterMs": a, "maxAfterMs": float(after_max),
           "riseDuringPct": round(rise, 1), "fullBackupsDuring": int(n),
           "firstBackupSeconds": None if first == "none" else float(first), "status": status,
           "secondsAfterStartP99MedianMs": float(start_p99), "otherSecondsP99MedianMs": float(rest_p99)}
    rows.append(row)
    by_setup.setdefault(name, []).append(row)
medians = []
for name, rs in by_setup.items():
    med = lambda k: statistics.median(r[k] for r in rs)
    m = {"setup": name, "rounds": len(rs), "p99BeforeMs": med("p99BeforeMs"), "p99DuringMs": med("p99DuringMs"),
         "p99AfterMs": med("p99AfterMs"), "riseDuringPct": round(med("riseDuringPct"), 1),
         "roundsWithin10Pct": sum(1 for r in rs if r["riseDuringPct"] <= 10)}
    medians.append(m)
    if len(rs) > 1:
        print(f"{name:<26} {'med':>5} {'':>8} {'':>8} {m['p99BeforeMs']:9.2f} {m['p99DuringMs']:9.2f} {m['p99AfterMs']:9.2f}"
              f" {'':>8} {m['riseDuringPct']:+7.1f}%  rounds with a rise of at most 10 %: {m['roundsWithin10Pct']} of {len(rs)}")
print(json.dumps({"benchmark": "serving-p99", "embeddedObjects": int(sys.argv[2]), "cassandraObjects": int(sys.argv[3]),
                  "phaseSeconds": int(sys.argv[4]), "loadFraction": float(sys.argv[5]), "embeddedReadRate": sys.argv[6],
                  "rounds": int(sys.argv[9]), "backupCpuPercent": int(sys.argv[11]), "workload": "b", "loop": "open", "isolationBackupDc": sys.argv[7],
                  "jobPriority": {"a": "as the backup node", "b": "as the backup node", "c": sys.argv[10], "d": "normal", "e": "no backup: two SHA-256 loops at SCHED_IDLE" + (", in the CPU quota of c" if sys.argv[10] != "nice 19, ionice -c3" else "")},
                  "ioScheduler": sys.argv[8], "results": rows, "medians": medians}))
PY
