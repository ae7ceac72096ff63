/* lowcard_test.c: goal: a LowCardinality column keeps each value once in
 * its dictionary (entry 0 is the default, so NULL rows and empty strings
 * use it), indexes point at the right values through many index resizes,
 * FixedString values are padded before lookup, and clearing the column
 * resets the dictionary to its default entry. */
#include "types_test_util.h"

static uint32_t index_at(const ty_column *c, uint32_t row) {
    return mu_load_u32le(ty_column_values(c) + (size_t)row * 4);
}

static void test_dedup(void **state) {
    (void)state;
    ty_column *c = tu_column("LowCardinality(Nullable(String))");
    mu_err err;
    char text[32];
    for (int i = 0; i < 10000; i++) {
        if (i % 10 == 9) {
            assert_int_equal(ty_column_append_null(c, &err), 0);
            continue;
        }
        snprintf(text, sizeof(text), "value-%d", i % 100);
        tu_append(c, text);
    }
    const ty_column *dictionary = ty_column_child(c, 0);
    assert_int_equal(ty_column_row_count(dictionary), 91); /* 90 values + default */
    assert_int_equal(ty_column_row_count(c), 10000);
    for (uint32_t i = 0; i < 10000; i++) {
        if (i % 10 == 9) {
            assert_true(ty_column_is_null(c, i));
            assert_int_equal(index_at(c, i), 0);
            continue;
        }
        snprintf(text, sizeof(text), "value-%u", i % 100);
        assert_string_equal(tu_row_text(c, i, 0), text);
    }
    tu_append(c, "");
    assert_int_equal(index_at(c, 10000), 0); /* the default entry */
    assert_int_equal(ty_column_row_count(dictionary), 91);
    assert_int_equal(ty_column_validate(c, &err), 0);
    ty_column_destroy(c);
}

static void test_many_distinct(void **state) {
    (void)state;
    ty_column *c = tu_column("LowCardinality(UInt64)");
    mu_err err;
    for (uint64_t round = 0; round < 2; round++) {
        for (uint64_t v = 1; v <= 50000; v++)
            assert_int_equal(ty_column_append_value(c, &v, &err), 0);
    }
    assert_int_equal(ty_column_row_count(ty_column_child(c, 0)), 50001);
    for (uint32_t row = 0; row < 100000; row++) assert_int_equal(index_at(c, row), row % 50000 + 1);
    uint64_t zero = 0;
    assert_int_equal(ty_column_append_value(c, &zero, &err), 0);
    assert_int_equal(index_at(c, 100000), 0);
    assert_int_equal(ty_column_append_bytes(c, "abc", 3, &err), MU_EINVAL);
    assert_int_equal(ty_column_row_count(c), 100001);
    assert_int_equal(ty_column_validate(c, &err), 0);
    ty_column_destroy(c);
}

static void test_fixed_string_padding(void **state) {
    (void)state;
    ty_column *c = tu_column("LowCardinality(FixedString(3))");
    mu_err err;
    assert_int_equal(ty_column_append_bytes(c, "a", 1, &err), 0);
    assert_int_equal(ty_column_append_bytes(c, "a\0\0", 3, &err), 0);
    assert_int_equal(ty_column_append_bytes(c, "a\0", 2, &err), 0);
    assert_int_equal(ty_column_append_bytes(c, "", 0, &err), 0);
    assert_int_equal(ty_column_append_bytes(c, "abcd", 4, &err), MU_EPARSE);
    assert_int_equal(index_at(c, 0), 1);
    assert_int_equal(index_at(c, 1), 1);
    assert_int_equal(index_at(c, 2), 1);
    assert_int_equal(index_at(c, 3), 0);
    assert_int_equal(ty_column_row_count(ty_column_child(c, 0)), 2);
    assert_int_equal(ty_column_row_count(c), 4);
    ty_column_destroy(c);
}

static void test_clear(void **state) {
    (void)state;
    ty_column *c = tu_column("LowCardinality(String)");
    mu_err err;
    tu_append(c, "a");
    tu_append(c, "b");
    ty_column_clear(c);
    assert_int_equal(ty_column_row_count(c), 0);
    assert_int_equal(ty_column_row_count(ty_column_child(c, 0)), 1);
    tu_append(c, "b");
    tu_append(c, "b");
    assert_int_equal(index_at(c, 0), 1);
    assert_int_equal(index_at(c, 1), 1);
    assert_string_equal(tu_row_text(c, 1, 0), "b");
    assert_int_equal(ty_column_validate(c, &err), 0);
    assert_int_equal(ty_column_append_null(c, &err), MU_ETYPE);
    ty_column_destroy(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_dedup, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_many_distinct, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_fixed_string_padding, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_clear, tu_setup, tu_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
