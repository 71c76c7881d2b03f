/* Must not compile: max level 0 (MAXLVL must be 1..32). */
#include "skiplist.h"
struct item {
    unsigned long key;
};
#define ITEM_KEY(e) ((e)->key)
SKIPLIST_DEFINE(bad, struct item, unsigned long, ITEM_KEY, SKIPLIST_CMP_NUM, 4,
                0, 2)
