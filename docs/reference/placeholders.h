/**
 * \file placeholders.h
 * \brief The placeholders of the generated API: `name`, `T`, `K_T`; and
 *        what docs/reference/ is for.
 *
 * **What the reference is for.** docs/reference/ is the one place where
 * each generated function's contract is written: what it returns, every
 * error code and what the list looks like afterwards, its complexity,
 * its preconditions and, for skiplist_rcu.h, what may run beside it and
 * when its effect happens. Everything else points here instead of
 * restating it: docs/api.md (how to use the API: instantiation,
 * ownership and threads, which call when), the "Generated API" comment
 * in each header (prototypes with one-line summaries) and the guides
 * (worked examples). The other homes, one per kind of fact:
 * - the instantiation macros' arguments and their ranges (`KPN` 1..256
 *   and the others): each `*_DEFINE` macro's own comment in skiplist.h
 *   and skiplist_rcu.h;
 * - the public types and constants (`struct skiplist_allocator`,
 *   `struct skiplist_hook`, `SKIPLIST_DEFAULTS`, ...): their comments in
 *   the headers;
 * - the compile-time switches: switches.h;
 * - skiplist_sched.h's functions, which are real functions, not
 *   generated: skiplist_sched_api.h.
 *
 * The functions the `SKIPLIST_*DEFINE` macros generate are invisible to
 * Doxygen in the real headers, so the reference declares them once,
 * written with the macro's own parameter names as placeholders:
 * - `name` is the first macro argument: it prefixes `struct name`,
 *   `struct name_iter` and every `name_*()` function. With
 *   `SKIPLIST_DEFINE(imap, ...)`, `name_find` is `imap_find`.
 * - `T` is the element type you pass, `K_T` the key type.
 *
 * Names that contain `name_slx_` or `name_slr_` are the library's own
 * helpers, never API, and are not listed.
 *
 * **What the checks guarantee** (both part of `make test`):
 * - `make docs-sync` (tests/docs/sync.sh): every face is instantiated
 *   with exactly these placeholder names and gcc lists the prototypes the
 *   macros generate; they must equal, parameter types and names
 *   included, the prototypes written here. So the reference documents
 *   every generated function, and nothing that is not generated, as it
 *   is really declared; and every reference header that declares
 *   functions belongs to a face.
 * - `make docs-check` (Doxygen with warnings as errors, then
 *   tests/docs/indexes.sh): every parameter and return value here and in
 *   the headers is documented (a missing `\param` is a warning); every
 *   `\fn` of skiplist_sched_api.h matches the real function's
 *   signature; every generated function is in the site's function
 *   index and no engine-internal or example symbol is; every `SKIPLIST_*`
 *   macro, and every argument of a function-like one, is documented;
 *   every page under docs/ and every diagram and plot it shows was made;
 *   every link of a Markdown page to another page, or to a section of
 *   one, resolves.
 *
 * No check reads the sentences: docs/errors.md ties each documented
 * error path to the test that pins it down. Nor are the headers'
 * "Generated API" comments compared with the macros; they are a table
 * of contents for a reader of the header, and where one disagrees with
 * this reference, the reference is the one checked.
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
 * docs/design.md. The rules every call follows (errors, threads, keys):
 * \ref gen_common.
 */

/**
 * \file skiplist_sched.h
 * \brief A BFS-style global runqueue (Con Kolivas's skiplist BFS) on the
 *        priority-queue face.
 *
 * Enqueue, pick with affinity and sticky tasks, deschedule, the
 * preemption test, yield, nice and policy changes and fork, in BFS's own
 * units. The functions here are ordinary functions (not generated) and
 * are documented, with the rules every call follows, in the \ref sched
 * "Runqueue" module. docs/bfs-model.md lists where the model departs
 * from BFS.
 */

/**
 * \file skiplist_rcu.h
 * \brief The ordered index and the extent index for concurrent use on
 *        liburcu: lock-free readers, fine-grained writers.
 *
 * `SKIPLIST_RCU_DEFINE` and `SKIPLIST_RCU_EXTENT_DEFINE` generate the
 * functions documented in the \ref gen_rcu "skiplist_rcu.h" modules, each
 * with its concurrency contract, and the rules every caller follows
 * (\ref gen_rcu). Readers take no lock; writers lock only the index
 * nodes they change; replaced nodes are freed after a grace period. The
 * liburcu flavors and what to link: switches.h.
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
