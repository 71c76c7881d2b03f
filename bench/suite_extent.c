/*
 * The `extent` suite (docs/benchmark.md): IOVA-style allocation on the
 * extent face against iova_rb, a replica of the Linux IOVA allocator
 * (bench/extent_iova_rb.c).
 *
 *   alloc_free    steady state at n live ranges, fragmented: fill with n
 *                 ranges, free a random half, refill with mixed sizes; then
 *                 each op allocates a size-aligned range of random size
 *                 top-down below the limit and frees a random live range
 *                 (ns per alloc+free pair)
 *   lookup_point  the range containing a random mapped address
 *   erase_range_0.1pct, erase_range_10pct
 *                 on that set, every range overlapping a window of n/1000
 *                 (n/10) consecutive live ranges, given only the window's
 *                 first and last page: name_erase_range (ns per range
 *                 erased; only the implementations with a range call)
 *   erase_loop_0.1pct, erase_loop_10pct
 *                 the same windows freed one range at a time through
 *                 their handles: the loop a caller writes without a range
 *                 call (every implementation)
 *
 * Units are pages. Request sizes run from 1 page (4 KiB) to 512 pages
 * (2 MiB), skewed small as DMA traffic is; each is aligned to its size
 * rounded up to a power of two, as Linux does for size-aligned IOVAs. The
 * address space grows with n so that the fill leaves it about 60% used.
 * Every implementation gets the same request sizes and the same choices of
 * victim (by index into its own live array).
 *
 * Usage: build/bench/extent [--quick] [--n N] [--op A,B] [--impl A,B]
 * (rows on stdout, progress on stderr; see main)
 */
#include <stdbool.h>

#include "harness.h"

/* ------------------------------------------------------------ ours */

#include "bench/extent_skiplist.h"

SKIPLIST_EXTENT_DEFINE(sx, struct range, uint64_t, start, size,
                       SKIPLIST_DEFAULTS)

EXTENT_SKIPLIST_BULK_ADAPTER(sx, extent_impl_skiplist, "skiplist")

/* BENCH_BASE_ROW (bench/bench.mk, BENCH_BASE=REV): "skiplist_base", the
 * default configuration of an earlier skiplist.h, is linked in from
 * bench/extent_base.c. */

/* ------------------------------------------- the peer (extent_iova_rb.c) */

#include "bench/extent_iova_rb.h"

/* ---------------------------------------------------------- requests */

/* Pages, skewed small: mean about 14. */
static uint64_t req_size(uint64_t *rs)
{
    uint64_t k = bench_rand_below(rs, 100);
    if (k < 50)
        return 1;
    if (k < 75)
        return 2 + bench_rand_below(rs, 3);
    if (k < 90)
        return 5 + bench_rand_below(rs, 12);
    if (k < 97)
        return 17 + bench_rand_below(rs, 48);
    return 65 + bench_rand_below(rs, 448);
}

/* ------------------------------------------------------- iova_rb adapter
 * alloc_iova(size, limit - 1, size_aligned = 1) */
struct peer {
    struct iova_domain *d;
    uint64_t limit;
};

static void *peer_make(uint64_t limit, size_t cap)
{
    (void)cap;
    struct peer *p = (struct peer *)calloc(1, sizeof(*p));
    if (!p)
        abort();
    /* The whole space is "32-bit": every request goes through
     * cached32_node, as a 32-bit DMA mask does. */
    p->d = iova_rb_new(START_PFN, (unsigned long)limit);
    if (!p->d)
        abort();
    p->limit = limit;
    return p;
}

static void peer_drop(void *ctx)
{
    struct peer *p = (struct peer *)ctx;
    iova_rb_delete(p->d);
    free(p);
}

static void *peer_alloc(void *ctx, uint64_t size)
{
    struct peer *p = (struct peer *)ctx;
    return iova_rb_alloc(p->d, (unsigned long)size,
                         (unsigned long)(p->limit - 1), 1);
}

static void peer_release(void *ctx, void *h)
{
    iova_rb_free(((struct peer *)ctx)->d, (struct iova *)h);
}

static void *peer_lookup(void *ctx, uint64_t pfn)
{
    return iova_rb_find(((struct peer *)ctx)->d, (unsigned long)pfn);
}

static uint64_t peer_lo(const void *h)
{
    return iova_rb_lo((const struct iova *)h);
}

static uint64_t peer_hi(const void *h)
{
    return iova_rb_hi((const struct iova *)h);
}

static double peer_bpi(void *ctx, size_t n)
{
    (void)ctx;
    (void)n;
    return (double)iova_rb_node_bytes();
}

/* The domain (its anchor range included) and each range's links; the
 * range itself (pfn_lo, pfn_hi) is the element. */
static double peer_footprint(void *ctx, size_t n)
{
    (void)ctx;
    return (double)(iova_rb_head_bytes() + n * iova_rb_node_bytes());
}

static int peer_check(void *ctx)
{
    (void)ctx;
    return 0;
}

/* reserve_iova() of a range freed before. */
static void *peer_restore(void *ctx, uint64_t lo, uint64_t hi)
{
    return iova_rb_reserve(((struct peer *)ctx)->d, (unsigned long)lo,
                           (unsigned long)hi);
}

/* No many: iova_rb allocates its ranges itself (footprint_rss below). No
 * erase_range: the Linux allocator has no range free (callers free each
 * IOVA), so it gets the erase_loop rows only. */
static const struct extent_impl extent_impl_iova_rb = {
    "iova_rb",      peer_make, peer_drop, peer_alloc,  peer_release,
    peer_lookup,    peer_lo,   peer_hi,   peer_bpi,    peer_check,
    peer_footprint, NULL,      NULL,      peer_restore};

/* skiplist_base, an earlier skiplist.h (bench/extent_base.c), is there only
 * with BENCH_BASE (bench/bench.mk defines BENCH_BASE_ROW). */
static const struct extent_impl *const impls[] = {
    &extent_impl_skiplist,
#ifdef BENCH_BASE_ROW
    &extent_impl_skiplist_base,
#endif
    &extent_impl_iova_rb,
};

/* ------------------------------------------------------------ driver */

struct run {
    const struct extent_impl *im;
    void *ctx;
    void **live;
    size_t nlive, cap;
    unsigned long enospc;
};

static void run_alloc(struct run *r, uint64_t *rs)
{
    void *h = r->im->alloc(r->ctx, req_size(rs));
    if (h)
        r->live[r->nlive++] = h;
    else
        r->enospc++;
}

static void run_free(struct run *r, uint64_t *rs)
{
    if (!r->nlive)
        return;
    size_t i = (size_t)bench_rand_below(rs, r->nlive);
    r->im->release(r->ctx, r->live[i]);
    r->live[i] = r->live[--r->nlive];
}

/* Fill to n, free a random half, refill to n. */
static void run_setup(struct run *r, size_t n, uint64_t limit)
{
    r->cap = n + n / 2 + 16;
    r->live = (void **)malloc(r->cap * sizeof(*r->live));
    if (!r->live)
        abort();
    r->nlive = 0;
    r->enospc = 0;
    r->ctx = r->im->make(limit, r->cap);
    uint64_t rs = 0x5eed0001;
    for (size_t i = 0; i < n; i++)
        run_alloc(r, &rs);
    for (size_t i = 0; i < n / 2; i++)
        run_free(r, &rs);
    while (r->nlive < n && r->enospc < n)
        run_alloc(r, &rs);
}

/* Steady-state alloc+free pairs until ops are done or the time budget is
 * spent (the peer's walk can be slow under fragmentation). */
static double run_alloc_free(struct run *r, uint64_t *rs, unsigned long ops,
                             uint64_t budget_ns, unsigned long *done)
{
    uint64_t t0 = bench_now_ns(), t = t0;
    unsigned long i = 0;
    while (i < ops && t - t0 < budget_ns) {
        unsigned long end = i + 256 < ops ? i + 256 : ops;
        for (; i < end; i++) {
            run_alloc(r, rs);
            run_free(r, rs);
        }
        t = bench_now_ns();
    }
    *done = i;
    return (double)(t - t0) / (double)i;
}

static double run_lookup(struct run *r, const uint64_t *q, size_t nq)
{
    uint64_t acc = 0;
    uint64_t t0 = bench_now_ns();
    for (size_t i = 0; i < nq; i++) {
        const void *h = r->im->lookup(r->ctx, q[i]);
        acc += (uint64_t)(uintptr_t)h;
    }
    uint64_t t1 = bench_now_ns();
    bench_sink += acc;
    return (double)(t1 - t0) / (double)nq;
}

#define NIMPL (sizeof(impls) / sizeof(impls[0]))
#define REPS BENCH_REPS(3)

static void check_or_die(struct run *r)
{
    if (r->im->check(r->ctx) != 0)
        exit(1);
}

/* The selected implementations (--impl; all by default). */
static const struct extent_impl *sel[NIMPL];
static size_t nsel;

/* ------------------------------------------------------ erase windows
 * On the set alloc_free left (fragmented, n live ranges): windows of
 * n/1000 consecutive live ranges (pairs of them, together n/10 ranges),
 * then of n/10 (one pair), by position in the implementation's own live
 * set sorted by start. Of each pair one window goes through erase_range
 * (given its first and last page) and the other is freed one range at a
 * time through release: the loop a caller writes without a range call,
 * the two taking turns as bench_windows_erase has them (the kind that
 * starts alternating with the repetition too). After each size the erased
 * ranges are put back (restore, untimed, in random order), so every repetition
 * starts from the same n. An implementation without erase_range runs the loop
 * windows only. */

enum { EW_RANGE_S, EW_RANGE_L, EW_LOOP_S, EW_LOOP_L, EW_OPS };
static const char *const ew_names[EW_OPS] = {
    "erase_range_0.1pct", "erase_range_10pct", "erase_loop_0.1pct",
    "erase_loop_10pct"};

/* A live range of one implementation: its pages and handle. */
struct item {
    uint64_t lo, hi;
    void *h;
};

static int item_cmp(const void *a, const void *b)
{
    uint64_t x = ((const struct item *)a)->lo, y = ((const struct item *)b)->lo;
    return (x > y) - (x < y);
}

static void shuffle_pos(size_t *a, size_t n, uint64_t *rs)
{
    for (size_t i = n - 1; i > 0 && n; i--) {
        size_t j = (size_t)bench_rand_below(rs, i + 1), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static void die(const struct extent_impl *im, const char *op, const char *what)
{
    fprintf(stderr, "extent: %s: %s: %s\n", im->name, op, what);
    exit(1);
}

/* What bench_windows_erase's callback needs: the set and its windows. */
struct erase_job {
    struct run *r;
    const struct item *it;
    const size_t *pos; /* first positions, range windows then loop ones */
    size_t pairs, width;
};

/* Windows [from, to) of one kind (bench_windows_erase): the loop frees
 * each range through its handle; a range window whose count is not its
 * width is a failure. */
static size_t erase_windows(void *arg, int loop, size_t from, size_t to)
{
    const struct erase_job *j = (const struct erase_job *)arg;
    const struct extent_impl *im = j->r->im;
    size_t bad = 0;
    for (size_t i = from; i < to; i++) {
        size_t p = j->pos[(loop ? j->pairs : 0) + i];
        if (loop)
            for (size_t q = 0; q < j->width; q++)
                im->release(j->r->ctx, j->it[p + q].h);
        else
            bad += im->erase_range(j->r->ctx, j->it[p].lo,
                                   j->it[p + j->width - 1].hi) != j->width;
    }
    return bad;
}

/* One repetition of the erase windows on r's set (it: its n live ranges
 * sorted by start). Adds ns and ranges erased per op to t[] and cnt[];
 * gone: n bytes of 0, scratch. */
static void erase_rep(struct run *r, struct item *it, size_t n, int rep,
                      uint64_t *t, uint64_t *cnt, unsigned char *gone)
{
    const struct extent_impl *im = r->im;
    size_t width_s = n / 1000 ? n / 1000 : 1, width_l = n / 10 ? n / 10 : 1;
    size_t pairs_s = n / 20 / width_s ? n / 20 / width_s : 1;
    size_t nb = 2 * pairs_s * width_s > 2 * width_l ? 2 * pairs_s * width_s
                                                    : 2 * width_l;
    size_t *pos = (size_t *)malloc(2 * pairs_s * sizeof(*pos));
    size_t *back = (size_t *)malloc(nb * sizeof(*back));
    if (!pos || !back)
        abort();
    for (int large = 0; large < 2; large++) {
        size_t width = large ? width_l : width_s, pairs = large ? 1 : pairs_s;
        int op[2] = {large ? EW_RANGE_L : EW_RANGE_S,
                     large ? EW_LOOP_L : EW_LOOP_S};
        bench_windows(n, width, 2 * pairs,
                      0x77696e646f77ull ^ n ^ ((uint64_t)rep << 48) ^
                          (uint64_t)large,
                      pos);
        struct erase_job job = {r, it, pos, pairs, width};
        uint64_t ns[2] = {0, 0};
        if (bench_windows_erase(pairs, rep, im->erase_range != NULL, 1,
                                erase_windows, &job, ns))
            die(im, ew_names[op[0]], "wrong count erased");
        size_t nback = 0;
        for (int k = 0; k < 2; k++) {
            if (k == 0 && !im->erase_range)
                continue;
            t[op[k]] += ns[k];
            cnt[op[k]] += (uint64_t)pairs * width;
            for (size_t i = 0; i < pairs; i++)
                for (size_t j = 0; j < width; j++)
                    back[nback++] = pos[k * pairs + i] + j;
        }
        /* Nothing of the windows may be left, nothing else gone: the
         * ranges next to each window are there unless erased too. */
        for (size_t i = 0; i < nback; i++)
            gone[back[i]] = 1;
        for (size_t i = 0; i < nback; i += 61)
            if (im->lookup(r->ctx, it[back[i]].lo))
                die(im, ew_names[large], "a range of a window is still there");
        for (size_t i = 0; i < 2 * pairs; i++) {
            size_t p = pos[i], a = p - 1, z = p + width;
            if ((p > 0 && !gone[a] &&
                 im->lookup(r->ctx, it[a].hi) != it[a].h) ||
                (z < n && !gone[z] && im->lookup(r->ctx, it[z].lo) != it[z].h))
                die(im, ew_names[large], "a neighbour of a window is gone");
        }
        for (size_t i = 0; i < nback; i++)
            gone[back[i]] = 0;
        uint64_t bs =
            0x6261636bull ^ n ^ ((uint64_t)rep << 32) ^ (uint64_t)large;
        shuffle_pos(back, nback, &bs);
        for (size_t i = 0; i < nback; i++) {
            struct item *x = &it[back[i]];
            if (!(x->h = im->restore(r->ctx, x->lo, x->hi)))
                die(im, ew_names[large], "restore failed");
        }
        check_or_die(r);
    }
    free(back);
    free(pos);
}

/* The erase windows for every selected implementation, REPS repetitions,
 * the implementations in turn within each; the rows. */
static void run_erase(struct run *r, size_t n)
{
    double v[NIMPL][EW_OPS][REPS];
    struct item *it[NIMPL];
    for (size_t k = 0; k < nsel; k++) {
        it[k] = (struct item *)malloc(r[k].nlive * sizeof(*it[k]));
        if (!it[k])
            abort();
        for (size_t i = 0; i < r[k].nlive; i++) {
            it[k][i].h = r[k].live[i];
            it[k][i].lo = r[k].im->lo(r[k].live[i]);
            it[k][i].hi = r[k].im->hi(r[k].live[i]);
        }
        qsort(it[k], r[k].nlive, sizeof(*it[k]), item_cmp);
    }
    size_t most = 0;
    for (size_t k = 0; k < nsel; k++)
        most = r[k].nlive > most ? r[k].nlive : most;
    unsigned char *gone = (unsigned char *)calloc(most ? most : 1, 1);
    if (!gone)
        abort();
    for (int i = 0; i < REPS; i++)
        for (size_t j = 0; j < nsel; j++) {
            size_t k = bench_visit(j, nsel, i);
            uint64_t t[EW_OPS] = {0}, cnt[EW_OPS] = {0};
            erase_rep(&r[k], it[k], r[k].nlive, i, t, cnt, gone);
            for (int op = 0; op < EW_OPS; op++)
                v[k][op][i] = cnt[op] ? (double)t[op] / (double)cnt[op] : -1.0;
        }
    for (int op = 0; op < EW_OPS; op++)
        for (size_t k = 0; k < nsel; k++)
            if (v[k][op][0] >= 0)
                bench_row("extent", r[k].im->name, ew_names[op], n, 1,
                          bench_median(v[k][op], REPS),
                          r[k].im->bytes_per_item(r[k].ctx, r[k].nlive));
    for (size_t k = 0; k < nsel; k++) {
        /* The handles changed: the live set is the items now. */
        for (size_t i = 0; i < r[k].nlive; i++)
            r[k].live[i] = it[k][i].h;
        free(it[k]);
    }
    free(gone);
}

/* The selected implementations (--impl; all by default) are set up side by
 * side and their repetitions alternate, so a change in machine load hits
 * all alike and the ratios hold (this is a shared machine). af: time
 * alloc_free and lookup_point; ew: the erase windows (after them: they
 * take ranges out and put them back). */
static void bench_n(size_t n, bool quick, bool af, bool ew)
{
    /* ~60% of the space used after the fill: sizes average ~14 pages and
     * alignment wastes some more. */
    uint64_t limit = (uint64_t)n * 24 + 1024;
    unsigned long af_ops = quick ? 60000 : 200000;
    uint64_t budget = quick ? 800000000ull : 2000000000ull;
    size_t nq = quick ? 300000 : 1000000;
    struct run r[NIMPL];
    uint64_t rs[NIMPL];
    double v[NIMPL][REPS];

    for (size_t k = 0; k < nsel; k++) {
        r[k] = (struct run){sel[k], NULL, NULL, 0, 0, 0};
        uint64_t t0 = bench_now_ns();
        run_setup(&r[k], n, limit);
        fprintf(stderr, "  extent %s n=%zu: setup %.2f s, %lu ENOSPC\n",
                r[k].im->name, n, (double)(bench_now_ns() - t0) / 1e9,
                r[k].enospc);
        check_or_die(&r[k]);
        /* Warm up into the steady state. */
        unsigned long done;
        rs[k] = 0xa110cf5eull; /* the same request stream for each */
        run_alloc_free(&r[k], &rs[k], af_ops / 4, budget / 4, &done);
        r[k].enospc = 0;
    }

    unsigned long total[NIMPL] = {0};
    for (int i = 0; i < REPS && af; i++)
        for (size_t j = 0; j < nsel; j++) {
            size_t k = bench_visit(j, nsel, i);
            unsigned long done;
            v[k][i] = run_alloc_free(&r[k], &rs[k], af_ops, budget, &done);
            total[k] += done;
        }
    for (size_t k = 0; k < nsel && af; k++) {
        bench_row("extent", r[k].im->name, "alloc_free", n, 1,
                  bench_median(v[k], REPS),
                  r[k].im->bytes_per_item(r[k].ctx, r[k].nlive));
        fprintf(stderr, "  extent %s n=%zu: %lu alloc_free ops, %lu ENOSPC\n",
                r[k].im->name, n, total[k], r[k].enospc);
        check_or_die(&r[k]);
    }

    /* Queries: a random address inside a random live range, drawn the
     * same way from each implementation's own live set. */
    uint64_t *q[NIMPL];
    for (size_t k = 0; k < nsel && af; k++) {
        q[k] = (uint64_t *)malloc(nq * sizeof(*q[k]));
        if (!q[k])
            abort();
        uint64_t qs = 0x100cf00dull;
        for (size_t i = 0; i < nq; i++) {
            const void *h = r[k].live[bench_rand_below(&qs, r[k].nlive)];
            uint64_t lo = r[k].im->lo(h), hi = r[k].im->hi(h);
            q[k][i] = lo + bench_rand_below(&qs, hi - lo + 1);
        }
        run_lookup(&r[k], q[k], nq / 4);
    }
    for (int i = 0; i < REPS && af; i++)
        for (size_t j = 0; j < nsel; j++) {
            size_t k = bench_visit(j, nsel, i);
            v[k][i] = run_lookup(&r[k], q[k], nq);
        }
    for (size_t k = 0; k < nsel && af; k++) {
        bench_row("extent", r[k].im->name, "lookup_point", n, 1,
                  bench_median(v[k], REPS),
                  r[k].im->bytes_per_item(r[k].ctx, r[k].nlive));
        /* Every lookup must have hit: a wrong answer is a failed run. */
        for (size_t i = 0; i < nq; i += 97) {
            const void *h = r[k].im->lookup(r[k].ctx, q[k][i]);
            if (!h || r[k].im->lo(h) > q[k][i] || r[k].im->hi(h) < q[k][i]) {
                fprintf(stderr, "extent: %s lookup(%llu) wrong\n",
                        r[k].im->name, (unsigned long long)q[k][i]);
                exit(1);
            }
        }
        free(q[k]);
    }

    if (ew)
        run_erase(r, n);
    for (size_t k = 0; k < nsel; k++) {
        r[k].im->drop(r[k].ctx);
        free(r[k].live);
    }
}

/* ----------------------------------------------------------- footprint
 * footprint: bytes one extent index costs with n ranges, n = 0 ... 256,
 * allocated as alloc_free allocates them (sizes from req_size, top-down).
 * footprint_rss (ours only, the implementations with many(): iova_rb's
 * ranges are nodes it allocates itself, so they cannot be allocated before
 * the baseline): the process's resident memory growth over RSS_LISTS
 * indexes of one range each, per index, in a child process, the ranges
 * allocated and written before the baseline. */
static const size_t footprint_sizes[] = {0, 1, 4, 16, 64, 256};
#define RSS_LISTS 1000000

static bool run_footprint(const char *only_impl)
{
    bool ok = true;
    for (size_t k = 0; k < NIMPL; k++) {
        const struct extent_impl *im = impls[k];
        if (!bench_listed(only_impl, im->name))
            continue;
        for (size_t i = 0; i < sizeof(footprint_sizes) / sizeof(size_t); i++) {
            size_t n = footprint_sizes[i];
            uint64_t rs = 0x666f6f74ull;
            void *ctx = im->make((uint64_t)1 << 24, n + 1);
            size_t got = 0;
            while (got < n && im->alloc(ctx, req_size(&rs)))
                got++;
            if (got != n || im->check(ctx) != 0) {
                fprintf(stderr, "extent: %s: footprint: build of %zu failed\n",
                        im->name, n);
                ok = false;
            } else {
                bench_row_bytes("extent", im->name, "footprint", n,
                                im->footprint(ctx, n));
            }
            im->drop(ctx);
        }
    }
    return ok;
}

struct rss_job {
    const struct extent_impl *im;
    size_t count;
};

/* In the child: bytes of process memory per one-range index. */
static double rss_child(void *arg)
{
    const struct rss_job *j = (const struct rss_job *)arg;
    size_t count = j->count;
    struct range *e = (struct range *)malloc(count * sizeof(*e));
    uint64_t rs = 0x727373ull;
    if (!e)
        return -1;
    for (size_t i = 0; i < count; i++) {
        e[i].start = bench_rand_below(&rs, (uint64_t)1 << 40);
        e[i].size = req_size(&rs);
    }
    size_t before = bench_rss();
    void *a = j->im->many(e, count);
    size_t after = bench_rss();
    if (!a || !before || after < before)
        return -1;
    return (double)(after - before) / (double)count;
}

int main(int argc, char **argv)
{
    bool quick = bench_quick(argc, argv) != 0;
    static const size_t full[] = {1000, 10000, 100000, 1000000};
    static const size_t fast[] = {100000, 1000000};
    const size_t *ns = quick ? fast : full;
    size_t count = quick ? 2 : 4;
    /* Development aids (make targets never pass them): --op A,B:
     * alloc_free and lookup_point run together (lookups need the fragmented
     * set), the four erase ops together (erase_range_0.1pct, ...; on the
     * set alloc_free's warm-up leaves when it is not named), footprint,
     * footprint_rss; --impl A,B: those implementations
     * only; --n N: the timed ops at that size only (footprint and
     * footprint_rss then only when --op names them). Each also as
     * --opt=value. */
    const char *only_op = bench_arg(argc, argv, "--op");
    const char *only_impl = bench_arg(argc, argv, "--impl");
    const char *only_n = bench_arg(argc, argv, "--n");
    size_t one_n = 0;
    bool timed = !only_op || bench_listed(only_op, "alloc_free") ||
                 bench_listed(only_op, "lookup_point");
    bool ew = !only_op;
    for (int op = 0; op < EW_OPS && only_op; op++)
        ew = ew || bench_listed(only_op, ew_names[op]);
    bool fp = only_op ? bench_listed(only_op, "footprint") : !only_n;
    bool fp_rss = only_op ? bench_listed(only_op, "footprint_rss") : !only_n;
    bool ok = true;

    if (only_op && !timed && !ew && !fp && !fp_rss) {
        fprintf(stderr, "extent: --op: no known op in '%s'\n", only_op);
        return 2;
    }
    if (only_n) {
        one_n = (size_t)strtoull(only_n, NULL, 10);
        if (one_n < 2) {
            fprintf(stderr, "extent: --n wants at least 2\n");
            return 2;
        }
        ns = &one_n;
        count = 1;
    }
    for (size_t k = 0; k < NIMPL; k++)
        if (bench_listed(only_impl, impls[k]->name))
            sel[nsel++] = impls[k];
    /* First, while the heap is fresh: the child forks from it. */
    for (size_t k = 0; k < nsel && fp_rss; k++) {
        if (!sel[k]->many)
            continue;
        struct rss_job j = {sel[k], RSS_LISTS};
        double b = bench_in_child(rss_child, &j);
        if (b < 0) {
            fprintf(stderr, "extent: %s: footprint_rss failed\n", sel[k]->name);
            ok = false;
        } else {
            bench_row_bytes("extent", sel[k]->name, "footprint_rss", 1, b);
        }
    }
    if (fp)
        ok = run_footprint(only_impl) && ok;
    for (size_t i = 0; i < count && (timed || ew) && nsel; i++)
        bench_n(ns[i], quick, timed, ew);
    return ok ? 0 : 1;
}
