/*
 * Driver for the planted-fault suite (tests/test_build_planted.c): a
 * deterministic random workload over an ordered map and an extent index,
 * both tuned so that the B-skiplist index above the leaves is deep and its
 * nodes split, merge and change their separators often (4 keys per leaf,
 * promotion 1/4, index nodes of 8 entries).
 *
 * After every operation the driver runs name_check() and compares the
 * results of the operation and of a few lookups with a simple model (a
 * bitmap of keys for the map, an owner array over the address space for
 * the extent index); every few hundred operations it also walks the whole
 * list against the model. The extent index's model also answers
 * insert_hole (lowest or highest fit), which the workload calls both as an
 * operation and as a probe sized to a window's largest free run, where the
 * search depends on exact gap summaries in the index.
 *
 * It exits 0 when everything agreed, or prints the first failure and exits
 * 1: "<face> op <n> (<operation>): check: <why>" or "... lookup mismatch:
 * <what>". A crash inside the library prints "... crashed" and exits 2.
 * Two library-internal fields are read: the iterator's slot index (to find
 * the first key of a leaf) and the index's height (for the summary line).
 *
 * The test builds it once as is (it must run clean) and once per planted
 * fault, -DSLX_PLANT_..., which must make it fail. Optional argument: a
 * seed (default 1).
 */
#define _POSIX_C_SOURCE 200809L /* write */

#include "skiplist.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KPN 4
#define MAXLVL 16
#define PSHIFT 2

static uint64_t rng_state;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Uniform in [0, n). */
static unsigned long below(unsigned long n)
{
    return (unsigned long)(rnd() % n);
}

static const char *face;
static unsigned long opno;
static char opdesc[160];
static unsigned deepest; /* most index levels seen */

/* A fault that crashes the library before check() can see it: name the
 * operation (the message is built before the crash, for write()). */
static char crashmsg[256];

static void on_crash(int sig)
{
    (void)sig;
    ssize_t n = write(1, crashmsg, strlen(crashmsg));
    (void)n;
    _exit(2);
}

/* The operation under way, for the messages. */
__attribute__((format(printf, 1, 2))) static void describe(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(opdesc, sizeof(opdesc), fmt, ap);
    va_end(ap);
    snprintf(crashmsg, sizeof(crashmsg), "%s op %lu (%s): crashed\n", face,
             opno, opdesc);
}

static void fail(const char *kind, const char *msg)
{
    printf("%s op %lu (%s): %s%s\n", face, opno, opdesc, kind, msg);
    exit(1);
}

static void mismatch(const char *what)
{
    fail("lookup mismatch: ", what);
}

static void checked(int rc, const char *why)
{
    if (rc)
        fail("check: ", why);
}

/* ================================================================= map */

#define NKEYS 4096 /* keys 0, 2, 4, ..., 2 * (NKEYS - 1): odd probes miss */
#define MAP_OPS 12000
#define MAP_HIGH 3000
#define MAP_LOW 200

struct item {
    unsigned long key;
};
#define ITEM_KEY(e) ((e)->key)
SKIPLIST_DEFINE(pmap, struct item, unsigned long, ITEM_KEY, SKIPLIST_CMP_NUM,
                KPN, MAXLVL, PSHIFT)

static struct item items[NKEYS];
static bool present[NKEYS];
static size_t mcount;

/* The model's first key >= q, or NKEYS when none (as an index). */
static unsigned long model_lower(unsigned long q)
{
    unsigned long i = (q + 1) / 2;
    while (i < NKEYS && !present[i])
        i++;
    return i;
}

/* The model's last key <= q, or NKEYS when none. */
static unsigned long model_floor(unsigned long q)
{
    unsigned long i = q / 2;
    if (i >= NKEYS)
        i = NKEYS - 1;
    for (;;) {
        if (present[i])
            return i;
        if (i == 0)
            return NKEYS;
        i--;
    }
}

static void want_item(const struct item *got, unsigned long idx,
                      const char *what)
{
    const struct item *want = idx < NKEYS ? &items[idx] : NULL;
    if (got != want) {
        char m[200];
        snprintf(m, sizeof(m), "%s gave key %ld, the model key %ld", what,
                 got ? (long)got->key : -1L, want ? (long)want->key : -1L);
        mismatch(m);
    }
}

static void map_probe(const struct pmap *sl, unsigned long q)
{
    char what[64];
    snprintf(what, sizeof(what), "lower_bound(%lu)", q);
    want_item(pmap_lower_bound(sl, q), model_lower(q), what);
    snprintf(what, sizeof(what), "floor(%lu)", q);
    want_item(pmap_floor(sl, q), model_floor(q), what);
    snprintf(what, sizeof(what), "find(%lu)", q);
    want_item(pmap_find(sl, q),
              q % 2 == 0 && q / 2 < NKEYS && present[q / 2] ? q / 2 : NKEYS,
              what);
}

static void map_walk(const struct pmap *sl)
{
    struct pmap_iter it;
    struct item *e;
    unsigned long i = model_lower(0);
    size_t n = 0;
    SKIPLIST_FOREACH (pmap, sl, it, e) {
        want_item(e, i, "a walk in order");
        i = model_lower(e->key + 1);
        n++;
    }
    want_item(NULL, i, "the walk's end");
    if (n != mcount || pmap_count(sl) != mcount)
        mismatch("count differs from the model");
}

/* An element that is the first of its leaf, at or after a random key:
 * the iterator's slot index (a library-internal field) is 0 there. */
static struct item *map_leaf_first(const struct pmap *sl)
{
    struct pmap_iter it;
    struct item *e = pmap_iter_seek(&it, sl, below(2 * NKEYS));
    for (int steps = 0; e && steps <= KPN; steps++) {
        if (it.it.idx == 0)
            return e;
        e = pmap_iter_next(&it);
    }
    return pmap_first(sl);
}

static void map_erased(unsigned long idx)
{
    present[idx] = false;
    mcount--;
}

static void run_map(void)
{
    struct pmap sl;
    char why[256];
    face = "map";
    if (pmap_init(&sl, NULL, 7) != 0)
        fail("", "init failed");
    for (unsigned long i = 0; i < NKEYS; i++)
        items[i].key = 2 * i;
    size_t target = MAP_HIGH;
    for (opno = 1; opno <= MAP_OPS; opno++) {
        if (mcount >= MAP_HIGH)
            target = MAP_LOW;
        else if (mcount <= MAP_LOW)
            target = MAP_HIGH;
        bool grow = mcount == 0 || (below(10) < 8) == (mcount < target);
        unsigned long k = below(NKEYS), touched = k;
        if (grow) {
            struct item *old = NULL;
            describe("insert %lu", 2 * k);
            int rc = pmap_insert(&sl, &items[k], &old);
            if (present[k] ? rc != -EEXIST || old != &items[k] : rc != 0)
                mismatch("insert's result differs from the model");
            if (!present[k]) {
                present[k] = true;
                mcount++;
            }
        } else {
            unsigned long how = below(10);
            struct item *e = NULL;
            if (how < 4) {
                describe("erase_key %lu", 2 * k);
                int rc = pmap_erase_key(&sl, 2 * k, &e);
                if (present[k] ? rc != 0 || e != &items[k] : rc != -ENOENT)
                    mismatch("erase_key's result differs from the model");
                if (present[k])
                    map_erased(k);
            } else if (how < 8) {
                e = map_leaf_first(&sl);
                touched = e->key / 2;
                describe("erase %lu, the first key of its leaf", e->key);
                if (pmap_erase(&sl, e) != 0 || !present[touched])
                    mismatch("erase of a linked element failed");
                map_erased(touched);
            } else {
                bool front = how == 8;
                describe("pop_%s", front ? "first" : "last");
                unsigned long want =
                    front ? model_lower(0) : model_floor(2 * NKEYS);
                e = front ? pmap_pop_first(&sl) : pmap_pop_last(&sl);
                want_item(e, want, opdesc);
                touched = want;
                map_erased(want);
            }
        }
        checked(pmap_check(&sl, why, sizeof(why)), why);
        if (sl.sl.aux && sl.sl.aux->top > deepest)
            deepest = sl.sl.aux->top;
        map_probe(&sl, 2 * touched);
        map_probe(&sl, 2 * touched + 1);
        for (int p = 0; p < 4; p++)
            map_probe(&sl, below(2 * NKEYS + 2));
        if (opno % 256 == 0)
            map_walk(&sl);
    }
    map_walk(&sl);
    pmap_destroy(&sl, NULL, NULL);
}

/* ============================================================== extent */

#define SPACE 32768u /* the address space the workload uses: [0, SPACE) */
#define NEXT 2048    /* extents in the pool */
#define EXT_OPS 12000
#define EXT_HIGH 1400
#define EXT_LOW 150
#define MAXSIZE 32u
#define WINDOW 2048u

struct ext {
    unsigned long start, size;
};
SKIPLIST_EXTENT_DEFINE(pext, struct ext, unsigned long, start, size, KPN,
                       MAXLVL, PSHIFT)

static struct ext exts[NEXT];
static uint16_t owner[SPACE]; /* 1 + the extent's index, 0 when free */
static unsigned linked[NEXT], nlinked;
static unsigned slot_of[NEXT];
static bool is_linked[NEXT];

static bool span_free(unsigned long s, unsigned long size)
{
    for (unsigned long p = s; p < s + size; p++)
        if (owner[p])
            return false;
    return true;
}

static void ext_own(unsigned x, bool on)
{
    for (unsigned long p = exts[x].start; p < exts[x].start + exts[x].size; p++)
        owner[p] = on ? (uint16_t)(x + 1) : 0;
    is_linked[x] = on;
    if (on) {
        slot_of[x] = nlinked;
        linked[nlinked++] = x;
    } else {
        unsigned y = linked[--nlinked];
        linked[slot_of[x]] = y;
        slot_of[y] = slot_of[x];
    }
}

/* The model's answer to insert_hole: the lowest (highest) multiple of
 * align whose extent of size fits free in [lo, hi]; false when none. A
 * candidate that meets a used point skips past that point's extent. */
static bool model_hole(unsigned long size, unsigned long align,
                       unsigned long lo, unsigned long hi, bool highest,
                       unsigned long *at)
{
    if (hi - lo < size - 1)
        return false;
    unsigned long first = (lo + align - 1) / align * align;
    unsigned long last = (hi - size + 1) / align * align;
    if (first > last)
        return false;
    unsigned long s = highest ? last : first;
    for (;;) {
        unsigned long p = s;
        while (p < s + size && !owner[p])
            p++;
        if (p == s + size) {
            *at = s;
            return true;
        }
        const struct ext *u = &exts[owner[p] - 1]; /* the extent in the way */
        if (highest) {
            if (u->start < first + size)
                return false;
            s = (u->start - size) / align * align;
            if (s < first)
                return false;
        } else {
            s = (u->start + u->size + align - 1) / align * align;
            if (s > last)
                return false;
        }
    }
}

static void want_ext(const struct ext *got, unsigned long p, const char *what)
{
    const struct ext *want = p < SPACE && owner[p] ? &exts[owner[p] - 1] : NULL;
    if (got != want) {
        char m[200];
        snprintf(m, sizeof(m), "%s at %lu gave extent at %ld, the model %ld",
                 what, p, got ? (long)got->start : -1L,
                 want ? (long)want->start : -1L);
        mismatch(m);
    }
}

static void ext_probe(const struct pext *sl, unsigned long p)
{
    want_ext(pext_lookup(sl, p), p, "lookup");
}

static void ext_walk(const struct pext *sl)
{
    struct pext_iter it;
    struct ext *e;
    unsigned long p = 0;
    size_t n = 0;
    SKIPLIST_FOREACH (pext, sl, it, e) {
        while (p < SPACE && !owner[p])
            p++;
        want_ext(e, p, "a walk in order");
        p = e->start + e->size;
        n++;
    }
    while (p < SPACE && !owner[p])
        p++;
    want_ext(NULL, p, "the walk's end");
    if (n != nlinked || pext_count(sl) != nlinked)
        mismatch("count differs from the model");
}

/* As map_leaf_first, for an extent. */
static struct ext *ext_leaf_first(const struct pext *sl)
{
    struct pext_iter it;
    struct ext *e = pext_iter_seek(&it, sl, below(SPACE));
    for (int steps = 0; e && steps <= KPN; steps++) {
        if (it.it.idx == 0)
            return e;
        e = pext_iter_next(&it);
    }
    return pext_first(sl);
}

static void ext_insert(struct pext *sl, unsigned x)
{
    struct ext *e = &exts[x];
    e->size = 1 + below(MAXSIZE);
    if (below(10) < 7) {
        unsigned long align = 1ul << below(5);
        unsigned long lo = below(SPACE - MAXSIZE);
        unsigned long hi = lo + e->size - 1 + below(WINDOW);
        if (hi >= SPACE)
            hi = SPACE - 1;
        int flags = below(2) ? SKIPLIST_HOLE_HIGHEST : SKIPLIST_HOLE_LOWEST;
        describe("insert_hole size %lu align %lu in [%lu, %lu] %s", e->size,
                 align, lo, hi, flags ? "highest" : "lowest");
        unsigned long at = 0;
        bool fits = model_hole(e->size, align, lo, hi,
                               flags == SKIPLIST_HOLE_HIGHEST, &at);
        e->start = SPACE + 1; /* must be written on success only */
        int rc = pext_insert_hole(sl, e, align, lo, hi, flags);
        if (fits ? rc != 0 || e->start != at
                 : rc != -ENOSPC || e->start != SPACE + 1) {
            char m[160];
            snprintf(m, sizeof(m),
                     "insert_hole gave %d at %ld, the model %s at %lu", rc,
                     rc ? -1L : (long)e->start, fits ? "fits" : "-ENOSPC", at);
            mismatch(m);
        }
        if (fits)
            ext_own(x, true);
    } else {
        e->start = below(SPACE - e->size + 1);
        describe("insert [%lu, +%lu)", e->start, e->size);
        struct ext *clash = NULL;
        int rc = pext_insert(sl, e, &clash);
        bool fits = span_free(e->start, e->size);
        if (fits ? rc != 0 : rc != -EEXIST)
            mismatch("insert's result differs from the model");
        if (!fits && (!clash || clash->start >= e->start + e->size ||
                      clash->start + clash->size <= e->start ||
                      owner[clash->start] != clash - exts + 1))
            mismatch("insert's clash is not an overlapping extent");
        if (fits)
            ext_own(x, true);
    }
}

/* insert_hole in a random window, for a size that only the window's
 * largest free runs can take: the search trusts the index's gap summaries
 * to skip subtrees, so a summary that says too little shows here as a
 * missed hole. The probe extent leaves again at once; the list is checked
 * after either change. */
static struct ext hole_probe;

static void ext_hole_probe(struct pext *sl)
{
    char why[256];
    unsigned long lo = below(SPACE), hi = lo + 1024 + below(8192);
    unsigned long run = 0, best = 0, at = 0;
    if (hi >= SPACE)
        hi = SPACE - 1;
    for (unsigned long p = lo; p <= hi; p++) {
        run = owner[p] ? 0 : run + 1;
        if (run > best)
            best = run;
    }
    if (best == 0)
        return;
    hole_probe.size = best - below(best < 3 ? best : 3);
    bool highest = below(2);
    describe("probe insert_hole size %lu in [%lu, %lu] %s", hole_probe.size, lo,
             hi, highest ? "highest" : "lowest");
    bool fits = model_hole(hole_probe.size, 1, lo, hi, highest, &at);
    int rc = pext_insert_hole(sl, &hole_probe, 1, lo, hi,
                              highest ? SKIPLIST_HOLE_HIGHEST
                                      : SKIPLIST_HOLE_LOWEST);
    if (!fits || rc != 0 || hole_probe.start != at) {
        char m[160];
        snprintf(m, sizeof(m), "insert_hole gave %d at %ld, the model %lu", rc,
                 rc ? -1L : (long)hole_probe.start, at);
        mismatch(m);
    }
    checked(pext_check(sl, why, sizeof(why)), why);
    describe("erase the probe [%lu, +%lu)", hole_probe.start, hole_probe.size);
    if (pext_erase(sl, &hole_probe) != 0)
        mismatch("erase of the probe failed");
    checked(pext_check(sl, why, sizeof(why)), why);
}

static void run_extent(void)
{
    struct pext sl;
    char why[256];
    face = "extent";
    if (pext_init(&sl, NULL, 11) != 0)
        fail("", "init failed");
    size_t target = EXT_HIGH;
    for (opno = 1; opno <= EXT_OPS; opno++) {
        if (nlinked >= EXT_HIGH)
            target = EXT_LOW;
        else if (nlinked <= EXT_LOW)
            target = EXT_HIGH;
        bool grow = nlinked == 0 || (below(10) < 8) == (nlinked < target);
        struct ext *e = NULL;
        if (grow) {
            unsigned x = (unsigned)below(NEXT);
            while (is_linked[x])
                x = (x + 1) % NEXT; /* a free element */
            ext_insert(&sl, x);
            e = &exts[x];
        } else {
            unsigned long how = below(10);
            if (how < 4) {
                e = &exts[linked[below(nlinked)]];
                describe("erase [%lu, +%lu)", e->start, e->size);
                if (pext_erase(&sl, e) != 0)
                    mismatch("erase of a linked extent failed");
            } else if (how < 8) {
                e = ext_leaf_first(&sl);
                describe("erase [%lu, +%lu), the first of its leaf", e->start,
                         e->size);
                if (pext_erase(&sl, e) != 0)
                    mismatch("erase of a linked extent failed");
            } else {
                bool front = how == 8;
                describe("pop_%s", front ? "first" : "last");
                e = front ? pext_pop_first(&sl) : pext_pop_last(&sl);
                unsigned long p = 0;
                if (front)
                    while (p < SPACE && !owner[p])
                        p++;
                else
                    for (p = SPACE - 1; p > 0 && !owner[p];)
                        p--;
                want_ext(e, p, opdesc);
            }
            if (!e || e < exts || e >= exts + NEXT ||
                owner[e->start] != e - exts + 1)
                mismatch("removed an extent the model does not hold");
            ext_own((unsigned)(e - exts), false);
        }
        checked(pext_check(&sl, why, sizeof(why)), why);
        if (sl.sl.aux && sl.sl.aux->top > deepest)
            deepest = sl.sl.aux->top;
        if (e->start < SPACE) {
            if (e->start > 0)
                ext_probe(&sl, e->start - 1);
            ext_probe(&sl, e->start);
            ext_probe(&sl, e->start + e->size - 1);
            ext_probe(&sl, e->start + e->size);
        }
        for (int p = 0; p < 4; p++)
            ext_probe(&sl, below(SPACE + 8));
        ext_hole_probe(&sl);
        if (opno % 256 == 0)
            ext_walk(&sl);
    }
    ext_walk(&sl);
    pext_destroy(&sl, NULL, NULL);
}

int main(int argc, char **argv)
{
    signal(SIGSEGV, on_crash);
    signal(SIGBUS, on_crash);
    signal(SIGABRT, on_crash);
    rng_state = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
    run_map();
    run_extent();
    printf("clean: %d map and %d extent operations checked, up to %u index "
           "levels\n",
           MAP_OPS, EXT_OPS, deepest);
    return 0;
}
