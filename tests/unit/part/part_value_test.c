/* part_value_test.c: goal — prove that the value encoding of keys and
 * minmax entries (part_value.c) has exactly the documented bytes for each
 * kind, round-trips random rows of every type, and that every truncated
 * or malformed encoding (bad NULL flag, lengths past the end, overlong
 * LEB128, trailing bytes after a key) fails with MU_ECORRUPT leaving the
 * columns as they were.
 */
#include "part_test_util.h"

#include "storage/part/part_int.h"

static void expect_bytes(const char *type_name, const char *text, bool null, const char *bytes,
                         size_t n) {
    ty_column *c = pt_column(type_name);
    mu_err err;
    if (null) {
        pt_check(ty_column_append_null(c, &err), &err, "null");
    } else {
        pt_check(ty_column_append_text(c, text, strlen(text), &err), &err, text);
    }
    mu_buf b;
    mu_buf_init(&b, 0);
    pt_check(part__value_encode(c, 0, &b, &err), &err, "encode");
    if (b.length_bytes != n || memcmp(b.data, bytes, n) != 0)
        fail_msg("%s %s: %zu bytes, expected %zu", type_name, text, b.length_bytes, n);
    mu_buf_deinit(&b);
    ty_column_destroy(c);
}

static void test_documented_bytes(void **state) {
    (void)state;
    expect_bytes("UInt32", "5", false, "\5\0\0\0", 4);
    expect_bytes("Int16", "-2", false, "\xfe\xff", 2);
    expect_bytes("Nullable(UInt8)", NULL, true, "\1", 1);
    expect_bytes("Nullable(UInt8)", "7", false, "\0\7", 2);
    expect_bytes("String", "ab", false, "\2ab", 3);
    expect_bytes("FixedString(3)", "a", false, "a\0\0", 3);
    expect_bytes("Array(UInt8)", "[1,2]", false, "\2\1\2", 3);
    expect_bytes("Map(String, UInt8)", "{'k':1}", false, "\1\1k\1", 4);
    expect_bytes("LowCardinality(String)", "x", false, "\1x", 2);
    expect_bytes("LowCardinality(Nullable(String))", NULL, true, "\1", 1);
    expect_bytes("Array(Nullable(String))", "[NULL,'']", false, "\2\1\0\0", 4);
}

static const char *types[] = {"UInt64", "Int8", "Float64", "Bool", "String", "FixedString(4)",
                              "Date", "DateTime64(6)", "UUID", "Decimal(38, 3)",
                              "Enum8('a' = 1, 'b' = 2)", "Nullable(Float32)",
                              "LowCardinality(Nullable(String))", "LowCardinality(UInt8)",
                              "Array(Array(Nullable(String)))",
                              "Map(String, Array(Nullable(UInt16)))"};

static void test_round_trip_and_truncation(void **state) {
    (void)state;
    for (size_t t = 0; t < MU_ARRAY_LEN(types); t++) {
        ty_column *in = pt_random_column(types[t], 200), *out = pt_column(types[t]);
        mu_buf b;
        mu_buf_init(&b, 0);
        mu_err err;
        for (uint32_t r = 0; r < 200; r++) {
            mu_buf_clear(&b);
            pt_check(part__value_encode(in, r, &b, &err), &err, "encode");
            for (size_t n = 0; n < b.length_bytes; n++) {
                assert_int_equal(part__value_decode(out, b.data, n, NULL, &err), MU_ECORRUPT);
                assert_int_equal(ty_column_row_count(out), r);
            }
            mu_buf_append(&b, "tail", 4, NULL);
            size_t used = 0;
            pt_check(part__value_decode(out, b.data, b.length_bytes, &used, &err), &err, "dec");
            assert_int_equal(used, b.length_bytes - 4);
        }
        pt_assert_rows_equal(in, 0, out, 0, 200);
        mu_buf_deinit(&b);
        ty_column_destroy(in);
        ty_column_destroy(out);
    }
}

static void test_malformed(void **state) {
    (void)state;
    mu_err err;
    ty_column *n = pt_column("Nullable(UInt8)"), *s = pt_column("String");
    ty_column *a = pt_column("Array(UInt8)");
    assert_int_equal(part__value_decode(n, (const uint8_t *)"\2\7", 2, NULL, &err), MU_ECORRUPT);
    assert_int_equal(part__value_decode(s, (const uint8_t *)"\5ab", 3, NULL, &err), MU_ECORRUPT);
    assert_int_equal(part__value_decode(s, (const uint8_t *)"\xff\xff\xff\xff\xff\xff\xff\xff"
                                                            "\xff\xff\x7f", 11, NULL, &err),
                     MU_ECORRUPT);
    assert_int_equal(part__value_decode(a, (const uint8_t *)"\3\1\2", 3, NULL, &err), MU_ECORRUPT);
    assert_int_equal(ty_column_row_count(a), 0);
    assert_int_equal(ty_column_row_count(ty_column_child(a, 0)), 0);
    /* A key must fill its bytes exactly; a failed key leaves no row. */
    ty_column *keys[2] = {s, n};
    assert_int_equal(part__key_decode(keys, 2, (const uint8_t *)"\1x\0\7!", 5, &err), MU_ECORRUPT);
    assert_int_equal(part__key_decode(keys, 2, (const uint8_t *)"\1x\2", 3, &err), MU_ECORRUPT);
    assert_int_equal(ty_column_row_count(s), 0);
    assert_int_equal(ty_column_row_count(n), 0);
    pt_check(part__key_decode(keys, 2, (const uint8_t *)"\1x\0\7", 4, &err), &err, "key");
    assert_int_equal(ty_column_row_count(s), 1);
    pt_check(part__key_decode(keys, 0, NULL, 0, &err), &err, "empty key");
    ty_column_destroy(n);
    ty_column_destroy(s);
    ty_column_destroy(a);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_documented_bytes, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_round_trip_and_truncation, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_malformed, pt_setup, pt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
