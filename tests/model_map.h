/*
 * Reference model for the ordered-index face: a sorted array of element
 * pointers with multimap semantics (an element inserted with insert_multi
 * goes after every equal key). It is deliberately simple so that its answer
 * is obviously right; the skiplist must agree with it on every query and on
 * the full contents, element identity included.
 *
 * Also here: MAP_OPS_DEFINE(name), which wraps one SKIPLIST_DEFINE
 * instantiation over struct map_item into a table of function pointers, so
 * the random, allocation-failure and bad-input drivers are written once and
 * run over every configuration; MAP_RANKED_OPS_DEFINE(name) does the same
 * for a SKIPLIST_RANKED_DEFINE instantiation and adds its order-statistics
 * calls (map_ops.rank, model_rank.h), which mm_rank_compare() checks
 * against the model.
 */
#ifndef MODEL_MAP_H
#define MODEL_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "skiplist.h"
#include "model_rank.h"

/* The element every ordered-index suite stores. */
struct map_item {
    uint64_t key;
    uint32_t id;  /* index in the test's pool, for messages */
    bool in_list; /* maintained by the driver, not by the library */
};

#define MAP_ITEM_KEY(e) ((e)->key)

/* Key accessor as a function, the other form KEY_OF may take. */
static inline uint64_t map_item_key(const struct map_item *e)
{
    return e->key;
}

/* Descending order: catches a library that compares with < instead of
 * calling CMP. */
#define MAP_CMP_DESC(a, b) (((a) < (b)) - ((a) > (b)))

/* ----------------------------------------------------------------- model */

struct model_map {
    struct map_item **v;
    size_t n, cap;
    bool desc; /* order by MAP_CMP_DESC instead of ascending */
};

static inline void mm_init(struct model_map *m, bool desc)
{
    m->v = NULL;
    m->n = m->cap = 0;
    m->desc = desc;
}

static inline void mm_free(struct model_map *m)
{
    free(m->v);
    m->v = NULL;
    m->n = m->cap = 0;
}

static inline int mm_cmp(const struct model_map *m, uint64_t a, uint64_t b)
{
    int c = (a > b) - (a < b);
    return m->desc ? -c : c;
}

/* First index whose key is >= k (in the list's order). */
static inline size_t mm_lower(const struct model_map *m, uint64_t k)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (mm_cmp(m, m->v[mid]->key, k) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* First index whose key is > k. */
static inline size_t mm_upper(const struct model_map *m, uint64_t k)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (mm_cmp(m, m->v[mid]->key, k) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static inline struct map_item *mm_at(const struct model_map *m, size_t i)
{
    return i < m->n ? m->v[i] : NULL;
}

static inline struct map_item *mm_find(const struct model_map *m, uint64_t k)
{
    size_t i = mm_lower(m, k);
    return i < m->n && mm_cmp(m, m->v[i]->key, k) == 0 ? m->v[i] : NULL;
}

static inline struct map_item *mm_lower_bound(const struct model_map *m,
                                              uint64_t k)
{
    return mm_at(m, mm_lower(m, k));
}

static inline struct map_item *mm_upper_bound(const struct model_map *m,
                                              uint64_t k)
{
    return mm_at(m, mm_upper(m, k));
}

/* Last element with key <= k: the last of any run of equal keys. */
static inline struct map_item *mm_floor(const struct model_map *m, uint64_t k)
{
    size_t i = mm_upper(m, k);
    return i ? m->v[i - 1] : NULL;
}

static inline struct map_item *mm_below(const struct model_map *m, uint64_t k)
{
    size_t i = mm_lower(m, k);
    return i ? m->v[i - 1] : NULL;
}

static inline void mm_insert_at(struct model_map *m, size_t i,
                                struct map_item *e)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 64;
        m->v = (struct map_item **)realloc(m->v, m->cap * sizeof(*m->v));
        if (!m->v)
            abort();
    }
    memmove(m->v + i + 1, m->v + i, (m->n - i) * sizeof(*m->v));
    m->v[i] = e;
    m->n++;
}

static inline void mm_remove_at(struct model_map *m, size_t i)
{
    memmove(m->v + i, m->v + i + 1, (m->n - i - 1) * sizeof(*m->v));
    m->n--;
}

/* After every equal key, as insert_multi promises. */
static inline void mm_insert_multi(struct model_map *m, struct map_item *e)
{
    mm_insert_at(m, mm_upper(m, e->key), e);
}

/* Index of element e (by identity), or SIZE_MAX when absent. */
static inline size_t mm_index_of(const struct model_map *m,
                                 const struct map_item *e)
{
    for (size_t i = mm_lower(m, e->key), j = mm_upper(m, e->key); i < j; i++)
        if (m->v[i] == e)
            return i;
    return SIZE_MAX;
}

/* Order statistics: rank(k) is mm_lower(m, k), at(i) is mm_at(m, i), a
 * linked element's position is mm_index_of(m, e). */

/* Elements with lo <= key <= hi in the list's order: 0 when lo > hi. */
static inline size_t mm_count_range(const struct model_map *m, uint64_t lo,
                                    uint64_t hi)
{
    if (mm_cmp(m, lo, hi) > 0)
        return 0;
    return mm_upper(m, hi) - mm_lower(m, lo);
}

/* name_erase_range's share: the elements with lo <= key <= hi in the
 * list's order are [*first, *first + the count); none when lo > hi. */
static inline size_t mm_range(const struct model_map *m, uint64_t lo,
                              uint64_t hi, size_t *first)
{
    *first = mm_lower(m, lo);
    return mm_count_range(m, lo, hi);
}

/* Elements [i, i + cnt) leave. */
static inline void mm_remove_range(struct model_map *m, size_t i, size_t cnt)
{
    memmove(m->v + i, m->v + i + cnt, (m->n - i - cnt) * sizeof(*m->v));
    m->n -= cnt;
}

/* ------------------------------------------------------------ ops table */

/* Starting points for map_ops.walk (MAP_WALK_AT: iter_at(k), ranked
 * instances only; an unranked one starts nowhere). */
enum { MAP_WALK_FIRST, MAP_WALK_LAST, MAP_WALK_SEEK, MAP_WALK_AT };

/* Which FOREACH macro map_ops.loop runs. */
enum { MAP_FE_FWD, MAP_FE_REV, MAP_FE_FROM, MAP_FE_SAFE };

typedef void map_cb_fn(struct map_item *e, void *arg);

struct map_ops {
    const char *label;
    size_t size; /* sizeof(struct name), so drivers can allocate one */
    bool desc;   /* instantiated with MAP_CMP_DESC */
    int (*init)(void *sl, const struct skiplist_allocator *a, uint64_t seed);
    void (*destroy)(void *sl, map_cb_fn *fn, void *arg);
    void (*clear)(void *sl, map_cb_fn *fn, void *arg);
    size_t (*count)(const void *sl);
    bool (*empty)(const void *sl);
    size_t (*bytes)(const void *sl);
    struct map_item *(*find)(const void *sl, uint64_t k);
    struct map_item *(*lower_bound)(const void *sl, uint64_t k);
    struct map_item *(*upper_bound)(const void *sl, uint64_t k);
    struct map_item *(*floor)(const void *sl, uint64_t k);
    struct map_item *(*below)(const void *sl, uint64_t k);
    struct map_item *(*first)(const void *sl);
    struct map_item *(*last)(const void *sl);
    struct map_item *(*pop_first)(void *sl);
    struct map_item *(*pop_last)(void *sl);
    int (*insert)(void *sl, struct map_item *e, struct map_item **existing);
    int (*insert_multi)(void *sl, struct map_item *e);
    int (*erase)(void *sl, struct map_item *e);
    int (*erase_key)(void *sl, uint64_t k, struct map_item **out);
    int (*check)(const void *sl, char *why, size_t len);
    /*
     * Start an iterator (first, last or seek(k)), then step by moves[i]
     * (> 0 next, else prev) until a step returns NULL. Every element seen
     * goes to out[]; returns how many, or SIZE_MAX when iter_get()
     * disagreed with what the step returned.
     */
    size_t (*walk)(const void *sl, int start, uint64_t k,
                   const signed char *moves, size_t nmoves,
                   struct map_item **out);
    /* Run one FOREACH macro into out[] (at most max); MAP_FE_SAFE erases
     * the elements for which (index % erase_mod == erase_rem). */
    size_t (*loop)(void *sl, int which, uint64_t k, size_t erase_mod,
                   size_t erase_rem, struct map_item **out, size_t max);
    const struct rank_ops *rank; /* NULL: not a ranked instance */
};

/* One ops table per instantiation: thin casts, no logic beyond walk and
 * foreach, which exist to reach the iterator types. */
#define MAP_OPS_DEFINE(name, label_, desc_) \
    MAP_OPS_DEFINE_(name, label_, desc_, MAP_NO_ITER_AT, NULL)

/* A SKIPLIST_RANKED_DEFINE instantiation: the same table with walks from a
 * position (MAP_WALK_AT) and map_ops.rank. */
#define MAP_RANKED_OPS_DEFINE(name, label_, desc_)    \
    RANK_OPS_DEFINE(name, struct map_item, uint64_t); \
    MAP_OPS_DEFINE_(name, label_, desc_, name##_iter_at, &name##_rank_ops)

/* An unranked instance's stand-in for iter_at: no element. */
#define MAP_NO_ITER_AT(itp, sl, i) ((void)(itp), (void)(i), NULL)

#define MAP_OPS_DEFINE_(name, label_, desc_, ITER_AT, rank_)                   \
    static int name##_w_init(void *sl, const struct skiplist_allocator *a,     \
                             uint64_t seed)                                    \
    {                                                                          \
        return name##_init((struct name *)sl, a, seed);                        \
    }                                                                          \
    static void name##_w_destroy(void *sl, map_cb_fn *fn, void *arg)           \
    {                                                                          \
        name##_destroy((struct name *)sl, fn, arg);                            \
    }                                                                          \
    static void name##_w_clear(void *sl, map_cb_fn *fn, void *arg)             \
    {                                                                          \
        name##_clear((struct name *)sl, fn, arg);                              \
    }                                                                          \
    static size_t name##_w_count(const void *sl)                               \
    {                                                                          \
        return name##_count((const struct name *)sl);                          \
    }                                                                          \
    static bool name##_w_empty(const void *sl)                                 \
    {                                                                          \
        return name##_empty((const struct name *)sl);                          \
    }                                                                          \
    static size_t name##_w_bytes(const void *sl)                               \
    {                                                                          \
        return name##_bytes((const struct name *)sl);                          \
    }                                                                          \
    static struct map_item *name##_w_find(const void *sl, uint64_t k)          \
    {                                                                          \
        return name##_find((const struct name *)sl, k);                        \
    }                                                                          \
    static struct map_item *name##_w_lower_bound(const void *sl, uint64_t k)   \
    {                                                                          \
        return name##_lower_bound((const struct name *)sl, k);                 \
    }                                                                          \
    static struct map_item *name##_w_upper_bound(const void *sl, uint64_t k)   \
    {                                                                          \
        return name##_upper_bound((const struct name *)sl, k);                 \
    }                                                                          \
    static struct map_item *name##_w_floor(const void *sl, uint64_t k)         \
    {                                                                          \
        return name##_floor((const struct name *)sl, k);                       \
    }                                                                          \
    static struct map_item *name##_w_below(const void *sl, uint64_t k)         \
    {                                                                          \
        return name##_below((const struct name *)sl, k);                       \
    }                                                                          \
    static struct map_item *name##_w_first(const void *sl)                     \
    {                                                                          \
        return name##_first((const struct name *)sl);                          \
    }                                                                          \
    static struct map_item *name##_w_last(const void *sl)                      \
    {                                                                          \
        return name##_last((const struct name *)sl);                           \
    }                                                                          \
    static struct map_item *name##_w_pop_first(void *sl)                       \
    {                                                                          \
        return name##_pop_first((struct name *)sl);                            \
    }                                                                          \
    static struct map_item *name##_w_pop_last(void *sl)                        \
    {                                                                          \
        return name##_pop_last((struct name *)sl);                             \
    }                                                                          \
    static int name##_w_insert(void *sl, struct map_item *e,                   \
                               struct map_item **existing)                     \
    {                                                                          \
        return name##_insert((struct name *)sl, e, existing);                  \
    }                                                                          \
    static int name##_w_insert_multi(void *sl, struct map_item *e)             \
    {                                                                          \
        return name##_insert_multi((struct name *)sl, e);                      \
    }                                                                          \
    static int name##_w_erase(void *sl, struct map_item *e)                    \
    {                                                                          \
        return name##_erase((struct name *)sl, e);                             \
    }                                                                          \
    static int name##_w_erase_key(void *sl, uint64_t k, struct map_item **out) \
    {                                                                          \
        return name##_erase_key((struct name *)sl, k, out);                    \
    }                                                                          \
    static int name##_w_check(const void *sl, char *why, size_t len)           \
    {                                                                          \
        return name##_check((const struct name *)sl, why, len);                \
    }                                                                          \
    static size_t name##_w_walk(const void *sl, int start, uint64_t k,         \
                                const signed char *moves, size_t nmoves,       \
                                struct map_item **out)                         \
    {                                                                          \
        const struct name *l = (const struct name *)sl;                        \
        struct name##_iter it;                                                 \
        struct map_item *e;                                                    \
        size_t n = 0;                                                          \
        if (start == MAP_WALK_FIRST)                                           \
            e = name##_iter_first(&it, l);                                     \
        else if (start == MAP_WALK_LAST)                                       \
            e = name##_iter_last(&it, l);                                      \
        else if (start == MAP_WALK_AT)                                         \
            e = ITER_AT(&it, l, (size_t)k);                                    \
        else                                                                   \
            e = name##_iter_seek(&it, l, k);                                   \
        for (size_t i = 0; e; i++) {                                           \
            if (name##_iter_get(&it) != e)                                     \
                return SIZE_MAX;                                               \
            out[n++] = e;                                                      \
            if (i == nmoves)                                                   \
                break;                                                         \
            e = moves[i] > 0 ? name##_iter_next(&it) : name##_iter_prev(&it);  \
        }                                                                      \
        return n;                                                              \
    }                                                                          \
    static size_t name##_w_foreach(void *sl, int which, uint64_t k,            \
                                   size_t erase_mod, size_t erase_rem,         \
                                   struct map_item **out, size_t max)          \
    {                                                                          \
        struct name *l = (struct name *)sl;                                    \
        struct name##_iter it;                                                 \
        struct map_item *e, *tmp;                                              \
        size_t n = 0;                                                          \
        switch (which) {                                                       \
        case MAP_FE_FWD:                                                       \
            SKIPLIST_FOREACH (name, l, it, e) {                                \
                if (n == max)                                                  \
                    break;                                                     \
                out[n++] = e;                                                  \
            }                                                                  \
            break;                                                             \
        case MAP_FE_REV:                                                       \
            SKIPLIST_FOREACH_REVERSE (name, l, it, e) {                        \
                if (n == max)                                                  \
                    break;                                                     \
                out[n++] = e;                                                  \
            }                                                                  \
            break;                                                             \
        case MAP_FE_FROM:                                                      \
            SKIPLIST_FOREACH_FROM (name, l, it, e, k) {                        \
                if (n == max)                                                  \
                    break;                                                     \
                out[n++] = e;                                                  \
            }                                                                  \
            break;                                                             \
        default:                                                               \
            SKIPLIST_FOREACH_SAFE (name, l, it, e, tmp) {                      \
                if (n == max)                                                  \
                    break;                                                     \
                if (erase_mod && n % erase_mod == erase_rem) {                 \
                    if (name##_erase(l, e) != 0)                               \
                        return SIZE_MAX;                                       \
                    e->in_list = false;                                        \
                }                                                              \
                out[n++] = e;                                                  \
            }                                                                  \
            break;                                                             \
        }                                                                      \
        return n;                                                              \
    }                                                                          \
    static const struct map_ops name##_ops = {                                 \
        label_,                                                                \
        sizeof(struct name),                                                   \
        desc_,                                                                 \
        name##_w_init,                                                         \
        name##_w_destroy,                                                      \
        name##_w_clear,                                                        \
        name##_w_count,                                                        \
        name##_w_empty,                                                        \
        name##_w_bytes,                                                        \
        name##_w_find,                                                         \
        name##_w_lower_bound,                                                  \
        name##_w_upper_bound,                                                  \
        name##_w_floor,                                                        \
        name##_w_below,                                                        \
        name##_w_first,                                                        \
        name##_w_last,                                                         \
        name##_w_pop_first,                                                    \
        name##_w_pop_last,                                                     \
        name##_w_insert,                                                       \
        name##_w_insert_multi,                                                 \
        name##_w_erase,                                                        \
        name##_w_erase_key,                                                    \
        name##_w_check,                                                        \
        name##_w_walk,                                                         \
        name##_w_foreach,                                                      \
        rank_,                                                                 \
    }

/* Model counterpart of map_ops.walk. */
static inline size_t mm_walk(const struct model_map *m, int start, uint64_t k,
                             const signed char *moves, size_t nmoves,
                             struct map_item **out)
{
    size_t i, n = 0;
    if (start == MAP_WALK_FIRST)
        i = 0;
    else if (start == MAP_WALK_LAST)
        i = m->n - 1; /* wraps to SIZE_MAX when empty: out of range */
    else if (start == MAP_WALK_AT)
        i = (size_t)k;
    else
        i = mm_lower(m, k);
    for (size_t s = 0; i < m->n; s++) {
        out[n++] = m->v[i];
        if (s == nmoves)
            break;
        i = moves[s] > 0 ? i + 1 : i - 1;
    }
    return n;
}

static inline const void *mm_elem(const void *m, size_t i)
{
    return ((const struct model_map *)m)->v[i];
}

/*
 * Every order-statistics call of a ranked instance against the model:
 * rank_compare_positions (each element's at and rank_of, its own listing
 * among equal keys; the ends; FOREACH_AT), then rank and count_range of
 * each distinct key. buf holds m->n + 1 pointers. Returns false with the
 * first difference in why.
 */
static inline bool mm_rank_compare_r(const struct rank_ops *r, const void *sl,
                                     const struct model_map *m, void **buf,
                                     char *why, size_t len)
{
    uint64_t lo = m->desc ? UINT64_MAX : 0;
    if (!rank_compare_positions(r, sl, m, m->n, mm_elem, lo, ~lo, buf, why,
                                len))
        return false;
    for (size_t i = 0; i < m->n; i = mm_upper(m, m->v[i]->key)) {
        uint64_t k = m->v[i]->key;
        size_t rk = r->rank(sl, k), c = r->count_range(sl, k, k);
        if (rk != i || c != mm_upper(m, k) - i) {
            snprintf(why, len,
                     "key %" PRIu64 " first at %zu: rank %zu, count_range "
                     "%zu, model %zu",
                     k, i, rk, c, mm_upper(m, k) - i);
            return false;
        }
    }
    return true;
}

/* mm_rank_compare_r of a map_ops table's order-statistics calls. */
static inline bool mm_rank_compare(const struct map_ops *o, const void *sl,
                                   const struct model_map *m, void **buf,
                                   char *why, size_t len)
{
    return mm_rank_compare_r(o->rank, sl, m, buf, why, len);
}

#endif /* MODEL_MAP_H */
