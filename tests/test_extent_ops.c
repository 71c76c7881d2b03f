/*
 * The extent instantiations every extent suite runs over: two key types
 * (uint32_t to reach the top of the key space cheaply, uint64_t) times four
 * leaf sizes (1 = classic one-key nodes, 4, the default, 64), each
 * instantiated by SKIPLIST_EXTENT_DEFINE and again by
 * SKIPLIST_EXTENT_RANKED_DEFINE (the same configuration with order
 * statistics: xops.rank), each wrapped in the struct xops adapters of
 * model_extent.h.
 *
 * The adapters are thin on purpose: each calls one generated function, so
 * a failure points at the library, not at glue.
 */
#include <stdlib.h>

#include "skiplist.h"
#include "model_extent.h"
#include "model_bulk.h"
#include "test_common.h"

struct x64 {
    uint64_t start, size;
    uint64_t payload; /* never read by the list: catches size/offset slips */
};

struct x32 {
    uint32_t start, size;
    uint32_t payload;
};

/* The configurations: name, element, key type, label, KPN, MAXLVL, PSHIFT.
 * Small MAXLVL on the wide leaves exercises the level cap. */
#define XOPS_CONFIGS(X)                                             \
    X(x64d, struct x64, uint64_t, "u64/default", SKIPLIST_DEFAULTS) \
    X(x64k1, struct x64, uint64_t, "u64/k1", 1, 32, 1)              \
    X(x64k4, struct x64, uint64_t, "u64/k4", 4, 24, 1)              \
    X(x64k64, struct x64, uint64_t, "u64/k64", 64, 6, 2)            \
    X(x32d, struct x32, uint32_t, "u32/default", SKIPLIST_DEFAULTS) \
    X(x32k1, struct x32, uint32_t, "u32/k1", 1, 32, 1)              \
    X(x32k4, struct x32, uint32_t, "u32/k4", 4, 24, 1)              \
    X(x32k64, struct x32, uint32_t, "u32/k64", 64, 6, 2)

/* x64d and its ranked twin x64d_rk, and so on. */
#define XOPS_DEFINE(name, T, K_T, LABEL, ...)                                  \
    SKIPLIST_EXTENT_DEFINE(name, T, K_T, start, size, __VA_ARGS__)             \
    XOPS_ADAPT(name, T, K_T, LABEL, NULL)                                      \
    SKIPLIST_EXTENT_RANKED_DEFINE(name##_rk, T, K_T, start, size, __VA_ARGS__) \
    RANK_OPS_DEFINE(name##_rk, T, K_T);                                        \
    XOPS_ADAPT(name##_rk, T, K_T, LABEL " ranked", &name##_rk##_rank_ops)

#define XOPS_ADAPT(name, T, K_T, LABEL, RANK)                                  \
    BULK_OPS_DEFINE(name, T, K_T);                                             \
    static void *name##_a_new_list(const struct skiplist_allocator *a,         \
                                   uint64_t seed, int *err)                    \
    {                                                                          \
        struct name *l = (struct name *)malloc(sizeof(*l));                    \
        if (!l)                                                                \
            abort();                                                           \
        *err = name##_init(l, a, seed);                                        \
        if (*err) {                                                            \
            free(l);                                                           \
            return NULL;                                                       \
        }                                                                      \
        return l;                                                              \
    }                                                                          \
    static void name##_a_del_list(void *l)                                     \
    {                                                                          \
        name##_destroy((struct name *)l, NULL, NULL);                          \
        free(l);                                                               \
    }                                                                          \
    static void name##_a_set(void *e, uint64_t start, uint64_t size)           \
    {                                                                          \
        ((T *)e)->start = (K_T)start;                                          \
        ((T *)e)->size = (K_T)size;                                            \
    }                                                                          \
    static void *name##_a_new_elem(uint64_t start, uint64_t size)              \
    {                                                                          \
        T *e = (T *)calloc(1, sizeof(*e));                                     \
        if (!e)                                                                \
            abort();                                                           \
        name##_a_set(e, start, size);                                          \
        return e;                                                              \
    }                                                                          \
    static uint64_t name##_a_start(const void *e)                              \
    {                                                                          \
        return ((const T *)e)->start;                                          \
    }                                                                          \
    static uint64_t name##_a_size(const void *e)                               \
    {                                                                          \
        return ((const T *)e)->size;                                           \
    }                                                                          \
    static int name##_a_insert(void *l, void *e, void **clash)                 \
    {                                                                          \
        T *c = NULL;                                                           \
        int r = name##_insert((struct name *)l, (T *)e, clash ? &c : NULL);    \
        if (clash)                                                             \
            *clash = c;                                                        \
        return r;                                                              \
    }                                                                          \
    static int name##_a_erase(void *l, void *e)                                \
    {                                                                          \
        return name##_erase((struct name *)l, (T *)e);                         \
    }                                                                          \
    static void *name##_a_lookup(const void *l, uint64_t p)                    \
    {                                                                          \
        return name##_lookup((const struct name *)l, (K_T)p);                  \
    }                                                                          \
    static int name##_a_first_overlap(const void *l, uint64_t a, uint64_t b,   \
                                      void **out)                              \
    {                                                                          \
        T *o = (T *)*out; /* a call that leaves out unwritten shows it */      \
        int r = name##_first_overlap((const struct name *)l, (K_T)TC_LO(a, b), \
                                     (K_T)TC_HI(a, b), &o);                    \
        *out = o;                                                              \
        return r;                                                              \
    }                                                                          \
    static size_t name##_a_overlaps(const void *l, uint64_t a, uint64_t b,     \
                                    void **out, size_t max)                    \
    {                                                                          \
        struct name##_iter it;                                                 \
        T *e;                                                                  \
        size_t n = 0;                                                          \
        SKIPLIST_FOREACH_OVERLAP (name, (const struct name *)l, it, e,         \
                                  (K_T)TC_LO(a, b), (K_T)TC_HI(a, b)) {        \
            if (n < max)                                                       \
                out[n] = e;                                                    \
            n++;                                                               \
        }                                                                      \
        return n;                                                              \
    }                                                                          \
    static size_t name##_a_overlaps_iter(const void *l, uint64_t a,            \
                                         uint64_t b, void **out, size_t max)   \
    {                                                                          \
        struct name##_iter it;                                                 \
        size_t n = 0;                                                          \
        T *e = name##_iter_overlap(&it, (const struct name *)l,                \
                                   (K_T)TC_LO(a, b), (K_T)TC_HI(a, b));        \
        for (; e; e = name##_iter_next_overlap(&it)) {                         \
            if (n < max)                                                       \
                out[n] = e;                                                    \
            n++;                                                               \
        }                                                                      \
        return n;                                                              \
    }                                                                          \
    static int name##_a_hole(void *l, void *e, uint64_t size, uint64_t align,  \
                             uint64_t lo, uint64_t hi, int flags)              \
    {                                                                          \
        ((T *)e)->size = (K_T)size; /* insert_hole takes e's own size */       \
        return name##_insert_hole((struct name *)l, (T *)e, (K_T)align,        \
                                  (K_T)lo, (K_T)hi, flags);                    \
    }                                                                          \
    static void *name##_a_first(const void *l)                                 \
    {                                                                          \
        return name##_first((const struct name *)l);                           \
    }                                                                          \
    static void *name##_a_last(const void *l)                                  \
    {                                                                          \
        return name##_last((const struct name *)l);                            \
    }                                                                          \
    static void *name##_a_find(const void *l, uint64_t key)                    \
    {                                                                          \
        return name##_find((const struct name *)l, (K_T)key);                  \
    }                                                                          \
    static size_t name##_a_count(const void *l)                                \
    {                                                                          \
        return name##_count((const struct name *)l);                           \
    }                                                                          \
    BULK_WALKS(name, T, name##_a_walk, name##_a_walk_rev)                      \
    static int name##_a_check(const void *l, char *why, size_t len)            \
    {                                                                          \
        return name##_check((const struct name *)l, why, len);                 \
    }                                                                          \
    static size_t name##_a_bytes(const void *l)                                \
    {                                                                          \
        return name##_bytes((const struct name *)l);                           \
    }                                                                          \
    static const struct xops name##_xops = {                                   \
        LABEL,                                                                 \
        (K_T) ~(K_T)0,                                                         \
        sizeof(struct name),                                                   \
        name##_a_new_list,                                                     \
        name##_a_del_list,                                                     \
        name##_a_new_elem,                                                     \
        name##_a_set,                                                          \
        name##_a_start,                                                        \
        name##_a_size,                                                         \
        name##_a_insert,                                                       \
        name##_a_erase,                                                        \
        name##_a_lookup,                                                       \
        name##_a_first_overlap,                                                \
        name##_a_overlaps,                                                     \
        name##_a_overlaps_iter,                                                \
        name##_a_hole,                                                         \
        name##_a_first,                                                        \
        name##_a_last,                                                         \
        name##_a_find,                                                         \
        name##_a_count,                                                        \
        name##_a_walk,                                                         \
        name##_a_walk_rev,                                                     \
        name##_a_check,                                                        \
        name##_a_bytes,                                                        \
        RANK,                                                                  \
        &name##_bulk_ops,                                                      \
    };

XOPS_CONFIGS(XOPS_DEFINE)

/* The unranked instantiations first (test_extent_diff.c names them by
 * index), then their ranked twins in the same order. */
#define XOPS_PLAIN(name, ...) &name##_xops,
#define XOPS_RANKED(name, ...) &name##_rk_xops,
const struct xops *const xops_all[] = {XOPS_CONFIGS(XOPS_PLAIN)
                                           XOPS_CONFIGS(XOPS_RANKED)};
const size_t xops_count = sizeof(xops_all) / sizeof(xops_all[0]);
