#!/usr/bin/env bash
# bench/gen.sh — time starq-gen at one scale factor beside its floor.
#
#   bench/gen.sh [SF] [RUNS]      (defaults: SF 1, 3 runs)
#
# The floor is the time this machine needs just to write the same number
# of bytes to the same file system (dd from /dev/zero, 8 MiB blocks): a
# generator can be no faster than its output. Prints one line per run, then
# the best and median beside that floor. Output goes to bench/out/, which
# is removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
sf=${1:-1}
runs=${2:-3}
out=bench/out/gen-sf$sf
gen=bin/starq-gen
[[ -x $gen ]] || { echo "bench/gen.sh: build first (make)" >&2; exit 1; }
trap 'rm -rf bench/out' EXIT
mkdir -p "$out"

now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.6f\", $1 }"; }
# The first run into freshly allocated page cache is slower than the rest
# (the kernel has to find free pages); it is shown, not counted.
times=()
for ((i = 0; i <= runs; i++)); do
  rm -rf "$out"
  t0=$(now)
  "$gen" --sf "$sf" --out "$out" --quiet
  t1=$(now)
  t=$(calc "$t1 - $t0")
  if ((i == 0)); then
    first=$t
    printf 'warm-up: %.3f s\n' "$t" >&2
    continue
  fi
  times+=("$t")
  printf 'run %d/%d: %.3f s\n' "$i" "$runs" "$t" >&2
done
bytes=$(cat "$out"/*.tbl | wc -c)
rows=$(wc -l <"$out/lineorder.tbl")

rm -rf "$out"; mkdir -p "$out"
t0=$(now)
dd if=/dev/zero of="$out/floor" bs=8M count=$(( (bytes + 8388607) / 8388608 )) status=none
t1=$(now)
floor=$(calc "$t1 - $t0")

sorted=($(printf '%s\n' "${times[@]}" | sort -g))
best=${sorted[0]}
median=${sorted[$(( runs / 2 ))]}
printf 'starq-gen SF %s on %s cores: %s bytes, %s lineorder rows\n' "$sf" "$(nproc)" "$bytes" "$rows"
printf '  best %.3f s  median %.3f s  (%.0f MB/s); warm-up run %.3f s\n' "$best" "$median" "$(calc "$bytes / $best / 1000000")" "$first"
printf '  floor: writing %s bytes with dd takes %.3f s (%.0f MB/s); best is %.1fx the floor\n' \
  "$bytes" "$floor" "$(calc "$bytes / $floor / 1000000")" "$(calc "$best / $floor")"
