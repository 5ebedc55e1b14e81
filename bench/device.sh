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
#   bench/device.sh nvrtc-time [SF [DIR]]
#                                     there: each SSB module's compile as
#                                     the backend does it (both paths of
#                                     packed loads, the plain side, the
#                                     decode; bench/query --compile-only),
#                                     and a new shape's first run through
#                                     the CUDA backend on an empty cache
#                                     but for the generic kernels': on
#                                     them, then waiting for its own
#                                     compile (--generic off) and where
#                                     that wait went, and its own kernels'
#                                     ms, on SF (default 1) data in DIR
#                                     (default /tmp/ssb-sfSF, generated if
#                                     missing); NVRTC_SWEEP=1 adds the old
#                                     sweep of NVRTC options over whole
#                                     modules (nvrtc-check)
#   bench/device.sh fault-check       there: what the driver allows after
#                                     a kernel fault (bench/fault-check.c)
#   bench/device.sh api-check         there: runtime/cuda-api.h against
#                                     the real cuda.h and nvrtc.h
#                                     (bench/cuda-api-check.cpp)
#   bench/device.sh cuda-ssb SF DIR   there: generate SSB at SF into DIR,
#                                     run the 13 queries with bench/query
#                                     --backend cuda (cold cache, then
#                                     warm) and --backend cpu, diff the
#                                     rows, print the times
#   bench/device.sh gpu-tests [T...]  there: the exec tests against SQLite
#                                     on the CUDA backend, and the device
#                                     worker's on a CUDA worker, a real
#                                     kernel fault included, and starqd's
#                                     (libpq) on a CUDA worker, and the SQL
#                                     regression suite (psql against a
#                                     CUDA starqd, diffed with the expected
#                                     files; default: all of them — the
#                                     correctness suite), one at a time
#                                     (JOBS=N: N at once on the one GPU)
#   bench/device.sh ssb-gpu SF DIR [--strided]
#                                     there: generate SSB at SF into DIR
#                                     (unless it is there), then
#                                     bench/ssb-gpu: the 13 queries
#                                     streamed and resident beside the
#                                     floors it measures
#   bench/device.sh bench-ssb SF [DIR [starq-bench flags]]
#                                     there: generate SSB at SF into DIR
#                                     (default /tmp/ssb-sfSF, unless it is
#                                     there), start starqd on it (CUDA;
#                                     BACKEND=cpu to try it anywhere),
#                                     wait until it is ready, run
#                                     starq-bench on the streamed path
#                                     (SET starq.resident = off) and the
#                                     resident one, print both tables
#                                     (and their charts into $OUT when
#                                     set), stop the server. BIN=bin runs
#                                     the binaries of bin/ unpacked;
#                                     STARQD_FLAGS sets starqd's flags
#                                     (default "--generic-kernels 0":
#                                     every run on the shape's own
#                                     kernels even with an empty cache,
#                                     where the default would run a new
#                                     shape's warm-up on the generic
#                                     kernels; STARQD_FLAGS="" for that,
#                                     "--queries-in-flight 32"); PATHS
#                                     picks the paths ("resident"; also
#                                     "streamed-nostage": streamed with
#                                     SET starq.stage_packed = off, so
#                                     PATHS="streamed streamed-nostage"
#                                     is the staging's A/B in one run;
#                                     "streamed-alone": streamed with SET
#                                     starq.shared_scans = off, so
#                                     PATHS="streamed streamed-alone" is
#                                     the shared scans' A/B).
#   bench/device.sh first-query SF [DIR]
#                                     there: a server's first query after
#                                     its start, with and without the
#                                     device cache's warm-up
#                                     (--device-warm): starqd on SF data
#                                     in DIR (generated if missing), Q1.1
#                                     at once on ready, then each SSB
#                                     query once; then, the warm-up over,
#                                     the same again on a second server
#                                     (server-side ms, starq-bench)
#   bench/device.sh generic [SF [DIR]]
#                                     there: the generic kernels on the GPU:
#                                     their module's compile, each SSB
#                                     query's rows and kernel ms against
#                                     the compiled kernels' (resident and
#                                     streamed), and a new shape's first
#                                     run through starqd with them and
#                                     waiting for its own compile
#                                     (--generic-kernels 0), on empty
#                                     caches
#   bench/device.sh overhead SF [DIR [overhead flags]]
#                                     there: generate SSB at SF into DIR
#                                     (default /tmp/ssb-sfSF, unless it is
#                                     there), then bench/overhead on the
#                                     CUDA backend through a CUDA
#                                     starq-worker, RUNS (50) runs a
#                                     query: what each query costs
#                                     outside its kernels in process,
#                                     through the worker, and as starqd's
#                                     executor_select runs it for a
#                                     session (the "server" column)
#   bench/device.sh duckdb SF [FILE.sql|DIR ...]
#                                     there: the same SQL on DuckDB on
#                                     the machine's cores (bench/duckdb.c
#                                     over the libduckdb.so that pack
#                                     carries): SSB at SF as .tbl files
#                                     into /tmp/ssb-tbl-sfSF (generated
#                                     if missing), loaded in memory, then
#                                     the 13 SSB queries and the files
#                                     given (default: also bench/sql/),
#                                     median of REPS (5) runs each
#   bench/device.sh skew-groupby [DIR [skew-groupby flags]]
#                                     there: bench/skew-groupby on Zipf
#                                     groups, θ 0..2, 1024 groups, 128 M
#                                     rows (default; --rows N) generated
#                                     into DIR (default /tmp/skew), the
#                                     global, plain shared and replicated
#                                     group tables beside the floor
#                                     (BACKEND=cpu BIN=build/release/bench
#                                     to try it here, with --rows small)
#
# With the device tool: run `bench/device.sh pack` here, then call the
# device with carry ["bench/device"] and the command
# `bench/device.sh gen-store 100 /tmp/ssb`. bench/device/ is git-ignored.
set -euo pipefail
cd "$(dirname "$0")/.."
pack=bench/device

now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }

# gen_missing BIN SF DIR: SSB at SF into DIR by BIN/starq-gen, unless it is
# there; then the GPU and what was built, for the run's record.
gen_missing() {
  local t0
  if [ ! -f "$3/catalog.db" ]; then
    t0=$(now)
    "$1/starq-gen" --sf "$2" --format store --out "$3" --quiet
    echo "generated SF $2 in $(calc "$(now) - $t0") s: $(du -sh "$3" | cut -f1)"
  fi
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || true
  echo "commit $(cat "$pack/COMMIT" 2>/dev/null || git rev-parse --short HEAD 2>/dev/null || echo '?'), SF $2"
}

case "${1:-}" in
  pack)
    make >/dev/null
    make build/release/bench/query build/release/bench/ssb-gpu build/release/bench/skew-groupby build/release/bench/overhead \
      build/release/bench/probe-floor build/release/bench/duckdb \
      build/release/tests/run-tests >/dev/null
    rm -rf "$pack"
    mkdir -p "$pack/bin" "$pack/lib" "$pack/tests"
    cp bin/* "$pack/bin/"
    cp build/release/bench/query "$pack/bin/query"
    cp build/release/bench/ssb-gpu "$pack/bin/ssb-gpu"
    cp build/release/bench/skew-groupby "$pack/bin/skew-groupby"
    cp build/release/bench/probe-floor "$pack/bin/probe-floor"
    cp build/release/bench/overhead "$pack/bin/overhead"
    cp build/release/tests/run-tests "$pack/tests/run-tests"
    # The regression suite (tests/test-regress.c) runs the real psql 15.
    cp /usr/lib/postgresql/15/bin/psql "$pack/bin/psql"
    # Without symbols the pack is half the size: the device tool's copy of
    # the tree (carry included) is limited to 64 MiB.
    strip "$pack"/bin/* "$pack/tests/run-tests"
    for b in "$pack"/bin/* "$pack/tests/run-tests"; do ldd "$b"; done |
      awk '/=> \// { print $3 }' | sort -u |
      grep -vE '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
      xargs -r cp -L -t "$pack/lib"
    # Every SSB query's generated source, as NVRTC compiles it.
    data=build/bench-pack-sf001
    [ -f "$data/catalog.db" ] || bin/starq-gen --sf 0.01 --format store --out "$data" --quiet
    mkdir -p "$pack/cu"
    for q in ssb-data/queries/q*.sql; do
      build/release/bench/query --data "$data" --dump "$pack/cu/$(basename "$q" .sql).cu" "$(cat "$q")"
    done
    # The prelude and device library alone: what every module compiles.
    sed '/^\/\* ---- the query ---- \*\//,$d' "$pack/cu/q1.1.cu" >"$pack/cu/lib-only.cu"
    cp bench/nvrtc-check.c "$pack/"
    # DuckDB for bench/duckdb: the library of its npm package (the only
    # prebuilt libduckdb.so we can fetch here), xz'd once into build/ so
    # the pack stays under the device tool's 64 MiB.
    cp build/release/bench/duckdb "$pack/bin/duckdb"
    if [ ! -f build/duckdb/libduckdb.so.xz ]; then
      mkdir -p build/duckdb
      if (cd build/duckdb && npm pack --silent @duckdb/node-bindings-linux-x64 >/dev/null 2>&1); then
        tar xzf build/duckdb/duckdb-node-bindings-linux-x64-*.tgz -C build/duckdb package/libduckdb.so
        xz -T0 -6 -c build/duckdb/package/libduckdb.so >build/duckdb/libduckdb.so.xz.tmp
        mv build/duckdb/libduckdb.so.xz.tmp build/duckdb/libduckdb.so.xz
        rm -rf build/duckdb/package build/duckdb/*.tgz
      else
        echo "pack: npm could not fetch DuckDB; bench/device.sh duckdb will not run" >&2
      fi
    fi
    [ -f build/duckdb/libduckdb.so.xz ] && cp build/duckdb/libduckdb.so.xz "$pack/lib/"
    # The device's copy of the tree has no history: say here what was built.
    echo "$(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo '+changes')" >"$pack/COMMIT"
    du -sh "$pack"
    ;;
  duckdb)
    sf=${2:?usage: bench/device.sh duckdb SF [FILE.sql|DIR ...]}
    shift 2
    export LD_LIBRARY_PATH="$PWD/$pack/lib:${LD_LIBRARY_PATH:-}"
    tbl=/tmp/ssb-tbl-sf$sf
    if [ ! -f "$tbl/lineorder.tbl" ]; then
      t0=$(now)
      "$pack/bin/starq-gen" --sf "$sf" --out "$tbl"
      echo "generated SF $sf .tbl files in $(calc "$(now) - $t0") s"
    fi
    [ -f /tmp/libduckdb.so ] || xz -d -c "$pack/lib/libduckdb.so.xz" >/tmp/libduckdb.so
    files=(ssb-data/queries/*.sql)
    (($# == 0)) && [ -d bench/sql ] && set -- bench/sql
    for a in "$@"; do
      if [ -d "$a" ]; then files+=("$a"/*.sql); else files+=("$a"); fi
    done
    echo "commit $(cat "$pack/COMMIT" 2>/dev/null || echo '?'), SF $sf, $(nproc) cores"
    "$pack/bin/duckdb" --lib /tmp/libduckdb.so --tbl "$tbl" --threads "$(nproc)" \
      --reps "${REPS:-5}" "${files[@]}"
    ;;
  nvrtc-check)
    cuda=${CUDA_HOME:-/usr/local/cuda}
    gcc -O2 -I"$cuda/include" -o /tmp/nvrtc-check "$pack/nvrtc-check.c" \
      -L"$cuda/lib64" -Wl,-rpath,"$cuda/lib64" -lnvrtc -lcuda
    /tmp/nvrtc-check "$pack"/cu/*.cu
    ;;
  nvrtc-time)
    # NVRTC (12.9 on) keeps compiles in the driver's compute cache, keyed
    # by source and options, across processes: a shape compiled once in a
    # lease "compiles" in 20-40 ms from then on (NVVM 1 ms, ptxas 0). That
    # hid the real cost of a new shape until 2026-11-23 (bench/RESULTS.md).
    # Off here, so every compile below is a real one.
    export CUDA_CACHE_DISABLE=1
    sf=${2:-1}
    dir=${3:-/tmp/ssb-sf$sf}
    cuda=${CUDA_HOME:-/usr/local/cuda}
    export LD_LIBRARY_PATH="$PWD/$pack/lib:$cuda/lib64:${LD_LIBRARY_PATH:-}"
    q=$PWD/$pack/bin/query
    [ -f "$dir/catalog.db" ] || "$pack/bin/starq-gen" --sf "$sf" --format store --out "$dir" --quiet
    arch=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d '. ')
    echo "machine: $(nproc) cores; $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1); commit $(cat "$pack/COMMIT" 2>/dev/null || echo ?)"
    # 1. The compile alone, as the backend does it on a miss: NVRTC only,
    # each way best of 3, a global of its own in every compile (no cache
    # below NVRTC answers): the module of both paths of every packed load,
    # of a run on resident columns (plain) and of one on columns read from
    # host memory (packed; SQ_PATH: a module per path).
    echo "== compile of each SSB module for $arch, ms (best of 3): wall and CPU"
    printf '%-5s | %8s %8s | %8s %8s | %8s %8s\n' query both-wall both-cpu plain-wall plain-cpu packd-wall packd-cpu
    for f in ssb-data/queries/q*.sql; do
      n=$(basename "$f" .sql)
      "$q" --data "$dir" --compile-only "$arch" --repeat 3 "$(cat "$f")" >/tmp/nvrtc-time.out || { echo "$n FAILED"; continue; }
      awk -v n="$n" 'function num(s, k) { sub(".*" k " *", "", s); sub(/[^0-9.].*/, "", s); return s }
        /^compile both/ { bw = num($0, "wall"); bc = num($0, "CPU") }
        /^compile plain/ { lw = num($0, "wall"); lc = num($0, "CPU") }
        /^compile packed/ { kw = num($0, "wall"); kc = num($0, "CPU") }
        END { printf "%-5s | %8s %8s | %8s %8s | %8s %8s\n", n, bw, bc, lw, lc, kw, kc }' /tmp/nvrtc-time.out
    done
    # 2. Through the CUDA backend, a cache holding only the generic
    # kernels' module (compiled once here, as a server's first process
    # does): a new shape's first run on them (compile 0), the same first
    # run waiting for its own compile (--generic off) and where that wait
    # went, and its own kernels' ms (the last of 3 runs).
    val() { awk -F'[(, ]+' -v w="$1" '{ for (i = 1; i <= NF; i++) if ($i == w) print $(i+1) }'; }
    echo "== a new shape's first run through the backend (SF $sf): generic, then waiting for its compile"
    printf '%-5s | %10s %10s | %10s %10s | %9s\n' query gen-ms gen-kern wait-ms compile-ms own-kern
    gencache=$(mktemp -d)
    XDG_CACHE_HOME=$gencache "$q" --data "$dir" --backend cuda --generic always "select count(*) from lineorder" >/dev/null
    for f in ssb-data/queries/q*.sql; do
      n=$(basename "$f" .sql)
      sql=$(cat "$f")
      cache=$(mktemp -d)
      cp -r "$gencache"/. "$cache"/
      g1=$(XDG_CACHE_HOME=$cache "$q" --data "$dir" --backend cuda "$sql" | grep '^(' | head -1)
      rm -rf "$cache"
      cache=$(mktemp -d)
      cp -r "$gencache"/. "$cache"/
      XDG_CACHE_HOME=$cache "$q" --data "$dir" --backend cuda --generic off --repeat 3 "$sql" |
        grep '^(' >/tmp/nvrtc-time.first || { echo "$n FAILED"; rm -rf "$cache"; continue; }
      rm -rf "$cache"
      w1=$(sed -n 1p /tmp/nvrtc-time.first)
      parts=$(echo "$w1" | sed -n 's/.*; first load: \(.*\))$/\1/p')
      awk -v n="$n" -v ga="$(echo "$g1" | awk '{ print $3 }')" -v gk="$(echo "$g1" | val kernels)" \
        -v wa="$(echo "$w1" | awk '{ print $3 }')" -v wc="$(echo "$w1" | val compile)" \
        -v ok="$(sed -n 3p /tmp/nvrtc-time.first | val kernels)" 'BEGIN {
        printf "%-5s | %10.2f %10.2f | %10.1f %10.1f | %9.3f\n", n, ga * 1e3, gk * 1e3, wa * 1e3, wc * 1e3, ok * 1e3 }'
      echo "        waited for: $parts"
    done
    rm -rf "$gencache"
    if [ "${NVRTC_SWEEP:-0}" = 1 ]; then
      gcc -O2 -I"$cuda/include" -o /tmp/nvrtc-check "$pack/nvrtc-check.c" \
        -L"$cuda/lib64" -Wl,-rpath,"$cuda/lib64" -lnvrtc -lcuda
      for extra in "-minimal" "-minimal --Ofast-compile=max" "-minimal --Ofast-compile=mid" "-minimal -split-compile=0"; do
        echo "== whole modules, options: $extra"
        NVRTC_EXTRA="$extra" /tmp/nvrtc-check "$pack/cu/lib-only.cu" "$pack"/cu/q*.cu |
          awk '/start-up|FAILED|lib-only/ { print; next } / ok, / { sub(/.*\//, ""); n++; t += $4; if ($4 > m) m = $4; print }
               END { if (n) printf "13 queries: mean %.1f ms, max %.1f ms\n", t / n, m }' || true
      done
    fi
    ;;
  fault-check)
    cuda=${CUDA_HOME:-/usr/local/cuda}
    gcc -O2 -I"$cuda/include" -o /tmp/fault-check bench/fault-check.c -L"$cuda/lib64" \
      -Wl,-rpath,"$cuda/lib64" -lcuda
    for w in reset reset1 create; do /tmp/fault-check $w || true; done
    ;;
  api-check)
    cuda=${CUDA_HOME:-/usr/local/cuda}
    g++ -std=c++17 -Wall -I"$cuda/include" -o /tmp/cuda-api-check bench/cuda-api-check.cpp \
      -L"$cuda/lib64" -Wl,-rpath,"$cuda/lib64" -lnvrtc -lcuda -ldl
    /tmp/cuda-api-check
    ;;
  ssb-gpu)
    sf=${2:?SF}
    dir=${3:?DIR}
    shift 3
    cuda=${CUDA_HOME:-/usr/local/cuda}
    export LD_LIBRARY_PATH="$PWD/$pack/lib:$cuda/lib64:${LD_LIBRARY_PATH:-}"
    export XDG_CACHE_HOME=/tmp/ssb-gpu-cache
    if [ ! -f "$dir/catalog.db" ]; then
      t0=$(now)
      "$pack/bin/starq-gen" --sf "$sf" --format store --out "$dir" --quiet
      echo "generated SF $sf in $(calc "$(now) - $t0") s: $(du -sh "$dir" | cut -f1)"
    fi
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
    echo "commit $(cat "$pack/COMMIT" 2>/dev/null || echo '?'), SF $sf"
    "$pack/bin/ssb-gpu" --data "$dir" "$@"
    ;;
  bench-ssb)
    sf=${2:?SF}
    dir=${3:-/tmp/ssb-sf$sf}
    shift $(( $# >= 3 ? 3 : 2 ))
    bin=${BIN:-$pack/bin}
    backend=${BACKEND:-cuda}
    port=${PORT:-5433}
    cuda=${CUDA_HOME:-/usr/local/cuda}
    export LD_LIBRARY_PATH="$PWD/$pack/lib:$cuda/lib64:${LD_LIBRARY_PATH:-}"
    export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/bench-ssb-cache}
    gen_missing "$bin" "$sf" "$dir"
    log=$(mktemp /tmp/bench-ssb-starqd.XXXXXX)
    # shellcheck disable=SC2086 # STARQD_FLAGS is a list of flags
    "$bin/starqd" --data-dir "$dir" --backend "$backend" --port "$port" --http-port 0 \
      ${STARQD_FLAGS---generic-kernels 0} >"$log" 2>&1 &
    pid=$!
    trap 'kill "$pid" 2>/dev/null || true' EXIT
    # Ready when it says so: the columns are pinned and the floors measured.
    t0=$(now)
    start=$SECONDS
    until grep -q 'starqd: ready' "$log"; do
      if ! kill -0 "$pid" 2>/dev/null; then
        echo "bench-ssb: starqd exited before it was ready:"; cat "$log"; exit 1
      fi
      if (( SECONDS - start > 1800 )); then
        echo "bench-ssb: starqd not ready after 30 minutes:"; tail -20 "$log"; exit 1
      fi
      sleep 1
    done
    echo "starqd ready in $(calc "$(now) - $t0") s on $backend"
    # The device cache's warm-up (--device-warm, on by default) copies
    # columns over PCIe after ready: timed runs wait for its end, so a
    # streamed run does not share the link with it.
    # WARM_WAIT=0: a server without the warm-up (binaries older than it).
    if [ "$backend" = cuda ] && [ "${WARM_WAIT:-1}" != 0 ] &&
       [[ "${STARQD_FLAGS-}" != *"--device-warm 0"* && "${STARQD_FLAGS-}" != *"--device-budget 0"* ]]; then
      start=$SECONDS
      until grep -q 'colmem: warm:' "$log" || (( SECONDS - start > 900 )); do sleep 0.2; done
      echo "device cache warm $(calc "$(now) - $t0") s after start: $(grep -ho 'colmem: warm: .*' "$log" | head -1)"
    fi
    grep -hoE '(CUDA backend on|measured zero-copy|bytes of columns pinned|queries at once).*' "$log" || true
    rc=0
    for path in ${PATHS:-streamed resident}; do
      flags=(-p "$port")
      [ $path != resident ] && flags+=(--session "SET starq.resident = off")
      # streamed-nostage: packed tiles decoded where they lie, not staged in
      # shared memory first (an A/B of the staging in one server run).
      [ $path = streamed-nostage ] && flags+=(--session "SET starq.stage_packed = off")
      # streamed-alone: every statement streams its own copy of each stride
      # (the shared scans' A/B in one server run).
      [ $path = streamed-alone ] && flags+=(--session "SET starq.shared_scans = off")
      [ -n "${OUT:-}" ] && flags+=(--svg "$OUT/bench-ssb-sf$sf-$path.svg")
      echo ""
      echo "### $path"
      echo ""
      "$bin/starq-bench" "${flags[@]}" "$@" || rc=1
    done
    kill -TERM "$pid"
    wait "$pid" || { echo "bench-ssb: starqd did not stop cleanly:"; tail -20 "$log"; rc=1; }
    trap - EXIT
    rm -f "$log"
    exit $rc
    ;;
  cuda-ssb)
    sf=${2:?SF}
    dir=${3:?DIR}
    cuda=${CUDA_HOME:-/usr/local/cuda}
    export LD_LIBRARY_PATH="$PWD/$pack/lib:$cuda/lib64:${LD_LIBRARY_PATH:-}"
    q=$PWD/$pack/bin/query
    out=/tmp/cuda-ssb
    rm -rf "$dir" "$out"
    mkdir -p "$out"
    "$pack/bin/starq-gen" --sf "$sf" --format store --out "$dir" --quiet
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
    # Pulls one figure out of a timing line: the word before "rows" or
    # "s:", the word after "compile", "kernels" or "columns".
    val() { awk -F'[(, ]+' -v w="$1" '{ for (i = 1; i <= NF; i++) {
      if ($i == w && (w == "rows" || w == "s:")) print $(i-1);
      else if ($i == w) print $(i+1) } }'; }
    "$q" --data "$dir" --backend cuda --explain "$(cat ssb-data/queries/q1.1.sql)" | grep '^Backend' || true
    echo "per query, seconds: cold = first process on an empty cache (NVRTC compile), disk = next"
    echo "process (CUBIN from disk), mem = best of 3 more runs in that process (module loaded);"
    echo "floors in ms = column bytes / 50.7 GB/s (zero-copy) and / 2.78 TB/s (device memory)"
    printf '%-5s %5s %4s | %6s %6s %6s %6s | %6s %6s %6s | %7s | %6s %8s | %6s\n' query rows same \
      process query nvrtc kernel disk mem kernel MB zc-ms dev-ms cpu
    bad=0
    for f in ssb-data/queries/q*.sql; do
      n=$(basename "$f" .sql)
      sql=$(cat "$f")
      export XDG_CACHE_HOME=$out/cache-$n
      t0=$(now)
      "$q" --data "$dir" --backend cuda "$sql" >"$out/$n.cold" 2>&1 || true
      t1=$(now)
      "$q" --data "$dir" --backend cuda --repeat 4 "$sql" >"$out/$n.warm" 2>&1 || true
      "$q" --data "$dir" --backend cpu --repeat 2 "$sql" >"$out/$n.cpu" 2>&1 || true
      grep -v '^(' "$out/$n.cold" >"$out/$n.cold.rows" || true
      grep -v '^(' "$out/$n.cpu" >"$out/$n.cpu.rows" || true
      same=yes
      if ! cmp -s "$out/$n.cold.rows" "$out/$n.cpu.rows"; then
        same=NO
        bad=1
      fi
      cold=$(grep '^(' "$out/$n.cold" | head -1)
      warm=$(grep '^(' "$out/$n.warm" | sed -n '2,$p')
      bytes=$(echo "$cold" | val columns)
      printf '%-5s %5s %4s | %6s %6s %6s %6s | %6s %6s %6s | %7s | %6s %8s | %6s\n' "$n" \
        "$(echo "$cold" | val rows)" "$same" "$(calc "$t1 - $t0")" "$(echo "$cold" | val s:)" \
        "$(echo "$cold" | val compile)" "$(echo "$cold" | val kernels)" \
        "$(grep '^(' "$out/$n.warm" | head -1 | val s:)" "$(echo "$warm" | val s: | sort -g | head -1)" \
        "$(echo "$warm" | val kernels | sort -g | head -1)" "$(calc "${bytes:-0} / 1e6")" \
        "$(calc "${bytes:-0} / 50.7e6")" "$(calc "${bytes:-0} / 2.78e9")" \
        "$(grep '^(' "$out/$n.cpu" | sed -n 2p | val s:)"
      if [ $same = NO ]; then
        grep -h -E 'ERROR|not available' "$out/$n.cold" | head -3 | sed 's/^/      /'
        diff "$out/$n.cpu.rows" "$out/$n.cold.rows" | head -6 | sed 's/^/      /'
      fi
    done
    grep -h -o 'zero-copy [0-9]* / copied [0-9]* columns[^)]*' "$out"/*.cold | sort | uniq -c
    tar czf "${OUT:-/tmp}/cuda-ssb.tgz" --exclude='cache-*' -C "$(dirname "$out")" "$(basename "$out")"
    [ $bad = 0 ] && echo "cuda-ssb: all 13 queries give the CPU backend's rows" || echo "cuda-ssb: ROWS DIFFER"
    ;;
  gpu-tests)
    shift
    cuda=${CUDA_HOME:-/usr/local/cuda}
    export LD_LIBRARY_PATH="$PWD/$pack/lib:$cuda/lib64:${LD_LIBRARY_PATH:-}"
    # Default: every exec test (each checks starq against SQLite), but those
    # that need PostgreSQL (exec_expr_pg*: the regress suite checks the same
    # expressions there, against the expected files), and the
    # ones that drive the mock driver on purpose (memory caps, faults
    # injected into concurrent streams, decode paths on the mock's GPU
    # layout, the count of the host's waits on the mock's streams, the
    # gates on its background compiles), and the device worker's tests
    # that follow the backend. The cancel tests (worker_cancel,
    # daemon_cancel, daemon_worker_cancel) need the mock's slow launches to
    # meet a statement surely running: they run in CI, not here.
    set -- "${@:-$(grep -o 'X(exec_[a-z0-9_]*' tests/test-list.h | cut -c3- |
      grep -vE '^exec_(resident_evicts|device_oom|streamed_for|skew_groupby_mock|for_paths|cuda_concurrent|cuda_concurrent_fault|nulls_resident|semijoin_mock|cuda_outputs_one_wait|shared_scans_mock)$' |
      grep -vE '^exec_generic_(resident|semijoin|skew|streamed|first_run|not_ready)(_cpu)?$' |
      grep -vE '^exec_expr_pg(_generic|_mock)?$')
      worker_ssb worker_errors worker_concurrent
      daemon_queries daemon_status daemon_concurrent daemon_worker_restart
      daemon_last_query colmem_resident_plain regress}"
    STARQ_TEST_BACKEND=cuda STARQ_BIN="$PWD/$pack/bin" STARQ_SRC="$PWD" \
      "$pack/tests/run-tests" -j "${JOBS:-1}" $@
    ;;
  first-query)
    sf=${2:?SF}
    dir=${3:-/tmp/ssb-sf$sf}
    bin=${BIN:-$pack/bin}
    port=${PORT:-5433}
    cuda=${CUDA_HOME:-/usr/local/cuda}
    export LD_LIBRARY_PATH="$PWD/$pack/lib:$cuda/lib64:${LD_LIBRARY_PATH:-}"
    export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/first-query-cache}
    gen_missing "$bin" "$sf" "$dir"
    # A first server compiles the kernels, so that no run below waits for
    # NVRTC.
    for mode in prime 0 1; do
      warm=${mode/prime/0}
      log=$(mktemp /tmp/first-query.XXXXXX)
      "$bin/starqd" --data-dir "$dir" --backend cuda --port "$port" --http-port 0 \
        --device-warm "$warm" --generic-kernels 0 >"$log" 2>&1 &
      pid=$!
      t0=$(now)
      until grep -q 'starqd: ready' "$log"; do
        kill -0 "$pid" 2>/dev/null || { echo "first-query: starqd exited:"; cat "$log"; exit 1; }
        sleep 0.05
      done
      tReady=$(now)
      if [ "$mode" = prime ]; then
        "$bin/starq-bench" -p "$port" -q --warmup 0 --reps 1 >/dev/null
        kill -TERM "$pid"
        wait "$pid" || true
        rm -f "$log"
        continue
      fi
      echo "== --device-warm $warm: ready in $(calc "$tReady - $t0") s"
      # When the warm-up's last line appears, watched from beside the runs.
      [ "$warm" = 1 ] && ( until grep -q 'colmem: warm:' "$log"; do sleep 0.01; done; now >"$log.t" ) &
      q() { "$bin/starq-bench" -p "$port" -q --warmup 0 --reps 1 --format csv "$@" |
              awk -F, 'NR > 1 && $1 != "total" { printf "%s %.2f; ", $1, $7 } END { print "(server ms)" }'; }
      echo "  at once: $(q ssb-data/queries/q1.1.sql)"
      echo "  then:    $(q)"
      if [ "$warm" = 1 ]; then
        start=$SECONDS
        until grep -q 'colmem: warm:' "$log" || (( SECONDS - start > 600 )); do sleep 0.2; done
        sleep 0.1
        echo "  warm-up: $(grep -ho 'colmem: warm: .*' "$log" | head -1), done $(calc "$(cat "$log.t") - $tReady") s after ready"
        echo "  warm:    $(q)"
      fi
      kill -TERM "$pid"
      wait "$pid" || true
      rm -f "$log" "$log.t"
    done
    ;;
  generic)
    # The generic kernels (codegen/generic.c) on the GPU, SSB at SF (default
    # 1) in DIR (default /tmp/ssb-sfSF, generated if missing), each part on
    # an empty kernel cache:
    # 1. in process (bench/query): their module's compile (once per device
    #    and cache; a process's start and one query included), then each
    #    query's rows against the compiled kernels' and the kernels' ms of
    #    both (the best of runs 2-4), resident and streamed;
    # 2. through starqd, a new shape's first run: with the generic kernels
    #    (the default) and with --generic-kernels 0 (waiting for its own
    #    compile), the server's own figures (SHOW starq.last_query): all of
    #    the run, the compile it waited for, its kernels, the tier; then
    #    its second run, once its own kernels are in.
    sf=${2:-1}
    dir=${3:-/tmp/ssb-sf$sf}
    backend=${BACKEND:-cuda}
    cuda=${CUDA_HOME:-/usr/local/cuda}
    export LD_LIBRARY_PATH="$PWD/$pack/lib:$cuda/lib64:${LD_LIBRARY_PATH:-}"
    q=$PWD/$pack/bin/query
    gen_missing "$pack/bin" "$sf" "$dir"
    echo "machine: $(nproc) cores"
    export XDG_CACHE_HOME
    XDG_CACHE_HOME=$(mktemp -d)
    t0=$(now)
    "$q" --data "$dir" --backend "$backend" --generic always "select count(*) from lineorder" >/dev/null
    echo "generic kernels' module compiled (NVRTC, optimized) in a process of $(calc "$(now) - $t0") s"
    best() { grep '^(' | sed -n '2,$p' | sed -n 's/.*, kernels \([0-9.]*\) s,.*/\1/p' | sort -g | head -1; }
    for path in ${PATHS-resident streamed}; do
      flags=(--data "$dir" --backend "$backend" --repeat 4)
      [ $path = streamed ] && flags+=(--no-resident)
      echo "== $path, in process: kernels ms (best of runs 2-4), generic against compiled"
      printf '%-5s %6s %5s | %9s %9s %6s\n' query rows same generic compiled ratio
      for f in ssb-data/queries/q*.sql; do
        n=$(basename "$f" .sql)
        sql=$(cat "$f")
        "$q" "${flags[@]}" --generic always "$sql" >/tmp/generic.g 2>/tmp/generic.ge || { echo "$n generic FAILED"; cat /tmp/generic.ge; continue; }
        "$q" "${flags[@]}" --generic off "$sql" >/tmp/generic.c 2>/tmp/generic.ce || { echo "$n compiled FAILED"; cat /tmp/generic.ce; continue; }
        grep -q 'generic kernels' /tmp/generic.g || echo "$n: NOT on the generic kernels"
        same=yes
        cmp -s <(grep -v '^(' /tmp/generic.g) <(grep -v '^(' /tmp/generic.c) || same=NO
        rows=$(grep -v '^(' /tmp/generic.c | wc -l)
        kg=$(best </tmp/generic.g)
        kc=$(best </tmp/generic.c)
        awk -v n="$n" -v r="$rows" -v s="$same" -v g="$kg" -v c="$kc" 'BEGIN {
          printf "%-5s %6d %5s | %9.3f %9.3f %6.2f\n", n, r - 1, s, g * 1e3, c * 1e3, (c > 0 ? g / c : 0) }'
      done
    done
    port=${PORT:-5433}
    for mode in ${MODES-generic compiled}; do
      cache=$(mktemp -d)
      log=$(mktemp /tmp/generic-starqd.XXXXXX)
      flags=(--data-dir "$dir" --backend "$backend" --port "$port" --http-port 0 --log-level debug)
      [ $mode = compiled ] && flags+=(--generic-kernels 0)
      XDG_CACHE_HOME=$cache "$pack/bin/starqd" "${flags[@]}" >"$log" 2>&1 &
      pid=$!
      trap 'kill "$pid" 2>/dev/null || true' EXIT
      t0=$(now)
      until grep -q 'starqd: ready' "$log"; do
        kill -0 "$pid" 2>/dev/null || { echo "starqd exited:"; cat "$log"; exit 1; }
        sleep 0.2
      done
      echo "== $mode: starqd ready in $(calc "$(now) - $t0") s, empty kernel cache"
      if [ $mode = generic ] && [ "$backend" = cuda ]; then
        # The only compile a starting server queues: the generic kernels'.
        start=$SECONDS
        until grep -q 'compiled in the background' "$log"; do
          (( SECONDS - start > 300 )) && { echo "no background compile after 300 s"; break; }
          sleep 0.2
        done
        grep -o 'module [0-9a-f]* compiled in the background in [0-9.]* ms' "$log" | head -1
      else
        sleep 2
      fi
      echo "a new shape's first run, server-side ms (SHOW starq.last_query), then its second run after 3 s;"
      echo "the floors: the fact bytes it read over the device-memory and the zero-copy bandwidth starqd measured"
      printf '%-5s | %9s %9s %9s %-9s | %9s %-9s | %8s %8s %8s\n' query first-ms compile kernels tier second tier \
        fact-MB dev-ms pcie-ms
      for f in ssb-data/queries/q*.sql; do
        n=$(basename "$f" .sql)
        j1=$("$pack/bin/starq" -p "$port" -At -c "$(cat "$f")" -c "SHOW starq.last_query" | tail -1)
        sleep 3
        j2=$("$pack/bin/starq" -p "$port" -At -c "$(cat "$f")" -c "SHOW starq.last_query" | tail -1)
        num() { echo "$1" | grep -o "\"$2\": *[0-9.e+-]*" | head -1 | sed 's/.*: *//'; }
        str() { echo "$1" | grep -o "\"$2\": *\"[a-z]*\"" | head -1 | sed 's/.*: *"//; s/"//'; }
        awk -v n="$n" -v a="$(num "$j1" seconds)" -v c="$(num "$j1" compile_seconds)" \
          -v k="$(num "$j1" kernel_seconds)" -v t="$(str "$j1" tier)" -v b="$(num "$j2" seconds)" \
          -v u="$(str "$j2" tier)" -v f="$(num "$j2" fact_bytes)" \
          -v dv="$(num "$j2" device_bytes_per_second)" -v zc="$(num "$j2" zero_copy_bytes_per_second)" 'BEGIN {
          printf "%-5s | %9.2f %9.2f %9.2f %-9s | %9.2f %-9s | %8.1f %8.3f %8.2f\n", n, a * 1e3, c * 1e3,
            k * 1e3, t, b * 1e3, u, f / 1e6, (dv > 0 ? f / dv * 1e3 : 0), (zc > 0 ? f / zc * 1e3 : 0) }'
      done
      kill -TERM "$pid"
      wait "$pid" || true
      trap - EXIT
      rm -rf "$cache" "$log"
    done
    ;;
  overhead)
    sf=${2:?SF}
    dir=${3:-/tmp/ssb-sf$sf}
    shift $(( $# >= 3 ? 3 : 2 ))
    bin=${BIN:-$pack/bin}
    cuda=${CUDA_HOME:-/usr/local/cuda}
    export LD_LIBRARY_PATH="$PWD/$pack/lib:$cuda/lib64:${LD_LIBRARY_PATH:-}"
    export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/overhead-cache}
    gen_missing "$bin" "$sf" "$dir"
    "$bin/overhead" --backend "${BACKEND:-cuda}" --data "$dir" --worker "$bin/starq-worker" \
      --runs "${RUNS:-50}" "$@"
    ;;
  skew-groupby)
    dir=${2:-/tmp/skew}
    shift $(( $# >= 2 ? 2 : 1 ))
    bin=${BIN:-$pack/bin}
    cuda=${CUDA_HOME:-/usr/local/cuda}
    export LD_LIBRARY_PATH="$PWD/$pack/lib:$cuda/lib64:${LD_LIBRARY_PATH:-}"
    export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/skew-groupby-cache}
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || true
    echo "commit $(cat "$pack/COMMIT" 2>/dev/null || git rev-parse --short HEAD 2>/dev/null || echo '?')"
    "$bin/skew-groupby" --data "$dir" --backend "${BACKEND:-cuda}" \
      --modes auto,global,shared,replicated --theta 0,0.5,1,1.5,2 "$@"
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
    sed -n '2,/^[^#]/{/^#/p}' "$0"   # the header comment, however long
    exit 2
    ;;
esac
