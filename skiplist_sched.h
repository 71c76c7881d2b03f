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
 * rr_interval / 128 (ratios from 128, +10% per nice level, rr_interval
 * 6 ms: nice -20 6 ms, nice 0 40.6 ms, nice 19 248.4 ms). Values saturate at
 * 2^61 - 1 (73 years of niffies) instead of spilling into the class bits, so
 * every key lies in [1, 2^63 - 1]: no key equals 0 or UINT64_MAX, the
 * values a queue could reserve as sentinels (the patch's header key was
 * 0xFFFFFFFFFFFFFFFF and its idle offset was OR-ed into a raw deadline).
 *
 * Sticky tasks (soft affinity): a task that leaves a CPU still runnable and
 * runs by deadline becomes that CPU's sticky task. It is queued with its
 * deadline plus the longest deadline difference (nice 19's), the view every
 * other CPU has of it; its own CPU compares its real deadline against the
 * first task the walk finds. A CPU whose frequency is scaling down skips
 * other CPUs' sticky tasks outright. When a task stops being sticky while
 * queued, it is re-keyed without the offset (the patch left it stale).
 *
 * Levels: the engine draws node levels from a per-list generator that
 * advances on every insert, so a burst of inserts at one clock value still
 * gets independent levels (the patch seeded each insert with niffies alone).
 * skiplist_sched_init() seeds that generator from a mix of the wall clock,
 * the process CPU clock, the caller's seed, the runqueue's address and a
 * process-wide counter of runqueues (see sksched_seed()). Levels only affect
 * speed: every answer of this header is determined by keys and FIFO order.
 *
 * Concurrency: none inside; BFS holds one lock (grq.lock) around all of
 * this, and so must the caller.
 */
#ifndef SKIPLIST_SCHED_H
#define SKIPLIST_SCHED_H

#include "skiplist.h"

#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/** CPUs an affinity mask can name (a multiple of 64). */
#ifndef SKIPLIST_SCHED_NR_CPUS
#define SKIPLIST_SCHED_NR_CPUS 1024
#endif
/** Keys per node, max level, level shift of the queue. */
#ifndef SKIPLIST_SCHED_CONFIG
#define SKIPLIST_SCHED_CONFIG SKIPLIST_PQ_DEFAULTS
#endif

/** Scheduler ticks per second (ISO accounting). */
#define SKIPLIST_SCHED_HZ 1000
/** Round-robin interval: a full time slice, and the unit of deadlines. */
#define SKIPLIST_SCHED_RR_INTERVAL_NS UINT64_C(6000000)
/** A slice with less than this left is spent (BFS's RESCHED_US). */
#define SKIPLIST_SCHED_RESCHED_NS INT64_C(100000)
/** Default share of all CPUs that ISO tasks may take, percent. */
#define SKIPLIST_SCHED_ISO_CPU 70
/** Default ISO accounting window in seconds. */
#define SKIPLIST_SCHED_ISO_PERIOD_S 5

#define SKIPLIST_SCHED_CLASS_SHIFT 61
#define SKIPLIST_SCHED_VALUE_MAX \
    ((UINT64_C(1) << SKIPLIST_SCHED_CLASS_SHIFT) - 1)

#if SKIPLIST_SCHED_NR_CPUS % 64 != 0 || SKIPLIST_SCHED_NR_CPUS < 64 || \
    SKIPLIST_SCHED_NR_CPUS > 32768
#error "SKIPLIST_SCHED_NR_CPUS must be a multiple of 64 in 64..32768"
#endif

enum skiplist_sched_policy {
    SKIPLIST_SCHED_FIFO,    /* realtime, runs until it yields */
    SKIPLIST_SCHED_RR,      /* realtime, round robin by rr_interval */
    SKIPLIST_SCHED_ISO,     /* unprivileged soft realtime, CPU-share limit */
    SKIPLIST_SCHED_NORMAL,  /* virtual deadline by nice */
    SKIPLIST_SCHED_BATCH,   /* keyed as NORMAL */
    SKIPLIST_SCHED_IDLEPRIO /* after every other class, by deadline */
};

/** Queue classes, in the order the key's top bits give them. */
enum skiplist_sched_class {
    SKIPLIST_SCHED_CLASS_RT,
    SKIPLIST_SCHED_CLASS_ISO,
    SKIPLIST_SCHED_CLASS_DEADLINE,
    SKIPLIST_SCHED_CLASS_IDLE
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

#define SKSCHED_KEY(t) ((t)->key)
SKIPLIST_PQ_DEFINE(sksched_q, struct skiplist_sched_task, uint64_t, SKSCHED_KEY,
                   SKIPLIST_CMP_NUM, hook, SKIPLIST_SCHED_CONFIG)

/** The runqueue (about 9 KiB with 1024 CPUs). */
struct skiplist_sched {
    struct sksched_q q;
    uint64_t niffies;    /* monotonic ns, advanced by the caller */
    uint64_t seq;        /* last seq handed out */
    uint64_t iso_ticks;  /* decaying ISO usage, 100 per ISO tick */
    uint64_t iso_period; /* ticks in the ISO window */
    unsigned iso_cpu;    /* percent of all CPUs */
    bool iso_refractory; /* ISO tasks run as NORMAL until usage drops */
    unsigned nr_cpus;
    struct skiplist_sched_task *sticky[SKIPLIST_SCHED_NR_CPUS];
    uint64_t scaling[SKIPLIST_SCHED_NR_CPUS / 64];
};

/* ------------------------------------------------------------ helpers */

/* splitmix64's finaliser: spreads every input bit over the output. */
static inline uint64_t sksched_mix(uint64_t x)
{
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

/* Process-wide count of runqueues seeded: two runqueues made in the same
 * clock tick still differ. Unlocked: a lost increment only costs entropy. */
static inline uint64_t sksched_counter(void)
{
    static uint64_t n;
    return ++n;
}

/* The engine seed: clock (wall and CPU time; only C89 clocks so the header
 * stays C99/C++ clean), the caller's seed, the runqueue's address and the
 * counter, each mixed before they are combined so none can cancel another. */
static inline uint64_t sksched_seed(const void *rq, uint64_t seed)
{
    uint64_t c = sksched_counter();
    return sksched_mix(seed + UINT64_C(0x9e3779b97f4a7c15)) ^
           sksched_mix((uint64_t)time(NULL) ^ ((uint64_t)clock() << 32)) ^
           sksched_mix((uint64_t)(uintptr_t)rq + c) ^ sksched_mix(c << 1);
}

static inline uint64_t sksched_key(unsigned cls, uint64_t value)
{
    if (value > SKIPLIST_SCHED_VALUE_MAX)
        value = SKIPLIST_SCHED_VALUE_MAX;
    return ((uint64_t)cls << SKIPLIST_SCHED_CLASS_SHIFT) | value;
}

static inline uint64_t sksched_sat_add(uint64_t a, uint64_t b)
{
    return a > SKIPLIST_SCHED_VALUE_MAX - b ? SKIPLIST_SCHED_VALUE_MAX : a + b;
}

static inline bool sksched_is_rt(unsigned policy)
{
    return policy == SKIPLIST_SCHED_FIFO || policy == SKIPLIST_SCHED_RR;
}

static inline bool sksched_valid(int policy, int rt_prio, int nice)
{
    if (policy < SKIPLIST_SCHED_FIFO || policy > SKIPLIST_SCHED_IDLEPRIO ||
        nice < -20 || nice > 19)
        return false;
    return sksched_is_rt((unsigned)policy) ? rt_prio >= 1 && rt_prio <= 99
                                           : rt_prio == 0;
}

/* Classes whose order is a deadline; only these tasks become sticky (a
 * realtime or ISO key has no deadline to offset). */
static inline bool sksched_by_deadline(unsigned cls)
{
    return cls >= SKIPLIST_SCHED_CLASS_DEADLINE;
}

/* ------------------------------------------------------------ queries */

/** Virtual deadline difference of a nice level, in ns: prio_ratios[nice +
 *  20] * rr_interval / 128. Nice is clamped to -20..19. O(1). */
static inline uint64_t skiplist_sched_deadline_diff(int nice)
{
    /* 128 * 1.1^i rounded to nearest at each step. */
    static const uint16_t prio_ratios[40] = {
        128,  141,  155,  171,  188,  207,  228,  251,  276,  304,
        334,  367,  404,  444,  488,  537,  591,  650,  715,  787,
        866,  953,  1048, 1153, 1268, 1395, 1535, 1689, 1858, 2044,
        2248, 2473, 2720, 2992, 3291, 3620, 3982, 4380, 4818, 5300};
    int i = nice < -20 ? 0 : nice > 19 ? 39 : nice + 20;
    return (uint64_t)prio_ratios[i] * SKIPLIST_SCHED_RR_INTERVAL_NS / 128u;
}

/** The offset a sticky task carries on other CPUs: nice 19's difference. */
static inline uint64_t skiplist_sched_longest_deadline_diff(void)
{
    return skiplist_sched_deadline_diff(19);
}

/** Whether t is in the queue (linked). O(1). */
static inline bool skiplist_sched_queued(const struct skiplist_sched_task *t)
{
    return sksched_q_queued(t);
}

/** Tasks queued. O(1). */
static inline size_t skiplist_sched_nr_queued(const struct skiplist_sched *rq)
{
    return sksched_q_count(&rq->q);
}

/** The class t runs as if queued now: realtime by policy, ISO unless ISO is
 *  refractory (then NORMAL), IDLEPRIO, else NORMAL/BATCH. O(1). */
static inline unsigned
skiplist_sched_class_of(const struct skiplist_sched *rq,
                        const struct skiplist_sched_task *t)
{
    if (sksched_is_rt(t->policy))
        return SKIPLIST_SCHED_CLASS_RT;
    if (t->policy == SKIPLIST_SCHED_ISO && !rq->iso_refractory)
        return SKIPLIST_SCHED_CLASS_ISO;
    if (t->policy == SKIPLIST_SCHED_IDLEPRIO)
        return SKIPLIST_SCHED_CLASS_IDLE;
    return SKIPLIST_SCHED_CLASS_DEADLINE;
}

/* Key of t as class cls, with the sticky offset when sticky. */
static inline uint64_t sksched_key_as(const struct skiplist_sched_task *t,
                                      unsigned cls, bool sticky)
{
    switch (cls) {
    case SKIPLIST_SCHED_CLASS_RT:
        return sksched_key(cls, 1u + (99u - t->rt_prio));
    case SKIPLIST_SCHED_CLASS_ISO:
        return sksched_key(cls, 1u);
    default:
        return sksched_key(
            cls, sticky
                     ? sksched_sat_add(t->deadline,
                                       skiplist_sched_longest_deadline_diff())
                     : t->deadline);
    }
}

/** The key t would be queued with now, not sticky: what a caller compares
 *  to decide wake-up preemption (smaller runs first). O(1). */
static inline uint64_t
skiplist_sched_key_of(const struct skiplist_sched *rq,
                      const struct skiplist_sched_task *t)
{
    return sksched_key_as(t, skiplist_sched_class_of(rq, t), false);
}

/** CPU cpu's sticky task, or NULL (also for cpu out of range). O(1). */
static inline struct skiplist_sched_task *
skiplist_sched_sticky(const struct skiplist_sched *rq, unsigned cpu)
{
    return cpu < rq->nr_cpus ? rq->sticky[cpu] : NULL;
}

/* --------------------------------------------------------------- tasks */

/** Sets a task up: policy, rt_prio (1..99 for FIFO/RR, 0 otherwise), nice
 *  (-20..19); a full slice, no deadline yet (given at first enqueue), every
 *  CPU allowed, not sticky. 0, or -EINVAL (t untouched). O(NR_CPUS/64). */
static inline int skiplist_sched_task_init(struct skiplist_sched_task *t,
                                           int policy, int rt_prio, int nice)
{
    if (!t || !sksched_valid(policy, rt_prio, nice))
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

/** Affinity: allow or forbid one CPU, or clear the whole mask. Allowed on a
 *  queued task (it only changes which CPUs may pick it). 0, -EINVAL (cpu >=
 *  SKIPLIST_SCHED_NR_CPUS). O(1). */
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

/** Whether t may run on cpu (false for cpu out of range). O(1). */
static inline bool
skiplist_sched_cpu_allowed(const struct skiplist_sched_task *t, unsigned cpu)
{
    return cpu < SKIPLIST_SCHED_NR_CPUS &&
           ((t->cpus_allowed[cpu / 64] >> (cpu % 64)) & 1u);
}

/* ------------------------------------------------------------ runqueue */

/** Sets up a runqueue for nr_cpus CPUs (1..SKIPLIST_SCHED_NR_CPUS); a NULL
 *  allocator selects the engine's pooled one; seed is mixed with clocks,
 *  the address of rq and a counter (see the top of this file). ISO limit:
 *  70% over 5 s. 0, -EINVAL, -ENOMEM. O(NR_CPUS). */
static inline int skiplist_sched_init(struct skiplist_sched *rq,
                                      unsigned nr_cpus,
                                      const struct skiplist_allocator *a,
                                      uint64_t seed)
{
    if (!rq || nr_cpus < 1 || nr_cpus > SKIPLIST_SCHED_NR_CPUS)
        return -EINVAL;
    memset(rq, 0, sizeof(*rq));
    int rc = sksched_q_init(&rq->q, a, sksched_seed(rq, seed));
    if (rc)
        return rc;
    rq->nr_cpus = nr_cpus;
    rq->iso_cpu = SKIPLIST_SCHED_ISO_CPU;
    rq->iso_period =
        (uint64_t)SKIPLIST_SCHED_ISO_PERIOD_S * SKIPLIST_SCHED_HZ * nr_cpus;
    return 0;
}

static inline void sksched_release(struct skiplist_sched_task *t, void *arg)
{
    (void)arg;
    skiplist_hook_init(&t->hook);
    t->sticky_cpu = -1;
}

/** Frees the queue's memory. Tasks still queued are unlinked (queued()
 *  false, not sticky), never freed: they belong to the caller. O(n). */
static inline void skiplist_sched_destroy(struct skiplist_sched *rq)
{
    sksched_q_destroy(&rq->q, sksched_release, NULL);
    memset(rq->sticky, 0, sizeof(rq->sticky));
}

/** Advances the clock (niffies) by ns. O(1). */
static inline void skiplist_sched_advance(struct skiplist_sched *rq,
                                          uint64_t ns)
{
    rq->niffies += ns;
}

/** Marks cpu as scaling its frequency down (it then never takes another
 *  CPU's sticky task) or not. 0, -EINVAL (cpu out of range). O(1). */
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

/** ISO limit: percent (0..100) of all CPUs over a window of period_ticks
 *  ticks (0: 5 s worth, 5 * HZ * nr_cpus). 0, -EINVAL. O(1). */
static inline int skiplist_sched_set_iso(struct skiplist_sched *rq,
                                         unsigned percent,
                                         uint64_t period_ticks)
{
    if (percent > 100)
        return -EINVAL;
    rq->iso_cpu = percent;
    rq->iso_period = period_ticks ? period_ticks
                                  : (uint64_t)SKIPLIST_SCHED_ISO_PERIOD_S *
                                        SKIPLIST_SCHED_HZ * rq->nr_cpus;
    return 0;
}

/** Wakes t up: queues it with its current deadline (a sleeper keeps the one
 *  it had, as in BFS; a fresh task gets niffies + its nice's difference).
 *  0, -EINVAL (t NULL), -EEXIST (already queued), -ENOMEM (nothing
 *  changed). O(log n). */
static inline int skiplist_sched_enqueue(struct skiplist_sched *rq,
                                         struct skiplist_sched_task *t)
{
    if (!t)
        return -EINVAL;
    if (sksched_q_queued(t))
        return -EEXIST;
    uint64_t dl = t->fresh ? rq->niffies + skiplist_sched_deadline_diff(t->nice)
                           : t->deadline;
    const uint64_t old_dl = t->deadline, old_key = t->key;
    unsigned cls = skiplist_sched_class_of(rq, t);
    t->deadline = dl;
    t->key = sksched_key_as(t, cls, false);
    int rc = sksched_q_push(&rq->q, t);
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
static inline int sksched_take(struct skiplist_sched *rq,
                               struct skiplist_sched_task *t)
{
    int rc = sksched_q_remove(&rq->q, t);
    if (rc)
        return rc;
    if (t->sticky_cpu >= 0) {
        rq->sticky[t->sticky_cpu] = NULL;
        t->sticky_cpu = -1;
    }
    return 0;
}

/** Takes a queued task off the queue (it sleeps or exits); a sticky task
 *  stops being sticky. 0, -EINVAL (NULL), -ENOENT (not queued in rq). O(level +
 *  KPN), no search. */
static inline int skiplist_sched_dequeue(struct skiplist_sched *rq,
                                         struct skiplist_sched_task *t)
{
    if (!t)
        return -EINVAL;
    return sksched_take(rq, t);
}

/** Picks the task cpu runs next and dequeues it: the first task in key
 *  order allowed on cpu, skipping other CPUs' sticky tasks while cpu scales
 *  down; cpu's own sticky task wins instead when its real (un-offset) key is
 *  smaller, or equal and queued earlier. NULL when no queued task may run
 *  on cpu, or cpu >= nr_cpus. The task remembers cpu. O(1) when the first
 *  task is eligible; O(skipped) otherwise. */
static inline struct skiplist_sched_task *
skiplist_sched_pick(struct skiplist_sched *rq, unsigned cpu)
{
    if (cpu >= rq->nr_cpus)
        return NULL;
    const bool scaling = (rq->scaling[cpu / 64] >> (cpu % 64)) & 1u;
    const uint64_t word = cpu / 64, bit = UINT64_C(1) << (cpu % 64);
    struct sksched_q_iter it;
    struct skiplist_sched_task *t;
    for (t = sksched_q_iter_first(&it, &rq->q); t;
         t = sksched_q_iter_next(&it)) {
        if (!(t->cpus_allowed[word] & bit))
            continue;
        if (scaling && t->sticky_cpu >= 0 && (unsigned)t->sticky_cpu != cpu)
            continue;
        break;
    }
    struct skiplist_sched_task *own = rq->sticky[cpu];
    if (own && own != t && (own->cpus_allowed[word] & bit)) {
        uint64_t k = sksched_key_as(own, own->cls, false);
        if (!t || k < t->key || (k == t->key && own->seq < t->seq))
            t = own;
    }
    if (t) {
        (void)sksched_take(rq, t); /* t was found in rq: cannot fail */
        t->cpu = (int16_t)cpu;
    }
    return t;
}

/** The running task t leaves cpu after running ran_ns (the caller advanced
 *  the clock). Its slice is charged unless it is FIFO; a spent slice (less
 *  than 100 us left) is refilled and the deadline renewed to niffies + its
 *  nice's difference. When runnable, t is queued again: by deadline it
 *  becomes cpu's sticky task (queued with the sticky offset); in any case
 *  cpu's previous sticky task is unstuck and re-keyed without the offset.
 *  When not runnable (it sleeps) only the accounting is done.
 *  0; -EINVAL (NULL, cpu out of range); -EEXIST (t is queued); -ENOMEM
 *  (nothing changed, t not queued). O(log n). */
static inline int skiplist_sched_deschedule(struct skiplist_sched *rq,
                                            unsigned cpu,
                                            struct skiplist_sched_task *t,
                                            uint64_t ran_ns, bool runnable)
{
    if (!t || cpu >= rq->nr_cpus)
        return -EINVAL;
    if (sksched_q_queued(t))
        return -EEXIST;
    int64_t slice = t->time_slice;
    uint64_t dl = t->deadline;
    if (t->policy != SKIPLIST_SCHED_FIFO) {
        slice = ran_ns >= (uint64_t)slice ? 0 : slice - (int64_t)ran_ns;
        if (slice < SKIPLIST_SCHED_RESCHED_NS) {
            slice = (int64_t)SKIPLIST_SCHED_RR_INTERVAL_NS;
            dl = rq->niffies + skiplist_sched_deadline_diff(t->nice);
        }
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
    const bool stick = sksched_by_deadline(cls);
    struct skiplist_sched_task *old = rq->sticky[cpu];
    t->deadline = dl;
    t->key = sksched_key_as(t, cls, stick);
    int rc = sksched_q_push(&rq->q, t);
    if (rc) {
        t->deadline = old_dl;
        t->key = old_key;
        return rc;
    }
    if (old) {
        /* Re-key without the offset: left stale, it would keep the task
         * behind later deadlines on every CPU after it stopped being
         * sticky. */
        const uint64_t stuck_key = old->key;
        old->key = sksched_key_as(old, old->cls, false);
        rc = sksched_q_requeue(&rq->q, old);
        if (rc) {
            old->key = stuck_key;
            sksched_q_remove(&rq->q, t);
            t->deadline = old_dl;
            t->key = old_key;
            return rc;
        }
        old->sticky_cpu = -1;
        rq->sticky[cpu] = NULL;
    }
    t->time_slice = slice;
    t->fresh = 0;
    t->cpu = (int16_t)cpu;
    t->cls = (uint8_t)cls;
    t->seq = ++rq->seq;
    if (old)
        old->seq = ++rq->seq;
    if (stick) {
        t->sticky_cpu = (int16_t)cpu;
        rq->sticky[cpu] = t;
    }
    return 0;
}

/** One scheduler tick on cpu, with curr running there (NULL when idle):
 *  ISO usage decays by 1/period and grows by 100 when curr runs as ISO;
 *  above iso_cpu% of the window ISO turns refractory (ISO tasks queue as
 *  NORMAL) until usage falls below 115/128 of the limit. Returns 1 when
 *  curr runs as ISO while ISO is refractory (the caller should deschedule
 *  it), 0 otherwise, -EINVAL for cpu out of range. O(1). */
static inline int skiplist_sched_tick(struct skiplist_sched *rq, unsigned cpu,
                                      const struct skiplist_sched_task *curr)
{
    if (cpu >= rq->nr_cpus)
        return -EINVAL;
    const bool iso = curr && curr->cls == SKIPLIST_SCHED_CLASS_ISO;
    rq->iso_ticks -= rq->iso_ticks / rq->iso_period;
    if (iso)
        rq->iso_ticks += 100;
    const uint64_t limit = rq->iso_period * rq->iso_cpu;
    if (!rq->iso_refractory && rq->iso_ticks > limit)
        rq->iso_refractory = true;
    else if (rq->iso_refractory && rq->iso_ticks < limit * 115 / 128)
        rq->iso_refractory = false;
    return iso && rq->iso_refractory;
}

/** Changes policy, rt_prio and nice (validated as in task_init). A queued
 *  task is re-keyed for its new class and goes behind its new equals; it
 *  stays sticky only in a deadline class. The deadline is kept. 0, -EINVAL,
 *  -ENOENT (queued in another runqueue), -ENOMEM (nothing changed). O(log
 *  n). */
static inline int skiplist_sched_set_policy(struct skiplist_sched *rq,
                                            struct skiplist_sched_task *t,
                                            int policy, int rt_prio, int nice)
{
    if (!t || !sksched_valid(policy, rt_prio, nice))
        return -EINVAL;
    struct skiplist_sched_task save = *t;
    t->policy = (uint8_t)policy;
    t->rt_prio = (uint8_t)rt_prio;
    t->nice = (int8_t)nice;
    if (!sksched_q_queued(t))
        return 0;
    unsigned cls = skiplist_sched_class_of(rq, t);
    bool stick = t->sticky_cpu >= 0 && sksched_by_deadline(cls);
    t->key = sksched_key_as(t, cls, stick);
    int rc = sksched_q_requeue(&rq->q, t);
    if (rc) {
        t->policy = save.policy;
        t->rt_prio = save.rt_prio;
        t->nice = save.nice;
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

/** Verifies the queue (the engine's check) and this header's invariants:
 *  each queued task's key matches its class, deadline and stickiness; equal
 *  keys in seq order; sticky slots and tasks point at each other and are
 *  queued. 0, or -1 with the first violation in why. O(n + nr_cpus). */
static inline int skiplist_sched_check(const struct skiplist_sched *rq,
                                       char *why, size_t len)
{
    if (sksched_q_check(&rq->q, why, len))
        return -1;
    struct sksched_q_iter it;
    const struct skiplist_sched_task *t, *prev = NULL;
    size_t n = 0;
    for (t = sksched_q_iter_first(&it, &rq->q); t;
         t = sksched_q_iter_next(&it), n++) {
        bool stick = t->sticky_cpu >= 0;
        if (t->key != sksched_key_as(t, t->cls, stick)) {
            snprintf(why, len, "task %zu: key %#llx, expected %#llx", n,
                     (unsigned long long)t->key,
                     (unsigned long long)sksched_key_as(t, t->cls, stick));
            return -1;
        }
        if (t->key == 0 || t->key == UINT64_MAX) {
            snprintf(why, len, "task %zu: key is a sentinel value", n);
            return -1;
        }
        if (stick && (!sksched_by_deadline(t->cls) ||
                      (unsigned)t->sticky_cpu >= rq->nr_cpus ||
                      rq->sticky[t->sticky_cpu] != t)) {
            snprintf(why, len, "task %zu: sticky on cpu %d, not its slot", n,
                     t->sticky_cpu);
            return -1;
        }
        if (prev && prev->key == t->key && prev->seq >= t->seq) {
            snprintf(why, len, "task %zu: equal keys out of FIFO order", n);
            return -1;
        }
        prev = t;
    }
    for (unsigned c = 0; c < rq->nr_cpus; c++) {
        const struct skiplist_sched_task *s = rq->sticky[c];
        if (s && (!sksched_q_queued_in(&rq->q, s) || s->sticky_cpu != (int)c)) {
            snprintf(why, len, "cpu %u: sticky task not queued or not ours", c);
            return -1;
        }
    }
    return 0;
}

#ifdef __cplusplus
}
#endif
#endif /* SKIPLIST_SCHED_H */
