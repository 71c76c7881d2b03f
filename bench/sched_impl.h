/* The sched suite's interface: a runqueue model holding ntasks NORMAL tasks
 * on NCPUS CPUs, driven through whole loops (one indirect call per loop).
 *
 * Both implementations build their tasks from the same spec (nice level and
 * the one CPU a task is pinned to, or -1 for all), so they must pick the
 * same task at every step: the loops return a hash of the picked ids, which
 * the driver compares before it times anything. */
#ifndef BENCH_SCHED_IMPL_H
#define BENCH_SCHED_IMPL_H

#include <stddef.h>
#include <stdint.h>

#define SCHED_NCPUS 16u
/* Clock per cycle: 16 CPUs each running a 6 ms slice. */
#define SCHED_TICK_NS (6000000u / SCHED_NCPUS)
#define SCHED_SLICE_NS 6000000u

struct sched_task_spec {
    int nice;
    int pinned; /* the CPU it may run on, or -1 for every CPU */
};

struct sched_impl {
    const char *name;
    /* Queues every task of spec[0..n) (all NORMAL). */
    void *(*create)(const struct sched_task_spec *spec, size_t n);
    void (*destroy)(void *h);
    /* m cycles, CPUs in turn: pick on the CPU; when a task comes back,
     * advance the clock one tick and deschedule it runnable with its whole
     * slice used (new deadline, back in the queue, sticky hand-over).
     * Returns a hash of the picked task ids (empty picks included). */
    uint64_t (*cycle)(void *h, size_t m);
};

extern const struct sched_impl sched_impl_skiplist;
extern const struct sched_impl sched_impl_bfs_list;

static inline uint64_t sched_hash(uint64_t h, uint64_t id)
{
    return (h ^ id) * 0x100000001b3ull;
}

#endif
