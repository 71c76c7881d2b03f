/* The one translation unit that generates lmap (see linkage.h). */
#include "linkage.h"

SKIPLIST_GENERATE(lmap, struct litem, uint32_t, LITEM_KEY, SKIPLIST_CMP_NUM, 8,
                  12, 2)
