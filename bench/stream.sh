#!/usr/bin/env bash
# bench/stream.sh — a large result through starqd: `SELECT * FROM
# lineorder` (or SQL) at one scale factor, its first row and its last as a
# libpq client sees them, and the resident memory of the daemon and its
# device worker meanwhile (build/release/bench/stream).
#
#   bench/stream.sh [SF] [RUNS] [SQL]      (defaults: SF 1, 3 runs)
#
# STARQD names another build of the daemon (its starq-worker beside it),
# to compare. Data is generated into data/ssb-sfSF once.
set -euo pipefail
cd "$(dirname "$0")/.."
sf=${1:-1}
runs=${2:-3}
sql=${3:-SELECT * FROM lineorder}
starqd=${STARQD:-bin/starqd}
data=data/ssb-sf$sf
[[ -x $starqd && -x build/release/bench/stream ]] || { echo "bench/stream.sh: make bench-stream" >&2; exit 1; }
[[ -f $data/catalog.db ]] || bin/starq-gen --sf "$sf" --format store --out "$data" --quiet
log=$(mktemp)
"$starqd" --data-dir "$data" --port 0 --http-port 0 2>"$log" &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -f "$log"' EXIT
port=
for ((i = 0; i < 600; i++)); do
  port=$(sed -n 's/.*ready: psql -h [^ ]* -p \([0-9]*\).*/\1/p' "$log")
  [[ -n $port ]] && break
  kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
  sleep 0.5
done
[[ -n $port ]] || { echo "bench/stream.sh: starqd was not ready in 300 s" >&2; exit 1; }
echo "$(git rev-parse --short HEAD 2>/dev/null || echo '?') $starqd, SF $sf, $(nproc) CPUs"
build/release/bench/stream --port "$port" --pid "$pid" --runs "$runs" --sql "$sql"
