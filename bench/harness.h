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
#include <sys/wait.h>
#include <unistd.h>

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

/* The erase windows of the map and extent suites: count disjoint windows
 * of width consecutive positions in [0, n) (n >= width * (count + 1)), at
 * random: a grid of slots of that width from a random offset, count
 * distinct slots drawn. Writes their first positions to pos. */
static inline void bench_windows(size_t n, size_t width, size_t count,
                                 uint64_t seed, size_t *pos)
{
    uint64_t s = seed;
    size_t off = (size_t)bench_rand_below(&s, width);
    size_t slots = (n - off) / width;
    size_t *idx = (size_t *)malloc((slots ? slots : 1) * sizeof(*idx));
    if (!idx || slots < count) {
        fprintf(stderr, "bench: %zu windows of %zu in %zu: %s\n", count, width,
                n, idx ? "no room" : "out of memory");
        exit(2);
    }
    for (size_t i = 0; i < slots; i++)
        idx[i] = i;
    for (size_t i = 0; i < count; i++) {
        size_t j = i + (size_t)bench_rand_below(&s, slots - i);
        size_t t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
        pos[i] = off + idx[i] * width;
    }
    free(idx);
}

/* The erase windows' schedule (map and extent suites): pairs of windows,
 * window i < pairs erased through the range call and window pairs + i
 * through the loop, in blocks of about a tenth of the pairs. In each
 * block both kinds take a turn, timed as one, the kind that starts
 * alternating with the block and with flip, so that both meet a structure
 * of the same size and the same moments of a noisy machine. A kind that
 * is off (range, loop: 0) sits its turns out. fn(arg, loop, from, to)
 * erases the windows [from, to) of its kind (loop: 1 for the loop) and
 * returns how many went wrong; ns[loop] collects each kind's time. Stops
 * at the first turn with failures and returns them (0: all well). */
static inline size_t
bench_windows_erase(size_t pairs, int flip, int range, int loop,
                    size_t (*fn)(void *, int, size_t, size_t), void *arg,
                    uint64_t ns[2])
{
    size_t block = pairs / 10 ? pairs / 10 : 1;
    for (size_t b = 0; b < pairs; b += block) {
        size_t e = b + block < pairs ? b + block : pairs;
        for (int k = 0; k < 2; k++) {
            int l = (k ^ flip ^ (int)(b / block)) & 1;
            if (!(l ? loop : range))
                continue;
            uint64_t t0 = bench_now_ns();
            size_t bad = fn(arg, l, b, e);
            ns[l] += bench_now_ns() - t0;
            if (bad)
                return bad;
        }
    }
    return 0;
}

/* Two builds of the library side by side (BENCH_BASE_ROW: bench/bench.mk,
 * BENCH_BASE=REV): the suite lists "skiplist" and "skiplist_base" first, in
 * that order, and the two trade places on every odd repetition, so that
 * neither always runs right after the other or right after the peers.
 * Whichever ran first of the two was the slower: an A/A run (REV = the
 * working tree's own header, the same code twice) read 1.14 for the first
 * listed on map insert_rand at 10^6, the median of three runs, and
 * 0.92 with the two listed the other way round (docs/lab-notes.md, "The
 * first of the two builds"). BENCH_REPS rounds a suite's repetitions up to
 * an even count there, so each runs first as often as the other; without
 * the row both are the identity. The k-th of n implementations visited in
 * repetition rep (a warm-up repetition may be negative). */
#ifdef BENCH_BASE_ROW
#define BENCH_REPS(r) ((r) + ((r)&1))
#else
#define BENCH_REPS(r) (r)
#endif
static inline size_t bench_visit(size_t k, size_t n, int rep)
{
#ifdef BENCH_BASE_ROW
    if (k < 2 && n >= 2 && (rep & 1))
        return 1 - k;
#endif
    (void)n;
    (void)rep;
    return k;
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

/* A footprint row (docs/benchmark.md, "The footprint ops"): the unit is one
 * list, so ns_per_op is empty and bytes_per_item holds the bytes of one
 * list (its head, what it allocated, and the links it keeps inside its
 * elements). n is the elements in that list. */
static inline void bench_row_bytes(const char *suite, const char *impl,
                                   const char *op, uint64_t n, double bytes)
{
    printf("%s,%s,%s,%llu,1,,%.2f\n", suite, impl, op, (unsigned long long)n,
           bytes);
    fflush(stdout);
    fprintf(stderr, "  %-8s %-14s %-14s n=%-9llu %10.2f bytes per list\n",
            suite, impl, op, (unsigned long long)n, bytes);
}

/* Resident set size of this process in bytes (/proc/self/statm), or 0. */
static inline size_t bench_rss(void)
{
    unsigned long long size = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return 0;
    int got = fscanf(f, "%llu %llu", &size, &resident);
    fclose(f);
    long page = sysconf(_SC_PAGESIZE);
    return got == 2 && page > 0 ? (size_t)(resident * (unsigned long long)page)
                                : 0;
}

/* Runs fn(arg) in a child process and returns what it returns (< 0: the
 * child failed). For process-wide measurements such as RSS growth: the
 * child's memory is its own and goes away with it. The child starts with a
 * copy of the caller's heap, whose free chunks it would reuse without
 * growing, so call this before the program has allocated and freed much. */
static inline double bench_in_child(double (*fn)(void *), void *arg)
{
    int fd[2];
    double v = -1;
    fflush(stdout);
    fflush(stderr);
    if (pipe(fd) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        close(fd[0]);
        v = fn(arg);
        ssize_t w = write(fd[1], &v, sizeof(v));
        fflush(stderr);
        _exit(w == (ssize_t)sizeof(v) ? 0 : 1);
    }
    close(fd[1]);
    ssize_t r = read(fd[0], &v, sizeof(v));
    close(fd[0]);
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0 || r != (ssize_t)sizeof(v))
        return -1;
    return v;
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

/* The value of --name value or --name=value, or NULL. */
static inline const char *bench_arg(int argc, char **argv, const char *name)
{
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return argv[i + 1];
    return bench_opt(argc, argv, name);
}

#ifdef __cplusplus
}
#endif
#endif
