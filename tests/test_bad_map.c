/*
 * Bad input on the ordered index (SKIPLIST_DEFINE), the rows of
 * docs/errors.md that tests/test_map_badinput.c does not already back:
 * init with half an allocator, keys at the limits of unsigned and signed
 * key types, and a double insert_multi of one element.
 *
 * Every refused call is checked for its exact return value and for an
 * unchanged list: check(), count, bytes, every element in order, and no
 * call into the allocator. Every test ends with zero live blocks.
 * tests/errors/check_table.sh fails when a test here is not named in
 * docs/errors.md.
 */
#include <criterion/criterion.h>

#include "test_common.h"
#include "model_map.h"

/* KPN 4: a few dozen keys make several leaves and an index. */
SKIPLIST_DEFINE(bm_u64, struct map_item, uint64_t, MAP_ITEM_KEY,
                SKIPLIST_CMP_NUM, 4, 8, 1)

struct bm_ikey {
    int64_t key;
};
#define BM_IKEY(e) ((e)->key)
SKIPLIST_DEFINE(bm_i64, struct bm_ikey, int64_t, BM_IKEY, SKIPLIST_CMP_NUM, 4,
                8, 1)

enum { SNAP_MAX = 128 };

/* What a refused call must leave as it was. */
struct bm_snap {
    size_t n, bytes;
    unsigned long calls;
    const void *e[SNAP_MAX];
};

static struct bm_snap bm_take(const struct bm_u64 *sl,
                              const struct tc_alloc *ta)
{
    struct bm_snap s = {bm_u64_count(sl), bm_u64_bytes(sl), ta->calls, {0}};
    struct bm_u64_iter it;
    size_t i = 0;
    for (struct map_item *e = bm_u64_iter_first(&it, sl); e;
         e = bm_u64_iter_next(&it)) {
        cr_assert_lt(i, SNAP_MAX);
        s.e[i++] = e;
    }
    cr_assert_eq(i, s.n, "iteration saw %zu, count says %zu", i, s.n);
    return s;
}

static void bm_same(const struct bm_u64 *sl, const struct tc_alloc *ta,
                    const struct bm_snap *was, const char *what)
{
    char why[256] = "";
    cr_assert_eq(bm_u64_check(sl, why, sizeof why), 0, "%s: check: %s", what,
                 why);
    struct bm_snap now = bm_take(sl, ta);
    cr_assert_eq(now.n, was->n, "%s: count %zu, was %zu", what, now.n, was->n);
    cr_assert_eq(now.bytes, was->bytes, "%s: bytes changed", what);
    cr_assert_eq(now.calls, was->calls, "%s: called the allocator", what);
    for (size_t i = 0; i < now.n; i++)
        cr_assert_eq(now.e[i], was->e[i], "%s: element %zu changed", what, i);
}

static void bm_fini(struct bm_u64 *sl, struct tc_alloc *ta)
{
    bm_u64_destroy(sl, NULL, NULL);
    cr_assert_eq(ta->live, 0, "%ld blocks leaked", ta->live);
    cr_assert_eq(ta->bad_frees, 0);
}

static struct map_item *const POISON = (struct map_item *)&POISON;

/* An allocator missing either function is refused before anything is
 * allocated; so is one missing both. */
Test(bad_map, init_half_allocator)
{
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    const struct skiplist_allocator bad[] = {
        {tc_alloc_cb, NULL, &ta},
        {NULL, tc_free_cb, &ta},
        {NULL, NULL, &ta},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct bm_u64 sl;
        cr_assert_eq(bm_u64_init(&sl, &bad[i], 1), -EINVAL, "allocator %zu", i);
        cr_assert_eq(ta.calls, 0, "allocator %zu: allocated", i);
    }
    cr_assert(tc_no_leaks());
}

/* 0 and UINT64_MAX are ordinary keys: stored, found and ordered; a second
 * element with either is -EEXIST naming the first; absent neighbours of
 * either are -ENOENT; the bounds past either end are NULL. */
Test(bad_map, keys_at_u64_limits)
{
    static const uint64_t keys[] = {
        0, 1, 2, UINT64_MAX / 2, UINT64_MAX - 2, UINT64_MAX};
    enum { NK = sizeof keys / sizeof keys[0] };
    struct map_item v[NK * 8];
    struct tc_alloc ta;
    struct bm_u64 sl;
    tc_alloc_init(&ta);
    cr_assert_eq(bm_u64_init(&sl, &ta.iface, 7), 0);
    /* The limits with filler between, so they sit in different leaves. */
    size_t n = 0;
    for (size_t k = 0; k < NK; k++) {
        v[n].key = keys[k];
        cr_assert_eq(bm_u64_insert(&sl, &v[n++], NULL), 0);
    }
    for (uint64_t f = 0; f < 20; f++) {
        v[n].key = 1000 + f;
        cr_assert_eq(bm_u64_insert(&sl, &v[n++], NULL), 0);
    }
    struct map_item *lo = &v[0], *hi = &v[NK - 1];
    cr_assert_eq(bm_u64_first(&sl), lo);
    cr_assert_eq(bm_u64_last(&sl), hi);
    cr_assert_eq(bm_u64_find(&sl, 0), lo);
    cr_assert_eq(bm_u64_find(&sl, UINT64_MAX), hi);
    cr_assert_null(bm_u64_below(&sl, 0));
    cr_assert_null(bm_u64_upper_bound(&sl, UINT64_MAX));
    cr_assert_eq(bm_u64_floor(&sl, UINT64_MAX), hi);
    cr_assert_eq(bm_u64_lower_bound(&sl, 0), lo);

    struct bm_snap was = bm_take(&sl, &ta);
    struct map_item dup0 = {.key = 0}, dupmax = {.key = UINT64_MAX};
    struct map_item *ex = NULL;
    cr_assert_eq(bm_u64_insert(&sl, &dup0, &ex), -EEXIST);
    cr_assert_eq(ex, lo);
    bm_same(&sl, &ta, &was, "insert(second key 0)");
    cr_assert_eq(bm_u64_insert(&sl, &dupmax, &ex), -EEXIST);
    cr_assert_eq(ex, hi);
    bm_same(&sl, &ta, &was, "insert(second key UINT64_MAX)");
    struct map_item *out = POISON;
    cr_assert_eq(bm_u64_erase_key(&sl, UINT64_MAX - 1, &out), -ENOENT);
    cr_assert_eq(out, POISON, "-ENOENT wrote *out");
    bm_same(&sl, &ta, &was, "erase_key(UINT64_MAX - 1)");
    cr_assert_eq(bm_u64_erase(&sl, &dupmax), -ENOENT);
    bm_same(&sl, &ta, &was, "erase(stranger with key UINT64_MAX)");
    cr_assert_eq(bm_u64_erase(&sl, &dup0), -ENOENT);
    bm_same(&sl, &ta, &was, "erase(stranger with key 0)");

    /* The limits leave as any key does. */
    cr_assert_eq(bm_u64_erase_key(&sl, UINT64_MAX, &out), 0);
    cr_assert_eq(out, hi);
    cr_assert_eq(bm_u64_pop_first(&sl), lo);
    cr_assert_eq(bm_u64_count(&sl), n - 2);
    char why[256] = "";
    cr_assert_eq(bm_u64_check(&sl, why, sizeof why), 0, "%s", why);
    bm_fini(&sl, &ta);
}

/* A signed key type: INT64_MIN sorts first and INT64_MAX last (the
 * comparison is signed, not by bit pattern); duplicates of either are
 * -EEXIST and absent neighbours -ENOENT, the list unchanged. */
Test(bad_map, keys_at_i64_limits)
{
    static const int64_t keys[] = {INT64_MAX,     -1,           0, INT64_MIN, 1,
                                   INT64_MIN + 1, INT64_MAX - 1};
    enum { NK = sizeof keys / sizeof keys[0] };
    struct bm_ikey v[NK];
    struct tc_alloc ta;
    struct bm_i64 sl;
    tc_alloc_init(&ta);
    cr_assert_eq(bm_i64_init(&sl, &ta.iface, 9), 0);
    for (size_t k = 0; k < NK; k++) {
        v[k].key = keys[k];
        cr_assert_eq(bm_i64_insert(&sl, &v[k], NULL), 0);
    }
    cr_assert_eq(bm_i64_first(&sl), &v[3], "INT64_MIN is not first");
    cr_assert_eq(bm_i64_last(&sl), &v[0], "INT64_MAX is not last");
    int64_t prev = INT64_MIN;
    size_t seen = 0;
    struct bm_i64_iter it;
    struct bm_ikey *e;
    SKIPLIST_FOREACH (bm_i64, &sl, it, e) {
        cr_assert_geq(e->key, prev, "order broken at %zu", seen);
        prev = e->key;
        seen++;
    }
    cr_assert_eq(seen, NK);
    const unsigned long calls = ta.calls;
    const size_t bytes = bm_i64_bytes(&sl);
    struct bm_ikey dmin = {INT64_MIN}, dmax = {INT64_MAX}, *ex = NULL, *out;
    cr_assert_eq(bm_i64_insert(&sl, &dmin, &ex), -EEXIST);
    cr_assert_eq(ex, &v[3]);
    cr_assert_eq(bm_i64_insert(&sl, &dmax, &ex), -EEXIST);
    cr_assert_eq(ex, &v[0]);
    out = NULL;
    cr_assert_eq(bm_i64_erase_key(&sl, INT64_MIN + 2, &out), -ENOENT);
    cr_assert_eq(bm_i64_erase_key(&sl, INT64_MAX - 2, &out), -ENOENT);
    cr_assert_null(out);
    cr_assert_eq(bm_i64_erase(&sl, &dmin), -ENOENT);
    cr_assert_null(bm_i64_below(&sl, INT64_MIN));
    cr_assert_null(bm_i64_upper_bound(&sl, INT64_MAX));
    cr_assert_eq(bm_i64_count(&sl), NK);
    cr_assert_eq(bm_i64_bytes(&sl), bytes);
    cr_assert_eq(ta.calls, calls, "a refused call allocated");
    cr_assert_eq(bm_i64_first(&sl), &v[3]);
    cr_assert_eq(bm_i64_last(&sl), &v[0]);
    char why[256] = "";
    cr_assert_eq(bm_i64_check(&sl, why, sizeof why), 0, "%s", why);
    bm_i64_destroy(&sl, NULL, NULL);
    cr_assert_eq(ta.live, 0);
    cr_assert_eq(ta.bad_frees, 0);
}

/* insert_multi does not look for the element itself, only for where its
 * key goes: a second insert_multi of one element is accepted and the
 * element is then listed twice (a multimap of pointers). Each erase takes
 * one copy; the third is -ENOENT. Not documented in api.md (see
 * docs/errors.md). */
Test(bad_map, insert_multi_same_element_twice)
{
    struct map_item v[30];
    struct tc_alloc ta;
    struct bm_u64 sl;
    tc_alloc_init(&ta);
    cr_assert_eq(bm_u64_init(&sl, &ta.iface, 3), 0);
    for (size_t i = 0; i < 30; i++) {
        v[i].key = 10 * i;
        cr_assert_eq(bm_u64_insert_multi(&sl, &v[i]), 0);
    }
    struct map_item *e = &v[12];
    cr_assert_eq(bm_u64_insert_multi(&sl, e), 0);
    cr_assert_eq(bm_u64_count(&sl), 31);
    char why[256] = "";
    cr_assert_eq(bm_u64_check(&sl, why, sizeof why), 0, "%s", why);
    cr_assert_eq(bm_u64_find(&sl, e->key), e);
    cr_assert_eq(bm_u64_upper_bound(&sl, e->key), &v[13]);
    struct bm_u64_iter it;
    cr_assert_eq(bm_u64_iter_seek(&it, &sl, e->key), e);
    cr_assert_eq(bm_u64_iter_next(&it), e, "not listed twice");
    cr_assert_eq(bm_u64_iter_next(&it), &v[13]);
    cr_assert_eq(bm_u64_erase(&sl, e), 0);
    cr_assert_eq(bm_u64_find(&sl, e->key), e, "both copies went");
    cr_assert_eq(bm_u64_erase(&sl, e), 0);
    cr_assert_eq(bm_u64_erase(&sl, e), -ENOENT);
    cr_assert_eq(bm_u64_count(&sl), 29);
    cr_assert_eq(bm_u64_check(&sl, why, sizeof why), 0, "%s", why);
    bm_fini(&sl, &ta);
}
