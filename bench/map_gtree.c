/* glib_gtree: GLib's GTree (an AVL tree of separately allocated nodes). The
 * 64-bit key is stored in the node's key pointer itself, the cheapest way to
 * use GTree for integer keys: lookups never touch the elements. */
#include <malloc.h>
#include <stdlib.h>
#include <glib.h>

#include "bench/map_impl.h"

struct gtree_map {
    GTree *tree;
    /* GTree has no allocator hook: its bytes are the malloc heap's growth
     * since creation (mallinfo2), which includes GSlice's slab slack. */
    size_t heap_at_create;
};

static int gtree_cmp(gconstpointer a, gconstpointer b)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return (x > y) - (x < y);
}

static size_t heap_in_use(void)
{
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

static void *gtree_create(void)
{
    struct gtree_map *m = malloc(sizeof(*m));
    if (m) {
        m->tree = g_tree_new(gtree_cmp);
        m->heap_at_create = heap_in_use();
    }
    return m;
}

static void gtree_destroy(void *h)
{
    struct gtree_map *m = h;
    g_tree_destroy(m->tree);
    free(m);
}

static size_t gtree_count(void *h)
{
    return (size_t)g_tree_nnodes(((struct gtree_map *)h)->tree);
}

static double gtree_bytes(void *h)
{
    struct gtree_map *m = h;
    size_t now = heap_in_use();
    return now > m->heap_at_create ? (double)(now - m->heap_at_create) : -1;
}

/* No footprint: GTree is opaque (sizeof its head and nodes is private to
 * gtree.c) and GLib 2.74 takes both from GSlice's magazines, so heap growth
 * at a few nodes shows slab refills, not the tree. Its process memory over
 * a million one-node trees (footprint_rss) is what it really costs. */
static void *gtree_many(struct map_elem *e, size_t count)
{
    GTree **a = malloc(count * sizeof(*a));
    if (!a)
        return NULL;
    for (size_t i = 0; i < count; i++) {
        a[i] = g_tree_new(gtree_cmp);
        g_tree_insert(a[i], (gpointer)(uintptr_t)e[i].key, &e[i]);
        if (g_tree_nnodes(a[i]) != 1) {
            free(a);
            return NULL;
        }
    }
    return a;
}

static inline int gtree_insert(void *h, struct map_elem *e)
{
    GTree *t = ((struct gtree_map *)h)->tree;
    gint before = g_tree_nnodes(t);
    g_tree_insert(t, (gpointer)(uintptr_t)e->key, e);
    /* g_tree_insert replaces on a duplicate; the count tells. */
    return g_tree_nnodes(t) == before + 1 ? 0 : -1;
}

static inline struct map_elem *gtree_find(void *h, uint64_t key)
{
    return g_tree_lookup(((struct gtree_map *)h)->tree,
                         (gconstpointer)(uintptr_t)key);
}

static inline struct map_elem *gtree_lower_bound(void *h, uint64_t key)
{
    GTreeNode *node = g_tree_lower_bound(((struct gtree_map *)h)->tree,
                                         (gconstpointer)(uintptr_t)key);
    return node ? g_tree_node_value(node) : NULL;
}

static inline int gtree_erase(void *h, uint64_t key)
{
    return g_tree_remove(((struct gtree_map *)h)->tree,
                         (gconstpointer)(uintptr_t)key)
               ? 0
               : -1;
}

MAP_LOOPS(gtree)

static uint64_t gtree_scan(void *h, size_t *count)
{
    uint64_t sum = 0;
    size_t c = 0;
    for (GTreeNode *node = g_tree_node_first(((struct gtree_map *)h)->tree);
         node; node = g_tree_node_next(node)) {
        sum += (uintptr_t)g_tree_node_value(node);
        c++;
    }
    *count = c;
    return sum;
}

const struct map_impl map_impl_glib_gtree = {
    .name = "glib_gtree",
    .create = gtree_create,
    .destroy = gtree_destroy,
    .count = gtree_count,
    .bytes = gtree_bytes,
    .insert_all = gtree_insert_all,
    .find_all = gtree_find_all,
    .find_dep = gtree_find_dep,
    .lower_bound_all = gtree_lower_bound_all,
    .erase_all = gtree_erase_all,
    .scan = gtree_scan,
    .footprint = NULL,
    .many = gtree_many,
};
