/*
 * Unit tests for the extent face, one behaviour per test, each run over
 * every instantiation in tests/test_extent_ops.c (uint32_t and uint64_t
 * keys; 1, 4, default and 64 keys per node). Edges are the point: touching
 * neighbours, first and last byte, address 0, the key type's maximum,
 * exactly fitting holes, inclusive hi.
 */
#include <criterion/criterion.h>
#include <inttypes.h>

#include "test_common.h"
#include "model_extent.h"

#define NELEM 4096

struct fx {
    const struct xops *o;
    void *l;
    struct tc_alloc ta;
    void *elems[NELEM]; /* every element made, freed at close */
    size_t ne;
};

/* The label and line of a failure, so a loop over instantiations still
 * says which one broke. */
/* fmt needs at least one argument (C11 has no empty __VA_ARGS__). */
#define FX_OK(f, cond, fmt, ...) \
    cr_assert((cond), "[%s] " fmt, (f)->o->label, __VA_ARGS__)
#define FX_EQ(f, got, want)                                             \
    do {                                                                \
        uint64_t got_ = (uint64_t)(got), want_ = (uint64_t)(want);      \
        cr_assert(got_ == want_,                                        \
                  "[%s] %s = %" PRIu64 " (%#" PRIx64 "), want %" PRIu64 \
                  " (%#" PRIx64 ")",                                    \
                  (f)->o->label, #got, got_, got_, want_, want_);       \
    } while (0)
#define FX_PTR(f, got, want)                                     \
    cr_assert((const void *)(got) == (const void *)(want),       \
              "[%s] %s = %p, want %p (%s)", (f)->o->label, #got, \
              (const void *)(got), (const void *)(want), #want)

static void fx_open(struct fx *f, const struct xops *o)
{
    int err = 0;
    f->o = o;
    f->ne = 0;
    tc_alloc_init(&f->ta);
    f->l = o->new_list(&f->ta.iface, 42, &err);
    FX_OK(f, f->l != NULL && err == 0, "init failed: %d", err);
}

static void fx_check(struct fx *f)
{
    char why[256] = "";
    int r = f->o->check(f->l, why, sizeof(why));
    FX_OK(f, r == 0, "check() = %d: %s", r, why);
}

static void fx_close(struct fx *f)
{
    fx_check(f);
    f->o->del_list(f->l);
    for (size_t i = 0; i < f->ne; i++)
        free(f->elems[i]);
    FX_OK(f, f->ta.live == 0, "%ld allocations leaked", f->ta.live);
    FX_OK(f, f->ta.bad_frees == 0, "%lu bad frees", f->ta.bad_frees);
}

static void *fx_elem(struct fx *f, uint64_t start, uint64_t size)
{
    FX_OK(f, f->ne < NELEM, "fixture out of elements (%zu)", f->ne);
    void *e = f->o->new_elem(start, size);
    f->elems[f->ne++] = e;
    return e;
}

/* Insert [start, start + size) and insist it went in; bulk setups skip
 * the O(n) check() and run it once at the end. */
static void *fx_add_quiet(struct fx *f, uint64_t start, uint64_t size)
{
    void *e = fx_elem(f, start, size);
    int r = f->o->insert(f->l, e, NULL);
    FX_OK(f, r == 0, "insert [%#" PRIx64 " +%#" PRIx64 "] = %d", start, size,
          r);
    return e;
}

static void *fx_add(struct fx *f, uint64_t start, uint64_t size)
{
    void *e = fx_add_quiet(f, start, size);
    fx_check(f);
    return e;
}

/* Insert expecting an error; for -EEXIST the clash must overlap. */
static void fx_add_fail(struct fx *f, uint64_t start, uint64_t size, int want)
{
    void *e = fx_elem(f, start, size);
    void *clash = NULL;
    size_t before = f->o->count(f->l);
    int r = f->o->insert(f->l, e, &clash);
    FX_OK(f, r == want, "insert [%#" PRIx64 " +%#" PRIx64 "] = %d, want %d",
          start, size, r, want);
    if (want == -EEXIST) {
        FX_OK(f, clash != NULL, "no clash reported for [%#" PRIx64 "]", start);
        uint64_t cs = f->o->start(clash), cl = cs + (f->o->size(clash) - 1);
        uint64_t last = start + (size - 1);
        FX_OK(f, cs <= last && cl >= start,
              "clash [%#" PRIx64 ", %#" PRIx64 "] does not overlap [%#" PRIx64
              ", %#" PRIx64 "]",
              cs, cl, start, last);
    }
    FX_EQ(f, f->o->count(f->l), before);
    FX_PTR(f, f->o->lookup(f->l, start) == e ? e : NULL, NULL);
    fx_check(f);
}

/* insert_hole expecting success at want_start. */
static void *fx_hole(struct fx *f, uint64_t size, uint64_t align, uint64_t lo,
                     uint64_t hi, int flags, uint64_t want_start)
{
    void *e = fx_elem(f, 0, size);
    int r = f->o->hole(f->l, e, size, align, lo, hi, flags);
    FX_OK(f, r == 0,
          "insert_hole(size %#" PRIx64 ", align %#" PRIx64 ", [%#" PRIx64
          ", %#" PRIx64 "], %s) = %d",
          size, align, lo, hi, flags == SKIPLIST_HOLE_HIGHEST ? "HIGH" : "LOW",
          r);
    FX_EQ(f, f->o->start(e), want_start);
    FX_EQ(f, f->o->size(e), size);
    FX_PTR(f, f->o->lookup(f->l, want_start), e);
    fx_check(f);
    return e;
}

static void fx_hole_fail(struct fx *f, uint64_t size, uint64_t align,
                         uint64_t lo, uint64_t hi, int flags, int want)
{
    void *e = fx_elem(f, 0, size);
    size_t before = f->o->count(f->l);
    int r = f->o->hole(f->l, e, size, align, lo, hi, flags);
    FX_OK(f, r == want,
          "insert_hole(size %#" PRIx64 ", align %#" PRIx64 ", [%#" PRIx64
          ", %#" PRIx64 "], %s) = %d, want %d",
          size, align, lo, hi, flags == SKIPLIST_HOLE_HIGHEST ? "HIGH" : "LOW",
          r, want);
    FX_EQ(f, f->o->count(f->l), before);
    fx_check(f);
}

#define FOR_EACH_XOPS(f)                                                     \
    for (size_t xi_ = 0; xi_ < xops_count; xi_++)                            \
        for (struct fx *f = &(struct fx){.ne = 0}; f; fx_close(f), f = NULL) \
            for (int once_ = (fx_open(f, xops_all[xi_]), 1); once_; once_ = 0)

/* ------------------------------------------------------------- insertion */

Test(extent, insert_rejects_overlap_accepts_touching)
{
    FOR_EACH_XOPS(f)
    {
        void *a = fx_add(f, 100, 10); /* [100, 110) */
        fx_add(f, 90, 10);            /* [90, 100): touches on the left */
        fx_add(f, 110, 10);           /* [110, 120): touches on the right */
        fx_add_fail(f, 95, 6, -EEXIST);
        fx_add_fail(f, 109, 2, -EEXIST);
        fx_add_fail(f, 100, 10, -EEXIST);
        fx_add_fail(f, 101, 1, -EEXIST);
        fx_add_fail(f, 50, 150, -EEXIST);
        fx_add_fail(f, 119, 1, -EEXIST);
        fx_add_fail(f, 89, 2, -EEXIST);
        fx_add(f, 89, 1);
        fx_add(f, 120, 1);
        FX_EQ(f, f->o->count(f->l), 5);
        void *clash = NULL;
        void *e = fx_elem(f, 105, 1);
        FX_EQ(f, f->o->insert(f->l, e, &clash), -EEXIST);
        FX_PTR(f, clash, a);
    }
}

Test(extent, insert_at_zero_and_at_max)
{
    FOR_EACH_XOPS(f)
    {
        uint64_t max = f->o->max;
        fx_add(f, 0, 1);
        fx_add(f, max, 1);     /* the last byte of the key space */
        fx_add(f, max - 9, 9); /* ends exactly at max - 1 */
        fx_add_fail(f, max - 1, 1, -EEXIST);
        fx_add_fail(f, max, 1, -EEXIST);
        fx_add(f, 1, max - 11); /* [1, max - 11]: max - 10 stays free */
        fx_add_fail(f, 0, 1, -EEXIST);
        FX_EQ(f, f->o->count(f->l), 4);
        /* Wrapping extents are invalid, not overlapping. */
        fx_add_fail(f, max, 2, -EINVAL);
        fx_add_fail(f, max - 9, 11, -EINVAL);
        fx_add_fail(f, 2, max, -EINVAL);
        fx_add_fail(f, max, max, -EINVAL);
        fx_add_fail(f, 5, 0, -EINVAL);
        fx_add_fail(f, 0, 0, -EINVAL);
        FX_EQ(f, f->o->count(f->l), 4);
    }
}

Test(extent, insert_whole_space_but_one)
{
    FOR_EACH_XOPS(f)
    {
        uint64_t max = f->o->max;
        fx_add(f, 0, max); /* [0, max - 1]: the widest size K_T holds */
        fx_add(f, max, 1);
        FX_PTR(f, f->o->lookup(f->l, max - 1), f->o->first(f->l));
        FX_PTR(f, f->o->lookup(f->l, max), f->o->last(f->l));
    }
}

/* ---------------------------------------------------------------- lookup */

Test(extent, lookup_first_last_and_outside)
{
    FOR_EACH_XOPS(f)
    {
        uint64_t max = f->o->max;
        void *a = fx_add(f, 1000, 24);
        void *b = fx_add(f, 1024, 1); /* adjacent to a */
        void *c = fx_add(f, 2000, 1000);
        void *z = fx_add(f, 0, 3);
        void *t = fx_add(f, max - 4, 5);
        FX_PTR(f, f->o->lookup(f->l, 999), NULL);
        FX_PTR(f, f->o->lookup(f->l, 1000), a);
        FX_PTR(f, f->o->lookup(f->l, 1023), a);
        FX_PTR(f, f->o->lookup(f->l, 1024), b);
        FX_PTR(f, f->o->lookup(f->l, 1025), NULL);
        FX_PTR(f, f->o->lookup(f->l, 1999), NULL);
        FX_PTR(f, f->o->lookup(f->l, 2000), c);
        FX_PTR(f, f->o->lookup(f->l, 2999), c);
        FX_PTR(f, f->o->lookup(f->l, 3000), NULL);
        FX_PTR(f, f->o->lookup(f->l, 0), z);
        FX_PTR(f, f->o->lookup(f->l, 2), z);
        FX_PTR(f, f->o->lookup(f->l, 3), NULL);
        FX_PTR(f, f->o->lookup(f->l, max), t);
        FX_PTR(f, f->o->lookup(f->l, max - 4), t);
        FX_PTR(f, f->o->lookup(f->l, max - 5), NULL);
    }
}

Test(extent, lookup_empty_and_many)
{
    FOR_EACH_XOPS(f)
    {
        FX_PTR(f, f->o->lookup(f->l, 0), NULL);
        FX_PTR(f, f->o->lookup(f->l, f->o->max), NULL);
        /* Enough extents to span many leaves and levels at every KPN. */
        void *e[1000];
        for (uint64_t i = 0; i < 1000; i++)
            e[i] = fx_add_quiet(f, i * 10 + 3, 5 + (i & 1)); /* gaps 4, 5 */
        fx_check(f);
        for (uint64_t i = 0; i < 1000; i++) {
            uint64_t s = i * 10 + 3, sz = 5 + (i & 1);
            FX_PTR(f, f->o->lookup(f->l, s - 1), NULL);
            FX_PTR(f, f->o->lookup(f->l, s), e[i]);
            FX_PTR(f, f->o->lookup(f->l, s + sz - 1), e[i]);
            FX_PTR(f, f->o->lookup(f->l, s + sz), NULL);
        }
    }
}

/* --------------------------------------------------------- first_overlap */

Test(extent, first_overlap_edges)
{
    FOR_EACH_XOPS(f)
    {
        uint64_t max = f->o->max;
        void *out = NULL;
        FX_EQ(f, f->o->first_overlap(f->l, 0, max, &out), -ENOENT);
        void *a = fx_add(f, 100, 10); /* [100, 109] */
        void *b = fx_add(f, 200, 10); /* [200, 209] */
        void *t = fx_add(f, max - 1, 2);
        FX_EQ(f, f->o->first_overlap(f->l, 90, 100, &out), -ENOENT);
        FX_EQ(f, f->o->first_overlap(f->l, 110, 200, &out), -ENOENT);
        FX_EQ(f, f->o->first_overlap(f->l, 90, 101, &out), 0);
        FX_PTR(f, out, a);
        FX_EQ(f, f->o->first_overlap(f->l, 109, 110, &out), 0);
        FX_PTR(f, out, a);
        FX_EQ(f, f->o->first_overlap(f->l, 105, 205, &out), 0);
        FX_PTR(f, out, a); /* the lowest of two overlapping */
        FX_EQ(f, f->o->first_overlap(f->l, 0, max, &out), 0);
        FX_PTR(f, out, a);
        FX_EQ(f, f->o->first_overlap(f->l, 110, 201, &out), 0);
        FX_PTR(f, out, b);
        FX_EQ(f, f->o->first_overlap(f->l, 209, max - 1, &out), 0);
        FX_PTR(f, out, b);
        FX_EQ(f, f->o->first_overlap(f->l, 210, max - 1, &out), -ENOENT);
        FX_EQ(f, f->o->first_overlap(f->l, 210, max, &out), 0);
        FX_PTR(f, out, t);
        FX_EQ(f, f->o->first_overlap(f->l, max - 1, max, &out), 0);
        FX_PTR(f, out, t);
        FX_EQ(f, f->o->first_overlap(f->l, 105, 105, &out), -EINVAL);
        FX_EQ(f, f->o->first_overlap(f->l, 106, 105, &out), -EINVAL);
        FX_EQ(f, f->o->first_overlap(f->l, max, 0, &out), -EINVAL);
    }
}

/* On -ENOENT and -EINVAL, *out is set to NULL (api.md), so a caller that
 * tests out rather than the code never reads an extent from an earlier
 * call. out holds a stale non-NULL pointer before each call: a call that
 * leaves it unwritten fails here. */
Test(extent, first_overlap_sets_out_null_when_none)
{
    FOR_EACH_XOPS(f)
    {
        uint64_t max = f->o->max;
        void *const stale = &max; /* no extent of the list */
        void *out = stale;
        /* The ops take [a, b); a >= b is the call with lo > hi. */
        FX_EQ(f, f->o->first_overlap(f->l, 0, max, &out), -ENOENT);
        FX_PTR(f, out, NULL); /* empty list */
        out = stale;
        FX_EQ(f, f->o->first_overlap(f->l, 6, 5, &out), -EINVAL);
        FX_PTR(f, out, NULL);       /* lo > hi, empty list */
        void *a = fx_add(f, 10, 5); /* [10, 14] */
        const uint64_t none[][2] = {{20, 31}, {0, 10}, {15, 20}, {15, max}};
        for (size_t k = 0; k < sizeof none / sizeof none[0]; k++) {
            out = stale;
            FX_EQ(f, f->o->first_overlap(f->l, none[k][0], none[k][1], &out),
                  -ENOENT);
            FX_PTR(f, out, NULL);
        }
        out = stale;
        FX_EQ(f, f->o->first_overlap(f->l, 12, 12, &out), -EINVAL);
        FX_PTR(f, out, NULL); /* lo > hi beside a match */
        out = stale;
        FX_EQ(f, f->o->first_overlap(f->l, 14, 20, &out), 0);
        FX_PTR(f, out, a);
    }
}

/* ------------------------------------------------- iter_overlap, FOREACH */

static void expect_overlaps(struct fx *f, uint64_t a, uint64_t b,
                            void *const *want, size_t nwant)
{
    void *got[64];
    size_t n = f->o->overlaps(f->l, a, b, got, 64);
    FX_OK(f, n == nwant,
          "FOREACH_OVERLAP [%" PRIu64 ", %" PRIu64 ") gave %zu, want %zu", a, b,
          n, nwant);
    for (size_t i = 0; i < n; i++)
        FX_PTR(f, got[i], want[i]);
    n = f->o->overlaps_iter(f->l, a, b, got, 64);
    FX_OK(f, n == nwant,
          "iter_overlap [%" PRIu64 ", %" PRIu64 ") gave %zu, want %zu", a, b, n,
          nwant);
    for (size_t i = 0; i < n; i++)
        FX_PTR(f, got[i], want[i]);
}

Test(extent, iter_overlap_ranges)
{
    FOR_EACH_XOPS(f)
    {
        uint64_t max = f->o->max;
        void *e[40];
        for (uint64_t i = 0; i < 40; i++) /* [10i, 10i + 5) */
            e[i] = fx_add(f, i * 10, 5);
        expect_overlaps(f, 5, 10, NULL, 0); /* a gap exactly */
        expect_overlaps(f, 4, 10, e, 1);
        expect_overlaps(f, 5, 11, e + 1, 1);
        expect_overlaps(f, 0, 400, e, 40);
        expect_overlaps(f, 0, max, e, 40);
        expect_overlaps(f, 0, 1, e, 1);
        expect_overlaps(f, 394, 395, e + 39, 1);
        expect_overlaps(f, 395, max, NULL, 0);
        expect_overlaps(f, 103, 257, e + 10, 16);
        expect_overlaps(f, 105, 250, e + 11, 14);
        expect_overlaps(f, 7, 7, NULL, 0);  /* a == b */
        expect_overlaps(f, 50, 7, NULL, 0); /* a > b */
        void *t = fx_add(f, max - 2, 3);
        expect_overlaps(f, max - 1, max, &t, 1);
        expect_overlaps(f, 395, max, &t, 1);
    }
}

/* Erasing the current element inside a SAFE walk, and erase in general. */
Test(extent, erase_members_and_strangers)
{
    FOR_EACH_XOPS(f)
    {
        void *a = fx_add(f, 10, 5);
        void *b = fx_add(f, 20, 5);
        void *c = fx_add(f, 30, 5);
        void *twin = fx_elem(f, 20, 5); /* same extent, not in the list */
        FX_EQ(f, f->o->erase(f->l, twin), -ENOENT);
        FX_EQ(f, f->o->erase(f->l, NULL), -EINVAL);
        FX_EQ(f, f->o->count(f->l), 3);
        FX_EQ(f, f->o->erase(f->l, b), 0);
        fx_check(f);
        FX_EQ(f, f->o->erase(f->l, b), -ENOENT);
        FX_PTR(f, f->o->lookup(f->l, 22), NULL);
        FX_EQ(f, f->o->count(f->l), 2);
        FX_EQ(f, f->o->insert(f->l, twin, NULL), 0); /* the space is free */
        FX_PTR(f, f->o->lookup(f->l, 24), twin);
        FX_EQ(f, f->o->erase(f->l, a), 0);
        FX_EQ(f, f->o->erase(f->l, c), 0);
        FX_EQ(f, f->o->erase(f->l, twin), 0);
        FX_EQ(f, f->o->count(f->l), 0);
        FX_PTR(f, f->o->first(f->l), NULL);
        fx_check(f);
    }
}

Test(extent, erase_everything_in_random_order)
{
    FOR_EACH_XOPS(f)
    {
        enum { N = 2000 };
        void *e[N];
        for (uint64_t i = 0; i < N; i++)
            e[i] = fx_add_quiet(f, (i * 7919) % N * 4, 3);
        fx_check(f);
        struct tc_rng r;
        tc_rng_init(&r, 7);
        for (size_t i = N; i > 0; i--) {
            size_t k = (size_t)tc_below(&r, i);
            void *x = e[k];
            e[k] = e[i - 1];
            FX_EQ(f, f->o->erase(f->l, x), 0);
            FX_PTR(f, f->o->lookup(f->l, f->o->start(x)), NULL);
            if (i % 97 == 0)
                fx_check(f);
        }
        FX_EQ(f, f->o->count(f->l), 0);
    }
}

/* ---------------------------------------------- first, last, count, find */

Test(extent, first_last_count_find)
{
    FOR_EACH_XOPS(f)
    {
        FX_PTR(f, f->o->first(f->l), NULL);
        FX_PTR(f, f->o->last(f->l), NULL);
        FX_EQ(f, f->o->count(f->l), 0);
        void *m = fx_add(f, 500, 10);
        FX_PTR(f, f->o->first(f->l), m);
        FX_PTR(f, f->o->last(f->l), m);
        void *hi = fx_add(f, f->o->max, 1);
        void *lo = fx_add(f, 0, 1);
        FX_PTR(f, f->o->first(f->l), lo);
        FX_PTR(f, f->o->last(f->l), hi);
        FX_EQ(f, f->o->count(f->l), 3);
        FX_PTR(f, f->o->find(f->l, 500), m); /* keyed by start */
        FX_PTR(f, f->o->find(f->l, 501), NULL);
        void *rev[4];
        FX_EQ(f, f->o->walk_rev(f->l, rev, 4), 3);
        FX_PTR(f, rev[0], hi);
        FX_PTR(f, rev[2], lo);
    }
}

/* ------------------------------------------------------------ insert_hole */

Test(extent, hole_lowest)
{
    FOR_EACH_XOPS(f)
    {
        uint64_t max = f->o->max;
        const int L = SKIPLIST_HOLE_LOWEST;
        fx_hole(f, 10, 1, 0, max, L, 0); /* empty list: address 0 */
        fx_hole(f, 10, 1, 0, max, L, 10);
        fx_hole(f, 1, 16, 0, max, L, 32); /* 20 rounds up to 32 */
        fx_add(f, 40, 10);                /* [40, 50) */
        /* [20, 32) and [33, 40) are free: exactly 7 fits the second. */
        fx_hole(f, 7, 1, 25, max, L, 25);
        fx_hole(f, 7, 1, 0, max, L, 33); /* exact fit between 32 and 40 */
        fx_hole(f, 5, 1, 0, max, L, 20); /* [20, 25) exactly */
        fx_hole(f, 1, 1, 0, max, L, 50); /* everything below 50 is full */
        /* lo is honoured even when lower space is free. */
        fx_hole(f, 4, 4, 1001, max, L, 1004);
        /* hi is inclusive: [2000, 2009] fits in [2000, 2009]. */
        fx_hole(f, 10, 1, 2000, 2009, L, 2000);
        fx_hole_fail(f, 10, 1, 3000, 3008, L, -ENOSPC);
        fx_hole(f, 1, 1, 3008, 3008, L, 3008); /* a one-byte window */
    }
}

Test(extent, hole_highest)
{
    FOR_EACH_XOPS(f)
    {
        uint64_t max = f->o->max;
        const int H = SKIPLIST_HOLE_HIGHEST;
        fx_hole(f, 1, 1, 0, max, H, max); /* the key type's maximum */
        fx_hole(f, 10, 1, 0, max, H, max - 10);
        fx_hole(f, 16, 16, 0, max, H, (max - 11 - 15) & ~(uint64_t)15);
        /* hi inclusive, exact window. */
        fx_hole(f, 10, 1, 1000, 1009, H, 1000);
        fx_hole_fail(f, 10, 1, 1011, 1019, H, -ENOSPC);
        fx_hole(f, 5, 1, 1010, 1019, H, 1015);
        fx_hole(f, 5, 1, 1010, 1019, H, 1010); /* now exactly full */
        fx_hole_fail(f, 1, 1, 1000, 1019, H, -ENOSPC);
        /* Holes [1020, 1030) above and [990, 1000) below; size 10 aligned
         * to 2 in [0, 1029] must take the lower one. */
        fx_add(f, 1030, 5);
        fx_hole(f, 11, 1, 0, 1029, H, 989);
        fx_hole(f, 10, 2, 0, 1029, H, 1020);
        /* Alignment may push the start below the first free gap. */
        fx_hole(f, 3, 64, 0, 1029, H, 960);
    }
}

Test(extent, hole_at_zero_and_at_max)
{
    FOR_EACH_XOPS(f)
    {
        uint64_t max = f->o->max;
        /* Fill everything except byte 0 and byte max. */
        fx_add(f, 1, max - 1); /* [1, max - 1] */
        fx_hole_fail(f, 2, 1, 0, max, SKIPLIST_HOLE_LOWEST, -ENOSPC);
        fx_hole_fail(f, 1, 2, max, max, SKIPLIST_HOLE_LOWEST, -ENOSPC);
        fx_hole(f, 1, 1, 0, max, SKIPLIST_HOLE_HIGHEST, max);
        fx_hole(f, 1, 1, 0, max, SKIPLIST_HOLE_HIGHEST, 0);
        /* Full space: every request fails, with either flag. */
        fx_hole_fail(f, 1, 1, 0, max, SKIPLIST_HOLE_HIGHEST, -ENOSPC);
        fx_hole_fail(f, 1, 1, 0, max, SKIPLIST_HOLE_LOWEST, -ENOSPC);
        FX_EQ(f, f->o->count(f->l), 3);
    }
}

Test(extent, hole_in_full_and_empty_space)
{
    FOR_EACH_XOPS(f)
    {
        uint64_t max = f->o->max;
        /* Largest possible request in an empty space. */
        void *e = fx_hole(f, max, 1, 0, max, SKIPLIST_HOLE_HIGHEST, 1);
        fx_hole_fail(f, 2, 1, 0, max, SKIPLIST_HOLE_LOWEST, -ENOSPC);
        fx_hole(f, 1, 1, 0, max, SKIPLIST_HOLE_LOWEST, 0);
        fx_hole_fail(f, 1, 1, 0, max, SKIPLIST_HOLE_LOWEST, -ENOSPC);
        FX_EQ(f, f->o->erase(f->l, e), 0);
        fx_hole(f, max, 1, 0, max, SKIPLIST_HOLE_LOWEST, 1);
        fx_hole_fail(f, 1, 1, 0, max, SKIPLIST_HOLE_HIGHEST, -ENOSPC);
    }
}

Test(extent, hole_big_alignments)
{
    FOR_EACH_XOPS(f)
    {
        uint64_t max = f->o->max;
        uint64_t top = max / 2 + 1; /* the largest power of two in K_T */
        fx_hole(f, 1, top, 0, max, SKIPLIST_HOLE_HIGHEST, top);
        fx_hole(f, 1, top, 0, max, SKIPLIST_HOLE_HIGHEST, 0);
        fx_hole_fail(f, 1, top, 0, max, SKIPLIST_HOLE_LOWEST, -ENOSPC);
        /* The space between is free but never aligned to top. */
        fx_hole(f, top - 1, 1, 0, max, SKIPLIST_HOLE_LOWEST, 1);
        fx_hole(f, 4096, 4096, 0, max, SKIPLIST_HOLE_LOWEST, top + 4096);
        fx_hole(f, 4096, 4096, 0, max, SKIPLIST_HOLE_HIGHEST,
                (max - 4095) & ~(uint64_t)4095);
        /* align 1 and 2^k for every k reach the same gap in order. */
        for (unsigned k = 0; k < 12; k++) {
            uint64_t al = (uint64_t)1 << k;
            fx_hole(f, 1, al, top + 0x100000, max, SKIPLIST_HOLE_LOWEST,
                    top + 0x100000 + (k == 0 ? 0 : al));
        }
    }
}

/* A fragmented space: a long run of small gaps that never fit, then one
 * that does; the answer must be exactly the model's. */
Test(extent, hole_skips_small_gaps)
{
    FOR_EACH_XOPS(f)
    {
        for (uint64_t i = 0; i < 3000; i++)
            fx_add_quiet(f, i * 8, 7); /* one free byte every 8 */
        fx_add(f, 3000 * 8 + 20, 1);
        /* Only [23999, 24020) and the space above 24020 are wider. */
        fx_hole(f, 2, 1, 0, 30000, SKIPLIST_HOLE_LOWEST, 23999);
        fx_hole(f, 16, 16, 0, 30000, SKIPLIST_HOLE_LOWEST, 24016 + 16);
        fx_hole(f, 1, 1, 0, 30000, SKIPLIST_HOLE_LOWEST, 7);
        fx_hole_fail(f, 2, 1, 0, 23998, SKIPLIST_HOLE_HIGHEST, -ENOSPC);
        fx_hole(f, 1, 1, 8, 23998, SKIPLIST_HOLE_HIGHEST, 23991);
        fx_hole(f, 1, 1, 0, 30000, SKIPLIST_HOLE_HIGHEST, 30000);
    }
}
