#!/bin/sh
# bench/soak.sh [SF] [CLIENTS] [SECONDS] [BACKEND]: issue 27's soak. Starts
# bin/starqd on data/ssb-sf$SF (bench/gen.sh makes it), runs bench/soak.c's
# CLIENTS connections for SECONDS over the SSB queries with cancels,
# timeouts and disconnects mixed in, prints its tally (every answer right,
# resident memory after warm-up and at the end, compilers and workers left
# running), then stops the server. Defaults: SF 1, 64 clients, 600 s, auto.
set -eu
SF=${1:-1}
CLIENTS=${2:-64}
SECONDS_RUN=${3:-600}
BACKEND=${4:-auto}
DATA=data/ssb-sf$SF
LOG=build/soak-starqd.log
make -s bin/starqd bin/starq-worker build/release/bench/soak
[ -d "$DATA" ] || bench/gen.sh "$SF"
bin/starqd --data-dir "$DATA" --port 0 --http-port 0 --backend "$BACKEND" >"$LOG" 2>&1 &
PID=$!
trap 'kill "$PID" 2>/dev/null || true' EXIT
for _ in $(seq 600); do
  grep -q "starqd: ready" "$LOG" && break
  kill -0 "$PID" || { cat "$LOG"; exit 1; }
  sleep 0.5
done
PORT=$(sed -n 's/.*SQL on [^:]*:\([0-9]*\),.*/\1/p' "$LOG" | head -1)
HTTP=$(sed -n 's/.*status on http:\/\/[^:]*:\([0-9]*\)\/.*/\1/p' "$LOG" | head -1)
build/release/bench/soak --port "$PORT" --http-port "$HTTP" --pid "$PID" \
  --clients "$CLIENTS" --seconds "$SECONDS_RUN" ssb-data/queries/*.sql
