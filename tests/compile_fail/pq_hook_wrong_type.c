/* Must not compile: HOOK names a member that is not a struct
 * skiplist_hook. */
#include "skiplist.h"
struct task {
    unsigned long key;
    void *hook[2];
};
#define TASK_KEY(e) ((e)->key)
SKIPLIST_PQ_DEFINE(bad, struct task, unsigned long, TASK_KEY, SKIPLIST_CMP_NUM,
                   hook, SKIPLIST_PQ_DEFAULTS)
