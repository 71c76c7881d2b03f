/* Must not compile: the priority-queue face checks its configuration too. */
#include "skiplist.h"
struct task {
    unsigned long key;
    struct skiplist_hook hook;
};
#define TASK_KEY(e) ((e)->key)
SKIPLIST_PQ_DEFINE(bad, struct task, unsigned long, TASK_KEY, SKIPLIST_CMP_NUM,
                   hook, 257, 16, 2)
