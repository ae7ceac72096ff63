/* batch_test.c: goal: batches own copies of their column types and names,
 * refuse duplicate or empty names and too many columns, seal only when
 * every column has the same row count within TY_BATCH_ROWS_MAX, and keep
 * a checked selection vector. */
#include "types_test_util.h"

static void test_columns(void **state) {
    (void)state;
    ty_batch *b;
    mu_err err;
    assert_int_equal(ty_batch_create(NULL, &b, &err), 0);
    mu_arena *scratch;
    assert_int_equal(mu_arena_create(&scratch, NULL, 1024, &err), 0);
    const ty_type *t;
    assert_int_equal(ty_type_parse("Array(Nullable(String))", scratch, &t, &err), 0);
    ty_column *c;
    assert_int_equal(ty_batch_add_column(b, "tags", t, &c, &err), 0);
    mu_arena_destroy(scratch); /* the batch holds its own copy of the type */
    tu_append(c, "['a',NULL]");
    assert_string_equal(tu_row_text(c, 0, 0), "['a',NULL]");
    assert_string_equal(tu_type_text(c->type), "Array(Nullable(String))");
    assert_ptr_equal(ty_batch_find_column(b, "tags"), c);
    assert_null(ty_batch_find_column(b, "tag"));
    assert_int_equal(ty_batch_add_column(b, "tags", tu_type("UInt8"), NULL, &err), MU_EEXISTS);
    assert_int_equal(ty_batch_add_column(b, "", tu_type("UInt8"), NULL, &err), MU_EINVAL);
    assert_int_equal(b->column_count, 1);
    ty_batch_destroy(b);
    ty_batch_destroy(NULL);
}

static void test_seal(void **state) {
    (void)state;
    ty_batch *b;
    mu_err err;
    ty_column *x, *y;
    assert_int_equal(ty_batch_create(NULL, &b, &err), 0);
    assert_int_equal(ty_batch_seal(b, &err), 0);
    assert_int_equal(b->row_count, 0);
    assert_int_equal(ty_batch_add_column(b, "x", tu_type("UInt8"), &x, &err), 0);
    assert_int_equal(ty_batch_add_column(b, "y", tu_type("String"), &y, &err), 0);
    tu_append(x, "1");
    assert_int_equal(ty_batch_seal(b, &err), MU_EINVAL);
    assert_non_null(strstr(err.message, "column y has 0 rows"));
    tu_append(y, "one");
    assert_int_equal(ty_batch_seal(b, &err), 0);
    assert_int_equal(b->row_count, 1);
    for (uint32_t i = 1; i <= TY_BATCH_ROWS_MAX; i++) {
        assert_int_equal(ty_column_append_default(x, &err), 0);
        assert_int_equal(ty_column_append_default(y, &err), 0);
    }
    assert_int_equal(ty_batch_seal(b, &err), MU_ETOO_LARGE);
    ty_batch_destroy(b);
}

static void test_selection(void **state) {
    (void)state;
    ty_batch *b;
    mu_err err;
    ty_column *x;
    assert_int_equal(ty_batch_create(NULL, &b, &err), 0);
    assert_int_equal(ty_batch_add_column(b, "x", tu_type("UInt8"), &x, &err), 0);
    for (int i = 0; i < 10; i++) tu_append(x, "5");
    assert_int_equal(ty_batch_seal(b, &err), 0);
    assert_int_equal(ty_batch_visible_rows(b), 10);
    uint32_t rows[] = {9, 0, 3};
    assert_int_equal(ty_batch_set_selection(b, rows, 3, &err), 0);
    assert_int_equal(ty_batch_visible_rows(b), 3);
    assert_int_equal(b->selection[0], 9);
    uint32_t bad[] = {1, 10};
    assert_int_equal(ty_batch_set_selection(b, bad, 2, &err), MU_EINVAL);
    assert_int_equal(ty_batch_visible_rows(b), 3); /* unchanged */
    assert_int_equal(ty_batch_set_selection(b, NULL, 0, &err), 0);
    assert_int_equal(ty_batch_visible_rows(b), 0);
    ty_batch_destroy(b);
}

static void test_column_limit(void **state) {
    (void)state;
    ty_batch *b;
    mu_err err;
    char name[16];
    assert_int_equal(ty_batch_create(NULL, &b, &err), 0);
    for (uint32_t i = 0; i < TY_BATCH_COLUMNS_MAX; i++) {
        snprintf(name, sizeof(name), "c%u", i);
        assert_int_equal(ty_batch_add_column(b, name, ty_type_builtin(TY_UINT8), NULL, &err), 0);
    }
    assert_int_equal(ty_batch_add_column(b, "more", ty_type_builtin(TY_UINT8), NULL, &err),
                     MU_ETOO_LARGE);
    ty_batch_destroy(b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_columns, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_seal, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_selection, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_column_limit, tu_setup, tu_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
