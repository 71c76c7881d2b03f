/* Must compile cleanly under the strict warning flags: the positive
 * control for the must-fail cases, instantiating every face at the edges
 * of the valid configuration ranges. */
#include "skiplist.h"
struct item {
    unsigned long key;
};
#define ITEM_KEY(e) ((e)->key)
SKIPLIST_DEFINE(lo, struct item, unsigned long, ITEM_KEY, SKIPLIST_CMP_NUM, 1,
                1, 1)
SKIPLIST_DEFINE(hi, struct item, unsigned long, ITEM_KEY, SKIPLIST_CMP_NUM, 256,
                32, 4)
SKIPLIST_DEFINE(dflt, struct item, unsigned long, ITEM_KEY, SKIPLIST_CMP_NUM,
                SKIPLIST_DEFAULTS)

struct task {
    unsigned long key;
    struct skiplist_hook hook;
};
#define TASK_KEY(e) ((e)->key)
SKIPLIST_PQ_DEFINE(pq_lo, struct task, unsigned long, TASK_KEY,
                   SKIPLIST_CMP_NUM, hook, 1, 1, 1)
SKIPLIST_PQ_DEFINE(pq_hi, struct task, unsigned long, TASK_KEY,
                   SKIPLIST_CMP_NUM, hook, 256, 32, 4)

struct ext {
    unsigned long start, size;
};
SKIPLIST_EXTENT_DEFINE(ext_lo, struct ext, unsigned long, start, size, 1, 1, 1)
SKIPLIST_EXTENT_DEFINE(ext_hi, struct ext, unsigned long, start, size, 256, 32,
                       4)
