# starq — the one Makefile.
#
#   make            build everything into bin/ (optimised, debug info)
#   make run        set up, build, generate SSB data (SF=1) into the column
#                   store at data/ssb-sf1
#   make test       set up, build with ASan+UBSan, run every test
#   make bench-gen  time the generator at SF=1 beside the write-bandwidth floor
#   make bench-load time loading SF=1 and generating it into the store
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
# parser/parse.y is turned into build/gen/parser/parse.{c,h} by lemon.
PARSE_GEN  = build/gen/parser/parse.c
PARSER_SRC = $(call lib_src,parser) $(if $(wildcard parser/parse.y),$(PARSE_GEN))
LIB_SRC    = $(PLAN_SRC) $(PARSER_SRC) $(LOAD_SRC) $(CAT_SRC) $(STORE_SRC) \
             $(SSBGEN_SRC) $(COMMON_SRC)
TEST_SRC   = $(wildcard tests/*.c)
LDLIBS    += -lsqlite3

objs = $(patsubst %.c,build/$(1)/%.o,$(2))

.PHONY: all run test bench-gen bench-load setup clean
.DEFAULT_GOAL := all

PROGRAMS = starq-gen $(if $(wildcard loader/main.c),starq-load)

all: $(addprefix bin/,$(PROGRAMS))

setup:
	@scripts/setup.sh

# ---- programs -------------------------------------------------------------
# Each program is its main.c plus every library; the linker keeps what it uses.
MAIN_starq-gen  = ssb-data/main.c
MAIN_starq-load = loader/main.c

define program
bin/$(1): $(call objs,release,$(MAIN_$(1)) $(LIB_SRC)) | setup
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS_release) -o $$@ $$^ $$(LDLIBS)

build/asan/bin/$(1): $(call objs,asan,$(MAIN_$(1)) $(LIB_SRC)) | setup
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS_asan) -o $$@ $$^ $$(LDLIBS)
endef
$(foreach p,$(PROGRAMS),$(eval $(call program,$(p))))

build/asan/tests/run-tests: $(call objs,asan,$(TEST_SRC) $(LIB_SRC)) | setup
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_asan) -o $@ $^ $(LDLIBS)

# ---- generated sources ------------------------------------------------------
# lemon writes its output beside its input, so the grammar is copied into
# build/gen first. -q: no .out report; -s: no statistics on stdout.
LEMPAR = /usr/share/lemon/lempar.c
build/gen/parser/parse.c build/gen/parser/parse.h &: parser/parse.y | setup
	@mkdir -p build/gen/parser
	cp parser/parse.y build/gen/parser/parse.y
	lemon -q -T$(LEMPAR) build/gen/parser/parse.y

# Everything in parser/ may include the token codes of parse.h.
$(call objs,release,$(call lib_src,parser)) $(call objs,asan,$(call lib_src,parser)): \
  build/gen/parser/parse.h

build/release/%.o: %.c | setup
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_release) -c -o $@ $<

build/asan/%.o: %.c | setup
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_asan) -c -o $@ $<

# ---- what people run ------------------------------------------------------
run: all
	bin/starq-gen --sf $(SF) --format store --out $(DATA)

# Sanitizers abort on the first finding, so no report goes unnoticed.
test: build/asan/tests/run-tests $(addprefix build/asan/bin/,$(PROGRAMS))
	ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	build/asan/tests/run-tests $(TESTS)

bench-gen: bin/starq-gen
	bench/gen.sh $(SF)

bench-load: all
	bench/load.sh $(SF)

clean:
	rm -rf build bin

-include $(shell find build -name '*.d' 2>/dev/null)
