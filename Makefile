# skiplist: header-only library. Nothing here builds a library; targets build
# and run the examples, the Criterion suites, the benchmarks and the docs.
#
#   make demo        build and run every example (first installs liburcu-dev,
#                    which examples/rcu_*.c link, when it is missing)
#   make test        the quick battery (about 5 minutes on a 2-core
#                    machine): install the missing deps, then every
#                    skiplist.h suite with gcc -O2 and under ASan+UBSan,
#                    the skiplist_rcu.h suites (memb) and its stress under
#                    ThreadSanitizer, the guides' examples
#   make check       the whole battery, what CI runs (about 20 minutes):
#                    make test's parts, the header checks, every liburcu
#                    flavor, the planted faults, the compiler matrix,
#                    valgrind, the docs, the errors table, the install test
#                    Both end with one summary: each part, its test count,
#                    passed or FAILED, its time (docs/testing.md).
#   make bench-quick / bench / bench-report
#   make fuzz soak mutants coverage check-matrix      (mk/*.mk)
#   make docs docs-check install uninstall format format-check clean expand

CC      ?= cc
CXX     ?= c++
PREFIX  ?= /usr/local
BUILD   := build

WARN     := -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion \
            -Wstrict-prototypes -Wmissing-prototypes -Werror
CFLAGS_T := -std=c11 -O2 -g -I. $(WARN)
CXXWARN  := -Wall -Wextra -Wpedantic -Wshadow -Werror
SAN      := -fsanitize=address,undefined -fno-omit-frame-pointer \
            -fno-sanitize-recover=all
# Sanitizer reports must kill the process with SIGABRT: a report otherwise
# ends it with the sanitizers' exitcode flag, and Criterion 2.4.1 counts a
# test whose worker exits with 0 as passing (LSAN_OPTIONS=exitcode=0 did
# that to ASan's reports: tests/selftest/README.md). A signal it reports
# as a crash.
SAN_ENV  := ASAN_OPTIONS="abort_on_error=1:$$ASAN_OPTIONS" \
            UBSAN_OPTIONS="abort_on_error=1:print_stacktrace=1:$$UBSAN_OPTIONS"

HEADERS  := skiplist.h skiplist_sched.h skiplist_rcu.h
TEST_DEPS := libcriterion-dev pkg-config
CHECK_DEPS := clang
BENCH_DEPS := libbsd-dev libjudy-dev libabsl-dev libboost-dev libglib2.0-dev libcds-dev liburcu-dev
DEMO_DEPS := liburcu-dev

.PHONY: all demo demo-deps test check deps test-deps check-deps bench bench-quick \
        bench-report format format-check clean expand

all: examples

# ---------------------------------------------------------------- examples
# Every examples/NAME.c is one program; examples/split/ is one program built
# from its two .c files (SKIPLIST_PROTOTYPE in split/parts.h, GENERATE in
# split/parts.c). `make demo` runs them in DEMO_ORDER, each under a line
# naming the face it shows: the ordered index first, the runqueue simulator
# last; an example not listed there runs before the simulator.
# examples/rcu_*.c use skiplist_rcu.h: they link liburcu (the default memb
# flavor, -lurcu) and threads, and building one first installs liburcu-dev
# when it is missing (demo-deps).
EXAMPLE_SRC   := $(sort $(wildcard examples/*.c))
EXAMPLE_NAMES := $(EXAMPLE_SRC:examples/%.c=%) split
EXAMPLES      := $(EXAMPLE_NAMES:%=$(BUILD)/examples/%)
SPLIT_SRC     := $(sort $(wildcard examples/split/*.c))

DEMO_ORDER := ordered_index string_map split leaderboard timer_queue \
              extent_map iova rcu_extents
DEMO_LAST  := bfs_sim
DEMO_RUN   := $(filter $(EXAMPLE_NAMES),$(DEMO_ORDER)) \
              $(filter-out $(DEMO_ORDER) $(DEMO_LAST),$(EXAMPLE_NAMES)) \
              $(filter $(EXAMPLE_NAMES),$(DEMO_LAST))
FACE_ordered_index := ordered index (SKIPLIST_DEFINE): sessions by expiry (multimap) and by id
FACE_string_map    := ordered index (SKIPLIST_DEFINE), string keys: name -> struct with strcmp
FACE_split         := ordered index split in two: SKIPLIST_PROTOTYPE in a header, SKIPLIST_GENERATE in one .c
FACE_leaderboard   := ranked ordered index (SKIPLIST_RANKED_DEFINE): a game leaderboard with places, pages and counts
FACE_timer_queue   := priority queue (SKIPLIST_PQ_DEFINE): timers with cancel and re-arm
FACE_extent_map    := extent index (SKIPLIST_EXTENT_DEFINE): a file's block map, overlap queries
FACE_iova          := extent index (SKIPLIST_EXTENT_DEFINE): IOVA allocation with insert_hole
FACE_rcu_extents   := extent index under RCU (skiplist_rcu.h): IOVA allocation by writer threads beside lock-free readers
FACE_bfs_sim       := runqueue (skiplist_sched.h on the priority-queue face): BFS scheduling simulated

RCU_EXAMPLES := $(filter $(BUILD)/examples/rcu_%,$(EXAMPLES))

$(BUILD)/examples/%: examples/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_T) -o $@ $< -lm $(EXAMPLE_LIBS)

$(RCU_EXAMPLES): EXAMPLE_LIBS := -pthread -lurcu -lurcu-common
$(RCU_EXAMPLES): | demo-deps

demo-deps:
	@tools/install-deps.sh $(DEMO_DEPS)

$(BUILD)/examples/split: $(SPLIT_SRC) $(wildcard examples/split/*.h) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_T) -o $@ $(SPLIT_SRC) -lm

examples: $(EXAMPLES)

demo: $(EXAMPLES)
	@$(foreach e,$(DEMO_RUN),\
	    echo "==== $(e): $(or $(FACE_$(e)),an example)"; \
	    ./$(BUILD)/examples/$(e) || { echo "demo: $(e) failed" >&2; exit 1; }; \
	    echo;)

# ------------------------------------------------------------------- tests
include tests/tests.mk

# ------------------------------------------------------------------- bench
-include bench/bench.mk

# ------------------------------------------------------------ more targets
# mk/*.mk: one file per concern (docs, install, the test matrix, coverage,
# mutants, fuzzing, soak). A file there adds its targets, and may append
# to these lists of tests/tests.mk (a part is NAME=TARGET: NAME in the
# summary, TARGET the make target that runs it):
#   TEST_BUILD        what `make test` (and so `make check`) builds in its
#                     parallel build step
#   TEST_PARTS        parts of `make test` (and so of `make check`)
#   CHECK_BUILD_ALL   what `make check` builds besides TEST_BUILD
#   CHECK_PARTS       parts of `make check` only, run after TEST_PARTS
#   TEST_DEPS         packages `make test` installs when missing
#   CHECK_DEPS        packages `make check` installs besides TEST_DEPS
include $(sort $(wildcard mk/*.mk))

# ------------------------------------------------------------------ layout
FORMAT_SRC = $(HEADERS) $(wildcard tests/*.c tests/*.h tests/*.cc \
             tests/*/*.c tests/*/*.h tests/*/*.cc \
             examples/*.c examples/*/*.c examples/*/*.h \
             docs/*/*.c docs/*/*.h bench/*.c bench/*.h bench/*.cc)

format:
	clang-format -i $(FORMAT_SRC)

format-check:
	clang-format --dry-run --Werror $(FORMAT_SRC)

# One instantiation preprocessed and formatted, for reading what the macros
# generate: make expand
expand:
	@printf '#include "skiplist.h"\nstruct item { unsigned long key; };\n#define KEY(e) ((e)->key)\nSKIPLIST_DEFINE(imap, struct item, unsigned long, KEY, SKIPLIST_CMP_NUM, SKIPLIST_DEFAULTS)\n' \
	  | $(CC) -E -P -I. -x c - | clang-format | sed -n '/^struct imap {/,$$p'

clean:
	rm -rf $(BUILD) docs/html
