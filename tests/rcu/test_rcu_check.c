/*
 * skiplist_rcu.h's name_check() against broken structures (one thread, no
 * writer running, as check() requires): each case breaks one invariant of
 * a correct list by writing a field or two of a node, and the check must
 * return -EINVAL with the message naming that invariant; with the bytes
 * put back the list must check clean again. So each diagnosis of
 * slr_check is shown to fire for its own cause. Map and extent faces.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, in rcu_common.h */

#include <criterion/criterion.h>

#include "rcu_ops.h"

/* ------------------------------------------------------------- pokes */

struct xc_poke {
    void *at;
    size_t size;
    unsigned char val[16];
    unsigned char old[16];
};
struct xc_break {
    struct xc_poke p[4];
    unsigned n;
};

static void xc_add(struct xc_break *b, void *at, const void *val, size_t size)
{
    cr_assert_lt(b->n, 4u);
    cr_assert_leq(size, sizeof(b->p[0].val));
    struct xc_poke *p = &b->p[b->n++];
    p->at = at;
    p->size = size;
    memcpy(p->val, val, size);
}

#define XC_SET(b, lvalue, value)                      \
    do {                                              \
        __typeof__(lvalue) xc_v_ = (value);           \
        xc_add((b), &(lvalue), &xc_v_, sizeof xc_v_); \
    } while (0)

static void xc_apply(struct xc_break *b)
{
    for (unsigned i = 0; i < b->n; i++) {
        memcpy(b->p[i].old, b->p[i].at, b->p[i].size);
        memcpy(b->p[i].at, b->p[i].val, b->p[i].size);
    }
}

static void xc_undo(struct xc_break *b)
{
    for (unsigned i = b->n; i-- > 0;)
        memcpy(b->p[i].at, b->p[i].old, b->p[i].size);
}

/* ----------------------------------------------------------- helpers */

static uint64_t *xc_ikey(const struct slx_type *ty, struct slr_inode *P,
                         unsigned j)
{
    return (uint64_t *)(void *)slr_ikey(ty, P, j);
}

/* The key of rank i in leaf x's published order. */
static uint64_t *xc_lkey(const struct slx_type *ty, struct slr_leaf *x,
                         unsigned i)
{
    struct slr_snap w[1];
    slr_snap_read(ty, x, w);
    return (uint64_t *)(void *)slr_rkey(ty, x, w, i);
}

static unsigned xc_count(const struct slx_type *ty, const struct slr_leaf *x)
{
    return slr_count_of(ty, slr_lword(x));
}

static struct slr_inode *xc_child(const struct slx_type *ty,
                                  struct slr_inode *P, unsigned j)
{
    return (struct slr_inode *)slr_ichild(ty, P, j);
}

/* The leftmost index node of level 1. */
static struct slr_inode *xc_level1(const struct slx_type *ty,
                                   struct slr_list *L)
{
    struct slr_inode *P = slr_root(ty, L);
    while (P->level > 1)
        P = xc_child(ty, P, 0);
    return P;
}

/* The leftmost level-1 node below P with two leaves or more, or NULL. */
static struct slr_inode *xc_wide_below(const struct slx_type *ty,
                                       struct slr_inode *P)
{
    if (P->level == 1)
        return P->n >= 2 ? P : NULL;
    for (unsigned j = 0; j < P->n; j++) {
        struct slr_inode *W = xc_wide_below(ty, xc_child(ty, P, j));
        if (W)
            return W;
    }
    return NULL;
}

/* Leaf k (0-based, in key order) below P; *k counts down. */
static struct slr_leaf *xc_leaf_below(const struct slx_type *ty,
                                      struct slr_inode *P, unsigned *k)
{
    for (unsigned j = 0; j < P->n; j++) {
        if (P->level == 1) {
            if ((*k)-- == 0)
                return (struct slr_leaf *)slr_ichild(ty, P, j);
            continue;
        }
        struct slr_leaf *x = xc_leaf_below(ty, xc_child(ty, P, j), k);
        if (x)
            return x;
    }
    return NULL;
}

static struct slr_leaf *xc_leaf(const struct slx_type *ty, struct slr_list *L,
                                unsigned k)
{
    struct slr_leaf *x = xc_leaf_below(ty, slr_root(ty, L), &k);
    cr_assert_not_null(x);
    return x;
}

/* The first node (depth first, leftmost first) below P holding at least
 * n entries, at level >= minlevel, that is not on the leftmost path when
 * inner is set (so it has a lower fence). */
static struct slr_inode *xc_node_with(const struct slx_type *ty,
                                      struct slr_inode *P, unsigned n,
                                      unsigned minlevel, int inner,
                                      int leftmost)
{
    if (P->level < minlevel)
        return NULL;
    if (P->n >= n && !(inner && leftmost))
        return P;
    if (P->level == minlevel)
        return NULL;
    for (unsigned j = 0; j < P->n; j++) {
        struct slr_inode *C = xc_node_with(ty, xc_child(ty, P, j), n, minlevel,
                                           inner, leftmost && j == 0);
        if (C)
            return C;
    }
    return NULL;
}

/* --------------------------------------------------------- map cases */

SKIPLIST_RCU_DEFINE(xm, struct map_item, uint64_t, MAP_ITEM_KEY,
                    SKIPLIST_CMP_NUM, 4, 6, 1)
#define XM_TY SLX_TY(xm)

enum { XC_N = 600 };

static void m_top(struct xm *m, struct xc_break *b)
{
    XC_SET(b, m->sl.top->n, 2u);
}
static void m_root_level(struct xm *m, struct xc_break *b)
{
    XC_SET(b, slr_root(XM_TY, &m->sl)->level, 9u);
}
static void m_dead(struct xm *m, struct xc_break *b)
{
    XC_SET(b, slr_root(XM_TY, &m->sl)->dead, 1u);
}
static void m_root_empty(struct xm *m, struct xc_break *b)
{
    XC_SET(b, slr_root(XM_TY, &m->sl)->n, 0u);
}
/* The last entry of a root's child (not the last child, so it has an
 * upper fence: the root's next key) raised to that fence. */
static void m_node_fence(struct xm *m, struct xc_break *b)
{
    struct slr_inode *R = slr_root(XM_TY, &m->sl);
    for (unsigned j = 0; j + 1 < R->n; j++) {
        struct slr_inode *P = xc_child(XM_TY, R, j);
        if (P->n >= 2) {
            XC_SET(b, *xc_ikey(XM_TY, P, P->n - 1), *xc_ikey(XM_TY, R, j + 1));
            return;
        }
    }
    cr_assert_fail("no child of the root has two entries and a fence");
}
/* Entry 1 equal to entry 2: within the fences, out of order. */
static void m_node_order(struct xm *m, struct xc_break *b)
{
    struct slr_inode *P =
        xc_node_with(XM_TY, slr_root(XM_TY, &m->sl), 3, 1, 0, 1);
    cr_assert_not_null(P);
    XC_SET(b, *xc_ikey(XM_TY, P, 1), *xc_ikey(XM_TY, P, 2));
}
static void m_child_level(struct xm *m, struct xc_break *b)
{
    struct slr_inode *C = xc_child(XM_TY, slr_root(XM_TY, &m->sl), 0);
    XC_SET(b, C->level, C->level + 1u);
}
static void m_leaf_parent(struct xm *m, struct xc_break *b)
{
    struct slr_leaf *x =
        (struct slr_leaf *)slr_ichild(XM_TY, xc_level1(XM_TY, &m->sl), 0);
    XC_SET(b, x->parent, NULL);
}
static void m_leaf_full(struct xm *m, struct xc_break *b)
{
    struct slr_leaf *x =
        (struct slr_leaf *)slr_ichild(XM_TY, xc_level1(XM_TY, &m->sl), 0);
    uint64_t w = slr_lword(x);
    XC_SET(b, x->order,
           slr_wmake(slr_wmask(w) | (uint64_t)1 << 4, slr_wrun(w), 5u));
}
/* A word that lists a slot never written (slot 5 of 4). */
static void m_leaf_unwritten(struct xm *m, struct xc_break *b)
{
    struct slr_leaf *x =
        (struct slr_leaf *)slr_ichild(XM_TY, xc_level1(XM_TY, &m->sl), 0);
    XC_SET(b, x->order, slr_lword(x) | (uint64_t)1 << 5);
}
static void m_leaf_order(struct xm *m, struct xc_break *b)
{
    struct slr_leaf *x =
        (struct slr_leaf *)slr_ichild(XM_TY, xc_level1(XM_TY, &m->sl), 0);
    cr_assert_geq(xc_count(XM_TY, x), 2u);
    XC_SET(b, *xc_lkey(XM_TY, x, 1), *xc_lkey(XM_TY, x, 0));
}
/* Leaf 2's first key between leaf 1's last and leaf 2's fence. */
static void m_leaf_fence(struct xm *m, struct xc_break *b)
{
    struct slr_inode *P = xc_wide_below(XM_TY, slr_root(XM_TY, &m->sl));
    cr_assert_not_null(P);
    struct slr_leaf *x = (struct slr_leaf *)slr_ichild(XM_TY, P, 1);
    XC_SET(b, *xc_lkey(XM_TY, x, 0), *xc_ikey(XM_TY, P, 1) - 1);
}
static void m_leaf_empty(struct xm *m, struct xc_break *b)
{
    struct slr_leaf *x =
        (struct slr_leaf *)slr_ichild(XM_TY, xc_level1(XM_TY, &m->sl), 0);
    XC_SET(b, x->order, slr_lword(x) & ~SLR_W_MASK);
}

static const struct {
    const char *name;
    const char *want;
    void (*brk)(struct xm *m, struct xc_break *b);
} xc_map_cases[] = {
    {"top", "top: 2 entries, or the root's parent wrong", m_top},
    {"root level", "root at level 9, above MAXLVL - 1", m_root_level},
    {"dead", "a dead node is reachable", m_dead},
    {"root empty", "node with 0 entries", m_root_empty},
    {"node fence", ": key outside the fences", m_node_fence},
    {"node order", "entry 1: keys out of order", m_node_order},
    {"child level", "entry 0: child's parent or level wrong", m_child_level},
    {"leaf parent", "leaf 1: parent pointer is not its parent", m_leaf_parent},
    {"leaf full", "5 slots written (KPN 4", m_leaf_full},
    {"leaf slot unwritten", "leaf 1: a slot never written is live",
     m_leaf_unwritten},
    /* a run's slots, or a tail's ranks, by where the two keys are */
    {"leaf order", "out of order", m_leaf_order},
    {"leaf fence", "slot 0: key outside the fences", m_leaf_fence},
    {"leaf empty", "an empty leaf among", m_leaf_empty},
};

static void xc_setup(void)
{
    rcu_register_thread();
}

static void xc_teardown(void)
{
    rcu_unregister_thread();
}

TestSuite(rcu_x_cov_check, .init = xc_setup, .fini = xc_teardown);

Test(rcu_x_cov_check, map_every_diagnosis)
{
    static struct map_item v[XC_N];
    for (size_t c = 0; c < sizeof xc_map_cases / sizeof xc_map_cases[0]; c++) {
        struct xm m;
        char why[256] = "";
        cr_assert_eq(xm_init(&m, NULL, 321), 0);
        for (unsigned i = 0; i < XC_N; i++) {
            v[i].key = 10u * ((i * 7919u) % XC_N); /* a fixed shuffle */
            cr_assert_eq(xm_insert(&m, &v[i], NULL), 0);
        }
        cr_assert_eq(xm_check(&m, why, sizeof why), 0, "%s", why);
        cr_assert_geq(slr_root(XM_TY, &m.sl)->level, 2u);
        struct xc_break b = {.n = 0};
        xc_map_cases[c].brk(&m, &b);
        xc_apply(&b);
        int rc = xm_check(&m, why, sizeof why);
        int quiet = xm_check(&m, NULL, 0);
        xc_undo(&b);
        cr_expect_eq(rc, -EINVAL, "%s: check returned %d", xc_map_cases[c].name,
                     rc);
        cr_expect_eq(quiet, -EINVAL, "%s: without a message",
                     xc_map_cases[c].name);
        cr_expect(strstr(why, xc_map_cases[c].want) != NULL,
                  "%s: \"%s\", want \"%s\"", xc_map_cases[c].name, why,
                  xc_map_cases[c].want);
        cr_assert_eq(xm_check(&m, why, sizeof why), 0, "%s undone: %s",
                     xc_map_cases[c].name, why);
        xm_destroy(&m, NULL, NULL);
    }
}

/* ------------------------------------------------------ extent cases */

SKIPLIST_RCU_EXTENT_DEFINE(xe, struct rext, uint64_t, start, size, 4, 6, 1)
#define XE_TY SLX_TY(xe)

static struct slr_leaf *xe_leaf(struct xe *m, unsigned j)
{
    return xc_leaf(XE_TY, &m->sl, j);
}

/* The end of rank i in leaf x's published order. */
static uint64_t *xe_last(struct slr_leaf *x, unsigned i)
{
    struct slr_snap w[1];
    slr_snap_read(XE_TY, x, w);
    unsigned s = slr_wslot(XE_TY, w, i);
    return (uint64_t *)(void *)(slr_llasts(XE_TY, x) + s * sizeof(uint64_t));
}

static void e_end(struct xe *m, struct xc_break *b)
{
    struct slr_leaf *x = xe_leaf(m, 1);
    XC_SET(b, *xe_last(x, 0), *xc_lkey(XE_TY, x, 0) - 1);
}
static void e_overlap(struct xe *m, struct xc_break *b)
{
    struct slr_leaf *x = xe_leaf(m, 0);
    cr_assert_geq(xc_count(XE_TY, x), 2u);
    XC_SET(b, *xe_last(x, 0), *xc_lkey(XE_TY, x, 1));
}
/* A level-1 entry's bound below what its leaf offers, its node's maximum
 * unchanged (an entry below the maximum, or one of two at it), so that
 * only the leaf's own check can see it. Depth first from P. */
static int e_lower_bound(struct slr_inode *P, struct xc_break *b)
{
    if (P->level > 1) {
        for (unsigned j = 0; j < P->n; j++)
            if (e_lower_bound(xc_child(XE_TY, P, j), b))
                return 1;
        return 0;
    }
    uint64_t *g = slr_igaps(XE_TY, P);
    uint64_t max = 0;
    unsigned at_max = 0;
    for (unsigned j = 0; j < P->n; j++)
        max = g[j] > max ? g[j] : max;
    for (unsigned j = 0; j < P->n; j++)
        at_max += g[j] == max;
    for (unsigned j = 0; j < P->n; j++)
        if (g[j] > 0 && (g[j] < max || at_max > 1)) {
            XC_SET(b, g[j], (uint64_t)0);
            return 1;
        }
    return 0;
}

static void e_leaf_bound(struct xe *m, struct xc_break *b)
{
    cr_assert(e_lower_bound(slr_root(XE_TY, &m->sl), b),
              "no level-1 entry can be lowered alone");
}

static void e_node_gap(struct xe *m, struct xc_break *b)
{
    uint64_t *g = slr_igaps(XE_TY, slr_root(XE_TY, &m->sl));
    XC_SET(b, g[0], g[0] + 1);
}

static const struct {
    const char *name;
    const char *want;
    void (*brk)(struct xe *m, struct xc_break *b);
} xc_ext_cases[] = {
    {"end", "slot 0: end before start", e_end},
    {"overlap", "slot 1: extents overlap", e_overlap},
    {"leaf bound", "free run", e_leaf_bound},
    {"node gap", "entry 0: gap", e_node_gap},
};

Test(rcu_x_cov_check, extent_every_diagnosis)
{
    static struct rext v[XC_N];
    for (size_t c = 0; c < sizeof xc_ext_cases / sizeof xc_ext_cases[0]; c++) {
        struct xe m;
        char why[256] = "";
        cr_assert_eq(xe_init(&m, NULL, 77), 0);
        for (unsigned i = 0; i < XC_N; i++) {
            /* [100 k, 100 k + 10 + k % 7): free runs of several lengths */
            uint64_t k = (i * 7919u) % XC_N;
            v[i].start = 100u * k;
            v[i].size = 10u + k % 7u;
            cr_assert_eq(xe_insert(&m, &v[i], NULL), 0);
        }
        cr_assert_eq(xe_check(&m, why, sizeof why), 0, "%s", why);
        cr_assert_geq(slr_root(XE_TY, &m.sl)->level, 2u);
        struct xc_break b = {.n = 0};
        xc_ext_cases[c].brk(&m, &b);
        xc_apply(&b);
        int rc = xe_check(&m, why, sizeof why);
        xc_undo(&b);
        cr_expect_eq(rc, -EINVAL, "%s: check returned %d", xc_ext_cases[c].name,
                     rc);
        cr_expect(strstr(why, xc_ext_cases[c].want) != NULL,
                  "%s: \"%s\", want \"%s\"", xc_ext_cases[c].name, why,
                  xc_ext_cases[c].want);
        cr_assert_eq(xe_check(&m, why, sizeof why), 0, "%s undone: %s",
                     xc_ext_cases[c].name, why);
        xe_destroy(&m, NULL, NULL);
    }
}
