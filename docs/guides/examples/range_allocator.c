/* range_allocator.c: the example of docs/guides/extent-index.md.
 *
 * A device-memory heap of 64 MiB handed out in 64 KiB granules, as a GPU
 * driver or a DMA pool does: a firmware region is reserved at a fixed
 * address, buffers are allocated where the lowest free range aligned to
 * their size fits (insert_hole), freed (erase), and a faulting address is
 * traced back to the buffer that owns it (lookup); a window is asked which
 * buffers it touches (FOREACH_OVERLAP). Every answer is checked against a
 * granule-by-granule map of the heap: an allocation must be the lowest
 * aligned fit, -ENOSPC must mean that none exists, a lookup must name the
 * granule's owner. Exit status 0 only when every check passed. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "skiplist.h"

/* [define] */
struct buffer {
    uint64_t addr; /* START: set by insert_hole, or by the caller */
    uint64_t size; /* SIZE: bytes, never 0 */
    unsigned id;
};

SKIPLIST_EXTENT_DEFINE(heap, struct buffer, uint64_t, addr, size,
                       SKIPLIST_DEFAULTS)
/* [define] */

#define GRANULE (UINT64_C(64) << 10)
#define HEAP_SIZE (UINT64_C(64) << 20)
#define HEAP_LO UINT64_C(0)
#define HEAP_HI (HEAP_SIZE - 1) /* query ranges are closed: [lo, hi] */
#define NGRAN (HEAP_SIZE / GRANULE)
#define MAXBUF 2048u

static struct buffer buf[MAXBUF];
static bool live[MAXBUF];
static int owner[NGRAN]; /* buffer id + 1 per granule, 0 when free */
static int failures;

static void expect(bool ok, const char *what)
{
    if (!ok && failures++ < 10)
        fprintf(stderr, "range_allocator: FAILED: %s\n", what);
}

static uint64_t rng = 12345;
static uint64_t rnd(uint64_t n)
{
    rng = rng * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    return (rng >> 33) % n;
}

static void mark(const struct buffer *b, int who)
{
    for (uint64_t g = b->addr / GRANULE; g < (b->addr + b->size) / GRANULE; g++)
        owner[g] = who;
}

/* The model's answer: the lowest start aligned to align where size bytes
 * are free, or UINT64_MAX when there is none. */
static uint64_t model_first_fit(uint64_t size, uint64_t align)
{
    for (uint64_t at = HEAP_LO; at + size - 1 <= HEAP_HI; at += align) {
        uint64_t g = at / GRANULE, end = (at + size) / GRANULE;
        while (g < end && owner[g] == 0)
            g++;
        if (g == end)
            return at;
    }
    return UINT64_MAX;
}

/* Buffers are a power of two of granules, 64 KiB .. 4 MiB, mostly small,
 * aligned to their own size as a driver aligns large buffers. */
static uint64_t pick_size(void)
{
    unsigned shift =
        (unsigned)rnd(100) < 70 ? (unsigned)rnd(3) : 3 + (unsigned)rnd(4);
    return GRANULE << shift;
}

/* [alloc] */
/* Allocates b->size bytes at the lowest address aligned to the size: 0,
 * or -ENOSPC when no free range that large and aligned exists. */
static int alloc_buffer(struct heap *h, struct buffer *b)
{
    return heap_insert_hole(h, b, b->size, HEAP_LO, HEAP_HI,
                            SKIPLIST_HOLE_LOWEST);
}
/* [alloc] */

int main(void)
{
    struct heap h;
    if (heap_init(&h, NULL, 7) != 0)
        return 1;

    /* [reserve] */
    /* The firmware's region sits at a fixed address: a plain insert. An
     * insert that overlaps it is refused and names the extent in the way. */
    struct buffer fw = {.addr = 0, .size = 1u << 20, .id = 0};
    struct buffer bad = {.addr = 512u << 10, .size = GRANULE, .id = 1};
    struct buffer *clash = NULL;
    int rc_fw = heap_insert(&h, &fw, NULL);
    int rc_bad = heap_insert(&h, &bad, &clash);
    printf("reserve firmware [0, 1 MiB): %d; a buffer at 512 KiB: %s, "
           "clashes with id %u\n",
           rc_fw, rc_bad == -EEXIST ? "-EEXIST" : "unexpected",
           clash ? clash->id : 999u);
    /* [reserve] */
    expect(rc_fw == 0 && rc_bad == -EEXIST && clash == &fw, "reservation");
    mark(&fw, (int)MAXBUF + 1);

    /* [errors] */
    struct buffer zero = {.addr = 0, .size = 0, .id = 2};
    struct buffer odd = {.addr = 0, .size = GRANULE, .id = 3};
    int rc_zero = heap_insert_hole(&h, &zero, GRANULE, HEAP_LO, HEAP_HI,
                                   SKIPLIST_HOLE_LOWEST);
    int rc_align = heap_insert_hole(&h, &odd, 3 * GRANULE, HEAP_LO, HEAP_HI,
                                    SKIPLIST_HOLE_LOWEST);
    int rc_range = heap_insert_hole(&h, &odd, GRANULE, HEAP_HI, HEAP_LO,
                                    SKIPLIST_HOLE_LOWEST);
    printf("size 0: %d, alignment 3 granules: %d, lo > hi: %d (-EINVAL is "
           "%d)\n",
           rc_zero, rc_align, rc_range, -EINVAL);
    /* [errors] */
    expect(rc_zero == -EINVAL && rc_align == -EINVAL && rc_range == -EINVAL,
           "bad requests get -EINVAL");
    expect(heap_count(&h) == 1 && odd.addr == 0, "failed calls change nothing");

    /* Random traffic: allocate until the heap is tight, free at random. */
    unsigned allocs = 0, frees = 0, enospc = 0;
    for (int op = 0; op < 20000; op++) {
        unsigned i = 1 + (unsigned)rnd(MAXBUF - 1);
        if (live[i]) {
            /* [free] */
            if (heap_erase(&h, &buf[i]) != 0)
                return 1;
            /* [free] */
            mark(&buf[i], 0);
            live[i] = false;
            frees++;
            continue;
        }
        buf[i] = (struct buffer){.addr = 0, .size = pick_size(), .id = i};
        uint64_t want = model_first_fit(buf[i].size, buf[i].size);
        int rc = alloc_buffer(&h, &buf[i]);
        if (rc == -ENOSPC) {
            expect(want == UINT64_MAX, "-ENOSPC although a range was free");
            enospc++;
            continue;
        }
        expect(rc == 0 && buf[i].addr == want, "the lowest aligned fit");
        mark(&buf[i], (int)i + 1);
        live[i] = true;
        allocs++;
    }
    printf("%u allocations, %u frees, %u times -ENOSPC; %zu buffers live\n",
           allocs, frees, enospc, heap_count(&h));
    expect(enospc > 0, "the heap ran full at least once");

    /* [lookup] */
    /* Which buffer owns a faulting address? NULL when it is free. */
    uint64_t fault = 40 * GRANULE + 123;
    struct buffer *hit = heap_lookup(&h, fault);
    if (hit)
        printf("address %#" PRIx64 " is in buffer %u [%#" PRIx64 ", +%" PRIu64
               " KiB)\n",
               fault, hit->id, hit->addr, hit->size >> 10);
    else
        printf("address %#" PRIx64 " is free\n", fault);
    /* [lookup] */

    /* Every granule's lookup agrees with the model. */
    for (uint64_t g = 0; g < NGRAN; g++) {
        struct buffer *b = heap_lookup(&h, g * GRANULE + GRANULE / 2);
        int want = owner[g];
        int got = !b ? 0 : b == &fw ? (int)MAXBUF + 1 : (int)b->id + 1;
        expect(got == want, "lookup names the granule's owner");
    }

    /* [overlap] */
    /* The buffers a DMA window [8 MiB, 9 MiB - 1] touches, in address
     * order (the range is closed: its last byte is included). */
    struct heap_iter it;
    struct buffer *b;
    unsigned touched = 0;
    uint64_t wlo = UINT64_C(8) << 20, whi = (UINT64_C(9) << 20) - 1;
    SKIPLIST_FOREACH_OVERLAP (heap, &h, it, b, wlo, whi) {
        touched++;
    }
    /* [overlap] */
    unsigned want_touched = 0;
    for (unsigned i = 1; i < MAXBUF; i++)
        want_touched += live[i] && buf[i].addr <= whi &&
                        buf[i].addr + buf[i].size - 1 >= wlo;
    printf("the window [8 MiB, 9 MiB) touches %u buffers\n", touched);
    expect(touched == want_touched, "overlap query");

    char why[128];
    expect(heap_check(&h, why, sizeof why) == 0, why);
    heap_destroy(&h, NULL, NULL); /* the buffers are static: nothing to free */
    printf("range_allocator: %s\n",
           failures ? "checks FAILED" : "all checks passed");
    return failures ? 1 : 0;
}
