/* rcu suite (docs/benchmark.md): concurrent ordered maps. Ours, with
 * lock-free readers and fine-grained writers (skiplist_rcu.h), against a
 * red-black tree behind one mutex, one rwlock or one spinlock, libcds's RCU
 * skiplist, oneTBB's concurrent_map (lookups and inserts only) and, for
 * lookups only, liburcu's RCU hash table. n = 10^6 elements, 1, 2 and 4
 * threads (this machine has 2 cores: 4 shows oversubscription).
 *
 * Keys: n random keys from bench_rand fill every structure, and n/4 more
 * start absent. Only the "owned" keys are ever inserted or erased: the
 * first n/4 present ones and the n/4 absent ones. A run with T threads
 * splits the owned keys by value into T disjoint key ranges, one per
 * thread. The other 3n/4 keys ("stable") are what lookups look up, so every
 * lookup must hit, and the addresses found are checked.
 *
 * Ops (suite rcu, n = 10^6). ns_per_op is the wall-clock time from the
 * barrier that releases all threads to the last thread's last operation,
 * divided by the operations of all threads together; each thread does a
 * fixed number of operations.
 *   read     lookups of stable keys only
 *   mixed90  each operation: 90% a lookup of a stable key, 10% a write on
 *            the thread's own keys (erase and insert alternating, so the
 *            structure keeps n elements)
 *   write    erase and insert alternating on the thread's own keys
 *   insert   inserts only: each thread inserts fresh keys of its own (in
 *            no structure and no other thread's share), n + T * m at the
 *            end; untimed, the main thread erases them again, alone, so
 *            every run starts from the same n keys
 *   mason    Chris Mason's skiplist v2 test rounds on the extent face (a
 *            structure of its own, see "mason" below). Its unit is not an
 *            operation but a round: ns_per_op is ns per round, all
 *            threads' rounds together; n is the number of extents.
 *
 * Element reuse: an element erased from an RCU structure may still be read
 * by readers. Each writer keeps its erased elements in a batch and, every
 * RETIRE_BATCH of them, waits one grace period (the structure's own
 * synchronize) before reusing them: batched synchronize, the same policy
 * for skiplist_rcu, cds_skiplist and urcu_lfht. The structures retire their
 * own nodes their own way (call_rcu in ours, libcds's general_buffered
 * buffer). The locked trees reuse an erased element at once. The insert
 * op's fresh elements are one array that every implementation inserts in
 * turn: after a run's untimed erases, one grace period passes before the
 * next run. mason puts back the very elements it erased, unchanged, as
 * Mason's test did: safe for structures that only point at elements
 * (skiplist_rcu) and under a lock (mutex_rb, spin_rb), not for an
 * intrusive RCU structure.
 *
 * mason replicates the rounds of Mason's skiplist_test module (v2),
 * whose keys are extents: items extents [i * 4096, (i + 1) * 4096), filled
 * in order. Each round draws op from the thread's generator and takes
 * key = (op % items) * 4096. An even op looks key up (the extent that
 * contains the point). An op that is a multiple of 3 pops: it erases the
 * extents at key, key + 4096, ... (min(128, items / 2) of them, fewer at
 * the end of the key space), one erase call each, then inserts the ones
 * it erased back, one by one, the same element objects. With 2 threads,
 * both run rounds on the one structure; an erase finds its extent gone
 * when the other thread's pop holds it, and a thread puts back only what
 * it erased itself, as Mason's test does. items = 10^5 and 10^6, 1 and 2
 * threads; skiplist_rcu against the rbtree behind a mutex and behind a
 * spinlock (Mason's own baseline).
 *
 * Order: per op, one untimed warm-up run per implementation, then each
 * repetition visits every thread count and, within it, every
 * implementation in turn, so that a noisy moment on this shared machine
 * falls on all of them rather than one. */
#include <malloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/harness.h"
#include "bench/rcu_impl.h"

/* Erased elements per grace period (see the top). */
#define RETIRE_BATCH 1024
/* mason: extent width, extents erased and put back per pop (at most). */
#define MASON_UNIT 4096
#define MASON_POP 128
#define MASON_MAX_SIZES 8
#define MAX_THREADS 64
#define MAX_REPS 9
/* Warm-up runs do this fraction of a timed run's operations. */
#define WARM_DIV 8

enum op { OP_READ, OP_MIXED90, OP_WRITE, OP_INSERT, OP_MASON, NOPS };
static const char *const op_names[NOPS] = {"read", "mixed90", "write", "insert",
                                           "mason"};

static const struct rcu_impl *const impls[] = {
    &rcu_impl_skiplist_rcu, &rcu_impl_mutex_rb,     &rcu_impl_rwlock_rb,
    &rcu_impl_spin_rb,      &rcu_impl_cds_skiplist, &rcu_impl_urcu_lfht,
    &rcu_impl_tbb_map,
};
#define NIMPL (sizeof(impls) / sizeof(impls[0]))

/* Who runs each op: urcu_lfht is the ceiling for point lookups only;
 * tbb_map has no erase that may run beside other operations (its
 * unsafe_erase), so it runs no op that erases; mason compares ours with
 * the locked trees, as Mason's test did. */
static const char *const op_impls[NOPS] = {
    "skiplist_rcu,mutex_rb,rwlock_rb,spin_rb,cds_skiplist,urcu_lfht,tbb_map",
    "skiplist_rcu,mutex_rb,rwlock_rb,spin_rb,cds_skiplist",
    "skiplist_rcu,mutex_rb,rwlock_rb,spin_rb,cds_skiplist",
    "skiplist_rcu,mutex_rb,rwlock_rb,spin_rb,cds_skiplist,tbb_map",
    "skiplist_rcu,mutex_rb,spin_rb",
};
/* mason runs at 1 and 2 threads only, as Mason's figures did. */
static const int op_max_threads[NOPS] = {MAX_THREADS, MAX_THREADS, MAX_THREADS,
                                         MAX_THREADS, 2};

/* An owned key and an index: in keyset.u, the key's index in key[]; in a
 * worker's ring, the entry's index in keyset.u (to write its state back). */
struct owned {
    uint64_t key;
    size_t u;
};

/* The keys of a run, shared by every implementation. */
struct keyset {
    size_t n;        /* prefilled */
    size_t n_own;    /* owned keys present at the start (and absent ones) */
    uint64_t *key;   /* [0, n) prefilled, [n, n + n_own) absent at start */
    struct owned *u; /* the 2 n_own owned keys, sorted by key */
    size_t nu;
    size_t nstable;
    /* insert: thread t's fresh elements are fresh[t * m_fresh, (t + 1) *
     * m_fresh), their keys in none of the arrays above. */
    struct rcu_elem *fresh;
    size_t m_fresh;
    /* Per thread: m stable keys to look up and their indexes in key[]. */
    uint64_t *qk[MAX_THREADS];
    uint32_t *qi[MAX_THREADS];
    size_t qm;
};

/* One implementation's structure, kept for the whole program. */
struct impl_state {
    const struct rcu_impl *im;
    void *h;
    struct rcu_elem *slab; /* slab[i] holds key[i] for i < n at the start */
    size_t nslab;
    struct rcu_elem **free; /* elements in no structure and no pool */
    size_t nfree;
    uint8_t *live; /* per keyset.u entry: in the structure */
    double bytes;  /* per element, after the fill */
    bool failed;
    double ns[NOPS][MAX_THREADS][MAX_REPS];
};

struct run_ctx {
    enum op op;
    size_t m; /* operations per thread */
    const struct keyset *ks;
    pthread_barrier_t start;
};

/* Cache-line aligned: each thread updates its own worker on every write,
 * and neighbours in one array must not share a line. */
struct worker {
    _Alignas(64) struct run_ctx *run;
    struct impl_state *st;
    /* This thread's owned keys: ring[head, head + nlive) (mod cap) are in
     * the structure, the rest are not. An erase takes the oldest present
     * key, an insert the key absent the longest. */
    struct owned *ring;
    size_t cap, head, nlive, nlive0;
    bool erase_next;
    /* Elements ready for inserts; erased ones waiting for a grace period. */
    struct rcu_elem **pool, **retired;
    size_t npool, nretired;
    const uint64_t *qk;
    struct rcu_elem *fresh; /* insert: this thread's fresh elements */
    size_t ninserted;
    uint64_t rng;
    uint64_t t0, t1;
    uint64_t sum, found, lookups, ops;
    const char *err;
};

static void *xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p) {
        fprintf(stderr, "rcu: out of memory (%zu bytes)\n", size);
        exit(2);
    }
    return p;
}

static size_t pool_cap(void)
{
    return RETIRE_BATCH + 2;
}

/* ---------------------------------------------------------------- keys */

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

static int owned_cmp(const void *a, const void *b)
{
    uint64_t x = ((const struct owned *)a)->key;
    uint64_t y = ((const struct owned *)b)->key;
    return (x > y) - (x < y);
}

/* Fills key[0..count) with distinct random keys: a repeat (about
 * count^2 / 2^65 of them, so practically never) gets a fresh draw. */
static void distinct_keys(uint64_t *key, size_t count, uint64_t *rng)
{
    struct key_idx *s = xmalloc(count * sizeof(*s));
    for (size_t i = 0; i < count; i++)
        key[i] = bench_rand(rng);
    for (bool again = true; again;) {
        again = false;
        for (size_t i = 0; i < count; i++)
            s[i] = (struct key_idx){key[i], i};
        qsort(s, count, sizeof(*s), key_idx_cmp);
        for (size_t i = 1; i < count; i++)
            if (s[i].key == s[i - 1].key) {
                key[s[i].idx] = bench_rand(rng);
                again = true;
            }
    }
    free(s);
}

/* Fisher-Yates. */
static void shuffle(struct owned *a, size_t count, uint64_t *rng)
{
    for (size_t i = count; i > 1; i--) {
        size_t j = (size_t)bench_rand_below(rng, i);
        struct owned t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

/* insert's fresh elements: keys fresh[0..count) follow the owned ones in
 * the one distinct draw, so that no other op ever has them. */
static void fresh_init(struct keyset *ks, const uint64_t *fresh, size_t count)
{
    ks->fresh = aligned_alloc(64, (count ? count : 1) * sizeof(*ks->fresh));
    if (!ks->fresh) {
        fprintf(stderr, "rcu: out of memory\n");
        exit(2);
    }
    memset(ks->fresh, 0, count * sizeof(*ks->fresh));
    for (size_t i = 0; i < count; i++) {
        ks->fresh[i].key = fresh[i];
        ks->fresh[i].payload = i;
    }
}

static void keyset_init(struct keyset *ks, size_t n, size_t qm, size_t m_fresh,
                        int tmax)
{
    uint64_t rng = 0x5eedc0deull;
    size_t nfresh = m_fresh * (size_t)tmax;
    memset(ks, 0, sizeof(*ks));
    ks->n = n;
    ks->n_own = n / 4;
    ks->key = xmalloc((n + ks->n_own + nfresh) * sizeof(uint64_t));
    distinct_keys(ks->key, n + ks->n_own + nfresh, &rng);
    ks->m_fresh = m_fresh;
    fresh_init(ks, ks->key + n + ks->n_own, nfresh);

    ks->nu = 2 * ks->n_own;
    ks->u = xmalloc(ks->nu * sizeof(*ks->u));
    for (size_t i = 0; i < ks->n_own; i++) {
        ks->u[i] = (struct owned){ks->key[i], i};
        ks->u[ks->n_own + i] = (struct owned){ks->key[n + i], n + i};
    }
    qsort(ks->u, ks->nu, sizeof(*ks->u), owned_cmp);

    ks->nstable = n - ks->n_own;

    ks->qm = qm;
    for (int t = 0; t < tmax; t++) {
        ks->qk[t] = xmalloc(qm * sizeof(uint64_t));
        ks->qi[t] = xmalloc(qm * sizeof(uint32_t));
        for (size_t i = 0; i < qm; i++) {
            size_t idx =
                ks->n_own + (size_t)bench_rand_below(&rng, ks->nstable);
            ks->qi[t][i] = (uint32_t)idx;
            ks->qk[t][i] = ks->key[idx];
        }
    }
}

static void keyset_free(struct keyset *ks)
{
    for (int t = 0; t < MAX_THREADS; t++) {
        free(ks->qk[t]);
        free(ks->qi[t]);
    }
    free(ks->fresh);
    free(ks->u);
    free(ks->key);
}

/* ------------------------------------------------------- structures */

/* Heap bytes in use: every arena, and blocks mmapped on their own. */
static double heap_bytes(void)
{
    struct mallinfo2 mi = mallinfo2();
    return (double)mi.uordblks + (double)mi.hblkhd;
}

/* Builds the structure with the n prefilled keys, in key[] order (random),
 * on the main thread. Elements: n in the structure, then RETIRE_BATCH + 2
 * per possible thread for the pools. */
static bool impl_init(struct impl_state *st, const struct rcu_impl *im,
                      const struct keyset *ks, int tmax)
{
    size_t n = ks->n;
    memset(st, 0, sizeof(*st));
    st->im = im;
    st->nslab = n + (size_t)tmax * pool_cap();
    st->slab = aligned_alloc(64, st->nslab * sizeof(struct rcu_elem));
    st->free = xmalloc(st->nslab * sizeof(*st->free));
    st->live = xmalloc(ks->nu);
    if (!st->slab) {
        fprintf(stderr, "rcu: out of memory\n");
        exit(2);
    }
    memset(st->slab, 0, st->nslab * sizeof(struct rcu_elem));
    for (size_t i = 0; i < ks->nu; i++)
        st->live[i] = ks->u[i].u < n;
    for (size_t i = n; i < st->nslab; i++)
        st->free[st->nfree++] = &st->slab[i];

    double before = heap_bytes();
    uint64_t t0 = bench_now_ns();
    st->h = im->create(n);
    if (!st->h) {
        fprintf(stderr, "rcu: %s: create failed\n", im->name);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        st->slab[i].key = ks->key[i];
        st->slab[i].payload = i;
        if (im->insert(st->h, ks->key[i], &st->slab[i]) != 0) {
            fprintf(stderr, "rcu: %s: fill: insert failed\n", im->name);
            return false;
        }
    }
    uint64_t t1 = bench_now_ns();
    if (im->settle)
        im->settle(st->h);
    st->bytes = (heap_bytes() - before) / (double)n + (double)im->link_bytes;
    if (im->count(st->h) != n) {
        fprintf(stderr, "rcu: %s: fill: count wrong\n", im->name);
        return false;
    }
    fprintf(stderr, "rcu: %s: filled %zu in %.0f ms, %.1f bytes/item\n",
            im->name, n, (double)(t1 - t0) / 1e6, st->bytes);
    return true;
}

static void impl_free(struct impl_state *st)
{
    if (st->h)
        st->im->destroy(st->h);
    free(st->slab);
    free(st->free);
    free(st->live);
}

/* ------------------------------------------------------------ workers */

static void flush_retired(struct worker *w)
{
    const struct rcu_impl *im = w->st->im;
    im->synchronize(w->st->h);
    memcpy(w->pool + w->npool, w->retired, w->nretired * sizeof(*w->pool));
    w->npool += w->nretired;
    w->nretired = 0;
}

static inline void retire(struct worker *w, struct rcu_elem *e)
{
    if (!w->st->im->synchronize) {
        w->pool[w->npool++] = e;
        return;
    }
    w->retired[w->nretired++] = e;
    if (w->nretired == RETIRE_BATCH)
        flush_retired(w);
}

static inline void erase_one(struct worker *w)
{
    const struct owned *o = &w->ring[w->head];
    struct rcu_elem *e = w->st->im->erase(w->st->h, o->key);
    if (!e) {
        w->err = "erase missed a key the thread owns";
        return;
    }
    w->head = w->head + 1 == w->cap ? 0 : w->head + 1;
    w->nlive--;
    retire(w, e);
}

static inline void insert_one(struct worker *w)
{
    size_t i = w->head + w->nlive;
    if (i >= w->cap)
        i -= w->cap;
    if (!w->npool) {
        w->err = "element pool ran dry";
        return;
    }
    struct rcu_elem *e = w->pool[--w->npool];
    e->key = w->ring[i].key;
    if (w->st->im->insert(w->st->h, e->key, e) != 0) {
        w->err = "insert of an absent key failed";
        return;
    }
    w->nlive++;
}

/* Writes alternate, so each thread's share of the structure stays put. */
static inline void write_one(struct worker *w)
{
    if (w->erase_next)
        erase_one(w);
    else
        insert_one(w);
    w->erase_next = !w->erase_next;
}

static void work_read(struct worker *w)
{
    size_t m = w->run->m;
    w->sum = w->st->im->find_all(w->st->h, w->qk, m);
    w->lookups = w->ops = m;
}

/* The op mix is drawn per operation from the thread's seeded generator
 * (a few ns, the same sequence for every implementation). */
static void work_mixed(struct worker *w)
{
    const struct rcu_impl *im = w->st->im;
    void *h = w->st->h;
    const uint64_t lookup_below = UINT64_MAX / 10 * 9;
    size_t m = w->run->m, nl = 0;
    uint64_t sum = 0, found = 0;

    for (size_t i = 0; i < m && !w->err; i++) {
        if (bench_rand(&w->rng) < lookup_below) {
            struct rcu_elem *e = im->find(h, w->qk[nl++]);
            sum += (uintptr_t)e;
            found += e != NULL;
        } else {
            write_one(w);
        }
    }
    w->sum = sum;
    w->found = found;
    w->lookups = nl;
    w->ops = m;
}

static void work_write(struct worker *w)
{
    size_t m = w->run->m;
    for (size_t i = 0; i < m && !w->err; i++)
        write_one(w);
    w->ops = m;
}

/* Each thread inserts its own fresh keys, absent from the structure and
 * from every other thread's share; run_one takes them out again. */
static void work_insert(struct worker *w)
{
    const struct rcu_impl *im = w->st->im;
    void *h = w->st->h;
    size_t m = w->run->m, i;

    for (i = 0; i < m; i++)
        if (im->insert(h, w->fresh[i].key, &w->fresh[i]) != 0) {
            w->err = "insert of a fresh key failed";
            break;
        }
    w->ninserted = i;
    w->ops = m;
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    const struct rcu_impl *im = w->st->im;

    im->thread_enter(w->st->h);
    pthread_barrier_wait(&w->run->start);
    w->t0 = bench_now_ns();
    switch (w->run->op) {
    case OP_READ:
        work_read(w);
        break;
    case OP_MIXED90:
        work_mixed(w);
        break;
    case OP_WRITE:
        work_write(w);
        break;
    case OP_INSERT:
        work_insert(w);
        break;
    default: /* mason has workers of its own */
        break;
    }
    w->t1 = bench_now_ns();
    /* Untimed: leave the thread's share as it found it (a run may end
     * between an erase and its insert) and its erased elements reusable. */
    if (!w->err && w->nlive < w->nlive0)
        insert_one(w);
    else if (!w->err && w->nlive > w->nlive0)
        erase_one(w);
    if (w->nretired)
        flush_retired(w);
    im->thread_leave(w->st->h);
    return NULL;
}

/* ---------------------------------------------------------------- runs */

/* Thread t of T gets the owned keys of the t-th of T key ranges: present
 * ones first, absent ones after, each part shuffled. */
static void worker_ring(struct worker *w, const struct keyset *ks,
                        const uint8_t *live, int t, int nthreads, uint64_t *rng)
{
    size_t lo = ks->nu * (size_t)t / (size_t)nthreads;
    size_t hi = ks->nu * (size_t)(t + 1) / (size_t)nthreads;
    size_t nl = 0, nd = hi - lo;

    w->cap = hi - lo;
    w->ring = xmalloc(w->cap * sizeof(*w->ring));
    for (size_t j = lo; j < hi; j++) {
        struct owned o = {ks->u[j].key, j};
        if (live[j])
            w->ring[nl++] = o;
        else
            w->ring[--nd] = o;
    }
    shuffle(w->ring, nl, rng);
    shuffle(w->ring + nl, w->cap - nl, rng);
    w->head = 0;
    w->nlive = w->nlive0 = nl;
    w->erase_next = nl > 0;
}

static void worker_setup(struct worker *w, struct run_ctx *run,
                         struct impl_state *st, int t, int nthreads,
                         uint64_t seed)
{
    const struct keyset *ks = run->ks;
    uint64_t rng = seed;

    memset(w, 0, sizeof(*w));
    w->run = run;
    w->st = st;
    w->qk = ks->qk[t];
    w->fresh = ks->fresh + (size_t)t * ks->m_fresh;
    w->rng = bench_rand(&rng);
    worker_ring(w, ks, st->live, t, nthreads, &rng);
    w->pool = xmalloc(pool_cap() * sizeof(*w->pool));
    w->retired = xmalloc(RETIRE_BATCH * sizeof(*w->retired));
    for (size_t i = 0; i < RETIRE_BATCH; i++)
        w->pool[w->npool++] = st->free[--st->nfree];
}

/* Puts the thread's owned-key states and elements back into st. */
static void worker_teardown(struct worker *w, struct impl_state *st)
{
    for (size_t j = 0; j < w->cap; j++) {
        size_t idx = (w->head + j) % w->cap;
        st->live[w->ring[idx].u] = j < w->nlive;
    }
    for (size_t i = 0; i < w->npool; i++)
        st->free[st->nfree++] = w->pool[i];
    for (size_t i = 0; i < w->nretired; i++)
        st->free[st->nfree++] = w->retired[i];
    free(w->ring);
    free(w->pool);
    free(w->retired);
}

/* The sum of the addresses that lookups qi[0..count) must find. */
static uint64_t expected_sum(const struct impl_state *st, const uint32_t *qi,
                             size_t count)
{
    uint64_t idx = 0;
    for (size_t i = 0; i < count; i++)
        idx += qi[i];
    return (uint64_t)count * (uintptr_t)st->slab +
           idx * (uint64_t)sizeof(struct rcu_elem);
}

static const char *check_worker(const struct worker *w,
                                const struct impl_state *st, const uint32_t *qi)
{
    if (w->err)
        return w->err;
    switch (w->run->op) {
    case OP_READ:
        if (w->sum != expected_sum(st, qi, w->lookups))
            return "lookups found wrong elements";
        break;
    case OP_MIXED90:
        if (w->found != w->lookups ||
            w->sum != expected_sum(st, qi, w->lookups))
            return "lookups found wrong elements";
        break;
    default:
        break;
    }
    return NULL;
}

/* insert: takes the run's fresh keys out again, untimed, on the main
 * thread with no worker running (tbb_map's erase_all allows nothing beside
 * it), and waits for a grace period: the next run inserts the same
 * elements. */
static const char *insert_undo(struct impl_state *st, const struct worker *w,
                               int nthreads)
{
    const struct rcu_impl *im = st->im;
    const char *err = NULL;

    if (im->erase_all) {
        size_t total = 0, k = 0;
        for (int t = 0; t < nthreads; t++)
            total += w[t].ninserted;
        uint64_t *q = xmalloc(total * sizeof(*q));
        for (int t = 0; t < nthreads; t++)
            for (size_t i = 0; i < w[t].ninserted; i++)
                q[k++] = w[t].fresh[i].key;
        if (im->erase_all(st->h, q, total) != total)
            err = "erasing the inserted fresh keys failed";
        free(q);
        return err;
    }
    for (int t = 0; t < nthreads && !err; t++)
        for (size_t i = 0; i < w[t].ninserted && !err; i++)
            if (im->erase(st->h, w[t].fresh[i].key) != &w[t].fresh[i])
                err = "erasing an inserted fresh key failed";
    if (im->synchronize)
        im->synchronize(st->h);
    return err;
}

/* One run of op on st with nthreads threads, m operations each; the
 * seed fixes the threads' key shares and op sequences. Returns ns per
 * operation, or < 0 after a failure (st->failed set). */
static double run_one(struct impl_state *st, const struct keyset *ks,
                      enum op op, int nthreads, size_t m, uint64_t seed)
{
    struct run_ctx run = {.op = op, .m = m, .ks = ks};
    struct worker *w = aligned_alloc(64, (size_t)nthreads * sizeof(*w));
    pthread_t *tid = xmalloc((size_t)nthreads * sizeof(*tid));
    if (!w) {
        fprintf(stderr, "rcu: out of memory\n");
        exit(2);
    }
    uint64_t t0 = UINT64_MAX, t1 = 0, ops = 0;
    const char *err = NULL;

    pthread_barrier_init(&run.start, NULL, (unsigned)nthreads);
    for (int t = 0; t < nthreads; t++)
        worker_setup(&w[t], &run, st, t, nthreads, seed + (uint64_t)t);
    for (int t = 0; t < nthreads; t++)
        if (pthread_create(&tid[t], NULL, worker_main, &w[t]) != 0) {
            fprintf(stderr, "rcu: pthread_create failed\n");
            exit(2);
        }
    for (int t = 0; t < nthreads; t++)
        pthread_join(tid[t], NULL);
    pthread_barrier_destroy(&run.start);

    for (int t = 0; t < nthreads; t++) {
        const char *e = check_worker(&w[t], st, ks->qi[t]);
        err = err ? err : e;
        t0 = w[t].t0 < t0 ? w[t].t0 : t0;
        t1 = w[t].t1 > t1 ? w[t].t1 : t1;
        ops += w[t].ops;
        worker_teardown(&w[t], st);
    }
    if (op == OP_INSERT) {
        const char *u = insert_undo(st, w, nthreads);
        err = err ? err : u;
    }
    free(w);
    free(tid);
    if (err) {
        fprintf(stderr, "rcu: %s: %s, %d threads: %s\n", st->im->name,
                op_names[op], nthreads, err);
        st->failed = true;
        return -1;
    }
    return (double)(t1 - t0) / (double)(ops ? ops : 1);
}

/* ------------------------------------------------------------ mason */

/* One implementation's extent structure at one size. */
struct ext_state {
    const struct rcu_impl *im;
    void *h;
    struct rcu_elem *slab; /* slab[i] is [i * MASON_UNIT, (i + 1) * ...) */
    size_t items;
    double bytes; /* per extent, after the fill */
    bool failed;
    /* Summed over the timed runs, per thread count: lookups that found
     * nothing, erases that found their extent gone (2 threads only). */
    uint64_t missed[MAX_THREADS], lost[MAX_THREADS];
    double ns[MAX_THREADS][MAX_REPS];
};

struct mason_run {
    size_t rounds; /* per thread */
    pthread_barrier_t start;
};

/* Cache-line aligned, as struct worker. */
struct mason_worker {
    _Alignas(64) struct mason_run *run;
    struct ext_state *st;
    uint64_t rng;
    uint64_t t0, t1;
    uint64_t missed, wrong, lost;
    const char *err;
};

/* Fills slab[0..items) into a new extent structure in key order, as
 * Mason's test fills its list. */
static bool ext_init(struct ext_state *es, const struct rcu_impl *im,
                     size_t items)
{
    memset(es, 0, sizeof(*es));
    es->im = im;
    es->items = items;
    es->slab = aligned_alloc(64, items * sizeof(struct rcu_elem));
    if (!es->slab) {
        fprintf(stderr, "rcu: out of memory\n");
        exit(2);
    }
    memset(es->slab, 0, items * sizeof(struct rcu_elem));

    double before = heap_bytes();
    uint64_t t0 = bench_now_ns();
    es->h = im->ext_create(items);
    if (!es->h) {
        fprintf(stderr, "rcu: %s: extent create failed\n", im->name);
        return false;
    }
    for (size_t i = 0; i < items; i++) {
        es->slab[i].key = (uint64_t)i * MASON_UNIT;
        es->slab[i].size = MASON_UNIT;
        if (im->ext_insert(es->h, &es->slab[i]) != 0) {
            fprintf(stderr, "rcu: %s: extent fill failed\n", im->name);
            return false;
        }
    }
    uint64_t t1 = bench_now_ns();
    if (im->settle)
        im->settle(es->h);
    es->bytes =
        (heap_bytes() - before) / (double)items + (double)im->link_bytes;
    if (im->ext_count(es->h) != items) {
        fprintf(stderr, "rcu: %s: extent fill: count wrong\n", im->name);
        return false;
    }
    fprintf(stderr,
            "rcu: %s: filled %zu extents in %.0f ms, %.1f bytes/extent\n",
            im->name, items, (double)(t1 - t0) / 1e6, es->bytes);
    return true;
}

static void ext_free(struct ext_state *es)
{
    if (es->h)
        es->im->ext_destroy(es->h);
    free(es->slab);
}

/* Erases the extents from slab[first] on, one erase each, then puts back
 * those this thread erased (the other thread's pop may hold some). */
static void mason_pop(struct mason_worker *w, size_t first)
{
    const struct ext_state *st = w->st;
    size_t want = st->items / 2 < MASON_POP ? st->items / 2 : MASON_POP;
    size_t end = st->items - first < want ? st->items : first + want;
    struct rcu_elem *victim[MASON_POP];
    size_t got = 0;

    for (size_t i = first; i < end; i++) {
        int r = st->im->ext_erase(st->h, &st->slab[i]);
        if (r == 0)
            victim[got++] = &st->slab[i];
        else if (r == -1)
            w->lost++;
        else
            w->err = "mason: erase failed";
    }
    for (size_t k = 0; k < got; k++)
        if (st->im->ext_insert(st->h, victim[k]) != 0)
            w->err = "mason: putting an extent back failed";
}

/* One round: op picks extent i; an even op looks up its start, a multiple
 * of 3 pops from it. A lookup may miss only while another thread's pop
 * holds the extent; it may never return another extent. */
static inline void mason_round(struct mason_worker *w, uint64_t op)
{
    const struct ext_state *st = w->st;
    size_t i = (size_t)(op % st->items);

    if (op % 2 == 0) {
        struct rcu_elem *e =
            st->im->ext_lookup(st->h, (uint64_t)i * MASON_UNIT);
        w->missed += e == NULL;
        w->wrong += e && e != &st->slab[i];
    }
    if (op % 3 == 0)
        mason_pop(w, i);
}

static void *mason_main(void *arg)
{
    struct mason_worker *w = arg;
    const struct rcu_impl *im = w->st->im;
    size_t rounds = w->run->rounds;

    im->thread_enter(w->st->h);
    pthread_barrier_wait(&w->run->start);
    w->t0 = bench_now_ns();
    for (size_t r = 0; r < rounds && !w->err; r++)
        mason_round(w, bench_rand(&w->rng));
    w->t1 = bench_now_ns();
    im->thread_leave(w->st->h);
    return NULL;
}

static const char *mason_check(const struct mason_worker *w, int nthreads)
{
    if (w->err)
        return w->err;
    if (w->wrong)
        return "mason: a lookup found the wrong extent";
    if (nthreads == 1 && (w->missed || w->lost))
        return "mason: an extent went missing with one thread";
    return NULL;
}

/* One run of rounds rounds per thread on es; returns ns per round (all
 * threads' rounds together), or < 0 after a failure (es->failed set).
 * k indexes the thread count for the miss counters; NULL: a warm-up. */
static double mason_run_one(struct ext_state *es, int nthreads, size_t rounds,
                            uint64_t seed, const int *k)
{
    struct mason_run run = {.rounds = rounds};
    struct mason_worker *w = aligned_alloc(64, (size_t)nthreads * sizeof(*w));
    pthread_t *tid = xmalloc((size_t)nthreads * sizeof(*tid));
    if (!w) {
        fprintf(stderr, "rcu: out of memory\n");
        exit(2);
    }
    uint64_t t0 = UINT64_MAX, t1 = 0;
    const char *err = NULL;

    pthread_barrier_init(&run.start, NULL, (unsigned)nthreads);
    for (int t = 0; t < nthreads; t++) {
        uint64_t s = seed + (uint64_t)t;
        memset(&w[t], 0, sizeof(w[t]));
        w[t].run = &run;
        w[t].st = es;
        w[t].rng = bench_rand(&s);
    }
    for (int t = 0; t < nthreads; t++)
        if (pthread_create(&tid[t], NULL, mason_main, &w[t]) != 0) {
            fprintf(stderr, "rcu: pthread_create failed\n");
            exit(2);
        }
    for (int t = 0; t < nthreads; t++)
        pthread_join(tid[t], NULL);
    pthread_barrier_destroy(&run.start);

    for (int t = 0; t < nthreads; t++) {
        const char *e = mason_check(&w[t], nthreads);
        err = err ? err : e;
        t0 = w[t].t0 < t0 ? w[t].t0 : t0;
        t1 = w[t].t1 > t1 ? w[t].t1 : t1;
        if (k) {
            es->missed[*k] += w[t].missed;
            es->lost[*k] += w[t].lost;
        }
    }
    free(w);
    free(tid);
    /* Every pop put back what it took: the structure is whole again. */
    if (!err && es->im->ext_count(es->h) != es->items)
        err = "mason: extent count wrong after the run";
    if (err) {
        fprintf(stderr, "rcu: %s: mason, %zu extents, %d threads: %s\n",
                es->im->name, es->items, nthreads, err);
        es->failed = true;
        return -1;
    }
    return (double)(t1 - t0) / (double)((size_t)nthreads * rounds);
}

/* ------------------------------------------------------------- driver */

struct config {
    size_t n;
    size_t m[NOPS]; /* per thread; mason: rounds */
    int reps;
    int threads[MAX_THREADS];
    int nthreads, tmax;
    size_t items[MASON_MAX_SIZES]; /* mason's sizes */
    int nitems;
    bool quick;
    const char *impls, *ops;
};

/* Seeds per (op, threads, rep): the same for every implementation. */
static uint64_t run_seed(enum op op, int nthreads, int rep)
{
    return 0x9e3779b97f4a7c15ull * (uint64_t)(1 + op) +
           ((uint64_t)nthreads << 32) + (uint64_t)(rep + 16) * 1000;
}

/* Whether implementation im runs op in this program run. */
static bool op_wanted(const struct config *c, enum op op,
                      const struct rcu_impl *im)
{
    return bench_listed(c->ops, op_names[op]) &&
           bench_listed(op_impls[op], im->name) &&
           bench_listed(c->impls, im->name);
}

/* Whether st runs op in this program run. */
static bool op_runs(const struct config *c, enum op op,
                    const struct impl_state *st)
{
    return !st->failed && op_wanted(c, op, st->im);
}

/* Whether im runs op at nt threads. --quick runs spin_rb at 1 and 2
 * threads only: beyond this VM's 2 cores its waiters spin while the
 * holder is descheduled (a kernel spinlock holder, Mason's baseline, is
 * never preempted), and those runs alone would add some 10 s to the
 * quick suite. */
static bool runs_at(const struct config *c, enum op op,
                    const struct rcu_impl *im, int nt)
{
    if (nt > op_max_threads[op])
        return false;
    return !(c->quick && nt > 2 && strcmp(im->name, "spin_rb") == 0);
}

static bool run_op(const struct config *c, const struct keyset *ks,
                   struct impl_state *st, size_t nst, enum op op)
{
    size_t m = c->m[op];
    bool ok = true;

    fprintf(stderr, "rcu: %s: %d reps (+1 warm-up), %zu ops per thread\n",
            op_names[op], c->reps, m);
    for (size_t i = 0; i < nst; i++)
        if (op_runs(c, op, &st[i]))
            run_one(&st[i], ks, op, c->threads[0], m / WARM_DIV + 1,
                    run_seed(op, 0, -1));
    for (int rep = 0; rep < c->reps; rep++)
        for (int k = 0; k < c->nthreads; k++) {
            int nt = c->threads[k];
            for (size_t i = 0; i < nst; i++)
                if (op_runs(c, op, &st[i]) && runs_at(c, op, st[i].im, nt))
                    st[i].ns[op][k][rep] =
                        run_one(&st[i], ks, op, nt, m, run_seed(op, nt, rep));
        }
    for (size_t i = 0; i < nst; i++) {
        if (!op_wanted(c, op, st[i].im))
            continue;
        if (!st[i].failed && st[i].im->count(st[i].h) != ks->n) {
            fprintf(stderr, "rcu: %s: %s: count wrong after the runs\n",
                    st[i].im->name, op_names[op]);
            st[i].failed = true;
        }
        if (st[i].im->report)
            st[i].im->report(st[i].h);
        if (st[i].failed) {
            ok = false;
            continue;
        }
        for (int k = 0; k < c->nthreads; k++)
            if (runs_at(c, op, st[i].im, c->threads[k]))
                bench_row("rcu", st[i].im->name, op_names[op], ks->n,
                          c->threads[k], bench_median(st[i].ns[op][k], c->reps),
                          st[i].bytes);
    }
    return ok;
}

/* mason's rows: ns per round. bytes_per_item stays empty: the column is
 * the map face's (the report keeps one figure per impl and n, and the
 * n = 10^6 one is the map's); the extent bytes go to stderr at the fill.
 * Mason reported each thread's whole run in seconds for a fixed number of
 * rounds, so stderr also gets the seconds per 10^6 rounds per thread. */
static void mason_rows(const struct config *c, struct ext_state *es)
{
    for (int k = 0; k < c->nthreads; k++) {
        int nt = c->threads[k];
        if (nt > op_max_threads[OP_MASON])
            continue;
        double ns = bench_median(es->ns[k], c->reps);
        bench_row("rcu", es->im->name, "mason", es->items, nt, ns, -1);
        fprintf(stderr,
                "rcu: %s: mason, %zu extents, %d threads: %.3f s per 10^6 "
                "rounds per thread",
                es->im->name, es->items, nt, ns * nt / 1e3);
        if (nt > 1)
            fprintf(stderr,
                    "; %llu lookups missed, %llu erases found the extent "
                    "gone (another thread's pop)",
                    (unsigned long long)es->missed[k],
                    (unsigned long long)es->lost[k]);
        fputc('\n', stderr);
    }
}

/* mason at one size: every implementation's extent structure exists for
 * the size's runs, which visit them in turn as run_op does. */
static bool run_mason_size(const struct config *c, size_t items)
{
    struct ext_state es[NIMPL];
    size_t ne = 0, rounds = c->m[OP_MASON];
    bool ok = true;

    for (size_t i = 0; i < NIMPL; i++) {
        if (!op_wanted(c, OP_MASON, impls[i]) || !impls[i]->ext_create)
            continue;
        if (!ext_init(&es[ne], impls[i], items)) {
            es[ne].failed = true;
            ok = false;
        }
        ne++;
    }
    fprintf(stderr,
            "rcu: mason: %zu extents, %d reps (+1 warm-up), %zu "
            "rounds per thread\n",
            items, c->reps, rounds);
    for (size_t i = 0; i < ne; i++)
        if (!es[i].failed)
            mason_run_one(&es[i], c->threads[0], rounds / WARM_DIV + 1,
                          run_seed(OP_MASON, 0, -1), NULL);
    for (int rep = 0; rep < c->reps; rep++)
        for (int k = 0; k < c->nthreads; k++) {
            int nt = c->threads[k];
            if (nt > op_max_threads[OP_MASON])
                continue;
            for (size_t i = 0; i < ne; i++)
                if (!es[i].failed)
                    es[i].ns[k][rep] = mason_run_one(
                        &es[i], nt, rounds, run_seed(OP_MASON, nt, rep), &k);
        }
    for (size_t i = 0; i < ne; i++) {
        if (es[i].failed)
            ok = false;
        else
            mason_rows(c, &es[i]);
        ext_free(&es[i]);
    }
    return ok;
}

/* "--name value" or "--name=value". */
static const char *arg_value(int argc, char **argv, const char *name)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0 && i + 1 < argc)
            return argv[i + 1];
    return bench_opt(argc, argv, name);
}

static bool parse_threads(struct config *c, const char *list)
{
    c->nthreads = 0;
    c->tmax = 0;
    for (const char *p = list; *p;) {
        char *end;
        long t = strtol(p, &end, 10);
        if (end == p || t < 1 || t > MAX_THREADS || c->nthreads == MAX_THREADS)
            return false;
        c->threads[c->nthreads++] = (int)t;
        c->tmax = (int)t > c->tmax ? (int)t : c->tmax;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return false;
    }
    return c->nthreads > 0;
}

/* mason's sizes: at least 2 extents (a pop takes items / 2), and the last
 * extent's end must fit in 64 bits. */
static bool parse_items(struct config *c, const char *list)
{
    c->nitems = 0;
    for (const char *p = list; *p;) {
        char *end;
        unsigned long long v = strtoull(p, &end, 10);
        if (end == p || v < 2 || v > UINT32_MAX || c->nitems == MASON_MAX_SIZES)
            return false;
        c->items[c->nitems++] = (size_t)v;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return false;
    }
    return c->nitems > 0;
}

/* Development aids (make targets pass only --quick): --n N, --impl A,B,
 * --threads 1,2, --op read,mason, --reps R, --items 100000 (mason's
 * sizes), --ops M (operations per thread of every op; mason: rounds). */
static bool parse_args(struct config *c, int argc, char **argv)
{
    int quick = bench_quick(argc, argv);
    const char *v;

    c->quick = quick;
    /* Quick: an eighth of the operations (2^16 lookups per thread, as the
     * map suite's quick mode): about 60 s on the quiet 2-core VM (37 s
     * before insert, spin_rb, tbb_map and the mason replica), of which 9 s
     * are the fills and keys, 16 s read, 11 s mixed90, 8 s write, 8 s
     * insert (3 s of it tbb_map's untimed rebuilds) and 5 s mason with
     * its fills. The locked trees take most of the map-face time: with 4
     * threads their convoys run at 1-3 us an op. */
    c->n = 1000000;
    c->m[OP_READ] = quick ? 1 << 16 : 1 << 19;
    c->m[OP_MIXED90] = quick ? 1 << 16 : 1 << 19;
    c->m[OP_WRITE] = quick ? 1 << 15 : 1 << 18;
    c->m[OP_INSERT] = quick ? 1 << 13 : 1 << 15;
    c->m[OP_MASON] = quick ? 500 : 8000;
    c->reps = 3;
    c->impls = arg_value(argc, argv, "--impl");
    c->ops = arg_value(argc, argv, "--op");
    if (!parse_threads(c, "1,2,4") || !parse_items(c, "100000,1000000"))
        return false;
    if ((v = arg_value(argc, argv, "--threads")) && !parse_threads(c, v)) {
        fprintf(stderr, "rcu: --threads wants a list like 1,2,4\n");
        return false;
    }
    if ((v = arg_value(argc, argv, "--items")) && !parse_items(c, v)) {
        fprintf(stderr, "rcu: --items wants a list like 100000,1000000\n");
        return false;
    }
    if ((v = arg_value(argc, argv, "--n"))) {
        c->n = (size_t)strtoull(v, NULL, 10);
        if (c->n < 64 || c->n > UINT32_MAX / 2) {
            fprintf(stderr, "rcu: --n wants 64 .. 2^31\n");
            return false;
        }
    }
    if ((v = arg_value(argc, argv, "--ops"))) {
        unsigned long long m = strtoull(v, NULL, 10);
        if (m < 1 || m > 1u << 24) {
            fprintf(stderr, "rcu: --ops wants 1 .. 2^24\n");
            return false;
        }
        for (int op = 0; op < NOPS; op++)
            c->m[op] = (size_t)m;
    }
    if ((v = arg_value(argc, argv, "--reps"))) {
        c->reps = atoi(v);
        if (c->reps < 1 || c->reps > MAX_REPS) {
            fprintf(stderr, "rcu: --reps wants 1 .. %d\n", MAX_REPS);
            return false;
        }
    }
    return true;
}

/* The map-face ops: every op but mason, on the n keys. */
static bool run_map_ops(const struct config *c)
{
    struct keyset ks;
    struct impl_state st[NIMPL];
    size_t nst = 0;
    bool ok = true;

    size_t qm =
        c->m[OP_READ] > c->m[OP_MIXED90] ? c->m[OP_READ] : c->m[OP_MIXED90];
    keyset_init(&ks, c->n, qm, c->m[OP_INSERT], c->tmax);
    for (size_t i = 0; i < NIMPL; i++) {
        bool wanted = false;
        for (int op = 0; op < OP_MASON; op++)
            wanted |= op_wanted(c, (enum op)op, impls[i]);
        if (!wanted)
            continue;
        if (!impl_init(&st[nst], impls[i], &ks, c->tmax)) {
            st[nst].failed = true;
            ok = false;
        }
        nst++;
    }
    for (int op = 0; op < OP_MASON; op++)
        if (bench_listed(c->ops, op_names[op]))
            ok = run_op(c, &ks, st, nst, (enum op)op) && ok;
    for (size_t i = 0; i < nst; i++)
        impl_free(&st[i]);
    keyset_free(&ks);
    return ok;
}

int main(int argc, char **argv)
{
    struct config c;
    bool ok = true, map_ops = false;

    if (!parse_args(&c, argc, argv))
        return 2;
    /* Keep freed memory in the process, as the map suite does. */
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);

    for (int op = 0; op < OP_MASON; op++)
        map_ops |= bench_listed(c.ops, op_names[op]);
    if (map_ops)
        ok = run_map_ops(&c);
    if (bench_listed(c.ops, op_names[OP_MASON]))
        for (int i = 0; i < c.nitems; i++)
            ok = run_mason_size(&c, c.items[i]) && ok;
    return ok ? 0 : 1;
}
