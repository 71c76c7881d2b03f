/*
 * Planted faults in skiplist_rcu.h, and proof that the concurrency stress
 * (tests/rcu/stress.c, through tests/rcu/stress_main.c) catches them:
 *
 *   SKIPLIST_RCU_PLANT_NO_GRACE       replaced nodes are freed at once, not
 *                                     after a grace period;
 *   SKIPLIST_RCU_PLANT_EARLY_PUBLISH  a new leaf is reachable before its
 *                                     keys are written;
 *   SKIPLIST_RCU_PLANT_SLOT_AFTER_WORD an insert in place lists its slot
 *                                     in the leaf's order word before it
 *                                     writes the slot;
 *   SKIPLIST_RCU_PLANT_WORD_RELAXED   the order word is stored relaxed
 *                                     (TSan only: on x86 a relaxed and a
 *                                     release store are the same mov);
 *   SKIPLIST_RCU_PLANT_REUSE_DEAD     an insert in place writes a dead
 *                                     slot of a reachable leaf.
 *
 * Each is built three ways, and each build must fail: plain (the
 * stress's own reader checks must see the poisoned or unwritten node:
 * garbage pointers, lost keys, broken order), under AddressSanitizer
 * (heap-use-after-free for NO_GRACE) and under ThreadSanitizer (a data
 * race: the reader's read of the node is not ordered after the writer's
 * free, or after the writes of the keys, which is the proof TESTING.md
 * asks of the TSan setup and its annotations). Positive controls: the
 * same three builds without a plant run clean, so the suite can fail.
 *
 * The driver is built with the compiler ($CC at run time, else the one
 * that built this binary) in a fresh directory under build/tests/rcu/,
 * and run with a few rounds: a plant must show within them. Env
 * SKIPLIST_TEST_INC puts another directory first on the include path.
 */
#define _POSIX_C_SOURCE 200809L /* popen, mkdtemp */

#include <criterion/criterion.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../test_build.h"

#define RCU_LIBS "-lurcu -lurcu-common -pthread"
#define ASAN_FLAGS                                          \
    "-fsanitize=address,undefined -fno-omit-frame-pointer " \
    "-fno-sanitize-recover=all"
#define TSAN_FLAGS "-fsanitize=thread"
/* liburcu is not built with ThreadSanitizer: its own hand-offs (the work
 * items of rcu_barrier(), freed on the call_rcu thread) synchronise through
 * futexes it cannot see. The suppressions name only that library. */
#define TSAN_ENV                                                     \
    "TSAN_OPTIONS='halt_on_error=1 suppressions=" SKIPLIST_TEST_ROOT \
    "/tests/rcu/tsan.supp' "
/* Rounds of the stress per run: a plant must show within them (a run
 * stops at its first failure). Each round is a fresh race; every plant
 * shows in nearly every round. SLOT_AFTER_WORD's window (a slot listed
 * before it is written) is two stores wide: the plain readers met it
 * only in about one round of eight, and a loaded machine once ran 24
 * rounds without, so the plant yields inside its window (as a preempted
 * writer would): caught in the first round, in 0.1 s. */
#define ROUNDS_CONTROL 2
#define ROUNDS_PLANT 6

/* Seconds a driver run may take before it is killed (timeout -s KILL,
 * exit 137): a plant that loops a reader round one leaf, before any
 * checker names it, then costs one run, not the suite's timeout
 * (must_catch runs it up to twice more). Clean runs take a few
 * seconds. */
#define RUN_LIMIT_S 80
#define RUN_KILLED 137

/* Builds the driver (stress_main.c and stress.c) with the flags, runs it
 * for `rounds` under env, removes what it built; returns the exit status,
 * output in out. */
static int build_and_run(const char *flags, const char *env, int rounds,
                         char *out, size_t len)
{
    char dir[1024], cmd[4096];
    snprintf(dir, sizeof(dir), "%s/build/tests/rcu", SKIPLIST_TEST_ROOT);
    snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dir);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    snprintf(dir, sizeof(dir), "%s/build/tests/rcu/planted-XXXXXX",
             SKIPLIST_TEST_ROOT);
    cr_assert_not_null(mkdtemp(dir), "mkdtemp %s: %s", dir, strerror(errno));

    const char *inc = getenv("SKIPLIST_TEST_INC");
    snprintf(cmd, sizeof(cmd),
             "%s " STRICT " -O1 -g %s%s%s -I'%s' %s -o '%s/driver' "
             "'%s/tests/rcu/stress_main.c' '%s/tests/rcu/stress.c' " RCU_LIBS
             " 2>&1",
             compiler(), inc ? "-I'" : "", inc ? inc : "", inc ? "'" : "",
             SKIPLIST_TEST_ROOT, flags, dir, SKIPLIST_TEST_ROOT,
             SKIPLIST_TEST_ROOT);
    int rc = run_cmd(cmd, out, len);
    cr_assert_eq(rc, 0, "the stress driver (%s) does not build:\n%s\n%s", flags,
                 cmd, out);

    snprintf(cmd, sizeof(cmd), "%stimeout -s KILL %d '%s/driver' %d 2>&1", env,
             RUN_LIMIT_S, dir, rounds);
    rc = run_cmd(cmd, out, len);

    snprintf(cmd, sizeof(cmd), "%s/driver", dir);
    unlink(cmd);
    rmdir(dir);
    return rc;
}

static void control(const char *flags, const char *env, const char *what)
{
    static char out[1 << 16];
    int rc = build_and_run(flags, env, ROUNDS_CONTROL, out, sizeof(out));
    cr_assert_eq(rc, 0, "the %s stress must run clean without a plant:\n%s",
                 what, out);
    cr_assert_not_null(strstr(out, "clean:"), "no summary line:\n%s", out);
    fprintf(stderr, "rcu planted (none, %s): %s", what, strstr(out, "clean:"));
}

/* The plant must make the run fail, naming one of the needles. */
static void must_catch(const char *plant, const char *flags, const char *env,
                       int rounds, const char *what, const char *const *needles)
{
    static char out[1 << 16];
    char all[512];
    snprintf(all, sizeof(all), "-D%s %s", plant, flags);
    int rc = build_and_run(all, env, rounds, out, sizeof(out));
    for (int again = 0; rc == RUN_KILLED && again < 2; again++) {
        /* it looped before a checker spoke: run it again */
        fprintf(stderr, "rcu planted %s, %s: killed after %d s, again\n", plant,
                what, RUN_LIMIT_S);
        rc = build_and_run(all, env, rounds, out, sizeof(out));
    }
    cr_assert_neq(rc, 0, "%s went unnoticed by the %s stress:\n%s", plant, what,
                  out);
    const char *hit = NULL;
    for (const char *const *n = needles; *n && !hit; n++)
        hit = strstr(out, *n);
    cr_assert_not_null(hit,
                       "%s: the %s stress failed (exit %d) without naming "
                       "the damage (\"%s\"):\n%s",
                       plant, what, rc, needles[0], out);
    /* Informational: the line that caught it. */
    const char *eol = strchr(hit, '\n');
    fprintf(stderr, "rcu planted %s, %s: exit %d: %.*s\n", plant, what, rc,
            eol ? (int)(eol - hit) : (int)strlen(hit), hit);
}

/* What the stress itself reports (stress.c): its verdict line, or a crash
 * on a wild pointer read out of a poisoned or unwritten node. */
static const char *const plain_needles[] = {"FAILED:", "crashed:", NULL};
/* A read of a freed node: reported as a use after free, or (a reader run
 * past the end of a freed leaf whose count was poisoned) as an overflow
 * next to a freed block: either way ASan names the free. */
static const char *const asan_needles[] = {
    "AddressSanitizer: heap-use-after-free", "freed by thread",
    "FAILED:", NULL};
static const char *const tsan_needles[] = {"ThreadSanitizer: data race",
                                           "FAILED:", NULL};

TestSuite(rcu_planted, .timeout = 300);

Test(rcu_planted, control_plain)
{
    control("", "", "plain");
}

Test(rcu_planted, control_asan)
{
    control(ASAN_FLAGS, "", "ASan+UBSan");
}

Test(rcu_planted, control_tsan)
{
    control(TSAN_FLAGS, TSAN_ENV, "TSan");
}

Test(rcu_planted, no_grace_plain)
{
    must_catch("SKIPLIST_RCU_PLANT_NO_GRACE", "", "", ROUNDS_PLANT, "plain",
               plain_needles);
}

Test(rcu_planted, no_grace_asan)
{
    must_catch("SKIPLIST_RCU_PLANT_NO_GRACE", ASAN_FLAGS, "", ROUNDS_PLANT,
               "ASan+UBSan", asan_needles);
}

Test(rcu_planted, no_grace_tsan)
{
    must_catch("SKIPLIST_RCU_PLANT_NO_GRACE", TSAN_FLAGS, TSAN_ENV,
               ROUNDS_PLANT, "TSan", tsan_needles);
}

/* EARLY_PUBLISH has no plain run: since leaves are written in place, a
 * copy (where it is planted) happens only at a compaction, and the plain
 * readers no longer meet the window in a bounded number of rounds; TSan
 * sees the unordered read whenever the path runs. */
Test(rcu_planted, early_publish_tsan)
{
    must_catch("SKIPLIST_RCU_PLANT_EARLY_PUBLISH", TSAN_FLAGS, TSAN_ENV,
               ROUNDS_PLANT, "TSan", tsan_needles);
}

/* Writes in place (the leaves' order words): a slot listed before it is
 * written, the word published without release ordering, a dead slot
 * written again while readers may hold a word that lists it. */
Test(rcu_planted, slot_after_word_plain)
{
    must_catch("SKIPLIST_RCU_PLANT_SLOT_AFTER_WORD", "", "", ROUNDS_PLANT,
               "plain", plain_needles);
}

Test(rcu_planted, slot_after_word_tsan)
{
    must_catch("SKIPLIST_RCU_PLANT_SLOT_AFTER_WORD", TSAN_FLAGS, TSAN_ENV,
               ROUNDS_PLANT, "TSan", tsan_needles);
}

Test(rcu_planted, word_relaxed_tsan)
{
    must_catch("SKIPLIST_RCU_PLANT_WORD_RELAXED", TSAN_FLAGS, TSAN_ENV,
               ROUNDS_PLANT, "TSan", tsan_needles);
}

/* REUSE_DEAD has no plain run: a dead run slot rewritten out of order
 * can send a plain reader's bisection round the same leaf for longer than
 * the suite's timeout instead of to a check that names it; TSan names the
 * rewrite of a slot another thread may be reading at once. */
Test(rcu_planted, reuse_dead_tsan)
{
    must_catch("SKIPLIST_RCU_PLANT_REUSE_DEAD", TSAN_FLAGS, TSAN_ENV,
               ROUNDS_PLANT, "TSan", tsan_needles);
}
