/* table_test.c: goal: table_append stores a batch only when all of it is
 * valid (columns matched by name, missing ones defaulted, values converted
 * strictly, errors naming row, column and value), answers "already stored"
 * for a seen token before and after a restart, replays durable rows on open,
 * and refuses writes after an fsync failure without losing acked rows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "storage/table.h"
#include "storage/wal/wal.h"

static const char *const names[] = {"id", "name", "score"};
static const ty_type *types[3];
static mu_arena *arena;
static char dir[64];

static int setup(void **state) {
    mu_err err;
    assert_int_equal(mu_arena_create(&arena, NULL, 0, &err), 0);
    assert_int_equal(ty_type_parse("UInt64", arena, &types[0], &err), 0);
    assert_int_equal(ty_type_parse("String", arena, &types[1], &err), 0);
    assert_int_equal(ty_type_parse("Nullable(Float64)", arena, &types[2], &err), 0);
    return 0;
}

static int teardown(void **state) {
    mu_arena_destroy(arena);
    return 0;
}

static int make_dir(void **state) {
    snprintf(dir, sizeof(dir), "/tmp/mu_table_test_XXXXXX");
    assert_non_null(mkdtemp(dir));
    return 0;
}

static int remove_dir(void **state) {
    char command[128];
    snprintf(command, sizeof(command), "rm -rf '%s'", dir);
    assert_int_equal(system(command), 0);
    return 0;
}

static table *open_table(void) {
    mu_err err;
    table *t = NULL;
    static char wal_dir[128], parts_dir[128];
    snprintf(wal_dir, sizeof(wal_dir), "%s/wal", dir);
    snprintf(parts_dir, sizeof(parts_dir), "%s/parts", dir);
    table_options opt = {0};
    opt.name = "default.t";
    opt.wal_dir = wal_dir;
    opt.parts_dir = parts_dir;
    opt.column_count = 3;
    opt.column_names = names;
    opt.column_types = types;
    opt.token_window = 100;
    static const uint32_t sort_key[] = {0};
    opt.sort_key = sort_key;
    opt.sort_key_count = 1;
    assert_int_equal(table_open(&t, &opt, &err), 0);
    return t;
}

/* A batch of text columns: cols[i] named col_names[i], all String. */
static ty_batch *text_batch(unsigned ncols, const char *const *col_names, unsigned nrows,
                            const char *const *cells) {
    mu_err err;
    ty_batch *b = NULL;
    assert_int_equal(ty_batch_create(NULL, &b, &err), 0);
    for (unsigned c = 0; c < ncols; c++) {
        ty_column *col = NULL;
        assert_int_equal(ty_batch_add_column(b, col_names[c], types[1], &col, &err), 0);
        for (unsigned r = 0; r < nrows; r++) {
            const char *cell = cells[r * ncols + c];
            assert_int_equal(ty_column_append_bytes(col, cell, strlen(cell), &err), 0);
        }
    }
    assert_int_equal(ty_batch_seal(b, &err), 0);
    return b;
}

/* Rows in parts and memtables of the current version. */
static uint64_t table_rows(table *t) {
    table_version *v = table_version_acquire(t);
    uint64_t rows = 0;
    for (uint32_t i = 0; i < table_version_part_count(v); i++) {
        rows += part_get_info(table_version_part(v, i))->row_count;
    }
    for (uint32_t i = 0; i < table_version_memtable_count(v); i++) {
        rows += memtable_row_count(table_version_memtable(v, i));
    }
    table_version_release(v);
    return rows;
}

static uint64_t stored_rows(table *t) {
    memtable_snapshot s;
    table_snapshot(t, &s);
    return s.row_count;
}

static void test_converts_reorders_and_defaults(void **state) {
    mu_err err;
    table *t = open_table();
    const char *cols[] = {"name", "id"};
    const char *cells[] = {"a", "1", "b", "18446744073709551615"};
    ty_batch *b = text_batch(2, cols, 2, cells);
    table_append_result res;
    assert_int_equal(table_append(t, b, NULL, 0, &res, &err), 0);
    assert_int_equal(res.rows, 2);
    assert_false(res.already_stored);
    ty_batch_destroy(b);
    memtable_snapshot s;
    table_snapshot(t, &s);
    const memtable_chunk *c = memtable_snapshot_next(&s, NULL);
    const uint64_t *ids = (const uint64_t *)(const void *)ty_column_values(c->columns[0]);
    assert_int_equal(ids[0], 1);
    assert_int_equal(ids[1], UINT64_MAX);
    size_t bytes = 0;
    assert_memory_equal(ty_column_row_bytes(c->columns[1], 1, &bytes), "b", 1);
    /* score was missing: Nullable's default is NULL. */
    assert_true(ty_column_is_null(c->columns[2], 0));
    table_close(t);
}

static void test_bad_value_fails_whole_batch(void **state) {
    mu_err err;
    table *t = open_table();
    const char *cols[] = {"id", "score"};
    const char *cells[] = {"1", "0.5", "12x", "1", "3", "2"};
    ty_batch *b = text_batch(2, cols, 3, cells);
    table_append_result res;
    int rc = table_append(t, b, NULL, 0, &res, &err);
    assert_int_equal(rc, MU_EPARSE);
    assert_non_null(strstr(err.message, "row 2, column id"));
    assert_non_null(strstr(err.message, "12x"));
    assert_int_equal(stored_rows(t), 0);
    ty_batch_destroy(b);
    table_close(t);
}

static void test_unknown_column_is_refused(void **state) {
    mu_err err;
    table *t = open_table();
    const char *cols[] = {"id", "nmae"};
    const char *cells[] = {"1", "x"};
    ty_batch *b = text_batch(2, cols, 1, cells);
    table_append_result res;
    assert_int_equal(table_append(t, b, NULL, 0, &res, &err), MU_EUNKNOWN_COLUMN);
    assert_non_null(strstr(err.message, "nmae"));
    assert_int_equal(stored_rows(t), 0);
    ty_batch_destroy(b);
    table_close(t);
}

static void test_token_deduplicates_across_restart(void **state) {
    mu_err err;
    table *t = open_table();
    const char *cols[] = {"id"};
    const char *cells[] = {"1", "2", "3"};
    ty_batch *b = text_batch(1, cols, 3, cells);
    table_append_result res;
    assert_int_equal(table_append(t, b, "tok-1", 5, &res, &err), 0);
    assert_false(res.already_stored);
    assert_int_equal(table_append(t, b, "tok-1", 5, &res, &err), 0);
    assert_true(res.already_stored);
    assert_int_equal(res.rows, 0);
    table_close(t);
    t = open_table(); /* restart: rows and the token come back from the WAL */
    assert_int_equal(stored_rows(t), 3);
    assert_int_equal(table_append(t, b, "tok-1", 5, &res, &err), 0);
    assert_true(res.already_stored);
    assert_int_equal(table_append(t, b, "tok-2", 5, &res, &err), 0);
    assert_false(res.already_stored);
    assert_int_equal(stored_rows(t), 6);
    ty_batch_destroy(b);
    table_close(t);
}

static void test_oversized_token_is_refused(void **state) {
    mu_err err;
    table *t = open_table();
    const char *cols[] = {"id"};
    const char *cells[] = {"1"};
    char token[WAL_TOKEN_BYTES_MAX + 1];
    memset(token, 'x', sizeof(token));
    ty_batch *b = text_batch(1, cols, 1, cells);
    table_append_result res;
    assert_int_equal(table_append(t, b, token, sizeof(token), &res, &err), MU_EINVAL);
    assert_int_equal(stored_rows(t), 0);
    ty_batch_destroy(b);
    table_close(t);
}

/* Appends one row, then makes the next sync fail; returns the open table. */
static table *table_with_failed_log(ty_batch **batch_out) {
    mu_err err;
    table *t = open_table();
    const char *cols[] = {"id"};
    const char *cells[] = {"1"};
    ty_batch *b = text_batch(1, cols, 1, cells);
    table_append_result res;
    assert_int_equal(table_append(t, b, NULL, 0, &res, &err), 0);
    assert_int_equal(mu_failpoints_configure("wal.fsync=error", &err), 0);
    assert_int_equal(table_append(t, b, NULL, 0, &res, &err), MU_EFSYNC);
    assert_int_equal(mu_failpoints_configure("", &err), 0);
    *batch_out = b;
    return t;
}

static void test_fsync_failure_refuses_writes(void **state) {
    if (!mu_failpoints_compiled_in()) skip();
    mu_err err;
    ty_batch *b = NULL;
    table *t = table_with_failed_log(&b);
    table_append_result res;
    assert_int_equal(table_append(t, b, NULL, 0, &res, &err), MU_ETABLE_READONLY);
    assert_non_null(strstr(err.message, "refuses writes"));
    assert_int_equal(table_write_state(t, &err), MU_ETABLE_READONLY);
    assert_int_equal(stored_rows(t), 1);
    table_close(t);
    /* The acknowledged row is still there; the refused one may be too (its
     * bytes reached the file before the injected sync error): an
     * unacknowledged batch is whole or absent. */
    t = open_table();
    assert_true(table_rows(t) == 1 || table_rows(t) == 2);
    ty_batch_destroy(b);
    table_close(t);
}

static void test_flush_after_fsync_failure_resumes_writes(void **state) {
    if (!mu_failpoints_compiled_in()) skip();
    mu_err err;
    ty_batch *b = NULL;
    table *t = table_with_failed_log(&b);
    /* SYSTEM FLUSH puts every acknowledged row in a part, after which the
     * log starts a new segment and writes are accepted again. */
    assert_int_equal(table_flush(t, &err), 0);
    assert_int_equal(table_write_state(t, &err), 0);
    table_append_result res;
    assert_int_equal(table_append(t, b, NULL, 0, &res, &err), 0);
    assert_false(res.already_stored);
    assert_int_equal(table_rows(t), 2);
    table_close(t);
    t = open_table(); /* the part plus the row in the new segment */
    assert_int_equal(table_rows(t), 2);
    ty_batch_destroy(b);
    table_close(t);
}

static void test_flush_moves_rows_to_parts_and_checkpoints(void **state) {
    mu_err err;
    table *t = open_table();
    const char *cols[] = {"id", "name"};
    const char *cells[] = {"3", "c", "1", "a", "2", "b"};
    ty_batch *b = text_batch(2, cols, 3, cells);
    table_append_result res;
    assert_int_equal(table_append(t, b, "tok", 3, &res, &err), 0);
    assert_int_equal(table_flush(t, &err), 0);
    table_version *v = table_version_acquire(t);
    assert_int_equal(table_version_part_count(v), 1);
    const part *p = table_version_part(v, 0);
    assert_int_equal(part_get_info(p)->row_count, 3);
    ty_column *ids = NULL;
    assert_int_equal(ty_column_create(types[0], NULL, &ids, &err), 0);
    assert_int_equal(part_read(p, 0, 0, 1, ids, &err), 0);
    const uint64_t *values = (const uint64_t *)(const void *)ty_column_values(ids);
    assert_int_equal(values[0], 1); /* sorted by the sort key (id) */
    assert_int_equal(values[2], 3);
    ty_column_destroy(ids);
    table_version_release(v);
    table_close(t);
    /* After the restart the token comes from the part's manifest: the WAL
     * segment that held it was checkpointed away. */
    t = open_table();
    assert_int_equal(table_rows(t), 3);
    assert_int_equal(table_append(t, b, "tok", 3, &res, &err), 0);
    assert_true(res.already_stored);
    ty_batch_destroy(b);
    table_close(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_converts_reorders_and_defaults, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_bad_value_fails_whole_batch, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_unknown_column_is_refused, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_token_deduplicates_across_restart, make_dir,
                                        remove_dir),
        cmocka_unit_test_setup_teardown(test_oversized_token_is_refused, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_fsync_failure_refuses_writes, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_flush_after_fsync_failure_resumes_writes, make_dir,
                                        remove_dir),
        cmocka_unit_test_setup_teardown(test_flush_moves_rows_to_parts_and_checkpoints, make_dir,
                                        remove_dir),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
