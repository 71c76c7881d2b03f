/* The map suite's adapter for skiplist.h's map face, shared by the driver
 * (bench/suite_map.c: the current skiplist.h) and bench/map_base.c (an
 * earlier skiplist.h, BENCH_BASE in bench/bench.mk), so that both rows run
 * the very same adapter code. It uses the public API only (name_init,
 * name_insert, name_bytes, ...) and sizeof the head, never its fields, so it
 * compiles against either version of the header: whichever "skiplist.h" the
 * including translation unit finds first on its include path. */
#ifndef BENCH_MAP_SKIPLIST_H
#define BENCH_MAP_SKIPLIST_H

#include <stdint.h>
#include <stdlib.h>

#include "bench/map_impl.h"
#include "skiplist.h"

#define MAP_ELEM_KEY(e) ((e)->key)

/* Level seed: fixed, so a run's shape is the same every time. */
#define MAP_SL_SEED 0x51ee7ull

/* The adapter's functions for one instantiation P (SKIPLIST_DEFINE or
 * SKIPLIST_RANKED_DEFINE) over struct map_elem. */
#define MAP_SKIPLIST_FUNCS(P)                                               \
    static void *P##_a_create(void)                                         \
    {                                                                       \
        struct P *sl = malloc(sizeof(*sl));                                 \
        if (sl && P##_init(sl, NULL, MAP_SL_SEED) != 0) {                   \
            free(sl);                                                       \
            sl = NULL;                                                      \
        }                                                                   \
        return sl;                                                          \
    }                                                                       \
    static void P##_a_destroy(void *h)                                      \
    {                                                                       \
        P##_destroy(h, NULL, NULL);                                         \
        free(h);                                                            \
    }                                                                       \
    static size_t P##_a_count(void *h)                                      \
    {                                                                       \
        return P##_count(h);                                                \
    }                                                                       \
    static double P##_a_bytes(void *h)                                      \
    {                                                                       \
        return (double)P##_bytes(h);                                        \
    }                                                                       \
    static inline int P##_a_insert(void *h, struct map_elem *e)             \
    {                                                                       \
        return P##_insert(h, e, NULL);                                      \
    }                                                                       \
    static inline struct map_elem *P##_a_find(void *h, uint64_t key)        \
    {                                                                       \
        return P##_find(h, key);                                            \
    }                                                                       \
    static inline struct map_elem *P##_a_lower_bound(void *h, uint64_t key) \
    {                                                                       \
        return P##_lower_bound(h, key);                                     \
    }                                                                       \
    static inline int P##_a_erase(void *h, uint64_t key)                    \
    {                                                                       \
        return P##_erase_key(h, key, NULL);                                 \
    }                                                                       \
    /* The head as a user embeds it plus what the engine holds. */          \
    static double P##_a_footprint(void *h)                                  \
    {                                                                       \
        return (double)(sizeof(struct P) + P##_bytes(h));                   \
    }                                                                       \
    static void *P##_a_many(struct map_elem *e, size_t count)               \
    {                                                                       \
        struct P *a = malloc(count * sizeof(*a));                           \
        for (size_t i = 0; a && i < count; i++)                             \
            if (P##_init(&a[i], NULL, MAP_SL_SEED) != 0 ||                  \
                P##_insert(&a[i], &e[i], NULL) != 0) {                      \
                free(a); /* a child process that exits: no destroy */       \
                a = NULL;                                                   \
            }                                                               \
        return a;                                                           \
    }                                                                       \
    MAP_LOOPS(P##_a)                                                        \
    static uint64_t P##_a_scan(void *h, size_t *count)                      \
    {                                                                       \
        struct P##_iter it;                                                 \
        uint64_t sum = 0;                                                   \
        size_t c = 0;                                                       \
        for (struct map_elem *e = P##_iter_first(&it, h); e;                \
             e = P##_iter_next(&it)) {                                      \
            sum += (uintptr_t)e;                                            \
            c++;                                                            \
        }                                                                   \
        *count = c;                                                         \
        return sum;                                                         \
    }

/* The struct map_impl members MAP_SKIPLIST_FUNCS(P) defined, the row named
 * NAME. */
#define MAP_SKIPLIST_FIELDS(P, NAME)                                      \
    .name = NAME, .create = P##_a_create, .destroy = P##_a_destroy,       \
    .count = P##_a_count, .bytes = P##_a_bytes,                           \
    .insert_all = P##_a_insert_all, .find_all = P##_a_find_all,           \
    .find_dep = P##_a_find_dep, .lower_bound_all = P##_a_lower_bound_all, \
    .erase_all = P##_a_erase_all, .scan = P##_a_scan,                     \
    .footprint = P##_a_footprint, .many = P##_a_many

/* The adapter for one instantiation P of SKIPLIST_DEFINE over struct map_elem:
 * defines const struct map_impl VAR, whose row is named NAME. Without the
 * bulk ops: this is the one bench/map_base.c expands. */
#define MAP_SKIPLIST_ADAPTER(P, VAR, NAME) \
    MAP_SKIPLIST_FUNCS(P)                  \
    const struct map_impl VAR = {MAP_SKIPLIST_FIELDS(P, NAME)};

/* Keys per name_find_many call in find_many_all: a caller's batch, its
 * answers in an array on the stack (4 KiB). */
#define MAP_SL_MANY_BATCH 512

/* The bulk ops (issue #30) for instantiation P: name_build, name_erase_range
 * (no callback: the elements are the driver's) and name_find_many. Only
 * expanded by the driver: an earlier skiplist.h (bench/map_base.c) may not
 * have them, and skiplist_base then gets no bulk rows. */
#define MAP_SKIPLIST_BULK_FUNCS(P)                                            \
    static int P##_a_build(void *h, struct map_elem *const *e, size_t n)      \
    {                                                                         \
        return P##_build(h, e, n);                                            \
    }                                                                         \
    static size_t P##_a_erase_range(void *h, uint64_t lo, uint64_t hi)        \
    {                                                                         \
        return P##_erase_range(h, lo, hi, NULL, NULL);                        \
    }                                                                         \
    static uint64_t P##_a_find_many_all(void *h, const uint64_t *q, size_t m) \
    {                                                                         \
        struct map_elem *out[MAP_SL_MANY_BATCH];                              \
        uint64_t sum = 0;                                                     \
        for (size_t i = 0; i < m; i += MAP_SL_MANY_BATCH) {                   \
            size_t c = m - i < MAP_SL_MANY_BATCH ? m - i : MAP_SL_MANY_BATCH; \
            P##_find_many(h, q + i, c, out);                                  \
            for (size_t j = 0; j < c; j++)                                    \
                sum += (uintptr_t)out[j];                                     \
        }                                                                     \
        return sum;                                                           \
    }

/* The struct map_impl members MAP_SKIPLIST_BULK_FUNCS(P) defined. */
#define MAP_SKIPLIST_BULK_FIELDS(P)                         \
    .build = P##_a_build, .erase_range = P##_a_erase_range, \
    .find_many_all = P##_a_find_many_all

/* MAP_SKIPLIST_ADAPTER with the bulk ops: the driver's rows. */
#define MAP_SKIPLIST_BULK_ADAPTER(P, VAR, NAME)                \
    MAP_SKIPLIST_FUNCS(P)                                      \
    MAP_SKIPLIST_BULK_FUNCS(P)                                 \
    const struct map_impl VAR = {MAP_SKIPLIST_FIELDS(P, NAME), \
                                 MAP_SKIPLIST_BULK_FIELDS(P)};

/* The same for an instantiation P of SKIPLIST_RANKED_DEFINE, with the
 * order-statistics ops (name_rank, name_at, name_count_range) and the bulk
 * ops as well. Only expanded by the driver: an earlier skiplist.h
 * (bench/map_base.c) may not have ranked instances. */
#define MAP_SKIPLIST_RANKED_ADAPTER(P, VAR, NAME)                             \
    MAP_SKIPLIST_FUNCS(P)                                                     \
    MAP_SKIPLIST_BULK_FUNCS(P)                                                \
    static inline size_t P##_a_rank(void *h, uint64_t key)                    \
    {                                                                         \
        return P##_rank(h, key);                                              \
    }                                                                         \
    static inline struct map_elem *P##_a_at(void *h, size_t i)                \
    {                                                                         \
        return P##_at(h, i);                                                  \
    }                                                                         \
    static inline size_t P##_a_count_range(void *h, uint64_t lo, uint64_t hi) \
    {                                                                         \
        return P##_count_range(h, lo, hi);                                    \
    }                                                                         \
    MAP_RANK_LOOPS(P##_a)                                                     \
    const struct map_impl VAR = {MAP_SKIPLIST_FIELDS(P, NAME),                \
                                 MAP_RANK_FIELDS(P##_a),                      \
                                 MAP_SKIPLIST_BULK_FIELDS(P)};

#endif
