/*
 * Bad input on the extent index (SKIPLIST_EXTENT_DEFINE), the rows of
 * docs/errors.md that tests/test_extent_unit.c and test_extent_alloc.c do not
 * already back: a NULL element, an element inserted twice, insert_hole's
 * flags and its promise that e is unchanged on every error (-EINVAL,
 * -ENOSPC, -ENOMEM), and the top of narrow key types (uint8_t, uint16_t),
 * where every wrapping extent is refused.
 *
 * A refused call must return its exact code and leave the list as it was:
 * check(), count, bytes, every extent in order, no allocator call (except
 * the failing one of an -ENOMEM row). Every test ends with zero live
 * blocks.
 */
#include <criterion/criterion.h>
#include <inttypes.h>

#include "test_common.h"

struct bx64 {
    uint64_t start, size;
};
struct bx8 {
    uint8_t start, size;
};
struct bx16 {
    uint16_t start, size;
};

SKIPLIST_EXTENT_DEFINE(bx_u64, struct bx64, uint64_t, start, size, 4, 8, 1)
SKIPLIST_EXTENT_DEFINE(bx_u8, struct bx8, uint8_t, start, size, 1, 4, 1)
SKIPLIST_EXTENT_DEFINE(bx_u16, struct bx16, uint16_t, start, size, 4, 6, 1)

enum { NX = 40, SNAP_MAX = 300 };

/* A u64 list holding [100 i + 50, +10) for i < NX. */
struct bx_fx {
    struct bx_u64 sl;
    struct tc_alloc ta;
    struct bx64 v[NX];
    /* the snapshot */
    const struct bx64 *e[SNAP_MAX];
    uint64_t start[SNAP_MAX];
    size_t n, bytes;
    unsigned long calls;
};

static void bx_open(struct bx_fx *f)
{
    memset(f, 0, sizeof *f);
    tc_alloc_init(&f->ta);
    cr_assert_eq(bx_u64_init(&f->sl, &f->ta.iface, 11), 0);
    for (size_t i = 0; i < NX; i++) {
        f->v[i].start = 100 * i + 50;
        f->v[i].size = 10;
        cr_assert_eq(bx_u64_insert(&f->sl, &f->v[i], NULL), 0);
    }
}

static void bx_snap(struct bx_fx *f)
{
    struct bx_u64_iter it;
    size_t k = 0;
    for (struct bx64 *e = bx_u64_iter_first(&it, &f->sl); e;
         e = bx_u64_iter_next(&it)) {
        cr_assert_lt(k, SNAP_MAX);
        f->e[k] = e;
        f->start[k++] = e->start;
    }
    f->n = bx_u64_count(&f->sl);
    cr_assert_eq(k, f->n);
    f->bytes = bx_u64_bytes(&f->sl);
    f->calls = f->ta.calls;
}

/* The list holds what bx_snap() saw. A refused call allocates nothing,
 * except an -ENOMEM one (allocs_ok): that may keep the index nodes it
 * reserved before the failing allocation (the list's stash, which the
 * next insert uses and destroy frees), so bytes may only grow. */
static void bx_same(struct bx_fx *f, const char *what, bool allocs_ok)
{
    char why[256] = "";
    cr_assert_eq(bx_u64_check(&f->sl, why, sizeof why), 0, "%s: check: %s",
                 what, why);
    cr_assert_eq(bx_u64_count(&f->sl), f->n, "%s: count", what);
    const size_t bytes = bx_u64_bytes(&f->sl);
    cr_assert(bytes == f->bytes || (allocs_ok && bytes > f->bytes),
              "%s: bytes %zu, were %zu", what, bytes, f->bytes);
    cr_assert(allocs_ok || f->ta.calls == f->calls, "%s: allocated", what);
    struct bx_u64_iter it;
    size_t k = 0;
    for (struct bx64 *e = bx_u64_iter_first(&it, &f->sl); e;
         e = bx_u64_iter_next(&it), k++) {
        cr_assert(k < f->n && e == f->e[k] && e->start == f->start[k],
                  "%s: extent %zu changed", what, k);
        cr_assert_eq(bx_u64_lookup(&f->sl, e->start), e, "%s: lookup %zu", what,
                     k);
    }
    cr_assert_eq(k, f->n, "%s: length", what);
}

static void bx_close(struct bx_fx *f)
{
    bx_u64_destroy(&f->sl, NULL, NULL);
    cr_assert_eq(f->ta.live, 0, "%ld blocks leaked", f->ta.live);
    cr_assert_eq(f->ta.bad_frees, 0);
}

static struct bx_fx the_fx;

static struct bx64 *const POISON = (struct bx64 *)&POISON;

/* insert(NULL): -EINVAL, *clash untouched. api.md's extent row lists
 * -EINVAL for size 0 and wrapping only (see docs/errors.md). */
Test(bad_extent, insert_null)
{
    struct bx_fx *f = &the_fx;
    bx_open(f);
    bx_snap(f);
    struct bx64 *clash = POISON;
    cr_assert_eq(bx_u64_insert(&f->sl, NULL, &clash), -EINVAL);
    cr_assert_eq(clash, POISON, "-EINVAL wrote *clash");
    bx_same(f, "insert(NULL)", false);
    cr_assert_eq(bx_u64_insert(&f->sl, NULL, NULL), -EINVAL);
    bx_same(f, "insert(NULL, NULL)", false);
    bx_close(f);
}

/* An element inserted twice overlaps itself: -EEXIST, *clash = e. */
Test(bad_extent, insert_twice)
{
    struct bx_fx *f = &the_fx;
    bx_open(f);
    bx_snap(f);
    static const size_t pick[] = {0, NX / 2, NX - 1};
    for (size_t p = 0; p < 3; p++) {
        struct bx64 *e = &f->v[pick[p]], *clash = NULL;
        cr_assert_eq(bx_u64_insert(&f->sl, e, &clash), -EEXIST);
        cr_assert_eq(clash, e);
        bx_same(f, "insert(e already in)", false);
    }
    bx_close(f);
}

Test(bad_extent, insert_hole_null)
{
    struct bx_fx *f = &the_fx;
    bx_open(f);
    bx_snap(f);
    cr_assert_eq(bx_u64_insert_hole(&f->sl, NULL, 1, 0, UINT64_MAX,
                                    SKIPLIST_HOLE_LOWEST),
                 -EINVAL);
    bx_same(f, "insert_hole(NULL)", false);
    bx_close(f);
}

/* Flags other than SKIPLIST_HOLE_LOWEST and SKIPLIST_HOLE_HIGHEST,
 * including both OR-ed together. */
Test(bad_extent, insert_hole_bad_flags)
{
    struct bx_fx *f = &the_fx;
    bx_open(f);
    bx_snap(f);
    const int bad[] = {-1, 2, 3, 0x100,
                       SKIPLIST_HOLE_LOWEST | SKIPLIST_HOLE_HIGHEST | 4};
    struct bx64 e = {777, 4};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_eq(bx_u64_insert_hole(&f->sl, &e, 1, 0, UINT64_MAX, bad[i]),
                     -EINVAL, "flags %d", bad[i]);
        cr_assert_eq(e.start, 777, "flags %d: e->start written", bad[i]);
        bx_same(f, "insert_hole(bad flags)", false);
    }
    bx_close(f);
}

/* "On error e is unchanged": every way insert_hole can refuse, e's start
 * and size stay what the caller left there, and the list is unchanged. */
Test(bad_extent, insert_hole_error_leaves_e_unchanged)
{
    struct bx_fx *f = &the_fx;
    bx_open(f);
    bx_snap(f);
    const int lo = SKIPLIST_HOLE_LOWEST, hi = SKIPLIST_HOLE_HIGHEST;
    struct {
        uint64_t size, align, lo, hi;
        int flags, want;
        const char *what;
    } rows[] = {
        {0, 1, 0, UINT64_MAX, lo, -EINVAL, "size 0"},
        {4, 0, 0, UINT64_MAX, lo, -EINVAL, "align 0"},
        {4, 3, 0, UINT64_MAX, hi, -EINVAL, "align 3"},
        {4, UINT64_MAX, 0, UINT64_MAX, lo, -EINVAL, "align UINT64_MAX"},
        {4, 1, 200, 199, lo, -EINVAL, "lo > hi"},
        {4, 1, UINT64_MAX, 0, hi, -EINVAL, "lo > hi at the ends"},
        {1, 1, 50, 59, lo, -ENOSPC, "window occupied"},
        {10, 1, 60, 65, hi, -ENOSPC, "window too narrow"},
        {70, 128, 61, 140, lo, -ENOSPC, "no aligned start fits"},
        {2, 1, UINT64_MAX, UINT64_MAX, hi, -ENOSPC, "past the top"},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        struct bx64 e = {0x5eed, rows[r].size};
        cr_assert_eq(bx_u64_insert_hole(&f->sl, &e, rows[r].align, rows[r].lo,
                                        rows[r].hi, rows[r].flags),
                     rows[r].want, "%s", rows[r].what);
        cr_assert_eq(e.start, 0x5eed, "%s: e->start written", rows[r].what);
        cr_assert_eq(e.size, rows[r].size, "%s: e->size written", rows[r].what);
        bx_same(f, rows[r].what, false);
    }
    bx_close(f);
}

/* -ENOMEM from insert_hole, the failure at every allocation the call
 * makes in turn: -ENOMEM, e unchanged, the extents unchanged (reserved
 * index nodes may stay, see bx_same), nothing leaked at destroy. The
 * hole is in the first leaf, full, so the insert splits it. */
Test(bad_extent, insert_hole_enomem_leaves_e_unchanged)
{
    struct bx_fx *f = &the_fx;
    bx_open(f);
    unsigned long refused = 0;
    for (unsigned long k = 1;; k++) {
        bx_snap(f);
        struct bx64 e = {0x5eed, 5};
        tc_alloc_fail_at(&f->ta, k);
        int rc = bx_u64_insert_hole(&f->sl, &e, 1, 0, UINT64_MAX,
                                    SKIPLIST_HOLE_LOWEST);
        tc_alloc_heal(&f->ta);
        if (rc == 0) {
            cr_assert_eq(e.start, 0);
            break;
        }
        refused++;
        cr_assert_eq(rc, -ENOMEM, "allocation %lu failing: %d", k, rc);
        cr_assert_eq(e.start, 0x5eed, "allocation %lu failing: e->start", k);
        bx_same(f, "insert_hole under -ENOMEM", true);
        cr_assert_lt(k, 32);
    }
    cr_assert_gt(refused, 0, "insert_hole never allocated");
    bx_close(f);
}

/* The top of an 8-bit key type: [255, 255] and [0, 255] are valid (the
 * largest size is 255, as K_T holds no 256); every extent whose last byte
 * would be 256 or more is -EINVAL, not -EEXIST, even over a clash. */
Test(bad_extent, u8_key_top)
{
    struct tc_alloc ta;
    struct bx_u8 sl;
    tc_alloc_init(&ta);
    cr_assert_eq(bx_u8_init(&sl, &ta.iface, 1), 0);
    struct bx8 top = {255, 1}, low = {0, 255}, *clash = NULL;
    cr_assert_eq(bx_u8_insert(&sl, &top, NULL), 0);
    cr_assert_eq(bx_u8_insert(&sl, &low, NULL), 0);
    cr_assert_eq(bx_u8_lookup(&sl, 255), &top);
    cr_assert_eq(bx_u8_lookup(&sl, 254), &low);
    const size_t bytes = bx_u8_bytes(&sl);
    const unsigned long calls = ta.calls;
    static const uint8_t wrap[][2] = {
        {255, 2}, {250, 7}, {2, 255}, {255, 255}, {129, 128}};
    for (size_t i = 0; i < sizeof wrap / sizeof wrap[0]; i++) {
        struct bx8 w = {wrap[i][0], wrap[i][1]};
        clash = NULL;
        cr_assert_eq(bx_u8_insert(&sl, &w, &clash), -EINVAL, "[%u +%u]",
                     w.start, w.size);
        cr_assert_null(clash);
    }
    struct bx8 dup = {255, 1};
    cr_assert_eq(bx_u8_insert(&sl, &dup, &clash), -EEXIST);
    cr_assert_eq(clash, &top);
    struct bx8 h = {9, 1};
    cr_assert_eq(bx_u8_insert_hole(&sl, &h, 1, 0, 255, SKIPLIST_HOLE_HIGHEST),
                 -ENOSPC);
    cr_assert_eq(h.start, 9);
    struct bx8 *o = NULL;
    cr_assert_eq(bx_u8_first_overlap(&sl, 255, 254, &o), -EINVAL);
    cr_assert_eq(bx_u8_first_overlap(&sl, 255, 255, &o), 0);
    cr_assert_eq(o, &top);
    cr_assert_eq(bx_u8_count(&sl), 2);
    cr_assert_eq(bx_u8_bytes(&sl), bytes);
    cr_assert_eq(ta.calls, calls, "a refused call allocated");
    char why[256] = "";
    cr_assert_eq(bx_u8_check(&sl, why, sizeof why), 0, "%s", why);
    /* Freed, the top byte is found by the hole search from either end. */
    cr_assert_eq(bx_u8_erase(&sl, &top), 0);
    cr_assert_eq(bx_u8_insert_hole(&sl, &h, 1, 0, 255, SKIPLIST_HOLE_LOWEST),
                 0);
    cr_assert_eq(h.start, 255);
    bx_u8_destroy(&sl, NULL, NULL);
    cr_assert_eq(ta.live, 0);
    cr_assert_eq(ta.bad_frees, 0);
}

/* The same at the top of a 16-bit key type, with an aligned hole search
 * whose only aligned candidate would pass the top. */
Test(bad_extent, u16_key_top)
{
    struct tc_alloc ta;
    struct bx_u16 sl;
    tc_alloc_init(&ta);
    cr_assert_eq(bx_u16_init(&sl, &ta.iface, 1), 0);
    struct bx16 top = {UINT16_MAX - 3, 4}, *clash = NULL;
    cr_assert_eq(bx_u16_insert(&sl, &top, NULL), 0);
    cr_assert_eq(bx_u16_lookup(&sl, UINT16_MAX), &top);
    const size_t bytes = bx_u16_bytes(&sl);
    const unsigned long calls = ta.calls;
    struct bx16 w = {UINT16_MAX, 2};
    cr_assert_eq(bx_u16_insert(&sl, &w, &clash), -EINVAL);
    w.start = 2;
    w.size = UINT16_MAX;
    cr_assert_eq(bx_u16_insert(&sl, &w, &clash), -EINVAL);
    cr_assert_null(clash);
    /* 0x8000 is the only multiple of 0x8000 above 0x7fff, and [0x8000,
     * +0x8000) ends on UINT16_MAX, which top holds. */
    struct bx16 h = {7, 0x8000};
    cr_assert_eq(bx_u16_insert_hole(&sl, &h, 0x8000, 0x7fff, UINT16_MAX,
                                    SKIPLIST_HOLE_HIGHEST),
                 -ENOSPC);
    cr_assert_eq(h.start, 7);
    cr_assert_eq(bx_u16_count(&sl), 1);
    cr_assert_eq(bx_u16_bytes(&sl), bytes);
    cr_assert_eq(ta.calls, calls);
    char why[256] = "";
    cr_assert_eq(bx_u16_check(&sl, why, sizeof why), 0, "%s", why);
    bx_u16_destroy(&sl, NULL, NULL);
    cr_assert_eq(ta.live, 0);
    cr_assert_eq(ta.bad_frees, 0);
}
