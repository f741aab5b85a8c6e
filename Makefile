# SPDX-License-Identifier: GPL-2.0-only
# eatrace: estimate the CPU energy of Linux scheduling decisions from traces.
#
#   make            build ./eatrace
#   make check      install missing Debian packages, build, run all tests
#   make sanitize   the whole test suite under ASan + UBSan + LeakSanitizer
#   make demo       report on a bundled trace with a bundled model
#   make install    PREFIX=/usr/local DESTDIR= (binary, models, man page, docs)
#   make bench      benchmarks (bench/README.md)

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/eatrace
MANDIR  ?= $(PREFIX)/share/man
DOCDIR  ?= $(PREFIX)/share/doc/eatrace
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
BUILD   ?= build
BIN     ?= eatrace

CC      ?= cc
PKGS    := libtracecmd libtraceevent libtracefs json-c zlib libzstd yaml-0.1 libxml-2.0 gsl
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null)

CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Wshadow -Wformat=2 -Wno-unused-parameter
# No install path is compiled in: models and docs are found relative to the
# binary or libeatrace.so.0 at run time (src/util/self-dir.c), so that
# `make` then `make install PREFIX=P` finds P's.
override CFLAGS += -std=c11 -D_GNU_SOURCE $(WARN) -Iinclude -Isrc $(PKG_CFLAGS) -MMD -MP
LDLIBS  += $(PKG_LIBS) -lfdt -lm

LIB_SRC := $(sort $(wildcard src/input/*.c src/model/*.c src/state/*.c \
	src/stats/*.c src/energy/*.c src/diff/*.c src/replay/*.c src/output/*.c \
	src/util/*.c src/record/*.c src/fit/*.c))
CLI_SRC := $(sort $(wildcard src/cli/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
LIB     := $(BUILD)/libeatrace.a

UNIT_SRC := $(sort $(wildcard tests/unit/test-*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
E2E      := $(sort $(filter-out tests/e2e/lib.sh,$(wildcard tests/e2e/*.sh)))
# Fuzz targets: see the 'fuzz' target below.
FUZZ_SRC     := $(sort $(wildcard tests/fuzz/fuzz-*.c))
FUZZ_TARGETS ?= $(FUZZ_SRC:tests/fuzz/fuzz-%.c=%)
FUZZ_REPLAY  := $(FUZZ_SRC:tests/fuzz/fuzz-%.c=$(BUILD)/fuzz/replay-%)
FUZZ_TIME    ?= 60
FUZZ_CC      ?= clang
FUZZ_CFLAGS  := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

.PHONY: all check deps test test-build sanitize sanitize-build demo install uninstall clean bench fuzz fuzz-seeds format

all: $(BIN)

$(BIN): $(CLI_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) $(BIN_LDFLAGS) -o $@ $(CLI_OBJ) $(LIB) $(LDLIBS)

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -Itests -o $@ $< $(LIB) $(LDLIBS) $(CMOCKA_LIBS)

# Installs the Debian packages the build and tests need, when missing.
deps:
	@sh .ci/deps.sh

# check and sanitize build on every CPU (JOBS=-j1 to keep to one);
# tests/run.sh runs the tests TEST_JOBS at a time (default: the CPU count).
NPROC := $(shell nproc 2>/dev/null || echo 1)
JOBS  ?= -j$(NPROC)

check: deps
	@$(MAKE) --no-print-directory $(JOBS) all
	@$(MAKE) --no-print-directory $(JOBS) test

# What the tests run: the binary, the unit tests, the fuzz corpus replayers.
test-build: $(UNIT_BIN) $(BIN) $(FUZZ_REPLAY)

# Unit tests (cmocka) and end-to-end scripts; one closing summary line. The
# corpus replay and html-browser.sh (which installs Chromium on a fresh
# machine: download and unpacking, beside the CPU-bound tests) go first,
# then the longest scripts (over 12 s of CPU in make check or make
# sanitize, as tests/run.sh printed them), so that no long test starts
# last with the other core idle; the unit tests next (two take 10 s of
# CPU under make sanitize).
FIRST := tests/fuzz/replay.sh tests/e2e/html-browser.sh \
	$(addprefix tests/e2e/,$(addsuffix .sh,dat-compressed lost-switchin \
	edges replay model-fit replay-bounds perfetto-proto readers-dat \
	dat-walk-hostile python perfetto-conformance diff batch-fds \
	diff-jobs replay-renumber report-windows hostile))
test: test-build
	@EATRACE=$(abspath $(BIN)) EA_BUILD=$(abspath $(BUILD)) FUZZ_BIN=$(abspath $(BUILD)/fuzz) bash tests/run.sh $(FIRST) $(UNIT_BIN) $(filter-out $(FIRST),$(E2E))

# The whole suite again under AddressSanitizer, UBSan and LeakSanitizer,
# in its own build directory so the normal build stays untouched. -g1:
# line tables only, all a sanitizer's report needs (file:line of each
# frame), 15% less compile time than -g. The eatrace binary links UBSan's
# runtime in (-static-libubsan): the tests start it thousands of times and
# each start and exit costs ~0.13 s of CPU, 12% more with the shared
# libubsan (its relocations, LeakSanitizer's scan of its 6 MB of data).
# (Not with -static-libasan too: UBSan's reports are then lost.) And it is
# not position-independent (-no-pie): ASan's instrumented globals give a
# PIE binary ~150k relative relocations to apply at each start; without
# them a start and exit costs 0.071 s of CPU instead of 0.088 (20 runs of
# --version, three rounds, leak detection on).
SAN_VARS := BUILD=build-san \
	CFLAGS="-O1 -g1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	LDFLAGS="-fsanitize=address,undefined" BIN=build-san/eatrace \
	BIN_LDFLAGS="-static-libubsan -no-pie"
sanitize: deps
	@LSAN_OPTIONS=suppressions=$(abspath tests/fuzz/lsan.supp):print_suppressions=0 \
	EA_SANITIZE=1 $(MAKE) --no-print-directory $(JOBS) $(SAN_VARS) test

# make sanitize's build alone (.ci/run runs it beside make check's tests).
sanitize-build: deps
	@$(MAKE) --no-print-directory $(JOBS) $(SAN_VARS) test-build

# Fuzz targets (docs/robustness.md). 'make test' replays every corpus
# and crash file through them built as plain programs (replay.c);
# 'make fuzz' builds them with clang's libFuzzer and runs each for
# FUZZ_TIME seconds (FUZZ_TARGETS="text dat" for a subset).
$(BUILD)/fuzz/replay-%: tests/fuzz/fuzz-%.c tests/fuzz/replay.c $(wildcard tests/fuzz/*.h) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -MMD -MP,$(CFLAGS)) $(LDFLAGS) -Itests/fuzz -o $@ $< tests/fuzz/replay.c $(LIB) $(LDLIBS)

$(BUILD)/fuzz/fuzz-%: tests/fuzz/fuzz-%.c $(wildcard tests/fuzz/*.h) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -MMD -MP,$(CFLAGS)) -fsanitize=fuzzer -Itests/fuzz -o $@ $< $(LIB) $(LDLIBS)

FUZZ_BUILD = @$(MAKE) --no-print-directory BUILD=build-fuzz CC=$(FUZZ_CC) \
		CFLAGS="$(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link" \
		$(FUZZ_TARGETS:%=build-fuzz/fuzz/fuzz-%)
fuzz: deps
	$(FUZZ_BUILD)
	@sh tests/fuzz/run.sh build-fuzz/fuzz $(FUZZ_TIME) $(FUZZ_TARGETS)

# The same builds over their committed corpora and crash files once, with
# the flags 'make fuzz' gives them, without fuzzing (tests/fuzz/seeds.sh):
# a few minutes, most of it the build; fails when a seed crashes one.
fuzz-seeds: deps
	$(FUZZ_BUILD)
	@sh tests/fuzz/seeds.sh build-fuzz/fuzz $(FUZZ_TARGETS)

# The energy of seven periodic tasks on ARM TC2 (a synthetic trace, see
# traces/README.md), priced with the bundled model from the 2014 RFC.
demo: deps
	@$(MAKE) --no-print-directory $(BIN)
	./$(BIN) report --per-task -m tc2 traces/demo/tc2-seven-tasks.txt

# Benchmarks (bench/README.md): as root, records its traces on this machine
# into bench/out/ (reused by later runs), then prints one `name: value`
# line per figure. About 2 to 5 minutes; not part of 'make check'.
bench: $(BIN)
	@EATRACE=$(abspath $(BIN)) sh bench/run.sh

# The docs the help points to (docs/*.md) go to DOCDIR, with the README;
# bash completion to COMPLETIONDIR (Debian's bash-completion layout).
install: $(BIN)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/models $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(DOCDIR) $(DESTDIR)$(COMPLETIONDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/eatrace
	install -m 644 models/*.json models/README.md models/LICENSE.Apache-2.0 $(DESTDIR)$(DATADIR)/models/
	install -m 644 docs/eatrace.1 $(DESTDIR)$(MANDIR)/man1/eatrace.1
	install -m 644 README.md docs/*.md $(DESTDIR)$(DOCDIR)/
	install -m 644 contrib/eatrace.bash $(DESTDIR)$(COMPLETIONDIR)/eatrace

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/eatrace $(DESTDIR)$(MANDIR)/man1/eatrace.1
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(DOCDIR)
	rm -f $(DESTDIR)$(COMPLETIONDIR)/eatrace

format:
	clang-format -i $(LIB_SRC) $(CLI_SRC) include/eatrace/*.h src/*/*.h

clean:
	rm -rf build build-san eatrace

# ---- libeatrace as a shared library, with a pkg-config file (issue 20) ----
# build/libeatrace.so.0 (soname libeatrace.so.0) from the same objects as
# libeatrace.a: every object is built with -fPIC; the stamp file rebuilds
# objects compiled before that. `make install` adds the library, the
# headers (include/eatrace/) and eatrace.pc under LIBDIR, INCLUDEDIR, PCDIR,
# and the Python package (python/eatrace, ctypes over the library) in PYDIR:
# PYTHON's own site directory for PREFIX, its purelib relative to its data
# prefix (Debian: /usr/local -> /usr/local/lib/python3.11/dist-packages, on
# its path; another PREFIX P -> P/lib/python3.11/dist-packages, for
# PYTHONPATH). The package loads the library installed with it (the path
# from PYDIR to LIBDIR is written in eatrace/_installed.py). Installed to
# the system (no DESTDIR, root, LIBDIR on the loader's path), ldconfig runs
# (contrib/post-install.sh). Models and docs are found beside the binary and
# the library at run time: keep DATADIR and DOCDIR under PREFIX/share.
VERSION    ?= 0.1
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PCDIR      ?= $(LIBDIR)/pkgconfig
PYTHON     ?= /usr/bin/python3
PYREL       = $(shell $(PYTHON) -c 'import os, sysconfig; print(os.path.relpath(sysconfig.get_path("purelib"), sysconfig.get_path("data")))' 2>/dev/null)
PYDIR      ?= $(PREFIX)/$(or $(PYREL),lib/python3/dist-packages)
SONAME     := libeatrace.so.0
SHLIB      := $(BUILD)/$(SONAME)
override CFLAGS += -fPIC

.PHONY: install-lib uninstall-lib
all: $(SHLIB) $(BUILD)/libeatrace.so
test: $(SHLIB)
install: install-lib
uninstall: uninstall-lib

$(LIB_OBJ) $(CLI_OBJ): $(BUILD)/.fpic
$(BUILD)/.fpic:
	@mkdir -p $(dir $@) && touch $@

$(SHLIB): $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -o $@ $(LIB_OBJ) $(LDLIBS)

$(BUILD)/libeatrace.so: $(SHLIB)
	ln -sf $(SONAME) $@

install-lib: $(SHLIB)
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/eatrace $(DESTDIR)$(PCDIR)
	install -m 755 $(SHLIB) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libeatrace.so
	install -m 644 include/eatrace/*.h $(DESTDIR)$(INCLUDEDIR)/eatrace/
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' \
		'Name: eatrace' \
		'Description: CPU energy of Linux scheduling from trace recordings' \
		'Version: $(VERSION)' 'Requires.private: $(PKGS)' \
		'Libs: -L$${libdir} -leatrace' 'Cflags: -I$${includedir}' \
		> $(DESTDIR)$(PCDIR)/eatrace.pc
	install -d $(DESTDIR)$(PYDIR)/eatrace
	install -m 644 python/eatrace/*.py $(DESTDIR)$(PYDIR)/eatrace/
	printf '%s\n' '# Written by make install: libeatrace.so.0 as installed with this' \
		'# package, relative to its directory.' \
		"LIB = \"$$(realpath -m --relative-to=$(PYDIR)/eatrace $(LIBDIR)/$(SONAME))\"" \
		> $(DESTDIR)$(PYDIR)/eatrace/_installed.py
	@DESTDIR="$(DESTDIR)" sh contrib/post-install.sh $(LIBDIR) $(PYDIR) $(PYTHON)

uninstall-lib:
	rm -f $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libeatrace.so \
		$(DESTDIR)$(PCDIR)/eatrace.pc
	rm -rf $(DESTDIR)$(INCLUDEDIR)/eatrace $(DESTDIR)$(PYDIR)/eatrace
# ---- end of libeatrace shared library ----

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)
