/* bfs_list: BFS's runqueue before skiplists, the replica the tests use as
 * their oracle (tests/bfs_replica.h): per-priority lists and a bitmap,
 * O(1) enqueue, an O(n) earliest-deadline scan with affinity and sticky
 * rules on every pick. */
#include <stdlib.h>

#include "bench/sched_impl.h"
#include "tests/bfs_replica.h"

struct bl_state {
    struct bfs_rq rq;
    struct bfs_task *t;
    size_t n;
    unsigned cpu;
};

static void *bl_create(const struct sched_task_spec *spec, size_t n)
{
    struct bl_state *s = (struct bl_state *)malloc(sizeof(*s));
    if (!s)
        return NULL;
    s->t = (struct bfs_task *)malloc((n ? n : 1) * sizeof(*s->t));
    if (!s->t) {
        free(s);
        return NULL;
    }
    bfs_init(&s->rq, SCHED_NCPUS);
    s->n = n;
    s->cpu = 0;
    for (size_t i = 0; i < n; i++) {
        struct bfs_task *t = &s->t[i];
        bfs_task_init(t, BFS_SCHED_NORMAL, 0, spec[i].nice);
        if (spec[i].pinned >= 0) {
            memset(t->cpus_allowed, 0, sizeof(t->cpus_allowed));
            t->cpus_allowed[spec[i].pinned / 64] |= UINT64_C(1)
                                                    << (spec[i].pinned % 64);
        }
        bfs_enqueue(&s->rq, t);
    }
    return s;
}

static void bl_destroy(void *h)
{
    struct bl_state *s = (struct bl_state *)h;
    free(s->t);
    free(s);
}

static uint64_t bl_cycle(void *h, size_t m)
{
    struct bl_state *s = (struct bl_state *)h;
    uint64_t hash = 0;
    unsigned cpu = s->cpu;
    for (size_t i = 0; i < m; i++) {
        struct bfs_task *p = bfs_pick(&s->rq, cpu);
        if (p) {
            s->rq.niffies += SCHED_TICK_NS;
            if (bfs_deschedule(&s->rq, cpu, p, (uint64_t)BFS_SLICE_NS, true))
                return 0;
            hash = sched_hash(hash, (uint64_t)(p - s->t) + 1);
        } else {
            hash = sched_hash(hash, 0);
        }
        cpu = cpu + 1 == SCHED_NCPUS ? 0 : cpu + 1;
    }
    s->cpu = cpu;
    return hash;
}

const struct sched_impl sched_impl_bfs_list = {"bfs_list", bl_create,
                                               bl_destroy, bl_cycle};
