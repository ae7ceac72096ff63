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

/* The escapers scan 16 bytes at a time: every escaped byte at every
 * position of strings of 0..80 bytes, checked against a byte-by-byte
 * rendering of ClickHouse's rules (TSV here; JSON in JSONEachRow). */
static size_t ref_tsv(const uint8_t *s, size_t n, char *out) {
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        const char *e = NULL;
        switch (s[i]) {
        case '\b': e = "\\b"; break;
        case '\f': e = "\\f"; break;
        case '\n': e = "\\n"; break;
        case '\r': e = "\\r"; break;
        case '\t': e = "\\t"; break;
        case 0: e = "\\0"; break;
        case '\\': e = "\\\\"; break;
        case '\'': e = "\\'"; break;
        default: out[o++] = (char)s[i]; continue;
        }
        memcpy(out + o, e, 2);
        o += 2;
    }
    return o;
}

static size_t ref_json(const uint8_t *s, size_t n, char *out) {
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        if (c == 0xE2 && i + 2 < n && s[i + 1] == 0x80 && (s[i + 2] == 0xA8 || s[i + 2] == 0xA9)) {
            o += (size_t)sprintf(out + o, "\\u%s", s[i + 2] == 0xA8 ? "2028" : "2029");
            i += 2;
        } else if (c == '"' || c == '\\' || c == '/') {
            out[o++] = '\\';
            out[o++] = (char)c;
        } else if (c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t') {
            out[o++] = '\\';
            out[o++] = c == '\b' ? 'b' : c == '\f' ? 'f' : c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
        } else if (c < 0x20) {
            o += (size_t)sprintf(out + o, "\\u%04X", c);
        } else {
            out[o++] = (char)c;
        }
    }
    return o;
}

static void test_escaping_at_every_offset(void **state) {
    (void)state;
    static const uint8_t alphabet[] = {'a', 'b', 'z', ' ', '"', '\'', '\\', '/', '\t', '\n',
                                       '\r', '\b', '\f', 0, 1, 0x0B, 0x1F, 0x7F, 0xC3, 0xA9,
                                       0xE2, 0x80, 0xA8, 0xA9, 0xFF};
    uint32_t seed = 12345;
    mu_err err;
    for (int round = 0; round < 3000; round++) {
        uint8_t s[80];
        size_t n = (size_t)round % 81;
        for (size_t i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            /* mostly plain letters, so runs of 16 without an escape happen */
            s[i] = (seed >> 16) % 4 != 0 ? (uint8_t)('a' + (seed >> 20) % 26)
                                          : alphabet[(seed >> 20) % sizeof(alphabet)];
            if ((seed >> 8) % 17 == 0 && i + 2 < n) { /* a whole U+2028 / U+2029 */
                s[i] = 0xE2;
                s[i + 1] = 0x80;
                s[i + 2] = (seed >> 12) & 1 ? 0xA8 : 0xA9;
                i += 2;
            }
        }
        ty_batch *b = fu_batch(1, (const char *[]){"s", "String"});
        assert_int_equal(ty_column_append_bytes(b->columns[0], s, n, &err), 0);
        assert_int_equal(ty_batch_seal(b, &err), 0);
        char want[80 * 6 + 16];
        size_t w = ref_tsv(s, n, want);
        want[w++] = '\n';
        fu_expect_n("TSV", b, want, w);
        w = (size_t)sprintf(want, "{\"s\":\"");
        w += ref_json(s, n, want + w);
        memcpy(want + w, "\"}\n", 3);
        fu_expect_n("JSONEachRow", b, want, w + 3);
        ty_batch_destroy(b);
    }
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
        cmocka_unit_test(test_escaping_at_every_offset),
        cmocka_unit_test(test_dates_and_more),
        cmocka_unit_test(test_composites),
        cmocka_unit_test(test_headers_and_selection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
