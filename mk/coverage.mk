# ---------------------------------------------------------------- coverage
# make coverage: line and branch coverage of the headers' own code, per
# face (docs/coverage.md says how it is measured and what stays uncovered).
# Not part of `make test`.
#
# clang's source-based coverage (-fprofile-instr-generate
# -fcoverage-mapping, read by llvm-cov) is used rather than gcov: it maps
# code that a macro expands back to the lines of the macro's definition, so
# the generated API (SLX_GEN_* in skiplist.h, SLR_GEN_* in skiplist_rcu.h)
# is measured where it is written, and its branches are
# the source's conditions (each side of an if, &&, ||, ?:), not the object
# code's jumps, so they do not change with the optimiser or the compiler.
#
# Built at -O0 into $(COV_DIR): the main Criterion binary (every tests/*.c:
# skiplist.h's three faces and skiplist_sched.h) and the skiplist_rcu.h
# suites of the memb flavor (every tests/rcu/test_rcu_*.c but the planted faults).
# Each test process writes its profile into one pool per binary (%m);
# tests/coverage/report.py merges the instantiations, attributes header
# lines to faces by the headers' own section markers and macro names, and
# fails when an uncovered line has no reason in tests/coverage/uncovered.txt.
# A failing test stops the target (coverage of a failing suite is moot).
COV_CC      ?= clang
COV_PROFDATA ?= $(shell command -v llvm-profdata-14 || command -v llvm-profdata)
COV_LLVMCOV ?= $(shell command -v llvm-cov-14 || command -v llvm-cov)
COV_DIR     := $(BUILD)/coverage
# The headers and tests/ are copied into $(COV_SRC) when the run starts and
# built from there: the report reads the headers' text, which must be the
# text the binaries were built from, while others may edit the tree.
COV_SRC     := $(COV_DIR)/src
# Atomic counters: the stress suites' threads run the same code at once,
# and racing plain increments lose counts, which llvm-cov then subtracts
# into negative (wrapped) counts for the else side of a branch.
COV_FLAGS   := -std=c11 -O0 -g -I$(COV_SRC) $(WARN) -fprofile-instr-generate \
               -fcoverage-mapping -fprofile-update=atomic
COV_DEFS    := -DSKIPLIST_TEST_CC='"$(COV_CC)"' -DSKIPLIST_TEST_ROOT='"$(CURDIR)"'
COV_TEST_OBJ := $(TEST_SRC:tests/%.c=$(COV_DIR)/obj/%.o)
COV_RCU_OBJ := $(patsubst %,$(COV_DIR)/obj-rcu/%.o,$(RCU_SUITES) test_rcu_alloc stress)
COV_BINS    := $(COV_DIR)/skiplist-tests $(COV_DIR)/rcu-tests-memb
COV_DEPS    := libcriterion-dev liburcu-dev clang llvm-14 python3

# (This file is a prerequisite: a change of flags rebuilds.)
COV_HDRS    := $(HEADERS:%=$(COV_SRC)/%)
COV_THDRS   := $(wildcard $(COV_SRC)/tests/*.h $(COV_SRC)/tests/rcu/*.h)
$(COV_DIR)/obj/%.o: $(COV_SRC)/tests/%.c $(COV_HDRS) $(COV_THDRS) mk/coverage.mk
	@mkdir -p $(dir $@)
	$(COV_CC) $(COV_FLAGS) $(COV_DEFS) -c -o $@ $<

ifeq ($(shell uname -m),x86_64)
$(COV_DIR)/obj/test_engine_find_ptr_avx2.o: COV_FLAGS += -mavx2
endif

$(COV_DIR)/obj-rcu/%.o: $(COV_SRC)/tests/rcu/%.c $(COV_HDRS) $(COV_THDRS) \
                        mk/coverage.mk
	@mkdir -p $(dir $@)
	$(COV_CC) $(COV_FLAGS) -c -o $@ $<

$(COV_DIR)/skiplist-tests: $(COV_TEST_OBJ)
	$(COV_CC) $(COV_FLAGS) -o $@ $^ -lcriterion -lm

$(COV_DIR)/rcu-tests-memb: $(COV_RCU_OBJ)
	$(COV_CC) $(COV_FLAGS) -o $@ $^ -lcriterion $(call rcu_libs,memb)

coverage-deps:
	@tools/install-deps.sh $(COV_DEPS)

# The profiles of one run only: the pools are emptied first. Each binary's
# processes (Criterion forks one per test) merge into its pool as they
# exit. The report is $(COV_DIR)/report.txt; html/ is llvm-cov's own view
# of the headers, line by line, with the branch counts.
COV_PROF    := $(COV_DIR)/prof
COV_EXPLAIN := tests/coverage/uncovered.txt
COV_OBJECTS := $(COV_DIR)/skiplist-tests -object $(COV_DIR)/rcu-tests-memb
COV_SHOWN   := $(abspath $(COV_HDRS))

# The snapshot: cp -u copies what changed since the last run (tests/*.h
# included, which the object rules cannot all name), -p keeps the times
# make compares.
coverage: coverage-deps
	@mkdir -p $(COV_SRC) && cp -p -u $(HEADERS) $(COV_SRC)/ && \
	    cp -p -u -r tests $(COV_SRC)/
	$(MAKE) --no-print-directory -j$(TEST_JOBS) $(COV_BINS)
	rm -rf $(COV_PROF) && mkdir -p $(COV_PROF)
	LLVM_PROFILE_FILE=$(CURDIR)/$(COV_PROF)/main-%m.profraw \
	    $(COV_DIR)/skiplist-tests
	LLVM_PROFILE_FILE=$(CURDIR)/$(COV_PROF)/rcu-%m.profraw \
	    $(COV_DIR)/rcu-tests-memb
	$(COV_PROFDATA) merge -sparse -o $(COV_DIR)/all.profdata $(COV_PROF)/*.profraw
	$(COV_LLVMCOV) export -format=lcov -instr-profile $(COV_DIR)/all.profdata \
	    $(COV_OBJECTS) > $(COV_DIR)/cov.lcov
	$(COV_LLVMCOV) export -format=text -skip-functions \
	    -instr-profile $(COV_DIR)/all.profdata $(COV_OBJECTS) > $(COV_DIR)/cov.json
	$(COV_LLVMCOV) show -format=html -show-branches=count \
	    -instr-profile $(COV_DIR)/all.profdata $(COV_OBJECTS) \
	    -output-dir $(COV_DIR)/html $(COV_SHOWN)
	@rc=0; python3 tests/coverage/report.py --root $(COV_SRC) --strict \
	    --lcov $(COV_DIR)/cov.lcov --json $(COV_DIR)/cov.json \
	    --explain $(COV_EXPLAIN) > $(COV_DIR)/report.txt || rc=$$?; \
	sed -n '1,/^$$/p' $(COV_DIR)/report.txt; \
	grep -E 'UNEXPLAINED|^stale|^uncovered lines:' $(COV_DIR)/report.txt; \
	echo "coverage: details in $(COV_DIR)/report.txt," \
	    "html in $(COV_DIR)/html/index.html"; exit $$rc

.PHONY: coverage coverage-deps
