/*
 * skiplist_rcu.h compiled as C++ (g++ and clang++, -std=c++17) and, from
 * this same file, as C99 and C11 (gcc and clang, -x c), strict warnings
 * and -Werror, as tests/cxx_compile.cc does for skiplist.h: written in the
 * common subset of the two languages. Both faces are instantiated (each
 * with small nodes, with the defaults, and in the split PROTOTYPE /
 * GENERATE form) and used a little on one thread, readers through const
 * pointers, and the program checks its own answers, so a header that
 * compiles but misbehaves in one language fails too. The flavor is the
 * build's -D switch (none: memb). Built and run by tests/tests.mk.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "skiplist_rcu.h"

struct item {
    uint64_t key;
    int value;
};
#define ITEM_KEY(e) ((e)->key)
SKIPLIST_RCU_DEFINE(hc_map, struct item, uint64_t, ITEM_KEY, SKIPLIST_CMP_NUM,
                    SKIPLIST_RCU_DEFAULTS)
SKIPLIST_RCU_DEFINE(hc_map4, struct item, uint64_t, ITEM_KEY, SKIPLIST_CMP_NUM,
                    4, 3, 1)

struct ext {
    uint32_t start, size;
};
SKIPLIST_RCU_EXTENT_DEFINE(hc_ext, struct ext, uint32_t, start, size,
                           SKIPLIST_RCU_DEFAULTS)
SKIPLIST_RCU_EXTENT_DEFINE(hc_ext4, struct ext, uint32_t, start, size, 4, 3, 1)

/* The split form: declarations (as in a header), then the one definition
 * of each function, with external linkage. */
SKIPLIST_RCU_PROTOTYPE(hc_split, struct item, uint64_t, ITEM_KEY,
                       SKIPLIST_CMP_NUM, 8, 4, 2)
SKIPLIST_RCU_GENERATE(hc_split, struct item, uint64_t, ITEM_KEY,
                      SKIPLIST_CMP_NUM, 8, 4, 2)
SKIPLIST_RCU_EXTENT_PROTOTYPE(hc_split_ext, struct ext, uint32_t, start, size,
                              8, 4, 2)
SKIPLIST_RCU_EXTENT_GENERATE(hc_split_ext, struct ext, uint32_t, start, size, 8,
                             4, 2)

static int failures;

static void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "hdr_compile: %s\n", what);
        failures++;
    }
}

static void count_one(struct item *e, void *arg)
{
    (void)e;
    (*(int *)arg)++;
}

#define N_ITEMS 200

/* The map face: insert, refuse a duplicate, find, bounds, walk both
 * ways, erase, check, destroy. One macro body for both instantiations. */
#define MAP_EXERCISE(name)                                                   \
    static void name##_exercise(void)                                        \
    {                                                                        \
        static struct item items[N_ITEMS];                                   \
        struct item dup, *got = NULL, *e;                                    \
        struct name map;                                                     \
        const struct name *cmap = &map; /* readers take a const list */      \
        struct name##_iter it;                                               \
        char why[128];                                                       \
        int n = 0;                                                           \
        expect(name##_init(&map, NULL, 1) == 0, #name ": init");             \
        for (int i = 0; i < N_ITEMS; i++) {                                  \
            items[i].key = (uint64_t)(2 * ((i * 7) % N_ITEMS));              \
            items[i].value = i;                                              \
            expect(name##_insert(&map, &items[i], NULL) == 0,                \
                   #name ": insert");                                        \
        }                                                                    \
        dup.key = 10;                                                        \
        skiplist_rcu_read_lock();                                            \
        expect(name##_insert(&map, &dup, &got) == -EEXIST && got &&          \
                   got->key == 10,                                           \
               #name ": duplicate");                                         \
        expect(name##_find(cmap, 10) == got, #name ": find");                \
        expect(name##_find(cmap, 11) == NULL, #name ": find absent");        \
        e = name##_lower_bound(cmap, 11);                                    \
        expect(e && e->key == 12, #name ": lower_bound");                    \
        e = name##_upper_bound(cmap, 12);                                    \
        expect(e && e->key == 14, #name ": upper_bound");                    \
        e = name##_floor(cmap, 13);                                          \
        expect(e && e->key == 12, #name ": floor");                          \
        e = name##_below(cmap, 12);                                          \
        expect(e && e->key == 10, #name ": below");                          \
        e = name##_first(cmap);                                              \
        expect(e && e->key == 0, #name ": first");                           \
        e = name##_last(cmap);                                               \
        expect(e && e->key == 2 * (N_ITEMS - 1), #name ": last");            \
        for (e = name##_iter_first(&it, cmap); e; e = name##_iter_next(&it)) \
            n++;                                                             \
        for (e = name##_iter_last(&it, cmap); e; e = name##_iter_prev(&it))  \
            n++;                                                             \
        e = name##_iter_seek(&it, cmap, 101);                                \
        expect(e && e->key == 102, #name ": seek");                          \
        expect(name##_count(cmap) == N_ITEMS, #name ": count");              \
        skiplist_rcu_read_unlock();                                          \
        expect(n == 2 * N_ITEMS, #name ": walks");                           \
        expect(name##_erase_key(&map, 10, &got) == 0 && got->key == 10,      \
               #name ": erase_key");                                         \
        expect(name##_erase(&map, &items[1]) == 0, #name ": erase");         \
        expect(name##_erase(&map, &items[1]) == -ENOENT,                     \
               #name ": erase again");                                       \
        expect(name##_check(cmap, why, sizeof(why)) == 0, why);              \
        struct skiplist_rcu_stats st;                                        \
        name##_stats(cmap, &st);                                             \
        n = 0;                                                               \
        name##_destroy(&map, count_one, &n);                                 \
        expect(n == N_ITEMS - 2, #name ": destroy");                         \
    }
MAP_EXERCISE(hc_map)
MAP_EXERCISE(hc_map4)
MAP_EXERCISE(hc_split)

/* The extent face: insert, clash, insert_hole both ways, lookup, overlap
 * queries and walks, erase, check, destroy. */
#define EXT_EXERCISE(name)                                                   \
    static void name##_exercise(void)                                        \
    {                                                                        \
        static struct ext exts[N_ITEMS];                                     \
        struct ext hole, bad, *got = NULL, *e;                               \
        struct name idx;                                                     \
        const struct name *cidx = &idx;                                      \
        struct name##_iter it;                                               \
        char why[128];                                                       \
        int n = 0;                                                           \
        expect(name##_init(&idx, NULL, 2) == 0, #name ": init");             \
        for (int i = 0; i < N_ITEMS; i++) {                                  \
            exts[i].start = (uint32_t)(100 * i);                             \
            exts[i].size = 50;                                               \
            expect(name##_insert(&idx, &exts[i], &got) == 0,                 \
                   #name ": insert");                                        \
        }                                                                    \
        bad.start = 120;                                                     \
        bad.size = 100;                                                      \
        skiplist_rcu_read_lock();                                            \
        expect(name##_insert(&idx, &bad, &got) == -EEXIST && got,            \
               #name ": clash");                                             \
        skiplist_rcu_read_unlock();                                          \
        bad.start = UINT32_MAX - 1;                                          \
        bad.size = 3;                                                        \
        expect(name##_insert(&idx, &bad, &got) == -EINVAL, #name ": wraps"); \
        hole.size = 40;                                                      \
        expect(name##_insert_hole(&idx, &hole, 16, 0, UINT32_MAX,            \
                                  SKIPLIST_HOLE_LOWEST) == 0 &&              \
                   hole.start == 160,                                        \
               #name ": insert_hole lowest");                                \
        expect(name##_erase(&idx, &hole) == 0, #name ": erase the hole");    \
        expect(name##_insert_hole(&idx, &hole, 1, 0, 20049,                  \
                                  SKIPLIST_HOLE_HIGHEST) == 0 &&             \
                   hole.start == 20010,                                      \
               #name ": insert_hole highest");                               \
        skiplist_rcu_read_lock();                                            \
        expect(name##_lookup(cidx, 149) == &exts[1], #name ": lookup");      \
        expect(name##_lookup(cidx, 150) == NULL, #name ": lookup a gap");    \
        expect(name##_first_overlap(cidx, 151, 260, &got) == 0 &&            \
                   got == &exts[2],                                          \
               #name ": first_overlap");                                     \
        expect(name##_first_overlap(cidx, 9, 8, &got) == -EINVAL,            \
               #name ": first_overlap lo > hi");                             \
        for (e = name##_iter_overlap(&it, cidx, 149, 401); e;                \
             e = name##_iter_next_overlap(&it))                              \
            n++;                                                             \
        expect(n == 4, #name ": overlap walk");                              \
        n = 0;                                                               \
        for (e = name##_iter_first(&it, cidx); e; e = name##_iter_next(&it)) \
            n++;                                                             \
        for (e = name##_iter_last(&it, cidx); e; e = name##_iter_prev(&it))  \
            n++;                                                             \
        e = name##_iter_seek(&it, cidx, 101);                                \
        expect(e == &exts[2], #name ": seek");                               \
        expect(name##_count(cidx) == N_ITEMS + 1, #name ": count");          \
        skiplist_rcu_read_unlock();                                          \
        expect(n == 2 * (N_ITEMS + 1), #name ": walks");                     \
        expect(name##_erase(&idx, &exts[3]) == 0, #name ": erase");          \
        expect(name##_check(cidx, why, sizeof(why)) == 0, why);              \
        name##_destroy(&idx, NULL, NULL);                                    \
    }
EXT_EXERCISE(hc_ext)
EXT_EXERCISE(hc_ext4)
EXT_EXERCISE(hc_split_ext)

int main(void)
{
    rcu_register_thread();
    hc_map_exercise();
    hc_map4_exercise();
    hc_ext_exercise();
    hc_ext4_exercise();
    hc_split_exercise();
    hc_split_ext_exercise();
    rcu_unregister_thread();
    if (failures)
        return 1;
    printf("skiplist_rcu.h header check (%s): both faces work\n",
#ifdef __cplusplus
           "C++"
#else
           "C"
#endif
    );
    return 0;
}
