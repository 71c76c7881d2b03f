/* Must not compile: the hook in the old third place. One message, naming
 * the order SKIPLIST_PQ_DEFINE takes. */
#include "skiplist.h"
struct task {
    unsigned long key;
    struct skiplist_hook hook;
};
#define TASK_KEY(e) ((e)->key)
SKIPLIST_PQ_DEFINE(bad, struct task, hook, unsigned long, TASK_KEY,
                   SKIPLIST_CMP_NUM, SKIPLIST_PQ_DEFAULTS)
