/* runqueue.c: the example of docs/guides/runqueue.md.
 *
 * Two simulated CPUs scheduled by skiplist_sched.h, the BFS-style global
 * runqueue: three nice 0 CPU hogs, a nice 10 hog, a hog pinned to CPU 1,
 * an IDLEPRIO hog, and a SCHED_FIFO task that wakes every 20 ms to work
 * for 1 ms. Time runs in 100 us steps with a 1 ms tick; a CPU reschedules
 * when its task's slice is spent, the tick says so, the task sleeps, or a
 * waking task preempts it (the CPU named by skiplist_sched_preempt_cpu).
 * Half way, the nice 10 hog is re-niced to -5.
 *
 * What it checks, all rules of BFS rather than tuning: the FIFO task runs
 * in the step it wakes; the pinned task never runs on CPU 0; the IDLEPRIO
 * task gets nothing while other tasks are runnable; a nice 10 hog gets
 * less CPU than each nice 0 hog, and after re-nicing to -5, more; the
 * runqueue's own check() holds. Exit status 0 only when every check
 * passed. (examples/bfs_sim.c runs a larger scenario beside a replica of
 * BFS's own list.) */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "skiplist_sched.h"

#define NCPUS 2u
#define STEP_NS UINT64_C(100000) /* 100 us */
#define STEPS 40000u             /* 4 s */
#define TICK_STEPS 10u           /* 1 ms */
#define MS UINT64_C(1000000)

/* [task] */
/* The scheduler's part of a task is embedded; the rest is ours. */
struct task {
    struct skiplist_sched_task st;
    const char *name;
    uint64_t run_ns, period_ns; /* periodic work; 0: always runnable */
    uint64_t burst_ns, wake_at_ns;
    bool asleep;
    uint64_t ran_ns[2];  /* CPU time in the first and second half */
    uint64_t on_cpu0_ns; /* for the pinning check */
};

static struct task *task_of(struct skiplist_sched_task *st)
{
    return st ? (struct task *)(void *)((char *)st - offsetof(struct task, st))
              : NULL;
}
/* [task] */

enum { HOG_A, HOG_B, HOG_C, HOG_NICE10, PINNED, IDLE, FIFO, NTASKS };
static struct task tasks[NTASKS] = {
    [HOG_A] = {.name = "hog nice 0 a"},
    [HOG_B] = {.name = "hog nice 0 b"},
    [HOG_C] = {.name = "hog nice 0 c"},
    [HOG_NICE10] = {.name = "hog nice 10"},
    [PINNED] = {.name = "hog on cpu 1"},
    [IDLE] = {.name = "idleprio hog"},
    [FIFO] = {.name = "fifo 1/20ms", .run_ns = 1 * MS, .period_ns = 20 * MS},
};

static struct skiplist_sched rq; /* about 9 KiB: not on the stack */
static int failures;

static void expect(bool ok, const char *what)
{
    if (!ok && failures++ < 10)
        fprintf(stderr, "runqueue: FAILED: %s\n", what);
}

static int setup(void)
{
    /* [setup] */
    if (skiplist_sched_init(&rq, NCPUS, NULL, 1) != 0)
        return -1;
    int rc = 0;
    rc |=
        skiplist_sched_task_init(&tasks[HOG_A].st, SKIPLIST_SCHED_NORMAL, 0, 0);
    rc |=
        skiplist_sched_task_init(&tasks[HOG_B].st, SKIPLIST_SCHED_NORMAL, 0, 0);
    rc |=
        skiplist_sched_task_init(&tasks[HOG_C].st, SKIPLIST_SCHED_NORMAL, 0, 0);
    rc |= skiplist_sched_task_init(&tasks[HOG_NICE10].st, SKIPLIST_SCHED_NORMAL,
                                   0, 10);
    rc |= skiplist_sched_task_init(&tasks[PINNED].st, SKIPLIST_SCHED_NORMAL, 0,
                                   0);
    rc |= skiplist_sched_task_init(&tasks[IDLE].st, SKIPLIST_SCHED_IDLEPRIO, 0,
                                   0);
    rc |= skiplist_sched_task_init(&tasks[FIFO].st, SKIPLIST_SCHED_FIFO, 50,
                                   0); /* rt_prio 50 */
    /* Affinity: the pinned hog may run on CPU 1 only. */
    skiplist_sched_cpu_none(&tasks[PINNED].st);
    rc |= skiplist_sched_cpu_allow(&tasks[PINNED].st, 1, true);
    /* [setup] */
    return rc;
}

/* [wake] */
/* Queues a waking task and returns the CPU it should preempt, or -1. */
static int wake(struct task *t, struct skiplist_sched_task *const *curr)
{
    if (skiplist_sched_enqueue(&rq, &t->st) != 0)
        return -1; /* -EEXIST: it was queued already */
    return skiplist_sched_preempt_cpu(
        &rq, &t->st, (const struct skiplist_sched_task *const *)curr);
}
/* [wake] */

int main(void)
{
    if (setup() != 0)
        return 1;
    struct skiplist_sched_task *curr[NCPUS] = {NULL, NULL};
    uint64_t ran[NCPUS] = {0, 0};
    bool resched[NCPUS] = {false, false};
    unsigned fifo_late = 0, fifo_wakeups = 0, switches = 0;

    for (int i = 0; i < NTASKS; i++) /* everybody wakes at time 0 */
        if (i != FIFO)
            (void)wake(&tasks[i], curr);
    tasks[FIFO].asleep = true;

    for (unsigned step = 0; step < STEPS; step++) {
        const uint64_t now = step * STEP_NS;
        const unsigned half = step < STEPS / 2 ? 0 : 1;
        if (step == STEPS / 2) {
            /* [nice] */
            /* Re-nice while running or queued: the deadline moves by the
             * difference of the two levels' offsets. */
            if (skiplist_sched_set_nice(&rq, &tasks[HOG_NICE10].st, -5) != 0)
                return 1;
            /* [nice] */
        }
        struct task *f = &tasks[FIFO];
        if (f->asleep && f->wake_at_ns <= now) {
            f->asleep = false;
            fifo_wakeups++;
            int c = wake(f, curr);
            if (c >= 0)
                resched[c] = true;
        }
        /* [loop] */
        for (unsigned c = 0; c < NCPUS; c++) {
            if (curr[c] && resched[c]) { /* still runnable: back in */
                if (skiplist_sched_deschedule(&rq, c, curr[c], ran[c], true) !=
                    0)
                    return 1;
                curr[c] = NULL;
            }
            resched[c] = false;
            if (!curr[c]) {
                curr[c] = skiplist_sched_pick(&rq, c); /* NULL: idle */
                ran[c] = 0;
                switches++;
            }
        }
        /* [loop] */
        fifo_late += !f->asleep && curr[0] != &f->st && curr[1] != &f->st;

        skiplist_sched_advance(&rq, STEP_NS); /* the step runs */
        for (unsigned c = 0; c < NCPUS; c++) {
            struct task *t = task_of(curr[c]);
            if (!t)
                continue;
            ran[c] += STEP_NS;
            t->ran_ns[half] += STEP_NS;
            t->on_cpu0_ns += c == 0 ? STEP_NS : 0;
            if (t->period_ns && (t->burst_ns += STEP_NS) >= t->run_ns) {
                /* Done for this period: off the CPU, not runnable. */
                if (skiplist_sched_deschedule(&rq, c, curr[c], ran[c], false) !=
                    0)
                    return 1;
                t->burst_ns = 0;
                t->asleep = true;
                t->wake_at_ns += t->period_ns;
                curr[c] = NULL;
                continue;
            }
            /* [slice] */
            bool spent = curr[c]->time_slice - (int64_t)ran[c] <
                         SKIPLIST_SCHED_RESCHED_NS;
            bool tick = (step + 1) % TICK_STEPS == 0 &&
                        skiplist_sched_tick(&rq, c, curr[c]) == 1;
            if (spent || tick)
                resched[c] = true;
            /* [slice] */
        }
    }

    printf("%u steps of 100 us on %u CPUs, %u picks; CPU time in ms, "
           "first half / second half:\n",
           STEPS, NCPUS, switches);
    for (int i = 0; i < NTASKS; i++)
        printf("  %-13s %6.1f / %6.1f\n", tasks[i].name,
               (double)tasks[i].ran_ns[0] / 1e6,
               (double)tasks[i].ran_ns[1] / 1e6);
    printf("  (the nice 10 hog became nice -5 at the half)\n");
    printf("fifo task: woke %u times, waited for a CPU in %u steps\n",
           fifo_wakeups, fifo_late);

    expect(fifo_wakeups > 0 && fifo_late == 0,
           "the FIFO task runs in the step it wakes");
    expect(tasks[PINNED].on_cpu0_ns == 0 && tasks[PINNED].ran_ns[0] > 0,
           "the pinned task runs, and only on CPU 1");
    expect(tasks[IDLE].ran_ns[0] + tasks[IDLE].ran_ns[1] == 0,
           "IDLEPRIO gets nothing while others are runnable");
    for (int i = HOG_A; i <= HOG_C; i++) {
        expect(tasks[HOG_NICE10].ran_ns[0] < tasks[i].ran_ns[0],
               "nice 10 gets less than nice 0");
        expect(tasks[HOG_NICE10].ran_ns[1] > tasks[i].ran_ns[1],
               "nice -5 gets more than nice 0");
    }
    char why[128];
    expect(skiplist_sched_check(&rq, why, sizeof why) == 0, why);
    /* [teardown] */
    /* Queued tasks are unlinked, never freed: they belong to the caller. */
    skiplist_sched_destroy(&rq);
    /* [teardown] */
    printf("runqueue: %s\n", failures ? "checks FAILED" : "all checks passed");
    return failures ? 1 : 0;
}
