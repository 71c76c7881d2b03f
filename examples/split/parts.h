/* parts.h: a parts catalogue keyed by part number, declared once for the
 * whole program. SKIPLIST_PROTOTYPE gives struct parts, struct parts_iter
 * and the prototypes of every parts_*() function, with external linkage;
 * their definitions are generated in exactly one .c file (parts.c) by
 * SKIPLIST_GENERATE with the same arguments. Any file that includes this
 * header can use the catalogue; none of them compiles the list's code
 * again, as with BSD <sys/tree.h>'s RB_PROTOTYPE / RB_GENERATE. */
#ifndef PARTS_H
#define PARTS_H

#include <stdint.h>

#include "skiplist.h"

struct part {
    uint32_t number; /* the key */
    unsigned stock;
    const char *desc;
};

#define PART_NUMBER(p) ((p)->number)

SKIPLIST_PROTOTYPE(parts, struct part, uint32_t, PART_NUMBER, SKIPLIST_CMP_NUM,
                   SKIPLIST_DEFAULTS)

#endif
