/* Ours: skiplist_sched.h, the BFS runqueue on the priority-queue face. */
#include <stdlib.h>

#include "bench/sched_impl.h"
#include "skiplist_sched.h"

struct sk_state {
    struct skiplist_sched rq;
    struct skiplist_sched_task *t;
    size_t n;
    unsigned cpu;
};

static void sk_destroy(void *h);

static void *sk_create(const struct sched_task_spec *spec, size_t n)
{
    struct sk_state *s = (struct sk_state *)malloc(sizeof(*s));
    if (!s)
        return NULL;
    s->t = (struct skiplist_sched_task *)calloc(n ? n : 1, sizeof(*s->t));
    if (!s->t || skiplist_sched_init(&s->rq, SCHED_NCPUS, NULL, 1)) {
        free(s->t);
        free(s);
        return NULL;
    }
    s->n = n;
    s->cpu = 0;
    for (size_t i = 0; i < n; i++) {
        struct skiplist_sched_task *t = &s->t[i];
        if (skiplist_sched_task_init(t, SKIPLIST_SCHED_NORMAL, 0,
                                     spec[i].nice)) {
            sk_destroy(s);
            return NULL;
        }
        if (spec[i].pinned >= 0) {
            skiplist_sched_cpu_none(t);
            skiplist_sched_cpu_allow(t, (unsigned)spec[i].pinned, true);
        }
        if (skiplist_sched_enqueue(&s->rq, t)) {
            sk_destroy(s);
            return NULL;
        }
    }
    return s;
}

static void sk_destroy(void *h)
{
    struct sk_state *s = (struct sk_state *)h;
    skiplist_sched_destroy(&s->rq);
    free(s->t);
    free(s);
}

static uint64_t sk_cycle(void *h, size_t m)
{
    struct sk_state *s = (struct sk_state *)h;
    uint64_t hash = 0;
    unsigned cpu = s->cpu;
    for (size_t i = 0; i < m; i++) {
        struct skiplist_sched_task *p = skiplist_sched_pick(&s->rq, cpu);
        if (p) {
            skiplist_sched_advance(&s->rq, SCHED_TICK_NS);
            if (skiplist_sched_deschedule(&s->rq, cpu, p,
                                          SKIPLIST_SCHED_RR_INTERVAL_NS, true))
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

const struct sched_impl sched_impl_skiplist = {"skiplist", sk_create,
                                               sk_destroy, sk_cycle};
