/*
 * Linkage of skiplist_rcu.h, as tests/test_linkage.c for skiplist.h: the
 * split PROTOTYPE/GENERATE form of both faces used from two translation
 * units (this file and test_rcu_linkage_gen.c, which generates them;
 * linkage.h declares them), next to a static SKIPLIST_RCU_DEFINE of the
 * same element type in this file. The readers are called through const
 * pointers, as their prototypes allow.
 */
#include <criterion/criterion.h>

#include "linkage.h"

/* A static instantiation beside the external ones, on the same element. */
#define RL_NEG_KEY(e) (-(int64_t)(e)->key)
SKIPLIST_RCU_DEFINE(rl_desc, struct rl_item, int64_t, RL_NEG_KEY,
                    SKIPLIST_CMP_NUM, SKIPLIST_RCU_DEFAULTS)

static void rl_setup(void)
{
    rcu_register_thread();
}

static void rl_teardown(void)
{
    rcu_unregister_thread();
}

TestSuite(rcu_x_linkage, .init = rl_setup, .fini = rl_teardown);

Test(rcu_x_linkage, map_split_form_across_translation_units)
{
    enum { N = 300 };
    static struct rl_item items[N];
    struct rl_map m;
    struct rl_desc d;
    const struct rl_map *cm = &m;
    uint64_t want = 0;
    for (size_t i = 0; i < N; i++) {
        items[i].key = (uint32_t)((i * 37) % N) * 3u;
        items[i].payload = (int)i;
        want += items[i].key;
    }
    cr_assert_eq(rl_map_init(&m, NULL, 1), 0);
    cr_assert_eq(rl_desc_init(&d, NULL, 2), 0);
    cr_assert_eq(rl_map_fill(&m, items, N), 0); /* the other unit */
    for (size_t i = 0; i < N; i++)
        cr_assert_eq(rl_desc_insert(&d, &items[i], NULL), 0);
    cr_assert_eq(rl_map_count(cm), N);
    cr_assert_eq(rl_map_sum(cm), want);

    skiplist_rcu_read_lock();
    cr_assert_eq(rl_map_find(cm, 3)->key, 3);
    cr_assert_null(rl_map_find(cm, 4));
    cr_assert_eq(rl_map_lower_bound(cm, 4)->key, 6);
    cr_assert_eq(rl_map_upper_bound(cm, 6)->key, 9);
    cr_assert_eq(rl_map_floor(cm, 8)->key, 6);
    cr_assert_eq(rl_map_below(cm, 6)->key, 3);
    cr_assert_eq(rl_map_first(cm)->key, 0);
    cr_assert_eq(rl_map_last(cm)->key, 3u * (N - 1));
    /* The static list orders the same elements the other way. */
    cr_assert_eq(rl_desc_first(&d)->key, 3u * (N - 1));
    struct rl_map_iter it;
    uint32_t prev = 0;
    size_t n = 0;
    for (struct rl_item *e = rl_map_iter_seek(&it, cm, 0); e;
         e = rl_map_iter_next(&it), n++) {
        cr_assert(n == 0 || e->key > prev);
        prev = e->key;
    }
    cr_assert_eq(n, N);
    cr_assert_eq(rl_map_iter_last(&it, cm)->key, 3u * (N - 1));
    cr_assert_eq(rl_map_iter_prev(&it)->key, 3u * (N - 2));
    skiplist_rcu_read_unlock();

    struct rl_item *out = NULL;
    cr_assert_eq(rl_map_erase_key(&m, 3, &out), 0);
    cr_assert_eq(out->key, 3);
    cr_assert_eq(rl_map_erase(&m, &items[0]), 0);
    cr_assert_eq(rl_map_count(cm), N - 2);
    struct skiplist_rcu_stats st;
    rl_map_stats(cm, &st);
    cr_assert_gt(st.splits, 0);
    char why[128] = "";
    cr_assert_eq(rl_map_check(cm, why, sizeof(why)), 0, "%s", why);
    cr_assert_eq(rl_desc_check(&d, why, sizeof(why)), 0, "%s", why);
    rl_map_destroy(&m, NULL, NULL);
    rl_desc_destroy(&d, NULL, NULL);
}

Test(rcu_x_linkage, extent_split_form_across_translation_units)
{
    enum { N = 200 };
    static struct rl_span spans[N];
    static struct rl_span hole = {0, 7};
    struct rl_ext x;
    const struct rl_ext *cx = &x;
    uint64_t want = 0;
    for (size_t i = 0; i < N; i++) {
        /* [10 i, 10 i + 4): free runs of 6 between them */
        spans[i].start = (uint32_t)(((i * 7) % N) * 10u);
        spans[i].size = 4;
        want += spans[i].size;
    }
    cr_assert_eq(rl_ext_init(&x, NULL, 3), 0);
    cr_assert_eq(rl_ext_fill(&x, spans, N), 0); /* the other unit */
    cr_assert_eq(rl_ext_count(cx), N);
    cr_assert_eq(rl_ext_sum(cx), want);

    skiplist_rcu_read_lock();
    cr_assert_eq(rl_ext_lookup(cx, 23)->start, 20);
    cr_assert_null(rl_ext_lookup(cx, 25));
    struct rl_span *first = NULL;
    cr_assert_eq(rl_ext_first_overlap(cx, 25, 41, &first), 0);
    cr_assert_eq(first->start, 30);
    struct rl_ext_iter it;
    size_t n = 0;
    for (struct rl_span *e = rl_ext_iter_overlap(&it, cx, 25, 41); e;
         e = rl_ext_iter_next_overlap(&it))
        n++;
    cr_assert_eq(n, 2); /* [30, 34) and [40, 44) */
    skiplist_rcu_read_unlock();

    cr_assert_eq(
        rl_ext_insert_hole(&x, &hole, 1, 0, UINT32_MAX, SKIPLIST_HOLE_LOWEST),
        0);
    cr_assert_eq(hole.start, 10u * (N - 1) + 4); /* runs of 6 before */
    cr_assert_eq(rl_ext_erase(&x, &spans[0]), 0);
    cr_assert_eq(rl_ext_count(cx), N);
    char why[128] = "";
    cr_assert_eq(rl_ext_check(cx, why, sizeof(why)), 0, "%s", why);
    rl_ext_destroy(&x, NULL, NULL);
}
