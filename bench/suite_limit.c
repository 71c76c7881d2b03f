/* limit suite (docs/benchmark.md): the latency floor a random lookup is
 * held against. impl "memory", op "chase": a pointer chase with one
 * dependent load per 64-byte cache line, the lines linked in one random
 * cycle (Sattolo's shuffle) so that neither the prefetchers nor
 * out-of-order execution can run ahead; n is the working set in bytes.
 * Once the working set is well past the last-level cache (about 4 MiB
 * really available here), ns per load is the DRAM latency a lookup pays
 * for each cache line it cannot predict.
 *
 * impl "memory" asks for transparent huge pages so that TLB misses stay out
 * of it: the floor is DRAM itself. impl "memory_4k" forbids them: with the
 * default 4 KiB pages, as malloc'd nodes get, every unpredicted line also
 * pays a page walk (two-dimensional under this KVM), which is what a map's
 * lookup really pays per line it misses. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bench/harness.h"

#define LINE 64

struct line {
    struct line *next;
    char pad[LINE - sizeof(struct line *)];
};

/* Links the lines of buf into one random cycle; returns its start. */
static struct line *link_cycle(struct line *buf, size_t lines, uint64_t seed)
{
    uint32_t *order = malloc(lines * sizeof(*order));
    if (!order) {
        fprintf(stderr, "limit: out of memory\n");
        exit(2);
    }
    for (size_t i = 0; i < lines; i++)
        order[i] = (uint32_t)i;
    /* Sattolo: j < i makes the permutation a single cycle. */
    for (size_t i = lines - 1; i > 0; i--) {
        size_t j = (size_t)bench_rand_below(&seed, i);
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (size_t i = 0; i < lines; i++)
        buf[order[i]].next = &buf[order[(i + 1) % lines]];
    struct line *start = &buf[order[0]];
    free(order);
    return start;
}

/* The chase itself: each load's address is the previous load's value. */
static struct line *chase(struct line *p, uint64_t loads)
{
    for (uint64_t i = 0; i < loads; i++)
        p = p->next;
    return p;
}

static void run(size_t bytes, bool huge, uint64_t loads, int reps)
{
    const size_t huge_page = (size_t)2 << 20;
    size_t lines = bytes / LINE;
    /* Huge-page aligned either way so only the advice differs. */
    struct line *buf = aligned_alloc(huge_page, lines * sizeof(*buf));
    if (!buf) {
        fprintf(stderr, "limit: cannot allocate %zu bytes\n", bytes);
        exit(2);
    }
    /* Advice only: if the kernel has no huge pages to give, the row shows. */
    madvise(buf, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    /* Touch every page first so page faults stay out of the timing. */
    memset(buf, 0, lines * sizeof(*buf));
    struct line *p = link_cycle(buf, lines, 0x6c696d6974ull ^ bytes);

    p = chase(p, loads / 4); /* warm-up: caches and TLB in steady state */
    double ns[16];
    for (int r = 0; r < reps; r++) {
        uint64_t t0 = bench_now_ns();
        p = chase(p, loads);
        ns[r] = (double)(bench_now_ns() - t0) / (double)loads;
    }
    bench_sink += (uintptr_t)p;
    bench_row("limit", huge ? "memory" : "memory_4k", "chase", bytes, 1,
              bench_median(ns, reps), -1);
    free(buf);
}

int main(int argc, char **argv)
{
    const size_t mib = (size_t)1 << 20;
    /* 2^21 loads: about a third of a second at DRAM latency. */
    const uint64_t loads = (uint64_t)1 << 21;

    if (bench_quick(argc, argv)) {
        for (size_t bytes = 64 * mib; bytes <= 256 * mib; bytes *= 4) {
            run(bytes, true, loads / 2, 3);
            run(bytes, false, loads / 2, 3);
        }
        return 0;
    }
    for (size_t bytes = mib; bytes <= 1024 * mib; bytes *= 2) {
        run(bytes, true, loads, 5);
        run(bytes, false, loads, 5);
    }
    return 0;
}
