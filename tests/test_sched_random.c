/*
 * Differential test: skiplist_sched.h against the BFS-before-skiplists
 * replica (bfs_replica.h), driven by one random operation stream. Every
 * pick must return the same task on both, and after every operation both
 * agree on what is queued, which task is each CPU's sticky task, and
 * whether ISO is refractory. The stream covers every policy, ties (clock
 * steps of zero, few realtime priorities), affinity over CPUs 0, 1, 2, 63,
 * 64 and 1023 of 1024, frequency scaling, sticky hand-over, policy changes
 * of queued tasks and ISO going refractory and back (short ISO window).
 *
 * Seeds are printed; SEED=<n> replays, TEST_SCALE=<k> soaks.
 */
#include <criterion/criterion.h>

#include "test_common.h"
#include "../skiplist_sched.h"
#include "bfs_replica.h"

#define MS UINT64_C(1000000)

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

static void random_policy(struct tc_rng *r, int *pol, int *rt, int *nice)
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

static void random_affinity(struct diff_run *d, size_t i, struct tc_rng *r)
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

static long idx_t(const struct diff_run *d, const struct skiplist_sched_task *p)
{
    return p ? (long)(p - d->t) : -1L;
}

static long idx_b(const struct diff_run *d, const struct bfs_task *p)
{
    return p ? (long)(p - d->b) : -1L;
}

static void compare_state(const struct diff_run *d, unsigned long step)
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

static void sched_differential(uint64_t seed, unsigned long ops, size_t n,
                               unsigned long check_every)
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
    /* A short ISO window so refractory periods come and go. */
    cr_assert_eq(skiplist_sched_set_iso(d.rq, 30, 300), 0);
    d.brq->iso_cpu = 30;
    d.brq->iso_period = 300;
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
    if (ops >= 20000) /* ASan runs 1/8 of the stream: too short to insist */
        cr_assert_geq(refractory_flips, 2,
                      "ISO never went refractory and back");
    skiplist_sched_destroy(d.rq);
    free(d.rq);
    free(d.brq);
    free(d.t);
    free(d.b);
}

/* check() after every operation, few tasks. */
Test(sched_random, vs_replica_checked, .timeout = 120)
{
    uint64_t seed = tc_seed("sched_random.vs_replica_checked");
    sched_differential(seed, tc_ops(40000), 12, 1);
    sched_differential(seed + 1, tc_ops(40000), 40, 1);
}

/* Long stream, more tasks, check() every 1000. */
Test(sched_random, vs_replica_long, .timeout = 300)
{
    uint64_t seed = tc_seed("sched_random.vs_replica_long");
    sched_differential(seed, tc_ops(300000), 64, 1000);
    sched_differential(seed + 1, tc_ops(200000), 300, 1000);
}
