/*
 * skiplist_sched.h paths the other suites leave unrun (make coverage
 * found them): skiplist_sched_check() against broken runqueues (each
 * diagnosis fires for its own planted break, and the queue checks clean
 * once it is undone), keys saturating at the top of their class, an
 * affinity bit cleared, ISO's default window, BFS's prio numbers of ISO and
 * IDLEPRIO in preemption, try_preempt's choice of p's own idle CPU, and a
 * FIFO parent's fork.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "skiplist_sched.h"
#include "test_common.h"

static struct skiplist_sched *cs_new(unsigned nr_cpus)
{
    struct skiplist_sched *rq = (struct skiplist_sched *)malloc(sizeof(*rq));
    cr_assert_not_null(rq);
    cr_assert_eq(skiplist_sched_init(rq, nr_cpus, NULL, 1), 0);
    return rq;
}

static void cs_free(struct skiplist_sched *rq)
{
    skiplist_sched_destroy(rq);
    free(rq);
}

static void cs_task(struct skiplist_sched_task *t, int policy, int rt, int nice)
{
    memset(t, 0, sizeof(*t));
    cr_assert_eq(skiplist_sched_task_init(t, policy, rt, nice), 0);
}

static void cs_clean(const struct skiplist_sched *rq)
{
    char why[256] = "";
    cr_assert_eq(skiplist_sched_check(rq, why, sizeof why), 0, "%s", why);
}

/* check() of rq must fail with a message containing want. */
static void cs_broken(const struct skiplist_sched *rq, const char *want)
{
    char why[256] = "";
    cr_expect_eq(skiplist_sched_check(rq, why, sizeof why), -EINVAL);
    cr_expect(strstr(why, want) != NULL, "\"%s\", want \"%s\"", why, want);
    cr_expect_eq(skiplist_sched_check(rq, NULL, 0), -EINVAL,
                 "without room for the message too");
}

/* ----------------------------------------------------- check() breaks */

/* Three NORMAL tasks; t[0] ran on CPU 0 and stayed runnable: sticky. */
static struct skiplist_sched *cs_with_sticky(struct skiplist_sched_task *t)
{
    struct skiplist_sched *rq = cs_new(2);
    for (int i = 0; i < 3; i++) {
        cs_task(&t[i], SKIPLIST_SCHED_NORMAL, 0, 0);
        cr_assert_eq(skiplist_sched_enqueue(rq, &t[i]), 0);
        skiplist_sched_advance(rq, 1000000);
    }
    cr_assert(skiplist_sched_pick(rq, 0) == &t[0]);
    cr_assert_eq(skiplist_sched_deschedule(rq, 0, &t[0], 1000, true), 0);
    cr_assert(skiplist_sched_sticky(rq, 0) == &t[0]);
    cs_clean(rq);
    return rq;
}

Test(cov_sched, check_key_not_its_class_and_deadline)
{
    struct skiplist_sched_task t[3];
    struct skiplist_sched *rq = cs_with_sticky(t);
    t[1].deadline += 1; /* the key no longer follows from it */
    cs_broken(rq, "expected");
    t[1].deadline -= 1;
    cs_clean(rq);
    cs_free(rq);
}

Test(cov_sched, check_sticky_task_without_its_slot)
{
    struct skiplist_sched_task t[3];
    struct skiplist_sched *rq = cs_with_sticky(t);
    rq->sticky[0] = NULL;
    cs_broken(rq, "sticky on cpu 0, not its slot");
    rq->sticky[0] = &t[0];
    cs_clean(rq);
    cs_free(rq);
}

Test(cov_sched, check_slot_naming_an_unqueued_task)
{
    struct skiplist_sched_task t[3], idle;
    struct skiplist_sched *rq = cs_with_sticky(t);
    cs_task(&idle, SKIPLIST_SCHED_NORMAL, 0, 0);
    rq->sticky[1] = &idle;
    cs_broken(rq, "cpu 1: sticky task not queued or not ours");
    rq->sticky[1] = NULL;
    cs_clean(rq);
    cs_free(rq);
}

Test(cov_sched, check_equal_keys_out_of_fifo_order)
{
    struct skiplist_sched *rq = cs_new(1);
    struct skiplist_sched_task a, b;
    cs_task(&a, SKIPLIST_SCHED_FIFO, 10, 0);
    cs_task(&b, SKIPLIST_SCHED_FIFO, 10, 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, &a), 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, &b), 0);
    cr_assert_eq(a.key, b.key);
    uint64_t seq = a.seq;
    a.seq = b.seq + 1;
    cs_broken(rq, "task 1: equal keys out of FIFO order");
    a.seq = seq;
    cs_clean(rq);
    cs_free(rq);
}

Test(cov_sched, check_reports_the_engine_first)
{
    struct skiplist_sched_task t[3];
    struct skiplist_sched *rq = cs_with_sticky(t);
    rq->q.sl.count++;
    cs_broken(rq, "count 4 but 3 slots linked");
    rq->q.sl.count--;
    cs_clean(rq);
    cs_free(rq);
}

/* ------------------------------------------------------------- paths */

/* Past 2^61 ns of niffies a deadline no longer fits its class: the key
 * stays at the top of the class (below IDLEPRIO's), FIFO among equals. */
Test(cov_sched, deadline_key_saturates_within_its_class)
{
    struct skiplist_sched *rq = cs_new(1);
    struct skiplist_sched_task a, b, idle;
    cs_task(&a, SKIPLIST_SCHED_NORMAL, 0, 0);
    cs_task(&b, SKIPLIST_SCHED_NORMAL, 0, 0);
    cs_task(&idle, SKIPLIST_SCHED_IDLEPRIO, 0, 0);
    skiplist_sched_advance(rq, SKIPLIST_SCHED_VALUE_MAX);
    cr_assert_eq(skiplist_sched_enqueue(rq, &idle), 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, &a), 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, &b), 0);
    const uint64_t top = ((uint64_t)SKIPLIST_SCHED_CLASS_DEADLINE
                          << SKIPLIST_SCHED_CLASS_SHIFT) |
                         SKIPLIST_SCHED_VALUE_MAX;
    cr_assert_eq(a.key, top);
    cr_assert_eq(b.key, top);
    cr_assert_lt(a.key, idle.key);
    cs_clean(rq);
    cr_assert(skiplist_sched_pick(rq, 0) == &a);
    cr_assert(skiplist_sched_pick(rq, 0) == &b);
    cr_assert(skiplist_sched_pick(rq, 0) == &idle);
    cs_free(rq);
}

Test(cov_sched, cpu_allow_false_keeps_the_task_off_that_cpu)
{
    struct skiplist_sched *rq = cs_new(2);
    struct skiplist_sched_task t;
    cs_task(&t, SKIPLIST_SCHED_NORMAL, 0, 0);
    cr_assert_eq(skiplist_sched_cpu_allow(&t, 0, false), 0);
    cr_assert(!skiplist_sched_cpu_allowed(&t, 0));
    cr_assert(skiplist_sched_cpu_allowed(&t, 1));
    cr_assert_eq(skiplist_sched_enqueue(rq, &t), 0);
    cr_assert_null(skiplist_sched_pick(rq, 0));
    cr_assert(skiplist_sched_pick(rq, 1) == &t);
    cr_assert_eq(skiplist_sched_cpu_allow(&t, 0, true), 0);
    cr_assert(skiplist_sched_cpu_allowed(&t, 0));
    cs_free(rq);
}

/* Period 0 asks for BFS's window, 5 s of ticks on every CPU plus one. */
Test(cov_sched, set_iso_period_zero_is_the_default_window)
{
    struct skiplist_sched *rq = cs_new(4);
    cr_assert_eq(skiplist_sched_set_iso(rq, 30, 77), 0);
    cr_assert_eq(rq->iso_period, 77u);
    cr_assert_eq(skiplist_sched_set_iso(rq, 30, 0), 0);
    cr_assert_eq(rq->iso_period, 5u * SKIPLIST_SCHED_HZ * 4u + 1u);
    cs_free(rq);
}

/* BFS's prio: ISO (100) above NORMAL (101) above IDLEPRIO (102). */
Test(cov_sched, can_preempt_ranks_iso_and_idleprio)
{
    struct skiplist_sched *rq = cs_new(1);
    struct skiplist_sched_task iso, norm, idle;
    cs_task(&iso, SKIPLIST_SCHED_ISO, 0, 0);
    cs_task(&norm, SKIPLIST_SCHED_NORMAL, 0, 0);
    cs_task(&idle, SKIPLIST_SCHED_IDLEPRIO, 0, 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, &iso), 0); /* classes set */
    cr_assert_eq(skiplist_sched_enqueue(rq, &norm), 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, &idle), 0);
    cr_assert(skiplist_sched_can_preempt(rq, &iso, &norm));
    cr_assert(!skiplist_sched_can_preempt(rq, &norm, &iso));
    cr_assert(skiplist_sched_can_preempt(rq, &norm, &idle));
    cr_assert(skiplist_sched_can_preempt(rq, &iso, &idle));
    cr_assert(!skiplist_sched_can_preempt(rq, &idle, &norm));
    cs_free(rq);
}

/* An idle CPU: p's last CPU when it is idle and allowed, else the lowest
 * idle allowed one; a CPU p may not use is skipped when choosing whom to
 * preempt; an IDLEPRIO task preempts nobody. */
Test(cov_sched, preempt_cpu_prefers_p_own_idle_cpu)
{
    struct skiplist_sched *rq = cs_new(3);
    struct skiplist_sched_task run0, run1, run2, p, idle;
    cs_task(&run0, SKIPLIST_SCHED_IDLEPRIO, 0, 0);
    cs_task(&run1, SKIPLIST_SCHED_IDLEPRIO, 0, 0);
    cs_task(&run2, SKIPLIST_SCHED_IDLEPRIO, 0, 0);
    run2.deadline = run1.deadline; /* a tie: the lower CPU wins */
    cs_task(&p, SKIPLIST_SCHED_NORMAL, 0, 0);
    cs_task(&idle, SKIPLIST_SCHED_IDLEPRIO, 0, 0);
    /* queued once, so each has the class it runs as (sls_prio) */
    struct skiplist_sched_task *all[] = {&run0, &run1, &run2, &p, &idle};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        cr_assert_eq(skiplist_sched_enqueue(rq, all[i]), 0);
        cr_assert_eq(skiplist_sched_dequeue(rq, all[i]), 0);
    }
    const struct skiplist_sched_task *curr[3] = {&run0, NULL, NULL};
    p.cpu = 2;
    cr_assert_eq(skiplist_sched_preempt_cpu(rq, &p, curr), 2);
    p.cpu = 0; /* busy: the lowest idle one */
    cr_assert_eq(skiplist_sched_preempt_cpu(rq, &p, curr), 1);
    curr[1] = &run1;
    curr[2] = &run2;
    cr_assert_eq(skiplist_sched_cpu_allow(&p, 0, false), 0);
    /* all busy with IDLEPRIO: the first allowed one, CPU 0 skipped */
    cr_assert_eq(skiplist_sched_preempt_cpu(rq, &p, curr), 1);
    cr_assert_eq(skiplist_sched_preempt_cpu(rq, &idle, curr), -1);
    cs_free(rq);
}

/* A FIFO task's child takes its slice whole (FIFO slices do not run out);
 * the parent's is untouched and 0 says no deschedule is due. */
Test(cov_sched, fork_of_a_fifo_parent_copies_the_slice)
{
    struct skiplist_sched *rq = cs_new(1);
    struct skiplist_sched_task parent, child;
    cs_task(&parent, SKIPLIST_SCHED_FIFO, 50, 0);
    cs_task(&child, SKIPLIST_SCHED_NORMAL, 0, 0);
    parent.time_slice = 12345;
    cr_assert_eq(skiplist_sched_fork(rq, &parent, 999999999u, &child), 0);
    cr_assert_eq(parent.time_slice, 12345);
    cr_assert_eq(child.time_slice, 12345);
    cr_assert_eq(child.policy, SKIPLIST_SCHED_FIFO);
    cr_assert_eq(child.rt_prio, 50);
    cr_assert_eq(child.sticky_cpu, -1);
    cs_free(rq);
}

/* ISO past its limit goes refractory (tick returns 1); idle ticks then
 * decay the usage until it is below the clearing mark and ISO is back:
 * the next ISO tick is not refused. */
Test(cov_sched, idle_ticks_end_the_iso_refractory_period)
{
    struct skiplist_sched *rq = cs_new(1);
    struct skiplist_sched_task iso;
    cs_task(&iso, SKIPLIST_SCHED_ISO, 0, 0);
    cr_assert_eq(skiplist_sched_set_iso(rq, 50, 20), 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, &iso), 0);
    cr_assert(skiplist_sched_pick(rq, 0) == &iso);
    int ticks = 0, rc = 0;
    while ((rc = skiplist_sched_tick(rq, 0, &iso)) == 0 && ticks < 1000)
        ticks++;
    cr_assert_eq(rc, 1, "ISO never hit its limit in %d ticks", ticks);
    cr_assert(rq->iso_refractory);
    uint64_t high = rq->iso_ticks;
    int idle = 0;
    while (rq->iso_refractory && idle < 100000) {
        cr_assert_eq(skiplist_sched_tick(rq, 0, NULL), 0);
        idle++;
    }
    cr_assert(!rq->iso_refractory, "still refractory after %d idle ticks",
              idle);
    cr_assert_lt(rq->iso_ticks, high);
    iso.time_slice = 1000000;
    cr_assert_eq(skiplist_sched_tick(rq, 0, &iso), 0);
    cs_free(rq);
}

/* Under a limit of 1% the clearing mark is 0 (period * (1 * 115 / 128)),
 * so decay alone never ends a refractory period, as in BFS. Usage decays
 * to nothing, the limit is raised, and the next ISO tick, finding no
 * usage to decay, ends the period itself: ISO runs as ISO again. */
Test(cov_sched, raised_iso_limit_ends_a_period_that_decay_could_not)
{
    struct skiplist_sched *rq = cs_new(1);
    struct skiplist_sched_task iso;
    cs_task(&iso, SKIPLIST_SCHED_ISO, 0, 0);
    cr_assert_eq(skiplist_sched_set_iso(rq, 1, 20), 0);
    cr_assert_eq(skiplist_sched_enqueue(rq, &iso), 0);
    cr_assert(skiplist_sched_pick(rq, 0) == &iso);
    int ticks = 0;
    while (skiplist_sched_tick(rq, 0, &iso) == 0 && ticks < 1000)
        ticks++;
    cr_assert(rq->iso_refractory, "ISO never hit its limit");
    for (int i = 0; i < 100000 && rq->iso_ticks; i++)
        cr_assert_eq(skiplist_sched_tick(rq, 0, NULL), 0);
    cr_assert_eq(rq->iso_ticks, 0u);
    cr_assert(rq->iso_refractory, "a 1%% limit's period ended by decay");
    cr_assert_eq(skiplist_sched_set_iso(rq, 50, 20), 0);
    iso.time_slice = 1000000;
    cr_assert_eq(skiplist_sched_tick(rq, 0, &iso), 0);
    cr_assert(!rq->iso_refractory);
    cr_assert_eq(iso.time_slice, 1000000);
    cs_free(rq);
}
