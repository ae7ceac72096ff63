/* json_test.c: goal: the JSON family (src/formats/json.c, json_read.c)
 * matches current ClickHouse byte for byte on output (JSON, JSONStrings,
 * JSONCompact, JSONColumns, JSONCompactEachRow, JSONStringsEachRow:
 * layout, pretty-printed nesting, totals, rows_before_limit, statistics,
 * value forms of every type, UTF-8 repair) and reads JSONEachRow,
 * JSONStringsEachRow and JSONCompactEachRow as ClickHouse does (key
 * matching, unknown and missing keys, null, quoted numbers, values read
 * as strings, nesting, separators), streaming with any chunking, and
 * rejecting bad input with messages naming row, key and value while
 * leaving no partial row; honours skip_unknown_fields=0, marks omitted
 * values (missing keys, top-level null as default) and reads quoted
 * DateTimes best effort; under allow_errors drops bad rows (broken
 * objects, garbage between rows, rows whose brackets never close) at any
 * chunking without losing the rows after them, within ClickHouse's
 * limits. */
#include "formats_test_util.h"

/* ------------------------------------------------------------------ */
/* Output helpers                                                      */
/* ------------------------------------------------------------------ */

typedef struct jt_result {
    const ty_batch *totals;
    const fmt_result_info *info;
    const fmt_output_options *opt;
} jt_result;

/* Writes the batches (the first is also the schema) through a writer of
 * `format`; returns a malloc'd NUL-terminated string. */
static char *jt_write_n(const char *format, ty_batch *const *batches, unsigned count,
                        const jt_result *extra, size_t *n) {
    fmt_writer *w;
    mu_err err;
    mu_buf out;
    mu_buf_init(&out, 0);
    if (fmt_writer_create(fmt_find(format), extra ? extra->opt : NULL, &w, &err) != 0)
        fail_msg("%s", err.message);
    if (fmt_writer_begin(w, batches[0], &out, &err) != 0) fail_msg("%s", err.message);
    for (unsigned i = 0; i < count; i++)
        if (fmt_writer_rows(w, batches[i], &out, &err) != 0) fail_msg("%s", err.message);
    if (extra && extra->totals && fmt_writer_totals(w, extra->totals, &out, &err) != 0)
        fail_msg("%s", err.message);
    if (fmt_writer_end(w, extra ? extra->info : NULL, &out, &err) != 0)
        fail_msg("%s", err.message);
    fmt_writer_destroy(w);
    char *s = malloc(out.length_bytes + 1);
    assert_non_null(s);
    if (out.length_bytes) memcpy(s, out.data, out.length_bytes);
    s[out.length_bytes] = 0;
    if (n) *n = out.length_bytes;
    mu_buf_deinit(&out);
    return s;
}

static void jt_expect_n(const char *format, ty_batch *const *batches, unsigned count,
                        const jt_result *extra, const char *want, size_t want_n) {
    size_t n;
    char *got = jt_write_n(format, batches, count, extra, &n);
    if (n != want_n || memcmp(got, want, n) != 0)
        fail_msg("%s: got [%s] (%zu bytes), want [%s] (%zu bytes)", format, got, n, want,
                 want_n);
    free(got);
}

static void jt_expect(const char *format, ty_batch *b, const jt_result *extra,
                      const char *want) {
    jt_expect_n(format, &b, 1, extra, want, strlen(want));
}

/* The statistics block with everything zero, as written without info. */
#define JT_STATS "\t\"statistics\":\n\t{\n\t\t\"elapsed\": 0,\n\t\t\"rows_read\": 0,\n" \
                 "\t\t\"bytes_read\": 0\n\t}\n}\n"

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

static void test_json_layout(void **state) {
    (void)state;
    ty_batch *b = fu_batch(2, (const char *[]){"x", "UInt64", "s", "String"});
    fu_row(b, (const char *[]){"1", "a"});
    fu_row(b, (const char *[]){"18446744073709551615", "b\"/"});
    jt_expect("JSON", b, NULL,
              "{\n\t\"meta\":\n\t[\n"
              "\t\t{\n\t\t\t\"name\": \"x\",\n\t\t\t\"type\": \"UInt64\"\n\t\t},\n"
              "\t\t{\n\t\t\t\"name\": \"s\",\n\t\t\t\"type\": \"String\"\n\t\t}\n"
              "\t],\n\n\t\"data\":\n\t[\n"
              "\t\t{\n\t\t\t\"x\": \"1\",\n\t\t\t\"s\": \"a\"\n\t\t},\n"
              "\t\t{\n\t\t\t\"x\": \"18446744073709551615\",\n\t\t\t\"s\": \"b\\\"\\/\"\n\t\t}\n"
              "\t],\n\n\t\"rows\": 2,\n\n" JT_STATS);
    jt_expect("JSONCompact", b, NULL,
              "{\n\t\"meta\":\n\t[\n"
              "\t\t{\n\t\t\t\"name\": \"x\",\n\t\t\t\"type\": \"UInt64\"\n\t\t},\n"
              "\t\t{\n\t\t\t\"name\": \"s\",\n\t\t\t\"type\": \"String\"\n\t\t}\n"
              "\t],\n\n\t\"data\":\n\t[\n"
              "\t\t[\"1\", \"a\"],\n\t\t[\"18446744073709551615\", \"b\\\"\\/\"]\n"
              "\t],\n\n\t\"rows\": 2,\n\n" JT_STATS);
    ty_batch_destroy(b);
}

static void test_json_empty_and_statistics(void **state) {
    (void)state;
    ty_batch *b = fu_batch(1, (const char *[]){"n", "Nullable(Int8)"});
    mu_err err;
    assert_int_equal(ty_batch_seal(b, &err), 0);
    fmt_result_info info = {.rows_before_limit = 1000, .has_rows_before_limit = true,
                            .elapsed_s = 0.000515, .rows_read = 7, .bytes_read = 56};
    jt_result extra = {.info = &info};
    jt_expect("JSON", b, &extra,
              "{\n\t\"meta\":\n\t[\n"
              "\t\t{\n\t\t\t\"name\": \"n\",\n\t\t\t\"type\": \"Nullable(Int8)\"\n\t\t}\n"
              "\t],\n\n\t\"data\":\n\t[\n\n\t],\n\n\t\"rows\": 0,\n\n"
              "\t\"rows_before_limit_at_least\": 1000,\n\n"
              "\t\"statistics\":\n\t{\n\t\t\"elapsed\": 0.000515,\n\t\t\"rows_read\": 7,\n"
              "\t\t\"bytes_read\": 56\n\t}\n}\n");
    jt_expect("JSONColumns", b, NULL, "{\n\t\"n\": []\n}\n");
    jt_expect("JSONCompactEachRow", b, NULL, "");
    jt_expect("JSONStringsEachRow", b, NULL, "");
    ty_batch_destroy(b);
}

static void test_json_pretty_nesting(void **state) {
    (void)state;
    ty_batch *b = fu_batch(3, (const char *[]){"a", "Array(Nullable(String))", "m",
                                               "Map(String, Array(UInt8))", "e",
                                               "Array(Int32)"});
    fu_row(b, (const char *[]){"['x',NULL]", "{'k':[1,2],'l':[]}", "[]"});
    fu_row(b, (const char *[]){"[]", "{}", "[7]"});
    jt_expect("JSON", b, NULL,
              "{\n\t\"meta\":\n\t[\n"
              "\t\t{\n\t\t\t\"name\": \"a\",\n\t\t\t\"type\": \"Array(Nullable(String))\"\n\t\t},\n"
              "\t\t{\n\t\t\t\"name\": \"m\",\n\t\t\t\"type\": \"Map(String, Array(UInt8))\"\n"
              "\t\t},\n"
              "\t\t{\n\t\t\t\"name\": \"e\",\n\t\t\t\"type\": \"Array(Int32)\"\n\t\t}\n"
              "\t],\n\n\t\"data\":\n\t[\n"
              "\t\t{\n"
              "\t\t\t\"a\": [\n\t\t\t\t\"x\",\n\t\t\t\tnull\n\t\t\t],\n"
              "\t\t\t\"m\": {\n\t\t\t\t\"k\": [\n\t\t\t\t\t1,\n\t\t\t\t\t2\n\t\t\t\t],\n"
              "\t\t\t\t\"l\": []\n\t\t\t},\n"
              "\t\t\t\"e\": []\n"
              "\t\t},\n"
              "\t\t{\n\t\t\t\"a\": [],\n\t\t\t\"m\": {},\n\t\t\t\"e\": [\n\t\t\t\t7\n\t\t\t]\n"
              "\t\t}\n"
              "\t],\n\n\t\"rows\": 2,\n\n" JT_STATS);
    /* JSONCompact, JSONColumns and the line kinds never pretty print */
    jt_expect("JSONCompactEachRow", b, NULL,
              "[[\"x\",null], {\"k\":[1,2],\"l\":[]}, []]\n[[], {}, [7]]\n");
    jt_expect("JSONColumns", b, NULL,
              "{\n\t\"a\": [[\"x\",null], []],\n\t\"m\": [{\"k\":[1,2],\"l\":[]}, {}],\n"
              "\t\"e\": [[], [7]]\n}\n");
    jt_expect("JSONStringsEachRow", b, NULL,
              "{\"a\":\"['x',NULL]\",\"m\":\"{'k':[1,2],'l':[]}\",\"e\":\"[]\"}\n"
              "{\"a\":\"[]\",\"m\":\"{}\",\"e\":\"[7]\"}\n");
    ty_batch_destroy(b);
}

static void test_json_totals(void **state) {
    (void)state;
    ty_batch *b = fu_batch(2, (const char *[]){"k", "String", "c", "Array(UInt64)"});
    fu_row(b, (const char *[]){"a", "[1]"});
    ty_batch *t = fu_batch(2, (const char *[]){"k", "String", "c", "Array(UInt64)"});
    fu_row(t, (const char *[]){"", "[3,4]"});
    jt_result extra = {.totals = t};
    jt_expect("JSON", b, &extra,
              "{\n\t\"meta\":\n\t[\n"
              "\t\t{\n\t\t\t\"name\": \"k\",\n\t\t\t\"type\": \"String\"\n\t\t},\n"
              "\t\t{\n\t\t\t\"name\": \"c\",\n\t\t\t\"type\": \"Array(UInt64)\"\n\t\t}\n"
              "\t],\n\n\t\"data\":\n\t[\n"
              "\t\t{\n\t\t\t\"k\": \"a\",\n\t\t\t\"c\": [\n\t\t\t\t\"1\"\n\t\t\t]\n\t\t}\n"
              "\t],\n\n\t\"totals\":\n\t{\n\t\t\"k\": \"\",\n\t\t\"c\": [\"3\",\"4\"]\n\t},\n\n"
              "\t\"rows\": 1,\n\n" JT_STATS);
    jt_expect("JSONCompact", b, &extra,
              "{\n\t\"meta\":\n\t[\n"
              "\t\t{\n\t\t\t\"name\": \"k\",\n\t\t\t\"type\": \"String\"\n\t\t},\n"
              "\t\t{\n\t\t\t\"name\": \"c\",\n\t\t\t\"type\": \"Array(UInt64)\"\n\t\t}\n"
              "\t],\n\n\t\"data\":\n\t[\n\t\t[\"a\", [\"1\"]]\n"
              "\t],\n\n\t\"totals\": [\"\", [\"3\",\"4\"]],\n\n"
              "\t\"rows\": 1,\n\n" JT_STATS);
    jt_expect("JSONStrings", b, &extra,
              "{\n\t\"meta\":\n\t[\n"
              "\t\t{\n\t\t\t\"name\": \"k\",\n\t\t\t\"type\": \"String\"\n\t\t},\n"
              "\t\t{\n\t\t\t\"name\": \"c\",\n\t\t\t\"type\": \"Array(UInt64)\"\n\t\t}\n"
              "\t],\n\n\t\"data\":\n\t[\n"
              "\t\t{\n\t\t\t\"k\": \"a\",\n\t\t\t\"c\": \"[1]\"\n\t\t}\n"
              "\t],\n\n\t\"totals\":\n\t{\n\t\t\"k\": \"\",\n\t\t\"c\": \"[3,4]\"\n\t},\n\n"
              "\t\"rows\": 1,\n\n" JT_STATS);
    jt_expect("JSONCompactEachRow", b, &extra, "[\"a\", [\"1\"]]\n\n[\"\", [\"3\",\"4\"]]\n");
    jt_expect("JSONStringsEachRow", b, &extra, "{\"k\":\"a\",\"c\":\"[1]\"}\n");
    jt_expect("JSONColumns", b, &extra, "{\n\t\"k\": [\"a\"],\n\t\"c\": [[\"1\"]]\n}\n");
    ty_batch_destroy(t);
    ty_batch_destroy(b);
}

static void test_value_forms(void **state) {
    (void)state;
    const char *nt[] = {"i8", "Int8", "u32", "UInt32", "i64", "Int64", "f", "Float64",
                        "g", "Float32", "b", "Bool", "d", "Decimal(18, 4)", "fs",
                        "FixedString(3)", "dt", "Date32", "t", "DateTime('Asia/Tokyo')",
                        "t64", "DateTime64(3, 'UTC')", "u", "UUID", "e",
                        "Enum8('a\\'' = 1, 'b' = 2)", "lc", "LowCardinality(Nullable(String))",
                        "z", "Nullable(Nothing)"};
    ty_batch *b = fu_batch(15, nt);
    fu_row(b, (const char *[]){"-128", "4294967295", "-9223372036854775808", "nan", "-inf",
                               "true", "-1.2500", "ab", "1900-01-01", "2000-01-01 09:00:00",
                               "2020-01-02 03:04:05.678", "61f0c404-5cb3-11e7-907b-a6006ad3dba0",
                               "a'", "k", NULL});
    fu_row(b, (const char *[]){"0", "0", "1", "0.1", "1e-7", "false", "3", "", "2299-12-31",
                               "1970-01-01 09:00:00", "1970-01-01 00:00:00.000",
                               "00000000-0000-0000-0000-000000000000", "b", NULL, NULL});
    jt_expect("JSONCompactEachRow", b, NULL,
              "[-128, 4294967295, \"-9223372036854775808\", null, null, true, -1.25, "
              "\"ab\\u0000\", \"1900-01-01\", \"2000-01-01 09:00:00\", "
              "\"2020-01-02 03:04:05.678\", \"61f0c404-5cb3-11e7-907b-a6006ad3dba0\", \"a'\", "
              "\"k\", null]\n"
              "[0, 0, \"1\", 0.1, 1e-7, false, 3, \"\\u0000\\u0000\\u0000\", \"2299-12-31\", "
              "\"1970-01-01 09:00:00\", \"1970-01-01 00:00:00.000\", "
              "\"00000000-0000-0000-0000-000000000000\", \"b\", null, null]\n");
    const char *null_text = "\"\xE1\xB4\xBA\xE1\xB5\x81\xE1\xB4\xB8\xE1\xB4\xB8\"";
    char want[1024];
    snprintf(want, sizeof want,
             "{\"i8\":\"-128\",\"u32\":\"4294967295\",\"i64\":\"-9223372036854775808\","
             "\"f\":\"nan\",\"g\":\"-inf\",\"b\":\"true\",\"d\":\"-1.25\",\"fs\":\"ab\\u0000\","
             "\"dt\":\"1900-01-01\",\"t\":\"2000-01-01 09:00:00\","
             "\"t64\":\"2020-01-02 03:04:05.678\","
             "\"u\":\"61f0c404-5cb3-11e7-907b-a6006ad3dba0\",\"e\":\"a'\",\"lc\":\"k\","
             "\"z\":%s}\n", null_text);
    size_t n;
    ty_batch *one = b;
    uint32_t first = 0;
    mu_err err;
    assert_int_equal(ty_batch_set_selection(one, &first, 1, &err), 0);
    char *got = jt_write_n("JSONStringsEachRow", &one, 1, NULL, &n);
    assert_string_equal(got, want);
    free(got);
    ty_batch_destroy(b);
}

static void test_options(void **state) {
    (void)state;
    ty_batch *b = fu_batch(3, (const char *[]){"u", "UInt64", "a", "Array(Int64)", "d",
                                               "Decimal(9, 3)"});
    fu_row(b, (const char *[]){"5", "[-1]", "1.5"});
    fmt_output_options opt = {.quote_64bit_integers = false, .decimal_trailing_zeros = true};
    jt_result extra = {.opt = &opt};
    jt_expect("JSONCompactEachRow", b, &extra, "[5, [-1], 1.500]\n");
    jt_expect("JSONStringsEachRow", b, &extra, "{\"u\":\"5\",\"a\":\"[-1]\",\"d\":\"1.500\"}\n");
    jt_expect("JSONCompactEachRow", b, NULL, "[\"5\", [\"-1\"], 1.5]\n");
    ty_batch_destroy(b);
}

static void test_utf8_repair(void **state) {
    (void)state;
    ty_batch *b = fu_batch(1, (const char *[]){"s\xff", "String"});
    /* a lone continuation byte, an overlong form, a surrogate, a run of bad
     * bytes, a cut sequence before the closing quote; valid text kept */
    fu_row(b, (const char *[]){"a\x80" "b\xc0\xaf" "c\xed\xa0\x80" "d\xff\xfe" "\xc3\xa9\xe2\x82"});
    const char *repl = "\xEF\xBF\xBD";
    char want[512];
    snprintf(want, sizeof want,
             "{\n\t\"meta\":\n\t[\n\t\t{\n\t\t\t\"name\": \"s%s\",\n\t\t\t\"type\": \"String\"\n"
             "\t\t}\n\t],\n\n\t\"data\":\n\t[\n\t\t[\"a%sb%sc%sd%s\xc3\xa9%s\"]\n\t],\n\n"
             "\t\"rows\": 1,\n\n" JT_STATS, repl, repl, repl, repl, repl, repl);
    jt_expect("JSONCompact", b, NULL, want);
    /* the line kinds pass bytes through (output_format_json_validate_utf8=0) */
    jt_expect("JSONCompactEachRow", b, NULL,
              "[\"a\x80" "b\xc0\xaf" "c\xed\xa0\x80" "d\xff\xfe\xc3\xa9\xe2\x82\"]\n");
    ty_batch_destroy(b);
}

static void test_batches_and_selection(void **state) {
    (void)state;
    ty_batch *b1 = fu_batch(2, (const char *[]){"x", "UInt8", "y", "Nullable(String)"});
    fu_row(b1, (const char *[]){"1", "p"});
    fu_row(b1, (const char *[]){"2", NULL});
    ty_batch *b2 = fu_batch(2, (const char *[]){"x", "UInt8", "y", "Nullable(String)"});
    fu_row(b2, (const char *[]){"3", "q"});
    fu_row(b2, (const char *[]){"4", "r"});
    mu_err err;
    assert_int_equal(ty_batch_set_selection(b2, (const uint32_t[]){1}, 1, &err), 0);
    ty_batch *both[] = {b1, b2};
    const char *want = "{\n\t\"x\": [1, 2, 4],\n\t\"y\": [\"p\", null, \"r\"]\n}\n";
    jt_expect_n("JSONColumns", both, 2, NULL, want, strlen(want));
    want = "{\n\t\"meta\":\n\t[\n"
           "\t\t{\n\t\t\t\"name\": \"x\",\n\t\t\t\"type\": \"UInt8\"\n\t\t},\n"
           "\t\t{\n\t\t\t\"name\": \"y\",\n\t\t\t\"type\": \"Nullable(String)\"\n\t\t}\n"
           "\t],\n\n\t\"data\":\n\t[\n"
           "\t\t{\n\t\t\t\"x\": \"1\",\n\t\t\t\"y\": \"p\"\n\t\t},\n"
           "\t\t{\n\t\t\t\"x\": \"2\",\n\t\t\t\"y\": \"\xE1\xB4\xBA\xE1\xB5\x81\xE1\xB4\xB8"
           "\xE1\xB4\xB8\"\n\t\t},\n"
           "\t\t{\n\t\t\t\"x\": \"4\",\n\t\t\t\"y\": \"r\"\n\t\t}\n"
           "\t],\n\n\t\"rows\": 3,\n\n" JT_STATS;
    jt_expect_n("JSONStrings", both, 2, NULL, want, strlen(want));
    ty_batch_destroy(b1);
    ty_batch_destroy(b2);
}

static void test_writer_kinds(void **state) {
    (void)state;
    assert_true(fmt_can_write(FMT_JSON));
    assert_true(fmt_can_write(FMT_JSON_STRINGS));
    assert_true(fmt_can_write(FMT_JSON_COMPACT));
    assert_true(fmt_can_write(FMT_JSON_COLUMNS));
    assert_true(fmt_can_write(FMT_JSON_COMPACT_EACH_ROW));
    assert_true(fmt_can_write(FMT_JSON_STRINGS_EACH_ROW));
    assert_true(fmt_can_read(FMT_JSON_EACH_ROW));
    assert_true(fmt_can_read(FMT_JSON_STRINGS_EACH_ROW));
    assert_true(fmt_can_read(FMT_JSON_COMPACT_EACH_ROW));
    assert_false(fmt_can_read(FMT_JSON));
    assert_false(fmt_can_read(FMT_JSON_COLUMNS));
}

/* ------------------------------------------------------------------ */
/* Input helpers                                                       */
/* ------------------------------------------------------------------ */

/* Reads text in chunks of `chunk` bytes (0: one feed); returns the rc and
 * fills err. */
static int jt_read_chunked(const char *format, ty_batch *b, const char *text, size_t n,
                           size_t chunk, unsigned flags, mu_err *err) {
    fmt_reader r;
    if (fmt_reader_init(&r, fmt_find(format), b, flags, 0, err) != 0) fail_msg("%s",
                                                                              err->message);
    int rc = 0;
    if (chunk == 0) chunk = n ? n : 1;
    for (size_t at = 0; rc == 0 && at < n; at += chunk)
        rc = fmt_reader_feed(&r, text + at, MU_MIN(chunk, n - at), err);
    if (rc == 0) rc = fmt_reader_finish(&r, err);
    fmt_reader_deinit(&r);
    return rc;
}

static int jt_read(const char *format, ty_batch *b, const char *text, mu_err *err) {
    return jt_read_chunked(format, b, text, strlen(text), 0, FMT_READ_NULL_AS_DEFAULT, err);
}

/* The rows read, as JSONCompactEachRow lines. */
static char *jt_dump(ty_batch *b) {
    mu_err err;
    assert_int_equal(ty_batch_seal(b, &err), 0);
    return jt_write_n("JSONCompactEachRow", &b, 1, NULL, NULL);
}

static void jt_expect_read(const char *format, const char *const *name_types, unsigned cols,
                           const char *text, const char *want) {
    ty_batch *b = fu_batch(cols, name_types);
    mu_err err;
    if (jt_read(format, b, text, &err) != 0) fail_msg("%s", err.message);
    char *got = jt_dump(b);
    if (strcmp(got, want) != 0) fail_msg("%s: got [%s], want [%s]", format, got, want);
    free(got);
    ty_batch_destroy(b);
}

/* Reading fails with `code`, a message holding `needle`, and no row
 * appended past the good rows (`rows`). */
static void jt_expect_fail(const char *format, const char *const *name_types, unsigned cols,
                           const char *text, int code, const char *needle, uint32_t rows) {
    ty_batch *b = fu_batch(cols, name_types);
    mu_err err;
    mu_err_clear(&err);
    int rc = jt_read(format, b, text, &err);
    if (rc != code) fail_msg("rc %d (%s), want %d", rc, err.message, code);
    if (strstr(err.message, needle) == NULL)
        fail_msg("message [%s] lacks [%s]", err.message, needle);
    for (uint32_t i = 0; i < b->column_count; i++) {
        assert_int_equal(b->columns[i]->row_count, rows);
        assert_int_equal(ty_column_validate(b->columns[i], &err), 0);
    }
    ty_batch_destroy(b);
}

/* ------------------------------------------------------------------ */
/* Input                                                               */
/* ------------------------------------------------------------------ */

static void test_read_each_row(void **state) {
    (void)state;
    const char *nt[] = {"i", "Int32", "s", "String", "n", "Nullable(Float64)", "d", "Date",
                        "a", "Array(Nullable(UInt8))", "m", "Map(String, Array(Int8))"};
    jt_expect_read("JSONEachRow", nt, 6,
                   "{\"i\":1,\"s\":\"x\",\"n\":1.5,\"d\":\"2024-02-29\",\"a\":[1,null],"
                   "\"m\":{\"k\":[-1,2]}}\n"
                   /* other order, unknown keys of every shape, missing keys */
                   "  { \"m\" : {} , \"zz\": {\"q\":[1,{\"r\":null}],\"t\":\"\\\"}\"}, "
                   "\"s\":\"y\", \"i\": \"-7\", \"w\":[true,false,-1.5e3] }\n"
                   /* null: NULL or the default; quoted numbers; true/false as 1/0 */
                   "{\"i\":null,\"s\":null,\"n\":null,\"d\":null,\"a\":null,\"m\":null}"
                   "{\"i\":true,\"n\":\"2e3\",\"a\":[false,true]}\n",
                   "[1, \"x\", 1.5, \"2024-02-29\", [1,null], {\"k\":[-1,2]}]\n"
                   "[-7, \"y\", null, \"1970-01-01\", [], {}]\n"
                   "[0, \"\", null, \"1970-01-01\", [], {}]\n"
                   "[1, \"\", 2000, \"1970-01-01\", [0,1], {}]\n");
}

static void test_read_string_column(void **state) {
    (void)state;
    const char *nt[] = {"s", "String", "f", "FixedString(4)", "l", "LowCardinality(String)"};
    jt_expect_read("JSONEachRow", nt, 3,
                   "{\"s\":{\"a\": [1, \"]\"]},\"f\":\"ab\",\"l\":\"z\"}\n"
                   "{\"s\":[1, 2],\"l\":12.50}\n{\"s\":true,\"l\":false}\n{\"s\":-0.5e-3}\n"
                   "{\"s\":\"\\u00e9\\ud83d\\ude00\\u0041\\/\\q\\n\\u0000\"}\n",
                   "[\"{\\\"a\\\": [1, \\\"]\\\"]}\", \"ab\\u0000\\u0000\", \"z\"]\n"
                   "[\"[1, 2]\", \"\\u0000\\u0000\\u0000\\u0000\", \"12.50\"]\n"
                   "[\"true\", \"\\u0000\\u0000\\u0000\\u0000\", \"false\"]\n"
                   "[\"-0.5e-3\", \"\\u0000\\u0000\\u0000\\u0000\", \"\"]\n"
                   "[\"\xc3\xa9\xf0\x9f\x98\x80" "A\\/q\\n\\u0000\", "
                   "\"\\u0000\\u0000\\u0000\\u0000\", \"\"]\n");
}

static void test_read_all_types(void **state) {
    (void)state;
    const char *nt[] = {"u64", "UInt64", "b", "Bool", "d", "Decimal(9, 2)", "t",
                        "DateTime('UTC')", "t64", "DateTime64(3, 'UTC')", "u", "UUID", "e",
                        "Enum8('a' = 1, 'b' = 2)", "d32", "Date32", "z", "Nullable(Nothing)"};
    jt_expect_read("JSONEachRow", nt, 9,
                   "{\"u64\":\"18446744073709551615\",\"b\":true,\"d\":\"1.25\","
                   "\"t\":\"2001-02-03 04:05:06\",\"t64\":\"2001-02-03 04:05:06.7\","
                   "\"u\":\"61f0c404-5cb3-11e7-907b-a6006ad3dba0\",\"e\":\"b\","
                   "\"d32\":\"1900-01-01\",\"z\":null}\n"
                   "{\"u64\":5,\"b\":0,\"d\":-3.1,\"t\":86400,\"t64\":1.5,\"e\":1}\n",
                   "[\"18446744073709551615\", true, 1.25, \"2001-02-03 04:05:06\", "
                   "\"2001-02-03 04:05:06.700\", \"61f0c404-5cb3-11e7-907b-a6006ad3dba0\", "
                   "\"b\", \"1900-01-01\", null]\n"
                   "[\"5\", false, -3.1, \"1970-01-02 00:00:00\", \"1970-01-01 00:00:01.500\", "
                   "\"00000000-0000-0000-0000-000000000000\", \"a\", \"1970-01-01\", null]\n");
    jt_expect_fail("JSONEachRow", nt, 9, "{\"z\":\"x\"}", MU_EINPUT_ASSERTION,
                   "key 'z': value '\"x\"': a Nothing column holds only null", 0);
    jt_expect_fail("JSONEachRow", nt, 9, "{\"z\":0}", MU_EINPUT_ASSERTION, "expected a JSON string",
                   0);
}

static void test_read_framing(void **state) {
    (void)state;
    const char *nt[] = {"x", "UInt8"};
    const char *want = "[1]\n[2]\n[3]\n";
    jt_expect_read("JSONEachRow", nt, 1, "\xEF\xBB\xBF[{\"x\":1},{\"x\":2} {\"x\":3}]\n;\n",
                   want);
    jt_expect_read("JSONEachRow", nt, 1, "{\"x\":1},\n{\"x\":2}\n{\"x\":3},", want);
    jt_expect_read("JSONEachRow", nt, 1, "{\"x\":1}{\"x\":2}{\"x\":3};", want);
    jt_expect_read("JSONLines", nt, 1, " [ ] ", "");
    jt_expect_read("NDJSON", nt, 1, "", "");
    jt_expect_read("JSONCompactEachRow", nt, 1, "[1], [2];\n [ 3 ] ,", want);
    jt_expect_fail("JSONEachRow", nt, 1, "{\"x\":1},,{\"x\":2}", MU_EINPUT_ASSERTION,
                   "row 2: expected '{'", 1);
    jt_expect_fail("JSONEachRow", nt, 1, "[{\"x\":1},]", MU_EINPUT_ASSERTION, "expected '{'",
                   1);
    jt_expect_fail("JSONEachRow", nt, 1, "[{\"x\":1}", MU_EINPUT_ASSERTION, "expected ']'", 1);
    jt_expect_fail("JSONEachRow", nt, 1, "{\"x\":1};{\"x\":2}", MU_EINPUT_ASSERTION,
                   "after the end", 1);
    jt_expect_fail("JSONEachRow", nt, 1, "{\"x\":1}\n{\"x\":", MU_EINPUT_ASSERTION,
                   "row 2, key 'x': expected a value", 1);
    jt_expect_fail("JSONEachRow", nt, 1, "{\"x\":[1}", MU_EINPUT_ASSERTION,
                   "row 1, key 'x': value '': expected a scalar value", 0);
    jt_expect_fail("JSONCompactEachRow", nt, 1, "{\"x\":1}", MU_EINPUT_ASSERTION,
                   "expected '['", 0);
}

static void test_read_strings_each_row(void **state) {
    (void)state;
    const char *nt[] = {"i", "Int16", "s", "String", "n", "Nullable(String)", "a",
                        "Array(String)"};
    jt_expect_read("JSONStringsEachRow", nt, 4,
                   "{\"i\":\"-5\",\"s\":\"a\\tb\",\"n\":\"NULL\",\"a\":\"['x','y']\"}\n"
                   "{\"i\":\"\xE1\xB4\xBA\xE1\xB5\x81\xE1\xB4\xB8\xE1\xB4\xB8\",\"s\":\"nUlL\","
                   "\"n\":\"\xE1\xB4\xBA\xE1\xB5\x81\xE1\xB4\xB8\xE1\xB4\xB8\",\"a\":\"[]\"}\n"
                   "{\"n\":\"\\\\N\"}\n{\"n\":\"Null!\"}\n",
                   "[-5, \"a\\tb\", null, [\"x\",\"y\"]]\n[0, \"\", null, []]\n"
                   "[0, \"\", \"\\\\N\", []]\n[0, \"\", \"Null!\", []]\n");
    jt_expect_fail("JSONStringsEachRow", nt, 4, "{\"i\":\"\\\\N\"}", MU_EINPUT_ASSERTION,
                   "key 'i': value '\"\\\\N\"'", 0);
    jt_expect_fail("JSONStringsEachRow", nt, 4, "{\"i\":5}", MU_EINPUT_ASSERTION,
                   "key 'i': value '5': expected a JSON string", 0);
    jt_expect_fail("JSONStringsEachRow", nt, 4, "{\"i\":\"1\"}\n{\"a\":\"[1]\"}",
                   MU_EINPUT_ASSERTION, "row 2, key 'a': value '\"[1]\"'", 1);
}

static void test_read_compact(void **state) {
    (void)state;
    const char *nt[] = {"a", "Int64", "b", "Nullable(String)", "c", "Map(UInt8, String)"};
    jt_expect_read("JSONCompactEachRow", nt, 3,
                   "[1, \"x\", {\"1\": \"p\", \"2\": \"q\"}]\n[\"2\", null, {}]\n",
                   "[\"1\", \"x\", {\"1\":\"p\",\"2\":\"q\"}]\n[\"2\", null, {}]\n");
    jt_expect_fail("JSONCompactEachRow", nt, 3, "[1, \"x\"]", MU_EINPUT_ASSERTION,
                   "expected 3 values, found 2", 0);
    jt_expect_fail("JSONCompactEachRow", nt, 3, "[1, \"x\", {}, 4]", MU_EINPUT_ASSERTION,
                   "found more", 0);
    jt_expect_fail("JSONCompactEachRow", nt, 3, "[1, \"x\", {\"300\": \"p\"}]",
                   MU_EINPUT_ASSERTION, "row 1, column 3 'c': value '\"300\"'", 0);
    jt_expect_fail("JSONCompactEachRow", nt, 3, "[]", MU_EINPUT_ASSERTION, "found 0", 0);
}

static void test_read_errors(void **state) {
    (void)state;
    const char *nt[] = {"i", "UInt8", "d", "Date", "a", "Array(Int32)", "u", "UUID"};
    const char *ok = "{\"i\":1}\n";
    char text[256];
    struct {
        const char *row;
        int code;
        const char *needle;
    } cases[] = {
        {"{\"i\":300}", MU_EINPUT_ASSERTION, "row 2, key 'i': value '300'"},
        {"{\"i\":1.5}", MU_EINPUT_ASSERTION, "value '1.5'"},
        {"{\"i\":\"x\"}", MU_EINPUT_ASSERTION, "key 'i': value '\"x\"'"},
        {"{\"i\":[1]}", MU_EINPUT_ASSERTION, "expected a scalar value"},
        {"{\"d\":\"2024-13-01\"}", MU_EPARSE_DATE, "key 'd': value '\"2024-13-01\"'"},
        {"{\"d\":20240101}", MU_EINPUT_ASSERTION, "expected a JSON string"},
        {"{\"u\":\"zz\"}", MU_EPARSE_UUID, "key 'u'"},
        {"{\"a\":[1,\"b\"]}", MU_EINPUT_ASSERTION, "key 'a': value '\"b\"'"},
        {"{\"a\":[1 2]}", MU_EINPUT_ASSERTION, "expected ',' or ']'"},
        {"{\"a\":{}}", MU_EINPUT_ASSERTION, "expected an array"},
        {"{\"i\":1,\"i\":2}", MU_EINCORRECT_DATA, "duplicate field"},
        {"{\"i\":1,}", MU_EINPUT_ASSERTION, "expected a key"},
        {"{\"i\" 1}", MU_EINPUT_ASSERTION, "expected ':'"},
        {"{\"i\":1 \"d\":2}", MU_EINPUT_ASSERTION, "expected ',' or '}'"},
        {"{\"x\":[1,}]}", MU_EINPUT_ASSERTION, "row 2, key 'x'"},
        {"{\"x\":tru}", MU_EINPUT_ASSERTION, "expected a JSON value"},
        {"{\"i\":1}}", MU_EINPUT_ASSERTION, "row 3: expected '{'"},
        {"{\"s\":\"\\ud800\"}", MU_EESCAPE, "surrogate"},
        {"{\"s\":\"\\u12\"}", MU_EESCAPE, "bad \\u escape"},
        {"{\"i\":1]", MU_EINPUT_ASSERTION, "expected ',' or '}'"},
    };
    for (size_t i = 0; i < MU_ARRAY_LEN(cases); i++) {
        snprintf(text, sizeof text, "%s%s\n%s", ok, cases[i].row, ok);
        uint32_t good = strcmp(cases[i].row, "{\"i\":1}}") == 0 ? 2 : 1;
        jt_expect_fail("JSONEachRow", nt, 4, text, cases[i].code, cases[i].needle, good);
    }
}

static void test_read_null_without_default(void **state) {
    (void)state;
    const char *nt[] = {"i", "Int32", "a", "Array(Int32)"};
    ty_batch *b = fu_batch(2, nt);
    mu_err err;
    const char *text = "{\"i\":null}";
    assert_int_equal(jt_read_chunked("JSONEachRow", b, text, strlen(text), 0, 0, &err),
                     MU_EPARSE);
    assert_non_null(strstr(err.message, "null in a column that is not Nullable"));
    text = "{\"i\":1,\"a\":[1,null]}";
    assert_int_equal(jt_read_chunked("JSONEachRow", b, text, strlen(text), 0, 0, &err),
                     MU_EPARSE);
    assert_int_equal(b->columns[0]->row_count, 0);
    assert_int_equal(b->columns[1]->row_count, 0);
    assert_int_equal(ty_column_validate(b->columns[1], &err), 0);
    ty_batch_destroy(b);
}

/* Every split of the input gives the same rows as one feed. */
static void test_read_any_chunking(void **state) {
    (void)state;
    const char *nt[] = {"s", "String", "a", "Array(Map(String, Nullable(Int64)))", "x",
                        "Float32"};
    const char *text = "\xEF\xBB\xBF[ {\"s\":\"a\\\"}{[\\\\\",\"a\":[{\"k\\u00e9\":null,\"l\":-3}],"
                       "\"x\":\"1.5\"},\n {\"zz\":[\"]\",{\"}\":1}],\"s\":{\"q\":\"}\"}}]";
    ty_batch *whole = fu_batch(3, nt);
    mu_err err;
    if (jt_read("JSONEachRow", whole, text, &err) != 0) fail_msg("%s", err.message);
    char *want = jt_dump(whole);
    assert_string_equal(want, "[\"a\\\"}{[\\\\\", [{\"k\xc3\xa9\":null,\"l\":\"-3\"}], 1.5]\n"
                              "[\"{\\\"q\\\":\\\"}\\\"}\", [], 0]\n");
    for (size_t chunk = 1; chunk <= strlen(text); chunk++) {
        ty_batch *b = fu_batch(3, nt);
        if (jt_read_chunked("JSONEachRow", b, text, strlen(text), chunk,
                            FMT_READ_NULL_AS_DEFAULT, &err) != 0)
            fail_msg("chunk %zu: %s", chunk, err.message);
        char *got = jt_dump(b);
        if (strcmp(got, want) != 0) fail_msg("chunk %zu: got [%s]", chunk, got);
        free(got);
        ty_batch_destroy(b);
    }
    free(want);
    ty_batch_destroy(whole);
}

/* TY_BATCH_ROWS_MAX rows fill the batch: feed returns 1 until drained. */
static void test_read_batch_full(void **state) {
    (void)state;
    ty_batch *b = fu_batch(1, (const char *[]){"x", "UInt8"});
    mu_buf text;
    mu_buf_init(&text, 0);
    mu_err err;
    for (uint32_t i = 0; i < TY_BATCH_ROWS_MAX + 3; i++)
        assert_int_equal(mu_buf_append_str(&text, "[1]\n", &err), 0);
    fmt_reader r;
    assert_int_equal(fmt_reader_init(&r, FMT_JSON_COMPACT_EACH_ROW, b, 0, 0, &err), 0);
    assert_int_equal(fmt_reader_feed(&r, text.data, text.length_bytes, &err), 1);
    assert_int_equal(b->columns[0]->row_count, TY_BATCH_ROWS_MAX);
    ty_column_clear(b->columns[0]);
    assert_int_equal(fmt_reader_feed(&r, NULL, 0, &err), 0);
    assert_int_equal(fmt_reader_finish(&r, &err), 0);
    assert_int_equal(b->columns[0]->row_count, 3);
    fmt_reader_deinit(&r);
    mu_buf_deinit(&text);
    ty_batch_destroy(b);
}

static void test_read_too_large(void **state) {
    (void)state;
    ty_batch *b = fu_batch(1, (const char *[]){"s", "String"});
    mu_err err;
    fmt_reader r;
    assert_int_equal(fmt_reader_init(&r, FMT_JSON_EACH_ROW, b, 0, 16, &err), 0);
    assert_int_equal(fmt_reader_feed(&r, "{\"s\":\"short\"}\n{\"s\":\"", 20, &err), 0);
    assert_int_equal(fmt_reader_feed(&r, "0123456789AB", 12, &err), MU_ETOO_LARGE);
    assert_non_null(strstr(err.message, "row 2 is longer than 16 bytes"));
    assert_int_equal(b->columns[0]->row_count, 1);
    fmt_reader_deinit(&r);
    ty_batch_destroy(b);
}

/* Deep JSON under an unknown key is skipped without recursion, up to a
 * limit. */
static void test_read_deep_unknown(void **state) {
    (void)state;
    const char *nt[] = {"x", "UInt8"};
    mu_buf text;
    mu_buf_init(&text, 0);
    mu_err err;
    assert_int_equal(mu_buf_append_str(&text, "{\"y\":", &err), 0);
    for (int i = 0; i < 1000; i++) assert_int_equal(mu_buf_append_str(&text, "[", &err), 0);
    for (int i = 0; i < 1000; i++) assert_int_equal(mu_buf_append_str(&text, "]", &err), 0);
    assert_int_equal(mu_buf_append_str(&text, ",\"x\":9}", &err), 0);
    assert_int_equal(mu_buf_append_u8(&text, 0, &err), 0);
    jt_expect_read("JSONEachRow", nt, 1, (const char *)text.data, "[9]\n");
    mu_buf_clear(&text);
    assert_int_equal(mu_buf_append_str(&text, "{\"y\":", &err), 0);
    for (int i = 0; i < 2000; i++) assert_int_equal(mu_buf_append_str(&text, "{\"a\":", &err), 0);
    assert_int_equal(mu_buf_append_str(&text, "1", &err), 0);
    for (int i = 0; i < 2000; i++) assert_int_equal(mu_buf_append_str(&text, "}", &err), 0);
    assert_int_equal(mu_buf_append_str(&text, "}", &err), 0);
    assert_int_equal(mu_buf_append_u8(&text, 0, &err), 0);
    jt_expect_fail("JSONEachRow", nt, 1, (const char *)text.data, MU_ETOO_DEEP, "nested", 0);
    mu_buf_deinit(&text);
}

/* What the JSON writers print reads back to the same values. */
static void test_round_trip(void **state) {
    (void)state;
    const char *nt[] = {"i", "Int64", "f", "Float64", "s", "Nullable(String)", "a",
                        "Array(Array(UInt16))", "m", "Map(String, Decimal(9, 3))", "e",
                        "Enum16('x' = -5, 'y' = 300)", "t", "DateTime64(6, 'UTC')"};
    ty_batch *b = fu_batch(7, nt);
    fu_row(b, (const char *[]){"-9223372036854775808", "1e300", "q\"\\/\n\x01\xe2\x80\xa8",
                               "[[1,2],[]]", "{'k':1.5,'':-0.001}", "y",
                               "2299-12-31 23:59:59.999999"});
    fu_row(b, (const char *[]){"0", "-0.1", NULL, "[]", "{}", "x", "1900-01-01 00:00:00"});
    const char *kinds[] = {"JSONEachRow", "JSONCompactEachRow", "JSONStringsEachRow"};
    mu_err err;
    for (size_t k = 0; k < MU_ARRAY_LEN(kinds); k++) {
        size_t n;
        char *text = jt_write_n(kinds[k], &b, 1, NULL, &n);
        ty_batch *again = fu_batch(7, nt);
        if (jt_read_chunked(kinds[k], again, text, n, 3, FMT_READ_NULL_AS_DEFAULT, &err) != 0)
            fail_msg("%s: %s", kinds[k], err.message);
        assert_int_equal(ty_batch_seal(again, &err), 0);
        char *second = jt_write_n(kinds[k], &again, 1, NULL, NULL);
        assert_string_equal(second, text);
        free(second);
        free(text);
        ty_batch_destroy(again);
    }
    ty_batch_destroy(b);
}

/* ------------------------------------------------------------------ */
/* Settings and skipping bad rows                                      */
/* ------------------------------------------------------------------ */

typedef struct jt_opts {
    unsigned flags;
    uint64_t num;
    double ratio;
    size_t max_record;
    size_t chunk;
} jt_opts;

/* Reads text with options; returns rc, fills *dump with the rows as
 * JSONCompactEachRow and *skipped with the rows dropped. */
static int jt_read_opts(const char *format, const char *const *name_types, unsigned cols,
                        const char *text, const jt_opts *o, char **dump, uint64_t *skipped,
                        mu_err *err) {
    ty_batch *b = fu_batch(cols, name_types);
    fmt_reader r;
    size_t n = strlen(text);
    if (fmt_reader_init(&r, fmt_find(format), b, o->flags, o->max_record, err) != 0)
        fail_msg("%s", err->message);
    assert_int_equal(fmt_reader_allow_errors(&r, o->num, o->ratio, err), 0);
    size_t chunk = o->chunk ? o->chunk : (n ? n : 1);
    int rc = 0;
    for (size_t at = 0; rc == 0 && at < n; at += chunk)
        rc = fmt_reader_feed(&r, text + at, MU_MIN(chunk, n - at), err);
    if (rc == 0) rc = fmt_reader_finish(&r, err);
    *skipped = r.rows_skipped;
    fmt_reader_deinit(&r);
    *dump = jt_dump(b);
    ty_batch_destroy(b);
    return rc;
}

static void test_read_settings(void **state) {
    (void)state;
    static const char *const nt[] = {"a", "Int32", "t", "DateTime('UTC')",
                                     "l", "Array(Int32)"};
    ty_batch *b = fu_batch(3, nt);
    mu_err err;
    fmt_reader r;
    const char *in = "{\"a\":1,\"t\":\"2024-01-15T10:30:00Z\",\"l\":[1,null]}\n"
                     "{\"t\":1705314600,\"l\":null}\n{\"a\":null}\n";
    assert_int_equal(fmt_reader_init(&r, FMT_JSON_EACH_ROW, b,
                                     FMT_READ_NULL_AS_DEFAULT | FMT_READ_DATETIME_BEST_EFFORT, 0,
                                     &err), 0);
    assert_int_equal(fmt_reader_feed(&r, in, strlen(in), &err), 0);
    assert_int_equal(fmt_reader_finish(&r, &err), 0);
    /* a missing key and a top-level null are marked; a null element is not */
    assert_false(fmt_reader_missing(&r, 0, 0));
    assert_false(fmt_reader_missing(&r, 2, 0));
    assert_true(fmt_reader_missing(&r, 0, 1));
    assert_true(fmt_reader_missing(&r, 2, 1));
    assert_true(fmt_reader_missing(&r, 0, 2));
    assert_true(fmt_reader_missing(&r, 1, 2));
    assert_false(fmt_reader_missing(&r, 1, 1));
    fmt_reader_deinit(&r);
    char *got = jt_dump(b);
    assert_string_equal(got, "[1, \"2024-01-15 10:30:00\", [1,0]]\n"
                             "[0, \"2024-01-15 10:30:00\", []]\n"
                             "[0, \"1970-01-01 00:00:00\", []]\n");
    free(got);
    ty_batch_destroy(b);
    /* skip_unknown_fields=0 */
    jt_opts o = {.flags = FMT_READ_UNKNOWN_FIELDS_ERROR};
    uint64_t skipped;
    assert_int_equal(jt_read_opts("JSONEachRow", nt, 3, "{\"a\":1,\"zz\":2}", &o, &got, &skipped,
                                  &err), MU_EINCORRECT_DATA);
    assert_non_null(strstr(err.message, "row 1, key 'zz'"));
    assert_non_null(strstr(err.message, "unknown field found while parsing JSONEachRow"));
    free(got);
    /* basic DateTime text does not take ISO 8601 with Z */
    o.flags = 0;
    assert_int_equal(jt_read_opts("JSONEachRow", nt, 3, "{\"t\":\"2024-01-15T10:30:00Z\"}", &o,
                                  &got, &skipped, &err), MU_EPARSE_DATETIME);
    free(got);
}

static const char *const jt_pair[] = {"a", "Int32", "s", "String"};

typedef struct jt_skip_case {
    const char *format;
    const char *in;
    const char *want;
    uint64_t skipped;
} jt_skip_case;

static const jt_skip_case jt_skip_cases[] = {
    /* a broken object, a bad value, a duplicate key, an unclosed row, garbage */
    {"JSONEachRow",
     "{\"a\":1,\"s\":\"x\"}\n{\"a\":}\n{\"a\":\"q\"}\n{\"a\":2,\"a\":3}\n{\"a\":[1,2}\n"
     "junk here\n{\"a\":4,\"s\":\"y\"}\n",
     "[1, \"x\"]\n[4, \"y\"]\n", 5},
    /* inside [ ... ] with commas */
    {"JSONEachRow", "[{\"a\":1},\n{\"a\":x},\n{\"a\":3}]", "[1, \"\"]\n[3, \"\"]\n", 1},
    /* the unclosed row at the very end */
    {"JSONEachRow", "{\"a\":1}\n{\"a\":[", "[1, \"\"]\n", 1},
    {"JSONStringsEachRow", "{\"a\":\"1\"}\n{\"a\":2}\n{\"a\":\"x\"}\n{\"a\":\"4\",\"s\":\"z\"}\n",
     "[1, \"\"]\n[4, \"z\"]\n", 2},
    {"JSONCompactEachRow", "[1, \"a\"]\n[2]\n[\"x\", \"b\"]\n[3, \"c\", 9]\n{}\n[4, \"d\"]\n",
     "[1, \"a\"]\n[4, \"d\"]\n", 4},
};

static void test_read_allow_errors(void **state) {
    (void)state;
    for (size_t i = 0; i < MU_ARRAY_LEN(jt_skip_cases); i++) {
        const jt_skip_case *c = &jt_skip_cases[i];
        for (size_t chunk = 0; chunk < 12; chunk++) {
            jt_opts o = {.num = 10, .chunk = chunk};
            char *got;
            uint64_t skipped;
            mu_err err;
            int rc = jt_read_opts(c->format, jt_pair, 2, c->in, &o, &got, &skipped, &err);
            if (rc != 0) fail_msg("case %zu chunk %zu: %s", i, chunk, err.message);
            if (strcmp(got, c->want) != 0 || skipped != c->skipped)
                fail_msg("case %zu chunk %zu: got [%s] (%llu skipped)", i, chunk, got,
                         (unsigned long long)skipped);
            free(got);
        }
    }
    /* the limits: the third error is one too many */
    jt_opts o = {.num = 2};
    char *got;
    uint64_t skipped;
    mu_err err;
    assert_int_equal(jt_read_opts("JSONEachRow", jt_pair, 2, jt_skip_cases[0].in, &o, &got,
                                  &skipped, &err), MU_EINCORRECT_DATA);
    assert_non_null(strstr(err.message, "row 4, key 'a'"));
    assert_non_null(strstr(err.message, "(Already have 3 errors out of 4 rows, which is 0.75 of "
                                        "all rows)"));
    free(got);
    /* a row that never closes and runs past the limit is skipped to the end
     * of its line, and the rows after it are read */
    char in[3000];
    int n = snprintf(in, sizeof(in), "{\"a\":[1,2}\n");
    for (int k = 0; k < 200; k++) n += snprintf(in + n, sizeof(in) - (size_t)n, "{\"a\":%d}\n", k);
    o = (jt_opts){.num = 1, .max_record = 256, .chunk = 64};
    assert_int_equal(jt_read_opts("JSONEachRow", jt_pair, 2, in, &o, &got, &skipped, &err), 0);
    assert_int_equal(skipped, 1);
    assert_non_null(strstr(got, "[0, \"\"]\n[1, \"\"]\n"));
    assert_non_null(strstr(got, "[199, \"\"]\n"));
    free(got);
    /* a well-formed row longer than the limit stays an error */
    o = (jt_opts){.num = 5, .max_record = 16};
    assert_int_equal(jt_read_opts("JSONEachRow", jt_pair, 2,
                                  "{\"s\":\"0123456789012345678901234567890\"}\n", &o, &got,
                                  &skipped, &err), MU_ETOO_LARGE);
    free(got);
    o.chunk = 4;
    assert_int_equal(jt_read_opts("JSONEachRow", jt_pair, 2,
                                  "{\"s\":\"0123456789012345678901234567890\"}\n", &o, &got,
                                  &skipped, &err), MU_ETOO_LARGE);
    free(got);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_settings),
        cmocka_unit_test(test_read_allow_errors),
        cmocka_unit_test(test_json_layout),
        cmocka_unit_test(test_json_empty_and_statistics),
        cmocka_unit_test(test_json_pretty_nesting),
        cmocka_unit_test(test_json_totals),
        cmocka_unit_test(test_value_forms),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_utf8_repair),
        cmocka_unit_test(test_batches_and_selection),
        cmocka_unit_test(test_writer_kinds),
        cmocka_unit_test(test_read_each_row),
        cmocka_unit_test(test_read_string_column),
        cmocka_unit_test(test_read_all_types),
        cmocka_unit_test(test_read_framing),
        cmocka_unit_test(test_read_strings_each_row),
        cmocka_unit_test(test_read_compact),
        cmocka_unit_test(test_read_errors),
        cmocka_unit_test(test_read_null_without_default),
        cmocka_unit_test(test_read_any_chunking),
        cmocka_unit_test(test_read_batch_full),
        cmocka_unit_test(test_read_too_large),
        cmocka_unit_test(test_read_deep_unknown),
        cmocka_unit_test(test_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
