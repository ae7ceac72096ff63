/* column_ops_test.c: goal: copying rows between columns preserves values
 * for every type (NULLs, nested arrays, maps, dictionary values into a
 * different dictionary), row equality is value equality (NULL = NULL,
 * NaN = NaN, +0 = -0, dictionary values not indexes), mismatched types
 * are refused, and validation catches each kind of broken invariant. */
#include "types_test_util.h"

typedef struct rows_case {
    const char *type;
    const char *rows[4]; /* NULL entry: a NULL row */
    bool first_equals_last;
} rows_case;

static const rows_case cases[] = {
    {"UInt64", {"1", "18446744073709551615", "0", "7"}, false},
    {"Nullable(Float64)", {"1.5", NULL, "-0", "nan"}, false},
    {"String", {"a", "", "b\tc", "a"}, true},
    {"FixedString(3)", {"a", "abc", "", "ab"}, false},
    {"Nullable(DateTime64(3, 'Europe/Berlin'))",
     {"2024-01-01 00:00:00.1", NULL, "0", "1.5"}, false},
    {"Decimal(38, 10)", {"1.5", "-1", "0", "9999999999999999999999999999.9999999999"}, false},
    {"Enum16('a' = -1, 'b' = 1000)", {"a", "b", "b", "a"}, true},
    {"UUID", {"61f0c404-5cb3-11e7-907b-a6006ad3dba0", "00000000-0000-0000-0000-000000000000",
              "61f0c404-5cb3-11e7-907b-a6006ad3dba0",
              "ffffffff-ffff-ffff-ffff-ffffffffffff"}, false},
    {"LowCardinality(String)", {"x", "y", "x", ""}, false},
    {"LowCardinality(Nullable(String))", {"x", NULL, "z", "x"}, true},
    {"LowCardinality(FixedString(2))", {"x", "yy", "x", ""}, false},
    {"LowCardinality(Nullable(UInt16))", {"1", NULL, "65535", "1"}, true},
    {"Array(Nullable(String))", {"['a',NULL]", "[]", "[NULL]", "['a',NULL]"}, true},
    {"Array(Array(Int8))", {"[[1],[]]", "[]", "[[]]", "[[-128,127]]"}, false},
    {"Map(String, Array(LowCardinality(Nullable(String))))",
     {"{'k':['v',NULL]}", "{}", "{'a':[],'b':['x']}", "{'k':['v',NULL]}"}, true},
};

static ty_column *build(const rows_case *rc) {
    ty_column *c = tu_column(rc->type);
    for (int i = 0; i < 4; i++) {
        mu_err err;
        if (rc->rows[i] == NULL)
            assert_int_equal(ty_column_append_null(c, &err), 0);
        else
            tu_append(c, rc->rows[i]);
    }
    return c;
}

static void test_copy_rows(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        ty_column *src = build(&cases[i]), *dst = tu_column(cases[i].type);
        mu_err err;
        /* Reverse order, so dictionary indexes differ between the columns. */
        for (int r = 3; r >= 0; r--)
            assert_int_equal(ty_column_append_from(dst, src, (uint32_t)r, &err), 0);
        assert_int_equal(ty_column_validate(dst, &err), 0);
        for (uint32_t r = 0; r < 4; r++) {
            assert_true(ty_column_equal_row(src, r, dst, 3 - r));
            char *expected = strdup(tu_row_text(src, r, 0));
            assert_string_equal(tu_row_text(dst, 3 - r, 0), expected);
            free(expected);
        }
        assert_int_equal(ty_column_equal_row(src, 0, src, 3), cases[i].first_equals_last);
        ty_column_destroy(src);
        ty_column_destroy(dst);
    }
}

static void test_equality_details(void **state) {
    (void)state;
    ty_column *c = tu_column("Nullable(Float64)");
    mu_err err;
    tu_append(c, "nan");
    tu_append(c, "-nan");
    tu_append(c, "0");
    tu_append(c, "-0");
    assert_int_equal(ty_column_append_null(c, &err), 0);
    assert_int_equal(ty_column_append_null(c, &err), 0);
    assert_true(ty_column_equal_row(c, 0, c, 1));
    assert_true(ty_column_equal_row(c, 2, c, 3));
    assert_true(ty_column_equal_row(c, 4, c, 5));
    assert_false(ty_column_equal_row(c, 2, c, 4));
    assert_false(ty_column_equal_row(c, 0, c, 2));
    ty_column_destroy(c);

    c = tu_column("Array(String)");
    tu_append(c, "['a','b']");
    tu_append(c, "['a']");
    tu_append(c, "['a','c']");
    tu_append(c, "['a','b']");
    assert_false(ty_column_equal_row(c, 0, c, 1));
    assert_false(ty_column_equal_row(c, 0, c, 2));
    assert_true(ty_column_equal_row(c, 0, c, 3));
    ty_column_destroy(c);
}

static void test_type_mismatch(void **state) {
    (void)state;
    ty_column *a = tu_column("Array(UInt8)"), *b = tu_column("Array(UInt16)");
    mu_err err;
    tu_append(a, "[1]");
    assert_int_equal(ty_column_append_from(b, a, 0, &err), MU_ETYPE);
    assert_int_equal(ty_column_row_count(b), 0);
    ty_column *n = tu_column("Nullable(UInt8)"), *u = tu_column("UInt8");
    assert_int_equal(ty_column_append_null(n, &err), 0);
    assert_int_equal(ty_column_append_from(u, n, 0, &err), MU_ETYPE);
    ty_column_destroy(a);
    ty_column_destroy(b);
    ty_column_destroy(n);
    ty_column_destroy(u);
}

/* Breaks one invariant by hand and expects MU_ECORRUPT. */
static void expect_invalid(ty_column *c) {
    mu_err err;
    assert_int_equal(ty_column_validate(c, &err), MU_ECORRUPT);
    assert_non_null(strstr(err.message, "column of type"));
}

static void test_validate_buffers(void **state) {
    (void)state;
    ty_column *c = tu_column("String");
    tu_append(c, "abc");
    tu_append(c, "de");
    mu_store_u32le(c->offsets.data + 4, 6); /* offsets 0, 6, 5: decrease */
    expect_invalid(c);
    mu_store_u32le(c->offsets.data + 4, 3);
    mu_store_u32le(c->offsets.data, 1); /* first offset not 0 */
    expect_invalid(c);
    mu_store_u32le(c->offsets.data, 0);
    c->values.length_bytes = 4; /* bytes do not match the last offset */
    expect_invalid(c);
    ty_column_destroy(c);

    c = tu_column("Int32");
    tu_append(c, "1");
    c->values.length_bytes = 3;
    expect_invalid(c);
    ty_column_destroy(c);
}

static void test_validate_values(void **state) {
    (void)state;
    ty_column *c = tu_column("Nullable(UInt8)");
    tu_append(c, "1");
    c->validity.data[0] |= 0x80; /* a bit past the last row */
    expect_invalid(c);
    ty_column_destroy(c);

    c = tu_column("Bool");
    tu_append(c, "true");
    c->values.data[0] = 2;
    expect_invalid(c);
    ty_column_destroy(c);

    c = tu_column("Enum8('a' = 1)");
    tu_append(c, "a");
    c->values.data[0] = 5;
    expect_invalid(c);
    ty_column_destroy(c);

    c = tu_column("LowCardinality(String)");
    tu_append(c, "a");
    mu_store_u32le(c->values.data, 9);
    expect_invalid(c);
    ty_column_destroy(c);

    c = tu_column("Array(UInt8)");
    tu_append(c, "[1,2]");
    mu_store_u32le(c->offsets.data + 4, 3); /* more elements than the child has */
    expect_invalid(c);
    ty_column_destroy(c);

    c = tu_column("Map(String, UInt8)");
    tu_append(c, "{'a':1}");
    c->children[1]->row_count = 0;
    c->children[1]->values.length_bytes = 0;
    expect_invalid(c);
    ty_column_destroy(c);

    mu_err err;
    c = tu_column("Nullable(Int32)");
    assert_int_equal(ty_column_append_null(c, &err), 0);
    c->values.data[1] = 1; /* a NULL row must hold the default */
    expect_invalid(c);
    ty_column_destroy(c);

    c = tu_column("Nullable(Enum8('a' = 5, 'b' = 6))");
    assert_int_equal(ty_column_append_null(c, &err), 0);
    assert_int_equal(ty_column_validate(c, &err), 0);
    assert_int_equal((int8_t)c->values.data[0], 5); /* Enum's default is its smallest */
    c->values.data[0] = 6;
    expect_invalid(c);
    ty_column_destroy(c);

    c = tu_column("LowCardinality(Nullable(String))");
    tu_append(c, "a");
    assert_int_equal(ty_column_append_null(c, &err), 0);
    mu_store_u32le(c->values.data + 4, 1); /* NULL row pointing at 'a' */
    expect_invalid(c);
    mu_store_u32le(c->values.data + 4, 0);
    assert_int_equal(ty_column_validate(c, &err), 0);
    c->children[0]->values.data[0] = 'z'; /* entry 0 'a' -> the dictionary ... */
    mu_store_u32le(c->children[0]->offsets.data + 4, 1); /* ... entry 0 now "z" */
    expect_invalid(c);
    ty_column_destroy(c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_copy_rows, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_equality_details, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_type_mismatch, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_validate_buffers, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_validate_values, tu_setup, tu_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
