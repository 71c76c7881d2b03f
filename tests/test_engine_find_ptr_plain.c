/* slx_find_ptr without vector code (SKIPLIST_NO_SIMD). */
#define SKIPLIST_NO_SIMD
#include "test_engine_find_ptr.h"

FIND_PTR_SUITE(find_ptr_plain, 0)
