/* part_writer_test.c: goal — prove that every column type (Nullable,
 * Array(Nullable(String)), Map, LowCardinality, Decimal128, DateTime64, ...)
 * survives the writer and reader bit-exactly across many granules with a
 * partial last granule, whether rows arrive in odd chunks (through the
 * partial-granule copy) or whole; that granularity edges (1, exact
 * multiples, one row) cut the right granules; that per-column codecs are
 * applied and recorded; that keys, key range, metadata and file names come
 * out as written; and that bad schemas, bad appends (wrong type, out of
 * range, unsorted), bad metadata, empty parts, an existing directory,
 * abort and close-without-finish are refused or cleaned up; and that the
 * parallel encode (MUSCLES_PART_WRITE_THREADS) writes the same bytes as the
 * serial one and fails cleanly when a worker or a write fails.
 */
#include "part_test_util.h"

static const char *all_types[] = {
    "UInt8", "UInt16", "UInt32", "UInt64", "Int8", "Int16", "Int32", "Int64", "Float32",
    "Float64", "Bool", "String", "FixedString(5)", "Date", "Date32", "DateTime",
    "DateTime64(3)", "DateTime64(9, 'UTC')", "UUID", "Decimal(9, 2)", "Decimal(18, 4)",
    "Decimal(38, 10)", "Enum8('a' = 1, 'b' = -3)", "Enum16('x' = 1000, 'y' = -1000)",
    "Nullable(UInt32)", "Nullable(String)", "Nullable(Float64)", "Nullable(FixedString(3))",
    "Nullable(Decimal(38, 2))", "Nullable(Enum8('p' = 5, 'q' = 7))",
    "LowCardinality(String)", "LowCardinality(Nullable(String))",
    "LowCardinality(FixedString(4))", "LowCardinality(UInt32)",
    "LowCardinality(Nullable(Date))", "Array(UInt64)", "Array(Nullable(String))",
    "Array(Array(Int8))", "Array(LowCardinality(String))", "Map(String, UInt64)",
    "Map(LowCardinality(String), Array(Nullable(Float64)))",
};
#define ALL_TYPES MU_ARRAY_LEN(all_types)

/* Writes all_types as one part and reads every column back. */
static void round_trip_all(uint32_t rows, uint32_t granularity, uint32_t chunk) {
    part_column_def defs[ALL_TYPES];
    ty_column *columns[ALL_TYPES];
    char names[ALL_TYPES][16];
    for (size_t i = 0; i < ALL_TYPES; i++) {
        snprintf(names[i], sizeof(names[i]), "c%zu", i);
        columns[i] = pt_random_column(all_types[i], rows);
        defs[i] = (part_column_def){.name = names[i], .type = columns[i]->type};
    }
    part_schema schema = {.columns = defs, .column_count = ALL_TYPES,
                          .index_granularity = granularity};
    mu_err err;
    mu_err_clear(&err);
    const char *dir = pt_path("tmp_all");
    pt_check(pt_write_part(dir, &schema, columns, rows, chunk, &err), &err, "write");
    part *p = NULL;
    pt_check(part_open(&p, dir, "default.t", &err), &err, "open");
    const part_info *info = part_get_info(p);
    assert_int_equal(info->row_count, rows);
    assert_int_equal(info->granule_count, (rows + granularity - 1) / granularity);
    for (size_t i = 0; i < ALL_TYPES; i++) {
        assert_true(ty_type_equal(part_column_type(p, (uint32_t)i), columns[i]->type));
        ty_column *got = pt_read_all(p, (uint32_t)i);
        assert_int_equal(ty_column_row_count(got), rows);
        pt_assert_rows_equal(columns[i], 0, got, 0, rows);
        ty_column_destroy(got);
    }
    /* A middle range of granules lands at its first rows. */
    if (info->granule_count > 2) {
        for (size_t i = 0; i < ALL_TYPES; i++) {
            ty_column *got = pt_column(all_types[i]);
            pt_check(part_read(p, (uint32_t)i, 1, 2, got, &err), &err, "read range");
            uint32_t expected = part_granule_rows(p, 1) + part_granule_rows(p, 2);
            assert_int_equal(ty_column_row_count(got), expected);
            pt_assert_rows_equal(columns[i], (uint32_t)part_granule_first_row(p, 1), got, 0,
                                 expected);
            ty_column_destroy(got);
        }
    }
    part_close(p);
    pt_remove_tree(dir);
    for (size_t i = 0; i < ALL_TYPES; i++) ty_column_destroy(columns[i]);
}

static void test_round_trip_every_type_in_chunks(void **state) {
    (void)state;
    round_trip_all(5500, 1000, 777);
}

static void test_round_trip_every_type_whole(void **state) {
    (void)state;
    round_trip_all(3001, 500, 3001);
}

static void test_round_trip_tiny_granules(void **state) {
    (void)state;
    round_trip_all(60, 1, 7);  /* one row per granule */
    round_trip_all(64, 8, 64); /* an exact multiple */
    round_trip_all(1, 3, 1);   /* one row */
}

static void test_round_trip_default_granularity(void **state) {
    (void)state;
    round_trip_all(20000, 0 + PART_INDEX_GRANULARITY_DEFAULT, 6000);
}

/* ------------------------------------------------------------------ */
/* Granularity edges                                                   */
/* ------------------------------------------------------------------ */

static void granularity_case(uint32_t rows, uint32_t granularity, uint32_t chunk,
                             uint32_t expected_granules) {
    ty_column *c = pt_column("UInt64");
    mu_err err;
    for (uint64_t i = 0; i < rows; i++) pt_check(ty_column_append_value(c, &i, &err), &err, "v");
    uint32_t key = 0;
    part_column_def def = {.name = "ts", .type = c->type, .minmax = true};
    part_schema schema = {.columns = &def, .column_count = 1, .key_columns = &key,
                          .key_count = 1, .index_granularity = granularity};
    const char *dir = pt_path("tmp_gran");
    pt_check(pt_write_part(dir, &schema, &c, rows, chunk, &err), &err, "write");
    part *p = NULL;
    pt_check(part_open(&p, dir, NULL, &err), &err, "open");
    assert_int_equal(part_get_info(p)->granule_count, expected_granules);
    uint64_t first = 0;
    for (uint32_t g = 0; g < expected_granules; g++) {
        uint32_t n = part_granule_rows(p, g);
        assert_int_equal(n, g + 1 < expected_granules ? granularity : rows - first);
        assert_int_equal(part_granule_first_row(p, g), first);
        const ty_column *keys = part_first_keys(p, 0);
        assert_int_equal(mu_load_u64le(ty_column_values(keys) + g * 8u), first);
        first += n;
    }
    const ty_column *range = part_key_range(p, 0);
    assert_int_equal(mu_load_u64le(ty_column_values(range)), 0);
    assert_int_equal(mu_load_u64le(ty_column_values(range) + 8), rows - 1);
    ty_column *got = pt_read_all(p, 0);
    pt_assert_rows_equal(c, 0, got, 0, rows);
    ty_column_destroy(got);
    part_close(p);
    pt_remove_tree(dir);
    ty_column_destroy(c);
}

static void test_granularity_edges(void **state) {
    (void)state;
    granularity_case(10, 1, 3, 10);     /* one row per granule */
    granularity_case(64, 8, 64, 8);     /* an exact multiple, whole */
    granularity_case(64, 8, 5, 8);      /* an exact multiple, odd chunks */
    granularity_case(1, 100, 1, 1);     /* a single row */
    granularity_case(100, 100, 1, 1);   /* one full granule, row by row */
    granularity_case(101, 100, 50, 2);  /* one row spills */
}

/* ------------------------------------------------------------------ */
/* Codecs                                                              */
/* ------------------------------------------------------------------ */

static part_codec_chain parse_chain(const char *text, const ty_type *type) {
    part_codec_chain chain;
    mu_err err;
    pt_check(part_codec_chain_parse(text, strlen(text), ty_type_value_bytes(type), &chain, &err),
             &err, text);
    return chain;
}

static void test_codecs_per_column(void **state) {
    (void)state;
    static const char *types[] = {"UInt64", "Int32", "Float64", "UInt32", "String",
                                  "Nullable(Int16)", "LowCardinality(String)",
                                  "LowCardinality(Nullable(String))", "Array(String)",
                                  "DateTime64(3)", "FixedString(8)"};
    static const char *codecs[] = {"Delta(8), ZSTD(3)", "DoubleDelta, LZ4", "Gorilla, LZ4",
                                   "T64, ZSTD(1)", "ZSTD(5)", "NONE", "T64, LZ4",
                                   "Delta(1), LZ4HC(9)", "LZ4HC(3)", "DoubleDelta",
                                   "Delta(4), LZ4"};
    enum { N = MU_ARRAY_LEN(types) };
    part_column_def defs[N];
    part_codec_chain chains[N];
    ty_column *columns[N];
    char names[N][8];
    uint32_t rows = 2500;
    for (int i = 0; i < N; i++) {
        columns[i] = pt_random_column(types[i], rows);
        chains[i] = parse_chain(codecs[i], columns[i]->type);
        snprintf(names[i], sizeof(names[i]), "k%d", i);
        defs[i] = (part_column_def){.name = names[i], .type = columns[i]->type,
                                    .codec = &chains[i]};
    }
    part_schema schema = {.columns = defs, .column_count = N, .index_granularity = 300};
    mu_err err;
    const char *dir = pt_path("tmp_codecs");
    pt_check(pt_write_part(dir, &schema, columns, rows, 1000, &err), &err, "write");
    part *p = NULL;
    pt_check(part_open(&p, dir, NULL, &err), &err, "open");
    for (int i = 0; i < N; i++) {
        assert_true(part_codec_chain_equal(part_column_codec(p, (uint32_t)i), &chains[i]));
        ty_column *got = pt_read_all(p, (uint32_t)i);
        pt_assert_rows_equal(columns[i], 0, got, 0, rows);
        ty_column_destroy(got);
        ty_column_destroy(columns[i]);
    }
    pt_check(part_verify_files(p, &err), &err, "verify");
    part_close(p);
}

static void expect_codec_refused(const char *type_name, const part_codec_chain *chain) {
    part_column_def def = {.name = "x", .type = pt_type(type_name), .codec = chain};
    part_schema schema = {.columns = &def, .column_count = 1};
    part_writer *w = NULL;
    mu_err err;
    mu_err_clear(&err);
    assert_int_equal(part_writer_open(&w, pt_path("tmp_bad_codec"), &schema, NULL, &err),
                     MU_EINVAL);
    assert_non_null(strstr(err.message, "column x"));
    assert_int_equal(pt_file_size(pt_path("tmp_bad_codec")), -1);
}

static void test_codecs_refused(void **state) {
    (void)state;
    part_codec_chain delta8 = {.step_count = 2,
                               .steps = {{PART_CODEC_DELTA, 8}, {PART_CODEC_LZ4, 0}}};
    part_codec_chain gorilla2 = {.step_count = 1, .steps = {{PART_CODEC_GORILLA, 2}}};
    part_codec_chain two_lz4 = {.step_count = 2,
                                .steps = {{PART_CODEC_LZ4, 0}, {PART_CODEC_LZ4, 0}}};
    part_codec_chain empty = {.step_count = 0};
    expect_codec_refused("UInt32", &delta8);        /* width 8 on 4-byte values */
    expect_codec_refused("String", &delta8);        /* transforms need fixed width */
    expect_codec_refused("Array(UInt64)", &delta8); /* as CODEC text would refuse */
    expect_codec_refused("LowCardinality(String)", &delta8);
    expect_codec_refused("Int16", &gorilla2);
    expect_codec_refused("UInt64", &two_lz4);
    expect_codec_refused("UInt64", &empty);
}

/* ------------------------------------------------------------------ */
/* Schema, append and finish errors                                    */
/* ------------------------------------------------------------------ */

static int open_with(const part_column_def *defs, uint32_t count, const uint32_t *keys,
                     uint32_t key_count, uint32_t granularity, mu_err *err) {
    part_schema schema = {.columns = defs, .column_count = count, .key_columns = keys,
                          .key_count = key_count, .index_granularity = granularity};
    part_writer *w = NULL;
    int rc = part_writer_open(&w, pt_path("tmp_schema"), &schema, NULL, err);
    part_writer_close(w);
    assert_int_equal(pt_file_size(pt_path("tmp_schema")), -1); /* nothing left behind */
    return rc;
}

static void test_schema_errors(void **state) {
    (void)state;
    const ty_type *u64 = pt_type("UInt64");
    mu_err err;
    part_column_def ok[2] = {{.name = "a", .type = u64}, {.name = "b", .type = u64}};
    part_column_def dup[2] = {{.name = "a", .type = u64}, {.name = "a", .type = u64}};
    part_column_def unnamed[1] = {{.name = "", .type = u64}};
    part_column_def untyped[1] = {{.name = "a", .type = NULL}};
    part_column_def array_minmax[1] = {{.name = "a", .type = pt_type("Array(UInt8)"),
                                        .minmax = true}};
    uint32_t key_bad = 2, key_twice[2] = {0, 0}, key_ok[2] = {1, 0};
    assert_int_equal(open_with(ok, 0, NULL, 0, 0, &err), MU_EINVAL);
    assert_int_equal(open_with(dup, 2, NULL, 0, 0, &err), MU_EINVAL);
    assert_non_null(strstr(err.message, "twice"));
    assert_int_equal(open_with(unnamed, 1, NULL, 0, 0, &err), MU_EINVAL);
    assert_int_equal(open_with(untyped, 1, NULL, 0, 0, &err), MU_EINVAL);
    assert_int_equal(open_with(array_minmax, 1, NULL, 0, 0, &err), MU_EINVAL);
    assert_int_equal(open_with(ok, 2, &key_bad, 1, 0, &err), MU_EINVAL);
    assert_int_equal(open_with(ok, 2, key_twice, 2, 0, &err), MU_EINVAL);
    assert_int_equal(open_with(ok, 2, key_ok, 2, PART_INDEX_GRANULARITY_MAX + 1, &err),
                     MU_EINVAL);
    assert_int_equal(open_with(ok, 2, key_ok, 2, 0, &err), 0);
}

static void test_existing_dir_refused(void **state) {
    (void)state;
    const char *dir = pt_path("tmp_exists");
    assert_int_equal(mkdir(dir, 0755), 0);
    FILE *f = fopen(pt_path("tmp_exists/keep"), "w");
    fclose(f);
    part_column_def def = {.name = "a", .type = pt_type("UInt8")};
    part_schema schema = {.columns = &def, .column_count = 1};
    part_writer *w = NULL;
    mu_err err;
    assert_int_equal(part_writer_open(&w, dir, &schema, NULL, &err), MU_EEXISTS);
    assert_int_equal(pt_file_size(pt_path("tmp_exists/keep")), 0); /* untouched */
}

static part_writer *open_two_keyed(const char *name, ty_column **a, ty_column **b) {
    *a = pt_column("LowCardinality(String)");
    *b = pt_column("UInt64");
    static part_column_def defs[2];
    static uint32_t keys[2] = {0, 1};
    defs[0] = (part_column_def){.name = "service", .type = (*a)->type};
    defs[1] = (part_column_def){.name = "ts", .type = (*b)->type};
    part_schema schema = {.columns = defs, .column_count = 2, .key_columns = keys,
                          .key_count = 2, .index_granularity = 4};
    part_writer *w = NULL;
    mu_err err;
    pt_check(part_writer_open(&w, pt_path(name), &schema, NULL, &err), &err, "open");
    return w;
}

static void append_row(ty_column *a, ty_column *b, const char *service, uint64_t ts) {
    mu_err err;
    pt_check(ty_column_append_bytes(a, service, strlen(service), &err), &err, "a");
    pt_check(ty_column_append_value(b, &ts, &err), &err, "b");
}

static void test_append_errors(void **state) {
    (void)state;
    ty_column *a, *b;
    part_writer *w = open_two_keyed("tmp_append", &a, &b);
    append_row(a, b, "api", 5);
    append_row(a, b, "api", 3); /* unsorted on the second key */
    append_row(a, b, "db", 1);
    mu_err err;
    const ty_column *cols[2] = {a, b}, *swapped[2] = {b, a}, *missing[2] = {a, NULL};
    assert_int_equal(part_writer_append(w, swapped, 0, 1, &err), MU_ETYPE);
    assert_non_null(strstr(err.message, "service"));
    assert_int_equal(part_writer_append(w, missing, 0, 1, &err), MU_ETYPE);
    assert_int_equal(part_writer_append(w, cols, 2, 2, &err), MU_EINVAL);
    assert_int_equal(part_writer_append(w, cols, 0, 2, &err), MU_EINVAL);
    assert_non_null(strstr(err.message, "not sorted"));
    /* Refused appends write nothing: the writer goes on. */
    pt_check(part_writer_append(w, cols, 0, 1, &err), &err, "append row 0");
    assert_int_equal(part_writer_append(w, cols, 1, 1, &err), MU_EINVAL); /* across calls */
    assert_non_null(strstr(err.message, "previous call"));
    pt_check(part_writer_append(w, cols, 2, 1, &err), &err, "append row 2");
    assert_int_equal(part_writer_append(w, cols, 0, 0, &err), 0);
    part_writer_stats stats;
    part_writer_get_stats(w, &stats);
    assert_int_equal(stats.row_count, 2);
    part_meta meta = pt_meta();
    pt_check(part_writer_finish(w, &meta, &err), &err, "finish");
    assert_int_equal(part_writer_append(w, cols, 2, 1, &err), MU_EINVAL); /* finished */
    part_writer_close(w);
    part *p = NULL;
    pt_check(part_open(&p, pt_path("tmp_append"), NULL, &err), &err, "open");
    assert_int_equal(part_get_info(p)->row_count, 2);
    part_close(p);
    ty_column_destroy(a);
    ty_column_destroy(b);
}

/* Opens the two-column writer with one row appended. */
static part_writer *open_one_row(const char *name, ty_column **a, ty_column **b) {
    part_writer *w = open_two_keyed(name, a, b);
    append_row(*a, *b, "api", 1);
    const ty_column *cols[2] = {*a, *b};
    mu_err err;
    pt_check(part_writer_append(w, cols, 0, 1, &err), &err, "append");
    return w;
}

static void test_finish_errors(void **state) {
    (void)state;
    ty_column *a, *b;
    part_writer *w = open_two_keyed("tmp_finish", &a, &b);
    mu_err err;
    part_meta meta = pt_meta();
    assert_int_equal(part_writer_finish(w, &meta, &err), MU_EINVAL); /* no rows */
    part_writer_close(w);
    assert_int_equal(pt_file_size(pt_path("tmp_finish")), -1); /* close removed it */
    ty_column_destroy(a);
    ty_column_destroy(b);
    static const char *bad_ids[] = {"", "a/b", "x y", "..", NULL};
    part_token long_token = {(const uint8_t *)"x", PART_TOKEN_BYTES_MAX + 1};
    part_meta bad[MU_ARRAY_LEN(bad_ids) + 3];
    for (size_t i = 0; i < MU_ARRAY_LEN(bad); i++) bad[i] = pt_meta();
    for (size_t i = 0; i < MU_ARRAY_LEN(bad_ids); i++) bad[i].partition_id = bad_ids[i];
    bad[MU_ARRAY_LEN(bad_ids)].lsn_min = 9;      /* past lsn_max */
    bad[MU_ARRAY_LEN(bad_ids) + 1].ttl_min = 300; /* past ttl_max */
    bad[MU_ARRAY_LEN(bad_ids) + 2].tokens = &long_token;
    bad[MU_ARRAY_LEN(bad_ids) + 2].token_count = 1;
    for (size_t i = 0; i < MU_ARRAY_LEN(bad); i++) {
        w = open_one_row("tmp_finish", &a, &b);
        assert_int_equal(part_writer_finish(w, &bad[i], &err), MU_EINVAL);
        const ty_column *cols[2] = {a, b};
        assert_int_equal(part_writer_append(w, cols, 0, 1, &err), MU_EINVAL); /* broken */
        if (i % 2 == 0) {
            part_writer_abort(w);
        } else {
            part_writer_close(w);
        }
        assert_int_equal(pt_file_size(pt_path("tmp_finish")), -1);
        ty_column_destroy(a);
        ty_column_destroy(b);
    }
}

static void test_abort_removes_everything(void **state) {
    (void)state;
    ty_column *a, *b;
    part_writer *w = open_two_keyed("tmp_abort", &a, &b);
    mu_err err;
    for (int i = 0; i < 10; i++) append_row(a, b, "api", (uint64_t)i);
    const ty_column *cols[2] = {a, b};
    pt_check(part_writer_append(w, cols, 0, 10, &err), &err, "append");
    part_meta meta = pt_meta();
    pt_check(part_writer_finish(w, &meta, &err), &err, "finish");
    assert_true(pt_file_size(pt_path("tmp_abort/manifest")) > 0);
    part_writer_abort(w); /* also after a successful finish */
    assert_int_equal(pt_file_size(pt_path("tmp_abort")), -1);
    part_writer_abort(NULL);
    part_writer_close(NULL);
    ty_column_destroy(a);
    ty_column_destroy(b);
}

/* ------------------------------------------------------------------ */
/* Keys, metadata, names                                               */
/* ------------------------------------------------------------------ */

static void test_keys_and_metadata(void **state) {
    (void)state;
    ty_column *a, *b;
    part_writer *w = open_two_keyed("202401_1_5_0", &a, &b);
    static const char *services[] = {"api", "api", "api", "db", "db", "web", "web", "web", "zz"};
    for (int i = 0; i < 9; i++) append_row(a, b, services[i], (uint64_t)(i * 10));
    mu_err err;
    const ty_column *cols[2] = {a, b};
    pt_check(part_writer_append(w, cols, 0, 5, &err), &err, "append");
    pt_check(part_writer_append(w, cols, 5, 4, &err), &err, "append");
    part_meta meta = pt_meta();
    pt_check(part_writer_finish(w, &meta, &err), &err, "finish");
    part_writer_stats stats;
    part_writer_get_stats(w, &stats);
    assert_int_equal(stats.row_count, 9);
    assert_int_equal(stats.granule_count, 3);
    assert_true(stats.written_bytes > 0 && stats.raw_bytes > 0);
    part_writer_close(w);
    part *p = NULL;
    pt_check(part_open(&p, pt_path("202401_1_5_0"), "default.t", &err), &err, "open");
    const part_info *info = part_get_info(p);
    assert_string_equal(info->name, "202401_1_5_0");
    assert_string_equal(info->partition_id, "202401");
    assert_string_equal(info->partition_value, "2024-01");
    assert_int_equal(info->lsn_min, 1);
    assert_int_equal(info->lsn_max, 5);
    assert_int_equal(info->level, 0);
    assert_true(info->has_ttl);
    assert_int_equal(info->ttl_min, 100);
    assert_int_equal(info->ttl_max, 200);
    assert_memory_equal(info->table_uuid, meta.table_uuid, 16);
    assert_int_equal(info->key_count, 2);
    assert_int_equal(info->token_count, 2);
    uint32_t bytes = 0;
    assert_memory_equal(part_token_get(p, 1, &bytes), "tok-2\0x", 7);
    assert_int_equal(bytes, 7);
    assert_int_equal(part_key_column(p, 0), 0);
    assert_int_equal(part_key_column(p, 1), 1);
    uint32_t index = 99;
    assert_true(part_column_find(p, "ts", &index));
    assert_int_equal(index, 1);
    assert_false(part_column_find(p, "nope", &index));
    /* First keys of granules 0..2 are rows 0, 4, 8. */
    const ty_column *first = part_first_keys(p, 0), *range = part_key_range(p, 1);
    assert_int_equal(ty_column_row_count(first), 3);
    size_t n;
    assert_memory_equal(ty_column_row_bytes(first, 1, &n), "db", 2);
    assert_memory_equal(ty_column_row_bytes(first, 2, &n), "zz", 2);
    assert_int_equal(mu_load_u64le(ty_column_values(part_first_keys(p, 1)) + 8), 40);
    assert_int_equal(mu_load_u64le(ty_column_values(range)), 0);
    assert_int_equal(mu_load_u64le(ty_column_values(range) + 8), 80);
    assert_true(info->bytes_on_disk > stats.written_bytes / 2);
    part_close(p);
    ty_column_destroy(a);
    ty_column_destroy(b);
}

static void test_column_file_names(void **state) {
    (void)state;
    char long_name[301];
    memset(long_name, 'n', 300);
    long_name[300] = 0;
    const char *names[] = {"plain_Name9", "with space", "a.b/c%d", "\xc3\xa9t\xc3\xa9", long_name};
    enum { N = MU_ARRAY_LEN(names) };
    part_column_def defs[N];
    ty_column *columns[N];
    for (int i = 0; i < N; i++) {
        columns[i] = pt_random_column("Nullable(String)", 50);
        defs[i] = (part_column_def){.name = names[i], .type = columns[i]->type, .minmax = true};
    }
    part_schema schema = {.columns = defs, .column_count = N, .index_granularity = 16};
    mu_err err;
    const char *dir = pt_path("tmp_names");
    pt_check(pt_write_part(dir, &schema, columns, 50, 50, &err), &err, "write");
    assert_true(pt_file_size(pt_path("tmp_names/plain_Name9.bin")) > 0);
    assert_true(pt_file_size(pt_path("tmp_names/with%20space.bin")) > 0);
    assert_true(pt_file_size(pt_path("tmp_names/a%2Eb%2Fc%25d.bin")) > 0);
    assert_true(pt_file_size(pt_path("tmp_names/%C3%A9t%C3%A9.bin")) > 0);
    assert_true(pt_file_size(pt_path("tmp_names/idx/minmax_with%20space.idx")) > 0);
    char stem[PART_FILE_STEM_BYTES_MAX + 1], path[600];
    part_column_file_stem(long_name, 300, stem);
    assert_int_equal(stem[0], '~');
    assert_int_equal(strlen(stem), 17);
    snprintf(path, sizeof(path), "tmp_names/%s.bin", stem);
    assert_true(pt_file_size(pt_path(path)) > 0);
    part *p = NULL;
    pt_check(part_open(&p, dir, NULL, &err), &err, "open");
    for (int i = 0; i < N; i++) {
        assert_string_equal(part_column_name(p, (uint32_t)i), names[i]);
        ty_column *got = pt_read_all(p, (uint32_t)i);
        pt_assert_rows_equal(columns[i], 0, got, 0, 50);
        ty_column_destroy(got);
        ty_column_destroy(columns[i]);
    }
    part_close(p);
}

/* ------------------------------------------------------------------ */
/* Parallel encode                                                     */
/* ------------------------------------------------------------------ */

#define PARALLEL_COLUMNS 7
#define PARALLEL_ROWS 100000u

static const char *parallel_types[PARALLEL_COLUMNS] = {
    "UInt64", "String", "Nullable(Int32)", "Float64", "Nullable(String)",
    "LowCardinality(String)", "Array(Nullable(String))"};
static const char *parallel_codecs[PARALLEL_COLUMNS] = {
    "Delta(8), ZSTD(1)", NULL, NULL, "Gorilla, LZ4", "LZ4HC(3)", NULL, NULL};

/* Rows sorted by column 0 (UInt64), the others random. */
static void parallel_columns(ty_column **columns) {
    mu_err err;
    columns[0] = pt_column("UInt64");
    for (uint64_t i = 0; i < PARALLEL_ROWS; i++) {
        uint64_t v = i / 3 * 7;
        pt_check(ty_column_append_value(columns[0], &v, &err), &err, "key");
    }
    for (int i = 1; i < PARALLEL_COLUMNS; i++)
        columns[i] = pt_random_column(parallel_types[i], PARALLEL_ROWS);
}

/* Opens a writer with MUSCLES_PART_WRITE_THREADS=threads (which open
 * reads), then puts the variable back as it was. */
static part_writer *open_with_threads(const char *dir, const part_schema *schema,
                                      const char *threads) {
    const char *name = "MUSCLES_PART_WRITE_THREADS";
    char *saved = getenv(name) != NULL ? strdup(getenv(name)) : NULL;
    assert_int_equal(setenv(name, threads, 1), 0);
    part_writer *w = NULL;
    mu_err err;
    int rc = part_writer_open(&w, dir, schema, NULL, &err);
    assert_int_equal(saved != NULL ? setenv(name, saved, 1) : unsetenv(name), 0);
    free(saved);
    pt_check(rc, &err, "open");
    return w;
}

/* Writes the rows in appends of the given sizes (adding up to
 * PARALLEL_ROWS) with `threads` encoding threads; returns the stats. */
static part_writer_stats parallel_write(const char *dir, const char *threads,
                                        uint32_t granularity, const uint32_t *appends,
                                        ty_column *const *columns) {
    part_column_def defs[PARALLEL_COLUMNS];
    part_codec_chain chains[PARALLEL_COLUMNS];
    char names[PARALLEL_COLUMNS][8];
    for (int i = 0; i < PARALLEL_COLUMNS; i++) {
        snprintf(names[i], sizeof(names[i]), "p%d", i);
        defs[i] = (part_column_def){.name = names[i], .type = columns[i]->type,
                                    .minmax = i <= 3};
        if (parallel_codecs[i] != NULL) {
            chains[i] = parse_chain(parallel_codecs[i], columns[i]->type);
            defs[i].codec = &chains[i];
        }
    }
    uint32_t key = 0;
    part_schema schema = {.columns = defs, .column_count = PARALLEL_COLUMNS, .key_columns = &key,
                          .key_count = 1, .index_granularity = granularity};
    part_writer *w = open_with_threads(dir, &schema, threads);
    mu_err err;
    uint32_t from = 0;
    for (int i = 0; from < PARALLEL_ROWS; from += appends[i++])
        pt_check(part_writer_append(w, (const ty_column *const *)columns, from, appends[i], &err),
                 &err, "append");
    assert_int_equal(from, PARALLEL_ROWS);
    part_meta meta = pt_meta();
    pt_check(part_writer_finish(w, &meta, &err), &err, "finish");
    part_writer_stats stats;
    part_writer_get_stats(w, &stats);
    part_writer_close(w);
    return stats;
}

static void assert_files_equal(const char *a, const char *b) {
    mu_buf x, y;
    mu_buf_init(&x, 0);
    mu_buf_init(&y, 0);
    mu_err err;
    pt_check(io_read_file(a, &x, &err), &err, a);
    pt_check(io_read_file(b, &y, &err), &err, b);
    if (x.length_bytes != y.length_bytes || memcmp(x.data, y.data, x.length_bytes) != 0)
        fail_msg("%s (%zu bytes) and %s (%zu bytes) differ", a, x.length_bytes, b,
                 y.length_bytes);
    mu_buf_deinit(&x);
    mu_buf_deinit(&y);
}

/* The same names in a and b, each file with the same bytes; directories
 * are compared one level down (idx/). Returns the files compared. */
static size_t assert_dirs_equal(const char *a, const char *b, bool subdirs) {
    io_dir_list la, lb;
    mu_err err;
    pt_check(io_list_dir(a, &la, &err), &err, a);
    pt_check(io_list_dir(b, &lb, &err), &err, b);
    assert_int_equal(la.count, lb.count);
    size_t files = 0;
    for (size_t i = 0; i < la.count; i++) {
        assert_string_equal(la.names[i], lb.names[i]);
        char pa[1024], pb[1024];
        snprintf(pa, sizeof(pa), "%s/%s", a, la.names[i]);
        snprintf(pb, sizeof(pb), "%s/%s", b, lb.names[i]);
        struct stat st;
        assert_int_equal(stat(pa, &st), 0);
        if (S_ISDIR(st.st_mode)) {
            assert_true(subdirs);
            files += assert_dirs_equal(pa, pb, false);
        } else {
            assert_files_equal(pa, pb);
            files++;
        }
    }
    io_dir_list_deinit(&la);
    io_dir_list_deinit(&lb);
    return files;
}

static void parallel_case(uint32_t granularity, const uint32_t *appends, const char *threads) {
    ty_column *columns[PARALLEL_COLUMNS];
    parallel_columns(columns);
    const char *serial = pt_path("tmp_serial"), *parallel = pt_path("tmp_parallel");
    part_writer_stats s = parallel_write(serial, "1", granularity, appends, columns);
    part_writer_stats p = parallel_write(parallel, threads, granularity, appends, columns);
    assert_int_equal(s.row_count, PARALLEL_ROWS);
    assert_int_equal(p.row_count, s.row_count);
    assert_int_equal(p.granule_count, s.granule_count);
    assert_int_equal(p.raw_bytes, s.raw_bytes);
    assert_int_equal(p.written_bytes, s.written_bytes);
    /* .bin per column, marks, manifest, minmax of columns 0..3 */
    assert_int_equal(assert_dirs_equal(serial, parallel, true), PARALLEL_COLUMNS + 2 + 4);
    part *read = NULL;
    mu_err err;
    pt_check(part_open(&read, parallel, NULL, &err), &err, "open");
    assert_int_equal(part_get_info(read)->granule_count,
                     (PARALLEL_ROWS + granularity - 1) / granularity);
    pt_check(part_verify_files(read, &err), &err, "verify");
    for (uint32_t i = 0; i < PARALLEL_COLUMNS; i++) {
        ty_column *got = pt_read_all(read, i);
        pt_assert_rows_equal(columns[i], 0, got, 0, PARALLEL_ROWS);
        ty_column_destroy(got);
        ty_column_destroy(columns[i]);
    }
    part_close(read);
    pt_remove_tree(serial);
    pt_remove_tree(parallel);
}

static void test_parallel_same_bytes(void **state) {
    (void)state;
    /* A partial granule left by the first append, filled by the second
     * (which also leaves one), then full granules again; the last ends
     * with a partial granule. */
    static const uint32_t uneven[] = {40500, 700, 58800};
    parallel_case(1024, uneven, "4");
    /* Hundreds of granules in one append: many waves reuse the slots. */
    static const uint32_t big[] = {3, 99000, 997};
    parallel_case(256, big, "3");
    /* Tasks of 4 granules, then of 1 (granules of 8192 rows). */
    static const uint32_t whole[] = {PARALLEL_ROWS};
    parallel_case(2048, whole, "2");
    parallel_case(8192, whole, "5");
}

/* A failure on a worker or while writing breaks the writer; abort
 * removes the directory (and, under ASan, nothing leaks). */
static void parallel_failure(const char *spec, int expected) {
    ty_column *columns[PARALLEL_COLUMNS];
    parallel_columns(columns);
    part_column_def defs[PARALLEL_COLUMNS];
    char names[PARALLEL_COLUMNS][8];
    for (int i = 0; i < PARALLEL_COLUMNS; i++) {
        snprintf(names[i], sizeof(names[i]), "f%d", i);
        defs[i] = (part_column_def){.name = names[i], .type = columns[i]->type, .minmax = true};
    }
    defs[PARALLEL_COLUMNS - 1].minmax = false; /* no minmax on Array */
    part_schema schema = {.columns = defs, .column_count = PARALLEL_COLUMNS,
                          .index_granularity = 512};
    const char *dir = pt_path("tmp_fail");
    part_writer *w = open_with_threads(dir, &schema, "4");
    mu_err err;
    pt_check(mu_failpoints_configure(spec, &err), &err, spec);
    const ty_column *const *input = (const ty_column *const *)columns;
    int rc = part_writer_append(w, input, 0, PARALLEL_ROWS, &err);
    uint64_t hits = mu_failpoint_hits(spec[5] == 'e' ? "part.encode" : "part.write");
    mu_failpoints_configure("", NULL);
    if (rc != expected)
        fail_msg("%s: %d after %llu hits: %s", spec, rc, (unsigned long long)hits, err.message);
    assert_int_equal(part_writer_append(w, input, 0, 1, &err), MU_EINVAL); /* broken */
    part_writer_abort(w);
    assert_int_equal(pt_file_size(dir), -1);
    for (int i = 0; i < PARALLEL_COLUMNS; i++) ty_column_destroy(columns[i]);
}

static void test_parallel_failures(void **state) {
    (void)state;
    if (!mu_failpoints_compiled_in()) skip();
    parallel_failure("part.encode=error", MU_EIO);       /* every task fails */
    parallel_failure("part.encode=error@300x1", MU_EIO); /* one, in a later wave */
    parallel_failure("part.encode=error:ENOSPC@20", MU_ENOSPC);
    parallel_failure("part.write=error:ENOSPC@3", MU_ENOSPC); /* placing a wave */
    parallel_failure("part.write=error@12", MU_EWRITE);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip_every_type_in_chunks, pt_setup,
                                        pt_teardown),
        cmocka_unit_test_setup_teardown(test_round_trip_every_type_whole, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_round_trip_tiny_granules, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_round_trip_default_granularity, pt_setup,
                                        pt_teardown),
        cmocka_unit_test_setup_teardown(test_granularity_edges, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_codecs_per_column, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_codecs_refused, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_schema_errors, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_existing_dir_refused, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_append_errors, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_finish_errors, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_abort_removes_everything, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_keys_and_metadata, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_column_file_names, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_parallel_same_bytes, pt_setup, pt_teardown),
        cmocka_unit_test_setup_teardown(test_parallel_failures, pt_setup, pt_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
