/* mutex_rb, rwlock_rb and spin_rb: libbsd's <bsd/sys/tree.h> red-black
 * tree (the map suite's bsd_rb) behind one pthread mutex, one pthread
 * rwlock or one pthread spinlock (the defaults, as a user gets them:
 * glibc's rwlock prefers readers). spin_rb is the baseline of Chris
 * Mason's skiplist test, an rbtree behind one spinlock. Every operation
 * takes the lock for itself; an erase looks the key up and unlinks under
 * one write lock. Intrusive: the links are the element's.
 *
 * The extent face (mason) is the same tree keyed by the extents' starts:
 * a lookup is the last extent starting at or below the point, if it
 * reaches the point; an insert checks its neighbours for overlap. */
#include <pthread.h>
#include <stdlib.h>

/* RB_GENERATE_STATIC marks its functions __unused, a BSD spelling glibc
 * does not define. */
#define __unused __attribute__((unused))
#include "bench/rcu_impl.h"

static int rb_cmp(const struct rcu_elem *a, const struct rcu_elem *b)
{
    return (a->key > b->key) - (a->key < b->key);
}

RB_HEAD(rbt, rcu_elem);
RB_GENERATE_STATIC(rbt, rcu_elem, rb, rb_cmp)

struct rb_map {
    struct rbt head;
    size_t count;
    pthread_mutex_t mu;    /* mutex_rb */
    pthread_rwlock_t rw;   /* rwlock_rb */
    pthread_spinlock_t sp; /* spin_rb */
};

static void *rb_create(size_t n)
{
    struct rb_map *m = malloc(sizeof(*m));
    (void)n;
    if (!m)
        return NULL;
    RB_INIT(&m->head);
    m->count = 0;
    pthread_mutex_init(&m->mu, NULL);
    pthread_rwlock_init(&m->rw, NULL);
    pthread_spin_init(&m->sp, PTHREAD_PROCESS_PRIVATE);
    return m;
}

/* Intrusive: nothing to free but the head. */
static void rb_destroy(void *h)
{
    struct rb_map *m = h;
    pthread_mutex_destroy(&m->mu);
    pthread_rwlock_destroy(&m->rw);
    pthread_spin_destroy(&m->sp);
    free(m);
}

static void rb_thread(void *h)
{
    (void)h;
}

static size_t rb_count(void *h)
{
    return ((struct rb_map *)h)->count;
}

static inline struct rcu_elem *rb_find(struct rb_map *m, uint64_t key)
{
    struct rcu_elem probe;
    probe.key = key;
    return RB_FIND(rbt, &m->head, &probe);
}

static inline int rb_insert(struct rb_map *m, struct rcu_elem *e)
{
    if (RB_INSERT(rbt, &m->head, e))
        return -1;
    m->count++;
    return 0;
}

static inline struct rcu_elem *rb_erase(struct rb_map *m, uint64_t key)
{
    struct rcu_elem *e = rb_find(m, key);
    if (e) {
        RB_REMOVE(rbt, &m->head, e);
        m->count--;
    }
    return e;
}

/* The last extent starting at or below point, if it contains point. */
static inline struct rcu_elem *rb_ext_lookup(struct rb_map *m, uint64_t point)
{
    struct rcu_elem *x = RB_ROOT(&m->head), *best = NULL;
    while (x) {
        if (x->key <= point) {
            best = x;
            x = RB_RIGHT(x, rb);
        } else {
            x = RB_LEFT(x, rb);
        }
    }
    return best && point - best->key < best->size ? best : NULL;
}

/* Linked first, then checked against its neighbours: in-order neighbours
 * are the only extents a new one can overlap, and reaching them from the
 * new node is cheaper than a second descent. */
static inline int rb_ext_insert(struct rb_map *m, struct rcu_elem *e)
{
    if (RB_INSERT(rbt, &m->head, e))
        return -1;
    struct rcu_elem *p = RB_PREV(rbt, &m->head, e);
    struct rcu_elem *n = RB_NEXT(rbt, &m->head, e);
    if ((p && e->key - p->key < p->size) || (n && n->key - e->key < e->size)) {
        RB_REMOVE(rbt, &m->head, e);
        return -1;
    }
    m->count++;
    return 0;
}

/* e itself, found by its start: another thread may have removed it. */
static inline int rb_ext_erase(struct rb_map *m, struct rcu_elem *e)
{
    if (RB_FIND(rbt, &m->head, e) != e)
        return -1;
    RB_REMOVE(rbt, &m->head, e);
    m->count--;
    return 0;
}

/* The adapter for one lock, both faces: RD and WR lock m's lock for
 * reading and writing, UN unlocks it. */
#define RB_LOCKED_ADAPTER(P, NAME, RD, WR, UN)                         \
    static struct rcu_elem *P##_find(void *h, uint64_t key)            \
    {                                                                  \
        struct rb_map *m = h;                                          \
        RD(m);                                                         \
        struct rcu_elem *e = rb_find(m, key);                          \
        UN(m);                                                         \
        return e;                                                      \
    }                                                                  \
    static uint64_t P##_find_all(void *h, const uint64_t *q, size_t n) \
    {                                                                  \
        struct rb_map *m = h;                                          \
        uint64_t sum = 0;                                              \
        for (size_t i = 0; i < n; i++) {                               \
            RD(m);                                                     \
            sum += (uintptr_t)rb_find(m, q[i]);                        \
            UN(m);                                                     \
        }                                                              \
        return sum;                                                    \
    }                                                                  \
    static int P##_insert(void *h, uint64_t key, struct rcu_elem *e)   \
    {                                                                  \
        struct rb_map *m = h;                                          \
        (void)key;                                                     \
        WR(m);                                                         \
        int r = rb_insert(m, e);                                       \
        UN(m);                                                         \
        return r;                                                      \
    }                                                                  \
    static struct rcu_elem *P##_erase(void *h, uint64_t key)           \
    {                                                                  \
        struct rb_map *m = h;                                          \
        WR(m);                                                         \
        struct rcu_elem *e = rb_erase(m, key);                         \
        UN(m);                                                         \
        return e;                                                      \
    }                                                                  \
    static int P##_ext_insert(void *h, struct rcu_elem *e)             \
    {                                                                  \
        struct rb_map *m = h;                                          \
        WR(m);                                                         \
        int r = rb_ext_insert(m, e);                                   \
        UN(m);                                                         \
        return r;                                                      \
    }                                                                  \
    static int P##_ext_erase(void *h, struct rcu_elem *e)              \
    {                                                                  \
        struct rb_map *m = h;                                          \
        WR(m);                                                         \
        int r = rb_ext_erase(m, e);                                    \
        UN(m);                                                         \
        return r;                                                      \
    }                                                                  \
    static struct rcu_elem *P##_ext_lookup(void *h, uint64_t point)    \
    {                                                                  \
        struct rb_map *m = h;                                          \
        RD(m);                                                         \
        struct rcu_elem *e = rb_ext_lookup(m, point);                  \
        UN(m);                                                         \
        return e;                                                      \
    }                                                                  \
    const struct rcu_impl rcu_impl_##P = {                             \
        .name = NAME,                                                  \
        .link_bytes = sizeof(((struct rcu_elem *)0)->rb),              \
        .create = rb_create,                                           \
        .destroy = rb_destroy,                                         \
        .thread_enter = rb_thread,                                     \
        .thread_leave = rb_thread,                                     \
        .count = rb_count,                                             \
        .find = P##_find,                                              \
        .find_all = P##_find_all,                                      \
        .insert = P##_insert,                                          \
        .erase = P##_erase,                                            \
        .ext_create = rb_create,                                       \
        .ext_destroy = rb_destroy,                                     \
        .ext_count = rb_count,                                         \
        .ext_insert = P##_ext_insert,                                  \
        .ext_erase = P##_ext_erase,                                    \
        .ext_lookup = P##_ext_lookup,                                  \
    };

#define MX_LOCK(m) pthread_mutex_lock(&(m)->mu)
#define MX_UNLOCK(m) pthread_mutex_unlock(&(m)->mu)
#define RW_RDLOCK(m) pthread_rwlock_rdlock(&(m)->rw)
#define RW_WRLOCK(m) pthread_rwlock_wrlock(&(m)->rw)
#define RW_UNLOCK(m) pthread_rwlock_unlock(&(m)->rw)
#define SP_LOCK(m) pthread_spin_lock(&(m)->sp)
#define SP_UNLOCK(m) pthread_spin_unlock(&(m)->sp)

RB_LOCKED_ADAPTER(mutex_rb, "mutex_rb", MX_LOCK, MX_LOCK, MX_UNLOCK)
RB_LOCKED_ADAPTER(rwlock_rb, "rwlock_rb", RW_RDLOCK, RW_WRLOCK, RW_UNLOCK)
RB_LOCKED_ADAPTER(spin_rb, "spin_rb", SP_LOCK, SP_LOCK, SP_UNLOCK)
