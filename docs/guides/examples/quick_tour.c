/* quick_tour.c: the README's short examples, one per face, as one program.
 *
 * README.md quotes each region below (make test checks that the quotes
 * match, line for line, and runs this program). Each function is the
 * smallest complete use of its face; the guides in docs/guides/ have the
 * realistic programs. The checks are assert()s (this file is never built
 * with NDEBUG): a failed one aborts, and the exit status is non-zero.
 *
 * Build: cc -std=c11 -I. quick_tour.c -lurcu -lurcu-common -pthread */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "skiplist.h"
#include "skiplist_rcu.h"
#include "skiplist_sched.h"

#ifdef NDEBUG
#error "quick_tour.c checks with assert(): build it without NDEBUG"
#endif

/* [ordered] */
struct item {
    uint64_t key;
    const char *name;
};
#define ITEM_KEY(e) ((e)->key)
SKIPLIST_DEFINE(imap, struct item, uint64_t, ITEM_KEY, SKIPLIST_CMP_NUM,
                SKIPLIST_DEFAULTS)

static int ordered_map(void)
{
    struct item items[] = {{30, "thirty"}, {10, "ten"}, {20, "twenty"}};
    struct imap map;
    if (imap_init(&map, NULL, 42)) /* NULL: default pooled allocator */
        return -ENOMEM;
    for (int i = 0; i < 3; i++)
        imap_insert(&map, &items[i], NULL); /* 0, -EEXIST or -ENOMEM */
    assert(imap_insert(&map, &items[0], NULL) == -EEXIST);
    assert(imap_find(&map, 20) == &items[2]);
    assert(imap_lower_bound(&map, 15) == &items[2]); /* first >= 15 */
    assert(imap_floor(&map, 15) == &items[1]);       /* last <= 15 */
    struct imap_iter it;
    struct item *e;
    SKIPLIST_FOREACH (imap, &map, it, e) /* 10 ten, 20 twenty, 30 thirty */
        printf("%" PRIu64 " %s\n", e->key, e->name);
    imap_destroy(&map, NULL, NULL); /* frees nodes, never your items */
    return 0;
}
/* [ordered] */

/* [extent] */
struct range {
    uint64_t start, size; /* [start, start + size) */
};
SKIPLIST_EXTENT_DEFINE(ranges, struct range, uint64_t, start, size,
                       SKIPLIST_DEFAULTS)

static int range_allocator(void)
{
    struct ranges used;
    struct range fw = {0, 4096}, buf = {0, 8192};
    if (ranges_init(&used, NULL, 1))
        return -ENOMEM;
    ranges_insert(&used, &fw, NULL); /* a fixed range: [0, 4096) */
    /* The lowest free 8 KiB aligned to 8 KiB inside [0, 1 MiB - 1]: */
    int rc = ranges_insert_hole(&used, &buf, 8192, 0, (1u << 20) - 1,
                                SKIPLIST_HOLE_LOWEST); /* or -ENOSPC */
    assert(rc == 0 && buf.start == 8192);              /* it sets start */
    assert(ranges_lookup(&used, 9000) == &buf);        /* who holds 9000? */
    assert(ranges_lookup(&used, 5000) == NULL);        /* nobody: free */
    printf("allocated [%" PRIu64 ", %" PRIu64 ")\n", buf.start,
           buf.start + buf.size);
    ranges_destroy(&used, NULL, NULL);
    return 0;
}
/* [extent] */

/* [pq] */
struct timer {
    uint64_t deadline;
    struct skiplist_hook hook; /* the queue's link: cancel without search */
};
#define TIMER_DEADLINE(t) ((t)->deadline)
SKIPLIST_PQ_DEFINE(timers, struct timer, uint64_t, TIMER_DEADLINE,
                   SKIPLIST_CMP_NUM, hook, SKIPLIST_PQ_DEFAULTS)

static int timer_queue(void)
{
    struct timer a = {.deadline = 300}, b = {.deadline = 100},
                 c = {.deadline = 200};
    struct timers q;
    if (timers_init(&q, NULL, 1))
        return -ENOMEM;
    timers_push(&q, &a); /* arm: 0, -EEXIST (armed already), -ENOMEM */
    timers_push(&q, &b);
    timers_push(&q, &c);
    timers_remove(&q, &b); /* cancel: through the hook, no search */
    a.deadline = 150;      /* re-arm: change the key, then requeue */
    timers_requeue(&q, &a);
    assert(timers_peek(&q) == &a);
    for (struct timer *t; (t = timers_pop(&q)) != NULL;) /* 150, then 200 */
        printf("fire at %" PRIu64 "\n", t->deadline);
    assert(!timers_queued(&b) && timers_empty(&q));
    timers_destroy(&q, NULL, NULL);
    return 0;
}
/* [pq] */

/* [rcu] */
struct entry {
    uint64_t key;
    long val;
};
#define ENTRY_KEY(e) ((e)->key)
SKIPLIST_RCU_DEFINE(cmap, struct entry, uint64_t, ENTRY_KEY, SKIPLIST_CMP_NUM,
                    SKIPLIST_RCU_DEFAULTS)

static int concurrent_map(void)
{
    static struct cmap map;
    struct entry e = {42, -1};
    rcu_register_thread(); /* every thread that calls in, first */
    if (cmap_init(&map, NULL, 1))
        return -ENOMEM;
    cmap_insert(&map, &e, NULL); /* writers: any thread, no lock of yours */
    skiplist_rcu_read_lock();    /* readers: no lock, never wait */
    struct entry *hit = cmap_find(&map, 42); /* valid until the unlock */
    assert(hit == &e);
    skiplist_rcu_read_unlock();
    int rc = cmap_erase(&map, &e);
    assert(rc == 0);
    skiplist_rcu_synchronize(); /* a grace period: now e may be freed */
    cmap_destroy(&map, NULL, NULL);
    rcu_unregister_thread();
    printf("found and erased key 42 under RCU\n");
    return 0;
}
/* [rcu] */

/* [sched] */
static int runqueue(void)
{
    static struct skiplist_sched rq; /* about 9 KiB: not on the stack */
    if (skiplist_sched_init(&rq, 4, NULL, 0)) /* 4 CPUs */
        return -ENOMEM;
    struct skiplist_sched_task t, rt;
    skiplist_sched_task_init(&t, SKIPLIST_SCHED_NORMAL, 0, 0); /* nice 0 */
    skiplist_sched_task_init(&rt, SKIPLIST_SCHED_FIFO, 50, 0); /* realtime */
    skiplist_sched_enqueue(&rq, &t);                           /* wake up */
    skiplist_sched_enqueue(&rq, &rt);
    struct skiplist_sched_task *run = skiplist_sched_pick(&rq, 0);
    assert(run == &rt);                                    /* realtime first */
    assert(skiplist_sched_pick(&rq, 1) == &t);             /* CPU 1 takes t */
    skiplist_sched_advance(&rq, 6000000);                  /* 6 ms pass */
    skiplist_sched_deschedule(&rq, 0, run, 6000000, true); /* back in */
    assert(skiplist_sched_queued(&rt));
    skiplist_sched_destroy(&rq);
    printf("CPU 0 ran the FIFO task, CPU 1 the NORMAL one\n");
    return 0;
}
/* [sched] */

int main(void)
{
    if (ordered_map() || range_allocator() || timer_queue() ||
        concurrent_map() || runqueue())
        return 1; /* out of memory */
    printf("quick_tour: all checks passed\n");
    return 0;
}
