/*
 * Drivers shared by the skiplist_sched suites, written once and compiled in
 * each suite's translation unit under that unit's SKIPLIST_SCHED_CONFIG
 * (test_sched_small.c uses 4-key leaves, so pushes and requeues split and
 * merge constantly and every allocation path is reached):
 *   sched_differential()  a random operation stream against the BFS replica
 *   sched_alloc_sweep()   a script replayed with its N-th allocation failing
 * Everything is static inline: a unit that uses one driver does not warn
 * about the other.
 */
#ifndef TEST_SCHED_COMMON_H
#define TEST_SCHED_COMMON_H

#include <criterion/criterion.h>

#include "test_common.h"
#include "../skiplist_sched.h"
#include "bfs_replica.h"

#define MS UINT64_C(1000000)

static inline void rq_check(const struct skiplist_sched *rq)
{
    char why[256];
    cr_assert(skiplist_sched_check(rq, why, sizeof why) == 0, "check: %s", why);
}

/* ------------------------------------------------------- differential */

static const int policy_map[] = {[SKIPLIST_SCHED_FIFO] = BFS_SCHED_FIFO,
                                 [SKIPLIST_SCHED_RR] = BFS_SCHED_RR,
                                 [SKIPLIST_SCHED_ISO] = BFS_SCHED_ISO,
                                 [SKIPLIST_SCHED_NORMAL] = BFS_SCHED_NORMAL,
                                 [SKIPLIST_SCHED_BATCH] = BFS_SCHED_BATCH,
                                 [SKIPLIST_SCHED_IDLEPRIO] =
                                     BFS_SCHED_IDLEPRIO};

static const unsigned active_cpus[] = {0, 1, 2, 63, 64, 1023};
#define NACTIVE (sizeof active_cpus / sizeof active_cpus[0])

struct diff_run {
    struct skiplist_sched *rq;
    struct bfs_rq *brq;
    struct skiplist_sched_task *t;
    struct bfs_task *b;
    size_t n;
    long running[NACTIVE]; /* task index on each active CPU, -1 */
};

static inline void random_policy(struct tc_rng *r, int *pol, int *rt, int *nice)
{
    /* Weighted: mostly deadline tasks, enough realtime and ISO to matter. */
    static const int pick[] = {
        SKIPLIST_SCHED_FIFO,     SKIPLIST_SCHED_RR,
        SKIPLIST_SCHED_ISO,      SKIPLIST_SCHED_ISO,
        SKIPLIST_SCHED_NORMAL,   SKIPLIST_SCHED_NORMAL,
        SKIPLIST_SCHED_NORMAL,   SKIPLIST_SCHED_NORMAL,
        SKIPLIST_SCHED_BATCH,    SKIPLIST_SCHED_BATCH,
        SKIPLIST_SCHED_IDLEPRIO, SKIPLIST_SCHED_IDLEPRIO};
    *pol = pick[tc_below(r, sizeof pick / sizeof pick[0])];
    *rt = *pol == SKIPLIST_SCHED_FIFO || *pol == SKIPLIST_SCHED_RR
              ? 1 + 40 * (int)tc_below(r, 3) /* 1, 41, 81: ties */
              : 0;
    /* Few nice levels: equal deadlines happen. */
    static const int nices[] = {-20, -5, 0, 0, 0, 7, 19};
    *nice = nices[tc_below(r, sizeof nices / sizeof nices[0])];
}

static inline void random_affinity(struct diff_run *d, size_t i,
                                   struct tc_rng *r)
{
    /* Tasks 0 and 1 (ISO for good, see below) may run anywhere. */
    unsigned mode = i < 2 ? 0 : (unsigned)tc_below(r, 4);
    skiplist_sched_cpu_none(&d->t[i]);
    memset(d->b[i].cpus_allowed, 0, sizeof(d->b[i].cpus_allowed));
    for (unsigned c = 0; c < 1024; c++) {
        bool on;
        if (mode == 0)
            on = true; /* everywhere */
        else if (mode == 1)
            on = c == active_cpus[tc_below(r, NACTIVE)] && tc_below(r, 2);
        else
            on = tc_below(r, 3) == 0;
        if (on) {
            skiplist_sched_cpu_allow(&d->t[i], c, true);
            d->b[i].cpus_allowed[c / 64] |= UINT64_C(1) << (c % 64);
        }
    }
}

static inline long idx_t(const struct diff_run *d,
                         const struct skiplist_sched_task *p)
{
    return p ? (long)(p - d->t) : -1L;
}

static inline long idx_b(const struct diff_run *d, const struct bfs_task *p)
{
    return p ? (long)(p - d->b) : -1L;
}

static inline void compare_state(const struct diff_run *d, unsigned long step)
{
    cr_assert_eq(skiplist_sched_nr_queued(d->rq), d->brq->nr_queued,
                 "step %lu: queued counts differ", step);
    for (size_t i = 0; i < d->n; i++)
        cr_assert_eq(skiplist_sched_queued(&d->t[i]), d->b[i].queued,
                     "step %lu: task %zu queued differs", step, i);
    for (size_t c = 0; c < NACTIVE; c++) {
        unsigned cpu = active_cpus[c];
        cr_assert_eq(idx_t(d, skiplist_sched_sticky(d->rq, cpu)),
                     idx_b(d, d->brq->sticky_task[cpu]),
                     "step %lu: sticky task of cpu %u differs", step, cpu);
    }
    cr_assert_eq(d->rq->iso_refractory, d->brq->iso_refractory,
                 "step %lu: ISO refractory differs", step);
}

static inline void sched_differential(uint64_t seed, unsigned long ops,
                                      size_t n, unsigned long check_every)
{
    struct tc_rng r;
    tc_rng_init(&r, seed);
    struct diff_run d;
    d.n = n;
    d.rq = (struct skiplist_sched *)malloc(sizeof(*d.rq));
    d.brq = (struct bfs_rq *)malloc(sizeof(*d.brq));
    d.t = (struct skiplist_sched_task *)calloc(n, sizeof(*d.t));
    d.b = (struct bfs_task *)calloc(n, sizeof(*d.b));
    cr_assert(d.rq && d.brq && d.t && d.b);
    cr_assert_eq(skiplist_sched_init(d.rq, 1024, NULL, seed), 0);
    bfs_init(d.brq, 1024);
    /* A short ISO window so refractory periods come and go (realtime
     * ticks count too, and usage only decays on other ticks: 60% of 100
     * ticks flips dozens of times per stream, 30% of 300 rarely). */
    cr_assert_eq(skiplist_sched_set_iso(d.rq, 60, 100), 0);
    d.brq->iso_cpu = 60;
    d.brq->iso_period = 100;
    for (size_t i = 0; i < n; i++) {
        int pol, rt, nice;
        random_policy(&r, &pol, &rt, &nice);
        if (i < 2) /* ISO for good: every run reaches the ISO limit */
            pol = SKIPLIST_SCHED_ISO, rt = 0;
        cr_assert_eq(skiplist_sched_task_init(&d.t[i], pol, rt, nice), 0);
        cr_assert_eq(bfs_task_init(&d.b[i], policy_map[pol], rt, nice), 0);
        random_affinity(&d, i, &r);
    }
    for (size_t c = 0; c < NACTIVE; c++)
        d.running[c] = -1;
    unsigned long picks = 0, nonempty = 0, refractory_flips = 0;
    bool refr = false;
    char why[256];
    /* Every stream starts with a pick on each active CPU of the empty
     * queue, so the empty-pick path is always exercised whatever the seed. */
    for (size_t c = 0; c < NACTIVE; c++) {
        struct skiplist_sched_task *p0 =
            skiplist_sched_pick(d.rq, active_cpus[c]);
        cr_assert_null(p0, "pick on an empty runqueue");
        cr_assert_null(bfs_pick(d.brq, active_cpus[c]));
        picks++;
    }
    for (unsigned long s = 0; s < ops; s++) {
        size_t c = tc_below(&r, NACTIVE);
        unsigned cpu = active_cpus[c];
        size_t i = tc_below(&r, n);
        bool busy = false;
        for (size_t k = 0; k < NACTIVE; k++)
            busy |= d.running[k] == (long)i;
        unsigned op = (unsigned)tc_below(&r, 100);
        if (op < 18) { /* wake up */
            if (!busy)
                cr_assert_eq(skiplist_sched_enqueue(d.rq, &d.t[i]),
                             bfs_enqueue(d.brq, &d.b[i]), "step %lu", s);
        } else if (op < 30) { /* sleep while queued, exit */
            cr_assert_eq(skiplist_sched_dequeue(d.rq, &d.t[i]),
                         bfs_dequeue(d.brq, &d.b[i]), "step %lu", s);
        } else if (op < 55) { /* schedule on cpu */
            if (d.running[c] >= 0) {
                size_t k = (size_t)d.running[c];
                uint64_t ran = tc_below(&r, 4) ? tc_below(&r, 7 * MS)
                                               : tc_below(&r, 200000);
                bool runnable = tc_below(&r, 5) != 0;
                cr_assert_eq(skiplist_sched_deschedule(d.rq, cpu, &d.t[k], ran,
                                                       runnable),
                             bfs_deschedule(d.brq, cpu, &d.b[k], ran, runnable),
                             "step %lu", s);
                d.running[c] = -1;
            }
            struct skiplist_sched_task *p = skiplist_sched_pick(d.rq, cpu);
            struct bfs_task *q = bfs_pick(d.brq, cpu);
            picks++;
            nonempty += p != NULL;
            cr_assert_eq(idx_t(&d, p), idx_b(&d, q),
                         "step %lu: pick on cpu %u: skiplist %ld, replica %ld",
                         s, cpu, idx_t(&d, p), idx_b(&d, q));
            d.running[c] = idx_t(&d, p);
        } else if (op < 70) { /* tick */
            long k = d.running[c];
            cr_assert_eq(
                skiplist_sched_tick(d.rq, cpu, k >= 0 ? &d.t[k] : NULL),
                bfs_tick(d.brq, cpu, k >= 0 ? &d.b[k] : NULL), "step %lu", s);
        } else if (op < 82) { /* time passes; zero often: deadline ties */
            static const uint64_t steps[] = {0,  0,      0,       1,       1000,
                                             MS, 3 * MS, 40 * MS, 300 * MS};
            uint64_t ns = steps[tc_below(&r, sizeof steps / sizeof steps[0])];
            skiplist_sched_advance(d.rq, ns);
            d.brq->niffies += ns;
        } else if (op < 86) { /* frequency scaling */
            bool on = tc_below(&r, 2) != 0;
            cr_assert_eq(skiplist_sched_set_scaling(d.rq, cpu, on), 0);
            d.brq->scaling[cpu] = on;
        } else if (op < 92) { /* affinity change, queued or not */
            random_affinity(&d, i, &r);
        } else { /* policy change, queued or running or asleep */
            int pol, rt, nice;
            random_policy(&r, &pol, &rt, &nice);
            if (i < 2)
                pol = SKIPLIST_SCHED_ISO, rt = 0;
            cr_assert_eq(
                skiplist_sched_set_policy(d.rq, &d.t[i], pol, rt, nice),
                bfs_set_policy(d.brq, &d.b[i], policy_map[pol], rt, nice),
                "step %lu", s);
        }
        compare_state(&d, s);
        if (d.rq->iso_refractory != refr) {
            refr = d.rq->iso_refractory;
            refractory_flips++;
        }
        if (check_every && (s + 1) % check_every == 0)
            cr_assert(skiplist_sched_check(d.rq, why, sizeof why) == 0,
                      "step %lu: check: %s", s, why);
    }
    cr_assert(skiplist_sched_check(d.rq, why, sizeof why) == 0, "end: %s", why);
    fprintf(stderr,
            "sched_random: %lu ops (%lu picks, %lu empty, %lu ISO flips), 0 "
            "mismatches vs bfs_replica (seed %" PRIu64 ")\n",
            ops, picks, picks - nonempty, refractory_flips, seed);
    /* The stream must have exercised what it claims to. */
    cr_assert_gt(nonempty, picks / 4, "too few successful picks");
    cr_assert_gt(picks - nonempty, 0, "never an empty pick");
    /* BFS's ISO accounting (realtime ticks count, decay only on other
     * ticks) flips rarely: 25-100 times in the plain build's 200000-op
     * stream of 300 tasks, and once in a 25000-op ASan stream. Insist only
     * on streams long enough that fewer than 2 flips means a broken rule. */
    if (ops >= 100000)
        cr_assert_geq(refractory_flips, 2,
                      "ISO never went refractory and back");
    skiplist_sched_destroy(d.rq);
    free(d.rq);
    free(d.brq);
    free(d.t);
    free(d.b);
}

/* ------------------------------------------------- allocation failure */

/* Snapshot of everything a failed call must leave alone. */
/* Tasks in the allocation script: enough that the queue splits leaves
 * (and builds an index) under the instance's KPN. */
#ifndef SCHED_SCRIPT_TASKS
#define SCHED_SCRIPT_TASKS 24
#endif

struct sched_snap {
    size_t n;
    struct skiplist_sched_task *order[SCHED_SCRIPT_TASKS];
    struct skiplist_sched_task *sticky[8];
    struct skiplist_sched_task tasks[SCHED_SCRIPT_TASKS];
};

static inline void snap(struct sched_snap *s, const struct skiplist_sched *rq,
                        const struct skiplist_sched_task *t, size_t n)
{
    struct sls_q_iter it;
    s->n = 0;
    for (struct skiplist_sched_task *e = sls_q_iter_first(&it, &rq->q); e;
         e = sls_q_iter_next(&it))
        s->order[s->n++] = e;
    memcpy(s->sticky, rq->sticky, sizeof(s->sticky));
    memcpy(s->tasks, t, n * sizeof(*t));
}

static inline void same(const struct sched_snap *a, const struct sched_snap *b,
                        size_t n, int step)
{
    cr_assert_eq(a->n, b->n, "step %d: queue length changed", step);
    for (size_t i = 0; i < a->n; i++)
        cr_assert(a->order[i] == b->order[i], "step %d: order changed", step);
    cr_assert(memcmp(a->sticky, b->sticky, sizeof(a->sticky)) == 0,
              "step %d: sticky slots changed", step);
    for (size_t i = 0; i < n; i++) {
        const struct skiplist_sched_task *x = &a->tasks[i], *y = &b->tasks[i];
        cr_assert(x->key == y->key && x->deadline == y->deadline &&
                      x->seq == y->seq && x->time_slice == y->time_slice &&
                      x->sticky_cpu == y->sticky_cpu && x->cls == y->cls &&
                      x->policy == y->policy && x->nice == y->nice &&
                      x->fresh == y->fresh,
                  "step %d: task %zu changed", step, i);
    }
}

static inline unsigned long sched_script(unsigned long fail_n, bool rest,
                                         unsigned long *enomem)
{
    enum { N = SCHED_SCRIPT_TASKS };
    const unsigned long enomem0 = *enomem;
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    if (fail_n)
        rest ? tc_alloc_fail_from(&ta, fail_n) : tc_alloc_fail_at(&ta, fail_n);
    struct skiplist_sched *rq = (struct skiplist_sched *)malloc(sizeof(*rq));
    cr_assert(rq);
    int rc = skiplist_sched_init(rq, 8, &ta.iface, 3);
    if (rc) {
        cr_assert_eq(rc, -ENOMEM);
        cr_assert_eq(ta.live, 0);
        free(rq);
        ++*enomem;
        return ta.calls;
    }
    /* The script keeps most tasks queued most of the time and moves them
     * across the queue constantly. */
    struct skiplist_sched_task t[N];
    struct skiplist_sched_task *running[8] = {NULL};
    struct tc_rng r;
    tc_rng_init(&r, 777);
    for (int i = 0; i < N; i++) {
        int pol = i % 6;
        cr_assert_eq(skiplist_sched_task_init(&t[i], pol,
                                              pol == SKIPLIST_SCHED_FIFO ||
                                                      pol == SKIPLIST_SCHED_RR
                                                  ? 1 + i % 3
                                                  : 0,
                                              i % 30 - 10),
                     0);
    }
    struct sched_snap *b = (struct sched_snap *)malloc(sizeof(*b));
    struct sched_snap *a = (struct sched_snap *)malloc(sizeof(*a));
    cr_assert(a && b);
    for (int step = 0; step < 600; step++) {
        snap(b, rq, t, N);
        unsigned long fails = ta.failures;
        unsigned cpu = (unsigned)tc_below(&r, 8);
        struct skiplist_sched_task *x = &t[tc_below(&r, N)];
        bool busy = false;
        for (int c = 0; c < 8; c++)
            busy |= running[c] == x;
        skiplist_sched_advance(rq, tc_below(&r, 3 * MS));
        switch (tc_below(&r, 4)) {
        case 0:
            if (busy || skiplist_sched_queued(x))
                continue;
            rc = skiplist_sched_enqueue(rq, x);
            break;
        case 1: {
            if (running[cpu])
                continue;
            struct skiplist_sched_task *stuck = rq->sticky[cpu];
            running[cpu] = skiplist_sched_pick(rq, cpu);
            if (ta.failures > fails) {
                /* Only a realtime pick's unstick allocates; pick cannot
                 * fail, so the sticky task stays as it was. */
                cr_assert(running[cpu] &&
                              running[cpu]->cls == SKIPLIST_SCHED_CLASS_RT,
                          "step %d: pick allocated", step);
                cr_assert(stuck && rq->sticky[cpu] == stuck,
                          "step %d: failed unstick changed the slot", step);
                ++*enomem;
                rq_check(rq);
            }
            continue;
        }
        case 2:
            if (!running[cpu])
                continue;
            rc = skiplist_sched_deschedule(rq, cpu, running[cpu],
                                           tc_below(&r, 7 * MS), true);
            if (rc == 0)
                running[cpu] = NULL;
            break;
        default: {
            int pol = (int)tc_below(&r, 6);
            rc = skiplist_sched_set_policy(
                rq, x, pol,
                pol == SKIPLIST_SCHED_FIFO || pol == SKIPLIST_SCHED_RR ? 2 : 0,
                (int)tc_below(&r, 40) - 20);
            break;
        }
        }
        if (rc == 0 && ta.failures > fails) {
            /* The one failure a call may absorb: a small run queue's sole
             * leaf growing for slack (slx_grow_for_slack), which the push
             * does without. The call succeeded; the queue must be sound.
             * Counted as handled. */
            rq_check(rq);
            ++*enomem;
            continue;
        }
        if (rc == 0)
            continue;
        cr_assert_eq(rc, -ENOMEM, "step %d: rc %d", step, rc);
        cr_assert_gt(ta.failures, fails, "step %d: -ENOMEM without failure",
                     step);
        ++*enomem;
        rq_check(rq);
        snap(a, rq, t, N);
        same(b, a, N, step);
        rc = 0;
    }
    skiplist_sched_destroy(rq);
    if (ta.failures > 0)
        cr_assert_gt(*enomem, enomem0, "fail at %lu gave no -ENOMEM", fail_n);
    cr_assert_eq(ta.live, 0, "fail at %lu: %ld leaked", fail_n, ta.live);
    cr_assert_eq(ta.bad_frees, 0);
    for (int i = 0; i < N; i++)
        cr_assert(!skiplist_sched_queued(&t[i]));
    free(rq);
    free(a);
    free(b);
    return ta.calls;
}

/* The sweep: every N the script uses fails once, and from N on. */
static inline void sched_alloc_sweep(void)
{
    unsigned long enomem = 0;
    unsigned long total = sched_script(0, false, &enomem);
    cr_assert_eq(enomem, 0);
    cr_assert_gt(total, 2, "script allocates too little (%lu)", total);
    /* The runqueue seeds its level generator from the clock, and how
     * many index nodes the queue allocates depends on the levels drawn: a
     * run's count of allocations varies. So the sweep goes past the first
     * run's count, and each run that met its failing allocation must have
     * reported -ENOMEM (sched_script asserts it). */
    for (unsigned long n = 1; n <= total + total / 2; n++) {
        sched_script(n, false, &enomem);
        sched_script(n, true, &enomem);
    }
}

#endif /* TEST_SCHED_COMMON_H */
