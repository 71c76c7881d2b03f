# ------------------------------------------------------------------ fuzzing
# libFuzzer harnesses (tests/fuzz/fuzz_*.c), one per face, each checking
# the library against a model after every operation and aborting on any
# mismatch:
#   map, extent, pq   skiplist.h's three faces against tests/model_*.h
#   sched             skiplist_sched.h against tests/bfs_replica.h
#   rcu_map           skiplist_rcu.h's ordered index in one registered
#   rcu_extent        thread (and its extent index) against the models
# Not part of `make test`. `make fuzz` builds them with clang and runs each
# for FUZZ_SECONDS, starting from a scratch copy of the committed seed corpus
# (build/fuzz/corpus/<target>, refreshed every run, so tests/fuzz/corpus is
# never modified); it fails if any harness finds a crash, which is left in
# build/fuzz/crash-<target>-*. Replay one: build/fuzz/fuzz_<target> <file>.
#   make fuzz FUZZ_SECONDS=60 [FUZZ_TARGETS="sched rcu_map"]
# Growing the committed corpus after a long run: merge what the run found,
# keeping only inputs that reach new edges (-use_counters=0: hit counts do
# not count, so the corpus stays at tens of files per target, not hundreds):
#   build/fuzz/fuzz_<t> -merge=1 -use_counters=0 tests/fuzz/corpus/<t> <dir>
FUZZ_SECONDS ?= 30
FUZZ_CC      ?= clang
FUZZ_TARGETS ?= map extent pq sched rcu_map rcu_extent
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)
FUZZ_CFLAGS  := -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined \
                -fno-sanitize-recover=all -Wall -Wextra -Wpedantic -Werror -I.
FUZZ_RUNOPTS := -max_len=512 -timeout=20 -print_final_stats=1

# The concurrent header's harnesses link liburcu (the default memb flavor).
FUZZ_RCU_LIBS := -lurcu -lurcu-common -pthread
$(FUZZ_DIR)/fuzz_rcu_%: FUZZ_LIBS := $(FUZZ_RCU_LIBS)

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard tests/fuzz/*.h) \
                    tests/test_common.h $(wildcard tests/model_*.h) \
                    tests/bfs_replica.h $(wildcard tests/rcu/*.h) $(HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_LIBS)

fuzz-deps:
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || tools/install-deps.sh clang
	@tools/install-deps.sh liburcu-dev

fuzz: fuzz-deps
	$(MAKE) --no-print-directory -j$(TEST_JOBS) $(FUZZ_BINS)
	@fail=0; for t in $(FUZZ_TARGETS); do \
	    c=$(FUZZ_DIR)/corpus/$$t; log=$(FUZZ_DIR)/fuzz_$$t.log; \
	    rm -rf $$c && mkdir -p $$c && cp tests/fuzz/corpus/$$t/* $$c/; \
	    echo "==== fuzz_$$t: $(FUZZ_SECONDS) s (log: $$log)"; \
	    if $(FUZZ_DIR)/fuzz_$$t $(FUZZ_RUNOPTS) \
	        -max_total_time=$(FUZZ_SECONDS) \
	        -artifact_prefix=$(FUZZ_DIR)/crash-$$t- $$c >$$log 2>&1; then \
	        grep -E '^#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units' $$log; \
	    else \
	        tail -n 40 $$log; echo "FAILED: fuzz_$$t"; fail=1; \
	    fi; \
	done; exit $$fail

# Reproducers of known, unfixed bugs (tests/fuzz/known/<target>-<name>,
# described in tests/fuzz/known/README), each replayed against its harness
# built with FUZZ_KNOWN_<target> (the switch that lets the stream reach the
# bug). Says which still fail; a reproducer that passes means its bug is
# fixed: move it into the corpus and drop the switch.
FUZZ_KNOWN       := $(sort $(filter-out %README,$(wildcard tests/fuzz/known/*)))

$(FUZZ_DIR)/known/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard tests/fuzz/*.h) \
                          tests/test_common.h tests/bfs_replica.h $(HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_KNOWN_$*) -o $@ $< $(FUZZ_LIBS)

fuzz-known: fuzz-deps
	@for f in $(FUZZ_KNOWN); do \
	    t=$$(basename $$f); t=$${t%%-*}; \
	    $(MAKE) --no-print-directory $(FUZZ_DIR)/known/fuzz_$$t || exit 1; \
	    if $(FUZZ_DIR)/known/fuzz_$$t $$f >$(FUZZ_DIR)/known/$$(basename $$f).log 2>&1; \
	    then echo "fuzz-known: $$f PASSES now: its bug looks fixed"; \
	    else echo "fuzz-known: $$f still fails (known bug):"; \
	        grep -m1 -E 'check failed|check\(\)|ERROR' \
	            $(FUZZ_DIR)/known/$$(basename $$f).log; fi; \
	done

.PHONY: fuzz fuzz-deps fuzz-known
