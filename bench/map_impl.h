/* The map suite's element and the interface each implementation fills in.
 *
 * Every implementation indexes the same pre-allocated elements (the key lives
 * inside the element) and is driven through whole loops rather than single
 * operations: one indirect call per loop keeps each structure's operations
 * inlined into its own loop, so a header-only structure (ours, bsd_rb,
 * absl_btree) is not charged a call per operation that a real user would not
 * pay. The loops live next to each adapter; C++ ones in the C++ object.
 *
 * Loops return checksums (sums of returned element addresses, or the last
 * key of a dependent chain) that the driver checks against values computed
 * without any structure, so a wrong answer is caught, not timed. */
#ifndef BENCH_MAP_IMPL_H
#define BENCH_MAP_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <bsd/sys/tree.h>

#ifdef __cplusplus
extern "C" {
#endif

struct map_elem {
    uint64_t key;
    uint64_t payload; /* what find_dep reads from each element it finds */
    /* Only bsd_rb links through it; every implementation carries it so the
     * elements (and their cache footprint) are the same for all. */
    RB_ENTRY(map_elem) rb;
};

struct map_impl {
    const char *name;
    void *(*create)(void);
    void (*destroy)(void *h);
    size_t (*count)(void *h);
    /* Bytes the structure holds beyond the elements; < 0 when unknown. */
    double (*bytes)(void *h);
    /* Inserts *e[0..n) in that order; returns how many insertions failed. */
    size_t (*insert_all)(void *h, struct map_elem *const *e, size_t n);
    /* Sum of the addresses found for keys q[0..m) (0 for a miss). */
    uint64_t (*find_all)(void *h, const uint64_t *q, size_t m);
    /* The lookups of find_all made dependent: lookup i + 1 searches
     * q[i + 1] + (payload of the element found by lookup i & zero), zero
     * being 0 at run time but unknown to the compiler, so the processor
     * cannot start a search before the previous one has returned and its
     * element has been read. Same checksum as find_all; 0 after a miss. */
    uint64_t (*find_dep)(void *h, const uint64_t *q, size_t m, uint64_t zero);
    /* Sum of the addresses of the first elements with key >= q[i]. */
    uint64_t (*lower_bound_all)(void *h, const uint64_t *q, size_t m);
    /* Erases the keys q[0..m); returns how many were not found. */
    size_t (*erase_all)(void *h, const uint64_t *q, size_t m);
    /* In-order walk: sum of the element addresses, *count set to the number
     * visited. Elements are not dereferenced: this times the structure's
     * own walk, not cache misses on the user's data. */
    uint64_t (*scan)(void *h, size_t *count);
    /* The footprint op (docs/benchmark.md): bytes this one map costs, its
     * head as a user would embed it (sizeof the structure's own head, not
     * an adapter's wrapper), what the structure allocated, and the links it
     * keeps inside the elements. The driver keeps no other map of this
     * implementation alive meanwhile. NULL when it cannot say. */
    double (*footprint)(void *h);
    /* The footprint_rss op: builds count maps, map i holding e[i] alone,
     * their heads in one array as a user embedding them would have them;
     * NULL when an insert fails. Runs in a child process that exits without
     * freeing them. NULL when not measured. */
    void *(*many)(struct map_elem *e, size_t count);
    /* The order-statistics ops; NULL (all three) when the structure cannot
     * answer them, and then it gets no row for them.
     * rank_all: sum over q[0..m) of the number of keys < q[i].
     * select_all: sum of the addresses of the elements at the 0-based
     * positions q[0..m) in key order (0 for a position >= the count).
     * count_range_all: sum over the m windows (q[2i], q[2i + 1]) of the
     * number of keys in [q[2i], q[2i + 1]] (0 when q[2i] > q[2i + 1]). */
    uint64_t (*rank_all)(void *h, const uint64_t *q, size_t m);
    uint64_t (*select_all)(void *h, const uint64_t *q, size_t m);
    uint64_t (*count_range_all)(void *h, const uint64_t *q, size_t m);
    /* The bulk ops (issue #30); each NULL when the structure has no such
     * call, and then it gets no row for that op (docs/benchmark.md).
     * build: loads the empty map with e[0..n), keys strictly increasing,
     * by the structure's own way of loading sorted input; 0 on success.
     * erase_range: erases every element with its key in [lo, hi] given
     * only lo and hi; returns how many it erased.
     * find_many_all: find_all through a batched lookup call (same
     * checksum). */
    int (*build)(void *h, struct map_elem *const *e, size_t n);
    size_t (*erase_range)(void *h, uint64_t lo, uint64_t hi);
    uint64_t (*find_many_all)(void *h, const uint64_t *q, size_t m);
};

extern const struct map_impl map_impl_bsd_rb;
extern const struct map_impl map_impl_judyl;
extern const struct map_impl map_impl_absl_btree;
extern const struct map_impl map_impl_glib_gtree;
extern const struct map_impl map_impl_zskiplist;
/* An earlier skiplist.h (bench/map_base.c), linked in only with BENCH_BASE
 * (bench/bench.mk); the driver lists it under BENCH_BASE_ROW. */
extern const struct map_impl map_impl_skiplist_base;

/* Generates the loop functions of struct map_impl for an adapter P that
 * defines static inline P_insert(h, e) (0 on success), P_find(h, key),
 * P_lower_bound(h, key) and P_erase(h, key) (0 on success). C only. */
#define MAP_LOOPS(P)                                                           \
    static size_t P##_insert_all(void *h, struct map_elem *const *e, size_t n) \
    {                                                                          \
        size_t failed = 0;                                                     \
        for (size_t i = 0; i < n; i++)                                         \
            failed += P##_insert(h, e[i]) != 0;                                \
        return failed;                                                         \
    }                                                                          \
    static uint64_t P##_find_all(void *h, const uint64_t *q, size_t m)         \
    {                                                                          \
        uint64_t sum = 0;                                                      \
        for (size_t i = 0; i < m; i++)                                         \
            sum += (uintptr_t)P##_find(h, q[i]);                               \
        return sum;                                                            \
    }                                                                          \
    static uint64_t P##_find_dep(void *h, const uint64_t *q, size_t m,         \
                                 uint64_t zero)                                \
    {                                                                          \
        uint64_t sum = 0, dep = 0;                                             \
        for (size_t i = 0; i < m; i++) {                                       \
            struct map_elem *e = P##_find(h, q[i] + dep);                      \
            if (!e)                                                            \
                return 0;                                                      \
            sum += (uintptr_t)e;                                               \
            dep = e->payload & zero;                                           \
        }                                                                      \
        return sum;                                                            \
    }                                                                          \
    static uint64_t P##_lower_bound_all(void *h, const uint64_t *q, size_t m)  \
    {                                                                          \
        uint64_t sum = 0;                                                      \
        for (size_t i = 0; i < m; i++)                                         \
            sum += (uintptr_t)P##_lower_bound(h, q[i]);                        \
        return sum;                                                            \
    }                                                                          \
    static size_t P##_erase_all(void *h, const uint64_t *q, size_t m)          \
    {                                                                          \
        size_t failed = 0;                                                     \
        for (size_t i = 0; i < m; i++)                                         \
            failed += P##_erase(h, q[i]) != 0;                                 \
        return failed;                                                         \
    }

/* Generates rank_all, select_all and count_range_all for an adapter P that
 * defines static inline size_t P_rank(h, key) (keys < key),
 * struct map_elem *P_at(h, i) (0-based position, NULL past the end) and
 * size_t P_count_range(h, lo, hi) (keys in [lo, hi]). C only. */
#define MAP_RANK_LOOPS(P)                                                     \
    static uint64_t P##_rank_all(void *h, const uint64_t *q, size_t m)        \
    {                                                                         \
        uint64_t sum = 0;                                                     \
        for (size_t i = 0; i < m; i++)                                        \
            sum += P##_rank(h, q[i]);                                         \
        return sum;                                                           \
    }                                                                         \
    static uint64_t P##_select_all(void *h, const uint64_t *q, size_t m)      \
    {                                                                         \
        uint64_t sum = 0;                                                     \
        for (size_t i = 0; i < m; i++)                                        \
            sum += (uintptr_t)P##_at(h, (size_t)q[i]);                        \
        return sum;                                                           \
    }                                                                         \
    static uint64_t P##_count_range_all(void *h, const uint64_t *q, size_t m) \
    {                                                                         \
        uint64_t sum = 0;                                                     \
        for (size_t i = 0; i < m; i++)                                        \
            sum += P##_count_range(h, q[2 * i], q[2 * i + 1]);                \
        return sum;                                                           \
    }

/* The struct map_impl members MAP_RANK_LOOPS(P) generated. */
#define MAP_RANK_FIELDS(P)                                  \
    .rank_all = P##_rank_all, .select_all = P##_select_all, \
    .count_range_all = P##_count_range_all

#ifdef __cplusplus
}
#endif
#endif
