/*
 * Reference model for the extent face, and one interface over every extent
 * instantiation the tests build.
 *
 * The model is a sorted array of extents searched by brute force: slow and
 * obviously right, which is the point of a differential test. Keys are held
 * as uint64_t with an explicit maximum, so one model stands in for both the
 * uint32_t and the uint64_t instantiations, and every bound is kept
 * inclusive (last = start + size - 1) so that nothing in the model itself
 * can wrap.
 *
 * struct xops (defined in tests/test_extent_ops.c, one per instantiation:
 * key type x keys per node, unranked and ranked) lets the unit,
 * differential and allocation tests run one body over every instantiation;
 * a ranked one's order-statistics calls (xops.rank, model_rank.h) are
 * checked against the model by mx_rank_compare().
 */
#ifndef MODEL_EXTENT_H
#define MODEL_EXTENT_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "skiplist.h"
#include "model_rank.h"

struct bulk_ops;

/* ------------------------------------------------------------------ model */

struct mx_ext {
    uint64_t start, last; /* inclusive */
    const void *tag;      /* the element the list holds for this extent */
};

struct model_extent {
    struct mx_ext *v;
    size_t n, cap;
    uint64_t max; /* largest key value: UINT32_MAX or UINT64_MAX */
};

static inline void mx_init(struct model_extent *m, uint64_t max)
{
    m->v = NULL;
    m->n = m->cap = 0;
    m->max = max;
}

static inline void mx_fini(struct model_extent *m)
{
    free(m->v);
    m->v = NULL;
    m->n = m->cap = 0;
}

/* The contract: size > 0 and the last byte start + size - 1 fits K_T. */
static inline bool mx_valid(const struct model_extent *m, uint64_t start,
                            uint64_t size)
{
    return size != 0 && start <= m->max && size - 1 <= m->max - start;
}

static inline bool mx_is_pow2(uint64_t x)
{
    return x != 0 && (x & (x - 1)) == 0;
}

/* Index of the extent overlapping [start, last], lowest first, or n. */
static inline size_t mx_find_overlap(const struct model_extent *m,
                                     uint64_t start, uint64_t last)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->v[i].start <= last && m->v[i].last >= start)
            return i;
    return m->n;
}

/* 0, -EINVAL, -EEXIST (*clash_idx set to some overlapping index). */
static inline int mx_insert(struct model_extent *m, uint64_t start,
                            uint64_t size, const void *tag, size_t *clash_idx)
{
    if (!mx_valid(m, start, size))
        return -EINVAL;
    uint64_t last = start + (size - 1);
    size_t c = mx_find_overlap(m, start, last);
    if (c < m->n) {
        if (clash_idx)
            *clash_idx = c;
        return -EEXIST;
    }
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 64;
        struct mx_ext *v = (struct mx_ext *)realloc(m->v, cap * sizeof(*v));
        if (!v)
            abort(); /* the model is not under test: fail loudly */
        m->v = v;
        m->cap = cap;
    }
    size_t i = 0;
    while (i < m->n && m->v[i].start < start)
        i++;
    memmove(m->v + i + 1, m->v + i, (m->n - i) * sizeof(*m->v));
    m->v[i].start = start;
    m->v[i].last = last;
    m->v[i].tag = tag;
    m->n++;
    return 0;
}

/* A valid extent past every one held goes last (a build's model, in
 * O(1)): 0, or -EINVAL when it is not valid or not past the last. */
static inline int mx_append(struct model_extent *m, uint64_t start,
                            uint64_t size, const void *tag)
{
    if (!mx_valid(m, start, size) || (m->n && m->v[m->n - 1].last >= start))
        return -EINVAL;
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 64;
        struct mx_ext *v = (struct mx_ext *)realloc(m->v, cap * sizeof(*v));
        if (!v)
            abort();
        m->v = v;
        m->cap = cap;
    }
    m->v[m->n].start = start;
    m->v[m->n].last = start + (size - 1);
    m->v[m->n++].tag = tag;
    return 0;
}

static inline size_t mx_index_of(const struct model_extent *m, const void *tag)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->v[i].tag == tag)
            return i;
    return m->n;
}

static inline int mx_erase(struct model_extent *m, const void *tag)
{
    size_t i = mx_index_of(m, tag);
    if (i == m->n)
        return -ENOENT;
    memmove(m->v + i, m->v + i + 1, (m->n - i - 1) * sizeof(*m->v));
    m->n--;
    return 0;
}

static inline const void *mx_lookup(const struct model_extent *m,
                                    uint64_t point)
{
    size_t i = mx_find_overlap(m, point, point);
    return i < m->n ? m->v[i].tag : NULL;
}

/* First extent overlapping [a, b): 0 and *tag, -ENOENT, -EINVAL (a >= b). */
static inline int mx_first_overlap(const struct model_extent *m, uint64_t a,
                                   uint64_t b, const void **tag)
{
    if (a >= b)
        return -EINVAL;
    size_t i = mx_find_overlap(m, a, b - 1);
    if (i == m->n)
        return -ENOENT;
    *tag = m->v[i].tag;
    return 0;
}

/* Order statistics: an extent's rank is its place in start order. */

/* Extents starting before k. */
static inline size_t mx_rank(const struct model_extent *m, uint64_t k)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->v[mid].start < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Extents overlapping the closed range [lo, hi]; 0 when lo > hi. The
 * extents are disjoint: those starting in [lo, hi], and the one before
 * them when it reaches lo. */
static inline size_t mx_count_range(const struct model_extent *m, uint64_t lo,
                                    uint64_t hi)
{
    if (lo > hi)
        return 0;
    size_t a = mx_rank(m, lo), b = hi == m->max ? m->n : mx_rank(m, hi + 1);
    return b - a + (size_t)(a && m->v[a - 1].last >= lo);
}

/* The extents overlapping the closed range [lo, hi] (none when lo > hi):
 * [*first, *first + the count), as name_erase_range takes them. */
static inline size_t mx_range(const struct model_extent *m, uint64_t lo,
                              uint64_t hi, size_t *first)
{
    size_t a = mx_rank(m, lo);
    *first = a && m->v[a - 1].last >= lo ? a - 1 : a;
    return mx_count_range(m, lo, hi);
}

/* Extents [i, i + cnt) leave. */
static inline void mx_remove_range(struct model_extent *m, size_t i, size_t cnt)
{
    memmove(m->v + i, m->v + i + cnt, (m->n - i - cnt) * sizeof(*m->v));
    m->n -= cnt;
}

/* The extent starting at key (name_find), or NULL. */
static inline const void *mx_find_start(const struct model_extent *m,
                                        uint64_t key)
{
    size_t i = mx_rank(m, key);
    return i < m->n && m->v[i].start == key ? m->v[i].tag : NULL;
}

/* The first extent starting at or after key (name_lower_bound), or NULL. */
static inline const void *mx_lower_start(const struct model_extent *m,
                                         uint64_t key)
{
    size_t i = mx_rank(m, key);
    return i < m->n ? m->v[i].tag : NULL;
}

static inline const void *mx_elem(const void *m, size_t i)
{
    return ((const struct model_extent *)m)->v[i].tag;
}

/*
 * insert_hole by enumeration of the free gaps, lowest gap first: the lowest
 * aligned start is the first fit met, the highest is the last one. Returns
 * 0 with *start set, -EINVAL or -ENOSPC; does not insert.
 */
static inline int mx_hole(const struct model_extent *m, uint64_t size,
                          uint64_t align, uint64_t lo, uint64_t hi,
                          bool highest, uint64_t *start)
{
    if (size == 0 || !mx_is_pow2(align) || lo > hi || hi > m->max ||
        align > m->max)
        return -EINVAL;
    uint64_t mask = align - 1;
    bool found = false;
    for (size_t gi = 0; gi <= m->n; gi++) {
        uint64_t g0, g1; /* free gap, inclusive */
        if (gi == 0) {
            g0 = 0;
        } else {
            if (m->v[gi - 1].last == m->max)
                continue;
            g0 = m->v[gi - 1].last + 1;
        }
        if (gi == m->n) {
            g1 = m->max;
        } else {
            if (m->v[gi].start == 0)
                continue;
            g1 = m->v[gi].start - 1;
        }
        if (g0 > g1)
            continue;
        if (g0 < lo)
            g0 = lo;
        if (g1 > hi)
            g1 = hi;
        if (g0 > g1 || g1 - g0 < size - 1)
            continue;
        if (highest) {
            uint64_t s = (g1 - (size - 1)) & ~mask;
            if (s >= g0) {
                *start = s;
                found = true; /* keep going: a higher gap may fit too */
            }
        } else {
            if (g0 > m->max - mask)
                continue; /* rounding up would wrap */
            uint64_t s = (g0 + mask) & ~mask;
            if (s <= g1 && g1 - s >= size - 1) {
                *start = s;
                return 0;
            }
        }
    }
    return found ? 0 : -ENOSPC;
}

/*
 * A walk of the list compared with the model as it goes: pass mx_walk_next
 * (every extent, in direction dir) or mx_walk_overlap (the extents meeting
 * [lo, hi], in order) as the list's visit callback, with a struct mx_walk
 * as its context. It stops at the first element that is not the model's
 * next (bad); i counts the model's extents passed.
 */
struct mx_walk {
    const struct model_extent *m;
    size_t i; /* next model index to match */
    uint64_t lo, hi;
    int dir;
    bool bad;
};

static inline bool mx_walk_next(void *ctx, void *e)
{
    struct mx_walk *c = (struct mx_walk *)ctx;
    size_t at = c->dir > 0 ? c->i : c->m->n - 1 - c->i;
    if (c->i >= c->m->n || c->m->v[at].tag != e)
        c->bad = true;
    c->i++;
    return !c->bad;
}

static inline bool mx_walk_overlap(void *ctx, void *e)
{
    struct mx_walk *c = (struct mx_walk *)ctx;
    while (c->i < c->m->n &&
           !(c->m->v[c->i].start <= c->hi && c->m->v[c->i].last >= c->lo))
        c->i++;
    if (c->i >= c->m->n || c->m->v[c->i].tag != e)
        c->bad = true;
    c->i++;
    return !c->bad;
}

/* ------------------------------------------- one interface, many lists */

/*
 * Thin adapters over one instantiation. Elements are opaque (void *) and
 * made by new_elem; keys cross as uint64_t (callers keep them <= max).
 */
struct xops {
    const char *label; /* e.g. "u32/k4" */
    uint64_t max;      /* maximum of K_T */
    size_t list_size;  /* sizeof(struct name), for byte-wise snapshots */
    void *(*new_list)(const struct skiplist_allocator *a, uint64_t seed,
                      int *err);
    void (*del_list)(void *l);
    void *(*new_elem)(uint64_t start, uint64_t size);
    void (*set)(void *e, uint64_t start, uint64_t size);
    uint64_t (*start)(const void *e);
    uint64_t (*size)(const void *e);
    int (*insert)(void *l, void *e, void **clash);
    int (*erase)(void *l, void *e);
    void *(*lookup)(const void *l, uint64_t point);
    int (*first_overlap)(const void *l, uint64_t a, uint64_t b, void **out);
    /* every extent overlapping [a, b) through FOREACH_OVERLAP, in order */
    size_t (*overlaps)(const void *l, uint64_t a, uint64_t b, void **out,
                       size_t max);
    /* the same through iter_overlap / iter_next_overlap by hand */
    size_t (*overlaps_iter)(const void *l, uint64_t a, uint64_t b, void **out,
                            size_t max);
    int (*hole)(void *l, void *e, uint64_t size, uint64_t align, uint64_t lo,
                uint64_t hi, int flags);
    void *(*first)(const void *l);
    void *(*last)(const void *l);
    void *(*find)(const void *l, uint64_t key);
    size_t (*count)(const void *l);
    /* every element in order (FOREACH) and in reverse (FOREACH_REVERSE) */
    size_t (*walk)(const void *l, void **out, size_t max);
    size_t (*walk_rev)(const void *l, void **out, size_t max);
    int (*check)(const void *l, char *why, size_t len);
    size_t (*bytes)(const void *l);
    const struct rank_ops *rank; /* NULL: not a ranked instance */
    const struct bulk_ops *bulk; /* name_build and co. (model_bulk.h) */
};

/*
 * Every order-statistics call of a ranked instance against the model:
 * rank_compare_positions, then for each extent rank of its start and of
 * the point after its last byte, and count_range of [start, last] (itself)
 * and of [last, the next start] (itself and the next). buf holds m->n + 1
 * pointers. Returns false with the first difference in why.
 */
static inline bool mx_rank_compare(const struct xops *o, const void *l,
                                   const struct model_extent *m, void **buf,
                                   char *why, size_t len)
{
    const struct rank_ops *r = o->rank;
    if (!rank_compare_positions(r, l, m, m->n, mx_elem, 0, m->max, buf, why,
                                len))
        return false;
    for (size_t i = 0; i < m->n; i++) {
        const struct mx_ext *x = &m->v[i];
        uint64_t after = x->last < m->max ? x->last + 1 : x->last;
        uint64_t next = i + 1 < m->n ? m->v[i + 1].start : m->max;
        size_t got[4] = {r->rank(l, x->start), r->rank(l, after),
                         r->count_range(l, x->start, x->last),
                         r->count_range(l, x->last, next)};
        size_t want[4] = {mx_rank(m, x->start), mx_rank(m, after),
                          mx_count_range(m, x->start, x->last),
                          mx_count_range(m, x->last, next)};
        for (int k = 0; k < 4; k++)
            if (got[k] != want[k]) {
                snprintf(why, len,
                         "extent %zu [%#" PRIx64 ", %#" PRIx64 "]: %s = %zu, "
                         "model %zu",
                         i, x->start, x->last,
                         k == 0   ? "rank(start)"
                         : k == 1 ? "rank(last + 1)"
                         : k == 2 ? "count_range(start, last)"
                                  : "count_range(last, next start)",
                         got[k], want[k]);
                return false;
            }
    }
    return true;
}

/* Every instantiation, in tests/test_extent_ops.c. */
extern const struct xops *const xops_all[];
extern const size_t xops_count;

#endif /* MODEL_EXTENT_H */
