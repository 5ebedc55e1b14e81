#!/usr/bin/env bash
# One starqd at SF 1 on a fresh kernel cache: each SSB query then SHOW starq.last_query.
set -u
pack=bench/device
export LD_LIBRARY_PATH="$PWD/$pack/lib:/usr/local/cuda/lib64"
export XDG_CACHE_HOME=/tmp/diag-cache
rm -rf /tmp/diag-cache
[ -f /tmp/ssb1/catalog.db ] || $pack/bin/starq-gen --sf 1 --format store --out /tmp/ssb1 --quiet
$pack/bin/starqd --data-dir /tmp/ssb1 --port 5499 --http-port 0 > /tmp/diag.log 2>&1 &
pid=$!
until grep -q 'starqd: ready' /tmp/diag.log; do sleep 0.5; done
for q in q1.1 q1.2 q2.1 q3.1 q4.1; do
  for rep in 1 2; do
    $pack/bin/starq -p 5499 -q -A -t -c "$(cat ssb-data/queries/$q.sql)" -c "SHOW starq.last_query" | tail -1 |
      python3 -c 'import json,sys; d=json.load(sys.stdin); print("'$q' rep'$rep'", {k: d.get(k) for k in ("seconds","compile_seconds","cached","prepare_seconds","kernel_seconds","output_seconds")})'
  done
done
kill $pid; wait $pid
grep -iE "warn|error" /tmp/diag.log | head -5
