/* sql_test_util.h: shared helpers of the sql unit tests: an arena per test,
 * parse-and-format in one call, and the round-trip check
 * format(parse(format(parse(x)))) == format(parse(x)).
 */
#ifndef MUSCLES_SQL_TEST_UTIL_H
#define MUSCLES_SQL_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sql/sql.h"

static inline mu_arena *sqlt_arena(void) {
    mu_arena *arena = NULL;
    mu_err err;
    assert_int_equal(mu_arena_create(&arena, NULL, 64 * 1024, &err), 0);
    return arena;
}

/* Parses text and formats it into out (NUL-terminated); returns the parse or
 * format code. err receives the message. */
static inline int sqlt_format(const char *text, char *out, size_t out_bytes, mu_err *err) {
    mu_arena *arena = sqlt_arena();
    sql_node *stmt = NULL;
    int rc = sql_parse(text, strlen(text), arena, NULL, &stmt, err);
    mu_buf buf;
    mu_buf_init(&buf, 0);
    if (rc == 0) rc = sql_ast_format(stmt, &buf, err);
    if (rc == 0) {
        size_t n = buf.length_bytes < out_bytes - 1 ? buf.length_bytes : out_bytes - 1;
        memcpy(out, buf.data, n);
        out[n] = '\0';
    }
    mu_buf_deinit(&buf);
    mu_arena_destroy(arena);
    return rc;
}

/* Asserts that text parses and that its canonical form is a fixed point. */
static inline void sqlt_round_trip(const char *text) {
    char first[8192], second[8192];
    mu_err err;
    mu_err_clear(&err);
    int rc = sqlt_format(text, first, sizeof(first), &err);
    if (rc != 0) fail_msg("parse failed: %s\n  input: %s", err.message, text);
    rc = sqlt_format(first, second, sizeof(second), &err);
    if (rc != 0)
        fail_msg("re-parse failed: %s\n  input: %s\n  formatted: %s", err.message, text, first);
    if (strcmp(first, second) != 0)
        fail_msg("not stable:\n  input:  %s\n  first:  %s\n  second: %s", text, first, second);
}

#endif
