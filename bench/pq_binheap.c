/* binheap: an array binary min-heap with index handles (each element keeps
 * its slot, so removing a known element is a sift from that slot, no
 * search), ordered by (key, seq) so equal keys leave in FIFO order. The
 * array is sized for the queue's capacity up front, as a kernel would. */
#include <stdlib.h>

#include "bench/pq_impl.h"

struct binheap {
    struct pq_elem **a;
    size_t n, cap;
    uint64_t seq;
};

static inline int bh_less(const struct pq_elem *x, const struct pq_elem *y)
{
    return x->key < y->key || (x->key == y->key && x->seq < y->seq);
}

static inline void bh_set(struct binheap *h, size_t i, struct pq_elem *e)
{
    h->a[i] = e;
    e->idx = (uint32_t)i;
}

static inline void bh_up(struct binheap *h, size_t i, struct pq_elem *e)
{
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!bh_less(e, h->a[p]))
            break;
        bh_set(h, i, h->a[p]);
        i = p;
    }
    bh_set(h, i, e);
}

static inline void bh_down(struct binheap *h, size_t i, struct pq_elem *e)
{
    size_t n = h->n;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && bh_less(h->a[c + 1], h->a[c]))
            c++;
        if (!bh_less(h->a[c], e))
            break;
        bh_set(h, i, h->a[c]);
        i = c;
    }
    bh_set(h, i, e);
}

static void *bh_create(size_t cap)
{
    struct binheap *h = (struct binheap *)calloc(1, sizeof(*h));
    if (!h)
        return NULL;
    h->cap = cap ? cap : 1;
    h->a = (struct pq_elem **)malloc(h->cap * sizeof(*h->a));
    if (!h->a) {
        free(h);
        return NULL;
    }
    return h;
}

static void bh_destroy(void *p)
{
    struct binheap *h = (struct binheap *)p;
    free(h->a);
    free(h);
}

/* The array (at capacity) plus the slot index in each element. */
static double bh_bytes(void *p, size_t n)
{
    const struct binheap *h = (const struct binheap *)p;
    return (double)(sizeof(*h) + h->cap * sizeof(h->a[0]) +
                    n * sizeof(uint32_t) + n * sizeof(uint64_t));
}

static inline int bh_push(void *p, struct pq_elem *e)
{
    struct binheap *h = (struct binheap *)p;
    if (h->n == h->cap)
        return -1;
    e->seq = ++h->seq;
    bh_up(h, h->n++, e);
    return 0;
}

static inline struct pq_elem *bh_pop(void *p)
{
    struct binheap *h = (struct binheap *)p;
    if (!h->n)
        return NULL;
    struct pq_elem *top = h->a[0];
    struct pq_elem *last = h->a[--h->n];
    if (h->n)
        bh_down(h, 0, last);
    return top;
}

static inline int bh_remove(void *p, struct pq_elem *e)
{
    struct binheap *h = (struct binheap *)p;
    size_t i = e->idx;
    if (i >= h->n || h->a[i] != e)
        return -1;
    struct pq_elem *last = h->a[--h->n];
    if (last == e)
        return 0;
    if (i > 0 && bh_less(last, h->a[(i - 1) / 2]))
        bh_up(h, i, last);
    else
        bh_down(h, i, last);
    return 0;
}

/* bytes() already counts the head. */
static double bh_footprint(void *p, size_t n)
{
    return bh_bytes(p, n);
}

/* Heads in one array; each queue's slot array (one slot) is its own. */
static void *bh_many(struct pq_elem *e, size_t count)
{
    struct binheap *a = (struct binheap *)calloc(count, sizeof(*a));
    for (size_t i = 0; a && i < count; i++) {
        a[i].cap = 1;
        a[i].a = (struct pq_elem **)malloc(sizeof(*a[i].a));
        if (!a[i].a || bh_push(&a[i], &e[i]) != 0)
            return NULL; /* the child exits: nothing to free */
    }
    return a;
}

PQ_LOOPS(bh)

const struct pq_impl pq_impl_binheap = {
    "binheap",     bh_create, bh_destroy, bh_bytes,     bh_push_all,
    bh_remove_all, bh_hold,   bh_drain,   bh_footprint, bh_many};
