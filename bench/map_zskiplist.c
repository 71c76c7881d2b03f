/* zskiplist: a replica of the skiplist behind Redis's sorted sets (the
 * zskiplist of Redis's src/t_zset.c), for the map suite's order-statistics
 * ops. Written here from a description of that structure, not from its
 * code:
 *   - one key per node; a node is a tower of forward pointers of random
 *     height, each further level with probability 1/4, at most 32 levels;
 *   - every forward pointer carries its span: how many level-0 steps it
 *     jumps (a pointer to NULL: the steps left to the end of the list);
 *   - a backward pointer at level 0, a header node of full height, and a
 *     list head with header, tail, length and current level;
 *   - rank sums the spans crossed on the way down, select follows the
 *     spans to a position, and a count of keys in [lo, hi] is the rank
 *     of the last key <= hi less the rank of the first key >= lo.
 * Redis orders by (score, member) and finds members through a hash table
 * of its own; here the node holds the key (in Redis's score's place) and
 * the element's address (in its member's), keys are distinct, and find,
 * lower_bound and erase search the list itself. Nodes come from malloc as
 * Redis's come from zmalloc; the level draw uses a seeded generator of its
 * own (Redis's calls random()), so a run's shape is the same every time. */
#include <stdlib.h>

#include "bench/map_impl.h"

#define ZSL_MAXLEVEL 32
/* Level seed: fixed, as MAP_SL_SEED is for ours. */
#define ZSL_SEED 0x7a736b6970ull

struct zsl_node;

struct zsl_level {
    struct zsl_node *forward;
    size_t span;
};

struct zsl_node {
    uint64_t key;
    struct map_elem *elem;
    struct zsl_node *backward;
    struct zsl_level level[]; /* the tower, as high as the node's level */
};

/* The list head as Redis has it. */
struct zsl {
    struct zsl_node *header, *tail;
    size_t length;
    int level; /* levels in use, 1 when empty */
};

/* The bench's map: the list, its level generator and the bytes its nodes
 * were allocated (requested sizes; the header node included). */
struct zsl_map {
    struct zsl zsl;
    uint64_t rng;
    size_t bytes;
};

static size_t zsl_node_size(int level)
{
    return sizeof(struct zsl_node) + (size_t)level * sizeof(struct zsl_level);
}

/* 1 + one level per pair of low zero bits of a xorshift64* output: level k
 * + 1 with probability 1/4 of level k's; ctz of r | 2^62 is at most 62, so
 * at most 32 levels. */
static int zsl_random_level(uint64_t *rng)
{
    uint64_t x = *rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *rng = x;
    x *= 0x2545f4914f6cdd1dull;
    return 1 + __builtin_ctzll(x | (1ull << 62)) / 2;
}

/* An empty list: the header node of full height, every pointer NULL. */
static int zsl_init(struct zsl *z, size_t *bytes)
{
    z->header = malloc(zsl_node_size(ZSL_MAXLEVEL));
    if (!z->header)
        return -1;
    z->header->key = 0;
    z->header->elem = NULL;
    z->header->backward = NULL;
    for (int i = 0; i < ZSL_MAXLEVEL; i++) {
        z->header->level[i].forward = NULL;
        z->header->level[i].span = 0;
    }
    z->tail = NULL;
    z->length = 0;
    z->level = 1;
    *bytes += zsl_node_size(ZSL_MAXLEVEL);
    return 0;
}

static void zsl_free(struct zsl *z)
{
    struct zsl_node *x = z->header;
    while (x) {
        struct zsl_node *next = x->level[0].forward;
        free(x);
        x = next;
    }
}

/* Links e under its key: 0, or -1 when the key is present or malloc
 * fails. */
static inline int zsl_insert(struct zsl *z, uint64_t *rng, size_t *bytes,
                             struct map_elem *e)
{
    struct zsl_node *prev[ZSL_MAXLEVEL], *x = z->header;
    size_t pos[ZSL_MAXLEVEL]; /* rank of prev[i] (the header: 0) */
    uint64_t key = e->key;
    size_t at = 0;

    for (int i = z->level - 1; i >= 0; i--) {
        while (x->level[i].forward && x->level[i].forward->key < key) {
            at += x->level[i].span;
            x = x->level[i].forward;
        }
        prev[i] = x;
        pos[i] = at;
    }
    if (x->level[0].forward && x->level[0].forward->key == key)
        return -1;

    int h = zsl_random_level(rng);
    struct zsl_node *n = malloc(zsl_node_size(h));
    if (!n)
        return -1;
    *bytes += zsl_node_size(h);
    /* Levels the list did not use yet start at the header, their pointer
     * to NULL spanning the whole list. */
    for (int i = z->level; i < h; i++) {
        prev[i] = z->header;
        pos[i] = 0;
        z->header->level[i].span = z->length;
    }
    if (h > z->level)
        z->level = h;

    n->key = key;
    n->elem = e;
    /* n lands at rank at + 1; prev[i] at pos[i] now jumps to n, and n takes
     * over the rest of prev[i]'s old jump. */
    for (int i = 0; i < h; i++) {
        size_t before = at - pos[i];
        n->level[i].forward = prev[i]->level[i].forward;
        n->level[i].span = prev[i]->level[i].span - before;
        prev[i]->level[i].forward = n;
        prev[i]->level[i].span = before + 1;
    }
    /* Higher pointers jump over n now. */
    for (int i = h; i < z->level; i++)
        prev[i]->level[i].span++;

    n->backward = prev[0] == z->header ? NULL : prev[0];
    if (n->level[0].forward)
        n->level[0].forward->backward = n;
    else
        z->tail = n;
    z->length++;
    return 0;
}

/* The last node whose key is < key (strict) or <= key, from the header,
 * and its rank (the header: 0) in *rank. */
static inline struct zsl_node *zsl_last_below(const struct zsl *z, uint64_t key,
                                              int inclusive, size_t *rank)
{
    struct zsl_node *x = z->header;
    size_t r = 0;
    for (int i = z->level - 1; i >= 0; i--) {
        struct zsl_node *f;
        while ((f = x->level[i].forward) &&
               (f->key < key || (inclusive && f->key == key))) {
            r += x->level[i].span;
            x = f;
        }
    }
    *rank = r;
    return x;
}

static inline struct map_elem *zsl_lower_bound(const struct zsl *z,
                                               uint64_t key)
{
    size_t r;
    struct zsl_node *f = zsl_last_below(z, key, 0, &r)->level[0].forward;
    return f ? f->elem : NULL;
}

static inline struct map_elem *zsl_find(const struct zsl *z, uint64_t key)
{
    size_t r;
    struct zsl_node *f = zsl_last_below(z, key, 0, &r)->level[0].forward;
    return f && f->key == key ? f->elem : NULL;
}

/* Unlinks and frees key's node: 0, or -1 when the key is absent. */
static inline int zsl_erase(struct zsl *z, size_t *bytes, uint64_t key)
{
    struct zsl_node *prev[ZSL_MAXLEVEL], *x = z->header;

    for (int i = z->level - 1; i >= 0; i--) {
        while (x->level[i].forward && x->level[i].forward->key < key)
            x = x->level[i].forward;
        prev[i] = x;
    }
    x = x->level[0].forward;
    if (!x || x->key != key)
        return -1;

    int h = 0;
    for (int i = 0; i < z->level; i++) {
        if (prev[i]->level[i].forward == x) {
            /* prev[i] takes over x's jump, less the step onto x. */
            prev[i]->level[i].forward = x->level[i].forward;
            prev[i]->level[i].span += x->level[i].span - 1;
            h++;
        } else {
            prev[i]->level[i].span--;
        }
    }
    if (x->level[0].forward)
        x->level[0].forward->backward = x->backward;
    else
        z->tail = x->backward;
    while (z->level > 1 && !z->header->level[z->level - 1].forward)
        z->level--;
    z->length--;
    *bytes -= zsl_node_size(h);
    free(x);
    return 0;
}

/* The element at 0-based position i (NULL past the end): the node of rank
 * i + 1, reached by never jumping past it. */
static inline struct map_elem *zsl_at(const struct zsl *z, size_t i)
{
    struct zsl_node *x = z->header;
    size_t want = i + 1, r = 0;
    if (i >= z->length)
        return NULL;
    for (int l = z->level - 1; l >= 0; l--) {
        while (x->level[l].forward && r + x->level[l].span <= want) {
            r += x->level[l].span;
            x = x->level[l].forward;
        }
        if (r == want)
            return x->elem;
    }
    return NULL;
}

/* ----------------------------------------------------------- the adapter */
static void *zmap_create(void)
{
    struct zsl_map *m = malloc(sizeof(*m));
    if (!m)
        return NULL;
    m->rng = ZSL_SEED;
    m->bytes = 0;
    if (zsl_init(&m->zsl, &m->bytes) != 0) {
        free(m);
        return NULL;
    }
    return m;
}

static void zmap_destroy(void *h)
{
    zsl_free(&((struct zsl_map *)h)->zsl);
    free(h);
}

static size_t zmap_count(void *h)
{
    return ((struct zsl_map *)h)->zsl.length;
}

static double zmap_bytes(void *h)
{
    return (double)((struct zsl_map *)h)->bytes;
}

/* The list head as Redis embeds it (header, tail, length, level) and the
 * nodes it allocated, the header node included. */
static double zmap_footprint(void *h)
{
    return (double)sizeof(struct zsl) + zmap_bytes(h);
}

static void *zmap_many(struct map_elem *e, size_t count)
{
    struct zsl *a = malloc(count * sizeof(*a));
    uint64_t rng = ZSL_SEED;
    size_t bytes = 0;
    for (size_t i = 0; a && i < count; i++)
        if (zsl_init(&a[i], &bytes) != 0 ||
            zsl_insert(&a[i], &rng, &bytes, &e[i]) != 0) {
            free(a); /* a child process that exits: no zsl_free */
            a = NULL;
        }
    return a;
}

static inline int zmap_insert(void *h, struct map_elem *e)
{
    struct zsl_map *m = h;
    return zsl_insert(&m->zsl, &m->rng, &m->bytes, e);
}

static inline struct map_elem *zmap_find(void *h, uint64_t key)
{
    return zsl_find(&((struct zsl_map *)h)->zsl, key);
}

static inline struct map_elem *zmap_lower_bound(void *h, uint64_t key)
{
    return zsl_lower_bound(&((struct zsl_map *)h)->zsl, key);
}

static inline int zmap_erase(void *h, uint64_t key)
{
    struct zsl_map *m = h;
    return zsl_erase(&m->zsl, &m->bytes, key);
}

/* Keys < key: the rank of the last node below it. */
static inline size_t zmap_rank(void *h, uint64_t key)
{
    size_t r;
    zsl_last_below(&((struct zsl_map *)h)->zsl, key, 0, &r);
    return r;
}

static inline struct map_elem *zmap_at(void *h, size_t i)
{
    return zsl_at(&((struct zsl_map *)h)->zsl, i);
}

/* Keys in [lo, hi]: (keys <= hi) - (keys < lo), two descents. */
static inline size_t zmap_count_range(void *h, uint64_t lo, uint64_t hi)
{
    const struct zsl *z = &((struct zsl_map *)h)->zsl;
    size_t below_lo, upto_hi;
    if (lo > hi)
        return 0;
    zsl_last_below(z, hi, 1, &upto_hi);
    zsl_last_below(z, lo, 0, &below_lo);
    return upto_hi - below_lo;
}

MAP_LOOPS(zmap)
MAP_RANK_LOOPS(zmap)

static uint64_t zmap_scan(void *h, size_t *count)
{
    const struct zsl *z = &((struct zsl_map *)h)->zsl;
    uint64_t sum = 0;
    size_t c = 0;
    for (const struct zsl_node *x = z->header->level[0].forward; x;
         x = x->level[0].forward) {
        sum += (uintptr_t)x->elem;
        c++;
    }
    *count = c;
    return sum;
}

const struct map_impl map_impl_zskiplist = {
    .name = "zskiplist",
    .create = zmap_create,
    .destroy = zmap_destroy,
    .count = zmap_count,
    .bytes = zmap_bytes,
    .insert_all = zmap_insert_all,
    .find_all = zmap_find_all,
    .find_dep = zmap_find_dep,
    .lower_bound_all = zmap_lower_bound_all,
    .erase_all = zmap_erase_all,
    .scan = zmap_scan,
    .footprint = zmap_footprint,
    .many = zmap_many,
    MAP_RANK_FIELDS(zmap),
};
