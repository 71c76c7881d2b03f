/* parts.c: the one translation unit that defines the parts_*() functions
 * declared in parts.h. The arguments must be the same as the header's. */
#include "parts.h"

SKIPLIST_GENERATE(parts, struct part, uint32_t, PART_NUMBER, SKIPLIST_CMP_NUM,
                  SKIPLIST_DEFAULTS)
