/* map suite (docs/benchmark.md): our ordered index against the usual
 * single-threaded ordered maps, on the same elements and the same keys.
 *
 * Per size n, with keys from one seeded bench_rand stream:
 *   insert_rand  build an empty map up to n elements in random key order
 *                (ns per insert over the whole build, 0 -> n)
 *   find_rand    lookups of random present keys (independent: throughput)
 *   find_dep     lookups of random present keys, each waiting for the
 *                previous one's element to be found and read: latency,
 *                misses cannot overlap. (Not a cycle through the payloads:
 *                at small n a short cycle repeats and the branch predictor
 *                learns it.)
 *   find_miss    lookups of absent keys
 *   lower_bound  first element >= an absent key
 *   scan         in-order walk, ns per element (elements not read)
 *   erase_rand   erase a random quarter of the keys from the full map
 *                (n -> 3n/4), in an order unrelated to insertion
 *   insert_seq   build up to n in ascending key order, the elements laid
 *                out in key order too
 *   rank         keys < a random present key (order statistics: only the
 *                implementations that have them, the others get no row)
 *   select       the element at a random position in [0, n)
 *   count_range  keys in [lo, hi], lo a random present key and hi the key
 *                n/100 - 1 positions above it (1% of the keys)
 * and the bulk ops (issue #30), each for the implementations that have the
 * call (the others get no row), beside the one-at-a-time op it replaces:
 *   build        load an empty map from the elements in ascending key
 *                order, laid out in key order (insert_seq's input), by
 *                the structure's own bulk load (ns per element)
 *   find_many    find_rand's work (its own present keys) through a batched
 *                lookup call, 512 keys a call (ns per key)
 *   erase_range_0.1pct, erase_range_10pct
 *                erase every element in a window of n/1000 (n/10)
 *                consecutive keys, given only its first and last key (ns
 *                per element erased)
 *   erase_loop_0.1pct, erase_loop_10pct
 *                the same windows erased one key at a time, the keys given
 *                in ascending order: the loop a caller writes without a
 *                range call (every implementation)
 * and one row that is no implementation's: impl copy_floor, op build, the
 * least any loader does (run_copy_floor) at memory speed.
 * ns_per_op is the median over the repetitions; each repetition visits every
 * implementation in turn so that a noisy moment on this shared machine hits
 * all of them rather than one. The four lookup ops and find_many each have
 * their own keys (no op re-runs the keys another op has just brought into
 * the cache) and are timed in interleaved slices, so that a noisy moment
 * hits all five rather than one (see run_lookups); the three
 * order-statistics ops after them, likewise among themselves. The erase
 * windows run on a map of their own (run_erase), build beside insert_seq
 * (run_seq).
 *
 * Every loop's result is checked against a value computed without any map;
 * an implementation that answers wrongly prints no rows and the program
 * exits non-zero after the others have run. */
#include <malloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/harness.h"
#include "bench/map_impl.h"

/* ------------------------------------------------------------ skiplist */
#include "bench/map_skiplist.h"

SKIPLIST_DEFINE(smap, struct map_elem, uint64_t, MAP_ELEM_KEY, SKIPLIST_CMP_NUM,
                SKIPLIST_DEFAULTS)
/* Tuning: -DMAP_SL_ALT=KPN,MAXLVL,PSHIFT in BENCH_OPT adds that
 * configuration as "skiplist_alt", measured in the same repetitions as the
 * default: side by side, the comparison survives a noisy machine. */
#ifdef MAP_SL_ALT
SKIPLIST_DEFINE(smapalt, struct map_elem, uint64_t, MAP_ELEM_KEY,
                SKIPLIST_CMP_NUM, MAP_SL_ALT)
#endif
/* The classic one-key-per-node layout; the other parameters as the default
 * so that the difference is the leaves alone. */
SKIPLIST_DEFINE(smap1, struct map_elem, uint64_t, MAP_ELEM_KEY,
                SKIPLIST_CMP_NUM, 1, SKIPLIST_DEFAULT_MAXLVL,
                SKIPLIST_DEFAULT_PSHIFT)

/* The default configuration with order statistics (SKIPLIST_RANKED_DEFINE):
 * every op, so its cost against "skiplist" reads off the same run. */
SKIPLIST_RANKED_DEFINE(smaprk, struct map_elem, uint64_t, MAP_ELEM_KEY,
                       SKIPLIST_CMP_NUM, SKIPLIST_DEFAULTS)

MAP_SKIPLIST_BULK_ADAPTER(smap, map_impl_skiplist, "skiplist")
MAP_SKIPLIST_RANKED_ADAPTER(smaprk, map_impl_skiplist_ranked, "skiplist_ranked")
MAP_SKIPLIST_BULK_ADAPTER(smap1, map_impl_skiplist_k1, "skiplist_k1")
#ifdef MAP_SL_ALT
MAP_SKIPLIST_BULK_ADAPTER(smapalt, map_impl_skiplist_alt, "skiplist_alt")
#endif
/* BENCH_BASE_ROW (bench/bench.mk, BENCH_BASE=REV): "skiplist_base", the
 * default configuration of an earlier skiplist.h, is linked in from
 * bench/map_base.c. */

/* ------------------------------------------------------------- driver */
static const struct map_impl *const impls[] = {
    &map_impl_skiplist,
#ifdef BENCH_BASE_ROW
    &map_impl_skiplist_base, /* second: bench_visit swaps the first two */
#endif
    &map_impl_skiplist_k1,   &map_impl_skiplist_ranked,
#ifdef MAP_SL_ALT
    &map_impl_skiplist_alt,
#endif
    &map_impl_bsd_rb,        &map_impl_judyl,           &map_impl_absl_btree,
    &map_impl_glib_gtree,    &map_impl_zskiplist,
};
#define NIMPL (sizeof(impls) / sizeof(impls[0]))
static bool selected[NIMPL];

enum op {
    OP_INSERT_RAND,
    OP_INSERT_SEQ,
    OP_FIND_RAND,
    OP_FIND_DEP,
    OP_FIND_MISS,
    OP_LOWER_BOUND,
    OP_ERASE_RAND,
    OP_SCAN,
    OP_RANK,
    OP_SELECT,
    OP_COUNT_RANGE,
    OP_BUILD,
    OP_FIND_MANY,
    OP_ERASE_RANGE_S, /* windows of n/1000 keys */
    OP_ERASE_RANGE_L, /* windows of n/10 keys */
    OP_ERASE_LOOP_S,
    OP_ERASE_LOOP_L,
    NOPS
};
static const char *const op_names[NOPS] = {
    "insert_rand",
    "insert_seq",
    "find_rand",
    "find_dep",
    "find_miss",
    "lower_bound",
    "erase_rand",
    "scan",
    "rank",
    "select",
    "count_range",
    "build",
    "find_many",
    "erase_range_0.1pct",
    "erase_range_10pct",
    "erase_loop_0.1pct",
    "erase_loop_10pct",
};

/* Sets of ops, one bit per enum op. */
#define OPB(op) (1u << (op))
#define ALL_OPS (OPB(NOPS) - 1u)
#define STAT_OPS (OPB(OP_RANK) | OPB(OP_SELECT) | OPB(OP_COUNT_RANGE))
/* The erase windows (run_erase). */
#define ERASE_OPS                                                           \
    (OPB(OP_ERASE_RANGE_S) | OPB(OP_ERASE_RANGE_L) | OPB(OP_ERASE_LOOP_S) | \
     OPB(OP_ERASE_LOOP_L))
/* The ops on randomly ordered keys (run_random). */
#define RANDOM_OPS (ALL_OPS & ~(OPB(OP_INSERT_SEQ) | OPB(OP_BUILD) | ERASE_OPS))

#define MAX_REPS 9

/* The lookup ops, in two groups each timed on its own (run_lookups): the
 * searches, then the order statistics; in each, the order run_lookups
 * starts its rotation with. */
enum lookup {
    L_FIND_RAND,
    L_FIND_DEP,
    L_FIND_MISS,
    L_LOWER_BOUND,
    L_FIND_MANY,
    L_RANK,
    L_SELECT,
    L_COUNT_RANGE,
    LOOKUPS
};
static const enum op lookup_op[LOOKUPS] = {
    OP_FIND_RAND, OP_FIND_DEP, OP_FIND_MISS, OP_LOWER_BOUND,
    OP_FIND_MANY, OP_RANK,     OP_SELECT,    OP_COUNT_RANGE,
};
static const enum lookup lookup_group[][2] = {
    {L_FIND_RAND, L_RANK}, /* [first, end) */
    {L_RANK, LOOKUPS},
};
/* Words per query: count_range's are (lo, hi) pairs. */
#define LOOKUP_WORDS(l) ((l) == L_COUNT_RANGE ? 2u : 1u)
/* Slices per lookup op and repetition (see run_lookups). */
#define LOOKUP_SLICES 8

/* 0, but the compiler cannot know it (see find_dep in map_impl.h). */
static volatile uint64_t opaque_zero;

/* Everything one size needs, computed once and shared by every impl. */
struct workload {
    size_t n, m, n_erase;
    unsigned ops; /* the ops measured at this size (OPB bits) */
    /* Builds per repetition: small maps are built many times, each time in
     * a fresh order (and erased in a fresh order): a repeated sequence of
     * a few thousand searches is learnt by the branch predictor. */
    size_t cycles;
    struct map_elem *elems;
    struct map_elem **ins_order; /* cycles blocks of n */
    struct map_elem **seq_order; /* n, ascending keys */
    uint64_t *erase_q;           /* cycles blocks of n_erase keys */
    /* The keys in ascending order and their elements, for the erase
     * windows (NULL unless ERASE_OPS are measured). */
    uint64_t *skeys;
    struct map_elem **selems;
    /* Each lookup op's own keys, m of them, drawn independently: present
     * keys for find_rand, find_dep and find_many, absent keys for
     * find_miss and lower_bound; and the warm-up keys (m / 8 present, m / 8
     * absent), which no timed op uses. The order-statistics ops' queries
     * (present keys for rank, positions for select, (lo, hi) pairs for
     * count_range) are followed in q[l] by m / 8 more of their kind, their
     * warm-up. */
    uint64_t *q[LOOKUPS];
    uint64_t *warm_hit, *warm_miss;
    uint64_t sum[LOOKUPS]; /* the right answer of each op over its keys */
    uint64_t all_sum;
};

struct result {
    double ns[NOPS][MAX_REPS];
    double bytes_rand, bytes_seq, bytes_build; /* per element, < 0 unknown */
    bool have_bytes_rand, have_bytes_seq, have_bytes_build;
    bool failed;
    bool skip; /* not selected (--impl) */
};

static void *xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p) {
        fprintf(stderr, "map: out of memory (%zu bytes)\n", size);
        exit(2);
    }
    return p;
}

struct key_idx {
    uint64_t key;
    size_t idx;
};

static int key_idx_cmp(const void *a, const void *b)
{
    uint64_t x = ((const struct key_idx *)a)->key;
    uint64_t y = ((const struct key_idx *)b)->key;
    return (x > y) - (x < y);
}

static int elem_cmp(const void *a, const void *b)
{
    uint64_t x = ((const struct map_elem *)a)->key;
    uint64_t y = ((const struct map_elem *)b)->key;
    return (x > y) - (x < y);
}

/* First element of sorted[0..n) with key >= key, as an address (0: none). */
static uint64_t successor(const struct key_idx *sorted, size_t n,
                          const struct map_elem *elems, uint64_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sorted[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n ? (uintptr_t)&elems[sorted[lo].idx] : 0;
}

static void shuffle(struct map_elem **a, size_t n, uint64_t *rs)
{
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)bench_rand_below(rs, i + 1);
        struct map_elem *t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* The order-statistics ops' queries and right answers, from the keys in
 * order (sorted: n keys ascending, each with its element's index), drawn
 * from a stream of their own so that the other ops' keys are those of
 * runs without them. Positions p are uniform: rank asks for the key at p
 * (answer p), select for p (answer the element there), count_range for
 * [key at p, key at p + width - 1] (answer width, n / 100 or 1). Each op's
 * m timed queries are followed by m / 8 for its warm-up. */
static void stat_queries(struct workload *w, const struct key_idx *sorted)
{
    size_t n = w->n, total = w->m + w->m / 8;
    size_t width = n / 100 ? n / 100 : 1;
    uint64_t os = 0x6f7264657273ull ^ n;

    for (int l = L_RANK; l < LOOKUPS; l++) {
        w->q[l] = xmalloc(total * LOOKUP_WORDS(l) * sizeof(uint64_t));
        w->sum[l] = 0;
    }
    for (size_t i = 0; i < total; i++) {
        size_t p = (size_t)bench_rand_below(&os, n);
        w->q[L_RANK][i] = sorted[p].key;
        if (i < w->m)
            w->sum[L_RANK] += p;
    }
    for (size_t i = 0; i < total; i++) {
        size_t p = (size_t)bench_rand_below(&os, n);
        w->q[L_SELECT][i] = p;
        if (i < w->m)
            w->sum[L_SELECT] += (uintptr_t)&w->elems[sorted[p].idx];
    }
    for (size_t i = 0; i < total; i++) {
        size_t p = (size_t)bench_rand_below(&os, n - width + 1);
        w->q[L_COUNT_RANGE][2 * i] = sorted[p].key;
        w->q[L_COUNT_RANGE][2 * i + 1] = sorted[p + width - 1].key;
        if (i < w->m)
            w->sum[L_COUNT_RANGE] += width;
    }
}

static void workload_init(struct workload *w, size_t n, size_t m, unsigned ops)
{
    /* The splitmix64 outputs of one stream never repeat (its state steps
     * through all 2^64 values and the output mix is a bijection), so the
     * first n are distinct keys and the ones after them surely absent. */
    uint64_t st = 0x6d617020ull ^ n, rs = 0x7175657279ull ^ n;
    w->n = n;
    w->m = m;
    w->ops = ops;
    memset(w->q, 0, sizeof(w->q));
    w->n_erase = n / 4 ? n / 4 : 1;
    w->skeys = NULL;
    w->selems = NULL;
    w->cycles = n < ((size_t)1 << 20) ? ((size_t)1 << 20) / n : 1;
    w->elems = xmalloc(n * sizeof(*w->elems));
    memset(w->elems, 0, n * sizeof(*w->elems));
    for (size_t i = 0; i < n; i++)
        w->elems[i].key = bench_rand(&st);
    for (int l = 0; l < L_RANK; l++)
        w->q[l] = xmalloc(m * sizeof(uint64_t));
    w->warm_hit = xmalloc((m / 8 + 1) * sizeof(uint64_t));
    w->warm_miss = xmalloc((m / 8 + 1) * sizeof(uint64_t));
    for (size_t i = 0; i < m; i++)
        w->q[L_FIND_MISS][i] = bench_rand(&st);
    for (size_t i = 0; i < m; i++)
        w->q[L_LOWER_BOUND][i] = bench_rand(&st);
    for (size_t i = 0; i < m / 8; i++)
        w->warm_miss[i] = bench_rand(&st);

    /* Payloads: any value; find_dep only needs something to read. */
    for (size_t i = 0; i < n; i++)
        w->elems[i].payload = bench_rand(&rs);

    /* Present keys: uniform over the elements, each op its own draw. */
    const int hit_ops[] = {L_FIND_RAND, L_FIND_DEP};
    for (int h = 0; h < 2; h++) {
        int l = hit_ops[h];
        w->sum[l] = 0;
        for (size_t i = 0; i < m; i++) {
            size_t k = (size_t)bench_rand_below(&rs, n);
            w->q[l][i] = w->elems[k].key;
            w->sum[l] += (uintptr_t)&w->elems[k];
        }
    }
    for (size_t i = 0; i < m / 8; i++)
        w->warm_hit[i] = w->elems[bench_rand_below(&rs, n)].key;
    w->sum[L_FIND_MISS] = 0;
    /* find_many's keys: a stream of their own, so that the other ops'
     * keys are those of runs without them. */
    uint64_t fs = 0x6d616e79ull ^ n;
    w->sum[L_FIND_MANY] = 0;
    for (size_t i = 0; i < m; i++) {
        size_t k = (size_t)bench_rand_below(&fs, n);
        w->q[L_FIND_MANY][i] = w->elems[k].key;
        w->sum[L_FIND_MANY] += (uintptr_t)&w->elems[k];
    }

    /* Block 0 inserts in array order (keys are random already, and the
     * elements are then read sequentially); every further block and every
     * erase block is a fresh Fisher-Yates shuffle. */
    bool erase = ops & OPB(OP_ERASE_RAND);
    struct map_elem **perm = erase ? xmalloc(n * sizeof(*perm)) : NULL;
    w->ins_order = xmalloc(w->cycles * n * sizeof(*w->ins_order));
    w->erase_q =
        erase ? xmalloc(w->cycles * w->n_erase * sizeof(*w->erase_q)) : NULL;
    for (size_t c = 0; c < w->cycles; c++) {
        struct map_elem **order = w->ins_order + c * n;
        for (size_t i = 0; i < n; i++)
            order[i] = &w->elems[i];
        if (c > 0)
            shuffle(order, n, &rs);
        if (!erase)
            continue;
        for (size_t i = 0; i < n; i++)
            perm[i] = &w->elems[i];
        shuffle(perm, n, &rs);
        for (size_t i = 0; i < w->n_erase; i++)
            w->erase_q[c * w->n_erase + i] = perm[i]->key;
    }
    free(perm);
    w->seq_order = xmalloc(n * sizeof(*w->seq_order));

    w->all_sum = 0;
    for (size_t i = 0; i < n; i++)
        w->all_sum += (uintptr_t)&w->elems[i];
    w->sum[L_LOWER_BOUND] = 0;
    if (!(ops & (OPB(OP_LOWER_BOUND) | STAT_OPS | ERASE_OPS)))
        return;

    struct key_idx *sorted = xmalloc(n * sizeof(*sorted));
    for (size_t i = 0; i < n; i++) {
        sorted[i].key = w->elems[i].key;
        sorted[i].idx = i;
    }
    qsort(sorted, n, sizeof(*sorted), key_idx_cmp);
    if (ops & OPB(OP_LOWER_BOUND))
        for (size_t i = 0; i < m; i++)
            w->sum[L_LOWER_BOUND] +=
                successor(sorted, n, w->elems, w->q[L_LOWER_BOUND][i]);
    if (ops & STAT_OPS)
        stat_queries(w, sorted);
    if (ops & ERASE_OPS) {
        w->skeys = xmalloc(n * sizeof(*w->skeys));
        w->selems = xmalloc(n * sizeof(*w->selems));
        for (size_t i = 0; i < n; i++) {
            w->skeys[i] = sorted[i].key;
            w->selems[i] = &w->elems[sorted[i].idx];
        }
    }
    free(sorted);
}

static void workload_free(struct workload *w)
{
    free(w->elems);
    for (int l = 0; l < LOOKUPS; l++)
        free(w->q[l]);
    free(w->warm_hit);
    free(w->warm_miss);
    free(w->erase_q);
    free(w->ins_order);
    free(w->seq_order);
    free(w->skeys);
    free(w->selems);
}

static void fail(const struct map_impl *im, struct result *r, const char *op,
                 const char *what)
{
    fprintf(stderr, "map: %s: %s: %s\n", im->name, op, what);
    r->failed = true;
}

static double per_op(uint64_t ns, uint64_t ops)
{
    return (double)ns / (double)(ops ? ops : 1);
}

/* The first build of all n at this size: measure the bytes there, while
 * the allocator's memory is fresh (GSlice caches freed GTree nodes for
 * seconds, which would hide a later build's nodes from mallinfo). */
static void measure_bytes(const struct map_impl *im, void *h, size_t n,
                          double *out, bool *done)
{
    if (*done)
        return;
    double b = im->bytes(h);
    *out = b < 0 ? -1 : b / (double)n;
    *done = true;
}

/* Elements a warm-up build inserts: enough to run every code path and
 * warm the allocator, few enough (1/64 at large n) that GSlice's cache of
 * them hides under 2% of GTree's bytes at the first full build. */
static size_t warm_count(size_t n)
{
    return n <= ((size_t)1 << 14) ? n : n / 64;
}

/* Whether im has op (the order-statistics ops are optional). */
static bool supports(const struct map_impl *im, enum op op)
{
    switch (op) {
    case OP_RANK:
        return im->rank_all;
    case OP_SELECT:
        return im->select_all;
    case OP_COUNT_RANGE:
        return im->count_range_all;
    case OP_BUILD:
        return im->build;
    case OP_FIND_MANY:
        return im->find_many_all;
    case OP_ERASE_RANGE_S:
    case OP_ERASE_RANGE_L:
        return im->erase_range;
    default:
        return true;
    }
}

/* Lookup op l over count queries from q (a slice of its queries); the
 * loop's sum. */
static uint64_t lookup(const struct map_impl *im, void *h, enum lookup l,
                       const uint64_t *q, size_t count)
{
    switch (l) {
    case L_FIND_RAND:
    case L_FIND_MISS:
        return im->find_all(h, q, count);
    case L_FIND_DEP:
        return im->find_dep(h, q, count, opaque_zero);
    case L_LOWER_BOUND:
        return im->lower_bound_all(h, q, count);
    case L_FIND_MANY:
        return im->find_many_all(h, q, count);
    case L_RANK:
        return im->rank_all(h, q, count);
    case L_SELECT:
        return im->select_all(h, q, count);
    case L_COUNT_RANGE:
        return im->count_range_all(h, q, count);
    default:
        return 0;
    }
}

/* The lookup ops on the freshly built map, ns per lookup into ns[].
 *
 * Each op has its own keys and warms up on other keys of its kind, so no
 * op re-runs keys whose path the op before it has just brought into the
 * cache (docs/benchmark.md, map suite, "The lookups": find_dep re-ran
 * find_rand's keys and lower_bound find_miss's, and each op warmed up on the
 * first eighth of its own timed keys).
 *
 * The ops are timed by groups (lookup_group): the four searches and
 * find_many (when the implementation has it; find_many is find_rand's work
 * batched, so it is timed beside find_rand), then the three
 * order-statistics ops when the implementation has them, so that the
 * searches are timed as they were before the latter existed. In each
 * group the ops are timed in LOOKUP_SLICES rounds of one slice (m / 8
 * lookups, 2-10 ms at quick sizes) of every op, the order rotated each
 * round so that each op follows each other op equally often. A noisy
 * moment on a shared machine, which lasts longer than a slice, then falls
 * on all the group's ops, not on whichever ran then: ratios between the ops
 * of one implementation hold as well as ratios between implementations. */
static void run_lookups(const struct map_impl *im, const struct workload *w,
                        void *h, struct result *r, double *ns)
{
    static const char *const what[LOOKUPS] = {
        "wrong elements found", "wrong elements found", "found an absent key",
        "wrong successors",     "wrong elements found", "wrong ranks",
        "wrong elements",       "wrong counts"};
    size_t m = w->m;
    uint64_t t[LOOKUPS] = {0}, got[LOOKUPS] = {0};
    bool on[LOOKUPS];

    for (int l = 0; l < LOOKUPS; l++)
        on[l] = (w->ops & OPB(lookup_op[l])) && supports(im, lookup_op[l]);
    for (size_t g = 0; g < sizeof(lookup_group) / sizeof(lookup_group[0]);
         g++) {
        int first = lookup_group[g][0], size = lookup_group[g][1] - first;
        for (int l = first; l < first + size; l++) {
            const uint64_t *warm =
                l >= L_RANK ? w->q[l] + m * LOOKUP_WORDS(l)
                : l == L_FIND_RAND || l == L_FIND_DEP || l == L_FIND_MANY
                    ? w->warm_hit
                    : w->warm_miss;
            if (on[l])
                bench_sink += lookup(im, h, (enum lookup)l, warm, m / 8);
        }
        for (int round = 0; round < LOOKUP_SLICES; round++) {
            size_t from = m * (size_t)round / LOOKUP_SLICES;
            size_t to = m * (size_t)(round + 1) / LOOKUP_SLICES;
            for (int j = 0; j < size; j++) {
                enum lookup l = (enum lookup)(first + (round + j) % size);
                if (!on[l])
                    continue;
                uint64_t t0 = bench_now_ns();
                got[l] += lookup(im, h, l, w->q[l] + from * LOOKUP_WORDS(l),
                                 to - from);
                t[l] += bench_now_ns() - t0;
            }
        }
    }
    for (int l = 0; l < LOOKUPS; l++) {
        if (!on[l])
            continue;
        ns[lookup_op[l]] = per_op(t[l], m);
        if (got[l] != w->sum[l])
            fail(im, r, op_names[lookup_op[l]], what[l]);
    }
}

/* One repetition on randomly ordered keys. Builds up to n (repeatedly when
 * n is small, so that a repetition lasts); on the first build times the
 * lookups and the walk, then erases a random quarter of the keys, so every
 * operation runs on a map of about n. rep < 0 is the warm-up: a small
 * untimed build (the lookups warm up on their own). */
static void run_random(const struct map_impl *im, const struct workload *w,
                       struct result *r, int rep)
{
    size_t n = w->n, n_erase = w->n_erase;
    size_t cycles = w->cycles;
    size_t scans = n < ((size_t)1 << 20) ? ((size_t)1 << 20) / n : 1;
    uint64_t t_ins = 0, t_era = 0, t0;
    double ns[NOPS] = {0};

    if (rep < 0) {
        void *h = im->create();
        if (!h) {
            fail(im, r, "create", "failed");
            return;
        }
        size_t nw = warm_count(n);
        if (im->insert_all(h, w->ins_order, nw) || im->count(h) != nw)
            fail(im, r, "insert_rand", "insert failed or count wrong");
        else if (nw == n)
            measure_bytes(im, h, n, &r->bytes_rand, &r->have_bytes_rand);
        im->destroy(h);
        return;
    }

    for (size_t c = 0; c < cycles && !r->failed; c++) {
        void *h = im->create();
        if (!h) {
            fail(im, r, "create", "failed");
            return;
        }
        t0 = bench_now_ns();
        size_t bad = im->insert_all(h, w->ins_order + c * n, n);
        t_ins += bench_now_ns() - t0;
        if (bad || im->count(h) != n)
            fail(im, r, "insert_rand", "insert failed or count wrong");
        else
            measure_bytes(im, h, n, &r->bytes_rand, &r->have_bytes_rand);

        if (c == 0 && !r->failed) {
            run_lookups(im, w, h, r, ns);
        }
        if (c == 0 && !r->failed && (w->ops & OPB(OP_SCAN))) {
            size_t cnt = 0;
            uint64_t got;
            bench_sink += im->scan(h, &cnt);
            t0 = bench_now_ns();
            for (size_t s = 0; s < scans; s++) {
                got = im->scan(h, &cnt);
                if (got != w->all_sum || cnt != n)
                    fail(im, r, "scan", "walk missed or repeated elements");
            }
            ns[OP_SCAN] = per_op(bench_now_ns() - t0, (uint64_t)scans * n);
        }

        if (w->ops & OPB(OP_ERASE_RAND)) {
            t0 = bench_now_ns();
            bad = im->erase_all(h, w->erase_q + c * n_erase, n_erase);
            t_era += bench_now_ns() - t0;
            if (bad || im->count(h) != n - n_erase)
                fail(im, r, "erase_rand", "erase failed or count wrong");
        }
        im->destroy(h);
    }
    if (r->failed)
        return;
    ns[OP_INSERT_RAND] = per_op(t_ins, (uint64_t)cycles * n);
    ns[OP_ERASE_RAND] = per_op(t_era, (uint64_t)cycles * n_erase);
    for (int op = 0; op < NOPS; op++)
        if (OPB(op) & RANDOM_OPS)
            r->ns[op][rep] = ns[op];
}

/* Elements are sorted in memory and in key order by now: insert_seq (one
 * insert at a time) and build (the bulk load) from the same input, in turn
 * within each cycle, the first of the two alternating with rep. */
static void run_seq(const struct map_impl *im, const struct workload *w,
                    struct result *r, int rep)
{
    size_t n = w->n, cycles = w->cycles;
    uint64_t t_ins = 0, t_build = 0;
    bool seq = w->ops & OPB(OP_INSERT_SEQ);
    bool build = (w->ops & OPB(OP_BUILD)) && im->build;

    for (size_t c = 0; c < cycles && !r->failed; c++) {
        for (int k = 0; k < 2 && !r->failed; k++) {
            bool b = (k ^ rep) & 1;
            if (b ? !build : !seq)
                continue;
            void *h = im->create();
            if (!h) {
                fail(im, r, "create", "failed");
                return;
            }
            uint64_t t0 = bench_now_ns();
            size_t bad = b ? im->build(h, w->seq_order, n) != 0
                           : im->insert_all(h, w->seq_order, n);
            uint64_t t = bench_now_ns() - t0;
            if (bad || im->count(h) != n) {
                fail(im, r, op_names[b ? OP_BUILD : OP_INSERT_SEQ],
                     "load failed or count wrong");
            } else if (b) {
                t_build += t;
                measure_bytes(im, h, n, &r->bytes_build, &r->have_bytes_build);
                size_t cnt = 0;
                if (c == 0 && (im->scan(h, &cnt) != w->all_sum || cnt != n))
                    fail(im, r, "build", "walk missed or repeated elements");
            } else {
                t_ins += t;
                measure_bytes(im, h, n, &r->bytes_seq, &r->have_bytes_seq);
            }
            im->destroy(h);
        }
    }
    if (r->failed)
        return;
    if (seq)
        r->ns[OP_INSERT_SEQ][rep] = per_op(t_ins, (uint64_t)cycles * n);
    if (build)
        r->ns[OP_BUILD][rep] = per_op(t_build, (uint64_t)cycles * n);
}

/* The floor under every build (the copy_floor row): read each element's
 * key in input order, check it is above the one before, and write (key,
 * element) pairs into an array already faulted in, as a leaf's slots
 * would take them. No structure can load n elements by reading their keys
 * for less; the ratio of a build to it says how much of the build is the
 * structure's own work. ns per element, median over reps, -1 when an
 * order check failed (it cannot: the input is sorted). */
static double run_copy_floor(const struct workload *w, int reps)
{
    size_t n = w->n;
    struct slot {
        uint64_t key;
        const struct map_elem *e;
    } *a = xmalloc(n * sizeof(*a));
    memset(a, 0, n * sizeof(*a));
    double ns[MAX_REPS];
    size_t bad = 0;
    for (int rep = 0; rep < reps; rep++) {
        uint64_t t = 0;
        for (size_t c = 0; c < w->cycles; c++) {
            uint64_t t0 = bench_now_ns(), prev = 0;
            for (size_t i = 0; i < n; i++) {
                const struct map_elem *e = w->seq_order[i];
                bad += i && e->key <= prev;
                prev = e->key;
                a[i].key = prev;
                a[i].e = e;
            }
            /* the stores are the work: keep them */
            __asm__ volatile("" : : "r"(a) : "memory");
            t += bench_now_ns() - t0;
        }
        ns[rep] = per_op(t, (uint64_t)w->cycles * n);
    }
    free(a);
    return bad ? -1.0 : bench_median(ns, reps);
}

/* What bench_windows_erase's callback needs: the map and its windows. */
struct erase_job {
    const struct map_impl *im;
    const struct workload *w;
    void *h;
    const size_t *pos; /* first positions, range windows then loop ones */
    size_t pairs, width;
};

/* Windows [from, to) of one kind (bench_windows_erase): the count of each
 * window not erased, or the keys not found, are the failures. */
static size_t erase_windows(void *arg, int loop, size_t from, size_t to)
{
    const struct erase_job *j = arg;
    size_t bad = 0;
    for (size_t i = from; i < to; i++) {
        size_t p = j->pos[(loop ? j->pairs : 0) + i];
        if (loop)
            bad += j->im->erase_all(j->h, j->w->skeys + p, j->width);
        else
            bad +=
                j->im->erase_range(j->h, j->w->skeys[p],
                                   j->w->skeys[p + j->width - 1]) != j->width;
    }
    return bad;
}

/* The erase windows of one cycle of one repetition, on a map of n built in
 * random order (untimed): the small windows (n/1000 consecutive keys;
 * pairs of them, together n/10 keys), then the large ones (n/10 keys; one
 * pair). Of each pair one window goes through erase_range (given its
 * first and last key) and the other through erase_all (its keys in
 * ascending order): the loop a caller writes without a range call, the
 * two taking turns as bench_windows_erase has them (the kind that starts
 * alternating with the cycle and the repetition too). After each size
 * the windows' elements are inserted again (untimed, in random order), so
 * the large windows start from n too, and so does the next repetition:
 * *hp keeps the map from one repetition to the next (a build of n in
 * random order costs more than the windows; last: destroy it instead). An
 * implementation without erase_range runs the loop windows only. t[] and
 * cnt[] collect ns and elements erased per op, indexed by
 * op - OP_ERASE_RANGE_S. */
static void erase_cycle(const struct map_impl *im, const struct workload *w,
                        struct result *r, int rep, size_t c, uint64_t *t,
                        uint64_t *cnt, void **hp, bool last)
{
    size_t n = w->n;
    void *h = *hp;
    *hp = NULL;
    if (!h) {
        if (!(h = im->create())) {
            fail(im, r, "create", "failed");
            return;
        }
        if (im->insert_all(h, w->ins_order + c * n, n) || im->count(h) != n) {
            fail(im, r, "erase_range", "build failed or count wrong");
            im->destroy(h);
            return;
        }
    }
    size_t width_s = n / 1000 ? n / 1000 : 1, width_l = n / 10 ? n / 10 : 1;
    size_t pairs_s = n / 20 / width_s ? n / 20 / width_s : 1;
    size_t nb = 2 * pairs_s * width_s > 2 * width_l ? 2 * pairs_s * width_s
                                                    : 2 * width_l;
    size_t *pos = xmalloc(2 * pairs_s * sizeof(*pos));
    struct map_elem **back = xmalloc(nb * sizeof(*back));
    uint64_t live_sum = w->all_sum;
    size_t live = n;

    for (int large = 0; large < 2 && !r->failed; large++) {
        size_t width = large ? width_l : width_s, pairs = large ? 1 : pairs_s;
        int op[2] = {large ? OP_ERASE_RANGE_L : OP_ERASE_RANGE_S,
                     large ? OP_ERASE_LOOP_L : OP_ERASE_LOOP_S};
        bool on[2] = {im->erase_range && (w->ops & OPB(op[0])),
                      w->ops & OPB(op[1])};
        if (!on[0] && !on[1])
            continue;
        bench_windows(n, width, 2 * pairs,
                      0x77696e646f77ull ^ n ^ ((uint64_t)rep << 48) ^
                          ((uint64_t)c << 8) ^ (uint64_t)large,
                      pos);
        struct erase_job job = {im, w, h, pos, pairs, width};
        uint64_t ns[2] = {0, 0};
        size_t bad = bench_windows_erase(pairs, rep ^ (int)c, on[0], on[1],
                                         erase_windows, &job, ns);
        if (bad) {
            fail(im, r, op_names[op[0]], "a window erased wrongly");
            break;
        }
        size_t nback = 0;
        for (int k = 0; k < 2; k++) {
            if (!on[k])
                continue;
            t[op[k] - OP_ERASE_RANGE_S] += ns[k];
            cnt[op[k] - OP_ERASE_RANGE_S] += (uint64_t)pairs * width;
            for (size_t i = 0; i < pairs; i++)
                for (size_t q = 0; q < width; q++) {
                    struct map_elem *e = w->selems[pos[k * pairs + i] + q];
                    live_sum -= (uintptr_t)e;
                    back[nback++] = e;
                }
        }
        live -= nback;
        if (im->count(h) != live)
            fail(im, r, op_names[op[0]], "count wrong after the windows");
        if (!r->failed && (!large || !last) && nback) {
            uint64_t bs = 0x6261636bull ^ n ^ ((uint64_t)rep << 32) ^
                          ((uint64_t)c << 8) ^ (uint64_t)large;
            shuffle(back, nback, &bs);
            if (im->insert_all(h, back, nback))
                fail(im, r, op_names[op[0]], "insert again failed");
            for (size_t i = 0; i < nback; i++)
                live_sum += (uintptr_t)back[i];
            live += nback;
        }
    }
    size_t seen = 0;
    if (!r->failed && (im->scan(h, &seen) != live_sum || seen != live))
        fail(im, r, "erase_range", "wrong elements left");
    free(back);
    free(pos);
    if (last || r->failed)
        im->destroy(h);
    else
        *hp = h;
}

/* One repetition of the erase windows (erase_cycle), cycles maps: one map
 * kept in *hp over the repetitions at large n (one cycle), a fresh one
 * per cycle at small n (its elements cannot be in two maps at once: bsd_rb
 * links through them). last: the final repetition. */
static void run_erase(const struct map_impl *im, const struct workload *w,
                      struct result *r, int rep, void **hp, bool last)
{
    uint64_t t[4] = {0}, cnt[4] = {0};
    for (size_t c = 0; c < w->cycles && !r->failed; c++) {
        void *fresh = NULL;
        if (w->cycles == 1)
            erase_cycle(im, w, r, rep, c, t, cnt, hp, last);
        else
            erase_cycle(im, w, r, rep, c, t, cnt, &fresh, true);
    }
    if (r->failed)
        return;
    for (int op = OP_ERASE_RANGE_S; op <= OP_ERASE_LOOP_L; op++)
        if (cnt[op - OP_ERASE_RANGE_S])
            r->ns[op][rep] =
                per_op(t[op - OP_ERASE_RANGE_S], cnt[op - OP_ERASE_RANGE_S]);
}

/* Between one implementation's turn and the next: hand the heap's free
 * pages back (untimed). Kept (M_TRIM_THRESHOLD), the holes a peer's
 * teardown left slowed down whoever built next: after zskiplist freed its
 * 10^6 nodes, the next build of 10^6 keys (ours or 9f3cd5a's, whichever
 * was listed first) took 1.5-2x its time in the other repetitions, with
 * no page fault to show for it (docs/benchmark.md, "Warm-up,
 * repetitions, medians"). Trimmed, every build starts from the same
 * heap and faults its own pages in. */
static void settle_heap(void)
{
    malloc_trim(0);
}

static bool run_size(size_t n, size_t m, unsigned ops, int reps, int warmups)
{
    struct workload w;
    struct result res[NIMPL];
    bool ok = true;

    fprintf(stderr, "map: n=%zu: %d reps (+%d warm-up), %zu lookups each\n", n,
            reps, warmups, m);
    workload_init(&w, n, m, ops);
    memset(res, 0, sizeof(res));
    for (size_t i = 0; i < NIMPL; i++)
        res[i].skip = !selected[i];
    for (int rep = -warmups; rep < reps; rep++)
        for (size_t k = 0; k < NIMPL; k++) {
            size_t i = bench_visit(k, NIMPL, rep);
            if (!res[i].failed && !res[i].skip) {
                run_random(impls[i], &w, &res[i], rep);
                settle_heap();
            }
        }
    /* Before the sort below: the windows' elements are those of w.selems. */
    void *kept[NIMPL] = {0};
    for (int rep = 0; rep < reps && (ops & ERASE_OPS); rep++)
        for (size_t k = 0; k < NIMPL; k++) {
            size_t i = bench_visit(k, NIMPL, rep);
            if (!res[i].failed && !res[i].skip) {
                run_erase(impls[i], &w, &res[i], rep, &kept[i],
                          rep == reps - 1);
                settle_heap();
            }
        }

    /* Sorted in memory too, as a sequential load would lay them out. */
    bool seq = ops & (OPB(OP_INSERT_SEQ) | OPB(OP_BUILD));
    if (seq)
        qsort(w.elems, n, sizeof(*w.elems), elem_cmp);
    for (size_t i = 0; i < n; i++)
        w.seq_order[i] = &w.elems[i];
    for (int rep = 0; rep < reps && seq; rep++)
        for (size_t k = 0; k < NIMPL; k++) {
            size_t i = bench_visit(k, NIMPL, rep);
            if (!res[i].failed && !res[i].skip) {
                run_seq(impls[i], &w, &res[i], rep);
                settle_heap();
            }
        }

    double floor_ns = (ops & OPB(OP_BUILD)) ? run_copy_floor(&w, reps) : 0;
    if (floor_ns < 0) {
        fprintf(stderr, "map: copy_floor: input out of order\n");
        ok = false;
    } else if (floor_ns > 0) {
        bench_row("map", "copy_floor", op_names[OP_BUILD], n, 1, floor_ns, -1);
    }
    for (size_t i = 0; i < NIMPL; i++) {
        if (res[i].skip)
            continue;
        if (res[i].failed) {
            ok = false;
            continue;
        }
        for (int op = 0; op < NOPS; op++)
            if ((ops & OPB(op)) && supports(impls[i], (enum op)op))
                bench_row("map", impls[i]->name, op_names[op], n, 1,
                          bench_median(res[i].ns[op], reps),
                          op == OP_INSERT_SEQ ? res[i].bytes_seq
                          : op == OP_BUILD    ? res[i].bytes_build
                                              : res[i].bytes_rand);
    }
    workload_free(&w);
    return ok;
}

/* ------------------------------------------------------------ footprint
 * footprint: bytes one map costs at each of FOOTPRINT_SIZES elements (the
 * implementation's footprint(): head, heap, links in the elements), one
 * map alive at a time. footprint_rss: the process's resident memory growth
 * over RSS_LISTS maps of one element each, per map; in a child process, the
 * elements allocated and written before the baseline so that only heads,
 * nodes and allocator overhead count. */
static const size_t footprint_sizes[] = {0, 1, 4, 16, 64, 256};
#define FOOTPRINT_MAX 256
#define RSS_LISTS 1000000

static bool run_footprint(void)
{
    struct map_elem *elems = xmalloc(FOOTPRINT_MAX * sizeof(*elems));
    struct map_elem *order[FOOTPRINT_MAX];
    uint64_t st = 0x666f6f7470ull;
    bool ok = true;

    memset(elems, 0, FOOTPRINT_MAX * sizeof(*elems));
    for (size_t i = 0; i < FOOTPRINT_MAX; i++) {
        elems[i].key = bench_rand(&st);
        order[i] = &elems[i];
    }
    for (size_t i = 0; i < NIMPL; i++) {
        const struct map_impl *im = impls[i];
        if (!selected[i])
            continue;
        if (!im->footprint) {
            fprintf(stderr, "map: %s: no footprint (see its adapter)\n",
                    im->name);
            continue;
        }
        for (size_t k = 0; k < sizeof(footprint_sizes) / sizeof(size_t); k++) {
            size_t n = footprint_sizes[k];
            void *h = im->create();
            if (!h || (n && im->insert_all(h, order, n)) || im->count(h) != n) {
                fprintf(stderr, "map: %s: footprint: build of %zu failed\n",
                        im->name, n);
                if (h)
                    im->destroy(h);
                ok = false;
                break;
            }
            double b = im->footprint(h);
            im->destroy(h);
            bench_row_bytes("map", im->name, "footprint", n, b);
        }
    }
    free(elems);
    return ok;
}

struct rss_job {
    const struct map_impl *im;
    size_t count;
};

/* In the child: bytes of process memory per one-element map. */
static double rss_child(void *arg)
{
    const struct rss_job *j = arg;
    struct map_elem *e = xmalloc(j->count * sizeof(*e));
    uint64_t st = 0x727373ull;
    memset(e, 0, j->count * sizeof(*e));
    for (size_t i = 0; i < j->count; i++)
        e[i].key = bench_rand(&st);
    size_t before = bench_rss();
    void *maps = j->im->many(e, j->count);
    size_t after = bench_rss();
    if (!maps || !before || after < before)
        return -1;
    return (double)(after - before) / (double)j->count;
}

static bool run_footprint_rss(void)
{
    bool ok = true;
    for (size_t i = 0; i < NIMPL; i++) {
        if (!selected[i] || !impls[i]->many)
            continue;
        struct rss_job j = {impls[i], RSS_LISTS};
        double b = bench_in_child(rss_child, &j);
        if (b < 0) {
            fprintf(stderr, "map: %s: footprint_rss failed\n", impls[i]->name);
            ok = false;
            continue;
        }
        bench_row_bytes("map", impls[i]->name, "footprint_rss", 1, b);
    }
    return ok;
}

/* Development aids (make targets never pass them): --n N runs that size
 * only (every selected implementation, every op, --quick or not), --impl
 * A,B those implementations only, --op A,B those ops only (footprint and
 * footprint_rss among them; both run unless --op or --n leaves them out).
 * Each also takes the --opt=value form. */
static bool listed(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t l = end ? (size_t)(end - p) : strlen(p);
        if (l == len && strncmp(p, name, len) == 0)
            return true;
        p += l + (end != NULL);
    }
    return false;
}

/* A size to run, the implementations to run at it (NULL: all) and the
 * ops to measure (OPB bits). */
struct size_spec {
    size_t n;
    const char *impls;
    unsigned ops;
};

int main(int argc, char **argv)
{
    static const struct size_spec full_sizes[] = {
        {1000, NULL, ALL_OPS},     {10000, NULL, ALL_OPS},
        {100000, NULL, ALL_OPS},   {1000000, NULL, ALL_OPS},
        {10000000, NULL, ALL_OPS},
    };
    /* Quick: everything at 10^6; at 10^7 ours (unranked and ranked) and
     * the two fastest peers, and only insert_rand (the build the other ops
     * need anyway), find_rand and find_dep (throughput and latency), scan
     * and the order statistics: insert_seq and erase_rand at 10^7 would add
     * about a minute to make bench-quick, which must stay under five on the
     * 2-core machine, and so would zskiplist's build at 10^7 (--n 10000000
     * --impl zskiplist runs it). At 10^4 the order statistics alone, for
     * the implementations that have them (the build at 10^4 is cheap).
     * skiplist_base (an earlier header, present only with BENCH_BASE) runs
     * wherever skiplist does. */
    static const struct size_spec quick_sizes[] = {
        {10000, "skiplist_ranked,judyl,zskiplist", STAT_OPS},
        {1000000, NULL, ALL_OPS},
        {10000000, "skiplist,skiplist_ranked,skiplist_base,absl_btree,judyl",
         OPB(OP_INSERT_RAND) | OPB(OP_FIND_RAND) | OPB(OP_FIND_DEP) |
             OPB(OP_SCAN) | STAT_OPS | OPB(OP_BUILD) | OPB(OP_FIND_MANY)},
    };
    int quick = bench_quick(argc, argv);
    const struct size_spec *sizes = quick ? quick_sizes : full_sizes;
    size_t nsizes = quick ? sizeof(quick_sizes) / sizeof(quick_sizes[0])
                          : sizeof(full_sizes) / sizeof(full_sizes[0]);
    const char *only_n = bench_arg(argc, argv, "--n");
    const char *only_impl = bench_arg(argc, argv, "--impl");
    const char *only_op = bench_arg(argc, argv, "--op");
    struct size_spec one_size = {0, NULL, ALL_OPS};
    unsigned op_filter = only_op ? 0 : ALL_OPS;
    bool ok = true;

    if (only_op) {
        for (int op = 0; op < NOPS; op++)
            if (listed(only_op, op_names[op]))
                op_filter |= OPB(op);
        for (const char *p = only_op; *p;) {
            size_t l = strcspn(p, ",");
            bool known = (l == 9 && !strncmp(p, "footprint", l)) ||
                         (l == 13 && !strncmp(p, "footprint_rss", l));
            for (int op = 0; op < NOPS && !known; op++)
                known =
                    strlen(op_names[op]) == l && !strncmp(p, op_names[op], l);
            if (!known) {
                fprintf(stderr, "map: --op: unknown op '%.*s'\n", (int)l, p);
                return 2;
            }
            p += l + (p[l] == ',');
        }
    }
    bool footprint = only_op ? listed(only_op, "footprint") : !only_n;
    bool footprint_rss = only_op ? listed(only_op, "footprint_rss") : !only_n;

    if (only_n) {
        one_size.n = (size_t)strtoull(only_n, NULL, 10);
        if (one_size.n < 2) {
            fprintf(stderr, "map: --n wants at least 2\n");
            return 2;
        }
        sizes = &one_size;
        nsizes = 1;
    }

    /* Keep freed memory in the process: builds then reuse pages instead of
     * faulting fresh ones in, whichever impl ran before. */
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);

    /* Footprint first: the RSS child forks from a heap that has not yet
     * held and freed the timed ops' maps. */
    for (size_t i = 0; i < NIMPL; i++)
        selected[i] = !only_impl || listed(only_impl, impls[i]->name);
    if (footprint_rss)
        ok = run_footprint_rss() && ok;
    if (footprint)
        ok = run_footprint() && ok;

    for (size_t s = 0; s < nsizes && op_filter; s++) {
        size_t n = sizes[s].n, any = 0;
        size_t m = quick ? (size_t)1 << 16 : (size_t)1 << 19;
        int reps = BENCH_REPS(quick || n >= 1000000 ? 3 : 5);
        for (size_t i = 0; i < NIMPL; i++) {
            selected[i] =
                (!only_impl || listed(only_impl, impls[i]->name)) &&
                (!sizes[s].impls || listed(sizes[s].impls, impls[i]->name));
            any += selected[i];
        }
        if (any && (sizes[s].ops & op_filter))
            ok = run_size(n, m, sizes[s].ops & op_filter, reps, 1) && ok;
    }
    return ok ? 0 : 1;
}
