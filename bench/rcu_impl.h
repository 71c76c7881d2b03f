/* The rcu suite's element and the interface each implementation fills in
 * (bench/suite_rcu.c drives them; docs/benchmark.md describes the suite).
 *
 * Every implementation indexes elements the bench allocates (one slab per
 * implementation) and hands back element pointers. Lookups return the
 * element without the bench reading it, as in the map suite: the loops
 * time the structure, not misses on the user's data.
 *
 * Thread rules, the same for all: create() and destroy() run on the main
 * thread and register it with the implementation's RCU (or nothing, for
 * the locked trees) for the structure's lifetime; every worker thread calls
 * thread_enter() before its first operation and thread_leave() after its
 * last. Every operation takes its own read-side section or lock: one per
 * lookup, never one around a batch of lookups, for every implementation.
 *
 * Two faces. The map face (create .. report) indexes elements by key. The
 * extent face (ext_*, the mason op) indexes elements as extents [key, key +
 * size), in a structure of its own; it shares thread_enter, thread_leave
 * and settle with the map face. */
#ifndef BENCH_RCU_IMPL_H
#define BENCH_RCU_IMPL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Complete only in C (below): the C++ adapter stores element pointers and
 * never looks inside one, and liburcu's headers stay out of C++. */
struct rcu_elem;

struct rcu_impl {
    const char *name;
    /* Bytes per element that the structure keeps inside the element (the
     * intrusive links); what it allocates itself the driver measures. */
    size_t link_bytes;
    void *(*create)(size_t n);
    void (*destroy)(void *h);
    void (*thread_enter)(void *h);
    void (*thread_leave)(void *h);
    /* Quiescent: no worker runs. */
    size_t (*count)(void *h);
    /* Frees what the structure itself retired and has not freed yet, so
     * that allocator accounting sees its steady size; NULL: nothing. */
    void (*settle)(void *h);
    /* The element with key, or NULL. */
    struct rcu_elem *(*find)(void *h, uint64_t key);
    /* Sum of the addresses find returns for q[0..m): the read loop,
     * written next to the structure so its lookup inlines into it. */
    uint64_t (*find_all)(void *h, const uint64_t *q, size_t m);
    /* Inserts e, whose key field already holds key: 0, or -1 when the key
     * is present (a bench bug) or memory ran out. */
    int (*insert)(void *h, uint64_t key, struct rcu_elem *e);
    /* Removes the element with key and returns it, or NULL. NULL where
     * the structure has no erase that may run beside other operations
     * (tbb_map): it then runs no op that erases, and has erase_all. */
    struct rcu_elem *(*erase)(void *h, uint64_t key);
    /* Waits one grace period (caller outside any read-side section): after
     * it, elements erased before the call are no longer reachable by any
     * reader. NULL for the locked structures, where an erased element is
     * unreachable once the lock is dropped. */
    void (*synchronize)(void *h);
    /* Prints the structure's own counters to stderr; NULL: none. */
    void (*report)(void *h);
    /* Quiescent: removes the elements with keys q[0..m), all present, in
     * one go, and returns how many it removed. NULL: the driver calls
     * erase once per key instead. */
    size_t (*erase_all)(void *h, const uint64_t *q, size_t m);

    /* The extent face; all NULL where the implementation has none. Every
     * extent inserted is [e->key, e->key + e->size), size > 0. */
    void *(*ext_create)(size_t n);
    void (*ext_destroy)(void *h);
    /* Quiescent: no worker runs. */
    size_t (*ext_count)(void *h);
    /* 0, or -1 when e overlaps an extent present (a bench bug) or memory
     * ran out. */
    int (*ext_insert)(void *h, struct rcu_elem *e);
    /* Removes e itself: 0; -1 when e is not in the structure (another
     * thread removed it first); -2 when memory ran out. */
    int (*ext_erase)(void *h, struct rcu_elem *e);
    /* The extent containing point, or NULL. */
    struct rcu_elem *(*ext_lookup)(void *h, uint64_t point);
};

extern const struct rcu_impl rcu_impl_skiplist_rcu;
extern const struct rcu_impl rcu_impl_mutex_rb;
extern const struct rcu_impl rcu_impl_rwlock_rb;
extern const struct rcu_impl rcu_impl_spin_rb;
extern const struct rcu_impl rcu_impl_cds_skiplist;
extern const struct rcu_impl rcu_impl_urcu_lfht;
extern const struct rcu_impl rcu_impl_tbb_map;

#ifdef __cplusplus
}
#else

#include <bsd/sys/tree.h>
#include <urcu/rculfhash.h>

/* One cache line: the key, a value, and the links of the two intrusive
 * peers (each uses only its own). Same layout for every implementation.
 * On the extent face the key is the extent's start and the value its
 * size. */
struct rcu_elem {
    _Alignas(64) uint64_t key;
    union {
        uint64_t payload; /* map face */
        uint64_t size;    /* extent face */
    };
    RB_ENTRY(rcu_elem) rb;     /* mutex_rb, rwlock_rb, spin_rb */
    struct cds_lfht_node lfht; /* urcu_lfht */
};

/* liburcu's memb flavor, shared by skiplist_rcu and urcu_lfht (the same
 * library state: registering twice would abort). Counted per thread so
 * that both structures can have the main thread registered at once. */
void rcu_bench_urcu_enter(void);
void rcu_bench_urcu_leave(void);
void rcu_bench_urcu_synchronize(void);
void rcu_bench_urcu_barrier(void);

#endif
#endif
