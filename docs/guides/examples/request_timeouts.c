/* request_timeouts.c: the example of docs/guides/priority-queue.md.
 *
 * A client's timeouts for outstanding requests, on the priority-queue
 * face: sending a request arms its timeout (push), a reply cancels it
 * (remove, through the hook in the request: no search), a timeout that
 * fires is retried with a doubled timeout (change the key, push again),
 * and a server's "busy, wait" extends a timeout in place (change the key,
 * requeue). The event loop asks the queue for the earliest timeout (peek)
 * and fires what is due (pop). Simulated time, fixed seed; every pop is
 * checked against a scan of all requests for the earliest armed deadline
 * (equal deadlines: the earliest armed first). Exit status 0 only when
 * every check passed. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "skiplist.h"

/* [define] */
struct request {
    uint64_t deadline_us;      /* the key: changes only while not queued,
                                * or right before a requeue */
    struct skiplist_hook hook; /* the queue's link inside the request */
    unsigned id, tries;
    uint64_t armed_seq; /* for the checks: arming order */
    bool done;
};

#define REQUEST_DEADLINE(r) ((r)->deadline_us)
SKIPLIST_PQ_DEFINE(timeouts, struct request, uint64_t, REQUEST_DEADLINE,
                   SKIPLIST_CMP_NUM, hook, SKIPLIST_PQ_DEFAULTS)
/* [define] */

#define NREQ 500u
#define BASE_TIMEOUT_US 20000u
#define MAX_TRIES 3u

static struct request req[NREQ];
static uint64_t seq;
static int failures;

static void expect(bool ok, const char *what)
{
    if (!ok && failures++ < 10)
        fprintf(stderr, "request_timeouts: FAILED: %s\n", what);
}

static uint64_t rng = 99;
static uint64_t rnd(uint64_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng % n;
}

/* [arm] */
static int arm(struct timeouts *q, struct request *r, uint64_t now)
{
    r->deadline_us = now + ((uint64_t)BASE_TIMEOUT_US << r->tries);
    r->armed_seq = ++seq;
    return timeouts_push(q, r); /* 0, -EEXIST if armed already, -ENOMEM */
}
/* [arm] */

/* The model: the armed request that must fire first, by scanning all. */
static const struct request *model_first(void)
{
    const struct request *best = NULL;
    for (unsigned i = 0; i < NREQ; i++) {
        const struct request *r = &req[i];
        if (!timeouts_queued(r))
            continue;
        if (!best || r->deadline_us < best->deadline_us ||
            (r->deadline_us == best->deadline_us &&
             r->armed_seq < best->armed_seq))
            best = r;
    }
    return best;
}

int main(void)
{
    struct timeouts q;
    if (timeouts_init(&q, NULL, 3) != 0)
        return 1;

    unsigned sent = 0, replies = 0, retries = 0, extended = 0, gave_up = 0;
    uint64_t now = 0;
    /* Every 1 ms: send a few requests, receive a few replies, fire what is
     * due. */
    for (unsigned tick = 0; tick < 250; tick++, now += 1000) {
        for (unsigned k = 0; k < 3 && sent < NREQ; k++, sent++) {
            req[sent].id = sent;
            if (arm(&q, &req[sent], now) != 0)
                return 1;
        }
        for (unsigned k = 0; k < 3 && sent > 0; k++) {
            struct request *r = &req[rnd(sent)];
            if (r->done || !timeouts_queued(r))
                continue;
            if (rnd(4) == 0) {
                /* [extend] */
                /* "Busy, retry later": push the deadline out in place. */
                r->deadline_us += 5000;
                r->armed_seq = ++seq; /* a requeue counts as a new arming */
                if (timeouts_requeue(&q, r) != 0)
                    return 1;
                /* [extend] */
                extended++;
                continue;
            }
            /* [cancel] */
            /* The reply arrived: cancel through the request's own hook. */
            if (timeouts_remove(&q, r) != 0)
                return 1;
            r->done = true;
            /* [cancel] */
            replies++;
        }
        /* [fire] */
        struct request *r;
        while ((r = timeouts_peek(&q)) != NULL && r->deadline_us <= now) {
            expect(r == model_first(), "the earliest armed timeout fires");
            expect(timeouts_pop(&q) == r, "pop returns what peek showed");
            if (++r->tries < MAX_TRIES) {
                if (arm(&q, r, now) != 0) /* resend, doubled timeout */
                    return 1;
                retries++;
            } else {
                r->done = true; /* give up */
                gave_up++;
            }
        }
        /* [fire] */
    }

    /* [errors] */
    struct request *armed = timeouts_peek(&q);
    struct request *fresh = &req[0]; /* done long ago: not queued */
    int rc_twice = armed ? timeouts_push(&q, armed) : 0;
    int rc_gone = timeouts_remove(&q, fresh);
    printf("arm an armed request: %s; cancel a finished one: %s\n",
           rc_twice == -EEXIST ? "-EEXIST" : "unexpected",
           rc_gone == -ENOENT ? "-ENOENT" : "unexpected");
    /* [errors] */
    expect(armed != NULL && rc_twice == -EEXIST, "double arm refused");
    expect(req[0].done && rc_gone == -ENOENT, "cancel of a finished request");

    printf("%u requests: %u replies, %u retries, %u extended, %u gave up, "
           "%zu still waiting at %" PRIu64 " ms\n",
           sent, replies, retries, extended, gave_up, timeouts_count(&q),
           now / 1000);
    size_t waiting = 0;
    for (unsigned i = 0; i < NREQ; i++)
        waiting += timeouts_queued(&req[i]);
    expect(waiting == timeouts_count(&q), "queued() agrees with count()");
    expect(replies + gave_up + waiting == sent, "every request accounted for");
    expect(retries > 0 && extended > 0 && gave_up > 0, "every path ran");

    char why[128];
    expect(timeouts_check(&q, why, sizeof why) == 0, why);
    /* [drain] */
    /* Shut down: fire nothing, just unlink what is left (destroy's callback
     * could free each request; these are static). */
    timeouts_destroy(&q, NULL, NULL);
    /* [drain] */
    printf("request_timeouts: %s\n",
           failures ? "checks FAILED" : "all checks passed");
    return failures ? 1 : 0;
}
