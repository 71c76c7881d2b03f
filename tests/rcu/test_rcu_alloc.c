/*
 * skiplist_rcu.h writers under allocation failure. Every operation of a
 * random stream (inserts that split leaves and grow the index, erases
 * that merge them, insert_hole) is first run with its k-th allocation
 * failing, for k = 1, 2, ... until it succeeds; half the operations also
 * fail every allocation after the k-th. Each refused attempt must return
 * -ENOMEM and leave the list exactly as it was (name_check() and the
 * contents against the model), and must give back every block it took:
 * the allocator counts the blocks allocated during the attempt and the
 * frees of those blocks, after rcu_barrier() when some free is still
 * pending. At the end, after destroy and rcu_barrier(), nothing is live.
 *
 * Replay: SEED=<n> build/tests/rcu/rcu-tests-memb --filter 'rcu_alloc/<test>'.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <criterion/criterion.h>

#include "rcu_ops.h"

#include "../model_extent.h"

SKIPLIST_RCU_DEFINE(am_small, struct map_item, uint64_t, MAP_ITEM_KEY,
                    SKIPLIST_CMP_NUM, 4, 3, 1)
SKIPLIST_RCU_DEFINE(am_def, struct map_item, uint64_t, MAP_ITEM_KEY,
                    SKIPLIST_CMP_NUM, SKIPLIST_RCU_DEFAULTS)
RMAP_OPS_DEFINE(am_small, "map kpn4/lvl3/p1", false);
RMAP_OPS_DEFINE(am_def, "map defaults", false);
SKIPLIST_RCU_EXTENT_DEFINE(ax_small, struct rext, uint64_t, start, size, 4, 3,
                           1)
REXT_OPS_DEFINE(ax_small, "extent kpn4/lvl3/p1", struct rext, uint64_t);

static union {
    struct am_small m0;
    struct am_def m1;
    struct ax_small x0;
    max_align_t align;
} the_list;

static void rt_setup(void)
{
    rcu_register_thread();
}

static void rt_teardown(void)
{
    rcu_unregister_thread();
}

/* What one sweep saw, by the kind of operation that was refused. */
struct sweep_tally {
    unsigned long ops, refused, max_k;
    unsigned long split_ops, split_refused; /* ops whose success split */
    unsigned long merge_ops, merge_refused; /* ops whose success merged */
    unsigned long erase_refused, hole_refused;
};

typedef int attempt_fn(void *ctx);
typedef void unchanged_fn(void *ctx, unsigned long op, unsigned long k);

/*
 * Runs attempt() with the k-th allocation failing (with `from`, that one
 * and every later one), k = 1, 2, ... until it returns 0; each refusal
 * must be -ENOMEM, leave the list as it was (unchanged() asserts it) and
 * keep no block. Returns how many attempts were refused.
 */
static unsigned long sweep_op(struct ra *ra, bool from, attempt_fn *attempt,
                              unchanged_fn *unchanged, void *ctx,
                              const char *label, unsigned long op)
{
    for (unsigned long k = 1;; k++) {
        ra_window(ra);
        (from ? ra_fail_from : ra_fail_at)(ra, k);
        int rc = attempt(ctx);
        ra_fail_at(ra, 0);
        if (rc == 0)
            return k - 1;
        cr_assert_eq(rc, -ENOMEM,
                     "%s op %lu: with allocation %lu%s failing: %d, not "
                     "-ENOMEM",
                     label, op, k, from ? " and later" : "", rc);
        unchanged(ctx, op, k);
        long kept = ra_window_kept(ra);
        cr_assert_eq(kept, 0,
                     "%s op %lu: refused (allocation %lu%s failing), it "
                     "kept %ld blocks",
                     label, op, k, from ? " and later" : "", kept);
        cr_assert_lt(k, 64, "%s op %lu: still refused at k = %lu", label, op,
                     k);
        rt_quiescent();
    }
}

static void tally(struct sweep_tally *t, unsigned long refused,
                  const struct skiplist_rcu_stats *before,
                  const struct skiplist_rcu_stats *after)
{
    bool split = after->splits > before->splits;
    bool merge = after->merges > before->merges;
    t->ops++;
    t->refused += refused;
    if (refused > t->max_k)
        t->max_k = refused;
    t->split_ops += split;
    t->split_refused += split && refused;
    t->merge_ops += merge;
    t->merge_refused += merge && refused;
}

static void assert_clean_end(struct ra *ra, const char *label)
{
    rcu_barrier();
    ra_fini(ra);
    cr_assert_eq(atomic_load(&ra->live), 0, "%s: %ld blocks leaked", label,
                 atomic_load(&ra->live));
    cr_assert_eq(atomic_load(&ra->bad_frees), 0, "%s: %lu bad frees", label,
                 atomic_load(&ra->bad_frees));
    cr_assert_eq(atomic_load(&ra->scribbled), 0,
                 "%s: %lu blocks written after their free", label,
                 atomic_load(&ra->scribbled));
}

/* ============================================================ map face */

#define AM_POOL 1024

enum { AM_INSERT, AM_ERASE_KEY, AM_ERASE };

struct map_sweep {
    const struct rmap_ops *o;
    void *sl;
    struct model_map m;
    struct map_item pool[AM_POOL];
    struct map_item *cur; /* the operation's element */
    int kind;
    struct map_item *out;
};

static int am_attempt(void *ctx)
{
    struct map_sweep *s = (struct map_sweep *)ctx;
    s->out = NULL;
    switch (s->kind) {
    case AM_INSERT:
        return s->o->insert(s->sl, s->cur, &s->out);
    case AM_ERASE_KEY:
        return s->o->erase_key(s->sl, s->cur->key, &s->out);
    default:
        return s->o->erase(s->sl, s->cur);
    }
}

struct am_cmp {
    const struct model_map *m;
    size_t i;
    bool bad;
};

static bool am_visit(void *ctx, void *e)
{
    struct am_cmp *c = (struct am_cmp *)ctx;
    if (c->i >= c->m->n || c->m->v[c->i] != e)
        c->bad = true;
    c->i++;
    return !c->bad;
}

static void am_same(struct map_sweep *s, unsigned long op, unsigned long k,
                    const char *when)
{
    char why[256] = "";
    struct am_cmp c = {&s->m, 0, false};
    int rc = s->o->check(s->sl, why, sizeof(why));
    cr_assert_eq(rc, 0, "%s op %lu (k %lu) %s: check: %s", s->o->label, op, k,
                 when, why);
    skiplist_rcu_read_lock();
    s->o->scan(s->sl, RT_FIRST, 0, 1, am_visit, &c);
    skiplist_rcu_read_unlock();
    cr_assert(!c.bad && c.i == s->m.n,
              "%s op %lu (k %lu) %s: the contents differ from the model at "
              "%zu",
              s->o->label, op, k, when, c.i);
}

static void am_unchanged(void *ctx, unsigned long op, unsigned long k)
{
    am_same((struct map_sweep *)ctx, op, k, "after a refusal");
}

static void map_sweep(const struct rmap_ops *o, size_t high, unsigned rounds,
                      const char *what)
{
    static struct map_sweep s;
    struct ra ra;
    struct tc_rng rng;
    struct sweep_tally t;
    memset(&s, 0, sizeof(s));
    memset(&t, 0, sizeof(t));
    s.o = o;
    s.sl = &the_list;
    mm_init(&s.m, false);
    tc_rng_init(&rng, tc_seed(what));
    for (size_t i = 0; i < AM_POOL; i++)
        s.pool[i].key = 3 * i;
    ra_init(&ra);
    cr_assert_eq(o->init(s.sl, &ra.iface, tc_rand64(&rng)), 0);
    unsigned long op = 0;
    for (unsigned round = 0; round < 2 * rounds; round++) {
        bool grow = round % 2 == 0;
        while (grow ? s.m.n < high : s.m.n > 0) {
            op++;
            if (grow) {
                do
                    s.cur = &s.pool[tc_below(&rng, AM_POOL)];
                while (mm_find(&s.m, s.cur->key));
                s.kind = AM_INSERT;
            } else {
                s.cur = s.m.v[tc_below(&rng, s.m.n)];
                s.kind = tc_below(&rng, 2) ? AM_ERASE_KEY : AM_ERASE;
            }
            struct skiplist_rcu_stats before, after;
            o->stats(s.sl, &before);
            unsigned long refused = sweep_op(&ra, op % 2, am_attempt,
                                             am_unchanged, &s, o->label, op);
            o->stats(s.sl, &after);
            tally(&t, refused, &before, &after);
            if (s.kind == AM_INSERT) {
                mm_insert_at(&s.m, mm_lower(&s.m, s.cur->key), s.cur);
            } else {
                t.erase_refused += refused;
                cr_assert(s.kind == AM_ERASE || s.out == s.cur,
                          "%s op %lu: erase_key's *out", o->label, op);
                mm_remove_at(&s.m, mm_index_of(&s.m, s.cur));
            }
            am_same(&s, op, 0, "after the success");
            rt_quiescent();
        }
    }
    o->destroy(s.sl, NULL, NULL);
    assert_clean_end(&ra, o->label);
    fprintf(stderr,
            "rcu_alloc %s (%s): %lu ops, %lu refused attempts (up to %lu "
            "per op); %lu of %lu splitting ops and %lu of %lu merging ops "
            "refused at least once, %lu refusals on erases; 0 leaked\n",
            o->label, RT_FLAVOR, t.ops, t.refused, t.max_k, t.split_refused,
            t.split_ops, t.merge_refused, t.merge_ops, t.erase_refused);
    cr_assert_gt(t.split_refused, 0, "%s: no splitting insert was refused",
                 o->label);
    cr_assert_gt(t.split_ops, 0, "%s: nothing split", o->label);
    cr_assert_gt(t.merge_ops, 0, "%s: nothing merged", o->label);
    mm_free(&s.m);
}

TestSuite(rcu_alloc, .init = rt_setup, .fini = rt_teardown, .timeout = 300);

/* init allocates the list's first nodes: each refusal is -ENOMEM and
 * gives back what it took (there is nothing to destroy). */
static void init_sweep(const struct rmap_ops *mo, const struct rext_ops *xo)
{
    for (int from = 0; from < 2; from++) {
        struct ra ra;
        unsigned long k = 1;
        int rc;
        ra_init(&ra);
        for (;; k++) {
            ra_window(&ra);
            (from ? ra_fail_from : ra_fail_at)(&ra, k);
            rc = mo ? mo->init(&the_list, &ra.iface, 1)
                    : xo->init(&the_list, &ra.iface, 1);
            ra_fail_at(&ra, 0);
            if (rc == 0)
                break;
            cr_assert_eq(rc, -ENOMEM, "init with allocation %lu failing: %d", k,
                         rc);
            cr_assert_eq(ra_window_kept(&ra), 0,
                         "a refused init (allocation %lu failing) kept "
                         "blocks",
                         k);
            cr_assert_lt(k, 16);
        }
        cr_assert_gt(k, 1, "init allocates nothing?");
        if (mo)
            mo->destroy(&the_list, NULL, NULL);
        else
            xo->destroy(&the_list, NULL, NULL);
        assert_clean_end(&ra, mo ? mo->label : xo->label);
    }
}

/* The head a user embeds (issue 28): two words, where it was 1,328
 * bytes. The writers' state is one block that init allocates (through the
 * caller's allocator when there is one) beside the top, the root and the
 * first leaf, and destroy frees it with them. */
Test(rcu_alloc, head_is_two_words)
{
    cr_assert_eq(sizeof(struct am_small), 2 * sizeof(void *));
    cr_assert_eq(sizeof(struct am_def), 2 * sizeof(void *));
    cr_assert_eq(sizeof(struct ax_small), 2 * sizeof(void *));
    struct ra ra;
    ra_init(&ra);
    cr_assert_eq(am_def_ops.init(&the_list, &ra.iface, 1), 0);
    cr_assert_eq(atomic_load(&ra.live), 4,
                 "init: the state block, the top, the root and a leaf");
    am_def_ops.destroy(&the_list, NULL, NULL);
    assert_clean_end(&ra, "head_is_two_words");
}

Test(rcu_alloc, init)
{
    init_sweep(&am_small_ops, NULL);
    init_sweep(&am_def_ops, NULL);
    init_sweep(NULL, &ax_small_ops);
}

Test(rcu_alloc, map_small)
{
    map_sweep(&am_small_ops, 48, 2, "rcu_alloc/map_small");
}

Test(rcu_alloc, map_defaults)
{
    map_sweep(&am_def_ops, 160, 1, "rcu_alloc/map_defaults");
}

/* ========================================================= extent face */

#define AX_POOL 128
#define AX_SPACE 2048u

enum { AX_INSERT, AX_HOLE, AX_ERASE };

struct ext_sweep {
    const struct rext_ops *o;
    void *sl;
    struct model_extent m;
    struct rext pool[AX_POOL];
    bool linked[AX_POOL];
    struct rext *cur;
    int kind;
    uint64_t align, lo, hi;
    int flags;
};

static int ax_attempt(void *ctx)
{
    struct ext_sweep *s = (struct ext_sweep *)ctx;
    void *clash = NULL;
    switch (s->kind) {
    case AX_INSERT:
        return s->o->insert(s->sl, s->cur, &clash);
    case AX_HOLE:
        return s->o->hole(s->sl, s->cur, s->align, s->lo, s->hi, s->flags);
    default:
        return s->o->erase(s->sl, s->cur);
    }
}

struct ax_cmp {
    const struct model_extent *m;
    size_t i;
    bool bad;
};

static bool ax_visit(void *ctx, void *e)
{
    struct ax_cmp *c = (struct ax_cmp *)ctx;
    if (c->i >= c->m->n || c->m->v[c->i].tag != e)
        c->bad = true;
    c->i++;
    return !c->bad;
}

static void ax_same(struct ext_sweep *s, unsigned long op, unsigned long k,
                    const char *when)
{
    char why[256] = "";
    struct ax_cmp c = {&s->m, 0, false};
    int rc = s->o->check(s->sl, why, sizeof(why));
    cr_assert_eq(rc, 0, "%s op %lu (k %lu) %s: check: %s", s->o->label, op, k,
                 when, why);
    skiplist_rcu_read_lock();
    s->o->scan(s->sl, RT_FIRST, 0, 1, ax_visit, &c);
    skiplist_rcu_read_unlock();
    cr_assert(!c.bad && c.i == s->m.n,
              "%s op %lu (k %lu) %s: the contents differ from the model at "
              "%zu",
              s->o->label, op, k, when, c.i);
}

static void ax_unchanged(void *ctx, unsigned long op, unsigned long k)
{
    ax_same((struct ext_sweep *)ctx, op, k, "after a refusal");
}

/* An unlinked element and a place for it that the model says is free:
 * a plain insert, or an insert_hole whose answer the model knows. */
static void ax_pick_insert(struct ext_sweep *s, struct tc_rng *rng)
{
    size_t i;
    do
        i = (size_t)tc_below(rng, AX_POOL);
    while (s->linked[i]);
    s->cur = &s->pool[i];
    for (;;) {
        uint64_t size = 1 + tc_below(rng, 24), at = 0;
        s->cur->size = size;
        if (tc_below(rng, 2)) {
            s->kind = AX_INSERT;
            s->cur->start = tc_below(rng, AX_SPACE - size);
            if (mx_find_overlap(&s->m, s->cur->start,
                                s->cur->start + size - 1) == s->m.n)
                return;
            continue;
        }
        s->kind = AX_HOLE;
        s->align = UINT64_C(1) << tc_below(rng, 5);
        s->lo = tc_below(rng, AX_SPACE);
        s->hi = s->lo + tc_below(rng, AX_SPACE - s->lo);
        s->flags =
            tc_below(rng, 2) ? SKIPLIST_HOLE_HIGHEST : SKIPLIST_HOLE_LOWEST;
        if (mx_hole(&s->m, size, s->align, s->lo, s->hi,
                    s->flags == SKIPLIST_HOLE_HIGHEST, &at) == 0) {
            s->cur->start = at; /* what the model expects; checked below */
            return;
        }
    }
}

static void ext_sweep(const struct rext_ops *o, size_t high, unsigned rounds,
                      const char *what)
{
    static struct ext_sweep s;
    struct ra ra;
    struct tc_rng rng;
    struct sweep_tally t;
    memset(&s, 0, sizeof(s));
    memset(&t, 0, sizeof(t));
    s.o = o;
    s.sl = &the_list;
    mx_init(&s.m, o->max);
    tc_rng_init(&rng, tc_seed(what));
    ra_init(&ra);
    cr_assert_eq(o->init(s.sl, &ra.iface, tc_rand64(&rng)), 0);
    unsigned long op = 0;
    for (unsigned round = 0; round < 2 * rounds; round++) {
        bool grow = round % 2 == 0;
        while (grow ? s.m.n < high : s.m.n > 0) {
            op++;
            uint64_t want = 0;
            if (grow) {
                ax_pick_insert(&s, &rng);
                want = s.cur->start;
            } else {
                s.cur = (struct rext *)s.m.v[tc_below(&rng, s.m.n)].tag;
                s.kind = AX_ERASE;
            }
            struct skiplist_rcu_stats before, after;
            o->stats(s.sl, &before);
            unsigned long refused = sweep_op(&ra, op % 2, ax_attempt,
                                             ax_unchanged, &s, o->label, op);
            o->stats(s.sl, &after);
            tally(&t, refused, &before, &after);
            size_t i = (size_t)(s.cur - s.pool);
            if (grow) {
                cr_assert_eq(s.cur->start, want,
                             "%s op %lu: placed at %" PRIu64
                             ", the model at %" PRIu64,
                             o->label, op, s.cur->start, want);
                cr_assert_eq(
                    mx_insert(&s.m, s.cur->start, s.cur->size, s.cur, NULL), 0);
                t.hole_refused += s.kind == AX_HOLE ? refused : 0;
            } else {
                cr_assert_eq(mx_erase(&s.m, s.cur), 0);
                t.erase_refused += refused;
            }
            s.linked[i] = grow;
            ax_same(&s, op, 0, "after the success");
            rt_quiescent();
        }
    }
    o->destroy(s.sl, NULL, NULL);
    assert_clean_end(&ra, o->label);
    fprintf(stderr,
            "rcu_alloc %s (%s): %lu ops, %lu refused attempts (up to %lu "
            "per op); %lu of %lu splitting ops and %lu of %lu merging ops "
            "refused at least once, %lu refusals on insert_hole, %lu on "
            "erases; 0 leaked\n",
            o->label, RT_FLAVOR, t.ops, t.refused, t.max_k, t.split_refused,
            t.split_ops, t.merge_refused, t.merge_ops, t.hole_refused,
            t.erase_refused);
    cr_assert_gt(t.split_refused, 0, "%s: no splitting insert was refused",
                 o->label);
    cr_assert_gt(t.hole_refused, 0, "%s: no insert_hole was refused", o->label);
    cr_assert_gt(t.merge_ops, 0, "%s: nothing merged", o->label);
    mx_fini(&s.m);
}

Test(rcu_alloc, extent_small)
{
    ext_sweep(&ax_small_ops, 40, 2, "rcu_alloc/extent_small");
}
