/* part_stream_test.c: goal — prove that a granule encodes into exactly
 * the documented streams (counts, raw sizes, LowCardinality index widths
 * 1/2/4 and the chain's minimum), decodes back from any row offset, and
 * that decoding hand-made hostile stream sequences — wrong row counts,
 * truncation, trailing bytes, lengths that do not add up, validity bits
 * past the end, NULL rows with values, Bool 2, dictionary indexes out of
 * range, odd index widths, element counts that do not match — fails with
 * MU_ECORRUPT and leaves no partial rows once the caller truncates.
 */
#include "part_test_util.h"

#include "storage/part/part_int.h"

static part_codec_chain lz4, none;

static int stream_setup(void **state) {
    part_codec_chain_default(&lz4);
    memset(&none, 0, sizeof(none));
    none.step_count = 1;
    none.steps[0].id = PART_CODEC_NONE;
    return pt_setup(state);
}

static void encode_range(const ty_column *c, uint32_t from, uint32_t count, mu_buf *out,
                         const part_codec_chain *chain) {
    part__encoder e;
    part__encoder_init(&e);
    mu_err err;
    part_codec_chain aux;
    part__aux_chain(chain, &aux);
    pt_check(part__granule_encode(&e, c, chain, &aux, from, count, out, &err), &err, "encode");
    part__encoder_deinit(&e);
}

/* Decodes as a part of format `version` would be read. */
static int decode_version(ty_column *out, const mu_buf *b, uint32_t rows, uint16_t version) {
    part__decoder d;
    part__decoder_init(&d);
    d.format_version = version;
    mu_err err;
    mu_err_clear(&err);
    uint32_t before = ty_column_row_count(out);
    int rc = part__granule_decode(&d, b->data, b->length_bytes, rows, out, &err);
    if (rc != 0) {
        assert_int_equal(rc, MU_ECORRUPT);
        ty_column_truncate(out, before);
    }
    part__decoder_deinit(&d);
    return rc;
}

static int decode_into(ty_column *out, const mu_buf *b, uint32_t rows) {
    return decode_version(out, b, rows, PART_FORMAT_VERSION);
}

/* Number of blocks and the raw size of block `index`. */
static uint32_t block_count(const mu_buf *b, uint32_t index, uint32_t *raw_out) {
    size_t pos = 0;
    uint32_t n = 0;
    while (pos < b->length_bytes) {
        part_codec_block_info info;
        mu_err err;
        pt_check(part_codec_block_info_read(b->data + pos, b->length_bytes - pos, &info, &err),
                 &err, "info");
        if (n == index && raw_out != NULL) *raw_out = info.raw_bytes;
        pos += info.block_bytes;
        n++;
    }
    return n;
}

static void test_round_trip_from_offsets(void **state) {
    (void)state;
    static const char *types[] = {"Nullable(String)", "LowCardinality(Nullable(String))",
                                  "Array(Map(String, Nullable(Int32)))", "Nullable(Bool)",
                                  "FixedString(2)", "Array(LowCardinality(UInt16))"};
    for (size_t t = 0; t < MU_ARRAY_LEN(types); t++) {
        ty_column *c = pt_random_column(types[t], 500), *out = pt_column(types[t]);
        static const uint32_t ranges[][2] = {{0, 500}, {3, 61}, {8, 8}, {499, 1}, {17, 0}};
        for (size_t r = 0; r < MU_ARRAY_LEN(ranges); r++) {
            mu_buf b;
            mu_buf_init(&b, 0);
            encode_range(c, ranges[r][0], ranges[r][1], &b, &lz4);
            uint32_t before = ty_column_row_count(out);
            assert_int_equal(decode_into(out, &b, ranges[r][1]), 0);
            pt_assert_rows_equal(c, ranges[r][0], out, before, ranges[r][1]);
            if (ranges[r][1] > 0) {
                assert_int_equal(decode_into(out, &b, ranges[r][1] - 1), MU_ECORRUPT);
                assert_int_equal(decode_into(out, &b, ranges[r][1] + 1), MU_ECORRUPT);
            }
            for (size_t n = 0; n < b.length_bytes; n += 5) {
                mu_buf cut = {.data = b.data, .length_bytes = n};
                assert_int_equal(decode_into(out, &cut, ranges[r][1]), MU_ECORRUPT);
            }
            mu_buf_append(&b, "\0", 1, NULL);
            assert_int_equal(decode_into(out, &b, ranges[r][1]), MU_ECORRUPT);
            mu_buf_deinit(&b);
        }
        ty_column_destroy(c);
        ty_column_destroy(out);
    }
}

static void build(mu_buf *b, int count, ...);

static void test_stream_layout(void **state) {
    (void)state;
    mu_buf b;
    uint32_t raw = 0;
    ty_column *s = pt_random_column("Nullable(String)", 100);
    mu_buf_init(&b, 0);
    encode_range(s, 0, 100, &b, &lz4);
    assert_int_equal(block_count(&b, 0, &raw), 2); /* validity, strings */
    assert_int_equal(raw, 13);
    mu_buf_deinit(&b);
    /* Format 2: one stream of LEB128 length + bytes per row. */
    static char big[65536];
    memset(big, 'x', sizeof(big));
    ty_column *strings = pt_column("String");
    mu_err err;
    static const size_t lengths[] = {0, 1, 127, 128, 16383, 16384, 65536};
    static const size_t prefix[] = {1, 1, 1, 2, 2, 3, 3};
    uint32_t expected = 0;
    for (size_t k = 0; k < MU_ARRAY_LEN(lengths); k++) {
        pt_check(ty_column_append_bytes(strings, big, lengths[k], &err), &err, "string");
        expected += (uint32_t)(prefix[k] + lengths[k]);
    }
    uint32_t rows = (uint32_t)MU_ARRAY_LEN(lengths);
    mu_buf_init(&b, 0);
    encode_range(strings, 0, rows, &b, &lz4);
    assert_int_equal(block_count(&b, 0, &raw), 1);
    assert_int_equal(raw, expected);
    ty_column *back = pt_column("String");
    assert_int_equal(decode_into(back, &b, rows), 0);
    pt_assert_rows_equal(strings, 0, back, 0, rows);
    ty_column_destroy(back);
    ty_column_destroy(strings);
    mu_buf_deinit(&b);
    /* Format 1 (parts written before): a lengths stream of 1, 2 or 4 bytes
     * per row (raw size / rows), then the bytes. */
    static const uint8_t w1[3] = {1, 0, 2}, w2[6] = {1, 0, 0, 0, 2, 0},
                         w4[12] = {1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0};
    static const struct { const uint8_t *lengths; size_t bytes; } old_layouts[] = {
        {w1, sizeof(w1)}, {w2, sizeof(w2)}, {w4, sizeof(w4)}};
    for (size_t k = 0; k < MU_ARRAY_LEN(old_layouts); k++) {
        build(&b, 2, old_layouts[k].lengths, old_layouts[k].bytes, "abc", (size_t)3);
        back = pt_column("String");
        assert_int_equal(decode_version(back, &b, 3, 1), 0);
        size_t n;
        assert_memory_equal(ty_column_row_bytes(back, 0, &n), "a", 1);
        assert_int_equal(n, 1);
        ty_column_row_bytes(back, 1, &n);
        assert_int_equal(n, 0);
        assert_memory_equal(ty_column_row_bytes(back, 2, &n), "bc", 2);
        /* Read as format 2, the same blocks are refused, never misread. */
        ty_column *other = pt_column("String");
        assert_int_equal(decode_version(other, &b, 3, 2), MU_ECORRUPT);
        ty_column_destroy(other);
        ty_column_destroy(back);
        mu_buf_deinit(&b);
    }
    /* LowCardinality index widths follow the granule's dictionary size. */
    ty_column *lc = pt_column("LowCardinality(String)");
    for (int i = 0; i < 70000; i++) {
        char text[16];
        int n = snprintf(text, sizeof(text), "%d", i < 1000 ? i % 200 : i);
        pt_check(ty_column_append_bytes(lc, text, (size_t)n, &err), &err, "lc");
    }
    static const struct { uint32_t from, count, width; } cases[] = {
        {0, 1000, 1}, {0, 1300, 2}, {0, 70000, 4}};
    for (size_t i = 0; i < MU_ARRAY_LEN(cases); i++) {
        mu_buf_init(&b, 0);
        encode_range(lc, cases[i].from, cases[i].count, &b, &lz4);
        assert_int_equal(block_count(&b, 2, &raw), 3); /* dict lengths, dict bytes, indices */
        assert_int_equal(raw, cases[i].count * cases[i].width);
        ty_column *out = pt_column("LowCardinality(String)");
        assert_int_equal(decode_into(out, &b, cases[i].count), 0);
        pt_assert_rows_equal(lc, cases[i].from, out, 0, cases[i].count);
        ty_column_destroy(out);
        mu_buf_deinit(&b);
    }
    /* A chain with T64 (width 4) forces 4-byte indices. */
    part_codec_chain t64;
    pt_check(part_codec_chain_parse("T64, LZ4", 8, 4, &t64, &err), &err, "t64");
    mu_buf_init(&b, 0);
    encode_range(lc, 0, 1000, &b, &t64);
    block_count(&b, 2, &raw);
    assert_int_equal(raw, 4000);
    mu_buf_deinit(&b);
    ty_column_destroy(lc);
    ty_column_destroy(s);
}

/* Builds a granule from raw stream buffers given as (data, size) pairs. */
static void build(mu_buf *b, int count, ...) {
    va_list ap;
    va_start(ap, count);
    mu_buf_init(b, 0);
    for (int i = 0; i < count; i++) {
        const void *data = va_arg(ap, const void *);
        size_t size = va_arg(ap, size_t);
        mu_err err;
        pt_check(part_codec_encode(&none, size ? data : "", size, b, &err), &err, "block");
    }
    va_end(ap);
}

static void expect_corrupt_version(const char *type_name, uint32_t rows, const mu_buf *b,
                                   uint16_t version) {
    ty_column *out = pt_column(type_name);
    assert_int_equal(decode_version(out, b, rows, version), MU_ECORRUPT);
    assert_int_equal(ty_column_row_count(out), 0);
    mu_err err;
    pt_check(ty_column_validate(out, &err), &err, "valid after failure");
    ty_column_destroy(out);
}

static void expect_corrupt(const char *type_name, uint32_t rows, const mu_buf *b) {
    expect_corrupt_version(type_name, rows, b, PART_FORMAT_VERSION);
}

static void test_hostile_streams(void **state) {
    (void)state;
    mu_buf b;
    const uint32_t len2[2] = {1, 1}, len_big[2] = {1, 5};
    /* Format 1 strings: lengths, then bytes. */
    build(&b, 2, len2, (size_t)8, "abc", (size_t)3); /* lengths add up to 2, 3 bytes */
    expect_corrupt_version("String", 2, &b, 1);
    mu_buf_deinit(&b);
    build(&b, 2, len_big, (size_t)8, "ab", (size_t)2);
    expect_corrupt_version("String", 2, &b, 1);
    mu_buf_deinit(&b);
    build(&b, 3, "\x07", (size_t)1, len2, (size_t)8, "ab", (size_t)2); /* bit 2 past 2 rows */
    expect_corrupt_version("Nullable(String)", 2, &b, 1);
    mu_buf_deinit(&b);
    build(&b, 3, "\x01", (size_t)1, len2, (size_t)8, "ab", (size_t)2); /* NULL row with "b" */
    expect_corrupt_version("Nullable(String)", 2, &b, 1);
    mu_buf_deinit(&b);
    /* Format 2 strings: LEB128 length + bytes per row. */
    static const struct { const char *data; size_t bytes; } bad_strings[] = {
        {"\x01" "a\x05" "bc", 5},          /* the second length runs past the end */
        {"\x01" "a\x80", 3},               /* a length without its last byte */
        {"\x01" "a\x01" "bc", 5},          /* a byte after the last string */
        {"\x01" "a", 2},                    /* one string for two rows */
        {"\x01" "a\xff\xff\xff\xff\xff\x01", 8}, /* a length past 32 bits */
    };
    for (size_t k = 0; k < MU_ARRAY_LEN(bad_strings); k++) {
        build(&b, 1, bad_strings[k].data, bad_strings[k].bytes);
        expect_corrupt("String", 2, &b);
        mu_buf_deinit(&b);
    }
    build(&b, 2, "\x01", (size_t)1, "\x01" "a\x01" "b", (size_t)4); /* NULL row with "b" */
    expect_corrupt("Nullable(String)", 2, &b);
    mu_buf_deinit(&b);
    build(&b, 2, "\x01", (size_t)1, "\x01" "a\x00", (size_t)3); /* the consistent version */
    ty_column *nullable = pt_column("Nullable(String)");
    assert_int_equal(decode_into(nullable, &b, 2), 0);
    assert_true(ty_column_is_null(nullable, 1));
    ty_column_destroy(nullable);
    mu_buf_deinit(&b);
    build(&b, 2, "\x01", (size_t)1, "\x00\x05", (size_t)2); /* NULL row holding 5 */
    expect_corrupt("Nullable(UInt8)", 2, &b);
    mu_buf_deinit(&b);
    build(&b, 1, "\x01\x02", (size_t)2);
    expect_corrupt("Bool", 2, &b);
    mu_buf_deinit(&b);
    build(&b, 3, len2, (size_t)8, "ab", (size_t)2, "\x00\x02", (size_t)2); /* index 2 of 2 */
    expect_corrupt("LowCardinality(String)", 2, &b);
    mu_buf_deinit(&b);
    build(&b, 3, len2, (size_t)8, "ab", (size_t)2, "\0\0\0\0\0\0", (size_t)6); /* width 3 */
    expect_corrupt("LowCardinality(String)", 2, &b);
    mu_buf_deinit(&b);
    const uint32_t three[3] = {1, 1, 1};
    build(&b, 3, three, (size_t)12, "abc", (size_t)3, "\0\1", (size_t)2); /* 3 entries, 2 rows */
    expect_corrupt("LowCardinality(String)", 2, &b);
    mu_buf_deinit(&b);
    build(&b, 2, len2, (size_t)8, "\1\2\3", (size_t)3); /* 2 elements, 3 values */
    expect_corrupt("Array(UInt8)", 2, &b);
    mu_buf_deinit(&b);
    build(&b, 3, len2, (size_t)8, "\1\2", (size_t)2, "\1", (size_t)1); /* 1 map value of 2 */
    expect_corrupt("Map(UInt8, UInt8)", 2, &b);
    mu_buf_deinit(&b);
    build(&b, 1, "\1\2", (size_t)2);
    expect_corrupt("UInt16", 2, &b); /* 2 bytes for 2 rows of 2 bytes */
    mu_buf_deinit(&b);
    /* The consistent versions of the same shapes decode. */
    build(&b, 3, len2, (size_t)8, "ab", (size_t)2, "\x01\x00", (size_t)2);
    ty_column *out = pt_column("LowCardinality(String)");
    assert_int_equal(decode_into(out, &b, 2), 0);
    size_t n;
    assert_memory_equal(ty_column_row_bytes(out, 0, &n), "b", 1);
    ty_column_destroy(out);
    mu_buf_deinit(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip_from_offsets, stream_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_stream_layout, stream_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_hostile_streams, stream_setup, pt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
