/* part_minmax_test.c: goal — prove that the minmax index holds each
 * granule's true minimum and maximum (brute force over the rows, in
 * ty_column_compare_rows order: NaN greatest, NULLs skipped and flagged,
 * all-NULL granules without values) for numbers, floats, strings and
 * LowCardinality; that a column without an index is MU_ENOT_FOUND; and
 * that a missing, flipped, truncated or swapped index file fails to load
 * with MU_ECORRUPT naming the file while part_open and part_read are
 * unaffected.
 */
#include "part_test_util.h"

static const char *types[] = {"UInt64", "Int16", "Nullable(Float64)", "String",
                              "Nullable(String)", "LowCardinality(Nullable(String))",
                              "FixedString(3)", "Decimal(38, 5)", "UUID", "Date"};
#define N MU_ARRAY_LEN(types)
#define ROWS 700u
#define GRANULARITY 64u

static ty_column *columns[N + 1];

static int minmax_setup(void **state) {
    int rc = pt_setup(state);
    part_column_def defs[N + 1];
    char names[N + 1][8];
    for (size_t i = 0; i < N; i++) {
        columns[i] = pt_random_column(types[i], ROWS);
        snprintf(names[i], sizeof(names[i]), "m%zu", i);
        defs[i] = (part_column_def){.name = names[i], .type = columns[i]->type, .minmax = true};
    }
    /* A column that is NULL in its whole second granule. */
    columns[N] = pt_column("Nullable(Int32)");
    mu_err err;
    for (uint32_t r = 0; r < ROWS; r++) {
        int32_t v = (int32_t)r - 300;
        if (r / GRANULARITY == 1) {
            pt_check(ty_column_append_null(columns[N], &err), &err, "null");
        } else {
            pt_check(ty_column_append_value(columns[N], &v, &err), &err, "value");
        }
    }
    defs[N] = (part_column_def){.name = "nulls", .type = columns[N]->type, .minmax = true};
    part_column_def plain = {.name = "plain", .type = columns[0]->type};
    part_column_def all[N + 2];
    memcpy(all, defs, sizeof(defs));
    all[N + 1] = plain;
    ty_column *with_plain[N + 2];
    memcpy(with_plain, columns, sizeof(columns));
    with_plain[N + 1] = columns[0];
    part_schema schema = {.columns = all, .column_count = N + 2, .index_granularity = GRANULARITY};
    pt_check(pt_write_part(pt_path("tmp_mm"), &schema, with_plain, ROWS, 100, &err), &err,
             "write");
    return rc;
}

static int minmax_teardown(void **state) {
    for (size_t i = 0; i <= N; i++) ty_column_destroy(columns[i]);
    return pt_teardown(state);
}

static part *open_part(void) {
    part *p = NULL;
    mu_err err;
    pt_check(part_open(&p, pt_path("tmp_mm"), "t", &err), &err, "open");
    return p;
}

/* Brute-force expectations for granule g of column c. */
static void check_granule(const ty_column *c, const part_minmax *m, uint32_t g) {
    uint32_t from = g * GRANULARITY, to = MU_MIN(from + GRANULARITY, ROWS);
    bool has_null = false, has_values = false;
    uint32_t min = 0, max = 0;
    for (uint32_t r = from; r < to; r++) {
        if (ty_column_is_null(c, r)) {
            has_null = true;
            continue;
        }
        if (!has_values || ty_column_compare_rows(c, r, c, min) < 0) min = r;
        if (!has_values || ty_column_compare_rows(c, r, c, max) > 0) max = r;
        has_values = true;
    }
    uint8_t flags = (has_null ? PART_MINMAX_HAS_NULL : 0) |
                    (has_values ? PART_MINMAX_HAS_VALUES : 0);
    assert_int_equal(m->flags[g], flags);
    if (has_values) {
        assert_int_equal(ty_column_compare_rows(m->min, g, c, min), 0);
        assert_int_equal(ty_column_compare_rows(m->max, g, c, max), 0);
    } else {
        assert_true(ty_column_is_null(m->min, g) && ty_column_is_null(m->max, g));
    }
}

static void test_values_match_brute_force(void **state) {
    (void)state;
    part *p = open_part();
    uint32_t granules = part_get_info(p)->granule_count;
    assert_int_equal(granules, (ROWS + GRANULARITY - 1) / GRANULARITY);
    for (uint32_t i = 0; i <= N; i++) {
        part_minmax m;
        mu_err err;
        assert_true(part_column_has_minmax(p, i));
        pt_check(part_minmax_load(p, i, &m, &err), &err, "load");
        assert_int_equal(m.granule_count, granules);
        for (uint32_t g = 0; g < granules; g++) check_granule(columns[i], &m, g);
        part_minmax_deinit(&m);
    }
    part_minmax m;
    mu_err err;
    pt_check(part_minmax_load(p, N, &m, &err), &err, "load nulls");
    assert_int_equal(m.flags[1], PART_MINMAX_HAS_NULL);
    assert_int_equal(m.flags[0], PART_MINMAX_HAS_VALUES);
    part_minmax_deinit(&m);
    assert_false(part_column_has_minmax(p, N + 1));
    assert_int_equal(part_minmax_load(p, N + 1, &m, &err), MU_ENOT_FOUND);
    part_minmax_deinit(&m);
    part_close(p);
}

static void expect_load_corrupt(const part *p, const char *file_name) {
    part_minmax m;
    mu_err err;
    mu_err_clear(&err);
    assert_int_equal(part_minmax_load(p, 0, &m, &err), MU_ECORRUPT);
    assert_null(m.min);
    if (strstr(err.message, file_name) == NULL) fail_msg("'%s' lacks %s", err.message, file_name);
    /* The scan goes on without the index. */
    ty_column *got = pt_read_all(p, 0);
    pt_assert_rows_equal(columns[0], 0, got, 0, ROWS);
    ty_column_destroy(got);
}

static void test_damaged_index_is_ignored(void **state) {
    (void)state;
    char path[1024], saved[1024];
    snprintf(path, sizeof(path), "%s", pt_path("tmp_mm/idx/minmax_m0.idx"));
    snprintf(saved, sizeof(saved), "%s", pt_path("saved.idx"));
    long size = pt_file_size(path);
    part *p = open_part();
    for (long at = 0; at < size; at += 7) {
        pt_flip_byte(path, at);
        expect_load_corrupt(p, "idx/minmax_m0.idx");
        pt_flip_byte(path, at);
    }
    rename(path, saved);
    expect_load_corrupt(p, "idx/minmax_m0.idx");
    part_close(p);
    p = open_part(); /* a missing index does not stop open */
    expect_load_corrupt(p, "idx/minmax_m0.idx");
    /* Another column's index in its place: sizes and checksums differ. */
    char other[1024];
    snprintf(other, sizeof(other), "%s", pt_path("tmp_mm/idx/minmax_m1.idx"));
    char command[3000];
    snprintf(command, sizeof(command), "cp '%s' '%s'", other, path);
    assert_int_equal(system(command), 0);
    expect_load_corrupt(p, "idx/minmax_m0.idx");
    rename(saved, path);
    assert_int_equal(truncate(path, size - 5), 0);
    expect_load_corrupt(p, "idx/minmax_m0.idx");
    part_close(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_values_match_brute_force, minmax_setup,
                                        minmax_teardown),
        cmocka_unit_test_setup_teardown(test_damaged_index_is_ignored, minmax_setup,
                                        minmax_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
