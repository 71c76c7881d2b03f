/*
 * Bad input on the priority queue (SKIPLIST_PQ_DEFINE), the rows of
 * docs/errors.md for the queue face: NULL elements, an element already
 * queued, hooks never initialised (stack garbage) or zeroed, an element
 * popped, removed or cleared out, init with half an allocator, empty
 * queues, keys at the type's limits.
 *
 * Each row runs on two queues: one leaf (KPN 64, the small-queue fast
 * paths) and many leaves with an index (KPN 4). A refused call must
 * return its exact code and leave the queue as it was: check(), count,
 * the elements in order, every element's queued_in(), no allocator call.
 * Every test ends with zero live blocks. Elements queued in another queue
 * are pq::remove_through_other_queue_refused's; allocation failure is
 * pq::alloc_failure_sweep's.
 */
#include <criterion/criterion.h>

#include "test_common.h"

struct bq_item {
    uint64_t key;
    struct skiplist_hook hook;
};

#define BQ_KEY(e) ((e)->key)

SKIPLIST_PQ_DEFINE(bq_one, struct bq_item, uint64_t, BQ_KEY, SKIPLIST_CMP_NUM,
                   hook, SKIPLIST_PQ_DEFAULTS)
SKIPLIST_PQ_DEFINE(bq_many, struct bq_item, uint64_t, BQ_KEY, SKIPLIST_CMP_NUM,
                   hook, 4, 8, 1)

/* One interface over both instantiations, so each row is written once. */
struct bq_ops {
    const char *label;
    int (*init)(void *q, const struct skiplist_allocator *a, uint64_t seed);
    void (*destroy)(void *q);
    void (*clear)(void *q);
    int (*push)(void *q, struct bq_item *e);
    int (*remove)(void *q, struct bq_item *e);
    int (*requeue)(void *q, struct bq_item *e);
    struct bq_item *(*pop)(void *q);
    struct bq_item *(*peek)(const void *q);
    bool (*queued)(const struct bq_item *e);
    bool (*queued_in)(const void *q, const struct bq_item *e);
    size_t (*count)(const void *q);
    size_t (*bytes)(const void *q);
    int (*check)(const void *q, char *why, size_t len);
    struct bq_item *(*iter_first)(void *it, const void *q);
    struct bq_item *(*iter_next)(void *it);
};

#define BQ_OPS(N, LABEL)                                                   \
    static int N##_b_init(void *q, const struct skiplist_allocator *a,     \
                          uint64_t seed)                                   \
    {                                                                      \
        return N##_init((struct N *)q, a, seed);                           \
    }                                                                      \
    static void N##_b_destroy(void *q)                                     \
    {                                                                      \
        N##_destroy((struct N *)q, NULL, NULL);                            \
    }                                                                      \
    static void N##_b_clear(void *q)                                       \
    {                                                                      \
        N##_clear((struct N *)q, NULL, NULL);                              \
    }                                                                      \
    static int N##_b_push(void *q, struct bq_item *e)                      \
    {                                                                      \
        return N##_push((struct N *)q, e);                                 \
    }                                                                      \
    static int N##_b_remove(void *q, struct bq_item *e)                    \
    {                                                                      \
        return N##_remove((struct N *)q, e);                               \
    }                                                                      \
    static int N##_b_requeue(void *q, struct bq_item *e)                   \
    {                                                                      \
        return N##_requeue((struct N *)q, e);                              \
    }                                                                      \
    static struct bq_item *N##_b_pop(void *q)                              \
    {                                                                      \
        return N##_pop((struct N *)q);                                     \
    }                                                                      \
    static struct bq_item *N##_b_peek(const void *q)                       \
    {                                                                      \
        return N##_peek((const struct N *)q);                              \
    }                                                                      \
    static bool N##_b_queued(const struct bq_item *e)                      \
    {                                                                      \
        return N##_queued(e);                                              \
    }                                                                      \
    static bool N##_b_queued_in(const void *q, const struct bq_item *e)    \
    {                                                                      \
        return N##_queued_in((const struct N *)q, e);                      \
    }                                                                      \
    static size_t N##_b_count(const void *q)                               \
    {                                                                      \
        return N##_count((const struct N *)q);                             \
    }                                                                      \
    static size_t N##_b_bytes(const void *q)                               \
    {                                                                      \
        return N##_bytes((const struct N *)q);                             \
    }                                                                      \
    static int N##_b_check(const void *q, char *why, size_t len)           \
    {                                                                      \
        return N##_check((const struct N *)q, why, len);                   \
    }                                                                      \
    static struct bq_item *N##_b_iter_first(void *it, const void *q)       \
    {                                                                      \
        return N##_iter_first((struct N##_iter *)it, (const struct N *)q); \
    }                                                                      \
    static struct bq_item *N##_b_iter_next(void *it)                       \
    {                                                                      \
        return N##_iter_next((struct N##_iter *)it);                       \
    }                                                                      \
    static const struct bq_ops N##_ops = {                                 \
        LABEL,       N##_b_init,   N##_b_destroy,    N##_b_clear,          \
        N##_b_push,  N##_b_remove, N##_b_requeue,    N##_b_pop,            \
        N##_b_peek,  N##_b_queued, N##_b_queued_in,  N##_b_count,          \
        N##_b_bytes, N##_b_check,  N##_b_iter_first, N##_b_iter_next}

BQ_OPS(bq_one, "one leaf");
BQ_OPS(bq_many, "kpn 4");

static const struct bq_ops *const bq_all[] = {&bq_one_ops, &bq_many_ops};
#define BQ_NOPS (sizeof bq_all / sizeof bq_all[0])

enum { NQ = 12, NMANY = 60, NPOOL = 64 };

/* A queue of n elements (keys with repeats, so FIFO order matters) and
 * NPOOL - n elements never pushed, with zeroed hooks. */
struct bq_fx {
    const struct bq_ops *o;
    union {
        struct bq_one one;
        struct bq_many many;
    } q;
    struct tc_alloc ta;
    struct bq_item v[NPOOL];
    size_t n;
    /* the snapshot a refused call is compared with */
    struct bq_item *order[NPOOL];
    bool in[NPOOL];
    size_t count, bytes;
    unsigned long calls;
};

static void bq_open(struct bq_fx *f, const struct bq_ops *o, size_t n)
{
    memset(f, 0, sizeof *f);
    f->o = o;
    f->n = n;
    tc_alloc_init(&f->ta);
    cr_assert_eq(o->init(&f->q, &f->ta.iface, 5), 0);
    for (size_t i = 0; i < NPOOL; i++)
        f->v[i].key = 1 + (uint64_t)(i * 7 % 13); /* never 0 */
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(o->push(&f->q, &f->v[i]), 0);
}

static void bq_snap(struct bq_fx *f)
{
    union {
        struct bq_one_iter a;
        struct bq_many_iter b;
    } it;
    size_t k = 0;
    for (struct bq_item *e = f->o->iter_first(&it, &f->q); e;
         e = f->o->iter_next(&it)) {
        cr_assert_lt(k, NPOOL);
        f->order[k++] = e;
    }
    f->count = f->o->count(&f->q);
    cr_assert_eq(k, f->count);
    f->bytes = f->o->bytes(&f->q);
    f->calls = f->ta.calls;
    for (size_t i = 0; i < NPOOL; i++)
        f->in[i] = f->o->queued_in(&f->q, &f->v[i]);
}

/* The queue holds what bq_snap() saw, in that order; when strict, its
 * memory too (a refused call allocates and frees nothing). */
static void bq_same_as(struct bq_fx *f, const char *what, bool strict)
{
    char why[256] = "";
    const char *l = f->o->label;
    cr_assert_eq(f->o->check(&f->q, why, sizeof why), 0, "[%s] %s: check: %s",
                 l, what, why);
    cr_assert_eq(f->o->count(&f->q), f->count, "[%s] %s: count", l, what);
    cr_assert(!strict || f->o->bytes(&f->q) == f->bytes, "[%s] %s: bytes", l,
              what);
    cr_assert(!strict || f->ta.calls == f->calls, "[%s] %s: allocated", l,
              what);
    union {
        struct bq_one_iter a;
        struct bq_many_iter b;
    } it;
    size_t k = 0;
    for (struct bq_item *e = f->o->iter_first(&it, &f->q); e;
         e = f->o->iter_next(&it), k++)
        cr_assert(k < f->count && e == f->order[k],
                  "[%s] %s: element %zu moved", l, what, k);
    cr_assert_eq(k, f->count, "[%s] %s: length", l, what);
    for (size_t i = 0; i < NPOOL; i++)
        cr_assert_eq(f->o->queued_in(&f->q, &f->v[i]), f->in[i],
                     "[%s] %s: queued_in(%zu) changed", l, what, i);
}

static void bq_same(struct bq_fx *f, const char *what)
{
    bq_same_as(f, what, true);
}

static void bq_close(struct bq_fx *f)
{
    f->o->destroy(&f->q);
    cr_assert_eq(f->ta.live, 0, "[%s] %ld blocks leaked", f->o->label,
                 f->ta.live);
    cr_assert_eq(f->ta.bad_frees, 0);
}

/* Runs body once per configuration and per size, on a fresh fixture
 * named f, snapshot taken. */
#define BQ_EACH(f)                                 \
    for (size_t oi_ = 0; oi_ < BQ_NOPS * 2; oi_++) \
        for (struct bq_fx *f = bq_fx_at(oi_); f; bq_close(f), f = NULL)

static struct bq_fx the_fx;

static struct bq_fx *bq_fx_at(size_t i)
{
    bq_open(&the_fx, bq_all[i / 2], i % 2 ? NMANY : NQ);
    bq_snap(&the_fx);
    return &the_fx;
}

/* The call, its code, and the queue unchanged; then once more. */
#define BQ_REFUSED(f, call, want)                                    \
    do {                                                             \
        for (int again_ = 0; again_ < 2; again_++) {                 \
            int rc_ = (call);                                        \
            cr_assert_eq(rc_, (want), "[%s n=%zu] %s = %d, want %s", \
                         (f)->o->label, (f)->n, #call, rc_, #want);  \
            bq_same((f), #call);                                     \
        }                                                            \
    } while (0)

Test(bad_pq, push_null)
{
    BQ_EACH(f)
    {
        BQ_REFUSED(f, f->o->push(&f->q, NULL), -EINVAL);
    }
}

Test(bad_pq, remove_null)
{
    BQ_EACH(f)
    {
        BQ_REFUSED(f, f->o->remove(&f->q, NULL), -EINVAL);
    }
}

Test(bad_pq, requeue_null)
{
    BQ_EACH(f)
    {
        BQ_REFUSED(f, f->o->requeue(&f->q, NULL), -EINVAL);
    }
}

/* A second push of a queued element: -EEXIST, and it keeps its place
 * among its equals (first, middle and last element of the queue). */
Test(bad_pq, push_already_queued)
{
    BQ_EACH(f)
    {
        struct bq_item *first = f->order[0], *mid = f->order[f->n / 2],
                       *last = f->order[f->n - 1];
        BQ_REFUSED(f, f->o->push(&f->q, first), -EEXIST);
        BQ_REFUSED(f, f->o->push(&f->q, mid), -EEXIST);
        BQ_REFUSED(f, f->o->push(&f->q, last), -EEXIST);
    }
}

/* Never pushed, hook zeroed (skiplist_hook_init): not queued here. */
Test(bad_pq, remove_never_queued)
{
    BQ_EACH(f)
    {
        struct bq_item *e = &f->v[NPOOL - 1];
        skiplist_hook_init(&e->hook);
        cr_assert(!f->o->queued(e));
        BQ_REFUSED(f, f->o->remove(&f->q, e), -ENOENT);
        BQ_REFUSED(f, f->o->requeue(&f->q, e), -ENOENT);
    }
}

/* A hook never initialised: garbage that names no queue of ours. remove
 * and requeue refuse it without following its pointers (they are not
 * valid memory); push takes it, since a new element needs no zeroing. */
Test(bad_pq, uninitialised_hook)
{
    BQ_EACH(f)
    {
        struct bq_item *e = &f->v[NPOOL - 1];
        memset(&e->hook, 0xa5, sizeof e->hook);
        e->key = 6;
        BQ_REFUSED(f, f->o->remove(&f->q, e), -ENOENT);
        BQ_REFUSED(f, f->o->requeue(&f->q, e), -ENOENT);
        cr_assert_eq(f->o->push(&f->q, e), 0);
        cr_assert(f->o->queued_in(&f->q, e));
        cr_assert_eq(f->o->count(&f->q), f->count + 1);
        char why[256] = "";
        cr_assert_eq(f->o->check(&f->q, why, sizeof why), 0, "%s", why);
        cr_assert_eq(f->o->remove(&f->q, e), 0);
        /* A push may split a leaf that the remove leaves split. */
        bq_same_as(f, "push then remove of a garbage-hooked element", false);
    }
}

/* Popped, or removed once: the hook says so, and a second removal or a
 * requeue is -ENOENT. */
Test(bad_pq, remove_after_pop_or_remove)
{
    BQ_EACH(f)
    {
        struct bq_item *p = f->o->pop(&f->q);
        cr_assert_eq(p, f->order[0]);
        struct bq_item *r = f->order[f->n / 2];
        cr_assert_eq(f->o->remove(&f->q, r), 0);
        cr_assert(!f->o->queued(p) && !f->o->queued(r));
        bq_snap(f);
        BQ_REFUSED(f, f->o->remove(&f->q, p), -ENOENT);
        BQ_REFUSED(f, f->o->requeue(&f->q, p), -ENOENT);
        BQ_REFUSED(f, f->o->remove(&f->q, r), -ENOENT);
        BQ_REFUSED(f, f->o->requeue(&f->q, r), -ENOENT);
    }
}

/* clear() unhooks every element it drops: afterwards none is queued, and
 * remove and requeue of any of them are -ENOENT on the emptied queue. Not
 * written in api.md (see docs/errors.md). */
Test(bad_pq, remove_after_clear)
{
    BQ_EACH(f)
    {
        f->o->clear(&f->q);
        bq_snap(f);
        cr_assert_eq(f->count, 0);
        for (size_t i = 0; i < f->n; i++) {
            cr_assert(!f->o->queued(&f->v[i]), "element %zu still queued", i);
            BQ_REFUSED(f, f->o->remove(&f->q, &f->v[i]), -ENOENT);
            BQ_REFUSED(f, f->o->requeue(&f->q, &f->v[i]), -ENOENT);
        }
    }
}

/* An element queued elsewhere: push does not detect it (api.md says so);
 * the documented guard is queued_in(other, e), which this checks, so a
 * caller can refuse the push itself. Removing it through this queue is
 * refused (pq::remove_through_other_queue_refused has the full row). */
Test(bad_pq, queued_elsewhere_guard)
{
    for (size_t oi = 0; oi < BQ_NOPS; oi++) {
        const struct bq_ops *o = bq_all[oi];
        struct bq_fx *f = &the_fx;
        bq_open(f, o, NQ);
        union {
            struct bq_one one;
            struct bq_many many;
        } other;
        struct bq_item x = {3, {NULL, NULL}};
        cr_assert_eq(o->init(&other, NULL, 8), 0);
        cr_assert_eq(o->push(&other, &x), 0);
        bq_snap(f);
        cr_assert(o->queued(&x));
        cr_assert(o->queued_in(&other, &x));
        cr_assert(!o->queued_in(&f->q, &x),
                  "[%s] queued_in names the wrong "
                  "queue",
                  o->label);
        BQ_REFUSED(f, o->remove(&f->q, &x), -ENOENT);
        BQ_REFUSED(f, o->requeue(&f->q, &x), -ENOENT);
        cr_assert_eq(o->count(&other), 1);
        cr_assert_eq(o->pop(&other), &x);
        o->destroy(&other);
        bq_close(f);
    }
    cr_assert(tc_no_leaks());
}

/* An allocator missing a function: -EINVAL before any allocation. */
Test(bad_pq, init_half_allocator)
{
    for (size_t oi = 0; oi < BQ_NOPS; oi++) {
        struct tc_alloc ta;
        tc_alloc_init(&ta);
        const struct skiplist_allocator bad[] = {
            {tc_alloc_cb, NULL, &ta},
            {NULL, tc_free_cb, &ta},
        };
        union {
            struct bq_one one;
            struct bq_many many;
        } q;
        for (size_t i = 0; i < 2; i++)
            cr_assert_eq(bq_all[oi]->init(&q, &bad[i], 1), -EINVAL);
        cr_assert_eq(ta.calls, 0);
    }
}

/* An empty queue: peek and pop are NULL, removal -ENOENT, and the queue
 * stays empty and usable. */
Test(bad_pq, empty_queue)
{
    for (size_t oi = 0; oi < BQ_NOPS; oi++) {
        struct bq_fx *f = &the_fx;
        bq_open(f, bq_all[oi], 0);
        bq_snap(f);
        cr_assert_null(f->o->peek(&f->q));
        cr_assert_null(f->o->pop(&f->q));
        bq_same(f, "pop of an empty queue");
        BQ_REFUSED(f, f->o->remove(&f->q, &f->v[0]), -ENOENT);
        BQ_REFUSED(f, f->o->requeue(&f->q, &f->v[0]), -ENOENT);
        cr_assert_eq(f->o->push(&f->q, &f->v[0]), 0);
        cr_assert_eq(f->o->pop(&f->q), &f->v[0]);
        bq_close(f);
    }
}

/* Keys 0 and UINT64_MAX are ordinary priorities: 0 first, UINT64_MAX
 * last, FIFO among equals at both ends; requeue to and from either end. */
Test(bad_pq, keys_at_limits)
{
    BQ_EACH(f)
    {
        struct bq_item *lo1 = &f->v[NPOOL - 4], *lo2 = &f->v[NPOOL - 3],
                       *hi1 = &f->v[NPOOL - 2], *hi2 = &f->v[NPOOL - 1];
        lo1->key = lo2->key = 0;
        hi1->key = hi2->key = UINT64_MAX;
        cr_assert_eq(f->o->push(&f->q, hi1), 0);
        cr_assert_eq(f->o->push(&f->q, lo1), 0);
        cr_assert_eq(f->o->push(&f->q, hi2), 0);
        cr_assert_eq(f->o->push(&f->q, lo2), 0);
        cr_assert_eq(f->o->peek(&f->q), lo1);
        /* Swap the ends of the two first comers: each goes behind its
         * new equals. */
        lo1->key = UINT64_MAX;
        cr_assert_eq(f->o->requeue(&f->q, lo1), 0);
        hi1->key = 0;
        cr_assert_eq(f->o->requeue(&f->q, hi1), 0);
        char why[256] = "";
        cr_assert_eq(f->o->check(&f->q, why, sizeof why), 0, "%s", why);
        cr_assert_eq(f->o->pop(&f->q), lo2);
        cr_assert_eq(f->o->pop(&f->q), hi1);
        struct bq_item *e, *prev = NULL;
        size_t left = 0;
        while ((e = f->o->pop(&f->q)) != NULL) {
            cr_assert(!prev || prev->key <= e->key, "[%s] order", f->o->label);
            prev = e;
            left++;
        }
        cr_assert_eq(left, f->n + 2);
        cr_assert(prev == lo1, "[%s] the last requeued UINT64_MAX is not last",
                  f->o->label);
    }
}
