/*
 * The one translation unit that generates rl_map and rl_ext (see
 * linkage.h), and a user of both through their external functions. Built
 * into the rcu suites' binaries beside test_rcu_linkage.c (it matches
 * their tests/rcu/test_rcu_*.c wildcard; it holds no test itself).
 */
#include "linkage.h"

SKIPLIST_RCU_GENERATE(rl_map, struct rl_item, uint32_t, RL_ITEM_KEY,
                      SKIPLIST_CMP_NUM, 4, 6, 1)
SKIPLIST_RCU_EXTENT_GENERATE(rl_ext, struct rl_span, uint32_t, start, size, 4,
                             6, 1)

/* name_fill inserts v[0..n) (0, or the first error); name_sum adds FIELD
 * over a walk, through a const list, in one read-side section. */
#define RL_USER(name, T, FIELD)                                              \
    int name##_fill(struct name *l, T *v, size_t n)                          \
    {                                                                        \
        for (size_t i = 0; i < n; i++) {                                     \
            int rc = name##_insert(l, &v[i], NULL);                          \
            if (rc)                                                          \
                return rc;                                                   \
        }                                                                    \
        return 0;                                                            \
    }                                                                        \
    uint64_t name##_sum(const struct name *l)                                \
    {                                                                        \
        struct name##_iter it;                                               \
        uint64_t sum = 0;                                                    \
        skiplist_rcu_read_lock();                                            \
        for (T *e = name##_iter_first(&it, l); e; e = name##_iter_next(&it)) \
            sum += e->FIELD;                                                 \
        skiplist_rcu_read_unlock();                                          \
        return sum;                                                          \
    }

RL_USER(rl_map, struct rl_item, key)
RL_USER(rl_ext, struct rl_span, size)
