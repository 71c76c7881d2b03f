/* Must not compile: SIZE is not of the key type. */
#include "skiplist.h"
struct ext {
    unsigned long start;
    unsigned size;
};
SKIPLIST_EXTENT_DEFINE(bad, struct ext, unsigned long, start, size,
                       SKIPLIST_DEFAULTS)
