/*
 * skiplist_rcu.h, one thread: both faces against the models of
 * tests/model_map.h and tests/model_extent.h, on a random operation
 * stream that grows each list to a high mark and shrinks it to a low one
 * again and again, so leaves split and merge and the index grows and
 * shrinks. Every result is compared with the model's; every batch of
 * RT_BATCH operations ends with name_check() and a walk of the whole list
 * both ways against the model. Configurations: tiny (KPN 2, MAXLVL 2,
 * PSHIFT 1), small (KPN 4, MAXLVL 3, PSHIFT 1), the defaults, a descending
 * comparator, and for the extent face 64- and 32-bit keys at the bottom
 * and at the top of the key space (wrapping arithmetic).
 *
 * The bad-input suites call every documented misuse and check the exact
 * error and that nothing changed (check, contents, allocator).
 *
 * Replay: SEED=<n> build/tests/rcu/rcu-tests-memb --filter 'rcu_diff/<test>'.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <criterion/criterion.h>

#include "rcu_ops.h"

#include "../model_extent.h"

#define RT_BATCH 16

SKIPLIST_RCU_DEFINE(rm_tiny, struct map_item, uint64_t, MAP_ITEM_KEY,
                    SKIPLIST_CMP_NUM, 2, 2, 1)
SKIPLIST_RCU_DEFINE(rm_small, struct map_item, uint64_t, MAP_ITEM_KEY,
                    SKIPLIST_CMP_NUM, 4, 3, 1)
SKIPLIST_RCU_DEFINE(rm_def, struct map_item, uint64_t, MAP_ITEM_KEY,
                    SKIPLIST_CMP_NUM, SKIPLIST_RCU_DEFAULTS)
SKIPLIST_RCU_DEFINE(rm_desc, struct map_item, uint64_t, map_item_key,
                    MAP_CMP_DESC, 4, 8, 2)
/* Keys of other sizes, in the uint64_t order the model keeps: a 24-byte
 * struct (keys are copied into leaves and index nodes by size; a tag
 * derived from the key checks every comparison for a torn copy) and a
 * 32-bit key (KEY_OF narrows the item's key: md_key's keys and probes
 * keep their order, UINT64_MAX becoming UINT32_MAX). */
struct wide_key {
    uint64_t hi, lo;
    uint32_t tag; /* derived, never compared: the copies must keep it */
    uint32_t pad;
};

static struct wide_key wide_of(uint64_t k)
{
    struct wide_key w = {k >> 20, k & 0xfffff, (uint32_t)(k * 2654435761u), 0};
    return w;
}

static int wide_cmp(struct wide_key a, struct wide_key b)
{
    if (a.hi != b.hi)
        return a.hi < b.hi ? -1 : 1;
    if (a.lo != b.lo)
        return a.lo < b.lo ? -1 : 1;
    /* a tag that does not match its key: a key torn or copied short */
    if (a.tag != b.tag)
        abort();
    return 0;
}

#define WIDE_KEY_OF(e) wide_of((e)->key)
#define NARROW_KEY_OF(e) ((uint32_t)(e)->key)
#define NARROW(k) ((uint32_t)(k))

SKIPLIST_RCU_DEFINE(rm_wide, struct map_item, struct wide_key, WIDE_KEY_OF,
                    wide_cmp, 4, 3, 1)
SKIPLIST_RCU_DEFINE(rm_narrow, struct map_item, uint32_t, NARROW_KEY_OF,
                    SKIPLIST_CMP_NUM, 4, 3, 1)
RMAP_OPS_DEFINE(rm_tiny, "map kpn2/lvl2/p1", false);
RMAP_OPS_DEFINE_KEYS(rm_wide, "map 24-byte keys kpn4/lvl3/p1", false, wide_of);
RMAP_OPS_DEFINE_KEYS(rm_narrow, "map u32 keys kpn4/lvl3/p1", false, NARROW);
RMAP_OPS_DEFINE(rm_small, "map kpn4/lvl3/p1", false);
RMAP_OPS_DEFINE(rm_def, "map defaults", false);
RMAP_OPS_DEFINE(rm_desc, "map desc kpn4/lvl8/p2", true);

SKIPLIST_RCU_EXTENT_DEFINE(rx_small, struct rext, uint64_t, start, size, 4, 3,
                           1)
SKIPLIST_RCU_EXTENT_DEFINE(rx_def, struct rext, uint64_t, start, size,
                           SKIPLIST_RCU_DEFAULTS)
SKIPLIST_RCU_EXTENT_DEFINE(rx32_small, struct rext32, uint32_t, start, size, 4,
                           3, 1)
REXT_OPS_DEFINE(rx_small, "extent u64 kpn4/lvl3/p1", struct rext, uint64_t);
REXT_OPS_DEFINE(rx_def, "extent u64 defaults", struct rext, uint64_t);
REXT_OPS_DEFINE(rx32_small, "extent u32 kpn4/lvl3/p1", struct rext32, uint32_t);

/* The list under test lives here: big enough for every instantiation. */
static union {
    struct rm_tiny m0;
    struct rm_small m1;
    struct rm_def m2;
    struct rm_desc m3;
    struct rm_wide m4;
    struct rm_narrow m5;
    struct rx_small x0;
    struct rx_def x1;
    struct rx32_small x2;
    max_align_t align;
} the_list;

static void rt_setup(void)
{
    rcu_register_thread();
}

static void rt_teardown(void)
{
    rcu_unregister_thread();
}

/* Counts the allocator's blocks after every pending free has run. */
static long live_after_barrier(struct ra *ra)
{
    rcu_barrier();
    return atomic_load(&ra->live);
}

/* After destroy: every block back, every free well formed. */
static void assert_allocator_clean(struct ra *ra, const char *label)
{
    rcu_barrier();
    ra_fini(ra);
    cr_assert_eq(atomic_load(&ra->live), 0, "%s: %ld blocks leaked", label,
                 atomic_load(&ra->live));
    cr_assert_eq(atomic_load(&ra->bad_frees), 0, "%s: %lu bad frees", label,
                 atomic_load(&ra->bad_frees));
    cr_assert_eq(atomic_load(&ra->scribbled), 0,
                 "%s: %lu blocks written after their free", label,
                 atomic_load(&ra->scribbled));
}

/* ============================================================ map face */

#define MD_POOL 400
#define MD_WALK 24

struct map_run {
    const struct rmap_ops *ops;
    void *sl;
    struct model_map m;
    struct map_item pool[MD_POOL];
    struct map_item twin[MD_POOL]; /* same keys, other elements */
    struct tc_rng rng;
    unsigned long op;
    size_t destroyed; /* elements destroy handed back */
    bool destroy_ok;
};

static uint64_t md_key(size_t i)
{
    /* Odd keys between the ends, so probes at even keys fall in gaps;
     * the smallest and largest keys at the ends of the key space. */
    if (i == 0)
        return 0;
    if (i == MD_POOL - 1)
        return UINT64_MAX;
    return 2 * i + 1;
}

static uint64_t md_probe(struct map_run *r)
{
    switch (tc_below(&r->rng, 16)) {
    case 0:
        return 0;
    case 1:
        return UINT64_MAX;
    case 2:
        return UINT64_MAX - 1;
    default:
        return tc_below(&r->rng, 2 * MD_POOL + 4);
    }
}

static void md_same(struct map_run *r, const char *what, uint64_t k,
                    const struct map_item *got, const struct map_item *want)
{
    cr_assert_eq(got, want,
                 "%s op %lu: %s(%" PRIu64 ") gave key %" PRId64
                 ", the model %" PRId64,
                 r->ops->label, r->op, what, k, got ? (int64_t)got->key : -1,
                 want ? (int64_t)want->key : -1);
}

/* Every reader query at key k against the model. */
static void md_queries(struct map_run *r, uint64_t k)
{
    const struct rmap_ops *o = r->ops;
    skiplist_rcu_read_lock();
    md_same(r, "find", k, o->find(r->sl, k), mm_find(&r->m, k));
    md_same(r, "lower_bound", k, o->lower_bound(r->sl, k),
            mm_lower_bound(&r->m, k));
    md_same(r, "upper_bound", k, o->upper_bound(r->sl, k),
            mm_upper_bound(&r->m, k));
    md_same(r, "floor", k, o->floor(r->sl, k), mm_floor(&r->m, k));
    md_same(r, "below", k, o->below(r->sl, k), mm_below(&r->m, k));
    md_same(r, "first", 0, o->first(r->sl), mm_at(&r->m, 0));
    md_same(r, "last", 0, o->last(r->sl), r->m.n ? r->m.v[r->m.n - 1] : NULL);
    skiplist_rcu_read_unlock();
}

/* An iterator walk with random moves from a random start. */
static void md_walk(struct map_run *r)
{
    signed char moves[MD_WALK];
    struct map_item *got[MD_WALK + 1], *want[MD_WALK + 1];
    int start = (int)tc_below(&r->rng, 3);
    uint64_t k = md_probe(r);
    bool fwd = tc_below(&r->rng, 2);
    for (size_t i = 0; i < MD_WALK; i++) /* mostly one way, some turns */
        moves[i] = (signed char)((tc_below(&r->rng, 5) != 0) == fwd ? 1 : -1);
    skiplist_rcu_read_lock();
    size_t n = r->ops->walk(r->sl, start, k, moves, MD_WALK, got);
    skiplist_rcu_read_unlock();
    size_t w = mm_walk(&r->m, start, k, moves, MD_WALK, want);
    cr_assert_eq(n, w,
                 "%s op %lu: walk from %d (%" PRIu64 ") saw %zu, the model %zu",
                 r->ops->label, r->op, start, k, n, w);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(got[i], want[i], "%s op %lu: walk step %zu differs",
                     r->ops->label, r->op, i);
}

struct md_cmp {
    const struct model_map *m;
    size_t i;
    int dir;
    bool bad;
};

static bool md_visit(void *ctx, void *e)
{
    struct md_cmp *c = (struct md_cmp *)ctx;
    size_t at = c->dir > 0 ? c->i : c->m->n - 1 - c->i;
    if (c->i >= c->m->n || c->m->v[at] != e)
        c->bad = true;
    c->i++;
    return !c->bad;
}

/* The whole list, both ways, and the invariants: the batch-end check. */
static void md_full_check(struct map_run *r)
{
    char why[256] = "";
    int rc = r->ops->check(r->sl, why, sizeof(why));
    cr_assert_eq(rc, 0, "%s op %lu: check: %s", r->ops->label, r->op, why);
    for (int dir = 1; dir >= -1; dir -= 2) {
        struct md_cmp c = {&r->m, 0, dir, false};
        skiplist_rcu_read_lock();
        r->ops->scan(r->sl, dir > 0 ? RT_FIRST : RT_LAST, 0, dir, md_visit, &c);
        size_t n = r->ops->count(r->sl);
        skiplist_rcu_read_unlock();
        cr_assert(!c.bad && c.i == r->m.n,
                  "%s op %lu: the %s walk differs from the model at %zu",
                  r->ops->label, r->op, dir > 0 ? "forward" : "backward", c.i);
        cr_assert_eq(n, r->m.n, "%s op %lu: count %zu, the model %zu",
                     r->ops->label, r->op, n, r->m.n);
    }
}

/* A random element of the pool or a twin; for an insert, mostly one
 * whose key is absent (so the list does reach its high mark). */
static struct map_item *md_pick(struct map_run *r, bool absent)
{
    struct map_item *e;
    int tries = 0;
    do {
        size_t i = (size_t)tc_below(&r->rng, MD_POOL);
        e = tc_below(&r->rng, 4) ? &r->pool[i] : &r->twin[i];
    } while (absent && mm_find(&r->m, e->key) && ++tries < 4);
    return e;
}

static void md_insert(struct map_run *r)
{
    struct map_item *e = md_pick(r, true);
    struct map_item *want = mm_find(&r->m, e->key), *existing = NULL;
    bool locked = tc_below(&r->rng, 2); /* writers may hold the read lock */
    if (locked)
        skiplist_rcu_read_lock();
    int rc = r->ops->insert(r->sl, e, tc_below(&r->rng, 8) ? &existing : NULL);
    if (locked)
        skiplist_rcu_read_unlock();
    if (want) {
        cr_assert_eq(rc, -EEXIST, "%s op %lu: insert of a present key: %d",
                     r->ops->label, r->op, rc);
        cr_assert(!existing || existing == want,
                  "%s op %lu: insert's *existing is not the equal element",
                  r->ops->label, r->op);
        return;
    }
    cr_assert_eq(rc, 0, "%s op %lu: insert %" PRIu64 ": %d", r->ops->label,
                 r->op, e->key, rc);
    mm_insert_at(&r->m, mm_lower(&r->m, e->key), e);
}

static void md_erase(struct map_run *r)
{
    struct map_item *e = r->m.n && tc_below(&r->rng, 2)
                             ? r->m.v[tc_below(&r->rng, r->m.n)]
                             : md_pick(r, false);
    size_t at = mm_index_of(&r->m, e);
    if (tc_below(&r->rng, 2)) { /* by key */
        struct map_item *out = NULL, *want = mm_find(&r->m, e->key);
        int rc = r->ops->erase_key(r->sl, e->key, &out);
        cr_assert_eq(rc, want ? 0 : -ENOENT,
                     "%s op %lu: erase_key %" PRIu64 ": %d", r->ops->label,
                     r->op, e->key, rc);
        if (want) {
            cr_assert_eq(out, want, "%s op %lu: erase_key's *out",
                         r->ops->label, r->op);
            mm_remove_at(&r->m, mm_index_of(&r->m, want));
        }
        return;
    }
    int rc = r->ops->erase(r->sl, e); /* by element: a twin is not in sl */
    cr_assert_eq(rc, at != SIZE_MAX ? 0 : -ENOENT,
                 "%s op %lu: erase of %s %" PRIu64 ": %d", r->ops->label, r->op,
                 e == &r->pool[e->id] ? "element" : "twin", e->key, rc);
    if (at != SIZE_MAX)
        mm_remove_at(&r->m, at);
}

static void md_destroy_cb(struct map_item *e, void *arg)
{
    struct map_run *r = (struct map_run *)arg;
    if (r->destroyed >= r->m.n || r->m.v[r->destroyed] != e)
        r->destroy_ok = false;
    r->destroyed++;
}

static void map_diff(const struct rmap_ops *ops, const char *what,
                     unsigned long nops)
{
    static struct map_run r;
    struct ra ra;
    memset(&r, 0, sizeof(r));
    r.ops = ops;
    r.sl = &the_list;
    mm_init(&r.m, ops->desc);
    tc_rng_init(&r.rng, tc_seed(what));
    for (size_t i = 0; i < MD_POOL; i++) {
        r.pool[i].key = r.twin[i].key = md_key(i);
        r.pool[i].id = r.twin[i].id = (uint32_t)i;
    }
    ra_init(&ra);
    cr_assert_eq(ops->init(r.sl, &ra.iface, tc_rand64(&r.rng)), 0);
    size_t high = MD_POOL * 7 / 8, low = 8, target = high;
    for (r.op = 1; r.op <= nops; r.op++) {
        if (r.m.n >= high)
            target = low;
        else if (r.m.n <= low)
            target = high;
        unsigned how = (unsigned)tc_below(&r.rng, 8);
        if (how < 5) /* toward the target, with some noise */
            ((how < 4) == (r.m.n < target) ? md_insert : md_erase)(&r);
        else if (how < 7)
            md_queries(&r, md_probe(&r));
        else
            md_walk(&r);
        rt_quiescent();
        if (r.op % RT_BATCH == 0)
            md_full_check(&r);
    }
    md_full_check(&r);
    struct skiplist_rcu_stats st;
    ops->stats(r.sl, &st);
    r.destroy_ok = true;
    ops->destroy(r.sl, md_destroy_cb, &r);
    cr_assert(r.destroy_ok && r.destroyed == r.m.n,
              "%s: destroy handed back %zu elements, not the model's %zu in "
              "order",
              ops->label, r.destroyed, r.m.n);
    assert_allocator_clean(&ra, ops->label);
    fprintf(stderr,
            "rcu_diff %s (%s): %lu ops, 0 mismatches; %" PRIu64
            " splits, %" PRIu64 " merges; %lu allocations\n",
            ops->label, RT_FLAVOR, nops, st.splits, st.merges,
            atomic_load(&ra.calls));
    mm_free(&r.m);
}

TestSuite(rcu_diff, .init = rt_setup, .fini = rt_teardown, .timeout = 300);

Test(rcu_diff, map_tiny)
{
    map_diff(&rm_tiny_ops, "rcu_diff/map_tiny", rt_ops(20000));
}

Test(rcu_diff, map_small)
{
    map_diff(&rm_small_ops, "rcu_diff/map_small", rt_ops(30000));
}

Test(rcu_diff, map_defaults)
{
    map_diff(&rm_def_ops, "rcu_diff/map_defaults", rt_ops(20000));
}

Test(rcu_diff, map_wide_keys)
{
    map_diff(&rm_wide_ops, "rcu_diff/map_wide_keys", rt_ops(20000));
}

Test(rcu_diff, map_u32_keys)
{
    map_diff(&rm_narrow_ops, "rcu_diff/map_u32_keys", rt_ops(20000));
}

Test(rcu_diff, map_descending)
{
    map_diff(&rm_desc_ops, "rcu_diff/map_descending", rt_ops(20000));
}

/* ========================================================= extent face */

#define XD_POOL 512
#define XD_SPACE 4096u /* the window of key space a run uses */
#define XD_MAXSIZE 40u
#define XD_WALK 24

struct ext_run {
    const struct rext_ops *ops;
    void *sl;
    struct model_extent m;
    unsigned char *pool; /* XD_POOL elements of ops->elem_size bytes */
    bool linked[XD_POOL];
    uint64_t base; /* the space is [base, base + XD_SPACE) */
    struct tc_rng rng;
    unsigned long op, holes, holes_full;
    size_t destroyed;
    bool destroy_ok;
};

static void *xd_elem(struct ext_run *r, size_t i)
{
    return r->pool + i * r->ops->elem_size;
}

static size_t xd_index(struct ext_run *r, const void *e)
{
    return (size_t)((const unsigned char *)e - r->pool) / r->ops->elem_size;
}

/* A point in the space or just outside it (never past K_T's range). */
static uint64_t xd_point(struct ext_run *r)
{
    uint64_t p = r->base + tc_below(&r->rng, XD_SPACE + 4);
    if (r->base && tc_below(&r->rng, 8) == 0)
        p = r->base - 1 - tc_below(&r->rng, 3);
    return p > r->ops->max ? r->ops->max : p;
}

static void xd_same(struct ext_run *r, const char *what, uint64_t a, uint64_t b,
                    const void *got, const void *want)
{
    const struct rext_ops *o = r->ops;
    cr_assert_eq(got, want,
                 "%s op %lu: %s(%" PRIu64 ", %" PRIu64 ") gave [%" PRId64
                 ", +%" PRId64 "), the model [%" PRId64 ", +%" PRId64 ")",
                 o->label, r->op, what, a, b, got ? (int64_t)o->start(got) : -1,
                 got ? (int64_t)o->len(got) : -1,
                 want ? (int64_t)o->start(want) : -1,
                 want ? (int64_t)o->len(want) : -1);
}

static void xd_insert(struct ext_run *r, size_t i)
{
    const struct rext_ops *o = r->ops;
    void *e = xd_elem(r, i), *clash = NULL;
    uint64_t size = 1 + tc_below(&r->rng, XD_MAXSIZE);
    uint64_t start = r->base + tc_below(&r->rng, XD_SPACE - size + 1);
    o->set(e, start, size);
    size_t ci = 0;
    int want = mx_insert(&r->m, start, size, e, &ci);
    skiplist_rcu_read_lock(); /* *clash is valid inside the section */
    int rc = o->insert(r->sl, e, &clash);
    if (rc == -EEXIST) {
        cr_assert(clash != NULL && clash != e, "%s op %lu: no clash", o->label,
                  r->op);
        uint64_t cs = o->start(clash), cl = cs + (o->len(clash) - 1);
        cr_assert(cs <= start + (size - 1) && cl >= start &&
                      mx_index_of(&r->m, clash) < r->m.n,
                  "%s op %lu: the clash [%" PRIu64 ", %" PRIu64
                  "] does not overlap [%" PRIu64 ", +%" PRIu64 ")",
                  o->label, r->op, cs, cl, start, size);
    }
    skiplist_rcu_read_unlock();
    cr_assert_eq(rc, want,
                 "%s op %lu: insert [%" PRIu64 ", +%" PRIu64
                 "): %d, the model %d",
                 o->label, r->op, start, size, rc, want);
    r->linked[i] = rc == 0;
}

static void xd_hole(struct ext_run *r, size_t i)
{
    const struct rext_ops *o = r->ops;
    void *e = xd_elem(r, i);
    uint64_t size = 1 + tc_below(&r->rng, XD_MAXSIZE);
    uint64_t align = UINT64_C(1) << tc_below(&r->rng, 6);
    uint64_t lo = r->base + tc_below(&r->rng, XD_SPACE);
    uint64_t hi = lo + tc_below(&r->rng, XD_SPACE);
    if (hi > r->base + (XD_SPACE - 1) || hi < lo)
        hi = r->base + (XD_SPACE - 1);
    if (tc_below(&r->rng, 8) == 0) { /* the whole space */
        lo = r->base;
        hi = r->base + (XD_SPACE - 1);
    }
    bool highest = tc_below(&r->rng, 2);
    uint64_t at = 0;
    int want = mx_hole(&r->m, size, align, lo, hi, highest, &at);
    o->set(e, r->base, size);
    int rc = o->hole(r->sl, e, align, lo, hi,
                     highest ? SKIPLIST_HOLE_HIGHEST : SKIPLIST_HOLE_LOWEST);
    cr_assert_eq(rc, want,
                 "%s op %lu: insert_hole size %" PRIu64 " align %" PRIu64
                 " in [%" PRIu64 ", %" PRIu64 "] %s: %d, the model %d",
                 o->label, r->op, size, align, lo, hi,
                 highest ? "highest" : "lowest", rc, want);
    r->holes++;
    if (rc != 0) {
        r->holes_full++;
        return;
    }
    cr_assert_eq(o->start(e), at,
                 "%s op %lu: insert_hole size %" PRIu64 " align %" PRIu64
                 " in [%" PRIu64 ", %" PRIu64 "] %s placed it at %" PRIu64
                 ", the model at %" PRIu64,
                 o->label, r->op, size, align, lo, hi,
                 highest ? "highest" : "lowest", o->start(e), at);
    cr_assert_eq(mx_insert(&r->m, at, size, e, NULL), 0);
    r->linked[i] = true;
}

static void xd_erase(struct ext_run *r, size_t i)
{
    void *e = xd_elem(r, i);
    int rc = r->ops->erase(r->sl, e);
    cr_assert_eq(rc, r->linked[i] ? 0 : -ENOENT, "%s op %lu: erase: %d",
                 r->ops->label, r->op, rc);
    if (r->linked[i])
        cr_assert_eq(mx_erase(&r->m, e), 0);
    r->linked[i] = false;
}

static void xd_queries(struct ext_run *r)
{
    const struct rext_ops *o = r->ops;
    uint64_t p = xd_point(r), q = xd_point(r);
    uint64_t lo = p < q ? p : q, hi = p < q ? q : p;
    if (tc_below(&r->rng, 2)) { /* short ranges are the common case */
        /* One draw, capped at the key type's top without overflowing:
         * near UINT64_MAX (the _top runs) lo + d wrapped below lo, and
         * the call then rightly answered -EINVAL for lo > hi. */
        uint64_t d = tc_below(&r->rng, 8);
        hi = d > o->max - lo ? o->max : lo + d;
    }
    void *got = NULL;
    skiplist_rcu_read_lock();
    xd_same(r, "lookup", p, p, o->lookup(r->sl, p), mx_lookup(&r->m, p));
    int rc = o->first_overlap(r->sl, lo, hi, &got);
    size_t wi = mx_find_overlap(&r->m, lo, hi);
    cr_assert_eq(rc, wi < r->m.n ? 0 : -ENOENT,
                 "%s op %lu: first_overlap [%" PRIu64 ", %" PRIu64 "]: %d",
                 o->label, r->op, lo, hi, rc);
    if (rc == 0)
        xd_same(r, "first_overlap", lo, hi, got, r->m.v[wi].tag);
    skiplist_rcu_read_unlock();
}

static size_t xd_model_seek(const struct model_extent *m, uint64_t k)
{
    size_t i = 0;
    while (i < m->n && m->v[i].start < k)
        i++;
    return i;
}

static void xd_walk(struct ext_run *r)
{
    signed char moves[XD_WALK];
    void *got[XD_WALK + 1];
    int start = (int)tc_below(&r->rng, 3);
    uint64_t k = xd_point(r);
    bool fwd = tc_below(&r->rng, 2);
    for (size_t i = 0; i < XD_WALK; i++)
        moves[i] = (signed char)((tc_below(&r->rng, 5) != 0) == fwd ? 1 : -1);
    skiplist_rcu_read_lock();
    size_t n = r->ops->walk(r->sl, start, k, moves, XD_WALK, got);
    skiplist_rcu_read_unlock();
    size_t i = start == RT_FIRST  ? 0
               : start == RT_LAST ? r->m.n - 1 /* wraps when empty */
                                  : xd_model_seek(&r->m, k);
    size_t w = 0;
    for (size_t s = 0; i < r->m.n; s++) {
        cr_assert(w < n && got[w] == r->m.v[i].tag,
                  "%s op %lu: walk from %d (%" PRIu64 ") differs at step %zu",
                  r->ops->label, r->op, start, k, w);
        w++;
        if (s == XD_WALK)
            break;
        i = moves[s] > 0 ? i + 1 : i - 1;
    }
    cr_assert_eq(n, w, "%s op %lu: walk saw %zu, the model %zu", r->ops->label,
                 r->op, n, w);
}

static void xd_overlaps(struct ext_run *r)
{
    uint64_t lo = xd_point(r), hi = lo + tc_below(&r->rng, 3 * XD_MAXSIZE);
    if (hi > r->ops->max || hi < lo)
        hi = r->ops->max;
    struct mx_walk c = {&r->m, 0, lo, hi, 1, false};
    skiplist_rcu_read_lock();
    r->ops->scan_overlap(r->sl, lo, hi, mx_walk_overlap, &c);
    skiplist_rcu_read_unlock();
    size_t rest = c.i; /* no overlapping extent may follow the last seen */
    for (; !c.bad && rest < r->m.n; rest++)
        if (r->m.v[rest].start <= hi && r->m.v[rest].last >= lo)
            c.bad = true;
    cr_assert(!c.bad,
              "%s op %lu: the overlap walk of [%" PRIu64 ", %" PRIu64
              "] differs from the model",
              r->ops->label, r->op, lo, hi);
}

static void xd_full_check(struct ext_run *r)
{
    char why[256] = "";
    int rc = r->ops->check(r->sl, why, sizeof(why));
    cr_assert_eq(rc, 0, "%s op %lu: check: %s", r->ops->label, r->op, why);
    for (int dir = 1; dir >= -1; dir -= 2) {
        struct mx_walk c = {&r->m, 0, 0, 0, dir, false};
        skiplist_rcu_read_lock();
        r->ops->scan(r->sl, dir > 0 ? RT_FIRST : RT_LAST, 0, dir, mx_walk_next,
                     &c);
        size_t n = r->ops->count(r->sl);
        skiplist_rcu_read_unlock();
        cr_assert(!c.bad && c.i == r->m.n,
                  "%s op %lu: the %s walk differs from the model at %zu",
                  r->ops->label, r->op, dir > 0 ? "forward" : "backward", c.i);
        cr_assert_eq(n, r->m.n, "%s op %lu: count %zu, the model %zu",
                     r->ops->label, r->op, n, r->m.n);
    }
}

static void xd_destroy_cb(void *e, void *arg)
{
    struct ext_run *r = (struct ext_run *)arg;
    if (r->destroyed >= r->m.n || r->m.v[r->destroyed].tag != e)
        r->destroy_ok = false;
    r->destroyed++;
}

/* One step: grow toward the high mark or shrink toward the low one. */
static void xd_step(struct ext_run *r, bool grow)
{
    size_t i = (size_t)tc_below(&r->rng, XD_POOL);
    unsigned how = (unsigned)tc_below(&r->rng, 16);
    if (how < 2)
        xd_queries(r);
    else if (how < 3)
        xd_walk(r);
    else if (how < 4)
        xd_overlaps(r);
    else if (how == 4)
        xd_erase(r, i); /* linked or not */
    else if (grow && !r->linked[i])
        (tc_below(&r->rng, 2) ? xd_hole : xd_insert)(r, i);
    else if (!grow && r->m.n)
        xd_erase(r, xd_index(r, r->m.v[tc_below(&r->rng, r->m.n)].tag));
}

static void ext_diff(const struct rext_ops *ops, bool top, const char *what,
                     unsigned long nops)
{
    static struct ext_run r;
    struct ra ra;
    memset(&r, 0, sizeof(r));
    r.ops = ops;
    r.sl = &the_list;
    r.base = top ? ops->max - (XD_SPACE - 1) : 0;
    r.pool = (unsigned char *)calloc(XD_POOL, ops->elem_size);
    cr_assert_not_null(r.pool);
    mx_init(&r.m, ops->max);
    tc_rng_init(&r.rng, tc_seed(what));
    ra_init(&ra);
    cr_assert_eq(ops->init(r.sl, &ra.iface, tc_rand64(&r.rng)), 0);
    size_t high = XD_POOL * 3 / 4, low = 6, target = high;
    for (r.op = 1; r.op <= nops; r.op++) {
        if (r.m.n >= high)
            target = low;
        else if (r.m.n <= low)
            target = high;
        xd_step(&r, (tc_below(&r.rng, 5) != 0) == (r.m.n < target));
        rt_quiescent();
        if (r.op % RT_BATCH == 0)
            xd_full_check(&r);
    }
    xd_full_check(&r);
    struct skiplist_rcu_stats st;
    ops->stats(r.sl, &st);
    r.destroy_ok = true;
    ops->destroy(r.sl, xd_destroy_cb, &r);
    cr_assert(r.destroy_ok && r.destroyed == r.m.n,
              "%s: destroy handed back %zu extents, not the model's %zu in "
              "order",
              ops->label, r.destroyed, r.m.n);
    assert_allocator_clean(&ra, ops->label);
    cr_assert_gt(r.holes - r.holes_full, 0, "%s: no hole was ever found",
                 ops->label);
    fprintf(stderr,
            "rcu_diff %s at %s (%s): %lu ops, 0 mismatches; %lu "
            "insert_hole (%lu -ENOSPC); %" PRIu64 " splits, %" PRIu64
            " merges\n",
            ops->label, top ? "the top" : "0", RT_FLAVOR, nops, r.holes,
            r.holes_full, st.splits, st.merges);
    mx_fini(&r.m);
    free(r.pool);
}

Test(rcu_diff, extent_small)
{
    ext_diff(&rx_small_ops, false, "rcu_diff/extent_small", rt_ops(20000));
}

Test(rcu_diff, extent_small_top)
{
    ext_diff(&rx_small_ops, true, "rcu_diff/extent_small_top", rt_ops(10000));
}

Test(rcu_diff, extent_defaults)
{
    ext_diff(&rx_def_ops, false, "rcu_diff/extent_defaults", rt_ops(15000));
}

Test(rcu_diff, extent_u32_top)
{
    ext_diff(&rx32_small_ops, true, "rcu_diff/extent_u32_top", rt_ops(10000));
}

/* ============================================================ bad input */

/* A snapshot of a list's contents, to prove a refused call changed
 * nothing. */
#define SNAP_MAX 64

struct snap {
    void *e[SNAP_MAX];
    size_t n;
};

static bool snap_add(void *ctx, void *e)
{
    struct snap *s = (struct snap *)ctx;
    if (s->n < SNAP_MAX)
        s->e[s->n] = e;
    s->n++;
    return true;
}

static struct snap map_snap(const struct rmap_ops *o, void *sl)
{
    struct snap s = {{0}, 0};
    char why[256] = "";
    cr_assert_eq(o->check(sl, why, sizeof(why)), 0, "check: %s", why);
    skiplist_rcu_read_lock();
    o->scan(sl, RT_FIRST, 0, 1, snap_add, &s);
    cr_assert_eq(o->count(sl), s.n);
    skiplist_rcu_read_unlock();
    return s;
}

static struct snap ext_snap(const struct rext_ops *o, void *sl)
{
    struct snap s = {{0}, 0};
    char why[256] = "";
    cr_assert_eq(o->check(sl, why, sizeof(why)), 0, "check: %s", why);
    skiplist_rcu_read_lock();
    o->scan(sl, RT_FIRST, 0, 1, snap_add, &s);
    cr_assert_eq(o->count(sl), s.n);
    skiplist_rcu_read_unlock();
    return s;
}

static void snap_same(const struct snap *a, const struct snap *b,
                      const char *what)
{
    cr_assert(a->n == b->n && memcmp(a->e, b->e, sizeof(a->e)) == 0,
              "%s changed the list (%zu elements, were %zu)", what, b->n, a->n);
}

static void *null_alloc(void *ctx, size_t size, unsigned level)
{
    (void)ctx;
    (void)size;
    (void)level;
    return NULL;
}

static void null_free(void *ctx, void *ptr, size_t size, unsigned level)
{
    (void)ctx;
    (void)ptr;
    (void)size;
    (void)level;
}

TestSuite(rcu_badinput, .init = rt_setup, .fini = rt_teardown, .timeout = 120);

Test(rcu_badinput, init_refuses_half_an_allocator)
{
    struct skiplist_allocator no_free = {null_alloc, NULL, NULL};
    struct skiplist_allocator no_alloc = {NULL, null_free, NULL};
    cr_assert_eq(rm_small_ops.init(&the_list, &no_free, 1), -EINVAL);
    cr_assert_eq(rm_small_ops.init(&the_list, &no_alloc, 1), -EINVAL);
    cr_assert_eq(rx_small_ops.init(&the_list, &no_free, 1), -EINVAL);
    cr_assert_eq(rx_small_ops.init(&the_list, &no_alloc, 1), -EINVAL);
}

/* Checks one refused call: its result, and that nothing changed. */
#define REFUSED(snapfn, o, before, call, want)                                 \
    do {                                                                       \
        int rc_ = (call);                                                      \
        cr_assert_eq(rc_, (want), "%s: %s gave %d, not %s", (o)->label, #call, \
                     rc_, #want);                                              \
        struct snap after_ = snapfn((o), the_sl);                              \
        snap_same(&(before), &after_, #call);                                  \
    } while (0)

static void *const the_sl = &the_list;

/* Queries on an empty list find nothing; removals refuse. */
static void map_empty(const struct rmap_ops *o)
{
    struct ra ra;
    struct map_item a = {7, 0, false}, *x = &a;
    signed char moves[2] = {1, -1};
    ra_init(&ra);
    cr_assert_eq(o->init(the_sl, &ra.iface, 3), 0);
    struct snap none = map_snap(o, the_sl);
    cr_assert_eq(none.n, 0);
    skiplist_rcu_read_lock();
    cr_assert_null(o->find(the_sl, 7));
    cr_assert_null(o->lower_bound(the_sl, 0));
    cr_assert_null(o->floor(the_sl, UINT64_MAX));
    cr_assert_null(o->first(the_sl));
    cr_assert_null(o->last(the_sl));
    for (int s = RT_FIRST; s <= RT_SEEK; s++)
        cr_assert_eq(o->walk(the_sl, s, 0, moves, 2, &x), 0);
    skiplist_rcu_read_unlock();
    REFUSED(map_snap, o, none, o->erase_key(the_sl, 7, &x), -ENOENT);
    REFUSED(map_snap, o, none, o->erase(the_sl, &a), -ENOENT);
    o->destroy(the_sl, NULL, NULL);
    assert_allocator_clean(&ra, o->label);
}

static void map_badinput(const struct rmap_ops *o)
{
    static struct map_item items[40], twin, absent;
    struct map_item *x;
    struct ra ra;
    ra_init(&ra);
    cr_assert_eq(o->init(the_sl, &ra.iface, 5), 0);
    for (size_t i = 0; i < 40; i++) {
        items[i].key = 10 * (i + 1);
        cr_assert_eq(o->insert(the_sl, &items[i], NULL), 0);
    }
    twin.key = items[5].key;
    absent.key = 15;
    long live = live_after_barrier(&ra);
    struct snap before = map_snap(o, the_sl);

    REFUSED(map_snap, o, before, o->insert(the_sl, NULL, &x), -EINVAL);
    REFUSED(map_snap, o, before, o->insert(the_sl, &twin, NULL), -EEXIST);
    REFUSED(map_snap, o, before, o->erase(the_sl, NULL), -EINVAL);
    REFUSED(map_snap, o, before, o->erase(the_sl, &twin), -ENOENT);
    REFUSED(map_snap, o, before, o->erase(the_sl, &absent), -ENOENT);
    REFUSED(map_snap, o, before, o->erase_key(the_sl, 15, &x), -ENOENT);
    REFUSED(map_snap, o, before, o->erase_key(the_sl, 0, &x), -ENOENT);
    REFUSED(map_snap, o, before, o->erase_key(the_sl, UINT64_MAX, &x), -ENOENT);
    /* -EEXIST names the element that holds the key. */
    for (int self = 0; self < 2; self++) {
        x = NULL;
        skiplist_rcu_read_lock();
        int rc = o->insert(the_sl, self ? &items[5] : &twin, &x);
        cr_assert_eq(rc, -EEXIST);
        cr_assert_eq(x, &items[5], "%s: *existing is not the equal element",
                     o->label);
        skiplist_rcu_read_unlock();
    }
    struct snap after = map_snap(o, the_sl);
    snap_same(&before, &after, "insert of a present key");
    cr_assert_eq(live_after_barrier(&ra), live,
                 "%s: refused calls left %ld blocks allocated", o->label,
                 live_after_barrier(&ra) - live);
    o->destroy(the_sl, NULL, NULL);
    assert_allocator_clean(&ra, o->label);
}

/* A pool of n extent elements of o's type. */
static void *ext_pool(const struct rext_ops *o, size_t n)
{
    void *p = calloc(n, o->elem_size);
    cr_assert_not_null(p);
    return p;
}

#define EXT_AT(o, pool, i) \
    ((void *)((unsigned char *)(pool) + (i) * (o)->elem_size))

static void ext_empty(const struct rext_ops *o)
{
    struct ra ra;
    void *pool = ext_pool(o, 1), *e = EXT_AT(o, pool, 0), *x = NULL;
    signed char moves[2] = {1, -1};
    ra_init(&ra);
    cr_assert_eq(o->init(the_sl, &ra.iface, 3), 0);
    struct snap none = ext_snap(o, the_sl);
    skiplist_rcu_read_lock();
    cr_assert_null(o->lookup(the_sl, 0));
    cr_assert_null(o->lookup(the_sl, o->max));
    cr_assert_eq(o->first_overlap(the_sl, 0, o->max, &x), -ENOENT);
    for (int s = RT_FIRST; s <= RT_SEEK; s++)
        cr_assert_eq(o->walk(the_sl, s, 0, moves, 2, &x), 0);
    skiplist_rcu_read_unlock();
    o->set(e, 0, 1);
    REFUSED(ext_snap, o, none, o->erase(the_sl, e), -ENOENT);
    o->destroy(the_sl, NULL, NULL);
    assert_allocator_clean(&ra, o->label);
    free(pool);
}

/* Every refused insert and insert_hole, on a list holding [100i + 50,
 * +10) for i < 20. */
static void ext_badinput(const struct rext_ops *o)
{
    struct ra ra;
    const uint64_t max = o->max;
    const int low = SKIPLIST_HOLE_LOWEST, high = SKIPLIST_HOLE_HIGHEST;
    void *pool = ext_pool(o, 21), *e = EXT_AT(o, pool, 20), *x = NULL;
    ra_init(&ra);
    cr_assert_eq(o->init(the_sl, &ra.iface, 9), 0);
    for (size_t i = 0; i < 20; i++) {
        o->set(EXT_AT(o, pool, i), 100 * i + 50, 10);
        cr_assert_eq(o->insert(the_sl, EXT_AT(o, pool, i), &x), 0);
    }
    long live = live_after_barrier(&ra);
    struct snap before = ext_snap(o, the_sl);

    REFUSED(ext_snap, o, before, o->insert(the_sl, NULL, &x), -EINVAL);
    o->set(e, 5, 0);
    REFUSED(ext_snap, o, before, o->insert(the_sl, e, &x), -EINVAL);
    o->set(e, max - 2, 4); /* its last point would be max + 1 */
    REFUSED(ext_snap, o, before, o->insert(the_sl, e, &x), -EINVAL);
    o->set(e, max, 2);
    REFUSED(ext_snap, o, before, o->insert(the_sl, e, &x), -EINVAL);
    o->set(e, 2, max);
    REFUSED(ext_snap, o, before, o->insert(the_sl, e, &x), -EINVAL);
    o->set(e, 55, 3);
    REFUSED(ext_snap, o, before, o->insert(the_sl, e, &x), -EEXIST);
    o->set(e, 40, 200);
    REFUSED(ext_snap, o, before, o->insert(the_sl, e, &x), -EEXIST);
    REFUSED(ext_snap, o, before, o->erase(the_sl, NULL), -EINVAL);
    REFUSED(ext_snap, o, before, o->erase(the_sl, e), -ENOENT);

    o->set(e, 0, 4);
    REFUSED(ext_snap, o, before, o->hole(the_sl, NULL, 1, 0, max, low),
            -EINVAL);
    o->set(e, 0, 0);
    REFUSED(ext_snap, o, before, o->hole(the_sl, e, 1, 0, max, low), -EINVAL);
    o->set(e, 0, 4);
    REFUSED(ext_snap, o, before, o->hole(the_sl, e, 0, 0, max, low), -EINVAL);
    REFUSED(ext_snap, o, before, o->hole(the_sl, e, 3, 0, max, high), -EINVAL);
    REFUSED(ext_snap, o, before, o->hole(the_sl, e, 12, 0, max, low), -EINVAL);
    REFUSED(ext_snap, o, before, o->hole(the_sl, e, max, 0, max, low), -EINVAL);
    REFUSED(ext_snap, o, before, o->hole(the_sl, e, 1, 200, 199, low), -EINVAL);
    REFUSED(ext_snap, o, before, o->hole(the_sl, e, 1, max, 0, high), -EINVAL);
    REFUSED(ext_snap, o, before, o->hole(the_sl, e, 1, 0, max, 2), -EINVAL);
    REFUSED(ext_snap, o, before, o->hole(the_sl, e, 1, 0, max, -1), -EINVAL);
    /* No room: occupied, too narrow, or no aligned start that fits. */
    o->set(e, 0, 1);
    REFUSED(ext_snap, o, before, o->hole(the_sl, e, 1, 50, 59, low), -ENOSPC);
    REFUSED(ext_snap, o, before, o->hole(the_sl, e, 1, 55, 55, high), -ENOSPC);
    o->set(e, 0, 10);
    REFUSED(ext_snap, o, before, o->hole(the_sl, e, 1, 60, 65, low), -ENOSPC);
    o->set(e, 0, 4);
    REFUSED(ext_snap, o, before, o->hole(the_sl, e, 8, 65, 70, high), -ENOSPC);
    o->set(e, 0, 70); /* [61, 140] is free, but holds no multiple of 128 */
    REFUSED(ext_snap, o, before, o->hole(the_sl, e, 128, 61, 140, low),
            -ENOSPC);
    REFUSED(ext_snap, o, before, o->hole(the_sl, e, 128, 61, 140, high),
            -ENOSPC);

    skiplist_rcu_read_lock();
    cr_assert_eq(o->first_overlap(the_sl, 10, 9, &x), -EINVAL);
    cr_assert_eq(o->first_overlap(the_sl, max, 0, &x), -EINVAL);
    cr_assert_eq(o->first_overlap(the_sl, 0, 49, &x), -ENOENT);
    cr_assert_eq(o->first_overlap(the_sl, 60, 149, &x), -ENOENT);
    cr_assert_eq(o->first_overlap(the_sl, 2000, max, &x), -ENOENT);
    cr_assert_eq(o->first_overlap(the_sl, 0, 50, &x), 0);
    cr_assert_eq(x, EXT_AT(o, pool, 0));
    cr_assert_null(o->lookup(the_sl, 49));
    cr_assert_eq(o->lookup(the_sl, 59), EXT_AT(o, pool, 0));
    cr_assert_null(o->lookup(the_sl, 60));
    cr_assert_null(o->lookup(the_sl, max));
    skiplist_rcu_read_unlock();
    cr_assert_eq(live_after_barrier(&ra), live,
                 "%s: refused calls left blocks allocated", o->label);

    /* The last point may be max itself. */
    o->set(e, max - 3, 4);
    cr_assert_eq(o->insert(the_sl, e, &x), 0);
    skiplist_rcu_read_lock();
    cr_assert_eq(o->lookup(the_sl, max), e);
    skiplist_rcu_read_unlock();
    cr_assert_eq(o->erase(the_sl, e), 0);
    o->destroy(the_sl, NULL, NULL);
    assert_allocator_clean(&ra, o->label);
    free(pool);
}

/* insert_hole at the edges of the key space, on an empty list: the
 * largest extents that fit, and size-1 extents at 0 and at max. */
static void ext_edges(const struct rext_ops *o)
{
    struct model_extent m;
    struct ra ra;
    const uint64_t max = o->max;
    const uint64_t sizes[] = {max, max - 1, 1, 2, max / 2 + 1};
    const uint64_t aligns[] = {1, 2, UINT64_C(1) << 12, max / 2 + 1};
    void *pool = ext_pool(o, 1), *e = pool;
    mx_init(&m, max);
    ra_init(&ra);
    cr_assert_eq(o->init(the_sl, &ra.iface, 4), 0);
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
        for (size_t a = 0; a < sizeof(aligns) / sizeof(aligns[0]); a++)
            for (int f = 0; f < 2; f++) {
                uint64_t at = 0;
                int want = mx_hole(&m, sizes[s], aligns[a], 0, max, f, &at);
                o->set(e, 0, sizes[s]);
                int rc =
                    o->hole(the_sl, e, aligns[a], 0, max,
                            f ? SKIPLIST_HOLE_HIGHEST : SKIPLIST_HOLE_LOWEST);
                cr_assert_eq(rc, want,
                             "%s: insert_hole size %" PRIu64 " align %" PRIu64
                             " %s: %d, the model %d",
                             o->label, sizes[s], aligns[a],
                             f ? "highest" : "lowest", rc, want);
                if (rc)
                    continue;
                cr_assert_eq(o->start(e), at,
                             "%s: insert_hole size %" PRIu64 " align %" PRIu64
                             " %s at %" PRIu64 ", the model %" PRIu64,
                             o->label, sizes[s], aligns[a],
                             f ? "highest" : "lowest", o->start(e), at);
                skiplist_rcu_read_lock();
                cr_assert_eq(o->lookup(the_sl, at + (sizes[s] - 1)), e);
                skiplist_rcu_read_unlock();
                cr_assert_eq(o->erase(the_sl, e), 0);
            }
    o->destroy(the_sl, NULL, NULL);
    assert_allocator_clean(&ra, o->label);
    mx_fini(&m);
    free(pool);
}

Test(rcu_badinput, map_empty)
{
    map_empty(&rm_small_ops);
    map_empty(&rm_def_ops);
}

Test(rcu_badinput, map_refusals)
{
    map_badinput(&rm_tiny_ops);
    map_badinput(&rm_small_ops);
    map_badinput(&rm_def_ops);
}

Test(rcu_badinput, extent_empty)
{
    ext_empty(&rx_small_ops);
    ext_empty(&rx32_small_ops);
}

Test(rcu_badinput, extent_refusals)
{
    ext_badinput(&rx_small_ops);
    ext_badinput(&rx_def_ops);
    ext_badinput(&rx32_small_ops);
}

Test(rcu_badinput, extent_hole_edges)
{
    ext_edges(&rx_small_ops);
    ext_edges(&rx32_small_ops);
}
