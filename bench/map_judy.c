/* judyl: JudyL from libjudy, a 256-ary digital tree mapping a machine word
 * (the key) to a word (here the element's address). Its population counts
 * give the order statistics: JudyLCount (rank, count_range) and
 * JudyLByCount (select). */
#include <stdlib.h>
#include <Judy.h>

#include "bench/map_impl.h"

struct judy_map {
    Pvoid_t array;
};

static void *judy_create(void)
{
    struct judy_map *m = malloc(sizeof(*m));
    if (m)
        m->array = NULL;
    return m;
}

static void judy_destroy(void *h)
{
    struct judy_map *m = h;
    JudyLFreeArray(&m->array, PJE0);
    free(m);
}

static size_t judy_count(void *h)
{
    return (size_t)JudyLCount(((struct judy_map *)h)->array, 0, ~(Word_t)0,
                              PJE0);
}

static double judy_bytes(void *h)
{
    return (double)JudyLMemUsed(((struct judy_map *)h)->array);
}

/* The root word (a JudyL array is one Pvoid_t) and JudyLMemUsed. */
static double judy_footprint(void *h)
{
    return (double)sizeof(Pvoid_t) + judy_bytes(h);
}

static void *judy_many(struct map_elem *e, size_t count)
{
    Pvoid_t *a = malloc(count * sizeof(*a));
    if (!a)
        return NULL;
    for (size_t i = 0; i < count; i++) {
        a[i] = NULL;
        PWord_t slot = (PWord_t)JudyLIns(&a[i], (Word_t)e[i].key, PJE0);
        if (slot == PJERR) {
            free(a);
            return NULL;
        }
        *slot = (Word_t)&e[i];
    }
    return a;
}

static inline int judy_insert(void *h, struct map_elem *e)
{
    struct judy_map *m = h;
    PWord_t slot = (PWord_t)JudyLIns(&m->array, (Word_t)e->key, PJE0);
    if (slot == PJERR || *slot)
        return -1;
    *slot = (Word_t)e;
    return 0;
}

static inline struct map_elem *judy_find(void *h, uint64_t key)
{
    PWord_t slot =
        (PWord_t)JudyLGet(((struct judy_map *)h)->array, (Word_t)key, PJE0);
    return slot ? (struct map_elem *)*slot : NULL;
}

static inline struct map_elem *judy_lower_bound(void *h, uint64_t key)
{
    Word_t index = (Word_t)key;
    PWord_t slot =
        (PWord_t)JudyLFirst(((struct judy_map *)h)->array, &index, PJE0);
    return slot ? (struct map_elem *)*slot : NULL;
}

static inline int judy_erase(void *h, uint64_t key)
{
    return JudyLDel(&((struct judy_map *)h)->array, (Word_t)key, PJE0) == 1
               ? 0
               : -1;
}

MAP_LOOPS(judy)

/* Keys < key: JudyLCount over [0, key - 1], nothing below key 0 (where
 * key - 1 would wrap to the whole array). */
static inline size_t judy_rank(void *h, uint64_t key)
{
    return key ? (size_t)JudyLCount(((struct judy_map *)h)->array, 0,
                                    (Word_t)key - 1, PJE0)
               : 0;
}

/* JudyLByCount counts from 1: position i is the (i + 1)-th index. */
static inline struct map_elem *judy_at(void *h, size_t i)
{
    Word_t index;
    PWord_t slot = (PWord_t)JudyLByCount(((struct judy_map *)h)->array,
                                         (Word_t)i + 1, &index, PJE0);
    return slot ? (struct map_elem *)*slot : NULL;
}

static inline size_t judy_count_range(void *h, uint64_t lo, uint64_t hi)
{
    return lo <= hi ? (size_t)JudyLCount(((struct judy_map *)h)->array,
                                         (Word_t)lo, (Word_t)hi, PJE0)
                    : 0;
}

MAP_RANK_LOOPS(judy)

/* build: JudyL has no bulk load; ascending JudyLIns, as insert_seq. */
static int judy_build(void *h, struct map_elem *const *e, size_t n)
{
    return judy_insert_all(h, e, n) ? -1 : 0;
}

/* erase_range: no range call either. From lo, JudyLFirst finds the next
 * index still there and JudyLDel removes it, until past hi (the loop a
 * JudyL user writes; JudyLNext from a deleted index would do the same
 * descent). */
static size_t judy_erase_range(void *h, uint64_t lo, uint64_t hi)
{
    struct judy_map *m = h;
    Word_t index = (Word_t)lo;
    size_t erased = 0;
    while (lo <= hi && JudyLFirst(m->array, &index, PJE0) && index <= hi) {
        JudyLDel(&m->array, index, PJE0);
        erased++;
        if (index == hi)
            break; /* index + 1 would wrap at hi = 2^64 - 1 */
        index++;
    }
    return erased;
}

static uint64_t judy_scan(void *h, size_t *count)
{
    Pvoid_t array = ((struct judy_map *)h)->array;
    Word_t index = 0;
    uint64_t sum = 0;
    size_t c = 0;
    for (PWord_t slot = (PWord_t)JudyLFirst(array, &index, PJE0); slot;
         slot = (PWord_t)JudyLNext(array, &index, PJE0)) {
        sum += *slot;
        c++;
    }
    *count = c;
    return sum;
}

const struct map_impl map_impl_judyl = {
    .name = "judyl",
    .create = judy_create,
    .destroy = judy_destroy,
    .count = judy_count,
    .bytes = judy_bytes,
    .insert_all = judy_insert_all,
    .find_all = judy_find_all,
    .find_dep = judy_find_dep,
    .lower_bound_all = judy_lower_bound_all,
    .erase_all = judy_erase_all,
    .scan = judy_scan,
    .footprint = judy_footprint,
    .many = judy_many,
    MAP_RANK_FIELDS(judy),
    .build = judy_build,
    .erase_range = judy_erase_range,
};
