/* column_gather_test.c: goal: ty_column_append_gather appends exactly the
 * rows named, in the order named, for every column shape (fast paths and
 * the row-by-row path), keeps the column valid, and refuses a type
 * mismatch without changing the destination.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "types/types.h"

static const char *const type_names[] = {
    "UInt8", "UInt64", "Float64", "String", "Nullable(String)", "FixedString(3)",
    "Array(UInt8)", "Decimal(38, 2)", "LowCardinality(String)", "UUID",
};
static const char *const values[][4] = {
    {"1", "2", "3", "255"},
    {"0", "18446744073709551615", "7", "42"},
    {"1.5", "-0", "inf", "1e300"},
    {"", "a", "longer text", "x"},
    {"p", "", "q", "rr"},
    {"abc", "ab", "", "xyz"},
    {"[]", "[1,2]", "[3]", "[4,5,6]"},
    {"1.25", "-99999999999999999999999999999999.99", "0", "3"},
    {"red", "green", "red", "blue"},
    {"00000000-0000-0000-0000-000000000001", "ffffffff-ffff-ffff-ffff-ffffffffffff",
     "12345678-1234-1234-1234-123456789abc", "00000000-0000-0000-0000-000000000000"},
};

static void test_gather_every_shape(void **state) {
    (void)state;
    mu_err err;
    mu_arena *arena = NULL;
    assert_int_equal(mu_arena_create(&arena, NULL, 0, &err), 0);
    const uint32_t perm[] = {3, 0, 0, 2, 1, 3};
    for (size_t t = 0; t < MU_ARRAY_LEN(type_names); t++) {
        const ty_type *type = NULL;
        assert_int_equal(ty_type_parse(type_names[t], arena, &type, &err), 0);
        ty_column *src = NULL, *dst = NULL;
        assert_int_equal(ty_column_create(type, NULL, &src, &err), 0);
        assert_int_equal(ty_column_create(type, NULL, &dst, &err), 0);
        for (int v = 0; v < 4; v++) {
            const char *text = values[t][v];
            assert_int_equal(ty_column_append_text(src, text, strlen(text), &err), 0);
        }
        if (ty_type_is_nullable(type)) assert_int_equal(ty_column_append_null(src, &err), 0);
        /* Non-empty destination: offsets must continue from its end. */
        assert_int_equal(ty_column_append_from(dst, src, 1, &err), 0);
        assert_int_equal(ty_column_append_gather(dst, src, perm, 6, &err), 0);
        assert_int_equal(ty_column_row_count(dst), 7);
        assert_int_equal(ty_column_validate(dst, &err), 0);
        assert_true(ty_column_equal_row(dst, 0, src, 1));
        for (uint32_t i = 0; i < 6; i++) assert_true(ty_column_equal_row(dst, i + 1, src, perm[i]));
        ty_column_destroy(src);
        ty_column_destroy(dst);
    }
    mu_arena_destroy(arena);
}

/* Only empty strings: the bytes buffer may never be allocated. */
static void test_gather_empty_strings(void **state) {
    (void)state;
    mu_err err;
    ty_column *src = NULL, *dst = NULL;
    assert_int_equal(ty_column_create(ty_type_builtin(TY_STRING), NULL, &src, &err), 0);
    assert_int_equal(ty_column_create(ty_type_builtin(TY_STRING), NULL, &dst, &err), 0);
    for (int i = 0; i < 3; i++) assert_int_equal(ty_column_append_bytes(src, "", 0, &err), 0);
    const uint32_t rows[] = {2, 0, 1};
    assert_int_equal(ty_column_append_gather(dst, src, rows, 0, &err), 0);
    assert_int_equal(ty_column_append_gather(dst, src, rows, 3, &err), 0);
    assert_int_equal(ty_column_row_count(dst), 3);
    assert_int_equal(ty_column_validate(dst, &err), 0);
    ty_column_destroy(src);
    ty_column_destroy(dst);
}

static void test_gather_type_mismatch(void **state) {
    (void)state;
    mu_err err;
    ty_column *a = NULL, *b = NULL;
    assert_int_equal(ty_column_create(ty_type_builtin(TY_UINT32), NULL, &a, &err), 0);
    assert_int_equal(ty_column_create(ty_type_builtin(TY_UINT64), NULL, &b, &err), 0);
    uint64_t v = 5;
    assert_int_equal(ty_column_append_value(b, &v, &err), 0);
    const uint32_t rows[] = {0};
    assert_int_equal(ty_column_append_gather(a, b, rows, 1, &err), MU_ETYPE);
    assert_int_equal(ty_column_row_count(a), 0);
    assert_int_equal(ty_column_append_gather(b, a, rows, 0, &err), MU_ETYPE);
    ty_column_destroy(a);
    ty_column_destroy(b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gather_every_shape),
        cmocka_unit_test(test_gather_empty_strings),
        cmocka_unit_test(test_gather_type_mismatch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
