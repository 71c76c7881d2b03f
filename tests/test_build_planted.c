/*
 * Planted faults: skiplist.h carries three compile-time switches, each of
 * which breaks one piece of the index's upkeep, and this suite proves that
 * name_check() (and the model comparison of tests/planted/driver.c) catches
 * every one of them:
 *
 *   SLX_PLANT_SPLIT_DROPS_CHILD  an index node split drops a child;
 *   SLX_PLANT_STALE_SEPARATOR    a leaf's new first key is not copied into
 *                                the index (a stale separator key);
 *   SLX_PLANT_MERGE_GAP_STALE    after two index nodes merge, the merged
 *                                node's gap summary (extent face) is not
 *                                refreshed.
 *
 * The driver is built with the compiler ($CC at run time, else the one that
 * built this binary, else cc) into a fresh directory under build/tests/,
 * once without any plant (the positive control: it must run clean, so the
 * suite can fail) and once per plant, where it must exit non-zero naming
 * the kind of damage (a crash inside the library, which the driver reports
 * as "crashed", does not count: the check is meant to see the damage
 * first). Env SKIPLIST_TEST_INC puts another directory first on
 * the include path, as in the compile-fail suite.
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

#include "test_build.h"

/* Builds the driver with the given -D flags (or none) in a new directory
 * under build/tests/, runs it, removes what it built; returns the
 * driver's exit status and output. */
static int build_and_run(const char *defs, char *out, size_t len)
{
    char dir[1024], cmd[4096];
    snprintf(dir, sizeof(dir), "%s/build/tests", SKIPLIST_TEST_ROOT);
    cr_assert(mkdir(dir, 0777) == 0 || errno == EEXIST, "mkdir %s: %s", dir,
              strerror(errno));
    snprintf(dir, sizeof(dir), "%s/build/tests/planted-XXXXXX",
             SKIPLIST_TEST_ROOT);
    cr_assert_not_null(mkdtemp(dir), "mkdtemp %s: %s", dir, strerror(errno));

    const char *inc = getenv("SKIPLIST_TEST_INC");
    snprintf(cmd, sizeof(cmd),
             "%s " STRICT " -O1 %s%s%s -I'%s' %s -o '%s/driver' "
             "'%s/tests/planted/driver.c' 2>&1",
             compiler(), inc ? "-I'" : "", inc ? inc : "", inc ? "'" : "",
             SKIPLIST_TEST_ROOT, defs, dir, SKIPLIST_TEST_ROOT);
    int rc = run_cmd(cmd, out, len);
    cr_assert_eq(rc, 0, "the driver (%s) does not build:\n%s\n%s",
                 *defs ? defs : "no plant", cmd, out);

    snprintf(cmd, sizeof(cmd), "'%s/driver' 2>&1", dir);
    rc = run_cmd(cmd, out, len);

    snprintf(cmd, sizeof(cmd), "%s/driver", dir);
    unlink(cmd);
    rmdir(dir);
    return rc;
}

/* The driver built with -D<plant> must fail, naming one of the needles. */
static void must_catch(const char *plant, const char *const *needles)
{
    static char out[1 << 16];
    char defs[128];
    snprintf(defs, sizeof(defs), "-D%s", plant);
    int rc = build_and_run(defs, out, sizeof(out));
    cr_assert_neq(rc, 0, "%s went unnoticed: the driver ran clean:\n%s", plant,
                  out);
    bool named = false;
    for (const char *const *n = needles; *n; n++)
        named = named || strstr(out, *n) != NULL;
    cr_assert(named,
              "%s: the driver failed (exit %d) but does not report the "
              "damage (\"%s\"):\n%s",
              plant, rc, needles[0], out);
    /* Informational: what the fault looked like. */
    fprintf(stderr, "planted %s: exit %d: %s", plant, rc, out);
}

Test(planted, positive_control_runs_clean, .timeout = 120)
{
    static char out[1 << 16];
    int rc = build_and_run("", out, sizeof(out));
    cr_assert_eq(rc, 0, "the driver must run clean without a plant:\n%s", out);
    cr_assert_not_null(strstr(out, "clean:"), "no summary line:\n%s", out);
    fprintf(stderr, "planted (none): %s", out);
}

Test(planted, split_drops_child, .timeout = 120)
{
    const char *n[] = {"a child lost or out of order", "index reaches",
                       "lookup mismatch", NULL};
    must_catch("SLX_PLANT_SPLIT_DROPS_CHILD", n);
}

Test(planted, stale_separator, .timeout = 120)
{
    const char *n[] = {"separator key stale", "lookup mismatch", NULL};
    must_catch("SLX_PLANT_STALE_SEPARATOR", n);
}

Test(planted, merge_gap_stale, .timeout = 120)
{
    const char *n[] = {"gap summary wrong", "aligned-block summary wrong",
                       NULL};
    must_catch("SLX_PLANT_MERGE_GAP_STALE", n);
}
