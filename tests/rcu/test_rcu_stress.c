/*
 * skiplist_rcu.h under concurrency: writers and readers at once, more
 * threads than this machine has cores, with yield points; see
 * tests/rcu/stress.c for what each thread checks. Each test prints its
 * figures (operations, threads, seconds, retries, splits, merges, changes
 * the readers saw, leaks) and fails on any reader or writer check, on a
 * run that did not race (readers saw no change), on a leak after destroy
 * and rcu_barrier(), or on memory written after its free.
 *
 * Built once per liburcu flavor and under ASan+UBSan (tests/tests.mk);
 * the ThreadSanitizer build runs the same code through
 * tests/rcu/stress_main.c. Longer: TEST_SCALE=<k> (make test-rcu-soak).
 */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier, clock_gettime */

#include <criterion/criterion.h>

#include "stress.h"

SKIPLIST_RCU_DEFINE(sm_small, struct map_item, uint64_t, MAP_ITEM_KEY,
                    SKIPLIST_CMP_NUM, 4, 3, 1)
SKIPLIST_RCU_DEFINE(sm_def, struct map_item, uint64_t, MAP_ITEM_KEY,
                    SKIPLIST_CMP_NUM, SKIPLIST_RCU_DEFAULTS)
/* KPN 2, MAXLVL 2: one index level, whose root grows ever wider and is
 * rebuilt under every split: the most contended node there is. */
SKIPLIST_RCU_DEFINE(sm_tiny, struct map_item, uint64_t, MAP_ITEM_KEY,
                    SKIPLIST_CMP_NUM, 2, 2, 1)
RMAP_OPS_DEFINE(sm_tiny, "map kpn2/lvl2/p1", false);
RMAP_OPS_DEFINE(sm_small, "map kpn4/lvl3/p1", false);
RMAP_OPS_DEFINE(sm_def, "map defaults", false);
SKIPLIST_RCU_EXTENT_DEFINE(sx_small, struct rext, uint64_t, start, size, 4, 3,
                           1)
SKIPLIST_RCU_EXTENT_DEFINE(sx_def, struct rext, uint64_t, start, size,
                           SKIPLIST_RCU_DEFAULTS)
SKIPLIST_RCU_EXTENT_DEFINE(sx_tiny, struct rext, uint64_t, start, size, 2, 2, 1)
REXT_OPS_DEFINE(sx_tiny, "extent kpn2/lvl2/p1", struct rext, uint64_t);
REXT_OPS_DEFINE(sx_small, "extent kpn4/lvl3/p1", struct rext, uint64_t);
REXT_OPS_DEFINE(sx_def, "extent defaults", struct rext, uint64_t);

static union {
    struct sm_tiny m;
    struct sm_small m0;
    struct sm_def m1;
    struct sx_tiny x;
    struct sx_small x0;
    struct sx_def x1;
    max_align_t align;
} the_list;

static void rt_setup(void)
{
    rcu_register_thread();
    rt_failure_reset();
}

static void rt_teardown(void)
{
    rcu_unregister_thread();
}

static struct stress_cfg cfg_for(unsigned writers, unsigned readers,
                                 unsigned long ops, const char *what)
{
    struct stress_cfg cfg = {writers, readers,       rt_ops(ops),
                             4,       tc_seed(what), false};
    return cfg;
}

/* The same on the header's own allocator (sharded pools, frees pushed
 * from the call_rcu thread): no poison, leaks seen by LSan only. */
static struct stress_cfg library_alloc(struct stress_cfg cfg)
{
    cfg.library_alloc = true;
    return cfg;
}

/* Each run prints its figures and says what failed, if anything. */
static void expect_clean(const char *label, const char *bad)
{
    cr_assert_null(bad, "%s: %s", label, bad ? bad : "");
}

static void map_run(const struct rmap_ops *o, struct stress_cfg cfg)
{
    expect_clean(o->label, stress_map(o, &the_list, &cfg, stderr));
}

static void duel_run(const struct rmap_ops *o, struct stress_cfg cfg)
{
    expect_clean(o->label, stress_duel(o, &the_list, &cfg, stderr));
}

static void ext_run(const struct rext_ops *o, struct stress_cfg cfg)
{
    expect_clean(o->label, stress_extent(o, &the_list, &cfg, stderr));
}

/* insert_hole at the bottom of a window its caller owns, the neighbours
 * busy just below it (stress.c, ext_edge): the only hole, every time. */
static void edge_run(const struct rext_ops *o, struct stress_cfg cfg)
{
    expect_clean(o->label, stress_edge(o, &the_list, &cfg, stderr));
}

TestSuite(rcu_stress, .init = rt_setup, .fini = rt_teardown, .timeout = 300);

Test(rcu_stress, map_small)
{
    map_run(&sm_small_ops, cfg_for(3, 3, 160000, "rcu_stress/map_small"));
}

Test(rcu_stress, map_defaults)
{
    map_run(&sm_def_ops, cfg_for(2, 3, 100000, "rcu_stress/map_defaults"));
}

Test(rcu_stress, extent_small)
{
    ext_run(&sx_small_ops, cfg_for(3, 3, 100000, "rcu_stress/extent_small"));
}

Test(rcu_stress, extent_defaults)
{
    ext_run(&sx_def_ops, cfg_for(4, 2, 60000, "rcu_stress/extent_defaults"));
}

Test(rcu_stress, map_library_alloc)
{
    map_run(&sm_small_ops,
            library_alloc(cfg_for(3, 3, 60000, "rcu_stress/map_library")));
}

Test(rcu_stress, extent_library_alloc)
{
    ext_run(&sx_small_ops,
            library_alloc(cfg_for(3, 3, 40000, "rcu_stress/extent_library")));
}

/* Every writer on the same keys: exactly one insert of a key wins. */
Test(rcu_stress, map_same_keys)
{
    duel_run(&sm_small_ops, cfg_for(4, 2, 200000, "rcu_stress/map_same_keys"));
}

Test(rcu_stress, map_tiny)
{
    map_run(&sm_tiny_ops, cfg_for(3, 3, 25000, "rcu_stress/map_tiny"));
}

Test(rcu_stress, extent_tiny)
{
    ext_run(&sx_tiny_ops, cfg_for(3, 3, 30000, "rcu_stress/extent_tiny"));
}

Test(rcu_stress, extent_hole_edge)
{
    edge_run(&sx_small_ops,
             cfg_for(1, 2, 40000, "rcu_stress/extent_hole_edge"));
}
