/* liburcu registration shared by the two liburcu peers (skiplist_rcu and
 * urcu_lfht, both on the memb flavor: one library state per process). */
#define _LGPL_SOURCE
#include <urcu.h>

#include "bench/rcu_impl.h"

/* Registrations of this thread still open: the main thread holds one per
 * live liburcu structure, and liburcu refuses a second registration. */
static _Thread_local unsigned urcu_depth;

void rcu_bench_urcu_enter(void)
{
    if (urcu_depth++ == 0)
        rcu_register_thread();
}

void rcu_bench_urcu_leave(void)
{
    if (--urcu_depth == 0)
        rcu_unregister_thread();
}

void rcu_bench_urcu_synchronize(void)
{
    synchronize_rcu();
}

void rcu_bench_urcu_barrier(void)
{
    rcu_barrier();
}
