# Shared by the side-by-side scripts (sourced, not run): free loopback ports, waiting for a
# process to listen, and stopping what a script started. The sourcing script sets `me` (its name
# in messages), `workdir`, `keep` (0: remove workdir at exit) and appends to `pids`; it may define
# `stop_more` for what else to stop at exit.

# Below the kernel's ephemeral range: a client that keeps connecting to a stopped server's port in
# that range can be given the same port as its own, connect to itself, and hold the port, so the
# server's restart fails to bind.
free_port() {
  local port low=32768
  [ -r /proc/sys/net/ipv4/ip_local_port_range ] && read -r low _ </proc/sys/net/ipv4/ip_local_port_range
  [ "$low" -gt 12000 ] || low=32768
  while :; do
    port=$((10000 + RANDOM % (low - 10000)))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
}

await_port() { # name port pid
  for _ in $(seq 1 1500); do
    (exec 3<>"/dev/tcp/127.0.0.1/$2") 2>/dev/null && return 0
    kill -0 "$3" 2>/dev/null || { echo "$me: $1 exited before listening" >&2; return 1; }
    sleep 0.2
  done
  echo "$me: $1 did not listen on port $2" >&2
  return 1
}

cleanup() {
  local status=$?
  if declare -F stop_more >/dev/null; then
    stop_more
  fi
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  if [ "$keep" = 0 ]; then
    rm -rf "$workdir"
  else
    echo "$me: results kept in $workdir/results" >&2
  fi
  exit $status
}
