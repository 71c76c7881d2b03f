/* rb_cached: libbsd's <bsd/sys/tree.h> red-black tree with a cached
 * leftmost node, as Linux CFS keeps its runqueue (rb_root_cached): the
 * minimum is O(1), insertion O(log n), removal of a known node O(log n)
 * rebalancing with no search. Ordered by (key, seq): FIFO among equals. */
#include <stdlib.h>

/* RB_GENERATE_STATIC marks its functions __unused, a BSD spelling glibc
 * does not define. */
#define __unused __attribute__((unused))
#include "bench/pq_impl.h"

static inline int rbc_cmp(const struct pq_elem *a, const struct pq_elem *b)
{
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

RB_HEAD(pq_rbt, pq_elem);
RB_GENERATE_STATIC(pq_rbt, pq_elem, rb, rbc_cmp)

struct rb_cached {
    struct pq_rbt root;
    struct pq_elem *leftmost;
    uint64_t seq;
};

static void *rbc_create(size_t cap)
{
    (void)cap;
    struct rb_cached *q = (struct rb_cached *)malloc(sizeof(*q));
    if (q) {
        RB_INIT(&q->root);
        q->leftmost = NULL;
        q->seq = 0;
    }
    return q;
}

static void rbc_destroy(void *h)
{
    free(h);
}

/* The links inside each element, the seq, and the head. */
static double rbc_bytes(void *h, size_t n)
{
    (void)h;
    return (double)sizeof(struct rb_cached) +
           (double)(n * (sizeof(((struct pq_elem *)0)->rb) + sizeof(uint64_t)));
}

static inline int rbc_push(void *h, struct pq_elem *e)
{
    struct rb_cached *q = (struct rb_cached *)h;
    e->seq = ++q->seq;
    if (RB_INSERT(pq_rbt, &q->root, e))
        return -1;
    /* A new equal key has the largest seq: it never becomes leftmost. */
    if (!q->leftmost || e->key < q->leftmost->key)
        q->leftmost = e;
    return 0;
}

static inline struct pq_elem *rbc_pop(void *h)
{
    struct rb_cached *q = (struct rb_cached *)h;
    struct pq_elem *e = q->leftmost;
    if (!e)
        return NULL;
    q->leftmost = RB_NEXT(pq_rbt, &q->root, e);
    RB_REMOVE(pq_rbt, &q->root, e);
    return e;
}

static inline int rbc_remove(void *h, struct pq_elem *e)
{
    struct rb_cached *q = (struct rb_cached *)h;
    if (e == q->leftmost)
        q->leftmost = RB_NEXT(pq_rbt, &q->root, e);
    RB_REMOVE(pq_rbt, &q->root, e);
    return 0;
}

/* bytes() already counts the head. */
static double rbc_footprint(void *h, size_t n)
{
    return rbc_bytes(h, n);
}

static void *rbc_many(struct pq_elem *e, size_t count)
{
    struct rb_cached *a = (struct rb_cached *)malloc(count * sizeof(*a));
    for (size_t i = 0; a && i < count; i++) {
        RB_INIT(&a[i].root);
        a[i].leftmost = NULL;
        a[i].seq = 0;
        if (rbc_push(&a[i], &e[i]) != 0)
            return NULL; /* the child exits: nothing to free */
    }
    return a;
}

PQ_LOOPS(rbc)

const struct pq_impl pq_impl_rb_cached = {
    "rb_cached",    rbc_create, rbc_destroy, rbc_bytes,     rbc_push_all,
    rbc_remove_all, rbc_hold,   rbc_drain,   rbc_footprint, rbc_many};
