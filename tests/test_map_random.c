/*
 * Differential random test of the ordered-index face (SKIPLIST_DEFINE)
 * against the sorted-array model in model_map.h, over a matrix of
 * configurations (keys per node, max level, level probability, comparator,
 * key accessor form).
 *
 * Each configuration runs twice:
 *   short: small pool, many duplicate keys, name_check() after every
 *          mutation and a full comparison every 64 operations, on the
 *          counting allocator (zero leaks, bytes() matches at the end);
 *   long:  bigger lists, check() and full comparison every 1000 ops, on
 *          the default (NULL) pooled allocator, which ASan watches.
 * The plain build runs > 10^6 operations in total; ASan runs 1/4 of that
 * (tc_ops gives 1/8; these suites are cheap enough to double it). Seeds are
 * printed; SEED=<n> replays, TEST_SCALE=<k> soaks.
 */
#include <criterion/criterion.h>
#include <criterion/logging.h>

#include "test_common.h"
#include "model_map.h"

/*
 * The configuration matrix. Names say keys per node, max level, pshift;
 * then the label, whether the comparator is descending, KEY_OF, CMP and the
 * configuration. Each is instantiated twice: r_<name> by SKIPLIST_DEFINE
 * and rk_<name> by SKIPLIST_RANKED_DEFINE, whose runs also check rank,
 * rank_of, at, count_range, iter_at and FOREACH_AT against the model after
 * every mutation (op_rank) and at every position on each full comparison
 * (mm_rank_compare).
 */
#define RANDOM_CONFIGS(X)                                                      \
    X(k1_l32_p1, "k1_l32_p1", false, MAP_ITEM_KEY, SKIPLIST_CMP_NUM, 1, 32, 1) \
    X(k1_l4_p2, "k1_l4_p2", false, MAP_ITEM_KEY, SKIPLIST_CMP_NUM, 1, 4, 2)    \
    X(k4_l4_p1, "k4_l4_p1", false, MAP_ITEM_KEY, SKIPLIST_CMP_NUM, 4, 4, 1)    \
    X(k4_l32_p2, "k4_l32_p2", false, MAP_ITEM_KEY, SKIPLIST_CMP_NUM, 4, 32, 2) \
    X(def, "defaults", false, MAP_ITEM_KEY, SKIPLIST_CMP_NUM,                  \
      SKIPLIST_DEFAULTS)                                                       \
    X(k64_l32_p1, "k64_l32_p1", false, MAP_ITEM_KEY, SKIPLIST_CMP_NUM, 64, 32, \
      1)                                                                       \
    X(k64_l4_p2, "k64_l4_p2", false, MAP_ITEM_KEY, SKIPLIST_CMP_NUM, 64, 4, 2) \
    /* Extremes of the valid ranges: the biggest leaves, a single level. */    \
    X(k256_l1_p4, "k256_l1_p4", false, MAP_ITEM_KEY, SKIPLIST_CMP_NUM, 256, 1, \
      4)                                                                       \
    /* Descending comparator and a function as key accessor. */                \
    X(desc_k3, "desc_k3_l8_p1", true, map_item_key, MAP_CMP_DESC, 3, 8, 1)

#define RANDOM_DEFINE(name, label, desc, ...)                                 \
    SKIPLIST_DEFINE(r_##name, struct map_item, uint64_t, __VA_ARGS__)         \
    MAP_OPS_DEFINE(r_##name, label, desc);                                    \
    SKIPLIST_RANKED_DEFINE(rk_##name, struct map_item, uint64_t, __VA_ARGS__) \
    MAP_RANKED_OPS_DEFINE(rk_##name, label " ranked", desc);
RANDOM_CONFIGS(RANDOM_DEFINE)

struct rnd_cfg {
    const char *kind;
    size_t pool;        /* elements available */
    uint64_t key_range; /* ordinary keys come from [0, key_range) */
    unsigned long ops;  /* operations to run */
    unsigned long
        check_every;          /* check() after a mutation when op % this == 0 */
    unsigned long full_every; /* full contents comparison period */
    unsigned multi_pct;       /* % of inserts that use insert_multi */
    bool counting_alloc;      /* counting allocator, else the default */
};

struct rnd {
    const struct map_ops *o;
    const struct rnd_cfg *cfg;
    void *sl;
    struct model_map m;
    struct map_item *items;
    struct map_item **buf_sl, **buf_m; /* scratch for walks, pool + 1 long */
    void **buf_rank;                   /* the same for rank_ops.foreach_at */
    struct tc_rng rng;
    uint64_t seed;
    unsigned long op;
    const char *what; /* current operation, for messages */
    size_t target;    /* size the mutation mix drifts towards */
    unsigned long mutations, checks, compares, rank_rounds;
    size_t max_n; /* largest size reached, to show the run went big */
};

/* Every assertion names the configuration, seed and operation index, which
 * is everything needed to replay: SEED=<seed> --filter '<suite>/<test>'. */
#define RCHECK(r, cond, ...)                                                  \
    cr_assert((cond), "[%s %s SEED=%" PRIu64 " op=%lu %s] %s", (r)->o->label, \
              (r)->cfg->kind, (r)->seed, (r)->op, (r)->what, __VA_ARGS__)

static uint64_t draw_key(struct rnd *r)
{
    uint64_t d = tc_below(&r->rng, 200);
    /* Edges of the key space: a library that uses 0 or UINT64_MAX as a
     * sentinel gets caught here. */
    if (d == 0)
        return 0;
    if (d == 1)
        return UINT64_MAX;
    if (d == 2)
        return UINT64_MAX - 1 - tc_below(&r->rng, 3);
    return tc_below(&r->rng, r->cfg->key_range);
}

/* A query key: half the time near a key that is present. */
static uint64_t query_key(struct rnd *r)
{
    if (r->m.n && tc_below(&r->rng, 2)) {
        uint64_t k = r->m.v[tc_below(&r->rng, r->m.n)]->key;
        uint64_t d = tc_below(&r->rng, 3);
        if (d == 1 && k != UINT64_MAX)
            k++;
        else if (d == 2 && k != 0)
            k--;
        return k;
    }
    return draw_key(r);
}

static void check_struct(struct rnd *r)
{
    char why[256] = "";
    r->checks++;
    RCHECK(r, r->o->check(r->sl, why, sizeof(why)) == 0, why);
    RCHECK(r, r->o->count(r->sl) == r->m.n, "count differs from model");
    RCHECK(r, r->o->empty(r->sl) == (r->m.n == 0), "empty() wrong");
}

static void compare_full(struct rnd *r)
{
    r->compares++;
    size_t n =
        r->o->loop(r->sl, MAP_FE_FWD, 0, 0, 0, r->buf_sl, r->cfg->pool + 1);
    RCHECK(r, n == r->m.n, "FOREACH length differs from model");
    for (size_t i = 0; i < n; i++)
        RCHECK(r, r->buf_sl[i] == r->m.v[i],
               "contents differ from model (FOREACH)");
    n = r->o->loop(r->sl, MAP_FE_REV, 0, 0, 0, r->buf_sl, r->cfg->pool + 1);
    RCHECK(r, n == r->m.n, "FOREACH_REVERSE length differs from model");
    for (size_t i = 0; i < n; i++)
        RCHECK(r, r->buf_sl[i] == r->m.v[r->m.n - 1 - i],
               "contents differ from model (FOREACH_REVERSE)");
    RCHECK(r, r->o->first(r->sl) == mm_at(&r->m, 0), "first() differs");
    RCHECK(r, r->o->last(r->sl) == (r->m.n ? r->m.v[r->m.n - 1] : NULL),
           "last() differs");
    char why[160] = "";
    RCHECK(r,
           !r->o->rank || mm_rank_compare(r->o, r->sl, &r->m, r->buf_rank, why,
                                          sizeof(why)),
           why);
}

/* A key for rank: present, absent, below the first or above the last. */
static uint64_t rank_key(struct rnd *r)
{
    const struct model_map *m = &r->m;
    uint64_t d = tc_below(&r->rng, 8);
    if (m->n && d == 0) { /* just before the first, in the list's order */
        uint64_t k = m->v[0]->key;
        return m->desc ? (k == UINT64_MAX ? k : k + 1) : (k ? k - 1 : 0);
    }
    if (m->n && d == 1) { /* just past the last */
        uint64_t k = m->v[m->n - 1]->key;
        return m->desc ? (k ? k - 1 : 0) : (k == UINT64_MAX ? k : k + 1);
    }
    if (d == 2)
        return tc_below(&r->rng, 2) ? 0 : UINT64_MAX;
    return query_key(r);
}

/*
 * One of each order-statistics query of a ranked instance, against the
 * model: rank of a key, at a position, rank_of a pool element (linked or
 * not, with a key that is often present) or of NULL, count_range of a
 * window (reversed, a single key, the whole key space or random), and
 * iter_at with the steps next to it. Runs after every mutation and as an
 * operation of its own.
 */
static void op_rank(struct rnd *r)
{
    const struct rank_ops *q = r->o->rank;
    const struct model_map *m = &r->m;
    if (!q)
        return;
    r->rank_rounds++;
    uint64_t k = rank_key(r);
    RCHECK(r, q->rank(r->sl, k) == mm_lower(m, k), "rank differs from model");
    size_t i = rank_pos(&r->rng, r->m.n);
    RCHECK(r, q->at(r->sl, i) == mm_at(m, i), "at differs from model");
    if (tc_below(&r->rng, 16) == 0) {
        RCHECK(r, q->rank_of(r->sl, NULL) == -EINVAL, "rank_of(NULL)");
    } else {
        struct map_item *e = &r->items[tc_below(&r->rng, r->cfg->pool)];
        int64_t want = e->in_list ? (int64_t)mm_index_of(m, e) : -ENOENT;
        RCHECK(r, q->rank_of(r->sl, e) == want, "rank_of differs from model");
    }
    uint64_t lo = rank_key(r), hi = rank_key(r);
    rank_window(&r->rng, &lo, &hi, m->desc ? UINT64_MAX : 0,
                m->desc ? 0 : UINT64_MAX);
    RCHECK(r, q->count_range(r->sl, lo, hi) == mm_count_range(m, lo, hi),
           "count_range differs from model");
    RCHECK(r,
           rank_steps_check(q, r->sl, m, m->n, mm_elem,
                            rank_pos(&r->rng, m->n)) < 0,
           "iter_at, iter_get or the step next to it differs");
}

static void after_mutation(struct rnd *r)
{
    r->mutations++;
    if (r->m.n > r->max_n)
        r->max_n = r->m.n;
    if (r->mutations % r->cfg->check_every == 0)
        check_struct(r);
    op_rank(r);
}

static struct map_item *free_item(struct rnd *r)
{
    for (int tries = 0; tries < 8; tries++) {
        struct map_item *e = &r->items[tc_below(&r->rng, r->cfg->pool)];
        if (!e->in_list)
            return e;
    }
    return NULL;
}

static void op_insert(struct rnd *r, bool multi)
{
    struct map_item *e = free_item(r);
    if (!e)
        return;
    e->key = draw_key(r);
    if (multi) {
        r->what = "insert_multi";
        int rc = r->o->insert_multi(r->sl, e);
        RCHECK(r, rc == 0, "insert_multi did not return 0");
        mm_insert_multi(&r->m, e);
        e->in_list = true;
    } else {
        r->what = "insert";
        struct map_item *had = mm_find(&r->m, e->key);
        struct map_item sentinel, *existing = &sentinel;
        bool want_out = tc_below(&r->rng, 4) != 0;
        int rc = r->o->insert(r->sl, e, want_out ? &existing : NULL);
        if (had) {
            RCHECK(r, rc == -EEXIST, "duplicate insert did not give -EEXIST");
            if (want_out) {
                RCHECK(r, existing != &sentinel, "*existing not set");
                RCHECK(r,
                       existing && existing->key == e->key &&
                           mm_index_of(&r->m, existing) != SIZE_MAX,
                       "*existing is not a present element with that key");
            }
        } else {
            RCHECK(r, rc == 0, "insert of a new key did not return 0");
            mm_insert_multi(&r->m, e);
            e->in_list = true;
        }
    }
    after_mutation(r);
}

static void op_erase(struct rnd *r)
{
    r->what = "erase";
    struct map_item *e = &r->items[tc_below(&r->rng, r->cfg->pool)];
    int rc = r->o->erase(r->sl, e);
    if (e->in_list) {
        RCHECK(r, rc == 0, "erase of a present element did not return 0");
        size_t i = mm_index_of(&r->m, e);
        mm_remove_at(&r->m, i);
        e->in_list = false;
    } else {
        /* Often the same key as a present element: erase must go by
         * identity, not by key. */
        RCHECK(r, rc == -ENOENT, "erase of an absent element not -ENOENT");
    }
    after_mutation(r);
}

static void op_erase_key(struct rnd *r)
{
    r->what = "erase_key";
    uint64_t k = query_key(r);
    struct map_item sentinel, *out = &sentinel;
    bool want_out = tc_below(&r->rng, 4) != 0;
    int rc = r->o->erase_key(r->sl, k, want_out ? &out : NULL);
    size_t i = mm_lower(&r->m, k);
    if (i < r->m.n && mm_cmp(&r->m, r->m.v[i]->key, k) == 0) {
        RCHECK(r, rc == 0, "erase_key of a present key did not return 0");
        if (want_out)
            RCHECK(r, out == r->m.v[i],
                   "erase_key removed/reported not the first equal element");
        r->m.v[i]->in_list = false;
        mm_remove_at(&r->m, i);
    } else {
        RCHECK(r, rc == -ENOENT, "erase_key of an absent key not -ENOENT");
    }
    after_mutation(r);
}

static void op_pop(struct rnd *r, bool last)
{
    r->what = last ? "pop_last" : "pop_first";
    struct map_item *e = last ? r->o->pop_last(r->sl) : r->o->pop_first(r->sl);
    if (!r->m.n) {
        RCHECK(r, e == NULL, "pop of an empty list returned an element");
    } else {
        size_t i = last ? r->m.n - 1 : 0;
        RCHECK(r, e == r->m.v[i], "pop returned the wrong element");
        mm_remove_at(&r->m, i);
        e->in_list = false;
    }
    after_mutation(r);
}

static void op_query(struct rnd *r)
{
    uint64_t k = query_key(r);
    r->what = "find";
    RCHECK(r, r->o->find(r->sl, k) == mm_find(&r->m, k), "find differs");
    r->what = "lower_bound";
    RCHECK(r, r->o->lower_bound(r->sl, k) == mm_lower_bound(&r->m, k),
           "lower_bound differs");
    r->what = "upper_bound";
    RCHECK(r, r->o->upper_bound(r->sl, k) == mm_upper_bound(&r->m, k),
           "upper_bound differs");
    r->what = "floor";
    RCHECK(r, r->o->floor(r->sl, k) == mm_floor(&r->m, k), "floor differs");
    r->what = "below";
    RCHECK(r, r->o->below(r->sl, k) == mm_below(&r->m, k), "below differs");
}

static void op_ends(struct rnd *r)
{
    r->what = "first/last/count/empty";
    RCHECK(r, r->o->first(r->sl) == mm_at(&r->m, 0), "first() differs");
    RCHECK(r, r->o->last(r->sl) == (r->m.n ? r->m.v[r->m.n - 1] : NULL),
           "last() differs");
    RCHECK(r, r->o->count(r->sl) == r->m.n, "count() differs");
    RCHECK(r, r->o->empty(r->sl) == (r->m.n == 0), "empty() differs");
}

static void op_walk(struct rnd *r)
{
    r->what = "iter walk";
    signed char moves[48];
    size_t nmoves = (size_t)tc_below(&r->rng, sizeof(moves) + 1);
    /* Mostly in one direction, with turns, so next/prev pairs across leaf
     * boundaries are exercised both ways. */
    signed char dir = tc_below(&r->rng, 2) ? 1 : -1;
    for (size_t i = 0; i < nmoves; i++) {
        if (tc_below(&r->rng, 6) == 0)
            dir = (signed char)-dir;
        moves[i] = dir;
    }
    /* Ranked instances also start at a position (iter_at). */
    int start = (int)tc_below(&r->rng, r->o->rank ? 4 : 3);
    uint64_t k =
        start == MAP_WALK_AT ? rank_pos(&r->rng, r->m.n) : query_key(r);
    size_t a = r->o->walk(r->sl, start, k, moves, nmoves, r->buf_sl);
    RCHECK(r, a != SIZE_MAX, "iter_get() disagrees with the step's result");
    size_t b = mm_walk(&r->m, start, k, moves, nmoves, r->buf_m);
    RCHECK(r, a == b, "iterator walk length differs from model");
    for (size_t i = 0; i < a; i++)
        RCHECK(r, r->buf_sl[i] == r->buf_m[i],
               "iterator walk visits a different element");
}

/* FOREACH_FROM a key, or on a ranked instance as often FOREACH_AT a
 * position. */
static void op_foreach_from(struct rnd *r)
{
    bool at = r->o->rank && tc_below(&r->rng, 2);
    r->what = at ? "FOREACH_AT" : "FOREACH_FROM";
    uint64_t k = at ? rank_pos(&r->rng, r->m.n) : query_key(r);
    size_t max = (size_t)tc_below(&r->rng, 64) + 1;
    size_t a = at ? r->o->rank->foreach_at(r->sl, (size_t)k, r->buf_rank, max)
                  : r->o->loop(r->sl, MAP_FE_FROM, k, 0, 0, r->buf_sl, max);
    size_t i0 = at ? (k < r->m.n ? (size_t)k : r->m.n) : mm_lower(&r->m, k);
    size_t b = r->m.n - i0 < max ? r->m.n - i0 : max;
    RCHECK(r, a == b, "length differs from model");
    for (size_t i = 0; i < a; i++)
        RCHECK(r, (at ? r->buf_rank[i] : r->buf_sl[i]) == r->m.v[i0 + i],
               "visits a different element");
}

/* FOREACH_SAFE erasing every mod-th element (mod 1: all of them). */
static void op_foreach_safe(struct rnd *r)
{
    r->what = "FOREACH_SAFE erase";
    /* Erasing everything is the classic SAFE-loop trap; keep it in the
     * mix but let the list survive most passes. */
    size_t mod = tc_below(&r->rng, 4) ? (size_t)tc_below(&r->rng, 3) + 2 : 1;
    size_t rem = (size_t)tc_below(&r->rng, mod);
    size_t n0 = r->m.n;
    size_t a = r->o->loop(r->sl, MAP_FE_SAFE, 0, mod, rem, r->buf_sl,
                          r->cfg->pool + 1);
    RCHECK(r, a != SIZE_MAX, "erase inside FOREACH_SAFE failed");
    RCHECK(r, a == n0, "FOREACH_SAFE did not visit every element once");
    size_t kept = 0;
    for (size_t i = 0; i < n0; i++) {
        RCHECK(r, r->buf_sl[i] == r->m.v[i],
               "FOREACH_SAFE visits a different element");
        if (i % mod != rem)
            r->m.v[kept++] = r->m.v[i];
    }
    r->m.n = kept;
    after_mutation(r);
    compare_full(r);
}

static size_t g_cb_calls;
static bool g_cb_order_ok;

static void count_cb(struct map_item *e, void *arg)
{
    struct rnd *r = (struct rnd *)arg;
    /* Called in list order, on elements that were in the list. */
    if (g_cb_calls < r->m.n && r->m.v[g_cb_calls] != e)
        g_cb_order_ok = false;
    g_cb_calls++;
    e->in_list = false;
}

static void op_clear(struct rnd *r)
{
    r->what = "clear";
    g_cb_calls = 0;
    g_cb_order_ok = true;
    r->o->clear(r->sl, count_cb, r);
    RCHECK(r, g_cb_calls == r->m.n, "clear callback count differs");
    RCHECK(r, g_cb_order_ok, "clear callback not in list order");
    r->m.n = 0;
    after_mutation(r);
    check_struct(r);
}

static void run_random(const struct map_ops *o, const struct rnd_cfg *cfg,
                       const char *testname)
{
    struct rnd rs, *r = &rs;
    struct tc_alloc ta;
    memset(r, 0, sizeof(*r));
    r->o = o;
    r->cfg = cfg;
    r->what = "init";
    r->seed = tc_seed(testname);
    tc_rng_init(&r->rng, r->seed);
    mm_init(&r->m, o->desc);
    r->items = (struct map_item *)calloc(cfg->pool, sizeof(*r->items));
    r->buf_sl = (struct map_item **)calloc(cfg->pool + 1, sizeof(void *));
    r->buf_m = (struct map_item **)calloc(cfg->pool + 1, sizeof(void *));
    r->buf_rank = (void **)calloc(cfg->pool + 1, sizeof(void *));
    r->sl = malloc(o->size);
    cr_assert(r->items && r->buf_sl && r->buf_m && r->buf_rank && r->sl);
    for (size_t i = 0; i < cfg->pool; i++)
        r->items[i].id = (uint32_t)i;
    tc_alloc_init(&ta);
    RCHECK(r,
           o->init(r->sl, cfg->counting_alloc ? &ta.iface : NULL, r->seed) == 0,
           "init failed");
    check_struct(r);

    unsigned long nops = tc_ops(cfg->ops) * (TC_SANITIZED ? 2u : 1u);
    for (r->op = 1; r->op <= nops; r->op++) {
        /* The target size moves once per two pool-sizes worth of operations;
         * the mutation mix drifts towards it, so the list grows and
         * shrinks through every size from empty to most of the pool. */
        if (r->op % (2 * cfg->pool) == 1)
            r->target = (size_t)tc_below(&r->rng, cfg->pool + 1);
        bool grow = r->m.n < r->target;
        uint64_t d = tc_below(&r->rng, 10000);
        if (d < 5000) {
            uint64_t m = tc_below(&r->rng, 100);
            if (m < (grow ? 90u : 25u))
                op_insert(r, tc_below(&r->rng, 100) < cfg->multi_pct);
            else if (m < (grow ? 94u : 60u))
                op_erase(r);
            else if (m < (grow ? 97u : 85u))
                op_erase_key(r);
            else
                op_pop(r, tc_below(&r->rng, 2) != 0);
        } else if (d < 7500) {
            r->what = "rank queries";
            if (d < 5400 && r->o->rank)
                op_rank(r);
            else
                op_query(r);
        } else if (d < 8000) {
            op_ends(r);
        } else if (d < 9500) {
            op_walk(r);
        } else if (d < 9995) {
            op_foreach_from(r);
        } else if (d < 9999) {
            /* Rare and O(n): whole-list operations. */
            op_foreach_safe(r);
        } else {
            op_clear(r);
        }
        if (r->op % cfg->full_every == 0) {
            r->what = "periodic compare";
            compare_full(r);
        }
    }
    r->op = nops;
    r->what = "final";
    check_struct(r);
    compare_full(r);

    /* destroy visits every element once, in order, passing arg through. */
    g_cb_calls = 0;
    g_cb_order_ok = true;
    o->destroy(r->sl, count_cb, r);
    RCHECK(r, g_cb_calls == r->m.n, "destroy callback count differs");
    RCHECK(r, g_cb_order_ok, "destroy callback not in list order");
    RCHECK(r, tc_no_leaks(), "LeakSanitizer found a leak after destroy");
    if (cfg->counting_alloc) {
        RCHECK(r, ta.live == 0 && ta.live_bytes == 0, "leak after destroy");
        RCHECK(r, ta.bad_frees == 0, "free with wrong size/level/pointer");
    }
    /* stderr, not cr_log_info: Criterion hides info logs by default. */
    fprintf(stderr,
            "map_random %s %s: %lu ops, 0 mismatches (%lu mutations, %lu "
            "checks, %lu full compares, %lu rounds of rank queries, max size "
            "%zu), SEED=%" PRIu64 "\n",
            o->label, cfg->kind, nops, r->mutations, r->checks, r->compares,
            r->rank_rounds, r->max_n, r->seed);
    mm_free(&r->m);
    free(r->items);
    free(r->buf_sl);
    free(r->buf_m);
    free(r->buf_rank);
    free(r->sl);
}

static const struct rnd_cfg cfg_short = {
    .kind = "short",
    .pool = 96,
    .key_range = 48,
    .ops = 15000,
    .check_every = 1,
    .full_every = 64,
    .multi_pct = 50,
    .counting_alloc = true,
};

static const struct rnd_cfg cfg_long = {
    .kind = "long",
    .pool = 8000,
    .key_range = 6000,
    .ops = 120000,
    .check_every = 250,
    .full_every = 1000,
    .multi_pct = 40,
    .counting_alloc = false,
};

/* Unique keys only (insert, never insert_multi): the set semantics. */
static const struct rnd_cfg cfg_set = {
    .kind = "set",
    .pool = 600,
    .key_range = 1000,
    .ops = 20000,
    .check_every = 1,
    .full_every = 200,
    .multi_pct = 0,
    .counting_alloc = true,
};

#define RANDOM_TESTS(name)                                   \
    Test(map_random, name##_short)                           \
    {                                                        \
        run_random(&name##_ops, &cfg_short, #name "_short"); \
    }                                                        \
    Test(map_random, name##_long)                            \
    {                                                        \
        run_random(&name##_ops, &cfg_long, #name "_long");   \
    }

#define RANDOM_TESTS_BOTH(name, ...) \
    RANDOM_TESTS(r_##name)           \
    RANDOM_TESTS(rk_##name)
RANDOM_CONFIGS(RANDOM_TESTS_BOTH)

Test(map_random, set_k4)
{
    run_random(&r_k4_l32_p2_ops, &cfg_set, "set_k4");
}

Test(map_random, set_defaults)
{
    run_random(&r_def_ops, &cfg_set, "set_defaults");
}

Test(map_random, set_k4_ranked)
{
    run_random(&rk_k4_l32_p2_ops, &cfg_set, "set_k4_ranked");
}

/* Three keys a leaf and fanout 2: nearly every insert shifts or splits, so
 * the counts a descent made on its way down are taken back or kept across
 * shifts, splits and node splits at every turn. */
Test(map_random, set_k3_ranked)
{
    run_random(&rk_desc_k3_ops, &cfg_set, "set_k3_ranked");
}

Test(map_random, set_defaults_ranked)
{
    run_random(&rk_def_ops, &cfg_set, "set_defaults_ranked");
}

/*
 * iter_prev from the end of a list that once held elements and was emptied
 * by erase (its one leaf stays, empty): NULL, as on a list never written.
 * The end is reached by iter_seek past the last key and, on a ranked
 * instance, by iter_at(0) (the count). Deterministic, so a failure here
 * names the cause that a crash inside the random runs does not.
 */
#define PREV_FROM_END(name, ranked_end)                                       \
    do {                                                                      \
        struct name l;                                                        \
        struct name##_iter it;                                                \
        struct map_item e[3] = {{1, 0, false}, {2, 1, false}, {3, 2, false}}; \
        cr_assert_eq(name##_init(&l, NULL, 1), 0);                            \
        for (int round = 0; round < 2; round++) {                             \
            cr_assert_null(name##_iter_seek(&it, &l, 100));                   \
            cr_assert_null(name##_iter_prev(&it), "%s, round %d", #name,      \
                           round);                                            \
            cr_assert_null(ranked_end);                                       \
            cr_assert_null(name##_iter_prev(&it), "%s, round %d", #name,      \
                           round);                                            \
            for (int i = 0; i < 3; i++)                                       \
                cr_assert_eq(name##_insert(&l, &e[i], NULL), 0);              \
            for (int i = 0; i < 3; i++)                                       \
                cr_assert_eq(name##_erase(&l, &e[i]), 0);                     \
        }                                                                     \
        name##_destroy(&l, NULL, NULL);                                       \
    } while (0)

Test(map_random, iter_prev_from_end_of_emptied_list)
{
    PREV_FROM_END(r_def, NULL);
    PREV_FROM_END(r_k1_l4_p2, NULL);
    PREV_FROM_END(rk_def, rk_def_iter_at(&it, &l, 0));
    PREV_FROM_END(rk_k1_l4_p2, rk_k1_l4_p2_iter_at(&it, &l, 0));
}
