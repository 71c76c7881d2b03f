/*
 * Walks that resume by searching again, under writers that replace what
 * they have just crossed.
 *
 * An overlap walk over [lo, hi] may start with an extent that covers lo
 * from below. When that walk leaves a leaf it searches again from the
 * last start it returned, and if a writer has meanwhile replaced the
 * covering extent by a smaller one lying wholly below lo, the search
 * finds that one first: an extent outside the range (issue #27, item 0,
 * found by a user's checker a few times per 10^7 walks). Here one writer
 * toggles exactly that replacement and another churns the extents just
 * above lo, so that the covering extent often ends its leaf, while
 * readers walk [lo, hi] and pause between steps. Every answer must
 * overlap [lo, hi], starts must increase, and each extent present for
 * the whole walk (the permanent ones inside the range) must be seen.
 */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier, clock_gettime */

#include <criterion/criterion.h>

#include "rcu_common.h"
#include "rcu_ops.h"

SKIPLIST_RCU_EXTENT_DEFINE(wx_tiny, struct rext, uint64_t, start, size, 2, 4, 1)
SKIPLIST_RCU_EXTENT_DEFINE(wx_def, struct rext, uint64_t, start, size,
                           SKIPLIST_RCU_DEFAULTS)

#define W_LO 1000000u
#define W_HI 1004095u
#define W_PERM 20u  /* permanent extents inside [W_LO, W_HI] */
#define W_STEP 200u /* their spacing, from W_LO + W_STEP */
#define W_BELOW 40u /* permanent extents below W_LO - 100 */
#define W_CHURN 6u  /* small extents the second writer toggles */
#define W_READERS 2u

/* The covering extent and its small replacement (issue #27's figures). */
static struct rext w_cover = {999961u, 1000032u - 999961u + 1u, 1};
static struct rext w_small = {999993u, 1u, 2};
static struct rext w_perm[W_PERM], w_below[W_BELOW], w_churn[W_CHURN];

struct walk_run {
    void *sl;
    int (*insert)(void *sl, struct rext *e);
    int (*erase)(void *sl, struct rext *e);
    struct rext *(*first)(void *it, void *sl, uint64_t lo, uint64_t hi);
    struct rext *(*next)(void *it);
    _Atomic bool stop;
    _Atomic unsigned long walks, bad;
    pthread_barrier_t go;
    double seconds;
};

static int tiny_insert(void *sl, struct rext *e)
{
    return wx_tiny_insert((struct wx_tiny *)sl, e, NULL);
}
static int tiny_erase(void *sl, struct rext *e)
{
    return wx_tiny_erase((struct wx_tiny *)sl, e);
}
static struct rext *tiny_first(void *it, void *sl, uint64_t lo, uint64_t hi)
{
    return wx_tiny_iter_overlap((struct wx_tiny_iter *)it, (struct wx_tiny *)sl,
                                lo, hi);
}
static struct rext *tiny_next(void *it)
{
    return wx_tiny_iter_next_overlap((struct wx_tiny_iter *)it);
}
static int def_insert(void *sl, struct rext *e)
{
    return wx_def_insert((struct wx_def *)sl, e, NULL);
}
static int def_erase(void *sl, struct rext *e)
{
    return wx_def_erase((struct wx_def *)sl, e);
}
static struct rext *def_first(void *it, void *sl, uint64_t lo, uint64_t hi)
{
    return wx_def_iter_overlap((struct wx_def_iter *)it, (struct wx_def *)sl,
                               lo, hi);
}
static struct rext *def_next(void *it)
{
    return wx_def_iter_next_overlap((struct wx_def_iter *)it);
}

static void w_make_extents(void)
{
    for (unsigned i = 0; i < W_PERM; i++)
        w_perm[i] = (struct rext){W_LO + W_STEP * (i + 1), 50, 100 + i};
    for (unsigned i = 0; i < W_BELOW; i++)
        w_below[i] =
            (struct rext){W_LO - 100 - 40 * (W_BELOW - i), 10, 200 + i};
    /* Between the covering extent's end and the first permanent one. */
    for (unsigned i = 0; i < W_CHURN; i++)
        w_churn[i] = (struct rext){1000040u + 20 * i, 5, 300 + i};
}

static bool w_overlaps(const struct rext *e)
{
    return e->start <= W_HI && e->start + e->size - 1 >= W_LO;
}

/* One walk: every answer in range, starts increasing, the permanent
 * extents all seen. Pauses between steps let writers act mid-walk. */
static void w_walk(struct walk_run *run, struct tc_rng *rng)
{
    union {
        struct wx_tiny_iter a;
        struct wx_def_iter b;
    } it;
    unsigned seen = 0;
    uint64_t prev = 0;
    bool first = true;
    skiplist_rcu_read_lock();
    for (struct rext *e = run->first(&it, run->sl, W_LO, W_HI); e;
         e = run->next(&it)) {
        if (!w_overlaps(e) || (!first && e->start <= prev)) {
            if (atomic_fetch_add(&run->bad, 1) == 0)
                rt_fail("walk [%u, %u]: [%llu, %llu] after start %llu", W_LO,
                        W_HI, (unsigned long long)e->start,
                        (unsigned long long)(e->start + e->size - 1),
                        (unsigned long long)prev);
        }
        if (e >= w_perm && e < w_perm + W_PERM)
            seen++;
        prev = e->start;
        /* Always after the first answer: the swap then often lands
         * between it and the search past its leaf. */
        if (first)
            sched_yield();
        else
            rt_maybe_yield(rng, 3);
        first = false;
    }
    skiplist_rcu_read_unlock();
    rt_quiescent();
    if (seen != W_PERM && atomic_fetch_add(&run->bad, 1) == 0)
        rt_fail("walk saw %u of the %u permanent extents", seen, W_PERM);
    atomic_fetch_add(&run->walks, 1);
}

static void *w_reader(void *arg)
{
    struct walk_run *run = (struct walk_run *)arg;
    struct tc_rng rng;
    tc_rng_init(&rng, (uint64_t)(uintptr_t)&rng);
    rcu_register_thread();
    rt_offline();
    pthread_barrier_wait(&run->go);
    rt_online();
    while (!atomic_load(&run->stop))
        w_walk(run, &rng);
    rt_offline();
    rcu_unregister_thread();
    return NULL;
}

/* The covering extent, then the small one below lo in its place, and
 * back. Elements are reused as they are: readers only read their
 * unchanging fields. */
static void *w_swapper(void *arg)
{
    struct walk_run *run = (struct walk_run *)arg;
    rcu_register_thread();
    rt_offline();
    pthread_barrier_wait(&run->go);
    rt_online();
    while (!atomic_load(&run->stop)) {
        if (run->erase(run->sl, &w_cover) || run->insert(run->sl, &w_small) ||
            run->erase(run->sl, &w_small) || run->insert(run->sl, &w_cover))
            rt_fail("swapper: a write failed");
        rt_quiescent();
    }
    rt_offline();
    rcu_unregister_thread();
    return NULL;
}

/* Small extents just above the covering one, in and out: the leaf that
 * holds the covering extent splits and merges under the walks. */
static void *w_churner(void *arg)
{
    struct walk_run *run = (struct walk_run *)arg;
    struct tc_rng rng;
    tc_rng_init(&rng, 77);
    rcu_register_thread();
    rt_offline();
    pthread_barrier_wait(&run->go);
    rt_online();
    bool in[W_CHURN] = {false};
    while (!atomic_load(&run->stop)) {
        unsigned i = (unsigned)tc_below(&rng, W_CHURN);
        int rc = in[i] ? run->erase(run->sl, &w_churn[i])
                       : run->insert(run->sl, &w_churn[i]);
        if (rc)
            rt_fail("churner: a write failed (%d)", rc);
        in[i] = !in[i];
        rt_quiescent();
    }
    for (unsigned i = 0; i < W_CHURN; i++)
        if (in[i])
            (void)run->erase(run->sl, &w_churn[i]);
    rt_offline();
    rcu_unregister_thread();
    return NULL;
}

static void w_run(struct walk_run *run)
{
    pthread_t th[W_READERS + 2];
    w_make_extents();
    int rc = run->insert(run->sl, &w_cover);
    for (unsigned i = 0; i < W_PERM; i++)
        rc |= run->insert(run->sl, &w_perm[i]);
    for (unsigned i = 0; i < W_BELOW; i++)
        rc |= run->insert(run->sl, &w_below[i]);
    if (rc)
        rt_fail("the prefill failed");
    atomic_store(&run->stop, false);
    pthread_barrier_init(&run->go, NULL, W_READERS + 3);
    for (unsigned i = 0; i < W_READERS; i++)
        pthread_create(&th[i], NULL, w_reader, run);
    pthread_create(&th[W_READERS], NULL, w_swapper, run);
    pthread_create(&th[W_READERS + 1], NULL, w_churner, run);
    rt_offline();
    pthread_barrier_wait(&run->go);
    double t0 = rt_now();
    while (rt_now() - t0 < run->seconds && !atomic_load(&run->bad)) {
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    atomic_store(&run->stop, true);
    for (unsigned i = 0; i < W_READERS + 2; i++)
        pthread_join(th[i], NULL);
    rt_online();
    pthread_barrier_destroy(&run->go);
    fprintf(stderr, "rcu walks: %lu overlap walks in %.2f s, %lu bad\n",
            atomic_load(&run->walks), rt_now() - t0, atomic_load(&run->bad));
}

static void wt_setup(void)
{
    rcu_register_thread();
    rt_failure_reset();
}

static void wt_teardown(void)
{
    rcu_unregister_thread();
}

TestSuite(rcu_walks, .init = wt_setup, .fini = wt_teardown, .timeout = 120);

/* Scaled like the other suites: TEST_SCALE lengthens, sanitizers shorten
 * (the seconds stay at least a quarter of a second). */
static double w_seconds(void)
{
    double s = 2.0 * (double)rt_ops(800) / 800.0;
    return s < 0.25 ? 0.25 : s;
}

Test(rcu_walks, overlap_kpn2)
{
    struct wx_tiny sl;
    cr_assert_eq(wx_tiny_init(&sl, NULL, tc_seed("rcu_walks/kpn2")), 0);
    struct walk_run run = {.sl = &sl,
                           .insert = tiny_insert,
                           .erase = tiny_erase,
                           .first = tiny_first,
                           .next = tiny_next,
                           .seconds = w_seconds()};
    w_run(&run);
    wx_tiny_destroy(&sl, NULL, NULL);
    cr_assert_eq(rt_failures(), 0, "%s", rt_failure_msg());
}

Test(rcu_walks, overlap_defaults)
{
    struct wx_def sl;
    cr_assert_eq(wx_def_init(&sl, NULL, tc_seed("rcu_walks/defaults")), 0);
    struct walk_run run = {.sl = &sl,
                           .insert = def_insert,
                           .erase = def_erase,
                           .first = def_first,
                           .next = def_next,
                           .seconds = w_seconds()};
    w_run(&run);
    wx_def_destroy(&sl, NULL, NULL);
    cr_assert_eq(rt_failures(), 0, "%s", rt_failure_msg());
}
