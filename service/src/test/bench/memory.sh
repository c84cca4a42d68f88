#!/usr/bin/env bash
# Memory under load: the service started with a stated heap, then phases one after another —
# the probe alone (a baseline), many keep-alive connections idle, the same connections doing GETs,
# concurrent 64 MiB single PUTs, the same as multipart uploads, and many slow readers of a large
# object. During every phase four probe connections GET a 20 KiB object (their rate and p99 say
# what ordinary clients get meanwhile), and the service is sampled twice a second. Per phase it
# prints the peak heap used (the GC log's occupancy before each collection, and the heap meter),
# the heap left after a full GC at the phase's end, peak RSS (/proc), direct buffers, threads,
# open files and the upload bodies held in memory; then the limits they are compared with, and
# one JSON line. The load client is MemoryLoad (service/src/test/java/dev/cairn/service/bench).
# usage: service/src/test/bench/memory.sh   (from the repository root, after
#        ./mvnw -o -pl service -am package -DskipTests)
#   JAR=x.jar               the build to measure (default service/target/cairn-service.jar)
#   JARS="old.jar new.jar"  several builds, measured one after the other, each with its own service
#   HEAP=512m DIRECT=128m   the service's -Xmx and -XX:MaxDirectMemorySize
#   RSS_LIMIT_MIB           default twice the heap: the helm chart gives the heap 50 % of the container's memory
#   SECS=15                 seconds of each timed phase
#   CONNECTIONS=1000        keep-alive connections of the idle and GET phases
#   UPLOADS=24 UPLOAD_MIB=64 PART_MIB=8   concurrent uploads, their size, the multipart part size
#   READERS=300 READ_KIB=64 LARGE_MIB=16  slow readers, their rate in KiB/s each, the object they read
#   PHASES="put slow"       the phases to run, of: probe idle gets put multipart slow (default all)
#   SERVICE_OPTS="..."      more service options (e.g. --server.jetty.threads.max=400)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
WORK=$(mktemp -d /tmp/cairn-memory-bench.XXXXXX)
KEY=BENCHKEY SECRET=benchsecretbenchsecretbenchsecret1234
JARS=${JARS:-${JAR:-$ROOT/service/target/cairn-service.jar}}
HEAP=${HEAP:-512m} DIRECT=${DIRECT:-128m}
SECS=${SECS:-15} CONNECTIONS=${CONNECTIONS:-1000}
UPLOADS=${UPLOADS:-24} UPLOAD_MIB=${UPLOAD_MIB:-64} PART_MIB=${PART_MIB:-8}
READERS=${READERS:-300} READ_KIB=${READ_KIB:-64} LARGE_MIB=${LARGE_MIB:-16}
PHASES=${PHASES:-probe idle gets put multipart slow}
mib() { awk -v v="$1" 'BEGIN { u = tolower(substr(v, length(v))); n = v + 0;
  print (u == "g") ? n * 1024 : (u == "m") ? n : (u == "k") ? n / 1024 : n / 1048576 }'; }
HEAP_MIB=$(mib "$HEAP") DIRECT_MIB=$(mib "$DIRECT")
RSS_LIMIT_MIB=${RSS_LIMIT_MIB:-$((HEAP_MIB * 2))}
CLIENT=(java -Xss256k -Xmx512m -cp "$ROOT/service/target/test-classes" dev.cairn.service.bench.MemoryLoad)
[ -f "$ROOT/service/target/test-classes/dev/cairn/service/bench/MemoryLoad.class" ] \
  || { echo "memory.sh: build first: ./mvnw -o -pl service -am package -DskipTests" >&2; exit 1; }
# Both ends hold a descriptor per connection.
need=$((CONNECTIONS * 2 + READERS * 2 + 1000))
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$need" ]; then
  ulimit -n "$need" 2>/dev/null || ulimit -n "$(ulimit -Hn)"
fi
pids=() me=memory.sh workdir=$WORK keep=0 sampler=
stop_more() { [ -z "$sampler" ] || kill "$sampler" 2>/dev/null || true; }
# shellcheck source=../../../../loadtest/processes.sh
. "$ROOT/loadtest/processes.sh"
trap cleanup EXIT INT TERM

now_ms() { date +%s%3N; }
# One sample a line: time, RSS KiB, threads, open files, heap used, direct used, upload memory used (bytes).
sample() { # pid port
  local rss thr fds metrics
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null) || return 0
  thr=$(awk '/^Threads/ {print $2}' "/proc/$1/status" 2>/dev/null) || return 0
  fds=$(find "/proc/$1/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
  metrics="$(metric "$2" 'jvm.memory.used?tag=area:heap') $(metric "$2" 'jvm.buffer.memory.used?tag=id:direct')"
  metrics+=" $(metric "$2" cairn.upload.memory.used)"
  echo "$(now_ms) $rss $thr $fds $metrics"
}
# One meter's value from the service's metrics endpoint (small answers, unlike a full scrape), or "-".
metric() { # port name?tags
  curl -s --max-time 3 -u "$KEY:$SECRET" "http://127.0.0.1:$1/actuator/metrics/$2" 2>/dev/null \
    | sed -nE 's/.*"statistic":"VALUE","value":([0-9.eE+-]+).*/\1/p' | awk '{printf "%d", $1} END {if (NR == 0) print "-"}'
}
sample_loop() { while :; do sample "$1" "$2"; sleep 0.5; done; }
# Peaks of the samples and GC log lines between two times (ms): see the table's header.
peaks() { # samples gclog from to
  local s g
  s=$(awk -v a="$3" -v b="$4" '$1 >= a && $1 <= b {
      if ($2 > rss) rss = $2; if ($3 > thr) thr = $3; if ($4 > fds) fds = $4
      if ($5 != "-" && $5 > heap) heap = $5; if ($6 != "-" && $6 > dir) dir = $6; if ($7 != "-" && $7 > up) up = $7 }
    END {printf "%.0f %.0f %d %d %.1f %.1f", heap / 1048576, rss / 1024, thr, fds, dir / 1048576, up / 1048576}' "$1")
  # G1's lines: [<ms since epoch>ms] GC(n) Pause ... 300M->120M(512M) 5.1ms
  g=$(awk -v a="$3" -v b="$4" 'match($0, /^\[[0-9]+ms\]/) {
      t = substr($0, 2, RLENGTH - 4) + 0
      if (t < a || t > b) next
      if (match($0, /[0-9]+M->[0-9]+M\(/)) { split(substr($0, RSTART, RLENGTH - 1), x, "->");
        before = x[1] + 0; if (before > peak) peak = before } }
    END {printf "%d", peak}' "$2")
  echo "$s $g"
}
# The heap left after a full GC: what the phase retained.
heap_after_gc() { # pid gclog
  local before
  before=$(grep -c 'Pause Full' "$2" || true)
  jcmd "$1" GC.run >/dev/null 2>&1 || true
  for _ in $(seq 50); do
    [ "$(grep -c 'Pause Full' "$2" || true)" -gt "$before" ] && break
    sleep 0.2
  done
  { grep 'Pause Full' "$2" || true; } | tail -n 1 | sed -E 's/.*->([0-9]+)M\(.*/\1/'
}

printf '%s\n' "heap -Xmx${HEAP}, direct -XX:MaxDirectMemorySize=${DIRECT}, RSS limit ${RSS_LIMIT_MIB} MiB;" \
  "phases of ${SECS} s: ${CONNECTIONS} connections; ${UPLOADS} uploads of ${UPLOAD_MIB} MiB (parts of ${PART_MIB} MiB);" \
  "${READERS} readers of ${LARGE_MIB} MiB at ${READ_KIB} KiB/s; client and service share the machine"
read -r -a jars <<<"$JARS"
json="{\"bench\":\"memory\",\"heapMiB\":$HEAP_MIB,\"directMiB\":$DIRECT_MIB,\"rssLimitMiB\":$RSS_LIMIT_MIB,\"jars\":["
for j in "${!jars[@]}"; do
  port=$(free_port) data="$WORK/data$j" gclog="$WORK/gc$j.log" samples="$WORK/samples$j"
  # shellcheck disable=SC2086
  java -Xmx"$HEAP" -XX:MaxDirectMemorySize="$DIRECT" -Xlog:gc:file="$gclog":timemillis \
      -jar "${jars[$j]}" --server.address=127.0.0.1 --server.port="$port" --cairn.data-dir="$data" \
      --cairn.auth.access-key=$KEY --cairn.auth.secret-key=$SECRET \
      --logging.level.dev.cairn.service.access=WARN ${SERVICE_OPTS:-} >"$WORK/cairn$j.log" 2>&1 & pid=$!
  pids+=("$pid")
  await_port "cairn" "$port" "$pid"
  for _ in $(seq 120); do curl -sf -o /dev/null "http://127.0.0.1:$port/actuator/health" && break; sleep 0.5; done
  "${CLIENT[@]}" "$port" $KEY $SECRET setup "$LARGE_MIB" >/dev/null
  sample_loop "$pid" "$port" >"$samples" & sampler=$!

  echo
  echo "jar $j: ${jars[$j]}"
  printf '%-10s %8s %8s %8s %8s %8s %8s %8s %6s %6s %8s  %s\n' phase 'GET/s' 'p99 ms' 'heap' 'peakGC' 'afterGC' \
      'RSS' 'direct' threads fds 'upload' 'result (MiB; GET/s and p99 of the probe)'
  jphases=""
  for phase in $PHASES; do
    case $phase in
      probe) args=("$SECS") ;;
      idle | gets) args=("$CONNECTIONS" "$SECS") ;;
      put) args=("$UPLOADS" "$UPLOAD_MIB") ;;
      multipart) args=("$UPLOADS" "$UPLOAD_MIB" "$PART_MIB") ;;
      slow) args=("$READERS" "$SECS" "$READ_KIB") ;;
    esac
    t0=$(now_ms)
    line=$("${CLIENT[@]}" "$port" $KEY $SECRET "$phase" "${args[@]}" 2>"$WORK/client.err") \
      || line="client failed: $(tail -n 1 "$WORK/client.err")"
    sleep 1   # a last sample
    t1=$(now_ms)
    read -r heap rss thr fds dir up peak_gc < <(peaks "$samples" "$gclog" "$t0" "$t1")
    after=$(heap_after_gc "$pid" "$gclog")
    gets=$(sed -nE 's/.*probe_gets_per_s=([0-9.]+).*/\1/p' <<<"$line")
    p99=$(sed -nE 's/.*probe_p99_ms=([0-9.NaN]+).*/\1/p' <<<"$line")
    rest=$(sed -E 's/ ?probe_(gets_per_s|p99_ms)=[^ ]*//g' <<<"$line")
    printf '%-10s %8s %8s %8s %8s %8s %8s %8s %6s %6s %8s  %s\n' "$phase" "${gets:--}" "${p99:--}" "$heap" "$peak_gc" \
        "${after:--}" "$rss" "$dir" "$thr" "$fds" "$up" "$rest"
    jphases+="${jphases:+,}\"$phase\":{\"probeGetsPerSecond\":${gets:-null},\"probeP99Ms\":${p99:-null},\"peakHeapMiB\":$((heap > peak_gc ? heap : peak_gc)),\"heapAfterGcMiB\":${after:-null},\"peakRssMiB\":$rss,\"peakDirectMiB\":$dir,\"peakThreads\":$thr,\"peakFds\":$fds,\"peakUploadMemoryMiB\":$up}"
  done
  kill "$sampler" 2>/dev/null || true; wait "$sampler" 2>/dev/null || true; sampler=
  read -r spooled slowdowns < <(curl -s --max-time 10 -u "$KEY:$SECRET" "http://127.0.0.1:$port/actuator/prometheus" | awk '
    /^cairn_upload_memory_refusals_total/ {r = $2} /^cairn_s3_errors_total\{.*code="SlowDown"/ {s = $2}
    END {printf "%d %d\n", r, s}')
  oom=$(grep -c OutOfMemoryError "$WORK/cairn$j.log" || true)
  max_heap=$(awk '{ if ($5 != "-" && $5 > m) m = $5 } END {printf "%.0f", m / 1048576}' "$samples")
  max_gc=$(peaks "$samples" "$gclog" 0 99999999999999 | awk '{print $7}')
  max_rss=$(awk '{ if ($2 > m) m = $2 } END {printf "%.0f", m / 1024}' "$samples")
  max_dir=$(awk '{ if ($6 != "-" && $6 > m) m = $6 } END {printf "%.1f", m / 1048576}' "$samples")
  peak=$((max_heap > max_gc ? max_heap : max_gc))
  within() { awk -v v="$1" -v l="$2" 'BEGIN {print (v <= l) ? "within" : "OVER"}'; }
  echo "limits: heap peak $peak of $HEAP_MIB MiB ($(within "$peak" "$HEAP_MIB")); RSS peak $max_rss of $RSS_LIMIT_MIB MiB" \
       "($(within "$max_rss" "$RSS_LIMIT_MIB")); direct peak $max_dir of $DIRECT_MIB MiB ($(within "$max_dir" "$DIRECT_MIB"));" \
       "OutOfMemoryError in the service's log: $oom; bodies spooled for want of upload memory: $spooled;" \
       "503 SlowDown answers: $slowdowns"
  json+="$([ "$j" = 0 ] || echo ,){\"jar\":\"${jars[$j]}\",\"peakHeapMiB\":$peak,\"peakRssMiB\":$max_rss,\"peakDirectMiB\":$max_dir,\"outOfMemoryErrors\":$oom,\"spooledForMemory\":$spooled,\"slowDowns\":$slowdowns,\"phases\":{$jphases}}"
  kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
  rm -rf "$data"
done
echo
echo "columns: GET/s, p99 ms: the probe's GETs of 20 KiB; heap: peak heap used sampled from the service's meters;"
echo "peakGC: peak occupancy before a collection (GC log); afterGC: heap after a full GC at the phase's end;"
echo "RSS, direct, threads, fds: peaks; upload: peak upload bodies held in memory (cairn.limits.spool-memory-budget)"
echo "$json]}"
