/*
 * What the suites that build programs of their own share (the compile-fail
 * suite and the planted-fault suites, tests/ and tests/rcu/): the compiler
 * and strict flags they build with, and how they run a command. tests.mk
 * passes the compiler and the repository root.
 */
#ifndef TEST_BUILD_H
#define TEST_BUILD_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

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

/* Runs cmd through the shell (popen: the including file defines
 * _POSIX_C_SOURCE first); returns its exit status (128 + the signal when
 * one killed it) and the first len - 1 bytes of its output. The rest is
 * read and dropped, so that a child with more to say can finish. */
static inline int run_cmd(const char *cmd, char *out, size_t len)
{
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p, "popen(%s)", cmd);
    size_t n = fread(out, 1, len - 1, p);
    out[n] = 0;
    while (fgetc(p) != EOF)
        ;
    int st = pclose(p);
    cr_assert_neq(st, -1, "pclose");
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

#endif /* TEST_BUILD_H */
