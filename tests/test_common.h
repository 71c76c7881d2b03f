/*
 * Shared helpers for every suite: a counting allocator that can fail at the
 * Nth call, seed handling (SEED=... replays a run), a small PRNG, and a knob
 * to size random tests for sanitizer builds.
 *
 * Everything is static inline so each test file can include this header
 * without -Wmissing-prototypes or -Wunused-function complaints.
 *
 *   struct tc_alloc ta;
 *   tc_alloc_init(&ta);
 *   imap_init(&sl, &ta.iface, tc_seed("imap_random"));
 *   tc_alloc_fail_at(&ta, 3);         // the third alloc from now fails
 *   ...
 *   imap_destroy(&sl, NULL, NULL);
 *   cr_assert_eq(ta.live, 0);         // zero leaks
 *   cr_assert_eq(ta.bad_frees, 0);    // every free matched its alloc
 *
 * Interface stability: other suites include this header; add to it, do not
 * change what is here.
 */
#ifndef TEST_COMMON_H
#define TEST_COMMON_H

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "skiplist.h"

/* ----------------------------------------------------- half-open ranges */

/* The models and suites think in half-open ranges [a, b); the library's
 * overlap queries take closed ones [lo, hi]. These convert, keeping an
 * empty or reversed [a, b) (a >= b) invalid as [1, 0]. */
#define TC_LO(a, b) ((a) < (b) ? (a) : 1u)
#define TC_HI(a, b) ((a) < (b) ? (b)-1u : 0u)

/* ------------------------------------------------------------ sanitizers */

/* 1 when built with AddressSanitizer (gcc or clang), so random tests can
 * run fewer operations there and keep `make test` fast. */
#if defined(__SANITIZE_ADDRESS__)
#define TC_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TC_SANITIZED 1
#endif
#endif
#ifndef TC_SANITIZED
#define TC_SANITIZED 0
#endif

#if TC_SANITIZED
#include <sanitizer/lsan_interface.h>
#endif

/*
 * True unless LeakSanitizer finds unreachable memory now. Criterion runs
 * each test in a worker whose exit-time leak report does not fail the
 * test, so suites that use the default (malloc-backed) allocator call this
 * after destroy: cr_assert(tc_no_leaks()). Always true in plain builds.
 */
static inline bool tc_no_leaks(void)
{
#if TC_SANITIZED
    return __lsan_do_recoverable_leak_check() == 0;
#else
    return true;
#endif
}

/*
 * Scale a plain-build operation count: divided by 8 under ASan (a build
 * that is ~10x slower still runs a meaningful count), multiplied by the
 * env TEST_SCALE (integer, default 1) so a long soak is one variable away.
 */
static inline unsigned long tc_ops(unsigned long plain)
{
    unsigned long n = TC_SANITIZED ? plain / 8 : plain;
    const char *s = getenv("TEST_SCALE");
    if (s && *s) {
        unsigned long k = strtoul(s, NULL, 0);
        if (k > 0)
            n *= k;
    }
    return n ? n : 1;
}

/* ------------------------------------------------------------------ seed */

/*
 * The seed for one test: env SEED when set (decimal or 0x hex), else a fresh
 * one from the clock and pid. Printed either way, with the test's name, so
 * any failure can be replayed with SEED=<value>.
 */
static inline uint64_t tc_seed(const char *what)
{
    const char *s = getenv("SEED");
    uint64_t seed;
    if (s && *s) {
        seed = (uint64_t)strtoull(s, NULL, 0);
    } else {
        /* Plain C11 has no clock_gettime: mix the wall clock, CPU time,
         * pid and a stack address (ASLR) instead. */
        int here;
        seed = (uint64_t)time(NULL) * UINT64_C(1000000007) ^
               (uint64_t)clock() << 20 ^ (uint64_t)getpid() << 40 ^
               (uint64_t)(uintptr_t)&here;
    }
    fprintf(stderr, "%s: SEED=%" PRIu64 "\n", what ? what : "test", seed);
    return seed;
}

/* ------------------------------------------------------------------ PRNG */

/* splitmix64: tiny, full-period, good enough to drive operation streams. */
struct tc_rng {
    uint64_t s;
};

static inline void tc_rng_init(struct tc_rng *r, uint64_t seed)
{
    r->s = seed;
}

static inline uint64_t tc_rand64(struct tc_rng *r)
{
    uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Uniform in [0, n); n == 0 gives 0. The modulo bias is irrelevant here. */
static inline uint64_t tc_below(struct tc_rng *r, uint64_t n)
{
    return n ? tc_rand64(r) % n : 0;
}

/* ------------------------------------------------------------- allocator */

/*
 * Counting allocator. Each block carries a header recording size and level
 * so that a free with a size or level different from its alloc, or of a
 * pointer never handed out, is counted in bad_frees instead of corrupting
 * memory silently.
 */
struct tc_alloc {
    struct skiplist_allocator iface; /* pass &ta.iface to name_init */
    unsigned long calls;    /* alloc calls so far, failed ones included */
    unsigned long fail_at;  /* absolute call number that fails; 0 = never */
    bool fail_all_after;    /* also fail every call after fail_at */
    unsigned long failures; /* alloc calls that returned NULL */
    unsigned long frees;    /* successful free calls */
    long live;              /* allocations not yet freed */
    size_t live_bytes;      /* their requested sizes, summed */
    size_t peak_bytes;      /* max of live_bytes */
    unsigned long bad_frees;
    unsigned max_level; /* highest level argument seen */
};

/* Max-aligned header in front of each block. */
union tc_block_hdr {
    struct {
        uint64_t magic;
        size_t size;
        unsigned level;
    } h;
    max_align_t align;
};

#define TC_MAGIC_LIVE UINT64_C(0x5c1b1157a110c8ed)
#define TC_MAGIC_DEAD UINT64_C(0xdeadf4eedeadf4ee)

static inline void *tc_alloc_cb(void *ctx, size_t size, unsigned level)
{
    struct tc_alloc *ta = (struct tc_alloc *)ctx;
    ta->calls++;
    if (ta->fail_at && (ta->calls == ta->fail_at ||
                        (ta->fail_all_after && ta->calls > ta->fail_at))) {
        ta->failures++;
        return NULL;
    }
    union tc_block_hdr *b = (union tc_block_hdr *)malloc(sizeof(*b) + size);
    if (!b)
        return NULL;
    b->h.magic = TC_MAGIC_LIVE;
    b->h.size = size;
    b->h.level = level;
    ta->live++;
    ta->live_bytes += size;
    if (ta->live_bytes > ta->peak_bytes)
        ta->peak_bytes = ta->live_bytes;
    if (level > ta->max_level)
        ta->max_level = level;
    /* Garbage, not zeroes: the library must not rely on fresh memory. */
    memset(b + 1, 0xa5, size);
    return b + 1;
}

static inline void tc_free_cb(void *ctx, void *ptr, size_t size, unsigned level)
{
    struct tc_alloc *ta = (struct tc_alloc *)ctx;
    if (!ptr) {
        ta->bad_frees++;
        return;
    }
    union tc_block_hdr *b = (union tc_block_hdr *)ptr - 1;
    if (b->h.magic != TC_MAGIC_LIVE || b->h.size != size ||
        b->h.level != level) {
        ta->bad_frees++;
        return; /* leak it rather than free something we do not own */
    }
    b->h.magic = TC_MAGIC_DEAD;
    ta->live--;
    ta->live_bytes -= size;
    ta->frees++;
    free(b);
}

static inline void tc_alloc_init(struct tc_alloc *ta)
{
    memset(ta, 0, sizeof(*ta));
    ta->iface.alloc = tc_alloc_cb;
    ta->iface.free = tc_free_cb;
    ta->iface.ctx = ta;
}

/* Fail the nth alloc call from now (n >= 1); n == 0 disables failure. */
static inline void tc_alloc_fail_at(struct tc_alloc *ta, unsigned long n)
{
    ta->fail_at = n ? ta->calls + n : 0;
    ta->fail_all_after = false;
}

/* Fail the nth alloc call from now and every one after it. */
static inline void tc_alloc_fail_from(struct tc_alloc *ta, unsigned long n)
{
    tc_alloc_fail_at(ta, n);
    ta->fail_all_after = n != 0;
}

/* Stop failing. */
static inline void tc_alloc_heal(struct tc_alloc *ta)
{
    ta->fail_at = 0;
    ta->fail_all_after = false;
}

/* -ENOMEM leaves a list exactly as it was (the enomem_exact suites of
 * test_map_alloc.c and test_pq_unit.c). Runs call() with its k-th allocation
 * failing, k = 1, 2, ... until it succeeds; each failure must leave bytes and
 * live blocks as they were. */
#define TC_EXACT_ENOMEM(ta, bytes_of, call, what, j)                           \
    do {                                                                       \
        for (unsigned long k_ = 1;; k_++) {                                    \
            const size_t bytes_ = (bytes_of);                                  \
            const long live_ = (ta)->live;                                     \
            tc_alloc_fail_at((ta), k_);                                        \
            int rc_ = (call);                                                  \
            tc_alloc_heal(ta);                                                 \
            if (rc_ == 0)                                                      \
                break;                                                         \
            cr_assert_eq(rc_, -ENOMEM, "%s %zu: rc %d", (what), (size_t)(j),   \
                         rc_);                                                 \
            cr_assert_eq(                                                      \
                (bytes_of), bytes_,                                            \
                "%s %zu, allocation %lu failing: bytes %zu, were %zu", (what), \
                (size_t)(j), k_, (size_t)(bytes_of), bytes_);                  \
            cr_assert_eq((ta)->live, live_,                                    \
                         "%s %zu, allocation %lu failing: %ld blocks kept",    \
                         (what), (size_t)(j), k_, (ta)->live - live_);         \
        }                                                                      \
    } while (0)

#endif /* TEST_COMMON_H */
