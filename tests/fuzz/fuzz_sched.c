/*
 * libFuzzer harness, the runqueue (skiplist_sched.h), against the BFS
 * replica of tests/bfs_replica.h: the differential stream of
 * tests/test_sched_random.c, with the fuzzer choosing every step.
 *
 * Input: bytes 0..7 seed the level generator; byte 8 gives the number of
 * tasks (2..33); then two bytes per task (policy, rt priority and nice;
 * affinity over the six CPUs in use), then opcode bytes with their
 * arguments: wake, sleep, schedule (deschedule what runs there, then
 * pick), tick, clock steps (zero often: deadline ties), frequency
 * scaling, affinity and policy and nice changes, the ISO limit, and an
 * injected allocation failure. After every operation the two agree on
 * every task's queued state and its slice and deadline, the sticky task
 * of each CPU in use and whether ISO is refractory, and
 * skiplist_sched_check() passes; every pick returns the same task on both.
 *
 * 4-key leaves (SKIPLIST_SCHED_CONFIG 4, 8, 1), as test_sched_small.c:
 * with a handful of tasks every push and requeue splits or merges leaves.
 * Each input runs on the counting allocator (with the injected failures:
 * a call that reports -ENOMEM must have met one, and the replica then
 * does not run the operation, so any change it left behind shows up as a
 * mismatch) and on the engine's own pool.
 */
#define SKIPLIST_SCHED_CONFIG 4, 8, 1
#include "skiplist_sched.h"
#include "tests/bfs_replica.h"
#include "tests/fuzz/fuzz_common.h"

#define MAXT 33
#define MS UINT64_C(1000000)

static const int policy_map[] = {[SKIPLIST_SCHED_FIFO] = BFS_SCHED_FIFO,
                                 [SKIPLIST_SCHED_RR] = BFS_SCHED_RR,
                                 [SKIPLIST_SCHED_ISO] = BFS_SCHED_ISO,
                                 [SKIPLIST_SCHED_NORMAL] = BFS_SCHED_NORMAL,
                                 [SKIPLIST_SCHED_BATCH] = BFS_SCHED_BATCH,
                                 [SKIPLIST_SCHED_IDLEPRIO] =
                                     BFS_SCHED_IDLEPRIO};

/* The CPUs the stream uses: both ends of a mask word and of the range. */
static const unsigned active_cpus[] = {0, 1, 2, 63, 64, 1023};
#define NACTIVE (sizeof active_cpus / sizeof active_cpus[0])

/* Big (1024 CPUs each): static, reset per run. */
static struct skiplist_sched rq;
static struct bfs_rq brq;
static struct skiplist_sched_task tasks[MAXT];
static struct bfs_task btasks[MAXT];

struct run {
    size_t n;
    long running[NACTIVE]; /* task index running on each CPU, -1 idle */
    bool counted, fail_armed;
    struct tc_alloc ta;
    struct fz_in in;
};

/* Policy, rt priority and nice from one byte: few distinct values, so
 * equal keys and equal deadlines are common. */
static void fs_policy(uint8_t b, int *pol, int *rt, int *nice)
{
    static const int pick[8] = {SKIPLIST_SCHED_FIFO,     SKIPLIST_SCHED_RR,
                                SKIPLIST_SCHED_ISO,      SKIPLIST_SCHED_NORMAL,
                                SKIPLIST_SCHED_NORMAL,   SKIPLIST_SCHED_BATCH,
                                SKIPLIST_SCHED_IDLEPRIO, SKIPLIST_SCHED_ISO};
    static const int nices[8] = {-20, -5, 0, 0, 0, 7, 19, 1};
    *pol = pick[b & 7];
    static const int rts[4] = {1, 41, 81, 99};
    *rt = *pol == SKIPLIST_SCHED_FIFO || *pol == SKIPLIST_SCHED_RR
              ? rts[(b >> 3) & 3]
              : 0;
    *nice = nices[b >> 5];
}

/* Affinity over the CPUs in use from one byte: bit c allows
 * active_cpus[c] (0xc0 and up: all six), so some tasks can run nowhere.
 * Only those CPUs ever pick or deschedule, so the other 1018 bits never
 * matter and stay clear (setting them would only cost time). */
static void fs_affinity(size_t i, uint8_t b)
{
    skiplist_sched_cpu_none(&tasks[i]);
    memset(btasks[i].cpus_allowed, 0, sizeof(btasks[i].cpus_allowed));
    for (size_t k = 0; k < NACTIVE; k++) {
        unsigned c = active_cpus[k];
        if (b >= 0xc0 || ((b >> k) & 1)) {
            FZ_CHECK(skiplist_sched_cpu_allow(&tasks[i], c, true) == 0);
            btasks[i].cpus_allowed[c / 64] |= UINT64_C(1) << (c % 64);
        }
    }
}

static long idx_t(const struct skiplist_sched_task *p)
{
    return p ? (long)(p - tasks) : -1L;
}

static long idx_b(const struct bfs_task *p)
{
    return p ? (long)(p - btasks) : -1L;
}

/* After every operation: the replica's state, then the invariants. */
static void fs_compare(const struct run *r)
{
    FZ_CHECK(skiplist_sched_nr_queued(&rq) == brq.nr_queued);
    for (size_t i = 0; i < r->n; i++) {
        const struct skiplist_sched_task *t = &tasks[i];
        const struct bfs_task *b = &btasks[i];
        FZ_CHECK(skiplist_sched_queued(t) == b->queued);
        FZ_CHECK(t->time_slice == b->time_slice);
        FZ_CHECK((bool)t->fresh == b->fresh);
        if (!t->fresh)
            FZ_CHECK(t->deadline == b->node.deadline);
    }
    for (size_t c = 0; c < NACTIVE; c++) {
        unsigned cpu = active_cpus[c];
        FZ_CHECK(idx_t(skiplist_sched_sticky(&rq, cpu)) ==
                 idx_b(brq.sticky_task[cpu]));
    }
    FZ_CHECK(rq.iso_refractory == brq.iso_refractory);
    char why[256] = "";
    if (skiplist_sched_check(&rq, why, sizeof why) != 0) {
        fprintf(stderr, "[%s] op %lu: check(): %s\n", fz_label, fz_op, why);
        abort();
    }
}

/* Arms the counting allocator for the next allocating call, once. */
static void fs_arm(struct run *r)
{
    if (r->fail_armed && r->counted)
        tc_alloc_fail_at(&r->ta, 1);
    r->fail_armed = false;
}

/* rc of a call that may allocate: -ENOMEM only where a failure was
 * injected. Returns true when the call went through (rc is not -ENOMEM),
 * so the replica should run it too. */
static bool fs_went_through(struct run *r, int rc, unsigned long failures0)
{
    tc_alloc_heal(&r->ta);
    if (rc != -ENOMEM)
        return true;
    FZ_CHECK(r->counted && r->ta.failures > failures0);
    return false;
}

static bool fs_busy(const struct run *r, size_t i)
{
    for (size_t k = 0; k < NACTIVE; k++)
        if (r->running[k] == (long)i)
            return true;
    return false;
}

static void op_wake(struct run *r, size_t i)
{
    if (fs_busy(r, i))
        return; /* a running task is not woken */
    unsigned long f0 = r->ta.failures;
    fs_arm(r);
    int rc = skiplist_sched_enqueue(&rq, &tasks[i]);
    if (fs_went_through(r, rc, f0))
        FZ_CHECK(rc == bfs_enqueue(&brq, &btasks[i]));
}

/* The task running on CPU c leaves it (ran_ns, runnable or asleep), then
 * the CPU picks; a deschedule refused for memory keeps the task running
 * there, and there is no pick. */
static void op_schedule(struct run *r, size_t c)
{
    unsigned cpu = active_cpus[c];
    uint8_t b = fz_u8(&r->in);
    if (r->running[c] >= 0) {
        size_t k = (size_t)r->running[c];
        uint64_t ran = (b & 3) ? (uint64_t)fz_u16(&r->in) * 110u
                               : (uint64_t)fz_u8(&r->in) * 1000u;
        bool runnable = (b & 0x1c) != 0;
        unsigned long f0 = r->ta.failures;
        fs_arm(r);
        int rc = skiplist_sched_deschedule(&rq, cpu, &tasks[k], ran, runnable);
        if (!fs_went_through(r, rc, f0))
            return;
        FZ_CHECK(rc == bfs_deschedule(&brq, cpu, &btasks[k], ran, runnable));
        r->running[c] = -1;
    }
    /* pick allocates only to unstick (and cannot fail): never armed. */
    struct skiplist_sched_task *p = skiplist_sched_pick(&rq, cpu);
    struct bfs_task *q = bfs_pick(&brq, cpu);
    FZ_CHECK(idx_t(p) == idx_b(q));
    r->running[c] = idx_t(p);
}

static void op_tick(struct run *r, size_t c)
{
    long k = r->running[c];
    unsigned cpu = active_cpus[c];
    FZ_CHECK(skiplist_sched_tick(&rq, cpu, k >= 0 ? &tasks[k] : NULL) ==
             bfs_tick(&brq, cpu, k >= 0 ? &btasks[k] : NULL));
}

static void op_advance(struct run *r)
{
    static const uint64_t steps[8] = {0,  0,      1,       1000,
                                      MS, 3 * MS, 40 * MS, 300 * MS};
    uint64_t ns = steps[fz_u8(&r->in) & 7];
    skiplist_sched_advance(&rq, ns);
    brq.niffies += ns;
}

static void op_policy(struct run *r, size_t i)
{
    int pol, rt, nice;
    fs_policy(fz_u8(&r->in), &pol, &rt, &nice);
    unsigned long f0 = r->ta.failures;
    fs_arm(r);
    int rc = skiplist_sched_set_policy(&rq, &tasks[i], pol, rt, nice);
    if (fs_went_through(r, rc, f0))
        FZ_CHECK(rc ==
                 bfs_set_policy(&brq, &btasks[i], policy_map[pol], rt, nice));
}

static void op_nice(struct run *r, size_t i)
{
    int nice = (int)(fz_u8(&r->in) % 41) - 20; /* -20..20: 20 is refused */
    unsigned long f0 = r->ta.failures;
    fs_arm(r);
    int rc = skiplist_sched_set_nice(&rq, &tasks[i], nice);
    if (fs_went_through(r, rc, f0))
        FZ_CHECK(rc == bfs_set_nice(&brq, &btasks[i], nice));
}

/* The ISO limit: percent and a window short enough to cross both ways. A
 * window of one tick is refused (BFS's decay would take more than the
 * usage: the bug this harness found, tests/fuzz/corpus/sched/
 * iso-period-1) and changes nothing. */
static void op_iso(struct run *r)
{
    unsigned pct = fz_u8(&r->in) % 101u;
    uint64_t period = 1u + fz_u8(&r->in) * 4u;
    if (period == 1) {
        const uint64_t was_cpu = rq.iso_cpu, was_period = rq.iso_period;
        FZ_CHECK(skiplist_sched_set_iso(&rq, pct, period) == -EINVAL);
        FZ_CHECK(rq.iso_cpu == was_cpu && rq.iso_period == was_period);
        return;
    }
    FZ_CHECK(skiplist_sched_set_iso(&rq, pct, period) == 0);
    brq.iso_cpu = pct;
    brq.iso_period = period;
}

static void fs_setup(struct run *r, bool counted, const uint8_t *data,
                     size_t size)
{
    r->counted = counted;
    r->fail_armed = false;
    fz_begin(&r->ta, &r->in, counted ? "4-key leaves, counted" : "4-key pool",
             data, size);
    uint64_t seed = fz_u64(&r->in);
    FZ_CHECK(skiplist_sched_init(&rq, 1024, counted ? &r->ta.iface : NULL,
                                 seed) == 0);
    bfs_init(&brq, 1024);
    /* The differential test's short ISO window (60% of 100 ticks). */
    FZ_CHECK(skiplist_sched_set_iso(&rq, 60, 100) == 0);
    brq.iso_cpu = 60;
    brq.iso_period = 100;
    r->n = 2 + fz_u8(&r->in) % (MAXT - 1);
    for (size_t i = 0; i < r->n; i++) {
        int pol, rt, nice;
        fs_policy(fz_u8(&r->in), &pol, &rt, &nice);
        FZ_CHECK(skiplist_sched_task_init(&tasks[i], pol, rt, nice) == 0);
        FZ_CHECK(bfs_task_init(&btasks[i], policy_map[pol], rt, nice) == 0);
        fs_affinity(i, fz_u8(&r->in));
    }
    for (size_t c = 0; c < NACTIVE; c++)
        r->running[c] = -1;
}

static void fs_run(bool counted, const uint8_t *data, size_t size)
{
    struct run r;
    fs_setup(&r, counted, data, size);
    while (fz_more(&r.in)) {
        fz_op++;
        uint8_t op = fz_u8(&r.in);
        size_t c = (size_t)(op >> 4) % NACTIVE;
        size_t i = fz_u8(&r.in) % r.n;
        switch (op % 13) {
        case 0:
        case 1:
            op_wake(&r, i);
            break;
        case 2:
            FZ_CHECK(skiplist_sched_dequeue(&rq, &tasks[i]) ==
                     bfs_dequeue(&brq, &btasks[i]));
            break;
        case 3:
        case 4:
            op_schedule(&r, c);
            break;
        case 5:
            op_tick(&r, c);
            break;
        case 6:
            op_advance(&r);
            break;
        case 7: {
            bool on = (op >> 7) != 0;
            FZ_CHECK(skiplist_sched_set_scaling(&rq, active_cpus[c], on) == 0);
            brq.scaling[active_cpus[c]] = on;
            break;
        }
        case 8:
            fs_affinity(i, fz_u8(&r.in));
            break;
        case 9:
            op_policy(&r, i);
            break;
        case 10:
            op_nice(&r, i);
            break;
        case 11:
            op_iso(&r);
            break;
        default:
            r.fail_armed = true;
            break;
        }
        fs_compare(&r);
    }
    tc_alloc_heal(&r.ta);
    skiplist_sched_destroy(&rq);
    for (size_t i = 0; i < r.n; i++)
        FZ_CHECK(!skiplist_sched_queued(&tasks[i]));
    fz_alloc_done(&r.ta, counted);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fs_run(true, data, size);
    fs_run(false, data, size);
    return 0;
}
