/* batch_codec_test.c: goal: the WAL batch encoding round-trips every type
 * (nested Nullable inside Array and Map, LowCardinality, Decimal128, zones,
 * selection vectors, empty batches) and re-encodes byte for byte; decoding
 * hostile input never crashes or over-reads: every truncation is
 * MU_ECORRUPT, every flipped byte is refused or decodes to a valid batch
 * that re-encodes to exactly the flipped bytes, and each hand-made defect
 * (lengths, offsets, indexes, flags, names, values) is MU_ECORRUPT. */
#include "types_test_util.h"

typedef struct column_spec {
    const char *type;
    const char *rows[5]; /* NULL: a NULL row */
} column_spec;

static const column_spec specs[] = {
    {"UInt8", {"0", "255", "1", "2", "3"}},
    {"UInt16", {"0", "65535", "1", "2", "3"}},
    {"UInt32", {"0", "4294967295", "1", "2", "3"}},
    {"UInt64", {"0", "18446744073709551615", "1", "2", "3"}},
    {"Int8", {"-128", "127", "0", "-1", "1"}},
    {"Int16", {"-32768", "32767", "0", "-1", "1"}},
    {"Int32", {"-2147483648", "2147483647", "0", "-1", "1"}},
    {"Int64", {"-9223372036854775808", "9223372036854775807", "0", "-1", "1"}},
    {"Float32", {"0.1", "-inf", "nan", "3.4028235e38", "-0"}},
    {"Float64", {"0.1", "inf", "nan", "1e-300", "-0"}},
    {"Bool", {"true", "false", "1", "0", "true"}},
    {"String", {"", "hello", "tab\there", "x", "\\N"}},
    {"FixedString(5)", {"", "abcde", "ab", "x", "12345"}},
    {"Date", {"1970-01-01", "2149-06-06", "2024-02-29", "2000-01-01", "1999-12-31"}},
    {"Date32", {"1900-01-01", "2299-12-31", "1969-12-31", "2000-01-01", "1970-01-01"}},
    {"DateTime", {"0", "4294967295", "2024-01-01 00:00:00", "1", "2"}},
    {"DateTime('Europe/Berlin')", {"2024-03-31 02:30:00", "2024-10-27 02:30:00", "0", "1", "2"}},
    {"DateTime64(3)", {"1900-01-01 00:00:00", "2299-12-31 23:59:59.999", "-1.5", "0", "1"}},
    {"DateTime64(9, 'UTC')", {"2262-04-11 23:47:16.854775807", "0", "1", "2", "3"}},
    {"UUID", {"61f0c404-5cb3-11e7-907b-a6006ad3dba0", "00000000-0000-0000-0000-000000000000",
              "ffffffff-ffff-ffff-ffff-ffffffffffff", "00000000-0000-0000-0000-000000000001",
              "10000000-0000-0000-0000-000000000000"}},
    {"Decimal(9, 2)", {"-9999999.99", "9999999.99", "0", "1.5", "-0.01"}},
    {"Decimal(18, 4)", {"-99999999999999.9999", "1", "0", "2", "3"}},
    {"Decimal(38, 10)", {"9999999999999999999999999999.9999999999",
                         "-9999999999999999999999999999.9999999999", "0", "1e-10", "1"}},
    {"Enum8('a' = -128, 'b' = 127)", {"a", "b", "a", "b", "a"}},
    {"Enum16('x' = -32768, 'y' = 32767)", {"x", "y", "y", "x", "y"}},
    {"Nullable(UInt8)", {NULL, "1", NULL, "2", NULL}},
    {"Nullable(String)", {"a", NULL, "", NULL, "b"}},
    {"Nullable(Decimal(38, 2))", {NULL, "1.5", NULL, "-2", "0"}},
    {"LowCardinality(String)", {"a", "b", "a", "", "c"}},
    {"LowCardinality(Nullable(String))", {"a", NULL, "a", "", NULL}},
    {"LowCardinality(FixedString(2))", {"ab", "a", "ab", "", "zz"}},
    {"LowCardinality(Nullable(UInt64))", {"1", NULL, "1", "0", "18446744073709551615"}},
    {"Array(UInt8)", {"[]", "[1,2,3]", "[]", "[255]", "[0]"}},
    {"Array(Nullable(String))", {"['a',NULL]", "[]", "[NULL,NULL]", "['']", "['x']"}},
    {"Array(Array(Nullable(Int32)))", {"[[1,NULL],[]]", "[]", "[[]]", "[[NULL]]", "[[7]]"}},
    {"Array(LowCardinality(Nullable(String)))", {"['a',NULL,'a']", "[]", "['b']", "[NULL]",
                                                 "['a']"}},
    {"Map(String, UInt64)", {"{}", "{'a':1,'b':2}", "{'c':3}", "{}", "{'':0}"}},
    {"Map(String, Array(Nullable(Int32)))", {"{'k':[1,NULL]}", "{}", "{'a':[],'b':[NULL]}",
                                             "{'z':[3]}", "{}"}},
    {"Map(LowCardinality(String), Map(String, Nullable(String)))",
     {"{'x':{'y':NULL}}", "{}", "{'x':{}}", "{'a':{'b':'c'}}", "{}"}},
};

#define SPEC_COUNT (sizeof(specs) / sizeof(specs[0]))

static ty_batch *build_batch(void) {
    ty_batch *b;
    mu_err err;
    assert_int_equal(ty_batch_create(NULL, &b, &err), 0);
    for (size_t i = 0; i < SPEC_COUNT; i++) {
        char name[16];
        ty_column *c;
        snprintf(name, sizeof(name), "c%zu", i);
        assert_int_equal(ty_batch_add_column(b, name, tu_type(specs[i].type), &c, &err), 0);
        for (int r = 0; r < 5; r++) {
            if (specs[i].rows[r] == NULL)
                assert_int_equal(ty_column_append_null(c, &err), 0);
            else
                tu_append(c, specs[i].rows[r]);
        }
    }
    assert_int_equal(ty_batch_seal(b, &err), 0);
    return b;
}

static void encode(const ty_batch *b, mu_buf *out) {
    mu_err err;
    mu_buf_init(out, 0);
    if (ty_batch_encode(b, out, &err) != 0) fail_msg("encode: %s", err.message);
}

/* Same names, types and values (rows of a mapped through `rows` if set). */
static void assert_same(const ty_batch *a, const ty_batch *b, const uint32_t *rows) {
    assert_int_equal(a->column_count, b->column_count);
    for (uint32_t i = 0; i < a->column_count; i++) {
        assert_string_equal(a->names[i], b->names[i]);
        assert_true(ty_type_equal(a->columns[i]->type, b->columns[i]->type));
        for (uint32_t r = 0; r < b->row_count; r++) {
            uint32_t source = rows ? rows[r] : r;
            assert_true(ty_column_equal_row(a->columns[i], source, b->columns[i], r));
            char *expected = strdup(tu_row_text(a->columns[i], source, 0));
            assert_string_equal(tu_row_text(b->columns[i], r, 0), expected);
            free(expected);
        }
    }
}

static void test_round_trip_every_type(void **state) {
    (void)state;
    ty_batch *b = build_batch(), *decoded;
    mu_buf bytes, again;
    mu_err err;
    encode(b, &bytes);
    assert_memory_equal(bytes.data, "MUB1\1\0\0\0\5\0\0\0", 12);
    assert_int_equal(ty_batch_decode(bytes.data, bytes.length_bytes, NULL, &decoded, &err), 0);
    assert_int_equal(decoded->row_count, 5);
    assert_same(b, decoded, NULL);
    encode(decoded, &again);
    assert_int_equal(again.length_bytes, bytes.length_bytes);
    assert_memory_equal(again.data, bytes.data, bytes.length_bytes);
    /* Appending after decoding reuses the rebuilt dictionaries. */
    ty_column *lc = ty_batch_find_column(decoded, "c28");
    tu_append(lc, "b");
    assert_int_equal(mu_load_u32le(lc->values.data + 5 * 4), mu_load_u32le(lc->values.data + 4));
    ty_batch_destroy(decoded);
    mu_buf_deinit(&again);
    mu_buf_deinit(&bytes);
    ty_batch_destroy(b);
}

static void test_selection_and_empty(void **state) {
    (void)state;
    ty_batch *b = build_batch(), *decoded;
    mu_buf bytes;
    mu_err err;
    uint32_t rows[] = {4, 0, 0, 2};
    assert_int_equal(ty_batch_set_selection(b, rows, 4, &err), 0);
    encode(b, &bytes);
    assert_int_equal(ty_batch_decode(bytes.data, bytes.length_bytes, NULL, &decoded, &err), 0);
    assert_int_equal(decoded->row_count, 4);
    assert_same(b, decoded, rows);
    ty_batch_destroy(decoded);
    mu_buf_deinit(&bytes);
    assert_int_equal(ty_batch_set_selection(b, NULL, 0, &err), 0);
    encode(b, &bytes); /* zero rows, every column */
    assert_int_equal(ty_batch_decode(bytes.data, bytes.length_bytes, NULL, &decoded, &err), 0);
    assert_int_equal(decoded->row_count, 0);
    assert_int_equal(decoded->column_count, SPEC_COUNT);
    ty_batch_destroy(decoded);
    mu_buf_deinit(&bytes);
    ty_batch_destroy(b);

    assert_int_equal(ty_batch_create(NULL, &b, &err), 0);
    encode(b, &bytes);
    assert_int_equal(bytes.length_bytes, TY_BATCH_HEADER_BYTES);
    assert_int_equal(ty_batch_decode(bytes.data, bytes.length_bytes, NULL, &decoded, &err), 0);
    assert_int_equal(decoded->column_count, 0);
    ty_batch_destroy(decoded);
    mu_buf_deinit(&bytes);
    ty_batch_destroy(b);
}

static void test_truncation(void **state) {
    (void)state;
    ty_batch *b = build_batch(), *decoded;
    mu_buf bytes;
    mu_err err;
    encode(b, &bytes);
    for (size_t cut = 0; cut < bytes.length_bytes; cut++) {
        /* A copy of exactly `cut` bytes, so ASan sees any over-read. */
        uint8_t *copy = malloc(cut ? cut : 1);
        memcpy(copy, bytes.data, cut);
        int rc = ty_batch_decode(copy, cut, NULL, &decoded, &err);
        if (rc != MU_ECORRUPT) fail_msg("cut at %zu: %d", cut, rc);
        assert_non_null(strstr(err.message, "byte"));
        free(copy);
    }
    mu_buf_deinit(&bytes);
    ty_batch_destroy(b);
}

static void test_flipped_bytes(void **state) {
    (void)state;
    ty_batch *b = build_batch(), *decoded;
    mu_buf bytes;
    mu_err err;
    encode(b, &bytes);
    const uint8_t masks[] = {0x01, 0x80, 0xFF, 0x10};
    int accepted = 0, refused = 0;
    uint8_t *copy = malloc(bytes.length_bytes);
    for (size_t at = 0; at < bytes.length_bytes; at++) {
        for (size_t m = 0; m < sizeof(masks); m++) {
            memcpy(copy, bytes.data, bytes.length_bytes);
            copy[at] ^= masks[m];
            int rc = ty_batch_decode(copy, bytes.length_bytes, NULL, &decoded, &err);
            if (rc != 0) {
                assert_int_equal(rc, MU_ECORRUPT);
                refused++;
                continue;
            }
            accepted++;
            mu_buf again;
            encode(decoded, &again);
            assert_int_equal(again.length_bytes, bytes.length_bytes);
            assert_memory_equal(again.data, copy, bytes.length_bytes);
            for (uint32_t i = 0; i < decoded->column_count; i++) {
                assert_int_equal(ty_column_validate(decoded->columns[i], &err), 0);
                for (uint32_t r = 0; r < decoded->row_count; r++)
                    (void)tu_row_text(decoded->columns[i], r, 0);
            }
            mu_buf_deinit(&again);
            ty_batch_destroy(decoded);
        }
    }
    assert_true(accepted > 0 && refused > 0);
    free(copy);
    mu_buf_deinit(&bytes);
    ty_batch_destroy(b);
}

/* ------------------------------------------------------------------ */
/* Hand-made defects                                                   */
/* ------------------------------------------------------------------ */

static void put_u32(mu_buf *b, uint32_t v) {
    mu_err err;
    assert_int_equal(mu_buf_append_u32le(b, v, &err), 0);
}

static void put(mu_buf *b, const void *data, size_t n) {
    mu_err err;
    assert_int_equal(mu_buf_append(b, data, n, &err), 0);
}

static void put_header(mu_buf *b, uint32_t rows, uint32_t columns) {
    mu_buf_init(b, 0);
    put(b, "MUB1\1\0\0\0", 8);
    put_u32(b, rows);
    put_u32(b, columns);
}

static void put_column_head(mu_buf *b, const char *name, const char *type) {
    put_u32(b, (uint32_t)strlen(name));
    put(b, name, strlen(name));
    put_u32(b, (uint32_t)strlen(type));
    put(b, type, strlen(type));
}

static void expect_corrupt(mu_buf *b, const char *what) {
    ty_batch *decoded;
    mu_err err;
    int rc = ty_batch_decode(b->data, b->length_bytes, NULL, &decoded, &err);
    if (rc != MU_ECORRUPT) fail_msg("%s: got %d", what, rc);
    mu_buf_deinit(b);
}

static void expect_good(mu_buf *b, const char *what) {
    ty_batch *decoded;
    mu_err err;
    int rc = ty_batch_decode(b->data, b->length_bytes, NULL, &decoded, &err);
    if (rc != 0) fail_msg("%s: %s", what, err.message);
    ty_batch_destroy(decoded);
    mu_buf_deinit(b);
}

static void test_header_defects(void **state) {
    (void)state;
    mu_buf b;
    put_header(&b, 0, 0);
    expect_good(&b, "empty");
    put_header(&b, 0, 0);
    b.data[0] = 'X';
    expect_corrupt(&b, "magic");
    put_header(&b, 0, 0);
    b.data[4] = 2;
    expect_corrupt(&b, "version");
    put_header(&b, 0, 0);
    b.data[6] = 1;
    expect_corrupt(&b, "flags");
    put_header(&b, TY_BATCH_ROWS_MAX + 1, 0);
    expect_corrupt(&b, "rows");
    put_header(&b, 0, 4097);
    expect_corrupt(&b, "columns");
    put_header(&b, 0, 1000000);
    expect_corrupt(&b, "columns beyond the input");
    put_header(&b, 0, 0);
    put(&b, "x", 1);
    expect_corrupt(&b, "trailing byte");
}

static void test_column_defects(void **state) {
    (void)state;
    mu_buf b;
    const uint8_t zero = 0, one = 1;
    /* A good one-row UInt8 column, then variations. */
    put_header(&b, 1, 1);
    put_column_head(&b, "x", "UInt8");
    put(&b, &zero, 1);
    put(&b, "\7", 1);
    expect_good(&b, "UInt8");
    put_header(&b, 1, 1);
    put_column_head(&b, "", "UInt8");
    put(&b, &zero, 1);
    put(&b, "\7", 1);
    expect_corrupt(&b, "empty name");
    put_header(&b, 1, 1);
    put_column_head(&b, "x", "INT");
    put(&b, &zero, 1);
    put(&b, "\7\0\0\0", 4);
    expect_corrupt(&b, "non-canonical type name");
    put_header(&b, 1, 1);
    put_column_head(&b, "x", "Frob");
    put(&b, &zero, 1);
    expect_corrupt(&b, "unknown type");
    put_header(&b, 1, 1);
    put_column_head(&b, "x", "DateTime('Nowhere/City')");
    put(&b, &zero, 1);
    expect_corrupt(&b, "unknown zone");
    put_header(&b, 1, 2);
    put_column_head(&b, "x", "UInt8");
    put(&b, &zero, 1);
    put(&b, "\7", 1);
    put_column_head(&b, "x", "UInt8");
    put(&b, &zero, 1);
    put(&b, "\7", 1);
    expect_corrupt(&b, "duplicate name");
    put_header(&b, 1, 1);
    put_column_head(&b, "x", "UInt8");
    put(&b, &one, 1); /* validity for a non-nullable type */
    put(&b, "\1\7", 2);
    expect_corrupt(&b, "validity flag");
    put_header(&b, 1, 1);
    put_column_head(&b, "x", "Nullable(UInt8)");
    put(&b, &one, 1);
    put(&b, "\3\7", 2); /* bit 1 set past the single row */
    expect_corrupt(&b, "validity bits");
    put_header(&b, 1, 1);
    put_column_head(&b, "x", "Bool");
    put(&b, &zero, 1);
    put(&b, "\2", 1);
    expect_corrupt(&b, "Bool 2");
    put_header(&b, 1, 1);
    put_column_head(&b, "x", "Enum8('a' = 1)");
    put(&b, &zero, 1);
    put(&b, "\2", 1);
    expect_corrupt(&b, "undeclared enum");
}

static void test_offset_and_index_defects(void **state) {
    (void)state;
    mu_buf b;
    const uint8_t zero = 0;
    put_header(&b, 2, 1);
    put_column_head(&b, "s", "String");
    put(&b, &zero, 1);
    put_u32(&b, 0);
    put_u32(&b, 2);
    put_u32(&b, 1); /* decreasing */
    put(&b, "ab", 2);
    expect_corrupt(&b, "decreasing offsets");
    put_header(&b, 1, 1);
    put_column_head(&b, "s", "String");
    put(&b, &zero, 1);
    put_u32(&b, 1); /* first offset not 0 */
    put_u32(&b, 2);
    put(&b, "ab", 2);
    expect_corrupt(&b, "first offset");
    put_header(&b, 1, 1);
    put_column_head(&b, "s", "String");
    put(&b, &zero, 1);
    put_u32(&b, 0);
    put_u32(&b, 0xFFFFFFFFu); /* more bytes than the input has */
    put(&b, "ab", 2);
    expect_corrupt(&b, "huge string");
    put_header(&b, 1, 1);
    put_column_head(&b, "a", "Array(UInt8)");
    put(&b, &zero, 1);
    put_u32(&b, 0);
    put_u32(&b, 0x7FFFFFFFu); /* elements the input cannot hold */
    put(&b, &zero, 1);
    put(&b, "\1\2", 2);
    expect_corrupt(&b, "huge array");
    put_header(&b, 1, 1);
    put_column_head(&b, "l", "LowCardinality(String)");
    put(&b, &zero, 1);
    put_u32(&b, 0); /* empty dictionary */
    expect_corrupt(&b, "empty dictionary");
    put_header(&b, 1, 1);
    put_column_head(&b, "l", "LowCardinality(String)");
    put(&b, &zero, 1);
    put_u32(&b, 1);
    put(&b, &zero, 1);
    put_u32(&b, 0);
    put_u32(&b, 0);
    put_u32(&b, 1); /* index 1 of a 1-entry dictionary */
    expect_corrupt(&b, "index out of range");
    put_header(&b, 1, 1);
    put_column_head(&b, "l", "LowCardinality(String)");
    put(&b, &zero, 1);
    put_u32(&b, 1);
    put(&b, &zero, 1);
    put_u32(&b, 0);
    put_u32(&b, 0);
    put_u32(&b, 0);
    expect_good(&b, "one-entry dictionary");
    put_header(&b, 1, 1);
    put_column_head(&b, "m", "Map(String, UInt8)");
    put(&b, &zero, 1);
    put_u32(&b, 0);
    put_u32(&b, 1);
    put(&b, &zero, 1); /* keys: one empty string */
    put_u32(&b, 0);
    put_u32(&b, 0);
    expect_corrupt(&b, "map values missing");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip_every_type, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_selection_and_empty, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_truncation, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_flipped_bytes, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_header_defects, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_column_defects, tu_setup, tu_teardown),
        cmocka_unit_test_setup_teardown(test_offset_and_index_defects, tu_setup, tu_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
