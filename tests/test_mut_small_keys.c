/*
 * One-byte and two-byte keys (docs/mutants.md, memmove-middle-byte).
 *
 * A leaf shifts its keys on every insert and erase that is not at its
 * end, so with one-byte keys the shifts move 1 to KPN - 1 bytes: below 4
 * bytes slx_memmove copies single bytes, and a shift of exactly three
 * keys is the only one that moves a middle byte. The suites' other small
 * keys never shift three slots of one byte. These tests do: random
 * inserts and erases against a presence table, with check() after every
 * operation, then every key looked up and the order walked.
 */
#include <criterion/criterion.h>

#include "test_common.h"

struct k1 {
    uint8_t k;
};
#define K1_KEY(e) ((e)->k)
SKIPLIST_DEFINE(k1map, struct k1, uint8_t, K1_KEY, SKIPLIST_CMP_NUM, 8, 4, 1)

struct k2 {
    uint16_t k;
};
#define K2_KEY(e) ((e)->k)
SKIPLIST_DEFINE(k2map, struct k2, uint16_t, K2_KEY, SKIPLIST_CMP_NUM, 4, 4, 1)

/* The exact case: keys 10, 20, 30 in one leaf, then 5 in front of them,
 * which shifts three one-byte keys by one. */
Test(mut_small_keys, front_insert_shifts_three_one_byte_keys)
{
    struct k1 e[4] = {{10}, {20}, {30}, {5}};
    struct k1map m;
    char why[128] = "";
    cr_assert_eq(k1map_init(&m, NULL, 1), 0);
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(k1map_insert(&m, &e[i], NULL), 0);
        cr_assert_eq(k1map_check(&m, why, sizeof why), 0, "after %u: %s",
                     e[i].k, why);
    }
    for (int i = 0; i < 4; i++)
        cr_assert_eq(k1map_find(&m, e[i].k), &e[i], "key %u lost", e[i].k);
    const uint8_t order[] = {5, 10, 20, 30};
    struct k1map_iter it;
    struct k1 *x;
    size_t n = 0;
    SKIPLIST_FOREACH (k1map, &m, it, x) {
        cr_assert_lt(n, 4u);
        cr_assert_eq(x->k, order[n], "slot %zu: %u, want %u", n, x->k,
                     order[n]);
        n++;
    }
    cr_assert_eq(n, 4u);
    k1map_destroy(&m, NULL, NULL);
}

/* Random inserts and erases over the whole one-byte key space (leaves of
 * 8 keys: every shift length occurs), against a presence table. */
Test(mut_small_keys, random_one_byte_keys_against_a_table)
{
    static struct k1 e[256];
    bool in[256] = {false};
    struct k1map m;
    struct tc_rng r;
    char why[128] = "";
    tc_rng_init(&r, tc_seed("mut_small_keys.random_one_byte"));
    cr_assert_eq(k1map_init(&m, NULL, 2), 0);
    for (unsigned i = 0; i < 256; i++)
        e[i].k = (uint8_t)i;
    size_t count = 0;
    for (unsigned long op = 0; op < tc_ops(20000); op++) {
        unsigned k = (unsigned)tc_below(&r, 256);
        if (!in[k]) {
            cr_assert_eq(k1map_insert(&m, &e[k], NULL), 0, "insert %u", k);
            in[k] = true;
            count++;
        } else {
            cr_assert_eq(k1map_erase(&m, &e[k]), 0, "erase %u", k);
            in[k] = false;
            count--;
        }
        cr_assert_eq(k1map_check(&m, why, sizeof why), 0, "op %lu (key %u): %s",
                     op, k, why);
        cr_assert_eq(k1map_count(&m), count);
    }
    for (unsigned k = 0; k < 256; k++)
        cr_assert_eq(k1map_find(&m, (uint8_t)k), in[k] ? &e[k] : NULL, "key %u",
                     k);
    k1map_destroy(&m, NULL, NULL);
}

/* Two-byte keys in leaves of 4: shifts of 2, 4 and 6 bytes. */
Test(mut_small_keys, random_two_byte_keys_against_a_table)
{
    static struct k2 e[512];
    bool in[512] = {false};
    struct k2map m;
    struct tc_rng r;
    char why[128] = "";
    tc_rng_init(&r, tc_seed("mut_small_keys.random_two_byte"));
    cr_assert_eq(k2map_init(&m, NULL, 3), 0);
    for (unsigned i = 0; i < 512; i++)
        e[i].k = (uint16_t)(i * 127u);
    for (unsigned long op = 0; op < tc_ops(20000); op++) {
        unsigned i = (unsigned)tc_below(&r, 512);
        if (!in[i])
            cr_assert_eq(k2map_insert(&m, &e[i], NULL), 0);
        else
            cr_assert_eq(k2map_erase(&m, &e[i]), 0);
        in[i] = !in[i];
        cr_assert_eq(k2map_check(&m, why, sizeof why), 0, "op %lu: %s", op,
                     why);
    }
    for (unsigned i = 0; i < 512; i++)
        cr_assert_eq(k2map_find(&m, e[i].k), in[i] ? &e[i] : NULL, "key %u",
                     e[i].k);
    k2map_destroy(&m, NULL, NULL);
}
