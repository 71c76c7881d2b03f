/*
 * Priority-queue face against a plain model: every public call of
 * SKIPLIST_PQ_DEFINE, mixed at random, on several configurations (one key
 * per node, tiny leaves, 256-key leaves, the defaults). The model is an
 * array sorted by (key, push order): FIFO among equal keys. Every call's
 * answer is compared with the model's; check() and a full walk in both
 * directions run every few thousand operations and at the end.
 *
 * Keys come from a small range, so equal keys, tombstones next to equal
 * keys and pushes into a sole leaf's window are frequent: the conditions
 * under which a queue once answered a search from a stale cached key.
 *
 * Seeds: a fixed one, then tc_seed() (SEED=<n> replays; otherwise from the
 * clock). Size: TEST_SCALE multiplies the operation count.
 */
#include <criterion/criterion.h>

#include "test_common.h"

struct dq_item {
    uint64_t key;
    unsigned id;
    struct skiplist_hook hook;
};
#define DQ_KEY(e) ((e)->key)

SKIPLIST_PQ_DEFINE(dq_k1, struct dq_item, uint64_t, DQ_KEY, SKIPLIST_CMP_NUM,
                   hook, 1, 1, 1)
SKIPLIST_PQ_DEFINE(dq_k3, struct dq_item, uint64_t, DQ_KEY, SKIPLIST_CMP_NUM,
                   hook, 3, 32, 4)
SKIPLIST_PQ_DEFINE(dq_k256, struct dq_item, uint64_t, DQ_KEY, SKIPLIST_CMP_NUM,
                   hook, 256, 24, 1)
SKIPLIST_PQ_DEFINE(dq_def, struct dq_item, uint64_t, DQ_KEY, SKIPLIST_CMP_NUM,
                   hook, SKIPLIST_PQ_DEFAULTS)

#define DQ_POOL 512

/* ------------------------------------------------------------ the model */

struct dq_model {
    struct dq_item *v[DQ_POOL]; /* queued, sorted by (key, seq) */
    uint64_t seq[DQ_POOL];      /* by id: when it was last queued */
    bool in[DQ_POOL];           /* by id */
    size_t n;
    uint64_t next_seq;
};

static bool dm_before(const struct dq_model *m, const struct dq_item *a,
                      const struct dq_item *b)
{
    return a->key < b->key ||
           (a->key == b->key && m->seq[a->id] < m->seq[b->id]);
}

static void dm_add(struct dq_model *m, struct dq_item *e)
{
    m->seq[e->id] = ++m->next_seq;
    size_t i = m->n;
    while (i > 0 && dm_before(m, e, m->v[i - 1])) {
        m->v[i] = m->v[i - 1];
        i--;
    }
    m->v[i] = e;
    m->n++;
    m->in[e->id] = true;
}

static void dm_del(struct dq_model *m, const struct dq_item *e)
{
    size_t i = 0;
    while (i < m->n && m->v[i] != e)
        i++;
    cr_assert_lt(i, m->n, "model: %u not queued", e->id);
    memmove(m->v + i, m->v + i + 1, (m->n - i - 1) * sizeof(m->v[0]));
    m->n--;
    m->in[e->id] = false;
}

/* Index of the first queued key >= k (strict) or > k (!strict). */
static size_t dm_bound(const struct dq_model *m, uint64_t k, bool strict)
{
    size_t i = 0;
    while (i < m->n && (strict ? m->v[i]->key < k : m->v[i]->key <= k))
        i++;
    return i;
}

static struct dq_item *dm_at(const struct dq_model *m, size_t i)
{
    return i < m->n ? m->v[i] : NULL;
}

/* ---------------------------------------------------- the driver, typed */

struct dq_run {
    struct dq_model m;
    struct dq_item pool[DQ_POOL];
    struct tc_rng rng;
    uint64_t keys; /* keys are drawn from [0, keys) */
    unsigned long step;
    const char *label;
    uint64_t seed;
};

#define DQ_EQ(r, got, want, what)                                              \
    cr_assert((got) == (want), "%s seed %" PRIu64 " step %lu: %s", (r)->label, \
              (r)->seed, (r)->step, (what))

/* One function per instance: N is the generated name. */
#define DQ_DRIVER(N)                                                          \
    static void N##_compare(struct dq_run *r, const struct N *q)              \
    {                                                                         \
        char why[256];                                                        \
        cr_assert(N##_check(q, why, sizeof why) == 0,                         \
                  "%s seed %" PRIu64 " step %lu: check: %s", r->label,        \
                  r->seed, r->step, why);                                     \
        DQ_EQ(r, N##_count(q), r->m.n, "count");                              \
        DQ_EQ(r, N##_empty(q), r->m.n == 0, "empty");                         \
        struct N##_iter it;                                                   \
        struct dq_item *e;                                                    \
        size_t i = 0;                                                         \
        SKIPLIST_FOREACH (N, q, it, e) {                                      \
            DQ_EQ(r, e, dm_at(&r->m, i), "forward walk");                     \
            DQ_EQ(r, N##_iter_get(&it), e, "iter_get");                       \
            i++;                                                              \
        }                                                                     \
        DQ_EQ(r, i, r->m.n, "forward walk length");                           \
        SKIPLIST_FOREACH_REVERSE (N, q, it, e) {                              \
            DQ_EQ(r, e, r->m.v[--i], "backward walk");                        \
        }                                                                     \
        DQ_EQ(r, i, (size_t)0, "backward walk length");                       \
        for (unsigned id = 0; id < DQ_POOL; id++) {                           \
            DQ_EQ(r, N##_queued_in(q, &r->pool[id]), r->m.in[id],             \
                  "queued_in");                                               \
            DQ_EQ(r, N##_queued(&r->pool[id]), r->m.in[id], "queued");        \
        }                                                                     \
    }                                                                         \
                                                                              \
    static void N##_searches(struct dq_run *r, const struct N *q, uint64_t k) \
    {                                                                         \
        struct dq_model *m = &r->m;                                           \
        size_t lb = dm_bound(m, k, true), ub = dm_bound(m, k, false);         \
        struct dq_item *first_k =                                             \
            lb < m->n && m->v[lb]->key == k ? m->v[lb] : NULL;                \
        DQ_EQ(r, N##_find(q, k), first_k, "find");                            \
        DQ_EQ(r, N##_lower_bound(q, k), dm_at(m, lb), "lower_bound");         \
        DQ_EQ(r, N##_upper_bound(q, k), dm_at(m, ub), "upper_bound");         \
        DQ_EQ(r, N##_floor(q, k), ub ? m->v[ub - 1] : NULL, "floor");         \
        DQ_EQ(r, N##_below(q, k), lb ? m->v[lb - 1] : NULL, "below");         \
        DQ_EQ(r, N##_peek(q), dm_at(m, 0), "peek");                           \
        DQ_EQ(r, N##_first(q), dm_at(m, 0), "first");                         \
        DQ_EQ(r, N##_last(q), m->n ? m->v[m->n - 1] : NULL, "last");          \
        struct N##_iter it;                                                   \
        DQ_EQ(r, N##_iter_seek(&it, q, k), dm_at(m, lb), "iter_seek");        \
        DQ_EQ(r, N##_iter_next(&it), lb < m->n ? dm_at(m, lb + 1) : NULL,     \
              "iter_next after seek");                                        \
        if (lb > 0 && lb < m->n) {                                            \
            N##_iter_seek(&it, q, k);                                         \
            DQ_EQ(r, N##_iter_prev(&it), m->v[lb - 1], "iter_prev");          \
        }                                                                     \
    }                                                                         \
                                                                              \
    static void N##_one_op(struct dq_run *r, struct N *q)                     \
    {                                                                         \
        struct dq_model *m = &r->m;                                           \
        struct dq_item *e = &r->pool[tc_below(&r->rng, DQ_POOL)];             \
        uint64_t k = tc_below(&r->rng, r->keys);                              \
        switch (tc_below(&r->rng, 16)) {                                      \
        case 0:                                                               \
        case 1:                                                               \
        case 2:                                                               \
        case 3: /* push */                                                    \
            if (m->in[e->id]) {                                               \
                uint64_t old = e->key;                                        \
                DQ_EQ(r, N##_push(q, e), -EEXIST, "push of a queued item");   \
                DQ_EQ(r, e->key, old, "refused push changed the key");        \
            } else {                                                          \
                e->key = k;                                                   \
                if (tc_below(&r->rng, 8) == 0) /* a hook never zeroed */      \
                    memset(&e->hook, 0xa5, sizeof(e->hook));                  \
                DQ_EQ(r, N##_push(q, e), 0, "push");                          \
                dm_add(m, e);                                                 \
            }                                                                 \
            break;                                                            \
        case 4:                                                               \
        case 5: /* pop */                                                     \
        {                                                                     \
            struct dq_item *want = dm_at(m, 0);                               \
            DQ_EQ(r, N##_pop(q), want, "pop");                                \
            if (want)                                                         \
                dm_del(m, want);                                              \
            break;                                                            \
        }                                                                     \
        case 6:                                                               \
        case 7: /* remove (a timer's cancel) */                               \
            if (m->in[e->id]) {                                               \
                DQ_EQ(r, N##_remove(q, e), 0, "remove");                      \
                dm_del(m, e);                                                 \
            } else {                                                          \
                DQ_EQ(r, N##_remove(q, e), -ENOENT, "remove of an absent");   \
            }                                                                 \
            break;                                                            \
        case 8:                                                               \
        case 9: /* requeue with a new key, or the same one */                 \
            if (m->in[e->id]) {                                               \
                if (tc_below(&r->rng, 4))                                     \
                    e->key = k;                                               \
                DQ_EQ(r, N##_requeue(q, e), 0, "requeue");                    \
                dm_del(m, e); /* behind its equals, even with its old key */  \
                dm_add(m, e);                                                 \
            } else {                                                          \
                DQ_EQ(r, N##_requeue(q, e), -ENOENT, "requeue of an absent"); \
            }                                                                 \
            break;                                                            \
        case 10: /* remove the first with key k, as a user would */           \
        {                                                                     \
            struct dq_item *f = N##_find(q, k);                               \
            size_t lb = dm_bound(m, k, true);                                 \
            DQ_EQ(r, f, lb < m->n && m->v[lb]->key == k ? m->v[lb] : NULL,    \
                  "find before remove");                                      \
            if (f) {                                                          \
                DQ_EQ(r, N##_remove(q, f), 0, "remove after find");           \
                dm_del(m, f);                                                 \
            }                                                                 \
            break;                                                            \
        }                                                                     \
        case 11: /* FOREACH_SAFE removing every element with key k */         \
        {                                                                     \
            struct N##_iter it;                                               \
            struct dq_item *x, *tmp;                                          \
            SKIPLIST_FOREACH_SAFE (N, q, it, x, tmp) {                        \
                if (x->key == k) {                                            \
                    DQ_EQ(r, N##_remove(q, x), 0, "remove in FOREACH_SAFE");  \
                    dm_del(m, x);                                             \
                }                                                             \
            }                                                                 \
            break;                                                            \
        }                                                                     \
        case 12: /* NULL arguments */                                         \
            DQ_EQ(r, N##_push(q, NULL), -EINVAL, "push(NULL)");               \
            DQ_EQ(r, N##_remove(q, NULL), -EINVAL, "remove(NULL)");           \
            DQ_EQ(r, N##_requeue(q, NULL), -EINVAL, "requeue(NULL)");         \
            break;                                                            \
        case 13: /* pop everything below k, in order */                       \
            while (m->n && m->v[0]->key < k / 4) {                            \
                DQ_EQ(r, N##_pop(q), m->v[0], "pop run");                     \
                dm_del(m, m->v[0]);                                           \
            }                                                                 \
            break;                                                            \
        case 14: /* rarely: clear, handing every element back in order */     \
            if (tc_below(&r->rng, 64) == 0) {                                 \
                N##_clear(q, N##_cleared, m);                                 \
                DQ_EQ(r, m->n, (size_t)0, "clear handed back every element"); \
            }                                                                 \
            break;                                                            \
        default:                                                              \
            break;                                                            \
        }                                                                     \
        N##_searches(r, q, tc_below(&r->rng, r->keys + 1));                   \
    }                                                                         \
                                                                              \
    static void N##_run(const char *label, uint64_t seed, unsigned long ops,  \
                        uint64_t keys)                                        \
    {                                                                         \
        static struct dq_run run;                                             \
        struct dq_run *r = &run;                                              \
        memset(r, 0, sizeof(*r));                                             \
        r->label = label;                                                     \
        r->seed = seed;                                                       \
        r->keys = keys;                                                       \
        tc_rng_init(&r->rng, seed);                                           \
        for (unsigned id = 0; id < DQ_POOL; id++) {                           \
            r->pool[id].id = id;                                              \
            skiplist_hook_init(&r->pool[id].hook);                            \
        }                                                                     \
        struct N q;                                                           \
        cr_assert_eq(N##_init(&q, NULL, seed), 0);                            \
        for (r->step = 1; r->step <= ops; r->step++) {                        \
            N##_one_op(r, &q);                                                \
            if (r->step % 2048 == 0)                                          \
                N##_compare(r, &q);                                           \
        }                                                                     \
        N##_compare(r, &q);                                                   \
        N##_destroy(&q, NULL, NULL);                                          \
        fprintf(stderr,                                                       \
                "pq_diff %s: %lu ops, %" PRIu64 " keys, seed %" PRIu64        \
                ", 0 mismatches\n",                                           \
                label, ops, keys, seed);                                      \
    }

/* clear's callback: elements come back in queue order. */
static void dq_cleared_common(struct dq_item *e, void *arg)
{
    struct dq_model *m = (struct dq_model *)arg;
    cr_assert(m->n > 0 && m->v[0] == e, "clear: element %u out of order",
              e->id);
    dm_del(m, e);
}
#define dq_k1_cleared dq_cleared_common
#define dq_k3_cleared dq_cleared_common
#define dq_k256_cleared dq_cleared_common
#define dq_def_cleared dq_cleared_common

DQ_DRIVER(dq_k1)
DQ_DRIVER(dq_k3)
DQ_DRIVER(dq_k256)
DQ_DRIVER(dq_def)

/* Few keys: many equals. More keys than the pool: mostly distinct. */
#define DQ_CASES(N, label)                                            \
    Test(pq_diff, N##_fixed_seed)                                     \
    {                                                                 \
        N##_run(label " few keys", 20261204, tc_ops(60000), 24);      \
        N##_run(label " many keys", 20261205, tc_ops(60000), 100000); \
    }                                                                 \
    Test(pq_diff, N##_env_seed)                                       \
    {                                                                 \
        uint64_t s = tc_seed("pq_diff." #N);                          \
        N##_run(label " few keys", s, tc_ops(60000), 40);             \
        N##_run(label " many keys", s + 1, tc_ops(30000), 1u << 20);  \
    }

DQ_CASES(dq_k1, "k1_l1_p1")
DQ_CASES(dq_k3, "k3_l32_p4")
DQ_CASES(dq_k256, "k256_l24_p1")
DQ_CASES(dq_def, "defaults")

/* The cause of a unique insert that once missed a queued key: a queue's
 * sole leaf keeps no fresh copy of its first key in the head, and the
 * search read that copy. The engine's unique insert, run on a queue's
 * descriptor after pops moved the first key, must still see the key. */
Test(pq_diff, unique_search_reads_a_sole_leafs_own_first_key)
{
    struct dq_item v[3] = {
        {5, 0, {NULL, NULL}}, {7, 1, {NULL, NULL}}, {7, 2, {NULL, NULL}}};
    struct dq_def q;
    cr_assert_eq(dq_def_init(&q, NULL, 1), 0);
    cr_assert_eq(dq_def_push(&q, &v[0]), 0);
    cr_assert_eq(dq_def_push(&q, &v[1]), 0);
    cr_assert_eq(dq_def_pop(&q), &v[0]); /* first key 5 -> 7, head copy 5 */
    void *clash = NULL;
    cr_assert_eq(slx_insert_unique(&dq_def_slx_type, &q.sl, &v[2], &clash),
                 -EEXIST);
    cr_assert_eq(clash, &v[1]);
    v[0].key = 7; /* a stale copy equal to a key not queued: no clash */
    cr_assert_eq(dq_def_pop(&q), &v[1]);
    cr_assert_eq(dq_def_push(&q, &v[2]), 0); /* 7 queued, head copy stale */
    struct dq_item w = {6, 3, {NULL, NULL}};
    cr_assert_eq(slx_insert_unique(&dq_def_slx_type, &q.sl, &w, &clash), 0);
    char why[128];
    cr_assert_eq(dq_def_check(&q, why, sizeof why), 0, "%s", why);
    cr_assert_eq(dq_def_first(&q), &w);
    dq_def_destroy(&q, NULL, NULL);
}
