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
