/*
 * name_check() against broken structures: each case below breaks one
 * invariant of a correct list by writing a field or two of a node (a
 * "poke"), and the check must return -EINVAL with the message that names
 * that invariant; with the bytes put back the same list must check clean.
 * So every diagnosis of slx_check is shown to fire, and to fire for its own
 * cause (a check that always failed, or blamed the wrong thing, fails here).
 * The map, extent and queue faces each have the cases only they can break.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "test_common.h"

/* ------------------------------------------------------------- pokes */

/* Up to four writes that break one invariant, undone in reverse order. */
struct cc_poke {
    void *at;
    size_t size;
    unsigned char val[16];
    unsigned char old[16];
};
struct cc_break {
    struct cc_poke p[4];
    unsigned n;
};

static void cc_add(struct cc_break *b, void *at, const void *val, size_t size)
{
    cr_assert_lt(b->n, 4u);
    cr_assert_leq(size, sizeof(b->p[0].val));
    struct cc_poke *p = &b->p[b->n++];
    p->at = at;
    p->size = size;
    memcpy(p->val, val, size);
}

/* Break: lvalue becomes value (same type), recorded for the undo. */
#define CC_SET(b, lvalue, value)                      \
    do {                                              \
        __typeof__(lvalue) cc_v_ = (value);           \
        cc_add((b), &(lvalue), &cc_v_, sizeof cc_v_); \
    } while (0)

static void cc_apply(struct cc_break *b)
{
    for (unsigned i = 0; i < b->n; i++) {
        memcpy(b->p[i].old, b->p[i].at, b->p[i].size);
        memcpy(b->p[i].at, b->p[i].val, b->p[i].size);
    }
}

static void cc_undo(struct cc_break *b)
{
    for (unsigned i = b->n; i-- > 0;)
        memcpy(b->p[i].at, b->p[i].old, b->p[i].size);
}

/* A list's name_check, whatever its instance. */
typedef int (*cc_check_fn)(const void *list, char *why, size_t len);

/* Case name: the break b makes check(list) fail with -EINVAL and a
 * message holding want; undone, the list checks clean again. */
static void cc_expect_diagnosis(const char *name, struct cc_break *b,
                                const char *want, cc_check_fn check,
                                const void *list)
{
    char why[256] = "";
    cc_apply(b);
    int rc = check(list, why, sizeof why);
    cc_undo(b);
    cr_expect_eq(rc, -EINVAL, "%s: check returned %d", name, rc);
    cr_expect(strstr(why, want) != NULL, "%s: \"%s\", want \"%s\"", name, why,
              want);
    cr_assert_eq(check(list, why, sizeof why), 0, "%s undone: %s", name, why);
}

/* The list's u64 key at slot i of leaf x, as a writable lvalue. */
static uint64_t *cc_key(const struct slx_type *ty, struct slx_leaf *x,
                        unsigned i)
{
    return (uint64_t *)(void *)slx_key(ty, x, i);
}

static struct slx_linkhdr *cc_link(const struct slx_type *ty,
                                   struct slx_leaf *x)
{
    return (struct slx_linkhdr *)(void *)slx_link(ty, x, 0);
}

static struct slx_leaf *cc_leaf(const struct slx_type *ty,
                                const struct slx_list *L, unsigned k)
{
    struct slx_leaf *x = slx_next(ty, L->head, 0);
    while (k-- > 0)
        x = slx_next(ty, x, 0);
    cr_assert_neq(x, L->head, "the list has too few leaves for the case");
    return x;
}

/* The first leaf holding at least n slots. */
static struct slx_leaf *cc_leaf_with(const struct slx_type *ty,
                                     const struct slx_list *L, unsigned n)
{
    for (struct slx_leaf *x = slx_next(ty, L->head, 0); x != L->head;
         x = slx_next(ty, x, 0))
        if (x->n >= n)
            return x;
    cr_assert_fail("no leaf holds %u slots", n);
    return NULL;
}

/* The leftmost index node of level 1. */
static struct slx_inode *cc_level1(const struct slx_type *ty,
                                   const struct slx_list *L)
{
    struct slx_inode *P = L->root;
    cr_assert_not_null(P);
    while (P->level > 1)
        P = (struct slx_inode *)slx_ichild(ty, P, 0);
    return P;
}

/* ------------------------------------------------------- ordered index */

struct cc_item {
    uint64_t key;
};
#define CC_KEY(e) ((e)->key)
/* KPN 4 and PSHIFT 1: hundreds of small leaves under a deep index. */
SKIPLIST_DEFINE(ccm, struct cc_item, uint64_t, CC_KEY, SKIPLIST_CMP_NUM, 4, 6,
                1)
#define CCM_TY SLX_TY(ccm)

enum { CC_N = 600 };

/* Instance P's list at lp, initialised and given keys 0, 10, .. in a fixed
 * shuffle (7919 is prime to CC_N): leaves of 2-4 under a deep index. */
#define CC_FILL(P, lp, v, keys)                                \
    do {                                                       \
        cr_assert_eq(P##_init((lp), NULL, 12345), 0);          \
        for (unsigned i_ = 0; i_ < (keys); i_++) {             \
            (v)[i_].key = 10u * ((i_ * 7919u) % (keys));       \
            cr_assert_eq(P##_insert((lp), &(v)[i_], NULL), 0); \
        }                                                      \
    } while (0)

static int cc_check_map(const void *list, char *why, size_t len)
{
    return ccm_check((const struct ccm *)list, why, len);
}

struct cc_map_case {
    const char *name;
    unsigned keys; /* CC_N, or a few for a list of one leaf */
    const char *want;
    void (*brk)(struct ccm *m, struct cc_break *b);
};

static void m_head_level(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, m->sl.head->level, 2);
}
static void m_top_high(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, m->sl.aux->top, 9u);
}
static void m_leaf_empty(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, cc_leaf(CCM_TY, &m->sl, 0)->n, 0);
}
static void m_leaf_off(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, cc_leaf(CCM_TY, &m->sl, 0)->off, 1);
}
static void m_leaf_level(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, cc_leaf(CCM_TY, &m->sl, 0)->level, 2);
}
static void m_cached_key(struct ccm *m, struct cc_break *b)
{
    uint64_t *k = (uint64_t *)(void *)slx_nmin(CCM_TY, m->sl.head, 0);
    CC_SET(b, *k, *k + 1);
}
/* Leaf 2 starts below leaf 1's last key, its cached copy agreeing. */
static void m_leaf_order(struct ccm *m, struct cc_break *b)
{
    struct slx_leaf *x = cc_leaf(CCM_TY, &m->sl, 0);
    struct slx_leaf *y = slx_next(CCM_TY, x, 0);
    uint64_t k = *cc_key(CCM_TY, x, x->n - 1u) - 1;
    CC_SET(b, *cc_key(CCM_TY, y, 0), k);
    CC_SET(b, *(uint64_t *)(void *)slx_nmin(CCM_TY, x, 0), k);
}
static void m_slot_order(struct ccm *m, struct cc_break *b)
{
    struct slx_leaf *x = cc_leaf_with(CCM_TY, &m->sl, 3);
    CC_SET(b, *cc_key(CCM_TY, x, 2), *cc_key(CCM_TY, x, 1) - 1);
}
static void m_null_elem(struct ccm *m, struct cc_break *b)
{
    struct slx_leaf *x = cc_leaf_with(CCM_TY, &m->sl, 2);
    CC_SET(b, slx_ptrs(CCM_TY, x)[1], NULL);
}
static void m_prev_link(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, cc_link(CCM_TY, cc_leaf(CCM_TY, &m->sl, 1))->prev, m->sl.head);
}
static void m_head_prev(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, cc_link(CCM_TY, m->sl.head)->prev, cc_leaf(CCM_TY, &m->sl, 0));
}
static void m_count(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, m->sl.count, m->sl.count + 1);
}
static void m_nleaves(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, m->sl.aux->nleaves, m->sl.aux->nleaves + 1);
}
static void m_nleaves_short(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, m->sl.aux->nleaves, (size_t)1);
}
static void m_no_root(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, m->sl.root, NULL);
}
static void m_stash(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, m->sl.aux->nstash, m->sl.aux->nstash + 1);
}
static void m_top_root(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, m->sl.aux->top, m->sl.aux->top - 1u);
}
static void m_root_parent(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, m->sl.root->parent, cc_level1(CCM_TY, &m->sl));
}
static void m_root_empty(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, m->sl.root->n, 0u);
}
static void m_child_lost(struct ccm *m, struct cc_break *b)
{
    void **c = slx_ichildp(CCM_TY, cc_level1(CCM_TY, &m->sl), 0);
    CC_SET(b, *c, (void *)m->sl.head);
}
static void m_leaf_parent(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, cc_leaf(CCM_TY, &m->sl, 0)->parent, m->sl.root);
}
static void m_child_level(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, cc_level1(CCM_TY, &m->sl)->level, 3);
}
static void m_separator(struct ccm *m, struct cc_break *b)
{
    uint64_t *k = (uint64_t *)(void *)slx_ikey(CCM_TY, m->sl.root, 1);
    CC_SET(b, *k, *k + 1);
}
/* The last subtree cut off: the deepest node on the rightmost path that
 * can lose an entry and stay valid drops its last one. */
static void m_index_short(struct ccm *m, struct cc_break *b)
{
    struct slx_inode *cut = NULL;
    for (struct slx_inode *P = m->sl.root;;) {
        if (P->n >= (P == m->sl.root ? 3u : 2u))
            cut = P;
        if (P->level == 1)
            break;
        P = (struct slx_inode *)slx_ichild(CCM_TY, P, P->n - 1u);
    }
    cr_assert_not_null(cut, "no node on the rightmost path can lose one");
    CC_SET(b, cut->n, cut->n - 1u);
}
static void m_top_no_index(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, m->sl.aux->top, 1u);
}
static void m_parent_no_index(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, cc_leaf(CCM_TY, &m->sl, 0)->parent,
           (struct slx_inode *)(void *)m);
}
static void m_root_one_leaf(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, m->sl.root, (struct slx_inode *)(void *)m);
}
/* A list never written to (no aux block) that claims elements, or a head
 * of its own (check reads its level, count and parent, then compares it
 * with the instance's shared empty head). */
static void m_unwritten_count(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, m->sl.count, (size_t)1);
}
/* A list with its block that still claims a singleton. */
static void m_one_with_block(struct ccm *m, struct cc_break *b)
{
    CC_SET(b, m->sl.one, (void *)m);
}
static void m_unwritten_head(struct ccm *m, struct cc_break *b)
{
    static struct slx_leaf own; /* a head's fields: level 1, empty */
    own.level = 1;
    CC_SET(b, m->sl.head, &own);
}

static const struct cc_map_case cc_map_cases[] = {
    {"head level", CC_N, "head level 2", m_head_level},
    {"top above max", CC_N, "top 9 above max level", m_top_high},
    {"empty leaf", CC_N, "leaf 1 holds 0 slots", m_leaf_empty},
    {"slot window", CC_N, "leaf 1: slot window starts at 1", m_leaf_off},
    {"leaf level", CC_N, "leaf 1 has level 2", m_leaf_level},
    {"cached key", CC_N, "leaf 1: cached first key stale", m_cached_key},
    {"leaf order", CC_N, "leaf 2: first key below previous leaf's last",
     m_leaf_order},
    {"slot order", CC_N, "slot 2 out of order", m_slot_order},
    {"NULL element", CC_N, "slot 1: NULL element", m_null_elem},
    {"prev link", CC_N, "leaf 2: prev link broken", m_prev_link},
    {"head prev", CC_N, "head prev on level 0 is not the last leaf",
     m_head_prev},
    {"count", CC_N, "count 601 but 600 slots linked", m_count},
    {"nleaves", CC_N, "nleaves", m_nleaves},
    {"nleaves short", CC_N, "level 0 longer than 1 leaves", m_nleaves_short},
    {"no root", CC_N, "index missing", m_no_root},
    {"stash", CC_N, "stash holds", m_stash},
    {"top below root", CC_N, "but the root is on level", m_top_root},
    {"root parent", CC_N, "node 1: parent link wrong", m_root_parent},
    {"root empty", CC_N, "node 1: 0 entries of room", m_root_empty},
    {"child lost", CC_N, "entry 0 of node", m_child_lost},
    {"leaf parent", CC_N, "leaf 1: parent link wrong", m_leaf_parent},
    {"child level", CC_N, ": child of level 3", m_child_level},
    {"separator", CC_N, "entry 1: separator key stale", m_separator},
    {"index short", CC_N, "index reaches", m_index_short},
    {"top, no index", 3, "top 1 without an index", m_top_no_index},
    {"parent, no index", 3, "leaf has a parent but no index",
     m_parent_no_index},
    {"root, one leaf", 3, "index present with 1 leaves", m_root_one_leaf},
    {"unwritten, count", 0, "no aux block, but 1 elements", m_unwritten_count},
    {"unwritten, head", 0, "no aux block, but a head of its own",
     m_unwritten_head},
    {"singleton and block", 3, "a singleton beside an aux block",
     m_one_with_block},
};

Test(cov_check, map_every_diagnosis)
{
    static struct cc_item v[CC_N];
    for (size_t c = 0; c < sizeof cc_map_cases / sizeof cc_map_cases[0]; c++) {
        const struct cc_map_case *k = &cc_map_cases[c];
        struct ccm m;
        char why[256] = "";
        CC_FILL(ccm, &m, v, k->keys);
        cr_assert_eq(ccm_check(&m, why, sizeof why), 0, "%s: %s", k->name, why);
        if (k->keys == CC_N)
            cr_assert_geq(m.sl.aux->top, 2u, "%s: the index is too shallow",
                          k->name);
        struct cc_break b = {.n = 0};
        k->brk(&m, &b);
        cc_expect_diagnosis(k->name, &b, k->want, cc_check_map, &m);
        ccm_destroy(&m, NULL, NULL);
    }
}

/* ------------------------------------------------------- ranked counts */

/* The same shape with order statistics: every index entry counts the
 * elements below it, and the last leaf's own changes wait (its waits
 * flag, aux->rknown). */
SKIPLIST_RANKED_DEFINE(ccr, struct cc_item, uint64_t, CC_KEY, SKIPLIST_CMP_NUM,
                       4, 6, 1)
#define CCR_TY SLX_TY(ccr)

static int cc_check_ranked(const void *list, char *why, size_t len)
{
    return ccr_check((const struct ccr *)list, why, len);
}

struct cc_rank_case {
    const char *name;
    unsigned keys; /* CC_N (then one append), or a few: one leaf */
    const char *want;
    void (*brk)(struct ccr *r, struct cc_break *b);
};

/* An entry off the last leaf's path counts one element too many. */
static void r_entry_count(struct ccr *r, struct cc_break *b)
{
    struct slx_inode *P = cc_level1(CCR_TY, &r->sl);
    size_t *c = slx_icount(CCR_TY, P, 0);
    CC_SET(b, *c, *c + 1);
}
/* One element more pending than the last leaf's path lacks. */
static void r_pending(struct ccr *r, struct cc_break *b)
{
    CC_SET(b, r->sl.aux->rknown, r->sl.aux->rknown - 1);
}
/* A leaf that waits with no index above it (the sole leaf). */
static void r_pending_no_index(struct ccr *r, struct cc_break *b)
{
    struct slx_leaf *x = slx_next(CCR_TY, r->sl.head, 0);
    CC_SET(b, x->waits, (uint8_t)1);
}
/* A leaf that waits but is not the last one. */
static void r_pending_not_last(struct ccr *r, struct cc_break *b)
{
    struct slx_leaf *x = slx_next(CCR_TY, r->sl.head, 0);
    CC_SET(b, x->waits, (uint8_t)1);
}

static const struct cc_rank_case cc_rank_cases[] = {
    {"entry count", CC_N, "entry 0: count", r_entry_count},
    {"pending", CC_N, "elements below it", r_pending},
    {"pending, no index", 3, "leaf 1: counts wait on it", r_pending_no_index},
    {"pending, not last", CC_N, "leaf 1: counts wait on it",
     r_pending_not_last},
};

Test(cov_check, ranked_every_diagnosis)
{
    static struct cc_item v[CC_N + 1];
    for (size_t c = 0; c < sizeof cc_rank_cases / sizeof cc_rank_cases[0];
         c++) {
        const struct cc_rank_case *k = &cc_rank_cases[c];
        struct ccr r;
        char why[256] = "";
        CC_FILL(ccr, &r, v, k->keys);
        if (k->keys == CC_N) {
            /* an append: the last leaf's element waits, and a clean
             * check must accept that */
            v[CC_N].key = 10u * CC_N;
            cr_assert_eq(ccr_insert(&r, &v[CC_N], NULL), 0);
            cr_assert_gt(slx_rpend(CCR_TY, &r.sl), 0u, "%s: nothing pending",
                         k->name);
        }
        cr_assert_eq(ccr_check(&r, why, sizeof why), 0, "%s: %s", k->name, why);
        struct cc_break b = {.n = 0};
        k->brk(&r, &b);
        cc_expect_diagnosis(k->name, &b, k->want, cc_check_ranked, &r);
        ccr_destroy(&r, NULL, NULL);
    }
}

/* ------------------------------------------------------- extent index */

struct cc_ext {
    uint64_t start;
    uint64_t size;
};
SKIPLIST_EXTENT_DEFINE(cce, struct cc_ext, uint64_t, start, size, 4, 6, 1)
#define CCE_TY SLX_TY(cce)

static uint64_t *cc_last(struct slx_leaf *x, unsigned i)
{
    return (uint64_t *)(void *)(slx_lasts(CCE_TY, x) + i * sizeof(uint64_t));
}

static void e_end(struct cce *m, struct cc_break *b)
{
    struct slx_leaf *x = cc_leaf(CCE_TY, &m->sl, 0);
    CC_SET(b, *cc_last(x, 0), *cc_last(x, 0) + 1);
}
/* Slot 0 grows (end and element size agreeing) into slot 1. */
static void e_overlap(struct cce *m, struct cc_break *b)
{
    struct slx_leaf *x = cc_leaf_with(CCE_TY, &m->sl, 2);
    struct cc_ext *e = (struct cc_ext *)slx_ptrs(CCE_TY, x)[0];
    uint64_t grow = *cc_key(CCE_TY, x, 1) - *cc_key(CCE_TY, x, 0);
    CC_SET(b, *cc_last(x, 0), *cc_last(x, 0) + grow);
    CC_SET(b, e->size, e->size + grow);
}
static void e_leaf_gap(struct cce *m, struct cc_break *b)
{
    struct slx_runs *r = slx_gap(CCE_TY, cc_leaf(CCE_TY, &m->sl, 0), 0);
    CC_SET(b, r->gap, r->gap + 1);
}
static void e_leaf_fit(struct cce *m, struct cc_break *b)
{
    struct slx_runs *r = slx_gap(CCE_TY, cc_leaf(CCE_TY, &m->sl, 0), 0);
    CC_SET(b, r->fit[0], r->fit[0] + 1);
}
static void e_index_gap(struct cce *m, struct cc_break *b)
{
    uint64_t *g = slx_igaps(CCE_TY, m->sl.root);
    CC_SET(b, g[1], g[1] + 1);
}
static void e_index_gap_deep(struct cce *m, struct cc_break *b)
{
    uint64_t *g = slx_igaps(CCE_TY, cc_level1(CCE_TY, &m->sl));
    CC_SET(b, g[0], g[0] + 1);
}
static void e_head_gap(struct cce *m, struct cc_break *b)
{
    struct slx_runs *r = slx_gap(CCE_TY, m->sl.head, 0);
    CC_SET(b, r->gap, r->gap + 1);
}

static const struct {
    const char *name;
    const char *want;
    void (*brk)(struct cce *m, struct cc_break *b);
} cc_ext_cases[] = {
    {"end", "slot 0: extent end differs from the element's size", e_end},
    {"overlap", "slot 1 overlaps the extent before it", e_overlap},
    {"leaf gap", "gap summary wrong on level 0", e_leaf_gap},
    {"leaf fit", "aligned-block summary wrong on level 0", e_leaf_fit},
    {"index gap", "gap summary wrong on index level", e_index_gap},
    {"index gap deep", "gap summary wrong on index level 1", e_index_gap_deep},
    {"head gap", "gap summary of the head's run wrong", e_head_gap},
};

Test(cov_check, extent_every_diagnosis)
{
    static struct cc_ext v[CC_N];
    for (size_t c = 0; c < sizeof cc_ext_cases / sizeof cc_ext_cases[0]; c++) {
        struct cce m;
        char why[256] = "";
        cr_assert_eq(cce_init(&m, NULL, 99), 0);
        for (unsigned i = 0; i < CC_N; i++) {
            /* [100 k, 100 k + 10 + k % 7): free runs of every length */
            uint64_t k = (i * 7919u) % CC_N;
            v[i].start = 100u * k;
            v[i].size = 10u + k % 7u;
            cr_assert_eq(cce_insert(&m, &v[i], NULL), 0);
        }
        cr_assert_eq(cce_check(&m, why, sizeof why), 0, "%s", why);
        cr_assert_geq(m.sl.aux->top, 2u);
        struct cc_break b = {.n = 0};
        cc_ext_cases[c].brk(&m, &b);
        cc_apply(&b);
        int rc = cce_check(&m, why, sizeof why);
        cc_undo(&b);
        cr_expect_eq(rc, -EINVAL, "%s: check returned %d", cc_ext_cases[c].name,
                     rc);
        cr_expect(strstr(why, cc_ext_cases[c].want) != NULL,
                  "%s: \"%s\", want \"%s\"", cc_ext_cases[c].name, why,
                  cc_ext_cases[c].want);
        cr_assert_eq(cce_check(&m, why, sizeof why), 0, "%s undone: %s",
                     cc_ext_cases[c].name, why);
        cce_destroy(&m, NULL, NULL);
    }
}

/* ------------------------------------------------------ priority queue */

struct cc_task {
    uint64_t key;
    struct skiplist_hook hook;
};
#define CC_TKEY(e) ((e)->key)
/* KPN 8: tombstones kept as bits (SLX_BITMAP_LEAF). */
SKIPLIST_PQ_DEFINE(ccq, struct cc_task, uint64_t, CC_TKEY, SKIPLIST_CMP_NUM,
                   hook, 8, 6, 1)
#define CCQ_TY SLX_TY(ccq)

static struct ccq cc_other; /* a queue that holds nothing */

static void q_hook_leaf(struct ccq *q, struct cc_break *b)
{
    struct slx_leaf *x = cc_leaf(CCQ_TY, &q->sl, 0);
    struct cc_task *t = (struct cc_task *)slx_ptrs(CCQ_TY, x)[0];
    CC_SET(b, t->hook.leaf, (void *)cc_leaf(CCQ_TY, &q->sl, 1));
}
static void q_hook_list(struct ccq *q, struct cc_break *b)
{
    struct slx_leaf *x = cc_leaf(CCQ_TY, &q->sl, 0);
    struct cc_task *t = (struct cc_task *)slx_ptrs(CCQ_TY, x)[0];
    CC_SET(b, t->hook.list, (void *)&cc_other.sl);
}
static void q_dead(struct ccq *q, struct cc_break *b)
{
    struct slx_leaf *x = cc_leaf(CCQ_TY, &q->sl, 0);
    CC_SET(b, x->dead, (uint16_t)(x->dead + 1u));
}
static void q_tombs(struct ccq *q, struct cc_break *b)
{
    struct slx_leaf *x = cc_leaf(CCQ_TY, &q->sl, 0);
    CC_SET(b, x->tombs, x->tombs ^ (UINT64_C(1) << (x->off + 1u)));
}

static const struct {
    const char *name;
    const char *want;
    void (*brk)(struct ccq *q, struct cc_break *b);
} cc_pq_cases[] = {
    {"hook leaf", "leaf 1 slot 0: hook stale", q_hook_leaf},
    {"hook list", "leaf 1 slot 0: hook names another list", q_hook_list},
    {"dead", "leaf 1 counts 1 tombstones", q_dead},
    {"tombs", "leaf 1: tombstone bits wrong", q_tombs},
};

/* A queue's singleton whose hook names another list. */
Test(cov_check, queue_singleton_hook)
{
    static struct cc_task t;
    struct ccq q;
    char why[256] = "";
    cr_assert_eq(ccq_init(&q, NULL, 5), 0);
    skiplist_hook_init(&t.hook);
    cr_assert_eq(ccq_push(&q, &t), 0);
    cr_assert_eq(ccq_bytes(&q), 0, "not a singleton");
    cr_assert_eq(ccq_check(&q, why, sizeof why), 0, "%s", why);
    struct cc_break b = {.n = 0};
    CC_SET(&b, t.hook.list, (void *)&cc_other.sl);
    cc_apply(&b);
    int rc = ccq_check(&q, why, sizeof why);
    cc_undo(&b);
    cr_expect_eq(rc, -EINVAL, "check returned %d", rc);
    cr_expect(strstr(why, "the singleton's hook is stale") != NULL, "\"%s\"",
              why);
    cr_assert_eq(ccq_check(&q, why, sizeof why), 0, "undone: %s", why);
    ccq_destroy(&q, NULL, NULL);
}

Test(cov_check, queue_every_diagnosis)
{
    static struct cc_task v[CC_N];
    for (size_t c = 0; c < sizeof cc_pq_cases / sizeof cc_pq_cases[0]; c++) {
        struct ccq q;
        char why[256] = "";
        cr_assert_eq(ccq_init(&q, NULL, 5), 0);
        for (unsigned i = 0; i < CC_N; i++) {
            skiplist_hook_init(&v[i].hook);
            v[i].key = (i * 7919u) % CC_N;
            cr_assert_eq(ccq_push(&q, &v[i]), 0);
        }
        cr_assert_eq(ccq_check(&q, why, sizeof why), 0, "%s", why);
        struct cc_break b = {.n = 0};
        cc_pq_cases[c].brk(&q, &b);
        cc_apply(&b);
        int rc = ccq_check(&q, why, sizeof why);
        cc_undo(&b);
        cr_expect_eq(rc, -EINVAL, "%s: check returned %d", cc_pq_cases[c].name,
                     rc);
        cr_expect(strstr(why, cc_pq_cases[c].want) != NULL,
                  "%s: \"%s\", want \"%s\"", cc_pq_cases[c].name, why,
                  cc_pq_cases[c].want);
        cr_assert_eq(ccq_check(&q, why, sizeof why), 0, "%s undone: %s",
                     cc_pq_cases[c].name, why);
        ccq_destroy(&q, NULL, NULL);
    }
}
