/*
 * extent_map: a file's logical-to-physical block map on the extent face,
 * in the manner of btrfs's in-memory extent_map.
 *
 * Each extent says "file blocks [logical, logical + len) live on disk at
 * [physical, physical + len)". A copy-on-write file system never
 * overwrites in place, so every write maps its blocks somewhere new:
 * write() punches a hole for the written range (the extents that cross
 * its ends are cut there, a write into the middle of an extent leaving a
 * piece on each side, and every extent inside goes in one
 * emap_erase_range), inserts the new extent, and merges it with neighbours that
 * are contiguous both logically and physically, so a sequential stream of
 * writes stays one extent. lookup() translates a file block to a disk
 * block. The program runs a scripted sequence, prints the map, then a
 * long random sequence checked block by block against a flat array.
 * Deterministic; exits 0 only if every self-check passes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "skiplist.h"

struct extent {
    uint64_t logical; /* first file block */
    uint64_t len;     /* blocks */
    uint64_t physical;
};

SKIPLIST_EXTENT_DEFINE(emap, struct extent, uint64_t, logical, len,
                       SKIPLIST_DEFAULTS)

#define HOLE UINT64_MAX /* lookup() of a block no extent covers */

static unsigned long cuts, dropped, merges, failures;

static struct extent *new_extent(uint64_t logical, uint64_t len,
                                 uint64_t physical)
{
    struct extent *e = (struct extent *)malloc(sizeof(*e));
    if (!e) {
        fprintf(stderr, "extent_map: out of memory\n");
        exit(1);
    }
    e->logical = logical;
    e->len = len;
    e->physical = physical;
    return e;
}

static void must(int r, const char *what)
{
    if (r != 0) {
        fprintf(stderr, "extent_map: %s failed: %d\n", what, r);
        exit(1);
    }
}

/* Cut the extent that holds block b and starts before it into
 * [start, b) and [b, end), so that no extent crosses b. An extent's start
 * and length are its keys: it leaves the list to be reshaped. */
static void cut_at(struct emap *map, uint64_t b)
{
    struct extent *e = emap_lookup(map, b);
    if (!e || e->logical == b)
        return;
    uint64_t head = b - e->logical;
    must(emap_erase(map, e), "erase of a cut extent");
    struct extent *tail = new_extent(b, e->len - head, e->physical + head);
    e->len = head;
    must(emap_insert(map, e, NULL), "insert of the head piece");
    must(emap_insert(map, tail, NULL), "insert of the tail piece");
    cuts++;
}

static void free_extent(struct extent *e, void *arg)
{
    (void)arg;
    free(e);
}

/* Unmap file blocks [logical, logical + len): cut the extents that cross
 * either end, then drop every extent inside in one erase_range (whole
 * leaves of them at a time). Ranges are closed, [lo, hi]: the hole's last
 * block is end - 1. */
static void punch_hole(struct emap *map, uint64_t logical, uint64_t len)
{
    uint64_t end = logical + len;
    cut_at(map, logical);
    cut_at(map, end);
    dropped += emap_erase_range(map, logical, end - 1, free_extent, NULL);
}

/* Map file blocks [logical, logical + len) to [physical, ...): punch the
 * hole, put the new extent in it. */
static void write_blocks(struct emap *map, uint64_t logical, uint64_t len,
                         uint64_t physical)
{
    uint64_t end = logical + len;
    punch_hole(map, logical, len);

    /* Merge with neighbours that continue it on disk too. */
    struct extent *n = new_extent(logical, len, physical);
    struct extent *l = logical ? emap_lookup(map, logical - 1) : NULL;
    if (l && l->physical + l->len == n->physical) {
        must(emap_erase(map, l), "erase of the left neighbour");
        n->logical = l->logical;
        n->physical = l->physical;
        n->len += l->len;
        free(l);
        merges++;
    }
    struct extent *r = emap_lookup(map, end);
    if (r && n->physical + n->len == r->physical) {
        must(emap_erase(map, r), "erase of the right neighbour");
        n->len += r->len;
        free(r);
        merges++;
    }
    struct extent *clash = NULL;
    int rc = emap_insert(map, n, &clash);
    if (rc != 0) {
        fprintf(stderr, "extent_map: insert [%" PRIu64 ", +%" PRIu64 ") = %d\n",
                n->logical, n->len, rc);
        exit(1);
    }
}

static uint64_t lookup_block(const struct emap *map, uint64_t logical)
{
    const struct extent *e = emap_lookup(map, logical);
    return e ? e->physical + (logical - e->logical) : HOLE;
}

static void print_map(const struct emap *map)
{
    struct emap_iter it;
    struct extent *e;
    uint64_t next = 0;
    SKIPLIST_FOREACH (emap, map, it, e) {
        if (e->logical > next)
            printf("    [%4" PRIu64 ", %4" PRIu64 ")  hole\n", next,
                   e->logical);
        printf("    [%4" PRIu64 ", %4" PRIu64 ")  -> disk [%5" PRIu64
               ", %5" PRIu64 ")\n",
               e->logical, e->logical + e->len, e->physical,
               e->physical + e->len);
        next = e->logical + e->len;
    }
}

/* The map against a flat block array, and in canonical form: no two
 * neighbours that a merge should have joined. */
static void verify(const struct emap *map, const uint64_t *flat, size_t n,
                   const char *when)
{
    char why[200];
    if (emap_check(map, why, sizeof(why)) != 0) {
        fprintf(stderr, "extent_map: %s: check() failed: %s\n", when, why);
        failures++;
    }
    for (uint64_t b = 0; b < n; b++)
        if (lookup_block(map, b) != flat[b]) {
            fprintf(stderr,
                    "extent_map: %s: block %" PRIu64 " maps to %" PRIu64
                    ", expected %" PRIu64 "\n",
                    when, b, lookup_block(map, b), flat[b]);
            failures++;
            return;
        }
    struct emap_iter it;
    struct extent *e, *prev = NULL;
    SKIPLIST_FOREACH (emap, map, it, e) {
        if (prev && prev->logical + prev->len == e->logical &&
            prev->physical + prev->len == e->physical) {
            fprintf(stderr,
                    "extent_map: %s: [%" PRIu64 "] and [%" PRIu64
                    "] should have merged\n",
                    when, prev->logical, e->logical);
            failures++;
        }
        prev = e;
    }
}

/* write_blocks plus the same write on the flat model. */
static void write_both(struct emap *map, uint64_t *flat, uint64_t logical,
                       uint64_t len, uint64_t physical)
{
    write_blocks(map, logical, len, physical);
    for (uint64_t i = 0; i < len; i++)
        flat[logical + i] = physical + i;
}

#define FILE_BLOCKS 1024

int main(void)
{
    static uint64_t flat[FILE_BLOCKS];
    for (size_t i = 0; i < FILE_BLOCKS; i++)
        flat[i] = HOLE;
    struct emap map;
    must(emap_init(&map, NULL, 1), "init");

    static const struct {
        uint64_t logical, len, physical;
        const char *what;
    } script[] = {
        {0, 16, 1000, "first write"},
        {16, 16, 1016, "sequential write: merges into one extent"},
        {8, 4, 5000, "write in the middle: splits it in two"},
        {8, 4, 1008, "back at the old disk blocks: merges into one"},
        {6, 4, 5000, "in the middle again: split"},
        {8, 6, 6000, "overlaps two extents: trims both"},
        {40, 8, 2000, "beyond a gap: the file gets a hole"},
        {48, 8, 3000, "adjacent on file, not on disk: no merge"},
        {14, 4, 6006, "continues the 6000 run on disk: trim + merge"},
        {0, 60, 9000, "covers everything: replaces six extents"},
        {100, 10, 300, "a second run, far away"},
        {110, 10, 310, "continues it on disk: merges"},
        {95, 30, 7000, "swallows the run and overhangs"},
    };
    unsigned long s0 = 0, t0 = 0, m0 = 0;
    printf("scripted writes (file blocks -> disk blocks):\n");
    for (size_t i = 0; i < sizeof(script) / sizeof(script[0]); i++) {
        write_both(&map, flat, script[i].logical, script[i].len,
                   script[i].physical);
        printf("  write [%3" PRIu64 ", %3" PRIu64 ") -> %4" PRIu64
               "  %-45s %zu extents (%lu cut, %lu dropped, %lu merged)\n",
               script[i].logical, script[i].logical + script[i].len,
               script[i].physical, script[i].what, emap_count(&map), cuts - s0,
               dropped - t0, merges - m0);
        s0 = cuts;
        t0 = dropped;
        m0 = merges;
        verify(&map, flat, FILE_BLOCKS, script[i].what);
    }
    printf("  the map now:\n");
    print_map(&map);
    printf("  lookup(5) = %" PRIu64 ", lookup(59) = %" PRIu64
           ", lookup(60) = %s, lookup(124) = %" PRIu64 "\n",
           lookup_block(&map, 5), lookup_block(&map, 59),
           lookup_block(&map, 60) == HOLE ? "hole" : "mapped",
           lookup_block(&map, 124));
    /* The script's expected outcome, written down by hand. */
    if (emap_count(&map) != 2 || lookup_block(&map, 5) != 9005 ||
        lookup_block(&map, 59) != 9059 || lookup_block(&map, 60) != HOLE ||
        lookup_block(&map, 95) != 7000 || lookup_block(&map, 124) != 7029) {
        fprintf(stderr, "extent_map: scripted result differs\n");
        failures++;
    }

    /* Random copy-on-write traffic, a third of it sequential, checked
     * block by block after every write. */
    uint64_t rng = 77, next_disk = 100000, seq_at = 0;
    unsigned long writes = 0;
    for (int i = 0; i < 20000; i++) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t r = rng >> 33;
        uint64_t len = 1 + r % 24, logical;
        if (r % 3 == 0 && seq_at + len <= FILE_BLOCKS) {
            logical = seq_at; /* appends on disk after the last write */
        } else {
            logical = (r >> 8) % (FILE_BLOCKS - len);
            next_disk += 1 + (r >> 20) % 8; /* leave a gap on disk */
        }
        write_both(&map, flat, logical, len, next_disk);
        seq_at = logical + len;
        next_disk += len;
        writes++;
        verify(&map, flat, FILE_BLOCKS, "random writes");
        if (failures)
            break;
    }
    uint64_t mapped = 0;
    for (size_t i = 0; i < FILE_BLOCKS; i++)
        mapped += flat[i] != HOLE;
    printf("random copy-on-write traffic: %lu writes over %d blocks\n", writes,
           FILE_BLOCKS);
    printf("  %zu extents, %" PRIu64 " blocks mapped; %lu cuts, %lu dropped, "
           "%lu merges in all\n",
           emap_count(&map), mapped, cuts, dropped, merges);
    emap_destroy(&map, free_extent, NULL);
    printf("self-checks: %s\n", failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}
