/* The extent suite's range and the interface each implementation fills in
 * (bench/suite_extent.c has the workload and the peer, iova_rb; ours is
 * bench/extent_skiplist.h). */
#ifndef BENCH_EXTENT_IMPL_H
#define BENCH_EXTENT_IMPL_H

#include <stddef.h>
#include <stdint.h>

/* Units are pages. */
struct range {
    uint64_t start, size;
};

#define START_PFN 1 /* pfn 0 is never handed out, as in Linux */

static inline uint64_t pow2_ceil(uint64_t x)
{
    uint64_t p = 1;
    while (p < x)
        p <<= 1;
    return p;
}

/* One implementation behind a small interface: the driver is shared, so all
 * pay the same indirect calls. */
struct extent_impl {
    const char *name;
    void *(*make)(uint64_t limit, size_t cap);
    void (*drop)(void *ctx);
    void *(*alloc)(void *ctx, uint64_t size); /* NULL when full */
    void (*release)(void *ctx, void *h);
    void *(*lookup)(void *ctx, uint64_t pfn);
    uint64_t (*lo)(const void *h);
    uint64_t (*hi)(const void *h);
    double (*bytes_per_item)(void *ctx, size_t n);
    int (*check)(void *ctx);
    /* The footprint op: bytes the structure costs with its n ranges: its
     * head, what it allocated and the links it keeps per range. */
    double (*footprint)(void *ctx, size_t n);
    /* The footprint_rss op: builds count indexes, index i holding e[i]
     * alone, their heads in one array as a user embedding them would have
     * them, and checks a sample of them by lookup; NULL on failure. Runs in
     * a child process that exits without freeing them. NULL when not
     * measured (a structure that allocates its ranges itself cannot have
     * them allocated before the baseline). */
    void *(*many)(struct range *e, size_t count);
    /* The erase windows (issue #30). erase_range: removes every range
     * overlapping [lo, hi], given only lo and hi; returns how many. NULL
     * when the structure has no such call (it then gets no erase_range
     * rows, its erase_loop rows free the window's ranges one by one
     * through release). restore: puts the range [lo, hi] back where it
     * was (untimed, between windows); its new handle, NULL on failure. */
    size_t (*erase_range)(void *ctx, uint64_t lo, uint64_t hi);
    void *(*restore)(void *ctx, uint64_t lo, uint64_t hi);
};

extern const struct extent_impl extent_impl_skiplist;
/* An earlier skiplist.h (bench/extent_base.c), linked in only with
 * BENCH_BASE (bench/bench.mk); the driver lists it under BENCH_BASE_ROW. */
extern const struct extent_impl extent_impl_skiplist_base;

#endif
