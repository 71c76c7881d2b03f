/* Must not compile: PSHIFT 0 (promotion probability 1/2^PSHIFT, PSHIFT 1..8).
 */
#include "skiplist.h"
struct item {
    unsigned long key;
};
#define ITEM_KEY(e) ((e)->key)
SKIPLIST_DEFINE(bad, struct item, unsigned long, ITEM_KEY, SKIPLIST_CMP_NUM, 4,
                16, 0)
