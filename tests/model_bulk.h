/*
 * The bulk calls of issue #30 (name_build, name_erase_range,
 * name_find_many, name_lower_bound_many) as one table over opaque lists
 * and elements (struct bulk_ops), and the helpers the bulk suites share:
 *
 *   struct kface   one table over a keyed face, ordered index (plain or
 *                  ranked) or priority queue, whose elements are struct
 *                  bulk_item: a struct map_item first, so model_map.h's
 *                  sorted array is the model of every keyed face (a
 *                  queue's FIFO among equal keys is mm_insert_multi), and
 *                  a hook for the queue;
 *   bulk_sizes     the build sizes for a leaf size: empty, one, around
 *                  one leaf and around the leaf boundaries of a build;
 *   struct bulk_rec  erase_range's callback, recording what it is given;
 *   struct bulk_snap what a refused call must leave as it was.
 *
 * The extent face's table is struct xops (model_extent.h), whose bulk
 * member is a struct bulk_ops too. Used by tests/test_bulk_diff.c,
 * test_bulk_extent.c, test_bulk_alloc.c and test_bulk_bad.c.
 */
#ifndef MODEL_BULK_H
#define MODEL_BULK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "skiplist.h"
#include "test_common.h"
#include "model_map.h"
#include "model_extent.h"
#include "model_rank.h"

/* ------------------------------------------------------ the bulk calls */

typedef void bulk_fn(void *e, void *arg);

struct bulk_ops {
    int (*build)(void *l, void *const *v, size_t n);
    /* NULL on the queue face, which has no erase_range */
    size_t (*erase_range)(void *l, uint64_t lo, uint64_t hi, bulk_fn *fn,
                          void *arg);
    /* keys cross as uint64_t (callers keep them within K_T); every out[i]
     * is set to a poison value first, so one left unwritten shows */
    void (*find_many)(const void *l, const uint64_t *keys, size_t n,
                      void **out);
    void (*lower_bound_many)(const void *l, const uint64_t *keys, size_t n,
                             void **out);
};

/* erase_range's callback through the adapter: the caller's untyped one. */
struct bulk_cb {
    bulk_fn *fn;
    void *arg;
};

/* What find_many's adapter fills out[] with before the call. */
static inline void *bulk_poison(void)
{
    static const char poison = 0;
    return (void *)(uintptr_t)&poison;
}

/* name_build, name_find_many and name_lower_bound_many of every face. */
#define BULK_OPS_COMMON(name, T, K_T)                                         \
    static int name##_bk_build(void *l, void *const *v, size_t n)             \
    {                                                                         \
        return name##_build((struct name *)l, (T *const *)v, n);              \
    }                                                                         \
    static void name##_bk_many(const void *l, const uint64_t *keys, size_t n, \
                               void **out, bool find)                         \
    {                                                                         \
        K_T *k = (K_T *)calloc(n ? n : 1, sizeof(K_T));                       \
        T **o = (T **)malloc((n ? n : 1) * sizeof(T *));                      \
        if (!k || !o)                                                         \
            abort();                                                          \
        for (size_t i = 0; i < n; i++) {                                      \
            k[i] = (K_T)keys[i];                                              \
            o[i] = (T *)bulk_poison();                                        \
        }                                                                     \
        if (find)                                                             \
            name##_find_many((const struct name *)l, k, n, o);                \
        else                                                                  \
            name##_lower_bound_many((const struct name *)l, k, n, o);         \
        for (size_t i = 0; i < n; i++)                                        \
            out[i] = o[i];                                                    \
        free(k);                                                              \
        free(o);                                                              \
    }                                                                         \
    static void name##_bk_find_many(const void *l, const uint64_t *keys,      \
                                    size_t n, void **out)                     \
    {                                                                         \
        name##_bk_many(l, keys, n, out, true);                                \
    }                                                                         \
    static void name##_bk_lower_bound_many(                                   \
        const void *l, const uint64_t *keys, size_t n, void **out)            \
    {                                                                         \
        name##_bk_many(l, keys, n, out, false);                               \
    }

/* name_erase_range of an ordered or extent index: name##_bk_erase_range. */
#define BULK_ERASE_RANGE(name, T, K_T)                                     \
    static void name##_bk_tramp(T *e, void *arg)                           \
    {                                                                      \
        const struct bulk_cb *c = (const struct bulk_cb *)arg;             \
        c->fn(e, c->arg);                                                  \
    }                                                                      \
    static size_t name##_bk_erase_range(void *l, uint64_t lo, uint64_t hi, \
                                        bulk_fn *fn, void *arg)            \
    {                                                                      \
        struct bulk_cb c = {fn, arg};                                      \
        return name##_erase_range((struct name *)l, (K_T)lo, (K_T)hi,      \
                                  fn ? name##_bk_tramp : NULL, &c);        \
    }

/* name##_bulk_ops, with ERASE_RANGE (NULL on a queue). */
#define BULK_OPS_TABLE(name, ERASE_RANGE)               \
    static const struct bulk_ops name##_bulk_ops = {    \
        .build = name##_bk_build,                       \
        .erase_range = ERASE_RANGE,                     \
        .find_many = name##_bk_find_many,               \
        .lower_bound_many = name##_bk_lower_bound_many, \
    }

/* An ordered or extent index's bulk calls: name##_bulk_ops. */
#define BULK_OPS_DEFINE(name, T, K_T) \
    BULK_OPS_COMMON(name, T, K_T)     \
    BULK_ERASE_RANGE(name, T, K_T)    \
    BULK_OPS_TABLE(name, name##_bk_erase_range)

/* erase_range's callback (bulk_rec_cb with a struct bulk_rec): every
 * element it is given, in order. */
struct bulk_rec {
    void **v;
    size_t n, cap;
};

static inline void bulk_rec_cb(void *e, void *arg)
{
    struct bulk_rec *r = (struct bulk_rec *)arg;
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 256;
        r->v = (void **)realloc(r->v, r->cap * sizeof(*r->v));
        if (!r->v)
            abort();
    }
    r->v[r->n++] = e;
}

static inline void bulk_rec_free(struct bulk_rec *r)
{
    free(r->v);
    memset(r, 0, sizeof(*r));
}

/* The first i < n where a[i] != b[i], or n: one assertion for a whole
 * array (an assertion per element is most of a big list's time). */
static inline size_t bulk_diff_at(void *const *a, const void *const *b,
                                  size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return i;
    return n;
}

/* A model's answer for key: what name_find (find) or name_lower_bound
 * gives. */
typedef const void *bulk_answer_fn(const void *model, uint64_t key, bool find);

/* find_many and lower_bound_many of keys[0, nk) on l against the model's
 * answers (out, want: scratch for nk pointers): NULL when they agree,
 * else which call differed. */
static inline const char *bulk_lookup_diff(const struct bulk_ops *b,
                                           const void *l, const void *model,
                                           bulk_answer_fn *answer,
                                           const uint64_t *keys, size_t nk,
                                           void **out, void **want)
{
    for (int find = 1; find >= 0; find--) {
        if (find)
            b->find_many(l, keys, nk, out);
        else
            b->lower_bound_many(l, keys, nk, out);
        for (size_t i = 0; i < nk; i++)
            want[i] = (void *)(uintptr_t)answer(model, keys[i], find);
        if (bulk_diff_at(out, (const void *const *)want, nk) != nk)
            return find ? "find_many differs from the model"
                        : "lower_bound_many differs from the model";
    }
    return NULL;
}

/* How many keys one find_many takes: a group's size (16 descents are
 * interleaved at a time) and around it, none, one, or up to most. */
static inline size_t bulk_many_count(struct tc_rng *rng, size_t most)
{
    static const size_t sizes[] = {0, 1, 15, 16, 17, 33};
    if (tc_below(rng, 2))
        return sizes[tc_below(rng, sizeof(sizes) / sizeof(sizes[0]))];
    return (size_t)tc_below(rng, most + 1);
}

/* erase_range(lo, hi) on l, with fn recording into rec (with_fn) or
 * NULL, must erase want[0, cnt) (*got: its count): NULL when it did, in
 * order, else what differed. */
static inline const char *
bulk_erase_range_diff(const struct bulk_ops *b, void *l, uint64_t lo,
                      uint64_t hi, bool with_fn, struct bulk_rec *rec,
                      void *const *want, size_t cnt, size_t *got)
{
    rec->n = 0;
    *got = b->erase_range(l, lo, hi, with_fn ? bulk_rec_cb : NULL, rec);
    if (*got != cnt)
        return "erase_range's count differs from the model";
    if (rec->n != (with_fn ? cnt : 0))
        return "fn called a different number of times than the count";
    if (bulk_diff_at(rec->v, (const void *const *)want, rec->n) != rec->n)
        return "fn given another element, or out of key order";
    return NULL;
}

/* ------------------------------------------------------ the keyed faces */

struct bulk_item {
    struct map_item m;         /* first: &item->m is the model's element */
    struct skiplist_hook hook; /* the queue's */
};

#define BULK_ITEM_KEY(e) ((e)->m.key)

static inline uint64_t bulk_item_key(const struct bulk_item *e)
{
    return e->m.key;
}

struct kface {
    const char *label;
    unsigned kpn, maxlvl;
    bool desc;   /* instantiated with MAP_CMP_DESC */
    bool queue;  /* the priority queue: insert is push, FIFO among equals */
    size_t size; /* sizeof(struct name) */
    int (*init)(void *l, const struct skiplist_allocator *a, uint64_t seed);
    void (*destroy)(void *l);
    void (*clear)(void *l);
    /* map: insert (unique; -EEXIST for a present key); queue: push */
    int (*insert)(void *l, struct bulk_item *e);
    /* map: erase; queue: remove */
    int (*erase)(void *l, struct bulk_item *e);
    /* map: pop_first; queue: pop */
    struct bulk_item *(*pop)(void *l);
    size_t (*count)(const void *l);
    size_t (*bytes)(const void *l);
    int (*check)(const void *l, char *why, size_t len);
    /* every element in order (FOREACH) and in reverse (FOREACH_REVERSE);
     * the count, of which at most max go to out */
    size_t (*walk)(const void *l, void **out, size_t max);
    size_t (*walk_rev)(const void *l, void **out, size_t max);
    /* queue: name_queued(e); map: NULL */
    bool (*queued)(const struct bulk_item *e);
    const struct bulk_ops *bulk;
    const struct rank_ops *rank; /* NULL: not a ranked instance */
};

/* WALK and WALK_REV (static functions of a list of name): every element
 * in order (SKIPLIST_FOREACH) and in reverse (SKIPLIST_FOREACH_REVERSE);
 * they return the count, of which at most max go to out. */
#define BULK_WALKS(name, T, WALK, WALK_REV)                              \
    static size_t WALK(const void *l, void **out, size_t max)            \
    {                                                                    \
        struct name##_iter it;                                           \
        T *e;                                                            \
        size_t n = 0;                                                    \
        SKIPLIST_FOREACH (name, (const struct name *)l, it, e) {         \
            if (n < max)                                                 \
                out[n] = e;                                              \
            n++;                                                         \
        }                                                                \
        return n;                                                        \
    }                                                                    \
    static size_t WALK_REV(const void *l, void **out, size_t max)        \
    {                                                                    \
        struct name##_iter it;                                           \
        T *e;                                                            \
        size_t n = 0;                                                    \
        SKIPLIST_FOREACH_REVERSE (name, (const struct name *)l, it, e) { \
            if (n < max)                                                 \
                out[n] = e;                                              \
            n++;                                                         \
        }                                                                \
        return n;                                                        \
    }

/* The parts of every keyed face. */
#define KFACE_COMMON(name)                                                 \
    BULK_OPS_COMMON(name, struct bulk_item, uint64_t)                      \
    static int name##_kf_init(void *l, const struct skiplist_allocator *a, \
                              uint64_t seed)                               \
    {                                                                      \
        return name##_init((struct name *)l, a, seed);                     \
    }                                                                      \
    static void name##_kf_destroy(void *l)                                 \
    {                                                                      \
        name##_destroy((struct name *)l, NULL, NULL);                      \
    }                                                                      \
    static void name##_kf_clear(void *l)                                   \
    {                                                                      \
        name##_clear((struct name *)l, NULL, NULL);                        \
    }                                                                      \
    static size_t name##_kf_count(const void *l)                           \
    {                                                                      \
        return name##_count((const struct name *)l);                       \
    }                                                                      \
    static size_t name##_kf_bytes(const void *l)                           \
    {                                                                      \
        return name##_bytes((const struct name *)l);                       \
    }                                                                      \
    static int name##_kf_check(const void *l, char *why, size_t len)       \
    {                                                                      \
        return name##_check((const struct name *)l, why, len);             \
    }                                                                      \
    BULK_WALKS(name, struct bulk_item, name##_kf_walk, name##_kf_walk_rev)

#define KFACE_TABLE(name, label_, kpn_, maxlvl_, desc_, queue_, QUEUED, \
                    ERASE_RANGE, RANK)                                  \
    BULK_OPS_TABLE(name, ERASE_RANGE);                                  \
    static const struct kface name##_kface = {                          \
        .label = label_,                                                \
        .kpn = kpn_,                                                    \
        .maxlvl = maxlvl_,                                              \
        .desc = desc_,                                                  \
        .queue = queue_,                                                \
        .size = sizeof(struct name),                                    \
        .init = name##_kf_init,                                         \
        .destroy = name##_kf_destroy,                                   \
        .clear = name##_kf_clear,                                       \
        .insert = name##_kf_insert,                                     \
        .erase = name##_kf_erase,                                       \
        .pop = name##_kf_pop,                                           \
        .count = name##_kf_count,                                       \
        .bytes = name##_kf_bytes,                                       \
        .check = name##_kf_check,                                       \
        .walk = name##_kf_walk,                                         \
        .walk_rev = name##_kf_walk_rev,                                 \
        .queued = QUEUED,                                               \
        .bulk = &name##_bulk_ops,                                       \
        .rank = RANK,                                                   \
    }

/* The ordered index's own calls, and erase_range. */
#define KFACE_MAP_CALLS(name)                                 \
    static int name##_kf_insert(void *l, struct bulk_item *e) \
    {                                                         \
        return name##_insert((struct name *)l, e, NULL);      \
    }                                                         \
    static int name##_kf_erase(void *l, struct bulk_item *e)  \
    {                                                         \
        return name##_erase((struct name *)l, e);             \
    }                                                         \
    static struct bulk_item *name##_kf_pop(void *l)           \
    {                                                         \
        return name##_pop_first((struct name *)l);            \
    }                                                         \
    BULK_ERASE_RANGE(name, struct bulk_item, uint64_t)

/* SKIPLIST_DEFINE over struct bulk_item: name##_kface. */
#define KFACE_MAP_DEFINE(name, label_, desc_, KEY_OF, CMP, KPN, MAXLVL, \
                         PSHIFT)                                        \
    SKIPLIST_DEFINE(name, struct bulk_item, uint64_t, KEY_OF, CMP, KPN, \
                    MAXLVL, PSHIFT)                                     \
    KFACE_COMMON(name)                                                  \
    KFACE_MAP_CALLS(name)                                               \
    KFACE_TABLE(name, label_, KPN, MAXLVL, desc_, false, NULL,          \
                name##_bk_erase_range, NULL);

/* SKIPLIST_RANKED_DEFINE over struct bulk_item: name##_kface, with the
 * order-statistics calls (kface.rank). */
#define KFACE_RANKED_DEFINE(name, label_, desc_, KEY_OF, CMP, KPN, MAXLVL,     \
                            PSHIFT)                                            \
    SKIPLIST_RANKED_DEFINE(name, struct bulk_item, uint64_t, KEY_OF, CMP, KPN, \
                           MAXLVL, PSHIFT)                                     \
    RANK_OPS_DEFINE(name, struct bulk_item, uint64_t);                         \
    KFACE_COMMON(name)                                                         \
    KFACE_MAP_CALLS(name)                                                      \
    KFACE_TABLE(name, label_, KPN, MAXLVL, desc_, false, NULL,                 \
                name##_bk_erase_range, &name##_rank_ops);

/* SKIPLIST_PQ_DEFINE over struct bulk_item (ascending keys): name##_kface. */
#define KFACE_PQ_DEFINE(name, label_, KPN, MAXLVL, PSHIFT)                \
    SKIPLIST_PQ_DEFINE(name, struct bulk_item, uint64_t, BULK_ITEM_KEY,   \
                       SKIPLIST_CMP_NUM, hook, KPN, MAXLVL, PSHIFT)       \
    KFACE_COMMON(name)                                                    \
    static int name##_kf_insert(void *l, struct bulk_item *e)             \
    {                                                                     \
        return name##_push((struct name *)l, e);                          \
    }                                                                     \
    static int name##_kf_erase(void *l, struct bulk_item *e)              \
    {                                                                     \
        return name##_remove((struct name *)l, e);                        \
    }                                                                     \
    static struct bulk_item *name##_kf_pop(void *l)                       \
    {                                                                     \
        return name##_pop((struct name *)l);                              \
    }                                                                     \
    static bool name##_kf_queued(const struct bulk_item *e)               \
    {                                                                     \
        return name##_queued(e);                                          \
    }                                                                     \
    KFACE_TABLE(name, label_, KPN, MAXLVL, false, true, name##_kf_queued, \
                NULL, NULL);

/* Items for a keyed face: ids set, hooks zeroed, nothing in a list. */
static inline struct bulk_item *bulk_items(size_t n)
{
    struct bulk_item *v = (struct bulk_item *)calloc(n ? n : 1, sizeof(*v));
    if (!v)
        abort();
    for (size_t i = 0; i < n; i++) {
        v[i].m.id = (uint32_t)i;
        skiplist_hook_init(&v[i].hook);
    }
    return v;
}

/*
 * n keys in the list's order (descending when desc): strictly monotone
 * when unique, with gaps of 2 to 9 so that every key's neighbours are
 * free; else (a queue's) non-decreasing with half of them equal to the one
 * before. A quarter of the sets start at the first key of the key space,
 * a quarter end at its last.
 */
static inline void bulk_keys(struct tc_rng *rng, uint64_t *k, size_t n,
                             bool unique, bool desc)
{
    if (n == 0)
        return;
    uint64_t d = tc_below(rng, 4);
    uint64_t at = d == 0 ? 0 : tc_below(rng, UINT64_C(1) << 40);
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            at += unique ? 2 + tc_below(rng, 8)
                         : (tc_below(rng, 2) ? 0 : 1 + tc_below(rng, 4));
        k[i] = at;
    }
    if (d == 1) /* the last key is the key space's last */
        for (size_t i = 0; i < n; i++)
            k[i] += UINT64_MAX - at;
    if (desc) /* the complements: descending, the same gaps */
        for (size_t i = 0; i < n; i++)
            k[i] = ~k[i];
}

/*
 * The build sizes for kpn slots per leaf: 0, 1, 2, kpn - 1, kpn, kpn + 1
 * (one leaf, then the first of several), and on both sides of the
 * boundaries where a build of n > kpn takes one more leaf: per * m and
 * per * m + 1 for m = 2, 3, 7 (per = kpn * 7 / 8, at least 1, the slots a
 * build fills), 2 kpn + 1 and 1000; ascending, each once. Returns how many
 * (at most 20).
 */
static inline size_t bulk_sizes(unsigned kpn, size_t out[20])
{
    size_t per = kpn * 7u / 8u ? kpn * 7u / 8u : 1u;
    size_t c[] = {0,           1,           2,           kpn - 1u,    kpn,
                  kpn + 1u,    2 * per - 1, 2 * per,     2 * per + 1, 3 * per,
                  3 * per + 1, 7 * per,     7 * per + 1, 2 * kpn + 1, 1000};
    size_t n = 0;
    for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
        size_t j = n;
        while (j > 0 && out[j - 1] > c[i])
            j--;
        if (j > 0 && out[j - 1] == c[i])
            continue;
        memmove(out + j + 1, out + j, (n - j) * sizeof(*out));
        out[j] = c[i];
        n++;
    }
    return n;
}

/* -------------------------------------------------- unchanged, or not */

/* The calls a snapshot needs: struct kface and struct xops both have
 * them, with these types. */
struct bulk_view {
    size_t (*walk)(const void *l, void **out, size_t max);
    size_t (*count)(const void *l);
    size_t (*bytes)(const void *l);
    int (*check)(const void *l, char *why, size_t len);
};

#define BULK_VIEW(o)                                  \
    {                                                 \
        (o)->walk, (o)->count, (o)->bytes, (o)->check \
    }

enum { BULK_SNAP_MAX = 512 };

/* What a refused call must leave as it was: the elements in order, the
 * count, bytes and the allocator's calls. */
struct bulk_snap {
    size_t n, bytes;
    unsigned long calls;
    void *e[BULK_SNAP_MAX];
};

/* false when the list is too long for a snapshot or its walk and count
 * disagree */
static inline bool bulk_snap_take(struct bulk_snap *s,
                                  const struct bulk_view *o, const void *l,
                                  const struct tc_alloc *ta)
{
    s->n = o->count(l);
    s->bytes = o->bytes(l);
    s->calls = ta ? ta->calls : 0;
    return o->walk(l, s->e, BULK_SNAP_MAX) == s->n && s->n <= BULK_SNAP_MAX;
}

/* Whether the list holds what the snapshot saw, check() passes, bytes are
 * the same and (with ta) the allocator was not called since; the first
 * difference goes to why. */
static inline bool bulk_snap_same(const struct bulk_snap *s,
                                  const struct bulk_view *o, const void *l,
                                  const struct tc_alloc *ta, char *why,
                                  size_t len)
{
    static struct bulk_snap now;
    why[0] = 0;
    if (o->check(l, why, len) != 0)
        return false;
    if (!bulk_snap_take(&now, o, l, NULL) || now.n != s->n) {
        snprintf(why, len, "count %zu, was %zu", now.n, s->n);
        return false;
    }
    if (now.bytes != s->bytes) {
        snprintf(why, len, "bytes %zu, were %zu", now.bytes, s->bytes);
        return false;
    }
    if (ta && ta->calls != s->calls) {
        snprintf(why, len, "called the allocator");
        return false;
    }
    for (size_t i = 0; i < now.n; i++)
        if (now.e[i] != s->e[i]) {
            snprintf(why, len, "element %zu changed", i);
            return false;
        }
    return true;
}

/* ------------------------------------------------- either kind of list */

/* A list of a keyed face (k) or an extent instance (x): one of the two
 * set. */
struct bulk_target {
    const struct kface *k;
    const struct xops *x;
};

static inline const char *bulk_label(const struct bulk_target *t)
{
    return t->k ? t->k->label : t->x->label;
}

/* Keys per leaf: an extent instance's from its label ("u64/k4", "u32/k64
 * ranked"; "u64/default" has the default). */
static inline unsigned bulk_kpn(const struct bulk_target *t)
{
    if (t->k)
        return t->k->kpn;
    const char *k = strstr(t->x->label, "/k");
    return k ? (unsigned)strtoul(k + 2, NULL, 10) : SKIPLIST_DEFAULT_KPN;
}

static inline const struct bulk_ops *bulk_ops_of(const struct bulk_target *t)
{
    return t->k ? t->k->bulk : t->x->bulk;
}

static inline struct bulk_view bulk_view_of(const struct bulk_target *t)
{
    if (t->k) {
        struct bulk_view v = BULK_VIEW(t->k);
        return v;
    }
    struct bulk_view v = BULK_VIEW(t->x);
    return v;
}

/* A list on allocator a (NULL: the default one); NULL with *err set when
 * init fails. */
static inline void *bulk_open(const struct bulk_target *t,
                              const struct skiplist_allocator *a, uint64_t seed,
                              int *err)
{
    if (t->x)
        return t->x->new_list(a, seed, err);
    void *l = malloc(t->k->size);
    if (!l)
        abort();
    *err = t->k->init(l, a, seed);
    if (*err) {
        free(l);
        return NULL;
    }
    return l;
}

static inline void bulk_close(const struct bulk_target *t, void *l)
{
    if (t->x) {
        t->x->del_list(l);
    } else {
        t->k->destroy(l);
        free(l);
    }
}

/* n elements in the list's order, as a build takes them: keys 10 i + 5
 * (descending on a descending instance), extents [10 i + 5, +3). */
struct bulk_set {
    void **v;
    size_t n;
    struct bulk_item *items; /* a keyed face's */
};

static inline void bulk_set_make(struct bulk_set *s,
                                 const struct bulk_target *t, size_t n)
{
    s->n = n;
    s->v = (void **)malloc((n ? n : 1) * sizeof(void *));
    s->items = t->k ? bulk_items(n) : NULL;
    if (!s->v)
        abort();
    for (size_t i = 0; i < n; i++) {
        uint64_t k = 10 * (uint64_t)i + 5;
        if (t->x) {
            s->v[i] = t->x->new_elem(k, 3);
            continue;
        }
        s->items[i].m.key = t->k->desc ? UINT64_MAX - k : k;
        s->v[i] = &s->items[i];
    }
}

static inline void bulk_set_free(struct bulk_set *s,
                                 const struct bulk_target *t)
{
    for (size_t i = 0; t->x && i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    free(s->items);
    memset(s, 0, sizeof(*s));
}

/* Whether any element of the set is queued (a queue's hooks; never on
 * the other faces). */
static inline bool bulk_set_any_queued(const struct bulk_set *s,
                                       const struct bulk_target *t)
{
    for (size_t i = 0; t->k && t->k->queued && i < s->n; i++)
        if (t->k->queued(&s->items[i]))
            return true;
    return false;
}

#endif /* MODEL_BULK_H */
