/*
 * Allocation failure, ordered-index face. A fixed operation sequence (from
 * a seed) runs once to count the allocator calls it makes; then it is
 * re-run once for every N in 1..calls with the Nth call failing (and once
 * more with every call from the Nth on failing). Whenever the allocator
 * said no inside a call:
 *   - a mutating call that can fail returns -ENOMEM, and the list is
 *     exactly as before (check() plus a full comparison with the model);
 *   - a call that cannot report failure (erase, pop, clear) still does
 *     its job;
 * and after destroy the allocator holds nothing (zero leaks) and every
 * free matched an allocation (size, level, pointer). Each configuration
 * runs again as a ranked instance (SKIPLIST_RANKED_DEFINE), whose counts
 * must survive the failures too: after every failed call (and every
 * change) rank, rank_of, at, count_range and iter_at agree with the model
 * at every position (mm_rank_compare).
 */
#include <criterion/criterion.h>

#include "test_common.h"
#include "model_map.h"

/* The configurations: instance a_<name> (and its ranked twin a_<name>_rk),
 * test sweep_<test> (and sweep_<test>_ranked), label, KPN, MAXLVL, PSHIFT. */
#define ALLOC_CONFIGS(X)                            \
    X(k1, k1, "k1_l32_p1", 1, 32, 1)                \
    X(k4, k4, "k4_l4_p2", 4, 4, 2)                  \
    X(def, defaults, "defaults", SKIPLIST_DEFAULTS) \
    X(k64, k64, "k64_l32_p1", 64, 32, 1)

#define ALLOC_DEFINE(name, test, label, ...)                            \
    SKIPLIST_DEFINE(a_##name, struct map_item, uint64_t, MAP_ITEM_KEY,  \
                    SKIPLIST_CMP_NUM, __VA_ARGS__)                      \
    MAP_OPS_DEFINE(a_##name, label, false);                             \
    SKIPLIST_RANKED_DEFINE(a_##name##_rk, struct map_item, uint64_t,    \
                           MAP_ITEM_KEY, SKIPLIST_CMP_NUM, __VA_ARGS__) \
    MAP_RANKED_OPS_DEFINE(a_##name##_rk, label " ranked", false);
ALLOC_CONFIGS(ALLOC_DEFINE)

enum { POOL = 260, KEYS = 180, GROW_OPS = 240, MIXED_OPS = 260 };

struct sweep_stats {
    unsigned long runs, enomem, absorbed, ops;
};

#define ACHECK(cond, ...)                                                 \
    cr_assert((cond), "[%s SEED=%" PRIu64 " fail_at=%lu%s op=%zu %s] %s", \
              o->label, seed, fail_n, persistent ? "+" : "", op, what,    \
              __VA_ARGS__)

static void compare(const struct map_ops *o, void *sl,
                    const struct model_map *m, struct map_item **buf, char *why,
                    size_t len)
{
    why[0] = 0;
    if (o->check(sl, why, len) != 0)
        return;
    if (o->count(sl) != m->n) {
        snprintf(why, len, "count %zu, model %zu", o->count(sl), m->n);
        return;
    }
    size_t n = o->loop(sl, MAP_FE_FWD, 0, 0, 0, buf, POOL + 1);
    if (n != m->n) {
        snprintf(why, len, "FOREACH saw %zu, model %zu", n, m->n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        if (buf[i] != m->v[i]) {
            snprintf(why, len, "element %zu differs", i);
            return;
        }
    static void *rbuf[POOL + 1];
    if (o->rank && !mm_rank_compare(o, sl, m, rbuf, why, len))
        return;
}

/*
 * One run of the sequence with allocation number fail_n failing (all from
 * fail_n on when persistent; fail_n 0: none). Returns the allocator calls
 * the run made.
 */
static unsigned long run_seq(const struct map_ops *o, uint64_t seed,
                             unsigned long fail_n, bool persistent,
                             struct sweep_stats *st)
{
    static struct map_item items[POOL];
    static struct map_item *buf[POOL + 1];
    char why[256];
    struct tc_alloc ta;
    struct model_map m;
    struct tc_rng rng;
    void *sl = malloc(o->size);
    size_t op = 0;
    const char *what = "init";
    cr_assert_not_null(sl);
    memset(items, 0, sizeof(items));
    tc_alloc_init(&ta);
    if (persistent)
        tc_alloc_fail_from(&ta, fail_n);
    else
        tc_alloc_fail_at(&ta, fail_n);
    tc_rng_init(&rng, seed);
    mm_init(&m, false);
    st->runs++;

    int rc = o->init(sl, &ta.iface, seed);
    if (ta.failures) {
        ACHECK(rc == -ENOMEM, "init did not report the failed allocation");
        ACHECK(ta.live == 0, "failed init leaked");
        st->enomem++;
        free(sl);
        return ta.calls;
    }
    ACHECK(rc == 0, "init failed without an allocation failure");

    for (op = 0; op < GROW_OPS + MIXED_OPS; op++) {
        unsigned long f0 = ta.failures;
        uint64_t d = op < GROW_OPS ? 0 : tc_below(&rng, 100);
        struct map_item *e = &items[tc_below(&rng, POOL)];
        uint64_t k = tc_below(&rng, KEYS);
        bool may_fail = false, changed = false;
        if (d < 55) {
            /* Insert a free element (unique or multi). */
            if (e->in_list)
                continue;
            e->key = k;
            bool multi = tc_below(&rng, 2) != 0;
            what = multi ? "insert_multi" : "insert";
            rc = multi ? o->insert_multi(sl, e) : o->insert(sl, e, NULL);
            may_fail = true;
            if (ta.failures > f0) {
                ACHECK(rc == -ENOMEM,
                       "allocator failed but the call did not say -ENOMEM");
            } else if (!multi && mm_find(&m, k)) {
                ACHECK(rc == -EEXIST, "duplicate not refused");
            } else {
                ACHECK(rc == 0, "insert failed without allocation failure");
                mm_insert_multi(&m, e);
                e->in_list = true;
                changed = true;
            }
        } else if (d < 75) {
            what = "erase";
            rc = o->erase(sl, e);
            ACHECK(rc == (e->in_list ? 0 : -ENOENT), "erase result");
            if (e->in_list) {
                mm_remove_at(&m, mm_index_of(&m, e));
                e->in_list = false;
                changed = true;
            }
        } else if (d < 88) {
            what = "erase_key";
            struct map_item *out = NULL, *want = mm_find(&m, k);
            rc = o->erase_key(sl, k, &out);
            ACHECK(rc == (want ? 0 : -ENOENT), "erase_key result");
            if (want) {
                ACHECK(out == want, "erase_key removed the wrong element");
                mm_remove_at(&m, mm_index_of(&m, want));
                want->in_list = false;
                changed = true;
            }
        } else if (d < 97) {
            bool last = d & 1;
            what = last ? "pop_last" : "pop_first";
            struct map_item *want =
                last ? (m.n ? m.v[m.n - 1] : NULL) : mm_at(&m, 0);
            struct map_item *got = last ? o->pop_last(sl) : o->pop_first(sl);
            ACHECK(got == want, "pop returned the wrong element");
            if (want) {
                mm_remove_at(&m, last ? m.n - 1 : 0);
                want->in_list = false;
                changed = true;
            }
        } else {
            what = "clear";
            o->clear(sl, NULL, NULL);
            for (size_t i = 0; i < m.n; i++)
                m.v[i]->in_list = false;
            m.n = 0;
            changed = true;
        }
        if (ta.failures > f0) {
            if (may_fail)
                st->enomem++;
            else
                st->absorbed++; /* removals may allocate; must not fail */
        }
        /* After every failure, and regularly otherwise; in a failing run
         * only from its first failure on: the steps before it repeat the
         * first run's, which was compared in full (the sequence depends
         * on the seed alone). */
        bool replay = fail_n != 0 && ta.failures == 0;
        if (!replay && (ta.failures > f0 || changed || op % 16 == 0)) {
            compare(o, sl, &m, buf, why, sizeof(why));
            ACHECK(why[0] == 0, why);
        }
        st->ops++;
    }
    what = "destroy";
    o->destroy(sl, NULL, NULL);
    ACHECK(ta.live == 0 && ta.live_bytes == 0, "allocations leaked");
    ACHECK(ta.bad_frees == 0, "free with wrong size/level/pointer");
    mm_free(&m);
    free(sl);
    return ta.calls;
}

static void sweep(const struct map_ops *o, const char *name)
{
    uint64_t seed = tc_seed(name);
    struct sweep_stats st = {0};
    unsigned long calls = run_seq(o, seed, 0, false, &st);
    cr_assert_gt(calls, 1, "[%s] the sequence made no allocations?", o->label);
    /* Under ASan every other N keeps the time down; both parities are
     * covered across the persistent sweep. */
    unsigned long step = TC_SANITIZED ? 2 : 1;
    for (unsigned long n = 1; n <= calls; n += step)
        run_seq(o, seed, n, false, &st);
    for (unsigned long n = 1 + (step - 1); n <= calls; n += step)
        run_seq(o, seed, n, true, &st);
    cr_assert_gt(st.enomem, 0, "[%s] no failure was ever reported", o->label);
    fprintf(stderr,
            "map_alloc %s: %lu allocator calls swept, %lu runs, %lu ops, "
            "%lu -ENOMEM checked, %lu failures absorbed by removals, 0 "
            "mismatches, 0 leaks, SEED=%" PRIu64 "\n",
            o->label, calls, st.runs, st.ops, st.enomem, st.absorbed, seed);
}

/* Spelled out, not generated, so that docs/errors.md can name each one
 * and tests/errors/check_table.sh can find it. */
Test(map_alloc, sweep_k1)
{
    sweep(&a_k1_ops, "map_alloc_k1");
}
Test(map_alloc, sweep_k4)
{
    sweep(&a_k4_ops, "map_alloc_k4");
}
Test(map_alloc, sweep_defaults)
{
    sweep(&a_def_ops, "map_alloc_defaults");
}
Test(map_alloc, sweep_k64)
{
    sweep(&a_k64_ops, "map_alloc_k64");
}
Test(map_alloc, sweep_k1_ranked)
{
    sweep(&a_k1_rk_ops, "map_alloc_k1_ranked");
}
Test(map_alloc, sweep_k4_ranked)
{
    sweep(&a_k4_rk_ops, "map_alloc_k4_ranked");
}
Test(map_alloc, sweep_defaults_ranked)
{
    sweep(&a_def_rk_ops, "map_alloc_defaults_ranked");
}
Test(map_alloc, sweep_k64_ranked)
{
    sweep(&a_k64_rk_ops, "map_alloc_k64_ranked");
}

/* init itself: a failing first allocation gives -ENOMEM and no leak. */
Test(map_alloc, init_enomem)
{
    struct a_def sl;
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    tc_alloc_fail_from(&ta, 1);
    int rc = a_def_init(&sl, &ta.iface, 1);
    if (ta.failures) {
        cr_assert_eq(rc, -ENOMEM);
        cr_assert_eq(ta.live, 0);
    } else {
        /* init allocated nothing: then it must have succeeded. */
        cr_assert_eq(rc, 0);
        a_def_destroy(&sl, NULL, NULL);
        cr_assert_eq(ta.live, 0);
    }
}

/*
 * The default allocator (NULL) through a full grow/shrink cycle. ASan's
 * leak checker and the pool's own accounting watch it: after clear the
 * list may keep its pool, but destroy must hand everything back, which
 * LeakSanitizer checks in the sanitized build.
 */
Test(map_alloc, default_allocator_cycle)
{
    enum { N = 20000 };
    static struct map_item it[N];
    struct a_k4 sl;
    cr_assert_eq(a_k4_init(&sl, NULL, 7), 0);
    for (int round = 0; round < 3; round++) {
        for (size_t i = 0; i < N; i++) {
            it[i].key = (i * 7919) % N;
            cr_assert_eq(a_k4_insert(&sl, &it[i], NULL), 0);
        }
        char why[256] = "";
        cr_assert_eq(a_k4_check(&sl, why, sizeof(why)), 0, "%s", why);
        cr_assert_gt(a_k4_bytes(&sl), 0);
        for (size_t i = 0; i < N; i += 2)
            cr_assert_eq(a_k4_erase(&sl, &it[i]), 0);
        cr_assert_eq(a_k4_count(&sl), N / 2);
        a_k4_clear(&sl, NULL, NULL);
        cr_assert(a_k4_empty(&sl));
    }
    a_k4_destroy(&sl, NULL, NULL);
    cr_assert(tc_no_leaks(), "LeakSanitizer: the default allocator leaked");
}

/* ------------------------------------------ suite enomem_exact (map)
 *
 * -ENOMEM leaves a list exactly as it was, its memory included: the index
 * nodes and the leaf an insert or a requeue reserves before it changes
 * anything are given back when a later allocation of the same call fails
 * (slx_index_reserve, slx_split). Every allocation of every call fails in
 * turn; after each failure name_bytes() and the allocator's live blocks
 * must be what they were before the call. Small leaves and a low max
 * level make splits, index splits and a grown root frequent.
 *
 *
 * (tests/test_enomem_exact.c until the suites were filed by subject: its
 * queue half is in tests/test_pq_unit.c, its map half in
 * tests/test_map_alloc.c.)
 */
SKIPLIST_DEFINE(ex_map, struct map_item, uint64_t, MAP_ITEM_KEY,
                SKIPLIST_CMP_NUM, 4, 3, 1)

Test(enomem_exact, insert_splits_give_back_what_they_reserved)
{
    static struct map_item v[40], x[360];
    struct tc_alloc ta;
    struct ex_map sl;
    tc_alloc_init(&ta);
    cr_assert_eq(ex_map_init(&sl, &ta.iface, 1), 0);
    for (size_t i = 0; i < 40; i++) {
        v[i].key = 10 * i;
        cr_assert_eq(ex_map_insert(&sl, &v[i], NULL), 0);
    }
    /* Keys between the present ones, so that splits happen at every depth
     * and the root at the max level fills and grows. */
    for (size_t j = 0; j < 360; j++) {
        x[j].key = 10 * (j % 40) + 1 + j / 40;
        TC_EXACT_ENOMEM(&ta, ex_map_bytes(&sl), ex_map_insert(&sl, &x[j], NULL),
                        "insert", j);
    }
    cr_assert_eq(ex_map_count(&sl), 400);
    cr_assert_eq(ex_map_check(&sl, NULL, 0), 0);
    ex_map_destroy(&sl, NULL, NULL);
    cr_assert_eq(ta.live, 0);
}
