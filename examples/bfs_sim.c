/* bfs_sim: N CPUs (default 4) scheduled by skiplist_sched.h, the BFS global
 * runqueue on a skiplist, next to the same machine scheduled by BFS's own
 * rules as tests/sched_oracle.h writes them down from the patch (a sorted
 * list keyed as the patch keys it, earliest_deadline_task, schedule,
 * task_running_tick, try_preempt). Both run one scenario: three nice 0
 * hogs, a nice 10 hog, an ISO task (2 ms every 10 ms), a bursty FIFO task
 * (5 ms every 50 ms), an idleprio hog, and two tasks pinned to CPU 0 (a
 * nice 0 hog and a task working 1 ms every 8 ms). Time runs in 100 us
 * steps with a 1 ms tick; a task runs until its slice is spent, it sleeps,
 * the tick demotes it, or a waking task preempts it: the CPU comes from
 * skiplist_sched_preempt_cpu() (BFS: try_preempt()), no decision of ours.
 *
 * Prints each task's CPU share (100% = one CPU) and its longest wait from
 * wake-up to running, for skiplist_sched.h and for BFS's rules.
 *
 *     build/examples/bfs_sim [cpus] [seconds] [patch]
 *
 * "patch" selects the patch's own-CPU sticky test as written
 * (SKIPLIST_SCHED_STICKY_PATCH; see docs/bfs-model.md) on both sides.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skiplist_sched.h"
#include "tests/sched_oracle.h"

#define STEP_NS 100000ull /* 100 us */
#define TICK_STEPS 10     /* 1 ms tick */
#define MAX_CPUS 16
#define NTASKS 9
#define MS 1000000ull

static const struct spec {
    const char *name;
    int policy, rt, nice, pin; /* pin: the one CPU allowed, or -1 */
    uint64_t run, period;      /* periodic: run this much per period */
} spec[NTASKS] = {
    {"hog nice 0 a", SKIPLIST_SCHED_NORMAL, 0, 0, -1, 0, 0},
    {"hog nice 0 b", SKIPLIST_SCHED_NORMAL, 0, 0, -1, 0, 0},
    {"hog nice 0 c", SKIPLIST_SCHED_NORMAL, 0, 0, -1, 0, 0},
    {"hog nice 10", SKIPLIST_SCHED_NORMAL, 0, 10, -1, 0, 0},
    {"iso 2/10ms", SKIPLIST_SCHED_ISO, 0, 0, -1, 2 * MS, 10 * MS},
    {"fifo 5/50ms", SKIPLIST_SCHED_FIFO, 50, 0, -1, 5 * MS, 50 * MS},
    {"idleprio hog", SKIPLIST_SCHED_IDLEPRIO, 0, 0, -1, 0, 0},
    {"cpu0 hog", SKIPLIST_SCHED_NORMAL, 0, 0, 0, 0, 0},
    {"cpu0 1/8ms", SKIPLIST_SCHED_NORMAL, 0, 0, 0, 1 * MS, 8 * MS},
};

static unsigned ncpus = 4;
static bool patch_rule;

/* ------------------------------------------ the two schedulers, one API */

static struct skiplist_sched rq;
static struct skiplist_sched_task st[NTASKS];
static struct or_rq orq;
static struct or_task ot[NTASKS];
static int oracle; /* which one the loop drives */

static int idx(const void *p, const void *base, size_t size)
{
    return p ? (int)(((const char *)p - (const char *)base) / (long)size) : -1;
}

static void setup(void)
{
    static const int or_pol[] = {OR_FIFO,   OR_RR,    OR_ISO,
                                 OR_NORMAL, OR_BATCH, OR_IDLEPRIO};
    if (skiplist_sched_init(&rq, ncpus, NULL, 42) ||
        skiplist_sched_set_sticky_rule(&rq, patch_rule
                                                ? SKIPLIST_SCHED_STICKY_PATCH
                                                : SKIPLIST_SCHED_STICKY_REAL))
        exit(1);
    or_init(&orq, ncpus, (struct or_readings){.sticky_patch = patch_rule});
    for (int i = 0; i < NTASKS; i++) {
        const struct spec *s = &spec[i];
        if (skiplist_sched_task_init(&st[i], s->policy, s->rt, s->nice))
            exit(1);
        or_task_init(&orq, &ot[i], or_pol[s->policy], s->rt, s->nice);
        if (s->pin >= 0) {
            skiplist_sched_cpu_none(&st[i]);
            skiplist_sched_cpu_allow(&st[i], (unsigned)s->pin, true);
            ot[i].cpus_allowed = UINT64_C(1) << s->pin;
        }
    }
}

static void advance(uint64_t ns)
{
    if (oracle)
        orq.niffies += ns;
    else
        skiplist_sched_advance(&rq, ns);
}

static int pick(unsigned c)
{
    return oracle ? idx(or_pick(&orq, c), ot, sizeof *ot)
                  : idx(skiplist_sched_pick(&rq, c), st, sizeof *st);
}

static void desched(unsigned c, int i, uint64_t ran, bool runnable)
{
    if (oracle ? or_schedule(&orq, c, &ot[i], ran, !runnable)
               : skiplist_sched_deschedule(&rq, c, &st[i], ran, runnable))
        exit(1);
}

static int tick(unsigned c, int i)
{
    return oracle ? or_tick(&orq, i >= 0 ? &ot[i] : NULL)
                  : skiplist_sched_tick(&rq, c, i >= 0 ? &st[i] : NULL);
}

static bool slice_spent(int i, uint64_t ran)
{
    return oracle ? ot[i].time_slice - (int64_t)(ran >> 10) < OR_RESCHED_US
                  : st[i].time_slice - (int64_t)ran < SKIPLIST_SCHED_RESCHED_NS;
}

/* Wakes i and returns the CPU to preempt (-1: none), given what runs. */
static int wake(int i, const int *curr)
{
    if (oracle) {
        struct or_task *c[MAX_CPUS];
        for (unsigned k = 0; k < ncpus; k++)
            c[k] = curr[k] >= 0 ? &ot[curr[k]] : NULL;
        if (or_wake(&orq, &ot[i]))
            exit(1);
        return or_try_preempt(&orq, &ot[i], c);
    }
    const struct skiplist_sched_task *c[MAX_CPUS];
    for (unsigned k = 0; k < ncpus; k++)
        c[k] = curr[k] >= 0 ? &st[curr[k]] : NULL;
    if (skiplist_sched_enqueue(&rq, &st[i]))
        exit(1);
    return skiplist_sched_preempt_cpu(&rq, &st[i], c);
}

/* ------------------------------------------------------------ the run */

struct result {
    uint64_t cpu_ns[NTASKS], max_wait[NTASKS];
};

static void simulate(uint64_t steps, struct result *res)
{
    int curr[MAX_CPUS];
    uint64_t ran[MAX_CPUS] = {0};
    bool resched[MAX_CPUS] = {false};
    uint64_t burst[NTASKS] = {0}, wake_at[NTASKS] = {0}, woke[NTASKS];
    bool asleep[NTASKS], waiting[NTASKS];
    memset(res, 0, sizeof(*res));
    for (unsigned c = 0; c < ncpus; c++)
        curr[c] = -1;
    for (int i = 0; i < NTASKS; i++)
        asleep[i] = true, waiting[i] = false;
    for (uint64_t n = 0; n < steps; n++) {
        const uint64_t now = n * STEP_NS;
        for (int i = 0; i < NTASKS; i++) /* wake-ups, then preemption */
            if (asleep[i] && wake_at[i] <= now) {
                asleep[i] = false;
                waiting[i] = true;
                woke[i] = now;
                int c = wake(i, curr);
                if (c >= 0 && curr[c] >= 0)
                    resched[c] = true;
            }
        for (unsigned c = 0; c < ncpus; c++) {
            if (curr[c] >= 0 && resched[c])
                desched(c, curr[c], ran[c], true), curr[c] = -1;
            resched[c] = false;
            if (curr[c] >= 0)
                continue;
            int i = curr[c] = pick(c);
            ran[c] = 0;
            if (i >= 0 && waiting[i]) {
                waiting[i] = false;
                if (now - woke[i] > res->max_wait[i])
                    res->max_wait[i] = now - woke[i];
            }
        }
        advance(STEP_NS); /* the step runs */
        for (unsigned c = 0; c < ncpus; c++) {
            int i = curr[c];
            if (i >= 0) {
                res->cpu_ns[i] += STEP_NS;
                burst[i] += STEP_NS;
                ran[c] += STEP_NS;
            }
            bool demote = (n + 1) % TICK_STEPS == 0 && tick(c, i) == 1;
            if (i < 0)
                continue;
            if (spec[i].period && burst[i] >= spec[i].run) {
                desched(c, i, ran[c], false); /* sleeps till next period */
                asleep[i] = true;
                burst[i] = 0;
                wake_at[i] += spec[i].period;
                if (wake_at[i] <= now + STEP_NS)
                    wake_at[i] = now + 2 * STEP_NS;
                curr[c] = -1;
            } else if (demote || (spec[i].policy != SKIPLIST_SCHED_FIFO &&
                                  slice_spent(i, ran[c]))) {
                desched(c, i, ran[c], true);
                curr[c] = -1;
            }
        }
    }
}

int main(int argc, char **argv)
{
    double secs = 20;
    if (argc > 1)
        ncpus = (unsigned)atoi(argv[1]);
    if (argc > 2)
        secs = atof(argv[2]);
    patch_rule = argc > 3 && strcmp(argv[3], "patch") == 0;
    if (ncpus < 1 || ncpus > MAX_CPUS || secs <= 0) {
        fprintf(stderr, "usage: %s [cpus 1..%d] [seconds] [patch]\n", argv[0],
                MAX_CPUS);
        return 2;
    }
    setup();
    const uint64_t steps = (uint64_t)(secs * 1e9 / STEP_NS);
    static struct result r[2];
    for (oracle = 0; oracle < 2; oracle++)
        simulate(steps, &r[oracle]);
    char why[256];
    if (skiplist_sched_check(&rq, why, sizeof why)) {
        fprintf(stderr, "check: %s\n", why);
        return 1;
    }
    const double total = (double)steps * STEP_NS;
    printf("bfs_sim: %u CPUs, %.0f s, own-CPU sticky test: %s\n\n", ncpus, secs,
           patch_rule ? "the patch's code" : "real key (default)");
    printf("%-14s %21s %23s\n", "", "CPU share (1 CPU=100%)",
           "longest wait to run, ms");
    printf("%-14s %10s %10s %11s %11s\n", "task", "ours", "BFS", "ours", "BFS");
    for (int i = 0; i < NTASKS; i++) {
        printf("%-14s %9.2f%% %9.2f%%", spec[i].name,
               100.0 * (double)r[0].cpu_ns[i] / total,
               100.0 * (double)r[1].cpu_ns[i] / total);
        if (spec[i].period)
            printf(" %11.1f %11.1f\n", (double)r[0].max_wait[i] / 1e6,
                   (double)r[1].max_wait[i] / 1e6);
        else
            printf(" %11s %11s\n", "-", "-");
    }
    skiplist_sched_destroy(&rq);
    return 0;
}
