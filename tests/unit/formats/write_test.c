/* write_test.c: goal: TabSeparated[Raw|WithNames|WithNamesAndTypes] and
 * CSV[WithNames|WithNamesAndTypes] output is byte-exact ClickHouse output
 * for every type (edge numbers, every escape, NULL, dates with zones,
 * Decimal, UUID, composites, LowCardinality, Enum), the selection vector
 * is honoured, and unknown names / kinds are refused. */
#include "formats_test_util.h"

static void test_find(void **state) {
    (void)state;
    assert_int_equal(fmt_find("TabSeparated"), FMT_TSV);
    assert_int_equal(fmt_find("TSV"), FMT_TSV);
    assert_int_equal(fmt_find("TSVRaw"), FMT_TSV_RAW);
    assert_int_equal(fmt_find("TabSeparatedRaw"), FMT_TSV_RAW);
    assert_int_equal(fmt_find("TSVWithNames"), FMT_TSV_WITH_NAMES);
    assert_int_equal(fmt_find("TabSeparatedWithNamesAndTypes"), FMT_TSV_WITH_NAMES_AND_TYPES);
    assert_int_equal(fmt_find("CSVWithNames"), FMT_CSV_WITH_NAMES);
    assert_int_equal(fmt_find("NDJSON"), FMT_JSON_EACH_ROW);
    assert_int_equal(fmt_find("JSONLines"), FMT_JSON_EACH_ROW);
    assert_string_equal(fmt_name(FMT_TSV_RAW), "TabSeparatedRaw");
    assert_string_equal(fmt_name(FMT_CSV), "CSV");
    /* bad names: case-sensitive, no prefixes, NULL */
    assert_int_equal(fmt_find("tsv"), FMT_UNKNOWN);
    assert_int_equal(fmt_find("csv"), FMT_UNKNOWN);
    assert_int_equal(fmt_find("TSVWithName"), FMT_UNKNOWN);
    assert_int_equal(fmt_find(""), FMT_UNKNOWN);
    assert_int_equal(fmt_find(NULL), FMT_UNKNOWN);
    assert_int_equal(fmt_find("JSON"), FMT_JSON);
    assert_int_equal(fmt_find("json"), FMT_UNKNOWN);
    assert_true(fmt_can_write(FMT_TSV));
    assert_true(fmt_can_read(FMT_TSV_RAW));
    assert_false(fmt_can_read(FMT_PRETTY));
    assert_true(fmt_can_read(FMT_CSV_WITH_NAMES_AND_TYPES));
}

static void test_bad_kind(void **state) {
    (void)state;
    const char *nt[] = {"x", "UInt8"};
    ty_batch *b = fu_batch(1, nt);
    mu_buf out;
    mu_err err;
    mu_buf_init(&out, 0);
    assert_int_equal(fmt_write_rows(FMT_UNKNOWN, b, &out, &err), MU_EINVAL);
    assert_int_equal(fmt_write_header(FMT_KIND_COUNT, b, &out, &err), MU_EINVAL);
    assert_int_equal(fmt_write_footer((fmt_kind)99, &out, &err), MU_EINVAL);
    assert_int_equal(out.length_bytes, 0);
    mu_buf_deinit(&out);
    ty_batch_destroy(b);
}

static void test_numbers(void **state) {
    (void)state;
    const char *nt[] = {"u", "UInt64", "i", "Int8", "f", "Float64", "g", "Float32",
                        "d", "Decimal(10, 3)", "b", "Bool"};
    ty_batch *b = fu_batch(6, nt);
    fu_row(b, (const char *[]){"18446744073709551615", "-128", "0.1", "1.5", "1.500", "true"});
    fu_row(b, (const char *[]){"0", "127", "inf", "-inf", "-0.001", "false"});
    fu_row(b, (const char *[]){"1", "0", "nan", "0", "12345.67", "true"});
    fu_row(b, (const char *[]){"2", "-1", "1e21", "1e-7", "0", "false"});
    const char *tsv = "18446744073709551615\t-128\t0.1\t1.5\t1.5\ttrue\n"
                      "0\t127\tinf\t-inf\t-0.001\tfalse\n"
                      "1\t0\tnan\t0\t12345.67\ttrue\n"
                      "2\t-1\t1e21\t1e-7\t0\tfalse\n";
    fu_expect("TSV", b, tsv);
    fu_expect("TSVRaw", b, tsv);
    fu_expect("CSV", b, "18446744073709551615,-128,0.1,1.5,1.5,true\n"
                        "0,127,inf,-inf,-0.001,false\n"
                        "1,0,nan,0,12345.67,true\n"
                        "2,-1,1e21,1e-7,0,false\n");
    ty_batch_destroy(b);
}

static void test_strings(void **state) {
    (void)state;
    const char *nt[] = {"s", "String", "n", "Nullable(String)"};
    ty_batch *b = fu_batch(2, nt);
    const char v[] = "a\tb\nc\\d'e\"f\b\f\rg/\x01";
    fu_row(b, (const char *[]){v, NULL});
    fu_row(b, (const char *[]){"", "\\N"});
    fu_expect("TSV", b, "a\\tb\\nc\\\\d\\'e\"f\\b\\f\\rg/\x01\t\\N\n\t\\\\N\n");
    fu_expect("TSVRaw", b, "a\tb\nc\\d'e\"f\b\f\rg/\x01\t\\N\n\t\\N\n");
    fu_expect("CSV", b, "\"a\tb\nc\\d'e\"\"f\b\f\rg/\x01\",\\N\n\"\",\"\\N\"\n");
    ty_batch_destroy(b);
    /* NUL bytes inside a value */
    ty_batch *z = fu_batch(1, (const char *[]){"z", "FixedString(3)"});
    fu_row(z, (const char *[]){"a"});
    fu_expect_n("TSV", z, "a\\0\\0\n", 6);
    fu_expect_n("TSVRaw", z, "a\0\0\n", 4);
    fu_expect_n("CSV", z, "\"a\0\0\"\n", 6);
    ty_batch_destroy(z);
}

static void test_dates_and_more(void **state) {
    (void)state;
    const char *nt[] = {"d", "Date", "t", "DateTime('Asia/Tokyo')", "t64",
                        "DateTime64(3, 'UTC')", "id", "UUID", "e", "Enum8('a' = 1, 'b\\'c' = 2)",
                        "lc", "LowCardinality(String)"};
    ty_batch *b = fu_batch(6, nt);
    fu_row(b, (const char *[]){"2024-02-29", "2024-01-01 09:00:00", "2000-01-02 03:04:05.678",
                               "0123abcd-0000-4000-8000-00000000ffff", "b'c", "x\ty"});
    fu_expect("TSV", b, "2024-02-29\t2024-01-01 09:00:00\t2000-01-02 03:04:05.678\t"
                        "0123abcd-0000-4000-8000-00000000ffff\tb\\'c\tx\\ty\n");
    fu_expect("CSV", b, "\"2024-02-29\",\"2024-01-01 09:00:00\",\"2000-01-02 03:04:05.678\","
                        "\"0123abcd-0000-4000-8000-00000000ffff\",\"b'c\",\"x\ty\"\n");
    fu_expect("TSVWithNamesAndTypes", b,
              "d\tt\tt64\tid\te\tlc\n"
              "Date\tDateTime(\\'Asia/Tokyo\\')\tDateTime64(3, \\'UTC\\')\tUUID\t"
              "Enum8(\\'a\\' = 1, \\'b\\\\\\'c\\' = 2)\tLowCardinality(String)\n"
              "2024-02-29\t2024-01-01 09:00:00\t2000-01-02 03:04:05.678\t"
              "0123abcd-0000-4000-8000-00000000ffff\tb\\'c\tx\\ty\n");
    ty_batch_destroy(b);
}

static void test_composites(void **state) {
    (void)state;
    const char *nt[] = {"a", "Array(String)", "m", "Map(String, UInt8)", "n",
                        "Array(Nullable(Int32))"};
    ty_batch *b = fu_batch(3, nt);
    fu_row(b, (const char *[]){"['a\\'b','c\\\\d','x\\ty','q\"']", "{'k':1,'l\\'':2}",
                               "[1,NULL,-3]"});
    fu_row(b, (const char *[]){"[]", "{}", "[]"});
    fu_expect("TSV", b, "['a\\'b','c\\\\d','x\\ty','q\"']\t{'k':1,'l\\'':2}\t[1,NULL,-3]\n"
                        "[]\t{}\t[]\n");
    fu_expect("CSV", b, "\"['a\\'b','c\\\\d','x\\ty','q\"\"']\",\"{'k':1,'l\\'':2}\","
                        "\"[1,NULL,-3]\"\n\"[]\",\"{}\",\"[]\"\n");
    ty_batch_destroy(b);
}

static void test_headers_and_selection(void **state) {
    (void)state;
    const char *nt[] = {"x", "UInt8", "we\"ird\tname", "Nullable(String)"};
    ty_batch *b = fu_batch(2, nt);
    fu_row(b, (const char *[]){"1", "a"});
    fu_row(b, (const char *[]){"2", NULL});
    fu_row(b, (const char *[]){"3", "c"});
    mu_err err;
    fu_expect("CSV", b, "1,\"a\"\n2,\\N\n3,\"c\"\n");
    assert_int_equal(ty_batch_set_selection(b, (const uint32_t[]){2, 0}, 2, &err), 0);
    fu_expect("TSVWithNames", b, "x\twe\"ird\\tname\n3\tc\n1\ta\n");
    fu_expect("TabSeparatedWithNamesAndTypes", b,
              "x\twe\"ird\\tname\nUInt8\tNullable(String)\n3\tc\n1\ta\n");
    fu_expect("CSVWithNames", b, "\"x\",\"we\"\"ird\tname\"\n3,\"c\"\n1,\"a\"\n");
    fu_expect("CSVWithNamesAndTypes", b,
              "\"x\",\"we\"\"ird\tname\"\n\"UInt8\",\"Nullable(String)\"\n3,\"c\"\n1,\"a\"\n");
    ty_batch_destroy(b);
    /* empty batch: header only */
    ty_batch *e = fu_batch(1, (const char *[]){"x", "UInt8"});
    assert_int_equal(ty_batch_seal(e, &err), 0);
    fu_expect("TSVWithNames", e, "x\n");
    fu_expect("TSV", e, "");
    ty_batch_destroy(e);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_bad_kind),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_dates_and_more),
        cmocka_unit_test(test_composites),
        cmocka_unit_test(test_headers_and_selection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
