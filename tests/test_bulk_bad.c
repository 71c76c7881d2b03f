/*
 * Bad input to the bulk calls (issue #30), the rows of docs/errors.md's
 * "Bulk operations" section: name_build on a list that is not empty, with
 * no array, with a NULL element, with keys out of order (a map's equal
 * keys too), with extents that are empty, wrap past the key type's
 * maximum or overlap the one before, with an element given twice or
 * queued in another queue; name_erase_range with lo above hi.
 *
 * Every refused call is checked for its exact return value and for what
 * it leaves: a list that was not empty keeps its elements in order, its
 * bytes, check() passing, and the call did not allocate; a refused build
 * of an empty list leaves it empty with its bytes and the allocator's
 * blocks as before (a build that finds the bad element in a later leaf
 * has allocated and freed again; one refused before it reads an element
 * allocates nothing) and no element queued. Each row runs on the ordered
 * index (leaf size 4, plain and ranked), the extent index (4 keys per
 * leaf, 64 and 32 bits, plain and ranked) and the queue (leaf size 4, and
 * the defaults: one leaf) where the call exists. Every test ends with
 * zero live blocks.
 */
#include <criterion/criterion.h>

#include "test_common.h"
#include "model_map.h"
#include "model_extent.h"
#include "model_bulk.h"

KFACE_MAP_DEFINE(bb_map, "map k4", false, BULK_ITEM_KEY, SKIPLIST_CMP_NUM, 4, 8,
                 1)
KFACE_RANKED_DEFINE(bb_rk, "map k4 ranked", false, BULK_ITEM_KEY,
                    SKIPLIST_CMP_NUM, 4, 8, 1)
KFACE_PQ_DEFINE(bb_pq, "pq k4", 4, 8, 1)
KFACE_PQ_DEFINE(bb_pq_one, "pq defaults", SKIPLIST_DEFAULT_KPN,
                SKIPLIST_DEFAULT_MAXLVL, SKIPLIST_PQ_DEFAULT_PSHIFT)

/* xops_all: u64/k4 (2), u32/k4 (6) and their ranked twins (10, 14). */
static const size_t bb_extents[] = {2, 6, 10, 14};

enum { BB_N = 40 }; /* elements of a build: ten leaves of 4 */

/* One list under test and what it held before the call. */
struct bb {
    struct bulk_target t;
    const struct bulk_ops *b;
    struct bulk_view o;
    struct tc_alloc ta;
    void *l;
    struct bulk_set all;         /* every element, held then given */
    struct bulk_set held, given; /* in the list; for the call (views) */
    struct bulk_snap snap;
    long live;
};

static struct bb the_bb;

/* A list (on the counting allocator, or on the default one when
 * never_written: then not even the aux block exists) holding `held`
 * elements, and `given` more for the call: keys, or extents, after the
 * held ones. */
static struct bb *bb_open(struct bulk_target t, size_t held, size_t given,
                          bool never_written)
{
    struct bb *f = &the_bb;
    memset(f, 0, sizeof(*f));
    f->t = t;
    f->b = bulk_ops_of(&t);
    f->o = bulk_view_of(&t);
    tc_alloc_init(&f->ta);
    int err = 0;
    f->l = bulk_open(&t, never_written ? NULL : &f->ta.iface, 5, &err);
    cr_assert(f->l && err == 0, "%s: init", bulk_label(&t));
    bulk_set_make(&f->all, &t, held + given);
    f->held = f->all;
    f->held.n = held;
    f->given = f->all;
    f->given.v += held;
    f->given.n = given;
    f->given.items = f->all.items ? f->all.items + held : NULL;
    cr_assert_eq(f->b->build(f->l, f->held.v, held), 0, "%s: build",
                 bulk_label(&t));
    cr_assert(bulk_snap_take(&f->snap, &f->o, f->l, &f->ta));
    f->live = f->ta.live;
    return f;
}

/* Nothing changed since bb_open (the allocator not called when
 * no_calls); no element given is queued. */
static void bb_same(struct bb *f, bool no_calls, const char *what)
{
    char why[256] = "";
    cr_assert(bulk_snap_same(&f->snap, &f->o, f->l, no_calls ? &f->ta : NULL,
                             why, sizeof why),
              "%s: %s: %s", bulk_label(&f->t), what, why);
    cr_assert_eq(f->ta.live, f->live, "%s: %s: %ld blocks more or less",
                 bulk_label(&f->t), what, f->ta.live - f->live);
    cr_assert_not(bulk_set_any_queued(&f->given, &f->t), "%s: %s: queued",
                  bulk_label(&f->t), what);
}

static void bb_close(struct bb *f)
{
    bulk_close(&f->t, f->l);
    cr_assert_eq(f->ta.live, 0, "%s: %ld blocks leaked", bulk_label(&f->t),
                 f->ta.live);
    cr_assert_eq(f->ta.bad_frees, 0);
    bulk_set_free(&f->all, &f->t);
    cr_assert(tc_no_leaks());
}

/* The build of the given elements is refused with -EINVAL and changes
 * nothing; then (unless the list holds elements) the same elements,
 * repaired by fix, build. */
static void bb_refused(struct bb *f, const char *what, bool no_calls,
                       void (*fix)(struct bb *f))
{
    int rc = f->b->build(f->l, f->given.v, f->given.n);
    cr_assert_eq(rc, -EINVAL, "%s: %s: build returned %d", bulk_label(&f->t),
                 what, rc);
    bb_same(f, no_calls, what);
    if (!fix || f->held.n)
        return;
    fix(f);
    cr_assert_eq(f->b->build(f->l, f->given.v, f->given.n), 0,
                 "%s: %s: the repaired build", bulk_label(&f->t), what);
    char why[256] = "";
    cr_assert_eq(f->o.check(f->l, why, sizeof why), 0, "%s", why);
    cr_assert_eq(f->o.count(f->l), f->given.n);
}

/* Every target a row runs on: the keyed faces, then the extents. */
static size_t bb_targets(struct bulk_target *t, bool queues)
{
    size_t n = 0;
    t[n++] = (struct bulk_target){&bb_map_kface, NULL};
    t[n++] = (struct bulk_target){&bb_rk_kface, NULL};
    if (queues) {
        t[n++] = (struct bulk_target){&bb_pq_kface, NULL};
        t[n++] = (struct bulk_target){&bb_pq_one_kface, NULL};
    }
    for (size_t i = 0; i < sizeof(bb_extents) / sizeof(bb_extents[0]); i++)
        t[n++] = (struct bulk_target){NULL, xops_all[bb_extents[i]]};
    return n;
}

/* A list that holds elements (one leaf, several) refuses a build, also of
 * nothing, without allocating or touching the elements given. */
Test(bad_bulk, build_on_non_empty_list)
{
    struct bulk_target t[8];
    size_t nt = bb_targets(t, true);
    const size_t held[] = {1, 3, BB_N};
    for (size_t i = 0; i < nt; i++)
        for (size_t h = 0; h < 3; h++) {
            struct bb *f = bb_open(t[i], held[h], 5, false);
            bb_refused(f, "a build of 5", true, NULL);
            f->given.n = 0;
            bb_refused(f, "a build of 0", true, NULL);
            bb_close(f);
        }
}

/* No array: -EINVAL before anything is read or allocated, on a list on
 * the counting allocator and on one never written (default allocator);
 * no array and no elements is an empty build: 0. */
Test(bad_bulk, build_null_array)
{
    struct bulk_target t[8];
    size_t nt = bb_targets(t, true);
    for (size_t i = 0; i < nt; i++)
        for (int never = 0; never < 2; never++) {
            struct bb *f = bb_open(t[i], 0, 3, never);
            int rc = f->b->build(f->l, NULL, 3);
            cr_assert_eq(rc, -EINVAL, "%s: build(NULL, 3) = %d",
                         bulk_label(&t[i]), rc);
            bb_same(f, true, "build(NULL, 3)");
            rc = f->b->build(f->l, NULL, 0);
            cr_assert_eq(rc, 0, "%s: build(NULL, 0) = %d", bulk_label(&t[i]),
                         rc);
            bb_same(f, true, "build(NULL, 0)");
            bb_close(f);
        }
}

static void *bb_hole; /* the element bb_null_at took out */
static size_t bb_hole_at;

static void bb_put_back(struct bb *f)
{
    f->given.v[bb_hole_at] = bb_hole;
}

/* A NULL element first, in the middle, in a later leaf or last: -EINVAL,
 * the list empty, what the build allocated freed, no element queued; the
 * elements build once the hole is filled. */
Test(bad_bulk, build_null_element)
{
    struct bulk_target t[8];
    size_t nt = bb_targets(t, true);
    const size_t at[] = {0, 2, 21, BB_N - 1};
    for (size_t i = 0; i < nt; i++)
        for (size_t a = 0; a < 4; a++) {
            struct bb *f = bb_open(t[i], 0, BB_N, a % 2);
            bb_hole_at = at[a];
            bb_hole = f->given.v[at[a]];
            f->given.v[at[a]] = NULL;
            bb_refused(f, "a NULL element", false, bb_put_back);
            bb_close(f);
        }
}

/* Keys out of order: element j gets element i's key (equal keys, j = i +
 * 1), or a key below element i's (a descent); -EINVAL wherever it is,
 * the ordered index refusing equal keys and the queue taking them. */
static size_t bb_j;
static uint64_t bb_key_j;

static void bb_key_back(struct bb *f)
{
    f->given.items[bb_j].m.key = bb_key_j;
}

Test(bad_bulk, build_keys_out_of_order)
{
    const struct kface *const k[] = {&bb_map_kface, &bb_rk_kface, &bb_pq_kface,
                                     &bb_pq_one_kface};
    /* (i, j): in one leaf, across a leaf boundary, the last two */
    const size_t pairs[][2] = {
        {0, 1}, {5, 6}, {2, 3}, {3, 4}, {BB_N - 2, BB_N - 1}};
    for (size_t c = 0; c < 4; c++)
        for (size_t p = 0; p < 5; p++)
            for (int equal = 0; equal < 2; equal++) {
                struct bulk_target t = {k[c], NULL};
                struct bb *f = bb_open(t, 0, BB_N, p % 2);
                size_t i = pairs[p][0];
                bb_j = pairs[p][1];
                bb_key_j = f->given.items[bb_j].m.key;
                uint64_t ki = f->given.items[i].m.key;
                f->given.items[bb_j].m.key = equal ? ki : ki - 1;
                if (equal && k[c]->queue) { /* FIFO among equals: built */
                    cr_assert_eq(f->b->build(f->l, f->given.v, BB_N), 0);
                    for (size_t e = 0; e < BB_N; e++)
                        cr_assert_eq(k[c]->pop(f->l), &f->given.items[e],
                                     "%s: pop %zu", k[c]->label, e);
                } else {
                    bb_refused(f, equal ? "equal keys" : "a descent", false,
                               bb_key_back);
                }
                bb_close(f);
            }
}

/* An extent of size 0, one passing the key type's maximum (wrapping), one
 * overlapping the one before (by one unit; the same start), in the first
 * leaf, across a leaf boundary or last: -EINVAL. Touching the one before
 * (starting right after its last unit) is not an overlap: built. */
static uint64_t bb_start_j, bb_size_j;

static void bb_extent_back(struct bb *f)
{
    f->t.x->set(f->given.v[bb_j], bb_start_j, bb_size_j);
}

Test(bad_bulk, build_extents_invalid)
{
    const size_t js[] = {0, 3, 4, BB_N - 1};
    for (size_t x = 0; x < sizeof(bb_extents) / sizeof(bb_extents[0]); x++) {
        const struct xops *o = xops_all[bb_extents[x]];
        for (size_t jj = 0; jj < 4; jj++)
            for (int kind = 0; kind < 5; kind++) {
                struct bulk_target t = {NULL, o};
                struct bb *f = bb_open(t, 0, BB_N, jj % 2);
                size_t j = bb_j = js[jj];
                void *e = f->given.v[j];
                bb_start_j = o->start(e);
                bb_size_j = o->size(e);
                uint64_t prev_last = j ? o->start(f->given.v[j - 1]) +
                                             (o->size(f->given.v[j - 1]) - 1)
                                       : 0;
                const char *what = "";
                if (kind == 0) {
                    what = "size 0";
                    o->set(e, bb_start_j, 0);
                } else if (kind == 1) {
                    what = "wrapping past the maximum";
                    o->set(e, bb_start_j, o->max - bb_start_j + 2);
                } else if (kind == 2 && j > 0) {
                    what = "overlapping the one before by a unit";
                    o->set(e, prev_last, bb_size_j);
                } else if (kind == 3 && j > 0) {
                    what = "starting where the one before starts";
                    o->set(e, o->start(f->given.v[j - 1]), 1);
                } else if (kind == 4 && j > 0) { /* touching: fine */
                    o->set(e, prev_last + 1, bb_size_j);
                    cr_assert_eq(f->b->build(f->l, f->given.v, BB_N), 0,
                                 "%s: touching extents refused", o->label);
                    bb_close(f);
                    continue;
                } else {
                    bb_close(f);
                    continue;
                }
                bb_refused(f, what, false, bb_extent_back);
                bb_close(f);
            }
    }
}

/* The last extent ending at the key type's maximum is valid; one unit
 * more wraps. On the 32-bit instance the maximum is reached by real
 * sizes. */
Test(bad_bulk, build_extent_at_the_key_maximum)
{
    for (size_t x = 0; x < sizeof(bb_extents) / sizeof(bb_extents[0]); x++) {
        const struct xops *o = xops_all[bb_extents[x]];
        struct bulk_target t = {NULL, o};
        struct bb *f = bb_open(t, 0, BB_N, false);
        void *last = f->given.v[BB_N - 1];
        bb_j = BB_N - 1;
        bb_start_j = o->max - 9;
        bb_size_j = 10;
        o->set(last, bb_start_j, 11);
        bb_refused(f, "the last extent wrapping by one unit", false,
                   bb_extent_back);
        cr_assert_eq(o->lookup(f->l, o->max), last, "%s: lookup(max)",
                     o->label);
        bb_close(f);
    }
}

/* A queue's element given twice (next to itself, or in another leaf) is
 * refused when it is met the second time, queued by this build then:
 * -EINVAL, the queue empty, neither copy queued. So is an element queued
 * in another queue, which keeps it. */
Test(bad_bulk, build_pq_element_twice_or_queued_elsewhere)
{
    const struct kface *const k[] = {&bb_pq_kface, &bb_pq_one_kface};
    const size_t pairs[][2] = {{0, 1}, {4, 5}, {1, 30}, {BB_N - 2, BB_N - 1}};
    for (size_t c = 0; c < 2; c++) {
        struct bulk_target t = {k[c], NULL};
        for (size_t p = 0; p < 4; p++) {
            struct bb *f = bb_open(t, 0, BB_N, p % 2);
            size_t i = pairs[p][0], j = pairs[p][1];
            void *was = f->given.v[j];
            f->given.items[i].m.key = f->given.items[j].m.key; /* in order */
            for (size_t e = i + 1; e < j; e++)
                f->given.items[e].m.key = f->given.items[j].m.key;
            f->given.v[j] = f->given.v[i];
            bb_refused(f, "an element given twice", false, NULL);
            f->given.v[j] = was;
            bb_close(f);
        }
        /* queued in another queue */
        struct bb *f = bb_open(t, 0, BB_N, false);
        void *other = malloc(k[c]->size);
        cr_assert_not_null(other);
        cr_assert_eq(k[c]->init(other, NULL, 9), 0);
        struct bulk_item *e = &f->given.items[BB_N / 2];
        cr_assert_eq(k[c]->insert(other, e), 0);
        int rc = f->b->build(f->l, f->given.v, BB_N);
        cr_assert_eq(rc, -EINVAL, "%s: an element queued elsewhere: %d",
                     k[c]->label, rc);
        char why[256] = "";
        cr_assert_eq(f->o.check(f->l, why, sizeof why), 0, "%s", why);
        cr_assert_eq(f->o.count(f->l), 0);
        cr_assert_eq(f->ta.live, f->live);
        cr_assert(k[c]->queued(e), "%s: the other queue lost it", k[c]->label);
        cr_assert_eq(k[c]->check(other, why, sizeof why), 0, "%s", why);
        cr_assert_eq(k[c]->pop(other), e);
        cr_assert_null(k[c]->pop(other));
        for (size_t n = 0; n < BB_N; n++)
            cr_assert(n == BB_N / 2 || !k[c]->queued(&f->given.items[n]),
                      "%s: element %zu queued", k[c]->label, n);
        k[c]->destroy(other);
        free(other);
        bb_close(f);
    }
}

static void bb_never(void *e, void *arg)
{
    (void)e;
    (*(size_t *)arg)++;
}

/* lo above hi: 0, fn never called, nothing changed or allocated, on lists
 * empty (never written too), of one leaf and of several; keys next to each
 * other and far apart, present and absent. */
Test(bad_bulk, erase_range_lo_above_hi)
{
    struct bulk_target t[8];
    size_t nt = bb_targets(t, false);
    const size_t held[] = {0, 3, BB_N};
    for (size_t i = 0; i < nt; i++)
        for (size_t h = 0; h < 3; h++)
            for (int never = 0; never < 2; never++) {
                if (never && held[h])
                    continue;
                struct bb *f = bb_open(t[i], held[h], 0, never);
                uint64_t max = t[i].x ? t[i].x->max : UINT64_MAX;
                const uint64_t r[][2] = {
                    {6, 5},   {15, 5},        {16, 14},      {max, 0},
                    {max, 5}, {BB_N * 10, 5}, {max, max - 1}};
                for (size_t k = 0; k < 7; k++) {
                    size_t calls = 0;
                    size_t got = f->b->erase_range(f->l, r[k][0], r[k][1],
                                                   bb_never, &calls);
                    cr_assert_eq(got, 0,
                                 "%s: erase_range(%" PRIu64 ", %" PRIu64
                                 ") = %zu",
                                 bulk_label(&t[i]), r[k][0], r[k][1], got);
                    cr_assert_eq(calls, 0, "%s: fn called", bulk_label(&t[i]));
                    bb_same(f, true, "erase_range with lo above hi");
                }
                bb_close(f);
            }
}
