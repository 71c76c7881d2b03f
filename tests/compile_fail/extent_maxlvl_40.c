/* Must not compile: the extent face checks its configuration too. */
#include "skiplist.h"
struct ext {
    unsigned long start, size;
};
SKIPLIST_EXTENT_DEFINE(bad, struct ext, unsigned long, start, size, 8, 40, 2)
