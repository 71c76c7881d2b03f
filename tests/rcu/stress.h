/*
 * The concurrency stress of skiplist_rcu.h (TESTING.md section 6): writers
 * and readers at once on one list, more threads than cores, yielding at
 * random points, every reader and writer checking what must hold whatever
 * the others do. The code is in tests/rcu/stress.c (what each run does and
 * checks is described there); this is its interface, shared by the
 * Criterion suite (tests/rcu/test_rcu_stress.c) and the standalone driver
 * that the ThreadSanitizer and planted-fault builds use
 * (tests/rcu/stress_main.c).
 *
 * Every program that includes this header links stress.c compiled with
 * the same flags: the liburcu flavor switch (SKIPLIST_RCU_MB, ...), the
 * sanitizer, a planted fault (SKIPLIST_RCU_PLANT_...).
 *
 * The caller instantiates the list (SKIPLIST_RCU_DEFINE or
 * SKIPLIST_RCU_EXTENT_DEFINE over struct map_item / struct rext) and its
 * ops table (RMAP_OPS_DEFINE / REXT_OPS_DEFINE, rcu_ops.h), and passes
 * storage for one list object, not initialised: the run initialises it,
 * runs its threads, checks the result, destroys it. The calling thread
 * must be registered with liburcu (rcu_register_thread()).
 *
 * Each run prints one line of figures to `out` (operations, threads,
 * seconds, retries, splits, merges, the changes the readers saw, leaks)
 * and returns NULL when it passed, else what failed: the first failure a
 * thread reported, or a verdict on the whole (the readers saw no change:
 * the run did not race; no split or merge; a leak after destroy and
 * rcu_barrier(); memory written after its free). When its threads got
 * stuck (no operation finished for 20 s: a deadlock, an endless walk) it
 * prints "FAILED: ..." and ends the process with exit status 1.
 */
#ifndef RCU_STRESS_H
#define RCU_STRESS_H

#include <stdio.h>

#include "rcu_ops.h"

/* The shape of a run. */
struct stress_cfg {
    unsigned writers, readers; /* together at most ST_MAX_THREADS */
    unsigned long writer_ops;  /* per writer */
    unsigned yield_one_in;     /* sched_yield() odds at yield points */
    uint64_t seed;             /* the threads' streams (not the timing) */
    bool library_alloc; /* the header's own pools (init with NULL), not the
                         * counting, poisoning allocator of rcu_common.h */
};

#define ST_MAX_THREADS 16

/* Map face: each writer owns its keys and checks every result against
 * its own model; readers check permanent and never-inserted keys, bounds
 * and iteration. */
const char *stress_map(const struct rmap_ops *o, void *sl,
                       const struct stress_cfg *cfg, FILE *out);

/* Map face, contended keys: every writer inserts and erases the same
 * keys; exactly one insert of a key may win. */
const char *stress_duel(const struct rmap_ops *o, void *sl,
                        const struct stress_cfg *cfg, FILE *out);

/* Extent face: insert_hole (shared windows, and private regions where
 * the answer must be exactly the model's), insert and erase; a shared
 * owner map catches overlapping live extents; readers check lookups,
 * overlaps and iteration against the permanent extents. */
const char *stress_extent(const struct rext_ops *o, void *sl,
                          const struct stress_cfg *cfg, FILE *out);

/* Extent face, window edges: one owner asks insert_hole for the one hole
 * at the bottom of windows it owns while neighbours churn the space just
 * below; any answer but that hole fails. cfg's writers and readers are
 * not used (1 owner, 2 neighbours); writer_ops is the owner's. */
const char *stress_edge(const struct rext_ops *o, void *sl,
                        const struct stress_cfg *cfg, FILE *out);

#endif /* RCU_STRESS_H */
