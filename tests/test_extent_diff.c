/*
 * Differential test of the extent face against the naive model of
 * model_extent.h: one random operation stream drives both, and every result
 * (return code, element returned, start chosen by insert_hole, overlap
 * lists, whole contents in both directions) must agree. check() runs after
 * every mutation, so a broken gap summary is caught at the operation that
 * broke it.
 *
 * The stream works in phases, each on a window of the key space: at 0, in
 * the middle, or ending at the key type's maximum, dense enough that
 * inserts clash, holes fit exactly and alignment matters. Each phase has its
 * own target size, so the list both shrinks to nothing and grows to
 * hundreds of extents (many leaves and levels at every KPN).
 *
 * Every configuration runs again as a ranked instance
 * (SKIPLIST_EXTENT_RANKED_DEFINE): after every operation one of each
 * order-statistics query (rank, at, rank_of, count_range, iter_at) is
 * checked against the model (d_rank), and each full comparison checks them
 * at every position (mx_rank_compare).
 *
 * SEED=<n> replays a run; TEST_SCALE=<k> runs k times longer.
 */
#include <criterion/criterion.h>
#include <inttypes.h>

#include "test_common.h"
#include "model_extent.h"

#define POOL 600 /* elements per run: bounds the list size */

struct diff {
    const struct xops *o;
    void *l;
    struct model_extent m;
    struct tc_rng r;
    struct tc_alloc ta;
    bool counted; /* list uses ta (else the library's default allocator) */
    uint64_t seed;
    unsigned long op;
    void *pool[POOL];
    bool in[POOL];
    size_t live;
    /* current phase */
    uint64_t base, width; /* window [base, base + width - 1] */
    size_t target;        /* live count the phase steers towards */
    void *buf_a[POOL + 1], *buf_b[POOL + 1];
    unsigned long rank_rounds; /* d_rank calls (ranked instances) */
    /* what the stream exercised, printed at the end */
    unsigned long ins_ok, ins_clash, hole_ok, hole_nospc, einval;
    size_t max_live;
    unsigned long skipped; /* mutations since check() last ran */
};

/* fmt needs at least one argument (C11 has no empty __VA_ARGS__). */
#define D_OK(d, cond, fmt, ...)                                           \
    cr_assert((cond), "[%s SEED=%" PRIu64 " op %lu] " fmt, (d)->o->label, \
              (d)->seed, (d)->op, __VA_ARGS__)

static uint64_t d_rand(struct diff *d, uint64_t n)
{
    return tc_below(&d->r, n);
}

/* A point in the window, or occasionally anywhere in the key space. */
static uint64_t d_point(struct diff *d)
{
    if (d_rand(d, 50) == 0)
        return d->o->max - d_rand(d, 4); /* the very top */
    if (d_rand(d, 50) == 0)
        return d_rand(d, 4); /* the very bottom */
    return d->base + d_rand(d, d->width);
}

/* Sizes skewed small, with the odd large or invalid one. */
static uint64_t d_size(struct diff *d)
{
    uint64_t k = d_rand(d, 100);
    if (k < 60)
        return 1 + d_rand(d, 8);
    if (k < 85)
        return 1 + d_rand(d, 64);
    if (k < 96)
        return 1 + d_rand(d, d->width / 4);
    if (k < 98)
        return 0;
    return d->o->max - d_rand(d, 3); /* nearly the whole space */
}

/* Near an existing extent's edges, where off-by-ones live. */
static uint64_t d_edge_point(struct diff *d)
{
    if (d->m.n == 0 || d_rand(d, 3) == 0)
        return d_point(d);
    const struct mx_ext *x = &d->m.v[d_rand(d, d->m.n)];
    switch (d_rand(d, 4)) {
    case 0:
        return x->start;
    case 1:
        return x->last;
    case 2:
        return x->start ? x->start - 1 : x->start;
    default:
        return x->last < d->o->max ? x->last + 1 : x->last;
    }
}

/* check() is O(n): after every mutation for the first CHECK_ALL ops, then
 * after every CHECK_EVERY-th, so long runs stay affordable (TESTING.md). */
#define CHECK_ALL 20000ul
#define CHECK_EVERY 8ul

static void d_check(struct diff *d)
{
    if (d->op >= CHECK_ALL && ++d->skipped % CHECK_EVERY != 0)
        return;
    char why[256] = "";
    int r = d->o->check(d->l, why, sizeof(why));
    D_OK(d, r == 0, "check() = %d: %s", r, why);
    size_t c = d->o->count(d->l);
    D_OK(d, c == d->m.n, "count %zu, model %zu", c, d->m.n);
}

/* Whole contents, forward and backward, element by element. */
static void d_compare_all(struct diff *d)
{
    size_t n = d->o->walk(d->l, d->buf_a, POOL + 1);
    D_OK(d, n == d->m.n, "walk gave %zu, model has %zu", n, d->m.n);
    for (size_t i = 0; i < n; i++) {
        D_OK(d, d->buf_a[i] == d->m.v[i].tag, "walk[%zu] differs", i);
        D_OK(d,
             d->o->start(d->buf_a[i]) == d->m.v[i].start &&
                 d->o->start(d->buf_a[i]) + (d->o->size(d->buf_a[i]) - 1) ==
                     d->m.v[i].last,
             "walk[%zu]: element fields changed", i);
    }
    n = d->o->walk_rev(d->l, d->buf_b, POOL + 1);
    D_OK(d, n == d->m.n, "reverse walk gave %zu, model has %zu", n, d->m.n);
    for (size_t i = 0; i < n; i++)
        D_OK(d, d->buf_b[i] == d->m.v[d->m.n - 1 - i].tag,
             "reverse walk[%zu] differs", i);
    char why[200] = "";
    D_OK(d,
         !d->o->rank ||
             mx_rank_compare(d->o, d->l, &d->m, d->buf_a, why, sizeof(why)),
         "%s", why);
}

/* A key for rank or count_range: an extent's edge or next to it, a point
 * of the window, or an end of the key space. */
static uint64_t d_rank_point(struct diff *d)
{
    if (d_rand(d, 10) == 0)
        return d_rand(d, 2) ? 0 : d->o->max;
    return d_edge_point(d);
}

/*
 * One of each order-statistics query of a ranked instance against the
 * model: rank of a point, at a position, rank_of a pool element (member
 * or not) or of NULL, count_range of a closed window (one point, reversed,
 * the whole key space or between two points), iter_at and the steps next
 * to it. Runs after every operation.
 */
static void d_rank(struct diff *d)
{
    const struct rank_ops *q = d->o->rank;
    d->rank_rounds++;
    uint64_t k = d_rank_point(d);
    size_t got = q->rank(d->l, k), want = mx_rank(&d->m, k);
    D_OK(d, got == want, "rank(%#" PRIx64 ") = %zu, model %zu", k, got, want);
    size_t i = rank_pos(&d->r, d->m.n);
    void *e = q->at(d->l, i);
    const void *we = i < d->m.n ? d->m.v[i].tag : NULL;
    D_OK(d, e == we, "at(%zu) = %p, model %p", i, e, we);
    if (d_rand(d, 16) == 0) {
        int64_t r = q->rank_of(d->l, NULL);
        D_OK(d, r == -EINVAL, "rank_of(NULL) = %" PRId64, r);
    } else {
        size_t s = (size_t)d_rand(d, POOL);
        size_t at = mx_index_of(&d->m, d->pool[s]);
        int64_t r = q->rank_of(d->l, d->pool[s]);
        int64_t wr = at < d->m.n ? (int64_t)at : -ENOENT;
        D_OK(d, r == wr, "rank_of(%s) = %" PRId64 ", model %" PRId64,
             d->in[s] ? "a member" : "a non-member", r, wr);
    }
    uint64_t lo = d_rank_point(d), hi = d_rank_point(d);
    rank_window(&d->r, &lo, &hi, 0, d->o->max);
    got = q->count_range(d->l, lo, hi);
    want = mx_count_range(&d->m, lo, hi);
    D_OK(d, got == want,
         "count_range(%#" PRIx64 ", %#" PRIx64 ") = %zu, model %zu", lo, hi,
         got, want);
    i = rank_pos(&d->r, d->m.n);
    int bad = rank_steps_check(q, d->l, &d->m, d->m.n, mx_elem, i);
    D_OK(d, bad < 0,
         "iter_at(%zu) (count %zu): result %d of at, get, next, prev differs",
         i, d->m.n, bad);
}

static size_t d_free_slot(struct diff *d)
{
    size_t i = (size_t)d_rand(d, POOL);
    for (size_t k = 0; k < POOL; k++, i = (i + 1) % POOL)
        if (!d->in[i])
            return i;
    return POOL;
}

static size_t d_live_slot(struct diff *d)
{
    size_t i = (size_t)d_rand(d, POOL);
    for (size_t k = 0; k < POOL; k++, i = (i + 1) % POOL)
        if (d->in[i])
            return i;
    return POOL;
}

static void d_new_phase(struct diff *d)
{
    uint64_t max = d->o->max;
    d->width = (uint64_t)1 << (8 + d_rand(d, 9)); /* 256 .. 64 Ki */
    switch (d_rand(d, 4)) {
    case 0:
        d->base = 0;
        break;
    case 1:
        d->base = max - (d->width - 1);
        break;
    default:
        d->base = d_rand(d, max - d->width);
        d->base &= ~(uint64_t)0xfff; /* aligned windows make aligned holes */
        break;
    }
    static const size_t targets[] = {0, 4, 40, 200, 500};
    d->target = targets[d_rand(d, 5)];
}

static void op_insert(struct diff *d)
{
    size_t s = d_free_slot(d);
    if (s == POOL)
        return;
    void *e = d->pool[s];
    uint64_t start = d_point(d), size = d_size(d);
    if (d_rand(d, 4) == 0 && d->m.n) /* right next to a neighbour */
        start = d_edge_point(d);
    d->o->set(e, start, size);
    void *clash = NULL;
    size_t ci = 0;
    int r = d->o->insert(d->l, e, &clash);
    int want = mx_insert(&d->m, start, size, e, &ci);
    D_OK(d, r == want, "insert [%#" PRIx64 " +%#" PRIx64 "] = %d, model %d",
         start, size, r, want);
    if (r == -EEXIST) {
        size_t k = mx_index_of(&d->m, clash);
        D_OK(d, clash && k < d->m.n, "clash %p is not a member", clash);
        D_OK(d,
             d->m.v[k].start <= start + (size - 1) && d->m.v[k].last >= start,
             "clash [%#" PRIx64 ", %#" PRIx64 "] does not overlap",
             d->m.v[k].start, d->m.v[k].last);
    }
    if (r == 0) {
        d->in[s] = true;
        d->live++;
        d->ins_ok++;
    }
    d->ins_clash += r == -EEXIST;
    d->einval += r == -EINVAL;
    d_check(d);
}

static void op_hole(struct diff *d)
{
    size_t s = d_free_slot(d);
    if (s == POOL)
        return;
    void *e = d->pool[s];
    uint64_t max = d->o->max;
    uint64_t size = d_rand(d, 10) ? 1 + d_rand(d, 32) : d_size(d);
    uint64_t align;
    uint64_t k = d_rand(d, 100);
    if (k < 30)
        align = 1;
    else if (k < 90)
        align = (uint64_t)1 << d_rand(d, 10);
    else if (k < 97)
        align = (uint64_t)1 << d_rand(d, max == UINT32_MAX ? 32 : 64);
    else
        align = 3 + d_rand(d, 10); /* mostly not a power of two */
    uint64_t lo, hi;
    k = d_rand(d, 100);
    if (k < 50) {
        lo = d_point(d);
        hi = d_point(d);
        if (lo > hi && d_rand(d, 20)) {
            uint64_t t = lo;
            lo = hi;
            hi = t;
        }
    } else if (k < 80) {
        lo = d->base;
        hi = d->base + (d->width - 1);
    } else if (k < 95) {
        lo = 0;
        hi = max;
    } else {
        lo = d_edge_point(d);
        hi = lo + d_rand(d, 2 * size);
        if (hi < lo || hi > max)
            hi = max;
    }
    bool highest = d_rand(d, 2);
    int flags = highest ? SKIPLIST_HOLE_HIGHEST : SKIPLIST_HOLE_LOWEST;
    d->o->set(e, 0, size);
    int r = d->o->hole(d->l, e, size, align, lo, hi, flags);
    uint64_t want_start = 0;
    int want = mx_hole(&d->m, size, align, lo, hi, highest, &want_start);
    D_OK(d, r == want,
         "insert_hole(size %#" PRIx64 ", align %#" PRIx64 ", [%#" PRIx64
         ", %#" PRIx64 "], %s) = %d, model %d (model start %#" PRIx64 ")",
         size, align, lo, hi, highest ? "HIGH" : "LOW", r, want, want_start);
    if (r == 0) {
        D_OK(d, d->o->start(e) == want_start && d->o->size(e) == size,
             "insert_hole(size %#" PRIx64 ", align %#" PRIx64 ", [%#" PRIx64
             ", %#" PRIx64 "], %s) chose %#" PRIx64 " +%#" PRIx64
             ", model %#" PRIx64,
             size, align, lo, hi, highest ? "HIGH" : "LOW", d->o->start(e),
             d->o->size(e), want_start);
        int mr = mx_insert(&d->m, want_start, size, e, NULL);
        D_OK(d, mr == 0, "model rejected the hole it chose: %d", mr);
        d->in[s] = true;
        d->live++;
        d->hole_ok++;
    }
    d->hole_nospc += r == -ENOSPC;
    d->einval += r == -EINVAL;
    d_check(d);
}

static void op_erase(struct diff *d)
{
    if (d_rand(d, 30) == 0) {
        /* A stranger with the exact extent of a member. */
        size_t s = d_free_slot(d);
        if (s == POOL)
            return;
        void *e = d->pool[s];
        if (d->m.n) {
            const struct mx_ext *x = &d->m.v[d_rand(d, d->m.n)];
            d->o->set(e, x->start, x->last - x->start + 1);
        }
        int r = d->o->erase(d->l, e);
        D_OK(d, r == -ENOENT, "erase of a non-member = %d", r);
        d_check(d);
        return;
    }
    size_t s = d_live_slot(d);
    if (s == POOL)
        return;
    int r = d->o->erase(d->l, d->pool[s]);
    int want = mx_erase(&d->m, d->pool[s]);
    D_OK(d, r == 0 && want == 0, "erase of a member = %d", r);
    d->in[s] = false;
    d->live--;
    D_OK(d, d->o->lookup(d->l, d->o->start(d->pool[s])) == NULL,
         "erased extent %#" PRIx64 " still found", d->o->start(d->pool[s]));
    d_check(d);
}

static void op_lookup(struct diff *d)
{
    uint64_t p = d_edge_point(d);
    void *got = d->o->lookup(d->l, p);
    const void *want = mx_lookup(&d->m, p);
    D_OK(d, got == want, "lookup(%#" PRIx64 ") = %p, model %p", p, got, want);
}

static void d_range(struct diff *d, uint64_t *a, uint64_t *b)
{
    *a = d_edge_point(d);
    uint64_t k = d_rand(d, 20);
    if (k == 0)
        *b = *a; /* empty */
    else if (k == 1)
        *b = *a ? *a - d_rand(d, *a) : 0; /* backwards */
    else if (k == 2)
        *b = d->o->max;
    else
        *b = d_edge_point(d) + 1;
    if (*b > d->o->max || (*b == 0 && k > 2))
        *b = d->o->max; /* the edge point was max: keep b in K_T */
}

static void op_first_overlap(struct diff *d)
{
    uint64_t a, b;
    d_range(d, &a, &b);
    void *got = d; /* stale: every outcome must overwrite it */
    const void *want = NULL;
    int r = d->o->first_overlap(d->l, a, b, &got);
    int mr = mx_first_overlap(&d->m, a, b, &want);
    D_OK(d, r == mr,
         "first_overlap [%#" PRIx64 ", %#" PRIx64 ") = %d, model %d", a, b, r,
         mr);
    D_OK(d, got == want,
         "first_overlap [%#" PRIx64 ", %#" PRIx64 ") = %d, out %p, "
         "model %p",
         a, b, r, got, want);
}

static void op_overlaps(struct diff *d)
{
    uint64_t a, b;
    d_range(d, &a, &b);
    bool by_hand = d_rand(d, 2);
    size_t n = by_hand ? d->o->overlaps_iter(d->l, a, b, d->buf_a, POOL + 1)
                       : d->o->overlaps(d->l, a, b, d->buf_a, POOL + 1);
    size_t k = 0;
    if (a < b)
        for (size_t i = 0; i < d->m.n; i++)
            if (d->m.v[i].start < b && d->m.v[i].last >= a) {
                D_OK(d, k < n && d->buf_a[k] == d->m.v[i].tag,
                     "%s [%#" PRIx64 ", %#" PRIx64 ") item %zu differs",
                     by_hand ? "iter_overlap" : "FOREACH_OVERLAP", a, b, k);
                k++;
            }
    D_OK(d, n == k, "%s [%#" PRIx64 ", %#" PRIx64 ") gave %zu, model %zu",
         by_hand ? "iter_overlap" : "FOREACH_OVERLAP", a, b, n, k);
}

static void op_ends(struct diff *d)
{
    const void *f = d->m.n ? d->m.v[0].tag : NULL;
    const void *l = d->m.n ? d->m.v[d->m.n - 1].tag : NULL;
    D_OK(d, d->o->first(d->l) == f, "first differs, model %p", f);
    D_OK(d, d->o->last(d->l) == l, "last differs, model %p", l);
    uint64_t p = d_edge_point(d);
    size_t i = 0;
    while (i < d->m.n && d->m.v[i].start != p)
        i++;
    D_OK(d, d->o->find(d->l, p) == (i < d->m.n ? d->m.v[i].tag : NULL),
         "find(%#" PRIx64 ") differs", p);
}

static void run_diff(const struct xops *o, unsigned long plain_ops,
                     bool counted)
{
    struct diff *d = (struct diff *)calloc(1, sizeof(*d));
    cr_assert(d != NULL, "out of memory");
    char what[64];
    snprintf(what, sizeof(what), "extent diff %s", o->label);
    d->o = o;
    d->seed = tc_seed(what);
    tc_rng_init(&d->r, d->seed);
    d->counted = counted;
    tc_alloc_init(&d->ta);
    int err = 0;
    d->l = o->new_list(counted ? &d->ta.iface : NULL, d->seed, &err);
    D_OK(d, d->l && err == 0, "init = %d", err);
    mx_init(&d->m, o->max);
    for (size_t i = 0; i < POOL; i++)
        d->pool[i] = o->new_elem(0, 1);

    unsigned long ops = tc_ops(plain_ops);
    d_new_phase(d);
    for (d->op = 0; d->op < ops; d->op++) {
        if (d->op % 5000 == 0)
            d_new_phase(d);
        /* Steer towards the phase's target size. */
        uint64_t grow = d->live < d->target ? 60 : 25;
        uint64_t k = d_rand(d, 100);
        if (k < grow / 2)
            op_insert(d);
        else if (k < grow)
            op_hole(d);
        else if (k < grow + 20)
            op_erase(d);
        else if (k < grow + 45)
            op_lookup(d);
        else if (k < grow + 55)
            op_first_overlap(d);
        else if (k < grow + 65)
            op_overlaps(d);
        else
            op_ends(d);
        if (o->rank)
            d_rank(d);
        if (d->live > d->max_live)
            d->max_live = d->live;
        if (d->op % 1000 == 999)
            d_compare_all(d);
    }
    d_compare_all(d);
    d->op = 0; /* the last check always runs */
    d_check(d);
    fprintf(stderr,
            "%s: SEED=%" PRIu64 ", %lu ops, 0 mismatches (inserts %lu ok %lu "
            "clash, holes %lu ok %lu ENOSPC, %lu EINVAL, max %zu live, %lu "
            "rounds of rank queries)\n",
            what, d->seed, ops, d->ins_ok, d->ins_clash, d->hole_ok,
            d->hole_nospc, d->einval, d->max_live, d->rank_rounds);
    o->del_list(d->l);
    if (counted) {
        D_OK(d, d->ta.live == 0, "%ld allocations leaked", d->ta.live);
        D_OK(d, d->ta.bad_frees == 0, "%lu bad frees", d->ta.bad_frees);
    }
    for (size_t i = 0; i < POOL; i++)
        free(d->pool[i]);
    mx_fini(&d->m);
    free(d);
}

/* 8 runs x 130 000 = 1.04 M operations per plain `make test` run. */
#define DIFF_OPS 130000ul

/* Instantiations are listed in test_extent_ops.c: 0-3 uint64_t, 4-7
 * uint32_t, each with KPN default, 1, 4, 64, then the same eight ranked.
 * The default-KPN runs use the library's own pooled allocator, the others
 * the counting one. Each test runs one configuration, and _ranked its
 * ranked twin. */
#define DIFF_TESTS(name, x, counted)                                 \
    Test(extent_diff, name)                                          \
    {                                                                \
        run_diff(xops_all[x], DIFF_OPS, counted);                    \
    }                                                                \
    Test(extent_diff, name##_ranked)                                 \
    {                                                                \
        run_diff(xops_all[(x) + xops_count / 2], DIFF_OPS, counted); \
    }

DIFF_TESTS(u64_default, 0, false)
DIFF_TESTS(u64_k1, 1, true)
DIFF_TESTS(u64_k4, 2, true)
DIFF_TESTS(u64_k64, 3, true)
DIFF_TESTS(u32_default, 4, false)
DIFF_TESTS(u32_k1, 5, true)
DIFF_TESTS(u32_k4, 6, true)
DIFF_TESTS(u32_k64, 7, true)
