/* The pq suite's element and the interface each priority queue fills in.
 *
 * Every implementation queues the same pre-allocated elements (the key
 * lives in the element) and is driven through whole loops, one indirect
 * call per loop, so each structure's push/pop/remove is inlined into its own
 * loop as a user's code would have it. C++ loops live in the C++ object.
 *
 * The element carries every implementation's links, so all of them work on
 * elements of one size and cache footprint. Peers that do not keep equal
 * keys in FIFO order by themselves (heaps, trees) order by (key, seq), seq
 * being a per-queue push counter: the same answers as ours. */
#ifndef BENCH_PQ_IMPL_H
#define BENCH_PQ_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <bsd/sys/tree.h>

#include "skiplist.h"
#include "tests/bfs_replica.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pq_elem {
    uint64_t key;
    uint64_t seq;              /* FIFO tie-break for heaps and trees */
    uint32_t qid;              /* which queue of a batch it belongs to */
    uint32_t idx;              /* binheap: slot in the array */
    struct skiplist_hook hook; /* skiplist, skiplist_k1, skiplist_base */
    RB_ENTRY(pq_elem) rb;      /* rb_cached */
    struct bfs_node bfs;       /* bfs_list */
    void *ph;                  /* pairing_heap: the node handle */
};

struct pq_impl {
    const char *name;
    /* An empty queue that will hold up to cap elements. */
    void *(*create)(size_t cap);
    void (*destroy)(void *h);
    /* Bytes the structure holds for its n elements, links inside the
     * elements included; < 0 when unknown. */
    double (*bytes)(void *h, size_t n);
    /* Pushes e[i] into hs[e[i]->qid] for i < m; returns failures. */
    size_t (*push_all)(void **hs, struct pq_elem **e, size_t m);
    /* Removes e[i] (queued) from hs[e[i]->qid]; returns failures. */
    size_t (*remove_all)(void **hs, struct pq_elem **e, size_t m);
    /* The hold model, m times: pop the minimum, add inc[i % ninc] (ninc a
     * power of two) to its key, push it back. Returns the sum of the popped
     * keys, or 0 when a pop found the queue empty. */
    uint64_t (*hold)(void *h, const uint64_t *inc, size_t ninc, size_t m);
    /* Pops everything; writes the keys in pop order; returns the count. */
    size_t (*drain)(void *h, uint64_t *keys);
    /* The footprint op (docs/benchmark.md): bytes this one queue of n
     * elements costs: its head as a user would embed it, what it allocated,
     * and the fields it needs inside the elements (links, handle, the FIFO
     * seq of heaps and trees). No other queue of this implementation is
     * alive meanwhile. */
    double (*footprint)(void *h, size_t n);
    /* The footprint_rss op: builds count queues, queue i holding e[i]
     * alone, the heads in one array as a user embedding them would have
     * them; NULL on failure. Runs in a child process that exits without
     * freeing them. NULL when not measured. */
    void *(*many)(struct pq_elem *e, size_t count);
};

extern const struct pq_impl pq_impl_skiplist;
extern const struct pq_impl pq_impl_skiplist_k1;
extern const struct pq_impl pq_impl_bfs_list;
extern const struct pq_impl pq_impl_binheap;
extern const struct pq_impl pq_impl_pairing_heap;
extern const struct pq_impl pq_impl_rb_cached;
/* An earlier skiplist.h (bench/pq_base.c), linked in only with BENCH_BASE
 * (bench/bench.mk); the driver lists it under BENCH_BASE_ROW. The element
 * there embeds that header's struct skiplist_hook: pq_elem_size_base is its
 * sizeof(struct pq_elem), which must equal this one's. */
extern const struct pq_impl pq_impl_skiplist_base;
extern const size_t pq_elem_size_base;

/* Generates push_all, remove_all, hold and drain for an adapter P that
 * defines P_push(h, e) (0 on success), P_pop(h) (NULL when empty) and
 * P_remove(h, e) (0 on success), each static inline. C only. */
#define PQ_LOOPS(P)                                                       \
    static size_t P##_push_all(void **hs, struct pq_elem **e, size_t m)   \
    {                                                                     \
        size_t failed = 0;                                                \
        for (size_t i = 0; i < m; i++)                                    \
            failed += P##_push(hs[e[i]->qid], e[i]) != 0;                 \
        return failed;                                                    \
    }                                                                     \
    static size_t P##_remove_all(void **hs, struct pq_elem **e, size_t m) \
    {                                                                     \
        size_t failed = 0;                                                \
        for (size_t i = 0; i < m; i++)                                    \
            failed += P##_remove(hs[e[i]->qid], e[i]) != 0;               \
        return failed;                                                    \
    }                                                                     \
    static uint64_t P##_hold(void *h, const uint64_t *inc, size_t ninc,   \
                             size_t m)                                    \
    {                                                                     \
        uint64_t sum = 0;                                                 \
        for (size_t i = 0; i < m; i++) {                                  \
            struct pq_elem *e = P##_pop(h);                               \
            if (!e)                                                       \
                return 0;                                                 \
            sum += e->key;                                                \
            e->key += inc[i & (ninc - 1)];                                \
            if (P##_push(h, e))                                           \
                return 0;                                                 \
        }                                                                 \
        return sum;                                                       \
    }                                                                     \
    static size_t P##_drain(void *h, uint64_t *keys)                      \
    {                                                                     \
        size_t n = 0;                                                     \
        for (struct pq_elem * e; (e = P##_pop(h)) != NULL;)               \
            keys[n++] = e->key;                                           \
        return n;                                                         \
    }

#ifdef __cplusplus
}
#endif
#endif
