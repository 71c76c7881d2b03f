/*
 * libFuzzer harness, ordered-index face (SKIPLIST_DEFINE), against the
 * sorted-array model of tests/model_map.h.
 *
 * Input: byte 0..7 seed the level generator, then a stream of operations,
 * each an opcode byte followed by its arguments (slot in the element pool,
 * key). Keys are few (0..47) so duplicates, clashes and runs of equal keys
 * are common, plus the extremes of uint64_t. Every result is compared with
 * the model, check() and a full in-order comparison follow every mutation,
 * and the input ends with destroy(), whose callback must see the model's
 * contents in order, and zero live allocations.
 *
 * Runs each input on: KPN 4 / MAXLVL 4 (splits and merges every few
 * operations) and the defaults, both on the counting allocator (with
 * injected allocation failures), then the defaults on the library's pool,
 * then a ranked instance of KPN 3 / fanout 2 on the counting allocator,
 * whose check() verifies every count and whose rank, rank_of, at,
 * count_range and iter_at are compared with the model after every
 * mutation (the counts' upkeep: made on the way down, taken back).
 */
#include "tests/fuzz/fuzz_common.h"
#include "tests/model_map.h"

SKIPLIST_DEFINE(fm_k4, struct map_item, uint64_t, MAP_ITEM_KEY,
                SKIPLIST_CMP_NUM, 4, 4, 1)
SKIPLIST_DEFINE(fm_def, struct map_item, uint64_t, MAP_ITEM_KEY,
                SKIPLIST_CMP_NUM, SKIPLIST_DEFAULTS)
MAP_OPS_DEFINE(fm_k4, "k4_l4_p1", false);
MAP_OPS_DEFINE(fm_def, "defaults", false);
SKIPLIST_RANKED_DEFINE(fm_rk3, struct map_item, uint64_t, MAP_ITEM_KEY,
                       SKIPLIST_CMP_NUM, 3, 8, 1)
MAP_RANKED_OPS_DEFINE(fm_rk3, "k3_l8_p1 ranked", false);

#define POOL 96
#define MOVES 24

static struct map_item pool[POOL];
static struct map_item *buf_a[POOL + MOVES + 2], *buf_b[POOL + MOVES + 2];
static union {
    struct fm_k4 k4;
    struct fm_def def;
    struct fm_rk3 rk3;
} list_storage;

struct run {
    const struct map_ops *o;
    void *sl;
    struct model_map m;
    struct tc_alloc ta;
    bool counted;
    struct fz_in in;
};

static struct map_item *fm_slot(struct fz_in *in)
{
    return &pool[fz_u8(in) % POOL];
}

/* After a mutation: invariants, count, and contents element by element. */
static void fm_after(struct run *r)
{
    FZ_LIST_OK(r->o->check, r->sl);
    FZ_CHECK(r->o->count(r->sl) == r->m.n);
    FZ_CHECK(r->o->empty(r->sl) == (r->m.n == 0));
    size_t n = r->o->loop(r->sl, MAP_FE_FWD, 0, 0, 0, buf_a, POOL + 1);
    FZ_CHECK(n == r->m.n);
    for (size_t i = 0; i < n; i++)
        FZ_CHECK(buf_a[i] == r->m.v[i]);
    FZ_CHECK(r->o->first(r->sl) == mm_at(&r->m, 0));
    FZ_CHECK(r->o->last(r->sl) == (r->m.n ? r->m.v[r->m.n - 1] : NULL));
    char why[256] = "";
    bool ranks_agree =
        !r->o->rank ||
        mm_rank_compare(r->o, r->sl, &r->m, (void **)buf_b, why, sizeof why);
    if (!ranks_agree)
        fprintf(stderr, "order statistics: %s\n", why);
    FZ_CHECK(ranks_agree);
}

/* A mutation returned -ENOMEM: allowed only when a failure was injected
 * into this call; the model then stays as it was. */
static void fm_enomem(struct run *r, unsigned long failures_before)
{
    FZ_CHECK(r->counted && r->ta.failures > failures_before);
}

static void op_insert(struct run *r, bool multi)
{
    struct map_item *e = fm_slot(&r->in);
    uint64_t k = fz_map_key(&r->in);
    if (e->in_list)
        return; /* inserting a member twice is a caller bug, not tested */
    e->key = k;
    unsigned long f0 = r->ta.failures;
    if (multi) {
        int rc = r->o->insert_multi(r->sl, e);
        if (rc == -ENOMEM) {
            fm_enomem(r, f0);
        } else {
            FZ_CHECK(rc == 0);
            mm_insert_multi(&r->m, e);
            e->in_list = true;
        }
    } else {
        struct map_item *existing = NULL;
        int rc = r->o->insert(r->sl, e, &existing);
        struct map_item *had = mm_find(&r->m, k);
        if (rc == -ENOMEM) {
            fm_enomem(r, f0);
        } else if (had) {
            FZ_CHECK(rc == -EEXIST);
            FZ_CHECK(existing && existing->key == k && existing->in_list);
        } else {
            FZ_CHECK(rc == 0);
            mm_insert_multi(&r->m, e);
            e->in_list = true;
        }
    }
    fm_after(r);
}

static void op_queries(struct run *r, unsigned which)
{
    uint64_t k = fz_map_key(&r->in);
    switch (which) {
    case 0:
        FZ_CHECK(r->o->find(r->sl, k) == mm_find(&r->m, k));
        break;
    case 1:
        FZ_CHECK(r->o->lower_bound(r->sl, k) == mm_lower_bound(&r->m, k));
        FZ_CHECK(r->o->upper_bound(r->sl, k) == mm_upper_bound(&r->m, k));
        break;
    default:
        FZ_CHECK(r->o->floor(r->sl, k) == mm_floor(&r->m, k));
        FZ_CHECK(r->o->below(r->sl, k) == mm_below(&r->m, k));
        break;
    }
}

static void op_erase(struct run *r)
{
    uint8_t b = fz_u8(&r->in);
    if (b == 255) {
        FZ_CHECK(r->o->erase(r->sl, NULL) == -EINVAL);
        return;
    }
    struct map_item *e = &pool[b % POOL];
    int rc = r->o->erase(r->sl, e);
    if (e->in_list) {
        FZ_CHECK(rc == 0);
        size_t i = mm_index_of(&r->m, e);
        FZ_CHECK(i != SIZE_MAX);
        mm_remove_at(&r->m, i);
        e->in_list = false;
    } else {
        FZ_CHECK(rc == -ENOENT); /* a stranger, maybe with a member's key */
    }
    fm_after(r);
}

static void op_erase_key(struct run *r)
{
    uint64_t k = fz_map_key(&r->in);
    struct map_item *out = NULL;
    int rc = r->o->erase_key(r->sl, k, &out);
    size_t i = mm_lower(&r->m, k);
    if (i < r->m.n && r->m.v[i]->key == k) {
        FZ_CHECK(rc == 0 && out == r->m.v[i]);
        out->in_list = false;
        mm_remove_at(&r->m, i);
    } else {
        FZ_CHECK(rc == -ENOENT);
    }
    fm_after(r);
}

static void op_pop(struct run *r, bool last)
{
    struct map_item *e = last ? r->o->pop_last(r->sl) : r->o->pop_first(r->sl);
    if (r->m.n == 0) {
        FZ_CHECK(e == NULL);
    } else {
        size_t i = last ? r->m.n - 1 : 0;
        FZ_CHECK(e == r->m.v[i]);
        e->in_list = false;
        mm_remove_at(&r->m, i);
    }
    fm_after(r);
}

/* Iterator from first, last or a seek, then next/prev as the bytes say. */
static void op_walk(struct run *r)
{
    uint8_t b = fz_u8(&r->in);
    int start = b % 3;
    uint64_t k = fz_map_key(&r->in);
    signed char moves[MOVES];
    size_t nm = (size_t)(b >> 2) % (MOVES + 1);
    uint8_t bits = 0;
    for (size_t i = 0; i < nm; i++) {
        if (i % 8 == 0)
            bits = fz_u8(&r->in);
        moves[i] = (bits >> (i % 8)) & 1 ? 1 : -1;
    }
    size_t got = r->o->walk(r->sl, start, k, moves, nm, buf_a);
    size_t want = mm_walk(&r->m, start, k, moves, nm, buf_b);
    FZ_CHECK(got == want);
    for (size_t i = 0; i < got; i++)
        FZ_CHECK(buf_a[i] == buf_b[i]);
}

/* One of the FOREACH macros; the _SAFE one erases every mod-th element. */
static void op_foreach(struct run *r)
{
    uint8_t b = fz_u8(&r->in);
    int which = b & 3;
    uint64_t k = fz_map_key(&r->in);
    size_t mod = (b >> 2) & 3, rem = mod ? (size_t)(b >> 4) % mod : 0;
    size_t n = r->o->loop(r->sl, which, k, mod, rem, buf_a, POOL + 1);
    FZ_CHECK(n != SIZE_MAX);
    size_t lo = which == MAP_FE_FROM ? mm_lower(&r->m, k) : 0;
    FZ_CHECK(n == r->m.n - lo);
    for (size_t i = 0; i < n; i++) {
        size_t j = which == MAP_FE_REV ? r->m.n - 1 - i : lo + i;
        FZ_CHECK(buf_a[i] == r->m.v[j]);
    }
    if (which != MAP_FE_SAFE || !mod)
        return;
    /* The loop cleared in_list on what it erased: drop those. */
    size_t w = 0;
    for (size_t i = 0; i < r->m.n; i++)
        if (r->m.v[i]->in_list)
            r->m.v[w++] = r->m.v[i];
    FZ_CHECK(w == r->m.n - (n + mod - 1 - rem) / mod);
    r->m.n = w;
    fm_after(r);
}

static size_t seen;

static void fm_seen(struct map_item *e, void *arg)
{
    (void)arg;
    FZ_CHECK(seen < POOL && buf_a[seen] == e);
    seen++;
    e->in_list = false;
}

/* clear() or destroy(): the callback sees the contents in order. */
static void fm_drain(struct run *r, bool destroy)
{
    for (size_t i = 0; i < r->m.n; i++)
        buf_a[i] = r->m.v[i];
    seen = 0;
    if (destroy)
        r->o->destroy(r->sl, fm_seen, NULL);
    else
        r->o->clear(r->sl, fm_seen, NULL);
    FZ_CHECK(seen == r->m.n);
    r->m.n = 0;
    if (!destroy)
        fm_after(r);
}

static void fm_run(const struct map_ops *o, bool counted, const uint8_t *data,
                   size_t size)
{
    struct run r;
    memset(pool, 0, sizeof(pool));
    for (uint32_t i = 0; i < POOL; i++)
        pool[i].id = i;
    r.o = o;
    r.sl = &list_storage;
    r.counted = counted;
    mm_init(&r.m, false);
    fz_begin(&r.ta, &r.in, o->label, data, size);
    FZ_CHECK(o->init(r.sl, counted ? &r.ta.iface : NULL, fz_u64(&r.in)) == 0);
    while (fz_more(&r.in)) {
        fz_op++;
        uint8_t op = fz_u8(&r.in);
        switch (op % 16) {
        case 0:
        case 1:
        case 2:
            op_insert(&r, false);
            break;
        case 3:
        case 4:
            op_insert(&r, true);
            break;
        case 5:
        case 6:
        case 7:
            op_queries(&r, op % 16 - 5u);
            break;
        case 8:
            op_erase(&r);
            break;
        case 9:
            op_erase_key(&r);
            break;
        case 10:
            op_pop(&r, op & 16);
            break;
        case 11:
            op_walk(&r);
            break;
        case 12:
            op_foreach(&r);
            break;
        case 13:
            fz_fail_next(&r.ta, counted);
            break;
        case 14:
            if ((op >> 4) == 0xf)
                fm_drain(&r, false);
            else
                op_erase(&r);
            break;
        default:
            op_queries(&r, op >> 4);
            break;
        }
    }
    tc_alloc_heal(&r.ta);
    fm_drain(&r, true);
    mm_free(&r.m);
    fz_alloc_done(&r.ta, counted);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fm_run(&fm_k4_ops, true, data, size);
    fm_run(&fm_def_ops, true, data, size);
    fm_run(&fm_def_ops, false, data, size);
    fm_run(&fm_rk3_ops, true, data, size);
    return 0;
}
