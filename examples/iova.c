/*
 * iova: an IOVA allocator for a simulated DMA device, on the extent face.
 *
 * An IOMMU gives each device its own I/O virtual address space; the driver
 * maps a buffer by finding a free, suitably aligned range of that space
 * and unmaps it when the DMA completes. Linux allocates top-down below the
 * device's DMA mask and aligns a range to its size rounded up to a power of
 * two, so large buffers stay naturally aligned. Here the address space is
 * [4 KiB, 4 GiB - 1] (a 32-bit mask, page 0 kept unmapped to catch
 * null-pointer DMA), and one call, insert_hole(SKIPLIST_HOLE_HIGHEST),
 * finds the highest aligned free range and records the mapping in one
 * O(log n) step, however fragmented the space is.
 *
 * The program maps and unmaps buffers of 4 KiB .. 2 MiB in a steady
 * phase, then under pressure until the space runs out, handling -ENOSPC
 * the way a driver does (wait for some DMA to complete, i.e. unmap, and
 * retry), prints what it did, and checks itself. Deterministic: fixed seed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "skiplist.h"

#define PAGE 4096u
#define IOVA_LO ((uint64_t)PAGE)        /* page 0 never mapped */
#define IOVA_HI ((uint64_t)0xffffffffu) /* 32-bit DMA mask, inclusive */
#define MAX_MAPPINGS 120000u

struct mapping {
    uint64_t iova; /* device address: the extent's start */
    uint64_t len;  /* bytes: the extent's size */
    uint64_t phys; /* what the device reaches there (simulated) */
    uint32_t slot; /* index in the driver's table of live mappings */
};

SKIPLIST_EXTENT_DEFINE(iova_map, struct mapping, uint64_t, iova, len,
                       SKIPLIST_DEFAULTS)

/* The driver's side: storage for mappings and the list of live ones
 * (for picking a random buffer to complete). */
struct device {
    struct iova_map map;
    struct mapping pool[MAX_MAPPINGS];
    struct mapping *spare[MAX_MAPPINGS];
    uint32_t nspare;
    struct mapping *live[MAX_MAPPINGS];
    uint32_t nlive;
    uint64_t mapped_bytes;
    unsigned long maps, unmaps, enospc, enospc_unmaps;
    uint64_t rng;
};

static struct device dev; /* large: keep it off the stack */

static uint64_t rnd(void)
{
    uint64_t z = (dev.rng += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t rnd_below(uint64_t n)
{
    return rnd() % n;
}

static uint64_t pow2_ceil(uint64_t x)
{
    uint64_t p = 1;
    while (p < x)
        p <<= 1;
    return p;
}

/* Buffer sizes in pages: mostly small, some up to 2 MiB. */
static uint64_t buffer_bytes(bool big)
{
    uint64_t k = big ? 90 + rnd_below(10) : rnd_below(100);
    uint64_t pages;
    if (k < 55)
        pages = 1 + rnd_below(2);
    else if (k < 80)
        pages = 3 + rnd_below(14);
    else if (k < 95)
        pages = 17 + rnd_below(112);
    else
        pages = 129 + rnd_below(384);
    return pages * PAGE;
}

/* dma_map: 0 and *out, or -ENOSPC (nothing mapped). */
static int dma_map(uint64_t len, uint64_t phys, struct mapping **out)
{
    if (dev.nspare == 0)
        return -ENOSPC; /* out of mapping descriptors, not of space */
    struct mapping *m = dev.spare[dev.nspare - 1];
    m->len = len;
    m->phys = phys;
    /* The size comes from m->len; on success m->iova is set: the highest
     * free range of len bytes aligned to len's power of two, inside the
     * closed window [IOVA_LO, IOVA_HI]. */
    int r = iova_map_insert_hole(&dev.map, m, pow2_ceil(len), IOVA_LO, IOVA_HI,
                                 SKIPLIST_HOLE_HIGHEST);
    if (r != 0)
        return r;
    dev.nspare--;
    m->slot = dev.nlive;
    dev.live[dev.nlive++] = m;
    dev.mapped_bytes += len;
    dev.maps++;
    *out = m;
    return 0;
}

static void dma_unmap(struct mapping *m)
{
    if (iova_map_erase(&dev.map, m) != 0) {
        fprintf(stderr, "iova: unmap of a mapping the map does not hold\n");
        exit(1);
    }
    struct mapping *last = dev.live[--dev.nlive];
    last->slot = m->slot;
    dev.live[m->slot] = last;
    dev.spare[dev.nspare++] = m;
    dev.mapped_bytes -= m->len;
    dev.unmaps++;
}

static void unmap_random(void)
{
    dma_unmap(dev.live[rnd_below(dev.nlive)]);
}

/* Map, and on -ENOSPC complete (unmap) random buffers and retry, as a
 * driver that waits for in-flight DMA would. */
static struct mapping *map_or_wait(uint64_t len)
{
    struct mapping *m;
    int r;
    /* A page of simulated 40-bit physical memory. */
    uint64_t phys = rnd() & UINT64_C(0xfffffff000);
    while ((r = dma_map(len, phys, &m)) != 0) {
        if (r != -ENOSPC || dev.nlive == 0) {
            fprintf(stderr, "iova: cannot map %" PRIu64 " bytes: %d\n", len, r);
            exit(1);
        }
        dev.enospc++;
        unmap_random();
        dev.enospc_unmaps++;
    }
    return m;
}

struct space {
    uint64_t free_bytes, largest_hole, holes;
};

/* Walk the map: every invariant the device relies on, and the free space
 * between mappings. Returns the number of failed checks. */
static int audit(struct space *sp)
{
    int bad = 0;
    char why[200];
    if (iova_map_check(&dev.map, why, sizeof(why)) != 0) {
        fprintf(stderr, "iova: check() failed: %s\n", why);
        bad++;
    }
    struct iova_map_iter it;
    struct mapping *m;
    uint64_t next_free = IOVA_LO, bytes = 0, n = 0;
    sp->free_bytes = sp->largest_hole = sp->holes = 0;
    SKIPLIST_FOREACH (iova_map, &dev.map, it, m) {
        if (m->iova < next_free) {
            fprintf(stderr, "iova: %#" PRIx64 " overlaps or is below range\n",
                    m->iova);
            bad++;
        } else if (m->iova > next_free) {
            uint64_t hole = m->iova - next_free;
            sp->free_bytes += hole;
            sp->holes++;
            if (hole > sp->largest_hole)
                sp->largest_hole = hole;
        }
        if (m->iova % pow2_ceil(m->len) != 0 ||
            m->iova + (m->len - 1) > IOVA_HI) {
            fprintf(stderr, "iova: %#" PRIx64 " +%#" PRIx64 " misaligned\n",
                    m->iova, m->len);
            bad++;
        }
        next_free = m->iova + m->len;
        bytes += m->len;
        n++;
    }
    if (next_free <= IOVA_HI) {
        uint64_t hole = IOVA_HI - next_free + 1;
        sp->free_bytes += hole;
        sp->holes++;
        if (hole > sp->largest_hole)
            sp->largest_hole = hole;
    }
    if (bytes != dev.mapped_bytes || n != dev.nlive ||
        n != iova_map_count(&dev.map)) {
        fprintf(stderr, "iova: accounting differs from the map\n");
        bad++;
    }
    /* Every live mapping is found from any address inside it. */
    for (uint32_t i = 0; i < dev.nlive; i += 7) {
        const struct mapping *x = dev.live[i];
        uint64_t at = x->iova + rnd_below(x->len);
        if (iova_map_lookup(&dev.map, at) != x ||
            iova_map_lookup(&dev.map, x->iova + x->len - 1) != x) {
            fprintf(stderr, "iova: lookup(%#" PRIx64 ") wrong\n", at);
            bad++;
        }
    }
    return bad;
}

static void report(const char *when, const struct space *sp)
{
    double frag = sp->free_bytes
                      ? 1.0 - (double)sp->largest_hole / (double)sp->free_bytes
                      : 0.0;
    printf("%s:\n", when);
    printf("  maps %lu, unmaps %lu, live mappings %" PRIu32 "\n", dev.maps,
           dev.unmaps, dev.nlive);
    printf("  bytes mapped %" PRIu64 " (%.1f MiB), free %" PRIu64
           " (%.1f MiB) in %" PRIu64 " holes\n",
           dev.mapped_bytes, (double)dev.mapped_bytes / 1048576.0,
           sp->free_bytes, (double)sp->free_bytes / 1048576.0, sp->holes);
    printf("  largest free hole %" PRIu64 " bytes (%.1f MiB), "
           "fragmentation 1 - largest/free = %.3f\n",
           sp->largest_hole, (double)sp->largest_hole / 1048576.0, frag);
}

int main(void)
{
    int bad = 0;
    dev.rng = 2024;
    if (iova_map_init(&dev.map, NULL, 7) != 0)
        return 1;
    for (uint32_t i = 0; i < MAX_MAPPINGS; i++)
        dev.spare[i] = &dev.pool[MAX_MAPPINGS - 1 - i];
    dev.nspare = MAX_MAPPINGS;

    /* Top-down: the first 2 MiB buffer lands just below 4 GiB. */
    struct mapping *first = map_or_wait(2u << 20);
    if (first->iova != (UINT64_C(1) << 32) - (2u << 20)) {
        fprintf(stderr, "iova: first mapping not at the top\n");
        bad++;
    }
    dma_unmap(first);

    /* Steady traffic: ~20 000 buffers in flight, random completions. */
    for (int op = 0; op < 300000; op++) {
        if (dev.nlive < 20000 || rnd_below(2) == 0)
            map_or_wait(buffer_bytes(false));
        else
            unmap_random();
    }
    struct space sp;
    bad += audit(&sp);
    report("after steady traffic", &sp);
    printf("  -ENOSPC %lu times\n", dev.enospc);

    /* Pressure: big buffers only, until the space runs out again and
     * again; each -ENOSPC is handled by completing random buffers. */
    unsigned long enospc_before = dev.enospc;
    unsigned long waited_before = dev.enospc_unmaps;
    for (int op = 0; op < 30000; op++)
        map_or_wait(buffer_bytes(true));
    bad += audit(&sp);
    report("after pressure (big buffers only)", &sp);
    printf("  -ENOSPC %lu times; recovered each by completing buffers "
           "(%lu unmapped to make room)\n",
           dev.enospc - enospc_before, dev.enospc_unmaps - waited_before);
    if (dev.enospc == enospc_before) {
        fprintf(stderr, "iova: the pressure phase never ran out of space\n");
        bad++;
    }
    /* The largest hole the walk found must be allocatable, one byte more
     * not: insert_hole agrees with the map's own picture. */
    struct mapping probe = {0, 0, 0, 0};
    if (sp.largest_hole > 0) {
        probe.len = sp.largest_hole + 1;
        int too_big = iova_map_insert_hole(&dev.map, &probe, 1, IOVA_LO,
                                           IOVA_HI, SKIPLIST_HOLE_LOWEST);
        probe.len = sp.largest_hole;
        if (too_big != -ENOSPC ||
            iova_map_insert_hole(&dev.map, &probe, 1, IOVA_LO, IOVA_HI,
                                 SKIPLIST_HOLE_LOWEST) != 0 ||
            iova_map_erase(&dev.map, &probe) != 0) {
            fprintf(stderr, "iova: largest hole disagrees with insert_hole\n");
            bad++;
        }
    }

    printf("  sample mappings (lowest and highest device addresses):\n");
    struct iova_map_iter it;
    struct mapping *m;
    int shown = 0;
    SKIPLIST_FOREACH (iova_map, &dev.map, it, m) {
        if (shown++ == 3)
            break;
        printf("    iova %#010" PRIx64 " .. %#010" PRIx64 "  %7" PRIu64
               " KiB -> phys %#" PRIx64 "\n",
               m->iova, m->iova + m->len - 1, m->len / 1024, m->phys);
    }
    shown = 0;
    SKIPLIST_FOREACH_REVERSE (iova_map, &dev.map, it, m) {
        if (shown++ == 3)
            break;
        printf("    iova %#010" PRIx64 " .. %#010" PRIx64 "  %7" PRIu64
               " KiB -> phys %#" PRIx64 "\n",
               m->iova, m->iova + m->len - 1, m->len / 1024, m->phys);
    }

    /* Tear down: every buffer completes. */
    while (dev.nlive)
        unmap_random();
    bad += audit(&sp);
    if (!iova_map_empty(&dev.map) || sp.free_bytes != IOVA_HI - IOVA_LO + 1) {
        fprintf(stderr, "iova: space not whole after unmapping everything\n");
        bad++;
    }
    iova_map_destroy(&dev.map, NULL, NULL);
    printf("self-checks: %s\n", bad ? "FAILED" : "all passed");
    return bad ? 1 : 0;
}
