/* read_test.c: goal: the streaming TSV/CSV reader parses every type from
 * ClickHouse's text (escapes, quoting, \N, composites), gives the same
 * batch whatever the chunk boundaries (split at every byte), round-trips
 * writer output, checks WithNames headers, and refuses bad input with
 * a parse error (MU_EPARSE or ClickHouse's finer codes) naming row, column and value, leaving no partial row; records
 * past the length limit are MU_ETOO_LARGE; a full batch pauses the reader. */
#include "formats_test_util.h"

static const char *const mixed[] = {
    "i", "Int32", "s", "Nullable(String)", "f", "Float64", "d", "Date",
    "a", "Array(String)", "m", "Map(String, UInt8)", "e", "Enum8('a' = 1, 'b' = 2)",
    "x", "Decimal(9, 2)",
};
enum { MIXED_COLS = 8 };

/* Feeds `in` in chunks of `chunk` bytes (0 = all at once) into a fresh
 * batch of `schema`; returns the rc of the failing call or 0. */
static int rd_parse(const char *format, const char *const *schema, unsigned cols,
                    const char *in, size_t n, size_t chunk, unsigned flags, ty_batch **out,
                    mu_err *err) {
    ty_batch *b = fu_batch(cols, schema);
    fmt_reader r;
    int rc = fmt_reader_init(&r, fmt_find(format), b, flags, 0, err);
    for (size_t at = 0; rc == 0 && at < n;) {
        size_t step = chunk == 0 || n - at < chunk ? n - at : chunk;
        rc = fmt_reader_feed(&r, in + at, step, err);
        at += step;
    }
    if (rc == 0) rc = fmt_reader_finish(&r, err);
    fmt_reader_deinit(&r);
    if (rc == 0) assert_int_equal(ty_batch_seal(b, err), 0);
    *out = b;
    return rc;
}

/* Parses in, then re-writes the batch in the same format and compares. */
static void rd_round_trip(const char *format, const char *const *schema, unsigned cols,
                          const char *in, const char *want_out) {
    ty_batch *b;
    mu_err err;
    if (rd_parse(format, schema, cols, in, strlen(in), 0, 0, &b, &err) != 0)
        fail_msg("%s", err.message);
    fu_expect(format, b, want_out ? want_out : in);
    ty_batch_destroy(b);
}

static const char tsv_in[] =
    "1\ta\\tb\\nc\\\\\\'\\0\\x41\\a\\v\\q\\\n\t1.5\t2024-02-29\t['x\\'y','']\t{'k':1}\ta\t1.25\n"
    "-2147483648\t\\N\tinf\t1970-01-01\t[]\t{}\tb\t-0.5\n"
    "3\t\t-0\t2149-06-06\t['\\t']\t{'a':255,'b':0}\ta\t0\n";

static void test_tsv(void **state) {
    (void)state;
    ty_batch *b;
    mu_err err;
    assert_int_equal(rd_parse("TSV", mixed, MIXED_COLS, tsv_in, strlen(tsv_in), 0, 0, &b,
                              &err), 0);
    assert_int_equal(b->row_count, 3);
    fu_expect("TSV", b,
              "1\ta\\tb\\nc\\\\\\'\\0A\x07\x0bq\\n\t1.5\t2024-02-29\t"
              "['x\\'y','']\t{'k':1}\ta\t1.25\n"
              "-2147483648\t\\N\tinf\t1970-01-01\t[]\t{}\tb\t-0.5\n"
              "3\t\t-0\t2149-06-06\t['\\t']\t{'a':255,'b':0}\ta\t0\n");
    ty_batch_destroy(b);
}

static void test_csv(void **state) {
    (void)state;
    const char in[] = "1,\"a,b\"\"\nc\",1.5,\"2024-02-29\",\"['x\\'y']\",\"{'k':1}\",a,1.25\r\n"
                      "2,\\N,,2000-01-01,[],{},\"b\",\n"
                      "3,plain,1e3,\"1970-01-01\",\"[]\",\"{}\",a,7";
    ty_batch *b;
    mu_err err;
    assert_int_equal(rd_parse("CSV", mixed, MIXED_COLS, in, strlen(in), 0, 0, &b, &err), 0);
    fu_expect("CSV", b,
              "1,\"a,b\"\"\nc\",1.5,\"2024-02-29\",\"['x\\'y']\",\"{'k':1}\",\"a\",1.25\n"
              "2,\\N,0,\"2000-01-01\",\"[]\",\"{}\",\"b\",0\n"
              "3,\"plain\",1000,\"1970-01-01\",\"[]\",\"{}\",\"a\",7\n");
    ty_batch_destroy(b);
}

/* Every split position of the input gives the same batch. */
static void rd_chunked(const char *format, const char *in) {
    ty_batch *whole;
    mu_err err;
    size_t n = strlen(in);
    assert_int_equal(rd_parse(format, mixed, MIXED_COLS, in, n, 0, 0, &whole, &err), 0);
    char *want = fu_write(format, whole, NULL);
    for (size_t chunk = 1; chunk <= n; chunk++) {
        ty_batch *b;
        if (rd_parse(format, mixed, MIXED_COLS, in, n, chunk, 0, &b, &err) != 0)
            fail_msg("chunk %zu: %s", chunk, err.message);
        char *got = fu_write(format, b, NULL);
        assert_string_equal(got, want);
        free(got);
        ty_batch_destroy(b);
    }
    /* two pieces split at every byte */
    for (size_t at = 0; at <= n; at++) {
        ty_batch *b = fu_batch(MIXED_COLS, mixed);
        fmt_reader r;
        assert_int_equal(fmt_reader_init(&r, fmt_find(format), b, 0, 0, &err), 0);
        assert_int_equal(fmt_reader_feed(&r, in, at, &err), 0);
        assert_int_equal(fmt_reader_feed(&r, in + at, n - at, &err), 0);
        assert_int_equal(fmt_reader_finish(&r, &err), 0);
        fmt_reader_deinit(&r);
        assert_int_equal(ty_batch_seal(b, &err), 0);
        char *got = fu_write(format, b, NULL);
        assert_string_equal(got, want);
        free(got);
        ty_batch_destroy(b);
    }
    free(want);
    ty_batch_destroy(whole);
}

static void test_chunked(void **state) {
    (void)state;
    rd_chunked("TSV", tsv_in);
    rd_chunked("CSV", "1,\"a,b\"\"\nc\",1.5,\"2024-02-29\",\"['x\\'y']\",\"{'k':1}\",a,1.25\r\n"
                      "2,\\N,,2000-01-01,[],{},\"b\",\n3,\"\"\"\",0,\"1970-01-01\",[],{},a,1");
}

static void test_round_trips(void **state) {
    (void)state;
    rd_round_trip("TSV", mixed, MIXED_COLS,
                  "5\t\\\\N\t1e-7\t2000-02-29\t['\\\\','\\'','\"']\t{'':0}\tb\t-9999999.99\n",
                  NULL);
    rd_round_trip("CSV", mixed, MIXED_COLS,
                  "5,\"\\N\",1e-7,\"2000-02-29\",\"['\\\\','\\'','\"\"']\",\"{'':0}\",\"b\","
                  "-9999999.99\n", NULL);
    const char *nt[] = {"u", "UUID", "t", "DateTime('Asia/Tokyo')", "lc",
                        "LowCardinality(String)", "n", "Array(Nullable(Int8))"};
    rd_round_trip("TSVWithNamesAndTypes", nt, 4,
                  "u\tt\tlc\tn\nUUID\tDateTime(\\'Asia/Tokyo\\')\tLowCardinality(String)\t"
                  "Array(Nullable(Int8))\n"
                  "0123abcd-0000-4000-8000-00000000ffff\t2024-01-01 09:00:00\tx\\ty\t[NULL,1]\n",
                  NULL);
    rd_round_trip("CSVWithNames", nt, 4,
                  "\"u\",\"t\",\"lc\",\"n\"\n"
                  "\"0123abcd-0000-4000-8000-00000000ffff\",\"2024-01-01 09:00:00\",\"x\","
                  "\"[NULL,1]\"\n", NULL);
    /* empty input: no header needed; output always has one */
    rd_round_trip("TSVWithNames", nt, 4, "", "u\tt\tlc\tn\n");
}

/* Parses `in` expecting rc, an error message containing each of `parts`,
 * and no rows kept from the failing row on. */
static void rd_bad(const char *format, const char *in, unsigned flags, int want_rc,
                   uint32_t rows_kept, const char *part1, const char *part2) {
    ty_batch *b;
    mu_err err;
    int rc = rd_parse(format, mixed, MIXED_COLS, in, strlen(in), 0, flags, &b, &err);
    /* MU_EPARSE stands for the parse family: ClickHouse's codes for a bad
     * number (CANNOT_PARSE_INPUT_ASSERTION_FAILED), date, date-time, UUID. */
    bool parse_family = rc == MU_EPARSE || rc == MU_EINPUT_ASSERTION || rc == MU_EPARSE_DATE ||
                        rc == MU_EPARSE_DATETIME || rc == MU_EPARSE_UUID;
    if (rc != want_rc && !(want_rc == MU_EPARSE && parse_family))
        fail_msg("[%s]: rc %d, want %d", in, rc, want_rc);
    if (part1 && !strstr(err.message, part1)) fail_msg("[%s] not in [%s]", part1, err.message);
    if (part2 && !strstr(err.message, part2)) fail_msg("[%s] not in [%s]", part2, err.message);
    for (uint32_t i = 0; i < b->column_count; i++)
        assert_int_equal(b->columns[i]->row_count, rows_kept);
    ty_batch_destroy(b);
}

#define ROW_OK "1\ts\t0\t2000-01-01\t[]\t{}\ta\t0\n"

static void test_bad_tsv(void **state) {
    (void)state;
    rd_bad("TSV", ROW_OK "x\ts\t0\t2000-01-01\t[]\t{}\ta\t0\n", 0, MU_EPARSE, 1,
           "row 2, column 1 'i'", "value 'x'");
    rd_bad("TSV", ROW_OK ROW_OK "1\ts\t0\t2000-13-01\t[]\t{}\ta\t0\n", 0, MU_EPARSE, 2,
           "row 3, column 4 'd'", "2000-13-01");
    rd_bad("TSV", "99999999999\ts\t0\t2000-01-01\t[]\t{}\ta\t0\n", 0, MU_EPARSE, 0,
           "row 1, column 1 'i'", "99999999999");
    rd_bad("TSV", "1\ts\t0\t2000-01-01\t[\t{}\ta\t0\n", 0, MU_EPARSE, 0, "column 5 'a'", "'['");
    rd_bad("TSV", "1\ts\t0\t2000-01-01\t[]\t{}\tc\t0\n", 0, MU_EPARSE, 0, "column 7 'e'",
           "'c'");
    rd_bad("TSV", "1\ts\t0\t2000-01-01\t[]\t{}\ta\t1.2.3\n", 0, MU_EPARSE, 0, "column 8 'x'",
           "'1.2.3'");
    rd_bad("TSV", "\\N\ts\t0\t2000-01-01\t[]\t{}\ta\t0\n", 0, MU_EPARSE, 0, "column 1 'i'",
           "not Nullable");
    rd_bad("TSV", "1\ts\\\t0\t2000-01-01\t[]\t{}\ta\t0\n", 0, MU_EPARSE, 0, "column 2 's'",
           "bad escape");
    rd_bad("TSV", "1\ts\\x4\t0\t2000-01-01\t[]\t{}\ta\t0\n", 0, MU_EPARSE, 0, "column 2 's'",
           "bad escape");
    rd_bad("TSV", ROW_OK "1\ts\t0\n", 0, MU_EPARSE, 1, "row 2: expected 8 fields, found 3",
           NULL);
    rd_bad("TSV", "1\ts\t0\t2000-01-01\t[]\t{}\ta\t0\t9\n", 0, MU_EPARSE, 0,
           "found more than 8", NULL);
    rd_bad("TSV", "\n", 0, MU_EPARSE, 0, "row 1, column 1 'i'", "value ''");
    rd_bad("TSV", "1\ts\t0\t2000-01-01\t[]\t{}\ta\t0\r\n", 0, MU_EPARSE, 0, "column 8 'x'",
           NULL);
    /* null_as_default turns the \N error into a default value */
    rd_bad("TSV", "\\N\ts\t0\t2000-01-01\t[]\t{}\ta\t0\n", FMT_READ_NULL_AS_DEFAULT, 0, 1,
           NULL, NULL);
}

static void test_bad_csv(void **state) {
    (void)state;
    rd_bad("CSV", "1,s,0,2000-01-01,[],{},a,0\n1,\"s\"x,0,2000-01-01,[],{},a,0\n", 0,
           MU_EPARSE, 1, "row 2, column 2 's'", "bad quoting");
    rd_bad("CSV", "1,\"unterminated,0,2000-01-01,[],{},a,0\n", 0, MU_EPARSE, 0,
           "column 2 's'", "bad quoting");
    rd_bad("CSV", "1,s,zero,2000-01-01,[],{},a,0\n", 0, MU_EPARSE, 0, "column 3 'f'",
           "'zero'");
    rd_bad("CSV", "1,s,0,2000-01-01,\"['a'\",{},a,0\n", 0, MU_EPARSE, 0, "column 5 'a'", NULL);
    rd_bad("CSV", "1,s,0,2000-01-01,[],{},a\n", 0, MU_EPARSE, 0, "expected 8 fields, found 7",
           NULL);
    rd_bad("CSV", "1,s,0,2000-01-01,[],{},a,0,\n", 0, MU_EPARSE, 0, "found more than 8", NULL);
    rd_bad("CSV", "\\N,s,0,2000-01-01,[],{},a,0\n", 0, MU_EPARSE, 0, "not Nullable", NULL);
}

static void test_bad_headers(void **state) {
    (void)state;
    rd_bad("TSVWithNames", "i\ts\tf\td\ta\tm\te\ty\n" ROW_OK, 0, MU_EPARSE, 0,
           "header line of column names", NULL);
    rd_bad("TSVWithNames", "i\ts\n", 0, MU_EPARSE, 0, "header line", NULL);
    rd_bad("CSVWithNamesAndTypes", "i,s,f,d,a,m,e,x\nInt32,String,Float64,Date,"
           "Array(String),\"Map(String, UInt8)\",\"Enum8('a' = 1, 'b' = 2)\",\"Decimal(9, 2)\"\n",
           0, MU_EPARSE, 0, "header line of column types", "Int32,String");
    /* the right header is accepted */
    rd_bad("CSVWithNamesAndTypes", "i,s,f,d,a,m,e,x\nInt32,Nullable(String),Float64,Date,"
           "Array(String),\"Map(String, UInt8)\",\"Enum8('a' = 1, 'b' = 2)\",\"Decimal(9, 2)\"\n"
           "1,s,0,2000-01-01,[],{},a,0\n", 0, 0, 1, NULL, NULL);
}

static void test_limits_and_api(void **state) {
    (void)state;
    mu_err err;
    ty_batch *b = fu_batch(1, (const char *[]){"s", "String"});
    fmt_reader r;
    assert_int_equal(fmt_reader_init(&r, FMT_TSV_RAW, b, 0, 0, &err), MU_EINVAL);
    assert_int_equal(fmt_reader_init(&r, FMT_JSON, b, 0, 0, &err), MU_EINVAL);
    /* a record longer than the limit, complete or not */
    assert_int_equal(fmt_reader_init(&r, FMT_TSV, b, 0, 8, &err), 0);
    assert_int_equal(fmt_reader_feed(&r, "12345678\n", 9, &err), 0);
    assert_int_equal(fmt_reader_feed(&r, "123456789", 9, &err), MU_ETOO_LARGE);
    assert_non_null(strstr(err.message, "row 2 is longer than 8 bytes"));
    fmt_reader_deinit(&r);
    assert_int_equal(fmt_reader_init(&r, FMT_CSV, b, 0, 4, &err), 0);
    assert_int_equal(fmt_reader_feed(&r, "\"abcd\"\n", 7, &err), MU_ETOO_LARGE);
    fmt_reader_deinit(&r);
    ty_batch_destroy(b);
    ty_batch *none;
    assert_int_equal(ty_batch_create(NULL, &none, &err), 0);
    assert_int_equal(fmt_reader_init(&r, FMT_TSV, none, 0, 0, &err), MU_EINVAL);
    ty_batch_destroy(none);
}

/* A full batch pauses the reader until the caller takes the rows. */
static void test_batch_full(void **state) {
    (void)state;
    mu_err err;
    ty_batch *b = fu_batch(1, (const char *[]){"x", "UInt8"});
    fmt_reader r;
    assert_int_equal(fmt_reader_init(&r, FMT_CSV, b, 0, 0, &err), 0);
    size_t n = (TY_BATCH_ROWS_MAX + 10) * 2;
    char *in = malloc(n);
    assert_non_null(in);
    for (size_t i = 0; i < n; i += 2) memcpy(in + i, "7\n", 2);
    assert_int_equal(fmt_reader_feed(&r, in, n - 1, &err), 1);
    assert_int_equal(b->columns[0]->row_count, TY_BATCH_ROWS_MAX);
    ty_column_truncate(b->columns[0], 0);
    assert_int_equal(fmt_reader_feed(&r, NULL, 0, &err), 0);
    assert_int_equal(b->columns[0]->row_count, 9);
    assert_int_equal(fmt_reader_finish(&r, &err), 0);
    assert_int_equal(b->columns[0]->row_count, 10);
    assert_int_equal(r.row_number, TY_BATCH_ROWS_MAX + 10);
    fmt_reader_deinit(&r);
    free(in);
    ty_batch_destroy(b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tsv),
        cmocka_unit_test(test_csv),
        cmocka_unit_test(test_chunked),
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_bad_tsv),
        cmocka_unit_test(test_bad_csv),
        cmocka_unit_test(test_bad_headers),
        cmocka_unit_test(test_limits_and_api),
        cmocka_unit_test(test_batch_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
