/*
 * libFuzzer harness, skiplist_rcu.h's ordered index (SKIPLIST_RCU_DEFINE)
 * in one registered thread, against the sorted-array model of
 * tests/model_map.h, through the rmap_ops table of tests/rcu/rcu_ops.h.
 *
 * Input: bytes 0..7 seed the level generator, then opcode bytes with their
 * arguments: insert (of a new element or of a member again), erase of an
 * element (a member, a stranger with a member's key, NULL), erase_key,
 * every reader query, iterator walks with turns, and an injected
 * allocation failure. Keys are few (0..47) plus the extremes of uint64_t,
 * so clashes are common. Writers run inside a read-side section or
 * outside it, as the input says. After every mutation: check(), count()
 * and the whole list both ways against the model, first() and last(); a
 * mutation refused with -ENOMEM must have met the injected failure, must
 * change nothing, and must have given back every block it took. The input
 * ends with destroy(), whose callback sees the model's contents in order,
 * and the allocator must then hold nothing (every free well formed; in
 * plain builds, nothing written after its free).
 *
 * Instances: KPN 2 / MAXLVL 2 (a split or merge every other operation)
 * and a descending comparator with KPN 4 / MAXLVL 8, both on the counting
 * allocator of tests/rcu/rcu_common.h, then the defaults on malloc.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime in rcu_common.h */

#include "tests/rcu/rcu_ops.h"

#include "tests/fuzz/fuzz_common.h"
#include "tests/fuzz/fuzz_rcu_common.h"

SKIPLIST_RCU_DEFINE(fr_tiny, struct map_item, uint64_t, MAP_ITEM_KEY,
                    SKIPLIST_CMP_NUM, 2, 2, 1)
SKIPLIST_RCU_DEFINE(fr_desc, struct map_item, uint64_t, map_item_key,
                    MAP_CMP_DESC, 4, 8, 2)
SKIPLIST_RCU_DEFINE(fr_def, struct map_item, uint64_t, MAP_ITEM_KEY,
                    SKIPLIST_CMP_NUM, SKIPLIST_RCU_DEFAULTS)
RMAP_OPS_DEFINE(fr_tiny, "rcu map kpn2/lvl2/p1", false);
RMAP_OPS_DEFINE(fr_desc, "rcu map desc kpn4/lvl8/p2", true);
RMAP_OPS_DEFINE(fr_def, "rcu map defaults, malloc", false);

#define POOL 96
#define MOVES 24

static struct map_item pool[POOL];
static struct map_item twin[POOL]; /* a member's key, never a member */
static struct map_item *buf[POOL + MOVES + 2], *want[POOL + MOVES + 2];
static struct ra ra; /* big (its quarantine): static, reset per run */
static union {
    struct fr_tiny a;
    struct fr_desc b;
    struct fr_def c;
} list_storage;

struct run {
    const struct rmap_ops *o;
    void *sl;
    struct model_map m;
    bool counted;
    struct fz_in in;
};

/* A scan callback's state: the model's elements one way, in order. */
struct fr_cmp {
    const struct model_map *m;
    size_t i;
    int dir;
    bool bad;
};

static bool fr_visit(void *ctx, void *e)
{
    struct fr_cmp *c = (struct fr_cmp *)ctx;
    size_t at = c->dir > 0 ? c->i : c->m->n - 1 - c->i;
    if (c->i >= c->m->n || c->m->v[at] != e)
        c->bad = true;
    c->i++;
    return !c->bad;
}

/* After a mutation: invariants, count, the whole list both ways. */
static void fr_after(struct run *r)
{
    char why[256] = "";
    if (r->o->check(r->sl, why, sizeof why) != 0) {
        fprintf(stderr, "[%s] op %lu: check(): %s\n", fz_label, fz_op, why);
        abort();
    }
    skiplist_rcu_read_lock();
    FZ_CHECK(r->o->count(r->sl) == r->m.n);
    for (int dir = 1; dir >= -1; dir -= 2) {
        struct fr_cmp c = {&r->m, 0, dir, false};
        size_t n = r->o->scan(r->sl, dir > 0 ? RT_FIRST : RT_LAST, 0, dir,
                              fr_visit, &c);
        FZ_CHECK(!c.bad && c.i == r->m.n && n == r->m.n);
    }
    FZ_CHECK(r->o->first(r->sl) == mm_at(&r->m, 0));
    FZ_CHECK(r->o->last(r->sl) == (r->m.n ? r->m.v[r->m.n - 1] : NULL));
    skiplist_rcu_read_unlock();
}

/* Before a mutation: a fresh accounting window on the counting allocator. */
static unsigned long fr_before(const struct run *r)
{
    if (r->counted)
        ra_window(&ra);
    return atomic_load(&ra.failures);
}

/* A mutation answered -ENOMEM: only after an injected failure, and with
 * every block it took given back (the caller then checks the contents). */
static void fr_enomem(const struct run *r, unsigned long failures0)
{
    FZ_CHECK(r->counted && atomic_load(&ra.failures) > failures0);
    FZ_CHECK(ra_window_kept(&ra) == 0);
}

static void op_insert(struct run *r, uint8_t op)
{
    uint8_t s = fz_u8(&r->in);
    struct map_item *e = &pool[s % POOL];
    if (!e->in_list)
        e->key = fz_map_key(&r->in); /* a member's key is never changed */
    struct map_item *had = mm_find(&r->m, e->key), *existing = NULL;
    bool locked = op & 0x20, want_existing = !(op & 0x40);
    unsigned long f0 = fr_before(r);
    if (locked) /* writers may hold the read lock */
        skiplist_rcu_read_lock();
    int rc = r->o->insert(r->sl, e, want_existing ? &existing : NULL);
    if (locked)
        skiplist_rcu_read_unlock();
    if (rc == -ENOMEM) {
        fr_enomem(r, f0);
    } else if (had) {
        FZ_CHECK(rc == -EEXIST);
        FZ_CHECK(!want_existing || existing == had);
    } else {
        FZ_CHECK(rc == 0);
        mm_insert_at(&r->m, mm_lower(&r->m, e->key), e);
        e->in_list = true;
    }
    fr_after(r);
}

/* Erase of an element: a member, a stranger (maybe a twin holding a
 * member's key), or NULL. */
static void op_erase(struct run *r)
{
    uint8_t b = fz_u8(&r->in);
    if (b == 255) {
        FZ_CHECK(r->o->erase(r->sl, NULL) == -EINVAL);
        return;
    }
    struct map_item *e = &pool[b % POOL];
    if (b & 0x80) { /* its twin: the same key, not the element */
        twin[b % POOL].key = e->key;
        e = &twin[b % POOL];
    }
    size_t at = mm_index_of(&r->m, e);
    unsigned long f0 = fr_before(r);
    int rc = r->o->erase(r->sl, e);
    if (rc == -ENOMEM) {
        fr_enomem(r, f0);
    } else if (at != SIZE_MAX) {
        FZ_CHECK(rc == 0);
        mm_remove_at(&r->m, at);
        e->in_list = false;
    } else {
        FZ_CHECK(rc == -ENOENT);
    }
    fr_after(r);
}

static void op_erase_key(struct run *r)
{
    uint64_t k = fz_map_key(&r->in);
    struct map_item *out = NULL, *had = mm_find(&r->m, k);
    unsigned long f0 = fr_before(r);
    int rc = r->o->erase_key(r->sl, k, &out);
    if (rc == -ENOMEM) {
        fr_enomem(r, f0);
    } else if (had) {
        FZ_CHECK(rc == 0 && out == had);
        mm_remove_at(&r->m, mm_index_of(&r->m, had));
        had->in_list = false;
    } else {
        FZ_CHECK(rc == -ENOENT);
    }
    fr_after(r);
}

static void op_queries(struct run *r)
{
    uint64_t k = fz_map_key(&r->in);
    skiplist_rcu_read_lock();
    FZ_CHECK(r->o->find(r->sl, k) == mm_find(&r->m, k));
    FZ_CHECK(r->o->lower_bound(r->sl, k) == mm_lower_bound(&r->m, k));
    FZ_CHECK(r->o->upper_bound(r->sl, k) == mm_upper_bound(&r->m, k));
    FZ_CHECK(r->o->floor(r->sl, k) == mm_floor(&r->m, k));
    FZ_CHECK(r->o->below(r->sl, k) == mm_below(&r->m, k));
    skiplist_rcu_read_unlock();
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
    skiplist_rcu_read_lock();
    size_t got = r->o->walk(r->sl, start, k, moves, nm, buf);
    skiplist_rcu_read_unlock();
    size_t w = mm_walk(&r->m, start, k, moves, nm, want);
    FZ_CHECK(got == w);
    for (size_t i = 0; i < got; i++)
        FZ_CHECK(buf[i] == want[i]);
}

static size_t destroyed;
static bool destroy_ok;

static void fr_destroy_cb(struct map_item *e, void *arg)
{
    const struct model_map *m = (const struct model_map *)arg;
    if (destroyed >= m->n || m->v[destroyed] != e)
        destroy_ok = false;
    destroyed++;
}

static void fr_run(const struct rmap_ops *o, bool counted, const uint8_t *data,
                   size_t size)
{
    struct run r;
    struct tc_alloc unused; /* fz_begin's; this harness counts with ra */
    memset(pool, 0, sizeof(pool));
    memset(twin, 0, sizeof(twin));
    for (uint32_t i = 0; i < POOL; i++)
        pool[i].id = twin[i].id = i;
    r.o = o;
    r.sl = &list_storage;
    r.counted = counted;
    mm_init(&r.m, o->desc);
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
        case 3:
            op_insert(&r, op);
            break;
        case 4:
        case 5:
            op_erase(&r);
            break;
        case 6:
            op_erase_key(&r);
            break;
        case 7:
        case 8:
            op_queries(&r);
            break;
        case 9:
            op_walk(&r);
            break;
        case 10:
            fr_after(&r);
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
    o->destroy(r.sl, fr_destroy_cb, &r.m); /* rcu_barrier() inside */
    FZ_CHECK(destroy_ok && destroyed == r.m.n);
    ra_fini(&ra);
    fz_rcu_allocator_clean(&ra, counted);
    mm_free(&r.m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fr_run(&fr_tiny_ops, true, data, size);
    fr_run(&fr_desc_ops, true, data, size);
    fr_run(&fr_def_ops, false, data, size);
    return 0;
}
