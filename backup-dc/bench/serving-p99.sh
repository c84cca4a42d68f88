#!/usr/bin/env bash
# Serving latency before, during and after full backups, open loop at stated shares of the
# store's measured capacity, each backup side on resources of its own. One command, five set-ups:
#   (c) embedded-checkpoint      embedded store, checkpoint read around the caches, --read-rate, the job at
#                                SCHED_IDLE (chrt -i 0) and the idle I/O class (ionice -c3)
#   (d) embedded-through-caches  the same without throttle, reading through the caches, normal priority (baseline)
#   (e) idle-cpu-floor           no backup: the same idle-class job doing nothing but hashing (two SHA-256
#                                loops over /dev/zero at SCHED_IDLE) beside the embedded store: the floor,
#                                what any work at idle priority costs serving on this machine
#   (a) cassandra-backup-dc      Cassandra store, the backup job reads datacenter "backup"
#   (b) cassandra-serving-dc     the same job pointed at datacenter "serving" (baseline)
#
#   backup-dc/bench/serving-p99.sh [--load-fractions F,F,..] [--rounds N] [--phase SECONDS] [--settle SECONDS]
#                                  [--count N] [--cassandra-count N] [--only a,b,c,d,e] [--read-rate R]
#                                  [--serving-cpus LIST] [--backup-cpus LIST] [--no-pin] [--cassandra-first N]
#                                  [--client-warmup SECONDS] [--backup-cpu PERCENT] [--idle-cgroup]
#                                  [--target-root DIR] [--workdir DIR]
#
# Defaults are the full measurement (several hours on 2 cores): --load-fractions 0.25,0.5,0.75,
# --rounds 3, --phase 60, --count 100000, --cassandra-count 100000, --only a,b,c,d,e. A short check:
#   backup-dc/bench/serving-p99.sh --count 2000 --cassandra-count 1000 --phase 10 --settle 5 \
#     --client-warmup 5 --rounds 2 --load-fractions 0.5
#
# Serving load: the load generator's workload b (95 % GET, 5 % PUT, Zipfian) on a dataset of the
# portal's sizes (lognormal, median 20 KiB, p90 50 KiB), open loop: operations are due at a fixed
# rate and each latency counts from its due time, so a stall shows in full (no coordinated
# omission). Per store the script first measures the maximum (closed loop, 8 threads, 8 s, after
# a 5 s warm-up), on the same CPUs that serve during the measurement; then it serves at each
# --load-fractions share of that maximum. Each cell (set-up, share, round) runs the open loop
# unrecorded for --settle seconds (default 20), then three measured phases of --phase seconds:
# before, during (full backups back to back, each into a fresh directory target, from a second
# after the client's warm-up until the phase ends), after. Each phase's client is a fresh JVM that
# first runs --client-warmup seconds unrecorded (default 15). Rounds run the set-ups of a store in
# alternating order (c,d,e then e,d,c; a,b then b,a), so a drift of the machine does not fall on
# one set-up. For each cell the table gives read p50, p99 and p99.9 before and during, p99 after,
# the ratio of p99 during to before, the backups completed inside the phase, the first one's time
# and MB/s (its report's logical bytes over its duration; "none" when no backup finished inside
# the phase: lengthen --phase or raise --read-rate); then per set-up and share the medians over
# the rounds. The last line is one JSON object with every figure and the resources of each side.
# Where in "during" the slow reads fall: "start-3s" is the median of the read p99s of the seconds
# that began within 3 s after a backup started, "rest" that of the other seconds; each cell's
# seconds are in results/<set-up>-f<share>-r<N>-timeline.txt.
#
# Resources. One machine stands in for separate datacenters. For (a) and (b), by default the
# backup datacenter's node and the backup job run on CPU --backup-cpus (default 1), the serving
# side (the service, the serving datacenter's nodes, the load client, redis) on --serving-cpus
# (default 0), by CPU affinity (taskset; what a cpuset gives, without needing the cpuset
# controller); --no-pin shares every CPU. The backup side also gets a low CPU weight when the
# cgroup file system is writable (cgroups v2 cpu.weight 1, else v1 cpu.shares 2), nice 19 and the
# idle I/O class. For (c) the job runs on the service's host as the product runs it, on every CPU,
# at SCHED_IDLE and the idle I/O class, reading at --read-rate (default 8M); (e) likewise.
# --backup-cpu P (default 0: none) caps the backup side's CPU at P % of one core with a cgroup
# quota ((c)'s job and (e)'s loops in one, (a)/(b)'s node and job in another); --idle-cgroup puts
# those cgroups in the idle class as a whole (cpu.idle 1, Linux 5.15 and later). The idle I/O
# class counts only under an I/O scheduler with classes (BFQ). The script prints what it found
# (cgroups v1/v2 and their controllers, whether systemd-run --user --scope works) and what it
# applied, and the JSON line records it. Processes of other users of the machine are not moved:
# on a shared machine they run on either CPU.
#
# Each backup writes into a fresh directory under --target-root (default: the work directory, so
# on the store's file system), deleted after its cell. (a) and (b) read the same keyspace, loaded
# by 8 writers; (c), (d), (e) the same embedded store.
# Cassandra runs its own local cluster (bin/cassandra-cluster, 3 nodes from 127.0.0.N with N =
# --cassandra-first, else $CAIRN_BENCH_CASSANDRA_FIRST, else $CAIRN_TEST_CASSANDRA_FIRST, else 71;
# a cluster already running there is reused and left running).
# Needs redis-server (the load generator's key registry) and built jars:
#   ./mvnw -o -q -DskipTests package -pl service,backup-dc,loadtest -am
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

count=100000
cassandra_count=100000
phase=60
settle=20
client_warmup=15
load_fractions=0.25,0.5,0.75
read_rate=8M
rounds=3
backup_cpu=0
idle_cgroup=0
pin=1
serving_cpus=0
backup_cpus=1
cassandra_first=""
target_root=""
only=a,b,c,d,e
workdir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --count) count=$2; shift 2 ;;
    --cassandra-count) cassandra_count=$2; shift 2 ;;
    --phase) phase=$2; shift 2 ;;
    --settle) settle=$2; shift 2 ;;
    --client-warmup) client_warmup=$2; shift 2 ;;
    --load-fractions|--load-fraction) load_fractions=$2; shift 2 ;;
    --read-rate) read_rate=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --backup-cpu) backup_cpu=$2; shift 2 ;;
    --idle-cgroup) idle_cgroup=1; shift ;;
    --serving-cpus) serving_cpus=$2; shift 2 ;;
    --backup-cpus) backup_cpus=$2; shift 2 ;;
    --no-pin) pin=0; shift ;;
    --cassandra-first) cassandra_first=$2; shift 2 ;;
    --target-root) target_root=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --workdir) workdir=$2; shift 2 ;;
    -h|--help) sed -n 2,67p "$0"; exit 0 ;;
    *) echo "serving-p99: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ $load_fractions =~ ^(0?\.[0-9]+|1(\.0*)?)(,(0?\.[0-9]+|1(\.0*)?))*$ ]] ||
  { echo "serving-p99: --load-fractions: shares of the maximum in (0, 1], comma-separated, e.g. 0.25,0.5,0.75" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ && $phase =~ ^[1-9][0-9]*$ && $settle =~ ^[0-9]+$ && $client_warmup =~ ^[0-9]+$ ]] ||
  { echo "serving-p99: --rounds and --phase must be positive whole numbers, --settle and --client-warmup whole numbers" >&2; exit 2; }
IFS=, read -r -a fractions <<<"$load_fractions"

service_jar=$root/service/target/cairn-service.jar
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

first=${cassandra_first:-${CAIRN_BENCH_CASSANDRA_FIRST:-${CAIRN_TEST_CASSANDRA_FIRST:-71}}}
[[ $first =~ ^[0-9]+$ && $first -ge 2 && $first -le 252 ]] || { echo "serving-p99: Cassandra's first address octet must be 2..252, got $first" >&2; exit 2; }
cassandra() {
  CAIRN_CASSANDRA_DIR=${CAIRN_BENCH_CASSANDRA_DIR:-$workdir/cassandra} CAIRN_CASSANDRA_FIRST=$first \
    CAIRN_CASSANDRA_NET=127.0.0 CAIRN_CASSANDRA_SERVING=2 CAIRN_CASSANDRA_BACKUP=1 "$root/bin/cassandra-cluster" "$@"
}

# What this machine allows the backup side: cgroups v2 (controllers delegated to the unified
# hierarchy?), v1's cpu and cpuset controllers, a systemd user scope; then CPU affinity.
machine_cgroups() {
  local v2="" v1="" unified
  for unified in /sys/fs/cgroup /sys/fs/cgroup/unified; do
    if [ -e "$unified/cgroup.controllers" ]; then
      v2="cgroups v2 at $unified, controllers: $(tr ' ' , <"$unified/cgroup.controllers" | sed 's/^$/none/')"
      [ -w "$unified/cgroup.procs" ] || v2="$v2 (not writable)"
      break
    fi
  done
  [ -d /sys/fs/cgroup/cpu ] && v1="v1 cpu $([ -w /sys/fs/cgroup/cpu ] && echo writable || echo read-only)"
  [ -d /sys/fs/cgroup/cpuset ] && v1="${v1:+$v1, }v1 cpuset $([ -w /sys/fs/cgroup/cpuset ] && echo writable || echo read-only)"
  local scope=no
  timeout 10 systemd-run --user --scope --quiet true >/dev/null 2>&1 && scope=yes
  echo "${v2:-no cgroups v2}; ${v1:-no cgroups v1}; systemd-run --user --scope: $scope"
}
machine=$(machine_cgroups)
cpus=$(nproc)
if [ "$pin" = 1 ]; then
  taskset -c "$serving_cpus" true 2>/dev/null && taskset -c "$backup_cpus" true 2>/dev/null ||
    { echo "serving-p99: --serving-cpus $serving_cpus / --backup-cpus $backup_cpus: not CPUs of this machine ($cpus); use --no-pin" >&2; exit 2; }
fi

# The backup side's cgroups, when this user may create them (v2, else v1's cpu controller): "low"
# for (a)/(b)'s backup node and job (the least CPU weight, and the --backup-cpu quota), "cap" for
# (c)'s job and (e)'s loops (the quota alone).
isolation="nice 19, ionice -c3"
cap_isolation="SCHED_IDLE (chrt -i 0), ionice -c3"
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
      cap_isolation="$cap_isolation, cgroup v$cgroup_version CPU quota $backup_cpu % of one core$([ "$idle_cgroup" = 1 ] && echo ", the cgroup idle (cpu.idle 1)")"
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
pin_process() { # cpus pid: every thread of a running process
  [ "$pin" = 1 ] || return 0
  taskset -a -p -c "$1" "$2" >/dev/null || echo "serving-p99: cannot pin $2 to CPU $1" >&2
}
deprioritize() { # pid
  [ -n "$low_cgroup" ] && { echo "$1" >"$low_cgroup/cgroup.procs" 2>/dev/null || echo "serving-p99: cannot move $1 into $low_cgroup" >&2; }
  pin_process "$backup_cpus" "$1"
  renice -n 19 -p "$1" >/dev/null 2>&1 || true
  ionice -c3 -p "$1" 2>/dev/null || true
}
make_cgroups
if [ "$pin" = 1 ]; then
  isolation="CPU $backup_cpus (taskset); $isolation"
  serving_side="CPU $serving_cpus (taskset)"
else
  serving_side="every CPU"
fi
disk=$(basename "$(df --output=source "$workdir" | tail -1)")
[ -e "/sys/block/$disk" ] || disk=$(lsblk -no pkname "/dev/$disk" 2>/dev/null || true)
io_scheduler=$(grep -o '\[[a-z-]*\]' "/sys/block/$disk/queue/scheduler" 2>/dev/null | tr -d '[]' || true)
echo "serving-p99: machine: $cpus CPUs; $machine; I/O scheduler of $workdir: ${io_scheduler:-unknown}" >&2
echo "serving-p99: backup side of a, b: $isolation; job of c, loops of e: $cap_isolation on every CPU" >&2

access_key=BENCHADMIN
secret_key=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
printf '%s\n' "$access_key" >"$workdir/access"
printf '%s\n' "$secret_key" >"$workdir/secret"

# The serving side's CPUs: all while the embedded store is measured, --serving-cpus for the Cassandra store.
serving=()
redis_port=$(free_port)
"$redis_bin" --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize no \
  --dir "$workdir/redis" >"$workdir/redis/redis.log" 2>&1 &
pids+=($!)
redis_pid=$!
await_port redis-server "$redis_port" "$redis_pid"

lt() { "${serving[@]}" java -cp "$loadtest_cp" dev.cairn.loadtest.Main loadtest "$@"; }
# The backup job as `bin/cairn backup` runs it, by BACKUP_PRIORITY: backup-dc (a, b: the backup
# CPUs, the "low" cgroup, nice 19, idle I/O), idle (c: SCHED_IDLE, idle I/O, the "cap" cgroup when
# --backup-cpu), normal (the baseline d); burner (e) runs no backup but two hashing loops at
# SCHED_IDLE until the phase is over (in the "cap" cgroup when --backup-cpu).
backup() {
  case "${BACKUP_PRIORITY:-idle}" in
    normal) exec "$root/bin/cairn" backup "$@" ;;
    burner) [ -n "$cap_cgroup" ] && echo $BASHPID >"$cap_cgroup/cgroup.procs" 2>/dev/null
            exec chrt -i 0 timeout -s TERM "$((phase + 10))s" sh -c 'sha256sum /dev/zero & sha256sum /dev/zero & wait' ;;
    backup-dc) [ -n "$low_cgroup" ] && echo $BASHPID >"$low_cgroup/cgroup.procs" 2>/dev/null
               if [ "$pin" = 1 ]; then
                 exec taskset -c "$backup_cpus" nice -n 19 ionice -c3 "$root/bin/cairn" backup "$@"
               fi
               exec nice -n 19 ionice -c3 "$root/bin/cairn" backup "$@" ;;
    idle) [ -n "$cap_cgroup" ] && echo $BASHPID >"$cap_cgroup/cgroup.procs" 2>/dev/null
          exec chrt -i 0 ionice -c3 "$root/bin/cairn" backup "$@" ;;
  esac
}
# bin/cairn rebuilds a module whose sources are newer than its jar: here, before anything is measured.
"$root/bin/cairn" backup --help >/dev/null

start_service() { # data-dir extra-args...
  local data=$1; shift
  port=$(free_port)
  mkdir -p "$data"
  "${serving[@]}" java -Xmx1g -jar "$service_jar" --server.port="$port" --server.address=127.0.0.1 --cairn.data-dir="$data" \
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

load_dataset() { # dataset count
  local started=$SECONDS
  echo "== $1: load $2 objects (8 writers)" >&2
  lt load --redis "127.0.0.1:$redis_port" --dataset "$1" --endpoint "http://127.0.0.1:$port" --bucket "$1" \
    --access-key "$access_key" --secret-key "$secret_key" --count "$2" --threads 8 >/dev/null
  echo "== $1: loaded in $((SECONDS - started)) s" >&2
}

common=()
s3=()
max=0
measure_max() { # dataset: the store's closed-loop maximum on the serving side's CPUs
  local ds=$1
  common=(--redis "127.0.0.1:$redis_port" --dataset "$ds")
  s3=(--endpoint "http://127.0.0.1:$port" --bucket "$ds" --access-key "$access_key" --secret-key "$secret_key")
  echo "== $ds: warm-up, then the store's maximum (closed loop, 8 threads)" >&2
  lt run "${common[@]}" "${s3[@]}" -w b --threads 8 --duration 5s --quiet --out "$workdir/results/$ds-warmup.json" >/dev/null
  lt run "${common[@]}" "${s3[@]}" -w b --threads 8 --duration 8s --quiet --out "$workdir/results/$ds-max.json" >/dev/null
  max=$(json_field "$workdir/results/$ds-max.json" 'd["opsPerSecond"]')
  echo "== $ds: maximum $max ops/s" >&2
}

cell() { # name fraction round backup-args...: settle, then before, during (backups back to back), after
  local name=$1 fraction=$2 round=$3; shift 3
  local tag=$name-f$fraction-r$round rate
  rate=$(python3 -c "import sys; print(max(10, int(float(sys.argv[1]) * float(sys.argv[2]))))" "$max" "$fraction")
  run() { lt run "${common[@]}" "${s3[@]}" -w b --rate "$rate" --threads 16 --warmup "${client_warmup}s" --duration "${phase}s" --quiet \
            --label "$tag-$1" --out "$workdir/results/$tag-$1.json" >/dev/null; }
  echo "== $name at $fraction of $max ops/s = $rate ops/s, round $round ($(uptime | sed 's/.*load/load/'))" >&2
  if [ "$settle" -gt 0 ]; then
    lt run "${common[@]}" "${s3[@]}" -w b --rate "$rate" --threads 16 --duration "${settle}s" --quiet \
        --out "$workdir/results/$tag-settle.json" >/dev/null
  fi
  local load_before load_after
  load_before=$(cut -d' ' -f1 /proc/loadavg)
  run before
  run during &
  local load_pid=$!
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
  run after
  load_after=$(cut -d' ' -f1 /proc/loadavg)
  python3 - "$workdir/results" "$tag" "$name" "$fraction" "$round" "$max" "$rate" "$load_before" "$load_after" \
    >>"$workdir/results/summary.jsonl" <<'PY'
import datetime, json, os, statistics, sys
# One cell's figures; each second of "during" with its read p99, and whether it began within 3 s
# after a backup started (the job's start-up, the service's checkpoint) or later (the steady scan).
res, tag, name, fraction, rnd, mx, rate, load_before, load_after = sys.argv[1:]
path = lambda s: os.path.join(res, tag + s)
phase = {p: json.load(open(path("-" + p + ".json"))) for p in ("before", "during", "after")}
read = lambda p, k: phase[p]["perOperation"].get("read", {}).get(k, 0)
t0 = datetime.datetime.fromisoformat(phase["during"]["startedAt"].replace("Z", "+00:00")).timestamp()
starts = [float(x) for x in open(path("-starts.txt")).read().split()]
near, rest = [], []
with open(path("-timeline.txt"), "w") as out:
    for iv in phase["during"]["timeline"]:
        p99 = iv.get("p99Ms", {}).get("read")
        if p99 is None:
            continue
        at = t0 + iv["start"]
        starting = any(0 <= at - s < 3 for s in starts)
        (near if starting else rest).append(p99)
        out.write("%6.1f %8.2f %8.2f %s\n" % (iv["start"], p99, iv.get("maxMs", {}).get("read", 0), "start" if starting else "-"))
med = lambda xs: round(statistics.median(xs), 2) if xs else None
done = [l.split() for l in open(path("-backups.txt")) if l.strip()]
ok = [d for d in done if d[0] != "failed"]
first = None
if ok:
    i, secs = ok[0][0], float(ok[0][1])
    rep = json.load(open(path("-backup-" + i + ".json")))
    first = {"seconds": round(secs, 1), "objects": rep.get("objects"), "logicalBytes": rep.get("logicalBytes"),
             "megabytesPerSecond": round(rep.get("megabytesPerSecond", 0), 1), "readFrom": rep.get("splitReads")}
b99, d99 = read("before", "p99Ms"), read("during", "p99Ms")
print(json.dumps({
    "setup": name, "loadFraction": float(fraction), "round": int(rnd), "maxOpsPerSecond": round(float(mx), 1),
    "rateOpsPerSecond": int(rate),
    "before": {k: read("before", k + "Ms") for k in ("p50", "p99", "p999", "max")},
    "during": {k: read("during", k + "Ms") for k in ("p50", "p99", "p999", "max")},
    "after": {k: read("after", k + "Ms") for k in ("p50", "p99", "p999", "max")},
    "achievedOpsPerSecond": {p: round(phase[p]["opsPerSecond"], 1) for p in phase},
    "p99DuringOverBefore": round(d99 / b99, 3) if b99 > 0 else None,
    "fullBackupsDuring": len(ok), "failedBackups": sum(1 for d in done if d[0] == "failed"),
    "firstBackup": first,
    "secondsAfterStartP99MedianMs": med(near), "otherSecondsP99MedianMs": med(rest),
    "loadAverage1mBeforeAfter": [float(load_before), float(load_after)]}))
PY
}

# The set-ups of one store in round r's order: as given in odd rounds, reversed in even ones.
order() { # round letters...
  local r=$1; shift
  if [ $((r % 2)) = 1 ]; then echo "$@"; else printf '%s\n' "$@" | tac | tr '\n' ' '; fi
}
measure_store() { # letters...: every round, share and set-up of one store
  local r f s
  for r in $(seq 1 "$rounds"); do
    for f in "${fractions[@]}"; do
      for s in $(order "$r" "$@"); do
        setup "$s" "$f" "$r"
      done
    done
  done
}
setup() { # letter fraction round
  case "$1" in
    c) BACKUP_PRIORITY=idle cell embedded-checkpoint "$2" "$3" "${embedded[@]}" --read-rate "$read_rate" ;;
    d) BACKUP_PRIORITY=normal cell embedded-through-caches "$2" "$3" "${embedded[@]}" --through-caches ;;
    e) BACKUP_PRIORITY=burner cell idle-cpu-floor "$2" "$3" ;;
    a) BACKUP_PRIORITY=backup-dc cell cassandra-backup-dc "$2" "$3" --source cassandra \
         --contact-points "127.0.0.$((first + 2)):9042" --datacenter backup --keyspace bench ;;
    b) BACKUP_PRIORITY=backup-dc cell cassandra-serving-dc "$2" "$3" --source cassandra \
         --contact-points "127.0.0.$first:9042" --datacenter serving --keyspace bench ;;
  esac
}
letters() { local l out=(); for l in "$@"; do [[ ,$only, == *,$l,* ]] && out+=("$l"); done; echo "${out[@]}"; }

: >"$workdir/results/summary.jsonl"
target_root=${target_root:-$workdir/targets}
mkdir -p "$target_root"
started_at=$(date -u +%FT%TZ)
uptime_start=$(uptime)

embedded_letters=$(letters c d e)
if [ -n "$embedded_letters" ]; then
  start_service "$workdir/embedded-service"
  embedded=(--source embedded --service-url "http://127.0.0.1:$port" --admin-access-key-file "$workdir/access"
            --admin-secret-key-file "$workdir/secret")
  load_dataset embedded "$count"
  measure_max embedded
  # shellcheck disable=SC2086
  measure_store $embedded_letters
  stop_service
fi

cassandra_letters=$(letters a b)
if [ -n "$cassandra_letters" ]; then
  cluster_started=0
  cluster_state=$(cassandra status 2>&1 || true)
  if grep -q "does not answer\|stopped" <<<"$cluster_state"; then
    echo "== starting Cassandra (3 nodes at 127.0.0.$first..) ..." >&2
    cassandra start >&2
    cluster_started=1
  fi
  cdir=${CAIRN_BENCH_CASSANDRA_DIR:-$workdir/cassandra}
  [ "$pin" = 1 ] && serving=(taskset -c "$serving_cpus")
  pin_process "$serving_cpus" "$(cat "$cdir/node1/pid")"
  pin_process "$serving_cpus" "$(cat "$cdir/node2/pid")"
  pin_process "$serving_cpus" "$redis_pid"
  deprioritize "$(cat "$cdir/node3/pid")"
  serving_points="127.0.0.$first:9042,127.0.0.$((first + 1)):9042"
  start_service "$workdir/cassandra-service" --cairn.store=cassandra \
    --cairn.cassandra.contact-points="$serving_points" --cairn.cassandra.keyspace=bench
  load_dataset cassandra "$cassandra_count"
  measure_max cassandra
  # shellcheck disable=SC2086
  measure_store $cassandra_letters
  stop_service
  serving=()
fi

echo
echo "Serving reads (ms), workload b (95% GET / 5% PUT, Zipfian), open loop at $load_fractions of the measured maximum;"
echo "${phase}s per phase, $rounds round(s), set-ups alternated; embedded $count objects (c: --read-rate $read_rate), Cassandra $cassandra_count objects."
echo "Machine: $cpus CPUs; $machine; I/O scheduler ${io_scheduler:-unknown}. Other users' processes run on any CPU."
echo "a, b: backup node and job on $isolation; serving side (service, serving nodes, load client, redis) on $serving_side."
echo "c: the job at $cap_isolation on every CPU; d: normal priority; e: no backup, two SHA-256 loops at $cap_isolation."
echo "Started $started_at: $uptime_start; ended $(date -u +%FT%TZ): $(uptime)"
python3 - "$workdir/results/summary.jsonl" "$count" "$cassandra_count" "$phase" "$load_fractions" "$read_rate" \
  "$isolation" "${io_scheduler:-unknown}" "$rounds" "$cap_isolation" "$backup_cpu" "$machine" "$serving_side" \
  "$started_at" "$uptime_start" "$(uptime)" <<'PY'
import json, statistics, sys
(summary, count, ccount, phase, fractions, read_rate, iso_ab, io_sched, rounds, iso_c, backup_cpu, machine,
 serving_side, started_at, uptime_start, uptime_end) = sys.argv[1:]
rows = [json.loads(l) for l in open(summary) if l.strip()]
fmt = lambda v, w=7, p=2: f"{v:{w}.{p}f}" if isinstance(v, (int, float)) else f"{'-':>{w}}"
print(f"{'setup':<24} {'share':>5} {'rnd':>3} {'ops/s':>6} | {'p50 bef':>7} {'dur':>7} | {'p99 bef':>7} {'dur':>7} {'aft':>7}"
      f" | {'p99.9 b':>7} {'dur':>7} | {'p99 d/b':>7} | {'bkps':>4} {'first-s':>7} {'MB/s':>6} | {'start3s':>7} {'rest':>7}")
groups = {}
for r in rows:
    groups.setdefault((r["setup"], r["loadFraction"]), []).append(r)
    fb = r["firstBackup"] or {}
    print(f"{r['setup']:<24} {r['loadFraction']:5.2f} {r['round']:3d} {r['rateOpsPerSecond']:6d} | {fmt(r['before']['p50'])} {fmt(r['during']['p50'])}"
          f" | {fmt(r['before']['p99'])} {fmt(r['during']['p99'])} {fmt(r['after']['p99'])}"
          f" | {fmt(r['before']['p999'])} {fmt(r['during']['p999'])} | {fmt(r['p99DuringOverBefore'], 7, 3)}"
          f" | {r['fullBackupsDuring']:4d} {fmt(fb.get('seconds'), 7, 1)} {fmt(fb.get('megabytesPerSecond'), 6, 1)}"
          f" | {fmt(r['secondsAfterStartP99MedianMs'])} {fmt(r['otherSecondsP99MedianMs'])}"
          + (f"  {r['failedBackups']} backup(s) FAILED" if r["failedBackups"] else ""))
medians = []
print()
print("Medians over the rounds (p99 ratio: during over before, per round, then the median; target at 0.5 for a and c: <= 1.10)")
for (setup, fr), rs in groups.items():
    med = lambda f: round(statistics.median(v for v in map(f, rs) if v is not None), 3) if any(f(x) is not None for x in rs) else None
    m = {"setup": setup, "loadFraction": fr, "rounds": len(rs),
         "p50BeforeMs": med(lambda r: r["before"]["p50"]), "p50DuringMs": med(lambda r: r["during"]["p50"]),
         "p99BeforeMs": med(lambda r: r["before"]["p99"]), "p99DuringMs": med(lambda r: r["during"]["p99"]),
         "p999BeforeMs": med(lambda r: r["before"]["p999"]), "p999DuringMs": med(lambda r: r["during"]["p999"]),
         "p99DuringOverBefore": med(lambda r: r["p99DuringOverBefore"]),
         "roundsWithin110Pct": sum(1 for r in rs if r["p99DuringOverBefore"] is not None and r["p99DuringOverBefore"] <= 1.10),
         "backupMegabytesPerSecond": med(lambda r: (r["firstBackup"] or {}).get("megabytesPerSecond")),
         "roundsWithBackupInsidePhase": sum(1 for r in rs if r["fullBackupsDuring"] > 0)}
    medians.append(m)
    print(f"{setup:<24} {fr:5.2f} {'med':>3} {'':>6} | {fmt(m['p50BeforeMs'])} {fmt(m['p50DuringMs'])} | {fmt(m['p99BeforeMs'])} {fmt(m['p99DuringMs'])} {'':>7}"
          f" | {fmt(m['p999BeforeMs'])} {fmt(m['p999DuringMs'])} | {fmt(m['p99DuringOverBefore'], 7, 3)}"
          f" | rounds <= 1.10: {m['roundsWithin110Pct']} of {len(rs)}; backup inside the phase: {m['roundsWithBackupInsidePhase']} of {len(rs)},"
          f" {fmt(m['backupMegabytesPerSecond'], 0, 1).strip()} MB/s")
print(json.dumps({"benchmark": "serving-p99", "startedAt": started_at, "uptimeAtStart": uptime_start.strip(),
                  "uptimeAtEnd": uptime_end.strip(), "embeddedObjects": int(count), "cassandraObjects": int(ccount),
                  "phaseSeconds": int(phase), "loadFractions": [float(f) for f in fractions.split(",")],
                  "embeddedReadRate": read_rate, "rounds": int(rounds), "backupCpuPercent": int(backup_cpu),
                  "workload": "b", "loop": "open",
                  "resources": {"machine": machine, "ioScheduler": io_sched,
                                "a,b": {"backupSide": iso_ab, "servingSide": serving_side},
                                "c": iso_c + ", every CPU", "d": "normal priority, every CPU",
                                "e": "no backup: two SHA-256 loops at " + iso_c},
                  "results": rows, "medians": medians}))
PY
