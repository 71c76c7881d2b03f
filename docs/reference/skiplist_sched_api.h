/**
 * \file skiplist_sched_api.h
 * \brief The runqueue API of skiplist_sched.h, grouped, with every
 *        function's contract.
 *
 * Documentation only. The functions of skiplist_sched.h are ordinary
 * `static inline` functions, not generated; the header's "API" comment
 * lists them, one line each, and the blocks below add them to the
 * \ref sched module with their full contract: what they do, parameters,
 * return values and errors, complexity. Doxygen checks every `\fn` signature
 * here against the header (a mismatch is a warning, an error in
 * `make docs-check`).
 */

/**
 * \defgroup sched Runqueue: skiplist_sched.h
 * \brief A BFS global runqueue (Con Kolivas's skiplist BFS) on the
 *        priority-queue face.
 *
 * One queue shared by every CPU, for up to `SKIPLIST_SCHED_NR_CPUS` CPUs
 * (1024 by default). How a scheduler loop uses these calls:
 * docs/api.md, "skiplist_sched.h", and docs/guides/runqueue.md.
 *
 * Keys are one `uint64_t`: the class in bits 63..61 (realtime, ISO,
 * normal and batch, idleprio) above the priority (realtime, ISO: FIFO
 * among equals) or the virtual deadline `niffies + prio_ratios[nice] *
 * rr_interval * (2^20 / 128)` in BFS's units (a millisecond is `x << 20`
 * ns; ratios from 128, * 11 / 10 per nice level, truncated: 6.29 ms at
 * nice -20, 41.09 ms at 0, 250.13 ms at 19; a slice is 6.29 ms),
 * saturated below the next class, so one integer compare orders classes
 * and no key equals a sentinel.
 *
 * Errors are negative errno values; on any error nothing changed.
 * Concurrency: none inside; hold one lock around every call on a runqueue
 * (BFS's grq.lock). Change a task only through these calls: its fields
 * are readable, but writing them bypasses the re-keying.
 * docs/bfs-model.md lists where the model departs from BFS.
 * @{
 */

/* Each \fn line stays one line. */
// clang-format off
/** \fn uint64_t skiplist_sched_deadline_diff(int nice)
 *  \brief The virtual deadline offset of a nice level, in ns.
 *
 *  BFS's prio_deadline_diff(): `prio_ratios[nice + 20] * rr_interval *
 *  (MS_TO_NS(1) / 128)` with `MS_TO_NS(1)` = 2^20: 6.29 ms at nice -20,
 *  41.09 ms at 0, 250.13 ms at 19.
 *  \param nice the nice level (clamped to -20..19)
 *  \return the deadline offset of that nice level, in ns
 *  \complexity O(1) */

/** \fn uint64_t skiplist_sched_longest_deadline_diff(void)
 *  \brief The offset a sticky task carries on other CPUs: nice 19's.
 *  \return `skiplist_sched_deadline_diff(19)`, in ns
 *  \complexity O(1) */

/** \fn bool skiplist_sched_queued(const struct skiplist_sched_task *t)
 *  \brief Whether a task is queued.
 *  \param t the task
 *  \return true when `t` is queued (linked in a runqueue)
 *  \complexity O(1) */

/** \fn size_t skiplist_sched_nr_queued(const struct skiplist_sched *rq)
 *  \brief The number of queued tasks.
 *  \param rq the runqueue
 *  \return the number of queued tasks
 *  \complexity O(1) */

/** \fn unsigned skiplist_sched_class_of(const struct skiplist_sched *rq, const struct skiplist_sched_task *t)
 *  \brief The class a task would be queued as now.
 *
 *  Realtime by policy; ISO unless ISO is refractory (then NORMAL);
 *  IDLEPRIO; else NORMAL/BATCH.
 *  \param rq the runqueue (whether ISO is refractory)
 *  \param t  the task
 *  \return the `enum skiplist_sched_class` value `t` would be queued as
 *          now
 *  \complexity O(1) */

/** \fn uint64_t skiplist_sched_key_of(const struct skiplist_sched *rq, const struct skiplist_sched_task *t)
 *  \brief The key a task would be queued with now, without the sticky offset.
 *
 *  Smaller keys run first. Wake-up preemption is
 *  `skiplist_sched_can_preempt()`'s business: it compares priorities and
 *  deadlines as BFS does, not keys.
 *  \param rq the runqueue
 *  \param t  the task
 *  \return the queue key `t` would get now, without the sticky offset
 *  \complexity O(1) */

/** \fn struct skiplist_sched_task *skiplist_sched_sticky(const struct skiplist_sched *rq, unsigned cpu)
 *  \brief A CPU's sticky task.
 *  \param rq  the runqueue
 *  \param cpu the CPU
 *  \return the CPU's sticky task, or NULL (also for `cpu` >= `nr_cpus`)
 *  \complexity O(1) */

/** \fn int skiplist_sched_task_init(struct skiplist_sched_task *t, int policy, int rt_prio, int nice)
 *  \brief Sets a task up: policy, realtime priority, nice.
 *
 *  The task gets a full slice and no deadline yet (its first enqueue
 *  gives it one), every CPU allowed, not sticky.
 *  \param t       the task to set up
 *  \param policy  an `enum skiplist_sched_policy` value: FIFO, RR, ISO,
 *                 NORMAL, BATCH, IDLEPRIO
 *  \param rt_prio 1..99 for `SKIPLIST_SCHED_FIFO` and `SKIPLIST_SCHED_RR`,
 *                 0 for the others
 *  \param nice    -20..19
 *  \retval 0       done
 *  \retval -EINVAL `t` NULL or a value out of range; `t` untouched
 *  \complexity O(NR_CPUS/64) */

/** \fn int skiplist_sched_cpu_allow(struct skiplist_sched_task *t, unsigned cpu, bool allow)
 *  \brief Allows or forbids one CPU in a task's affinity mask.
 *
 *  Allowed on a queued task: it only changes which CPUs may pick it.
 *  \param t     the task
 *  \param cpu   the CPU, below `SKIPLIST_SCHED_NR_CPUS`
 *  \param allow true to allow, false to forbid
 *  \retval 0       done
 *  \retval -EINVAL `cpu` out of range; the mask unchanged
 *  \complexity O(1) */

/** \fn void skiplist_sched_cpu_none(struct skiplist_sched_task *t)
 *  \brief Clears a task's whole affinity mask.
 *
 *  Then allow CPUs one by one. A task with an empty mask can still be
 *  queued (`skiplist_sched_enqueue()` returns 0), but no CPU ever picks
 *  it and `skiplist_sched_preempt_cpu()` returns -1 for it;
 *  `skiplist_sched_dequeue()` takes it back.
 *  \param t the task
 *  \complexity O(NR_CPUS/64) */

/** \fn bool skiplist_sched_cpu_allowed(const struct skiplist_sched_task *t, unsigned cpu)
 *  \brief Whether a task may run on a CPU.
 *  \param t   the task
 *  \param cpu the CPU
 *  \return true when `t` may run on `cpu` (false for `cpu` out of range)
 *  \complexity O(1) */

/** \fn int skiplist_sched_init(struct skiplist_sched *rq, unsigned nr_cpus, const struct skiplist_allocator *a, uint64_t seed)
 *  \brief Sets up a runqueue.
 *
 *  The ISO limit starts at 70% over 5 s (`SKIPLIST_SCHED_ISO_CPU`,
 *  `SKIPLIST_SCHED_ISO_PERIOD_S`), the sticky rule at
 *  `SKIPLIST_SCHED_STICKY_REAL`.
 *  \param rq      the runqueue to set up (about 9 KiB with 1024 CPUs: make
 *                 it static or allocate it)
 *  \param nr_cpus CPUs, 1..`SKIPLIST_SCHED_NR_CPUS`
 *  \param a       node allocator, as for `name_init()`; NULL for the
 *                 engine's default pooled one
 *  \param seed    mixed with the wall clock, the process CPU clock, the
 *                 runqueue's address and a process-wide counter into the
 *                 seed of the index heights. Heights only affect speed:
 *                 every answer depends on keys and FIFO order alone
 *  \retval 0       done
 *  \retval -EINVAL `rq` NULL, `nr_cpus` out of range, or `a` without
 *                  `alloc` or `free`; nothing allocated
 *  \retval -ENOMEM the queue could not be allocated
 *  \complexity O(NR_CPUS) */

/** \fn void skiplist_sched_destroy(struct skiplist_sched *rq)
 *  \brief Frees a runqueue's memory; tasks still queued are unlinked.
 *
 *  Tasks still queued are unlinked (`skiplist_sched_queued()` false, not
 *  sticky), never freed: they belong to the caller.
 *  \param rq the runqueue
 *  \complexity O(n) */

/** \fn void skiplist_sched_advance(struct skiplist_sched *rq, uint64_t ns)
 *  \brief Advances the runqueue's clock.
 *
 *  Time is the caller's: advance the clock before charging a task
 *  (`skiplist_sched_deschedule()` with the time it ran); deadlines are
 *  measured on it.
 *  \param rq the runqueue
 *  \param ns nanoseconds to add to its clock (niffies)
 *  \complexity O(1) */

/** \fn int skiplist_sched_set_scaling(struct skiplist_sched *rq, unsigned cpu, bool scaling)
 *  \brief Marks a CPU as scaling its frequency down, or not.
 *
 *  A CPU scaling its frequency down never takes another CPU's sticky
 *  task.
 *  \param rq      the runqueue
 *  \param cpu     the CPU
 *  \param scaling true while it scales its frequency down
 *  \retval 0       done
 *  \retval -EINVAL `cpu` >= `nr_cpus`
 *  \complexity O(1) */

/** \fn int skiplist_sched_set_iso(struct skiplist_sched *rq, unsigned percent, uint64_t period_ticks)
 *  \brief Sets the share of all CPUs that ISO tasks may take.
 *  \param rq           the runqueue
 *  \param percent      share of all CPUs ISO tasks may take, 0..100
 *  \param period_ticks the accounting window in ticks; 0 for BFS's
 *                      ISO_PERIOD, 5 * HZ * nr_cpus + 1
 *  \retval 0       done
 *  \retval -EINVAL `percent` above 100, or a window of one tick (BFS's
 *                  decay, usage / period + 1 per tick, would take more
 *                  than the usage; BFS's own window is never under 6
 *                  ticks)
 *  \complexity O(1) */

/** \fn int skiplist_sched_set_sticky_rule(struct skiplist_sched *rq, int rule)
 *  \brief Chooses the own-CPU sticky test.
 *
 *  Chooses the own-CPU sticky test: `SKIPLIST_SCHED_STICKY_REAL` (the
 *  default: the sticky task's real, un-offset key) or
 *  `SKIPLIST_SCHED_STICKY_PATCH` (the patch's code as written: its
 *  deadline - 250 ms against the first task's deadline). Takes effect at
 *  the next pick; docs/bfs-model.md argues for the default.
 *  \param rq   the runqueue
 *  \param rule an `enum skiplist_sched_sticky_rule` value
 *  \retval 0       done
 *  \retval -EINVAL an unknown rule
 *  \complexity O(1) */

/** \fn int skiplist_sched_enqueue(struct skiplist_sched *rq, struct skiplist_sched_task *t)
 *  \brief Wakes a task up: queues it.
 *
 *  Queues `t` with its current deadline: a sleeper keeps the one it had,
 *  as in BFS; a fresh task gets niffies + its nice's difference. Never
 *  enqueue a running task: it would be queued while it runs.
 *  \param rq the runqueue
 *  \param t  the task waking up
 *  \retval 0       queued
 *  \retval -EINVAL `t` NULL
 *  \retval -EEXIST `t` is already queued, here or in another runqueue
 *  \retval -ENOMEM nothing changed
 *  \complexity O(log n) */

/** \fn int skiplist_sched_dequeue(struct skiplist_sched *rq, struct skiplist_sched_task *t)
 *  \brief Takes a queued task off the queue.
 *
 *  For a task that sleeps or exits while queued; a sticky task stops
 *  being sticky.
 *  \param rq the runqueue
 *  \param t  the queued task
 *  \retval 0       dequeued
 *  \retval -EINVAL `t` NULL
 *  \retval -ENOENT `t` is not queued in `rq` (in none, running, or in
 *                  another runqueue); nothing changed
 *  \complexity O(KPN), no search */

/** \fn struct skiplist_sched_task *skiplist_sched_pick(struct skiplist_sched *rq, unsigned cpu)
 *  \brief Picks the task a CPU runs next, and dequeues it.
 *
 *  BFS's earliest_deadline_task() as the patch wrote it: the first task
 *  in key order allowed on `cpu`, skipping other CPUs' sticky tasks while
 *  `cpu` scales down; then `cpu`'s own sticky task, if allowed there, is
 *  taken instead when the sticky rule says so (by default when its real,
 *  un-offset key is smaller, or equal and queued earlier). Picking a
 *  realtime task unsticks `cpu`'s sticky task. The task picked is
 *  dequeued and remembers `cpu`.
 *  \param rq  the runqueue
 *  \param cpu the CPU that schedules
 *  \return the task `cpu` runs next, or NULL when no queued task may run
 *          there or `cpu` >= `nr_cpus`
 *  \complexity O(1) when the first task may run on `cpu`; otherwise
 *              O(tasks skipped) */

/** \fn int skiplist_sched_deschedule(struct skiplist_sched *rq, unsigned cpu, struct skiplist_sched_task *t, uint64_t ran_ns, bool runnable)
 *  \brief The running task leaves its CPU: accounting, requeue, sticky hand-over.
 *
 *  BFS's schedule() for prev; the caller advanced the clock. The slice
 *  is charged unless `t` is FIFO; a spent slice (less than
 *  `SKIPLIST_SCHED_RESCHED_NS` left), and any SCHED_BATCH slice, is
 *  refilled and the deadline renewed to niffies + its nice's difference
 *  (check_deadline()). When runnable, `t` is queued again and, while
 *  `cpu` is still in its affinity mask, the sticky hand-over runs
 *  (swap_sticky()): `cpu`'s previous sticky task is unstuck (re-keyed
 *  without the offset) and `t`, unless realtime, becomes `cpu`'s sticky
 *  task. When not runnable (it sleeps) only the accounting is done.
 *  \param rq       the runqueue
 *  \param cpu      the CPU `t` ran on
 *  \param t        the task leaving it
 *  \param ran_ns   how long `t` ran since it was picked
 *  \param runnable true when `t` is still runnable (queued again), false
 *                  when it sleeps
 *  \retval 0       done
 *  \retval -EINVAL `t` NULL or `cpu` >= `nr_cpus`
 *  \retval -EEXIST `t` is queued, here or in another runqueue (it was not
 *                  running)
 *  \retval -ENOMEM nothing changed, `t` not queued
 *  \complexity O(log n) */

/** \fn int skiplist_sched_tick(struct skiplist_sched *rq, unsigned cpu, struct skiplist_sched_task *curr)
 *  \brief One scheduler tick on a CPU: ISO accounting.
 *
 *  BFS's task_running_tick() and no_iso_tick(). The tick counts 100
 *  towards the ISO limit when `curr` runs as realtime, or has the ISO
 *  policy while ISO is not refractory (up to 100 * period - 100); any
 *  other tick takes usage / period + 1 off it. When `curr` has the ISO
 *  policy, usage above iso_cpu% of the window makes ISO refractory (ISO
 *  tasks queue as NORMAL); usage below (iso_cpu * 115 / 128)% (62% of it
 *  for 70) ends that. If `curr` then runs as ISO while ISO is refractory,
 *  its slice is zeroed, so that its deschedule refills it with a new
 *  deadline.
 *  \param rq   the runqueue
 *  \param cpu  the CPU that ticks
 *  \param curr the task running there, or NULL when idle
 *  \retval 1       `curr` ran as ISO past the limit: deschedule it
 *  \retval 0       nothing to do
 *  \retval -EINVAL `cpu` >= `nr_cpus`; the ISO accounting unchanged
 *  \complexity O(1) */

/** \fn int skiplist_sched_set_nice(struct skiplist_sched *rq, struct skiplist_sched_task *t, int nice)
 *  \brief Changes a task's nice level.
 *
 *  BFS's set_user_nice(). A realtime task only records the value.
 *  Otherwise the deadline moves by the difference of the two levels'
 *  deadline offsets (adjust_deadline(); a task that never had a deadline
 *  gets one at its first wake-up instead), and a queued task is re-keyed
 *  behind its new equals; when the nice level drops, the wake-up
 *  preemption test BFS then runs clears a queued task's stickiness. The
 *  caller decides preemption with `skiplist_sched_can_preempt()`.
 *  \param rq   the runqueue
 *  \param t    the task, queued or not
 *  \param nice the new nice level, -20..19
 *  \retval 0       done
 *  \retval -EINVAL `t` NULL or `nice` out of range
 *  \retval -ENOENT `t` is queued in another runqueue; nothing changed
 *  \retval -ENOMEM re-keying a queued task failed; nothing changed, `t`
 *                  stays queued as it was
 *  \complexity O(log n) */

/** \fn int skiplist_sched_set_policy(struct skiplist_sched *rq, struct skiplist_sched_task *t, int policy, int rt_prio, int nice)
 *  \brief Changes a task's policy, realtime priority and nice level.
 *
 *  BFS's sched_setscheduler() when policy or rt_prio change: a queued
 *  task is re-keyed for its new class, goes behind its new equals and
 *  stops being sticky (as BFS's try_preempt() clears the flag); a
 *  running one runs as its new class. Then `skiplist_sched_set_nice()`
 *  when the nice level changes.
 *  \param rq      the runqueue
 *  \param t       the task, queued or not
 *  \param policy  the new `enum skiplist_sched_policy` value
 *  \param rt_prio the new realtime priority (as in
 *                 `skiplist_sched_task_init()`)
 *  \param nice    the new nice level
 *  \retval 0       done
 *  \retval -EINVAL `t` NULL or a value `skiplist_sched_task_init()`
 *                  refuses
 *  \retval -ENOENT `t` is queued in another runqueue; nothing changed
 *  \retval -ENOMEM nothing changed
 *  \complexity O(log n) */

/** \fn bool skiplist_sched_can_preempt(const struct skiplist_sched *rq, const struct skiplist_sched_task *p, const struct skiplist_sched_task *curr)
 *  \brief Whether a task just queued preempts the one running on a CPU.
 *
 *  BFS's can_preempt() behind try_preempt(). An idle CPU is always
 *  preempted; otherwise an IDLEPRIO task never preempts, a better
 *  priority always does (realtime by rt_prio, then ISO, NORMAL/BATCH,
 *  IDLEPRIO) and an equal one, realtime included, when `p`'s deadline is
 *  strictly earlier.
 *  \param rq   the runqueue
 *  \param p    the task just queued (woken, forked, re-niced)
 *  \param curr the task running on the CPU considered, NULL when idle
 *  \return true when `p` preempts `curr`
 *  \complexity O(1) */

/** \fn int skiplist_sched_preempt_cpu(const struct skiplist_sched *rq, const struct skiplist_sched_task *p, const struct skiplist_sched_task *const *curr)
 *  \brief The CPU to reschedule for a task just queued.
 *
 *  BFS's try_preempt(): an idle CPU in `p`'s mask first (`p`'s last CPU,
 *  else the lowest; BFS ranks idle CPUs by cache distance). Else, unless
 *  `p` is IDLEPRIO, the allowed CPU running the worst priority, the
 *  latest deadline among equals (the lowest CPU among exact ties), if `p`
 *  can preempt it.
 *  \param rq   the runqueue
 *  \param p    the task just queued
 *  \param curr `curr[c]` is the task running on CPU c (NULL when idle),
 *              for every c below `nr_cpus`
 *  \return the CPU to reschedule for `p`, or -1 for none
 *  \complexity O(nr_cpus) */

/** \fn int skiplist_sched_yield(struct skiplist_sched *rq, unsigned cpu, struct skiplist_sched_task *t, uint64_t ran_ns, struct skiplist_sched_task **next)
 *  \brief The running task yields its CPU.
 *
 *  BFS's sched_yield(), which is schedule() with `t` still runnable: `t`
 *  is descheduled (its slice and deadline stay unless spent) and `*next`
 *  receives `cpu`'s pick. On every error `*next` is untouched.
 *  \param rq     the runqueue
 *  \param cpu    the CPU `t` runs on
 *  \param t      the task that yields
 *  \param ran_ns how long `t` ran since it was picked
 *  \param next   receives `cpu`'s pick (`t` again when it still comes
 *                first)
 *  \retval 0       done
 *  \retval -EINVAL `next` NULL, or as `skiplist_sched_deschedule()`
 *  \retval -EEXIST as `skiplist_sched_deschedule()`
 *  \retval -ENOMEM as `skiplist_sched_deschedule()`
 *  \complexity O(log n) */

/** \fn int skiplist_sched_fork(struct skiplist_sched *rq, struct skiplist_sched_task *parent, uint64_t ran_ns, struct skiplist_sched_task *child)
 *  \brief The running task forks a child.
 *
 *  BFS's sched_fork(). `child` becomes a task of `parent`'s policy,
 *  rt_prio, nice and affinity, not queued, not sticky, with `parent`'s
 *  deadline. A FIFO parent's child copies its slice. Otherwise, when at
 *  least 2 * `SKIPLIST_SCHED_RESCHED_NS` of `parent`'s slice is left,
 *  `parent` keeps half of what is left and `child` gets that half; else
 *  `parent`'s slice is spent (its deschedule refills it) and `child`
 *  starts with a full slice and a deadline of its own, niffies + its
 *  nice's difference.
 *  \param rq     the runqueue
 *  \param parent the running task that forks
 *  \param ran_ns how long `parent` ran since it was picked (the figure
 *                its deschedule will be given)
 *  \param child  the new task (set up here; wake it with
 *                `skiplist_sched_enqueue()`)
 *  \retval 1       `parent`'s slice is spent: deschedule it
 *  \retval 0       done
 *  \retval -EINVAL `rq`, `parent` or `child` NULL, or `parent` and
 *                  `child` the same task
 *  \retval -EEXIST `child` is queued; `child` untouched
 *  \complexity O(NR_CPUS/64) */

/** \fn int skiplist_sched_check(const struct skiplist_sched *rq, char *why, size_t len)
 *  \brief Verifies every invariant of the runqueue (for tests and debugging).
 *
 *  The engine's check (`name_check()`) and this header's invariants:
 *  each queued task's key matches its class, deadline and stickiness;
 *  equal keys in seq order; sticky slots and tasks point at each other
 *  and are queued.
 *  \param rq  the runqueue
 *  \param why where the first violation is described; may be NULL
 *  \param len size of `why`
 *  \retval 0       every invariant holds
 *  \retval -EINVAL one does not; `why` says which
 *  \complexity O(n + nr_cpus) */

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
