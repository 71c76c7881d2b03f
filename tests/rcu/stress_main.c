/*
 * The concurrency stress of tests/rcu/stress.c as a plain program, for
 * the builds where Criterion's runner is in the way: ThreadSanitizer
 * (tests.mk runs it as part of `make test`) and the planted-fault builds
 * (tests/rcu/test_rcu_planted.c compiles it with -DSKIPLIST_RCU_PLANT_...).
 * Runs the map stress, the contended-keys duel, the extent stress and the
 * extent window-edge run (insert_hole beside a busy neighbour) on small
 * nodes (KPN 4, MAXLVL 3, PSHIFT 1), `rounds` times, each round
 * with a new seed from the first (SEED=<n> replays the streams, not the
 * timing).
 *
 * Usage: stress_main [rounds [library]]: rounds default 1; "library" runs
 * on the header's own allocator instead of the counting, poisoning one.
 *
 * Prints each round's figures; then "clean: ..." and exit 0, or
 * "FAILED: <what>" and exit 1. A crash in a plain build prints "crashed"
 * and exits 2 (sanitizer builds leave crashes to the sanitizer).
 */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier, clock_gettime */

#include <signal.h>
#include <unistd.h>

#include "stress.h"

SKIPLIST_RCU_DEFINE(dm, struct map_item, uint64_t, MAP_ITEM_KEY,
                    SKIPLIST_CMP_NUM, 4, 3, 1)
RMAP_OPS_DEFINE(dm, "map kpn4/lvl3/p1", false);
SKIPLIST_RCU_EXTENT_DEFINE(dx, struct rext, uint64_t, start, size, 4, 3, 1)
REXT_OPS_DEFINE(dx, "extent kpn4/lvl3/p1", struct rext, uint64_t);

static union {
    struct dm m;
    struct dx x;
    max_align_t align;
} the_list;

static void on_crash(int sig)
{
    static const char msg[] = "crashed: a thread touched a wild pointer "
                              "(a freed or unwritten node?)\n";
    (void)sig;
    if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
        _exit(3);
    _exit(2);
}

/* One round of both faces; the first failure's message, or NULL. */
static const char *round_once(uint64_t seed, bool library)
{
    struct stress_cfg cfg = {3, 3, rt_ops(20000), 4, seed, library};
    const char *bad = stress_map(&dm_ops, &the_list, &cfg, stdout);
    if (!bad)
        bad = stress_duel(&dm_ops, &the_list, &cfg, stdout);
    cfg.writer_ops = rt_ops(15000);
    if (!bad)
        bad = stress_extent(&dx_ops, &the_list, &cfg, stdout);
    cfg.writer_ops = rt_ops(20000);
    if (!bad)
        bad = stress_edge(&dx_ops, &the_list, &cfg, stdout);
    return bad;
}

int main(int argc, char **argv)
{
    unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 0) : 1;
    bool library = argc > 2 && strcmp(argv[2], "library") == 0;
    if (!TC_SANITIZED && !RT_TSAN) {
        signal(SIGSEGV, on_crash);
        signal(SIGBUS, on_crash);
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    rcu_register_thread();
    uint64_t seed = tc_seed("rcu stress_main");
    for (unsigned long i = 0; i < rounds; i++) {
        const char *bad = round_once(seed + i, library);
        if (bad) {
            printf("FAILED: round %lu: %s\n", i + 1, bad);
            rcu_unregister_thread();
            return 1;
        }
    }
    rcu_unregister_thread();
    printf("clean: %lu rounds of map, duel, extent and edge stress (%s)\n",
           rounds, library ? "the library's allocator" : "counting allocator");
    return 0;
}
