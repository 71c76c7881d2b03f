/* Must not compile: the extent face needs an unsigned key type. */
#include "skiplist.h"
struct ext {
    long start, size;
};
SKIPLIST_EXTENT_DEFINE(bad, struct ext, long, start, size, SKIPLIST_DEFAULTS)
