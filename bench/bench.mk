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
#                       (bench/report.sh), README's headline table
#                       (bench/headline.sh; make test-bench-headline checks
#                       that README's table is what its CSV gives)
#   make bench-build    only build; SUITES="map limit" narrows any target
#   BENCH_BASE=REV      with any of them: also measure REV's skiplist.h, side
#                       by side (below, and docs/benchmark.md)

BENCH_SUITES ?= $(sort $(patsubst bench/suite_%.c,%,$(wildcard bench/suite_*.c)))
SUITES       ?= $(BENCH_SUITES)
BENCH_DIR    := $(BUILD)/bench
BENCH_BINS    = $(foreach s,$(SUITES),$(call bench_bin,$(s)))

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
    bench/suite_$(1).c $$(sort $$(filter-out bench/$(1)_base.c,\
    $$(wildcard bench/$(1)_*.c)))) \
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

# ------------------------------------------------- comparing two headers
# BENCH_BASE=REV (a commit, tag or branch of this repository): the suites
# that have a bench/S_base.c (map, extent, pq) also measure REV's
# skiplist.h, in its default configuration, as the row "skiplist_base",
# in the same program and the same repetitions as "skiplist", so the ratio
# between the two survives a noisy machine. bench/S_base.c is compiled with
# $(BENCH_BASE_DIR), which holds REV's skiplist.h alone, ahead of the
# source tree on its include path; it includes the very adapter the
# current row uses (bench/S_skiplist.h). Everything skiplist.h defines is
# static or static inline, so the two versions share one program. Those
# suites are then linked as $(BENCH_BASE_DIR)/bin/S, from their driver
# compiled with -DBENCH_BASE_ROW (which lists the row), S_base.o and the
# suite's other objects as they are; the default binaries are left alone.
# The header is extracted again when REV names another commit. Unset (the
# default), none of this is defined and git is not called.
# BENCH_BASE_BULK=1 says REV has the bulk ops (name_build, name_find_many,
# name_erase_range: issue #30), so that skiplist_base gets their rows too;
# without it skiplist_base has none (an older header lacks the calls).
BENCH_BASE        ?=
BENCH_BASE_BULK   ?=
BENCH_BASE_DIR    := $(BENCH_DIR)/base
BENCH_BASE_SUITES := $(patsubst bench/%_base.c,%,$(wildcard bench/*_base.c))

ifneq ($(strip $(BENCH_BASE)),)
BENCH_BASE_SHA := $(shell git rev-parse --verify --quiet \
                    '$(strip $(BENCH_BASE))^{commit}')
ifeq ($(BENCH_BASE_SHA),)
$(error BENCH_BASE=$(BENCH_BASE) names no commit of this repository)
endif
BENCH_BASE_ON := $(filter $(BENCH_BASE_SUITES),$(BENCH_SUITES))
BENCH_BASE_HDR := $(BENCH_BASE_DIR)/skiplist.h
BENCH_BASE_REV := $(BENCH_BASE_DIR)/rev

# Looked at whenever a base object is wanted, rewritten only when REV names
# another commit than last time, or BENCH_BASE_BULK changed: the header is
# then older than it and is extracted again (make reads a target's time
# after its recipe has run, so a file left untouched remakes nothing).
.PHONY: bench-base-force
bench-base-force:
$(BENCH_BASE_REV): bench-base-force
	@mkdir -p $(@D)
	@echo $(BENCH_BASE_SHA) bulk=$(BENCH_BASE_BULK) | cmp -s - $@ || \
	    echo $(BENCH_BASE_SHA) bulk=$(BENCH_BASE_BULK) > $@

$(BENCH_BASE_HDR): $(BENCH_BASE_REV)
	git show $(BENCH_BASE_SHA):skiplist.h > $@.tmp
	@mv $@.tmp $@

# $(1) = suite with a bench/$(1)_base.c.
define BENCH_BASE_RULES
BENCH_BASE_OBJ_$(1) := $(BENCH_BASE_DIR)/obj/suite_$(1).o \
    $(BENCH_BASE_DIR)/obj/$(1)_base.o \
    $$(filter-out $(BENCH_DIR)/obj/suite_$(1).o,$$(BENCH_OBJ_$(1)))

$(BENCH_BASE_DIR)/obj/suite_$(1).o $(BENCH_BASE_DIR)/obj/$(1)_base.o: \
    BENCH_XFLAGS = $$(BENCH_CFLAGS_$(1))

$(BENCH_BASE_DIR)/obj/suite_$(1).o: bench/suite_$(1).c
	@mkdir -p $$(dir $$@)
	$$(CC) $$(BENCH_CFLAGS) $$(BENCH_XFLAGS) -DBENCH_BASE_ROW -c -o $$@ $$<

$(BENCH_BASE_DIR)/obj/$(1)_base.o: bench/$(1)_base.c $(BENCH_BASE_HDR)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(patsubst -I.,-I$(BENCH_BASE_DIR) -I.,$$(BENCH_CFLAGS)) \
	    $$(BENCH_XFLAGS) $(if $(BENCH_BASE_BULK),-DBENCH_BASE_BULK) \
	    -c -o $$@ $$<

$(BENCH_BASE_DIR)/bin/$(1): $$(BENCH_BASE_OBJ_$(1))
	@mkdir -p $$(dir $$@)
	$$(BENCH_LD_$(1)) $$(BENCH_OPT) -o $$@ $$^ $$(BENCH_LIBS_$(1)) $$(BENCH_LDLIBS)
endef
$(foreach s,$(BENCH_BASE_ON),$(eval $(call BENCH_BASE_RULES,$(s))))

-include $(wildcard $(BENCH_BASE_DIR)/obj/*.d)

BENCH_BASE_NOTE := bench: skiplist_base is skiplist.h at $(BENCH_BASE) \
                   ($(BENCH_BASE_SHA)) in: $(BENCH_BASE_ON)

# A comparison is not a result to commit: its CSVs go next to the header.
BENCH_QUICK_CSV := $(BENCH_BASE_DIR)/results-quick.csv
BENCH_FULL_CSV  := $(BENCH_BASE_DIR)/results.csv
endif

# The program a run of suite $(1) uses.
bench_bin = $(if $(filter $(1),$(BENCH_BASE_ON)),$(BENCH_BASE_DIR)/bin/$(1),$(BENCH_DIR)/$(1))

bench-build: $(BENCH_BINS)

# Builds and runs each suite (MODE is --quick or empty) and collects the
# rows under one header. A suite that fails to build or run does not hide
# the others' rows, but the target fails once every suite has had its turn.
# Written to a .tmp first so an interrupted run never leaves a half CSV
# under the real name.
bench-run:
	@out=$(OUT).tmp; fail=""; \
	$(if $(BENCH_BASE_ON),echo "$(BENCH_BASE_NOTE)" >&2;) \
	echo "$(BENCH_HEADER)" > $$out; \
	for sb in $(foreach s,$(SUITES),$(s)=$(call bench_bin,$(s))); do \
	    s=$${sb%%=*}; bin=$${sb#*=}; \
	    if ! $(MAKE) --no-print-directory $$bin; then \
	        fail="$$fail $$s(build)"; continue; \
	    fi; \
	    echo "== bench: $$s $(MODE)" >&2; \
	    t0=$$(date +%s); \
	    ./$$bin $(MODE) >> $$out || fail="$$fail $$s"; \
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
	bench/headline.sh $(CSV) README.md
