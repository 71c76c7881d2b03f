/*
 * Bad input on skiplist_rcu.h, the rows of docs/errors.md that
 * test_rcu_diff.c's rcu_badinput suite does not already back, on every
 * liburcu flavor (this file joins the diff and stress binaries):
 *   - -ENOMEM from erase and erase_key (the leaf is copied, never changed
 *     in place, so a removal allocates), from insert and insert_hole, and
 *     from init;
 *   - insert_hole leaving e unchanged on -EINVAL, -ENOSPC and -ENOMEM;
 *   - keys 0 and UINT64_MAX on the map face;
 *   - an extent element inserted twice.
 * Each refused call must return its exact code and leave the list as it
 * was: check(), count, every element in order, and no block kept once
 * every pending free has run (rcu_barrier). Every test ends with every
 * block freed.
 *
 * Replay: build/tests/rcu/rcu-tests-memb --filter 'rcu_bad/<test>'.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <criterion/criterion.h>

#include "rcu_ops.h"

SKIPLIST_RCU_DEFINE(rb_map, struct map_item, uint64_t, MAP_ITEM_KEY,
                    SKIPLIST_CMP_NUM, 4, 3, 1)
RMAP_OPS_DEFINE(rb_map, "map kpn4/lvl3/p1", false);
SKIPLIST_RCU_EXTENT_DEFINE(rb_ext, struct rext, uint64_t, start, size, 4, 3, 1)
REXT_OPS_DEFINE(rb_ext, "extent u64 kpn4/lvl3/p1", struct rext, uint64_t);

static union {
    struct rb_map m;
    struct rb_ext x;
    max_align_t align;
} rb_list;

static void *const rb_sl = &rb_list;

static void rb_setup(void)
{
    rcu_register_thread();
}

static void rb_teardown(void)
{
    rcu_unregister_thread();
}

TestSuite(rcu_bad, .init = rb_setup, .fini = rb_teardown, .timeout = 120);

enum { RB_N = 40, RB_SNAP = 64 };

struct rb_snap {
    void *e[RB_SNAP];
    size_t n;
};

static bool rb_snap_add(void *ctx, void *e)
{
    struct rb_snap *s = (struct rb_snap *)ctx;
    cr_assert_lt(s->n, RB_SNAP);
    s->e[s->n++] = e;
    return true;
}

/* The list's elements in order, after check() and with count() agreeing;
 * one of the two faces' ops is given. */
static struct rb_snap rb_take(const struct rmap_ops *mo,
                              const struct rext_ops *xo)
{
    struct rb_snap s;
    memset(&s, 0, sizeof s);
    char why[256] = "";
    int rc = mo ? mo->check(rb_sl, why, sizeof why)
                : xo->check(rb_sl, why, sizeof why);
    cr_assert_eq(rc, 0, "check: %s", why);
    skiplist_rcu_read_lock();
    size_t count;
    if (mo) {
        mo->scan(rb_sl, RT_FIRST, 0, 1, rb_snap_add, &s);
        count = mo->count(rb_sl);
    } else {
        xo->scan(rb_sl, RT_FIRST, 0, 1, rb_snap_add, &s);
        count = xo->count(rb_sl);
    }
    skiplist_rcu_read_unlock();
    cr_assert_eq(count, s.n, "count %zu, a walk %zu", count, s.n);
    return s;
}

static void rb_same(const struct rb_snap *was, const struct rb_snap *now,
                    const char *what)
{
    cr_assert_eq(now->n, was->n, "%s: %zu elements, were %zu", what, now->n,
                 was->n);
    for (size_t i = 0; i < now->n; i++)
        cr_assert_eq(now->e[i], was->e[i], "%s: element %zu changed", what, i);
}

/* Blocks allocated since ra_window() and not freed, once pending frees
 * have run: a refused call must keep none. */
static void rb_kept_none(struct ra *ra, const char *what)
{
    long kept = ra_window_kept(ra);
    cr_assert_eq(kept, 0, "%s: kept %ld blocks", what, kept);
}

static void rb_clean(struct ra *ra)
{
    rcu_barrier();
    ra_fini(ra);
    cr_assert_eq(atomic_load(&ra->live), 0, "%ld blocks leaked",
                 atomic_load(&ra->live));
    cr_assert_eq(atomic_load(&ra->bad_frees), 0);
    cr_assert_eq(atomic_load(&ra->scribbled), 0);
}

static struct map_item *const MPOISON = (struct map_item *)&MPOISON;

/* A map of RB_N keys 10, 20, ... on the counting allocator. */
static void rb_map_fill(struct ra *ra, struct map_item *v)
{
    ra_init(ra);
    cr_assert_eq(rb_map_ops.init(rb_sl, &ra->iface, 3), 0);
    for (size_t i = 0; i < RB_N; i++) {
        v[i].key = 10 * (i + 1);
        cr_assert_eq(rb_map_ops.insert(rb_sl, &v[i], NULL), 0);
    }
}

/* now is was less e. */
static void rb_same_less(const struct rb_snap *was, const struct rb_snap *now,
                         const void *e, const char *what)
{
    struct rb_snap want = {{0}, 0};
    for (size_t i = 0; i < was->n; i++)
        if (was->e[i] != e)
            want.e[want.n++] = was->e[i];
    cr_assert_eq(want.n + 1, was->n, "%s: not in the list before", what);
    rb_same(&want, now, what);
}

/* With every allocation failing, an erase that leaves its leaf in place
 * (a key stays, no merge) succeeds: it publishes one word and allocates
 * nothing. One that empties its leaf needs a new index node: -ENOMEM,
 * the element still findable, *out untouched, the list unchanged, nothing
 * kept; healed, it succeeds. The ascending fill leaves full leaves of
 * four, (10, 20, 30, 40), (50, ...): with 20 and 30 erased first, erasing
 * 10 is the first kind, then 40 the second. */
Test(rcu_bad, map_erase_enomem)
{
    const struct rmap_ops *o = &rb_map_ops;
    static struct map_item v[RB_N];
    struct ra ra;
    rb_map_fill(&ra, v);
    const size_t pick[] = {0, RB_N / 2};
    for (size_t p = 0; p < 2; p++) {
        struct map_item *e = &v[pick[p]], *mate = &v[pick[p] + 3];
        struct map_item *out = MPOISON;
        cr_assert_eq(o->erase(rb_sl, &v[pick[p] + 1]), 0);
        cr_assert_eq(o->erase(rb_sl, &v[pick[p] + 2]), 0);
        struct rb_snap was = rb_take(o, NULL), now;
        ra_window(&ra);
        ra_fail_from(&ra, 1);
        cr_assert_eq(o->erase_key(rb_sl, e->key, &out), 0,
                     "in-place erase of element %zu", pick[p]);
        cr_assert_eq(out, e);
        rb_kept_none(&ra, "in-place erase");
        now = rb_take(o, NULL);
        rb_same_less(&was, &now, e, "in-place erase");
        was = now;
        out = MPOISON;
        cr_assert_eq(o->erase(rb_sl, mate), -ENOMEM, "erase of element %zu",
                     pick[p] + 3);
        cr_assert_eq(o->erase_key(rb_sl, mate->key, &out), -ENOMEM,
                     "erase_key of element %zu", pick[p] + 3);
        ra_fail_at(&ra, 0);
        cr_assert_eq(out, MPOISON, "-ENOMEM wrote *out");
        rb_kept_none(&ra, "erase under -ENOMEM");
        now = rb_take(o, NULL);
        rb_same(&was, &now, "erase under -ENOMEM");
        skiplist_rcu_read_lock();
        cr_assert_eq(o->find(rb_sl, mate->key), mate);
        skiplist_rcu_read_unlock();
        cr_assert_eq(o->erase_key(rb_sl, mate->key, &out), 0);
        cr_assert_eq(out, mate);
        rt_quiescent();
    }
    o->destroy(rb_sl, NULL, NULL);
    rb_clean(&ra);
}

/* insert of a new key with every allocation failing: into a leaf with a
 * never-used slot (and room in its tail) it succeeds in place, allocating
 * nothing; into a full leaf (a split) it is -ENOMEM, nothing changed or
 * kept (rcu_alloc's sweep covers each single failure on the memb and ASan
 * builds; this is every flavor). After the fill every leaf is full; 405,
 * inserted with memory, starts a leaf of its own after 400, which then
 * takes 410 (the run) and 407 and 406 (the tail) in place, while 5 (the
 * full first leaf) and UINT64_MAX (that leaf's fifth key) need a split. */
Test(rcu_bad, map_insert_enomem)
{
    const struct rmap_ops *o = &rb_map_ops;
    static struct map_item v[RB_N];
    struct ra ra;
    rb_map_fill(&ra, v);
    static struct map_item start = {405, 0, false};
    cr_assert_eq(o->insert(rb_sl, &start, NULL), 0);
    static struct map_item x[5] = {
        {410, 0, false}, {407, 0, false},        {5, 0, false},
        {406, 0, false}, {UINT64_MAX, 0, false},
    };
    const int want[5] = {0, 0, -ENOMEM, 0, -ENOMEM};
    for (size_t k = 0; k < 5; k++) {
        struct map_item *ex = MPOISON;
        struct rb_snap was = rb_take(o, NULL), now;
        ra_window(&ra);
        ra_fail_from(&ra, 1);
        cr_assert_eq(o->insert(rb_sl, &x[k], &ex), want[k], "key %" PRIu64,
                     x[k].key);
        ra_fail_at(&ra, 0);
        cr_assert_eq(ex, MPOISON, "insert wrote *existing");
        rb_kept_none(&ra, "insert under -ENOMEM");
        now = rb_take(o, NULL);
        if (want[k])
            rb_same(&was, &now, "insert under -ENOMEM");
        else
            rb_same_less(&now, &was, &x[k], "in-place insert");
        rt_quiescent();
    }
    o->destroy(rb_sl, NULL, NULL);
    rb_clean(&ra);
}

/* init with an allocator that fails every call: -ENOMEM and nothing
 * kept, on both faces. */
Test(rcu_bad, init_enomem)
{
    for (int face = 0; face < 2; face++) {
        struct ra ra;
        ra_init(&ra);
        ra_window(&ra);
        ra_fail_from(&ra, 1);
        int rc = face ? rb_ext_ops.init(rb_sl, &ra.iface, 1)
                      : rb_map_ops.init(rb_sl, &ra.iface, 1);
        cr_assert_eq(rc, -ENOMEM, "face %d: init gave %d", face, rc);
        cr_assert_gt(atomic_load(&ra.failures), 0);
        rb_kept_none(&ra, "init under -ENOMEM");
        rb_clean(&ra);
    }
}

/* Keys 0 and UINT64_MAX: stored and found; a second element with either
 * is -EEXIST naming the first; their absent neighbours are -ENOENT. */
Test(rcu_bad, map_keys_at_limits)
{
    const struct rmap_ops *o = &rb_map_ops;
    static struct map_item v[RB_N];
    struct ra ra;
    rb_map_fill(&ra, v);
    struct map_item lo = {0, 0, false}, hi = {UINT64_MAX, 0, false};
    cr_assert_eq(o->insert(rb_sl, &lo, NULL), 0);
    cr_assert_eq(o->insert(rb_sl, &hi, NULL), 0);
    struct rb_snap was = rb_take(o, NULL), now;
    cr_assert_eq(was.e[0], &lo);
    cr_assert_eq(was.e[was.n - 1], &hi);
    ra_window(&ra);
    struct map_item dlo = {0, 0, false}, dhi = {UINT64_MAX, 0, false};
    struct map_item *ex = NULL;
    skiplist_rcu_read_lock(); /* *existing is a reader's pointer */
    cr_assert_eq(o->insert(rb_sl, &dlo, &ex), -EEXIST);
    cr_assert_eq(ex, &lo);
    cr_assert_eq(o->insert(rb_sl, &dhi, &ex), -EEXIST);
    cr_assert_eq(ex, &hi);
    cr_assert_null(o->below(rb_sl, 0));
    cr_assert_null(o->upper_bound(rb_sl, UINT64_MAX));
    cr_assert_eq(o->find(rb_sl, UINT64_MAX), &hi);
    skiplist_rcu_read_unlock();
    struct map_item *out = MPOISON;
    cr_assert_eq(o->erase_key(rb_sl, 1, &out), -ENOENT);
    cr_assert_eq(o->erase_key(rb_sl, UINT64_MAX - 1, &out), -ENOENT);
    cr_assert_eq(out, MPOISON);
    cr_assert_eq(o->erase(rb_sl, &dhi), -ENOENT);
    cr_assert_eq(o->erase(rb_sl, &dlo), -ENOENT);
    rb_kept_none(&ra, "refusals at the key limits");
    now = rb_take(o, NULL);
    rb_same(&was, &now, "refusals at the key limits");
    cr_assert_eq(o->erase(rb_sl, &hi), 0);
    cr_assert_eq(o->erase(rb_sl, &lo), 0);
    o->destroy(rb_sl, NULL, NULL);
    rb_clean(&ra);
}

/* An extent list of RB_N extents [100 i + 50, +10). */
static void rb_ext_fill(struct ra *ra, struct rext *v)
{
    ra_init(ra);
    cr_assert_eq(rb_ext_ops.init(rb_sl, &ra->iface, 5), 0);
    for (size_t i = 0; i < RB_N; i++) {
        v[i].start = 100 * i + 50;
        v[i].size = 10;
        cr_assert_eq(rb_ext_ops.insert(rb_sl, &v[i], NULL), 0);
    }
}

/* The map's erase_enomem on the extent face: the first extent of a
 * leaf, so the bound of the leaf before is raised too. */
Test(rcu_bad, extent_erase_enomem)
{
    const struct rext_ops *o = &rb_ext_ops;
    static struct rext v[RB_N];
    struct ra ra;
    rb_ext_fill(&ra, v);
    const size_t pick[] = {0, RB_N / 2};
    for (size_t p = 0; p < 2; p++) {
        struct rext *e = &v[pick[p]], *mate = &v[pick[p] + 3];
        cr_assert_eq(o->erase(rb_sl, &v[pick[p] + 1]), 0);
        cr_assert_eq(o->erase(rb_sl, &v[pick[p] + 2]), 0);
        struct rb_snap was = rb_take(NULL, o), now;
        ra_window(&ra);
        ra_fail_from(&ra, 1);
        cr_assert_eq(o->erase(rb_sl, e), 0, "in-place erase of extent %zu",
                     pick[p]);
        rb_kept_none(&ra, "in-place extent erase");
        now = rb_take(NULL, o);
        rb_same_less(&was, &now, e, "in-place extent erase");
        was = now;
        cr_assert_eq(o->erase(rb_sl, mate), -ENOMEM, "erase of extent %zu",
                     pick[p] + 3);
        ra_fail_at(&ra, 0);
        rb_kept_none(&ra, "extent erase under -ENOMEM");
        now = rb_take(NULL, o);
        rb_same(&was, &now, "extent erase under -ENOMEM");
        skiplist_rcu_read_lock();
        cr_assert_eq(o->lookup(rb_sl, mate->start + 9), mate);
        skiplist_rcu_read_unlock();
        cr_assert_eq(o->erase(rb_sl, mate), 0);
        rt_quiescent();
    }
    o->destroy(rb_sl, NULL, NULL);
    rb_clean(&ra);
}

/* Inserted twice, an extent overlaps itself: -EEXIST, *clash = e. */
Test(rcu_bad, extent_insert_twice)
{
    const struct rext_ops *o = &rb_ext_ops;
    static struct rext v[RB_N];
    struct ra ra;
    rb_ext_fill(&ra, v);
    struct rb_snap was = rb_take(NULL, o), now;
    ra_window(&ra);
    const size_t pick[] = {0, RB_N / 2, RB_N - 1};
    for (size_t p = 0; p < 3; p++) {
        void *clash = NULL;
        skiplist_rcu_read_lock(); /* *clash is a reader's pointer */
        cr_assert_eq(o->insert(rb_sl, &v[pick[p]], &clash), -EEXIST);
        cr_assert_eq(clash, &v[pick[p]]);
        skiplist_rcu_read_unlock();
    }
    rb_kept_none(&ra, "insert of an extent already in");
    now = rb_take(NULL, o);
    rb_same(&was, &now, "insert of an extent already in");
    o->destroy(rb_sl, NULL, NULL);
    rb_clean(&ra);
}

/* first_overlap sets *out to NULL whenever it finds no extent, -ENOENT
 * (nothing overlaps) and -EINVAL (lo > hi) alike, as skiplist.h's does:
 * out holds a stale extent before each call, so one that leaves it
 * unwritten fails. Extents [100i + 50, +10) for i < RB_N. */
Test(rcu_bad, extent_first_overlap_out_null)
{
    static struct rext v[RB_N];
    struct ra ra;
    rb_ext_fill(&ra, v);
    const struct {
        uint64_t lo, hi;
        int want;
    } rows[] = {
        {0, 49, -ENOENT},
        {60, 149, -ENOENT},
        {50, 59, 0},
        {100 * RB_N, UINT64_MAX, -ENOENT},
        {10, 9, -EINVAL},
        {55, 54, -EINVAL},
        {UINT64_MAX, 0, -EINVAL},
    };
    skiplist_rcu_read_lock();
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        struct rext *out = &v[1];
        int rc = rb_ext_first_overlap(&rb_list.x, rows[r].lo, rows[r].hi, &out);
        cr_assert_eq(rc, rows[r].want, "[%" PRIu64 ", %" PRIu64 "]: %d",
                     rows[r].lo, rows[r].hi, rc);
        cr_assert_eq(out, rc ? NULL : &v[0],
                     "[%" PRIu64 ", %" PRIu64 "] = %d: out %p (stale %p)",
                     rows[r].lo, rows[r].hi, rc, (void *)out, (void *)&v[1]);
    }
    skiplist_rcu_read_unlock();
    rb_ext_ops.destroy(rb_sl, NULL, NULL);
    rb_clean(&ra);
}

/* Every way insert_hole refuses, e's start and size stay as the caller
 * left them; -ENOMEM (every allocation failing) included, and insert's
 * -ENOMEM too. */
Test(rcu_bad, extent_error_leaves_e_unchanged)
{
    const struct rext_ops *o = &rb_ext_ops;
    static struct rext v[RB_N];
    struct ra ra;
    rb_ext_fill(&ra, v);
    /* Every leaf is full after the ascending fill: the lowest and the
     * highest hole both need a split, so -ENOMEM. */
    const int lo = SKIPLIST_HOLE_LOWEST, hi = SKIPLIST_HOLE_HIGHEST;
    const struct {
        uint64_t size, align, lo, hi;
        int flags, want, fail;
        const char *what;
    } rows[] = {
        {0, 1, 0, UINT64_MAX, lo, -EINVAL, 0, "size 0"},
        {4, 0, 0, UINT64_MAX, lo, -EINVAL, 0, "align 0"},
        {4, 6, 0, UINT64_MAX, hi, -EINVAL, 0, "align 6"},
        {4, 1, 300, 299, lo, -EINVAL, 0, "lo > hi"},
        {4, 1, 0, UINT64_MAX, 2, -EINVAL, 0, "flags 2"},
        {1, 1, 50, 59, lo, -ENOSPC, 0, "window occupied"},
        {10, 1, 60, 65, hi, -ENOSPC, 0, "window too narrow"},
        {2, 1, UINT64_MAX, UINT64_MAX, hi, -ENOSPC, 0, "past the top"},
        {5, 1, 0, UINT64_MAX, lo, -ENOMEM, 1, "no memory, lowest"},
        {5, 1, 0, UINT64_MAX, hi, -ENOMEM, 1, "no memory, highest"},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        struct rext e = {0x5eed, rows[r].size, 0};
        struct rb_snap was = rb_take(NULL, o), now;
        ra_window(&ra);
        if (rows[r].fail)
            ra_fail_from(&ra, 1);
        int rc = o->hole(rb_sl, &e, rows[r].align, rows[r].lo, rows[r].hi,
                         rows[r].flags);
        ra_fail_at(&ra, 0);
        cr_assert_eq(rc, rows[r].want, "%s: %d", rows[r].what, rc);
        cr_assert_eq(e.start, 0x5eed, "%s: e->start written", rows[r].what);
        cr_assert_eq(e.size, rows[r].size, "%s: e->size written", rows[r].what);
        rb_kept_none(&ra, rows[r].what);
        now = rb_take(NULL, o);
        rb_same(&was, &now, rows[r].what);
        rt_quiescent();
    }
    /* insert's -ENOMEM: e is the caller's, start and size as they were. */
    struct rext e = {5, 5, 0};
    struct rb_snap was = rb_take(NULL, o), now;
    ra_window(&ra);
    ra_fail_from(&ra, 1);
    cr_assert_eq(o->insert(rb_sl, &e, NULL), -ENOMEM);
    ra_fail_at(&ra, 0);
    cr_assert(e.start == 5 && e.size == 5);
    rb_kept_none(&ra, "extent insert under -ENOMEM");
    now = rb_take(NULL, o);
    rb_same(&was, &now, "extent insert under -ENOMEM");
    o->destroy(rb_sl, NULL, NULL);
    rb_clean(&ra);
}
