/* leaderboard.c: the ranked ordered index (SKIPLIST_RANKED_DEFINE) as a
 * game leaderboard.
 *
 * 100,000 players on an Elo-style rating ladder take 1,000,000 rating
 * updates (a game played: +-1..32 points; a fifth of the players play
 * four fifths of the games). Each update takes the player out of the
 * board, changes the rating and puts the player back. Then it answers
 * what a leaderboard service is asked: the top 10, a player's place,
 * page 37 of the board (20 players a page), how many players have a
 * rating in [lo, hi], and a player's percentile; each is O(log n).
 *
 * Order: rating descending, then player id ascending. Both go into one
 * 64-bit key (board_key), so the board is a set with one key per player
 * and a plain integer comparison.
 *
 * Ties (about 100 players share each rating) get two numbers:
 *   place  rank_of + 1: the player's line on the board, ties listed by
 *          id. Distinct for every player; page p shows places
 *          20(p - 1) + 1 .. 20p.
 *   rank   1 + the players rated strictly higher ("1224" competition
 *          ranking): every tied player shares the place of the first of
 *          them. rank(board_key(rating, 0)) counts those players, since
 *          id 0 sorts before every real id of that rating.
 * The percentile is the share of players rated strictly lower.
 *
 * Five times (after the load and after every 250,000 updates) every
 * answer is checked against a model rebuilt from scratch: the players'
 * keys sorted with qsort, and a count of players per rating. Any
 * mismatch makes the program exit 1. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "skiplist.h"

enum {
    PLAYERS = 100000,
    UPDATES = 1000000,
    CHECK_EVERY = 250000, /* updates between two checks against the model */
    RATING_MAX = 4000,
    PAGE_SIZE = 20,
    PAGE = 37, /* the page the report shows, 1-based */
    TOP_K = 10,
    FEATURED = 4242 /* the player whose standing the report shows */
};

struct player {
    uint32_t id;
    uint32_t rating; /* part of the key: change it only while unlinked */
    uint32_t games;
};

/* The high half sorts higher ratings first, the low half ties by id. */
static uint64_t board_key(uint32_t rating, uint32_t id)
{
    return (uint64_t)(RATING_MAX - rating) << 32 | id;
}

#define PLAYER_KEY(p) board_key((p)->rating, (p)->id)
SKIPLIST_RANKED_DEFINE(board, struct player, uint64_t, PLAYER_KEY,
                       SKIPLIST_CMP_NUM, SKIPLIST_DEFAULTS)

/* xorshift64 with fixed seeds: every run plays the same games. The checks
 * draw from a stream of their own, so the games do not depend on them. */
static uint64_t game_rng = 0x9E3779B97F4A7C15ull;
static uint64_t check_rng = 0x2545F4914F6CDD1Dull;
static uint64_t next_rand(uint64_t *rng)
{
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
    return *rng;
}

static int failures;

/* Counts a failure; prints the first few only, so that a broken build
 * does not print one line per player. */
static void expect(int ok, const char *what)
{
    if (!ok && failures++ < 10)
        fprintf(stderr, "leaderboard: wrong answer: %s\n", what);
}

/* ------------------------------------------------- the leaderboard's calls */

/* Players rated lo..hi, both included (lo <= hi): the keys from the best
 * player rated hi to the last one rated lo. */
static size_t rated_between(const struct board *b, uint32_t lo, uint32_t hi)
{
    return board_count_range(b, board_key(hi, 0), board_key(lo, UINT32_MAX));
}

/* Players rated strictly higher than rating. */
static size_t rated_above(const struct board *b, uint32_t rating)
{
    return board_rank(b, board_key(rating, 0));
}

/* 1-based place on the board (ties by id); 0 when p is not on it. */
static size_t place_of(const struct board *b, const struct player *p)
{
    int64_t pos = board_rank_of(b, p);
    return pos < 0 ? 0 : (size_t)pos + 1;
}

/* Competition rank: tied players share the best place among them. */
static size_t rank_of_rating(const struct board *b, uint32_t rating)
{
    return rated_above(b, rating) + 1;
}

/* Share of players rated strictly lower, in percent. */
static double percentile(const struct board *b, uint32_t rating)
{
    size_t below = rating ? rated_between(b, 0, rating - 1) : 0;
    return 100.0 * (double)below / (double)board_count(b);
}

/* A game played: the key changes, so out of the board and back in. */
static int submit(struct board *b, struct player *p, uint32_t rating)
{
    if (board_erase(b, p))
        return -1;
    p->rating = rating;
    p->games++;
    return board_insert(b, p, NULL);
}

/* ---------------------------------------------------------- the workload */

static uint32_t game_result(uint32_t rating)
{
    int64_t delta = (int64_t)(next_rand(&game_rng) % 32) + 1;
    int64_t r = (int64_t)rating + (next_rand(&game_rng) & 1 ? delta : -delta);
    return (uint32_t)(r < 0 ? 0 : r > RATING_MAX ? RATING_MAX : r);
}

/* Four games in five are played by the first fifth of the players. */
static uint32_t pick_player(void)
{
    uint64_t r = next_rand(&game_rng);
    return (uint32_t)(r % 5 ? (r >> 8) % (PLAYERS / 5) : (r >> 8) % PLAYERS);
}

static int load(struct board *b, struct player *ps)
{
    for (uint32_t i = 0; i < PLAYERS; i++) {
        ps[i].id = i;
        ps[i].rating = 1000 + (uint32_t)(next_rand(&game_rng) % 1000);
        if (board_insert(b, &ps[i], NULL))
            return -1;
    }
    return 0;
}

/* ------------------------------------------------- the model and checks */

/* What the board should say, rebuilt from the players alone. */
struct model {
    uint64_t keys[PLAYERS]; /* every key, sorted: keys[i] is place i+1 */
    size_t pos[PLAYERS];    /* pos[id]: the player's index in keys */
    size_t at_least[RATING_MAX + 2]; /* players rated >= r */
};

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void model_build(struct model *m, const struct player *ps)
{
    size_t per_rating[RATING_MAX + 1] = {0};
    for (size_t i = 0; i < PLAYERS; i++) {
        m->keys[i] = PLAYER_KEY(&ps[i]);
        per_rating[ps[i].rating]++;
    }
    qsort(m->keys, PLAYERS, sizeof m->keys[0], cmp_u64);
    for (size_t i = 0; i < PLAYERS; i++)
        m->pos[(uint32_t)m->keys[i]] = i; /* the low half is the id */
    m->at_least[RATING_MAX + 1] = 0;
    for (size_t r = RATING_MAX + 1; r-- > 0;)
        m->at_least[r] = m->at_least[r + 1] + per_rating[r];
}

/* The order itself: an in-order walk, every player's rank_of, at() and
 * the start of every page through iter_at. */
static void check_order(const struct board *b, const struct player *ps,
                        const struct model *m)
{
    struct board_iter it;
    struct player *p;
    size_t i = 0;
    SKIPLIST_FOREACH (board, b, it, p)
        expect(i < PLAYERS && PLAYER_KEY(p) == m->keys[i++], "in-order walk");
    expect(i == PLAYERS, "walk length");
    for (size_t id = 0; id < PLAYERS; id++)
        expect(board_rank_of(b, &ps[id]) == (int64_t)m->pos[id], "rank_of");
    for (i = 0; i < PLAYERS; i += PAGE_SIZE) {
        p = board_iter_at(&it, b, i);
        expect(p && PLAYER_KEY(p) == m->keys[i], "iter_at, page start");
        p = board_at(b, i + PAGE_SIZE / 2);
        expect(p && PLAYER_KEY(p) == m->keys[i + PAGE_SIZE / 2], "at");
    }
    expect(board_at(b, PLAYERS) == NULL, "at past the end");
    expect(board_iter_at(&it, b, PLAYERS) == NULL, "iter_at past the end");
    expect(board_iter_prev(&it) == board_at(b, PLAYERS - 1),
           "iter_prev from the end");
}

/* The counts: players above every rating, in random rating windows, and
 * the empty answers. */
static void check_counts(const struct board *b, const struct model *m)
{
    for (uint32_t r = 0; r <= RATING_MAX; r++)
        expect(rated_above(b, r) == m->at_least[r + 1], "rank of a rating");
    for (int n = 0; n < 1000; n++) {
        uint32_t lo = (uint32_t)(next_rand(&check_rng) % (RATING_MAX + 1));
        uint32_t hi =
            lo + (uint32_t)(next_rand(&check_rng) % (RATING_MAX + 1 - lo));
        expect(rated_between(b, lo, hi) ==
                   m->at_least[lo] - m->at_least[hi + 1],
               "count_range");
    }
    expect(board_count_range(b, board_key(0, 0), board_key(RATING_MAX, 0)) == 0,
           "count_range with lo > hi");
}

static void check_all(const struct board *b, const struct player *ps,
                      struct model *m, size_t done)
{
    char why[128];
    int before = failures;
    model_build(m, ps);
    expect(board_count(b) == PLAYERS, "player count");
    expect(board_check(b, why, sizeof why) == 0, why);
    check_order(b, ps, m);
    check_counts(b, m);
    printf("  after %7zu updates: every place, page and rating count "
           "matches a sorted copy: %s\n",
           done, failures == before ? "ok" : "WRONG");
}

/* ------------------------------------------------------------ the report */

static void print_top(const struct board *b, const struct model *m)
{
    struct board_iter it;
    struct player *p;
    size_t i = 0;
    printf("top %d:\n", TOP_K);
    SKIPLIST_FOREACH (board, b, it, p) {
        if (i == TOP_K)
            break;
        expect(PLAYER_KEY(p) == m->keys[i], "top-k");
        printf("  %2zu. player %5" PRIu32 "  %4" PRIu32 "  (%" PRIu32
               " games)\n",
               ++i, p->id, p->rating, p->games);
    }
}

/* One page, five players a line: place, id and rating. */
static void print_page(const struct board *b, const struct model *m,
                       size_t page)
{
    struct board_iter it;
    struct player *p;
    size_t first = (page - 1) * PAGE_SIZE, n = 0;
    printf("page %zu (places %zu-%zu), place:player/rating:", page, first + 1,
           first + PAGE_SIZE);
    SKIPLIST_FOREACH_AT (board, b, it, p, first) {
        if (n == PAGE_SIZE)
            break;
        expect(PLAYER_KEY(p) == m->keys[first + n], "page");
        printf("%s%zu:%" PRIu32 "/%" PRIu32, n % 5 ? "  " : "\n  ",
               first + n + 1, p->id, p->rating);
        n++;
    }
    printf("\n");
    expect(n == PAGE_SIZE, "page length");
}

/* A player's standing: place, shared rank, the tie and the percentile. */
static void print_standing(const struct board *b, const struct model *m,
                           const struct player *p)
{
    size_t place = place_of(b, p), rank = rank_of_rating(b, p->rating);
    size_t tied = rated_between(b, p->rating, p->rating);
    double pct = percentile(b, p->rating);
    size_t below = PLAYERS - m->at_least[p->rating];
    expect(place == m->pos[p->id] + 1, "place");
    expect(rank == m->at_least[p->rating + 1] + 1, "rank");
    expect(tied == m->at_least[p->rating] - m->at_least[p->rating + 1], "tie");
    expect(pct == 100.0 * (double)below / PLAYERS, "percentile");
    printf("player %" PRIu32 ": rating %" PRIu32 ", place %zu of %zu\n", p->id,
           p->rating, place, board_count(b));
    printf("  %zu players share rating %" PRIu32
           " (places %zu-%zu, by id); all of them rank %zu\n",
           tied, p->rating, rank, rank + tied - 1, rank);
    printf("  rated higher than %.2f%% of the players\n", pct);
}

static void print_ranges(const struct board *b, const struct model *m)
{
    static const uint32_t lo[] = {0, 1000, 1400, 2000},
                          hi[] = {999, 1399, 1599, RATING_MAX};
    printf("players by rating:");
    for (size_t i = 0; i < sizeof lo / sizeof lo[0]; i++) {
        size_t n = rated_between(b, lo[i], hi[i]);
        expect(n == m->at_least[lo[i]] - m->at_least[hi[i] + 1], "range");
        printf("  %" PRIu32 "-%" PRIu32 ": %zu", lo[i], hi[i], n);
    }
    /* The top 1% by place: what rating gets a player in, and how many
     * players that rating (ties included) lets in. */
    const struct player *cut = board_at(b, PLAYERS / 100 - 1);
    expect(cut && PLAYER_KEY(cut) == m->keys[PLAYERS / 100 - 1], "cut-off");
    if (cut)
        printf("\nplace %d (the top 1%%) is rated %" PRIu32
               "; %zu players are rated that or more\n",
               PLAYERS / 100, cut->rating,
               rated_between(b, cut->rating, RATING_MAX));
}

/* ------------------------------------------------------------------ main */

static int fail(const char *what)
{
    fprintf(stderr, "leaderboard: %s\n", what);
    return 1;
}

static int run_updates(struct board *b, struct player *ps, struct model *m,
                       double *secs)
{
    *secs = 0;
    for (size_t done = 0; done < UPDATES;) {
        clock_t t0 = clock();
        for (size_t n = 0; n < CHECK_EVERY; n++, done++) {
            struct player *p = &ps[pick_player()];
            if (submit(b, p, game_result(p->rating)))
                return -1;
        }
        *secs += (double)(clock() - t0) / CLOCKS_PER_SEC;
        check_all(b, ps, m, done);
    }
    return 0;
}

int main(void)
{
    struct player *ps = calloc(PLAYERS, sizeof *ps);
    struct model *m = malloc(sizeof *m);
    struct board b;
    double secs;
    if (!ps || !m || board_init(&b, NULL, 1) || load(&b, ps))
        return fail("out of memory");
    printf("loaded %d players rated 1000-1999, %.1f bytes of index each\n",
           PLAYERS, (double)board_bytes(&b) / PLAYERS);
    check_all(&b, ps, m, 0);

    /* rank_of of a player out of the board (between erase and insert). */
    expect(board_erase(&b, &ps[0]) == 0 &&
               board_rank_of(&b, &ps[0]) == -ENOENT &&
               board_insert(&b, &ps[0], NULL) == 0,
           "rank_of of an unlinked player");

    if (run_updates(&b, ps, m, &secs))
        return fail("an update failed");
    printf("%d rating updates (erase + insert) in %.0f ms, %.0f ns each\n",
           UPDATES, secs * 1e3, secs * 1e9 / UPDATES);

    print_top(&b, m);
    print_page(&b, m, PAGE);
    print_standing(&b, m, &ps[FEATURED]);
    print_ranges(&b, m);

    board_destroy(&b, NULL, NULL);
    free(m);
    free(ps);
    printf("self-checks: %s\n", failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}
