/* column_bulk_test.c: goal — prove that the bulk appends of column_bulk.c
 * give exactly what row-by-row appends give: range copies of every type
 * at unaligned validity offsets and into a different dictionary, raw
 * appends of fixed-width values, strings, nested lengths and
 * LowCardinality indices of each width; and that every bad input (Bool 2,
 * undeclared Enum, NULL rows with values, lengths that do not add up,
 * element counts that do not match, indexes out of range, wrong kinds and
 * types, a memory limit hit midway) is refused with the column unchanged.
 */
#include "types_test_util.h"

typedef struct bulk_case {
    const char *type;
    const char *rows[6]; /* NULL: a NULL row */
} bulk_case;

static const bulk_case cases[] = {
    {"UInt32", {"1", "2", "3", "4", "5", "6"}},
    {"Nullable(Int64)", {"1", NULL, "-3", NULL, NULL, "9"}},
    {"Nullable(String)", {"a", NULL, "", "long value here", NULL, "z"}},
    {"FixedString(3)", {"a", "abc", "", "x", "yy", "q"}},
    {"Decimal(38, 4)", {"1.5", "-2", "0", "3.1415", "1e5", "7"}},
    {"LowCardinality(Nullable(String))", {"x", NULL, "y", "x", NULL, "w"}},
    {"Array(Nullable(String))", {"['a',NULL]", "[]", "[NULL]", "['b']", "[]", "['c','d']"}},
    {"Map(String, Array(UInt8))", {"{'k':[1]}", "{}", "{'a':[],'b':[2,3]}", "{}", "{'z':[]}",
                                   "{'y':[9]}"}},
    {"LowCardinality(UInt16)", {"1", "2", "1", "3", "2", "1"}},
};

static ty_column *build(const bulk_case *c) {
    ty_column *col = tu_column(c->type);
    for (int i = 0; i < 6; i++) {
        mu_err err;
        if (c->rows[i] == NULL) {
            assert_int_equal(ty_column_append_null(col, &err), 0);
        } else {
            tu_append(col, c->rows[i]);
        }
    }
    return col;
}

static void assert_same_rows(const ty_column *a, uint32_t from_a, const ty_column *b,
                             uint32_t from_b, uint32_t count) {
    mu_err err;
    assert_int_equal(ty_column_validate(b, &err), 0);
    for (uint32_t i = 0; i < count; i++)
        assert_true(ty_column_equal_row(a, from_a + i, b, from_b + i));
}

static void test_append_rows_from(void **state) {
    (void)state;
    for (size_t i = 0; i < MU_ARRAY_LEN(cases); i++) {
        ty_column *src = build(&cases[i]);
        for (uint32_t pre = 0; pre < 3; pre++) {
            for (uint32_t from = 0; from < 6; from++) {
                for (uint32_t count = 0; from + count <= 6; count++) {
                    ty_column *dst = tu_column(cases[i].type);
                    mu_err err;
                    for (uint32_t p = 0; p < pre; p++)
                        assert_int_equal(ty_column_append_from(dst, src, 5 - p, &err), 0);
                    assert_int_equal(ty_column_append_rows_from(dst, src, from, count, &err), 0);
                    assert_int_equal(ty_column_row_count(dst), pre + count);
                    assert_same_rows(src, from, dst, pre, count);
                    ty_column_destroy(dst);
                }
            }
        }
        ty_column_destroy(src);
    }
}

static void test_append_rows_from_refused(void **state) {
    (void)state;
    ty_column *src = build(&cases[2]), *other = tu_column("String");
    mu_err err;
    assert_int_equal(ty_column_append_rows_from(other, src, 0, 2, &err), MU_ETYPE);
    /* A memory limit hit midway leaves the column as it was. */
    mu_mem_tracker tracker;
    mu_mem_tracker_init(&tracker, "bulk", NULL, 200);
    ty_column *dst = NULL;
    assert_int_equal(ty_column_create(src->type, &tracker, &dst, &err), 0);
    assert_int_equal(ty_column_append_rows_from(dst, src, 0, 1, &err), 0);
    ty_column *big = tu_column("Nullable(String)");
    char text[300];
    memset(text, 'x', sizeof(text));
    for (int i = 0; i < 3; i++) assert_int_equal(ty_column_append_bytes(big, text, 300, &err), 0);
    assert_int_equal(ty_column_append_rows_from(dst, big, 0, 3, &err), MU_EMEMLIMIT);
    assert_int_equal(ty_column_row_count(dst), 1);
    assert_same_rows(src, 0, dst, 0, 1);
    ty_column_destroy(dst);
    ty_column_destroy(big);
    ty_column_destroy(src);
    ty_column_destroy(other);
}

static void test_truncate(void **state) {
    (void)state;
    ty_column *src = build(&cases[7]);
    ty_column_truncate(src, 3);
    assert_int_equal(ty_column_row_count(src), 3);
    mu_err err;
    assert_int_equal(ty_column_validate(src, &err), 0);
    ty_column *fresh = build(&cases[7]);
    assert_same_rows(fresh, 0, src, 0, 3);
    ty_column_truncate(src, 0);
    assert_int_equal(ty_column_validate(src, &err), 0);
    ty_column_destroy(src);
    ty_column_destroy(fresh);
}

/* ------------------------------------------------------------------ */
/* Raw appends                                                         */
/* ------------------------------------------------------------------ */

static void test_fixed_raw(void **state) {
    (void)state;
    ty_column *c = tu_column("Nullable(Int16)");
    mu_err err;
    const int16_t values[3] = {7, 0, -2};
    const uint8_t validity = 0x5; /* rows 0 and 2 valid */
    assert_int_equal(ty_column_append_null(c, &err), 0); /* unaligned start */
    assert_int_equal(ty_column_append_fixed_raw(c, values, 3, &validity, &err), 0);
    assert_string_equal(tu_row_text(c, 0, 0), "\\N");
    assert_string_equal(tu_row_text(c, 1, 0), "7");
    assert_string_equal(tu_row_text(c, 2, 0), "\\N");
    assert_string_equal(tu_row_text(c, 3, 0), "-2");
    const int16_t bad[2] = {0, 4};
    const uint8_t second_null = 0x1;
    assert_int_equal(ty_column_append_fixed_raw(c, bad, 2, &second_null, &err), MU_ECORRUPT);
    assert_int_equal(ty_column_row_count(c), 4);
    assert_int_equal(ty_column_append_fixed_raw(c, bad, 2, NULL, &err), 0); /* all valid */
    assert_int_equal(ty_column_validate(c, &err), 0);
    ty_column *b = tu_column("Bool"), *e = tu_column("Enum8('a' = 1, 'b' = 5)");
    ty_column *s = tu_column("String");
    assert_int_equal(ty_column_append_fixed_raw(b, "\1\2", 2, NULL, &err), MU_ECORRUPT);
    assert_int_equal(ty_column_append_fixed_raw(b, "\1\0", 2, NULL, &err), 0);
    assert_int_equal(ty_column_append_fixed_raw(b, "\1", 1, &validity, &err), MU_ETYPE);
    assert_int_equal(ty_column_append_fixed_raw(e, "\1\2", 2, NULL, &err), MU_ECORRUPT);
    assert_int_equal(ty_column_append_fixed_raw(e, "\5\1", 2, NULL, &err), 0);
    assert_int_equal(ty_column_append_fixed_raw(s, "ab", 2, NULL, &err), MU_ETYPE);
    assert_int_equal(ty_column_row_count(b) + ty_column_row_count(e), 4);
    ty_column *ne = tu_column("Nullable(Enum8('a' = 1, 'b' = 5))");
    assert_int_equal(ty_column_append_fixed_raw(ne, NULL, 0, NULL, &err), 0); /* empty */
    assert_int_equal(ty_column_append_fixed_raw(ne, "", 0, &validity, &err), 0);
    const uint8_t none_valid = 0;
    assert_int_equal(ty_column_append_fixed_raw(ne, "\5", 1, &none_valid, &err), MU_ECORRUPT);
    assert_int_equal(ty_column_append_fixed_raw(ne, "\1", 1, &none_valid, &err), 0);
    assert_string_equal(tu_row_text(ne, 0, 0), "\\N");
    ty_column_destroy(c);
    ty_column_destroy(b);
    ty_column_destroy(e);
    ty_column_destroy(s);
    ty_column_destroy(ne);
}

static void test_strings_raw(void **state) {
    (void)state;
    ty_column *c = tu_column("Nullable(String)");
    mu_err err;
    const uint32_t lengths[3] = {2, 0, 3};
    const uint8_t validity = 0x5;
    assert_int_equal(ty_column_append_strings_raw(c, lengths, "abcde", 5, 3, &validity, &err), 0);
    assert_string_equal(tu_row_text(c, 0, 0), "ab");
    assert_string_equal(tu_row_text(c, 1, 0), "\\N");
    assert_string_equal(tu_row_text(c, 2, 0), "cde");
    assert_int_equal(ty_column_append_strings_raw(c, lengths, "abcd", 4, 3, NULL, &err),
                     MU_ECORRUPT);
    assert_int_equal(ty_column_append_strings_raw(c, lengths, "abcdef", 6, 3, NULL, &err),
                     MU_ECORRUPT);
    const uint8_t first_null = 0x6;
    assert_int_equal(ty_column_append_strings_raw(c, lengths, "abcde", 5, 3, &first_null, &err),
                     MU_ECORRUPT);
    assert_int_equal(ty_column_row_count(c), 3);
    assert_int_equal(ty_column_append_strings_raw(c, NULL, NULL, 0, 0, NULL, &err), 0);
    ty_column *u = tu_column("UInt8");
    assert_int_equal(ty_column_append_strings_raw(u, lengths, "abcde", 5, 3, NULL, &err), MU_ETYPE);
    assert_int_equal(ty_column_validate(c, &err), 0);
    ty_column_destroy(c);
    ty_column_destroy(u);
}

static void test_nested_raw(void **state) {
    (void)state;
    ty_column *a = tu_column("Array(UInt8)");
    mu_err err;
    assert_int_equal(ty_column_append_fixed_raw(ty_column_child_mut(a, 0), "\1\2\3", 3, NULL, &err),
                     0);
    const uint32_t lengths[2] = {2, 1}, wrong[2] = {2, 2};
    assert_int_equal(ty_column_append_nested_raw(a, wrong, 2, &err), MU_ECORRUPT);
    assert_int_equal(ty_column_append_nested_raw(a, lengths, 2, &err), 0);
    assert_string_equal(tu_row_text(a, 0, 0), "[1,2]");
    assert_string_equal(tu_row_text(a, 1, 0), "[3]");
    ty_column *m = tu_column("Map(UInt8, UInt8)");
    assert_int_equal(ty_column_append_fixed_raw(ty_column_child_mut(m, 0), "\1\2", 2, NULL, &err),
                     0);
    assert_int_equal(ty_column_append_fixed_raw(ty_column_child_mut(m, 1), "\7", 1, NULL, &err),
                     0);
    const uint32_t two[1] = {2};
    assert_int_equal(ty_column_append_nested_raw(m, two, 1, &err), MU_ECORRUPT);
    assert_int_equal(ty_column_append_nested_raw(ty_column_child_mut(m, 0), two, 1, &err),
                     MU_ETYPE);
    assert_int_equal(ty_column_row_count(m), 0);
    ty_column_destroy(a);
    ty_column_destroy(m);
}

static void test_lc_raw(void **state) {
    (void)state;
    ty_column *c = tu_column("LowCardinality(Nullable(String))");
    tu_append(c, "y");
    ty_column *dictionary = tu_column("String");
    tu_append(dictionary, "x");
    tu_append(dictionary, "");
    tu_append(dictionary, "y");
    mu_err err;
    const uint8_t validity = 0x5;
    assert_int_equal(ty_column_append_lc_raw(c, dictionary, "\0\1\2", 1, 3, &validity, &err), 0);
    assert_string_equal(tu_row_text(c, 1, 0), "x");
    assert_string_equal(tu_row_text(c, 2, 0), "\\N");
    assert_string_equal(tu_row_text(c, 3, 0), "y");
    const uint16_t wide[2] = {2, 0};
    const uint32_t wider[2] = {1, 2};
    assert_int_equal(ty_column_append_lc_raw(c, dictionary, wide, 2, 2, NULL, &err), 0);
    assert_int_equal(ty_column_append_lc_raw(c, dictionary, wider, 4, 2, NULL, &err), 0);
    assert_int_equal(ty_column_row_count(c), 8);
    assert_string_equal(tu_row_text(c, 7, 0), "y");
    /* Index 3 of 3 entries; a NULL row pointing at "x". */
    assert_int_equal(ty_column_append_lc_raw(c, dictionary, "\3", 1, 1, NULL, &err), MU_ECORRUPT);
    const uint8_t null_row = 0;
    assert_int_equal(ty_column_append_lc_raw(c, dictionary, "\0", 1, 1, &null_row, &err),
                     MU_ECORRUPT);
    assert_int_equal(ty_column_row_count(c), 8);
    ty_column *fixed = tu_column("FixedString(1)");
    assert_int_equal(ty_column_append_lc_raw(c, fixed, "", 1, 0, NULL, &err), MU_ETYPE);
    ty_column *plain = tu_column("String");
    assert_int_equal(ty_column_append_lc_raw(plain, dictionary, "\0", 1, 1, NULL, &err), MU_ETYPE);
    assert_int_equal(ty_column_validate(c, &err), 0);
    ty_column_destroy(c);
    ty_column_destroy(dictionary);
    ty_column_destroy(fixed);
    ty_column_destroy(plain);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_append_rows_from, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_append_rows_from_refused, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_truncate, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_fixed_raw, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_strings_raw, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_nested_raw, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_lc_raw, tu_setup, tu_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
