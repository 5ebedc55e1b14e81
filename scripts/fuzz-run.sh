#!/usr/bin/env bash
# scripts/fuzz-run.sh NAME SECONDS — one libFuzzer run of build/fuzz/fuzz-NAME.
#
# `make fuzz` runs one of these per target, several at once: the corpus
# (build/fuzz/corpus-NAME) starts again from the seeds in tests/fuzz/seeds/NAME
# (and the SSB queries for sql), libFuzzer's chatter goes to
# build/fuzz/log-NAME, and what the run found is printed in one write at the
# end, so parallel runs do not interleave. Exits non-zero, with the log's
# tail, on a finding.
set -uo pipefail
cd "$(dirname "$0")/.."
name=$1 seconds=$2
corpus=build/fuzz/corpus-$name log=build/fuzz/log-$name

rm -rf "$corpus" && mkdir -p "$corpus"
[ "$name" = sql ] && cp ssb-data/queries/*.sql "$corpus/"
[ -d "tests/fuzz/seeds/$name" ] && cp "tests/fuzz/seeds/$name"/* "$corpus/"

t0=$(date +%s)
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "build/fuzz/fuzz-$name" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
  -rss_limit_mb=4096 -print_final_stats=1 "$corpus" 2>"$log"
rc=$?
took=$(($(date +%s) - t0))
if ((rc != 0)); then
  printf 'fuzz-%s: FAILED after %d s (exit %d); the end of %s:\n%s\n' \
    "$name" "$took" "$rc" "$log" "$(tail -60 "$log")"
  exit 1
fi
stats=$(grep -E '^(stat::number_of_executed_units|Done)' "$log" || tail -3 "$log")
printf 'fuzz-%s: %d s, ok\n%s\n' "$name" "$took" "$(sed 's/^/    /' <<<"$stats")"
