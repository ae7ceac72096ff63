/* column_compare_test.c: goal — prove that ty_column_compare_rows is the
 * documented total order for every kind: signed and unsigned integers at
 * their extremes, Decimal128 and DateTime64 by value, Enum by number,
 * floats with -0 == +0 and NaN after +inf, NULL after every value and
 * equal to NULL, strings and FixedString bytewise with shorter prefixes
 * first (bytes >= 0x80 after ASCII), UUID in text order, LowCardinality by
 * value across different dictionaries, Arrays and Maps lexicographically;
 * and that it is antisymmetric and agrees with ty_column_equal_row.
 */
#include "types_test_util.h"

/* rows are given in strictly increasing order except where equal_next
 * marks a row equal to the following one. */
typedef struct order_case {
    const char *type;
    const char *rows[8]; /* NULL entry ends the list, "\\N" is a NULL row */
    unsigned equal_next; /* bit i: rows[i] == rows[i + 1] */
} order_case;

static const order_case cases[] = {
    {"UInt64", {"0", "1", "9223372036854775808", "18446744073709551615"}, 0},
    {"Int64", {"-9223372036854775808", "-1", "0", "9223372036854775807"}, 0},
    {"Int8", {"-128", "-1", "0", "127"}, 0},
    {"Nullable(Float64)", {"-inf", "-1", "-0", "0", "1e300", "inf", "nan", "\\N"}, 1u << 2},
    {"Float32", {"-inf", "-0", "0", "nan", "nan"}, (1u << 1) | (1u << 3)},
    {"Decimal(38, 2)", {"-99999999999999999999999999999999.99", "-0.01", "0", "0.01",
                        "99999999999999999999999999999999.99"}, 0},
    {"DateTime64(3)", {"1900-01-01 00:00:00.000", "1969-12-31 23:59:59.999", "1970-01-01 00:00:00",
                       "2262-01-01 00:00:00.001"}, 0},
    {"Enum8('z' = -5, 'a' = 3)", {"z", "a"}, 0},
    {"Date32", {"1900-01-01", "1969-12-31", "1970-01-01", "2299-12-31"}, 0},
    {"Nullable(String)", {"", "a", "ab", "b", "\xc3\xa9", "\\N", "\\N"}, 1u << 5},
    {"FixedString(2)", {"", "a", "a\x01", "b"}, 0},
    {"UUID", {"00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000001",
              "10000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff"}, 0},
    {"LowCardinality(Nullable(String))", {"a", "b", "b", "c", "\\N"}, 1u << 1},
    {"Array(Nullable(Int32))", {"[]", "[-1]", "[-1,5]", "[0]", "[NULL]", "[NULL,1]"}, 0},
    {"Map(String, UInt8)", {"{}", "{'a':1}", "{'a':2}", "{'a':2,'b':0}", "{'b':0}"}, 0},
    {"Bool", {"false", "true"}, 0},
};

static ty_column *build(const order_case *c, uint32_t *count) {
    ty_column *col = tu_column(c->type);
    *count = 0;
    for (int i = 0; i < 8 && c->rows[i] != NULL; i++, (*count)++) {
        mu_err err;
        if (strcmp(c->rows[i], "\\N") == 0) {
            assert_int_equal(ty_column_append_null(col, &err), 0);
        } else {
            tu_append(col, c->rows[i]);
        }
    }
    return col;
}

static void test_documented_order(void **state) {
    (void)state;
    for (size_t k = 0; k < MU_ARRAY_LEN(cases); k++) {
        uint32_t n = 0;
        ty_column *a = build(&cases[k], &n);
        ty_column *b = build(&cases[k], &n); /* a second column: other dictionaries */
        for (uint32_t i = 0; i < n; i++) {
            for (uint32_t j = 0; j < n; j++) {
                int expected = i < j ? -1 : i > j ? 1 : 0;
                uint32_t lo = i < j ? i : j, hi = i < j ? j : i;
                bool all_equal = true;
                for (uint32_t r = lo; r < hi; r++) all_equal &= (cases[k].equal_next >> r) & 1;
                if (all_equal) expected = 0;
                int got = ty_column_compare_rows(a, i, b, j);
                got = (got > 0) - (got < 0);
                if (got != expected)
                    fail_msg("%s: compare(%s, %s) = %d, expected %d", cases[k].type,
                             cases[k].rows[i], cases[k].rows[j], got, expected);
                assert_int_equal(got == 0, ty_column_equal_row(a, i, b, j));
            }
        }
        ty_column_destroy(a);
        ty_column_destroy(b);
    }
}

/* Values inserted in another order into another dictionary compare by
 * value, not by index. */
static void test_low_cardinality_by_value(void **state) {
    (void)state;
    ty_column *a = tu_column("LowCardinality(String)"), *b = tu_column("LowCardinality(String)");
    tu_append(a, "b");
    tu_append(a, "a");
    tu_append(b, "a");
    tu_append(b, "b");
    assert_true(ty_column_compare_rows(a, 0, b, 1) == 0);
    assert_true(ty_column_compare_rows(a, 1, b, 0) == 0);
    assert_true(ty_column_compare_rows(a, 1, a, 0) < 0);
    assert_true(ty_column_compare_rows(b, 1, a, 1) > 0);
    ty_column_destroy(a);
    ty_column_destroy(b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_documented_order, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_low_cardinality_by_value, tu_setup, tu_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
