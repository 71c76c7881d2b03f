/* Ours: the priority-queue face of skiplist.h, in its default configuration
 * SKIPLIST_PQ_DEFAULTS (skiplist) and with one key per node (skiplist_k1:
 * the classic Pugh/Kolivas layout, the other parameters as the default so
 * that the difference is the leaves alone). Default pooled allocator. The
 * adapter is bench/pq_skiplist.h, shared with bench/pq_base.c. */
#include "bench/pq_skiplist.h"

/* Tuning: -DPQ_SL_CONFIG=KPN,MAXLVL,PSHIFT in BENCH_OPT measures another
 * configuration under the name "skiplist". */
#ifndef PQ_SL_CONFIG
#define PQ_SL_CONFIG SKIPLIST_PQ_DEFAULTS
#endif
SKIPLIST_PQ_DEFINE(bpq_sl, struct pq_elem, uint64_t, PQ_ELEM_KEY,
                   SKIPLIST_CMP_NUM, hook, PQ_SL_CONFIG)
SKIPLIST_PQ_DEFINE(bpq_k1, struct pq_elem, uint64_t, PQ_ELEM_KEY,
                   SKIPLIST_CMP_NUM, hook, 1, SKIPLIST_DEFAULT_MAXLVL, 2)

PQ_SKIPLIST_ADAPTER(bpq_sl, pq_impl_skiplist, "skiplist")
PQ_SKIPLIST_ADAPTER(bpq_k1, pq_impl_skiplist_k1, "skiplist_k1")
