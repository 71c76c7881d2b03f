/* pq suite (docs/benchmark.md): our priority-queue face against the BFS
 * list it was meant to replace and the usual priority queues with handles.
 *
 * Per size n (queued elements), keys from one seeded bench_rand stream:
 *   hold          the classic hold model: pop the minimum, push it back with
 *                 its key plus a random increment in [1, 2^32]; n constant
 *   erase_handle  remove known elements through their handle, k = n/8 per
 *                 queue per batch (at least 1: at n = 1 the sole element),
 *                 each batch timed alone; untimed re-pushes restore n
 *   insert        push k new elements per queue (random keys), timed alone;
 *                 untimed removals restore n
 * Small queues are measured many at a time (up to 64 queues of n, batches
 * of >= 64 operations) so that the timer is read once per batch rather than
 * per operation; its own cost is measured and subtracted.
 *
 * ns_per_op is the median over repetitions; each repetition visits every
 * implementation in turn, so a noisy moment on this shared machine hits all
 * of them rather than one. bytes_per_item is what the structure holds for n
 * elements, links inside the elements included, divided by n.
 *
 * Before timing, every implementation runs the same hold stream from the
 * same keys and must return the same checksum and drain in sorted order;
 * one that answers wrongly prints no rows and the program exits non-zero.
 *
 * footprint: bytes one queue of n = 0, 1, 4, 16, 64, 256 elements costs
 * (each implementation's footprint(): head, heap, fields in the elements),
 * one queue alive at a time. footprint_rss: the process's resident memory
 * growth over RSS_LISTS queues of one element each, per queue, in a child
 * process, the elements allocated and written before the baseline.
 *
 * Options: --quick (n up to 1024, shorter repetitions), --impl=a,b,
 * --op=hold,footprint,footprint_rss, --n=16,1024 (also --opt value). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/harness.h"
#include "bench/pq_impl.h"

/* skiplist_base, an earlier skiplist.h (bench/pq_base.c), is there only
 * with BENCH_BASE (bench/bench.mk defines BENCH_BASE_ROW). */
static const struct pq_impl *const impls[] = {
    &pq_impl_skiplist,
#ifdef BENCH_BASE_ROW
    &pq_impl_skiplist_base, /* second: bench_visit swaps the first two */
#endif
    &pq_impl_skiplist_k1,   &pq_impl_bfs_list,  &pq_impl_binheap,
    &pq_impl_pairing_heap,  &pq_impl_rb_cached,
};
#define NIMPL (sizeof impls / sizeof impls[0])

enum { OP_HOLD, OP_ERASE, OP_INSERT, NOPS };
static const char *const op_names[NOPS] = {"hold", "erase_handle", "insert"};

#define NINC 4096 /* power of two */
#define KEY_RANGE (UINT64_C(1) << 32)

static double timer_cost_ns;

/* Smallest cost of one empty timed section. */
static double measure_timer_cost(void)
{
    double best = 1e9;
    for (int i = 0; i < 2000; i++) {
        uint64_t a = bench_now_ns();
        uint64_t b = bench_now_ns();
        if ((double)(b - a) < best)
            best = (double)(b - a);
    }
    return best;
}

/* One implementation's state for one (n, op): nq queues of n elements and
 * k spare elements per queue. */
struct pq_state {
    const struct pq_impl *impl;
    void **hs;
    size_t nq, n, k;
    struct pq_elem *elems;  /* nq * (n + k), queue q's at q * (n + k) */
    uint32_t *order;        /* per queue: indices, queued ones first */
    struct pq_elem **batch; /* nq * k */
    uint64_t rng;
    double samples[16];
    int nsamples;
    size_t per_rep; /* hold: operations per repetition */
    bool ok;
};

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "pq: out of memory\n");
        exit(2);
    }
    return p;
}

static void state_init(struct pq_state *s, const struct pq_impl *impl,
                       size_t nq, size_t n, size_t k, uint64_t seed)
{
    memset(s, 0, sizeof(*s));
    s->impl = impl;
    s->nq = nq;
    s->n = n;
    s->k = k;
    s->rng = seed;
    s->ok = true;
    s->hs = (void **)xmalloc(nq * sizeof(void *));
    s->elems = (struct pq_elem *)xmalloc(nq * (n + k) * sizeof(*s->elems));
    memset(s->elems, 0, nq * (n + k) * sizeof(*s->elems));
    s->order = (uint32_t *)xmalloc(nq * (n + k) * sizeof(uint32_t));
    s->batch = (struct pq_elem **)xmalloc(nq * (k ? k : 1) * sizeof(void *));
    /* Same keys for every implementation: the stream depends on seed only. */
    struct pq_elem **all = (struct pq_elem **)xmalloc(nq * n * sizeof(void *));
    for (size_t q = 0; q < nq; q++) {
        s->hs[q] = impl->create(n + k);
        if (!s->hs[q]) {
            fprintf(stderr, "pq: %s: create failed\n", impl->name);
            exit(2);
        }
        for (size_t i = 0; i < n + k; i++) {
            struct pq_elem *e = &s->elems[q * (n + k) + i];
            e->qid = (uint32_t)q;
            e->key = bench_rand_below(&s->rng, KEY_RANGE);
            s->order[q * (n + k) + i] = (uint32_t)i;
            if (i < n)
                all[q * n + i] = e;
        }
    }
    if (impl->push_all(s->hs, all, nq * n))
        s->ok = false;
    free(all);
}

static void state_free(struct pq_state *s)
{
    for (size_t q = 0; q < s->nq; q++)
        s->impl->destroy(s->hs[q]);
    free(s->hs);
    free(s->elems);
    free(s->order);
    free(s->batch);
}

/* Picks k of queue q's queued (erase) or spare (insert) elements at random
 * into the batch, and swaps them to the other side of the order array. */
static void choose(struct pq_state *s, size_t q, bool queued, size_t at)
{
    size_t stride = s->n + s->k;
    uint32_t *ord = s->order + q * stride;
    for (size_t j = 0; j < s->k; j++) {
        size_t lo, hi, dst;
        if (queued) { /* pick from [0, n - j), move to the end of queued */
            lo = 0;
            hi = s->n - j;
            dst = hi - 1;
        } else { /* pick from the spares [n + j, n + k), move to n + j */
            lo = s->n + j;
            hi = s->n + s->k;
            dst = lo;
        }
        size_t r = lo + (size_t)bench_rand_below(&s->rng, hi - lo);
        uint32_t x = ord[r];
        ord[r] = ord[dst];
        ord[dst] = x;
        s->batch[at + j] = &s->elems[q * stride + x];
    }
}

/* One timed batch of erase or insert; returns its ns (timer cost off). */
static double batch(struct pq_state *s, int op)
{
    size_t m = s->nq * s->k;
    for (size_t q = 0; q < s->nq; q++)
        choose(s, q, op == OP_ERASE, q * s->k);
    if (op == OP_INSERT)
        for (size_t i = 0; i < m; i++)
            s->batch[i]->key = bench_rand_below(&s->rng, KEY_RANGE);
    uint64_t t0 = bench_now_ns();
    size_t bad = op == OP_ERASE ? s->impl->remove_all(s->hs, s->batch, m)
                                : s->impl->push_all(s->hs, s->batch, m);
    uint64_t t1 = bench_now_ns();
    if (op == OP_ERASE) {
        for (size_t i = 0; i < m; i++)
            s->batch[i]->key = bench_rand_below(&s->rng, KEY_RANGE);
        bad += s->impl->push_all(s->hs, s->batch, m); /* same set queued */
    } else {
        bad += s->impl->remove_all(s->hs, s->batch, m);
    }
    if (bad)
        s->ok = false;
    double ns = (double)(t1 - t0) - timer_cost_ns;
    return ns > 0 ? ns : 0;
}

/* ns per operation over at least target_ns of timed work. */
static double measure(struct pq_state *s, int op, const uint64_t *inc,
                      double target_ns)
{
    if (op == OP_HOLD) {
        uint64_t t0 = bench_now_ns();
        uint64_t sum = s->impl->hold(s->hs[0], inc, NINC, s->per_rep);
        uint64_t t1 = bench_now_ns();
        bench_sink += sum;
        if (!sum && s->n)
            s->ok = false;
        return ((double)(t1 - t0) - timer_cost_ns) / (double)s->per_rep;
    }
    double ns = 0;
    size_t ops = 0;
    do {
        ns += batch(s, op);
        ops += s->nq * s->k;
    } while (ns < target_ns && s->ok);
    return ns / (double)ops;
}

/* The same hold stream on every implementation must give the same sum and
 * drain sorted. Returns false for a wrong answer. */
static bool verify(const struct pq_impl *impl, size_t n, uint64_t seed,
                   const uint64_t *inc, uint64_t *sum_out)
{
    struct pq_state s;
    state_init(&s, impl, 1, n, 0, seed);
    size_t m = n <= 1024 ? 4096 : 1024;
    uint64_t sum = impl->hold(s.hs[0], inc, NINC, m);
    uint64_t *keys = (uint64_t *)xmalloc((n + 1) * sizeof(uint64_t));
    size_t got = impl->drain(s.hs[0], keys);
    bool ok = s.ok && got == n && sum != 0;
    for (size_t i = 1; ok && i < got; i++)
        ok = keys[i - 1] <= keys[i];
    free(keys);
    state_free(&s);
    *sum_out = sum;
    return ok;
}

static const size_t footprint_sizes[] = {0, 1, 4, 16, 64, 256};
#define FOOTPRINT_MAX 256
#define RSS_LISTS 1000000

static bool run_footprint(const char *only_impl, const char *only_n)
{
    struct pq_elem *el = (struct pq_elem *)xmalloc(FOOTPRINT_MAX * sizeof(*el));
    struct pq_elem *ptr[FOOTPRINT_MAX];
    uint64_t keys[FOOTPRINT_MAX + 1];
    bool ok = true;

    for (size_t i = 0; i < NIMPL; i++) {
        const struct pq_impl *im = impls[i];
        if (!bench_listed(only_impl, im->name))
            continue;
        for (size_t k = 0; k < sizeof(footprint_sizes) / sizeof(size_t); k++) {
            size_t n = footprint_sizes[k];
            char nbuf[32];
            snprintf(nbuf, sizeof nbuf, "%zu", n);
            if (only_n && !bench_listed(only_n, nbuf))
                continue;
            uint64_t rng = 0x666f6f74ull;
            memset(el, 0, FOOTPRINT_MAX * sizeof(*el));
            for (size_t j = 0; j < n; j++) {
                el[j].key = bench_rand_below(&rng, KEY_RANGE);
                ptr[j] = &el[j];
            }
            void *h = im->create(n);
            if (!h) {
                fprintf(stderr, "pq: %s: create failed\n", im->name);
                exit(2);
            }
            bool good = im->push_all(&h, ptr, n) == 0;
            double b = im->footprint(h, n);
            size_t got = im->drain(h, keys);
            good = good && got == n;
            for (size_t j = 1; good && j < got; j++)
                good = keys[j - 1] <= keys[j];
            im->destroy(h);
            if (!good) {
                fprintf(stderr, "pq: %s: footprint: queue of %zu wrong\n",
                        im->name, n);
                ok = false;
                break;
            }
            bench_row_bytes("pq", im->name, "footprint", n, b);
        }
    }
    free(el);
    return ok;
}

/* In the child: bytes of process memory per one-element queue. */
static double rss_child(void *arg)
{
    const struct pq_impl *im = (const struct pq_impl *)arg;
    struct pq_elem *el =
        (struct pq_elem *)xmalloc(RSS_LISTS * sizeof(struct pq_elem));
    uint64_t rng = 0x727373ull;
    memset(el, 0, RSS_LISTS * sizeof(*el));
    for (size_t i = 0; i < RSS_LISTS; i++)
        el[i].key = bench_rand_below(&rng, KEY_RANGE);
    size_t before = bench_rss();
    void *qs = im->many(el, RSS_LISTS);
    size_t after = bench_rss();
    if (!qs || !before || after < before)
        return -1;
    return (double)(after - before) / (double)RSS_LISTS;
}

static bool run_footprint_rss(const char *only_impl)
{
    bool ok = true;
    for (size_t i = 0; i < NIMPL; i++) {
        if (!impls[i]->many || !bench_listed(only_impl, impls[i]->name))
            continue;
        double b = bench_in_child(rss_child, (void *)impls[i]);
        if (b < 0) {
            fprintf(stderr, "pq: %s: footprint_rss failed\n", impls[i]->name);
            ok = false;
            continue;
        }
        bench_row_bytes("pq", impls[i]->name, "footprint_rss", 1, b);
    }
    return ok;
}

int main(int argc, char **argv)
{
    const bool quick = bench_quick(argc, argv);
    const char *only_impl = bench_arg(argc, argv, "--impl");
    const char *only_op = bench_arg(argc, argv, "--op");
    const char *only_n = bench_arg(argc, argv, "--n");
    static const size_t sizes[] = {1, 2, 4, 8, 16, 64, 256, 1024, 16384};
    const int reps = BENCH_REPS(quick ? 3 : 5);
    const double target_ns = quick ? 3e6 : 10e6;
    int status = 0;
    bool failed[NIMPL] = {false};

#ifdef BENCH_BASE_ROW
    if (pq_elem_size_base != sizeof(struct pq_elem)) {
        fprintf(stderr,
                "pq: skiplist_base: struct pq_elem is %zu bytes under the "
                "earlier skiplist.h and %zu under this one (struct "
                "skiplist_hook changed): the two cannot share the driver\n",
                pq_elem_size_base, sizeof(struct pq_elem));
        return 2;
    }
#endif
    timer_cost_ns = measure_timer_cost();
    uint64_t inc[NINC];
    uint64_t irng = 0x1234abcdull;
    for (size_t i = 0; i < NINC; i++)
        inc[i] = 1 + bench_rand_below(&irng, KEY_RANGE);

    /* Footprint first: the RSS child forks from a fresh heap. */
    bool timed = false;
    for (int op = 0; op < NOPS; op++)
        timed = timed || bench_listed(only_op, op_names[op]);
    bool fp = bench_listed(only_op, "footprint");
    bool fp_rss = bench_listed(only_op, "footprint_rss");
    if (!timed && !fp && !fp_rss) {
        fprintf(stderr, "pq: --op: no known op in '%s'\n", only_op);
        return 2;
    }
    if (fp_rss && (!only_n || bench_listed(only_n, "1")) &&
        !run_footprint_rss(only_impl))
        status = 1;
    if (fp && !run_footprint(only_impl, only_n))
        status = 1;

    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0] && timed; si++) {
        const size_t n = sizes[si];
        char nbuf[32];
        snprintf(nbuf, sizeof nbuf, "%zu", n);
        if ((quick && n > 1024) || (only_n && !bench_listed(only_n, nbuf)))
            continue;
        const uint64_t seed = 0x9e3779b9ull * (n + 1);

        /* Correctness first: one hold stream, same answer everywhere. */
        uint64_t want = 0;
        bool have_want = false;
        for (size_t i = 0; i < NIMPL; i++) {
            if (failed[i] || !bench_listed(only_impl, impls[i]->name))
                continue;
            uint64_t sum;
            bool ok = verify(impls[i], n, seed, inc, &sum);
            if (ok && !have_want) {
                want = sum;
                have_want = true;
            } else if (ok && sum != want) {
                ok = false;
            }
            if (!ok) {
                fprintf(stderr, "pq: %s answers wrongly at n=%zu\n",
                        impls[i]->name, n);
                failed[i] = true;
                status = 1;
            }
        }

        double bytes[NIMPL];
        for (size_t i = 0; i < NIMPL; i++)
            bytes[i] = -1;
        for (int op = 0; op < NOPS; op++) {
            if (!bench_listed(only_op, op_names[op]))
                continue;
            size_t nq = 1, k = 0;
            if (op != OP_HOLD) {
                nq = n >= 512 ? 1 : 512 / n > 64 ? 64 : 512 / n;
                k = n / 8 ? n / 8 : 1;
            }
            struct pq_state st[NIMPL];
            bool used[NIMPL] = {false};
            for (size_t i = 0; i < NIMPL; i++) {
                if (failed[i] || !bench_listed(only_impl, impls[i]->name))
                    continue;
                used[i] = true;
                state_init(&st[i], impls[i], nq, n, k, seed + (uint64_t)op);
                if (op == OP_HOLD) {
                    /* Warm up and size a repetition to about target_ns. */
                    st[i].per_rep = 256;
                    double ns = measure(&st[i], op, inc, target_ns);
                    double per = target_ns / (ns > 0.5 ? ns : 0.5);
                    st[i].per_rep = per < 64 ? 64 : (size_t)per;
                    bytes[i] = impls[i]->bytes(st[i].hs[0], n) / (double)n;
                } else {
                    (void)measure(&st[i], op, inc, target_ns / 4);
                }
            }
            for (int r = 0; r < reps; r++)
                for (size_t j = 0; j < NIMPL; j++) {
                    size_t i = bench_visit(j, NIMPL, r);
                    if (used[i] && st[i].nsamples < 16)
                        st[i].samples[st[i].nsamples++] =
                            measure(&st[i], op, inc, target_ns);
                }
            for (size_t i = 0; i < NIMPL; i++) {
                if (!used[i])
                    continue;
                if (!st[i].ok) {
                    fprintf(stderr, "pq: %s failed during %s at n=%zu\n",
                            impls[i]->name, op_names[op], n);
                    failed[i] = true;
                    status = 1;
                } else {
                    bench_row("pq", impls[i]->name, op_names[op], n, 1,
                              bench_median(st[i].samples, st[i].nsamples),
                              op == OP_HOLD || bench_listed(only_op, "hold")
                                  ? bytes[i]
                                  : -1);
                }
                state_free(&st[i]);
            }
        }
    }
    return status;
}
