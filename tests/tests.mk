# Criterion suites: every tests/*.c is linked into one binary (Criterion
# registers tests across translation units), built twice: plain and under
# ASan+UBSan. The plain run comes last so the output ends with its summary.
#
# Before the suites run, the header portability checks build and run
# tests/cxx_compile.cc (every face instantiated) as C++17 with g++ and
# clang++ and as C99 and C11 with gcc and clang, all with -Werror.
#
# Replay a random suite: SEED=<n> ./build/tests/skiplist-tests --filter
# 'map_random/<test>'; soak: TEST_SCALE=<k> make test.
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

# One object per source so the two builds and the sources compile in
# parallel (the instantiations are heavy: every hot path is specialised).
TEST_OBJ      := $(TEST_SRC:tests/%.c=$(BUILD)/tests/obj/%.o)
TEST_OBJ_ASAN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/obj-asan/%.o)
TEST_JOBS     ?= $(shell nproc 2>/dev/null || echo 2)

$(BUILD)/tests/obj/%.o: tests/%.c $(wildcard tests/*.h) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_T) $(TEST_DEFS) -c -o $@ $<

$(BUILD)/tests/obj-asan/%.o: tests/%.c $(wildcard tests/*.h) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_T) $(SAN) $(TEST_DEFS) -c -o $@ $<

# The AVX2 build of the remove's pointer scan (tests/test_find_ptr_avx2.c).
ifeq ($(shell uname -m),x86_64)
$(BUILD)/tests/obj/test_find_ptr_avx2.o $(BUILD)/tests/obj-asan/test_find_ptr_avx2.o: CFLAGS_T += -mavx2
endif

$(TEST_BIN): $(TEST_OBJ)
	$(CC) $(CFLAGS_T) -o $@ $(TEST_OBJ) -lcriterion -lm

$(TEST_ASAN): $(TEST_OBJ_ASAN)
	$(CC) $(CFLAGS_T) $(SAN) -o $@ $(TEST_OBJ_ASAN) -lcriterion -lm

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

# LeakSanitizer: a test worker's exit-time leak report never fails its
# test (Criterion ignores it), so suites check explicitly with
# tc_no_leaks() (test_common.h). The exit-time report is then only able to
# fail the run for leaks of the runner process itself, which are
# Criterion's own (2.4.1 leaks 48 bytes per test with a .timeout): keep
# the report, do not let it set the exit status.
test-headers: $(HDR_CHECKS)
	@for h in $(HDR_CHECKS); do $$h || { echo "FAILED: $$h"; exit 1; }; done

test: test-deps
	$(MAKE) --no-print-directory -j$(TEST_JOBS) $(HDR_CHECKS) $(TEST_BIN) $(TEST_ASAN)
	@for h in $(HDR_CHECKS); do $$h || { echo "FAILED: $$h"; exit 1; }; done
	LSAN_OPTIONS="exitcode=0:$$LSAN_OPTIONS" $(TEST_ASAN)
	$(TEST_BIN)

.PHONY: test-headers

# ------------------------------------------------------------------ fuzzing
# libFuzzer harnesses (tests/fuzz/fuzz_*.c), one per face, each checking
# the library against a model and aborting on any mismatch. Not part of
# `make test`. `make fuzz` builds them with clang and runs each for
# FUZZ_SECONDS, starting from a scratch copy of the committed seed corpus
# (build/fuzz/corpus/<target>, refreshed every run, so tests/fuzz/corpus is
# never modified); it fails if any harness finds a crash, which is left in
# build/fuzz/crash-<target>-*. Replay one: build/fuzz/fuzz_<target> <file>.
FUZZ_SECONDS ?= 30
FUZZ_CC      ?= clang
FUZZ_TARGETS := map extent pq
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)
FUZZ_CFLAGS  := -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined \
                -fno-sanitize-recover=all -Wall -Wextra -Wpedantic -Werror -I.
FUZZ_RUNOPTS := -max_len=512 -timeout=20 -print_final_stats=1

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h \
                    tests/test_common.h tests/model_map.h tests/model_extent.h \
                    $(HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $<

fuzz-deps:
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || tools/install-deps.sh clang

fuzz: fuzz-deps
	$(MAKE) --no-print-directory -j$(TEST_JOBS) $(FUZZ_BINS)
	@fail=0; for t in $(FUZZ_TARGETS); do \
	    c=$(FUZZ_DIR)/corpus/$$t; log=$(FUZZ_DIR)/fuzz_$$t.log; \
	    rm -rf $$c && mkdir -p $$c && cp tests/fuzz/corpus/$$t/* $$c/; \
	    echo "==== fuzz_$$t: $(FUZZ_SECONDS) s (log: $$log)"; \
	    if $(FUZZ_DIR)/fuzz_$$t $(FUZZ_RUNOPTS) \
	        -max_total_time=$(FUZZ_SECONDS) \
	        -artifact_prefix=$(FUZZ_DIR)/crash-$$t- $$c >$$log 2>&1; then \
	        grep -E '^#[0-9]+[[:space:]]+DONE' $$log; \
	    else \
	        tail -n 40 $$log; echo "FAILED: fuzz_$$t"; fail=1; \
	    fi; \
	done; exit $$fail

.PHONY: fuzz fuzz-deps
