/*
 * Unit tests of the ordered-index face, one suite per configuration:
 * keys per node 1, 4, the defaults and 64 (test_map_unit_body.h holds the
 * tests; this file instantiates and includes it once per configuration).
 * Two instantiations in one translation unit is covered here as a side
 * effect: four of them coexist.
 */
#include <criterion/criterion.h>

#include "test_common.h"
#include "model_map.h"

SKIPLIST_DEFINE(map_k1, struct map_item, uint64_t, MAP_ITEM_KEY,
                SKIPLIST_CMP_NUM, 1, 32, 1)
SKIPLIST_DEFINE(map_k4, struct map_item, uint64_t, MAP_ITEM_KEY,
                SKIPLIST_CMP_NUM, 4, 8, 2)
SKIPLIST_DEFINE(map_def, struct map_item, uint64_t, MAP_ITEM_KEY,
                SKIPLIST_CMP_NUM, SKIPLIST_DEFAULTS)
SKIPLIST_DEFINE(map_k64, struct map_item, uint64_t, map_item_key,
                SKIPLIST_CMP_NUM, 64, 4, 1)

/* Name pasting for the body: U(insert) is <instance>_insert. The extra
 * level lets UT expand before ## sees it. */
#define U_CAT_(a, b) a##b
#define U_CAT(a, b) U_CAT_(a, b)
#define U(verb) U_CAT(UT, U_CAT(_, verb))
#define SL struct UT
#define IT struct U(iter)
#define U_FOREACH_(n, ...) SKIPLIST_FOREACH (n, __VA_ARGS__)
#define U_FOREACH(...) U_FOREACH_(UT, __VA_ARGS__)
#define U_FOREACH_REVERSE_(n, ...) SKIPLIST_FOREACH_REVERSE (n, __VA_ARGS__)
#define U_FOREACH_REVERSE(...) U_FOREACH_REVERSE_(UT, __VA_ARGS__)
#define U_FOREACH_FROM_(n, ...) SKIPLIST_FOREACH_FROM (n, __VA_ARGS__)
#define U_FOREACH_FROM(...) U_FOREACH_FROM_(UT, __VA_ARGS__)
#define U_FOREACH_SAFE_(n, ...) SKIPLIST_FOREACH_SAFE (n, __VA_ARGS__)
#define U_FOREACH_SAFE(...) U_FOREACH_SAFE_(UT, __VA_ARGS__)

/* A permutation of 0..n-1, deterministic per seed. */
static size_t *shuffled(size_t n, uint64_t seed)
{
    struct tc_rng r;
    size_t *p = (size_t *)malloc((n ? n : 1) * sizeof(*p));
    cr_assert_not_null(p);
    tc_rng_init(&r, seed);
    for (size_t i = 0; i < n; i++)
        p[i] = i;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)tc_below(&r, i);
        size_t t = p[i - 1];
        p[i - 1] = p[j];
        p[j] = t;
    }
    return p;
}

/* Records destroy/clear callbacks: order, count, and the arg passed. */
static struct map_item *cb_seen[2000];
static size_t cb_n;
static bool cb_arg_ok;
static int cb_arg_token;

static void cb_reset(void)
{
    cb_n = 0;
    cb_arg_ok = true;
}

static void record_cb(struct map_item *e, void *arg)
{
    if (arg != &cb_arg_token)
        cb_arg_ok = false;
    if (cb_n < sizeof(cb_seen) / sizeof(cb_seen[0]))
        cb_seen[cb_n] = e;
    cb_n++;
}

#define UT map_k1
#include "test_map_unit_body.h"
#undef UT

#define UT map_k4
#include "test_map_unit_body.h"
#undef UT

#define UT map_def
#include "test_map_unit_body.h"
#undef UT

#define UT map_k64
#include "test_map_unit_body.h"
#undef UT

/* Comparators named SKIPLIST_CMP_NUM search with a plain <; any other
 * takes the three-way path (the descending instances above run on it). */
static int cmp_fn_desc(uint64_t a, uint64_t b)
{
    return MAP_CMP_DESC(a, b);
}

Test(map_unit, cmp_num_recognised_by_name_only)
{
    cr_assert_eq(SLX_IS_CMP_NUM(SKIPLIST_CMP_NUM), 1);
    cr_assert_eq(SLX_IS_CMP_NUM(MAP_CMP_DESC), 0);
    cr_assert_eq(SLX_IS_CMP_NUM(cmp_fn_desc), 0);
    uint64_t lo = 3, hi = 7;
    cr_assert(SLX_LESS(SKIPLIST_CMP_NUM, lo, hi));
    cr_assert(!SLX_LESS(SKIPLIST_CMP_NUM, hi, lo));
    cr_assert(!SLX_LESS(SKIPLIST_CMP_NUM, lo, lo));
    /* descending order: 7 goes before 3 */
    cr_assert(SLX_LESS(cmp_fn_desc, hi, lo));
    cr_assert(!SLX_LESS(cmp_fn_desc, lo, hi));
    cr_assert(!SLX_LESS(MAP_CMP_DESC, lo, lo));
}
