/*
 * skiplist_rcu.h's split form, as tests/linkage.h is skiplist.h's:
 * SKIPLIST_RCU_PROTOTYPE and SKIPLIST_RCU_EXTENT_PROTOTYPE here, in a
 * header two translation units include; the _GENERATE macros in exactly
 * one of them (test_rcu_linkage_gen.c). test_rcu_linkage.c and the
 * generating unit both use the lists, so a duplicate or missing
 * definition fails the link. A 32-bit key and small nodes, unlike most of
 * the other suites.
 */
#ifndef RCU_LINKAGE_H
#define RCU_LINKAGE_H

#include <stddef.h>
#include <stdint.h>

#include "skiplist_rcu.h"

struct rl_item {
    uint32_t key;
    int payload;
};
#define RL_ITEM_KEY(e) ((e)->key)

SKIPLIST_RCU_PROTOTYPE(rl_map, struct rl_item, uint32_t, RL_ITEM_KEY,
                       SKIPLIST_CMP_NUM, 4, 6, 1)

struct rl_span {
    uint32_t start, size;
};

SKIPLIST_RCU_EXTENT_PROTOTYPE(rl_ext, struct rl_span, uint32_t, start, size, 4,
                              6, 1)

/* From test_rcu_linkage_gen.c: fill and sum through the external API
 * (sums are read-only walks: a const list). */
int rl_map_fill(struct rl_map *m, struct rl_item *v, size_t n);
uint64_t rl_map_sum(const struct rl_map *m);
int rl_ext_fill(struct rl_ext *x, struct rl_span *v, size_t n);
uint64_t rl_ext_sum(const struct rl_ext *x);

#endif /* RCU_LINKAGE_H */
