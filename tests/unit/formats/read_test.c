/* read_test.c: goal: the streaming TSV/CSV reader parses every type from
 * ClickHouse's text (escapes, quoting, \N, composites), gives the same
 * batch whatever the chunk boundaries (split at every byte), round-trips
 * writer output, maps WithNames headers by name (reordered, unknown
 * skipped or refused, missing columns defaulted and marked missing, types
 * checked, both header settings off), reads TSVRaw, honours
 * null_as_default both ways and best-effort DateTime, and refuses bad
 * input with a parse error (MU_EPARSE or ClickHouse's finer codes) naming
 * row, column and value, leaving no partial row; under allow_errors bad
 * rows of TSV and CSV are dropped up to ClickHouse's num/ratio limits at
 * any chunking; records past the length limit are MU_ETOO_LARGE; a full
 * batch pauses the reader. */
#include "formats_test_util.h"

#include <math.h>

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
    /* without null_as_default \N is text: "N" after un-escaping, as ClickHouse reads it */
    rd_bad("TSV", "\\N\ts\t0\t2000-01-01\t[]\t{}\ta\t0\n", 0, MU_EPARSE, 0, "column 1 'i'",
           "value 'N'");
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
    rd_bad("CSV", "\\N,s,0,2000-01-01,[],{},a,0\n", 0, MU_EPARSE, 0, "value '\\N'", NULL);
}

static void test_bad_headers(void **state) {
    (void)state;
    rd_bad("TSVWithNames", "i\ts\tf\td\ta\tm\te\ty\n" ROW_OK, FMT_READ_UNKNOWN_FIELDS_ERROR,
           MU_EINCORRECT_DATA, 0, "Unknown field found in format header: 'y' at position 7",
           "input_format_skip_unknown_fields");
    rd_bad("TSVWithNames", "i\ts\ti\n", 0, MU_EINCORRECT_DATA, 0,
           "Duplicate field found while parsing format header: i", NULL);
    rd_bad("TSVWithNames", "i\ts\n1\n", 0, MU_EPARSE, 0, "row 1: expected 2 fields, found 1",
           NULL);
    rd_bad("CSVWithNames", "i,\"s\n", 0, MU_EINCORRECT_DATA, 0, "bad quoting", NULL);
    rd_bad("CSVWithNamesAndTypes", "i,s,f,d,a,m,e,x\nInt32,String,Float64,Date,"
           "Array(String),\"Map(String, UInt8)\",\"Enum8('a' = 1, 'b' = 2)\",\"Decimal(9, 2)\"\n",
           0, MU_EINCORRECT_DATA, 0, "Type of 's' must be Nullable(String), not String", NULL);
    rd_bad("TSVWithNamesAndTypes", "i\ts\nInt32\n", 0, MU_EINCORRECT_DATA, 0,
           "the number of data types (1) differs from the number of column names", NULL);
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
    assert_int_equal(fmt_reader_init(&r, FMT_PRETTY, b, 0, 0, &err), MU_EINVAL);
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

/* ------------------------------------------------------------------ */
/* Settings: headers, Raw, NULL, best effort, allowed errors           */
/* ------------------------------------------------------------------ */

static const char *const small[] = {"i", "Int32", "s", "String", "t", "DateTime('UTC')"};

/* Reads `in` with flags and allowed errors into a batch of `schema` in
 * chunks; returns rc, the batch as TSV in *text (malloc'd) and the reader's
 * counters. */
typedef struct rd_result {
    int rc;
    char *text;
    uint64_t rows_skipped;
    uint64_t row_number;
    char message[MU_ERR_MSG_BYTES];
    char missing[64]; /* per row of column 2 then 0: 'm' if marked, '.' if not */
} rd_result;

static rd_result rd_read(const char *format, const char *const *schema, unsigned cols,
                         const char *in, unsigned flags, uint64_t num, double ratio,
                         size_t chunk) {
    rd_result res;
    memset(&res, 0, sizeof(res));
    ty_batch *b = fu_batch(cols, schema);
    fmt_reader r;
    mu_err err;
    mu_err_clear(&err);
    size_t n = strlen(in);
    int rc = fmt_reader_init(&r, fmt_find(format), b, flags, 0, &err);
    if (rc == 0) rc = fmt_reader_allow_errors(&r, num, ratio, &err);
    for (size_t at = 0; rc == 0 && at < n;) {
        size_t step = chunk == 0 || n - at < chunk ? n - at : chunk;
        rc = fmt_reader_feed(&r, in + at, step, &err);
        at += step;
    }
    if (rc == 0) rc = fmt_reader_finish(&r, &err);
    res.rc = rc;
    res.rows_skipped = r.rows_skipped;
    res.row_number = r.row_number;
    snprintf(res.message, sizeof(res.message), "%s", rc ? err.message : "");
    uint32_t rows = b->columns[0]->row_count;
    for (uint32_t row = 0; row < rows && row < 30; row++) {
        res.missing[2 * row] = fmt_reader_missing(&r, cols - 1, row) ? 'm' : '.';
        res.missing[2 * row + 1] = fmt_reader_missing(&r, 0, row) ? 'm' : '.';
    }
    fmt_reader_deinit(&r);
    for (uint32_t i = 0; i < b->column_count; i++)
        assert_int_equal(b->columns[i]->row_count, rows);
    assert_int_equal(ty_batch_seal(b, &err), 0);
    res.text = fu_write("TSV", b, NULL);
    ty_batch_destroy(b);
    return res;
}

static void rd_expect(const rd_result *res, int rc, const char *text, const char *needle) {
    if (res->rc != rc) fail_msg("rc %d, want %d: %s", res->rc, rc, res->message);
    if (text && strcmp(res->text, text) != 0) fail_msg("got [%s], want [%s]", res->text, text);
    if (needle && !strstr(res->message, needle))
        fail_msg("[%s] not in [%s]", needle, res->message);
}

static void test_header_mapping(void **state) {
    (void)state;
    /* reordered, an unknown column skipped (any type in the types line),
     * a missing one defaulted and marked */
    rd_result res = rd_read("TSVWithNamesAndTypes", small, 3,
                            "s\textra\ti\nString\tWhatever(1)\tInt32\na\tzz\t1\nb\t\\N\t2\n",
                            0, 0, 0, 0);
    rd_expect(&res, 0, "1\ta\t1970-01-01 00:00:00\n2\tb\t1970-01-01 00:00:00\n", NULL);
    assert_string_equal(res.missing, "m.m.");
    free(res.text);
    res = rd_read("CSVWithNames", small, 3, "\"t\",\"i\"\n\"2024-01-02 03:04:05\",7\n", 0, 0,
                  0, 0);
    rd_expect(&res, 0, "7\t\t2024-01-02 03:04:05\n", NULL);
    free(res.text);
    /* input_format_with_names_use_header=0: the names line is not read */
    res = rd_read("TSVWithNames", small, 3, "x\ty\n1\ta\t0\n", FMT_READ_HEADER_NAMES_IGNORED, 0,
                  0, 0);
    rd_expect(&res, 0, "1\ta\t1970-01-01 00:00:00\n", NULL);
    free(res.text);
    /* input_format_with_types_use_header=0: the types line is not checked */
    res = rd_read("TSVWithNamesAndTypes", small, 3, "i\nUInt8\n5\n", FMT_READ_HEADER_TYPES_IGNORED,
                  0, 0, 0);
    rd_expect(&res, 0, "5\t\t1970-01-01 00:00:00\n", NULL);
    free(res.text);
    res = rd_read("TSVWithNamesAndTypes", small, 3, "i\nUInt8\n5\n", 0, 0, 0, 1);
    rd_expect(&res, MU_EINCORRECT_DATA, NULL, "Type of 'i' must be Int32, not UInt8");
    free(res.text);
    /* every header column unknown: rows of defaults */
    res = rd_read("CSVWithNames", small, 3, "a,b\n1,2\n", 0, 0, 0, 0);
    rd_expect(&res, 0, "0\t\t1970-01-01 00:00:00\n", NULL);
    assert_string_equal(res.missing, "mm");
    free(res.text);
}

static void test_tsv_raw(void **state) {
    (void)state;
    rd_result res = rd_read("TSVRaw", small, 3, "1\ta\\b\t0\n\\N\t\\N\t1\n",
                            FMT_READ_NULL_AS_DEFAULT, 0, 0, 0);
    rd_expect(&res, 0, "1\ta\\\\b\t1970-01-01 00:00:00\n0\t\t1970-01-01 00:00:01\n", NULL);
    free(res.text);
}

static void test_null_as_default(void **state) {
    (void)state;
    /* off: \N is text of the type ("N" in TSV, "\N" in CSV for String) */
    rd_result res = rd_read("TSV", small, 3, "1\t\\N\t0\n", 0, 0, 0, 0);
    rd_expect(&res, 0, "1\tN\t1970-01-01 00:00:00\n", NULL);
    free(res.text);
    res = rd_read("CSV", small, 3, "1,\\N,0\n", 0, 0, 0, 0);
    rd_expect(&res, 0, "1\t\\\\N\t1970-01-01 00:00:00\n", NULL);
    free(res.text);
    res = rd_read("CSV", small, 3, "\\N,a,0\n", 0, 0, 0, 0);
    rd_expect(&res, MU_EINPUT_ASSERTION, NULL, "row 1, column 1 'i': value '\\N'");
    free(res.text);
    /* on: the default, marked missing; CSV's empty field likewise */
    res = rd_read("CSV", small, 3, "\\N,\\N,\n", FMT_READ_NULL_AS_DEFAULT, 0, 0, 0);
    rd_expect(&res, 0, "0\t\t1970-01-01 00:00:00\n", NULL);
    assert_string_equal(res.missing, "mm");
    free(res.text);
    /* a Nullable column takes NULL, not marked */
    static const char *const nul[] = {"n", "Nullable(Int8)"};
    res = rd_read("TSV", nul, 1, "\\N\n", FMT_READ_NULL_AS_DEFAULT, 0, 0, 0);
    rd_expect(&res, 0, "\\N\n", NULL);
    assert_string_equal(res.missing, "..");
    free(res.text);
}

static void test_best_effort(void **state) {
    (void)state;
    static const char *const dt[] = {"t", "DateTime('UTC')", "t64", "DateTime64(3, 'UTC')",
                                     "d", "Date"};
    const char *in = "2024-01-15T10:30:00Z\t1705314600123\t2024-01-15\n"
                     "Mon, 15 Jan 2024 10:30:00 GMT\t2024-01-15 10:30:00.5+01:00\t2024-01-16\n";
    rd_result res = rd_read("TSV", dt, 3, in, FMT_READ_DATETIME_BEST_EFFORT, 0, 0, 0);
    rd_expect(&res, 0, "2024-01-15 10:30:00\t2024-01-15 10:30:00.123\t2024-01-15\n"
              "2024-01-15 10:30:00\t2024-01-15 09:30:00.500\t2024-01-16\n", NULL);
    free(res.text);
    res = rd_read("TSV", dt, 3, in, 0, 0, 0, 0);
    rd_expect(&res, MU_EPARSE_DATETIME, NULL, "row 1, column 1 't'");
    free(res.text);
    res = rd_read("CSV", dt, 3, "\"01/02/2024 1:02:03 PM\",20240102,2024-01-01\n",
                  FMT_READ_DATETIME_BEST_EFFORT_US, 0, 0, 0);
    rd_expect(&res, 0, "2024-01-02 13:02:03\t2024-01-02 00:00:00.000\t2024-01-01\n", NULL);
    free(res.text);
    /* Date is not affected, as in ClickHouse */
    res = rd_read("TSV", dt, 3, "1705314600\t1705314600\t2024-01-15T00:00:00Z\n",
                  FMT_READ_DATETIME_BEST_EFFORT, 0, 0, 0);
    rd_expect(&res, MU_EPARSE_DATE, NULL, "column 3 'd'");
    free(res.text);
}

/* Rows 1, 3, 4 bad in both families; the good ones stay. */
static const char tsv_mixed[] = "1\ta\t0\nx\tb\t0\n3\tc\t0\n4\td\tbad\n5\te\t0\t9\n6\tf\t0\n";
static const char csv_mixed[] = "1,a,0\nx,b,0\n3,\"c\n,\",0\n4,\"d\"x,0\n5,e,0,9\n6,f,0\n";

static void test_allow_errors(void **state) {
    (void)state;
    for (size_t chunk = 0; chunk < 9; chunk++) {
        rd_result res = rd_read("TSV", small, 3, tsv_mixed, 0, 3, 0, chunk);
        rd_expect(&res, 0, "1\ta\t1970-01-01 00:00:00\n3\tc\t1970-01-01 00:00:00\n"
                  "6\tf\t1970-01-01 00:00:00\n", NULL);
        assert_int_equal(res.rows_skipped, 3);
        assert_int_equal(res.row_number, 6);
        free(res.text);
        res = rd_read("CSV", small, 3, csv_mixed, 0, 3, 0, chunk);
        rd_expect(&res, 0, "1\ta\t1970-01-01 00:00:00\n3\tc\\n,\t1970-01-01 00:00:00\n"
                  "6\tf\t1970-01-01 00:00:00\n", NULL);
        assert_int_equal(res.rows_skipped, 3);
        free(res.text);
    }
    /* one error too many: the third, in row 5 (skipped rows count) */
    rd_result res = rd_read("TSV", small, 3, tsv_mixed, 0, 2, 0, 0);
    rd_expect(&res, MU_EPARSE, NULL, "row 5: expected 3 fields");
    assert_non_null(strstr(res.message, "(Already have 3 errors out of 5 rows, which is 0.6 of "
                                        "all rows)"));
    free(res.text);
    /* the ratio counts the failing row: 1/2 and 2/4 pass 0.5, 3/5 does not */
    res = rd_read("TSV", small, 3, tsv_mixed, 0, 0, 0.5, 0);
    rd_expect(&res, MU_EPARSE, NULL, "(Already have 3 errors out of 5 rows, which is 0.6 of "
              "all rows)");
    free(res.text);
    res = rd_read("TSV", small, 3, tsv_mixed, 0, 0, 0.6, 0);
    rd_expect(&res, 0, NULL, NULL);
    free(res.text);
    /* without limits nothing is skipped and no note is added */
    res = rd_read("TSV", small, 3, tsv_mixed, 0, 0, 0, 0);
    rd_expect(&res, MU_EINPUT_ASSERTION, NULL, "row 2, column 1 'i': value 'x'");
    assert_null(strstr(res.message, "Already"));
    free(res.text);
    /* header errors and over-long records are not skipped */
    res = rd_read("TSVWithNames", small, 3, "i\ti\n1\n", 0, 100, 1, 0);
    rd_expect(&res, MU_EINCORRECT_DATA, NULL, "Duplicate field");
    free(res.text);
    mu_err err;
    ty_batch *b = fu_batch(3, small);
    fmt_reader r;
    assert_int_equal(fmt_reader_init(&r, FMT_TSV, b, 0, 8, &err), 0);
    assert_int_equal(fmt_reader_allow_errors(&r, 5, 0, &err), 0);
    assert_int_equal(fmt_reader_feed(&r, "123456789\t\t\n", 12, &err), MU_ETOO_LARGE);
    assert_int_equal(fmt_reader_allow_errors(&r, 5, -0.5, &err), MU_EINVAL);
    assert_int_equal(fmt_reader_allow_errors(&r, 5, NAN, &err), MU_EINVAL);
    fmt_reader_deinit(&r);
    ty_batch_destroy(b);
}

/* A skipped row leaves no marks, and the marks follow the batch. */
static void test_missing_marks(void **state) {
    (void)state;
    mu_err err;
    ty_batch *b = fu_batch(3, small);
    fmt_reader r;
    assert_int_equal(fmt_reader_init(&r, FMT_CSV_WITH_NAMES, b, 0, 0, &err), 0);
    assert_int_equal(fmt_reader_allow_errors(&r, 1, 0, &err), 0);
    const char *in = "s,i\nx,bad\ny,2\n";
    assert_int_equal(fmt_reader_feed(&r, in, strlen(in), &err), 0);
    assert_int_equal(fmt_reader_finish(&r, &err), 0);
    assert_int_equal(b->columns[0]->row_count, 1);
    assert_true(fmt_reader_column_has_missing(&r, 2));
    assert_false(fmt_reader_column_has_missing(&r, 0));
    assert_true(fmt_reader_missing(&r, 2, 0));
    assert_false(fmt_reader_missing(&r, 2, 1));
    fmt_reader_missing_clear(&r);
    assert_false(fmt_reader_column_has_missing(&r, 2));
    assert_false(fmt_reader_missing(&r, 2, 0));
    fmt_reader_deinit(&r);
    ty_batch_destroy(b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_mapping),
        cmocka_unit_test(test_tsv_raw),
        cmocka_unit_test(test_null_as_default),
        cmocka_unit_test(test_best_effort),
        cmocka_unit_test(test_allow_errors),
        cmocka_unit_test(test_missing_marks),
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
