/*
 * The bulk calls (issue #30: name_build, name_erase_range, name_find_many,
 * name_lower_bound_many) on the keyed faces against model_map.h's sorted
 * array: the ordered index (SKIPLIST_DEFINE), its ranked twin
 * (SKIPLIST_RANKED_DEFINE) and the priority queue (SKIPLIST_PQ_DEFINE,
 * whose FIFO among equal keys is the model's insert after equal keys),
 * over leaf sizes from 1 to 256. The extent face is test_bulk_extent.c's.
 *
 * For each build size of bulk_sizes() (empty, one, around one leaf and
 * around the leaf boundaries of a build) and a big one (10^5 on the
 * defaults and a small leaf size of each face, 4000 on the others, 3000
 * without an index, MAXLVL 1, where every search walks the leaves), a run
 * builds a list from sorted keys (a quarter of the sets start at the key
 * space's first key, a quarter end at its last; a queue's have runs of
 * equal keys), looks every key up, then inserts into the fresh leaves at
 * once, then runs random operations:
 * inserts, erases, pops, erase_range over ranges of every shape (one key,
 * none between keys, the whole list, from the key space's first key or to
 * its last, reversed, windows over several leaves), find_many and
 * lower_bound_many of keys present, absent and at the key space's ends.
 * check() runs after every step, the whole contents are compared with the
 * model after every change of a list of up to 1200 (else every 8th),
 * with, on a ranked instance, every position's at and rank_of and every
 * key's rank (mm_rank_compare_r). Last, the list is emptied (erase_range,
 * pops or clear) and built again.
 *
 * SEED=<n> replays a test; TEST_SCALE=<k> runs k times the operations.
 */
#include <criterion/criterion.h>

#include "test_common.h"
#include "model_map.h"
#include "model_extent.h"
#include "model_bulk.h"

/* name, the big build (KD_BIG: 10^5, on a small leaf size and the
 * defaults; else KD_MID, or KD_WALK without an index), label,
 * descending, KEY_OF, CMP, KPN, MAXLVL, PSHIFT: each an ordered index
 * (kd_<name>) and a ranked one (kd_<name>_rk). */
#define KD_MAP_CONFIGS(X)                                                      \
    X(k1, KD_MID, "k1_l32_p1", false, BULK_ITEM_KEY, SKIPLIST_CMP_NUM, 1, 32,  \
      1)                                                                       \
    X(k2, KD_MID, "k2_l8_p1", false, BULK_ITEM_KEY, SKIPLIST_CMP_NUM, 2, 8, 1) \
    X(k4, KD_BIG, "k4_l4_p2", false, BULK_ITEM_KEY, SKIPLIST_CMP_NUM, 4, 4, 2) \
    X(desc_k3, KD_MID, "desc_k3_l8_p1", true, bulk_item_key, MAP_CMP_DESC, 3,  \
      8, 1)                                                                    \
    X(def, KD_BIG, "defaults", false, BULK_ITEM_KEY, SKIPLIST_CMP_NUM,         \
      SKIPLIST_DEFAULT_KPN, SKIPLIST_DEFAULT_MAXLVL, SKIPLIST_DEFAULT_PSHIFT)  \
    X(k256_l1, KD_WALK, "k256_l1_p4", false, BULK_ITEM_KEY, SKIPLIST_CMP_NUM,  \
      256, 1, 4)

#define KD_MAP_DEFINE(name, big, label, desc, ...)        \
    KFACE_MAP_DEFINE(kd_##name, label, desc, __VA_ARGS__) \
    KFACE_RANKED_DEFINE(kd_##name##_rk, label " ranked", desc, __VA_ARGS__)
KD_MAP_CONFIGS(KD_MAP_DEFINE)

/* Queues: one key per leaf without an index, bitmap leaves (8) without an
 * index, the defaults, 256-key leaves. */
KFACE_PQ_DEFINE(kd_pq_k1, "pq k1_l1_p1", 1, 1, 1)
KFACE_PQ_DEFINE(kd_pq_k3, "pq k3_l32_p4", 3, 32, 4)
KFACE_PQ_DEFINE(kd_pq_k8, "pq k8_l1_p1", 8, 1, 1)
KFACE_PQ_DEFINE(kd_pq_def, "pq defaults", SKIPLIST_DEFAULT_KPN,
                SKIPLIST_DEFAULT_MAXLVL, SKIPLIST_PQ_DEFAULT_PSHIFT)
KFACE_PQ_DEFINE(kd_pq_k256, "pq k256_l24_p1", 256, 24, 1)

/* The big build: 10^5 (a fifth of it under ASan, which runs every
 * check() ten times slower) on a few instances, fewer on the others (the
 * suite's time is mostly the big builds'), and fewer still without an
 * index (MAXLVL 1), where every search walks the leaves. */
enum {
    KD_BIG = TC_SANITIZED ? 20000 : 100000,
    KD_MID = 4000,
    KD_WALK = 3000,
    KD_EXTRA = 160,
    KD_MANY_MAX = 80
};

struct kd {
    const struct kface *o;
    const struct bulk_ops *b;
    void *l;
    struct model_map m;
    struct bulk_item *items;
    size_t pool;
    uint64_t *keys; /* scratch: pool keys */
    void **out, **buf;
    struct bulk_rec rec;
    struct tc_alloc ta;
    bool counted; /* the list uses ta, else the default allocator */
    struct tc_rng rng;
    uint64_t seed;
    size_t size; /* of the build this run started with */
    unsigned long op;
    const char *what;
    unsigned long ranges, erased, lookups;
    unsigned long skipped; /* changes not followed by kd_compare */
};

#define KD_OK(d, cond, msg)                                          \
    cr_assert((cond), "[%s size %zu SEED=%" PRIu64 " op %lu %s] %s", \
              (d)->o->label, (d)->size, (d)->seed, (d)->op, (d)->what, msg)

static uint64_t kd_rand(struct kd *d, uint64_t n)
{
    return tc_below(&d->rng, n);
}

/* The key space's first and last key in the list's order. */
static uint64_t kd_min(const struct kd *d)
{
    return d->o->desc ? UINT64_MAX : 0;
}

static uint64_t kd_max(const struct kd *d)
{
    return d->o->desc ? 0 : UINT64_MAX;
}

static struct bulk_item *kd_item(const struct kd *d, size_t i)
{
    return (struct bulk_item *)(void *)d->m.v[i];
}

static void kd_check(struct kd *d)
{
    char why[256] = "";
    KD_OK(d, d->o->check(d->l, why, sizeof why) == 0, why);
    KD_OK(d, d->o->count(d->l) == d->m.n, "count differs from the model");
}

/* The whole contents both ways, a queue's hooks, a ranked instance's
 * positions and keys. */
static void kd_compare(struct kd *d)
{
    const struct model_map *m = &d->m;
    size_t n = d->o->walk(d->l, d->buf, d->pool + 1);
    KD_OK(d, n == m->n, "FOREACH length differs from the model");
    KD_OK(d, bulk_diff_at(d->buf, (const void *const *)m->v, n) == n,
          "FOREACH element differs");
    n = d->o->walk_rev(d->l, d->buf, d->pool + 1);
    KD_OK(d, n == m->n, "FOREACH_REVERSE length differs from the model");
    size_t i = 0;
    while (i < n && d->buf[i] == (void *)m->v[m->n - 1 - i])
        i++;
    KD_OK(d, i == n, "FOREACH_REVERSE element differs");
    for (i = 0; d->o->queued && i < d->pool; i++)
        if (d->o->queued(&d->items[i]) != d->items[i].m.in_list)
            break;
    KD_OK(d, !d->o->queued || i == d->pool, "queued() differs from the model");
    char why[200] = "";
    KD_OK(d,
          !d->o->rank ||
              mm_rank_compare_r(d->o->rank, d->l, m, d->buf, why, sizeof why),
          why);
}

/* After a change: check(), and the whole comparison when it is cheap. */
static void kd_changed(struct kd *d)
{
    kd_check(d);
    if (d->m.n <= 1200 || ++d->skipped % 8 == 0)
        kd_compare(d);
    else if (d->o->rank) { /* a position and a key, at least */
        size_t i = rank_pos(&d->rng, d->m.n);
        KD_OK(d, d->o->rank->at(d->l, i) == (void *)mm_at(&d->m, i),
              "at differs from the model");
        uint64_t k = d->m.n ? d->m.v[kd_rand(d, d->m.n)]->key : 0;
        KD_OK(d, d->o->rank->rank(d->l, k) == mm_lower(&d->m, k),
              "rank differs from the model");
    }
}

/* A key to look up or insert: mostly next to a present one (the keys of a
 * build are 2 to 9 apart, so its neighbours are often absent), else an
 * end of the key space or anywhere. */
static uint64_t kd_key(struct kd *d)
{
    uint64_t r = kd_rand(d, 16);
    if (r == 0)
        return kd_min(d);
    if (r == 1)
        return kd_max(d);
    if (r == 2 || d->m.n == 0)
        return tc_rand64(&d->rng);
    uint64_t k = d->m.v[kd_rand(d, d->m.n)]->key;
    uint64_t delta = kd_rand(d, 4);
    if (kd_rand(d, 2))
        return k > UINT64_MAX - delta ? UINT64_MAX : k + delta;
    return k < delta ? 0 : k - delta;
}

static struct bulk_item *kd_free_item(struct kd *d)
{
    for (int tries = 0; tries < 16; tries++) {
        struct bulk_item *e = &d->items[kd_rand(d, d->pool)];
        if (!e->m.in_list)
            return e;
    }
    return NULL;
}

/* The model's side of a list that took e: after its equal keys. */
static void kd_model_add(struct kd *d, struct bulk_item *e)
{
    mm_insert_multi(&d->m, &e->m);
    e->m.in_list = true;
}

static void kd_insert(struct kd *d)
{
    struct bulk_item *e = kd_free_item(d);
    if (!e)
        return;
    d->what = d->o->queue ? "push" : "insert";
    e->m.key = kd_key(d);
    bool clash = !d->o->queue && mm_find(&d->m, e->m.key);
    int rc = d->o->insert(d->l, e);
    KD_OK(d, rc == (clash ? -EEXIST : 0), "insert's result");
    if (!clash)
        kd_model_add(d, e);
    kd_changed(d);
}

static void kd_erase(struct kd *d)
{
    struct bulk_item *e = &d->items[kd_rand(d, d->pool)];
    d->what = d->o->queue ? "remove" : "erase";
    int rc = d->o->erase(d->l, e);
    KD_OK(d, rc == (e->m.in_list ? 0 : -ENOENT), "erase's result");
    if (e->m.in_list) {
        mm_remove_at(&d->m, mm_index_of(&d->m, &e->m));
        e->m.in_list = false;
    }
    kd_changed(d);
}

static void kd_pop(struct kd *d)
{
    d->what = "pop";
    struct bulk_item *e = d->o->pop(d->l);
    KD_OK(d, (void *)e == (void *)mm_at(&d->m, 0), "pop's element");
    if (e) {
        mm_remove_at(&d->m, 0);
        e->m.in_list = false;
    }
    kd_changed(d);
}

/* A present key's neighbour in the list's order: step > 0 after it. */
static uint64_t kd_next_to(const struct kd *d, uint64_t k, int step)
{
    bool up = (step > 0) != d->o->desc;
    if (up)
        return k == UINT64_MAX ? k : k + 1;
    return k == 0 ? k : k - 1;
}

/* A range of one of the shapes erase_range must get right, [*lo, *hi] in
 * the list's order (reversed: *lo after *hi). */
static void kd_range(struct kd *d, uint64_t *lo, uint64_t *hi)
{
    const struct model_map *m = &d->m;
    size_t n = m->n;
    size_t i = n ? (size_t)kd_rand(d, n) : 0;
    uint64_t k = n ? m->v[i]->key : kd_key(d);
    size_t span = (size_t)kd_rand(d, 3u * d->o->kpn + 6u);
    size_t j = n ? (i + span < n ? i + span : n - 1) : 0;
    uint64_t kj = n ? m->v[j]->key : k;
    uint64_t r = kd_rand(d, 40);
    *lo = k;
    *hi = kj;
    if (r < 4) { /* one key */
        d->what = "erase_range of one key";
        *hi = k;
    } else if (r < 8) { /* between two keys, or past the ends: nothing */
        d->what = "erase_range between keys";
        *lo = *hi = kd_next_to(d, k, kd_rand(d, 2) ? 1 : -1);
    } else if (r < 9) {
        d->what = "erase_range of everything";
        if (kd_rand(d, 2) && n) {
            *lo = m->v[0]->key;
            *hi = m->v[n - 1]->key;
        } else {
            *lo = kd_min(d);
            *hi = kd_max(d);
        }
    } else if (r < 12) {
        d->what = "erase_range from the first key of the key space";
        *lo = kd_min(d);
        *hi = n ? m->v[(size_t)kd_rand(d, span + 1) % n]->key : k;
    } else if (r < 15) {
        d->what = "erase_range to the last key of the key space";
        *lo = n ? m->v[n - 1 - (size_t)kd_rand(d, span + 1) % n]->key : k;
        *hi = kd_max(d);
    } else if (r < 18) {
        d->what = "erase_range reversed";
        *lo = kj == *hi && kj != k ? kj : kd_next_to(d, k, 1);
        *hi = k;
    } else {
        d->what = "erase_range of a window";
        /* the ends at keys or next to them (between keys) */
        if (kd_rand(d, 3) == 0)
            *lo = kd_next_to(d, *lo, -1);
        else if (kd_rand(d, 3) == 0)
            *lo = kd_next_to(d, *lo, 1);
        if (kd_rand(d, 3) == 0)
            *hi = kd_next_to(d, *hi, 1);
        else if (kd_rand(d, 3) == 0)
            *hi = kd_next_to(d, *hi, -1);
    }
}

static void kd_erase_range(struct kd *d)
{
    uint64_t lo, hi;
    kd_range(d, &lo, &hi);
    size_t first, cnt = mm_range(&d->m, lo, hi, &first);
    bool with_fn = kd_rand(d, 8) != 0;
    size_t got;
    const char *bad =
        bulk_erase_range_diff(d->b, d->l, lo, hi, with_fn, &d->rec,
                              (void **)d->m.v + first, cnt, &got);
    d->ranges++;
    d->erased += got;
    KD_OK(d, !bad, bad);
    for (size_t i = 0; i < cnt; i++)
        d->m.v[first + i]->in_list = false;
    mm_remove_range(&d->m, first, cnt);
    kd_changed(d);
}

static const void *kd_answer(const void *m, uint64_t key, bool find)
{
    const struct model_map *mm = (const struct model_map *)m;
    return find ? mm_find(mm, key) : mm_lower_bound(mm, key);
}

/* find_many and lower_bound_many of nk keys against the model. */
static void kd_lookup(struct kd *d, const uint64_t *keys, size_t nk)
{
    d->lookups += nk;
    d->what = "find_many, lower_bound_many";
    const char *bad = bulk_lookup_diff(d->b, d->l, &d->m, kd_answer, keys, nk,
                                       d->out, d->buf);
    KD_OK(d, !bad, bad);
}

/* Lookups of keys present, absent and at the key space's ends. */
static void kd_many(struct kd *d)
{
    size_t nk = bulk_many_count(&d->rng, KD_MANY_MAX);
    for (size_t i = 0; i < nk; i++)
        d->keys[i] = kd_key(d);
    kd_lookup(d, d->keys, nk);
}

/* Builds the list (empty) from n sorted keys on items [0, n), all free. */
static void kd_build(struct kd *d, size_t n)
{
    d->what = "build";
    bulk_keys(&d->rng, d->keys, n, !d->o->queue, d->o->desc);
    for (size_t i = 0; i < n; i++) {
        d->items[i].m.key = d->keys[i];
        d->out[i] = &d->items[i];
    }
    int rc = d->b->build(d->l, d->out, n);
    KD_OK(d, rc == 0, "build did not return 0");
    for (size_t i = 0; i < n; i++)
        kd_model_add(d, &d->items[i]);
    kd_check(d);
    kd_compare(d);
    /* every key present, and each next to it */
    kd_lookup(d, d->keys, n);
    for (size_t i = 0; i < n; i++)
        d->keys[i] = kd_next_to(d, d->keys[i], i % 2 ? 1 : -1);
    kd_lookup(d, d->keys, n);
}

/* Inserts into the fresh leaves at once: room left in a leaf, a full sole
 * leaf's split, a small sole leaf's growth. */
static void kd_burst(struct kd *d, size_t most)
{
    size_t k = d->o->kpn + 3u < most ? d->o->kpn + 3u : most;
    for (size_t i = 0; i < k; i++)
        kd_insert(d);
}

/* Every element leaves, by one of erase_range over the whole key space,
 * pops, or clear. */
static void kd_empty(struct kd *d)
{
    uint64_t how = kd_rand(d, d->b->erase_range ? 3 : 2);
    if (how == 2) {
        d->what = "erase_range of the whole key space";
        size_t got = d->b->erase_range(d->l, kd_min(d), kd_max(d), NULL, NULL);
        KD_OK(d, got == d->m.n, "erase_range's count");
    } else if (how == 1) {
        d->what = "pops until empty";
        for (size_t i = 0; i < d->m.n; i++)
            KD_OK(d, d->o->pop(d->l) == kd_item(d, i), "pop's element");
        KD_OK(d, d->o->pop(d->l) == NULL, "pop of an empty list");
    } else {
        d->what = "clear";
        d->o->clear(d->l);
    }
    for (size_t i = 0; i < d->m.n; i++)
        d->m.v[i]->in_list = false;
    d->m.n = 0;
    kd_check(d);
    kd_compare(d);
}

/* A run from a build of n: the inserts at once (at most burst), ops
 * random operations, then empty and a build again. */
static void kd_run_size(struct kd *d, size_t n, unsigned long ops, size_t burst)
{
    d->size = n;
    d->op = 0;
    d->pool = n + KD_EXTRA;
    d->items = bulk_items(d->pool);
    d->keys = (uint64_t *)malloc(d->pool * sizeof(uint64_t));
    d->out = (void **)malloc((d->pool + 1) * sizeof(void *));
    d->buf = (void **)malloc((d->pool + 1) * sizeof(void *));
    d->l = malloc(d->o->size);
    cr_assert(d->keys && d->out && d->buf && d->l);
    mm_init(&d->m, d->o->desc);
    tc_alloc_init(&d->ta);
    d->counted = n % 2 == 0; /* else the default allocator, never written */
    d->what = "init";
    KD_OK(d, d->o->init(d->l, d->counted ? &d->ta.iface : NULL, d->seed) == 0,
          "init");
    kd_build(d, n);
    kd_burst(d, burst);
    for (d->op = 1; d->op <= ops; d->op++) {
        uint64_t r = kd_rand(d, 100);
        if (r < 30)
            kd_insert(d);
        else if (r < 45)
            kd_erase(d);
        else if (r < 50)
            kd_pop(d);
        else if (r < 72 && d->b->erase_range)
            kd_erase_range(d);
        else
            kd_many(d);
    }
    /* emptied and built again: a list that held elements */
    kd_empty(d);
    size_t n2 = (size_t)kd_rand(d, n < 2000 ? n + KD_EXTRA / 2 : 2000);
    kd_build(d, n2);
    kd_burst(d, burst);
    kd_many(d);
    d->what = "destroy";
    d->o->destroy(d->l);
    if (d->counted) {
        KD_OK(d, d->ta.live == 0, "blocks leaked after destroy");
        KD_OK(d, d->ta.bad_frees == 0, "a free did not match its allocation");
    }
    KD_OK(d, tc_no_leaks(), "LeakSanitizer found a leak after destroy");
    mm_free(&d->m);
    free(d->items);
    free(d->keys);
    free(d->out);
    free(d->buf);
    free(d->l);
}

static void kd_run(const struct kface *o, size_t big, const char *test)
{
    static struct kd run;
    struct kd *d = &run;
    memset(d, 0, sizeof(*d));
    d->o = o;
    d->b = o->bulk;
    d->seed = tc_seed(test);
    tc_rng_init(&d->rng, d->seed);
    size_t sizes[20];
    size_t ns = bulk_sizes(o->kpn, sizes);
    for (size_t s = 0; s < ns; s++)
        kd_run_size(d, sizes[s], tc_ops(48), 40);
    kd_run_size(d, big, tc_ops(6), 6);
    fprintf(stderr,
            "bulk_diff %s: %zu build sizes and a big one, %lu erase_range "
            "(%lu erased), %lu keys looked up, SEED=%" PRIu64 "\n",
            o->label, ns, d->ranges, d->erased, d->lookups, d->seed);
    bulk_rec_free(&d->rec);
}

#define KD_MAP_TESTS(name, big, ...)                                          \
    Test(bulk_diff, map_##name)                                               \
    {                                                                         \
        kd_run(&kd_##name##_kface, big, "bulk_diff.map_" #name);              \
    }                                                                         \
    Test(bulk_diff, map_##name##_ranked)                                      \
    {                                                                         \
        kd_run(&kd_##name##_rk_kface, big, "bulk_diff.map_" #name "_ranked"); \
    }
KD_MAP_CONFIGS(KD_MAP_TESTS)

#define KD_PQ_TEST(name, big)                                \
    Test(bulk_diff, name)                                    \
    {                                                        \
        kd_run(&kd_##name##_kface, big, "bulk_diff." #name); \
    }
KD_PQ_TEST(pq_k1, KD_WALK)
KD_PQ_TEST(pq_k3, KD_BIG)
KD_PQ_TEST(pq_k8, KD_WALK)
KD_PQ_TEST(pq_def, KD_BIG)
KD_PQ_TEST(pq_k256, KD_MID)

/* A queue built from runs of equal keys across several leaves (3 keys per
 * leaf, runs of 1 to 7) pops them in the order given. */
Test(bulk_diff, pq_build_equal_keys_pop_in_given_order)
{
    enum { N = 60 };
    struct bulk_item *v = bulk_items(N);
    void *p[N];
    struct kd_pq_k3 q;
    uint64_t k = 5;
    for (size_t i = 0; i < N; i++) {
        if (i % 7 == 0 || i % 11 == 0)
            k++;
        v[i].m.key = k;
        p[i] = &v[i];
    }
    cr_assert_eq(kd_pq_k3_init(&q, NULL, 3), 0);
    cr_assert_eq(kd_pq_k3_build(&q, (struct bulk_item *const *)(void *)p, N),
                 0);
    char why[256] = "";
    cr_assert_eq(kd_pq_k3_check(&q, why, sizeof why), 0, "%s", why);
    for (size_t i = 0; i < N; i++) {
        struct bulk_item *e = kd_pq_k3_pop(&q);
        cr_assert_eq(e, &v[i], "pop %zu: element %d", i, e ? (int)e->m.id : -1);
        cr_assert_not(kd_pq_k3_queued(e));
    }
    cr_assert_null(kd_pq_k3_pop(&q));
    kd_pq_k3_destroy(&q, NULL, NULL);
    free(v);
    cr_assert(tc_no_leaks());
}

/*
 * A build of n > kpn fills each leaf with n / leaves or one more, leaves
 * being n over kpn * 7 / 8 rounded up; one of n <= kpn takes one leaf. On
 * instances without an index (MAXLVL 1) the leaves are all the build
 * allocates, so with the counting allocator the bytes a build adds are
 * that many full leaves (a full leaf's size: the bytes of a build of kpn).
 */
static size_t kd_build_bytes(const struct kface *o, size_t n,
                             struct bulk_item *v, void **p)
{
    struct tc_alloc ta;
    void *l = malloc(o->size);
    cr_assert_not_null(l);
    tc_alloc_init(&ta);
    cr_assert_eq(o->init(l, &ta.iface, 1), 0);
    size_t base = o->bytes(l);
    for (size_t i = 0; i < n; i++) {
        v[i].m.key = 10 * i;
        p[i] = &v[i];
    }
    cr_assert_eq(o->bulk->build(l, p, n), 0, "%s: build of %zu", o->label, n);
    size_t b = o->bytes(l) - base;
    o->destroy(l);
    cr_assert_eq(ta.live, 0);
    free(l);
    return b;
}

Test(bulk_diff, build_fills_leaves_to_seven_eighths)
{
    const struct kface *const all[] = {&kd_k256_l1_kface, &kd_pq_k8_kface,
                                       &kd_pq_k1_kface};
    enum { N = 3000 };
    struct bulk_item *v = bulk_items(N);
    void **p = (void **)malloc(N * sizeof(void *));
    cr_assert_not_null(p);
    for (size_t c = 0; c < sizeof(all) / sizeof(all[0]); c++) {
        const struct kface *o = all[c];
        size_t kpn = o->kpn, per = kpn * 7 / 8 ? kpn * 7 / 8 : 1;
        size_t leaf = kd_build_bytes(o, kpn, v, p);
        cr_assert_gt(leaf, 0);
        const size_t ns[] = {kpn + 1,     2 * per,     2 * per + 1,
                             5 * per - 1, 5 * per + 1, N};
        for (size_t s = 0; s < sizeof(ns) / sizeof(ns[0]); s++) {
            size_t n = ns[s], leaves = (n + per - 1) / per;
            size_t got = kd_build_bytes(o, n, v, p);
            cr_assert_eq(got, leaves * leaf,
                         "%s: a build of %zu took %zu bytes, %zu leaves of "
                         "%zu are %zu",
                         o->label, n, got, leaves, leaf, leaves * leaf);
        }
        for (size_t n = 1; n < kpn; n++)
            cr_assert_leq(kd_build_bytes(o, n, v, p), leaf,
                          "%s: a build of %zu took more than a leaf", o->label,
                          n);
    }
    free(v);
    free(p);
}

/* build prefetches elements ahead of the one it reads (SLX_BUILD_AHEAD):
 * never past the end of its input. Each build here reads an array of
 * exactly n pointers, so under ASan one read past it is an error. Found by
 * the mutant bulk-build-prefetch-past-end. */
Test(bulk_diff, build_reads_only_its_input)
{
    const struct kface *const all[] = {&kd_k256_l1_kface, &kd_pq_k8_kface};
    const size_t ns[] = {1, 15, 16, 17, 33, 224, 225, 300, 1000};
    enum { N = 1000 };
    struct bulk_item *v = bulk_items(N);
    for (size_t c = 0; c < sizeof(all) / sizeof(all[0]); c++)
        for (size_t s = 0; s < sizeof(ns) / sizeof(ns[0]); s++) {
            size_t n = ns[s];
            void **p = (void **)malloc(n * sizeof(void *));
            cr_assert_not_null(p);
            cr_assert_gt(kd_build_bytes(all[c], n, v, p), 0, "%s: build of %zu",
                         all[c]->label, n);
            free(p);
        }
    free(v);
}

/* ------------------------------------------------- erase_range's edges */

static const void *be_elem(const void *m, size_t i)
{
    return ((void *const *)m)[i];
}

/* Whether erase_range(lo, hi) takes element i of a bulk_set: its key in
 * [lo, hi], or its extent [10 i + 5, 10 i + 7] overlapping it. */
static bool be_in(const struct bulk_target *t, size_t i, uint64_t lo,
                  uint64_t hi)
{
    uint64_t k = 10 * (uint64_t)i + 5;
    return t->x ? k <= hi && k + 2 >= lo : lo <= k && k <= hi;
}

/* erase_range's callback for erase_range_edges: records e, and checks
 * that e has left the list already (its key, or its extent's start, is not
 * found) and that the list passes check() as fn sees it. */
struct be_ctx {
    struct bulk_rec rec;
    const struct bulk_target *t;
    const void *l;
    size_t still_in, broken;
};

static void be_cb(void *e, void *arg)
{
    struct be_ctx *c = (struct be_ctx *)arg;
    const struct bulk_target *t = c->t;
    uint64_t key = t->k ? ((struct bulk_item *)e)->m.key : t->x->start(e);
    void *found = NULL;
    char why[128];
    bulk_rec_cb(e, &c->rec);
    bulk_ops_of(t)->find_many(c->l, &key, 1, &found);
    c->still_in += found == e;
    c->broken += bulk_view_of(t).check(c->l, why, sizeof why) != 0;
}

/*
 * erase_range over a list of 40 (keys 10 i + 5, or extents [10 i + 5, +3):
 * ten leaves of 4) built afresh for each range: one element (first, last,
 * in the middle), nothing (between two keys, in a gap between extents,
 * below the first, above the last, at either end of the key space), the
 * whole key space and exactly the first to the last, from the key space's
 * first key or to its last, from a key to a key and between keys over
 * several leaves, a leaf's worth exactly; for extents also a point inside
 * one, its last unit to the next one's first. Each time: the count, the
 * elements fn got in order, check(), the rest in order and, ranked, every
 * position's at and rank_of. fn sees every element after it left the
 * list, and the list whole (check() passes inside fn).
 */
Test(bulk_diff, erase_range_edges)
{
    /* leaf size 4: the ordered index, u64 and u32 extents; plain, ranked */
    const struct bulk_target targets[] = {
        {&kd_k4_kface, NULL}, {&kd_k4_rk_kface, NULL}, {NULL, xops_all[2]},
        {NULL, xops_all[6]},  {NULL, xops_all[10]},    {NULL, xops_all[14]},
    };
    enum { N = 40 };
    const uint64_t M = UINT64_MAX;
    const uint64_t r[][2] = {
        {5, 5},   {395, 395}, {195, 195}, {6, 14},    {8, 14},  {0, 4},
        {396, M}, {0, 0},     {M, M},     {0, M},     {5, 395}, {0, 5},
        {395, M}, {100, 200}, {105, 205}, {4, 396},   {6, 6},   {7, 15},
        {35, 64}, {45, 75},   {17, 394},  {398, 399}, {1, 396}};
    for (size_t ti = 0; ti < sizeof(targets) / sizeof(targets[0]); ti++) {
        const struct bulk_target *t = &targets[ti];
        const struct bulk_ops *b = bulk_ops_of(t);
        struct bulk_view o = bulk_view_of(t);
        const struct rank_ops *rk = t->k ? t->k->rank : t->x->rank;
        uint64_t max = t->x ? t->x->max : UINT64_MAX;
        for (size_t k = 0; k < sizeof(r) / sizeof(r[0]); k++) {
            uint64_t lo = r[k][0] == M ? max : r[k][0];
            uint64_t hi = r[k][1] == M ? max : r[k][1];
            struct tc_alloc ta;
            struct bulk_set s;
            struct be_ctx c = {{NULL, 0, 0}, t, NULL, 0, 0};
            struct bulk_rec *rec = &c.rec;
            void *rest[N + 1], *buf[N + 1];
            size_t nrest = 0, want = 0;
            int err = 0;
            tc_alloc_init(&ta);
            void *l = bulk_open(t, &ta.iface, k, &err);
            cr_assert(l && err == 0);
            bulk_set_make(&s, t, N);
            cr_assert_eq(b->build(l, s.v, N), 0);
            c.l = l;
            size_t got = b->erase_range(l, lo, hi, be_cb, &c);
            for (size_t i = 0; i < N; i++) {
                if (!be_in(t, i, lo, hi)) {
                    rest[nrest++] = s.v[i];
                    continue;
                }
                cr_assert(want < rec->n && rec->v[want] == s.v[i],
                          "%s [%" PRIu64 ", %" PRIu64 "]: fn's element %zu",
                          bulk_label(t), lo, hi, want);
                want++;
            }
            cr_assert(got == want && rec->n == want,
                      "%s [%" PRIu64 ", %" PRIu64 "]: erased %zu, fn got "
                      "%zu, should be %zu",
                      bulk_label(t), lo, hi, got, rec->n, want);
            cr_assert(c.still_in == 0 && c.broken == 0,
                      "%s [%" PRIu64 ", %" PRIu64 "]: fn found %zu of its "
                      "elements still in the list, check() failing %zu times",
                      bulk_label(t), lo, hi, c.still_in, c.broken);
            char why[256] = "";
            cr_assert_eq(o.check(l, why, sizeof why), 0,
                         "%s [%" PRIu64 ", %" PRIu64 "]: %s", bulk_label(t), lo,
                         hi, why);
            cr_assert(o.count(l) == nrest && o.walk(l, buf, N + 1) == nrest &&
                          bulk_diff_at(buf, (const void *const *)rest, nrest) ==
                              nrest,
                      "%s [%" PRIu64 ", %" PRIu64 "]: what is left differs",
                      bulk_label(t), lo, hi);
            cr_assert(!rk ||
                          rank_compare_positions(rk, l, rest, nrest, be_elem, 0,
                                                 max, buf, why, sizeof why),
                      "%s [%" PRIu64 ", %" PRIu64 "]: %s", bulk_label(t), lo,
                      hi, why);
            bulk_close(t, l);
            cr_assert_eq(ta.live, 0);
            bulk_set_free(&s, t);
            bulk_rec_free(rec);
        }
    }
}
