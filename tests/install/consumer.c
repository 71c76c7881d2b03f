/* consumer.c: a program built against an installed skiplist.h, as a user
 * would build it (tests/install/run.sh builds it through pkg-config,
 * find_package, add_subdirectory and FetchContent). It inserts keys
 * 0, 3, ..., 3 * (N - 1) in a scrambled order, then asks questions whose
 * answers follow from that set alone, and prints them on one line that
 * run.sh compares with what the set implies. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "skiplist.h"

struct item {
    uint64_t key;
};

#define ITEM_KEY(e) ((e)->key)
SKIPLIST_DEFINE(imap, struct item, uint64_t, ITEM_KEY, SKIPLIST_CMP_NUM,
                SKIPLIST_DEFAULTS)

enum { N = 1000, STEP = 7 }; /* STEP is prime to N: i * STEP % N visits all */

static int fail(const char *what)
{
    fprintf(stderr, "consumer: %s\n", what);
    return 1;
}

/* Walks the index in order: the sum of the keys, or 0 when a key is not
 * above the one before it. */
static uint64_t ordered_sum(struct imap *map)
{
    struct imap_iter it;
    struct item *e;
    uint64_t sum = 0, prev = 0;
    int first = 1;
    SKIPLIST_FOREACH (imap, map, it, e) {
        if (!first && e->key <= prev)
            return 0;
        sum += e->key;
        prev = e->key;
        first = 0;
    }
    return sum;
}

int main(void)
{
    static struct item items[N];
    struct imap map;
    char why[128];
    if (imap_init(&map, NULL, 1))
        return fail("init failed");
    for (unsigned i = 0; i < N; i++) {
        unsigned k = i * STEP % N;
        items[i].key = 3u * k;
        if (imap_insert(&map, &items[i], NULL))
            return fail("insert failed");
    }
    if (imap_check(&map, why, sizeof why))
        return fail(why);
    struct item *hit = imap_find(&map, 300);
    struct item *miss = imap_find(&map, 301);
    struct item *lb = imap_lower_bound(&map, 301);
    printf("skiplist %s ordered index: count %zu, find 300 %s, find 301 %s, "
           "lower_bound 301 -> %llu, in-order sum %llu\n",
           SKIPLIST_VERSION_STRING, imap_count(&map),
           hit && hit->key == 300 ? "hit" : "wrong", miss ? "wrong" : "miss",
           lb ? (unsigned long long)lb->key : 0ull,
           (unsigned long long)ordered_sum(&map));
    imap_destroy(&map, NULL, NULL);
    return 0;
}
