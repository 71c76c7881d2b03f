/*
 * Linkage matrix: the split PROTOTYPE/GENERATE form used from two
 * translation units (this file and linkage_a.c, generated in
 * linkage_gen.c), and two static SKIPLIST_DEFINE instantiations of
 * different key types side by side in this file, next to the external one.
 * C99/C11 and C++ compiles of the header are make rules (tests.mk).
 */
#include <criterion/criterion.h>

#include "linkage.h"

/* Two static instantiations in one file, one on the same element type as
 * the external lmap. */
#define LITEM_NEG_KEY(e) (-(int64_t)(e)->key)
SKIPLIST_DEFINE(lmap_desc, struct litem, int64_t, LITEM_NEG_KEY,
                SKIPLIST_CMP_NUM, 4, 8, 1)

struct named {
    const char *name;
    double weight;
};
#define NAMED_KEY(e) ((e)->weight)
SKIPLIST_DEFINE(wmap, struct named, double, NAMED_KEY, SKIPLIST_CMP_NUM,
                SKIPLIST_DEFAULTS)

Test(linkage, split_form_across_translation_units)
{
    enum { N = 500 };
    static struct litem items[N];
    struct lmap m;
    struct lmap_iter it;
    struct litem *e;
    uint64_t want = 0;
    for (size_t i = 0; i < N; i++) {
        items[i].key = (uint32_t)((i * 37) % N) * 3u;
        want += items[i].key;
    }
    cr_assert_eq(lmap_init(&m, NULL, 1), 0);
    cr_assert_eq(linkage_a_fill(&m, items, N), 0);
    cr_assert_eq(lmap_count(&m), N);
    cr_assert_eq(linkage_a_sum(&m), want);
    /* Used from this translation unit as well. */
    cr_assert_eq(lmap_find(&m, 3)->key, 3);
    cr_assert_null(lmap_find(&m, 4));
    uint32_t prev = 0;
    size_t n = 0;
    SKIPLIST_FOREACH (lmap, &m, it, e) {
        cr_assert(n == 0 || e->key > prev);
        prev = e->key;
        n++;
    }
    cr_assert_eq(n, N);
    char why[128] = "";
    cr_assert_eq(lmap_check(&m, why, sizeof(why)), 0, "%s", why);
    lmap_destroy(&m, NULL, NULL);
}

Test(linkage, instantiations_side_by_side)
{
    enum { N = 200 };
    static struct litem items[N];
    static struct named names[N];
    struct lmap up;
    struct lmap_desc down;
    struct wmap w;
    cr_assert_eq(lmap_init(&up, NULL, 2), 0);
    cr_assert_eq(lmap_desc_init(&down, NULL, 3), 0);
    cr_assert_eq(wmap_init(&w, NULL, 4), 0);
    for (size_t i = 0; i < N; i++) {
        items[i].key = (uint32_t)i;
        names[i].weight = (double)i / 4.0;
        names[i].name = "n";
        /* The same element in two lists at once: intrusive, no copies. */
        cr_assert_eq(lmap_insert(&up, &items[i], NULL), 0);
        cr_assert_eq(lmap_desc_insert(&down, &items[i], NULL), 0);
        cr_assert_eq(wmap_insert_multi(&w, &names[i]), 0);
    }
    cr_assert_eq(lmap_first(&up), &items[0]);
    cr_assert_eq(lmap_desc_first(&down), &items[N - 1]);
    cr_assert_eq(wmap_lower_bound(&w, 10.1), &names[41]);
    cr_assert_eq(wmap_floor(&w, 10.1), &names[40]);
    cr_assert_eq(lmap_desc_erase(&down, &items[5]), 0);
    cr_assert_eq(lmap_find(&up, 5), &items[5], "erase touched the other list");
    cr_assert_eq(lmap_desc_count(&down), N - 1);
    lmap_destroy(&up, NULL, NULL);
    lmap_desc_destroy(&down, NULL, NULL);
    wmap_destroy(&w, NULL, NULL);
}
