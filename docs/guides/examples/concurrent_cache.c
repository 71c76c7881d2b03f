/* concurrent_cache.c: the example of docs/guides/concurrent.md.
 *
 * A shared lookup cache on skiplist_rcu.h's ordered index: reader threads
 * look entries up and walk short key ranges without taking any lock, while
 * writer threads insert and evict entries beside them. An evicted entry
 * may still be in a reader's hands, so it is freed only after an RCU grace
 * period: writer 0 hands each one to call_rcu (skiplist_rcu_call), writer
 * 1 collects a batch and frees it after one skiplist_rcu_synchronize().
 *
 * What every reader checks: entries that are never evicted (even keys) are
 * always found, with the right value; keys never inserted are never found;
 * an entry found is whole (its value matches its key); a walk returns keys
 * in strictly increasing order. Once the threads are done, the main thread
 * compares the cache with the writers' own records. Exit status 0 only
 * when every check passed.
 *
 * Build: cc -std=c11 -I. concurrent_cache.c -lurcu -lurcu-common -pthread
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "skiplist_rcu.h"

/* [define] */
struct entry {
    uint64_t key;        /* must not change while the entry is listed */
    uint64_t value;      /* here always key * 3, so readers can check it */
    struct rcu_head rcu; /* for freeing after a grace period */
};

#define ENTRY_KEY(e) ((e)->key)
SKIPLIST_RCU_DEFINE(cache, struct entry, uint64_t, ENTRY_KEY, SKIPLIST_CMP_NUM,
                    SKIPLIST_RCU_DEFAULTS)
/* [define] */

#define PINNED 4096u    /* even keys 0, 2, .. 2 * (PINNED - 1): never evicted */
#define PER_WRITER 512u /* odd keys a writer owns: 4 * i + 2 * w + 1 */
#define WRITER_OPS 60000u
#define NREADERS 2
#define NWRITERS 2
#define BATCH 64u

static struct cache cache;
static atomic_bool writers_done;
static atomic_int failures;

static void expect(bool ok, const char *what)
{
    if (!ok && atomic_fetch_add(&failures, 1) < 10)
        fprintf(stderr, "concurrent_cache: FAILED: %s\n", what);
}

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static struct entry *new_entry(uint64_t key)
{
    struct entry *e = malloc(sizeof *e);
    if (e) {
        e->key = key;
        e->value = key * 3;
    }
    return e;
}

/* [free] */
/* Runs on liburcu's call_rcu thread once no reader can hold e. */
static void free_entry_rcu(struct rcu_head *head)
{
    skiplist_rcu_callback_enter(head); /* orders the free after the readers
                                        * under ThreadSanitizer */
    free((char *)head - offsetof(struct entry, rcu));
}
/* [free] */

struct writer {
    unsigned id;
    bool present[PER_WRITER]; /* the writer's own record of its keys */
    unsigned inserts, evictions, left;
};

static uint64_t writer_key(unsigned w, unsigned i)
{
    return 4 * (uint64_t)i + 2 * (uint64_t)w + 1;
}

static void *writer_main(void *arg)
{
    struct writer *w = arg;
    struct entry *batch[BATCH];
    unsigned nbatch = 0;
    uint64_t s = 0x9e3779b97f4a7c15u * (w->id + 1);
    /* [writer] */
    rcu_register_thread(); /* every thread that calls into the cache */
    for (unsigned op = 0; op < WRITER_OPS; op++) {
        unsigned i = (unsigned)(next_rand(&s) % PER_WRITER);
        uint64_t key = writer_key(w->id, i);
        if (!w->present[i]) {
            struct entry *e = new_entry(key);
            if (!e || cache_insert(&cache, e, NULL) != 0) {
                free(e); /* -ENOMEM: nothing changed, e was never listed */
                continue;
            }
            w->inserts++;
        } else {
            struct entry *gone;
            if (cache_erase_key(&cache, key, &gone) != 0)
                continue; /* -ENOMEM: the entry stays listed */
            w->evictions++;
            if (w->id == 0) {
                skiplist_rcu_call(&gone->rcu, free_entry_rcu);
            } else {
                batch[nbatch++] = gone;
                if (nbatch == BATCH) { /* one grace period for 64 frees */
                    skiplist_rcu_synchronize();
                    while (nbatch)
                        free(batch[--nbatch]);
                }
            }
        }
        w->present[i] = !w->present[i];
    }
    skiplist_rcu_synchronize();
    while (nbatch)
        free(batch[--nbatch]);
    rcu_unregister_thread();
    /* [writer] */
    for (unsigned i = 0; i < PER_WRITER; i++)
        w->left += w->present[i];
    return NULL;
}

struct reader {
    unsigned id;
    unsigned long lookups, walks, writer_keys_seen;
};

static void *reader_main(void *arg)
{
    struct reader *r = arg;
    uint64_t s = 0x2545f4914f6cdd1du * (r->id + 1);
    rcu_register_thread();
    while (!atomic_load(&writers_done)) {
        uint64_t pinned = 2 * (next_rand(&s) % PINNED);
        uint64_t other = next_rand(&s) % (4 * PER_WRITER);
        /* [reader] */
        skiplist_rcu_read_lock();
        struct entry *e = cache_find(&cache, pinned);
        expect(e && e->value == pinned * 3, "a pinned entry is found, whole");
        e = cache_find(&cache, other); /* may or may not be there */
        expect(!e || e->value == other * 3, "an entry found is whole");
        r->writer_keys_seen += e != NULL && (other & 1);
        e = cache_find(&cache, 1u << 30); /* never inserted */
        expect(e == NULL, "a key never inserted is never found");
        skiplist_rcu_read_unlock(); /* e must not be used after this */
        /* [reader] */
        r->lookups += 3;

        /* [walk] */
        /* A short walk from a random key: strictly increasing keys, every
         * pinned key in the range included. */
        struct cache_iter it;
        uint64_t prev = 0;
        unsigned pinned_seen = 0;
        bool first = true;
        skiplist_rcu_read_lock();
        for (e = cache_iter_seek(&it, &cache, other); e && e->key < other + 64;
             e = cache_iter_next(&it)) {
            expect(first || e->key > prev, "a walk's keys increase");
            pinned_seen += e->key % 2 == 0 && e->key < 2 * PINNED;
            prev = e->key;
            first = false;
        }
        skiplist_rcu_read_unlock();
        /* [walk] */
        expect(other + 64 > 2 * PINNED || pinned_seen == 32,
               "a walk sees every pinned key in its range");
        r->walks++;
    }
    rcu_unregister_thread();
    return NULL;
}

static void release(struct entry *e, void *arg)
{
    (void)arg;
    free(e);
}

int main(void)
{
    /* [setup] */
    rcu_register_thread();
    if (cache_init(&cache, NULL, 1) != 0)
        return 1;
    for (uint64_t k = 0; k < 2 * PINNED; k += 2) {
        struct entry *e = new_entry(k);
        if (!e || cache_insert(&cache, e, NULL) != 0)
            return 1;
    }
    /* [setup] */

    static struct writer w[NWRITERS];
    static struct reader r[NREADERS];
    pthread_t wt[NWRITERS], rt[NREADERS];
    for (unsigned i = 0; i < NREADERS; i++) {
        r[i].id = i;
        if (pthread_create(&rt[i], NULL, reader_main, &r[i]) != 0)
            return 1;
    }
    for (unsigned i = 0; i < NWRITERS; i++) {
        w[i].id = i;
        if (pthread_create(&wt[i], NULL, writer_main, &w[i]) != 0)
            return 1;
    }
    for (unsigned i = 0; i < NWRITERS; i++)
        pthread_join(wt[i], NULL);
    atomic_store(&writers_done, true);
    for (unsigned i = 0; i < NREADERS; i++)
        pthread_join(rt[i], NULL);

    /* Quiescent now: the cache must hold exactly the pinned entries and
     * what each writer's record says it left. */
    size_t want = PINNED;
    skiplist_rcu_read_lock();
    for (unsigned i = 0; i < NWRITERS; i++) {
        want += w[i].left;
        expect(w[i].inserts - w[i].evictions == w[i].left,
               "inserts - evictions = entries left");
        for (unsigned k = 0; k < PER_WRITER; k++) {
            struct entry *e = cache_find(&cache, writer_key(i, k));
            expect((e != NULL) == w[i].present[k], "a writer's record holds");
        }
    }
    size_t count = cache_count(&cache);
    skiplist_rcu_read_unlock();
    expect(count == want, "count = pinned + what the writers left");
    char why[128];
    expect(cache_check(&cache, why, sizeof why) == 0, why);

    struct skiplist_rcu_stats st;
    cache_stats(&cache, &st);
    unsigned long lookups = 0, walks = 0, seen = 0, changes = 0;
    for (unsigned i = 0; i < NWRITERS; i++)
        changes += w[i].inserts + w[i].evictions;
    for (unsigned i = 0; i < NREADERS; i++) {
        lookups += r[i].lookups;
        walks += r[i].walks;
        seen += r[i].writer_keys_seen;
    }
    printf("%d writers: %lu inserts and evictions, beside %d readers: %lu "
           "lookups (%lu found a writer's entry), %lu walks\n",
           NWRITERS, changes, NREADERS, lookups, seen, walks);
    printf("%zu entries at the end; leaf splits %" PRIu64 ", merges %" PRIu64
           ", writer retries %" PRIu64 "\n",
           count, st.splits, st.merges, st.retries);

    /* [teardown] */
    /* No other thread uses the cache any more: destroy waits for every
     * queued call_rcu callback (rcu_barrier), then frees the nodes and
     * hands each remaining entry to release. */
    cache_destroy(&cache, release, NULL);
    rcu_unregister_thread();
    /* [teardown] */
    printf("concurrent_cache: %s\n",
           atomic_load(&failures) ? "checks FAILED" : "all checks passed");
    return atomic_load(&failures) ? 1 : 0;
}
