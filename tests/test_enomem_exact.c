/*
 * -ENOMEM leaves a list exactly as it was, its memory included: the index
 * nodes and the leaf an insert or a requeue reserves before it changes
 * anything are given back when a later allocation of the same call fails
 * (slx_index_reserve, slx_split). Every allocation of every call fails in
 * turn; after each failure name_bytes() and the allocator's live blocks
 * must be what they were before the call. Small leaves and a low max
 * level make splits, index splits and a grown root frequent.
 */
#include <criterion/criterion.h>

#include "test_common.h"
#include "model_map.h"

SKIPLIST_DEFINE(ex_map, struct map_item, uint64_t, MAP_ITEM_KEY,
                SKIPLIST_CMP_NUM, 4, 3, 1)

struct ex_task {
    uint64_t key;
    struct skiplist_hook hook;
};
#define EX_TASK_KEY(e) ((e)->key)
SKIPLIST_PQ_DEFINE(ex_pq, struct ex_task, uint64_t, EX_TASK_KEY,
                   SKIPLIST_CMP_NUM, hook, 4, 3, 1)

/* Runs call() with its k-th allocation failing, k = 1, 2, ... until it
 * succeeds; each failure must leave bytes and live blocks as they were. */
#define EX_EXACT_ENOMEM(ta, bytes_of, call, what, j)                           \
    do {                                                                       \
        for (unsigned long k_ = 1;; k_++) {                                    \
            const size_t bytes_ = (bytes_of);                                  \
            const long live_ = (ta)->live;                                     \
            tc_alloc_fail_at((ta), k_);                                        \
            int rc_ = (call);                                                  \
            tc_alloc_heal(ta);                                                 \
            if (rc_ == 0)                                                      \
                break;                                                         \
            cr_assert_eq(rc_, -ENOMEM, "%s %zu: rc %d", (what), (size_t)(j),   \
                         rc_);                                                 \
            cr_assert_eq(                                                      \
                (bytes_of), bytes_,                                            \
                "%s %zu, allocation %lu failing: bytes %zu, were %zu", (what), \
                (size_t)(j), k_, (size_t)(bytes_of), bytes_);                  \
            cr_assert_eq((ta)->live, live_,                                    \
                         "%s %zu, allocation %lu failing: %ld blocks kept",    \
                         (what), (size_t)(j), k_, (ta)->live - live_);         \
        }                                                                      \
    } while (0)

Test(enomem_exact, insert_splits_give_back_what_they_reserved)
{
    static struct map_item v[40], x[360];
    struct tc_alloc ta;
    struct ex_map sl;
    tc_alloc_init(&ta);
    cr_assert_eq(ex_map_init(&sl, &ta.iface, 1), 0);
    for (size_t i = 0; i < 40; i++) {
        v[i].key = 10 * i;
        cr_assert_eq(ex_map_insert(&sl, &v[i], NULL), 0);
    }
    /* Keys between the present ones, so that splits happen at every depth
     * and the root at the max level fills and grows. */
    for (size_t j = 0; j < 360; j++) {
        x[j].key = 10 * (j % 40) + 1 + j / 40;
        EX_EXACT_ENOMEM(&ta, ex_map_bytes(&sl), ex_map_insert(&sl, &x[j], NULL),
                        "insert", j);
    }
    cr_assert_eq(ex_map_count(&sl), 400);
    cr_assert_eq(ex_map_check(&sl, NULL, 0), 0);
    ex_map_destroy(&sl, NULL, NULL);
    cr_assert_eq(ta.live, 0);
}

Test(enomem_exact, requeue_gives_back_what_it_reserved)
{
    static struct ex_task t[300];
    struct tc_alloc ta;
    struct ex_pq pq;
    tc_alloc_init(&ta);
    cr_assert_eq(ex_pq_init(&pq, &ta.iface, 2), 0);
    for (size_t i = 0; i < 300; i++) {
        t[i].key = 2 * i;
        cr_assert_eq(ex_pq_push(&pq, &t[i]), 0);
    }
    /* Move keys into full leaves elsewhere: each requeue needs a split. */
    for (size_t j = 0; j < 300; j += 3) {
        t[j].key = 2 * ((j * 7) % 300) + 1;
        EX_EXACT_ENOMEM(&ta, ex_pq_bytes(&pq), ex_pq_requeue(&pq, &t[j]),
                        "requeue", j);
    }
    cr_assert_eq(ex_pq_count(&pq), 300);
    cr_assert_eq(ex_pq_check(&pq, NULL, 0), 0);
    ex_pq_destroy(&pq, NULL, NULL);
    cr_assert_eq(ta.live, 0);
}
