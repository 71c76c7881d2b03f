/*
 * The B-skiplist index at its edges: an index capped at one level (the root
 * grows wider instead of splitting), no index at all (MAXLVL 1), the index
 * appearing with the second leaf and going with the last, and the
 * allocator's view of it (levels 0, 1, 2, and nothing leaked). Every step
 * is checked against a sorted model and by check().
 */
#include <criterion/criterion.h>

#include "test_common.h"

struct ix_item {
    uint64_t key;
};
#define IX_KEY(e) ((e)->key)

/* KPN 4 so that a few thousand keys make hundreds of leaves. */
SKIPLIST_DEFINE(ix_flat, struct ix_item, uint64_t, IX_KEY, SKIPLIST_CMP_NUM, 4,
                2, 2)
SKIPLIST_DEFINE(ix_none, struct ix_item, uint64_t, IX_KEY, SKIPLIST_CMP_NUM, 4,
                1, 2)
SKIPLIST_DEFINE(ix_deep, struct ix_item, uint64_t, IX_KEY, SKIPLIST_CMP_NUM, 4,
                32, 1)

enum { IX_N = 3000 };

/* Keys 0, 3, 6, ... shuffled: absent keys sit between present ones. */
static void ix_shuffle(struct ix_item *v, unsigned n, struct tc_rng *r)
{
    for (unsigned i = 0; i < n; i++)
        v[i].key = 3u * i;
    for (unsigned i = n; i > 1; i--) {
        unsigned j = (unsigned)tc_below(r, i);
        struct ix_item t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

/* The same test body for each instance: insert all (checking every 97th
 * step and finds of every key so far at the end), then erase all in
 * another order, the index and the allocations followed throughout. */
#define IX_RUN(name, want_root_when_big)                                       \
    do {                                                                       \
        static struct ix_item v[IX_N];                                         \
        struct tc_rng r;                                                       \
        tc_rng_init(&r, tc_seed(#name));                                       \
        ix_shuffle(v, IX_N, &r);                                               \
        struct tc_alloc ta;                                                    \
        tc_alloc_init(&ta);                                                    \
        struct name sl;                                                        \
        char why[256];                                                         \
        cr_assert_eq(name##_init(&sl, &ta.iface, 7), 0);                       \
        unsigned max_top = 0, max_cap = 0;                                     \
        for (unsigned i = 0; i < IX_N; i++) {                                  \
            cr_assert_eq(name##_insert(&sl, &v[i], NULL), 0);                  \
            if (sl.sl.aux->top > max_top)                                      \
                max_top = sl.sl.aux->top;                                      \
            if (sl.sl.root && sl.sl.root->cap > max_cap)                       \
                max_cap = sl.sl.root->cap;                                     \
            cr_assert_eq(!sl.sl.root,                                          \
                         sl.sl.nleaves < 2 || !(want_root_when_big),           \
                         "step %u: root with %zu leaves", i, sl.sl.nleaves);   \
            if (i % 97 == 0)                                                   \
                cr_assert_eq(name##_check(&sl, why, sizeof why), 0,            \
                             "insert %u: %s", i, why);                         \
        }                                                                      \
        cr_assert_eq(name##_check(&sl, why, sizeof why), 0, "%s", why);        \
        for (unsigned i = 0; i < IX_N; i++) {                                  \
            cr_assert_eq(name##_find(&sl, v[i].key), &v[i]);                   \
            cr_assert_null(name##_find(&sl, v[i].key + 1u));                   \
            struct ix_item *lb = name##_lower_bound(&sl, v[i].key + 1u);       \
            if (v[i].key + 3u < 3u * IX_N)                                     \
                cr_assert(lb && lb->key == v[i].key + 3u, "lb after %" PRIu64, \
                          v[i].key);                                           \
            else                                                               \
                cr_assert_null(lb);                                            \
        }                                                                      \
        static uint64_t order[IX_N]; /* a new order, same keys */              \
        for (unsigned i = 0; i < IX_N; i++)                                    \
            order[i] = v[i].key;                                               \
        for (unsigned i = IX_N; i > 1; i--) {                                  \
            unsigned j = (unsigned)tc_below(&r, i);                            \
            uint64_t t = order[i - 1];                                         \
            order[i - 1] = order[j];                                           \
            order[j] = t;                                                      \
        }                                                                      \
        for (unsigned i = 0; i < IX_N; i++) {                                  \
            struct ix_item *out = NULL;                                        \
            cr_assert_eq(name##_erase_key(&sl, order[i], &out), 0);            \
            cr_assert_eq(out->key, order[i]);                                  \
            cr_assert_null(name##_find(&sl, order[i]));                        \
            if (i % 89 == 0 || IX_N - i < 8)                                   \
                cr_assert_eq(name##_check(&sl, why, sizeof why), 0,            \
                             "erase %u: %s", i, why);                          \
        }                                                                      \
        cr_assert_eq(name##_count(&sl), 0);                                    \
        cr_assert_null(sl.sl.root, "an empty list keeps no index");            \
        name##_destroy(&sl, NULL, NULL);                                       \
        cr_assert_eq(ta.live, 0, "%ld blocks leaked", (long)ta.live);          \
        cr_assert_eq(ta.bad_frees, 0);                                         \
        ix_report(#name, max_top, max_cap, &ta);                               \
    } while (0)

static unsigned ix_last_max_top, ix_last_max_cap;

static void ix_report(const char *name, unsigned max_top, unsigned max_cap,
                      const struct tc_alloc *ta)
{
    ix_last_max_top = max_top;
    ix_last_max_cap = max_cap;
    fprintf(stderr,
            "index %s: %u keys, index up to %u levels, root up to %u "
            "entries of room, allocator levels up to %u\n",
            name, (unsigned)IX_N, max_top, max_cap, ta->max_level);
}

/* MAXLVL 2: one index level. Hundreds of leaves under one root, which can
 * only grow (allocator level 2), and shrinks away again. */
Test(index, one_level_root_grows_and_goes)
{
    IX_RUN(ix_flat, 1);
    cr_assert_eq(ix_last_max_top, 1u);
    cr_assert_gt(ix_last_max_cap, ix_flat_slx_type.icap, "the root never grew");
}

/* MAXLVL 1: no index; searches walk the leaves. */
Test(index, no_index_walks_the_leaves)
{
    IX_RUN(ix_none, 0);
    cr_assert_eq(ix_last_max_top, 0u);
}

/* PSHIFT 1 (fanout 2, nodes of 4 entries): a deep index, every split,
 * merge and root change exercised many times over. */
Test(index, deep_index_splits_and_merges)
{
    IX_RUN(ix_deep, 1);
    cr_assert_geq(ix_last_max_top, 5u, "a shallow index: %u levels",
                  ix_last_max_top);
}
