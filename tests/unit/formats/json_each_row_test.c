/* json_each_row_test.c: goal: JSONEachRow output is byte-exact with
 * ClickHouse's defaults: 64-bit integers quoted, smaller ints, floats and
 * decimals bare, nan/inf as null, strings with JSON escaping (\/ and
 * \u00XX, U+2028/9), dates and UUIDs as strings, arrays and maps nested,
 * NULL as null; and the aliases select the same writer. */
#include "formats_test_util.h"

static void test_numbers(void **state) {
    (void)state;
    const char *nt[] = {"u64", "UInt64", "i64", "Int64", "u32", "UInt32", "i8", "Int8",
                        "f", "Float64", "g", "Float32", "d", "Decimal(18, 4)", "b", "Bool"};
    ty_batch *b = fu_batch(8, nt);
    fu_row(b, (const char *[]){"18446744073709551615", "-9223372036854775808", "4294967295",
                               "-128", "0.5", "nan", "-1.2500", "true"});
    fu_row(b, (const char *[]){"0", "0", "0", "0", "inf", "-inf", "0", "false"});
    fu_row(b, (const char *[]){"1", "1", "1", "1", "1e21", "1e-7", "3", "true"});
    fu_expect("JSONEachRow", b,
              "{\"u64\":\"18446744073709551615\",\"i64\":\"-9223372036854775808\","
              "\"u32\":4294967295,\"i8\":-128,\"f\":0.5,\"g\":null,\"d\":-1.25,\"b\":true}\n"
              "{\"u64\":\"0\",\"i64\":\"0\",\"u32\":0,\"i8\":0,\"f\":null,\"g\":null,"
              "\"d\":0,\"b\":false}\n"
              "{\"u64\":\"1\",\"i64\":\"1\",\"u32\":1,\"i8\":1,\"f\":1e21,\"g\":1e-7,"
              "\"d\":3,\"b\":true}\n");
    ty_batch_destroy(b);
}

static void test_strings(void **state) {
    (void)state;
    const char *nt[] = {"s", "Nullable(String)", "na\"me/", "Date", "t", "DateTime('UTC')",
                        "id", "UUID", "e", "Enum16('x' = -5)", "lc",
                        "LowCardinality(Nullable(String))"};
    ty_batch *b = fu_batch(6, nt);
    const char v[] = "q\"b\\s/\b\f\n\r\t\x01\x1f\x7f\xe2\x80\xa8\xe2\x80\xa9\xc3\xa9";
    fu_row(b, (const char *[]){v, "1970-01-01", "2106-02-07 06:28:15",
                               "00000000-0000-0000-0000-000000000000", "x", "k"});
    fu_row(b, (const char *[]){NULL, "2149-06-06", "1970-01-01 00:00:00",
                               "ffffffff-ffff-ffff-ffff-ffffffffffff", "x", NULL});
    fu_expect("NDJSON", b,
              "{\"s\":\"q\\\"b\\\\s\\/\\b\\f\\n\\r\\t\\u0001\\u001F\x7f\\u2028\\u2029\xc3\xa9\","
              "\"na\\\"me\\/\":\"1970-01-01\",\"t\":\"2106-02-07 06:28:15\","
              "\"id\":\"00000000-0000-0000-0000-000000000000\",\"e\":\"x\",\"lc\":\"k\"}\n"
              "{\"s\":null,\"na\\\"me\\/\":\"2149-06-06\",\"t\":\"1970-01-01 00:00:00\","
              "\"id\":\"ffffffff-ffff-ffff-ffff-ffffffffffff\",\"e\":\"x\",\"lc\":null}\n");
    ty_batch_destroy(b);
}

static void test_composites(void **state) {
    (void)state;
    const char *nt[] = {"a", "Array(Nullable(String))", "m", "Map(String, Array(UInt64))",
                        "f", "Array(Float32)", "n", "Array(Array(Int16))"};
    ty_batch *b = fu_batch(4, nt);
    fu_row(b, (const char *[]){"['a\\'\"',NULL]", "{'k':[1,2],'':[]}", "[nan,1.5]",
                               "[[1],[],[-2,3]]"});
    fu_row(b, (const char *[]){"[]", "{}", "[]", "[]"});
    fu_expect("JSONLines", b,
              "{\"a\":[\"a'\\\"\",null],\"m\":{\"k\":[\"1\",\"2\"],\"\":[]},"
              "\"f\":[null,1.5],\"n\":[[1],[],[-2,3]]}\n"
              "{\"a\":[],\"m\":{},\"f\":[],\"n\":[]}\n");
    ty_batch_destroy(b);
}

static void test_empty_and_selection(void **state) {
    (void)state;
    ty_batch *b = fu_batch(1, (const char *[]){"x", "UInt8"});
    mu_err err;
    assert_int_equal(ty_batch_seal(b, &err), 0);
    fu_expect("JSONEachRow", b, ""); /* no rows: no bytes, no header */
    fu_row(b, (const char *[]){"7"});
    fu_row(b, (const char *[]){"8"});
    assert_int_equal(ty_batch_set_selection(b, (const uint32_t[]){1}, 1, &err), 0);
    fu_expect("JSONEachRow", b, "{\"x\":8}\n");
    ty_batch_destroy(b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_composites),
        cmocka_unit_test(test_empty_and_selection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
