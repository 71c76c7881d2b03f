/*
 * Small lists (issue 28): the 48-byte head, the list that owns no memory
 * until its first insert, and the sole leaf that grows from one slot (a
 * group of 8 for a queue whose leaves keep a tombstone bitmap) to KPN
 * before the list splits into full-size leaves.
 *
 * Every face (ordered index, extent index, priority queue) runs at the
 * default KPN (64), at odd ones (5; 24 for a map with 4-byte keys and for
 * a bitmap queue; 100 for a queue: tombstones in a leaf that is still
 * growing) and at KPN 1:
 *   - an unwritten list: sizeof, name_bytes() == 0 and check() after init
 *     and after every call that fails or finds nothing, and the instance's
 *     shared empty head left intact by the lists that were written;
 *   - growth and shrink through n = 0, 1, 2, KPN-1, KPN, KPN+1, 2*KPN+1
 *     and every n where a growing leaf is full or has just doubled,
 *     inserting and erasing in ascending, descending and random order,
 *     compared after every call with a sorted array (both directions of
 *     every iterator, the searches, the face's own queries, check());
 *     FOREACH_SAFE erasing through the same sizes; queues pushed, popped,
 *     removed and requeued through them; a random walk up and down;
 *   - bytes that grow geometrically while the list is one leaf, small
 *     leaves that come from the allocator's level 2, and a clear that
 *     keeps only the bookkeeping block;
 *   - allocation failure at every allocation of every insert, push,
 *     insert_hole and requeue through n = 0 .. 2*KPN+2: -ENOMEM, and the
 *     contents, count, check(), name_bytes() and the allocator's live
 *     blocks exactly as before; init failing; nothing leaks.
 * Random runs print their seed; SEED=<n> replays them.
 *
 * Two suites, one file, one set of instances and one ops table (a table
 * of every face's instances, sm_all, and one driver, sm_each, for the
 * tests run face by face): small_lists:: above, and small:: at the end,
 * the suite of tests/test_small.c (written apart on the same ground:
 * the 48-byte head, the unwritten list, growth and shrink through KPN,
 * -ENOMEM at each growth step, a requeue in a full first leaf, check()'s
 * view of a leaf's room), now on this file's instances.
 */
#include <criterion/criterion.h>
#include <stdarg.h>

#include "test_common.h"

/* ------------------------------------------------------------ instances */

/* One element type for every face: the key is the map's and the queue's
 * key and the extent's start. */
struct sm_elem {
    uint64_t key;
    uint64_t size; /* extent face */
    struct skiplist_hook hook;
    uint32_t id; /* index in the test's pool, for messages */
    bool in;     /* in the model (maintained by the test) */
};

#define SM_KEY(e) ((e)->key)
#define SM_KEY32(e) ((uint32_t)(e)->key)

SKIPLIST_DEFINE(sm_m64, struct sm_elem, uint64_t, SM_KEY, SKIPLIST_CMP_NUM,
                SKIPLIST_DEFAULTS)
SKIPLIST_DEFINE(sm_m5, struct sm_elem, uint64_t, SM_KEY, SKIPLIST_CMP_NUM, 5, 4,
                1)
SKIPLIST_DEFINE(sm_m1, struct sm_elem, uint64_t, SM_KEY, SKIPLIST_CMP_NUM, 1,
                32, 1)
/* 4-byte keys: key arrays whose size is rounded up at odd caps. */
SKIPLIST_DEFINE(sm_m24w, struct sm_elem, uint32_t, SM_KEY32, SKIPLIST_CMP_NUM,
                24, 8, 2)
SKIPLIST_EXTENT_DEFINE(sm_x64, struct sm_elem, uint64_t, key, size,
                       SKIPLIST_DEFAULTS)
SKIPLIST_EXTENT_DEFINE(sm_x5, struct sm_elem, uint64_t, key, size, 5, 4, 1)
SKIPLIST_EXTENT_DEFINE(sm_x1, struct sm_elem, uint64_t, key, size, 1, 32, 1)
SKIPLIST_PQ_DEFINE(sm_q64, struct sm_elem, uint64_t, SM_KEY, SKIPLIST_CMP_NUM,
                   hook, SKIPLIST_PQ_DEFAULTS)
/* A bitmap queue whose KPN is no power of two: caps 8, 16, 24. */
SKIPLIST_PQ_DEFINE(sm_q24, struct sm_elem, uint64_t, SM_KEY, SKIPLIST_CMP_NUM,
                   hook, 24, 8, 2)
SKIPLIST_PQ_DEFINE(sm_q5, struct sm_elem, uint64_t, SM_KEY, SKIPLIST_CMP_NUM,
                   hook, 5, 4, 1)
SKIPLIST_PQ_DEFINE(sm_q1, struct sm_elem, uint64_t, SM_KEY, SKIPLIST_CMP_NUM,
                   hook, 1, 32, 1)
/* No bitmap (KPN > 64): the growing leaf reaches 64 slots, where removals
 * from the middle of a window leave tombstones, before it grows to 100. */
SKIPLIST_PQ_DEFINE(sm_q100, struct sm_elem, uint64_t, SM_KEY, SKIPLIST_CMP_NUM,
                   hook, 100, 24, 5)

/* ------------------------------------------------------------ ops table */

enum sm_face { SM_MAP, SM_EXTENT, SM_QUEUE };

/* How sm_ops.walk walks: the three FOREACH loops, and the iterator
 * functions by hand (iter_get checked at every step). */
enum { SM_W_FWD, SM_W_REV, SM_W_FROM, SM_W_NEXT, SM_W_PREV };

typedef void sm_cb_fn(struct sm_elem *e, void *arg);

struct sm_ops {
    const char *label;
    enum sm_face face;
    unsigned kpn;
    size_t head_size; /* sizeof(struct name) */
    size_t key_size;  /* sizeof(K_T) */
    uint64_t key_max; /* the key type's maximum */
    int (*init)(void *sl, const struct skiplist_allocator *a, uint64_t seed);
    void (*destroy)(void *sl, sm_cb_fn *fn, void *arg);
    void (*clear)(void *sl, sm_cb_fn *fn, void *arg);
    size_t (*count)(const void *sl);
    bool (*empty)(const void *sl);
    size_t (*bytes)(const void *sl);
    int (*check)(const void *sl, char *why, size_t len);
    struct sm_elem *(*find)(const void *sl, uint64_t k);
    struct sm_elem *(*lower_bound)(const void *sl, uint64_t k);
    struct sm_elem *(*upper_bound)(const void *sl, uint64_t k);
    struct sm_elem *(*floor)(const void *sl, uint64_t k);
    struct sm_elem *(*below)(const void *sl, uint64_t k);
    struct sm_elem *(*first)(const void *sl);
    struct sm_elem *(*last)(const void *sl);
    /* Elements in the order of the walk into out[0..max); SIZE_MAX when
     * there were more, or iter_get disagreed with a step. */
    size_t (*walk)(const void *sl, int how, uint64_t k, struct sm_elem **out,
                   size_t max);
    /* FOREACH_SAFE, erasing (queue: removing) the visits whose number is
     * rem modulo mod; SIZE_MAX when an erase failed. */
    size_t (*safe)(void *sl, size_t mod, size_t rem, struct sm_elem **out,
                   size_t max);
    /* insert (map, extent: *clash when not NULL) or push (queue) */
    int (*add)(void *sl, struct sm_elem *e, struct sm_elem **clash);
    /* erase (map, extent) or remove (queue) */
    int (*del)(void *sl, struct sm_elem *e);
    struct sm_elem *(*pop_first)(void *sl); /* queue: pop */
    struct sm_elem *(*pop_last)(void *sl);  /* NULL for a queue */
    /* map face */
    int (*erase_key)(void *sl, uint64_t k, struct sm_elem **out);
    int (*insert_multi)(void *sl, struct sm_elem *e);
    /* extent face */
    struct sm_elem *(*lookup)(const void *sl, uint64_t point);
    int (*first_overlap)(const void *sl, uint64_t lo, uint64_t hi,
                         struct sm_elem **out);
    int (*insert_hole)(void *sl, struct sm_elem *e, uint64_t align, uint64_t lo,
                       uint64_t hi, int flags);
    size_t (*overlap)(const void *sl, uint64_t lo, uint64_t hi,
                      struct sm_elem **out, size_t max);
    /* queue face */
    int (*requeue)(void *sl, struct sm_elem *e);
    struct sm_elem *(*peek)(const void *sl);
    bool (*queued)(const struct sm_elem *e);
    bool (*queued_in)(const void *sl, const struct sm_elem *e);
};

/* Every face's wrappers; DEL erases (queue: removes) for FOREACH_SAFE. */
#define SM_COMMON(name, K_T, DEL)                                              \
    static int name##_o_init(void *sl, const struct skiplist_allocator *a,     \
                             uint64_t seed)                                    \
    {                                                                          \
        return name##_init((struct name *)sl, a, seed);                        \
    }                                                                          \
    static void name##_o_destroy(void *sl, sm_cb_fn *fn, void *arg)            \
    {                                                                          \
        name##_destroy((struct name *)sl, fn, arg);                            \
    }                                                                          \
    static void name##_o_clear(void *sl, sm_cb_fn *fn, void *arg)              \
    {                                                                          \
        name##_clear((struct name *)sl, fn, arg);                              \
    }                                                                          \
    static size_t name##_o_count(const void *sl)                               \
    {                                                                          \
        return name##_count((const struct name *)sl);                          \
    }                                                                          \
    static bool name##_o_empty(const void *sl)                                 \
    {                                                                          \
        return name##_empty((const struct name *)sl);                          \
    }                                                                          \
    static size_t name##_o_bytes(const void *sl)                               \
    {                                                                          \
        return name##_bytes((const struct name *)sl);                          \
    }                                                                          \
    static int name##_o_check(const void *sl, char *why, size_t len)           \
    {                                                                          \
        return name##_check((const struct name *)sl, why, len);                \
    }                                                                          \
    static struct sm_elem *name##_o_find(const void *sl, uint64_t k)           \
    {                                                                          \
        return name##_find((const struct name *)sl, (K_T)k);                   \
    }                                                                          \
    static struct sm_elem *name##_o_lower_bound(const void *sl, uint64_t k)    \
    {                                                                          \
        return name##_lower_bound((const struct name *)sl, (K_T)k);            \
    }                                                                          \
    static struct sm_elem *name##_o_upper_bound(const void *sl, uint64_t k)    \
    {                                                                          \
        return name##_upper_bound((const struct name *)sl, (K_T)k);            \
    }                                                                          \
    static struct sm_elem *name##_o_floor(const void *sl, uint64_t k)          \
    {                                                                          \
        return name##_floor((const struct name *)sl, (K_T)k);                  \
    }                                                                          \
    static struct sm_elem *name##_o_below(const void *sl, uint64_t k)          \
    {                                                                          \
        return name##_below((const struct name *)sl, (K_T)k);                  \
    }                                                                          \
    static struct sm_elem *name##_o_first(const void *sl)                      \
    {                                                                          \
        return name##_first((const struct name *)sl);                          \
    }                                                                          \
    static struct sm_elem *name##_o_last(const void *sl)                       \
    {                                                                          \
        return name##_last((const struct name *)sl);                           \
    }                                                                          \
    static size_t name##_o_walk(const void *sl, int how, uint64_t k,           \
                                struct sm_elem **out, size_t max)              \
    {                                                                          \
        const struct name *l = (const struct name *)sl;                        \
        struct name##_iter it;                                                 \
        struct sm_elem *e;                                                     \
        size_t n = 0;                                                          \
        switch (how) {                                                         \
        case SM_W_FWD:                                                         \
            SKIPLIST_FOREACH (name, l, it, e) {                                \
                if (n == max)                                                  \
                    return SIZE_MAX;                                           \
                out[n++] = e;                                                  \
            }                                                                  \
            break;                                                             \
        case SM_W_REV:                                                         \
            SKIPLIST_FOREACH_REVERSE (name, l, it, e) {                        \
                if (n == max)                                                  \
                    return SIZE_MAX;                                           \
                out[n++] = e;                                                  \
            }                                                                  \
            break;                                                             \
        case SM_W_FROM:                                                        \
            SKIPLIST_FOREACH_FROM (name, l, it, e, (K_T)k) {                   \
                if (n == max)                                                  \
                    return SIZE_MAX;                                           \
                out[n++] = e;                                                  \
            }                                                                  \
            break;                                                             \
        case SM_W_NEXT:                                                        \
            for (e = name##_iter_first(&it, l); e;                             \
                 e = name##_iter_next(&it)) {                                  \
                if (n == max || name##_iter_get(&it) != e)                     \
                    return SIZE_MAX;                                           \
                out[n++] = e;                                                  \
            }                                                                  \
            break;                                                             \
        default:                                                               \
            for (e = name##_iter_last(&it, l); e; e = name##_iter_prev(&it)) { \
                if (n == max || name##_iter_get(&it) != e)                     \
                    return SIZE_MAX;                                           \
                out[n++] = e;                                                  \
            }                                                                  \
            break;                                                             \
        }                                                                      \
        return n;                                                              \
    }                                                                          \
    static size_t name##_o_safe(void *sl, size_t mod, size_t rem,              \
                                struct sm_elem **out, size_t max)              \
    {                                                                          \
        struct name *l = (struct name *)sl;                                    \
        struct name##_iter it;                                                 \
        struct sm_elem *e, *tmp;                                               \
        size_t n = 0;                                                          \
        SKIPLIST_FOREACH_SAFE (name, l, it, e, tmp) {                          \
            if (n == max)                                                      \
                return SIZE_MAX;                                               \
            if (mod && n % mod == rem && DEL(l, e) != 0)                       \
                return SIZE_MAX;                                               \
            out[n++] = e;                                                      \
        }                                                                      \
        return n;                                                              \
    }

#define SM_COMMON_FIELDS(name, K_T, kpn_)                                      \
    .kpn = (kpn_), .head_size = sizeof(struct name), .key_size = sizeof(K_T),  \
    .key_max = (uint64_t)(K_T)-1, .init = name##_o_init,                       \
    .destroy = name##_o_destroy, .clear = name##_o_clear,                      \
    .count = name##_o_count, .empty = name##_o_empty, .bytes = name##_o_bytes, \
    .check = name##_o_check, .find = name##_o_find,                            \
    .lower_bound = name##_o_lower_bound, .upper_bound = name##_o_upper_bound,  \
    .floor = name##_o_floor, .below = name##_o_below, .first = name##_o_first, \
    .last = name##_o_last, .walk = name##_o_walk, .safe = name##_o_safe

#define SM_MAP_OPS(name, K_T, kpn_)                                           \
    SM_COMMON(name, K_T, name##_erase)                                        \
    static int name##_o_add(void *sl, struct sm_elem *e,                      \
                            struct sm_elem **clash)                           \
    {                                                                         \
        return name##_insert((struct name *)sl, e, clash);                    \
    }                                                                         \
    static int name##_o_del(void *sl, struct sm_elem *e)                      \
    {                                                                         \
        return name##_erase((struct name *)sl, e);                            \
    }                                                                         \
    static struct sm_elem *name##_o_pop_first(void *sl)                       \
    {                                                                         \
        return name##_pop_first((struct name *)sl);                           \
    }                                                                         \
    static struct sm_elem *name##_o_pop_last(void *sl)                        \
    {                                                                         \
        return name##_pop_last((struct name *)sl);                            \
    }                                                                         \
    static int name##_o_erase_key(void *sl, uint64_t k, struct sm_elem **out) \
    {                                                                         \
        return name##_erase_key((struct name *)sl, (K_T)k, out);              \
    }                                                                         \
    static int name##_o_insert_multi(void *sl, struct sm_elem *e)             \
    {                                                                         \
        return name##_insert_multi((struct name *)sl, e);                     \
    }                                                                         \
    static const struct sm_ops name##_ops = {                                 \
        .label = #name,                                                       \
        .face = SM_MAP,                                                       \
        SM_COMMON_FIELDS(name, K_T, kpn_),                                    \
        .add = name##_o_add,                                                  \
        .del = name##_o_del,                                                  \
        .pop_first = name##_o_pop_first,                                      \
        .pop_last = name##_o_pop_last,                                        \
        .erase_key = name##_o_erase_key,                                      \
        .insert_multi = name##_o_insert_multi,                                \
    };

#define SM_EXTENT_OPS(name, kpn_)                                              \
    SM_COMMON(name, uint64_t, name##_erase)                                    \
    static int name##_o_add(void *sl, struct sm_elem *e,                       \
                            struct sm_elem **clash)                            \
    {                                                                          \
        return name##_insert((struct name *)sl, e, clash);                     \
    }                                                                          \
    static int name##_o_del(void *sl, struct sm_elem *e)                       \
    {                                                                          \
        return name##_erase((struct name *)sl, e);                             \
    }                                                                          \
    static struct sm_elem *name##_o_pop_first(void *sl)                        \
    {                                                                          \
        return name##_pop_first((struct name *)sl);                            \
    }                                                                          \
    static struct sm_elem *name##_o_pop_last(void *sl)                         \
    {                                                                          \
        return name##_pop_last((struct name *)sl);                             \
    }                                                                          \
    static struct sm_elem *name##_o_lookup(const void *sl, uint64_t p)         \
    {                                                                          \
        return name##_lookup((const struct name *)sl, p);                      \
    }                                                                          \
    static int name##_o_first_overlap(const void *sl, uint64_t lo,             \
                                      uint64_t hi, struct sm_elem **out)       \
    {                                                                          \
        return name##_first_overlap((const struct name *)sl, lo, hi, out);     \
    }                                                                          \
    static int name##_o_insert_hole(void *sl, struct sm_elem *e,               \
                                    uint64_t align, uint64_t lo, uint64_t hi,  \
                                    int flags)                                 \
    {                                                                          \
        return name##_insert_hole((struct name *)sl, e, align, lo, hi, flags); \
    }                                                                          \
    static size_t name##_o_overlap(const void *sl, uint64_t lo, uint64_t hi,   \
                                   struct sm_elem **out, size_t max)           \
    {                                                                          \
        const struct name *l = (const struct name *)sl;                        \
        struct name##_iter it;                                                 \
        struct sm_elem *e;                                                     \
        size_t n = 0;                                                          \
        SKIPLIST_FOREACH_OVERLAP (name, l, it, e, lo, hi) {                    \
            if (n == max)                                                      \
                return SIZE_MAX;                                               \
            out[n++] = e;                                                      \
        }                                                                      \
        return n;                                                              \
    }                                                                          \
    static const struct sm_ops name##_ops = {                                  \
        .label = #name,                                                        \
        .face = SM_EXTENT,                                                     \
        SM_COMMON_FIELDS(name, uint64_t, kpn_),                                \
        .add = name##_o_add,                                                   \
        .del = name##_o_del,                                                   \
        .pop_first = name##_o_pop_first,                                       \
        .pop_last = name##_o_pop_last,                                         \
        .lookup = name##_o_lookup,                                             \
        .first_overlap = name##_o_first_overlap,                               \
        .insert_hole = name##_o_insert_hole,                                   \
        .overlap = name##_o_overlap,                                           \
    };

#define SM_QUEUE_OPS(name, kpn_)                                            \
    SM_COMMON(name, uint64_t, name##_remove)                                \
    static int name##_o_add(void *sl, struct sm_elem *e,                    \
                            struct sm_elem **clash)                         \
    {                                                                       \
        if (clash)                                                          \
            *clash = NULL;                                                  \
        return name##_push((struct name *)sl, e);                           \
    }                                                                       \
    static int name##_o_del(void *sl, struct sm_elem *e)                    \
    {                                                                       \
        return name##_remove((struct name *)sl, e);                         \
    }                                                                       \
    static struct sm_elem *name##_o_pop_first(void *sl)                     \
    {                                                                       \
        return name##_pop((struct name *)sl);                               \
    }                                                                       \
    static int name##_o_requeue(void *sl, struct sm_elem *e)                \
    {                                                                       \
        return name##_requeue((struct name *)sl, e);                        \
    }                                                                       \
    static struct sm_elem *name##_o_peek(const void *sl)                    \
    {                                                                       \
        return name##_peek((const struct name *)sl);                        \
    }                                                                       \
    static bool name##_o_queued(const struct sm_elem *e)                    \
    {                                                                       \
        return name##_queued(e);                                            \
    }                                                                       \
    static bool name##_o_queued_in(const void *sl, const struct sm_elem *e) \
    {                                                                       \
        return name##_queued_in((const struct name *)sl, e);                \
    }                                                                       \
    static const struct sm_ops name##_ops = {                               \
        .label = #name,                                                     \
        .face = SM_QUEUE,                                                   \
        SM_COMMON_FIELDS(name, uint64_t, kpn_),                             \
        .add = name##_o_add,                                                \
        .del = name##_o_del,                                                \
        .pop_first = name##_o_pop_first,                                    \
        .requeue = name##_o_requeue,                                        \
        .peek = name##_o_peek,                                              \
        .queued = name##_o_queued,                                          \
        .queued_in = name##_o_queued_in,                                    \
    };

SM_MAP_OPS(sm_m64, uint64_t, 64)
SM_MAP_OPS(sm_m5, uint64_t, 5)
SM_MAP_OPS(sm_m1, uint64_t, 1)
SM_MAP_OPS(sm_m24w, uint32_t, 24)
SM_EXTENT_OPS(sm_x64, 64)
SM_EXTENT_OPS(sm_x5, 5)
SM_EXTENT_OPS(sm_x1, 1)
SM_QUEUE_OPS(sm_q64, 64)
SM_QUEUE_OPS(sm_q24, 24)
SM_QUEUE_OPS(sm_q5, 5)
SM_QUEUE_OPS(sm_q1, 1)
SM_QUEUE_OPS(sm_q100, 100)

/* The face table: every instance, maps, extents, then queues. */
static const struct sm_ops *const sm_all[] = {
    &sm_m64_ops, &sm_m5_ops, &sm_m1_ops, &sm_m24w_ops,
    &sm_x64_ops, &sm_x5_ops, &sm_x1_ops, &sm_q64_ops,
    &sm_q24_ops, &sm_q5_ops, &sm_q1_ops, &sm_q100_ops};

#define SM_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* The one driver of the tests run face by face: fn(o, arg) for every
 * instance of face f in the table. */
static void sm_each(enum sm_face f, void (*fn)(const struct sm_ops *, void *),
                    void *arg)
{
    for (size_t i = 0; i < SM_LEN(sm_all); i++)
        if (sm_all[i]->face == f)
            fn(sm_all[i], arg);
}

/* sm_each with the test's seed (SEED=<n> replays it) as arg, and no leak
 * at the end. */
static void sm_each_seeded(enum sm_face f, const char *name,
                           void (*fn)(const struct sm_ops *, void *))
{
    uint64_t seed = tc_seed(name);
    sm_each(f, fn, &seed);
    cr_assert(tc_no_leaks(), "LeakSanitizer found a leak");
}

/* -------------------------------------------------------------- model */

/* The most elements a test holds at once (2 * 100 + 3) and a pool with
 * room to spare for the random walks. */
enum { SM_POOL = 512 };

/* Sorted by key, FIFO among equal keys (the queue's order; the map's and
 * the extent's keys are unique). */
struct sm_model {
    struct sm_elem *v[SM_POOL];
    size_t n;
};

static size_t sm_lower(const struct sm_model *m, uint64_t k)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->v[mid]->key < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static size_t sm_upper(const struct sm_model *m, uint64_t k)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->v[mid]->key <= k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static struct sm_elem *sm_at(const struct sm_model *m, size_t i)
{
    return i < m->n ? m->v[i] : NULL;
}

/* After every equal key. */
static void sm_put(struct sm_model *m, struct sm_elem *e)
{
    cr_assert_lt(m->n, (size_t)SM_POOL);
    size_t i = sm_upper(m, e->key);
    memmove(m->v + i + 1, m->v + i, (m->n - i) * sizeof(m->v[0]));
    m->v[i] = e;
    m->n++;
    e->in = true;
}

/* By identity: a requeue changes e's key before e leaves its place. */
static void sm_take(struct sm_model *m, struct sm_elem *e)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->v[i] == e) {
            memmove(m->v + i, m->v + i + 1, (m->n - i - 1) * sizeof(m->v[0]));
            m->n--;
            e->in = false;
            return;
        }
    cr_assert_fail("model: element %u is not in the model", e->id);
}

/* The extent holding point p, or NULL. */
static struct sm_elem *sm_holding(const struct sm_model *m, uint64_t p)
{
    size_t i = sm_upper(m, p);
    if (i == 0)
        return NULL;
    struct sm_elem *e = m->v[i - 1];
    return p - e->key < e->size ? e : NULL;
}

/* The lowest extent overlapping [lo, hi], or NULL. */
static struct sm_elem *sm_overlapping(const struct sm_model *m, uint64_t lo,
                                      uint64_t hi)
{
    for (size_t i = 0; i < m->n; i++) {
        struct sm_elem *e = m->v[i];
        if (e->key <= hi && e->key + (e->size - 1) >= lo)
            return e;
    }
    return NULL;
}

/* ------------------------------------------------------------ context */

/* What every check needs, and the step it runs at (for messages). */
struct sm_ctx {
    const struct sm_ops *o;
    struct sm_elem *pool; /* queue: queued() is checked over it */
    size_t npool;
    char what[200];
};

#define SMA(c, cond, fmt, ...) \
    cr_assert((cond), "[%s, %s] " fmt, (c)->o->label, (c)->what, __VA_ARGS__)

static void sm_at_step(struct sm_ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void sm_at_step(struct sm_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->what, sizeof(c->what), fmt, ap);
    va_end(ap);
}

static void sm_ctx_init(struct sm_ctx *c, const struct sm_ops *o,
                        struct sm_elem *pool, size_t npool)
{
    c->o = o;
    c->pool = pool;
    c->npool = npool;
    c->what[0] = 0;
    memset(pool, 0, npool * sizeof(pool[0]));
    for (size_t i = 0; i < npool; i++)
        pool[i].id = (uint32_t)i;
}

static void *sm_new(const struct sm_ops *o)
{
    void *sl = malloc(o->head_size);
    cr_assert_not_null(sl);
    return sl;
}

/* ------------------------------------------------------------- checks */

static struct sm_elem *sm_buf[SM_POOL + 1];

/* The five searches at key k, against the model. */
static void sm_probe(const struct sm_ctx *c, const void *sl,
                     const struct sm_model *m, uint64_t k)
{
    const struct sm_ops *o = c->o;
    size_t lo = sm_lower(m, k), up = sm_upper(m, k);
    struct sm_elem *want = lo < up ? m->v[lo] : NULL;
    SMA(c, o->find(sl, k) == want, "find(%" PRIu64 ")", k);
    SMA(c, o->lower_bound(sl, k) == sm_at(m, lo), "lower_bound(%" PRIu64 ")",
        k);
    SMA(c, o->upper_bound(sl, k) == sm_at(m, up), "upper_bound(%" PRIu64 ")",
        k);
    SMA(c, o->floor(sl, k) == (up ? m->v[up - 1] : NULL), "floor(%" PRIu64 ")",
        k);
    SMA(c, o->below(sl, k) == (lo ? m->v[lo - 1] : NULL), "below(%" PRIu64 ")",
        k);
}

static void sm_walk_is(const struct sm_ctx *c, const void *sl, int how,
                       uint64_t k, const struct sm_model *m, size_t from,
                       bool reverse)
{
    size_t got = c->o->walk(sl, how, k, sm_buf, SM_POOL);
    size_t want = m->n - from;
    SMA(c, got == want,
        "walk %d saw %zu elements (SIZE_MAX: iter_get "
        "disagreed), model %zu",
        how, got, want);
    for (size_t i = 0; i < got; i++) {
        struct sm_elem *w = m->v[reverse ? m->n - 1 - i : from + i];
        SMA(c, sm_buf[i] == w, "walk %d: element %zu is id %u, model id %u",
            how, i, sm_buf[i]->id, w->id);
    }
}

static void sm_extent_probe(const struct sm_ctx *c, const void *sl,
                            const struct sm_model *m, uint64_t lo, uint64_t hi)
{
    const struct sm_ops *o = c->o;
    struct sm_elem *want = sm_overlapping(m, lo, hi);
    struct sm_elem *out = &c->pool[0]; /* not NULL: must be written */
    int rc = o->first_overlap(sl, lo, hi, &out);
    SMA(c, rc == (want ? 0 : -ENOENT) && out == want,
        "first_overlap(%" PRIu64 ", %" PRIu64 "): rc %d", lo, hi, rc);
    SMA(c, o->lookup(sl, lo) == sm_holding(m, lo), "lookup(%" PRIu64 ")", lo);
    size_t got = o->overlap(sl, lo, hi, sm_buf, SM_POOL);
    size_t j = 0;
    for (size_t i = 0; i < m->n; i++) {
        struct sm_elem *e = m->v[i];
        if (e->key > hi || e->key + (e->size - 1) < lo)
            continue;
        SMA(c, j < got && sm_buf[j] == e,
            "FOREACH_OVERLAP(%" PRIu64 ", %" PRIu64 ") at %zu", lo, hi, j);
        j++;
    }
    SMA(c, got == j, "FOREACH_OVERLAP saw %zu, model %zu", got, j);
}

/* The searches around element e's key; extents: the queries around e. */
static void sm_verify_at(const struct sm_ctx *c, const void *sl,
                         const struct sm_model *m, const struct sm_elem *e)
{
    const struct sm_ops *o = c->o;
    uint64_t k = e->key;
    sm_probe(c, sl, m, k);
    sm_probe(c, sl, m, k + 1);
    if (k > 0)
        sm_probe(c, sl, m, k - 1);
    if (o->face == SM_EXTENT) {
        uint64_t end = e->key + e->size; /* one past */
        SMA(c, o->lookup(sl, end - 1) == e, "lookup of id %u's last point",
            e->id);
        sm_extent_probe(c, sl, m, e->key, e->key);
        sm_extent_probe(c, sl, m, end, end + 40);
        if (e->key > 0)
            sm_extent_probe(c, sl, m, e->key - 1, e->key - 1);
    }
}

/* The whole list against the model: check(), count, every walk both
 * ways, the ends, the searches around a spread of keys, and the face's
 * own queries. */
static void sm_verify(const struct sm_ctx *c, const void *sl,
                      const struct sm_model *m)
{
    const struct sm_ops *o = c->o;
    char why[256] = "";
    int rc = o->check(sl, why, sizeof why);
    SMA(c, rc == 0, "check: %s", why);
    SMA(c, o->count(sl) == m->n, "count %zu, model %zu", o->count(sl), m->n);
    SMA(c, o->empty(sl) == (m->n == 0), "empty() says %d", (int)o->empty(sl));
    sm_walk_is(c, sl, SM_W_FWD, 0, m, 0, false);
    sm_walk_is(c, sl, SM_W_NEXT, 0, m, 0, false);
    sm_walk_is(c, sl, SM_W_REV, 0, m, 0, true);
    sm_walk_is(c, sl, SM_W_PREV, 0, m, 0, true);
    uint64_t mid = m->n ? m->v[m->n / 2]->key : 0;
    sm_walk_is(c, sl, SM_W_FROM, mid, m, sm_lower(m, mid), false);
    SMA(c, o->first(sl) == sm_at(m, 0), "%s", "first()");
    SMA(c, o->last(sl) == (m->n ? m->v[m->n - 1] : NULL), "%s", "last()");
    size_t stride = m->n > 24 ? m->n / 12 : 1;
    for (size_t i = 0; i < m->n; i += stride)
        sm_verify_at(c, sl, m, m->v[i]);
    if (m->n)
        sm_verify_at(c, sl, m, m->v[m->n - 1]);
    sm_probe(c, sl, m, 0);
    sm_probe(c, sl, m, o->key_max);
    if (o->face == SM_EXTENT) {
        sm_extent_probe(c, sl, m, 0, o->key_max);
        if (m->n >= 4)
            sm_extent_probe(c, sl, m, m->v[m->n / 4]->key + 1,
                            m->v[3 * m->n / 4]->key);
    }
    if (o->face == SM_QUEUE) {
        SMA(c, o->peek(sl) == sm_at(m, 0), "%s", "peek()");
        for (size_t i = 0; i < c->npool; i++) {
            const struct sm_elem *e = &c->pool[i];
            SMA(c, o->queued(e) == e->in && o->queued_in(sl, e) == e->in,
                "queued(id %u) says %d, model %d", e->id, (int)o->queued(e),
                (int)e->in);
        }
    }
}

/* --------------------------------------------------------- allocators */

/* test_common.h's counting allocator, with live blocks counted per level
 * (0 full-size leaves, 1 index nodes, 2 the rest: the bookkeeping block,
 * a small list's growing leaf, a grown root). */
struct sm_alloc {
    struct tc_alloc ta;
    struct skiplist_allocator iface;
    long live_at[3];
    unsigned long bad_level;
};

static void *sm_alloc_cb(void *ctx, size_t size, unsigned level)
{
    struct sm_alloc *s = (struct sm_alloc *)ctx;
    void *p = tc_alloc_cb(&s->ta, size, level);
    if (p) {
        if (level < 3)
            s->live_at[level]++;
        else
            s->bad_level++;
    }
    return p;
}

static void sm_free_cb(void *ctx, void *ptr, size_t size, unsigned level)
{
    struct sm_alloc *s = (struct sm_alloc *)ctx;
    unsigned long bad = s->ta.bad_frees;
    tc_free_cb(&s->ta, ptr, size, level);
    if (s->ta.bad_frees == bad && level < 3)
        s->live_at[level]--;
}

static void sm_alloc_init(struct sm_alloc *s)
{
    memset(s, 0, sizeof(*s));
    tc_alloc_init(&s->ta);
    s->iface.alloc = sm_alloc_cb;
    s->iface.free = sm_free_cb;
    s->iface.ctx = s;
}

/* After destroy: nothing live, every free matched its allocation. */
static void sm_alloc_done(const struct sm_ctx *c, const struct sm_alloc *a)
{
    SMA(c, a->ta.live == 0 && a->ta.live_bytes == 0,
        "%ld blocks (%zu bytes) leaked", a->ta.live, a->ta.live_bytes);
    SMA(c, a->ta.bad_frees == 0 && a->bad_level == 0,
        "%lu frees with a wrong size, level or pointer, %lu bad levels",
        a->ta.bad_frees, a->bad_level);
}

/* ------------------------------------------------------------ helpers */

static unsigned sm_ceil_log2(unsigned x)
{
    unsigned l = 0;
    while ((1u << l) < x)
        l++;
    return l;
}

enum { SM_MAX_SIZES = 24 };

/* n = 0, 1, 2, KPN-1, KPN, KPN+1, 2*KPN+1, and where a growing leaf is
 * full or has just doubled (a power of two and one more, below KPN):
 * sorted, without repeats. */
static size_t sm_sizes(unsigned kpn, size_t out[SM_MAX_SIZES])
{
    size_t cand[SM_MAX_SIZES];
    size_t nc = 0, n = 0;
    cand[nc++] = 0;
    cand[nc++] = kpn - 1u;
    cand[nc++] = kpn;
    cand[nc++] = kpn + 1u;
    cand[nc++] = 2u * kpn + 1u;
    for (size_t p = 1; p < kpn && nc + 2 <= SM_MAX_SIZES; p *= 2) {
        cand[nc++] = p;
        cand[nc++] = p + 1;
    }
    cand[nc++] = 2; /* (KPN 1) */
    for (size_t i = 0; i < nc; i++) {
        size_t j = 0;
        while (j < n && out[j] != cand[i])
            j++;
        if (j == n)
            out[n++] = cand[i];
    }
    for (size_t i = 1; i < n; i++) /* insertion sort */
        for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
            size_t t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

enum { SM_ASC, SM_DESC, SM_RANDOM };
static const char *const sm_order_name[] = {"ascending", "descending",
                                            "random"};

/* 0..n-1 in the given order. */
static void sm_order(size_t *idx, size_t n, int order, struct tc_rng *r)
{
    for (size_t i = 0; i < n; i++)
        idx[i] = order == SM_DESC ? n - 1 - i : i;
    if (order == SM_RANDOM)
        for (size_t i = n; i > 1; i--) {
            size_t j = (size_t)tc_below(r, i);
            size_t t = idx[i - 1];
            idx[i - 1] = idx[j];
            idx[j] = t;
        }
}

/* The element for slot s of a growth test: map keys even and unique,
 * queue keys in equal pairs (FIFO among equals), extents one per 16-point
 * cell with free points around each. */
static void sm_prep(const struct sm_ops *o, struct sm_elem *e, size_t s)
{
    switch (o->face) {
    case SM_MAP:
        e->key = 2 * (uint64_t)s + 2;
        break;
    case SM_QUEUE:
        e->key = 2 * (uint64_t)(s / 2) + 2;
        break;
    default:
        e->key = 16 * (uint64_t)s + 16 + s % 5;
        e->size = 1 + s % 7;
        break;
    }
}

/* Takes e out through the face's erase (queue: remove), checking the
 * answer, and out of the model. */
static void sm_del_ok(const struct sm_ctx *c, void *sl, struct sm_model *m,
                      struct sm_elem *e)
{
    int rc = c->o->del(sl, e);
    SMA(c, rc == 0, "erase/remove of id %u: rc %d", e->id, rc);
    sm_take(m, e);
    rc = c->o->del(sl, e);
    SMA(c, rc == -ENOENT, "second erase/remove of id %u: rc %d", e->id, rc);
}

static void sm_count_cb(struct sm_elem *e, void *arg)
{
    (void)e;
    ++*(size_t *)arg;
}

/* ------------------------------------------------------ the head size */

Test(small_lists, head_is_48_bytes)
{
    for (size_t i = 0; i < SM_LEN(sm_all); i++)
        cr_assert_leq(sm_all[i]->head_size, 48, "%s: sizeof %zu",
                      sm_all[i]->label, sm_all[i]->head_size);
    cr_assert_leq(sizeof(struct sm_m64), 48);
    cr_assert_leq(sizeof(struct sm_x64), 48);
    cr_assert_leq(sizeof(struct sm_q64), 48);
}

/* ---------------------------------------------------- unwritten lists */

/*
 * An unwritten list is empty in every way a caller can ask, checks clean,
 * and owns nothing: name_bytes() is 0 with the default allocator, and with
 * a caller's (whose init allocated the bookkeeping block) no call below
 * allocates or frees anything.
 */
static void sm_unwritten_state(const struct sm_ctx *c, const void *sl,
                               size_t bytes0, const struct sm_alloc *a,
                               unsigned long calls0)
{
    const struct sm_ops *o = c->o;
    static struct sm_model empty;
    SMA(c, o->bytes(sl) == bytes0, "bytes %zu, were %zu", o->bytes(sl), bytes0);
    if (a)
        SMA(c, a->ta.calls == calls0 && a->ta.frees == 0,
            "%lu allocator calls, %lu frees", a->ta.calls - calls0,
            a->ta.frees);
    sm_verify(c, sl, &empty);
    uint64_t keys[] = {0, 1, 2, 1000, o->key_max};
    for (size_t i = 0; i < SM_LEN(keys); i++) {
        SMA(c, o->walk(sl, SM_W_FROM, keys[i], sm_buf, SM_POOL) == 0,
            "FOREACH_FROM(%" PRIu64 ") saw something", keys[i]);
        if (o->face == SM_EXTENT)
            sm_extent_probe(c, sl, &empty, keys[i], o->key_max);
    }
}

static void sm_unwritten(const struct sm_ops *o, bool custom)
{
    static struct sm_elem pool[4];
    struct sm_ctx c;
    struct sm_alloc a;
    sm_ctx_init(&c, o, pool, SM_LEN(pool));
    sm_alloc_init(&a);
    struct sm_elem *e = &pool[0];
    sm_prep(o, e, 3);
    void *sl = sm_new(o);
    sm_at_step(&c, "init (%s allocator)", custom ? "custom" : "default");
    int rc = o->init(sl, custom ? &a.iface : NULL, 7);
    SMA(&c, rc == 0, "init: rc %d", rc);
    size_t bytes0 = o->bytes(sl);
    unsigned long calls0 = a.ta.calls;
    if (custom)
        SMA(&c, bytes0 == a.ta.live_bytes && bytes0 > 0,
            "bytes %zu, the allocator holds %zu", bytes0, a.ta.live_bytes);
    else
        SMA(&c, bytes0 == 0, "bytes %zu after init", bytes0);
    const struct sm_alloc *ap = custom ? &a : NULL;
    sm_unwritten_state(&c, sl, bytes0, ap, calls0);

#define SM_CALL(expr, want)                                    \
    do {                                                       \
        sm_at_step(&c, "%s (%s allocator)", #expr,             \
                   custom ? "custom" : "default");             \
        int rc_ = (expr);                                      \
        SMA(&c, rc_ == (want), "rc %d, want %d", rc_, (want)); \
        sm_unwritten_state(&c, sl, bytes0, ap, calls0);        \
    } while (0)

    SM_CALL(o->add(sl, NULL, NULL), -EINVAL);
    SM_CALL(o->del(sl, NULL), -EINVAL);
    SM_CALL(o->del(sl, e), -ENOENT);
    SM_CALL(o->pop_first(sl) == NULL, 1);
    if (o->pop_last)
        SM_CALL(o->pop_last(sl) == NULL, 1);
    SM_CALL((int)o->safe(sl, 1, 0, sm_buf, SM_POOL), 0);
    if (o->face == SM_MAP) {
        struct sm_elem *out = NULL;
        SM_CALL(o->erase_key(sl, e->key, &out), -ENOENT);
        SM_CALL(o->erase_key(sl, 0, NULL), -ENOENT);
    }
    if (o->face == SM_EXTENT) {
        struct sm_elem *out = e;
        SM_CALL(o->first_overlap(sl, 5, 4, &out), -EINVAL);
        SMA(&c, out == NULL, "%s", "first_overlap(lo > hi) left *out");
        SM_CALL(o->first_overlap(sl, 0, o->key_max, NULL), -ENOENT);
        SM_CALL((int)o->overlap(sl, 5, 4, sm_buf, SM_POOL), 0);
        uint64_t start = e->key, size = e->size;
        e->size = 0;
        SM_CALL(o->add(sl, e, NULL), -EINVAL);
        e->key = o->key_max;
        e->size = 2; /* passes the key type's maximum */
        SM_CALL(o->add(sl, e, NULL), -EINVAL);
        e->key = start;
        e->size = size;
        SM_CALL(o->insert_hole(sl, NULL, 1, 0, 100, SKIPLIST_HOLE_LOWEST),
                -EINVAL);
        SM_CALL(o->insert_hole(sl, e, 3, 0, 100, SKIPLIST_HOLE_LOWEST),
                -EINVAL);
        SM_CALL(o->insert_hole(sl, e, 0, 0, 100, SKIPLIST_HOLE_LOWEST),
                -EINVAL);
        SM_CALL(o->insert_hole(sl, e, 1, 100, 0, SKIPLIST_HOLE_HIGHEST),
                -EINVAL);
        SM_CALL(o->insert_hole(sl, e, 1, 0, 100, 7), -EINVAL);
        e->size = 0;
        SM_CALL(o->insert_hole(sl, e, 1, 0, 100, SKIPLIST_HOLE_LOWEST),
                -EINVAL);
        e->size = size;
        SMA(&c, e->key == start, "%s", "a refused insert_hole moved e");
    }
    if (o->face == SM_QUEUE) {
        SM_CALL(o->requeue(sl, NULL), -EINVAL);
        SM_CALL(o->requeue(sl, e), -ENOENT);
        SM_CALL(o->peek(sl) == NULL, 1);
        SMA(&c, !o->queued(e), "%s", "queued() of a fresh element");
    }
    size_t calls = 0;
    sm_at_step(&c, "clear (%s allocator)", custom ? "custom" : "default");
    o->clear(sl, sm_count_cb, &calls);
    SMA(&c, calls == 0, "clear called back %zu times", calls);
    sm_unwritten_state(&c, sl, bytes0, ap, calls0);
#undef SM_CALL
    o->destroy(sl, sm_count_cb, &calls);
    SMA(&c, calls == 0, "destroy called back %zu times", calls);
    free(sl);
    if (custom)
        sm_alloc_done(&c, &a);
    else
        SMA(&c, tc_no_leaks(), "%s", "LeakSanitizer found a leak");
}

/* Both allocators: the default and a caller's. */
static void sm_unwritten_both(const struct sm_ops *o, void *arg)
{
    (void)arg;
    sm_unwritten(o, false);
    sm_unwritten(o, true);
}

Test(small_lists, unwritten_map)
{
    sm_each(SM_MAP, sm_unwritten_both, NULL);
}

Test(small_lists, unwritten_extent)
{
    sm_each(SM_EXTENT, sm_unwritten_both, NULL);
}

Test(small_lists, unwritten_queue)
{
    sm_each(SM_QUEUE, sm_unwritten_both, NULL);
}

/*
 * insert_hole with no hole that fits, on an unwritten list: -ENOSPC, and
 * like every failed call it must leave the list as it was, owning nothing
 * ("on any error the list is exactly as before"; name_bytes() "0 before
 * the first insert"). With a caller's allocator init already allocated
 * the bookkeeping block, so nothing may be allocated either.
 */
Test(small_lists, unwritten_extent_enospc)
{
    static struct sm_elem pool[2];
    for (size_t i = 0; i < SM_LEN(sm_all); i++) {
        const struct sm_ops *o = sm_all[i];
        if (o->face != SM_EXTENT)
            continue;
        for (int custom = 1; custom >= 0; custom--) {
            struct sm_ctx c;
            struct sm_alloc a;
            sm_ctx_init(&c, o, pool, SM_LEN(pool));
            sm_alloc_init(&a);
            void *sl = sm_new(o);
            cr_assert_eq(o->init(sl, custom ? &a.iface : NULL, 1), 0);
            size_t bytes0 = o->bytes(sl);
            unsigned long calls0 = a.ta.calls;
            struct sm_elem *e = &pool[0];
            /* 100 points into [0, 9]; 8 points at a multiple of 64 in
             * [1, 63]: neither fits. Recorded, and asserted once the list
             * is destroyed, so that a failure leaks nothing. */
            int rc[2], chk[2];
            size_t bytes[2], count[2];
            uint64_t key[2];
            char why[2][256];
            e->key = 12345;
            e->size = 100;
            rc[0] = o->insert_hole(sl, e, 1, 0, 9, SKIPLIST_HOLE_LOWEST);
            e->size = 8;
            for (int k = 0; k < 2; k++) {
                if (k == 1)
                    rc[1] =
                        o->insert_hole(sl, e, 64, 1, 63, SKIPLIST_HOLE_HIGHEST);
                key[k] = e->key;
                bytes[k] = o->bytes(sl);
                count[k] = o->count(sl);
                why[k][0] = 0;
                chk[k] = o->check(sl, why[k], sizeof why[k]);
            }
            unsigned long calls = a.ta.calls - calls0;
            o->destroy(sl, NULL, NULL);
            free(sl);
            for (int k = 0; k < 2; k++) {
                sm_at_step(&c, "insert_hole %s (%s allocator)",
                           k ? "of 8 at a multiple of 64 in [1, 63]"
                             : "of 100 into [0, 9]",
                           custom ? "custom" : "default");
                SMA(&c, rc[k] == -ENOSPC, "rc %d", rc[k]);
                SMA(&c, key[k] == 12345, "e moved to %" PRIu64, key[k]);
                SMA(&c, chk[k] == 0 && count[k] == 0, "check: %s, count %zu",
                    why[k], count[k]);
                SMA(&c, bytes[k] == bytes0,
                    "bytes %zu, were %zu: the failed call allocated the "
                    "bookkeeping block",
                    bytes[k], bytes0);
            }
            SMA(&c, calls == 0, "%lu allocator calls", calls);
            if (custom)
                sm_alloc_done(&c, &a);
        }
    }
    cr_assert(tc_no_leaks(), "LeakSanitizer found a leak");
}

/*
 * Every unwritten list of an instance shares its empty head: writing to
 * one list, through growth, splits, erasure, clear and destroy, must leave
 * another one of the same instance unwritten, empty and clean.
 */
Test(small_lists, unwritten_empty_head_is_untouched_by_other_lists)
{
    static struct sm_elem pool[SM_POOL];
    static struct sm_model m;
    for (size_t i = 0; i < SM_LEN(sm_all); i++) {
        const struct sm_ops *o = sm_all[i];
        struct sm_ctx c, cq; /* cq: the quiet list, no pool to check */
        sm_ctx_init(&c, o, pool, SM_LEN(pool));
        sm_ctx_init(&cq, o, pool, 0);
        m.n = 0;
        void *quiet = sm_new(o), *busy = sm_new(o);
        cr_assert_eq(o->init(quiet, NULL, 1), 0);
        cr_assert_eq(o->init(busy, NULL, 2), 0);
        size_t n = 2u * o->kpn + 1u;
        for (size_t s = 0; s < n; s++) {
            sm_prep(o, &pool[s], s);
            cr_assert_eq(o->add(busy, &pool[s], NULL), 0);
            sm_put(&m, &pool[s]);
        }
        sm_at_step(&c, "the other list holds %zu", n);
        sm_verify(&c, busy, &m);
        sm_at_step(&cq, "the other list holds %zu", n);
        sm_unwritten_state(&cq, quiet, 0, NULL, 0);
        for (size_t s = 0; s < n; s++)
            sm_del_ok(&c, busy, &m, &pool[s]);
        sm_at_step(&cq, "%s", "the other list emptied");
        sm_unwritten_state(&cq, quiet, 0, NULL, 0);
        for (size_t s = 0; s < 3; s++)
            cr_assert_eq(o->add(busy, &pool[s], NULL), 0);
        o->clear(busy, NULL, NULL);
        sm_at_step(&cq, "%s", "the other list refilled and cleared");
        sm_unwritten_state(&cq, quiet, 0, NULL, 0);
        cr_assert_eq(o->add(busy, &pool[0], NULL), 0);
        o->destroy(busy, NULL, NULL);
        sm_at_step(&cq, "%s", "the other list destroyed");
        sm_unwritten_state(&cq, quiet, 0, NULL, 0);
        /* and the quiet one still works */
        sm_ctx_init(&c, o, pool, SM_LEN(pool));
        m.n = 0;
        sm_prep(o, &pool[1], 1);
        cr_assert_eq(o->add(quiet, &pool[1], NULL), 0);
        sm_put(&m, &pool[1]);
        sm_at_step(&c, "%s", "first insert into the quiet list");
        sm_verify(&c, quiet, &m);
        SMA(&c, o->bytes(quiet) == 0, "the singleton holds %zu bytes",
            o->bytes(quiet));
        sm_prep(o, &pool[2], 2);
        cr_assert_eq(o->add(quiet, &pool[2], NULL), 0);
        sm_put(&m, &pool[2]);
        sm_at_step(&c, "%s", "second insert into the quiet list");
        sm_verify(&c, quiet, &m);
        SMA(&c, o->bytes(quiet) > 0, "two elements in %zu bytes",
            o->bytes(quiet));
        o->destroy(quiet, NULL, NULL);
        free(quiet);
        free(busy);
    }
    cr_assert(tc_no_leaks(), "LeakSanitizer found a leak");
}

/* ------------------------------------------------- growth and shrink */

/*
 * Insert slots 0..n-1 in one order, then take them all out in another,
 * checking the whole list against the model after every call. Taking out
 * ascending pops the first element (the queue's pop), descending pops the
 * last (the queue removes instead), random erases (the map alternates with
 * erase_key). While the list is one leaf, name_bytes() never goes down.
 */
static void sm_grow_shrink_one(const struct sm_ops *o, size_t n, int io, int eo,
                               uint64_t seed)
{
    static struct sm_elem pool[SM_POOL];
    static struct sm_model m;
    static size_t ins[SM_POOL], del[SM_POOL];
    struct sm_ctx c;
    struct tc_rng r;
    tc_rng_init(&r, seed ^ (n * 9 + (size_t)io * 3 + (size_t)eo));
    sm_ctx_init(&c, o, pool, 2 * n + 2);
    m.n = 0;
    sm_order(ins, n, io, &r);
    sm_order(del, n, eo, &r);
    void *sl = sm_new(o);
    cr_assert_eq(o->init(sl, NULL, seed), 0);
    size_t prev = o->bytes(sl);
    cr_assert_eq(prev, 0);
    for (size_t j = 0; j < n; j++) {
        struct sm_elem *e = &pool[ins[j]];
        sm_prep(o, e, ins[j]);
        sm_at_step(&c,
                   "n=%zu, insert %s, erase %s: insert %zu of %zu (slot "
                   "%zu)",
                   n, sm_order_name[io], sm_order_name[eo], j + 1, n, ins[j]);
        struct sm_elem *clash = NULL;
        int rc = o->add(sl, e, &clash);
        SMA(&c, rc == 0, "rc %d", rc);
        sm_put(&m, e);
        sm_verify(&c, sl, &m);
        if (o->face != SM_QUEUE) {
            /* a second insert of the same key is refused */
            struct sm_elem *dup = &pool[n + 1];
            dup->key = e->key;
            dup->size = 1;
            rc = o->add(sl, dup, &clash);
            SMA(&c, rc == -EEXIST && clash == e, "duplicate: rc %d", rc);
        } else {
            rc = o->add(sl, e, NULL);
            SMA(&c, rc == -EEXIST, "second push: rc %d", rc);
        }
        size_t b = o->bytes(sl);
        if (m.n <= o->kpn)
            SMA(&c, b >= prev, "bytes went down from %zu to %zu in one leaf",
                prev, b);
        prev = b;
    }
    for (size_t j = 0; j < n; j++) {
        sm_at_step(&c, "n=%zu, insert %s, erase %s: erase %zu of %zu", n,
                   sm_order_name[io], sm_order_name[eo], j + 1, n);
        struct sm_elem *e = &pool[del[j]];
        if (eo == SM_ASC) {
            struct sm_elem *want = m.v[0];
            struct sm_elem *got = o->pop_first(sl);
            SMA(&c, got == want, "pop_first/pop gave id %u, model id %u",
                got ? got->id : 9999u, want->id);
            sm_take(&m, want);
        } else if (eo == SM_DESC && o->pop_last) {
            struct sm_elem *want = m.v[m.n - 1];
            struct sm_elem *got = o->pop_last(sl);
            SMA(&c, got == want, "pop_last gave id %u, model id %u",
                got ? got->id : 9999u, want->id);
            sm_take(&m, want);
        } else if (o->face == SM_MAP && j % 2) {
            struct sm_elem *out = NULL;
            int rc = o->erase_key(sl, e->key, &out);
            SMA(&c, rc == 0 && out == e, "erase_key: rc %d", rc);
            sm_take(&m, e);
            rc = o->erase_key(sl, e->key, &out);
            SMA(&c, rc == -ENOENT, "second erase_key: rc %d", rc);
        } else {
            sm_del_ok(&c, sl, &m, e);
        }
        sm_verify(&c, sl, &m);
    }
    SMA(&c, o->pop_first(sl) == NULL, "%s", "pop of an emptied list");
    o->destroy(sl, NULL, NULL);
    free(sl);
}

/* Every size of sm_sizes(), inserted and erased in every pair of orders. */
static void sm_grow_shrink(const struct sm_ops *o, void *seedp)
{
    uint64_t seed = *(const uint64_t *)seedp;
    size_t sizes[SM_MAX_SIZES];
    size_t ns = sm_sizes(o->kpn, sizes);
    for (size_t s = 0; s < ns; s++)
        for (int io = 0; io < 3; io++)
            for (int eo = 0; eo < 3; eo++)
                sm_grow_shrink_one(o, sizes[s], io, eo, seed);
}

Test(small_lists, grow_shrink_map)
{
    sm_each_seeded(SM_MAP, "small_lists/grow_shrink_map", sm_grow_shrink);
}

Test(small_lists, grow_shrink_extent)
{
    sm_each_seeded(SM_EXTENT, "small_lists/grow_shrink_extent", sm_grow_shrink);
}

Test(small_lists, grow_shrink_queue)
{
    sm_each_seeded(SM_QUEUE, "small_lists/grow_shrink_queue", sm_grow_shrink);
}

/*
 * Queues through the sizes: push n (random keys with repeats), requeue
 * every element to a new random key (a requeue is a fresh arrival: after
 * its equals), drain by alternating pop and remove; then push the same n
 * again: the drained leaf was kept, so a list of at most KPN holds the
 * same bytes as before. Each call checked against the model.
 */
Test(small_lists, queue_through_sizes)
{
    static struct sm_elem pool[SM_POOL];
    static struct sm_model m;
    static size_t ord[SM_POOL];
    uint64_t seed = tc_seed("small_lists/queue_through_sizes");
    struct tc_rng r;
    tc_rng_init(&r, seed);
    for (size_t q = 0; q < SM_LEN(sm_all); q++) {
        const struct sm_ops *o = sm_all[q];
        if (o->face != SM_QUEUE)
            continue;
        size_t sizes[SM_MAX_SIZES];
        size_t ns = sm_sizes(o->kpn, sizes);
        for (size_t si = 0; si < ns; si++) {
            size_t n = sizes[si];
            struct sm_ctx c;
            sm_ctx_init(&c, o, pool, n + 1);
            m.n = 0;
            void *sl = sm_new(o);
            cr_assert_eq(o->init(sl, NULL, seed), 0);
            size_t bytes_full = 0;
            for (int round = 0; round < 2; round++) {
                for (size_t s = 0; s < n; s++) {
                    struct sm_elem *e = &pool[s];
                    e->key = tc_below(&r, n + 1);
                    sm_at_step(&c, "n=%zu round %d: push %zu", n, round, s);
                    SMA(&c, o->add(sl, e, NULL) == 0, "%s", "push");
                    sm_put(&m, e);
                    sm_verify(&c, sl, &m);
                }
                if (round == 0)
                    bytes_full = o->bytes(sl);
                else if (n <= o->kpn)
                    SMA(&c, o->bytes(sl) == bytes_full,
                        "refilled to %zu: bytes %zu, were %zu", n, o->bytes(sl),
                        bytes_full);
                sm_order(ord, n, SM_RANDOM, &r);
                for (size_t j = 0; j < n; j++) {
                    struct sm_elem *e = &pool[ord[j]];
                    uint64_t k = tc_below(&r, n + 2);
                    sm_at_step(&c,
                               "n=%zu round %d: requeue id %u from %" PRIu64
                               " to %" PRIu64,
                               n, round, e->id, e->key, k);
                    e->key = k;
                    int rc = o->requeue(sl, e);
                    SMA(&c, rc == 0, "rc %d", rc);
                    sm_take(&m, e);
                    sm_put(&m, e);
                    sm_verify(&c, sl, &m);
                }
                sm_order(ord, n, SM_RANDOM, &r);
                for (size_t j = 0; j < n; j++) {
                    struct sm_elem *e = &pool[ord[j]];
                    if (!e->in)
                        continue; /* popped already */
                    sm_at_step(&c, "n=%zu round %d: drain %zu", n, round, j);
                    if (j % 2) {
                        struct sm_elem *want = m.v[0];
                        SMA(&c, o->pop_first(sl) == want, "%s", "pop");
                        sm_take(&m, want);
                        SMA(&c, o->requeue(sl, want) == -ENOENT, "%s",
                            "requeue of a popped element");
                    } else {
                        sm_del_ok(&c, sl, &m, e);
                        SMA(&c, o->requeue(sl, e) == -ENOENT, "%s",
                            "requeue of a removed element");
                    }
                    sm_verify(&c, sl, &m);
                }
                while (m.n) {
                    struct sm_elem *want = m.v[0];
                    SMA(&c, o->pop_first(sl) == want, "%s", "final pops");
                    sm_take(&m, want);
                }
                sm_verify(&c, sl, &m);
            }
            o->destroy(sl, NULL, NULL);
            free(sl);
        }
    }
    cr_assert(tc_no_leaks(), "LeakSanitizer found a leak");
}

/*
 * FOREACH_SAFE through the sizes: erase every second visit, then every
 * third of what is left, then everything. Each loop must visit the list
 * as it was, in order, and leave exactly the model.
 */
Test(small_lists, foreach_safe_through_sizes)
{
    static struct sm_elem pool[SM_POOL];
    static struct sm_model m, before;
    static size_t ord[SM_POOL];
    uint64_t seed = tc_seed("small_lists/foreach_safe_through_sizes");
    struct tc_rng r;
    tc_rng_init(&r, seed);
    const size_t mods[][2] = {{2, 0}, {3, 1}, {1, 0}};
    for (size_t i = 0; i < SM_LEN(sm_all); i++) {
        const struct sm_ops *o = sm_all[i];
        size_t sizes[SM_MAX_SIZES];
        size_t ns = sm_sizes(o->kpn, sizes);
        for (size_t si = 0; si < ns; si++) {
            size_t n = sizes[si];
            struct sm_ctx c;
            sm_ctx_init(&c, o, pool, n);
            m.n = 0;
            void *sl = sm_new(o);
            cr_assert_eq(o->init(sl, NULL, seed), 0);
            sm_order(ord, n, SM_RANDOM, &r);
            for (size_t j = 0; j < n; j++) {
                sm_prep(o, &pool[ord[j]], ord[j]);
                cr_assert_eq(o->add(sl, &pool[ord[j]], NULL), 0);
                sm_put(&m, &pool[ord[j]]);
            }
            for (size_t v = 0; v < SM_LEN(mods); v++) {
                sm_at_step(&c,
                           "n=%zu, FOREACH_SAFE erasing visit %% %zu == "
                           "%zu",
                           n, mods[v][0], mods[v][1]);
                before = m;
                size_t got =
                    o->safe(sl, mods[v][0], mods[v][1], sm_buf, SM_POOL);
                SMA(&c, got == before.n,
                    "visited %zu (SIZE_MAX: an erase "
                    "failed), list held %zu",
                    got, before.n);
                for (size_t j = 0; j < got; j++) {
                    SMA(&c, sm_buf[j] == before.v[j],
                        "visit %zu: id %u, model id %u", j, sm_buf[j]->id,
                        before.v[j]->id);
                    if (j % mods[v][0] == mods[v][1])
                        sm_take(&m, before.v[j]);
                }
                sm_verify(&c, sl, &m);
            }
            SMA(&c, m.n == 0, "%zu left", m.n);
            o->destroy(sl, NULL, NULL);
            free(sl);
        }
    }
    cr_assert(tc_no_leaks(), "LeakSanitizer found a leak");
}

/* --------------------------------------------------- bytes and levels */

/*
 * While a list is one leaf its bytes grow geometrically: a handful of
 * distinct sizes from n = 1 to KPN (one per doubling), never down, and at
 * n at most what an array of about 2n (key, pointer) pairs adds to the
 * smallest list with a leaf (n = 1 with a caller's allocator, n = 2 with
 * the default one, whose one-element list is a singleton holding no
 * memory). At the default KPN that smallest list holds under a quarter
 * of a full leaf's list (a third for a queue, whose first leaf has a
 * group of 8 slots). With a caller's allocator: name_bytes() is exactly
 * what the allocator holds, and up to KPN/2 elements nothing comes from
 * the leaf or index levels (0 and 1), only the bookkeeping block and the
 * small leaf (level 2); past KPN the list is full-size leaves and the
 * small leaf is gone.
 */
Test(small_lists, bytes_grow_geometrically)
{
    static struct sm_elem pool[SM_POOL];
    static size_t bdef[SM_POOL], bcus[SM_POOL];
    for (size_t i = 0; i < SM_LEN(sm_all); i++) {
        const struct sm_ops *o = sm_all[i];
        struct sm_ctx c;
        struct sm_alloc a;
        sm_ctx_init(&c, o, pool, SM_LEN(pool));
        sm_alloc_init(&a);
        void *d = sm_new(o), *u = sm_new(o);
        cr_assert_eq(o->init(d, NULL, 3), 0);
        cr_assert_eq(o->init(u, &a.iface, 3), 0);
        bdef[0] = o->bytes(d);
        bcus[0] = o->bytes(u);
        sm_at_step(&c, "%s", "after init");
        SMA(&c, bdef[0] == 0, "bytes %zu", bdef[0]);
        SMA(&c, a.live_at[2] == 1 && a.live_at[0] == 0 && a.live_at[1] == 0,
            "custom init: live blocks per level %ld %ld %ld", a.live_at[0],
            a.live_at[1], a.live_at[2]);
        size_t per =
            o->key_size * (o->face == SM_EXTENT ? 2 : 1) + sizeof(void *);
        size_t top = 2u * o->kpn + 1u;
        for (size_t n = 1; n <= top; n++) {
            sm_prep(o, &pool[n - 1], n - 1);
            /* a second element for the second list (a queue's hook) */
            pool[SM_POOL / 2 + n] = pool[n - 1];
            pool[SM_POOL / 2 + n].id = (uint32_t)(SM_POOL / 2 + n);
            cr_assert_eq(o->add(d, &pool[n - 1], NULL), 0);
            cr_assert_eq(o->add(u, &pool[SM_POOL / 2 + n], NULL), 0);
            bdef[n] = o->bytes(d);
            bcus[n] = o->bytes(u);
            sm_at_step(&c, "n=%zu", n);
            SMA(&c, bcus[n] == a.ta.live_bytes,
                "bytes %zu, the allocator holds %zu", bcus[n], a.ta.live_bytes);
            if (n == 1)
                SMA(&c, bdef[1] == 0, "default: the singleton holds %zu",
                    bdef[1]);
            if (n <= o->kpn) {
                SMA(&c, bdef[n] >= bdef[n - 1] && bcus[n] >= bcus[n - 1],
                    "bytes went down: %zu -> %zu, %zu -> %zu", bdef[n - 1],
                    bdef[n], bcus[n - 1], bcus[n]);
                SMA(&c, bcus[n] - bcus[1] <= 2 * n * per,
                    "custom: %zu bytes over the one-element list",
                    bcus[n] - bcus[1]);
                SMA(&c, n < 2 || bdef[n] - bdef[2] <= 2 * n * per + 64,
                    "default: %zu bytes over the two-element list",
                    bdef[n] - bdef[2]);
            }
            if (2 * n <= o->kpn)
                SMA(&c,
                    a.live_at[0] == 0 && a.live_at[1] == 0 && a.live_at[2] == 2,
                    "live blocks per level %ld %ld %ld (want 0 0 2)",
                    a.live_at[0], a.live_at[1], a.live_at[2]);
        }
        sm_at_step(&c, "%s", "n=1..KPN");
        size_t distinct = 0;
        for (size_t n = 1; n <= o->kpn; n++)
            distinct += bcus[n] != bcus[n - 1];
        SMA(&c, distinct <= sm_ceil_log2(o->kpn) + 1,
            "%zu sizes from n=1 to KPN: the leaf does not double", distinct);
        if (o->kpn == 64) {
            size_t div = o->face == SM_QUEUE ? 3 : 4;
            SMA(&c, bdef[2] < bdef[64] / div && bcus[1] < bcus[64] / div,
                "n=2/1: %zu/%zu bytes, n=64: %zu/%zu (default/custom)", bdef[2],
                bcus[1], bdef[64], bcus[64]);
        }
        sm_at_step(&c, "n=%zu", top);
        SMA(&c, a.live_at[0] >= 2 && a.live_at[2] == 1,
            "past KPN: live blocks per level %ld %ld %ld", a.live_at[0],
            a.live_at[1], a.live_at[2]);
        o->destroy(d, NULL, NULL);
        o->destroy(u, NULL, NULL);
        free(d);
        free(u);
        sm_alloc_done(&c, &a);
    }
    cr_assert(tc_no_leaks(), "LeakSanitizer found a leak");
}

struct sm_order_check {
    const struct sm_model *m;
    size_t i;
    bool ok;
};

static void sm_in_order_cb(struct sm_elem *e, void *arg)
{
    struct sm_order_check *oc = (struct sm_order_check *)arg;
    if (oc->i >= oc->m->n || oc->m->v[oc->i] != e)
        oc->ok = false;
    oc->i++;
}

/*
 * clear hands every element to its callback in order and frees every
 * leaf, the pool and the index, keeping only the bookkeeping block: the
 * list is then the one a first insert made, and one insert brings it back
 * to the bytes of a fresh one-element list.
 */
Test(small_lists, clear_keeps_only_the_bookkeeping_block)
{
    static struct sm_elem pool[SM_POOL];
    static struct sm_model m;
    for (size_t i = 0; i < SM_LEN(sm_all); i++) {
        const struct sm_ops *o = sm_all[i];
        for (int custom = 0; custom < 2; custom++) {
            struct sm_ctx c;
            struct sm_alloc a, af; /* sl's, fresh's */
            /* (the pool's last element goes into fresh) */
            sm_ctx_init(&c, o, pool, SM_LEN(pool) - 1);
            pool[SM_POOL - 1].in = false;
            sm_alloc_init(&a);
            sm_alloc_init(&af);
            void *fresh = sm_new(o), *sl = sm_new(o);
            cr_assert_eq(o->init(fresh, custom ? &af.iface : NULL, 5), 0);
            cr_assert_eq(o->init(sl, custom ? &a.iface : NULL, 5), 0);
            size_t bytes0 = o->bytes(sl);
            sm_prep(o, &pool[SM_POOL - 1], 0);
            cr_assert_eq(o->add(fresh, &pool[SM_POOL - 1], NULL), 0);
            size_t bytes1 = o->bytes(fresh);
            m.n = 0;
            size_t n = 2u * o->kpn + 1u;
            for (size_t s = 0; s < n; s++) {
                sm_prep(o, &pool[s], s);
                cr_assert_eq(o->add(sl, &pool[s], NULL), 0);
                sm_put(&m, &pool[s]);
            }
            /* a queue's requeue may reserve a spare leaf: clear frees it */
            if (o->face == SM_QUEUE && n > 2) {
                struct sm_elem *e = m.v[m.n - 1];
                e->key = 0;
                cr_assert_eq(o->requeue(sl, e), 0);
                sm_take(&m, e);
                sm_put(&m, e);
            }
            struct sm_order_check oc = {&m, 0, true};
            sm_at_step(&c, "clear of %zu (%s allocator)", n,
                       custom ? "custom" : "default");
            o->clear(sl, sm_in_order_cb, &oc);
            SMA(&c, oc.ok && oc.i == n, "clear called back %zu times, %s", oc.i,
                oc.ok ? "in order" : "out of order");
            for (size_t s = 0; s < n; s++)
                pool[s].in = false;
            m.n = 0;
            sm_verify(&c, sl, &m);
            if (custom) {
                SMA(&c,
                    a.live_at[0] == 0 && a.live_at[1] == 0 && a.live_at[2] == 1,
                    "after clear: live blocks per level %ld %ld %ld "
                    "(want 0 0 1)",
                    a.live_at[0], a.live_at[1], a.live_at[2]);
                SMA(&c, o->bytes(sl) == bytes0, "bytes %zu, init left %zu",
                    o->bytes(sl), bytes0);
            }
            cr_assert_eq(o->add(sl, &pool[0], NULL), 0);
            sm_put(&m, &pool[0]);
            sm_at_step(&c, "one insert after clear (%s allocator)",
                       custom ? "custom" : "default");
            sm_verify(&c, sl, &m);
            SMA(&c, o->bytes(sl) == bytes1,
                "bytes %zu, a fresh one-element list %zu", o->bytes(sl),
                bytes1);
            o->destroy(sl, NULL, NULL);
            o->destroy(fresh, NULL, NULL);
            free(sl);
            free(fresh);
            if (custom) {
                sm_alloc_done(&c, &a);
                sm_alloc_done(&c, &af);
            }
        }
    }
    cr_assert(tc_no_leaks(), "LeakSanitizer found a leak");
}

/* -------------------------------------------------------- random walk */

/*
 * Random calls, the list driven from empty to past 2*KPN+1 and back,
 * twice, every call checked against the model; pops, removals and
 * requeues in between move a queue's window and leave tombstones in the
 * leaf while it is still growing.
 */
static void sm_random_walk(const struct sm_ops *o, uint64_t seed)
{
    static struct sm_elem pool[SM_POOL];
    static struct sm_model m;
    struct sm_ctx c;
    struct tc_rng r;
    tc_rng_init(&r, seed);
    sm_ctx_init(&c, o, pool, SM_LEN(pool));
    m.n = 0;
    size_t cells = 4u * o->kpn + 8u; /* slots the walk draws from */
    if (cells > SM_POOL - 1)
        cells = SM_POOL - 1;
    size_t hi = 2u * o->kpn + 3u, cycles = TC_SANITIZED ? 1 : 2;
    struct sm_elem *spare = &pool[SM_POOL - 1];
    void *sl = sm_new(o);
    cr_assert_eq(o->init(sl, NULL, seed), 0);
    bool grow = true;
    for (unsigned long step = 0; cycles > 0; step++) {
        if (grow && m.n >= hi)
            grow = false;
        if (!grow && m.n == 0) {
            grow = true;
            cycles--;
        }
        /* (capped: the cells never run out) */
        bool add = m.n < hi && tc_below(&r, 100) < (grow ? 70u : 30u);
        uint64_t d = tc_below(&r, 100);
        sm_at_step(&c, "SEED=%" PRIu64 " step %lu, n=%zu", seed, step, m.n);
        if (add) {
            size_t s;
            do
                s = (size_t)tc_below(&r, cells);
            while (pool[s].in);
            struct sm_elem *e = &pool[s];
            int rc;
            if (o->face == SM_MAP && d < 25 && m.n > 0) {
                /* after every element with an equal key */
                e->key = m.v[tc_below(&r, m.n)]->key;
                rc = o->insert_multi(sl, e);
            } else if (o->face == SM_MAP) {
                e->key = 3 * (uint64_t)s + 1;
                struct sm_elem *clash = NULL;
                rc = o->add(sl, e, &clash);
                if (rc == -EEXIST) { /* a multi-inserted key took it */
                    SMA(&c, clash && clash->key == e->key && clash->in,
                        "insert of a present key: clash id %u",
                        clash ? clash->id : 9999u);
                    sm_verify(&c, sl, &m);
                    continue;
                }
            } else if (o->face == SM_QUEUE) {
                e->key = tc_below(&r, 40);
                rc = o->add(sl, e, NULL);
            } else if (d < 50) {
                e->key = 32 * (uint64_t)s + tc_below(&r, 16);
                e->size = 1 + tc_below(&r, 16);
                rc = o->add(sl, e, NULL);
            } else {
                /* the cell [32s, 32s + 31] is free: the lowest fit is its
                 * start, the highest its end less the size, aligned down */
                uint64_t align = UINT64_C(1) << tc_below(&r, 4);
                uint64_t size = 1 + tc_below(&r, 32);
                uint64_t lo = 32 * (uint64_t)s, want;
                int flags =
                    d < 75 ? SKIPLIST_HOLE_LOWEST : SKIPLIST_HOLE_HIGHEST;
                want = flags == SKIPLIST_HOLE_LOWEST
                           ? lo
                           : (lo + 32 - size) & ~(align - 1);
                e->size = size;
                rc = o->insert_hole(sl, e, align, lo, lo + 31, flags);
                SMA(&c, rc != 0 || e->key == want,
                    "insert_hole placed at %" PRIu64 ", want %" PRIu64, e->key,
                    want);
            }
            SMA(&c, rc == 0, "insert/push of id %u: rc %d", e->id, rc);
            sm_put(&m, e);
        } else if (m.n > 0) {
            struct sm_elem *e = m.v[tc_below(&r, m.n)];
            if (d < 40) {
                sm_del_ok(&c, sl, &m, e);
            } else if (d < 60) {
                struct sm_elem *want = m.v[0];
                SMA(&c, o->pop_first(sl) == want, "%s", "pop_first/pop");
                sm_take(&m, want);
            } else if (d < 80 && o->face == SM_QUEUE) {
                e->key = tc_below(&r, 40);
                int rc = o->requeue(sl, e);
                SMA(&c, rc == 0, "requeue: rc %d", rc);
                sm_take(&m, e);
                sm_put(&m, e);
            } else if (d < 80) {
                struct sm_elem *want = m.v[m.n - 1];
                SMA(&c, o->pop_last(sl) == want, "%s", "pop_last");
                sm_take(&m, want);
            } else if (o->face == SM_MAP) {
                /* the first element with e's key goes */
                struct sm_elem *out = NULL, *want = m.v[sm_lower(&m, e->key)];
                int rc = o->erase_key(sl, e->key, &out);
                SMA(&c, rc == 0 && out == want,
                    "erase_key: rc %d, id %u, "
                    "model id %u",
                    rc, out ? out->id : 9999u, want->id);
                sm_take(&m, want);
            } else if (o->face == SM_EXTENT) {
                /* an overlapping insert is refused, naming e */
                struct sm_elem *clash = NULL;
                spare->key = e->key + tc_below(&r, e->size);
                spare->size = 1;
                int rc = o->add(sl, spare, &clash);
                SMA(&c, rc == -EEXIST && clash == e, "overlap: rc %d", rc);
            } else {
                SMA(&c, o->add(sl, e, NULL) == -EEXIST, "%s",
                    "push of a queued element");
            }
        }
        sm_verify(&c, sl, &m);
    }
    o->destroy(sl, NULL, NULL);
    free(sl);
}

static void sm_random_walk_seeded(const struct sm_ops *o, void *seed)
{
    sm_random_walk(o, *(const uint64_t *)seed);
}

Test(small_lists, random_walk_map)
{
    sm_each_seeded(SM_MAP, "small_lists/random_walk_map",
                   sm_random_walk_seeded);
}

Test(small_lists, random_walk_extent)
{
    sm_each_seeded(SM_EXTENT, "small_lists/random_walk_extent",
                   sm_random_walk_seeded);
}

Test(small_lists, random_walk_queue)
{
    sm_each_seeded(SM_QUEUE, "small_lists/random_walk_queue",
                   sm_random_walk_seeded);
}

/* ------------------------------------------------- allocation failure */

/* init with a caller's allocator allocates the bookkeeping block: when
 * that fails, -ENOMEM, nothing held, and destroy does nothing. */
Test(small_lists, enomem_init)
{
    for (size_t i = 0; i < SM_LEN(sm_all); i++) {
        const struct sm_ops *o = sm_all[i];
        static struct sm_elem pool[1];
        struct sm_ctx c;
        struct sm_alloc a;
        sm_ctx_init(&c, o, pool, 1);
        sm_alloc_init(&a);
        void *sl = sm_new(o);
        tc_alloc_fail_at(&a.ta, 1);
        sm_at_step(&c, "%s", "init, its first allocation failing");
        int rc = o->init(sl, &a.iface, 1);
        tc_alloc_heal(&a.ta);
        SMA(&c, rc == -ENOMEM && a.ta.failures == 1, "rc %d, %lu failures", rc,
            a.ta.failures);
        SMA(&c, a.ta.live == 0, "%ld blocks held", a.ta.live);
        o->destroy(sl, NULL, NULL);
        SMA(&c, a.ta.frees == 0 && a.ta.bad_frees == 0,
            "destroy after a failed init freed %lu blocks (%lu bad)",
            a.ta.frees, a.ta.bad_frees);
        sm_at_step(&c, "%s", "init again, healed");
        rc = o->init(sl, &a.iface, 1);
        SMA(&c, rc == 0 && o->bytes(sl) == a.ta.live_bytes, "rc %d", rc);
        sm_prep(o, &pool[0], 0);
        SMA(&c, o->add(sl, &pool[0], NULL) == 0, "%s", "first insert");
        o->destroy(sl, NULL, NULL);
        free(sl);
        sm_alloc_done(&c, &a);
        /* the default allocator: init allocates nothing, cannot fail */
        sl = sm_new(o);
        SMA(&c, o->init(sl, NULL, 1) == 0, "%s", "default init");
        o->destroy(sl, NULL, NULL);
        free(sl);
    }
}

enum { SM_C_ADD, SM_C_HOLE, SM_C_REQUEUE };

/* One call of a sweep. */
struct sm_call {
    int kind;
    struct sm_elem *e;
    uint64_t key;                 /* requeue: the new key */
    uint64_t align, lo, hi, want; /* insert_hole: e goes at want */
    int flags;
};

#define SM_SENTINEL UINT64_C(0x5e5e5e5e)

static int sm_call_once(const struct sm_ops *o, void *sl, struct sm_call *cl)
{
    struct sm_elem *e = cl->e;
    if (cl->kind == SM_C_ADD)
        return o->add(sl, e, NULL);
    if (cl->kind == SM_C_HOLE) {
        e->key = SM_SENTINEL;
        return o->insert_hole(sl, e, cl->align, cl->lo, cl->hi, cl->flags);
    }
    uint64_t old = e->key;
    e->key = cl->key;
    int rc = o->requeue(sl, e);
    if (rc)
        e->key = old; /* e stays at its old place: its key with it */
    return rc;
}

/*
 * Runs the call with its k-th allocation failing, k = 1, 2, ... until it
 * succeeds. Each failure must return -ENOMEM and leave everything as it
 * was: the contents and the rest of sm_verify, name_bytes(), the
 * allocator's live blocks and bytes, and e (out of the list, its start
 * untouched by insert_hole; a requeued e queued at its old key). Returns
 * the number of allocations the call made.
 */
static unsigned long sm_sweep(struct sm_ctx *c, void *sl, struct sm_model *m,
                              struct sm_alloc *a, struct sm_call *cl)
{
    const struct sm_ops *o = c->o;
    const size_t len = strlen(c->what);
    for (unsigned long k = 1;; k++) {
        const size_t bytes = o->bytes(sl);
        const long live = a->ta.live;
        const size_t live_bytes = a->ta.live_bytes;
        const unsigned long f0 = a->ta.failures;
        snprintf(c->what + len, sizeof(c->what) - len,
                 ", allocation %lu failing", k);
        tc_alloc_fail_at(&a->ta, k);
        int rc = sm_call_once(o, sl, cl);
        tc_alloc_heal(&a->ta);
        if (rc == 0) {
            SMA(c, a->ta.failures == f0, "%s",
                "succeeded though an allocation failed");
            c->what[len] = 0;
            if (cl->kind == SM_C_REQUEUE)
                sm_take(m, cl->e);
            if (cl->kind == SM_C_HOLE)
                SMA(c, cl->e->key == cl->want,
                    "insert_hole placed at %" PRIu64 ", want %" PRIu64,
                    cl->e->key, cl->want);
            sm_put(m, cl->e);
            sm_verify(c, sl, m);
            SMA(c, o->bytes(sl) == a->ta.live_bytes,
                "bytes %zu, the allocator holds %zu", o->bytes(sl),
                a->ta.live_bytes);
            return k - 1;
        }
        SMA(c, rc == -ENOMEM, "rc %d", rc);
        SMA(c, a->ta.failures > f0, "%s", "-ENOMEM, yet no allocation failed");
        sm_verify(c, sl, m);
        SMA(c, o->bytes(sl) == bytes, "bytes %zu, were %zu", o->bytes(sl),
            bytes);
        SMA(c, a->ta.live == live && a->ta.live_bytes == live_bytes,
            "the allocator holds %ld blocks (%zu bytes), were %ld (%zu)",
            a->ta.live, a->ta.live_bytes, live, live_bytes);
        if (cl->kind == SM_C_HOLE)
            SMA(c, cl->e->key == SM_SENTINEL,
                "a failed insert_hole moved e to %" PRIu64, cl->e->key);
        if (o->face == SM_QUEUE)
            SMA(c, o->queued(cl->e) == (cl->kind == SM_C_REQUEUE), "%s",
                "queued(e) after -ENOMEM");
        SMA(c, k < 100, "%s", "still failing after 100 allocations");
    }
}

/*
 * Each insert (push; extents alternate insert and insert_hole) of a list
 * grown from 0 to 2*KPN+2 elements, in ascending, descending and random
 * order, swept. While the list is one leaf, only the first insert and the
 * inserts that double the leaf allocate: at most ceil(log2 KPN) of the
 * inserts at n = 1..KPN-1 (none when the first leaf already has KPN
 * slots), and the insert into a full KPN leaf allocates (it splits).
 */
static void sm_enomem_inserts(const struct sm_ops *o, const char *name)
{
    static struct sm_elem pool[SM_POOL];
    static struct sm_model m;
    static size_t ord[SM_POOL];
    static unsigned long allocs[SM_POOL];
    uint64_t seed = tc_seed(name);
    struct tc_rng r;
    tc_rng_init(&r, seed);
    size_t top = 2u * o->kpn + 3u;
    for (int order = 0; order < 3; order++) {
        struct sm_ctx c;
        struct sm_alloc a;
        sm_ctx_init(&c, o, pool, top);
        sm_alloc_init(&a);
        m.n = 0;
        sm_order(ord, top, order, &r);
        void *sl = sm_new(o);
        cr_assert_eq(o->init(sl, &a.iface, seed), 0);
        unsigned long failures = 0;
        for (size_t j = 0; j < top; j++) {
            size_t s = ord[j];
            struct sm_elem *e = &pool[s];
            struct sm_call cl = {SM_C_ADD, e, 0, 0, 0, 0, 0, 0};
            sm_prep(o, e, s);
            if (o->face == SM_EXTENT && j % 2) {
                /* the slot's cell [16s + 16, 16s + 31] is free */
                cl.kind = SM_C_HOLE;
                cl.align = j % 4 == 1 ? 1 : 4;
                cl.lo = 16 * (uint64_t)s + 16;
                cl.hi = cl.lo + 15;
                cl.flags =
                    j % 8 < 4 ? SKIPLIST_HOLE_LOWEST : SKIPLIST_HOLE_HIGHEST;
                cl.want = cl.flags == SKIPLIST_HOLE_LOWEST
                              ? cl.lo
                              : (cl.hi + 1 - e->size) & ~(cl.align - 1);
            }
            sm_at_step(&c, "%s order, n=%zu: %s of slot %zu",
                       sm_order_name[order], j,
                       cl.kind == SM_C_HOLE ? "insert_hole" : "insert/push", s);
            allocs[j] = sm_sweep(&c, sl, &m, &a, &cl);
            failures += allocs[j];
        }
        sm_at_step(&c, "%s order, the growth", sm_order_name[order]);
        SMA(&c, allocs[0] >= 1, "%s", "the first insert allocated nothing");
        SMA(&c, allocs[o->kpn] >= 1, "%s",
            "the insert into a full KPN leaf allocated nothing");
        size_t grows = 0;
        for (size_t n = 1; n < o->kpn; n++)
            grows += allocs[n] > 0;
        SMA(&c, grows <= sm_ceil_log2(o->kpn),
            "%zu inserts at n = 1..KPN-1 allocated: the leaf does not double",
            grows);
        SMA(&c, failures > 0, "%s", "no allocation was ever failed");
        o->destroy(sl, NULL, NULL);
        free(sl);
        sm_alloc_done(&c, &a);
    }
}

static void sm_enomem_inserts_named(const struct sm_ops *o, void *name)
{
    sm_enomem_inserts(o, (const char *)name);
}

Test(small_lists, enomem_insert_map)
{
    sm_each(SM_MAP, sm_enomem_inserts_named,
            (void *)"small_lists/enomem_insert_map");
}

Test(small_lists, enomem_insert_extent)
{
    sm_each(SM_EXTENT, sm_enomem_inserts_named,
            (void *)"small_lists/enomem_insert_extent");
}

Test(small_lists, enomem_push_queue)
{
    sm_each(SM_QUEUE, sm_enomem_inserts_named,
            (void *)"small_lists/enomem_push_queue");
}

/*
 * Requeues swept at every size from 1 to 2*KPN+2: the largest element
 * moved in front of the smallest (past KPN that needs a leaf reserved
 * before anything moves: at n = KPN+1 the first leaf is full) and a
 * random element to a random key. -ENOMEM keeps e queued at its old key.
 */
Test(small_lists, enomem_requeue_queue)
{
    static struct sm_elem pool[SM_POOL];
    static struct sm_model m;
    uint64_t seed = tc_seed("small_lists/enomem_requeue_queue");
    struct tc_rng r;
    tc_rng_init(&r, seed);
    for (size_t i = 0; i < SM_LEN(sm_all); i++) {
        const struct sm_ops *o = sm_all[i];
        if (o->face != SM_QUEUE)
            continue;
        size_t top = 2u * o->kpn + 2u;
        struct sm_ctx c;
        struct sm_alloc a;
        sm_ctx_init(&c, o, pool, top);
        sm_alloc_init(&a);
        m.n = 0;
        void *sl = sm_new(o);
        cr_assert_eq(o->init(sl, &a.iface, seed), 0);
        unsigned long failures = 0;
        for (size_t n = 1; n <= top; n++) {
            struct sm_elem *e = &pool[n - 1];
            e->key = 2 * (uint64_t)n + 1000;
            cr_assert_eq(o->add(sl, e, NULL), 0);
            sm_put(&m, e);
            struct sm_elem *big = m.v[m.n - 1];
            uint64_t min = m.v[0]->key;
            struct sm_call cl = {
                SM_C_REQUEUE, big, min > 0 ? min - 1 : 0, 0, 0, 0, 0, 0};
            sm_at_step(&c,
                       "SEED=%" PRIu64 " n=%zu: requeue the largest "
                       "(id %u) to the front",
                       seed, n, big->id);
            failures += sm_sweep(&c, sl, &m, &a, &cl);
            cl.e = m.v[tc_below(&r, m.n)];
            cl.key = tc_below(&r, 2 * (uint64_t)n + 1010);
            sm_at_step(&c, "SEED=%" PRIu64 " n=%zu: requeue id %u to %" PRIu64,
                       seed, n, cl.e->id, cl.key);
            failures += sm_sweep(&c, sl, &m, &a, &cl);
        }
        sm_at_step(&c, "%s", "after the sweep");
        SMA(&c, failures > 0, "%s", "no requeue ever allocated");
        o->destroy(sl, NULL, NULL);
        free(sl);
        sm_alloc_done(&c, &a);
    }
}

/* ------------------------------------------------------- suite small */

/*
 * The small:: tests (tests/test_small.c until the two small-list suites
 * were merged), on this file's instances and ops table: every KPN of the
 * old suite's own instances (64, 24, 5, 1; extents 64 and 5) is here,
 * the map's 24 with 4-byte keys. Elements: keys 10, 20, ..., extents 5
 * long, so every face holds them in index order.
 */
enum { SM_ITEMS = 2 * 100 + 2 };
static struct sm_elem sm_items[SM_ITEMS];

static void sm_items_reset(struct sm_ctx *c, const struct sm_ops *o)
{
    sm_ctx_init(c, o, sm_items, SM_ITEMS);
    for (size_t i = 0; i < SM_ITEMS; i++) {
        sm_items[i].key = 10 * (uint64_t)(i + 1);
        sm_items[i].size = 5;
        skiplist_hook_init(&sm_items[i].hook);
    }
}

Test(small, head_is_48_bytes_and_nothing_before_the_first_insert)
{
    static struct sm_model m;
    for (size_t k = 0; k < SM_LEN(sm_all); k++) {
        const struct sm_ops *o = sm_all[k];
        struct sm_ctx c;
        char why[128];
        m.n = 0;
        sm_items_reset(&c, o);
        cr_assert_leq(o->head_size, 48u, "%s: sizeof %zu", o->label,
                      o->head_size);
        void *sl = sm_new(o);
        cr_assert_eq(o->init(sl, NULL, 7), 0);
        cr_assert_eq(o->bytes(sl), 0u, "%s: %zu bytes at init", o->label,
                     o->bytes(sl));
        /* Reads and refused writes on a list never written to. */
        sm_at_step(&c, "%s", "unwritten");
        sm_verify(&c, sl, &m);
        cr_assert_eq(o->add(sl, NULL, NULL), -EINVAL);
        cr_assert_neq(o->del(sl, &sm_items[0]), 0, "%s: erased from nothing",
                      o->label);
        cr_assert_eq(o->bytes(sl), 0u, "%s: refusals allocated %zu bytes",
                     o->label, o->bytes(sl));
        cr_assert_eq(o->check(sl, why, sizeof why), 0, "%s: %s", o->label, why);
        o->destroy(sl, NULL, NULL);
        o->destroy(sl, NULL, NULL); /* twice: nothing */
        free(sl);
    }
    cr_assert(tc_no_leaks());
}

Test(small, reads_on_an_unwritten_list)
{
    struct sm_m64 M;
    struct sm_q64 Q;
    struct sm_x64 X;
    struct sm_m64_iter it;
    struct sm_ctx c;
    sm_items_reset(&c, &sm_m64_ops);
    struct sm_elem *out = &sm_items[0];
    sm_m64_init(&M, NULL, 1);
    sm_q64_init(&Q, NULL, 1);
    sm_x64_init(&X, NULL, 1);
    cr_assert_null(sm_m64_find(&M, 5));
    cr_assert_null(sm_m64_lower_bound(&M, 5));
    cr_assert_null(sm_m64_floor(&M, 5));
    cr_assert_null(sm_m64_last(&M));
    cr_assert_null(sm_m64_iter_seek(&it, &M, 3));
    cr_assert_null(sm_m64_pop_first(&M));
    cr_assert_null(sm_q64_pop(&Q));
    cr_assert_null(sm_x64_lookup(&X, 7));
    cr_assert_eq(sm_x64_first_overlap(&X, 0, 100, &out), -ENOENT);
    cr_assert_null(out);
    sm_m64_clear(&M, NULL, NULL);
    cr_assert_eq(sm_m64_bytes(&M) + sm_q64_bytes(&Q) + sm_x64_bytes(&X), 0u);
    sm_m64_destroy(&M, NULL, NULL);
    sm_q64_destroy(&Q, NULL, NULL);
    sm_x64_destroy(&X, NULL, NULL);
}

/* Sizes to visit for a KPN: 0, 1, 2, KPN - 1, KPN, KPN + 1, 2 KPN + 1. */
static size_t sm_stops_for(unsigned kpn, size_t *out)
{
    size_t cand[] = {0, 1, 2, kpn - 1u, kpn, kpn + 1u, 2u * kpn + 1u};
    size_t n = 0;
    for (size_t i = 0; i < SM_LEN(cand); i++)
        if ((n == 0 || cand[i] > out[n - 1]) && cand[i] < SM_ITEMS)
            out[n++] = cand[i];
    return n;
}

/* Up through every size in the order given by perm, then down again in
 * order `down` (0 ascending, 1 descending, 2 interleaved from both ends),
 * the whole list compared with the model at every stop on the way up and
 * after every erase on the way down. */
static void sm_grow_and_shrink(const struct sm_ops *o, const size_t *perm,
                               int down)
{
    static struct sm_model m;
    struct sm_ctx c;
    size_t stops[8], nstops = sm_stops_for(o->kpn, stops);
    size_t top = stops[nstops - 1];
    m.n = 0;
    sm_items_reset(&c, o);
    void *sl = sm_new(o);
    cr_assert_eq(o->init(sl, NULL, 7), 0);
    size_t prev_bytes = 0;
    for (size_t s = 0, added = 0; s < nstops; s++) {
        while (added < stops[s]) {
            size_t i = perm[added++];
            cr_assert_eq(o->add(sl, &sm_items[i], NULL), 0, "%s: add %zu",
                         o->label, i);
            sm_put(&m, &sm_items[i]);
            /* Within the first leaf (n <= KPN) bytes only grow. */
            if (m.n <= o->kpn)
                cr_assert_geq(o->bytes(sl), prev_bytes, "%s: bytes shrank",
                              o->label);
            prev_bytes = o->bytes(sl);
        }
        sm_at_step(&c, "up at n=%zu", m.n);
        sm_verify(&c, sl, &m);
    }
    for (size_t r = 0; r < top; r++) {
        size_t i = down == 0   ? r
                   : down == 1 ? top - 1u - r
                               : (r % 2 ? top - 1u - r / 2 : r / 2);
        cr_assert_eq(o->del(sl, &sm_items[i]), 0, "%s: del %zu", o->label, i);
        sm_take(&m, &sm_items[i]);
        sm_at_step(&c, "down at n=%zu", m.n);
        sm_verify(&c, sl, &m);
    }
    o->destroy(sl, NULL, NULL);
    free(sl);
}

Test(small, every_face_grows_and_shrinks_through_kpn)
{
    static size_t asc[SM_ITEMS], desc[SM_ITEMS], mixed[SM_ITEMS];
    struct tc_rng r;
    tc_rng_init(&r, tc_seed("small.grow"));
    for (size_t k = 0; k < SM_LEN(sm_all); k++) {
        const struct sm_ops *o = sm_all[k];
        size_t stops[8], top = stops[sm_stops_for(o->kpn, stops) - 1];
        for (size_t i = 0; i < top; i++)
            asc[i] = desc[top - 1u - i] = mixed[i] = i;
        for (size_t i = top; i-- > 1;) { /* Fisher-Yates */
            size_t j = (size_t)tc_below(&r, i + 1u), t = mixed[i];
            mixed[i] = mixed[j];
            mixed[j] = t;
        }
        for (int d = 0; d < 3; d++) {
            sm_grow_and_shrink(o, asc, d);
            sm_grow_and_shrink(o, desc, d);
            sm_grow_and_shrink(o, mixed, d);
        }
    }
    cr_assert(tc_no_leaks());
}

/* If leaves stopped growing, one element would cost a whole KPN leaf. */
Test(small, one_element_costs_a_small_leaf)
{
    for (size_t k = 0; k < SM_LEN(sm_all); k++) {
        const struct sm_ops *o = sm_all[k];
        if (o->kpn != 64)
            continue;
        struct sm_ctx c;
        sm_items_reset(&c, o);
        void *sl = sm_new(o);
        o->init(sl, NULL, 7);
        o->add(sl, &sm_items[0], NULL);
        size_t one = o->bytes(sl);
        for (size_t i = 1; i < 64; i++)
            o->add(sl, &sm_items[i], NULL);
        size_t full = o->bytes(sl);
        /* The queue's first leaf has room for 8, the others for 1. */
        cr_assert_lt(o->face == SM_QUEUE ? 2 * one : 3 * one, full,
                     "%s: %zu bytes at n=1, %zu at n=64", o->label, one, full);
        o->destroy(sl, NULL, NULL);
        free(sl);
    }
}

/* With a caller's allocator: init allocates the bookkeeping block, and
 * its failure is -ENOMEM with nothing held. */
Test(small, init_with_a_failing_allocator)
{
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    tc_alloc_fail_at(&ta, 1);
    struct sm_m64 M;
    cr_assert_eq(sm_m64_init(&M, &ta.iface, 1), -ENOMEM);
    sm_m64_destroy(&M, NULL, NULL);
    cr_assert_eq(ta.live, 0);
    cr_assert_eq(sm_m64_init(&M, &ta.iface, 1), 0);
    cr_assert_eq(ta.live, 1, "init holds the bookkeeping block");
    sm_m64_destroy(&M, NULL, NULL);
    cr_assert_eq(ta.live, 0);
    cr_assert_eq(ta.bad_frees, 0u);
}

/* Each growth step's one allocation fails: -ENOMEM, and the list is as
 * it was (contents, check, bytes); then it succeeds. */
static void sm_enomem_at_growth(const struct sm_ops *o)
{
    static struct sm_model m;
    struct tc_alloc ta;
    struct sm_ctx c;
    m.n = 0;
    sm_items_reset(&c, o);
    tc_alloc_init(&ta);
    void *sl = sm_new(o);
    cr_assert_eq(o->init(sl, &ta.iface, 7), 0);
    for (size_t i = 0; i < (size_t)o->kpn + 2u && i < SM_ITEMS; i++) {
        size_t before = o->bytes(sl);
        unsigned long calls = ta.calls;
        tc_alloc_fail_from(&ta, 1);
        int rc = o->add(sl, &sm_items[i], NULL);
        tc_alloc_heal(&ta);
        if (rc == 0) { /* it needed no allocation */
            cr_assert_eq(ta.calls, calls, "%s: allocated and succeeded",
                         o->label);
            sm_put(&m, &sm_items[i]);
            continue;
        }
        cr_assert_eq(rc, -ENOMEM, "%s: add %zu: %d", o->label, i, rc);
        cr_assert_eq(o->bytes(sl), before, "%s: bytes moved on -ENOMEM",
                     o->label);
        cr_assert_eq(sm_items[i].hook.list, NULL, "%s: hook set on -ENOMEM",
                     o->label);
        sm_at_step(&c, "-ENOMEM at n=%zu", m.n);
        sm_verify(&c, sl, &m);
        cr_assert_eq(o->add(sl, &sm_items[i], NULL), 0, "%s: add %zu healed",
                     o->label, i);
        sm_put(&m, &sm_items[i]);
        sm_at_step(&c, "healed at n=%zu", m.n);
        sm_verify(&c, sl, &m);
    }
    o->destroy(sl, NULL, NULL);
    free(sl);
    cr_assert_eq(ta.live, 0, "%s: %ld blocks leaked", o->label, ta.live);
    cr_assert_eq(ta.bad_frees, 0u, "%s: bad frees", o->label);
}

Test(small, allocation_failure_at_each_growth_step)
{
    for (size_t k = 0; k < SM_LEN(sm_all); k++)
        sm_enomem_at_growth(sm_all[k]);
    cr_assert(tc_no_leaks());
}

/* A requeue inside a full small leaf: e leaves it and goes back in, so
 * nothing is allocated and nothing can fail, and the order is right. */
Test(small, requeue_inside_a_full_small_leaf)
{
    struct tc_alloc ta;
    struct sm_q64 Q;
    struct sm_ctx c;
    char why[256];
    sm_items_reset(&c, &sm_q64_ops);
    tc_alloc_init(&ta);
    cr_assert_eq(sm_q64_init(&Q, &ta.iface, 3), 0);
    for (size_t i = 0; i < 8; i++) /* a full first leaf (room for 8) */
        cr_assert_eq(sm_q64_push(&Q, &sm_items[i]), 0);
    unsigned long calls = ta.calls;
    sm_items[0].key = 1000; /* the front element moves to the back */
    tc_alloc_fail_from(&ta, 1);
    cr_assert_eq(sm_q64_requeue(&Q, &sm_items[0]), 0);
    tc_alloc_heal(&ta);
    cr_assert_eq(ta.calls, calls, "a requeue in a sole leaf allocated");
    cr_assert_eq(sm_q64_check(&Q, why, sizeof why), 0, "%s", why);
    cr_assert_eq(sm_q64_count(&Q), 8u);
    for (size_t i = 1; i < 8; i++)
        cr_assert_eq(sm_q64_pop(&Q), &sm_items[i]);
    cr_assert_eq(sm_q64_pop(&Q), &sm_items[0]);
    sm_q64_destroy(&Q, NULL, NULL);
    cr_assert_eq(ta.live, 0);
}

/* check() knows what room a leaf may have: KPN, or for a list's only leaf
 * anything from the first room to KPN. */
Test(small, check_knows_leaf_room)
{
    struct sm_m64 M;
    struct sm_ctx c;
    char why[256];
    sm_items_reset(&c, &sm_m64_ops);
    sm_m64_init(&M, NULL, 1);
    for (size_t i = 0; i < 3; i++)
        sm_m64_insert(&M, &sm_items[i], NULL);
    struct slx_leaf *x = slx_next(SLX_TY(sm_m64), M.sl.head, 0);
    uint16_t cap = x->cap;
    cr_assert_eq(cap, 4u, "three inserts: room 1, 2, then 4");
    x->cap = 65; /* more than KPN */
    cr_assert_neq(sm_m64_check(&M, why, sizeof why), 0);
    cr_assert(strstr(why, "room") != NULL, "%s", why);
    x->cap = cap;
    for (size_t i = 3; i < 100; i++) /* two leaves and more */
        sm_m64_insert(&M, &sm_items[i], NULL);
    cr_assert_gt(M.sl.aux->nleaves, 1u);
    x = slx_next(SLX_TY(sm_m64), M.sl.head, 0);
    cr_assert_eq(x->cap, 64u);
    x->cap = 32; /* a small leaf among several: pointers misplaced too */
    cr_assert_neq(sm_m64_check(&M, why, sizeof why), 0);
    x->cap = 64;
    cr_assert_eq(sm_m64_check(&M, why, sizeof why), 0, "%s", why);
    sm_m64_destroy(&M, NULL, NULL);
}
