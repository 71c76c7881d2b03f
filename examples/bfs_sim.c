/* bfs_sim: a machine of N CPUs (default 4) scheduled by skiplist_sched.h,
 * the BFS global runqueue on a skiplist, running a mix of realtime, ISO,
 * normal tasks of several nice levels, batch and idle-priority tasks, some
 * of them pinned. Time is simulated in 100 us steps with a 1 ms scheduler
 * tick; a task runs until its 6 ms slice is used up, it sleeps, or a waking
 * task with a better key preempts it (as BFS's try_preempt does).
 *
 * Prints each task's and each class's CPU share (a nice 19 hog gets about
 * 3% of the CPU a nice 0 hog gets: both get a new deadline when their slice
 * ends, and nice 0's 40.6 ms comes round about 33 times while nice 19's
 * 248 ms passes once), wake-to-run latencies, and picks per second.
 *
 *     build/examples/bfs_sim [cpus] [seconds]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "skiplist_sched.h"

#define STEP_NS 100000ull /* 100 us */
#define TICK_STEPS 10     /* 1 ms tick */
#define MAX_CPUS 64
#define LAT_BUCKETS 2000 /* latency histogram: 100 us steps up to 200 ms */

struct task {
    struct skiplist_sched_task s; /* what the scheduler sees */
    const char *name;
    const char *cls;            /* row of the per-class summary */
    uint64_t run_ns, period_ns; /* periodic: run this much every period */
    uint64_t cpu_ns;            /* CPU time received */
    uint64_t burst_ns;          /* of the current period */
    uint64_t wake_at, woke_at;
    int sleeping, waiting; /* waiting: woken, not yet run */
    unsigned long lat_hist[LAT_BUCKETS + 1];
    unsigned long wakeups;
    uint64_t lat_sum, lat_max;
};

struct cpu {
    struct task *cur;
    uint64_t ran; /* ns since it was picked */
    int resched;
};

static struct skiplist_sched rq;
static struct task tasks[32];
static int ntasks;
static struct cpu cpus[MAX_CPUS];
static unsigned ncpus = 4;
static unsigned long picks;

static struct task *task_of(struct skiplist_sched_task *s)
{
    return (struct task *)(void *)((char *)s - offsetof(struct task, s));
}

/* A hog when run_ns is 0; cpu < 0 allows every CPU, else [cpu, cpu_last]. */
static struct task *add(const char *name, const char *cls, int policy,
                        int rt_prio, int nice, uint64_t run_ns,
                        uint64_t period_ns, int cpu, int cpu_last)
{
    struct task *t = &tasks[ntasks++];
    memset(t, 0, sizeof(*t));
    if (skiplist_sched_task_init(&t->s, policy, rt_prio, nice)) {
        fprintf(stderr, "bad task %s\n", name);
        exit(1);
    }
    t->name = name;
    t->cls = cls;
    t->run_ns = run_ns;
    t->period_ns = period_ns;
    if (cpu >= 0) {
        skiplist_sched_cpu_none(&t->s);
        for (int c = cpu; c <= cpu_last; c++)
            skiplist_sched_cpu_allow(&t->s, (unsigned)c % ncpus, true);
    }
    return t;
}

static void wake(struct task *t, uint64_t now)
{
    t->sleeping = 0;
    t->waiting = 1;
    t->woke_at = now;
    t->wakeups++;
    if (skiplist_sched_enqueue(&rq, &t->s)) {
        fprintf(stderr, "enqueue failed\n");
        exit(1);
    }
    /* Preemption: an idle CPU will pick it anyway; else the allowed CPU
     * running the worst key gives way if the woken task's key is better. */
    uint64_t key = skiplist_sched_key_of(&rq, &t->s), worst = 0;
    struct cpu *victim = NULL;
    for (unsigned c = 0; c < ncpus; c++) {
        if (!skiplist_sched_cpu_allowed(&t->s, c))
            continue;
        if (!cpus[c].cur)
            return;
        if (cpus[c].resched) /* already given away to an earlier waker */
            continue;
        uint64_t k = skiplist_sched_key_of(&rq, &cpus[c].cur->s);
        if (k > worst) {
            worst = k;
            victim = &cpus[c];
        }
    }
    if (victim && key < worst)
        victim->resched = 1;
}

static void record_latency(struct task *t, uint64_t now)
{
    uint64_t lat = now - t->woke_at;
    size_t b = (size_t)(lat / STEP_NS);
    t->lat_hist[b < LAT_BUCKETS ? b : LAT_BUCKETS]++;
    t->lat_sum += lat;
    if (lat > t->lat_max)
        t->lat_max = lat;
    t->waiting = 0;
}

static void step(uint64_t now, unsigned long n)
{
    for (unsigned c = 0; c < ncpus; c++) {
        struct cpu *cp = &cpus[c];
        struct task *t = cp->cur;
        if (t) {
            t->cpu_ns += STEP_NS;
            t->burst_ns += STEP_NS;
            cp->ran += STEP_NS;
        }
        if (n % TICK_STEPS == 0 &&
            skiplist_sched_tick(&rq, c, t ? &t->s : NULL) == 1)
            cp->resched = 1;
        if (!t)
            continue;
        int done = t->run_ns && t->burst_ns >= t->run_ns;
        if (done || cp->resched || cp->ran >= (uint64_t)t->s.time_slice) {
            if (skiplist_sched_deschedule(&rq, c, &t->s, cp->ran, !done)) {
                fprintf(stderr, "deschedule failed\n");
                exit(1);
            }
            if (done) {
                t->sleeping = 1;
                /* Next period starts period_ns after this one started. */
                t->wake_at = t->wake_at + t->period_ns;
                if (t->wake_at <= now)
                    t->wake_at = now + STEP_NS;
                t->burst_ns = 0;
            }
            cp->cur = NULL;
        }
        cp->resched = 0;
    }
    for (int i = 0; i < ntasks; i++)
        if (tasks[i].sleeping && tasks[i].wake_at <= now)
            wake(&tasks[i], now);
    for (unsigned c = 0; c < ncpus; c++) {
        struct cpu *cp = &cpus[c];
        if (cp->resched && cp->cur) {
            if (skiplist_sched_deschedule(&rq, c, &cp->cur->s, cp->ran, 1)) {
                fprintf(stderr, "deschedule failed\n");
                exit(1);
            }
            cp->cur = NULL;
        }
        cp->resched = 0;
        if (cp->cur)
            continue;
        struct skiplist_sched_task *s = skiplist_sched_pick(&rq, c);
        picks++;
        if (!s)
            continue;
        cp->cur = task_of(s);
        cp->ran = 0;
        if (cp->cur->waiting)
            record_latency(cp->cur, now);
    }
}

static double seconds_now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static double p99_ms(const struct task *t)
{
    unsigned long total = 0, seen = 0;
    for (size_t b = 0; b <= LAT_BUCKETS; b++)
        total += t->lat_hist[b];
    for (size_t b = 0; b <= LAT_BUCKETS; b++) {
        seen += t->lat_hist[b];
        if (seen * 100 >= total * 99)
            return (double)b * (double)STEP_NS / 1e6;
    }
    return 0;
}

int main(int argc, char **argv)
{
    double secs = 30;
    if (argc > 1)
        ncpus = (unsigned)atoi(argv[1]);
    if (argc > 2)
        secs = atof(argv[2]);
    if (ncpus < 2 || ncpus > MAX_CPUS || secs <= 0) {
        fprintf(stderr, "usage: %s [cpus 2..%d] [seconds]\n", argv[0],
                MAX_CPUS);
        return 2;
    }
    if (skiplist_sched_init(&rq, ncpus, NULL, 42)) {
        fprintf(stderr, "init failed\n");
        return 1;
    }
    const uint64_t ms = 1000000;
    add("fifo50 0.5/10ms", "realtime", SKIPLIST_SCHED_FIFO, 50, 0, ms / 2,
        10 * ms, -1, 0);
    add("rr10 1/20ms", "realtime", SKIPLIST_SCHED_RR, 10, 0, ms, 20 * ms, -1,
        0);
    add("iso audio 2/5ms", "iso", SKIPLIST_SCHED_ISO, 0, 0, 2 * ms, 5 * ms, -1,
        0);
    add("interactive 1/16ms", "normal", SKIPLIST_SCHED_NORMAL, 0, 0, ms,
        16 * ms, 0, 1);
    add("hog nice 0 a", "normal", SKIPLIST_SCHED_NORMAL, 0, 0, 0, 0, -1, 0);
    add("hog nice 0 b", "normal", SKIPLIST_SCHED_NORMAL, 0, 0, 0, 0, -1, 0);
    add("hog nice 5 (cpu 0)", "normal", SKIPLIST_SCHED_NORMAL, 0, 5, 0, 0, 0,
        0);
    add("hog nice 10", "normal", SKIPLIST_SCHED_NORMAL, 0, 10, 0, 0, -1, 0);
    add("hog nice 19 a", "normal", SKIPLIST_SCHED_NORMAL, 0, 19, 0, 0, -1, 0);
    add("hog nice 19 b", "normal", SKIPLIST_SCHED_NORMAL, 0, 19, 0, 0, -1, 0);
    add("batch (cpus 2-3)", "batch", SKIPLIST_SCHED_BATCH, 0, 0, 0, 0, 2, 3);
    add("idleprio", "idleprio", SKIPLIST_SCHED_IDLEPRIO, 0, 0, 0, 0, -1, 0);
    for (int i = 0; i < ntasks; i++)
        wake(&tasks[i], 0);

    const unsigned long steps = (unsigned long)(secs * 1e9 / STEP_NS);
    double w0 = seconds_now();
    for (unsigned long n = 1; n <= steps; n++) {
        uint64_t now = n * STEP_NS;
        skiplist_sched_advance(&rq, STEP_NS);
        step(now, n);
    }
    double wall = seconds_now() - w0;
    char why[256];
    if (skiplist_sched_check(&rq, why, sizeof why)) {
        fprintf(stderr, "check: %s\n", why);
        return 1;
    }

    const uint64_t total = (uint64_t)steps * STEP_NS * ncpus;
    printf("bfs_sim: %u CPUs, %.0f s simulated, rr_interval 6 ms, "
           "ISO limit %u%%\n\n",
           ncpus, secs, rq.iso_cpu);
    printf("%-22s %10s\n", "task", "CPU share");
    for (int i = 0; i < ntasks; i++)
        printf("%-22s %9.2f%%\n", tasks[i].name, pct(tasks[i].cpu_ns, total));
    static const char *const classes[] = {"realtime", "iso", "normal", "batch",
                                          "idleprio"};
    printf("\nper class (share of all %u CPUs):\n", ncpus);
    uint64_t busy = 0;
    for (size_t k = 0; k < 5; k++) {
        uint64_t sum = 0;
        for (int i = 0; i < ntasks; i++)
            if (strcmp(tasks[i].cls, classes[k]) == 0)
                sum += tasks[i].cpu_ns;
        busy += sum;
        printf("  %-10s %6.2f%%\n", classes[k], pct(sum, total));
    }
    printf("  %-10s %6.2f%%\n", "idle", 100.0 - pct(busy, total));
    uint64_t n0 = tasks[4].cpu_ns + tasks[5].cpu_ns;
    uint64_t n19 = tasks[8].cpu_ns + tasks[9].cpu_ns;
    printf("\nnice 19 hog / nice 0 hog CPU: %.1f%% (BFS: about 3%%)\n",
           pct(n19, n0));

    printf("\nwake-to-run latency    wakeups   mean ms    p99 ms    max ms\n");
    for (int i = 0; i < ntasks; i++) {
        const struct task *t = &tasks[i];
        if (!t->period_ns)
            continue;
        printf("%-22s %8lu %9.3f %9.3f %9.3f\n", t->name, t->wakeups,
               t->wakeups ? (double)t->lat_sum / (double)t->wakeups / 1e6 : 0,
               p99_ms(t), (double)t->lat_max / 1e6);
    }

    /* Pick throughput on the final queue: pick on each CPU in turn and put
     * the task straight back. */
    size_t queued = skiplist_sched_nr_queued(&rq);
    unsigned long loops = 0;
    double t0 = seconds_now(), t1;
    do {
        for (int k = 0; k < 1000; k++) {
            struct skiplist_sched_task *s = skiplist_sched_pick(
                &rq, (unsigned)(loops + (unsigned)k) % ncpus);
            if (s && skiplist_sched_enqueue(&rq, s))
                return 1;
        }
        loops += 1000;
        t1 = seconds_now();
    } while (t1 - t0 < 0.2);
    printf("\npicks: %lu in %.0f simulated s (%.0f per simulated second), "
           "simulation took %.2f s of wall time\n",
           picks, secs, (double)picks / secs, wall);
    printf("pick + enqueue with %zu queued: %.1f million per second\n", queued,
           (double)loops / (t1 - t0) / 1e6);
    skiplist_sched_destroy(&rq);
    return 0;
}
