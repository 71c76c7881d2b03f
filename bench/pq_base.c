/* "skiplist_base": the priority-queue face of an earlier skiplist.h in its
 * default configuration, through the same adapter as the "skiplist" row
 * (bench/pq_skiplist.h). Built only with BENCH_BASE=REV (bench/bench.mk,
 * docs/benchmark.md): this translation unit is compiled with the directory
 * holding that revision's skiplist.h ahead of the source tree on the include
 * path, so "skiplist.h" here is the earlier header. Everything skiplist.h
 * defines is static or static inline, and the instantiation has its own
 * prefix, so the two versions live side by side in one program. */
#include "bench/pq_skiplist.h"

SKIPLIST_PQ_DEFINE(bpq_base, struct pq_elem, uint64_t, PQ_ELEM_KEY,
                   SKIPLIST_CMP_NUM, hook, SKIPLIST_PQ_DEFAULTS)

PQ_SKIPLIST_ADAPTER(bpq_base, pq_impl_skiplist_base, "skiplist_base")

/* bench/pq_skiplist.c's "skiplist" shares the header's out-of-line
 * functions with "skiplist_k1"; the same companion here keeps gcc from
 * specialising them for "skiplist_base" alone, which made the same header
 * read faster as the base row (docs/benchmark.md). Not a row. */
SKIPLIST_PQ_DEFINE(bpq_k1_base, struct pq_elem, uint64_t, PQ_ELEM_KEY,
                   SKIPLIST_CMP_NUM, hook, 1, SKIPLIST_DEFAULT_MAXLVL, 2)
PQ_SKIPLIST_ADAPTER(bpq_k1_base, pq_impl_skiplist_k1_base, "skiplist_k1_base")

/* struct pq_elem embeds the struct skiplist_hook of the skiplist.h its
 * translation unit includes; the driver checks that here, under the earlier
 * header, it has the size it has everywhere else (see main). */
const size_t pq_elem_size_base = sizeof(struct pq_elem);
