/*
 * sched_oracle.h: the skiplist BFS patch (Con Kolivas, 2011-09-24, against
 * BFS 0.406) read as text, plus the BFS 0.40x functions the patch leaves
 * alone, as a second oracle for skiplist_sched.h.
 *
 * Written from the patch and from the BFS functions it sits in, not from
 * skiplist_sched.h or bfs_replica.h, in BFS's own terms: prio numbers
 * 0..102, the patch's sl_id keys (prio for realtime and ISO, the deadline
 * for the rest, plus longest_deadline_diff() when sticky, OR 0xF000... for
 * IDLEPRIO), a sorted list in place of the skiplist where a new node goes
 * after every node whose key is <= its own (the patch's insert walks
 * `q->key <= key`), time slices in BFS's microseconds of 1024 ns.
 *
 *   or_wake()      activate_task() / enqueue_task() (first wake: deadline)
 *   or_pick()      earliest_deadline_task() as the patch wrote it, then
 *                  take_task(); schedule()'s unstick_task() on a realtime
 *   or_schedule()  schedule() for prev: update_cpu_clock()'s slice charge,
 *                  check_deadline(), swap_sticky(), return_task()
 *   or_tick()      task_running_tick() / no_iso_tick()
 *   or_set_nice()  set_user_nice() with adjust_deadline()
 *   or_setsched()  __sched_setscheduler()
 *   or_can_preempt(), or_try_preempt()   can_preempt(), try_preempt()
 *   or_fork()      sched_fork()
 *   or_yield()     sys_sched_yield(): schedule() with prev runnable
 *
 * struct or_readings selects, rule by rule (the numbers of issue 17), the
 * reading the oracle follows. All false is the patch plus BFS 0.40x, with
 * the two choices skiplist_sched.h makes on purpose (the own-CPU test by
 * real key, unsticking re-keys). Each true flag is the other reading: the
 * patch's literal own-CPU test, or what skiplist_sched.h did before issue 17.
 * A test runs one scenario under both readings of its rule, checks the
 * outcomes differ, and checks skiplist_sched.h gives the first.
 *
 * Things the oracle does as skiplist_sched.h does, not as BFS did (they are
 * listed in docs/bfs-model.md): a CPU that scales its frequency skips other
 * CPUs' sticky tasks (BFS 0.40x; the patch left a FIXME); a task taken by a
 * CPU stops being any CPU's sticky task (BFS kept the pointer); the own-CPU
 * task must be allowed on the CPU; the patch's own-CPU subtraction is done
 * without its unsigned wrap; adjust_deadline() saturates at 0 instead of
 * wrapping, and a deadline key still sorts after every realtime and ISO
 * key when the deadline is 0..100 (or_key_after()). CPUs: at most 64 (one
 * mask word).
 */
#ifndef SCHED_ORACLE_H
#define SCHED_ORACLE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define OR_MAX_RT_PRIO 100
#define OR_ISO_PRIO 100
#define OR_NORMAL_PRIO 101
#define OR_IDLE_PRIO 102
#define OR_PRIO_LIMIT 103
#define OR_NCPUS 64
#define OR_MAXT 512
#define OR_HZ 1000
#define OR_RR_INTERVAL 6 /* ms */
#define OR_RESCHED_US 100

/* Policies as BFS numbers them. */
enum { OR_NORMAL, OR_FIFO, OR_RR, OR_BATCH, OR_ISO, OR_IDLEPRIO };

struct or_readings {
    bool sticky_patch; /* 1: rqs->deadline - ldd < edt->deadline (patch) */
    bool iso_old;      /* 2: ISO ticks only, usage decays every tick */
    bool batch_old;    /* 3: batch tasks refill only a spent slice */
    bool demote_old;   /* 4: a demoted ISO task keeps slice and deadline */
    bool sticky_old;   /* 5: only deadline classes stick, a realtime pick
                          keeps the sticky task, hand-over off the mask */
    bool units_old;    /* 6: exact ms, prio_ratios rounded to nearest */
};

struct or_task {
    int policy, rt_priority, static_prio, prio;
    uint64_t deadline;
    uint64_t sl_id;     /* the key it was inserted with */
    bool sl_by_dl;      /* sl_id is a deadline (not realtime or ISO prio) */
    uint64_t ins;       /* insertion order: FIFO among equal keys */
    int64_t time_slice; /* BFS microseconds (1024 ns; 1000 with units_old) */
    int cpu;
    bool sticky, queued, fresh;
    uint64_t cpus_allowed;
};

struct or_rq {
    struct or_task *list[OR_MAXT]; /* sorted by (sl_id, ins) */
    size_t n;
    uint64_t niffies, ins;
    unsigned noc;
    int64_t iso_ticks, iso_period;
    int iso_cpu;
    bool iso_refractory;
    struct or_task *sticky_task[OR_NCPUS];
    bool scaling[OR_NCPUS];
    struct or_readings rd;
};

/* ------------------------------------------------------------- units */

static inline int64_t or_ms_to_us(const struct or_rq *rq, int64_t ms)
{
    return rq->rd.units_old ? ms * 1000 : ms << 10; /* MS_TO_US */
}

static inline int64_t or_ns_to_us(const struct or_rq *rq, uint64_t ns)
{
    return (int64_t)(rq->rd.units_old ? ns / 1000 : ns >> 10); /* NS_TO_US */
}

static inline int64_t or_timeslice(const struct or_rq *rq)
{
    return or_ms_to_us(rq, OR_RR_INTERVAL);
}

/* sched_init(): prio_ratios[0] = 128, then * 11 / 10 per level. */
static inline uint64_t or_prio_ratio(const struct or_rq *rq, int user_prio)
{
    uint64_t r = 128;
    for (int i = 1; i <= user_prio; i++)
        r = rq->rd.units_old ? (r * 11 + 5) / 10 : r * 11 / 10;
    return r;
}

/* prio_deadline_diff(): ratio * rr_interval * (MS_TO_NS(1) / 128). */
static inline uint64_t or_prio_deadline_diff(const struct or_rq *rq,
                                             int user_prio)
{
    uint64_t r = or_prio_ratio(rq, user_prio);
    if (rq->rd.units_old)
        return r * OR_RR_INTERVAL * 1000000u / 128u;
    return r * OR_RR_INTERVAL * ((UINT64_C(1) << 20) / 128u);
}

static inline uint64_t or_longest_deadline_diff(const struct or_rq *rq)
{
    return or_prio_deadline_diff(rq, 39);
}

static inline uint64_t or_task_deadline_diff(const struct or_rq *rq,
                                             const struct or_task *p)
{
    return or_prio_deadline_diff(rq, p->static_prio);
}

/* time_slice_expired() */
static inline void or_time_slice_expired(struct or_rq *rq, struct or_task *p)
{
    p->time_slice = or_timeslice(rq);
    p->deadline = rq->niffies + or_task_deadline_diff(rq, p);
}

/* ------------------------------------------------------------- tasks */

static inline bool or_rt_policy(int policy)
{
    return policy == OR_FIFO || policy == OR_RR;
}

static inline bool or_rt_task(const struct or_task *p)
{
    return p->prio < OR_MAX_RT_PRIO;
}

static inline int or_normal_prio(const struct or_task *p)
{
    if (or_rt_policy(p->policy))
        return OR_MAX_RT_PRIO - 1 - p->rt_priority;
    if (p->policy == OR_IDLEPRIO)
        return OR_IDLE_PRIO;
    if (p->policy == OR_ISO)
        return OR_ISO_PRIO;
    return OR_NORMAL_PRIO;
}

static inline void or_task_init(const struct or_rq *rq, struct or_task *p,
                                int policy, int rt_priority, int nice)
{
    memset(p, 0, sizeof(*p));
    p->policy = policy;
    p->rt_priority = rt_priority;
    p->static_prio = nice + 20;
    p->prio = or_normal_prio(p);
    p->time_slice = or_timeslice(rq);
    p->cpu = -1;
    p->fresh = true;
    p->cpus_allowed = ~UINT64_C(0);
}

static inline bool or_needs_other_cpu(const struct or_task *p, unsigned cpu)
{
    return !((p->cpus_allowed >> cpu) & 1u);
}

static inline void or_init(struct or_rq *rq, unsigned noc,
                           struct or_readings rd)
{
    memset(rq, 0, sizeof(*rq));
    rq->noc = noc;
    rq->rd = rd;
    rq->iso_cpu = 70;
    rq->iso_period = 5 * OR_HZ * (int64_t)noc + (rd.iso_old ? 0 : 1);
}

/* ------------------------------------------------------------- queue */

/* Whether key a sorts after key b; by_dl: keyed by deadline (not realtime or
 * ISO). The patch's sl_id keeps every deadline key after the prio keys
 * (0..100) only because a BFS deadline is niffies plus at least 6.29 ms;
 * adjust_deadline() here saturates at 0 where BFS's u64 wraps, so a
 * deadline of 0..100 can occur, and it must not jump the class order
 * (skiplist_sched.h's key layout, docs/bfs-model.md). */
static inline bool or_key_after(bool a_by_dl, uint64_t a, bool b_by_dl,
                                uint64_t b)
{
    return a_by_dl != b_by_dl ? a_by_dl : a > b;
}

static inline void or_insert(struct or_rq *rq, struct or_task *p, uint64_t key)
{
    const bool by_dl = p->prio > OR_ISO_PRIO;
    size_t i = rq->n;
    while (i > 0 && or_key_after(rq->list[i - 1]->sl_by_dl,
                                 rq->list[i - 1]->sl_id, by_dl, key))
        i--;
    memmove(&rq->list[i + 1], &rq->list[i], (rq->n - i) * sizeof(p));
    rq->list[i] = p;
    rq->n++;
    p->sl_id = key;
    p->sl_by_dl = by_dl;
    p->ins = ++rq->ins;
    p->queued = true;
}

static inline void or_dequeue_task(struct or_rq *rq, struct or_task *p)
{
    size_t i = 0;
    while (rq->list[i] != p)
        i++;
    memmove(&rq->list[i], &rq->list[i + 1], (rq->n - i - 1) * sizeof(p));
    rq->n--;
    p->queued = false;
}

/* The patch's enqueue_task(): prio for realtime and ISO, else the deadline,
 * plus the offset when sticky, OR the idle mark. */
static inline uint64_t or_sl_id(const struct or_rq *rq, const struct or_task *p)
{
    if (p->prio <= OR_ISO_PRIO)
        return (uint64_t)p->prio;
    uint64_t sl_id = p->deadline;
    if (p->sticky)
        sl_id += or_longest_deadline_diff(rq);
    if (p->prio == OR_IDLE_PRIO)
        sl_id |= UINT64_C(0xF000000000000000);
    return sl_id;
}

/* The prio enqueue_task() gives a task that is not realtime ("Check it
 * hasn't gotten rt from PI"). */
static inline void or_enqueue_prio(const struct or_rq *rq, struct or_task *p)
{
    if (!or_rt_task(p)) {
        if (p->policy == OR_IDLEPRIO ||
            (p->policy == OR_ISO && !rq->iso_refractory))
            p->prio = or_normal_prio(p);
        else
            p->prio = OR_NORMAL_PRIO;
    }
}

static inline void or_enqueue_task(struct or_rq *rq, struct or_task *p)
{
    or_enqueue_prio(rq, p);
    or_insert(rq, p, or_sl_id(rq, p));
}

/* Unsticking a queued task re-keys it (the patch left the offset). */
static inline void or_clear_sticky(struct or_rq *rq, struct or_task *p)
{
    if (!p->sticky)
        return;
    p->sticky = false;
    for (unsigned c = 0; c < OR_NCPUS; c++)
        if (rq->sticky_task[c] == p)
            rq->sticky_task[c] = NULL;
    if (p->queued && p->prio > OR_ISO_PRIO) {
        or_dequeue_task(rq, p);
        or_insert(rq, p, or_sl_id(rq, p));
    }
}

static inline int or_wake(struct or_rq *rq, struct or_task *p)
{
    if (p->queued)
        return -EEXIST;
    if (p->fresh)
        p->deadline = rq->niffies + or_task_deadline_diff(rq, p);
    p->fresh = false;
    p->prio = or_normal_prio(p); /* effective_prio() */
    or_enqueue_task(rq, p);
    return 0;
}

static inline int or_sleep(struct or_rq *rq, struct or_task *p)
{
    if (!p->queued)
        return -ENOENT;
    or_dequeue_task(rq, p);
    or_clear_sticky(rq, p);
    return 0;
}

/* ------------------------------------------------------------- pick */

static inline struct or_task *or_pick(struct or_rq *rq, unsigned cpu)
{
    struct or_task *edt = NULL, *rqs = rq->sticky_task[cpu];
    for (size_t i = 0; i < rq->n; i++) {
        struct or_task *slp = rq->list[i];
        if (or_needs_other_cpu(slp, cpu))
            continue;
        /* BFS 0.40x's scaling rule (the patch's FIXME). */
        if (rq->scaling[cpu] && slp->sticky && slp->cpu != (int)cpu)
            continue;
        edt = slp;
        break;
    }
    if (edt && !or_rt_task(edt) && rqs && rqs != edt && rqs->queued &&
        !or_needs_other_cpu(rqs, cpu)) {
        bool take;
        if (rq->rd.sticky_patch) /* the code */
            take = rqs->deadline < edt->deadline + or_longest_deadline_diff(rq);
        else { /* the comment: where it would sit without the offset */
            uint64_t real =
                rqs->prio <= OR_ISO_PRIO ? (uint64_t)rqs->prio : rqs->deadline;
            if (rqs->prio == OR_IDLE_PRIO)
                real |= UINT64_C(0xF000000000000000);
            take =
                or_key_after(edt->sl_by_dl, edt->sl_id, rqs->sl_by_dl, real) ||
                (real == edt->sl_id && rqs->sl_by_dl == edt->sl_by_dl &&
                 rqs->ins < edt->ins);
        }
        if (take)
            edt = rqs;
    }
    if (!edt)
        return NULL;
    /* take_task() */
    edt->cpu = (int)cpu;
    or_dequeue_task(rq, edt);
    if (edt->sticky) {
        edt->sticky = false;
        for (unsigned c = 0; c < OR_NCPUS; c++)
            if (rq->sticky_task[c] == edt)
                rq->sticky_task[c] = NULL;
    }
    /* schedule(): "Don't stick tasks when a real time task is going to
     * run as they may literally get stuck." */
    if (or_rt_task(edt) && !rq->rd.sticky_old && rq->sticky_task[cpu])
        or_clear_sticky(rq, rq->sticky_task[cpu]);
    return edt;
}

/* ---------------------------------------------------------- schedule */

/* prev leaves cpu after running ran_ns; deactivate: it sleeps. */
static inline int or_schedule(struct or_rq *rq, unsigned cpu,
                              struct or_task *prev, uint64_t ran_ns,
                              bool deactivate)
{
    if (prev->queued)
        return -EEXIST;
    if (prev->policy != OR_FIFO) /* update_cpu_clock() */
        prev->time_slice -= or_ns_to_us(rq, ran_ns);
    /* check_deadline() */
    if (prev->time_slice < OR_RESCHED_US ||
        (prev->policy == OR_BATCH && !rq->rd.batch_old))
        or_time_slice_expired(rq, prev);
    prev->fresh = false;
    prev->cpu = (int)cpu;
    if (deactivate)
        return 0;
    prev->prio = or_normal_prio(prev);
    or_enqueue_prio(rq, prev);
    /* "Task changed affinity off this CPU": no swap_sticky(). */
    const bool swap = rq->rd.sticky_old || !or_needs_other_cpu(prev, cpu);
    struct or_task *old = swap ? rq->sticky_task[cpu] : NULL;
    /* swap_sticky(): !rt_task(p) sticks; before issue 17 only the deadline
     * classes did. The flag is set before return_task() queues prev, so
     * its key carries the offset. */
    const bool stick = swap && (rq->rd.sticky_old ? prev->prio > OR_ISO_PRIO
                                                  : !or_rt_task(prev));
    prev->sticky = stick;
    or_insert(rq, prev, or_sl_id(rq, prev));
    if (old && old != prev)
        or_clear_sticky(rq, old);
    if (swap)
        rq->sticky_task[cpu] = stick ? prev : NULL;
    return 0;
}

/* ------------------------------------------------------------- ISO */

/* One tick on a CPU running curr (NULL: idle). 1 when curr, running as
 * ISO, must reschedule because ISO went refractory. */
static inline int or_tick(struct or_rq *rq, struct or_task *curr)
{
    const int64_t per = rq->iso_period;
    if (rq->rd.iso_old) {
        bool iso = curr && curr->prio == OR_ISO_PRIO;
        rq->iso_ticks -= rq->iso_ticks / per;
        if (iso)
            rq->iso_ticks += 100;
        int64_t limit = per * rq->iso_cpu;
        if (!rq->iso_refractory && rq->iso_ticks > limit)
            rq->iso_refractory = true;
        else if (rq->iso_refractory && rq->iso_ticks < limit * 115 / 128)
            rq->iso_refractory = false;
        if (!(iso && rq->iso_refractory))
            return 0;
        if (!rq->rd.demote_old)
            curr->time_slice = 0;
        return 1;
    }
    /* task_running_tick(): realtime and unthrottled ISO both count. */
    if (curr &&
        (or_rt_task(curr) || (curr->policy == OR_ISO && !rq->iso_refractory))) {
        if (rq->iso_ticks <= per * 100 - 100)
            rq->iso_ticks += 100;
    } else if (rq->iso_ticks) { /* no_iso_tick() */
        rq->iso_ticks -= rq->iso_ticks / per + 1;
        if (rq->iso_refractory &&
            rq->iso_ticks < per * (rq->iso_cpu * 115 / 128))
            rq->iso_refractory = false;
    }
    if (!curr || curr->policy != OR_ISO)
        return 0;
    /* test_ret_isorefractory() */
    if (!rq->iso_refractory) {
        if (rq->iso_ticks > per * rq->iso_cpu)
            rq->iso_refractory = true;
    } else if (rq->iso_ticks < per * (rq->iso_cpu * 115 / 128)) {
        rq->iso_refractory = false;
    }
    if (rq->iso_refractory && curr->prio == OR_ISO_PRIO) {
        if (!rq->rd.demote_old)
            curr->time_slice = 0; /* rq->rq_time_slice = 0 */
        return 1;
    }
    return 0;
}

/* ------------------------------------------------ nice, policy, fork */

/* set_user_nice(); adjust_deadline() first. */
static inline void or_set_nice(struct or_rq *rq, struct or_task *p, int nice)
{
    int new_static = nice + 20;
    if (new_static == p->static_prio)
        return;
    if (or_rt_policy(p->policy)) {
        p->static_prio = new_static;
        return;
    }
    bool queued = p->queued;
    if (queued)
        or_dequeue_task(rq, p);
    if (!p->fresh) {
        uint64_t a = or_task_deadline_diff(rq, p),
                 b = or_prio_deadline_diff(rq, new_static);
        p->deadline = b >= a
                          ? p->deadline + (b - a)
                          : (p->deadline > a - b ? p->deadline - (a - b) : 0);
    }
    int old_static = p->static_prio;
    p->static_prio = new_static;
    p->prio = or_normal_prio(p);
    if (queued) {
        or_enqueue_task(rq, p);
        if (new_static < old_static) /* try_preempt() clears the flag */
            or_clear_sticky(rq, p);
    }
}

/* __sched_setscheduler(), then set_user_nice() for the nice level. */
static inline void or_setsched(struct or_rq *rq, struct or_task *p, int policy,
                               int rt_priority, int nice)
{
    if (policy != p->policy || rt_priority != p->rt_priority) {
        bool queued = p->queued;
        if (queued)
            or_dequeue_task(rq, p);
        p->policy = policy;
        p->rt_priority = rt_priority;
        p->prio = or_normal_prio(p);
        if (queued) {
            or_enqueue_task(rq, p);
            or_clear_sticky(rq, p); /* try_preempt() */
        }
    }
    or_set_nice(rq, p, nice);
}

/* can_preempt(): prio first, then a strictly earlier deadline. */
static inline bool or_can_preempt(const struct or_task *p, int prio,
                                  uint64_t deadline)
{
    if (p->prio < prio)
        return true;
    if (p->prio > prio)
        return false;
    return p->deadline < deadline;
}

/* try_preempt(): the CPU to reschedule for p, or -1. curr[c]: the task
 * running on CPU c, NULL when idle (prio PRIO_LIMIT). */
static inline int or_try_preempt(const struct or_rq *rq,
                                 const struct or_task *p,
                                 struct or_task *const *curr)
{
    /* An idle CPU in the mask: BFS ranks them by cache distance from p's
     * CPU; p's own CPU first, then the lowest number. */
    if (p->cpu >= 0 && !curr[p->cpu] &&
        !or_needs_other_cpu(p, (unsigned)p->cpu))
        return p->cpu;
    for (unsigned c = 0; c < rq->noc; c++)
        if (!curr[c] && !or_needs_other_cpu(p, c))
            return (int)c;
    if (p->policy == OR_IDLEPRIO)
        return -1;
    int highest_prio = -1, best = -1;
    uint64_t latest_deadline = 0;
    for (unsigned c = 0; c < rq->noc; c++) {
        if (or_needs_other_cpu(p, c))
            continue;
        int rq_prio = curr[c]->prio;
        if (rq_prio < highest_prio)
            continue;
        if (rq_prio > highest_prio || curr[c]->deadline > latest_deadline) {
            latest_deadline = curr[c]->deadline;
            highest_prio = rq_prio;
            best = (int)c;
        }
    }
    if (best < 0 || !or_can_preempt(p, highest_prio, latest_deadline))
        return -1;
    return best;
}

/* sched_fork(): curr has run ran_ns of its slice. 1: curr must
 * reschedule (its slice was as good as spent). */
static inline int or_fork(struct or_rq *rq, struct or_task *curr,
                          uint64_t ran_ns, struct or_task *p)
{
    *p = *curr; /* dup_task_struct() */
    p->queued = false;
    p->sticky = false;
    p->prio = or_normal_prio(curr);
    if (curr->policy == OR_FIFO)
        return 0;
    /* The running task's slice lives in rq_time_slice, charged so far. */
    int64_t rq_time_slice = curr->time_slice - or_ns_to_us(rq, ran_ns);
    if (rq_time_slice >= OR_RESCHED_US * 2) {
        rq_time_slice /= 2;
        p->time_slice = rq_time_slice;
        curr->time_slice = rq_time_slice + or_ns_to_us(rq, ran_ns);
        return 0;
    }
    curr->time_slice = or_ns_to_us(rq, ran_ns); /* rq_time_slice = 0 */
    or_time_slice_expired(rq, p);
    p->fresh = false;
    return 1;
}

/* sys_sched_yield(): schedule() with prev runnable. */
static inline struct or_task *or_yield(struct or_rq *rq, unsigned cpu,
                                       struct or_task *prev, uint64_t ran_ns)
{
    or_schedule(rq, cpu, prev, ran_ns, false);
    return or_pick(rq, cpu);
}

#endif /* SCHED_ORACLE_H */
