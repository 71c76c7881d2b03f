/*
 * skiplist.h engine paths the other suites leave unrun (make coverage
 * found them): the one seed that mixes to a zero generator state, destroy
 * after a failed init, the root of a one-level index failing to grow, and
 * a list big enough to carve its leaves out of huge-page chunks, across a
 * chunk's end.
 */
#include <criterion/criterion.h>

#include "test_common.h"

struct ce_item {
    uint64_t key;
};
#define CE_KEY(e) ((e)->key)
SKIPLIST_DEFINE(ce_map, struct ce_item, uint64_t, CE_KEY, SKIPLIST_CMP_NUM, 4,
                8, 1)
/* Fanout 8 under 31 index levels: a few thousand leaves need about 4. */
SKIPLIST_DEFINE(ce_deep, struct ce_item, uint64_t, CE_KEY, SKIPLIST_CMP_NUM, 4,
                32, 3)
/* MAXLVL 2: one index level, whose root grows wider instead of splitting. */
SKIPLIST_DEFINE(ce_flat, struct ce_item, uint64_t, CE_KEY, SKIPLIST_CMP_NUM, 2,
                2, 1)

static void ce_clean(const struct ce_map *m)
{
    char why[256] = "";
    cr_assert_eq(ce_map_check(m, why, sizeof why), 0, "%s", why);
}

/* slx_init mixes the seed as (seed ^ golden) * odd: this seed gives 0, a
 * state the generator would never leave. The list must still draw
 * levels: its state is not zero, and an index grows as usual. */
Test(cov_engine, seed_that_mixes_to_zero_still_draws_levels)
{
    static struct ce_item v[4000];
    struct ce_deep m;
    char why[256] = "";
    cr_assert_eq(ce_deep_init(&m, NULL, UINT64_C(0x9E3779B97F4A7C15)), 0);
    cr_assert_neq(m.sl.rng, 0u);
    for (unsigned i = 0; i < 4000; i++) {
        v[i].key = (i * 7919u) % 4000u;
        cr_assert_eq(ce_deep_insert(&m, &v[i], NULL), 0);
    }
    cr_assert_eq(ce_deep_check(&m, why, sizeof why), 0, "%s", why);
    /* a zero state draws no 1 bits: every new leaf would get the cap
     * height, one above the root, and the root would climb to level 31 */
    cr_assert_lt(m.sl.aux->top, 12u, "top %u: heights not random",
                 m.sl.aux->top);
    cr_assert_gt(m.sl.aux->top, 1u);
    ce_deep_destroy(&m, NULL, NULL);
}

static void ce_count(struct ce_item *e, void *arg)
{
    (void)e;
    ++*(int *)arg;
}

/* A failed init leaves nothing: destroy calls nothing and frees nothing. */
Test(cov_engine, destroy_after_a_failed_init_frees_nothing)
{
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    tc_alloc_fail_at(&ta, 1);
    struct ce_map m;
    cr_assert_eq(ce_map_init(&m, &ta.iface, 1), -ENOMEM);
    int calls = 0;
    ce_map_destroy(&m, ce_count, &calls);
    cr_assert_eq(calls, 0);
    cr_assert_eq(ta.frees, 0u);
    cr_assert_eq(ta.live, 0);
    cr_assert_eq(ta.bad_frees, 0u);
}

/* Every allocation of every insert fails once in turn, the growth of the
 * one-level index's root among them: each failure is -ENOMEM with the
 * list unchanged (checked, same count), and the retry succeeds. */
Test(cov_engine, root_growth_fails_cleanly)
{
    enum { N = 600 };
    static struct ce_item v[N];
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    struct ce_flat m;
    char why[256] = "";
    cr_assert_eq(ce_flat_init(&m, &ta.iface, 3), 0);
    unsigned full_refused = 0; /* a full root, a failure, the root as was */
    for (unsigned i = 0; i < N; i++) {
        v[i].key = (i * 7919u) % N;
        for (unsigned long k = 1;; k++) {
            const struct slx_inode *root = m.sl.root;
            int full = root && root->n == root->cap;
            size_t count = m.sl.count;
            tc_alloc_fail_at(&ta, k);
            int rc = ce_flat_insert(&m, &v[i], NULL);
            tc_alloc_heal(&ta);
            cr_assert_eq(ce_flat_check(&m, why, sizeof why), 0, "%s", why);
            if (rc == 0)
                break;
            cr_assert_eq(rc, -ENOMEM);
            cr_assert_eq(m.sl.count, count);
            /* (a root grown before a later allocation failed may stay
             * grown: room kept, as the stash keeps its nodes) */
            full_refused += full && m.sl.root == root;
        }
    }
    cr_assert_gt(full_refused, 0u, "no failure met a full root");
    cr_assert_gt(m.sl.root->cap, 2u << 1, "the root never grew");
    cr_assert_eq(m.sl.count, (size_t)N);
    ce_flat_destroy(&m, NULL, NULL);
    cr_assert_eq(ta.live, 0);
    cr_assert_eq(ta.bad_frees, 0u);
}

/* Past 2048 leaves the default allocator carves slabs out of 2 MiB
 * chunks (Linux), the last slab of a chunk cut to what is left. A list
 * of tens of thousands of small leaves crosses several chunk ends; it
 * must stay whole through inserts and erases. */
Test(cov_engine, leaves_across_huge_page_chunks, .timeout = 120)
{
    enum { N = 120000 };
    struct ce_item *v = (struct ce_item *)malloc(N * sizeof(*v));
    cr_assert_not_null(v);
    struct ce_map m;
    cr_assert_eq(ce_map_init(&m, NULL, 11), 0);
    for (unsigned i = 0; i < N; i++) {
        v[i].key = (uint64_t)((i * 7919u) % N);
        cr_assert_eq(ce_map_insert(&m, &v[i], NULL), 0);
    }
    ce_clean(&m);
    cr_assert_gt(m.sl.nleaves, 2048u);
#if SLX_HUGEPAGES
    cr_assert_not_null(m.sl.aux->pool.chunk, "no chunk carved");
    cr_assert_gt(m.sl.aux->bytes, (size_t)2 << 20);
#endif
    for (unsigned i = 0; i < N; i++)
        cr_assert_eq(ce_map_find(&m, v[i].key), &v[i]);
    for (unsigned i = 0; i < N; i += 2) {
        struct ce_item *out = NULL;
        cr_assert_eq(ce_map_erase_key(&m, v[i].key, &out), 0);
        cr_assert_eq(out, &v[i]);
    }
    ce_clean(&m);
    cr_assert_eq(m.sl.count, (size_t)N / 2);
    for (unsigned i = 0; i < N; i++)
        cr_assert_eq(ce_map_find(&m, v[i].key), i % 2 ? &v[i] : NULL);
    ce_map_destroy(&m, NULL, NULL);
    free(v);
}

/* ---------------------------------------------------- a queued copy */

struct ce_task {
    uint64_t key;
    struct skiplist_hook hook;
};
#define CE_TKEY(e) ((e)->key)
SKIPLIST_PQ_DEFINE(ce_q, struct ce_task, uint64_t, CE_TKEY, SKIPLIST_CMP_NUM,
                   hook, SKIPLIST_PQ_DEFAULTS)

/* A struct copy of a queued element carries its hook (leaf and queue) but
 * is not queued: remove must answer -ENOENT and change nothing, whether
 * the leaf is found by a pointer scan (a sole leaf of a few elements) or
 * by the wide compare of a leaf of more than 16 (the default KPN 64). */
static void ce_copy_not_queued(unsigned n)
{
    struct ce_task *v = (struct ce_task *)calloc(n, sizeof(*v));
    cr_assert_not_null(v);
    struct ce_q q;
    char why[256] = "";
    cr_assert_eq(ce_q_init(&q, NULL, 2), 0);
    for (unsigned i = 0; i < n; i++) {
        skiplist_hook_init(&v[i].hook);
        v[i].key = (i * 7919u) % n;
        cr_assert_eq(ce_q_push(&q, &v[i]), 0);
    }
    for (unsigned i = 0; i < n; i += n / 4 + 1) {
        struct ce_task copy = v[i];
        cr_assert_eq(ce_q_remove(&q, &copy), -ENOENT, "copy of element %u", i);
        cr_assert_eq(ce_q_count(&q), (size_t)n);
        cr_assert_eq(ce_q_check(&q, why, sizeof why), 0, "%s", why);
    }
    for (unsigned k = 0; k < n; k++) {
        struct ce_task *t = ce_q_pop(&q);
        cr_assert_not_null(t);
        cr_assert_eq(t->key, k);
    }
    ce_q_destroy(&q, NULL, NULL);
    free(v);
}

Test(cov_engine, remove_of_a_copy_of_a_queued_element)
{
    ce_copy_not_queued(6);    /* one leaf, scanned */
    ce_copy_not_queued(2000); /* leaves of 32-64: compared in a window */
}
