/* exec_test_util.h: the harness shared by the exec unit tests: one arena,
 * context and builder per test (et), types and columns made from text,
 * constants and calls bound through the public builder API, evaluation,
 * and results rendered as ClickHouse text ("ERR <CODE>: <message>" when
 * binding or evaluation fails). Tests are single-threaded: results live in
 * static buffers until the next call. Each test file picks one style of
 * short names (the end of this file) by defining ET_STYLE_... first.
 */
#ifndef MUSCLES_EXEC_TEST_UTIL_H
#define MUSCLES_EXEC_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "exec/exec.h"

/* ---- per-test state ------------------------------------------------------ */

#define ET_INPUTS_MAX 8
#define ET_TEXT_BYTES (1 << 17)

/* et_setup gives UTC, database "default", version 24.8.1.1, host
 * "muscles-test" and 42 s of uptime; now_us stays 0. Inputs are owned and
 * destroyed by et_teardown. */
typedef struct et_state {
    mu_arena *arena;
    exec_context ctx;
    exec_builder b;
    ty_column *inputs[ET_INPUTS_MAX];
    uint32_t input_count;
    uint32_t rows;         /* rows of the inputs; 1 before the first */
    mu_err err;            /* the failure of the last CALL_ERR, L_ERR or EVAL_ERR */
    bool is_const;         /* ev(): the expression bound to a constant */
    bool render_hex;       /* q(): String/FixedString results as uppercase hex */
    char type_name[256];   /* ev(), q(): the result type's name */
    char text[ET_TEXT_BYTES];
} et_state;

extern et_state et;

int et_setup(void **state);
int et_teardown(void **state);

/* ---- types, columns, rendering ------------------------------------------- */

/* A type that must parse; in_arena NULL: et.arena. */
const ty_type *et_type_in(mu_arena *in_arena, const char *name, size_t bytes);
const ty_type *et_type(const char *name);
const ty_tz *et_zone(const char *name);

/* A column from rows joined by '|' ("\N" is NULL; rows NULL: no rows). */
ty_column *et_column_in(mu_arena *in_arena, const char *type_name, const char *rows);
/* A column of n texts; a NULL text, or one equal to null_text, is NULL. */
ty_column *et_column_values(const char *type_name, const char *const *texts, uint32_t n,
                            const char *null_text);

/* Appends rows [0, rows) of c to out joined by separator; with hex, String
 * and FixedString values that are not NULL as uppercase hex. */
void et_render_rows(const ty_column *c, uint32_t rows, const char *separator, bool hex,
                    mu_buf *out);
/* Row `row` of c as ClickHouse prints it (a static buffer). */
const char *et_render_row(const ty_column *c, uint32_t row);
/* Every row of c joined by '|', in et.text. */
const char *et_render(const ty_column *c);
/* "Type: row0 | row1 | ...", in et.text. */
const char *et_render_typed(const ty_type *type, const ty_column *c);
/* "ERR <code_name>: <message>" into out. */
void et_error_text(char *out, size_t out_bytes, const char *code_name, const char *message);

/* ---- ev(): a small expression language ------------------------------------
 *   f(a, b, ...)    a function call
 *   'text'          a String constant (\' and \\ escapes)
 *   12, -3          an integer literal typed as ClickHouse types it
 *   1.5, -2e3       a Float64 literal (also inf, nan via {Float64:inf})
 *   NULL            the NULL literal (Nullable(Nothing))
 *   {Type:text}     a constant of Type parsed from text ({Type:NULL} is NULL)
 *   $0 .. $7        input columns added with et_input(type, "a|b|\N")
 * The result is the rows joined by '|' ("\N" for NULL) or "ERR
 * <CLICKHOUSE_NAME>: <message>"; et.type_name is the result type ("" after
 * an error). */
void et_input(const char *type_name, const char *rows);
/* Input "0|1|...|n-1", every seventh row (i % 7 == 3) NULL when nulls. */
void et_input_sequence(const char *type_name, uint32_t n, bool nulls);
const char *et_ev(const char *expr);

/* ---- q(): one call from a spec of argument letters ------------------------
 *   s  const String (NUL-terminated)      b  const String (bytes, length)
 *   i  const Int64 literal (narrowest)    u  const UInt64 literal
 *   f  const Float64                      n  NULL
 *   k  const of a type (type, text)       c  column (type, rows joined by '|',
 *                                            "\N" is NULL)
 * Each call has its own arena, UTC context and builder. The result is the
 * rows joined by '|', or "ERR <CODE>: <message>", in one of 8 rotating
 * 4096-byte slots; et.type_name holds the result type's name after a
 * success. */
const char *et_call_spec(const char *fn, const char *spec, ...);

/* ---- expressions on et.b ------------------------------------------------- */

/* A constant of type_name read from text; a NULL text, or one equal to
 * null_text, is NULL. */
exec_expr *et_const_text(const char *type_name, const char *text, const char *null_text);
exec_expr *et_const_uint(uint64_t v);
exec_expr *et_const_int(int64_t v);
exec_expr *et_const_float(double v);
exec_expr *et_const_string(const char *s);
exec_expr *et_const_null(void);
/* Input `index` of `type` without a column (lambda bodies, dates). */
exec_expr *et_param(uint32_t index, const char *type_name);
/* Adds an input column of n texts (NULL text: NULL) and returns it. */
exec_expr *et_input_values(const char *type_name, uint32_t n, const char *const *values);

/* name(args): the code; the arguments are copied into et.arena. */
int et_call_array(const char *name, exec_expr *const *args, uint32_t n, exec_expr **out,
                  mu_err *err);
/* A call that must bind. */
exec_expr *et_call_array_ok(const char *name, exec_expr *const *args, uint32_t n);
/* name(n arguments): must bind; et_call_err: must fail, the code (et.err
 * has the message). */
exec_expr *et_call(const char *name, uint32_t n, ...);
int et_call_err(const char *name, uint32_t n, ...);
/* name(body, np arrays, nc captures): must bind / must fail (et.err). */
exec_expr *et_lambda(const char *name, exec_expr *body, uint32_t np, uint32_t nc, ...);
int et_lambda_err(const char *name, exec_expr *body, uint32_t np, uint32_t nc, ...);

/* "Type: row0 | row1 | ..." of e over et.inputs (one row when constant). */
const char *et_eval(const exec_expr *e);
/* Evaluation over et.rows that must fail: the code (et.err has the message). */
int et_eval_err(const exec_expr *e);

/* e's type name (a static buffer). */
const char *et_type_text(const exec_expr *e);
/* The value of a constant expression (a static buffer). */
const char *et_text(const exec_expr *e);
/* e over inputs, rows joined by '|' (a static buffer). */
const char *et_rows(const exec_expr *e, const ty_column *const *inputs, uint32_t rows);
int et_rows_error(const exec_expr *e, const ty_column *const *inputs, uint32_t rows,
                  mu_err *err);
/* name(args) must fail with code and a message containing fragment. */
void et_expect_call_error(const char *name, exec_expr *const *args, uint32_t n, int code,
                          const char *fragment, int line);

/* ---- aggregates ------------------------------------------------------------
 * et_agg_col(type, "a|b|\N") adds an argument column (NULL text: no rows),
 * et_agg_const(type, text) a constant argument, et_agg_param(type, text) a
 * parameter; et_agg_run(name) binds and runs the aggregate by update_all,
 * update, merged halves, a serialize/deserialize round trip and a merge
 * into an empty state, checks they agree, and returns the result as
 * ClickHouse text ("ERR <CODE>: <message>" when the bind fails);
 * et_agg.type_name holds the result type. et_agg.loose accepts floats that
 * differ in the last bits between paths (split sums round differently). */
#define ET_AGG_MAX 24

typedef struct et_agg_state {
    ty_column *cols[ET_AGG_MAX];
    bool is_const[ET_AGG_MAX];
    uint32_t count;
    ty_column *params[ET_AGG_MAX];
    uint32_t param_count;
    uint32_t rows;
    bool rows_set;
    bool loose;
    bool sketch; /* sampled states: merged halves may differ from one pass */
    char type_name[256];
} et_agg_state;

extern et_agg_state et_agg;

int et_agg_setup(void **state);
int et_agg_teardown(void **state);
void et_agg_reset(void);
void et_agg_col(const char *type_name, const char *rows);
void et_agg_const(const char *type_name, const char *text);
void et_agg_param(const char *type_name, const char *text);
/* Rows when every argument is constant (count()). */
void et_agg_set_rows(uint32_t rows);
/* A column of n rows: row i is text(i) ("\N" is NULL). */
void et_agg_col_gen(const char *type_name, uint32_t n, const char *(*text)(uint32_t i));
const char *et_agg_run(const char *name);
/* Runs name, resets, and returns the result as a number. */
double et_agg_number(const char *name);
/* "i + 1", for et_agg_col_gen. */
const char *et_agg_gen_number(uint32_t i);

/* ---- the styles' short names ---------------------------------------------
 * A test file defines one of these before including this header:
 *   ET_STYLE_EXPRESSIONS  ev("plus($0, {UInt8:1})"), in_col, EXPECT(expr, type, rows)
 *   ET_STYLE_CALL_SPEC    q(fn, "sic", ...), EQ, HEX, I/U casts
 *   ET_STYLE_BUILDER      K, C, U, I, S, NUL, CALL, EVAL, L, P, EXPECT(e, text)
 *   ET_STYLE_DATES        V, S, I, F, NUL, IN, CALL(name, args...), COLUMN, EXPECT
 *   ET_STYLE_AGGREGATES   ag_col, ag_param, ag_run, AG_CHECK over every aggregate path
 * The styles reuse names (EXPECT, I, U, CALL) with different meanings, so
 * one file uses exactly one. */

#if defined(ET_STYLE_EXPRESSIONS)

#define ev(expr) et_ev(expr)
#define in_col(type_name, rows) et_input(type_name, rows)
#define in_col_sequence(type_name, n, nulls) et_input_sequence(type_name, n, nulls)
#define T(name) cmocka_unit_test_setup_teardown(name, et_setup, et_teardown)

/* ev() and its result type in one assertion. */
#define EXPECT(expr, type, rows)                                                            \
    do {                                                                                    \
        const char *got_ = ev(expr);                                                        \
        if (strcmp(got_, rows) != 0 || strcmp(et.type_name, type) != 0)                     \
            fail_msg("%s\n  got      %s :: %s\n  expected %s :: %s", expr, got_,            \
                     et.type_name, rows, type);                                             \
    } while (0)

/* An error whose ClickHouse name is code and whose message contains part. */
#define EXPECT_ERR(expr, code, part)                                                        \
    do {                                                                                    \
        const char *got_ = ev(expr);                                                        \
        if (strncmp(got_, "ERR " code ":", strlen("ERR " code ":")) != 0 ||                 \
            strstr(got_, part) == NULL)                                                     \
            fail_msg("%s\n  got      %s\n  expected ERR %s: ...%s...", expr, got_, code, part); \
    } while (0)

#elif defined(ET_STYLE_CALL_SPEC)

#define q(...) et_call_spec(__VA_ARGS__)
#define EQ(expected, actual) assert_string_equal((actual), (expected))
#define I(x) ((int64_t)(x))
#define U(x) ((uint64_t)(x))
#define HEX(expected, actual)                                                               \
    do {                                                                                    \
        et.render_hex = true;                                                               \
        const char *hex_result_ = (actual);                                                 \
        et.render_hex = false;                                                              \
        assert_string_equal(hex_result_, (expected));                                       \
    } while (0)

#elif defined(ET_STYLE_BUILDER)

#define K(type_name, text) et_const_text(type_name, text, NULL)
#define COL(type_name, n, values) et_input_values(type_name, n, values)
#define ARR(...) ((const char *const[]){__VA_ARGS__})
#define N(...) (sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))
#define C(type, ...) COL(type, N(__VA_ARGS__), ARR(__VA_ARGS__))
#define U(v) et_const_uint(v)
#define I(v) et_const_int(v)
#define S(s) et_const_string(s)
#define NUL() et_const_null()
#define P(index, type_name) et_param(index, type_name)
#define CALL(...) et_call(__VA_ARGS__)
#define CALL_ERR(...) et_call_err(__VA_ARGS__)
#define F(...) et_call(__VA_ARGS__) /* a call in a lambda body */
#define L(...) et_lambda(__VA_ARGS__)
#define L_ERR(...) et_lambda_err(__VA_ARGS__)
#define EVAL(e) et_eval(e)
#define EVAL_ERR(e) et_eval_err(e)

#define EXPECT(e, text) assert_string_equal(EVAL(e), text)
#define EXPECT_ERR(code, msg, call)                                                         \
    do {                                                                                    \
        assert_int_equal(call, code);                                                       \
        assert_string_equal(et.err.message, msg);                                           \
    } while (0)

#elif defined(ET_STYLE_DATES)

/* A constant of `type` read from its text form ("NULL" for NULL). */
#define V(type_name, text) et_const_text(type_name, text, "NULL")
#define S(s) et_const_string(s)
#define I(v) et_const_int(v)
#define F(v) et_const_float(v)
#define NUL() et_const_null()
#define IN(index, type_name) et_param(index, type_name)
#define ARGS(...) ((exec_expr *[]){__VA_ARGS__})
#define NARGS(...) ((uint32_t)(sizeof(ARGS(__VA_ARGS__)) / sizeof(exec_expr *)))
#define CALL(name, ...) et_call_array_ok(name, ARGS(__VA_ARGS__), NARGS(__VA_ARGS__))
#define CALL0(name) et_call_array_ok(name, NULL, 0)
/* A column of n texts ("NULL" for NULL), for et_rows. */
#define COLUMN(type_name, texts, n) et_column_values(type_name, texts, n, "NULL")

#define EXPECT(e, type_text, value_text)                                                    \
    do {                                                                                    \
        exec_expr *e_ = (e);                                                                \
        assert_string_equal(et_type_text(e_), type_text);                                   \
        assert_string_equal(et_text(e_), value_text);                                       \
    } while (0)

/* The value only (type checked elsewhere). */
#define EXPECT_V(e, value_text) assert_string_equal(et_text(e), value_text)

#define EXPECT_ERROR(code, fragment, name, ...)                                             \
    et_expect_call_error(name, ARGS(__VA_ARGS__), NARGS(__VA_ARGS__), code, fragment, __LINE__)

#elif defined(ET_STYLE_AGGREGATES)

#define ag_col(type_name, rows) et_agg_col(type_name, rows)
#define ag_const(type_name, text) et_agg_const(type_name, text)
#define ag_param(type_name, text) et_agg_param(type_name, text)
#define ag_set_rows(rows) et_agg_set_rows(rows)
#define ag_col_gen(type_name, n, text) et_agg_col_gen(type_name, n, text)
#define ag_run(name) et_agg_run(name)
#define ag_reset() et_agg_reset()
#define ag_number(name) et_agg_number(name)
#define ag_setup et_agg_setup
#define ag_teardown et_agg_teardown
#define gen_number et_agg_gen_number

#define AG_EQ(name, expected, type)                                                         \
    do {                                                                                    \
        const char *got_ = ag_run(name);                                                    \
        if (strcmp(got_, expected) != 0)                                                    \
            fail_msg("%s: got %s, want %s", name, got_, expected);                          \
        if ((type) != NULL && strcmp(et_agg.type_name, (type) ? (type) : "") != 0)          \
            fail_msg("%s: type %s, want %s", name, et_agg.type_name, (type) ? (type) : ""); \
    } while (0)
#define AG_CHECK(name, expected, type)                                                      \
    do {                                                                                    \
        AG_EQ(name, expected, type);                                                        \
        ag_reset();                                                                         \
    } while (0)

#endif

#endif
