/* bsd_rb: the red-black tree of libbsd's <bsd/sys/tree.h>, intrusive (the
 * links are the element's rb member), used as a map keyed by the element's
 * key: erase looks the key up first, as the other maps do. */
#include <stdlib.h>

/* RB_GENERATE_STATIC marks its functions __unused, a BSD spelling glibc
 * does not define. */
#define __unused __attribute__((unused))
#include "bench/map_impl.h"

static int rb_cmp(const struct map_elem *a, const struct map_elem *b)
{
    return (a->key > b->key) - (a->key < b->key);
}

RB_HEAD(rbt, map_elem);
RB_GENERATE_STATIC(rbt, map_elem, rb, rb_cmp)

struct rb_map {
    struct rbt head;
    size_t count;
};

static void *rb_create(void)
{
    struct rb_map *m = malloc(sizeof(*m));
    if (m) {
        RB_INIT(&m->head);
        m->count = 0;
    }
    return m;
}

/* Intrusive: there is nothing to free but the head. */
static void rb_destroy(void *h)
{
    free(h);
}

static size_t rb_count(void *h)
{
    return ((struct rb_map *)h)->count;
}

/* The links live inside the user's element: that is the whole cost. */
static double rb_bytes(void *h)
{
    return (double)sizeof(((struct map_elem *)0)->rb) *
           (double)((struct rb_map *)h)->count;
}

/* The bare RB_HEAD (the adapter's count is the bench's bookkeeping, not
 * the tree's) and the links inside each element. */
static double rb_footprint(void *h)
{
    return (double)sizeof(struct rbt) + rb_bytes(h);
}

static void *rb_many(struct map_elem *e, size_t count)
{
    struct rbt *a = malloc(count * sizeof(*a));
    if (!a)
        return NULL;
    for (size_t i = 0; i < count; i++) {
        RB_INIT(&a[i]);
        if (RB_INSERT(rbt, &a[i], &e[i])) {
            free(a);
            return NULL;
        }
    }
    return a;
}

static inline int rb_insert(void *h, struct map_elem *e)
{
    struct rb_map *m = h;
    if (RB_INSERT(rbt, &m->head, e))
        return -1;
    m->count++;
    return 0;
}

static inline struct map_elem *rb_find(void *h, uint64_t key)
{
    struct map_elem probe;
    probe.key = key;
    return RB_FIND(rbt, &((struct rb_map *)h)->head, &probe);
}

static inline struct map_elem *rb_lower_bound(void *h, uint64_t key)
{
    struct map_elem probe;
    probe.key = key;
    return RB_NFIND(rbt, &((struct rb_map *)h)->head, &probe);
}

static inline int rb_erase(void *h, uint64_t key)
{
    struct rb_map *m = h;
    struct map_elem *e = rb_find(h, key);
    if (!e)
        return -1;
    RB_REMOVE(rbt, &m->head, e);
    m->count--;
    return 0;
}

MAP_LOOPS(rb)

static uint64_t rb_scan(void *h, size_t *count)
{
    struct map_elem *e;
    uint64_t sum = 0;
    size_t c = 0;
    RB_FOREACH(e, rbt, &((struct rb_map *)h)->head)
    {
        sum += (uintptr_t)e;
        c++;
    }
    *count = c;
    return sum;
}

const struct map_impl map_impl_bsd_rb = {
    .name = "bsd_rb",
    .create = rb_create,
    .destroy = rb_destroy,
    .count = rb_count,
    .bytes = rb_bytes,
    .insert_all = rb_insert_all,
    .find_all = rb_find_all,
    .find_dep = rb_find_dep,
    .lower_bound_all = rb_lower_bound_all,
    .erase_all = rb_erase_all,
    .scan = rb_scan,
    .footprint = rb_footprint,
    .many = rb_many,
};
