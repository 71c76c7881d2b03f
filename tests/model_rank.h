/*
 * The order-statistics calls of a ranked instance (SKIPLIST_RANKED_DEFINE,
 * SKIPLIST_EXTENT_RANKED_DEFINE) as one table over opaque lists and
 * elements, so that the ordered-index and extent drivers check them through
 * one adapter (map_ops.rank in model_map.h, xops.rank in model_extent.h),
 * and the checks that need nothing but positions: every element's at and
 * rank_of, at and iter_at at and past the end, count_range over the whole
 * key space, FOREACH_AT. What a key's rank and count_range should be is
 * each model's own business (mm_rank_compare, mx_rank_compare).
 */
#ifndef MODEL_RANK_H
#define MODEL_RANK_H

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "skiplist.h"
#include "test_common.h"

struct rank_ops {
    size_t (*rank)(const void *l, uint64_t key);
    int64_t (*rank_of)(const void *l, const void *e);
    void *(*at)(const void *l, size_t i);
    size_t (*count_range)(const void *l, uint64_t lo, uint64_t hi);
    /* out[0] = iter_at(i), out[1] = iter_get then, out[2] = iter_next
     * then; out[3] = iter_prev after another iter_at(i) */
    void (*at_steps)(const void *l, size_t i, void *out[4]);
    /* SKIPLIST_FOREACH_AT from i into out[], at most max */
    size_t (*foreach_at)(const void *l, size_t i, void **out, size_t max);
};

/* One table per ranked instantiation: thin casts (keys cross as uint64_t,
 * callers keep them within K_T), no logic but the iterator steps. */
#define RANK_OPS_DEFINE(name, T, K_T)                                        \
    static size_t name##_rk_rank(const void *l, uint64_t key)                \
    {                                                                        \
        return name##_rank((const struct name *)l, (K_T)key);                \
    }                                                                        \
    static int64_t name##_rk_rank_of(const void *l, const void *e)           \
    {                                                                        \
        return name##_rank_of((const struct name *)l, (const T *)e);         \
    }                                                                        \
    static void *name##_rk_at(const void *l, size_t i)                       \
    {                                                                        \
        return name##_at((const struct name *)l, i);                         \
    }                                                                        \
    static size_t name##_rk_count_range(const void *l, uint64_t lo,          \
                                        uint64_t hi)                         \
    {                                                                        \
        return name##_count_range((const struct name *)l, (K_T)lo, (K_T)hi); \
    }                                                                        \
    static void name##_rk_at_steps(const void *l, size_t i, void *out[4])    \
    {                                                                        \
        const struct name *sl = (const struct name *)l;                      \
        struct name##_iter it;                                               \
        out[0] = name##_iter_at(&it, sl, i);                                 \
        out[1] = name##_iter_get(&it);                                       \
        out[2] = name##_iter_next(&it);                                      \
        (void)name##_iter_at(&it, sl, i);                                    \
        out[3] = name##_iter_prev(&it);                                      \
    }                                                                        \
    static size_t name##_rk_foreach_at(const void *l, size_t i, void **out,  \
                                       size_t max)                           \
    {                                                                        \
        const struct name *sl = (const struct name *)l;                      \
        struct name##_iter it;                                               \
        T *e;                                                                \
        size_t n = 0;                                                        \
        SKIPLIST_FOREACH_AT (name, sl, it, e, i) {                           \
            if (n == max)                                                    \
                break;                                                       \
            out[n++] = e;                                                    \
        }                                                                    \
        return n;                                                            \
    }                                                                        \
    static const struct rank_ops name##_rank_ops = {                         \
        name##_rk_rank,        name##_rk_rank_of,  name##_rk_at,             \
        name##_rk_count_range, name##_rk_at_steps, name##_rk_foreach_at,     \
    }

/* A model's element i of n, in list order. */
typedef const void *rank_elem_fn(const void *m, size_t i);

/*
 * iter_at(i) and the steps next to it (rank_ops.at_steps) against the
 * model's n elements: element i (from iter_at and iter_get), i + 1 (next)
 * and i - 1 (prev, from another iter_at); past the end NULL three times
 * and the last element (iter_prev from the end). Returns the first result
 * that differs (0 at, 1 get, 2 next, 3 prev), or -1.
 */
static inline int rank_steps_check(const struct rank_ops *r, const void *l,
                                   const void *m, size_t n, rank_elem_fn *elem,
                                   size_t i)
{
    void *got[4];
    const void *want[4];
    bool in = i < n;
    want[0] = want[1] = in ? elem(m, i) : NULL;
    want[2] = in && i + 1 < n ? elem(m, i + 1) : NULL;
    if (in)
        want[3] = i ? elem(m, i - 1) : NULL;
    else
        want[3] = n ? elem(m, n - 1) : NULL;
    r->at_steps(l, i, got);
    for (int s = 0; s < 4; s++)
        if (got[s] != want[s])
            return s;
    return -1;
}

/* A position to ask about in a list of n: mostly inside it, also 0, the
 * last, the count itself, past it and near SIZE_MAX. */
static inline size_t rank_pos(struct tc_rng *rng, size_t n)
{
    switch (tc_below(rng, 8)) {
    case 0:
        return 0;
    case 1:
        return n ? n - 1 : 0;
    case 2:
        return n;
    case 3:
        return n + 1 + (size_t)tc_below(rng, 3);
    case 4:
        return SIZE_MAX - (size_t)tc_below(rng, 2);
    default:
        return n ? (size_t)tc_below(rng, n) : 0;
    }
}

/*
 * A count_range window from two drawn keys *lo and *hi: kept as they are,
 * or made one key (lo == hi), the whole key space (first and last are its
 * ends in the list's order), or reversed (lo after hi in the list's order,
 * which counts nothing).
 */
static inline void rank_window(struct tc_rng *rng, uint64_t *lo, uint64_t *hi,
                               uint64_t first, uint64_t last)
{
    bool asc = first < last;
    switch (tc_below(rng, 6)) {
    case 0:
        *hi = *lo;
        break;
    case 1:
        *lo = first;
        *hi = last;
        break;
    case 2:
        if (asc ? *lo < *hi : *lo > *hi) {
            uint64_t t = *lo;
            *lo = *hi;
            *hi = t;
        }
        break;
    default:
        break;
    }
}

/*
 * The checks by position, against the model's n elements in list order
 * (elem(m, i)): at and rank_of of each, at past the end (n, n + 1,
 * SIZE_MAX), count_range(lo_all, hi_all) (the whole key space, in the
 * list's order) n and reversed 0, iter_at and its steps at both ends and
 * past them, FOREACH_AT from 0 (the whole list) and from n (nothing). buf
 * holds n + 1 pointers. Returns false with the first difference in why.
 */
static inline bool rank_compare_positions(const struct rank_ops *r,
                                          const void *l, const void *m,
                                          size_t n, rank_elem_fn *elem,
                                          uint64_t lo_all, uint64_t hi_all,
                                          void **buf, char *why, size_t len)
{
    for (size_t i = 0; i < n; i++) {
        const void *e = elem(m, i);
        int64_t p = r->rank_of(l, e);
        if (r->at(l, i) != e || p != (int64_t)i) {
            snprintf(why, len, "element %zu: at() %s, rank_of() = %" PRId64, i,
                     r->at(l, i) == e ? "right" : "differs", p);
            return false;
        }
    }
    const size_t past[] = {n, n + 1, SIZE_MAX};
    for (size_t j = 0; j < 3; j++)
        if (r->at(l, past[j]) != NULL) {
            snprintf(why, len, "at(%zu) past the end (count %zu) not NULL",
                     past[j], n);
            return false;
        }
    size_t all = r->count_range(l, lo_all, hi_all);
    size_t none = r->count_range(l, hi_all, lo_all);
    if (all != n || none != 0) {
        snprintf(why, len,
                 "count_range of the whole key space %zu, reversed %zu, "
                 "count %zu",
                 all, none, n);
        return false;
    }
    const size_t at[] = {0, n ? n - 1 : 0, n, n + 1, SIZE_MAX};
    for (size_t j = 0; j < 5; j++) {
        int s = rank_steps_check(r, l, m, n, elem, at[j]);
        if (s >= 0) {
            snprintf(why, len,
                     "iter_at(%zu) (count %zu): result %d of at, get, next, "
                     "prev differs",
                     at[j], n, s);
            return false;
        }
    }
    size_t got = r->foreach_at(l, 0, buf, n + 1);
    for (size_t i = 0; i < got && i < n; i++)
        if (buf[i] != elem(m, i))
            got = SIZE_MAX;
    if (got != n || r->foreach_at(l, n, buf, n + 1) != 0) {
        snprintf(why, len, "FOREACH_AT from 0 or from the end (%zu) differs",
                 n);
        return false;
    }
    return true;
}

#endif /* MODEL_RANK_H */
