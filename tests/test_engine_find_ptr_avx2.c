/* slx_find_ptr built with -mavx2 (tests/tests.mk adds it on x86-64). The
 * tests need an AVX2 CPU to run; elsewhere they are skipped, and Criterion
 * reports them as skipped. */
#include "test_engine_find_ptr.h"

#if defined(__x86_64__)
Test(find_ptr_avx2, built_with_expected_path)
{
    cr_assert_eq(SLX_SIMD, 2, "SLX_SIMD is %d (-mavx2 lost?)", SLX_SIMD);
}

Test(find_ptr_avx2, every_length_and_position)
{
    if (!__builtin_cpu_supports("avx2"))
        cr_skip_test("this CPU has no AVX2");
    find_ptr_check_all();
}
#endif
