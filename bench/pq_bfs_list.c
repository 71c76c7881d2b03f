/* bfs_list: BFS's global runqueue before skiplists, the very code the tests
 * use as their oracle (tests/bfs_replica.h): one list per priority and a
 * bitmap; push appends to the tail of the list, O(1); remove unlinks, O(1);
 * the minimum is an O(n) earliest-deadline scan of the first non-empty
 * list. Every element is a NORMAL task keyed by its deadline, the case the
 * scan was written for. */
#include <stdlib.h>

#include "bench/pq_impl.h"

static void *bfs_a_create(size_t cap)
{
    (void)cap;
    struct bfs_queue *q = (struct bfs_queue *)malloc(sizeof(*q));
    if (q)
        bfs_queue_init(q);
    return q;
}

static void bfs_a_destroy(void *h)
{
    free(h);
}

/* The list heads and bitmap, plus each element's node. */
static double bfs_a_bytes(void *h, size_t n)
{
    (void)h;
    return (double)sizeof(struct bfs_queue) +
           (double)(n * sizeof(struct bfs_node));
}

/* bytes() already counts the head. No footprint_rss: a 1.6 KiB runqueue
 * head per list is what the footprint rows show already. */
static double bfs_a_footprint(void *h, size_t n)
{
    return bfs_a_bytes(h, n);
}

static inline int bfs_a_push(void *h, struct pq_elem *e)
{
    e->bfs.deadline = e->key;
    bfs_queue_add_tail((struct bfs_queue *)h, &e->bfs, BFS_NORMAL_PRIO);
    return 0;
}

static inline struct pq_elem *bfs_a_of(struct bfs_node *n)
{
    return (struct pq_elem *)(void *)((char *)n -
                                      offsetof(struct pq_elem, bfs));
}

static inline struct pq_elem *bfs_a_pop(void *h)
{
    struct bfs_queue *q = (struct bfs_queue *)h;
    struct bfs_node *n = bfs_queue_first(q);
    if (!n)
        return NULL;
    bfs_queue_del(q, n);
    return bfs_a_of(n);
}

static inline int bfs_a_remove(void *h, struct pq_elem *e)
{
    bfs_queue_del((struct bfs_queue *)h, &e->bfs);
    return 0;
}

PQ_LOOPS(bfs_a)

const struct pq_impl pq_impl_bfs_list = {"bfs_list",      bfs_a_create,
                                         bfs_a_destroy,   bfs_a_bytes,
                                         bfs_a_push_all,  bfs_a_remove_all,
                                         bfs_a_hold,      bfs_a_drain,
                                         bfs_a_footprint, NULL};
