# -------------------------------------------------------------------- soak
# make soak OPS=N [SEED=S]: the differential suites of every face (the
# ordered index, the extent index, the priority queue, the runqueue against
# the BFS replica, and skiplist_rcu.h's map and extent faces in one thread)
# run again and again with fresh seeds until each face has done N / 6
# operations; one line per face then gives operations, seeds and
# mismatches, and any mismatch fails the target. tests/soak/soak.sh says
# how (scale per run, seeds); full logs in $(SOAK_DIR)/<face>.log.
#   SOAK_FACES="map sched"   only those faces (keys: map extent pq sched
#                            rcu_map rcu_extent); OPS is then split among them
#   SOAK_JOBS=2              Criterion workers per run
#   SOAK_RUN_S=20            target seconds per run
OPS        ?= 1000000
SEED       ?=
SOAK_DIR   := $(BUILD)/soak
SOAK_JOBS  ?= 2
SOAK_RUN_S ?= 20
SOAK_BINS  := $(TEST_BIN) $(RCU_DIR)/rcu-tests-memb

soak: test-deps
	$(MAKE) --no-print-directory -j$(TEST_JOBS) $(SOAK_BINS)
	SOAK_BIN=$(TEST_BIN) SOAK_RCU_BIN=$(RCU_DIR)/rcu-tests-memb \
	    SOAK_LOG=$(SOAK_DIR) SOAK_JOBS=$(SOAK_JOBS) SOAK_RUN_S=$(SOAK_RUN_S) \
	    SOAK_FACES="$(SOAK_FACES)" SEED="$(SEED)" \
	    tests/soak/soak.sh $(OPS)

.PHONY: soak

# The soak's own check (tests/soak/selftest.sh, no build, about a second):
# on stand-in suites, the sums, the scaling, the seeds, and that a failing,
# crashing or empty run fails the soak. `make check` runs it.
soak-selftest:
	@tests/soak/selftest.sh

CHECK_PARTS += soak-selftest=soak-selftest

.PHONY: soak-selftest
