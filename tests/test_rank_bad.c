/*
 * Bad input on the ranked instances (SKIPLIST_RANKED_DEFINE,
 * SKIPLIST_EXTENT_RANKED_DEFINE): the rows of docs/errors.md on rank_of,
 * at, iter_at, FOREACH_AT, rank and count_range. None of these is an
 * error in the sense of a refused write, but each has a documented answer
 * at the edges (NULL element, an element of another list, a position at
 * or past the count, lo > hi, an empty list), and none may change the
 * list: check() (which verifies every count), count, bytes, every element
 * in order, and no call into the allocator. Every test ends with zero
 * live blocks.
 */
#include <criterion/criterion.h>
#include <inttypes.h>

#include "test_common.h"
#include "model_map.h"

SKIPLIST_RANKED_DEFINE(br_map, struct map_item, uint64_t, MAP_ITEM_KEY,
                       SKIPLIST_CMP_NUM, 4, 8, 1)

struct brx {
    uint64_t start, size;
};
SKIPLIST_EXTENT_RANKED_DEFINE(br_ext, struct brx, uint64_t, start, size, 4, 8,
                              1)

enum { BR_N = 60, BR_SNAP = 128 };

/* What no query may change. */
struct br_snap {
    size_t n, bytes;
    unsigned long calls;
    const void *e[BR_SNAP];
};

/* The snapshot and its comparison for one face, through its own names. */
#define BR_SNAP_FNS(name, T)                                                  \
    static struct br_snap name##_take(const struct name *sl,                  \
                                      const struct tc_alloc *ta)              \
    {                                                                         \
        struct br_snap s = {                                                  \
            name##_count(sl), name##_bytes(sl), ta->calls, {0}};              \
        struct name##_iter it;                                                \
        size_t i = 0;                                                         \
        for (T *e = name##_iter_first(&it, sl); e;                            \
             e = name##_iter_next(&it)) {                                     \
            cr_assert_lt(i, BR_SNAP);                                         \
            s.e[i++] = e;                                                     \
        }                                                                     \
        cr_assert_eq(i, s.n);                                                 \
        return s;                                                             \
    }                                                                         \
    static void name##_same(const struct name *sl, const struct tc_alloc *ta, \
                            const struct br_snap *was, const char *what)      \
    {                                                                         \
        char why[256] = "";                                                   \
        cr_assert_eq(name##_check(sl, why, sizeof why), 0, "%s: check: %s",   \
                     what, why);                                              \
        struct br_snap now = name##_take(sl, ta);                             \
        cr_assert_eq(now.n, was->n, "%s: count", what);                       \
        cr_assert_eq(now.bytes, was->bytes, "%s: bytes", what);               \
        cr_assert_eq(now.calls, was->calls, "%s: allocated", what);           \
        for (size_t i = 0; i < now.n; i++)                                    \
            cr_assert_eq(now.e[i], was->e[i], "%s: element %zu", what, i);    \
    }
BR_SNAP_FNS(br_map, struct map_item)
BR_SNAP_FNS(br_ext, struct brx)

/* Reads past the end, a NULL element and strangers on the ranked map:
 * rank_of(NULL) is -EINVAL; rank_of of an element never inserted, of one
 * erased, and of one in another list (same key as a member) is -ENOENT;
 * at(n), at(n + 1) and at(SIZE_MAX) are NULL, as is iter_at there, whose
 * iterator then sits at the end (iter_prev gives the last element);
 * FOREACH_AT from n runs no time; count_range with lo > hi is 0; on an
 * empty list rank is 0 and at(0) NULL. */
Test(bad_ranked, map_edges)
{
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    struct br_map sl, other;
    cr_assert_eq(br_map_init(&sl, &ta.iface, 3), 0);
    cr_assert_eq(br_map_init(&other, &ta.iface, 4), 0);

    struct br_snap s0 = br_map_take(&sl, &ta);
    cr_assert_eq(br_map_rank(&sl, 5), 0, "rank on an empty list");
    cr_assert_null(br_map_at(&sl, 0), "at(0) on an empty list");
    cr_assert_eq(br_map_count_range(&sl, 0, UINT64_MAX), 0);
    br_map_same(&sl, &ta, &s0, "empty list");

    static struct map_item v[BR_N], twin, stranger;
    for (size_t i = 0; i < BR_N; i++) {
        v[i].key = 10 * i + 10;
        cr_assert_eq(br_map_insert(&sl, &v[i], NULL), 0);
    }
    cr_assert_eq(br_map_erase(&sl, &v[BR_N / 2]), 0); /* erased: a stranger */
    twin.key = v[3].key; /* same key as a member, in another list */
    cr_assert_eq(br_map_insert(&other, &twin, NULL), 0);
    stranger.key = 7; /* never inserted */

    const size_t n = br_map_count(&sl);
    struct br_snap s = br_map_take(&sl, &ta);
    cr_assert_eq(br_map_rank_of(&sl, NULL), -EINVAL);
    cr_assert_eq(br_map_rank_of(&sl, &stranger), -ENOENT);
    cr_assert_eq(br_map_rank_of(&sl, &v[BR_N / 2]), -ENOENT);
    cr_assert_eq(br_map_rank_of(&sl, &twin), -ENOENT);
    cr_assert_null(br_map_at(&sl, n));
    cr_assert_null(br_map_at(&sl, n + 1));
    cr_assert_null(br_map_at(&sl, SIZE_MAX));
    struct br_map_iter it;
    cr_assert_null(br_map_iter_at(&it, &sl, n));
    cr_assert_eq(br_map_iter_prev(&it), br_map_at(&sl, n - 1),
                 "iter_at(n) does not leave the iterator at the end");
    cr_assert_null(br_map_iter_at(&it, &sl, SIZE_MAX));
    struct map_item *e;
    size_t ran = 0;
    SKIPLIST_FOREACH_AT (br_map, &sl, it, e, n)
        ran++;
    cr_assert_eq(ran, 0, "FOREACH_AT(n) ran %zu times", ran);
    cr_assert_eq(br_map_count_range(&sl, 100, 99), 0);
    cr_assert_eq(br_map_count_range(&sl, UINT64_MAX, 0), 0);
    cr_assert_eq(br_map_rank(&sl, UINT64_MAX), n, "rank past every key");
    br_map_same(&sl, &ta, &s, "after the edge queries");

    br_map_destroy(&sl, NULL, NULL);
    br_map_destroy(&other, NULL, NULL);
    cr_assert_eq(ta.live, 0, "%ld blocks leaked", ta.live);
    cr_assert_eq(ta.bad_frees, 0);
}

/* The same edges on the ranked extent index, plus: count_range counts
 * extents that overlap [lo, hi], so a range inside a gap between extents
 * is 0, not an error, and lo > hi is 0 even where both ends fall in one
 * extent. */
Test(bad_ranked, extent_edges)
{
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    struct br_ext sl, other;
    cr_assert_eq(br_ext_init(&sl, &ta.iface, 5), 0);
    cr_assert_eq(br_ext_init(&other, &ta.iface, 6), 0);

    struct br_snap s0 = br_ext_take(&sl, &ta);
    cr_assert_eq(br_ext_rank(&sl, 5), 0);
    cr_assert_null(br_ext_at(&sl, 0));
    cr_assert_eq(br_ext_count_range(&sl, 0, UINT64_MAX), 0);
    br_ext_same(&sl, &ta, &s0, "empty list");

    /* [100 i + 50, +10) */
    static struct brx v[BR_N], twin, stranger;
    for (size_t i = 0; i < BR_N; i++) {
        v[i].start = 100 * i + 50;
        v[i].size = 10;
        cr_assert_eq(br_ext_insert(&sl, &v[i], NULL), 0);
    }
    cr_assert_eq(br_ext_erase(&sl, &v[7]), 0);
    twin = v[3];
    cr_assert_eq(br_ext_insert(&other, &twin, NULL), 0);
    stranger.start = 0;
    stranger.size = 5;

    const size_t n = br_ext_count(&sl);
    struct br_snap s = br_ext_take(&sl, &ta);
    cr_assert_eq(br_ext_rank_of(&sl, NULL), -EINVAL);
    cr_assert_eq(br_ext_rank_of(&sl, &stranger), -ENOENT);
    cr_assert_eq(br_ext_rank_of(&sl, &v[7]), -ENOENT);
    cr_assert_eq(br_ext_rank_of(&sl, &twin), -ENOENT);
    cr_assert_null(br_ext_at(&sl, n));
    cr_assert_null(br_ext_at(&sl, SIZE_MAX));
    struct br_ext_iter it;
    cr_assert_null(br_ext_iter_at(&it, &sl, n));
    cr_assert_eq(br_ext_iter_prev(&it), br_ext_at(&sl, n - 1));
    cr_assert_eq(br_ext_count_range(&sl, 155, 154), 0, "lo > hi in one extent");
    cr_assert_eq(br_ext_count_range(&sl, 60, 149), 0, "a gap");
    cr_assert_eq(br_ext_count_range(&sl, 59, 150), 2, "both neighbours' edges");
    br_ext_same(&sl, &ta, &s, "after the edge queries");

    br_ext_destroy(&sl, NULL, NULL);
    br_ext_destroy(&other, NULL, NULL);
    cr_assert_eq(ta.live, 0, "%ld blocks leaked", ta.live);
    cr_assert_eq(ta.bad_frees, 0);
}
