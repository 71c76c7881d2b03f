/* string_map.c: the ordered index with string keys, name -> struct.
 *
 * K_T is const char * and the comparator is strcmp itself: the list keeps
 * a copy of each element's key pointer and compares what it points to, so
 * a lookup may use any buffer holding the same text. The strings must not
 * change (or be freed) while their element is linked. The program loads a
 * table of network services, looks names up, lists them in order, scans
 * every name with a prefix (lower_bound, then walk while the prefix
 * matches), erases two, and checks the result against a sorted copy. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skiplist.h"

struct service {
    const char *name; /* the key */
    unsigned port;
};

#define SERVICE_NAME(s) ((s)->name)
SKIPLIST_DEFINE(svc, struct service, const char *, SERVICE_NAME, strcmp,
                SKIPLIST_DEFAULTS)

static struct service table[] = {
    {"ssh", 22},    {"http", 80},        {"https", 443}, {"smtp", 25},
    {"smtps", 465}, {"submission", 587}, {"imap", 143},  {"imaps", 993},
    {"pop3", 110},  {"pop3s", 995},      {"domain", 53}, {"ntp", 123},
    {"snmp", 161},  {"snmptrap", 162},   {"ftp", 21},    {"ftp-data", 20},
    {"telnet", 23}, {"ldap", 389},       {"ldaps", 636},
};
#define NSVC (sizeof table / sizeof table[0])

static int failures;

static void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "string_map: %s\n", what);
        failures++;
    }
}

/* Every name with this prefix, in order: start at the first name >= the
 * prefix and stop at the first that does not start with it. */
static size_t prefix_scan(const struct svc *m, const char *prefix)
{
    struct svc_iter it;
    struct service *s;
    size_t n = 0, len = strlen(prefix);
    printf("  prefix \"%s\":", prefix);
    SKIPLIST_FOREACH_FROM (svc, m, it, s, prefix) {
        if (strncmp(s->name, prefix, len) != 0)
            break;
        printf(" %s/%u", s->name, s->port);
        n++;
    }
    printf("  (%zu)\n", n);
    return n;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(void)
{
    struct svc m;
    char why[128];
    if (svc_init(&m, NULL, 1))
        return 1;

    for (size_t i = 0; i < NSVC; i++)
        expect(svc_insert(&m, &table[i], NULL) == 0, "insert");
    struct service dup = {"ssh", 2222}, *have = NULL;
    expect(svc_insert(&m, &dup, &have) == -EEXIST && have == &table[0],
           "a second \"ssh\" is refused and the first one returned");
    printf("loaded %zu services; a second \"ssh\" (port %u) refused: "
           "\"ssh\" is port %u\n",
           svc_count(&m), dup.port, have ? have->port : 0);

    /* A key in another buffer: strcmp compares text, not addresses. */
    char query[16];
    snprintf(query, sizeof query, "%s", "smtp");
    struct service *s = svc_find(&m, query);
    printf("find(\"%s\") = %s/%u; find(\"gopher\") = %s\n", query,
           s ? s->name : "-", s ? s->port : 0,
           svc_find(&m, "gopher") ? "found" : "NULL");
    expect(s && s->port == 25 && !svc_find(&m, "gopher"), "find");

    printf("in order:");
    struct svc_iter it;
    SKIPLIST_FOREACH (svc, &m, it, s)
        printf(" %s", s->name);
    printf("\n");

    expect(prefix_scan(&m, "smtp") == 2, "prefix smtp");
    expect(prefix_scan(&m, "pop") == 2, "prefix pop");
    expect(prefix_scan(&m, "ftp") == 2, "prefix ftp");
    expect(prefix_scan(&m, "x") == 0, "prefix x");

    /* Erase by key (the element comes back) and by element. */
    struct service *out = NULL;
    expect(svc_erase_key(&m, "telnet", &out) == 0 && out->port == 23,
           "erase_key");
    s = svc_find(&m, "ftp");
    expect(s && svc_erase(&m, s) == 0, "erase ftp");
    expect(svc_erase_key(&m, "telnet", &out) == -ENOENT, "erase twice");
    s = svc_lower_bound(&m, "ftp");
    printf("erased telnet (by key) and ftp (by element); first name >= "
           "\"ftp\" is now %s\n",
           s ? s->name : "-");
    expect(s && strcmp(s->name, "ftp-data") == 0, "lower_bound after erase");

    /* The map against a sorted copy of the names it should hold. */
    const char *names[NSVC];
    size_t n = 0;
    for (size_t i = 0; i < NSVC; i++)
        if (strcmp(table[i].name, "ftp") && strcmp(table[i].name, "telnet"))
            names[n++] = table[i].name;
    qsort(names, n, sizeof names[0], by_name);
    size_t k = 0;
    SKIPLIST_FOREACH (svc, &m, it, s)
        expect(k < n && strcmp(s->name, names[k++]) == 0, "order");
    expect(k == n && svc_count(&m) == n, "count");
    expect(svc_check(&m, why, sizeof why) == 0, why);

    svc_destroy(&m, NULL, NULL);
    printf("%zu services remain, in strcmp order; self-checks: %s\n", n,
           failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}
