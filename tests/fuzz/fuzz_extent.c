/*
 * libFuzzer harness, extent face (SKIPLIST_EXTENT_DEFINE) on uint16_t keys,
 * against the brute-force model of tests/model_extent.h (max 0xffff).
 *
 * A 16-bit key space makes its top edge reachable: extents ending at 0xffff,
 * sizes that would wrap, holes squeezed against either end. Points fall in
 * a 256-key window that the stream moves (to 0, to the top, to one of a few
 * aligned spots), so inserts clash and aligned holes fit exactly.
 *
 * Input: bytes 0..7 seed the level generator, then opcode bytes with their
 * arguments. insert / insert_hole (lowest and highest) / lookup /
 * first_overlap / FOREACH_OVERLAP / find / erase, plus an injected
 * allocation failure; check() and a full comparison follow every mutation,
 * and destroy() must leave zero live allocations.
 *
 * Instances: KPN 4 / MAXLVL 8, the defaults on the counting allocator, the
 * defaults on the library's pool.
 */
#include "tests/fuzz/fuzz_common.h"
#include "tests/model_extent.h"

struct x16 {
    uint16_t start, size;
    bool in; /* model membership */
};

SKIPLIST_EXTENT_DEFINE(fx_k4, struct x16, uint16_t, start, size, 4, 8, 1)
SKIPLIST_EXTENT_DEFINE(fx_def, struct x16, uint16_t, start, size,
                       SKIPLIST_DEFAULTS)

#define MAXK UINT16_MAX
#define POOL 96

struct fx_ops {
    const char *label;
    int (*init)(void *l, const struct skiplist_allocator *a, uint64_t seed);
    void (*destroy)(void *l);
    int (*insert)(void *l, struct x16 *e, struct x16 **clash);
    int (*hole)(void *l, struct x16 *e, uint16_t size, uint16_t align,
                uint16_t lo, uint16_t hi, int flags);
    int (*erase)(void *l, struct x16 *e);
    struct x16 *(*lookup)(const void *l, uint16_t p);
    int (*first_overlap)(const void *l, uint16_t a, uint16_t b,
                         struct x16 **out);
    size_t (*overlaps)(const void *l, uint16_t a, uint16_t b, struct x16 **out,
                       size_t max);
    struct x16 *(*find)(const void *l, uint16_t k);
    size_t (*count)(const void *l);
    int (*check)(const void *l, char *why, size_t len);
    size_t (*walk)(const void *l, struct x16 **out, size_t max, bool rev);
};

#define FX_OPS(N, label_)                                                      \
    static int N##_f_init(void *l, const struct skiplist_allocator *a,         \
                          uint64_t seed)                                       \
    {                                                                          \
        return N##_init((struct N *)l, a, seed);                               \
    }                                                                          \
    static void N##_f_destroy(void *l)                                         \
    {                                                                          \
        N##_destroy((struct N *)l, NULL, NULL);                                \
    }                                                                          \
    static int N##_f_insert(void *l, struct x16 *e, struct x16 **clash)        \
    {                                                                          \
        return N##_insert((struct N *)l, e, clash);                            \
    }                                                                          \
    static int N##_f_hole(void *l, struct x16 *e, uint16_t size,               \
                          uint16_t align, uint16_t lo, uint16_t hi, int flags) \
    {                                                                          \
        e->size = size; /* insert_hole takes e's own size */                   \
        return N##_insert_hole((struct N *)l, e, align, lo, hi, flags);        \
    }                                                                          \
    static int N##_f_erase(void *l, struct x16 *e)                             \
    {                                                                          \
        return N##_erase((struct N *)l, e);                                    \
    }                                                                          \
    static struct x16 *N##_f_lookup(const void *l, uint16_t p)                 \
    {                                                                          \
        return N##_lookup((const struct N *)l, p);                             \
    }                                                                          \
    static int N##_f_first_overlap(const void *l, uint16_t a, uint16_t b,      \
                                   struct x16 **out)                           \
    {                                                                          \
        return N##_first_overlap((const struct N *)l, (uint16_t)TC_LO(a, b),   \
                                 (uint16_t)TC_HI(a, b), out);                  \
    }                                                                          \
    static size_t N##_f_overlaps(const void *l, uint16_t a, uint16_t b,        \
                                 struct x16 **out, size_t max)                 \
    {                                                                          \
        const struct N *sl = (const struct N *)l;                              \
        struct N##_iter it;                                                    \
        struct x16 *e;                                                         \
        size_t n = 0;                                                          \
        SKIPLIST_FOREACH_OVERLAP (N, sl, it, e, (uint16_t)TC_LO(a, b),         \
                                  (uint16_t)TC_HI(a, b)) {                     \
            if (n == max)                                                      \
                break;                                                         \
            out[n++] = e;                                                      \
        }                                                                      \
        return n;                                                              \
    }                                                                          \
    static struct x16 *N##_f_find(const void *l, uint16_t k)                   \
    {                                                                          \
        return N##_find((const struct N *)l, k);                               \
    }                                                                          \
    static size_t N##_f_count(const void *l)                                   \
    {                                                                          \
        return N##_count((const struct N *)l);                                 \
    }                                                                          \
    static int N##_f_check(const void *l, char *why, size_t len)               \
    {                                                                          \
        return N##_check((const struct N *)l, why, len);                       \
    }                                                                          \
    static size_t N##_f_walk(const void *l, struct x16 **out, size_t max,      \
                             bool rev)                                         \
    {                                                                          \
        const struct N *sl = (const struct N *)l;                              \
        struct N##_iter it;                                                    \
        struct x16 *e;                                                         \
        size_t n = 0;                                                          \
        if (rev) {                                                             \
            SKIPLIST_FOREACH_REVERSE (N, sl, it, e) {                          \
                if (n == max)                                                  \
                    break;                                                     \
                out[n++] = e;                                                  \
            }                                                                  \
        } else {                                                               \
            SKIPLIST_FOREACH (N, sl, it, e) {                                  \
                if (n == max)                                                  \
                    break;                                                     \
                out[n++] = e;                                                  \
            }                                                                  \
        }                                                                      \
        return n;                                                              \
    }                                                                          \
    static const struct fx_ops N##_ops = {                                     \
        label_,         N##_f_init,  N##_f_destroy, N##_f_insert,              \
        N##_f_hole,     N##_f_erase, N##_f_lookup,  N##_f_first_overlap,       \
        N##_f_overlaps, N##_f_find,  N##_f_count,   N##_f_check,               \
        N##_f_walk,                                                            \
    }

FX_OPS(fx_k4, "u16_k4_l8_p1");
FX_OPS(fx_def, "u16_defaults");

static struct x16 pool[POOL];
static struct x16 *buf[POOL + 1];
static union {
    struct fx_k4 k4;
    struct fx_def def;
} l_storage;

struct run {
    const struct fx_ops *o;
    void *l;
    struct model_extent m;
    struct tc_alloc ta;
    bool counted;
    struct fz_in in;
    uint16_t base; /* window [base, base + 255] */
};

/* A point: mostly in the window, sometimes at either end of the space. */
static uint16_t fx_point(struct run *r)
{
    uint8_t b = fz_u8(&r->in);
    if (b >= 248)
        return (uint16_t)(MAXK - (b & 3));
    if (b >= 244)
        return (uint16_t)(b & 3);
    return (uint16_t)(r->base + b);
}

/* Small sizes, some zero or nearly the whole space. */
static uint16_t fx_size(struct run *r)
{
    uint8_t b = fz_u8(&r->in);
    if (b < 192)
        return (uint16_t)(1 + b % 16);
    if (b < 240)
        return (uint16_t)(1 + b % 64);
    if (b < 244)
        return 0;
    return (uint16_t)(MAXK - (b & 7));
}

static void fx_window(struct run *r)
{
    static const uint16_t spots[8] = {0,      0xff00, 0x1000, 0x8000,
                                      0x7f80, 0xfff0, 0x0100, 0x4000};
    r->base = spots[fz_u8(&r->in) & 7];
}

static void fx_after(struct run *r)
{
    FZ_LIST_OK(r->o->check, r->l);
    FZ_CHECK(r->o->count(r->l) == r->m.n);
    size_t n = r->o->walk(r->l, buf, POOL + 1, false);
    FZ_CHECK(n == r->m.n);
    for (size_t i = 0; i < n; i++) {
        FZ_CHECK(buf[i] == r->m.v[i].tag);
        FZ_CHECK(buf[i]->start == r->m.v[i].start &&
                 buf[i]->start + (buf[i]->size - 1u) == r->m.v[i].last);
    }
    n = r->o->walk(r->l, buf, POOL + 1, true);
    FZ_CHECK(n == r->m.n);
    for (size_t i = 0; i < n; i++)
        FZ_CHECK(buf[i] == r->m.v[r->m.n - 1 - i].tag);
}

static struct x16 *fx_free_slot(struct run *r)
{
    struct x16 *e = &pool[fz_u8(&r->in) % POOL];
    return e->in ? NULL : e;
}

static void op_insert(struct run *r)
{
    struct x16 *e = fx_free_slot(r);
    uint16_t start = fx_point(r), size = fx_size(r);
    if (!e)
        return;
    e->start = start;
    e->size = size;
    struct x16 *clash = NULL;
    size_t ci = 0;
    unsigned long f0 = r->ta.failures;
    int rc = r->o->insert(r->l, e, &clash);
    if (rc == -ENOMEM) {
        FZ_CHECK(r->counted && r->ta.failures > f0);
        FZ_CHECK(mx_valid(&r->m, start, size) &&
                 mx_find_overlap(&r->m, start, start + (size - 1u)) == r->m.n);
    } else {
        int want = mx_insert(&r->m, start, size, e, &ci);
        FZ_CHECK(rc == want);
        if (rc == -EEXIST) {
            size_t k = mx_index_of(&r->m, clash);
            FZ_CHECK(clash && k < r->m.n);
            FZ_CHECK(r->m.v[k].start <= start + (size - 1u) &&
                     r->m.v[k].last >= start);
        }
        e->in = rc == 0;
    }
    fx_after(r);
}

static void op_hole(struct run *r)
{
    struct x16 *e = fx_free_slot(r);
    uint8_t b = fz_u8(&r->in);
    uint16_t size = (b & 0x80) ? fx_size(r) : (uint16_t)(1 + b % 16);
    uint8_t a = fz_u8(&r->in);
    uint16_t align = (uint16_t)(a < 240 ? 1u << (a % 9)
                                        : (a < 248 ? 1u << (a % 16) : a % 7));
    uint16_t lo, hi;
    uint8_t k = fz_u8(&r->in);
    if (k < 128) {
        lo = fx_point(r);
        hi = fx_point(r);
    } else if (k < 224) {
        lo = r->base;
        hi = (uint16_t)(r->base + 255);
    } else {
        lo = 0;
        hi = MAXK;
    }
    bool highest = k & 1;
    if (!e)
        return;
    e->start = 0;
    e->size = size;
    uint64_t want_start = 0;
    int want = mx_hole(&r->m, size, align, lo, hi, highest, &want_start);
    unsigned long f0 = r->ta.failures;
    int rc = r->o->hole(r->l, e, size, align, lo, hi,
                        highest ? SKIPLIST_HOLE_HIGHEST : SKIPLIST_HOLE_LOWEST);
    if (rc == -ENOMEM) {
        FZ_CHECK(r->counted && r->ta.failures > f0 && want == 0);
    } else {
        if (rc != want)
            fprintf(stderr,
                    "hole(size %u align %u [%u, %u] %s) = %d, model %d\n", size,
                    align, lo, hi, highest ? "HIGH" : "LOW", rc, want);
        FZ_CHECK(rc == want);
        if (rc == 0) {
            if (e->start != want_start)
                fprintf(stderr,
                        "hole(size %u align %u [%u, %u] %s) at %u, model %u\n",
                        size, align, lo, hi, highest ? "HIGH" : "LOW", e->start,
                        (unsigned)want_start);
            FZ_CHECK(e->start == want_start && e->size == size);
            FZ_CHECK(mx_insert(&r->m, want_start, size, e, NULL) == 0);
            e->in = true;
        }
    }
    fx_after(r);
}

static void op_erase(struct run *r)
{
    struct x16 *e = &pool[fz_u8(&r->in) % POOL];
    if (!e->in && r->m.n && fz_u8(&r->in) & 1) {
        /* A stranger with exactly a member's extent. */
        const struct mx_ext *x = &r->m.v[fz_u8(&r->in) % r->m.n];
        e->start = (uint16_t)x->start;
        e->size = (uint16_t)(x->last - x->start + 1);
    }
    int rc = r->o->erase(r->l, e);
    if (e->in) {
        FZ_CHECK(rc == 0 && mx_erase(&r->m, e) == 0);
        e->in = false;
        FZ_CHECK(r->o->lookup(r->l, e->start) == NULL);
    } else {
        FZ_CHECK(rc == -ENOENT);
    }
    fx_after(r);
}

static void op_query(struct run *r, unsigned which)
{
    uint16_t a = fx_point(r);
    switch (which) {
    case 0:
        FZ_CHECK(r->o->lookup(r->l, a) == mx_lookup(&r->m, a));
        break;
    case 1: {
        const void *want = NULL;
        for (size_t i = 0; i < r->m.n && !want; i++)
            if (r->m.v[i].start == a)
                want = r->m.v[i].tag;
        FZ_CHECK(r->o->find(r->l, a) == want);
        break;
    }
    default: {
        uint16_t b = fx_point(r);
        struct x16 *out = NULL;
        const void *want = NULL;
        int rc = r->o->first_overlap(r->l, a, b, &out);
        int wrc = mx_first_overlap(&r->m, a, b, &want);
        FZ_CHECK(rc == wrc);
        if (rc == 0)
            FZ_CHECK(out == want);
        size_t n = r->o->overlaps(r->l, a, b, buf, POOL + 1);
        size_t j = 0;
        if (a < b)
            for (size_t i = 0; i < r->m.n; i++)
                if (r->m.v[i].start < b && r->m.v[i].last >= a) {
                    FZ_CHECK(j < n && buf[j] == r->m.v[i].tag);
                    j++;
                }
        FZ_CHECK(j == n);
        break;
    }
    }
}

static void fx_run(const struct fx_ops *o, bool counted, const uint8_t *data,
                   size_t size)
{
    struct run r;
    memset(pool, 0, sizeof(pool));
    r.o = o;
    r.l = &l_storage;
    r.counted = counted;
    r.base = 0;
    mx_init(&r.m, MAXK);
    fz_begin(&r.ta, &r.in, o->label, data, size);
    FZ_CHECK(o->init(r.l, counted ? &r.ta.iface : NULL, fz_u64(&r.in)) == 0);
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
        case 5:
            op_hole(&r);
            break;
        case 6:
        case 7:
            op_erase(&r);
            break;
        case 8:
            op_query(&r, op >> 4 & 3);
            break;
        case 9:
            op_query(&r, 2);
            break;
        case 10:
            fx_window(&r);
            break;
        default:
            fz_fail_next(&r.ta, counted);
            break;
        }
    }
    tc_alloc_heal(&r.ta);
    o->destroy(r.l);
    mx_fini(&r.m);
    fz_alloc_done(&r.ta, counted);
}

FZ_ENTRY(fx_run, fx_k4_ops, fx_def_ops)
