/*
 * skiplist_sched.h over 4-key leaves (SKIPLIST_SCHED_CONFIG 4, 8, 1): with
 * a handful of tasks every push and requeue splits or merges leaves, so the
 * allocation-failure sweep reaches each rollback path of the header (push
 * fails; push succeeds and the sticky hand-over requeue fails), and the
 * differential stream against the BFS replica runs over a many-leaf queue.
 */
#define SKIPLIST_SCHED_CONFIG 4, 8, 1
#include "test_sched_common.h"

Test(sched_small, alloc_failure_sweep, .timeout = 120)
{
    sched_alloc_sweep();
}

Test(sched_small, vs_replica, .timeout = 120)
{
    uint64_t seed = tc_seed("sched_small.vs_replica");
    sched_differential(seed, tc_ops(60000), 40, 1);
    sched_differential(seed + 1, tc_ops(100000), 200, 500);
}
