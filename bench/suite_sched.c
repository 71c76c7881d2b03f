/* sched suite (docs/benchmark.md): skiplist_sched.h against the BFS
 * runqueue before skiplists, on 16 CPUs.
 *
 *   cycle        every task NORMAL, allowed everywhere, nice -20..19; CPUs
 *                take turns: pick, then the task comes back with its slice
 *                used up (new deadline, requeue, sticky hand-over)
 *   cycle_aff90  the same with 90% of the tasks pinned to one CPU each
 *                (uniform over the 16): a pick walks past the tasks of
 *                other CPUs, ~84% of the queue
 * n is the number of tasks (all queued between cycles but the one being
 * moved). ns_per_op is per cycle (pick + deschedule), the median over
 * repetitions that visit both implementations in turn, in steady state.
 *
 * Before timing, both run the same cycles from the same tasks and must
 * pick the same task every time (hash of the picks); a mismatch prints no
 * rows and exits non-zero.
 *
 * Options: --quick (n = 16 and 1024), --n=..., --op=..., --impl=... */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/harness.h"
#include "bench/sched_impl.h"

static const struct sched_impl *const impls[] = {&sched_impl_skiplist,
                                                 &sched_impl_bfs_list};
#define NIMPL (sizeof impls / sizeof impls[0])

static const char *const op_names[] = {"cycle", "cycle_aff90"};
#define NOPS (sizeof op_names / sizeof op_names[0])

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void make_spec(struct sched_task_spec *spec, size_t n, bool aff90,
                      uint64_t seed)
{
    uint64_t r = seed;
    for (size_t i = 0; i < n; i++) {
        spec[i].nice = (int)bench_rand_below(&r, 40) - 20;
        spec[i].pinned = aff90 && bench_rand_below(&r, 10) != 0
                             ? (int)bench_rand_below(&r, SCHED_NCPUS)
                             : -1;
    }
}

int main(int argc, char **argv)
{
    const bool quick = bench_quick(argc, argv);
    const char *only_impl = bench_opt(argc, argv, "--impl");
    const char *only_op = bench_opt(argc, argv, "--op");
    const char *only_n = bench_opt(argc, argv, "--n");
    static const size_t sizes[] = {1, 4, 16, 64, 256, 1024, 4096, 16384};
    const int reps = 5;
    const double target_ns = quick ? 25e6 : 40e6;
    int status = 0;

    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        const size_t n = sizes[si];
        char nbuf[32];
        snprintf(nbuf, sizeof nbuf, "%zu", n);
        if ((quick && n != 16 && n != 1024) ||
            (only_n && !bench_listed(only_n, nbuf)))
            continue;
        for (size_t op = 0; op < NOPS; op++) {
            if (!bench_listed(only_op, op_names[op]))
                continue;
            struct sched_task_spec *spec =
                (struct sched_task_spec *)malloc(n * sizeof(*spec));
            if (!spec)
                return 2;
            make_spec(spec, n, op == 1, 0xc0ffeeull + n);

            /* Same picks on both, from fresh queues. */
            const size_t mv = n <= 1024 ? 20000 : 3000;
            uint64_t want = 0;
            bool have = false, bad = false;
            for (size_t i = 0; i < NIMPL; i++) {
                if (!bench_listed(only_impl, impls[i]->name))
                    continue;
                void *h = impls[i]->create(spec, n);
                uint64_t got = h ? impls[i]->cycle(h, mv) : 0;
                if (h)
                    impls[i]->destroy(h);
                if (!got || (have && got != want)) {
                    fprintf(stderr, "sched: %s %s n=%zu: picks differ\n",
                            impls[i]->name, op_names[op], n);
                    bad = true;
                }
                want = got;
                have = true;
            }
            if (bad) {
                status = 1;
                free(spec);
                continue;
            }

            void *h[NIMPL] = {NULL};
            size_t per[NIMPL];
            double samples[NIMPL][8];
            for (size_t i = 0; i < NIMPL; i++) {
                if (!bench_listed(only_impl, impls[i]->name))
                    continue;
                h[i] = impls[i]->create(spec, n);
                /* Warm up into steady state; size a repetition. */
                uint64_t t0 = bench_now_ns();
                bench_sink += impls[i]->cycle(h[i], 200);
                double ns = (double)(bench_now_ns() - t0) / 200.0;
                double m = target_ns / (ns > 1 ? ns : 1);
                per[i] = m < 50 ? 50 : (size_t)m;
                bench_sink += impls[i]->cycle(h[i], per[i] / 4);
            }
            for (int r = 0; r < reps; r++)
                for (size_t i = 0; i < NIMPL; i++) {
                    if (!h[i])
                        continue;
                    uint64_t t0 = bench_now_ns();
                    bench_sink += impls[i]->cycle(h[i], per[i]);
                    samples[i][r] =
                        (double)(bench_now_ns() - t0) / (double)per[i];
                }
            for (size_t i = 0; i < NIMPL; i++) {
                if (!h[i])
                    continue;
                qsort(samples[i], (size_t)reps, sizeof(double), cmp_double);
                bench_row("sched", impls[i]->name, op_names[op], n, 1,
                          samples[i][reps / 2], -1);
                impls[i]->destroy(h[i]);
            }
            free(spec);
        }
    }
    return status;
}
