/*
 * rcu_extents: one IOVA space shared by many CPUs, on skiplist_rcu.h's
 * extent face.
 *
 * examples/iova.c allocates device addresses from one thread. A real
 * IOMMU driver maps and unmaps DMA buffers from every CPU at once, while
 * the fault handler and debug walkers translate addresses back to
 * mappings. Here writer threads play the drivers: each maps buffers of 1-64
 * pages with insert_hole (top-down, aligned to the size rounded up to a
 * power of two, as Linux does) and unmaps random ones of its own. Reader
 * threads play the translators: point lookups, lookups of buffers they
 * know to be mapped, short in-order walks, overlap queries and full
 * walks, all lock-free beside the writers. All writers allocate top-down
 * in one index, as Linux's allocator does beneath its per-CPU caches, so
 * they contend for the same leaves: stats.retries counts the races lost.
 *
 * An unmapped buffer may still be in a reader's hands, so it is freed only
 * after a grace period. Even-numbered writers hand each one to call_rcu
 * (an rcu_head in the buffer), odd-numbered writers collect a batch and
 * free it after one skiplist_rcu_synchronize(): the two ways to do it.
 *
 * Every thread checks what it sees, and once they are done the main
 * thread audits the index against the writers' records and a page map;
 * the report gives each check's verdict, and the exit status is nonzero
 * if any failed.
 * Usage: rcu_extents [seconds [readers [writers]]] (default 1 2 2).
 */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier, clock_gettime */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "skiplist_rcu.h"

#define PAGE 4096u
#define IOVA_LO ((uint64_t)PAGE)        /* page 0 never mapped */
#define IOVA_HI ((uint64_t)0xffffffffu) /* 32-bit DMA mask, inclusive */
#define NPAGES ((IOVA_HI + 1) / PAGE)
#define MAX_PAGES 64u     /* largest buffer */
#define LIVE_TARGET 8192u /* buffers one writer keeps mapped, at most */
#define BATCH 256u        /* buffers per batched grace period */
#define WALK_MAX 64u      /* extents per short walk */
#define MAX_READERS 64u
#define MAX_WRITERS 16u

struct buffer {
    uint64_t iova; /* START: device address */
    uint64_t len;  /* SIZE: bytes, a whole number of pages */
    /* Set before the unmap starts: a reader that misses this buffer, or
     * sees it overlap another, knows the unmap (not the list) explains it. */
    atomic_bool dying;
    uint32_t owner; /* writer index */
    uint32_t slot;  /* index in the owner's live[] */
    struct rcu_head rcu;
};

SKIPLIST_RCU_EXTENT_DEFINE(iova_index, struct buffer, uint64_t, iova, len,
                           SKIPLIST_RCU_DEFAULTS)

/* Each thread's struct on its own cache lines: counters bumped on every
 * operation must not share a line with another thread's. */
struct writer {
    _Alignas(64) pthread_t tid;
    uint32_t id;
    bool batched; /* reclaim by batch + synchronize, not call_rcu */
    uint64_t rng;
    /* The writer's own record of what it mapped. Readers sample it to
     * pick buffers they know are mapped, hence atomic slots. */
    _Atomic(struct buffer *) live[LIVE_TARGET];
    atomic_uint nlive;
    uint32_t n; /* = nlive, the writer's private copy */
    struct buffer *retired[BATCH];
    uint32_t nretired;
    struct buffer *scratch[LIVE_TARGET]; /* for sorting the records */
    unsigned long prefilled, allocs, frees, enospc, record_checks;
    double secs;
};

struct reader {
    _Alignas(64) pthread_t tid;
    uint64_t rng;
    unsigned long lookups, hits, known, known_raced, walks, walked;
    unsigned long full_walks, full_walked, queries, raced_overlaps;
    double secs;
};

static struct iova_index idx;
static struct writer writers[MAX_WRITERS];
static struct reader readers[MAX_READERS];
static uint32_t nwriters = 2, nreaders = 2;
static pthread_barrier_t start_line;
static atomic_bool stop;
/* One bit per page, set while a buffer maps it: an allocation that finds
 * one of its bits set overlaps a live buffer, whichever writer owns it. */
static _Atomic uint64_t pagemap[NPAGES / 64];
static atomic_ulong reclaimed, retired_by_call_rcu, retired_in_batches;

/* What the program checks; each failure is counted against one. */
enum check {
    C_LOOKUP,  /* a lookup's result contains its point */
    C_KNOWN,   /* a lookup inside a mapped buffer finds it */
    C_ORDER,   /* walks: starts strictly increase, within the query */
    C_OVERLAP, /* walks: neighbours overlap only around an unmap */
    C_PLACED,  /* allocations aligned and inside the window */
    C_PAGES,   /* allocations over no live buffer's pages */
    C_RECORDS, /* a writer's own records never overlap */
    C_ERRORS,  /* insert_hole and erase return what they should */
    C_FINAL,   /* the quiescent walk against the records */
    C_COUNT,   /* count() against the walk and the records */
    C_CHECK,   /* check() */
    C_STATS,   /* stats plausible */
    C_HOLES,   /* insert_hole, quiescent, against the page map */
    C_RECLAIM, /* every call_rcu callback ran */
    NCHECKS
};
static atomic_ulong failures[NCHECKS];

__attribute__((format(printf, 2, 3))) static void fail(enum check c,
                                                       const char *fmt, ...)
{
    /* The first few messages say enough. */
    if (atomic_fetch_add(&failures[c], 1) >= 3)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("rcu_extents: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* One line of the report: the check's verdict, then what it covered. */
__attribute__((format(printf, 2, 3))) static void verdict(enum check c,
                                                          const char *fmt, ...)
{
    unsigned long n = atomic_load(&failures[c]);
    if (n)
        printf("  FAILED %lu times: ", n);
    else
        printf("  ok: ");
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

static uint64_t rnd(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t rnd_below(uint64_t *s, uint64_t n)
{
    return rnd(s) % n;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t pow2_ceil(uint64_t x)
{
    uint64_t p = 1;
    while (p < x)
        p <<= 1;
    return p;
}

static bool contains(const struct buffer *b, uint64_t point)
{
    return b->iova <= point && point - b->iova < b->len;
}

static uint64_t last_byte(const struct buffer *b)
{
    return b->iova + (b->len - 1);
}

static bool is_dying(const struct buffer *b)
{
    return atomic_load(&b->dying);
}

/* ------------------------------------------------------------- writers */

/* Mostly small DMA buffers, some up to 64 pages. */
static uint64_t buffer_pages(uint64_t *rng)
{
    uint64_t k = rnd_below(rng, 100);
    if (k < 50)
        return 1 + rnd_below(rng, 2);
    if (k < 80)
        return 3 + rnd_below(rng, 14);
    return 17 + rnd_below(rng, MAX_PAGES - 16);
}

/* A buffer's pages in the page map: one word holds them all, because a
 * buffer of at most 64 pages is aligned to its size's power of two. */
static uint64_t page_mask(const struct buffer *b, size_t *word)
{
    uint64_t first = b->iova / PAGE, pages = b->len / PAGE;
    *word = (size_t)(first / 64);
    if (pages == 64)
        return ~UINT64_C(0);
    return ((UINT64_C(1) << pages) - 1) << (first % 64);
}

static void claim_pages(struct writer *w, const struct buffer *b)
{
    size_t word;
    uint64_t mask = page_mask(b, &word);
    uint64_t old = atomic_fetch_or(&pagemap[word], mask);
    if (old & mask)
        fail(C_PAGES,
             "writer %u: [%#" PRIx64 ", +%#" PRIx64 "] overlaps a "
             "live buffer",
             w->id, b->iova, b->len);
}

static void release_pages(struct writer *w, const struct buffer *b)
{
    size_t word;
    uint64_t mask = page_mask(b, &word);
    uint64_t old = atomic_fetch_and(&pagemap[word], ~mask);
    if ((old & mask) != mask)
        fail(C_PAGES, "writer %u: pages of %#" PRIx64 " were not all mapped",
             w->id, b->iova);
}

static void reclaim(struct rcu_head *head)
{
    free((char *)head - offsetof(struct buffer, rcu));
    atomic_fetch_add(&reclaimed, 1);
}

/* No reader that could still see the batch's buffers is left after one
 * grace period. Called outside any read-side section. */
static void free_batch(struct writer *w)
{
    if (w->nretired == 0)
        return;
    skiplist_rcu_synchronize();
    for (uint32_t i = 0; i < w->nretired; i++)
        free(w->retired[i]);
    atomic_fetch_add(&retired_in_batches, w->nretired);
    w->nretired = 0;
}

static void retire(struct writer *w, struct buffer *b)
{
    if (!w->batched) {
        atomic_fetch_add(&retired_by_call_rcu, 1);
        call_rcu(&b->rcu, reclaim);
        return;
    }
    w->retired[w->nretired++] = b;
    if (w->nretired == BATCH)
        free_batch(w);
}

/* Unmap live[i]: dying first, then out of the records and the page map,
 * then out of the index, and freed after a grace period. */
static void unmap(struct writer *w, uint32_t i)
{
    struct buffer *b = atomic_load_explicit(&w->live[i], memory_order_relaxed);
    atomic_store(&b->dying, true);
    struct buffer *last =
        atomic_load_explicit(&w->live[w->n - 1], memory_order_relaxed);
    last->slot = i;
    atomic_store_explicit(&w->live[i], last, memory_order_release);
    atomic_store_explicit(&w->live[w->n - 1], NULL, memory_order_release);
    atomic_store(&w->nlive, --w->n);
    release_pages(w, b);
    int r = iova_index_erase(&idx, b);
    if (r != 0)
        fail(C_ERRORS, "writer %u: erase(%#" PRIx64 ") = %d", w->id, b->iova,
             r);
    w->frees++;
    retire(w, b);
}

static bool placed_well(const struct buffer *b, uint64_t align)
{
    return b->iova % align == 0 && b->iova >= IOVA_LO &&
           last_byte(b) <= IOVA_HI;
}

static void record(struct writer *w, struct buffer *b, uint64_t align)
{
    if (!placed_well(b, align))
        fail(C_PLACED, "writer %u: [%#" PRIx64 ", +%#" PRIx64 "] misplaced",
             w->id, b->iova, b->len);
    claim_pages(w, b);
    b->slot = w->n;
    atomic_store_explicit(&w->live[w->n], b, memory_order_release);
    atomic_store(&w->nlive, ++w->n);
    w->allocs++;
}

/* Map one buffer, highest aligned hole first. Out of space, the writer
 * unmaps one of its own and tries again, as a driver waits for DMA. */
static void map_one(struct writer *w)
{
    struct buffer *b = calloc(1, sizeof(*b));
    if (!b) {
        fail(C_ERRORS, "writer %u: out of memory", w->id);
        return;
    }
    uint64_t pages = buffer_pages(&w->rng), align = pow2_ceil(pages) * PAGE;
    b->len = pages * PAGE;
    b->owner = w->id;
    int r;
    while ((r = iova_index_insert_hole(&idx, b, align, IOVA_LO, IOVA_HI,
                                       SKIPLIST_HOLE_HIGHEST)) == -ENOSPC &&
           w->n != 0) {
        w->enospc++;
        unmap(w, (uint32_t)rnd_below(&w->rng, w->n));
    }
    if (r == 0) {
        record(w, b, align);
        return;
    }
    if (r == -ENOSPC) /* the others hold the space, we hold nothing */
        w->enospc++;
    else
        fail(C_ERRORS, "writer %u: insert_hole = %d", w->id, r);
    free(b); /* never inserted: no reader can hold it */
}

static int by_iova(const void *a, const void *b)
{
    uint64_t x = (*(struct buffer *const *)a)->iova;
    uint64_t y = (*(struct buffer *const *)b)->iova;
    return (x > y) - (x < y);
}

/* No two buffers in the list overlap, sorted by address. */
static unsigned long count_overlaps(struct buffer **v, size_t n)
{
    unsigned long overlaps = 0;
    qsort(v, n, sizeof(*v), by_iova);
    for (size_t i = 1; i < n; i++)
        overlaps += v[i]->iova <= last_byte(v[i - 1]);
    return overlaps;
}

/* The writer's own records never overlap each other. */
static void check_records(struct writer *w)
{
    for (uint32_t i = 0; i < w->n; i++)
        w->scratch[i] = atomic_load_explicit(&w->live[i], memory_order_relaxed);
    if (count_overlaps(w->scratch, w->n))
        fail(C_RECORDS, "writer %u: its own buffers overlap", w->id);
    w->record_checks++;
}

static void *writer_main(void *arg)
{
    struct writer *w = arg;
    rcu_register_thread();
    /* Map half the target before the clock starts, so that the timed
     * phase is steady traffic rather than a fill. Bounded: a full space
     * could keep n from growing. */
    for (uint32_t i = 0; i < LIVE_TARGET && w->n < LIVE_TARGET / 2; i++)
        map_one(w);
    w->prefilled = w->n;
    w->allocs = w->frees = w->enospc = 0;
    pthread_barrier_wait(&start_line);
    double t0 = now();
    for (unsigned long op = 1;
         !atomic_load_explicit(&stop, memory_order_relaxed); op++) {
        /* Wander between half the target and the target. */
        bool grow = w->n < LIVE_TARGET / 2 ||
                    (w->n < LIVE_TARGET && rnd_below(&w->rng, 2));
        if (grow)
            map_one(w);
        else
            unmap(w, (uint32_t)rnd_below(&w->rng, w->n));
        if (op % 4096 == 0)
            check_records(w);
    }
    w->secs = now() - t0;
    check_records(w);
    free_batch(w);
    rcu_unregister_thread();
    return NULL;
}

/* ------------------------------------------------------------- readers */

static uint64_t random_point(uint64_t *rng)
{
    return IOVA_LO + rnd_below(rng, IOVA_HI - IOVA_LO + 1);
}

/* Whatever lookup returns contains the point. */
static void lookup_any(struct reader *rd)
{
    uint64_t p = random_point(&rd->rng);
    skiplist_rcu_read_lock();
    struct buffer *b = iova_index_lookup(&idx, p);
    if (b && !contains(b, p))
        fail(C_LOOKUP,
             "lookup(%#" PRIx64 ") returned [%#" PRIx64 ", +%#" PRIx64 "]", p,
             b->iova, b->len);
    rd->hits += b != NULL;
    rd->lookups++;
    skiplist_rcu_read_unlock();
}

/* A buffer a writer has mapped and not begun to unmap is found from any
 * address inside it. */
static void lookup_known(struct reader *rd)
{
    struct writer *w = &writers[rnd_below(&rd->rng, nwriters)];
    uint32_t n = atomic_load(&w->nlive);
    if (n == 0)
        return;
    skiplist_rcu_read_lock();
    struct buffer *b = atomic_load_explicit(&w->live[rnd_below(&rd->rng, n)],
                                            memory_order_acquire);
    if (b && !is_dying(b)) {
        uint64_t p = b->iova + rnd_below(&rd->rng, b->len);
        struct buffer *got = iova_index_lookup(&idx, p);
        if (got != b && !is_dying(b))
            fail(C_KNOWN, "lookup(%#" PRIx64 ") missed a mapped buffer", p);
        else if (got != b)
            rd->known_raced++;
        rd->known++;
        rd->lookups++;
    }
    skiplist_rcu_read_unlock();
}

/* One step of a walk: starts strictly increase; neighbours overlap only
 * when one of them is being unmapped (the walk saw it before the unmap
 * and the other after). */
static void walk_step(struct reader *rd, const struct buffer *prev,
                      const struct buffer *b)
{
    if (b->len == 0 || b->len % PAGE)
        fail(C_ORDER, "walk: extent %#" PRIx64 " has size %#" PRIx64, b->iova,
             b->len);
    if (!prev)
        return;
    if (b->iova <= prev->iova)
        fail(C_ORDER, "walk: %#" PRIx64 " after %#" PRIx64, b->iova,
             prev->iova);
    else if (b->iova <= last_byte(prev)) {
        if (!is_dying(prev) && !is_dying(b))
            fail(C_OVERLAP, "walk: %#" PRIx64 " overlaps %#" PRIx64, b->iova,
                 prev->iova);
        rd->raced_overlaps++;
    }
}

/* A short walk from a random address. */
static void walk_some(struct reader *rd)
{
    uint64_t from = random_point(&rd->rng);
    struct iova_index_iter it;
    const struct buffer *prev = NULL;
    unsigned n = 0;
    skiplist_rcu_read_lock();
    for (struct buffer *b = iova_index_iter_seek(&it, &idx, from);
         b && n < WALK_MAX; b = iova_index_iter_next(&it), n++) {
        if (b->iova < from)
            fail(C_ORDER, "seek(%#" PRIx64 ") gave %#" PRIx64, from, b->iova);
        walk_step(rd, prev, b);
        prev = b;
    }
    skiplist_rcu_read_unlock();
    rd->walks++;
    rd->walked += n;
}

/* Every extent of an overlap query overlaps the query's range [lo, hi],
 * and so does first_overlap's answer. */
static void query_overlaps(struct reader *rd)
{
    uint64_t lo = random_point(&rd->rng);
    uint64_t hi = lo + rnd_below(&rd->rng, 256 * PAGE);
    if (hi > IOVA_HI)
        hi = IOVA_HI;
    struct iova_index_iter it;
    const struct buffer *prev = NULL;
    struct buffer *first = NULL;
    skiplist_rcu_read_lock();
    int r = iova_index_first_overlap(&idx, lo, hi, &first);
    if ((r != 0 && r != -ENOENT) ||
        (r == 0 && (first->iova > hi || last_byte(first) < lo)))
        fail(C_ORDER, "first_overlap(%#" PRIx64 ", %#" PRIx64 ") wrong", lo,
             hi);
    for (struct buffer *b = iova_index_iter_overlap(&it, &idx, lo, hi); b;
         b = iova_index_iter_next_overlap(&it)) {
        if (b->iova > hi || last_byte(b) < lo)
            fail(C_ORDER,
                 "overlap query [%#" PRIx64 ", %#" PRIx64 "] gave [%#" PRIx64
                 ", +%#" PRIx64 "]",
                 lo, hi, b->iova, b->len);
        walk_step(rd, prev, b);
        prev = b;
    }
    skiplist_rcu_read_unlock();
    rd->queries++;
}

/* The whole index in one read-side section. */
static void walk_all(struct reader *rd)
{
    struct iova_index_iter it;
    const struct buffer *prev = NULL;
    skiplist_rcu_read_lock();
    for (struct buffer *b = iova_index_iter_first(&it, &idx); b;
         b = iova_index_iter_next(&it)) {
        walk_step(rd, prev, b);
        prev = b;
        rd->full_walked++;
    }
    skiplist_rcu_read_unlock();
    rd->full_walks++;
}

static void *reader_main(void *arg)
{
    struct reader *rd = arg;
    rcu_register_thread();
    pthread_barrier_wait(&start_line);
    double t0 = now();
    for (unsigned long op = 1;
         !atomic_load_explicit(&stop, memory_order_relaxed); op++) {
        uint64_t k = rnd_below(&rd->rng, 16);
        if (op % 16384 == 0)
            walk_all(rd);
        else if (k < 8)
            lookup_any(rd);
        else if (k < 13)
            lookup_known(rd);
        else if (k < 15)
            walk_some(rd);
        else
            query_overlaps(rd);
    }
    rd->secs = now() - t0;
    rcu_unregister_thread();
    return NULL;
}

/* ---------------------------------------------------------- final audit */

struct tally {
    size_t records, walked;
    uint64_t record_pages, mapped_pages;
};

/* Quiescent: every buffer the writers recorded, and nothing else, is in
 * the index, in order, without overlaps, each where its writer put it. */
static void audit_walk(struct tally *t)
{
    struct iova_index_iter it;
    const struct buffer *prev = NULL;
    skiplist_rcu_read_lock();
    for (struct buffer *b = iova_index_iter_first(&it, &idx); b;
         b = iova_index_iter_next(&it), t->walked++) {
        if (prev && b->iova <= last_byte(prev))
            fail(C_FINAL,
                 "final walk: %#" PRIx64 " after [%#" PRIx64 ", +%#" PRIx64 "]",
                 b->iova, prev->iova, prev->len);
        if (b->owner >= nwriters || b->slot >= writers[b->owner].n ||
            atomic_load(&writers[b->owner].live[b->slot]) != b)
            fail(C_FINAL, "final walk: %#" PRIx64 " is in no writer's records",
                 b->iova);
        prev = b;
    }
    skiplist_rcu_read_unlock();
}

/* The union of the writers' records: no overlaps, and the page map holds
 * exactly their pages. */
static void audit_records(struct tally *t)
{
    static struct buffer *all[MAX_WRITERS * LIVE_TARGET];
    for (uint32_t w = 0; w < nwriters; w++)
        for (uint32_t i = 0; i < writers[w].n; i++) {
            all[t->records] = atomic_load(&writers[w].live[i]);
            t->record_pages += all[t->records++]->len / PAGE;
        }
    if (count_overlaps(all, t->records))
        fail(C_FINAL, "the writers' records overlap each other");
    for (size_t i = 0; i < NPAGES / 64; i++)
        t->mapped_pages += (uint64_t)__builtin_popcountll(pagemap[i]);
    if (t->mapped_pages != t->record_pages)
        fail(C_FINAL, "page map has %" PRIu64 " pages, records %" PRIu64,
             t->mapped_pages, t->record_pages);
}

static bool page_used(uint64_t page)
{
    return (atomic_load_explicit(&pagemap[page / 64], memory_order_relaxed) >>
            (page % 64)) &
           1;
}

/* Where insert_hole must put `pages` pages aligned to `align` pages, by
 * the page map: the lowest or the highest fit's first page, 0 if none.
 * One pass: `run` counts the free pages ending at `pg`. */
static uint64_t expected_fit(uint64_t pages, uint64_t align, bool highest)
{
    uint64_t found = 0, run = 0;
    for (uint64_t pg = IOVA_LO / PAGE; pg < NPAGES; pg++) {
        run = page_used(pg) ? 0 : run + 1;
        if (run < pages)
            continue;
        uint64_t start = (pg + 1 - pages) / align * align;
        if (start + run < pg + 1)
            continue; /* the aligned start falls before the run */
        found = start;
        if (!highest)
            break;
    }
    return found;
}

/* After the churn, with no writer left, the hole search must see exactly
 * the free space the page map records: the summaries it prunes with were
 * kept up to date by every concurrent write. Returns how many probes had
 * no room. */
static unsigned long audit_holes(unsigned long *probes)
{
    static const uint64_t shapes[][2] = {/* pages, alignment in pages */
                                         {1, 1},   {2, 2},   {4, 4},   {8, 8},
                                         {16, 16}, {32, 32}, {64, 64}, {3, 1},
                                         {48, 1},  {5, 8}};
    unsigned long full = 0;
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
        for (int highest = 0; highest < 2; highest++) {
            uint64_t want = expected_fit(shapes[i][0], shapes[i][1], highest);
            struct buffer probe = {.len = shapes[i][0] * PAGE};
            int r = iova_index_insert_hole(
                &idx, &probe, shapes[i][1] * PAGE, IOVA_LO, IOVA_HI,
                highest ? SKIPLIST_HOLE_HIGHEST : SKIPLIST_HOLE_LOWEST);
            if (r == 0 && iova_index_erase(&idx, &probe) != 0)
                fail(C_HOLES, "probe not erasable");
            if (want ? r != 0 || probe.iova != want * PAGE : r != -ENOSPC)
                fail(C_HOLES,
                     "insert_hole(%" PRIu64 " pages, align %" PRIu64
                     ", %s) = %d at %#" PRIx64 ", page map says %#" PRIx64,
                     shapes[i][0], shapes[i][1], highest ? "highest" : "lowest",
                     r, r ? 0 : probe.iova, want * PAGE);
            full += want == 0;
            (*probes)++;
        }
    return full;
}

static void final_audit(void)
{
    struct tally t = {0};
    audit_records(&t);
    audit_walk(&t);
    size_t count = iova_index_count(&idx);
    if (t.walked != t.records || count != t.records)
        fail(C_COUNT, "walk %zu, count() %zu, records %zu", t.walked, count,
             t.records);
    char why[200];
    if (iova_index_check(&idx, why, sizeof(why)) != 0)
        fail(C_CHECK, "check(): %s", why);
    struct skiplist_rcu_stats st;
    iova_index_stats(&idx, &st);
    if (st.splits == 0 && t.records > 256)
        fail(C_STATS, "stats: no leaf split, yet the index outgrew a leaf");

    printf("at the end: %zu buffers (%" PRIu64 " pages) mapped\n", t.records,
           t.record_pages);
    verdict(C_FINAL,
            "full walk in order without overlaps, each buffer in "
            "its writer's records; the records overlap-free, the page map "
            "agrees");
    verdict(C_COUNT, "count() = walk = records = %zu", count);
    verdict(C_CHECK, "check() = 0");
    verdict(C_STATS,
            "stats: %" PRIu64 " writer retries, %" PRIu64
            " leaf splits, %" PRIu64 " merges",
            st.retries, st.splits, st.merges);
    unsigned long probes = 0, full = audit_holes(&probes);
    verdict(C_HOLES,
            "insert_hole's lowest and highest fits agree with the page map "
            "(%lu probes of sizes and alignments, %lu found no room)",
            probes, full);
}

static void free_buffer(struct buffer *b, void *arg)
{
    (void)arg;
    free(b);
}

/* destroy waits for the call_rcu callbacks (rcu_barrier) first: by then
 * every unmapped buffer has been freed after its grace period. */
static void teardown(void)
{
    iova_index_destroy(&idx, free_buffer, NULL);
    unsigned long done = atomic_load(&reclaimed);
    unsigned long queued = atomic_load(&retired_by_call_rcu);
    if (done != queued)
        fail(C_RECLAIM, "call_rcu reclaimed %lu of %lu", done, queued);
    verdict(C_RECLAIM,
            "freed after a grace period: %lu by call_rcu (of %lu "
            "queued), %lu in batches after skiplist_rcu_synchronize()",
            done, queued, atomic_load(&retired_in_batches));
}

/* ------------------------------------------------------------- report */

/* Per-thread rates: a kind's total over the sum of its threads' times. */
static double rate(unsigned long n, double thread_secs)
{
    return thread_secs > 0 ? (double)n / thread_secs / 1e6 : 0.0;
}

static void report_readers(void)
{
    struct reader s = {0};
    for (uint32_t i = 0; i < nreaders; i++) {
        const struct reader *r = &readers[i];
        s.lookups += r->lookups;
        s.hits += r->hits;
        s.known += r->known;
        s.known_raced += r->known_raced;
        s.walks += r->walks;
        s.walked += r->walked;
        s.full_walks += r->full_walks;
        s.full_walked += r->full_walked;
        s.queries += r->queries;
        s.raced_overlaps += r->raced_overlaps;
        s.secs += r->secs;
    }
    printf("readers: %.2f M lookups/s, %.3f M short walks/s, %.3f M overlap "
           "queries/s per thread (%.2f M lookups/s in all)\n",
           rate(s.lookups, s.secs), rate(s.walks, s.secs),
           rate(s.queries, s.secs), rate(s.lookups, s.secs) * nreaders);
    verdict(C_LOOKUP,
            "every lookup's result contains its point (%lu "
            "lookups, %lu hit a buffer)",
            s.lookups, s.hits);
    verdict(C_KNOWN,
            "a lookup inside a buffer known to be mapped finds it "
            "(%lu; %lu more raced the buffer's unmap)",
            s.known - s.known_raced, s.known_raced);
    verdict(C_ORDER,
            "walks in strictly increasing order, within their "
            "bounds (%lu short walks of %lu extents, %lu overlap queries, "
            "%lu full walks of %.0f extents on average)",
            s.walks, s.walked, s.queries, s.full_walks,
            s.full_walks ? (double)s.full_walked / (double)s.full_walks : 0.0);
    verdict(C_OVERLAP,
            "neighbours in a walk never overlap, except around an "
            "unmap (%lu times)",
            s.raced_overlaps);
}

static void report_writers(void)
{
    unsigned long prefilled = 0, allocs = 0, frees = 0, enospc = 0;
    unsigned long checks = 0;
    double secs = 0;
    for (uint32_t i = 0; i < nwriters; i++) {
        const struct writer *w = &writers[i];
        prefilled += w->prefilled;
        allocs += w->allocs;
        frees += w->frees;
        enospc += w->enospc;
        checks += w->record_checks;
        secs += w->secs;
    }
    printf("writers: %.3f M allocations/s, %.3f M frees/s per thread (%lu "
           "allocations, %lu frees, %lu -ENOSPC in all, after %lu mapped "
           "untimed)\n",
           rate(allocs, secs), rate(frees, secs), allocs, frees, enospc,
           prefilled);
    verdict(C_PLACED, "every allocation aligned and inside the window");
    verdict(C_PAGES, "no allocation over a live buffer's pages (page map, "
                     "all writers)");
    verdict(C_RECORDS, "each writer's own records overlap-free (%lu checks)",
            checks);
    verdict(C_ERRORS, "insert_hole and erase returned 0 (or -ENOSPC)");
}

/* ---------------------------------------------------------------- main */

static bool start_threads(void)
{
    if (pthread_barrier_init(&start_line, NULL, nreaders + nwriters + 1))
        return false;
    for (uint32_t i = 0; i < nwriters; i++) {
        writers[i].id = i;
        writers[i].batched = i % 2 == 1;
        writers[i].rng = 1000 + i;
        if (pthread_create(&writers[i].tid, NULL, writer_main, &writers[i]))
            return false;
    }
    for (uint32_t i = 0; i < nreaders; i++) {
        readers[i].rng = 2000 + i;
        if (pthread_create(&readers[i].tid, NULL, reader_main, &readers[i]))
            return false;
    }
    return true;
}

static void run_for(double secs)
{
    pthread_barrier_wait(&start_line);
    struct timespec ts = {(time_t)secs,
                          (long)((secs - (double)(time_t)secs) * 1e9)};
    nanosleep(&ts, NULL);
    atomic_store(&stop, true);
    for (uint32_t i = 0; i < nwriters; i++)
        pthread_join(writers[i].tid, NULL);
    for (uint32_t i = 0; i < nreaders; i++)
        pthread_join(readers[i].tid, NULL);
}

static bool parse_args(int argc, char **argv, double *secs)
{
    if (argc > 1)
        *secs = atof(argv[1]);
    if (argc > 2)
        nreaders = (uint32_t)atoi(argv[2]);
    if (argc > 3)
        nwriters = (uint32_t)atoi(argv[3]);
    return *secs > 0 && *secs <= 60 && nreaders <= MAX_READERS &&
           nwriters >= 1 && nwriters <= MAX_WRITERS;
}

int main(int argc, char **argv)
{
    double secs = 1.0;
    if (!parse_args(argc, argv, &secs)) {
        fprintf(stderr,
                "usage: rcu_extents [seconds (0-60] [readers (0-%u) "
                "[writers (1-%u)]]]\n",
                MAX_READERS, MAX_WRITERS);
        return 2;
    }
    rcu_register_thread();
    if (iova_index_init(&idx, NULL, 7) != 0 || !start_threads()) {
        fprintf(stderr, "rcu_extents: cannot start\n");
        return 1;
    }
    printf("%u readers, %u writers for %.1f s; IOVA window [%#" PRIx64
           ", %#" PRIx64 "], buffers of 1-%u pages, top-down\n",
           nreaders, nwriters, secs, IOVA_LO, IOVA_HI, MAX_PAGES);
    run_for(secs);
    report_readers();
    report_writers();
    final_audit();
    teardown();
    rcu_unregister_thread();
    unsigned long failed = 0;
    for (int c = 0; c < NCHECKS; c++)
        failed += atomic_load(&failures[c]);
    printf("self-checks: %s\n", failed ? "FAILED" : "all passed");
    return failed ? 1 : 0;
}
