/**
 * \file switches.h
 * \brief The compile-time switches: macros you may define before
 *        including a header.
 *
 * Documentation only. The headers test these names with `#ifdef` and
 * never define them, so Doxygen could not list them; they are written
 * here as definitions that only Doxygen reads (`SKIPLIST_DOXYGEN`). The
 * tunable defaults that the headers do define (`SKIPLIST_DEFAULT_KPN` and
 * the others, `SKIPLIST_SCHED_NR_CPUS`, `SKIPLIST_SCHED_CONFIG`) are
 * documented where they are defined.
 */
#ifndef SKIPLIST_DOCS_SWITCHES_H
#define SKIPLIST_DOCS_SWITCHES_H

#ifdef SKIPLIST_DOXYGEN

/** \brief skiplist.h: define to take slabs from `malloc` only.
 *
 * By default, on Linux with `aligned_alloc` (C11, C++17), big lists take
 * their node slabs from 2 MiB chunks advised as transparent huge pages,
 * which cuts TLB misses on random searches (docs/performance.md). */
#define SKIPLIST_NO_HUGEPAGES

/** \brief skiplist.h: define to check the whole list after every call
 *  that changes it, and abort on the first broken invariant.
 *
 * Every mutating call (`init`, `clear`, inserts, erases, pops, pushes,
 * `requeue`, `insert_hole`, `build`, `erase_range`; `skiplist_sched.h`'s
 * through its queue) runs `name_check()` on its list before it returns;
 * on a failure it prints `skiplist: SKIPLIST_DEBUG: check() failed after
 * OP: WHY` on stderr and calls `abort()`, so a corruption (a key changed
 * while linked, a list shared between threads without a lock, memory
 * overwritten) stops the program at the call that first sees it, with a
 * core to inspect. O(n) per call: for tests and debugging, not
 * production; without it no check is compiled in. Define it in every
 * translation unit that uses the list (or in `CFLAGS`). */
#define SKIPLIST_DEBUG

/** \brief skiplist.h: define to let the compiler decide what to inline,
 *  for builds where compile time matters more than speed.
 *
 * By default the engine's hot paths (searches, slot moves, the leaf and
 * index updates) are forced inline into every instantiation, where the
 * element and key layout are constants; that is where much of the speed
 * comes from, and most of the compile time. With this switch they are
 * ordinary `static inline` functions: the same behaviour and the same
 * checks, slower code, and about a third of the compile time under the
 * sanitizers (the test suites' ASan+UBSan build of `make test` uses it;
 * docs/testing.md). For debug and sanitizer builds; define it the same way
 * in every translation unit that shares a list. */
#define SKIPLIST_NO_FORCE_INLINE

/** \brief skiplist.h: define to use the plain loops instead of SSE2/AVX2.
 *
 * On x86-64 a queue's removal scans a leaf's element pointers with vector
 * compares (SSE2, or AVX2 under `-mavx2`). The plain loop gives the same
 * results; the test suite runs both. */
#define SKIPLIST_NO_SIMD

/** \brief skiplist_rcu.h: use liburcu's mb flavor (`<urcu.h>` with
 *  `RCU_MB`; link `-lurcu-mb -lurcu-common -pthread`).
 *
 * Define at most one flavor switch, the same in every translation unit
 * that touches a list. Without one the header uses memb, the default
 * (`-lurcu -lurcu-common -pthread`); memb and mb readers register. */
#define SKIPLIST_RCU_MB

/** \brief skiplist_rcu.h: use liburcu's QSBR flavor (`<urcu-qsbr.h>`;
 *  link `-lurcu-qsbr -lurcu-common -pthread`).
 *
 * QSBR readers must also announce quiescent states
 * (`rcu_quiescent_state()`, or `rcu_thread_offline()` around idle
 * stretches), or no grace period ends and no retired node is freed. */
#define SKIPLIST_RCU_QSBR

/** \brief skiplist_rcu.h: use liburcu's bulletproof flavor
 *  (`<urcu-bp.h>`; link `-lurcu-bp -lurcu-common -pthread`), which
 *  registers threads by itself. */
#define SKIPLIST_RCU_BP

/** \brief skiplist_rcu.h, test suite only: free replaced nodes at once,
 *  without a grace period (a planted fault the sanitizer runs must
 *  catch). Never define it elsewhere. */
#define SKIPLIST_RCU_PLANT_NO_GRACE

/** \brief skiplist_rcu.h, test suite only: publish a new leaf before its
 *  keys are written (a planted fault the stress runs must catch). Never
 *  define it elsewhere. */
#define SKIPLIST_RCU_PLANT_EARLY_PUBLISH

/** \brief skiplist_rcu.h, test suite only: an insert in place publishes
 *  the leaf's order word before it writes the slot the word lists (a
 *  planted fault the stress runs must catch). Never define it elsewhere. */
#define SKIPLIST_RCU_PLANT_SLOT_AFTER_WORD

/** \brief skiplist_rcu.h, test suite only: store a leaf's order word with
 *  a relaxed store instead of a release (a planted fault the stress runs
 *  must catch). Never define it elsewhere. */
#define SKIPLIST_RCU_PLANT_WORD_RELAXED

/** \brief skiplist_rcu.h, test suite only: an insert in place writes a
 *  dead slot again instead of a never-used one (a planted fault the
 *  stress runs must catch). Never define it elsewhere. */
#define SKIPLIST_RCU_PLANT_REUSE_DEAD

#endif /* SKIPLIST_DOXYGEN */

#endif /* SKIPLIST_DOCS_SWITCHES_H */
