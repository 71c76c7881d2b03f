/* timer_queue.c: the priority-queue face as a timer queue with cancel.
 *
 * A connection's timers: arm (push), cancel (remove), re-arm an armed
 * timer with a new deadline (change the key, then requeue), and fire in
 * deadline order as the clock advances (peek, pop). Timers with equal
 * deadlines fire in the order they were armed; a requeue counts as a new
 * arming. The hook inside each timer is the queue's link, so cancel needs
 * no search. The firing order is checked against the one written below. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "skiplist.h"

struct timer {
    unsigned long deadline; /* ms: the key */
    const char *name;
    struct skiplist_hook hook; /* the queue's link */
};

#define TIMER_DEADLINE(t) ((t)->deadline)
SKIPLIST_PQ_DEFINE(tq, struct timer, unsigned long, TIMER_DEADLINE,
                   SKIPLIST_CMP_NUM, hook, SKIPLIST_PQ_DEFAULTS)

static int failures;

static void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "timer_queue: %s\n", what);
        failures++;
    }
}

static void arm(struct tq *q, struct timer *t, unsigned long deadline)
{
    t->deadline = deadline;
    expect(tq_push(q, t) == 0, "arm");
    printf("  arm     %-11s at %4lu ms\n", t->name, deadline);
}

static void rearm(struct tq *q, struct timer *t, unsigned long deadline)
{
    printf("  re-arm  %-11s %4lu -> %4lu ms\n", t->name, t->deadline, deadline);
    t->deadline = deadline; /* the key changes, then the queue hears of it */
    expect(tq_requeue(q, t) == 0, "requeue");
}

static void cancel(struct tq *q, struct timer *t)
{
    printf("  cancel  %-11s (was at %lu ms)\n", t->name, t->deadline);
    expect(tq_remove(q, t) == 0, "cancel");
}

int main(void)
{
    struct timer ack = {0, "ack-delay", {0}}, rtx = {0, "retransmit", {0}},
                 dns = {0, "dns-retry", {0}}, ka = {0, "keepalive", {0}},
                 idle = {0, "idle-close", {0}}, fa = {0, "flush-a", {0}},
                 fb = {0, "flush-b", {0}}, probe = {0, "probe", {0}};
    struct tq q;
    char why[128];
    if (tq_init(&q, NULL, 1))
        return 1;

    arm(&q, &rtx, 200);
    arm(&q, &ka, 1000);
    arm(&q, &dns, 300);
    arm(&q, &idle, 5000);
    arm(&q, &ack, 40);
    arm(&q, &fa, 300); /* same deadline as dns-retry: fires after it */
    arm(&q, &fb, 300);
    arm(&q, &probe, 700);
    expect(tq_push(&q, &ack) == -EEXIST, "arming an armed timer twice");

    cancel(&q, &idle);
    expect(tq_remove(&q, &idle) == -ENOENT, "cancelling twice");
    expect(!tq_queued(&idle), "a cancelled timer is not queued");
    cancel(&q, &probe);
    arm(&q, &probe, 250); /* a cancelled timer is armed again by push */
    rearm(&q, &ka, 300);  /* behind flush-b: requeue is a new arming */
    rearm(&q, &rtx, 600); /* backoff */
    printf("  %zu timers armed, next at %lu ms\n", tq_count(&q),
           tq_peek(&q)->deadline);

    /* The clock: fire whatever is due at each 50 ms step. */
    static const char *const want[] = {"ack-delay", "probe",   "dns-retry",
                                       "flush-a",   "flush-b", "keepalive",
                                       "retransmit"};
    size_t fired = 0;
    for (unsigned long now = 0; now <= 1000; now += 50) {
        struct timer *t;
        while ((t = tq_peek(&q)) != NULL && t->deadline <= now) {
            expect(tq_pop(&q) == t, "pop returns what peek showed");
            printf("  %4lu ms: fire %-11s (deadline %lu)\n", now, t->name,
                   t->deadline);
            expect(fired < sizeof want / sizeof want[0] &&
                       strcmp(t->name, want[fired]) == 0,
                   "firing order");
            expect(!tq_queued(t), "a fired timer is not queued");
            fired++;
        }
    }
    expect(fired == sizeof want / sizeof want[0], "every armed timer fired");
    expect(tq_empty(&q), "queue empty at the end");
    expect(tq_check(&q, why, sizeof why) == 0, why);
    tq_destroy(&q, NULL, NULL);
    printf("fired %zu timers in deadline order, equal deadlines FIFO; "
           "self-checks: %s\n",
           fired, failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}
