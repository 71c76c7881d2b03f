/*
 * skiplist_sched.h against the second oracle (sched_oracle.h: the skiplist
 * BFS patch as text, and BFS 0.40x where it is silent), rule by rule of
 * issue 17. Each scenario is written once against struct twin, which runs
 * it on skiplist_sched.h or on the oracle under a chosen reading; a test
 * checks that the oracle's two readings of its rule give different
 * outcomes (the scenario can tell them apart) and that skiplist_sched.h
 * gives the one docs/bfs-model.md says it follows. sched_rules/vs_oracle
 * then drives both with one random stream, under both own-CPU sticky rules.
 */
#include "test_sched_common.h"
#include "sched_oracle.h"

#define NT 16
#define BMS (UINT64_C(1) << 20) /* BFS's millisecond: MS_TO_NS(1) */

enum { MODEL, ORACLE };

struct twin {
    int kind;
    struct skiplist_sched *rq;
    struct skiplist_sched_task t[NT];
    struct or_rq *o;
    struct or_task b[NT];
};

static const int or_policy[] = {
    [SKIPLIST_SCHED_FIFO] = OR_FIFO,   [SKIPLIST_SCHED_RR] = OR_RR,
    [SKIPLIST_SCHED_ISO] = OR_ISO,     [SKIPLIST_SCHED_NORMAL] = OR_NORMAL,
    [SKIPLIST_SCHED_BATCH] = OR_BATCH, [SKIPLIST_SCHED_IDLEPRIO] = OR_IDLEPRIO};

static void tw_init(struct twin *w, int kind, unsigned ncpus,
                    struct or_readings rd)
{
    memset(w, 0, sizeof(*w));
    w->kind = kind;
    if (kind == MODEL) {
        w->rq = (struct skiplist_sched *)malloc(sizeof(*w->rq));
        cr_assert(w->rq);
        cr_assert_eq(skiplist_sched_init(w->rq, ncpus, NULL, 7), 0);
        cr_assert_eq(skiplist_sched_set_sticky_rule(
                         w->rq, rd.sticky_patch ? SKIPLIST_SCHED_STICKY_PATCH
                                                : SKIPLIST_SCHED_STICKY_REAL),
                     0);
    } else {
        w->o = (struct or_rq *)malloc(sizeof(*w->o));
        cr_assert(w->o);
        or_init(w->o, ncpus, rd);
    }
}

static void tw_free(struct twin *w)
{
    if (w->rq) {
        skiplist_sched_destroy(w->rq);
        free(w->rq);
    }
    free(w->o);
}

static void tw_task(struct twin *w, int i, int policy, int rt, int nice)
{
    if (w->kind == MODEL)
        cr_assert_eq(skiplist_sched_task_init(&w->t[i], policy, rt, nice), 0);
    else
        or_task_init(w->o, &w->b[i], or_policy[policy], rt, nice);
}

static void tw_allow(struct twin *w, int i, uint64_t mask)
{
    if (w->kind == MODEL) {
        skiplist_sched_cpu_none(&w->t[i]);
        for (unsigned c = 0; c < 64; c++)
            if ((mask >> c) & 1u)
                skiplist_sched_cpu_allow(&w->t[i], c, true);
    } else {
        w->b[i].cpus_allowed = mask;
    }
}

static void tw_iso(struct twin *w, unsigned pct, uint64_t period)
{
    if (w->kind == MODEL) {
        cr_assert_eq(skiplist_sched_set_iso(w->rq, pct, period), 0);
    } else {
        w->o->iso_cpu = (int)pct;
        w->o->iso_period = (int64_t)period;
    }
}

static void tw_scaling(struct twin *w, unsigned cpu, bool on)
{
    if (w->kind == MODEL)
        cr_assert_eq(skiplist_sched_set_scaling(w->rq, cpu, on), 0);
    else
        w->o->scaling[cpu] = on;
}

static void tw_advance(struct twin *w, uint64_t ns)
{
    if (w->kind == MODEL)
        skiplist_sched_advance(w->rq, ns);
    else
        w->o->niffies += ns;
}

static int tw_wake(struct twin *w, int i)
{
    return w->kind == MODEL ? skiplist_sched_enqueue(w->rq, &w->t[i])
                            : or_wake(w->o, &w->b[i]);
}

static int tw_sleep(struct twin *w, int i)
{
    return w->kind == MODEL ? skiplist_sched_dequeue(w->rq, &w->t[i])
                            : or_sleep(w->o, &w->b[i]);
}

static int tw_idx(const struct twin *w, const void *p)
{
    if (!p)
        return -1;
    return w->kind == MODEL
               ? (int)((const struct skiplist_sched_task *)p - w->t)
               : (int)((const struct or_task *)p - w->b);
}

static int tw_pick(struct twin *w, unsigned cpu)
{
    return w->kind == MODEL ? tw_idx(w, skiplist_sched_pick(w->rq, cpu))
                            : tw_idx(w, or_pick(w->o, cpu));
}

static int tw_sched(struct twin *w, unsigned cpu, int i, uint64_t ran,
                    bool runnable)
{
    return w->kind == MODEL
               ? skiplist_sched_deschedule(w->rq, cpu, &w->t[i], ran, runnable)
               : or_schedule(w->o, cpu, &w->b[i], ran, !runnable);
}

static int tw_tick(struct twin *w, unsigned cpu, int i)
{
    if (w->kind == MODEL)
        return skiplist_sched_tick(w->rq, cpu, i >= 0 ? &w->t[i] : NULL);
    return or_tick(w->o, i >= 0 ? &w->b[i] : NULL);
}

static void tw_set_nice(struct twin *w, int i, int nice)
{
    if (w->kind == MODEL)
        cr_assert_eq(skiplist_sched_set_nice(w->rq, &w->t[i], nice), 0);
    else
        or_set_nice(w->o, &w->b[i], nice);
}

static void tw_set_policy(struct twin *w, int i, int policy, int rt, int nice)
{
    if (w->kind == MODEL)
        cr_assert_eq(
            skiplist_sched_set_policy(w->rq, &w->t[i], policy, rt, nice), 0);
    else
        or_setsched(w->o, &w->b[i], or_policy[policy], rt, nice);
}

static int tw_yield(struct twin *w, unsigned cpu, int i, uint64_t ran)
{
    if (w->kind == ORACLE)
        return tw_idx(w, or_yield(w->o, cpu, &w->b[i], ran));
    struct skiplist_sched_task *next = NULL;
    cr_assert_eq(skiplist_sched_yield(w->rq, cpu, &w->t[i], ran, &next), 0);
    return tw_idx(w, next);
}

static int tw_fork(struct twin *w, int parent, uint64_t ran, int child)
{
    if (w->kind == MODEL)
        return skiplist_sched_fork(w->rq, &w->t[parent], ran, &w->t[child]);
    return or_fork(w->o, &w->b[parent], ran, &w->b[child]);
}

/* curr[c]: task index running on CPU c, -1 idle. */
static int tw_preempt_cpu(struct twin *w, int i, const int *curr, unsigned n)
{
    if (w->kind == MODEL) {
        const struct skiplist_sched_task *c[8];
        for (unsigned k = 0; k < n; k++)
            c[k] = curr[k] >= 0 ? &w->t[curr[k]] : NULL;
        return skiplist_sched_preempt_cpu(w->rq, &w->t[i], c);
    }
    struct or_task *c[8];
    for (unsigned k = 0; k < n; k++)
        c[k] = curr[k] >= 0 ? &w->b[curr[k]] : NULL;
    return or_try_preempt(w->o, &w->b[i], c);
}

static uint64_t tw_deadline(const struct twin *w, int i)
{
    return w->kind == MODEL ? w->t[i].deadline : w->b[i].deadline;
}

/* The slice in ns (the oracle keeps BFS microseconds). */
static int64_t tw_slice(const struct twin *w, int i)
{
    if (w->kind == MODEL)
        return w->t[i].time_slice;
    return w->o->rd.units_old ? w->b[i].time_slice * 1000
                              : w->b[i].time_slice * 1024;
}

static bool tw_refractory(const struct twin *w)
{
    return w->kind == MODEL ? w->rq->iso_refractory : w->o->iso_refractory;
}

static int tw_sticky(const struct twin *w, unsigned cpu)
{
    return w->kind == MODEL ? tw_idx(w, skiplist_sched_sticky(w->rq, cpu))
                            : tw_idx(w, w->o->sticky_task[cpu]);
}

typedef uint64_t (*scenario_fn)(struct twin *w);

static uint64_t run(scenario_fn f, int kind, struct or_readings rd,
                    unsigned ncpus)
{
    struct twin *w = (struct twin *)malloc(sizeof(*w));
    cr_assert(w);
    tw_init(w, kind, ncpus, rd);
    uint64_t out = f(w);
    if (kind == MODEL)
        rq_check(w->rq);
    tw_free(w);
    free(w);
    return out;
}

/* The pin: the oracle's two readings differ on the scenario, and the
 * model gives `follows`'s outcome. */
static void pin(scenario_fn f, unsigned ncpus, struct or_readings follows,
                struct or_readings other, const char *rule)
{
    uint64_t want = run(f, ORACLE, follows, ncpus);
    uint64_t alt = run(f, ORACLE, other, ncpus);
    uint64_t got = run(f, MODEL, follows, ncpus);
    cr_assert_neq(want, alt,
                  "%s: the scenario does not tell the readings "
                  "apart (both give %#llx)",
                  rule, (unsigned long long)want);
    cr_assert_eq(got, want,
                 "%s: skiplist_sched.h gives %#llx, the oracle %#llx "
                 "(the other reading: %#llx)",
                 rule, (unsigned long long)got, (unsigned long long)want,
                 (unsigned long long)alt);
}

static const struct or_readings BFS = {0};

/* Outcome fields of 8 bits: task indices (+1, 0 for none), small counts. */
static uint64_t push(uint64_t out, int idx)
{
    return out << 8 | ((uint64_t)(idx + 1) & 0xff);
}

/* ---------------------------------------------------- 1: own-CPU test */

/* A nice 0 task leaves CPU 0 runnable (sticky, deadline 41.09 ms); a
 * nice -10 task wakes at 21 ms (deadline 36.9 ms). The real key reading
 * has CPU 0 take the earlier deadline; the patch's code gives the sticky
 * task 250 ms of bonus. Then an ISO task wakes: by real key ISO comes
 * first; the patch's code compares deadlines across classes and takes the
 * sticky NORMAL task again. */
static uint64_t sc_sticky(struct twin *w)
{
    uint64_t out = 0;
    tw_task(w, 0, SKIPLIST_SCHED_NORMAL, 0, 0);
    tw_task(w, 1, SKIPLIST_SCHED_NORMAL, 0, -10);
    tw_task(w, 2, SKIPLIST_SCHED_ISO, 0, 0);
    tw_wake(w, 0);
    cr_assert_eq(tw_pick(w, 0), 0);
    tw_advance(w, BMS);
    cr_assert_eq(tw_sched(w, 0, 0, BMS, true), 0);
    cr_assert_eq(tw_sticky(w, 0), 0);
    tw_advance(w, 20 * BMS);
    tw_wake(w, 1);
    int p = tw_pick(w, 0);
    out = push(out, p);
    tw_advance(w, BMS);
    /* Task 1 sleeps; task 0 ends up CPU 0's sticky task again. */
    cr_assert_eq(tw_sched(w, 0, p, BMS, p == 0), 0);
    if (p != 0) {
        cr_assert_eq(tw_pick(w, 0), 0);
        cr_assert_eq(tw_sched(w, 0, 0, BMS, true), 0);
    }
    tw_wake(w, 2);
    out = push(out, tw_pick(w, 0));
    return out;
}

Test(sched_rules, r1_own_cpu_sticky_test)
{
    struct or_readings patch = {.sticky_patch = true};
    /* Default: the real key; the switch: the patch's code. */
    pin(sc_sticky, 2, BFS, patch, "rule 1 (default, real key)");
    pin(sc_sticky, 2, patch, BFS, "rule 1 (SKIPLIST_SCHED_STICKY_PATCH)");
    struct skiplist_sched rq;
    cr_assert_eq(skiplist_sched_init(&rq, 1, NULL, 1), 0);
    cr_assert_eq(rq.sticky_rule, SKIPLIST_SCHED_STICKY_REAL);
    cr_assert_eq(skiplist_sched_set_sticky_rule(&rq, 2), -EINVAL);
    skiplist_sched_destroy(&rq);
}

/* ------------------------------------------------- 2: ISO accounting */

/* One CPU, ISO limit 70% of 1000 ticks. A FIFO task runs 600 ticks, then
 * an ISO task runs until ISO turns refractory. BFS counts the realtime
 * ticks (60000 of 70000 used) and decays only on other ticks: 101 ISO
 * ticks. Counting ISO alone, decaying every tick: about 1200. */
static uint64_t sc_iso(struct twin *w)
{
    tw_iso(w, 70, 1000);
    tw_task(w, 0, SKIPLIST_SCHED_FIFO, 0 + 10, 0);
    tw_task(w, 1, SKIPLIST_SCHED_ISO, 0, 0);
    tw_wake(w, 0);
    tw_wake(w, 1);
    cr_assert_eq(tw_pick(w, 0), 0);
    for (int k = 0; k < 600; k++) {
        tw_advance(w, BMS);
        cr_assert_eq(tw_tick(w, 0, 0), 0);
    }
    cr_assert_eq(tw_sched(w, 0, 0, 600 * BMS, false), 0);
    cr_assert_eq(tw_pick(w, 0), 1);
    uint64_t n = 0;
    while (n < 3000 && tw_tick(w, 0, 1) == 0) {
        tw_advance(w, BMS);
        n++;
    }
    cr_assert(tw_refractory(w));
    return n;
}

Test(sched_rules, r2_realtime_counts_against_iso)
{
    pin(sc_iso, 1, BFS, (struct or_readings){.iso_old = true}, "rule 2");
}

/* ------------------------------------------------------- 3: batch */

/* A batch and a normal task of nice 0, woken 1 ms apart. The batch task
 * runs 1 ms: BFS refills its slice and gives it a new deadline at every
 * reschedule (check_deadline), so the normal task runs next; refilling
 * only a spent slice, the batch task would run again. */
static uint64_t sc_batch(struct twin *w)
{
    tw_task(w, 0, SKIPLIST_SCHED_BATCH, 0, 0);
    tw_task(w, 1, SKIPLIST_SCHED_NORMAL, 0, 0);
    tw_wake(w, 0);
    tw_advance(w, BMS);
    tw_wake(w, 1);
    cr_assert_eq(tw_pick(w, 0), 0);
    tw_advance(w, BMS);
    cr_assert_eq(tw_sched(w, 0, 0, BMS, true), 0);
    return push(push(0, tw_pick(w, 0)), (int)(tw_slice(w, 0) >> 16));
}

Test(sched_rules, r3_batch_refill)
{
    pin(sc_batch, 1, BFS, (struct or_readings){.batch_old = true}, "rule 3");
}

/* ----------------------------------------------------- 4: demotion */

/* ISO limit 3% of 100 ticks: an ISO task goes refractory on its 4th tick,
 * 4 ms into its slice. BFS zeroes the slice, so it comes back with a new
 * deadline (45 ms) behind the normal task woken 1 ms after it (42 ms);
 * requeued with its old deadline (41 ms) it would run again. */
static uint64_t sc_demote(struct twin *w)
{
    tw_iso(w, 3, 100);
    tw_task(w, 0, SKIPLIST_SCHED_ISO, 0, 0);
    tw_task(w, 1, SKIPLIST_SCHED_NORMAL, 0, 0);
    tw_wake(w, 0);
    tw_advance(w, BMS);
    tw_wake(w, 1);
    cr_assert_eq(tw_pick(w, 0), 0);
    int k = 0, rc = 0;
    while (rc == 0 && k < 50) {
        tw_advance(w, BMS);
        rc = tw_tick(w, 0, 0);
        k++;
    }
    cr_assert_eq(rc, 1);
    cr_assert_eq(tw_sched(w, 0, 0, (uint64_t)k * BMS, true), 0);
    return push(push(0, tw_pick(w, 0)), k);
}

Test(sched_rules, r4_demotion_refills)
{
    pin(sc_demote, 1, BFS, (struct or_readings){.demote_old = true}, "rule 4");
}

/* --------------------------------------------------- 5: stickiness */

/* (a) Task 0 leaves CPU 0 sticky; a realtime task is picked there, which
 * unsticks task 0, so CPU 1 takes it (41 ms) before task 1 (46 ms); still
 * sticky it would count as 291 ms there. (b) An ISO task leaves CPU 0:
 * sticky in BFS, so CPU 1, scaling, skips it. */
static uint64_t sc_stick(struct twin *w)
{
    uint64_t out = 0;
    tw_task(w, 0, SKIPLIST_SCHED_NORMAL, 0, 0);
    tw_task(w, 1, SKIPLIST_SCHED_NORMAL, 0, 0);
    tw_task(w, 2, SKIPLIST_SCHED_RR, 10, 0);
    tw_task(w, 3, SKIPLIST_SCHED_ISO, 0, 0);
    tw_wake(w, 0);
    cr_assert_eq(tw_pick(w, 0), 0);
    tw_advance(w, BMS);
    cr_assert_eq(tw_sched(w, 0, 0, BMS, true), 0);
    tw_advance(w, 4 * BMS);
    tw_wake(w, 1);
    tw_wake(w, 2);
    cr_assert_eq(tw_pick(w, 0), 2);
    out = push(out, tw_sticky(w, 0));
    out = push(out, tw_pick(w, 1));
    /* (b) */
    tw_wake(w, 3);
    cr_assert_eq(tw_pick(w, 0), 3);
    cr_assert_eq(tw_sched(w, 0, 3, BMS, true), 0);
    tw_scaling(w, 1, true);
    out = push(out, tw_sticky(w, 0));
    out = push(out, tw_pick(w, 1));
    return out;
}

Test(sched_rules, r5_stickiness)
{
    pin(sc_stick, 2, BFS, (struct or_readings){.sticky_old = true}, "rule 5");
}

/* --------------------------------------------------------- 6: units */

/* A nice 0 task wakes at 0, a nice -20 task at 34.7 ms. BFS's units give
 * 41.09 ms and 40.99 ms: the nice -20 task first; exact milliseconds and
 * rounded ratios give 40.59 ms and 40.70 ms: the nice 0 task first. */
static uint64_t sc_units(struct twin *w)
{
    tw_task(w, 0, SKIPLIST_SCHED_NORMAL, 0, 0);
    tw_task(w, 1, SKIPLIST_SCHED_NORMAL, 0, -20);
    tw_wake(w, 0);
    tw_advance(w, 34700000);
    tw_wake(w, 1);
    return push(push(0, tw_pick(w, 0)), (int)(tw_deadline(w, 0) / 1000000));
}

Test(sched_rules, r6_bfs_units)
{
    pin(sc_units, 1, BFS, (struct or_readings){.units_old = true}, "rule 6");
    cr_assert_eq(skiplist_sched_deadline_diff(0), UINT64_C(41091072));
    cr_assert_eq(skiplist_sched_deadline_diff(19), UINT64_C(250134528));
    cr_assert_eq(SKIPLIST_SCHED_RR_INTERVAL_NS, UINT64_C(6291456));
}

/* --------------------------------------------------- 7: entry points */

/* Preemption. Two FIFO 50 tasks: the one woken later has the earlier
 * deadline (nice -20) and preempts the other (equal realtime priority
 * falls through to deadlines); comparing queue keys, equal, it would not.
 * Two IDLEPRIO tasks: the earlier deadline never preempts (keys say it
 * would). On 2 busy CPUs a NORMAL task preempts the one with the latest
 * deadline. */
Test(sched_rules, r7_preemption)
{
    struct twin *w = (struct twin *)malloc(2 * sizeof(*w));
    cr_assert(w);
    for (int k = 0; k < 2; k++) {
        struct twin *x = &w[k];
        tw_init(x, k, 2, BFS);
        tw_task(x, 0, SKIPLIST_SCHED_FIFO, 50, 0);
        tw_task(x, 1, SKIPLIST_SCHED_FIFO, 50, -20);
        tw_task(x, 2, SKIPLIST_SCHED_IDLEPRIO, 0, 0);
        tw_task(x, 3, SKIPLIST_SCHED_IDLEPRIO, 0, -20);
        tw_task(x, 4, SKIPLIST_SCHED_NORMAL, 0, 0);
        tw_task(x, 5, SKIPLIST_SCHED_NORMAL, 0, 5);
        tw_task(x, 6, SKIPLIST_SCHED_NORMAL, 0, -5);
        for (int i = 0; i < 7; i++)
            if (i != 1 && i != 3 && i != 6)
                tw_wake(x, i);
        cr_assert_eq(tw_pick(x, 0), 0); /* FIFO 50 on CPU 0 */
        cr_assert_eq(tw_pick(x, 1), 4); /* nice 0 on CPU 1 */
        tw_advance(x, BMS);
        tw_wake(x, 1);
        int curr[2] = {0, 4};
        int cpu = tw_preempt_cpu(x, 1, curr, 2);
        cr_assert_eq(cpu, 1, "kind %d: realtime goes to the worse CPU", k);
        int rt_only[2] = {0, 0};
        cr_assert_eq(tw_preempt_cpu(x, 1, rt_only, 2), 0,
                     "kind %d: equal realtime, earlier deadline", k);
        /* NORMAL nice -5 (deadline 1 + 19.8 ms) against nice 0 (41 ms)
         * and nice 5 (63 ms): the latest deadline gives way. */
        cr_assert_eq(tw_sleep(x, 1), 0);
        cr_assert_eq(tw_pick(x, 0), 5);
        int two[2] = {4, 5};
        tw_wake(x, 6);
        cr_assert_eq(tw_preempt_cpu(x, 6, two, 2), 1, "kind %d", k);
        int idle[2] = {4, -1};
        cr_assert_eq(tw_preempt_cpu(x, 6, idle, 2), 1, "kind %d: idle", k);
    }
    /* The model's can_preempt against what keys would say. */
    struct twin *m = &w[MODEL];
    cr_assert(skiplist_sched_can_preempt(m->rq, &m->t[1], &m->t[0]));
    cr_assert_eq(skiplist_sched_key_of(m->rq, &m->t[1]),
                 skiplist_sched_key_of(m->rq, &m->t[0]),
                 "equal keys: a key test would not preempt");
    cr_assert(!skiplist_sched_can_preempt(m->rq, &m->t[0], &m->t[1]));
    tw_wake(m, 3);
    cr_assert_lt(skiplist_sched_key_of(m->rq, &m->t[3]),
                 skiplist_sched_key_of(m->rq, &m->t[2]));
    cr_assert(!skiplist_sched_can_preempt(m->rq, &m->t[3], &m->t[2]),
              "IDLEPRIO never preempts");
    cr_assert(skiplist_sched_can_preempt(m->rq, &m->t[3], NULL));
    struct or_task *o = w[ORACLE].b;
    cr_assert(or_can_preempt(&o[1], o[0].prio, o[0].deadline));
    tw_free(&w[0]);
    tw_free(&w[1]);
    free(w);
}

/* Yield: the yielding task keeps its deadline and runs again while it is
 * still the earliest (sched_yield is schedule() with prev runnable);
 * expiring its slice on yield would hand the CPU to task 1. */
static uint64_t sc_yield(struct twin *w)
{
    tw_task(w, 0, SKIPLIST_SCHED_NORMAL, 0, 0);
    tw_task(w, 1, SKIPLIST_SCHED_NORMAL, 0, 0);
    tw_wake(w, 0);
    tw_advance(w, BMS);
    tw_wake(w, 1);
    cr_assert_eq(tw_pick(w, 0), 0);
    tw_advance(w, BMS);
    int next = tw_yield(w, 0, 0, BMS);
    return push(push(0, next), (int)(tw_deadline(w, 0) / BMS));
}

/* Nice: task 0 (deadline 41 ms) goes to nice 10: adjust_deadline moves it
 * by 106.2 - 41.1 ms, behind task 1 (42 ms). Changed the other way, to
 * nice -10, it moves 25 ms earlier. */
static uint64_t sc_nice(struct twin *w)
{
    tw_task(w, 0, SKIPLIST_SCHED_NORMAL, 0, 0);
    tw_task(w, 1, SKIPLIST_SCHED_NORMAL, 0, 0);
    tw_task(w, 2, SKIPLIST_SCHED_NORMAL, 0, 0);
    tw_wake(w, 0);
    tw_advance(w, BMS);
    tw_wake(w, 1);
    tw_wake(w, 2);
    tw_set_nice(w, 0, 10);
    uint64_t out = push(0, tw_pick(w, 0));
    tw_set_policy(w, 2, SKIPLIST_SCHED_BATCH, 0, -10);
    return push(push(out, tw_pick(w, 0)), (int)(tw_deadline(w, 0) / BMS));
}

/* Fork: task 0 runs 2 ms and forks task 2, which takes half of the 4.29
 * ms left and task 0's deadline (41 ms), so it runs before task 1 (43 ms);
 * a fresh task woken then would get 43.1 ms and run after it. */
static uint64_t sc_fork(struct twin *w)
{
    tw_task(w, 0, SKIPLIST_SCHED_NORMAL, 0, 0);
    tw_task(w, 1, SKIPLIST_SCHED_NORMAL, 0, 0);
    tw_wake(w, 0);
    tw_advance(w, 2 * BMS);
    tw_wake(w, 1);
    cr_assert_eq(tw_pick(w, 0), 0);
    cr_assert_eq(tw_fork(w, 0, 2 * BMS, 2), 0);
    cr_assert_eq(tw_slice(w, 2), (int64_t)(4 * BMS / 2));
    tw_wake(w, 2);
    uint64_t out = push(0, tw_pick(w, 1));
    /* The parent's half is what is left of its slice. */
    cr_assert_eq(tw_sched(w, 0, 0, 2 * BMS, true), 0);
    cr_assert_eq(tw_slice(w, 0), (int64_t)(2 * BMS));
    /* A parent with less than 2 * RESCHED left: it reschedules, and the
     * child gets a new slice and deadline. */
    cr_assert_eq(tw_pick(w, 0), 0);
    tw_advance(w, BMS);
    int rc = tw_fork(w, 0, 2 * BMS - 100 * 1024, 3);
    cr_assert_eq(tw_slice(w, 3), (int64_t)(6 * BMS));
    return push(push(out, rc), (int)(tw_deadline(w, 3) / BMS));
}

Test(sched_rules, r7_yield_nice_fork)
{
    /* No oracle flag for these: the other reading is computed by hand in
     * each scenario's comment; here model and oracle must agree. */
    cr_assert_eq(run(sc_yield, MODEL, BFS, 1), run(sc_yield, ORACLE, BFS, 1));
    cr_assert_eq(run(sc_yield, MODEL, BFS, 1) >> 8 & 255, 1u,
                 "the yielding task runs again");
    uint64_t nm = run(sc_nice, MODEL, BFS, 1);
    cr_assert_eq(nm, run(sc_nice, ORACLE, BFS, 1));
    cr_assert_eq(nm >> 16 & 255, 2u, "re-niced task went behind task 1");
    cr_assert_eq(nm >> 8 & 255, 3u, "nice -10 moved task 2 ahead of 0");
    uint64_t fm = run(sc_fork, MODEL, BFS, 2);
    cr_assert_eq(fm, run(sc_fork, ORACLE, BFS, 2));
    cr_assert_eq(fm >> 16 & 255, 3u, "the child runs before task 1");
    cr_assert_eq(fm >> 8 & 255, 2u, "fork with a spent slice returns 1");
}

/* ------------------------------------------- deadline below 101 ns */

/* A realtime task only records a nice change (set_user_nice()), so task 0
 * (nice -20, deadline 6.29 ms) made FIFO at nice 19 and then NORMAL at
 * nice -20 has its deadline moved by 6.29 - 250.13 ms: BFS's u64 wraps,
 * both sides saturate at 0. The patch's sl_id would then sort the NORMAL
 * task ahead of the realtime (0..99) and ISO (100) keys, which no BFS
 * deadline (niffies + 6.29 ms or more) can do; the class comes first.
 * Then task 0 runs on CPU 1 and leaves it runnable (sticky, deadline still
 * 0) with ISO task 2 queued: by real key the ISO task comes first; the
 * patch's code takes the sticky task (0 - 250 ms is before any deadline).
 * Seen as sched_rules/vs_oracle seed 1782620465355261630, step 468. */
static uint64_t sc_low_deadline(struct twin *w)
{
    tw_task(w, 0, SKIPLIST_SCHED_NORMAL, 0, -20);
    tw_task(w, 1, SKIPLIST_SCHED_ISO, 0, 0);
    tw_task(w, 2, SKIPLIST_SCHED_ISO, 0, 0);
    tw_task(w, 3, SKIPLIST_SCHED_RR, 1, 0);
    tw_wake(w, 0);
    tw_set_policy(w, 0, SKIPLIST_SCHED_FIFO, 1, 19);
    tw_set_policy(w, 0, SKIPLIST_SCHED_NORMAL, 0, -20);
    cr_assert_eq(tw_deadline(w, 0), 0);
    tw_wake(w, 3);
    tw_wake(w, 1);
    uint64_t out = push(0, tw_pick(w, 0));
    int p = tw_pick(w, 1);
    out = push(out, p);
    cr_assert_geq(p, 0);
    cr_assert_eq(tw_sched(w, 1, p, BMS, false), 0); /* p sleeps */
    out = push(out, tw_pick(w, 1));
    tw_wake(w, 2);
    cr_assert_eq(tw_sched(w, 1, 0, BMS, true), 0);
    cr_assert_eq(tw_sticky(w, 1), 0);
    cr_assert_eq(tw_deadline(w, 0), 0);
    return push(out, tw_pick(w, 1));
}

Test(sched_rules, low_deadline_keeps_class_order)
{
    const struct or_readings patch = {.sticky_patch = true};
    uint64_t m = run(sc_low_deadline, MODEL, BFS, 2);
    cr_assert_eq(m, run(sc_low_deadline, ORACLE, BFS, 2),
                 "model %#llx, oracle %#llx", (unsigned long long)m,
                 (unsigned long long)run(sc_low_deadline, ORACLE, BFS, 2));
    /* RR task 3, ISO task 1, task 0, then ISO task 2 over sticky task 0. */
    cr_assert_eq(m, 0x04020103u, "model %#llx", (unsigned long long)m);
    uint64_t mp = run(sc_low_deadline, MODEL, patch, 2);
    cr_assert_eq(mp, run(sc_low_deadline, ORACLE, patch, 2),
                 "patch rule: model %#llx, oracle %#llx",
                 (unsigned long long)mp,
                 (unsigned long long)run(sc_low_deadline, ORACLE, patch, 2));
    cr_assert_eq(mp, 0x04020101u, "patch rule: model %#llx",
                 (unsigned long long)mp);
}

/* ------------------------------------------ random: model vs oracle */

static void vs_oracle(uint64_t seed, unsigned long ops, bool patch_rule)
{
    enum { NCPU = 4, N = NT };
    struct tc_rng r;
    tc_rng_init(&r, seed);
    struct or_readings rd = {.sticky_patch = patch_rule};
    struct twin *w = (struct twin *)malloc(2 * sizeof(*w));
    cr_assert(w);
    int running[NCPU];
    for (int k = 0; k < 2; k++) {
        tw_init(&w[k], k, NCPU, rd);
        tw_iso(&w[k], 60, 100);
    }
    for (int i = 0; i < N; i++) {
        int pol, rt, nice;
        random_policy(&r, &pol, &rt, &nice);
        for (int k = 0; k < 2; k++)
            tw_task(&w[k], i, pol, rt, nice);
    }
    for (int c = 0; c < NCPU; c++)
        running[c] = -1;
    unsigned long picks = 0, differ = 0;
    for (unsigned long s = 0; s < ops; s++) {
        unsigned cpu = (unsigned)tc_below(&r, NCPU);
        int i = (int)tc_below(&r, N);
        bool busy = false;
        for (int c = 0; c < NCPU; c++)
            busy |= running[c] == i;
        unsigned op = (unsigned)tc_below(&r, 100);
        int res[2] = {0, 0};
        if (op < 15) {
            if (!busy)
                for (int k = 0; k < 2; k++)
                    res[k] = tw_wake(&w[k], i);
        } else if (op < 22) {
            for (int k = 0; k < 2; k++)
                res[k] = tw_sleep(&w[k], i);
        } else if (op < 50) {
            int p = running[cpu];
            /* Whole BFS microseconds: BFS charges ns >> 10. */
            uint64_t ran = (tc_below(&r, 4) ? tc_below(&r, 7000000)
                                            : tc_below(&r, 300000)) &
                           ~UINT64_C(1023);
            bool yield = p >= 0 && tc_below(&r, 6) == 0;
            bool runnable = tc_below(&r, 5) != 0;
            for (int k = 0; k < 2; k++) {
                if (yield) {
                    res[k] = tw_yield(&w[k], cpu, p, ran);
                    continue;
                }
                if (p >= 0)
                    cr_assert_eq(tw_sched(&w[k], cpu, p, ran, runnable), 0);
                res[k] = tw_pick(&w[k], cpu);
            }
            running[cpu] = res[0];
            picks++;
        } else if (op < 65) {
            for (int k = 0; k < 2; k++)
                res[k] = tw_tick(&w[k], cpu, running[cpu]);
        } else if (op < 77) {
            static const uint64_t steps[] = {0,       1024,     BMS,
                                             3 * BMS, 40 * BMS, 300 * BMS};
            uint64_t ns = steps[tc_below(&r, 6)];
            for (int k = 0; k < 2; k++)
                tw_advance(&w[k], ns);
        } else if (op < 81) {
            bool on = tc_below(&r, 2);
            for (int k = 0; k < 2; k++)
                tw_scaling(&w[k], cpu, on);
        } else if (op < 86) {
            uint64_t mask = tc_below(&r, 2) ? 0xf : tc_below(&r, 15) + 1;
            for (int k = 0; k < 2; k++)
                tw_allow(&w[k], i, mask);
        } else if (op < 93) {
            int nice = (int)tc_below(&r, 40) - 20;
            for (int k = 0; k < 2; k++)
                tw_set_nice(&w[k], i, nice);
        } else {
            int pol, rt, nice;
            random_policy(&r, &pol, &rt, &nice);
            for (int k = 0; k < 2; k++)
                tw_set_policy(&w[k], i, pol, rt, nice);
        }
        cr_assert_eq(res[0], res[1], "seed %llu step %lu op %u: %d vs %d",
                     (unsigned long long)seed, s, op, res[0], res[1]);
        for (int j = 0; j < N; j++) {
            cr_assert_eq(skiplist_sched_queued(&w[0].t[j]), w[1].b[j].queued,
                         "step %lu task %d queued", s, j);
            cr_assert_eq(tw_deadline(&w[0], j), tw_deadline(&w[1], j),
                         "step %lu task %d deadline", s, j);
            cr_assert_eq(tw_slice(&w[0], j), tw_slice(&w[1], j),
                         "step %lu task %d slice", s, j);
        }
        for (unsigned c = 0; c < NCPU; c++)
            cr_assert_eq(tw_sticky(&w[0], c), tw_sticky(&w[1], c),
                         "step %lu cpu %u sticky", s, c);
        cr_assert_eq(tw_refractory(&w[0]), tw_refractory(&w[1]),
                     "step %lu refractory", s);
        differ += w[0].rq->iso_refractory;
    }
    rq_check(w[0].rq);
    cr_assert_gt(picks, ops / 5);
    cr_assert_gt(differ, 0, "ISO never refractory");
    tw_free(&w[0]);
    tw_free(&w[1]);
    free(w);
}

Test(sched_rules, vs_oracle, .timeout = 120)
{
    uint64_t seed = tc_seed("sched_rules.vs_oracle");
    vs_oracle(seed, tc_ops(60000), false);
    vs_oracle(seed + 1, tc_ops(60000), true);
}
