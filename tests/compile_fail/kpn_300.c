/* Must not compile: 300 keys per node (KPN must be 1..256). */
#include "skiplist.h"
struct item {
    unsigned long key;
};
#define ITEM_KEY(e) ((e)->key)
SKIPLIST_DEFINE(bad, struct item, unsigned long, ITEM_KEY, SKIPLIST_CMP_NUM,
                300, 16, 2)
