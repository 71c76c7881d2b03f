/*
 * libFuzzer harness, priority-queue face (SKIPLIST_PQ_DEFINE), against a
 * sorted-array model ordered by (key, seq), seq counting pushes and
 * requeues: exactly "FIFO among equal keys". Keys take 6 values so ties are
 * the common case.
 *
 * Input: bytes 0..7 seed the level generator, then opcode bytes with their
 * arguments (pool slot, key). push / pop / peek / remove / requeue /
 * erase_key / queued (and removal through a second queue, refused), plus
 * an injected allocation failure; check(), hook
 * state and the full order are compared after every mutation; destroy()
 * must leave every hook clear and zero live allocations.
 *
 * Instances: KPN 4 / MAXLVL 8 (handles must follow elements through splits
 * and merges), the defaults on the counting allocator, the defaults on the
 * library's pool.
 */
#include "tests/fuzz/fuzz_common.h"

struct pq_item {
    uint64_t key;
    uint64_t seq; /* model's tie-break, maintained by the harness */
    bool in;      /* model membership */
    struct skiplist_hook hook;
};

#define PQ_KEY(e) ((e)->key)

SKIPLIST_PQ_DEFINE(fp_k4, struct pq_item, uint64_t, PQ_KEY, SKIPLIST_CMP_NUM,
                   hook, 4, 8, 1)
SKIPLIST_PQ_DEFINE(fp_def, struct pq_item, uint64_t, PQ_KEY, SKIPLIST_CMP_NUM,
                   hook, SKIPLIST_PQ_DEFAULTS)

struct pq_ops {
    const char *label;
    int (*init)(void *q, const struct skiplist_allocator *a, uint64_t seed);
    void (*destroy)(void *q, void (*fn)(struct pq_item *, void *), void *arg);
    int (*push)(void *q, struct pq_item *e);
    struct pq_item *(*peek)(const void *q);
    struct pq_item *(*pop)(void *q);
    int (*remove)(void *q, struct pq_item *e);
    int (*requeue)(void *q, struct pq_item *e);
    int (*erase_key)(void *q, uint64_t k, struct pq_item **out);
    struct pq_item *(*find)(const void *q, uint64_t k);
    struct pq_item *(*last)(const void *q);
    bool (*queued)(const struct pq_item *e);
    size_t (*count)(const void *q);
    int (*check)(const void *q, char *why, size_t len);
    size_t (*contents)(const void *q, struct pq_item **out, size_t max);
};

#define FP_OPS(N, label_)                                                    \
    static int N##_f_init(void *q, const struct skiplist_allocator *a,       \
                          uint64_t seed)                                     \
    {                                                                        \
        return N##_init((struct N *)q, a, seed);                             \
    }                                                                        \
    static void N##_f_destroy(void *q, void (*fn)(struct pq_item *, void *), \
                              void *arg)                                     \
    {                                                                        \
        N##_destroy((struct N *)q, fn, arg);                                 \
    }                                                                        \
    static int N##_f_push(void *q, struct pq_item *e)                        \
    {                                                                        \
        return N##_push((struct N *)q, e);                                   \
    }                                                                        \
    static struct pq_item *N##_f_peek(const void *q)                         \
    {                                                                        \
        return N##_peek((const struct N *)q);                                \
    }                                                                        \
    static struct pq_item *N##_f_pop(void *q)                                \
    {                                                                        \
        return N##_pop((struct N *)q);                                       \
    }                                                                        \
    static int N##_f_remove(void *q, struct pq_item *e)                      \
    {                                                                        \
        return N##_remove((struct N *)q, e);                                 \
    }                                                                        \
    static int N##_f_requeue(void *q, struct pq_item *e)                     \
    {                                                                        \
        return N##_requeue((struct N *)q, e);                                \
    }                                                                        \
    /* A queue has no erase by key: find, then remove what was found. */     \
    static int N##_f_erase_key(void *q, uint64_t k, struct pq_item **out)    \
    {                                                                        \
        struct pq_item *e = N##_find((const struct N *)q, k);                \
        if (!e)                                                              \
            return -ENOENT;                                                  \
        *out = e;                                                            \
        return N##_remove((struct N *)q, e);                                 \
    }                                                                        \
    static struct pq_item *N##_f_find(const void *q, uint64_t k)             \
    {                                                                        \
        return N##_find((const struct N *)q, k);                             \
    }                                                                        \
    static struct pq_item *N##_f_last(const void *q)                         \
    {                                                                        \
        return N##_last((const struct N *)q);                                \
    }                                                                        \
    static bool N##_f_queued(const struct pq_item *e)                        \
    {                                                                        \
        return N##_queued(e);                                                \
    }                                                                        \
    static size_t N##_f_count(const void *q)                                 \
    {                                                                        \
        return N##_count((const struct N *)q);                               \
    }                                                                        \
    static int N##_f_check(const void *q, char *why, size_t len)             \
    {                                                                        \
        return N##_check((const struct N *)q, why, len);                     \
    }                                                                        \
    static size_t N##_f_contents(const void *q, struct pq_item **out,        \
                                 size_t max)                                 \
    {                                                                        \
        const struct N *l = (const struct N *)q;                             \
        struct N##_iter it;                                                  \
        struct pq_item *e;                                                   \
        size_t n = 0;                                                        \
        SKIPLIST_FOREACH (N, l, it, e) {                                     \
            if (n == max)                                                    \
                break;                                                       \
            out[n++] = e;                                                    \
        }                                                                    \
        return n;                                                            \
    }                                                                        \
    static const struct pq_ops N##_ops = {                                   \
        label_,          N##_f_init,  N##_f_destroy,  N##_f_push,            \
        N##_f_peek,      N##_f_pop,   N##_f_remove,   N##_f_requeue,         \
        N##_f_erase_key, N##_f_find,  N##_f_last,     N##_f_queued,          \
        N##_f_count,     N##_f_check, N##_f_contents,                        \
    }

FP_OPS(fp_k4, "k4_l8_p1");
FP_OPS(fp_def, "defaults");

#define POOL 64

static struct pq_item pool[POOL];
static struct pq_item *buf[POOL + 1];
static union {
    struct fp_k4 k4;
    struct fp_def def;
} q_storage, q_other;
/* Queued in q_other for the whole run: removals through the wrong queue,
 * both ways, must be refused. */
static struct pq_item other_item;

/* The model: members sorted by (key, seq). */
struct model {
    struct pq_item *v[POOL];
    size_t n;
    uint64_t seq;
};

static bool before(const struct pq_item *a, const struct pq_item *b)
{
    return a->key != b->key ? a->key < b->key : a->seq < b->seq;
}

static void m_add(struct model *m, struct pq_item *e)
{
    e->seq = m->seq++;
    e->in = true;
    size_t i = m->n;
    while (i > 0 && before(e, m->v[i - 1])) {
        m->v[i] = m->v[i - 1];
        i--;
    }
    m->v[i] = e;
    m->n++;
}

static void m_del(struct model *m, struct pq_item *e)
{
    size_t i = 0;
    while (i < m->n && m->v[i] != e)
        i++;
    FZ_CHECK(i < m->n);
    memmove(m->v + i, m->v + i + 1, (m->n - i - 1) * sizeof(*m->v));
    m->n--;
    e->in = false;
}

struct run {
    const struct pq_ops *o;
    void *q;
    struct model m;
    struct tc_alloc ta;
    bool counted;
    struct fz_in in;
};

static uint64_t fp_key(struct fz_in *in)
{
    uint8_t b = fz_u8(in);
    return b < 250 ? b % 6u : UINT64_MAX - (b & 1);
}

static void fp_after(struct run *r)
{
    FZ_LIST_OK(r->o->check, r->q);
    FZ_CHECK(r->o->count(r->q) == r->m.n);
    size_t n = r->o->contents(r->q, buf, POOL + 1);
    FZ_CHECK(n == r->m.n);
    for (size_t i = 0; i < n; i++)
        FZ_CHECK(buf[i] == r->m.v[i]);
    FZ_CHECK(r->o->peek(r->q) == (r->m.n ? r->m.v[0] : NULL));
    FZ_CHECK(r->o->last(r->q) == (r->m.n ? r->m.v[r->m.n - 1] : NULL));
}

static struct pq_item *fp_slot(struct run *r)
{
    return &pool[fz_u8(&r->in) % POOL];
}

static void op_push(struct run *r)
{
    struct pq_item *e = fp_slot(r);
    uint64_t k = fp_key(&r->in);
    unsigned long f0 = r->ta.failures;
    if (e->in) {
        FZ_CHECK(r->o->push(r->q, e) == -EEXIST); /* key left alone */
    } else {
        e->key = k;
        int rc = r->o->push(r->q, e);
        if (rc == -ENOMEM) {
            FZ_CHECK(r->counted && r->ta.failures > f0);
            FZ_CHECK(!r->o->queued(e));
        } else {
            FZ_CHECK(rc == 0);
            m_add(&r->m, e);
        }
    }
    fp_after(r);
}

static void op_pop(struct run *r)
{
    struct pq_item *e = r->o->pop(r->q);
    FZ_CHECK(e == (r->m.n ? r->m.v[0] : NULL));
    if (e) {
        m_del(&r->m, e);
        FZ_CHECK(!r->o->queued(e));
    }
    fp_after(r);
}

static void op_remove(struct run *r)
{
    uint8_t b = fz_u8(&r->in);
    if (b == 255) {
        FZ_CHECK(r->o->remove(r->q, NULL) == -EINVAL);
        return;
    }
    struct pq_item *e = &pool[b % POOL];
    int rc = r->o->remove(r->q, e);
    if (e->in) {
        FZ_CHECK(rc == 0);
        m_del(&r->m, e);
    } else {
        FZ_CHECK(rc == -ENOENT);
    }
    FZ_CHECK(!r->o->queued(e));
    fp_after(r);
}

static void op_requeue(struct run *r)
{
    struct pq_item *e = fp_slot(r);
    uint64_t k = fp_key(&r->in);
    if (!e->in) {
        FZ_CHECK(r->o->requeue(r->q, e) == -ENOENT);
        return;
    }
    uint64_t old = e->key;
    unsigned long f0 = r->ta.failures;
    e->key = k;
    int rc = r->o->requeue(r->q, e);
    if (rc == -ENOMEM) {
        /* Still queued at the old key: put the key back. */
        FZ_CHECK(r->counted && r->ta.failures > f0);
        FZ_CHECK(r->o->queued(e));
        e->key = old;
    } else {
        FZ_CHECK(rc == 0);
        m_del(&r->m, e);
        m_add(&r->m, e);
    }
    fp_after(r);
}

/* e (queued or not) through the other queue, and the other queue's own
 * element through this one: -ENOENT, and neither queue changes. */
static void op_other_queue(struct run *r, struct pq_item *e)
{
    FZ_CHECK(r->o->remove(&q_other, e) == -ENOENT);
    FZ_CHECK(r->o->requeue(&q_other, e) == -ENOENT);
    FZ_CHECK(r->o->remove(r->q, &other_item) == -ENOENT);
    FZ_CHECK(r->o->requeue(r->q, &other_item) == -ENOENT);
    FZ_CHECK(r->o->queued(&other_item));
    FZ_CHECK(r->o->queued(e) == e->in);
    FZ_LIST_OK(r->o->check, &q_other);
    FZ_CHECK(r->o->count(&q_other) == 1);
    fp_after(r);
}

static void op_erase_key(struct run *r)
{
    uint64_t k = fp_key(&r->in);
    struct pq_item *want = NULL, *out = NULL;
    for (size_t i = 0; i < r->m.n && !want; i++)
        if (r->m.v[i]->key == k)
            want = r->m.v[i];
    FZ_CHECK(r->o->find(r->q, k) == want);
    int rc = r->o->erase_key(r->q, k, &out);
    if (want) {
        FZ_CHECK(rc == 0 && out == want);
        m_del(&r->m, want);
        FZ_CHECK(!r->o->queued(want));
    } else {
        FZ_CHECK(rc == -ENOENT);
    }
    fp_after(r);
}

static size_t seen;

static void fp_seen(struct pq_item *e, void *arg)
{
    struct model *m = (struct model *)arg;
    FZ_CHECK(seen < m->n && m->v[seen] == e);
    seen++;
}

static void fp_run(const struct pq_ops *o, bool counted, const uint8_t *data,
                   size_t size)
{
    struct run r;
    memset(pool, 0, sizeof(pool));
    r.o = o;
    r.q = &q_storage;
    r.counted = counted;
    r.m.n = 0;
    r.m.seq = 0;
    fz_begin(&r.ta, &r.in, o->label, data, size);
    FZ_CHECK(o->init(r.q, counted ? &r.ta.iface : NULL, fz_u64(&r.in)) == 0);
    memset(&other_item, 0, sizeof(other_item));
    other_item.key = 3;
    FZ_CHECK(o->init(&q_other, NULL, 1) == 0);
    FZ_CHECK(o->push(&q_other, &other_item) == 0);
    while (fz_more(&r.in)) {
        fz_op++;
        uint8_t op = fz_u8(&r.in);
        switch (op % 12) {
        case 0:
        case 1:
        case 2:
        case 3:
            op_push(&r);
            break;
        case 4:
        case 5:
            op_pop(&r);
            break;
        case 6:
            op_remove(&r);
            break;
        case 7:
        case 8:
            op_requeue(&r);
            break;
        case 9:
            op_erase_key(&r);
            break;
        case 10: {
            struct pq_item *e = fp_slot(&r);
            FZ_CHECK(o->queued(e) == e->in);
            op_other_queue(&r, e);
            break;
        }
        default:
            fz_fail_next(&r.ta, counted);
            break;
        }
    }
    tc_alloc_heal(&r.ta);
    seen = 0;
    o->destroy(r.q, fp_seen, &r.m);
    FZ_CHECK(seen == r.m.n);
    for (size_t i = 0; i < POOL; i++)
        FZ_CHECK(!o->queued(&pool[i]));
    FZ_CHECK(o->count(&q_other) == 1 && o->peek(&q_other) == &other_item);
    o->destroy(&q_other, NULL, NULL);
    FZ_CHECK(!o->queued(&other_item));
    fz_alloc_done(&r.ta, counted);
}

FZ_ENTRY(fp_run, fp_k4_ops, fp_def_ops)
