/* types_test_util.h: helpers shared by the src/types unit tests: a
 * per-test arena, parsing a type name that must be valid, and rendering a
 * row or a type into a NUL-terminated string for assert_string_equal.
 */
#ifndef MUSCLES_TYPES_TEST_UTIL_H
#define MUSCLES_TYPES_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "types/types.h"

static mu_arena *tu_arena;

static inline int tu_setup(void **state) {
    (void)state;
    mu_err err;
    return mu_arena_create(&tu_arena, NULL, 4096, &err);
}

static inline int tu_teardown(void **state) {
    (void)state;
    mu_arena_destroy(tu_arena);
    tu_arena = NULL;
    return 0;
}

static inline const ty_type *tu_type(const char *name) {
    const ty_type *t = NULL;
    mu_err err;
    mu_err_clear(&err);
    int rc = ty_type_parse(name, tu_arena, &t, &err);
    if (rc != 0) fail_msg("type %s: %s", name, err.message);
    return t;
}

/* Renders into a static buffer (tests are single-threaded). */
static inline const char *tu_type_text(const ty_type *t) {
    static char text[4096];
    return ty_type_name(t, text, sizeof(text));
}

static inline const char *tu_buf_text(mu_buf *b) {
    static char text[65536];
    size_t n = b->length_bytes < sizeof(text) - 1 ? b->length_bytes : sizeof(text) - 1;
    if (n > 0) memcpy(text, b->data, n);
    text[n] = 0;
    return text;
}

static inline const char *tu_row_text(const ty_column *c, uint32_t row, unsigned flags) {
    mu_buf b;
    mu_err err;
    mu_buf_init(&b, 0);
    int rc = ty_column_render_text(c, row, flags, &b, &err);
    if (rc != 0) fail_msg("render: %s", err.message);
    const char *text = tu_buf_text(&b);
    mu_buf_deinit(&b);
    return text;
}

static inline ty_column *tu_column(const char *type_name) {
    ty_column *c = NULL;
    mu_err err;
    int rc = ty_column_create(tu_type(type_name), NULL, &c, &err);
    if (rc != 0) fail_msg("column %s: %s", type_name, err.message);
    return c;
}

static inline void tu_append(ty_column *c, const char *text) {
    mu_err err;
    mu_err_clear(&err);
    int rc = ty_column_append_text(c, text, strlen(text), &err);
    if (rc != 0) fail_msg("append %s: %s", text, err.message);
}

#endif /* MUSCLES_TYPES_TEST_UTIL_H */
