/* skiplist_sched.h: a user-space model of the BFS global runqueue on the
 * priority-queue face of skiplist.h.
 *
 * SPDX-License-Identifier: MIT
 *
 * One queue shared by every CPU, as in Con Kolivas's BFS with his 2011
 * skiplist patch: every runnable task that is not running sits in one
 * skiplist under one 64-bit key, so the next task to run is the first one a
 * CPU may take, usually the very first entry (O(1)); insertion is O(log n);
 * removal goes through the task's embedded hook with no search.
 *
 *     #include "skiplist_sched.h"
 *
 *     struct skiplist_sched rq;                        // big: make it static
 *     skiplist_sched_init(&rq, 4, NULL, 0);            // 4 CPUs
 *     struct skiplist_sched_task t;
 *     skiplist_sched_task_init(&t, SKIPLIST_SCHED_NORMAL, 0, 0); // nice 0
 *     skiplist_sched_enqueue(&rq, &t);                 // wake up
 *     struct skiplist_sched_task *run = skiplist_sched_pick(&rq, 0);
 *     skiplist_sched_advance(&rq, 6000000);            // it ran 6 ms
 *     skiplist_sched_deschedule(&rq, 0, run, 6000000, true); // slice over
 *     skiplist_sched_destroy(&rq);
 *
 * Key: the class in the top bits, so one integer compare orders classes,
 * and under it what orders tasks within the class:
 *
 *     63..61  class: 0 realtime, 1 ISO, 2 NORMAL/BATCH, 3 IDLEPRIO
 *     60..0   realtime: 1 + BFS prio (99 - rt_priority), ISO: 1,
 *             deadline classes: virtual deadline in ns (saturating)
 *
 * FIFO among equal keys comes from the queue itself (push and requeue place
 * a task after its equals), which is what realtime and ISO tasks of one
 * priority need. The virtual deadline is niffies + prio_ratios[nice] *
 * rr_interval * MS_TO_NS(1) / 128 in BFS's own units: MS_TO_NS(x) is
 * x << 20 and the ratios start at 128 and grow by 11/10 per nice level,
 * truncated at each step, so nice -20 gets 6.29 ms, nice 0 41.09 ms and
 * nice 19 250.13 ms; a full slice is 6 << 20 ns (6.29 ms). Values saturate
 * at 2^61 - 1 (73 years of niffies) instead of spilling into the class bits,
 * so every key lies in [1, 2^63 - 1]: no key equals 0 or UINT64_MAX, the
 * values a queue could reserve as sentinels (the patch's header key was
 * 0xFFFFFFFFFFFFFFFF and its idle offset was OR-ed into a raw deadline).
 *
 * Sticky tasks (soft affinity): a task that is not realtime and leaves a
 * CPU still runnable (and still allowed there) becomes that CPU's sticky
 * task, ISO tasks included, as in BFS's swap_sticky(). A deadline-class
 * sticky task is queued with its deadline plus the longest deadline
 * difference (nice 19's), the view every other CPU has of it; an ISO key
 * has no deadline and carries no offset. A CPU whose frequency is scaling
 * down skips other CPUs' sticky tasks outright (BFS 0.40x; the patch left
 * this as a FIXME). Picking a realtime task unsticks the CPU's sticky task
 * (BFS's unstick_task()). When a task stops being sticky while queued, it
 * is re-keyed without the offset: the patch left it stale, which kept the
 * task behind later deadlines on every CPU; we do not copy that slip.
 *
 * The own-CPU sticky test has two readings, chosen per runqueue with
 * skiplist_sched_set_sticky_rule(). The default, SKIPLIST_SCHED_STICKY_REAL,
 * is what the patch's comment says and what BFS did before the patch: the
 * CPU sees its sticky task at its real (un-offset) key, class and FIFO
 * order included, so it takes it over the first task the walk found when
 * that real key is smaller. SKIPLIST_SCHED_STICKY_PATCH is the patch's
 * code: it subtracts the offset from a deadline that never carried it, so
 * the sticky task wins when its deadline minus 250 ms is before the first
 * task's deadline, whatever the two classes (unless that task is
 * realtime). docs/bfs-model.md gives the argument for the default, and
 * lists every rule where this model still departs from the patch or from
 * BFS 0.40x, with the BFS function each one comes from.
 *
 * Levels: the engine draws node levels from a per-list generator that
 * advances on every insert, so a burst of inserts at one clock value still
 * gets independent levels (the patch seeded each insert with niffies alone).
 * skiplist_sched_init() seeds that generator from a mix of the wall clock,
 * the process CPU clock, the caller's seed, the runqueue's address and a
 * process-wide counter of runqueues (see sls_seed()). Levels only affect
 * speed: every answer of this header is determined by keys and FIFO order.
 *
 * Concurrency: none inside; BFS holds one lock (grq.lock) around all of
 * this, and so must the caller.
 *
 * Map of this file, top to bottom: public configuration and types;
 * internals (prefix sls_); the "API" comment, which lists every function,
 * with the BFS function it models, and points to its contract in
 * docs/reference/skiplist_sched_api.h; the functions: queries, tasks,
 * the runqueue.
 */
#ifndef SKIPLIST_SCHED_H
#define SKIPLIST_SCHED_H

#include "skiplist.h"

#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Public configuration and types                                      */
/* ------------------------------------------------------------------ */

/** CPUs an affinity mask can name: a multiple of 64 in 64..32768; define
 *  it before the include to change it. */
#ifndef SKIPLIST_SCHED_NR_CPUS
#define SKIPLIST_SCHED_NR_CPUS 1024
#endif
/** Keys per node, max level, level shift of the queue. */
#ifndef SKIPLIST_SCHED_CONFIG
#define SKIPLIST_SCHED_CONFIG SKIPLIST_PQ_DEFAULTS
#endif

/** Scheduler ticks per second (ISO accounting). */
#define SKIPLIST_SCHED_HZ 1000
/** BFS's rr_interval, in its milliseconds. */
#define SKIPLIST_SCHED_RR_INTERVAL_MS 6
/** A full time slice, BFS's MS_TO_US(rr_interval) microseconds of 1024 ns:
 *  6 << 20 ns = 6.29 ms. */
#define SKIPLIST_SCHED_RR_INTERVAL_NS (UINT64_C(6) << 20)
/** A slice with less than this left is spent: BFS's RESCHED_US, 100 of its
 *  1024 ns microseconds. */
#define SKIPLIST_SCHED_RESCHED_NS INT64_C(102400)
/** Default share of all CPUs that ISO tasks may take, percent. */
#define SKIPLIST_SCHED_ISO_CPU 70
/** Default ISO accounting window in seconds (BFS's ISO_PERIOD is this many
 *  seconds of ticks on every CPU, plus one tick). */
#define SKIPLIST_SCHED_ISO_PERIOD_S 5

/** The key's class sits in bits 63..61: key = class << this | value. */
#define SKIPLIST_SCHED_CLASS_SHIFT 61
/** The largest value under the class bits (2^61 - 1); deadlines saturate
 *  here instead of spilling into the class. */
#define SKIPLIST_SCHED_VALUE_MAX \
    ((UINT64_C(1) << SKIPLIST_SCHED_CLASS_SHIFT) - 1)

#if SKIPLIST_SCHED_NR_CPUS % 64 != 0 || SKIPLIST_SCHED_NR_CPUS < 64 || \
    SKIPLIST_SCHED_NR_CPUS > 32768
#error "SKIPLIST_SCHED_NR_CPUS must be a multiple of 64 in 64..32768"
#endif

/** Scheduling policies, as BFS's (skiplist_sched_task_init()). */
enum skiplist_sched_policy {
    SKIPLIST_SCHED_FIFO,    /**< realtime, runs until it yields */
    SKIPLIST_SCHED_RR,      /**< realtime, round robin by rr_interval */
    SKIPLIST_SCHED_ISO,     /**< unprivileged soft realtime, CPU-share limit */
    SKIPLIST_SCHED_NORMAL,  /**< virtual deadline by nice */
    SKIPLIST_SCHED_BATCH,   /**< keyed as NORMAL */
    SKIPLIST_SCHED_IDLEPRIO /**< after every other class, by deadline */
};

/** The own-CPU sticky test (see the top of this file). */
enum skiplist_sched_sticky_rule {
    SKIPLIST_SCHED_STICKY_REAL, /**< real key, class and FIFO (default) */
    SKIPLIST_SCHED_STICKY_PATCH /**< the patch's code: deadline - 250 ms */
};

/** Queue classes, in the order the key's top bits give them. */
enum skiplist_sched_class {
    SKIPLIST_SCHED_CLASS_RT,       /**< FIFO and RR, by rt_prio */
    SKIPLIST_SCHED_CLASS_ISO,      /**< ISO while not refractory */
    SKIPLIST_SCHED_CLASS_DEADLINE, /**< NORMAL and BATCH, by deadline */
    SKIPLIST_SCHED_CLASS_IDLE      /**< IDLEPRIO, by deadline */
};

/** What a task embeds. Set up with skiplist_sched_task_init(); the fields
 *  are readable, but change them only through the functions below. */
struct skiplist_sched_task {
    struct skiplist_hook hook; /* queue link, owned by the queue */
    uint64_t key;              /* queue key while queued */
    uint64_t deadline;         /* virtual deadline, ns of niffies */
    uint64_t seq;              /* when it was (re)keyed: FIFO order */
    int64_t time_slice;        /* ns left of the current slice */
    int16_t sticky_cpu;        /* CPU whose sticky task this is, or -1 */
    int16_t cpu;               /* CPU it last ran on, or -1 */
    uint8_t policy;            /* enum skiplist_sched_policy */
    uint8_t rt_prio;           /* 1..99 for FIFO and RR, else 0 */
    int8_t nice;               /* -20..19 */
    uint8_t cls;               /* class it was last queued as */
    uint8_t fresh;             /* never had a deadline */
    uint64_t cpus_allowed[SKIPLIST_SCHED_NR_CPUS / 64];
};

/* The queue itself: an instance of skiplist.h's priority-queue face,
 * internal (sls_q_*), which struct skiplist_sched embeds. */
#define SLS_KEY(t) ((t)->key)
SKIPLIST_PQ_DEFINE(sls_q, struct skiplist_sched_task, uint64_t, SLS_KEY,
                   SKIPLIST_CMP_NUM, hook, SKIPLIST_SCHED_CONFIG)

/** The runqueue (about 9 KiB with 1024 CPUs). */
struct skiplist_sched {
    struct sls_q q;
    uint64_t niffies;    /* monotonic ns, advanced by the caller */
    uint64_t seq;        /* last seq handed out */
    uint64_t iso_ticks;  /* ISO and realtime usage, 100 per tick */
    uint64_t iso_period; /* ticks in the ISO window */
    unsigned iso_cpu;    /* percent of all CPUs */
    bool iso_refractory; /* ISO tasks run as NORMAL until usage drops */
    uint8_t sticky_rule; /* enum skiplist_sched_sticky_rule */
    unsigned nr_cpus;
    struct skiplist_sched_task *sticky[SKIPLIST_SCHED_NR_CPUS];
    uint64_t scaling[SKIPLIST_SCHED_NR_CPUS / 64];
};

/* ------------------------------------------------------------------ */
/* Internals (prefix sls_ / SLS_; not part of the API)                 */
/* ------------------------------------------------------------------ */
/* As skiplist.h's slx_ and skiplist_rcu.h's slr_. The API's own helpers
 * (sls_key_as, sls_take, ...) sit beside the functions that use them. */

/* splitmix64's finaliser: spreads every input bit over the output. */
static inline uint64_t sls_mix(uint64_t x)
{
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

/* Process-wide count of runqueues seeded: two runqueues made in the same
 * clock tick still differ. Unlocked: a lost increment only costs entropy. */
static inline uint64_t sls_counter(void)
{
    static uint64_t n;
    return ++n;
}

/* The engine seed: clock (wall and CPU time; only C89 clocks so the header
 * stays C99/C++ clean), the caller's seed, the runqueue's address and the
 * counter, each mixed before they are combined so none can cancel another. */
static inline uint64_t sls_seed(const void *rq, uint64_t seed)
{
    uint64_t c = sls_counter();
    return sls_mix(seed + UINT64_C(0x9e3779b97f4a7c15)) ^
           sls_mix((uint64_t)time(NULL) ^ ((uint64_t)clock() << 32)) ^
           sls_mix((uint64_t)(uintptr_t)rq + c) ^ sls_mix(c << 1);
}

static inline uint64_t sls_key(unsigned cls, uint64_t value)
{
    if (value > SKIPLIST_SCHED_VALUE_MAX)
        value = SKIPLIST_SCHED_VALUE_MAX;
    return ((uint64_t)cls << SKIPLIST_SCHED_CLASS_SHIFT) | value;
}

static inline uint64_t sls_sat_add(uint64_t a, uint64_t b)
{
    return a > SKIPLIST_SCHED_VALUE_MAX - b ? SKIPLIST_SCHED_VALUE_MAX : a + b;
}

static inline bool sls_is_rt(unsigned policy)
{
    return policy == SKIPLIST_SCHED_FIFO || policy == SKIPLIST_SCHED_RR;
}

static inline bool sls_valid(int policy, int rt_prio, int nice)
{
    if (policy < SKIPLIST_SCHED_FIFO || policy > SKIPLIST_SCHED_IDLEPRIO ||
        nice < -20 || nice > 19)
        return false;
    return sls_is_rt((unsigned)policy) ? rt_prio >= 1 && rt_prio <= 99
                                       : rt_prio == 0;
}

/* Classes that may become sticky: all but realtime (BFS's swap_sticky()
 * tests !rt_task). Only the deadline classes carry the key offset. */
static inline bool sls_can_stick(unsigned cls)
{
    return cls != SKIPLIST_SCHED_CLASS_RT;
}

/* The class a task's policy gives it, ISO even while ISO is refractory:
 * BFS's normal_prio(), what a running task's rq_prio becomes after a nice
 * or policy change (reset_rq_task). */
static inline unsigned sls_policy_cls(unsigned policy)
{
    switch (policy) {
    case SKIPLIST_SCHED_FIFO:
    case SKIPLIST_SCHED_RR:
        return SKIPLIST_SCHED_CLASS_RT;
    case SKIPLIST_SCHED_ISO:
        return SKIPLIST_SCHED_CLASS_ISO;
    case SKIPLIST_SCHED_IDLEPRIO:
        return SKIPLIST_SCHED_CLASS_IDLE;
    default:
        return SKIPLIST_SCHED_CLASS_DEADLINE;
    }
}

/* ------------------------------------------------------------------ */
/* API                                                                 */
/* ------------------------------------------------------------------ */
// clang-format off
/*
 * Ordinary functions, defined below in this order, one line each. Every
 * contract (what each does in BFS's terms, return values, errors,
 * complexity) is in docs/reference/skiplist_sched_api.h (the Doxygen
 * site's "Runqueue" module); how to use them: docs/api.md and
 * docs/guides/runqueue.md.
 *
 * Queries:
 *   uint64_t skiplist_sched_deadline_diff(int nice);
 *       the deadline offset of a nice level, in ns (BFS: prio_deadline_diff)
 *   uint64_t skiplist_sched_longest_deadline_diff(void);
 *       the offset a sticky task carries elsewhere
 *   bool skiplist_sched_queued(const struct skiplist_sched_task *t);
 *       t is queued
 *   size_t skiplist_sched_nr_queued(const struct skiplist_sched *rq);
 *       tasks queued
 *   unsigned skiplist_sched_class_of(const struct skiplist_sched *rq,
 *                                    const struct skiplist_sched_task *t);
 *       the class t would be queued as now
 *   uint64_t skiplist_sched_key_of(const struct skiplist_sched *rq,
 *                                  const struct skiplist_sched_task *t);
 *       the key t would be queued with now
 *   struct skiplist_sched_task *
 *   skiplist_sched_sticky(const struct skiplist_sched *rq, unsigned cpu);
 *       cpu's sticky task
 * Tasks:
 *   int skiplist_sched_task_init(struct skiplist_sched_task *t, int policy,
 *                                int rt_prio, int nice);
 *       set a task up
 *   int skiplist_sched_cpu_allow(struct skiplist_sched_task *t, unsigned cpu,
 *                                bool allow);
 *       allow or forbid one CPU
 *   void skiplist_sched_cpu_none(struct skiplist_sched_task *t);
 *       clear the affinity mask
 *   bool skiplist_sched_cpu_allowed(const struct skiplist_sched_task *t,
 *                                   unsigned cpu);
 *       t may run on cpu
 * The runqueue:
 *   int skiplist_sched_init(struct skiplist_sched *rq, unsigned nr_cpus,
 *                           const struct skiplist_allocator *a, uint64_t seed);
 *       set a runqueue up
 *   void skiplist_sched_destroy(struct skiplist_sched *rq);
 *       free it; queued tasks are unlinked
 *   void skiplist_sched_advance(struct skiplist_sched *rq, uint64_t ns);
 *       advance the clock by ns
 *   int skiplist_sched_set_scaling(struct skiplist_sched *rq, unsigned cpu,
 *                                  bool scaling);
 *       cpu scales its frequency down, or not
 *   int skiplist_sched_set_iso(struct skiplist_sched *rq, unsigned percent,
 *                              uint64_t period_ticks);
 *       the ISO tasks' CPU-share limit
 *   int skiplist_sched_set_sticky_rule(struct skiplist_sched *rq, int rule);
 *       choose the own-CPU sticky test
 *   int skiplist_sched_enqueue(struct skiplist_sched *rq,
 *                              struct skiplist_sched_task *t);
 *       wake t up
 *   int skiplist_sched_dequeue(struct skiplist_sched *rq,
 *                              struct skiplist_sched_task *t);
 *       take a queued task off
 *   struct skiplist_sched_task *
 *   skiplist_sched_pick(struct skiplist_sched *rq, unsigned cpu);
 *       the task cpu runs next, dequeued (earliest_deadline_task)
 *   int skiplist_sched_deschedule(struct skiplist_sched *rq, unsigned cpu,
 *                                 struct skiplist_sched_task *t,
 *                                 uint64_t ran_ns, bool runnable);
 *       t leaves cpu after running ran_ns (schedule() for prev)
 *   int skiplist_sched_tick(struct skiplist_sched *rq, unsigned cpu,
 *                           struct skiplist_sched_task *curr);
 *       one scheduler tick on cpu (task_running_tick, ISO accounting)
 *   int skiplist_sched_set_nice(struct skiplist_sched *rq,
 *                               struct skiplist_sched_task *t, int nice);
 *       change the nice level (set_user_nice)
 *   int skiplist_sched_set_policy(struct skiplist_sched *rq,
 *                                 struct skiplist_sched_task *t, int policy,
 *                                 int rt_prio, int nice);
 *       change policy, rt_prio and nice (sched_setscheduler)
 *   bool skiplist_sched_can_preempt(const struct skiplist_sched *rq,
 *                                   const struct skiplist_sched_task *p,
 *                                   const struct skiplist_sched_task *curr);
 *       p, just queued, preempts curr (can_preempt)
 *   int skiplist_sched_preempt_cpu(const struct skiplist_sched *rq,
 *           const struct skiplist_sched_task *p,
 *           const struct skiplist_sched_task *const *curr);
 *       the CPU to reschedule for p (try_preempt)
 *   int skiplist_sched_yield(struct skiplist_sched *rq, unsigned cpu,
 *                            struct skiplist_sched_task *t, uint64_t ran_ns,
 *                            struct skiplist_sched_task **next);
 *       t yields cpu; *next is its pick (sched_yield)
 *   int skiplist_sched_fork(struct skiplist_sched *rq,
 *           struct skiplist_sched_task *parent, uint64_t ran_ns,
 *           struct skiplist_sched_task *child);
 *       parent forks child (sched_fork)
 *   int skiplist_sched_check(const struct skiplist_sched *rq, char *why,
 *                            size_t len);
 *       every invariant
 */
// clang-format on

/* --- queries ------------------------------------------------------- */

static inline uint64_t skiplist_sched_deadline_diff(int nice)
{
    /* BFS's table: 128, then each entry the one before * 11 / 10,
     * truncated at every step (so nice 19 is 5089, not 128 * 1.1^39). */
    static const uint16_t prio_ratios[40] = {
        128,  140,  154,  169,  185,  203,  223,  245,  269,  295,
        324,  356,  391,  430,  473,  520,  572,  629,  691,  760,
        836,  919,  1010, 1111, 1222, 1344, 1478, 1625, 1787, 1965,
        2161, 2377, 2614, 2875, 3162, 3478, 3825, 4207, 4627, 5089};
    int i = nice < -20 ? 0 : nice > 19 ? 39 : nice + 20;
    return (uint64_t)prio_ratios[i] * SKIPLIST_SCHED_RR_INTERVAL_MS *
           ((UINT64_C(1) << 20) / 128u);
}

static inline uint64_t skiplist_sched_longest_deadline_diff(void)
{
    return skiplist_sched_deadline_diff(19);
}

static inline bool skiplist_sched_queued(const struct skiplist_sched_task *t)
{
    return sls_q_queued(t);
}

static inline size_t skiplist_sched_nr_queued(const struct skiplist_sched *rq)
{
    return sls_q_count(&rq->q);
}

static inline unsigned
skiplist_sched_class_of(const struct skiplist_sched *rq,
                        const struct skiplist_sched_task *t)
{
    if (sls_is_rt(t->policy))
        return SKIPLIST_SCHED_CLASS_RT;
    if (t->policy == SKIPLIST_SCHED_ISO && !rq->iso_refractory)
        return SKIPLIST_SCHED_CLASS_ISO;
    if (t->policy == SKIPLIST_SCHED_IDLEPRIO)
        return SKIPLIST_SCHED_CLASS_IDLE;
    return SKIPLIST_SCHED_CLASS_DEADLINE;
}

/* Key of t as class cls, with the sticky offset when sticky. */
static inline uint64_t sls_key_as(const struct skiplist_sched_task *t,
                                  unsigned cls, bool sticky)
{
    switch (cls) {
    case SKIPLIST_SCHED_CLASS_RT:
        return sls_key(cls, 1u + (99u - t->rt_prio));
    case SKIPLIST_SCHED_CLASS_ISO:
        return sls_key(cls, 1u);
    default:
        return sls_key(
            cls, sticky ? sls_sat_add(t->deadline,
                                      skiplist_sched_longest_deadline_diff())
                        : t->deadline);
    }
}

static inline uint64_t
skiplist_sched_key_of(const struct skiplist_sched *rq,
                      const struct skiplist_sched_task *t)
{
    return sls_key_as(t, skiplist_sched_class_of(rq, t), false);
}

static inline struct skiplist_sched_task *
skiplist_sched_sticky(const struct skiplist_sched *rq, unsigned cpu)
{
    return cpu < rq->nr_cpus ? rq->sticky[cpu] : NULL;
}

/* --- tasks --------------------------------------------------------- */

static inline int skiplist_sched_task_init(struct skiplist_sched_task *t,
                                           int policy, int rt_prio, int nice)
{
    if (!t || !sls_valid(policy, rt_prio, nice))
        return -EINVAL;
    memset(t, 0, sizeof(*t));
    skiplist_hook_init(&t->hook);
    t->time_slice = (int64_t)SKIPLIST_SCHED_RR_INTERVAL_NS;
    t->sticky_cpu = -1;
    t->cpu = -1;
    t->policy = (uint8_t)policy;
    t->rt_prio = (uint8_t)rt_prio;
    t->nice = (int8_t)nice;
    t->fresh = 1;
    memset(t->cpus_allowed, 0xff, sizeof(t->cpus_allowed));
    return 0;
}

static inline int skiplist_sched_cpu_allow(struct skiplist_sched_task *t,
                                           unsigned cpu, bool allow)
{
    if (cpu >= SKIPLIST_SCHED_NR_CPUS)
        return -EINVAL;
    uint64_t bit = UINT64_C(1) << (cpu % 64);
    if (allow)
        t->cpus_allowed[cpu / 64] |= bit;
    else
        t->cpus_allowed[cpu / 64] &= ~bit;
    return 0;
}

static inline void skiplist_sched_cpu_none(struct skiplist_sched_task *t)
{
    memset(t->cpus_allowed, 0, sizeof(t->cpus_allowed));
}

static inline bool
skiplist_sched_cpu_allowed(const struct skiplist_sched_task *t, unsigned cpu)
{
    return cpu < SKIPLIST_SCHED_NR_CPUS &&
           ((t->cpus_allowed[cpu / 64] >> (cpu % 64)) & 1u);
}

/* --- runqueue ------------------------------------------------------ */

static inline int skiplist_sched_init(struct skiplist_sched *rq,
                                      unsigned nr_cpus,
                                      const struct skiplist_allocator *a,
                                      uint64_t seed)
{
    if (!rq || nr_cpus < 1 || nr_cpus > SKIPLIST_SCHED_NR_CPUS)
        return -EINVAL;
    memset(rq, 0, sizeof(*rq));
    int rc = sls_q_init(&rq->q, a, sls_seed(rq, seed));
    if (rc)
        return rc;
    rq->nr_cpus = nr_cpus;
    rq->iso_cpu = SKIPLIST_SCHED_ISO_CPU;
    rq->iso_period =
        (uint64_t)SKIPLIST_SCHED_ISO_PERIOD_S * SKIPLIST_SCHED_HZ * nr_cpus +
        1u;
    rq->sticky_rule = SKIPLIST_SCHED_STICKY_REAL;
    return 0;
}

static inline void sls_release(struct skiplist_sched_task *t, void *arg)
{
    (void)arg;
    skiplist_hook_init(&t->hook);
    t->sticky_cpu = -1;
}

static inline void skiplist_sched_destroy(struct skiplist_sched *rq)
{
    sls_q_destroy(&rq->q, sls_release, NULL);
    memset(rq->sticky, 0, sizeof(rq->sticky));
}

static inline void skiplist_sched_advance(struct skiplist_sched *rq,
                                          uint64_t ns)
{
    rq->niffies += ns;
}

static inline int skiplist_sched_set_scaling(struct skiplist_sched *rq,
                                             unsigned cpu, bool scaling)
{
    if (cpu >= rq->nr_cpus)
        return -EINVAL;
    uint64_t bit = UINT64_C(1) << (cpu % 64);
    if (scaling)
        rq->scaling[cpu / 64] |= bit;
    else
        rq->scaling[cpu / 64] &= ~bit;
    return 0;
}

static inline int skiplist_sched_set_iso(struct skiplist_sched *rq,
                                         unsigned percent,
                                         uint64_t period_ticks)
{
    if (percent > 100 || period_ticks == 1)
        return -EINVAL;
    rq->iso_cpu = percent;
    rq->iso_period = period_ticks ? period_ticks
                                  : (uint64_t)SKIPLIST_SCHED_ISO_PERIOD_S *
                                            SKIPLIST_SCHED_HZ * rq->nr_cpus +
                                        1u;
    return 0;
}

static inline int skiplist_sched_set_sticky_rule(struct skiplist_sched *rq,
                                                 int rule)
{
    if (rule != SKIPLIST_SCHED_STICKY_REAL &&
        rule != SKIPLIST_SCHED_STICKY_PATCH)
        return -EINVAL;
    rq->sticky_rule = (uint8_t)rule;
    return 0;
}

static inline int skiplist_sched_enqueue(struct skiplist_sched *rq,
                                         struct skiplist_sched_task *t)
{
    if (!t)
        return -EINVAL;
    if (sls_q_queued(t))
        return -EEXIST;
    uint64_t dl = t->fresh ? rq->niffies + skiplist_sched_deadline_diff(t->nice)
                           : t->deadline;
    const uint64_t old_dl = t->deadline, old_key = t->key;
    unsigned cls = skiplist_sched_class_of(rq, t);
    t->deadline = dl;
    t->key = sls_key_as(t, cls, false);
    int rc = sls_q_push(&rq->q, t);
    if (rc) {
        t->deadline = old_dl;
        t->key = old_key;
        return rc;
    }
    t->cls = (uint8_t)cls;
    t->fresh = 0;
    t->seq = ++rq->seq;
    return 0;
}

/* Off the queue and off its CPU's sticky slot; allocates nothing. 0, or
 * -ENOENT when t is not queued in rq (in none, or in another runqueue):
 * then nothing changes. */
static inline int sls_take(struct skiplist_sched *rq,
                           struct skiplist_sched_task *t)
{
    int rc = sls_q_remove(&rq->q, t);
    if (rc)
        return rc;
    if (t->sticky_cpu >= 0) {
        rq->sticky[t->sticky_cpu] = NULL;
        t->sticky_cpu = -1;
    }
    return 0;
}

/* Stops s being its CPU's sticky task. A deadline-class key loses the
 * offset and s goes behind its new equals; an ISO key carries none, so s
 * keeps its place (BFS's unstick_task() only clears the flag). 0, or
 * -ENOMEM with nothing changed. */
static inline int sls_unstick(struct skiplist_sched *rq,
                              struct skiplist_sched_task *s)
{
    const uint64_t stuck_key = s->key;
    s->key = sls_key_as(s, s->cls, false);
    if (s->key != stuck_key) {
        int rc = sls_q_requeue(&rq->q, s);
        if (rc) {
            s->key = stuck_key;
            return rc;
        }
        s->seq = ++rq->seq;
    }
    rq->sticky[s->sticky_cpu] = NULL;
    s->sticky_cpu = -1;
    return 0;
}

static inline int skiplist_sched_dequeue(struct skiplist_sched *rq,
                                         struct skiplist_sched_task *t)
{
    if (!t)
        return -EINVAL;
    return sls_take(rq, t);
}

static inline struct skiplist_sched_task *
skiplist_sched_pick(struct skiplist_sched *rq, unsigned cpu)
{
    if (cpu >= rq->nr_cpus)
        return NULL;
    const bool scaling = (rq->scaling[cpu / 64] >> (cpu % 64)) & 1u;
    const uint64_t word = cpu / 64, bit = UINT64_C(1) << (cpu % 64);
    struct sls_q_iter it;
    struct skiplist_sched_task *t;
    for (t = sls_q_iter_first(&it, &rq->q); t; t = sls_q_iter_next(&it)) {
        if (!(t->cpus_allowed[word] & bit))
            continue;
        if (scaling && t->sticky_cpu >= 0 && (unsigned)t->sticky_cpu != cpu)
            continue;
        break;
    }
    struct skiplist_sched_task *own = rq->sticky[cpu];
    if (own && own != t && (own->cpus_allowed[word] & bit)) {
        if (rq->sticky_rule == SKIPLIST_SCHED_STICKY_PATCH) {
            /* rqs->deadline - longest_deadline_diff() < edt->deadline,
             * unless edt is realtime; without the unsigned wrap. */
            if (t && t->cls != SKIPLIST_SCHED_CLASS_RT &&
                own->deadline <
                    t->deadline + skiplist_sched_longest_deadline_diff())
                t = own;
        } else {
            uint64_t k = sls_key_as(own, own->cls, false);
            if (!t || k < t->key || (k == t->key && own->seq < t->seq))
                t = own;
        }
    }
    if (t) {
        (void)sls_take(rq, t); /* t was found in rq: cannot fail */
        t->cpu = (int16_t)cpu;
        /* Realtime next: the CPU keeps no sticky task (on -ENOMEM it
         * does; pick cannot fail). */
        if (t->cls == SKIPLIST_SCHED_CLASS_RT && rq->sticky[cpu])
            (void)sls_unstick(rq, rq->sticky[cpu]);
    }
    return t;
}

static inline int skiplist_sched_deschedule(struct skiplist_sched *rq,
                                            unsigned cpu,
                                            struct skiplist_sched_task *t,
                                            uint64_t ran_ns, bool runnable)
{
    if (!t || cpu >= rq->nr_cpus)
        return -EINVAL;
    if (sls_q_queued(t))
        return -EEXIST;
    int64_t slice = t->time_slice;
    uint64_t dl = t->deadline;
    if (t->policy != SKIPLIST_SCHED_FIFO)
        slice = slice <= 0 || ran_ns >= (uint64_t)slice
                    ? 0
                    : slice - (int64_t)ran_ns;
    if (slice < SKIPLIST_SCHED_RESCHED_NS ||
        t->policy == SKIPLIST_SCHED_BATCH) {
        slice = (int64_t)SKIPLIST_SCHED_RR_INTERVAL_NS;
        dl = rq->niffies + skiplist_sched_deadline_diff(t->nice);
    }
    if (!runnable) {
        t->time_slice = slice;
        t->deadline = dl;
        t->fresh = 0;
        t->cpu = (int16_t)cpu;
        return 0;
    }
    const uint64_t old_dl = t->deadline, old_key = t->key;
    const unsigned cls = skiplist_sched_class_of(rq, t);
    const bool swap = (t->cpus_allowed[cpu / 64] >> (cpu % 64)) & 1u;
    const bool stick = swap && sls_can_stick(cls);
    struct skiplist_sched_task *old = swap ? rq->sticky[cpu] : NULL;
    t->deadline = dl;
    t->key = sls_key_as(t, cls, stick);
    int rc = sls_q_push(&rq->q, t);
    if (rc) {
        t->deadline = old_dl;
        t->key = old_key;
        return rc;
    }
    /* t's seq first: it went in before old is moved behind equals. */
    const uint64_t old_seq = t->seq;
    t->seq = ++rq->seq;
    if (old && (rc = sls_unstick(rq, old)) != 0) {
        sls_q_remove(&rq->q, t);
        t->deadline = old_dl;
        t->key = old_key;
        t->seq = old_seq;
        return rc;
    }
    t->time_slice = slice;
    t->fresh = 0;
    t->cpu = (int16_t)cpu;
    t->cls = (uint8_t)cls;
    if (stick) {
        t->sticky_cpu = (int16_t)cpu;
        rq->sticky[cpu] = t;
    }
    return 0;
}

static inline int skiplist_sched_tick(struct skiplist_sched *rq, unsigned cpu,
                                      struct skiplist_sched_task *curr)
{
    if (cpu >= rq->nr_cpus)
        return -EINVAL;
    const uint64_t period = rq->iso_period;
    const uint64_t clear = period * (rq->iso_cpu * 115u / 128u);
    if (curr && (curr->cls == SKIPLIST_SCHED_CLASS_RT ||
                 (curr->policy == SKIPLIST_SCHED_ISO && !rq->iso_refractory))) {
        if (rq->iso_ticks + 100u <= period * 100u)
            rq->iso_ticks += 100u;
    } else if (rq->iso_ticks) {
        rq->iso_ticks -= rq->iso_ticks / period + 1u;
        if (rq->iso_refractory && rq->iso_ticks < clear)
            rq->iso_refractory = false;
    }
    if (!curr || curr->policy != SKIPLIST_SCHED_ISO)
        return 0;
    if (!rq->iso_refractory) {
        if (rq->iso_ticks > period * rq->iso_cpu)
            rq->iso_refractory = true;
    } else if (rq->iso_ticks < clear) {
        rq->iso_refractory = false;
    }
    if (rq->iso_refractory && curr->cls == SKIPLIST_SCHED_CLASS_ISO) {
        curr->time_slice = 0;
        return 1;
    }
    return 0;
}

/* BFS's adjust_deadline(): the deadline moves by the difference between the
 * two nice levels' deadline offsets (saturating at 0 and at the key's
 * maximum). */
static inline uint64_t sls_adjust_deadline(uint64_t dl, int old_nice,
                                           int new_nice)
{
    const uint64_t a = skiplist_sched_deadline_diff(old_nice),
                   b = skiplist_sched_deadline_diff(new_nice);
    if (b >= a)
        return sls_sat_add(dl, b - a);
    return dl > a - b ? dl - (a - b) : 0;
}

/* The common body of set_nice and set_policy: t takes policy, rt_prio and
 * nice; deadline dl; when queued, its new key and whether it stays sticky.
 * Rolls back on -ENOMEM. */
static inline int sls_change(struct skiplist_sched *rq,
                             struct skiplist_sched_task *t, int policy,
                             int rt_prio, int nice, uint64_t dl, bool unstick)
{
    struct skiplist_sched_task save = *t;
    t->policy = (uint8_t)policy;
    t->rt_prio = (uint8_t)rt_prio;
    t->nice = (int8_t)nice;
    t->deadline = dl;
    if (!sls_q_queued(t)) {
        /* Running (or asleep): runs as its policy's class from now on, as
         * BFS's reset_rq_task() makes it. */
        t->cls = (uint8_t)sls_policy_cls(t->policy);
        return 0;
    }
    const unsigned cls = skiplist_sched_class_of(rq, t);
    const bool stick = t->sticky_cpu >= 0 && !unstick && sls_can_stick(cls);
    t->key = sls_key_as(t, cls, stick);
    int rc = sls_q_requeue(&rq->q, t);
    if (rc) {
        t->policy = save.policy;
        t->rt_prio = save.rt_prio;
        t->nice = save.nice;
        t->deadline = save.deadline;
        t->key = save.key;
        return rc;
    }
    t->cls = (uint8_t)cls;
    t->seq = ++rq->seq;
    if (t->sticky_cpu >= 0 && !stick) {
        rq->sticky[t->sticky_cpu] = NULL;
        t->sticky_cpu = -1;
    }
    return 0;
}

static inline int skiplist_sched_set_nice(struct skiplist_sched *rq,
                                          struct skiplist_sched_task *t,
                                          int nice)
{
    if (!t || nice < -20 || nice > 19)
        return -EINVAL;
    if (nice == t->nice)
        return 0;
    if (sls_is_rt(t->policy)) {
        t->nice = (int8_t)nice;
        return 0;
    }
    uint64_t dl = t->fresh ? t->deadline
                           : sls_adjust_deadline(t->deadline, t->nice, nice);
    return sls_change(rq, t, t->policy, t->rt_prio, nice, dl, nice < t->nice);
}

static inline int skiplist_sched_set_policy(struct skiplist_sched *rq,
                                            struct skiplist_sched_task *t,
                                            int policy, int rt_prio, int nice)
{
    if (!t || !sls_valid(policy, rt_prio, nice))
        return -EINVAL;
    const bool moved = policy != t->policy || rt_prio != t->rt_prio;
    if (!moved)
        return skiplist_sched_set_nice(rq, t, nice);
    uint64_t dl = t->deadline;
    if (nice != t->nice && !sls_is_rt((unsigned)policy) && !t->fresh)
        dl = sls_adjust_deadline(dl, t->nice, nice);
    return sls_change(rq, t, policy, rt_prio, nice, dl, true);
}

/* BFS's prio number for the class t is queued or running as: realtime
 * 99 - rt_prio (0..98), ISO 100, NORMAL and BATCH 101, IDLEPRIO 102. */
static inline unsigned sls_prio(const struct skiplist_sched_task *t)
{
    switch (t->cls) {
    case SKIPLIST_SCHED_CLASS_RT:
        return 99u - t->rt_prio;
    case SKIPLIST_SCHED_CLASS_ISO:
        return 100u;
    case SKIPLIST_SCHED_CLASS_DEADLINE:
        return 101u;
    default:
        return 102u;
    }
}

static inline bool
skiplist_sched_can_preempt(const struct skiplist_sched *rq,
                           const struct skiplist_sched_task *p,
                           const struct skiplist_sched_task *curr)
{
    (void)rq;
    if (!curr)
        return true;
    if (p->policy == SKIPLIST_SCHED_IDLEPRIO)
        return false;
    const unsigned a = sls_prio(p), b = sls_prio(curr);
    if (a != b)
        return a < b;
    return p->deadline < curr->deadline;
}

static inline int
skiplist_sched_preempt_cpu(const struct skiplist_sched *rq,
                           const struct skiplist_sched_task *p,
                           const struct skiplist_sched_task *const *curr)
{
    const unsigned n = rq->nr_cpus;
    if (p->cpu >= 0 && (unsigned)p->cpu < n && !curr[p->cpu] &&
        skiplist_sched_cpu_allowed(p, (unsigned)p->cpu))
        return p->cpu;
    for (unsigned c = 0; c < n; c++)
        if (!curr[c] && skiplist_sched_cpu_allowed(p, c))
            return (int)c;
    if (p->policy == SKIPLIST_SCHED_IDLEPRIO)
        return -1;
    int best = -1;
    unsigned worst = 0;
    uint64_t latest = 0;
    for (unsigned c = 0; c < n; c++) {
        if (!skiplist_sched_cpu_allowed(p, c))
            continue;
        const unsigned prio = sls_prio(curr[c]);
        if (best < 0 || prio > worst ||
            (prio == worst && curr[c]->deadline > latest)) {
            best = (int)c;
            worst = prio;
            latest = curr[c]->deadline;
        }
    }
    return best >= 0 && skiplist_sched_can_preempt(rq, p, curr[best]) ? best
                                                                      : -1;
}

static inline int skiplist_sched_yield(struct skiplist_sched *rq, unsigned cpu,
                                       struct skiplist_sched_task *t,
                                       uint64_t ran_ns,
                                       struct skiplist_sched_task **next)
{
    if (!next)
        return -EINVAL;
    int rc = skiplist_sched_deschedule(rq, cpu, t, ran_ns, true);
    if (rc)
        return rc;
    *next = skiplist_sched_pick(rq, cpu);
    return 0;
}

static inline int skiplist_sched_fork(struct skiplist_sched *rq,
                                      struct skiplist_sched_task *parent,
                                      uint64_t ran_ns,
                                      struct skiplist_sched_task *child)
{
    if (!rq || !parent || !child || parent == child)
        return -EINVAL;
    if (sls_q_queued(child))
        return -EEXIST;
    memset(child, 0, sizeof(*child));
    skiplist_hook_init(&child->hook);
    child->sticky_cpu = -1;
    child->cpu = parent->cpu;
    child->policy = parent->policy;
    child->rt_prio = parent->rt_prio;
    child->nice = parent->nice;
    child->cls = (uint8_t)sls_policy_cls(parent->policy);
    child->deadline = parent->deadline;
    child->fresh = parent->fresh;
    memcpy(child->cpus_allowed, parent->cpus_allowed,
           sizeof(child->cpus_allowed));
    if (parent->policy == SKIPLIST_SCHED_FIFO) {
        child->time_slice = parent->time_slice;
        return 0;
    }
    const int64_t ran =
        ran_ns > (uint64_t)INT64_MAX / 2 ? INT64_MAX / 2 : (int64_t)ran_ns;
    const int64_t left = parent->time_slice - ran;
    if (left >= 2 * SKIPLIST_SCHED_RESCHED_NS) {
        parent->time_slice = left / 2 + ran;
        child->time_slice = left / 2;
        return 0;
    }
    parent->time_slice = ran;
    child->time_slice = (int64_t)SKIPLIST_SCHED_RR_INTERVAL_NS;
    child->deadline = rq->niffies + skiplist_sched_deadline_diff(child->nice);
    child->fresh = 0;
    return 1;
}

/* check()'s message, written only where the caller gave room for it. */
static inline SLX_PRINTF(3, 4) void sls_why(char *why, size_t len,
                                            const char *fmt, ...)
{
    if (!why || !len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
}

static inline int skiplist_sched_check(const struct skiplist_sched *rq,
                                       char *why, size_t len)
{
    int rc = sls_q_check(&rq->q, why, len);
    if (rc)
        return rc;
    struct sls_q_iter it;
    const struct skiplist_sched_task *t, *prev = NULL;
    size_t n = 0;
    for (t = sls_q_iter_first(&it, &rq->q); t; t = sls_q_iter_next(&it), n++) {
        bool stick = t->sticky_cpu >= 0;
        if (t->key != sls_key_as(t, t->cls, stick)) {
            sls_why(why, len, "task %zu: key %#llx, expected %#llx", n,
                    (unsigned long long)t->key,
                    (unsigned long long)sls_key_as(t, t->cls, stick));
            return -EINVAL;
        }
        if (t->key == 0 || t->key == UINT64_MAX) {
            sls_why(why, len, "task %zu: key is a sentinel value", n);
            return -EINVAL;
        }
        if (stick &&
            (!sls_can_stick(t->cls) || (unsigned)t->sticky_cpu >= rq->nr_cpus ||
             rq->sticky[t->sticky_cpu] != t)) {
            sls_why(why, len, "task %zu: sticky on cpu %d, not its slot", n,
                    t->sticky_cpu);
            return -EINVAL;
        }
        if (prev && prev->key == t->key && prev->seq >= t->seq) {
            sls_why(why, len, "task %zu: equal keys out of FIFO order", n);
            return -EINVAL;
        }
        prev = t;
    }
    for (unsigned c = 0; c < rq->nr_cpus; c++) {
        const struct skiplist_sched_task *s = rq->sticky[c];
        if (s && (!sls_q_queued_in(&rq->q, s) || s->sticky_cpu != (int)c)) {
            sls_why(why, len, "cpu %u: sticky task not queued or not ours", c);
            return -EINVAL;
        }
    }
    return 0;
}

#ifdef __cplusplus
}
#endif
#endif /* SKIPLIST_SCHED_H */
