/**
 * \file placeholders.h
 * \brief The placeholders of the generated API: `name`, `T`, `K_T`.
 *
 * This header exists for the documentation only: the functions the
 * `SKIPLIST_*DEFINE` macros generate are invisible to Doxygen in the real
 * headers, so docs/reference/ declares them once, written with the macro's
 * own parameter names as placeholders. `tests/docs/sync.sh` (run by
 * `make test`) compiles every face with exactly these names and fails when
 * a generated function is missing here or a documented one is not
 * generated, or when a parameter list differs.
 *
 * - `name` is the first macro argument: it prefixes `struct name`,
 *   `struct name_iter` and every `name_*()` function. With
 *   `SKIPLIST_DEFINE(imap, ...)`, `name_find` is `imap_find`.
 * - `T` is the element type you pass, `K_T` the key type.
 *
 * Names that contain `name_slx_` or `name_slr_` are the library's own
 * helpers, never API, and are not listed.
 */
/* A table: one row per line. */
// clang-format off
/**
 * \defgroup generated Generated API
 * \brief Every function the instantiation macros generate, per face, with
 *        `name`, `T` and `K_T` standing for the macro's arguments.
 *
 * One macro call generates a face's whole API:
 * | macro | face | functions |
 * |---|---|---|
 * | `SKIPLIST_DEFINE` | ordered index | \ref gen_common, \ref gen_remove, \ref gen_map |
 * | `SKIPLIST_PQ_DEFINE` | priority queue | \ref gen_common, \ref gen_pq |
 * | `SKIPLIST_EXTENT_DEFINE` | extent index | \ref gen_common, \ref gen_remove, \ref gen_extent |
 * | `SKIPLIST_RANKED_DEFINE` | ordered index with order statistics | \ref gen_common, \ref gen_remove, \ref gen_map, \ref gen_rank |
 * | `SKIPLIST_EXTENT_RANKED_DEFINE` | extent index with order statistics | \ref gen_common, \ref gen_remove, \ref gen_extent, \ref gen_rank |
 * | `SKIPLIST_RCU_DEFINE` | concurrent ordered index | \ref gen_rcu_common, \ref gen_rcu_map |
 * | `SKIPLIST_RCU_EXTENT_DEFINE` | concurrent extent index | \ref gen_rcu_common, \ref gen_rcu_extent |
 *
 * With `SKIPLIST_DEFINE(imap, struct item, uint64_t, ...)`, `name_find()`
 * below is `struct item *imap_find(const struct imap *sl, uint64_t key)`.
 * The `*_DEFINE` macros give `static` functions; `SKIPLIST_PROTOTYPE` with
 * `SKIPLIST_GENERATE` (and the `_PQ_`, `_EXTENT_` and `_RANKED_` variants) give the
 * same functions external linkage.
 */
// clang-format on

/* The three public headers' file documentation: their own top comments
 * are plain comments, which Doxygen does not read. */
/**
 * \file skiplist.h
 * \brief The sequential skiplist: ordered index, priority queue, extent
 *        index. Depends on libc only.
 *
 * One macro call instantiates a typed list over your element struct:
 * `SKIPLIST_DEFINE` (ordered index: set, map, multimap),
 * `SKIPLIST_PQ_DEFINE` (keyed priority queue with O(1) pop and removal
 * through a handle), `SKIPLIST_EXTENT_DEFINE` (extents with overlap
 * queries and aligned hole allocation). The functions they generate are
 * documented in the \ref generated "Generated API" modules; this file's
 * own entries are the macros and the public types. How it works:
 * docs/design.md.
 *
 * Errors are negative errno values; on any error the structure is exactly
 * as before the call. The library takes no locks: calls that take a
 * `const struct name *` may run concurrently on a list no thread
 * modifies; anything else needs the list to itself.
 */

/**
 * \file skiplist_sched.h
 * \brief A BFS-style global runqueue (Con Kolivas's skiplist BFS) on the
 *        priority-queue face.
 *
 * Enqueue, pick with affinity and sticky tasks, deschedule, the
 * preemption test, yield, nice and policy changes and fork, in BFS's own
 * units. The functions here are ordinary functions (not generated) and
 * are listed in the \ref sched "Runqueue" module. No locking inside: hold
 * one lock around every call on a runqueue, as BFS holds grq.lock.
 * docs/bfs-model.md lists where the model departs from BFS.
 */

/**
 * \file skiplist_rcu.h
 * \brief The ordered index and the extent index for concurrent use on
 *        liburcu: lock-free readers, fine-grained writers.
 *
 * `SKIPLIST_RCU_DEFINE` and `SKIPLIST_RCU_EXTENT_DEFINE` generate the
 * functions documented in the \ref gen_rcu "skiplist_rcu.h" modules, each
 * with its concurrency contract. Readers run inside
 * `skiplist_rcu_read_lock()` ... `skiplist_rcu_read_unlock()` and take no
 * lock; writers lock only the index nodes they change; replaced nodes are
 * freed after a grace period. Link with the flavor's library
 * (`-lurcu` for memb, the default; `-lurcu-mb`, `-lurcu-qsbr`,
 * `-lurcu-bp`) plus `-lurcu-common -pthread`.
 */

#ifndef SKIPLIST_DOCS_PLACEHOLDERS_H
#define SKIPLIST_DOCS_PLACEHOLDERS_H

#include <stdint.h>

/** \brief Placeholder for the element type, the macro's `T` argument.
 *
 * Any struct (or other object type) of yours. The list stores `T *` and
 * never copies, moves or frees an element. */
typedef struct T T;

/** \brief Placeholder for the key type, the macro's `K_T` argument.
 *
 * Any assignable object type of at most 64 bytes (integers, floating
 * point, `const char *` with `strcmp`, small structs). The extent faces
 * need an unsigned integer type. Written here as `uint64_t` only so that
 * the test can compile this header. */
typedef uint64_t K_T;

/* Declared here so that the reference headers compile (tests/docs/). */
struct name;
struct name_iter;

#ifdef SKIPLIST_DOXYGEN
/** \brief The list (or queue) itself, generated as `struct name`.
 *
 * Declare one per list, pass it to `name_init()` before any other call
 * and to `name_destroy()` last. Its members are the engine's and may
 * change in any release: use the functions only. */
struct name {
    int private_members; /**< (the engine's; opaque) */
};

/** \brief An iterator, generated as `struct name_iter`.
 *
 * Set by `name_iter_first()`, `name_iter_last()`, `name_iter_seek()` (and
 * `name_iter_overlap()` on extent faces) and moved by `name_iter_next()`
 * and `name_iter_prev()`; the `SKIPLIST_FOREACH` loops use one. Any
 * change to a skiplist.h list invalidates its iterators, except the
 * removal of the current element inside `SKIPLIST_FOREACH_SAFE`. Members
 * are the engine's. */
struct name_iter {
    int private_members; /**< (the engine's; opaque) */
};
#endif

#endif /* SKIPLIST_DOCS_PLACEHOLDERS_H */
