/*
 * Unit tests for every function SKIPLIST_DEFINE generates, written once and
 * included by test_map_unit.c for each configuration: define UT to the
 * instance name (over struct map_item) and include this file. The suite
 * name is the instance name, so --filter 'map_k4/<test>' picks one config.
 *
 * Sizes are chosen so every test spans many leaves even at the default
 * keys per node: splits, merges and leaf boundaries are where bugs live.
 */
#ifndef UT
#error "define UT (the instance name) before including test_map_unit_body.h"
#endif

/* The helpers below are static and per configuration: U(name) pastes the
 * instance name in front, so each inclusion gets its own copies. */

static void U(fill_unique)(SL *sl, struct map_item *it, size_t n,
                           uint64_t stride, uint64_t seed)
{
    size_t *perm = shuffled(n, seed);
    for (size_t i = 0; i < n; i++) {
        struct map_item *e = &it[perm[i]];
        e->key = stride * perm[i];
        e->id = (uint32_t)perm[i];
        cr_assert_eq(U(insert)(sl, e, NULL), 0, "insert of new key %" PRIu64,
                     e->key);
    }
    free(perm);
}

static void U(expect_ok)(const SL *sl)
{
    char why[256] = "";
    cr_assert_eq(U(check)(sl, why, sizeof(why)), 0, "check: %s", why);
}

/* Contents equal the model, element for element, both directions. */
static void U(expect_model)(const SL *sl, const struct model_map *m)
{
    IT it;
    struct map_item *e;
    size_t i = 0;
    U(expect_ok)(sl);
    cr_assert_eq(U(count)(sl), m->n);
    U_FOREACH(sl, it, e)
    {
        cr_assert_lt(i, m->n, "more elements than the model");
        cr_assert_eq(e, m->v[i], "element %zu differs", i);
        i++;
    }
    cr_assert_eq(i, m->n);
    U_FOREACH_REVERSE(sl, it, e)
    {
        cr_assert_gt(i, 0, "more elements than the model (reverse)");
        i--;
        cr_assert_eq(e, m->v[i], "element %zu differs (reverse)", i);
    }
    cr_assert_eq(i, 0);
}

Test(UT, init_empty)
{
    SL sl;
    IT it;
    struct map_item *e, *tmp, *out = NULL;
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    cr_assert_eq(U(init)(&sl, &ta.iface, 1), 0);
    cr_assert(U(empty)(&sl));
    cr_assert_eq(U(count)(&sl), 0);
    cr_assert_null(U(first)(&sl));
    cr_assert_null(U(last)(&sl));
    cr_assert_null(U(pop_first)(&sl));
    cr_assert_null(U(pop_last)(&sl));
    const uint64_t keys[] = {0, 1, 5, UINT64_MAX - 1, UINT64_MAX};
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        cr_assert_null(U(find)(&sl, keys[i]));
        cr_assert_null(U(lower_bound)(&sl, keys[i]));
        cr_assert_null(U(upper_bound)(&sl, keys[i]));
        cr_assert_null(U(floor)(&sl, keys[i]));
        cr_assert_null(U(below)(&sl, keys[i]));
        cr_assert_null(U(iter_seek)(&it, &sl, keys[i]));
        cr_assert_eq(U(erase_key)(&sl, keys[i], &out), -ENOENT);
    }
    cr_assert_null(U(iter_first)(&it, &sl));
    cr_assert_null(U(iter_get)(&it));
    cr_assert_null(U(iter_last)(&it, &sl));
    cr_assert_null(U(iter_get)(&it));
    U_FOREACH(&sl, it, e)
    cr_assert_fail("FOREACH on an empty list ran its body");
    U_FOREACH_REVERSE(&sl, it, e)
    cr_assert_fail("FOREACH_REVERSE on an empty list ran its body");
    U_FOREACH_FROM(&sl, it, e, 0)
    cr_assert_fail("FOREACH_FROM on an empty list ran its body");
    U_FOREACH_SAFE(&sl, it, e, tmp)
    cr_assert_fail("FOREACH_SAFE on an empty list ran its body");
    U(expect_ok)(&sl);
    cr_assert_eq(U(bytes)(&sl), ta.live_bytes);
    cb_reset();
    U(destroy)(&sl, record_cb, &cb_arg_token);
    cr_assert_eq(cb_n, 0, "destroy callback ran on an empty list");
    cr_assert_eq(ta.live, 0, "leak after destroy of an empty list");
    cr_assert_eq(ta.bad_frees, 0);
}

Test(UT, destroy_calls_back_in_order)
{
    enum { N = 700 };
    static struct map_item it[N];
    SL sl;
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    cr_assert_eq(U(init)(&sl, &ta.iface, 2), 0);
    U(fill_unique)(&sl, it, N, 3, 11);
    cb_reset();
    U(destroy)(&sl, record_cb, &cb_arg_token);
    cr_assert_eq(cb_n, N, "destroy called back %zu times", cb_n);
    cr_assert(cb_arg_ok, "destroy did not pass arg through");
    for (size_t i = 0; i < N; i++)
        cr_assert_eq(cb_seen[i], &it[i], "destroy callback %zu out of order",
                     i);
    cr_assert_eq(ta.live, 0, "leak after destroy");
    cr_assert_eq(ta.live_bytes, 0);
    cr_assert_eq(ta.bad_frees, 0);
}

Test(UT, destroy_null_callback)
{
    enum { N = 500 };
    static struct map_item it[N];
    SL sl;
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    cr_assert_eq(U(init)(&sl, &ta.iface, 3), 0);
    U(fill_unique)(&sl, it, N, 1, 12);
    U(destroy)(&sl, NULL, NULL);
    cr_assert_eq(ta.live, 0, "leak after destroy");
    cr_assert_eq(ta.bad_frees, 0);
}

Test(UT, clear_then_reuse)
{
    enum { N = 600 };
    static struct map_item it[N];
    SL sl;
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    cr_assert_eq(U(init)(&sl, &ta.iface, 4), 0);
    U(fill_unique)(&sl, it, N, 2, 13);
    size_t full = U(bytes)(&sl);
    cb_reset();
    U(clear)(&sl, record_cb, &cb_arg_token);
    cr_assert_eq(cb_n, N);
    cr_assert(cb_arg_ok);
    for (size_t i = 0; i < N; i++)
        cr_assert_eq(cb_seen[i], &it[i], "clear callback %zu out of order", i);
    cr_assert(U(empty)(&sl));
    cr_assert_null(U(first)(&sl));
    cr_assert_null(U(find)(&sl, 2));
    U(expect_ok)(&sl);
    cr_assert_lt(U(bytes)(&sl), full, "clear did not release nodes");
    cr_assert_eq(U(bytes)(&sl), ta.live_bytes);
    /* Still usable, and clear with a NULL callback works too. */
    U(fill_unique)(&sl, it, N / 2, 5, 14);
    cr_assert_eq(U(count)(&sl), N / 2);
    cr_assert_eq(U(find)(&sl, 5 * 7), &it[7]);
    U(expect_ok)(&sl);
    U(clear)(&sl, NULL, NULL);
    cr_assert(U(empty)(&sl));
    U(fill_unique)(&sl, it, 10, 1, 15);
    cr_assert_eq(U(count)(&sl), 10);
    U(destroy)(&sl, NULL, NULL);
    cr_assert_eq(ta.live, 0);
    cr_assert_eq(ta.bad_frees, 0);
}

Test(UT, insert_unique_eexist)
{
    enum { N = 500 };
    static struct map_item it[N], dup[N];
    SL sl;
    cr_assert_eq(U(init)(&sl, NULL, 5), 0);
    U(fill_unique)(&sl, it, N, 2, 16);
    U(expect_ok)(&sl);
    for (size_t i = 0; i < N; i++) {
        struct map_item *existing = NULL;
        dup[i].key = 2 * i;
        cr_assert_eq(U(insert)(&sl, &dup[i], &existing), -EEXIST);
        cr_assert_eq(existing, &it[i], "*existing is not the present element");
        cr_assert_eq(U(insert)(&sl, &dup[i], NULL), -EEXIST,
                     "-EEXIST needs no out parameter");
        /* Re-inserting the very element already present is a duplicate. */
        cr_assert_eq(U(insert)(&sl, &it[i], &existing), -EEXIST);
        cr_assert_eq(existing, &it[i]);
    }
    cr_assert_eq(U(count)(&sl), N);
    for (size_t i = 0; i < N; i++)
        cr_assert_eq(U(find)(&sl, 2 * i), &it[i]);
    U(expect_ok)(&sl);
    U(destroy)(&sl, NULL, NULL);
}

Test(UT, insert_multi_after_equals)
{
    /* Three keys, 150 elements each, inserted interleaved: every run of
     * equal keys spans several leaves and must keep insertion order. */
    enum { PER = 150, N = 3 * PER };
    static struct map_item it[N];
    static const uint64_t k3[3] = {20, 10, 30};
    SL sl;
    struct model_map m;
    mm_init(&m, false);
    cr_assert_eq(U(init)(&sl, NULL, 6), 0);
    for (size_t i = 0; i < N; i++) {
        it[i].key = k3[i % 3];
        it[i].id = (uint32_t)i;
        cr_assert_eq(U(insert_multi)(&sl, &it[i]), 0);
        mm_insert_multi(&m, &it[i]);
        if (i % 37 == 0)
            U(expect_ok)(&sl);
    }
    U(expect_model)(&sl, &m);
    /* First of a run: find, lower_bound, erase_key; last: floor. */
    cr_assert_eq(U(find)(&sl, 20), &it[0]);
    cr_assert_eq(U(lower_bound)(&sl, 20), &it[0]);
    cr_assert_eq(U(floor)(&sl, 20), &it[N - 3]);
    cr_assert_eq(U(upper_bound)(&sl, 20), &it[2]);
    cr_assert_eq(U(below)(&sl, 20), &it[N - 2]);
    cr_assert_eq(U(first)(&sl), &it[1]);
    cr_assert_eq(U(last)(&sl), &it[N - 1]);
    cr_assert_eq(U(upper_bound)(&sl, 25), &it[2]);
    cr_assert_eq(U(floor)(&sl, 25), &it[N - 3]);
    /* A unique insert into a run reports one of the run. */
    struct map_item x = {.key = 10}, *existing = NULL;
    cr_assert_eq(U(insert)(&sl, &x, &existing), -EEXIST);
    cr_assert_not_null(existing);
    cr_assert_eq(existing->key, 10);
    /* Later multi inserts still go after every equal key. */
    static struct map_item more[40];
    for (size_t i = 0; i < 40; i++) {
        more[i].key = k3[i % 3];
        cr_assert_eq(U(insert_multi)(&sl, &more[i]), 0);
        mm_insert_multi(&m, &more[i]);
    }
    U(expect_model)(&sl, &m);
    cr_assert_eq(U(floor)(&sl, 30), &more[38]);
    mm_free(&m);
    U(destroy)(&sl, NULL, NULL);
}

Test(UT, find)
{
    enum { N = 800 };
    static struct map_item it[N];
    SL sl;
    cr_assert_eq(U(init)(&sl, NULL, 7), 0);
    U(fill_unique)(&sl, it, N, 3, 17);
    for (uint64_t k = 0; k < 3 * N + 3; k++) {
        struct map_item *e = U(find)(&sl, k);
        if (k % 3 == 0 && k / 3 < N)
            cr_assert_eq(e, &it[k / 3], "find(%" PRIu64 ")", k);
        else
            cr_assert_null(e, "find(%" PRIu64 ") of an absent key", k);
    }
    cr_assert_null(U(find)(&sl, UINT64_MAX));
    U(destroy)(&sl, NULL, NULL);
}

Test(UT, bounds_against_model)
{
    /* Keys 4, 8, ...; a few duplicated; every query key in range and
     * around it compared with the model's answer. */
    enum { N = 400, D = 60 };
    static struct map_item it[N + D];
    SL sl;
    struct model_map m;
    mm_init(&m, false);
    cr_assert_eq(U(init)(&sl, NULL, 8), 0);
    size_t *perm = shuffled(N, 18);
    for (size_t i = 0; i < N; i++) {
        struct map_item *e = &it[perm[i]];
        e->key = 4 * (perm[i] + 1);
        cr_assert_eq(U(insert_multi)(&sl, e), 0);
        mm_insert_multi(&m, e);
    }
    for (size_t i = 0; i < D; i++) {
        it[N + i].key = 4 * (7 * i % N + 1);
        cr_assert_eq(U(insert_multi)(&sl, &it[N + i]), 0);
        mm_insert_multi(&m, &it[N + i]);
    }
    U(expect_model)(&sl, &m);
    for (uint64_t k = 0; k <= 4 * N + 6; k++) {
        cr_assert_eq(U(lower_bound)(&sl, k), mm_lower_bound(&m, k),
                     "lower_bound(%" PRIu64 ")", k);
        cr_assert_eq(U(upper_bound)(&sl, k), mm_upper_bound(&m, k),
                     "upper_bound(%" PRIu64 ")", k);
        cr_assert_eq(U(floor)(&sl, k), mm_floor(&m, k), "floor(%" PRIu64 ")",
                     k);
        cr_assert_eq(U(below)(&sl, k), mm_below(&m, k), "below(%" PRIu64 ")",
                     k);
    }
    cr_assert_null(U(lower_bound)(&sl, UINT64_MAX));
    cr_assert_null(U(upper_bound)(&sl, UINT64_MAX));
    cr_assert_eq(U(floor)(&sl, UINT64_MAX), m.v[m.n - 1]);
    cr_assert_eq(U(below)(&sl, UINT64_MAX), m.v[m.n - 1]);
    free(perm);
    mm_free(&m);
    U(destroy)(&sl, NULL, NULL);
}

Test(UT, key_space_edges)
{
    /* 0 and UINT64_MAX are ordinary keys, not sentinels. */
    static struct map_item e0 = {.key = 0}, e1 = {.key = 1},
                           em1 = {.key = UINT64_MAX - 1},
                           em = {.key = UINT64_MAX};
    SL sl;
    cr_assert_eq(U(init)(&sl, NULL, 9), 0);
    cr_assert_eq(U(insert)(&sl, &em, NULL), 0);
    cr_assert_eq(U(insert)(&sl, &e0, NULL), 0);
    cr_assert_eq(U(first)(&sl), &e0);
    cr_assert_eq(U(last)(&sl), &em);
    cr_assert_eq(U(insert)(&sl, &em1, NULL), 0);
    cr_assert_eq(U(insert)(&sl, &e1, NULL), 0);
    U(expect_ok)(&sl);
    cr_assert_eq(U(find)(&sl, 0), &e0);
    cr_assert_eq(U(find)(&sl, UINT64_MAX), &em);
    cr_assert_null(U(below)(&sl, 0));
    cr_assert_eq(U(floor)(&sl, 0), &e0);
    cr_assert_eq(U(lower_bound)(&sl, 0), &e0);
    cr_assert_eq(U(upper_bound)(&sl, 0), &e1);
    cr_assert_null(U(upper_bound)(&sl, UINT64_MAX));
    cr_assert_eq(U(lower_bound)(&sl, UINT64_MAX), &em);
    cr_assert_eq(U(floor)(&sl, UINT64_MAX), &em);
    cr_assert_eq(U(below)(&sl, UINT64_MAX), &em1);
    cr_assert_eq(U(upper_bound)(&sl, 1), &em1);
    cr_assert_eq(U(below)(&sl, UINT64_MAX - 1), &e1);
    cr_assert_eq(U(erase_key)(&sl, UINT64_MAX, NULL), 0);
    cr_assert_eq(U(last)(&sl), &em1);
    cr_assert_eq(U(pop_first)(&sl), &e0);
    cr_assert_eq(U(first)(&sl), &e1);
    U(expect_ok)(&sl);
    U(destroy)(&sl, NULL, NULL);
}

Test(UT, erase_every_element)
{
    enum { N = 900 };
    static struct map_item it[N];
    SL sl;
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    cr_assert_eq(U(init)(&sl, &ta.iface, 10), 0);
    U(fill_unique)(&sl, it, N, 1, 19);
    size_t *perm = shuffled(N, 20);
    for (size_t i = 0; i < N; i++) {
        struct map_item *e = &it[perm[i]];
        cr_assert_eq(U(erase)(&sl, e), 0, "erase #%zu", i);
        cr_assert_eq(U(count)(&sl), N - 1 - i);
        cr_assert_null(U(find)(&sl, e->key), "erased key still found");
        cr_assert_eq(U(erase)(&sl, e), -ENOENT, "second erase");
        if (i % 50 == 0 || N - i < 70)
            U(expect_ok)(&sl);
    }
    cr_assert(U(empty)(&sl));
    cr_assert_null(U(first)(&sl));
    cr_assert_null(U(last)(&sl));
    U(expect_ok)(&sl);
    free(perm);
    U(destroy)(&sl, NULL, NULL);
    cr_assert_eq(ta.live, 0);
    cr_assert_eq(ta.bad_frees, 0);
}

Test(UT, erase_by_identity_among_equals)
{
    enum { N = 120 };
    static struct map_item it[N], stranger = {.key = 7};
    SL sl;
    struct model_map m;
    mm_init(&m, false);
    cr_assert_eq(U(init)(&sl, NULL, 11), 0);
    for (size_t i = 0; i < N; i++) {
        it[i].key = i % 4 == 0 ? 3 : 7; /* a long run of 7s */
        cr_assert_eq(U(insert_multi)(&sl, &it[i]), 0);
        mm_insert_multi(&m, &it[i]);
    }
    /* Same key as ninety present elements, yet not in the list. */
    cr_assert_eq(U(erase)(&sl, &stranger), -ENOENT);
    U(expect_model)(&sl, &m);
    const size_t victims[] = {61, 1, 119, 2, 58, 117};
    for (size_t v = 0; v < sizeof(victims) / sizeof(victims[0]); v++) {
        struct map_item *e = &it[victims[v]];
        cr_assert_eq(U(erase)(&sl, e), 0);
        mm_remove_at(&m, mm_index_of(&m, e));
        U(expect_model)(&sl, &m);
        cr_assert_eq(U(erase)(&sl, e), -ENOENT);
    }
    mm_free(&m);
    U(destroy)(&sl, NULL, NULL);
}

Test(UT, erase_key)
{
    enum { N = 300 };
    static struct map_item it[N];
    SL sl;
    cr_assert_eq(U(init)(&sl, NULL, 12), 0);
    for (size_t i = 0; i < N; i++) {
        it[i].key = i % 3; /* three runs of 100, interleaved */
        cr_assert_eq(U(insert_multi)(&sl, &it[i]), 0);
    }
    struct map_item *out = NULL;
    cr_assert_eq(U(erase_key)(&sl, 3, &out), -ENOENT);
    cr_assert_eq(U(erase_key)(&sl, UINT64_MAX, NULL), -ENOENT);
    cr_assert_eq(U(count)(&sl), N);
    /* Drains each run first-in first-out. */
    for (size_t j = 0; j < N / 3; j++) {
        cr_assert_eq(U(erase_key)(&sl, 1, &out), 0);
        cr_assert_eq(out, &it[3 * j + 1], "erase_key took not the first");
        if (j % 10 == 0)
            U(expect_ok)(&sl);
    }
    cr_assert_eq(U(erase_key)(&sl, 1, &out), -ENOENT);
    cr_assert_eq(U(erase_key)(&sl, 2, NULL), 0, "out may be NULL");
    cr_assert_eq(U(find)(&sl, 2), &it[5]);
    cr_assert_eq(U(count)(&sl), 2 * N / 3 - 1);
    U(expect_ok)(&sl);
    U(destroy)(&sl, NULL, NULL);
}

Test(UT, first_last_pop)
{
    enum { N = 500 };
    static struct map_item it[N];
    SL sl;
    cr_assert_eq(U(init)(&sl, NULL, 13), 0);
    U(fill_unique)(&sl, it, N, 1, 21);
    cr_assert_eq(U(first)(&sl), &it[0]);
    cr_assert_eq(U(last)(&sl), &it[N - 1]);
    /* Alternate ends until empty. */
    size_t lo = 0, hi = N;
    for (size_t i = 0; i < N; i++) {
        if (i % 3 == 2) {
            cr_assert_eq(U(pop_last)(&sl), &it[--hi]);
        } else {
            cr_assert_eq(U(pop_first)(&sl), &it[lo++]);
        }
        cr_assert_eq(U(count)(&sl), N - 1 - i);
        if (lo < hi) {
            cr_assert_eq(U(first)(&sl), &it[lo]);
            cr_assert_eq(U(last)(&sl), &it[hi - 1]);
        }
        if (i % 25 == 0)
            U(expect_ok)(&sl);
    }
    cr_assert_null(U(pop_first)(&sl));
    cr_assert_null(U(pop_last)(&sl));
    U(expect_ok)(&sl);
    /* With duplicates: pop_first is FIFO, pop_last takes the newest. */
    for (size_t i = 0; i < 100; i++) {
        it[i].key = 42;
        cr_assert_eq(U(insert_multi)(&sl, &it[i]), 0);
    }
    cr_assert_eq(U(pop_first)(&sl), &it[0]);
    cr_assert_eq(U(pop_last)(&sl), &it[99]);
    cr_assert_eq(U(pop_first)(&sl), &it[1]);
    cr_assert_eq(U(pop_last)(&sl), &it[98]);
    cr_assert_eq(U(count)(&sl), 96);
    U(expect_ok)(&sl);
    U(destroy)(&sl, NULL, NULL);
}

Test(UT, count_empty_bytes)
{
    enum { N = 400 };
    static struct map_item it[N];
    SL sl;
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    cr_assert_eq(U(init)(&sl, &ta.iface, 14), 0);
    /* With a custom allocator, bytes() is what the list got from it. */
    cr_assert_eq(U(bytes)(&sl), ta.live_bytes);
    size_t prev = U(bytes)(&sl);
    for (size_t i = 0; i < N; i++) {
        it[i].key = i;
        cr_assert_eq(U(insert)(&sl, &it[i], NULL), 0);
        cr_assert_eq(U(count)(&sl), i + 1);
        cr_assert_not(U(empty)(&sl));
        cr_assert_eq(U(bytes)(&sl), ta.live_bytes, "bytes after insert %zu", i);
        cr_assert_geq(U(bytes)(&sl), prev);
        prev = U(bytes)(&sl);
    }
    cr_assert_gt(prev, N * sizeof(void *), "bytes() too small to hold N");
    for (size_t i = 0; i < N; i++) {
        cr_assert_eq(U(erase)(&sl, &it[i]), 0);
        cr_assert_eq(U(count)(&sl), N - 1 - i);
        cr_assert_eq(U(bytes)(&sl), ta.live_bytes, "bytes after erase %zu", i);
    }
    cr_assert(U(empty)(&sl));
    U(destroy)(&sl, NULL, NULL);
    cr_assert_eq(ta.live, 0);

    /* The default pooled allocator accounts for something too. */
    cr_assert_eq(U(init)(&sl, NULL, 15), 0);
    U(fill_unique)(&sl, it, N, 1, 22);
    cr_assert_gt(U(bytes)(&sl), N * sizeof(void *));
    U(destroy)(&sl, NULL, NULL);
}

Test(UT, iterators)
{
    enum { N = 700 };
    static struct map_item it[N];
    SL sl;
    IT i1;
    struct map_item *e;
    cr_assert_eq(U(init)(&sl, NULL, 16), 0);
    U(fill_unique)(&sl, it, N, 2, 23);
    /* Forward from first, backward from last, get() agreeing throughout. */
    e = U(iter_first)(&i1, &sl);
    for (size_t i = 0; i < N; i++) {
        cr_assert_eq(e, &it[i], "iter_next #%zu", i);
        cr_assert_eq(U(iter_get)(&i1), e);
        e = U(iter_next)(&i1);
    }
    cr_assert_null(e, "iter_next past the end");
    e = U(iter_last)(&i1, &sl);
    for (size_t i = N; i-- > 0;) {
        cr_assert_eq(e, &it[i], "iter_prev #%zu", i);
        cr_assert_eq(U(iter_get)(&i1), e);
        e = U(iter_prev)(&i1);
    }
    cr_assert_null(e, "iter_prev before the start");
    U(iter_first)(&i1, &sl);
    cr_assert_null(U(iter_prev)(&i1), "prev of first");
    U(iter_last)(&i1, &sl);
    cr_assert_null(U(iter_next)(&i1), "next of last");
    /* Seek to every key and its neighbours, then step both ways. */
    for (uint64_t k = 0; k < 2 * N + 2; k++) {
        size_t want = (size_t)((k + 1) / 2); /* index of lower bound */
        e = U(iter_seek)(&i1, &sl, k);
        if (want >= N) {
            cr_assert_null(e, "seek(%" PRIu64 ") past the end", k);
            continue;
        }
        cr_assert_eq(e, &it[want], "seek(%" PRIu64 ")", k);
        cr_assert_eq(U(iter_get)(&i1), e);
        e = U(iter_next)(&i1);
        cr_assert_eq(e, want + 1 < N ? &it[want + 1] : NULL);
        if (e) {
            cr_assert_eq(U(iter_prev)(&i1), &it[want], "next then prev");
            e = U(iter_prev)(&i1);
            cr_assert_eq(e, want ? &it[want - 1] : NULL,
                         "prev of seek(%" PRIu64 ")", k);
        }
    }
    U(destroy)(&sl, NULL, NULL);
}

Test(UT, foreach_forward_reverse_from)
{
    enum { N = 600 };
    static struct map_item it[N];
    SL sl;
    IT i1;
    struct map_item *e;
    size_t n;
    cr_assert_eq(U(init)(&sl, NULL, 17), 0);
    U(fill_unique)(&sl, it, N, 10, 24);
    n = 0;
    U_FOREACH(&sl, i1, e)
    {
        cr_assert_eq(e, &it[n], "FOREACH #%zu", n);
        n++;
    }
    cr_assert_eq(n, N);
    n = N;
    U_FOREACH_REVERSE(&sl, i1, e)
    {
        cr_assert_gt(n, 0);
        n--;
        cr_assert_eq(e, &it[n], "FOREACH_REVERSE #%zu", n);
    }
    cr_assert_eq(n, 0);
    /* FROM starts at the lower bound: below the first, exact, between,
     * last, past the end. */
    const uint64_t from[] = {0, 5, 10, 11, 2990, 5990, 5991, UINT64_MAX};
    for (size_t f = 0; f < sizeof(from) / sizeof(from[0]); f++) {
        size_t start = (size_t)((from[f] + 9) / 10);
        if (from[f] == UINT64_MAX)
            start = N;
        n = start;
        U_FOREACH_FROM(&sl, i1, e, from[f])
        {
            cr_assert_lt(n, N, "FOREACH_FROM ran past the end");
            cr_assert_eq(e, &it[n], "FOREACH_FROM(%" PRIu64 ") #%zu", from[f],
                         n);
            n++;
        }
        cr_assert_eq(n, N, "FOREACH_FROM(%" PRIu64 ") stopped early", from[f]);
    }
    /* A FOREACH is a for loop: break leaves var on the element. */
    n = 0;
    U_FOREACH(&sl, i1, e)
    {
        if (++n == 10)
            break;
    }
    cr_assert_eq(e, &it[9]);
    U(destroy)(&sl, NULL, NULL);
}

/* FOREACH_SAFE erasing positions where (index % mod == rem), or all. */
static void U(safe_erase)(size_t n, size_t mod, size_t rem, bool dups)
{
    static struct map_item it[1000];
    SL sl;
    IT i1;
    struct map_item *e, *tmp;
    struct model_map m;
    cr_assert_leq(n, 1000);
    mm_init(&m, false);
    cr_assert_eq(U(init)(&sl, NULL, 18), 0);
    for (size_t i = 0; i < n; i++) {
        it[i].key = dups ? i / 50 : i;
        cr_assert_eq(U(insert_multi)(&sl, &it[i]), 0);
        mm_insert_multi(&m, &it[i]);
    }
    size_t seen = 0, kept = 0;
    U_FOREACH_SAFE(&sl, i1, e, tmp)
    {
        cr_assert_lt(seen, n, "FOREACH_SAFE ran past the end");
        cr_assert_eq(e, &it[seen], "FOREACH_SAFE #%zu", seen);
        if (mod == 0 || seen % mod == rem)
            cr_assert_eq(U(erase)(&sl, e), 0);
        else
            m.v[kept++] = e;
        seen++;
    }
    cr_assert_eq(seen, n, "FOREACH_SAFE visited %zu of %zu", seen, n);
    m.n = kept;
    U(expect_model)(&sl, &m);
    mm_free(&m);
    U(destroy)(&sl, NULL, NULL);
}

Test(UT, foreach_safe_erase_all)
{
    U(safe_erase)(800, 0, 0, false);
}

Test(UT, foreach_safe_erase_every_other)
{
    U(safe_erase)(800, 2, 0, false);
    U(safe_erase)(800, 2, 1, false);
}

Test(UT, foreach_safe_erase_none_or_some)
{
    U(safe_erase)(800, 1000, 999, false); /* erase nothing */
    U(safe_erase)(800, 7, 3, false);
    U(safe_erase)(1, 0, 0, false);
}

Test(UT, foreach_safe_erase_duplicates)
{
    U(safe_erase)(1000, 0, 0, true);
    U(safe_erase)(1000, 3, 1, true);
}

/* FOREACH_SAFE over an element listed more than once (insert_multi of an
 * element already in the list, api.md): each listing is visited once, in
 * order, whatever the body erases. Runs of four equal keys; every fifth
 * element is listed again at the end of its run and every fifteenth a
 * third time, so a run reads e.g. 0 1 2 3 0 0: erasing 1, 2 or 3 moves
 * the walk's next listing down a slot, and the first listing of the same
 * element lies behind it. The body erases the visits where
 * (visit % mod == rem), or all (mod 0); erase takes an element's first
 * listing, which the model below follows. */
static void U(safe_listed_twice)(size_t n, size_t mod, size_t rem)
{
    enum { CAP = 1000 };
    static struct map_item it[CAP];
    static struct map_item *listed[2 * CAP], *left[2 * CAP];
    SL sl;
    IT i1;
    struct map_item *e, *tmp;
    cr_assert_leq(n, CAP);
    cr_assert_eq(U(init)(&sl, NULL, 23), 0);
    for (size_t i = 0; i < n; i++) {
        it[i].key = i / 4;
        it[i].id = (uint32_t)i;
        cr_assert_eq(U(insert_multi)(&sl, &it[i]), 0);
    }
    for (size_t again = 5; again <= 15; again += 10)
        for (size_t i = 0; i < n; i += again)
            cr_assert_eq(U(insert_multi)(&sl, &it[i]), 0);
    size_t nl = 0, nleft;
    U_FOREACH(&sl, i1, e)
    {
        cr_assert_lt(nl, 2 * CAP);
        listed[nl++] = e;
    }
    cr_assert_eq(nl, U(count)(&sl));
    memcpy(left, listed, nl * sizeof(*left));
    nleft = nl;
    size_t seen = 0;
    U_FOREACH_SAFE(&sl, i1, e, tmp)
    {
        cr_assert_lt(seen, nl, "FOREACH_SAFE ran past the end");
        cr_assert_eq(e, listed[seen],
                     "visit %zu (mod %zu rem %zu): element %u, want %u", seen,
                     mod, rem, e->id, listed[seen]->id);
        if (mod == 0 || seen % mod == rem) {
            cr_assert_eq(U(erase)(&sl, e), 0);
            size_t k = 0;
            while (left[k] != e)
                k++;
            memmove(&left[k], &left[k + 1], (--nleft - k) * sizeof(*left));
        }
        seen++;
    }
    cr_assert_eq(seen, nl, "FOREACH_SAFE visited %zu of %zu listings", seen,
                 nl);
    U(expect_ok)(&sl);
    cr_assert_eq(U(count)(&sl), nleft);
    size_t k = 0;
    U_FOREACH(&sl, i1, e)
    {
        cr_assert_lt(k, nleft);
        cr_assert_eq(e, left[k], "left %zu: element %u, want %u", k, e->id,
                     left[k]->id);
        k++;
    }
    U(destroy)(&sl, NULL, NULL);
}

Test(UT, foreach_safe_element_listed_twice)
{
    /* The case of issue 28: a, b, a, c under one key, b erased when
     * visited; the walk is a b a c and a a c stay. */
    struct map_item v[3] = {
        {.key = 7, .id = 0}, {.key = 7, .id = 1}, {.key = 7, .id = 2}};
    struct map_item *a = &v[0], *b = &v[1], *c = &v[2];
    struct map_item *const walk[] = {a, b, a, c}, *const stay[] = {a, a, c};
    SL sl;
    IT i1;
    struct map_item *e, *tmp;
    cr_assert_eq(U(init)(&sl, NULL, 5), 0);
    for (size_t i = 0; i < 4; i++)
        cr_assert_eq(U(insert_multi)(&sl, walk[i]), 0);
    size_t seen = 0;
    U_FOREACH_SAFE(&sl, i1, e, tmp)
    {
        cr_assert_lt(seen, 4, "FOREACH_SAFE visited more than 4 listings");
        cr_assert_eq(e, walk[seen], "visit %zu: element %u, want %u", seen,
                     e->id, walk[seen]->id);
        if (e == b)
            cr_assert_eq(U(erase)(&sl, e), 0);
        seen++;
    }
    cr_assert_eq(seen, 4);
    U(expect_ok)(&sl);
    seen = 0;
    U_FOREACH(&sl, i1, e)
    {
        cr_assert_lt(seen, 3);
        cr_assert_eq(e, stay[seen], "left %zu", seen);
        seen++;
    }
    cr_assert_eq(seen, 3);
    U(destroy)(&sl, NULL, NULL);

    U(safe_listed_twice)(400, 0, 0);
    for (size_t rem = 0; rem < 3; rem++)
        U(safe_listed_twice)(400, 3, rem);
    U(safe_listed_twice)(400, 1000, 999); /* erases nothing */
}

Test(UT, sequential_and_reverse_inserts)
{
    /* Ascending and descending runs, as a finger/cached-leaf fast path
     * would see them, then a middle-out erase. */
    enum { N = 6000 };
    static struct map_item it[2 * N];
    SL sl;
    struct model_map m;
    mm_init(&m, false);
    cr_assert_eq(U(init)(&sl, NULL, 19), 0);
    for (size_t i = 0; i < N; i++) {
        it[i].key = 2 * N + i;
        cr_assert_eq(U(insert)(&sl, &it[i], NULL), 0);
        mm_insert_multi(&m, &it[i]);
    }
    for (size_t i = 0; i < N; i++) {
        it[N + i].key = 2 * N - 1 - i;
        cr_assert_eq(U(insert)(&sl, &it[N + i], NULL), 0);
        mm_insert_multi(&m, &it[N + i]);
    }
    U(expect_model)(&sl, &m);
    for (size_t i = 0; i < N; i++) {
        size_t j = m.n / 2;
        cr_assert_eq(U(erase)(&sl, m.v[j]), 0);
        mm_remove_at(&m, j);
    }
    U(expect_model)(&sl, &m);
    mm_free(&m);
    U(destroy)(&sl, NULL, NULL);
}

Test(UT, check_reports_ok)
{
    enum { N = 300 };
    static struct map_item it[N];
    SL sl;
    char why[64];
    memset(why, 'x', sizeof(why));
    cr_assert_eq(U(init)(&sl, NULL, 20), 0);
    cr_assert_eq(U(check)(&sl, why, sizeof(why)), 0);
    U(fill_unique)(&sl, it, N, 1, 25);
    cr_assert_eq(U(check)(&sl, why, sizeof(why)), 0);
    cr_assert_eq(U(pop_first)(&sl), &it[0]);
    cr_assert_eq(U(check)(&sl, why, sizeof(why)), 0);
    U(destroy)(&sl, NULL, NULL);
}
