/* skiplist_rcu.h: the skiplist's ordered index and extent index for
 * concurrent use, on liburcu: readers take no lock and write no shared
 * memory, writers lock only the index nodes whose entries they change.
 *
 * SPDX-License-Identifier: MIT
 *
 *     #include "skiplist_rcu.h"      // memb flavor; see "Flavors" below
 *     struct item { uint64_t key; long val; };
 *     #define ITEM_KEY(e) ((e)->key)
 *     SKIPLIST_RCU_DEFINE(cmap, struct item, uint64_t, ITEM_KEY,
 *                         SKIPLIST_CMP_NUM, SKIPLIST_RCU_DEFAULTS)
 *
 *     rcu_register_thread();               // every thread that calls in
 *     cmap_insert(&map, e, NULL);          // writers: no lock needed
 *     skiplist_rcu_read_lock();
 *     struct item *hit = cmap_find(&map, 7); // valid until the unlock
 *     skiplist_rcu_read_unlock();
 *
 * SKIPLIST_RCU_DEFINE and SKIPLIST_RCU_EXTENT_DEFINE give static
 * functions; for a list used from several files, SKIPLIST_RCU_PROTOTYPE
 * (SKIPLIST_RCU_EXTENT_PROTOTYPE) in a header and SKIPLIST_RCU_GENERATE
 * (_EXTENT_GENERATE) in one .c file give external ones, as skiplist.h's
 * SKIPLIST_PROTOTYPE and SKIPLIST_GENERATE do.
 *
 * The layout is the B-skiplist of skiplist.h: leaves of up to KPN sorted
 * keys with their element pointers, and above them index levels stored as
 * nodes of (key, child) entries, each new leaf's entry drawn to a random
 * height with probability 1/2^PSHIFT per level. What changes for
 * concurrency (docs/design.md, "skiplist_rcu.h", has the full argument):
 *
 *  - Writes in place, write-once slots. A leaf's live slots and their
 *    order are one word (struct slr_leaf). An insert writes a slot no
 *    reader can see yet and lists it with one release store of the word;
 *    an erase stores the word without its slot. A slot is never written
 *    again while its leaf is reachable, so readers read slots with plain
 *    loads after the acquire of the word. That store is the write's
 *    linearisation point.
 *  - Copy on write for the rest: a leaf with no never-used slot left is
 *    compacted into a copy, and a split, a merge or an emptied leaf builds
 *    new versions of every node it reshapes privately, all made visible
 *    with ONE release store of a child pointer into an index node that
 *    the writer holds locked (that store linearises it); the replaced
 *    nodes go to call_rcu.
 *  - Readers descend with acquire loads and never validate or retry: an
 *    index node's keys never change, a child pointer is only ever swapped
 *    for a node covering the same key range, and a leaf word's slots stay
 *    as they are while a reader can hold that word.
 *  - Locks: one spinlock per index node, none in leaves (a leaf is "locked"
 *    through its parent, which holds the pointer to it). A writer searches
 *    without locks, locks the parent of its leaf, and checks that the
 *    parent is alive and still points to the leaf it read; if not (another
 *    writer replaced either) it searches again (stats.retries). Splits
 *    lock upwards, child before parent; nodes of one level are locked left
 *    to right. That order makes deadlock impossible.
 *  - The extent face keeps, per index entry, an upper bound of the longest
 *    free run owned by the child's extents (the run after each extent up to
 *    the next extent's start). Leaf bounds are recomputed on every write of
 *    the leaf, index bounds under the same coupled locks; an erase that
 *    lengthens the run of another leaf raises that leaf's bound first.
 *    insert_hole searches without locks, then inserts through the same
 *    locked, validated path as insert, and searches again when it lost a
 *    race.
 *
 * Map of this file, top to bottom: the flavor's liburcu header and the
 * public types; the ThreadSanitizer annotations and read-side helpers;
 * engine internals by layer (the writers' lock, leaf and index node
 * layout, the order word and snapshots, allocation and reclamation,
 * search (readers), writers' locks, extent summaries, the structural
 * change, leaves, the ordered index, the extent index, init / destroy /
 * check); the "Generated API" reference; the instantiation macros. Index
 * node entries, the extent accessors, the range checks and check()'s
 * failure messages are skiplist.h's (slx_entry_key, SLX_GEN_EXTENT_TYPE,
 * SLX_CHECK_RANGES, slx_fail). Each public operation and the functions
 * that do it (-> calls, | or):
 *   name_find            slr_find -> slr_leaf_for (-> slr_route per level),
 *                        slr_leaf_lookup -> slr_leaf_slot
 *   name_lower_bound     slr_next_from -> slr_descend, slr_snap_read,
 *                        slr_leaf_pos   (upper_bound and iter_seek too)
 *   name_floor, _below   slr_prev_from (slr_next_from's mirror)
 *   name_first, _last    slr_first / slr_last -> slr_edge_leaf (iter_first
 *                        and iter_last too)
 *   name_iter_next/prev  slr_iter_next / slr_iter_prev (-> slr_next_from /
 *                        slr_prev_from past the leaf's snapshot)
 *   name_insert          slr_insert -> slr_descend, slr_lock_leaf, slr_put
 *                        -> slr_put_in_place (-> slr_word_insert,
 *                        slr_fresh_slot, slr_set_slot, slr_publish_word)
 *                        | slr_fill_leaf (a compacted copy, or a split's
 *                        two halves and slr_draw) -> slr_apply
 *                        -> slr_rebuild | slr_new_root, slr_publish;
 *                        slr_settle -> slr_op_finish (-> slr_retire)
 *                        | slr_op_abort
 *   name_erase_key, _erase  slr_erase_key -> slr_descend, slr_lock_leaf,
 *                        slr_take -> slr_take_in_place (extent face:
 *                        slr_raise_over) | slr_merge_sibling,
 *                        slr_copy_ranks -> slr_apply; slr_settle
 *   extent name_insert   slr_ext_insert -> slr_ext_put -> slr_lock_leaf (the
 *                        leaves of start and end), slr_ext_clash, slr_put
 *   extent name_erase    slr_ext_erase -> slr_raise_pred, slr_lock_leaf,
 *                        slr_take
 *   name_insert_hole     slr_ext_insert_hole -> slr_hole_search
 *                        -> slr_hole_below, slr_hole_node
 *                        -> slr_hole_leaf (| slr_repair_bound); slr_ext_put
 *   name_lookup          slr_ext_lookup -> slr_prev_from
 *   name_first_overlap   slr_ext_first_overlap -> slr_ext_overlap
 *   name_iter_overlap    slr_ext_overlap -> slr_prev_from, slr_next_from
 *   name_iter_next_overlap  slr_ext_next_overlap -> slr_iter_next
 *                        | slr_ext_resume_below
 *   name_count           slr_count -> slr_first, slr_descend per leaf
 *   name_check           slr_check -> slr_check_node -> slr_check_leaf
 *                        -> slr_check_word
 *   name_init / _destroy / _stats  slr_init / slr_destroy (-> rcu_barrier,
 *                        slr_retire_drain, slr_free_tree) / slr_stats
 * Extent bounds on the way: slr_regap and slr_raise_over (raises, carried
 * up by slr_gap_raise), slr_gap_after and slr_gap_up (copies, exact).
 *
 * Flavors: define at most one of SKIPLIST_RCU_MB, SKIPLIST_RCU_QSBR,
 * SKIPLIST_RCU_BP before including this header (none: memb). The header
 * includes liburcu's header for that flavor, so rcu_read_lock,
 * rcu_register_thread, synchronize_rcu, call_rcu and rcu_barrier are that
 * flavor's. Link with -lurcu (memb), -lurcu-mb, -lurcu-qsbr or -lurcu-bp,
 * plus -lurcu-common -pthread.
 *
 * The "Generated API" comment further down lists what the macros generate;
 * each function's contract, and the rules every caller follows, are in
 * docs/reference/skiplist_rcu_*.h, how to use them in docs/api.md.
 */
#ifndef SKIPLIST_RCU_H
#define SKIPLIST_RCU_H

#include "skiplist.h"

#include <pthread.h>
#include <sched.h>

#if defined(SKIPLIST_RCU_QSBR)
#include <urcu-qsbr.h>
#elif defined(SKIPLIST_RCU_BP)
#include <urcu-bp.h>
#elif defined(SKIPLIST_RCU_MB)
#define RCU_MB
#include <urcu.h>
#else
#include <urcu.h>
#endif

/** The last three arguments of `SKIPLIST_RCU_DEFINE` and
 *  `SKIPLIST_RCU_EXTENT_DEFINE` at their defaults: keys per leaf, max
 *  level, promotion shift = 32, 24, 5. Leaves are smaller than
 *  skiplist.h's 64: above 48 keys a leaf's order word is a count, and
 *  most writes copy the leaf (struct slr_leaf). */
#define SKIPLIST_RCU_DEFAULTS 32, 24, 5

/** What writers did that readers never see: for tests and tuning. */
struct skiplist_rcu_stats {
    uint64_t retries; /* validations that failed: the node a writer locked
                       * had died, or its leaf had been replaced since the
                       * search; the writer searched again */
    uint64_t splits;  /* leaf splits */
    uint64_t merges;  /* leaves merged with a sibling or removed */
};

/* ------------------------------------------------------------------ */
/* ThreadSanitizer: liburcu's grace periods are invisible to it, so the  */
/* read-side unlock releases, and whoever frees after a grace period     */
/* acquires, one shared address.                                         */
/* ------------------------------------------------------------------ */
#if defined(__SANITIZE_THREAD__)
#define SLR_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SLR_TSAN 1
#endif
#endif
#ifdef SLR_TSAN
#ifdef __cplusplus
extern "C" {
#endif
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#ifdef __cplusplus
}
#endif
/* One object for the whole program (weak: every translation unit that
 * includes this header defines it, the linker keeps one). */
__attribute__((weak)) char skiplist_rcu_tsan_gp;
#define SLR_TSAN_RELEASE(p) __tsan_release((void *)(p))
#define SLR_TSAN_ACQUIRE(p) __tsan_acquire((void *)(p))
#else
#define SLR_TSAN_RELEASE(p) ((void)0)
#define SLR_TSAN_ACQUIRE(p) ((void)0)
#endif

/** Enter a read-side critical section (rcu_read_lock, annotated). */
static inline SLX_UNUSED void skiplist_rcu_read_lock(void)
{
    rcu_read_lock();
}

/** Leave it: pointers the section returned may be freed from now on. */
static inline SLX_UNUSED void skiplist_rcu_read_unlock(void)
{
    SLR_TSAN_RELEASE(&skiplist_rcu_tsan_gp);
    rcu_read_unlock();
}

/** synchronize_rcu(), annotated: afterwards no reader still holds what
 *  was removed before the call. */
static inline SLX_UNUSED void skiplist_rcu_synchronize(void)
{
    synchronize_rcu();
    SLR_TSAN_ACQUIRE(&skiplist_rcu_tsan_gp);
}

/** call_rcu() for the caller's own objects (removed elements), annotated
 *  for TSan. The callback should begin with skiplist_rcu_callback_enter()
 *  so TSan sees it ordered after every reader that could hold the object. */
static inline SLX_UNUSED void
skiplist_rcu_call(struct rcu_head *head, void (*fn)(struct rcu_head *head))
{
    SLR_TSAN_RELEASE(head);
    call_rcu(head, fn);
}

/** First statement of a call_rcu callback that frees what readers held. */
static inline SLX_UNUSED void skiplist_rcu_callback_enter(struct rcu_head *head)
{
    SLR_TSAN_ACQUIRE(&skiplist_rcu_tsan_gp);
    SLR_TSAN_ACQUIRE(head);
    (void)head;
}

/* ------------------------------------------------------------------ */
/* Engine internals (prefix slr_; not part of the API)                 */
/* ------------------------------------------------------------------ */

struct slr_list;

/* The writers' lock (index nodes, pool shards, retire batches) is
 * skiplist.h's spinlock, struct slx_spin. */

/* A leaf: a 64-byte header, then slots: keys[KPN], ptrs[KPN] and, for the
 * extent face, lasts[KPN] (inclusive ends).
 *
 * Which slots are live, and in which order, is ONE word, `order`, that
 * writers publish with a release store and readers acquire-load once per
 * leaf visit (see slr_wcount, slr_wslot). Slots are write-once: a writer
 * fills slot `used` (never used since the leaf was made), then publishes
 * the word that lists it; an erase publishes the word without its slot,
 * which stays dead until the leaf is replaced by a compacted copy. So a
 * slot a reader's word lists is never written again while any reader can
 * hold that word, and readers read slots with plain loads.
 *
 * Two encodings, fixed per instance by KPN:
 *  - KPN <= SLR_TAIL_KPN (48): a sorted run and a short tail. Slots
 *    [0, run) hold keys in increasing order (dead ones too: they still
 *    sort), slots [run, used) at most SLR_TAIL_LEN keys in insertion
 *    order; a mask says which slots are live. An insert whose key is above
 *    the run's last, with no tail, extends the run; any other goes to the
 *    tail; a full tail, or no never-used slot, means a compacted copy.
 *    Bits 0-47: the live mask; 48-53: run; 54-59: used.
 *  - larger KPN: the word is the count, and slot i holds the i-th key:
 *    only an append after the largest key (into a never-used slot) and an
 *    erase of the largest key are done in place; every other write copies
 *    the leaf.
 * Readers that need keys in order (bounds, iteration, the extent face)
 * take a snapshot of the word with its live slots sorted (struct
 * slr_snap); a point lookup bisects the run and scans the tail. (A
 * permutation word, 4 bits per slot, allows 15 slots at most: measured,
 * leaves of 15 made lookups slower than leaves of 32;
 * docs/design.md.)
 *
 * `parent` is kept pointing at the index node holding the leaf's entry;
 * `used` and `parent` are writers' fields (readers never read them), and
 * a leaf's writers are serialised by its parent's lock. */
struct slr_leaf {
    uint32_t used;            /* writers only: slots written so far */
    uint32_t level;           /* 0 (where an index node has its level) */
    struct slr_inode *parent; /* atomic; writers only */
    struct slr_list *list;    /* whose allocator frees it */
    struct rcu_head rcu;      /* retired: the batch's call_rcu */
    void *retired_next;       /* retired: the next node of its batch (and
                               * in the default allocator's free lists) */
    void *retired_tail;       /* retired, a batch's first node: its last */
    uint64_t order;           /* atomic: the published order word */
};

/* Largest KPN whose word is a run and a tail (a 48-bit live mask, then
 * run and used), and the longest tail: a point lookup scans it. */
#define SLR_TAIL_KPN 48u
#define SLR_TAIL_LEN 8u

/* A reader's view of one leaf: the word it acquired and, for a run and a
 * tail, the live slots in key order (count words: slot i is rank i). */
struct slr_snap {
    uint64_t word;
    unsigned n;
    unsigned char s[SLR_TAIL_KPN];
};

/* An index node: entries[cap] of (key, child) side by side after the
 * header, then for the extent face gap[cap] (uint64_t). Keys and n are
 * immutable once published; children and gaps change in place only under
 * `lock`, a child only for a node covering the same key range. Entry 0's
 * key is the node's lower fence (never compared: a search starts each node
 * at entry 0). The top node (level max_level, one entry) holds the root
 * and is never replaced. */
struct slr_inode {
    uint32_t n;
    uint32_t level;           /* 1: children are leaves */
    struct slr_inode *parent; /* atomic; writers only; NULL for the top */
    struct slr_list *list;
    struct rcu_head rcu;
    void *retired_next;
    void *retired_tail; /* (the fields so far are a leaf's, in its order:
                         * a retired node is freed knowing only them) */
    uint32_t cap;
    uint32_t dead; /* atomic: replaced; set under lock */
    struct slx_spin lock;
};

/* The default allocator's pool for one block size (leaves, or index
 * nodes of the usual capacity): blocks carved from 2 MiB chunks advised as
 * huge pages (a random search then misses the TLB far less), recycled
 * last in, first out. It is split in SLR_SHARDS shards so that writer
 * threads do not share one lock: a thread allocates from the shard its
 * stack address picks, and a block goes back to the shard whose chunk it
 * came from (chunks are 2 MiB aligned and name their shard). Frees come
 * from liburcu's call_rcu thread while writers allocate, so a free only
 * pushes onto the shard's `incoming` (a lock-free push; the list is only
 * ever taken whole, which has no ABA problem) and an allocation takes the
 * shard's lock, refilling its free list from `incoming` when it runs
 * dry. */
#if SLX_HUGEPAGES
#define SLR_SHARDS 4u
#else
#define SLR_SHARDS 1u /* chunks not aligned: a block cannot find its shard */
#endif

struct slr_shard {
    struct slx_spin lock;
    void *local;    /* free blocks, under lock */
    void *incoming; /* atomic: blocks freed since */
    unsigned char *carve;
    size_t left;  /* bytes left at carve */
    void *chunks; /* this shard's chunks, chained through their first word */
    char pad[64];
};

struct slr_pool {
    size_t size; /* block size, a multiple of 64 */
    struct slr_shard shard[SLR_SHARDS];
};

/* Retired nodes of one shard and one kind (leaves, index nodes) waiting
 * to go to call_rcu together. */
struct slr_batch {
    struct slx_spin lock;
    void *head, *tail; /* chained by retired_next, under lock */
    unsigned count;
};

/* What only writers use: how nodes are allocated, and counters that only
 * writers' rare paths touch (on their own cache line). One block per
 * list, allocated by init (through the caller's allocator when there is
 * one), so that the struct a user embeds is two words. */
struct slr_wstate {
    struct skiplist_allocator alloc;
    struct slr_pool pool[2]; /* default allocator: leaves, index nodes */
    size_t leaf_bytes;       /* one leaf */
    size_t ientry; /* bytes per index entry: key, child, extent bound */
    unsigned icap; /* entries of an index node (others: the top, a
                    * root grown wide, allocated at level 2) */
    int pooled;    /* the default allocator: pool[] in use */
    uint64_t seed;
    char pad[64];
    uint64_t draws; /* atomic: height draws so far (the generator's input) */
    uint64_t retries, splits, merges;      /* atomic */
    struct slr_batch batch[SLR_SHARDS][2]; /* retired, not yet at call_rcu */
};

/* The list: where the root hangs (all a reader needs), and the writers'
 * state. */
struct slr_list {
    struct slr_inode *top;
    struct slr_wstate *w;
};

/* A reader's place: a leaf, its snapshot (the slots it lists stay as
 * they are while the reader can hold them) and a rank in it. */
struct slr_iter {
    const struct slr_list *L;
    const struct slr_leaf *leaf;
    struct slr_snap w[1];
    unsigned slot; /* rank in w */
};

#define SLR_ALLOC_LEAF 0u
#define SLR_ALLOC_INODE 1u
#define SLR_ALLOC_OTHER 2u
/* Locks one writer may hold: a chain of old and new nodes per level. */
#define SLR_MAXHELD 160

/* --- atomics ------------------------------------------------------- */

#define SLR_LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define SLR_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define SLR_LOAD_RLX(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define SLR_STORE_RLX(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define SLR_ADD(p, v) ((void)__atomic_fetch_add((p), (v), __ATOMIC_RELAXED))

/* --- layout -------------------------------------------------------- */

SLX_HOT unsigned char *slr_lkeys(const struct slx_type *ty,
                                 const struct slr_leaf *x)
{
    (void)ty;
    return (unsigned char *)(uintptr_t)(x + 1);
}

SLX_HOT unsigned char *slr_lkey(const struct slx_type *ty,
                                const struct slr_leaf *x, unsigned i)
{
    return slr_lkeys(ty, x) + (size_t)i * ty->ks;
}

SLX_HOT void **slr_lptrs(const struct slx_type *ty, const struct slr_leaf *x)
{
    return (void **)(void *)(slr_lkeys(ty, x) + ty->keys_bytes);
}

/* Extent face: inclusive ends, one per slot. */
SLX_HOT unsigned char *slr_llasts(const struct slx_type *ty,
                                  const struct slr_leaf *x)
{
    return (unsigned char *)(slr_lptrs(ty, x) + ty->kpn);
}

/* --- the order word ------------------------------------------------ */

SLX_HOT int slr_tailed(const struct slx_type *ty)
{
    return ty->kpn <= SLR_TAIL_KPN; /* a constant once inlined */
}

/* The word a reader works with, one acquire per leaf visit: pairs with the
 * release that published it, so every slot it lists reads as written. */
SLX_HOT uint64_t slr_lword(const struct slr_leaf *x)
{
    return SLR_LOAD(&x->order);
}

/* Writers hold the leaf's parent locked: nobody else changes the word. */
SLX_HOT uint64_t slr_lword_mine(const struct slr_leaf *x)
{
    return SLR_LOAD_RLX(&x->order);
}

#define SLR_W_MASK ((UINT64_C(1) << SLR_TAIL_KPN) - 1)

SLX_HOT uint64_t slr_wmask(uint64_t w)
{
    return w & SLR_W_MASK;
}

SLX_HOT unsigned slr_wrun(uint64_t w)
{
    return (unsigned)(w >> SLR_TAIL_KPN) & 63u;
}

SLX_HOT unsigned slr_wused(uint64_t w)
{
    return (unsigned)(w >> (SLR_TAIL_KPN + 6)) & 63u;
}

SLX_HOT uint64_t slr_wmake(uint64_t mask, unsigned run, unsigned used)
{
    return mask | (uint64_t)run << SLR_TAIL_KPN |
           (uint64_t)used << (SLR_TAIL_KPN + 6);
}

/* Live slots listed in word w. */
SLX_HOT unsigned slr_count_of(const struct slx_type *ty, uint64_t w)
{
    return slr_tailed(ty) ? (unsigned)__builtin_popcountll(slr_wmask(w))
                          : (unsigned)w;
}

/* The word of a leaf whose slots 0..n-1 hold its keys in order. */
SLX_HOT uint64_t slr_wsorted(const struct slx_type *ty, unsigned n)
{
    if (!slr_tailed(ty))
        return n;
    return slr_wmake((UINT64_C(1) << n) - 1, n, n);
}

/* Live slots in a snapshot, and the slot of rank i. */
SLX_HOT unsigned slr_wcount(const struct slx_type *ty, const struct slr_snap *w)
{
    (void)ty;
    return w->n;
}

SLX_HOT unsigned slr_wslot(const struct slx_type *ty, const struct slr_snap *w,
                           unsigned i)
{
    return slr_tailed(ty) ? w->s[i] : i;
}

/* Slot a's key is before slot b's. */
SLX_HOT int slr_slot_less(const struct slx_type *ty, const unsigned char *keys,
                          unsigned a, unsigned b)
{
    return ty->less(keys + (size_t)a * ty->ks, keys + (size_t)b * ty->ks);
}

/* The snapshot of word w of leaf x: a run and a tail merged into key
 * order (the tail, at most SLR_TAIL_LEN slots, sorted by insertion). */
SLX_HOT void slr_snap_of(const struct slx_type *ty, const unsigned char *keys,
                         uint64_t w, struct slr_snap *v)
{
    v->word = w;
    if (!slr_tailed(ty)) {
        v->n = (unsigned)w;
        return;
    }
    unsigned char tail[SLR_TAIL_LEN];
    unsigned t = 0, n = 0, run = slr_wrun(w), used = slr_wused(w);
    uint64_t mask = slr_wmask(w);
    for (unsigned s = run; s < used; s++) {
        if (!((mask >> s) & 1u))
            continue;
        unsigned j = t++;
        for (; j > 0 && slr_slot_less(ty, keys, s, tail[j - 1]); j--)
            tail[j] = tail[j - 1];
        tail[j] = (unsigned char)s;
    }
    uint64_t live_run = mask & ((UINT64_C(1) << run) - 1);
    unsigned ti = 0;
    while (live_run) {
        unsigned s = (unsigned)__builtin_ctzll(live_run);
        live_run &= live_run - 1;
        while (ti < t && slr_slot_less(ty, keys, tail[ti], s))
            v->s[n++] = tail[ti++];
        v->s[n++] = (unsigned char)s;
    }
    while (ti < t)
        v->s[n++] = tail[ti++];
    v->n = n;
}

/* A reader's snapshot of leaf x (acquire), and a writer's of a leaf it
 * holds or built. */
SLX_HOT void slr_snap_read(const struct slx_type *ty, const struct slr_leaf *x,
                           struct slr_snap *v);
SLX_HOT void slr_snap_mine(const struct slx_type *ty, const struct slr_leaf *x,
                           struct slr_snap *v);

/* Publish a leaf's new word: the linearisation point of an in-place
 * write. The release orders the slot it lists (written just before)
 * before any reader's acquire of the word. */
SLX_HOT void slr_publish_word(struct slr_leaf *x, uint64_t w)
{
#ifdef SKIPLIST_RCU_PLANT_WORD_RELAXED
    SLR_STORE_RLX(&x->order, w); /* planted fault: no release */
#else
    SLR_STORE(&x->order, w);
#endif
}

SLX_HOT size_t slr_leaf_bytes(const struct slx_type *ty)
{
    return sizeof(struct slr_leaf) + ty->keys_bytes + ty->kpn * sizeof(void *) +
           (slx_is_extent(ty) ? ty->keys_bytes : 0);
}

/* Entries start right after the node's header (the layout is
 * skiplist.h's: slx_entry_key). */
SLX_HOT unsigned char *slr_ikey(const struct slx_type *ty,
                                const struct slr_inode *P, unsigned i)
{
    return slx_entry_key(ty, P + 1, i);
}

SLX_HOT void **slr_ichildp(const struct slx_type *ty, const struct slr_inode *P,
                           unsigned i)
{
    return slx_entry_childp(ty, P + 1, i);
}

/* Readers: the acquire pairs with the release that published the child. */
SLX_HOT void *slr_ichild(const struct slx_type *ty, const struct slr_inode *P,
                         unsigned i)
{
    return SLR_LOAD(slr_ichildp(ty, P, i));
}

SLX_HOT uint64_t *slr_igaps(const struct slx_type *ty,
                            const struct slr_inode *P)
{
    return (uint64_t *)(void *)slr_ikey(ty, P, P->cap);
}

SLX_HOT struct slr_inode *slr_root(const struct slx_type *ty,
                                   const struct slr_list *L)
{
    return (struct slr_inode *)slr_ichild(ty, L->top, 0);
}

SLX_HOT uint64_t slr_lstart(const struct slx_type *ty, const struct slr_leaf *x,
                            unsigned i)
{
    return slx_load_u(ty, slr_lkey(ty, x, i));
}

SLX_HOT uint64_t slr_llast(const struct slx_type *ty, const struct slr_leaf *x,
                           unsigned i)
{
    return slx_load_u(ty, slr_llasts(ty, x) + (size_t)i * ty->ks);
}

SLX_HOT void slr_snap_read(const struct slx_type *ty, const struct slr_leaf *x,
                           struct slr_snap *v)
{
    slr_snap_of(ty, slr_lkeys(ty, x), slr_lword(x), v);
}

SLX_HOT void slr_snap_mine(const struct slx_type *ty, const struct slr_leaf *x,
                           struct slr_snap *v)
{
    slr_snap_of(ty, slr_lkeys(ty, x), slr_lword_mine(x), v);
}

/* The same by rank i in snapshot w (what readers and writers use). */
SLX_HOT unsigned char *slr_rkey(const struct slx_type *ty,
                                const struct slr_leaf *x,
                                const struct slr_snap *w, unsigned i)
{
    return slr_lkey(ty, x, slr_wslot(ty, w, i));
}

SLX_HOT void *slr_rptr(const struct slx_type *ty, const struct slr_leaf *x,
                       const struct slr_snap *w, unsigned i)
{
    return slr_lptrs(ty, x)[slr_wslot(ty, w, i)];
}

SLX_HOT uint64_t slr_rstart(const struct slx_type *ty, const struct slr_leaf *x,
                            const struct slr_snap *w, unsigned i)
{
    return slr_lstart(ty, x, slr_wslot(ty, w, i));
}

SLX_HOT uint64_t slr_rlast(const struct slx_type *ty, const struct slr_leaf *x,
                           const struct slr_snap *w, unsigned i)
{
    return slr_llast(ty, x, slr_wslot(ty, w, i));
}

/* An iterator's current element, key, start and end. */
SLX_HOT void *slr_it_ptr(const struct slx_type *ty, const struct slr_iter *it)
{
    return slr_rptr(ty, it->leaf, it->w, it->slot);
}

SLX_HOT unsigned char *slr_it_key(const struct slx_type *ty,
                                  const struct slr_iter *it)
{
    return slr_rkey(ty, it->leaf, it->w, it->slot);
}

SLX_HOT uint64_t slr_it_start(const struct slx_type *ty,
                              const struct slr_iter *it)
{
    return slr_rstart(ty, it->leaf, it->w, it->slot);
}

SLX_HOT uint64_t slr_it_last(const struct slx_type *ty,
                             const struct slr_iter *it)
{
    return slr_rlast(ty, it->leaf, it->w, it->slot);
}

/* --- allocation and reclamation ------------------------------------ */

/* SLX_CHUNK where skiplist.h has chunks (its cache serves both) */
#define SLR_POOL_CHUNK ((size_t)2 << 20)

static SLX_UNUSED void slr_pool_init(struct slr_pool *P, size_t size)
{
    memset(P, 0, sizeof *P); /* every shard unlocked and empty */
    P->size = (size + 63) & ~(size_t)63;
}

/* The calling thread's shard: threads take shards in turn, the first
 * time each asks (hashing stack addresses put two writers on one shard
 * about one time in four). */
static SLX_UNUSED unsigned slr_my_shard(void)
{
    static unsigned next;              /* shards handed out so far */
    static __thread unsigned mine = 0; /* 1 + this thread's shard */
    if (SLX_UNLIKELY(!mine))
        mine = 1 + __atomic_fetch_add(&next, 1, __ATOMIC_RELAXED) % SLR_SHARDS;
    return mine - 1;
}
/* A fresh chunk for shard i, chained in; 0 when memory is out. The first
 * line holds the chain and the shard's number. */
static SLX_UNUSED int slr_pool_grow(struct slr_pool *P, unsigned i)
{
    struct slr_shard *S = &P->shard[i];
    unsigned char *c;
#if SLX_HUGEPAGES
    c = slx_chunk_take(); /* skiplist.h's chunks, from its cache */
#else
    c = (unsigned char *)malloc(SLR_POOL_CHUNK);
#endif
    if (!c)
        return 0;
    memcpy(c, &S->chunks, sizeof(void *));
    memcpy(c + sizeof(void *), &i, sizeof i);
    S->chunks = c;
    S->carve = c + 64;
    S->left = SLR_POOL_CHUNK - 64;
    return 1;
}

static SLX_UNUSED void *slr_pool_alloc(struct slr_pool *P)
{
    unsigned i = slr_my_shard();
    struct slr_shard *S = &P->shard[i];
    void *b;
    slx_lock(&S->lock);
    if (!S->local)
        S->local = __atomic_exchange_n(&S->incoming, NULL, __ATOMIC_ACQUIRE);
    if (S->local) {
        b = S->local;
        S->local = ((struct slr_leaf *)b)->retired_next;
        if (S->local) /* freed long ago, so cold: the next pop reads it */
            SLX_PREFETCH(S->local);
    } else if (S->left >= P->size || slr_pool_grow(P, i)) {
        b = S->carve;
        S->carve += P->size;
        S->left -= P->size;
    } else {
        b = NULL;
    }
    slx_unlock(&S->lock);
    return b;
}

/* Return the chain head..tail (linked through retired_next, all from one
 * chunk's shard when there are several: see slr_pool_free) to the pool in
 * one push, touching only its two ends. */
static SLX_UNUSED void slr_pool_free_chain(struct slr_pool *P, void *head,
                                           void *tail)
{
    unsigned i = 0;
#if SLX_HUGEPAGES
    const unsigned char *c =
        (const unsigned char *)((uintptr_t)head & ~(SLR_POOL_CHUNK - 1));
    memcpy(&i, c + sizeof(void *), sizeof i);
#endif
    struct slr_shard *S = &P->shard[i];
    struct slr_leaf *t = (struct slr_leaf *)tail;
    void *old = __atomic_load_n(&S->incoming, __ATOMIC_RELAXED);
    do
        t->retired_next = old;
    while (!__atomic_compare_exchange_n(&S->incoming, &old, head, 1,
                                        __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}

/* Blocks are leaves and index nodes: the free lists link them through the
 * field retired nodes are chained by. */
static SLX_UNUSED void slr_pool_free(struct slr_pool *P, void *b)
{
    slr_pool_free_chain(P, b, b);
}

static SLX_UNUSED void slr_pool_release(struct slr_pool *P)
{
    for (unsigned i = 0; i < SLR_SHARDS; i++) {
        void *c = P->shard[i].chunks;
        while (c) {
            void *next;
            memcpy(&next, c, sizeof(void *));
            slx_chunk_give(c);
            c = next;
        }
    }
    memset(P, 0, sizeof *P);
}

/* The default allocator (ctx: the list's writer state): pooled leaves and
 * index nodes (levels 0 and 1), malloc for the rest (the top, a root
 * grown wide). */
static SLX_UNUSED void *slr_default_alloc(void *ctx, size_t size,
                                          unsigned level)
{
    struct slr_wstate *W = (struct slr_wstate *)ctx;
    if (level < 2 && size <= W->pool[level].size)
        return slr_pool_alloc(&W->pool[level]);
    return malloc(size);
}

static SLX_UNUSED void slr_default_free(void *ctx, void *p, size_t size,
                                        unsigned level)
{
    struct slr_wstate *W = (struct slr_wstate *)ctx;
    if (level < 2 && size <= W->pool[level].size)
        slr_pool_free(&W->pool[level], p);
    else
        free(p);
}

/* An index node of cap entries: its size, and the allocator level that
 * says which size (the usual capacity, or the top and a root grown
 * wide). What nodes are made and freed with: callbacks know only L. */
static SLX_UNUSED size_t slr_inode_size(const struct slr_list *L, unsigned cap)
{
    return sizeof(struct slr_inode) + (size_t)cap * L->w->ientry;
}

static SLX_UNUSED unsigned slr_inode_kind(const struct slr_list *L,
                                          unsigned cap)
{
    return cap == L->w->icap ? SLR_ALLOC_INODE : SLR_ALLOC_OTHER;
}

static SLX_UNUSED void slr_free_leaf_now(struct slr_list *L, struct slr_leaf *x)
{
    L->w->alloc.free(L->w->alloc.ctx, x, L->w->leaf_bytes, SLR_ALLOC_LEAF);
}

static SLX_UNUSED void slr_free_inode_now(struct slr_list *L,
                                          struct slr_inode *P)
{
    L->w->alloc.free(L->w->alloc.ctx, P, slr_inode_size(L, P->cap),
                     slr_inode_kind(L, P->cap));
}

/* Free a node that no reader can hold any more, leaf or index node (the
 * shared leading fields tell which). */
static SLX_UNUSED void slr_free_retired(struct slr_leaf *x)
{
    SLR_TSAN_ACQUIRE(x);
    if (x->level == 0)
        slr_free_leaf_now(x->list, x);
    else
        slr_free_inode_now(x->list, (struct slr_inode *)(void *)x);
}

/* Frees a chain built by slr_retire: nodes of one kind, linked through
 * retired_next, the first one naming the last. With the default
 * allocator the chain goes back to the pool whole, touching two nodes;
 * a caller's allocator gets each node. */
static SLX_UNUSED void slr_free_chain(void *node)
{
    struct slr_leaf *x = (struct slr_leaf *)node;
    if (!x)
        return;
    struct slr_list *L = x->list;
    /* A chain is of one kind; an index node of another capacity (the
     * top, a root grown wide) is malloc'ed and goes alone. */
    if (L->w->pooled &&
        (x->level == 0 || ((struct slr_inode *)node)->cap == L->w->icap)) {
        slr_pool_free_chain(&L->w->pool[x->level ? 1 : 0], x, x->retired_tail);
        return;
    }
    while (node) {
        x = (struct slr_leaf *)node;
        node = x->retired_next;
        slr_free_retired(x);
    }
}

/* The call_rcu callback of a batch: a grace period has passed since the
 * last of its nodes was unlinked, so no reader holds any of them. */
static SLX_UNUSED void slr_batch_rcu(struct rcu_head *h)
{
    SLR_TSAN_ACQUIRE(&skiplist_rcu_tsan_gp);
    slr_free_chain((char *)h - offsetof(struct slr_leaf, rcu));
    SLR_TSAN_RELEASE(&skiplist_rcu_tsan_gp); /* for rcu_barrier()'s caller */
}

/* Nodes retired per call_rcu: one call per node made every write wake
 * liburcu's call_rcu thread, which then preempted the writer, and had that
 * thread touch every node it freed. */
#define SLR_BATCH 64u

/* Take batch B's chain (B locked), its first node naming its last. */
static SLX_UNUSED void *slr_batch_take(struct slr_batch *B)
{
    void *all = B->head;
    if (all)
        ((struct slr_leaf *)all)->retired_tail = B->tail;
    B->head = B->tail = NULL;
    B->count = 0;
    return all;
}

/* A node no reader can newly reach: free it once current readers are
 * done. It joins the batch of its kind in the calling thread's shard, and
 * a full batch goes to call_rcu as one callback (its nodes were all
 * unlinked before the call, so one grace period covers them). Index
 * nodes of another capacity (a root grown wide) are not pooled and go
 * alone. The planted fault frees at once, which the stress suite must
 * catch. */
static SLX_UNUSED void slr_retire(struct slr_list *L, void *node)
{
    struct slr_leaf *x = (struct slr_leaf *)node;
    SLR_TSAN_RELEASE(node);
#ifdef SKIPLIST_RCU_PLANT_NO_GRACE
    (void)L;
    slr_free_retired(x);
#else
    if (x->level &&
        slr_inode_kind(L, ((struct slr_inode *)node)->cap) != SLR_ALLOC_INODE) {
        x->retired_next = NULL;
        x->retired_tail = x;
        call_rcu(&x->rcu, slr_batch_rcu);
        return;
    }
    struct slr_batch *B = &L->w->batch[slr_my_shard()][x->level ? 1 : 0];
    void *all = NULL;
    slx_lock(&B->lock);
    x->retired_next = B->head;
    if (!B->head)
        B->tail = x;
    B->head = x;
    if (++B->count >= SLR_BATCH)
        all = slr_batch_take(B);
    slx_unlock(&B->lock);
    if (all)
        call_rcu(&((struct slr_leaf *)all)->rcu, slr_batch_rcu);
#endif
}

/* Every batch not yet handed over (destroy, no reader left). */
static SLX_UNUSED void slr_retire_drain(struct slr_list *L)
{
    for (unsigned i = 0; i < SLR_SHARDS; i++)
        for (unsigned k = 0; k < 2; k++) {
            struct slr_batch *B = &L->w->batch[i][k];
            slx_lock(&B->lock);
            void *all = slr_batch_take(B);
            slx_unlock(&B->lock);
            slr_free_chain(all);
        }
}

static SLX_UNUSED struct slr_leaf *slr_new_leaf(struct slr_list *L)
{
    struct slr_leaf *x = (struct slr_leaf *)L->w->alloc.alloc(
        L->w->alloc.ctx, L->w->leaf_bytes, SLR_ALLOC_LEAF);
    if (x) {
        x->used = 0;
        x->level = 0;
        x->parent = NULL;
        x->list = L;
        x->order = 0; /* no live slot, in either encoding */
    }
    return x;
}

/* A new index node, returned locked: nobody may act on it before its
 * creator has linked it and set its children's parent pointers. */
static SLX_UNUSED struct slr_inode *slr_new_inode(struct slr_list *L,
                                                  unsigned cap, unsigned level)
{
    struct slr_inode *P = (struct slr_inode *)L->w->alloc.alloc(
        L->w->alloc.ctx, slr_inode_size(L, cap), slr_inode_kind(L, cap));
    if (!P)
        return NULL;
    memset(P, 0, sizeof *P);
    P->cap = cap;
    P->level = level;
    P->list = L;
    slx_unlock(&P->lock);
    slx_lock(&P->lock); /* private: cannot wait */
    return P;
}

/* --- search (readers) ---------------------------------------------- */

/* The entry of P a search for key takes: the last whose key is <= key
 * (SLX_LT: < key), entry 0 when none. Entry 0's key is never read. */
SLX_HOT unsigned slr_route(const struct slx_type *ty, const struct slr_inode *P,
                           const void *key, int mode)
{
    unsigned n = P->n;
    if (n <= 1)
        return 0;
    return slx_bisect(ty, slr_ikey(ty, P, 1), n - 1, slx_istride(ty), key,
                      mode);
}

/* Live keys of leaf x (snapshot w) before key (SLX_LT: < key, SLX_LE: <=
 * key): a bisection, through the snapshot's slot order for a run and a
 * tail. */
SLX_HOT unsigned slr_leaf_pos(const struct slx_type *ty,
                              const struct slr_leaf *x,
                              const struct slr_snap *w, const void *key,
                              int mode)
{
    unsigned n = slr_wcount(ty, w);
    if (n == 0)
        return 0;
    if (!slr_tailed(ty))
        return slx_bisect(ty, slr_lkeys(ty, x), n, ty->ks, key, mode);
    unsigned base = 0, len = n;
    while (len > 1) {
        unsigned half = len / 2;
        int after =
            slx_before(ty, slr_rkey(ty, x, w, base + half - 1), key, mode);
        base = after ? base + half : base;
        len -= half;
    }
    return base +
           (slx_before(ty, slr_rkey(ty, x, w, base), key, mode) ? 1u : 0u);
}

/* The slot holding key in leaf x (word w), or SLR_NO_SLOT. A point
 * lookup needs no order: it bisects the run (dead slots still sort) and
 * scans the tail, without a snapshot. */
#define SLR_NO_SLOT 0xffffu

SLX_HOT unsigned slr_leaf_slot(const struct slx_type *ty,
                               const struct slr_leaf *x, uint64_t w,
                               const void *key)
{
    const unsigned char *k = slr_lkeys(ty, x);
    unsigned run = slr_tailed(ty) ? slr_wrun(w) : (unsigned)w;
    if (run) {
        unsigned pos = slx_bisect(ty, k, run, ty->ks, key, SLX_LT);
        if (pos < run && (!slr_tailed(ty) || ((w >> pos) & 1u)) &&
            !ty->less(key, k + (size_t)pos * ty->ks))
            return pos;
    }
    if (!slr_tailed(ty))
        return SLR_NO_SLOT;
    uint64_t mask = slr_wmask(w);
    for (unsigned s = run, used = slr_wused(w); s < used; s++) {
        const unsigned char *ks = k + (size_t)s * ty->ks;
        if (((mask >> s) & 1u) && !ty->less(key, ks) && !ty->less(ks, key))
            return s;
    }
    return SLR_NO_SLOT;
}

/* The element with key in leaf x (word w), or NULL. */
SLX_HOT void *slr_leaf_lookup(const struct slx_type *ty,
                              const struct slr_leaf *x, uint64_t w,
                              const void *key)
{
    unsigned s = slr_leaf_slot(ty, x, w, key);
    return s == SLR_NO_SLOT ? NULL : slr_lptrs(ty, x)[s];
}

/* The slot of the smallest (largest) live key of non-empty leaf x (word
 * w), without a snapshot: the run's first (last) live slot against each
 * live tail slot. */
SLX_HOT unsigned slr_edge_slot(const struct slx_type *ty,
                               const struct slr_leaf *x, uint64_t w,
                               int largest)
{
    if (!slr_tailed(ty))
        return largest ? (unsigned)w - 1 : 0;
    const unsigned char *k = slr_lkeys(ty, x);
    uint64_t mask = slr_wmask(w);
    unsigned run = slr_wrun(w), used = slr_wused(w), best = SLR_NO_SLOT;
    uint64_t live_run = mask & ((UINT64_C(1) << run) - 1);
    if (live_run)
        best = largest ? 63u - (unsigned)__builtin_clzll(live_run)
                       : (unsigned)__builtin_ctzll(live_run);
    for (unsigned s = run; s < used; s++) {
        if (!((mask >> s) & 1u))
            continue;
        if (best == SLR_NO_SLOT || (largest ? slr_slot_less(ty, k, best, s)
                                            : slr_slot_less(ty, k, s, best)))
            best = s;
    }
    return best;
}

/* Start loading a node's first lines while its header is examined. */
SLX_HOT void slr_prefetch_inode(const struct slx_type *ty,
                                const struct slr_inode *P)
{
    slx_prefetch_lines(P, sizeof *P +
                              (size_t)(1u << ty->pshift) * slx_istride(ty));
}

/* A leaf's header (with its order word), keys and element pointers at
 * once: its bisection then waits for one round of misses, not one per
 * probe. */
SLX_HOT void slr_prefetch_leaf(const struct slx_type *ty,
                               const struct slr_leaf *x)
{
    slx_prefetch_lines(x,
                       sizeof *x + ty->keys_bytes + ty->kpn * sizeof(void *));
}

/* The leaf a search for key lands in (route: <= key, or < key with
 * SLX_LT). The fast path of find. */
SLX_HOT const struct slr_leaf *slr_leaf_for(const struct slx_type *ty,
                                            const struct slr_list *L,
                                            const void *key, int mode)
{
    const struct slr_inode *P = slr_root(ty, L);
    for (;;) {
        void *c = slr_ichild(ty, P, slr_route(ty, P, key, mode));
        if (P->level == 1) {
            slr_prefetch_leaf(ty, (const struct slr_leaf *)c);
            return (const struct slr_leaf *)c;
        }
        P = (const struct slr_inode *)c;
        slr_prefetch_inode(ty, P);
    }
}

/* Where a search landed: the leaf, its parent and slot there, and the
 * leaf's key range [lo, hi) as the path saw it (NULL: unbounded). */
struct slr_pos {
    const struct slr_leaf *leaf;
    struct slr_inode *parent;
    unsigned slot;
    const unsigned char *lo, *hi;
};

SLX_HOT void slr_descend(const struct slx_type *ty, const struct slr_list *L,
                         const void *key, int mode, struct slr_pos *p)
{
    const struct slr_inode *P = slr_root(ty, L);
    p->lo = p->hi = NULL;
    for (;;) {
        unsigned j = slr_route(ty, P, key, mode);
        if (j > 0)
            p->lo = slr_ikey(ty, P, j);
        if (j + 1 < P->n)
            p->hi = slr_ikey(ty, P, j + 1);
        void *c = slr_ichild(ty, P, j);
        if (P->level == 1) {
            slr_prefetch_leaf(ty, (const struct slr_leaf *)c);
            p->leaf = (const struct slr_leaf *)c;
            p->parent = (struct slr_inode *)(uintptr_t)P;
            p->slot = j;
            return;
        }
        P = (const struct slr_inode *)c;
        slr_prefetch_inode(ty, P);
    }
}

/* The leftmost or rightmost leaf. */
SLX_HOT const struct slr_leaf *
slr_edge_leaf(const struct slx_type *ty, const struct slr_list *L, int right)
{
    const struct slr_inode *P = slr_root(ty, L);
    for (;;) {
        void *c = slr_ichild(ty, P, right ? P->n - 1 : 0);
        if (P->level == 1)
            return (const struct slr_leaf *)c;
        P = (const struct slr_inode *)c;
    }
}

/* First slot with key >= key (SLX_LT) or > key (SLX_LE), crossing leaves
 * by their upper fences; it->leaf NULL when none. Each step's fence is
 * above the last, so this ends under any concurrent change. */
SLX_HOT void *slr_next_from(const struct slx_type *ty, const struct slr_list *L,
                            const void *key, int mode, struct slr_iter *it)
{
    struct slr_pos p;
    for (;;) {
        slr_descend(ty, L, key, SLX_LE, &p);
        const struct slr_snap *w = it->w;
        slr_snap_read(ty, p.leaf, it->w);
        unsigned pos = slr_leaf_pos(ty, p.leaf, w, key, mode);
        if (pos < slr_wcount(ty, w)) {
            it->L = L;
            it->leaf = p.leaf;
            it->slot = pos;
            return slr_rptr(ty, p.leaf, w, pos);
        }
        if (!p.hi)
            break;
        key = p.hi;
        mode = SLX_LT;
    }
    it->L = L;
    it->leaf = NULL;
    return NULL;
}

/* Last slot with key < key (SLX_LT) or <= key (SLX_LE), crossing leaves
 * by their lower fences. */
SLX_HOT void *slr_prev_from(const struct slx_type *ty, const struct slr_list *L,
                            const void *key, int mode, struct slr_iter *it)
{
    struct slr_pos p;
    for (;;) {
        slr_descend(ty, L, key, mode, &p);
        const struct slr_snap *w = it->w;
        slr_snap_read(ty, p.leaf, it->w);
        unsigned pos = slr_leaf_pos(ty, p.leaf, w, key, mode);
        if (pos > 0) {
            it->L = L;
            it->leaf = p.leaf;
            it->slot = pos - 1;
            return slr_rptr(ty, p.leaf, w, pos - 1);
        }
        if (!p.lo)
            break;
        key = p.lo;
        mode = SLX_LT;
    }
    it->L = L;
    it->leaf = NULL;
    return NULL;
}

SLX_HOT void *slr_find(const struct slx_type *ty, const struct slr_list *L,
                       const void *key)
{
    const struct slr_leaf *x = slr_leaf_for(ty, L, key, SLX_LE);
    return slr_leaf_lookup(ty, x, slr_lword(x), key);
}

SLX_HOT void *slr_first(const struct slx_type *ty, const struct slr_list *L,
                        struct slr_iter *it)
{
    const struct slr_leaf *x = slr_edge_leaf(ty, L, 0);
    const struct slr_snap *w = it->w;
    slr_snap_read(ty, x, it->w);
    unsigned n = slr_wcount(ty, w);
    it->L = L;
    it->leaf = n ? x : NULL; /* empty: the sole leaf of an empty list */
    it->slot = 0;
    return n ? slr_rptr(ty, x, w, 0) : NULL;
}

SLX_HOT void *slr_last(const struct slx_type *ty, const struct slr_list *L,
                       struct slr_iter *it)
{
    const struct slr_leaf *x = slr_edge_leaf(ty, L, 1);
    const struct slr_snap *w = it->w;
    slr_snap_read(ty, x, it->w);
    unsigned n = slr_wcount(ty, w);
    it->L = L;
    it->leaf = n ? x : NULL;
    it->slot = n ? n - 1 : 0;
    return n ? slr_rptr(ty, x, w, n - 1) : NULL;
}

/* The iterator's word is a snapshot: stepping inside it needs no search,
 * stepping out searches from the current key, so keys come out strictly
 * increasing (decreasing) whatever writers do meanwhile. */
SLX_HOT void *slr_iter_next(const struct slx_type *ty, struct slr_iter *it)
{
    if (!it->leaf)
        return NULL;
    if (it->slot + 1 < slr_wcount(ty, it->w)) {
        it->slot++;
        return slr_it_ptr(ty, it);
    }
    unsigned char key[SLX_KEY_MAX];
    memcpy(key, slr_it_key(ty, it), ty->ks);
    return slr_next_from(ty, it->L, key, SLX_LE, it);
}

SLX_HOT void *slr_iter_prev(const struct slx_type *ty, struct slr_iter *it)
{
    if (!it->leaf)
        return NULL;
    if (it->slot > 0) {
        it->slot--;
        return slr_it_ptr(ty, it);
    }
    unsigned char key[SLX_KEY_MAX];
    memcpy(key, slr_it_key(ty, it), ty->ks);
    return slr_prev_from(ty, it->L, key, SLX_LT, it);
}

/* Elements, leaf by leaf (exact when no writer runs). */
static SLX_UNUSED size_t slr_count(const struct slx_type *ty,
                                   const struct slr_list *L)
{
    struct slr_iter it;
    if (!slr_first(ty, L, &it))
        return 0; /* only the sole leaf of an empty list is empty */
    struct slr_pos p;
    unsigned char key[SLX_KEY_MAX];
    size_t cnt = 0;
    memcpy(key, slr_it_key(ty, &it), ty->ks);
    for (;;) {
        slr_descend(ty, L, key, SLX_LE, &p);
        cnt += slr_count_of(ty, slr_lword(p.leaf));
        if (!p.hi)
            return cnt;
        memcpy(key, p.hi, ty->ks);
    }
}

/* --- writers: locks ------------------------------------------------ */

/* One writer's change in progress: what it holds locked, the nodes it
 * made (freed if it fails) and the nodes it replaces (retired when it
 * succeeds). */
struct slr_op {
    const struct slx_type *ty;
    struct slr_list *L;
    unsigned h; /* height of a new leaf's entry; 0: no promotion */
    unsigned nheld, nfresh, nold;
    struct slr_inode *held[SLR_MAXHELD];
    void *fresh[SLR_MAXHELD];
    unsigned char fresh_leaf[SLR_MAXHELD];
    void *old[SLR_MAXHELD];
    unsigned char old_leaf[SLR_MAXHELD];
};

static SLX_UNUSED void slr_op_init(struct slr_op *op, const struct slx_type *ty,
                                   struct slr_list *L)
{
    op->ty = ty;
    op->L = L;
    op->h = 0;
    op->nheld = op->nfresh = op->nold = 0;
}

static SLX_UNUSED int slr_holds(const struct slr_op *op,
                                const struct slr_inode *P)
{
    for (unsigned i = 0; i < op->nheld; i++)
        if (op->held[i] == P)
            return 1;
    return 0;
}

/* Lock P and check it is alive: 0 when it died meanwhile (unlocked). */
static SLX_UNUSED int slr_lock_live(struct slr_op *op, struct slr_inode *P)
{
    if (slr_holds(op, P))
        return 1;
    slx_lock(&P->lock);
    if (SLR_LOAD_RLX(&P->dead)) {
        slx_unlock(&P->lock);
        return 0;
    }
    op->held[op->nheld++] = P;
    return 1;
}

/* The top is the one node without a parent (it is never replaced). */
static SLX_UNUSED int slr_is_top(const struct slr_inode *P)
{
    return SLR_LOAD_RLX(&P->parent) == NULL;
}

static SLX_UNUSED struct slr_inode **slr_parentp(void *child, int is_leaf)
{
    return is_leaf ? &((struct slr_leaf *)child)->parent
                   : &((struct slr_inode *)child)->parent;
}

/* The live parent of a node this writer holds, locked. Whoever replaces
 * the parent points the children at its successor before it unlocks, so
 * waiting on a parent that then turns out dead and reading again finds
 * the successor. */
static SLX_UNUSED struct slr_inode *slr_lock_parent(struct slr_op *op,
                                                    struct slr_inode *N)
{
    for (;;) {
        struct slr_inode *P = SLR_LOAD(&N->parent);
        if (slr_lock_live(op, P))
            return P;
    }
}

static SLX_UNUSED void slr_unlock_from(struct slr_op *op, unsigned keep)
{
    while (op->nheld > keep)
        slx_unlock(&op->held[--op->nheld]->lock);
}

static SLX_UNUSED unsigned slr_slot_of(const struct slx_type *ty,
                                       const struct slr_inode *P,
                                       const void *child)
{
    for (unsigned j = 0; j < P->n; j++)
        if (SLR_LOAD_RLX(slr_ichildp(ty, P, j)) == child)
            return j;
    return P->n; /* not a child: callers check it is one first */
}

static SLX_UNUSED int slr_add_fresh(struct slr_op *op, void *node, int is_leaf)
{
    if (!node)
        return 0;
    op->fresh[op->nfresh] = node;
    op->fresh_leaf[op->nfresh++] = (unsigned char)is_leaf;
    if (!is_leaf)
        op->held[op->nheld++] = (struct slr_inode *)node;
    return 1;
}

static SLX_UNUSED void slr_add_old(struct slr_op *op, void *node, int is_leaf)
{
    op->old[op->nold] = node;
    op->old_leaf[op->nold++] = (unsigned char)is_leaf;
}

static SLX_UNUSED struct slr_leaf *slr_op_leaf(struct slr_op *op)
{
    struct slr_leaf *x = slr_new_leaf(op->L);
    return slr_add_fresh(op, x, 1) ? x : NULL;
}

static SLX_UNUSED struct slr_inode *slr_op_inode(struct slr_op *op,
                                                 unsigned cap, unsigned level)
{
    struct slr_inode *P = slr_new_inode(op->L, cap, level);
    return slr_add_fresh(op, P, 0) ? P : NULL;
}

/* Failure before anything was published: unlock, free what was made. */
static SLX_UNUSED void slr_op_abort(struct slr_op *op)
{
    slr_unlock_from(op, 0);
    for (unsigned i = 0; i < op->nfresh; i++) {
        if (op->fresh_leaf[i])
            slr_free_leaf_now(op->L, (struct slr_leaf *)op->fresh[i]);
        else
            slr_free_inode_now(op->L, (struct slr_inode *)op->fresh[i]);
    }
    op->nfresh = op->nold = 0;
}

/* Success, after the publishing store: point every child of a new index
 * node at it, mark the replaced nodes dead, unlock (waiters then find the
 * successors), and hand the replaced nodes to call_rcu. */
static SLX_UNUSED void slr_op_finish(struct slr_op *op)
{
    const struct slx_type *ty = op->ty;
    for (unsigned i = 0; i < op->nfresh; i++) {
        if (op->fresh_leaf[i])
            continue;
        struct slr_inode *F = (struct slr_inode *)op->fresh[i];
        for (unsigned j = 0; j < F->n; j++)
            SLR_STORE(
                slr_parentp(SLR_LOAD_RLX(slr_ichildp(ty, F, j)), F->level == 1),
                F);
    }
    for (unsigned i = 0; i < op->nold; i++)
        if (!op->old_leaf[i])
            SLR_STORE(&((struct slr_inode *)op->old[i])->dead, 1u);
    slr_unlock_from(op, 0);
    for (unsigned i = 0; i < op->nold; i++)
        slr_retire(op->L, op->old[i]);
    op->nfresh = op->nold = 0;
}

/* --- writers: extent summaries --------------------------------------- */

static SLX_UNUSED uint64_t slr_max_gap(const struct slx_type *ty,
                                       const struct slr_inode *P)
{
    uint64_t m = 0;
    const uint64_t *g = slr_igaps(ty, P);
    for (unsigned j = 0; j < P->n; j++) {
        uint64_t v = SLR_LOAD_RLX(&g[j]);
        m = v > m ? v : m;
    }
    return m;
}

/* Start of the first extent after key (the successor of a leaf whose
 * largest start is key), read without locks. */
static SLX_UNUSED int slr_succ(const struct slx_type *ty,
                               const struct slr_list *L, const void *key,
                               uint64_t *succ)
{
    struct slr_iter it;
    if (!slr_next_from(ty, L, key, SLX_LE, &it))
        return 0;
    *succ = slr_it_start(ty, &it);
    return 1;
}

/* The first start after a leaf, when the caller knows it already (the
 * next leaf under the same parent): known 0 means search for it. */
struct slr_succ_hint {
    int known, has;
    uint64_t v;
};

/* The first start of the leaf after entry j of level-1 node P, when P
 * holds it (a writer holding P reads a word nobody else changes). */
static SLX_UNUSED void slr_sibling_hint(const struct slx_type *ty,
                                        const struct slr_inode *P, unsigned j,
                                        struct slr_succ_hint *h)
{
    h->known = 0;
    if (j + 1 < P->n) {
        const struct slr_leaf *y =
            (const struct slr_leaf *)slr_ichild(ty, P, j + 1);
        uint64_t w = slr_lword(y);
        if (slr_count_of(ty, w)) {
            h->known = h->has = 1;
            h->v = slr_lstart(ty, y, slr_edge_slot(ty, y, w, 0));
        }
    }
}

/* The run after rank i of leaf x (word w): [gs, ge], 0 when there is
 * none. */
static SLX_UNUSED int
slr_run_after(const struct slx_type *ty, const struct slr_list *L,
              const struct slr_leaf *x, const struct slr_snap *w, unsigned i,
              const struct slr_succ_hint *hint, uint64_t *gs, uint64_t *ge)
{
    uint64_t last = slr_rlast(ty, x, w, i), next = 0;
    int has = 1;
    if (last == ty->key_max)
        return 0;
    *gs = last + 1;
    if (i + 1 < slr_wcount(ty, w))
        next = slr_rstart(ty, x, w, i + 1);
    else if (hint && hint->known)
        has = hint->has, next = hint->v;
    else
        has = slr_succ(ty, L, slr_rkey(ty, x, w, i), &next);
    if (!has) {
        *ge = ty->key_max;
        return 1;
    }
    if (next == *gs)
        return 0;
    *ge = next - 1;
    return 1;
}

/* What a bound entry stores for a longest run g: g rounded up to a power
 * of two. A bound is an upper bound, so this stays correct, and a run
 * that grows one extent at a time (erases along a range) changes the
 * stored bounds, and climbs to the root under locks, once per doubling
 * instead of once per erase: two writers popping ranges met at the root
 * on every erase. A hole search prunes on size only, so it loses at most
 * a visit to a leaf whose longest run is under half its bound. */
static SLX_UNUSED uint64_t slr_gap_ceil(uint64_t g)
{
    if (g <= 2)
        return g;
    unsigned bits = 64u - (unsigned)__builtin_clzll(g - 1);
    return bits >= 64 ? UINT64_MAX : UINT64_C(1) << bits;
}

/* Longest free run owned by leaf x (word w): after each extent up to the
 * next start (the first start after the leaf is `succ`, or none). */
static SLX_UNUSED uint64_t slr_leaf_gap(const struct slx_type *ty,
                                        const struct slr_list *L,
                                        const struct slr_leaf *x,
                                        const struct slr_snap *w, uint64_t succ,
                                        int has_succ)
{
    struct slr_succ_hint hint = {1, has_succ, succ};
    uint64_t m = 0, gs, ge;
    for (unsigned i = 0; i < slr_wcount(ty, w); i++)
        if (slr_run_after(ty, L, x, w, i, &hint, &gs, &ge) && ge - gs + 1 > m)
            m = ge - gs + 1;
    return slr_gap_ceil(m);
}

/* The bound for leaf x as its word w lists it (a leaf about to be
 * published, or one written in place). Called with the parent of the leaf
 * locked: the successor's first start can then only grow through an erase
 * that raises this bound after us (it locks our parent first), so the
 * value read here is an upper bound. */
static SLX_UNUSED uint64_t slr_new_leaf_gap(const struct slx_type *ty,
                                            const struct slr_list *L,
                                            const struct slr_leaf *x,
                                            const struct slr_snap *w,
                                            const void *after)
{
    uint64_t succ = 0;
    int has = slr_succ(ty, L, after, &succ);
    return slr_leaf_gap(ty, L, x, w, succ, has);
}

/* After node X's gaps changed: carry its maximum up while it changes,
 * holding each node while locking its parent (every gap is written under
 * its node's lock and computed from a locked child, so no update is lost
 * and, when writers are done, every index gap equals its child's
 * maximum). */
static SLX_UNUSED void slr_gap_up(struct slr_op *op, struct slr_inode *X)
{
    const struct slx_type *ty = op->ty;
    while (!slr_is_top(X)) {
        struct slr_inode *P = slr_lock_parent(op, X);
        if (slr_is_top(P))
            return; /* the top keeps no gaps */
        unsigned j = slr_slot_of(ty, P, X);
        uint64_t g = slr_max_gap(ty, X);
        if (SLR_LOAD_RLX(&slr_igaps(ty, P)[j]) == g)
            return;
        SLR_STORE_RLX(&slr_igaps(ty, P)[j], g);
        X = P;
    }
}

/* Node X's entry rose to g: carry the raise up. An ancestor's entry is
 * its child's maximum, so it becomes g when below it; one at g or above
 * already bounds it, and so do those above. One compare per level, no
 * scan of the node (a lowering needs slr_gap_up's). */
static SLX_UNUSED void slr_gap_raise(struct slr_op *op, struct slr_inode *X,
                                     uint64_t g)
{
    const struct slx_type *ty = op->ty;
    while (!slr_is_top(X)) {
        struct slr_inode *P = slr_lock_parent(op, X);
        if (slr_is_top(P))
            return; /* the top keeps no gaps */
        uint64_t *e = &slr_igaps(ty, P)[slr_slot_of(ty, P, X)];
        if (SLR_LOAD_RLX(e) >= g)
            return;
        SLR_STORE_RLX(e, g);
        X = P;
    }
}

/* --- writers: the structural change ------------------------------- */

/* What replaces entries [j, j + cnt) of a node: 0, 1 or 2 children, the
 * second with its separator key (its first key). */
struct slr_change {
    unsigned nc;
    void *c[2];
    const unsigned char *sep;
    uint64_t gap[2];
};

/* Entry i of node N after the change: old entries before j, the new
 * children, then the old entries after the replaced ones. */
struct slr_view {
    const struct slr_inode *N;
    unsigned j, cnt;
    const struct slr_change *ch;
};

static SLX_UNUSED void slr_view_get(const struct slx_type *ty,
                                    const struct slr_view *v, unsigned i,
                                    const unsigned char **key, void **child,
                                    uint64_t *gap)
{
    unsigned src;
    if (i < v->j) {
        src = i;
    } else if (i < v->j + v->ch->nc) {
        unsigned k = i - v->j;
        *key = k == 0 ? slr_ikey(ty, v->N, v->j) : v->ch->sep;
        *child = v->ch->c[k];
        *gap = v->ch->gap[k];
        return;
    } else {
        src = i - v->ch->nc + v->cnt;
    }
    *key = slr_ikey(ty, v->N, src);
    *child = SLR_LOAD_RLX(slr_ichildp(ty, v->N, src));
    *gap = slx_is_extent(ty) ? SLR_LOAD_RLX(&slr_igaps(ty, v->N)[src]) : 0;
}

/* Fill the new node F with view entries [a, b). Its entry 0 key is its
 * lower fence: N's own when F starts N's range. */
static SLX_UNUSED void slr_fill(const struct slx_type *ty, struct slr_inode *F,
                                const struct slr_view *v, unsigned a,
                                unsigned b)
{
    for (unsigned i = a; i < b; i++) {
        const unsigned char *key;
        void *child;
        uint64_t gap;
        slr_view_get(ty, v, i, &key, &child, &gap);
        memcpy(slr_ikey(ty, F, i - a), i == 0 ? slr_ikey(ty, v->N, 0) : key,
               ty->ks);
        SLR_STORE_RLX(slr_ichildp(ty, F, i - a), child);
        if (slx_is_extent(ty))
            slr_igaps(ty, F)[i - a] = gap;
    }
    F->n = b - a;
}

/* Build, in place of N, the node(s) its new entries need: one node, or
 * two split at `at` (the second starts with the entry at `at`). Fills the
 * change the level above must make. */
static SLX_UNUSED int slr_rebuild(struct slr_op *op, const struct slr_view *v,
                                  unsigned m, unsigned at, unsigned cap,
                                  struct slr_change *up)
{
    const struct slx_type *ty = op->ty;
    unsigned level = v->N->level;
    if (!at) {
        struct slr_inode *F = slr_op_inode(op, cap, level);
        if (!F)
            return -ENOMEM;
        slr_fill(ty, F, v, 0, m);
        up->nc = 1;
        up->c[0] = F;
        up->gap[0] = slx_is_extent(ty) ? slr_max_gap(ty, F) : 0;
        return 0;
    }
    struct slr_inode *A = slr_op_inode(op, ty->icap, level);
    struct slr_inode *B = A ? slr_op_inode(op, ty->icap, level) : NULL;
    if (!B)
        return -ENOMEM;
    slr_fill(ty, A, v, 0, at);
    slr_fill(ty, B, v, at, m);
    up->nc = 2;
    up->c[0] = A;
    up->c[1] = B;
    up->sep = slr_ikey(ty, B, 0);
    up->gap[0] = slx_is_extent(ty) ? slr_max_gap(ty, A) : 0;
    up->gap[1] = slx_is_extent(ty) ? slr_max_gap(ty, B) : 0;
    return 0;
}

/* The top changes only by its one child: a new root over two nodes, or an
 * empty list's fresh root and leaf when the last leaf went. */
static SLX_UNUSED int slr_new_root(struct slr_op *op, unsigned child_level,
                                   struct slr_change *ch)
{
    const struct slx_type *ty = op->ty;
    struct slr_inode *R =
        slr_op_inode(op, ty->icap, ch->nc == 2 ? child_level + 1 : 1);
    if (!R)
        return -ENOMEM;
    if (ch->nc == 2) {
        memset(slr_ikey(ty, R, 0), 0, ty->ks);
        memcpy(slr_ikey(ty, R, 1), ch->sep, ty->ks);
        for (unsigned k = 0; k < 2; k++) {
            SLR_STORE_RLX(slr_ichildp(ty, R, k), ch->c[k]);
            if (slx_is_extent(ty))
                slr_igaps(ty, R)[k] = ch->gap[k];
        }
        R->n = 2;
    } else {
        struct slr_leaf *x = slr_op_leaf(op);
        if (!x)
            return -ENOMEM;
        memset(slr_ikey(ty, R, 0), 0, ty->ks);
        SLR_STORE_RLX(slr_ichildp(ty, R, 0), (void *)x);
        if (slx_is_extent(ty))
            slr_igaps(ty, R)[0] = 0;
        R->n = 1;
    }
    ch->nc = 1;
    ch->c[0] = R;
    ch->gap[0] = slx_is_extent(ty) ? slr_max_gap(ty, R) : 0;
    return 0;
}

/* The publishing store: child c replaces entry j of the locked node X
 * (same key range), then the gaps above are brought up to date. */
static SLX_UNUSED void slr_publish(struct slr_op *op, struct slr_inode *X,
                                   unsigned j, void *c, uint64_t gap)
{
    const struct slx_type *ty = op->ty;
    SLR_STORE(slr_parentp(c, X->level == 1), X);
    if (slx_is_extent(ty) && !slr_is_top(X))
        SLR_STORE_RLX(&slr_igaps(ty, X)[j], gap);
    SLR_STORE(slr_ichildp(ty, X, j), c);
    if (slx_is_extent(ty) && !slr_is_top(X))
        slr_gap_up(op, X);
}

/* Replace entries [j, j + cnt) of the locked, live node N by ch, level by
 * level upwards until one store publishes everything. A node left empty
 * leaves its parent; a node promoted through (level < op->h) or overfull
 * splits; the root at the top level grows wider instead. Nothing is
 * visible before the final store, so -ENOMEM changes nothing. */
static SLX_UNUSED int slr_apply(struct slr_op *op, struct slr_inode *N,
                                unsigned j, unsigned cnt, struct slr_change ch)
{
    const struct slx_type *ty = op->ty;
    for (;;) {
        if (slr_is_top(N)) {
            if (ch.nc != 1) {
                unsigned cl =
                    ch.nc == 2 ? ((struct slr_inode *)ch.c[0])->level : 0;
                int rc = slr_new_root(op, cl, &ch);
                if (rc)
                    return rc;
            }
            slr_publish(op, N, 0, ch.c[0], ch.gap[0]);
            return 0;
        }
        if (cnt == 1 && ch.nc == 1) {
            slr_publish(op, N, j, ch.c[0], ch.gap[0]);
            return 0;
        }
        struct slr_view v = {N, j, cnt, &ch};
        unsigned m = N->n - cnt + ch.nc;
        struct slr_change up;
        if (m == 0) {
            up.nc = 0;
        } else {
            int root = slr_is_top(SLR_LOAD(&N->parent));
            unsigned at = 0, cap = ty->icap;
            if (ch.nc == 2 && N->level < op->h)
                at = j + 1; /* the new entry starts a node here */
            else if (m > N->cap && root && N->level >= slx_max_index(ty))
                cap = 2 * m; /* the top level: the root grows wider */
            else if (m > N->cap)
                at = m / 2;
            else
                cap = N->cap;
            int rc = slr_rebuild(op, &v, m, at, cap, &up);
            if (rc)
                return rc;
        }
        slr_add_old(op, N, 0);
        struct slr_inode *P = slr_lock_parent(op, N);
        j = slr_slot_of(ty, P, N);
        cnt = 1;
        ch = up;
        N = P;
    }
}

/* --- writers: leaves ----------------------------------------------- */

/* splitmix64: one draw per leaf split, from the list's seed and a shared
 * counter (splits are rare enough for the counter not to matter). */
static SLX_UNUSED unsigned slr_draw(const struct slx_type *ty,
                                    struct slr_list *L)
{
    uint64_t z =
        L->w->seed +
        0x9e3779b97f4a7c15ull *
            (__atomic_fetch_add(&L->w->draws, 1, __ATOMIC_RELAXED) + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    unsigned cap = slr_root(ty, L)->level + 1, h = 1;
    if (cap > slx_max_index(ty))
        cap = slx_max_index(ty);
    uint64_t mask = ((uint64_t)1 << ty->pshift) - 1;
    while (h < cap && (z & mask) == 0) {
        h++;
        z >>= ty->pshift;
    }
    return h;
}

/* Copy slot s of x to slot `to` of y. */
static SLX_UNUSED void slr_copy_slot(const struct slx_type *ty,
                                     struct slr_leaf *y, unsigned to,
                                     const struct slr_leaf *x, unsigned s)
{
    memcpy(slr_lkey(ty, y, to), slr_lkey(ty, x, s), ty->ks);
    slr_lptrs(ty, y)[to] = slr_lptrs(ty, x)[s];
    if (slx_is_extent(ty))
        memcpy(slr_llasts(ty, y) + (size_t)to * ty->ks,
               slr_llasts(ty, x) + (size_t)s * ty->ks, ty->ks);
}

/* Copy ranks [a, b) of x (snapshot w) to slots to, to + 1, ... of y: one
 * block per array when ranks are slots. */
static SLX_UNUSED void slr_copy_ranks(const struct slx_type *ty,
                                      struct slr_leaf *y, unsigned to,
                                      const struct slr_leaf *x,
                                      const struct slr_snap *w, unsigned a,
                                      unsigned b)
{
    if (b <= a)
        return;
    if (slr_tailed(ty)) {
        for (unsigned i = a; i < b; i++)
            slr_copy_slot(ty, y, to++, x, slr_wslot(ty, w, i));
        return;
    }
    memcpy(slr_lkey(ty, y, to), slr_lkey(ty, x, a), (size_t)(b - a) * ty->ks);
    memcpy(slr_lptrs(ty, y) + to, slr_lptrs(ty, x) + a,
           (size_t)(b - a) * sizeof(void *));
    if (slx_is_extent(ty))
        memcpy(slr_llasts(ty, y) + (size_t)to * ty->ks,
               slr_llasts(ty, x) + (size_t)a * ty->ks,
               (size_t)(b - a) * ty->ks);
}

static SLX_UNUSED void slr_set_slot(const struct slx_type *ty,
                                    struct slr_leaf *y, unsigned i,
                                    const void *key, void *e, uint64_t last)
{
    memcpy(slr_lkey(ty, y, i), key, ty->ks);
    slr_lptrs(ty, y)[i] = e;
    if (slx_is_extent(ty))
        slx_store_u(ty, slr_llasts(ty, y) + (size_t)i * ty->ks, last);
}

/* A private leaf whose slots 0..n-1 now hold its keys in order: its word
 * (published later, with the leaf, by the parent's child store). */
static SLX_UNUSED void slr_seal(const struct slx_type *ty, struct slr_leaf *y,
                                unsigned n)
{
    y->used = n;
    SLR_STORE_RLX(&y->order, slr_wsorted(ty, n));
}

/* Live slots of a leaf this writer holds (or built). */
static SLX_UNUSED unsigned slr_mine_n(const struct slx_type *ty,
                                      const struct slr_leaf *x)
{
    return slr_count_of(ty, slr_lword_mine(x));
}

/* The largest key of a leaf this writer holds (or built). */
static SLX_UNUSED const unsigned char *
slr_mine_last_key(const struct slx_type *ty, const struct slr_leaf *x)
{
    struct slr_snap w[1];
    slr_snap_mine(ty, x, w);
    return slr_rkey(ty, x, w, slr_wcount(ty, w) - 1);
}

/* Ranks [a, b) of "x (snapshot w) with (key, e, last) at rank pos" into
 * y from slot 0, sealed. */
static SLX_UNUSED void
slr_fill_leaf(const struct slx_type *ty, struct slr_leaf *y,
              const struct slr_leaf *x, const struct slr_snap *w, unsigned pos,
              const void *key, void *e, uint64_t last, unsigned a, unsigned b)
{
    unsigned to = 0;
    unsigned lo = a < pos ? a : pos, hi = b < pos ? b : pos;
    slr_copy_ranks(ty, y, to, x, w, lo, hi);
    to += hi - lo;
    if (a <= pos && pos < b)
        slr_set_slot(ty, y, to++, key, e, last);
    lo = a > pos + 1 ? a - 1 : pos;
    hi = b - 1;
    if (hi > lo)
        slr_copy_ranks(ty, y, to, x, w, lo, hi);
    to += hi > lo ? hi - lo : 0;
    slr_seal(ty, y, to);
}

/* The leaf after the change in the parent's view: the change's gap. */
static SLX_UNUSED uint64_t slr_gap_after(struct slr_op *op,
                                         const struct slr_leaf *y,
                                         const void *after)
{
    if (!slx_is_extent(op->ty))
        return 0;
    struct slr_snap w[1];
    slr_snap_mine(op->ty, y, w);
    return slr_new_leaf_gap(op->ty, op->L, y, w, after);
}

/* Lock the parent of the leaf a search found and check that the parent
 * is alive and still holds that leaf: -EAGAIN when another writer
 * replaced either. The leaf's word may have changed since the search
 * (writes in place): callers read it again under the lock. */
static SLX_UNUSED int slr_lock_leaf(struct slr_op *op, const struct slr_pos *p)
{
    if (!slr_lock_live(op, p->parent))
        return -EAGAIN;
    if (SLR_LOAD_RLX(slr_ichildp(op->ty, p->parent, p->slot)) != p->leaf)
        return -EAGAIN;
    return 0;
}

/* Extent face, an erase (or an insert below the smallest key) in place whose
 * next word is `next`: the leaf's bound in the parent (locked) raised to what
 * that word lists, and the raise carried up. Runs only grow, so this holds
 * before the store of the word and after. The first start after the leaf is its
 * sibling's under the same parent (stable: we hold the parent); for the
 * parent's last leaf, a search past the largest key of the old word `wide`
 * (which the erase may be removing). An insert in place below x's smallest key
 * comes here too: the run after it was the predecessor's (or, in an empty
 * list, nobody's). Any other insert in place leaves the bound as it is:
 * it only shortens x's runs, so the bound stays an upper bound, and a
 * hole search that finds it too high lowers it (slr_repair_bound). */
static SLX_UNUSED void slr_regap(struct slr_op *op, const struct slr_pos *p,
                                 uint64_t next, uint64_t wide)
{
    const struct slx_type *ty = op->ty;
    if (!slx_is_extent(ty))
        return;
    const struct slr_leaf *x = p->leaf;
    struct slr_snap w[1];
    struct slr_succ_hint h = {0, 0, 0};
    slr_snap_of(ty, slr_lkeys(ty, x), next, w);
    slr_sibling_hint(ty, p->parent, p->slot, &h);
    if (!h.known) /* the parent's last leaf: search past it */
        h.has = slr_succ(ty, op->L,
                         slr_lkey(ty, x, slr_edge_slot(ty, x, wide, 1)), &h.v);
    uint64_t g = slr_leaf_gap(ty, op->L, x, w, h.v, h.has);
    uint64_t *slot = &slr_igaps(ty, p->parent)[p->slot];
    if (SLR_LOAD_RLX(slot) >= g)
        return;
    SLR_STORE_RLX(slot, g);
    slr_gap_raise(op, p->parent, g);
}

/* The live slots of x (word w) just below and just above slot sl's key
 * (SLR_NO_SLOT when none): one pass over the live slots, no snapshot. */
static SLX_UNUSED void slr_neighbours(const struct slx_type *ty,
                                      const struct slr_leaf *x, uint64_t w,
                                      unsigned sl, unsigned *below,
                                      unsigned *above)
{
    const unsigned char *k = slr_lkeys(ty, x);
    unsigned n = slr_tailed(ty) ? slr_wused(w) : (unsigned)w;
    *below = *above = SLR_NO_SLOT;
    for (unsigned s = 0; s < n; s++) {
        if (s == sl || (slr_tailed(ty) && !((w >> s) & 1u)))
            continue;
        if (slr_slot_less(ty, k, s, sl)) {
            if (*below == SLR_NO_SLOT || slr_slot_less(ty, k, *below, s))
                *below = s;
        } else if (*above == SLR_NO_SLOT || slr_slot_less(ty, k, s, *above)) {
            *above = s;
        }
    }
}

/* Extent face, before erasing slot sl of the locked leaf (word w) in
 * place: the erase joins the run before the extent with the run after
 * it, and x's bound must cover the joined run. Only that run changed, so
 * the new bound is the larger of the old one (an upper bound of the rest)
 * and its length: no pass over the leaf's runs. The first extent's run
 * joins the leaf before (slr_raise_pred has raised that one). The start
 * after the extent: the next live key, or the sibling's first under the
 * same (locked) parent, or for the parent's last leaf a search. */
static SLX_UNUSED void slr_raise_over(struct slr_op *op,
                                      const struct slr_pos *p, uint64_t w,
                                      unsigned sl)
{
    const struct slx_type *ty = op->ty;
    const struct slr_leaf *x = p->leaf;
    unsigned below, above;
    slr_neighbours(ty, x, w, sl, &below, &above);
    if (below == SLR_NO_SLOT)
        return;
    uint64_t last = slr_llast(ty, x, below), end = ty->key_max;
    if (last == ty->key_max)
        return;
    if (above != SLR_NO_SLOT) {
        end = slr_lstart(ty, x, above) - 1;
    } else {
        struct slr_succ_hint h = {0, 0, 0};
        slr_sibling_hint(ty, p->parent, p->slot, &h);
        if (!h.known)
            h.has = slr_succ(ty, op->L, slr_lkey(ty, x, sl), &h.v);
        if (h.has)
            end = h.v - 1;
    }
    uint64_t g = slr_gap_ceil(end - last);
    uint64_t *slot = &slr_igaps(ty, p->parent)[p->slot];
    if (SLR_LOAD_RLX(slot) >= g)
        return;
    SLR_STORE_RLX(slot, g);
    slr_gap_raise(op, p->parent, g);
}

/* The word after inserting a key into never-used slot s of a leaf with
 * word w, or 0 when it cannot be done in place: a run and a tail extend
 * the run when the key is above the run's last and there is no tail, or
 * else grow the tail while it has room; a count word only appends. */
static SLX_UNUSED uint64_t slr_word_insert(const struct slx_type *ty,
                                           const struct slr_leaf *x, uint64_t w,
                                           const void *key)
{
    if (!slr_tailed(ty)) {
        unsigned n = (unsigned)w;
        int append = n == 0 || ty->less(slr_lkey(ty, x, n - 1), key);
        return append && x->used == n ? w + 1 : 0;
    }
    unsigned run = slr_wrun(w), used = slr_wused(w);
    if (used >= ty->kpn)
        return 0;
    int extends =
        run == used && (run == 0 || ty->less(slr_lkey(ty, x, run - 1), key));
    if (!extends && used - run >= SLR_TAIL_LEN)
        return 0;
    return slr_wmake(slr_wmask(w) | UINT64_C(1) << used,
                     run + (extends ? 1u : 0u), used + 1);
}

/* The never-used slot an insert in place writes. */
static SLX_UNUSED unsigned slr_fresh_slot(const struct slx_type *ty,
                                          const struct slr_leaf *x, uint64_t w)
{
    unsigned s = slr_tailed(ty) ? slr_wused(w) : x->used;
#ifdef SKIPLIST_RCU_PLANT_REUSE_DEAD
    /* Planted fault: a dead slot (written before, not live), which
     * readers holding an older word may still read. */
    for (unsigned d = 0; slr_tailed(ty) && d < s; d++)
        if (!((slr_wmask(w) >> d) & 1u))
            return d;
#endif
    return s;
}

/* Insert (key, e, last) into the locked leaf without copying it: written
 * into a never-used slot, then listed by one release store of the word
 * (the linearisation point). 1 when this leaf cannot take it in place:
 * the caller copies. */
static SLX_UNUSED int slr_put_in_place(struct slr_op *op,
                                       const struct slr_pos *p, const void *key,
                                       void *e, uint64_t last)
{
    const struct slx_type *ty = op->ty;
    struct slr_leaf *x = (struct slr_leaf *)(uintptr_t)p->leaf;
    uint64_t w = slr_lword_mine(x);
    uint64_t next = slr_word_insert(ty, x, w, key);
    if (!next)
        return 1;
    /* The new smallest key of x takes over the end of the run before it
     * (its predecessor's, or nobody's): x's bound may have to rise. */
    int first = slx_is_extent(ty) &&
                (!slr_count_of(ty, w) ||
                 ty->less(key, slr_lkey(ty, x, slr_edge_slot(ty, x, w, 0))));
    unsigned s = slr_fresh_slot(ty, x, w);
#ifdef SKIPLIST_RCU_PLANT_REUSE_DEAD
    if (slr_tailed(ty) && s != slr_wused(w))
        next = (next & ~slr_wmask(next)) | slr_wmask(w) | UINT64_C(1) << s;
#endif
#ifdef SKIPLIST_RCU_PLANT_SLOT_AFTER_WORD
    slr_publish_word(x, next); /* planted fault: listed before written */
    /* ... and the window held open, as a writer preempted there would:
     * a few instructions wide, readers met it in about one stress round
     * of eight on a loaded 2-core machine, and missed it for 24 once. */
    sched_yield();
    slr_set_slot(ty, x, s, key, e, last);
#else
    slr_set_slot(ty, x, s, key, e, last);
    slr_publish_word(x, next);
#endif
    if (!slr_tailed(ty))
        x->used = s + 1;
    if (first) /* see slr_regap */
        slr_regap(op, p, next, next);
    return 0;
}

/* Erase slot sl of the locked leaf (word w) without copying it: one
 * release store of the word without the slot, which stays dead (never
 * written again while the leaf is reachable). The bound is raised first:
 * the runs only grow, so it holds before the store and after. 1 when a
 * count word cannot drop that slot (not the last): the caller copies. */
static SLX_UNUSED int slr_take_in_place(struct slr_op *op,
                                        const struct slr_pos *p, uint64_t w,
                                        unsigned sl)
{
    const struct slx_type *ty = op->ty;
    struct slr_leaf *x = (struct slr_leaf *)(uintptr_t)p->leaf;
    if (!slr_tailed(ty) && sl + 1 != (unsigned)w)
        return 1;
    uint64_t next = slr_tailed(ty) ? w & ~(UINT64_C(1) << sl) : w - 1;
    if (slx_is_extent(ty))
        slr_raise_over(op, p, w, sl);
    slr_publish_word(x, next);
    return 0;
}

/* The rank of slot sl in snapshot w. */
static SLX_UNUSED unsigned slr_rank_of(const struct slx_type *ty,
                                       const struct slr_snap *w, unsigned sl)
{
    if (!slr_tailed(ty))
        return sl;
    unsigned i = 0;
    while (i < w->n && w->s[i] != sl)
        i++;
    return i;
}

/* Insert (key, e, last), absent, into the locked leaf: in place when it
 * can; else a compacted copy with one more slot, or two halves when it is
 * full (a split draws the new entry's height). */
static SLX_UNUSED int slr_put(struct slr_op *op, const struct slr_pos *p,
                              const void *key, void *e, uint64_t last)
{
    const struct slx_type *ty = op->ty;
    const struct slr_leaf *x = p->leaf;
    unsigned n = slr_mine_n(ty, x);
    struct slr_change ch;
    if (n < ty->kpn && !slr_put_in_place(op, p, key, e, last))
        return 0;
    struct slr_snap w[1];
    slr_snap_mine(ty, x, w);
    unsigned pos = slr_leaf_pos(ty, x, w, key, SLX_LT);
    slr_add_old(op, (void *)(uintptr_t)x, 1);
    if (n < ty->kpn) {
        struct slr_leaf *y = slr_op_leaf(op);
        if (!y)
            return -ENOMEM;
#ifdef SKIPLIST_RCU_PLANT_EARLY_PUBLISH
        /* planted fault: the copy is reachable before it is written */
        SLR_STORE_RLX(&y->order, slr_wsorted(ty, n + 1));
        SLR_STORE(slr_ichildp(ty, p->parent, p->slot), (void *)y);
#endif
        slr_fill_leaf(ty, y, x, w, pos, key, e, last, 0, n + 1);
        ch.nc = 1;
        ch.c[0] = y;
        ch.gap[0] = slr_gap_after(op, y, slr_mine_last_key(ty, y));
        return slr_apply(op, p->parent, p->slot, 1, ch);
    }
    struct slr_leaf *a = slr_op_leaf(op);
    struct slr_leaf *b = a ? slr_op_leaf(op) : NULL;
    if (!b)
        return -ENOMEM;
    /* An append past x's last key (sequential keys) leaves x full and
     * starts b with the new key alone, so ascending loads fill leaves;
     * otherwise half and half. */
    unsigned half = pos == n ? n : (n + 1) / 2;
    slr_fill_leaf(ty, a, x, w, pos, key, e, last, 0, half);
    slr_fill_leaf(ty, b, x, w, pos, key, e, last, half, n + 1);
    ch.nc = 2;
    ch.c[0] = a;
    ch.c[1] = b;
    ch.sep = slr_lkey(ty, b, 0);
    if (slx_is_extent(ty)) {
        struct slr_snap aw[1];
        slr_snap_mine(ty, a, aw);
        ch.gap[0] = slr_leaf_gap(ty, op->L, a, aw, slr_lstart(ty, b, 0), 1);
    } else {
        ch.gap[0] = 0;
    }
    ch.gap[1] = slr_gap_after(op, b, slr_mine_last_key(ty, b));
    op->h = slr_draw(ty, op->L);
    SLR_ADD(&op->L->w->splits, 1);
    return slr_apply(op, p->parent, p->slot, 1, ch);
}

/* The sibling under the same parent that leaf x (n live keys, one about
 * to go) merges with, or NULL: both then fit in half a leaf. */
static SLX_UNUSED const struct slr_leaf *
slr_merge_sibling(const struct slx_type *ty, const struct slr_inode *P,
                  unsigned j, unsigned n, unsigned *sj)
{
    if (n - 1 > ty->kpn / 4 || P->n <= 1)
        return NULL;
    *sj = j + 1 < P->n ? j + 1 : j - 1;
    const struct slr_leaf *s =
        (const struct slr_leaf *)SLR_LOAD_RLX(slr_ichildp(ty, P, *sj));
    return slr_mine_n(ty, s) + n - 1 <= ty->kpn / 2 ? s : NULL;
}

/* Remove slot sl of the locked leaf: in place when it can; merged into a
 * copy with a sibling under the same parent when both then fit in half a
 * leaf; no leaf at all when it empties; else a compacted copy. */
static SLX_UNUSED int slr_take(struct slr_op *op, const struct slr_pos *p,
                               unsigned sl)
{
    const struct slx_type *ty = op->ty;
    const struct slr_leaf *x = p->leaf;
    struct slr_inode *P = p->parent;
    uint64_t word = slr_lword_mine(x);
    unsigned n = slr_count_of(ty, word), j = p->slot, cnt = 1, sj = 0;
    struct slr_change ch;
    if (n == 1) {
        slr_add_old(op, (void *)(uintptr_t)x, 1);
        SLR_ADD(&op->L->w->merges, 1);
        ch.nc = 0;
        return slr_apply(op, P, j, 1, ch);
    }
    const struct slr_leaf *s = slr_merge_sibling(ty, P, j, n, &sj);
    if (!s && !slr_take_in_place(op, p, word, sl))
        return 0;
    struct slr_snap w[1];
    slr_snap_mine(ty, x, w);
    unsigned pos = slr_rank_of(ty, w, sl);
    slr_add_old(op, (void *)(uintptr_t)x, 1);
    struct slr_leaf *y = slr_op_leaf(op);
    if (!y)
        return -ENOMEM;
    const struct slr_leaf *right = x; /* the leaf whose last key ends y */
    unsigned to = 0;
    if (s) {
        struct slr_snap sw[1];
        slr_snap_mine(ty, s, sw);
        unsigned sn = slr_wcount(ty, sw);
        slr_add_old(op, (void *)(uintptr_t)s, 1);
        SLR_ADD(&op->L->w->merges, 1);
        int s_first = sj < j;
        if (s_first) {
            slr_copy_ranks(ty, y, 0, s, sw, 0, sn);
            to = sn;
            j = sj;
        }
        slr_copy_ranks(ty, y, to, x, w, 0, pos);
        slr_copy_ranks(ty, y, to + pos, x, w, pos + 1, n);
        to += n - 1;
        if (!s_first) {
            slr_copy_ranks(ty, y, to, s, sw, 0, sn);
            to += sn;
            right = s;
        }
        cnt = 2;
    } else {
        slr_copy_ranks(ty, y, 0, x, w, 0, pos);
        slr_copy_ranks(ty, y, pos, x, w, pos + 1, n);
        to = n - 1;
    }
    slr_seal(ty, y, to);
    ch.nc = 1;
    ch.c[0] = y;
    ch.gap[0] = slr_gap_after(op, y, slr_mine_last_key(ty, right));
    return slr_apply(op, P, j, cnt, ch);
}

/* Ends an attempt: 0 publishes (finish), -EAGAIN asks for another
 * search, anything else is the caller's error. */
static SLX_UNUSED int slr_settle(struct slr_op *op, int rc)
{
    if (rc == 0) {
        slr_op_finish(op);
        return 0;
    }
    slr_op_abort(op);
    if (rc == -EAGAIN)
        SLR_ADD(&op->L->w->retries, 1);
    return rc;
}

/* --- the ordered index --------------------------------------------- */

static SLX_UNUSED int slr_insert(const struct slx_type *ty, struct slr_list *L,
                                 void *e, void **existing)
{
    if (!e)
        return -EINVAL;
    unsigned char key[SLX_KEY_MAX];
    ty->key_of(e, key);
    struct slr_op op;
    int rc;
    rcu_read_lock();
    do {
        struct slr_pos p;
        slr_descend(ty, L, key, SLX_LE, &p);
        void *found = slr_leaf_lookup(ty, p.leaf, slr_lword(p.leaf), key);
        slr_op_init(&op, ty, L);
        rc = found ? -EEXIST : slr_lock_leaf(&op, &p);
        if (!rc) { /* again under the lock: the leaf may have changed */
            found = slr_leaf_lookup(ty, p.leaf, slr_lword_mine(p.leaf), key);
            rc = found ? -EEXIST : slr_put(&op, &p, key, e, 0);
        }
        if (rc == -EEXIST && existing)
            *existing = found;
        rc = slr_settle(&op, rc);
    } while (rc == -EAGAIN);
    SLR_TSAN_RELEASE(&skiplist_rcu_tsan_gp);
    rcu_read_unlock();
    return rc;
}

/* Remove the element with key (and, when match is given, that element). */
static SLX_UNUSED int slr_erase_key(const struct slx_type *ty,
                                    struct slr_list *L, const void *key,
                                    const void *match, void **out)
{
    struct slr_op op;
    int rc;
    rcu_read_lock();
    do {
        struct slr_pos p;
        slr_descend(ty, L, key, SLX_LE, &p);
        void *victim = slr_leaf_lookup(ty, p.leaf, slr_lword(p.leaf), key);
        slr_op_init(&op, ty, L);
        rc = !victim || (match && victim != match) ? -ENOENT
                                                   : slr_lock_leaf(&op, &p);
        if (!rc) { /* again under the lock: the leaf may have changed */
            uint64_t w = slr_lword_mine(p.leaf);
            unsigned sl = slr_leaf_slot(ty, p.leaf, w, key);
            victim = sl == SLR_NO_SLOT ? NULL : slr_lptrs(ty, p.leaf)[sl];
            rc = !victim || (match && victim != match) ? -ENOENT
                                                       : slr_take(&op, &p, sl);
        }
        rc = slr_settle(&op, rc);
        if (!rc && out)
            *out = victim;
    } while (rc == -EAGAIN);
    SLR_TSAN_RELEASE(&skiplist_rcu_tsan_gp);
    rcu_read_unlock();
    return rc;
}

static SLX_UNUSED int slr_erase(const struct slx_type *ty, struct slr_list *L,
                                void *e)
{
    if (!e)
        return -EINVAL;
    unsigned char key[SLX_KEY_MAX];
    ty->key_of(e, key);
    return slr_erase_key(ty, L, key, e, NULL);
}

/* --- the extent index ---------------------------------------------- */

/* Leaf x's runs, in the request's order. *longest: the longest run seen
 * (a bound above it is stale: the caller repairs it). */
static SLX_UNUSED int slr_hole_leaf(const struct slx_type *ty,
                                    const struct slr_list *L,
                                    const struct slr_leaf *x,
                                    const struct slr_succ_hint *hint,
                                    struct slx_holereq *r, uint64_t *longest)
{
    struct slr_snap w[1];
    slr_snap_read(ty, x, w);
    unsigned n = slr_wcount(ty, w);
    *longest = 0;
    for (unsigned k = 0; k < n; k++) {
        unsigned i = r->highest ? n - 1 - k : k;
        uint64_t gs, ge;
        if (!slr_run_after(ty, L, x, w, i, hint, &gs, &ge))
            continue;
        if (ge - gs + 1 > *longest)
            *longest = ge - gs + 1;
        if (slx_fit(r, gs, ge))
            return 1;
    }
    return 0;
}

/* A search found leaf x's bound above its longest run (an insert before
 * x's successor shortened x's last run without touching x): lower it,
 * under its parent's lock, to the exact value. Recomputed there it cannot
 * be too low: the successor's first start grows only through an erase
 * that must hold this lock too. */
static SLX_UNUSED void slr_repair_bound(const struct slx_type *ty,
                                        struct slr_list *L, struct slr_inode *P,
                                        unsigned j, const struct slr_leaf *x)
{
    struct slr_op op;
    slr_op_init(&op, ty, L);
    if (slr_lock_live(&op, P) && SLR_LOAD_RLX(slr_ichildp(ty, P, j)) == x &&
        slr_mine_n(ty, x)) {
        struct slr_snap w[1];
        slr_snap_mine(ty, x, w);
        uint64_t g = slr_new_leaf_gap(ty, L, x, w, slr_mine_last_key(ty, x));
        uint64_t *slot = &slr_igaps(ty, P)[j];
        if (g < SLR_LOAD_RLX(slot)) {
            SLR_STORE_RLX(slot, g);
            slr_gap_up(&op, P);
        }
    }
    slr_unlock_from(&op, 0);
}

/* Depth first through the entries whose extents start inside the window
 * and whose bound admits the size, lowest (highest) first. */
static SLX_UNUSED int
slr_hole_node(const struct slx_type *ty, struct slr_list *L,
              const struct slr_inode *P, const unsigned char *plo,
              const unsigned char *phi, struct slx_holereq *r)
{
    unsigned n = P->n;
    const uint64_t *gaps = slr_igaps(ty, P);
    for (unsigned k = 0; k < n; k++) {
        unsigned j = r->highest ? n - 1 - k : k;
        const unsigned char *clo = j ? slr_ikey(ty, P, j) : plo;
        const unsigned char *chi = j + 1 < n ? slr_ikey(ty, P, j + 1) : phi;
        if (clo && slx_load_u(ty, clo) > r->hi)
            continue;
        if (chi && slx_load_u(ty, chi) <= r->lo)
            continue;
        uint64_t bound = SLR_LOAD_RLX(&gaps[j]);
        if (bound < r->size)
            continue;
        const void *c = slr_ichild(ty, P, j);
        if (P->level > 1) {
            if (slr_hole_node(ty, L, (const struct slr_inode *)c, clo, chi, r))
                return 1;
            continue;
        }
        struct slr_succ_hint hint;
        uint64_t longest;
        const struct slr_leaf *x = (const struct slr_leaf *)c;
        slr_sibling_hint(ty, P, j, &hint);
        if (slr_hole_leaf(ty, L, x, &hint, r, &longest))
            return 1;
        if (slr_gap_ceil(longest) < bound)
            slr_repair_bound(ty, L, (struct slr_inode *)(uintptr_t)P, j, x);
    }
    return 0;
}

/* The run that reaches into the window from below: the one after the last
 * extent starting below r->lo, or the head run (owned by no leaf) when
 * there is none. Found in two looks (that extent, then the start after
 * it), between which other writers may insert below r->lo: a start found
 * below r->lo is the new last extent before the window, and the walk goes
 * on from it (keys strictly increase and stay below r->lo, so it ends).
 * Taking the run that ends there as the answer instead lost the hole at
 * the window's bottom: -ENOSPC with the window never full. */
static SLX_UNUSED int slr_hole_below(const struct slx_type *ty,
                                     const struct slr_list *L,
                                     struct slx_holereq *r)
{
    unsigned char lo[8];
    struct slr_iter it;
    slx_store_u(ty, lo, r->lo);
    if (!slr_prev_from(ty, L, lo, SLX_LT, &it)) {
        if (!slr_first(ty, L, &it))
            return slx_fit(r, 0, ty->key_max);
        uint64_t s = slr_it_start(ty, &it);
        if (s >= r->lo)
            return s > 0 && slx_fit(r, 0, s - 1);
        /* an extent below the window came meanwhile: the walk below */
    }
    for (;;) {
        uint64_t last = slr_it_last(ty, &it);
        if (last == ty->key_max)
            return 0;
        if (!slr_iter_next(ty, &it))
            return slx_fit(r, last + 1, ty->key_max);
        uint64_t next = slr_it_start(ty, &it);
        if (next >= r->lo)
            return next > last + 1 && slx_fit(r, last + 1, next - 1);
    }
}

static SLX_UNUSED int slr_hole_search(const struct slx_type *ty,
                                      struct slr_list *L, struct slx_holereq *r)
{
    const struct slr_inode *root = slr_root(ty, L);
    if (!r->highest)
        return slr_hole_below(ty, L, r) ||
               slr_hole_node(ty, L, root, NULL, NULL, r);
    return slr_hole_node(ty, L, root, NULL, NULL, r) ||
           slr_hole_below(ty, L, r);
}

/* Under the locks of the leaves where [s, last] would go: an extent
 * already overlapping it, or NULL. The extents before and after s are
 * read from s's leaf x (p) when it has them, else from its siblings under
 * the same parent (held too), else by a search: the one before s without
 * a lock (whoever inserts one reaching s holds s's leaf, as we do). */
static SLX_UNUSED void *slr_ext_clash(const struct slx_type *ty,
                                      const struct slr_list *L,
                                      const struct slr_pos *p, uint64_t s,
                                      uint64_t last)
{
    unsigned char k[8];
    struct slr_iter it;
    const struct slr_leaf *x = p->leaf;
    struct slr_snap w[1];
    slx_store_u(ty, k, s);
    slr_snap_mine(ty, x, w);
    unsigned pos = slr_leaf_pos(ty, x, w, k, SLX_LT), n = slr_wcount(ty, w);
    if (pos > 0) {
        if (slr_rlast(ty, x, w, pos - 1) >= s)
            return slr_rptr(ty, x, w, pos - 1);
    } else if (p->slot > 0) { /* the sibling before, under our parent */
        const struct slr_leaf *y =
            (const struct slr_leaf *)slr_ichild(ty, p->parent, p->slot - 1);
        unsigned ys = slr_edge_slot(ty, y, slr_lword(y), 1);
        if (slr_llast(ty, y, ys) >= s)
            return slr_lptrs(ty, y)[ys];
    } else if (slr_prev_from(ty, L, k, SLX_LT, &it) &&
               slr_it_last(ty, &it) >= s) {
        return slr_it_ptr(ty, &it);
    }
    if (pos < n)
        return slr_rstart(ty, x, w, pos) <= last ? slr_rptr(ty, x, w, pos)
                                                 : NULL;
    struct slr_succ_hint h = {0, 0, 0};
    slr_sibling_hint(ty, p->parent, p->slot, &h);
    if (h.known) {
        const struct slr_leaf *y =
            (const struct slr_leaf *)slr_ichild(ty, p->parent, p->slot + 1);
        return h.v <= last
                   ? slr_lptrs(ty, y)[slr_edge_slot(ty, y, slr_lword(y), 0)]
                   : NULL;
    }
    void *next = slr_next_from(ty, L, k, SLX_LT, &it);
    if (next && slr_it_start(ty, &it) <= last)
        return next;
    return NULL;
}

/* Insert e as [s, last]: lock the parents of the leaves holding s and
 * last (left to right), check for overlaps under them, then put. */
static SLX_UNUSED int slr_ext_put(const struct slx_type *ty, struct slr_list *L,
                                  void *e, uint64_t s, uint64_t last,
                                  void **clash)
{
    struct slr_op op;
    unsigned char ks[8], kl[8];
    int rc;
    slx_store_u(ty, ks, s);
    slx_store_u(ty, kl, last);
    do {
        struct slr_pos px, py;
        slr_descend(ty, L, ks, SLX_LE, &px);
        slr_op_init(&op, ty, L);
        rc = slr_lock_leaf(&op, &px);
        /* last's leaf: s's own when last is below its upper fence (its
         * range is fixed while we hold its live parent) */
        if (!rc && px.hi && !ty->less(kl, px.hi)) {
            slr_descend(ty, L, kl, SLX_LE, &py);
            if (py.leaf != px.leaf)
                rc = slr_lock_leaf(&op, &py);
        }
        if (!rc) {
            void *c = slr_ext_clash(ty, L, &px, s, last);
            if (c) {
                if (clash)
                    *clash = c;
                rc = -EEXIST;
            }
        }
        if (!rc)
            rc = slr_put(&op, &px, ks, e, last);
        rc = slr_settle(&op, rc);
    } while (rc == -EAGAIN);
    return rc;
}

static SLX_UNUSED int slr_ext_insert(const struct slx_type *ty,
                                     struct slr_list *L, void *e, void **clash)
{
    if (!e)
        return -EINVAL;
    unsigned char k[8];
    ty->key_of(e, k);
    uint64_t s = slx_load_u(ty, k), size = ty->size_of(e);
    if (size == 0 || size - 1 > ty->key_max - s)
        return -EINVAL;
    rcu_read_lock();
    int rc = slr_ext_put(ty, L, e, s, s + size - 1, clash);
    SLR_TSAN_RELEASE(&skiplist_rcu_tsan_gp);
    rcu_read_unlock();
    return rc;
}

/* Before erasing the first extent of leaf x, raise the bound of the leaf
 * before it, whose last run is about to grow (to x's next start, or past
 * x when x empties). Locks that leaf's parent before x's (left to right);
 * the raise is valid before the erase and after it. */
static SLX_UNUSED int slr_raise_pred(struct slr_op *op,
                                     const struct slr_pos *px, const void *e)
{
    const struct slx_type *ty = op->ty;
    struct slr_list *L = op->L;
    const struct slr_leaf *x = px->leaf;
    struct slr_pos pw = {NULL, NULL, 0, NULL, NULL};
    unsigned char k[SLX_KEY_MAX];
    ty->key_of(e, k);
    if (px->slot > 0) {
        pw.parent = px->parent;
        pw.slot = px->slot - 1;
    } else {
        struct slr_iter it;
        if (!slr_prev_from(ty, L, k, SLX_LT, &it))
            return 0; /* x is first: its head run is nobody's */
        slr_descend(ty, L, slr_it_key(ty, &it), SLX_LE, &pw);
        if (pw.leaf != it.leaf || !slr_lock_live(op, pw.parent))
            return -EAGAIN;
    }
    if (!slr_lock_live(op, px->parent) ||
        SLR_LOAD_RLX(slr_ichildp(ty, px->parent, px->slot)) != x)
        return -EAGAIN;
    const struct slr_leaf *pred = (const struct slr_leaf *)SLR_LOAD_RLX(
        slr_ichildp(ty, pw.parent, pw.slot));
    if (px->slot == 0 && pred != pw.leaf)
        return -EAGAIN;
    /* x may have been written in place since the search: e must still be
     * its first extent for the raise below to be the right one. */
    struct slr_snap xw[1];
    slr_snap_mine(ty, x, xw);
    unsigned xn = slr_wcount(ty, xw);
    if (!xn || slr_rptr(ty, x, xw, 0) != e)
        return -EAGAIN;
    uint64_t succ = 0;
    int has = 1;
    if (xn > 1)
        succ = slr_rstart(ty, x, xw, 1);
    else
        has = slr_succ(ty, L, k, &succ);
    struct slr_snap pw_snap[1];
    slr_snap_mine(ty, pred, pw_snap);
    uint64_t g = slr_leaf_gap(ty, L, pred, pw_snap, succ, has);
    uint64_t *slot = &slr_igaps(ty, pw.parent)[pw.slot];
    if (g > SLR_LOAD_RLX(slot)) {
        SLR_STORE_RLX(slot, g);
        unsigned keep = op->nheld;
        slr_gap_raise(op, pw.parent, g);
        slr_unlock_from(op, keep); /* nothing above level 1 stays held */
    }
    return 0;
}

static SLX_UNUSED int slr_ext_erase(const struct slx_type *ty,
                                    struct slr_list *L, void *e)
{
    if (!e)
        return -EINVAL;
    unsigned char k[8];
    ty->key_of(e, k);
    struct slr_op op;
    int rc;
    rcu_read_lock();
    do {
        struct slr_pos p;
        slr_descend(ty, L, k, SLX_LE, &p);
        uint64_t w = slr_lword(p.leaf);
        unsigned sl = slr_leaf_slot(ty, p.leaf, w, k);
        if (sl == SLR_NO_SLOT || slr_lptrs(ty, p.leaf)[sl] != e) {
            rc = -ENOENT;
            break;
        }
        slr_op_init(&op, ty, L);
        int raised = sl == slr_edge_slot(ty, p.leaf, w, 0); /* e is first */
        rc = raised ? slr_raise_pred(&op, &p, e) : 0;
        if (!rc)
            rc = slr_lock_leaf(&op, &p);
        if (!rc) { /* again under the lock: the leaf may have changed */
            w = slr_lword_mine(p.leaf);
            sl = slr_leaf_slot(ty, p.leaf, w, k);
            if (sl == SLR_NO_SLOT || slr_lptrs(ty, p.leaf)[sl] != e)
                rc = -ENOENT; /* erased meanwhile (x holds e's key) */
            else if (!raised && sl == slr_edge_slot(ty, p.leaf, w, 0))
                rc = -EAGAIN; /* now first: the raise comes first */
            else
                rc = slr_take(&op, &p, sl);
        }
        rc = slr_settle(&op, rc);
    } while (rc == -EAGAIN);
    SLR_TSAN_RELEASE(&skiplist_rcu_tsan_gp);
    rcu_read_unlock();
    return rc;
}

static SLX_UNUSED int slr_ext_insert_hole(const struct slx_type *ty,
                                          struct slr_list *L, void *e,
                                          uint64_t align, uint64_t lo,
                                          uint64_t hi, int flags)
{
    if (!e || align == 0 || (align & (align - 1)) || lo > hi ||
        hi > ty->key_max ||
        (flags != SKIPLIST_HOLE_LOWEST && flags != SKIPLIST_HOLE_HIGHEST))
        return -EINVAL;
    uint64_t size = ty->size_of(e);
    if (size == 0)
        return -EINVAL;
    unsigned char k[8];
    ty->key_of(e, k);
    uint64_t was = slx_load_u(ty, k);
    struct slx_holereq r;
    memset(&r, 0, sizeof r);
    r.size = size;
    r.amask = align - 1;
    r.lo = lo;
    r.hi = hi;
    r.highest = flags == SKIPLIST_HOLE_HIGHEST;
    int rc;
    rcu_read_lock();
    for (;;) {
        if (!slr_hole_search(ty, L, &r)) {
            rc = -ENOSPC;
            break;
        }
        ty->set_start(e, r.found); /* before it can be published */
        rc = slr_ext_put(ty, L, e, r.found, r.found + size - 1, NULL);
        if (rc != -EEXIST)
            break;
        SLR_ADD(&L->w->retries, 1); /* lost the hole to another writer */
    }
    if (rc)
        ty->set_start(e, was);
    SLR_TSAN_RELEASE(&skiplist_rcu_tsan_gp);
    rcu_read_unlock();
    return rc;
}

/* Extent containing point: the last starting at or before it. */
static SLX_UNUSED void *slr_ext_lookup(const struct slx_type *ty,
                                       const struct slr_list *L, uint64_t point)
{
    unsigned char k[8];
    struct slr_iter it;
    slx_store_u(ty, k, point);
    void *e = slr_prev_from(ty, L, k, SLX_LE, &it);
    return e && slr_it_last(ty, &it) >= point ? e : NULL;
}

/* The lowest extent overlapping [lo, hi], iterator at it. */
static SLX_UNUSED void *slr_ext_overlap(const struct slx_type *ty,
                                        const struct slr_list *L, uint64_t lo,
                                        uint64_t hi, struct slr_iter *it)
{
    unsigned char k[8];
    slx_store_u(ty, k, lo);
    void *e = slr_prev_from(ty, L, k, SLX_LE, it);
    if (e && slr_it_last(ty, it) >= lo)
        return e;
    e = slr_next_from(ty, L, k, SLX_LE, it);
    if (e && slr_it_start(ty, it) <= hi)
        return e;
    it->leaf = NULL;
    return NULL;
}

/* name_first_overlap: 0 and the lowest extent overlapping [lo, hi] in
 * *out, else -ENOENT or -EINVAL (lo > hi) with *out NULL, as skiplist.h's
 * does: out is written on every return. */
static SLX_UNUSED int slr_ext_first_overlap(const struct slx_type *ty,
                                            const struct slr_list *L,
                                            uint64_t lo, uint64_t hi,
                                            void **out)
{
    struct slr_iter it;
    void *e = lo <= hi ? slr_ext_overlap(ty, L, lo, hi, &it) : NULL;
    if (out)
        *out = e;
    return e ? 0 : lo > hi ? -EINVAL : -ENOENT;
}

/* An overlap walk that left its leaf after returning the extent starting
 * at prev < lo (the one that covered lo from below): searching for the
 * first start after prev may now find an extent a writer has put between
 * prev and lo since, wholly below lo. Such an extent counts only when it
 * reaches lo (at most one can); the walk goes on from lo otherwise. */
static SLX_UNUSED void *slr_ext_resume_below(const struct slx_type *ty,
                                             struct slr_iter *it, uint64_t prev,
                                             uint64_t lo)
{
    unsigned char k[8];
    slx_store_u(ty, k, lo);
    void *e = slr_prev_from(ty, it->L, k, SLX_LE, it);
    if (e && slr_it_start(ty, it) > prev && slr_it_last(ty, it) >= lo)
        return e;
    return slr_next_from(ty, it->L, k, SLX_LE, it);
}

/* The next extent of an overlap walk over [lo, hi]. Inside the leaf the
 * iterator holds, the next slot: that leaf's extents do not overlap, so
 * the one after an extent reaching lo starts above lo. Past the leaf's
 * end, a search from the last start returned; when that start was below
 * lo, see slr_ext_resume_below. */
static SLX_UNUSED void *slr_ext_next_overlap(const struct slx_type *ty,
                                             struct slr_iter *it, uint64_t lo,
                                             uint64_t hi)
{
    void *e = NULL;
    if (it->leaf) {
        uint64_t prev = slr_it_start(ty, it);
        if (it->slot + 1 < slr_wcount(ty, it->w) || prev >= lo)
            e = slr_iter_next(ty, it);
        else
            e = slr_ext_resume_below(ty, it, prev, lo);
    }
    if (e && slr_it_start(ty, it) <= hi)
        return e;
    it->leaf = NULL;
    return NULL;
}

/* --- init, destroy, check ------------------------------------------ */

/* The writers' state block: through the caller's allocator (a level-2
 * block, SLR_ALLOC_OTHER) when there is one, else cache-line aligned
 * where aligned_alloc exists (SLX_HUGEPAGES), as its padding between the
 * writers' counters and the rest assumes. */
static SLX_UNUSED struct slr_wstate *
slr_wstate_alloc(const struct skiplist_allocator *a)
{
    struct slr_wstate *W;
    if (a)
        W = (struct slr_wstate *)a->alloc(a->ctx, sizeof *W, SLR_ALLOC_OTHER);
    else
#if SLX_HUGEPAGES
        W = (struct slr_wstate *)aligned_alloc(64, (sizeof *W + 63u) & ~63u);
#else
        W = (struct slr_wstate *)malloc(sizeof *W);
#endif
    if (W)
        memset(W, 0, sizeof *W);
    return W;
}

/* Frees W with the allocator it names (its own copy: W goes with it). */
static SLX_UNUSED void slr_wstate_free(struct slr_wstate *W)
{
    if (W->pooled) {
        free(W);
        return;
    }
    struct skiplist_allocator a = W->alloc;
    a.free(a.ctx, W, sizeof *W, SLR_ALLOC_OTHER);
}

static SLX_UNUSED int slr_init(const struct slx_type *ty, struct slr_list *L,
                               const struct skiplist_allocator *a,
                               uint64_t seed)
{
    if (a && (!a->alloc || !a->free))
        return -EINVAL;
    memset(L, 0, sizeof *L);
    L->w = slr_wstate_alloc(a);
    if (!L->w)
        return -ENOMEM;
    L->w->leaf_bytes = slr_leaf_bytes(ty);
    L->w->ientry = slx_istride(ty) + (slx_is_extent(ty) ? sizeof(uint64_t) : 0);
    L->w->icap = ty->icap;
    if (a) {
        L->w->alloc = *a;
    } else {
        L->w->alloc.alloc = slr_default_alloc;
        L->w->alloc.free = slr_default_free;
        L->w->alloc.ctx = L->w;
        L->w->pooled = 1;
        slr_pool_init(&L->w->pool[0], L->w->leaf_bytes);
        slr_pool_init(&L->w->pool[1], slr_inode_size(L, L->w->icap));
    }
    L->w->seed = seed;
    struct slr_inode *top = slr_new_inode(L, 1, ty->max_level);
    struct slr_inode *root = top ? slr_new_inode(L, ty->icap, 1) : NULL;
    struct slr_leaf *x = root ? slr_new_leaf(L) : NULL;
    if (!x) {
        if (root) {
            slx_unlock(&root->lock);
            slr_free_inode_now(L, root);
        }
        if (top) {
            slx_unlock(&top->lock);
            slr_free_inode_now(L, top);
        }
        if (L->w->pooled) {
            slr_pool_release(&L->w->pool[0]);
            slr_pool_release(&L->w->pool[1]);
        }
        slr_wstate_free(L->w);
        L->w = NULL;
        return -ENOMEM;
    }
    memset(slr_ikey(ty, top, 0), 0, ty->ks);
    memset(slr_ikey(ty, root, 0), 0, ty->ks);
    SLR_STORE_RLX(slr_ichildp(ty, top, 0), (void *)root);
    SLR_STORE_RLX(slr_ichildp(ty, root, 0), (void *)x);
    if (slx_is_extent(ty))
        slr_igaps(ty, root)[0] = 0;
    top->n = root->n = 1;
    root->parent = top;
    x->parent = root;
    slx_unlock(&root->lock);
    slx_unlock(&top->lock);
    L->top = top;
    return 0;
}

static SLX_UNUSED void slr_free_tree(const struct slx_type *ty,
                                     struct slr_list *L, struct slr_inode *P,
                                     void (*fn)(void *, void *), void *arg)
{
    for (unsigned j = 0; j < P->n; j++) {
        void *c = SLR_LOAD_RLX(slr_ichildp(ty, P, j));
        if (P->level > 1) {
            slr_free_tree(ty, L, (struct slr_inode *)c, fn, arg);
            continue;
        }
        struct slr_leaf *x = (struct slr_leaf *)c;
        struct slr_snap w[1];
        slr_snap_mine(ty, x, w);
        for (unsigned i = 0; fn && i < slr_wcount(ty, w); i++)
            fn(slr_rptr(ty, x, w, i), arg);
        slr_free_leaf_now(L, x);
    }
    slr_free_inode_now(L, P);
}

static SLX_UNUSED void slr_destroy(const struct slx_type *ty,
                                   struct slr_list *L,
                                   void (*fn)(void *, void *), void *arg)
{
    if (!L->top)
        return;
    rcu_barrier(); /* retired nodes' callbacks use L's allocator */
    SLR_TSAN_ACQUIRE(&skiplist_rcu_tsan_gp);
    slr_retire_drain(L);
    slr_free_tree(ty, L, slr_root(ty, L), fn, arg);
    slr_free_inode_now(L, L->top);
    L->top = NULL;
    if (L->w->pooled) {
        slr_pool_release(&L->w->pool[0]);
        slr_pool_release(&L->w->pool[1]);
    }
    slr_wstate_free(L->w);
    L->w = NULL;
}

static SLX_UNUSED void slr_stats(const struct slr_list *L,
                                 struct skiplist_rcu_stats *st)
{
    if (!L->w) { /* destroyed (or never initialised) */
        st->retries = st->splits = st->merges = 0;
        return;
    }
    st->retries = SLR_LOAD_RLX(&L->w->retries);
    st->splits = SLR_LOAD_RLX(&L->w->splits);
    st->merges = SLR_LOAD_RLX(&L->w->merges);
}

/* check(): a walk of the whole structure, with no writer running. */
struct slr_checker {
    const struct slx_type *ty;
    const struct slr_list *L;
    char *why;
    size_t len;
    size_t leaves, empty;
    int have_prev;
    unsigned char prev[SLX_KEY_MAX];
    uint64_t prev_last;
};

/* The order word of leaf x: no more live slots than slots written, no
 * more written than KPN, and (a permutation) each listed slot written
 * and listed once. */
static SLX_UNUSED int slr_check_word(struct slr_checker *c,
                                     const struct slr_leaf *x, uint64_t w)
{
    const struct slx_type *ty = c->ty;
    if (!slr_tailed(ty)) {
        if (x->used > ty->kpn || (unsigned)w > x->used)
            return slx_fail(c->why, c->len,
                            "leaf %zu: %u live of %u slots written (KPN %u)",
                            c->leaves, (unsigned)w, x->used, ty->kpn);
        return 0;
    }
    unsigned run = slr_wrun(w), used = slr_wused(w);
    if (used > ty->kpn || run > used || used - run > SLR_TAIL_LEN ||
        (w >> (SLR_TAIL_KPN + 12)) != 0)
        return slx_fail(c->why, c->len,
                        "leaf %zu: run %u, %u slots written (KPN %u, tail at "
                        "most %u)",
                        c->leaves, run, used, ty->kpn, SLR_TAIL_LEN);
    if (slr_wmask(w) >> used)
        return slx_fail(c->why, c->len,
                        "leaf %zu: a slot never written is live", c->leaves);
    for (unsigned s = 1; s < run; s++)
        if (!slr_slot_less(ty, slr_lkeys(ty, x), s - 1, s))
            return slx_fail(c->why, c->len,
                            "leaf %zu: run slots %u and %u out of order",
                            c->leaves, s - 1, s);
    return 0;
}

static SLX_UNUSED int slr_check_leaf(struct slr_checker *c,
                                     const struct slr_inode *P, unsigned j,
                                     const unsigned char *lo,
                                     const unsigned char *hi)
{
    const struct slx_type *ty = c->ty;
    const struct slr_leaf *x =
        (const struct slr_leaf *)SLR_LOAD_RLX(slr_ichildp(ty, P, j));
    c->leaves++;
    if (x->parent != P)
        return slx_fail(c->why, c->len,
                        "leaf %zu: parent pointer is not its parent",
                        c->leaves);
    uint64_t word = slr_lword_mine(x);
    int rc = slr_check_word(c, x, word);
    struct slr_snap w[1];
    slr_snap_mine(ty, x, w);
    unsigned n = slr_wcount(ty, w);
    if (rc)
        return rc;
    if (n == 0)
        c->empty++;
    for (unsigned i = 0; i < n; i++) {
        const unsigned char *k = slr_rkey(ty, x, w, i);
        if (c->have_prev && !ty->less(c->prev, k))
            return slx_fail(c->why, c->len,
                            "leaf %zu slot %u: keys out of order", c->leaves,
                            i);
        if ((lo && ty->less(k, lo)) || (hi && !ty->less(k, hi)))
            return slx_fail(c->why, c->len,
                            "leaf %zu slot %u: key outside the fences",
                            c->leaves, i);
        if (slx_is_extent(ty)) {
            uint64_t s = slx_load_u(ty, k), l = slr_rlast(ty, x, w, i);
            if (l < s)
                return slx_fail(c->why, c->len,
                                "leaf %zu slot %u: end before start", c->leaves,
                                i);
            if (c->have_prev && c->prev_last >= s)
                return slx_fail(c->why, c->len,
                                "leaf %zu slot %u: extents overlap", c->leaves,
                                i);
            c->prev_last = l;
        }
        memcpy(c->prev, k, ty->ks);
        c->have_prev = 1;
    }
    if (slx_is_extent(ty) && n) {
        uint64_t g =
            slr_new_leaf_gap(ty, c->L, x, w, slr_rkey(ty, x, w, n - 1));
        if (g > slr_igaps(ty, P)[j])
            return slx_fail(c->why, c->len,
                            "leaf %zu: free run %llu above its bound %llu",
                            c->leaves, (unsigned long long)g,
                            (unsigned long long)slr_igaps(ty, P)[j]);
    }
    return 0;
}

static SLX_UNUSED int slr_check_node(struct slr_checker *c,
                                     const struct slr_inode *P,
                                     const unsigned char *lo,
                                     const unsigned char *hi)
{
    const struct slx_type *ty = c->ty;
    if (P->dead)
        return slx_fail(c->why, c->len, "level %u: a dead node is reachable",
                        P->level);
    if (P->n == 0 || P->n > P->cap)
        return slx_fail(c->why, c->len,
                        "level %u: node with %u entries (cap %u)", P->level,
                        P->n, P->cap);
    for (unsigned j = 0; j < P->n; j++) {
        const unsigned char *clo = j ? slr_ikey(ty, P, j) : lo;
        const unsigned char *chi = j + 1 < P->n ? slr_ikey(ty, P, j + 1) : hi;
        if (j && ((lo && ty->less(clo, lo)) || (hi && !ty->less(clo, hi))))
            return slx_fail(c->why, c->len,
                            "level %u entry %u: key outside the fences",
                            P->level, j);
        if (j + 1 < P->n && j && !ty->less(clo, chi))
            return slx_fail(c->why, c->len,
                            "level %u entry %u: keys out of order", P->level,
                            j);
        int rc;
        if (P->level == 1) {
            rc = slr_check_leaf(c, P, j, clo, chi);
        } else {
            const struct slr_inode *C =
                (const struct slr_inode *)SLR_LOAD_RLX(slr_ichildp(ty, P, j));
            if (C->parent != P || C->level + 1 != P->level)
                return slx_fail(c->why, c->len,
                                "level %u entry %u: child's parent or "
                                "level wrong",
                                P->level, j);
            if (slx_is_extent(ty) && slr_max_gap(ty, C) != slr_igaps(ty, P)[j])
                return slx_fail(c->why, c->len,
                                "level %u entry %u: gap %llu, child's "
                                "maximum %llu",
                                P->level, j,
                                (unsigned long long)slr_igaps(ty, P)[j],
                                (unsigned long long)slr_max_gap(ty, C));
            rc = slr_check_node(c, C, clo, chi);
        }
        if (rc)
            return rc;
    }
    return 0;
}

static SLX_UNUSED int slr_check(const struct slx_type *ty,
                                const struct slr_list *L, char *why, size_t len)
{
    struct slr_checker c;
    memset(&c, 0, sizeof c);
    c.ty = ty;
    c.L = L;
    c.why = why;
    c.len = len;
    const struct slr_inode *top = L->top, *root = slr_root(ty, L);
    if (top->n != 1 || root->parent != top)
        return slx_fail(why, len, "top: %u entries, or the root's parent wrong",
                        top->n);
    if (root->level > slx_max_index(ty))
        return slx_fail(why, len, "root at level %u, above MAXLVL - 1",
                        root->level);
    int rc = slr_check_node(&c, root, NULL, NULL);
    if (rc)
        return rc;
    if (c.empty && c.leaves > 1)
        return slx_fail(why, len, "an empty leaf among %zu", c.leaves);
    if (why && len)
        why[0] = '\0';
    return 0;
}

/* ------------------------------------------------------------------ */
/* Generated API                                                        */
/* ------------------------------------------------------------------ */
// clang-format off
/*
 * What the macros below generate, one line each. Every contract (return
 * values, errors, complexity, what may run beside each call, when its
 * effect happens, the rules every caller follows) is in
 * docs/reference/skiplist_rcu_*.h (the Doxygen site's "skiplist_rcu.h"
 * modules); how to use it: docs/api.md. The macros' arguments and their
 * ranges: SKIPLIST_RCU_DEFINE's comment below.
 *
 *   SKIPLIST_RCU_DEFINE       (name, T, K_T, KEY_OF, CMP, KPN, MAXLVL, PSHIFT)
 *   SKIPLIST_RCU_EXTENT_DEFINE(name, T, K_T, START, SIZE, KPN, MAXLVL, PSHIFT)
 *
 * Both faces (docs/reference/skiplist_rcu_common.h):
 *   int    name_init(struct name *sl, const struct skiplist_allocator *a, uint64_t seed);  set up
 *   void   name_destroy(struct name *sl, void (*fn)(T *e, void *arg), void *arg);  free the nodes, fn per element
 *   size_t name_count(const struct name *sl);                   elements (reader)
 *   int    name_check(const struct name *sl, char *why, size_t len);  every invariant
 *   void   name_stats(const struct name *sl, struct skiplist_rcu_stats *st);  writers' counters
 *   T     *name_iter_first(struct name_iter *it, const struct name *sl);  (reader)
 *   T     *name_iter_last(struct name_iter *it, const struct name *sl);   (reader)
 *   T     *name_iter_seek(struct name_iter *it, const struct name *sl, K_T key);  at the lower bound (reader)
 *   T     *name_iter_next(struct name_iter *it);                (reader)
 *   T     *name_iter_prev(struct name_iter *it);                (reader)
 * Ordered index, SKIPLIST_RCU_DEFINE (docs/reference/skiplist_rcu_map.h):
 *   T     *name_find(const struct name *sl, K_T key);           the element with key (reader)
 *   T     *name_lower_bound(const struct name *sl, K_T key);    first with key >= key (reader)
 *   T     *name_upper_bound(const struct name *sl, K_T key);    first with key > key (reader)
 *   T     *name_floor(const struct name *sl, K_T key);          last with key <= key (reader)
 *   T     *name_below(const struct name *sl, K_T key);          last with key < key (reader)
 *   T     *name_first(const struct name *sl);                   first (reader)
 *   T     *name_last(const struct name *sl);                    last (reader)
 *   int    name_insert(struct name *sl, T *e, T **existing);    insert, unique keys (writer)
 *   int    name_erase_key(struct name *sl, K_T key, T **out);   remove the element with key (writer)
 *   int    name_erase(struct name *sl, T *e);                   remove e (writer)
 * Extent index, SKIPLIST_RCU_EXTENT_DEFINE (docs/reference/skiplist_rcu_extent.h):
 *   T     *name_lookup(const struct name *sl, K_T point);       the extent holding point (reader)
 *   int    name_first_overlap(const struct name *sl, K_T lo, K_T hi, T **out);  the lowest overlapping [lo, hi] (reader)
 *   T     *name_iter_overlap(struct name_iter *it, const struct name *sl, K_T lo, K_T hi);  first overlapping (reader)
 *   T     *name_iter_next_overlap(struct name_iter *it);        next overlapping (reader)
 *   int    name_insert(struct name *sl, T *e, T **clash);       insert, no overlap (writer)
 *   int    name_erase(struct name *sl, T *e);                   remove e (writer)
 *   int    name_insert_hole(struct name *sl, T *e, K_T align, K_T lo, K_T hi, int flags);  place e in free space (writer)
 * The header's own helpers, above: skiplist_rcu_read_lock(),
 * skiplist_rcu_read_unlock(), skiplist_rcu_synchronize(), skiplist_rcu_call(),
 * skiplist_rcu_callback_enter().
 */
// clang-format on

/* Types and declarations. ATTR is `static SLX_UNUSED` (DEFINE) or empty
 * (PROTOTYPE, GENERATE), as in skiplist.h. */
#define SLR_PROTO_COMMON(name, T, K_T, ATTR)                                \
    struct name {                                                           \
        struct slr_list sl;                                                 \
    };                                                                      \
    struct SLX_CAT(name, _iter) {                                           \
        struct slr_iter it;                                                 \
        uint64_t lo, hi; /* an overlap walk's range */                      \
    };                                                                      \
    ATTR int SLX_CAT(name, _init)(                                          \
        struct name *, const struct skiplist_allocator *, uint64_t);        \
    ATTR void SLX_CAT(name, _destroy)(struct name *, void (*)(T *, void *), \
                                      void *);                              \
    ATTR size_t SLX_CAT(name, _count)(const struct name *);                 \
    ATTR int SLX_CAT(name, _check)(const struct name *, char *, size_t);    \
    ATTR void SLX_CAT(name, _stats)(const struct name *,                    \
                                    struct skiplist_rcu_stats *);           \
    SLX_PROTO_ITER(name, T, K_T, ATTR)

#define SLR_PROTO_MAP(name, T, K_T, ATTR)                         \
    SLX_PROTO_SEARCH(name, T, K_T, ATTR);                         \
    ATTR int SLX_CAT(name, _insert)(struct name *, T *, T **);    \
    ATTR int SLX_CAT(name, _erase_key)(struct name *, K_T, T **); \
    ATTR int SLX_CAT(name, _erase)(struct name *, T *)

#define SLR_PROTO_EXTENT(name, T, K_T, ATTR)                                  \
    ATTR T *SLX_CAT(name, _lookup)(const struct name *, K_T);                 \
    ATTR int SLX_CAT(name, _first_overlap)(const struct name *, K_T, K_T,     \
                                           T **);                             \
    ATTR T *SLX_CAT(name, _iter_overlap)(struct SLX_CAT(name, _iter) *,       \
                                         const struct name *, K_T, K_T);      \
    ATTR T *SLX_CAT(name, _iter_next_overlap)(struct SLX_CAT(name, _iter) *); \
    ATTR int SLX_CAT(name, _insert)(struct name *, T *, T **);                \
    ATTR int SLX_CAT(name, _erase)(struct name *, T *);                       \
    ATTR int SLX_CAT(name, _insert_hole)(struct name *, T *, K_T, K_T, K_T, int)

/* Definitions: each wrapper binds the types and calls the engine. */
#define SLR_GEN_COMMON(name, T, K_T, ATTR)                                     \
    SLX_CHECK_KEYSIZE(name, K_T);                                              \
    ATTR int SLX_CAT(name, _init)(                                             \
        struct name * sl, const struct skiplist_allocator *a, uint64_t seed)   \
    {                                                                          \
        return slr_init(SLX_TY(name), &sl->sl, a, seed);                       \
    }                                                                          \
    ATTR void SLX_CAT(name, _destroy)(struct name * sl,                        \
                                      void (*fn)(T *, void *), void *arg)      \
    {                                                                          \
        slr_destroy(SLX_TY(name), &sl->sl, (void (*)(void *, void *))fn, arg); \
    }                                                                          \
    ATTR size_t SLX_CAT(name, _count)(const struct name *sl)                   \
    {                                                                          \
        return slr_count(SLX_TY(name), &sl->sl);                               \
    }                                                                          \
    ATTR int SLX_CAT(name, _check)(const struct name *sl, char *why,           \
                                   size_t len)                                 \
    {                                                                          \
        return slr_check(SLX_TY(name), &sl->sl, why, len);                     \
    }                                                                          \
    ATTR void SLX_CAT(name, _stats)(const struct name *sl,                     \
                                    struct skiplist_rcu_stats *st)             \
    {                                                                          \
        slr_stats(&sl->sl, st);                                                \
    }                                                                          \
    ATTR T *SLX_CAT(name, _iter_first)(struct SLX_CAT(name, _iter) * it,       \
                                       const struct name *sl)                  \
    {                                                                          \
        return (T *)slr_first(SLX_TY(name), &sl->sl, &it->it);                 \
    }                                                                          \
    ATTR T *SLX_CAT(name, _iter_last)(struct SLX_CAT(name, _iter) * it,        \
                                      const struct name *sl)                   \
    {                                                                          \
        return (T *)slr_last(SLX_TY(name), &sl->sl, &it->it);                  \
    }                                                                          \
    ATTR T *SLX_CAT(name, _iter_seek)(struct SLX_CAT(name, _iter) * it,        \
                                      const struct name *sl, K_T key)          \
    {                                                                          \
        return (T *)slr_next_from(SLX_TY(name), &sl->sl, &key, SLX_LT,         \
                                  &it->it);                                    \
    }                                                                          \
    ATTR T *SLX_CAT(name, _iter_next)(struct SLX_CAT(name, _iter) * it)        \
    {                                                                          \
        return (T *)slr_iter_next(SLX_TY(name), &it->it);                      \
    }                                                                          \
    ATTR T *SLX_CAT(name, _iter_prev)(struct SLX_CAT(name, _iter) * it)        \
    {                                                                          \
        return (T *)slr_iter_prev(SLX_TY(name), &it->it);                      \
    }

#define SLR_GEN_MAP(name, T, K_T, ATTR)                                        \
    ATTR T *SLX_CAT(name, _find)(const struct name *sl, K_T key)               \
    {                                                                          \
        return (T *)slr_find(SLX_TY(name), &sl->sl, &key);                     \
    }                                                                          \
    ATTR T *SLX_CAT(name, _lower_bound)(const struct name *sl, K_T key)        \
    {                                                                          \
        struct slr_iter it;                                                    \
        return (T *)slr_next_from(SLX_TY(name), &sl->sl, &key, SLX_LT, &it);   \
    }                                                                          \
    ATTR T *SLX_CAT(name, _upper_bound)(const struct name *sl, K_T key)        \
    {                                                                          \
        struct slr_iter it;                                                    \
        return (T *)slr_next_from(SLX_TY(name), &sl->sl, &key, SLX_LE, &it);   \
    }                                                                          \
    ATTR T *SLX_CAT(name, _floor)(const struct name *sl, K_T key)              \
    {                                                                          \
        struct slr_iter it;                                                    \
        return (T *)slr_prev_from(SLX_TY(name), &sl->sl, &key, SLX_LE, &it);   \
    }                                                                          \
    ATTR T *SLX_CAT(name, _below)(const struct name *sl, K_T key)              \
    {                                                                          \
        struct slr_iter it;                                                    \
        return (T *)slr_prev_from(SLX_TY(name), &sl->sl, &key, SLX_LT, &it);   \
    }                                                                          \
    ATTR T *SLX_CAT(name, _first)(const struct name *sl)                       \
    {                                                                          \
        struct slr_iter it;                                                    \
        return (T *)slr_first(SLX_TY(name), &sl->sl, &it);                     \
    }                                                                          \
    ATTR T *SLX_CAT(name, _last)(const struct name *sl)                        \
    {                                                                          \
        struct slr_iter it;                                                    \
        return (T *)slr_last(SLX_TY(name), &sl->sl, &it);                      \
    }                                                                          \
    ATTR int SLX_CAT(name, _insert)(struct name * sl, T * e, T * *existing)    \
    {                                                                          \
        return slr_insert(SLX_TY(name), &sl->sl, e, (void **)existing);        \
    }                                                                          \
    ATTR int SLX_CAT(name, _erase_key)(struct name * sl, K_T key, T * *out)    \
    {                                                                          \
        return slr_erase_key(SLX_TY(name), &sl->sl, &key, NULL, (void **)out); \
    }                                                                          \
    ATTR int SLX_CAT(name, _erase)(struct name * sl, T * e)                    \
    {                                                                          \
        return slr_erase(SLX_TY(name), &sl->sl, e);                            \
    }

#define SLR_GEN_EXTENT(name, T, K_T, ATTR)                                    \
    ATTR T *SLX_CAT(name, _lookup)(const struct name *sl, K_T point)          \
    {                                                                         \
        return (T *)slr_ext_lookup(SLX_TY(name), &sl->sl, (uint64_t)point);   \
    }                                                                         \
    ATTR int SLX_CAT(name, _first_overlap)(const struct name *sl, K_T lo,     \
                                           K_T hi, T **out)                   \
    {                                                                         \
        return slr_ext_first_overlap(SLX_TY(name), &sl->sl, (uint64_t)lo,     \
                                     (uint64_t)hi, (void **)out);             \
    }                                                                         \
    ATTR T *SLX_CAT(name, _iter_overlap)(struct SLX_CAT(name, _iter) * it,    \
                                         const struct name *sl, K_T lo,       \
                                         K_T hi)                              \
    {                                                                         \
        it->lo = (uint64_t)lo;                                                \
        it->hi = (uint64_t)hi;                                                \
        if (lo > hi) {                                                        \
            it->it.leaf = NULL;                                               \
            return NULL;                                                      \
        }                                                                     \
        return (T *)slr_ext_overlap(SLX_TY(name), &sl->sl, (uint64_t)lo,      \
                                    (uint64_t)hi, &it->it);                   \
    }                                                                         \
    ATTR T *SLX_CAT(name,                                                     \
                    _iter_next_overlap)(struct SLX_CAT(name, _iter) * it)     \
    {                                                                         \
        return (T *)slr_ext_next_overlap(SLX_TY(name), &it->it, it->lo,       \
                                         it->hi);                             \
    }                                                                         \
    ATTR int SLX_CAT(name, _insert)(struct name * sl, T * e, T * *clash)      \
    {                                                                         \
        return slr_ext_insert(SLX_TY(name), &sl->sl, e, (void **)clash);      \
    }                                                                         \
    ATTR int SLX_CAT(name, _erase)(struct name * sl, T * e)                   \
    {                                                                         \
        return slr_ext_erase(SLX_TY(name), &sl->sl, e);                       \
    }                                                                         \
    ATTR int SLX_CAT(name, _insert_hole)(struct name * sl, T * e, K_T align,  \
                                         K_T lo, K_T hi, int flags)           \
    {                                                                         \
        return slr_ext_insert_hole(SLX_TY(name), &sl->sl, e, (uint64_t)align, \
                                   (uint64_t)lo, (uint64_t)hi, flags);        \
    }

/* ------------------------------------------------------------------ */
/* Public instantiation macros                                         */
/* ------------------------------------------------------------------ */

/* As in skiplist.h: *_DEFINE gives static functions; *_PROTOTYPE (in a
 * header) and *_GENERATE (in exactly one .c file, after the PROTOTYPE)
 * give external ones, for a list used from several translation units.
 * Their arguments pass through one more expansion so that
 * SKIPLIST_RCU_DEFAULTS can stand for the last three. */

/** \brief `SKIPLIST_RCU_DEFINE`'s declarations with external linkage, for
 *  a header: the structs and the prototypes, no code.
 *  \param ... as `SKIPLIST_RCU_DEFINE` */
#define SKIPLIST_RCU_PROTOTYPE(...) SLR_PROTO_MAP_(SLX_EXTERN, __VA_ARGS__)
/** \brief `SKIPLIST_RCU_DEFINE`'s functions with external linkage, in
 *  exactly one `.c` file, after `SKIPLIST_RCU_PROTOTYPE` with the same
 *  arguments.
 *  \param ... as `SKIPLIST_RCU_DEFINE` */
#define SKIPLIST_RCU_GENERATE(...) SLR_GEN_MAP_(SLX_EXTERN, __VA_ARGS__)
/** \brief Instantiates a concurrent ordered index of unique keys:
 *  `struct name`, `struct name_iter` and the `static` functions of
 *  \ref gen_rcu_common and \ref gen_rcu_map, each with its concurrency
 *  contract (\ref gen_rcu).
 *
 * `SKIPLIST_RCU_DEFINE(name, T, K_T, KEY_OF, CMP, KPN, MAXLVL, PSHIFT)`,
 * at file scope, no semicolon needed; `SKIPLIST_RCU_DEFAULTS` may stand
 * for the last three. The arguments are `SKIPLIST_DEFINE`'s and mean
 * what they mean there, with narrower tuning ranges:
 * - `name`, `T`, `K_T`, `KEY_OF`, `CMP`: as for `SKIPLIST_DEFINE`
 * - `KPN`: keys per leaf, 2..256
 * - `MAXLVL`: levels counting the leaves, 2..32
 * - `PSHIFT`: promotion probability 1/2^PSHIFT, 1..8
 * \param ... name, T, K_T, KEY_OF, CMP, KPN, MAXLVL, PSHIFT (above) */
#define SKIPLIST_RCU_DEFINE(...)            \
    SLR_PROTO_MAP_(SLX_STATIC, __VA_ARGS__) \
    SLR_GEN_MAP_(SLX_STATIC, __VA_ARGS__)

#define SLR_PROTO_MAP_(ATTR, name, T, K_T, KEY_OF, CMP, KPN, MAXLVL, PSHIFT) \
    SLR_PROTO_COMMON(name, T, K_T, ATTR);                                    \
    SLR_PROTO_MAP(name, T, K_T, ATTR);
#define SLR_GEN_MAP_(ATTR, name, T, K_T, KEY_OF, CMP, KPN, MAXLVL, PSHIFT)  \
    SLR_CHECK_RANGES(name, KPN, MAXLVL, PSHIFT);                            \
    SLX_GEN_TYPE(name, T, K_T, KEY_OF, CMP, KPN, MAXLVL, PSHIFT, -1L, 0, 0, \
                 NULL, NULL, 0);                                            \
    SLR_GEN_COMMON(name, T, K_T, ATTR)                                      \
    SLR_GEN_MAP(name, T, K_T, ATTR)

/** \brief `SKIPLIST_RCU_EXTENT_DEFINE`'s declarations with external
 *  linkage, for a header.
 *  \param ... as `SKIPLIST_RCU_EXTENT_DEFINE` */
#define SKIPLIST_RCU_EXTENT_PROTOTYPE(...) \
    SLR_PROTO_EXTENT_(SLX_EXTERN, __VA_ARGS__)
/** \brief `SKIPLIST_RCU_EXTENT_DEFINE`'s functions with external linkage,
 *  in exactly one `.c` file, after `SKIPLIST_RCU_EXTENT_PROTOTYPE`.
 *  \param ... as `SKIPLIST_RCU_EXTENT_DEFINE` */
#define SKIPLIST_RCU_EXTENT_GENERATE(...) \
    SLR_GEN_EXTENT_(SLX_EXTERN, __VA_ARGS__)
/** \brief Instantiates a concurrent extent index over
 *  `[START, START + SIZE)`: `struct name`, `struct name_iter` and the
 *  `static` functions of \ref gen_rcu_common and \ref gen_rcu_extent.
 *
 * `SKIPLIST_RCU_EXTENT_DEFINE(name, T, K_T, START, SIZE, KPN, MAXLVL,
 * PSHIFT)`; `SKIPLIST_RCU_DEFAULTS` may stand for the last three.
 * - `name`, `T`, `K_T`, `START`, `SIZE`: as for `SKIPLIST_EXTENT_DEFINE`
 * - `KPN`, `MAXLVL`, `PSHIFT`: as for `SKIPLIST_RCU_DEFINE`
 * \param ... name, T, K_T, START, SIZE, KPN, MAXLVL, PSHIFT (above) */
#define SKIPLIST_RCU_EXTENT_DEFINE(...)        \
    SLR_PROTO_EXTENT_(SLX_STATIC, __VA_ARGS__) \
    SLR_GEN_EXTENT_(SLX_STATIC, __VA_ARGS__)

#define SLR_PROTO_EXTENT_(ATTR, name, T, K_T, START, SIZE, KPN, MAXLVL, \
                          PSHIFT)                                       \
    SLR_PROTO_COMMON(name, T, K_T, ATTR);                               \
    SLR_PROTO_EXTENT(name, T, K_T, ATTR);
#define SLR_GEN_EXTENT_(ATTR, name, T, K_T, START, SIZE, KPN, MAXLVL, PSHIFT) \
    SLR_CHECK_RANGES(name, KPN, MAXLVL, PSHIFT);                              \
    SLX_GEN_EXTENT_TYPE(name, T, K_T, START, SIZE, KPN, MAXLVL, PSHIFT, 0)    \
    SLR_GEN_COMMON(name, T, K_T, ATTR)                                        \
    SLR_GEN_EXTENT(name, T, K_T, ATTR)

/* Leaves of at least 2 keys, at least one index level. */
#define SLR_CHECK_RANGES(name, KPN, MAXLVL, PSHIFT) \
    SLX_CHECK_RANGES(name, "skiplist_rcu", 2, KPN, MAXLVL, PSHIFT)

#endif /* SKIPLIST_RCU_H */
