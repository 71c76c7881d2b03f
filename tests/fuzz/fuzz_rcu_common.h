/*
 * What the two skiplist_rcu.h harnesses (fuzz_rcu_map.c, fuzz_rcu_extent.c)
 * share: the thread registration libFuzzer's one thread needs, and the
 * end-of-run check of the counting allocator (tests/rcu/rcu_common.h's
 * struct ra) after destroy.
 */
#ifndef SKIPLIST_FUZZ_RCU_COMMON_H
#define SKIPLIST_FUZZ_RCU_COMMON_H

#include "tests/fuzz/fuzz_common.h"
#include "tests/rcu/rcu_common.h"

/* After destroy (rcu_barrier() inside) and ra_fini(): with the counting
 * allocator, every block came back, once, unwritten after its free. */
static inline void fz_rcu_allocator_clean(struct ra *ra, bool counted)
{
    if (!counted)
        return;
    FZ_CHECK(atomic_load(&ra->live) == 0);
    FZ_CHECK(atomic_load(&ra->bad_frees) == 0);
    FZ_CHECK(atomic_load(&ra->scribbled) == 0);
}

/* libFuzzer calls this once, on the thread that then runs every input. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    rcu_register_thread();
    return 0;
}

#endif
