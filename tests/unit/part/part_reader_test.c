/* part_reader_test.c: goal — prove that damage is always caught and named
 * and never turns into a wrong row: a flipped byte in a column block fails
 * part_read of that granule with MU_ECHECKSUM naming table, part, column,
 * granule, file and offset while other granules and columns still read; a
 * flipped byte or truncation anywhere in marks or manifest fails part_open
 * with MU_ECORRUPT naming the file; missing, truncated, grown, unlisted and
 * wrongly named files are refused; part_verify_files finds damage open
 * does not look for; bad read requests are refused leaving the output
 * untouched; concurrent readers of one part agree; and a part written by
 * an earlier build in format 1 (String as a lengths and a bytes stream,
 * tests/unit/part/fixtures/format1) still reads back its values.
 */
#include "part_test_util.h"

#include <pthread.h>

#define ROWS 1000u
#define GRANULARITY 100u

static ty_column *columns[3];

/* Writes <pt_dir>/<name>: x UInt64 (key, minmax), s Nullable(String), lc
 * LowCardinality(String); 10 granules. */
static const char *write_part(const char *name) {
    mu_err err;
    columns[0] = pt_column("UInt64");
    for (uint64_t i = 0; i < ROWS; i++)
        pt_check(ty_column_append_value(columns[0], &i, &err), &err, "x");
    columns[1] = pt_random_column("Nullable(String)", ROWS);
    columns[2] = pt_random_column("LowCardinality(String)", ROWS);
    static part_column_def defs[3];
    defs[0] = (part_column_def){.name = "x", .type = columns[0]->type, .minmax = true};
    defs[1] = (part_column_def){.name = "s", .type = columns[1]->type};
    defs[2] = (part_column_def){.name = "lc", .type = columns[2]->type};
    static const uint32_t key = 0;
    part_schema schema = {.columns = defs, .column_count = 3, .key_columns = &key,
                          .key_count = 1, .index_granularity = GRANULARITY};
    const char *dir = pt_path(name);
    pt_check(pt_write_part(dir, &schema, columns, ROWS, 333, &err), &err, "write");
    return dir;
}

static int reader_setup(void **state) {
    int rc = pt_setup(state);
    write_part("202401_1_5_0");
    return rc;
}

static int reader_teardown(void **state) {
    for (int i = 0; i < 3; i++) ty_column_destroy(columns[i]);
    return pt_teardown(state);
}

static part *open_ok(void) {
    part *p = NULL;
    mu_err err;
    pt_check(part_open(&p, pt_path("202401_1_5_0"), "default.t", &err), &err, "open");
    return p;
}

static void expect_open_fails(int code, const char *needle) {
    part *p = NULL;
    mu_err err;
    mu_err_clear(&err);
    int rc = part_open(&p, pt_path("202401_1_5_0"), "default.t", &err);
    if (rc != code) fail_msg("open: %s (%s), expected %s", err.message, mu_code_name(rc),
                             mu_code_name(code));
    assert_null(p);
    if (strstr(err.message, needle) == NULL) fail_msg("'%s' lacks '%s'", err.message, needle);
    assert_non_null(strstr(err.message, "table default.t part 202401_1_5_0"));
}

static void test_flipped_block_byte(void **state) {
    (void)state;
    part *p = open_ok();
    /* Granule 3 of x starts at its mark's offset; damage a byte inside it. */
    ty_column *probe = pt_column("UInt64");
    mu_err err;
    pt_check(part_read(p, 0, 0, 3, probe, &err), &err, "read 0..2");
    ty_column_destroy(probe);
    char bin[1024];
    snprintf(bin, sizeof(bin), "%s", pt_path("202401_1_5_0/x.bin"));
    long size = pt_file_size(bin), offset = -1;
    for (long at = 0; at < size && offset < 0; at++) {
        pt_flip_byte(bin, at);
        ty_column *out = pt_column("UInt64");
        mu_err_clear(&err);
        if (part_read(p, 0, 3, 1, out, &err) == MU_ECHECKSUM) offset = at;
        pt_flip_byte(bin, at); /* restore */
        ty_column_destroy(out);
    }
    assert_true(offset > 0);
    pt_flip_byte(bin, offset);
    ty_column *out = pt_column("UInt64");
    assert_int_equal(part_read(p, 0, 0, 10, out, &err), MU_ECHECKSUM);
    assert_int_equal(ty_column_row_count(out), 0); /* left as it was */
    assert_non_null(strstr(err.message, "table default.t part 202401_1_5_0 column x granule 3: "
                                        "checksum mismatch in x.bin at offset"));
    /* Other granules of x and other columns still read. */
    pt_check(part_read(p, 0, 0, 3, out, &err), &err, "granules 0..2");
    pt_check(part_read(p, 0, 4, 6, out, &err), &err, "granules 4..9");
    assert_int_equal(ty_column_row_count(out), 900);
    for (uint32_t i = 1; i < 3; i++) {
        ty_column *got = pt_read_all(p, i);
        pt_assert_rows_equal(columns[i], 0, got, 0, ROWS);
        ty_column_destroy(got);
    }
    mu_err_clear(&err);
    assert_int_equal(part_verify_files(p, &err), MU_ECHECKSUM);
    assert_non_null(strstr(err.message, "x.bin"));
    ty_column_destroy(out);
    part_close(p);
}

/* Every single flipped byte of marks or manifest fails open, naming it. */
static void flip_every_byte(const char *file) {
    char path[1024], name[64];
    snprintf(name, sizeof(name), "202401_1_5_0/%s", file);
    snprintf(path, sizeof(path), "%s", pt_path(name));
    long size = pt_file_size(path);
    assert_true(size > 0);
    for (long at = 0; at < size; at++) {
        pt_flip_byte(path, at);
        expect_open_fails(MU_ECORRUPT, file);
        pt_flip_byte(path, at);
    }
    part_close(open_ok());
}

static void test_flipped_marks_byte(void **state) {
    (void)state;
    flip_every_byte("marks");
}

static void test_flipped_manifest_byte(void **state) {
    (void)state;
    flip_every_byte("manifest");
}

static void truncate_to(const char *path, long size) {
    assert_int_equal(truncate(path, size), 0);
}

static void copy_file(const char *from, const char *to) {
    char command[2048];
    snprintf(command, sizeof(command), "cp '%s' '%s'", from, to);
    assert_int_equal(system(command), 0);
}

/* Truncating manifest or marks at any length, or a .bin by a byte. */
static void test_truncated_files(void **state) {
    (void)state;
    static const char *files[] = {"manifest", "marks"};
    for (int f = 0; f < 2; f++) {
        char name[64], path[1024];
        snprintf(name, sizeof(name), "202401_1_5_0/%s", files[f]);
        snprintf(path, sizeof(path), "%s", pt_path(name));
        long size = pt_file_size(path);
        copy_file(path, pt_path("saved"));
        for (long n = 0; n < size; n += (n < 64 ? 1 : 37)) {
            truncate_to(path, n);
            expect_open_fails(MU_ECORRUPT, files[f]);
            copy_file(pt_path("saved"), path);
        }
    }
    char bin[1024];
    snprintf(bin, sizeof(bin), "%s", pt_path("202401_1_5_0/s.bin"));
    long size = pt_file_size(bin);
    copy_file(bin, pt_path("saved"));
    truncate_to(bin, size - 1);
    expect_open_fails(MU_ECORRUPT, "s.bin");
    FILE *f = fopen(bin, "ab");
    fputs("xy", f);
    fclose(f);
    expect_open_fails(MU_ECORRUPT, "s.bin");
    unlink(bin);
    expect_open_fails(MU_ECORRUPT, "s.bin: missing");
    copy_file(pt_path("saved"), bin);
    part_close(open_ok());
}

static void test_missing_manifest_or_marks(void **state) {
    (void)state;
    rename(pt_path("202401_1_5_0/marks"), pt_path("marks.saved"));
    expect_open_fails(MU_ECORRUPT, "marks");
    rename(pt_path("marks.saved"), pt_path("202401_1_5_0/marks"));
    rename(pt_path("202401_1_5_0/manifest"), pt_path("manifest.saved"));
    expect_open_fails(MU_ECORRUPT, "manifest");
    rename(pt_path("manifest.saved"), pt_path("202401_1_5_0/manifest"));
    part *p = NULL;
    mu_err err;
    assert_int_not_equal(part_open(&p, pt_path("no_such_1_1_0"), NULL, &err), 0);
    part_close(open_ok());
}

static void test_directory_name_checked(void **state) {
    (void)state;
    part *p = NULL;
    mu_err err;
    assert_int_equal(rename(pt_path("202401_1_5_0"), pt_path("202401_1_6_0")), 0);
    assert_int_equal(part_open(&p, pt_path("202401_1_6_0"), "t", &err), MU_ECORRUPT);
    assert_non_null(strstr(err.message, "names part 202401_1_5_0"));
    assert_int_equal(rename(pt_path("202401_1_6_0"), pt_path("tmp_anything")), 0);
    pt_check(part_open(&p, pt_path("tmp_anything/"), "t", &err), &err, "tmp_ name");
    assert_string_equal(part_get_info(p)->name, "202401_1_5_0");
    part_close(p);
    assert_int_equal(rename(pt_path("tmp_anything"), pt_path("202401_1_5_0")), 0);
}

static void test_verify_files(void **state) {
    (void)state;
    part *p = open_ok();
    mu_err err;
    pt_check(part_verify_files(p, &err), &err, "verify");
    /* A flipped byte in the minmax index: open and reads are unaffected,
     * verification names the file. */
    pt_flip_byte(pt_path("202401_1_5_0/idx/minmax_x.idx"), 14);
    part_close(p);
    p = open_ok();
    assert_int_equal(part_verify_files(p, &err), MU_ECHECKSUM);
    assert_non_null(strstr(err.message, "idx/minmax_x.idx"));
    ty_column *got = pt_read_all(p, 0);
    pt_assert_rows_equal(columns[0], 0, got, 0, ROWS);
    ty_column_destroy(got);
    unlink(pt_path("202401_1_5_0/idx/minmax_x.idx"));
    assert_int_equal(part_verify_files(p, &err), MU_ECORRUPT);
    assert_non_null(strstr(err.message, "missing"));
    part_close(p);
}

static void test_bad_read_requests(void **state) {
    (void)state;
    part *p = open_ok();
    mu_err err;
    ty_column *wrong = pt_column("UInt32"), *right = pt_column("UInt64");
    assert_int_equal(part_read(p, 0, 0, 1, wrong, &err), MU_ETYPE);
    assert_int_equal(part_read(p, 0, 10, 1, right, &err), MU_EINVAL);
    assert_int_equal(part_read(p, 0, 5, 6, right, &err), MU_EINVAL);
    assert_int_equal(part_read(p, 0, 11, 0, right, &err), MU_EINVAL);
    assert_int_equal(part_read(p, 0, 10, 0, right, &err), 0);
    assert_int_equal(ty_column_row_count(right), 0);
    /* Appends after existing rows. */
    pt_check(part_read(p, 0, 9, 1, right, &err), &err, "last granule");
    pt_check(part_read(p, 0, 0, 1, right, &err), &err, "first granule");
    assert_int_equal(ty_column_row_count(right), 2 * GRANULARITY);
    pt_assert_rows_equal(columns[0], 900, right, 0, GRANULARITY);
    pt_assert_rows_equal(columns[0], 0, right, GRANULARITY, GRANULARITY);
    ty_column_destroy(wrong);
    ty_column_destroy(right);
    part_close(p);
}

typedef struct reader_thread {
    const part *p;
    int failures;
} reader_thread;

static void *reader_thread_main(void *arg) {
    reader_thread *t = arg;
    for (int round = 0; round < 20; round++) {
        for (uint32_t c = 0; c < 3; c++) {
            ty_column *out = NULL;
            mu_err err;
            if (ty_column_create(part_column_type(t->p, c), NULL, &out, &err) != 0 ||
                part_read(t->p, c, 0, 10, out, &err) != 0) {
                t->failures++;
            } else {
                for (uint32_t r = 0; r < ROWS; r++)
                    t->failures += !ty_column_equal_row(columns[c], r, out, r);
            }
            ty_column_destroy(out);
        }
    }
    return NULL;
}

static void test_concurrent_readers(void **state) {
    (void)state;
    part *p = open_ok();
    pthread_t threads[4];
    reader_thread t[4];
    for (int i = 0; i < 4; i++) {
        t[i] = (reader_thread){.p = p};
        assert_int_equal(pthread_create(&threads[i], NULL, reader_thread_main, &t[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(threads[i], NULL);
        assert_int_equal(t[i].failures, 0);
    }
    part_close(p);
}

/* The fixture: id UInt32, s String, n Nullable(String), a Array(String),
 * lc LowCardinality(String), m Map(String, String); 3 rows, written by
 * muscles 0.1.0 in format 1. Each value is compared as text. */
static void test_reads_format_1_part(void **state) {
    (void)state;
    static const char *const expected[][6] = {
        {"1", "", "NULL", "[]", "x", "{}"},
        {"2", "hello", "world", "['a','bc','']", "y", "{'k':'v'}"},
        {"3", NULL, "", "['long']", "x", "{'a':'','':'b'}"},
    };
    static const char *const names[] = {"id", "s", "n", "a", "lc", "m"};
    part *p = NULL;
    mu_err err;
    pt_check(part_open(&p, MUSCLES_PART_FIXTURES "/format1/all_1_1_0", "default.v1", &err), &err,
             "open format 1");
    assert_int_equal(part_get_info(p)->row_count, 3);
    mu_buf text;
    mu_buf_init(&text, 0);
    for (uint32_t c = 0; c < 6; c++) {
        uint32_t index;
        assert_true(part_column_find(p, names[c], &index));
        ty_column *values = NULL;
        pt_check(ty_column_create(part_column_type(p, index), NULL, &values, &err), &err, "column");
        pt_check(part_read(p, index, 0, 1, values, &err), &err, names[c]);
        assert_int_equal(ty_column_row_count(values), 3);
        for (uint32_t row = 0; row < 3; row++) {
            mu_buf_clear(&text);
            if (ty_column_is_null(values, row)) {
                pt_check(mu_buf_append_str(&text, "NULL", &err), &err, "text");
            } else {
                pt_check(ty_column_render_text(values, row, 0, &text, &err), &err, "render");
            }
            if (expected[row][c] == NULL) { /* repeat('z', 300) */
                assert_int_equal(text.length_bytes, 300);
                assert_int_equal(text.data[0], 'z');
                assert_int_equal(text.data[299], 'z');
                continue;
            }
            if (text.length_bytes != strlen(expected[row][c]) ||
                memcmp(text.data, expected[row][c], text.length_bytes) != 0)
                fail_msg("column %s row %u: '%.*s', expected '%s'", names[c], row,
                         (int)text.length_bytes, (const char *)text.data, expected[row][c]);
        }
        ty_column_destroy(values);
    }
    mu_buf_deinit(&text);
    pt_check(part_verify_files(p, &err), &err, "verify");
    part_close(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_flipped_block_byte, reader_setup, reader_teardown),
        cmocka_unit_test_setup_teardown(test_flipped_marks_byte, reader_setup, reader_teardown),
        cmocka_unit_test_setup_teardown(test_flipped_manifest_byte, reader_setup,
                                        reader_teardown),
        cmocka_unit_test_setup_teardown(test_truncated_files, reader_setup, reader_teardown),
        cmocka_unit_test_setup_teardown(test_missing_manifest_or_marks, reader_setup,
                                        reader_teardown),
        cmocka_unit_test_setup_teardown(test_directory_name_checked, reader_setup,
                                        reader_teardown),
        cmocka_unit_test_setup_teardown(test_verify_files, reader_setup, reader_teardown),
        cmocka_unit_test_setup_teardown(test_bad_read_requests, reader_setup, reader_teardown),
        cmocka_unit_test_setup_teardown(test_concurrent_readers, reader_setup, reader_teardown),
        cmocka_unit_test(test_reads_format_1_part),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
