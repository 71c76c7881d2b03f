/*
 * The concurrency stress of skiplist_rcu.h (TESTING.md section 6): the
 * runs that tests/rcu/stress.h declares. Compiled once per build, with
 * that build's flags (liburcu flavor, sanitizer, planted fault), and
 * linked beside the caller: the Criterion suite (test_rcu_stress.c) or
 * the standalone driver (stress_main.c). Threads report through
 * rt_fail() (rcu_common.h: one record per program); each run returns its
 * verdict, the caller asserts.
 *
 * Map face. Keys are KEY_BASE + 8 * row + column: column 1 is a permanent
 * key (inserted before the threads start, never erased), column 5 a key
 * no one ever inserts, the other six columns belong to the writers, one
 * writer per key, neighbours to different writers so that every writer
 * works in every leaf. Each writer keeps an exact model of its own keys
 * and checks every result against it (a refused insert or erase included:
 * nobody else touches its keys). Half its writes toggle keys of a small
 * hot zone, where the writers meet in the same leaves (and lose races:
 * stats.retries) and the readers look most; the others fill all its keys
 * to a high mark and drain them to a low one, so the index grows and
 * shrinks and leaves split and merge all the time.
 * Readers check what must hold whatever the writers do: a permanent key
 * is always found, a never-inserted key never is, every element returned
 * is one of ours with the right key (a pointer out of the pool or a wrong
 * key is garbage: a freed and poisoned node, or one published before it
 * was written), bounds land between the right permanent keys, iteration
 * both ways is strictly monotonic and skips no permanent key. They also
 * count the changes they saw (a key found and then not, or the reverse,
 * within one read-side section and across sections): the proof that the
 * run raced. At the end the list equals the union of the models, adds -
 * removes - count = 0, and after destroy and rcu_barrier() no node is
 * left.
 *
 * Extent face. Writers allocate with insert_hole (lowest and highest, in
 * random windows, with random alignment) and plain insert, and erase
 * their own extents. Every allocation claims its units in a shared owner
 * map; a unit already claimed means two live extents overlap. Erased
 * extents wait for a grace period (skiplist_rcu_synchronize()) before
 * their element is reused. Readers look up points: a point in a permanent
 * extent must give that extent, a point above the space in use nothing,
 * any other hit must contain the point; overlap queries and iteration are
 * checked against the permanent extents as the map's are. Half the
 * allocations and most probes go to a hot zone at the bottom of the space.
 * The edge run (ext_edge) aims at one race: insert_hole at the bottom of a
 * window its caller owns while neighbours insert and erase just below it;
 * the answer must be the window's one hole every time.
 *
 * Threads outnumber this machine's cores and yield at random points
 * (inside read-side sections too), to widen the interleavings. A watchdog
 * fails a run in which the waited-for threads stop finishing operations
 * (a deadlock on a lock in a freed node, an endless walk) instead of
 * hanging the suite.
 */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier, clock_gettime */

#include "stress.h"

#include "../model_extent.h"

/* ------------------------------------------------------------- figures */

/* What a run counted, summed over its threads. */
struct stress_result {
    unsigned long writer_ops, reader_ops, adds, removes, refusals;
    unsigned long walks, walk_steps, lookups, hole_nospc;
    unsigned long changes_across; /* a reader saw a key come or go */
    unsigned long changes_within; /* ... inside one read-side section */
    struct skiplist_rcu_stats st;
    size_t final_count;
    long balance; /* adds - removes - count */
    long leaked;  /* allocator blocks live after destroy + barrier */
    unsigned long bad_frees, scribbled, allocs;
    double secs;
};

#define ST_WALK 48       /* steps of a short walk */
#define ST_STALL_SECS 20 /* no operation finished for this long: stuck */

/* ------------------------------------------------------ thread plumbing */

struct st_thread {
    pthread_t tid;
    unsigned id;
    struct tc_rng rng;
    void *run; /* the map_stress or ext_stress */
    /* writer figures */
    unsigned long ops, adds, removes, refusals, nospc;
    /* reader figures */
    unsigned long rops, walks, steps, lookups, across, within;
};

static pthread_barrier_t st_start;
static atomic_bool st_stop;
static atomic_uint st_writers_done, st_readers_done;
static atomic_ulong st_wprogress, st_rprogress; /* operations finished */
static atomic_bool st_stalled; /* threads abandoned: exit the process */

/* Registered, past the start line together (offline while waiting, for
 * QSBR's sake). */
static void st_enter(void)
{
    rcu_register_thread();
    rt_offline();
    pthread_barrier_wait(&st_start);
    rt_online();
}

static void st_leave(bool writer)
{
    rt_offline();
    rt_online();
    rcu_unregister_thread();
    atomic_fetch_add(writer ? &st_writers_done : &st_readers_done, 1);
}

static bool st_running(void)
{
    return rt_failures() == 0;
}

/* One operation done: what the watchdog watches. */
static void st_tick(bool writer)
{
    atomic_fetch_add_explicit(writer ? &st_wprogress : &st_rprogress, 1,
                              memory_order_relaxed);
}

/*
 * Waits until `want` threads counted in *done have left, or until none of
 * them has finished an operation (counted in *progress) for
 * ST_STALL_SECS (2 s once a failure is recorded: the threads should be
 * leaving): a deadlock (a writer waiting on a lock in a freed node) or an
 * endless walk. Then it fails the run and returns false; the stuck
 * threads cannot be joined.
 */
static bool st_wait(atomic_uint *done, unsigned want, atomic_ulong *progress,
                    const char *who)
{
    unsigned long last = atomic_load(progress);
    double since = rt_now();
    while (atomic_load(done) < want) {
        struct timespec nap = {0, 20 * 1000 * 1000};
        nanosleep(&nap, NULL);
        unsigned long now = atomic_load(progress);
        if (now != last) {
            last = now;
            since = rt_now();
        } else if (rt_now() - since > (rt_failures() ? 2 : ST_STALL_SECS)) {
            rt_fail("no operation finished for %d s while waiting for the "
                    "%s: a deadlock or an endless loop",
                    ST_STALL_SECS, who);
            atomic_store(&st_stalled, true);
            return false;
        }
    }
    return true;
}

/* Starts writers then readers on fn_w / fn_r; the calling thread joins
 * them after the writers finish, then stops the readers. False when
 * they got stuck (st_wait): the run has failed and the caller must not
 * touch the list again. */
static bool st_run(struct st_thread *t, const struct stress_cfg *cfg, void *run,
                   void *(*fn_w)(void *), void *(*fn_r)(void *))
{
    unsigned n = cfg->writers + cfg->readers;
    atomic_store(&st_stop, false);
    atomic_store(&st_writers_done, 0);
    atomic_store(&st_readers_done, 0);
    pthread_barrier_init(&st_start, NULL, n + 1);
    for (unsigned i = 0; i < n; i++) {
        t[i].id = i;
        t[i].run = run;
        tc_rng_init(&t[i].rng, cfg->seed * 31 + i + 1);
        if (pthread_create(&t[i].tid, NULL, i < cfg->writers ? fn_w : fn_r,
                           &t[i]) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            abort();
        }
    }
    rt_offline();
    pthread_barrier_wait(&st_start);
    if (!st_wait(&st_writers_done, cfg->writers, &st_wprogress, "writers"))
        return false;
    atomic_store(&st_stop, true);
    if (!st_wait(&st_readers_done, cfg->readers, &st_rprogress, "readers"))
        return false;
    for (unsigned i = 0; i < n; i++)
        pthread_join(t[i].tid, NULL);
    rt_online();
    pthread_barrier_destroy(&st_start);
    return true;
}

static void st_sum(struct stress_result *res, const struct st_thread *t,
                   unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        res->writer_ops += t[i].ops;
        res->adds += t[i].adds;
        res->removes += t[i].removes;
        res->refusals += t[i].refusals;
        res->hole_nospc += t[i].nospc;
        res->reader_ops += t[i].rops;
        res->walks += t[i].walks;
        res->walk_steps += t[i].steps;
        res->lookups += t[i].lookups;
        res->changes_across += t[i].across;
        res->changes_within += t[i].within;
    }
}

/* The allocator a run's list uses. */
static const struct skiplist_allocator *st_allocator(struct ra *ra,
                                                     const struct stress_cfg *c)
{
    ra_init(ra);
    return c->library_alloc ? NULL : &ra->iface;
}

/* After destroy: every block back (after the pending frees ran). With
 * the library's pools only LeakSanitizer can tell (ASan builds). */
static void st_allocator_end(struct ra *ra, const struct stress_cfg *cfg,
                             struct stress_result *res)
{
    rcu_barrier();
    ra_fini(ra);
    if (cfg->library_alloc) {
        res->leaked = tc_no_leaks() ? 0 : -1;
        return;
    }
    res->leaked = atomic_load(&ra->live);
    res->bad_frees = atomic_load(&ra->bad_frees);
    res->scribbled = atomic_load(&ra->scribbled);
    res->allocs = atomic_load(&ra->calls);
}

/* ============================================================ map face */

#define KEY_BASE 16u /* keys below it are never inserted: probes go there */
#define MS_ROWS 1024u
#define MS_KEYS (8u * MS_ROWS)
#define MS_PERM_COL 1u
#define MS_NEVER_COL 5u
#define MS_HOT                                              \
    64u /* half the writes go to the keys below this index: \
         * writers meet in the same leaves there */

struct map_stress {
    const struct rmap_ops *o;
    void *sl;
    const struct stress_cfg *cfg;
    struct map_item items[MS_KEYS]; /* items[i].key = KEY_BASE + i */
    struct map_item twins[MS_KEYS]; /* same keys, never in the list */
    /* present[i]: the owning writer's model (only it writes it) */
    bool present[MS_KEYS];
};

static bool ms_is_perm(size_t i)
{
    return i % 8 == MS_PERM_COL;
}

static bool ms_is_never(size_t i)
{
    return i % 8 == MS_NEVER_COL;
}

/* Which writer owns writable key index i. */
static unsigned ms_owner(const struct map_stress *s, size_t i)
{
    size_t col = i % 8, row = i / 8;
    size_t w = col - (col > MS_PERM_COL) - (col > MS_NEVER_COL); /* 0..5 */
    return (unsigned)((row * 6 + w) % s->cfg->writers);
}

static uint64_t ms_key(size_t i)
{
    return KEY_BASE + i;
}

/* The permanent keys around k: the smallest >= k, the largest <= k
 * (UINT64_MAX / 0 with *none set when there is none). */
static bool ms_perm_at_or_after(uint64_t k, uint64_t *p)
{
    uint64_t i = k < KEY_BASE ? 0 : k - KEY_BASE;
    uint64_t row = i / 8 + (i % 8 > MS_PERM_COL);
    if (row >= MS_ROWS)
        return false;
    *p = KEY_BASE + 8 * row + MS_PERM_COL;
    return true;
}

static bool ms_perm_at_or_before(uint64_t k, uint64_t *p)
{
    if (k < KEY_BASE + MS_PERM_COL)
        return false;
    uint64_t i = k - KEY_BASE;
    uint64_t row = i / 8 - (i % 8 < MS_PERM_COL);
    if (row >= MS_ROWS)
        row = MS_ROWS - 1;
    *p = KEY_BASE + 8 * row + MS_PERM_COL;
    return true;
}

/* e is one of our elements with a consistent key (checked before any
 * dereference: a poisoned or unwritten node yields wild pointers). */
static bool ms_valid(const struct map_stress *s, const struct map_item *e)
{
    uintptr_t p = (uintptr_t)e, b = (uintptr_t)s->items;
    if (p < b || p >= b + sizeof(s->items) || (p - b) % sizeof(*e) != 0)
        return false;
    size_t i = (size_t)(e - s->items);
    return e->key == ms_key(i) && e->id == i && !ms_is_never(i);
}

static bool ms_check_elem(const struct map_stress *s, const struct map_item *e,
                          const char *what, uint64_t k)
{
    if (!e || ms_valid(s, e))
        return true;
    rt_fail("map reader: %s(%" PRIu64 ") returned garbage %p (not one of "
            "the test's elements, or a wrong key: a freed or unwritten "
            "node)",
            what, k, (const void *)e);
    return false;
}

/* ---------------------------------------------------------- map writer */

/*
 * A writer's own keys, by slot: mine[j] is a key index, ascending, the
 * first nhot of them in the hot zone. set[] holds the slots, the present
 * ones first (set[0..nin)), where[j] is slot j's place in set[], so the
 * writer can pick an absent key to insert or a present one to erase in
 * O(1) and fill or drain all its keys in one sweep.
 */
struct ms_writer {
    struct map_stress *s;
    struct st_thread *t;
    size_t *mine, *set, *where;
    size_t nmine, nhot, nin;
};

static void ms_expect(struct ms_writer *w, int rc, int want, const char *what,
                      size_t i)
{
    if (rc != want)
        rt_fail("map writer %u: %s %" PRIu64 ": %d, its model says %d",
                w->t->id, what, ms_key(i), rc, want);
}

/* A refused call and its exact error: the writer alone owns the key. */
static void ms_refusal(struct ms_writer *w, size_t i)
{
    struct map_stress *s = w->s;
    struct map_item *x = NULL;
    w->t->refusals++;
    if (s->present[i]) {
        skiplist_rcu_read_lock(); /* *existing is read inside */
        int rc = s->o->insert(s->sl, &s->twins[i], &x);
        ms_expect(w, rc, -EEXIST, "insert of a present key", i);
        if (rc == -EEXIST && x != &s->items[i])
            rt_fail("map writer %u: -EEXIST for %" PRIu64
                    " names %p, not the element in the list",
                    w->t->id, ms_key(i), (void *)x);
        skiplist_rcu_read_unlock();
        ms_expect(w, s->o->erase(s->sl, &s->twins[i]), -ENOENT,
                  "erase of a twin", i);
    } else {
        ms_expect(w, s->o->erase_key(s->sl, ms_key(i), &x), -ENOENT,
                  "erase_key of an absent key", i);
        ms_expect(w, s->o->erase(s->sl, &s->items[i]), -ENOENT,
                  "erase of an absent element", i);
    }
}

/* Moves slot j across the present/absent boundary of set[]. */
static void ms_flip_slot(struct ms_writer *w, size_t j)
{
    size_t at = w->where[j];
    size_t to = at < w->nin ? --w->nin : w->nin++;
    size_t other = w->set[to];
    w->set[to] = j;
    w->where[j] = to;
    w->set[at] = other;
    w->where[other] = at;
}

/* Inserts slot j's key if absent, else erases it (by key or element). */
static void ms_toggle(struct ms_writer *w, size_t j)
{
    struct map_stress *s = w->s;
    size_t i = w->mine[j];
    struct map_item *x = NULL;
    bool locked = tc_below(&w->t->rng, 4) == 0; /* writers may hold it */
    if (locked)
        skiplist_rcu_read_lock();
    if (!s->present[i]) {
        ms_expect(w, s->o->insert(s->sl, &s->items[i], NULL), 0, "insert", i);
        w->t->adds++;
    } else if (tc_below(&w->t->rng, 2)) {
        int rc = s->o->erase_key(s->sl, ms_key(i), &x);
        ms_expect(w, rc, 0, "erase_key", i);
        if (rc == 0 && x != &s->items[i])
            rt_fail("map writer %u: erase_key %" PRIu64 " gave %p", w->t->id,
                    ms_key(i), (void *)x);
        w->t->removes++;
    } else {
        ms_expect(w, s->o->erase(s->sl, &s->items[i]), 0, "erase", i);
        w->t->removes++;
    }
    if (locked) {
        rt_maybe_yield(&w->t->rng, 2);
        skiplist_rcu_read_unlock();
    }
    s->present[i] = !s->present[i];
    ms_flip_slot(w, j);
}

/* Its own key, read back: exact, since no one else writes it. */
static void ms_verify_own(struct ms_writer *w, size_t i)
{
    struct map_stress *s = w->s;
    skiplist_rcu_read_lock();
    struct map_item *e = s->o->find(s->sl, ms_key(i));
    if (e != (s->present[i] ? &s->items[i] : NULL))
        rt_fail("map writer %u: find(%" PRIu64 ") gave %p, its model %s",
                w->t->id, ms_key(i), (void *)e,
                s->present[i] ? "has it" : "does not");
    skiplist_rcu_read_unlock();
}

static void ms_writer_setup(struct ms_writer *w)
{
    struct map_stress *s = w->s;
    w->mine = (size_t *)calloc(3 * MS_KEYS, sizeof(size_t));
    w->set = w->mine + MS_KEYS;
    w->where = w->set + MS_KEYS;
    for (size_t i = 0; i < MS_KEYS; i++)
        if (!ms_is_perm(i) && !ms_is_never(i) && ms_owner(s, i) == w->t->id)
            w->mine[w->nmine++] = i;
    while (w->nhot < w->nmine && w->mine[w->nhot] < MS_HOT)
        w->nhot++;
    for (size_t j = 0; j < w->nmine; j++)
        w->set[j] = w->where[j] = j;
}

/*
 * Half the writes toggle a key of the hot zone, where writers meet; the
 * others fill all its keys to 7/8 and drain them to 1/8, over and over,
 * so the index grows and shrinks and leaves split and merge.
 */
static void *ms_writer_main(void *arg)
{
    struct st_thread *t = (struct st_thread *)arg;
    struct ms_writer w;
    memset(&w, 0, sizeof(w));
    w.s = (struct map_stress *)t->run;
    w.t = t;
    ms_writer_setup(&w);
    st_enter();
    /* Fill to 7/8 and drain to 1/8; a short (sanitizer) run swings from
     * 0, less far, but still several times (about half the writes are
     * sweeps). */
    size_t full = w.nmine * 3 / 4, swing = (size_t)(w.s->cfg->writer_ops / 8);
    size_t low = swing < full ? 0 : w.nmine / 8;
    size_t high = low + (swing < full ? swing : full);
    bool filling = true;
    for (; t->ops < w.s->cfg->writer_ops && st_running(); t->ops++) {
        if (w.nin >= high)
            filling = false;
        else if (w.nin <= low)
            filling = true;
        unsigned how = (unsigned)tc_below(&t->rng, 32);
        size_t j = (size_t)tc_below(&t->rng, w.nmine);
        if (how == 0)
            ms_refusal(&w, w.mine[j]);
        else if (how < 3)
            ms_verify_own(&w, w.mine[j]);
        else if (how < 16 && w.nhot)
            ms_toggle(&w, (size_t)tc_below(&t->rng, w.nhot));
        else if (filling)
            ms_toggle(&w, w.set[w.nin + tc_below(&t->rng, w.nmine - w.nin)]);
        else
            ms_toggle(&w, w.set[tc_below(&t->rng, w.nin)]);
        rt_maybe_yield(&t->rng, w.s->cfg->yield_one_in);
        rt_quiescent();
        st_tick(true);
    }
    st_leave(true);
    free(w.mine);
    return NULL;
}

/* ---------------------------------------------------------- map reader */

struct ms_reader {
    struct map_stress *s;
    struct st_thread *t;
    unsigned char *seen; /* per key: 0 unknown, 1 absent, 2 present */
};

/* A key to probe: mostly in the hot zone, where the writers are (a
 * reader there meets nodes just replaced, or just published); else
 * anywhere, a little past both ends included. */
static uint64_t ms_probe(struct tc_rng *g)
{
    if (tc_below(g, 4) != 0)
        return KEY_BASE + tc_below(g, MS_HOT);
    return tc_below(g, KEY_BASE + MS_KEYS + 16);
}

static void ms_note(struct ms_reader *r, size_t i, const struct map_item *e)
{
    unsigned char now = e ? 2 : 1;
    if (r->seen[i] && r->seen[i] != now)
        r->t->across++;
    r->seen[i] = now;
}

/* A find of each kind of key: permanent, never inserted, a writer's (the
 * latter twice, with a yield between, to catch a change in the act). */
static void ms_read_find(struct ms_reader *r)
{
    struct map_stress *s = r->s;
    struct tc_rng *g = &r->t->rng;
    size_t i = (size_t)tc_below(g, tc_below(g, 4) ? MS_HOT : MS_KEYS);
    struct map_item *e = s->o->find(s->sl, ms_key(i));
    if (!ms_check_elem(s, e, "find", ms_key(i)))
        return;
    if (ms_is_perm(i) && e != &s->items[i])
        rt_fail("map reader: permanent key %" PRIu64 " not found (%p)",
                ms_key(i), (void *)e);
    else if (ms_is_never(i) && e)
        rt_fail("map reader: never-inserted key %" PRIu64 " found", ms_key(i));
    else if (e && e != &s->items[i])
        rt_fail("map reader: find(%" PRIu64 ") gave key %" PRIu64, ms_key(i),
                e->key);
    if (ms_is_perm(i) || ms_is_never(i))
        return;
    ms_note(r, i, e);
    rt_maybe_yield(&r->t->rng, 2);
    struct map_item *again = s->o->find(s->sl, ms_key(i));
    if (!ms_check_elem(s, again, "find", ms_key(i)))
        return;
    if (again != e)
        r->t->within++;
    ms_note(r, i, again);
}

/* The four bounds at a random key land on the right side of k and no
 * further than the nearest permanent key. */
static void ms_read_bounds(struct ms_reader *r)
{
    struct map_stress *s = r->s;
    uint64_t k = ms_probe(&r->t->rng), p;
    const char *what[4] = {"lower_bound", "upper_bound", "floor", "below"};
    for (int b = 0; b < 4; b++) {
        struct map_item *e = b == 0   ? s->o->lower_bound(s->sl, k)
                             : b == 1 ? s->o->upper_bound(s->sl, k)
                             : b == 2 ? s->o->floor(s->sl, k)
                                      : s->o->below(s->sl, k);
        if (!ms_check_elem(s, e, what[b], k))
            return;
        bool up = b < 2, strict = b == 1 || b == 3;
        uint64_t q = up ? k + strict : k - strict; /* the inclusive end */
        bool has = (up || k >= strict) && (up ? ms_perm_at_or_after(q, &p)
                                              : ms_perm_at_or_before(q, &p));
        bool ok = e ? (up ? e->key >= q && (!has || e->key <= p)
                          : k >= strict && e->key <= q && (!has || e->key >= p))
                    : !has;
        if (!ok)
            rt_fail("map reader: %s(%" PRIu64 ") gave %" PRId64
                    " with permanent key %" PRId64 " %s",
                    what[b], k, e ? (int64_t)e->key : -1, has ? (int64_t)p : -1,
                    up ? "after" : "before");
    }
}

/* The permanent keys in [a, b]. */
static size_t ms_perms_in(uint64_t a, uint64_t b)
{
    uint64_t p, q;
    if (a > b || !ms_perm_at_or_after(a, &p) || !ms_perm_at_or_before(b, &q) ||
        p > q)
        return 0;
    return (size_t)((q - p) / 8 + 1);
}

struct ms_walk {
    struct ms_reader *r;
    int dir;
    uint64_t first, prev; /* keys seen first and last; valid when n > 0 */
    size_t n, max, perms;
    bool bad;
};

/* One step: a valid element, strictly monotonic; permanent keys are
 * counted, to be compared with those the walked range holds. */
static bool ms_walk_step(void *ctx, void *elem)
{
    struct ms_walk *w = (struct ms_walk *)ctx;
    struct map_item *e = (struct map_item *)elem;
    struct map_stress *s = w->r->s;
    if (!ms_check_elem(s, e, w->dir > 0 ? "iter_next" : "iter_prev", 0)) {
        w->bad = true;
        return false;
    }
    if (w->n && (w->dir > 0 ? e->key <= w->prev : e->key >= w->prev)) {
        rt_fail("map reader: iteration %s went from %" PRIu64 " to %" PRIu64,
                w->dir > 0 ? "forward" : "backward", w->prev, e->key);
        w->bad = true;
        return false;
    }
    if (!w->n)
        w->first = e->key;
    w->prev = e->key;
    w->perms += ms_is_perm(e->id);
    w->n++;
    rt_maybe_yield(&w->r->t->rng, 16);
    return w->n < w->max;
}

/*
 * A walk one way from first, last or a random key (short usually, now
 * and then the whole list). Every permanent key in the range it covered
 * must have been seen: from its start (the key it sought, or the end of
 * the list) to where it stopped (the end of the list if it ran out).
 */
static void ms_read_walk(struct ms_reader *r)
{
    struct map_stress *s = r->s;
    struct tc_rng *g = &r->t->rng;
    int start = (int)tc_below(g, 3), dir = tc_below(g, 2) ? 1 : -1;
    uint64_t k = ms_probe(g), lo, hi;
    struct ms_walk w = {r, dir,  0, 0, 0, tc_below(g, 64) ? ST_WALK : SIZE_MAX,
                        0, false};
    s->o->scan(s->sl, start, k, dir, ms_walk_step, &w);
    r->t->walks++;
    r->t->steps += w.n;
    if (w.bad)
        return;
    bool ran_out = w.n < w.max;
    if (dir > 0) { /* from first, seek(k) (the first key >= k) or last */
        lo = start == RT_SEEK ? k : start == RT_LAST && w.n ? w.first : 0;
        hi = ran_out ? UINT64_MAX : w.prev;
    } else if (start == RT_LAST) {
        lo = ran_out ? 0 : w.prev;
        hi = UINT64_MAX;
    } else if (w.n == 0) { /* nothing at or after the start */
        lo = start == RT_SEEK ? k : 0;
        hi = UINT64_MAX;
    } else { /* first, or seek(k): the first key >= k; then down */
        if (start == RT_SEEK && w.first > k && ms_perms_in(k, w.first - 1))
            rt_fail("map reader: seek(%" PRIu64 ") landed on %" PRIu64
                    ", past a permanent key",
                    k, w.first);
        lo = ran_out ? 0 : w.prev;
        hi = w.first;
    }
    size_t want = ms_perms_in(lo, hi);
    if (w.perms != want)
        rt_fail("map reader: a walk %s over [%" PRIu64 ", %" PRId64
                "] saw %zu permanent keys of %zu",
                dir > 0 ? "forward" : "backward", lo,
                hi == UINT64_MAX ? -1 : (int64_t)hi, w.perms, want);
}

static void ms_read_ends(struct ms_reader *r)
{
    struct map_stress *s = r->s;
    struct map_item *f = s->o->first(s->sl), *l = s->o->last(s->sl);
    if (!ms_check_elem(s, f, "first", 0) || !ms_check_elem(s, l, "last", 0))
        return;
    if (!f || f->key > KEY_BASE + MS_PERM_COL || !l ||
        l->key < KEY_BASE + 8 * (MS_ROWS - 1) + MS_PERM_COL)
        rt_fail("map reader: first/last passed a permanent key");
    size_t n = s->o->count(s->sl);
    if (n < MS_ROWS || n > MS_KEYS - MS_ROWS)
        rt_fail("map reader: count %zu out of [%u, %u]", n, MS_ROWS,
                MS_KEYS - MS_ROWS);
}

static void *ms_reader_main(void *arg)
{
    struct st_thread *t = (struct st_thread *)arg;
    struct ms_reader r = {(struct map_stress *)t->run, t, NULL};
    r.seen = (unsigned char *)calloc(MS_KEYS, 1);
    st_enter();
    while (!atomic_load(&st_stop) && st_running()) {
        unsigned how = (unsigned)tc_below(&t->rng, 16);
        skiplist_rcu_read_lock();
        if (how < 8)
            ms_read_find(&r);
        else if (how < 12)
            ms_read_bounds(&r);
        else if (how < 15)
            ms_read_walk(&r);
        else if (tc_below(&t->rng, 16) == 0)
            ms_read_ends(&r);
        skiplist_rcu_read_unlock();
        t->rops++;
        rt_maybe_yield(&t->rng, 8);
        rt_quiescent();
        st_tick(false);
    }
    st_leave(false);
    free(r.seen);
    return NULL;
}

/* ------------------------------------------------------- map: the end */

struct ms_final {
    struct map_stress *s;
    size_t i; /* next key index to expect */
    size_t n;
    bool bad;
};

static bool ms_expect_present(const struct map_stress *s, size_t i)
{
    return ms_is_perm(i) || s->present[i];
}

/* Destroy hands back the union of the models, in order. */
static void ms_final_each(struct map_item *e, void *arg)
{
    struct ms_final *f = (struct ms_final *)arg;
    while (f->i < MS_KEYS && !ms_expect_present(f->s, f->i))
        f->i++;
    if (f->i >= MS_KEYS || e != &f->s->items[f->i])
        f->bad = true;
    f->i++;
    f->n++;
}

static bool ms_final_walk(void *ctx, void *e)
{
    ms_final_each((struct map_item *)e, ctx);
    return true;
}

static void ms_final_check(struct map_stress *s, struct stress_result *res)
{
    char why[256] = "";
    if (s->o->check(s->sl, why, sizeof(why)) != 0)
        rt_fail("map: check after the run: %s", why);
    struct ms_final f = {s, 0, 0, false};
    skiplist_rcu_read_lock();
    s->o->scan(s->sl, RT_FIRST, 0, 1, ms_final_walk, &f);
    res->final_count = s->o->count(s->sl);
    skiplist_rcu_read_unlock();
    while (f.i < MS_KEYS && !ms_expect_present(s, f.i))
        f.i++;
    if (f.bad || f.i != MS_KEYS)
        rt_fail("map: the list differs from the union of the writers' "
                "models (near key %" PRIu64 ")",
                ms_key(f.i));
    res->balance = (long)(res->adds + MS_ROWS) - (long)res->removes -
                   (long)res->final_count;
    if (res->balance != 0 || f.n != res->final_count)
        rt_fail("map: adds - removes - count = %ld (walk %zu, count %zu)",
                res->balance, f.n, res->final_count);
    s->o->stats(s->sl, &res->st);
    struct ms_final d = {s, 0, 0, false};
    s->o->destroy(s->sl, ms_final_each, &d);
    if (d.bad || d.n != res->final_count)
        rt_fail("map: destroy handed back %zu elements, not the %zu "
                "expected in order",
                d.n, res->final_count);
}

/*
 * One map stress run over ops (an instantiation), in the list storage sl
 * (at least ops->size bytes). Figures into *res; failures via rt_fail().
 */
static void map_stress(const struct rmap_ops *o, void *sl,
                       const struct stress_cfg *cfg, struct stress_result *res)
{
    static struct map_stress s;
    static struct st_thread t[ST_MAX_THREADS];
    static struct ra ra; /* static: stuck threads may still hold it */
    memset(&s, 0, sizeof(s));
    memset(t, 0, sizeof(t));
    memset(res, 0, sizeof(*res));
    s.o = o;
    s.sl = sl;
    s.cfg = cfg;
    for (size_t i = 0; i < MS_KEYS; i++) {
        s.items[i].key = s.twins[i].key = ms_key(i);
        s.items[i].id = s.twins[i].id = (uint32_t)i;
    }
    if (o->init(sl, st_allocator(&ra, cfg), cfg->seed) != 0) {
        rt_fail("map: init failed");
        return;
    }
    for (size_t i = MS_PERM_COL; i < MS_KEYS; i += 8)
        if (o->insert(sl, &s.items[i], NULL) != 0)
            rt_fail("map: inserting permanent key %" PRIu64 " failed",
                    ms_key(i));
    double t0 = rt_now();
    if (!st_run(t, cfg, &s, ms_writer_main, ms_reader_main))
        return; /* threads stuck: nothing more is safe */
    res->secs = rt_now() - t0;
    st_sum(res, t, cfg->writers + cfg->readers);
    ms_final_check(&s, res);
    st_allocator_end(&ra, cfg, res);
}

/* ====================================================== contended keys */

/*
 * Every writer inserts and erases the SAME few keys, each with elements
 * of its own: per key, inserts and erases must succeed alternately
 * whatever the interleaving, so at the end successes(insert) -
 * successes(erase) is 0 or 1 and says whether the key is in the list;
 * two inserts of one key that both succeed (a duplicate), or an erase
 * that removes nothing it reports, breaks that. -EEXIST must name an
 * element with the key, erase_key must hand back one. Readers check
 * finds and walks (strictly increasing: a duplicate key would show).
 */
#define DU_KEYS 192u
#define DU_BASE 1000u

struct map_duel {
    const struct rmap_ops *o;
    void *sl;
    const struct stress_cfg *cfg;
    struct map_item items[ST_MAX_THREADS][DU_KEYS]; /* per writer */
    atomic_ulong ins[DU_KEYS], del[DU_KEYS];        /* successes per key */
    unsigned long eexist, enoent;                   /* summed after */
};

static bool du_valid(const struct map_duel *d, const struct map_item *e,
                     uint64_t key)
{
    uintptr_t p = (uintptr_t)e, b = (uintptr_t)d->items;
    if (p < b || p >= b + sizeof(d->items) || (p - b) % sizeof(*e))
        return false;
    return e->key == key && e->key == DU_BASE + e->id % DU_KEYS;
}

static void du_insert(struct map_duel *d, struct st_thread *t, size_t k)
{
    struct map_item *x = NULL, *e = &d->items[t->id][k];
    skiplist_rcu_read_lock(); /* *existing is read inside */
    int rc = d->o->insert(d->sl, e, &x);
    if (rc == 0) {
        atomic_fetch_add(&d->ins[k], 1);
        t->adds++;
    } else if (rc == -EEXIST && du_valid(d, x, e->key)) {
        t->refusals++;
    } else {
        rt_fail("duel writer %u: insert %" PRIu64 ": %d (existing %p)", t->id,
                e->key, rc, (void *)x);
    }
    skiplist_rcu_read_unlock();
}

static void du_erase(struct map_duel *d, struct st_thread *t, size_t k)
{
    struct map_item *x = NULL, *e = &d->items[t->id][k];
    bool by_key = tc_below(&t->rng, 4) != 0;
    int rc =
        by_key ? d->o->erase_key(d->sl, e->key, &x) : d->o->erase(d->sl, e);
    if (rc == 0 && (!by_key || du_valid(d, x, e->key))) {
        atomic_fetch_add(&d->del[k], 1);
        t->removes++;
    } else if (rc == -ENOENT) {
        t->nospc++; /* here: the count of -ENOENT */
    } else {
        rt_fail("duel writer %u: %s %" PRIu64 ": %d (out %p)", t->id,
                by_key ? "erase_key" : "erase", e->key, rc, (void *)x);
    }
}

static void *du_writer_main(void *arg)
{
    struct st_thread *t = (struct st_thread *)arg;
    struct map_duel *d = (struct map_duel *)t->run;
    st_enter();
    for (; t->ops < d->cfg->writer_ops && st_running(); t->ops++) {
        size_t k = (size_t)tc_below(&t->rng, DU_KEYS);
        (tc_below(&t->rng, 2) ? du_insert : du_erase)(d, t, k);
        rt_maybe_yield(&t->rng, d->cfg->yield_one_in);
        rt_quiescent();
        st_tick(true);
    }
    st_leave(true);
    return NULL;
}

struct du_walk {
    struct map_duel *d;
    uint64_t prev;
    size_t n;
};

static bool du_step(void *ctx, void *elem)
{
    struct du_walk *w = (struct du_walk *)ctx;
    struct map_item *e = (struct map_item *)elem;
    if (!e || !du_valid(w->d, e, e->key) || (w->n && e->key <= w->prev)) {
        rt_fail("duel reader: a walk went from %" PRIu64 " to %p", w->prev,
                (void *)e);
        return false;
    }
    w->prev = e->key;
    w->n++;
    return true;
}

/* A find, twice with a yield between; either answer is one of ours with
 * the key, and what changed (the element, or its presence) is counted. */
static void du_read_find(struct map_duel *d, struct st_thread *t,
                         const struct map_item **seen, size_t k)
{
    uint64_t key = DU_BASE + k;
    struct map_item *e = d->o->find(d->sl, key);
    rt_maybe_yield(&t->rng, 2);
    struct map_item *again = d->o->find(d->sl, key);
    if ((e && !du_valid(d, e, key)) || (again && !du_valid(d, again, key))) {
        rt_fail("duel reader: find(%" PRIu64 ") gave %p, then %p", key,
                (void *)e, (void *)again);
        return;
    }
    t->within += again != e;
    t->across += seen[k] != e;
    seen[k] = again;
}

static void *du_reader_main(void *arg)
{
    struct st_thread *t = (struct st_thread *)arg;
    struct map_duel *d = (struct map_duel *)t->run;
    const struct map_item *seen[DU_KEYS] = {0};
    st_enter();
    while (!atomic_load(&st_stop) && st_running()) {
        size_t k = (size_t)tc_below(&t->rng, DU_KEYS);
        uint64_t key = DU_BASE + k;
        skiplist_rcu_read_lock();
        if (tc_below(&t->rng, 4)) {
            du_read_find(d, t, seen, k);
        } else {
            struct du_walk w = {d, 0, 0};
            d->o->scan(d->sl, RT_SEEK, key, 1, du_step, &w);
            t->walks++;
            t->steps += w.n;
        }
        skiplist_rcu_read_unlock();
        t->rops++;
        rt_maybe_yield(&t->rng, 8);
        rt_quiescent();
        st_tick(false);
    }
    st_leave(false);
    return NULL;
}

/* Per key: the successes alternate, and their balance is the presence. */
static void du_final_check(struct map_duel *d, struct stress_result *res)
{
    char why[256] = "";
    size_t present = 0;
    if (d->o->check(d->sl, why, sizeof(why)) != 0)
        rt_fail("duel: check after the run: %s", why);
    skiplist_rcu_read_lock();
    for (size_t k = 0; k < DU_KEYS; k++) {
        unsigned long in = atomic_load(&d->ins[k]),
                      out = atomic_load(&d->del[k]);
        struct map_item *e = d->o->find(d->sl, DU_BASE + k);
        if (in - out != (e != NULL) || (e && !du_valid(d, e, DU_BASE + k)))
            rt_fail("duel: key %zu: %lu inserts and %lu erases succeeded, "
                    "and it is %s",
                    DU_BASE + k, in, out, e ? "present" : "absent");
        present += e != NULL;
    }
    res->final_count = d->o->count(d->sl);
    skiplist_rcu_read_unlock();
    res->balance =
        (long)res->adds - (long)res->removes - (long)res->final_count;
    if (res->balance != 0 || present != res->final_count)
        rt_fail("duel: adds - removes - count = %ld", res->balance);
    d->o->stats(d->sl, &res->st);
    d->o->destroy(d->sl, NULL, NULL);
}

static void map_duel(const struct rmap_ops *o, void *sl,
                     const struct stress_cfg *cfg, struct stress_result *res)
{
    static struct map_duel d;
    static struct st_thread t[ST_MAX_THREADS];
    static struct ra ra; /* static: stuck threads may still hold it */
    memset(&d, 0, sizeof(d));
    memset(t, 0, sizeof(t));
    memset(res, 0, sizeof(*res));
    d.o = o;
    d.sl = sl;
    d.cfg = cfg;
    for (size_t w = 0; w < ST_MAX_THREADS; w++)
        for (size_t k = 0; k < DU_KEYS; k++) {
            d.items[w][k].key = DU_BASE + k;
            d.items[w][k].id = (uint32_t)(w * DU_KEYS + k);
        }
    if (o->init(sl, st_allocator(&ra, cfg), cfg->seed) != 0) {
        rt_fail("duel: init failed");
        return;
    }
    double t0 = rt_now();
    if (!st_run(t, cfg, &d, du_writer_main, du_reader_main))
        return; /* threads stuck: nothing more is safe */
    res->secs = rt_now() - t0;
    st_sum(res, t, cfg->writers + cfg->readers);
    /* writers count -ENOENT where the others count -ENOSPC */
    res->hole_nospc = 0;
    du_final_check(&d, res);
    st_allocator_end(&ra, cfg, res);
}

/* ========================================================= extent face */

#define XS_SPACE 32768u /* writers allocate in [0, XS_SPACE) */
#define XS_ABOVE 4096u  /* [XS_SPACE, + XS_ABOVE): never allocated */
#define XS_PERM_EVERY 512u
#define XS_PERM_SIZE 8u
#define XS_NPERM (XS_SPACE / XS_PERM_EVERY)
#define XS_PER_WRITER                                                     \
    1024u                  /* elements per writer: erased ones wait for a \
                            * grace period until the free ones run out */
#define XS_LIVE_LOW 24u    /* a writer's live extents swing from here */
#define XS_LIVE_SWING 136u /* ... up by this much, at most */
#define XS_MAXSIZE 16u
#define XS_WATCH 64u /* points each reader watches for changes */
#define XS_OWNER_PERM UINT32_MAX
#define XS_HOT 2048u /* half the allocations and lookups go below it */
/* Each writer also owns a private region above the shared space, where
 * only it allocates: there insert_hole's answer is exactly the model's,
 * whatever the others do beside it in the same nodes. */
#define XS_PRIV_BASE (XS_SPACE + XS_ABOVE)
#define XS_PRIV_SPAN 2048u
#define XS_END (XS_PRIV_BASE + ST_MAX_THREADS * XS_PRIV_SPAN)

struct ext_stress {
    const struct rext_ops *o;
    void *sl;
    const struct stress_cfg *cfg;
    /* permanent extents first, then XS_PER_WRITER per writer */
    struct rext *ext;
    size_t next;
    _Atomic uint32_t owner[XS_END]; /* 1 + writer, XS_OWNER_PERM, 0 */
    bool linked[XS_NPERM + ST_MAX_THREADS * XS_PER_WRITER];
};

static bool xs_valid(const struct ext_stress *s, const struct rext *e)
{
    uintptr_t p = (uintptr_t)e, b = (uintptr_t)s->ext;
    if (p < b || p >= b + s->next * sizeof(*e) || (p - b) % sizeof(*e))
        return false;
    bool shared = e->start + e->size <= XS_SPACE;
    bool priv = e->start >= XS_PRIV_BASE && e->start + e->size <= XS_END;
    return e->id == (size_t)(e - s->ext) && e->size >= 1 &&
           e->size <= XS_MAXSIZE && (shared || priv);
}

static bool xs_check_elem(const struct ext_stress *s, const struct rext *e,
                          const char *what, uint64_t p)
{
    if (!e || xs_valid(s, e))
        return true;
    rt_fail("extent reader: %s(%" PRIu64 ") returned garbage %p (not one "
            "of the test's extents, or a corrupt one: a freed or unwritten "
            "node)",
            what, p, (const void *)e);
    return false;
}

static const struct rext *xs_perm_at(const struct ext_stress *s, uint64_t p)
{
    if (p >= XS_SPACE || p % XS_PERM_EVERY >= XS_PERM_SIZE)
        return NULL;
    return &s->ext[p / XS_PERM_EVERY];
}

/*
 * A thread's extent elements: free ones, and erased ones in limbo, which
 * readers may still hold until a grace period has passed. Used by the
 * extent writers and by the edge run's owner and neighbours.
 */
struct xpool {
    struct rext **free_, **limbo;
    size_t nfree, nlimbo;
};

static void xpool_init(struct xpool *p, struct rext *e, size_t n)
{
    p->free_ = (struct rext **)calloc(2 * n, sizeof(void *));
    p->limbo = p->free_ + n;
    p->nfree = p->nlimbo = 0;
    for (size_t i = 0; i < n; i++)
        p->free_[p->nfree++] = &e[i];
}

static void xpool_fini(struct xpool *p)
{
    free(p->free_);
}

/* An element that was never linked (a refused insert) is free at once. */
static void xpool_put(struct xpool *p, struct rext *e)
{
    p->free_[p->nfree++] = e;
}

/* An erased element waits for a grace period. */
static void xpool_retire(struct xpool *p, struct rext *e)
{
    p->limbo[p->nlimbo++] = e;
}

/* A free element; when none is left, one grace period returns every
 * erased one. NULL when every element is linked. */
static struct rext *xpool_take(struct xpool *p)
{
    if (!p->nfree && p->nlimbo) {
        skiplist_rcu_synchronize();
        while (p->nlimbo)
            p->free_[p->nfree++] = p->limbo[--p->nlimbo];
    }
    return p->nfree ? p->free_[--p->nfree] : NULL;
}

/* ------------------------------------------------------- extent writer */

struct xs_writer {
    struct ext_stress *s;
    struct st_thread *t;
    struct xpool pool;
    struct rext **live;
    size_t nlive;
    struct model_extent priv; /* its extents in its private region */
    uint64_t priv_lo;         /* the region: [priv_lo, + XS_PRIV_SPAN) */
};

/* Claims e's units in the owner map: any already claimed is an overlap
 * between two live extents. */
static void xs_claim(struct xs_writer *w, const struct rext *e)
{
    uint32_t me = w->t->id + 1;
    for (uint64_t u = e->start; u < e->start + e->size; u++) {
        uint32_t was = atomic_exchange(&w->s->owner[u], me);
        if (was)
            rt_fail("extent writer %u: [%" PRIu64 ", +%" PRIu64
                    ") overlaps a live extent of %s at %" PRIu64,
                    w->t->id, e->start, e->size,
                    was == XS_OWNER_PERM ? "the permanent set"
                                         : "another writer",
                    u);
    }
}

static void xs_unclaim(struct xs_writer *w, const struct rext *e)
{
    uint32_t me = w->t->id + 1;
    for (uint64_t u = e->start; u < e->start + e->size; u++)
        if (atomic_exchange(&w->s->owner[u], 0) != me)
            rt_fail("extent writer %u: unit %" PRIu64
                    " of its extent was claimed by another",
                    w->t->id, u);
}

static void xs_linked(struct xs_writer *w, struct rext *e)
{
    xs_claim(w, e);
    w->live[w->nlive++] = e;
    w->s->linked[e->id] = true;
    w->t->adds++;
}

static void xs_hole(struct xs_writer *w, struct rext *e)
{
    struct tc_rng *g = &w->t->rng;
    uint64_t align = UINT64_C(1) << tc_below(g, 5);
    uint64_t lo = tc_below(g, tc_below(g, 2) ? XS_HOT : XS_SPACE);
    uint64_t hi = lo + 64 + tc_below(g, 4096);
    int flags = tc_below(g, 2) ? SKIPLIST_HOLE_HIGHEST : SKIPLIST_HOLE_LOWEST;
    if (hi >= XS_SPACE)
        hi = XS_SPACE - 1;
    e->size = 1 + tc_below(g, XS_MAXSIZE);
    int rc = w->s->o->hole(w->s->sl, e, align, lo, hi, flags);
    if (rc == -ENOSPC) {
        w->t->nospc++;
        xpool_put(&w->pool, e);
        return;
    }
    if (rc != 0 || e->start % align || e->start < lo ||
        e->start + (e->size - 1) > hi) {
        rt_fail("extent writer %u: insert_hole size %" PRIu64 " align %" PRIu64
                " in [%" PRIu64 ", %" PRIu64 "]: %d at %" PRIu64,
                w->t->id, e->size, align, lo, hi, rc, e->start);
        return;
    }
    xs_linked(w, e);
}

/* insert_hole in a window of its private region: the model's answer,
 * exactly (lowest or highest, or -ENOSPC), concurrency or not. */
static void xs_hole_private(struct xs_writer *w, struct rext *e)
{
    struct tc_rng *g = &w->t->rng;
    uint64_t align = UINT64_C(1) << tc_below(g, 5), at = 0;
    uint64_t lo = w->priv_lo + tc_below(g, XS_PRIV_SPAN);
    uint64_t hi = lo + tc_below(g, XS_PRIV_SPAN);
    bool highest = tc_below(g, 2);
    if (hi >= w->priv_lo + XS_PRIV_SPAN)
        hi = w->priv_lo + XS_PRIV_SPAN - 1;
    e->size = 1 + tc_below(g, XS_MAXSIZE);
    int want = mx_hole(&w->priv, e->size, align, lo, hi, highest, &at);
    int rc =
        w->s->o->hole(w->s->sl, e, align, lo, hi,
                      highest ? SKIPLIST_HOLE_HIGHEST : SKIPLIST_HOLE_LOWEST);
    if (rc != want || (rc == 0 && e->start != at)) {
        rt_fail("extent writer %u: insert_hole size %" PRIu64 " align %" PRIu64
                " in its own [%" PRIu64 ", %" PRIu64 "] %s: %d at %" PRIu64
                ", the model %d at %" PRIu64,
                w->t->id, e->size, align, lo, hi,
                highest ? "highest" : "lowest", rc, rc ? 0 : e->start, want,
                at);
        return;
    }
    if (rc) {
        w->t->nospc++;
        xpool_put(&w->pool, e);
        return;
    }
    mx_insert(&w->priv, e->start, e->size, e, NULL);
    xs_linked(w, e);
}

/* A plain insert somewhere: 0, or -EEXIST with a clash that overlaps. */
static void xs_insert(struct xs_writer *w, struct rext *e)
{
    struct ext_stress *s = w->s;
    struct tc_rng *g = &w->t->rng;
    void *clash = NULL;
    e->size = 1 + tc_below(g, XS_MAXSIZE);
    e->start = tc_below(g, XS_SPACE - e->size + 1);
    skiplist_rcu_read_lock(); /* *clash is valid inside */
    int rc = s->o->insert(s->sl, e, &clash);
    if (rc == -EEXIST) {
        const struct rext *c = (const struct rext *)clash;
        if (!xs_check_elem(s, c, "insert's clash", e->start) || !c ||
            c->start >= e->start + e->size || c->start + c->size <= e->start)
            rt_fail("extent writer %u: -EEXIST for [%" PRIu64 ", +%" PRIu64
                    ") without an overlapping clash",
                    w->t->id, e->start, e->size);
    }
    skiplist_rcu_read_unlock();
    if (rc == 0) {
        xs_linked(w, e);
        return;
    }
    if (rc != -EEXIST)
        rt_fail("extent writer %u: insert: %d", w->t->id, rc);
    w->t->refusals++;
    xpool_put(&w->pool, e);
}

/* Erases one of its extents; the element waits in limbo for a grace
 * period, as readers may still hold it. */
static void xs_erase(struct xs_writer *w)
{
    struct ext_stress *s = w->s;
    size_t k = (size_t)tc_below(&w->t->rng, w->nlive);
    struct rext *e = w->live[k];
    w->live[k] = w->live[--w->nlive];
    xs_unclaim(w, e);
    if (e->start >= XS_PRIV_BASE)
        mx_erase(&w->priv, e);
    int rc = s->o->erase(s->sl, e);
    if (rc != 0)
        rt_fail("extent writer %u: erase: %d", w->t->id, rc);
    s->linked[e->id] = false;
    w->t->removes++;
    xpool_retire(&w->pool, e);
    if (tc_below(&w->t->rng, 8) == 0) { /* gone: refused now */
        w->t->refusals++;
        if (s->o->erase(s->sl, e) != -ENOENT)
            rt_fail("extent writer %u: a second erase was not -ENOENT",
                    w->t->id);
    }
}

static void *xs_writer_main(void *arg)
{
    struct st_thread *t = (struct st_thread *)arg;
    struct ext_stress *s = (struct ext_stress *)t->run;
    struct xs_writer w;
    memset(&w, 0, sizeof(w));
    w.s = s;
    w.t = t;
    mx_init(&w.priv, UINT64_MAX);
    w.priv_lo = XS_PRIV_BASE + (uint64_t)t->id * XS_PRIV_SPAN;
    xpool_init(&w.pool, &s->ext[XS_NPERM + t->id * XS_PER_WRITER],
               XS_PER_WRITER);
    w.live = (struct rext **)calloc(XS_PER_WRITER, sizeof(void *));
    st_enter();
    /* a few swings even in a short (sanitizer) run */
    unsigned long swing = s->cfg->writer_ops / 8;
    size_t low = XS_LIVE_LOW;
    size_t high = low + (swing < XS_LIVE_SWING ? swing : XS_LIVE_SWING);
    bool filling = true;
    for (; t->ops < s->cfg->writer_ops && st_running(); t->ops++) {
        if (w.nlive >= high)
            filling = false;
        else if (w.nlive <= low)
            filling = true;
        bool grow = !w.nlive || (tc_below(&t->rng, 4) != 0) == filling;
        struct rext *e = grow ? xpool_take(&w.pool) : NULL;
        unsigned how = (unsigned)tc_below(&t->rng, 8);
        if (e)
            (how < 4 ? xs_hole : how < 6 ? xs_hole_private : xs_insert)(&w, e);
        else if (w.nlive)
            xs_erase(&w);
        rt_maybe_yield(&t->rng, s->cfg->yield_one_in);
        rt_quiescent();
        st_tick(true);
    }
    st_leave(true);
    mx_fini(&w.priv);
    xpool_fini(&w.pool);
    free(w.live);
    return NULL;
}

/* ------------------------------------------------------- extent reader */

struct xs_reader {
    struct ext_stress *s;
    struct st_thread *t;
    uint64_t watch[XS_WATCH];
    const void *seen[XS_WATCH];
};

/* A point to probe: mostly in the hot zone, where the writers are; now
 * and then in the writers' private regions. */
static uint64_t xs_point(struct tc_rng *g)
{
    if (tc_below(g, 8) == 0)
        return XS_PRIV_BASE + tc_below(g, 4 * XS_PRIV_SPAN);
    return tc_below(g, tc_below(g, 4) ? XS_HOT : XS_SPACE + XS_ABOVE);
}

static void xs_check_lookup(struct xs_reader *r, uint64_t p,
                            const struct rext *e)
{
    const struct rext *perm = xs_perm_at(r->s, p);
    if (!xs_check_elem(r->s, e, "lookup", p))
        return;
    if (perm && e != perm)
        rt_fail("extent reader: lookup(%" PRIu64
                ") missed its permanent extent",
                p);
    else if (p >= XS_SPACE && p < XS_PRIV_BASE && e)
        rt_fail("extent reader: lookup(%" PRIu64
                ") found an extent where none was ever put",
                p);
    else if (e && (p < e->start || p - e->start >= e->size))
        rt_fail("extent reader: lookup(%" PRIu64 ") gave [%" PRIu64
                ", +%" PRIu64 ")",
                p, e->start, e->size);
}

/* A random point, and a watched one twice (a change between the two
 * reads happened inside this read-side section). */
static void xs_read_lookup(struct xs_reader *r)
{
    struct ext_stress *s = r->s;
    uint64_t p = xs_point(&r->t->rng);
    xs_check_lookup(r, p, (const struct rext *)s->o->lookup(s->sl, p));
    size_t w = (size_t)tc_below(&r->t->rng, XS_WATCH);
    p = r->watch[w];
    const void *e = s->o->lookup(s->sl, p);
    xs_check_lookup(r, p, (const struct rext *)e);
    if (r->seen[w] != e)
        r->t->across++;
    rt_maybe_yield(&r->t->rng, 2);
    const void *again = s->o->lookup(s->sl, p);
    xs_check_lookup(r, p, (const struct rext *)again);
    if (again != e)
        r->t->within++;
    r->seen[w] = again;
    r->t->lookups += 3;
}

/* The lowest permanent extent overlapping [lo, hi], or NULL. */
static const struct rext *xs_perm_in(const struct ext_stress *s, uint64_t lo,
                                     uint64_t hi)
{
    uint64_t first = lo / XS_PERM_EVERY * XS_PERM_EVERY;
    if (lo - first >= XS_PERM_SIZE)
        first += XS_PERM_EVERY;
    return first <= hi && first < XS_SPACE ? &s->ext[first / XS_PERM_EVERY]
                                           : NULL;
}

static bool xs_overlaps(const struct rext *e, uint64_t lo, uint64_t hi)
{
    return e->start <= hi && e->start + (e->size - 1) >= lo;
}

static void xs_read_first_overlap(struct xs_reader *r)
{
    struct ext_stress *s = r->s;
    uint64_t lo = xs_point(&r->t->rng), hi = lo + tc_below(&r->t->rng, 1024);
    void *got = NULL;
    int rc = s->o->first_overlap(s->sl, lo, hi, &got);
    const struct rext *e = (const struct rext *)got,
                      *perm = xs_perm_in(s, lo, hi);
    if (rc == 0 && !xs_check_elem(s, e, "first_overlap", lo))
        return;
    if (rc == 0
            ? !e || !xs_overlaps(e, lo, hi) || (perm && e->start > perm->start)
            : rc != -ENOENT || perm)
        rt_fail("extent reader: first_overlap [%" PRIu64 ", %" PRIu64
                "]: %d, [%" PRId64 ", +%" PRId64 ")%s",
                lo, hi, rc, e ? (int64_t)e->start : -1,
                e ? (int64_t)e->size : -1,
                perm ? " past a permanent extent" : "");
}

/* Permanent extents starting in [a, b], and overlapping [a, b]. */
static size_t xs_perms_starting_in(uint64_t a, uint64_t b)
{
    if (a > b || a >= XS_SPACE)
        return 0;
    uint64_t first = (a + XS_PERM_EVERY - 1) / XS_PERM_EVERY;
    uint64_t last = (b >= XS_SPACE ? XS_SPACE - 1 : b) / XS_PERM_EVERY;
    return last >= first ? (size_t)(last - first + 1) : 0;
}

static size_t xs_perms_overlapping(uint64_t a, uint64_t b)
{
    uint64_t from = a < XS_PERM_SIZE - 1 ? 0 : a - (XS_PERM_SIZE - 1);
    return xs_perms_starting_in(from, b);
}

struct xs_walk {
    struct xs_reader *r;
    int dir;
    bool overlap; /* an overlap walk of [lo, hi] */
    uint64_t lo, hi;
    const struct rext *first, *prev;
    size_t n, max, perms;
    bool bad;
};

static bool xs_walk_step(void *ctx, void *elem)
{
    struct xs_walk *w = (struct xs_walk *)ctx;
    const struct rext *e = (const struct rext *)elem;
    if (!xs_check_elem(w->r->s, e, "iteration", w->lo) || !e) {
        w->bad = true;
        return false;
    }
    bool mono = !w->prev || (w->dir > 0 ? e->start > w->prev->start
                                        : e->start < w->prev->start);
    if (!mono || (w->overlap && !xs_overlaps(e, w->lo, w->hi))) {
        rt_fail("extent reader: iteration %s reached [%" PRIu64 ", +%" PRIu64
                ") after %" PRId64 "%s",
                w->dir > 0 ? "forward" : "backward", e->start, e->size,
                w->prev ? (int64_t)w->prev->start : -1,
                !mono ? ": out of order" : ", outside the range");
        w->bad = true;
        return false;
    }
    if (!w->first)
        w->first = e;
    w->prev = e;
    w->perms += e->id < XS_NPERM;
    w->n++;
    rt_maybe_yield(&w->r->t->rng, 16);
    return w->n < w->max;
}

/* The permanent extents a finished walk must have seen, as for the map:
 * by start, over the range it covered; overlap walks: all overlapping. */
static size_t xs_walk_want(const struct xs_walk *w, int start, uint64_t k)
{
    bool ran_out = w->n < w->max;
    if (w->overlap)
        return xs_perms_overlapping(w->lo, w->hi);
    if (w->dir > 0)
        return xs_perms_starting_in(start == RT_SEEK ? k : 0,
                                    ran_out ? UINT64_MAX : w->prev->start);
    uint64_t lo = ran_out ? 0 : w->prev->start;
    if (start == RT_LAST)
        return xs_perms_starting_in(lo, UINT64_MAX);
    if (!w->first) /* seek found nothing: nothing starts at or after k */
        return xs_perms_starting_in(k, UINT64_MAX);
    /* seek lands on the first start >= k, then the walk goes down */
    return xs_perms_starting_in(lo, w->first->start) +
           (w->first->start > k ? xs_perms_starting_in(k, w->first->start - 1)
                                : 0);
}

static void xs_read_walk(struct xs_reader *r)
{
    struct ext_stress *s = r->s;
    struct tc_rng *g = &r->t->rng;
    unsigned how = (unsigned)tc_below(g, 5); /* 4: seek, then down */
    int start = how == 0 ? RT_FIRST : how == 1 ? RT_LAST : RT_SEEK;
    uint64_t k = xs_point(g);
    struct xs_walk w = {r,
                        how == 1 || how == 4 ? -1 : 1,
                        how == 3,
                        0,
                        UINT64_MAX,
                        NULL,
                        NULL,
                        0,
                        tc_below(g, 64) ? ST_WALK : SIZE_MAX,
                        0,
                        false};
    if (w.overlap) { /* lowest first, every extent of the range */
        w.lo = k;
        w.hi = k + tc_below(g, 2048);
        w.max = SIZE_MAX;
        s->o->scan_overlap(s->sl, w.lo, w.hi, xs_walk_step, &w);
    } else {
        s->o->scan(s->sl, start, k, w.dir, xs_walk_step, &w);
    }
    r->t->walks++;
    r->t->steps += w.n;
    if (w.bad)
        return;
    size_t want = xs_walk_want(&w, start, k);
    if (w.perms != want)
        rt_fail("extent reader: a %s walk (%s, from %" PRIu64
                ") saw %zu permanent extents of %zu",
                w.overlap   ? "overlap"
                : w.dir > 0 ? "forward"
                            : "backward",
                start == RT_FIRST  ? "first"
                : start == RT_LAST ? "last"
                                   : "seek",
                k, w.perms, want);
}

static void *xs_reader_main(void *arg)
{
    struct st_thread *t = (struct st_thread *)arg;
    struct xs_reader r;
    memset(&r, 0, sizeof(r));
    r.s = (struct ext_stress *)t->run;
    r.t = t;
    for (size_t i = 0; i < XS_WATCH; i++)
        r.watch[i] = tc_below(&t->rng, i % 2 ? XS_HOT : XS_SPACE);
    st_enter();
    while (!atomic_load(&st_stop) && st_running()) {
        unsigned how = (unsigned)tc_below(&t->rng, 8);
        skiplist_rcu_read_lock();
        if (how < 5)
            xs_read_lookup(&r);
        else if (how < 6)
            xs_read_first_overlap(&r);
        else
            xs_read_walk(&r);
        skiplist_rcu_read_unlock();
        t->rops++;
        rt_maybe_yield(&t->rng, 8);
        rt_quiescent();
        st_tick(false);
    }
    st_leave(false);
    return NULL;
}

/* ---------------------------------------------------- extent: the end */

struct xs_final {
    struct ext_stress *s;
    uint64_t at; /* units below it are accounted for */
    size_t n;
    bool bad;
};

/* In order, each linked, and every unit between two extents unowned. */
static void xs_final_each(void *elem, void *arg)
{
    struct xs_final *f = (struct xs_final *)arg;
    struct rext *e = (struct rext *)elem;
    if (!xs_valid(f->s, e) || !f->s->linked[e->id] || e->start < f->at) {
        f->bad = true;
        return;
    }
    for (; f->at < e->start; f->at++)
        if (atomic_load(&f->s->owner[f->at]))
            f->bad = true;
    f->at = e->start + e->size;
    f->n++;
}

static bool xs_final_walk(void *ctx, void *e)
{
    xs_final_each(e, ctx);
    return true;
}

static void xs_final_check(struct ext_stress *s, struct stress_result *res)
{
    char why[256] = "";
    if (s->o->check(s->sl, why, sizeof(why)) != 0)
        rt_fail("extent: check after the run: %s", why);
    struct xs_final f = {s, 0, 0, false};
    skiplist_rcu_read_lock();
    s->o->scan(s->sl, RT_FIRST, 0, 1, xs_final_walk, &f);
    res->final_count = s->o->count(s->sl);
    skiplist_rcu_read_unlock();
    size_t linked = 0;
    for (size_t i = 0; i < s->next; i++)
        linked += s->linked[i];
    if (f.bad || f.n != linked)
        rt_fail("extent: the list (%zu extents) differs from the union of "
                "the writers' records (%zu)",
                f.n, linked);
    res->balance = (long)(res->adds + XS_NPERM) - (long)res->removes -
                   (long)res->final_count;
    if (res->balance != 0)
        rt_fail("extent: adds - removes - count = %ld", res->balance);
    s->o->stats(s->sl, &res->st);
    struct xs_final d = {s, 0, 0, false};
    s->o->destroy(s->sl, xs_final_each, &d);
    if (d.bad || d.n != res->final_count)
        rt_fail("extent: destroy handed back %zu extents, not %zu in order",
                d.n, res->final_count);
}

static void ext_stress(const struct rext_ops *o, void *sl,
                       const struct stress_cfg *cfg, struct stress_result *res)
{
    static struct ext_stress s;
    static struct st_thread t[ST_MAX_THREADS];
    static struct ra ra; /* static: stuck threads may still hold it */
    memset(&s, 0, sizeof(s));
    memset(t, 0, sizeof(t));
    memset(res, 0, sizeof(*res));
    s.o = o;
    s.sl = sl;
    s.cfg = cfg;
    s.next = XS_NPERM + cfg->writers * XS_PER_WRITER;
    s.ext = (struct rext *)calloc(s.next, sizeof(*s.ext));
    for (size_t i = 0; i < s.next; i++)
        s.ext[i].id = (uint32_t)i;
    if (o->init(sl, st_allocator(&ra, cfg), cfg->seed) != 0) {
        rt_fail("extent: init failed");
        free(s.ext);
        return;
    }
    for (size_t i = 0; i < XS_NPERM; i++) {
        void *clash = NULL;
        s.ext[i].start = i * XS_PERM_EVERY;
        s.ext[i].size = XS_PERM_SIZE;
        if (o->insert(sl, &s.ext[i], &clash) != 0)
            rt_fail("extent: inserting a permanent extent failed");
        s.linked[i] = true;
        for (size_t u = 0; u < XS_PERM_SIZE; u++)
            atomic_store(&s.owner[s.ext[i].start + u], XS_OWNER_PERM);
    }
    double t0 = rt_now();
    if (!st_run(t, cfg, &s, xs_writer_main, xs_reader_main))
        return; /* threads stuck: nothing more is safe (s.ext stays) */
    res->secs = rt_now() - t0;
    st_sum(res, t, cfg->writers + cfg->readers);
    xs_final_check(&s, res);
    st_allocator_end(&ra, cfg, res);
    free(s.ext);
}

/* ============================================= extent face: window edges */

/*
 * insert_hole at the edge of a window its caller owns, beside a neighbour
 * that churns the space just below the window. XE_REGIONS regions of
 * XE_WIDTH units: the lower half of each is the neighbours' (random small
 * extents inserted and erased there, splitting and merging the leaves the
 * two halves share), the upper half the owner's, full but for a hole of
 * XE_HOLE units at its bottom. The owner asks insert_hole, lowest or
 * highest, for XE_HOLE units in its half: the only answer is the bottom,
 * whatever the neighbours do below it (nobody else touches the window),
 * so -ENOSPC or any other place is a wrong answer. Then it erases the
 * extent again. The neighbours change which extent is the last one before
 * the window, and where it lies, all the time: the run that reaches into
 * the window is the one a search must not lose.
 *
 * The owner is st_run's writer (it stops after its operations, or at the
 * first wrong answer), the neighbours its "readers" (they run until it is
 * done).
 */
#define XE_REGIONS 32u
#define XE_WIDTH 64u
#define XE_HALF (XE_WIDTH / 2)
#define XE_BASE 1024u
#define XE_HOLE 4u
#define XE_NEIGHBOURS 2u
#define XE_POOL 1024u /* elements per thread, reused after a grace period */

struct ext_edge {
    const struct rext_ops *o;
    void *sl;
    unsigned long owner_ops;
    struct rext *ext; /* XE_POOL per thread, then the owner's fill */
    size_t nfill;
};

static uint64_t xe_lo(unsigned r)
{
    return XE_BASE + (uint64_t)r * XE_WIDTH + XE_HALF;
}

static void *xe_owner_main(void *arg)
{
    struct st_thread *t = (struct st_thread *)arg;
    struct ext_edge *x = (struct ext_edge *)t->run;
    struct xpool p;
    xpool_init(&p, x->ext + (size_t)t->id * XE_POOL, XE_POOL);
    st_enter();
    for (; t->ops < x->owner_ops && st_running(); t->ops++) {
        struct rext *e = xpool_take(&p);
        unsigned r = (unsigned)tc_below(&t->rng, XE_REGIONS);
        uint64_t lo = xe_lo(r), hi = lo + XE_HALF - 1;
        bool highest = tc_below(&t->rng, 2);
        e->start = 0;
        e->size = XE_HOLE;
        int rc =
            x->o->hole(x->sl, e, 1, lo, hi,
                       highest ? SKIPLIST_HOLE_HIGHEST : SKIPLIST_HOLE_LOWEST);
        if (rc != 0 || e->start != lo) {
            rt_fail("extent edge: insert_hole size %u in its own [%" PRIu64
                    ", %" PRIu64 "] %s, free only at %" PRIu64
                    " (the neighbours busy below it): %d at %" PRIu64
                    ", after %lu good answers",
                    XE_HOLE, lo, hi, highest ? "highest" : "lowest", lo, rc,
                    rc ? 0 : e->start, t->ops);
            if (rc)
                xpool_put(&p, e);
            break;
        }
        t->adds++;
        if (x->o->erase(x->sl, e) != 0)
            rt_fail("extent edge: the owner's erase failed");
        t->removes++;
        xpool_retire(&p, e);
        rt_quiescent();
        st_tick(true);
    }
    st_leave(true);
    xpool_fini(&p);
    return NULL;
}

/* Random small extents in the lower halves: insert where free, erase one
 * of its own; never more than 8 live per region. */
static void *xe_neighbour_main(void *arg)
{
    struct st_thread *t = (struct st_thread *)arg;
    struct ext_edge *x = (struct ext_edge *)t->run;
    struct xpool p;
    static _Thread_local struct rext *live[XE_REGIONS][8];
    size_t nlive[XE_REGIONS] = {0};
    unsigned me = t->id - 1, n = XE_NEIGHBOURS;
    xpool_init(&p, x->ext + (size_t)t->id * XE_POOL, XE_POOL);
    memset(live, 0, sizeof(live));
    st_enter();
    while (!atomic_load(&st_stop) && st_running()) {
        /* this neighbour's regions: every n-th one */
        unsigned r = me + n * (unsigned)tc_below(&t->rng, XE_REGIONS / n);
        size_t *k = &nlive[r];
        if (*k && (*k == 8 || tc_below(&t->rng, 2))) {
            size_t i = (size_t)tc_below(&t->rng, *k);
            struct rext *e = live[r][i];
            live[r][i] = live[r][--*k];
            if (x->o->erase(x->sl, e) != 0)
                rt_fail("extent edge: a neighbour's erase failed");
            xpool_retire(&p, e);
            t->removes++;
        } else {
            struct rext *e = xpool_take(&p);
            void *clash = NULL;
            e->size = 1 + tc_below(&t->rng, 4);
            e->start =
                xe_lo(r) - XE_HALF + tc_below(&t->rng, XE_HALF - e->size + 1);
            int rc = x->o->insert(x->sl, e, &clash);
            if (rc == 0) {
                live[r][(*k)++] = e;
                t->adds++;
            } else {
                if (rc != -EEXIST)
                    rt_fail("extent edge: a neighbour's insert: %d", rc);
                xpool_put(&p, e);
                t->refusals++;
            }
        }
        t->rops++;
        rt_quiescent();
        st_tick(false);
    }
    st_leave(false);
    xpool_fini(&p);
    return NULL;
}

static void ext_edge(const struct rext_ops *o, void *sl,
                     const struct stress_cfg *cfg, struct stress_result *res)
{
    static struct ext_edge x;
    static struct st_thread t[1 + XE_NEIGHBOURS];
    static struct ra ra; /* static: stuck threads may still hold it */
    struct stress_cfg c = *cfg;
    c.writers = 1;
    c.readers = XE_NEIGHBOURS;
    memset(&x, 0, sizeof(x));
    memset(t, 0, sizeof(t));
    memset(res, 0, sizeof(*res));
    x.o = o;
    x.sl = sl;
    x.owner_ops = cfg->writer_ops;
    size_t pools = (1 + XE_NEIGHBOURS) * XE_POOL;
    x.ext = (struct rext *)calloc(pools + XE_REGIONS * XE_HALF, sizeof(*x.ext));
    if (o->init(sl, st_allocator(&ra, &c), c.seed) != 0) {
        rt_fail("extent edge: init failed");
        free(x.ext);
        return;
    }
    /* the owner's halves, full above the hole, in random order and sizes */
    struct tc_rng g;
    tc_rng_init(&g, c.seed);
    for (unsigned r = 0; r < XE_REGIONS; r++) {
        uint64_t s = xe_lo(r) + XE_HOLE, end = xe_lo(r) + XE_HALF;
        while (s < end) {
            struct rext *e = &x.ext[pools + x.nfill++];
            e->start = s;
            e->size = 1 + tc_below(&g, 3);
            if (e->size > end - s)
                e->size = end - s;
            s += e->size;
        }
    }
    for (size_t i = x.nfill; i > 1; i--) { /* shuffle the insert order */
        size_t j = (size_t)tc_below(&g, i);
        struct rext tmp = x.ext[pools + i - 1];
        x.ext[pools + i - 1] = x.ext[pools + j];
        x.ext[pools + j] = tmp;
    }
    for (size_t i = 0; i < pools + x.nfill; i++)
        x.ext[i].id = (uint32_t)i;
    for (size_t i = 0; i < x.nfill; i++) {
        void *clash = NULL;
        if (o->insert(sl, &x.ext[pools + i], &clash) != 0)
            rt_fail("extent edge: filling the owner's halves failed");
    }
    double t0 = rt_now();
    if (!st_run(t, &c, &x, xe_owner_main, xe_neighbour_main))
        return; /* threads stuck: nothing more is safe (x.ext stays) */
    res->secs = rt_now() - t0;
    st_sum(res, t, c.writers + c.readers);
    o->stats(sl, &res->st);
    char why[256];
    if (!rt_failures() && o->check(sl, why, sizeof(why)) != 0)
        rt_fail("extent edge: check: %s", why);
    o->destroy(sl, NULL, NULL);
    st_allocator_end(&ra, &c, res);
    free(x.ext);
}

/* ---------------------------------------------------- printing, verdicts */

static void stress_print(FILE *f, const char *what, const char *label,
                         const struct stress_cfg *cfg,
                         const struct stress_result *r)
{
    char mem[160];
    if (!cfg->library_alloc)
        snprintf(mem, sizeof(mem),
                 "counting allocator: %lu allocations, %ld leaked, %lu bad "
                 "frees, %lu written after free",
                 r->allocs, r->leaked, r->bad_frees, r->scribbled);
    else
        snprintf(mem, sizeof(mem), "the library's pools: leaks %s",
                 !TC_SANITIZED ? "not counted (no LSan here)"
                 : r->leaked   ? "FOUND by LSan"
                               : "none (LSan)");
    fprintf(f,
            "rcu_stress %s %s (%s): %u writers + %u readers, %.2f s: "
            "%lu writer ops (%lu adds, %lu removes, %lu refusals%s), "
            "%lu reader ops (%lu walks, %lu steps); retries %" PRIu64
            ", splits %" PRIu64 ", merges %" PRIu64
            "; readers saw %lu changes across sections, %lu within one; "
            "final count %zu, adds - removes - count = %ld; %s; %lu "
            "failures\n",
            what, label, RT_FLAVOR, cfg->writers, cfg->readers, r->secs,
            r->writer_ops, r->adds, r->removes, r->refusals,
            r->hole_nospc ? ", some insert_hole -ENOSPC" : "", r->reader_ops,
            r->walks, r->walk_steps, r->st.retries, r->st.splits, r->st.merges,
            r->changes_across, r->changes_within, r->final_count, r->balance,
            mem, rt_failures());
}

/* What a run must show besides no failure: it raced, nothing leaked. */
static const char *stress_verdict(const struct stress_result *r)
{
    if (rt_failures())
        return rt_failure_msg();
    if (r->changes_across == 0)
        return "the readers never saw a change: the run did not race";
    if (r->st.splits == 0 || r->st.merges == 0)
        return "no split or no merge happened";
    if (r->leaked != 0)
        return "memory leaked after destroy and rcu_barrier()";
    if (r->bad_frees != 0 || r->scribbled != 0)
        return "bad frees, or memory written after its free";
    return NULL;
}

/* The edge run's figures and verdict: its "readers" are the neighbours,
 * writers that run until the owner is done. */
static void edge_print(FILE *f, const char *label,
                       const struct stress_result *r)
{
    fprintf(f,
            "rcu_stress edge %s (%s): 1 owner + %u neighbours, %.2f s: "
            "%lu insert_hole at the window's edge, %lu neighbour ops (%lu "
            "adds, %lu removes, %lu refusals); retries %" PRIu64
            ", splits %" PRIu64 ", merges %" PRIu64
            "; %ld leaked, %lu bad frees, %lu written after free; %lu "
            "failures\n",
            label, RT_FLAVOR, XE_NEIGHBOURS, r->secs, r->writer_ops,
            r->reader_ops, r->adds - r->writer_ops, r->removes - r->writer_ops,
            r->refusals, r->st.retries, r->st.splits, r->st.merges, r->leaked,
            r->bad_frees, r->scribbled, rt_failures());
}

static const char *edge_verdict(const struct stress_result *r)
{
    if (rt_failures())
        return rt_failure_msg();
    if (r->st.splits == 0 || r->st.merges == 0)
        return "edge: no split or no merge: the neighbours did not reshape "
               "the leaves they share with the owner";
    if (r->leaked != 0 || r->bad_frees != 0 || r->scribbled != 0)
        return "edge: memory leaked, freed badly or written after its free";
    return NULL;
}

/* After a stall (st_wait) the stuck threads hold locks and memory the
 * process can no longer clean up: say why and leave at once, exit
 * handlers (liburcu's among them) would wait on the stuck threads. */
static void stress_exit_if_stalled(const char *what)
{
    if (!atomic_load(&st_stalled))
        return;
    printf("FAILED: %s: %s\n", what, rt_failure_msg());
    fprintf(stderr, "FAILED: %s: %s\n", what, rt_failure_msg());
    fflush(stdout);
    fflush(stderr);
    _exit(1);
}

/* ---------------------------------------------------------- the runs */

/* The end of a run: leave if its threads got stuck, print its figures,
 * judge it. */
static const char *st_report(FILE *out, const char *what, const char *label,
                             const struct stress_cfg *cfg,
                             const struct stress_result *r)
{
    stress_exit_if_stalled(label);
    stress_print(out, what, label, cfg, r);
    return stress_verdict(r);
}

const char *stress_map(const struct rmap_ops *o, void *sl,
                       const struct stress_cfg *cfg, FILE *out)
{
    struct stress_result r;
    map_stress(o, sl, cfg, &r);
    return st_report(out, "map", o->label, cfg, &r);
}

const char *stress_duel(const struct rmap_ops *o, void *sl,
                        const struct stress_cfg *cfg, FILE *out)
{
    struct stress_result r;
    map_duel(o, sl, cfg, &r);
    return st_report(out, "duel", o->label, cfg, &r);
}

const char *stress_extent(const struct rext_ops *o, void *sl,
                          const struct stress_cfg *cfg, FILE *out)
{
    struct stress_result r;
    ext_stress(o, sl, cfg, &r);
    return st_report(out, "extent", o->label, cfg, &r);
}

const char *stress_edge(const struct rext_ops *o, void *sl,
                        const struct stress_cfg *cfg, FILE *out)
{
    struct stress_result r;
    ext_edge(o, sl, cfg, &r);
    stress_exit_if_stalled(o->label);
    edge_print(out, o->label, &r);
    return edge_verdict(&r);
}
