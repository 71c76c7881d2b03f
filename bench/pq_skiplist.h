/* The pq suite's adapter for skiplist.h's priority-queue face, shared by
 * bench/pq_skiplist.c (the current skiplist.h) and bench/pq_base.c (an
 * earlier skiplist.h, BENCH_BASE in bench/bench.mk), so that both rows run
 * the very same adapter code. It uses the public API only (name_init,
 * name_push, name_bytes, ...) and sizeof the head, never its fields, so it
 * compiles against either version of the header: whichever "skiplist.h" the
 * including translation unit finds first on its include path. */
#ifndef BENCH_PQ_SKIPLIST_H
#define BENCH_PQ_SKIPLIST_H

#include <stdlib.h>

#include "bench/pq_impl.h"

#define PQ_ELEM_KEY(e) ((e)->key)

/* Level seed: fixed, so a run's shape is the same every time. */
#define PQ_SL_SEED 0x5eedull

/* The adapter for one instantiation P of SKIPLIST_PQ_DEFINE over struct
 * pq_elem: defines const struct pq_impl IMPL, whose row is named NAME. */
#define PQ_SKIPLIST_ADAPTER(P, IMPL, NAME)                                   \
    static void *P##_a_create(size_t cap)                                    \
    {                                                                        \
        (void)cap;                                                           \
        struct P *q = (struct P *)malloc(sizeof(*q));                        \
        if (q && P##_init(q, NULL, PQ_SL_SEED)) {                            \
            free(q);                                                         \
            q = NULL;                                                        \
        }                                                                    \
        return q;                                                            \
    }                                                                        \
    static void P##_a_destroy(void *h)                                       \
    {                                                                        \
        P##_destroy((struct P *)h, NULL, NULL);                              \
        free(h);                                                             \
    }                                                                        \
    /* Nodes and pool from the engine's accounting, plus the hooks. */       \
    static double P##_a_bytes(void *h, size_t n)                             \
    {                                                                        \
        return (double)P##_bytes((struct P *)h) +                            \
               (double)(n * sizeof(struct skiplist_hook));                   \
    }                                                                        \
    /* The head as a user embeds it, the engine's bytes, the hooks. */       \
    static double P##_a_footprint(void *h, size_t n)                         \
    {                                                                        \
        return (double)sizeof(struct P) + P##_a_bytes(h, n);                 \
    }                                                                        \
    static void *P##_a_many(struct pq_elem *e, size_t count)                 \
    {                                                                        \
        struct P *a = (struct P *)malloc(count * sizeof(*a));                \
        for (size_t i = 0; a && i < count; i++)                              \
            if (P##_init(&a[i], NULL, PQ_SL_SEED) || P##_push(&a[i], &e[i])) \
                return NULL; /* the child exits: nothing to free */          \
        return a;                                                            \
    }                                                                        \
    static inline int P##_a_push(void *h, struct pq_elem *e)                 \
    {                                                                        \
        return P##_push((struct P *)h, e);                                   \
    }                                                                        \
    static inline struct pq_elem *P##_a_pop(void *h)                         \
    {                                                                        \
        return P##_pop((struct P *)h);                                       \
    }                                                                        \
    static inline int P##_a_remove(void *h, struct pq_elem *e)               \
    {                                                                        \
        return P##_remove((struct P *)h, e);                                 \
    }                                                                        \
    PQ_LOOPS(P##_a)                                                          \
    const struct pq_impl IMPL = {                                            \
        NAME,        P##_a_create,   P##_a_destroy,                          \
        P##_a_bytes, P##_a_push_all, P##_a_remove_all,                       \
        P##_a_hold,  P##_a_drain,    P##_a_footprint,                        \
        P##_a_many};

#endif
