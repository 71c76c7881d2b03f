/*
 * Allocation failure inside name_build (issue #30), on every face: the
 * ordered index and its ranked twin (leaf sizes 2 and the default), the
 * extent index (every instantiation of tests/test_extent_ops.c, plain and
 * ranked) and the priority queue (3 and the default).
 *
 * For each build size (one small leaf, one full leaf, two leaves, 7 and 40
 * leaves' worth with an index of several levels) a build is run with the
 * kth allocation failing, for k = 1, 2, ... until a build allocates fewer
 * than k times, and again with every allocation from the kth on failing.
 * Every build the allocator failed must return -ENOMEM and leave the list
 * empty (count 0, check() passes), the allocator holding no more than
 * before the build (exactly as much on a list never built before: nothing
 * leaked, nothing kept), and no element queued; then, the allocator
 * healed, a build of the same elements must succeed and hold them in
 * order. Each sweep runs on a list never built and again on one that
 * held elements and was emptied by erase (a map's or queue's sole leaf
 * kept). Every run ends with destroy and zero live blocks.
 */
#include <criterion/criterion.h>

#include "test_common.h"
#include "model_map.h"
#include "model_extent.h"
#include "model_bulk.h"

KFACE_MAP_DEFINE(ba_k2, "k2_l8_p1", false, BULK_ITEM_KEY, SKIPLIST_CMP_NUM, 2,
                 8, 1)
KFACE_MAP_DEFINE(ba_def, "defaults", false, BULK_ITEM_KEY, SKIPLIST_CMP_NUM,
                 SKIPLIST_DEFAULT_KPN, SKIPLIST_DEFAULT_MAXLVL,
                 SKIPLIST_DEFAULT_PSHIFT)
KFACE_RANKED_DEFINE(ba_k2_rk, "k2_l8_p1 ranked", false, BULK_ITEM_KEY,
                    SKIPLIST_CMP_NUM, 2, 8, 1)
KFACE_RANKED_DEFINE(ba_def_rk, "defaults ranked", false, BULK_ITEM_KEY,
                    SKIPLIST_CMP_NUM, SKIPLIST_DEFAULT_KPN,
                    SKIPLIST_DEFAULT_MAXLVL, SKIPLIST_DEFAULT_PSHIFT)
KFACE_PQ_DEFINE(ba_pq_k3, "pq k3_l32_p4", 3, 32, 4)
KFACE_PQ_DEFINE(ba_pq_def, "pq defaults", SKIPLIST_DEFAULT_KPN,
                SKIPLIST_DEFAULT_MAXLVL, SKIPLIST_PQ_DEFAULT_PSHIFT)

#define BA_OK(t, n, k, cond, msg)                                     \
    cr_assert((cond), "[%s build of %zu, allocation %lu failing] %s", \
              bulk_label(t), (n), (k), msg)

struct ba_stats {
    unsigned long runs, enomem;
};

/* The list holds the set, in order, and check() passes. */
static bool ba_holds(const struct bulk_target *t, void *l,
                     const struct bulk_set *s, void **buf)
{
    struct bulk_view o = bulk_view_of(t);
    char why[256];
    return o.check(l, why, sizeof why) == 0 && o.count(l) == s->n &&
           o.walk(l, buf, s->n + 1) == s->n &&
           bulk_diff_at(buf, (const void *const *)s->v, s->n) == s->n;
}

/* Empties the list by erase, one element at a time. */
static void ba_erase_all(const struct bulk_target *t, void *l,
                         const struct bulk_set *s)
{
    for (size_t i = 0; i < s->n; i++) {
        int rc = t->k ? t->k->erase(l, (struct bulk_item *)s->v[i])
                      : t->x->erase(l, s->v[i]);
        cr_assert_eq(rc, 0, "%s: erase %zu", bulk_label(t), i);
    }
}

/* One build of the set with allocation k failing (every one from k on
 * when persistent); emptied: on a list that held part of the set and was
 * emptied by erase. Returns whether the allocator failed the build. */
static bool ba_one(const struct bulk_target *t, const struct bulk_set *s,
                   void **buf, unsigned long k, bool persistent, bool emptied,
                   struct ba_stats *st)
{
    const struct bulk_ops *b = bulk_ops_of(t);
    struct bulk_view o = bulk_view_of(t);
    struct tc_alloc ta;
    int err = 0;
    tc_alloc_init(&ta);
    void *l = bulk_open(t, &ta.iface, 7, &err); /* one seed: one shape */
    BA_OK(t, s->n, k, l && err == 0, "init");
    if (emptied && s->n > 0) {
        struct bulk_set part = {s->v, s->n < 5 ? s->n : 5, NULL};
        BA_OK(t, s->n, k, b->build(l, part.v, part.n) == 0, "the first build");
        ba_erase_all(t, l, &part);
    }
    long live0 = ta.live;
    size_t bytes0 = o.bytes(l);
    if (persistent)
        tc_alloc_fail_from(&ta, k);
    else
        tc_alloc_fail_at(&ta, k);
    int rc = b->build(l, s->v, s->n);
    bool failed = ta.failures > 0;
    tc_alloc_heal(&ta);
    st->runs++;
    if (failed) {
        st->enomem++;
        char why[256] = "";
        BA_OK(t, s->n, k, rc == -ENOMEM, "a failed allocation, not -ENOMEM");
        BA_OK(t, s->n, k, o.check(l, why, sizeof why) == 0, why);
        BA_OK(t, s->n, k, o.count(l) == 0 && o.walk(l, buf, 1) == 0,
              "the list is not empty after -ENOMEM");
        BA_OK(t, s->n, k, ta.live <= live0,
              "the allocator holds more than before the build");
        BA_OK(t, s->n, k, emptied || (ta.live == live0 && o.bytes(l) == bytes0),
              "a failed build on a new list kept or leaked blocks");
        BA_OK(t, s->n, k, !bulk_set_any_queued(s, t),
              "an element is still queued after -ENOMEM");
        /* the elements again, the allocator healed */
        rc = b->build(l, s->v, s->n);
        BA_OK(t, s->n, k, rc == 0, "the build after -ENOMEM failed");
    } else {
        BA_OK(t, s->n, k, rc == 0, "a build without failure did not return 0");
    }
    BA_OK(t, s->n, k, ba_holds(t, l, s, buf), "the built list differs");
    bulk_close(t, l);
    BA_OK(t, s->n, k, ta.live == 0, "blocks leaked after destroy");
    BA_OK(t, s->n, k, ta.bad_frees == 0, "a free did not match its allocation");
    return failed;
}

static void ba_sweep(const struct bulk_target *t)
{
    unsigned kpn = bulk_kpn(t);
    size_t per = kpn * 7u / 8u ? kpn * 7u / 8u : 1u;
    const size_t sizes[] = {kpn > 1 ? kpn - 1u : 1u, kpn, kpn + 1u, 7 * per + 1,
                            40 * per + 1};
    struct ba_stats st = {0, 0};
    for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
        struct bulk_set s;
        bulk_set_make(&s, t, sizes[z]);
        void **buf = (void **)malloc((sizes[z] + 1) * sizeof(void *));
        cr_assert_not_null(buf);
        for (int persistent = 0; persistent < 2; persistent++)
            for (int emptied = 0; emptied < 2; emptied++)
                for (unsigned long k = 1;
                     ba_one(t, &s, buf, k, persistent, emptied, &st); k++)
                    ;
        free(buf);
        bulk_set_free(&s, t);
    }
    cr_assert_gt(st.enomem, 0, "%s: no build failed", bulk_label(t));
    fprintf(stderr, "bulk_alloc %s: %lu builds, %lu failed cleanly\n",
            bulk_label(t), st.runs, st.enomem);
    cr_assert(tc_no_leaks());
}

static void ba_keyed(const struct kface *const *k, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct bulk_target t = {k[i], NULL};
        ba_sweep(&t);
    }
}

/* xops_all's plain instances (ranked: false) or ranked ones. */
static void ba_extents(bool ranked)
{
    for (size_t i = 0; i < xops_count; i++) {
        struct bulk_target t = {NULL, xops_all[i]};
        if ((xops_all[i]->rank != NULL) == ranked)
            ba_sweep(&t);
    }
}

Test(bulk_alloc, build_map)
{
    const struct kface *const k[] = {&ba_k2_kface, &ba_def_kface};
    ba_keyed(k, 2);
}

Test(bulk_alloc, build_map_ranked)
{
    const struct kface *const k[] = {&ba_k2_rk_kface, &ba_def_rk_kface};
    ba_keyed(k, 2);
}

Test(bulk_alloc, build_extent)
{
    ba_extents(false);
}

Test(bulk_alloc, build_extent_ranked)
{
    ba_extents(true);
}

Test(bulk_alloc, build_pq)
{
    const struct kface *const k[] = {&ba_pq_k3_kface, &ba_pq_def_kface};
    ba_keyed(k, 2);
}
