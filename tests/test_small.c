/*
 * Small lists (docs/design.md, "Small lists"): a 48-byte struct, nothing
 * on the heap before the first insert, and a sole leaf that starts with
 * room for one slot (8 for a bitmap queue) and doubles up to KPN.
 *
 * Every face, with KPN 64 (the default), 24, 5 and 1, is driven through
 * n = 0, 1, 2, KPN - 1, KPN, KPN + 1 and 2 KPN + 1 and back to 0, with the
 * contents compared with a sorted model and check() run at every step.
 * Allocation failure at each growth step (a caller's allocator failing
 * the one call an insert makes when its leaf is full) must leave the list
 * exactly as it was. Running in the ASan build too, a leaf read past its
 * room is caught there.
 */
#include <criterion/criterion.h>

#include "test_common.h"

struct sm_item {
    uint64_t key;
    uint64_t size; /* extent face: [key, key + size) */
    struct skiplist_hook hook;
};
#define SM_KEY(e) ((e)->key)

SKIPLIST_DEFINE(sm_def, struct sm_item, uint64_t, SM_KEY, SKIPLIST_CMP_NUM,
                SKIPLIST_DEFAULTS)
SKIPLIST_DEFINE(sm_k24, struct sm_item, uint64_t, SM_KEY, SKIPLIST_CMP_NUM, 24,
                8, 2)
SKIPLIST_DEFINE(sm_k5, struct sm_item, uint64_t, SM_KEY, SKIPLIST_CMP_NUM, 5, 8,
                1)
SKIPLIST_DEFINE(sm_k1, struct sm_item, uint64_t, SM_KEY, SKIPLIST_CMP_NUM, 1, 8,
                1)
SKIPLIST_PQ_DEFINE(sq_def, struct sm_item, uint64_t, SM_KEY, SKIPLIST_CMP_NUM,
                   hook, SKIPLIST_PQ_DEFAULTS)
SKIPLIST_PQ_DEFINE(sq_k24, struct sm_item, uint64_t, SM_KEY, SKIPLIST_CMP_NUM,
                   hook, 24, 8, 2)
SKIPLIST_PQ_DEFINE(sq_k5, struct sm_item, uint64_t, SM_KEY, SKIPLIST_CMP_NUM,
                   hook, 5, 8, 1)
SKIPLIST_EXTENT_DEFINE(sx_def, struct sm_item, uint64_t, key, size,
                       SKIPLIST_DEFAULTS)
SKIPLIST_EXTENT_DEFINE(sx_k5, struct sm_item, uint64_t, key, size, 5, 8, 1)

enum { MAXN = 2 * 64 + 2 };

/* The sorted model: keys 10, 20, ... present or not. */
struct sm_model {
    bool in[MAXN];
    size_t n;
};

/* One face and tuning, as function pointers over void *. */
struct sm_ops {
    const char *name;
    unsigned kpn;
    size_t head_size;
    int queue;
    int (*init)(void *sl, const struct skiplist_allocator *a);
    void (*destroy)(void *sl);
    int (*add)(void *sl, struct sm_item *e);
    int (*del)(void *sl, struct sm_item *e);
    size_t (*count)(const void *sl);
    size_t (*bytes)(const void *sl);
    int (*check)(const void *sl, char *why, size_t len);
    struct sm_item *(*first)(const void *sl);
    size_t (*walk)(const void *sl, struct sm_item **out, size_t max);
};

#define SM_COMMON(P, KPN, Q)                                                   \
    static int P##_o_init(void *sl, const struct skiplist_allocator *a)        \
    {                                                                          \
        return P##_init((struct P *)sl, a, 7);                                 \
    }                                                                          \
    static void P##_o_destroy(void *sl)                                        \
    {                                                                          \
        P##_destroy((struct P *)sl, NULL, NULL);                               \
    }                                                                          \
    static size_t P##_o_count(const void *sl)                                  \
    {                                                                          \
        return P##_count((const struct P *)sl);                                \
    }                                                                          \
    static size_t P##_o_bytes(const void *sl)                                  \
    {                                                                          \
        return P##_bytes((const struct P *)sl);                                \
    }                                                                          \
    static int P##_o_check(const void *sl, char *why, size_t len)              \
    {                                                                          \
        return P##_check((const struct P *)sl, why, len);                      \
    }                                                                          \
    static size_t P##_o_walk(const void *sl, struct sm_item **out, size_t max) \
    {                                                                          \
        struct P##_iter it;                                                    \
        struct sm_item *e;                                                     \
        size_t n = 0;                                                          \
        SKIPLIST_FOREACH (P, (const struct P *)sl, it, e)                      \
            if (n < max)                                                       \
                out[n++] = e;                                                  \
        return n;                                                              \
    }                                                                          \
    static const struct sm_ops P##_ops = {                                     \
        #P,          KPN,           sizeof(struct P), Q,                       \
        P##_o_init,  P##_o_destroy, P##_o_add,        P##_o_del,               \
        P##_o_count, P##_o_bytes,   P##_o_check,      P##_o_first,             \
        P##_o_walk}

#define SM_MAP(P, KPN)                                 \
    static int P##_o_add(void *sl, struct sm_item *e)  \
    {                                                  \
        return P##_insert((struct P *)sl, e, NULL);    \
    }                                                  \
    static int P##_o_del(void *sl, struct sm_item *e)  \
    {                                                  \
        return P##_erase((struct P *)sl, e);           \
    }                                                  \
    static struct sm_item *P##_o_first(const void *sl) \
    {                                                  \
        return P##_first((const struct P *)sl);        \
    }                                                  \
    SM_COMMON(P, KPN, 0)

#define SM_PQ(P, KPN)                                  \
    static int P##_o_add(void *sl, struct sm_item *e)  \
    {                                                  \
        return P##_push((struct P *)sl, e);            \
    }                                                  \
    static int P##_o_del(void *sl, struct sm_item *e)  \
    {                                                  \
        return P##_remove((struct P *)sl, e);          \
    }                                                  \
    static struct sm_item *P##_o_first(const void *sl) \
    {                                                  \
        return P##_peek((const struct P *)sl);         \
    }                                                  \
    SM_COMMON(P, KPN, 1)

SM_MAP(sm_def, 64);
SM_MAP(sm_k24, 24);
SM_MAP(sm_k5, 5);
SM_MAP(sm_k1, 1);
SM_PQ(sq_def, 64);
SM_PQ(sq_k24, 24);
SM_PQ(sq_k5, 5);
SM_MAP(sx_def, 64);
SM_MAP(sx_k5, 5);

static const struct sm_ops *const all_ops[] = {
    &sm_def_ops, &sm_k24_ops, &sm_k5_ops,  &sm_k1_ops, &sq_def_ops,
    &sq_k24_ops, &sq_k5_ops,  &sx_def_ops, &sx_k5_ops};
#define NOPS (sizeof(all_ops) / sizeof(all_ops[0]))

/* Room for any instance's struct. */
union sm_list {
    struct sm_def a;
    struct sq_def b;
    struct sx_def c;
    max_align_t align;
};

static struct sm_item items[MAXN];

static void items_reset(void)
{
    for (size_t i = 0; i < MAXN; i++) {
        items[i].key = 10 * (uint64_t)(i + 1);
        items[i].size = 5;
        skiplist_hook_init(&items[i].hook);
    }
}

/* The list holds exactly the model's items, in order, and checks. */
static void same(const struct sm_ops *o, const void *sl,
                 const struct sm_model *m, const char *when)
{
    char why[256];
    struct sm_item *got[MAXN + 1];
    cr_assert_eq(o->check(sl, why, sizeof why), 0, "%s %s: check: %s", o->name,
                 when, why);
    cr_assert_eq(o->count(sl), m->n, "%s %s: count %zu, model %zu", o->name,
                 when, o->count(sl), m->n);
    size_t n = o->walk(sl, got, MAXN + 1), j = 0;
    cr_assert_eq(n, m->n, "%s %s: walk saw %zu, model %zu", o->name, when, n,
                 m->n);
    for (size_t i = 0; i < MAXN; i++)
        if (m->in[i]) {
            cr_assert_eq(got[j], &items[i],
                         "%s %s: slot %zu is key %" PRIu64 ", want %" PRIu64,
                         o->name, when, j, got[j]->key, items[i].key);
            j++;
        }
    struct sm_item *f = o->first(sl);
    cr_assert_eq(f, m->n ? got[0] : NULL, "%s %s: first/peek wrong", o->name,
                 when);
}

Test(small, head_is_48_bytes_and_nothing_before_the_first_insert)
{
    for (size_t k = 0; k < NOPS; k++) {
        const struct sm_ops *o = all_ops[k];
        union sm_list L;
        struct sm_model m = {{0}, 0};
        char why[128];
        cr_assert_leq(o->head_size, 48u, "%s: sizeof %zu", o->name,
                      o->head_size);
        cr_assert_eq(o->init(&L, NULL), 0);
        cr_assert_eq(o->bytes(&L), 0u, "%s: %zu bytes at init", o->name,
                     o->bytes(&L));
        /* Reads and refused writes on a list never written to. */
        same(o, &L, &m, "unwritten");
        cr_assert_eq(o->add(&L, NULL), -EINVAL);
        items_reset();
        cr_assert_neq(o->del(&L, &items[0]), 0, "%s: erased from nothing",
                      o->name);
        cr_assert_eq(o->bytes(&L), 0u, "%s: refusals allocated %zu bytes",
                     o->name, o->bytes(&L));
        cr_assert_eq(o->check(&L, why, sizeof why), 0, "%s: %s", o->name, why);
        o->destroy(&L);
        o->destroy(&L); /* twice: nothing */
    }
    cr_assert(tc_no_leaks());
}

Test(small, reads_on_an_unwritten_list)
{
    struct sm_def M;
    struct sq_def Q;
    struct sx_def X;
    struct sm_def_iter it;
    struct sm_item *out = &items[0];
    sm_def_init(&M, NULL, 1);
    sq_def_init(&Q, NULL, 1);
    sx_def_init(&X, NULL, 1);
    cr_assert_null(sm_def_find(&M, 5));
    cr_assert_null(sm_def_lower_bound(&M, 5));
    cr_assert_null(sm_def_floor(&M, 5));
    cr_assert_null(sm_def_last(&M));
    cr_assert_null(sm_def_iter_seek(&it, &M, 3));
    cr_assert_null(sm_def_pop_first(&M));
    cr_assert_null(sq_def_pop(&Q));
    cr_assert_null(sx_def_lookup(&X, 7));
    cr_assert_eq(sx_def_first_overlap(&X, 0, 100, &out), -ENOENT);
    cr_assert_null(out);
    sm_def_clear(&M, NULL, NULL);
    cr_assert_eq(sm_def_bytes(&M) + sq_def_bytes(&Q) + sx_def_bytes(&X), 0u);
    sm_def_destroy(&M, NULL, NULL);
    sq_def_destroy(&Q, NULL, NULL);
    sx_def_destroy(&X, NULL, NULL);
}

/* Sizes to visit for a KPN: 0, 1, 2, KPN - 1, KPN, KPN + 1, 2 KPN + 1. */
static size_t sizes_for(unsigned kpn, size_t *out)
{
    size_t c[] = {0, 1, 2, kpn - 1u, kpn, kpn + 1u, 2u * kpn + 1u};
    size_t n = 0;
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        if ((n == 0 || c[i] > out[n - 1]) && c[i] < MAXN)
            out[n++] = c[i];
    return n;
}

/* Up through every size in the order given by perm, then down again in
 * order `down` (0 ascending, 1 descending, 2 interleaved from both ends). */
static void grow_and_shrink(const struct sm_ops *o, const size_t *perm,
                            int down)
{
    union sm_list L;
    struct sm_model m = {{0}, 0};
    size_t stops[8], nstops = sizes_for(o->kpn, stops), top = stops[nstops - 1];
    char when[64];
    items_reset();
    cr_assert_eq(o->init(&L, NULL), 0);
    size_t prev_bytes = 0;
    for (size_t s = 0, added = 0; s < nstops; s++) {
        while (added < stops[s]) {
            size_t i = perm[added++];
            cr_assert_eq(o->add(&L, &items[i]), 0, "%s: add %zu", o->name, i);
            m.in[i] = true;
            m.n++;
            /* Within the first leaf (n <= KPN) bytes only grow. */
            if (m.n <= o->kpn)
                cr_assert_geq(o->bytes(&L), prev_bytes, "%s: bytes shrank",
                              o->name);
            prev_bytes = o->bytes(&L);
        }
        snprintf(when, sizeof when, "up at n=%zu", m.n);
        same(o, &L, &m, when);
    }
    for (size_t r = 0; r < top; r++) {
        size_t i = down == 0   ? r
                   : down == 1 ? top - 1u - r
                               : (r % 2 ? top - 1u - r / 2 : r / 2);
        cr_assert_eq(o->del(&L, &items[i]), 0, "%s: del %zu", o->name, i);
        m.in[i] = false;
        m.n--;
        snprintf(when, sizeof when, "down at n=%zu", m.n);
        same(o, &L, &m, when);
    }
    o->destroy(&L);
}

Test(small, every_face_grows_and_shrinks_through_kpn)
{
    size_t asc[MAXN], desc[MAXN], mixed[MAXN];
    struct tc_rng r;
    tc_rng_init(&r, tc_seed("small.grow"));
    for (size_t k = 0; k < NOPS; k++) {
        const struct sm_ops *o = all_ops[k];
        size_t stops[8], top = stops[sizes_for(o->kpn, stops) - 1];
        for (size_t i = 0; i < top; i++)
            asc[i] = desc[top - 1u - i] = mixed[i] = i;
        for (size_t i = top; i-- > 1;) { /* Fisher-Yates */
            size_t j = (size_t)tc_below(&r, i + 1u), t = mixed[i];
            mixed[i] = mixed[j];
            mixed[j] = t;
        }
        for (int d = 0; d < 3; d++) {
            grow_and_shrink(o, asc, d);
            grow_and_shrink(o, desc, d);
            grow_and_shrink(o, mixed, d);
        }
    }
    cr_assert(tc_no_leaks());
}

/* If leaves stopped growing, one element would cost a whole KPN leaf. */
Test(small, one_element_costs_a_small_leaf)
{
    for (size_t k = 0; k < NOPS; k++) {
        const struct sm_ops *o = all_ops[k];
        if (o->kpn != 64)
            continue;
        union sm_list L;
        items_reset();
        o->init(&L, NULL);
        o->add(&L, &items[0]);
        size_t one = o->bytes(&L);
        for (size_t i = 1; i < 64; i++)
            o->add(&L, &items[i]);
        size_t full = o->bytes(&L);
        /* The queue's first leaf has room for 8, the others for 1. */
        cr_assert_lt(o->queue ? 2 * one : 3 * one, full,
                     "%s: %zu bytes at n=1, %zu at n=64", o->name, one, full);
        o->destroy(&L);
    }
}

/* With a caller's allocator: init allocates the bookkeeping block, and
 * its failure is -ENOMEM with nothing held. */
Test(small, init_with_a_failing_allocator)
{
    struct tc_alloc ta;
    tc_alloc_init(&ta);
    tc_alloc_fail_at(&ta, 1);
    struct sm_def M;
    cr_assert_eq(sm_def_init(&M, &ta.iface, 1), -ENOMEM);
    sm_def_destroy(&M, NULL, NULL);
    cr_assert_eq(ta.live, 0);
    cr_assert_eq(sm_def_init(&M, &ta.iface, 1), 0);
    cr_assert_eq(ta.live, 1, "init holds the bookkeeping block");
    sm_def_destroy(&M, NULL, NULL);
    cr_assert_eq(ta.live, 0);
    cr_assert_eq(ta.bad_frees, 0u);
}

/* Each growth step's one allocation fails: -ENOMEM, and the list is as
 * it was (contents, check, bytes); then it succeeds. */
static void enomem_at_growth(const struct sm_ops *o)
{
    struct tc_alloc ta;
    union sm_list L;
    struct sm_model m = {{0}, 0};
    char when[64];
    items_reset();
    tc_alloc_init(&ta);
    cr_assert_eq(o->init(&L, &ta.iface), 0);
    for (size_t i = 0; i < (size_t)o->kpn + 2u && i < MAXN; i++) {
        size_t before = o->bytes(&L);
        unsigned long calls = ta.calls;
        tc_alloc_fail_from(&ta, 1);
        int rc = o->add(&L, &items[i]);
        tc_alloc_heal(&ta);
        if (rc == 0) { /* it needed no allocation */
            cr_assert_eq(ta.calls, calls, "%s: allocated and succeeded",
                         o->name);
            m.in[i] = true;
            m.n++;
            continue;
        }
        cr_assert_eq(rc, -ENOMEM, "%s: add %zu: %d", o->name, i, rc);
        cr_assert_eq(o->bytes(&L), before, "%s: bytes moved on -ENOMEM",
                     o->name);
        cr_assert_eq(items[i].hook.list, NULL, "%s: hook set on -ENOMEM",
                     o->name);
        snprintf(when, sizeof when, "-ENOMEM at n=%zu", m.n);
        same(o, &L, &m, when);
        cr_assert_eq(o->add(&L, &items[i]), 0, "%s: add %zu healed", o->name,
                     i);
        m.in[i] = true;
        m.n++;
        snprintf(when, sizeof when, "healed at n=%zu", m.n);
        same(o, &L, &m, when);
    }
    o->destroy(&L);
    cr_assert_eq(ta.live, 0, "%s: %ld blocks leaked", o->name, ta.live);
    cr_assert_eq(ta.bad_frees, 0u, "%s: bad frees", o->name);
}

Test(small, allocation_failure_at_each_growth_step)
{
    for (size_t k = 0; k < NOPS; k++)
        enomem_at_growth(all_ops[k]);
    cr_assert(tc_no_leaks());
}

/* A requeue inside a full small leaf: e leaves it and goes back in, so
 * nothing is allocated and nothing can fail, and the order is right. */
Test(small, requeue_inside_a_full_small_leaf)
{
    struct tc_alloc ta;
    struct sq_def Q;
    char why[256];
    items_reset();
    tc_alloc_init(&ta);
    cr_assert_eq(sq_def_init(&Q, &ta.iface, 3), 0);
    for (size_t i = 0; i < 8; i++) /* a full first leaf (room for 8) */
        cr_assert_eq(sq_def_push(&Q, &items[i]), 0);
    unsigned long calls = ta.calls;
    items[0].key = 1000; /* the front element moves to the back */
    tc_alloc_fail_from(&ta, 1);
    cr_assert_eq(sq_def_requeue(&Q, &items[0]), 0);
    tc_alloc_heal(&ta);
    cr_assert_eq(ta.calls, calls, "a requeue in a sole leaf allocated");
    cr_assert_eq(sq_def_check(&Q, why, sizeof why), 0, "%s", why);
    cr_assert_eq(sq_def_count(&Q), 8u);
    for (size_t i = 1; i < 8; i++)
        cr_assert_eq(sq_def_pop(&Q), &items[i]);
    cr_assert_eq(sq_def_pop(&Q), &items[0]);
    sq_def_destroy(&Q, NULL, NULL);
    cr_assert_eq(ta.live, 0);
}

/* check() knows what room a leaf may have: KPN, or for a list's only leaf
 * anything from the first room to KPN. */
Test(small, check_knows_leaf_room)
{
    struct sm_def M;
    char why[256];
    items_reset();
    sm_def_init(&M, NULL, 1);
    for (size_t i = 0; i < 3; i++)
        sm_def_insert(&M, &items[i], NULL);
    struct slx_leaf *x = slx_next(SLX_TY(sm_def), M.sl.head, 0);
    uint32_t cap = x->cap;
    cr_assert_eq(cap, 4u, "three inserts: room 1, 2, then 4");
    x->cap = 65; /* more than KPN */
    cr_assert_neq(sm_def_check(&M, why, sizeof why), 0);
    cr_assert(strstr(why, "room") != NULL, "%s", why);
    x->cap = cap;
    for (size_t i = 3; i < 100; i++) /* two leaves and more */
        sm_def_insert(&M, &items[i], NULL);
    cr_assert_gt(M.sl.nleaves, 1u);
    x = slx_next(SLX_TY(sm_def), M.sl.head, 0);
    cr_assert_eq(x->cap, 64u);
    x->cap = 32; /* a small leaf among several: pointers misplaced too */
    cr_assert_neq(sm_def_check(&M, why, sizeof why), 0);
    x->cap = 64;
    cr_assert_eq(sm_def_check(&M, why, sizeof why), 0, "%s", why);
    sm_def_destroy(&M, NULL, NULL);
}
