/*
 * iova_rb: a replica of the Linux kernel's IOVA allocator (the rbtree path
 * of drivers/iommu/iova.c: alloc_iova() / __free_iova() / find_iova(),
 * without the per-CPU range caches that sit in front of it), written here
 * from the published algorithm on the BSD red-black tree of libbsd.
 *
 * The algorithm, as the kernel documents and implements it:
 * - A domain keeps every allocated range [pfn_lo, pfn_hi] in a tree ordered
 *   by pfn_lo, plus an "anchor" range at the very top of the pfn space so
 *   the tree is never empty and every range has a successor.
 * - Allocation is top-down below a limit. It starts from a cached node
 *   (cached32_node for limits within the 32-bit boundary, cached_node
 *   otherwise), which normally is the most recent allocation, and walks
 *   towards lower addresses one predecessor at a time: the candidate is
 *   (min(high, node.pfn_lo) - size) rounded down to the alignment, and the
 *   walk stops at the first predecessor that ends below the candidate. A
 *   size-aligned request is aligned to size rounded up to a power of two.
 * - If the walk runs out of room below the cached node, it retries once
 *   from the limit down to just above where the first attempt started.
 *   A failure records the size in max32_alloc_size so that later requests
 *   of at least that size fail at once, until something is freed.
 * - After an allocation the new node becomes the cached node. Freeing a
 *   node at or above the cached one moves the cache to the freed node's
 *   successor, so the next search starts above the new hole.
 * - Lookup of the range containing a pfn is a plain binary tree descent.
 * - reserve_iova() puts a given range into the tree (here only a range
 *   that overlaps none: the bench puts back ranges it freed) and leaves
 *   the cached nodes alone.
 * The linear walk over predecessors is the cost the skiplist's gap
 * summaries are meant to remove; it is kept exactly as is.
 */
#define __unused __attribute__((unused))
#include <bsd/sys/tree.h>

#include <stdint.h>
#include <stdlib.h>

#include "bench/extent_iova_rb.h"

struct iova {
    RB_ENTRY(iova) node;
    unsigned long pfn_lo, pfn_hi; /* inclusive */
};

RB_HEAD(iova_tree, iova);

static int iova_cmp(struct iova *a, struct iova *b)
{
    return (a->pfn_lo > b->pfn_lo) - (a->pfn_lo < b->pfn_lo);
}

RB_GENERATE_STATIC(iova_tree, iova, node, iova_cmp)

#define IOVA_ANCHOR (~0UL)

struct iova_domain {
    struct iova_tree root;
    struct iova *cached_node;   /* search start for limits above 32 bits */
    struct iova *cached32_node; /* search start for 32-bit limits */
    unsigned long start_pfn;    /* lowest allocatable pfn */
    unsigned long dma_32bit_pfn;
    unsigned long max32_alloc_size; /* fail fast for sizes >= this */
    struct iova anchor;
    struct iova *spare; /* free list of nodes: the kernel's kmem_cache */
};

static struct iova *node_get(struct iova_domain *d)
{
    struct iova *n = d->spare;
    if (n) {
        d->spare = RB_LEFT(n, node);
        return n;
    }
    return (struct iova *)malloc(sizeof(*n));
}

static void node_put(struct iova_domain *d, struct iova *n)
{
    RB_LEFT(n, node) = d->spare;
    d->spare = n;
}

struct iova_domain *iova_rb_new(unsigned long start_pfn,
                                unsigned long dma_32bit_pfn)
{
    struct iova_domain *d = (struct iova_domain *)calloc(1, sizeof(*d));
    if (!d)
        return NULL;
    RB_INIT(&d->root);
    d->start_pfn = start_pfn;
    d->dma_32bit_pfn = dma_32bit_pfn;
    d->max32_alloc_size = dma_32bit_pfn;
    d->anchor.pfn_lo = d->anchor.pfn_hi = IOVA_ANCHOR;
    RB_INSERT(iova_tree, &d->root, &d->anchor);
    d->cached_node = d->cached32_node = &d->anchor;
    return d;
}

void iova_rb_delete(struct iova_domain *d)
{
    struct iova *n, *t;
    RB_FOREACH_SAFE(n, iova_tree, &d->root, t)
    {
        RB_REMOVE(iova_tree, &d->root, n);
        if (n != &d->anchor)
            free(n);
    }
    while ((n = d->spare) != NULL) {
        d->spare = RB_LEFT(n, node);
        free(n);
    }
    free(d);
}

/* Where a search below limit_pfn (exclusive) starts: the cached node. */
static struct iova *cached_start(struct iova_domain *d, unsigned long limit_pfn)
{
    return limit_pfn <= d->dma_32bit_pfn ? d->cached32_node : d->cached_node;
}

static void cached_after_insert(struct iova_domain *d, struct iova *n)
{
    if (n->pfn_hi < d->dma_32bit_pfn)
        d->cached32_node = n;
    else
        d->cached_node = n;
}

static void cached_before_free(struct iova_domain *d, struct iova *f)
{
    struct iova *c = d->cached32_node;
    if (f == c || (f->pfn_hi < d->dma_32bit_pfn && f->pfn_lo >= c->pfn_lo))
        d->cached32_node = RB_NEXT(iova_tree, &d->root, f);
    if (f->pfn_lo < d->dma_32bit_pfn)
        d->max32_alloc_size = d->dma_32bit_pfn;
    c = d->cached_node;
    if (f->pfn_lo >= c->pfn_lo)
        d->cached_node = RB_NEXT(iova_tree, &d->root, f);
}

/* The lowest node starting at or above limit_pfn: where the retry walk
 * begins (the anchor guarantees there is one). */
static struct iova *first_at_or_above(struct iova_domain *d,
                                      unsigned long limit_pfn)
{
    if (limit_pfn > d->dma_32bit_pfn)
        return &d->anchor;
    struct iova key = {.pfn_lo = limit_pfn};
    return RB_NFIND(iova_tree, &d->root, &key);
}

/* Position of the highest set bit, 1-based; 0 for 0 (fls_long). */
static unsigned fls_ul(unsigned long x)
{
    return x ? (unsigned)(sizeof(x) * 8) - (unsigned)__builtin_clzl(x) : 0;
}

/* limit_pfn is inclusive, as alloc_iova() takes it. NULL when full. */
struct iova *iova_rb_alloc(struct iova_domain *d, unsigned long size,
                           unsigned long limit_pfn, int size_aligned)
{
    unsigned long limit = limit_pfn + 1; /* exclusive from here on */
    unsigned long align_mask = ~0UL;
    if (size_aligned)
        align_mask <<= fls_ul(size - 1);

    if (limit <= d->dma_32bit_pfn && size >= d->max32_alloc_size)
        return NULL;

    struct iova *curr = cached_start(d, limit), *prev;
    unsigned long retry_pfn = curr->pfn_hi;
    unsigned long high = limit, low = d->start_pfn, new_pfn;
retry:
    do {
        if (curr->pfn_lo < high)
            high = curr->pfn_lo;
        new_pfn = (high - size) & align_mask;
        prev = curr;
        curr = RB_PREV(iova_tree, &d->root, curr);
    } while (curr && new_pfn <= curr->pfn_hi && new_pfn >= low);

    if (high < size || new_pfn < low) {
        if (low == d->start_pfn && retry_pfn < limit) {
            /* Second pass: the space above where the first one began. */
            high = limit;
            low = retry_pfn + 1;
            curr = first_at_or_above(d, limit);
            goto retry;
        }
        d->max32_alloc_size = size;
        return NULL;
    }
    (void)prev; /* the kernel uses it as an insertion hint only */

    struct iova *n = node_get(d);
    if (!n)
        return NULL;
    n->pfn_lo = new_pfn;
    n->pfn_hi = new_pfn + size - 1;
    RB_INSERT(iova_tree, &d->root, n);
    cached_after_insert(d, n);
    return n;
}

void iova_rb_free(struct iova_domain *d, struct iova *iova)
{
    cached_before_free(d, iova);
    RB_REMOVE(iova_tree, &d->root, iova);
    node_put(d, iova);
}

struct iova *iova_rb_find(struct iova_domain *d, unsigned long pfn)
{
    struct iova *n = RB_ROOT(&d->root);
    while (n) {
        if (pfn < n->pfn_lo)
            n = RB_LEFT(n, node);
        else if (pfn > n->pfn_hi)
            n = RB_RIGHT(n, node);
        else
            return n;
    }
    return NULL;
}

/* reserve_iova() of [pfn_lo, pfn_hi] where nothing overlaps it: a node in
 * the tree, no cached node moved. NULL when out of memory or when a range
 * starting at pfn_lo is there already. */
struct iova *iova_rb_reserve(struct iova_domain *d, unsigned long pfn_lo,
                             unsigned long pfn_hi)
{
    struct iova *n = node_get(d);
    if (!n)
        return NULL;
    n->pfn_lo = pfn_lo;
    n->pfn_hi = pfn_hi;
    if (RB_INSERT(iova_tree, &d->root, n)) {
        node_put(d, n);
        return NULL;
    }
    return n;
}

unsigned long iova_rb_lo(const struct iova *iova)
{
    return iova->pfn_lo;
}

unsigned long iova_rb_hi(const struct iova *iova)
{
    return iova->pfn_hi;
}

/* What the structure holds per range beyond the range itself. */
size_t iova_rb_node_bytes(void)
{
    return sizeof(struct iova) - 2 * sizeof(unsigned long);
}

/* The domain: tree root, cached nodes, limits, the anchor range and the
 * free list head. */
size_t iova_rb_head_bytes(void)
{
    return sizeof(struct iova_domain);
}
