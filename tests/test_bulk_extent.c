/*
 * The bulk calls (issue #30) on the extent face against model_extent.h's
 * sorted array, on eight of tests/test_extent_ops.c's extent
 * instantiations (uint32_t and uint64_t keys; 1, 4, 64 (the default) and
 * 64 keys per leaf with 6 levels; half of them ranked, see XD_TESTS):
 * name_build, name_erase_range (every extent overlapping [lo, hi]
 * leaves), name_find_many (the extent starting at each key) and
 * name_lower_bound_many (the first starting at or after it).
 *
 * As test_bulk_diff.c does for the keyed faces: for each build size of
 * bulk_sizes() and a big one (10^5 on half the instances, 4000 on the
 * others), a build from sorted extents (touching or apart, a quarter of
 * the sets starting at 0, a quarter ending at the key type's maximum),
 * lookups of every start and its neighbours, inserts at once, then random
 * inserts (clashing and invalid ones too), erases, erase_range over
 * ranges of every shape (a point inside an extent, a point between two,
 * one extent exactly, the last unit of one to the first of the next, the
 * whole key space, from 0, to the maximum, reversed, windows over several
 * leaves) and lookups of many keys, with check() after every step and the
 * whole contents compared (both ways, and on a ranked instance every
 * position and rank) after every change of a list of up to 1200 (else
 * every 8th). Last, the list is emptied by erase_range and built again.
 *
 * SEED=<n> replays a test; TEST_SCALE=<k> runs k times the operations.
 */
#include <criterion/criterion.h>
#include <inttypes.h>

#include "test_common.h"
#include "model_extent.h"
#include "model_bulk.h"

/* The big build: 10^5 (a fifth of it under ASan) on half the
 * instances, 4000 on the others. */
enum {
    XD_BIG = TC_SANITIZED ? 20000 : 100000,
    XD_MID = 4000,
    XD_EXTRA = 160,
    XD_MANY_MAX = 80
};

struct xd {
    const struct xops *o;
    const struct bulk_ops *b;
    void *l;
    struct model_extent m;
    void **pool;
    bool *in;
    size_t npool;
    uint64_t *keys; /* scratch: npool keys */
    void **out, **buf;
    struct bulk_rec rec;
    struct tc_alloc ta;
    bool counted;
    struct tc_rng rng;
    uint64_t seed;
    size_t size;
    unsigned long op;
    const char *what;
    unsigned long ranges, erased, lookups;
    unsigned long skipped; /* changes not followed by xd_compare */
    struct xd_ix {
        const void *e;
        size_t i;
    } * ix; /* the pool by address, for xd_slot */
};

#define XD_OK(d, cond, msg)                                          \
    cr_assert((cond), "[%s size %zu SEED=%" PRIu64 " op %lu %s] %s", \
              (d)->o->label, (d)->size, (d)->seed, (d)->op, (d)->what, msg)

static uint64_t xd_rand(struct xd *d, uint64_t n)
{
    return tc_below(&d->rng, n);
}

static int xd_ix_cmp(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const struct xd_ix *)a)->e;
    uintptr_t y = (uintptr_t)((const struct xd_ix *)b)->e;
    return (x > y) - (x < y);
}

/* e's index in the pool */
static size_t xd_slot(const struct xd *d, const void *e)
{
    struct xd_ix key = {e, 0};
    const struct xd_ix *f = (const struct xd_ix *)bsearch(
        &key, d->ix, d->npool, sizeof(*d->ix), xd_ix_cmp);
    cr_assert_not_null(f, "not an element of the pool");
    return f->i;
}

static void xd_check(struct xd *d)
{
    char why[256] = "";
    XD_OK(d, d->o->check(d->l, why, sizeof why) == 0, why);
    XD_OK(d, d->o->count(d->l) == d->m.n, "count differs from the model");
}

static void xd_compare(struct xd *d)
{
    const struct model_extent *m = &d->m;
    size_t n = d->o->walk(d->l, d->buf, d->npool + 1), i = 0;
    XD_OK(d, n == m->n, "FOREACH length differs from the model");
    while (i < n && d->buf[i] == m->v[i].tag &&
           d->o->start(d->buf[i]) == m->v[i].start &&
           d->o->start(d->buf[i]) + (d->o->size(d->buf[i]) - 1) == m->v[i].last)
        i++;
    XD_OK(d, i == n, "FOREACH element differs");
    n = d->o->walk_rev(d->l, d->buf, d->npool + 1);
    XD_OK(d, n == m->n, "FOREACH_REVERSE length differs from the model");
    for (i = 0; i < n && d->buf[i] == m->v[m->n - 1 - i].tag;)
        i++;
    XD_OK(d, i == n, "FOREACH_REVERSE element differs");
    char why[200] = "";
    XD_OK(d,
          !d->o->rank ||
              mx_rank_compare(d->o, d->l, m, d->buf, why, sizeof why),
          why);
}

static void xd_changed(struct xd *d)
{
    xd_check(d);
    if (d->m.n <= 1200 || ++d->skipped % 8 == 0)
        xd_compare(d);
}

/* A point: an extent's edge or next to it, an end of the key space, or
 * anywhere. */
static uint64_t xd_point(struct xd *d)
{
    uint64_t max = d->o->max, r = xd_rand(d, 16);
    if (r == 0)
        return 0;
    if (r == 1)
        return max;
    if (r == 2 || d->m.n == 0)
        return xd_rand(d, max) + xd_rand(d, 2);
    const struct mx_ext *x = &d->m.v[xd_rand(d, d->m.n)];
    switch (xd_rand(d, 5)) {
    case 0:
        return x->start;
    case 1:
        return x->last;
    case 2:
        return x->start ? x->start - 1 : 0;
    case 3:
        return x->last < max ? x->last + 1 : max;
    default:
        return x->start + xd_rand(d, x->last - x->start + 1);
    }
}

static void *xd_free_elem(struct xd *d)
{
    for (int tries = 0; tries < 16; tries++) {
        size_t s = (size_t)xd_rand(d, d->npool);
        if (!d->in[s])
            return d->pool[s];
    }
    return NULL;
}

static void xd_insert(struct xd *d)
{
    void *e = xd_free_elem(d);
    if (!e)
        return;
    d->what = "insert";
    uint64_t start = xd_point(d), r = xd_rand(d, 32);
    uint64_t size = r == 0 ? 0 : r == 1 ? d->o->max : 1 + xd_rand(d, 6);
    d->o->set(e, start, size);
    int want = mx_insert(&d->m, start, size, e, NULL);
    int rc = d->o->insert(d->l, e, NULL);
    XD_OK(d, rc == want, "insert's result differs from the model");
    if (rc == 0)
        d->in[xd_slot(d, e)] = true;
    xd_changed(d);
}

static void xd_erase(struct xd *d)
{
    size_t s = (size_t)xd_rand(d, d->npool);
    d->what = "erase";
    int rc = d->o->erase(d->l, d->pool[s]);
    XD_OK(d, rc == (d->in[s] ? 0 : -ENOENT), "erase's result");
    if (d->in[s]) {
        XD_OK(d, mx_erase(&d->m, d->pool[s]) == 0, "model erase");
        d->in[s] = false;
    }
    xd_changed(d);
}

/* [*lo, *hi] of one of the shapes erase_range must get right. */
static void xd_range(struct xd *d, uint64_t *lo, uint64_t *hi)
{
    const struct model_extent *m = &d->m;
    uint64_t max = d->o->max;
    size_t n = m->n;
    size_t i = n ? (size_t)xd_rand(d, n) : 0;
    size_t span = (size_t)xd_rand(d, 3u * 64u + 6u);
    size_t j = n ? (i + span < n ? i + span : n - 1) : 0;
    uint64_t r = xd_rand(d, 40);
    *lo = xd_point(d);
    *hi = *lo;
    if (n == 0 || r < 4) {
        d->what = "erase_range of a point";
    } else if (r < 7) {
        d->what = "erase_range of one extent exactly";
        *lo = m->v[i].start;
        *hi = m->v[i].last;
    } else if (r < 10) {
        d->what = "erase_range from one extent's last unit to the next's "
                  "first";
        *lo = m->v[i].last;
        *hi = i + 1 < n ? m->v[i + 1].start : max;
    } else if (r < 11) {
        d->what = "erase_range of the whole key space";
        *lo = 0;
        *hi = max;
    } else if (r < 14) {
        d->what = "erase_range from 0";
        *lo = 0;
        *hi = m->v[j - i].last;
        *hi -= *hi > 0 ? xd_rand(d, 2) : 0; /* at a last unit, or before */
    } else if (r < 17) {
        d->what = "erase_range to the maximum";
        *lo = m->v[n - 1 - (j - i)].start;
        *lo += *lo < max ? xd_rand(d, 2) : 0;
        *hi = max;
    } else if (r < 20) {
        d->what = "erase_range reversed";
        *lo = m->v[j].start < max ? m->v[j].start + 1 : max;
        *hi = m->v[i].start;
        if (*lo == *hi && *hi > 0)
            (*hi)--;
    } else {
        d->what = "erase_range of a window";
        *lo =
            m->v[i].start + (xd_rand(d, 2) ? 0 : m->v[i].last - m->v[i].start);
        *hi = m->v[j].last;
        if (xd_rand(d, 3) == 0 && *lo > 0)
            (*lo)--;
        if (xd_rand(d, 3) == 0 && *hi < max)
            (*hi)++;
        if (xd_rand(d, 3) == 0 && *hi > *lo)
            (*hi)--;
    }
}

static void xd_erase_range(struct xd *d)
{
    uint64_t lo, hi;
    xd_range(d, &lo, &hi);
    size_t first, cnt = mx_range(&d->m, lo, hi, &first);
    bool with_fn = xd_rand(d, 8) != 0;
    size_t got, i;
    for (i = 0; i < cnt; i++)
        d->buf[i] = (void *)(uintptr_t)d->m.v[first + i].tag;
    const char *bad = bulk_erase_range_diff(d->b, d->l, lo, hi, with_fn,
                                            &d->rec, d->buf, cnt, &got);
    d->ranges++;
    d->erased += got;
    XD_OK(d, !bad, bad);
    for (i = 0; i < cnt; i++)
        d->in[xd_slot(d, d->m.v[first + i].tag)] = false;
    mx_remove_range(&d->m, first, cnt);
    xd_changed(d);
}

static const void *xd_answer(const void *m, uint64_t key, bool find)
{
    const struct model_extent *mx = (const struct model_extent *)m;
    return find ? mx_find_start(mx, key) : mx_lower_start(mx, key);
}

static void xd_lookup(struct xd *d, const uint64_t *keys, size_t nk)
{
    d->lookups += nk;
    d->what = "find_many, lower_bound_many";
    const char *bad = bulk_lookup_diff(d->b, d->l, &d->m, xd_answer, keys, nk,
                                       d->out, d->buf);
    XD_OK(d, !bad, bad);
}

static void xd_many(struct xd *d)
{
    size_t nk = bulk_many_count(&d->rng, XD_MANY_MAX);
    for (size_t i = 0; i < nk; i++)
        d->keys[i] = xd_point(d);
    xd_lookup(d, d->keys, nk);
}

/* n sorted extents on pool[0, n), all free: 1 to 4 units (now and then
 * up to 64), 0 to 5 apart (0: touching). */
static void xd_build(struct xd *d, size_t n)
{
    d->what = "build";
    uint64_t max = d->o->max, at = 0, first = xd_rand(d, 4);
    if (first > 1)
        at = xd_rand(d, max / 2);
    for (size_t i = 0; i < n; i++) {
        uint64_t size = xd_rand(d, 16) ? 1 + xd_rand(d, 4) : 1 + xd_rand(d, 64);
        if (i > 0)
            at += xd_rand(d, 6);
        d->o->set(d->pool[i], at, size);
        at += size;
    }
    if (first == 1 && n > 0) { /* the last extent ends at the maximum */
        uint64_t shift = max - (at - 1);
        for (size_t i = 0; i < n; i++)
            d->o->set(d->pool[i], d->o->start(d->pool[i]) + shift,
                      d->o->size(d->pool[i]));
    }
    int rc = d->b->build(d->l, d->pool, n);
    XD_OK(d, rc == 0, "build did not return 0");
    for (size_t i = 0; i < n; i++) {
        void *e = d->pool[i];
        XD_OK(d, mx_append(&d->m, d->o->start(e), d->o->size(e), e) == 0,
              "the model refused a built extent");
        d->in[i] = true;
        d->keys[i] = d->o->start(e);
    }
    xd_check(d);
    xd_compare(d);
    xd_lookup(d, d->keys, n);
    for (size_t i = 0; i < n; i++)
        d->keys[i] = i % 2 ? d->keys[i] + (d->keys[i] < d->o->max)
                           : d->keys[i] - (d->keys[i] > 0);
    xd_lookup(d, d->keys, n);
}

/* A run from a build of n: burst inserts at once, ops random operations,
 * then empty and a build again. */
static void xd_run_size(struct xd *d, size_t n, unsigned long ops, size_t burst)
{
    d->size = n;
    d->op = 0;
    d->npool = n + XD_EXTRA;
    d->pool = (void **)malloc(d->npool * sizeof(void *));
    d->in = (bool *)calloc(d->npool, sizeof(bool));
    d->keys = (uint64_t *)malloc(d->npool * sizeof(uint64_t));
    d->out = (void **)malloc((d->npool + 1) * sizeof(void *));
    d->buf = (void **)malloc((d->npool + 1) * sizeof(void *));
    cr_assert(d->pool && d->in && d->keys && d->out && d->buf);
    d->ix = (struct xd_ix *)malloc(d->npool * sizeof(*d->ix));
    cr_assert_not_null(d->ix);
    for (size_t i = 0; i < d->npool; i++) {
        d->pool[i] = d->o->new_elem(0, 1);
        d->ix[i].e = d->pool[i];
        d->ix[i].i = i;
    }
    qsort(d->ix, d->npool, sizeof(*d->ix), xd_ix_cmp);
    mx_init(&d->m, d->o->max);
    tc_alloc_init(&d->ta);
    d->counted = n % 2 == 0;
    d->what = "init";
    int err = 0;
    d->l = d->o->new_list(d->counted ? &d->ta.iface : NULL, d->seed, &err);
    XD_OK(d, d->l && err == 0, "init");
    xd_build(d, n);
    for (size_t i = 0; i < burst; i++)
        xd_insert(d);
    for (d->op = 1; d->op <= ops; d->op++) {
        uint64_t r = xd_rand(d, 100);
        if (r < 30)
            xd_insert(d);
        else if (r < 45)
            xd_erase(d);
        else if (r < 72)
            xd_erase_range(d);
        else
            xd_many(d);
    }
    d->what = "erase_range of everything";
    size_t all = d->m.n;
    XD_OK(d, d->b->erase_range(d->l, 0, d->o->max, NULL, NULL) == all,
          "erase_range's count");
    mx_remove_range(&d->m, 0, all);
    memset(d->in, 0, d->npool * sizeof(bool));
    xd_check(d);
    xd_build(d, (size_t)xd_rand(d, n < 2000 ? n + XD_EXTRA / 2 : 2000));
    for (size_t i = 0; i < burst; i++)
        xd_insert(d);
    xd_many(d);
    d->what = "destroy";
    d->o->del_list(d->l);
    if (d->counted) {
        XD_OK(d, d->ta.live == 0, "blocks leaked after destroy");
        XD_OK(d, d->ta.bad_frees == 0, "a free did not match its allocation");
    }
    XD_OK(d, tc_no_leaks(), "LeakSanitizer found a leak after destroy");
    for (size_t i = 0; i < d->npool; i++)
        free(d->pool[i]);
    mx_fini(&d->m);
    free(d->pool);
    free(d->ix);
    free(d->in);
    free(d->keys);
    free(d->out);
    free(d->buf);
}

static void xd_run(size_t which, size_t big, const char *test)
{
    static struct xd run;
    struct xd *d = &run;
    cr_assert_lt(which, xops_count);
    memset(d, 0, sizeof(*d));
    d->o = xops_all[which];
    d->b = d->o->bulk;
    d->seed = tc_seed(test);
    tc_rng_init(&d->rng, d->seed);
    struct bulk_target t = {NULL, d->o};
    size_t sizes[20];
    size_t ns = bulk_sizes(bulk_kpn(&t), sizes);
    for (size_t s = 0; s < ns; s++)
        xd_run_size(d, sizes[s], tc_ops(48), 40);
    xd_run_size(d, big, tc_ops(6), 6);
    fprintf(stderr,
            "bulk_diff %s: %zu build sizes and a big one, %lu erase_range "
            "(%lu erased), %lu keys looked up, SEED=%" PRIu64 "\n",
            d->o->label, ns, d->ranges, d->erased, d->lookups, d->seed);
    bulk_rec_free(&d->rec);
}

/* xops_all's order: the plain instantiations (0 to 7: u64 default, k1,
 * k4, k64, then u32 the same), then their ranked twins (8 to 15). Each
 * key type and leaf size runs once, plain or ranked (half each), and the
 * big build is 10^5 on four of them, which keeps the suite to a few
 * seconds. */
#define XD_TESTS(X)                          \
    X(0, XD_BIG, extent_u64_default)         \
    X(9, XD_MID, extent_u64_k1_ranked)       \
    X(2, XD_BIG, extent_u64_k4)              \
    X(11, XD_MID, extent_u64_k64_ranked)     \
    X(12, XD_BIG, extent_u32_default_ranked) \
    X(5, XD_MID, extent_u32_k1)              \
    X(14, XD_BIG, extent_u32_k4_ranked)      \
    X(7, XD_MID, extent_u32_k64)

#define XD_TEST(i, big, name)               \
    Test(bulk_diff, name)                   \
    {                                       \
        xd_run(i, big, "bulk_diff." #name); \
    }
XD_TESTS(XD_TEST)
