/*
 * Bad input on skiplist_sched.h, the rows of docs/errors.md for the
 * runqueue, one test per entry point: NULL tasks, CPU ids out of range,
 * tasks already queued (here or in another runqueue), tasks not queued,
 * bad policies, priorities, nice levels, ISO limits and sticky rules, a
 * fork onto itself or onto a queued child, an empty affinity mask.
 *
 * "Unchanged" is byte for byte: the whole runqueue (queue head, clock, ISO
 * state, sticky slots) and every task are compared with memcmp against a
 * copy taken before the refused call, check() must pass, and the
 * allocator must not have been called. The fixture's runqueue has 4 CPUs
 * and 11 tasks of every class queued, one of them CPU 1's sticky task.
 * Every test ends with zero live blocks.
 */
#include <criterion/criterion.h>
#include <limits.h>

#include "test_common.h"
#include "../skiplist_sched.h"

#define MS UINT64_C(1000000)

enum { NT = 12, NCPU = 4 };

struct bs_fx {
    struct skiplist_sched rq;
    struct skiplist_sched_task t[NT];
    struct tc_alloc ta;
    /* the copies a refused call is compared with */
    struct skiplist_sched rq_was;
    struct skiplist_sched_task t_was[NT];
    unsigned long calls;
};

/* Static: a runqueue is about 9 KiB, two of them and the tasks more. */
static struct bs_fx the_fx;

static void bs_snap(struct bs_fx *f)
{
    memcpy(&f->rq_was, &f->rq, sizeof f->rq);
    memcpy(f->t_was, f->t, sizeof f->t);
    f->calls = f->ta.calls;
}

static void bs_same(struct bs_fx *f, const char *what)
{
    char why[256] = "";
    cr_assert_eq(skiplist_sched_check(&f->rq, why, sizeof why), 0,
                 "%s: check: %s", what, why);
    cr_assert(memcmp(&f->rq, &f->rq_was, sizeof f->rq) == 0,
              "%s: the runqueue changed", what);
    for (size_t i = 0; i < NT; i++)
        cr_assert(memcmp(&f->t[i], &f->t_was[i], sizeof f->t[i]) == 0,
                  "%s: task %zu changed", what, i);
    cr_assert_eq(f->ta.calls, f->calls, "%s: allocated", what);
}

/* t[0..10] queued: FIFO 50, RR 10, ISO, NORMAL at nice -5, 0, 0, 19,
 * BATCH, IDLEPRIO at nice 0 and 3, NORMAL; t[4] is CPU 1's sticky task;
 * t[11] was never queued. Tests that need a running task pick CPU 2's
 * (t[0], the FIFO task). */
static struct bs_fx *bs_open(void)
{
    struct bs_fx *f = &the_fx;
    memset(f, 0, sizeof *f);
    tc_alloc_init(&f->ta);
    cr_assert_eq(skiplist_sched_init(&f->rq, NCPU, &f->ta.iface, 3), 0);
    static const struct {
        int policy, rt, nice;
    } p[NT] = {
        {SKIPLIST_SCHED_FIFO, 50, 0},    {SKIPLIST_SCHED_RR, 10, 0},
        {SKIPLIST_SCHED_ISO, 0, 0},      {SKIPLIST_SCHED_NORMAL, 0, -5},
        {SKIPLIST_SCHED_NORMAL, 0, 0},   {SKIPLIST_SCHED_NORMAL, 0, 0},
        {SKIPLIST_SCHED_NORMAL, 0, 19},  {SKIPLIST_SCHED_BATCH, 0, 0},
        {SKIPLIST_SCHED_IDLEPRIO, 0, 0}, {SKIPLIST_SCHED_IDLEPRIO, 0, 3},
        {SKIPLIST_SCHED_NORMAL, 0, 0},   {SKIPLIST_SCHED_NORMAL, 0, 0},
    };
    for (size_t i = 0; i < NT; i++)
        cr_assert_eq(
            skiplist_sched_task_init(&f->t[i], p[i].policy, p[i].rt, p[i].nice),
            0);
    /* t[4] may run on CPU 1 only; it runs there and goes back runnable:
     * CPU 1's sticky task. */
    skiplist_sched_cpu_none(&f->t[4]);
    cr_assert_eq(skiplist_sched_cpu_allow(&f->t[4], 1, true), 0);
    cr_assert_eq(skiplist_sched_enqueue(&f->rq, &f->t[4]), 0);
    cr_assert_eq(skiplist_sched_pick(&f->rq, 1), &f->t[4]);
    skiplist_sched_advance(&f->rq, MS);
    cr_assert_eq(skiplist_sched_deschedule(&f->rq, 1, &f->t[4], MS, true), 0);
    cr_assert_eq(skiplist_sched_sticky(&f->rq, 1), &f->t[4]);
    for (size_t i = 0; i < NT - 1; i++)
        if (i != 4)
            cr_assert_eq(skiplist_sched_enqueue(&f->rq, &f->t[i]), 0);
    cr_assert_eq(skiplist_sched_nr_queued(&f->rq), 11);
    bs_snap(f);
    return f;
}

static void bs_close(struct bs_fx *f)
{
    skiplist_sched_destroy(&f->rq);
    cr_assert_eq(f->ta.live, 0, "%ld blocks leaked", f->ta.live);
    cr_assert_eq(f->ta.bad_frees, 0);
}

/* The call, its exact code, everything unchanged; twice. */
#define BS_REFUSED(f, call, want)                                            \
    do {                                                                     \
        for (int again_ = 0; again_ < 2; again_++) {                         \
            long rc_ = (long)(call);                                         \
            cr_assert_eq(rc_, (long)(want), "%s = %ld, want %s", #call, rc_, \
                         #want);                                             \
            bs_same((f), #call);                                             \
        }                                                                    \
    } while (0)

static struct skiplist_sched_task *const TPOISON =
    (struct skiplist_sched_task *)&TPOISON;

Test(bad_sched, init_bad_parameters)
{
    static struct skiplist_sched rq;
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    struct skiplist_allocator no_free = {tc_alloc_cb, NULL, &ta},
                              no_alloc = {NULL, tc_free_cb, &ta};
    cr_assert_eq(skiplist_sched_init(NULL, 4, NULL, 0), -EINVAL);
    cr_assert_eq(skiplist_sched_init(&rq, 0, &ta.iface, 0), -EINVAL);
    cr_assert_eq(
        skiplist_sched_init(&rq, SKIPLIST_SCHED_NR_CPUS + 1, &ta.iface, 0),
        -EINVAL);
    cr_assert_eq(skiplist_sched_init(&rq, UINT_MAX, &ta.iface, 0), -EINVAL);
    cr_assert_eq(skiplist_sched_init(&rq, 4, &no_free, 0), -EINVAL);
    cr_assert_eq(skiplist_sched_init(&rq, 4, &no_alloc, 0), -EINVAL);
    cr_assert_eq(ta.calls, 0, "a refused init allocated");
    /* The limits themselves are accepted. */
    cr_assert_eq(skiplist_sched_init(&rq, 1, &ta.iface, 0), 0);
    skiplist_sched_destroy(&rq);
    cr_assert_eq(skiplist_sched_init(&rq, SKIPLIST_SCHED_NR_CPUS, &ta.iface, 0),
                 0);
    skiplist_sched_destroy(&rq);
    cr_assert_eq(ta.live, 0);
}

/* task_init refuses out-of-range values and leaves the task's bytes as
 * they were ("t untouched"). */
Test(bad_sched, task_init_bad_leaves_task_untouched)
{
    static const struct {
        int policy, rt, nice;
    } bad[] = {
        {-1, 0, 0},
        {SKIPLIST_SCHED_IDLEPRIO + 1, 0, 0},
        {INT_MAX, 0, 0},
        {SKIPLIST_SCHED_NORMAL, 0, 20},
        {SKIPLIST_SCHED_NORMAL, 0, -21},
        {SKIPLIST_SCHED_NORMAL, 0, INT_MIN},
        {SKIPLIST_SCHED_BATCH, 1, 0},
        {SKIPLIST_SCHED_IDLEPRIO, -1, 0},
        {SKIPLIST_SCHED_FIFO, 0, 0},
        {SKIPLIST_SCHED_FIFO, 100, 0},
        {SKIPLIST_SCHED_RR, -5, 0},
        {SKIPLIST_SCHED_ISO, 1, 0},
    };
    struct skiplist_sched_task t, was;
    memset(&t, 0x5a, sizeof t);
    memcpy(&was, &t, sizeof t);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_eq(
            skiplist_sched_task_init(&t, bad[i].policy, bad[i].rt, bad[i].nice),
            -EINVAL, "case %zu", i);
        cr_assert(memcmp(&t, &was, sizeof t) == 0, "case %zu wrote t", i);
    }
    cr_assert_eq(skiplist_sched_task_init(NULL, SKIPLIST_SCHED_NORMAL, 0, 0),
                 -EINVAL);
}

Test(bad_sched, enqueue_null_or_queued)
{
    struct bs_fx *f = bs_open();
    BS_REFUSED(f, skiplist_sched_enqueue(&f->rq, NULL), -EINVAL);
    BS_REFUSED(f, skiplist_sched_enqueue(&f->rq, &f->t[0]), -EEXIST);
    BS_REFUSED(f, skiplist_sched_enqueue(&f->rq, &f->t[4]), -EEXIST);
    BS_REFUSED(f, skiplist_sched_enqueue(&f->rq, &f->t[9]), -EEXIST);
    bs_close(f);
}

/* A task queued in another runqueue is queued: -EEXIST here too. */
Test(bad_sched, enqueue_queued_elsewhere)
{
    struct bs_fx *f = bs_open();
    static struct skiplist_sched other;
    cr_assert_eq(skiplist_sched_init(&other, 2, NULL, 9), 0);
    cr_assert_eq(skiplist_sched_enqueue(&other, &f->t[11]), 0);
    bs_snap(f);
    BS_REFUSED(f, skiplist_sched_enqueue(&f->rq, &f->t[11]), -EEXIST);
    BS_REFUSED(f, skiplist_sched_deschedule(&f->rq, 0, &f->t[11], MS, true),
               -EEXIST);
    cr_assert_eq(skiplist_sched_nr_queued(&other), 1);
    cr_assert_eq(skiplist_sched_pick(&other, 0), &f->t[11]);
    skiplist_sched_destroy(&other);
    bs_close(f);
    cr_assert(tc_no_leaks());
}

/* Dequeue of NULL, of a task never queued, of one running (picked). The
 * other runqueue's row is sched::other_runqueue_refused. */
Test(bad_sched, dequeue_null_or_not_queued)
{
    struct bs_fx *f = bs_open();
    struct skiplist_sched_task *run = skiplist_sched_pick(&f->rq, 2);
    cr_assert_eq(run, &f->t[0], "CPU 2 picks the FIFO task");
    bs_snap(f);
    BS_REFUSED(f, skiplist_sched_dequeue(&f->rq, NULL), -EINVAL);
    BS_REFUSED(f, skiplist_sched_dequeue(&f->rq, &f->t[11]), -ENOENT);
    BS_REFUSED(f, skiplist_sched_dequeue(&f->rq, run), -ENOENT);
    bs_close(f);
}

Test(bad_sched, deschedule_bad)
{
    struct bs_fx *f = bs_open();
    struct skiplist_sched_task *run = skiplist_sched_pick(&f->rq, 2);
    bs_snap(f);
    BS_REFUSED(f, skiplist_sched_deschedule(&f->rq, 2, NULL, MS, true),
               -EINVAL);
    BS_REFUSED(f, skiplist_sched_deschedule(&f->rq, NCPU, run, MS, true),
               -EINVAL);
    BS_REFUSED(f, skiplist_sched_deschedule(&f->rq, NCPU, run, MS, false),
               -EINVAL);
    BS_REFUSED(f, skiplist_sched_deschedule(&f->rq, UINT_MAX, run, MS, true),
               -EINVAL);
    BS_REFUSED(f, skiplist_sched_deschedule(&f->rq, 2, &f->t[3], MS, true),
               -EEXIST);
    BS_REFUSED(f, skiplist_sched_deschedule(&f->rq, 1, &f->t[4], MS, false),
               -EEXIST);
    bs_close(f);
}

/* CPU ids at or past nr_cpus (4 here, not SKIPLIST_SCHED_NR_CPUS). */
Test(bad_sched, cpu_out_of_range)
{
    struct bs_fx *f = bs_open();
    const unsigned bad[] = {NCPU, 63, SKIPLIST_SCHED_NR_CPUS, UINT_MAX};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        BS_REFUSED(f, skiplist_sched_pick(&f->rq, bad[i]), NULL);
        BS_REFUSED(f, skiplist_sched_tick(&f->rq, bad[i], NULL), -EINVAL);
        BS_REFUSED(f, skiplist_sched_tick(&f->rq, bad[i], &f->t[2]), -EINVAL);
        BS_REFUSED(f, skiplist_sched_set_scaling(&f->rq, bad[i], true),
                   -EINVAL);
        BS_REFUSED(f, skiplist_sched_sticky(&f->rq, bad[i]), NULL);
    }
    bs_close(f);
}

/* Affinity: a CPU the mask cannot name is refused, the mask unchanged;
 * asking about one is false. */
Test(bad_sched, cpu_allow_out_of_range)
{
    struct bs_fx *f = bs_open();
    const unsigned bad[] = {SKIPLIST_SCHED_NR_CPUS, UINT_MAX};
    for (size_t i = 0; i < 2; i++) {
        BS_REFUSED(f, skiplist_sched_cpu_allow(&f->t[11], bad[i], true),
                   -EINVAL);
        BS_REFUSED(f, skiplist_sched_cpu_allow(&f->t[3], bad[i], false),
                   -EINVAL);
        cr_assert(!skiplist_sched_cpu_allowed(&f->t[11], bad[i]));
    }
    bs_close(f);
}

Test(bad_sched, set_iso_over_100)
{
    struct bs_fx *f = bs_open();
    BS_REFUSED(f, skiplist_sched_set_iso(&f->rq, 101, 0), -EINVAL);
    BS_REFUSED(f, skiplist_sched_set_iso(&f->rq, UINT_MAX, 1000), -EINVAL);
    bs_close(f);
}

/* A one-tick window: BFS's decay (usage / period + 1 per tick) would take
 * more than the usage and wrap it (found by tests/fuzz/fuzz_sched.c). */
Test(bad_sched, set_iso_one_tick_window)
{
    struct bs_fx *f = bs_open();
    BS_REFUSED(f, skiplist_sched_set_iso(&f->rq, 10, 1), -EINVAL);
    BS_REFUSED(f, skiplist_sched_set_iso(&f->rq, 0, 1), -EINVAL);
    bs_close(f);
}

Test(bad_sched, set_sticky_rule_bad)
{
    struct bs_fx *f = bs_open();
    const int bad[] = {-1, SKIPLIST_SCHED_STICKY_PATCH + 1, INT_MAX};
    for (size_t i = 0; i < 3; i++)
        BS_REFUSED(f, skiplist_sched_set_sticky_rule(&f->rq, bad[i]), -EINVAL);
    bs_close(f);
}

/* set_nice: NULL or a level outside -20..19, on a queued, a sticky and a
 * running task. */
Test(bad_sched, set_nice_bad)
{
    struct bs_fx *f = bs_open();
    struct skiplist_sched_task *run = skiplist_sched_pick(&f->rq, 2);
    bs_snap(f);
    const int bad[] = {20, -21, INT_MAX, INT_MIN};
    BS_REFUSED(f, skiplist_sched_set_nice(&f->rq, NULL, 0), -EINVAL);
    for (size_t i = 0; i < 4; i++) {
        BS_REFUSED(f, skiplist_sched_set_nice(&f->rq, &f->t[5], bad[i]),
                   -EINVAL);
        BS_REFUSED(f, skiplist_sched_set_nice(&f->rq, &f->t[4], bad[i]),
                   -EINVAL);
        BS_REFUSED(f, skiplist_sched_set_nice(&f->rq, run, bad[i]), -EINVAL);
    }
    bs_close(f);
}

/* set_nice through a runqueue the queued task is not in: -ENOENT, task
 * and both runqueues unchanged. The header documents 0, -EINVAL and
 * -ENOMEM only (see docs/errors.md). */
Test(bad_sched, set_nice_other_runqueue)
{
    struct bs_fx *f = bs_open();
    static struct skiplist_sched other;
    cr_assert_eq(skiplist_sched_init(&other, NCPU, NULL, 9), 0);
    BS_REFUSED(f, skiplist_sched_set_nice(&other, &f->t[5], 7), -ENOENT);
    BS_REFUSED(f, skiplist_sched_set_nice(&other, &f->t[4], -3), -ENOENT);
    cr_assert_eq(skiplist_sched_nr_queued(&other), 0);
    skiplist_sched_destroy(&other);
    bs_close(f);
    cr_assert(tc_no_leaks());
}

/* set_policy's validation (as task_init's) on queued, sticky and running
 * tasks; through another runqueue see sched::other_runqueue_refused. */
Test(bad_sched, set_policy_bad)
{
    struct bs_fx *f = bs_open();
    struct skiplist_sched_task *run = skiplist_sched_pick(&f->rq, 2);
    bs_snap(f);
    BS_REFUSED(
        f, skiplist_sched_set_policy(&f->rq, NULL, SKIPLIST_SCHED_NORMAL, 0, 0),
        -EINVAL);
    struct skiplist_sched_task *who[] = {&f->t[5], &f->t[4], run};
    for (size_t w = 0; w < 3; w++) {
        BS_REFUSED(f, skiplist_sched_set_policy(&f->rq, who[w], -1, 0, 0),
                   -EINVAL);
        BS_REFUSED(f,
                   skiplist_sched_set_policy(&f->rq, who[w],
                                             SKIPLIST_SCHED_IDLEPRIO + 1, 0, 0),
                   -EINVAL);
        BS_REFUSED(f,
                   skiplist_sched_set_policy(&f->rq, who[w],
                                             SKIPLIST_SCHED_FIFO, 0, 0),
                   -EINVAL);
        BS_REFUSED(f,
                   skiplist_sched_set_policy(&f->rq, who[w], SKIPLIST_SCHED_RR,
                                             100, 0),
                   -EINVAL);
        BS_REFUSED(f,
                   skiplist_sched_set_policy(&f->rq, who[w],
                                             SKIPLIST_SCHED_NORMAL, 1, 0),
                   -EINVAL);
        BS_REFUSED(f,
                   skiplist_sched_set_policy(&f->rq, who[w],
                                             SKIPLIST_SCHED_BATCH, 0, 20),
                   -EINVAL);
    }
    bs_close(f);
}

/* yield: a NULL next (not in the header's list, which names deschedule's
 * errors only: see docs/errors.md), then deschedule's own refusals, with
 * *next untouched. */
Test(bad_sched, yield_bad)
{
    struct bs_fx *f = bs_open();
    struct skiplist_sched_task *run = skiplist_sched_pick(&f->rq, 2);
    bs_snap(f);
    struct skiplist_sched_task *next = TPOISON;
    BS_REFUSED(f, skiplist_sched_yield(&f->rq, 2, run, MS, NULL), -EINVAL);
    BS_REFUSED(f, skiplist_sched_yield(&f->rq, 2, NULL, MS, &next), -EINVAL);
    BS_REFUSED(f, skiplist_sched_yield(&f->rq, NCPU, run, MS, &next), -EINVAL);
    BS_REFUSED(f, skiplist_sched_yield(&f->rq, 2, &f->t[3], MS, &next),
               -EEXIST);
    cr_assert_eq(next, TPOISON, "a refused yield wrote *next");
    bs_close(f);
}

/* fork: NULL runqueue, parent or child, a task forking itself, a child
 * that is queued; parent and child unchanged. */
Test(bad_sched, fork_bad)
{
    struct bs_fx *f = bs_open();
    struct skiplist_sched_task *run = skiplist_sched_pick(&f->rq, 2);
    bs_snap(f);
    BS_REFUSED(f, skiplist_sched_fork(NULL, run, MS, &f->t[11]), -EINVAL);
    BS_REFUSED(f, skiplist_sched_fork(&f->rq, NULL, MS, &f->t[11]), -EINVAL);
    BS_REFUSED(f, skiplist_sched_fork(&f->rq, run, MS, NULL), -EINVAL);
    BS_REFUSED(f, skiplist_sched_fork(&f->rq, run, MS, run), -EINVAL);
    BS_REFUSED(f, skiplist_sched_fork(&f->rq, run, MS, &f->t[6]), -EEXIST);
    BS_REFUSED(f, skiplist_sched_fork(&f->rq, run, MS, &f->t[4]), -EEXIST);
    bs_close(f);
}

/* An empty affinity mask is not refused: enqueue takes the task, no CPU
 * ever picks it, preempt_cpu names none, and dequeue takes it back. Not
 * written in the header (see docs/errors.md). */
Test(bad_sched, empty_affinity)
{
    struct bs_fx *f = bs_open();
    struct skiplist_sched_task *x = &f->t[11];
    skiplist_sched_cpu_none(x);
    cr_assert_eq(skiplist_sched_enqueue(&f->rq, x), 0);
    const struct skiplist_sched_task *curr[NCPU] = {NULL, NULL, NULL, NULL};
    cr_assert_eq(skiplist_sched_preempt_cpu(&f->rq, x, curr), -1);
    size_t picked = 0;
    for (int round = 0; round < NT; round++)
        for (unsigned c = 0; c < NCPU; c++) {
            struct skiplist_sched_task *p = skiplist_sched_pick(&f->rq, c);
            cr_assert_neq(p, x, "CPU %u picked a task no CPU may run", c);
            picked += p != NULL;
        }
    cr_assert_eq(picked, 11, "the other tasks were not all picked");
    cr_assert_eq(skiplist_sched_nr_queued(&f->rq), 1);
    cr_assert(skiplist_sched_queued(x));
    char why[256] = "";
    cr_assert_eq(skiplist_sched_check(&f->rq, why, sizeof why), 0, "%s", why);
    cr_assert_eq(skiplist_sched_dequeue(&f->rq, x), 0);
    cr_assert_eq(skiplist_sched_nr_queued(&f->rq), 0);
    bs_close(f);
}

/* set_nice's -ENOMEM (the sweep of test_sched_common.h reaches enqueue,
 * deschedule and set_policy, not set_nice): 300 tasks queued in deadline
 * order fill their leaves, so re-nicing a late task to -20 moves it into
 * an earlier, full leaf, which must split. Each allocation of that call
 * fails in turn: -ENOMEM, every task byte for byte as before (its hook,
 * so its place, included), the count the same, check() clean. The
 * queue's reserve of index nodes may stay (docs/errors.md). */
Test(bad_sched, set_nice_enomem)
{
    enum { NN = 300 };
    static struct skiplist_sched rq;
    static struct skiplist_sched_task t[NN], was[NN];
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    cr_assert_eq(skiplist_sched_init(&rq, NCPU, &ta.iface, 5), 0);
    for (size_t i = 0; i < NN; i++) {
        cr_assert_eq(
            skiplist_sched_task_init(&t[i], SKIPLIST_SCHED_NORMAL, 0, 0), 0);
        skiplist_sched_advance(&rq, MS / 10);
        cr_assert_eq(skiplist_sched_enqueue(&rq, &t[i]), 0);
    }
    unsigned long refused = 0;
    static const size_t who[] = {NN - 1, NN - 40, NN / 2};
    for (size_t w = 0; w < 3; w++) {
        for (unsigned long k = 1;; k++) {
            memcpy(was, t, sizeof t);
            tc_alloc_fail_at(&ta, k);
            int rc = skiplist_sched_set_nice(&rq, &t[who[w]], -20);
            tc_alloc_heal(&ta);
            if (rc == 0)
                break;
            refused++;
            cr_assert_eq(rc, -ENOMEM, "task %zu, allocation %lu failing: %d",
                         who[w], k, rc);
            cr_assert(memcmp(t, was, sizeof t) == 0,
                      "task %zu, allocation %lu failing: a task changed",
                      who[w], k);
            cr_assert_eq(skiplist_sched_nr_queued(&rq), NN);
            char why[256] = "";
            cr_assert_eq(skiplist_sched_check(&rq, why, sizeof why), 0, "%s",
                         why);
            cr_assert_lt(k, 32);
        }
        cr_assert_eq(t[who[w]].nice, -20);
    }
    cr_assert_gt(refused, 0, "no set_nice needed memory");
    char why[256] = "";
    cr_assert_eq(skiplist_sched_check(&rq, why, sizeof why), 0, "%s", why);
    skiplist_sched_destroy(&rq);
    cr_assert_eq(ta.live, 0, "%ld blocks leaked", ta.live);
    cr_assert_eq(ta.bad_frees, 0);
}
