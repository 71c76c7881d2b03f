/*
 * What the suites that build programs of their own share (the compile-fail
 * suite and the planted-fault suite): the compiler and strict flags they
 * build with. tests.mk passes the compiler and the repository root.
 */
#ifndef TEST_BUILD_H
#define TEST_BUILD_H

#include <stdlib.h>

#ifndef SKIPLIST_TEST_CC
#define SKIPLIST_TEST_CC "cc"
#endif
#ifndef SKIPLIST_TEST_ROOT
#define SKIPLIST_TEST_ROOT "."
#endif

#define STRICT                                                 \
    "-std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wconversion " \
    "-Wsign-conversion -Wstrict-prototypes -Wmissing-prototypes -Werror"

/* $CC when set, else the compiler tests.mk built the suites with. */
static inline const char *compiler(void)
{
    const char *cc = getenv("CC");
    return cc && *cc ? cc : SKIPLIST_TEST_CC;
}

#endif /* TEST_BUILD_H */
