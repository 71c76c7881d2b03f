/* The generated side of the reference sync test (tests/docs/sync.sh): one
 * face of the library, chosen by -DSYNC_FACE_<face>, instantiated with the
 * placeholder names of docs/reference/ (name, T, K_T), so that the
 * prototypes gcc's -aux-info prints for it read exactly as the reference
 * headers write them. Compiled, never linked or run. */
#include "docs/reference/placeholders.h"

#if defined(SYNC_FACE_rcu_map) || defined(SYNC_FACE_rcu_extent)
#include "skiplist_rcu.h"
#else
#include "skiplist.h"
#endif

/* One element type serves every face: a key for the accessor faces, a
 * start and a size for the extent faces, a hook for the queue. */
struct T {
    K_T key;
    K_T start;
    K_T size;
    struct skiplist_hook hook;
};
#define SYNC_KEY(e) ((e)->key)

#if defined(SYNC_FACE_map)
SKIPLIST_DEFINE(name, T, K_T, SYNC_KEY, SKIPLIST_CMP_NUM, SKIPLIST_DEFAULTS)
#elif defined(SYNC_FACE_pq)
SKIPLIST_PQ_DEFINE(name, T, K_T, SYNC_KEY, SKIPLIST_CMP_NUM, hook,
                   SKIPLIST_PQ_DEFAULTS)
#elif defined(SYNC_FACE_extent)
SKIPLIST_EXTENT_DEFINE(name, T, K_T, start, size, SKIPLIST_DEFAULTS)
#elif defined(SYNC_FACE_ranked_map)
SKIPLIST_RANKED_DEFINE(name, T, K_T, SYNC_KEY, SKIPLIST_CMP_NUM,
                       SKIPLIST_DEFAULTS)
#elif defined(SYNC_FACE_ranked_extent)
SKIPLIST_EXTENT_RANKED_DEFINE(name, T, K_T, start, size, SKIPLIST_DEFAULTS)
#elif defined(SYNC_FACE_rcu_map)
SKIPLIST_RCU_DEFINE(name, T, K_T, SYNC_KEY, SKIPLIST_CMP_NUM,
                    SKIPLIST_RCU_DEFAULTS)
#elif defined(SYNC_FACE_rcu_extent)
SKIPLIST_RCU_EXTENT_DEFINE(name, T, K_T, start, size, SKIPLIST_RCU_DEFAULTS)
#else
#error \
    "define SYNC_FACE_map, _pq, _extent, _ranked_map, _ranked_extent, _rcu_map or _rcu_extent"
#endif
