# Criterion suites: every tests/*.c is linked into one binary (Criterion
# registers tests across translation units), built twice: plain and under
# ASan+UBSan.
#
# Two batteries, each run by tools/run-parts.sh as a list of named parts
# (a make target each), every part's output in $(BUILD)/logs/<part>.log,
# and one summary at the end: each part, its test count, passed or
# FAILED, its time, then the total; the exit status is non-zero when a
# part failed. Both first install the missing packages (test-deps:
# TEST_DEPS; check-deps adds CHECK_DEPS), then build what they run in one
# parallel build (-j$(TEST_JOBS)).
#
#   make test    the quick one (about 5 minutes on the 2-core VM from
#                scratch): the main suites with gcc -O2 and under
#                ASan+UBSan, the skiplist_rcu.h suites (memb flavor) and
#                its stress under ThreadSanitizer, and the guides.
#   make check   everything (about 13 minutes; CI runs it): the above,
#                the header checks, every liburcu flavor, the rcu suites
#                under ASan+UBSan, the planted faults, the compiler and
#                optimiser matrix, valgrind (mk/check.mk), the docs, the
#                errors table, the install test, the soak's self-test.
#
# TEST_PARTS and CHECK_PARTS list the parts as NAME=TARGET; the mk/*.mk
# files add theirs (see the Makefile). A single part runs alone as its
# target: make test-main-asan, make check-valgrind, ...
#
# The header portability checks build and run tests/cxx_compile.cc (every
# face instantiated) as C++17 with g++ and clang++ and as C99 and C11 with
# gcc and clang, all with -Werror (make check).
#
# Replay a random suite: SEED=<n> ./build/tests/skiplist-tests --filter
# 'map_random/<test>'; soak: TEST_SCALE=<k> make test.
#
# skiplist_rcu.h has suites of its own (tests/rcu/, their own binaries,
# since they link liburcu): see "skiplist_rcu.h" below.
TEST_SRC  := $(sort $(wildcard tests/*.c))
TEST_BIN  := $(BUILD)/tests/skiplist-tests
TEST_ASAN := $(BUILD)/tests/skiplist-tests-asan

# The compile-fail suite runs this compiler on tests/compile_fail/*.c.
TEST_DEFS := -DSKIPLIST_TEST_CC='"$(CC)"' -DSKIPLIST_TEST_ROOT='"$(CURDIR)"'

# Compilers for the portability matrix. A missing one is reported and
# skipped, never silently: CI (.ci/run) installs clang.
HDR_GCC     ?= gcc
HDR_GXX     ?= g++
HDR_CLANG   ?= clang
HDR_CLANGXX ?= clang++
HDR_DIR     := $(BUILD)/tests/hdr
HDR_SRC     := tests/cxx_compile.cc
HDR_CHECKS  := $(HDR_DIR)/gxx-c++17 $(HDR_DIR)/clangxx-c++17 \
               $(HDR_DIR)/gcc-c99 $(HDR_DIR)/gcc-c11 \
               $(HDR_DIR)/clang-c99 $(HDR_DIR)/clang-c11
have = $(shell command -v $(1) >/dev/null 2>&1 && echo yes)

test-deps:
	@tools/install-deps.sh $(TEST_DEPS)

check-deps:
	@tools/install-deps.sh $(TEST_DEPS) $(CHECK_DEPS)

# One object per source so the two builds and the sources compile in
# parallel (the instantiations are heavy: every hot path is specialised).
TEST_OBJ      := $(TEST_SRC:tests/%.c=$(BUILD)/tests/obj/%.o)
# The suites that only run the compiler on programs of their own (the
# compile-fail and planted-fault suites, whose checks happen in the
# programs they build) are not in the ASan+UBSan binary: there they would
# only run the same compilers a second time.
TEST_SRC_ASAN := $(filter-out %compile_fail.c %planted.c,$(TEST_SRC))
TEST_OBJ_ASAN := $(TEST_SRC_ASAN:tests/%.c=$(BUILD)/tests/obj-asan/%.o)
TEST_JOBS     ?= $(shell nproc 2>/dev/null || echo 2)

# Debug information of the suites' objects: line tables only (-g1), the
# file and line of every frame in a backtrace or a sanitizer's report, at
# about three quarters of the compile time of -g (whose tracking of
# variables is the dear part). For a debugger's view of locals and
# types: make TEST_G=-g.
TEST_G ?= -g1

# The ASan+UBSan builds (the main suites', the rcu suites', the guides'),
# the dearest step of `make test`, are at -Og, and ASan's checks are
# calls into its runtime instead of inline code (SAN_CALLS; gcc spells
# it --param, clang -mllvm): together about a quarter of the compile time
# of -O2 -g, the same checks; the suites run about a fifth slower than
# at -O1 inline, less than the compile time saved. The main one links
# without PIE: the binary's 880,000 relative relocations (the
# sanitizers' descriptors) are then resolved once, at link time, not in
# each of the runner's per-test processes. TEST_SAN_QUICK holds what makes
# these builds quick: UBSan's pointer-overflow check is left out (it is
# 40% of the ASan+UBSan compile time, and make check's clang -O0 cell,
# mk/check.mk, runs every suite with it), and SKIPLIST_NO_FORCE_INLINE
# (skiplist.h) is defined:
# the hot paths are left to the compiler instead of forced inline into
# every instantiation, which halves what is left of their compile time;
# the gcc -O2 build and make check's clang builds keep them as users get
# them.
SAN_CALLS := $(if $(findstring clang,$(shell $(CC) --version 2>/dev/null)),-mllvm -,--param=)asan-instrumentation-with-call-threshold=0
TEST_SAN_OPT = -Og $(TEST_G) $(SAN_CALLS)
TEST_SAN_QUICK := -fno-sanitize=pointer-overflow -DSKIPLIST_NO_FORCE_INLINE

$(BUILD)/tests/obj/%.o: tests/%.c $(wildcard tests/*.h) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_T) $(TEST_G) $(TEST_DEFS) -c -o $@ $<

$(BUILD)/tests/obj-asan/%.o: tests/%.c $(wildcard tests/*.h) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_T) $(SAN) $(TEST_SAN_OPT) $(TEST_SAN_QUICK) $(TEST_DEFS) -c -o $@ $<

# The AVX2 build of the remove's pointer scan (tests/test_engine_find_ptr_avx2.c).
ifeq ($(shell uname -m),x86_64)
$(BUILD)/tests/obj/test_engine_find_ptr_avx2.o $(BUILD)/tests/obj-asan/test_engine_find_ptr_avx2.o: CFLAGS_T += -mavx2
endif

$(TEST_BIN): $(TEST_OBJ)
	$(CC) $(CFLAGS_T) -o $@ $(TEST_OBJ) -lcriterion -lm

$(TEST_ASAN): $(TEST_OBJ_ASAN)
	$(CC) $(CFLAGS_T) $(SAN) $(TEST_SAN_OPT) $(TEST_SAN_QUICK) -no-pie -o $@ $(TEST_OBJ_ASAN) -lcriterion -lm

# $(1): target, $(2): compiler, $(3): flags. Builds, or says why not.
define hdr_rule
$(HDR_DIR)/$(1): $(HDR_SRC) $(HEADERS)
	@mkdir -p $$(dir $$@)
	@if [ -z "$$(call have,$(2))" ]; then \
	    echo "header check $(1): SKIPPED, $(2) not found"; \
	    printf '#!/bin/sh\necho "header check $(1): skipped ($(2) not found)"\n' > $$@; \
	    chmod +x $$@; \
	else \
	    echo "$(2) $(3) $(HDR_SRC)"; \
	    $(2) $(3) -O2 -I. -o $$@ $(HDR_SRC); \
	fi
endef
$(eval $(call hdr_rule,gxx-c++17,$(HDR_GXX),-std=c++17 $(CXXWARN)))
$(eval $(call hdr_rule,clangxx-c++17,$(HDR_CLANGXX),-std=c++17 $(CXXWARN)))
$(eval $(call hdr_rule,gcc-c99,$(HDR_GCC),-x c -std=c99 $(WARN)))
$(eval $(call hdr_rule,gcc-c11,$(HDR_GCC),-x c -std=c11 $(WARN)))
$(eval $(call hdr_rule,clang-c99,$(HDR_CLANG),-x c -std=c99 $(WARN)))
$(eval $(call hdr_rule,clang-c11,$(HDR_CLANG),-x c -std=c11 $(WARN)))

test-headers: $(HDR_CHECKS)
	@for h in $(HDR_CHECKS); do \
	    $$h && echo "ok: header check $${h##*/}" || \
	        { echo "FAILED: $$h"; exit 1; }; \
	done

test-main: $(TEST_BIN)
	$(TEST_BIN)

# LeakSanitizer: a test worker's exit-time leak report never fails its
# test (Criterion ignores it), so suites check explicitly with
# tc_no_leaks() (test_common.h, __lsan_do_recoverable_leak_check, which
# works whatever these options say). The exit-time check is off
# (leak_check_at_exit=0): in a worker it only costs a scan of the heap,
# per test; in the runner it can only find Criterion's own leaks (2.4.1
# leaks 48 bytes per test with a .timeout). Asked for anyway
# (ASAN_OPTIONS=leak_check_at_exit=1 make ...), its report does not set
# the exit status (exitcode=0).
# abort_on_error: see SAN_ENV in the Makefile.
TEST_ASAN_ENV := ASAN_OPTIONS="abort_on_error=1:leak_check_at_exit=0:$$ASAN_OPTIONS" \
                 UBSAN_OPTIONS="abort_on_error=1:print_stacktrace=1:$$UBSAN_OPTIONS" \
                 LSAN_OPTIONS="exitcode=0:$$LSAN_OPTIONS"

test-main-asan: $(TEST_ASAN)
	$(TEST_ASAN_ENV) $(TEST_ASAN)

# The harness's own check: a planted ASan and a planted UBSan error, run
# as the suites above run, must fail their tests (tests/selftest/).
SAN_SELFTEST := $(BUILD)/tests/san-selftest
$(SAN_SELFTEST): tests/selftest/san_report.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -g $(SAN) -o $@ $< -lcriterion

test-san-selftest: $(SAN_SELFTEST)
	@$(TEST_ASAN_ENV) tests/selftest/san.sh $(SAN_SELFTEST)


.PHONY: test-headers test-main test-main-asan test-san-selftest

# ------------------------------------------------------------ the batteries
# What each builds (one parallel build) and runs (its parts, in order).
# The mk/*.mk files add to these; the rcu parts are defined below.
TEST_BUILD  := $(TEST_BIN) $(TEST_ASAN)
CHECK_BUILD_ALL := $(HDR_CHECKS)
TEST_PARTS  := main-gcc-O2=test-main main-asan=test-main-asan
CHECK_PARTS_FIRST := headers=test-headers
CHECK_PARTS := san-selftest=test-san-selftest
CHECK_BUILD_ALL += $(SAN_SELFTEST)
RUN_PARTS    = MAKE="$(MAKE)" PARTS_LOG=$(BUILD)/logs PARTS_JOBS=$(TEST_JOBS) \
               tools/run-parts.sh

test:
	@$(RUN_PARTS) "make test" deps=test-deps build=test-build $(TEST_PARTS)

check:
	@$(RUN_PARTS) "make check" deps=check-deps build=check-build \
	    $(CHECK_PARTS_FIRST) $(TEST_PARTS) $(CHECK_PARTS)

# What CI runs after make test (.ci/run): the parts of make check that
# build little and take seconds. Each part builds what it runs.
CHECK_QUICK_PARTS := headers=test-headers rcu-headers=test-rcu-headers \
                     docs=docs-check bench-headline=test-bench-headline \
                     errors-table=test-errors-table \
                     tests-readme=test-tests-readme
check-quick:
	@$(RUN_PARTS) "make check-quick" deps=check-deps $(CHECK_QUICK_PARTS)

test-build:
	$(MAKE) --no-print-directory -j$(TEST_JOBS) $(TEST_BUILD)

check-build:
	$(MAKE) --no-print-directory -j$(TEST_JOBS) $(TEST_BUILD) $(CHECK_BUILD_ALL)

.PHONY: test check check-quick test-build check-build test-deps check-deps

# ----------------------------------------------------------- skiplist_rcu.h
# tests/rcu/: the concurrent header's suites, each binary linking liburcu
# (tests/rcu/README.md: what each file tests, how the builds combine them).
#   test_rcu_diff.c    one thread, both faces against the models of
#                      tests/model_*.h, and every documented misuse
#   test_rcu_bad.c, test_rcu_check.c, test_rcu_paths.c, test_rcu_walks.c,
#   test_rcu_linkage.c (+ _gen.c): bad input, check()'s diagnoses, rare
#                      paths, walks under writers, the split form
#   test_rcu_alloc.c   the allocation-failure sweep (memb and ASan builds)
#   test_rcu_stress.c  writers and readers at once (tests/rcu/stress.h)
#   stress.c           the stress itself: linked into every binary above
#                      and below that includes stress.h, compiled with its
#                      flags (flavor, sanitizer, planted fault)
#   stress_main.c      the same stress as a plain program: the TSan build
#   test_rcu_planted.c builds stress_main.c with each planted fault (and
#                      without: the controls) plain, under ASan and under
#                      TSan, and checks that the run fails
#   hdr_compile.cc     the header as C99/C11/C++17 with gcc and clang
# The suites (all but alloc and planted) are built once per liburcu flavor
# (memb, mb, qsbr, bp: one -D switch and one library each), and with alloc
# under ASan+UBSan (memb, at $(TEST_SAN_OPT) as the main suites' ASan build).
#   make test-rcu        build and run only these (all of them: make test
#                        runs the memb flavor and the TSan stress, make
#                        check all)
#   make test-rcu-soak   the same with TEST_SCALE=$(RCU_SOAK_SCALE) (default 10)
# Replay: SEED=<n> build/tests/rcu/rcu-tests-memb --filter 'rcu_diff/<t>'.
RCU_DIR     := $(BUILD)/tests/rcu
RCU_FLAVORS := memb mb qsbr bp
# Every tests/rcu/test_rcu_*.c joins the per-flavor binaries but the
# allocation-failure sweep (memb and ASan builds only, below) and the
# planted faults (a binary of its own).
RCU_SUITES  := $(filter-out test_rcu_alloc test_rcu_planted,\
                   $(patsubst tests/rcu/%.c,%,$(sort $(wildcard tests/rcu/test_rcu_*.c))))
RCU_SOAK_SCALE ?= 10
RCU_TSAN_ROUNDS ?= 6
TEST_DEPS   += liburcu-dev

RCU_DEF_memb :=
RCU_DEF_mb   := -DSKIPLIST_RCU_MB
RCU_DEF_qsbr := -DSKIPLIST_RCU_QSBR
RCU_DEF_bp   := -DSKIPLIST_RCU_BP
RCU_LIB_memb := -lurcu
RCU_LIB_mb   := -lurcu-mb
RCU_LIB_qsbr := -lurcu-qsbr
RCU_LIB_bp   := -lurcu-bp
rcu_libs = $(RCU_LIB_$(1)) -lurcu-common -pthread

RCU_DEPS := $(wildcard tests/rcu/*.h) tests/test_common.h \
            tests/model_map.h tests/model_extent.h tests/model_rank.h \
            $(HEADERS)
RCU_BINS := $(RCU_FLAVORS:%=$(RCU_DIR)/rcu-tests-%) \
            $(RCU_DIR)/rcu-tests-asan $(RCU_DIR)/rcu-stress-tsan \
            $(RCU_DIR)/rcu-planted

# $(1): build name, $(2): extra flags, $(3): flavor, $(4): suites.
define rcu_build
$(RCU_DIR)/obj-$(1)/%.o: tests/rcu/%.c $(RCU_DEPS)
	@mkdir -p $$(dir $$@)
	$(CC) $(CFLAGS_T) $(TEST_G) $(2) $(RCU_DEF_$(3)) -c -o $$@ $$<

$(RCU_DIR)/rcu-tests-$(1): $(4:%=$(RCU_DIR)/obj-$(1)/%.o) $(RCU_DIR)/obj-$(1)/stress.o
	$(CC) $(CFLAGS_T) $(2) -o $$@ $$^ -lcriterion $(call rcu_libs,$(3))
endef
$(eval $(call rcu_build,memb,,memb,$(RCU_SUITES) test_rcu_alloc))
$(foreach f,mb qsbr bp,$(eval $(call rcu_build,$(f),,$(f),$(RCU_SUITES))))
$(eval $(call rcu_build,asan,$(SAN) $(TEST_SAN_OPT),memb,$(RCU_SUITES) test_rcu_alloc))

$(RCU_DIR)/rcu-stress-tsan: tests/rcu/stress_main.c tests/rcu/stress.c $(RCU_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_T) -O1 -fsanitize=thread -o $@ $(filter %.c,$^) \
	    $(call rcu_libs,memb)

$(RCU_DIR)/rcu-planted: tests/rcu/test_rcu_planted.c tests/test_build.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_T) $(TEST_DEFS) -o $@ $< -lcriterion

# Header checks: $(1) target, $(2) compiler, $(3) flags, $(4) flavor.
RCU_HDR_SRC := tests/rcu/hdr_compile.cc
define rcu_hdr_rule
$(RCU_DIR)/hdr/$(1): $(RCU_HDR_SRC) $(HEADERS)
	@mkdir -p $$(dir $$@)
	@if [ -z "$$(call have,$(2))" ]; then \
	    echo "rcu header check $(1): SKIPPED, $(2) not found"; \
	    printf '#!/bin/sh\necho "rcu header check $(1): skipped ($(2) not found)"\n' > $$@; \
	    chmod +x $$@; \
	else \
	    echo "$(2) $(3) $(RCU_DEF_$(4)) $(RCU_HDR_SRC)"; \
	    $(2) $(3) $(RCU_DEF_$(4)) -O2 -I. -o $$@ $(RCU_HDR_SRC) \
	        $(call rcu_libs,$(4)); \
	fi
endef
RCU_HDR_CHECKS := $(addprefix $(RCU_DIR)/hdr/memb-,gxx-c++17 clangxx-c++17 \
                  gcc-c99 gcc-c11 clang-c99 clang-c11) \
                  $(RCU_DIR)/hdr/mb-gxx-c++17 $(RCU_DIR)/hdr/qsbr-gxx-c++17 \
                  $(RCU_DIR)/hdr/bp-gxx-c++17
$(foreach f,$(RCU_FLAVORS),\
    $(eval $(call rcu_hdr_rule,$(f)-gxx-c++17,$(HDR_GXX),-std=c++17 $(CXXWARN),$(f))))
$(eval $(call rcu_hdr_rule,memb-clangxx-c++17,$(HDR_CLANGXX),-std=c++17 $(CXXWARN),memb))
$(eval $(call rcu_hdr_rule,memb-gcc-c99,$(HDR_GCC),-x c -std=c99 $(WARN),memb))
$(eval $(call rcu_hdr_rule,memb-gcc-c11,$(HDR_GCC),-x c -std=c11 $(WARN),memb))
$(eval $(call rcu_hdr_rule,memb-clang-c99,$(HDR_CLANG),-x c -std=c99 $(WARN),memb))
$(eval $(call rcu_hdr_rule,memb-clang-c11,$(HDR_CLANG),-x c -std=c11 $(WARN),memb))

# Runs what the rules above built, one target a part. liburcu is not
# built with TSan: its own hand-offs are suppressed (tests/rcu/tsan.supp),
# nothing else. The LSan exit-time report is informational, as for
# skiplist.h's ASan run: the suites count their allocator's blocks
# themselves.
RCU_TSAN_ENV := TSAN_OPTIONS="halt_on_error=1 \
                suppressions=$(CURDIR)/tests/rcu/tsan.supp $$TSAN_OPTIONS"

test-rcu-headers: $(RCU_HDR_CHECKS)
	@for h in $(RCU_HDR_CHECKS); do \
	    $$h && echo "ok: rcu header check $${h##*/}" || \
	        { echo "FAILED: $$h"; exit 1; }; \
	done

$(RCU_FLAVORS:%=test-rcu-%): test-rcu-%: $(RCU_DIR)/rcu-tests-%
	@echo "==== skiplist_rcu.h suites, liburcu flavor $*"
	$(RCU_DIR)/rcu-tests-$*

test-rcu-asan: $(RCU_DIR)/rcu-tests-asan
	@echo "==== skiplist_rcu.h suites under ASan+UBSan"
	$(TEST_ASAN_ENV) $(RCU_DIR)/rcu-tests-asan

# The stress program: RCU_TSAN_ROUNDS rounds with skiplist_rcu.h's own
# allocator, 2 with liburcu's (library).
test-rcu-tsan: $(RCU_DIR)/rcu-stress-tsan
	@echo "==== skiplist_rcu.h stress under ThreadSanitizer"
	$(RCU_TSAN_ENV) $(RCU_DIR)/rcu-stress-tsan $(RCU_TSAN_ROUNDS)
	@echo "ok: stress, $(RCU_TSAN_ROUNDS) rounds, gcc TSan"
	$(RCU_TSAN_ENV) $(RCU_DIR)/rcu-stress-tsan 2 library
	@echo "ok: stress, 2 rounds (library allocator), gcc TSan"

test-rcu-planted: $(RCU_DIR)/rcu-planted
	@echo "==== skiplist_rcu.h planted faults"
	$(RCU_DIR)/rcu-planted

# make test runs the memb flavor and the TSan stress; make check all.
TEST_BUILD  += $(RCU_DIR)/rcu-tests-memb $(RCU_DIR)/rcu-stress-tsan
CHECK_BUILD_ALL += $(RCU_HDR_CHECKS) $(RCU_BINS)
TEST_PARTS  += rcu-memb=test-rcu-memb rcu-tsan=test-rcu-tsan
CHECK_PARTS_FIRST += rcu-headers=test-rcu-headers
CHECK_PARTS += rcu-mb=test-rcu-mb rcu-qsbr=test-rcu-qsbr rcu-bp=test-rcu-bp \
               rcu-asan=test-rcu-asan rcu-planted=test-rcu-planted
RCU_PARTS   := rcu-headers=test-rcu-headers \
               $(foreach f,$(RCU_FLAVORS),rcu-$(f)=test-rcu-$(f)) rcu-asan=test-rcu-asan \
               rcu-tsan=test-rcu-tsan rcu-planted=test-rcu-planted

test-rcu-run:
	@$(MAKE) --no-print-directory $(foreach p,$(RCU_PARTS),$(lastword $(subst =, ,$(p))))

rcu-build:
	$(MAKE) --no-print-directory -j$(TEST_JOBS) $(RCU_HDR_CHECKS) $(RCU_BINS)

test-rcu:
	@$(RUN_PARTS) "make test-rcu" deps=test-deps build=rcu-build $(RCU_PARTS)

test-rcu-soak:
	TEST_SCALE=$(RCU_SOAK_SCALE) $(MAKE) --no-print-directory test-rcu

.PHONY: test-rcu test-rcu-run test-rcu-soak test-rcu-headers rcu-build \
        $(RCU_FLAVORS:%=test-rcu-%) test-rcu-asan test-rcu-tsan test-rcu-planted
