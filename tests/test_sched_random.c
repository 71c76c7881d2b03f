/*
 * Differential test: skiplist_sched.h against the BFS-before-skiplists
 * replica (bfs_replica.h), driven by one random operation stream. Every
 * pick must return the same task on both, and after every operation both
 * agree on what is queued, which task is each CPU's sticky task, and
 * whether ISO is refractory. The stream covers every policy, ties (clock
 * steps of zero, few realtime priorities), affinity over CPUs 0, 1, 2, 63,
 * 64 and 1023 of 1024, frequency scaling, sticky hand-over, policy changes
 * of queued tasks and ISO going refractory and back (short ISO window).
 *
 * Seeds are printed; SEED=<n> replays, TEST_SCALE=<k> soaks.
 */
#include "test_sched_common.h"

/* check() after every operation, few tasks. */
Test(sched_random, vs_replica_checked, .timeout = 120)
{
    uint64_t seed = tc_seed("sched_random.vs_replica_checked");
    sched_differential(seed, tc_ops(40000), 12, 1);
    sched_differential(seed + 1, tc_ops(40000), 40, 1);
}

/* Long stream, more tasks, check() every 1000. */
Test(sched_random, vs_replica_long, .timeout = 300)
{
    uint64_t seed = tc_seed("sched_random.vs_replica_long");
    sched_differential(seed, tc_ops(300000), 64, 1000);
    sched_differential(seed + 1, tc_ops(200000), 300, 1000);
}
