/* catalog_test.c: goal — prove that the catalog keeps databases and tables
 * exactly as defined across create/drop/rename/alter/purge and restarts,
 * refuses every bad definition without changing anything, never loads a
 * damaged catalog.json (flips, truncation, versions, unknown or missing
 * fields, inconsistent content: MU_ECORRUPT naming the file), survives
 * crashes and I/O faults at each step of its atomic replace, and gives
 * readers snapshots that stay valid while other threads mutate.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "storage/catalog.h"

static char dir[256];
static char file_path[320];
static char tmp_path[320];

static int dir_setup(void **state) {
    (void)state;
    const char *base = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
    snprintf(dir, sizeof(dir), "%s/catalog_test.XXXXXX", base);
    if (mkdtemp(dir) == NULL) return -1;
    snprintf(file_path, sizeof(file_path), "%s/%s", dir, CATALOG_FILE_NAME);
    snprintf(tmp_path, sizeof(tmp_path), "%s/%s", dir, CATALOG_TMP_FILE_NAME);
    mu_failpoints_configure("", NULL);
    return 0;
}

static int dir_teardown(void **state) {
    (void)state;
    mu_failpoints_configure("", NULL);
    char command[400];
    snprintf(command, sizeof(command), "rm -rf '%s'", dir);
    return system(command) == 0 ? 0 : -1;
}

static void skip_unless_failpoints(void) {
    if (!mu_failpoints_compiled_in()) skip();
}

static catalog *open_ok(void) {
    catalog *cat = NULL;
    mu_err err;
    int rc = catalog_open(&cat, dir, &err);
    if (rc != 0) fail_msg("catalog_open: %s", err.message);
    return cat;
}

static bool file_exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

/* Whole file into a malloc'd buffer (NUL-terminated); *size_out its size. */
static char *read_whole(const char *path, size_t *size_out) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)size + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)size, f), (size_t)size);
    data[size] = '\0';
    fclose(f);
    *size_out = (size_t)size;
    return data;
}

static void write_whole(const char *path, const void *data, size_t size) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (size > 0) assert_int_equal(fwrite(data, 1, size, f), size);
    fclose(f);
}

static uint64_t generation_of(catalog *cat) {
    catalog_snapshot *s = catalog_snapshot_acquire(cat);
    uint64_t g = catalog_snapshot_generation(s);
    catalog_snapshot_release(s);
    return g;
}

static bool has_table(catalog *cat, const char *database, const char *name) {
    catalog_snapshot *s = catalog_snapshot_acquire(cat);
    bool found = catalog_snapshot_find_table(s, database, name) != NULL;
    catalog_snapshot_release(s);
    return found;
}

/* A table definition exercising every field. */
typedef struct def_store {
    catalog_column columns[4];
    const char *order_by[2];
    const char *primary_key[1];
    catalog_setting settings[2];
    catalog_index indexes[1];
    catalog_table_def def;
} def_store;

static catalog_table_def *sample_def(def_store *d, const char *database, const char *name) {
    memset(d, 0, sizeof(*d));
    d->columns[0] = (catalog_column){.name = "ts", .type = "DateTime64(3)",
                                     .codec = "Delta(4), ZSTD(1)"};
    d->columns[1] = (catalog_column){.name = "host", .type = "LowCardinality(String)",
                                     .comment = "the host"};
    d->columns[2] = (catalog_column){.name = "value", .type = "DOUBLE",
                                     .default_kind = CATALOG_DEFAULT_DEFAULT,
                                     .default_expression = "0"};
    d->columns[3] = (catalog_column){.name = "day", .type = "Date",
                                     .default_kind = CATALOG_DEFAULT_MATERIALIZED,
                                     .default_expression = "toDate(ts)"};
    d->order_by[0] = "host";
    d->order_by[1] = "ts";
    d->primary_key[0] = "host";
    d->settings[0] = (catalog_setting){.name = "index_granularity", .value = "8192"};
    d->settings[1] = (catalog_setting){.name = "merge_with_ttl_timeout", .value = "3600"};
    d->indexes[0] = (catalog_index){.name = "idx_value", .expression = "value",
                                    .type = "minmax", .granularity = 4};
    catalog_table_def *def = &d->def;
    def->database = database;
    def->name = name;
    def->engine = CATALOG_ENGINE_REPLACING_MERGE_TREE;
    def->engine_params = "ts";
    def->columns = d->columns;
    def->column_count = 4;
    def->order_by = d->order_by;
    def->order_by_count = 2;
    def->primary_key = d->primary_key;
    def->primary_key_count = 1;
    def->partition_by = "toYYYYMM(ts)";
    def->ttl = "ts + INTERVAL 30 DAY";
    def->settings = d->settings;
    def->setting_count = 2;
    def->indexes = d->indexes;
    def->index_count = 1;
    def->comment = "sample table";
    return def;
}

/* The smallest valid table: one UInt64 column, MergeTree, ORDER BY tuple(). */
static catalog_table_def *small_def(def_store *d, const char *database, const char *name) {
    memset(d, 0, sizeof(*d));
    d->columns[0] = (catalog_column){.name = "x", .type = "UInt64"};
    d->def.database = database;
    d->def.name = name;
    d->def.engine = CATALOG_ENGINE_MERGE_TREE;
    d->def.columns = d->columns;
    d->def.column_count = 1;
    return &d->def;
}

static void create_small(catalog *cat, const char *database, const char *name,
                         catalog_uuid *uuid_out) {
    def_store d;
    mu_err err;
    int rc = catalog_create_table(cat, small_def(&d, database, name), false, uuid_out, &err);
    if (rc != 0) fail_msg("create %s.%s: %s", database, name, err.message);
}

static void create_database(catalog *cat, const char *name) {
    catalog_database_def def = {.name = name, .comment = "made by the test"};
    mu_err err;
    int rc = catalog_create_database(cat, &def, false, &err);
    if (rc != 0) fail_msg("create database %s: %s", name, err.message);
}

/* Checks every field of a table made from sample_def. */
static void check_sample(const catalog_table *t, const char *database, const char *name) {
    assert_string_equal(t->def.database, database);
    assert_string_equal(t->def.name, name);
    assert_int_equal(t->def.engine, CATALOG_ENGINE_REPLACING_MERGE_TREE);
    assert_string_equal(t->def.engine_params, "ts");
    assert_int_equal(t->def.column_count, 4);
    assert_string_equal(t->def.columns[0].type, "DateTime64(3)");
    assert_string_equal(t->def.columns[0].codec, "Delta(4), ZSTD(1)");
    assert_string_equal(t->def.columns[0].comment, "");
    assert_int_equal(t->def.columns[0].default_kind, CATALOG_DEFAULT_NONE);
    assert_string_equal(t->def.columns[0].default_expression, "");
    assert_string_equal(t->def.columns[1].type, "LowCardinality(String)");
    assert_string_equal(t->def.columns[1].comment, "the host");
    assert_string_equal(t->def.columns[2].type, "Float64"); /* canonical form of DOUBLE */
    assert_int_equal(t->def.columns[2].default_kind, CATALOG_DEFAULT_DEFAULT);
    assert_string_equal(t->def.columns[2].default_expression, "0");
    assert_int_equal(t->def.columns[3].default_kind, CATALOG_DEFAULT_MATERIALIZED);
    assert_string_equal(t->def.columns[3].default_expression, "toDate(ts)");
    assert_string_equal(t->column_names[3], "day");
    assert_int_equal(t->column_types[2]->kind, TY_FLOAT64);
    assert_int_equal(t->column_types[1]->kind, TY_LOW_CARDINALITY);
    assert_int_equal(t->def.order_by_count, 2);
    assert_string_equal(t->def.order_by[0], "host");
    assert_string_equal(t->def.order_by[1], "ts");
    assert_int_equal(t->def.primary_key_count, 1);
    assert_string_equal(t->def.primary_key[0], "host");
    assert_string_equal(t->def.partition_by, "toYYYYMM(ts)");
    assert_string_equal(t->def.ttl, "ts + INTERVAL 30 DAY");
    assert_int_equal(t->def.setting_count, 2);
    assert_string_equal(t->def.settings[0].name, "index_granularity");
    assert_string_equal(t->def.settings[1].value, "3600");
    assert_int_equal(t->def.index_count, 1);
    assert_string_equal(t->def.indexes[0].type, "minmax");
    assert_int_equal(t->def.indexes[0].granularity, 4);
    assert_string_equal(t->def.comment, "sample table");
    assert_false(t->dropped);
    assert_int_equal(t->dropped_at_ns, 0);
    assert_true(t->created_at_ns > 0);
}

/* ------------------------------------------------------------------ */
/* Opening, databases                                                  */
/* ------------------------------------------------------------------ */

static void test_open_creates_default(void **state) {
    (void)state;
    char nested[400];
    snprintf(nested, sizeof(nested), "%s/a/b/", dir);
    catalog *cat = NULL;
    mu_err err;
    assert_int_equal(catalog_open(&cat, nested, &err), 0);
    char expected[420];
    snprintf(expected, sizeof(expected), "%s/a/b/catalog.json", dir);
    assert_string_equal(catalog_file_path(cat), expected);
    assert_true(file_exists(expected));
    catalog_snapshot *s = catalog_snapshot_acquire(cat);
    assert_int_equal(catalog_snapshot_generation(s), 1);
    assert_int_equal(catalog_snapshot_database_count(s), 1);
    const catalog_database *d = catalog_snapshot_database_at(s, 0);
    assert_string_equal(d->name, "default");
    assert_string_equal(d->engine, "Atomic");
    assert_false(catalog_uuid_is_nil(&d->uuid));
    assert_null(catalog_snapshot_find_database(s, "system"));
    assert_int_equal(catalog_snapshot_table_count(s), 0);
    assert_int_equal(catalog_snapshot_dropped_count(s), 0);
    catalog_uuid uuid = d->uuid;
    catalog_snapshot_release(s);
    catalog_close(cat);
    /* Reopening keeps the database's UUID: it was persisted at creation. */
    assert_int_equal(catalog_open(&cat, nested, &err), 0);
    s = catalog_snapshot_acquire(cat);
    assert_true(catalog_uuid_equal(&catalog_snapshot_find_database(s, "default")->uuid, &uuid));
    catalog_snapshot_release(s);
    catalog_close(cat);
}

static void test_open_bad_dir(void **state) {
    (void)state;
    catalog *cat = NULL;
    mu_err err;
    assert_int_equal(catalog_open(&cat, "", &err), MU_EINVAL);
    assert_null(cat);
    /* A file where the directory should be. */
    char blocker[400];
    snprintf(blocker, sizeof(blocker), "%s/file", dir);
    write_whole(blocker, "x", 1);
    assert_int_equal(catalog_open(&cat, blocker, &err), MU_EEXISTS);
    /* catalog.json is a directory: reading it fails, nothing is replaced. */
    char sub[400];
    snprintf(sub, sizeof(sub), "%s/sub", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    char inner[420];
    snprintf(inner, sizeof(inner), "%s/catalog.json", sub);
    assert_int_equal(mkdir(inner, 0755), 0);
    assert_int_not_equal(catalog_open(&cat, sub, &err), 0);
    assert_null(cat);
    assert_true(file_exists(inner));
}

static void test_databases(void **state) {
    (void)state;
    catalog *cat = open_ok();
    mu_err err;
    create_database(cat, "logs");
    catalog_database_def def = {.name = "logs"};
    assert_int_equal(catalog_create_database(cat, &def, false, &err), MU_EDATABASE_EXISTS);
    assert_non_null(strstr(err.message, "logs"));
    assert_int_equal(mu_code_ch_number(MU_EDATABASE_EXISTS), 82);
    assert_int_equal(catalog_create_database(cat, &def, true, &err), 0);
    def.engine = "Atomic";
    def.name = "metrics";
    assert_int_equal(catalog_create_database(cat, &def, false, &err), 0);
    catalog_snapshot *s = catalog_snapshot_acquire(cat);
    assert_int_equal(catalog_snapshot_database_count(s), 3);
    /* Sorted by name. */
    assert_string_equal(catalog_snapshot_database_at(s, 0)->name, "default");
    assert_string_equal(catalog_snapshot_database_at(s, 1)->name, "logs");
    assert_string_equal(catalog_snapshot_database_at(s, 2)->name, "metrics");
    assert_string_equal(catalog_snapshot_find_database(s, "logs")->comment, "made by the test");
    assert_false(catalog_uuid_equal(&catalog_snapshot_database_at(s, 1)->uuid,
                                    &catalog_snapshot_database_at(s, 2)->uuid));
    catalog_snapshot_release(s);
    assert_int_equal(catalog_drop_database(cat, "metrics", false, false, &err), 0);
    assert_int_equal(catalog_drop_database(cat, "metrics", false, false, &err),
                     MU_EUNKNOWN_DATABASE);
    assert_non_null(strstr(err.message, "metrics"));
    assert_int_equal(catalog_drop_database(cat, "metrics", true, false, &err), 0);
    /* "default" is an ordinary database: it may be dropped and recreated. */
    assert_int_equal(catalog_drop_database(cat, "default", false, false, &err), 0);
    create_database(cat, "default");
    catalog_close(cat);
    cat = open_ok();
    s = catalog_snapshot_acquire(cat);
    assert_int_equal(catalog_snapshot_database_count(s), 2);
    assert_non_null(catalog_snapshot_find_database(s, "logs"));
    assert_null(catalog_snapshot_find_database(s, "metrics"));
    catalog_snapshot_release(s);
    catalog_close(cat);
}

static void test_database_refusals(void **state) {
    (void)state;
    catalog *cat = open_ok();
    uint64_t generation = generation_of(cat);
    mu_err err;
    char long_name[300];
    memset(long_name, 'a', 256);
    long_name[256] = '\0';
    const char *bad[] = {"", "a/b", "/", long_name, "bad\xff", "\xc0\xaf", "\xed\xa0\x80"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        catalog_database_def def = {.name = bad[i]};
        assert_int_equal(catalog_create_database(cat, &def, false, &err), MU_EINVAL);
    }
    catalog_database_def none = {.name = NULL};
    assert_int_equal(catalog_create_database(cat, &none, false, &err), MU_EINVAL);
    /* 255 bytes is still a name. */
    long_name[255] = '\0';
    catalog_database_def longest = {.name = long_name};
    assert_int_equal(catalog_create_database(cat, &longest, false, &err), 0);
    assert_int_equal(catalog_drop_database(cat, long_name, false, false, &err), 0);
    generation += 2;
    const char *reserved[] = {"system", "information_schema", "INFORMATION_SCHEMA"};
    for (size_t i = 0; i < 3; i++) {
        catalog_database_def def = {.name = reserved[i]};
        assert_int_equal(catalog_create_database(cat, &def, true, &err), MU_EINVAL);
        assert_non_null(strstr(err.message, "reserved"));
        assert_int_equal(catalog_drop_database(cat, reserved[i], true, true, &err), MU_EINVAL);
    }
    catalog_database_def other = {.name = "lazy", .engine = "Lazy"};
    assert_int_equal(catalog_create_database(cat, &other, false, &err), MU_ENOT_SUPPORTED);
    char bad_comment[] = {'o', 'k', (char)0xfe, 0};
    catalog_database_def commented = {.name = "c", .comment = bad_comment};
    assert_int_equal(catalog_create_database(cat, &commented, false, &err), MU_EINVAL);
    assert_int_equal(generation_of(cat), generation);
    catalog_close(cat);
}

/* ------------------------------------------------------------------ */
/* Tables                                                              */
/* ------------------------------------------------------------------ */

static void test_create_table_round_trip(void **state) {
    (void)state;
    catalog *cat = open_ok();
    def_store d;
    mu_err err;
    catalog_uuid uuid;
    assert_int_equal(catalog_create_table(cat, sample_def(&d, "default", "events"), false, &uuid,
                                          &err), 0);
    assert_false(catalog_uuid_is_nil(&uuid));
    assert_int_equal(uuid.bytes[6] >> 4, 4);      /* version 4 */
    assert_int_equal(uuid.bytes[8] & 0xc0, 0x80); /* RFC 4122 variant */
    catalog_snapshot *s = catalog_snapshot_acquire(cat);
    const catalog_table *t = catalog_snapshot_find_table(s, "default", "events");
    assert_non_null(t);
    check_sample(t, "default", "events");
    assert_true(catalog_uuid_equal(&t->uuid, &uuid));
    assert_int_equal(t->metadata_version, 1);
    assert_ptr_equal(catalog_snapshot_find_table_by_uuid(s, &uuid), t);
    const catalog_table *looked = NULL;
    assert_int_equal(catalog_snapshot_lookup_table(s, "default", "events", &looked, &err), 0);
    assert_ptr_equal(looked, t);
    assert_int_equal(catalog_snapshot_lookup_table(s, "default", "nope", &looked, &err),
                     MU_EUNKNOWN_TABLE);
    assert_non_null(strstr(err.message, "default.nope"));
    assert_int_equal(catalog_snapshot_lookup_table(s, "nodb", "events", &looked, &err),
                     MU_EUNKNOWN_DATABASE);
    catalog_snapshot_release(s);
    catalog_close(cat);
    /* The same after a restart. */
    cat = open_ok();
    s = catalog_snapshot_acquire(cat);
    t = catalog_snapshot_find_table(s, "default", "events");
    assert_non_null(t);
    check_sample(t, "default", "events");
    assert_true(catalog_uuid_equal(&t->uuid, &uuid));
    catalog_snapshot_release(s);
    catalog_close(cat);
}

static void test_tables_of_and_order(void **state) {
    (void)state;
    catalog *cat = open_ok();
    create_database(cat, "b");
    create_database(cat, "a");
    create_small(cat, "b", "z", NULL);
    create_small(cat, "default", "m", NULL);
    create_small(cat, "b", "c", NULL);
    create_small(cat, "a", "q", NULL);
    catalog_snapshot *s = catalog_snapshot_acquire(cat);
    assert_int_equal(catalog_snapshot_table_count(s), 4);
    const char *expected[][2] = {{"a", "q"}, {"b", "c"}, {"b", "z"}, {"default", "m"}};
    for (size_t i = 0; i < 4; i++) {
        assert_string_equal(catalog_snapshot_table_at(s, i)->def.database, expected[i][0]);
        assert_string_equal(catalog_snapshot_table_at(s, i)->def.name, expected[i][1]);
    }
    size_t first = 99;
    assert_int_equal(catalog_snapshot_tables_of(s, "b", &first), 2);
    assert_int_equal(first, 1);
    assert_int_equal(catalog_snapshot_tables_of(s, "default", &first), 1);
    assert_int_equal(first, 3);
    assert_int_equal(catalog_snapshot_tables_of(s, "none", &first), 0);
    assert_int_equal(catalog_snapshot_tables_of(s, "", &first), 0);
    catalog_snapshot_release(s);
    catalog_close(cat);
}

static void test_create_table_exists(void **state) {
    (void)state;
    catalog *cat = open_ok();
    catalog_uuid first;
    create_small(cat, "default", "t", &first);
    uint64_t generation = generation_of(cat);
    def_store d;
    mu_err err;
    catalog_uuid again;
    assert_int_equal(catalog_create_table(cat, small_def(&d, "default", "t"), false, &again,
                                          &err), MU_EEXISTS);
    assert_non_null(strstr(err.message, "default.t"));
    assert_int_equal(catalog_create_table(cat, small_def(&d, "default", "t"), true, &again,
                                          &err), 0);
    assert_true(catalog_uuid_equal(&first, &again));
    assert_int_equal(catalog_create_table(cat, small_def(&d, "nodb", "t"), true, &again, &err),
                     MU_EUNKNOWN_DATABASE);
    assert_int_equal(catalog_create_table(cat, small_def(&d, "system", "t"), false, NULL, &err),
                     MU_EINVAL);
    assert_non_null(strstr(err.message, "reserved"));
    assert_int_equal(generation_of(cat), generation);
    catalog_close(cat);
}

/* One way to break a definition, applied to a fresh sample_def. */
typedef struct bad_case {
    const char *what;
    int code;
    const char *message; /* expected in err.message */
    void (*edit)(def_store *d);
} bad_case;

static void edit_no_columns(def_store *d) { d->def.column_count = 0; }
static void edit_duplicate_column(def_store *d) { d->columns[3].name = "host"; }
static void edit_empty_column(def_store *d) { d->columns[1].name = ""; }
static void edit_bad_type(def_store *d) { d->columns[1].type = "Strin"; }
static void edit_syntax_type(def_store *d) { d->columns[1].type = "Array(UInt8"; }
static void edit_nested_nullable(def_store *d) { d->columns[1].type = "Nullable(Array(UInt8))"; }
static void edit_empty_type(def_store *d) { d->columns[0].type = ""; }
static void edit_all_alias(def_store *d) {
    for (int i = 0; i < 4; i++) {
        d->columns[i].default_kind = CATALOG_DEFAULT_ALIAS;
        d->columns[i].default_expression = "1";
    }
}
static void edit_kind_without_expr(def_store *d) {
    d->columns[0].default_kind = CATALOG_DEFAULT_ALIAS;
}
static void edit_expr_without_kind(def_store *d) { d->columns[0].default_expression = "now()"; }
static void edit_bad_kind(def_store *d) { d->columns[0].default_kind = (catalog_default_kind)9; }
static void edit_pk_not_prefix(def_store *d) { d->primary_key[0] = "ts"; }
static void edit_pk_longer(def_store *d) {
    d->def.primary_key = d->order_by;
    d->def.primary_key_count = 2;
    d->def.order_by_count = 1;
}
static void edit_empty_order(def_store *d) { d->order_by[1] = ""; }
static void edit_engine_params(def_store *d) { d->def.engine = CATALOG_ENGINE_MERGE_TREE; }
static void edit_bad_engine(def_store *d) { d->def.engine = CATALOG_ENGINE_COUNT; }
static void edit_duplicate_setting(def_store *d) { d->settings[1].name = "index_granularity"; }
static void edit_empty_setting_value(def_store *d) { d->settings[0].value = ""; }
static void edit_index_granularity(def_store *d) { d->indexes[0].granularity = 0; }
static void edit_index_type(def_store *d) { d->indexes[0].type = ""; }
static void edit_table_slash(def_store *d) { d->def.name = "a/b"; }
static void edit_table_empty(def_store *d) { d->def.name = ""; }
static void edit_comment_utf8(def_store *d) { d->def.comment = "\xe2\x82"; }
static void edit_codec_utf8(def_store *d) { d->columns[2].codec = "\x80"; }

static const bad_case bad_cases[] = {
    {"no columns", MU_EINVAL, "no columns", edit_no_columns},
    {"duplicate column", MU_EDUPLICATE_COLUMN, "duplicate column name \"host\"", edit_duplicate_column},
    {"empty column name", MU_EINVAL, "empty column name", edit_empty_column},
    {"unknown type", MU_EUNKNOWN_TYPE, "column host", edit_bad_type},
    {"malformed type", MU_ESYNTAX, "column host", edit_syntax_type},
    {"bad nesting", MU_ETYPE, "column host", edit_nested_nullable},
    {"empty type", MU_EINVAL, "empty type", edit_empty_type},
    {"only ALIAS", MU_EINVAL, "only ALIAS", edit_all_alias},
    {"kind without expression", MU_EINVAL, "default expression is empty",
     edit_kind_without_expr},
    {"expression without kind", MU_EINVAL, "without a default kind", edit_expr_without_kind},
    {"bad kind", MU_EINVAL, "bad default kind", edit_bad_kind},
    {"primary key not a prefix", MU_EINVAL, "prefix", edit_pk_not_prefix},
    {"primary key longer", MU_EINVAL, "prefix", edit_pk_longer},
    {"empty ORDER BY element", MU_EINVAL, "ORDER BY element 2", edit_empty_order},
    {"params on MergeTree", MU_EINVAL, "takes no parameters", edit_engine_params},
    {"bad engine", MU_EINVAL, "bad table engine", edit_bad_engine},
    {"duplicate setting", MU_EINVAL, "duplicate setting", edit_duplicate_setting},
    {"empty setting value", MU_EINVAL, "setting index_granularity", edit_empty_setting_value},
    {"index granularity 0", MU_EINVAL, "GRANULARITY", edit_index_granularity},
    {"empty index type", MU_EINVAL, "index idx_value", edit_index_type},
    {"table name with /", MU_EINVAL, "contains '/'", edit_table_slash},
    {"empty table name", MU_EINVAL, "empty table name", edit_table_empty},
    {"comment not UTF-8", MU_EINVAL, "UTF-8", edit_comment_utf8},
    {"codec not UTF-8", MU_EINVAL, "UTF-8", edit_codec_utf8},
};

static void test_create_table_refusals(void **state) {
    (void)state;
    catalog *cat = open_ok();
    uint64_t generation = generation_of(cat);
    for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
        def_store d;
        sample_def(&d, "default", "t");
        bad_cases[i].edit(&d);
        mu_err err;
        mu_err_clear(&err);
        int rc = catalog_create_table(cat, &d.def, false, NULL, &err);
        if (rc != bad_cases[i].code || strstr(err.message, bad_cases[i].message) == NULL) {
            fail_msg("case \"%s\": rc %d (%s), message \"%s\"", bad_cases[i].what, rc,
                     mu_code_name(rc), err.message);
        }
    }
    assert_int_equal(generation_of(cat), generation);
    assert_false(has_table(cat, "default", "t"));
    /* The unchanged sample is accepted. */
    def_store d;
    mu_err err;
    assert_int_equal(catalog_create_table(cat, sample_def(&d, "default", "t"), false, NULL, &err),
                     0);
    catalog_close(cat);
}

static void test_drop_and_purge(void **state) {
    (void)state;
    catalog *cat = open_ok();
    catalog_uuid uuid;
    create_small(cat, "default", "t", &uuid);
    mu_err err;
    catalog_uuid dropped;
    assert_int_equal(catalog_drop_table(cat, "default", "t", false, &dropped, &err), 0);
    assert_true(catalog_uuid_equal(&uuid, &dropped));
    assert_int_equal(catalog_drop_table(cat, "default", "t", false, &dropped, &err),
                     MU_EUNKNOWN_TABLE);
    assert_int_equal(catalog_drop_table(cat, "default", "t", true, &dropped, &err), 0);
    assert_true(catalog_uuid_is_nil(&dropped));
    assert_int_equal(catalog_drop_table(cat, "nodb", "t", false, NULL, &err),
                     MU_EUNKNOWN_DATABASE);
    /* The name is free again; the dropped table keeps its UUID and data. */
    catalog_uuid second;
    create_small(cat, "default", "t", &second);
    assert_false(catalog_uuid_equal(&uuid, &second));
    catalog_snapshot *s = catalog_snapshot_acquire(cat);
    assert_int_equal(catalog_snapshot_dropped_count(s), 1);
    const catalog_table *t = catalog_snapshot_dropped_at(s, 0);
    assert_true(t->dropped);
    assert_true(t->dropped_at_ns > 0);
    assert_true(catalog_uuid_equal(&t->uuid, &uuid));
    assert_ptr_equal(catalog_snapshot_find_table_by_uuid(s, &uuid), t);
    assert_true(catalog_uuid_equal(&catalog_snapshot_find_table(s, "default", "t")->uuid,
                                   &second));
    catalog_snapshot_release(s);
    catalog_close(cat);
    /* Dropped entries survive a restart so startup can finish the purge. */
    cat = open_ok();
    s = catalog_snapshot_acquire(cat);
    assert_int_equal(catalog_snapshot_dropped_count(s), 1);
    assert_true(catalog_snapshot_dropped_at(s, 0)->dropped);
    catalog_snapshot_release(s);
    assert_int_equal(catalog_purge_table(cat, &second, &err), MU_EINVAL);
    assert_non_null(strstr(err.message, "not dropped"));
    catalog_uuid unknown;
    assert_int_equal(catalog_uuid_generate(&unknown, &err), 0);
    assert_int_equal(catalog_purge_table(cat, &unknown, &err), MU_EUNKNOWN_TABLE);
    assert_int_equal(catalog_purge_table(cat, &uuid, &err), 0);
    assert_int_equal(catalog_purge_table(cat, &uuid, &err), MU_EUNKNOWN_TABLE);
    s = catalog_snapshot_acquire(cat);
    assert_int_equal(catalog_snapshot_dropped_count(s), 0);
    assert_null(catalog_snapshot_find_table_by_uuid(s, &uuid));
    catalog_snapshot_release(s);
    catalog_close(cat);
    cat = open_ok();
    s = catalog_snapshot_acquire(cat);
    assert_int_equal(catalog_snapshot_dropped_count(s), 0);
    assert_int_equal(catalog_snapshot_table_count(s), 1);
    catalog_snapshot_release(s);
    catalog_close(cat);
}

static void test_drop_database_cascade(void **state) {
    (void)state;
    catalog *cat = open_ok();
    create_database(cat, "logs");
    catalog_uuid a;
    catalog_uuid b;
    create_small(cat, "logs", "a", &a);
    create_small(cat, "logs", "b", &b);
    create_small(cat, "default", "keep", NULL);
    uint64_t generation = generation_of(cat);
    mu_err err;
    assert_int_equal(catalog_drop_database(cat, "logs", false, false, &err), MU_EINVAL);
    assert_non_null(strstr(err.message, "not empty"));
    assert_int_equal(generation_of(cat), generation);
    assert_int_equal(catalog_drop_database(cat, "logs", false, true, &err), 0);
    catalog_snapshot *s = catalog_snapshot_acquire(cat);
    assert_null(catalog_snapshot_find_database(s, "logs"));
    assert_int_equal(catalog_snapshot_table_count(s), 1);
    assert_int_equal(catalog_snapshot_dropped_count(s), 2);
    assert_true(catalog_snapshot_find_table_by_uuid(s, &a)->dropped);
    assert_string_equal(catalog_snapshot_find_table_by_uuid(s, &b)->def.database, "logs");
    catalog_snapshot_release(s);
    catalog_close(cat);
    /* A dropped table may name a database that no longer exists. */
    cat = open_ok();
    s = catalog_snapshot_acquire(cat);
    assert_int_equal(catalog_snapshot_dropped_count(s), 2);
    catalog_snapshot_release(s);
    /* Recreating the database does not bring the tables back. */
    create_database(cat, "logs");
    assert_false(has_table(cat, "logs", "a"));
    catalog_close(cat);
}

static void test_rename(void **state) {
    (void)state;
    catalog *cat = open_ok();
    create_database(cat, "other");
    def_store d;
    mu_err err;
    catalog_uuid uuid;
    assert_int_equal(catalog_create_table(cat, sample_def(&d, "default", "t"), false, &uuid,
                                          &err), 0);
    create_small(cat, "default", "taken", NULL);
    assert_int_equal(catalog_rename_table(cat, "default", "t", "default", "u", &err), 0);
    assert_false(has_table(cat, "default", "t"));
    assert_int_equal(catalog_rename_table(cat, "default", "u", "other", "v", &err), 0);
    catalog_snapshot *s = catalog_snapshot_acquire(cat);
    const catalog_table *t = catalog_snapshot_find_table(s, "other", "v");
    assert_non_null(t);
    check_sample(t, "other", "v");
    assert_true(catalog_uuid_equal(&t->uuid, &uuid));
    assert_int_equal(t->metadata_version, 1);
    catalog_snapshot_release(s);
    uint64_t generation = generation_of(cat);
    assert_int_equal(catalog_rename_table(cat, "other", "v", "default", "taken", &err),
                     MU_EEXISTS);
    assert_int_equal(catalog_rename_table(cat, "other", "v", "other", "v", &err), MU_EEXISTS);
    assert_int_equal(catalog_rename_table(cat, "other", "v", "nodb", "v", &err),
                     MU_EUNKNOWN_DATABASE);
    assert_int_equal(catalog_rename_table(cat, "other", "nope", "other", "w", &err),
                     MU_EUNKNOWN_TABLE);
    assert_int_equal(catalog_rename_table(cat, "nodb", "v", "other", "w", &err),
                     MU_EUNKNOWN_DATABASE);
    assert_int_equal(catalog_rename_table(cat, "other", "v", "other", "a/b", &err), MU_EINVAL);
    assert_int_equal(catalog_rename_table(cat, "other", "v", "other", "", &err), MU_EINVAL);
    assert_int_equal(catalog_rename_table(cat, "other", "v", "system", "v", &err), MU_EINVAL);
    assert_int_equal(generation_of(cat), generation);
    catalog_close(cat);
    cat = open_ok();
    assert_true(has_table(cat, "other", "v"));
    assert_false(has_table(cat, "default", "u"));
    catalog_close(cat);
}

static void test_alter(void **state) {
    (void)state;
    catalog *cat = open_ok();
    def_store d;
    mu_err err;
    catalog_uuid uuid;
    assert_int_equal(catalog_create_table(cat, small_def(&d, "default", "t"), false, &uuid,
                                          &err), 0);
    /* ADD COLUMN: the caller builds the whole new definition. */
    sample_def(&d, NULL, NULL);
    assert_int_equal(catalog_alter_table(cat, &uuid, &d.def, 1, &err), 0);
    catalog_snapshot *s = catalog_snapshot_acquire(cat);
    const catalog_table *t = catalog_snapshot_find_table(s, "default", "t");
    check_sample(t, "default", "t");
    assert_int_equal(t->metadata_version, 2);
    assert_true(catalog_uuid_equal(&t->uuid, &uuid));
    /* Altering with the stored definition itself (unchanged) still bumps. */
    assert_int_equal(catalog_alter_table(cat, &uuid, &t->def, 0, &err), 0);
    catalog_snapshot_release(s);
    uint64_t generation = generation_of(cat);
    /* A stale expected version is a concurrent ALTER: refused. */
    assert_int_equal(catalog_alter_table(cat, &uuid, &d.def, 2, &err), MU_EBUSY);
    d.def.name = "renamed";
    assert_int_equal(catalog_alter_table(cat, &uuid, &d.def, 0, &err), MU_EINVAL);
    assert_non_null(strstr(err.message, "RENAME"));
    d.def.name = "t";
    d.def.database = "default";
    d.columns[1].type = "NoSuchType";
    assert_int_equal(catalog_alter_table(cat, &uuid, &d.def, 0, &err), MU_EUNKNOWN_TYPE);
    d.columns[1].type = "String";
    catalog_uuid unknown;
    assert_int_equal(catalog_uuid_generate(&unknown, &err), 0);
    assert_int_equal(catalog_alter_table(cat, &unknown, &d.def, 0, &err), MU_EUNKNOWN_TABLE);
    assert_int_equal(generation_of(cat), generation);
    catalog_close(cat);
    cat = open_ok();
    s = catalog_snapshot_acquire(cat);
    t = catalog_snapshot_find_table(s, "default", "t");
    assert_int_equal(t->metadata_version, 3);
    check_sample(t, "default", "t");
    catalog_snapshot_release(s);
    /* A dropped table cannot be altered. */
    assert_int_equal(catalog_drop_table(cat, "default", "t", false, NULL, &err), 0);
    assert_int_equal(catalog_alter_table(cat, &uuid, &d.def, 0, &err), MU_EUNKNOWN_TABLE);
    catalog_close(cat);
}

static void test_table_acquire(void **state) {
    (void)state;
    catalog *cat = open_ok();
    catalog_uuid uuid;
    create_small(cat, "default", "t", &uuid);
    catalog_snapshot *s = catalog_snapshot_acquire(cat);
    const catalog_table *held = catalog_table_acquire(catalog_snapshot_find_table(s, "default",
                                                                                  "t"));
    catalog_snapshot_release(s);
    mu_err err;
    assert_int_equal(catalog_drop_table(cat, "default", "t", false, NULL, &err), 0);
    assert_int_equal(catalog_purge_table(cat, &uuid, &err), 0);
    catalog_close(cat);
    /* Still readable: the table outlives its snapshots and the catalog. */
    assert_string_equal(held->def.name, "t");
    assert_string_equal(held->column_names[0], "x");
    assert_int_equal(held->column_types[0]->kind, TY_UINT64);
    catalog_table_release(held);
    catalog_table_release(NULL);
    catalog_snapshot_release(NULL);
    catalog_close(NULL);
}

/* ------------------------------------------------------------------ */
/* UUIDs and paths                                                     */
/* ------------------------------------------------------------------ */

static void test_uuid(void **state) {
    (void)state;
    mu_err err;
    catalog_uuid u;
    assert_int_equal(catalog_uuid_parse("0123ABCD-4567-89ab-cdef-0123456789AB", &u, &err), 0);
    char text[CATALOG_UUID_TEXT_BYTES];
    assert_string_equal(catalog_uuid_format(&u, text), "0123abcd-4567-89ab-cdef-0123456789ab");
    assert_int_equal(u.bytes[0], 0x01);
    assert_int_equal(u.bytes[15], 0xab);
    const char *bad[] = {
        "", "0123abcd-4567-89ab-cdef-0123456789a", "0123abcd-4567-89ab-cdef-0123456789abc",
        "0123abcd+4567-89ab-cdef-0123456789ab", "0123abcd-4567-89ab-cdef-0123456789ag",
        "0123abcd45678-9ab-cdef-0123456789ab", " 123abcd-4567-89ab-cdef-0123456789ab",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(catalog_uuid_parse(bad[i], &u, &err), MU_EINVAL);
    }
    catalog_uuid a;
    catalog_uuid b;
    assert_int_equal(catalog_uuid_generate(&a, &err), 0);
    assert_int_equal(catalog_uuid_generate(&b, &err), 0);
    assert_false(catalog_uuid_equal(&a, &b));
    catalog_uuid back;
    assert_int_equal(catalog_uuid_parse(catalog_uuid_format(&a, text), &back, &err), 0);
    assert_true(catalog_uuid_equal(&a, &back));
    catalog_uuid nil;
    memset(&nil, 0, sizeof(nil));
    assert_true(catalog_uuid_is_nil(&nil));
    assert_false(catalog_uuid_is_nil(&a));
}

static void test_table_paths(void **state) {
    (void)state;
    mu_err err;
    catalog_uuid u;
    assert_int_equal(catalog_uuid_parse("0123abcd-4567-89ab-cdef-0123456789ab", &u, &err), 0);
    catalog_table_paths paths;
    assert_int_equal(catalog_table_paths_format("/data/parts", "/fast/wal/", &u, &paths, &err), 0);
    assert_string_equal(paths.data_dir, "/data/parts/0123abcd-4567-89ab-cdef-0123456789ab");
    assert_string_equal(paths.wal_dir, "/fast/wal/0123abcd-4567-89ab-cdef-0123456789ab");
    assert_int_equal(catalog_table_paths_format("/", "rel", &u, &paths, &err), 0);
    assert_string_equal(paths.data_dir, "/0123abcd-4567-89ab-cdef-0123456789ab");
    assert_string_equal(paths.wal_dir, "rel/0123abcd-4567-89ab-cdef-0123456789ab");
    assert_int_equal(catalog_table_paths_format("", "/w", &u, &paths, &err), MU_EINVAL);
    assert_int_equal(catalog_table_paths_format("/p", NULL, &u, &paths, &err), MU_EINVAL);
    char *long_dir = malloc(IO_PATH_MAX_BYTES);
    assert_non_null(long_dir);
    memset(long_dir, 'd', IO_PATH_MAX_BYTES - 20);
    long_dir[IO_PATH_MAX_BYTES - 20] = '\0';
    assert_int_equal(catalog_table_paths_format(long_dir, "/w", &u, &paths, &err), MU_EINVAL);
    free(long_dir);
}

static void test_enum_names(void **state) {
    (void)state;
    mu_err err;
    catalog_engine engine;
    for (int i = 0; i < CATALOG_ENGINE_COUNT; i++) {
        assert_int_equal(catalog_engine_parse(catalog_engine_name((catalog_engine)i), &engine,
                                              &err), 0);
        assert_int_equal(engine, i);
    }
    assert_int_equal(catalog_engine_parse("mergetree", &engine, &err), MU_EINVAL);
    assert_int_equal(catalog_engine_parse("Log", &engine, &err), MU_EINVAL);
    assert_int_equal(catalog_engine_parse("", &engine, &err), MU_EINVAL);
    assert_null(catalog_engine_name(CATALOG_ENGINE_COUNT));
    assert_string_equal(catalog_default_kind_name(CATALOG_DEFAULT_NONE), "");
    assert_string_equal(catalog_default_kind_name(CATALOG_DEFAULT_ALIAS), "ALIAS");
    assert_null(catalog_default_kind_name(CATALOG_DEFAULT_KIND_COUNT));
}

/* ------------------------------------------------------------------ */
/* The file                                                            */
/* ------------------------------------------------------------------ */

/* A catalog with two databases, live tables, a dropped one and odd text. */
static void populate(catalog *cat) {
    def_store d;
    mu_err err;
    create_database(cat, "logs");
    assert_int_equal(catalog_create_table(cat, sample_def(&d, "logs", "events"), false, NULL,
                                          &err), 0);
    sample_def(&d, "default", "\xc3\xa9t\xc3\xa9 \"quoted\" \\ tab\t");
    d.def.comment = "line\nbreak \xe2\x82\xac \x01";
    assert_int_equal(catalog_create_table(cat, &d.def, false, NULL, &err), 0);
    create_small(cat, "default", "gone", NULL);
    assert_int_equal(catalog_drop_table(cat, "default", "gone", false, NULL, &err), 0);
}

static void test_file_is_stable(void **state) {
    (void)state;
    catalog *cat = open_ok();
    populate(cat);
    catalog_close(cat);
    size_t size_before;
    char *before = read_whole(file_path, &size_before);
    /* Opening without a mutation leaves the file byte for byte. */
    cat = open_ok();
    catalog_close(cat);
    size_t size_after;
    char *after = read_whole(file_path, &size_after);
    assert_int_equal(size_before, size_after);
    assert_memory_equal(before, after, size_before);
    /* The document names its format and version; the text survived. */
    json_error_t jerr;
    json_t *doc = json_loads(after, 0, &jerr);
    assert_non_null(doc);
    assert_string_equal(json_string_value(json_object_get(doc, "format")), "muscles-catalog");
    assert_int_equal(json_integer_value(json_object_get(doc, "version")), 1);
    json_decref(doc);
    free(before);
    free(after);
    cat = open_ok();
    catalog_snapshot *s = catalog_snapshot_acquire(cat);
    const catalog_table *t = catalog_snapshot_find_table(s, "default",
                                                         "\xc3\xa9t\xc3\xa9 \"quoted\" \\ tab\t");
    assert_non_null(t);
    assert_string_equal(t->def.comment, "line\nbreak \xe2\x82\xac \x01");
    assert_non_null(catalog_snapshot_find_table(s, "logs", "events"));
    assert_int_equal(catalog_snapshot_dropped_count(s), 1);
    catalog_snapshot_release(s);
    catalog_close(cat);
}

static void expect_open_fails(int code, const char *needle) {
    catalog *cat = NULL;
    mu_err err;
    mu_err_clear(&err);
    int rc = catalog_open(&cat, dir, &err);
    if (rc != code || strstr(err.message, file_path) == NULL ||
        (needle != NULL && strstr(err.message, needle) == NULL)) {
        fail_msg("expected %s with \"%s\", got %s: %s", mu_code_name(code),
                 needle != NULL ? needle : "", mu_code_name(rc), err.message);
    }
    assert_null(cat);
}

static void test_flipped_bytes(void **state) {
    (void)state;
    catalog *cat = open_ok();
    populate(cat);
    catalog_close(cat);
    size_t size;
    char *good = read_whole(file_path, &size);
    char *bad = malloc(size);
    assert_non_null(bad);
    /* Every single-bit flip of every byte but the final newline is refused. */
    for (size_t i = 0; i + 1 < size; i++) {
        memcpy(bad, good, size);
        bad[i] ^= 0x01;
        write_whole(file_path, bad, size);
        catalog *c = NULL;
        mu_err err;
        int rc = catalog_open(&c, dir, &err);
        if (rc != MU_ECORRUPT || strstr(err.message, file_path) == NULL) {
            fail_msg("flip at %zu ('%c'): %s %s", i, good[i], mu_code_name(rc),
                     rc != 0 ? err.message : "loaded");
        }
    }
    /* A flip inside a string value is caught by the checksum. */
    char *where = strstr(good, "sample table");
    assert_non_null(where);
    memcpy(bad, good, size);
    bad[where - good] = 'S';
    write_whole(file_path, bad, size);
    expect_open_fails(MU_ECORRUPT, "checksum mismatch");
    write_whole(file_path, good, size);
    cat = open_ok();
    assert_true(has_table(cat, "logs", "events"));
    catalog_close(cat);
    free(good);
    free(bad);
}

static void test_truncated(void **state) {
    (void)state;
    catalog *cat = open_ok();
    populate(cat);
    catalog_close(cat);
    size_t size;
    char *good = read_whole(file_path, &size);
    for (size_t length = 0; length + 1 < size; length += (length < 64 ? 1 : 37)) {
        write_whole(file_path, good, length);
        expect_open_fails(MU_ECORRUPT, NULL);
    }
    /* Only the trailing newline is not content. */
    write_whole(file_path, good, size - 1);
    cat = open_ok();
    catalog_close(cat);
    free(good);
}

/* Loads catalog.json, applies edit, optionally recomputes content_crc32c
 * (so the checks behind the checksum are reached), and writes it back. */
static void rewrite_catalog(void (*edit)(json_t *doc), bool fix_checksum) {
    json_error_t jerr;
    json_t *doc = json_load_file(file_path, 0, &jerr);
    assert_non_null(doc);
    edit(doc);
    if (fix_checksum) {
        char *canonical = json_dumps(json_object_get(doc, "content"),
                                     JSON_COMPACT | JSON_SORT_KEYS);
        assert_non_null(canonical);
        uint32_t crc = mu_crc32c(0, canonical, strlen(canonical));
        free(canonical);
        json_object_set_new(doc, "content_crc32c", json_integer(crc));
    }
    assert_int_equal(json_dump_file(doc, file_path, JSON_INDENT(2)), 0);
    json_decref(doc);
}

static json_t *content_of(json_t *doc) { return json_object_get(doc, "content"); }
static json_t *table0(json_t *doc) {
    return json_array_get(json_object_get(content_of(doc), "tables"), 0);
}
static json_t *database0(json_t *doc) {
    return json_array_get(json_object_get(content_of(doc), "databases"), 0);
}

static void file_edit_version_2(json_t *doc) {
    json_object_set_new(doc, "version", json_integer(2));
}
static void file_edit_version_0(json_t *doc) {
    json_object_set_new(doc, "version", json_integer(0));
}
static void file_edit_version_text(json_t *doc) {
    json_object_set_new(doc, "version", json_string("1"));
}
static void file_edit_format(json_t *doc) {
    json_object_set_new(doc, "format", json_string("other"));
}
static void file_edit_top_extra(json_t *doc) { json_object_set_new(doc, "extra", json_true()); }
static void file_edit_top_missing(json_t *doc) { json_object_del(doc, "content_crc32c"); }
static void file_edit_not_object(json_t *doc) {
    json_object_clear(doc);
    json_object_set_new(doc, "format", json_string("muscles-catalog"));
    json_object_set_new(doc, "version", json_integer(1));
    json_object_set_new(doc, "content_crc32c", json_integer(0));
    json_object_set_new(doc, "content", json_array());
}
static void file_edit_table_extra(json_t *doc) {
    json_object_set_new(table0(doc), "future_field", json_integer(1));
}
static void file_edit_column_extra(json_t *doc) {
    json_t *columns = json_object_get(table0(doc), "columns");
    json_object_set_new(json_array_get(columns, 0), "statistics", json_string("x"));
}
static void file_edit_table_missing(json_t *doc) { json_object_del(table0(doc), "ttl"); }
static void file_edit_table_wrong_type(json_t *doc) {
    json_object_set_new(table0(doc), "metadata_version", json_string("1"));
}
static void file_edit_table_real(json_t *doc) {
    json_object_set_new(table0(doc), "created_at_ns", json_real(1.5));
}
static void file_edit_bad_type(json_t *doc) {
    json_t *columns = json_object_get(table0(doc), "columns");
    json_object_set_new(json_array_get(columns, 0), "type", json_string("Strin"));
}
static void file_edit_bad_kind(json_t *doc) {
    json_t *columns = json_object_get(table0(doc), "columns");
    json_object_set_new(json_array_get(columns, 0), "default_kind", json_string("SOMETIMES"));
}
static void file_edit_bad_engine(json_t *doc) {
    json_object_set_new(table0(doc), "engine", json_string("Log"));
}
static void file_edit_bad_uuid(json_t *doc) {
    json_object_set_new(table0(doc), "uuid", json_string("not-a-uuid"));
}
static void file_edit_nil_uuid(json_t *doc) {
    json_object_set_new(table0(doc), "uuid",
                        json_string("00000000-0000-0000-0000-000000000000"));
}
static void file_edit_duplicate_uuid(json_t *doc) {
    json_t *tables = json_object_get(content_of(doc), "tables");
    json_t *copy = json_deep_copy(json_array_get(tables, 0));
    json_object_set_new(copy, "name", json_string("copy"));
    json_array_append_new(tables, copy);
}
static void file_edit_duplicate_table(json_t *doc) {
    json_t *tables = json_object_get(content_of(doc), "tables");
    json_t *copy = json_deep_copy(json_array_get(tables, 0));
    json_object_set_new(copy, "uuid", json_string("11111111-2222-4333-8444-555555555555"));
    json_array_append_new(tables, copy);
}
static void file_edit_duplicate_database(json_t *doc) {
    json_t *databases = json_object_get(content_of(doc), "databases");
    json_array_append_new(databases, json_deep_copy(database0(doc)));
}
static void file_edit_orphan_table(json_t *doc) {
    json_object_set_new(table0(doc), "database", json_string("nowhere"));
}
static void file_edit_reserved_database(json_t *doc) {
    json_object_set_new(database0(doc), "name", json_string("system"));
}
static void file_edit_live_dropped_at(json_t *doc) {
    json_object_set_new(table0(doc), "dropped_at_ns", json_integer(5));
}
static void file_edit_generation_0(json_t *doc) {
    json_object_set_new(content_of(doc), "generation", json_integer(0));
}
static void file_edit_database_engine(json_t *doc) {
    json_object_set_new(database0(doc), "engine", json_string("Lazy"));
}
static void file_edit_pk(json_t *doc) {
    json_t *pk = json_object_get(table0(doc), "primary_key");
    json_array_append_new(pk, json_string("nonsense"));
}
static void file_edit_order_by_number(json_t *doc) {
    json_t *order_by = json_object_get(table0(doc), "order_by");
    json_array_append_new(order_by, json_integer(3));
}
static void file_edit_slash_name(json_t *doc) {
    json_object_set_new(table0(doc), "name", json_string("a/b"));
}
static void file_edit_granularity(json_t *doc) {
    json_t *indexes = json_object_get(table0(doc), "indexes");
    json_object_set_new(json_array_get(indexes, 0), "granularity", json_integer(0));
}

typedef struct file_case {
    const char *what;
    void (*edit)(json_t *doc);
    bool fix_checksum;
    int code;
    const char *needle;
} file_case;

static const file_case file_cases[] = {
    {"newer version", file_edit_version_2, false, MU_ENOT_SUPPORTED, "version 2"},
    {"version 0", file_edit_version_0, false, MU_ECORRUPT, "\"version\""},
    {"version as text", file_edit_version_text, false, MU_ECORRUPT, "\"version\""},
    {"other format", file_edit_format, false, MU_ECORRUPT, "\"format\""},
    {"unknown top field", file_edit_top_extra, false, MU_ECORRUPT, "unknown field \"extra\""},
    {"missing checksum", file_edit_top_missing, false, MU_ECORRUPT, "content_crc32c"},
    {"content not object", file_edit_not_object, false, MU_ECORRUPT, "not an object"},
    {"content edited", file_edit_table_extra, false, MU_ECORRUPT, "checksum mismatch"},
    {"unknown table field", file_edit_table_extra, true, MU_ECORRUPT, "future_field"},
    {"unknown column field", file_edit_column_extra, true, MU_ECORRUPT, "columns[0]"},
    {"missing table field", file_edit_table_missing, true, MU_ECORRUPT, "\"ttl\" is missing"},
    {"wrong field type", file_edit_table_wrong_type, true, MU_ECORRUPT, "not an integer"},
    {"real number", file_edit_table_real, true, MU_ECORRUPT, "not an integer"},
    {"bad column type", file_edit_bad_type, true, MU_ECORRUPT, "Strin"},
    {"bad default kind", file_edit_bad_kind, true, MU_ECORRUPT, "SOMETIMES"},
    {"bad engine", file_edit_bad_engine, true, MU_ECORRUPT, "unknown engine"},
    {"bad uuid", file_edit_bad_uuid, true, MU_ECORRUPT, "not a UUID"},
    {"nil uuid", file_edit_nil_uuid, true, MU_ECORRUPT, "not a UUID"},
    {"duplicate uuid", file_edit_duplicate_uuid, true, MU_ECORRUPT, "two tables have UUID"},
    {"duplicate table", file_edit_duplicate_table, true, MU_ECORRUPT, "appears twice"},
    {"duplicate database", file_edit_duplicate_database, true, MU_ECORRUPT, "appears twice"},
    {"table without database", file_edit_orphan_table, true, MU_ECORRUPT, "does not exist"},
    {"reserved database", file_edit_reserved_database, true, MU_ECORRUPT, "reserved"},
    {"live table dropped_at", file_edit_live_dropped_at, true, MU_ECORRUPT, "dropped_at_ns"},
    {"generation 0", file_edit_generation_0, true, MU_ECORRUPT, "generation"},
    {"database engine", file_edit_database_engine, true, MU_ECORRUPT, "Lazy"},
    {"primary key", file_edit_pk, true, MU_ECORRUPT, "prefix"},
    {"ORDER BY number", file_edit_order_by_number, true, MU_ECORRUPT, "order_by[2]"},
    {"slash in name", file_edit_slash_name, true, MU_ECORRUPT, "'/'"},
    {"granularity 0", file_edit_granularity, true, MU_ECORRUPT, "granularity"},
};

static void test_crafted_files(void **state) {
    (void)state;
    catalog *cat = open_ok();
    populate(cat);
    catalog_close(cat);
    size_t size;
    char *good = read_whole(file_path, &size);
    for (size_t i = 0; i < sizeof(file_cases) / sizeof(file_cases[0]); i++) {
        const file_case *c = &file_cases[i];
        write_whole(file_path, good, size);
        rewrite_catalog(c->edit, c->fix_checksum);
        catalog *bad = NULL;
        mu_err err;
        mu_err_clear(&err);
        int rc = catalog_open(&bad, dir, &err);
        if (rc != c->code || strstr(err.message, file_path) == NULL ||
            strstr(err.message, c->needle) == NULL) {
            fail_msg("case \"%s\": %s: %s", c->what, mu_code_name(rc), err.message);
        }
        /* The damaged file is left for the operator, not replaced. */
        assert_true(file_exists(file_path));
    }
    /* The checksum covers values, not layout: a compact copy loads. */
    write_whole(file_path, good, size);
    json_error_t jerr;
    json_t *doc = json_load_file(file_path, 0, &jerr);
    assert_int_equal(json_dump_file(doc, file_path, JSON_COMPACT), 0);
    json_decref(doc);
    cat = open_ok();
    assert_true(has_table(cat, "logs", "events"));
    catalog_close(cat);
    free(good);
}

static void file_edit_generation_max(json_t *doc) {
    json_object_set_new(content_of(doc), "generation", json_integer(INT64_C(1) << 62));
    json_object_set_new(table0(doc), "metadata_version", json_integer(INT64_C(1) << 62));
}
static void file_edit_generation_past_max(json_t *doc) {
    json_object_set_new(content_of(doc), "generation", json_integer((INT64_C(1) << 62) + 1));
}

/* Counters at their maximum load, and refuse the mutation that would pass
 * it instead of asserting or wrapping. */
static void test_counter_limits(void **state) {
    (void)state;
    catalog *cat = open_ok();
    populate(cat);
    catalog_close(cat);
    rewrite_catalog(file_edit_generation_past_max, true);
    expect_open_fails(MU_ECORRUPT, "generation");
    rewrite_catalog(file_edit_generation_max, true);
    cat = open_ok();
    mu_err err;
    assert_int_equal(catalog_drop_table(cat, "logs", "events", false, NULL, &err), MU_EINVAL);
    assert_non_null(strstr(err.message, "maximum"));
    catalog_snapshot *s = catalog_snapshot_acquire(cat);
    const catalog_table *t = catalog_snapshot_table_at(s, 0);
    assert_int_equal(t->metadata_version, UINT64_C(1) << 62);
    assert_int_equal(catalog_alter_table(cat, &t->uuid, &t->def, 0, &err), MU_EINVAL);
    assert_non_null(strstr(err.message, "metadata_version"));
    catalog_snapshot_release(s);
    catalog_close(cat);
}

static void test_garbage_files(void **state) {
    (void)state;
    const char *inputs[] = {"", "null", "[]", "{}", "{\"format\":\"muscles-catalog\"}",
                            "{\"a\":1,\"a\":2}", "\xff\xfe", "{\"format\":\"muscles-catalog\","
                            "\"version\":1,\"content_crc32c\":-1,\"content\":{}}"};
    for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
        write_whole(file_path, inputs[i], strlen(inputs[i]));
        expect_open_fails(MU_ECORRUPT, NULL);
    }
}

/* ------------------------------------------------------------------ */
/* Crashes and injected faults                                         */
/* ------------------------------------------------------------------ */

static void test_leftover_tmp(void **state) {
    (void)state;
    catalog *cat = open_ok();
    create_small(cat, "default", "t", NULL);
    catalog_close(cat);
    write_whole(tmp_path, "{\"half a write", 14);
    cat = open_ok();
    assert_false(file_exists(tmp_path));
    assert_true(has_table(cat, "default", "t"));
    catalog_close(cat);
    /* Also when the first catalog write of a fresh data dir never finished. */
    unlink(file_path);
    write_whole(tmp_path, "{}", 2);
    cat = open_ok();
    assert_false(file_exists(tmp_path));
    assert_false(has_table(cat, "default", "t"));
    catalog_close(cat);
}

/* Runs create_table of default.crash in a child that the crash point kills,
 * and checks that it died of SIGKILL there. */
static void crash_child_at(const char *crash_point) {
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char spec[128];
        snprintf(spec, sizeof(spec), "%s=crash", crash_point);
        if (mu_failpoints_configure(spec, NULL) != 0) _exit(2);
        catalog *cat = NULL;
        if (catalog_open(&cat, dir, NULL) != 0) _exit(3);
        def_store d;
        catalog_create_table(cat, small_def(&d, "default", "crash"), false, NULL, NULL);
        _exit(4); /* not reached: the crash point kills the process */
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGKILL);
}

static void test_crash_after_tmp_write(void **state) {
    (void)state;
    skip_unless_failpoints();
    catalog *cat = open_ok();
    create_small(cat, "default", "before", NULL);
    catalog_close(cat);
    size_t size_before;
    char *before = read_whole(file_path, &size_before);
    crash_child_at(CATALOG_CP_AFTER_TMP_WRITE);
    /* The new state was complete in the tmp file, never renamed. */
    assert_true(file_exists(tmp_path));
    size_t size_now;
    char *now = read_whole(file_path, &size_now);
    assert_int_equal(size_now, size_before);
    assert_memory_equal(now, before, size_before);
    cat = open_ok();
    assert_false(file_exists(tmp_path));
    assert_true(has_table(cat, "default", "before"));
    assert_false(has_table(cat, "default", "crash"));
    /* And the catalog goes on working. */
    create_small(cat, "default", "crash", NULL);
    catalog_close(cat);
    free(before);
    free(now);
}

static void test_crash_after_rename(void **state) {
    (void)state;
    skip_unless_failpoints();
    catalog *cat = open_ok();
    catalog_close(cat);
    crash_child_at(CATALOG_CP_AFTER_RENAME);
    /* The rename happened: the new state is what a restart sees. */
    assert_false(file_exists(tmp_path));
    cat = open_ok();
    assert_true(has_table(cat, "default", "crash"));
    catalog_close(cat);
}

/* One failing step of the persist sequence. */
typedef struct fault_case {
    const char *spec;
    int code;
} fault_case;

static const fault_case fault_cases[] = {
    {"catalog.open_tmp=error", MU_EOPEN},
    {"catalog.write=error", MU_EWRITE},
    {"catalog.write=error:ENOSPC", MU_ENOSPC},
    {"catalog.write=error:SHORT", MU_EWRITE},
    {"catalog.fsync=error", MU_EFSYNC},
    {"catalog.fsync=error:ENOSPC", MU_ENOSPC},
    {"catalog.rename=error", MU_EIO},
    {"io.write=error@1x1", MU_EWRITE},
    {"io.fsync=error@1x1", MU_EFSYNC},
    {"io.rename=error@1x1", MU_EIO},
    {"io.unlink=error@1x1", MU_EIO},
};

/* Each failure before the rename leaves the old state in memory and the
 * old file on disk, no tmp file, and a catalog that still accepts writes. */
static void test_persist_faults(void **state) {
    (void)state;
    skip_unless_failpoints();
    catalog *cat = open_ok();
    create_small(cat, "default", "base", NULL);
    for (size_t i = 0; i < sizeof(fault_cases) / sizeof(fault_cases[0]); i++) {
        const fault_case *c = &fault_cases[i];
        size_t size_before;
        char *before = read_whole(file_path, &size_before);
        uint64_t generation = generation_of(cat);
        mu_err err;
        assert_int_equal(mu_failpoints_configure(c->spec, &err), 0);
        def_store d;
        int rc = catalog_create_table(cat, small_def(&d, "default", "new"), false, NULL, &err);
        mu_failpoints_configure("", NULL);
        if (rc != c->code) fail_msg("%s: %s: %s", c->spec, mu_code_name(rc), err.message);
        assert_int_equal(generation_of(cat), generation);
        assert_false(has_table(cat, "default", "new"));
        assert_false(file_exists(tmp_path));
        size_t size_after;
        char *after = read_whole(file_path, &size_after);
        assert_int_equal(size_after, size_before);
        assert_memory_equal(after, before, size_before);
        free(before);
        free(after);
    }
    /* Fail forever: every attempt fails, nothing changes; then it works. */
    mu_err err;
    assert_int_equal(mu_failpoints_configure("catalog.fsync=error", &err), 0);
    for (int attempt = 0; attempt < 3; attempt++) {
        assert_int_equal(catalog_drop_table(cat, "default", "base", false, NULL, &err),
                         MU_EFSYNC);
    }
    mu_failpoints_configure("", NULL);
    assert_true(has_table(cat, "default", "base"));
    assert_int_equal(catalog_drop_table(cat, "default", "base", false, NULL, &err), 0);
    create_small(cat, "default", "new", NULL);
    catalog_close(cat);
    cat = open_ok();
    assert_true(has_table(cat, "default", "new"));
    assert_false(has_table(cat, "default", "base"));
    catalog_close(cat);
}

/* A failed directory fsync after the rename: the new file may or may not be
 * durable, so memory keeps the old state and the catalog refuses writes. */
static void test_fsync_dir_fault(void **state) {
    (void)state;
    skip_unless_failpoints();
    catalog *cat = open_ok();
    mu_err err;
    assert_int_equal(mu_failpoints_configure("catalog.fsync_dir=error", &err), 0);
    def_store d;
    assert_int_equal(catalog_create_table(cat, small_def(&d, "default", "t"), false, NULL, &err),
                     MU_EFSYNC);
    mu_failpoints_configure("", NULL);
    assert_false(has_table(cat, "default", "t"));
    assert_int_equal(catalog_create_table(cat, small_def(&d, "default", "u"), false, NULL, &err),
                     MU_EREADONLY);
    assert_non_null(strstr(err.message, "read-only"));
    catalog_database_def db = {.name = "x"};
    assert_int_equal(catalog_create_database(cat, &db, false, &err), MU_EREADONLY);
    assert_int_equal(catalog_drop_database(cat, "default", false, true, &err), MU_EREADONLY);
    /* Readers still work. */
    catalog_snapshot *s = catalog_snapshot_acquire(cat);
    assert_non_null(catalog_snapshot_find_database(s, "default"));
    catalog_snapshot_release(s);
    catalog_close(cat);
    /* Here the rename reached the disk: a restart loads the new file. */
    cat = open_ok();
    assert_true(has_table(cat, "default", "t"));
    create_small(cat, "default", "u", NULL);
    catalog_close(cat);
}

/* The first catalog write of a fresh data dir failing fails the open. */
static void test_open_write_fault(void **state) {
    (void)state;
    skip_unless_failpoints();
    mu_err err;
    assert_int_equal(mu_failpoints_configure("catalog.write=error:ENOSPC", &err), 0);
    catalog *cat = NULL;
    assert_int_equal(catalog_open(&cat, dir, &err), MU_ENOSPC);
    assert_null(cat);
    mu_failpoints_configure("", NULL);
    assert_false(file_exists(file_path));
    assert_false(file_exists(tmp_path));
    cat = open_ok();
    catalog_close(cat);
}

/* ------------------------------------------------------------------ */
/* Concurrent readers                                                  */
/* ------------------------------------------------------------------ */

#define READERS 4
#define WRITER_ROUNDS 60

typedef struct reader_ctx {
    catalog *cat;
    _Atomic bool *stop;
    uint64_t snapshots;
    const char *failure;
} reader_ctx;

/* Checks what must hold in every snapshot: generations never go back, every
 * live table is found by name and UUID and sits in an existing database, and
 * the writer's pairs (t<i> exists iff u<i> does not) are never half done. */
static const char *reader_check(const catalog_snapshot *s, uint64_t *last_generation) {
    if (catalog_snapshot_generation(s) < *last_generation) return "generation went back";
    *last_generation = catalog_snapshot_generation(s);
    for (size_t i = 0; i < catalog_snapshot_table_count(s); i++) {
        const catalog_table *t = catalog_snapshot_table_at(s, i);
        if (catalog_snapshot_find_table(s, t->def.database, t->def.name) != t) return "by name";
        if (catalog_snapshot_find_table_by_uuid(s, &t->uuid) != t) return "by uuid";
        if (catalog_snapshot_find_database(s, t->def.database) == NULL) return "database";
        if (strcmp(t->column_names[0], "x") != 0) return "column";
        char other[32];
        snprintf(other, sizeof(other), "%c%s", t->def.name[0] == 't' ? 'u' : 't',
                 t->def.name + 1);
        if (catalog_snapshot_find_table(s, t->def.database, other) != NULL) return "both names";
    }
    return NULL;
}

static void *reader_main(void *arg) {
    reader_ctx *ctx = arg;
    uint64_t last_generation = 0;
    while (!atomic_load(ctx->stop) && ctx->failure == NULL) {
        catalog_snapshot *s = catalog_snapshot_acquire(ctx->cat);
        ctx->failure = reader_check(s, &last_generation);
        catalog_snapshot_release(s);
        ctx->snapshots++;
    }
    return NULL;
}

static void test_concurrent_readers(void **state) {
    (void)state;
    catalog *cat = open_ok();
    create_database(cat, "db");
    catalog_snapshot *held = catalog_snapshot_acquire(cat);
    _Atomic bool stop = false;
    reader_ctx ctx[READERS];
    pthread_t threads[READERS];
    for (int i = 0; i < READERS; i++) {
        ctx[i] = (reader_ctx){.cat = cat, .stop = &stop};
        assert_int_equal(pthread_create(&threads[i], NULL, reader_main, &ctx[i]), 0);
    }
    mu_err err;
    for (int round = 0; round < WRITER_ROUNDS; round++) {
        char t_name[32];
        char u_name[32];
        snprintf(t_name, sizeof(t_name), "t%d", round);
        snprintf(u_name, sizeof(u_name), "u%d", round);
        catalog_uuid uuid;
        create_small(cat, "db", t_name, &uuid);
        assert_int_equal(catalog_rename_table(cat, "db", t_name, "db", u_name, &err), 0);
        if (round % 3 == 0) {
            assert_int_equal(catalog_drop_table(cat, "db", u_name, false, NULL, &err), 0);
            assert_int_equal(catalog_purge_table(cat, &uuid, &err), 0);
        }
    }
    atomic_store(&stop, true);
    for (int i = 0; i < READERS; i++) {
        assert_int_equal(pthread_join(threads[i], NULL), 0);
        if (ctx[i].failure != NULL) fail_msg("reader %d: %s", i, ctx[i].failure);
        assert_true(ctx[i].snapshots > 0);
    }
    /* The snapshot taken before all that still shows its moment, even after
     * the catalog is closed. */
    catalog_close(cat);
    assert_int_equal(catalog_snapshot_table_count(held), 0);
    assert_non_null(catalog_snapshot_find_database(held, "db"));
    assert_int_equal(catalog_snapshot_generation(held), 2);
    catalog_snapshot_release(held);
    cat = open_ok();
    catalog_snapshot *s = catalog_snapshot_acquire(cat);
    assert_int_equal(catalog_snapshot_table_count(s), WRITER_ROUNDS - (WRITER_ROUNDS + 2) / 3);
    catalog_snapshot_release(s);
    catalog_close(cat);
}

/* Two writers at once: mutations serialize and none is lost. */
typedef struct writer_ctx {
    catalog *cat;
    int id;
    int failures;
} writer_ctx;

static void *writer_main(void *arg) {
    writer_ctx *ctx = arg;
    for (int i = 0; i < 20; i++) {
        char name[32];
        snprintf(name, sizeof(name), "w%d_%d", ctx->id, i);
        def_store d;
        if (catalog_create_table(ctx->cat, small_def(&d, "default", name), false, NULL, NULL)) {
            ctx->failures++;
        }
    }
    return NULL;
}

static void test_concurrent_writers(void **state) {
    (void)state;
    catalog *cat = open_ok();
    writer_ctx ctx[3];
    pthread_t threads[3];
    for (int i = 0; i < 3; i++) {
        ctx[i] = (writer_ctx){.cat = cat, .id = i};
        assert_int_equal(pthread_create(&threads[i], NULL, writer_main, &ctx[i]), 0);
    }
    for (int i = 0; i < 3; i++) {
        assert_int_equal(pthread_join(threads[i], NULL), 0);
        assert_int_equal(ctx[i].failures, 0);
    }
    assert_int_equal(generation_of(cat), 61);
    catalog_close(cat);
    cat = open_ok();
    catalog_snapshot *s = catalog_snapshot_acquire(cat);
    assert_int_equal(catalog_snapshot_table_count(s), 60);
    catalog_snapshot_release(s);
    catalog_close(cat);
}

int main(void) {
    mu_log_set_level(MU_LOG_ERROR);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_open_creates_default, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_open_bad_dir, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_databases, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_database_refusals, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_create_table_round_trip, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_tables_of_and_order, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_create_table_exists, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_create_table_refusals, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_drop_and_purge, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_drop_database_cascade, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_rename, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_alter, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_table_acquire, dir_setup, dir_teardown),
        cmocka_unit_test(test_uuid),
        cmocka_unit_test(test_table_paths),
        cmocka_unit_test(test_enum_names),
        cmocka_unit_test_setup_teardown(test_file_is_stable, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_flipped_bytes, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_truncated, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_crafted_files, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_counter_limits, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_garbage_files, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_leftover_tmp, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_crash_after_tmp_write, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_crash_after_rename, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_persist_faults, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_fsync_dir_fault, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_open_write_fault, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_concurrent_readers, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_concurrent_writers, dir_setup, dir_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
