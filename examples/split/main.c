/* main.c: uses the catalogue that parts.h declares and parts.c defines
 * (the split form: SKIPLIST_PROTOTYPE in a header, SKIPLIST_GENERATE in
 * one .c). Built as one program from both files:
 *
 *     cc -I. examples/split/main.c examples/split/parts.c -o split
 *
 * It stocks a few parts, looks some up, lists a range of part numbers,
 * takes one out of the catalogue and checks what is left. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "parts.h"

static struct part stock[] = {
    {4100, 12, "hex bolt M8"},    {1200, 40, "washer 8 mm"},
    {4120, 3, "hex bolt M10"},    {2300, 0, "spring pin"},
    {4110, 25, "hex bolt M8x40"}, {9000, 7, "torque wrench"},
};
#define NPARTS (sizeof stock / sizeof stock[0])

int main(void)
{
    struct parts cat;
    struct part *p;
    struct parts_iter it;
    int bad = 0;
    char why[128];

    if (parts_init(&cat, NULL, 1))
        return 1;
    for (size_t i = 0; i < NPARTS; i++)
        bad += parts_insert(&cat, &stock[i], NULL) != 0;
    printf("catalogue: %zu parts (functions from parts.c, declared in "
           "parts.h)\n",
           parts_count(&cat));

    p = parts_find(&cat, 2300);
    printf("part 2300: %s, %u in stock\n", p ? p->desc : "-", p ? p->stock : 0);
    bad += !p || p->stock != 0;

    printf("bolts, part numbers 4100..4199:\n");
    unsigned bolts = 0;
    SKIPLIST_FOREACH_FROM (parts, &cat, it, p, 4100) {
        if (p->number > 4199)
            break;
        printf("  %" PRIu32 "  %-15s %3u\n", p->number, p->desc, p->stock);
        bolts += p->stock;
    }
    bad += bolts != 40;

    /* Discontinued: out of the catalogue by key. */
    bad += parts_erase_key(&cat, 2300, &p) != 0 || p != &stock[3];
    bad += parts_find(&cat, 2300) != NULL;
    p = parts_upper_bound(&cat, 2300);
    printf("discontinued 2300; the next part number is %" PRIu32 "\n",
           p ? p->number : 0);
    bad += !p || p->number != 4100;

    uint32_t prev = 0;
    SKIPLIST_FOREACH (parts, &cat, it, p) {
        bad += p->number <= prev;
        prev = p->number;
    }
    bad += parts_count(&cat) != NPARTS - 1;
    if (parts_check(&cat, why, sizeof why) != 0) {
        fprintf(stderr, "split: check: %s\n", why);
        bad++;
    }
    parts_destroy(&cat, NULL, NULL);
    printf("self-checks: %s\n", bad ? "FAILED" : "all passed");
    return bad ? 1 : 0;
}
