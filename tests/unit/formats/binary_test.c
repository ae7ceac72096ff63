/* binary_test.c: goal: RowBinary, RowBinaryWithNames[AndTypes] and Native
 * (src/formats/binary.c) write every type byte for byte as ClickHouse does
 * (bytes recorded from ClickHouse 18.16 for the types it has, built from
 * the current format description for Bool, Date32, DateTime64, Map and
 * LowCardinality), read back what they write whatever the chunking, read
 * ClickHouse's own LowCardinality blocks, map WithNames* and Native columns
 * by name (columns the batch lacks decoded by their type and dropped, or
 * refused under skip_unknown_fields=0; missing ones defaulted and marked
 * missing; header names / types ignored when the settings say so), and
 * refuse bad input (bad values, broken structure, truncation, oversize
 * values, header mismatches) with an error naming row and column and
 * without a partial row (RowBinary cannot skip bad rows: allowed errors
 * only add ClickHouse's note); a full batch pauses the readers.
 */
#include "formats_test_util.h"

/* Test hook of binary.c: a Native writer for a client of that revision. */
int fmt__native_writer_set_revision(fmt_writer *w, uint64_t revision, mu_err *err);

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

/* begin + rows of each batch + totals (if any) + end, into *out. */
static void bt_write_all(const char *format, const ty_batch *const *batches, unsigned count,
                         const ty_batch *totals, uint64_t revision, mu_buf *out) {
    fmt_writer *w;
    mu_err err;
    mu_buf_init(out, 0);
    assert_int_equal(fmt_writer_create(fmt_find(format), NULL, &w, &err), 0);
    if (revision > 0) assert_int_equal(fmt__native_writer_set_revision(w, revision, &err), 0);
    if (fmt_writer_begin(w, batches[0], out, &err) != 0) fail_msg("%s", err.message);
    for (unsigned i = 0; i < count; i++)
        if (fmt_writer_rows(w, batches[i], out, &err) != 0) fail_msg("%s", err.message);
    if (totals) assert_int_equal(fmt_writer_totals(w, totals, out, &err), 0);
    assert_int_equal(fmt_writer_end(w, NULL, out, &err), 0);
    fmt_writer_destroy(w);
}

static void bt_write(const char *format, const ty_batch *b, mu_buf *out) {
    bt_write_all(format, &b, 1, NULL, 0, out);
}

static void bt_hex(const uint8_t *p, size_t n, char *out, size_t out_bytes) {
    size_t at = 0;
    for (size_t i = 0; i < n && at + 4 < out_bytes; i++)
        at += (size_t)snprintf(out + at, out_bytes - at, "%02x ", p[i]);
    out[at] = 0;
}

static void bt_expect_bytes(const mu_buf *got, const uint8_t *want, size_t n) {
    if (got->length_bytes == n && (n == 0 || memcmp(got->data, want, n) == 0)) return;
    static char a[8192], b[8192];
    bt_hex(got->data, got->length_bytes, a, sizeof(a));
    bt_hex(want, n, b, sizeof(b));
    fail_msg("got %zu bytes:\n%s\nwant %zu bytes:\n%s", got->length_bytes, a, n, b);
}

/* Expected bytes built piece by piece. */
static void eb(mu_buf *e, const char *bytes, size_t n) {
    mu_err err;
    assert_int_equal(mu_buf_append(e, bytes, n, &err), 0);
}
static void eb_str(mu_buf *e, const char *s) { /* a String: varint length + bytes */
    mu_err err;
    assert_int_equal(mu_buf_append_varint(e, strlen(s), &err), 0);
    eb(e, s, strlen(s));
}
static void eb_u64(mu_buf *e, uint64_t v) {
    mu_err err;
    assert_int_equal(mu_buf_append_u64le(e, v, &err), 0);
}

/* Feeds n bytes in chunks of `chunk` (0 = at once) into a fresh batch of
 * the schema. Returns the first failing rc or 0. */
static int bt_read(const char *format, const char *const *schema, unsigned cols,
                   const void *in, size_t n, size_t chunk, unsigned flags, size_t max_record,
                   ty_batch **out, mu_err *err) {
    ty_batch *b = fu_batch(cols, schema);
    fmt_reader r;
    const uint8_t *p = in;
    int rc = fmt_reader_init(&r, fmt_find(format), b, flags, max_record, err);
    for (size_t at = 0; rc == 0 && at < n;) {
        size_t step = chunk == 0 || n - at < chunk ? n - at : chunk;
        rc = fmt_reader_feed(&r, p + at, step, err);
        at += step;
    }
    if (rc == 0) rc = fmt_reader_finish(&r, err);
    fmt_reader_deinit(&r);
    uint32_t rows = b->columns[0]->row_count;
    for (uint32_t i = 0; i < b->column_count; i++) {
        assert_int_equal(b->columns[i]->row_count, rows); /* never a partial row */
        mu_err verr;
        if (ty_column_validate(b->columns[i], &verr) != 0)
            fail_msg("%s chunk %zu rc %d (%s): %s", format, chunk, rc, rc ? err->message : "",
                     verr.message);
    }
    assert_int_equal(ty_batch_seal(b, err), 0);
    *out = b;
    return rc;
}

static void bt_expect_same(const ty_batch *a, const ty_batch *b) {
    assert_int_equal(a->column_count, b->column_count);
    assert_int_equal(a->row_count, b->row_count);
    for (uint32_t c = 0; c < a->column_count; c++)
        for (uint32_t i = 0; i < a->row_count; i++)
            if (!ty_column_equal_row(a->columns[c], i, b->columns[c], i))
                fail_msg("column %s row %u differs", a->names[c], i);
}

/* The text form of a row of a column, for checks. */
static void bt_expect_text(const ty_batch *b, uint32_t col, uint32_t row, const char *want) {
    mu_buf t;
    mu_err err;
    mu_buf_init(&t, 0);
    assert_int_equal(ty_column_render_text(b->columns[col], row, 0, &t, &err), 0);
    if (t.length_bytes != strlen(want) ||
        (t.length_bytes > 0 && memcmp(t.data, want, t.length_bytes) != 0))
        fail_msg("column %s row %u: got '%.*s', want '%s'", b->names[col], row,
                 (int)t.length_bytes, t.data ? (const char *)t.data : "", want);
    mu_buf_deinit(&t);
}

static void bt_expect_error(int rc, const mu_err *err, int code, const char *needle) {
    if (rc != code) fail_msg("rc %d (want %d): %s", rc, code, err->message);
    if (needle && strstr(err->message, needle) == NULL)
        fail_msg("message '%s' lacks '%s'", err->message, needle);
}

/* ------------------------------------------------------------------ */
/* The row ClickHouse 18.16 wrote (see ch_* below)                     */
/* ------------------------------------------------------------------ */

static const char *const ch_schema[] = {
    "u8", "UInt8", "i16", "Int16", "u32", "UInt32", "i64", "Int64", "f32", "Float32",
    "f64", "Float64", "s", "String", "fs", "FixedString(3)", "d", "Date",
    "dt", "DateTime('UTC')", "u", "UUID", "d32", "Decimal(9, 2)", "d64", "Decimal(18, 3)",
    "d128", "Decimal(38, 5)", "e8", "Enum8('a' = 1, 'b' = -2)",
    "e16", "Enum16('x' = 1000, 'y' = -1000)", "n1", "Nullable(Int32)", "n2", "Nullable(Int32)",
    "a", "Array(UInt8)", "aa", "Array(Array(String))", "an", "Array(Nullable(String))",
};
enum { CH_COLS = 21 };
static const char *const ch_values[] = {
    "200", "-2", "4000000000", "-5", "1.5", "-0.25", "a\tb", "xy", "2024-02-29",
    "2024-02-29 12:34:56", "01234567-89ab-cdef-0123-456789abcdef", "-1.25", "123.456", "-1.5",
    "b", "y", NULL, "7", "[1,2,3]", "[['x'],[],['y','z']]", "[NULL,'q']",
};

/* ClickHouse 18.16, SELECT toUInt8(200) AS u8, toInt16(-2) AS i16,
 * toUInt32(4000000000) AS u32, toInt64(-5) AS i64, toFloat32(1.5) AS f32,
 * toFloat64(-0.25) AS f64, 'a\tb' AS s, toFixedString('xy', 3) AS fs,
 * toDate('2024-02-29') AS d, toDateTime('2024-02-29 12:34:56', 'UTC') AS dt,
 * toUUID('01234567-89ab-cdef-0123-456789abcdef') AS u, toDecimal32('-1.25', 2)
 * AS d32, toDecimal64('123.456', 3) AS d64, toDecimal128('-1.5', 5) AS d128,
 * CAST('b' AS Enum8('a' = 1, 'b' = -2)) AS e8, CAST('y' AS Enum16('x' = 1000,
 * 'y' = -1000)) AS e16, CAST(NULL AS Nullable(Int32)) AS n1, CAST(7 AS
 * Nullable(Int32)) AS n2, [1, 2, 3] AS a, [['x'], [], ['y', 'z']] AS aa,
 * [NULL, 'q'] AS an FORMAT RowBinary. */
static const uint8_t ch_row_binary[] = {
    0xc8, 0xfe, 0xff, 0x00, 0x28, 0x6b, 0xee, 0xfb, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0x00, 0x00, 0xc0, 0x3f, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0xd0, 0xbf, 0x03, 0x61, 0x09, 0x62, 0x78, 0x79, 0x00, 0x46, 0x4d,
    0xf0, 0x79, 0xe0, 0x65, 0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01,
    0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01, 0x83, 0xff, 0xff, 0xff,
    0x40, 0xe2, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0xb6, 0xfd, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xfe, 0x18, 0xfc, 0x01, 0x00, 0x07, 0x00, 0x00, 0x00, 0x03, 0x01, 0x02,
    0x03, 0x03, 0x01, 0x01, 0x78, 0x00, 0x02, 0x01, 0x79, 0x01, 0x7a, 0x02,
    0x01, 0x00, 0x01, 0x71,
};
/* The same query, FORMAT Native (HTTP, revision 0: DateTime('UTC') is
 * named DateTime). */
static const uint8_t ch_native[] = {
    0x15, 0x01, 0x02, 0x75, 0x38, 0x05, 0x55, 0x49, 0x6e, 0x74, 0x38, 0xc8,
    0x03, 0x69, 0x31, 0x36, 0x05, 0x49, 0x6e, 0x74, 0x31, 0x36, 0xfe, 0xff,
    0x03, 0x75, 0x33, 0x32, 0x06, 0x55, 0x49, 0x6e, 0x74, 0x33, 0x32, 0x00,
    0x28, 0x6b, 0xee, 0x03, 0x69, 0x36, 0x34, 0x05, 0x49, 0x6e, 0x74, 0x36,
    0x34, 0xfb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x03, 0x66, 0x33,
    0x32, 0x07, 0x46, 0x6c, 0x6f, 0x61, 0x74, 0x33, 0x32, 0x00, 0x00, 0xc0,
    0x3f, 0x03, 0x66, 0x36, 0x34, 0x07, 0x46, 0x6c, 0x6f, 0x61, 0x74, 0x36,
    0x34, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xd0, 0xbf, 0x01, 0x73, 0x06,
    0x53, 0x74, 0x72, 0x69, 0x6e, 0x67, 0x03, 0x61, 0x09, 0x62, 0x02, 0x66,
    0x73, 0x0e, 0x46, 0x69, 0x78, 0x65, 0x64, 0x53, 0x74, 0x72, 0x69, 0x6e,
    0x67, 0x28, 0x33, 0x29, 0x78, 0x79, 0x00, 0x01, 0x64, 0x04, 0x44, 0x61,
    0x74, 0x65, 0x46, 0x4d, 0x02, 0x64, 0x74, 0x08, 0x44, 0x61, 0x74, 0x65,
    0x54, 0x69, 0x6d, 0x65, 0xf0, 0x79, 0xe0, 0x65, 0x01, 0x75, 0x04, 0x55,
    0x55, 0x49, 0x44, 0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01, 0xef,
    0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01, 0x03, 0x64, 0x33, 0x32, 0x0d,
    0x44, 0x65, 0x63, 0x69, 0x6d, 0x61, 0x6c, 0x28, 0x39, 0x2c, 0x20, 0x32,
    0x29, 0x83, 0xff, 0xff, 0xff, 0x03, 0x64, 0x36, 0x34, 0x0e, 0x44, 0x65,
    0x63, 0x69, 0x6d, 0x61, 0x6c, 0x28, 0x31, 0x38, 0x2c, 0x20, 0x33, 0x29,
    0x40, 0xe2, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x64, 0x31, 0x32,
    0x38, 0x0e, 0x44, 0x65, 0x63, 0x69, 0x6d, 0x61, 0x6c, 0x28, 0x33, 0x38,
    0x2c, 0x20, 0x35, 0x29, 0x10, 0xb6, 0xfd, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0x65, 0x38, 0x18,
    0x45, 0x6e, 0x75, 0x6d, 0x38, 0x28, 0x27, 0x62, 0x27, 0x20, 0x3d, 0x20,
    0x2d, 0x32, 0x2c, 0x20, 0x27, 0x61, 0x27, 0x20, 0x3d, 0x20, 0x31, 0x29,
    0xfe, 0x03, 0x65, 0x31, 0x36, 0x1f, 0x45, 0x6e, 0x75, 0x6d, 0x31, 0x36,
    0x28, 0x27, 0x79, 0x27, 0x20, 0x3d, 0x20, 0x2d, 0x31, 0x30, 0x30, 0x30,
    0x2c, 0x20, 0x27, 0x78, 0x27, 0x20, 0x3d, 0x20, 0x31, 0x30, 0x30, 0x30,
    0x29, 0x18, 0xfc, 0x02, 0x6e, 0x31, 0x0f, 0x4e, 0x75, 0x6c, 0x6c, 0x61,
    0x62, 0x6c, 0x65, 0x28, 0x49, 0x6e, 0x74, 0x33, 0x32, 0x29, 0x01, 0x00,
    0x00, 0x00, 0x00, 0x02, 0x6e, 0x32, 0x0f, 0x4e, 0x75, 0x6c, 0x6c, 0x61,
    0x62, 0x6c, 0x65, 0x28, 0x49, 0x6e, 0x74, 0x33, 0x32, 0x29, 0x00, 0x07,
    0x00, 0x00, 0x00, 0x01, 0x61, 0x0c, 0x41, 0x72, 0x72, 0x61, 0x79, 0x28,
    0x55, 0x49, 0x6e, 0x74, 0x38, 0x29, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x01, 0x02, 0x03, 0x02, 0x61, 0x61, 0x14, 0x41, 0x72, 0x72,
    0x61, 0x79, 0x28, 0x41, 0x72, 0x72, 0x61, 0x79, 0x28, 0x53, 0x74, 0x72,
    0x69, 0x6e, 0x67, 0x29, 0x29, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x01, 0x78, 0x01, 0x79, 0x01, 0x7a, 0x02, 0x61, 0x6e, 0x17, 0x41,
    0x72, 0x72, 0x61, 0x79, 0x28, 0x4e, 0x75, 0x6c, 0x6c, 0x61, 0x62, 0x6c,
    0x65, 0x28, 0x53, 0x74, 0x72, 0x69, 0x6e, 0x67, 0x29, 0x29, 0x02, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x01, 0x71,
};
/* ClickHouse 18.16, SELECT toLowCardinality(toString(number % 3)) AS s
 * FROM numbers(4) FORMAT Native: keys "", "0", "1", "2"; indexes 1 2 3 1. */
static const uint8_t ch_native_lc[] = {
    0x01, 0x04, 0x01, 0x73, 0x16, 0x4c, 0x6f, 0x77, 0x43, 0x61, 0x72, 0x64,
    0x69, 0x6e, 0x61, 0x6c, 0x69, 0x74, 0x79, 0x28, 0x53, 0x74, 0x72, 0x69,
    0x6e, 0x67, 0x29, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x01, 0x30, 0x01, 0x31, 0x01, 0x32, 0x04, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x03, 0x01,
};
/* ClickHouse 18.16, SELECT CAST(if(number = 1, NULL, toString(number)) AS
 * LowCardinality(Nullable(String))) AS s FROM numbers(3) FORMAT Native:
 * keys NULL, "", "0", "2"; indexes 2 0 3. */
static const uint8_t ch_native_lc_nullable[] = {
    0x01, 0x03, 0x01, 0x73, 0x20, 0x4c, 0x6f, 0x77, 0x43, 0x61, 0x72, 0x64,
    0x69, 0x6e, 0x61, 0x6c, 0x69, 0x74, 0x79, 0x28, 0x4e, 0x75, 0x6c, 0x6c,
    0x61, 0x62, 0x6c, 0x65, 0x28, 0x53, 0x74, 0x72, 0x69, 0x6e, 0x67, 0x29,
    0x29, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x01, 0x30, 0x01, 0x32, 0x03, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x02, 0x00, 0x03,
};

static void test_clickhouse_bytes(void **state) {
    (void)state;
    ty_batch *b = fu_batch(CH_COLS, ch_schema);
    fu_row(b, ch_values);
    mu_buf out;
    bt_write("RowBinary", b, &out);
    bt_expect_bytes(&out, ch_row_binary, sizeof(ch_row_binary));
    mu_buf_deinit(&out);
    bt_write("Native", b, &out);
    bt_expect_bytes(&out, ch_native, sizeof(ch_native));
    mu_buf_deinit(&out);
    /* ... and ClickHouse's bytes read back to the same row. */
    ty_batch *got;
    mu_err err;
    assert_int_equal(bt_read("RowBinary", ch_schema, CH_COLS, ch_row_binary,
                             sizeof(ch_row_binary), 0, 0, 0, &got, &err), 0);
    bt_expect_same(b, got);
    ty_batch_destroy(got);
    assert_int_equal(bt_read("Native", ch_schema, CH_COLS, ch_native, sizeof(ch_native), 7, 0,
                             0, &got, &err), 0);
    bt_expect_same(b, got);
    bt_expect_text(got, 9, 0, "2024-02-29 12:34:56");
    ty_batch_destroy(got);
    ty_batch_destroy(b);
}

/* ------------------------------------------------------------------ */
/* Types newer than 18.16, from the format description                */
/* ------------------------------------------------------------------ */

static const char *const new_schema[] = {
    "b", "Bool", "d32", "Date32", "t64", "DateTime64(3, 'UTC')", "m", "Map(String, UInt8)",
    "l", "LowCardinality(String)", "ln", "LowCardinality(Nullable(String))",
    "nn", "Nullable(Nothing)", "u", "UUID",
};
enum { NEW_COLS = 8 };
static const char *const new_row1[] = {
    "true", "1900-01-01", "2024-02-29 12:34:56.789", "{'k':1,'l':2}", "x", NULL, NULL,
    "01234567-89ab-cdef-0123-456789abcdef",
};
static const char *const new_row2[] = {
    "false", "2299-12-31", "1970-01-01 00:00:00.000", "{}", "x", "y", NULL,
    "00000000-0000-0000-0000-0000000000ff",
};
#define UUID1_WIRE "\xef\xcd\xab\x89\x67\x45\x23\x01\xef\xcd\xab\x89\x67\x45\x23\x01"
#define UUID2_WIRE "\x00\x00\x00\x00\x00\x00\x00\x00\xff\x00\x00\x00\x00\x00\x00\x00"

static void test_new_types_row_binary(void **state) {
    (void)state;
    ty_batch *b = fu_batch(NEW_COLS, new_schema);
    fu_row(b, new_row1);
    mu_buf out, want;
    mu_buf_init(&want, 0);
    eb(&want, "\x01", 1);                                 /* Bool */
    eb(&want, "\x21\x9c\xff\xff", 4);                     /* Date32 -25567 */
    eb(&want, "\x95\x54\xdc\xf4\x8d\x01\x00\x00", 8);     /* 1709210096789 ms */
    eb(&want, "\x02\x01k\x01\x01l\x02", 7);               /* Map: count, k, v, k, v */
    eb(&want, "\x01x", 2);                                /* LowCardinality as String */
    eb(&want, "\x01", 1);                                 /* NULL */
    eb(&want, "\x01", 1);                                 /* Nullable(Nothing) NULL */
    eb(&want, UUID1_WIRE, 16);
    bt_write("RowBinary", b, &out);
    bt_expect_bytes(&out, want.data, want.length_bytes);
    mu_buf_deinit(&out);
    /* WithNamesAndTypes: varint count, names, types, then the rows. */
    mu_buf header;
    mu_buf_init(&header, 0);
    eb(&header, "\x08", 1);
    for (unsigned i = 0; i < NEW_COLS; i++) eb_str(&header, new_schema[2 * i]);
    size_t names_bytes = header.length_bytes;
    for (unsigned i = 0; i < NEW_COLS; i++) eb_str(&header, new_schema[2 * i + 1]);
    eb(&header, (const char *)want.data, want.length_bytes);
    bt_write("RowBinaryWithNamesAndTypes", b, &out);
    bt_expect_bytes(&out, header.data, header.length_bytes);
    mu_buf_deinit(&out);
    bt_write("RowBinaryWithNames", b, &out);
    assert_int_equal(out.length_bytes, names_bytes + want.length_bytes);
    assert_memory_equal(out.data, header.data, names_bytes);
    mu_buf_deinit(&out);
    mu_buf_deinit(&header);
    mu_buf_deinit(&want);
    ty_batch_destroy(b);
}

static void test_new_types_native(void **state) {
    (void)state;
    ty_batch *b = fu_batch(NEW_COLS, new_schema);
    fu_row(b, new_row1);
    fu_row(b, new_row2);
    mu_buf out, want;
    mu_buf_init(&want, 0);
    eb(&want, "\x08\x02", 2);
    eb_str(&want, "b"), eb_str(&want, "Bool"), eb(&want, "\x01\x00", 2);
    eb_str(&want, "d32"), eb_str(&want, "Date32");
    eb(&want, "\x21\x9c\xff\xff\xd1\xd6\x01\x00", 8);
    eb_str(&want, "t64"), eb_str(&want, "DateTime64(3, 'UTC')"); /* DateTime64 keeps its zone */
    eb(&want, "\x95\x54\xdc\xf4\x8d\x01\x00\x00", 8), eb_u64(&want, 0);
    eb_str(&want, "m"), eb_str(&want, "Map(String, UInt8)");
    eb_u64(&want, 2), eb_u64(&want, 2), eb(&want, "\x01k\x01l\x01\x02", 6);
    eb_str(&want, "l"), eb_str(&want, "LowCardinality(String)");
    eb_u64(&want, 1), eb_u64(&want, 0x600), eb_u64(&want, 2), eb(&want, "\x00\x01x", 3);
    eb_u64(&want, 2), eb(&want, "\x01\x01", 2);
    eb_str(&want, "ln"), eb_str(&want, "LowCardinality(Nullable(String))");
    eb_u64(&want, 1), eb_u64(&want, 0x600), eb_u64(&want, 3), eb(&want, "\x00\x00\x01y", 4);
    eb_u64(&want, 2), eb(&want, "\x00\x02", 2);
    eb_str(&want, "nn"), eb_str(&want, "Nullable(Nothing)"), eb(&want, "\x01\x01" "00", 4);
    eb_str(&want, "u"), eb_str(&want, "UUID"), eb(&want, UUID1_WIRE UUID2_WIRE, 32);
    bt_write("Native", b, &out);
    bt_expect_bytes(&out, want.data, want.length_bytes);
    ty_batch *got;
    mu_err err;
    for (size_t chunk = 0; chunk < 20; chunk += 3) {
        assert_int_equal(bt_read("Native", new_schema, NEW_COLS, out.data, out.length_bytes,
                                 chunk, 0, 0, &got, &err), 0);
        bt_expect_same(b, got);
        ty_batch_destroy(got);
    }
    mu_buf_deinit(&out);
    mu_buf_deinit(&want);
    ty_batch_destroy(b);
}

/* ------------------------------------------------------------------ */
/* Round trips                                                         */
/* ------------------------------------------------------------------ */

static const char *const rt_schema[] = {
    "i", "Int32", "s", "Nullable(String)", "fs", "FixedString(2)",
    "dt", "DateTime('UTC')", "x", "Nullable(Decimal(38, 5))", "e", "Enum8('a' = 1, 'b' = 2)",
    "aan", "Array(Array(Nullable(String)))", "ma", "Map(String, Array(UInt8))",
    "al", "Array(LowCardinality(String))", "mn", "Map(LowCardinality(String), Nullable(UInt64))",
    "l", "LowCardinality(Nullable(String))", "u", "UUID", "f", "Float64", "b", "Bool",
};
enum { RT_COLS = 14 };
static const char *const rt_rows[][RT_COLS] = {
    {"1", "a\nb\\c", "ab", "2024-01-01 00:00:00", "-1.5", "a", "[['x',NULL],[]]",
     "{'k':[1,2]}", "['p','q','p']", "{'k':NULL,'l':7}", "z",
     "01234567-89ab-cdef-0123-456789abcdef", "nan", "true"},
    {"-2147483648", NULL, "", "1970-01-01 00:00:00", NULL, "b", "[]", "{}", "[]", "{}", NULL,
     "00000000-0000-0000-0000-000000000000", "-inf", "false"},
    {"2147483647", "", "z", "2106-02-07 06:28:15", "12345678901234567890123.45678", "a",
     "[[NULL],['']]", "{'':[],'b':[255]}", "['']", "{'':0}", "",
     "ffffffff-ffff-ffff-ffff-ffffffffffff",
     "1e300", "true"},
};

static ty_batch *rt_batch(void) {
    ty_batch *b = fu_batch(RT_COLS, rt_schema);
    for (unsigned i = 0; i < 3; i++) fu_row(b, rt_rows[i]);
    return b;
}

static void test_round_trips(void **state) {
    (void)state;
    static const char *const formats[] = {"RowBinary", "RowBinaryWithNames",
                                          "RowBinaryWithNamesAndTypes", "Native"};
    ty_batch *b = rt_batch();
    for (unsigned f = 0; f < 4; f++) {
        mu_buf out;
        bt_write(formats[f], b, &out);
        for (size_t chunk = 0; chunk <= out.length_bytes; chunk += chunk < 16 ? 1 : 37) {
            ty_batch *got;
            mu_err err;
            int rc = bt_read(formats[f], rt_schema, RT_COLS, out.data, out.length_bytes, chunk,
                             0, 0, &got, &err);
            if (rc != 0) fail_msg("%s chunk %zu: %s", formats[f], chunk, err.message);
            bt_expect_same(b, got);
            mu_buf again;
            bt_write(formats[f], got, &again);
            bt_expect_bytes(&again, out.data, out.length_bytes);
            mu_buf_deinit(&again);
            ty_batch_destroy(got);
        }
        mu_buf_deinit(&out);
    }
    ty_batch_destroy(b);
}

/* Several batches, a selection vector, totals (left out) and empty
 * batches (no Native block). */
static void test_batches_selection_totals(void **state) {
    (void)state;
    static const char *const schema[] = {"n", "UInt16", "a", "Array(String)"};
    ty_batch *b1 = fu_batch(2, schema), *b2 = fu_batch(2, schema), *empty = fu_batch(2, schema);
    ty_batch *totals = fu_batch(2, schema);
    mu_err err;
    fu_row(b1, (const char *const[]){"1", "['a']"});
    fu_row(b1, (const char *const[]){"2", "['b','c']"});
    fu_row(b1, (const char *const[]){"3", "[]"});
    fu_row(b2, (const char *const[]){"4", "['d']"});
    fu_row(totals, (const char *const[]){"10", "[]"});
    assert_int_equal(ty_batch_seal(empty, &err), 0);
    uint32_t pick[] = {2, 1};
    assert_int_equal(ty_batch_set_selection(b1, pick, 2, &err), 0);
    const ty_batch *batches[] = {b1, empty, b2};
    mu_buf out, want;
    mu_buf_init(&want, 0);
    eb(&want, "\x03\x00" "\x00" "\x02\x00" "\x02\x01" "b" "\x01" "c" "\x04\x00" "\x01\x01" "d", 15);
    bt_write_all("RowBinary", batches, 3, totals, 0, &out);
    bt_expect_bytes(&out, want.data, want.length_bytes);
    mu_buf_deinit(&out);
    mu_buf_clear(&want);
    /* Native: block of rows 3, 2; nothing for the empty batch; block of 4. */
    eb(&want, "\x02\x02", 2), eb_str(&want, "n"), eb_str(&want, "UInt16");
    eb(&want, "\x03\x00\x02\x00", 4), eb_str(&want, "a"), eb_str(&want, "Array(String)");
    eb_u64(&want, 0), eb_u64(&want, 2), eb(&want, "\x01" "b" "\x01" "c", 4);
    eb(&want, "\x02\x01", 2), eb_str(&want, "n"), eb_str(&want, "UInt16"), eb(&want, "\x04\x00", 2);
    eb_str(&want, "a"), eb_str(&want, "Array(String)"), eb_u64(&want, 1), eb(&want, "\x01" "d", 2);
    bt_write_all("Native", batches, 3, totals, 0, &out);
    bt_expect_bytes(&out, want.data, want.length_bytes);
    mu_buf_deinit(&out);
    /* An empty result: Native writes nothing, WithNamesAndTypes its header. */
    bt_write("Native", empty, &out);
    assert_int_equal(out.length_bytes, 0);
    mu_buf_deinit(&out);
    mu_buf_clear(&want);
    eb(&want, "\x02", 1), eb_str(&want, "n"), eb_str(&want, "a");
    eb_str(&want, "UInt16"), eb_str(&want, "Array(String)");
    bt_write("RowBinaryWithNamesAndTypes", empty, &out);
    bt_expect_bytes(&out, want.data, want.length_bytes);
    mu_buf_deinit(&out);
    mu_buf_deinit(&want);
    ty_batch_destroy(b1), ty_batch_destroy(b2), ty_batch_destroy(empty), ty_batch_destroy(totals);
}

/* client_protocol_version: BlockInfo from revision 1, the custom
 * serialization byte from 54454, DateTime zones from 54337. */
static void test_native_revisions(void **state) {
    (void)state;
    static const char *const schema[] = {"t", "DateTime('UTC')"};
    ty_batch *b = fu_batch(1, schema);
    fu_row(b, (const char *const[]){"1970-01-01 00:00:01"});
    static const struct { uint64_t revision; const char *prefix; size_t prefix_bytes;
                          const char *type; bool custom; } cases[] = {
        {0, "", 0, "DateTime", false},
        {54336, "\x01\x00\x02\xff\xff\xff\xff\x00", 8, "DateTime", false},
        {54405, "\x01\x00\x02\xff\xff\xff\xff\x00", 8, "DateTime('UTC')", false},
        {54460, "\x01\x00\x02\xff\xff\xff\xff\x00", 8, "DateTime('UTC')", true},
    };
    for (unsigned i = 0; i < 4; i++) {
        mu_buf out, want;
        mu_buf_init(&want, 0);
        eb(&want, cases[i].prefix, cases[i].prefix_bytes);
        eb(&want, "\x01\x01", 2), eb_str(&want, "t"), eb_str(&want, cases[i].type);
        if (cases[i].custom) eb(&want, "\x00", 1);
        eb(&want, "\x01\x00\x00\x00", 4);
        const ty_batch *batches[] = {b};
        bt_write_all("Native", batches, 1, NULL, cases[i].revision, &out);
        bt_expect_bytes(&out, want.data, want.length_bytes);
        mu_buf_deinit(&out);
        mu_buf_deinit(&want);
    }
    fmt_writer *w;
    mu_err err;
    assert_int_equal(fmt_writer_create(FMT_ROW_BINARY, NULL, &w, &err), 0);
    assert_int_equal(fmt__native_writer_set_revision(w, 54460, &err), MU_EINVAL);
    fmt_writer_destroy(w);
    ty_batch_destroy(b);
}

/* ------------------------------------------------------------------ */
/* Input specifics                                                     */
/* ------------------------------------------------------------------ */

static void test_native_low_cardinality_input(void **state) {
    (void)state;
    static const char *const lc[] = {"s", "LowCardinality(String)"};
    static const char *const plain[] = {"s", "String"};
    static const char *const lcn[] = {"s", "LowCardinality(Nullable(String))"};
    static const char *const plainn[] = {"s", "Nullable(String)"};
    const char *const *schemas[] = {lc, plain};
    for (unsigned i = 0; i < 2; i++) {
        ty_batch *got;
        mu_err err;
        assert_int_equal(bt_read("Native", schemas[i], 1, ch_native_lc, sizeof(ch_native_lc),
                                 i + 1, 0, 0, &got, &err), 0);
        assert_int_equal(got->row_count, 4);
        bt_expect_text(got, 0, 0, "0"), bt_expect_text(got, 0, 1, "1");
        bt_expect_text(got, 0, 2, "2"), bt_expect_text(got, 0, 3, "0");
        ty_batch_destroy(got);
    }
    /* Our own LowCardinality output is ClickHouse's, byte for byte. */
    ty_batch *b = fu_batch(1, lc);
    static const char *const lc_values[] = {"0", "1", "2", "0"};
    for (unsigned i = 0; i < 4; i++) fu_row(b, &lc_values[i]);
    mu_buf out;
    bt_write("Native", b, &out);
    bt_expect_bytes(&out, ch_native_lc, sizeof(ch_native_lc));
    mu_buf_deinit(&out);
    ty_batch_destroy(b);
    b = fu_batch(1, lcn);
    fu_row(b, (const char *const[]){"0"});
    fu_row(b, (const char *const[]){NULL});
    fu_row(b, (const char *const[]){"2"});
    bt_write("Native", b, &out);
    bt_expect_bytes(&out, ch_native_lc_nullable, sizeof(ch_native_lc_nullable));
    mu_buf_deinit(&out);
    ty_batch_destroy(b);
    const char *const *nullable[] = {lcn, plainn, lc};
    for (unsigned i = 0; i < 3; i++) {
        ty_batch *got;
        mu_err err;
        int rc = bt_read("Native", nullable[i], 1, ch_native_lc_nullable,
                         sizeof(ch_native_lc_nullable), 0, i == 2 ? FMT_READ_NULL_AS_DEFAULT : 0,
                         0, &got, &err);
        if (rc != 0) fail_msg("%s", err.message);
        bt_expect_text(got, 0, 0, "0"), bt_expect_text(got, 0, 2, "2");
        bt_expect_text(got, 0, 1, i == 2 ? "" : "\\N");
        ty_batch_destroy(got);
    }
    /* Without input_format_null_as_default the NULL cannot go in. */
    ty_batch *got;
    mu_err err;
    bt_expect_error(bt_read("Native", lc, 1, ch_native_lc_nullable, sizeof(ch_native_lc_nullable),
                            0, 0, 0, &got, &err), &err, MU_EINSERT_NULL, "column 's', row 2");
    assert_int_equal(got->row_count, 0);
    ty_batch_destroy(got);
}

/* Granules of several widths, the u64 index width and a Nullable target,
 * hand-built as a client would send them. */
static void test_native_low_cardinality_granules(void **state) {
    (void)state;
    static const char *const schema[] = {"k", "Array(LowCardinality(UInt16))"};
    mu_buf in;
    mu_buf_init(&in, 0);
    eb(&in, "\x01\x02", 2), eb_str(&in, "k"), eb_str(&in, "Array(LowCardinality(UInt16))");
    eb_u64(&in, 1);                  /* key version, before the offsets */
    eb_u64(&in, 2), eb_u64(&in, 3);  /* rows [a, b], [c] */
    eb_u64(&in, 0x603), eb_u64(&in, 2), eb(&in, "\x07\x00\x09\x00", 4);
    eb_u64(&in, 2), eb_u64(&in, 1), eb_u64(&in, 0);           /* 9, 7 */
    eb_u64(&in, 0x200), eb_u64(&in, 1), eb(&in, "\x05\x00", 2);
    eb_u64(&in, 1), eb(&in, "\x00", 1);                       /* 5 */
    ty_batch *got;
    mu_err err;
    for (size_t chunk = 0; chunk < 9; chunk++) {
        assert_int_equal(bt_read("Native", schema, 1, in.data, in.length_bytes, chunk, 0, 0,
                                 &got, &err), 0);
        bt_expect_text(got, 0, 0, "[9,7]");
        bt_expect_text(got, 0, 1, "[5]");
        ty_batch_destroy(got);
    }
    mu_buf_deinit(&in);
}

/* WithNames*: columns by name, in any order; the others get defaults. */
static void test_with_names_mapping(void **state) {
    (void)state;
    static const char *const schema[] = {"a", "UInt8", "b", "String", "c", "Nullable(Int8)"};
    mu_buf in;
    mu_buf_init(&in, 0);
    eb(&in, "\x02", 1), eb_str(&in, "b"), eb_str(&in, "a");
    eb_str(&in, "String"), eb_str(&in, "UInt8");
    eb(&in, "\x02hi\x05", 4), eb(&in, "\x00\x07", 2);
    ty_batch *got;
    mu_err err;
    assert_int_equal(bt_read("RowBinaryWithNamesAndTypes", schema, 3, in.data, in.length_bytes,
                             1, 0, 0, &got, &err), 0);
    assert_int_equal(got->row_count, 2);
    bt_expect_text(got, 0, 0, "5"), bt_expect_text(got, 1, 0, "hi");
    bt_expect_text(got, 2, 0, "\\N"), bt_expect_text(got, 0, 1, "7");
    bt_expect_text(got, 1, 1, "");
    ty_batch_destroy(got);
    /* Native: by name too, missing columns get defaults. */
    mu_buf_clear(&in);
    eb(&in, "\x01\x02", 2), eb_str(&in, "c"), eb_str(&in, "Int8"), eb(&in, "\x05\xfb", 2);
    assert_int_equal(bt_read("Native", schema, 3, in.data, in.length_bytes, 0, 0, 0, &got,
                             &err), 0);
    bt_expect_text(got, 0, 1, "0"), bt_expect_text(got, 1, 1, "");
    bt_expect_text(got, 2, 0, "5"), bt_expect_text(got, 2, 1, "-5");
    ty_batch_destroy(got);
    /* Empty input: no rows, no header needed. */
    assert_int_equal(bt_read("RowBinaryWithNames", schema, 3, "", 0, 0, 0, 0, &got, &err), 0);
    assert_int_equal(got->row_count, 0);
    ty_batch_destroy(got);
    mu_buf_deinit(&in);
}

/* ------------------------------------------------------------------ */
/* Bad input                                                           */
/* ------------------------------------------------------------------ */

typedef struct bad_case {
    const char *format;
    const char *input;
    size_t bytes;
    int code;
    const char *needle;
} bad_case;

static const char *const bad_schema[] = {"b", "Bool", "e", "Enum8('a' = 1)",
                                         "n", "Nullable(String)", "a", "Array(UInt8)"};

static void test_bad_row_binary(void **state) {
    (void)state;
    /* A good row first: the bad second row must leave exactly one row. */
#define GOOD "\x01\x01\x00\x01x\x01\x07"
#define BC(format, input, code, needle) {format, input, sizeof(input) - 1, code, needle}
    static const bad_case cases[] = {
        BC("RowBinary", GOOD "\x02\x01\x00\x00\x00", MU_EPARSE, "row 2, column 1 'b'"),
        BC("RowBinary", GOOD "\x01\x05\x00\x00\x00", MU_EPARSE, "unexpected value 5"),
        BC("RowBinary", GOOD "\x01\x01\x03", MU_EPARSE, "column 3 'n': NULL marker 3"),
        BC("RowBinary", GOOD "\x01\x01\x01\x02", MU_EPARSE, "ends inside row 2"),
        BC("RowBinary", GOOD "\x01\x01\x00\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
           MU_EPARSE, "malformed variable-length integer"),
        BC("RowBinary", GOOD "\x01\x01\x00\x80\x80\x04", MU_ETOO_LARGE, "string of 65536"),
        BC("RowBinary", GOOD "\x01\x01\x01\x80\x80\x04", MU_ETOO_LARGE, "Array of 65536"),
        BC("RowBinaryWithNames", "\x01\x01z\x01", MU_ENOT_SUPPORTED,
           "Cannot skip unknown field in RowBinaryWithNames format"),
        BC("RowBinaryWithNames", "\x02\x01" "b" "\x01" "b", MU_EINCORRECT_DATA,
           "duplicate column 'b'"),
        BC("RowBinaryWithNames", "\x05", MU_EPARSE, "the input ends inside"),
        BC("RowBinaryWithNamesAndTypes", "\x01\x01" "b" "\x05UInt8", MU_EINCORRECT_DATA,
           "type of 'b' must be Bool, not UInt8"),
        BC("RowBinaryWithNames", "\x01\x01", MU_EPARSE, "ends inside row 1"),
        BC("RowBinaryWithNames", "\x00\x01", MU_EPARSE, "header of no columns"),
    };
#undef GOOD
#undef BC
    for (unsigned i = 0; i < MU_ARRAY_LEN(cases); i++) {
        for (size_t chunk = 0; chunk < 3; chunk++) {
            ty_batch *got;
            mu_err err;
            int rc = bt_read(cases[i].format, bad_schema, 4, cases[i].input, cases[i].bytes,
                             chunk, 0, 4096, &got, &err);
            bt_expect_error(rc, &err, cases[i].code, cases[i].needle);
            assert_true(got->row_count <= 1);
            ty_batch_destroy(got);
        }
    }
    /* A row past the limit fails alike whether it comes whole or in pieces. */
    mu_buf row;
    mu_err err;
    mu_buf_init(&row, 0);
    eb(&row, "\x01\x01\x00", 3);
    assert_int_equal(mu_buf_append_varint(&row, 3000, &err), 0);
    assert_int_equal(mu_buf_reserve(&row, 6000, &err), 0);
    memset(row.data + row.length_bytes, 'x', 3000);
    row.length_bytes += 3000;
    assert_int_equal(mu_buf_append_varint(&row, 2000, &err), 0);
    memset(row.data + row.length_bytes, 7, 2000);
    row.length_bytes += 2000;
    for (size_t chunk = 0; chunk < 1000; chunk += 999) {
        ty_batch *got;
        bt_expect_error(bt_read("RowBinary", bad_schema, 4, row.data, row.length_bytes, chunk, 0,
                                4096, &got, &err), &err, MU_ETOO_LARGE,
                        "row 1 is longer than 4096 bytes");
        assert_int_equal(got->row_count, 0);
        ty_batch_destroy(got);
    }
    mu_buf_deinit(&row);
}

static void bad_native(const char *const *schema, unsigned cols, const mu_buf *in,
                       unsigned flags, int code, const char *needle) {
    for (size_t chunk = 0; chunk < 4; chunk += 3) {
        ty_batch *got;
        mu_err err;
        int rc = bt_read("Native", schema, cols, in->data, in->length_bytes, chunk, flags, 4096,
                         &got, &err);
        bt_expect_error(rc, &err, code, needle);
        assert_int_equal(got->row_count, 0);
        ty_batch_destroy(got);
    }
}

static void test_bad_native(void **state) {
    (void)state;
    static const char *const one[] = {"x", "UInt8"};
    static const char *const arr[] = {"a", "Array(UInt8)"};
    static const char *const str[] = {"s", "Nullable(String)"};
    static const char *const lc[] = {"l", "LowCardinality(String)"};
    mu_buf in;
    mu_buf_init(&in, 0);
    eb(&in, "\x01\x01", 2), eb_str(&in, "y"), eb_str(&in, "UInt8"), eb(&in, "\x01", 1);
    bad_native(one, 1, &in, FMT_READ_UNKNOWN_FIELDS_ERROR, MU_EINCORRECT_DATA,
               "column 'y': Unknown column with name y found while reading data in Native "
               "format");
    mu_buf_clear(&in);
    eb(&in, "\x01\x01", 2), eb_str(&in, "x"), eb_str(&in, "UInt16"), eb(&in, "\x01\x00", 2);
    bad_native(one, 1, &in, 0, MU_ETYPE, "UInt16 cannot be read into a column of type UInt8");
    mu_buf_clear(&in);
    eb(&in, "\x01\x01", 2), eb_str(&in, "x"), eb_str(&in, "Int128"), eb(&in, "\x01\x00", 2);
    bad_native(one, 1, &in, 0, MU_ENOT_SUPPORTED, "column 'x'");
    mu_buf_clear(&in);
    eb(&in, "\x02\x02", 2), eb_str(&in, "x"), eb_str(&in, "UInt8"), eb(&in, "\x01\x02", 2);
    eb_str(&in, "x"), eb_str(&in, "UInt8"), eb(&in, "\x01\x02", 2);
    bad_native(one, 1, &in, 0, MU_EINCORRECT_DATA, "block 1: duplicate column 'x'");
    mu_buf_clear(&in);
    eb(&in, "\x01\x02", 2), eb_str(&in, "x"), eb_str(&in, "UInt8"), eb(&in, "\x01", 1);
    bad_native(one, 1, &in, 0, MU_EPARSE, "ends inside block 1");
    mu_buf_clear(&in);
    eb(&in, "\x00\x05", 2);
    bad_native(one, 1, &in, 0, MU_EINCORRECT_DATA, "5 rows without columns");
    mu_buf_clear(&in);
    eb(&in, "\x01\x02", 2), eb_str(&in, "a"), eb_str(&in, "Array(UInt8)");
    eb_u64(&in, 2), eb_u64(&in, 1), eb(&in, "\x01\x02", 2);
    bad_native(arr, 1, &in, 0, MU_EPARSE, "column 'a', row 2: offset 1 after offset 2");
    mu_buf_clear(&in);
    eb(&in, "\x01\x02", 2), eb_str(&in, "s"), eb_str(&in, "Nullable(String)");
    eb(&in, "\x00\x02", 2);
    bad_native(str, 1, &in, 0, MU_EPARSE, "NULL map byte 2");
    mu_buf_clear(&in);
    eb(&in, "\x01\x01", 2), eb_str(&in, "s"), eb_str(&in, "String"), eb(&in, "\x80\x80\x04", 3);
    bad_native(str, 1, &in, 0, MU_ETOO_LARGE, "string of 65536 bytes");
    mu_buf_clear(&in);
    eb(&in, "\x01\x01", 2), eb_str(&in, "l"), eb_str(&in, "LowCardinality(String)");
    eb_u64(&in, 2);
    bad_native(lc, 1, &in, 0, MU_EPARSE, "key version 2");
    mu_buf_clear(&in);
    eb(&in, "\x01\x01", 2), eb_str(&in, "l"), eb_str(&in, "LowCardinality(String)");
    eb_u64(&in, 1), eb_u64(&in, 0x100 | 0x200);
    bad_native(lc, 1, &in, 0, MU_ENOT_SUPPORTED, "global dictionary");
    mu_buf_clear(&in);
    eb(&in, "\x01\x01", 2), eb_str(&in, "l"), eb_str(&in, "LowCardinality(String)");
    eb_u64(&in, 1), eb_u64(&in, 0x600), eb_u64(&in, 1), eb(&in, "\x00", 1), eb_u64(&in, 1);
    eb(&in, "\x01", 1);
    bad_native(lc, 1, &in, 0, MU_EPARSE, "index 1 past the 1 keys");
    mu_buf_clear(&in);
    eb(&in, "\x01\x01", 2), eb_str(&in, "l"), eb_str(&in, "LowCardinality(String)");
    eb_u64(&in, 1), eb_u64(&in, 0x600), eb_u64(&in, 1), eb(&in, "\x00", 1), eb_u64(&in, 2);
    bad_native(lc, 1, &in, 0, MU_EPARSE, "granule of 2 rows where 1 remain");
    mu_buf_clear(&in);
    eb(&in, "\x01\x01", 2), eb_str(&in, "x"), eb_str(&in, "Nullable(UInt8)");
    eb(&in, "\x01\x00", 2);
    bad_native(one, 1, &in, 0, MU_EINSERT_NULL, "column 'x', row 1");
    mu_buf_deinit(&in);
}

/* ------------------------------------------------------------------ */
/* Limits and the API                                                  */
/* ------------------------------------------------------------------ */

/* A full batch pauses both readers (1), the caller takes the rows out,
 * and they go on where they stopped. */
static void full_batch(const char *format, const mu_buf *in, uint32_t want_rows) {
    static const char *const schema[] = {"n", "UInt32"};
    ty_batch *b = fu_batch(1, schema);
    fmt_reader r;
    mu_err err;
    assert_int_equal(fmt_reader_init(&r, fmt_find(format), b, 0, 0, &err), 0);
    uint32_t total = 0, pauses = 0;
    int rc = fmt_reader_feed(&r, in->data, in->length_bytes, &err);
    for (;;) {
        assert_true(rc == 0 || rc == 1);
        assert_true(b->columns[0]->row_count <= TY_BATCH_ROWS_MAX);
        for (uint32_t i = 0; i < b->columns[0]->row_count; i++)
            assert_int_equal(mu_load_u32le(b->columns[0]->values.data + 4 * i), total + i);
        if (rc == 1) {
            total += b->columns[0]->row_count;
            pauses++;
            ty_column_clear(b->columns[0]);
            rc = fmt_reader_feed(&r, NULL, 0, &err);
            continue;
        }
        rc = fmt_reader_finish(&r, &err);
        if (rc == 0) break;
    }
    total += b->columns[0]->row_count;
    assert_int_equal(total, want_rows);
    assert_true(pauses >= 1);
    fmt_reader_deinit(&r);
    ty_batch_destroy(b);
}

static void test_batch_full(void **state) {
    (void)state;
    const uint32_t rows = TY_BATCH_ROWS_MAX + 1000;
    mu_buf in;
    mu_err err;
    mu_buf_init(&in, 0);
    for (uint32_t i = 0; i < rows; i++) assert_int_equal(mu_buf_append_u32le(&in, i, &err), 0);
    full_batch("RowBinary", &in, rows);
    mu_buf_clear(&in);
    /* Native: one block bigger than a batch, then a small one. */
    eb(&in, "\x01", 1), assert_int_equal(mu_buf_append_varint(&in, rows - 10, &err), 0);
    eb_str(&in, "n"), eb_str(&in, "UInt32");
    for (uint32_t i = 0; i < rows - 10; i++) assert_int_equal(mu_buf_append_u32le(&in, i, &err), 0);
    eb(&in, "\x01\x0a", 2), eb_str(&in, "n"), eb_str(&in, "UInt32");
    for (uint32_t i = rows - 10; i < rows; i++)
        assert_int_equal(mu_buf_append_u32le(&in, i, &err), 0);
    full_batch("Native", &in, rows);
    mu_buf_deinit(&in);
}

static void test_api(void **state) {
    (void)state;
    static const char *const formats[] = {"RowBinary", "RowBinaryWithNames",
                                          "RowBinaryWithNamesAndTypes", "Native"};
    for (unsigned i = 0; i < 4; i++) {
        assert_true(fmt_can_read(fmt_find(formats[i])));
        assert_true(fmt_can_write(fmt_find(formats[i])));
        assert_string_equal(fmt_content_type(fmt_find(formats[i])), "application/octet-stream");
    }
    /* AggregateFunction states are not ClickHouse's bytes: refused. */
    static const char *const agg[] = {"s", "AggregateFunction(sum, UInt64)"};
    ty_batch *b = fu_batch(1, agg);
    fmt_reader r;
    fmt_writer *w;
    mu_err err;
    mu_buf out;
    mu_buf_init(&out, 0);
    for (unsigned i = 0; i < 4; i++) {
        bt_expect_error(fmt_reader_init(&r, fmt_find(formats[i]), b, 0, 0, &err), &err,
                        MU_ENOT_SUPPORTED, "AggregateFunction");
        assert_int_equal(fmt_writer_create(fmt_find(formats[i]), NULL, &w, &err), 0);
        bt_expect_error(fmt_writer_begin(w, b, &out, &err), &err, MU_ENOT_SUPPORTED,
                        "column 's'");
        fmt_writer_destroy(w);
    }
    ty_batch_destroy(b);
    /* A failed reader refuses more input. */
    static const char *const one[] = {"x", "Bool"};
    b = fu_batch(1, one);
    assert_int_equal(fmt_reader_init(&r, FMT_ROW_BINARY, b, 0, 0, &err), 0);
    assert_int_equal(fmt_reader_feed(&r, "\x07", 1, &err), MU_EPARSE);
    assert_int_equal(fmt_reader_feed(&r, "\x01", 1, &err), MU_EINVAL);
    fmt_reader_deinit(&r);
    mu_buf_deinit(&out);
    ty_batch_destroy(b);
}

/* Reads in with flags (and allowed errors) into `schema`, keeping the
 * reader's missing marks of column `mark_col` as 'm'/'.' per row. */
static int bt_read_marks(const char *format, const char *const *schema, unsigned cols,
                         const mu_buf *in, unsigned flags, uint64_t errors_num,
                         uint32_t mark_col, char *marks, ty_batch **out, mu_err *err) {
    ty_batch *b = fu_batch(cols, schema);
    fmt_reader r;
    int rc = fmt_reader_init(&r, fmt_find(format), b, flags, 0, err);
    if (rc == 0) rc = fmt_reader_allow_errors(&r, errors_num, 0, err);
    for (size_t at = 0; rc == 0 && at < in->length_bytes; at += 3)
        rc = fmt_reader_feed(&r, in->data + at, MU_MIN((size_t)3, in->length_bytes - at), err);
    if (rc == 0) rc = fmt_reader_finish(&r, err);
    uint32_t rows = b->columns[0]->row_count;
    for (uint32_t i = 0; i < rows && i < 15; i++)
        marks[i] = fmt_reader_missing(&r, mark_col, i) ? 'm' : '.';
    marks[MU_MIN(rows, 15u)] = 0;
    fmt_reader_deinit(&r);
    for (uint32_t i = 0; i < b->column_count; i++)
        assert_int_equal(b->columns[i]->row_count, rows);
    assert_int_equal(ty_batch_seal(b, err), 0);
    *out = b;
    return rc;
}

static void test_row_binary_header_settings(void **state) {
    (void)state;
    static const char *const schema[] = {"a", "UInt8", "b", "String", "c", "Nullable(Int8)"};
    mu_buf in;
    mu_buf_init(&in, 0);
    /* an unknown column of a composite type is decoded and dropped */
    eb(&in, "\x03", 1), eb_str(&in, "x"), eb_str(&in, "a"), eb_str(&in, "b");
    eb_str(&in, "Map(String, Array(Nullable(UInt32)))"), eb_str(&in, "UInt8");
    eb_str(&in, "String");
    eb(&in, "\x01\x01k\x02\x01\x00\x07\x00\x00\x00", 10), eb(&in, "\x05\x02hi", 4);
    eb(&in, "\x00", 1), eb(&in, "\x06\x00", 2);
    ty_batch *got;
    mu_err err;
    char marks[16];
    assert_int_equal(bt_read_marks("RowBinaryWithNamesAndTypes", schema, 3, &in, 0, 0, 2, marks,
                                   &got, &err), 0);
    assert_int_equal(got->row_count, 2);
    bt_expect_text(got, 0, 0, "5"), bt_expect_text(got, 1, 0, "hi");
    bt_expect_text(got, 0, 1, "6"), bt_expect_text(got, 1, 1, "");
    assert_string_equal(marks, "mm"); /* c was not in the header */
    ty_batch_destroy(got);
    /* ... or refused when skip_unknown_fields=0 */
    assert_int_equal(bt_read_marks("RowBinaryWithNamesAndTypes", schema, 3, &in,
                                   FMT_READ_UNKNOWN_FIELDS_ERROR, 0, 2, marks, &got, &err),
                     MU_EINCORRECT_DATA);
    assert_non_null(strstr(err.message, "Unknown field found in format header: 'x' at "
                                        "position 0"));
    ty_batch_destroy(got);
    /* with_names_use_header=0: the names are not read; fields in batch order */
    mu_buf_clear(&in);
    eb(&in, "\x03", 1), eb_str(&in, "p"), eb_str(&in, "q"), eb_str(&in, "r");
    eb(&in, "\x09\x01z\x01", 4);
    assert_int_equal(bt_read_marks("RowBinaryWithNames", schema, 3, &in,
                                   FMT_READ_HEADER_NAMES_IGNORED, 0, 2, marks, &got, &err), 0);
    bt_expect_text(got, 0, 0, "9"), bt_expect_text(got, 1, 0, "z");
    bt_expect_text(got, 2, 0, "\\N");
    assert_string_equal(marks, ".");
    ty_batch_destroy(got);
    /* with_types_use_header=0: the types are not compared */
    mu_buf_clear(&in);
    eb(&in, "\x01", 1), eb_str(&in, "a"), eb_str(&in, "Int8"), eb(&in, "\x07", 1);
    assert_int_equal(bt_read_marks("RowBinaryWithNamesAndTypes", schema, 3, &in,
                                   FMT_READ_HEADER_TYPES_IGNORED, 0, 0, marks, &got, &err), 0);
    bt_expect_text(got, 0, 0, "7");
    ty_batch_destroy(got);
    assert_int_equal(bt_read_marks("RowBinaryWithNamesAndTypes", schema, 3, &in, 0, 0, 0, marks,
                                   &got, &err), MU_EINCORRECT_DATA);
    assert_non_null(strstr(err.message, "type of 'a' must be UInt8, not Int8"));
    ty_batch_destroy(got);
    /* a skipped column of a type muscles cannot read cannot be skipped */
    mu_buf_clear(&in);
    eb(&in, "\x01", 1), eb_str(&in, "x"), eb_str(&in, "Int128");
    assert_int_equal(bt_read_marks("RowBinaryWithNamesAndTypes", schema, 3, &in, 0, 0, 0, marks,
                                   &got, &err), MU_ENOT_SUPPORTED);
    ty_batch_destroy(got);
    /* RowBinary cannot skip a bad row: allowed errors only add a note */
    mu_buf_clear(&in);
    eb(&in, "\x01\x01\x00\x01x\x01\x07", 7), eb(&in, "\x01\x05\x00\x00\x00", 5);
    assert_int_equal(bt_read_marks("RowBinary", bad_schema, 4, &in, 0, 10, 0, marks, &got, &err),
                     MU_EPARSE);
    assert_non_null(strstr(err.message, "(Input format doesn't allow to skip errors)"));
    assert_int_equal(got->row_count, 1);
    ty_batch_destroy(got);
    assert_int_equal(bt_read_marks("RowBinary", bad_schema, 4, &in, 0, 0, 0, marks, &got, &err),
                     MU_EPARSE);
    assert_null(strstr(err.message, "skip errors"));
    ty_batch_destroy(got);
    mu_buf_deinit(&in);
}

static void test_native_unknown_columns(void **state) {
    (void)state;
    static const char *const schema[] = {"a", "UInt8", "b", "String"};
    mu_buf in;
    mu_buf_init(&in, 0);
    /* block 1: an unknown LowCardinality(Nullable(String)) and an unknown
     * Array(String) around a; b missing. Block 2: b only, and an unknown
     * column in a block of no rows. */
    eb(&in, "\x03\x02", 2);
    eb_str(&in, "lc"), eb_str(&in, "LowCardinality(Nullable(String))");
    eb_u64(&in, 1), eb_u64(&in, 0x600), eb_u64(&in, 2), eb(&in, "\x00\x01x", 3), eb_u64(&in, 2);
    eb(&in, "\x00\x01", 2);
    eb_str(&in, "a"), eb_str(&in, "UInt8"), eb(&in, "\x03\x04", 2);
    eb_str(&in, "arr"), eb_str(&in, "Array(String)"), eb_u64(&in, 1), eb_u64(&in, 2);
    eb(&in, "\x01p\x01q", 4);
    eb(&in, "\x01\x01", 2), eb_str(&in, "b"), eb_str(&in, "String"), eb(&in, "\x01z", 2);
    eb(&in, "\x01\x00", 2), eb_str(&in, "zz"), eb_str(&in, "Int64");
    ty_batch *got;
    mu_err err;
    char marks[16];
    assert_int_equal(bt_read_marks("Native", schema, 2, &in, 0, 0, 1, marks, &got, &err), 0);
    assert_int_equal(got->row_count, 3);
    bt_expect_text(got, 0, 0, "3"), bt_expect_text(got, 0, 1, "4"), bt_expect_text(got, 0, 2, "0");
    bt_expect_text(got, 1, 0, ""), bt_expect_text(got, 1, 2, "z");
    assert_string_equal(marks, "mm.");
    ty_batch_destroy(got);
    /* allowed errors change nothing for Native */
    mu_buf_clear(&in);
    eb(&in, "\x01\x01", 2), eb_str(&in, "a"), eb_str(&in, "UInt16"), eb(&in, "\x01\x00", 2);
    assert_int_equal(bt_read_marks("Native", schema, 2, &in, 0, 10, 1, marks, &got, &err),
                     MU_ETYPE);
    assert_null(strstr(err.message, "skip errors"));
    ty_batch_destroy(got);
    mu_buf_deinit(&in);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_row_binary_header_settings),
        cmocka_unit_test(test_native_unknown_columns),
        cmocka_unit_test(test_clickhouse_bytes),
        cmocka_unit_test(test_new_types_row_binary),
        cmocka_unit_test(test_new_types_native),
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_batches_selection_totals),
        cmocka_unit_test(test_native_revisions),
        cmocka_unit_test(test_native_low_cardinality_input),
        cmocka_unit_test(test_native_low_cardinality_granules),
        cmocka_unit_test(test_with_names_mapping),
        cmocka_unit_test(test_bad_row_binary),
        cmocka_unit_test(test_bad_native),
        cmocka_unit_test(test_batch_full),
        cmocka_unit_test(test_api),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
