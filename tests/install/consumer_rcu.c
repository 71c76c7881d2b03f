/* consumer_rcu.c: a program built against an installed skiplist_rcu.h, so
 * that the build must find liburcu through the package's own metadata
 * (skiplist-rcu.pc, or the skiplist::rcu CMake target). One writer thread
 * inserts keys 0, 5, ..., 5 * (N - 1) while the main thread is registered
 * too; after the join the main thread reads them back inside a read-side
 * section and prints one line that tests/install/run.sh checks, naming the
 * liburcu flavor the package's flags selected. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "skiplist_rcu.h"

struct item {
    uint64_t key;
};

#define ITEM_KEY(e) ((e)->key)
SKIPLIST_RCU_DEFINE(cmap, struct item, uint64_t, ITEM_KEY, SKIPLIST_CMP_NUM,
                    SKIPLIST_RCU_DEFAULTS)

#if defined(SKIPLIST_RCU_QSBR)
#define FLAVOR "qsbr"
#elif defined(SKIPLIST_RCU_BP)
#define FLAVOR "bp"
#elif defined(SKIPLIST_RCU_MB)
#define FLAVOR "mb"
#else
#define FLAVOR "memb"
#endif

enum { N = 500 };

static struct cmap map;
static struct item items[N];

/* The writer: its own registration, as every thread that calls in. */
static void *writer(void *arg)
{
    int *failed = arg;
    rcu_register_thread();
    for (unsigned i = 0; i < N; i++) {
        items[i].key = 5u * (N - 1 - i); /* descending: splits at the front */
        if (cmap_insert(&map, &items[i], NULL))
            *failed = 1;
    }
    rcu_unregister_thread();
    return NULL;
}

int main(void)
{
    pthread_t t;
    int failed = 0;
    char why[128];
    rcu_register_thread();
    if (cmap_init(&map, NULL, 3)) {
        fprintf(stderr, "consumer_rcu: init failed\n");
        return 1;
    }
    if (pthread_create(&t, NULL, writer, &failed) || pthread_join(t, NULL) ||
        failed || cmap_check(&map, why, sizeof why)) {
        fprintf(stderr, "consumer_rcu: writer failed\n");
        return 1;
    }
    skiplist_rcu_read_lock();
    struct item *hit = cmap_find(&map, 250);
    struct item *miss = cmap_find(&map, 251);
    struct item *ub = cmap_upper_bound(&map, 250);
    printf("skiplist %s rcu index (%s): count %zu, find 250 %s, find 251 %s, "
           "upper_bound 250 -> %llu\n",
           SKIPLIST_VERSION_STRING, FLAVOR, cmap_count(&map),
           hit && hit->key == 250 ? "hit" : "wrong", miss ? "wrong" : "miss",
           ub ? (unsigned long long)ub->key : 0ull);
    skiplist_rcu_read_unlock();
    cmap_destroy(&map, NULL, NULL);
    rcu_unregister_thread();
    return 0;
}
