/* Shared benchmark harness: timing, seeded keys, median of repetitions and
 * the CSV row format of docs/benchmark.md:
 *   suite,impl,op,n,threads,ns_per_op,bytes_per_item
 * Each suite program prints rows (no header) on stdout and progress on
 * stderr; bench/bench.mk adds the header and collects the rows. */
#ifndef BENCH_HARNESS_H
#define BENCH_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Monotonic wall clock in nanoseconds. */
static inline uint64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* splitmix64: the one seeded key generator every implementation shares. */
static inline uint64_t bench_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform value in [0, bound). */
static inline uint64_t bench_rand_below(uint64_t *state, uint64_t bound)
{
    return bound ? bench_rand(state) % bound : 0;
}

/* Sink that defeats dead-code elimination: fold results into it. */
static volatile uint64_t bench_sink;

/* Median of v[0..n) (sorts v in place). */
static inline double bench_median(double *v, int n)
{
    for (int i = 1; i < n; i++) {
        double x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* One CSV row; bytes_per_item < 0 leaves the field empty. */
static inline void bench_row(const char *suite, const char *impl,
                             const char *op, uint64_t n, int threads,
                             double ns_per_op, double bytes_per_item)
{
    if (bytes_per_item < 0)
        printf("%s,%s,%s,%llu,%d,%.2f,\n", suite, impl, op,
               (unsigned long long)n, threads, ns_per_op);
    else
        printf("%s,%s,%s,%llu,%d,%.2f,%.2f\n", suite, impl, op,
               (unsigned long long)n, threads, ns_per_op, bytes_per_item);
    fflush(stdout);
    fprintf(stderr, "  %-8s %-14s %-14s n=%-9llu %10.2f ns/op\n", suite, impl,
            op, (unsigned long long)n, ns_per_op);
}

/* True when the program was given --quick. */
static inline int bench_quick(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--quick") == 0)
            return 1;
    return 0;
}

/* Comma-separated filter: does list name s? NULL names everything. */
static inline int bench_listed(const char *list, const char *s)
{
    if (!list)
        return 1;
    size_t len = strlen(s);
    for (const char *p = list; *p;) {
        const char *c = strchr(p, ',');
        size_t l = c ? (size_t)(c - p) : strlen(p);
        if (l == len && strncmp(p, s, l) == 0)
            return 1;
        if (!c)
            break;
        p = c + 1;
    }
    return 0;
}

/* The value of a --name=value argument, or NULL. */
static inline const char *bench_opt(int argc, char **argv, const char *name)
{
    size_t l = strlen(name);
    for (int i = 1; i < argc; i++)
        if (strncmp(argv[i], name, l) == 0 && argv[i][l] == '=')
            return argv[i] + l + 1;
    return NULL;
}

#ifdef __cplusplus
}
#endif
#endif
