/*
 * Key types other than integers, and the public surface's small promises:
 * pointer keys (const char * and char * with strcmp), a composite struct
 * key with its own comparator, floating-point keys (and what a NaN does),
 * insert_hole keeping the index consistent with its elements, an extent
 * that ends at the key type's maximum, check()'s message and code, and the
 * version macros. tests/cxx_compile.cc instantiates the same key types as
 * C++.
 */
#include <criterion/criterion.h>

#include <math.h>

#include "test_common.h"

static void assert_clean_(int rc, const char *why, const char *what)
{
    cr_assert_eq(rc, 0, "%s: check: %s", what, why);
}
#define ASSERT_CLEAN(name, sl)                                             \
    do {                                                                   \
        char why_[160] = "";                                               \
        assert_clean_(name##_check((sl), why_, sizeof why_), why_, #name); \
    } while (0)

/* ------------------------------------------------- name -> struct (strings) */

struct svc {
    const char *name;
    int port;
};
#define SVC_NAME(e) ((e)->name)
SKIPLIST_DEFINE(smap, struct svc, const char *, SVC_NAME, strcmp,
                SKIPLIST_DEFAULTS)

struct msvc {
    char *name; /* not const: the type the user wrote */
    int port;
};
#define MSVC_NAME(e) ((e)->name)
SKIPLIST_DEFINE(msmap, struct msvc, char *, MSVC_NAME, strcmp, 4, 8, 1)

Test(keys, const_char_pointer_keys)
{
    static const char *names[] = {"ssh",  "http", "https", "dns",  "ntp",
                                  "smtp", "imap", "pop3",  "ldap", "ftp"};
    enum { N = sizeof(names) / sizeof(names[0]) };
    struct svc v[N];
    struct smap m;
    cr_assert_eq(smap_init(&m, NULL, 1), 0);
    for (int i = 0; i < N; i++) {
        v[i].name = names[i];
        v[i].port = i;
        cr_assert_eq(smap_insert(&m, &v[i], NULL), 0);
    }
    /* Lookups with a different pointer to equal text. */
    char buf[16];
    strcpy(buf, "https");
    struct svc *hit = smap_find(&m, buf);
    cr_assert_not_null(hit);
    cr_assert_eq(hit->port, 2);
    struct svc dup = {"dns", 99}, *ex = NULL;
    cr_assert_eq(smap_insert(&m, &dup, &ex), -EEXIST);
    cr_assert_eq(ex, &v[3]);
    /* Ordered by strcmp. */
    const char *prev = "";
    struct smap_iter it;
    struct svc *e;
    size_t n = 0;
    SKIPLIST_FOREACH (smap, &m, it, e) {
        cr_assert_lt(strcmp(prev, e->name), 0);
        prev = e->name;
        n++;
    }
    cr_assert_eq(n, (size_t)N);
    /* A prefix scan: everything from "h" up to (not including) "i". */
    n = 0;
    SKIPLIST_FOREACH_FROM (smap, &m, it, e, "h") {
        if (strncmp(e->name, "h", 1) != 0)
            break;
        n++;
    }
    cr_assert_eq(n, 2u); /* http, https */
    cr_assert_str_eq(smap_floor(&m, "i")->name, "https");
    cr_assert_eq(smap_erase_key(&m, "ntp", &e), 0);
    cr_assert_eq(e, &v[4]);
    ASSERT_CLEAN(smap, &m);
    smap_destroy(&m, NULL, NULL);
}

Test(keys, char_pointer_keys_split_leaves)
{
    static char text[64][8];
    struct msvc v[64];
    struct msmap m;
    cr_assert_eq(msmap_init(&m, NULL, 2), 0);
    for (int i = 0; i < 64; i++) {
        snprintf(text[i], sizeof text[i], "k%02d", (i * 37) % 64);
        v[i].name = text[i];
        v[i].port = i;
        cr_assert_eq(msmap_insert(&m, &v[i], NULL), 0);
    }
    ASSERT_CLEAN(msmap, &m);
    char key[8] = "k00";
    for (int i = 0; i < 64; i++) {
        snprintf(key, sizeof key, "k%02d", i & 63); /* i < 64: 3 chars */
        struct msvc *hit = msmap_find(&m, key);
        cr_assert_not_null(hit, "%s", key);
        cr_assert_str_eq(hit->name, key);
    }
    msmap_destroy(&m, NULL, NULL);
}

/* ------------------------------------------------------ a composite key */

struct date {
    uint16_t year;
    uint8_t month, day;
};
struct event {
    struct date when;
    const char *what;
};
static int date_cmp(struct date a, struct date b)
{
    if (a.year != b.year)
        return a.year < b.year ? -1 : 1;
    if (a.month != b.month)
        return a.month < b.month ? -1 : 1;
    return (a.day > b.day) - (a.day < b.day);
}
#define EVENT_WHEN(e) ((e)->when)
SKIPLIST_DEFINE(cal, struct event, struct date, EVENT_WHEN, date_cmp, 4, 8, 1)

Test(keys, struct_keys)
{
    struct event ev[] = {
        {{2026, 12, 4}, "release"}, {{2025, 1, 1}, "new year"},
        {{2026, 6, 30}, "midyear"}, {{2026, 12, 3}, "freeze"},
        {{2024, 2, 29}, "leap"},    {{2026, 12, 24}, "eve"},
    };
    struct cal c;
    cr_assert_eq(cal_init(&c, NULL, 3), 0);
    for (size_t i = 0; i < sizeof ev / sizeof ev[0]; i++)
        cr_assert_eq(cal_insert(&c, &ev[i], NULL), 0);
    struct date d = {2026, 12, 1};
    cr_assert_str_eq(cal_lower_bound(&c, d)->what, "freeze");
    cr_assert_str_eq(cal_below(&c, d)->what, "midyear");
    struct date rel = {2026, 12, 4};
    cr_assert_str_eq(cal_find(&c, rel)->what, "release");
    cr_assert_str_eq(cal_first(&c)->what, "leap");
    cr_assert_str_eq(cal_last(&c)->what, "eve");
    ASSERT_CLEAN(cal, &c);
    cal_destroy(&c, NULL, NULL);
}

/* ------------------------------------------------------ floating point */

struct sample {
    double t;
    int id;
};
#define SAMPLE_T(e) ((e)->t)
SKIPLIST_DEFINE(ts, struct sample, double, SAMPLE_T, SKIPLIST_CMP_NUM, 4, 8, 1)

/* A total order with NaN after every number (as IEEE 754 totalOrder puts
 * positive NaNs): the comparator to use when NaN keys can occur. */
static int cmp_nan_last(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) - isnan(b);
    return (a > b) - (a < b);
}
SKIPLIST_DEFINE(tsn, struct sample, double, SAMPLE_T, cmp_nan_last, 4, 8, 1)

Test(keys, double_keys)
{
    struct sample s[200];
    struct ts m;
    cr_assert_eq(ts_init(&m, NULL, 4), 0);
    for (int i = 0; i < 200; i++) {
        s[i].t = (double)((i * 73) % 200) * 0.5 - 17.25;
        s[i].id = i;
        cr_assert_eq(ts_insert(&m, &s[i], NULL), 0);
    }
    ASSERT_CLEAN(ts, &m);
    cr_assert_eq(ts_first(&m)->t, -17.25);
    cr_assert_eq(ts_lower_bound(&m, 0.1)->t, 0.25);
    cr_assert_eq(ts_floor(&m, 0.1)->t, -0.25);
    cr_assert_null(ts_find(&m, 0.1));
    struct sample dup = {0.25, 900}, *ex = NULL;
    cr_assert_eq(ts_insert(&m, &dup, &ex), -EEXIST);
    cr_assert_eq(ex->t, 0.25);
    struct sample pos0 = {0.0, 901}, neg0 = {-0.0, 902};
    cr_assert_eq(ts_insert(&m, &pos0, NULL), 0);
    cr_assert_eq(ts_insert(&m, &neg0, &ex), -EEXIST); /* -0.0 == 0.0 */
    cr_assert_eq(ex, &pos0);
    ts_destroy(&m, NULL, NULL);
}

Test(keys, nan_keys_with_an_ordering_comparator)
{
    struct sample s[] = {
        {NAN, 0}, {1.0, 1}, {-INFINITY, 2}, {INFINITY, 3}, {0.5, 4}};
    struct tsn m;
    cr_assert_eq(tsn_init(&m, NULL, 5), 0);
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
        cr_assert_eq(tsn_insert(&m, &s[i], NULL), 0);
    struct sample nan2 = {NAN, 5};
    cr_assert_eq(tsn_insert(&m, &nan2, NULL), -EEXIST); /* NaNs are equal */
    ASSERT_CLEAN(tsn, &m);
    cr_assert_eq(tsn_first(&m)->id, 2);
    cr_assert_eq(tsn_last(&m)->id, 0);
    cr_assert_eq(tsn_find(&m, NAN), &s[0]);
    cr_assert_eq(tsn_lower_bound(&m, 2.0)->id, 3);
    tsn_destroy(&m, NULL, NULL);
}

/* ------------------------------------------------------------- extents */

struct ext8 {
    uint8_t start, size;
};
SKIPLIST_EXTENT_DEFINE(x8, struct ext8, uint8_t, start, size, 4, 8, 1)

/* insert_hole takes the size from the element: whatever the element held
 * before, the index and the element agree afterwards, and a failed call
 * leaves the element's start as it was. */
Test(keys, insert_hole_keeps_index_and_element_in_step)
{
    struct ext8 a = {0, 16}, b = {77, 8}, c = {5, 250};
    struct x8 m;
    cr_assert_eq(x8_init(&m, NULL, 6), 0);
    cr_assert_eq(x8_insert_hole(&m, &a, 16, 32, 255, SKIPLIST_HOLE_LOWEST), 0);
    cr_assert_eq(a.start, 32);
    cr_assert_eq(x8_insert_hole(&m, &b, 1, 0, 255, SKIPLIST_HOLE_LOWEST), 0);
    cr_assert_eq(b.start, 0);
    ASSERT_CLEAN(x8, &m);
    cr_assert_eq(x8_lookup(&m, 47), &a);
    cr_assert_null(x8_lookup(&m, 48));
    cr_assert_eq(x8_lookup(&m, 7), &b);
    cr_assert_eq(x8_insert_hole(&m, &c, 1, 0, 255, SKIPLIST_HOLE_LOWEST),
                 -ENOSPC);
    cr_assert_eq(c.start, 5, "a failed insert_hole changed the element");
    c.size = 0;
    cr_assert_eq(x8_insert_hole(&m, &c, 1, 0, 255, SKIPLIST_HOLE_LOWEST),
                 -EINVAL);
    cr_assert_eq(x8_insert_hole(&m, NULL, 1, 0, 255, SKIPLIST_HOLE_LOWEST),
                 -EINVAL);
    cr_assert_eq(x8_count(&m), 2u);
    ASSERT_CLEAN(x8, &m);
    x8_destroy(&m, NULL, NULL);
}

/* Closed ranges reach the key type's maximum, which a half-open [a, b)
 * could not name: an extent may end exactly at 255, and queries ending at
 * 255 find it. */
Test(keys, extent_ending_at_the_key_maximum)
{
    struct ext8 top = {250, 6}, over = {251, 6}, all = {0, 255};
    struct x8 m;
    cr_assert_eq(x8_init(&m, NULL, 7), 0);
    cr_assert_eq(x8_insert(&m, &top, NULL), 0);        /* [250, 255] */
    cr_assert_eq(x8_insert(&m, &over, NULL), -EINVAL); /* would pass 255 */
    cr_assert_eq(x8_lookup(&m, 255), &top);
    struct ext8 *o = NULL;
    cr_assert_eq(x8_first_overlap(&m, 255, 255, &o), 0);
    cr_assert_eq(o, &top);
    cr_assert_eq(x8_first_overlap(&m, 0, 249, &o), -ENOENT);
    cr_assert_eq(x8_first_overlap(&m, 9, 8, &o), -EINVAL);
    struct x8_iter it;
    struct ext8 *e;
    size_t n = 0;
    SKIPLIST_FOREACH_OVERLAP (x8, &m, it, e, 0, 255) {
        n++;
    }
    cr_assert_eq(n, 1u);
    cr_assert_eq(x8_erase(&m, &top), 0);
    cr_assert_eq(x8_insert(&m, &all, NULL), 0); /* [0, 254] */
    struct ext8 last = {0, 1};
    cr_assert_eq(x8_insert_hole(&m, &last, 1, 0, 255, SKIPLIST_HOLE_LOWEST), 0);
    cr_assert_eq(last.start, 255);
    ASSERT_CLEAN(x8, &m);
    x8_destroy(&m, NULL, NULL);
}

/* -------------------------------------------------------------- check() */

SKIPLIST_DEFINE(ck, struct sample, double, SAMPLE_T, SKIPLIST_CMP_NUM, 4, 8, 1)

Test(keys, check_reports_a_broken_order_with_a_clean_message)
{
    struct sample s[40];
    struct ck m;
    cr_assert_eq(ck_init(&m, NULL, 8), 0);
    for (int i = 0; i < 40; i++) {
        s[i].t = i;
        cr_assert_eq(ck_insert(&m, &s[i], NULL), 0);
    }
    char why[128] = "";
    cr_assert_eq(ck_check(&m, why, sizeof why), 0);
    s[17].t = 99; /* a key changed while linked: the misuse check() finds */
    cr_assert_eq(ck_check(&m, why, sizeof why), -EINVAL);
    cr_assert_str_eq(why, "leaf 5 slot 1: element key differs from the "
                          "leaf's copy");
    s[17].t = 17;
    struct ck bad;
    memset(&bad, 0, sizeof bad);
    cr_assert_eq(ck_check(&bad, why, sizeof why), -EINVAL);
    cr_assert_str_eq(why, "list not initialised");
    cr_assert_eq(ck_check(&bad, NULL, 0), -EINVAL);
    ck_destroy(&m, NULL, NULL);
}

Test(keys, version_macros)
{
    cr_assert_eq(SKIPLIST_VERSION, SKIPLIST_VERSION_MAJOR * 10000 +
                                       SKIPLIST_VERSION_MINOR * 100 +
                                       SKIPLIST_VERSION_PATCH);
    char s[32];
    snprintf(s, sizeof s, "%d.%d.%d", SKIPLIST_VERSION_MAJOR,
             SKIPLIST_VERSION_MINOR, SKIPLIST_VERSION_PATCH);
    cr_assert_str_eq(s, SKIPLIST_VERSION_STRING);
}

/* ---------------------------------------------- suite mut_small_keys
 *
 * One-byte and two-byte keys (docs/mutants.md, memmove-middle-byte).
 *
 * A leaf shifts its keys on every insert and erase that is not at its
 * end, so with one-byte keys the shifts move 1 to KPN - 1 bytes: below 4
 * bytes slx_memmove copies single bytes, and a shift of exactly three
 * keys is the only one that moves a middle byte. The suites' other small
 * keys never shift three slots of one byte. These tests do: random
 * inserts and erases against a presence table, with check() after every
 * operation, then every key looked up and the order walked.
 *
 *
 * Found by mutant memmove-middle-byte (docs/mutants.md;
 * tests/test_mut_small_keys.c until the suites were filed by subject).
 */

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
