/* ordered_index.c: the ordered-index face on a real workload.
 *
 * A session store keyed by expiry time (a multimap: many sessions expire in
 * the same second) plus a unique index by session id. It loads 200,000
 * sessions, answers "who expires in this window" range queries, finds the
 * next expiry after a moment (upper bound) and the last one before it
 * (floor), renews sessions (erase + re-insert with a new key), then expires
 * everything older than a cut-off with FOREACH_SAFE, checking both indexes
 * against each other at the end. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "skiplist.h"

struct session {
    uint64_t id;
    uint64_t expires; /* seconds */
    unsigned user;
};

#define BY_EXPIRY(s) ((s)->expires)
#define BY_ID(s) ((s)->id)
SKIPLIST_DEFINE(by_expiry, struct session, uint64_t, BY_EXPIRY,
                SKIPLIST_CMP_NUM, SKIPLIST_DEFAULTS)
SKIPLIST_DEFINE(by_id, struct session, uint64_t, BY_ID, SKIPLIST_CMP_NUM,
                SKIPLIST_DEFAULTS)

enum { SESSIONS = 200000, HORIZON = 86400 };

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int fail(const char *what)
{
    fprintf(stderr, "ordered_index: %s\n", what);
    return 1;
}

int main(void)
{
    struct session *s = calloc(SESSIONS, sizeof *s);
    struct by_expiry exp;
    struct by_id ids;
    char why[128];
    if (!s || by_expiry_init(&exp, NULL, 1) || by_id_init(&ids, NULL, 2))
        return fail("out of memory");

    /* Load: ids are unique random 64-bit values, expiries collide. */
    size_t dup_ids = 0;
    for (unsigned i = 0; i < SESSIONS; i++) {
        s[i].id = next_rand();
        s[i].expires = next_rand() % HORIZON;
        s[i].user = (unsigned)(next_rand() % 5000);
        if (by_id_insert(&ids, &s[i], NULL) == -EEXIST) {
            dup_ids++;
            continue;
        }
        if (by_expiry_insert_multi(&exp, &s[i]))
            return fail("insert failed");
    }
    printf("loaded %zu sessions (%zu duplicate ids rejected), %.1f bytes "
           "of index per session\n",
           by_expiry_count(&exp), dup_ids,
           (double)(by_expiry_bytes(&exp) + by_id_bytes(&ids)) /
               (double)by_expiry_count(&exp));

    /* Range query: sessions expiring in [3600, 3660). */
    struct by_expiry_iter it;
    struct session *e;
    size_t in_window = 0;
    SKIPLIST_FOREACH_FROM (by_expiry, &exp, it, e, 3600) {
        if (e->expires >= 3660)
            break;
        in_window++;
    }
    printf("expiring in the minute after 01:00:00: %zu sessions\n", in_window);

    struct session *nxt = by_expiry_upper_bound(&exp, 43200);
    struct session *prv = by_expiry_floor(&exp, 43200);
    if (!nxt || !prv)
        return fail("bounds");
    printf("around noon: last expiry at or before %" PRIu64
           " s, next after %" PRIu64 " s\n",
           prv->expires, nxt->expires);

    /* Renew every session of user 42: new key means erase + insert. */
    size_t renewed = 0;
    for (unsigned i = 0; i < SESSIONS; i++) {
        if (s[i].user != 42 || by_id_find(&ids, s[i].id) != &s[i])
            continue;
        if (by_expiry_erase(&exp, &s[i]))
            return fail("erase");
        s[i].expires += HORIZON; /* pushed a day out */
        if (by_expiry_insert_multi(&exp, &s[i]))
            return fail("re-insert");
        renewed++;
    }
    printf("renewed %zu sessions of user 42; latest expiry now %" PRIu64 " s\n",
           renewed, by_expiry_last(&exp)->expires);

    /* Expire everything before 6 hours, erasing while iterating. */
    struct session *tmp;
    size_t expired = 0;
    SKIPLIST_FOREACH_SAFE (by_expiry, &exp, it, e, tmp) {
        if (e->expires >= 6 * 3600)
            break;
        if (by_expiry_erase(&exp, e) || by_id_erase(&ids, e))
            return fail("expire");
        expired++;
    }
    printf("expired %zu sessions older than 06:00:00, %zu remain\n", expired,
           by_expiry_count(&exp));

    /* The two indexes must agree, in both directions. */
    if (by_expiry_check(&exp, why, sizeof why) ||
        by_id_check(&ids, why, sizeof why))
        return fail(why);
    if (by_expiry_count(&exp) != by_id_count(&ids))
        return fail("index sizes differ");
    uint64_t prev_exp = 0;
    SKIPLIST_FOREACH (by_expiry, &exp, it, e) {
        if (e->expires < prev_exp || by_id_find(&ids, e->id) != e)
            return fail("indexes disagree");
        prev_exp = e->expires;
    }
    struct session *first = by_expiry_first(&exp);
    printf("first remaining expiry %" PRIu64
           " s; both indexes consistent, check() clean\n",
           first ? first->expires : 0);

    by_expiry_destroy(&exp, NULL, NULL);
    by_id_destroy(&ids, NULL, NULL);
    free(s);
    return 0;
}
