/* slx_find_ptr as the default x86-64 build compiles it: SSE2. */
#include "test_engine_find_ptr.h"

#if defined(__x86_64__) && !defined(__AVX2__)
FIND_PTR_SUITE(find_ptr_sse2, 1)
#endif
