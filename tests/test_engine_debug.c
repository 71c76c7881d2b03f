/*
 * SKIPLIST_DEBUG: with it defined before skiplist.h, every call that
 * changes a list runs check() afterwards and aborts with the violation.
 *
 * debug::every_mutator_clean  every mutating call of every face, on a
 *                             sound list: no abort (the control)
 * debug::catches_changed_key  a key changed while linked (the classic
 *                             misuse): the next insert aborts, naming
 *                             insert and the stale key
 * debug::catches_bad_count    a count corrupted by hand: the next push of
 *                             a queue aborts, naming push
 * The aborting runs go in a child process whose stderr is read back.
 */
#define SKIPLIST_DEBUG
#include "skiplist.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_common.h"

struct dbg_item {
    uint64_t key;
    uint64_t size;
    struct skiplist_hook hook;
};

#define DBG_KEY(e) ((e)->key)
SKIPLIST_DEFINE(dbg_map, struct dbg_item, uint64_t, DBG_KEY, SKIPLIST_CMP_NUM,
                4, 8, 1)
SKIPLIST_RANKED_DEFINE(dbg_rmap, struct dbg_item, uint64_t, DBG_KEY,
                       SKIPLIST_CMP_NUM, 4, 8, 1)
SKIPLIST_PQ_DEFINE(dbg_pq, struct dbg_item, uint64_t, DBG_KEY, SKIPLIST_CMP_NUM,
                   hook, 4, 8, 1)
SKIPLIST_EXTENT_DEFINE(dbg_ext, struct dbg_item, uint64_t, key, size, 4, 8, 1)

#define DBG_N 200

static void dbg_items(struct dbg_item *v, struct dbg_item **p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        memset(&v[i], 0, sizeof v[i]);
        v[i].key = 10 * i;
        v[i].size = 5;
        p[i] = &v[i];
    }
}

static void dbg_map_workload(void)
{
    static struct dbg_item v[DBG_N], *p[DBG_N];
    dbg_items(v, p, DBG_N);
    struct dbg_map m;
    struct dbg_rmap r;
    cr_assert_eq(dbg_map_init(&m, NULL, 1), 0);
    cr_assert_eq(dbg_rmap_init(&r, NULL, 2), 0);
    cr_assert_eq(dbg_map_build(&m, p, DBG_N / 2), 0);
    for (size_t i = DBG_N / 2; i < DBG_N; i++) {
        cr_assert_eq(dbg_map_insert(&m, &v[i], NULL), 0);
        cr_assert_eq(dbg_rmap_insert_multi(&r, &v[i]), 0);
    }
    cr_assert_eq(dbg_map_erase(&m, &v[3]), 0);
    cr_assert_eq(dbg_map_erase_key(&m, v[4].key, NULL), 0);
    cr_assert_eq(dbg_map_pop_first(&m), &v[0]);
    cr_assert_eq(dbg_map_pop_last(&m), &v[DBG_N - 1]);
    cr_assert_eq(dbg_map_erase_range(&m, 100, 500, NULL, NULL), 41);
    cr_assert_eq(dbg_rmap_erase_range(&r, 0, 10 * DBG_N, NULL, NULL),
                 DBG_N / 2);
    cr_assert_eq(dbg_map_count(&m), DBG_N - 4 - 41);
    dbg_map_clear(&m, NULL, NULL);
    dbg_map_destroy(&m, NULL, NULL);
    dbg_rmap_destroy(&r, NULL, NULL);
}

static void dbg_pq_workload(void)
{
    static struct dbg_item v[DBG_N], *p[DBG_N];
    dbg_items(v, p, DBG_N);
    struct dbg_pq q;
    cr_assert_eq(dbg_pq_init(&q, NULL, 3), 0);
    cr_assert_eq(dbg_pq_build(&q, p, DBG_N / 2), 0);
    for (size_t i = DBG_N / 2; i < DBG_N; i++)
        cr_assert_eq(dbg_pq_push(&q, &v[i]), 0);
    cr_assert_eq(dbg_pq_pop(&q), &v[0]);
    cr_assert_eq(dbg_pq_remove(&q, &v[7]), 0);
    v[9].key = 5 * DBG_N + 1;
    cr_assert_eq(dbg_pq_requeue(&q, &v[9]), 0);
    cr_assert_eq(dbg_pq_count(&q), DBG_N - 2);
    dbg_pq_destroy(&q, NULL, NULL);
}

static void dbg_ext_workload(void)
{
    static struct dbg_item v[DBG_N], *p[DBG_N];
    dbg_items(v, p, DBG_N);
    struct dbg_ext x;
    cr_assert_eq(dbg_ext_init(&x, NULL, 4), 0);
    cr_assert_eq(dbg_ext_build(&x, p, DBG_N - 1), 0);
    /* [1990, 1995) is free past the last extent ([1980, 1985)) */
    v[DBG_N - 1].size = 5;
    cr_assert_eq(dbg_ext_insert_hole(&x, &v[DBG_N - 1], 1, 1985, 2100,
                                     SKIPLIST_HOLE_LOWEST),
                 0);
    cr_assert_eq(dbg_ext_erase_range(&x, 12, 33, NULL, NULL), 3);
    cr_assert_eq(dbg_ext_erase(&x, &v[0]), 0);
    cr_assert_eq(dbg_ext_insert(&x, &v[0], NULL), 0);
    cr_assert_eq(dbg_ext_count(&x), DBG_N - 3);
    dbg_ext_destroy(&x, NULL, NULL);
}

Test(debug, every_mutator_clean)
{
    dbg_map_workload();
    dbg_pq_workload();
    dbg_ext_workload();
}

/* Runs fn in a child with stderr into a pipe: whether it died of SIGABRT,
 * and what it wrote (NUL-terminated, truncated to len). */
static bool dbg_aborts(void (*fn)(void), char *err, size_t len)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    fflush(NULL);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        fn();
        _exit(0);
    }
    close(fd[1]);
    size_t got = 0;
    ssize_t r;
    while (got + 1 < len && (r = read(fd[0], err + got, len - 1 - got)) > 0)
        got += (size_t)r;
    err[got] = '\0';
    close(fd[0]);
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    return WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;
}

static void dbg_change_key_then_insert(void)
{
    static struct dbg_item v[40];
    struct dbg_map m;
    dbg_map_init(&m, NULL, 5);
    for (size_t i = 0; i < 40; i++) {
        v[i].key = 2 * i;
        dbg_map_insert(&m, &v[i], NULL);
    }
    v[17].key = 1001; /* the misuse: linked, its key changes */
    static struct dbg_item late = {.key = 3};
    dbg_map_insert(&m, &late, NULL);
}

static void dbg_clean_inserts(void)
{
    static struct dbg_item v[40];
    struct dbg_map m;
    dbg_map_init(&m, NULL, 5);
    for (size_t i = 0; i < 40; i++) {
        v[i].key = 2 * i;
        dbg_map_insert(&m, &v[i], NULL);
    }
    dbg_map_destroy(&m, NULL, NULL);
}

Test(debug, catches_changed_key)
{
    char err[512];
    cr_assert_not(dbg_aborts(dbg_clean_inserts, err, sizeof err),
                  "the control aborted: %s", err);
    cr_assert(dbg_aborts(dbg_change_key_then_insert, err, sizeof err),
              "a changed key went unreported");
    cr_assert(strstr(err, "SKIPLIST_DEBUG: check() failed after insert"), "%s",
              err);
    cr_assert(strstr(err, "key"), "%s", err);
}

static void dbg_bad_count_then_push(void)
{
    static struct dbg_item v[20];
    struct dbg_pq q;
    dbg_pq_init(&q, NULL, 6);
    for (size_t i = 0; i < 19; i++) {
        v[i].key = i;
        dbg_pq_push(&q, &v[i]);
    }
    q.sl.count += 1; /* the planted corruption */
    dbg_pq_push(&q, &v[19]);
}

Test(debug, catches_bad_count)
{
    char err[512];
    cr_assert(dbg_aborts(dbg_bad_count_then_push, err, sizeof err),
              "a corrupted count went unreported");
    cr_assert(strstr(err, "SKIPLIST_DEBUG: check() failed after push"), "%s",
              err);
}
