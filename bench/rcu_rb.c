/* mutex_rb and rwlock_rb: libbsd's <bsd/sys/tree.h> red-black tree (the
 * map suite's bsd_rb) behind one pthread mutex or one pthread rwlock (the
 * defaults, as a user gets them: glibc's rwlock prefers readers). Every
 * operation takes the lock for itself; an erase looks the key up and
 * unlinks under one write lock. Intrusive: the links are the element's. */
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
    pthread_mutex_t mu;  /* mutex_rb */
    pthread_rwlock_t rw; /* rwlock_rb */
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
    return m;
}

/* Intrusive: nothing to free but the head. */
static void rb_destroy(void *h)
{
    struct rb_map *m = h;
    pthread_mutex_destroy(&m->mu);
    pthread_rwlock_destroy(&m->rw);
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

/* The adapter for one lock: RD and WR lock m's lock for reading and
 * writing, UN unlocks it. */
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
    };

#define MX_LOCK(m) pthread_mutex_lock(&(m)->mu)
#define MX_UNLOCK(m) pthread_mutex_unlock(&(m)->mu)
#define RW_RDLOCK(m) pthread_rwlock_rdlock(&(m)->rw)
#define RW_WRLOCK(m) pthread_rwlock_wrlock(&(m)->rw)
#define RW_UNLOCK(m) pthread_rwlock_unlock(&(m)->rw)

RB_LOCKED_ADAPTER(mutex_rb, "mutex_rb", MX_LOCK, MX_LOCK, MX_UNLOCK)
RB_LOCKED_ADAPTER(rwlock_rb, "rwlock_rb", RW_RDLOCK, RW_WRLOCK, RW_UNLOCK)
