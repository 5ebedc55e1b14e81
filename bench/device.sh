#!/usr/bin/env bash
# bench/device.sh — starq's benchmarks on the GPU machine.
#
# The GPU machine has the CUDA driver and gcc but none of starq's other
# libraries, and no network. So binaries are built here and travel with
# the shared libraries they need (everything ldd names but glibc itself):
#
#   bench/device.sh pack              here: make, then fill bench/device/
#   bench/device.sh gen-store SF DIR  there: time starq-gen --format store
#   bench/device.sh run CMD ...       there: run a packed binary
#   bench/device.sh nvrtc-check       there: compile bench/device/cu/*.cu
#                                     (generated query sources, packed
#                                     here) with NVRTC for the GPU
#
# With the device tool: run `bench/device.sh pack` here, then call the
# device with carry ["bench/device"] and the command
# `bench/device.sh gen-store 100 /tmp/ssb`. bench/device/ is git-ignored.
set -euo pipefail
cd "$(dirname "$0")/.."
pack=bench/device

now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }

case "${1:-}" in
  pack)
    make >/dev/null
    rm -rf "$pack"
    mkdir -p "$pack/bin" "$pack/lib"
    cp bin/* "$pack/bin/"
    for b in bin/*; do ldd "$b"; done |
      awk '/=> \// { print $3 }' | sort -u |
      grep -vE '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
      xargs -r cp -L -t "$pack/lib"
    # Every SSB query's generated source, as NVRTC compiles it.
    make build/release/bench/query >/dev/null
    data=build/bench-pack-sf001
    [ -f "$data/catalog.db" ] || bin/starq-gen --sf 0.01 --format store --out "$data" --quiet
    mkdir -p "$pack/cu"
    for q in ssb-data/queries/q*.sql; do
      build/release/bench/query --data "$data" --dump "$pack/cu/$(basename "$q" .sql).cu" "$(cat "$q")"
    done
    cp bench/nvrtc-check.c "$pack/"
    du -sh "$pack"
    ;;
  nvrtc-check)
    cuda=${CUDA_HOME:-/usr/local/cuda}
    gcc -O2 -I"$cuda/include" -o /tmp/nvrtc-check "$pack/nvrtc-check.c" \
      -L"$cuda/lib64" -Wl,-rpath,"$cuda/lib64" -lnvrtc -lcuda
    /tmp/nvrtc-check "$pack"/cu/*.cu
    ;;
  run)
    shift
    LD_LIBRARY_PATH="$PWD/$pack/lib" "$PWD/$pack/bin/$@"
    ;;
  gen-store)
    sf=${2:?SF}
    dir=${3:?DIR}
    export LD_LIBRARY_PATH="$PWD/$pack/lib"
    echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, disk $(df -h "$(dirname "$dir")" | awk 'NR==2 {print $4}') free"
    rm -rf "$dir"
    t0=$(now)
    "$pack/bin/starq-gen" --sf "$sf" --format store --out "$dir"
    t1=$(now)
    bytes=$(du -sb "$dir" | awk '{print $1}')
    echo "starq-gen --format store SF $sf: $(calc "$t1 - $t0") s, $bytes bytes on disk"
    rm -rf "$dir"
    # Floor: the same bytes written and fsynced by dd, 64 MiB blocks.
    mkdir -p "$dir"
    t0=$(now)
    dd if=/dev/zero of="$dir/floor" bs=64M count=$(( (bytes + 67108863) / 67108864 )) conv=fsync status=none
    t1=$(now)
    echo "floor: dd writing $bytes bytes with fsync: $(calc "$t1 - $t0") s ($(calc "$bytes / ($t1 - $t0) / 1e9") GB/s)"
    rm -rf "$dir"
    ;;
  *)
    sed -n '2,16p' "$0"
    exit 2
    ;;
esac
