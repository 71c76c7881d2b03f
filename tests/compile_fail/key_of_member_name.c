/* Must not compile: a member name where the KEY_OF accessor goes. */
#include "skiplist.h"
struct item {
    unsigned long key;
};
SKIPLIST_DEFINE(bad, struct item, unsigned long, key, SKIPLIST_CMP_NUM,
                SKIPLIST_DEFAULTS)
