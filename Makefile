# starq — the one Makefile.
#
#   make            build every program into bin/ (optimised, debug info)
#   make run        set up, build, generate SSB data (SF=1) into the column
#                   store at data/ssb-sf1 unless it is there, and run starqd
#                   on it (PORT=5433, HTTP_PORT=8433) in the foreground
#   make test       set up, build with ASan+UBSan (and the fuzz targets),
#                   run every test, JOBS at once, then each fuzz target for
#                   FUZZ_SECONDS (60), JOBS at once; TESTS="a b" runs only
#                   those tests and no fuzzing
#   make fuzz       only the fuzzing (FUZZ_SECONDS=600 for longer)
#   make regress-expected  rewrite tests/regress/expected/ from PostgreSQL 15
#   make bench-gen  time the generator at SF=1 beside the write-bandwidth floor
#   make bench-load time loading SF=1 and generating it into the store
#   make bench-parse / bench-plan  time parse + bind (+ plan) of the SSB
#                   queries; EXPLAIN=1 also prints their plans
#   make bench-overhead  the per-query path outside the kernels
#   make clean
#
# JOBS (default: the number of online CPUs) is how many compiles, tests and
# fuzz targets run at once; a -jN given to make wins for the build.
#
# Three build flavours share the sources: build/release (what bin/ holds),
# build/asan (AddressSanitizer + UndefinedBehaviorSanitizer, for tests) and
# build/fuzz (clang's libFuzzer with both sanitizers). Each folder is a
# static archive in each flavour, and each program links only the archives
# of the layers it uses (see "layers" below). Every target first runs
# scripts/setup.sh, which installs missing Debian packages and says nothing
# when all are there.

ifeq ($(origin CC),default)
CC        = gcc
endif
JOBS     ?= $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
# Builds use JOBS cores unless make was given a -j of its own; recursive
# makes share the one jobserver.
ifeq ($(MAKELEVEL)$(filter -j%,$(MAKEFLAGS)),0)
MAKEFLAGS += -j$(JOBS)
endif
SF       ?= 1
DATA     ?= data/ssb-sf$(SF)
# Truncating a message into a caller's buffer is by design; paths are
# checked for length where they are built.
WARN      = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wno-format-truncation
BASE      = -std=c11 -D_DEFAULT_SOURCE -pthread -MMD -MP -Ibuild/gen $(WARN)
FLAVOURS  = release asan fuzz
CC_release     = $(CC)
CFLAGS_release = $(BASE) -O2 -g
CC_asan        = $(CC)
CFLAGS_asan    = $(BASE) -O1 -g -fno-omit-frame-pointer \
                 -fsanitize=address,undefined -fno-sanitize-recover=all
# The fuzz flavour: clang, libFuzzer's coverage hooks in every object, its
# main() in the targets' links only.
FUZZ_CC        = clang
CC_fuzz        = $(FUZZ_CC)
CFLAGS_fuzz    = $(BASE) -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined \
                 -fno-sanitize-recover=all -Wno-unknown-warning-option
LINKFLAGS_fuzz = -fsanitize=fuzzer

# ---- layers ----------------------------------------------------------------
# Each folder is a layer, built into one static archive per flavour
# (build/FLAVOUR/lib/libFOLDER.a, clients/cli as libclients-cli.a); a
# folder's main.c is its program and stays out. New files are picked up by
# the wildcards, so adding one needs no edit; a folder with no .c file yet
# (engine/ while it is being made) has no archive and links nowhere.
#
# LAYERS lists them top first, and every link names its archives in that
# order. The linker takes from an archive only the members that resolve a
# symbol still undefined, and reads the archives once, left to right: so a
# program holds only the objects it calls (plain .o files on a link line
# are all kept, used or not: that is why programs link archives), and a
# call into a layer the program does not list fails its link. A call into
# a layer above is caught for every object, whichever program links it,
# by scripts/check-layers.sh, which `make test` runs first.
LAYERS = clients/cli clients/bench server worker engine runtime codegen planner \
         host parser ssb-data loader pgcat func catalog storage common

lib_src    = $(filter-out %/main.c,$(wildcard $(1)/*.c))
# Sources generated into build/gen that belong to a folder's archive.
# parser/parse.y is turned into build/gen/parser/parse.{c,h} by lemon.
PARSE_GEN  = build/gen/parser/parse.c
GEN_parser = $(if $(wildcard parser/parse.y),$(PARSE_GEN))
# runtime/cpu-shim.h is embedded as a string by scripts/embed-text.sh.
SHIM_GEN   = build/gen/runtime/cpu-shim.c
GEN_runtime = $(SHIM_GEN)
# codegen/device.cuh and device-packed.cuh, the device-function library, are
# embedded the same way, as one text; the generic kernels' text (the
# library, their instruction set and their interpreter) as another.
DEVLIB_GEN = build/gen/codegen/device-lib.c
GENLIB_GEN = build/gen/codegen/generic-lib.c
GEN_codegen = $(DEVLIB_GEN) $(GENLIB_GEN)
# server/dashboard.html, the status port's page, is embedded as a string.
DASH_GEN   = build/gen/server/dashboard.c
GEN_server = $(DASH_GEN)

folder_src = $(call lib_src,$(1)) $(GEN_$(1))
FOLDERS    = $(foreach d,$(LAYERS),$(if $(strip $(call folder_src,$(d))),$(d)))
TEST_SRC   = $(wildcard tests/*.c tests/clients/*.c)

# The libraries each folder's objects call, so a program links those of
# its layers alone (bin/starq needs neither SQLite nor libuv).
# -ldl: the CPU backend dlopens compiled kernels (part of libc since glibc
# 2.34, a library of its own before). server/: libuv's loop, libssl for
# TLS and libcrypto for SCRAM-SHA-256; planner/: libcrypto's MD5 (md5()). clients/: libpq, and libedit for the CLI's prompt.
LDLIBS_catalog      = -lsqlite3
LDLIBS_runtime      = -ldl
LDLIBS_planner      = -lcrypto
LDLIBS_server       = -luv -lssl -lcrypto
LDLIBS_clients/cli  = -lpq -ledit
LDLIBS_clients/bench = -lpq
LDLIBS    = -lm -pthread

objs = $(patsubst %.c,build/$(1)/%.o,$(2))
# $(call archives,FLAVOUR,FOLDERS): their archives, in LAYERS order.
archives = $(foreach d,$(filter $(2),$(FOLDERS)),build/$(1)/lib/lib$(subst /,-,$(d)).a)
# $(call ldlibs,FOLDERS[,LIBS]): the libraries they call and LIBS, then
# libm and pthreads.
ldlibs = $(sort $(foreach d,$(1),$(LDLIBS_$(d))) $(2)) $(LDLIBS)

define archive_rule
build/$(1)/lib/lib$(subst /,-,$(2)).a: $(call objs,$(1),$(call folder_src,$(2)))
	@mkdir -p $$(@D)
	@rm -f $$@
	$$(AR) rcs $$@ $$^
endef
$(foreach f,$(FLAVOURS),$(foreach d,$(FOLDERS),$(eval $(call archive_rule,$(f),$(d)))))

# $(call link_rule,TARGET,FLAVOUR,SOURCES,FOLDERS[,LIBS]): TARGET is the
# objects of SOURCES (all kept) and what it calls of FOLDERS' archives.
define link_rule
$(1): $(call objs,$(2),$(3)) $(call archives,$(2),$(4)) | setup
	@mkdir -p $$(@D)
	$$(CC_$(2)) $$(CFLAGS_$(2)) $$(LINKFLAGS_$(2)) -o $$@ $$^ $(call ldlibs,$(4),$(5))
endef

.PHONY: all run test regress-expected check-layers fuzz fuzz-build bench-gen bench-load bench-parse \
        bench-plan bench-overhead bench-stream setup clean
.DEFAULT_GOAL := all

PROGRAMS = starq-gen $(if $(wildcard loader/main.c),starq-load) starqd starq-worker starq-bench starq

all: $(addprefix bin/,$(PROGRAMS))

setup:
	@scripts/setup.sh

# ---- programs -------------------------------------------------------------
# Each program is its main.c and the layers it uses, found from its
# #includes and its link: the top layer first, then each below it that
# something above calls. starq and starq-bench are clients: libpq and
# common/ only, no server, engine or runtime.
MAIN_starq-gen    = ssb-data/main.c
USES_starq-gen    = ssb-data loader catalog storage common
MAIN_starq-load   = loader/main.c
USES_starq-load   = ssb-data loader catalog storage common
MAIN_starqd       = server/main.c
USES_starqd       = server worker engine runtime codegen planner host parser loader pgcat func catalog storage common
MAIN_starq-worker = worker/main.c
USES_starq-worker = worker engine runtime codegen planner host parser loader pgcat func catalog storage common
MAIN_starq-bench  = clients/bench/main.c
USES_starq-bench  = clients/bench common
MAIN_starq        = clients/cli/main.c
USES_starq        = clients/cli common

$(foreach p,$(PROGRAMS),$(eval $(call link_rule,bin/$(p),release,$(MAIN_$(p)),$(USES_$(p)))))
$(foreach p,$(PROGRAMS),$(eval $(call link_rule,build/asan/bin/$(p),asan,$(MAIN_$(p)),$(USES_$(p)))))

# The test runner holds every test, so every layer; the daemon's tests
# drive it with libpq. The same tests without sanitizers are built for the
# GPU machine (bench/device.sh gpu-tests): ASan's shadow memory and the
# CUDA driver's address space do not mix.
USES_tests = $(FOLDERS)
$(eval $(call link_rule,build/asan/tests/run-tests,asan,$(TEST_SRC),$(USES_tests),-lpq))
$(eval $(call link_rule,build/release/tests/run-tests,release,$(TEST_SRC),$(USES_tests),-lpq))

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
$(foreach f,$(FLAVOURS),$(call objs,$(f),$(call lib_src,parser) tests/test-parse.c)): \
  build/gen/parser/parse.h

# The generated engine includes parser/parseInt.h from the top of the tree,
# and lempar.c fetches its context and takes parameters in functions that
# do not always use them; every other warning stays on.
PARSE_GEN_CFLAGS = -I. -Wno-unused-parameter -Wno-unused-variable
$(foreach f,$(FLAVOURS),$(eval $(call objs,$(f),$(PARSE_GEN)): CFLAGS_$(f) += $(PARSE_GEN_CFLAGS)))

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

define compile_rule
build/$(1)/%.o: %.c | setup
	@mkdir -p $$(@D)
	$$(CC_$(1)) $$(CFLAGS_$(1)) -c -o $$@ $$<
endef
$(foreach f,$(FLAVOURS),$(eval $(call compile_rule,$(f))))

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

build/asan/bin/libstarq-cuda-mock.so: $(wildcard tests/mock/*.c tests/mock/*.h) runtime/cuda-api.h | setup
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_asan) -fPIC -shared -o $@ $(filter %.c,$^) -ldl

# Sanitizers abort on the first finding, so no report goes unnoticed.
# intercept_tls_get_addr=0: kernel modules are dlopened and dlclosed by the
# hundred, each with thread-locals (runtime/cpu-shim.h); LeakSanitizer's
# tracking of that dynamic TLS reads glibc's resized DTV after it moved and
# crashes the leak check at exit. Without it, leaks are still reported.
# The fuzz targets are built with the rest, in the one parallel build,
# before any test runs.
test: check-layers build/asan/tests/run-tests $(addprefix build/asan/bin/,$(PROGRAMS)) $(TEST_BINS) \
      $(if $(TESTS),,fuzz-build)
	ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:intercept_tls_get_addr=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	build/asan/tests/run-tests -j $(JOBS) $(TESTS)
	$(if $(TESTS),,@$(MAKE) --no-print-directory fuzz)

# The regression suite's expected output, written by PostgreSQL 15 (the
# test runs every tests/regress/sql file against it and starqd; see
# tests/test-regress.c). Review the diff before committing it.
regress-expected: build/asan/tests/run-tests $(addprefix build/asan/bin/,$(PROGRAMS)) $(TEST_BINS)
	STARQ_REGRESS_WRITE=1 ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:intercept_tls_get_addr=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 build/asan/tests/run-tests regress

# No layer calls one above it (scripts/check-layers.sh), on the archives
# the tests link.
check-layers: $(call archives,asan,$(FOLDERS))
	@scripts/check-layers.sh build/asan/lib $(FOLDERS)

# ---- benchmarks -------------------------------------------------------------
# bench/NAME.c is a program of its own, built into build/release/bench/NAME
# with the layers it uses.
USES_bench/query        = engine runtime codegen planner host parser loader pgcat func catalog storage common
USES_bench/ssb-gpu      = $(USES_bench/query)
USES_bench/skew-groupby = $(USES_bench/query)
USES_bench/overhead     = worker $(USES_bench/query)
USES_bench/probe-floor  = runtime codegen common
USES_bench/plan-bench   = planner host parser ssb-data loader pgcat func catalog storage common
USES_bench/duckdb       = ssb-data catalog storage common
BENCH_TOOLS = query ssb-gpu skew-groupby overhead probe-floor plan-bench duckdb
$(foreach t,$(BENCH_TOOLS),$(eval $(call link_rule,build/release/bench/$(t),release,bench/$(t).c,$(USES_bench/$(t)))))
# bench/stream.c is a libpq client of a running starqd.
$(eval $(call link_rule,build/release/bench/stream,release,bench/stream.c,common,-lpq))
# bench/soak.c is a libpq client of a running starqd (bench/soak.sh).
$(eval $(call link_rule,build/release/bench/soak,release,bench/soak.c,common,-lpq))
# The tests run bench/query's sanitized build (TEST_BINS).
$(eval $(call link_rule,build/asan/bin/query,asan,bench/query.c,$(USES_bench/query)))

bench-gen: bin/starq-gen
	bench/gen.sh $(SF)

bench-load: all
	bench/load.sh $(SF)

# A large result through the server (bench/stream.sh): its first row,
# its last, and the server's memory meanwhile, on SSB data at SF.
bench-stream: build/release/bench/stream bin/starqd bin/starq-worker bin/starq-gen
	bench/stream.sh $(SF) $(if $(RUNS),$(RUNS),3)

bench-parse: build/release/bench/plan-bench
	build/release/bench/plan-bench

# The per-query path outside the kernels, phase by phase, in process and
# through the device worker (bench/overhead.c), on SSB data at SF (0.01
# unless given: small enough that the kernels hardly count).
bench-overhead: SF = 0.01
bench-overhead: build/release/bench/overhead bin/starq-gen bin/starq-worker
	@test -f $(DATA)/catalog.db || bin/starq-gen --sf $(SF) --format store --out $(DATA)
	build/release/bench/overhead --data $(DATA) --worker bin/starq-worker $(if $(RUNS),--runs $(RUNS))

# Planning reads statistics and dictionaries: it is timed on SF 1 data.
bench-plan: build/release/bench/plan-bench bin/starq-gen
	@test -f build/bench-plan/catalog.db || bin/starq-gen --sf 1 --format store --out build/bench-plan
	build/release/bench/plan-bench --data build/bench-plan $(if $(EXPLAIN),--explain)

# ---- fuzzing ---------------------------------------------------------------
# clang's libFuzzer, with ASan and UBSan, over every parser of untrusted
# bytes: each tests/fuzz/fuzz-NAME.c is a target over one of them (the SQL
# front end, the PostgreSQL protocol, the HTTP parser, ...), built into
# build/fuzz/fuzz-NAME with the layers USES_fuzz-NAME lists (all of them
# if it lists none). `make fuzz` runs each for FUZZ_SECONDS, JOBS at once,
# from a corpus in build/ seeded with tests/fuzz/seeds/NAME (and the SSB
# queries for sql): scripts/fuzz-run.sh.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS  = $(patsubst tests/fuzz/fuzz-%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
USES_fuzz-colfile = storage common
USES_fuzz-http    = server common
USES_fuzz-json    = common
USES_fuzz-pgwire  = server parser common
USES_fuzz-sql     = planner host parser ssb-data loader pgcat func catalog storage common
USES_fuzz-wire    = worker runtime catalog storage common
$(foreach t,$(FUZZ_TARGETS),$(eval $(call link_rule,build/fuzz/fuzz-$(t),fuzz,tests/fuzz/fuzz-$(t).c,$(or $(USES_fuzz-$(t)),$(FOLDERS)))))

FUZZ_RUNS = $(addprefix fuzz-run-,$(FUZZ_TARGETS))
.PHONY: $(FUZZ_RUNS)
fuzz-build: $(addprefix build/fuzz/fuzz-,$(FUZZ_TARGETS))
fuzz: $(FUZZ_RUNS)
$(FUZZ_RUNS): fuzz-run-%: build/fuzz/fuzz-%
	@scripts/fuzz-run.sh $* $(FUZZ_SECONDS)

clean:
	rm -rf build bin

-include $(shell find build -name '*.d' 2>/dev/null)
