/**
 * \file skiplist_sched_api.h
 * \brief The runqueue API of skiplist_sched.h, grouped, with every
 *        parameter and return value.
 *
 * Documentation only. The functions of skiplist_sched.h are ordinary
 * `static inline` functions, not generated, and their descriptions live
 * in that header; the blocks below add them to the \ref sched module and
 * document their parameters. Doxygen checks every `\fn` signature here
 * against the header (a mismatch is a warning, an error in
 * `make docs-check`).
 */

/**
 * \defgroup sched Runqueue: skiplist_sched.h
 * \brief A BFS global runqueue (Con Kolivas's skiplist BFS) on the
 *        priority-queue face.
 *
 * One queue shared by every CPU under one 64-bit key per task: the class
 * in bits 63..61, below it the realtime priority or the virtual deadline
 * in BFS's units. A scheduler loop on it, as `examples/bfs_sim.c` runs
 * one: wake a task with `skiplist_sched_enqueue()`, then reschedule the
 * CPU `skiplist_sched_preempt_cpu()` names; on a CPU that must reschedule
 * (slice spent, `skiplist_sched_tick()` returned 1, a wake-up preempted
 * it, the task sleeps or yields) call `skiplist_sched_deschedule()` and
 * then `skiplist_sched_pick()`.
 *
 * Errors are negative errno values; on any error nothing changed.
 * Concurrency: none inside; hold one lock around every call on a runqueue
 * (BFS's grq.lock). docs/bfs-model.md lists where the model departs from
 * BFS.
 * @{
 */

/* Each \fn line stays one line. */
// clang-format off
/** \fn uint64_t skiplist_sched_deadline_diff(int nice)
 *  \param nice the nice level (clamped to -20..19)
 *  \return the deadline offset of that nice level, in ns */

/** \fn uint64_t skiplist_sched_longest_deadline_diff(void)
 *  \return `skiplist_sched_deadline_diff(19)`, in ns */

/** \fn bool skiplist_sched_queued(const struct skiplist_sched_task *t)
 *  \param t the task
 *  \return true when `t` is queued */

/** \fn size_t skiplist_sched_nr_queued(const struct skiplist_sched *rq)
 *  \param rq the runqueue
 *  \return the number of queued tasks */

/** \fn unsigned skiplist_sched_class_of(const struct skiplist_sched *rq, const struct skiplist_sched_task *t)
 *  \param rq the runqueue (whether ISO is refractory)
 *  \param t  the task
 *  \return an `enum skiplist_sched_class` value */

/** \fn uint64_t skiplist_sched_key_of(const struct skiplist_sched *rq, const struct skiplist_sched_task *t)
 *  \param rq the runqueue
 *  \param t  the task
 *  \return the queue key `t` would get now, without the sticky offset */

/** \fn struct skiplist_sched_task *skiplist_sched_sticky(const struct skiplist_sched *rq, unsigned cpu)
 *  \param rq  the runqueue
 *  \param cpu the CPU
 *  \return the CPU's sticky task, or NULL */

/** \fn int skiplist_sched_task_init(struct skiplist_sched_task *t, int policy, int rt_prio, int nice)
 *  \param t       the task to set up
 *  \param policy  an `enum skiplist_sched_policy` value
 *  \param rt_prio 1..99 for `SKIPLIST_SCHED_FIFO` and `SKIPLIST_SCHED_RR`,
 *                 0 for the others
 *  \param nice    -20..19
 *  \retval 0       done
 *  \retval -EINVAL `t` NULL or a value out of range; `t` untouched */

/** \fn int skiplist_sched_cpu_allow(struct skiplist_sched_task *t, unsigned cpu, bool allow)
 *  \param t     the task
 *  \param cpu   the CPU, below `SKIPLIST_SCHED_NR_CPUS`
 *  \param allow true to allow, false to forbid
 *  \retval 0       done
 *  \retval -EINVAL `cpu` out of range */

/** \fn void skiplist_sched_cpu_none(struct skiplist_sched_task *t)
 *  \brief Clears `t`'s whole affinity mask (then allow CPUs one by one).
 *  \param t the task
 *  \par Complexity:
 *  O(NR_CPUS/64) */

/** \fn bool skiplist_sched_cpu_allowed(const struct skiplist_sched_task *t, unsigned cpu)
 *  \param t   the task
 *  \param cpu the CPU
 *  \return true when `t` may run on `cpu` */

/** \fn int skiplist_sched_init(struct skiplist_sched *rq, unsigned nr_cpus, const struct skiplist_allocator *a, uint64_t seed)
 *  \param rq      the runqueue to set up
 *  \param nr_cpus CPUs, 1..`SKIPLIST_SCHED_NR_CPUS`
 *  \param a       node allocator; NULL for the default pooled one
 *  \param seed    mixed into the seed of the index heights
 *  \retval 0       done
 *  \retval -EINVAL `rq` NULL or `nr_cpus` out of range
 *  \retval -ENOMEM the queue could not be allocated */

/** \fn void skiplist_sched_destroy(struct skiplist_sched *rq)
 *  \param rq the runqueue */

/** \fn void skiplist_sched_advance(struct skiplist_sched *rq, uint64_t ns)
 *  \param rq the runqueue
 *  \param ns nanoseconds to add to its clock */

/** \fn int skiplist_sched_set_scaling(struct skiplist_sched *rq, unsigned cpu, bool scaling)
 *  \param rq      the runqueue
 *  \param cpu     the CPU
 *  \param scaling true while it scales its frequency down
 *  \retval 0       done
 *  \retval -EINVAL `cpu` out of range */

/** \fn int skiplist_sched_set_iso(struct skiplist_sched *rq, unsigned percent, uint64_t period_ticks)
 *  \param rq           the runqueue
 *  \param percent      share of all CPUs ISO tasks may take, 0..100
 *  \param period_ticks the accounting window in ticks; 0 for BFS's
 *  \retval 0       done
 *  \retval -EINVAL `percent` above 100 */

/** \fn int skiplist_sched_set_sticky_rule(struct skiplist_sched *rq, int rule)
 *  \param rq   the runqueue
 *  \param rule an `enum skiplist_sched_sticky_rule` value
 *  \retval 0       done
 *  \retval -EINVAL an unknown rule */

/** \fn int skiplist_sched_enqueue(struct skiplist_sched *rq, struct skiplist_sched_task *t)
 *  \param rq the runqueue
 *  \param t  the task waking up
 *  \retval 0       queued
 *  \retval -EINVAL `t` NULL
 *  \retval -EEXIST `t` is already queued
 *  \retval -ENOMEM nothing changed */

/** \fn int skiplist_sched_dequeue(struct skiplist_sched *rq, struct skiplist_sched_task *t)
 *  \param rq the runqueue
 *  \param t  the queued task
 *  \retval 0       dequeued
 *  \retval -EINVAL `t` NULL
 *  \retval -ENOENT `t` is not queued in `rq` */

/** \fn struct skiplist_sched_task *skiplist_sched_pick(struct skiplist_sched *rq, unsigned cpu)
 *  \param rq  the runqueue
 *  \param cpu the CPU that schedules
 *  \return the task `cpu` runs next, dequeued, or NULL when none may run
 *          there */

/** \fn int skiplist_sched_deschedule(struct skiplist_sched *rq, unsigned cpu, struct skiplist_sched_task *t, uint64_t ran_ns, bool runnable)
 *  \param rq       the runqueue
 *  \param cpu      the CPU `t` ran on
 *  \param t        the task leaving it
 *  \param ran_ns   how long `t` ran since it was picked
 *  \param runnable true when `t` is still runnable (queued again), false
 *                  when it sleeps
 *  \retval 0       done
 *  \retval -EINVAL `t` NULL or `cpu` out of range
 *  \retval -EEXIST `t` is queued
 *  \retval -ENOMEM nothing changed, `t` not queued */

/** \fn int skiplist_sched_tick(struct skiplist_sched *rq, unsigned cpu, struct skiplist_sched_task *curr)
 *  \param rq   the runqueue
 *  \param cpu  the CPU that ticks
 *  \param curr the task running there, or NULL when idle
 *  \retval 1       `curr` ran as ISO past the limit: deschedule it
 *  \retval 0       nothing to do
 *  \retval -EINVAL `cpu` out of range */

/** \fn int skiplist_sched_set_nice(struct skiplist_sched *rq, struct skiplist_sched_task *t, int nice)
 *  \param rq   the runqueue
 *  \param t    the task, queued or not
 *  \param nice the new nice level, -20..19
 *  \retval 0       done
 *  \retval -EINVAL a value out of range
 *  \retval -ENOMEM nothing changed */

/** \fn int skiplist_sched_set_policy(struct skiplist_sched *rq, struct skiplist_sched_task *t, int policy, int rt_prio, int nice)
 *  \param rq      the runqueue
 *  \param t       the task, queued or not
 *  \param policy  the new `enum skiplist_sched_policy` value
 *  \param rt_prio the new realtime priority (as in
 *                 `skiplist_sched_task_init()`)
 *  \param nice    the new nice level
 *  \retval 0       done
 *  \retval -EINVAL a value out of range
 *  \retval -ENOMEM nothing changed */

/** \fn bool skiplist_sched_can_preempt(const struct skiplist_sched *rq, const struct skiplist_sched_task *p, const struct skiplist_sched_task *curr)
 *  \param rq   the runqueue
 *  \param p    the task just queued
 *  \param curr the task running on the CPU considered, NULL when idle
 *  \return true when `p` preempts `curr` */

/** \fn int skiplist_sched_preempt_cpu(const struct skiplist_sched *rq, const struct skiplist_sched_task *p, const struct skiplist_sched_task *const *curr)
 *  \param rq   the runqueue
 *  \param p    the task just queued
 *  \param curr `curr[c]` is the task running on CPU c (NULL when idle),
 *              for every c below `nr_cpus`
 *  \return the CPU to reschedule for `p`, or -1 for none */

/** \fn int skiplist_sched_yield(struct skiplist_sched *rq, unsigned cpu, struct skiplist_sched_task *t, uint64_t ran_ns, struct skiplist_sched_task **next)
 *  \param rq     the runqueue
 *  \param cpu    the CPU `t` runs on
 *  \param t      the task that yields
 *  \param ran_ns how long `t` ran since it was picked
 *  \param next   receives `cpu`'s pick (`t` again when it still comes
 *                first)
 *  \retval 0       done
 *  \retval -EINVAL `next` NULL, or as `skiplist_sched_deschedule()`
 *  \retval -EEXIST as `skiplist_sched_deschedule()`; `*next` untouched
 *  \retval -ENOMEM as `skiplist_sched_deschedule()`; `*next` untouched */

/** \fn int skiplist_sched_fork(struct skiplist_sched *rq, struct skiplist_sched_task *parent, uint64_t ran_ns, struct skiplist_sched_task *child)
 *  \param rq     the runqueue
 *  \param parent the running task that forks
 *  \param ran_ns how long `parent` ran since it was picked
 *  \param child  the new task (set up here; wake it with
 *                `skiplist_sched_enqueue()`)
 *  \retval 1       `parent`'s slice is spent: deschedule it
 *  \retval 0       done
 *  \retval -EINVAL NULL, or `parent` and `child` the same task
 *  \retval -EEXIST `child` is queued */

/** \fn int skiplist_sched_check(const struct skiplist_sched *rq, char *why, size_t len)
 *  \param rq  the runqueue
 *  \param why where the first violation is described; may be NULL
 *  \param len size of `why`
 *  \retval 0       every invariant holds
 *  \retval -EINVAL one does not; `why` says which */

// clang-format on
/* The fields of the two structs, readable by the caller (change them
 * only through the functions). */
/** \var skiplist_sched_task::hook
 *  The queue link, owned by the queue. */
/** \var skiplist_sched_task::key
 *  The queue key while queued (class in bits 63..61). */
/** \var skiplist_sched_task::deadline
 *  The virtual deadline, in ns of niffies. */
/** \var skiplist_sched_task::seq
 *  When the task was (re)keyed: FIFO order among equal keys. */
/** \var skiplist_sched_task::time_slice
 *  Nanoseconds left of the current slice. */
/** \var skiplist_sched_task::sticky_cpu
 *  The CPU whose sticky task this is, or -1. */
/** \var skiplist_sched_task::cpu
 *  The CPU it last ran on, or -1. */
/** \var skiplist_sched_task::policy
 *  An enum skiplist_sched_policy value. */
/** \var skiplist_sched_task::rt_prio
 *  1..99 for FIFO and RR, else 0. */
/** \var skiplist_sched_task::nice
 *  -20..19. */
/** \var skiplist_sched_task::cls
 *  The enum skiplist_sched_class it was last queued as. */
/** \var skiplist_sched_task::fresh
 *  Nonzero until it gets its first deadline. */
/** \var skiplist_sched_task::cpus_allowed
 *  The affinity mask, one bit per CPU. */
/** \var skiplist_sched::niffies
 *  The monotonic clock in ns, advanced by the caller. */
/** \var skiplist_sched::nr_cpus
 *  CPUs of this runqueue. */

/** @} */
