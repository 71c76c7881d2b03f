/* Must not compile: START is not of the key type. */
#include "skiplist.h"
struct ext {
    long start;
    unsigned long size;
};
SKIPLIST_EXTENT_DEFINE(bad, struct ext, unsigned long, start, size,
                       SKIPLIST_DEFAULTS)
