/*
 * One interface over each skiplist_rcu.h instantiation the suites build, so
 * the differential, allocation-failure and stress drivers are written once
 * and run over every configuration (as MAP_OPS_DEFINE does for skiplist.h).
 *
 * RMAP_OPS_DEFINE(name, label, desc): after SKIPLIST_RCU_DEFINE(name,
 * struct map_item, uint64_t, ...), defines `static const struct rmap_ops
 * name##_ops`. desc tells the model the list was built with MAP_CMP_DESC.
 *
 * REXT_OPS_DEFINE(name, label, T, K_T): after SKIPLIST_RCU_EXTENT_DEFINE
 * (name, T, K_T, start, size, ...) where T has K_T members start and size;
 * defines `static const struct rext_ops name##_ops`. Elements cross as
 * void * and keys as uint64_t (the caller keeps them <= max).
 *
 * Every function is a thin cast; the walks exist to reach the iterator
 * types. Reader functions must be called inside a read-side section.
 */
#ifndef RCU_OPS_H
#define RCU_OPS_H

#include "rcu_common.h"

#include "../model_map.h"

/* For scans: called on each element met; false stops the scan. */
typedef bool rt_visit_fn(void *ctx, void *e);

/* Starting points for walks and scans (MAP_WALK_* of model_map.h). */
enum { RT_FIRST = MAP_WALK_FIRST, RT_LAST = MAP_WALK_LAST, RT_SEEK };

/* ------------------------------------------------------------- map face */

struct rmap_ops {
    const char *label;
    size_t size; /* sizeof(struct name) */
    bool desc;
    int (*init)(void *sl, const struct skiplist_allocator *a, uint64_t seed);
    void (*destroy)(void *sl, map_cb_fn *fn, void *arg);
    size_t (*count)(void *sl);
    int (*check)(void *sl, char *why, size_t len);
    void (*stats)(void *sl, struct skiplist_rcu_stats *st);
    struct map_item *(*find)(void *sl, uint64_t k);
    struct map_item *(*lower_bound)(void *sl, uint64_t k);
    struct map_item *(*upper_bound)(void *sl, uint64_t k);
    struct map_item *(*floor)(void *sl, uint64_t k);
    struct map_item *(*below)(void *sl, uint64_t k);
    struct map_item *(*first)(void *sl);
    struct map_item *(*last)(void *sl);
    int (*insert)(void *sl, struct map_item *e, struct map_item **existing);
    int (*erase_key)(void *sl, uint64_t k, struct map_item **out);
    int (*erase)(void *sl, struct map_item *e);
    /* Start an iterator (RT_FIRST, RT_LAST, RT_SEEK k), then step by
     * moves[i] (> 0 next, else prev) until a step returns NULL; every
     * element seen goes to out[] (at most nmoves + 1); returns how many.
     * The model's counterpart is mm_walk(). */
    size_t (*walk)(void *sl, int start, uint64_t k, const signed char *moves,
                   size_t nmoves, struct map_item **out);
    /* Start as walk does, then step one way (dir > 0 next, else prev),
     * calling fn on each element until it returns false or the walk
     * ends; returns how many elements fn saw. */
    size_t (*scan)(void *sl, int start, uint64_t k, int dir, rt_visit_fn *fn,
                   void *ctx);
};

/* Keys cross the table as uint64_t; an instantiation over another key
 * type converts with KEY(k) (RMAP_OPS_DEFINE_KEYS); the order must be
 * the uint64_t one, as the model keeps it. */
#define RT_KEY_U64(k) (k)
#define RMAP_OPS_DEFINE(name, label_, desc_) \
    RMAP_OPS_DEFINE_KEYS(name, label_, desc_, RT_KEY_U64)

#define RMAP_OPS_DEFINE_KEYS(name, label_, desc_, KEY)                         \
    static int name##_w_init(void *sl, const struct skiplist_allocator *a,     \
                             uint64_t seed)                                    \
    {                                                                          \
        return name##_init((struct name *)sl, a, seed);                        \
    }                                                                          \
    static void name##_w_destroy(void *sl, map_cb_fn *fn, void *arg)           \
    {                                                                          \
        name##_destroy((struct name *)sl, fn, arg);                            \
    }                                                                          \
    static size_t name##_w_count(void *sl)                                     \
    {                                                                          \
        return name##_count((struct name *)sl);                                \
    }                                                                          \
    static int name##_w_check(void *sl, char *why, size_t len)                 \
    {                                                                          \
        return name##_check((struct name *)sl, why, len);                      \
    }                                                                          \
    static void name##_w_stats(void *sl, struct skiplist_rcu_stats *st)        \
    {                                                                          \
        name##_stats((struct name *)sl, st);                                   \
    }                                                                          \
    static struct map_item *name##_w_find(void *sl, uint64_t k)                \
    {                                                                          \
        return name##_find((struct name *)sl, KEY(k));                         \
    }                                                                          \
    static struct map_item *name##_w_lower_bound(void *sl, uint64_t k)         \
    {                                                                          \
        return name##_lower_bound((struct name *)sl, KEY(k));                  \
    }                                                                          \
    static struct map_item *name##_w_upper_bound(void *sl, uint64_t k)         \
    {                                                                          \
        return name##_upper_bound((struct name *)sl, KEY(k));                  \
    }                                                                          \
    static struct map_item *name##_w_floor(void *sl, uint64_t k)               \
    {                                                                          \
        return name##_floor((struct name *)sl, KEY(k));                        \
    }                                                                          \
    static struct map_item *name##_w_below(void *sl, uint64_t k)               \
    {                                                                          \
        return name##_below((struct name *)sl, KEY(k));                        \
    }                                                                          \
    static struct map_item *name##_w_first(void *sl)                           \
    {                                                                          \
        return name##_first((struct name *)sl);                                \
    }                                                                          \
    static struct map_item *name##_w_last(void *sl)                            \
    {                                                                          \
        return name##_last((struct name *)sl);                                 \
    }                                                                          \
    static int name##_w_insert(void *sl, struct map_item *e,                   \
                               struct map_item **existing)                     \
    {                                                                          \
        return name##_insert((struct name *)sl, e, existing);                  \
    }                                                                          \
    static int name##_w_erase_key(void *sl, uint64_t k, struct map_item **out) \
    {                                                                          \
        return name##_erase_key((struct name *)sl, KEY(k), out);               \
    }                                                                          \
    static int name##_w_erase(void *sl, struct map_item *e)                    \
    {                                                                          \
        return name##_erase((struct name *)sl, e);                             \
    }                                                                          \
    static struct map_item *name##_w_start(struct name##_iter *it, void *sl,   \
                                           int start, uint64_t k)              \
    {                                                                          \
        struct name *l = (struct name *)sl;                                    \
        if (start == RT_FIRST)                                                 \
            return name##_iter_first(it, l);                                   \
        if (start == RT_LAST)                                                  \
            return name##_iter_last(it, l);                                    \
        return name##_iter_seek(it, l, KEY(k));                                \
    }                                                                          \
    static size_t name##_w_walk(void *sl, int start, uint64_t k,               \
                                const signed char *moves, size_t nmoves,       \
                                struct map_item **out)                         \
    {                                                                          \
        struct name##_iter it;                                                 \
        struct map_item *e = name##_w_start(&it, sl, start, k);                \
        size_t n = 0;                                                          \
        for (size_t i = 0; e; i++) {                                           \
            out[n++] = e;                                                      \
            if (i == nmoves)                                                   \
                break;                                                         \
            e = moves[i] > 0 ? name##_iter_next(&it) : name##_iter_prev(&it);  \
        }                                                                      \
        return n;                                                              \
    }                                                                          \
    static size_t name##_w_scan(void *sl, int start, uint64_t k, int dir,      \
                                rt_visit_fn *fn, void *ctx)                    \
    {                                                                          \
        struct name##_iter it;                                                 \
        struct map_item *e = name##_w_start(&it, sl, start, k);                \
        size_t n = 0;                                                          \
        while (e) {                                                            \
            n++;                                                               \
            if (!fn(ctx, e))                                                   \
                break;                                                         \
            e = dir > 0 ? name##_iter_next(&it) : name##_iter_prev(&it);       \
        }                                                                      \
        return n;                                                              \
    }                                                                          \
    static const struct rmap_ops name##_ops = {                                \
        label_,                                                                \
        sizeof(struct name),                                                   \
        desc_,                                                                 \
        name##_w_init,                                                         \
        name##_w_destroy,                                                      \
        name##_w_count,                                                        \
        name##_w_check,                                                        \
        name##_w_stats,                                                        \
        name##_w_find,                                                         \
        name##_w_lower_bound,                                                  \
        name##_w_upper_bound,                                                  \
        name##_w_floor,                                                        \
        name##_w_below,                                                        \
        name##_w_first,                                                        \
        name##_w_last,                                                         \
        name##_w_insert,                                                       \
        name##_w_erase_key,                                                    \
        name##_w_erase,                                                        \
        name##_w_walk,                                                         \
        name##_w_scan,                                                         \
    }

/* ---------------------------------------------------------- extent face */

/* The extent elements: one struct per key width. id indexes the pool. */
struct rext {
    uint64_t start, size;
    uint32_t id;
};
struct rext32 {
    uint32_t start, size;
    uint32_t id;
};

typedef void rt_elem_fn(void *e, void *arg);

struct rext_ops {
    const char *label;
    uint64_t max;     /* largest K_T value */
    size_t size;      /* sizeof(struct name) */
    size_t elem_size; /* sizeof(T) */
    void (*set)(void *e, uint64_t start, uint64_t size);
    uint64_t (*start)(const void *e);
    uint64_t (*len)(const void *e);
    int (*init)(void *sl, const struct skiplist_allocator *a, uint64_t seed);
    void (*destroy)(void *sl, rt_elem_fn *fn, void *arg);
    size_t (*count)(void *sl);
    int (*check)(void *sl, char *why, size_t len);
    void (*stats)(void *sl, struct skiplist_rcu_stats *st);
    void *(*lookup)(void *sl, uint64_t point);
    int (*first_overlap)(void *sl, uint64_t lo, uint64_t hi, void **out);
    int (*insert)(void *sl, void *e, void **clash);
    int (*erase)(void *sl, void *e);
    int (*hole)(void *sl, void *e, uint64_t align, uint64_t lo, uint64_t hi,
                int flags);
    /* As rmap_ops.walk; RT_SEEK k: the first extent starting at or after
     * k. */
    size_t (*walk)(void *sl, int start, uint64_t k, const signed char *moves,
                   size_t nmoves, void **out);
    size_t (*scan)(void *sl, int start, uint64_t k, int dir, rt_visit_fn *fn,
                   void *ctx);
    /* iter_overlap(lo, hi) then iter_next_overlap, fn on each. */
    size_t (*scan_overlap)(void *sl, uint64_t lo, uint64_t hi, rt_visit_fn *fn,
                           void *ctx);
};

#define REXT_OPS_DEFINE(name, label_, T, K_T)                                 \
    struct name##_w_cb {                                                      \
        rt_elem_fn *fn;                                                       \
        void *arg;                                                            \
    };                                                                        \
    static void name##_w_set(void *e, uint64_t start, uint64_t size)          \
    {                                                                         \
        ((T *)e)->start = (K_T)start;                                         \
        ((T *)e)->size = (K_T)size;                                           \
    }                                                                         \
    static uint64_t name##_w_startof(const void *e)                           \
    {                                                                         \
        return ((const T *)e)->start;                                         \
    }                                                                         \
    static uint64_t name##_w_len(const void *e)                               \
    {                                                                         \
        return ((const T *)e)->size;                                          \
    }                                                                         \
    static int name##_w_init(void *sl, const struct skiplist_allocator *a,    \
                             uint64_t seed)                                   \
    {                                                                         \
        return name##_init((struct name *)sl, a, seed);                       \
    }                                                                         \
    static void name##_w_each(T *e, void *arg)                                \
    {                                                                         \
        struct name##_w_cb *cb = (struct name##_w_cb *)arg;                   \
        cb->fn(e, cb->arg);                                                   \
    }                                                                         \
    static void name##_w_destroy(void *sl, rt_elem_fn *fn, void *arg)         \
    {                                                                         \
        struct name##_w_cb cb = {fn, arg};                                    \
        name##_destroy((struct name *)sl, fn ? name##_w_each : NULL, &cb);    \
    }                                                                         \
    static size_t name##_w_count(void *sl)                                    \
    {                                                                         \
        return name##_count((struct name *)sl);                               \
    }                                                                         \
    static int name##_w_check(void *sl, char *why, size_t len)                \
    {                                                                         \
        return name##_check((struct name *)sl, why, len);                     \
    }                                                                         \
    static void name##_w_stats(void *sl, struct skiplist_rcu_stats *st)       \
    {                                                                         \
        name##_stats((struct name *)sl, st);                                  \
    }                                                                         \
    static void *name##_w_lookup(void *sl, uint64_t p)                        \
    {                                                                         \
        return name##_lookup((struct name *)sl, (K_T)p);                      \
    }                                                                         \
    static int name##_w_first_overlap(void *sl, uint64_t lo, uint64_t hi,     \
                                      void **out)                             \
    {                                                                         \
        T *e = NULL;                                                          \
        int rc =                                                              \
            name##_first_overlap((struct name *)sl, (K_T)lo, (K_T)hi, &e);    \
        if (out)                                                              \
            *out = e;                                                         \
        return rc;                                                            \
    }                                                                         \
    static int name##_w_insert(void *sl, void *e, void **clash)               \
    {                                                                         \
        T *c = NULL;                                                          \
        int rc = name##_insert((struct name *)sl, (T *)e, &c);                \
        if (clash)                                                            \
            *clash = c;                                                       \
        return rc;                                                            \
    }                                                                         \
    static int name##_w_erase(void *sl, void *e)                              \
    {                                                                         \
        return name##_erase((struct name *)sl, (T *)e);                       \
    }                                                                         \
    static int name##_w_hole(void *sl, void *e, uint64_t align, uint64_t lo,  \
                             uint64_t hi, int flags)                          \
    {                                                                         \
        return name##_insert_hole((struct name *)sl, (T *)e, (K_T)align,      \
                                  (K_T)lo, (K_T)hi, flags);                   \
    }                                                                         \
    static T *name##_w_start(struct name##_iter *it, void *sl, int start,     \
                             uint64_t k)                                      \
    {                                                                         \
        struct name *l = (struct name *)sl;                                   \
        if (start == RT_FIRST)                                                \
            return name##_iter_first(it, l);                                  \
        if (start == RT_LAST)                                                 \
            return name##_iter_last(it, l);                                   \
        return name##_iter_seek(it, l, (K_T)k);                               \
    }                                                                         \
    static size_t name##_w_walk(void *sl, int start, uint64_t k,              \
                                const signed char *moves, size_t nmoves,      \
                                void **out)                                   \
    {                                                                         \
        struct name##_iter it;                                                \
        T *e = name##_w_start(&it, sl, start, k);                             \
        size_t n = 0;                                                         \
        for (size_t i = 0; e; i++) {                                          \
            out[n++] = e;                                                     \
            if (i == nmoves)                                                  \
                break;                                                        \
            e = moves[i] > 0 ? name##_iter_next(&it) : name##_iter_prev(&it); \
        }                                                                     \
        return n;                                                             \
    }                                                                         \
    static size_t name##_w_scan(void *sl, int start, uint64_t k, int dir,     \
                                rt_visit_fn *fn, void *ctx)                   \
    {                                                                         \
        struct name##_iter it;                                                \
        T *e = name##_w_start(&it, sl, start, k);                             \
        size_t n = 0;                                                         \
        while (e) {                                                           \
            n++;                                                              \
            if (!fn(ctx, e))                                                  \
                break;                                                        \
            e = dir > 0 ? name##_iter_next(&it) : name##_iter_prev(&it);      \
        }                                                                     \
        return n;                                                             \
    }                                                                         \
    static size_t name##_w_scan_overlap(void *sl, uint64_t lo, uint64_t hi,   \
                                        rt_visit_fn *fn, void *ctx)           \
    {                                                                         \
        struct name##_iter it;                                                \
        T *e = name##_iter_overlap(&it, (struct name *)sl, (K_T)lo, (K_T)hi); \
        size_t n = 0;                                                         \
        while (e) {                                                           \
            n++;                                                              \
            if (!fn(ctx, e))                                                  \
                break;                                                        \
            e = name##_iter_next_overlap(&it);                                \
        }                                                                     \
        return n;                                                             \
    }                                                                         \
    static const struct rext_ops name##_ops = {                               \
        label_,          (uint64_t)(K_T)-1,      sizeof(struct name),         \
        sizeof(T),       name##_w_set,           name##_w_startof,            \
        name##_w_len,    name##_w_init,          name##_w_destroy,            \
        name##_w_count,  name##_w_check,         name##_w_stats,              \
        name##_w_lookup, name##_w_first_overlap, name##_w_insert,             \
        name##_w_erase,  name##_w_hole,          name##_w_walk,               \
        name##_w_scan,   name##_w_scan_overlap,                               \
    }

#endif /* RCU_OPS_H */
