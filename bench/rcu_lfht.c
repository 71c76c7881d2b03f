/* urcu_lfht: liburcu's RCU lock-free hash table (urcu/rculfhash.h, memb
 * flavor), intrusive through the element's lfht node. Unordered: no range
 * query, no ordered walk, so it is the ceiling for point lookups, not a
 * peer for the ordered ops. Sized once for n (2^20 buckets at 10^6: about
 * one element per bucket), no resizing during the run. */
#define _LGPL_SOURCE
#include <urcu.h>

#include <stdlib.h>

#include "bench/rcu_impl.h"

/* A multiplicative mix: the keys are random already, but a user of a hash
 * table hashes, and the table takes its buckets from the low bits. */
static inline unsigned long lfht_hash(uint64_t key)
{
    uint64_t h = key * 0x9e3779b97f4a7c15ull;
    return (unsigned long)(h ^ (h >> 29));
}

static inline struct rcu_elem *lfht_elem(struct cds_lfht_node *node)
{
    return node ? caa_container_of(node, struct rcu_elem, lfht) : NULL;
}

static int lfht_match(struct cds_lfht_node *node, const void *key)
{
    return lfht_elem(node)->key == *(const uint64_t *)key;
}

static void *lfht_create(size_t n)
{
    unsigned long size = 1;
    while (size < n)
        size <<= 1;
    rcu_bench_urcu_enter();
    struct cds_lfht *ht = cds_lfht_new(size, size, 0, 0, NULL);
    if (!ht)
        rcu_bench_urcu_leave();
    return ht;
}

/* The table must be empty before it is destroyed; the elements are the
 * bench's, so unlinking is all. */
static void lfht_destroy(void *h)
{
    struct cds_lfht *ht = h;
    struct cds_lfht_iter it;
    struct cds_lfht_node *node;

    rcu_read_lock();
    cds_lfht_for_each(ht, &it, node)
    {
        cds_lfht_del(ht, node);
    }
    rcu_read_unlock();
    cds_lfht_destroy(ht, NULL);
    rcu_bench_urcu_leave();
}

static void lfht_thread_enter(void *h)
{
    (void)h;
    rcu_bench_urcu_enter();
}

static void lfht_thread_leave(void *h)
{
    (void)h;
    rcu_bench_urcu_leave();
}

static size_t lfht_count(void *h)
{
    long before, after;
    unsigned long count;
    rcu_read_lock();
    cds_lfht_count_nodes(h, &before, &count, &after);
    rcu_read_unlock();
    return count;
}

static inline struct rcu_elem *lfht_lookup(struct cds_lfht *ht, uint64_t key)
{
    struct cds_lfht_iter it;
    cds_lfht_lookup(ht, lfht_hash(key), lfht_match, &key, &it);
    return lfht_elem(cds_lfht_iter_get_node(&it));
}

static struct rcu_elem *lfht_find(void *h, uint64_t key)
{
    rcu_read_lock();
    struct rcu_elem *e = lfht_lookup(h, key);
    rcu_read_unlock();
    return e;
}

static uint64_t lfht_find_all(void *h, const uint64_t *q, size_t m)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < m; i++) {
        rcu_read_lock();
        sum += (uintptr_t)lfht_lookup(h, q[i]);
        rcu_read_unlock();
    }
    return sum;
}

static int lfht_insert(void *h, uint64_t key, struct rcu_elem *e)
{
    cds_lfht_node_init(&e->lfht);
    rcu_read_lock();
    struct cds_lfht_node *got =
        cds_lfht_add_unique(h, lfht_hash(key), lfht_match, &key, &e->lfht);
    rcu_read_unlock();
    return got == &e->lfht ? 0 : -1;
}

static struct rcu_elem *lfht_erase(void *h, uint64_t key)
{
    rcu_read_lock();
    struct rcu_elem *e = lfht_lookup(h, key);
    if (e && cds_lfht_del(h, &e->lfht) != 0)
        e = NULL; /* another thread removed it first */
    rcu_read_unlock();
    return e;
}

static void lfht_synchronize(void *h)
{
    (void)h;
    rcu_bench_urcu_synchronize();
}

const struct rcu_impl rcu_impl_urcu_lfht = {
    .name = "urcu_lfht",
    .link_bytes = sizeof(struct cds_lfht_node),
    .create = lfht_create,
    .destroy = lfht_destroy,
    .thread_enter = lfht_thread_enter,
    .thread_leave = lfht_thread_leave,
    .count = lfht_count,
    .find = lfht_find,
    .find_all = lfht_find_all,
    .insert = lfht_insert,
    .erase = lfht_erase,
    .synchronize = lfht_synchronize,
};
