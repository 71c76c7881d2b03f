/*
 * What every skiplist_rcu.h suite shares: the liburcu flavor the build
 * chose (one -D switch, as for the header), a thread-safe counting
 * allocator that poisons what it frees, and the first-failure record that
 * worker threads report into (Criterion's asserts belong to the test's
 * own thread).
 *
 * The flavor switches are the header's: none (memb), SKIPLIST_RCU_MB,
 * SKIPLIST_RCU_QSBR, SKIPLIST_RCU_BP. QSBR readers have no read-side
 * markers that liburcu can see, so a registered thread must announce
 * quiescent states itself and go offline before it blocks: rt_quiescent(),
 * rt_offline() and rt_online() do that under QSBR and nothing otherwise.
 * Every read-side section goes through the header's
 * skiplist_rcu_read_lock/unlock, which carry ThreadSanitizer's
 * annotations.
 */
#ifndef RCU_COMMON_H
#define RCU_COMMON_H

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "skiplist_rcu.h"

#include "../test_common.h"

/* ---------------------------------------------------------------- flavor */

#if defined(SKIPLIST_RCU_QSBR)
#define RT_FLAVOR "qsbr"
#elif defined(SKIPLIST_RCU_MB)
#define RT_FLAVOR "mb"
#elif defined(SKIPLIST_RCU_BP)
#define RT_FLAVOR "bp"
#else
#define RT_FLAVOR "memb"
#endif

/* ThreadSanitizer builds run fewer operations, as ASan builds do. */
#if defined(__SANITIZE_THREAD__)
#define RT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RT_TSAN 1
#endif
#endif
#ifndef RT_TSAN
#define RT_TSAN 0
#endif

/* An operation count for this build: tc_ops() (ASan / 8, times env
 * TEST_SCALE), and / 8 under ThreadSanitizer too. */
static inline unsigned long rt_ops(unsigned long plain)
{
    unsigned long n = tc_ops(RT_TSAN ? plain / 8 : plain);
    return n ? n : 1;
}

/* A QSBR reader is in a read-side section whenever it is online and has
 * not announced a quiescent state: call this between operations. */
static inline void rt_quiescent(void)
{
#ifdef SKIPLIST_RCU_QSBR
    rcu_quiescent_state();
#endif
}

/* Before blocking (join, barrier wait), so grace periods go on. */
static inline void rt_offline(void)
{
#ifdef SKIPLIST_RCU_QSBR
    rcu_thread_offline();
#endif
}

static inline void rt_online(void)
{
#ifdef SKIPLIST_RCU_QSBR
    rcu_thread_online();
#endif
}

/* ------------------------------------------------------------ allocator */

/*
 * A counting allocator safe to call from any thread: the library allocates
 * on writer threads and frees on liburcu's call_rcu thread. Each block
 * carries a header (checked on free: size, level, ownership) and is
 * filled with garbage when handed out (RA_FRESH: the library must write a
 * node before publishing it) and poisoned when freed (RA_POISON: a reader
 * still inside a freed node reads keys and element pointers no test
 * stores). In plain builds freed blocks stay poisoned in a quarantine of
 * RA_QUARANTINE blocks before they really go back to malloc, so a late
 * reader sees the poison and not a recycled node; a block leaving the
 * quarantine with its poison changed was written after its free
 * (ra.scribbled). Under ASan the block goes back at once and ASan's own
 * quarantine reports the late read.
 *
 * Failure injection for the allocation-failure sweep: ra_fail_at(ra, k)
 * fails the k-th alloc call from now (and, with ra_fail_from, every one
 * after it). ra_window() opens an accounting window: win_allocs counts
 * the blocks handed out since, win_frees those of them freed since, so a
 * refused operation can be shown to have given back all it took.
 */
#define RA_FRESH 0xa5
#define RA_POISON 0x5b
#define RA_QUARANTINE 4096
#define RA_MAGIC_LIVE UINT64_C(0x7c0a11c0ffee1157)
#define RA_MAGIC_DEAD UINT64_C(0x7c0a11c0deadbeef)

struct ra {
    struct skiplist_allocator iface; /* pass &ra.iface to name_init */
    atomic_ulong calls;              /* alloc calls, failed ones included */
    atomic_ulong fail_at;            /* absolute call that fails; 0 never */
    atomic_bool fail_after;          /* and every call after it */
    atomic_ulong failures;           /* calls that returned NULL */
    atomic_ulong frees;              /* good free calls */
    atomic_long live;                /* blocks not yet freed */
    atomic_ulong bad_frees;          /* wrong size, level or pointer */
    atomic_ulong scribbled;          /* poison changed while quarantined */
    atomic_ulong window;             /* the current accounting window */
    atomic_ulong win_allocs;         /* blocks allocated in it */
    atomic_ulong win_frees; /* of those, the ones freed, tagged with the
                             * window (see ra_window_count_free) */
    pthread_mutex_t qlock;
    void *q[RA_QUARANTINE]; /* oldest at qhead */
    size_t qn, qhead;
};

union ra_hdr {
    struct {
        uint64_t magic;
        size_t size;
        unsigned level;
        const struct ra *owner;
        unsigned long window;
    } h;
    max_align_t align;
};

/* Frees a quarantined block for good, checking that its poison held. */
static inline void ra_release(struct ra *ra, union ra_hdr *b)
{
    const unsigned char *p = (const unsigned char *)(b + 1);
    for (size_t i = 0; i < b->h.size; i++) {
        if (p[i] != RA_POISON) {
            atomic_fetch_add(&ra->scribbled, 1);
            break;
        }
    }
    free(b);
}

static inline void *ra_alloc_cb(void *ctx, size_t size, unsigned level)
{
    struct ra *ra = (struct ra *)ctx;
    unsigned long n = atomic_fetch_add(&ra->calls, 1) + 1;
    unsigned long at = atomic_load(&ra->fail_at);
    if (at && (n == at || (n > at && atomic_load(&ra->fail_after)))) {
        atomic_fetch_add(&ra->failures, 1);
        return NULL;
    }
    union ra_hdr *b = (union ra_hdr *)malloc(sizeof(*b) + size);
    if (!b)
        return NULL;
    b->h.magic = RA_MAGIC_LIVE;
    b->h.size = size;
    b->h.level = level;
    b->h.owner = ra;
    b->h.window = atomic_load(&ra->window);
    memset(b + 1, RA_FRESH, size);
    atomic_fetch_add(&ra->live, 1);
    atomic_fetch_add(&ra->win_allocs, 1);
    return b + 1;
}

/* win_frees holds the window's low 32 bits above its count: a call_rcu
 * thread freeing a block of the window that ra_window() is just closing
 * must not count it in the new one. Comparing the block's window and then
 * adding would race with the reset (the add could land after it: a
 * refused call then "kept -1 blocks"); the compare-and-swap adds only
 * while the tag is still the block's window. */
#define RA_WIN_COUNT 0xffffffffUL /* the count's bits; the tag is above */
#define RA_WIN_TAG(w) (((unsigned long)(w)&RA_WIN_COUNT) << 32)
static inline void ra_window_count_free(struct ra *ra, unsigned long window)
{
    unsigned long v = atomic_load(&ra->win_frees);
    while ((v & ~RA_WIN_COUNT) == RA_WIN_TAG(window))
        if (atomic_compare_exchange_weak(&ra->win_frees, &v, v + 1))
            return;
}

static inline void ra_free_cb(void *ctx, void *ptr, size_t size, unsigned level)
{
    struct ra *ra = (struct ra *)ctx;
    if (!ptr) {
        atomic_fetch_add(&ra->bad_frees, 1);
        return;
    }
    union ra_hdr *b = (union ra_hdr *)ptr - 1;
    if (b->h.magic != RA_MAGIC_LIVE || b->h.owner != ra || b->h.size != size ||
        b->h.level != level) {
        atomic_fetch_add(&ra->bad_frees, 1);
        return; /* leak it rather than free what is not ours */
    }
    b->h.magic = RA_MAGIC_DEAD;
    ra_window_count_free(ra, b->h.window);
    memset(ptr, RA_POISON, size);
    atomic_fetch_add(&ra->live, -1);
    atomic_fetch_add(&ra->frees, 1);
    if (TC_SANITIZED) {
        free(b);
        return;
    }
    union ra_hdr *old = NULL;
    pthread_mutex_lock(&ra->qlock);
    if (ra->qn == RA_QUARANTINE) {
        old = (union ra_hdr *)ra->q[ra->qhead];
        ra->q[ra->qhead] = b;
        ra->qhead = (ra->qhead + 1) % RA_QUARANTINE;
    } else {
        ra->q[(ra->qhead + ra->qn++) % RA_QUARANTINE] = b;
    }
    pthread_mutex_unlock(&ra->qlock);
    if (old)
        ra_release(ra, old);
}

static inline void ra_init(struct ra *ra)
{
    memset(ra, 0, sizeof(*ra));
    ra->iface.alloc = ra_alloc_cb;
    ra->iface.free = ra_free_cb;
    ra->iface.ctx = ra;
    pthread_mutex_init(&ra->qlock, NULL);
}

/* Empties the quarantine (every block checked); the counters stay. */
static inline void ra_fini(struct ra *ra)
{
    pthread_mutex_lock(&ra->qlock);
    while (ra->qn) {
        ra_release(ra, (union ra_hdr *)ra->q[ra->qhead]);
        ra->qhead = (ra->qhead + 1) % RA_QUARANTINE;
        ra->qn--;
    }
    pthread_mutex_unlock(&ra->qlock);
    pthread_mutex_destroy(&ra->qlock);
}

/* Opens a new accounting window (single writer thread only). */
static inline void ra_window(struct ra *ra)
{
    unsigned long w = atomic_fetch_add(&ra->window, 1) + 1;
    atomic_store(&ra->win_allocs, 0);
    atomic_store(&ra->win_frees, RA_WIN_TAG(w));
}

/* Frees counted in this window (its tag stripped). */
static inline unsigned long ra_window_frees(struct ra *ra)
{
    return atomic_load(&ra->win_frees) & RA_WIN_COUNT;
}

/* Blocks allocated in this window and not freed yet, once every pending
 * call_rcu free has run (the barrier only when something is missing). */
static inline long ra_window_kept(struct ra *ra)
{
    if (atomic_load(&ra->win_allocs) != ra_window_frees(ra))
        rcu_barrier();
    return (long)(atomic_load(&ra->win_allocs) - ra_window_frees(ra));
}

/* Fail the k-th alloc call from now (k >= 1); 0 stops failing. */
static inline void ra_fail_at(struct ra *ra, unsigned long k)
{
    atomic_store(&ra->fail_after, false);
    atomic_store(&ra->fail_at, k ? atomic_load(&ra->calls) + k : 0);
}

/* Fail the k-th alloc call from now and every one after it. */
static inline void ra_fail_from(struct ra *ra, unsigned long k)
{
    ra_fail_at(ra, k);
    atomic_store(&ra->fail_after, k != 0);
}

/* ------------------------------------------------------- first failure */

/*
 * Worker threads record what went wrong here; the first message is kept
 * (with the count of all), and every thread's loop stops once one is set.
 * The test's thread asserts rt_failures() == 0 after the join.
 *
 * One record per program, not per translation unit: the stress's threads
 * report in tests/rcu/stress.c, its callers reset the record in theirs.
 * Each file that includes this header holds a weak definition, and the
 * linker keeps one of them.
 */
struct rt_fail {
    atomic_ulong n;
    pthread_mutex_t lock;
    char msg[1024];
};

__attribute__((weak)) struct rt_fail rt_failure = {
    0, PTHREAD_MUTEX_INITIALIZER, {0}};

__attribute__((format(printf, 1, 2))) static inline void
rt_fail(const char *fmt, ...)
{
    if (atomic_fetch_add(&rt_failure.n, 1) != 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&rt_failure.lock);
    vsnprintf(rt_failure.msg, sizeof(rt_failure.msg), fmt, ap);
    pthread_mutex_unlock(&rt_failure.lock);
    va_end(ap);
}

static inline unsigned long rt_failures(void)
{
    return atomic_load(&rt_failure.n);
}

static inline const char *rt_failure_msg(void)
{
    return rt_failure.msg;
}

static inline void rt_failure_reset(void)
{
    atomic_store(&rt_failure.n, 0);
    rt_failure.msg[0] = 0;
}

/* ------------------------------------------------------------ odds, ends */

static inline double rt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A yield one time in `one_in` (0: never): widens interleavings on a
 * machine with fewer cores than threads. */
static inline void rt_maybe_yield(struct tc_rng *r, unsigned one_in)
{
    if (one_in && tc_below(r, one_in) == 0)
        sched_yield();
}

#endif /* RCU_COMMON_H */
