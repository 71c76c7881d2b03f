/*
 * Bad input, ordered-index face: every documented misuse and the exact
 * error it gets, each on a populated list that must come out unchanged
 * (check(), a full comparison with the model, count and bytes).
 * The must-fail-to-compile half (bad KPN, MAXLVL, PSHIFT) is in
 * test_build_compile_fail.c.
 */
#include <criterion/criterion.h>

#include "test_common.h"
#include "model_map.h"

SKIPLIST_DEFINE(b_k1, struct map_item, uint64_t, MAP_ITEM_KEY, SKIPLIST_CMP_NUM,
                1, 16, 1)
SKIPLIST_DEFINE(b_k4, struct map_item, uint64_t, MAP_ITEM_KEY, SKIPLIST_CMP_NUM,
                4, 8, 2)
SKIPLIST_DEFINE(b_def, struct map_item, uint64_t, MAP_ITEM_KEY,
                SKIPLIST_CMP_NUM, SKIPLIST_DEFAULTS)

MAP_OPS_DEFINE(b_k1, "k1_l16_p1", false);
MAP_OPS_DEFINE(b_k4, "k4_l8_p2", false);
MAP_OPS_DEFINE(b_def, "defaults", false);

enum { N = 300 };

/* The fixture: a list with keys 10, 20, ..., 2970 and three more 1000s
 * (a run of four), and another list holding one element of its own. */
struct fx {
    const struct map_ops *o;
    void *sl, *other;
    struct model_map m;
    struct map_item items[N], other_item, stranger_same_key, stranger_new_key,
        erased;
    struct map_item *buf[N + 8];
    struct tc_alloc ta;
    size_t bytes;
};

static void fx_setup(struct fx *f, const struct map_ops *o)
{
    memset(f, 0, sizeof(*f));
    f->o = o;
    f->sl = malloc(o->size);
    f->other = malloc(o->size);
    cr_assert(f->sl && f->other);
    tc_alloc_init(&f->ta);
    mm_init(&f->m, false);
    cr_assert_eq(o->init(f->sl, &f->ta.iface, 1), 0);
    cr_assert_eq(o->init(f->other, NULL, 2), 0);
    for (size_t i = 0; i < N; i++) {
        struct map_item *e = &f->items[i];
        e->key = i < N - 3 ? 10 * (i + 1) : 1000;
        cr_assert_eq(o->insert_multi(f->sl, e), 0);
        mm_insert_multi(&f->m, e);
    }
    f->other_item.key = 20;
    cr_assert_eq(o->insert(f->other, &f->other_item, NULL), 0);
    f->stranger_same_key.key = 500;
    f->stranger_new_key.key = 505;
    f->erased.key = 5;
    cr_assert_eq(o->insert(f->sl, &f->erased, NULL), 0);
    cr_assert_eq(o->erase(f->sl, &f->erased), 0);
    f->bytes = o->bytes(f->sl);
}

static void fx_expect_unchanged(struct fx *f, const char *row)
{
    char why[256] = "";
    cr_assert_eq(f->o->check(f->sl, why, sizeof(why)), 0, "[%s %s] check: %s",
                 f->o->label, row, why);
    cr_assert_eq(f->o->count(f->sl), f->m.n, "[%s %s] count changed",
                 f->o->label, row);
    cr_assert_eq(f->o->bytes(f->sl), f->bytes, "[%s %s] bytes changed",
                 f->o->label, row);
    size_t n = f->o->loop(f->sl, MAP_FE_FWD, 0, 0, 0, f->buf, N + 8);
    cr_assert_eq(n, f->m.n, "[%s %s] length changed", f->o->label, row);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(f->buf[i], f->m.v[i], "[%s %s] element %zu changed",
                     f->o->label, row, i);
    cr_assert_eq(f->o->count(f->other), 1, "[%s %s] other list touched",
                 f->o->label, row);
    cr_assert_eq(f->o->first(f->other), &f->other_item);
}

static void fx_teardown(struct fx *f)
{
    f->o->destroy(f->sl, NULL, NULL);
    f->o->destroy(f->other, NULL, NULL);
    cr_assert_eq(f->ta.live, 0);
    cr_assert_eq(f->ta.bad_frees, 0);
    mm_free(&f->m);
    free(f->sl);
    free(f->other);
}

/* One row of the table: the call, and what it must return. */
struct bad_row {
    const char *name;
    int want;
    int (*run)(struct fx *f);
};

static struct map_item *const POISON = (struct map_item *)&POISON;

static int r_insert_null(struct fx *f)
{
    struct map_item *ex = POISON;
    int rc = f->o->insert(f->sl, NULL, &ex);
    cr_assert_eq(ex, POISON, "-EINVAL must not write *existing");
    return rc;
}

static int r_insert_null_noout(struct fx *f)
{
    return f->o->insert(f->sl, NULL, NULL);
}

static int r_insert_multi_null(struct fx *f)
{
    return f->o->insert_multi(f->sl, NULL);
}

static int r_erase_null(struct fx *f)
{
    return f->o->erase(f->sl, NULL);
}

static int r_erase_stranger_same_key(struct fx *f)
{
    return f->o->erase(f->sl, &f->stranger_same_key);
}

static int r_erase_stranger_new_key(struct fx *f)
{
    return f->o->erase(f->sl, &f->stranger_new_key);
}

static int r_erase_erased(struct fx *f)
{
    return f->o->erase(f->sl, &f->erased);
}

static int r_erase_other_lists(struct fx *f)
{
    return f->o->erase(f->sl, &f->other_item);
}

static int r_erase_key_absent_between(struct fx *f)
{
    struct map_item *out = POISON;
    int rc = f->o->erase_key(f->sl, 15, &out);
    cr_assert_eq(out, POISON, "-ENOENT must not write *out");
    return rc;
}

static int r_erase_key_absent_below(struct fx *f)
{
    return f->o->erase_key(f->sl, 0, NULL);
}

static int r_erase_key_absent_above(struct fx *f)
{
    return f->o->erase_key(f->sl, UINT64_MAX, NULL);
}

static int r_insert_duplicate(struct fx *f)
{
    struct map_item dup = {.key = 500}, *ex = NULL;
    int rc = f->o->insert(f->sl, &dup, &ex);
    cr_assert_eq(ex, &f->items[49], "*existing is not the element with 500");
    return rc;
}

static int r_insert_duplicate_noout(struct fx *f)
{
    struct map_item dup = {.key = 10};
    return f->o->insert(f->sl, &dup, NULL);
}

static int r_insert_duplicate_in_run(struct fx *f)
{
    struct map_item dup = {.key = 1000}, *ex = NULL;
    int rc = f->o->insert(f->sl, &dup, &ex);
    cr_assert(ex && ex->key == 1000 && mm_index_of(&f->m, ex) != SIZE_MAX,
              "*existing is not one of the elements with 1000");
    return rc;
}

static int r_insert_itself_again(struct fx *f)
{
    struct map_item *ex = NULL;
    int rc = f->o->insert(f->sl, &f->items[7], &ex);
    cr_assert_eq(ex, &f->items[7]);
    return rc;
}

static const struct bad_row rows[] = {
    {"insert(NULL)", -EINVAL, r_insert_null},
    {"insert(NULL, no out)", -EINVAL, r_insert_null_noout},
    {"insert_multi(NULL)", -EINVAL, r_insert_multi_null},
    {"erase(NULL)", -EINVAL, r_erase_null},
    {"erase(absent, key present)", -ENOENT, r_erase_stranger_same_key},
    {"erase(absent, key absent)", -ENOENT, r_erase_stranger_new_key},
    {"erase(already erased)", -ENOENT, r_erase_erased},
    {"erase(element of another list)", -ENOENT, r_erase_other_lists},
    {"erase_key(absent, between)", -ENOENT, r_erase_key_absent_between},
    {"erase_key(absent, below all)", -ENOENT, r_erase_key_absent_below},
    {"erase_key(absent, above all)", -ENOENT, r_erase_key_absent_above},
    {"insert(duplicate)", -EEXIST, r_insert_duplicate},
    {"insert(duplicate, no out)", -EEXIST, r_insert_duplicate_noout},
    {"insert(duplicate of a run)", -EEXIST, r_insert_duplicate_in_run},
    {"insert(element already in)", -EEXIST, r_insert_itself_again},
};

static void run_table(const struct map_ops *o)
{
    /* Static: the fixture holds a few hundred elements. */
    static struct fx f;
    for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
        fx_setup(&f, o);
        int rc = rows[r].run(&f);
        cr_assert_eq(rc, rows[r].want, "[%s] %s returned %d, want %d", o->label,
                     rows[r].name, rc, rows[r].want);
        fx_expect_unchanged(&f, rows[r].name);
        /* The same misuse twice in a row changes nothing either. */
        rc = rows[r].run(&f);
        cr_assert_eq(rc, rows[r].want, "[%s] %s (again) returned %d", o->label,
                     rows[r].name, rc);
        fx_expect_unchanged(&f, rows[r].name);
        fx_teardown(&f);
    }
}

Test(map_badinput, table_k1)
{
    run_table(&b_k1_ops);
}

Test(map_badinput, table_k4)
{
    run_table(&b_k4_ops);
}

Test(map_badinput, table_defaults)
{
    run_table(&b_def_ops);
}

/* Misuse of an empty list: absent everything, nothing to pop. */
Test(map_badinput, empty_list)
{
    struct b_def sl;
    struct map_item e = {.key = 3}, *out = POISON;
    cr_assert_eq(b_def_init(&sl, NULL, 3), 0);
    cr_assert_eq(b_def_erase(&sl, &e), -ENOENT);
    cr_assert_eq(b_def_erase(&sl, NULL), -EINVAL);
    cr_assert_eq(b_def_erase_key(&sl, 3, &out), -ENOENT);
    cr_assert_eq(out, POISON);
    cr_assert_null(b_def_pop_first(&sl));
    cr_assert_null(b_def_pop_last(&sl));
    cr_assert_eq(b_def_insert(&sl, NULL, NULL), -EINVAL);
    cr_assert_eq(b_def_insert_multi(&sl, NULL), -EINVAL);
    cr_assert(b_def_empty(&sl));
    char why[128] = "";
    cr_assert_eq(b_def_check(&sl, why, sizeof(why)), 0, "%s", why);
    b_def_destroy(&sl, NULL, NULL);
}
