/*
 * skiplist_sched.h: the properties of issue 4, one test each, plus sticky
 * tasks, ISO's CPU-share limit, the deadline table, keys versus sentinels,
 * bad input and allocation failure. The differential test against the BFS
 * replica is in test_sched_random.c.
 */
/* The allocation sweep's script: more tasks than a default leaf holds. */
#define SCHED_SCRIPT_TASKS 100
#include "test_sched_common.h"

static struct skiplist_sched *rq_new(unsigned nr_cpus,
                                     const struct skiplist_allocator *a)
{
    struct skiplist_sched *rq = (struct skiplist_sched *)malloc(sizeof(*rq));
    cr_assert(rq);
    cr_assert_eq(skiplist_sched_init(rq, nr_cpus, a, 1), 0);
    return rq;
}

static void rq_free(struct skiplist_sched *rq)
{
    skiplist_sched_destroy(rq);
    free(rq);
}

static struct skiplist_sched_task *tasks(size_t n)
{
    struct skiplist_sched_task *t =
        (struct skiplist_sched_task *)calloc(n, sizeof(*t));
    cr_assert(t);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(
            skiplist_sched_task_init(&t[i], SKIPLIST_SCHED_NORMAL, 0, 0), 0);
    return t;
}

static void setp(struct skiplist_sched_task *t, int policy, int rt, int nice)
{
    cr_assert_eq(skiplist_sched_task_init(t, policy, rt, nice), 0);
}

static unsigned key_class(const struct skiplist_sched_task *t)
{
    return (unsigned)(t->key >> SKIPLIST_SCHED_CLASS_SHIFT);
}

/* Realtime (higher rt priority first) before ISO before NORMAL/BATCH (one
 * class, by deadline) before IDLEPRIO, whatever the deadlines say. */
Test(sched, class_order)
{
    struct skiplist_sched *rq = rq_new(4, NULL);
    struct skiplist_sched_task *t = tasks(8);
    enum { IDLE, BATCH, NORM, ISO, RR20, FIFO20, FIFO80, RR1 };
    setp(&t[IDLE], SKIPLIST_SCHED_IDLEPRIO, 0, -20);
    setp(&t[BATCH], SKIPLIST_SCHED_BATCH, 0, 19);
    setp(&t[NORM], SKIPLIST_SCHED_NORMAL, 0, 0);
    setp(&t[ISO], SKIPLIST_SCHED_ISO, 0, 0);
    setp(&t[RR20], SKIPLIST_SCHED_RR, 20, 0);
    setp(&t[FIFO20], SKIPLIST_SCHED_FIFO, 20, 0);
    setp(&t[FIFO80], SKIPLIST_SCHED_FIFO, 80, 0);
    setp(&t[RR1], SKIPLIST_SCHED_RR, 1, 0);
    /* The idle task gets the earliest deadline of all (6 ms), batch an
     * earlier one than normal: class still wins, batch and normal share a
     * class ordered by deadline. */
    cr_assert_eq(skiplist_sched_enqueue(rq, &t[IDLE]), 0);
    skiplist_sched_advance(rq, 500 * MS);
    cr_assert_eq(skiplist_sched_enqueue(rq, &t[BATCH]), 0);
    skiplist_sched_advance(rq, 500 * MS);
    int order[] = {RR1, NORM, ISO, FIFO20, RR20, FIFO80};
    for (size_t i = 0; i < 6; i++)
        cr_assert_eq(skiplist_sched_enqueue(rq, &t[order[i]]), 0);
    rq_check(rq);
    cr_assert_eq(key_class(&t[IDLE]), SKIPLIST_SCHED_CLASS_IDLE);
    cr_assert_eq(key_class(&t[BATCH]), SKIPLIST_SCHED_CLASS_DEADLINE);
    cr_assert_eq(key_class(&t[NORM]), SKIPLIST_SCHED_CLASS_DEADLINE);
    cr_assert_eq(key_class(&t[ISO]), SKIPLIST_SCHED_CLASS_ISO);
    cr_assert_eq(key_class(&t[RR1]), SKIPLIST_SCHED_CLASS_RT);
    int want[] = {FIFO80, FIFO20, RR20, RR1, ISO, BATCH, NORM, IDLE};
    for (size_t i = 0; i < 8; i++) {
        struct skiplist_sched_task *p = skiplist_sched_pick(rq, 2);
        cr_assert(p == &t[want[i]], "pick %zu: got %ld, want %d", i,
                  p ? (long)(p - t) : -1L, want[i]);
    }
    cr_assert_null(skiplist_sched_pick(rq, 2));
    rq_free(rq);
    free(t);
}

/* Realtime tasks of one priority run in the order they were queued; an RR
 * task whose slice ran out goes behind its equals, a FIFO task keeps no
 * slice but also re-queues at the tail (as BFS did). */
Test(sched, rt_fifo_among_equal_priority)
{
    struct skiplist_sched *rq = rq_new(2, NULL);
    struct skiplist_sched_task *t = tasks(12);
    for (int i = 0; i < 12; i++) {
        int prio = i % 3 == 0 ? 60 : 50;
        setp(&t[i], i % 2 ? SKIPLIST_SCHED_RR : SKIPLIST_SCHED_FIFO, prio, 0);
        cr_assert_eq(skiplist_sched_enqueue(rq, &t[i]), 0);
        skiplist_sched_advance(rq, (uint64_t)(12 - i) * MS); /* no effect */
    }
    int want[] = {0, 3, 6, 9, 1, 2, 4, 5, 7, 8, 10, 11};
    for (size_t i = 0; i < 12; i++) {
        struct skiplist_sched_task *p = skiplist_sched_pick(rq, 1);
        cr_assert(p == &t[want[i]], "pick %zu: got %ld want %d", i,
                  p ? (long)(p - t) : -1L, want[i]);
    }
    cr_assert_null(skiplist_sched_pick(rq, 1));
    for (size_t i = 0; i < 12; i++)
        cr_assert_eq(skiplist_sched_enqueue(rq, &t[want[i]]), 0);
    /* Now the queue is in the same order again. RR task 1 runs out its
     * slice and comes back behind 2, 4, 5, ... (its equals). */
    for (size_t i = 0; i < 4; i++)
        (void)skiplist_sched_pick(rq, 0);
    struct skiplist_sched_task *p = skiplist_sched_pick(rq, 0);
    cr_assert(p == &t[1]);
    cr_assert_eq(skiplist_sched_deschedule(rq, 0, p, 6 * MS, true), 0);
    int rest[] = {2, 4, 5, 7, 8, 10, 11, 1};
    for (size_t i = 0; i < 8; i++)
        cr_assert(skiplist_sched_pick(rq, 0) == &t[rest[i]], "rest %zu", i);
    rq_check(rq);
    rq_free(rq);
    free(t);
}

/* NORMAL tasks run earliest deadline first (deadline = enqueue time + the
 * nice level's difference); equal deadlines run in queue order. */
Test(sched, earliest_deadline_first_fifo_ties)
{
    struct tc_rng r;
    tc_rng_init(&r, tc_seed("sched.earliest_deadline_first_fifo_ties"));
    for (int round = 0; round < 50; round++) {
        struct skiplist_sched *rq = rq_new(1, NULL);
        enum { N = 60 };
        struct skiplist_sched_task *t = tasks(N);
        uint64_t dl[N];
        int order[N];
        for (int i = 0; i < N; i++) {
            int nice = (int)tc_below(&r, 4) * 5 - 5; /* -5, 0, 5, 10 */
            setp(&t[i],
                 tc_below(&r, 2) ? SKIPLIST_SCHED_NORMAL : SKIPLIST_SCHED_BATCH,
                 0, nice);
            if (tc_below(&r, 3) == 0)
                skiplist_sched_advance(rq, tc_below(&r, 30) * MS);
            dl[i] = rq->niffies + skiplist_sched_deadline_diff(nice);
            cr_assert_eq(skiplist_sched_enqueue(rq, &t[i]), 0);
            cr_assert_eq(t[i].deadline, dl[i]);
            order[i] = i;
        }
        /* Stable insertion sort by deadline: FIFO among equals. */
        for (int i = 1; i < N; i++)
            for (int j = i; j > 0 && dl[order[j - 1]] > dl[order[j]]; j--) {
                int x = order[j];
                order[j] = order[j - 1];
                order[j - 1] = x;
            }
        for (int i = 0; i < N; i++) {
            struct skiplist_sched_task *p = skiplist_sched_pick(rq, 0);
            cr_assert(p == &t[order[i]], "round %d pick %d: got %ld want %d",
                      round, i, p ? (long)(p - t) : -1L, order[i]);
        }
        rq_free(rq);
        free(t);
    }
}

/* Whether any queued task may run on cpu (brute force). */
static bool any_eligible(const struct skiplist_sched *rq,
                         const struct skiplist_sched_task *t, size_t n,
                         unsigned cpu)
{
    bool scaling = (rq->scaling[cpu / 64] >> (cpu % 64)) & 1u;
    for (size_t i = 0; i < n; i++) {
        if (!skiplist_sched_queued(&t[i]) ||
            !skiplist_sched_cpu_allowed(&t[i], cpu))
            continue;
        if (scaling && t[i].sticky_cpu >= 0 && (unsigned)t[i].sticky_cpu != cpu)
            continue;
        return true;
    }
    return false;
}

/* On 1024 CPUs: a pick never returns a task its CPU may not run, and
 * returns none only when no queued task may run there (CPUs 0, 63, 64 and
 * 1023: both ends of both mask words they fall in). */
Test(sched, affinity_pick_0_63_64_1023)
{
    struct tc_rng r;
    tc_rng_init(&r, tc_seed("sched.affinity_pick_0_63_64_1023"));
    const unsigned cpus[] = {0, 63, 64, 1023, 1, 65, 512};
    const size_t ncpus = sizeof cpus / sizeof cpus[0];
    struct skiplist_sched *rq = rq_new(1024, NULL);
    enum { N = 60 };
    struct skiplist_sched_task *t = tasks(N);
    struct skiplist_sched_task *running[1024] = {NULL};
    unsigned long nulls = 0, picks = 0;
    for (size_t i = 0; i < N; i++) {
        int pol = (int)tc_below(&r, 6);
        setp(&t[i], pol,
             pol == SKIPLIST_SCHED_FIFO || pol == SKIPLIST_SCHED_RR ? 10 : 0,
             (int)tc_below(&r, 40) - 20);
        skiplist_sched_cpu_none(&t[i]);
        /* Each task on a random subset of the interesting CPUs; some on
         * none of them. */
        for (size_t c = 0; c < ncpus; c++)
            if (tc_below(&r, 6) == 0)
                cr_assert_eq(skiplist_sched_cpu_allow(&t[i], cpus[c], true), 0);
        cr_assert_eq(skiplist_sched_enqueue(rq, &t[i]), 0);
    }
    for (int step = 0; step < 30000; step++) {
        unsigned cpu = cpus[tc_below(&r, 4)]; /* picks on 0, 63, 64, 1023 */
        struct skiplist_sched_task *x = &t[tc_below(&r, N)];
        bool busy = false;
        for (size_t c = 0; c < 4; c++)
            busy |= running[cpus[c]] == x;
        skiplist_sched_advance(rq, tc_below(&r, 3 * MS));
        switch (tc_below(&r, 4)) {
        case 0: /* the queue drains and fills: empty picks happen */
            (void)skiplist_sched_dequeue(rq, x);
            continue;
        case 1:
            if (!busy)
                (void)skiplist_sched_enqueue(rq, x);
            continue;
        default:
            break;
        }
        if (tc_below(&r, 50) == 0)
            cr_assert_eq(
                skiplist_sched_set_scaling(rq, cpu, tc_below(&r, 2) != 0), 0);
        if (running[cpu]) {
            cr_assert_eq(skiplist_sched_deschedule(rq, cpu, running[cpu],
                                                   tc_below(&r, 7 * MS),
                                                   tc_below(&r, 4) != 0),
                         0);
            running[cpu] = NULL;
        }
        bool expect = any_eligible(rq, t, N, cpu);
        struct skiplist_sched_task *p = skiplist_sched_pick(rq, cpu);
        picks++;
        if (!p) {
            nulls++;
            cr_assert(!expect, "step %d: no task for cpu %u but one may run",
                      step, cpu);
            continue;
        }
        cr_assert(expect);
        cr_assert(skiplist_sched_cpu_allowed(p, cpu),
                  "step %d: task %ld not allowed on cpu %u", step,
                  (long)(p - t), cpu);
        cr_assert(!skiplist_sched_queued(p));
        running[cpu] = p;
    }
    cr_assert_gt(nulls, 0, "the test never saw an empty pick");
    cr_assert_gt(picks - nulls, 1000);
    rq_check(rq);
    rq_free(rq);
    free(t);
}

/* Builds a queue with every class and sticky tasks on several CPUs: the
 * deadline tasks are queued and run first (realtime ones would be picked
 * before them and never turn sticky), the rest joins after. */
static void fill_mixed(struct skiplist_sched *rq, struct skiplist_sched_task *t,
                       size_t n, struct tc_rng *r)
{
    for (size_t i = 0; i < n; i++) {
        int pol = (int)tc_below(r, 6);
        setp(&t[i], pol,
             pol == SKIPLIST_SCHED_FIFO || pol == SKIPLIST_SCHED_RR
                 ? 1 + (int)tc_below(r, 3)
                 : 0,
             (int)tc_below(r, 40) - 20);
        if (pol >= SKIPLIST_SCHED_NORMAL)
            cr_assert_eq(skiplist_sched_enqueue(rq, &t[i]), 0);
        skiplist_sched_advance(rq, tc_below(r, 2 * MS));
    }
    for (int k = 0; k < 40; k++) {
        unsigned cpu = (unsigned)tc_below(r, rq->nr_cpus);
        struct skiplist_sched_task *p = skiplist_sched_pick(rq, cpu);
        if (p)
            cr_assert_eq(skiplist_sched_deschedule(rq, cpu, p,
                                                   tc_below(r, 7 * MS), true),
                         0);
    }
    for (size_t i = 0; i < n; i++)
        if (!skiplist_sched_queued(&t[i]))
            cr_assert_eq(skiplist_sched_enqueue(rq, &t[i]), 0);
}

/* Dequeue of any task (first, last, sticky, realtime, idle, ...) keeps
 * check() clean and the task's sticky slot released. */
Test(sched, dequeue_any_keeps_check_clean)
{
    struct tc_rng r;
    tc_rng_init(&r, tc_seed("sched.dequeue_any_keeps_check_clean"));
    for (int round = 0; round < 20; round++) {
        struct skiplist_sched *rq = rq_new(8, NULL);
        enum { N = 100 };
        struct skiplist_sched_task *t = tasks(N);
        fill_mixed(rq, t, N, &r);
        rq_check(rq);
        size_t left = skiplist_sched_nr_queued(rq);
        cr_assert_eq(left, N);
        int sticky_seen = 0;
        while (left) {
            /* First, last, or any. */
            struct skiplist_sched_task *x;
            unsigned how = (unsigned)tc_below(&r, 3);
            if (how == 0)
                x = sls_q_peek(&rq->q);
            else if (how == 1)
                x = sls_q_last(&rq->q);
            else
                for (x = &t[tc_below(&r, N)]; !skiplist_sched_queued(x);)
                    x = &t[tc_below(&r, N)];
            int sc = x->sticky_cpu;
            sticky_seen += sc >= 0;
            cr_assert_eq(skiplist_sched_dequeue(rq, x), 0);
            cr_assert(!skiplist_sched_queued(x));
            cr_assert_eq(x->sticky_cpu, -1);
            if (sc >= 0)
                cr_assert_null(skiplist_sched_sticky(rq, (unsigned)sc));
            cr_assert_eq(skiplist_sched_nr_queued(rq), --left);
            rq_check(rq);
        }
        cr_assert_gt(sticky_seen, 0);
        rq_free(rq);
        free(t);
    }
}

/* queued() is true exactly while the task is linked in the queue, through
 * enqueue, dequeue, pick, deschedule and policy changes. */
Test(sched, queued_iff_linked)
{
    struct tc_rng r;
    tc_rng_init(&r, tc_seed("sched.queued_iff_linked"));
    struct skiplist_sched *rq = rq_new(4, NULL);
    enum { N = 50 };
    struct skiplist_sched_task *t = tasks(N);
    bool running[N] = {false};
    int cpu_of[N];
    for (int step = 0; step < 20000; step++) {
        size_t i = tc_below(&r, N);
        struct skiplist_sched_task *x = &t[i];
        switch (tc_below(&r, 5)) {
        case 0:
            if (!running[i])
                (void)skiplist_sched_enqueue(rq, x);
            break;
        case 1:
            (void)skiplist_sched_dequeue(rq, x);
            break;
        case 2: {
            unsigned cpu = (unsigned)tc_below(&r, 4);
            struct skiplist_sched_task *p = skiplist_sched_pick(rq, cpu);
            if (p) {
                running[p - t] = true;
                cpu_of[p - t] = (int)cpu;
            }
            break;
        }
        case 3:
            if (running[i]) {
                cr_assert_eq(skiplist_sched_deschedule(rq, (unsigned)cpu_of[i],
                                                       x, tc_below(&r, 7 * MS),
                                                       tc_below(&r, 2) != 0),
                             0);
                running[i] = false;
            }
            break;
        default: {
            int pol = (int)tc_below(&r, 6);
            cr_assert_eq(
                skiplist_sched_set_policy(
                    rq, x, pol,
                    pol == SKIPLIST_SCHED_FIFO || pol == SKIPLIST_SCHED_RR ? 7
                                                                           : 0,
                    (int)tc_below(&r, 40) - 20),
                0);
            break;
        }
        }
        skiplist_sched_advance(rq, tc_below(&r, MS));
        bool linked[N] = {false};
        struct sls_q_iter it;
        for (struct skiplist_sched_task *e = sls_q_iter_first(&it, &rq->q); e;
             e = sls_q_iter_next(&it))
            linked[e - t] = true;
        for (size_t k = 0; k < N; k++)
            cr_assert_eq(skiplist_sched_queued(&t[k]), linked[k],
                         "step %d task %zu", step, k);
        if (step % 100 == 0)
            rq_check(rq);
    }
    rq_free(rq);
    free(t);
}

/* ------------------------------------------------------------ sticky */

/* A task that leaves CPU 0 runnable becomes its sticky task: CPU 0 sees
 * its real deadline, CPU 1 sees it 248 ms later. */
Test(sched, sticky_own_cpu_sees_real_deadline)
{
    struct skiplist_sched *rq = rq_new(2, NULL);
    struct skiplist_sched_task *t = tasks(3);
    cr_assert_eq(skiplist_sched_enqueue(rq, &t[0]), 0); /* dl 40.6 ms */
    skiplist_sched_advance(rq, 10 * MS);
    cr_assert_eq(skiplist_sched_enqueue(rq, &t[1]), 0); /* dl 50.6 ms */
    cr_assert(skiplist_sched_pick(rq, 0) == &t[0]);
    skiplist_sched_advance(rq, 1 * MS);
    cr_assert_eq(skiplist_sched_deschedule(rq, 0, &t[0], 1 * MS, true), 0);
    cr_assert(skiplist_sched_sticky(rq, 0) == &t[0]);
    cr_assert_eq(t[0].sticky_cpu, 0);
    cr_assert_eq(t[0].key - t[0].deadline -
                     ((uint64_t)SKIPLIST_SCHED_CLASS_DEADLINE << 61),
                 skiplist_sched_longest_deadline_diff());
    rq_check(rq);
    /* CPU 1: t1 (50.6) beats t0 (40.6 + 248.4). */
    cr_assert(skiplist_sched_pick(rq, 1) == &t[1]);
    cr_assert_eq(skiplist_sched_enqueue(rq, &t[1]), 0);
    /* CPU 0: its own sticky task at 40.6 wins over t1. */
    cr_assert(skiplist_sched_pick(rq, 0) == &t[0]);
    cr_assert_null(skiplist_sched_sticky(rq, 0));
    cr_assert_eq(t[0].sticky_cpu, -1);
    rq_check(rq);
    rq_free(rq);
    free(t);
}

/* A CPU scaling its frequency down never takes another CPU's sticky task;
 * it still takes its own, and other CPUs' when it stops scaling. */
Test(sched, sticky_skipped_on_scaling_cpu)
{
    struct skiplist_sched *rq = rq_new(3, NULL);
    struct skiplist_sched_task *t = tasks(2);
    cr_assert_eq(skiplist_sched_enqueue(rq, &t[0]), 0);
    cr_assert(skiplist_sched_pick(rq, 0) == &t[0]);
    cr_assert_eq(skiplist_sched_deschedule(rq, 0, &t[0], MS, true), 0);
    cr_assert_eq(skiplist_sched_set_scaling(rq, 1, true), 0);
    cr_assert_eq(skiplist_sched_set_scaling(rq, 0, true), 0);
    cr_assert_null(skiplist_sched_pick(rq, 1));
    cr_assert(skiplist_sched_queued(&t[0]));
    /* A plain task behind it is still found on the scaling CPU. */
    skiplist_sched_advance(rq, 100 * MS);
    cr_assert_eq(skiplist_sched_enqueue(rq, &t[1]), 0);
    cr_assert(skiplist_sched_pick(rq, 1) == &t[1]);
    cr_assert_eq(skiplist_sched_set_scaling(rq, 1, false), 0);
    cr_assert(skiplist_sched_pick(rq, 1) == &t[0]);
    /* Own sticky task on a scaling CPU: taken. */
    cr_assert_eq(skiplist_sched_deschedule(rq, 0, &t[0], MS, true), 0);
    cr_assert(skiplist_sched_pick(rq, 0) == &t[0]);
    rq_free(rq);
    free(t);
}

/* When a queued task stops being sticky (another task leaves its CPU), its
 * key loses the offset: the patch left it stale, so the task stayed behind
 * later deadlines on every CPU. */
Test(sched, unstick_drops_offset)
{
    struct skiplist_sched *rq = rq_new(2, NULL);
    struct skiplist_sched_task *t = tasks(3);
    cr_assert_eq(skiplist_sched_enqueue(rq, &t[0]), 0); /* 40.6 */
    cr_assert(skiplist_sched_pick(rq, 0) == &t[0]);
    cr_assert_eq(skiplist_sched_deschedule(rq, 0, &t[0], MS, true), 0);
    skiplist_sched_advance(rq, 20 * MS);
    cr_assert_eq(skiplist_sched_enqueue(rq, &t[1]), 0); /* 60.6 */
    cr_assert_eq(skiplist_sched_enqueue(rq, &t[2]), 0); /* 60.6 */
    /* t1 runs on CPU 0 and leaves: it becomes CPU 0's sticky task and t0
     * stops being one. */
    cr_assert(skiplist_sched_pick(rq, 1) == &t[1]);
    cr_assert_eq(skiplist_sched_deschedule(rq, 0, &t[1], MS, true), 0);
    cr_assert(skiplist_sched_sticky(rq, 0) == &t[1]);
    cr_assert_eq(t[0].sticky_cpu, -1);
    cr_assert_eq(t[0].key, ((uint64_t)SKIPLIST_SCHED_CLASS_DEADLINE << 61) |
                               t[0].deadline);
    rq_check(rq);
    /* CPU 1 now takes t0 (40.6) before t2 (60.6). */
    cr_assert(skiplist_sched_pick(rq, 1) == &t[0]);
    cr_assert(skiplist_sched_pick(rq, 1) == &t[2]);
    rq_free(rq);
    free(t);
}

/* Realtime tasks never become sticky, and the CPU they leave loses its
 * sticky task; ISO tasks do (BFS's swap_sticky() tests !rt_task), with no
 * offset on their key. Idle tasks do, and stay after every other class. */
Test(sched, sticky_all_but_realtime)
{
    struct skiplist_sched *rq = rq_new(2, NULL);
    struct skiplist_sched_task *t = tasks(4);
    setp(&t[1], SKIPLIST_SCHED_RR, 5, 0);
    setp(&t[2], SKIPLIST_SCHED_ISO, 0, 0);
    setp(&t[3], SKIPLIST_SCHED_IDLEPRIO, 0, -20);
    cr_assert_eq(skiplist_sched_enqueue(rq, &t[0]), 0);
    cr_assert(skiplist_sched_pick(rq, 0) == &t[0]);
    cr_assert_eq(skiplist_sched_deschedule(rq, 0, &t[0], MS, true), 0);
    cr_assert(skiplist_sched_sticky(rq, 0) == &t[0]);
    cr_assert_eq(skiplist_sched_enqueue(rq, &t[1]), 0);
    cr_assert(skiplist_sched_pick(rq, 0) == &t[1]);
    cr_assert_eq(skiplist_sched_deschedule(rq, 0, &t[1], MS, true), 0);
    cr_assert_eq(t[1].sticky_cpu, -1);
    cr_assert_null(skiplist_sched_sticky(rq, 0));
    cr_assert_eq(skiplist_sched_dequeue(rq, &t[1]), 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, &t[2]), 0);
    cr_assert(skiplist_sched_pick(rq, 0) == &t[2]);
    cr_assert_eq(skiplist_sched_deschedule(rq, 0, &t[2], MS, true), 0);
    cr_assert(skiplist_sched_sticky(rq, 0) == &t[2]);
    cr_assert_eq(t[2].sticky_cpu, 0);
    cr_assert_eq(t[2].key, ((uint64_t)SKIPLIST_SCHED_CLASS_ISO << 61) | 1u);
    rq_check(rq);
    cr_assert_eq(skiplist_sched_dequeue(rq, &t[2]), 0);
    cr_assert_null(skiplist_sched_sticky(rq, 0));
    cr_assert_eq(skiplist_sched_dequeue(rq, &t[0]), 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, &t[3]), 0);
    cr_assert(skiplist_sched_pick(rq, 1) == &t[3]);
    cr_assert_eq(skiplist_sched_deschedule(rq, 1, &t[3], MS, true), 0);
    cr_assert(skiplist_sched_sticky(rq, 1) == &t[3]);
    cr_assert_eq(key_class(&t[3]), SKIPLIST_SCHED_CLASS_IDLE);
    /* A normal task with a far later deadline still runs first. */
    skiplist_sched_advance(rq, 10000 * MS);
    cr_assert_eq(skiplist_sched_enqueue(rq, &t[0]), 0);
    cr_assert(skiplist_sched_pick(rq, 1) == &t[0]);
    cr_assert(skiplist_sched_pick(rq, 1) == &t[3]);
    rq_free(rq);
    free(t);
}

/* ------------------------------------------------------------ ISO */

/* One CPU, an ISO task working iso_run ms of every iso_period_ms (a hog
 * when they are equal) and a NORMAL hog, ticked at 1 ms with wake-up
 * preemption as BFS does it. Returns the share of ticks the ISO task ran
 * as ISO; *flips counts refractory changes. */
static double iso_share(unsigned iso_run, unsigned iso_period_ms,
                        unsigned long *flips, double *total)
{
    const unsigned long ticks = 60000;
    struct skiplist_sched *rq = rq_new(1, NULL);
    cr_assert_eq(skiplist_sched_set_iso(rq, 70, 2000), 0);
    struct skiplist_sched_task *t = tasks(2), *iso = &t[0];
    setp(iso, SKIPLIST_SCHED_ISO, 0, 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, iso), 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, &t[1]), 0);
    struct skiplist_sched_task *cur = skiplist_sched_pick(rq, 0);
    uint64_t ran = 0;
    unsigned long as_iso = 0, work = 0, wake_at = 0, ran_ticks = 0;
    bool sleeping = false, refr = false;
    *flips = 0;
    for (unsigned long tick = 0; tick < ticks; tick++) {
        skiplist_sched_advance(rq, MS);
        ran += MS;
        if (cur == iso) {
            work++;
            ran_ticks++;
            as_iso += iso->cls == SKIPLIST_SCHED_CLASS_ISO;
        }
        int rc = skiplist_sched_tick(rq, 0, cur);
        cr_assert_geq(rc, 0);
        if (rq->iso_refractory != refr) {
            refr = rq->iso_refractory;
            ++*flips;
        }
        if (cur == iso && iso_run < iso_period_ms && work >= iso_run) {
            cr_assert_eq(skiplist_sched_deschedule(rq, 0, cur, ran, false), 0);
            sleeping = true;
            wake_at = tick + (iso_period_ms - iso_run);
            work = 0;
            cur = NULL;
        } else if (rc == 1 || ran >= (uint64_t)cur->time_slice) {
            cr_assert_eq(skiplist_sched_deschedule(rq, 0, cur, ran, true), 0);
            cur = NULL;
        }
        if (sleeping && tick >= wake_at) {
            sleeping = false;
            cr_assert_eq(skiplist_sched_enqueue(rq, iso), 0);
            if (cur && skiplist_sched_key_of(rq, iso) <
                           skiplist_sched_key_of(rq, cur)) {
                cr_assert_eq(skiplist_sched_deschedule(rq, 0, cur, ran, true),
                             0);
                cur = NULL;
            }
        }
        if (!cur) {
            cur = skiplist_sched_pick(rq, 0);
            ran = 0;
            cr_assert_not_null(cur);
        }
    }
    rq_check(rq);
    rq_free(rq);
    free(t);
    *total = (double)ran_ticks / (double)ticks;
    return (double)as_iso / (double)ticks;
}

Test(sched, iso_cpu_limit_and_refractory)
{
    unsigned long flips;
    double total;
    /* A hog: usage climbs 100 a tick from the 62% mark to the 70% one
     * (160 ticks as ISO of a 2000-tick window), then, refractory, decays by
     * usage / period + 1 a tick back to 62% (about 225 ticks, shared as
     * NORMAL with the other hog): about 41% of the CPU as ISO and 70% in
     * all. Decay on every tick (the old model) gave 70% as ISO. */
    double hog = iso_share(1, 1, &flips, &total); /* never sleeps */
    cr_assert(hog > 0.36 && hog < 0.46, "ISO hog share as ISO %.3f", hog);
    cr_assert(total > 0.64 && total < 0.78, "ISO hog share %.3f", total);
    cr_assert_geq(flips, 4, "refractory period never ended (%lu)", flips);
    double light = iso_share(3, 10, &flips, &total); /* 30% */
    cr_assert(light > 0.28 && light < 0.32, "light ISO share %.3f", light);
    cr_assert_eq(flips, 0);
}

/* While ISO is refractory an ISO task queues as NORMAL, by deadline. */
Test(sched, iso_refractory_queues_as_normal)
{
    struct skiplist_sched *rq = rq_new(1, NULL);
    cr_assert_eq(skiplist_sched_set_iso(rq, 10, 100), 0);
    struct skiplist_sched_task *t = tasks(2);
    setp(&t[0], SKIPLIST_SCHED_ISO, 0, 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, &t[0]), 0);
    cr_assert_eq(key_class(&t[0]), SKIPLIST_SCHED_CLASS_ISO);
    struct skiplist_sched_task *p = skiplist_sched_pick(rq, 0);
    int rc = 0;
    for (int i = 0; i < 1000 && rc == 0; i++)
        rc = skiplist_sched_tick(rq, 0, p);
    cr_assert_eq(rc, 1);
    cr_assert(rq->iso_refractory);
    cr_assert_eq(skiplist_sched_class_of(rq, p), SKIPLIST_SCHED_CLASS_DEADLINE);
    cr_assert_eq(skiplist_sched_deschedule(rq, 0, p, MS, true), 0);
    cr_assert_eq(key_class(p), SKIPLIST_SCHED_CLASS_DEADLINE);
    rq_check(rq);
    /* Idle ticks bring it back. */
    for (int i = 0; i < 100000 && rq->iso_refractory; i++)
        cr_assert_eq(skiplist_sched_tick(rq, 0, NULL), 0);
    cr_assert(!rq->iso_refractory);
    rq_free(rq);
    free(t);
}

/* ------------------------------------------------------- deadlines, keys */

Test(sched, deadline_table)
{
    /* BFS's units: MS_TO_NS(x) = x << 20, ratios truncated at each step. */
    cr_assert_eq(skiplist_sched_deadline_diff(-20), UINT64_C(6) << 20);
    uint64_t d0 = skiplist_sched_deadline_diff(0);
    uint64_t d19 = skiplist_sched_deadline_diff(19);
    cr_assert_eq(d0, UINT64_C(836) * 6 * 8192, "nice 0: %llu",
                 (unsigned long long)d0); /* 41.09 ms */
    cr_assert_eq(d19, UINT64_C(5089) * 6 * 8192, "nice 19: %llu",
                 (unsigned long long)d19); /* 250.13 ms */
    cr_assert_eq(skiplist_sched_longest_deadline_diff(), d19);
    for (int nice = -20; nice <= 19; nice++) {
        /* Same numbers as the replica's independent derivation. */
        cr_assert_eq(skiplist_sched_deadline_diff(nice),
                     bfs_prio_deadline_diff(nice + 20), "nice %d", nice);
        if (nice > -20) {
            double q = (double)skiplist_sched_deadline_diff(nice) /
                       (double)skiplist_sched_deadline_diff(nice - 1);
            cr_assert(q > 1.09 && q < 1.11, "nice %d ratio %.4f", nice, q);
        }
    }
    cr_assert_eq(skiplist_sched_deadline_diff(-100), UINT64_C(6) << 20);
    cr_assert_eq(skiplist_sched_deadline_diff(100), d19);
}

/* No valid key equals a sentinel (0, UINT64_MAX), and saturation never lets
 * a deadline spill into the class above (the patch OR-ed its idle offset
 * into the raw deadline and keyed the list head 0xFFFFFFFFFFFFFFFF). */
Test(sched, keys_never_sentinel)
{
    struct skiplist_sched *rq = rq_new(2, NULL);
    struct skiplist_sched_task *t = tasks(6);
    setp(&t[0], SKIPLIST_SCHED_FIFO, 99, 0); /* smallest key: 1 */
    setp(&t[1], SKIPLIST_SCHED_FIFO, 1, 0);
    setp(&t[2], SKIPLIST_SCHED_ISO, 0, 0);
    setp(&t[3], SKIPLIST_SCHED_NORMAL, 0, 19);
    setp(&t[4], SKIPLIST_SCHED_IDLEPRIO, 0, 19);
    setp(&t[5], SKIPLIST_SCHED_NORMAL, 0, 19);
    rq->niffies = UINT64_MAX - 5 * MS; /* deadlines overflow 64 bits */
    for (int i = 0; i < 6; i++)
        cr_assert_eq(skiplist_sched_enqueue(rq, &t[i]), 0);
    /* t5 runs on CPU 0 and comes back sticky: offset on a saturated key. */
    for (int i = 0; i < 4; i++)
        (void)skiplist_sched_pick(rq, 1);
    struct skiplist_sched_task *p = skiplist_sched_pick(rq, 0);
    cr_assert(p == &t[5]);
    cr_assert_eq(skiplist_sched_deschedule(rq, 0, p, MS, true), 0);
    for (int i = 0; i < 4; i++)
        cr_assert_eq(skiplist_sched_enqueue(rq, &t[i]), 0);
    rq_check(rq);
    cr_assert_eq(t[0].key, 1);
    for (int i = 0; i < 6; i++) {
        cr_assert_neq(t[i].key, 0);
        cr_assert_neq(t[i].key, UINT64_MAX);
        cr_assert_lt(t[i].key, UINT64_C(1) << 63);
    }
    cr_assert_eq(key_class(&t[3]), SKIPLIST_SCHED_CLASS_DEADLINE);
    cr_assert_eq(key_class(&t[5]), SKIPLIST_SCHED_CLASS_DEADLINE);
    cr_assert_eq(key_class(&t[4]), SKIPLIST_SCHED_CLASS_IDLE);
    int want[] = {0, 1, 2, 3, 5, 4};
    for (int i = 0; i < 6; i++)
        cr_assert(skiplist_sched_pick(rq, 1) == &t[want[i]], "pick %d", i);
    rq_free(rq);
    free(t);
}

/* ------------------------------------------------------------ misuse */

Test(sched, bad_input)
{
    struct skiplist_sched_task x;
    struct {
        int policy, rt, nice;
    } bad[] = {{-1, 0, 0},
               {6, 0, 0},
               {SKIPLIST_SCHED_NORMAL, 0, 20},
               {SKIPLIST_SCHED_NORMAL, 0, -21},
               {SKIPLIST_SCHED_NORMAL, 5, 0},
               {SKIPLIST_SCHED_FIFO, 0, 0},
               {SKIPLIST_SCHED_RR, 100, 0},
               {SKIPLIST_SCHED_ISO, 1, 0}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(
            skiplist_sched_task_init(&x, bad[i].policy, bad[i].rt, bad[i].nice),
            -EINVAL, "case %zu", i);
    cr_assert_eq(skiplist_sched_task_init(NULL, 0, 1, 0), -EINVAL);

    struct skiplist_sched *rq = (struct skiplist_sched *)malloc(sizeof(*rq));
    cr_assert(rq);
    cr_assert_eq(skiplist_sched_init(rq, 0, NULL, 0), -EINVAL);
    cr_assert_eq(skiplist_sched_init(rq, SKIPLIST_SCHED_NR_CPUS + 1, NULL, 0),
                 -EINVAL);
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    struct skiplist_allocator half = {tc_alloc_cb, NULL, &ta};
    cr_assert_eq(skiplist_sched_init(rq, 4, &half, 0), -EINVAL);
    free(rq);

    rq = rq_new(4, NULL);
    struct skiplist_sched_task *t = tasks(4);
    cr_assert_eq(skiplist_sched_enqueue(rq, &t[0]), 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, &t[1]), 0);
    uint64_t k0 = t[0].key, k1 = t[1].key;
    cr_assert_eq(skiplist_sched_enqueue(rq, &t[0]), -EEXIST);
    cr_assert_eq(skiplist_sched_enqueue(rq, NULL), -EINVAL);
    cr_assert_eq(skiplist_sched_dequeue(rq, &t[2]), -ENOENT);
    cr_assert_eq(skiplist_sched_dequeue(rq, NULL), -EINVAL);
    cr_assert_eq(skiplist_sched_deschedule(rq, 0, &t[0], MS, true), -EEXIST);
    cr_assert_eq(skiplist_sched_deschedule(rq, 4, &t[2], MS, true), -EINVAL);
    cr_assert_eq(skiplist_sched_deschedule(rq, 0, NULL, MS, true), -EINVAL);
    cr_assert_null(skiplist_sched_pick(rq, 4));
    cr_assert_null(skiplist_sched_pick(rq, 1u << 20));
    cr_assert_eq(skiplist_sched_tick(rq, 4, NULL), -EINVAL);
    cr_assert_eq(skiplist_sched_set_scaling(rq, 4, true), -EINVAL);
    cr_assert_null(skiplist_sched_sticky(rq, 4));
    cr_assert_eq(skiplist_sched_cpu_allow(&t[3], SKIPLIST_SCHED_NR_CPUS, true),
                 -EINVAL);
    cr_assert(!skiplist_sched_cpu_allowed(&t[3], SKIPLIST_SCHED_NR_CPUS));
    cr_assert_eq(skiplist_sched_set_iso(rq, 101, 0), -EINVAL);
    cr_assert_eq(
        skiplist_sched_set_policy(rq, &t[0], SKIPLIST_SCHED_FIFO, 0, 0),
        -EINVAL);
    cr_assert_eq(skiplist_sched_set_policy(rq, NULL, 0, 1, 0), -EINVAL);
    /* Nothing changed. */
    cr_assert_eq(skiplist_sched_nr_queued(rq), 2);
    cr_assert_eq(t[0].key, k0);
    cr_assert_eq(t[1].key, k1);
    cr_assert_eq(t[0].policy, SKIPLIST_SCHED_NORMAL);
    rq_check(rq);
    cr_assert(skiplist_sched_pick(rq, 3) == &t[0]);
    cr_assert(skiplist_sched_pick(rq, 3) == &t[1]);
    rq_free(rq);
    free(t);
}

/* A task queued (and sticky) in one runqueue, dequeued or re-policied
 * through another: -ENOENT, and neither runqueue nor the task changes. */
Test(sched, other_runqueue_refused)
{
    struct skiplist_sched *a = rq_new(2, NULL), *b = rq_new(2, NULL);
    struct skiplist_sched_task *t = tasks(3);
    cr_assert_eq(skiplist_sched_enqueue(a, &t[0]), 0);
    cr_assert_eq(skiplist_sched_enqueue(b, &t[1]), 0);
    cr_assert(skiplist_sched_pick(a, 0) == &t[0]);
    cr_assert_eq(skiplist_sched_deschedule(a, 0, &t[0], MS, true), 0);
    cr_assert(skiplist_sched_sticky(a, 0) == &t[0]);
    const uint64_t key = t[0].key;
    cr_assert_eq(skiplist_sched_dequeue(b, &t[0]), -ENOENT);
    cr_assert_eq(
        skiplist_sched_set_policy(b, &t[0], SKIPLIST_SCHED_BATCH, 0, 5),
        -ENOENT);
    cr_assert_eq(t[0].key, key);
    cr_assert_eq(t[0].policy, SKIPLIST_SCHED_NORMAL);
    cr_assert_eq(t[0].nice, 0);
    cr_assert_eq(t[0].sticky_cpu, 0);
    cr_assert(skiplist_sched_sticky(a, 0) == &t[0]);
    cr_assert_eq(skiplist_sched_nr_queued(a), 1);
    cr_assert_eq(skiplist_sched_nr_queued(b), 1);
    rq_check(a);
    rq_check(b);
    cr_assert(skiplist_sched_pick(b, 1) == &t[1]);
    cr_assert_null(skiplist_sched_pick(b, 1));
    cr_assert_eq(skiplist_sched_dequeue(a, &t[0]), 0);
    cr_assert_null(skiplist_sched_sticky(a, 0));
    rq_check(a);
    rq_free(a);
    rq_free(b);
    free(t);
}

/* ------------------------------------------------- allocation failure */

/* Every failing allocation: -ENOMEM, queue, sticky slots and tasks as
 * before, zero leaks (the script is in test_sched_common.h). */
Test(sched, alloc_failure_sweep, .timeout = 120)
{
    sched_alloc_sweep();
}

/* --------------------------------------------------- suite cov_sched
 *
 * skiplist_sched.h paths the other suites leave unrun (make coverage
 * found them): skiplist_sched_check() against broken runqueues (each
 * diagnosis fires for its own planted break, and the queue checks clean
 * once it is undone), keys saturating at the top of their class, an
 * affinity bit cleared, ISO's default window, BFS's prio numbers of ISO and
 * IDLEPRIO in preemption, try_preempt's choice of p's own idle CPU, and a
 * FIFO parent's fork.
 *
 *
 * Found by coverage (make coverage; tests/test_cov_sched.c until the suites
 * were filed by subject).
 */

static struct skiplist_sched *cs_new(unsigned nr_cpus)
{
    struct skiplist_sched *rq = (struct skiplist_sched *)malloc(sizeof(*rq));
    cr_assert_not_null(rq);
    cr_assert_eq(skiplist_sched_init(rq, nr_cpus, NULL, 1), 0);
    return rq;
}

static void cs_free(struct skiplist_sched *rq)
{
    skiplist_sched_destroy(rq);
    free(rq);
}

static void cs_task(struct skiplist_sched_task *t, int policy, int rt, int nice)
{
    memset(t, 0, sizeof(*t));
    cr_assert_eq(skiplist_sched_task_init(t, policy, rt, nice), 0);
}

static void cs_clean(const struct skiplist_sched *rq)
{
    char why[256] = "";
    cr_assert_eq(skiplist_sched_check(rq, why, sizeof why), 0, "%s", why);
}

/* check() of rq must fail with a message containing want. */
static void cs_broken(const struct skiplist_sched *rq, const char *want)
{
    char why[256] = "";
    cr_expect_eq(skiplist_sched_check(rq, why, sizeof why), -EINVAL);
    cr_expect(strstr(why, want) != NULL, "\"%s\", want \"%s\"", why, want);
    cr_expect_eq(skiplist_sched_check(rq, NULL, 0), -EINVAL,
                 "without room for the message too");
}

/* ----------------------------------------------------- check() breaks */

/* Three NORMAL tasks; t[0] ran on CPU 0 and stayed runnable: sticky. */
static struct skiplist_sched *cs_with_sticky(struct skiplist_sched_task *t)
{
    struct skiplist_sched *rq = cs_new(2);
    for (int i = 0; i < 3; i++) {
        cs_task(&t[i], SKIPLIST_SCHED_NORMAL, 0, 0);
        cr_assert_eq(skiplist_sched_enqueue(rq, &t[i]), 0);
        skiplist_sched_advance(rq, 1000000);
    }
    cr_assert(skiplist_sched_pick(rq, 0) == &t[0]);
    cr_assert_eq(skiplist_sched_deschedule(rq, 0, &t[0], 1000, true), 0);
    cr_assert(skiplist_sched_sticky(rq, 0) == &t[0]);
    cs_clean(rq);
    return rq;
}

Test(cov_sched, check_key_not_its_class_and_deadline)
{
    struct skiplist_sched_task t[3];
    struct skiplist_sched *rq = cs_with_sticky(t);
    t[1].deadline += 1; /* the key no longer follows from it */
    cs_broken(rq, "expected");
    t[1].deadline -= 1;
    cs_clean(rq);
    cs_free(rq);
}

Test(cov_sched, check_sticky_task_without_its_slot)
{
    struct skiplist_sched_task t[3];
    struct skiplist_sched *rq = cs_with_sticky(t);
    rq->sticky[0] = NULL;
    cs_broken(rq, "sticky on cpu 0, not its slot");
    rq->sticky[0] = &t[0];
    cs_clean(rq);
    cs_free(rq);
}

Test(cov_sched, check_slot_naming_an_unqueued_task)
{
    struct skiplist_sched_task t[3], idle;
    struct skiplist_sched *rq = cs_with_sticky(t);
    cs_task(&idle, SKIPLIST_SCHED_NORMAL, 0, 0);
    rq->sticky[1] = &idle;
    cs_broken(rq, "cpu 1: sticky task not queued or not ours");
    rq->sticky[1] = NULL;
    cs_clean(rq);
    cs_free(rq);
}

Test(cov_sched, check_equal_keys_out_of_fifo_order)
{
    struct skiplist_sched *rq = cs_new(1);
    struct skiplist_sched_task a, b;
    cs_task(&a, SKIPLIST_SCHED_FIFO, 10, 0);
    cs_task(&b, SKIPLIST_SCHED_FIFO, 10, 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, &a), 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, &b), 0);
    cr_assert_eq(a.key, b.key);
    uint64_t seq = a.seq;
    a.seq = b.seq + 1;
    cs_broken(rq, "task 1: equal keys out of FIFO order");
    a.seq = seq;
    cs_clean(rq);
    cs_free(rq);
}

Test(cov_sched, check_reports_the_engine_first)
{
    struct skiplist_sched_task t[3];
    struct skiplist_sched *rq = cs_with_sticky(t);
    rq->q.sl.count++;
    cs_broken(rq, "count 4 but 3 slots linked");
    rq->q.sl.count--;
    cs_clean(rq);
    cs_free(rq);
}

/* ------------------------------------------------------------- paths */

/* Past 2^61 ns of niffies a deadline no longer fits its class: the key
 * stays at the top of the class (below IDLEPRIO's), FIFO among equals. */
Test(cov_sched, deadline_key_saturates_within_its_class)
{
    struct skiplist_sched *rq = cs_new(1);
    struct skiplist_sched_task a, b, idle;
    cs_task(&a, SKIPLIST_SCHED_NORMAL, 0, 0);
    cs_task(&b, SKIPLIST_SCHED_NORMAL, 0, 0);
    cs_task(&idle, SKIPLIST_SCHED_IDLEPRIO, 0, 0);
    skiplist_sched_advance(rq, SKIPLIST_SCHED_VALUE_MAX);
    cr_assert_eq(skiplist_sched_enqueue(rq, &idle), 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, &a), 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, &b), 0);
    const uint64_t top = ((uint64_t)SKIPLIST_SCHED_CLASS_DEADLINE
                          << SKIPLIST_SCHED_CLASS_SHIFT) |
                         SKIPLIST_SCHED_VALUE_MAX;
    cr_assert_eq(a.key, top);
    cr_assert_eq(b.key, top);
    cr_assert_lt(a.key, idle.key);
    cs_clean(rq);
    cr_assert(skiplist_sched_pick(rq, 0) == &a);
    cr_assert(skiplist_sched_pick(rq, 0) == &b);
    cr_assert(skiplist_sched_pick(rq, 0) == &idle);
    cs_free(rq);
}

Test(cov_sched, cpu_allow_false_keeps_the_task_off_that_cpu)
{
    struct skiplist_sched *rq = cs_new(2);
    struct skiplist_sched_task t;
    cs_task(&t, SKIPLIST_SCHED_NORMAL, 0, 0);
    cr_assert_eq(skiplist_sched_cpu_allow(&t, 0, false), 0);
    cr_assert(!skiplist_sched_cpu_allowed(&t, 0));
    cr_assert(skiplist_sched_cpu_allowed(&t, 1));
    cr_assert_eq(skiplist_sched_enqueue(rq, &t), 0);
    cr_assert_null(skiplist_sched_pick(rq, 0));
    cr_assert(skiplist_sched_pick(rq, 1) == &t);
    cr_assert_eq(skiplist_sched_cpu_allow(&t, 0, true), 0);
    cr_assert(skiplist_sched_cpu_allowed(&t, 0));
    cs_free(rq);
}

/* Period 0 asks for BFS's window, 5 s of ticks on every CPU plus one. */
Test(cov_sched, set_iso_period_zero_is_the_default_window)
{
    struct skiplist_sched *rq = cs_new(4);
    cr_assert_eq(skiplist_sched_set_iso(rq, 30, 77), 0);
    cr_assert_eq(rq->iso_period, 77u);
    cr_assert_eq(skiplist_sched_set_iso(rq, 30, 0), 0);
    cr_assert_eq(rq->iso_period, 5u * SKIPLIST_SCHED_HZ * 4u + 1u);
    cs_free(rq);
}

/* BFS's prio: ISO (100) above NORMAL (101) above IDLEPRIO (102). */
Test(cov_sched, can_preempt_ranks_iso_and_idleprio)
{
    struct skiplist_sched *rq = cs_new(1);
    struct skiplist_sched_task iso, norm, idle;
    cs_task(&iso, SKIPLIST_SCHED_ISO, 0, 0);
    cs_task(&norm, SKIPLIST_SCHED_NORMAL, 0, 0);
    cs_task(&idle, SKIPLIST_SCHED_IDLEPRIO, 0, 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, &iso), 0); /* classes set */
    cr_assert_eq(skiplist_sched_enqueue(rq, &norm), 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, &idle), 0);
    cr_assert(skiplist_sched_can_preempt(rq, &iso, &norm));
    cr_assert(!skiplist_sched_can_preempt(rq, &norm, &iso));
    cr_assert(skiplist_sched_can_preempt(rq, &norm, &idle));
    cr_assert(skiplist_sched_can_preempt(rq, &iso, &idle));
    cr_assert(!skiplist_sched_can_preempt(rq, &idle, &norm));
    cs_free(rq);
}

/* An idle CPU: p's last CPU when it is idle and allowed, else the lowest
 * idle allowed one; a CPU p may not use is skipped when choosing whom to
 * preempt; an IDLEPRIO task preempts nobody. */
Test(cov_sched, preempt_cpu_prefers_p_own_idle_cpu)
{
    struct skiplist_sched *rq = cs_new(3);
    struct skiplist_sched_task run0, run1, run2, p, idle;
    cs_task(&run0, SKIPLIST_SCHED_IDLEPRIO, 0, 0);
    cs_task(&run1, SKIPLIST_SCHED_IDLEPRIO, 0, 0);
    cs_task(&run2, SKIPLIST_SCHED_IDLEPRIO, 0, 0);
    run2.deadline = run1.deadline; /* a tie: the lower CPU wins */
    cs_task(&p, SKIPLIST_SCHED_NORMAL, 0, 0);
    cs_task(&idle, SKIPLIST_SCHED_IDLEPRIO, 0, 0);
    /* queued once, so each has the class it runs as (sls_prio) */
    struct skiplist_sched_task *all[] = {&run0, &run1, &run2, &p, &idle};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        cr_assert_eq(skiplist_sched_enqueue(rq, all[i]), 0);
        cr_assert_eq(skiplist_sched_dequeue(rq, all[i]), 0);
    }
    const struct skiplist_sched_task *curr[3] = {&run0, NULL, NULL};
    p.cpu = 2;
    cr_assert_eq(skiplist_sched_preempt_cpu(rq, &p, curr), 2);
    p.cpu = 0; /* busy: the lowest idle one */
    cr_assert_eq(skiplist_sched_preempt_cpu(rq, &p, curr), 1);
    curr[1] = &run1;
    curr[2] = &run2;
    cr_assert_eq(skiplist_sched_cpu_allow(&p, 0, false), 0);
    /* all busy with IDLEPRIO: the first allowed one, CPU 0 skipped */
    cr_assert_eq(skiplist_sched_preempt_cpu(rq, &p, curr), 1);
    cr_assert_eq(skiplist_sched_preempt_cpu(rq, &idle, curr), -1);
    cs_free(rq);
}

/* A FIFO task's child takes its slice whole (FIFO slices do not run out);
 * the parent's is untouched and 0 says no deschedule is due. */
Test(cov_sched, fork_of_a_fifo_parent_copies_the_slice)
{
    struct skiplist_sched *rq = cs_new(1);
    struct skiplist_sched_task parent, child;
    cs_task(&parent, SKIPLIST_SCHED_FIFO, 50, 0);
    cs_task(&child, SKIPLIST_SCHED_NORMAL, 0, 0);
    parent.time_slice = 12345;
    cr_assert_eq(skiplist_sched_fork(rq, &parent, 999999999u, &child), 0);
    cr_assert_eq(parent.time_slice, 12345);
    cr_assert_eq(child.time_slice, 12345);
    cr_assert_eq(child.policy, SKIPLIST_SCHED_FIFO);
    cr_assert_eq(child.rt_prio, 50);
    cr_assert_eq(child.sticky_cpu, -1);
    cs_free(rq);
}

/* ISO past its limit goes refractory (tick returns 1); idle ticks then
 * decay the usage until it is below the clearing mark and ISO is back:
 * the next ISO tick is not refused. */
Test(cov_sched, idle_ticks_end_the_iso_refractory_period)
{
    struct skiplist_sched *rq = cs_new(1);
    struct skiplist_sched_task iso;
    cs_task(&iso, SKIPLIST_SCHED_ISO, 0, 0);
    cr_assert_eq(skiplist_sched_set_iso(rq, 50, 20), 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, &iso), 0);
    cr_assert(skiplist_sched_pick(rq, 0) == &iso);
    int ticks = 0, rc = 0;
    while ((rc = skiplist_sched_tick(rq, 0, &iso)) == 0 && ticks < 1000)
        ticks++;
    cr_assert_eq(rc, 1, "ISO never hit its limit in %d ticks", ticks);
    cr_assert(rq->iso_refractory);
    uint64_t high = rq->iso_ticks;
    int idle = 0;
    while (rq->iso_refractory && idle < 100000) {
        cr_assert_eq(skiplist_sched_tick(rq, 0, NULL), 0);
        idle++;
    }
    cr_assert(!rq->iso_refractory, "still refractory after %d idle ticks",
              idle);
    cr_assert_lt(rq->iso_ticks, high);
    iso.time_slice = 1000000;
    cr_assert_eq(skiplist_sched_tick(rq, 0, &iso), 0);
    cs_free(rq);
}

/* Under a limit of 1% the clearing mark is 0 (period * (1 * 115 / 128)),
 * so decay alone never ends a refractory period, as in BFS. Usage decays
 * to nothing, the limit is raised, and the next ISO tick, finding no
 * usage to decay, ends the period itself: ISO runs as ISO again. */
Test(cov_sched, raised_iso_limit_ends_a_period_that_decay_could_not)
{
    struct skiplist_sched *rq = cs_new(1);
    struct skiplist_sched_task iso;
    cs_task(&iso, SKIPLIST_SCHED_ISO, 0, 0);
    cr_assert_eq(skiplist_sched_set_iso(rq, 1, 20), 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, &iso), 0);
    cr_assert(skiplist_sched_pick(rq, 0) == &iso);
    int ticks = 0;
    while (skiplist_sched_tick(rq, 0, &iso) == 0 && ticks < 1000)
        ticks++;
    cr_assert(rq->iso_refractory, "ISO never hit its limit");
    for (int i = 0; i < 100000 && rq->iso_ticks; i++)
        cr_assert_eq(skiplist_sched_tick(rq, 0, NULL), 0);
    cr_assert_eq(rq->iso_ticks, 0u);
    cr_assert(rq->iso_refractory, "a 1%% limit's period ended by decay");
    cr_assert_eq(skiplist_sched_set_iso(rq, 50, 20), 0);
    iso.time_slice = 1000000;
    cr_assert_eq(skiplist_sched_tick(rq, 0, &iso), 0);
    cr_assert(!rq->iso_refractory);
    cr_assert_eq(iso.time_slice, 1000000);
    cs_free(rq);
}
