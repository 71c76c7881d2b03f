/* The documented side of the reference sync test (tests/docs/sync.sh):
 * the docs/reference/ headers that together document one face, chosen by
 * -DSYNC_FACE_<face>. gcc's -aux-info lists their prototypes, which the
 * script compares with what tests/docs/sync_gen.c generates for the same
 * face. Compiled, never linked or run. */
#include "docs/reference/placeholders.h"

#if defined(SYNC_FACE_map)
#include "docs/reference/skiplist_common.h"
#include "docs/reference/skiplist_remove.h"
#include "docs/reference/skiplist_map.h"
#elif defined(SYNC_FACE_pq)
#include "docs/reference/skiplist_common.h"
#include "docs/reference/skiplist_pq.h"
#elif defined(SYNC_FACE_extent)
#include "docs/reference/skiplist_common.h"
#include "docs/reference/skiplist_remove.h"
#include "docs/reference/skiplist_extent.h"
#elif defined(SYNC_FACE_ranked_map)
#include "docs/reference/skiplist_common.h"
#include "docs/reference/skiplist_remove.h"
#include "docs/reference/skiplist_map.h"
#include "docs/reference/skiplist_rank.h"
#elif defined(SYNC_FACE_ranked_extent)
#include "docs/reference/skiplist_common.h"
#include "docs/reference/skiplist_remove.h"
#include "docs/reference/skiplist_extent.h"
#include "docs/reference/skiplist_rank.h"
#elif defined(SYNC_FACE_rcu_map)
#include "docs/reference/skiplist_rcu_common.h"
#include "docs/reference/skiplist_rcu_map.h"
#elif defined(SYNC_FACE_rcu_extent)
#include "docs/reference/skiplist_rcu_common.h"
#include "docs/reference/skiplist_rcu_extent.h"
#else
#error \
    "define SYNC_FACE_map, _pq, _extent, _ranked_map, _ranked_extent, _rcu_map or _rcu_extent"
#endif
