/*
 * The B-skiplist index at its edges: an index capped at one level (the root
 * grows wider instead of splitting), no index at all (MAXLVL 1), the index
 * appearing with the second leaf and going with the last, and the
 * allocator's view of it (levels 0, 1, 2, and nothing leaked). Every step
 * is checked against a sorted model and by check().
 */
#include <criterion/criterion.h>

#include "test_common.h"

struct ix_item {
    uint64_t key;
};
#define IX_KEY(e) ((e)->key)

/* KPN 4 so that a few thousand keys make hundreds of leaves. */
SKIPLIST_DEFINE(ix_flat, struct ix_item, uint64_t, IX_KEY, SKIPLIST_CMP_NUM, 4,
                2, 2)
SKIPLIST_DEFINE(ix_none, struct ix_item, uint64_t, IX_KEY, SKIPLIST_CMP_NUM, 4,
                1, 2)
SKIPLIST_DEFINE(ix_deep, struct ix_item, uint64_t, IX_KEY, SKIPLIST_CMP_NUM, 4,
                32, 1)

enum { IX_N = 3000 };

/* Keys 0, 3, 6, ... shuffled: absent keys sit between present ones. */
static void ix_shuffle(struct ix_item *v, unsigned n, struct tc_rng *r)
{
    for (unsigned i = 0; i < n; i++)
        v[i].key = 3u * i;
    for (unsigned i = n; i > 1; i--) {
        unsigned j = (unsigned)tc_below(r, i);
        struct ix_item t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

/* The same test body for each instance: insert all (checking every 97th
 * step and finds of every key so far at the end), then erase all in
 * another order, the index and the allocations followed throughout. */
#define IX_RUN(name, want_root_when_big)                                       \
    do {                                                                       \
        static struct ix_item v[IX_N];                                         \
        struct tc_rng r;                                                       \
        tc_rng_init(&r, tc_seed(#name));                                       \
        ix_shuffle(v, IX_N, &r);                                               \
        struct tc_alloc ta;                                                    \
        tc_alloc_init(&ta);                                                    \
        struct name sl;                                                        \
        char why[256];                                                         \
        cr_assert_eq(name##_init(&sl, &ta.iface, 7), 0);                       \
        unsigned max_top = 0, max_cap = 0;                                     \
        for (unsigned i = 0; i < IX_N; i++) {                                  \
            cr_assert_eq(name##_insert(&sl, &v[i], NULL), 0);                  \
            if (sl.sl.aux->top > max_top)                                      \
                max_top = sl.sl.aux->top;                                      \
            if (sl.sl.root && sl.sl.root->cap > max_cap)                       \
                max_cap = sl.sl.root->cap;                                     \
            cr_assert_eq(                                                      \
                !sl.sl.root, slx_nleaves(&sl.sl) < 2 || !(want_root_when_big), \
                "step %u: root with %zu leaves", i, slx_nleaves(&sl.sl));      \
            if (i % 97 == 0)                                                   \
                cr_assert_eq(name##_check(&sl, why, sizeof why), 0,            \
                             "insert %u: %s", i, why);                         \
        }                                                                      \
        cr_assert_eq(name##_check(&sl, why, sizeof why), 0, "%s", why);        \
        for (unsigned i = 0; i < IX_N; i++) {                                  \
            cr_assert_eq(name##_find(&sl, v[i].key), &v[i]);                   \
            cr_assert_null(name##_find(&sl, v[i].key + 1u));                   \
            struct ix_item *lb = name##_lower_bound(&sl, v[i].key + 1u);       \
            if (v[i].key + 3u < 3u * IX_N)                                     \
                cr_assert(lb && lb->key == v[i].key + 3u, "lb after %" PRIu64, \
                          v[i].key);                                           \
            else                                                               \
                cr_assert_null(lb);                                            \
        }                                                                      \
        static uint64_t order[IX_N]; /* a new order, same keys */              \
        for (unsigned i = 0; i < IX_N; i++)                                    \
            order[i] = v[i].key;                                               \
        for (unsigned i = IX_N; i > 1; i--) {                                  \
            unsigned j = (unsigned)tc_below(&r, i);                            \
            uint64_t t = order[i - 1];                                         \
            order[i - 1] = order[j];                                           \
            order[j] = t;                                                      \
        }                                                                      \
        for (unsigned i = 0; i < IX_N; i++) {                                  \
            struct ix_item *out = NULL;                                        \
            cr_assert_eq(name##_erase_key(&sl, order[i], &out), 0);            \
            cr_assert_eq(out->key, order[i]);                                  \
            cr_assert_null(name##_find(&sl, order[i]));                        \
            if (i % 89 == 0 || IX_N - i < 8)                                   \
                cr_assert_eq(name##_check(&sl, why, sizeof why), 0,            \
                             "erase %u: %s", i, why);                          \
        }                                                                      \
        cr_assert_eq(name##_count(&sl), 0);                                    \
        cr_assert_null(sl.sl.root, "an empty list keeps no index");            \
        name##_destroy(&sl, NULL, NULL);                                       \
        cr_assert_eq(ta.live, 0, "%ld blocks leaked", (long)ta.live);          \
        cr_assert_eq(ta.bad_frees, 0);                                         \
        ix_report(#name, max_top, max_cap, &ta);                               \
    } while (0)

static unsigned ix_last_max_top, ix_last_max_cap;

static void ix_report(const char *name, unsigned max_top, unsigned max_cap,
                      const struct tc_alloc *ta)
{
    ix_last_max_top = max_top;
    ix_last_max_cap = max_cap;
    fprintf(stderr,
            "index %s: %u keys, index up to %u levels, root up to %u "
            "entries of room, allocator levels up to %u\n",
            name, (unsigned)IX_N, max_top, max_cap, ta->max_level);
}

/* MAXLVL 2: one index level. Hundreds of leaves under one root, which can
 * only grow (allocator level 2), and shrinks away again. */
Test(index, one_level_root_grows_and_goes)
{
    IX_RUN(ix_flat, 1);
    cr_assert_eq(ix_last_max_top, 1u);
    cr_assert_gt(ix_last_max_cap, ix_flat_slx_type.icap, "the root never grew");
}

/* MAXLVL 1: no index; searches walk the leaves. */
Test(index, no_index_walks_the_leaves)
{
    IX_RUN(ix_none, 0);
    cr_assert_eq(ix_last_max_top, 0u);
}

/* PSHIFT 1 (fanout 2, nodes of 4 entries): a deep index, every split,
 * merge and root change exercised many times over. */
Test(index, deep_index_splits_and_merges)
{
    IX_RUN(ix_deep, 1);
    cr_assert_geq(ix_last_max_top, 5u, "a shallow index: %u levels",
                  ix_last_max_top);
}

/* -------------------------------------------------- suite cov_engine
 *
 * skiplist.h engine paths the other suites leave unrun (make coverage
 * found them): the one seed that mixes to a zero generator state, destroy
 * after a failed init, the root of a one-level index failing to grow, and
 * a list big enough to carve its leaves out of huge-page chunks, across a
 * chunk's end.
 *
 *
 * Found by coverage (make coverage; tests/test_cov_engine.c until the suites
 * were filed by subject).
 */

struct ce_item {
    uint64_t key;
};
#define CE_KEY(e) ((e)->key)
SKIPLIST_DEFINE(ce_map, struct ce_item, uint64_t, CE_KEY, SKIPLIST_CMP_NUM, 4,
                8, 1)
/* Fanout 8 under 31 index levels: a few thousand leaves need about 4. */
SKIPLIST_DEFINE(ce_deep, struct ce_item, uint64_t, CE_KEY, SKIPLIST_CMP_NUM, 4,
                32, 3)
/* MAXLVL 2: one index level, whose root grows wider instead of splitting. */
SKIPLIST_DEFINE(ce_flat, struct ce_item, uint64_t, CE_KEY, SKIPLIST_CMP_NUM, 2,
                2, 1)

static void ce_clean(const struct ce_map *m)
{
    char why[256] = "";
    cr_assert_eq(ce_map_check(m, why, sizeof why), 0, "%s", why);
}

/* slx_init mixes the seed as (seed ^ golden) * odd: this seed gives 0, a
 * state the generator would never leave. The list must still draw
 * levels: its state is not zero, and an index grows as usual. */
Test(cov_engine, seed_that_mixes_to_zero_still_draws_levels)
{
    static struct ce_item v[4000];
    struct ce_deep m;
    char why[256] = "";
    cr_assert_eq(ce_deep_init(&m, NULL, UINT64_C(0x9E3779B97F4A7C15)), 0);
    cr_assert_neq(m.sl.stamp, 0u); /* the state, until the aux block */
    for (unsigned i = 0; i < 4000; i++) {
        v[i].key = (i * 7919u) % 4000u;
        cr_assert_eq(ce_deep_insert(&m, &v[i], NULL), 0);
    }
    cr_assert_eq(ce_deep_check(&m, why, sizeof why), 0, "%s", why);
    /* a zero state draws no 1 bits: every new leaf would get the cap
     * height, one above the root, and the root would climb to level 31 */
    cr_assert_lt(m.sl.aux->top, 12u, "top %u: heights not random",
                 m.sl.aux->top);
    cr_assert_gt(m.sl.aux->top, 1u);
    ce_deep_destroy(&m, NULL, NULL);
}

static void ce_count(struct ce_item *e, void *arg)
{
    (void)e;
    ++*(int *)arg;
}

/* A failed init leaves nothing: destroy calls nothing and frees nothing. */
Test(cov_engine, destroy_after_a_failed_init_frees_nothing)
{
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    tc_alloc_fail_at(&ta, 1);
    struct ce_map m;
    cr_assert_eq(ce_map_init(&m, &ta.iface, 1), -ENOMEM);
    int calls = 0;
    ce_map_destroy(&m, ce_count, &calls);
    cr_assert_eq(calls, 0);
    cr_assert_eq(ta.frees, 0u);
    cr_assert_eq(ta.live, 0);
    cr_assert_eq(ta.bad_frees, 0u);
}

/* Every allocation of every insert fails once in turn, the growth of the
 * one-level index's root among them: each failure is -ENOMEM with the
 * list unchanged (checked, same count), and the retry succeeds. */
Test(cov_engine, root_growth_fails_cleanly)
{
    enum { N = 600 };
    static struct ce_item v[N];
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    struct ce_flat m;
    char why[256] = "";
    cr_assert_eq(ce_flat_init(&m, &ta.iface, 3), 0);
    unsigned full_refused = 0; /* a full root, a failure, the root as was */
    for (unsigned i = 0; i < N; i++) {
        v[i].key = (i * 7919u) % N;
        for (unsigned long k = 1;; k++) {
            const struct slx_inode *root = m.sl.root;
            int full = root && root->n == root->cap;
            size_t count = m.sl.count;
            tc_alloc_fail_at(&ta, k);
            int rc = ce_flat_insert(&m, &v[i], NULL);
            tc_alloc_heal(&ta);
            cr_assert_eq(ce_flat_check(&m, why, sizeof why), 0, "%s", why);
            if (rc == 0)
                break;
            cr_assert_eq(rc, -ENOMEM);
            cr_assert_eq(m.sl.count, count);
            /* (a root grown before a later allocation failed may stay
             * grown: room kept, as the stash keeps its nodes) */
            full_refused += full && m.sl.root == root;
        }
    }
    cr_assert_gt(full_refused, 0u, "no failure met a full root");
    cr_assert_gt(m.sl.root->cap, 2u << 1, "the root never grew");
    cr_assert_eq(m.sl.count, (size_t)N);
    ce_flat_destroy(&m, NULL, NULL);
    cr_assert_eq(ta.live, 0);
    cr_assert_eq(ta.bad_frees, 0u);
}

/* Past 2048 leaves the default allocator carves slabs out of 2 MiB
 * chunks (Linux), the last slab of a chunk cut to what is left. A list
 * of tens of thousands of small leaves crosses several chunk ends; it
 * must stay whole through inserts and erases. */
Test(cov_engine, leaves_across_huge_page_chunks, .timeout = 120)
{
    enum { N = 120000 };
    struct ce_item *v = (struct ce_item *)malloc(N * sizeof(*v));
    cr_assert_not_null(v);
    struct ce_map m;
    cr_assert_eq(ce_map_init(&m, NULL, 11), 0);
    for (unsigned i = 0; i < N; i++) {
        v[i].key = (uint64_t)((i * 7919u) % N);
        cr_assert_eq(ce_map_insert(&m, &v[i], NULL), 0);
    }
    ce_clean(&m);
    cr_assert_gt(m.sl.aux->nleaves, 2048u);
#if SLX_HUGEPAGES
    cr_assert_not_null(m.sl.aux->pool.chunk, "no chunk carved");
    cr_assert_gt(m.sl.aux->bytes, (size_t)2 << 20);
#endif
    for (unsigned i = 0; i < N; i++)
        cr_assert_eq(ce_map_find(&m, v[i].key), &v[i]);
    for (unsigned i = 0; i < N; i += 2) {
        struct ce_item *out = NULL;
        cr_assert_eq(ce_map_erase_key(&m, v[i].key, &out), 0);
        cr_assert_eq(out, &v[i]);
    }
    ce_clean(&m);
    cr_assert_eq(m.sl.count, (size_t)N / 2);
    for (unsigned i = 0; i < N; i++)
        cr_assert_eq(ce_map_find(&m, v[i].key), i % 2 ? &v[i] : NULL);
    ce_map_destroy(&m, NULL, NULL);
    free(v);
}

#if SLX_HUGEPAGES
/* A list big enough for huge-page chunks: its chunks, in the order its pool
 * threads them, into chunks[] (at most max); returns how many. */
static size_t ce_chunks_of(const struct ce_map *m, void **chunks, size_t max)
{
    size_t k = 0;
    for (void *s = m->sl.aux->pool.slabs; s; s = ((void **)s)[0])
        if (((uintptr_t *)s)[1] == SLX_SLAB_CHUNK && k < max)
            chunks[k++] = s;
    return k;
}

static void ce_fill(struct ce_map *m, struct ce_item *v, unsigned n)
{
    cr_assert_eq(ce_map_init(m, NULL, 5), 0);
    for (unsigned i = 0; i < n; i++) {
        v[i].key = i;
        cr_assert_eq(ce_map_insert(m, &v[i], NULL), 0);
    }
}

/* Chunks a destroyed list lets go are kept for the next big list (up to
 * SKIPLIST_CHUNK_CACHE) instead of going back to malloc, which seldom
 * hands an aligned chunk out again; skiplist_release_cache frees them. */
Test(cov_engine, chunk_cache_reused_and_released, .timeout = 120)
{
    enum { N = 120000, MAXC = 64 };
    struct ce_item *v = (struct ce_item *)malloc(N * sizeof(*v));
    cr_assert_not_null(v);
    void *first[MAXC], *second[MAXC];
    skiplist_release_cache();
    cr_assert_eq(slx_chunk_cache_.n, 0u);

    struct ce_map m;
    ce_fill(&m, v, N);
    size_t held = ce_chunks_of(&m, first, MAXC);
    cr_assert_gt(held, 1u, "a list of %u holds %zu chunks", N, held);
    cr_assert_leq(held, (size_t)SKIPLIST_CHUNK_CACHE);
    ce_map_destroy(&m, NULL, NULL);
    cr_assert_eq(slx_chunk_cache_.n, held, "cache %zu, list let go %zu",
                 slx_chunk_cache_.n, held);

    /* The same list again takes back the very chunks, and the cache is
     * empty while they are in use. */
    ce_fill(&m, v, N);
    cr_assert_eq(ce_chunks_of(&m, second, MAXC), held);
    cr_assert_eq(slx_chunk_cache_.n, 0u);
    for (size_t i = 0; i < held; i++) {
        size_t j = 0;
        while (j < held && second[j] != first[i])
            j++;
        cr_assert_lt(j, held, "chunk %p not reused", first[i]);
    }
    ce_clean(&m);
    for (unsigned i = 0; i < N; i++)
        cr_assert_eq(ce_map_find(&m, i), &v[i]);

    /* clear lets them go too; release frees them all and says how much. */
    ce_map_clear(&m, NULL, NULL);
    cr_assert_eq(slx_chunk_cache_.n, held);
    cr_assert_eq(skiplist_release_cache(), held * SLX_CHUNK);
    cr_assert_eq(slx_chunk_cache_.n, 0u);
    cr_assert_null(slx_chunk_cache_.top);
    cr_assert_eq(skiplist_release_cache(), 0u);
    ce_map_destroy(&m, NULL, NULL);
    free(v);
}

/* The cache keeps at most SKIPLIST_CHUNK_CACHE chunks: lists letting go
 * of more free the rest. */
Test(cov_engine, chunk_cache_capped, .timeout = 120)
{
    enum { N = 120000, LISTS = 40 };
    struct ce_item *v = (struct ce_item *)malloc(N * sizeof(*v));
    struct ce_map *m = (struct ce_map *)malloc(LISTS * sizeof(*m));
    cr_assert(v && m);
    skiplist_release_cache();
    size_t total = 0;
    unsigned lists = 0;
    void *scratch[64];
    while (lists < LISTS && total <= SKIPLIST_CHUNK_CACHE) {
        ce_fill(&m[lists], v, N);
        total += ce_chunks_of(&m[lists++], scratch, 64);
    }
    cr_assert_gt(total, (size_t)SKIPLIST_CHUNK_CACHE, "only %zu chunks", total);
    for (unsigned l = 0; l < lists; l++) {
        ce_map_destroy(&m[l], NULL, NULL);
        cr_assert_leq(slx_chunk_cache_.n, (size_t)SKIPLIST_CHUNK_CACHE);
    }
    cr_assert_eq(slx_chunk_cache_.n, (size_t)SKIPLIST_CHUNK_CACHE);
    cr_assert_eq(skiplist_release_cache(),
                 (size_t)SKIPLIST_CHUNK_CACHE * SLX_CHUNK);
    free(m);
    free(v);
}
#endif

/* ---------------------------------------------------- a queued copy */

struct ce_task {
    uint64_t key;
    struct skiplist_hook hook;
};
#define CE_TKEY(e) ((e)->key)
SKIPLIST_PQ_DEFINE(ce_q, struct ce_task, uint64_t, CE_TKEY, SKIPLIST_CMP_NUM,
                   hook, SKIPLIST_PQ_DEFAULTS)

/* A struct copy of a queued element carries its hook (leaf and queue) but
 * is not queued: remove must answer -ENOENT and change nothing, whether
 * the leaf is found by a pointer scan (a sole leaf of a few elements) or
 * by the wide compare of a leaf of more than 16 (the default KPN 64). */
static void ce_copy_not_queued(unsigned n)
{
    struct ce_task *v = (struct ce_task *)calloc(n, sizeof(*v));
    cr_assert_not_null(v);
    struct ce_q q;
    char why[256] = "";
    cr_assert_eq(ce_q_init(&q, NULL, 2), 0);
    for (unsigned i = 0; i < n; i++) {
        skiplist_hook_init(&v[i].hook);
        v[i].key = (i * 7919u) % n;
        cr_assert_eq(ce_q_push(&q, &v[i]), 0);
    }
    for (unsigned i = 0; i < n; i += n / 4 + 1) {
        struct ce_task copy = v[i];
        cr_assert_eq(ce_q_remove(&q, &copy), -ENOENT, "copy of element %u", i);
        cr_assert_eq(ce_q_count(&q), (size_t)n);
        cr_assert_eq(ce_q_check(&q, why, sizeof why), 0, "%s", why);
    }
    for (unsigned k = 0; k < n; k++) {
        struct ce_task *t = ce_q_pop(&q);
        cr_assert_not_null(t);
        cr_assert_eq(t->key, k);
    }
    ce_q_destroy(&q, NULL, NULL);
    free(v);
}

Test(cov_engine, remove_of_a_copy_of_a_queued_element)
{
    ce_copy_not_queued(6);    /* one leaf, scanned */
    ce_copy_not_queued(2000); /* leaves of 32-64: compared in a window */
}
