/* part_format_test.c: goal — prove that part names format and parse
 * (partition ids with '_', every malformed name refused), column file
 * stems escape and hash as documented, the manifest round-trips every
 * field, and that hostile manifests and marks (every truncation, every
 * byte changed under a fixed-up checksum, and hand-made bad fields:
 * non-canonical types, bad codecs, duplicate names, bad keys, empty
 * tokens, trailing bytes, wrong versions, bad granule records) fail with
 * MU_ECORRUPT and never crash.
 */
#include "part_test_util.h"

#include "storage/part/part_int.h"

static void test_part_names(void **state) {
    (void)state;
    char name[64], id[PART_PARTITION_ID_BYTES_MAX + 1];
    mu_err err;
    pt_check(part_name_format("202401", 1, 5, 0, name, sizeof(name), &err), &err, "format");
    assert_string_equal(name, "202401_1_5_0");
    pt_check(part_name_format("all_x-y", 0, UINT64_MAX, UINT32_MAX, name, sizeof(name), &err),
             &err, "format max");
    uint64_t lsn_min, lsn_max;
    uint32_t level;
    pt_check(part_name_parse(name, id, sizeof(id), &lsn_min, &lsn_max, &level, &err), &err, "p");
    assert_string_equal(id, "all_x-y");
    assert_int_equal(lsn_min, 0);
    assert_true(lsn_max == UINT64_MAX);
    assert_int_equal(level, UINT32_MAX);
    assert_int_equal(part_name_format("a/b", 1, 2, 0, name, sizeof(name), &err), MU_EINVAL);
    assert_int_equal(part_name_format("", 1, 2, 0, name, sizeof(name), &err), MU_EINVAL);
    assert_int_equal(part_name_format("a", 3, 2, 0, name, sizeof(name), &err), MU_EINVAL);
    assert_int_equal(part_name_format("abcdef", 1, 2, 0, name, 8, &err), MU_EINVAL);
    static const char *bad[] = {"abc", "a_1_2", "a_x_2_3", "_1_2_3", "a_2_1_0", "a_1_2_4294967296",
                                "a_1_123456789012345678901_0", "a_1_2_3_", "a.b_1_2_3", "",
                                "a_18446744073709551616_1_1", "a__1_2"};
    for (size_t i = 0; i < MU_ARRAY_LEN(bad); i++) {
        if (part_name_parse(bad[i], id, sizeof(id), &lsn_min, &lsn_max, &level, &err) !=
            MU_EINVAL)
            fail_msg("accepted %s", bad[i]);
    }
    assert_int_equal(part_name_parse("a_1_2_3", id, 1, &lsn_min, &lsn_max, &level, &err),
                     MU_EINVAL);
}

static void test_file_stems(void **state) {
    (void)state;
    char stem[PART_FILE_STEM_BYTES_MAX + 1], name[300];
    assert_string_equal(part_column_file_stem("Abc_9", 5, stem), "Abc_9");
    assert_string_equal(part_column_file_stem("a b.c%", 6, stem), "a%20b%2Ec%25");
    assert_string_equal(part_column_file_stem("x\0y", 3, stem), "x%00y");
    assert_string_equal(part_column_file_stem("~", 1, stem), "%7E");
    memset(name, 'z', 200);
    assert_int_equal(strlen(part_column_file_stem(name, 200, stem)), 200); /* exactly fits */
    assert_int_equal(part_column_file_stem(name, 201, stem)[0], '~');
    memset(name, '.', 67);
    assert_int_equal(strlen(part_column_file_stem(name, 66, stem)), 198);
    assert_int_equal(part_column_file_stem(name, 67, stem)[0], '~');
    char other[PART_FILE_STEM_BYTES_MAX + 1];
    part_column_file_stem(name, 68, other);
    assert_string_not_equal(stem, other);
}

/* ------------------------------------------------------------------ */
/* Manifest                                                            */
/* ------------------------------------------------------------------ */

static part__column sample_columns[3];
static uint32_t sample_keys[2] = {2, 0};
static part_token sample_tokens[2] = {{(const uint8_t *)"t1", 2}, {(const uint8_t *)"\0\1", 2}};
static part__file sample_files[4] = {
    {"a.bin", 10, 0x11}, {"b%20c.bin", 20, 0x22}, {"Bb.bin", 30, 0x33}, {"marks", 40, 0x44}};

static part__manifest sample_manifest(void) {
    sample_columns[0] = (part__column){.name = "a", .type = pt_type("UInt64")};
    sample_columns[1] = (part__column){.name = "b c", .type = pt_type("Array(Nullable(String))")};
    sample_columns[2] = (part__column){.name = "Bb", .type = pt_type("Bool"), .minmax = true};
    part_codec_chain_default(&sample_columns[0].codec);
    part_codec_chain_default(&sample_columns[1].codec);
    part_codec_chain_default(&sample_columns[2].codec);
    sample_columns[0].codec.steps[0].id = PART_CODEC_ZSTD;
    sample_columns[0].codec.steps[0].param = 3;
    for (int i = 0; i < 3; i++)
        part_column_file_stem(sample_columns[i].name, strlen(sample_columns[i].name),
                              sample_columns[i].file_stem);
    part__manifest m = {.format_version = PART_FORMAT_VERSION, .partition_id = "p_1",
                        .partition_value = "x'y", .lsn_min = 7,
                        .lsn_max = 9, .level = 3, .row_count = 100, .granule_count = 2,
                        .index_granularity = 64, .has_ttl = true, .ttl_min = 1, .ttl_max = 2,
                        .column_count = 3, .columns = sample_columns, .key_count = 2,
                        .key_columns = sample_keys, .key_first = (const uint8_t *)"\1\2",
                        .key_first_bytes = 2,
                        .key_last = (const uint8_t *)"\3", .key_last_bytes = 1, .token_count = 2,
                        .tokens = sample_tokens, .file_count = 4, .files = sample_files};
    memset(m.table_uuid, 0xAB, 16);
    return m;
}

static void encode(const part__manifest *m, mu_buf *out) {
    mu_err err;
    mu_buf_init(out, 0);
    pt_check(part__manifest_encode(m, out, &err), &err, "encode");
}

static void fix_crc(mu_buf *b) {
    mu_store_u32le(b->data + b->length_bytes - 4, mu_crc32c(0, b->data, b->length_bytes - 4));
}

static int decode(const mu_buf *b, part__manifest *m) {
    mu_err err;
    mu_err_clear(&err);
    int rc = part__manifest_decode(b->data, b->length_bytes, pt_arena, m, &err);
    if (rc != 0) {
        assert_int_equal(rc, MU_ECORRUPT);
        assert_non_null(strstr(err.message, "manifest"));
    }
    return rc;
}

static void test_manifest_round_trip(void **state) {
    (void)state;
    part__manifest in = sample_manifest(), out;
    mu_buf b;
    encode(&in, &b);
    assert_int_equal(decode(&b, &out), 0);
    assert_memory_equal(out.table_uuid, in.table_uuid, 16);
    assert_string_equal(out.partition_id, "p_1");
    assert_string_equal(out.partition_value, "x'y");
    assert_int_equal(out.lsn_min, 7);
    assert_int_equal(out.lsn_max, 9);
    assert_int_equal(out.level, 3);
    assert_int_equal(out.row_count, 100);
    assert_int_equal(out.granule_count, 2);
    assert_int_equal(out.index_granularity, 64);
    assert_true(out.has_ttl && out.ttl_min == 1 && out.ttl_max == 2);
    assert_int_equal(out.column_count, 3);
    for (int i = 0; i < 3; i++) {
        assert_string_equal(out.columns[i].name, in.columns[i].name);
        assert_true(ty_type_equal(out.columns[i].type, in.columns[i].type));
        assert_true(part_codec_chain_equal(&out.columns[i].codec, &in.columns[i].codec));
        assert_int_equal(out.columns[i].minmax, in.columns[i].minmax);
        assert_string_equal(out.columns[i].file_stem, in.columns[i].file_stem);
    }
    assert_int_equal(out.key_count, 2);
    assert_int_equal(out.key_columns[0], 2);
    assert_int_equal(out.key_first_bytes, 2);
    assert_memory_equal(out.key_last, "\3", 1);
    assert_int_equal(out.token_count, 2);
    assert_memory_equal(out.tokens[1].data, "\0\1", 2);
    assert_int_equal(out.file_count, 4);
    assert_string_equal(out.files[1].name, "b%20c.bin");
    assert_int_equal(out.files[2].size_bytes, 30);
    assert_int_equal(out.files[3].crc32c, 0x44);
    mu_buf_deinit(&b);
}

/* Every truncation, and every byte changed with a fixed-up checksum. */
static void test_manifest_damage_everywhere(void **state) {
    (void)state;
    part__manifest in = sample_manifest(), out;
    mu_buf b;
    encode(&in, &b);
    for (size_t n = 0; n < b.length_bytes; n++) {
        mu_buf cut = {.data = b.data, .length_bytes = n};
        assert_int_equal(decode(&cut, &out), MU_ECORRUPT);
    }
    for (size_t at = 0; at + 4 < b.length_bytes; at++) {
        for (int delta = 1; delta < 256; delta += 85) {
            uint8_t saved = b.data[at];
            b.data[at] = (uint8_t)(saved + delta);
            fix_crc(&b);
            (void)decode(&b, &out); /* fails cleanly or reads some other valid manifest */
            b.data[at] = saved;
        }
        fix_crc(&b);
        b.data[at] ^= 1; /* without a fixed checksum: always refused */
        assert_int_equal(decode(&b, &out), MU_ECORRUPT);
        b.data[at] ^= 1;
    }
    mu_buf_deinit(&b);
}

/* Replaces the first occurrence of `from` by `to` (same length). */
static void patch(mu_buf *b, const char *from, const char *to) {
    size_t n = strlen(from);
    assert_int_equal(strlen(to), n);
    for (size_t i = 0; i + n <= b->length_bytes; i++) {
        if (memcmp(b->data + i, from, n) == 0) {
            memcpy(b->data + i, to, n);
            fix_crc(b);
            return;
        }
    }
    fail_msg("%s not found", from);
}

static void expect_bad(const part__manifest *m, const char *from, const char *to) {
    mu_buf b;
    part__manifest out;
    encode(m, &b);
    if (from != NULL) patch(&b, from, to);
    assert_int_equal(decode(&b, &out), MU_ECORRUPT);
    mu_buf_deinit(&b);
}

static void test_manifest_bad_fields(void **state) {
    (void)state;
    part__manifest m = sample_manifest();
    expect_bad(&m, "Bool", "BOOL");          /* alias, not canonical */
    expect_bad(&m, "UInt64", "UInt65");      /* unknown type */
    expect_bad(&m, "ZSTD(3)", "ZSTD(0)");    /* bad level */
    expect_bad(&m, "ZSTD(3)", "Zstd(3)");    /* not canonical */
    expect_bad(&m, "p_1", "p/1");            /* bad partition id */
    m.columns[2].name = "a";                 /* duplicate column */
    expect_bad(&m, NULL, NULL);
    m = sample_manifest();
    m.columns[1].minmax = true;              /* minmax on an Array */
    expect_bad(&m, NULL, NULL);
    m = sample_manifest();
    uint32_t keys[2] = {2, 2};
    m.key_columns = keys;                    /* repeated key column */
    expect_bad(&m, NULL, NULL);
    keys[1] = 3;                             /* key column out of range */
    expect_bad(&m, NULL, NULL);
    m = sample_manifest();
    part_token empty = {(const uint8_t *)"", 0};
    m.tokens = &empty;
    m.token_count = 1;
    expect_bad(&m, NULL, NULL);
    m = sample_manifest();
    m.lsn_min = 10;                          /* reversed LSN range */
    expect_bad(&m, NULL, NULL);
    m = sample_manifest();
    m.has_ttl = false;                       /* TTL values without TTL */
    expect_bad(&m, NULL, NULL);
    m = sample_manifest();
    m.granule_count = 1;                     /* 1 granule of 64 cannot hold 100 rows */
    expect_bad(&m, NULL, NULL);
    m = sample_manifest();
    m.index_granularity = 0;
    expect_bad(&m, NULL, NULL);
    m = sample_manifest();
    m.file_count = 0;
    mu_buf b;
    part__manifest out;
    encode(&m, &b);
    assert_int_equal(decode(&b, &out), 0); /* the file set is part_open's business */
    /* A byte after the body, the body length, version and flags. */
    b.data[8]++;
    fix_crc(&b);
    assert_int_equal(decode(&b, &out), MU_ECORRUPT);
    b.data[8]--;
    b.data[4] = PART_FORMAT_VERSION + 1;
    fix_crc(&b);
    assert_int_equal(decode(&b, &out), MU_ECORRUPT);
    b.data[4] = 0;
    fix_crc(&b);
    assert_int_equal(decode(&b, &out), MU_ECORRUPT);
    b.data[4] = PART_FORMAT_VERSION_MIN; /* an older version is read */
    fix_crc(&b);
    assert_int_equal(decode(&b, &out), 0);
    assert_int_equal(out.format_version, PART_FORMAT_VERSION_MIN);
    b.data[4] = PART_FORMAT_VERSION;
    b.data[6] = 1;
    fix_crc(&b);
    assert_int_equal(decode(&b, &out), MU_ECORRUPT);
    mu_buf_deinit(&b);
}

/* ------------------------------------------------------------------ */
/* Marks                                                               */
/* ------------------------------------------------------------------ */

/* Marks of 2 granules (64 + 36 rows), 3 columns, no key values. */
static void build_marks(mu_buf *b, const uint32_t rows[2], const uint64_t offsets[2]) {
    part__manifest m = sample_manifest();
    uint8_t header[PART__MARKS_HEADER_BYTES];
    part__marks_header(header, PART_FORMAT_VERSION, 2, 3, m.key_count, 100);
    mu_buf_init(b, 0);
    mu_buf_append(b, header, sizeof(header), NULL);
    for (int g = 0; g < 2; g++) {
        mu_buf_append_u32le(b, rows[g], NULL);
        for (int c = 0; c < 3; c++) {
            mu_buf_append_u64le(b, offsets[g], NULL);
            mu_buf_append_u32le(b, 50, NULL);
            mu_buf_append_u32le(b, 0xABCD, NULL);
        }
    }
    mu_buf_append_u32le(b, 2, NULL);
    mu_buf_append(b, "k1", 2, NULL);
    mu_buf_append_u32le(b, 0, NULL);
    mu_buf_append_u32le(b, 0, NULL); /* checksum, fixed below */
    fix_crc(b);
}

static int decode_marks(const mu_buf *b, part__marks *marks) {
    part__manifest m = sample_manifest();
    mu_err err;
    mu_err_clear(&err);
    int rc = part__marks_decode(b->data, b->length_bytes, &m, pt_arena, marks, &err);
    if (rc != 0) assert_non_null(strstr(err.message, "marks"));
    return rc;
}

static void test_marks(void **state) {
    (void)state;
    const uint32_t rows[2] = {64, 36};
    const uint64_t offsets[2] = {0, 50};
    mu_buf b;
    part__marks marks;
    build_marks(&b, rows, offsets);
    assert_int_equal(decode_marks(&b, &marks), 0);
    assert_int_equal(marks.granule_rows[1], 36);
    assert_int_equal(marks.granule_first_row[1], 64);
    assert_int_equal(marks.marks[3 + 2].offset, 50);
    assert_int_equal(marks.marks[5].crc32c, 0xABCD);
    assert_int_equal(marks.key_bytes[0], 2);
    assert_int_equal(marks.key_bytes[1], 0);
    for (size_t n = 0; n < b.length_bytes; n++) {
        mu_buf cut = {.data = b.data, .length_bytes = n};
        assert_int_equal(decode_marks(&cut, &marks), MU_ECORRUPT);
    }
    mu_buf_deinit(&b);
    const uint32_t bad_rows[][2] = {{0, 100}, {65, 35}, {64, 35}, {64, 37}};
    for (size_t i = 0; i < MU_ARRAY_LEN(bad_rows); i++) {
        build_marks(&b, bad_rows[i], offsets);
        assert_int_equal(decode_marks(&b, &marks), MU_ECORRUPT);
        mu_buf_deinit(&b);
    }
    const uint64_t bad_offsets[][2] = {{1, 50}, {0, 49}, {0, 51}};
    for (size_t i = 0; i < MU_ARRAY_LEN(bad_offsets); i++) {
        build_marks(&b, rows, bad_offsets[i]);
        assert_int_equal(decode_marks(&b, &marks), MU_ECORRUPT);
        mu_buf_deinit(&b);
    }
    build_marks(&b, rows, offsets);
    for (size_t at = 0; at < PART__MARKS_HEADER_BYTES; at++) {
        b.data[at] ^= 0x40;
        fix_crc(&b);
        assert_int_equal(decode_marks(&b, &marks), MU_ECORRUPT);
        b.data[at] ^= 0x40;
    }
    mu_buf_deinit(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_part_names, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_file_stems, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_manifest_round_trip, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_manifest_damage_everywhere, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_manifest_bad_fields, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_marks, pt_setup, pt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
