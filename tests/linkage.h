/*
 * Linkage matrix, the split form: SKIPLIST_PROTOTYPE here, in a header
 * that several translation units include; SKIPLIST_GENERATE in exactly one
 * of them (linkage_gen.c). linkage_a.c and test_build_linkage.c both use the
 * list, so a duplicate or missing definition fails the link.
 * A 32-bit key and a small KPN, unlike the other suites, so the
 * generated code is exercised with a different key size too.
 */
#ifndef LINKAGE_H
#define LINKAGE_H

#include <stddef.h>
#include <stdint.h>

#include "skiplist.h"

struct litem {
    uint32_t key;
    int payload;
};

#define LITEM_KEY(e) ((e)->key)

SKIPLIST_PROTOTYPE(lmap, struct litem, uint32_t, LITEM_KEY, SKIPLIST_CMP_NUM, 8,
                   12, 2)

/* From linkage_a.c: fill and sum through the externally linked API. */
int linkage_a_fill(struct lmap *m, struct litem *items, size_t n);
uint64_t linkage_a_sum(const struct lmap *m);

#endif /* LINKAGE_H */
