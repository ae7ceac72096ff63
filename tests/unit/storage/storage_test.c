/* storage_test.c: goal: the storage engine opens every catalog table with
 * its binding (codecs, ORDER BY columns and expressions, PARTITION BY
 * through the key compiler), keeps tables across a restart, removes a
 * dropped table's files, refuses a definition it cannot bind without
 * leaving it in the catalog, and refuses a batch whose key cannot be
 * computed before anything is logged. The key compiler here is a small
 * one of the test's own (the SQL layer's is tested through the server).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "storage/storage.h"

static char root[64], data_dir[128], wal_dir[128], parts_dir[128];

static int make_dirs(void **state) {
    snprintf(root, sizeof(root), "/tmp/mu_storage_test_XXXXXX");
    assert_non_null(mkdtemp(root));
    snprintf(data_dir, sizeof(data_dir), "%s/data", root);
    snprintf(wal_dir, sizeof(wal_dir), "%s/wal", root);
    snprintf(parts_dir, sizeof(parts_dir), "%s/parts", root);
    return 0;
}

static int remove_dirs(void **state) {
    char command[128];
    snprintf(command, sizeof(command), "rm -rf '%s'", root);
    assert_int_equal(system(command), 0);
    return 0;
}

/* The test's key compiler: toYYYYMM(ts) (UTC), toStartOfHour(ts) and
 * checked(user) (user, refusing 99) over the columns ts and user. */
typedef enum { KEY_YYYYMM, KEY_HOUR, KEY_CHECKED } key_kind;
struct storage_key_expr {
    key_kind kind;
    uint32_t column;
};

static int test_key_compile(void *ctx, const char *clause, const char *text, uint32_t count,
                            const char *const *names, const ty_type *const *types,
                            storage_key_expr **out, mu_err *err) {
    (void)ctx;
    (void)types;
    static const struct {
        const char *text, *column;
        key_kind kind;
    } known[] = {{"toYYYYMM(ts)", "ts", KEY_YYYYMM},
                 {"toStartOfHour(ts)", "ts", KEY_HOUR},
                 {"checked(user)", "user", KEY_CHECKED}};
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        if (strcmp(text, known[i].text) != 0) continue;
        for (uint32_t c = 0; c < count; c++) {
            if (strcmp(names[c], known[i].column) != 0) continue;
            *out = calloc(1, sizeof(**out));
            assert_non_null(*out);
            (*out)->kind = known[i].kind;
            (*out)->column = c;
            return 0;
        }
    }
    return MU_ERR(err, MU_EUNKNOWN_FUNCTION, "%s: cannot compile %s", clause, text);
}

static int test_key_eval(storage_key_expr *k, const ty_column *const *columns, uint32_t rows,
                         ty_column **out, mu_err *err) {
    const uint8_t *values = ty_column_values(columns[k->column]);
    int rc = ty_column_create(ty_type_builtin(k->kind == KEY_HOUR ? TY_UINT32 : TY_UINT64), NULL,
                              out, err);
    for (uint32_t r = 0; r < rows && rc == 0; r++) {
        if (k->kind == KEY_CHECKED) {
            uint64_t user = mu_load_u64le(values + (size_t)r * 8);
            if (user == 99) return MU_ERR(err, MU_EINVAL, "checked(user): user 99 refused");
            rc = ty_column_append_value(*out, &user, err);
        } else if (k->kind == KEY_HOUR) {
            uint32_t hour = mu_load_u32le(values + (size_t)r * 4) / 3600 * 3600;
            rc = ty_column_append_value(*out, &hour, err);
        } else {
            int64_t year;
            unsigned month, day;
            ty_civil_from_days(mu_load_u32le(values + (size_t)r * 4) / 86400, &year, &month, &day);
            uint64_t yyyymm = (uint64_t)year * 100 + month;
            rc = ty_column_append_value(*out, &yyyymm, err);
        }
    }
    return rc;
}

static void test_key_destroy(storage_key_expr *k) { free(k); }

static const storage_key_compiler test_keys = {test_key_compile, test_key_eval, test_key_destroy,
                                               NULL};

static storage *open_storage_with(const storage_key_compiler *keys) {
    storage_options opt = {data_dir, wal_dir, parts_dir, 0, 100, 0, 0, keys};
    storage *s = NULL;
    mu_err err;
    assert_int_equal(storage_open(&s, &opt, &err), 0);
    return s;
}

static storage *open_storage(void) { return open_storage_with(&test_keys); }

static const catalog_column columns[] = {
    {"ts", "DateTime('UTC')", CATALOG_DEFAULT_NONE, "", "DoubleDelta, LZ4", ""},
    {"user", "UInt64", CATALOG_DEFAULT_NONE, "", "", ""},
    {"value", "Float64", CATALOG_DEFAULT_NONE, "", "Gorilla", ""},
};
static const char *const order_by[] = {"user", "ts"};

static catalog_table_def events_def(const char *partition_by, const char *const *keys) {
    catalog_table_def def = {0};
    def.database = "default";
    def.name = "events";
    def.engine = CATALOG_ENGINE_MERGE_TREE;
    def.engine_params = "";
    def.columns = columns;
    def.column_count = 3;
    def.order_by = keys;
    def.order_by_count = 2;
    def.partition_by = partition_by;
    def.ttl = "";
    def.comment = "";
    return def;
}

static void append_rows(table *t) {
    mu_err err;
    ty_batch *b = NULL;
    ty_column *c = NULL;
    const char *ts[] = {"2024-01-31 23:00:00", "2024-02-01 01:00:00", "2024-01-15 12:00:00"};
    assert_int_equal(ty_batch_create(NULL, &b, &err), 0);
    assert_int_equal(ty_batch_add_column(b, "ts", table_column_type(t, 0), &c, &err), 0);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(ty_column_append_text(c, ts[i], strlen(ts[i]), &err), 0);
    }
    assert_int_equal(ty_batch_add_column(b, "user", table_column_type(t, 1), &c, &err), 0);
    for (uint64_t i = 0; i < 3; i++) assert_int_equal(ty_column_append_value(c, &i, &err), 0);
    assert_int_equal(ty_batch_seal(b, &err), 0);
    table_append_result res;
    assert_int_equal(table_append(t, b, NULL, 0, &res, &err), 0);
    assert_int_equal(res.rows, 3);
    ty_batch_destroy(b);
}

static void test_create_flush_restart_drop(void **state) {
    mu_err err;
    storage *s = open_storage();
    catalog_table_def def = events_def("toYYYYMM(ts)", order_by);
    assert_int_equal(storage_create_table(s, &def, false, &err), 0);
    storage_table *ref = NULL;
    assert_int_equal(storage_table_acquire(s, "default", "events", &ref, &err), 0);
    append_rows(storage_table_get(ref));
    assert_int_equal(table_flush(storage_table_get(ref), &err), 0);
    table_version *v = table_version_acquire(storage_table_get(ref));
    assert_int_equal(table_version_part_count(v), 2); /* 202401 and 202402 */
    const char *p0 = part_get_info(table_version_part(v, 0))->partition_value;
    const char *p1 = part_get_info(table_version_part(v, 1))->partition_value;
    assert_true((strcmp(p0, "202401") == 0 && strcmp(p1, "202402") == 0) ||
                (strcmp(p0, "202402") == 0 && strcmp(p1, "202401") == 0));
    table_version_release(v);
    storage_table_release(ref);
    storage_close(s);

    s = open_storage(); /* restart: the table and its parts come back */
    assert_int_equal(storage_table_count(s), 1);
    assert_int_equal(storage_table_acquire(s, "default", "events", &ref, &err), 0);
    v = table_version_acquire(storage_table_get(ref));
    assert_int_equal(table_version_part_count(v), 2);
    table_version_release(v);
    storage_table_release(ref);
    assert_int_equal(storage_drop_table(s, "default", "events", false, &err), 0);
    assert_int_equal(storage_table_acquire(s, "default", "events", &ref, &err),
                     MU_EUNKNOWN_TABLE);
    DIR *d = opendir(parts_dir); /* the table's directory is gone */
    assert_non_null(d);
    struct dirent *e;
    int entries = 0;
    while ((e = readdir(d)) != NULL) entries += e->d_name[0] != '.';
    closedir(d);
    assert_int_equal(entries, 0);
    storage_close(s);
}

static void test_unbindable_definitions_are_refused(void **state) {
    mu_err err;
    storage *s = open_storage_with(NULL); /* no compiler: column names only */
    static const char *const expr_key[] = {"user", "toStartOfHour(ts)"};
    catalog_table_def def = events_def("", expr_key);
    assert_int_equal(storage_create_table(s, &def, false, &err), MU_ENOT_SUPPORTED);
    assert_non_null(strstr(err.message, "toStartOfHour(ts)"));
    storage_close(s);
    s = open_storage();
    static const char *const bad_key[] = {"user", "nosuch(ts)"};
    def = events_def("", bad_key); /* the compiler's error, named by table and clause */
    assert_int_equal(storage_create_table(s, &def, false, &err), MU_EUNKNOWN_FUNCTION);
    assert_non_null(strstr(err.message, "ORDER BY nosuch(ts)"));
    def = events_def("cityHash64(user) % 4", order_by);
    assert_int_equal(storage_create_table(s, &def, false, &err), MU_EUNKNOWN_FUNCTION);
    assert_non_null(strstr(err.message, "PARTITION BY"));
    assert_int_equal(storage_table_count(s), 0);
    storage_close(s);
    s = open_storage(); /* nothing of them was left in the catalog */
    assert_int_equal(storage_table_count(s), 0);
    def = events_def("user", order_by); /* the name is free again */
    assert_int_equal(storage_create_table(s, &def, false, &err), 0);
    storage_close(s);
}

/* ORDER BY (toStartOfHour(ts), user): rows are sorted by the computed key,
 * the parts' key is the (empty) prefix before it; a partition expression
 * that fails on a row refuses the batch before it is logged. */
static void test_expression_keys(void **state) {
    mu_err err;
    storage *s = open_storage();
    static const char *const hour_key[] = {"toStartOfHour(ts)", "user"};
    catalog_table_def def = events_def("checked(user)", hour_key);
    assert_int_equal(storage_create_table(s, &def, false, &err), 0);
    storage_table *ref = NULL;
    assert_int_equal(storage_table_acquire(s, "default", "events", &ref, &err), 0);
    table *t = storage_table_get(ref);
    ty_batch *b = NULL;
    ty_column *c = NULL;
    const char *ts[] = {"2024-01-01 05:10:00", "2024-01-01 03:50:00", "2024-01-01 05:00:00",
                        "2024-01-01 03:00:00"};
    const uint64_t users[] = {1, 1, 2, 99};
    for (uint32_t attempt = 0; attempt < 2; attempt++) {
        uint32_t rows = attempt == 0 ? 4 : 3; /* first with user 99, then without */
        assert_int_equal(ty_batch_create(NULL, &b, &err), 0);
        assert_int_equal(ty_batch_add_column(b, "ts", table_column_type(t, 0), &c, &err), 0);
        for (uint32_t i = 0; i < rows; i++)
            assert_int_equal(ty_column_append_text(c, ts[i], strlen(ts[i]), &err), 0);
        assert_int_equal(ty_batch_add_column(b, "user", table_column_type(t, 1), &c, &err), 0);
        for (uint32_t i = 0; i < rows; i++)
            assert_int_equal(ty_column_append_value(c, &users[i], &err), 0);
        assert_int_equal(ty_batch_seal(b, &err), 0);
        table_append_result res;
        int rc = table_append(t, b, NULL, 0, &res, &err);
        if (attempt == 0) {
            assert_int_equal(rc, MU_EINVAL);
            assert_non_null(strstr(err.message, "user 99 refused"));
        } else {
            assert_int_equal(rc, 0);
        }
        ty_batch_destroy(b);
    }
    assert_int_equal(table_flush(t, &err), 0);
    table_version *v = table_version_acquire(t);
    assert_int_equal(table_version_part_count(v), 2); /* partitions 1 and 2 */
    const part *p = NULL;
    for (uint32_t i = 0; i < 2; i++) {
        const part *candidate = table_version_part(v, i);
        if (strcmp(part_get_info(candidate)->partition_value, "1") == 0) p = candidate;
    }
    assert_non_null(p);
    assert_int_equal(part_get_info(p)->row_count, 2);
    assert_int_equal(part_get_info(p)->key_count, 0);
    ty_column *read = NULL;
    assert_int_equal(ty_column_create(table_column_type(t, 0), NULL, &read, &err), 0);
    assert_int_equal(part_read(p, 0, 0, 1, read, &err), 0);
    const uint32_t *seconds = (const uint32_t *)(const void *)ty_column_values(read);
    assert_true(seconds[0] < seconds[1]); /* 03:50 (hour 3) before 05:10 (hour 5) */
    ty_column_destroy(read);
    table_version_release(v);
    storage_table_release(ref);
    storage_close(s);
}

/* Readers acquire, read a version and release while another thread alters
 * the table twice (add a column, then drop it): every acquire gets an open
 * table, no row is lost, and the sanitizers see no race. */
typedef struct alter_reader {
    storage *s;
    _Atomic bool *stop;
    uint64_t reads;
} alter_reader;

static void *alter_reader_main(void *arg) {
    alter_reader *r = arg;
    mu_err err;
    while (!atomic_load(r->stop)) {
        storage_table *ref = NULL;
        assert_int_equal(storage_table_acquire(r->s, "default", "events", &ref, &err), 0);
        table_version *v = table_version_acquire(storage_table_get(ref));
        uint64_t rows = 0;
        for (uint32_t i = 0; i < table_version_part_count(v); i++)
            rows += part_get_info(table_version_part(v, i))->row_count;
        for (uint32_t i = 0; i < table_version_memtable_count(v); i++)
            rows += memtable_row_count(table_version_memtable(v, i));
        assert_int_equal(rows, 3);
        table_version_release(v);
        storage_table_release(ref);
        r->reads++;
    }
    return NULL;
}

static void test_alter_while_readers_run(void **state) {
    mu_err err;
    storage *s = open_storage();
    catalog_table_def def = events_def("", order_by);
    assert_int_equal(storage_create_table(s, &def, false, &err), 0);
    storage_table *ref = NULL;
    assert_int_equal(storage_table_acquire(s, "default", "events", &ref, &err), 0);
    append_rows(storage_table_get(ref));
    storage_table_release(ref);
    _Atomic bool stop = false;
    alter_reader readers[3];
    pthread_t threads[3];
    for (int i = 0; i < 3; i++) {
        readers[i] = (alter_reader){s, &stop, 0};
        assert_int_equal(pthread_create(&threads[i], NULL, alter_reader_main, &readers[i]), 0);
    }
    catalog_column wider[4] = {columns[0], columns[1], columns[2],
                               {"extra", "String", CATALOG_DEFAULT_DEFAULT, "'x'", "", ""}};
    catalog_table_def altered = def;
    altered.database = NULL;
    altered.name = NULL;
    altered.columns = wider;
    altered.column_count = 4;
    assert_int_equal(storage_alter_table(s, "default", "events", &altered, &err), 0);
    altered.column_count = 3;
    assert_int_equal(storage_alter_table(s, "default", "events", &altered, &err), 0);
    atomic_store(&stop, true);
    for (int i = 0; i < 3; i++) assert_int_equal(pthread_join(threads[i], NULL), 0);
    assert_int_equal(storage_table_acquire(s, "default", "events", &ref, &err), 0);
    assert_int_equal(table_column_count(storage_table_get(ref)), 3);
    storage_table_release(ref);
    storage_close(s);
    s = open_storage(); /* the last definition and every row survive a restart */
    assert_int_equal(storage_table_acquire(s, "default", "events", &ref, &err), 0);
    table_version *v = table_version_acquire(storage_table_get(ref));
    uint64_t rows = 0;
    for (uint32_t i = 0; i < table_version_part_count(v); i++)
        rows += part_get_info(table_version_part(v, i))->row_count;
    assert_int_equal(rows, 3);
    table_version_release(v);
    storage_table_release(ref);
    storage_close(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_create_flush_restart_drop, make_dirs, remove_dirs),
        cmocka_unit_test_setup_teardown(test_alter_while_readers_run, make_dirs, remove_dirs),
        cmocka_unit_test_setup_teardown(test_expression_keys, make_dirs, remove_dirs),
        cmocka_unit_test_setup_teardown(test_unbindable_definitions_are_refused, make_dirs,
                                        remove_dirs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
