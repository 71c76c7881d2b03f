/*
 * The headers compiled as C++ (g++ and clang++, -std=c++17, strict
 * warnings, -Werror) and, from this same file, as C99 and C11 (gcc and
 * clang, -x c): it is written in the common subset of the two languages
 * (no designated initializers, explicit casts from void *). Each face is
 * instantiated and used a little, and the program checks its own answers,
 * so a header that compiles but misbehaves in C++ is caught too.
 * Built and run by tests.mk as part of `make test`.
 */
#include <stdint.h>
#include <stdio.h>

#include "skiplist.h"

struct item {
    uint64_t key;
    int value;
};
#define ITEM_KEY(e) ((e)->key)
SKIPLIST_DEFINE(cx_map, struct item, uint64_t, ITEM_KEY, SKIPLIST_CMP_NUM,
                SKIPLIST_DEFAULTS)
SKIPLIST_DEFINE(cx_map1, struct item, uint64_t, ITEM_KEY, SKIPLIST_CMP_NUM, 1,
                32, 1)

struct task {
    unsigned long prio;
    struct skiplist_hook hook;
};
#define TASK_KEY(e) ((e)->prio)
SKIPLIST_PQ_DEFINE(cx_pq, struct task, unsigned long, TASK_KEY,
                   SKIPLIST_CMP_NUM, hook, SKIPLIST_DEFAULTS)

struct ext {
    uint64_t start, size;
};
SKIPLIST_EXTENT_DEFINE(cx_ext, struct ext, uint64_t, start, size,
                       SKIPLIST_DEFAULTS)

#define EXPECT(cond)                                                        \
    do {                                                                    \
        if (!(cond)) {                                                      \
            fprintf(stderr, "cxx_compile: %s:%d: %s\n", __FILE__, __LINE__, \
                    #cond);                                                 \
            return 1;                                                       \
        }                                                                   \
    } while (0)

static int use_map(void)
{
    static struct item items[300];
    struct cx_map m;
    struct cx_map1 m1;
    struct cx_map_iter it;
    struct item *e, *tmp, *ex = NULL;
    uint64_t prev = 0;
    size_t n = 0;
    EXPECT(cx_map_init(&m, NULL, 1) == 0);
    EXPECT(cx_map1_init(&m1, NULL, 2) == 0);
    for (size_t i = 0; i < 300; i++) {
        items[i].key = (uint64_t)((i * 7) % 300);
        items[i].value = (int)i;
        EXPECT(cx_map_insert(&m, &items[i], NULL) == 0);
        EXPECT(cx_map1_insert_multi(&m1, &items[i]) == 0);
    }
    EXPECT(cx_map_insert(&m, &items[0], &ex) == -EEXIST && ex == &items[0]);
    SKIPLIST_FOREACH (cx_map, &m, it, e) {
        EXPECT(n == 0 || e->key > prev);
        prev = e->key;
        n++;
    }
    EXPECT(n == 300);
    SKIPLIST_FOREACH_REVERSE (cx_map, &m, it, e) {
        n--;
    }
    EXPECT(n == 0);
    SKIPLIST_FOREACH_FROM (cx_map, &m, it, e, 290) {
        n++;
    }
    EXPECT(n == 10);
    SKIPLIST_FOREACH_SAFE (cx_map, &m, it, e, tmp) {
        if (e->key % 2)
            EXPECT(cx_map_erase(&m, e) == 0);
    }
    EXPECT(cx_map_count(&m) == 150);
    EXPECT(cx_map_check(&m, NULL, 0) == 0);
    EXPECT(cx_map1_floor(&m1, 1000) == cx_map1_last(&m1));
    cx_map_destroy(&m, NULL, NULL);
    cx_map1_destroy(&m1, NULL, NULL);
    return 0;
}

static int use_pq(void)
{
    static struct task t[64];
    struct cx_pq q;
    EXPECT(cx_pq_init(&q, NULL, 3) == 0);
    for (size_t i = 0; i < 64; i++) {
        skiplist_hook_init(&t[i].hook);
        t[i].prio = (unsigned long)(63 - i) / 2;
        EXPECT(cx_pq_push(&q, &t[i]) == 0);
        EXPECT(cx_pq_queued(&t[i]));
    }
    EXPECT(cx_pq_push(&q, &t[0]) == -EEXIST);
    EXPECT(cx_pq_peek(&q) == &t[62]); /* prio 0, FIFO among equals */
    EXPECT(cx_pq_remove(&q, &t[62]) == 0);
    EXPECT(cx_pq_pop(&q) == &t[63]);
    t[0].prio = 0;
    EXPECT(cx_pq_requeue(&q, &t[0]) == 0);
    EXPECT(cx_pq_pop(&q) == &t[0]);
    EXPECT(cx_pq_count(&q) == 61);
    cx_pq_destroy(&q, NULL, NULL);
    return 0;
}

static int use_extent(void)
{
    static struct ext x[16];
    struct cx_ext s;
    struct cx_ext_iter it;
    struct ext *e, *clash = NULL;
    size_t n = 0;
    EXPECT(cx_ext_init(&s, NULL, 4) == 0);
    for (size_t i = 0; i < 8; i++) {
        x[i].start = 100 * i;
        x[i].size = 50;
        EXPECT(cx_ext_insert(&s, &x[i], &clash) == 0);
    }
    x[8].start = 120;
    x[8].size = 10;
    EXPECT(cx_ext_insert(&s, &x[8], &clash) == -EEXIST && clash == &x[1]);
    EXPECT(cx_ext_lookup(&s, 149) == &x[1]);
    EXPECT(cx_ext_lookup(&s, 150) == NULL);
    SKIPLIST_FOREACH_OVERLAP (cx_ext, &s, it, e, 140, 319) {
        n++;
    }
    EXPECT(n == 3);
    x[9].size = 30;
    EXPECT(cx_ext_insert_hole(&s, &x[9], 16, 0, 1000, SKIPLIST_HOLE_LOWEST) ==
           0);
    EXPECT(x[9].start == 64);
    cx_ext_destroy(&s, NULL, NULL);
    return 0;
}

int main(void)
{
    if (use_map() || use_pq() || use_extent())
        return 1;
    printf("cxx_compile: ok\n");
    return 0;
}
