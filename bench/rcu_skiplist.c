/* skiplist_rcu: ours (skiplist_rcu.h), default configuration, liburcu's
 * memb flavor (the header's default), nodes from malloc (freed on liburcu's
 * call_rcu thread, as the header does it). Readers take a read-side section
 * per lookup, as every RCU peer here does. */
#ifndef _LGPL_SOURCE
#define _LGPL_SOURCE /* liburcu's read side inlined, as for urcu_lfht */
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "skiplist_rcu.h"
#include "bench/rcu_impl.h"

#define RCU_ELEM_KEY(e) ((e)->key)
SKIPLIST_RCU_DEFINE(srcu, struct rcu_elem, uint64_t, RCU_ELEM_KEY,
                    SKIPLIST_CMP_NUM, SKIPLIST_RCU_DEFAULTS)
/* The extent face (mason): [key, key + size), default configuration. */
SKIPLIST_RCU_EXTENT_DEFINE(srx, struct rcu_elem, uint64_t, key, size,
                           SKIPLIST_RCU_DEFAULTS)

/* Level seed: fixed, so a run's shape is the same every time. */
#define SRCU_SEED 0x51ee7ull

static void *srcu_a_create(size_t n)
{
    struct srcu *sl = malloc(sizeof(*sl));
    (void)n;
    if (!sl)
        return NULL;
    rcu_bench_urcu_enter();
    if (srcu_init(sl, NULL, SRCU_SEED) != 0) {
        rcu_bench_urcu_leave();
        free(sl);
        return NULL;
    }
    return sl;
}

static void srcu_a_destroy(void *h)
{
    srcu_destroy(h, NULL, NULL);
    free(h);
    rcu_bench_urcu_leave();
}

static void srcu_a_thread_enter(void *h)
{
    (void)h;
    rcu_bench_urcu_enter();
}

static void srcu_a_thread_leave(void *h)
{
    (void)h;
    rcu_bench_urcu_leave();
}

static size_t srcu_a_count(void *h)
{
    skiplist_rcu_read_lock();
    size_t c = srcu_count(h);
    skiplist_rcu_read_unlock();
    return c;
}

/* Retired nodes go through call_rcu: wait for them to be freed. */
static void srcu_a_settle(void *h)
{
    (void)h;
    rcu_bench_urcu_barrier();
}

static struct rcu_elem *srcu_a_find(void *h, uint64_t key)
{
    skiplist_rcu_read_lock();
    struct rcu_elem *e = srcu_find(h, key);
    skiplist_rcu_read_unlock();
    return e;
}

static uint64_t srcu_a_find_all(void *h, const uint64_t *q, size_t m)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < m; i++) {
        skiplist_rcu_read_lock();
        sum += (uintptr_t)srcu_find(h, q[i]);
        skiplist_rcu_read_unlock();
    }
    return sum;
}

static int srcu_a_insert(void *h, uint64_t key, struct rcu_elem *e)
{
    (void)key;
    return srcu_insert(h, e, NULL) == 0 ? 0 : -1;
}

static struct rcu_elem *srcu_a_erase(void *h, uint64_t key)
{
    struct rcu_elem *e = NULL;
    return srcu_erase_key(h, key, &e) == 0 ? e : NULL;
}

static void srcu_a_synchronize(void *h)
{
    (void)h;
    skiplist_rcu_synchronize();
}

/* Writers' validation retries, leaf splits and merges so far. */
static void srcu_a_report(void *h)
{
    struct skiplist_rcu_stats st;
    srcu_stats(h, &st);
    fprintf(stderr,
            "rcu: skiplist_rcu: so far %llu retries, %llu splits, %llu "
            "merges\n",
            (unsigned long long)st.retries, (unsigned long long)st.splits,
            (unsigned long long)st.merges);
}

/* ------------------------------------------------------ extent face */

static void *srx_a_create(size_t n)
{
    struct srx *sl = malloc(sizeof(*sl));
    (void)n;
    if (!sl)
        return NULL;
    rcu_bench_urcu_enter();
    if (srx_init(sl, NULL, SRCU_SEED) != 0) {
        rcu_bench_urcu_leave();
        free(sl);
        return NULL;
    }
    return sl;
}

static void srx_a_destroy(void *h)
{
    srx_destroy(h, NULL, NULL);
    free(h);
    rcu_bench_urcu_leave();
}

static size_t srx_a_count(void *h)
{
    skiplist_rcu_read_lock();
    size_t c = srx_count(h);
    skiplist_rcu_read_unlock();
    return c;
}

static int srx_a_insert(void *h, struct rcu_elem *e)
{
    struct rcu_elem *clash;
    return srx_insert(h, e, &clash) == 0 ? 0 : -1;
}

static int srx_a_erase(void *h, struct rcu_elem *e)
{
    int r = srx_erase(h, e);
    return r == 0 ? 0 : r == -ENOENT ? -1 : -2;
}

static struct rcu_elem *srx_a_lookup(void *h, uint64_t point)
{
    skiplist_rcu_read_lock();
    struct rcu_elem *e = srx_lookup(h, point);
    skiplist_rcu_read_unlock();
    return e;
}

const struct rcu_impl rcu_impl_skiplist_rcu = {
    .name = "skiplist_rcu",
    .link_bytes = 0,
    .create = srcu_a_create,
    .destroy = srcu_a_destroy,
    .thread_enter = srcu_a_thread_enter,
    .thread_leave = srcu_a_thread_leave,
    .count = srcu_a_count,
    .settle = srcu_a_settle,
    .find = srcu_a_find,
    .find_all = srcu_a_find_all,
    .insert = srcu_a_insert,
    .erase = srcu_a_erase,
    .synchronize = srcu_a_synchronize,
    .report = srcu_a_report,
    .ext_create = srx_a_create,
    .ext_destroy = srx_a_destroy,
    .ext_count = srx_a_count,
    .ext_insert = srx_a_insert,
    .ext_erase = srx_a_erase,
    .ext_lookup = srx_a_lookup,
};
