/* ordered_map.c: the example of docs/guides/ordered-index.md.
 *
 * A shop's catalogue kept in two ordered indexes over the same elements:
 * by name (a map with string keys: unique, compared with strcmp) and by
 * price (a multimap: many products share a price). It answers the
 * questions an ordered map is for: every product whose name starts with a
 * prefix, every product in a price band, the dearest product within a
 * budget; it changes a price (take the element out, change the key, put it
 * back), removes discontinued products while iterating, and checks every
 * answer against a plain scan of the table. Exit status 0 only when every
 * check passed. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skiplist.h"

/* [define] */
struct product {
    const char *name; /* key of by_name: must not change while linked */
    uint64_t cents;   /* key of by_price: the same rule */
    bool discontinued;
};

#define PRODUCT_NAME(p) ((p)->name)
#define PRODUCT_PRICE(p) ((p)->cents)
SKIPLIST_DEFINE(by_name, struct product, const char *, PRODUCT_NAME, strcmp,
                SKIPLIST_DEFAULTS)
SKIPLIST_DEFINE(by_price, struct product, uint64_t, PRODUCT_PRICE,
                SKIPLIST_CMP_NUM, SKIPLIST_DEFAULTS)
/* [define] */

static const struct {
    const char *name;
    uint64_t cents;
    bool discontinued;
} stock[] = {
    {"kettle", 2499, false},     {"kettle-mini", 1999, false},
    {"toaster", 2499, false},    {"toaster-4slot", 4599, true},
    {"teapot", 1250, false},     {"tea-towel", 399, false},
    {"mug", 650, false},         {"mug-espresso", 450, true},
    {"knife-bread", 1899, true}, {"knife-chef", 5900, false},
    {"scales", 1999, false},     {"whisk", 499, false},
};
#define NSTOCK (sizeof stock / sizeof stock[0])

static int failures;

static void expect(bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "ordered_map: FAILED: %s\n", what);
        failures++;
    }
}

/* [prefix] */
/* Every product whose name starts with prefix, in name order: start at the
 * first name >= prefix, stop at the first one without the prefix. */
static size_t with_prefix(const struct by_name *idx, const char *prefix)
{
    struct by_name_iter it;
    struct product *p;
    size_t n = 0, len = strlen(prefix);
    SKIPLIST_FOREACH_FROM (by_name, idx, it, p, prefix) {
        if (strncmp(p->name, prefix, len) != 0)
            break;
        printf("  %-14s %3" PRIu64 ".%02" PRIu64 "\n", p->name, p->cents / 100,
               p->cents % 100);
        n++;
    }
    return n;
}
/* [prefix] */

/* The same answers by brute force over the table, for the checks. */
static size_t scan_prefix(const struct product *all, const char *prefix)
{
    size_t n = 0;
    for (size_t i = 0; i < NSTOCK; i++)
        n += all[i].name && strncmp(all[i].name, prefix, strlen(prefix)) == 0;
    return n;
}

static size_t scan_band(const struct product *all, uint64_t lo, uint64_t hi)
{
    size_t n = 0;
    for (size_t i = 0; i < NSTOCK; i++)
        n += all[i].name && all[i].cents >= lo && all[i].cents <= hi;
    return n;
}

/* qsort's order for an array of products: by name, as by_name sorts. */
static int name_order(const void *a, const void *b)
{
    const struct product *const *x = a, *const *y = b;
    return strcmp((*x)->name, (*y)->name);
}

/* by_price owns the elements: destroy hands each one back to this. */
static void release(struct product *p, void *freed)
{
    ++*(size_t *)freed;
    free(p);
}

int main(void)
{
    /* [load] */
    struct by_name names;
    struct by_price prices;
    if (by_name_init(&names, NULL, 1) != 0 ||
        by_price_init(&prices, NULL, 2) != 0)
        return 1;
    struct product *loaded[NSTOCK];
    for (size_t i = 0; i < NSTOCK; i++) {
        struct product *p = malloc(sizeof *p);
        if (!p)
            return 1;
        p->name = stock[i].name;
        p->cents = stock[i].cents;
        p->discontinued = stock[i].discontinued;
        loaded[i] = p;
        /* The lists store the pointer: one element, two indexes. */
        if (by_price_insert_multi(&prices, p) != 0)
            return 1;
    }
    /* In name order (as a catalogue file sorted by name would be), the
     * name index loads in one pass, with no search per element. */
    qsort(loaded, NSTOCK, sizeof loaded[0], name_order);
    if (by_name_build(&names, loaded, NSTOCK) != 0)
        return 1;
    /* [load] */
    printf("loaded %zu products, %zu bytes of index\n", by_name_count(&names),
           by_name_bytes(&names) + by_price_bytes(&prices));

    /* A mirror of the catalogue for the brute-force checks. */
    struct product all[NSTOCK];
    for (size_t i = 0; i < NSTOCK; i++)
        all[i] = (struct product){stock[i].name, stock[i].cents,
                                  stock[i].discontinued};

    /* [errors] */
    struct product dup = {"mug", 700, false}, *existing = NULL;
    int rc = by_name_insert(&names, &dup, &existing);
    printf("insert a second \"mug\": %s, the one listed costs %" PRIu64 "\n",
           rc == -EEXIST ? "-EEXIST" : "unexpected",
           existing ? existing->cents : 0);
    rc = by_name_erase_key(&names, "spoon", NULL);
    printf("erase \"spoon\": %s\n", rc == -ENOENT ? "-ENOENT" : "unexpected");
    /* [errors] */
    expect(existing && existing->cents == 650, "-EEXIST names the listed mug");
    expect(by_name_count(&names) == NSTOCK, "failed calls change nothing");

    printf("names starting with \"kettle\":\n");
    expect(with_prefix(&names, "kettle") == scan_prefix(all, "kettle"),
           "prefix kettle");
    printf("names starting with \"t\":\n");
    expect(with_prefix(&names, "t") == scan_prefix(all, "t"), "prefix t");

    /* [band] */
    /* Price band [10.00, 25.00], cheapest first; equal prices keep their
     * insertion order (insert_multi places after equal keys). */
    struct by_price_iter pit;
    struct product *p;
    size_t in_band = 0;
    printf("from 10.00 to 25.00:");
    SKIPLIST_FOREACH_FROM (by_price, &prices, pit, p, 1000) {
        if (p->cents > 2500)
            break;
        printf(" %s", p->name);
        in_band++;
    }
    printf("\n");
    /* The dearest product within a budget: the last price <= budget. */
    struct product *best = by_price_floor(&prices, 2000);
    if (best)
        printf("dearest at most 20.00: %s\n", best->name);
    /* [band] */
    expect(in_band == scan_band(all, 1000, 2500), "price band");
    expect(best && best->cents == 1999, "floor(2000) is a 19.99 product");
    expect(by_price_first(&prices)->cents == 399 &&
               by_price_last(&prices)->cents == 5900,
           "cheapest and dearest");

    /* [reprice] */
    /* A key must not change while its element is linked: take the kettle
     * out of the price index, change the price, put it back. Its name (the
     * other index's key) does not change, so by_name is not touched. */
    struct product *kettle = by_name_find(&names, "kettle");
    if (by_price_erase(&prices, kettle) != 0)
        return 1;
    kettle->cents = 2199;
    if (by_price_insert_multi(&prices, kettle) != 0)
        return 1;
    /* [reprice] */
    all[0].cents = 2199;
    printf("kettle repriced to 21.99; first product >= 21.00: %s\n",
           by_price_lower_bound(&prices, 2100)->name);
    expect(by_price_lower_bound(&prices, 2100) == kettle, "repriced kettle");

    /* [remove] */
    /* Drop discontinued products: FOREACH_SAFE allows erasing the current
     * element; the element is then erased from the other index too. */
    struct by_name_iter nit;
    struct product *next;
    size_t dropped = 0;
    SKIPLIST_FOREACH_SAFE (by_name, &names, nit, p, next) {
        if (!p->discontinued)
            continue;
        if (by_name_erase(&names, p) != 0 || by_price_erase(&prices, p) != 0)
            return 1;
        free(p);
        dropped++;
    }
    /* [remove] */
    for (size_t i = 0; i < NSTOCK; i++)
        if (all[i].discontinued)
            all[i].name = NULL;
    printf("dropped %zu discontinued products, %zu left\n", dropped,
           by_name_count(&names));
    expect(dropped == 3 && by_price_count(&prices) == NSTOCK - 3,
           "three discontinued products dropped from both indexes");
    expect(scan_prefix(all, "") == by_name_count(&names), "counts agree");

    /* Both indexes in order, and check() verifies every invariant. */
    char why[128];
    uint64_t last = 0;
    SKIPLIST_FOREACH (by_price, &prices, pit, p) {
        expect(p->cents >= last, "by_price in order");
        expect(by_name_find(&names, p->name) == p, "indexes agree");
        last = p->cents;
    }
    expect(by_name_check(&names, why, sizeof why) == 0, why);
    expect(by_price_check(&prices, why, sizeof why) == 0, why);

    /* [destroy] */
    /* by_name frees only its nodes; by_price's callback frees each
     * element, once, in price order. */
    size_t freed = 0;
    by_name_destroy(&names, NULL, NULL);
    by_price_destroy(&prices, release, &freed);
    /* [destroy] */
    expect(freed == NSTOCK - 3, "destroy called back once per element");
    printf("ordered_map: %s\n",
           failures ? "checks FAILED" : "all checks passed");
    return failures ? 1 : 0;
}
