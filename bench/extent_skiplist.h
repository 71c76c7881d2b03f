/* The extent suite's adapter for skiplist.h's extent face, shared by the
 * driver (bench/suite_extent.c: the current skiplist.h) and
 * bench/extent_base.c (an earlier skiplist.h, BENCH_BASE in bench/bench.mk),
 * so that both rows run the very same adapter code. It uses the public API
 * only (name_init, name_insert_hole, name_bytes, ...) and sizeof the head,
 * never its fields, so it compiles against either version of the header:
 * whichever "skiplist.h" the including translation unit finds first on its
 * include path.
 *
 * Allocation is insert_hole(HIGHEST) below the limit, size-aligned, the
 * ranges taken from a free list of pre-allocated elements. */
#ifndef BENCH_EXTENT_SKIPLIST_H
#define BENCH_EXTENT_SKIPLIST_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/extent_impl.h"
#include "skiplist.h"

/* Level seed: fixed, so a run's shape is the same every time. */
#define EXTENT_SL_SEED 12345

/* The adapter's functions for one instantiation P of SKIPLIST_EXTENT_DEFINE
 * over struct range (start, size), its messages naming NAME. */
#define EXTENT_SKIPLIST_FUNCS(P, NAME)                                      \
    struct P##_ours {                                                       \
        struct P sl;                                                        \
        uint64_t limit; /* exclusive */                                     \
        struct range *elems;                                                \
        struct range **spare;                                               \
        size_t nspare;                                                      \
    };                                                                      \
    static void *P##_a_make(uint64_t limit, size_t cap)                     \
    {                                                                       \
        struct P##_ours *o = (struct P##_ours *)calloc(1, sizeof(*o));      \
        if (!o || P##_init(&o->sl, NULL, EXTENT_SL_SEED) != 0)              \
            abort();                                                        \
        o->limit = limit;                                                   \
        o->elems = (struct range *)calloc(cap, sizeof(*o->elems));          \
        o->spare = (struct range **)malloc(cap * sizeof(*o->spare));        \
        if (!o->elems || !o->spare)                                         \
            abort();                                                        \
        for (size_t i = 0; i < cap; i++)                                    \
            o->spare[i] = &o->elems[cap - 1 - i];                           \
        o->nspare = cap;                                                    \
        return o;                                                           \
    }                                                                       \
    static void P##_a_drop(void *ctx)                                       \
    {                                                                       \
        struct P##_ours *o = (struct P##_ours *)ctx;                        \
        P##_destroy(&o->sl, NULL, NULL);                                    \
        free(o->elems);                                                     \
        free(o->spare);                                                     \
        free(o);                                                            \
    }                                                                       \
    /* The next range of the free list (taken off it only once used). */    \
    static struct range *P##_a_spare(struct P##_ours *o)                    \
    {                                                                       \
        if (!o->nspare)                                                     \
            abort();                                                        \
        return o->spare[o->nspare - 1];                                     \
    }                                                                       \
    static void *P##_a_alloc(void *ctx, uint64_t size)                      \
    {                                                                       \
        struct P##_ours *o = (struct P##_ours *)ctx;                        \
        struct range *e = P##_a_spare(o);                                   \
        e->size = size;                                                     \
        int r = P##_insert_hole(&o->sl, e, pow2_ceil(size), START_PFN,      \
                                o->limit - 1, SKIPLIST_HOLE_HIGHEST);       \
        if (r != 0) {                                                       \
            if (r != -ENOSPC)                                               \
                abort();                                                    \
            return NULL;                                                    \
        }                                                                   \
        o->nspare--;                                                        \
        return e;                                                           \
    }                                                                       \
    static void P##_a_release(void *ctx, void *h)                           \
    {                                                                       \
        struct P##_ours *o = (struct P##_ours *)ctx;                        \
        if (P##_erase(&o->sl, (struct range *)h) != 0)                      \
            abort();                                                        \
        o->spare[o->nspare++] = (struct range *)h;                          \
    }                                                                       \
    static void *P##_a_lookup(void *ctx, uint64_t pfn)                      \
    {                                                                       \
        return P##_lookup(&((struct P##_ours *)ctx)->sl, pfn);              \
    }                                                                       \
    static uint64_t P##_a_lo(const void *h)                                 \
    {                                                                       \
        return ((const struct range *)h)->start;                            \
    }                                                                       \
    static uint64_t P##_a_hi(const void *h)                                 \
    {                                                                       \
        const struct range *r = (const struct range *)h;                    \
        return r->start + r->size - 1;                                      \
    }                                                                       \
    static double P##_a_bpi(void *ctx, size_t n)                            \
    {                                                                       \
        return n ? (double)P##_bytes(&((struct P##_ours *)ctx)->sl) /       \
                       (double)n                                            \
                 : -1;                                                      \
    }                                                                       \
    static double P##_a_footprint(void *ctx, size_t n)                      \
    {                                                                       \
        (void)n;                                                            \
        return (double)(sizeof(struct P) +                                  \
                        P##_bytes(&((struct P##_ours *)ctx)->sl));          \
    }                                                                       \
    static int P##_a_check(void *ctx)                                       \
    {                                                                       \
        char why[200];                                                      \
        int r = P##_check(&((struct P##_ours *)ctx)->sl, why, sizeof(why)); \
        if (r)                                                              \
            fprintf(stderr, "extent: %s check failed: %s\n", NAME, why);    \
        return r;                                                           \
    }                                                                       \
    static void *P##_a_many(struct range *e, size_t count)                  \
    {                                                                       \
        struct P *a = (struct P *)malloc(count * sizeof(*a));               \
        for (size_t i = 0; a && i < count; i++)                             \
            if (P##_init(&a[i], NULL, EXTENT_SL_SEED) != 0 ||               \
                P##_insert(&a[i], &e[i], NULL) != 0)                        \
                return NULL; /* the child exits: nothing to free */         \
        /* Reads only: the resident memory stays what the build made it. */ \
        for (size_t i = 0; a && i < count; i += 997)                        \
            if (P##_lookup(&a[i], e[i].start) != &e[i])                     \
                return NULL;                                                \
        return a;                                                           \
    }                                                                       \
    /* The range back in the index, from the free list (name_insert). */    \
    static void *P##_a_restore(void *ctx, uint64_t lo, uint64_t hi)         \
    {                                                                       \
        struct P##_ours *o = (struct P##_ours *)ctx;                        \
        struct range *e = P##_a_spare(o);                                   \
        e->start = lo;                                                      \
        e->size = hi - lo + 1;                                              \
        if (P##_insert(&o->sl, e, NULL) != 0)                               \
            return NULL;                                                    \
        o->nspare--;                                                        \
        return e;                                                           \
    }

/* The adapter: defines const struct extent_impl IMPL, whose row is named
 * NAME. Without erase_range: this is the one bench/extent_base.c expands
 * (an earlier skiplist.h may not have it). */
#define EXTENT_SKIPLIST_ADAPTER(P, IMPL, NAME)                     \
    EXTENT_SKIPLIST_FUNCS(P, NAME)                                 \
    const struct extent_impl IMPL = {                              \
        NAME,          P##_a_make,   P##_a_drop,      P##_a_alloc, \
        P##_a_release, P##_a_lookup, P##_a_lo,        P##_a_hi,    \
        P##_a_bpi,     P##_a_check,  P##_a_footprint, P##_a_many,  \
        NULL,          P##_a_restore};

/* The same with name_erase_range (issue #30): the driver's row. Each
 * range it takes out goes back on the free list through the callback, as
 * release puts back what it frees. */
#define EXTENT_SKIPLIST_BULK_ADAPTER(P, IMPL, NAME)                      \
    EXTENT_SKIPLIST_FUNCS(P, NAME)                                       \
    static void P##_a_back(struct range *e, void *ctx)                   \
    {                                                                    \
        struct P##_ours *o = (struct P##_ours *)ctx;                     \
        o->spare[o->nspare++] = e;                                       \
    }                                                                    \
    static size_t P##_a_erase_range(void *ctx, uint64_t lo, uint64_t hi) \
    {                                                                    \
        struct P##_ours *o = (struct P##_ours *)ctx;                     \
        return P##_erase_range(&o->sl, lo, hi, P##_a_back, o);           \
    }                                                                    \
    const struct extent_impl IMPL = {NAME,                               \
                                     P##_a_make,                         \
                                     P##_a_drop,                         \
                                     P##_a_alloc,                        \
                                     P##_a_release,                      \
                                     P##_a_lookup,                       \
                                     P##_a_lo,                           \
                                     P##_a_hi,                           \
                                     P##_a_bpi,                          \
                                     P##_a_check,                        \
                                     P##_a_footprint,                    \
                                     P##_a_many,                         \
                                     P##_a_erase_range,                  \
                                     P##_a_restore};

#endif
