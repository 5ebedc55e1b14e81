# starq — the one Makefile.
#
#   make            build everything into bin/ (optimised, debug info)
#   make run        set up, build, generate SSB data (SF=1) into the column
#                   store at data/ssb-sf1 unless it is there, and run starqd
#                   on it (PORT=5433, HTTP_PORT=8433) in the foreground
#   make test       set up, build with ASan+UBSan, run every test, then run
#                   each fuzz target for FUZZ_SECONDS (60); TESTS="a b"
#                   runs only those tests and no fuzzing
#   make regress-expected  rewrite tests/regress/expected/ from PostgreSQL 15
#   make bench-gen  time the generator at SF=1 beside the write-bandwidth floor
#   make bench-load time loading SF=1 and generating it into the store
#   make bench-parse / bench-plan  time parse + bind (+ plan) of the SSB
#                   queries; EXPLAIN=1 also prints their plans
#   make clean
#
# Two build flavours share the sources: build/release (what bin/ holds) and
# build/asan (AddressSanitizer + UndefinedBehaviorSanitizer, for tests).
# Every target first runs scripts/setup.sh, which installs missing Debian
# packages and says nothing when all are there.

ifeq ($(origin CC),default)
CC        = gcc
endif
SF       ?= 1
DATA     ?= data/ssb-sf$(SF)
# Truncating a message into a caller's buffer is by design; paths are
# checked for length where they are built.
WARN      = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wno-format-truncation
BASE      = -std=c11 -D_DEFAULT_SOURCE -pthread -MMD -MP -Ibuild/gen $(WARN)
CFLAGS_release = $(BASE) -O2 -g
CFLAGS_asan    = $(BASE) -O1 -g -fno-omit-frame-pointer \
                 -fsanitize=address,undefined -fno-sanitize-recover=all
LDLIBS    = -lm -pthread

# Each folder is a library of objects; a folder's main.c is its program.
# New files are picked up by these wildcards, so adding one needs no edit.
lib_src    = $(filter-out %/main.c,$(wildcard $(1)/*.c))
COMMON_SRC = $(call lib_src,common)
STORE_SRC  = $(call lib_src,storage)
CAT_SRC    = $(call lib_src,catalog)
LOAD_SRC   = $(call lib_src,loader)
SSBGEN_SRC = $(call lib_src,ssb-data)
PLAN_SRC   = $(call lib_src,planner)
# server/dashboard.html, the status port's page, is embedded as a string.
DASH_GEN   = build/gen/server/dashboard.c
SERVER_SRC = $(call lib_src,server) $(DASH_GEN)
WORKER_SRC = $(call lib_src,worker)
ENGINE_SRC = $(call lib_src,engine)
# parser/parse.y is turned into build/gen/parser/parse.{c,h} by lemon.
PARSE_GEN  = build/gen/parser/parse.c
PARSER_SRC = $(call lib_src,parser) $(if $(wildcard parser/parse.y),$(PARSE_GEN))
# runtime/cpu-shim.h is embedded as a string by scripts/embed-text.sh.
SHIM_GEN   = build/gen/runtime/cpu-shim.c
RUNTIME_SRC = $(call lib_src,runtime) $(SHIM_GEN)
# codegen/device.cuh and device-packed.cuh, the device-function library, are
# embedded the same way, as one text.
DEVLIB_GEN = build/gen/codegen/device-lib.c
# The generic kernels' text: the library, their instruction set and their
# interpreter, as one text.
GENLIB_GEN = build/gen/codegen/generic-lib.c
CODEGEN_SRC = $(call lib_src,codegen) $(DEVLIB_GEN) $(GENLIB_GEN)
LIB_SRC    = $(WORKER_SRC) $(SERVER_SRC) $(ENGINE_SRC) $(RUNTIME_SRC) $(CODEGEN_SRC) $(PLAN_SRC) $(PARSER_SRC) $(LOAD_SRC) $(CAT_SRC) \
             $(STORE_SRC) $(SSBGEN_SRC) $(COMMON_SRC)
TEST_SRC   = $(wildcard tests/*.c)
# -ldl: the CPU backend dlopens compiled kernels (part of libc since glibc
# 2.34, a library of its own before).
# server/: libuv's loop, and libcrypto for SCRAM-SHA-256.
LDLIBS    += -lsqlite3 -ldl -luv -lcrypto

objs = $(patsubst %.c,build/$(1)/%.o,$(2))

.PHONY: all run test regress-expected fuzz bench-gen bench-load bench-parse bench-plan bench-overhead setup clean
.DEFAULT_GOAL := all

PROGRAMS = starq-gen $(if $(wildcard loader/main.c),starq-load) starqd starq-worker starq-bench starq

all: $(addprefix bin/,$(PROGRAMS))

setup:
	@scripts/setup.sh

# ---- programs -------------------------------------------------------------
# Each program is its main.c plus every library; the linker keeps what it uses.
MAIN_starq-gen  = ssb-data/main.c
MAIN_starq-load = loader/main.c
MAIN_starqd     = server/main.c
MAIN_starq-worker = worker/main.c
MAIN_starq-bench = clients/bench/main.c
MAIN_starq      = clients/cli/main.c

define program
bin/$(1): $(call objs,release,$(MAIN_$(1)) $(LIB_SRC)) | setup
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS_release) -o $$@ $$^ $$(LDLIBS)

build/asan/bin/$(1): $(call objs,asan,$(MAIN_$(1)) $(LIB_SRC)) | setup
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS_asan) -o $$@ $$^ $$(LDLIBS)
endef
$(foreach p,$(PROGRAMS),$(eval $(call program,$(p))))

# starq-bench's own files, and libpq, go into starq-bench alone (they are
# not in LIB_SRC, so starqd's link never sees libpq): extra prerequisites
# of its link, which the rule above puts in $^.
BENCH_SRC = $(call lib_src,clients/bench)
bin/starq-bench: $(call objs,release,$(BENCH_SRC))
build/asan/bin/starq-bench: $(call objs,asan,$(BENCH_SRC))
bin/starq-bench build/asan/bin/starq-bench: LDLIBS += -lpq
# Its tests call its pieces (answers, statistics) directly too.
build/asan/tests/run-tests: $(call objs,asan,$(BENCH_SRC))
build/release/tests/run-tests: $(call objs,release,$(BENCH_SRC))

# starq, the psql-like client: its files, libpq and libedit, the same way.
# The tests link the pieces they unit-test (the splitter, the printer, the
# error lines), which need neither libedit nor a connection.
CLI_SRC      = $(call lib_src,clients/cli)
CLI_UNIT_SRC = $(addprefix clients/cli/,split.c width.c print.c errors.c)
bin/starq: $(call objs,release,$(CLI_SRC))
build/asan/bin/starq: $(call objs,asan,$(CLI_SRC))
bin/starq build/asan/bin/starq: LDLIBS += -lpq -ledit
build/asan/tests/run-tests: $(call objs,asan,$(CLI_UNIT_SRC))
build/release/tests/run-tests: $(call objs,release,$(CLI_UNIT_SRC))

# The daemon's tests drive it with libpq.
TEST_LDLIBS = $(LDLIBS) -lpq

build/asan/tests/run-tests: $(call objs,asan,$(TEST_SRC) $(LIB_SRC)) | setup
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_asan) -o $@ $^ $(TEST_LDLIBS)

# The same tests without sanitizers, for the GPU machine (bench/device.sh
# gpu-tests): ASan's shadow memory and the CUDA driver's address space do
# not mix.
build/release/tests/run-tests: $(call objs,release,$(TEST_SRC) $(LIB_SRC)) | setup
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_release) -o $@ $^ $(TEST_LDLIBS)

# ---- generated sources ------------------------------------------------------
# lemon writes its output beside its input, so the grammar is copied into
# build/gen first. -q: no .out report; -s: no statistics on stdout. lemon
# leaves an unchanged parse.h alone, so both outputs are touched: else the
# rule would run again on every make. It fails on any grammar conflict.
LEMPAR = /usr/share/lemon/lempar.c
build/gen/parser/parse.c build/gen/parser/parse.h &: parser/parse.y | setup
	@mkdir -p build/gen/parser
	cp parser/parse.y build/gen/parser/parse.y
	lemon -q -T$(LEMPAR) build/gen/parser/parse.y
	@touch build/gen/parser/parse.c build/gen/parser/parse.h

# Everything in parser/ may include the token codes of parse.h, and so
# may the parser's tests.
$(foreach f,release asan fuzz,$(call objs,$(f),$(call lib_src,parser))): \
  build/gen/parser/parse.h
build/asan/tests/test-parse.o: build/gen/parser/parse.h

# The generated engine includes parser/parseInt.h from the top of the tree,
# and lempar.c fetches its context and takes parameters in functions that
# do not always use them; every other warning stays on.
PARSE_GEN_CFLAGS = -I. -Wno-unused-parameter -Wno-unused-variable
$(call objs,release,$(PARSE_GEN)): CFLAGS_release += $(PARSE_GEN_CFLAGS)
$(call objs,asan,$(PARSE_GEN)): CFLAGS_asan += $(PARSE_GEN_CFLAGS)
$(call objs,fuzz,$(PARSE_GEN)): CFLAGS_fuzz += $(PARSE_GEN_CFLAGS)

# The CPU backend's prelude, carried in the binary as a string constant.
$(SHIM_GEN): runtime/cpu-shim.h scripts/embed-text.sh | setup
	@mkdir -p $(@D)
	scripts/embed-text.sh runtime_cpu_shim runtime/cpu-shim.h >$@.tmp
	@mv $@.tmp $@

$(DEVLIB_GEN): codegen/device.cuh codegen/device-packed.cuh scripts/embed-text.sh | setup
	@mkdir -p $(@D)
	scripts/embed-text.sh codegen_device_library codegen/device.cuh codegen/device-packed.cuh >$@.tmp
	@mv $@.tmp $@

$(GENLIB_GEN): codegen/device.cuh codegen/device-packed.cuh codegen/generic-ops.h \
               codegen/device-generic.cuh scripts/embed-text.sh | setup
	@mkdir -p $(@D)
	scripts/embed-text.sh codegen_generic_library codegen/device.cuh codegen/device-packed.cuh \
	  codegen/generic-ops.h codegen/device-generic.cuh >$@.tmp
	@mv $@.tmp $@

$(DASH_GEN): server/dashboard.html scripts/embed-text.sh | setup
	@mkdir -p $(@D)
	scripts/embed-text.sh server_dashboard_html server/dashboard.html >$@.tmp
	@mv $@.tmp $@

build/release/%.o: %.c | setup
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_release) -c -o $@ $<

build/asan/%.o: %.c | setup
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_asan) -c -o $@ $<

# ---- what people run ------------------------------------------------------
# make run: SSB data at SF (generated once into DATA), then starqd on it in
# the foreground until Ctrl-C.
PORT      ?= 5433
HTTP_PORT ?= 8433
run: all
	@test -f $(DATA)/catalog.db || bin/starq-gen --sf $(SF) --format store --out $(DATA)
	@echo ""
	@echo "  starqd is starting on $(DATA); connect with:"
	@echo "    psql -h 127.0.0.1 -p $(PORT) -U starq -d starq"
	@echo "  dashboard: http://127.0.0.1:$(HTTP_PORT)/    (Ctrl-C stops the server)"
	@echo ""
	bin/starqd --data-dir $(DATA) --port $(PORT) --http-port $(HTTP_PORT)

# The CUDA backend's tests need no GPU: a stand-in for libcuda.so.1 and
# NVRTC (tests/mock/cuda-mock.c) runs its kernels on the CPU, and
# bench/query shows what --backend cuda says on a machine without a driver.
TEST_BINS  = build/asan/bin/query build/asan/bin/libstarq-cuda-mock.so

build/asan/bin/query: $(call objs,asan,bench/query.c $(LIB_SRC)) | setup
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_asan) -o $@ $^ $(LDLIBS)

build/asan/bin/libstarq-cuda-mock.so: $(wildcard tests/mock/*.c tests/mock/*.h) runtime/cuda-api.h | setup
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_asan) -fPIC -shared -o $@ $(filter %.c,$^) -ldl

# Sanitizers abort on the first finding, so no report goes unnoticed.
# intercept_tls_get_addr=0: kernel modules are dlopened and dlclosed by the
# hundred, each with thread-locals (runtime/cpu-shim.h); LeakSanitizer's
# tracking of that dynamic TLS reads glibc's resized DTV after it moved and
# crashes the leak check at exit. Without it, leaks are still reported.
test: build/asan/tests/run-tests $(addprefix build/asan/bin/,$(PROGRAMS)) $(TEST_BINS)
	ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:intercept_tls_get_addr=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	build/asan/tests/run-tests $(TESTS)
	$(if $(TESTS),,@$(MAKE) --no-print-directory fuzz)

# The regression suite's expected output, written by PostgreSQL 15 (the
# test runs every tests/regress/sql file against it and starqd; see
# tests/test-regress.c). Review the diff before committing it.
regress-expected: build/asan/tests/run-tests $(addprefix build/asan/bin/,$(PROGRAMS)) $(TEST_BINS)
	STARQ_REGRESS_WRITE=1 ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:intercept_tls_get_addr=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 build/asan/tests/run-tests regress

bench-gen: bin/starq-gen
	bench/gen.sh $(SF)

bench-load: all
	bench/load.sh $(SF)

bench-parse: build/release/bench/plan-bench
	build/release/bench/plan-bench

build/release/bench/plan-bench: $(call objs,release,bench/plan-bench.c $(LIB_SRC)) | setup
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_release) -o $@ $^ $(LDLIBS)

build/release/bench/query: $(call objs,release,bench/query.c $(LIB_SRC)) | setup
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_release) -o $@ $^ $(LDLIBS)

build/release/bench/ssb-gpu: $(call objs,release,bench/ssb-gpu.c $(LIB_SRC)) | setup
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_release) -o $@ $^ $(LDLIBS)

build/release/bench/skew-groupby: $(call objs,release,bench/skew-groupby.c $(LIB_SRC)) | setup
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_release) -o $@ $^ $(LDLIBS)

build/release/bench/probe-floor: $(call objs,release,bench/probe-floor.c $(LIB_SRC)) | setup
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_release) -o $@ $^ $(LDLIBS)

# The per-query path outside the kernels, phase by phase, in process and
# through the device worker (bench/overhead.c), on SSB data at SF (0.01
# unless given: small enough that the kernels hardly count).
bench-overhead: SF = 0.01
build/release/bench/overhead: $(call objs,release,bench/overhead.c $(LIB_SRC)) | setup
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_release) -o $@ $^ $(LDLIBS)

bench-overhead: build/release/bench/overhead bin/starq-gen bin/starq-worker
	@test -f $(DATA)/catalog.db || bin/starq-gen --sf $(SF) --format store --out $(DATA)
	build/release/bench/overhead --data $(DATA) --worker bin/starq-worker $(if $(RUNS),--runs $(RUNS))

# Planning reads statistics and dictionaries: it is timed on SF 1 data.
bench-plan: build/release/bench/plan-bench bin/starq-gen
	@test -f build/bench-plan/catalog.db || bin/starq-gen --sf 1 --format store --out build/bench-plan
	build/release/bench/plan-bench --data build/bench-plan $(if $(EXPLAIN),--explain)

# ---- fuzzing ---------------------------------------------------------------
# clang's libFuzzer, with ASan and UBSan, over every parser of untrusted
# bytes: tests/fuzz/fuzz-NAME.c (the SQL front end, the PostgreSQL protocol,
# the HTTP parser, ...). `make test` runs each for FUZZ_SECONDS from a
# corpus seeded with tests/fuzz/seeds/NAME (and the SSB queries for sql);
# the corpora live in build/.
FUZZ_SECONDS ?= 60
FUZZ_CC       = clang
CFLAGS_fuzz   = $(BASE) -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined \
                -fno-sanitize-recover=all -Wno-unknown-warning-option

build/fuzz/%.o: %.c | setup
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CFLAGS_fuzz) -c -o $@ $<

# Each tests/fuzz/fuzz-NAME.c is a target over one parser of untrusted
# bytes, seeded from tests/fuzz/seeds/NAME/ (and the SSB queries for sql);
# `make fuzz` gives each FUZZ_SECONDS.
FUZZ_TARGETS = $(patsubst tests/fuzz/fuzz-%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
# Objects made through the pattern rule below are intermediates to make:
# without this it deletes them after each run and rebuilds them the next.
.SECONDARY: $(patsubst %.c,build/fuzz/%.o,$(wildcard tests/fuzz/fuzz-*.c) $(filter %.c,$(LIB_SRC)))

build/fuzz/fuzz-%: build/fuzz/tests/fuzz/fuzz-%.o $(call objs,fuzz,$(LIB_SRC)) | setup
	$(FUZZ_CC) $(CFLAGS_fuzz) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

fuzz: $(addprefix build/fuzz/fuzz-,$(FUZZ_TARGETS))
	@for t in $(FUZZ_TARGETS); do \
	  rm -rf build/fuzz/corpus-$$t && mkdir -p build/fuzz/corpus-$$t; \
	  if [ $$t = sql ]; then cp ssb-data/queries/*.sql build/fuzz/corpus-$$t/; fi; \
	  if [ -d tests/fuzz/seeds/$$t ]; then cp tests/fuzz/seeds/$$t/* build/fuzz/corpus-$$t/; fi; \
	  echo "fuzz-$$t: $(FUZZ_SECONDS) s"; \
	  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  build/fuzz/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 \
	    -rss_limit_mb=4096 -print_final_stats=1 build/fuzz/corpus-$$t 2>build/fuzz/log-$$t || \
	    { tail -60 build/fuzz/log-$$t; exit 1; }; \
	  grep -E "^(stat::number_of_executed_units|Done)" build/fuzz/log-$$t || tail -3 build/fuzz/log-$$t; \
	done

clean:
	rm -rf build bin

-include $(shell find build -name '*.d' 2>/dev/null)
