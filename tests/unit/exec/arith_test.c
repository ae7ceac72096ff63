/* arith_test.c: goal: the arithmetic functions of fn_arith.c give
 * ClickHouse's result types (NumberTraits), values (wrapping integers,
 * C++ modulo semantics, float division), errors (Division by zero, the
 * minimum by -1, float ranges, Decimal overflow, illegal types) and date
 * and Decimal rules, over constants, columns, mixed constant and column
 * arguments and NULL rows (which never raise a per-value error). Expected
 * values come from ClickHouse's source (DivisionUtils.h, NumberTraits.h,
 * FunctionBinaryArithmetic.h) and were checked against clickhouse-server
 * where its version behaves like the current one.
 */
#include "exec/exec.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* ---- harness: ev(expr) binds and evaluates a small expression language
 * through the public builder API and renders the rows:
 *   f(a, b, ...)    a function call
 *   'text'          a String constant (\' and \\ escapes)
 *   12, -3          an integer literal typed as ClickHouse types it
 *   1.5, -2e3       a Float64 literal (also inf, nan via {Float64:inf})
 *   NULL            the NULL literal
 *   {Type:text}     a constant of Type parsed from text ({Type:NULL} is NULL)
 *   $0 .. $3        input columns added with in_col(type, "a|b|\N")
 * The result is the rows joined by '|' ("\N" for NULL) or
 * "ERR <CLICKHOUSE_NAME>: <message>"; t_type is the result type. ---- */
#define T_INPUTS_MAX 4

static struct {
    mu_arena *arena;
    exec_context ctx;
    ty_column *inputs[T_INPUTS_MAX];
    uint32_t input_count;
    uint32_t rows;
} t;
static char t_type[256];
static char t_out[1 << 17];

static int t_setup(void **state) {
    (void)state;
    memset(&t, 0, sizeof(t));
    t.ctx.timezone = ty_tz_utc();
    t.rows = 1;
    return mu_arena_create(&t.arena, NULL, 1 << 16, NULL);
}

static int t_teardown(void **state) {
    (void)state;
    for (uint32_t i = 0; i < t.input_count; i++) ty_column_destroy(t.inputs[i]);
    mu_arena_destroy(t.arena);
    memset(&t, 0, sizeof(t));
    return 0;
}

static const ty_type *t_parse_type(const char *name, size_t bytes) {
    const ty_type *type;
    mu_err err;
    if (ty_type_parse_n(name, bytes, t.arena, &type, &err) != 0)
        fail_msg("type %.*s: %s", (int)bytes, name, err.message);
    return type;
}

static void in_col(const char *type_name, const char *rows) {
    const ty_type *type = t_parse_type(type_name, strlen(type_name));
    ty_column *c;
    mu_err err;
    assert_int_equal(ty_column_create(type, NULL, &c, &err), 0);
    for (const char *p = rows;;) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        int rc = n == 2 && memcmp(p, "\\N", 2) == 0 ? ty_column_append_null(c, &err)
                                                     : ty_column_append_text(c, p, n, &err);
        if (rc != 0) fail_msg("input row '%.*s': %s", (int)n, p, err.message);
        if (bar == NULL) break;
        p = bar + 1;
    }
    assert_true(t.input_count < T_INPUTS_MAX);
    t.rows = c->row_count;
    t.inputs[t.input_count++] = c;
}

typedef struct t_parser {
    const char *s;
    size_t pos;
    exec_builder *b;
    mu_err *err;
} t_parser;

static int t_expr(t_parser *p, exec_expr **out);

static void t_skip(t_parser *p) {
    while (p->s[p->pos] == ' ') p->pos++;
}

static int t_typed_const(t_parser *p, exec_expr **out) {
    const char *start = p->s + p->pos + 1, *colon = NULL, *end = NULL;
    int depth = 0;
    bool quoted = false;
    for (const char *c = start; *c && end == NULL; c++) {
        if (quoted) {
            if (*c == '\\') c++;
            else if (*c == '\'') quoted = false;
        } else if (*c == '\'') {
            quoted = true;
        } else if (*c == '(' || *c == '{') {
            depth++;
        } else if (*c == ')') {
            depth--;
        } else if (*c == ':' && depth == 0 && colon == NULL) {
            colon = c;
        } else if (*c == '}' && depth-- == 0) {
            end = c;
        }
    }
    if (end == NULL || colon == NULL) fail_msg("bad typed constant at %s", start - 1);
    const ty_type *type = t_parse_type(start, (size_t)(colon - start));
    ty_column *c;
    assert_int_equal(ty_column_create(type, NULL, &c, p->err), 0);
    size_t n = (size_t)(end - colon - 1);
    int rc = n == 4 && memcmp(colon + 1, "NULL", 4) == 0
                 ? ty_column_append_null(c, p->err)
                 : ty_column_append_text(c, colon + 1, n, p->err);
    if (rc != 0) fail_msg("constant '%.*s': %s", (int)n, colon + 1, p->err->message);
    p->pos = (size_t)(end - p->s) + 1;
    return exec_expr_const_take(p->b, c, out, p->err);
}

static int t_string(t_parser *p, exec_expr **out) {
    char text[1024];
    size_t n = 0;
    p->pos++;
    while (p->s[p->pos] != '\'') {
        if (p->s[p->pos] == 0) fail_msg("unterminated string");
        if (p->s[p->pos] == '\\') p->pos++;
        text[n++] = p->s[p->pos++];
    }
    p->pos++;
    return exec_expr_const_string(p->b, text, n, out, p->err);
}

static int t_number(t_parser *p, exec_expr **out) {
    const char *start = p->s + p->pos;
    size_t n = strspn(start, "+-0123456789.eE");
    char text[64];
    memcpy(text, start, n);
    text[n] = 0;
    p->pos += n;
    if (strpbrk(text, ".eE")) return exec_expr_const_float(p->b, strtod(text, NULL), out, p->err);
    if (text[0] == '-') return exec_expr_const_int(p->b, strtoll(text, NULL, 10), out, p->err);
    return exec_expr_const_uint(p->b, strtoull(text, NULL, 10), out, p->err);
}

static int t_call(t_parser *p, exec_expr **out) {
    char name[64];
    size_t n = 0;
    while (isalnum((unsigned char)p->s[p->pos]) || p->s[p->pos] == '_') name[n++] = p->s[p->pos++];
    name[n] = 0;
    if (strcmp(name, "NULL") == 0) return exec_expr_const_null(p->b, out, p->err);
    t_skip(p);
    if (p->s[p->pos] != '(') fail_msg("expected ( after %s", name);
    p->pos++;
    exec_expr **args = mu_arena_calloc(t.arena, 300, sizeof(*args), NULL);
    uint32_t count = 0;
    t_skip(p);
    while (p->s[p->pos] != ')') {
        int rc = t_expr(p, &args[count++]);
        if (rc != 0) return rc;
        t_skip(p);
        if (p->s[p->pos] == ',') p->pos++;
        t_skip(p);
    }
    p->pos++;
    return exec_expr_call(p->b, name, args, count, out, p->err);
}

static int t_expr(t_parser *p, exec_expr **out) {
    t_skip(p);
    char c = p->s[p->pos];
    if (c == '\'') return t_string(p, out);
    if (c == '{') return t_typed_const(p, out);
    if (c == '$') {
        uint32_t i = (uint32_t)(p->s[p->pos + 1] - '0');
        p->pos += 2;
        return exec_expr_input(p->b, i, t.inputs[i]->type, out, p->err);
    }
    if (isdigit((unsigned char)c) || c == '-' || c == '+') return t_number(p, out);
    return t_call(p, out);
}

static const char *t_error(const mu_err *err) {
    snprintf(t_out, sizeof(t_out), "ERR %s: %s", mu_code_ch_name(err->code), err->message);
    t_type[0] = 0;
    return t_out;
}

static const char *t_render(const ty_column *c) {
    mu_buf text;
    mu_err err;
    mu_buf_init(&text, 0);
    for (uint32_t r = 0; r < c->row_count; r++) {
        if (r > 0) assert_int_equal(mu_buf_append_u8(&text, '|', &err), 0);
        assert_int_equal(ty_column_render_text(c, r, 0, &text, &err), 0);
    }
    size_t n = text.length_bytes < sizeof(t_out) - 1 ? text.length_bytes : sizeof(t_out) - 1;
    if (n > 0) memcpy(t_out, text.data, n);
    t_out[n] = 0;
    mu_buf_deinit(&text);
    return t_out;
}

static const char *ev(const char *expr) {
    exec_builder b;
    mu_err err;
    mu_err_clear(&err);
    assert_int_equal(exec_builder_init(&b, &t.ctx, t.arena, &err), 0);
    t_parser p = {.s = expr, .b = &b, .err = &err};
    exec_expr *e = NULL;
    const char *result;
    if (t_expr(&p, &e) != 0) {
        result = t_error(&err);
    } else {
        if (p.s[p.pos] != 0) fail_msg("trailing text in %s", expr);
        ty_type_name(e->type, t_type, sizeof(t_type));
        ty_column *c = NULL;
        uint32_t rows = t.input_count ? t.rows : 1;
        if (exec_eval_full(e, &t.ctx, (const ty_column *const *)t.inputs, rows, &c, &err) != 0) {
            result = t_error(&err);
        } else {
            assert_int_equal(ty_column_validate(c, &err), 0);
            assert_int_equal(c->row_count, rows);
            result = t_render(c);
        }
        ty_column_destroy(c);
    }
    exec_builder_deinit(&b);
    return result;
}

#define EXPECT(expr, type, rows)                                                            \
    do {                                                                                    \
        const char *got_ = ev(expr);                                                        \
        if (strcmp(got_, rows) != 0 || strcmp(t_type, type) != 0)                           \
            fail_msg("%s\n  got      %s :: %s\n  expected %s :: %s", expr, got_, t_type,    \
                     rows, type);                                                           \
    } while (0)

#define EXPECT_ERR(expr, code, part)                                                        \
    do {                                                                                    \
        const char *got_ = ev(expr);                                                        \
        if (strncmp(got_, "ERR " code ":", strlen("ERR " code ":")) != 0 ||                 \
            strstr(got_, part) == NULL)                                                     \
            fail_msg("%s\n  got      %s\n  expected ERR %s: ...%s...", expr, got_, code, part); \
    } while (0)

/* ---- plus / minus / multiply ----------------------------------------- */

static void test_plus_types(void **state) {
    (void)state;
    EXPECT("plus(1, 2)", "UInt16", "3");
    EXPECT("plus({UInt8:255}, {UInt8:1})", "UInt16", "256");
    EXPECT("plus({UInt8:1}, {Int8:-1})", "Int16", "0");
    EXPECT("plus({UInt32:1}, {Int8:-2})", "Int64", "-1");
    EXPECT("plus({UInt16:1}, {UInt32:1})", "UInt64", "2");
    EXPECT("plus({Int64:1}, {Int8:1})", "Int64", "2");
    EXPECT("plus({Float32:1.5}, {Float32:1.5})", "Float64", "3");
    EXPECT("plus({UInt8:1}, {Float32:0.25})", "Float64", "1.25");
    EXPECT("plus(1, 0.5)", "Float64", "1.5");
    EXPECT("plus({Bool:true}, {Bool:true})", "UInt16", "2");
    EXPECT("minus(1, 2)", "Int16", "-1");
    EXPECT("minus({UInt64:0}, {UInt64:1})", "Int64", "-1");
    EXPECT("minus({Int8:-128}, {Int8:1})", "Int16", "-129");
    EXPECT("minus(0.5, {Float32:1})", "Float64", "-0.5");
    EXPECT("multiply({UInt8:255}, {UInt8:255})", "UInt16", "65025");
    EXPECT("multiply({Int32:65536}, {Int32:65536})", "Int64", "4294967296");
    EXPECT("multiply({Int8:-3}, {UInt8:7})", "Int16", "-21");
    EXPECT("multiply(2.5, {Int64:-2})", "Float64", "-5");
}

static void test_plus_wraps(void **state) {
    (void)state;
    EXPECT("plus({UInt64:18446744073709551615}, {UInt64:1})", "UInt64", "0");
    EXPECT("plus({UInt64:18446744073709551615}, {Int64:1})", "Int64", "0");
    EXPECT("plus({Int64:9223372036854775807}, {Int8:1})", "Int64", "-9223372036854775808");
    EXPECT("minus({UInt64:18446744073709551615}, {UInt64:0})", "Int64", "-1");
    EXPECT("minus({Int64:-9223372036854775808}, 1)", "Int64", "9223372036854775807");
    EXPECT("multiply({Int64:-9223372036854775808}, {Int8:-1})", "Int64", "-9223372036854775808");
    EXPECT("multiply({UInt64:4294967296}, {UInt64:4294967296})", "UInt64", "0");
    EXPECT("plus({Float64:1e308}, {Float64:1e308})", "Float64", "inf");
}

static void test_plus_columns(void **state) {
    (void)state;
    in_col("Nullable(Int32)", "1|-2|2147483647|\\N");
    in_col("UInt8", "1|2|3|4");
    EXPECT("plus($0, 1)", "Nullable(Int64)", "2|-1|2147483648|\\N");
    EXPECT("plus(1, $0)", "Nullable(Int64)", "2|-1|2147483648|\\N");
    EXPECT("plus($0, $1)", "Nullable(Int64)", "2|0|2147483650|\\N");
    EXPECT("minus($1, $0)", "Nullable(Int64)", "0|4|-2147483644|\\N");
    EXPECT("multiply($0, $0)", "Nullable(Int64)", "1|4|4611686014132420609|\\N");
    EXPECT("minus($1, 10)", "Int16", "-9|-8|-7|-6");
    EXPECT("multiply($1, 0.5)", "Float64", "0.5|1|1.5|2");
    EXPECT("plus($0, NULL)", "Nullable(Nothing)", "\\N|\\N|\\N|\\N");
    EXPECT("plus($1, {Nullable(UInt8):NULL})", "Nullable(UInt16)", "\\N|\\N|\\N|\\N");
}

static void test_plus_errors(void **state) {
    (void)state;
    EXPECT_ERR("plus('a', 1)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types String and UInt8 of arguments of function plus");
    EXPECT_ERR("multiply(1, {UUID:61f0c404-5cb3-11e7-907b-a6006ad3dba0})",
               "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types UInt8 and UUID of arguments of function multiply");
    EXPECT_ERR("plus(1)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
               "Number of arguments for function plus doesn't match: passed 1, should be 2");
    EXPECT_ERR("minus(1, 2, 3)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 3, should be 2");
    EXPECT_ERR("plus({Array(UInt8):[1]}, {Array(UInt8):[2]})", "NOT_IMPLEMENTED",
               "Function plus over arrays is not supported");
    EXPECT_ERR("plus({Enum8('a' = 1):a}, 1)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types Enum8('a' = 1) and UInt8 of arguments of function plus");
    EXPECT("plus(NULL, 1)", "Nullable(Nothing)", "\\N");
}

/* ---- divide ------------------------------------------------------------ */

static void test_divide(void **state) {
    (void)state;
    EXPECT("divide(1, 2)", "Float64", "0.5");
    EXPECT("divide(1, 0)", "Float64", "inf");
    EXPECT("divide(-1, 0)", "Float64", "-inf");
    EXPECT("divide(0, 0)", "Float64", "nan");
    EXPECT("divide({Float32:1}, {Float32:4})", "Float64", "0.25");
    EXPECT("divide({UInt64:18446744073709551615}, 1)", "Float64", "18446744073709552000");
    EXPECT("divide({Int64:-9223372036854775808}, -2)", "Float64", "4611686018427387904");
    in_col("Nullable(Int16)", "10|0|\\N|-3");
    EXPECT("divide($0, 4)", "Nullable(Float64)", "2.5|0|\\N|-0.75");
    EXPECT("divide(1, $0)", "Nullable(Float64)", "0.1|inf|\\N|-0.3333333333333333");
    EXPECT("divide($0, $0)", "Nullable(Float64)", "1|nan|\\N|1");
}

/* ---- intDiv / intDivOrZero --------------------------------------------- */

static void test_int_div(void **state) {
    (void)state;
    EXPECT("intDiv(7, 2)", "UInt8", "3");
    EXPECT("intDiv(-7, 2)", "Int8", "-3");
    EXPECT("intDiv(7, -2)", "Int8", "-3");
    EXPECT("intDiv({UInt64:18446744073709551615}, 2)", "UInt64", "9223372036854775807");
    EXPECT("intDiv({UInt16:1000}, {UInt64:3})", "UInt16", "333");
    /* Mixed signedness: both are read as signed of their own width. */
    EXPECT("intDiv({UInt8:200}, {Int8:-1})", "Int8", "56");
    EXPECT("intDiv({UInt32:4000000000}, {Int8:2})", "Int32", "-147483648");
    EXPECT("intDiv({Int16:1000}, {UInt8:200})", "Int16", "5");
    EXPECT("intDiv({Int8:100}, {UInt16:65535})", "Int8", "-100");
    EXPECT_ERR("intDiv(1, 0)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT_ERR("intDiv({Int64:-9223372036854775808}, -1)", "ILLEGAL_DIVISION",
               "Division of minimal signed number by minus one");
    EXPECT_ERR("intDiv({Int8:-128}, {Int8:-1})", "ILLEGAL_DIVISION",
               "Division of minimal signed number by minus one");
    EXPECT_ERR("intDiv({Int8:-128}, {Int16:-1})", "ILLEGAL_DIVISION", "minus one");
}

static void test_int_div_floats(void **state) {
    (void)state;
    EXPECT("intDiv(10.5, 3)", "Int64", "3");
    EXPECT("intDiv(-10.5, 3)", "Int64", "-3");
    EXPECT("intDiv({Float32:10}, 3)", "Int32", "3");
    EXPECT("intDiv({UInt8:10}, 2.5)", "Int8", "4");
    EXPECT("intDiv({Int64:9007199254740993}, 1.0)", "Int64", "9007199254740992");
    EXPECT_ERR("intDiv(1.5, 0)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT_ERR("intDiv({Float64:inf}, 1)", "ILLEGAL_DIVISION",
               "Cannot perform integer division on infinite or too large floating point numbers");
    EXPECT_ERR("intDiv(1, {Float64:nan})", "ILLEGAL_DIVISION",
               "Cannot perform integer division on infinite or too large floating point numbers");
    EXPECT_ERR("intDiv(1e300, 1e-300)", "ILLEGAL_DIVISION",
               "Cannot perform integer division, because it will produce infinite or too large "
               "number");
    /* The quotient's range check is not strict, as in ClickHouse. */
    EXPECT_ERR("intDiv({Int8:-128}, 1.0)", "ILLEGAL_DIVISION", "will produce infinite");
    EXPECT("intDiv({Int8:-127}, 1.0)", "Int8", "-127");
}

static void test_int_div_columns(void **state) {
    (void)state;
    in_col("Nullable(Int64)", "-9223372036854775808|7|\\N|-7");
    in_col("Nullable(Int8)", "1|0|0|\\N");
    /* A constant divisor of the same signedness wraps -min (no error). */
    EXPECT("intDiv($0, -1)", "Nullable(Int64)", "-9223372036854775808|-7|\\N|7");
    EXPECT("intDiv($0, 2)", "Nullable(Int64)", "-4611686018427387904|3|\\N|-3");
    /* NULL rows never fail even though their divisor is 0. */
    EXPECT_ERR("intDiv($0, $1)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT("intDivOrZero($0, $1)", "Nullable(Int64)", "-9223372036854775808|0|\\N|\\N");
    EXPECT_ERR("intDiv($0, 0)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT_ERR("intDiv(100, $1)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT("intDivOrZero(100, $1)", "Nullable(Int8)", "100|0|0|\\N");
}

static void test_int_div_nulls(void **state) {
    (void)state;
    in_col("Nullable(UInt32)", "10|\\N|30");
    in_col("Nullable(UInt32)", "\\N|0|3");
    EXPECT("intDiv($0, $1)", "Nullable(UInt32)", "\\N|\\N|10");
    EXPECT("modulo($0, $1)", "Nullable(UInt32)", "\\N|\\N|0");
    EXPECT("gcd($0, $1)", "Nullable(UInt64)", "\\N|\\N|3");
    EXPECT("intDiv($0, NULL)", "Nullable(Nothing)", "\\N|\\N|\\N");
}

static void test_int_div_or_zero(void **state) {
    (void)state;
    EXPECT("intDivOrZero(5, 0)", "UInt8", "0");
    EXPECT("intDivOrZero(5, 2)", "UInt8", "2");
    EXPECT("intDivOrZero({Int64:-9223372036854775808}, -1)", "Int64", "0");
    EXPECT("intDivOrZero(5.5, 0)", "Int64", "0");
    EXPECT_ERR("intDivOrZero({Float64:inf}, 2)", "ILLEGAL_DIVISION", "infinite or too large");
    /* The signed reading of UInt8 128 is the minimum: still an error. */
    EXPECT_ERR("intDivOrZero({UInt8:128}, {Int8:-1})", "ILLEGAL_DIVISION",
               "Division of minimal signed number by minus one");
    EXPECT_ERR("intDivOrZero(1)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 1, should be 2");
}

/* ---- modulo / moduloOrZero ---------------------------------------------- */

static void test_modulo(void **state) {
    (void)state;
    EXPECT("modulo(7, 3)", "UInt8", "1");
    EXPECT("modulo(-7, 3)", "Int16", "-1");
    EXPECT("modulo(7, -3)", "UInt8", "1");
    EXPECT("modulo({UInt32:100}, {UInt8:7})", "UInt8", "2");
    EXPECT("modulo({Int32:-199}, {UInt8:200})", "Int16", "-199");
    /* C++ conversions: Int32 % UInt32 computes in unsigned. */
    EXPECT("modulo({Int32:-1}, {UInt32:3})", "Int64", "0");
    EXPECT("modulo({Int8:-1}, {UInt8:3})", "Int16", "-1");
    EXPECT("modulo({Int64:-1}, {UInt32:3})", "Int64", "-1");
    EXPECT("modulo({UInt64:18446744073709551615}, {Int8:10})", "UInt8", "5");
    EXPECT("modulo(5.5, 2)", "Float64", "1.5");
    EXPECT("modulo(-5.5, 2)", "Float64", "-1.5");
    EXPECT("modulo(5.5, 0)", "Float64", "nan");
    EXPECT("modulo({Float32:7}, {Int8:-2})", "Float64", "1");
    EXPECT_ERR("modulo(1, 0)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT_ERR("modulo({Int64:-9223372036854775808}, {Int64:-1})", "ILLEGAL_DIVISION",
               "Division of minimal signed number by minus one");
    EXPECT_ERR("modulo({Int8:-128}, {Int8:-1})", "ILLEGAL_DIVISION", "minus one");
    EXPECT_ERR("modulo('7', 2)", "ILLEGAL_TYPE_OF_ARGUMENT", "Illegal types String and UInt8");
}

static void test_modulo_columns(void **state) {
    (void)state;
    in_col("Int64", "-9223372036854775808|-7|7|0");
    in_col("Nullable(UInt32)", "4000000000|5|\\N|3");
    /* A constant divisor: -1 and 1 give 0, huge divisors copy. */
    EXPECT("modulo($0, -1)", "Int16", "0|0|0|0");
    EXPECT("modulo($0, 1)", "Int16", "0|0|0|0");
    EXPECT("modulo($0, 4)", "Int16", "0|-3|3|0");
    EXPECT("modulo($0, 3)", "Int16", "-2|-1|1|0");
    EXPECT_ERR("modulo($0, 0)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT_ERR("modulo($0, {Int64:-9223372036854775808})", "ILLEGAL_DIVISION",
               "Division by the most negative number");
    EXPECT("modulo($1, {UInt64:5000000000})", "Nullable(UInt64)", "4000000000|5|\\N|3");
    EXPECT("modulo($1, 7)", "Nullable(UInt8)", "3|5|\\N|3");
    EXPECT("modulo(10, $1)", "Nullable(UInt32)", "10|0|\\N|1");
    EXPECT("moduloOrZero($0, 0)", "Int16", "0|0|0|0");
    EXPECT("moduloOrZero($0, -1)", "Int16", "0|0|0|0");
    EXPECT("modulo($0, $1)", "Nullable(Int64)", "-854775808|-2|\\N|0");
}

static void test_modulo_or_zero(void **state) {
    (void)state;
    EXPECT("moduloOrZero(5, 0)", "UInt8", "0");
    EXPECT("moduloOrZero(-5, 3)", "Int16", "-2");
    EXPECT("moduloOrZero({Int64:-9223372036854775808}, {Int64:-1})", "Int64", "0");
    EXPECT("moduloOrZero(5.5, 0)", "Float64", "nan");
    EXPECT("moduloOrZero(5.5, 2)", "Float64", "1.5");
}

/* ---- negate / abs ------------------------------------------------------- */

static void test_negate_abs(void **state) {
    (void)state;
    EXPECT("negate({UInt8:255})", "Int16", "-255");
    EXPECT("negate({Int8:-128})", "Int8", "-128");
    EXPECT("negate({UInt64:1})", "Int64", "-1");
    EXPECT("negate({UInt32:4294967295})", "Int64", "-4294967295");
    EXPECT("negate(1.5)", "Float64", "-1.5");
    EXPECT("negate({Float32:2.5})", "Float32", "-2.5");
    EXPECT("negate({Bool:true})", "Int16", "-1");
    EXPECT("negate({Decimal(9, 2):1.50})", "Decimal(9, 2)", "-1.5");
    EXPECT("negate({Decimal(38, 2):-12345678901234567890.12})", "Decimal(38, 2)",
           "12345678901234567890.12");
    EXPECT("abs({Int8:-128})", "UInt8", "128");
    EXPECT("abs({Int64:-9223372036854775808})", "UInt64", "9223372036854775808");
    EXPECT("abs(-1.5)", "Float64", "1.5");
    EXPECT("abs({Float32:-0})", "Float32", "0");
    EXPECT("abs({UInt32:5})", "UInt32", "5");
    EXPECT("ABS({Int16:-7})", "UInt16", "7");
    EXPECT("abs({Decimal(18, 3):-1.25})", "Decimal(18, 3)", "1.25");
    in_col("Nullable(Int32)", "-5|\\N|7");
    EXPECT("abs($0)", "Nullable(UInt32)", "5|\\N|7");
    EXPECT("negate($0)", "Nullable(Int32)", "5|\\N|-7");
    EXPECT_ERR("negate('a')", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type String of argument of function negate");
    EXPECT_ERR("abs({Date:2020-01-01})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type Date of argument of function abs");
    EXPECT_ERR("abs(1, 2)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 2, should be 1");
}

/* ---- gcd / lcm ----------------------------------------------------------- */

static void test_gcd_lcm(void **state) {
    (void)state;
    EXPECT("gcd(12, 18)", "UInt16", "6");
    EXPECT("lcm(4, 6)", "UInt16", "12");
    EXPECT("gcd({Int8:-12}, {Int8:18})", "Int16", "6");
    EXPECT("lcm({Int8:-4}, {Int8:6})", "Int16", "12");
    EXPECT("lcm({UInt64:18446744073709551615}, 2)", "UInt64", "18446744073709551614");
    EXPECT("lcm({UInt32:4294967295}, {UInt32:4294967294})", "UInt64", "18446744060824649730");
    EXPECT("gcd({Bool:true}, 5)", "UInt16", "1");
    EXPECT_ERR("gcd(0, 5)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT_ERR("lcm(5, 0)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT_ERR("gcd({Int64:-9223372036854775808}, 2)", "DECIMAL_OVERFLOW",
               "Intermediate result overflow (signed a = -9223372036854775808, signed b = 2, "
               "min = -9223372036854775808, max = 9223372036854775807)");
    EXPECT_ERR("gcd({Int64:-9223372036854775808}, -1)", "ILLEGAL_DIVISION", "minus one");
    EXPECT_ERR("gcd(1.5, 2)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types Float64 and UInt8 of arguments of function gcd");
    EXPECT_ERR("lcm({Decimal(9, 2):1}, 2)", "ILLEGAL_TYPE_OF_ARGUMENT", "function lcm");
    in_col("Nullable(Int32)", "12|\\N|-9|0");
    EXPECT_ERR("gcd($0, 6)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT("gcd(6, {Nullable(Int32):NULL})", "Nullable(Int64)", "\\N|\\N|\\N|\\N");
}

static void test_gcd_columns(void **state) {
    (void)state;
    in_col("Nullable(Int32)", "12|\\N|-9|27");
    in_col("UInt16", "18|0|6|36");
    EXPECT("gcd($0, $1)", "Nullable(Int64)", "6|\\N|3|9");
    EXPECT("lcm($0, $1)", "Nullable(Int64)", "36|\\N|18|108");
    EXPECT_ERR("lcm($1, 4)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT("lcm($0, 4)", "Nullable(Int64)", "12|\\N|36|108");
}

/* ---- dates --------------------------------------------------------------- */

static void test_date_arith(void **state) {
    (void)state;
    EXPECT("plus({Date:2020-01-01}, 1)", "Date", "2020-01-02");
    EXPECT("plus(31, {Date:2020-01-01})", "Date", "2020-02-01");
    EXPECT("minus({Date:2020-01-01}, 1)", "Date", "2019-12-31");
    EXPECT("plus({Date:2149-06-06}, 1)", "Date", "1970-01-01");
    EXPECT("plus({Date:2020-01-01}, 1.9)", "Date", "2020-01-02");
    EXPECT("minus({Date:2020-01-01}, {Int64:-366})", "Date", "2021-01-01");
    EXPECT("plus({Date32:1950-01-01}, 365)", "Date32", "1951-01-01");
    EXPECT("minus({Date32:1950-01-01}, 1)", "Date32", "1949-12-31");
    EXPECT("plus({DateTime:2020-01-01 00:00:00}, 1.9)", "DateTime", "2020-01-01 00:00:01");
    EXPECT("plus({DateTime('Asia/Tokyo'):2020-01-01 00:00:00}, 3600)",
           "DateTime('Asia/Tokyo')", "2020-01-01 01:00:00");
    EXPECT("minus({DateTime:2020-01-01 00:00:00}, 86400)", "DateTime", "2019-12-31 00:00:00");
    EXPECT("plus({DateTime64(3):2020-01-01 00:00:00.250}, 1)", "DateTime64(3)",
           "2020-01-01 00:00:01.250");
    EXPECT("minus({DateTime64(6, 'UTC'):2020-01-01 00:00:00}, 60)", "DateTime64(6, 'UTC')",
           "2019-12-31 23:59:00.000000");
    EXPECT_ERR("minus(1, {Date:2020-01-01})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Wrong order of arguments for function minus: argument of type Interval cannot be "
               "first");
    EXPECT_ERR("plus({Date:2020-01-01}, {Decimal(9, 2):1})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Second argument for function addDays (delta) must be a number");
    EXPECT_ERR("plus({Date:2020-01-01}, {Date:2020-01-01})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types Date and Date of arguments of function plus");
    EXPECT_ERR("multiply({Date:2020-01-01}, 2)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types Date and UInt8 of arguments of function multiply");
    EXPECT_ERR("intDiv({DateTime:2020-01-01 00:00:00}, 60)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types DateTime and UInt8 of arguments of function intDiv");
}

static void test_date_difference(void **state) {
    (void)state;
    EXPECT("minus({Date:2020-01-02}, {Date:2019-01-01})", "Int32", "366");
    EXPECT("minus({Date:2019-01-01}, {Date:2020-01-02})", "Int32", "-366");
    EXPECT("minus({DateTime:2020-01-01 00:01:00}, {DateTime('Asia/Tokyo'):2020-01-01 09:00:00})",
           "Int32", "60");
    EXPECT("minus({DateTime:4294967295}, {DateTime:0})", "Int32", "-1");
    EXPECT("minus({DateTime64(3):2020-01-01 00:00:01.500}, {DateTime64(3):2020-01-01 00:00:00})",
           "Decimal(18, 3)", "1.5");
    EXPECT("minus({DateTime64(3):2020-01-01 00:00:01.500}, {DateTime:2020-01-01 00:00:00})",
           "Decimal(18, 3)", "1.5");
    EXPECT("minus({DateTime:2020-01-01 00:00:00}, {DateTime64(6):2020-01-01 00:00:00.000001})",
           "Decimal(18, 6)", "-0.000001");
    EXPECT_ERR("minus({Date:2020-01-02}, {DateTime:2020-01-01 00:00:00})",
               "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types Date and DateTime of arguments of function minus");
    EXPECT_ERR("minus({Date32:2020-01-02}, {Date32:2020-01-01})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types Date32 and Date32 of arguments of function minus");
    EXPECT("modulo({DateTime:100}, {UInt8:7})", "UInt8", "2");
    EXPECT("modulo({Date:1970-01-11}, {Int32:-3})", "Int32", "1");
    EXPECT("modulo({Date:1970-01-11}, 4.0)", "Float64", "2");
    in_col("Nullable(Date)", "2020-01-01|\\N|2020-02-29");
    in_col("Int32", "1|2|-60");
    EXPECT("plus($0, $1)", "Nullable(Date)", "2020-01-02|\\N|2019-12-31");
    EXPECT("minus($0, {Date:2020-01-01})", "Nullable(Int32)", "0|\\N|59");
}

/* ---- Decimal ------------------------------------------------------------- */

static void test_decimal(void **state) {
    (void)state;
    EXPECT("plus({Decimal(9, 2):1.5}, {Decimal(9, 3):2.25})", "Decimal(9, 3)", "3.75");
    EXPECT("plus({Decimal(9, 2):1.5}, {Decimal(18, 1):2.2})", "Decimal(18, 2)", "3.7");
    EXPECT("minus({Decimal(9, 2):1.5}, {Decimal(38, 4):0.0001})", "Decimal(38, 4)", "1.4999");
    EXPECT("plus({Decimal(9, 2):1.5}, 1)", "Decimal(9, 2)", "2.5");
    EXPECT("minus(1, {Decimal(10, 2):1.5})", "Decimal(10, 2)", "-0.5");
    EXPECT("multiply({Decimal(9, 2):1.5}, 2)", "Decimal(9, 2)", "3");
    EXPECT("multiply({Decimal(9, 2):1.5}, {Decimal(9, 3):2.002})", "Decimal(9, 5)", "3.003");
    EXPECT("divide({Decimal(9, 2):10}, {Decimal(9, 1):3})", "Decimal(9, 2)", "3.33");
    EXPECT("divide({Decimal(9, 2):-10}, 4)", "Decimal(9, 2)", "-2.5");
    EXPECT("divide(1, {Decimal(9, 2):4})", "Decimal(9, 2)", "0.25");
    EXPECT("plus({Decimal(9, 2):1.5}, 0.25)", "Float64", "1.75");
    EXPECT("divide(3.0, {Decimal(18, 1):1.5})", "Float64", "2");
    EXPECT("plus({Decimal(38, 10):12345678901234567890.0123456789}, {Decimal(38, 10):1})",
           "Decimal(38, 10)", "12345678901234567891.0123456789");
    EXPECT_ERR("plus({Decimal(9, 0):999999999}, {UInt32:2000000000})", "DECIMAL_OVERFLOW",
               "Decimal math overflow");
    EXPECT_ERR("multiply({Decimal(18, 0):9999999999}, {Decimal(18, 0):9999999999})",
               "DECIMAL_OVERFLOW", "Decimal math overflow");
    EXPECT_ERR("divide({Decimal(9, 2):1}, 0)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT_ERR("divide({Decimal(9, 2):1}, {Decimal(9, 2):0})", "ILLEGAL_DIVISION",
               "Division by zero");
    EXPECT_ERR("multiply({Decimal(18, 10):1}, {Decimal(18, 10):1})", "ARGUMENT_OUT_OF_BOUND",
               "Scale 20 is out of bounds (max scale: 18)");
    EXPECT_ERR("divide({Decimal(18, 10):1}, {Decimal(18, 10):1})", "DECIMAL_OVERFLOW",
               "Overflow during decimal division");
    EXPECT_ERR("modulo({Decimal(9, 2):1}, 1)", "NOT_IMPLEMENTED",
               "Function modulo is not supported for Decimal arguments");
    EXPECT_ERR("plus({Decimal(9, 2):1}, {Date:2020-01-01})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Second argument for function addDays (delta) must be a number");
    in_col("Nullable(Decimal(9, 2))", "1.25|\\N|-3");
    in_col("Nullable(Decimal(9, 2))", "0|\\N|2");
    EXPECT("plus($0, 1)", "Nullable(Decimal(9, 2))", "2.25|\\N|-2");
    EXPECT("multiply($0, $0)", "Nullable(Decimal(9, 4))", "1.5625|\\N|9");
    EXPECT_ERR("divide($0, $1)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT("divide($1, {Decimal(9, 1):2})", "Nullable(Decimal(9, 2))", "0|\\N|1");
}

/* ---- many rows: kernels work in chunks; every chunk boundary counts --- */

/* "0|1|...|n-1" with every seventh row NULL when nulls is set. */
static void in_col_sequence(const char *type, uint32_t n, bool nulls) {
    size_t cap = (size_t)n * 12 + 1;
    char *text = malloc(cap);
    size_t used = 0;
    for (uint32_t i = 0; i < n; i++) {
        const char *sep = i ? "|" : "";
        if (nulls && i % 7 == 3) used += (size_t)snprintf(text + used, cap - used, "%s\\N", sep);
        else used += (size_t)snprintf(text + used, cap - used, "%s%u", sep, i);
    }
    in_col(type, text);
    free(text);
}

static void test_many_rows(void **state) {
    (void)state;
    const uint32_t n = 3000;
    in_col_sequence("Nullable(Int64)", n, true);
    in_col_sequence("Decimal(18, 2)", n, false);
    const char *exprs[] = {"plus($0, 1)", "intDiv($0, 3)", "modulo($0, 7)", "multiply($1, 2)",
                           "minus({Date:1970-01-01}, $0)", "divide($0, 2)"};
    for (size_t e = 0; e < sizeof(exprs) / sizeof(exprs[0]); e++) {
        const char *got = ev(exprs[e]);
        const char *p = got;
        for (uint32_t i = 0; i < n; i++) {
            char want[64];
            const char *end = strchr(p, '|');
            size_t len = end ? (size_t)(end - p) : strlen(p);
            if (e < 5 && e != 3 && i % 7 == 3) snprintf(want, sizeof(want), "\\N");
            else if (e == 0) snprintf(want, sizeof(want), "%u", i + 1);
            else if (e == 1) snprintf(want, sizeof(want), "%u", i / 3);
            else if (e == 2) snprintf(want, sizeof(want), "%u", i % 7);
            else if (e == 3) snprintf(want, sizeof(want), "%u", i * 2);
            else if (e == 4) {
                int64_t day = (int64_t)(65536 - i) % 65536;
                int64_t y;
                unsigned m, d;
                ty_civil_from_days(day, &y, &m, &d);
                snprintf(want, sizeof(want), "%04lld-%02u-%02u", (long long)y, m, d);
            } else if (i % 7 == 3) snprintf(want, sizeof(want), "\\N");
            else if (i % 2) snprintf(want, sizeof(want), "%u.5", i / 2);
            else snprintf(want, sizeof(want), "%u", i / 2);
            if (len != strlen(want) || memcmp(p, want, len) != 0)
                fail_msg("%s row %u: got %.*s, expected %s", exprs[e], i, (int)len, p, want);
            p = end ? end + 1 : p + len;
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_plus_types, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_plus_wraps, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_plus_columns, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_plus_errors, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_divide, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_int_div, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_int_div_floats, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_int_div_columns, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_int_div_nulls, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_int_div_or_zero, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_modulo, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_modulo_columns, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_modulo_or_zero, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_negate_abs, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_gcd_lcm, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_gcd_columns, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_date_arith, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_date_difference, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_decimal, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_many_rows, t_setup, t_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
