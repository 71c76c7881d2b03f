/* A second user of lmap: sees only the prototypes from linkage.h. */
#include "linkage.h"

int linkage_a_fill(struct lmap *m, struct litem *items, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int rc = lmap_insert(m, &items[i], NULL);
        if (rc)
            return rc;
    }
    return 0;
}

uint64_t linkage_a_sum(const struct lmap *m)
{
    struct lmap_iter it;
    struct litem *e;
    uint64_t sum = 0;
    SKIPLIST_FOREACH (lmap, m, it, e) {
        sum += e->key;
    }
    return sum;
}
