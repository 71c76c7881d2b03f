/*
 * Must-fail-to-compile tests: a bad configuration (keys per node, max
 * level or level probability out of range) or a natural mistake in the
 * macro arguments (the queue's hook in the old place or of the wrong
 * type, a member name where the key accessor goes, extent members of the
 * wrong type) must stop the build with one message that names the
 * parameter, not with a cascade of unrelated errors or, worse, a build
 * that succeeds. The compiler ($CC at run time,
 * else the one that built this binary, else cc) is run on the small files
 * in tests/compile_fail/; ok.c is the positive control, which must build
 * cleanly under the project's strict warning flags.
 */
#define _POSIX_C_SOURCE 200809L /* popen */

#include <criterion/criterion.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "test_build.h"

/* Compile one file; returns the exit status and the diagnostics. Env
 * SKIPLIST_TEST_INC puts another directory first on the include path, to
 * try an experimental copy of the header without touching the real one. */
static int compile(const char *file, const char *flags, char *out, size_t len)
{
    char cmd[2048];
    const char *inc = getenv("SKIPLIST_TEST_INC");
    snprintf(cmd, sizeof(cmd),
             "%s %s%s%s -I'%s' -c '%s/tests/compile_fail/%s' -o /dev/null 2>&1",
             compiler(), flags, inc ? " -I" : "", inc ? inc : "",
             SKIPLIST_TEST_ROOT, SKIPLIST_TEST_ROOT, file);
    return run_cmd(cmd, out, len);
}

static size_t count_errors(const char *s)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, "error:")) != NULL; p++)
        n++;
    return n;
}

static void must_fail(const char *file, const char *flags, const char *needle)
{
    static char out[1 << 16];
    int rc = compile(file, flags, out, sizeof(out));
    cr_assert_neq(rc, 0, "%s compiled, but its configuration is invalid", file);
    cr_assert_not_null(strstr(out, needle),
                       "%s: the diagnostics do not mention \"%s\":\n%s", file,
                       needle, out);
    /* Informational: how much noise one mistake makes. */
    fprintf(stderr, "compile_fail %s (%s): %zu error line(s), names \"%s\"\n",
            file, compiler(), count_errors(out), needle);
}

/* The natural mistakes: exactly one error, naming the parameter (any of
 * the needles: compilers word the same diagnosis differently). */
static void must_fail_n(const char *file, const char *const *needles,
                        size_t errors)
{
    static char out[1 << 16];
    int rc = compile(file, STRICT, out, sizeof(out));
    cr_assert_neq(rc, 0, "%s compiled, but its arguments are wrong", file);
    bool named = false;
    for (const char *const *n = needles; *n; n++)
        named = named || strstr(out, *n) != NULL;
    cr_assert(named,
              "%s: the diagnostics do not name the parameter (\"%s\"):\n%s",
              file, needles[0], out);
    cr_assert_eq(count_errors(out), errors, "%s: %zu errors, want %zu:\n%s",
                 file, count_errors(out), errors, out);
}

static void must_fail_once(const char *file, const char *const *needles)
{
    must_fail_n(file, needles, 1);
}

Test(map_compile_fail, pq_hook_in_the_old_place)
{
    const char *n[] = {"HOOK member comes after the comparator", NULL};
    must_fail_once("pq_hook_old_order.c", n);
}

Test(map_compile_fail, pq_hook_of_the_wrong_type)
{
    const char *n[] = {"HOOK must name the member of T of type struct "
                       "skiplist_hook",
                       NULL};
    must_fail_once("pq_hook_wrong_type.c", n);
}

/* gcc quotes the header line, whose comment names KEY_OF; clang points
 * at the argument in the user's SKIPLIST_DEFINE line. Under -Wconversion
 * the undeclared function's int result adds a second error (its
 * conversion to K_T): C leaves no way to tell a member name from an
 * accessor before the call is compiled. */
Test(map_compile_fail, member_name_for_the_key_accessor)
{
    const char *n[] = {"KEY_OF", "function 'key'", "function \xe2\x80\x98key",
                       NULL};
    must_fail_n("key_of_member_name.c", n, 2);
}

Test(map_compile_fail, extent_size_of_the_wrong_type)
{
    const char *n[] = {"SIZE must name a member of T of type K_T", NULL};
    must_fail_once("extent_size_wrong_type.c", n);
}

Test(map_compile_fail, extent_start_of_the_wrong_type)
{
    const char *n[] = {"START must name a member of T of type K_T", NULL};
    must_fail_once("extent_start_wrong_type.c", n);
}

Test(map_compile_fail, extent_signed_key_type)
{
    const char *n[] = {"extent key type (K_T) must be an unsigned integer",
                       NULL};
    must_fail_once("extent_signed_key.c", n);
}

/* A compiler that is neither GCC nor Clang is refused by name rather than
 * half supported. Simulated by undefining the compiler's own macros (the
 * system headers then complain too; the refusal must be among the
 * messages). */
Test(map_compile_fail, other_compilers_refused)
{
    must_fail("ok.c", "-std=c11 -U__GNUC__ -U__clang__",
              "skiplist.h needs GCC or Clang");
}

Test(map_compile_fail, positive_control_compiles)
{
    static char out[1 << 16];
    int rc = compile("ok.c", STRICT, out, sizeof(out));
    cr_assert_eq(rc, 0, "ok.c must compile cleanly:\n%s", out);
}

/* The documented compile-time switches, at the values the reference
 * names, also build cleanly: SKIPLIST_CHUNK_CACHE=0 (the chunk cache off)
 * once made slx_chunk_give compare an unsigned count with 0, which
 * -Wextra's -Wtype-limits turns into an error under -Werror. */
Test(map_compile_fail, documented_switches_compile)
{
    static const char *const sw[] = {
        "-DSKIPLIST_CHUNK_CACHE=0",
        "-DSKIPLIST_CHUNK_CACHE=1",
        "-DSKIPLIST_NO_FORCE_INLINE",
        "-DSKIPLIST_DEBUG",
    };
    static char out[1 << 16];
    char flags[1024];
    for (size_t i = 0; i < sizeof(sw) / sizeof(sw[0]); i++) {
        snprintf(flags, sizeof(flags), "%s %s", STRICT, sw[i]);
        int rc = compile("ok.c", flags, out, sizeof(out));
        cr_assert_eq(rc, 0, "ok.c with %s must compile cleanly:\n%s", sw[i],
                     out);
    }
}

Test(map_compile_fail, kpn_0)
{
    must_fail("kpn_0.c", STRICT, "keys per node");
}

Test(map_compile_fail, kpn_300)
{
    must_fail("kpn_300.c", STRICT, "keys per node");
}

Test(map_compile_fail, maxlvl_0)
{
    must_fail("maxlvl_0.c", STRICT, "max level");
}

Test(map_compile_fail, maxlvl_33)
{
    must_fail("maxlvl_33.c", STRICT, "max level");
}

Test(map_compile_fail, pshift_0)
{
    must_fail("pshift_0.c", STRICT, "PSHIFT");
}

Test(map_compile_fail, pshift_9)
{
    must_fail("pshift_9.c", STRICT, "PSHIFT");
}

Test(map_compile_fail, pq_face_kpn_257)
{
    must_fail("pq_kpn_257.c", STRICT, "keys per node");
}

Test(map_compile_fail, extent_face_maxlvl_40)
{
    must_fail("extent_maxlvl_40.c", STRICT, "max level");
}

/* C99 has no _Static_assert: the header's fallback must still refuse the
 * build and name the parameter (in the name of the failing typedef). */
Test(map_compile_fail, c99_fallback)
{
    const char *c99 = "-std=c99 -Wall -Wextra";
    must_fail("kpn_300.c", c99, "kpn");
    must_fail("maxlvl_33.c", c99, "maxlvl");
    must_fail("pshift_0.c", c99, "pshift");
}
