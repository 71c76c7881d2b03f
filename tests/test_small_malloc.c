/*
 * The singleton and the default allocator's malloc failing.
 *
 * A list with the default allocator that has held at most one element
 * since init (or since clear) owns no memory: its element sits in the
 * list's own struct (slx_list.one). Every call must answer on it exactly
 * as on a list whose one element sits in a leaf: here each one runs on
 * both, the second list made with a caller's allocator (which allocates
 * the aux block at init, so that list is never a singleton), and the
 * answers are compared for keys before, at, inside and after the element.
 *
 * The second insert moves the singleton into a leaf, the first memory the
 * list allocates, with malloc. SLX_MALLOC is defined below so that the
 * k-th call fails: every insert from n = 1 to past two leaves is tried
 * with its first, second, ... malloc failing until it succeeds, and each
 * -ENOMEM must leave the list as it was: count, elements, check, and a
 * singleton owning nothing. (A slab the pool took before a later malloc
 * failed stays in the pool, counted in bytes, for the next node: a list
 * with leaves may hold more after -ENOMEM, never less; with a caller's
 * allocator bytes are exact, test_map_alloc.c.)
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

/* malloc failing on the k-th call after tm_fail_nth(k); 0: never. */
static unsigned long tm_calls, tm_fail_at;
static int tm_fail_every; /* every malloc failing while set */

static void *tm_malloc(size_t n)
{
    tm_calls++;
    if (tm_fail_every || (tm_fail_at && tm_calls == tm_fail_at))
        return NULL;
    return malloc(n);
}

static void tm_fail_nth(unsigned long k)
{
    tm_fail_at = k ? tm_calls + k : 0;
}

#define SLX_MALLOC(size) tm_malloc(size)
#include "test_common.h"

struct sgl_item {
    uint64_t key;
    struct skiplist_hook hook;
};
#define SGL_KEY(e) ((e)->key)

struct sgl_span {
    uint64_t start, size;
};

SKIPLIST_RANKED_DEFINE(sgl_map, struct sgl_item, uint64_t, SGL_KEY,
                       SKIPLIST_CMP_NUM, 4, 8, 1)
SKIPLIST_EXTENT_RANKED_DEFINE(sgl_ext, struct sgl_span, uint64_t, start, size,
                              4, 8, 1)
SKIPLIST_PQ_DEFINE(sgl_pq, struct sgl_item, uint64_t, SGL_KEY, SKIPLIST_CMP_NUM,
                   hook, 4, 8, 1)
/* The default tuning: a small queue's sole leaf starts at 8 slots and
 * grows (slx_grow_leaf, slx_grow_for_slack). */
SKIPLIST_PQ_DEFINE(sgl_pqd, struct sgl_item, uint64_t, SGL_KEY,
                   SKIPLIST_CMP_NUM, hook, SKIPLIST_PQ_DEFAULTS)

/* Keys around the element (key 50, extent [50, 59]). */
static const uint64_t sgl_probe[] = {0,  1,  49, 50,   51,        55,
                                     59, 60, 61, 1000, UINT64_MAX};
#define SGL_NPROBE (sizeof sgl_probe / sizeof sgl_probe[0])

static void sgl_check_ok(int rc, const char *why, const char *what)
{
    cr_assert_eq(rc, 0, "%s: check: %s", what, why);
}

#define SGL_CHECK(name, sl, what)                                        \
    do {                                                                 \
        char why_[256] = "";                                             \
        sgl_check_ok(name##_check((sl), why_, sizeof why_), why_, what); \
    } while (0)

/* The ordered index's calls, on the singleton s and on r. */
Test(singleton, map_answers_as_a_leaf)
{
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    struct sgl_map s, r;
    struct sgl_item e = {50, {0}}, other = {50, {0}};
    cr_assert_eq(sgl_map_init(&s, NULL, 1), 0);
    cr_assert_eq(sgl_map_init(&r, &ta.iface, 1), 0);
    cr_assert_eq(sgl_map_insert(&s, &e, NULL), 0);
    cr_assert_eq(sgl_map_insert(&r, &e, NULL), 0);
    cr_assert_eq(sgl_map_bytes(&s), 0, "a singleton holds %zu bytes",
                 sgl_map_bytes(&s));
    cr_assert_gt(sgl_map_bytes(&r), 0);
    SGL_CHECK(sgl_map, &s, "singleton");
    cr_assert_eq(sgl_map_count(&s), 1);
    cr_assert_eq(sgl_map_first(&s), &e);
    cr_assert_eq(sgl_map_last(&s), &e);
    cr_assert_eq(sgl_map_at(&s, 0), &e);
    cr_assert_null(sgl_map_at(&s, 1));
    cr_assert_eq(sgl_map_rank_of(&s, &e), 0);
    cr_assert_eq(sgl_map_rank_of(&s, &other), -ENOENT);
    for (size_t a = 0; a < SGL_NPROBE; a++) {
        uint64_t k = sgl_probe[a];
        cr_assert_eq(sgl_map_find(&s, k), sgl_map_find(&r, k), "find %lu",
                     (unsigned long)k);
        cr_assert_eq(sgl_map_lower_bound(&s, k), sgl_map_lower_bound(&r, k));
        cr_assert_eq(sgl_map_upper_bound(&s, k), sgl_map_upper_bound(&r, k));
        cr_assert_eq(sgl_map_floor(&s, k), sgl_map_floor(&r, k));
        cr_assert_eq(sgl_map_below(&s, k), sgl_map_below(&r, k));
        cr_assert_eq(sgl_map_rank(&s, k), sgl_map_rank(&r, k));
        for (size_t b = 0; b < SGL_NPROBE; b++)
            cr_assert_eq(sgl_map_count_range(&s, k, sgl_probe[b]),
                         sgl_map_count_range(&r, k, sgl_probe[b]));
        struct sgl_map_iter is, ir;
        struct sgl_item *xs = sgl_map_iter_seek(&is, &s, k);
        struct sgl_item *xr = sgl_map_iter_seek(&ir, &r, k);
        for (int step = 0; step < 3; step++) {
            cr_assert_eq(xs, xr, "seek %lu, step %d", (unsigned long)k, step);
            cr_assert_eq(sgl_map_iter_get(&is), sgl_map_iter_get(&ir));
            xs = sgl_map_iter_next(&is);
            xr = sgl_map_iter_next(&ir);
        }
        struct sgl_item *batch_s[1], *batch_r[1];
        sgl_map_find_many(&s, &k, 1, batch_s);
        sgl_map_find_many(&r, &k, 1, batch_r);
        cr_assert_eq(batch_s[0], batch_r[0]);
        sgl_map_lower_bound_many(&s, &k, 1, batch_s);
        sgl_map_lower_bound_many(&r, &k, 1, batch_r);
        cr_assert_eq(batch_s[0], batch_r[0]);
    }
    /* walks both ways, and from a position */
    for (size_t i = 0; i < 3; i++) {
        struct sgl_map_iter is, ir;
        struct sgl_item *xs = sgl_map_iter_at(&is, &s, i);
        struct sgl_item *xr = sgl_map_iter_at(&ir, &r, i);
        cr_assert_eq(xs, xr, "iter_at %zu", i);
        xs = sgl_map_iter_last(&is, &s);
        xr = sgl_map_iter_last(&ir, &r);
        for (int step = 0; step < 4; step++) {
            cr_assert_eq(xs, xr, "backwards, step %d", step);
            xs = sgl_map_iter_prev(&is);
            xr = sgl_map_iter_prev(&ir);
        }
    }
    size_t seen = 0;
    struct sgl_map_iter it;
    struct sgl_item *x, *tmp;
    SKIPLIST_FOREACH (sgl_map, &s, it, x)
        seen += x == &e;
    SKIPLIST_FOREACH_REVERSE (sgl_map, &s, it, x)
        seen += x == &e;
    SKIPLIST_FOREACH_SAFE (sgl_map, &s, it, x, tmp)
        seen += x == &e;
    cr_assert_eq(seen, 3);
    /* a clash leaves the singleton one, refused before any malloc */
    struct sgl_item *existing = NULL;
    unsigned long calls = tm_calls;
    cr_assert_eq(sgl_map_insert(&s, &other, &existing), -EEXIST);
    cr_assert_eq(tm_calls, calls, "a clash called malloc");
    cr_assert_eq(existing, &e);
    cr_assert_eq(sgl_map_bytes(&s), 0);
    SGL_CHECK(sgl_map, &s, "after the clash");
    sgl_map_destroy(&s, NULL, NULL);
    sgl_map_destroy(&r, NULL, NULL);
    cr_assert_eq(ta.live, 0);
}

static void sgl_count_cb(struct sgl_item *e, void *arg)
{
    (void)e;
    ++*(size_t *)arg;
}

static void sgl_free_cb(struct sgl_item *e, void *arg)
{
    (void)arg;
    free(e);
}

/* Every way out of the singleton: the list is empty, owns nothing, and
 * takes a new first element as its singleton again. */
Test(singleton, map_every_way_out)
{
    struct sgl_item e = {50, {0}};
    for (int way = 0; way < 9; way++) {
        struct sgl_map s;
        cr_assert_eq(sgl_map_init(&s, NULL, 1), 0);
        cr_assert_eq(sgl_map_insert(&s, &e, NULL), 0);
        size_t called = 0;
        struct sgl_item *out = NULL;
        switch (way) {
        case 0:
            cr_assert_eq(sgl_map_erase(&s, &e), 0);
            break;
        case 1:
            cr_assert_eq(sgl_map_erase_key(&s, 49, &out), -ENOENT);
            cr_assert_eq(sgl_map_erase_key(&s, 50, &out), 0);
            cr_assert_eq(out, &e);
            break;
        case 2:
            cr_assert_eq(sgl_map_pop_first(&s), &e);
            break;
        case 3:
            cr_assert_eq(sgl_map_pop_last(&s), &e);
            break;
        case 4:
            cr_assert_eq(sgl_map_erase_range(&s, 51, 100, NULL, NULL), 0);
            cr_assert_eq(sgl_map_erase_range(&s, 0, 49, NULL, NULL), 0);
            cr_assert_eq(sgl_map_count(&s), 1);
            cr_assert_eq(sgl_map_erase_range(&s, 50, 50, sgl_count_cb, &called),
                         1);
            cr_assert_eq(called, 1);
            break;
        case 5:
            sgl_map_clear(&s, sgl_count_cb, &called);
            cr_assert_eq(called, 1);
            break;
        case 6: /* out of a list with leaves: clear frees them all */
            for (uint64_t k = 100; k < 110; k++) {
                struct sgl_item *f = malloc(sizeof *f);
                cr_assert_not_null(f);
                f->key = k;
                cr_assert_eq(sgl_map_insert(&s, f, NULL), 0);
            }
            cr_assert_gt(sgl_map_bytes(&s), 0);
            cr_assert_eq(sgl_map_erase(&s, &e), 0);
            sgl_map_clear(&s, sgl_free_cb, NULL);
            break;
        case 7: {
            struct sgl_map_iter it;
            struct sgl_item *x, *tmp;
            SKIPLIST_FOREACH_SAFE (sgl_map, &s, it, x, tmp) {
                cr_assert_eq(sgl_map_erase(&s, x), 0);
                called++;
            }
            cr_assert_eq(called, 1);
            break;
        }
        default:
            sgl_map_destroy(&s, sgl_count_cb, &called);
            cr_assert_eq(called, 1);
            cr_assert_eq(sgl_map_init(&s, NULL, 1), 0);
            break;
        }
        cr_assert_eq(sgl_map_count(&s), 0, "way %d", way);
        cr_assert_eq(sgl_map_bytes(&s), 0, "way %d: %zu bytes", way,
                     sgl_map_bytes(&s));
        cr_assert_null(sgl_map_first(&s));
        SGL_CHECK(sgl_map, &s, "emptied");
        cr_assert_eq(sgl_map_erase(&s, &e), -ENOENT);
        cr_assert_null(sgl_map_pop_first(&s));
        cr_assert_eq(sgl_map_insert(&s, &e, NULL), 0);
        cr_assert_eq(sgl_map_bytes(&s), 0, "way %d: not a singleton again",
                     way);
        sgl_map_destroy(&s, NULL, NULL);
    }
    cr_assert(tc_no_leaks(), "LeakSanitizer found a leak");
}

/* The extent index's calls, on the singleton [50, 59] and on r. */
Test(singleton, extent_answers_as_a_leaf)
{
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    struct sgl_ext s, r;
    struct sgl_span e = {50, 10};
    cr_assert_eq(sgl_ext_init(&s, NULL, 1), 0);
    cr_assert_eq(sgl_ext_init(&r, &ta.iface, 1), 0);
    cr_assert_eq(sgl_ext_insert(&s, &e, NULL), 0);
    cr_assert_eq(sgl_ext_insert(&r, &e, NULL), 0);
    cr_assert_eq(sgl_ext_bytes(&s), 0);
    SGL_CHECK(sgl_ext, &s, "singleton");
    for (size_t a = 0; a < SGL_NPROBE; a++) {
        uint64_t lo = sgl_probe[a];
        cr_assert_eq(sgl_ext_lookup(&s, lo), sgl_ext_lookup(&r, lo),
                     "lookup %lu", (unsigned long)lo);
        for (size_t b = 0; b < SGL_NPROBE; b++) {
            uint64_t hi = sgl_probe[b];
            struct sgl_span *os = &e, * or = &e;
            cr_assert_eq(sgl_ext_first_overlap(&s, lo, hi, &os),
                         sgl_ext_first_overlap(&r, lo, hi, & or));
            cr_assert_eq(os, or, "first_overlap [%lu, %lu]", (unsigned long)lo,
                         (unsigned long)hi);
            cr_assert_eq(sgl_ext_count_range(&s, lo, hi),
                         sgl_ext_count_range(&r, lo, hi), "count [%lu, %lu]",
                         (unsigned long)lo, (unsigned long)hi);
            struct sgl_ext_iter is, ir;
            struct sgl_span *xs = sgl_ext_iter_overlap(&is, &s, lo, hi);
            struct sgl_span *xr = sgl_ext_iter_overlap(&ir, &r, lo, hi);
            cr_assert_eq(xs, xr);
            cr_assert_eq(sgl_ext_iter_next_overlap(&is),
                         sgl_ext_iter_next_overlap(&ir));
        }
    }
    /* clashes leave it one, refused before any malloc */
    struct sgl_span c1 = {59, 5}, c2 = {40, 11}, *clash = NULL;
    unsigned long calls = tm_calls;
    cr_assert_eq(sgl_ext_insert(&s, &c1, &clash), -EEXIST);
    cr_assert_eq(clash, &e);
    clash = NULL;
    cr_assert_eq(sgl_ext_insert(&s, &c2, &clash), -EEXIST);
    cr_assert_eq(clash, &e);
    cr_assert_eq(tm_calls, calls, "a clash called malloc");
    cr_assert_eq(sgl_ext_bytes(&s), 0);
    /* a hole search sees the singleton's extent */
    struct sgl_span hs = {0, 20}, hr = {0, 20};
    cr_assert_eq(sgl_ext_insert_hole(&s, &hs, 1, 40, 100, SKIPLIST_HOLE_LOWEST),
                 0);
    cr_assert_eq(sgl_ext_insert_hole(&r, &hr, 1, 40, 100, SKIPLIST_HOLE_LOWEST),
                 0);
    cr_assert_eq(hs.start, hr.start);
    cr_assert_eq(hs.start, 60);
    SGL_CHECK(sgl_ext, &s, "after the hole");
    cr_assert_eq(sgl_ext_erase_range(&s, 0, 100, NULL, NULL), 2);
    cr_assert_eq(sgl_ext_count(&s), 0);
    cr_assert_eq(sgl_ext_insert(&s, &e, NULL), 0);
    cr_assert_eq(sgl_ext_erase_range(&s, 60, 100, NULL, NULL), 0);
    cr_assert_eq(sgl_ext_erase_range(&s, 59, 100, NULL, NULL), 1);
    /* a hole search on a singleton that fails leaves the singleton:
     * no room (-ENOSPC), or no memory to move it into a leaf */
    struct sgl_ext k;
    struct sgl_span ke = {50, 10}, kh = {0, 8};
    cr_assert_eq(sgl_ext_init(&k, NULL, 1), 0);
    cr_assert_eq(sgl_ext_insert(&k, &ke, NULL), 0);
    cr_assert_eq(sgl_ext_insert_hole(&k, &kh, 1, 45, 64, SKIPLIST_HOLE_LOWEST),
                 -ENOSPC);
    cr_assert_eq(sgl_ext_bytes(&k), 0);
    tm_fail_nth(1);
    cr_assert_eq(sgl_ext_insert_hole(&k, &kh, 1, 0, 100, SKIPLIST_HOLE_LOWEST),
                 -ENOMEM);
    tm_fail_nth(0);
    cr_assert_eq(sgl_ext_bytes(&k), 0);
    cr_assert_eq(sgl_ext_count(&k), 1);
    SGL_CHECK(sgl_ext, &k, "hole refused");
    cr_assert_eq(sgl_ext_insert_hole(&k, &kh, 1, 0, 100, SKIPLIST_HOLE_LOWEST),
                 0);
    cr_assert_eq(kh.start, 0);
    sgl_ext_destroy(&k, NULL, NULL);

    /* erase_range of an extent singleton: by overlap */
    struct sgl_ext g;
    cr_assert_eq(sgl_ext_init(&g, NULL, 1), 0);
    cr_assert_eq(sgl_ext_insert(&g, &e, NULL), 0);
    cr_assert_eq(sgl_ext_erase_range(&g, 60, 70, NULL, NULL), 0);
    cr_assert_eq(sgl_ext_erase_range(&g, 0, 49, NULL, NULL), 0);
    cr_assert_eq(sgl_ext_erase_range(&g, 55, 55, NULL, NULL), 1);
    cr_assert_eq(sgl_ext_count(&g), 0);
    cr_assert_eq(sgl_ext_bytes(&g), 0);
    SGL_CHECK(sgl_ext, &g, "erased singleton");
    sgl_ext_destroy(&g, NULL, NULL);
    /* a hole in an empty list makes the singleton too */
    struct sgl_ext h;
    struct sgl_span he = {0, 8};
    cr_assert_eq(sgl_ext_init(&h, NULL, 1), 0);
    cr_assert_eq(
        sgl_ext_insert_hole(&h, &he, 16, 100, 1000, SKIPLIST_HOLE_HIGHEST), 0);
    cr_assert_eq(he.start, 992);
    cr_assert_eq(sgl_ext_bytes(&h), 0);
    cr_assert_eq(sgl_ext_lookup(&h, 999), &he);
    SGL_CHECK(sgl_ext, &h, "hole singleton");
    sgl_ext_destroy(&h, NULL, NULL);
    sgl_ext_destroy(&s, NULL, NULL);
    sgl_ext_destroy(&r, NULL, NULL);
    cr_assert_eq(ta.live, 0);
    cr_assert(tc_no_leaks(), "LeakSanitizer found a leak");
}

/* The queue: its hook says queued while it is the singleton. */
Test(singleton, queue)
{
    struct sgl_pq q;
    struct sgl_item e = {50, {0}}, f = {10, {0}};
    cr_assert_eq(sgl_pq_init(&q, NULL, 1), 0);
    cr_assert_null(sgl_pq_pop(&q));
    cr_assert_eq(sgl_pq_push(&q, &e), 0);
    cr_assert_eq(sgl_pq_bytes(&q), 0);
    SGL_CHECK(sgl_pq, &q, "singleton");
    cr_assert(sgl_pq_queued(&e));
    cr_assert(sgl_pq_queued_in(&q, &e));
    cr_assert(!sgl_pq_queued(&f));
    cr_assert_eq(sgl_pq_push(&q, &e), -EEXIST);
    cr_assert_eq(sgl_pq_peek(&q), &e);
    e.key = 70;
    cr_assert_eq(sgl_pq_requeue(&q, &e), 0);
    cr_assert_eq(sgl_pq_remove(&q, &f), -ENOENT);
    cr_assert_eq(sgl_pq_remove(&q, &e), 0);
    cr_assert(!sgl_pq_queued(&e));
    cr_assert_eq(sgl_pq_push(&q, &e), 0);
    cr_assert_eq(sgl_pq_pop(&q), &e);
    cr_assert(!sgl_pq_queued(&e));
    cr_assert_eq(sgl_pq_push(&q, &e), 0);
    cr_assert_eq(sgl_pq_push(&q, &f), 0); /* into a leaf now */
    cr_assert_gt(sgl_pq_bytes(&q), 0);
    SGL_CHECK(sgl_pq, &q, "two");
    cr_assert(sgl_pq_queued_in(&q, &e) && sgl_pq_queued_in(&q, &f));
    cr_assert_eq(sgl_pq_pop(&q), &f);
    cr_assert_eq(sgl_pq_pop(&q), &e);
    cr_assert_null(sgl_pq_pop(&q));
    sgl_pq_destroy(&q, NULL, NULL);
    cr_assert(tc_no_leaks(), "LeakSanitizer found a leak");
}

/* ------------------------------------------------ malloc failing */

enum { SGL_N = 11 }; /* past two leaves of 4 */

/* name_grow: insert v[n - 1] with its first, second, ... malloc failing
 * until it succeeds; after each -ENOMEM the list holds v[0, n - 1) as
 * before. Returns how many of its mallocs failed. */
#define SGL_GROW_FN(name, T, INSERT, HAS)                                    \
    static unsigned long name##_grow(struct name *sl, T *v, size_t n)        \
    {                                                                        \
        unsigned long failed = 0;                                            \
        for (unsigned long k = 1;; k++) {                                    \
            size_t bytes = name##_bytes(sl);                                 \
            tm_fail_nth(k);                                                  \
            int rc = INSERT(sl, &v[n - 1]);                                  \
            tm_fail_nth(0);                                                  \
            if (rc == 0)                                                     \
                break;                                                       \
            cr_assert_eq(rc, -ENOMEM, "n=%zu k=%lu: rc %d", n, k, rc);       \
            failed++;                                                        \
            cr_assert_eq(name##_count(sl), n - 1u, "n=%zu k=%lu: count", n,  \
                         k);                                                 \
            cr_assert(bytes ? name##_bytes(sl) >= bytes                      \
                            : name##_bytes(sl) == 0,                         \
                      "n=%zu k=%lu: bytes %zu, were %zu", n, k,              \
                      name##_bytes(sl), bytes);                              \
            SGL_CHECK(name, sl, "after -ENOMEM");                            \
            for (size_t j = 0; j + 1u < n; j++)                              \
                cr_assert(HAS(sl, &v[j]), "n=%zu k=%lu: lost %zu", n, k, j); \
            cr_assert(!HAS(sl, &v[n - 1]), "n=%zu k=%lu: half in", n, k);    \
        }                                                                    \
        SGL_CHECK(name, sl, "grown");                                        \
        return failed;                                                       \
    }

#define SGL_MAP_INSERT(sl, e) sgl_map_insert((sl), (e), NULL)
#define SGL_MAP_HAS(sl, e) (sgl_map_find((sl), (e)->key) == (e))
#define SGL_EXT_INSERT(sl, e) sgl_ext_insert((sl), (e), NULL)
#define SGL_EXT_HAS(sl, e) (sgl_ext_lookup((sl), (e)->start) == (e))
#define SGL_PQ_HAS(sl, e) sgl_pq_queued_in((sl), (e))

SGL_GROW_FN(sgl_map, struct sgl_item, SGL_MAP_INSERT, SGL_MAP_HAS)
SGL_GROW_FN(sgl_ext, struct sgl_span, SGL_EXT_INSERT, SGL_EXT_HAS)
SGL_GROW_FN(sgl_pq, struct sgl_item, sgl_pq_push, SGL_PQ_HAS)

Test(singleton, malloc_failing_at_every_growth_step)
{
    static struct sgl_item mv[SGL_N], qv[SGL_N];
    static struct sgl_span xv[SGL_N];
    struct sgl_map m;
    struct sgl_ext x;
    struct sgl_pq q;
    cr_assert_eq(sgl_map_init(&m, NULL, 3), 0);
    cr_assert_eq(sgl_ext_init(&x, NULL, 3), 0);
    cr_assert_eq(sgl_pq_init(&q, NULL, 3), 0);
    for (size_t n = 1; n <= SGL_N; n++) {
        /* keys in an order that splits, shifts and appends */
        uint64_t key = (n * 7u) % SGL_N * 100u;
        mv[n - 1].key = qv[n - 1].key = key;
        xv[n - 1].start = key;
        xv[n - 1].size = 10;
        unsigned long fm = sgl_map_grow(&m, mv, n);
        unsigned long fx = sgl_ext_grow(&x, xv, n);
        unsigned long fq = sgl_pq_grow(&q, qv, n);
        if (n == 1) /* the singleton: no malloc at all */
            cr_assert(
                fm == 0 && fx == 0 && fq == 0 &&
                sgl_map_bytes(&m) + sgl_ext_bytes(&x) + sgl_pq_bytes(&q) == 0);
        if (n == 2) /* the aux block, then the first leaf */
            cr_assert(fm >= 2 && fx >= 2 && fq >= 2,
                      "n=2: %lu %lu %lu mallocs failed", fm, fx, fq);
    }
    sgl_map_destroy(&m, NULL, NULL);
    sgl_ext_destroy(&x, NULL, NULL);
    sgl_pq_destroy(&q, NULL, NULL);
    cr_assert(tc_no_leaks(), "LeakSanitizer found a leak");
}

/* The hold model (pop the minimum, push it back later) on a small queue of
 * n: each pop must answer the model's minimum. */
static void sgl_hold(struct sgl_pqd *q, struct sgl_item *it, size_t n,
                     unsigned rounds, uint64_t *next)
{
    for (unsigned r = 0; r < rounds; r++) {
        struct sgl_item *e = sgl_pqd_pop(q);
        cr_assert_not_null(e);
        for (size_t j = 0; j < n; j++) /* it[] still holds e's old key */
            cr_assert_leq(e->key, it[j].key, "n %zu round %u: not the min", n,
                          r);
        e->key = (*next += 7919u) % 1000003u + 1000003u * (r + 1u);
        cr_assert_eq(sgl_pqd_push(q, e), 0, "n %zu round %u", n, r);
    }
    SGL_CHECK(sgl_pqd, q, "hold");
}

/* A small queue held at n: once its window reaches the sole leaf's end
 * while the leaf is more than a quarter full (half from 32 slots), the
 * leaf doubles (slack, so the window is not moved back every few pushes). With
 * memory it grows; with every malloc failing the pushes still succeed (the
 * window moves back instead) and the queue keeps its elements and its order. */
Test(singleton, queue_slack_growth)
{
    static const size_t ns[] = {2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 40};
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++) {
        size_t n = ns[a];
        for (int starve = 0; starve < 2; starve++) {
            struct sgl_pqd q;
            struct sgl_item it[64];
            uint64_t next = 12345u * (n + 1u);
            cr_assert_eq(sgl_pqd_init(&q, NULL, 1), 0);
            for (size_t j = 0; j < n; j++) {
                it[j].key = (next += 7919u) % 1000003u;
                cr_assert_eq(sgl_pqd_push(&q, &it[j]), 0);
            }
            size_t before = sgl_pqd_bytes(&q);
            tm_fail_every = starve;
            sgl_hold(&q, it, n, 300, &next);
            tm_fail_every = 0;
            cr_assert_eq(sgl_pqd_count(&q), n);
            size_t after = sgl_pqd_bytes(&q);
            if (starve)
                cr_assert_eq(after, before, "n %zu: bytes moved", n);
            else if (4u * n > 8u && n <= 32u) /* the quarter / half rule */
                cr_assert_gt(after, before, "n %zu: no slack grown", n);
            uint64_t last = 0;
            for (size_t j = 0; j < n; j++) {
                struct sgl_item *e = sgl_pqd_pop(&q);
                cr_assert_not_null(e);
                cr_assert_geq(e->key, last, "n %zu: out of order", n);
                last = e->key;
            }
            cr_assert_null(sgl_pqd_pop(&q));
            sgl_pqd_destroy(&q, NULL, NULL);
        }
    }
}
