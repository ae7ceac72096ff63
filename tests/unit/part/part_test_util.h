/* part_test_util.h: helpers shared by the part unit tests: a per-test
 * temporary directory, type parsing, random rows of any type (NULLs,
 * NaN, -0, empty and long strings, nested arrays and maps, repeated
 * dictionary values), column comparison, writing a whole part from
 * columns, and byte patching of files to simulate damage.
 */
#ifndef MUSCLES_PART_TEST_UTIL_H
#define MUSCLES_PART_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/io.h"
#include "storage/part/part.h"

static mu_arena *pt_arena;
static char pt_dir[512];
static uint64_t pt_rng = 0x243F6A8885A308D3ull;

static inline uint64_t pt_rand(void) {
    pt_rng ^= pt_rng << 13;
    pt_rng ^= pt_rng >> 7;
    pt_rng ^= pt_rng << 17;
    return pt_rng;
}

static int pt_remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static inline void pt_remove_tree(const char *path) {
    nftw(path, pt_remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static inline int pt_setup(void **state) {
    (void)state;
    mu_err err;
    const char *base = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
    snprintf(pt_dir, sizeof(pt_dir), "%s/part_test.XXXXXX", base);
    if (mkdtemp(pt_dir) == NULL) return -1;
    mu_log_set_level(MU_LOG_ERROR);
    return mu_arena_create(&pt_arena, NULL, 4096, &err);
}

static inline int pt_teardown(void **state) {
    (void)state;
    mu_failpoints_configure("", NULL);
    pt_remove_tree(pt_dir);
    mu_arena_destroy(pt_arena);
    pt_arena = NULL;
    return 0;
}

/* pt_dir + "/" + name in a static rotating buffer. */
static inline const char *pt_path(const char *name) {
    static char paths[8][1024];
    static int next;
    char *out = paths[next++ % 8];
    int n = snprintf(out, 1024, "%s/%s", pt_dir, name);
    MU_ASSERT(n > 0 && n < 1024);
    return out;
}

static inline const ty_type *pt_type(const char *name) {
    const ty_type *t = NULL;
    mu_err err;
    mu_err_clear(&err);
    if (ty_type_parse(name, pt_arena, &t, &err) != 0) fail_msg("type %s: %s", name, err.message);
    return t;
}

static inline ty_column *pt_column(const char *type_name) {
    ty_column *c = NULL;
    mu_err err;
    if (ty_column_create(pt_type(type_name), NULL, &c, &err) != 0)
        fail_msg("column %s: %s", type_name, err.message);
    return c;
}

static inline void pt_check(int rc, const mu_err *err, const char *what) {
    if (rc != 0) fail_msg("%s: %s (%s)", what, err->message, mu_code_name(rc));
}

/* ------------------------------------------------------------------ */
/* Random rows                                                         */
/* ------------------------------------------------------------------ */

static void pt_random_row(ty_column *c, unsigned depth);

static inline void pt_random_fixed(ty_column *c, const ty_type *v) {
    uint8_t value[16];
    size_t width = ty_type_value_bytes(v);
    for (size_t i = 0; i < width; i++) value[i] = (uint8_t)pt_rand();
    if (v->kind == TY_BOOL) value[0] &= 1;
    if (v->kind == TY_ENUM8) value[0] = (uint8_t)v->enum_entries[pt_rand() % v->enum_count].value;
    if (v->kind == TY_ENUM16)
        mu_store_u16le(value, (uint16_t)v->enum_entries[pt_rand() % v->enum_count].value);
    if (v->kind == TY_FLOAT64 || v->kind == TY_FLOAT32) {
        static const double specials[] = {0.0, -0.0, NAN, INFINITY, -INFINITY, 1.5, -2.25};
        double d = pt_rand() % 3 == 0 ? specials[pt_rand() % 7]
                                      : (double)(int64_t)pt_rand() / 1e6;
        float f = (float)d;
        if (v->kind == TY_FLOAT64) memcpy(value, &d, 8);
        else memcpy(value, &f, 4);
    }
    mu_err err;
    pt_check(ty_column_append_value(c, value, &err), &err, "append value");
}

static inline void pt_random_bytes(ty_column *c, const ty_type *v) {
    char text[400];
    size_t n;
    mu_err err;
    if (v->kind == TY_LOW_CARDINALITY) {
        const ty_type *d = ty_column_child(c, 0)->type;
        if (d->kind != TY_STRING && d->kind != TY_FIXED_STRING) {
            uint8_t value[16] = {0};
            value[0] = (uint8_t)(pt_rand() % 40);
            pt_check(ty_column_append_value(c, value, &err), &err, "append lc value");
            return;
        }
        n = (size_t)snprintf(text, sizeof(text), "v%u", (unsigned)(pt_rand() % 60));
        if (d->kind == TY_FIXED_STRING && n > d->length) n = d->length;
    } else {
        size_t max = v->kind == TY_FIXED_STRING ? v->length : pt_rand() % 10 == 0 ? 399 : 24;
        n = max > 0 ? pt_rand() % (max + 1) : 0;
        for (size_t i = 0; i < n; i++)
            text[i] = (char)(pt_rand() % 8 == 0 ? 0 : 'a' + pt_rand() % 26);
    }
    pt_check(ty_column_append_bytes(c, text, n, &err), &err, "append bytes");
}

static inline void pt_random_row(ty_column *c, unsigned depth) {
    mu_err err;
    if (c->nullable && pt_rand() % 5 == 0) {
        pt_check(ty_column_append_null(c, &err), &err, "append null");
        return;
    }
    const ty_type *v = ty_type_strip_nullable(c->type);
    switch (v->kind) {
    case TY_ARRAY:
    case TY_MAP: {
        unsigned n = depth > 3 ? 0 : (unsigned)(pt_rand() % 4);
        for (unsigned i = 0; i < n; i++) {
            pt_random_row(ty_column_child_mut(c, 0), depth + 1);
            if (v->kind == TY_MAP) pt_random_row(ty_column_child_mut(c, 1), depth + 1);
        }
        pt_check(ty_column_append_nested_end(c, &err), &err, "nested end");
        return;
    }
    case TY_STRING:
    case TY_FIXED_STRING:
    case TY_LOW_CARDINALITY:
        pt_random_bytes(c, v);
        return;
    default:
        pt_random_fixed(c, v);
        return;
    }
}

static inline ty_column *pt_random_column(const char *type_name, uint32_t rows) {
    ty_column *c = pt_column(type_name);
    for (uint32_t i = 0; i < rows; i++) pt_random_row(c, 0);
    return c;
}

/* ------------------------------------------------------------------ */
/* Comparison                                                          */
/* ------------------------------------------------------------------ */

static inline void pt_assert_rows_equal(const ty_column *expected, uint32_t expected_from,
                                        const ty_column *got, uint32_t got_from, uint32_t count) {
    mu_err err;
    if (ty_column_validate(got, &err) != 0) fail_msg("invalid column: %s", err.message);
    for (uint32_t i = 0; i < count; i++) {
        if (!ty_column_equal_row(expected, expected_from + i, got, got_from + i)) {
            char name[128];
            fail_msg("%s: row %u differs", ty_type_name(expected->type, name, sizeof(name)),
                     expected_from + i);
        }
    }
}

/* ------------------------------------------------------------------ */
/* Writing parts                                                       */
/* ------------------------------------------------------------------ */

static inline part_meta pt_meta(void) {
    static const part_token tokens[2] = {{(const uint8_t *)"tok-1", 5},
                                         {(const uint8_t *)"tok-2\0x", 7}};
    part_meta m = {.partition_id = "202401", .partition_value = "2024-01", .lsn_min = 1,
                   .lsn_max = 5, .level = 0, .has_ttl = true, .ttl_min = 100,
                   .ttl_max = 200, .tokens = tokens, .token_count = 2};
    for (int i = 0; i < 16; i++) m.table_uuid[i] = (uint8_t)(i * 17);
    return m;
}

/* Writes columns (all rows, appended in chunks of `chunk` rows) as the
 * part tmp_dir; returns 0 or the first error. */
static inline int pt_write_part(const char *dir, const part_schema *schema,
                                ty_column *const *columns, uint32_t rows, uint32_t chunk,
                                mu_err *err) {
    part_writer *w = NULL;
    int rc = part_writer_open(&w, dir, schema, NULL, err);
    if (rc != 0) return rc;
    for (uint32_t from = 0; rc == 0 && from < rows; from += chunk)
        rc = part_writer_append(w, (const ty_column *const *)columns, from,
                                MU_MIN(chunk, rows - from), err);
    part_meta meta = pt_meta();
    if (rc == 0) rc = part_writer_finish(w, &meta, err);
    if (rc != 0) {
        part_writer_abort(w);
        return rc;
    }
    part_writer_close(w);
    return 0;
}

/* Reads a whole column of an open part into a new column. */
static inline ty_column *pt_read_all(const part *p, uint32_t column_index) {
    ty_column *out = NULL;
    mu_err err;
    mu_err_clear(&err);
    pt_check(ty_column_create(part_column_type(p, column_index), NULL, &out, &err), &err, "create");
    pt_check(part_read(p, column_index, 0, part_get_info(p)->granule_count, out, &err), &err,
             "read");
    return out;
}

/* Flips one bit of the byte at offset (from the end if negative). */
static inline void pt_flip_byte(const char *path, long offset) {
    FILE *f = fopen(path, "r+b");
    if (f == NULL) fail_msg("open %s", path);
    if (offset < 0) {
        fseek(f, 0, SEEK_END);
        offset += ftell(f);
    }
    fseek(f, offset, SEEK_SET);
    int c = fgetc(f);
    fseek(f, offset, SEEK_SET);
    fputc(c ^ 0x10, f);
    fclose(f);
}

static inline long pt_file_size(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    return (long)st.st_size;
}

#endif /* MUSCLES_PART_TEST_UTIL_H */
