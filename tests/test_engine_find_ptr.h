/*
 * The pointer scan behind a priority queue's remove (slx_find_ptr) in each
 * of its builds: plain C, SSE2 and AVX2 (tests/test_find_ptr_*.c include
 * this with different flags). Every length up to a big leaf, the element
 * at every position, and absent elements, on arrays that start at every
 * pointer alignment inside a cache line.
 *
 * FIND_PTR_SUITE(suite, want_simd) defines the tests; want_simd is the
 * SLX_SIMD level the file must have been built with, so a build that
 * silently lost its flag fails rather than testing the wrong path.
 */
#ifndef TEST_FIND_PTR_H
#define TEST_FIND_PTR_H

#include <criterion/criterion.h>

#include "test_common.h"

static inline void find_ptr_check_all(void)
{
    enum { MAXN = 80, SHIFT = 8 };
    static int objs[MAXN + 1];
    void *arr[MAXN + SHIFT];
    for (unsigned shift = 0; shift < SHIFT; shift++) {
        void **p = arr + shift;
        for (unsigned n = 0; n <= MAXN; n++) {
            for (unsigned j = 0; j < n; j++)
                p[j] = &objs[j];
            for (unsigned j = 0; j < n; j++)
                cr_assert_eq(slx_find_ptr(p, n, &objs[j]), j,
                             "n %u shift %u: element %u not found in place", n,
                             shift, j);
            /* absent: an element just past the end, and one never stored */
            cr_assert_eq(slx_find_ptr(p, n, &objs[MAXN]), n, "n %u", n);
            if (n > 0) { /* stored past n only: must not be seen */
                void *last = p[n - 1];
                cr_assert_eq(slx_find_ptr(p, n - 1, last), n - 1, "n %u", n);
            }
        }
    }
}

#define FIND_PTR_SUITE(suite, want_simd)                                 \
    Test(suite, built_with_expected_path)                                \
    {                                                                    \
        cr_assert_eq(SLX_SIMD, (want_simd), "SLX_SIMD is %d", SLX_SIMD); \
    }                                                                    \
    Test(suite, every_length_and_position)                               \
    {                                                                    \
        find_ptr_check_all();                                            \
    }

#endif
