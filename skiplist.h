/* skiplist.h: a cache-friendly, type-generic skiplist for C (and C++).
 *
 * SPDX-License-Identifier: MIT
 *
 * One macro call instantiates a typed skiplist over your own element struct.
 * Leaves hold up to KPN keys in a keys[] array next to the element pointers
 * (as in Chris Mason's kernel range-index skiplist) and form one doubly
 * linked list; above them a B-skiplist index (random levels, each level
 * stored as nodes of many keys, expected fanout 2^PSHIFT) takes a search to
 * its leaf in one node per level. docs/design.md describes the engine.
 *
 *     #include "skiplist.h"
 *     struct item { uint64_t key; const char *name; };
 *     #define ITEM_KEY(e) ((e)->key)
 *     SKIPLIST_DEFINE(imap, struct item, uint64_t, ITEM_KEY, SKIPLIST_CMP_NUM,
 *                     SKIPLIST_DEFAULTS)
 *
 *     struct imap map;
 *     imap_init(&map, NULL, 42);             // NULL: default pooled allocator
 *     struct item a = {7, "seven"};
 *     imap_insert(&map, &a, NULL);           // 0, -EEXIST, -ENOMEM
 *     struct item *hit = imap_find(&map, 7); // &a
 *     struct imap_iter it;
 *     struct item *e;
 *     SKIPLIST_FOREACH(imap, &map, it, e) printf("%s\n", e->name);
 *     imap_destroy(&map, NULL, NULL);
 *
 * Three faces share one engine:
 *   SKIPLIST_DEFINE         ordered index (set, map, multimap)
 *   SKIPLIST_PQ_DEFINE      keyed priority queue: FIFO among equal keys,
 *                           O(1) peek/pop, erase through a handle with no
 *                           search (the element embeds struct skiplist_hook)
 *   SKIPLIST_EXTENT_DEFINE  extent index [start, start + size) with O(log n)
 *                           aligned hole allocation (free-run summaries in
 *                           the index prune the search exactly)
 * SKIPLIST_RANKED_DEFINE and SKIPLIST_EXTENT_RANKED_DEFINE add order
 * statistics to the ordered and extent indexes: rank, select (name_at),
 * range counts and iterators from a position, in O(log n), from a count
 * per index entry that the other instances do not keep.
 * The "Generated API" comment further down lists what the macros generate;
 * each function's contract is in docs/reference/, how to use them in
 * docs/api.md.
 *
 * Design: the algorithm lives in ordinary functions below (prefix slx_),
 * written once over type-erased leaves and described by a constant
 * struct slx_type. The macros only bind types: they generate a descriptor
 * and thin typed wrappers. Hot paths are force-inlined with the constant
 * descriptor so the compiler specialises them (key size, KPN and the
 * comparator all become constants); cold paths (splits, merges, checks) are
 * shared by every instance.
 *
 * Error model: errors are negative errno values; on any error the list is
 * exactly as before the call (allocation happens before any link changes).
 *
 * Map of this file, top to bottom: version and public types; engine
 * internals by layer (leaf layout and hooks, allocation, init / destroy,
 * search, link maintenance and the index, element counts, extent gap
 * summaries, slot
 * primitives, queue
 * windows and tombstones, insert, remove, queue fast paths and entry
 * points, iteration, extent face, order statistics, bulk operations,
 * invariant check); the
 * "Generated API"
 * reference; the instantiation macros. Each public operation and the
 * functions that do it (-> calls, | or):
 *   name_find            slx_find -> slx_bound -> slx_descend
 *                        (-> slx_inode_search per level), slx_leaf_search
 *   name_lower_bound     slx_bound_elem -> slx_bound   (upper_bound too)
 *   name_floor, _below   slx_floor
 *   name_insert          slx_insert_append_inline -> slx_append (past
 *                        the end, room) | name_slx_insert_descend (before
 *                        the last leaf) -> slx_insert_descend
 *                        | name_slx_insert_keyed -> slx_insert_unique_keyed
 *                        | name_slx_insert_slow -> slx_insert_unique (no e,
 *                        empty or singleton) -> slx_insert_slot -> slx_place
 *                        | slx_insert_at -> slx_shift_room | slx_split
 *                        -> slx_index_reserve, slx_link_leaf
 *                        -> slx_index_insert
 *   name_insert_multi    slx_insert_multi -> slx_insert_slot
 *   name_erase, _remove  slx_remove_small (queue, inline) | name_slx_erase_slow
 *                        -> slx_erase -> slx_find_elem, slx_remove_at
 *                        -> slx_take_at -> slx_rebalance -> slx_drop_leaf
 *                        -> slx_unlink -> slx_ientry_erase (-> slx_imerge)
 *   name_erase_key       slx_erase_key -> slx_bound, slx_remove_at
 *   name_pop_first/last  slx_pop_first / slx_pop_last -> slx_take_at
 *   name_build           slx_build -> slx_build_fill, slx_build_link
 *   name_erase_range     slx_erase_range -> slx_erase_leaf | slx_erase_slots,
 *                        slx_rebalance
 *   name_find_many       slx_find_many -> slx_descend_many, slx_bound_from
 *   name_push            slx_push_refused, slx_push_edge (inline)
 *                        | name_slx_push_slow -> slx_push_slow
 *                        -> slx_push_small | slx_insert_multi
 *   name_pop             slx_pop_edge (inline) | name_slx_pop_slow
 *                        -> slx_pop_first
 *   name_requeue         slx_requeue -> slx_find_elem, slx_remove_at,
 *                        slx_insert_multi
 *   extent name_insert   slx_ext_insert_elem -> slx_ext_insert -> slx_insert_at
 *   name_lookup          slx_ext_lookup_elem -> slx_ext_lookup
 *   name_first_overlap   slx_ext_overlap -> slx_ext_first_overlap
 *   name_insert_hole     slx_ext_insert_hole -> slx_hole_search
 *                        -> slx_hole_node -> slx_hole_in_leaf, slx_fit;
 *                        slx_ext_insert
 *   name_iter_*          slx_iter_* (overlap: slx_ext_iter_overlap, _next_)
 *   name_rank, _count_range  slx_rank_key (| slx_rank_walk: no index);
 *                        extent: slx_ext_count_range
 *   name_at, _iter_at    slx_at / slx_iter_at -> slx_at_pos
 *   name_rank_of         slx_rank_of -> slx_find_elem, slx_leaf_base
 *   count upkeep         insert / erase: slx_descend_path records the
 *                        counts and makes the change (path pre; taken
 *                        back: slx_path_undo), slx_count_step (the last
 *                        leaf: its waits flag, slx_count_flush); shifts and
 *                        merges -> slx_count_move; splits -> slx_count_linked
 *                        (an append's: slx_count_carry);
 *                        drops -> slx_count_up_full, slx_count_dirty
 *   name_check           slx_check -> slx_check_index -> slx_check_node
 *   name_init / _clear / _destroy   slx_init / slx_clear / slx_destroy
 */
#ifndef SKIPLIST_H
#define SKIPLIST_H

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef __cplusplus
#include <stdbool.h>
#else
#include <type_traits> /* the HOOK/START/SIZE member type checks */
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Public configuration and types                                      */
/* ------------------------------------------------------------------ */

/** Version of this header: MAJOR changes break the API, MINOR add to it,
 *  PATCH fix it. SKIPLIST_VERSION compares as one number (10203 = 1.2.3). */
#define SKIPLIST_VERSION_MAJOR 2
/** Minor version: additions to the API. */
#define SKIPLIST_VERSION_MINOR 3
/** Patch version: fixes only. */
#define SKIPLIST_VERSION_PATCH 0
/** The version as one number, 10000 * MAJOR + 100 * MINOR + PATCH, for
 *  `#if SKIPLIST_VERSION >= 20100`. */
#define SKIPLIST_VERSION                                             \
    (SKIPLIST_VERSION_MAJOR * 10000 + SKIPLIST_VERSION_MINOR * 100 + \
     SKIPLIST_VERSION_PATCH)
/** The version as a string, "MAJOR.MINOR.PATCH". */
#define SKIPLIST_VERSION_STRING "2.3.0"

/** Default keys per leaf, max level, promotion shift (index fanout 32).
 *  Chosen from bench/ (see docs/lab-notes.md). Each default may be
 *  overridden by defining it before the include. */
#ifndef SKIPLIST_DEFAULT_KPN
/** Default `KPN`, keys per leaf node (1..256). */
#define SKIPLIST_DEFAULT_KPN 64
#endif
#ifndef SKIPLIST_DEFAULT_MAXLVL
/** Default `MAXLVL`, levels counting the leaves (1..32). */
#define SKIPLIST_DEFAULT_MAXLVL 24
#endif
#ifndef SKIPLIST_DEFAULT_PSHIFT
/** Default `PSHIFT`: promotion probability 1/2^PSHIFT (1..8), so the
 *  index's expected fanout is 2^PSHIFT. */
#define SKIPLIST_DEFAULT_PSHIFT 5
#endif
/** The last three arguments of `SKIPLIST_DEFINE` and
 *  `SKIPLIST_EXTENT_DEFINE` at their defaults: `KPN, MAXLVL, PSHIFT` =
 *  64, 24, 5 (leaves of 64 keys, index nodes of up to 64 entries). */
#define SKIPLIST_DEFAULTS \
    SKIPLIST_DEFAULT_KPN, SKIPLIST_DEFAULT_MAXLVL, SKIPLIST_DEFAULT_PSHIFT
/** The priority-queue face's tuning: its own knob, the same values as the
 *  map's since the B-skiplist index (pq and sched suites: PSHIFT 5 within
 *  noise of 1.0.0 at every size, PSHIFT 2 slower at 64-1024;
 *  docs/lab-notes.md). Pops never descend; pushes descend the index. */
#ifndef SKIPLIST_PQ_DEFAULT_PSHIFT
#define SKIPLIST_PQ_DEFAULT_PSHIFT 5
#endif
/** The last three arguments of `SKIPLIST_PQ_DEFINE` at the queue's
 *  defaults: `KPN, MAXLVL, PSHIFT` = 64, 24, 5 (its own PSHIFT knob,
 *  `SKIPLIST_PQ_DEFAULT_PSHIFT`). */
#define SKIPLIST_PQ_DEFAULTS \
    SKIPLIST_DEFAULT_KPN, SKIPLIST_DEFAULT_MAXLVL, SKIPLIST_PQ_DEFAULT_PSHIFT

/** Three-way comparison usable for any arithmetic key type. Instances
 *  given this very name compare with a plain < in their searches (see
 *  SLX_LESS): compilers do not reduce the three-way form to one compare.
 *  With floating-point keys a NaN breaks the order (docs/api.md).
 *  \param a the first key
 *  \param b the second key
 *  \return -1, 0 or 1 as `a` is below, equal to or above `b` */
#define SKIPLIST_CMP_NUM(a, b) (((a) > (b)) - ((a) < (b)))

/** Hole search direction for name_insert_hole(): the lowest start that
 *  fits. */
#define SKIPLIST_HOLE_LOWEST 0
/** Hole search direction for name_insert_hole(): the highest start that
 *  fits. */
#define SKIPLIST_HOLE_HIGHEST 1

/** Node allocator, passed to name_init() (NULL there selects the default:
 *  nothing until the first insert, then malloc while the list has one
 *  small leaf, then a pool per list refilled from malloc in slabs).
 *  alloc returns NULL on failure; level says what the block is: 0 a
 *  full-size leaf, 1 an index node (one size each per instance, so an
 *  allocator can keep a pool for each), 2 anything else, whose sizes
 *  vary: the list's bookkeeping block, a small list's sole leaf while it
 *  grows, a root grown wider than a node, and for skiplist_rcu.h the top
 *  node and the writers' state block. */
struct skiplist_allocator {
    /** Returns a block of `size` bytes for a node of kind `level`, or
     *  NULL on failure (the call then fails with -ENOMEM). */
    void *(*alloc)(void *ctx, size_t size, unsigned level);
    /** Takes back a block, with the size and level it was allocated for. */
    void (*free)(void *ctx, void *ptr, size_t size, unsigned level);
    /** Passed as the first argument of both. */
    void *ctx;
};

/** Embedded in elements of a priority-queue face: the way back from an
 *  element to its leaf, and the queue it is in (so that removing it
 *  through another queue is refused, not obeyed). Zero it before first
 *  use. */
struct skiplist_hook {
    void *leaf; /**< the leaf holding the element (the queue's) */
    void *list; /**< the queue it is in, NULL when in none (the queue's) */
};

/** Zeroes a hook: the element is then in no queue (name_queued() false).
 *  A push needs no zeroed hook; name_queued() does.
 *  \param h the hook */
static inline void skiplist_hook_init(struct skiplist_hook *h)
{
    h->leaf = NULL;
    h->list = NULL;
}

/* ------------------------------------------------------------------ */
/* Engine internals (prefix slx_; not part of the API)                 */
/* ------------------------------------------------------------------ */

/* Compilers: GCC and Clang (and compilers that implement their extensions,
 * __GNUC__). The engine relies on their builtins (__builtin_ctz, clz,
 * expect, prefetch) and attributes; no other compiler is supported, and
 * rather than half-working it refuses to build. */
#if !defined(__GNUC__) && !defined(__clang__)
#error "skiplist.h needs GCC or Clang (or a compiler defining __GNUC__)"
#endif
/* The hot paths are forced inline into each instantiation, where the
 * descriptor's sizes and offsets are constants. SKIPLIST_NO_FORCE_INLINE
 * leaves that to the compiler instead: the same behaviour, slower code, and
 * about a third of the compile time, for debug and sanitizer builds (the
 * test suites' ASan+UBSan build uses it). */
#ifdef SKIPLIST_NO_FORCE_INLINE
#define SLX_HOT static inline __attribute__((unused))
#else
#define SLX_HOT static inline __attribute__((always_inline, unused))
#endif
#define SLX_COLD static __attribute__((noinline, unused))
#define SLX_UNUSED __attribute__((unused))
#define SLX_NOINLINE __attribute__((noinline))
#define SLX_LIKELY(x) __builtin_expect(!!(x), 1)
#define SLX_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define SLX_PREFETCH(p) __builtin_prefetch(p)
/* The default allocator's malloc (the huge-page chunks aside): a test
 * defines it before including the header to make it fail on demand
 * (tests/test_small_malloc.c); programs leave it alone. */
#ifndef SLX_MALLOC
#define SLX_MALLOC(size) malloc(size)
#endif
/* In the unlikely arm of a branch on a leaf's room: the compilers would
 * turn the branch into a select, which makes a full leaf's slot address
 * wait for the load of its room (a scan ran 1.5x slower so;
 * docs/lab-notes.md, "Small lists"). An empty volatile asm cannot be
 * executed on both paths, so the branch stays, predicted. */
#define SLX_KEEP_BRANCH(v) __asm__ volatile("" : "+r"(v))
#define SLX_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* Big lists take their slabs from 2 MiB chunks advised as transparent huge
 * pages: a random search then costs far fewer TLB misses (measured in
 * docs/lab-notes.md). Linux, C11 or C++17 (aligned_alloc); define
 * SKIPLIST_NO_HUGEPAGES to opt out. (madvise is declared here because strict
 * ISO C modes hide it in <sys/mman.h>; the declaration matches glibc's.) */
#if defined(__cplusplus)
#define SLX_HAVE_ALIGNED_ALLOC (__cplusplus >= 201703L)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define SLX_HAVE_ALIGNED_ALLOC 1
#else
#define SLX_HAVE_ALIGNED_ALLOC 0
#endif
#if defined(__linux__) && !defined(SKIPLIST_NO_HUGEPAGES) && \
    SLX_HAVE_ALIGNED_ALLOC
#define SLX_HUGEPAGES 1
#define SLX_CHUNK ((size_t)2 << 20)
#define SLX_MADV_HUGEPAGE 14
#ifdef __cplusplus
#include <sys/mman.h>
#else
extern int madvise(void *addr, size_t len, int advice);
#endif
#else
#define SLX_HUGEPAGES 0
#endif

/** Huge-page chunks (2 MiB each) the program keeps for reuse when the
 *  lists that held them are cleared or destroyed, so that the next big
 *  list (a rebuild, a reload) finds its memory already faulted in rather
 *  than zeroing fresh pages. Shared by every list of the program (and
 *  skiplist_rcu.h's pools); skiplist_release_cache() frees them. 0 turns
 *  the cache off: chunks go back to free() at once. Define it before the
 *  include, the same in every translation unit. */
#ifndef SKIPLIST_CHUNK_CACHE
#define SKIPLIST_CHUNK_CACHE 32
#endif

/* Vector compares for the pointer scan of a priority queue's remove (x86
 * with 64-bit pointers; SKIPLIST_NO_SIMD opts out, others scan plainly). */
#if defined(__x86_64__) && !defined(SKIPLIST_NO_SIMD)
#if defined(__AVX2__)
#define SLX_SIMD 2
#include <immintrin.h>
#else
#define SLX_SIMD 1
#include <emmintrin.h>
#endif
#else
#define SLX_SIMD 0
#endif

#define SLX_CAT_(a, b) a##b
#define SLX_CAT(a, b) SLX_CAT_(a, b)

/* SLX_LESS(CMP, x, y): x before y. When CMP is the token SKIPLIST_CMP_NUM
 * this is x < y, else CMP(x, y) < 0. The test pastes CMP onto a probe
 * name: only SLX_PROBE_SKIPLIST_CMP_NUM is a macro, and it shifts a 1 into
 * the second argument. (So CMP must be an identifier: a function or macro
 * name, as every comparator passed to SKIPLIST_DEFINE is.) */
#define SLX_PROBE_SKIPLIST_CMP_NUM ~, 1
#define SLX_SECOND(...) SLX_SECOND_(__VA_ARGS__, ~)
#define SLX_SECOND_(a, b, ...) b
#define SLX_IS_CMP_NUM(CMP) SLX_SECOND(SLX_CAT(SLX_PROBE_, CMP), 0)
#define SLX_IIF(c) SLX_CAT(SLX_IIF_, c)
#define SLX_IIF_0(t, f) f
#define SLX_IIF_1(t, f) t
#define SLX_LESS(CMP, x, y) \
    SLX_IIF(SLX_IS_CMP_NUM(CMP))(((x) < (y)), (CMP(x, y) < 0))

#if defined(__cplusplus)
#define SLX_STATIC_ASSERT(name, cond, msg) static_assert(cond, msg)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define SLX_STATIC_ASSERT(name, cond, msg) _Static_assert(cond, msg)
#else /* C99: the typedef's name carries the message */
#define SLX_STATIC_ASSERT(name, cond, msg) \
    typedef char SLX_CAT(name,             \
                         _bad_configuration_see_skiplist_h)[(cond) ? 1 : -1]
#endif

/* Leaf header. Its one link (next and prev leaf, see slx_linkhdr) sits
 * just before it, and keys[KPN], ptrs[KPN] and, for the extent face,
 * lasts[KPN] (inclusive ends) follow it, so the slot arrays are at a fixed
 * offset from the header: a removal through a hook loads the header and
 * the element pointers at once. The leaves form one doubly linked list,
 * circular through the head (a leaf with no slots); the index above them
 * (struct slx_inode) finds the leaf a key belongs in. */
struct slx_leaf {
    uint16_t n;     /* slots in use */
    uint8_t level;  /* number of links: 1 (0 never: see slx_check) */
    uint8_t waits;  /* a ranked instance's last leaf: 1 while its own
                     * changes wait outside the counts above it
                     * (slx_count_step, slx_rpend); 0 otherwise */
    uint16_t cap;   /* slots it has room for: ty->kpn (at most 256), or
                     * fewer for the sole leaf of a small list, which grows
                     * (slx_grow_leaf); the head has none. In the same
                     * 8-byte word as n, so on the same cache line whatever
                     * the leaf's alignment: a find reads both (slx_found),
                     * and at offset 20 cap missed L1 on 0.21 of finds at
                     * 10^6 (docs/lab-notes.md) */
    uint16_t off;   /* priority queue: first slot in use (see slx_off) */
    uint64_t tombs; /* queue, SLX_BITMAP_LEAF: bit s set for a tombstone at
                     * physical slot s (0 otherwise) */
    uint32_t pos;   /* a ranked instance's guess at this leaf's entry in
                     * its parent (slx_ipos_hint); 0 otherwise */
    uint16_t dead;  /* priority queue: tombstones in the window (slx_take) */
    uint16_t spare; /* 0 */
    struct slx_inode *parent; /* the index node holding this leaf's entry;
                               * NULL when the list has no index */
};

/* An index node: a run of consecutive entries of one index level, each
 * entry a key and a child, side by side in entries[cap] after the header,
 * then for the extent face the summaries (slx_igaps, slx_ifits). A level-1
 * node's children are leaves, a level-l node's are level-(l - 1) nodes.
 * An entry's key is the first key of its child's subtree, except on the
 * leftmost path, whose first keys are never read (the descent starts every
 * node at its entry 0 without a compare). Levels are random: a new leaf
 * drawn to height h starts a new node on each of the levels 1..h-1 (a
 * B-skiplist), and a node that fills splits in two. See docs/design.md. */
struct slx_inode {
    uint32_t pos;    /* as struct slx_leaf's */
    uint32_t n;      /* entries in use, >= 1 */
    uint32_t cap;    /* entries it has room for: ty->icap, or more for a
                      * root grown at the max level (see slx_root_grow) */
    uint8_t level;   /* 1 .. max_level - 1 */
    uint8_t big;     /* allocated apart from the pool (a grown root) */
    uint16_t unused; /* padding, zero */
    struct slx_inode *parent; /* NULL for the root (and in the stash: next) */
};

/* Extent face: what a span's free runs offer, kept per leaf (its link)
 * and per index entry. gap is the largest run (saturating at UINT64_MAX);
 * fit[k - 1] is the longest free stretch that starts at a multiple of
 * 2^k (saturating at UINT32_MAX), for k = 1..SLX_NFIT. A request of size s
 * aligned to 2^k fits in a run exactly when that run's stretch is >= s,
 * so the hole search prunes exactly, whatever the size, for alignments up
 * to 2^SLX_NFIT (above, fit[SLX_NFIT - 1] is a necessary condition). */
#define SLX_NFIT 12
struct slx_runs {
    uint64_t gap;
    uint32_t fit[SLX_NFIT];
};

/* A link: next and prev leaf (circular through the head), then the next
 * leaf's first key (cached), then for extents the largest free gap the
 * leaf owns (slx_leaf_runs). */
struct slx_linkhdr {
    struct slx_leaf *next;
    struct slx_leaf *prev;
};

struct slx_pool {
    void *free_list[2];   /* leaves and index nodes (SLX_ALLOC_LEAF, _INODE),
                           * threaded through the nodes */
    void *slabs;          /* slabs and chunks from malloc, threaded */
    unsigned char *chunk; /* huge-page chunk being carved into slabs */
    size_t chunk_left;
};

/* What a list holds that a search does not read: allocated with the list's
 * first insert (at init with a caller's allocator), in one block with the
 * head leaf, which follows it (slx_aux_size). Until then the list's head is
 * its instance's empty head (slx_type.empty, read-only), so a list that
 * was never written to owns no memory. */
struct slx_aux {
    size_t bytes;    /* bytes held: nodes (custom allocator) or slabs + aux */
    uint64_t rng;    /* the level generator's state (slx_rand): read by
                      * splits only; slx_list.stamp holds it while there
                      * is no aux block */
    size_t nleaves;  /* leaves linked */
    unsigned top;    /* index levels in use: the root's level (0: no root) */
    unsigned nstash; /* index nodes in the stash */
    struct slx_inode *stash; /* index nodes reserved so that linking a new
                              * leaf cannot fail (slx_index_reserve) */
    struct slx_leaf *spare;  /* reserved leaf: requeue cannot fail midway */
    size_t rknown; /* ranked: the waiting last leaf's slots as the counts
                    * above it hold them (slx_leaf.waits, slx_rpend) */
    struct skiplist_allocator alloc;
    int default_alloc;
    struct slx_pool pool;
};

/* A list's own struct: what every search reads, and no more (48 bytes).
 * A list with the default allocator that has held at most one element
 * since init has no aux block: its head is the instance's empty head and
 * its element, if any, is `one` (the singleton: no memory at all, see
 * slx_one_take). A search asks `one` first where L->root is NULL
 * (slx_is_singleton), on the branch a list without an index takes
 * anyway, so a list with an index pays nothing for it. */
struct slx_list {
    struct slx_leaf *head;  /* the head leaf: the instance's empty head
                             * until the aux block */
    struct slx_inode *root; /* the index; NULL with at most one leaf */
    struct slx_aux *aux;    /* NULL until the second element (default
                             * allocator) */
    size_t count;
    void *one;      /* the singleton's element; NULL otherwise */
    uint64_t stamp; /* bumped by every write that leaves the aux block in
                     * place (FOREACH_SAFE re-syncs when it moved). Here,
                     * not in the block, so that a write to one of many
                     * small lists touches no line of the block. Without a
                     * block it holds the level generator's seed instead,
                     * which moves into the block with it (slx_aux_alloc,
                     * slx_free_aux); the singleton's writes leave it. */
};

struct slx_iter {
    const struct slx_list *list;
    struct slx_leaf *leaf;
    void **ptrs; /* leaf's element pointers (slx_ptrs), read once per leaf
                  * rather than once per step (slx_iter_load) */
    unsigned idx;
    uint64_t stamp;
    uint64_t lim; /* overlap iteration: the range's last point; the _SAFE
                   * loop on the ordered index: the slot's rank among its
                   * equal keys (slx_iter_step) */
};

/* A ranked instance's writer descent (slx_descend_path): the change the
 * writer means to make (pre: +1 insert, -1 erase; the caller sets it) is
 * made to the count of every index entry the descent goes through, each
 * count's line read and written while the next level loads, and leaf is
 * where it ended. When the slot is then placed or taken in that leaf,
 * nothing is left to count (slx_count_step); where the change happens
 * elsewhere or not at all, slx_path_undo takes it back by climbing from
 * leaf, whose parents are the nodes the descent went through (rare: a
 * miss, a clash, a split, another leaf). erase_rand at 10^6 took 1.12x
 * the unranked time with the counts written after the leaf, 1.07x with
 * them written on the way down (docs/lab-notes.md, "Upkeep along the
 * descent"). Two words: the descent once recorded each count's address
 * here too, and the 280-byte record kept the writers from being inlined
 * into their callers (GCC's large-stack-frame limit). */
struct slx_path {
    const struct slx_leaf *leaf; /* NULL: no count changed */
    size_t pre; /* added to the counts above leaf already (0: none) */
};

/* What an instance is: sizes, configuration and key callbacks. One constant
 * object per instance; force-inlined code sees its fields as constants. */
struct slx_type {
    unsigned kpn;       /* keys per node */
    unsigned max_level; /* 1..32 */
    unsigned pshift;    /* promotion probability 1 / 2^pshift: the index's
                         * expected fanout is 2^pshift */
    unsigned icap;      /* entries per index node: 2 << pshift */
    size_t ks;          /* key size */
    size_t link_size;   /* bytes per link */
    size_t keys_bytes;  /* kpn * ks rounded up to pointer alignment */
    long hook_off; /* offset of struct skiplist_hook in the element, or -1 */
    int extent;    /* extent face: lasts[] and gap summaries kept */
    int (*cmp)(const void *a, const void *b);
    int (*less)(const void *a, const void *b); /* cmp(a, b) < 0 */
    int cheap_less; /* less is one machine compare (SKIPLIST_CMP_NUM) */
    void (*key_of)(const void *elem, void *key_out);
    uint64_t key_max; /* extent face: largest value of the key type */
    void (*set_start)(void *elem, uint64_t start); /* extent face */
    uint64_t (*size_of)(const void *elem);         /* extent face */
    /* The head of every list of this instance that was never written to:
     * an empty leaf list (its link points at itself), never written. */
    const struct slx_leaf *empty;
    /* Ranked instances (SKIPLIST_RANKED_DEFINE): every index entry also
     * counts the elements below it (slx_icount), for rank and select. */
    int ranked;
};

/* The face predicates. Both fold to constants in force-inlined code, so
 * what a face does not use costs nothing; a reader can skip the branches
 * of the faces they do not care about. */
SLX_HOT bool slx_is_queue(const struct slx_type *ty)
{
    return ty->hook_off >= 0; /* elements embed a struct skiplist_hook */
}

SLX_HOT bool slx_is_extent(const struct slx_type *ty)
{
    return ty->extent != 0; /* leaves keep lasts[] and gap summaries */
}

SLX_HOT bool slx_is_ranked(const struct slx_type *ty)
{
    return ty->ranked != 0; /* index entries keep element counts */
}

#define SLX_ROUND8(x) (((x) + 7u) & ~(size_t)7u)
/* Largest key type (a compile-time check per instance), so the engine can
 * copy a key into a stack buffer without a fallback. */
#define SLX_KEY_MAX 64

/* --- leaf layout and hooks ----------------------------------------- */

SLX_HOT unsigned char *slx_link(const struct slx_type *ty,
                                const struct slx_leaf *x, unsigned l)
{
    return (unsigned char *)(uintptr_t)x - (size_t)(l + 1u) * ty->link_size;
}

SLX_HOT struct slx_leaf *slx_next(const struct slx_type *ty,
                                  const struct slx_leaf *x, unsigned l)
{
    return ((struct slx_linkhdr *)(void *)slx_link(ty, x, l))->next;
}

SLX_HOT struct slx_leaf *slx_prev(const struct slx_type *ty,
                                  const struct slx_leaf *x, unsigned l)
{
    return ((struct slx_linkhdr *)(void *)slx_link(ty, x, l))->prev;
}

SLX_HOT void slx_set_next(const struct slx_type *ty, struct slx_leaf *x,
                          unsigned l, struct slx_leaf *v)
{
    ((struct slx_linkhdr *)(void *)slx_link(ty, x, l))->next = v;
}

SLX_HOT void slx_set_prev(const struct slx_type *ty, struct slx_leaf *x,
                          unsigned l, struct slx_leaf *v)
{
    ((struct slx_linkhdr *)(void *)slx_link(ty, x, l))->prev = v;
}

/* Cached first key of the next leaf at level l. */
SLX_HOT unsigned char *slx_nmin(const struct slx_type *ty,
                                const struct slx_leaf *x, unsigned l)
{
    return slx_link(ty, x, l) + sizeof(struct slx_linkhdr);
}

/* Extent face: the summary of the free runs leaf x owns (slx_runs). */
SLX_HOT struct slx_runs *slx_gap(const struct slx_type *ty,
                                 const struct slx_leaf *x, unsigned l)
{
    return (struct slx_runs *)(void *)(slx_link(ty, x, l) +
                                       sizeof(struct slx_linkhdr) +
                                       SLX_ROUND8(ty->ks));
}

/* Priority-queue leaves hold their slots in a window [off, off + n) of
 * the kpn physical slots, so that a pop (or any removal near the front)
 * moves nothing: it only advances off. The ordered index and extent faces
 * keep off at 0, a constant the compiler folds away. Every slot index in
 * the engine is logical, relative to off; only slx_keys/slx_ptrs and
 * slx_compact see physical slots. */
SLX_HOT unsigned slx_off(const struct slx_type *ty, const struct slx_leaf *x)
{
    return slx_is_queue(ty) ? x->off : 0u;
}

/* Physical slot arrays: keys[kpn], ptrs[kpn] (and lasts[kpn] for extents)
 * right after the header. */
SLX_HOT unsigned char *slx_keys0(const struct slx_type *ty,
                                 const struct slx_leaf *x)
{
    (void)ty;
    return (unsigned char *)(uintptr_t)x + sizeof(struct slx_leaf);
}

/* Bytes of a leaf's key array: cap keys, rounded up to pointers. */
SLX_HOT size_t slx_keys_bytes(const struct slx_type *ty, unsigned cap)
{
    return SLX_ROUND8((size_t)cap * ty->ks);
}

/* Bytes from a leaf's keys to its pointers: cap keys. Branched on, not
 * computed: every leaf of a list past one leaf is full-size, so the
 * branch predicts, and the address then does not wait for the load of
 * cap (a dependent load per element would slow a scan by a third). */
SLX_HOT size_t slx_ptrs_off(const struct slx_type *ty, const struct slx_leaf *x)
{
    if (SLX_LIKELY(x->cap == ty->kpn))
        return ty->keys_bytes;
    size_t off = slx_keys_bytes(ty, x->cap);
    SLX_KEEP_BRANCH(off);
    return off;
}

SLX_HOT void **slx_ptrs0(const struct slx_type *ty, const struct slx_leaf *x)
{
    return (void **)(void *)(slx_keys0(ty, x) + slx_ptrs_off(ty, x));
}

/* slx_ptrs0 computed from cap, with no branch, where the leaf's header is
 * read anyway: a queue's fast paths, which only touch a sole leaf (a small
 * queue's is a small leaf, cap < kpn, on which slx_ptrs_off's branch jumps
 * out of line and back on every access), a removal (slx_take_at),
 * which reads n on cap's line first, and a search's found slot
 * (slx_found). */
SLX_HOT void **slx_ptrs0_by_cap(const struct slx_type *ty,
                                const struct slx_leaf *x)
{
    return (void **)(void *)(slx_keys0(ty, x) + slx_keys_bytes(ty, x->cap));
}

/* slx_ptrs0 of a leaf the caller knows is full-size (cap == kpn). */
SLX_HOT void **slx_ptrs0_full(const struct slx_type *ty,
                              const struct slx_leaf *x)
{
    return (void **)(void *)(slx_keys0(ty, x) + ty->keys_bytes);
}

/* Logical slot 0 onwards. */
SLX_HOT unsigned char *slx_keys(const struct slx_type *ty,
                                const struct slx_leaf *x)
{
    return slx_keys0(ty, x) + (size_t)slx_off(ty, x) * ty->ks;
}

SLX_HOT unsigned char *slx_key(const struct slx_type *ty,
                               const struct slx_leaf *x, unsigned i)
{
    return slx_keys(ty, x) + (size_t)i * ty->ks;
}

SLX_HOT void **slx_ptrs(const struct slx_type *ty, const struct slx_leaf *x)
{
    return slx_ptrs0(ty, x) + slx_off(ty, x);
}

/* Extent face: inclusive last key of each slot. */
SLX_HOT unsigned char *slx_lasts(const struct slx_type *ty,
                                 const struct slx_leaf *x)
{
    if (SLX_LIKELY(x->cap == ty->kpn))
        return slx_keys0(ty, x) + ty->keys_bytes +
               (size_t)ty->kpn * sizeof(void *);
    unsigned char *small = (unsigned char *)(slx_ptrs0(ty, x) + x->cap);
    SLX_KEEP_BRANCH(small);
    return small;
}

/* Bytes of a leaf block with `level` links and room for cap slots. */
SLX_HOT size_t slx_leaf_size(const struct slx_type *ty, unsigned level,
                             unsigned cap)
{
    size_t sz = sizeof(struct slx_leaf) + (size_t)level * ty->link_size +
                slx_keys_bytes(ty, cap) + (size_t)cap * sizeof(void *);
    if (slx_is_extent(ty))
        sz += slx_keys_bytes(ty, cap);
    return sz;
}

/* A leaf's memory block starts at its highest link; the header sits
 * level links in. */
SLX_HOT void *slx_block(const struct slx_type *ty, const struct slx_leaf *x)
{
    return (unsigned char *)(uintptr_t)x - (size_t)x->level * ty->link_size;
}

SLX_HOT struct slx_leaf *slx_leaf_in(const struct slx_type *ty, void *block,
                                     unsigned level)
{
    return (struct slx_leaf *)(void *)((unsigned char *)block +
                                       (size_t)level * ty->link_size);
}

/* The head: one link and a header, no slots. */
SLX_HOT size_t slx_head_size(const struct slx_type *ty)
{
    return sizeof(struct slx_leaf) + ty->link_size;
}

/* Index levels an instance may use: max_level counts the leaves' too. */
SLX_HOT unsigned slx_max_index(const struct slx_type *ty)
{
    return ty->max_level - 1u;
}

/* Index node layout: a ranked instance's counts[cap], downwards from the
 * header (slx_icount), the header, entries[cap] of (key, child), then the
 * extent face's summaries. */
SLX_HOT unsigned char *slx_ikeys(const struct slx_type *ty,
                                 const struct slx_inode *P)
{
    (void)ty;
    return (unsigned char *)(uintptr_t)P + sizeof(struct slx_inode);
}

/* Bytes per entry: the key, then the child pointer beside it, so the line
 * a search's last probe loaded usually holds the child it goes to. A
 * ranked instance's counts live in an array of their own (slx_icount), so
 * its searches read the same lines as an unranked one's. */
SLX_HOT size_t slx_istride(const struct slx_type *ty)
{
    return SLX_ROUND8(ty->ks) + sizeof(void *);
}

/* Entry j's key and child pointer, and the array after cap entries, given
 * where a node's entries start: one layout for this header's index nodes
 * and skiplist_rcu.h's, whose node headers differ. */
SLX_HOT unsigned char *slx_entry_key(const struct slx_type *ty,
                                     const void *entries, unsigned j)
{
    return (unsigned char *)(uintptr_t)entries + (size_t)j * slx_istride(ty);
}

SLX_HOT void **slx_entry_childp(const struct slx_type *ty, const void *entries,
                                unsigned j)
{
    return (void **)(void *)(slx_entry_key(ty, entries, j) +
                             SLX_ROUND8(ty->ks));
}

SLX_HOT unsigned char *slx_ikey(const struct slx_type *ty,
                                const struct slx_inode *P, unsigned j)
{
    return slx_entry_key(ty, slx_ikeys(ty, P), j);
}

SLX_HOT void **slx_ichildp(const struct slx_type *ty, const struct slx_inode *P,
                           unsigned j)
{
    return slx_entry_childp(ty, slx_ikeys(ty, P), j);
}

SLX_HOT void *slx_ichild(const struct slx_type *ty, const struct slx_inode *P,
                         unsigned j)
{
    return *slx_ichildp(ty, P, j);
}

/* Ranked instances: entry j's count, the number of elements in its
 * subtree (a leaf's n for a level-1 node), so a node's counts add up to
 * its own entry's count one level up (the list's count at the root). The
 * counts are an array of their own, not a field of each entry: kept in
 * the entries they made every node half as big again, and a find on a
 * ranked list paid 15-21% for lines it never read (docs/lab-notes.md,
 * "Order statistics"). The array lies before the node's header, entry j
 * at the j-th word down from it: its address needs no load of `cap` (a
 * writer's descent takes one per level), and the first counts share the
 * line of the header the descent reads anyway. The block a node is
 * allocated as starts at its last count (slx_inode_block). */
SLX_HOT size_t *slx_icount(const struct slx_type *ty, const struct slx_inode *P,
                           unsigned j)
{
    (void)ty;
    return (size_t *)(uintptr_t)P - 1 - j;
}

/* Bytes before a node's header: its counts (ranked instances). */
SLX_HOT size_t slx_inode_front(const struct slx_type *ty, unsigned cap)
{
    return slx_is_ranked(ty) ? (size_t)cap * sizeof(size_t) : 0;
}

/* The start of the block node P was allocated as. */
SLX_HOT void *slx_inode_block(const struct slx_type *ty,
                              const struct slx_inode *P)
{
    return (unsigned char *)(uintptr_t)P - slx_inode_front(ty, P->cap);
}

SLX_HOT uint64_t *slx_igaps(const struct slx_type *ty,
                            const struct slx_inode *P)
{
    return (uint64_t *)(void *)slx_entry_key(ty, slx_ikeys(ty, P), P->cap);
}

/* fit[k - 1] of every entry, one array per k: a hole search for one
 * alignment reads 4 bytes an entry, contiguous. */
SLX_HOT uint32_t *slx_ifits(const struct slx_type *ty,
                            const struct slx_inode *P, unsigned k)
{
    return (uint32_t *)(void *)(slx_igaps(ty, P) + P->cap) +
           (size_t)(k - 1u) * P->cap;
}

SLX_HOT void slx_iget(const struct slx_type *ty, const struct slx_inode *P,
                      unsigned j, struct slx_runs *out)
{
    out->gap = slx_igaps(ty, P)[j];
    const uint32_t *f = slx_ifits(ty, P, 1) + j;
#pragma GCC unroll 12
    for (unsigned k = 0; k < SLX_NFIT; k++, f += P->cap)
        out->fit[k] = *f;
}

SLX_HOT void slx_iset(const struct slx_type *ty, const struct slx_inode *P,
                      unsigned j, const struct slx_runs *v)
{
    slx_igaps(ty, P)[j] = v->gap;
    uint32_t *f = slx_ifits(ty, P, 1) + j;
#pragma GCC unroll 12
    for (unsigned k = 0; k < SLX_NFIT; k++, f += P->cap)
        *f = v->fit[k];
}

SLX_HOT size_t slx_inode_size(const struct slx_type *ty, unsigned cap)
{
    size_t sz = sizeof(struct slx_inode) + (size_t)cap * slx_istride(ty);
    if (slx_is_ranked(ty))
        sz += (size_t)cap * sizeof(size_t);
    if (slx_is_extent(ty))
        sz += (size_t)cap * sizeof(struct slx_runs);
    return sz;
}

/* The index node holding child's entry; child is a leaf when the node is
 * of level 1 (clevel 0), an index node otherwise. */
SLX_HOT struct slx_inode *slx_parent_of(void *child, unsigned clevel)
{
    return clevel == 0 ? ((struct slx_leaf *)child)->parent
                       : ((struct slx_inode *)child)->parent;
}

SLX_HOT void slx_set_parent(void *child, unsigned clevel, struct slx_inode *P)
{
    if (clevel == 0)
        ((struct slx_leaf *)child)->parent = P;
    else
        ((struct slx_inode *)child)->parent = P;
}

/* Unsigned integer keys of the extent face, widened to 64 bits. */
SLX_HOT uint64_t slx_load_u(const struct slx_type *ty, const void *p)
{
    switch (ty->ks) {
    case 1:
        return *(const uint8_t *)p;
    case 2: {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    }
}

SLX_HOT void slx_store_u(const struct slx_type *ty, void *p, uint64_t v)
{
    switch (ty->ks) {
    case 1: {
        uint8_t w = (uint8_t)v;
        memcpy(p, &w, 1);
        break;
    }
    case 2: {
        uint16_t w = (uint16_t)v;
        memcpy(p, &w, 2);
        break;
    }
    case 4: {
        uint32_t w = (uint32_t)v;
        memcpy(p, &w, 4);
        break;
    }
    default:
        memcpy(p, &v, 8);
        break;
    }
}

/* The element's hook. (Elements are the caller's and writable; the const
 * only lets read-only paths such as check() ask too.) */
SLX_HOT struct skiplist_hook *slx_hook(const struct slx_type *ty,
                                       const void *elem)
{
    return (struct skiplist_hook *)(uintptr_t)((const unsigned char *)elem +
                                               ty->hook_off);
}

/* The element now sits in leaf (it was placed or moved there). */
SLX_HOT void slx_set_hook(const struct slx_type *ty, void *elem,
                          struct slx_leaf *leaf)
{
    if (slx_is_queue(ty))
        slx_hook(ty, elem)->leaf = leaf;
}

/* The element left its list. Only the leaf is cleared: every reader of
 * the list field asks for a leaf first. (Clearing both let the compiler
 * merge them into one 16-byte vector store, which the next push's 8-byte
 * load of the leaf could not always take from the store buffer.) */
SLX_HOT void slx_unhook(const struct slx_type *ty, void *elem)
{
    if (slx_is_queue(ty))
        slx_hook(ty, elem)->leaf = NULL;
}

/* Bookkeeping of an element just placed in L: the count, the stamp and,
 * with a hook, the owning list. */
SLX_HOT void slx_added(const struct slx_type *ty, struct slx_list *L,
                       void *elem)
{
    if (slx_is_queue(ty))
        slx_hook(ty, elem)->list = L;
    L->count++;
    L->stamp++;
}

SLX_HOT struct slx_leaf *slx_get_hook(const struct slx_type *ty,
                                      const void *elem)
{
    return (struct slx_leaf *)slx_hook(ty, elem)->leaf;
}

/* --- allocation ---------------------------------------------------- */

/* A spinlock for short critical sections: the chunk cache's here,
 * skiplist_rcu.h's writers' (index nodes, pool shards, retire batches).
 * Writers hold one for a few hundred nanoseconds (a write in place) to a
 * few microseconds (a split that allocates); an uncontended pthread mutex
 * lock and unlock cost several times this one's (docs/lab-notes.md). A
 * test-and-test-and-set byte; after a short spin a waiter yields, so
 * threads outnumbering cores still progress. Acquire and release are C11
 * atomics, which ThreadSanitizer understands. (sched_yield is declared
 * here as madvise is above: strict ISO C modes hide <sched.h>'s.) */
#ifdef __cplusplus
#include <sched.h>
#else
extern int sched_yield(void);
#endif

struct slx_spin {
    unsigned char held; /* atomic */
};

#define SLX_SPINS 64

static inline SLX_UNUSED void slx_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static inline SLX_UNUSED int slx_trylock(struct slx_spin *l)
{
    return !__atomic_load_n(&l->held, __ATOMIC_RELAXED) &&
           !__atomic_exchange_n(&l->held, 1, __ATOMIC_ACQUIRE);
}

static inline SLX_UNUSED void slx_lock(struct slx_spin *l)
{
    for (unsigned spins = 0; !slx_trylock(l); spins++) {
        if (spins < SLX_SPINS)
            slx_cpu_relax();
        else
            sched_yield();
    }
}

static inline SLX_UNUSED void slx_unlock(struct slx_spin *l)
{
    __atomic_store_n(&l->held, 0, __ATOMIC_RELEASE);
}

#if SLX_HUGEPAGES
/* Huge-page chunks that cleared or destroyed lists gave back, for the next
 * big list to carve. Freed to glibc, an aligned chunk is seldom handed out
 * again: each new list would fault in and zero fresh huge pages (a build
 * of 10^6 then spends most of its time in the kernel; docs/lab-notes.md).
 * One cache per program: a weak definition, so every translation unit
 * that includes this header shares it. A spinlock guards it; it is taken
 * once per 2 MiB. Chunks are threaded through their first word. */
struct slx_chunk_cache {
    void *top;
    size_t n;
    struct slx_spin lock;
};
extern struct slx_chunk_cache slx_chunk_cache_;
__attribute__((weak)) struct slx_chunk_cache slx_chunk_cache_;

/* The count changes under the lock but is read without it (a take skips
 * the lock when the cache is empty): its stores are atomic too. */
SLX_COLD void slx_chunk_cache_count(size_t n)
{
    __atomic_store_n(&slx_chunk_cache_.n, n, __ATOMIC_RELAXED);
}

/* A chunk for a pool: a cached one, or a new one advised as huge pages.
 * NULL when out of memory. */
SLX_COLD unsigned char *slx_chunk_take(void)
{
    void *c = NULL;
    if (SKIPLIST_CHUNK_CACHE > 0 &&
        __atomic_load_n(&slx_chunk_cache_.n, __ATOMIC_RELAXED) > 0) {
        slx_lock(&slx_chunk_cache_.lock);
        c = slx_chunk_cache_.top;
        if (c) {
            slx_chunk_cache_.top = *(void **)c;
            slx_chunk_cache_count(slx_chunk_cache_.n - 1u);
        }
        slx_unlock(&slx_chunk_cache_.lock);
    }
    if (!c) {
        c = aligned_alloc(SLX_CHUNK, SLX_CHUNK);
        if (c)
            (void)madvise(c, SLX_CHUNK, SLX_MADV_HUGEPAGE);
    }
    return (unsigned char *)c;
}

/* skiplist_release_cache: frees every cached chunk; returns the bytes. */
SLX_COLD size_t slx_chunk_cache_release(void)
{
    slx_lock(&slx_chunk_cache_.lock);
    void *c = slx_chunk_cache_.top;
    size_t n = slx_chunk_cache_.n;
    slx_chunk_cache_.top = NULL;
    slx_chunk_cache_count(0);
    slx_unlock(&slx_chunk_cache_.lock);
    while (c) {
        void *nx = *(void **)c;
        free(c);
        c = nx;
    }
    return n * SLX_CHUNK;
}

/* A pool lets chunk c go: into the cache while it has room, else free. */
SLX_COLD void slx_chunk_give(void *c)
{
    int kept = 0;
#if SKIPLIST_CHUNK_CACHE > 0 /* an `if`: n < 0 would warn (-Wtype-limits) */
    slx_lock(&slx_chunk_cache_.lock);
    if (slx_chunk_cache_.n < (size_t)SKIPLIST_CHUNK_CACHE) {
        *(void **)c = slx_chunk_cache_.top;
        slx_chunk_cache_.top = c;
        slx_chunk_cache_count(slx_chunk_cache_.n + 1u);
        kept = 1;
    }
    slx_unlock(&slx_chunk_cache_.lock);
#endif
    if (!kept)
        free(c);
}
#else
/* No huge pages: chunks are plain malloc blocks (skiplist_rcu.h's pools). */
SLX_COLD void slx_chunk_give(void *c)
{
    free(c);
}
#endif

/** Frees the 2 MiB chunks that cleared or destroyed lists left for reuse
 *  (SKIPLIST_CHUNK_CACHE); the next big list takes new ones.
 *  \return the bytes freed (0 without huge-page chunks) */
static inline SLX_UNUSED size_t skiplist_release_cache(void)
{
#if SLX_HUGEPAGES
    return slx_chunk_cache_release();
#else
    return 0;
#endif
}

/* A slab's 16-byte header: the next slab of its pool, then what it is. */
#define SLX_SLAB_MALLOC 0u
#define SLX_SLAB_CHUNK 1u
SLX_HOT void slx_slab_push(struct slx_pool *P, unsigned char *slab,
                           uintptr_t kind)
{
    ((void **)(void *)slab)[0] = P->slabs;
    ((uintptr_t *)(void *)slab)[1] = kind;
    P->slabs = slab;
}

/* Default allocator: one free list per kind of node, refilled in slabs,
 * so nodes of one size sit together and allocation is a pointer pop.
 * Memory goes back to the system at destroy. */
SLX_COLD void *slx_pool_alloc(struct slx_list *L, size_t size, unsigned level)
{
    struct slx_pool *P = &L->aux->pool;
    void *p = P->free_list[level];
    if (p) {
        P->free_list[level] = *(void **)p;
        return p;
    }
    /* Slab: a header word then `per` nodes; slabs grow with the list, from
     * one node (a small queue should not hold eight empty leaves). */
    size_t nl = L->aux->nleaves;
    size_t per = nl < 8 ? 1 : 8 + nl / 16;
    if (per > 256)
        per = 256;
    if (level > 4)
        per = 2;
    size_t bytes = 16 + per * size;
    unsigned char *slab = NULL;
#if SLX_HUGEPAGES
    /* Once the list holds a few MiB, carve slabs out of huge-page chunks
     * (sized to what the chunk has left, so little is stranded). */
    if (nl >= 2048) {
        if (P->chunk_left < 16 + 8 * size) {
            unsigned char *c = slx_chunk_take();
            if (c) {
                slx_slab_push(P, c, SLX_SLAB_CHUNK);
                L->aux->bytes += SLX_CHUNK;
                P->chunk = c + 16;
                P->chunk_left = SLX_CHUNK - 16;
            }
        }
        if (P->chunk_left >= 16 + 8 * size) {
            if (bytes > P->chunk_left)
                per = (P->chunk_left - 16) / size;
            bytes = 16 + per * size;
            slab = P->chunk;
            P->chunk += bytes;
            P->chunk_left -= bytes;
        }
    }
#endif
    if (!slab) {
        slab = (unsigned char *)SLX_MALLOC(bytes);
        if (!slab)
            return NULL;
        slx_slab_push(P, slab, SLX_SLAB_MALLOC);
        L->aux->bytes += bytes;
    }
    /* Hand out the first node, thread the rest onto the free list. */
    for (size_t i = per; i-- > 1;) {
        void *node = slab + 16 + i * size;
        *(void **)node = P->free_list[level];
        P->free_list[level] = node;
    }
    return slab + 16;
}

SLX_COLD void slx_pool_release(struct slx_list *L)
{
    void *s = L->aux->pool.slabs;
    while (s) {
        void *nx = ((void **)s)[0];
        if (((uintptr_t *)s)[1] == SLX_SLAB_CHUNK)
            slx_chunk_give(s);
        else
            free(s);
        s = nx;
    }
    memset(&L->aux->pool, 0, sizeof(L->aux->pool));
}

/* Allocator levels: 0 for leaves, 1 for index nodes, 2 for the head and
 * for a root grown past ty->icap (sizes of level 2 vary). */
#define SLX_ALLOC_LEAF 0u
#define SLX_ALLOC_INODE 1u
#define SLX_ALLOC_OTHER 2u

/* A leaf header, fresh: one link, no slots in use, room for cap. */
SLX_HOT struct slx_leaf *slx_leaf_fresh(const struct slx_type *ty, void *b,
                                        unsigned cap)
{
    struct slx_leaf *x = slx_leaf_in(ty, b, 1);
    x->n = 0;
    x->level = 1;
    x->waits = 0;
    x->off = 0;
    x->dead = 0;
    x->tombs = 0;
    x->pos = 0;
    x->cap = (uint16_t)cap;
    x->spare = 0;
    x->parent = NULL;
    return x;
}

/* A full-size leaf (kpn slots): the spare when there is one. */
SLX_COLD struct slx_leaf *slx_alloc_leaf(const struct slx_type *ty,
                                         struct slx_list *L)
{
    size_t size = slx_leaf_size(ty, 1, ty->kpn);
    struct slx_leaf *x;
    if (L->aux->spare) {
        x = L->aux->spare;
        L->aux->spare = NULL;
        x->n = 0;
        x->off = 0;
        x->parent = NULL;
        return x;
    }
    void *b;
    if (L->aux->default_alloc) {
        b = slx_pool_alloc(L, size, SLX_ALLOC_LEAF);
    } else {
        b = L->aux->alloc.alloc(L->aux->alloc.ctx, size, SLX_ALLOC_LEAF);
        if (b)
            L->aux->bytes += size;
    }
    if (!b)
        return NULL;
    return slx_leaf_fresh(ty, b, ty->kpn);
}

/* A small list's sole leaf, room for cap < kpn slots: sizes vary, so it
 * comes from malloc (or the caller's allocator as SLX_ALLOC_OTHER), not
 * from a pool of one size. */
SLX_COLD struct slx_leaf *slx_alloc_small_leaf(const struct slx_type *ty,
                                               struct slx_list *L, unsigned cap)
{
    size_t size = slx_leaf_size(ty, 1, cap);
    void *b =
        L->aux->default_alloc
            ? SLX_MALLOC(size)
            : L->aux->alloc.alloc(L->aux->alloc.ctx, size, SLX_ALLOC_OTHER);
    if (!b)
        return NULL;
    L->aux->bytes += size;
    return slx_leaf_fresh(ty, b, cap);
}

SLX_COLD void slx_free_leaf(const struct slx_type *ty, struct slx_list *L,
                            struct slx_leaf *x)
{
    size_t size = slx_leaf_size(ty, 1, x->cap);
    void *b = slx_block(ty, x);
    if (x->cap < ty->kpn) { /* a small leaf */
        if (L->aux->default_alloc)
            free(b);
        else
            L->aux->alloc.free(L->aux->alloc.ctx, b, size, SLX_ALLOC_OTHER);
        L->aux->bytes -= size;
    } else if (L->aux->default_alloc) {
        *(void **)b = L->aux->pool.free_list[SLX_ALLOC_LEAF];
        L->aux->pool.free_list[SLX_ALLOC_LEAF] = b;
    } else {
        L->aux->alloc.free(L->aux->alloc.ctx, b, size, SLX_ALLOC_LEAF);
        L->aux->bytes -= size;
    }
}

/* xorshift64*: the level generator, seeded per list. */
SLX_HOT uint64_t slx_rand(struct slx_list *L)
{
    uint64_t x = L->aux->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    L->aux->rng = x;
    return x * 0x2545F4914F6CDD1Dull;
}

/* An index node of cap entries (ty->icap: from the pool; more: a grown
 * root, allocated on its own). */
SLX_COLD struct slx_inode *slx_alloc_inode(const struct slx_type *ty,
                                           struct slx_list *L, unsigned cap)
{
    size_t size = slx_inode_size(ty, cap);
    int big = cap != ty->icap;
    void *b;
    if (L->aux->default_alloc) {
        b = big ? SLX_MALLOC(size) : slx_pool_alloc(L, size, SLX_ALLOC_INODE);
        if (b && big)
            L->aux->bytes += size;
    } else {
        b = L->aux->alloc.alloc(L->aux->alloc.ctx, size,
                                big ? SLX_ALLOC_OTHER : SLX_ALLOC_INODE);
        if (b)
            L->aux->bytes += size;
    }
    if (!b)
        return NULL;
    struct slx_inode *P =
        (struct slx_inode *)(void *)((unsigned char *)b +
                                     slx_inode_front(ty, cap));
    memset(P, 0, sizeof(*P));
    P->cap = cap;
    P->big = (uint8_t)big;
    return P;
}

SLX_COLD void slx_free_inode(const struct slx_type *ty, struct slx_list *L,
                             struct slx_inode *P)
{
    size_t size = slx_inode_size(ty, P->cap);
    void *b = slx_inode_block(ty, P);
    int big = P->big;
    if (L->aux->default_alloc && !big) {
        *(void **)b = L->aux->pool.free_list[SLX_ALLOC_INODE];
        L->aux->pool.free_list[SLX_ALLOC_INODE] = b;
        return;
    }
    if (L->aux->default_alloc)
        free(b);
    else
        L->aux->alloc.free(L->aux->alloc.ctx, b, size,
                           big ? SLX_ALLOC_OTHER : SLX_ALLOC_INODE);
    L->aux->bytes -= size;
}

/* Height of a new leaf's entry in the index: geometric with p =
 * 1/2^pshift (so the index's fanout is 2^pshift on average), capped at
 * one above the root (Pugh's "fix the dice") and at the max level. */
SLX_COLD unsigned slx_random_level(const struct slx_type *ty,
                                   struct slx_list *L)
{
    unsigned maxidx = slx_max_index(ty);
    unsigned cap = L->aux->top + 1 < maxidx ? L->aux->top + 1 : maxidx;
    unsigned level = 1;
    uint64_t mask = (1u << ty->pshift) - 1;
    uint64_t r = slx_rand(L);
    unsigned bits = 64;
    while (level < cap) {
        if (bits < ty->pshift) {
            r = slx_rand(L);
            bits = 64;
        }
        if (r & mask)
            break;
        r >>= ty->pshift;
        bits -= ty->pshift;
        level++;
    }
    return level;
}

/* --- init / destroy ------------------------------------------------ */

/* The aux block: struct slx_aux, then the head leaf (one link and a
 * header, no slots). */
SLX_HOT size_t slx_aux_size(const struct slx_type *ty)
{
    return sizeof(struct slx_aux) + slx_head_size(ty);
}

/* The stamp iterators compare. Constant while the list has no aux block
 * (the singleton's writes need no re-sync: a walk over one element has
 * fetched its end before the body runs); every write that leaves a block
 * in place bumps it (the one that allocated it too), and freeing the
 * block sets it to the level generator's state. */
SLX_HOT uint64_t slx_stamp(const struct slx_list *L)
{
    return L->stamp;
}

/* Heap bytes the list holds: none before its first insert. */
SLX_HOT size_t slx_bytes(const struct slx_list *L)
{
    return L->aux ? L->aux->bytes : 0;
}

/* Allocates the aux block and the head leaf in it (the first write's job,
 * or init's with a caller's allocator). The list is left as it was on
 * failure. */
SLX_COLD int slx_aux_alloc(const struct slx_type *ty, struct slx_list *L,
                           const struct skiplist_allocator *a)
{
    size_t size = slx_aux_size(ty);
    void *b = a ? a->alloc(a->ctx, size, SLX_ALLOC_OTHER) : SLX_MALLOC(size);
    if (!b)
        return -ENOMEM;
    memset(b, 0, size);
    struct slx_aux *X = (struct slx_aux *)b;
    X->default_alloc = a == NULL;
    if (a)
        X->alloc = *a;
    X->bytes = size;
    X->rng = L->stamp; /* the seed init left (slx_list.stamp); the write
                        * that follows bumps the stamp */
    struct slx_leaf *h =
        slx_leaf_in(ty, (unsigned char *)b + sizeof(struct slx_aux), 1);
    h->level = 1;
    slx_set_next(ty, h, 0, h);
    slx_set_prev(ty, h, 0, h);
    L->aux = X;
    L->head = h;
    return 0;
}

SLX_COLD int slx_materialize(const struct slx_type *ty, struct slx_list *L);
SLX_COLD void slx_clear_leaves(const struct slx_type *ty, struct slx_list *L,
                               void (*fn)(void *, void *), void *arg);
SLX_COLD void slx_free_aux(const struct slx_type *ty, struct slx_list *L);

/* A write that works on leaves (a build) starts here: a list without an
 * aux block gets one, and a singleton's element moves into a leaf
 * (slx_materialize; -ENOMEM leaves the list as it was). Inserts of one
 * element meet a list without its block in slx_insert_begin,
 * slx_ext_insert_one and slx_ext_insert_hole instead. */
SLX_HOT int slx_writable(const struct slx_type *ty, struct slx_list *L)
{
    if (SLX_LIKELY(L->aux != NULL))
        return 0;
    return slx_materialize(ty, L);
}

/* Leaves linked (none without an aux block). */
SLX_HOT size_t slx_nleaves(const struct slx_list *L)
{
    return L->aux ? L->aux->nleaves : 0;
}

/* Whether L is one leaf: no index (which exists from two leaves on,
 * slx_check_index) and a first leaf. The queue fast paths ask, and they
 * read L->root's line and the head's link anyway (no load of the aux
 * block). An instance without index levels compares the head's links. */
SLX_HOT int slx_sole_leaf(const struct slx_type *ty, const struct slx_list *L)
{
    const struct slx_leaf *h = L->head, *f = slx_next(ty, h, 0);
    if (slx_max_index(ty) > 0)
        return !L->root && f != h;
    return f != h && f == slx_prev(ty, h, 0);
}

/* --- the singleton (slx_list.one) ---------------------------------- */

/* e becomes L's singleton: a list without an aux block and no element.
 * A queue's hook names L, and its leaf is the instance's empty head: not
 * NULL, so that e counts as queued, and no leaf of any list. */
SLX_HOT void slx_one_put(const struct slx_type *ty, struct slx_list *L, void *e)
{
    L->one = e;
    L->count = 1;
    if (slx_is_queue(ty)) {
        slx_hook(ty, e)->leaf = (void *)(uintptr_t)ty->empty;
        slx_hook(ty, e)->list = L;
    }
}

/* The singleton leaves: L is empty again, still without an aux block. */
SLX_HOT void *slx_one_take(const struct slx_type *ty, struct slx_list *L)
{
    void *e = L->one;
    if (e) {
        L->one = NULL;
        L->count = 0;
        slx_unhook(ty, e);
    }
    return e;
}

/* name_clear and name_destroy of a list without an aux block. */
SLX_COLD void slx_one_clear(const struct slx_type *ty, struct slx_list *L,
                            void (*fn)(void *, void *), void *arg)
{
    void *e = slx_one_take(ty, L);
    if (e && fn)
        fn(e, arg);
}

/* The first insert into a list without an aux block: e becomes its
 * singleton (1). At the second, unique and with the singleton's key,
 * -EEXIST and *existing, the list left as it was; else the list gets its
 * aux block and the singleton moves into a leaf (2: the caller inserts e
 * as usual), or -ENOMEM with the list as it was. */
SLX_COLD int slx_one_add(const struct slx_type *ty, struct slx_list *L, void *e,
                         void **existing, int unique)
{
    if (!L->one) {
        slx_one_put(ty, L, e);
        return 1;
    }
    if (unique) {
        unsigned char a[SLX_KEY_MAX], b[SLX_KEY_MAX];
        ty->key_of(e, a);
        ty->key_of(L->one, b);
        if (ty->cmp(a, b) == 0) {
            if (existing)
                *existing = L->one;
            return -EEXIST;
        }
    }
    int rc = slx_materialize(ty, L);
    return rc ? rc : 2;
}

/* The list as it was before slx_materialize: its sole element, the
 * former singleton, leaves its leaf, and the aux block goes. */
SLX_COLD void slx_one_restore(const struct slx_type *ty, struct slx_list *L)
{
    void *e = slx_ptrs(ty, slx_next(ty, L->head, 0))[0];
    slx_clear_leaves(ty, L, NULL, NULL);
    slx_free_aux(ty, L);
    slx_one_put(ty, L, e);
}

/* With the default allocator init allocates nothing and cannot fail but
 * on a bad allocator; with a caller's, it allocates the aux block (so its
 * allocator has somewhere to live) and may return -ENOMEM. */
SLX_COLD int slx_init(const struct slx_type *ty, struct slx_list *L,
                      const struct skiplist_allocator *a, uint64_t seed)
{
    memset(L, 0, sizeof(*L));
    if (a && (!a->alloc || !a->free))
        return -EINVAL;
    /* A zero state would stick at zero: mix the seed first. */
    L->stamp = (seed ^ 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull;
    if (!L->stamp)
        L->stamp = 1;
    L->head = (struct slx_leaf *)(uintptr_t)ty->empty;
    return a ? slx_aux_alloc(ty, L, a) : 0;
}

/* Frees the index below and including P: the nodes a pool does not take
 * back wholesale (all of them with a caller's allocator, else a grown
 * root only). */
SLX_COLD void slx_free_index(const struct slx_type *ty, struct slx_list *L,
                             struct slx_inode *P)
{
    if (L->aux->default_alloc && !P->big)
        return; /* pooled, and only a root can be big */
    if (P->level > 1)
        for (unsigned j = 0; j < P->n; j++)
            slx_free_index(ty, L, (struct slx_inode *)slx_ichild(ty, P, j));
    slx_free_inode(ty, L, P);
}

/* Calls fn on every element in order, frees every leaf; the list is
 * left empty but usable, its aux block kept (its stamp goes on). */
SLX_COLD void slx_clear_leaves(const struct slx_type *ty, struct slx_list *L,
                               void (*fn)(void *, void *), void *arg)
{
    if (!L->aux) {
        slx_one_clear(ty, L, fn, arg);
        return;
    }
    struct slx_leaf *h = L->head;
    struct slx_leaf *x = slx_next(ty, h, 0);
    while (x != h) {
        struct slx_leaf *nx = slx_next(ty, x, 0);
        void **p = slx_ptrs(ty, x);
        for (unsigned i = 0; i < x->n; i++) {
            if (!p[i])
                continue; /* a tombstone */
            slx_unhook(ty, p[i]);
            if (fn)
                fn(p[i], arg);
        }
        if (!L->aux->default_alloc || x->cap < ty->kpn) /* not pooled */
            slx_free_leaf(ty, L, x);
        x = nx;
    }
    if (L->aux->spare) {
        struct slx_leaf *sp = L->aux->spare;
        L->aux->spare = NULL;
        if (!L->aux->default_alloc)
            slx_free_leaf(ty, L, sp);
    }
    /* Index nodes: pooled ones go with the pool; a grown root and every
     * node of a caller's allocator are freed one by one. */
    if (L->root)
        slx_free_index(ty, L, L->root);
    while (L->aux->stash) {
        struct slx_inode *P = L->aux->stash;
        L->aux->stash = P->parent;
        if (!L->aux->default_alloc)
            slx_free_inode(ty, L, P);
    }
    if (L->aux->default_alloc) {
        slx_pool_release(L);
        L->aux->bytes = slx_aux_size(ty);
    }
    slx_set_next(ty, h, 0, h);
    slx_set_prev(ty, h, 0, h);
    if (slx_is_extent(ty))
        memset(slx_gap(ty, h, 0), 0, sizeof(struct slx_runs));
    L->root = NULL;
    L->aux->nstash = 0;
    L->count = 0;
    L->aux->nleaves = 0;
    L->aux->top = 0;
    L->stamp++;
}

/* Frees the aux block (the list's head with it): the list is as init
 * left it with the default allocator. Its leaves are gone already. */
SLX_COLD void slx_free_aux(const struct slx_type *ty, struct slx_list *L)
{
    struct slx_aux *X = L->aux;
    L->stamp = X->rng; /* the generator's state, for the next block */
    if (X->default_alloc)
        free(X);
    else
        X->alloc.free(X->alloc.ctx, X, slx_aux_size(ty), SLX_ALLOC_OTHER);
    L->aux = NULL;
    L->head = (struct slx_leaf *)(uintptr_t)ty->empty;
}

/* name_clear: slx_clear_leaves; with the default allocator the aux block
 * goes too, so a cleared list holds no memory, as a new one. */
SLX_COLD void slx_clear(const struct slx_type *ty, struct slx_list *L,
                        void (*fn)(void *, void *), void *arg)
{
    slx_clear_leaves(ty, L, fn, arg);
    if (L->aux && L->aux->default_alloc)
        slx_free_aux(ty, L);
}

SLX_COLD void slx_destroy(const struct slx_type *ty, struct slx_list *L,
                          void (*fn)(void *, void *), void *arg)
{
    slx_clear_leaves(ty, L, fn, arg);
    if (L->aux)
        slx_free_aux(ty, L);
    L->head = NULL;
}

/* --- search -------------------------------------------------------- */

/* The mode argument of every search below: which keys go before the key
 * sought. SLX_LT: the keys < key, so a search lands on the first key >=
 * key (lower bound, find) or the last < key (below). SLX_LE: the keys <=
 * key, so it lands on the first key > key (upper bound) or the last <=
 * key (floor). */
enum { SLX_LE = 0, SLX_LT = 1 };

/* a goes before key: a < key (SLX_LT) or a <= key (SLX_LE). */
SLX_HOT int slx_before(const struct slx_type *ty, const void *a,
                       const void *key, int mode)
{
    return mode ? ty->less(a, key) : !ty->less(key, a);
}

/* slx_one_bound's work, out of line, on a copy of the key. */
SLX_COLD void *slx_one_bound_at(const struct slx_type *ty,
                                const struct slx_list *L, const void *key,
                                int mode, int after)
{
    void *e = L->one;
    if (!e)
        return NULL;
    unsigned char k[SLX_KEY_MAX];
    ty->key_of(e, k);
    return !slx_before(ty, k, key, mode) == !!after ? e : NULL;
}

/* slx_one_find's work, out of line, on a copy of the key. */
SLX_COLD void *slx_one_find_at(const struct slx_type *ty,
                               const struct slx_list *L, const void *key)
{
    void *e = L->one;
    if (!e)
        return NULL;
    unsigned char k[SLX_KEY_MAX];
    ty->key_of(e, k);
    return ty->cmp(k, key) == 0 ? e : NULL;
}

/* The singleton's helpers below are inline and hand the out-of-line work
 * a copy of the key: passing the caller's key itself would take its
 * address, and the compiler then keeps that key in memory, stored on
 * entry, on every call of the search, the common ones included. The copy
 * is made only on the singleton's (rare) branch. */

/* A bound search's answer in a singleton (NULL without one): after, the
 * first element whose key is not before key (lower and upper bound);
 * else the last one before it (below, floor). */
SLX_HOT void *slx_one_bound(const struct slx_type *ty, const struct slx_list *L,
                            const void *key, int mode, int after)
{
    unsigned char kb[SLX_KEY_MAX];
    memcpy(kb, key, ty->ks);
    return slx_one_bound_at(ty, L, kb, mode, after);
}

/* name_find in a singleton. */
SLX_HOT void *slx_one_find(const struct slx_type *ty, const struct slx_list *L,
                           const void *key)
{
    unsigned char kb[SLX_KEY_MAX];
    memcpy(kb, key, ty->ks);
    return slx_one_find_at(ty, L, kb);
}

/* The extent face's singleton when it overlaps [lo, hi], else NULL. */
SLX_COLD void *slx_one_overlap(const struct slx_type *ty,
                               const struct slx_list *L, uint64_t lo,
                               uint64_t hi)
{
    void *e = L->one;
    if (!e)
        return NULL;
    unsigned char k[8];
    ty->key_of(e, k);
    uint64_t start = slx_load_u(ty, k);
    return start <= hi && start + (ty->size_of(e) - 1u) >= lo ? e : NULL;
}

/* Start loading the bytes [p, p + bytes), a line at a time. Callers pass
 * a size fixed by the instance (a constant once force-inlined), so the
 * unrolled loop leaves no branch to predict; a trip count that follows a
 * node's fill would mispredict on most searches (docs/lab-notes.md). */
SLX_HOT void slx_prefetch_lines(const void *p, size_t bytes)
{
    const unsigned char *c = (const unsigned char *)p;
#pragma GCC unroll 16
    for (size_t off = 0; off < bytes; off += 64)
        SLX_PREFETCH(c + off);
}

/* A queue leaf's first line of keys and of element pointers in use. The
 * descent does not prefetch queue leaves (hot by use, and small queues
 * should not drag whole leaves in); ordered-index and extent leaves have
 * every slot line in flight from the descent already (slx_prefetch_leaf).
 * Loading those again here, up to n, cost a misprediction per search. */
SLX_HOT void slx_prefetch_window(const struct slx_type *ty,
                                 const struct slx_leaf *x)
{
    SLX_PREFETCH(slx_keys(ty, x));
    SLX_PREFETCH(slx_ptrs(ty, x));
}

/* Keys in k[lo, hi) before key: independent compares, no chain. */
SLX_HOT unsigned slx_count_before(const struct slx_type *ty,
                                  const unsigned char *k, unsigned lo,
                                  unsigned hi, const void *key, int mode)
{
    unsigned cnt = 0;
    for (unsigned j = lo; j < hi; j++)
        cnt += slx_before(ty, k + (size_t)j * ty->ks, key, mode) ? 1u : 0u;
    return cnt;
}

/* Keys per group of slx_leaf_count: one cache line of 8-byte keys. */
#define SLX_GROUP 8u

/* slx_leaf_search for cheap compares, n > SLX_GROUP: count the group
 * heads (keys 0, 8, 16, ...) before key, then the keys before key inside
 * the one group the answer falls in. Two rounds of independent compares:
 * every line of keys is requested at once, where a bisection waits for one
 * load per probe (and a queue's leaves are often in L2, not L1). */
SLX_HOT unsigned slx_leaf_count(const struct slx_type *ty,
                                const unsigned char *k, unsigned n,
                                const void *key, int mode)
{
    const size_t gs = (size_t)SLX_GROUP * ty->ks;
    unsigned heads = 0;
    for (unsigned g = 0; g * SLX_GROUP < n; g++)
        heads += slx_before(ty, k + g * gs, key, mode) ? 1u : 0u;
    if (heads == 0)
        return 0;
    /* Keys before key: the heads' groups up to the last head before it,
     * then that group's keys after its head. */
    unsigned lo = (heads - 1) * SLX_GROUP + 1;
    unsigned hi = lo + SLX_GROUP - 1 < n ? lo + SLX_GROUP - 1 : n;
    return lo + slx_count_before(ty, k, lo, hi, key, mode);
}

/* q when b, else p, without a branch: b is a search's compare on random
 * keys, as often true as false, so a branch would mispredict half the
 * time. GCC keeps this select a conditional move, so each bisection
 * step's chain is load, compare, select. Clang 14 turns a select inside
 * a loop into a branch, unpredictable or not, and sees through a plain
 * mask: there the mask is hidden from the optimiser (two more operations
 * per step, no misprediction). */
SLX_HOT const unsigned char *slx_select(const unsigned char *p,
                                        const unsigned char *q, int b)
{
#if defined(__clang__)
    uintptr_t mask = 0 - (uintptr_t)(b != 0);
    __asm__("" : "+r"(mask));
    return p + (((uintptr_t)q - (uintptr_t)p) & mask);
#elif defined(__GNUC__) && __GNUC__ >= 9
    return __builtin_expect_with_probability(b, 1, 0.5) ? q : p;
#else
    return b ? q : p;
#endif
}

/* Keys in the sorted k[0, n) (stride bytes apart) before key (SLX_LT: <,
 * SLX_LE: <=), n >= 1.
 * Branch-free: the trip count depends on n only and the step is a
 * select (slx_select), so random keys cost no mispredictions.
 * Invariant: with p = k + base * stride, the answer lies in
 * [base, base + len]. The pointer, not the index, is what each step
 * carries: the next probe's address is one add away from it. */
SLX_HOT unsigned slx_bisect(const struct slx_type *ty, const unsigned char *k,
                            unsigned n, size_t stride, const void *key,
                            int mode)
{
    const unsigned char *p = k; /* k + base * stride */
    unsigned len = n;
    while (len > 1) {
        unsigned half = len / 2;
        const unsigned char *q = p + (size_t)half * stride;
        p = slx_select(p, q, slx_before(ty, q - stride, key, mode));
        len -= half;
    }
    unsigned base = (unsigned)((size_t)(p - k) / stride);
    return base + (slx_before(ty, p, key, mode) ? 1u : 0u);
}

/* First slot in x whose key is >= key (SLX_LT) or > key (SLX_LE). */
SLX_HOT unsigned slx_leaf_search(const struct slx_type *ty,
                                 const struct slx_leaf *x, const void *key,
                                 int mode)
{
    const unsigned char *k = slx_keys(ty, x);
    unsigned n = x->n;
    /* A few keys: count those before key. The compares do not depend on
     * each other, where a binary search chains load, compare and select
     * per probe (small queues live here). */
    if (n <= 8)
        return slx_count_before(ty, k, 0, n, key, mode);
    if (slx_is_queue(ty))
        slx_prefetch_window(ty, x);
    /* Queues only: the ordered index measured slightly slower counting
     * (its leaves are prefetched whole, and sequential inserts predict
     * a bisection perfectly). */
    if (ty->cheap_less && slx_is_queue(ty))
        return slx_leaf_count(ty, k, n, key, mode);
    return slx_bisect(ty, k, n, ty->ks, key, mode);
}

/* The first live slot at or after logical index i of a queue leaf (i
 * itself when it is past the window): tombstones are never last in the
 * window, so it is in x. */
SLX_HOT unsigned slx_live_from(const struct slx_type *ty,
                               const struct slx_leaf *x, unsigned i)
{
    void **p = slx_ptrs(ty, x);
    while (i < x->n && !p[i])
        i++;
    return i;
}

/* One past the last live slot before logical index i of a queue leaf (0
 * when there is none): slx_live_from's mirror. */
SLX_HOT unsigned slx_live_end(const struct slx_type *ty,
                              const struct slx_leaf *x, unsigned i)
{
    void **p = slx_ptrs(ty, x);
    while (i > 0 && !p[i - 1])
        i--;
    return i;
}

/* The leaves from x on, along their links: the last one whose first key
 * is before key (x itself when none after it is). The descent of a list
 * without an index (one leaf, or max_level 1). */
SLX_HOT struct slx_leaf *slx_walk(const struct slx_type *ty,
                                  const struct slx_list *L, struct slx_leaf *x,
                                  const void *key, int mode)
{
    for (;;) {
        struct slx_leaf *nx = slx_next(ty, x, 0);
        if (nx == L->head || !slx_before(ty, slx_nmin(ty, x, 0), key, mode))
            return x;
        x = nx;
    }
}

/* Start loading an index node's keys in use: the bisection then waits for
 * one miss, not one per probe. */
SLX_HOT void slx_prefetch_inode(const struct slx_type *ty,
                                const struct slx_inode *P)
{
    /* a node filled to the fanout: more are read as the search needs */
    slx_prefetch_lines(P, sizeof(struct slx_inode) +
                              ((size_t)1 << ty->pshift) * slx_istride(ty));
}

/* The leaf a descent ends in: its header and every line of its slot
 * arrays at once, before the header says how many are in use (the leaf
 * search would otherwise wait for the header, then for the keys), and the
 * element pointers with them: a lookup reads one pointer line after the
 * search, an insert or erase shifts the whole array (and an extent leaf's
 * ends too). Fixed sizes, whatever the fill: see slx_prefetch_lines. A
 * queue's leaves are hot by use and small ones should not drag whole
 * leaves in. */
SLX_HOT void slx_prefetch_leaf(const struct slx_type *ty,
                               const struct slx_leaf *x)
{
    if (slx_is_queue(ty))
        return;
    /* Where a full leaf's arrays are, from x alone: waiting for x->cap
     * (slx_ptrs0) would serialise a miss per leaf. A leaf reached by a
     * descent is full-size (a small leaf is a list's only one), and a
     * prefetch past a small leaf's block is harmless. */
    unsigned char *k = slx_keys0(ty, x);
    SLX_PREFETCH(x);
    slx_prefetch_lines(k, ty->keys_bytes);
    slx_prefetch_lines(k + ty->keys_bytes, (size_t)ty->kpn * sizeof(void *));
    if (slx_is_extent(ty))
        slx_prefetch_lines(k + ty->keys_bytes +
                               (size_t)ty->kpn * sizeof(void *),
                           (size_t)ty->kpn * ty->ks);
}

/* The child of P to descend into: its last entry whose key is before key,
 * entry 0 without a compare (a subtree is entered only when its first key
 * is before key, and the leftmost path's entry-0 keys are not kept). */
SLX_HOT unsigned slx_inode_search(const struct slx_type *ty,
                                  const struct slx_inode *P, const void *key,
                                  int mode)
{
    unsigned m = P->n - 1u; /* keys compared: entries 1 .. n - 1 */
    if (m == 0)
        return 0;
    return slx_bisect(ty, slx_ikey(ty, P, 1), m, slx_istride(ty), key, mode);
}

/* x, the leaf an index descent for key ended in: the head instead when
 * key goes before every slot. Only the first leaf can have its first key
 * at or past key (its entry on every level is an entry 0). */
SLX_HOT struct slx_leaf *slx_descend_end(const struct slx_type *ty,
                                         const struct slx_list *L,
                                         struct slx_leaf *x, const void *key,
                                         int mode)
{
    struct slx_leaf *h = L->head;
    if (x == slx_next(ty, h, 0) &&
        !(x->n > 0 && slx_before(ty, slx_keys(ty, x), key, mode)))
        return h;
    return x;
}

/* Where child remembers its entry in its parent (ranked instances). */
SLX_HOT uint32_t *slx_pos_of(const void *child, unsigned clevel)
{
    return clevel == 0 ? &((struct slx_leaf *)(uintptr_t)child)->pos
                       : &((struct slx_inode *)(uintptr_t)child)->pos;
}

/* A writer's descent goes from P into its entry j: it makes the
 * writer's change to the entry's count (pre), or starts loading its line
 * for a write to come. The child's remembered
 * position (slx_ipos_hint) is left alone: refreshing it cost every
 * ranked erase 32 instructions at 10^6 (four levels), while the climbs
 * that read it (shifts, merges, splits) check it and find a stale one by
 * bisection, remembering the answer. */
SLX_HOT void slx_path_step(const struct slx_type *ty, struct slx_path *path,
                           const struct slx_inode *P, unsigned j)
{
    size_t *cnt = slx_icount(ty, P, j);
    if (path->pre)
        *cnt += path->pre;
    else
        __builtin_prefetch(cnt, 1);
}

/* Last leaf whose first key is < key (SLX_LT) or <= key (SLX_LE); the
 * head when there is none. One node per index level: a bisection of its
 * keys, then one load of the child pointer. A ranked instance's writers
 * pass path: the descent records the counts it goes through there and
 * starts loading their lines for the write to come. */
SLX_HOT struct slx_leaf *slx_descend_path(const struct slx_type *ty,
                                          const struct slx_list *L,
                                          const void *key, int mode,
                                          struct slx_path *path)
{
    struct slx_leaf *h = L->head;
    const struct slx_inode *P = L->root;
    if (path)
        path->leaf = NULL;
    if (!P) {
        if (slx_is_queue(ty) && slx_sole_leaf(ty, L)) {
            struct slx_leaf *f = slx_next(ty, h, 0);
            return f->n > 0 && slx_before(ty, slx_keys(ty, f), key, mode) ? f
                                                                          : h;
        }
        return slx_walk(ty, L, h, key, mode);
    }
    struct slx_leaf *x;
    for (;;) {
        unsigned j = slx_inode_search(ty, P, key, mode);
        void *c = slx_ichild(ty, P, j);
        if (slx_is_ranked(ty) && path)
            slx_path_step(ty, path, P, j);
        if (P->level == 1) {
            x = (struct slx_leaf *)c;
            slx_prefetch_leaf(ty, x);
            break;
        }
        P = (const struct slx_inode *)c;
        slx_prefetch_inode(ty, P);
    }
    if (path)
        path->leaf = x;
    return slx_descend_end(ty, L, x, key, mode);
}

SLX_HOT struct slx_leaf *slx_descend(const struct slx_type *ty,
                                     const struct slx_list *L, const void *key,
                                     int mode)
{
    return slx_descend_path(ty, L, key, mode, NULL);
}

/* slx_bound from x, the leaf slx_descend gave for key. */
SLX_HOT struct slx_leaf *slx_bound_from(const struct slx_type *ty,
                                        const struct slx_list *L,
                                        struct slx_leaf *x, const void *key,
                                        int mode, unsigned *idx)
{
    unsigned i = 0;
    if (x != L->head) {
        i = slx_leaf_search(ty, x, key, mode);
        if (i == x->n) {
            x = slx_next(ty, x, 0);
            i = 0;
        }
    } else {
        x = slx_next(ty, x, 0);
    }
    if (x != L->head && x->n == 0) /* the sole leaf of an empty list */
        x = L->head;
    if (slx_is_queue(ty) && x != L->head)
        i = slx_live_from(ty, x, i);
    *idx = i;
    return x;
}

/* Position of the first slot >= key (SLX_LT) or > key (SLX_LE): the leaf
 * and index, normalised so that idx < n, or leaf == head at the end. */
SLX_HOT struct slx_leaf *slx_bound_path(const struct slx_type *ty,
                                        const struct slx_list *L,
                                        const void *key, int mode,
                                        unsigned *idx, struct slx_path *path)
{
    struct slx_leaf *x = slx_descend_path(ty, L, key, mode, path);
    return slx_bound_from(ty, L, x, key, mode, idx);
}

SLX_HOT struct slx_leaf *slx_bound(const struct slx_type *ty,
                                   const struct slx_list *L, const void *key,
                                   int mode, unsigned *idx)
{
    return slx_bound_path(ty, L, key, mode, idx, NULL);
}

/* The element at (x, i), a slot of a leaf the caller has searched: its
 * pointer array found from x->cap, on the header line the search read,
 * rather than from L->root (which would stay live in a register through
 * the search) or through slx_ptrs' branch. */
SLX_HOT void *slx_found(const struct slx_type *ty, const struct slx_leaf *x,
                        unsigned i)
{
    return slx_ptrs0_by_cap(ty, x)[slx_off(ty, x) + i];
}

SLX_HOT void *slx_slot(const struct slx_type *ty, const struct slx_list *L,
                       struct slx_leaf *x, unsigned i)
{
    if (x == L->head) /* (head, 1): the singleton (slx_iter_first) */
        return i ? L->one : NULL;
    return i >= x->n ? NULL : slx_found(ty, x, i);
}

/* L is a singleton (its element in L->one). Tested where a search tests
 * L->root anyway, which is NULL for a singleton and for a list of one
 * leaf: the descent of a list with an index pays nothing for it. */
SLX_HOT bool slx_is_singleton(const struct slx_list *L)
{
    return L->root == NULL && SLX_UNLIKELY(L->one != NULL);
}

/* name_lower_bound (SLX_LT) and name_upper_bound (SLX_LE). */
SLX_HOT void *slx_bound_elem(const struct slx_type *ty,
                             const struct slx_list *L, const void *key,
                             int mode)
{
    if (slx_is_singleton(L))
        return slx_one_bound(ty, L, key, mode, 1);
    unsigned i;
    struct slx_leaf *x = slx_bound(ty, L, key, mode, &i);
    return slx_slot(ty, L, x, i);
}

SLX_HOT void *slx_first(const struct slx_type *ty, const struct slx_list *L)
{
    struct slx_leaf *x = slx_next(ty, L->head, 0);
    return slx_slot(ty, L, x, x == L->head); /* (head, 1): the singleton */
}

SLX_HOT void *slx_last(const struct slx_type *ty, const struct slx_list *L)
{
    struct slx_leaf *x = slx_prev(ty, L->head, 0);
    return slx_slot(ty, L, x, x == L->head ? 1u : x->n - 1u);
}

SLX_HOT void *slx_find(const struct slx_type *ty, const struct slx_list *L,
                       const void *key)
{
    if (slx_is_singleton(L))
        return slx_one_find(ty, L, key);
    unsigned i;
    struct slx_leaf *x = slx_bound(ty, L, key, SLX_LT, &i);
    if (x == L->head || ty->cmp(slx_key(ty, x, i), key) != 0)
        return NULL;
    return slx_found(ty, x, i);
}

/* Last slot < key (SLX_LT) or <= key (SLX_LE). */
SLX_HOT void *slx_floor(const struct slx_type *ty, const struct slx_list *L,
                        const void *key, int mode)
{
    if (slx_is_singleton(L))
        return slx_one_bound(ty, L, key, mode, 0);
    struct slx_leaf *x = slx_descend(ty, L, key, mode);
    if (x == L->head || L->count == 0)
        return NULL;
    unsigned i = slx_leaf_search(ty, x, key, mode);
    /* x's first key is below (or at) key, so i >= 1; a tombstone there
     * has a live slot before it (the window's first slot is live). */
    if (slx_is_queue(ty))
        i = slx_live_end(ty, x, i);
    return slx_found(ty, x, i - 1);
}

/* --- link maintenance and the index ------------------------------ */

/* Whether x is a queue's only leaf (its neighbours are both the head).
 * The head's cached copy of such a leaf's first key is not kept up to
 * date: a queue with one leaf never descends (slx_descend and
 * slx_insert_multi go straight to the leaf), and slx_link_leaf refreshes
 * it when a second leaf arrives. Pops and pushes of a small queue then
 * write nothing outside the leaf. */
SLX_HOT int slx_sole_queue_leaf(const struct slx_type *ty,
                                const struct slx_leaf *x)
{
    return slx_is_queue(ty) && slx_next(ty, x, 0) == slx_prev(ty, x, 0);
}

/* Index of child among P's entries (P->n when absent). */
SLX_HOT unsigned slx_ipos(const struct slx_type *ty, const struct slx_inode *P,
                          const void *child)
{
    unsigned j = 0;
    while (j < P->n && slx_ichild(ty, P, j) != child)
        j++;
    return j;
}

/* slx_ipos for the upkeep that climbs a path at every insert and erase
 * (the extent face's gap summaries, a ranked instance's counts): a
 * child's first key is its separator, so a bisection finds its entry
 * without walking the pointers. The walk remains for the leftmost path,
 * whose keys are not kept, for a separator not yet refreshed, and for
 * equal keys (a multimap's) spanning entries. */
SLX_HOT unsigned slx_ipos_keyed(const struct slx_type *ty,
                                const struct slx_inode *P, const void *child,
                                unsigned clevel)
{
    const unsigned char *k;
    if (clevel == 0) {
        const struct slx_leaf *x = (const struct slx_leaf *)child;
        if (x->n == 0)
            return slx_ipos(ty, P, child);
        k = slx_key(ty, x, 0);
    } else {
        k = slx_ikey(ty, (const struct slx_inode *)child, 0);
    }
    unsigned j = slx_inode_search(ty, P, k, SLX_LE);
    if (slx_ichild(ty, P, j) == child)
        return j;
    return slx_ipos(ty, P, child);
}

/* child's entry in P, from the position it remembers when that is still
 * right (one load, on the line a descent read the child pointer from) or
 * one place on (a sibling's new entry went in before it); else found by
 * bisection. Entries move only when the index changes shape, so the
 * guess is almost always right. Reads only: the const paths use it. */
SLX_HOT unsigned slx_ipos_guess(const struct slx_type *ty,
                                const struct slx_inode *P, const void *child,
                                unsigned clevel)
{
    unsigned j = *slx_pos_of(child, clevel);
    if (SLX_LIKELY(j < P->n && slx_ichild(ty, P, j) == child))
        return j;
    if (j + 1u < P->n && slx_ichild(ty, P, j + 1u) == child)
        return j + 1u;
    return slx_ipos_keyed(ty, P, child, clevel);
}

/* slx_ipos_guess, remembering the answer (the mutating paths). */
SLX_HOT unsigned slx_ipos_hint(const struct slx_type *ty,
                               const struct slx_inode *P, void *child,
                               unsigned clevel)
{
    unsigned j = slx_ipos_guess(ty, P, child, clevel);
    uint32_t *h = slx_pos_of(child, clevel);
    if (*h != j) /* (no store while it holds: the line stays clean) */
        *h = j;
    return j;
}

/* The first key of child's subtree is now k: refresh the copies above it,
 * its own entry's and, while it is its node's entry 0, the node's. */
SLX_COLD void slx_index_key_changed(const struct slx_type *ty, void *child,
                                    unsigned clevel, const void *k)
{
    struct slx_inode *P = slx_parent_of(child, clevel);
#ifdef SLX_PLANT_STALE_SEPARATOR /* planted: tests/test_build_planted.c */
    P = NULL;
#endif
    while (P) {
        unsigned j = slx_ipos(ty, P, child);
        memcpy(slx_ikey(ty, P, j), k, ty->ks);
        if (j != 0)
            return;
        child = P;
        P = P->parent;
    }
}

/* x's first key changed: refresh the cached copy in its predecessor and
 * the index's copies. The first leaf's entries are the leftmost path's
 * entries 0, which nothing reads: a queue's pops (always at the first
 * leaf) write nothing outside it. */
SLX_HOT void slx_min_changed(const struct slx_type *ty, struct slx_leaf *x)
{
    if (slx_sole_queue_leaf(ty, x))
        return;
    struct slx_leaf *pv = slx_prev(ty, x, 0);
    const unsigned char *k0 = slx_keys(ty, x);
    memcpy(slx_nmin(ty, pv, 0), k0, ty->ks);
    if (x->parent && pv->parent) /* (the head has no parent) */
        slx_index_key_changed(ty, x, 0, k0);
}

/* A queue's first leaf stops being its only one: give the head's link the
 * first key of the leaf it leads to (see slx_sole_queue_leaf). */
SLX_COLD void slx_head_refresh(const struct slx_type *ty, struct slx_list *L)
{
    struct slx_leaf *h = L->head;
    struct slx_leaf *nx = slx_next(ty, h, 0);
    if (nx != h && nx->n > 0)
        memcpy(slx_nmin(ty, h, 0), slx_key(ty, nx, 0), ty->ks);
}

/* Index nodes a structural change touched, so that the extent face can
 * refresh their gap summaries afterwards (slx_gap_dirty). */
struct slx_dirty {
    struct slx_inode *node[80];
    unsigned n;
};

SLX_HOT void slx_mark(struct slx_dirty *d, struct slx_inode *P)
{
    for (unsigned i = 0; i < d->n; i++)
        if (d->node[i] == P)
            return;
    if (d->n < sizeof(d->node) / sizeof(d->node[0]))
        d->node[d->n++] = P;
}

SLX_HOT void slx_unmark(struct slx_dirty *d, const struct slx_inode *P)
{
    for (unsigned i = 0; i < d->n; i++)
        if (d->node[i] == P)
            d->node[i] = d->node[--d->n];
}

/* Nodes for one leaf's entry, taken so that linking it cannot fail: one
 * per level (a split) and a new root. A root at the max level cannot
 * split, so it is grown here when full. */
SLX_HOT struct slx_inode *slx_stash_take(struct slx_list *L)
{
    struct slx_inode *P = L->aux->stash;
    L->aux->stash = P->parent;
    L->aux->nstash--;
    P->parent = NULL;
    P->n = 0;
    return P;
}

SLX_COLD int slx_root_grow(const struct slx_type *ty, struct slx_list *L);

/* Frees the stash's nodes beyond its first n: a reserve that fails gives
 * back what it took, so that -ENOMEM leaves even name_bytes() as it was. */
SLX_COLD void slx_stash_trim(const struct slx_type *ty, struct slx_list *L,
                             unsigned n)
{
    while (L->aux->nstash > n) {
        struct slx_inode *P = L->aux->stash;
        L->aux->stash = P->parent;
        L->aux->nstash--;
        slx_free_inode(ty, L, P);
    }
}

/* All or nothing: on -ENOMEM the stash and the root are as they were. */
SLX_COLD int slx_index_reserve(const struct slx_type *ty, struct slx_list *L)
{
    unsigned maxidx = slx_max_index(ty);
    if (maxidx == 0)
        return 0;
    unsigned had = L->aux->nstash;
    unsigned need = L->root ? L->root->level + 1u : 1u;
    while (L->aux->nstash < need) {
        struct slx_inode *P = slx_alloc_inode(ty, L, ty->icap);
        if (!P) {
            slx_stash_trim(ty, L, had);
            return -ENOMEM;
        }
        P->parent = L->aux->stash;
        L->aux->stash = P;
        L->aux->nstash++;
    }
    struct slx_inode *R = L->root;
    if (R && R->level == maxidx && R->n == R->cap && slx_root_grow(ty, L)) {
        slx_stash_trim(ty, L, had);
        return -ENOMEM;
    }
    return 0;
}

/* Entries [sj, sj + cnt) of S copied to D from dj (D has room); the
 * children learn their new node; a ranked instance's counts move with
 * them. */
SLX_COLD void slx_ientries_move(const struct slx_type *ty, struct slx_inode *D,
                                unsigned dj, const struct slx_inode *S,
                                unsigned sj, unsigned cnt)
{
    memmove(slx_ikey(ty, D, dj), slx_ikey(ty, S, sj),
            (size_t)cnt * slx_istride(ty)); /* keys and children */
    if (slx_is_ranked(ty) && cnt) /* (downwards: the last is lowest) */
        memmove(slx_icount(ty, D, dj + cnt - 1u),
                slx_icount(ty, S, sj + cnt - 1u), (size_t)cnt * sizeof(size_t));
    if (slx_is_extent(ty)) {
        memmove(slx_igaps(ty, D) + dj, slx_igaps(ty, S) + sj,
                (size_t)cnt * sizeof(uint64_t));
        for (unsigned k = 1; k <= SLX_NFIT; k++)
            memmove(slx_ifits(ty, D, k) + dj, slx_ifits(ty, S, k) + sj,
                    (size_t)cnt * sizeof(uint32_t));
    }
    if (D != S)
        for (unsigned i = 0; i < cnt; i++)
            slx_set_parent(slx_ichild(ty, D, dj + i), D->level - 1u, D);
}

/* --- element counts (ranked instances) ---------------------------- */

/* The counts of P's entries from .. to - 1. */
SLX_HOT size_t slx_isum(const struct slx_type *ty, const struct slx_inode *P,
                        unsigned from, unsigned to)
{
    size_t s = 0;
    const size_t *c = slx_icount(ty, P, from); /* (they run downwards) */
    for (unsigned j = from; j < to; j++)
        s += *c--;
    return s;
}

/* Elements below child, of level clevel (0: a leaf): a leaf's slots, or
 * the sum of a node's counts. */
SLX_HOT size_t slx_subtree_count(const struct slx_type *ty, const void *child,
                                 unsigned clevel)
{
    if (clevel == 0)
        return ((const struct slx_leaf *)child)->n;
    const struct slx_inode *P = (const struct slx_inode *)child;
    return slx_isum(ty, P, 0, P->n);
}

/* After a structural change of the index: child's entry and every entry
 * above it recomputed from what lies below them. Entries elsewhere are
 * read as they stand, so every node whose entries changed must be passed
 * here (slx_count_dirty), in any order: the last pass through a node sees
 * its final entries. O(levels * node size). */
SLX_COLD void slx_count_up_full(const struct slx_type *ty, void *child,
                                unsigned clevel)
{
    for (struct slx_inode *P = slx_parent_of(child, clevel); P; P = P->parent) {
        *slx_icount(ty, P, slx_ipos_hint(ty, P, child, clevel)) =
            slx_subtree_count(ty, child, clevel);
        child = P;
        clevel = P->level;
    }
}

/* A new entry (key, child) at j of P, which has room. */
SLX_COLD void slx_ientry_insert(const struct slx_type *ty, struct slx_inode *P,
                                unsigned j, const void *key, void *child)
{
    slx_ientries_move(ty, P, j + 1, P, j, P->n - j);
    memcpy(slx_ikey(ty, P, j), key, ty->ks);
    *slx_ichildp(ty, P, j) = child;
    if (slx_is_ranked(ty))
        *slx_icount(ty, P, j) = slx_subtree_count(ty, child, P->level - 1u);
    if (slx_is_extent(ty)) {
        struct slx_runs z;
        memset(&z, 0, sizeof(z));
        slx_iset(ty, P, j, &z);
    }
    slx_set_parent(child, P->level - 1u, P);
    P->n++;
}

/* The root is full at the max level, where it may not split: give it
 * twice the room (allocated apart from the pool). */
SLX_COLD int slx_root_grow(const struct slx_type *ty, struct slx_list *L)
{
    struct slx_inode *R = L->root;
    struct slx_inode *G = slx_alloc_inode(ty, L, 2u * R->cap);
    if (!G)
        return -ENOMEM;
    G->level = R->level;
    slx_ientries_move(ty, G, 0, R, 0, R->n);
    G->n = R->n;
    slx_free_inode(ty, L, R);
    L->root = G;
    return 0;
}

/* First key of child's subtree (child of a level-(clevel + 1) node). */
SLX_HOT const void *slx_child_key(const struct slx_type *ty, const void *child,
                                  unsigned clevel)
{
    return clevel == 0
               ? (const void *)slx_keys(ty, (const struct slx_leaf *)child)
               : (const void *)slx_ikey(ty, (const struct slx_inode *)child, 0);
}

/* Give leaf y, just linked after leaf x (its slots filled), an entry in
 * the index, present on levels 1..h: on the levels below h it starts a
 * new node, taking the entries after x's; on level h it is one more
 * entry. A node that fills splits in half and its upper half goes in one
 * level up, as if promoted. Top-down in effect, bottom-up in order: each
 * level's change is local. Cannot fail (slx_index_reserve). */
SLX_COLD void slx_index_insert(const struct slx_type *ty, struct slx_list *L,
                               struct slx_leaf *x, struct slx_leaf *y,
                               unsigned h, struct slx_dirty *d)
{
    unsigned char key[SLX_KEY_MAX];
    memcpy(key, slx_keys(ty, y), ty->ks);
    void *left = x, *child = y;
    unsigned clevel = 0; /* level of left and child (0: leaves) */
    unsigned promote = h - 1u;
    for (;;) {
        struct slx_inode *P =
            clevel == 0 && !L->root ? NULL : slx_parent_of(left, clevel);
        if (!P) { /* left is the root (or the sole leaf): a new root */
            struct slx_inode *R = slx_stash_take(L);
            R->level = (uint8_t)(clevel + 1u);
            slx_ientry_insert(ty, R, 0, slx_child_key(ty, left, clevel), left);
            slx_ientry_insert(ty, R, 1, key, child);
            L->root = R;
            L->aux->top = R->level;
            slx_mark(d, R);
            return;
        }
        slx_mark(d, P);
        unsigned j = slx_ipos(ty, P, left) + 1u;
        struct slx_inode *Q;
        if (promote > 0) { /* child starts a node: P's entries after j */
            Q = slx_stash_take(L);
            Q->level = P->level;
            slx_ientry_insert(ty, Q, 0, key, child);
            slx_ientries_move(ty, Q, 1, P, j, P->n - j);
            Q->n += P->n - j;
            P->n = j;
            promote--;
        } else if (P->n < P->cap) {
            slx_ientry_insert(ty, P, j, key, child);
            return;
        } else { /* full: the upper half moves to Q */
            Q = slx_stash_take(L);
            Q->level = P->level;
            unsigned m = P->n / 2u;
            slx_ientries_move(ty, Q, 0, P, m, P->n - m);
            Q->n = P->n - m;
#ifdef SLX_PLANT_SPLIT_DROPS_CHILD /* planted: tests/test_build_planted.c */
            Q->n--;
#endif
            P->n = m;
            if (j <= m)
                slx_ientry_insert(ty, P, j, key, child);
            else
                slx_ientry_insert(ty, Q, j - m, key, child);
            memcpy(key, slx_ikey(ty, Q, 0), ty->ks);
        }
        slx_mark(d, Q);
        left = P;
        child = Q;
        clevel = P->level;
    }
}

SLX_COLD void slx_ientry_erase(const struct slx_type *ty, struct slx_list *L,
                               struct slx_inode *P, unsigned j,
                               struct slx_dirty *d);

/* P fell to a quarter full: merge it with its neighbour under the same
 * parent when both fit in three quarters of a node (no ping-pong). */
SLX_COLD void slx_imerge(const struct slx_type *ty, struct slx_list *L,
                         struct slx_inode *P, struct slx_dirty *d)
{
    struct slx_inode *U = P->parent;
    unsigned pj = slx_ipos(ty, U, P);
    struct slx_inode *A, *B;
    if (pj > 0) {
        A = (struct slx_inode *)slx_ichild(ty, U, pj - 1);
        B = P;
    } else if (pj + 1u < U->n) {
        A = P;
        B = (struct slx_inode *)slx_ichild(ty, U, pj + 1);
        pj++;
    } else {
        return;
    }
    if (A->n + B->n > A->cap - A->cap / 4u)
        return;
    slx_ientries_move(ty, A, A->n, B, 0, B->n);
    A->n += B->n;
#ifndef SLX_PLANT_MERGE_GAP_STALE /* planted: tests/test_build_planted.c */
    slx_mark(d, A);
#endif
    slx_unmark(d, B);
    slx_free_inode(ty, L, B);
    slx_ientry_erase(ty, L, U, pj, d); /* pj > 0: no key to pass up */
}

/* Remove entry j of P and restore the index's invariants: a node left
 * empty leaves its parent, a new entry 0 passes its key up, a node a
 * quarter full merges with a neighbour. */
SLX_COLD void slx_ientry_erase(const struct slx_type *ty, struct slx_list *L,
                               struct slx_inode *P, unsigned j,
                               struct slx_dirty *d)
{
    slx_ientries_move(ty, P, j, P, j + 1u, P->n - j - 1u);
    P->n--;
    struct slx_inode *U = P->parent;
    if (P->n == 0) {
        slx_unmark(d, P);
        if (U) {
            unsigned pj = slx_ipos(ty, U, P);
            slx_free_inode(ty, L, P);
            slx_ientry_erase(ty, L, U, pj, d);
        } else {
            slx_free_inode(ty, L, P);
            L->root = NULL;
            L->aux->top = 0;
        }
        return;
    }
    slx_mark(d, P);
    if (j == 0 && U)
        slx_index_key_changed(ty, P, P->level, slx_ikey(ty, P, 0));
    if (U && P->n <= P->cap / 4u)
        slx_imerge(ty, L, P, d);
}

/* A root with one entry hands the index to its child (and a level-1 root
 * with one leaf goes: a list of one leaf has no index). */
SLX_COLD void slx_root_shrink(const struct slx_type *ty, struct slx_list *L,
                              struct slx_dirty *d)
{
    struct slx_inode *R = L->root;
    while (R && R->n == 1) {
        void *c = slx_ichild(ty, R, 0);
        unsigned clevel = R->level - 1u;
        slx_unmark(d, R);
        slx_free_inode(ty, L, R);
        slx_set_parent(c, clevel, NULL);
        R = clevel ? (struct slx_inode *)c : NULL;
        L->root = R;
        L->aux->top = clevel;
    }
}

/* Link y (slots already filled) right after x, at index height h. */
SLX_COLD void slx_link_leaf(const struct slx_type *ty, struct slx_list *L,
                            struct slx_leaf *x, struct slx_leaf *y, unsigned h,
                            struct slx_dirty *d)
{
    struct slx_leaf *nx = slx_next(ty, x, 0);
    slx_set_next(ty, y, 0, nx);
    slx_set_prev(ty, y, 0, x);
    memcpy(slx_nmin(ty, y, 0), slx_nmin(ty, x, 0), ty->ks);
    slx_set_next(ty, x, 0, y);
    slx_set_prev(ty, nx, 0, y);
    memcpy(slx_nmin(ty, x, 0), slx_key(ty, y, 0), ty->ks);
    L->aux->nleaves++;
    if (slx_is_queue(ty) && L->aux->nleaves == 2)
        slx_head_refresh(ty, L);
    if (x != L->head && slx_max_index(ty) > 0)
        slx_index_insert(ty, L, x, y, h, d);
}

/* Unlink y from the leaves and the index; its own link stays as it was. */
SLX_COLD void slx_unlink(const struct slx_type *ty, struct slx_list *L,
                         struct slx_leaf *y, struct slx_dirty *d)
{
    struct slx_leaf *p = slx_prev(ty, y, 0);
    struct slx_leaf *nx = slx_next(ty, y, 0);
    slx_set_next(ty, p, 0, nx);
    slx_set_prev(ty, nx, 0, p);
    memcpy(slx_nmin(ty, p, 0), slx_nmin(ty, y, 0), ty->ks);
    if (y->parent) {
        struct slx_inode *P = y->parent;
        slx_ientry_erase(ty, L, P, slx_ipos(ty, P, y), d);
        y->parent = NULL;
        slx_root_shrink(ty, L, d);
    }
    L->aux->nleaves--;
}

/* child (of level clevel) gained delta elements (a negative delta, as
 * size_t, lost them) while the index kept its shape: every entry above it
 * moves by delta. */
SLX_HOT void slx_count_above(const struct slx_type *ty, void *child,
                             unsigned clevel, size_t delta)
{
    for (struct slx_inode *P = slx_parent_of(child, clevel); P; P = P->parent) {
        *slx_icount(ty, P, slx_ipos_hint(ty, P, child, clevel)) += delta;
        child = P;
        clevel = P->level;
    }
}

SLX_HOT void slx_count_add(const struct slx_type *ty, struct slx_leaf *x,
                           size_t delta)
{
    slx_count_above(ty, x, 0, delta);
}

/* The waiting last leaf's change carried into the counts above it, which
 * are then all exact. Every change of the index's shape or of which leaf
 * is last starts here (slx_insert_at, slx_rebalance, slx_erase_range; a
 * build starts from an empty list, and clear frees the leaves): the
 * upkeep those changes do assumes every count exact. The last leaf's
 * entries are the last of their nodes (the rightmost path): no search
 * finds them. */
SLX_COLD void slx_count_flush_slow(const struct slx_type *ty,
                                   struct slx_list *L, struct slx_leaf *z)
{
    size_t delta = z->n - L->aux->rknown;
    z->waits = 0;
    void *child = z;
    unsigned clevel = 0;
    for (struct slx_inode *P = z->parent; P && delta; P = P->parent) {
        unsigned j = P->n - 1u;
        if (SLX_UNLIKELY(slx_ichild(ty, P, j) != child))
            j = slx_ipos_hint(ty, P, child, clevel); /* (not reached) */
        *slx_icount(ty, P, j) += delta;
        child = P;
        clevel = P->level;
    }
}

SLX_HOT void slx_count_flush(const struct slx_type *ty, struct slx_list *L)
{
    if (!slx_is_ranked(ty) || !L->aux)
        return;
    struct slx_leaf *z = slx_prev(ty, L->head, 0); /* (the head never waits) */
    if (z->waits)
        slx_count_flush_slow(ty, L, z);
}

/* Leaf x gained delta elements (or lost them, as slx_count_above) in an
 * insert or erase that left the index as it was. The last leaf's changes
 * wait: the first one sets its waits flag, remembering what the counts
 * above it hold (aux->rknown), and from then on its own slot count says
 * what they lack, so appends and the removals at the end write no count
 * and nothing outside the leaf (the flag shares the line of x->n). Every
 * entry they would touch is its node's last (the last leaf's path), which
 * rank, select and check read knowing that (slx_rpend). Any other leaf's
 * go through the counts its descent recorded when path leads to x, else
 * by climbing. */
SLX_COLD void slx_count_step_slow(const struct slx_type *ty, struct slx_list *L,
                                  struct slx_leaf *x, size_t delta)
{
    if (!x->parent)
        return;
    if (x == slx_prev(ty, L->head, 0)) {
        x->waits = 1;
        L->aux->rknown = x->n - delta;
        return;
    }
    slx_count_add(ty, x, delta);
}

/* slx_path_undo's climb, out of line: the writers that inline the rest
 * of the upkeep rarely come here. */
SLX_COLD void slx_path_undo_climb(const struct slx_type *ty,
                                  const struct slx_path *path)
{
    slx_count_above(ty, (void *)(uintptr_t)path->leaf, 0,
                    (size_t)0 - path->pre);
}

/* The descent's change to its counts (slx_path's pre), taken back: the
 * write it stood for failed, or happens in another leaf. The index has
 * kept its shape since the descent, so path->leaf's parents are the
 * nodes it went through. */
SLX_HOT void slx_path_undo(const struct slx_type *ty, struct slx_path *path)
{
    if (!path || !path->pre)
        return;
    if (path->leaf)
        slx_path_undo_climb(ty, path);
    path->pre = 0;
}

SLX_HOT void slx_count_step(const struct slx_type *ty, struct slx_list *L,
                            struct slx_leaf *x, struct slx_path *path,
                            size_t delta)
{
    if (!slx_is_ranked(ty))
        return;
    if (path && path->pre) {
        if (path->leaf == x && delta == path->pre && !x->waits) {
            path->pre = 0; /* made on the way down */
            return;
        }
        slx_path_undo(ty, path);
    }
    if (x->waits)
        return;
    slx_count_step_slow(ty, L, x, delta);
}

/* Whether inserting at (x, i) appends to the waiting last leaf, full:
 * slx_split will start a new last leaf after it, and may hand it the
 * wait (slx_count_carry) rather than flush it first. A shift into the
 * leaf before flushes (slx_shift_room). */
SLX_HOT bool slx_appends_waiting(const struct slx_type *ty,
                                 const struct slx_leaf *x, unsigned i)
{
    return slx_is_ranked(ty) && x->waits && x->n == ty->kpn && i == ty->kpn;
}

/* Full last leaf x, waiting, was split by an append: y, empty, was linked
 * after it as a new entry of x's own node (level 1, no node split) and is
 * the last leaf now. Every count on the last leaf's path but x's own entry
 * is still short by what x's were; x's entry, off that path now, gets it,
 * and y's new entry is made short by as much (mod 2^64), so y waits in
 * x's place with nothing climbed: ascending loads flush no path. */
SLX_COLD void slx_count_carry(const struct slx_type *ty, struct slx_list *L,
                              struct slx_leaf *x, struct slx_leaf *y)
{
    size_t short_by = x->n - L->aux->rknown;
    struct slx_inode *P = x->parent;
    unsigned j = P->n - 1u; /* y's entry: its node's last, x's before it */
    y->pos = j;
    x->pos = j - 1u;
    *slx_icount(ty, P, j - 1u) += short_by;
    *slx_icount(ty, P, j) -= short_by;
    x->waits = 0;
    y->waits = 1;
    L->aux->rknown = y->n - short_by;
}

/* m slots moved from leaf a to leaf b (both linked, shape unchanged). */
SLX_COLD void slx_count_move(const struct slx_type *ty, struct slx_leaf *a,
                             struct slx_leaf *b, unsigned m)
{
    /* The two paths up, a level at a time (leaves are all on one level),
     * to the node they share: above it the total is unchanged. Neighbours
     * mostly share their parent, so this is one node, not two climbs. */
    void *ca = a, *cb = b;
    unsigned clevel = 0;
    struct slx_inode *Pa = a->parent, *Pb = b->parent;
    while (Pa && Pa != Pb) {
        *slx_icount(ty, Pa, slx_ipos_hint(ty, Pa, ca, clevel)) -= m;
        *slx_icount(ty, Pb, slx_ipos_hint(ty, Pb, cb, clevel)) += m;
        ca = Pa;
        cb = Pb;
        clevel = Pa->level;
        Pa = Pa->parent;
        Pb = Pb->parent;
    }
    if (Pa) {
        *slx_icount(ty, Pa, slx_ipos_hint(ty, Pa, ca, clevel)) -= m;
        *slx_icount(ty, Pa, slx_ipos_hint(ty, Pa, cb, clevel)) += m;
    }
}

/* After a structural change: every node it touched recounts its entry
 * and those above (the dirty set is left for slx_gap_dirty). */
SLX_COLD void slx_count_dirty(const struct slx_type *ty,
                              const struct slx_dirty *d)
{
    for (unsigned i = 0; i < d->n; i++)
        slx_count_up_full(ty, d->node[i], d->node[i]->level);
}

/* Leaf y was just linked after x; x's entries still count `moved` of y's
 * slots (a split's: all of them; a built leaf's: none). Mostly y's entry
 * went into x's node, which kept its shape otherwise: x's entry gives up
 * the moved slots, and only y's new ones reach the entries above (y's
 * entry counted all of its slots when it went in). When nodes split or
 * started, every entry on x's and y's paths and everything the change
 * touched is recounted from below. */
SLX_COLD void slx_count_linked(const struct slx_type *ty, struct slx_leaf *x,
                               struct slx_leaf *y, const struct slx_dirty *d,
                               size_t moved)
{
    struct slx_inode *P = y->parent;
    if (d->n == 1 && d->node[0] == P && x->parent == P) {
        if (moved) /* (an append's split moves none) */
            *slx_icount(ty, P, slx_ipos_hint(ty, P, x, 0)) -= moved;
        if (y->n != moved)
            slx_count_above(ty, P, P->level, y->n - moved);
        return;
    }
    slx_count_up_full(ty, x, 0);
    slx_count_up_full(ty, y, 0);
    slx_count_dirty(ty, d);
}

/* --- extent gap summaries ------------------------------------------ */

SLX_HOT unsigned slx_log2(uint64_t v) /* v > 0 */
{
    return 63u - (unsigned)__builtin_clzll(v);
}

/* Run [gs, ge] joins summary r. A stretch starting at a multiple of 2^k
 * starts at gs rounded up; none for 2^k means none for larger k. */
SLX_HOT void slx_runs_add(struct slx_runs *r, uint64_t gs, uint64_t ge)
{
    uint64_t g = ge - gs + 1;
    if (g == 0)
        g = UINT64_MAX;
    if (g > r->gap)
        r->gap = g;
    for (unsigned k = 1; k <= SLX_NFIT; k++) {
        uint64_t m = ((uint64_t)1 << k) - 1;
        uint64_t x = (gs + m) & ~m;
        if (x < gs || x > ge)
            break;
        uint64_t f = ge - x + 1;
        uint32_t f32 = f == 0 || f > UINT32_MAX ? UINT32_MAX : (uint32_t)f;
        if (f32 > r->fit[k - 1])
            r->fit[k - 1] = f32;
    }
}

/* One free run leaf x owns, as [*gs, *ge] (0 when there is none): the run
 * after an extent of x ending at last, up to slot jn's start (jn < n),
 * the next leaf's first start, or the end of the key space. The head owns
 * the run before the first extent (last is not read). The one rule for
 * the summaries (slx_leaf_runs, slx_run_after) and the hole search. The
 * run to the end of the key space, the tail (slx_is_tail), is the
 * list's: no summary holds it (see slx_hole_tail). */
SLX_HOT int slx_free_run(const struct slx_type *ty, const struct slx_list *L,
                         const struct slx_leaf *x, uint64_t last, unsigned jn,
                         uint64_t *gs, uint64_t *ge)
{
    if (x != L->head && last == ty->key_max)
        return 0;
    *gs = x == L->head ? 0 : last + 1;
    if (jn < x->n || slx_next(ty, x, 0) != L->head) {
        uint64_t ns = jn < x->n ? slx_load_u(ty, slx_key(ty, x, jn))
                                : slx_load_u(ty, slx_nmin(ty, x, 0));
        if (ns <= *gs)
            return 0;
        *ge = ns - 1;
    } else {
        *ge = ty->key_max;
    }
    return 1;
}

/* Is the run after slot jn - 1 of leaf x the tail: after the last extent,
 * to the end of the key space? */
SLX_HOT int slx_is_tail(const struct slx_type *ty, const struct slx_list *L,
                        const struct slx_leaf *x, unsigned jn)
{
    return x != L->head && jn >= x->n && slx_next(ty, x, 0) == L->head;
}

/* The free runs summarised for leaf x (see slx_free_run): the run after
 * each of its extents but the tail; the head's, before the first extent.
 * Between two of x's own extents the run is simply what lies between
 * them. */
SLX_COLD struct slx_runs slx_leaf_runs(const struct slx_type *ty,
                                       const struct slx_list *L,
                                       const struct slx_leaf *x)
{
    struct slx_runs r;
    memset(&r, 0, sizeof(r));
    uint64_t gs, ge;
    if (x == L->head) {
        if (slx_free_run(ty, L, x, 0, 0, &gs, &ge))
            slx_runs_add(&r, gs, ge);
        return r;
    }
    const unsigned char *lasts = slx_lasts(ty, x);
    const unsigned char *starts = slx_keys(ty, x);
    size_t ks = ty->ks;
    unsigned n = x->n;
    for (unsigned j = 0; j + 1u < n; j++) {
        uint64_t last = slx_load_u(ty, lasts + (size_t)j * ks);
        uint64_t ns = slx_load_u(ty, starts + (size_t)(j + 1u) * ks);
        if (ns - last > 1u)
            slx_runs_add(&r, last + 1u, ns - 1u);
    }
    if (n > 0 && !slx_is_tail(ty, L, x, n) &&
        slx_free_run(ty, L, x, slx_load_u(ty, lasts + (size_t)(n - 1u) * ks), n,
                     &gs, &ge))
        slx_runs_add(&r, gs, ge);
    return r;
}

/* m raised to g field by field; the fields that rose, as a mask (bit 0
 * the gap, bit k fit[k - 1]). */
SLX_HOT unsigned slx_runs_raise(struct slx_runs *m, const struct slx_runs *g)
{
    unsigned rose = 0;
    if (g->gap > m->gap) {
        m->gap = g->gap;
        rose = 1u;
    }
    for (unsigned k = 0; k < SLX_NFIT; k++)
        if (g->fit[k] > m->fit[k]) {
            m->fit[k] = g->fit[k];
            rose |= 2u << k;
        }
    return rose;
}

/* The fields in which a and b differ, as a mask (see slx_runs_raise). */
SLX_HOT unsigned slx_runs_diff(const struct slx_runs *a,
                               const struct slx_runs *b)
{
    unsigned d = a->gap != b->gap ? 1u : 0u;
    for (unsigned k = 0; k < SLX_NFIT; k++)
        d |= (unsigned)(a->fit[k] != b->fit[k]) << (k + 1u);
    return d;
}

/* Eight lanes of a fit field (GCC's vector extension, which Clang and
 * both C++ front ends share): an extent node's upkeep takes maxima over
 * whole arrays of them. Only ever a local: passing one by value would tie
 * the ABI to the target's vector registers. */
typedef uint32_t slx_u32x8 __attribute__((vector_size(32)));

/* Maximum of n values, eight lanes at a time. A maximum may see a value
 * twice, so the last group is the last eight values, overlapping the one
 * before, instead of a scalar tail. */
SLX_HOT uint32_t slx_max_u32(const uint32_t *f, unsigned n)
{
    uint32_t a = 0;
    if (n < 8u) {
        for (unsigned j = 0; j < n; j++)
            a = f[j] > a ? f[j] : a;
        return a;
    }
    slx_u32x8 m = {0, 0, 0, 0, 0, 0, 0, 0};
    for (unsigned j = 0;; j += 8u) {
        if (j + 8u > n)
            j = n - 8u;
        slx_u32x8 v;
        memcpy(&v, f + j, sizeof(v));
        slx_u32x8 gt = (slx_u32x8)(v > m);
        m = (v & gt) | (m & ~gt);
        if (j + 8u == n)
            break;
    }
    for (unsigned i = 0; i < 8u; i++)
        a = m[i] > a ? m[i] : a;
    return a;
}

/* Maximum of n values: the gaps, one field of thirteen, so no lanes. */
SLX_HOT uint64_t slx_max_u64(const uint64_t *g, unsigned n)
{
    uint64_t a = 0;
    for (unsigned j = 0; j < n; j++)
        a = g[j] > a ? g[j] : a;
    return a;
}

/* The summary of a node: the maximum of its entries'. */
SLX_HOT struct slx_runs slx_inode_runs(const struct slx_type *ty,
                                       const struct slx_inode *P)
{
    struct slx_runs m;
    m.gap = slx_max_u64(slx_igaps(ty, P), P->n);
    for (unsigned k = 1; k <= SLX_NFIT; k++)
        m.fit[k - 1] = slx_max_u32(slx_ifits(ty, P, k), P->n);
    return m;
}

/* Field f of the summaries, as the upkeep walks them one at a time: 0 is
 * the gap, k >= 1 the fit for 2^k. */
SLX_HOT uint64_t slx_runs_field(const struct slx_runs *r, unsigned f)
{
    return f ? r->fit[f - 1u] : r->gap;
}

SLX_HOT uint64_t slx_ifield(const struct slx_type *ty,
                            const struct slx_inode *P, unsigned j, unsigned f)
{
    return f ? slx_ifits(ty, P, f)[j] : slx_igaps(ty, P)[j];
}

SLX_HOT void slx_ifield_set(const struct slx_type *ty,
                            const struct slx_inode *P, unsigned j, unsigned f,
                            uint64_t v)
{
    if (f)
        slx_ifits(ty, P, f)[j] = (uint32_t)v;
    else
        slx_igaps(ty, P)[j] = v;
}

SLX_HOT uint64_t slx_ifield_max(const struct slx_type *ty,
                                const struct slx_inode *P, unsigned f)
{
    return f ? slx_max_u32(slx_ifits(ty, P, f), P->n)
             : slx_max_u64(slx_igaps(ty, P), P->n);
}

#define SLX_NFIELD (SLX_NFIT + 1u)

/* After a structural change that touched node N, the entries above are
 * not all right yet: each node's summary is recomputed from its entries
 * all the way to the root (slx_gap_dirty). */
SLX_COLD void slx_gap_up_full(const struct slx_type *ty, struct slx_inode *N)
{
    struct slx_runs r = slx_inode_runs(ty, N);
    for (struct slx_inode *P = N->parent; P; P = P->parent) {
        slx_iset(ty, P, slx_ipos(ty, P, N), &r);
        r = slx_inode_runs(ty, P);
        N = P;
    }
}

/* All the fields of a summary, as a mask (see slx_runs_raise). */
#define SLX_ALL_FIELDS ((1u << SLX_NFIELD) - 1u)

/* Leaf x's summary changed: carry it up the entries above it (x has a
 * parent), field by field. A field whose entry already holds the new
 * value is right everywhere above, so each level handles only the fields
 * that changed below it, and stops when none did. A node's new maximum
 * comes from its old one (its entry above), without a pass over its
 * entries, unless the field fell from that maximum. mask: the fields
 * that may differ from x's entry (a caller that knows which changed saves
 * reading the others, each a line of the node apart); SLX_ALL_FIELDS when
 * unknown. After a structural change use slx_gap_up_full. */
SLX_COLD void slx_gap_up(const struct slx_type *ty, struct slx_leaf *x,
                         unsigned mask)
{
    struct slx_inode *P = x->parent;
    uint64_t now[SLX_NFIELD], old[SLX_NFIELD];
    const struct slx_runs *r = slx_gap(ty, x, 0);
    for (unsigned f = 0; f < SLX_NFIELD; f++)
        now[f] = slx_runs_field(r, f);
    unsigned j = slx_ipos_keyed(ty, P, x, 0);
    for (;;) {
        unsigned changed = 0;
        for (unsigned m = mask; m; m &= m - 1u) {
            unsigned f = (unsigned)__builtin_ctz(m);
            old[f] = slx_ifield(ty, P, j, f);
            if (old[f] != now[f]) {
                changed |= 1u << f;
                slx_ifield_set(ty, P, j, f, now[f]);
            }
        }
        struct slx_inode *U = P->parent;
        if (!changed || !U)
            return;
        unsigned pj = slx_ipos_keyed(ty, U, P, P->level);
        for (unsigned m = changed; m; m &= m - 1u) {
            unsigned f = (unsigned)__builtin_ctz(m);
            uint64_t s = slx_ifield(ty, U, pj, f); /* P's maximum before */
            if (now[f] >= old[f])
                now[f] = now[f] > s ? now[f] : s;
            else if (old[f] >= s) /* it fell from the maximum */
                now[f] = slx_ifield_max(ty, P, f);
            else
                now[f] = s;
        }
        mask = changed;
        P = U;
        j = pj;
    }
}

/* Recompute the summaries that cover leaf x (or the head's run): x's own
 * level-0 gap, then the entries above it. O(levels * node size). */
SLX_COLD void slx_gap_fix(const struct slx_type *ty, const struct slx_list *L,
                          struct slx_leaf *x)
{
    *slx_gap(ty, x, 0) = slx_leaf_runs(ty, L, x);
    if (x != L->head && x->parent)
        slx_gap_up(ty, x, SLX_ALL_FIELDS);
}

/* slx_gap_fix when x's slots changed but nothing moved between leaves or
 * nodes, so that x's entry above still holds x's summary from before:
 * only the fields that changed go up. */
SLX_COLD void slx_gap_refresh(const struct slx_type *ty,
                              const struct slx_list *L, struct slx_leaf *x)
{
    struct slx_runs *S = slx_gap(ty, x, 0);
    struct slx_runs now = slx_leaf_runs(ty, L, x);
    unsigned changed = slx_runs_diff(S, &now);
    *S = now;
    if (changed && x != L->head && x->parent)
        slx_gap_up(ty, x, changed);
}

/* The summary of the one run x owns after slot j's extent, up to slot
 * jn's start (slx_free_run); nothing for the tail. */
SLX_HOT struct slx_runs slx_run_after(const struct slx_type *ty,
                                      const struct slx_list *L,
                                      const struct slx_leaf *x, unsigned j,
                                      unsigned jn)
{
    struct slx_runs r;
    memset(&r, 0, sizeof(r));
    uint64_t gs, ge;
    uint64_t last = slx_load_u(ty, slx_lasts(ty, x) + (size_t)j * ty->ks);
    if (!slx_is_tail(ty, L, x, jn) &&
        slx_free_run(ty, L, x, last, jn, &gs, &ge))
        slx_runs_add(&r, gs, ge);
    return r;
}

/* x's summary after run C joined x's runs: it can only rise. */
SLX_HOT void slx_gap_raise(const struct slx_type *ty, struct slx_leaf *x,
                           const struct slx_runs *C)
{
    unsigned rose = slx_runs_raise(slx_gap(ty, x, 0), C);
    if (rose && x->parent)
        slx_gap_up(ty, x, rose);
}

/* Does run summary R reach one of summary S's maxima (a field of R that
 * is not empty and at least S's)? When a run that S held shrinks or
 * leaves, S can only fall in such a field; otherwise it stays. */
SLX_HOT int slx_runs_reach(const struct slx_runs *R, const struct slx_runs *S)
{
    int held = R->gap != 0 && R->gap >= S->gap;
    for (unsigned k = 0; k < SLX_NFIT && !held; k++)
        held = R->fit[k] != 0 && R->fit[k] >= S->fit[k];
    return held;
}

/* The summary of the free run between an extent ending at last and the
 * next one, starting at ns (none when they touch). */
SLX_HOT struct slx_runs slx_run_between(uint64_t last, uint64_t ns)
{
    struct slx_runs r;
    memset(&r, 0, sizeof(r));
    if (ns - last > 1u)
        slx_runs_add(&r, last + 1u, ns - 1u);
    return r;
}

/* The run owned by x's predecessor pv, after pv's last extent, just
 * changed its end: x gained or lost its first extent (x still holds
 * some, so that run is not the tail). old_end: the start that ended it
 * before. The head's summary is its one run: recomputed, with nothing
 * above it. A run that grew can only raise pv's summary; one that shrank
 * lowers it only where it held a maximum, and then pv is recomputed. */
SLX_HOT void slx_gap_prev_run(const struct slx_type *ty,
                              const struct slx_list *L, struct slx_leaf *x,
                              uint64_t old_end)
{
    struct slx_leaf *pv = slx_prev(ty, x, 0);
    if (pv == L->head || pv->n == 0) {
        slx_gap_fix(ty, L, pv);
        return;
    }
    uint64_t last =
        slx_load_u(ty, slx_lasts(ty, pv) + (size_t)(pv->n - 1u) * ty->ks);
    uint64_t end = slx_load_u(ty, slx_key(ty, x, 0));
    if (end > old_end) {
        struct slx_runs now = slx_run_between(last, end);
        slx_gap_raise(ty, pv, &now);
        return;
    }
    struct slx_runs was = slx_run_between(last, old_end);
    if (slx_runs_reach(&was, slx_gap(ty, pv, 0)))
        slx_gap_refresh(ty, L, pv);
}

/* x's first extent, which ended at last0, was just taken out and x still
 * holds extents: the run x owned after it (up to x's new first start)
 * left x's summary, and the run before x grew to that start. */
SLX_HOT void slx_gap_front_taken(const struct slx_type *ty,
                                 const struct slx_list *L, struct slx_leaf *x,
                                 uint64_t start0, uint64_t last0)
{
    uint64_t s1 = slx_load_u(ty, slx_key(ty, x, 0));
    struct slx_runs R = slx_run_between(last0, s1);
    if (slx_runs_reach(&R, slx_gap(ty, x, 0)))
        slx_gap_refresh(ty, L, x);
    slx_gap_prev_run(ty, L, x, start0);
}

/* An extent was just placed at slot 0 of x, before at least one other:
 * the run between it and the next joins x's summary, and the run before
 * x, which ended at that next extent's start, now ends at its own. */
SLX_HOT void slx_gap_front_placed(const struct slx_type *ty,
                                  const struct slx_list *L, struct slx_leaf *x)
{
    struct slx_runs C = slx_run_after(ty, L, x, 0, 1);
    slx_gap_raise(ty, x, &C);
    slx_gap_prev_run(ty, L, x, slx_load_u(ty, slx_key(ty, x, 1)));
}

/* An extent was just placed at slot i >= 1 of x, inside the run x owned
 * after slot i - 1. When that run held none of x's maxima, x's summary
 * is unchanged (its two pieces are smaller): nothing to do. Otherwise the
 * leaf is recomputed. When that run was the tail (the extent is the last
 * one), its lower piece is a run no summary held: it joins x's. */
SLX_HOT void slx_gap_split(const struct slx_type *ty, const struct slx_list *L,
                           struct slx_leaf *x, unsigned i)
{
    if (slx_is_tail(ty, L, x, i + 1)) {
        struct slx_runs C = slx_run_after(ty, L, x, i - 1, i);
        slx_gap_raise(ty, x, &C);
        return;
    }
    struct slx_runs R = slx_run_after(ty, L, x, i - 1, i + 1);
    if (slx_runs_reach(&R, slx_gap(ty, x, 0)))
        slx_gap_refresh(ty, L, x);
}

/* The extent at slot i >= 1 of x was just taken out: the runs on either
 * side became one, which can only raise x's summary; unless they became
 * the tail, which no summary holds: then the run before the extent left
 * x's summary, and x is recomputed. */
SLX_HOT void slx_gap_merge(const struct slx_type *ty, const struct slx_list *L,
                           struct slx_leaf *x, unsigned i)
{
    if (slx_is_tail(ty, L, x, i)) {
        slx_gap_fix(ty, L, x);
        return;
    }
    struct slx_runs C = slx_run_after(ty, L, x, i - 1, i);
    slx_gap_raise(ty, x, &C);
}

/* After a structural change of the index: every node it touched passes
 * its summary all the way up. */
SLX_COLD void slx_gap_dirty(const struct slx_type *ty, struct slx_dirty *d)
{
    for (unsigned i = 0; i < d->n; i++)
        slx_gap_up_full(ty, d->node[i]);
    d->n = 0;
}

/* --- slot primitives ----------------------------------------------- */

/* memmove of len bytes, w <= len <= 2 w, w a constant at every call: the
 * first and last w bytes, both loaded before either is stored. */
SLX_HOT void slx_move_ends(unsigned char *dp, const unsigned char *sp,
                           size_t len, size_t w)
{
    unsigned char a[32], b[32];
    memcpy(a, sp, w);
    memcpy(b, sp + len - w, w);
    memcpy(dp, a, w);
    memcpy(dp + len - w, b, w);
}

/* memmove of cnt items of size bytes, for the short shifts that dominate
 * small leaves and queues: up to 64 bytes it loads both ends before
 * storing either (so overlap is safe) with fixed-size copies the compiler
 * turns into single moves, instead of a library call whose dispatch costs
 * more than the copy. size is a constant at every call, so the cases
 * below it fold away. */
SLX_HOT void slx_memmove(void *d, const void *s, unsigned cnt, size_t size)
{
    unsigned char *dp = (unsigned char *)d;
    const unsigned char *sp = (const unsigned char *)s;
    size_t len = (size_t)cnt * size;
    if (cnt == 0)
        return;
    if (len > 64) {
        memmove(d, s, len);
    } else if (len > 32) {
        slx_move_ends(dp, sp, len, 32);
    } else if (len >= 16) {
        slx_move_ends(dp, sp, len, 16);
    } else if (len >= 8) {
        slx_move_ends(dp, sp, len, 8);
    } else if (len >= 4) {
        slx_move_ends(dp, sp, len, 4);
    } else {
        unsigned char a = sp[0], b = sp[len / 2], c = sp[len - 1];
        dp[0] = a;
        dp[len / 2] = b;
        dp[len - 1] = c;
    }
}

/* Copy cnt slots from (src, si) to (dst, di); the ranges may overlap only
 * when src == dst. Moving into another leaf re-points the elements' hooks. */
SLX_HOT void slx_move_slots(const struct slx_type *ty, struct slx_leaf *dst,
                            unsigned di, struct slx_leaf *src, unsigned si,
                            unsigned cnt)
{
    if (!cnt)
        return;
    slx_memmove(slx_key(ty, dst, di), slx_key(ty, src, si), cnt, ty->ks);
    slx_memmove(slx_ptrs(ty, dst) + di, slx_ptrs(ty, src) + si, cnt,
                sizeof(void *));
    if (slx_is_extent(ty))
        slx_memmove(slx_lasts(ty, dst) + (size_t)di * ty->ks,
                    slx_lasts(ty, src) + (size_t)si * ty->ks, cnt, ty->ks);
    if (slx_is_queue(ty) && dst != src) {
        void **p = slx_ptrs(ty, dst);
        for (unsigned i = 0; i < cnt; i++)
            slx_set_hook(ty, p[di + i], dst);
    }
}

/* A slot to insert: key bytes, element, inclusive last (extent face). */
struct slx_slotval {
    const void *key;
    void *elem;
    uint64_t last;
};

/* Move a windowed leaf's slots back to physical slot 0, so that its free
 * slots are all at the end: for the cold paths that append many slots. */
SLX_HOT void slx_compact_inline(const struct slx_type *ty, struct slx_leaf *x)
{
    unsigned off = slx_off(ty, x);
    if (!off)
        return;
    unsigned char *keys = slx_keys0(ty, x);
    void **ptrs = slx_ptrs0(ty, x);
    slx_memmove(keys, keys + (size_t)off * ty->ks, x->n, ty->ks);
    slx_memmove(ptrs, ptrs + off, x->n, sizeof(void *));
    x->off = 0;
}

/* The same, out of line, for the paths that compact rarely. The inline
 * one serves a small queue's push (slx_push_small), which compacts once
 * per few pushes, with a constant key size that makes the short copies
 * single moves instead of two library calls. */
SLX_COLD void slx_compact(const struct slx_type *ty, struct slx_leaf *x)
{
    slx_compact_inline(ty, x);
}

#if SLX_SIMD
/* Bit j set when p[j] == e, j < 8: two (AVX2) or four (SSE2) vector
 * compares where a plain scan pays a compare and a branch per slot. */
SLX_HOT unsigned slx_match8(void *const *p, const void *e)
{
#if SLX_SIMD == 2
    __m256i ev = _mm256_set1_epi64x((long long)(uintptr_t)e);
    __m256i a = _mm256_cmpeq_epi64(
        _mm256_loadu_si256((const __m256i *)(const void *)p), ev);
    __m256i b = _mm256_cmpeq_epi64(
        _mm256_loadu_si256((const __m256i *)(const void *)(p + 4)), ev);
    return (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(a)) |
           (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(b)) << 4;
#else
    __m128i ev = _mm_set1_epi64x((long long)(uintptr_t)e);
    unsigned m = 0;
    for (int j = 0; j < 8; j += 2) {
        __m128i c = _mm_cmpeq_epi32(
            _mm_loadu_si128((const __m128i *)(const void *)(p + j)), ev);
        /* a pointer is equal when both its 32-bit halves are */
        c = _mm_and_si128(c, _mm_shuffle_epi32(c, _MM_SHUFFLE(2, 3, 0, 1)));
        m |= (unsigned)_mm_movemask_pd(_mm_castsi128_pd(c)) << j;
    }
    return m;
#endif
}
#endif

/* Index of e among p[0..n), or n. */
SLX_HOT unsigned slx_find_ptr(void *const *p, unsigned n, const void *e)
{
    unsigned i = 0;
#if SLX_SIMD
    /* Short leaves scan faster plainly: one predicted loop. */
    for (; n > 16 && i + 8 <= n; i += 8) {
        unsigned m = slx_match8(p + i, e);
        if (m)
            return i + (unsigned)__builtin_ctz(m);
    }
#endif
    for (; i < n; i++)
        if (p[i] == e)
            break;
    return i;
}

/* Index of the last e among p[0..n), or n when there is none. */
SLX_HOT unsigned slx_find_ptr_back(void *const *p, unsigned n, const void *e)
{
    unsigned i = n;
#if SLX_SIMD
    for (; i >= 8; i -= 8) {
        unsigned m = slx_match8(p + i - 8, e);
        if (m)
            return i - 8 + 31u - (unsigned)__builtin_clz(m);
    }
#endif
    while (i-- > 0)
        if (p[i] == e)
            return i;
    return n;
}

#define SLX_TOMB_WINDOW 32

/* --- queue windows and tombstones ---------------------------------- */

/* Whether a queue leaf's slots fit one 64-bit bitmap, matched in whole
 * groups of 8: at most 64 of them. Such leaves keep their tombstones'
 * positions in slx_leaf.tombs. */
#define SLX_BITMAP_LEAF(ty) ((ty)->kpn <= 64 && (ty)->kpn % 8 == 0)

/* Tombstones. A queue's removal from the middle of a leaf's window only
 * clears the slot's element pointer (slx_take): no shift, and no branch
 * on where the slot is, so the removals of a batch overlap their cache
 * misses. The slot keeps its key, so the keys stay sorted and every
 * search counts as before; the window's first and last slots are always
 * live (removals there shrink the window past any tombstones), so the
 * first and last elements, the cached first keys and the search for the
 * next live slot need nothing new. A push into a leaf with tombstones
 * takes the nearest one (slx_place_tombstone), so such a leaf is never
 * full; a leaf that shrinks or merges, or lends slots to a neighbour,
 * first drops its tombstones (slx_purge). */

/* Drop x's tombstones, keeping the window's start; *i, a logical index
 * into x, follows its slot (NULL when there is none). */
SLX_COLD void slx_purge(const struct slx_type *ty, struct slx_leaf *x,
                        unsigned *i)
{
    if (!slx_is_queue(ty) || !x->dead)
        return;
    size_t ks = ty->ks;
    unsigned char *k = slx_keys(ty, x);
    void **p = slx_ptrs(ty, x);
    unsigned n = x->n, w = 0, wi = 0;
    for (unsigned r = 0; r < n; r++) {
        if (i && r == *i)
            wi = w;
        /* copy unconditionally: a tombstone is overwritten by the next
         * live slot, and no branch depends on where tombstones are */
        memmove(k + (size_t)w * ks, k + (size_t)r * ks, ks);
        p[w] = p[r];
        w += p[r] != NULL;
    }
    if (i)
        *i = *i >= n ? w : wi;
    x->n = (uint16_t)w;
    x->dead = 0;
    x->tombs = 0;
    if (!w)
        x->off = 0;
}

/* After a removal at an end of x's window: move that end past the
 * tombstones it uncovered. */
SLX_COLD void slx_trim(const struct slx_type *ty, struct slx_leaf *x)
{
    unsigned n = x->n, front = slx_live_from(ty, x, 0);
    unsigned end = front < n ? slx_live_end(ty, x, n) : front;
    x->off = (uint16_t)(end > front ? x->off + front : 0);
    x->n = (uint16_t)(end - front);
    x->dead = (uint16_t)(x->dead - (n - (end - front)));
    if (SLX_BITMAP_LEAF(ty)) /* keep the bits inside the window */
        x->tombs &=
            x->n == 64 ? ~UINT64_C(0) : ((UINT64_C(1) << x->n) - 1u) << x->off;
}

/* Bit g + j set when p0[g + j] == e, over slots [0, room), room a multiple
 * of 8. Called with a constant room, the loop unrolls into straight-line
 * compares with no exit to mispredict. */
SLX_HOT uint64_t slx_match_slots(void *const *p0, const void *e, unsigned room)
{
    uint64_t m = 0;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
    for (unsigned g = 0; g < room; g += 8) {
#if SLX_SIMD
        m |= (uint64_t)slx_match8(p0 + g, e) << g;
#else
        for (unsigned j = 0; j < 8; j++)
            m |= (uint64_t)(p0[g + j] == e) << (g + j);
#endif
    }
    return m;
}

/* Bit j set when logical slot j of x's window holds e (SLX_BITMAP_LEAF).
 * The vector compares cover the whole slot array a fixed number of times,
 * so nothing branches on where e is; slots outside the window (stale
 * copies) are masked off. */
SLX_HOT uint64_t slx_match_window(const struct slx_type *ty,
                                  const struct slx_leaf *x, const void *e)
{
    /* Two calls, not one with the room chosen before it: a full leaf's
     * room is the constant kpn, which unrolls its loop; a small leaf (a
     * queue's only one, room a multiple of 8) loops to its own room.
     * Merged, the loop's bound was a variable for full leaves too, which
     * cost a queue removal at 16384 about 50 instructions (1.4x 2.2.2's;
     * docs/lab-notes.md). One test of cap chooses both the array and the
     * room. */
    uint64_t m;
    if (SLX_LIKELY(x->cap == ty->kpn))
        m = slx_match_slots(slx_ptrs0_full(ty, x), e, ty->kpn);
    else
        m = slx_match_slots(slx_ptrs0_by_cap(ty, x), e, x->cap);
    unsigned n = x->n;
    m >>= x->off;
    return n == 64 ? m : m & ((UINT64_C(1) << n) - 1u);
}

/* Distances from logical index i of x to its nearest tombstones: *dr
 * slots to the first at or after i, *dl to the last before i, minus one
 * (the slots between it and i); UINT_MAX when there is none. Bitmap
 * leaves answer from their tombstone bits: bit arithmetic where two scans
 * would each end in a mispredicted branch. */
SLX_HOT void slx_nearest_tombstones(const struct slx_type *ty,
                                    const struct slx_leaf *x, unsigned i,
                                    unsigned *dl, unsigned *dr)
{
    unsigned n = x->n;
    if (!SLX_BITMAP_LEAF(ty)) {
        void **p = slx_ptrs(ty, x);
        unsigned r = slx_find_ptr(p + i, n - i, NULL);
        unsigned l = slx_find_ptr_back(p, i, NULL);
        *dr = r < n - i ? r : UINT_MAX;
        *dl = l < i ? i - 1u - l : UINT_MAX;
        return;
    }
    uint64_t m = x->tombs >> x->off; /* logical; i <= n <= 64 */
    uint64_t after = i < 64 ? m >> i : 0;
    uint64_t before = m & (i < 64 ? (UINT64_C(1) << i) - 1u : ~UINT64_C(0));
    unsigned top = 63u - (unsigned)__builtin_clzll(before | 1u);
    *dr = (unsigned)__builtin_ctzll(after | UINT64_C(1) << 63) |
          (0u - (unsigned)(after == 0));
    *dl = (i - 1u - top) | (0u - (unsigned)(before == 0));
}

/* Put v at (x, i), x having tombstones: v takes the nearest one (the one
 * at or after i on a tie), the slots between moving over by one, so the
 * window neither grows nor needs room. The order holds because only
 * slots between i and the tombstone move, and FIFO among equal keys
 * because v still lands after every equal live key. */
SLX_HOT void slx_place_tombstone(const struct slx_type *ty, struct slx_leaf *x,
                                 unsigned i, const struct slx_slotval *v)
{
    size_t ks = ty->ks;
    unsigned char *k = slx_keys(ty, x);
    void **p = slx_ptrs(ty, x);
    unsigned dl, dr;
    slx_nearest_tombstones(ty, x, i, &dl, &dr);
    /* Either the dl slots before i move down one, v going at i - 1, or
     * the dr slots from i move up one, v going at i; the parameters are
     * selected rather than branched on (the side is a coin toss). */
    int down = dl < dr;
    unsigned dst = down ? i - 1u - dl : i + 1u, src = down ? i - dl : i;
    unsigned cnt = down ? dl : dr, at = down ? i - 1u : i;
    slx_memmove(k + (size_t)dst * ks, k + (size_t)src * ks, cnt, ks);
    slx_memmove(p + dst, p + src, cnt, sizeof(void *));
    memcpy(k + (size_t)at * ks, v->key, ks);
    p[at] = v->elem;
    slx_set_hook(ty, v->elem, x);
    x->dead = (uint16_t)(x->dead - 1u);
    if (SLX_BITMAP_LEAF(ty)) /* the one taken: l = at - cnt or r = at + cnt */
        x->tombs &= ~(UINT64_C(1) << (x->off + (down ? at - cnt : at + cnt)));
    if (at == 0)
        slx_min_changed(ty, x);
}

/* --- insert -------------------------------------------------------- */

/* Put v at (x, i), x having room. The slot arrays are addressed once up
 * front: the shifts' stores may alias the header, and recomputing the
 * addresses after each would cost more than the shifts of a small leaf.
 * A windowed leaf opens the slot on whichever side is shorter and has
 * room: pushing just behind a queue's front then moves almost nothing. */
SLX_HOT void slx_place(const struct slx_type *ty, struct slx_leaf *x,
                       unsigned i, const struct slx_slotval *v)
{
    size_t ks = ty->ks;
    unsigned n = x->n, off = slx_off(ty, x);
    unsigned char *k = slx_keys(ty, x);
    void **p = slx_ptrs(ty, x);
    unsigned char *la = slx_is_extent(ty) ? slx_lasts(ty, x) : NULL;
    if (slx_is_queue(ty) && SLX_UNLIKELY(x->dead)) {
        slx_place_tombstone(ty, x, i, v);
        return;
    }
    if (off > 0 && (i < n - i || off + n == x->cap)) {
        x->off = (uint16_t)(off - 1); /* old logical j is now j + 1 */
        k -= ks;
        p--;
        slx_memmove(k, k + ks, i, ks);
        slx_memmove(p, p + 1, i, sizeof(void *));
    } else {
        slx_memmove(k + (i + 1) * ks, k + i * ks, n - i, ks);
        slx_memmove(p + i + 1, p + i, n - i, sizeof(void *));
        if (slx_is_extent(ty))
            slx_memmove(la + (i + 1) * ks, la + i * ks, n - i, ks);
    }
    memcpy(k + i * ks, v->key, ks);
    p[i] = v->elem;
    if (slx_is_extent(ty))
        slx_store_u(ty, la + i * ks, v->last);
    slx_set_hook(ty, v->elem, x);
    x->n = (uint16_t)(n + 1);
    if (i == 0)
        slx_min_changed(ty, x);
}

/* x is full and (x, i) is where v goes: make room without allocating by
 * shifting slots into a neighbour that has space (keeps leaves fuller
 * than plain splitting: the memory budget depends on it). Returns the
 * leaf/index where v now goes, or NULL when both neighbours are full. */
SLX_COLD struct slx_leaf *slx_shift_room(const struct slx_type *ty,
                                         struct slx_list *L, struct slx_leaf *x,
                                         unsigned *i)
{
    struct slx_leaf *h = L->head;
    struct slx_leaf *nx = slx_next(ty, x, 0);
    struct slx_leaf *pv = slx_prev(ty, x, 0);
    unsigned kpn = ty->kpn;
    slx_purge(ty, nx, NULL); /* (the head has no tombstones) */
    slx_purge(ty, pv, NULL);
    /* A neighbour takes half its free slots, keeping one for v should v
     * land there; nearly full neighbours are left alone (no ping-pong). */
    unsigned need = kpn / 8 > 2 ? kpn / 8 : 2;
    if (nx != h && nx->n + need <= kpn) {
        unsigned m = (kpn - nx->n) / 2;
        slx_compact(ty, nx);
        slx_move_slots(ty, nx, m, nx, 0, nx->n);
        slx_move_slots(ty, nx, 0, x, kpn - m, m);
        nx->n = (uint16_t)(nx->n + m);
        x->n = (uint16_t)(x->n - m);
        slx_min_changed(ty, nx);
        if (slx_is_ranked(ty))
            slx_count_move(ty, x, nx, m);
        if (slx_is_extent(ty)) {
            slx_gap_fix(ty, L, x);
            slx_gap_fix(ty, L, nx);
        }
        if (*i <= x->n)
            return x;
        *i -= x->n;
        return nx;
    }
    if (pv != h && pv->n + need <= kpn) {
        unsigned m = (kpn - pv->n) / 2;
        if (m > *i) /* keep v's place in x or at pv's end */
            m = *i;
        if (m == 0)
            return NULL;
        slx_count_flush(ty, L); /* x may wait (slx_appends_waiting) */
        slx_compact(ty, pv);
        slx_move_slots(ty, pv, pv->n, x, 0, m);
        slx_move_slots(ty, x, 0, x, m, x->n - m);
        pv->n = (uint16_t)(pv->n + m);
        x->n = (uint16_t)(x->n - m);
        slx_min_changed(ty, x);
        if (slx_is_ranked(ty))
            slx_count_move(ty, x, pv, m);
        if (slx_is_extent(ty)) {
            slx_gap_fix(ty, L, pv);
            slx_gap_fix(ty, L, x);
        }
        if (*i >= m) {
            *i -= m;
            return x;
        }
        *i += pv->n - m;
        return pv;
    }
    return NULL;
}

/* Split full leaf x for v going to index i: allocate y and the index
 * nodes its entry may need first (the only allocations of an insert, so
 * -ENOMEM changes nothing), move x's upper slots into y and link y after
 * x. Returns the leaf v goes into. */
SLX_COLD struct slx_leaf *slx_split(const struct slx_type *ty,
                                    struct slx_list *L, struct slx_leaf *x,
                                    unsigned *i, const struct slx_slotval *v)
{
    struct slx_leaf *spare = L->aux->spare; /* y may be it */
    struct slx_leaf *y = slx_alloc_leaf(ty, L);
    if (!y)
        return NULL;
    if (slx_index_reserve(ty, L)) { /* last: it may grow the root */
        if (y == spare)
            L->aux->spare = y;
        else
            slx_free_leaf(ty, L, y);
        return NULL;
    }
    unsigned kpn = ty->kpn;
    /* Appending at the very end (sequential keys) leaves x full and starts
     * y with v alone; one key per node puts v on its own side; otherwise
     * split in half. */
    unsigned keep = kpn / 2;
    if (*i == kpn && slx_next(ty, x, 0) == L->head)
        keep = kpn;
    else if (kpn == 1)
        keep = *i;
    slx_move_slots(ty, y, 0, x, keep, kpn - keep);
    y->n = (uint16_t)(kpn - keep);
    x->n = (uint16_t)keep;
    if (y->n == 0) /* y will start with v: link caches need its key */
        memcpy(slx_key(ty, y, 0), v->key, ty->ks);
    /* what x's entries count of y's slots: all, but none when x had no
     * entry yet (the link then starts the index, counting anew) */
    size_t moved = x->parent ? y->n : 0;
    struct slx_dirty d;
    d.n = 0;
    unsigned h = slx_random_level(ty, L);
    /* An append to the waiting last leaf (slx_appends_waiting) hands the
     * wait to y when y's entry goes into x's node alone; any other link
     * reshapes the last leaf's path, which must be exact first. */
    bool waits = slx_is_ranked(ty) && x->waits;
    bool carry = waits && h == 1 && x->parent->n < x->parent->cap;
    if (waits && !carry)
        slx_count_flush_slow(ty, L, x);
    slx_link_leaf(ty, L, x, y, h, &d);
    if (carry)
        slx_count_carry(ty, L, x, y);
    else if (slx_is_ranked(ty))
        slx_count_linked(ty, x, y, &d, moved);
    if (slx_is_extent(ty)) {
        slx_gap_fix(ty, L, x);
        slx_gap_fix(ty, L, y);
        slx_gap_dirty(ty, &d);
    }
    if (*i > keep || (*i == keep && y->n == 0)) {
        *i -= keep;
        return y;
    }
    return x;
}

/* Room for the first slots of a small list's sole leaf: one, or a group
 * of 8 for a queue whose tombstones are a bitmap (slx_match_window reads
 * whole groups); it doubles from there up to kpn (slx_grow_leaf). */
SLX_HOT unsigned slx_first_cap(const struct slx_type *ty)
{
    unsigned c = slx_is_queue(ty) && SLX_BITMAP_LEAF(ty) ? 8u : 1u;
    return c < ty->kpn ? c : ty->kpn;
}

/* x, the full sole leaf of a small list, moves into a leaf with twice the
 * room, kpn at most (a requeue never needs it: in a sole leaf it finds room
 * once its element is out, so no spare is reserved for it). The
 * physical slots keep their places, so a queue's window and tombstone
 * bits carry over; the head's link, the hooks and nothing else point at
 * x (a sole leaf has no index entry). NULL, x kept, on -ENOMEM. */
SLX_COLD struct slx_leaf *slx_grow_leaf(const struct slx_type *ty,
                                        struct slx_list *L, struct slx_leaf *x)
{
    unsigned cap = x->cap * 2u < ty->kpn ? x->cap * 2u : ty->kpn;
    struct slx_leaf *y = cap < ty->kpn ? slx_alloc_small_leaf(ty, L, cap)
                                       : slx_alloc_leaf(ty, L);
    if (!y)
        return NULL;
    memcpy(slx_link(ty, y, 0), slx_link(ty, x, 0), ty->link_size);
    y->off = x->off;
    y->dead = x->dead;
    y->tombs = x->tombs;
    y->n = x->n;
    size_t ks = ty->ks, used = (size_t)x->off + x->n;
    memcpy(slx_keys0(ty, y), slx_keys0(ty, x), used * ks);
    memcpy(slx_ptrs0(ty, y), slx_ptrs0(ty, x), used * sizeof(void *));
    if (slx_is_extent(ty))
        memcpy(slx_lasts(ty, y), slx_lasts(ty, x), used * ks);
    struct slx_leaf *h = L->head;
    slx_set_next(ty, h, 0, y);
    slx_set_prev(ty, h, 0, y);
    if (slx_is_queue(ty)) {
        void **p = slx_ptrs(ty, y);
        for (unsigned j = 0; j < y->n; j++)
            if (p[j]) /* (tombstones are NULL) */
                slx_hook(ty, p[j])->leaf = y;
    }
    slx_free_leaf(ty, L, x);
    return y;
}

/* Insert v at (x, i), where x is the leaf the search ended in (or the head
 * when v goes first). */
SLX_COLD int slx_insert_at_path(const struct slx_type *ty, struct slx_list *L,
                                struct slx_leaf *x, unsigned i,
                                const struct slx_slotval *v,
                                struct slx_path *path)
{
    if (!slx_appends_waiting(ty, x, i))
        slx_count_flush(ty, L);
    struct slx_leaf *h = L->head;
    if (x == h) {
        x = slx_next(ty, h, 0);
        i = 0;
        if (x == h) { /* empty list: the first leaf */
            /* One level: a small list's searches then descend one level
             * only (the head is tall enough for whatever comes next). */
            unsigned cap = slx_first_cap(ty);
            x = cap < ty->kpn ? slx_alloc_small_leaf(ty, L, cap)
                              : slx_alloc_leaf(ty, L);
            if (!x)
                return -ENOMEM;
            memcpy(slx_key(ty, x, 0), v->key, ty->ks); /* for link caches */
            struct slx_dirty d; /* (no index for one leaf) */
            d.n = 0;
            slx_link_leaf(ty, L, h, x, 1, &d);
        }
    }
    slx_purge(ty, x, &i); /* a full leaf with tombstones has room */
    if (x->n == x->cap && x->cap < ty->kpn) { /* a small list's sole leaf */
        x = slx_grow_leaf(ty, L, x);
        if (!x)
            return -ENOMEM;
    }
    if (x->n == ty->kpn) {
        struct slx_leaf *t = slx_shift_room(ty, L, x, &i);
        if (!t) {
            slx_path_undo(ty, path); /* a split reshapes the path: */
            path = NULL;             /* the count climbs from the leaf */
            t = slx_split(ty, L, x, &i, v);
        }
        if (!t)
            return -ENOMEM;
        x = t;
    }
    slx_place(ty, x, i, v);
    slx_count_step(ty, L, x, path, 1); /* (a shift keeps the path) */
    if (slx_is_extent(ty)) {
        if (i > 0) {
            slx_gap_split(ty, L, x, i);
        } else if (x->n > 1) {
            slx_gap_front_placed(ty, L, x);
        } else {
            slx_gap_fix(ty, L, x);
            slx_gap_fix(ty, L, slx_prev(ty, x, 0));
        }
    }
    slx_added(ty, L, v->elem);
    return 0;
}

SLX_COLD int slx_insert_at(const struct slx_type *ty, struct slx_list *L,
                           struct slx_leaf *x, unsigned i,
                           const struct slx_slotval *v)
{
    return slx_insert_at_path(ty, L, x, i, v, NULL);
}

/* A list without an aux block gets one, and a singleton's element moves
 * into the list's first leaf (a queue's hook then names that leaf).
 * -ENOMEM leaves the list as it was, owning nothing. */
SLX_COLD int slx_materialize(const struct slx_type *ty, struct slx_list *L)
{
    void *e = L->one;
    int rc = slx_aux_alloc(ty, L, NULL);
    if (rc || !e)
        return rc;
    L->one = NULL;
    L->count = 0;
    unsigned char key[SLX_KEY_MAX];
    ty->key_of(e, key);
    struct slx_slotval v = {key, e, 0};
    if (slx_is_extent(ty))
        v.last = slx_load_u(ty, key) + (ty->size_of(e) - 1u);
    rc = slx_insert_at(ty, L, L->head, 0, &v);
    if (rc) {
        slx_destroy(ty, L, NULL, NULL); /* the aux block, nothing else */
        L->head = (struct slx_leaf *)(uintptr_t)ty->empty;
        slx_one_put(ty, L, e);
    }
    return rc;
}

/* Insert v at (x, i) as the search found it (x is the head when v goes
 * first). The common case, a leaf with room, stays inline; splits and
 * shifts go out of line. */
SLX_HOT int slx_insert_slot(const struct slx_type *ty, struct slx_list *L,
                            struct slx_leaf *x, unsigned i,
                            const struct slx_slotval *v, struct slx_path *path)
{
    if (x == L->head) {
        struct slx_leaf *f = slx_next(ty, x, 0);
        if (f != L->head) {
            x = f;
            i = 0;
        }
    }
    if (x != L->head && (x->n < x->cap || x->dead)) {
        slx_place(ty, x, i, v);
        slx_count_step(ty, L, x, path, 1);
        slx_added(ty, L, v->elem);
        return 0;
    }
    return slx_insert_at_path(ty, L, x, i, v, path);
}

/* (x, i), where key goes, as found: insert e there unless the first slot
 * >= key holds key already. pp: the descent's counts (ranked), or NULL. */
SLX_HOT int slx_insert_unique_at(const struct slx_type *ty, struct slx_list *L,
                                 void *e, const unsigned char *key,
                                 struct slx_leaf *x, unsigned i,
                                 struct slx_path *pp, void **existing)
{
    /* The first slot >= key is (x, i) or, past x's slots (or x the head),
     * the next leaf's first, whose key x's level-0 link caches. An empty
     * sole leaf has no first slot (and a stale cached key). */
    struct slx_leaf *c = x;
    const void *ck = NULL;
    unsigned at = i; /* the first live slot from i: a tombstone's stale key
                      * is no clash, and v still goes at i, before it */
    if (x != L->head && i < x->n) {
        if (slx_is_queue(ty))
            at = slx_live_from(ty, x, i);
        ck = slx_key(ty, x, at);
    } else {
        c = slx_next(ty, x, 0);
        /* A queue's sole leaf has no fresh copy of its first key in the
         * head (slx_sole_queue_leaf): read the leaf itself. */
        if (c != L->head && c->n)
            ck = slx_sole_queue_leaf(ty, c) ? slx_keys(ty, c)
                                            : slx_nmin(ty, x, 0);
    }
    if (ck && ty->cmp(ck, key) == 0) {
        if (existing)
            *existing = slx_ptrs(ty, c)[c == x ? at : 0];
        slx_path_undo(ty, pp);
        return -EEXIST;
    }
    struct slx_slotval v = {key, e, 0};
    return slx_insert_slot(ty, L, x, i, &v, pp);
}

/* Every insert of one element starts here: e given, the list writable,
 * e's key read into key (0). Else slx_insert_begun's cases: an error, e
 * the list's singleton now (1), or the singleton just moved into a leaf
 * (2). */
SLX_HOT int slx_insert_begin(const struct slx_type *ty, struct slx_list *L,
                             void *e, unsigned char *key, void **existing,
                             int unique)
{
    if (!e)
        return -EINVAL;
    if (SLX_UNLIKELY(!L->aux))
        return slx_one_add(ty, L, e, existing, unique);
    ty->key_of(e, key);
    return 0;
}

SLX_COLD int slx_insert_begun(const struct slx_type *ty, struct slx_list *L,
                              void *e, void **existing, int unique, int rc);

/* e, whose key is past every key in the list, at the end of x, the last
 * leaf, which has room (the ordered index: no window, no tombstones, no
 * clash to look for): an ascending load's every insert but the splits',
 * in a few stores and no branch on i, unlike slx_place. */
SLX_HOT int slx_append(const struct slx_type *ty, struct slx_list *L,
                       struct slx_leaf *x, void *e, const unsigned char *key)
{
    unsigned n = x->n;
    void **p = slx_ptrs(ty, x) + n; /* (before the key's store, which the
                                     * compiler cannot tell from x->cap) */
    memcpy(slx_key(ty, x, n), key, ty->ks);
    *p = e;
    x->n = (uint16_t)(n + 1u);
    slx_count_step(ty, L, x, NULL, 1);
    slx_added(ty, L, e);
    return 0;
}

/* slx_insert_unique through a descent from the root: the key goes before
 * the last leaf's first. A ranked instance's descent records the counts
 * it passes (struct slx_path). */
SLX_HOT int slx_insert_descend(const struct slx_type *ty, struct slx_list *L,
                               void *e, const unsigned char *key,
                               void **existing)
{
    struct slx_path path, *pp = slx_is_ranked(ty) ? &path : NULL;
    path.pre = 1;
    struct slx_leaf *x = slx_descend_path(ty, L, key, SLX_LT, pp);
    unsigned i = x == L->head ? 0 : slx_leaf_search(ty, x, key, SLX_LT);
    return slx_insert_unique_at(ty, L, e, key, x, i, pp, existing);
}

/* slx_insert_unique once slx_insert_begin has let e through and read its
 * key: where name_insert's inline part, which read the key already, goes
 * when e is not an append (name_slx_insert_keyed). */
SLX_HOT int slx_insert_unique_keyed(const struct slx_type *ty,
                                    struct slx_list *L, void *e,
                                    const unsigned char *key, void **existing)
{
    /* Keys past the last leaf's first one (ascending loads, appends) go
     * there without a descent; every insert reads that leaf's first key,
     * so it stays cached. Past its last key too (an ascending load's
     * every key) they go at its end without a search: the bisection's
     * chained probes were half of an append's time. (Into a leaf with
     * room, name_insert has appended already: slx_insert_append_inline.)
     * The last leaf's counts wait (slx_count_step): an append passes no
     * path. */
    struct slx_leaf *x = slx_prev(ty, L->head, 0);
    unsigned i;
    if (x == L->head || x->n == 0 || !ty->less(slx_keys(ty, x), key))
        return slx_insert_descend(ty, L, e, key, existing);
    if (ty->less(slx_key(ty, x, x->n - 1u), key))
        i = x->n; /* (a queue's last slot is never a tombstone) */
    else
        i = slx_leaf_search(ty, x, key, SLX_LT);
    return slx_insert_unique_at(ty, L, e, key, x, i, NULL, existing);
}

SLX_HOT int slx_insert_unique(const struct slx_type *ty, struct slx_list *L,
                              void *e, void **existing)
{
    unsigned char key[SLX_KEY_MAX];
    int rc = slx_insert_begin(ty, L, e, key, existing, 1);
    if (SLX_UNLIKELY(rc))
        return slx_insert_begun(ty, L, e, existing, 1, rc);
    return slx_insert_unique_keyed(ty, L, e, key, existing);
}

/* What name_insert's inline part (slx_insert_append_inline) leaves to
 * the out-of-line part, and which one does it. */
enum slx_append_left {
    SLX_APPENDED = 0,     /* nothing: e is in */
    SLX_LEFT_KEYED = 1,   /* key read, at or past the last leaf's first:
                           * name_slx_insert_keyed (slx_insert_unique_keyed) */
    SLX_LEFT_UNREAD = 2,  /* no e, or a list without its block (empty, or
                           * the singleton), key not read:
                           * name_slx_insert_slow (slx_insert_unique) */
    SLX_LEFT_DESCEND = 3, /* key read, before the last leaf's first (a
                           * random key, mostly): name_slx_insert_descend
                           * (slx_insert_descend) */
};

/* name_insert's inline part: e, its key past every key of an ordered
 * index, goes at the end of the last leaf when that has room (an ascending
 * load's every insert but the splits') with no call (SLX_APPENDED).
 * Otherwise what is left (enum slx_append_left); a key read is in key.
 * Inline there, the descent's frame (a ranked instance's path record above
 * all) crowded this path off its registers: it reloaded the key from the
 * stack, and insert_seq took 1.2x the unranked time. */
SLX_HOT int slx_insert_append_inline(const struct slx_type *ty,
                                     struct slx_list *L, void *e,
                                     unsigned char *key)
{
    if (slx_is_queue(ty) || slx_is_extent(ty) || !e || SLX_UNLIKELY(!L->aux))
        return SLX_LEFT_UNREAD;
    ty->key_of(e, key);
    /* The last leaf, or the head when there is none: the head has no
     * slots, so n == 0 answers for both. A key before the leaf's first
     * goes to the descent with no more tests here or there: the test
     * out of line made (slx_insert_unique_keyed) is made here instead. */
    struct slx_leaf *x = slx_prev(ty, L->head, 0);
    unsigned n = x->n;
    if (n == 0)
        return SLX_LEFT_KEYED;
    if (!ty->less(slx_keys(ty, x), key))
        return SLX_LEFT_DESCEND;
    if (!ty->less(slx_key(ty, x, n - 1u), key) || n >= x->cap)
        return SLX_LEFT_KEYED;
    return slx_append(ty, L, x, e, key);
}

/* Whether key goes into the last leaf (at or after its first key, after
 * equal keys). Queues ask before descending: a queue's pushes are mostly
 * later than most of what is queued (the hold model sends a large share
 * into the last leaf), and that leaf is hot. */
SLX_HOT int slx_goes_last(const struct slx_type *ty, const struct slx_list *L,
                          const void *key)
{
    const struct slx_leaf *last = slx_prev(ty, L->head, 0);
    return last != L->head && last->n > 0 && !ty->less(key, slx_keys(ty, last));
}

/* After every equal key: FIFO among duplicates. */
SLX_HOT int slx_insert_multi(const struct slx_type *ty, struct slx_list *L,
                             void *e)
{
    unsigned char key[SLX_KEY_MAX];
    int rc = slx_insert_begin(ty, L, e, key, NULL, 0);
    if (SLX_UNLIKELY(rc))
        return slx_insert_begun(ty, L, e, NULL, 0, rc);
    struct slx_leaf *x;
    struct slx_path path, *pp = NULL;
    if (slx_sole_leaf(ty, L)) { /* a small list or queue: no levels */
        x = slx_next(ty, L->head, 0);
    } else if (slx_is_queue(ty) && slx_goes_last(ty, L, key)) {
        x = slx_prev(ty, L->head, 0);
    } else {
        pp = slx_is_ranked(ty) ? &path : NULL;
        path.pre = 1;
        x = slx_descend_path(ty, L, key, SLX_LE, pp);
    }
    unsigned i = x == L->head ? 0 : slx_leaf_search(ty, x, key, SLX_LE);
    struct slx_slotval v = {key, e, 0};
    return slx_insert_slot(ty, L, x, i, &v, pp);
}

/* An insert that slx_insert_begin did not let through (rc != 0): an
 * error, or e made the singleton (1), is the insert's answer. After the
 * singleton moved into a leaf (2), e goes in the usual way, and should
 * that fail (-ENOMEM) the list is the singleton again, as it was. */
SLX_COLD int slx_insert_begun(const struct slx_type *ty, struct slx_list *L,
                              void *e, void **existing, int unique, int rc)
{
    if (rc != 2)
        return rc > 0 ? 0 : rc;
    rc = unique ? slx_insert_unique(ty, L, e, existing)
                : slx_insert_multi(ty, L, e);
    if (rc)
        slx_one_restore(ty, L);
    return rc;
}

/* --- remove -------------------------------------------------------- */

/* Leaf x is empty: unlink and free it. */
SLX_COLD void slx_drop_leaf(const struct slx_type *ty, struct slx_list *L,
                            struct slx_leaf *x)
{
    struct slx_leaf *pv = slx_prev(ty, x, 0);
    struct slx_inode *up = x->parent;
    struct slx_dirty d;
    d.n = 0;
    slx_unlink(ty, L, x, &d);
    slx_free_leaf(ty, L, x);
    /* x held no slots (its callers counted them out), so its entry's
     * leaving changes no count unless nodes merged or emptied. */
    if (slx_is_ranked(ty) && !(d.n == 1 && d.node[0] == up))
        slx_count_dirty(ty, &d);
    if (slx_is_extent(ty)) {
        slx_gap_fix(ty, L, pv);
        slx_gap_dirty(ty, &d);
    }
}

/* After a removal left x with few slots, merge it with a neighbour when
 * their slots fit in three quarters of a leaf, keeping occupancy up. */
SLX_COLD void slx_rebalance(const struct slx_type *ty, struct slx_list *L,
                            struct slx_leaf *x)
{
    slx_count_flush(ty, L);
    struct slx_leaf *h = L->head;
    /* merging moves slots between leaves: tombstones go first (the head
     * has none) */
    slx_purge(ty, x, NULL);
    slx_purge(ty, slx_next(ty, x, 0), NULL);
    slx_purge(ty, slx_prev(ty, x, 0), NULL);
    if (x->n == 0) {
        /* The sole leaf stays when the list empties: a queue that drains
         * and refills (the common case of a runqueue) then never unlinks
         * or allocates. Extents drop it: their gap summaries assume every
         * linked leaf holds an extent. */
        if (L->aux->nleaves == 1 && !slx_is_extent(ty))
            return;
        slx_drop_leaf(ty, L, x);
        return;
    }
    if (x->n > ty->kpn / 4)
        return;
    unsigned room = ty->kpn - ty->kpn / 4;
    struct slx_leaf *nx = slx_next(ty, x, 0);
    struct slx_leaf *pv = slx_prev(ty, x, 0);
    if (nx != h && x->n + nx->n <= room) {
        slx_compact(ty, x);
        slx_move_slots(ty, x, x->n, nx, 0, nx->n);
        if (slx_is_ranked(ty)) /* nx leaves with no count above it */
            slx_count_move(ty, nx, x, nx->n);
        x->n = (uint16_t)(x->n + nx->n);
        nx->n = 0;
        slx_drop_leaf(ty, L, nx);
        if (slx_is_extent(ty))
            slx_gap_fix(ty, L, x);
    } else if (pv != h && x->n + pv->n <= room) {
        slx_compact(ty, pv);
        slx_move_slots(ty, pv, pv->n, x, 0, x->n);
        if (slx_is_ranked(ty))
            slx_count_move(ty, x, pv, x->n);
        pv->n = (uint16_t)(pv->n + x->n);
        x->n = 0;
        slx_drop_leaf(ty, L, x);
    }
}

/* Remove slot (x, i) without rebalancing; x may be left empty. */
SLX_HOT void *slx_take_at(const struct slx_type *ty, struct slx_list *L,
                          struct slx_leaf *x, unsigned i, int trim,
                          struct slx_path *path)
{
    size_t ks = ty->ks;
    unsigned n = x->n, off = slx_off(ty, x);
    unsigned char *k = slx_keys(ty, x);
    void **p = slx_ptrs0_by_cap(ty, x) + off;
    void *e = p[i];
    unsigned after = n - i - 1u;
    uint64_t start0 = 0, last0 = 0; /* an extent's, when i == 0 */
    if (slx_is_extent(ty) && i == 0) {
        start0 = slx_load_u(ty, k);
        last0 = slx_load_u(ty, slx_lasts(ty, x));
    }
    /* A queue leaf's middle slot becomes a tombstone (see slx_purge),
     * unless the window is short and has none: then the shift moves at
     * most 16 slots, and a small queue's pushes keep their fast path
     * (slx_push_small hands leaves with tombstones to the general push).
     * A leaf with tombstones never shifts its middle: the shift would
     * have to carry the tombstone bits. */
    if (slx_is_queue(ty) && (n > SLX_TOMB_WINDOW || x->dead) && i > 0 &&
        after > 0) {
        p[i] = NULL;
        x->dead = (uint16_t)(x->dead + 1u);
        if (SLX_BITMAP_LEAF(ty))
            x->tombs |= UINT64_C(1) << (off + i);
        slx_unhook(ty, e);
        L->count--;
        L->stamp++;
        return e;
    }
    if (slx_is_queue(ty) && i <= after) { /* windowed: close from the front */
        slx_memmove(k + ks, k, i, ks);
        slx_memmove(p + 1, p, i, sizeof(void *));
        x->off = (uint16_t)(n > 1 ? off + 1 : 0);
    } else {
        slx_memmove(k + i * ks, k + (i + 1) * ks, after, ks);
        slx_memmove(p + i, p + i + 1, after, sizeof(void *));
        if (slx_is_extent(ty)) {
            unsigned char *la = slx_lasts(ty, x);
            slx_memmove(la + i * ks, la + (i + 1) * ks, after, ks);
        }
        if (n == 1)
            x->off = 0;
    }
    x->n = (uint16_t)(n - 1);
    slx_unhook(ty, e);
    if (trim && slx_is_queue(ty) && SLX_UNLIKELY(x->dead))
        slx_trim(ty, x);
    if (i == 0 && x->n > 0)
        slx_min_changed(ty, x);
    slx_count_step(ty, L, x, path, (size_t)0 - 1u);
    if (slx_is_extent(ty) && x->n > 0) {
        if (i > 0)
            slx_gap_merge(ty, L, x, i);
        else /* x's first extent left: its predecessor's run grew */
            slx_gap_front_taken(ty, L, x, start0, last0);
    }
    L->count--;
    L->stamp++;
    return e;
}

SLX_HOT void *slx_take(const struct slx_type *ty, struct slx_list *L,
                       struct slx_leaf *x, unsigned i)
{
    return slx_take_at(ty, L, x, i, 1, NULL);
}

/* Remove slot (x, i) and rebalance x; path: see slx_count_step. */
SLX_HOT void *slx_remove_path(const struct slx_type *ty, struct slx_list *L,
                              struct slx_leaf *x, unsigned i,
                              struct slx_path *path)
{
    void *e = slx_take_at(ty, L, x, i, 1, path);
    /* A sole leaf has no neighbour to merge with and stays when empty
     * (extents excepted, see slx_rebalance). The leaf's own count first:
     * it is on a line the removal wrote, the leaf count on the aux
     * block's, which most removals then need not read. */
    unsigned live = slx_is_queue(ty) ? (unsigned)(x->n - x->dead) : x->n;
    if (live <= ty->kpn / 4 &&
        (L->aux->nleaves > 1 || (x->n == 0 && slx_is_extent(ty))))
        slx_rebalance(ty, L, x);
    return e;
}

SLX_HOT void *slx_remove_at(const struct slx_type *ty, struct slx_list *L,
                            struct slx_leaf *x, unsigned i)
{
    return slx_remove_path(ty, L, x, i, NULL);
}

/* slx_pop_first of a queue whose first leaf has tombstones. */
SLX_COLD void *slx_pop_first_dead(const struct slx_type *ty, struct slx_list *L,
                                  struct slx_leaf *x)
{
    void *e = slx_take(ty, L, x, 0);
    if (x->n == 0 && L->aux->nleaves > 1)
        slx_rebalance(ty, L, x);
    return e;
}

/* The minimum, removed. The first leaf's predecessors on every level are
 * the head, so its cached first key is refreshed without walking. */
SLX_HOT void *slx_pop_first(const struct slx_type *ty, struct slx_list *L)
{
    struct slx_leaf *x = slx_next(ty, L->head, 0);
    if (x == L->head)
        return SLX_UNLIKELY(L->one) ? slx_one_take(ty, L) : NULL;
    if (x->n == 0)
        return NULL;
    if (!slx_is_queue(ty))
        return slx_remove_at(ty, L, x, 0);
    if (SLX_UNLIKELY(x->dead))
        return slx_pop_first_dead(ty, L, x);
    /* A queue: slx_take only moves the window's front up (and without
     * tombstones, none to move past: the trim stays out of this path's
     * registers). The front leaf drains by pops, so merging its last few
     * slots with the next leaf would move elements about to leave; it
     * goes when empty (the sole leaf stays, see slx_rebalance). */
    void *e = slx_take_at(ty, L, x, 0, 0, NULL);
    if (SLX_UNLIKELY(x->n == 0)) {
        if (L->aux->nleaves > 1)
            slx_rebalance(ty, L, x);
    } else if (L->aux->nleaves > 1) {
        /* The next pop returns this element, and its caller will read it
         * (a runqueue its task, a timer wheel its expiry): in a large
         * queue it was pushed long ago and is cold. (A one-leaf queue's
         * elements were pushed a few operations ago.) */
        SLX_PREFETCH(slx_ptrs(ty, x)[0]);
    }
    return e;
}

SLX_HOT void *slx_pop_last(const struct slx_type *ty, struct slx_list *L)
{
    struct slx_leaf *x = slx_prev(ty, L->head, 0);
    if (x == L->head)
        return slx_one_take(ty, L);
    if (x->n == 0)
        return NULL;
    return slx_remove_at(ty, L, x, x->n - 1u);
}

/* Where element e sits: (leaf, index) or NULL. Uses the hook when there
 * is one, else a search plus a scan over equal keys (the search records
 * path: see slx_descend_path). */
SLX_HOT struct slx_leaf *slx_locate_path(const struct slx_type *ty,
                                         const struct slx_list *L,
                                         const void *e, unsigned *idx,
                                         struct slx_path *path)
{
    if (slx_is_queue(ty)) {
        struct slx_leaf *x = slx_get_hook(ty, e);
        if (!x || slx_hook(ty, e)->list != L)
            return NULL; /* not queued, or queued in another list */
        unsigned i;
        if (SLX_BITMAP_LEAF(ty) && x->n > 16) {
            /* no exit branch: a batch of removals overlaps its misses */
            uint64_t m = slx_match_window(ty, x, e);
            if (!m)
                return NULL;
            i = (unsigned)__builtin_ctzll(m);
        } else {
            i = slx_find_ptr(slx_ptrs(ty, x), x->n, e);
            if (i == x->n)
                return NULL;
        }
        *idx = i;
        return x;
    }
    unsigned char key[SLX_KEY_MAX];
    ty->key_of(e, key);
    unsigned i;
    struct slx_leaf *x = slx_bound_path(ty, L, key, SLX_LT, &i, path);
    struct slx_leaf *found = NULL;
    while (x != L->head && ty->cmp(slx_key(ty, x, i), key) == 0) {
        if (slx_ptrs(ty, x)[i] == e) {
            found = x;
            *idx = i;
            break;
        }
        if (++i == x->n) {
            x = slx_next(ty, x, 0);
            i = 0;
        }
    }
    return found;
}

SLX_HOT struct slx_leaf *slx_locate(const struct slx_type *ty,
                                    const struct slx_list *L, const void *e,
                                    unsigned *idx)
{
    return slx_locate_path(ty, L, e, idx, NULL);
}

/* e's slot as (*x, *i), or the code erase, remove and requeue answer:
 * -EINVAL for no element, -ENOENT when e is not in L. */
SLX_HOT int slx_find_elem_path(const struct slx_type *ty,
                               const struct slx_list *L, const void *e,
                               struct slx_leaf **x, unsigned *i,
                               struct slx_path *path)
{
    if (!e)
        return -EINVAL;
    *x = slx_locate_path(ty, L, e, i, path);
    return *x ? 0 : -ENOENT;
}

SLX_HOT int slx_find_elem(const struct slx_type *ty, const struct slx_list *L,
                          const void *e, struct slx_leaf **x, unsigned *i)
{
    return slx_find_elem_path(ty, L, e, x, i, NULL);
}

/* name_erase and name_remove, the general way: find e's slot (through
 * the hook for a queue, by key otherwise) and take it out. */
SLX_HOT int slx_erase(const struct slx_type *ty, struct slx_list *L, void *e)
{
    struct slx_leaf *x;
    unsigned i;
    struct slx_path path;
    struct slx_path *pp = slx_is_ranked(ty) ? &path : NULL;
    path.pre = (size_t)0 - 1u;
    path.leaf = NULL; /* (no element: -EINVAL before any descent) */
    int rc = slx_find_elem_path(ty, L, e, &x, &i, pp);
    if (rc) {
        slx_path_undo(ty, pp);
        return rc == -ENOENT && e == L->one && slx_one_take(ty, L) ? 0 : rc;
    }
    slx_remove_path(ty, L, x, i, pp);
    return 0;
}

/* name_erase_key: remove the first element with key, handing it back. */
SLX_HOT int slx_erase_key(const struct slx_type *ty, struct slx_list *L,
                          const void *key, void **out)
{
    unsigned i;
    struct slx_path path;
    struct slx_path *pp = slx_is_ranked(ty) ? &path : NULL;
    path.pre = (size_t)0 - 1u;
    struct slx_leaf *x = slx_bound_path(ty, L, key, SLX_LT, &i, pp);
    void *e;
    if (x == L->head) {
        slx_path_undo(ty, pp);
        e = slx_one_find(ty, L, key) ? slx_one_take(ty, L) : NULL;
        if (out && e)
            *out = e;
        return e ? 0 : -ENOENT;
    }
    if (ty->cmp(slx_key(ty, x, i), key) != 0) {
        slx_path_undo(ty, pp);
        return -ENOENT;
    }
    e = slx_remove_path(ty, L, x, i, pp);
    if (out)
        *out = e;
    return 0;
}

/* --- queue fast paths and entry points ----------------------------- */

/* A small queue's sole leaf whose window reached its end, the push to come
 * filling more than a quarter of it (under 32 slots) or more than half
 * (from 32): a queue that pops and pushes at that size would move its
 * whole window back every few pushes (every push, full), so the leaf
 * doubles instead. A queue held at n <= 8 ends in a leaf of the first
 * power of two >= 4n slots and moves its window back once per 3n pushes
 * or more (slx_compact_inline); a larger one, >= 2n slots and once per n
 * pushes, which keeps a queue held at 16 at 63 bytes an element where a
 * quarter took 96 (2.2.2's full leaf: 88). Half full everywhere made
 * hold at n = 4 1.38x the time of 2.2.2's KPN-slot leaf, against 1.20x
 * (docs/lab-notes.md, "Small queues: the pop inlined, and a quarter
 * full"). The growth is slack, not room: on -ENOMEM the leaf stays and
 * the push compacts as before. */
SLX_COLD struct slx_leaf *slx_grow_for_slack(const struct slx_type *ty,
                                             struct slx_list *L,
                                             struct slx_leaf *x)
{
    struct slx_leaf *y = slx_grow_leaf(ty, L, x);
    return y ? y : x;
}

/* A push's fast path: the list is one leaf with room, the state of every
 * small queue. Returns 0 when it has not pushed (the caller goes the
 * general way). Kept apart so that the function it is inlined into needs
 * few registers and no frame for the common case. */
SLX_HOT int slx_push_small(const struct slx_type *ty, struct slx_list *L,
                           void *e)
{
    if (SLX_UNLIKELY(!slx_sole_leaf(ty, L)))
        return 0;
    struct slx_leaf *x = slx_next(ty, L->head, 0);
    if (x->n >= x->cap || x->dead) /* tombstones: see slx_place */
        return 0;
    if (x->off + x->n == x->cap && x->cap < ty->kpn &&
        (x->cap < 32u ? 4u : 2u) * (x->n + 1u) > x->cap) /* (e counted) */
        x = slx_grow_for_slack(ty, L, x);
    unsigned char key[SLX_KEY_MAX];
    ty->key_of(e, key);
    struct slx_slotval v = {key, e, 0};
    unsigned i = slx_leaf_search(ty, x, key, SLX_LE);
    /* Pops move the window right. Pinned at the leaf's end, it would
     * take every later append as a shift of the whole window by one
     * (slx_place): move it back to slot 0 once instead, which leaves
     * kpn - n appends for slx_push_edge (at least kpn / 8, so that the
     * move costs at most 8 slots per push). Here, not in slx_place, so
     * that longer queues do not pay for the test (docs/lab-notes.md). */
    if (i == x->n && x->off + x->n == x->cap && x->n <= x->cap - x->cap / 8)
        slx_compact_inline(ty, x);
    slx_place(ty, x, i, &v);
    slx_added(ty, L, e);
    return 1;
}

/* The cheapest push: into a sole queue leaf, at the window's end (key at
 * or after the last: FIFO among equals) or, with a free slot before the
 * window, at its front (key before the first). Nothing moves; tombstones
 * inside the window do not matter (its ends are live, and the tombstone
 * bits outside it are clear); a sole leaf's first key has no copies to
 * refresh (slx_sole_queue_leaf). Every push into an empty queue takes it,
 * and nearly every one at two queued (one element left after the pop, and
 * the pop freed the slot before it); a queue that has held at most one
 * element keeps it as the singleton, here too. Returns 0 when it has not
 * pushed.
 * Small, with no calls, so that it inlines into a caller's loop without
 * saving registers. */
SLX_HOT int slx_push_edge(const struct slx_type *ty, struct slx_list *L,
                          void *e)
{
    if (!slx_is_queue(ty))
        return 0;
    if (SLX_UNLIKELY(!slx_sole_leaf(ty, L))) { /* an empty list without
                                                * its block takes e as its
                                                * singleton */
        if (L->aux || L->one)
            return 0;
        slx_one_put(ty, L, e);
        return 1;
    }
    struct slx_leaf *x = slx_next(ty, L->head, 0);
    unsigned n = x->n, off = n ? x->off : 0u, s;
    unsigned char key[SLX_KEY_MAX];
    ty->key_of(e, key);
    unsigned char *k = slx_keys0(ty, x);
    if (off + n < x->cap &&
        (n == 0 || !ty->less(key, k + (size_t)(off + n - 1u) * ty->ks)))
        s = off + n;
    else if (off > 0 && ty->less(key, k + (size_t)off * ty->ks))
        s = --off;
    else
        return 0;
    void **p = slx_ptrs0_by_cap(ty, x); /* (before the key's store, which
                                         * the compiler cannot tell from
                                         * x->cap) */
    memcpy(k + (size_t)s * ty->ks, key, ty->ks);
    p[s] = e;
    x->off = (uint16_t)off;
    x->n = (uint16_t)(n + 1u);
    slx_set_hook(ty, e, x);
    slx_added(ty, L, e);
    return 1;
}

/* The cheapest pop: the front of a sole queue leaf without tombstones
 * (the window's front moves up; an emptied sole leaf stays). NULL when
 * the caller must take the general way (slx_pop_first), which also
 * answers for an empty queue. It repeats slx_take_at's front case rather
 * than calling it, which would ask whether the leaf's first key has
 * copies to refresh: a sole leaf never has (docs/lab-notes.md). */
SLX_HOT void *slx_pop_edge(const struct slx_type *ty, struct slx_list *L)
{
    if (!slx_is_queue(ty))
        return NULL;
    if (SLX_UNLIKELY(!slx_sole_leaf(ty, L))) /* (a singleton, or NULL) */
        return L->aux ? NULL : slx_one_take(ty, L);
    struct slx_leaf *x = slx_next(ty, L->head, 0);
    unsigned n = x->n, off = x->off;
    if (n == 0 || x->dead)
        return NULL;
    void *e = slx_ptrs0_by_cap(ty, x)[off];
    x->off = (uint16_t)(n > 1 ? off + 1u : 0u);
    x->n = (uint16_t)(n - 1u);
    slx_unhook(ty, e);
    L->count--;
    L->stamp++;
    return e;
}

/* A queue removal's fast path: e in a sole leaf whose window is at most
 * 16 slots and has no tombstones (every small queue). A short scan finds
 * it and the gap closes on the shorter side; a sole queue leaf never
 * rebalances. Returns 1 when it removed e, 0 when the caller must take
 * the general way (slx_locate, slx_remove_at), which also answers for an
 * e not queued in L. Kept this small so that a caller's removal loop,
 * into which it is inlined, keeps its values in registers. */
SLX_HOT int slx_remove_small(const struct slx_type *ty, struct slx_list *L,
                             void *e)
{
    if (!slx_is_queue(ty))
        return 0;
    struct slx_leaf *x = slx_get_hook(ty, e);
    if (!x || slx_hook(ty, e)->list != L)
        return 0; /* not queued in L: the general way answers */
    /* A list with an index has two leaves or more, and no singleton: a
     * large queue leaves here, before the singleton's test. */
    if (slx_max_index(ty) > 0 && L->root != NULL)
        return 0;
    if (SLX_UNLIKELY(x == ty->empty)) /* L's singleton, if e is it */
        return e == L->one && slx_one_take(ty, L) != NULL;
    /* x is a leaf of L; with no index it is the only one. (Asking
     * slx_sole_leaf would load the head's link, a line of the aux block
     * that a removal otherwise never reads.) */
    if (slx_max_index(ty) == 0 && !slx_sole_leaf(ty, L))
        return 0;
    if (x->n > 16 || x->dead)
        return 0;
    unsigned i = slx_find_ptr(slx_ptrs0_by_cap(ty, x) + x->off, x->n, e);
    if (i == x->n)
        return 0;
    slx_take_at(ty, L, x, i, 0, NULL);
    return 1;
}

/* Priority queue: e's key changed; move it to its new place (after equal
 * keys). In place when the order allows, else take it out and insert it
 * again; should that insert fail for memory, e goes back where it was
 * (its old slot is still free), so -ENOMEM leaves e queued at its old key. */
SLX_COLD int slx_requeue(const struct slx_type *ty, struct slx_list *L, void *e)
{
    struct slx_leaf *x;
    unsigned i;
    int rc = slx_find_elem(ty, L, e, &x, &i);
    if (rc) /* a singleton has no order to restore */
        return rc == -ENOENT && e == L->one ? 0 : rc;
    unsigned char key[SLX_KEY_MAX];
    ty->key_of(e, key);
    struct slx_leaf *h = L->head;
    struct slx_leaf *pv = slx_prev(ty, x, 0);
    struct slx_leaf *nx = slx_next(ty, x, 0);
    const void *before = i > 0     ? slx_key(ty, x, i - 1)
                         : pv != h ? slx_key(ty, pv, pv->n - 1u)
                                   : NULL;
    const void *after = i + 1u < x->n ? slx_key(ty, x, i + 1)
                        : nx != h     ? slx_nmin(ty, x, 0)
                                      : NULL;
    if ((!before || ty->cmp(before, key) <= 0) &&
        (!after || ty->cmp(key, after) < 0)) {
        memcpy(slx_key(ty, x, i), key, ty->ks);
        if (i == 0)
            slx_min_changed(ty, x);
        L->stamp++;
        return 0;
    }
    /* Reserve the leaf and the index nodes the re-insert may need, so
     * that once e is out nothing can fail: -ENOMEM here leaves e queued at
     * its old key. A re-insert into a leaf with room needs nothing: e's
     * own leaf once e is out (unless e is all it holds: it goes), or
     * another with a free slot (a merge caused by e's removal leaves the
     * merged leaf three quarters full at most). */
    struct slx_leaf *dst = slx_descend(ty, L, key, SLX_LE);
    if (dst == h)
        dst = slx_next(ty, h, 0);
    int roomy = (dst == x && x->n > 1) || dst->n < dst->cap || dst->dead;
    struct slx_leaf *spare = NULL;
    if (!roomy && !L->aux->spare) {
        spare = slx_alloc_leaf(ty, L);
        if (!spare)
            return -ENOMEM;
    }
    if (!roomy && slx_index_reserve(ty, L)) { /* last: it may grow the root */
        if (spare)
            slx_free_leaf(ty, L, spare);
        return -ENOMEM;
    }
    if (spare)
        L->aux->spare = spare;
    slx_remove_at(ty, L, x, i);
    rc = slx_insert_multi(ty, L, e);
    (void)rc; /* cannot fail: the spare covers the only allocation */
    return 0;
}

/* name_push past its inline edge case: a sole leaf with room, else the
 * general insert after equal keys. */
SLX_HOT int slx_push_slow(const struct slx_type *ty, struct slx_list *L,
                          void *e)
{
    if (slx_push_small(ty, L, e))
        return 0;
    return slx_insert_multi(ty, L, e);
}

/* Whether e is queued (in L, or in any queue when L is NULL). */
SLX_HOT bool slx_queued(const struct slx_type *ty, const struct slx_list *L,
                        const void *e)
{
    const struct skiplist_hook *h = slx_hook(ty, e);
    return h->leaf != NULL && (!L || h->list == L);
}

/* name_push's checks: -EINVAL for no element, -EEXIST when e is queued in
 * this queue. Only a hook naming L with a leaf counts as queued: a hook
 * never zeroed (stack or malloc garbage) is overwritten, never trusted. */
SLX_HOT int slx_push_refused(const struct slx_type *ty,
                             const struct slx_list *L, const void *e)
{
    if (!e)
        return -EINVAL;
    const struct skiplist_hook *h = slx_hook(ty, e);
    return h->leaf && h->list == L ? -EEXIST : 0;
}

/* --- iteration ----------------------------------------------------- */

/* The iterator stands on leaf x now: its pointer array, once. (The
 * head, where an iterator ends or stands on the singleton, has none.) */
SLX_HOT void slx_iter_load(const struct slx_type *ty, struct slx_iter *it,
                           struct slx_leaf *x)
{
    it->leaf = x;
    it->ptrs = x != it->list->head ? slx_ptrs(ty, x) : NULL;
}

SLX_HOT void *slx_iter_set(const struct slx_type *ty, const struct slx_list *L,
                           struct slx_iter *it, struct slx_leaf *x, unsigned i)
{
    it->list = L;
    slx_iter_load(ty, it, x);
    it->idx = i;
    it->stamp = slx_stamp(L);
    return slx_slot(ty, L, x, i);
}

SLX_HOT void *slx_iter_first(const struct slx_type *ty,
                             const struct slx_list *L, struct slx_iter *it)
{
    it->lim = 0; /* the _SAFE loop's rank: no equal key before the first */
    struct slx_leaf *x = slx_next(ty, L->head, 0);
    return slx_iter_set(ty, L, it, x,
                        x == L->head && L->one); /* (head, 1):
                                                  * the singleton */
}

SLX_HOT void *slx_iter_last(const struct slx_type *ty, const struct slx_list *L,
                            struct slx_iter *it)
{
    struct slx_leaf *x = slx_prev(ty, L->head, 0);
    return slx_iter_set(ty, L, it, x,
                        x == L->head ? L->one != NULL : x->n - 1u);
}

SLX_HOT void *slx_iter_seek(const struct slx_type *ty, const struct slx_list *L,
                            struct slx_iter *it, const void *key)
{
    unsigned i;
    struct slx_leaf *x = slx_bound(ty, L, key, SLX_LT, &i);
    if (x == L->head)
        i = slx_one_bound(ty, L, key, SLX_LT, 1) != NULL;
    return slx_iter_set(ty, L, it, x, i);
}

SLX_HOT void *slx_iter_get(const struct slx_type *ty, const struct slx_iter *it)
{
    return slx_slot(ty, it->list, it->leaf, it->idx);
}

SLX_HOT void *slx_iter_next(const struct slx_type *ty, struct slx_iter *it)
{
    const struct slx_list *L = it->list;
    struct slx_leaf *x = it->leaf;
    if (++it->idx >= x->n) { /* (always, at the head: it has no slots) */
        if (x == L->head) {
            it->idx = 0; /* (past a singleton) */
            return NULL;
        }
        x = slx_next(ty, x, 0);
        slx_iter_load(ty, it, x);
        it->idx = 0;
        if (x == L->head)
            return NULL;
        /* The leaf after this one: a walk of a large list waits on each
         * leaf's header (its link to the next) from memory; fetched while
         * this leaf's slots are read, it is there when the walk gets to
         * it. A scan at 10^6: 0.74 of 9f3cd5a's time, was 1.11. */
        SLX_PREFETCH(slx_next(ty, x, 0));
    }
    if (slx_is_queue(ty))
        it->idx = slx_live_from(ty, x, it->idx);
    return it->ptrs[it->idx];
}

SLX_HOT void *slx_iter_prev(const struct slx_type *ty, struct slx_iter *it)
{
    const struct slx_list *L = it->list;
    struct slx_leaf *x = it->leaf;
    if (x == L->head && L->one) { /* the end <-> the singleton */
        it->idx = !it->idx;
        return it->idx ? L->one : NULL;
    }
    if (x == L->head || it->idx == 0 || it->idx > x->n) {
        x = slx_prev(ty, x, 0);
        /* before the start (or an emptied list's sole leaf, which stays
         * linked): park at the end */
        if (x == L->head || x->n == 0) {
            slx_iter_load(ty, it, L->head);
            it->idx = 0;
            return NULL;
        }
        slx_iter_load(ty, it, x);
        it->idx = x->n;
        SLX_PREFETCH(slx_prev(ty, x, 0));
    }
    /* a tombstone has a live slot before it (see slx_purge) */
    it->idx = (slx_is_queue(ty) ? slx_live_end(ty, x, it->idx) : it->idx) - 1u;
    return it->ptrs[it->idx];
}

/* FOREACH_SAFE's step: slx_iter_next, keeping in it->lim the new slot's
 * rank among its equal keys (0 for the first of them). An element listed
 * twice (insert_multi) has two slots; the rank tells slx_iter_resync which
 * one the walk had reached. A queue or an extent index never lists an
 * element twice: no rank, no compare. */
SLX_HOT void *slx_iter_step(const struct slx_type *ty, struct slx_iter *it)
{
    if (slx_is_queue(ty) || slx_is_extent(ty))
        return slx_iter_next(ty, it);
    const struct slx_leaf *x = it->leaf;
    unsigned i = it->idx;
    void *e = slx_iter_next(ty, it);
    if (e) /* keys ascend: equal unless the one before is less */
        it->lim = ty->less(slx_key(ty, x, i), slx_key(ty, it->leaf, it->idx))
                      ? 0
                      : it->lim + 1;
    return e;
}

/* FOREACH_SAFE on the ordered index: e's slot after the body erased the
 * element the walk stood on, the one before e. Erase takes an element's
 * first slot, which lies before e too, so e's rank among its equal keys
 * dropped by one when the two keys were equal (rank > 0) and stayed
 * otherwise: e's slot is the first at that rank or later. Its first slot
 * (slx_locate) may be one the walk has passed. When no slot of e has that
 * rank (the body erased more than it may), its first slot, as slx_locate
 * would give. Sets it->lim to the slot's rank. */
SLX_HOT struct slx_leaf *slx_locate_rank(const struct slx_type *ty,
                                         struct slx_iter *it, const void *e,
                                         unsigned *idx)
{
    const struct slx_list *L = it->list;
    uint64_t want = it->lim ? it->lim - 1u : 0;
    unsigned char key[SLX_KEY_MAX];
    ty->key_of(e, key);
    unsigned i;
    struct slx_leaf *x = slx_bound(ty, L, key, SLX_LT, &i), *found = NULL;
    for (uint64_t r = 0; x != L->head && ty->cmp(slx_key(ty, x, i), key) == 0;
         r++) {
        if (slx_ptrs(ty, x)[i] == e && (!found || r >= want)) {
            found = x; /* the first slot, until one at the rank */
            *idx = i;
            it->lim = r;
            if (r >= want)
                break;
        }
        if (++i == x->n) {
            x = slx_next(ty, x, 0);
            i = 0;
        }
    }
    return found;
}

/* FOREACH_SAFE: the body may have erased the element before `e`; find e
 * again when anything changed since the iterator was positioned. */
SLX_HOT void *slx_iter_resync(const struct slx_type *ty, struct slx_iter *it,
                              void *e)
{
    if (!e || it->stamp == slx_stamp(it->list))
        return e;
    unsigned i;
    struct slx_leaf *x = slx_is_queue(ty) || slx_is_extent(ty)
                             ? slx_locate(ty, it->list, e, &i)
                             : slx_locate_rank(ty, it, e, &i);
    if (!x)
        return NULL; /* e itself was erased: stop */
    slx_iter_set(ty, it->list, it, x, i);
    return e;
}

/* --- extent face --------------------------------------------------- */

/* The extent containing point p, as (leaf, index), or NULL. */
SLX_HOT struct slx_leaf *slx_ext_lookup(const struct slx_type *ty,
                                        const struct slx_list *L, uint64_t p,
                                        unsigned *idx)
{
    unsigned char key[8];
    slx_store_u(ty, key, p);
    struct slx_leaf *x = slx_descend(ty, L, key, SLX_LE);
    if (x == L->head)
        return NULL;
    unsigned i = slx_leaf_search(ty, x, key, SLX_LE) - 1u;
    if (slx_load_u(ty, slx_lasts(ty, x) + (size_t)i * ty->ks) < p)
        return NULL;
    *idx = i;
    return x;
}

/* First extent overlapping [a, b] (inclusive b), as (leaf, index). */
SLX_HOT struct slx_leaf *slx_ext_first_overlap(const struct slx_type *ty,
                                               const struct slx_list *L,
                                               uint64_t a, uint64_t b,
                                               unsigned *idx)
{
    unsigned char key[8];
    slx_store_u(ty, key, a);
    struct slx_leaf *x = slx_descend(ty, L, key, SLX_LE);
    unsigned i;
    if (x != L->head) {
        i = slx_leaf_search(ty, x, key, SLX_LE) - 1u; /* last start <= a */
        if (slx_load_u(ty, slx_lasts(ty, x) + (size_t)i * ty->ks) < a) {
            if (++i == x->n) {
                x = slx_next(ty, x, 0);
                i = 0;
            }
        }
    } else {
        x = slx_next(ty, x, 0);
        i = 0;
    }
    if (x == L->head || slx_load_u(ty, slx_key(ty, x, i)) > b)
        return NULL;
    *idx = i;
    return x;
}

SLX_HOT void *slx_ext_lookup_elem(const struct slx_type *ty,
                                  const struct slx_list *L, uint64_t p)
{
    unsigned i;
    struct slx_leaf *x = slx_ext_lookup(ty, L, p, &i);
    if (x)
        return slx_ptrs(ty, x)[i];
    return SLX_UNLIKELY(L->one) ? slx_one_overlap(ty, L, p, p) : NULL;
}

/* name_first_overlap: the first extent overlapping [lo, hi]. *out is
 * written on every return, NULL with -ENOENT and -EINVAL, so a caller that
 * tests out rather than the code never reads an earlier call's extent. */
SLX_HOT int slx_ext_overlap(const struct slx_type *ty, const struct slx_list *L,
                            uint64_t lo, uint64_t hi, void **out)
{
    unsigned i;
    void *e = NULL;
    int rc = -EINVAL;
    if (lo <= hi) {
        struct slx_leaf *x = slx_ext_first_overlap(ty, L, lo, hi, &i);
        e = x ? slx_ptrs(ty, x)[i] : slx_one_overlap(ty, L, lo, hi);
        rc = e ? 0 : -ENOENT;
    }
    if (out)
        *out = e;
    return rc;
}

/* name_iter_overlap: position it on the first extent overlapping [lo, hi]
 * (at the end when there is none, or lo > hi) and remember hi. */
SLX_HOT void *slx_ext_iter_overlap(const struct slx_type *ty,
                                   const struct slx_list *L,
                                   struct slx_iter *it, uint64_t lo,
                                   uint64_t hi)
{
    unsigned i = 0;
    struct slx_leaf *x =
        lo <= hi ? slx_ext_first_overlap(ty, L, lo, hi, &i) : NULL;
    if (!x && lo <= hi) /* (head, 1): the singleton */
        i = slx_one_overlap(ty, L, lo, hi) != NULL;
    void *e = slx_iter_set(ty, L, it, x ? x : L->head, i);
    it->lim = hi;
    return e;
}

/* name_iter_next_overlap: the next extent while it starts at or before
 * the range's last point; the start is read from the leaf, not the
 * element. */
SLX_HOT void *slx_ext_iter_next_overlap(const struct slx_type *ty,
                                        struct slx_iter *it)
{
    void *e = slx_iter_next(ty, it);
    if (!e || slx_load_u(ty, slx_key(ty, it->leaf, it->idx)) > it->lim)
        return NULL;
    return e;
}

SLX_COLD int slx_ext_insert_one(const struct slx_type *ty, struct slx_list *L,
                                void *e, uint64_t start, uint64_t size,
                                void **clash);

SLX_HOT int slx_ext_insert(const struct slx_type *ty, struct slx_list *L,
                           void *e, uint64_t start, uint64_t size, void **clash)
{
    if (!e || size == 0 || size - 1 > ty->key_max - start)
        return -EINVAL;
    if (SLX_UNLIKELY(!L->aux))
        return slx_ext_insert_one(ty, L, e, start, size, clash);
    uint64_t last = start + size - 1;
    unsigned char key[8];
    slx_store_u(ty, key, start);
    struct slx_leaf *x = slx_descend(ty, L, key, SLX_LE);
    unsigned i = 0;
    if (x != L->head) {
        i = slx_leaf_search(ty, x, key, SLX_LE); /* first start > start */
        uint64_t plast =
            slx_load_u(ty, slx_lasts(ty, x) + (size_t)(i - 1) * ty->ks);
        if (plast >= start) {
            if (clash)
                *clash = slx_ptrs(ty, x)[i - 1];
            return -EEXIST;
        }
    }
    /* The successor: next slot in x, or the next leaf's first. */
    struct slx_leaf *sx = x;
    unsigned si = i;
    if (x == L->head || si == x->n) {
        sx = slx_next(ty, x, 0);
        si = 0;
    }
    if (sx != L->head && slx_load_u(ty, slx_key(ty, sx, si)) <= last) {
        if (clash)
            *clash = slx_ptrs(ty, sx)[si];
        return -EEXIST;
    }
    struct slx_slotval v = {key, e, last};
    return slx_insert_at(ty, L, x, i, &v);
}

/* slx_ext_insert into a list without an aux block: the first extent
 * becomes the singleton; one that overlaps it is refused (-EEXIST) with
 * nothing allocated; any other moves the singleton into a leaf first,
 * and should its own insert fail the list is the singleton again. */
SLX_COLD int slx_ext_insert_one(const struct slx_type *ty, struct slx_list *L,
                                void *e, uint64_t start, uint64_t size,
                                void **clash)
{
    if (!L->one) {
        slx_one_put(ty, L, e);
        return 0;
    }
    void *c = slx_one_overlap(ty, L, start, start + (size - 1));
    if (c) {
        if (clash)
            *clash = c;
        return -EEXIST;
    }
    int rc = slx_materialize(ty, L);
    if (rc)
        return rc;
    rc = slx_ext_insert(ty, L, e, start, size, clash);
    if (rc)
        slx_one_restore(ty, L);
    return rc;
}

/* name_insert of the extent face: e's own start and size. */
SLX_HOT int slx_ext_insert_elem(const struct slx_type *ty, struct slx_list *L,
                                void *e, void **clash)
{
    if (!e)
        return -EINVAL;
    unsigned char start[8];
    ty->key_of(e, start);
    return slx_ext_insert(ty, L, e, slx_load_u(ty, start), ty->size_of(e),
                          clash);
}

/* Hole search. A request: size, alignment mask and the window [lo, hi]. */
struct slx_holereq {
    uint64_t size, amask, lo, hi;
    unsigned k; /* log2 of the alignment */
    int highest;
    uint64_t found;
    struct slx_leaf *leaf; /* where found goes: (leaf, slot) as a search */
    unsigned slot;         /* for it would find them (the head: first) */
};

/* Does the free run [gs, ge] hold an aligned block inside the window?
 * Picks the lowest or highest such start. */
SLX_HOT int slx_fit(struct slx_holereq *r, uint64_t gs, uint64_t ge)
{
    if (gs < r->lo)
        gs = r->lo;
    if (ge > r->hi)
        ge = r->hi;
    if (gs > ge || ge - gs < r->size - 1)
        return 0;
    if (!r->highest) {
        uint64_t s = (gs + r->amask) & ~r->amask;
        if (s < gs) /* wrapped */
            return 0;
        if (s > ge || ge - s < r->size - 1)
            return 0;
        r->found = s;
    } else {
        uint64_t s = (ge - (r->size - 1)) & ~r->amask;
        if (s < gs)
            return 0;
        r->found = s;
    }
    return 1;
}

/* The run after slot j of x, the one bordering the next leaf or the end
 * of the key space (see slx_free_run): does it hold the request? */
SLX_HOT int slx_hole_after(const struct slx_type *ty, const struct slx_list *L,
                           const struct slx_leaf *x, unsigned j,
                           struct slx_holereq *r)
{
    uint64_t gs, ge;
    uint64_t last = slx_load_u(ty, slx_lasts(ty, x) + (size_t)j * ty->ks);
    if (!slx_free_run(ty, L, x, last, j + 1, &gs, &ge) || !slx_fit(r, gs, ge))
        return 0;
    r->leaf = (struct slx_leaf *)(uintptr_t)x;
    r->slot = j + 1u;
    return 1;
}

/* The free runs owned by leaf x (see slx_leaf_runs), tried in order. The
 * runs between two of x's own extents need none of slx_free_run's edge
 * cases: their length alone rules most of them out, for a few
 * instructions a slot (the summary only says that one of them fits). */
SLX_COLD int slx_hole_in_leaf(const struct slx_type *ty,
                              const struct slx_list *L,
                              const struct slx_leaf *x, struct slx_holereq *r)
{
    uint64_t gs, ge;
    /* (the head's fit goes to the head, slot 0: the preset answer) */
    if (x == L->head)
        return slx_free_run(ty, L, x, 0, 0, &gs, &ge) && slx_fit(r, gs, ge);
    unsigned n = x->n; /* >= 1: a linked extent leaf holds an extent */
    int edge = !slx_is_tail(ty, L, x, n); /* the tail: slx_hole_tail */
    if (r->highest && edge && slx_hole_after(ty, L, x, n - 1u, r))
        return 1;
    const unsigned char *lasts = slx_lasts(ty, x);
    const unsigned char *starts = slx_keys(ty, x);
    size_t ks = ty->ks;
    for (unsigned k = 0; k + 1u < n; k++) {
        unsigned j = r->highest ? n - 2u - k : k;
        uint64_t last = slx_load_u(ty, lasts + (size_t)j * ks);
        uint64_t ns = slx_load_u(ty, starts + (size_t)(j + 1u) * ks);
        /* last < ns: [last + 1, ns - 1] is free, maybe empty */
        if (ns - last - 1u >= r->size && slx_fit(r, last + 1u, ns - 1u)) {
            r->leaf = (struct slx_leaf *)(uintptr_t)x;
            r->slot = j + 1u;
            return 1;
        }
    }
    return !r->highest && edge && slx_hole_after(ty, L, x, n - 1u, r);
}

/* The tail: the run after the last extent, to the end of the key space.
 * It is the list's, not the last leaf's: with it in the last leaf's
 * summary, a window ending below the end of the key space (an allocator's
 * limit) would see a fit there that it cannot use, and every search from
 * the top would scan that leaf, and the nodes above it, for nothing. */
SLX_HOT int slx_hole_tail(const struct slx_type *ty, const struct slx_list *L,
                          struct slx_holereq *r)
{
    struct slx_leaf *x = slx_prev(ty, L->head, 0); /* n >= 1: linked */
    return x != L->head && slx_hole_after(ty, L, x, x->n - 1u, r);
}

/* May a summary g hold the request? Exactly (windows aside) for
 * alignments up to 2^SLX_NFIT and sizes below 2^32; a necessary condition
 * beyond. */
SLX_HOT int slx_runs_may_fit(const struct slx_runs *g,
                             const struct slx_holereq *r)
{
    if (g->gap < r->size)
        return 0;
    if (r->k == 0)
        return 1;
    uint32_t f = g->fit[(r->k < SLX_NFIT ? r->k : SLX_NFIT) - 1u];
    return f == UINT32_MAX || f >= r->size;
}

/* A hole search's step over a node's entries: +1 up for the lowest fit,
 * down for the highest (j - 1 as j + UINT_MAX: past entry 0 it wraps to
 * UINT_MAX, which is >= n, so a scan's j < n ends it at either end). */
SLX_HOT unsigned slx_hole_step(const struct slx_holereq *r)
{
    return r->highest ? UINT_MAX : 1u;
}

/* The next entry of P, from entry j on (down to 0 for the highest fit,
 * up to n - 1 otherwise), whose summary may hold the request
 * (slx_runs_may_fit); UINT_MAX when there is none. One array is read, the
 * one the alignment needs (a fit implies a run at least as long), unless
 * only the gaps can answer; the scan stops at the first candidate, which
 * is the one searched, the window aside. */
SLX_HOT unsigned slx_fit_next(const struct slx_type *ty,
                              const struct slx_inode *P, unsigned j,
                              const struct slx_holereq *r)
{
    unsigned n = P->n;
    int use_fit = r->k > 0;
    int use_gap = r->k == 0 || r->k > SLX_NFIT || r->size >= UINT32_MAX;
    const uint32_t *f = slx_ifits(ty, P,
                                  !use_fit          ? 1u
                                  : r->k < SLX_NFIT ? r->k
                                                    : SLX_NFIT);
    const uint64_t *g = slx_igaps(ty, P);
    uint32_t s32 = r->size >= UINT32_MAX ? UINT32_MAX : (uint32_t)r->size;
    uint64_t size = r->size;
    unsigned step = slx_hole_step(r);
    for (; j < n; j += step)
        if ((!use_fit || f[j] >= s32) && (!use_gap || g[j] >= size))
            return j;
    return UINT_MAX;
}

/* Search the subtree of index node P, whose span starts at start (its
 * first key, or 0 on the leftmost path) and ends before end (when
 * has_end). Entry j's runs lie after its first key and before entry
 * j + 1's: the entries whose summary may hold the request (slx_fit_next)
 * are visited in order, and spans wholly outside the window [lo, hi]
 * end the visit or are skipped. */
SLX_COLD int slx_hole_node(const struct slx_type *ty, const struct slx_list *L,
                           const struct slx_inode *P, uint64_t start,
                           int has_end, uint64_t end, struct slx_holereq *r)
{
    unsigned n = P->n;
    unsigned step = slx_hole_step(r);
    unsigned j = r->highest ? n - 1u : 0u;
    while ((j = slx_fit_next(ty, P, j, r)) != UINT_MAX) {
        uint64_t s = j ? slx_load_u(ty, slx_ikey(ty, P, j)) : start;
        int he = j + 1u < n || has_end;
        uint64_t e = j + 1u < n ? slx_load_u(ty, slx_ikey(ty, P, j + 1u)) : end;
        if (s >= r->hi) { /* runs start after s: past the window */
            if (!r->highest)
                return 0;
        } else if (he && e <= r->lo) { /* runs end before e: before it */
            if (r->highest)
                return 0;
        } else {
            void *c = slx_ichild(ty, P, j);
            if (P->level == 1
                    ? slx_hole_in_leaf(ty, L, (struct slx_leaf *)c, r)
                    : slx_hole_node(ty, L, (struct slx_inode *)c, s, he, e, r))
                return 1;
        }
        j += step; /* past either end: slx_fit_next finds none */
    }
    return 0;
}

/* The head's run (before the first extent), then the leaves in order,
 * then the tail (all reversed for the highest fit): the leaves through
 * the index when there is one. */
SLX_COLD int slx_hole_search(const struct slx_type *ty,
                             const struct slx_list *L, struct slx_holereq *r)
{
    struct slx_leaf *h = L->head;
    int head_may = slx_runs_may_fit(slx_gap(ty, h, 0), r);
    if (!r->highest && head_may && slx_hole_in_leaf(ty, L, h, r))
        return 1;
    if (r->highest && slx_hole_tail(ty, L, r))
        return 1;
    if (L->root) {
        if (slx_hole_node(ty, L, L->root, 0, 0, 0, r))
            return 1;
    } else {
        /* no index: every leaf, walked */
        struct slx_leaf *x =
            r->highest ? slx_prev(ty, h, 0) : slx_next(ty, h, 0);
        for (; x != h; x = r->highest ? slx_prev(ty, x, 0) : slx_next(ty, x, 0))
            if (slx_runs_may_fit(slx_gap(ty, x, 0), r) &&
                slx_hole_in_leaf(ty, L, x, r))
                return 1;
    }
    if (!r->highest)
        return slx_hole_tail(ty, L, r);
    return head_may && slx_hole_in_leaf(ty, L, h, r);
}

/* Place e, of its own size, at the lowest or highest multiple of align
 * whose extent fits in the free space of [lo, hi] (inclusive). The size
 * comes from the element, so e and its slot can never disagree; only
 * e's start is written, and only on success. */
SLX_COLD int slx_ext_hole_insert(const struct slx_type *ty, struct slx_list *L,
                                 void *e, uint64_t align, uint64_t lo,
                                 uint64_t hi, int flags)
{
    if (!e)
        return -EINVAL;
    uint64_t size = ty->size_of(e);
    if (size == 0 || align == 0 || (align & (align - 1)) != 0 || lo > hi ||
        hi > ty->key_max ||
        (flags != SKIPLIST_HOLE_LOWEST && flags != SKIPLIST_HOLE_HIGHEST))
        return -EINVAL;
    /* The summaries answer for alignments as powers of two (slx_runs). */
    struct slx_holereq r = {
        size, align - 1,       lo,
        hi,   slx_log2(align), flags == SKIPLIST_HOLE_HIGHEST,
        0,    L->head,         0};
    if (hi - lo < size - 1)
        return -ENOSPC;
    int ok;
    if (slx_nleaves(L) == 0)
        ok = slx_fit(&r, 0, ty->key_max);
    else
        ok = slx_hole_search(ty, L, &r);
    if (!ok)
        return -ENOSPC;
    unsigned char old[8];
    ty->key_of(e, old);
    ty->set_start(e, r.found);
    if (!L->aux) { /* (empty: see slx_ext_insert_hole) the singleton */
        slx_one_put(ty, L, e);
        return 0;
    }
    if (slx_nleaves(L) == 0) /* an emptied list: after its head */
        r.leaf = L->head;
    /* The search found the slot too: no second descent. */
    unsigned char key[8];
    slx_store_u(ty, key, r.found);
    struct slx_slotval v = {key, e, r.found + (size - 1)};
    int rc = slx_insert_at(ty, L, r.leaf, r.slot, &v);
    if (rc)
        ty->set_start(e, slx_load_u(ty, old)); /* -ENOMEM: e as it was */
    return rc;
}

/* name_insert_hole. The search reads leaves: a singleton's extent goes
 * into one first, and the list is the singleton again when no extent is
 * inserted. */
SLX_COLD int slx_ext_insert_hole(const struct slx_type *ty, struct slx_list *L,
                                 void *e, uint64_t align, uint64_t lo,
                                 uint64_t hi, int flags)
{
    if (!L->one)
        return slx_ext_hole_insert(ty, L, e, align, lo, hi, flags);
    int rc = slx_materialize(ty, L);
    if (rc)
        return rc;
    rc = slx_ext_hole_insert(ty, L, e, align, lo, hi, flags);
    if (rc)
        slx_one_restore(ty, L);
    return rc;
}

/* --- order statistics (ranked instances) --------------------------- */

/* Elements of the last leaf its ancestors' counts do not hold yet: the
 * count of every entry on the last leaf's path (each node's last entry
 * down from the root) is short by this much, mod 2^64 (slx_count_step). */
SLX_HOT size_t slx_rpend(const struct slx_type *ty, const struct slx_list *L)
{
    if (!slx_is_ranked(ty) || !L->aux)
        return 0;
    const struct slx_leaf *z = slx_prev(ty, L->head, 0);
    return z->waits ? z->n - L->aux->rknown : 0;
}

/* Counts of a node whose own count is tot: the sum of those before entry
 * j, added from whichever end is nearer (at most half the entries). */
SLX_HOT size_t slx_isum_before(const struct slx_type *ty,
                               const struct slx_inode *P, unsigned j,
                               size_t tot)
{
    return j <= P->n / 2u ? slx_isum(ty, P, 0, j)
                          : tot - slx_isum(ty, P, j, P->n);
}

/* slx_rank_key without an index (a list of one leaf, or MAXLVL 1): the
 * leaves' slots before key, leaf by leaf. */
SLX_COLD size_t slx_rank_walk(const struct slx_type *ty,
                              const struct slx_list *L, const void *key,
                              int mode)
{
    size_t r = 0;
    for (const struct slx_leaf *x = slx_next(ty, L->head, 0); x != L->head;
         x = slx_next(ty, x, 0)) {
        unsigned i = slx_leaf_search(ty, x, key, mode);
        r += i;
        if (i < x->n)
            break;
    }
    r += slx_one_bound(ty, L, key, mode, 0) != NULL;
    return r;
}

/* Elements before the first one >= key (SLX_LT) or > key (SLX_LE): the
 * descent of slx_descend, adding up the counts of the entries it passes
 * over, then the leaf's slots before key (none when key goes before the
 * first leaf: the leftmost path passes over nothing). */
SLX_HOT size_t slx_rank_key(const struct slx_type *ty, const struct slx_list *L,
                            const void *key, int mode)
{
    const struct slx_inode *P = L->root;
    if (!P)
        return slx_rank_walk(ty, L, key, mode);
    /* tot: what P's counts add up to, short of the true count by rpend
     * on the last leaf's path, as P's own last entry is: the sums from
     * the right take the difference, and the shortfall cancels. */
    size_t r = 0, tot = L->count - slx_rpend(ty, L);
    for (;;) {
        unsigned j = slx_inode_search(ty, P, key, mode);
        r += slx_isum_before(ty, P, j, tot);
        tot = *slx_icount(ty, P, j);
        void *ch = slx_ichild(ty, P, j);
        if (P->level == 1) {
            const struct slx_leaf *x = (const struct slx_leaf *)ch;
            return r + slx_leaf_search(ty, x, key, mode);
        }
        P = (const struct slx_inode *)ch;
    }
}

/* The leaf holding position i < L->count, and i's slot in it (*idx):
 * each node's entries are passed over from the nearer end. */
SLX_HOT struct slx_leaf *slx_at_pos(const struct slx_type *ty,
                                    const struct slx_list *L, size_t i,
                                    unsigned *idx)
{
    const struct slx_inode *P = L->root;
    if (!P) {
        struct slx_leaf *x = slx_next(ty, L->head, 0);
        while (i >= x->n) {
            i -= x->n;
            x = slx_next(ty, x, 0);
        }
        *idx = (unsigned)i;
        return x;
    }
    /* tot: the elements below P; pend: what its last entry's count lacks
     * (rpend on the last leaf's path, 0 off it) */
    size_t tot = L->count, pend = slx_rpend(ty, L);
    for (;;) {
        unsigned j, last = P->n - 1u;
        /* (a pointer walks the counts, which run downwards) */
        if (i < tot / 2u) { /* past the others, i is in the last entry */
            const size_t *cp = slx_icount(ty, P, 0);
            for (j = 0; j < last && i >= *cp; j++)
                i -= *cp--;
        } else { /* from the right: rest elements from i to the end */
            const size_t *cp = slx_icount(ty, P, last);
            size_t rest = tot - i, c = *cp + pend;
            for (j = last; rest > c; c = *++cp, j--)
                rest -= c;
            i = c - rest;
        }
        tot = *slx_icount(ty, P, j);
        if (j == last)
            tot += pend;
        else
            pend = 0;
        void *ch = slx_ichild(ty, P, j);
        if (P->level == 1) {
            *idx = (unsigned)i;
            return (struct slx_leaf *)ch;
        }
        P = (const struct slx_inode *)ch;
    }
}

/* name_at: the element at position i, NULL past the end. */
SLX_HOT void *slx_at(const struct slx_type *ty, const struct slx_list *L,
                     size_t i)
{
    if (i >= L->count)
        return NULL;
    if (!L->aux)
        return L->one;
    unsigned j;
    struct slx_leaf *x = slx_at_pos(ty, L, i, &j);
    return slx_ptrs(ty, x)[j];
}

/* Elements in the leaves before linked leaf x: up its entries, the counts
 * before each. */
SLX_HOT size_t slx_leaf_base(const struct slx_type *ty,
                             const struct slx_list *L, const struct slx_leaf *x)
{
    size_t r = 0;
    if (!x->parent) { /* no index: the leaves before x */
        for (const struct slx_leaf *y = slx_next(ty, L->head, 0); y != x;
             y = slx_next(ty, y, 0))
            r += y->n;
        return r;
    }
    const void *child = x;
    unsigned clevel = 0;
    for (const struct slx_inode *P = x->parent; P; P = P->parent) {
        r += slx_isum(ty, P, 0, slx_ipos_guess(ty, P, child, clevel));
        child = P;
        clevel = P->level;
    }
    return r;
}

/* name_rank_of: e's position (its own listing among equal keys), or
 * -EINVAL (no element) or -ENOENT (not in L). */
SLX_HOT int64_t slx_rank_of(const struct slx_type *ty, const struct slx_list *L,
                            const void *e)
{
    struct slx_leaf *x;
    unsigned i;
    int rc = slx_find_elem(ty, L, e, &x, &i);
    if (rc)
        return rc == -ENOENT && e == L->one ? 0 : rc;
    return (int64_t)(slx_leaf_base(ty, L, x) + i);
}

/* name_count_range of the ordered index: keys in [lo, hi]. */
SLX_HOT size_t slx_count_range(const struct slx_type *ty,
                               const struct slx_list *L, const void *lo,
                               const void *hi)
{
    if (ty->less(hi, lo))
        return 0;
    return slx_rank_key(ty, L, hi, SLX_LE) - slx_rank_key(ty, L, lo, SLX_LT);
}

/* name_count_range of the extent face: extents overlapping [lo, hi], the
 * starts in [lo, hi] and the one extent that may start before lo and
 * reach it (extents do not overlap one another). */
SLX_HOT size_t slx_ext_count_range(const struct slx_type *ty,
                                   const struct slx_list *L, uint64_t lo,
                                   uint64_t hi)
{
    if (lo > hi)
        return 0;
    unsigned char klo[8], khi[8];
    slx_store_u(ty, klo, lo);
    slx_store_u(ty, khi, hi);
    size_t n =
        slx_rank_key(ty, L, khi, SLX_LE) - slx_rank_key(ty, L, klo, SLX_LT);
    unsigned i;
    struct slx_leaf *x = slx_ext_lookup(ty, L, lo, &i);
    if (x && slx_load_u(ty, slx_key(ty, x, i)) < lo)
        n++;
    if (!x && slx_one_overlap(ty, L, lo, lo)) {
        unsigned char k[8];
        ty->key_of(L->one, k);
        n += slx_load_u(ty, k) < lo;
    }
    return n;
}

/* name_iter_at: the iterator at position i (at the end past it). */
SLX_HOT void *slx_iter_at(const struct slx_type *ty, const struct slx_list *L,
                          struct slx_iter *it, size_t i)
{
    if (i >= L->count || !L->aux) /* (head, 1): the singleton */
        return slx_iter_set(ty, L, it, L->head, i < L->count);
    unsigned j;
    struct slx_leaf *x = slx_at_pos(ty, L, i, &j);
    return slx_iter_set(ty, L, it, x, j);
}

/* --- bulk operations ----------------------------------------------- */

/* Slots per leaf that name_build fills: SLX_BUILD_FILL / 8 of kpn (at
 * least one), so that inserts after a build find room in most leaves
 * instead of splitting every one they touch (docs/design.md, "Bulk
 * operations"). */
#ifndef SLX_BUILD_FILL
#define SLX_BUILD_FILL 7u
#endif
SLX_HOT unsigned slx_build_per_leaf(const struct slx_type *ty)
{
    unsigned per = ty->kpn * SLX_BUILD_FILL / 8u;
    return per ? per : 1u;
}

/* A leaf for cnt of name_build's total elements: the sole leaf of a list
 * of fewer than kpn is a small leaf (room for cnt, rounded up the way a
 * small list's leaf grows: slx_first_cap, doubled), every other a full
 * one. (A build of more than kpn elements fills several leaves.) */
SLX_COLD struct slx_leaf *slx_build_leaf(const struct slx_type *ty,
                                         struct slx_list *L, size_t total,
                                         unsigned cnt)
{
    if (total >= ty->kpn)
        return slx_alloc_leaf(ty, L);
    unsigned cap = slx_first_cap(ty);
    while (cap < cnt)
        cap = cap * 2u < ty->kpn ? cap * 2u : ty->kpn;
    return cap < ty->kpn ? slx_alloc_small_leaf(ty, L, cap)
                         : slx_alloc_leaf(ty, L);
}

/* Whether key k (slot j of the leaf being filled, whose element is e) may
 * follow prev, the key before it (NULL for the first element): strictly
 * increasing keys on the ordered index (its build is a unique map's),
 * non-decreasing on the queue (equal keys keep the order given: FIFO);
 * on the extent face each extent valid (size > 0, not wrapping) and
 * starting past *prev_last, the end of the one before, which it then
 * replaces. */
SLX_HOT int slx_build_in_order(const struct slx_type *ty, const void *e,
                               const unsigned char *k,
                               const unsigned char *prev, uint64_t *prev_last)
{
    if (slx_is_extent(ty)) {
        uint64_t start = slx_load_u(ty, k), size = ty->size_of(e);
        if (size == 0 || size - 1u > ty->key_max - start ||
            (prev && start <= *prev_last))
            return 0;
        *prev_last = start + size - 1u;
        return 1;
    }
    if (!prev)
        return 1;
    return slx_is_queue(ty) ? !ty->less(k, prev) : ty->less(prev, k);
}

/* How far ahead of the element being read name_build prefetches: enough
 * to cover a memory miss at its loop's pace (docs/lab-notes.md). */
#define SLX_BUILD_AHEAD 16u

/* Fill y (fresh, unlinked) with v[0, cnt) of the left elements still to
 * come, checking each element: not
 * NULL, not queued anywhere (a queue's; an element given twice is queued
 * the second time), in order after prev (see slx_build_in_order). 0, or
 * -EINVAL with the hooks this call set cleared again. */
SLX_HOT int slx_build_fill(const struct slx_type *ty, struct slx_list *L,
                           struct slx_leaf *y, void *const *v, unsigned cnt,
                           size_t left, const unsigned char *prev,
                           uint64_t *prev_last)
{
    size_t ks = ty->ks;
    unsigned char *k = slx_keys(ty, y);
    unsigned char *la = slx_is_extent(ty) ? slx_lasts(ty, y) : NULL;
    void **p = slx_ptrs(ty, y);
    for (unsigned j = 0; j < cnt; j++) {
        /* Elements scattered in memory miss one by one: ask for the one
         * SLX_BUILD_AHEAD on while this one is read. */
        if (j + SLX_BUILD_AHEAD < left) /* a prefetch of NULL is harmless */
            SLX_PREFETCH(v[j + SLX_BUILD_AHEAD]);
        void *e = v[j];
        unsigned char *kj = k + (size_t)j * ks;
        int ok = e && !(slx_is_queue(ty) && slx_queued(ty, NULL, e));
        if (ok) {
            ty->key_of(e, kj);
            ok = slx_build_in_order(ty, e, kj, j ? kj - ks : prev, prev_last);
        }
        if (!ok) {
            for (unsigned i = 0; i < j; i++)
                slx_unhook(ty, p[i]);
            return -EINVAL;
        }
        p[j] = e;
        if (slx_is_extent(ty))
            slx_store_u(ty, la + (size_t)j * ks, *prev_last);
        if (slx_is_queue(ty)) {
            slx_hook(ty, e)->leaf = y;
            slx_hook(ty, e)->list = L;
        }
    }
    y->n = (uint16_t)cnt;
    return 0;
}

/* Link y, filled, after the list's last leaf x as a split links its new
 * leaf (slx_split), at a random height: a built index has the shape that
 * inserts would have given it. The index nodes are reserved first, so
 * -ENOMEM leaves y unlinked. */
SLX_COLD int slx_build_link(const struct slx_type *ty, struct slx_list *L,
                            struct slx_leaf *x, struct slx_leaf *y)
{
    if (x != L->head && slx_index_reserve(ty, L))
        return -ENOMEM;
    struct slx_dirty d;
    d.n = 0;
    unsigned h = x == L->head ? 1u : slx_random_level(ty, L);
    slx_link_leaf(ty, L, x, y, h, &d);
    if (slx_is_ranked(ty) && y->parent)
        slx_count_linked(ty, x, y, &d, 0);
    if (slx_is_extent(ty)) {
        slx_gap_fix(ty, L, x);
        slx_gap_fix(ty, L, y);
        slx_gap_dirty(ty, &d);
    }
    return 0;
}

/* A failed build: y (unlinked, its hooks cleared) and every leaf linked so
 * far go, and a list that was never written to before the build is left
 * so again: empty, nothing leaked, nothing of the input still hooked. */
SLX_COLD void slx_build_undo(const struct slx_type *ty, struct slx_list *L,
                             struct slx_leaf *y, int had_aux)
{
    if (y)
        slx_free_leaf(ty, L, y);
    slx_clear(ty, L, NULL, NULL); /* unhooks a queue's elements */
    if (!had_aux) {
        slx_destroy(ty, L, NULL, NULL);
        L->head = (struct slx_leaf *)(uintptr_t)ty->empty;
    }
}

/* name_build: an empty list takes v[0, n), in order, leaf by leaf, each
 * filled to slx_build_per_leaf and linked at the end: no search, no shift.
 * All or nothing: on -EINVAL (a list not empty, bad input) or -ENOMEM the
 * list is empty and holds nothing of v. Inlined into each instance, so
 * the per-element loop calls KEY_OF and CMP directly; the per-leaf work
 * is out of line. */
SLX_HOT int slx_build(const struct slx_type *ty, struct slx_list *L,
                      void *const *v, size_t n)
{
    if (L->count != 0 || (n > 0 && !v))
        return -EINVAL;
    if (n == 0)
        return 0;
    int had_aux = L->aux != NULL;
    if (slx_nleaves(L)) /* an emptied list's sole leaf: start from none */
        slx_clear_leaves(ty, L, NULL, NULL);
    int rc = slx_writable(ty, L);
    if (rc)
        return rc;
    /* up to kpn: one leaf, as full as inserts would leave it */
    unsigned per = n <= ty->kpn ? ty->kpn : slx_build_per_leaf(ty);
    size_t leaves = (n + per - 1u) / per, done = 0;
    uint64_t prev_last = 0;
    for (size_t l = 0; l < leaves; l++) {
        /* even shares: no last leaf left nearly empty */
        unsigned cnt = (unsigned)((n / leaves) + (l < n % leaves ? 1u : 0u));
        struct slx_leaf *x = slx_prev(ty, L->head, 0);
        const unsigned char *prev =
            x == L->head ? NULL : slx_key(ty, x, x->n - 1u);
        struct slx_leaf *y = slx_build_leaf(ty, L, n, cnt);
        if (!y) {
            rc = -ENOMEM;
        } else if ((rc = slx_build_fill(ty, L, y, v + done, cnt, n - done, prev,
                                        &prev_last)) == 0 &&
                   (rc = slx_build_link(ty, L, x, y)) != 0) {
            for (unsigned j = 0; j < cnt; j++)
                slx_unhook(ty, v[done + j]);
        }
        if (rc) {
            slx_build_undo(ty, L, y, had_aux);
            return rc;
        }
        done += cnt;
        L->count = done;
    }
    L->stamp++;
    return 0;
}

/* Slots [i, j) of x, 0 < j - i, leave it: their elements are copied to
 * out (for the caller's callback, once the list is whole again), the
 * slots after them close up, and the summaries above x follow. Whole
 * leaves go through slx_erase_leaf instead. */
SLX_COLD void slx_erase_slots(const struct slx_type *ty, struct slx_list *L,
                              struct slx_leaf *x, unsigned i, unsigned j,
                              void **out)
{
    size_t ks = ty->ks;
    unsigned n = x->n, cnt = j - i, after = n - j;
    unsigned char *k = slx_keys(ty, x);
    void **p = slx_ptrs(ty, x);
    memcpy(out, p + i, cnt * sizeof(void *));
    memmove(k + (size_t)i * ks, k + (size_t)j * ks, (size_t)after * ks);
    memmove(p + i, p + j, after * sizeof(void *));
    if (slx_is_extent(ty)) {
        unsigned char *la = slx_lasts(ty, x);
        memmove(la + (size_t)i * ks, la + (size_t)j * ks, (size_t)after * ks);
    }
    x->n = (uint16_t)(n - cnt);
    L->count -= cnt;
    if (slx_is_ranked(ty) && x->parent)
        slx_count_add(ty, x, (size_t)0 - cnt);
    if (i == 0 && x->n > 0)
        slx_min_changed(ty, x);
    if (slx_is_extent(ty)) {
        slx_gap_fix(ty, L, x);
        slx_gap_fix(ty, L, slx_prev(ty, x, 0));
    }
}

/* Every slot of x leaves: its elements go to out and x is unlinked and
 * freed, its index entry with it (slx_drop_leaf). */
SLX_COLD void slx_erase_leaf(const struct slx_type *ty, struct slx_list *L,
                             struct slx_leaf *x, void **out)
{
    unsigned n = x->n;
    memcpy(out, slx_ptrs(ty, x), n * sizeof(void *));
    if (slx_is_ranked(ty) && x->parent)
        slx_count_add(ty, x, (size_t)0 - n);
    x->n = 0;
    L->count -= n;
    slx_drop_leaf(ty, L, x);
}

/* The slots of x from i on whose keys are at most hi (for the extent
 * face: whose extents start at or before hi): the end of the run to
 * erase in x. */
SLX_HOT unsigned slx_range_end(const struct slx_type *ty,
                               const struct slx_leaf *x, unsigned i,
                               const void *hi)
{
    unsigned j = slx_leaf_search(ty, x, hi, SLX_LE); /* first key > hi */
    return j > i ? j : i;
}

/* slx_erase_range of a singleton (lo <= hi). */
SLX_COLD size_t slx_one_erase_range(const struct slx_type *ty,
                                    struct slx_list *L, const void *lo,
                                    const void *hi, void (*fn)(void *, void *),
                                    void *arg)
{
    void *e;
    if (slx_is_extent(ty))
        e = slx_one_overlap(ty, L, slx_load_u(ty, lo), slx_load_u(ty, hi));
    else
        e = slx_one_bound(ty, L, lo, SLX_LT, 1) &&
                    slx_one_bound(ty, L, hi, SLX_LE, 0)
                ? L->one
                : NULL;
    if (!e)
        return 0;
    slx_one_clear(ty, L, fn, arg);
    return 1;
}

/* name_erase_range: every element with its key in [lo, hi] (extent face:
 * every extent overlapping it) leaves the list, then fn(e, arg) is called
 * for each, in key order, a leaf's worth at a time. Leaves wholly inside
 * the range are unlinked whole; the two leaves at its ends lose a run of
 * slots each and are merged with a neighbour when left sparse. Allocates
 * nothing, so it cannot fail: returns the number erased (0 for lo > hi). */
SLX_COLD size_t slx_erase_range(const struct slx_type *ty, struct slx_list *L,
                                const void *lo, const void *hi,
                                void (*fn)(void *, void *), void *arg)
{
    if (L->count == 0 || ty->less(hi, lo))
        return 0;
    if (!L->aux)
        return slx_one_erase_range(ty, L, lo, hi, fn, arg);
    slx_count_flush(ty, L);
    unsigned i;
    struct slx_leaf *x;
    if (slx_is_extent(ty)) {
        x = slx_ext_first_overlap(ty, L, slx_load_u(ty, lo), slx_load_u(ty, hi),
                                  &i);
        if (!x)
            return 0;
    } else {
        x = slx_bound(ty, L, lo, SLX_LT, &i);
    }
    void *out[256]; /* a leaf's elements: kpn <= 256 */
    struct slx_leaf *h = L->head, *first = NULL, *last = NULL;
    size_t erased = 0;
    while (x != h) {
        unsigned j = slx_range_end(ty, x, i, hi), cnt = j - i;
        struct slx_leaf *nx = slx_next(ty, x, 0);
        int whole = i == 0 && j == x->n;
        if (cnt == 0)
            break;
        if (whole) {
            slx_erase_leaf(ty, L, x, out);
        } else {
            slx_erase_slots(ty, L, x, i, j, out);
            if (!first)
                first = x;
            else
                last = x;
        }
        L->stamp++;
        erased += cnt;
        if (fn)
            for (unsigned e = 0; e < cnt; e++)
                fn(out[e], arg);
        if (!whole && j < x->n + cnt)
            break; /* the range ends inside x */
        x = nx;
        i = 0;
    }
    /* The end leaves are neighbours now: the later one first, since its
     * merge never frees the earlier one (slx_rebalance). */
    if (last)
        slx_rebalance(ty, L, last);
    if (first)
        slx_rebalance(ty, L, first);
    return erased;
}

/* Keys whose descents name_find_many interleaves: each level's node loads
 * of the whole group are issued before any is waited for, so a group's
 * cache misses overlap (docs/design.md, "Bulk operations"). */
#ifndef SLX_MANY_GROUP
#define SLX_MANY_GROUP 16u
#endif

/* The leaves the descents for keys[0, g) (ks bytes apart) end in, as
 * slx_descend's loop would find them one by one, level by level for all
 * of them at once. The list has an index. */
SLX_HOT void slx_descend_many(const struct slx_type *ty,
                              const struct slx_list *L,
                              const unsigned char *keys, unsigned g,
                              struct slx_leaf **out, int mode)
{
    const struct slx_inode *P[SLX_MANY_GROUP];
    const struct slx_inode *R = L->root;
    for (unsigned a = 0; a < g; a++)
        P[a] = R;
    for (unsigned lvl = R->level; lvl > 1; lvl--)
        for (unsigned a = 0; a < g; a++) {
            const void *key = keys + (size_t)a * ty->ks;
            unsigned j = slx_inode_search(ty, P[a], key, mode);
            P[a] = (const struct slx_inode *)slx_ichild(ty, P[a], j);
            slx_prefetch_inode(ty, P[a]);
        }
    for (unsigned a = 0; a < g; a++) {
        const void *key = keys + (size_t)a * ty->ks;
        unsigned j = slx_inode_search(ty, P[a], key, mode);
        out[a] = (struct slx_leaf *)slx_ichild(ty, P[a], j);
        slx_prefetch_leaf(ty, out[a]);
    }
}

/* name_find_many (find) and name_lower_bound_many (!find): out[i] is what
 * name_find or name_lower_bound gives for keys[i], in groups of
 * SLX_MANY_GROUP whose descents are interleaved. */
SLX_HOT void slx_find_many(const struct slx_type *ty, const struct slx_list *L,
                           const void *keys, size_t n, void **out, int find)
{
    const unsigned char *k = (const unsigned char *)keys;
    if (!L->root) {
        for (size_t i = 0; i < n; i++, k += ty->ks)
            out[i] =
                find ? slx_find(ty, L, k) : slx_bound_elem(ty, L, k, SLX_LT);
        return;
    }
    struct slx_leaf *x[SLX_MANY_GROUP];
    for (size_t base = 0; base < n; base += SLX_MANY_GROUP) {
        unsigned g =
            n - base < SLX_MANY_GROUP ? (unsigned)(n - base) : SLX_MANY_GROUP;
        const unsigned char *kb = k + base * ty->ks;
        slx_descend_many(ty, L, kb, g, x, SLX_LT);
        for (unsigned a = 0; a < g; a++) {
            const unsigned char *key = kb + (size_t)a * ty->ks;
            unsigned i;
            struct slx_leaf *y = slx_bound_from(
                ty, L, slx_descend_end(ty, L, x[a], key, 1), key, SLX_LT, &i);
            if (find)
                out[base + a] =
                    y == L->head || ty->cmp(slx_key(ty, y, i), key) != 0
                        ? NULL
                        : slx_found(ty, y, i);
            else
                out[base + a] = slx_slot(ty, L, y, i);
        }
    }
}

/* --- invariant check ----------------------------------------------- */

/* Writes the first violation found into why (when given) and returns
 * -EINVAL, the code name_check() documents for a broken structure. */
SLX_COLD SLX_PRINTF(3, 4) int slx_fail(char *why, size_t len, const char *fmt,
                                       ...)
{
    if (why && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, len, fmt, ap);
        va_end(ap);
    }
    return -EINVAL;
}

/* A stored extent summary against the one recomputed from the leaves:
 * the message for the first field that differs (on "level 0", "index
 * level 2", ...), 0 when they agree. */
SLX_COLD int slx_check_runs(char *why, size_t len, const struct slx_runs *have,
                            const struct slx_runs *want, const char *on,
                            unsigned level)
{
    if (have->gap != want->gap)
        return slx_fail(why, len, "gap summary wrong on %s %zu (should be %zu)",
                        on, (size_t)level, (size_t)want->gap);
    if (memcmp(have->fit, want->fit, sizeof(want->fit)) != 0)
        return slx_fail(why, len, "aligned-block summary wrong on %s %zu", on,
                        (size_t)level);
    return 0;
}

/* What slx_check_node carries along the index in order: the next leaf it
 * must meet (the leaves in level-0 order), the leaves and nodes seen, and
 * where the message goes. */
struct slx_icheck {
    struct slx_leaf *want;
    size_t leaves, nodes;
    char *why;
    size_t len;
};

/* Node P of the index, below parent (NULL for the root), on the leftmost
 * path or not (whose entry-0 keys are not kept). The summary of P's
 * subtree goes to *sum, the elements below it to *cnt. */
SLX_COLD int slx_check_node(const struct slx_type *ty, const struct slx_list *L,
                            const struct slx_inode *P,
                            const struct slx_inode *parent, int leftmost,
                            struct slx_icheck *c, struct slx_runs *sum,
                            size_t *cnt)
{
    char *why = c->why;
    size_t len = c->len;
    c->nodes++;
    if (P->parent != parent)
        return slx_fail(why, len, "index level %zu node %zu: parent link wrong",
                        (size_t)P->level, c->nodes);
    if (P->n == 0 || P->n > P->cap || (!parent && P->n < 2) ||
        (P->cap != ty->icap && (parent || !P->big)))
        return slx_fail(why, len,
                        "index level %zu node %zu: %zu entries of room for "
                        "%zu",
                        (size_t)P->level, c->nodes, (size_t)P->n,
                        (size_t)P->cap);
    memset(sum, 0, sizeof(*sum));
    *cnt = 0;
    for (unsigned j = 0; j < P->n; j++) {
        void *ch = slx_ichild(ty, P, j);
        const void *first; /* the subtree's first key */
        struct slx_runs r;
        size_t below; /* elements in the child's subtree */
        if (P->level == 1) {
            struct slx_leaf *x = (struct slx_leaf *)ch;
            if (x != c->want || x == L->head)
                return slx_fail(why, len,
                                "index level 1: entry %zu of node %zu is not "
                                "leaf %zu (a child lost or out of order)",
                                (size_t)j, c->nodes, c->leaves + 1);
            if (x->parent != P)
                return slx_fail(why, len, "leaf %zu: parent link wrong",
                                c->leaves + 1);
            c->leaves++;
            c->want = slx_next(ty, x, 0);
            first = slx_keys(ty, x);
            below = x->n;
            if (slx_is_extent(ty))
                r = *slx_gap(ty, x, 0);
        } else {
            const struct slx_inode *C = (const struct slx_inode *)ch;
            if (C->level + 1u != P->level)
                return slx_fail(why, len, "index level %zu: child of level %zu",
                                (size_t)P->level, (size_t)C->level);
            int rc =
                slx_check_node(ty, L, C, P, leftmost && j == 0, c, &r, &below);
            if (rc)
                return rc;
            first = slx_ikey(ty, C, 0);
        }
        if (!(leftmost && j == 0) && ty->cmp(slx_ikey(ty, P, j), first) != 0)
            return slx_fail(why, len,
                            "index level %zu node %zu entry %zu: separator "
                            "key stale",
                            (size_t)P->level, c->nodes, (size_t)j);
        /* the subtree just checked ends with the last leaf: its count
         * waits for the last leaf's pending elements (slx_count_step) */
        size_t held = below - (c->want == L->head ? slx_rpend(ty, L) : 0);
        if (slx_is_ranked(ty) && *slx_icount(ty, P, j) != held)
            return slx_fail(why, len,
                            "index level %zu node %zu entry %zu: count %zu, "
                            "but %zu elements below it",
                            (size_t)P->level, c->nodes, (size_t)j,
                            *slx_icount(ty, P, j), held);
        *cnt += below;
        if (slx_is_extent(ty)) {
            struct slx_runs g;
            slx_iget(ty, P, j, &g);
            int rc = slx_check_runs(why, len, &g, &r, "index level", P->level);
            if (rc)
                return rc;
            (void)slx_runs_raise(sum, &g);
        }
    }
    return 0;
}

/* The index: present exactly when there are two leaves or more (and the
 * instance has index levels); every leaf once, in order, at the bottom;
 * separators equal to the first keys below them; parents, levels and
 * fill right; every gap summary equal to a recomputation from the leaves
 * (whose own level-0 summaries slx_check verified). */
SLX_COLD int slx_check_index(const struct slx_type *ty,
                             const struct slx_list *L, char *why, size_t len)
{
    int want_root = slx_nleaves(L) >= 2 && slx_max_index(ty) > 0;
    if (!L->root != !want_root)
        return slx_fail(why, len, "index %s with %zu leaves",
                        L->root ? "present" : "missing", slx_nleaves(L));
    size_t nst = 0;
    for (const struct slx_inode *P = L->aux->stash; P; P = P->parent)
        nst++;
    if (nst != L->aux->nstash)
        return slx_fail(why, len, "stash holds %zu nodes, counted %zu", nst,
                        (size_t)L->aux->nstash);
    if (!L->root) {
        if (L->aux->top != 0)
            return slx_fail(why, len, "top %zu without an index",
                            (size_t)L->aux->top);
        for (struct slx_leaf *x = slx_next(ty, L->head, 0); x != L->head;
             x = slx_next(ty, x, 0))
            if (x->parent)
                return slx_fail(why, len, "leaf has a parent but no index");
        return 0;
    }
    if (L->aux->top != L->root->level)
        return slx_fail(why, len, "top %zu but the root is on level %zu",
                        (size_t)L->aux->top, (size_t)L->root->level);
    struct slx_icheck c = {slx_next(ty, L->head, 0), 0, 0, why, len};
    struct slx_runs sum;
    size_t below; /* (slx_check counts the leaves' slots) */
    int rc = slx_check_node(ty, L, L->root, NULL, 1, &c, &sum, &below);
    if (rc)
        return rc;
    if (c.want != L->head || c.leaves != slx_nleaves(L))
        return slx_fail(why, len, "index reaches %zu of %zu leaves", c.leaves,
                        (size_t)slx_nleaves(L));
    return 0;
}

/* A list never written to: the instance's empty head, intact (it is
 * shared by every such list), and nothing else. */
SLX_COLD int slx_check_unwritten(const struct slx_type *ty,
                                 const struct slx_list *L, char *why,
                                 size_t len)
{
    const struct slx_leaf *h = L->head;
    if (h != ty->empty)
        return slx_fail(why, len, "no aux block, but a head of its own");
    if (slx_next(ty, h, 0) != h || slx_prev(ty, h, 0) != h)
        return slx_fail(why, len, "the shared empty head links elsewhere");
    if (L->root || L->count != (L->one != NULL))
        return slx_fail(why, len,
                        "no aux block, but %zu elements (%s singleton)",
                        L->count, L->one ? "a" : "no");
    if (L->one && slx_is_queue(ty) &&
        (slx_hook(ty, L->one)->leaf != (const void *)h ||
         slx_hook(ty, L->one)->list != L))
        return slx_fail(why, len, "the singleton's hook is stale");
    return 0;
}

SLX_COLD int slx_check(const struct slx_type *ty, const struct slx_list *L,
                       char *why, size_t len)
{
    struct slx_leaf *h = L->head;
    if (!h)
        return slx_fail(why, len, "list not initialised");
    if (h->level != 1 || h->n != 0 || h->parent)
        return slx_fail(why, len, "head level %zu / n %zu wrong",
                        (size_t)(h->level), (size_t)(h->n));
    if (!L->aux)
        return slx_check_unwritten(ty, L, why, len);
    if (L->one)
        return slx_fail(why, len, "a singleton beside an aux block");
    if (L->aux->top > slx_max_index(ty))
        return slx_fail(why, len, "top %zu above max level %zu",
                        (size_t)(L->aux->top), (size_t)(ty->max_level));
    unsigned char kbuf[SLX_KEY_MAX];
    size_t count = 0, nleaves = 0;
    struct slx_leaf *prevleaf = h;
    for (struct slx_leaf *x = slx_next(ty, h, 0); x != h;
         x = slx_next(ty, x, 0)) {
        nleaves++;
        if (nleaves > slx_nleaves(L) + 1)
            return slx_fail(why, len, "level 0 longer than %zu leaves",
                            (size_t)(slx_nleaves(L)));
        if (slx_prev(ty, x, 0) != prevleaf)
            return slx_fail(why, len, "leaf %zu: prev link broken on level %zu",
                            nleaves, (size_t)(0));
        int sole_empty = x->n == 0 && L->count == 0 && slx_nleaves(L) == 1 &&
                         !slx_is_extent(ty); /* kept when the list empties */
        if (x->cap != ty->kpn &&
            (slx_nleaves(L) != 1 || x->cap < slx_first_cap(ty) ||
             x->cap > ty->kpn))
            return slx_fail(why, len, "leaf %zu has room for %zu slots",
                            nleaves, (size_t)(x->cap));
        if ((x->n == 0 && !sole_empty) || x->n > x->cap)
            return slx_fail(why, len, "leaf %zu holds %zu slots", nleaves,
                            (size_t)(x->n));
        if ((size_t)x->off + x->n > x->cap || (!slx_is_queue(ty) && x->off))
            return slx_fail(why, len, "leaf %zu: slot window starts at %zu",
                            nleaves, (size_t)(x->off));
        if (x->level != 1)
            return slx_fail(why, len, "leaf %zu has level %zu", nleaves,
                            (size_t)(x->level));
        if (x->waits && (!slx_is_ranked(ty) || !x->parent ||
                         slx_next(ty, x, 0) != h || x->waits != 1))
            return slx_fail(why, len,
                            "leaf %zu: counts wait on it, but it is not "
                            "the indexed last leaf of a ranked list",
                            nleaves);
        if (!sole_empty && !slx_sole_queue_leaf(ty, x) &&
            ty->cmp(slx_nmin(ty, prevleaf, 0), slx_key(ty, x, 0)) != 0)
            return slx_fail(why, len, "leaf %zu: cached first key stale",
                            nleaves);
        if (prevleaf != h && ty->cmp(slx_key(ty, prevleaf, prevleaf->n - 1u),
                                     slx_key(ty, x, 0)) > 0)
            return slx_fail(why, len,
                            "leaf %zu: first key below previous leaf's last",
                            nleaves);
        void **p = slx_ptrs(ty, x);
        unsigned dead = 0;
        uint64_t tombs = 0;
        for (unsigned i = 0; i < x->n; i++) {
            if (i > 0 && ty->cmp(slx_key(ty, x, i - 1), slx_key(ty, x, i)) > 0)
                return slx_fail(why, len, "leaf %zu slot %zu out of order",
                                nleaves, (size_t)(i));
            /* a queue's tombstone: never at either end of the window */
            if (!p[i] && slx_is_queue(ty) && i > 0 && i + 1u < x->n) {
                dead++;
                if (SLX_BITMAP_LEAF(ty))
                    tombs |= UINT64_C(1) << (x->off + i);
                continue;
            }
            if (!p[i])
                return slx_fail(why, len, "leaf %zu slot %zu: NULL element",
                                nleaves, (size_t)(i));
            ty->key_of(p[i], kbuf);
            if (ty->cmp(kbuf, slx_key(ty, x, i)) != 0)
                return slx_fail(why, len,
                                "leaf %zu slot %zu: element key differs from "
                                "the leaf's copy",
                                nleaves, (size_t)(i));
            if (slx_is_queue(ty) && slx_get_hook(ty, p[i]) != x)
                return slx_fail(why, len, "leaf %zu slot %zu: hook stale",
                                nleaves, (size_t)(i));
            if (slx_is_queue(ty) && slx_hook(ty, p[i])->list != L)
                return slx_fail(why, len,
                                "leaf %zu slot %zu: hook names another list",
                                nleaves, (size_t)(i));
            if (slx_is_extent(ty)) {
                uint64_t s = slx_load_u(ty, slx_key(ty, x, i));
                uint64_t last = slx_load_u(ty, slx_lasts(ty, x) + i * ty->ks);
                if (ty->size_of(p[i]) == 0 || last - s != ty->size_of(p[i]) - 1)
                    return slx_fail(why, len,
                                    "leaf %zu slot %zu: extent end differs "
                                    "from the element's size",
                                    nleaves, (size_t)(i));
                /* non-overlap with the slot before (in any leaf) */
                const struct slx_leaf *px = i ? x : prevleaf;
                unsigned pi = i ? i - 1 : (unsigned)prevleaf->n - 1u;
                if (px != h &&
                    slx_load_u(ty, slx_lasts(ty, px) + pi * ty->ks) >= s)
                    return slx_fail(
                        why, len,
                        "leaf %zu slot %zu overlaps the extent before it",
                        nleaves, (size_t)(i));
            }
        }
        if (slx_is_extent(ty)) {
            struct slx_runs r = slx_leaf_runs(ty, L, x);
            int rc =
                slx_check_runs(why, len, slx_gap(ty, x, 0), &r, "level", 0);
            if (rc)
                return rc;
        }
        if (dead != x->dead)
            return slx_fail(why, len, "leaf %zu counts %zu tombstones", nleaves,
                            (size_t)(x->dead));
        if (tombs != x->tombs)
            return slx_fail(why, len, "leaf %zu: tombstone bits wrong (%zu)",
                            nleaves, (size_t)(dead));
        count += x->n - dead;
        prevleaf = x;
    }
    if (slx_prev(ty, h, 0) != prevleaf)
        return slx_fail(why, len, "head prev on level 0 is not the last leaf");
    if (count != L->count)
        return slx_fail(why, len, "count %zu but %zu slots linked",
                        (size_t)(L->count), count);
    if (nleaves != slx_nleaves(L))
        return slx_fail(why, len, "nleaves %zu but %zu linked",
                        (size_t)(slx_nleaves(L)), nleaves);
    if (slx_is_extent(ty) && slx_nleaves(L) > 0) {
        struct slx_runs r = slx_leaf_runs(ty, L, h);
        if (memcmp(slx_gap(ty, h, 0), &r, sizeof(r)) != 0)
            return slx_fail(why, len, "gap summary of the head's run wrong");
    }
    return slx_check_index(ty, L, why, len);
}

/* --- SKIPLIST_DEBUG ------------------------------------------------- */

/* With SKIPLIST_DEBUG defined before the header is included, every call
 * that changes a list runs check() on it afterwards and aborts with the
 * violation on stderr (as the maple tree's MT_BUG_ON / mt_validate): a
 * corruption is reported by the call that made it, not by a crash later.
 * It costs O(n) per call: for tests and debugging only. Off, the
 * SLX_DEBUGGED_* wrappers are their argument and cost nothing. */
#ifdef SKIPLIST_DEBUG
SLX_COLD void slx_debug_check(const struct slx_type *ty,
                              const struct slx_list *L, const char *op)
{
    char why[256];
    if (slx_check(ty, L, why, sizeof why) == 0)
        return;
    fprintf(stderr, "skiplist: SKIPLIST_DEBUG: check() failed after %s: %s\n",
            op, why);
    abort();
}
static inline int slx_debugged_int(const struct slx_type *ty,
                                   const struct slx_list *L, const char *op,
                                   int rc)
{
    slx_debug_check(ty, L, op);
    return rc;
}
static inline size_t slx_debugged_size(const struct slx_type *ty,
                                       const struct slx_list *L, const char *op,
                                       size_t n)
{
    slx_debug_check(ty, L, op);
    return n;
}
static inline void *slx_debugged_ptr(const struct slx_type *ty,
                                     const struct slx_list *L, const char *op,
                                     void *e)
{
    slx_debug_check(ty, L, op);
    return e;
}
#define SLX_DEBUGGED_INT(ty, L, op, x) slx_debugged_int(ty, L, op, x)
#define SLX_DEBUGGED_SIZE(ty, L, op, x) slx_debugged_size(ty, L, op, x)
#define SLX_DEBUGGED_PTR(ty, L, op, x) slx_debugged_ptr(ty, L, op, x)
#define SLX_DEBUGGED_VOID(ty, L, op) slx_debug_check(ty, L, op)
#else
#define SLX_DEBUGGED_INT(ty, L, op, x) (x)
#define SLX_DEBUGGED_SIZE(ty, L, op, x) (x)
#define SLX_DEBUGGED_PTR(ty, L, op, x) (x)
#define SLX_DEBUGGED_VOID(ty, L, op) ((void)0)
#endif

#ifdef __cplusplus
}
#endif

/* ------------------------------------------------------------------ */
/* Generated API                                                       */
/* ------------------------------------------------------------------ */
// clang-format off
/*
 * What the macros below generate, one line each. Every contract (return
 * values, errors, complexity, preconditions) is in docs/reference/ (the
 * Doxygen site's "Generated API" modules); how to use it: docs/api.md.
 * The macros' arguments and their ranges: SKIPLIST_DEFINE's comment below.
 *
 *   SKIPLIST_DEFINE       (name, T, K_T, KEY_OF, CMP,       KPN, MAXLVL, PSHIFT)
 *   SKIPLIST_PQ_DEFINE    (name, T, K_T, KEY_OF, CMP, HOOK, KPN, MAXLVL, PSHIFT)
 *   SKIPLIST_EXTENT_DEFINE(name, T, K_T, START, SIZE,       KPN, MAXLVL, PSHIFT)
 *
 * Every face (docs/reference/skiplist_common.h):
 *   int    name_init(struct name *sl, const struct skiplist_allocator *a, uint64_t seed);  set up
 *   void   name_destroy(struct name *sl, void (*fn)(T *e, void *arg), void *arg);  free the nodes, fn per element
 *   void   name_clear(struct name *sl, void (*fn)(T *e, void *arg), void *arg);    the same, sl stays usable
 *   size_t name_count(const struct name *sl);                   elements
 *   bool   name_empty(const struct name *sl);                   no element
 *   size_t name_bytes(const struct name *sl);                   heap bytes held
 *   T     *name_find(const struct name *sl, K_T key);           first with key
 *   T     *name_lower_bound(const struct name *sl, K_T key);    first with key >= key
 *   T     *name_upper_bound(const struct name *sl, K_T key);    first with key > key
 *   T     *name_floor(const struct name *sl, K_T key);          last with key <= key
 *   T     *name_below(const struct name *sl, K_T key);          last with key < key
 *   T     *name_first(const struct name *sl);                   first
 *   T     *name_last(const struct name *sl);                    last
 *   int    name_check(const struct name *sl, char *why, size_t len);  every invariant
 *   T     *name_iter_first(struct name_iter *it, const struct name *sl);
 *   T     *name_iter_last(struct name_iter *it, const struct name *sl);
 *   T     *name_iter_seek(struct name_iter *it, const struct name *sl, K_T key);  at the lower bound
 *   T     *name_iter_next(struct name_iter *it);
 *   T     *name_iter_prev(struct name_iter *it);
 *   T     *name_iter_get(const struct name_iter *it);
 *   int    name_build(struct name *sl, T *const *sorted, size_t n);  load an empty list, O(n)
 *   void   name_find_many(const struct name *sl, K_T const *keys, size_t n, T **out);  n finds, interleaved
 *   void   name_lower_bound_many(const struct name *sl, K_T const *keys, size_t n, T **out);  n lower bounds
 * Ordered index and extent index (docs/reference/skiplist_remove.h):
 *   int    name_erase(struct name *sl, T *e);                   remove e
 *   T     *name_pop_first(struct name *sl);                     remove the first
 *   T     *name_pop_last(struct name *sl);                      remove the last
 *   size_t name_erase_range(struct name *sl, K_T lo, K_T hi, void (*fn)(T *e, void *arg), void *arg);  remove [lo, hi]
 * Ordered index, SKIPLIST_DEFINE (docs/reference/skiplist_map.h):
 *   int    name_insert(struct name *sl, T *e, T **existing);    insert, unique keys
 *   int    name_insert_multi(struct name *sl, T *e);            insert after its equals
 *   int    name_erase_key(struct name *sl, K_T key, T **out);   remove the first with key
 * Priority queue, SKIPLIST_PQ_DEFINE (docs/reference/skiplist_pq.h):
 *   int    name_push(struct name *pq, T *e);                    queue, after its equals
 *   T     *name_peek(const struct name *pq);                    the minimum
 *   T     *name_pop(struct name *pq);                           remove the minimum
 *   int    name_remove(struct name *sl, T *e);                  unqueue e, no search
 *   int    name_requeue(struct name *pq, T *e);                 move e after its key changed
 *   bool   name_queued(const T *e);                             e is in a queue
 *   bool   name_queued_in(const struct name *pq, const T *e);   e is in pq
 * Extent index, SKIPLIST_EXTENT_DEFINE (docs/reference/skiplist_extent.h):
 *   int    name_insert(struct name *sl, T *e, T **clash);       insert, no overlap
 *   T     *name_lookup(const struct name *sl, K_T point);       the extent holding point
 *   int    name_first_overlap(const struct name *sl, K_T lo, K_T hi, T **out);  the lowest overlapping [lo, hi]
 *   int    name_insert_hole(struct name *sl, T *e, K_T align, K_T lo, K_T hi, int flags);  place e in free space
 *   T     *name_iter_overlap(struct name_iter *it, const struct name *sl, K_T lo, K_T hi);  first overlapping
 *   T     *name_iter_next_overlap(struct name_iter *it);        next overlapping
 * Order statistics, SKIPLIST_RANKED_DEFINE and SKIPLIST_EXTENT_RANKED_DEFINE
 * (docs/reference/skiplist_rank.h):
 *   size_t  name_rank(const struct name *sl, K_T key);          elements before key
 *   int64_t name_rank_of(const struct name *sl, const T *e);    e's position
 *   T      *name_at(const struct name *sl, size_t i);           the element at position i
 *   size_t  name_count_range(const struct name *sl, K_T lo, K_T hi);  elements in [lo, hi]
 *   T      *name_iter_at(struct name_iter *it, const struct name *sl, size_t i);  start at position i
 * Loops (documented at their definitions, below):
 *   SKIPLIST_FOREACH(name, sl, it, var)
 *   SKIPLIST_FOREACH_REVERSE(name, sl, it, var)
 *   SKIPLIST_FOREACH_FROM(name, sl, it, var, key)
 *   SKIPLIST_FOREACH_AT(name, sl, it, var, i)
 *   SKIPLIST_FOREACH_SAFE(name, sl, it, var, tmp)
 *   SKIPLIST_FOREACH_OVERLAP(name, sl, it, var, lo, hi)
 */
// clang-format on

/* The tuning's ranges, for skiplist.h (LIB "skiplist", LOW 1: one key per
 * node, no index) and skiplist_rcu.h (LIB "skiplist_rcu", LOW 2). */
#define SLX_CHECK_RANGES(name, LIB, LOW, KPN, MAXLVL, PSHIFT)                 \
    SLX_STATIC_ASSERT(SLX_CAT(name, _kpn), (KPN) >= (LOW) && (KPN) <= 256,    \
                      LIB " " #name ": keys per node (KPN) must be " #LOW     \
                          "..256");                                           \
    SLX_STATIC_ASSERT(                                                        \
        SLX_CAT(name, _maxlvl), (MAXLVL) >= (LOW) && (MAXLVL) <= 32,          \
        LIB " " #name ": max level (MAXLVL) must be " #LOW "..32");           \
    SLX_STATIC_ASSERT(SLX_CAT(name, _pshift), (PSHIFT) >= 1 && (PSHIFT) <= 8, \
                      LIB " " #name ": promotion shift (PSHIFT) must be 1..8")
#define SLX_CHECK_CONFIG(name, KPN, MAXLVL, PSHIFT) \
    SLX_CHECK_RANGES(name, "skiplist", 1, KPN, MAXLVL, PSHIFT)

#define SLX_CHECK_KEYSIZE(name, K_T)                                       \
    SLX_STATIC_ASSERT(SLX_CAT(name, _keysize), sizeof(K_T) <= SLX_KEY_MAX, \
                      "skiplist " #name                                    \
                      ": key type (K_T) must be at most 64 bytes")

/* Whether member M of T has type TY (a constant expression). */
#ifdef __cplusplus
#define SLX_TYPEOF(x) decltype(x)
#define SLX_MEMBER_IS(T, M, TY) (std::is_same<decltype(((T *)0)->M), TY>::value)
#else
#define SLX_TYPEOF(x) __typeof__(x)
#define SLX_MEMBER_IS(T, M, TY) \
    __builtin_types_compatible_p(__typeof__(((T *)0)->M), TY)
#endif

#define SLX_CHECK_HOOK(name, T, HOOK)                                       \
    SLX_STATIC_ASSERT(                                                      \
        SLX_CAT(name, _hook), SLX_MEMBER_IS(T, HOOK, struct skiplist_hook), \
        "skiplist " #name ": HOOK must name the member of T "               \
        "of type struct skiplist_hook (SKIPLIST_PQ_DEFINE("                 \
        "name, T, K_T, KEY_OF, CMP, HOOK, KPN, MAXLVL, PSHIFT))")

#define SLX_CHECK_EXTENT(name, T, K_T, START, SIZE)                           \
    SLX_STATIC_ASSERT(SLX_CAT(name, _keytype), (K_T)-1 > (K_T)0,              \
                      "skiplist " #name                                       \
                      ": extent key type (K_T) must be an unsigned integer"); \
    SLX_STATIC_ASSERT(SLX_CAT(name, _start), SLX_MEMBER_IS(T, START, K_T),    \
                      "skiplist " #name                                       \
                      ": START must name a member of T of type K_T");         \
    SLX_STATIC_ASSERT(SLX_CAT(name, _size), SLX_MEMBER_IS(T, SIZE, K_T),      \
                      "skiplist " #name                                       \
                      ": SIZE must name a member of T of type K_T")

/* The queue's old argument order put HOOK third. Where the comparator then
 * lands in HOOK's place as SKIPLIST_CMP_NUM (the usual case), the whole
 * instance is replaced by one message that says so. */
#define SLX_PQ_BAD_ORDER(ATTR, name, ...)                                     \
    SLX_STATIC_ASSERT(SLX_CAT(name, _argument_order), 0,                      \
                      "skiplist " #name ": SKIPLIST_PQ_DEFINE takes (name, "  \
                      "T, K_T, KEY_OF, CMP, HOOK, KPN, MAXLVL, PSHIFT): the " \
                      "HOOK member comes after the comparator");
#define SLX_PQ_NOTHING(...)

/* The searches and the iterator's moves, declared alike by every face
 * here and by skiplist_rcu.h's. ATTR is `static SLX_UNUSED` or empty. */
#define SLX_PROTO_SEARCH(name, T, K_T, ATTR)                       \
    ATTR T *SLX_CAT(name, _find)(const struct name *, K_T);        \
    ATTR T *SLX_CAT(name, _lower_bound)(const struct name *, K_T); \
    ATTR T *SLX_CAT(name, _upper_bound)(const struct name *, K_T); \
    ATTR T *SLX_CAT(name, _floor)(const struct name *, K_T);       \
    ATTR T *SLX_CAT(name, _below)(const struct name *, K_T);       \
    ATTR T *SLX_CAT(name, _first)(const struct name *);            \
    ATTR T *SLX_CAT(name, _last)(const struct name *)
#define SLX_PROTO_ITER(name, T, K_T, ATTR)                            \
    ATTR T *SLX_CAT(name, _iter_first)(struct SLX_CAT(name, _iter) *, \
                                       const struct name *);          \
    ATTR T *SLX_CAT(name, _iter_last)(struct SLX_CAT(name, _iter) *,  \
                                      const struct name *);           \
    ATTR T *SLX_CAT(name, _iter_seek)(struct SLX_CAT(name, _iter) *,  \
                                      const struct name *, K_T);      \
    ATTR T *SLX_CAT(name, _iter_next)(struct SLX_CAT(name, _iter) *); \
    ATTR T *SLX_CAT(name, _iter_prev)(struct SLX_CAT(name, _iter) *)

/* Types and declarations. ATTR is `static SLX_UNUSED` or empty. */
#define SLX_PROTO_COMMON(name, T, K_T, ATTR)                                \
    struct name {                                                           \
        struct slx_list sl;                                                 \
    };                                                                      \
    struct SLX_CAT(name, _iter) {                                           \
        struct slx_iter it;                                                 \
    };                                                                      \
    ATTR int SLX_CAT(name, _init)(                                          \
        struct name *, const struct skiplist_allocator *, uint64_t);        \
    ATTR void SLX_CAT(name, _destroy)(struct name *, void (*)(T *, void *), \
                                      void *);                              \
    ATTR void SLX_CAT(name, _clear)(struct name *, void (*)(T *, void *),   \
                                    void *);                                \
    ATTR size_t SLX_CAT(name, _count)(const struct name *);                 \
    ATTR bool SLX_CAT(name, _empty)(const struct name *);                   \
    ATTR size_t SLX_CAT(name, _bytes)(const struct name *);                 \
    SLX_PROTO_SEARCH(name, T, K_T, ATTR);                                   \
    SLX_PROTO_BULK(name, T, K_T, ATTR);                                     \
    ATTR int SLX_CAT(name, _check)(const struct name *, char *, size_t);    \
    SLX_PROTO_ITER(name, T, K_T, ATTR);                                     \
    ATTR T *SLX_CAT(name, _iter_get)(const struct SLX_CAT(name, _iter) *);  \
    ATTR T *SLX_CAT(name, _slx_iter_step)(struct SLX_CAT(name, _iter) *);   \
    ATTR T *SLX_CAT(name, _slx_iter_resync)(struct SLX_CAT(name, _iter) *, T *)

/* Bulk calls of every face: a build from sorted input, lookups of many
 * keys with their descents interleaved. */
#define SLX_PROTO_BULK(name, T, K_T, ATTR)                                \
    ATTR int SLX_CAT(name, _build)(struct name *, T *const *, size_t);    \
    ATTR void SLX_CAT(name, _find_many)(const struct name *, K_T const *, \
                                        size_t, T **);                    \
    ATTR void SLX_CAT(name, _lower_bound_many)(const struct name *,       \
                                               K_T const *, size_t, T **)

/* Erasing a key range: the ordered and extent indexes. */
#define SLX_PROTO_ERASE_RANGE(name, T, K_T, ATTR)                    \
    ATTR size_t SLX_CAT(name, _erase_range)(struct name *, K_T, K_T, \
                                            void (*)(T *, void *), void *)

/* Removal by element and at the ends: the ordered and extent indexes (a
 * queue removes through name_remove and name_pop). */
#define SLX_PROTO_REMOVE(name, T, ATTR)                 \
    ATTR int SLX_CAT(name, _erase)(struct name *, T *); \
    ATTR T *SLX_CAT(name, _pop_first)(struct name *);   \
    ATTR T *SLX_CAT(name, _pop_last)(struct name *)

#define SLX_PROTO_MAP(name, T, K_T, ATTR)                      \
    ATTR int SLX_CAT(name, _insert)(struct name *, T *, T **); \
    ATTR int SLX_CAT(name, _insert_multi)(struct name *, T *); \
    ATTR int SLX_CAT(name, _erase_key)(struct name *, K_T, T **)

#define SLX_PROTO_PQ(name, T, ATTR)                       \
    ATTR int SLX_CAT(name, _push)(struct name *, T *);    \
    ATTR T *SLX_CAT(name, _peek)(const struct name *);    \
    ATTR T *SLX_CAT(name, _pop)(struct name *);           \
    ATTR int SLX_CAT(name, _remove)(struct name *, T *);  \
    ATTR int SLX_CAT(name, _requeue)(struct name *, T *); \
    ATTR bool SLX_CAT(name, _queued)(const T *);          \
    ATTR bool SLX_CAT(name, _queued_in)(const struct name *, const T *)

#define SLX_PROTO_EXTENT(name, T, K_T, ATTR)                                \
    ATTR int SLX_CAT(name, _insert)(struct name *, T *, T **);              \
    ATTR T *SLX_CAT(name, _lookup)(const struct name *, K_T);               \
    ATTR int SLX_CAT(name, _first_overlap)(const struct name *, K_T, K_T,   \
                                           T **);                           \
    ATTR int SLX_CAT(name, _insert_hole)(struct name *, T *, K_T, K_T, K_T, \
                                         int);                              \
    ATTR T *SLX_CAT(name, _iter_overlap)(struct SLX_CAT(name, _iter) *,     \
                                         const struct name *, K_T, K_T);    \
    ATTR T *SLX_CAT(name, _iter_next_overlap)(struct SLX_CAT(name, _iter) *)

/* Order statistics: the ranked instances' calls. */
#define SLX_PROTO_RANK(name, T, K_T, ATTR)                                  \
    ATTR size_t SLX_CAT(name, _rank)(const struct name *, K_T);             \
    ATTR int64_t SLX_CAT(name, _rank_of)(const struct name *, const T *);   \
    ATTR T *SLX_CAT(name, _at)(const struct name *, size_t);                \
    ATTR size_t SLX_CAT(name, _count_range)(const struct name *, K_T, K_T); \
    ATTR T *SLX_CAT(name, _iter_at)(struct SLX_CAT(name, _iter) *,          \
                                    const struct name *, size_t)

/* COUNT_RANGE: the face's count over [lo, hi] (sl, lo and hi in scope). */
#define SLX_GEN_RANK(name, T, K_T, ATTR, COUNT_RANGE)                       \
    ATTR size_t SLX_CAT(name, _rank)(const struct name *sl, K_T key)        \
    {                                                                       \
        return slx_rank_key(SLX_TY(name), &sl->sl, &key, SLX_LT);           \
    }                                                                       \
    ATTR int64_t SLX_CAT(name, _rank_of)(const struct name *sl, const T *e) \
    {                                                                       \
        return slx_rank_of(SLX_TY(name), &sl->sl, e);                       \
    }                                                                       \
    ATTR T *SLX_CAT(name, _at)(const struct name *sl, size_t i)             \
    {                                                                       \
        return (T *)slx_at(SLX_TY(name), &sl->sl, i);                       \
    }                                                                       \
    ATTR size_t SLX_CAT(name, _count_range)(const struct name *sl, K_T lo,  \
                                            K_T hi)                         \
    {                                                                       \
        return COUNT_RANGE;                                                 \
    }                                                                       \
    ATTR T *SLX_CAT(name, _iter_at)(struct SLX_CAT(name, _iter) * it,       \
                                    const struct name *sl, size_t i)        \
    {                                                                       \
        return (T *)slx_iter_at(SLX_TY(name), &sl->sl, &it->it, i);         \
    }

/* The descriptor and key adapters of one instance. The key adapters copy
 * through memcpy: the leaves store keys as bytes, at no particular
 * alignment. */
#define SLX_GEN_TYPE(name, T, K_T, KEY_OF, CMP, KPN, MAXLVL, PSHIFT, HOOKOFF, \
                     EXT, KEYMAX, SETSTART, SIZEOF, RANKED)                   \
    static inline SLX_UNUSED int SLX_CAT(name, _slx_cmp)(const void *a,       \
                                                         const void *b)       \
    {                                                                         \
        K_T x;                                                                \
        K_T y;                                                                \
        memcpy(&x, a, sizeof x);                                              \
        memcpy(&y, b, sizeof y);                                              \
        return CMP(x, y); /* CMP(K_T, K_T): negative, zero, positive */       \
    }                                                                         \
    static inline SLX_UNUSED int SLX_CAT(name, _slx_less)(const void *a,      \
                                                          const void *b)      \
    {                                                                         \
        K_T x;                                                                \
        K_T y;                                                                \
        memcpy(&x, a, sizeof x);                                              \
        memcpy(&y, b, sizeof y);                                              \
        return SLX_LESS(CMP, x, y);                                           \
    }                                                                         \
    static inline SLX_UNUSED void SLX_CAT(name, _slx_key_of)(const void *e,   \
                                                             void *out)       \
    {                                                                         \
        K_T k = KEY_OF((const T *)e); /* KEY_OF: accessor of a const T *,     \
                                         not a member name */                 \
        memcpy(out, &k, sizeof k);                                            \
    }                                                                         \
    static struct {                                                           \
        struct slx_linkhdr link;                                              \
        unsigned char                                                         \
            rest[SLX_LINK_SIZE(K_T, EXT) - sizeof(struct slx_linkhdr)];       \
        struct slx_leaf h;                                                    \
    } SLX_CAT(name, _slx_empty) = {                                           \
        {&SLX_CAT(name, _slx_empty).h, &SLX_CAT(name, _slx_empty).h},         \
        {0},                                                                  \
        {0, 1, 0, 0, 0, 0, 0, 0, 0, NULL}};                                   \
    static const struct slx_type SLX_CAT(name, _slx_type) = {                 \
        (KPN),                                                                \
        (MAXLVL),                                                             \
        (PSHIFT),                                                             \
        2u << (PSHIFT),                                                       \
        sizeof(K_T),                                                          \
        SLX_LINK_SIZE(K_T, EXT),                                              \
        SLX_ROUND8((size_t)(KPN) * sizeof(K_T)),                              \
        (HOOKOFF),                                                            \
        (EXT),                                                                \
        SLX_CAT(name, _slx_cmp),                                              \
        SLX_CAT(name, _slx_less),                                             \
        SLX_IS_CMP_NUM(CMP),                                                  \
        SLX_CAT(name, _slx_key_of),                                           \
        (KEYMAX),                                                             \
        SETSTART,                                                             \
        SIZEOF,                                                               \
        &SLX_CAT(name, _slx_empty).h,                                         \
        (RANKED)}

/* Bytes per leaf link: next and prev, the next leaf's first key, and for
 * the extent face the free runs' summary. */
#define SLX_LINK_SIZE(K_T, EXT)                             \
    (sizeof(struct slx_linkhdr) + SLX_ROUND8(sizeof(K_T)) + \
     ((EXT) ? sizeof(struct slx_runs) : 0))

/* The typed wrappers only bind types: each one calls the engine. */
#define SLX_TY(name) (&SLX_CAT(name, _slx_type))

/* Definitions shared by every face. */
#define SLX_GEN_COMMON(name, T, K_T, ATTR)                                     \
    SLX_CHECK_KEYSIZE(name, K_T);                                              \
    ATTR int SLX_CAT(name, _init)(                                             \
        struct name * sl, const struct skiplist_allocator *a, uint64_t seed)   \
    {                                                                          \
        return SLX_DEBUGGED_INT(SLX_TY(name), &sl->sl, "init",                 \
                                slx_init(SLX_TY(name), &sl->sl, a, seed));     \
    }                                                                          \
    ATTR void SLX_CAT(name, _destroy)(struct name * sl,                        \
                                      void (*fn)(T *, void *), void *arg)      \
    {                                                                          \
        slx_destroy(SLX_TY(name), &sl->sl, (void (*)(void *, void *))fn, arg); \
    }                                                                          \
    ATTR void SLX_CAT(name, _clear)(struct name * sl, void (*fn)(T *, void *), \
                                    void *arg)                                 \
    {                                                                          \
        slx_clear(SLX_TY(name), &sl->sl, (void (*)(void *, void *))fn, arg);   \
        SLX_DEBUGGED_VOID(SLX_TY(name), &sl->sl, "clear");                     \
    }                                                                          \
    ATTR size_t SLX_CAT(name, _count)(const struct name *sl)                   \
    {                                                                          \
        return sl->sl.count;                                                   \
    }                                                                          \
    ATTR bool SLX_CAT(name, _empty)(const struct name *sl)                     \
    {                                                                          \
        return sl->sl.count == 0;                                              \
    }                                                                          \
    ATTR size_t SLX_CAT(name, _bytes)(const struct name *sl)                   \
    {                                                                          \
        return slx_bytes(&sl->sl);                                             \
    }                                                                          \
    ATTR T *SLX_CAT(name, _find)(const struct name *sl, K_T key)               \
    {                                                                          \
        return (T *)slx_find(SLX_TY(name), &sl->sl, &key);                     \
    }                                                                          \
    ATTR T *SLX_CAT(name, _lower_bound)(const struct name *sl, K_T key)        \
    {                                                                          \
        return (T *)slx_bound_elem(SLX_TY(name), &sl->sl, &key, SLX_LT);       \
    }                                                                          \
    ATTR T *SLX_CAT(name, _upper_bound)(const struct name *sl, K_T key)        \
    {                                                                          \
        return (T *)slx_bound_elem(SLX_TY(name), &sl->sl, &key, SLX_LE);       \
    }                                                                          \
    ATTR T *SLX_CAT(name, _floor)(const struct name *sl, K_T key)              \
    {                                                                          \
        return (T *)slx_floor(SLX_TY(name), &sl->sl, &key, SLX_LE);            \
    }                                                                          \
    ATTR T *SLX_CAT(name, _below)(const struct name *sl, K_T key)              \
    {                                                                          \
        return (T *)slx_floor(SLX_TY(name), &sl->sl, &key, SLX_LT);            \
    }                                                                          \
    ATTR T *SLX_CAT(name, _first)(const struct name *sl)                       \
    {                                                                          \
        return (T *)slx_first(SLX_TY(name), &sl->sl);                          \
    }                                                                          \
    ATTR T *SLX_CAT(name, _last)(const struct name *sl)                        \
    {                                                                          \
        return (T *)slx_last(SLX_TY(name), &sl->sl);                           \
    }                                                                          \
    ATTR int SLX_CAT(name, _check)(const struct name *sl, char *why,           \
                                   size_t len)                                 \
    {                                                                          \
        return slx_check(SLX_TY(name), &sl->sl, why, len);                     \
    }                                                                          \
    ATTR T *SLX_CAT(name, _iter_first)(struct SLX_CAT(name, _iter) * it,       \
                                       const struct name *sl)                  \
    {                                                                          \
        return (T *)slx_iter_first(SLX_TY(name), &sl->sl, &it->it);            \
    }                                                                          \
    ATTR T *SLX_CAT(name, _iter_last)(struct SLX_CAT(name, _iter) * it,        \
                                      const struct name *sl)                   \
    {                                                                          \
        return (T *)slx_iter_last(SLX_TY(name), &sl->sl, &it->it);             \
    }                                                                          \
    ATTR T *SLX_CAT(name, _iter_seek)(struct SLX_CAT(name, _iter) * it,        \
                                      const struct name *sl, K_T key)          \
    {                                                                          \
        return (T *)slx_iter_seek(SLX_TY(name), &sl->sl, &it->it, &key);       \
    }                                                                          \
    ATTR T *SLX_CAT(name, _iter_next)(struct SLX_CAT(name, _iter) * it)        \
    {                                                                          \
        return (T *)slx_iter_next(SLX_TY(name), &it->it);                      \
    }                                                                          \
    ATTR T *SLX_CAT(name, _iter_prev)(struct SLX_CAT(name, _iter) * it)        \
    {                                                                          \
        return (T *)slx_iter_prev(SLX_TY(name), &it->it);                      \
    }                                                                          \
    ATTR T *SLX_CAT(name, _iter_get)(const struct SLX_CAT(name, _iter) * it)   \
    {                                                                          \
        return (T *)slx_iter_get(SLX_TY(name), &it->it);                       \
    }                                                                          \
    ATTR T *SLX_CAT(name, _slx_iter_step)(struct SLX_CAT(name, _iter) * it)    \
    {                                                                          \
        return (T *)slx_iter_step(SLX_TY(name), &it->it);                      \
    }                                                                          \
    ATTR T *SLX_CAT(name, _slx_iter_resync)(struct SLX_CAT(name, _iter) * it,  \
                                            T * e)                             \
    {                                                                          \
        return (T *)slx_iter_resync(SLX_TY(name), &it->it, e);                 \
    }                                                                          \
    SLX_GEN_BULK(name, T, K_T, ATTR)

/* Bulk calls of every face (SLX_PROTO_BULK). */
#define SLX_GEN_BULK(name, T, K_T, ATTR)                                    \
    ATTR int SLX_CAT(name, _build)(struct name * sl, T *const *sorted,      \
                                   size_t n)                                \
    {                                                                       \
        return SLX_DEBUGGED_INT(                                            \
            SLX_TY(name), &sl->sl, "build",                                 \
            slx_build(SLX_TY(name), &sl->sl, (void *const *)sorted, n));    \
    }                                                                       \
    ATTR void SLX_CAT(name, _find_many)(const struct name *sl,              \
                                        K_T const *keys, size_t n, T **out) \
    {                                                                       \
        slx_find_many(SLX_TY(name), &sl->sl, keys, n, (void **)out, 1);     \
    }                                                                       \
    ATTR void SLX_CAT(name, _lower_bound_many)(                             \
        const struct name *sl, K_T const *keys, size_t n, T **out)          \
    {                                                                       \
        slx_find_many(SLX_TY(name), &sl->sl, keys, n, (void **)out, 0);     \
    }

/* Erasing a key range (SLX_PROTO_ERASE_RANGE). */
#define SLX_GEN_ERASE_RANGE(name, T, K_T, ATTR)                               \
    ATTR size_t SLX_CAT(name, _erase_range)(                                  \
        struct name * sl, K_T lo, K_T hi, void (*fn)(T *, void *), void *arg) \
    {                                                                         \
        return SLX_DEBUGGED_SIZE(                                             \
            SLX_TY(name), &sl->sl, "erase_range",                             \
            slx_erase_range(SLX_TY(name), &sl->sl, &lo, &hi,                  \
                            (void (*)(void *, void *))fn, arg));              \
    }

/* Erase through the element: a queue's removal fast path inline, the rest
 * out of line (name_slx_erase_slow), so a caller's removal loop stays
 * small. Shared by every face: a queue calls it name_remove. */
#define SLX_GEN_ERASE(name, T, ATTR, VERB)                             \
    static SLX_NOINLINE SLX_UNUSED int SLX_CAT(name, _slx_erase_slow)( \
        struct name * sl, T * e)                                       \
    {                                                                  \
        return slx_erase(SLX_TY(name), &sl->sl, e);                    \
    }                                                                  \
    ATTR int SLX_CAT(name, VERB)(struct name * sl, T * e)              \
    {                                                                  \
        int rc = !e ? -EINVAL                                          \
                 : slx_remove_small(SLX_TY(name), &sl->sl, e)          \
                     ? 0                                               \
                     : SLX_CAT(name, _slx_erase_slow)(sl, e);          \
        return SLX_DEBUGGED_INT(SLX_TY(name), &sl->sl, #VERB, rc);     \
    }

#define SLX_GEN_REMOVE(name, T, ATTR)                                       \
    SLX_GEN_ERASE(name, T, ATTR, _erase)                                    \
    ATTR T *SLX_CAT(name, _pop_first)(struct name * sl)                     \
    {                                                                       \
        return (T *)SLX_DEBUGGED_PTR(SLX_TY(name), &sl->sl, "pop_first",    \
                                     slx_pop_first(SLX_TY(name), &sl->sl)); \
    }                                                                       \
    ATTR T *SLX_CAT(name, _pop_last)(struct name * sl)                      \
    {                                                                       \
        return (T *)SLX_DEBUGGED_PTR(SLX_TY(name), &sl->sl, "pop_last",     \
                                     slx_pop_last(SLX_TY(name), &sl->sl));  \
    }

/* name##SUFFIX: name_insert's out-of-line part FN (slx_insert_descend or
 * slx_insert_unique_keyed) over a key the inline part read already. The
 * key comes by value: in a register, where a pointer to the inline part's
 * copy would cost that part a frame (no tail call). */
#define SLX_GEN_INSERT_KEYED(name, T, K_T, SUFFIX, FN)               \
    static SLX_NOINLINE SLX_UNUSED int SLX_CAT(name, SUFFIX)(        \
        struct name * sl, T * e, T * *existing, K_T k)               \
    {                                                                \
        unsigned char key[sizeof k];                                 \
        memcpy(key, &k, sizeof k);                                   \
        return FN(SLX_TY(name), &sl->sl, e, key, (void **)existing); \
    }

/* Ordered index: unique and multi inserts, erase by key. */
#define SLX_GEN_MAP(name, T, K_T, ATTR)                                        \
    static SLX_NOINLINE SLX_UNUSED int SLX_CAT(name, _slx_insert_slow)(        \
        struct name * sl, T * e, T * *existing)                                \
    {                                                                          \
        return slx_insert_unique(SLX_TY(name), &sl->sl, e, (void **)existing); \
    }                                                                          \
    SLX_GEN_INSERT_KEYED(name, T, K_T, _slx_insert_keyed,                      \
                         slx_insert_unique_keyed)                              \
    SLX_GEN_INSERT_KEYED(name, T, K_T, _slx_insert_descend,                    \
                         slx_insert_descend)                                   \
    ATTR int SLX_CAT(name, _insert)(struct name * sl, T * e, T * *existing)    \
    {                                                                          \
        unsigned char key[sizeof(K_T)];                                        \
        int rc = slx_insert_append_inline(SLX_TY(name), &sl->sl, e, key);      \
        if (rc == SLX_LEFT_KEYED || rc == SLX_LEFT_DESCEND) {                  \
            K_T k;                                                             \
            memcpy(&k, key, sizeof k);                                         \
            rc = rc == SLX_LEFT_DESCEND                                        \
                     ? SLX_CAT(name, _slx_insert_descend)(sl, e, existing, k)  \
                     : SLX_CAT(name, _slx_insert_keyed)(sl, e, existing, k);   \
        } else if (rc == SLX_LEFT_UNREAD) {                                    \
            rc = SLX_CAT(name, _slx_insert_slow)(sl, e, existing);             \
        }                                                                      \
        return SLX_DEBUGGED_INT(SLX_TY(name), &sl->sl, "insert", rc);          \
    }                                                                          \
    ATTR int SLX_CAT(name, _insert_multi)(struct name * sl, T * e)             \
    {                                                                          \
        return SLX_DEBUGGED_INT(SLX_TY(name), &sl->sl, "insert_multi",         \
                                slx_insert_multi(SLX_TY(name), &sl->sl, e));   \
    }                                                                          \
    ATTR int SLX_CAT(name, _erase_key)(struct name * sl, K_T key, T * *out)    \
    {                                                                          \
        return SLX_DEBUGGED_INT(                                               \
            SLX_TY(name), &sl->sl, "erase_key",                                \
            slx_erase_key(SLX_TY(name), &sl->sl, &key, (void **)out));         \
    }

/* Priority queue: the hook gives removal without search. Push and pop
 * keep their sole-leaf fast paths inline and the rest out of line
 * (name_slx_push_slow, name_slx_pop_slow). */
#define SLX_GEN_PQ(name, T, ATTR)                                              \
    static SLX_NOINLINE SLX_UNUSED int SLX_CAT(name, _slx_push_slow)(          \
        struct name * pq, T * e)                                               \
    {                                                                          \
        return slx_push_slow(SLX_TY(name), &pq->sl, e);                        \
    }                                                                          \
    static SLX_NOINLINE SLX_UNUSED T *SLX_CAT(name,                            \
                                              _slx_pop_slow)(struct name * pq) \
    {                                                                          \
        return (T *)slx_pop_first(SLX_TY(name), &pq->sl);                      \
    }                                                                          \
    ATTR int SLX_CAT(name, _push)(struct name * pq, T * e)                     \
    {                                                                          \
        int rc = slx_push_refused(SLX_TY(name), &pq->sl, e);                   \
        if (rc == 0 && !slx_push_edge(SLX_TY(name), &pq->sl, e))               \
            rc = SLX_CAT(name, _slx_push_slow)(pq, e);                         \
        return SLX_DEBUGGED_INT(SLX_TY(name), &pq->sl, "push", rc);            \
    }                                                                          \
    ATTR T *SLX_CAT(name, _peek)(const struct name *pq)                        \
    {                                                                          \
        return SLX_CAT(name, _first)(pq);                                      \
    }                                                                          \
    SLX_HOT_LINK(ATTR) T *SLX_CAT(name, _pop)(struct name * pq)                \
    {                                                                          \
        T *e = (T *)slx_pop_edge(SLX_TY(name), &pq->sl);                       \
        if (!e)                                                                \
            e = SLX_CAT(name, _slx_pop_slow)(pq);                              \
        return (T *)SLX_DEBUGGED_PTR(SLX_TY(name), &pq->sl, "pop", e);         \
    }                                                                          \
    SLX_GEN_ERASE(name, T, ATTR, _remove)                                      \
    ATTR int SLX_CAT(name, _requeue)(struct name * pq, T * e)                  \
    {                                                                          \
        return SLX_DEBUGGED_INT(SLX_TY(name), &pq->sl, "requeue",              \
                                slx_requeue(SLX_TY(name), &pq->sl, e));        \
    }                                                                          \
    ATTR bool SLX_CAT(name, _queued)(const T *e)                               \
    {                                                                          \
        return slx_queued(SLX_TY(name), NULL, e);                              \
    }                                                                          \
    ATTR bool SLX_CAT(name, _queued_in)(const struct name *pq, const T *e)     \
    {                                                                          \
        return slx_queued(SLX_TY(name), &pq->sl, e);                           \
    }

/* Extent index. */
#define SLX_GEN_EXTENT(name, T, K_T, START, SIZE, ATTR)                      \
    ATTR int SLX_CAT(name, _insert)(struct name * sl, T * e, T * *clash)     \
    {                                                                        \
        return SLX_DEBUGGED_INT(                                             \
            SLX_TY(name), &sl->sl, "insert",                                 \
            slx_ext_insert_elem(SLX_TY(name), &sl->sl, e, (void **)clash));  \
    }                                                                        \
    ATTR T *SLX_CAT(name, _lookup)(const struct name *sl, K_T p)             \
    {                                                                        \
        return (T *)slx_ext_lookup_elem(SLX_TY(name), &sl->sl, (uint64_t)p); \
    }                                                                        \
    ATTR int SLX_CAT(name, _first_overlap)(const struct name *sl, K_T lo,    \
                                           K_T hi, T **out)                  \
    {                                                                        \
        return slx_ext_overlap(SLX_TY(name), &sl->sl, (uint64_t)lo,          \
                               (uint64_t)hi, (void **)out);                  \
    }                                                                        \
    ATTR int SLX_CAT(name, _insert_hole)(struct name * sl, T * e, K_T align, \
                                         K_T lo, K_T hi, int flags)          \
    {                                                                        \
        return SLX_DEBUGGED_INT(                                             \
            SLX_TY(name), &sl->sl, "insert_hole",                            \
            slx_ext_insert_hole(SLX_TY(name), &sl->sl, e, (uint64_t)align,   \
                                (uint64_t)lo, (uint64_t)hi, flags));         \
    }                                                                        \
    ATTR T *SLX_CAT(name, _iter_overlap)(struct SLX_CAT(name, _iter) * it,   \
                                         const struct name *sl, K_T lo,      \
                                         K_T hi)                             \
    {                                                                        \
        return (T *)slx_ext_iter_overlap(SLX_TY(name), &sl->sl, &it->it,     \
                                         (uint64_t)lo, (uint64_t)hi);        \
    }                                                                        \
    ATTR T *SLX_CAT(name,                                                    \
                    _iter_next_overlap)(struct SLX_CAT(name, _iter) * it)    \
    {                                                                        \
        return (T *)slx_ext_iter_next_overlap(SLX_TY(name), &it->it);        \
    }

/* ------------------------------------------------------------------ */
/* Public instantiation macros                                         */
/* ------------------------------------------------------------------ */

/* The *_DEFINE, *_PROTOTYPE and *_GENERATE macros take their arguments
 * through one extra expansion so that SKIPLIST_DEFAULTS can stand for the
 * last three. DEFINE gives static functions; PROTOTYPE (in a header) and
 * GENERATE (in one .c) give external ones. No trailing semicolon needed. */
#define SLX_STATIC static SLX_UNUSED
#define SLX_EXTERN
/* SLX_HOT_LINK(ATTR): ATTR plus the inline hint when ATTR is SLX_STATIC,
 * for a DEFINE's small hot wrappers (the queue's pop). GCC otherwise keeps
 * such a function out of its caller's loop once the fast path passes its
 * automatic-inlining size. The paste reads ATTR's first token: `static`
 * maps to `static inline`, and an empty ATTR (SLX_EXTERN, where `inline`
 * would change what a unit emits) maps to nothing. */
#define SLX_HOT_LINK(ATTR) SLX_CAT_(SLX_HOT_LINK_, ATTR)
#define SLX_HOT_LINK_static SLX_HOT
#define SLX_HOT_LINK_

/** \brief `SKIPLIST_DEFINE`'s declarations with external linkage, for a
 *  header: the structs and the prototypes, no code.
 *  \param ... as `SKIPLIST_DEFINE` */
#define SKIPLIST_PROTOTYPE(...) SLX_PROTO_MAP_(SLX_EXTERN, __VA_ARGS__)
/** \brief `SKIPLIST_DEFINE`'s functions with external linkage, in exactly
 *  one `.c` file, after `SKIPLIST_PROTOTYPE` with the same arguments.
 *  \param ... as `SKIPLIST_DEFINE` */
#define SKIPLIST_GENERATE(...) SLX_GEN_MAP_(SLX_EXTERN, __VA_ARGS__)
/** \brief Instantiates an ordered index (set, map, multimap): `struct
 *  name`, `struct name_iter` and the `static` functions of \ref gen_common,
 *  \ref gen_remove and \ref gen_map.
 *
 * `SKIPLIST_DEFINE(name, T, K_T, KEY_OF, CMP, KPN, MAXLVL, PSHIFT)`, at
 * file scope, no semicolon needed; `SKIPLIST_DEFAULTS` may stand for the
 * last three. The other faces take their arguments in the same order
 * (name, element type, key type, key access, comparator, the face's own
 * members, tuning), and the arguments they share mean what they mean
 * here:
 * - `name`: prefix of `struct name`, `struct name_iter` and every
 *   `name_*()` function
 * - `T`: element type; the list stores `T *` and never copies, moves or
 *   frees an element
 * - `K_T`: key type, any assignable object type of at most 64 bytes:
 *   integers, floating point, pointers (`const char *` with `strcmp`),
 *   small structs (a composite key with its own comparator)
 * - `KEY_OF`: an accessor, not a member name: `KEY_OF(e)` is the key of
 *   `const T *e` (a function-like macro such as
 *   `#define KEY(e) ((e)->key)`, or a function); it may compute the key,
 *   which must not change while e is linked
 * - `CMP`: `CMP(a, b)` compares two `K_T`: negative, zero or positive, a
 *   total order; an identifier (function or macro). `SKIPLIST_CMP_NUM`,
 *   for any arithmetic type, is recognised by name: searches then compare
 *   with a plain `<`
 * - `KPN`: keys per leaf node, 1..256 (1: the classic skiplist, one key
 *   per node)
 * - `MAXLVL`: levels counting the leaves, 1..32: the index above them has
 *   at most `MAXLVL - 1` levels (1: no index, searches walk the leaves);
 *   a list that outgrows them stays correct (its root grows wider)
 * - `PSHIFT`: promotion probability 1/2^PSHIFT, 1..8: a new leaf's entry
 *   rises one more level with that probability, so the index's expected
 *   fanout is 2^PSHIFT; its nodes hold `2 << PSHIFT` entries
 *
 * Mistakes fail to compile with one message naming the parameter: an
 * out-of-range `KPN`, `MAXLVL` or `PSHIFT`, a key type over 64 bytes. A
 * member name where `KEY_OF` goes is reported by the compiler as a call
 * to an undeclared function (gcc quotes the header line that names
 * `KEY_OF`).
 * \param ... name, T, K_T, KEY_OF, CMP, KPN, MAXLVL, PSHIFT (above) */
#define SKIPLIST_DEFINE(...)                \
    SLX_PROTO_MAP_(SLX_STATIC, __VA_ARGS__) \
    SLX_GEN_MAP_(SLX_STATIC, __VA_ARGS__)

#define SLX_PROTO_MAP_(ATTR, name, T, K_T, KEY_OF, CMP, KPN, MAXLVL, PSHIFT) \
    SLX_PROTO_COMMON(name, T, K_T, ATTR);                                    \
    SLX_PROTO_REMOVE(name, T, ATTR);                                         \
    SLX_PROTO_ERASE_RANGE(name, T, K_T, ATTR);                               \
    SLX_PROTO_MAP(name, T, K_T, ATTR);
#define SLX_GEN_MAP_(ATTR, name, T, K_T, KEY_OF, CMP, KPN, MAXLVL, PSHIFT) \
    SLX_GEN_MAP_R(ATTR, 0, name, T, K_T, KEY_OF, CMP, KPN, MAXLVL, PSHIFT)
#define SLX_GEN_MAP_R(ATTR, RANKED, name, T, K_T, KEY_OF, CMP, KPN, MAXLVL, \
                      PSHIFT)                                               \
    SLX_CHECK_CONFIG(name, KPN, MAXLVL, PSHIFT);                            \
    SLX_GEN_TYPE(name, T, K_T, KEY_OF, CMP, KPN, MAXLVL, PSHIFT, -1L, 0, 0, \
                 NULL, NULL, RANKED);                                       \
    SLX_GEN_COMMON(name, T, K_T, ATTR)                                      \
    SLX_GEN_REMOVE(name, T, ATTR)                                           \
    SLX_GEN_ERASE_RANGE(name, T, K_T, ATTR)                                 \
    SLX_GEN_MAP(name, T, K_T, ATTR)

/** \brief `SKIPLIST_RANKED_DEFINE`'s declarations with external linkage.
 *  \param ... as `SKIPLIST_DEFINE` */
#define SKIPLIST_RANKED_PROTOTYPE(...) SLX_PROTO_RMAP_(SLX_EXTERN, __VA_ARGS__)
/** \brief `SKIPLIST_RANKED_DEFINE`'s functions with external linkage, in
 *  one `.c` file.
 *  \param ... as `SKIPLIST_DEFINE` */
#define SKIPLIST_RANKED_GENERATE(...) SLX_GEN_RMAP_(SLX_EXTERN, __VA_ARGS__)
/** \brief Instantiates an ordered index with order statistics: everything
 *  `SKIPLIST_DEFINE` gives, plus the functions of \ref gen_rank.
 *
 * Same arguments as `SKIPLIST_DEFINE`. Every index entry also counts the
 * elements below it, which the inserts and erases keep up (their cost:
 * docs/lab-notes.md, "Order statistics"); an instance that never asks
 * for a rank should use `SKIPLIST_DEFINE`, which pays nothing for them.
 * \param ... name, T, K_T, KEY_OF, CMP, KPN, MAXLVL, PSHIFT */
#define SKIPLIST_RANKED_DEFINE(...)          \
    SLX_PROTO_RMAP_(SLX_STATIC, __VA_ARGS__) \
    SLX_GEN_RMAP_(SLX_STATIC, __VA_ARGS__)
#define SLX_PROTO_RMAP_(ATTR, name, T, K_T, KEY_OF, CMP, KPN, MAXLVL, PSHIFT) \
    SLX_PROTO_MAP_(ATTR, name, T, K_T, KEY_OF, CMP, KPN, MAXLVL, PSHIFT)      \
    SLX_PROTO_RANK(name, T, K_T, ATTR);
#define SLX_GEN_RMAP_(ATTR, name, T, K_T, KEY_OF, CMP, KPN, MAXLVL, PSHIFT) \
    SLX_GEN_MAP_R(ATTR, 1, name, T, K_T, KEY_OF, CMP, KPN, MAXLVL, PSHIFT)  \
    SLX_GEN_RANK(name, T, K_T, ATTR,                                        \
                 slx_count_range(SLX_TY(name), &sl->sl, &lo, &hi))

/** \brief `SKIPLIST_PQ_DEFINE`'s declarations with external linkage.
 *  \param ... as `SKIPLIST_PQ_DEFINE` */
#define SKIPLIST_PQ_PROTOTYPE(...) \
    SLX_PQ_(SLX_PROTO_PQ_, SLX_PQ_BAD_ORDER, SLX_EXTERN, __VA_ARGS__)
/** \brief `SKIPLIST_PQ_DEFINE`'s functions with external linkage, in one
 *  `.c` file.
 *  \param ... as `SKIPLIST_PQ_DEFINE` */
#define SKIPLIST_PQ_GENERATE(...) \
    SLX_PQ_(SLX_GEN_PQ_, SLX_PQ_BAD_ORDER, SLX_EXTERN, __VA_ARGS__)
/** \brief Instantiates a keyed priority queue: `struct name`, `struct
 *  name_iter` and the `static` functions of \ref gen_common and
 *  \ref gen_pq.
 *
 * `SKIPLIST_PQ_DEFINE(name, T, K_T, KEY_OF, CMP, HOOK, KPN, MAXLVL,
 * PSHIFT)`; `SKIPLIST_PQ_DEFAULTS` may stand for the last three. Equal
 * keys pop in push order.
 * - `name`, `T`, `K_T`, `KEY_OF`, `CMP`, `KPN`, `MAXLVL`, `PSHIFT`: as
 *   for `SKIPLIST_DEFINE`, ranges included
 * - `HOOK`: a member name, not an accessor: the name of `T`'s
 *   `struct skiplist_hook` member, through which an element is removed
 *   with no search. One that is not such a member, or one given in the
 *   old third place, fails to compile.
 * \param ... name, T, K_T, KEY_OF, CMP, HOOK, KPN, MAXLVL, PSHIFT (above) */
#define SKIPLIST_PQ_DEFINE(...)                                     \
    SLX_PQ_(SLX_PROTO_PQ_, SLX_PQ_NOTHING, SLX_STATIC, __VA_ARGS__) \
    SLX_PQ_(SLX_GEN_PQ_, SLX_PQ_BAD_ORDER, SLX_STATIC, __VA_ARGS__)
/* Picks F, or BAD when the arguments are in the old order. */
#define SLX_PQ_(F, BAD, ATTR, ...) SLX_PQ__(F, BAD, ATTR, __VA_ARGS__)
#define SLX_PQ__(F, BAD, ATTR, name, T, K_T, KEY_OF, CMP, HOOK, KPN, MAXLVL, \
                 PSHIFT)                                                     \
    SLX_IIF(SLX_IS_CMP_NUM(HOOK))                                            \
    (BAD, F)(ATTR, name, T, K_T, KEY_OF, CMP, HOOK, KPN, MAXLVL, PSHIFT)

#define SLX_PROTO_PQ_(ATTR, name, T, K_T, KEY_OF, CMP, HOOK, KPN, MAXLVL, \
                      PSHIFT)                                             \
    SLX_PROTO_COMMON(name, T, K_T, ATTR);                                 \
    SLX_PROTO_PQ(name, T, ATTR);
#define SLX_GEN_PQ_(ATTR, name, T, K_T, KEY_OF, CMP, HOOK, KPN, MAXLVL, \
                    PSHIFT)                                             \
    SLX_CHECK_HOOK(name, T, HOOK);                                      \
    SLX_CHECK_CONFIG(name, KPN, MAXLVL, PSHIFT);                        \
    SLX_GEN_TYPE(name, T, K_T, KEY_OF, CMP, KPN, MAXLVL, PSHIFT,        \
                 (long)offsetof(T, HOOK), 0, 0, NULL, NULL, 0);         \
    SLX_GEN_COMMON(name, T, K_T, ATTR)                                  \
    SLX_GEN_PQ(name, T, ATTR)

/** \brief `SKIPLIST_EXTENT_DEFINE`'s declarations with external linkage.
 *  \param ... as `SKIPLIST_EXTENT_DEFINE` */
#define SKIPLIST_EXTENT_PROTOTYPE(...) \
    SLX_PROTO_EXTENT_(SLX_EXTERN, __VA_ARGS__)
/** \brief `SKIPLIST_EXTENT_DEFINE`'s functions with external linkage, in
 *  one `.c` file.
 *  \param ... as `SKIPLIST_EXTENT_DEFINE` */
#define SKIPLIST_EXTENT_GENERATE(...) SLX_GEN_EXTENT_(SLX_EXTERN, __VA_ARGS__)
/** \brief Instantiates an extent index over `[START, START + SIZE)`:
 *  `struct name`, `struct name_iter` and the `static` functions of
 *  \ref gen_common, \ref gen_remove and \ref gen_extent.
 *
 * `SKIPLIST_EXTENT_DEFINE(name, T, K_T, START, SIZE, KPN, MAXLVL,
 * PSHIFT)`; `SKIPLIST_DEFAULTS` may stand for the last three.
 * - `name`, `T`, `KPN`, `MAXLVL`, `PSHIFT`: as for `SKIPLIST_DEFINE`,
 *   ranges included
 * - `K_T`: key type, an unsigned integer type (a signed one fails to
 *   compile)
 * - `START`, `SIZE`: member names, not accessors, because the list writes
 *   `START` (`name_insert_hole()`): `T`'s members holding the extent's
 *   first point (the key) and its size, both of type `K_T` (another type
 *   fails to compile)
 * \param ... name, T, K_T, START, SIZE, KPN, MAXLVL, PSHIFT (above) */
#define SKIPLIST_EXTENT_DEFINE(...)            \
    SLX_PROTO_EXTENT_(SLX_STATIC, __VA_ARGS__) \
    SLX_GEN_EXTENT_(SLX_STATIC, __VA_ARGS__)

#define SLX_PROTO_EXTENT_(ATTR, name, T, K_T, START, SIZE, KPN, MAXLVL, \
                          PSHIFT)                                       \
    SLX_PROTO_COMMON(name, T, K_T, ATTR);                               \
    SLX_PROTO_REMOVE(name, T, ATTR);                                    \
    SLX_PROTO_ERASE_RANGE(name, T, K_T, ATTR);                          \
    SLX_PROTO_EXTENT(name, T, K_T, ATTR);
#define SLX_GEN_EXTENT_(ATTR, name, T, K_T, START, SIZE, KPN, MAXLVL, PSHIFT) \
    SLX_GEN_EXTENT_R(ATTR, 0, name, T, K_T, START, SIZE, KPN, MAXLVL, PSHIFT)
#define SLX_GEN_EXTENT_R(ATTR, RANKED, name, T, K_T, START, SIZE, KPN, MAXLVL, \
                         PSHIFT)                                               \
    SLX_CHECK_CONFIG(name, KPN, MAXLVL, PSHIFT);                               \
    SLX_GEN_EXTENT_TYPE(name, T, K_T, START, SIZE, KPN, MAXLVL, PSHIFT,        \
                        RANKED)                                                \
    SLX_GEN_COMMON(name, T, K_T, ATTR)                                         \
    SLX_GEN_REMOVE(name, T, ATTR)                                              \
    SLX_GEN_ERASE_RANGE(name, T, K_T, ATTR)                                    \
    SLX_GEN_EXTENT(name, T, K_T, START, SIZE, ATTR)

/** \brief `SKIPLIST_EXTENT_RANKED_DEFINE`'s declarations with external
 *  linkage.
 *  \param ... as `SKIPLIST_EXTENT_DEFINE` */
#define SKIPLIST_EXTENT_RANKED_PROTOTYPE(...) \
    SLX_PROTO_REXTENT_(SLX_EXTERN, __VA_ARGS__)
/** \brief `SKIPLIST_EXTENT_RANKED_DEFINE`'s functions with external
 *  linkage, in one `.c` file.
 *  \param ... as `SKIPLIST_EXTENT_DEFINE` */
#define SKIPLIST_EXTENT_RANKED_GENERATE(...) \
    SLX_GEN_REXTENT_(SLX_EXTERN, __VA_ARGS__)
/** \brief Instantiates an extent index with order statistics: everything
 *  `SKIPLIST_EXTENT_DEFINE` gives, plus the functions of \ref gen_rank
 *  (an extent's rank is its place in start order; `count_range` counts
 *  the extents overlapping the range).
 *
 * Same arguments as `SKIPLIST_EXTENT_DEFINE`; the counts' upkeep costs
 * what `SKIPLIST_RANKED_DEFINE`'s does.
 * \param ... name, T, K_T, START, SIZE, KPN, MAXLVL, PSHIFT */
#define SKIPLIST_EXTENT_RANKED_DEFINE(...)      \
    SLX_PROTO_REXTENT_(SLX_STATIC, __VA_ARGS__) \
    SLX_GEN_REXTENT_(SLX_STATIC, __VA_ARGS__)
#define SLX_PROTO_REXTENT_(ATTR, name, T, K_T, START, SIZE, KPN, MAXLVL,    \
                           PSHIFT)                                          \
    SLX_PROTO_EXTENT_(ATTR, name, T, K_T, START, SIZE, KPN, MAXLVL, PSHIFT) \
    SLX_PROTO_RANK(name, T, K_T, ATTR);
#define SLX_GEN_REXTENT_(ATTR, name, T, K_T, START, SIZE, KPN, MAXLVL, PSHIFT) \
    SLX_GEN_EXTENT_R(ATTR, 1, name, T, K_T, START, SIZE, KPN, MAXLVL, PSHIFT)  \
    SLX_GEN_RANK(name, T, K_T, ATTR,                                           \
                 slx_ext_count_range(SLX_TY(name), &sl->sl, (uint64_t)lo,      \
                                     (uint64_t)hi))

/* An extent face's descriptor: the key and size are T's START and SIZE
 * members, read and written through three accessors (shared with
 * skiplist_rcu.h). */
#define SLX_GEN_EXTENT_TYPE(name, T, K_T, START, SIZE, KPN, MAXLVL, PSHIFT,   \
                            RANKED)                                           \
    SLX_CHECK_EXTENT(name, T, K_T, START, SIZE);                              \
    static inline SLX_UNUSED K_T SLX_CAT(name, _slx_start)(const T *e)        \
    {                                                                         \
        return (K_T)e->START; /* (the type is checked above) */               \
    }                                                                         \
    static inline SLX_UNUSED void SLX_CAT(name, _slx_set_start)(void *e,      \
                                                                uint64_t v)   \
    {                                                                         \
        ((T *)e)->START = (SLX_TYPEOF(((T *)e)->START))v;                     \
    }                                                                         \
    static inline SLX_UNUSED uint64_t SLX_CAT(name, _slx_size)(const void *e) \
    {                                                                         \
        return (uint64_t)((const T *)e)->SIZE;                                \
    }                                                                         \
    SLX_GEN_TYPE(name, T, K_T, SLX_CAT(name, _slx_start), SKIPLIST_CMP_NUM,   \
                 KPN, MAXLVL, PSHIFT, -1L, 1, (uint64_t)(K_T)-1,              \
                 SLX_CAT(name, _slx_set_start), SLX_CAT(name, _slx_size),     \
                 RANKED);

/* Loops: each expands to a for header. `it` is a struct name_iter, var
 * and tmp are T *. Plain loops must not mutate the list; the _SAFE loop's
 * body may erase (or, for a queue, remove) var and only var. */
/** \brief A `for` header over every element in key order.
 *  The body must not change the list.
 *  \param name the instance's name
 *  \param sl   a `const struct name *`
 *  \param it   a `struct name_iter` variable
 *  \param var  a `T *` variable: each element in turn */
#define SKIPLIST_FOREACH(name, sl, it, var)                      \
    for ((var) = SLX_CAT(name, _iter_first)(&(it), (sl)); (var); \
         (var) = SLX_CAT(name, _iter_next)(&(it)))
/** \brief A `for` header over every element, last to first.
 *  \param name the instance's name
 *  \param sl   the list
 *  \param it   a `struct name_iter` variable
 *  \param var  a `T *` variable: each element in turn */
#define SKIPLIST_FOREACH_REVERSE(name, sl, it, var)             \
    for ((var) = SLX_CAT(name, _iter_last)(&(it), (sl)); (var); \
         (var) = SLX_CAT(name, _iter_prev)(&(it)))
/** \brief A `for` header from the lower bound of `key` to the end.
 *  \param name the instance's name
 *  \param sl   the list
 *  \param it   a `struct name_iter` variable
 *  \param var  a `T *` variable: each element in turn
 *  \param key  the bound: the walk starts at the first key >= `key` */
#define SKIPLIST_FOREACH_FROM(name, sl, it, var, key)                  \
    for ((var) = SLX_CAT(name, _iter_seek)(&(it), (sl), (key)); (var); \
         (var) = SLX_CAT(name, _iter_next)(&(it)))
/** \brief A `for` header from position `i` (0-based) to the end (ranked
 *  instances; none when `i` >= the count).
 *  \param name the instance's name
 *  \param sl   the list
 *  \param it   a `struct name_iter` variable
 *  \param var  a `T *` variable: each element in turn
 *  \param i    the first element's position */
#define SKIPLIST_FOREACH_AT(name, sl, it, var, i)                  \
    for ((var) = SLX_CAT(name, _iter_at)(&(it), (sl), (i)); (var); \
         (var) = SLX_CAT(name, _iter_next)(&(it)))
/** \brief A `for` header over every element whose body may erase (a
 *  queue: remove) the current element, and only it.
 *  Each listing is visited once, in order: an element listed twice
 *  (`insert_multi` of an element already in) is visited twice, in place,
 *  whatever the body erased. After an erase the loop finds its place
 *  again, through the hook on a queue, otherwise by key: O(log n) plus
 *  the equal keys before it; on the ordered index each step also compares
 *  the next key with the current one, to know that place among equals.
 *  \param name the instance's name
 *  \param sl   the list
 *  \param it   a `struct name_iter` variable
 *  \param var  a `T *` variable: each element in turn
 *  \param tmp  a `T *` variable the loop uses (the next element) */
#define SKIPLIST_FOREACH_SAFE(name, sl, it, var, tmp)                \
    for ((var) = SLX_CAT(name, _iter_first)(&(it), (sl));            \
         (var) && ((tmp) = SLX_CAT(name, _slx_iter_step)(&(it)), 1); \
         (var) = SLX_CAT(name, _slx_iter_resync)(&(it), (tmp)))
/** \brief A `for` header over the extents overlapping the closed range
 *  `[lo, hi]`, lowest first (extent faces).
 *  \param name the instance's name
 *  \param sl   the list
 *  \param it   a `struct name_iter` variable
 *  \param var  a `T *` variable: each overlapping extent in turn
 *  \param lo   the range's first point
 *  \param hi   the range's last point (inclusive) */
#define SKIPLIST_FOREACH_OVERLAP(name, sl, it, var, lo, hi)                    \
    for ((var) = SLX_CAT(name, _iter_overlap)(&(it), (sl), (lo), (hi)); (var); \
         (var) = SLX_CAT(name, _iter_next_overlap)(&(it)))

#endif /* SKIPLIST_H */
