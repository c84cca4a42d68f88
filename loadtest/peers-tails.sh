# Sourced by loadtest/peers.sh: the tails at equal load, measured by vegeta with presigned requests.
# For GET and for PUT: the rate each peer sustains closed loop (--concurrent workers), then every
# server open loop at the better peer's rate; each server's p99 next to that peer's.

tails=$workdir/tails
# vegeta attack with a report: who kind label vegeta-rate-arguments...
attack() {
  local who=$1 kind=$2 label=$3; shift 3
  "$bin/vegeta" attack -targets="$tails/$who/$kind.targets" -duration="${duration}s" -timeout=30s "$@" \
    -output="$tails/$who-$kind-$label.bin" 2>>"$tails/vegeta.log"
  "$bin/vegeta" report -type=json -output="$tails/$who-$kind-$label.json" "$tails/$who-$kind-$label.bin"
  rm -f "$tails/$who-$kind-$label.bin"
  read -r "fig[$who.$kind.$label.ops]" "fig[$who.$kind.$label.p50]" "fig[$who.$kind.$label.p99]" \
    "fig[$who.$kind.$label.failed]" < <("$python" "$root/loadtest/peers_tails.py" figures "$tails/$who-$kind-$label.json")
  [ "${fig[$who.$kind.$label.failed]}" = 0.0000 ] ||
    echo "peers: ${fig[$who.$kind.$label.failed]} of $who's $kind requests failed ($label)" >&2
}

echo "== tails: loading $count objects into each server and presigning requests" >&2
"$python" "$root/loadtest/peers_tails.py" bodies "$tails/bodies" "$put_bodies" "$object_bytes"
for who in "${servers[@]}"; do
  "$python" "$root/loadtest/peers_tails.py" load "http://127.0.0.1:${port[$who]}" "$access_key" "$secret_key" \
    tails "$count" "$object_bytes" "$tails/$who" "$tails/bodies" "$put_bodies"
done

for kind in get put; do
  best="" best_rate=0
  for peer in "${peers[@]}"; do
    echo "== tails: the $kind rate $peer sustains, closed loop, $concurrent workers" >&2
    attack "$peer" "$kind" closed -rate=0 -workers="$concurrent" -max-workers="$concurrent"
    rate=$(printf '%.0f' "${fig[$peer.$kind.closed.ops]}")
    if [ "$rate" -gt "$best_rate" ]; then best=$peer best_rate=$rate; fi
  done
  fig[$kind.rate]=$best_rate fig[$kind.peer]=$best
  needed=$((best_rate * duration))
  [ "$kind" = get ] || [ "$needed" -le "$put_bodies" ] ||
    echo "peers: an open-loop PUT run needs $needed bodies; only $put_bodies (--put-bodies): some content repeats" >&2
  for who in "${servers[@]}"; do
    echo "== tails: $kind open loop at $best_rate/s (what ${name[$best]} sustains) against $who" >&2
    attack "$who" "$kind" open -rate="$best_rate/s" -workers="$concurrent" -max-workers=2000
  done
done

echo
printf '%-40s %11s %11s %11s %13s\n' 'vegeta open loop, the better peer'"'"'s rate' Cairn MinIO SeaweedFS "Cairn/peer"
for kind in get put; do
  peer=${fig[$kind.peer]}
  line=$(printf '%-40s' "${kind^^} at ${fig[$kind.rate]}/s (${name[$peer]}'s): p99 ms")
  for who in "${servers[@]}"; do line+=$(printf ' %11s' "${fig[$who.$kind.open.p99]}"); done
  echo "$line $(printf '%13s' "$(ratio "${fig[cairn.$kind.open.p99]}" "${fig[$peer.$kind.open.p99]}")")"
  line=$(printf '%-40s' "${kind^^} at ${fig[$kind.rate]}/s: p50 ms")
  for who in "${servers[@]}"; do line+=$(printf ' %11s' "${fig[$who.$kind.open.p50]}"); done
  echo "$line"
  line=$(printf '%-40s' "${kind^^} at ${fig[$kind.rate]}/s: answered/s")
  for who in "${servers[@]}"; do line+=$(printf ' %11s' "${fig[$who.$kind.open.ops]}"); done
  echo "$line"
  line=$(printf '%-40s' "${kind^^} closed loop, $concurrent workers: obj/s")
  for who in "${peers[@]}"; do line+=$(printf ' %11s' "${fig[$who.$kind.closed.ops]}"); done
  echo "$line   (MinIO, SeaweedFS)"
done
json+=",\"openLoop\":{\"client\":\"vegeta\",\"getRate\":${fig[get.rate]},\"getRatePeer\":\"${fig[get.peer]}\""
json+=",\"putRate\":${fig[put.rate]},\"putRatePeer\":\"${fig[put.peer]}\""
for who in "${servers[@]}"; do
  json+=",\"$who\":{\"getP50Ms\":${fig[$who.get.open.p50]},\"getP99Ms\":${fig[$who.get.open.p99]},\"getAnswered\":${fig[$who.get.open.ops]}"
  json+=",\"putP50Ms\":${fig[$who.put.open.p50]},\"putP99Ms\":${fig[$who.put.open.p99]},\"putAnswered\":${fig[$who.put.open.ops]}}"
done
for peer in "${peers[@]}"; do
  json+=",\"${peer}Closed\":{\"getOps\":${fig[$peer.get.closed.ops]},\"putOps\":${fig[$peer.put.closed.ops]}}"
done
json+="}"
