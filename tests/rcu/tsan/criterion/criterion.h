/*
 * A stand-in for <criterion/criterion.h>, only for building the concurrent
 * stress suite (tests/rcu/test_rcu_stress.c) under ThreadSanitizer.
 *
 * Why: Criterion 2.4's runner (BoxFort) maps a shared arena at a fixed
 * random address inside the range TSan reserves for itself, so a Criterion
 * binary built with -fsanitize=thread aborts before its first test ("Could
 * not initialize inheritable arena"). This header implements the part of
 * Criterion's API that suite uses (TestSuite with .init/.fini/.timeout,
 * Test, cr_assert, cr_assert_eq, cr_assert_null) and a main() that runs
 * each test in a forked child with the suite's init and fini, and fails
 * the run when any child fails, crashes or times out, or when no test was
 * registered at all. The Makefile puts tests/rcu/tsan first on the include
 * path of that one build (mk/check.mk, check-tsan-suites); a suite using
 * anything else fails to compile rather than being skipped.
 */
#ifndef SKIPLIST_TSAN_CRITERION_H
#define SKIPLIST_TSAN_CRITERION_H

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

struct tcr_suite {
    void (*init)(void);
    void (*fini)(void);
    double timeout; /* seconds; 0: none */
};

struct tcr_test {
    const char *suite, *name;
    void (*fn)(void);
    const struct tcr_suite *cfg;
    struct tcr_test *next;
};

static struct tcr_test *tcr_tests;

#define TestSuite(s, ...) \
    static const struct tcr_suite tcr_suite_##s = {__VA_ARGS__}

/* Registration order is reversed by the list; main() runs them in the
 * order of the source by reversing it back. */
#define Test(s, n)                                                            \
    static void tcr_fn_##s##_##n(void);                                       \
    __attribute__((constructor)) static void tcr_reg_##s##_##n(void)          \
    {                                                                         \
        static struct tcr_test t = {#s, #n, tcr_fn_##s##_##n, &tcr_suite_##s, \
                                    NULL};                                    \
        t.next = tcr_tests;                                                   \
        tcr_tests = &t;                                                       \
    }                                                                         \
    static void tcr_fn_##s##_##n(void)

#define tcr_fail(...)                                                     \
    do {                                                                  \
        fprintf(stderr, "%s:%d: assertion failed: ", __FILE__, __LINE__); \
        fprintf(stderr, "" __VA_ARGS__);                                  \
        fputc('\n', stderr);                                              \
        abort();                                                          \
    } while (0)
#define cr_assert(c, ...)          \
    do {                           \
        if (!(c))                  \
            tcr_fail(__VA_ARGS__); \
    } while (0)
#define cr_assert_eq(a, b, ...) cr_assert((a) == (b), __VA_ARGS__)
#define cr_assert_null(p, ...) cr_assert((p) == NULL, __VA_ARGS__)

/* One test in a child: init, the test, fini; 0 when all went through. */
static int tcr_run_one(const struct tcr_test *t)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (t->cfg->timeout > 0)
            alarm((unsigned)t->cfg->timeout);
        if (t->cfg->init)
            t->cfg->init();
        t->fn();
        if (t->cfg->fini)
            t->cfg->fini();
        fflush(NULL);
        _exit(0);
    }
    int st = 0;
    if (waitpid(pid, &st, 0) != pid)
        return -1;
    if (WIFSIGNALED(st))
        fprintf(stderr, "%s/%s: killed by signal %d\n", t->suite, t->name,
                WTERMSIG(st));
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int main(void)
{
    struct tcr_test *order = NULL;
    while (tcr_tests) { /* reverse: source order */
        struct tcr_test *t = tcr_tests;
        tcr_tests = t->next;
        t->next = order;
        order = t;
    }
    int n = 0, failed = 0;
    for (const struct tcr_test *t = order; t; t = t->next, n++) {
        int bad = tcr_run_one(t) != 0;
        printf("[%s] %s::%s\n", bad ? "FAIL" : "PASS", t->suite, t->name);
        failed += bad;
    }
    printf("tsan runner: %d tests, %d failed\n", n, failed);
    return n == 0 || failed != 0;
}

#endif
