/*
 * bfs_replica.h: the BFS global runqueue as it was before skiplists.
 *
 * Replicates, from the published algorithm of Con Kolivas's BFS (0.3xx-0.40x,
 * "grq"), one runqueue shared by every CPU:
 *   - one FIFO list per priority (100 realtime levels, ISO, NORMAL, IDLE)
 *     plus a bitmap of the non-empty lists with a delimiter bit past the
 *     last one, so the first non-empty list is a find-first-bit;
 *   - insertion at the tail of the task's list, O(1); removal O(1);
 *   - selection (earliest_deadline_task): realtime lists give their first
 *     task allowed on the CPU; the deadline lists are scanned in full, O(n),
 *     for the earliest effective deadline allowed on the CPU, where another
 *     CPU's sticky task counts as its deadline plus the longest deadline
 *     difference, or is skipped outright while this CPU scales its frequency;
 *   - schedule()'s rules for the task leaving a CPU: check_deadline() (a
 *     spent slice, or any SCHED_BATCH slice, is refilled with a new
 *     deadline), swap_sticky() (only while the CPU is in its mask; every
 *     task but a realtime one becomes sticky, ISO included), unstick_task()
 *     when a realtime task is picked; task_running_tick()'s ISO accounting
 *     (realtime and ISO ticks both count; decay only on other ticks; the
 *     running ISO task's slice is zeroed when ISO turns refractory);
 *     set_user_nice() with adjust_deadline() and sched_setscheduler();
 *   - BFS's units: MS_TO_NS(x) = x << 20, prio_ratios truncated at each
 *     step, slices of MS_TO_US(rr_interval) microseconds of 1024 ns.
 *
 * Written independently of skiplist_sched.h, in BFS's own terms (prio
 * numbers, a bitmap, a linear scan), because the tests use it as the oracle
 * that skiplist_sched.h must agree with pick for pick, and the benchmarks use
 * it as the `bfs_list` peer. Where the spec of issue 4 differs from BFS, the
 * replica follows the spec, so oracle and subject answer the same question:
 *   - ISO tasks are taken FIFO like realtime ones (the skiplist patch keys
 *     them by priority; BFS before it scanned the ISO list by deadline);
 *   - unsticking a queued task moves it to the tail of its list: the
 *     skiplist re-keys it without the sticky offset, and FIFO among equal
 *     keys then puts it after its equals (BFS left it in place, which only
 *     differs when two deadlines tie to the nanosecond);
 *   - a task that stops being sticky while the CPU it was stuck to picks
 *     a realtime task is unstuck outright (BFS cleared the CPU's pointer
 *     and left the task's flag set).
 *
 * Two layers: struct bfs_queue / struct bfs_node is the bare list-per-prio +
 * bitmap structure (what the pq benchmark times); struct bfs_rq / struct
 * bfs_task adds affinity, sticky tasks, time slices and ISO accounting.
 */
#ifndef BFS_REPLICA_H
#define BFS_REPLICA_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define BFS_MAX_RT_PRIO 100
#define BFS_ISO_PRIO (BFS_MAX_RT_PRIO)
#define BFS_NORMAL_PRIO (BFS_MAX_RT_PRIO + 1)
#define BFS_IDLE_PRIO (BFS_MAX_RT_PRIO + 2)
#define BFS_PRIO_LIMIT (BFS_MAX_RT_PRIO + 3)
#define BFS_BITMAP_WORDS ((BFS_PRIO_LIMIT + 1 + 63) / 64)
#define BFS_NR_CPUS 1024
#define BFS_HZ 1000
#define BFS_RR_INTERVAL_MS 6
#define BFS_MS_TO_NS(x) ((uint64_t)(x) << 20)
/* timeslice(): MS_TO_US(rr_interval) microseconds of 1024 ns. */
#define BFS_SLICE_NS ((int64_t)BFS_MS_TO_NS(BFS_RR_INTERVAL_MS))
#define BFS_RESCHED_NS \
    (100 * 1024) /* BFS's RESCHED_US: a slice below this is spent */

/* Policies, numbered as BFS numbered them. */
#define BFS_SCHED_NORMAL 0
#define BFS_SCHED_FIFO 1
#define BFS_SCHED_RR 2
#define BFS_SCHED_BATCH 3
#define BFS_SCHED_ISO 4
#define BFS_SCHED_IDLEPRIO 5

/* ------------------------------------------------------- list + bitmap */

struct bfs_link {
    struct bfs_link *next, *prev;
};

struct bfs_node {
    struct bfs_link run_list; /* first: a node pointer is a link pointer */
    uint64_t deadline;
    int prio;
};

struct bfs_queue {
    struct bfs_link queue[BFS_PRIO_LIMIT];
    uint64_t prio_bitmap[BFS_BITMAP_WORDS];
};

static inline void bfs_queue_init(struct bfs_queue *q)
{
    for (int i = 0; i < BFS_PRIO_LIMIT; i++)
        q->queue[i].next = q->queue[i].prev = &q->queue[i];
    memset(q->prio_bitmap, 0, sizeof(q->prio_bitmap));
    /* Delimiter: find-first-bit on an empty queue answers PRIO_LIMIT. */
    q->prio_bitmap[BFS_PRIO_LIMIT / 64] |= UINT64_C(1) << (BFS_PRIO_LIMIT % 64);
}

static inline bool bfs_list_empty(const struct bfs_link *h)
{
    return h->next == h;
}

static inline void bfs_queue_add_tail(struct bfs_queue *q, struct bfs_node *n,
                                      int prio)
{
    struct bfs_link *h = &q->queue[prio];
    n->prio = prio;
    n->run_list.prev = h->prev;
    n->run_list.next = h;
    h->prev->next = &n->run_list;
    h->prev = &n->run_list;
    q->prio_bitmap[(unsigned)prio / 64] |= UINT64_C(1) << ((unsigned)prio % 64);
}

static inline void bfs_queue_del(struct bfs_queue *q, struct bfs_node *n)
{
    n->run_list.prev->next = n->run_list.next;
    n->run_list.next->prev = n->run_list.prev;
    n->run_list.next = n->run_list.prev = NULL;
    if (bfs_list_empty(&q->queue[n->prio]))
        q->prio_bitmap[(unsigned)n->prio / 64] &=
            ~(UINT64_C(1) << ((unsigned)n->prio % 64));
}

/* First set bit at or after idx (the delimiter guarantees one). */
static inline int bfs_find_next_bit(const struct bfs_queue *q, int idx)
{
    unsigned w = (unsigned)idx / 64;
    uint64_t bits = q->prio_bitmap[w] & (~UINT64_C(0) << ((unsigned)idx % 64));
    while (!bits)
        bits = q->prio_bitmap[++w];
    return (int)(w * 64 + (unsigned)__builtin_ctzll(bits));
}

/*
 * The node BFS would run next with no affinity or sticky rules: the first
 * node of the first realtime/ISO list, or the earliest deadline of the first
 * non-empty deadline list (ties: the earlier queued). NULL when empty.
 */
static inline struct bfs_node *bfs_queue_first(const struct bfs_queue *q)
{
    int idx = bfs_find_next_bit(q, 0);
    if (idx >= BFS_PRIO_LIMIT)
        return NULL;
    const struct bfs_link *h = &q->queue[idx];
    struct bfs_node *edt = (struct bfs_node *)(void *)h->next;
    if (idx <= BFS_ISO_PRIO)
        return edt;
    for (const struct bfs_link *l = edt->run_list.next; l != h; l = l->next) {
        const struct bfs_node *p = (const struct bfs_node *)(const void *)l;
        if (p->deadline < edt->deadline)
            edt = (struct bfs_node *)(uintptr_t)p;
    }
    return edt;
}

/* ---------------------------------------------------------- scheduler */

/*
 * prio_ratios[user_prio]: 128 for nice -20, each nice level the one before
 * * 11 / 10, truncated (sched_init): nice 0 gets 41.09 ms, nice 19 250.13.
 */
static inline uint64_t bfs_prio_ratio(int user_prio)
{
    uint64_t r = 128;
    for (int i = 0; i < user_prio; i++)
        r = r * 11 / 10;
    return r;
}

/* BFS's prio_deadline_diff(): ratio * rr_interval * (MS_TO_NS(1) / 128). */
static inline uint64_t bfs_prio_deadline_diff(int user_prio)
{
    return bfs_prio_ratio(user_prio) * BFS_RR_INTERVAL_MS *
           (BFS_MS_TO_NS(1) / 128u);
}

static inline uint64_t bfs_longest_deadline_diff(void)
{
    return bfs_prio_deadline_diff(39);
}

struct bfs_task {
    struct bfs_node node; /* first: the scan casts nodes back to tasks */
    int policy;
    int rt_priority; /* 1..99 for FIFO/RR */
    int static_prio; /* user prio: nice + 20 */
    int64_t time_slice;
    int cpu;    /* CPU it last ran on, -1 never ran */
    int sticky; /* 1 while some CPU's sticky_task */
    bool queued;
    bool fresh; /* never had a deadline */
    uint64_t cpus_allowed[BFS_NR_CPUS / 64];
};

struct bfs_rq {
    struct bfs_queue grq;
    uint64_t niffies;
    unsigned nr_cpus;
    size_t nr_queued;
    uint64_t iso_ticks;
    uint64_t iso_period; /* ticks; BFS: 5 * HZ * online CPUs + 1 */
    unsigned iso_cpu;    /* percent */
    bool iso_refractory;
    struct bfs_task *sticky_task[BFS_NR_CPUS];
    bool scaling[BFS_NR_CPUS];
};

static inline bool bfs_rt_policy(int policy)
{
    return policy == BFS_SCHED_FIFO || policy == BFS_SCHED_RR;
}

static inline int bfs_task_init(struct bfs_task *p, int policy, int rt_priority,
                                int nice)
{
    if (policy < BFS_SCHED_NORMAL || policy > BFS_SCHED_IDLEPRIO ||
        nice < -20 || nice > 19)
        return -EINVAL;
    if (bfs_rt_policy(policy) ? rt_priority < 1 || rt_priority > 99
                              : rt_priority != 0)
        return -EINVAL;
    memset(p, 0, sizeof(*p));
    p->policy = policy;
    p->rt_priority = rt_priority;
    p->static_prio = nice + 20;
    p->time_slice = BFS_SLICE_NS;
    p->cpu = -1;
    p->fresh = true;
    memset(p->cpus_allowed, 0xff, sizeof(p->cpus_allowed));
    return 0;
}

static inline bool bfs_cpu_allowed(const struct bfs_task *p, unsigned cpu)
{
    return (p->cpus_allowed[cpu / 64] >> (cpu % 64)) & 1u;
}

static inline void bfs_init(struct bfs_rq *rq, unsigned nr_cpus)
{
    memset(rq, 0, sizeof(*rq));
    bfs_queue_init(&rq->grq);
    rq->nr_cpus = nr_cpus;
    rq->iso_cpu = 70;
    rq->iso_period = 5u * BFS_HZ * nr_cpus + 1u;
}

/* normal_prio(): the prio a task's policy gives it. */
static inline int bfs_normal_prio(const struct bfs_task *p)
{
    if (bfs_rt_policy(p->policy))
        return BFS_MAX_RT_PRIO - 1 - p->rt_priority;
    if (p->policy == BFS_SCHED_ISO)
        return BFS_ISO_PRIO;
    if (p->policy == BFS_SCHED_IDLEPRIO)
        return BFS_IDLE_PRIO;
    return BFS_NORMAL_PRIO;
}

/* The prio enqueue_task() gives a task: what it is allowed to run as now. */
static inline int bfs_effective_prio(const struct bfs_rq *rq,
                                     const struct bfs_task *p)
{
    if (bfs_rt_policy(p->policy))
        return BFS_MAX_RT_PRIO - 1 - p->rt_priority;
    if (p->policy == BFS_SCHED_ISO && !rq->iso_refractory)
        return BFS_ISO_PRIO;
    if (p->policy == BFS_SCHED_IDLEPRIO)
        return BFS_IDLE_PRIO;
    return BFS_NORMAL_PRIO;
}

static inline void bfs_add(struct bfs_rq *rq, struct bfs_task *p, int prio)
{
    bfs_queue_add_tail(&rq->grq, &p->node, prio);
    p->queued = true;
    rq->nr_queued++;
}

static inline void bfs_unstick(struct bfs_rq *rq, struct bfs_task *p)
{
    if (p->sticky) {
        rq->sticky_task[p->cpu] = NULL;
        p->sticky = 0;
    }
}

/* Unsticks a queued sticky task: off a deadline list's place to its tail
 * (the skiplist re-keys it; see the top), left in place on the ISO list. */
static inline void bfs_unstick_requeue(struct bfs_rq *rq, struct bfs_task *p)
{
    bfs_unstick(rq, p);
    if (p->node.prio > BFS_ISO_PRIO) {
        bfs_queue_del(&rq->grq, &p->node);
        bfs_queue_add_tail(&rq->grq, &p->node, p->node.prio);
    }
}

static inline void bfs_take(struct bfs_rq *rq, struct bfs_task *p)
{
    bfs_queue_del(&rq->grq, &p->node);
    p->queued = false;
    rq->nr_queued--;
    bfs_unstick(rq, p);
}

static inline int bfs_enqueue(struct bfs_rq *rq, struct bfs_task *p)
{
    if (p->queued)
        return -EEXIST;
    if (p->fresh) {
        p->node.deadline = rq->niffies + bfs_prio_deadline_diff(p->static_prio);
        p->fresh = false;
    }
    bfs_add(rq, p, bfs_effective_prio(rq, p));
    return 0;
}

static inline int bfs_dequeue(struct bfs_rq *rq, struct bfs_task *p)
{
    if (!p->queued)
        return -ENOENT;
    bfs_take(rq, p);
    return 0;
}

/* earliest_deadline_task(): the O(n) scan, then take the task. */
static inline struct bfs_task *bfs_pick(struct bfs_rq *rq, unsigned cpu)
{
    if (cpu >= rq->nr_cpus)
        return NULL;
    const uint64_t ldd = bfs_longest_deadline_diff();
    int idx = 0;
    for (;;) {
        idx = bfs_find_next_bit(&rq->grq, idx);
        if (idx >= BFS_PRIO_LIMIT)
            return NULL;
        struct bfs_link *h = &rq->grq.queue[idx];
        struct bfs_task *edt = NULL;
        uint64_t earliest = 0;
        for (struct bfs_link *l = h->next; l != h; l = l->next) {
            struct bfs_task *p = (struct bfs_task *)(void *)l;
            if (!bfs_cpu_allowed(p, cpu))
                continue;
            if (idx < BFS_ISO_PRIO) {
                edt = p;
                break;
            }
            if (idx == BFS_ISO_PRIO) { /* FIFO, but sticky rules apply */
                if (p->sticky && (unsigned)p->cpu != cpu && rq->scaling[cpu])
                    continue;
                edt = p;
                break;
            }
            uint64_t dl = p->node.deadline;
            if (p->sticky && (unsigned)p->cpu != cpu) {
                if (rq->scaling[cpu])
                    continue;
                dl += ldd;
            }
            if (!edt || dl < earliest) {
                earliest = dl;
                edt = p;
            }
        }
        if (edt) {
            bfs_take(rq, edt);
            edt->cpu = (int)cpu;
            if (idx < BFS_MAX_RT_PRIO && rq->sticky_task[cpu])
                bfs_unstick_requeue(rq, rq->sticky_task[cpu]);
            return edt;
        }
        idx++;
    }
}

/*
 * The running task p leaves cpu after running ran_ns: schedule() for prev.
 * check_deadline(): a spent slice, or a batch task's, is refilled with a
 * new deadline. When still runnable it is queued again and, while cpu is in
 * its mask, swap_sticky(): the CPU's previous sticky task is unstuck and p,
 * unless realtime, becomes the CPU's sticky task.
 */
static inline int bfs_deschedule(struct bfs_rq *rq, unsigned cpu,
                                 struct bfs_task *p, uint64_t ran_ns,
                                 bool runnable)
{
    if (cpu >= rq->nr_cpus)
        return -EINVAL;
    if (p->queued)
        return -EEXIST;
    if (p->policy != BFS_SCHED_FIFO)
        p->time_slice -= (int64_t)ran_ns;
    if (p->time_slice < BFS_RESCHED_NS || p->policy == BFS_SCHED_BATCH) {
        p->time_slice = BFS_SLICE_NS;
        p->node.deadline = rq->niffies + bfs_prio_deadline_diff(p->static_prio);
    }
    p->fresh = false;
    p->cpu = (int)cpu;
    if (!runnable)
        return 0;
    int prio = bfs_effective_prio(rq, p);
    bfs_add(rq, p, prio);
    if (!bfs_cpu_allowed(p, cpu))
        return 0;
    struct bfs_task *old = rq->sticky_task[cpu];
    if (old)
        bfs_unstick_requeue(rq, old);
    if (prio >= BFS_MAX_RT_PRIO) {
        p->sticky = 1;
        rq->sticky_task[cpu] = p;
    }
    return 0;
}

/* task_running_tick() / no_iso_tick() on cpu, with curr running there
 * (NULL: idle). Returns 1 when curr runs as ISO but ISO is now refractory
 * (its slice is zeroed, as BFS zeroes rq_time_slice). */
static inline int bfs_tick(struct bfs_rq *rq, unsigned cpu,
                           struct bfs_task *curr)
{
    if (cpu >= rq->nr_cpus)
        return -EINVAL;
    const uint64_t per = rq->iso_period;
    const uint64_t clear = per * (rq->iso_cpu * 115 / 128);
    if (curr && (curr->node.prio < BFS_MAX_RT_PRIO ||
                 (curr->policy == BFS_SCHED_ISO && !rq->iso_refractory))) {
        if (rq->iso_ticks <= per * 100 - 100)
            rq->iso_ticks += 100;
    } else if (rq->iso_ticks) {
        rq->iso_ticks -= rq->iso_ticks / per + 1;
        if (rq->iso_refractory && rq->iso_ticks < clear)
            rq->iso_refractory = false;
    }
    if (!curr || curr->policy != BFS_SCHED_ISO)
        return 0;
    if (!rq->iso_refractory) {
        if (rq->iso_ticks > per * rq->iso_cpu)
            rq->iso_refractory = true;
    } else if (rq->iso_ticks < clear) {
        rq->iso_refractory = false;
    }
    if (rq->iso_refractory && curr->node.prio == BFS_ISO_PRIO) {
        curr->time_slice = 0;
        return 1;
    }
    return 0;
}

/* adjust_deadline(): by the difference of the two deadline offsets. */
static inline void bfs_adjust_deadline(struct bfs_task *p, int new_static)
{
    uint64_t a = bfs_prio_deadline_diff(p->static_prio),
             b = bfs_prio_deadline_diff(new_static);
    if (b >= a)
        p->node.deadline += b - a;
    else
        p->node.deadline =
            p->node.deadline > a - b ? p->node.deadline - (a - b) : 0;
}

/* Requeues p at the tail of the list its (new) prio names, unsticking it
 * when asked (try_preempt() clears the flag) or when it turned realtime. */
static inline void bfs_requeue(struct bfs_rq *rq, struct bfs_task *p,
                               bool unstick)
{
    int prio = bfs_effective_prio(rq, p);
    bfs_queue_del(&rq->grq, &p->node);
    bfs_queue_add_tail(&rq->grq, &p->node, prio);
    if (unstick || prio < BFS_MAX_RT_PRIO)
        bfs_unstick(rq, p);
}

/* set_user_nice(). */
static inline int bfs_set_nice(struct bfs_rq *rq, struct bfs_task *p, int nice)
{
    if (nice < -20 || nice > 19)
        return -EINVAL;
    int new_static = nice + 20;
    if (new_static == p->static_prio)
        return 0;
    if (bfs_rt_policy(p->policy)) {
        p->static_prio = new_static;
        return 0;
    }
    if (!p->fresh)
        bfs_adjust_deadline(p, new_static);
    bool lower = new_static < p->static_prio;
    p->static_prio = new_static;
    if (p->queued)
        bfs_requeue(rq, p, lower);
    else
        p->node.prio = bfs_normal_prio(p);
    return 0;
}

/* sched_setscheduler() when policy or rt priority change, then
 * set_user_nice(). */
static inline int bfs_set_policy(struct bfs_rq *rq, struct bfs_task *p,
                                 int policy, int rt_priority, int nice)
{
    struct bfs_task tmp;
    if (bfs_task_init(&tmp, policy, rt_priority, nice))
        return -EINVAL;
    if (policy == p->policy && rt_priority == p->rt_priority)
        return bfs_set_nice(rq, p, nice);
    p->policy = policy;
    p->rt_priority = rt_priority;
    if (nice + 20 != p->static_prio && !bfs_rt_policy(policy) && !p->fresh)
        bfs_adjust_deadline(p, nice + 20);
    p->static_prio = nice + 20;
    if (p->queued)
        bfs_requeue(rq, p, true);
    else
        p->node.prio = bfs_normal_prio(p);
    return 0;
}

#endif /* BFS_REPLICA_H */
