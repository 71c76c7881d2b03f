/*
 * Priority-queue face (SKIPLIST_PQ_DEFINE): unit properties, bad input, a
 * differential random test against a sorted-array model, and an
 * allocation-failure sweep on the failing allocator of test_common.h.
 *
 * Every property runs over four configurations: the defaults, one key per
 * node (Pugh/Kolivas layout), tiny leaves (KPN 4, so a few pushes split
 * leaves and a few removals merge them: handles must follow their elements)
 * and wide leaves (KPN 100: tombstones without the header bitmap).
 *
 * The model orders elements by (key, seq), seq being the order of push and
 * requeue: exactly "FIFO among equal keys". Seeds are printed; SEED=<n>
 * replays, TEST_SCALE=<k> soaks.
 */
#include <criterion/criterion.h>

#include "test_common.h"

struct pq_item {
    uint64_t key;
    uint32_t id;
    struct skiplist_hook hook;
};

#define PQ_ITEM_KEY(e) ((e)->key)

SKIPLIST_PQ_DEFINE(tpq_def, struct pq_item, uint64_t, PQ_ITEM_KEY,
                   SKIPLIST_CMP_NUM, hook, SKIPLIST_PQ_DEFAULTS)
SKIPLIST_PQ_DEFINE(tpq_k1, struct pq_item, uint64_t, PQ_ITEM_KEY,
                   SKIPLIST_CMP_NUM, hook, 1, 16, 2)
SKIPLIST_PQ_DEFINE(tpq_k4, struct pq_item, uint64_t, PQ_ITEM_KEY,
                   SKIPLIST_CMP_NUM, hook, 4, 8, 1)
/* Leaves too wide for a 64-bit bitmap and not in groups of 8: tombstones
 * found by scanning (see slx_nearest_tombstones). */
SKIPLIST_PQ_DEFINE(tpq_k100, struct pq_item, uint64_t, PQ_ITEM_KEY,
                   SKIPLIST_CMP_NUM, hook, 100, 16, 2)

/* One table of function pointers per instance, so each property is written
 * once and run over every configuration. */
struct pq_ops {
    const char *name;
    void *(*create)(const struct skiplist_allocator *a, uint64_t seed, int *rc);
    void (*destroy)(void *q);
    int (*push)(void *q, struct pq_item *e);
    struct pq_item *(*peek)(const void *q);
    struct pq_item *(*pop)(void *q);
    int (*remove)(void *q, struct pq_item *e);
    int (*requeue)(void *q, struct pq_item *e);
    bool (*queued)(const struct pq_item *e);
    bool (*queued_in)(const void *q, const struct pq_item *e);
    size_t (*count)(const void *q);
    int (*check)(const void *q, char *why, size_t len);
    /* Queue contents in order into out[0..max); returns how many. */
    size_t (*contents)(const void *q, struct pq_item **out, size_t max);
};

#define PQ_OPS_DEFINE(N)                                                   \
    static void *N##_o_create(const struct skiplist_allocator *a,          \
                              uint64_t seed, int *rc)                      \
    {                                                                      \
        struct N *q = (struct N *)malloc(sizeof(*q));                      \
        cr_assert(q);                                                      \
        *rc = N##_init(q, a, seed);                                        \
        if (*rc) {                                                         \
            free(q);                                                       \
            return NULL;                                                   \
        }                                                                  \
        return q;                                                          \
    }                                                                      \
    static void N##_o_destroy(void *q)                                     \
    {                                                                      \
        N##_destroy((struct N *)q, NULL, NULL);                            \
        free(q);                                                           \
    }                                                                      \
    static int N##_o_push(void *q, struct pq_item *e)                      \
    {                                                                      \
        return N##_push((struct N *)q, e);                                 \
    }                                                                      \
    static struct pq_item *N##_o_peek(const void *q)                       \
    {                                                                      \
        return N##_peek((const struct N *)q);                              \
    }                                                                      \
    static struct pq_item *N##_o_pop(void *q)                              \
    {                                                                      \
        return N##_pop((struct N *)q);                                     \
    }                                                                      \
    static int N##_o_remove(void *q, struct pq_item *e)                    \
    {                                                                      \
        return N##_remove((struct N *)q, e);                               \
    }                                                                      \
    static int N##_o_requeue(void *q, struct pq_item *e)                   \
    {                                                                      \
        return N##_requeue((struct N *)q, e);                              \
    }                                                                      \
    static bool N##_o_queued(const struct pq_item *e)                      \
    {                                                                      \
        return N##_queued(e);                                              \
    }                                                                      \
    static bool N##_o_queued_in(const void *q, const struct pq_item *e)    \
    {                                                                      \
        return N##_queued_in((const struct N *)q, e);                      \
    }                                                                      \
    static size_t N##_o_count(const void *q)                               \
    {                                                                      \
        return N##_count((const struct N *)q);                             \
    }                                                                      \
    static int N##_o_check(const void *q, char *why, size_t len)           \
    {                                                                      \
        return N##_check((const struct N *)q, why, len);                   \
    }                                                                      \
    static size_t N##_o_contents(const void *q, struct pq_item **out,      \
                                 size_t max)                               \
    {                                                                      \
        struct N##_iter it;                                                \
        size_t n = 0;                                                      \
        for (struct pq_item *e = N##_iter_first(&it, (const struct N *)q); \
             e && n < max; e = N##_iter_next(&it))                         \
            out[n++] = e;                                                  \
        return n;                                                          \
    }                                                                      \
    static const struct pq_ops N##_ops = {#N,                              \
                                          N##_o_create,                    \
                                          N##_o_destroy,                   \
                                          N##_o_push,                      \
                                          N##_o_peek,                      \
                                          N##_o_pop,                       \
                                          N##_o_remove,                    \
                                          N##_o_requeue,                   \
                                          N##_o_queued,                    \
                                          N##_o_queued_in,                 \
                                          N##_o_count,                     \
                                          N##_o_check,                     \
                                          N##_o_contents};

PQ_OPS_DEFINE(tpq_def)
PQ_OPS_DEFINE(tpq_k1)
PQ_OPS_DEFINE(tpq_k4)
PQ_OPS_DEFINE(tpq_k100)

static const struct pq_ops *const all_ops[] = {&tpq_def_ops, &tpq_k1_ops,
                                               &tpq_k4_ops, &tpq_k100_ops};
#define NCONF (sizeof(all_ops) / sizeof(all_ops[0]))

static void *mk(const struct pq_ops *o, uint64_t seed)
{
    int rc = -1;
    void *q = o->create(NULL, seed, &rc);
    cr_assert(q && rc == 0, "%s: init failed: %d", o->name, rc);
    return q;
}

static void ck(const struct pq_ops *o, const void *q)
{
    char why[256];
    cr_assert(o->check(q, why, sizeof why) == 0, "%s: check: %s", o->name, why);
}

static struct pq_item *items(size_t n)
{
    struct pq_item *v = (struct pq_item *)calloc(n, sizeof(*v));
    cr_assert(v);
    for (size_t i = 0; i < n; i++)
        v[i].id = (uint32_t)i;
    return v;
}

/* ------------------------------------------------------------ units */

/* Many equal keys (spanning several leaves with KPN 4) come out in push
 * order, interleaved with smaller and larger keys. */
Test(pq, fifo_among_equal_keys)
{
    for (size_t c = 0; c < NCONF; c++) {
        const struct pq_ops *o = all_ops[c];
        void *q = mk(o, 1);
        struct pq_item *v = items(300);
        for (uint32_t i = 0; i < 300; i++) {
            v[i].key = i % 3 == 0 ? 50 : i % 3 == 1 ? 10 : 90;
            cr_assert_eq(o->push(q, &v[i]), 0);
        }
        ck(o, q);
        /* Expected: all 10s in push order, then 50s, then 90s. */
        for (uint32_t r = 1; r <= 3; r++) {
            uint32_t want = r == 1 ? 1 : r == 2 ? 0 : 2;
            for (uint32_t i = want; i < 300; i += 3) {
                struct pq_item *e = o->pop(q);
                cr_assert(e == &v[i], "%s: popped %u, want %u", o->name,
                          e ? e->id : 9999u, i);
            }
        }
        cr_assert_null(o->pop(q));
        o->destroy(q);
        free(v);
    }
}

/* peek and pop give the minimum; peek does not remove. */
Test(pq, peek_pop_min)
{
    struct tc_rng r;
    tc_rng_init(&r, tc_seed("pq.peek_pop_min"));
    for (size_t c = 0; c < NCONF; c++) {
        const struct pq_ops *o = all_ops[c];
        void *q = mk(o, 2);
        cr_assert_null(o->peek(q));
        cr_assert_null(o->pop(q));
        struct pq_item *v = items(500);
        for (size_t i = 0; i < 500; i++) {
            v[i].key = tc_below(&r, 1000);
            cr_assert_eq(o->push(q, &v[i]), 0);
        }
        uint64_t last = 0;
        for (size_t i = 0; i < 500; i++) {
            struct pq_item *p = o->peek(q);
            cr_assert_not_null(p);
            cr_assert_eq(o->count(q), 500 - i);
            for (struct pq_item *e = v; e < v + 500; e++)
                if (o->queued(e))
                    cr_assert_geq(e->key, p->key);
            struct pq_item *e = o->pop(q);
            cr_assert(e == p, "%s: pop is not the peeked minimum", o->name);
            cr_assert(!o->queued(e));
            cr_assert_geq(e->key, last);
            last = e->key;
        }
        cr_assert_eq(o->count(q), 0);
        o->destroy(q);
        free(v);
    }
}

/* Remove through the handle, at each position: first, middle, last, the
 * sole element; the rest stays in order and check() stays clean. */
Test(pq, remove_by_handle_any_position)
{
    for (size_t c = 0; c < NCONF; c++) {
        const struct pq_ops *o = all_ops[c];
        const size_t n = 40;
        size_t victims[] = {0, 20, 39, 7, 13};
        for (size_t vi = 0; vi < sizeof victims / sizeof victims[0]; vi++) {
            void *q = mk(o, 3);
            struct pq_item *v = items(n);
            for (size_t i = 0; i < n; i++) {
                v[i].key = (uint64_t)(i / 2); /* pairs of equal keys */
                cr_assert_eq(o->push(q, &v[i]), 0);
            }
            struct pq_item *x = &v[victims[vi]];
            cr_assert_eq(o->remove(q, x), 0);
            cr_assert(!o->queued(x));
            ck(o, q);
            cr_assert_eq(o->count(q), n - 1);
            struct pq_item *out[64];
            size_t m = o->contents(q, out, 64);
            cr_assert_eq(m, n - 1);
            for (size_t i = 0, j = 0; i < n; i++) {
                if (&v[i] == x)
                    continue;
                cr_assert(out[j++] == &v[i], "%s: order after remove", o->name);
            }
            o->destroy(q);
            free(v);
        }
        /* The sole element. */
        void *q = mk(o, 4);
        struct pq_item one = {7, 0, {NULL, NULL}};
        cr_assert_eq(o->push(q, &one), 0);
        cr_assert_eq(o->remove(q, &one), 0);
        cr_assert(!o->queued(&one));
        cr_assert_eq(o->count(q), 0);
        cr_assert_null(o->peek(q));
        ck(o, q);
        cr_assert_eq(o->push(q, &one), 0); /* and it can come back */
        cr_assert(o->peek(q) == &one);
        o->destroy(q);
        cr_assert(!o->queued(&one), "%s: destroy left a hook set", o->name);
    }
}

/* Requeue after changing the key: earlier and later, and to a key with
 * equals (goes behind them). */
Test(pq, requeue_earlier_and_later)
{
    for (size_t c = 0; c < NCONF; c++) {
        const struct pq_ops *o = all_ops[c];
        void *q = mk(o, 5);
        struct pq_item *v = items(30);
        for (size_t i = 0; i < 30; i++) {
            v[i].key = 100 + 10 * (uint64_t)i;
            cr_assert_eq(o->push(q, &v[i]), 0);
        }
        /* Later: the first goes last. */
        v[0].key = 10000;
        cr_assert_eq(o->requeue(q, &v[0]), 0);
        ck(o, q);
        cr_assert(o->peek(q) == &v[1]);
        /* Earlier: the 20th becomes the minimum. */
        v[20].key = 1;
        cr_assert_eq(o->requeue(q, &v[20]), 0);
        ck(o, q);
        cr_assert(o->peek(q) == &v[20]);
        /* Onto an existing key: behind its equal. */
        v[5].key = v[9].key; /* 190 */
        cr_assert_eq(o->requeue(q, &v[5]), 0);
        ck(o, q);
        /* Unchanged key but with an equal behind it: moves behind it. */
        v[3].key = v[4].key;
        cr_assert_eq(o->push(q, &v[3]), -EEXIST);
        cr_assert_eq(o->requeue(q, &v[3]), 0);
        v[4].key = v[3].key;
        cr_assert_eq(o->requeue(q, &v[4]), 0); /* now 3 before 4 */
        ck(o, q);
        struct pq_item *want[] = {&v[20], &v[1], &v[2], &v[3], &v[4],
                                  &v[6],  &v[7], &v[8], &v[9], &v[5]};
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
            struct pq_item *e = o->pop(q);
            cr_assert(e == want[i], "%s: step %zu popped %u want %u", o->name,
                      i, e ? e->id : 999u, want[i]->id);
        }
        o->destroy(q);
        free(v);
    }
}

/* queued() is true exactly while the element is linked (found by walking
 * the queue), through every operation. */
Test(pq, queued_iff_linked)
{
    struct tc_rng r;
    tc_rng_init(&r, tc_seed("pq.queued_iff_linked"));
    for (size_t c = 0; c < NCONF; c++) {
        const struct pq_ops *o = all_ops[c];
        void *q = mk(o, 6);
        const size_t n = 64;
        struct pq_item *v = items(n);
        struct pq_item *out[64];
        for (int step = 0; step < 3000; step++) {
            struct pq_item *e = &v[tc_below(&r, n)];
            switch (tc_below(&r, 4)) {
            case 0:
                e->key = tc_below(&r, 20);
                (void)o->push(q, e);
                break;
            case 1:
                (void)o->pop(q);
                break;
            case 2:
                (void)o->remove(q, e);
                break;
            default:
                if (o->queued(e)) {
                    e->key = tc_below(&r, 20);
                    cr_assert_eq(o->requeue(q, e), 0);
                }
                break;
            }
            size_t m = o->contents(q, out, 64);
            bool linked[64] = {false};
            for (size_t i = 0; i < m; i++)
                linked[out[i]->id] = true;
            for (size_t i = 0; i < n; i++)
                cr_assert_eq(o->queued(&v[i]), linked[i],
                             "%s: step %d item %zu", o->name, step, i);
        }
        o->destroy(q);
        free(v);
    }
}

/* Misuse gets its documented error and changes nothing. */
Test(pq, bad_input)
{
    for (size_t c = 0; c < NCONF; c++) {
        const struct pq_ops *o = all_ops[c];
        void *q = mk(o, 7);
        struct pq_item *v = items(10);
        for (size_t i = 0; i < 9; i++) {
            v[i].key = i;
            cr_assert_eq(o->push(q, &v[i]), 0);
        }
        struct pq_item *before[16], *after[16];
        size_t nb = o->contents(q, before, 16);
        struct pq_item *out = &v[9]; /* never queued */
        cr_assert_eq(o->remove(q, out), -ENOENT);
        cr_assert_eq(o->requeue(q, out), -ENOENT);
        cr_assert_eq(o->push(q, &v[4]), -EEXIST);
        v[4].key = 4; /* unchanged key, the duplicate push must not move it */
        cr_assert_eq(o->push(q, NULL), -EINVAL);
        cr_assert_eq(o->remove(q, NULL), -EINVAL);
        cr_assert_eq(o->requeue(q, NULL), -EINVAL);
        /* Removed once: a second remove is -ENOENT. */
        cr_assert_eq(o->remove(q, &v[8]), 0);
        cr_assert_eq(o->remove(q, &v[8]), -ENOENT);
        cr_assert_eq(o->push(q, &v[8]), 0);
        size_t na = o->contents(q, after, 16);
        cr_assert_eq(na, nb);
        for (size_t i = 0; i < na; i++)
            cr_assert(before[i] == after[i], "%s: order changed", o->name);
        cr_assert(!o->queued(out));
        ck(o, q);
        o->destroy(q);
        free(v);
    }
}

/* An element queued in one queue, removed or requeued through another:
 * refused with -ENOENT, both queues left exactly as they were. Sizes from
 * one leaf to many (KPN 4), the element first, in the middle and last. */
Test(pq, remove_through_other_queue_refused)
{
    static const size_t sizes[] = {1, 3, 40};
    for (size_t c = 0; c < NCONF; c++) {
        const struct pq_ops *o = all_ops[c];
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            size_t n = sizes[s];
            void *qa = mk(o, 11), *qb = mk(o, 12);
            struct pq_item *va = items(n), *vb = items(n);
            for (size_t i = 0; i < n; i++) {
                va[i].key = vb[i].key = (uint64_t)(i * 7 % n);
                cr_assert_eq(o->push(qa, &va[i]), 0);
                cr_assert_eq(o->push(qb, &vb[i]), 0);
            }
            struct pq_item *before[64], *after[64];
            size_t nb = o->contents(qa, before, 64);
            size_t pick[] = {0, n / 2, n - 1};
            for (size_t k = 0; k < 3; k++) {
                struct pq_item *e = &va[pick[k]];
                cr_assert_eq(o->remove(qb, e), -ENOENT, "%s n=%zu", o->name, n);
                e->key += 1000; /* would move it, were it obeyed */
                cr_assert_eq(o->requeue(qb, e), -ENOENT, "%s n=%zu", o->name,
                             n);
                e->key -= 1000;
                cr_assert(o->queued(e));
                cr_assert(o->queued_in(qa, e));
                cr_assert(!o->queued_in(qb, e));
            }
            cr_assert_eq(o->count(qa), n);
            cr_assert_eq(o->count(qb), n);
            size_t na = o->contents(qa, after, 64);
            cr_assert_eq(na, nb);
            for (size_t i = 0; i < na; i++)
                cr_assert(before[i] == after[i], "%s: order changed", o->name);
            ck(o, qa);
            ck(o, qb);
            /* Through its own queue it goes. */
            cr_assert_eq(o->remove(qa, &va[pick[1]]), 0);
            cr_assert_eq(o->count(qa), n - 1);
            ck(o, qa);
            o->destroy(qa);
            o->destroy(qb);
            free(va);
            free(vb);
        }
    }
}

/* --------------------------------------------------------- the model */

/* Sorted by (key, seq): the order the queue must have. */
struct pq_model {
    struct pq_item **v;
    uint64_t *seq; /* by item id */
    bool *in;      /* by item id */
    size_t n;
    uint64_t next_seq;
};

static bool pm_before(const struct pq_model *m, const struct pq_item *a,
                      const struct pq_item *b)
{
    return a->key < b->key ||
           (a->key == b->key && m->seq[a->id] < m->seq[b->id]);
}

static void pm_insert(struct pq_model *m, struct pq_item *e)
{
    m->seq[e->id] = ++m->next_seq;
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (pm_before(m, m->v[mid], e))
            lo = mid + 1;
        else
            hi = mid;
    }
    memmove(m->v + lo + 1, m->v + lo, (m->n - lo) * sizeof(m->v[0]));
    m->v[lo] = e;
    m->n++;
    m->in[e->id] = true;
}

static void pm_erase(struct pq_model *m, const struct pq_item *e)
{
    for (size_t i = 0; i < m->n; i++) {
        if (m->v[i] == e) {
            memmove(m->v + i, m->v + i + 1, (m->n - i - 1) * sizeof(m->v[0]));
            m->n--;
            m->in[e->id] = false;
            return;
        }
    }
    cr_assert_fail("model: erase of an absent item");
}

static void pm_compare(const struct pq_ops *o, const void *q,
                       const struct pq_model *m, struct pq_item **buf,
                       size_t cap, const char *when, unsigned long step)
{
    char why[256];
    cr_assert(o->check(q, why, sizeof why) == 0, "%s %s step %lu: check: %s",
              o->name, when, step, why);
    cr_assert_eq(o->count(q), m->n, "%s %s step %lu: count", o->name, when,
                 step);
    size_t k = o->contents(q, buf, cap);
    cr_assert_eq(k, m->n);
    for (size_t i = 0; i < k; i++)
        cr_assert(buf[i] == m->v[i],
                  "%s %s step %lu: slot %zu holds %u, "
                  "model %u",
                  o->name, when, step, i, buf[i]->id, m->v[i]->id);
}

/*
 * One differential run: `ops` random operations on a pool of `pool` items,
 * keys drawn from `krange` (small: many duplicates), the queue size swinging
 * between empty and full. check() + full comparison every `every` ops.
 */
static void pq_differential(const struct pq_ops *o, uint64_t seed,
                            unsigned long ops, size_t pool, uint64_t krange,
                            unsigned long every, struct tc_alloc *ta)
{
    struct tc_rng r;
    tc_rng_init(&r, seed);
    int rc = -1;
    void *q = o->create(ta ? &ta->iface : NULL, seed, &rc);
    cr_assert(q && rc == 0);
    struct pq_item *v = items(pool);
    struct pq_model m = {0};
    m.v = (struct pq_item **)calloc(pool, sizeof(*m.v));
    m.seq = (uint64_t *)calloc(pool, sizeof(*m.seq));
    m.in = (bool *)calloc(pool, sizeof(*m.in));
    struct pq_item **buf = (struct pq_item **)calloc(pool, sizeof(*buf));
    cr_assert(m.v && m.seq && m.in && buf);
    bool grow = true;
    for (unsigned long s = 0; s < ops; s++) {
        if (m.n == pool)
            grow = false;
        else if (m.n == 0)
            grow = true;
        struct pq_item *e = &v[tc_below(&r, pool)];
        unsigned pick = (unsigned)tc_below(&r, 100);
        if (pick < (grow ? 45u : 20u)) { /* push */
            uint64_t k = tc_below(&r, krange);
            if (m.in[e->id]) {
                uint64_t old = e->key;
                cr_assert_eq(o->push(q, e), -EEXIST);
                cr_assert_eq(e->key, old);
            } else {
                e->key = k;
                cr_assert_eq(o->push(q, e), 0, "%s step %lu", o->name, s);
                pm_insert(&m, e);
            }
        } else if (pick < 60) { /* pop or peek */
            struct pq_item *want = m.n ? m.v[0] : NULL;
            if (pick & 1) {
                cr_assert(o->peek(q) == want, "%s step %lu: peek", o->name, s);
            } else {
                struct pq_item *got = o->pop(q);
                cr_assert(got == want, "%s step %lu: pop %u, model %u", o->name,
                          s, got ? got->id : 9999u, want ? want->id : 9999u);
                if (want)
                    pm_erase(&m, want);
            }
        } else if (pick < (grow ? 75u : 85u)) { /* remove */
            if (m.in[e->id]) {
                cr_assert_eq(o->remove(q, e), 0, "%s step %lu", o->name, s);
                pm_erase(&m, e);
            } else {
                cr_assert_eq(o->remove(q, e), -ENOENT, "%s step %lu", o->name,
                             s);
            }
        } else if (pick < 97) { /* requeue */
            if (m.in[e->id]) {
                /* Mostly nearby moves, sometimes far. */
                uint64_t k = tc_below(&r, 4) ? e->key + tc_below(&r, 5)
                                             : tc_below(&r, krange);
                if (k && tc_below(&r, 3) == 0)
                    k -= 1;
                pm_erase(&m, e);
                e->key = k;
                cr_assert_eq(o->requeue(q, e), 0, "%s step %lu", o->name, s);
                pm_insert(&m, e);
            } else {
                cr_assert_eq(o->requeue(q, e), -ENOENT);
            }
        } else { /* queued() against the model */
            cr_assert_eq(o->queued(e), m.in[e->id], "%s step %lu: queued",
                         o->name, s);
        }
        if (every && (s + 1) % every == 0)
            pm_compare(o, q, &m, buf, pool, "random", s);
    }
    pm_compare(o, q, &m, buf, pool, "end", ops);
    fprintf(stderr, "%s: %lu ops, 0 mismatches (seed %" PRIu64 ")\n", o->name,
            ops, seed);
    /* Drain: pops follow the model to the end. */
    for (size_t i = 0; i < m.n; i++)
        cr_assert(o->pop(q) == m.v[i], "%s: drain %zu", o->name, i);
    cr_assert_null(o->pop(q));
    o->destroy(q);
    for (size_t i = 0; i < pool; i++)
        cr_assert(!o->queued(&v[i]) || !m.in[i]);
    if (ta) {
        cr_assert_eq(ta->live, 0, "%s: %ld leaked", o->name, ta->live);
        cr_assert_eq(ta->bad_frees, 0);
    }
    free(v);
    free(m.v);
    free(m.seq);
    free(m.in);
    free(buf);
}

/* Short runs: check() after every operation, many duplicates, counting
 * allocator. */
Test(pq_random, short_checked, .timeout = 120)
{
    uint64_t seed = tc_seed("pq_random.short_checked");
    for (size_t c = 0; c < NCONF; c++) {
        struct tc_alloc ta;
        tc_alloc_init(&ta);
        pq_differential(all_ops[c], seed + c, tc_ops(20000), 48, 6, 1, &ta);
        tc_alloc_init(&ta);
        pq_differential(all_ops[c], seed + 100 + c, tc_ops(20000), 200, 1000, 1,
                        &ta);
    }
}

/* Long runs: >= 10^6 operations in all (1/8 under ASan), default pooled
 * allocator, check() every 1000. */
Test(pq_random, long_million, .timeout = 300)
{
    uint64_t seed = tc_seed("pq_random.long_million");
    const unsigned long per[NCONF] = {500000, 250000, 250000, 250000};
    for (size_t c = 0; c < NCONF; c++) {
        pq_differential(all_ops[c], seed + c, tc_ops(per[c]) / 2, 600, 64, 1000,
                        NULL);
        pq_differential(all_ops[c], seed + 10 + c, tc_ops(per[c]) / 2, 2000,
                        UINT64_C(1) << 40, 1000, NULL);
    }
}

/* --------------------------------------------------- allocation failure */

/*
 * A fixed script of pushes (that split leaves), requeues across the queue,
 * removals and pops, replayed with the N-th allocation failing, for every N
 * the script uses (and once with every call from N on failing). Each call
 * that fails must return -ENOMEM and leave the queue exactly as before
 * (contents and check()); the script goes on; at the end nothing leaks.
 * One allocation may fail unseen: a small queue's sole leaf growing for
 * slack (slx_grow_for_slack), which the push does without; that push must
 * then have succeeded, e queued and check() clean (counted in absorbed).
 */
static unsigned long pq_script(const struct pq_ops *o, struct tc_alloc *ta,
                               unsigned long fail_n, bool fail_rest,
                               unsigned long *enomem, unsigned long *absorbed)
{
    enum { POOL = 120 };
    struct pq_item v[POOL];
    struct pq_item *before[POOL], *after[POOL];
    memset(v, 0, sizeof v);
    for (uint32_t i = 0; i < POOL; i++)
        v[i].id = i;
    tc_alloc_init(ta);
    if (fail_n) {
        if (fail_rest)
            tc_alloc_fail_from(ta, fail_n);
        else
            tc_alloc_fail_at(ta, fail_n);
    }
    int rc = -1;
    void *q = o->create(&ta->iface, 99, &rc);
    if (!q) {
        cr_assert_eq(rc, -ENOMEM, "%s: init failed with %d", o->name, rc);
        cr_assert_eq(ta->live, 0, "%s: init leaked", o->name);
        ++*enomem;
        return ta->calls;
    }
    struct tc_rng r;
    tc_rng_init(&r, 4242);
    for (int step = 0; step < 400; step++) {
        struct pq_item *e = &v[tc_below(&r, POOL)];
        size_t nb = o->contents(q, before, POOL);
        unsigned long fails = ta->failures;
        unsigned what = (unsigned)tc_below(&r, 10);
        if (what < 5) {
            if (o->queued(e))
                continue;
            e->key = tc_below(&r, 50);
            rc = o->push(q, e);
            if (rc == 0 && ta->failures > fails) {
                char why[256];
                cr_assert(o->queued(e), "%s step %d: absorbed", o->name, step);
                cr_assert(o->check(q, why, sizeof why) == 0,
                          "%s step %d after an absorbed failure: %s", o->name,
                          step, why);
                ++*absorbed;
            }
            if (rc == 0)
                continue;
            cr_assert_eq(rc, -ENOMEM, "%s step %d: push %d", o->name, step, rc);
            cr_assert(!o->queued(e));
        } else if (what < 8) {
            if (!o->queued(e))
                continue;
            uint64_t old = e->key;
            e->key = tc_below(&r, 50);
            rc = o->requeue(q, e);
            if (rc == 0)
                continue;
            cr_assert_eq(rc, -ENOMEM, "%s step %d: requeue %d", o->name, step,
                         rc);
            cr_assert(o->queued(e));
            e->key = old; /* it stays at its old place: restore the key */
        } else if (what < 9) {
            if (o->queued(e))
                cr_assert_eq(o->remove(q, e), 0, "%s: remove", o->name);
            continue;
        } else {
            (void)o->pop(q);
            continue;
        }
        /* A failed call: counted, and nothing changed. */
        cr_assert_gt(ta->failures, fails,
                     "%s step %d: -ENOMEM with no "
                     "failed allocation",
                     o->name, step);
        ++*enomem;
        char why[256];
        cr_assert(o->check(q, why, sizeof why) == 0,
                  "%s step %d after -ENOMEM: %s", o->name, step, why);
        size_t na = o->contents(q, after, POOL);
        cr_assert_eq(na, nb, "%s step %d: count changed on -ENOMEM", o->name,
                     step);
        for (size_t i = 0; i < na; i++)
            cr_assert(before[i] == after[i],
                      "%s step %d: order changed on -ENOMEM", o->name, step);
    }
    o->destroy(q);
    cr_assert_eq(ta->live, 0, "%s: fail at %lu: %ld blocks leaked", o->name,
                 fail_n, ta->live);
    cr_assert_eq(ta->bad_frees, 0);
    return ta->calls;
}

Test(pq, alloc_failure_sweep, .timeout = 120)
{
    for (size_t c = 0; c < NCONF; c++) {
        const struct pq_ops *o = all_ops[c];
        struct tc_alloc ta;
        unsigned long enomem = 0, absorbed = 0;
        unsigned long total = pq_script(o, &ta, 0, false, &enomem, &absorbed);
        cr_assert_eq(enomem, 0);
        cr_assert_gt(total, 1, "%s: the script allocates nothing", o->name);
        for (unsigned long n = 1; n <= total; n++) {
            unsigned long before = enomem + absorbed;
            pq_script(o, &ta, n, false, &enomem, &absorbed);
            cr_assert_eq(ta.failures, 1, "%s: fail at %lu not reached", o->name,
                         n);
            cr_assert_gt(enomem + absorbed, before,
                         "%s: fail at %lu: no -ENOMEM seen", o->name, n);
            pq_script(o, &ta, n, true, &enomem, &absorbed);
        }
    }
}

/* A queue that drains keeps its last leaf, the index above it gone (it
 * came from a split, so it had an entry in an index of one level or
 * more): check() must stay clean while it is empty, and it must refill.
 * Fill-and-drain rounds run until the queue has drained from an index of
 * two levels at least once (KPN 4 and 200 elements: most rounds). */
Test(pq, drain_keeps_tall_sole_leaf_clean)
{
    enum { N = 200 };
    static struct pq_item items[N];
    struct tpq_k4 q;
    char why[256];
    cr_assert_eq(tpq_k4_init(&q, NULL, tc_seed("pq_drain_tall")), 0);
    unsigned tall_seen = 0;
    struct tc_rng rng;
    tc_rng_init(&rng, 12345);
    for (unsigned round = 0; round < 64 && tall_seen < 3; round++) {
        unsigned n = 5 + round % (N - 5);
        for (unsigned i = 0; i < n; i++) {
            items[i].key = tc_below(&rng, 1000);
            items[i].id = i;
            cr_assert_eq(tpq_k4_push(&q, &items[i]), 0);
        }
        unsigned top = q.sl.aux->top;
        for (unsigned i = 0; i < n; i++)
            cr_assert_not_null(tpq_k4_pop(&q));
        cr_assert_eq(tpq_k4_count(&q), 0);
        cr_assert_eq(slx_nleaves(&q.sl), 1, "the last leaf is kept");
        cr_assert_null(q.sl.root, "a drained queue keeps no index");
        if (top > 1)
            tall_seen++;
        cr_assert_eq(tpq_k4_check(&q, why, sizeof why), 0, "round %u: %s",
                     round, why);
        cr_assert_null(tpq_k4_peek(&q));
    }
    cr_assert_geq(tall_seen, 1, "no round drained a two-level index");
    /* and it refills in order */
    for (unsigned i = 0; i < 10; i++) {
        items[i].key = 10 - i;
        cr_assert_eq(tpq_k4_push(&q, &items[i]), 0);
        cr_assert_eq(tpq_k4_check(&q, why, sizeof why), 0, "%s", why);
    }
    for (unsigned i = 0; i < 10; i++)
        cr_assert_eq(tpq_k4_pop(&q)->key, i + 1);
    tpq_k4_destroy(&q, NULL, NULL);
}

/* Key of the first element at or after key, or UINT64_MAX when none. */
static uint64_t seek_key(const struct tpq_def *q, uint64_t key)
{
    struct tpq_def_iter it;
    struct pq_item *e = tpq_def_iter_seek(&it, q, key);
    return e ? e->key : UINT64_MAX;
}

/* A one-leaf queue does not keep the head's copy of its first key (pushes
 * and pops of small queues stay inside the leaf): a seek must still start
 * from the real first key, and the copies must be right again once a
 * second leaf exists. Pushing in falling order makes the copy, taken at
 * the first push, larger than the real first key. */
Test(pq, seek_in_one_leaf_queue_and_after_split)
{
    enum { N = 300 };
    static struct pq_item v[N];
    struct tpq_def q;
    char why[256];
    cr_assert_eq(tpq_def_init(&q, NULL, tc_seed("pq_seek_one_leaf")), 0);
    for (unsigned i = 0; i < 5; i++) {
        v[i].key = 50 - 10 * i; /* 50, 40, 30, 20, 10 */
        cr_assert_eq(tpq_def_push(&q, &v[i]), 0);
    }
    cr_assert_eq(slx_nleaves(&q.sl), 1);
    cr_assert_eq(tpq_def_check(&q, why, sizeof why), 0, "%s", why);
    cr_assert_eq(seek_key(&q, 20), 20);
    cr_assert_eq(seek_key(&q, 5), 10);
    cr_assert_eq(seek_key(&q, 45), 50);
    cr_assert_eq(seek_key(&q, 51), UINT64_MAX);
    cr_assert_eq(tpq_def_pop(&q)->key, 10);
    cr_assert_eq(seek_key(&q, 15), 20);
    /* Grow past one leaf: keys 1000.. append, keys 11..19 go first. */
    for (unsigned i = 5; i < N; i++) {
        v[i].key = i < 14 ? 11 + (i - 5) : 1000 + i;
        cr_assert_eq(tpq_def_push(&q, &v[i]), 0);
        cr_assert_eq(tpq_def_check(&q, why, sizeof why), 0, "push %u: %s", i,
                     why);
    }
    cr_assert_gt(slx_nleaves(&q.sl), 1);
    cr_assert_eq(seek_key(&q, 5), 11);
    cr_assert_eq(seek_key(&q, 15), 15);
    cr_assert_eq(seek_key(&q, 21), 30);
    cr_assert_eq(seek_key(&q, 1000), 1014);
    cr_assert_eq(seek_key(&q, 1000 + N), UINT64_MAX);
    /* Drain back to one leaf: the copies may go stale again, seeks not. */
    while (slx_nleaves(&q.sl) > 1)
        cr_assert_not_null(tpq_def_pop(&q));
    cr_assert_eq(tpq_def_check(&q, why, sizeof why), 0, "%s", why);
    struct pq_item *f = tpq_def_peek(&q);
    cr_assert_not_null(f);
    cr_assert_eq(seek_key(&q, 0), f->key);
    cr_assert_eq(seek_key(&q, f->key + 1) > f->key, 1);
    tpq_def_destroy(&q, NULL, NULL);
}

static void count_cb(struct pq_item *e, void *arg)
{
    (void)e;
    ++*(unsigned *)arg;
}

/* Keys of q in iteration order, forward and backward, into fw / bw. */
static unsigned walk_keys(const struct tpq_def *q, uint64_t *fw, uint64_t *bw,
                          unsigned max)
{
    struct tpq_def_iter it;
    unsigned n = 0, m = 0;
    for (struct pq_item *e = tpq_def_iter_first(&it, q); e && n < max;
         e = tpq_def_iter_next(&it))
        fw[n++] = e->key;
    for (struct pq_item *e = tpq_def_iter_last(&it, q); e && m < max;
         e = tpq_def_iter_prev(&it))
        bw[m++] = e->key;
    cr_assert_eq(n, m, "forward %u, backward %u elements", n, m);
    for (unsigned i = 0; i < n; i++)
        cr_assert_eq(fw[i], bw[n - 1 - i]);
    return n;
}

/* The tombstone test's queue: its keys start with want[0..n) and end with
 * the fillers 110, 120, ... up to last_filler. */
static void expect_keys(const struct tpq_def *q, const uint64_t *want,
                        unsigned n, uint64_t last_filler)
{
    uint64_t fw[64], bw[64];
    char why[256];
    unsigned fillers = (unsigned)(last_filler - 100) / 10;
    cr_assert_eq(tpq_def_check(q, why, sizeof why), 0, "%s", why);
    cr_assert_eq(walk_keys(q, fw, bw, 64), n + fillers);
    cr_assert_eq(tpq_def_count(q), n + fillers);
    for (unsigned i = 0; i < n + fillers; i++) {
        uint64_t w = i < n ? want[i] : 110 + 10 * (i - n);
        cr_assert_eq(fw[i], w, "slot %u: %llu, want %llu", i,
                     (unsigned long long)fw[i], (unsigned long long)w);
    }
}

/* Removing from the middle of a queue leaf's window (longer than
 * SLX_TOMB_WINDOW) leaves a tombstone: the slot keeps its key, its
 * element pointer is cleared. Every reader must see past it: searches on
 * the removed keys, floor, iteration both ways, unique insert of a
 * removed key; pushes take the nearest one in order (FIFO among equal
 * keys kept); removals at the window's ends trim past tombstones. Keys
 * 10..100 are the test's, 110..400 fillers that make the window long. */
Test(pq, tombstones_are_invisible)
{
    static struct pq_item v[16], fill[30];
    struct tpq_def q;
    cr_assert_eq(tpq_def_init(&q, NULL, tc_seed("pq_tombstones")), 0);
    for (unsigned i = 0; i < 10; i++) {
        v[i].key = 10 * (i + 1); /* 10 .. 100 */
        v[i].id = i;
        cr_assert_eq(tpq_def_push(&q, &v[i]), 0);
    }
    for (unsigned i = 0; i < 30; i++) {
        fill[i].key = 110 + 10 * i; /* 110 .. 400 */
        cr_assert_eq(tpq_def_push(&q, &fill[i]), 0);
    }
    cr_assert_gt(40, SLX_TOMB_WINDOW);
    const struct slx_leaf *x = slx_next(&tpq_def_slx_type, q.sl.head, 0);
    cr_assert_eq(tpq_def_remove(&q, &v[2]), 0); /* 30 */
    cr_assert_eq(tpq_def_remove(&q, &v[3]), 0); /* 40 */
    cr_assert_eq(tpq_def_remove(&q, &v[6]), 0); /* 70 */
    cr_assert_eq(x->dead, 3, "middle removals leave tombstones");
    const uint64_t a[] = {10, 20, 50, 60, 80, 90, 100};
    expect_keys(&q, a, 7, 400);
    cr_assert_null(tpq_def_find(&q, 30));
    cr_assert_eq(tpq_def_find(&q, 50), &v[4]);
    cr_assert_eq(tpq_def_lower_bound(&q, 30), &v[4]);
    cr_assert_eq(tpq_def_lower_bound(&q, 25), &v[4]);
    cr_assert_eq(tpq_def_upper_bound(&q, 30), &v[4]);
    cr_assert_eq(tpq_def_upper_bound(&q, 60), &v[7]);
    cr_assert_eq(tpq_def_floor(&q, 45), &v[1]);
    cr_assert_eq(tpq_def_floor(&q, 75), &v[5]);
    cr_assert_eq(tpq_def_below(&q, 50), &v[1]);
    struct tpq_def_iter it;
    cr_assert_eq(tpq_def_iter_seek(&it, &q, 31), &v[4]);
    cr_assert_null(tpq_def_find(&q, 40));

    /* A push takes the nearest tombstone; an equal key goes after. */
    v[10].key = 35; /* into 40's slot */
    cr_assert_eq(tpq_def_push(&q, &v[10]), 0);
    v[11].key = 60; /* into 70's slot, after the other 60 */
    v[11].id = 11;
    cr_assert_eq(tpq_def_push(&q, &v[11]), 0);
    cr_assert_eq(x->dead, 1, "both pushes took a tombstone: %u", x->dead);
    const uint64_t b[] = {10, 20, 35, 50, 60, 60, 80, 90, 100};
    expect_keys(&q, b, 9, 400);
    cr_assert_eq(tpq_def_iter_seek(&it, &q, 60), &v[5]);
    cr_assert_eq(tpq_def_iter_next(&it), &v[11], "FIFO among equal keys");

    /* A push next to a tombstone whose key (30) is below it: 35 moves
     * down into the tombstone. */
    v[12].key = 40;
    cr_assert_eq(tpq_def_push(&q, &v[12]), 0);
    cr_assert_eq(x->dead, 0);
    v[13].key = 5;
    cr_assert_eq(tpq_def_push(&q, &v[13]), 0);
    cr_assert_eq(tpq_def_find(&q, 50), &v[4]);
    const uint64_t c[] = {5, 10, 20, 35, 40, 50, 60, 60, 80, 90, 100};
    expect_keys(&q, c, 11, 400);

    /* A new minimum moves the slots before the nearest tombstone up. */
    cr_assert_eq(tpq_def_remove(&q, &v[10]), 0); /* 35 */
    v[15].key = 1;
    cr_assert_eq(tpq_def_push(&q, &v[15]), 0);
    cr_assert_eq(x->dead, 0);
    cr_assert_eq(tpq_def_peek(&q), &v[15]);
    const uint64_t c2[] = {1, 5, 10, 20, 40, 50, 60, 60, 80, 90, 100};
    expect_keys(&q, c2, 11, 400);

    /* Ends: tombstones next to a removed end go with it. */
    cr_assert_eq(tpq_def_remove(&q, &fill[28]), 0); /* 390 */
    cr_assert_eq(tpq_def_remove(&q, &fill[27]), 0); /* 380 */
    cr_assert_eq(x->dead, 2);
    cr_assert_eq(tpq_def_last(&q), &fill[29]);
    cr_assert_eq(tpq_def_remove(&q, &fill[29]), 0); /* 400, then 390, 380 */
    cr_assert_eq(tpq_def_last(&q), &fill[26]);
    cr_assert_eq(tpq_def_remove(&q, &v[13]), 0); /* 5 */
    cr_assert_eq(tpq_def_remove(&q, &v[0]), 0);  /* 10 */
    cr_assert_eq(tpq_def_remove(&q, &v[1]), 0);  /* 20 */
    cr_assert_eq(tpq_def_pop(&q), &v[15]);       /* 1, then 5, 10, 20 */
    cr_assert_eq(tpq_def_peek(&q), &v[12]);
    cr_assert_eq(x->dead, 0);
    const uint64_t d[] = {40, 50, 60, 60, 80, 90, 100};
    expect_keys(&q, d, 7, 370);

    /* Requeue across a tombstone, then clear: only live elements. */
    cr_assert_eq(tpq_def_remove(&q, &v[4]), 0); /* 50 */
    v[5].key = 36;
    cr_assert_eq(tpq_def_requeue(&q, &v[5]), 0);
    const uint64_t e[] = {36, 40, 60, 80, 90, 100};
    expect_keys(&q, e, 6, 370);
    unsigned calls = 0;
    tpq_def_clear(&q, count_cb, &calls);
    cr_assert_eq(calls, 6 + 27);
    cr_assert_not(tpq_def_queued(&v[5]));
    tpq_def_destroy(&q, NULL, NULL);
}

/* Leaves of a queue, walked from the head. */
static unsigned pq_leaves(const struct tpq_def *q)
{
    unsigned n = 0;
    const struct slx_leaf *h = q->sl.head;
    for (const struct slx_leaf *x = slx_next(&tpq_def_slx_type, h, 0); x != h;
         x = slx_next(&tpq_def_slx_type, x, 0))
        n++;
    return n;
}

/* A removal judges its leaf's fill by its live slots, not its window: a
 * middle leaf whose removals left it mostly tombstones merges with a
 * neighbour (when their live slots fit in three quarters of a leaf) like
 * any leaf with a quarter of KPN live or fewer. Counting the tombstones
 * as live would keep it, nearly empty, for good (mutant
 * remove-live-ignores-tombstones). */
Test(pq, tombstoned_leaf_is_rebalanced)
{
    static struct pq_item v[256];
    struct tpq_def q;
    char why[256];
    cr_assert_eq(tpq_def_init(&q, NULL, tc_seed("pq_tombstoned_leaf")), 0);
    for (unsigned i = 0; i < 256; i++) {
        v[i].key = i + 1;
        v[i].id = i;
        cr_assert_eq(tpq_def_push(&q, &v[i]), 0);
    }
    const struct slx_type *ty = &tpq_def_slx_type;
    const struct slx_leaf *h = q.sl.head;
    const struct slx_leaf *x1 = slx_next(ty, h, 0), *x2 = slx_next(ty, x1, 0);
    cr_assert_neq(x2, h);
    cr_assert_neq(slx_next(ty, x2, 0), h, "a middle leaf");
    /* Room in the first leaf for what the second will keep. */
    for (unsigned i = 0; i < 40; i++)
        cr_assert_eq(tpq_def_pop(&q), &v[i]);
    cr_assert_eq(slx_next(ty, h, 0), x1);
    cr_assert_leq(x1->n - x1->dead, 64u - 40u);
    unsigned n2 = x2->n, before = pq_leaves(&q);
    cr_assert_gt(n2, SLX_TOMB_WINDOW, "its middle removals leave tombstones");
    struct pq_item *in2[64];
    for (unsigned i = 0; i < n2; i++)
        in2[i] = (struct pq_item *)slx_ptrs(ty, x2)[i];
    /* Its middle, its ends kept: tombstones while the leaf stays. */
    for (unsigned i = 1; i + 1 < n2; i++) {
        cr_assert_eq(tpq_def_remove(&q, in2[i]), 0);
        cr_assert_eq(tpq_def_check(&q, why, sizeof why), 0, "%s", why);
    }
    cr_assert_lt(pq_leaves(&q), before,
                 "the second leaf, 2 live of %u slots, was not merged", n2);
    cr_assert_eq(tpq_def_count(&q), 256 - 40 - (n2 - 2));
    uint64_t last = 0;
    for (unsigned k = 0; k < 256 - 40 - (n2 - 2); k++) {
        struct pq_item *e = tpq_def_pop(&q);
        cr_assert_not_null(e);
        cr_assert_gt(e->key, last);
        last = e->key;
    }
    cr_assert_null(tpq_def_pop(&q));
    tpq_def_destroy(&q, NULL, NULL);
}

/* A window that shrinks to 16 slots or fewer keeps its tombstones, and a
 * removal there must still leave one: the small-window fast path of
 * removal (a shift) is only for windows without tombstones. */
Test(pq, short_window_keeps_tombstones)
{
    static struct pq_item v[40];
    struct tpq_def q;
    char why[256];
    cr_assert_eq(tpq_def_init(&q, NULL, tc_seed("pq_short_tombs")), 0);
    for (unsigned i = 0; i < 40; i++) {
        v[i].key = 10 * (i + 1); /* 10 .. 400, one leaf */
        v[i].id = i;
        cr_assert_eq(tpq_def_push(&q, &v[i]), 0);
    }
    const struct slx_leaf *x = slx_next(&tpq_def_slx_type, q.sl.head, 0);
    for (unsigned i = 33; i < 36; i++) /* 340, 350, 360 */
        cr_assert_eq(tpq_def_remove(&q, &v[i]), 0);
    cr_assert_eq(x->dead, 3);
    for (unsigned i = 0; i < 25; i++)
        cr_assert_eq(tpq_def_pop(&q), &v[i]);
    cr_assert_leq(x->n, 16, "window of %u slots", x->n);
    cr_assert_eq(x->dead, 3, "pops keep the tombstones");
    cr_assert_eq(tpq_def_remove(&q, &v[29]), 0); /* 300, mid-window */
    cr_assert_eq(x->dead, 4, "a removal beside tombstones leaves one");
    cr_assert_eq(tpq_def_check(&q, why, sizeof why), 0, "%s", why);
    cr_assert_eq(tpq_def_remove(&q, &v[29]), -ENOENT);
    /* The front beside a tombstone: the window trims past it. */
    cr_assert_eq(tpq_def_remove(&q, &v[26]), 0);
    cr_assert_eq(x->dead, 5);
    cr_assert_eq(tpq_def_remove(&q, &v[25]), 0);
    cr_assert_eq(x->dead, 4, "the front's neighbour tombstone trimmed");
    cr_assert_eq(tpq_def_peek(&q), &v[27]);
    cr_assert_eq(tpq_def_check(&q, why, sizeof why), 0, "%s", why);
    const unsigned left[] = {27, 28, 30, 31, 32, 36, 37, 38, 39};
    for (unsigned j = 0; j < 9; j++) {
        cr_assert_eq(tpq_def_pop(&q), &v[left[j]], "pop %u", j);
        cr_assert_eq(tpq_def_check(&q, why, sizeof why), 0, "%s", why);
    }
    cr_assert_null(tpq_def_pop(&q));
    tpq_def_destroy(&q, NULL, NULL);
}

/* ---------------------------------------- suite enomem_exact (queue)
 *
 * -ENOMEM leaves a list exactly as it was, its memory included: the index
 * nodes and the leaf an insert or a requeue reserves before it changes
 * anything are given back when a later allocation of the same call fails
 * (slx_index_reserve, slx_split). Every allocation of every call fails in
 * turn; after each failure name_bytes() and the allocator's live blocks
 * must be what they were before the call. Small leaves and a low max
 * level make splits, index splits and a grown root frequent.
 *
 *
 * (tests/test_enomem_exact.c until the suites were filed by subject: its
 * queue half is in tests/test_pq_unit.c, its map half in
 * tests/test_map_alloc.c.)
 */
struct ex_task {
    uint64_t key;
    struct skiplist_hook hook;
};
#define EX_TASK_KEY(e) ((e)->key)
SKIPLIST_PQ_DEFINE(ex_pq, struct ex_task, uint64_t, EX_TASK_KEY,
                   SKIPLIST_CMP_NUM, hook, 4, 3, 1)

Test(enomem_exact, requeue_gives_back_what_it_reserved)
{
    static struct ex_task t[300];
    struct tc_alloc ta;
    struct ex_pq pq;
    tc_alloc_init(&ta);
    cr_assert_eq(ex_pq_init(&pq, &ta.iface, 2), 0);
    for (size_t i = 0; i < 300; i++) {
        t[i].key = 2 * i;
        cr_assert_eq(ex_pq_push(&pq, &t[i]), 0);
    }
    /* Move keys into full leaves elsewhere: each requeue needs a split. */
    for (size_t j = 0; j < 300; j += 3) {
        t[j].key = 2 * ((j * 7) % 300) + 1;
        TC_EXACT_ENOMEM(&ta, ex_pq_bytes(&pq), ex_pq_requeue(&pq, &t[j]),
                        "requeue", j);
    }
    cr_assert_eq(ex_pq_count(&pq), 300);
    cr_assert_eq(ex_pq_check(&pq, NULL, 0), 0);
    ex_pq_destroy(&pq, NULL, NULL);
    cr_assert_eq(ta.live, 0);
}
