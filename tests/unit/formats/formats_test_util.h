/* formats_test_util.h: helpers shared by the formats unit tests: build a
 * batch from "name Type" pairs, append values from their ClickHouse text
 * form (NULL for SQL NULL), and render a batch through a writer into a
 * NUL-terminated string. */
#ifndef MUSCLES_FORMATS_TEST_UTIL_H
#define MUSCLES_FORMATS_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "formats/formats.h"

/* A batch with columns given as alternating name, type strings. */
static inline ty_batch *fu_batch(unsigned columns, const char *const *name_types) {
    ty_batch *b;
    mu_err err;
    mu_arena *arena;
    assert_int_equal(ty_batch_create(NULL, &b, &err), 0);
    assert_int_equal(mu_arena_create(&arena, NULL, 4096, &err), 0);
    for (unsigned i = 0; i < columns; i++) {
        const ty_type *t;
        if (ty_type_parse(name_types[2 * i + 1], arena, &t, &err) != 0) fail_msg("%s", err.message);
        assert_int_equal(ty_batch_add_column(b, name_types[2 * i], t, NULL, &err), 0);
    }
    mu_arena_destroy(arena);
    return b;
}

/* Appends one row: values[i] is the text form or NULL for NULL. */
static inline void fu_row(ty_batch *b, const char *const *values) {
    mu_err err;
    for (uint32_t i = 0; i < b->column_count; i++) {
        int rc = values[i] ? ty_column_append_text(b->columns[i], values[i], strlen(values[i]),
                                                   &err)
                           : ty_column_append_null(b->columns[i], &err);
        if (rc != 0) fail_msg("column %u: %s", i, err.message);
    }
    assert_int_equal(ty_batch_seal(b, &err), 0);
}

/* Header + rows + footer of `format` as a malloc'd string (length in *n). */
static inline char *fu_write(const char *format, const ty_batch *b, size_t *n) {
    fmt_kind k = fmt_find(format);
    assert_int_not_equal(k, FMT_UNKNOWN);
    mu_buf out;
    mu_err err;
    mu_buf_init(&out, 0);
    assert_int_equal(fmt_write_header(k, b, &out, &err), 0);
    if (fmt_write_rows(k, b, &out, &err) != 0) fail_msg("%s", err.message);
    assert_int_equal(fmt_write_footer(k, &out, &err), 0);
    char *s = malloc(out.length_bytes + 1);
    assert_non_null(s);
    if (out.length_bytes) memcpy(s, out.data, out.length_bytes);
    s[out.length_bytes] = 0;
    if (n) *n = out.length_bytes;
    mu_buf_deinit(&out);
    return s;
}

/* Asserts that writing b as `format` gives exactly `want` (n bytes). */
static inline void fu_expect_n(const char *format, const ty_batch *b, const char *want,
                               size_t n) {
    size_t got_n;
    char *got = fu_write(format, b, &got_n);
    if (got_n != n || memcmp(got, want, n) != 0)
        fail_msg("%s: got [%s] (%zu bytes), want [%s] (%zu bytes)", format, got, got_n, want, n);
    free(got);
}
#define fu_expect(format, b, want) fu_expect_n((format), (b), (want), strlen(want))

#endif /* MUSCLES_FORMATS_TEST_UTIL_H */
