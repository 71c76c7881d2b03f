/* A planted sanitizer error, to show that the sanitizer runs report it
 * (tests/selftest/san.sh; make test-san-selftest). Two tests, so that
 * Criterion runs them as a suite: clean passes; overflow reads one element
 * past a heap array, which ASan reports; ub_shift shifts by the width of
 * its type, which UBSan reports. Never linked into the main suites. */
#include <criterion/criterion.h>
#include <stdlib.h>

Test(san_selftest, clean)
{
    int *a = (int *)malloc(4 * sizeof(int));
    cr_assert_not_null(a);
    a[3] = 1;
    cr_assert_eq(a[3], 1);
    free(a);
}

/* volatile: the compiler cannot see the index, so the read stays. */
static volatile size_t past_end = 4;
static volatile unsigned width = 32;

Test(san_selftest, overflow)
{
    int *a = (int *)malloc(4 * sizeof(int));
    cr_assert_not_null(a);
    int v = a[past_end];
    free(a);
    cr_assert_eq(v, v);
}

Test(san_selftest, ub_shift)
{
    unsigned one = 1;
    unsigned v = one << width;
    cr_assert_eq(v, v);
}
