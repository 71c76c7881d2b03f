/*
 * libFuzzer harness, skiplist_rcu.h's extent index
 * (SKIPLIST_RCU_EXTENT_DEFINE) in one registered thread, against the
 * brute-force model of tests/model_extent.h, through the rext_ops table of
 * tests/rcu/rcu_ops.h.
 *
 * Points fall in a 256-key window that the stream moves (to 0, to the top
 * of the key space, to a few aligned spots), so inserts clash, aligned
 * holes fit exactly, and extents end at the largest key or would wrap.
 *
 * Input: bytes 0..7 seed the level generator, then opcode bytes with their
 * arguments: insert (valid, empty, wrapping), insert_hole (lowest and
 * highest; bad alignment, lo > hi), erase (member, stranger, NULL),
 * lookup, first_overlap (lo > hi included), the overlap iterator, walks
 * with turns, and an injected allocation failure. After every mutation:
 * check(), count() and the whole list both ways against the model; a
 * mutation refused with -ENOMEM must have met the injected failure,
 * change nothing and give back every block it took; destroy() sees the
 * model's extents in order and the allocator then holds nothing.
 *
 * Instances: 32-bit keys with KPN 4 / MAXLVL 3 and 64-bit keys with KPN 2
 * / MAXLVL 2, both on the counting allocator of tests/rcu/rcu_common.h,
 * then 64-bit keys with the defaults on malloc.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime in rcu_common.h */

#include "tests/rcu/rcu_ops.h"

#include "tests/fuzz/fuzz_common.h"
#include "tests/fuzz/fuzz_rcu_common.h"
#include "tests/model_extent.h"

SKIPLIST_RCU_EXTENT_DEFINE(fx32_k4, struct rext32, uint32_t, start, size, 4, 3,
                           1)
SKIPLIST_RCU_EXTENT_DEFINE(fx64_k2, struct rext, uint64_t, start, size, 2, 2, 1)
SKIPLIST_RCU_EXTENT_DEFINE(fx64_def, struct rext, uint64_t, start, size,
                           SKIPLIST_RCU_DEFAULTS)
REXT_OPS_DEFINE(fx32_k4, "rcu extent u32 kpn4/lvl3/p1", struct rext32,
                uint32_t);
REXT_OPS_DEFINE(fx64_k2, "rcu extent u64 kpn2/lvl2/p1", struct rext, uint64_t);
REXT_OPS_DEFINE(fx64_def, "rcu extent u64 defaults, malloc", struct rext,
                uint64_t);

#define POOL 96
#define MOVES 24
#define WINDOW 256u

/* Elements of either width: the instance's ops->elem_size apart. */
static union {
    struct rext w64[POOL];
    struct rext32 w32[POOL];
} pool;
static bool linked[POOL];
static struct ra ra; /* big (its quarantine): static, reset per run */
static union {
    struct fx32_k4 a;
    struct fx64_k2 b;
    struct fx64_def c;
} list_storage;

struct run {
    const struct rext_ops *o;
    void *sl;
    struct model_extent m;
    uint64_t base; /* the window: [base, base + WINDOW) */
    bool counted;
    struct fz_in in;
};

static void *fx_elem(const struct run *r, size_t i)
{
    return (unsigned char *)&pool + i * r->o->elem_size;
}

/* A point in the window, clipped to the key space. */
static uint64_t fx_point(struct run *r)
{
    uint64_t p = r->base + fz_u8(&r->in);
    return p > r->o->max || p < r->base ? r->o->max : p;
}

/* Moves the window: 0, the top, or an aligned spot below the top. */
static void fx_window(struct run *r)
{
    static const uint64_t spots[6] = {0,
                                      UINT64_C(1) << 16,
                                      UINT64_C(1) << 31,
                                      UINT64_C(1) << 32,
                                      UINT64_C(1) << 63,
                                      UINT64_MAX};
    uint64_t s = spots[fz_u8(&r->in) % 6];
    if (s > r->o->max - (WINDOW - 1)) /* the top: last byte at max */
        s = r->o->max - (WINDOW - 1);
    r->base = s;
}

/* A size: mostly small, sometimes 0, up to the largest key, or one past
 * it (wraps: refused). Sizes stay within K_T: from start 0 the whole key
 * space is one more than K_T holds, so that run ends one short of it. */
static uint64_t fx_size(struct run *r, uint64_t start)
{
    uint8_t b = fz_u8(&r->in);
    uint64_t to_top = r->o->max - start; /* size - 1 of [start, max] */
    if (b < 240)
        return 1 + b % 40u;
    if (b < 244)
        return 0;
    if (b < 248)
        return start >= 1 ? to_top + 1 : to_top;
    return start >= 2 ? to_top + 2 : 0;
}

/* After a mutation: invariants, count, the whole list both ways. */
static void fx_after(struct run *r)
{
    char why[256] = "";
    if (r->o->check(r->sl, why, sizeof why) != 0) {
        fprintf(stderr, "[%s] op %lu: check(): %s\n", fz_label, fz_op, why);
        abort();
    }
    skiplist_rcu_read_lock();
    FZ_CHECK(r->o->count(r->sl) == r->m.n);
    for (int dir = 1; dir >= -1; dir -= 2) {
        struct mx_walk c = {&r->m, 0, 0, 0, dir, false};
        size_t n = r->o->scan(r->sl, dir > 0 ? RT_FIRST : RT_LAST, 0, dir,
                              mx_walk_next, &c);
        FZ_CHECK(!c.bad && c.i == r->m.n && n == r->m.n);
    }
    skiplist_rcu_read_unlock();
}

static unsigned long fx_before(const struct run *r)
{
    if (r->counted)
        ra_window(&ra);
    return atomic_load(&ra.failures);
}

/* -ENOMEM: only after an injected failure, every block given back. */
static void fx_enomem(const struct run *r, unsigned long failures0)
{
    FZ_CHECK(r->counted && atomic_load(&ra.failures) > failures0);
    FZ_CHECK(ra_window_kept(&ra) == 0);
}

static void op_insert(struct run *r)
{
    size_t i = fz_u8(&r->in) % POOL;
    uint64_t start = fx_point(r), size = fx_size(r, start);
    if (linked[i])
        return; /* a member's extent is never changed */
    void *e = fx_elem(r, i), *clash = NULL;
    r->o->set(e, start, size);
    size_t ci = 0;
    int want = mx_insert(&r->m, start, size, e, &ci);
    unsigned long f0 = fx_before(r);
    skiplist_rcu_read_lock(); /* *clash is valid inside the section */
    int rc = r->o->insert(r->sl, e, &clash);
    if (rc == -EEXIST) {
        FZ_CHECK(clash != NULL && clash != e);
        uint64_t cs = r->o->start(clash), cl = cs + (r->o->len(clash) - 1);
        FZ_CHECK(cs <= start + (size - 1) && cl >= start);
        FZ_CHECK(mx_index_of(&r->m, clash) < r->m.n);
    }
    skiplist_rcu_read_unlock();
    if (rc == -ENOMEM) {
        fx_enomem(r, f0);
        if (want == 0)
            FZ_CHECK(mx_erase(&r->m, e) == 0); /* the model took it */
    } else {
        FZ_CHECK(rc == want);
        linked[i] = rc == 0;
    }
    fx_after(r);
}

static void op_hole(struct run *r, uint8_t op)
{
    size_t i = fz_u8(&r->in) % POOL;
    uint8_t b = fz_u8(&r->in);
    uint64_t size = 1 + fz_u8(&r->in) % 40u;
    uint64_t align = b & 0x80 ? 3 : UINT64_C(1) << (b & 7); /* 3: refused */
    uint64_t lo = fx_point(r), hi = fx_point(r);
    if (b & 0x40) { /* the whole window, or past the top */
        lo = r->base;
        hi = r->base + (WINDOW - 1);
    } else if ((b & 0x30) == 0x30 && lo < hi) { /* lo > hi: refused */
        uint64_t t = lo;
        lo = hi;
        hi = t;
    } else if (lo > hi) {
        uint64_t t = lo;
        lo = hi;
        hi = t;
    }
    if (linked[i])
        return;
    bool highest = op & 0x80;
    uint64_t at = 0;
    int want = mx_hole(&r->m, size, align, lo, hi, highest, &at);
    void *e = fx_elem(r, i);
    r->o->set(e, r->base, size);
    unsigned long f0 = fx_before(r);
    int rc = r->o->hole(r->sl, e, align, lo, hi,
                        highest ? SKIPLIST_HOLE_HIGHEST : SKIPLIST_HOLE_LOWEST);
    if (rc == -ENOMEM) {
        fx_enomem(r, f0);
    } else {
        FZ_CHECK(rc == want);
        if (rc == 0) {
            FZ_CHECK(r->o->start(e) == at);
            FZ_CHECK(mx_insert(&r->m, at, size, e, NULL) == 0);
            linked[i] = true;
        }
    }
    fx_after(r);
}

static void op_erase(struct run *r)
{
    uint8_t b = fz_u8(&r->in);
    if (b == 255) {
        FZ_CHECK(r->o->erase(r->sl, NULL) == -EINVAL);
        return;
    }
    size_t i = b % POOL;
    void *e = fx_elem(r, i);
    unsigned long f0 = fx_before(r);
    int rc = r->o->erase(r->sl, e);
    if (rc == -ENOMEM) {
        fx_enomem(r, f0);
    } else {
        FZ_CHECK(rc == (linked[i] ? 0 : -ENOENT));
        if (linked[i])
            FZ_CHECK(mx_erase(&r->m, e) == 0);
        linked[i] = false;
    }
    fx_after(r);
}

/* lookup, first_overlap and the overlap iterator on closed ranges. */
static void op_query(struct run *r, uint8_t op)
{
    uint64_t lo = fx_point(r), hi = fx_point(r);
    if (!(op & 0x80) && lo > hi) { /* now and then lo > hi: -EINVAL */
        uint64_t t = lo;
        lo = hi;
        hi = t;
    }
    skiplist_rcu_read_lock();
    FZ_CHECK(r->o->lookup(r->sl, lo) == mx_lookup(&r->m, lo));
    void *got = NULL;
    int rc = r->o->first_overlap(r->sl, lo, hi, &got);
    size_t wi = lo > hi ? r->m.n : mx_find_overlap(&r->m, lo, hi);
    FZ_CHECK(rc == (lo > hi ? -EINVAL : wi < r->m.n ? 0 : -ENOENT));
    if (rc == 0)
        FZ_CHECK(got == r->m.v[wi].tag);
    if (lo <= hi) {
        struct mx_walk c = {&r->m, 0, lo, hi, 1, false};
        r->o->scan_overlap(r->sl, lo, hi, mx_walk_overlap, &c);
        for (size_t k = c.i; !c.bad && k < r->m.n; k++)
            if (r->m.v[k].start <= hi && r->m.v[k].last >= lo)
                c.bad = true; /* an overlapping extent never seen */
        FZ_CHECK(!c.bad);
    }
    skiplist_rcu_read_unlock();
}

/* Iterator from first, last or a seek (first extent starting at or after
 * k), then next/prev as the bytes say. */
static void op_walk(struct run *r)
{
    uint8_t b = fz_u8(&r->in);
    int start = b % 3;
    uint64_t k = fx_point(r);
    signed char moves[MOVES];
    void *got[MOVES + 1];
    size_t nm = (size_t)(b >> 2) % (MOVES + 1);
    uint8_t bits = 0;
    for (size_t s = 0; s < nm; s++) {
        if (s % 8 == 0)
            bits = fz_u8(&r->in);
        moves[s] = (bits >> (s % 8)) & 1 ? 1 : -1;
    }
    skiplist_rcu_read_lock();
    size_t n = r->o->walk(r->sl, start, k, moves, nm, got);
    skiplist_rcu_read_unlock();
    size_t i = 0;
    if (start == RT_LAST)
        i = r->m.n - 1; /* wraps when empty: out of range */
    else if (start != RT_FIRST)
        while (i < r->m.n && r->m.v[i].start < k)
            i++;
    size_t w = 0;
    for (size_t s = 0; i < r->m.n; s++) {
        FZ_CHECK(w < n && got[w] == r->m.v[i].tag);
        w++;
        if (s == nm)
            break;
        i = moves[s] > 0 ? i + 1 : i - 1;
    }
    FZ_CHECK(n == w);
}

static size_t destroyed;
static bool destroy_ok;

static void fx_destroy_cb(void *e, void *arg)
{
    const struct model_extent *m = (const struct model_extent *)arg;
    if (destroyed >= m->n || m->v[destroyed].tag != e)
        destroy_ok = false;
    destroyed++;
}

static void fx_run(const struct rext_ops *o, bool counted, const uint8_t *data,
                   size_t size)
{
    struct run r;
    struct tc_alloc unused; /* fz_begin's; this harness counts with ra */
    memset(&pool, 0, sizeof(pool));
    memset(linked, 0, sizeof(linked));
    r.o = o;
    r.sl = &list_storage;
    r.counted = counted;
    r.base = 0;
    mx_init(&r.m, o->max);
    ra_init(&ra);
    fz_begin(&unused, &r.in, o->label, data, size);
    FZ_CHECK(o->init(r.sl, counted ? &ra.iface : NULL, fz_u64(&r.in)) == 0);
    while (fz_more(&r.in)) {
        fz_op++;
        uint8_t op = fz_u8(&r.in);
        switch (op % 12) {
        case 0:
        case 1:
        case 2:
            op_insert(&r);
            break;
        case 3:
        case 4:
            op_hole(&r, op);
            break;
        case 5:
        case 6:
            op_erase(&r);
            break;
        case 7:
        case 8:
            op_query(&r, op);
            break;
        case 9:
            op_walk(&r);
            break;
        case 10:
            fx_window(&r);
            break;
        default:
            if (counted)
                ra_fail_at(&ra, 1 + (op >> 4) % 4u);
            break;
        }
        rt_quiescent();
    }
    ra_fail_at(&ra, 0);
    destroyed = 0;
    destroy_ok = true;
    o->destroy(r.sl, fx_destroy_cb, &r.m); /* rcu_barrier() inside */
    FZ_CHECK(destroy_ok && destroyed == r.m.n);
    ra_fini(&ra);
    fz_rcu_allocator_clean(&ra, counted);
    mx_fini(&r.m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fx_run(&fx32_k4_ops, true, data, size);
    fx_run(&fx64_k2_ops, true, data, size);
    fx_run(&fx64_def_ops, false, data, size);
    return 0;
}
