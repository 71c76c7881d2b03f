# Benchmarks (docs/benchmark.md: suites, peers, the CSV format, adding a peer).
#
# Every bench/suite_S.c is one suite S: the program $(BUILD)/bench/S is
# linked from bench/suite_S.c, every bench/S_*.c (C11) and every bench/S_*.cc
# (C++17, each in its own object; the link then goes through $(CXX)). Suites
# are discovered, so a suite whose suite_S.c does not exist yet is skipped.
#
#   make bench-quick    quick sizes, all suites -> bench/results-quick.csv
#   make bench          full sizes, all suites  -> bench/results.csv
#   make bench-report   CSV (default bench/results-quick.csv, CSV=...) ->
#                       docs/plots/*.png and the tables in docs/performance.md
#   make bench-build    only build; SUITES="map limit" narrows any target

BENCH_SUITES ?= $(sort $(patsubst bench/suite_%.c,%,$(wildcard bench/suite_*.c)))
SUITES       ?= $(BENCH_SUITES)
BENCH_DIR    := $(BUILD)/bench
BENCH_BINS    = $(SUITES:%=$(BENCH_DIR)/%)

# One code-generation setting for every implementation, ours and the peers'
# (header-only peers get it too; packaged libraries are as Debian built them).
# x86-64-v3 (AVX2, BMI2) rather than -march=native: it is what this machine
# offers, results stay reproducible on hosts with AVX-512, and valgrind 3.19
# can still run the binaries (it dies on AVX-512 code).
BENCH_ARCH   ?= -march=x86-64-v3
BENCH_OPT    ?= -O2 -g $(BENCH_ARCH)
# _GNU_SOURCE: clock_gettime, mallinfo2, pthread affinity under -std=c11.
BENCH_CFLAGS   = -std=c11 $(BENCH_OPT) -I. -D_GNU_SOURCE -MMD -MP \
                 -Wall -Wextra -Wpedantic -Werror
BENCH_CXXFLAGS = -std=c++17 $(BENCH_OPT) -I. -D_GNU_SOURCE -MMD -MP $(CXXWARN)
BENCH_LDLIBS   = -lm -pthread

# Per-suite compile flags and link libraries. pkg-config is expanded only
# when a rule needs it (recursive '='), i.e. after bench-deps installed it.
# Third-party include paths become -isystem so their headers are not held
# to our warning flags.
bench_pc_cflags = $(patsubst -I%,-isystem %,$(shell pkg-config --cflags $(1)))
BENCH_CFLAGS_map   = $(call bench_pc_cflags,glib-2.0 libbsd)
BENCH_LIBS_map     = $(shell pkg-config --libs libbsd glib-2.0 absl_btree) -lJudy
BENCH_LIBS_extent  = -lbsd
BENCH_LIBS_pq      = -lbsd
BENCH_LIBS_sched   =
BENCH_LIBS_limit   =
# rcu: liburcu's memb flavor (-lurcu) and its hash table (-lurcu-cds) for
# skiplist_rcu and urcu_lfht, libbsd's tree for the locked peers, libcds
# (its own RCU, not liburcu's) for cds_skiplist, oneTBB for tbb_map.
BENCH_CFLAGS_rcu   = $(call bench_pc_cflags,libbsd liburcu liburcu-cds)
BENCH_LIBS_rcu     = $(shell pkg-config --libs libbsd liburcu liburcu-cds) \
                     -lcds -ltbb
# The rcu suite's packages beyond the Makefile's list (tbb_map).
BENCH_DEPS += libtbb-dev

# Sizes and repetitions are each suite's business; these only pick the mode.
BENCH_QUICK_CSV := bench/results-quick.csv
BENCH_FULL_CSV  := bench/results.csv
BENCH_HEADER    := suite,impl,op,n,threads,ns_per_op,bytes_per_item
REPORT_DEPS     := gnuplot
CSV             ?= $(BENCH_QUICK_CSV)

.PHONY: bench-deps bench-build bench-run

bench-deps:
	@tools/install-deps.sh $(BENCH_DEPS)

# $(1) = suite. Objects live per suite so that the suite's flags apply.
define BENCH_SUITE_RULES
BENCH_OBJ_$(1) := $$(patsubst bench/%.c,$(BENCH_DIR)/obj/%.o,\
    bench/suite_$(1).c $$(sort $$(wildcard bench/$(1)_*.c))) \
    $$(patsubst bench/%.cc,$(BENCH_DIR)/obj/%.cc.o,\
    $$(sort $$(wildcard bench/$(1)_*.cc)))
BENCH_LD_$(1) := $$(if $$(wildcard bench/$(1)_*.cc),$$(CXX),$$(CC))

$$(BENCH_OBJ_$(1)): BENCH_XFLAGS = $$(BENCH_CFLAGS_$(1))

$(BENCH_DIR)/$(1): $$(BENCH_OBJ_$(1))
	$$(BENCH_LD_$(1)) $$(BENCH_OPT) -o $$@ $$^ $$(BENCH_LIBS_$(1)) $$(BENCH_LDLIBS)
endef
$(foreach s,$(BENCH_SUITES),$(eval $(call BENCH_SUITE_RULES,$(s))))

$(BENCH_DIR)/obj/%.o: bench/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) $(BENCH_XFLAGS) -c -o $@ $<

$(BENCH_DIR)/obj/%.cc.o: bench/%.cc
	@mkdir -p $(dir $@)
	$(CXX) $(BENCH_CXXFLAGS) $(BENCH_XFLAGS) -c -o $@ $<

-include $(wildcard $(BENCH_DIR)/obj/*.d)

bench-build: $(BENCH_BINS)

# Builds and runs each suite (MODE is --quick or empty) and collects the
# rows under one header. A suite that fails to build or run does not hide
# the others' rows, but the target fails once every suite has had its turn.
# Written to a .tmp first so an interrupted run never leaves a half CSV
# under the real name.
bench-run:
	@out=$(OUT).tmp; fail=""; \
	echo "$(BENCH_HEADER)" > $$out; \
	for s in $(SUITES); do \
	    if ! $(MAKE) --no-print-directory $(BENCH_DIR)/$$s; then \
	        fail="$$fail $$s(build)"; continue; \
	    fi; \
	    echo "== bench: $$s $(MODE)" >&2; \
	    t0=$$(date +%s); \
	    ./$(BENCH_DIR)/$$s $(MODE) >> $$out || fail="$$fail $$s"; \
	    echo "== bench: $$s took $$(( $$(date +%s) - t0 )) s" >&2; \
	done; \
	mv $$out $(OUT); \
	echo "bench: wrote $(OUT) ($$(( $$(wc -l < $(OUT)) - 1 )) rows)" >&2; \
	if [ -n "$$fail" ]; then echo "bench: FAILED:$$fail" >&2; exit 1; fi

# Dependencies first, then a sub-make: the pkg-config expansions above must
# happen after the packages are installed.
bench-quick: bench-deps
	@$(MAKE) --no-print-directory bench-run MODE=--quick \
	    OUT=$(BENCH_QUICK_CSV) SUITES="$(SUITES)"

bench: bench-deps
	@$(MAKE) --no-print-directory bench-run MODE= \
	    OUT=$(BENCH_FULL_CSV) SUITES="$(SUITES)"

bench-report:
	@tools/install-deps.sh $(REPORT_DEPS)
	bench/report.sh $(CSV) docs/plots docs/performance.md
