#!/usr/bin/env bash
# The connector's benchmark: builds the modules, starts Cairn, nginx and Apache on loopback, one
# short wrk run per configuration (20 KB objects), prints a table and one JSON line.
# Usage: web-connector/bench/compare.sh [--seconds 5] [--connections 32] [--objects 100] [--rounds 3]
#                                        [--baseline-modules DIR]   (see compare.py)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
command -v wrk >/dev/null || { echo "compare.sh: wrk is missing (apt-get install wrk)" >&2; exit 2; }
if [ ! -f "$root/service/target/cairn-service.jar" ]; then
  (cd "$root" && ./mvnw -q -B -DskipTests package -pl service -am)
fi
"$here/../build.sh" nginx
"$here/../build.sh" apache
exec python3 "$here/compare.py" "$@"
