/*
 * skiplist_rcu.h paths the other suites leave unrun (make coverage found
 * them), one thread: skiplist_rcu_call() with a callback that starts with
 * skiplist_rcu_callback_enter(); iterators stepped past either end; an
 * overlap iteration over an empty range (lo > hi); destroy after an init
 * that failed.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, in rcu_common.h */

#include <criterion/criterion.h>

#include "rcu_ops.h"

SKIPLIST_RCU_DEFINE(pm, struct map_item, uint64_t, MAP_ITEM_KEY,
                    SKIPLIST_CMP_NUM, 4, 4, 1)
SKIPLIST_RCU_EXTENT_DEFINE(pe, struct rext, uint64_t, start, size, 4, 4, 1)

static void xp_setup(void)
{
    rcu_register_thread();
}

static void xp_teardown(void)
{
    rcu_unregister_thread();
}

TestSuite(rcu_x_cov_paths, .init = xp_setup, .fini = xp_teardown);

/* A caller's own object, freed after a grace period by its callback. */
struct xp_obj {
    struct rcu_head rcu;
    atomic_int *ran;
};

static void xp_free(struct rcu_head *head)
{
    skiplist_rcu_callback_enter(head);
    struct xp_obj *o = (struct xp_obj *)(void *)head; /* rcu is first */
    atomic_fetch_add(o->ran, 1);
    free(o);
}

Test(rcu_x_cov_paths, call_runs_the_callback_after_a_grace_period)
{
    static atomic_int ran;
    atomic_store(&ran, 0);
    for (int i = 0; i < 3; i++) {
        struct xp_obj *o = (struct xp_obj *)malloc(sizeof(*o));
        cr_assert_not_null(o);
        o->ran = &ran;
        skiplist_rcu_call(&o->rcu, xp_free);
    }
    rt_offline();
    rcu_barrier(); /* every callback queued before it has run */
    rt_online();
    cr_assert_eq(atomic_load(&ran), 3);
}

/* Past the last element next gives NULL, and keeps giving it; likewise
 * prev before the first; an empty list has neither. */
Test(rcu_x_cov_paths, iterators_stay_null_past_the_ends)
{
    struct pm m;
    struct pm_iter it;
    struct map_item v[3] = {{.key = 10}, {.key = 20}, {.key = 30}};
    cr_assert_eq(pm_init(&m, NULL, 1), 0);
    skiplist_rcu_read_lock();
    cr_assert_null(pm_iter_first(&it, &m));
    cr_assert_null(pm_iter_next(&it));
    cr_assert_null(pm_iter_prev(&it));
    skiplist_rcu_read_unlock();
    for (int i = 0; i < 3; i++)
        cr_assert_eq(pm_insert(&m, &v[i], NULL), 0);
    skiplist_rcu_read_lock();
    cr_assert_eq(pm_iter_last(&it, &m), &v[2]);
    cr_assert_null(pm_iter_next(&it));
    cr_assert_null(pm_iter_next(&it));
    cr_assert_null(pm_iter_prev(&it));
    cr_assert_eq(pm_iter_first(&it, &m), &v[0]);
    cr_assert_null(pm_iter_prev(&it));
    cr_assert_null(pm_iter_prev(&it));
    cr_assert_null(pm_iter_next(&it));
    skiplist_rcu_read_unlock();
    pm_destroy(&m, NULL, NULL);
}

/* [lo, hi] with lo > hi holds no point: no extent overlaps it, and the
 * iteration it starts has nothing next. */
Test(rcu_x_cov_paths, overlap_iteration_of_an_empty_range)
{
    struct pe m;
    struct pe_iter it;
    struct rext e = {.start = 100, .size = 50};
    cr_assert_eq(pe_init(&m, NULL, 1), 0);
    cr_assert_eq(pe_insert(&m, &e, NULL), 0);
    skiplist_rcu_read_lock();
    cr_assert_eq(pe_iter_overlap(&it, &m, 120, 130), &e);
    cr_assert_null(pe_iter_next_overlap(&it));
    cr_assert_null(pe_iter_overlap(&it, &m, 130, 120));
    cr_assert_null(pe_iter_next_overlap(&it));
    skiplist_rcu_read_unlock();
    pe_destroy(&m, NULL, NULL);
}

/* An init that failed left nothing to free: destroy does nothing (no
 * element callback, no free call, no block left behind). */
static void xp_count(struct map_item *e, void *arg)
{
    (void)e;
    ++*(int *)arg;
}

Test(rcu_x_cov_paths, destroy_after_a_failed_init_frees_nothing)
{
    for (unsigned long k = 1; k <= 3; k++) {
        struct ra ra;
        ra_init(&ra);
        ra_fail_at(&ra, k);
        struct pm m;
        int rc = pm_init(&m, &ra.iface, 1);
        if (rc == 0) { /* init makes fewer than k blocks */
            pm_destroy(&m, NULL, NULL);
            ra_fini(&ra);
            cr_assert_gt(k, 1u);
            break;
        }
        cr_assert_eq(rc, -ENOMEM);
        unsigned long frees = atomic_load(&ra.frees);
        int calls = 0;
        pm_destroy(&m, xp_count, &calls);
        cr_assert_eq(calls, 0);
        cr_assert_eq(atomic_load(&ra.frees), frees);
        rt_offline();
        rcu_barrier();
        rt_online();
        cr_assert_eq(atomic_load(&ra.live), 0);
        ra_fini(&ra);
    }
}
