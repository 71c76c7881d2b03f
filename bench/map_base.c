/* "skiplist_base": the map face of an earlier skiplist.h in its default
 * configuration, through the same adapter as the "skiplist" row
 * (bench/map_skiplist.h). Built only with BENCH_BASE=REV (bench/bench.mk,
 * docs/benchmark.md): this translation unit is compiled with the directory
 * holding that revision's skiplist.h ahead of the source tree on the include
 * path, so "skiplist.h" here is the earlier header. Everything skiplist.h
 * defines is static or static inline, and the instantiation has its own
 * prefix, so the two versions live side by side in one program. */
#include "bench/map_skiplist.h"

SKIPLIST_DEFINE(smap_base, struct map_elem, uint64_t, MAP_ELEM_KEY,
                SKIPLIST_CMP_NUM, SKIPLIST_DEFAULTS)

/* BENCH_BASE_BULK=1 (bench/bench.mk): that header has the bulk ops too. */
#ifdef BENCH_BASE_BULK
MAP_SKIPLIST_BULK_ADAPTER(smap_base, map_impl_skiplist_base, "skiplist_base")
#else
MAP_SKIPLIST_ADAPTER(smap_base, map_impl_skiplist_base, "skiplist_base")
#endif

/* The driver's "skiplist" shares the header's out-of-line functions
 * (splits, shifts, merges, index inserts) with "skiplist_k1" and
 * "skiplist_ranked" in its translation unit. Alone here, "skiplist_base"
 * would get copies specialised for its one configuration, and read up to
 * 5-8% faster than the same header as "skiplist" (docs/benchmark.md). The
 * same companions here keep the comparison even; they are not rows (the
 * driver does not list these tables). */
SKIPLIST_DEFINE(smap1_base, struct map_elem, uint64_t, MAP_ELEM_KEY,
                SKIPLIST_CMP_NUM, 1, SKIPLIST_DEFAULT_MAXLVL,
                SKIPLIST_DEFAULT_PSHIFT)
#ifdef BENCH_BASE_BULK
MAP_SKIPLIST_BULK_ADAPTER(smap1_base, map_impl_skiplist_k1_base,
                          "skiplist_k1_base")
#else
MAP_SKIPLIST_ADAPTER(smap1_base, map_impl_skiplist_k1_base, "skiplist_k1_base")
#endif
#if defined(SKIPLIST_RANKED_DEFINE) && defined(BENCH_BASE_BULK)
SKIPLIST_RANKED_DEFINE(smaprk_base, struct map_elem, uint64_t, MAP_ELEM_KEY,
                       SKIPLIST_CMP_NUM, SKIPLIST_DEFAULTS)
MAP_SKIPLIST_RANKED_ADAPTER(smaprk_base, map_impl_skiplist_ranked_base,
                            "skiplist_ranked_base")
#endif
