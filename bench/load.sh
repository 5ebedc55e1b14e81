#!/usr/bin/env bash
# bench/load.sh — time loading SSB .tbl files, and generating straight into
# the column store, at one scale factor, beside their floor.
#
#   bench/load.sh [SF] [RUNS]      (defaults: SF 1, 3 runs)
#
# The floor of a load is reading its input and writing its output: the
# .tbl bytes read back from the page cache (cat > /dev/null) plus the
# column-store bytes written and fsynced by dd. Output goes to bench/out/,
# removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
sf=${1:-1}
runs=${2:-3}
out=bench/out
[[ -x bin/starq-load && -x bin/starq-gen ]] || { echo "bench/load.sh: build first (make)" >&2; exit 1; }
trap 'rm -rf "$out"' EXIT
rm -rf "$out"
mkdir -p "$out"

now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
best() { printf '%s\n' "$@" | sort -g | head -1; }

bin/starq-gen --sf "$sf" --out "$out/tbl" --quiet
tbl_bytes=$(cat "$out"/tbl/*.tbl | wc -c)

load=()
for ((i = 1; i <= runs; i++)); do
  rm -rf "$out/data"
  t0=$(now)
  bin/starq-load --data-dir "$out/data" --ssb "$out/tbl" --quiet
  t1=$(now)
  load+=("$(calc "$t1 - $t0")")
  printf 'load run %d/%d: %s s\n' "$i" "$runs" "${load[-1]}" >&2
done
store_bytes=$(du -sb "$out/data" | awk '{print $1}')

gen=()
for ((i = 1; i <= runs; i++)); do
  rm -rf "$out/gen"
  t0=$(now)
  bin/starq-gen --sf "$sf" --format store --out "$out/gen" --quiet
  t1=$(now)
  gen+=("$(calc "$t1 - $t0")")
  printf 'gen --format store run %d/%d: %s s\n' "$i" "$runs" "${gen[-1]}" >&2
done

t0=$(now)
cat "$out"/tbl/*.tbl >/dev/null
t1=$(now)
read_s=$(calc "$t1 - $t0")
rm -rf "$out/data" "$out/gen"
mkdir -p "$out/floor"
t0=$(now)
dd if=/dev/zero of="$out/floor/f" bs=8M count=$(( (store_bytes + 8388607) / 8388608 )) conv=fsync status=none
t1=$(now)
write_s=$(calc "$t1 - $t0")

printf 'SSB SF %s on %s cores: %s bytes of .tbl, %s bytes of column store\n' "$sf" "$(nproc)" "$tbl_bytes" "$store_bytes"
printf '  starq-load --ssb          best %s s  median %s s\n' "$(best "${load[@]}")" "$(median "${load[@]}")"
printf '  starq-gen --format store  best %s s  median %s s\n' "$(best "${gen[@]}")" "$(median "${gen[@]}")"
printf '  floor: reading the .tbl %s s + writing the store with fsync %s s = %s s\n' \
  "$read_s" "$write_s" "$(calc "$read_s + $write_s")"
