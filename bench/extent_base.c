/* "skiplist_base": the extent face of an earlier skiplist.h in its default
 * configuration, through the same adapter as the "skiplist" row
 * (bench/extent_skiplist.h). Built only with BENCH_BASE=REV
 * (bench/bench.mk, docs/benchmark.md): this translation unit is compiled
 * with the directory holding that revision's skiplist.h ahead of the source
 * tree on the include path, so "skiplist.h" here is the earlier header.
 * Everything skiplist.h defines is static or static inline, and the
 * instantiation has its own prefix, so the two versions live side by side
 * in one program. */
#include "bench/extent_skiplist.h"

SKIPLIST_EXTENT_DEFINE(sx_base, struct range, uint64_t, start, size,
                       SKIPLIST_DEFAULTS)

/* BENCH_BASE_BULK=1 (bench/bench.mk): that header has erase_range too. */
#ifdef BENCH_BASE_BULK
EXTENT_SKIPLIST_BULK_ADAPTER(sx_base, extent_impl_skiplist_base,
                             "skiplist_base")
#else
EXTENT_SKIPLIST_ADAPTER(sx_base, extent_impl_skiplist_base, "skiplist_base")
#endif
