#!/usr/bin/env bash
# Memory under load: the service started with a stated heap, then phases one after another —
# the probe alone (a baseline), many keep-alive connections idle, the same connections doing GETs,
# concurrent 64 MiB single PUTs, the same as multipart uploads, many slow readers of a large
# object, and many more slow readers of 200 KiB images. During every phase four probe connections
# GET a 20 KiB object (their rate and p99 say what ordinary clients get meanwhile), and the service
# is sampled twice a second. Per phase it prints the peak heap used (the heap meter; the GC log's
# occupancy before and after each collection), the heap left after a full GC at the phase's end,
# peak RSS (/proc), direct buffers, threads, open files, the upload bodies held in memory and the
# answers waiting on slow readers; then the limits they are compared with, and
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
#   IMAGE_READERS=1000 IMAGE_KIB=16       slow readers of 200 KiB images (one after another), their rate
#   SEND_BUFFER_KIB=64      the send buffer of the service's connections (BenchSendBuffer): over loopback
#                           the kernel would buffer 4 MiB per connection, so no small answer would wait on
#                           its reader as it does across a network; 0: the kernel's own
#   PHASES="put slow"       the phases to run, of: probe idle gets put multipart slow images (default all)
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
IMAGE_READERS=${IMAGE_READERS:-1000} IMAGE_KIB=${IMAGE_KIB:-16} SEND_BUFFER_KIB=${SEND_BUFFER_KIB:-64}
PHASES=${PHASES:-probe idle gets put multipart slow images}
mib() { awk -v v="$1" 'BEGIN { u = tolower(substr(v, length(v))); n = v + 0;
  print (u == "g") ? n * 1024 : (u == "m") ? n : (u == "k") ? n / 1024 : n / 1048576 }'; }
HEAP_MIB=$(mib "$HEAP") DIRECT_MIB=$(mib "$DIRECT")
RSS_LIMIT_MIB=${RSS_LIMIT_MIB:-$((HEAP_MIB * 2))}
CLIENT=(java -Xss256k -Xmx512m -cp "$ROOT/service/target/test-classes" dev.cairn.service.bench.MemoryLoad)
[ -f "$ROOT/service/target/test-classes/dev/cairn/service/bench/MemoryLoad.class" ] \
  || { echo "memory.sh: build first: ./mvnw -o -pl service -am package -DskipTests" >&2; exit 1; }
# Both ends hold a descriptor per connection.
need=$((CONNECTIONS * 2 + READERS * 2 + IMAGE_READERS * 2 + 1000))
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$need" ]; then
  ulimit -n "$need" 2>/dev/null || ulimit -n "$(ulimit -Hn)"
fi
pids=() me=memory.sh workdir=$WORK keep=0 samplers=()
stop_more() { for s in "${samplers[@]}"; do kill "$s" 2>/dev/null || true; done; }
# shellcheck source=../../../../loadtest/processes.sh
. "$ROOT/loadtest/processes.sh"
trap cleanup EXIT INT TERM

now_ms() { date +%s%3N; }
# Samples, one a line, twice a second, each loop on its own so that a slow metrics answer delays
# no /proc sample: "time RSS-KiB threads open-files" and "time heap-used direct-used upload-memory
# pending-answers" (bytes).
proc_loop() { # pid
  set +e
  while [ -d "/proc/$1" ]; do
    echo "$(now_ms) $(awk '/^VmRSS/ {r = $2} /^Threads/ {t = $2} END {print r, t}' "/proc/$1/status") \
$(find "/proc/$1/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)"
    sleep 0.5
  done
}
# One meter's value from the service's metrics endpoint (small answers, unlike a full scrape), or "-".
metric() { # port name?tags
  curl -s --max-time 3 -u "$KEY:$SECRET" "http://127.0.0.1:$1/actuator/metrics/$2" 2>/dev/null \
    | sed -nE 's/.*"statistic":"VALUE","value":([0-9.eE+-]+).*/\1/p' | awk '{printf "%d", $1} END {if (NR == 0) print "-"}'
}
jvm_loop() { # port
  set +e
  while :; do
    echo "$(now_ms) $(metric "$1" 'jvm.memory.used?tag=area:heap') $(metric "$1" 'jvm.buffer.memory.used?tag=id:direct')" \
      "$(metric "$1" cairn.upload.memory.used)" "$(metric "$1" cairn.answers.pending.bytes)"
    sleep 0.5
  done
}
# Peaks between two times (ms): "heap RSS threads fds direct upload pending peakGC postGC" (MiB but
# threads, fds; pending "-" when the build has no such meter).
peaks() { # samples-prefix gclog from to
  local p j g
  p=$(awk -v a="$3" -v b="$4" '$1 >= a && $1 <= b {if ($2 > rss) rss = $2; if ($3 > thr) thr = $3; if ($4 > fds) fds = $4}
    END {printf "%.0f %d %d", rss / 1024, thr, fds}' "$1.proc")
  j=$(awk -v a="$3" -v b="$4" '$1 >= a && $1 <= b {if ($2 != "-" && $2 > heap) heap = $2; if ($3 != "-" && $3 > dir) dir = $3
      if ($4 != "-" && $4 > up) up = $4; if ($5 != "-") {seen = 1; if ($5 > pend) pend = $5}}
    END {printf "%.0f %.1f %.1f %s", heap / 1048576, dir / 1048576, up / 1048576,
      seen ? sprintf("%.1f", pend / 1048576) : "-"}' "$1.jvm")
  # G1's lines: [<ms since epoch>ms] GC(n) Pause ... 300M->120M(512M) 5.1ms
  g=$(awk -v a="$3" -v b="$4" 'match($0, /^\[[0-9]+ms\]/) {
      t = substr($0, 2, RLENGTH - 4) + 0
      if (t < a || t > b || $0 ~ /System.gc/) next
      if (match($0, /[0-9]+M->[0-9]+M\(/)) { split(substr($0, RSTART, RLENGTH - 1), x, "->")
        if (x[1] + 0 > before) before = x[1] + 0; if (x[2] + 0 > after) after = x[2] + 0 } }
    END {printf "%d %d", before, after}' "$2")
  read -r heap dir up pend <<<"$j"; read -r rss thr fds <<<"$p"
  echo "$heap $rss $thr $fds $dir $up $pend $g"
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
  "${READERS} readers of ${LARGE_MIB} MiB at ${READ_KIB} KiB/s; ${IMAGE_READERS} readers of 200 KiB images at" \
  "${IMAGE_KIB} KiB/s; connections' send buffer ${SEND_BUFFER_KIB} KiB (0: the kernel's); client and service share the machine"
read -r -a jars <<<"$JARS"
json="{\"bench\":\"memory\",\"heapMiB\":$HEAP_MIB,\"directMiB\":$DIRECT_MIB,\"rssLimitMiB\":$RSS_LIMIT_MIB,\"jars\":["
for j in "${!jars[@]}"; do
  port=$(free_port) data="$WORK/data$j" gclog="$WORK/gc$j.log" samples="$WORK/samples$j"
  launch=(-jar "${jars[$j]}")
  if [ "$SEND_BUFFER_KIB" != 0 ]; then
    # BenchSendBuffer joins the service through the launcher's loader.path, alone.
    ext="$WORK/ext" && mkdir -p "$ext/dev/cairn/benchsupport" "$ext/META-INF/spring"
    cp "$ROOT"/service/target/test-classes/dev/cairn/benchsupport/BenchSendBuffer*.class "$ext/dev/cairn/benchsupport/"
    echo dev.cairn.benchsupport.BenchSendBuffer \
      >"$ext/META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports"
    launch=(-Dloader.path="$ext" -cp "${jars[$j]}" org.springframework.boot.loader.launch.PropertiesLauncher
      --bench.send-buffer=$((SEND_BUFFER_KIB * 1024)))
  fi
  # shellcheck disable=SC2086
  java -Xmx"$HEAP" -XX:MaxDirectMemorySize="$DIRECT" -Xlog:gc:file="$gclog":timemillis \
      "${launch[@]}" --server.address=127.0.0.1 --server.port="$port" --cairn.data-dir="$data" \
      --cairn.auth.access-key=$KEY --cairn.auth.secret-key=$SECRET \
      --logging.level.dev.cairn.service.access=WARN ${SERVICE_OPTS:-} >"$WORK/cairn$j.log" 2>&1 & pid=$!
  pids+=("$pid")
  await_port "cairn" "$port" "$pid"
  for _ in $(seq 120); do curl -sf -o /dev/null "http://127.0.0.1:$port/actuator/health" && break; sleep 0.5; done
  "${CLIENT[@]}" "$port" $KEY $SECRET setup "$LARGE_MIB" >/dev/null
  proc_loop "$pid" >"$samples.proc" & samplers=("$!")
  jvm_loop "$port" >"$samples.jvm" & samplers+=("$!")

  echo
  echo "jar $j: ${jars[$j]}"
  fmt='%-10s %8s %8s %7s %7s %7s %7s %7s %7s %6s %6s %7s %7s  %s\n'
  # shellcheck disable=SC2059
  printf "$fmt" phase 'GET/s' 'p99 ms' heap peakGC postGC afterGC RSS direct threads fds upload pending \
      'the phase (MiB; GET/s and p99: the probe)'
  jphases="" live_max=0 rss_max=0 dir_max=0
  for phase in $PHASES; do
    case $phase in
      probe) args=("$SECS") ;;
      idle | gets) args=("$CONNECTIONS" "$SECS") ;;
      put) args=("$UPLOADS" "$UPLOAD_MIB") ;;
      multipart) args=("$UPLOADS" "$UPLOAD_MIB" "$PART_MIB") ;;
      slow) args=("$READERS" "$SECS" "$READ_KIB") ;;
      images) args=("$IMAGE_READERS" "$SECS" "$IMAGE_KIB") ;;
    esac
    t0=$(now_ms)
    line=$("${CLIENT[@]}" "$port" $KEY $SECRET "$phase" "${args[@]}" 2>"$WORK/client.err") \
      || line="client failed: $(tail -n 1 "$WORK/client.err")"
    sleep 1   # a last sample
    t1=$(now_ms)
    read -r heap rss thr fds dir up pend peak_gc live_gc < <(peaks "$samples" "$gclog" "$t0" "$t1")
    after=$(heap_after_gc "$pid" "$gclog")
    gets=$(sed -nE 's/.*probe_gets_per_s=([0-9.]+).*/\1/p' <<<"$line")
    p99=$(sed -nE 's/.*probe_p99_ms=([0-9.NaN]+).*/\1/p' <<<"$line")
    rest=$(sed -E 's/ ?probe_(gets_per_s|p99_ms)=[^ ]*//g' <<<"$line")
    # shellcheck disable=SC2059
    printf "$fmt" "$phase" "${gets:--}" "${p99:--}" "$heap" "$peak_gc" "$live_gc" "${after:--}" "$rss" "$dir" \
        "$thr" "$fds" "$up" "$pend" "$rest"
    live_max=$((live_gc > live_max ? live_gc : live_max)) rss_max=$((rss > rss_max ? rss : rss_max))
    dir_max=$(awk -v a="$dir" -v b="$dir_max" 'BEGIN {print (a > b) ? a : b}')
    jphases+="${jphases:+,}\"$phase\":{\"probeGetsPerSecond\":${gets:-null},\"probeP99Ms\":${p99:-null},\"peakHeapMiB\":$((heap > peak_gc ? heap : peak_gc)),\"postGcHeapMiB\":$live_gc,\"heapAfterGcMiB\":${after:-null},\"peakRssMiB\":$rss,\"peakDirectMiB\":$dir,\"peakThreads\":$thr,\"peakFds\":$fds,\"peakUploadMemoryMiB\":$up,\"peakPendingAnswersMiB\":$([ "$pend" = - ] && echo null || echo "$pend")}"
  done
  stop_more; wait "${samplers[@]}" 2>/dev/null || true; samplers=()
  read -r spooled slowdowns < <(curl -s --max-time 10 -u "$KEY:$SECRET" "http://127.0.0.1:$port/actuator/prometheus" | awk '
    /^cairn_upload_memory_refusals_total/ {r = $2} /^cairn_s3_errors_total\{.*code="SlowDown"/ {s = $2}
    END {printf "%d %d\n", r, s}')
  oom=$(grep -c OutOfMemoryError "$WORK/cairn$j.log" || true)
  within() { awk -v v="$1" -v l="$2" 'BEGIN {print (v <= l) ? "within" : "OVER"}'; }
  echo "limits: heap left after collections, peak $live_max of $HEAP_MIB MiB ($(within "$live_max" "$HEAP_MIB")); RSS peak $rss_max of" \
       "$RSS_LIMIT_MIB MiB ($(within "$rss_max" "$RSS_LIMIT_MIB")); direct peak $dir_max of $DIRECT_MIB MiB" \
       "($(within "$dir_max" "$DIRECT_MIB")); OutOfMemoryErrors in the service's log: $oom; bodies spooled for" \
       "want of upload memory: $spooled; 503 SlowDown answers: $slowdowns"
  json+="$([ "$j" = 0 ] || echo ,){\"jar\":\"${jars[$j]}\",\"postGcHeapMiB\":$live_max,\"peakRssMiB\":$rss_max,\"peakDirectMiB\":$dir_max,\"outOfMemoryErrors\":$oom,\"spooledForMemory\":$spooled,\"slowDowns\":$slowdowns,\"phases\":{$jphases}}"
  kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
  rm -rf "$data"
done
echo
echo "columns: GET/s, p99 ms: the probe's GETs of 20 KiB during the phase; heap: peak heap used (the service's meter);"
echo "peakGC, postGC: the most occupied before and left after a collection during the phase (GC log); postGC bounds"
echo "what the load kept alive (a young collection leaves old garbage); afterGC: after a full GC at the phase's end;"
echo "RSS, direct, threads, fds: peaks;"
echo "upload: the most upload body bytes held in memory (cairn.limits.spool-memory-budget);"
echo "pending: the most bytes of answers waiting on their readers (cairn.limits.pending-answer-bytes)"
echo "$json]}"
