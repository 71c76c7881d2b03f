# ------------------------------------------------------------ check matrix
# The compiler, optimiser and tool matrix that `make check` runs on top of
# tests.mk's own builds (docs/testing.md lists every part of `make test`
# and `make check` and what each takes on the 2-core VM). tests.mk builds
# the main Criterion binary with $(CC) -O2, plain and under ASan+UBSan, the
# skiplist_rcu.h suites per liburcu flavor and under ASan+UBSan, and the
# rcu stress program under ThreadSanitizer, all with $(CC) (gcc). This
# adds:
#
#   clang -O2   the main Criterion binary; the rcu suites (memb flavor);
#               the rcu stress program under clang's ThreadSanitizer, and
#               the planted-fault suite's TSan tests built with clang (the
#               proof that clang's TSan sees a planted race)
#   clang -O0   the main Criterion binary, with UBSan's pointer-overflow
#               check (the one check make test's ASan+UBSan build leaves
#               out, for its compile time); no -g: built to run, not to
#               debug. gcc -O0 is no longer a cell: it compiles slower
#               than gcc -O2 (the always-inline hot paths), and `make
#               check` has to fit CI's 30 minutes; clang -O0 keeps an
#               unoptimised build in the battery
#   valgrind    memcheck over every example `make demo` runs: any error, or
#               a leak that is definite, indirect or possible, fails; two
#               planted programs (a leak, a read past a block) must fail
#
# The concurrent Criterion suite (tests/rcu/test_rcu_stress.c) cannot run
# under ThreadSanitizer: Criterion 2.4's runner (BoxFort) maps its shared
# arena at a random fixed address between 0x2000_0000_0000 and
# 0x6000_0000_0000, which TSan reserves for its shadow on x86-64, so the
# runner aborts before any test ("Could not initialize inheritable arena",
# Criterion issue #274) with gcc and clang alike. The same stress code
# (tests/rcu/stress.c) runs under TSan through tests/rcu/stress_main.c
# instead: tests.mk's gcc build and the clang build here.
#
#   make check-matrix   builds and runs only these (make check runs them
#                       too), with tools/run-parts.sh's summary
#
# The variant builds reuse tests.mk's rules through a recursive make with
# another BUILD and CC, and CHECK_OPT for the optimisation level (it
# replaces -O2 -g in CFLAGS_T, below). Each variant runs the full suite at
# the same TEST_SCALE as the plain build.
CHECK_GCC   ?= gcc
CHECK_CLANG ?= clang
CHECK_DIR   := $(BUILD)/check
VALGRIND    ?= valgrind
CHECK_DEPS  += valgrind

# Set only by the recursive makes below: the optimisation level of the
# main Criterion binary's objects (their recipes read CFLAGS_T when they
# run, so this reaches them; tests.mk's rcu rules expanded CFLAGS_T when
# they were defined, so the rcu builds keep -O2).
ifneq ($(CHECK_OPT),)
CFLAGS_T := $(filter-out -O% -g,$(CFLAGS_T)) $(CHECK_OPT)
TEST_G   :=
endif

# $(1): variant, $(2): compiler, $(3): CHECK_OPT, $(4): what to build, as
# paths under the variant's BUILD. The sub-make shares the jobserver.
define check_variant
check-build-$(1):
	+$$(MAKE) --no-print-directory BUILD=$(CHECK_DIR)/$(1) CC=$(2) \
	    $(if $(3),CHECK_OPT='$(3)') $(4:%=$(CHECK_DIR)/$(1)/%)
.PHONY: check-build-$(1)
endef
$(eval $(call check_variant,clang-O2,$(CHECK_CLANG),,tests/skiplist-tests \
    tests/rcu/rcu-tests-memb tests/rcu/rcu-stress-tsan tests/rcu/rcu-planted))
CHECK_O0_UBSAN := -O0 -fsanitize=pointer-overflow -fno-sanitize-recover=all
$(eval $(call check_variant,clang-O0,$(CHECK_CLANG),$(CHECK_O0_UBSAN),tests/skiplist-tests))

CHECK_BUILD := check-build-clang-O2 check-build-clang-O0 $(EXAMPLES)
CHECK_MAIN  := check-main-clang-O2 check-main-clang-O0
CHECK_RUN   := $(CHECK_MAIN) check-rcu-clang check-tsan-clang check-valgrind

# The suites that build programs (compile-fail, planted faults) take the
# compiler from $CC: set it to the variant's, whatever the caller's is.
$(CHECK_MAIN): check-main-%: check-build-%
	@echo "==== matrix: main suites built with $(subst -, ,$*)"
	CC=$(CHECK_$(call check_cc,$*)) $(SAN_ENV) \
	    $(CHECK_DIR)/$*/tests/skiplist-tests
check_cc = $(if $(filter clang-%,$(1)),CLANG,GCC)

check-rcu-clang: check-build-clang-O2
	@echo "==== matrix: skiplist_rcu.h suites built with $(CHECK_CLANG) -O2 (memb)"
	CC=$(CHECK_CLANG) $(CHECK_DIR)/clang-O2/tests/rcu/rcu-tests-memb

# tests.mk's TSan runs, with clang's ThreadSanitizer; then the planted
# suite's TSan tests (a control and two planted races, which must be
# reported) built with clang.
check-tsan-clang: check-build-clang-O2
	@echo "==== matrix: skiplist_rcu.h stress under $(CHECK_CLANG)'s ThreadSanitizer"
	$(RCU_TSAN_ENV) $(CHECK_DIR)/clang-O2/tests/rcu/rcu-stress-tsan $(RCU_TSAN_ROUNDS)
	@echo "ok: stress, $(RCU_TSAN_ROUNDS) rounds, $(CHECK_CLANG) TSan"
	$(RCU_TSAN_ENV) $(CHECK_DIR)/clang-O2/tests/rcu/rcu-stress-tsan 2 library
	@echo "ok: stress, 2 rounds (library allocator), $(CHECK_CLANG) TSan"
	CC=$(CHECK_CLANG) $(CHECK_DIR)/clang-O2/tests/rcu/rcu-planted \
	    --filter 'rcu_planted/*_tsan'

# Every example of `make demo` under memcheck, two at a time (valgrind runs
# a program on one core), each one's output in a log beside it: a line per
# example with valgrind's error summary, and on failure the log's tail.
# tests/valgrind/liburcu.supp holds the one suppression (liburcu's
# call_rcu thread, which outlives main). First two planted programs, each
# of which must fail: the options do turn a leak and an invalid read into
# a failing exit status. To find where an uninitialised value came from,
# rerun one example with --track-origins=yes (it doubles the time).
CHECK_VG_OPTS := --error-exitcode=1 --leak-check=full \
                 --show-leak-kinds=definite,indirect,possible \
                 --errors-for-leak-kinds=definite,indirect,possible \
                 --suppressions=$(CURDIR)/tests/valgrind/liburcu.supp
CHECK_VG_LEAK := static void *volatile p; int main(void) { p = malloc(16); p = 0; return 0; }
CHECK_VG_READ := int main(void) { int *volatile a = malloc(4 * sizeof *a); a[0] = 1; int r = a[4]; free(a); return r == 7; }
CHECK_VG      := $(DEMO_RUN:%=check-vg-%)

check-valgrind: check-vg-planted
	@$(MAKE) --no-print-directory -O -j$(TEST_JOBS) $(CHECK_VG)

check-vg-planted:
	@echo "==== matrix: valgrind memcheck over the examples"
	@mkdir -p $(CHECK_DIR)/valgrind
	@for t in LEAK READ; do \
	    b=$(CHECK_DIR)/valgrind/planted-$$t; \
	    case $$t in LEAK) src='$(CHECK_VG_LEAK)';; READ) src='$(CHECK_VG_READ)';; esac; \
	    printf '#include <stdlib.h>\n%s\n' "$$src" \
	        | $(CC) -x c -O0 -g -o $$b - || exit 1; \
	    if $(VALGRIND) $(CHECK_VG_OPTS) $$b >$$b.log 2>&1; then \
	        echo "FAILED: valgrind passed the planted $$t (log: $$b.log)"; exit 1; \
	    fi; \
	    echo "ok: valgrind planted $$t: fails as it must ($$(grep -o 'ERROR SUMMARY: [0-9]* errors' $$b.log))"; \
	done

$(CHECK_VG): check-vg-%: $(BUILD)/examples/%
	@log=$(BUILD)/examples/$*.valgrind.log; \
	if $(VALGRIND) $(CHECK_VG_OPTS) ./$(BUILD)/examples/$* >$$log 2>&1; then \
	    echo "ok: valgrind $*: $$(grep -o 'ERROR SUMMARY: [0-9]* errors' $$log)"; \
	else \
	    tail -n 40 $$log; echo "FAILED: valgrind $* (log: $$log)"; exit 1; \
	fi

# The concurrent Criterion suite itself under TSan (gcc's, as tests.mk's
# stress program): Criterion's runner cannot start under TSan, so this
# build takes tests/rcu/tsan/criterion/criterion.h, a stand-in runner that
# forks per test (its comment says why and what it implements). It runs
# every shape of tests/rcu/test_rcu_stress.c (default nodes, KPN 2 with a
# one-level index), which the stress program does not.
CHECK_TSAN_SUITE := $(RCU_DIR)/rcu-stress-suite-tsan
$(CHECK_TSAN_SUITE): tests/rcu/test_rcu_stress.c tests/rcu/stress.c \
                     tests/rcu/tsan/criterion/criterion.h $(RCU_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_T) -O1 -fsanitize=thread -Itests/rcu/tsan -o $@ \
	    $(filter %.c,$^) $(call rcu_libs,memb)

check-tsan-suites: $(CHECK_TSAN_SUITE)
	@echo "==== skiplist_rcu.h stress suite under ThreadSanitizer (every shape)"
	$(RCU_TSAN_ENV) $(CHECK_TSAN_SUITE)

CHECK_BUILD += $(CHECK_TSAN_SUITE)
CHECK_RUN   += check-tsan-suites

# The parts, as tools/run-parts.sh names them in the summary.
CHECK_MATRIX_PARTS := main-clang-O2=check-main-clang-O2 \
                      main-clang-O0=check-main-clang-O0 \
                      rcu-clang-O2=check-rcu-clang \
                      rcu-tsan-clang=check-tsan-clang \
                      rcu-tsan-suite=check-tsan-suites \
                      valgrind=check-valgrind
CHECK_BUILD_ALL += $(CHECK_BUILD)
CHECK_PARTS     += $(CHECK_MATRIX_PARTS)

check-matrix-build:
	$(MAKE) --no-print-directory -j$(TEST_JOBS) $(CHECK_BUILD)

check-matrix:
	@$(RUN_PARTS) "make check-matrix" deps=check-deps \
	    build=check-matrix-build $(CHECK_MATRIX_PARTS)

.PHONY: check-matrix check-matrix-build $(CHECK_RUN) check-vg-planted \
        $(CHECK_VG) check-tsan-suites
