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
#include <string.h>

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

/* Keys other than integers: strings (const char * and char *), a struct
 * with its own comparator, double. */
struct svc {
    const char *name;
    int port;
};
#define SVC_NAME(e) ((e)->name)
SKIPLIST_DEFINE(cx_smap, struct svc, const char *, SVC_NAME, strcmp, 4, 8, 1)
struct msvc {
    char *name;
};
#define MSVC_NAME(e) ((e)->name)
SKIPLIST_DEFINE(cx_msmap, struct msvc, char *, MSVC_NAME, strcmp,
                SKIPLIST_DEFAULTS)
struct date {
    uint16_t year;
    uint8_t month, day;
};
static int date_cmp(struct date a, struct date b)
{
    if (a.year != b.year)
        return a.year < b.year ? -1 : 1;
    if (a.month != b.month)
        return a.month < b.month ? -1 : 1;
    return (a.day > b.day) - (a.day < b.day);
}
struct event {
    struct date when;
    int id;
};
#define EVENT_WHEN(e) ((e)->when)
SKIPLIST_DEFINE(cx_cal, struct event, struct date, EVENT_WHEN, date_cmp, 4, 8,
                1)
struct sample {
    double t;
};
#define SAMPLE_T(e) ((e)->t)
SKIPLIST_DEFINE(cx_ts, struct sample, double, SAMPLE_T, SKIPLIST_CMP_NUM,
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

static int use_keys(void)
{
    static const char *names[] = {"ssh", "http", "dns", "ntp", "ftp"};
    struct svc v[5];
    struct cx_smap m;
    char buf[8];
    EXPECT(cx_smap_init(&m, NULL, 5) == 0);
    for (int i = 0; i < 5; i++) {
        v[i].name = names[i];
        v[i].port = i;
        EXPECT(cx_smap_insert(&m, &v[i], NULL) == 0);
    }
    strcpy(buf, "ntp");
    EXPECT(cx_smap_find(&m, buf) == &v[3]);
    EXPECT(strcmp(cx_smap_first(&m)->name, "dns") == 0);
    EXPECT(cx_smap_check(&m, NULL, 0) == 0);
    cx_smap_destroy(&m, NULL, NULL);

    struct msvc w = {buf};
    struct cx_msmap mm;
    EXPECT(cx_msmap_init(&mm, NULL, 6) == 0);
    EXPECT(cx_msmap_insert(&mm, &w, NULL) == 0);
    EXPECT(cx_msmap_find(&mm, buf) == &w);
    cx_msmap_destroy(&mm, NULL, NULL);

    struct event ev[3];
    struct cx_cal c;
    EXPECT(cx_cal_init(&c, NULL, 7) == 0);
    for (int i = 0; i < 3; i++) {
        ev[i].when.year = (uint16_t)(2026 - i);
        ev[i].when.month = 12;
        ev[i].when.day = 4;
        ev[i].id = i;
        EXPECT(cx_cal_insert(&c, &ev[i], NULL) == 0);
    }
    EXPECT(cx_cal_first(&c) == &ev[2] && cx_cal_last(&c) == &ev[0]);
    EXPECT(cx_cal_find(&c, ev[1].when) == &ev[1]);
    cx_cal_destroy(&c, NULL, NULL);

    struct sample s[3];
    struct cx_ts t;
    EXPECT(cx_ts_init(&t, NULL, 8) == 0);
    for (int i = 0; i < 3; i++) {
        s[i].t = 1.5 - i;
        EXPECT(cx_ts_insert(&t, &s[i], NULL) == 0);
    }
    EXPECT(cx_ts_lower_bound(&t, 0.0) == &s[1]); /* 0.5 */
    EXPECT(cx_ts_floor(&t, 0.0) == &s[2]);       /* -0.5 */
    cx_ts_destroy(&t, NULL, NULL);
    return 0;
}

int main(void)
{
    if (use_map() || use_pq() || use_extent() || use_keys())
        return 1;
    printf("cxx_compile: ok\n");
    return 0;
}
