/* math_test.c: goal: the functions of fn_math.c match ClickHouse's values
 * and result types: rounding keeps the argument's type (floats round half
 * to even, integers and Decimals half away from zero, roundBankers half to
 * even, N negative, constant or per row), libm functions give Float64
 * (Float32 kept by exp, log, tanh), sign is Int8, intExp2/intExp10 UInt64,
 * greatest/least pick in the least supertype and skip NULL and NaN.
 * Constants and columns, NULL rows, edge values (inf, nan, -0, 64-bit
 * limits), and bind errors. Expected values from ClickHouse's source and
 * documentation and from clickhouse-server where it is still current.
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

/* ---- harness: ev(expr) parses a small expression language, binds it
 * through the public builder API, evaluates it and renders the rows:
 *   name(a, b, ...)   a function call (exec_expr_call)
 *   'text'            a String constant (\' and \\ escapes)
 *   12, -3            an integer literal, typed as ClickHouse types it
 *   1.5, -2e3         a Float64 literal
 *   NULL              the NULL literal (Nullable(Nothing))
 *   {Type:text}       a constant of Type parsed from text; {Type:NULL} is NULL
 *   $0 .. $3          an input column set with h2_input(type, "a|b|\N")
 * The result is the rows as ClickHouse text joined by '|' ("\N" for NULL),
 * or "ERR <CODE>: <message>"; h2_type holds the result type's name. ---- */
#define H2_INPUTS_MAX 4

static struct {
    mu_arena *arena;
    exec_context ctx;
    ty_column *inputs[H2_INPUTS_MAX];
    uint32_t input_count;
    uint32_t rows;
    bool is_const; /* the expression bound to a constant */
} h2;
static char h2_type[256];
static char h2_out[8192];

static int h2_setup(void **state) {
    (void)state;
    memset(&h2, 0, sizeof(h2));
    h2.ctx.timezone = ty_tz_utc();
    h2.rows = 1;
    return mu_arena_create(&h2.arena, NULL, 1 << 16, NULL);
}

static int h2_teardown(void **state) {
    (void)state;
    for (uint32_t i = 0; i < h2.input_count; i++) ty_column_destroy(h2.inputs[i]);
    mu_arena_destroy(h2.arena);
    memset(&h2, 0, sizeof(h2));
    return 0;
}

static const ty_type *h2_parse_type(const char *name, size_t bytes) {
    const ty_type *t;
    mu_err err;
    if (ty_type_parse_n(name, bytes, h2.arena, &t, &err) != 0)
        fail_msg("type %.*s: %s", (int)bytes, name, err.message);
    return t;
}

/* Adds input column $n: rows separated by '|', "\N" is NULL. */
static void h2_input(const char *type_name, const char *rows) {
    const ty_type *t = h2_parse_type(type_name, strlen(type_name));
    ty_column *c;
    mu_err err;
    assert_int_equal(ty_column_create(t, NULL, &c, &err), 0);
    for (const char *p = rows;;) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        int rc = n == 2 && memcmp(p, "\\N", 2) == 0 ? ty_column_append_null(c, &err)
                                                     : ty_column_append_text(c, p, n, &err);
        if (rc != 0) fail_msg("input row '%.*s': %s", (int)n, p, err.message);
        if (bar == NULL) break;
        p = bar + 1;
    }
    h2.rows = c->row_count;
    h2.inputs[h2.input_count++] = c;
}

typedef struct h2_parser {
    const char *s;
    size_t pos;
    exec_builder *b;
    mu_err *err;
} h2_parser;

static void h2_skip(h2_parser *p) {
    while (p->s[p->pos] == ' ') p->pos++;
}

static int h2_expr(h2_parser *p, exec_expr **out);

static int h2_typed_const(h2_parser *p, exec_expr **out) {
    const char *start = p->s + p->pos + 1, *colon = strchr(start, ':'), *end = NULL;
    int depth = 0;
    bool quoted = false;
    for (const char *c = colon ? colon + 1 : NULL; c && *c && end == NULL; c++) {
        if (quoted) {
            if (*c == '\\') c++;
            else if (*c == '\'') quoted = false;
        } else if (*c == '\'') {
            quoted = true;
        } else if (*c == '{') {
            depth++;
        } else if (*c == '}' && depth-- == 0) {
            end = c;
        }
    }
    if (end == NULL) fail_msg("bad typed constant at %s", start - 1);
    const ty_type *t = h2_parse_type(start, (size_t)(colon - start));
    ty_column *c;
    assert_int_equal(ty_column_create(t, NULL, &c, p->err), 0);
    size_t n = (size_t)(end - colon - 1);
    int rc = n == 4 && memcmp(colon + 1, "NULL", 4) == 0
                 ? ty_column_append_null(c, p->err)
                 : ty_column_append_text(c, colon + 1, n, p->err);
    if (rc != 0) fail_msg("constant '%.*s': %s", (int)n, colon + 1, p->err->message);
    p->pos = (size_t)(end - p->s) + 1;
    return exec_expr_const_take(p->b, c, out, p->err);
}

static int h2_string(h2_parser *p, exec_expr **out) {
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

static int h2_number(h2_parser *p, exec_expr **out) {
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

static int h2_call(h2_parser *p, exec_expr **out) {
    char name[64];
    size_t n = 0;
    while (isalnum((unsigned char)p->s[p->pos]) || p->s[p->pos] == '_') name[n++] = p->s[p->pos++];
    name[n] = 0;
    if (strcmp(name, "NULL") == 0) return exec_expr_const_null(p->b, out, p->err);
    h2_skip(p);
    if (p->s[p->pos] != '(') fail_msg("expected ( after %s", name);
    p->pos++;
    exec_expr **args = mu_arena_calloc(h2.arena, 16, sizeof(*args), NULL);
    uint32_t count = 0;
    h2_skip(p);
    while (p->s[p->pos] != ')') {
        int rc = h2_expr(p, &args[count++]);
        if (rc != 0) return rc;
        h2_skip(p);
        if (p->s[p->pos] == ',') p->pos++;
        h2_skip(p);
    }
    p->pos++;
    return exec_expr_call(p->b, name, args, count, out, p->err);
}

static int h2_expr(h2_parser *p, exec_expr **out) {
    h2_skip(p);
    char c = p->s[p->pos];
    if (c == '\'') return h2_string(p, out);
    if (c == '{') return h2_typed_const(p, out);
    if (c == '$') {
        uint32_t i = (uint32_t)(p->s[p->pos + 1] - '0');
        p->pos += 2;
        return exec_expr_input(p->b, i, h2.inputs[i]->type, out, p->err);
    }
    if (isdigit((unsigned char)c) || c == '-' || c == '+') return h2_number(p, out);
    return h2_call(p, out);
}

static const char *h2_error(const mu_err *err) {
    snprintf(h2_out, sizeof(h2_out), "ERR %s: %s", mu_code_ch_name(err->code), err->message);
    h2_type[0] = 0;
    return h2_out;
}

/* Renders every row of c joined by '|'. */
static const char *h2_render(const ty_column *c) {
    mu_buf text;
    mu_err err;
    mu_buf_init(&text, 0);
    for (uint32_t r = 0; r < c->row_count; r++) {
        if (r > 0) assert_int_equal(mu_buf_append_u8(&text, '|', &err), 0);
        assert_int_equal(ty_column_render_text(c, r, 0, &text, &err), 0);
    }
    size_t n = text.length_bytes < sizeof(h2_out) - 1 ? text.length_bytes : sizeof(h2_out) - 1;
    if (n > 0) memcpy(h2_out, text.data, n);
    h2_out[n] = 0;
    mu_buf_deinit(&text);
    return h2_out;
}

static const char *ev(const char *expr) {
    exec_builder b;
    mu_err err;
    mu_err_clear(&err);
    assert_int_equal(exec_builder_init(&b, &h2.ctx, h2.arena, &err), 0);
    h2_parser p = {.s = expr, .b = &b, .err = &err};
    exec_expr *e = NULL;
    const char *result;
    if (h2_expr(&p, &e) != 0) {
        result = h2_error(&err);
    } else {
        if (p.s[p.pos] != 0) fail_msg("trailing text in %s", expr);
        ty_type_name(e->type, h2_type, sizeof(h2_type));
        h2.is_const = e->kind == EXEC_EXPR_CONST;
        ty_column *c = NULL;
        uint32_t rows = h2.input_count ? h2.rows : 1;
        if (exec_eval_full(e, &h2.ctx, (const ty_column *const *)h2.inputs, rows, &c, &err) != 0) {
            result = h2_error(&err);
        } else {
            assert_int_equal(ty_column_validate(c, &err), 0);
            assert_int_equal(c->row_count, rows);
            result = h2_render(c);
        }
        ty_column_destroy(c);
    }
    exec_builder_deinit(&b);
    return result;
}

/* ev() and its result type in one assertion. */
#define EXPECT(expr, type, rows)                                                        \
    do {                                                                                \
        const char *got_ = ev(expr);                                                    \
        if (strcmp(got_, rows) != 0 || strcmp(h2_type, type) != 0)                     \
            fail_msg("%s\n  got      %s :: %s\n  expected %s :: %s", expr, got_, h2_type, \
                     rows, type);                                                       \
    } while (0)

/* An error whose ClickHouse name is code and whose message contains part. */
#define EXPECT_ERR(expr, code, part)                                                    \
    do {                                                                                \
        const char *got_ = ev(expr);                                                    \
        if (strncmp(got_, "ERR " code ":", strlen("ERR " code ":")) != 0 ||             \
            strstr(got_, part) == NULL)                                                 \
            fail_msg("%s\n  got      %s\n  expected ERR %s: ...%s...", expr, got_, code, part); \
    } while (0)

/* ---- libm family --------------------------------------------------- */

static void test_unary_values(void **state) {
    (void)state;
    EXPECT("sqrt(2)", "Float64", "1.4142135623730951");
    EXPECT("cbrt(-8)", "Float64", "-2");
    EXPECT("exp(1)", "Float64", "2.718281828459045");
    EXPECT("exp2(10)", "Float64", "1024");
    EXPECT("exp2(0.5)", "Float64", "1.4142135623730951");
    EXPECT("exp10(3)", "Float64", "1000");
    EXPECT("exp10(-1)", "Float64", "0.1");
    EXPECT("log(e())", "Float64", "1");
    EXPECT("ln(1)", "Float64", "0");
    EXPECT("log2(8)", "Float64", "3");
    EXPECT("log10(1000)", "Float64", "3");
    EXPECT("log1p(0)", "Float64", "0");
    EXPECT("sin(0)", "Float64", "0");
    EXPECT("sin(1)", "Float64", "0.8414709848078965");
    EXPECT("cos(0)", "Float64", "1");
    EXPECT("tan(0)", "Float64", "0");
    EXPECT("asin(1)", "Float64", "1.5707963267948966");
    EXPECT("acos(1)", "Float64", "0");
    EXPECT("atan(1)", "Float64", "0.7853981633974483");
    EXPECT("sinh(0)", "Float64", "0");
    EXPECT("cosh(0)", "Float64", "1");
    EXPECT("tanh(0)", "Float64", "0");
    EXPECT("SQRT(16)", "Float64", "4");
    EXPECT("sqrt({Decimal(9, 2):2.25})", "Float64", "1.5");
    EXPECT("sqrt({Bool:true})", "Float64", "1");
}

static void test_unary_edges_and_types(void **state) {
    (void)state;
    EXPECT("sqrt(-1)", "Float64", "nan");
    EXPECT("log(0)", "Float64", "-inf");
    EXPECT("log(-1)", "Float64", "nan");
    EXPECT("exp(1000)", "Float64", "inf");
    EXPECT("sqrt({Float64:inf})", "Float64", "inf");
    EXPECT("sqrt({Float32:4})", "Float64", "2");
    EXPECT("exp({Float32:1})", "Float32", "2.7182817");
    EXPECT("log({Float32:1})", "Float32", "0");
    EXPECT("tanh({Float32:0})", "Float32", "0");
    EXPECT("log2({Float32:8})", "Float64", "3");
    EXPECT_ERR("sqrt('a')", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type String of argument 1 of function sqrt");
    EXPECT_ERR("exp()", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 0, should be 1");
    h2_input("Nullable(Float64)", "4|\\N|-1|0");
    EXPECT("sqrt($0)", "Nullable(Float64)", "2|\\N|nan|0");
    EXPECT("log10($0)", "Nullable(Float64)", "0.6020599913279624|\\N|nan|-inf");
}

static void test_binary_and_constants(void **state) {
    (void)state;
    EXPECT("pow(2, 10)", "Float64", "1024");
    EXPECT("power(2, 0.5)", "Float64", "1.4142135623730951");
    EXPECT("POW(-8, 1)", "Float64", "-8");
    EXPECT("atan2(1, 1)", "Float64", "0.7853981633974483");
    EXPECT("hypot(3, 4)", "Float64", "5");
    EXPECT("pow({Decimal(9, 1):1.5}, 2)", "Float64", "2.25");
    EXPECT("pi()", "Float64", "3.141592653589793");
    EXPECT("e()", "Float64", "2.718281828459045");
    EXPECT_ERR("pi(1)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 1, should be 0");
    EXPECT_ERR("pow(2)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 1, should be 2");
    EXPECT_ERR("pow(2, 'x')", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type String of argument 2 of function pow");
    h2_input("Nullable(Int32)", "2|\\N|-3");
    h2_input("Float64", "3|1|0.5");
    EXPECT("pow($0, $1)", "Nullable(Float64)", "8|\\N|nan");
    EXPECT("pow($0, 2)", "Nullable(Float64)", "4|\\N|9");
    EXPECT("hypot($1, 4)", "Float64", "5|4.123105625617661|4.031128874149275");
    EXPECT("pi()", "Float64", "3.141592653589793|3.141592653589793|3.141592653589793");
}

/* ---- sign, predicates, intExp -------------------------------------- */

static void test_sign_and_predicates(void **state) {
    (void)state;
    EXPECT("sign(-3)", "Int8", "-1");
    EXPECT("sign(0)", "Int8", "0");
    EXPECT("SIGN(toUInt64(18446744073709551615))", "Int8", "1");
    EXPECT("sign(-0.0)", "Int8", "0");
    EXPECT("sign({Float64:nan})", "Int8", "1");
    EXPECT("sign({Float64:-inf})", "Int8", "-1");
    EXPECT("sign({Decimal(9, 1):-1.5})", "Int8", "-1");
    EXPECT("sign({Decimal(38, 2):-123456789012345678901234567890.5})", "Int8", "-1");
    EXPECT("isFinite({Float64:inf})", "UInt8", "0");
    EXPECT("isFinite(5)", "UInt8", "1");
    EXPECT("isInfinite({Float64:-inf})", "UInt8", "1");
    EXPECT("isInfinite({Float32:nan})", "UInt8", "0");
    EXPECT("isNaN({Float64:nan})", "UInt8", "1");
    EXPECT("isNaN(1)", "UInt8", "0");
    EXPECT("isNaN({Decimal(9, 1):1})", "UInt8", "0");
    EXPECT_ERR("isNaN('x')", "ILLEGAL_TYPE_OF_ARGUMENT", "of function isNaN");
    h2_input("Nullable(Float32)", "1|\\N|-2|nan|inf");
    EXPECT("sign($0)", "Nullable(Int8)", "1|\\N|-1|1|1");
    EXPECT("isNaN($0)", "Nullable(UInt8)", "0|\\N|0|1|0");
    EXPECT("isFinite($0)", "Nullable(UInt8)", "1|\\N|1|0|0");
}

static void test_int_exp(void **state) {
    (void)state;
    EXPECT("intExp2(3)", "UInt64", "8");
    EXPECT("intExp2(0)", "UInt64", "1");
    EXPECT("intExp2(63)", "UInt64", "9223372036854775808");
    EXPECT("intExp2(2.9)", "UInt64", "4");
    EXPECT("intExp10(3)", "UInt64", "1000");
    EXPECT("intExp10(19)", "UInt64", "10000000000000000000");
    EXPECT("intExp10(20)", "UInt64", "18446744073709551615");
    EXPECT("intExp10(-1)", "UInt64", "0");
    EXPECT("intExp10(2.9)", "UInt64", "100");
    EXPECT_ERR("intExp2({Decimal(9, 1):1})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type Decimal(9, 1) of argument 1 of function intExp2");
    h2_input("Nullable(Int16)", "1|\\N|10");
    EXPECT("intExp2($0)", "Nullable(UInt64)", "2|\\N|1024");
    EXPECT("intExp10($0)", "Nullable(UInt64)", "10|\\N|10000000000");
}

/* ---- rounding ------------------------------------------------------ */

static void test_round_floats(void **state) {
    (void)state;
    EXPECT("round(2.5)", "Float64", "2");
    EXPECT("round(-2.5)", "Float64", "-2");
    EXPECT("round(3.5)", "Float64", "4");
    EXPECT("round(3.55, 1)", "Float64", "3.6");
    EXPECT("round(3.65, 1)", "Float64", "3.6");
    EXPECT("round(1.005, 2)", "Float64", "1");
    EXPECT("round(4.1267, 2)", "Float64", "4.13");
    EXPECT("round(1234.5678, -2)", "Float64", "1200");
    EXPECT("round({Float32:1.25}, 1)", "Float32", "1.2");
    EXPECT("roundBankers(10.35, 1)", "Float64", "10.4");
    EXPECT("roundBankers(-3.5)", "Float64", "-4");
    EXPECT("floor(123.45, 1)", "Float64", "123.4");
    EXPECT("floor(123.45, -1)", "Float64", "120");
    EXPECT("floor(-0.5)", "Float64", "-1");
    EXPECT("ceil(-0.5)", "Float64", "-0");
    EXPECT("ceiling(1.1)", "Float64", "2");
    EXPECT("trunc(-2.7)", "Float64", "-2");
    EXPECT("truncate(123.499, 1)", "Float64", "123.4");
    EXPECT("round({Float64:inf}, 2)", "Float64", "inf");
    EXPECT("round({Float64:nan})", "Float64", "nan");
    EXPECT("round(1e300, 20)", "Float64", "1e300");
    EXPECT("round(123.456, 400)", "Float64", "123.456");
    EXPECT("round(123.456, -400)", "Float64", "0");
    EXPECT("ROUND(0.5)", "Float64", "0");
}

static void test_round_integers(void **state) {
    (void)state;
    EXPECT("round(467, -2)", "UInt16", "500");
    EXPECT("round(-467, -2)", "Int16", "-500");
    EXPECT("round(15, -1)", "UInt8", "20");
    EXPECT("round(-15, -1)", "Int8", "-20");
    EXPECT("round(25, -1)", "UInt8", "30");
    EXPECT("roundBankers(25, -1)", "UInt8", "20");
    EXPECT("roundBankers(35, -1)", "UInt8", "40");
    EXPECT("roundBankers(-25, -1)", "Int8", "-20");
    EXPECT("floor(-15, -1)", "Int8", "-20");
    EXPECT("ceil(14, -1)", "UInt8", "20");
    EXPECT("trunc(-19, -1)", "Int8", "-10");
    EXPECT("round(255, 2)", "UInt8", "255");
    EXPECT("round(12345, -40)", "UInt16", "0");
    EXPECT("round(toInt64(-9223372036854775807), -18)", "Int64", "-9000000000000000000");
    EXPECT("floor(toUInt64(18446744073709551615), -19)", "UInt64", "10000000000000000000");
}

static void test_round_decimals(void **state) {
    (void)state;
    EXPECT("round({Decimal(9, 3):1.25}, 1)", "Decimal(9, 3)", "1.3");
    EXPECT("round({Decimal(9, 3):-1.25}, 1)", "Decimal(9, 3)", "-1.3");
    EXPECT("roundBankers({Decimal(9, 3):1.25}, 1)", "Decimal(9, 3)", "1.2");
    EXPECT("roundBankers({Decimal(9, 3):1.35}, 1)", "Decimal(9, 3)", "1.4");
    EXPECT("floor({Decimal(9, 2):-1.21}, 1)", "Decimal(9, 2)", "-1.3");
    EXPECT("ceil({Decimal(9, 2):1.21}, 1)", "Decimal(9, 2)", "1.3");
    EXPECT("trunc({Decimal(9, 2):-1.29}, 1)", "Decimal(9, 2)", "-1.2");
    EXPECT("round({Decimal(18, 3):123.456}, -1)", "Decimal(18, 3)", "120");
    EXPECT("round({Decimal(9, 1):1.5})", "Decimal(9, 1)", "2");
    EXPECT("round({Decimal(9, 3):1.234}, 5)", "Decimal(9, 3)", "1.234");
    EXPECT("round({Decimal(38, 10):-12345678901234567890.5}, 0)", "Decimal(38, 10)",
           "-12345678901234567891");
    EXPECT("round({Decimal(9, 2):-0.5}, -50)", "Decimal(9, 2)", "0");
    EXPECT("ceil({Decimal(38, 0):99999999999999999999999999999999999999}, -38)", "Decimal(38, 0)",
           "100000000000000000000000000000000000000");
    EXPECT("round({Decimal(38, 0):-99999999999999999999999999999999999999}, -38)",
           "Decimal(38, 0)", "-100000000000000000000000000000000000000");
    EXPECT("roundBankers({Decimal(38, 0):-50000000000000000000000000000000000000}, -38)",
           "Decimal(38, 0)", "0");
}

static void test_round_columns_and_errors(void **state) {
    (void)state;
    h2_input("Int8", "0|1|-1|2");
    h2_input("Nullable(Float64)", "2.5|\\N|1.15|-1.5");
    EXPECT("round(1234.5678, $0)", "Float64", "1235|1234.6|1230|1234.57");
    EXPECT("round($1)", "Nullable(Float64)", "2|\\N|1|-2");
    EXPECT("floor($1, 1)", "Nullable(Float64)", "2.5|\\N|1.1|-1.5");
    EXPECT("round($1, $0)", "Nullable(Float64)", "2|\\N|0|-1.5");
    EXPECT("round({Decimal(9, 3):5.555}, $0)", "Decimal(9, 3)", "6|5.6|10|5.56");
    EXPECT("round(toInt32(-555), $0)", "Int32", "-555|-555|-560|-555");
    EXPECT_ERR("round(1.5, 1.5)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type Float64 of argument 2 of function round");
    EXPECT_ERR("round('a')", "ILLEGAL_TYPE_OF_ARGUMENT", "Illegal type String of argument 1");
    EXPECT_ERR("floor()", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 0, should be 1 to 2");
    EXPECT_ERR("round(1.5, 40000)", "ARGUMENT_OUT_OF_BOUND",
               "Scale argument for rounding function is too large");
}

/* ---- roundToExp2, roundDown ------------------------------------------ */

static void test_round_to_exp2(void **state) {
    (void)state;
    EXPECT("roundToExp2(5)", "UInt8", "4");
    EXPECT("roundToExp2(16)", "UInt8", "16");
    EXPECT("roundToExp2(0)", "UInt8", "0");
    EXPECT("roundToExp2(0.3)", "Float64", "0.25");
    EXPECT("roundToExp2(-0.3)", "Float64", "-0.25");
    EXPECT("roundToExp2(3.0)", "Float64", "2");
    EXPECT("roundToExp2({Float32:0.7})", "Float32", "0.5");
    EXPECT("roundToExp2({Float64:nan})", "Float64", "inf");
    EXPECT("roundToExp2({Int8:-3})", "Int8", "0");
    EXPECT("roundToExp2({Int16:1000})", "Int16", "512");
    EXPECT("roundToExp2({UInt64:18446744073709551615})", "UInt64", "9223372036854775808");
    EXPECT("roundToExp2({Int64:9223372036854775807})", "Int64", "4611686018427387904");
    EXPECT("roundToExp2({Bool:true})", "UInt8", "1");
    EXPECT("roundToExp2(NULL)", "Nullable(Nothing)", "\\N");
    h2_input("Nullable(UInt32)", "0|1|2|3|100|\\N|4294967295");
    EXPECT("roundToExp2($0)", "Nullable(UInt32)", "0|1|2|2|64|\\N|2147483648");
    EXPECT_ERR("roundToExp2('a')", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type String of argument 1 of function roundToExp2");
    EXPECT_ERR("roundToExp2({Decimal(9, 2):1.5})", "ILLEGAL_TYPE_OF_ARGUMENT", "Decimal(9, 2)");
    EXPECT_ERR("roundToExp2(1, 2)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 2, should be 1");
}

static void test_round_down(void **state) {
    (void)state;
    EXPECT("roundDown(7, {Array(UInt8):[1,5,10]})", "UInt8", "5");
    EXPECT("roundDown(0, {Array(UInt8):[1,5,10]})", "UInt8", "1");
    EXPECT("roundDown(99, {Array(UInt8):[10,5,1,5]})", "UInt8", "10");
    EXPECT("roundDown(-5, {Array(UInt8):[3,10]})", "Int16", "3");
    EXPECT("roundDown(7.9, {Array(UInt8):[1,5,10]})", "Float64", "5");
    EXPECT("roundDown({Decimal(9, 2):5.5}, {Array(UInt8):[1,5]})", "Decimal(9, 2)", "5");
    EXPECT("roundDown(NULL, {Array(UInt8):[1]})", "Nullable(Nothing)", "\\N");
    h2_input("Nullable(Int64)", "-3|0|2|3|4|\\N|100");
    EXPECT("roundDown($0, {Array(Int8):[3,-1,2]})", "Nullable(Int64)", "-1|-1|2|3|3|\\N|3");
    /* 32 boundaries and more: a binary search, same answers. */
    EXPECT("roundDown($0, {Array(UInt8):[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,"
           "22,23,24,25,26,27,28,29,30,31,32,33]})",
           "Nullable(Int64)", "1|1|2|3|4|\\N|33");
    EXPECT_ERR("roundDown('a', {Array(UInt8):[1]})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Unsupported type String of first argument of function roundDown, must be numeric "
               "type.");
    EXPECT_ERR("roundDown(1, 2)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Second argument of function roundDown, must be array of boundaries to round to.");
    EXPECT_ERR("roundDown(1, {Array(String):['a']})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Elements of array of second argument of function roundDown must be numeric type.");
    EXPECT_ERR("roundDown(1, {Array(UInt8):[]})", "BAD_ARGUMENTS",
               "Empty array is illegal for boundaries in roundDown function");
    EXPECT_ERR("roundDown({UInt64:1}, {Array(Int8):[1]})", "NO_COMMON_TYPE", "UInt64, Int8");
    h2_input("Array(UInt8)", "[1]|[2]|[3]|[4]|[5]|[6]|[7]");
    EXPECT_ERR("roundDown(1, $1)", "ILLEGAL_COLUMN",
               "Argument at index 1 for function roundDown must be constant");
}

/* ---- greatest, least ----------------------------------------------- */

static void test_greatest_least_constants(void **state) {
    (void)state;
    EXPECT("greatest(1, 2.5)", "Float64", "2.5");
    EXPECT("least(1, 2.5)", "Float64", "1");
    EXPECT("greatest(1, -2)", "Int16", "1");
    EXPECT("least(1, -2)", "Int16", "-2");
    EXPECT("greatest(1, 2, 3, 0)", "UInt8", "3");
    EXPECT("GREATEST(toUInt64(18446744073709551615), toInt64(-1))", "UInt64",
           "18446744073709551615");
    EXPECT("least(toUInt64(18446744073709551615), toInt64(-1))", "Int64", "-1");
    EXPECT("greatest('a', 'b', 'ab')", "String", "b");
    EXPECT("least('a', 'b', 'ab')", "String", "a");
    EXPECT("greatest(toDate('2020-01-01'), toDateTime('2020-01-01 12:00:00'))", "DateTime",
           "2020-01-01 12:00:00");
    EXPECT("greatest(1, NULL)", "Nullable(UInt8)", "1");
    EXPECT("least(NULL, -1, NULL)", "Nullable(Int8)", "-1");
    EXPECT("least(NULL, NULL)", "Nullable(Nothing)", "\\N");
    EXPECT("greatest({Float64:nan}, 1.0)", "Float64", "1");
    EXPECT("least(1.0, {Float64:nan})", "Float64", "1");
    EXPECT("greatest({Float64:nan})", "Float64", "nan");
    EXPECT("greatest({Decimal(9, 2):1.5}, 2)", "Decimal(9, 2)", "2");
    EXPECT("greatest({Array(UInt8):[1,2]}, {Array(UInt8):[1,3]})", "Array(UInt8)", "[1,3]");
    EXPECT_ERR("greatest()", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
               "Function greatest cannot be called without arguments");
    EXPECT_ERR("least('a', 1)", "NO_COMMON_TYPE", "There is no supertype for types String, UInt8");
}

static void test_greatest_least_columns(void **state) {
    (void)state;
    h2_input("Nullable(Int32)", "1|\\N|5|\\N");
    h2_input("Int64", "3|4|-1|0");
    h2_input("Nullable(Float64)", "\\N|\\N|nan|2.5");
    EXPECT("greatest($0, $1)", "Nullable(Int64)", "3|4|5|0");
    EXPECT("least($0, $1)", "Nullable(Int64)", "1|4|-1|0");
    EXPECT("greatest($1, 0)", "Int64", "3|4|0|0");
    EXPECT("least($0, NULL)", "Nullable(Int32)", "1|\\N|5|\\N");
    EXPECT("greatest($0, $2)", "Nullable(Float64)", "1|\\N|5|2.5");
    /* Three arguments take the least supertype: Float64 and a 64-bit
     * integer have none (no float holds every Int64). */
    EXPECT_ERR("least($2, $1, $0)", "NO_COMMON_TYPE",
               "There is no supertype for types Float64, Int64, Int32 because some of them are "
               "integers and some are floating point, but there is no floating point type, "
               "that can exactly represent all required integers");
    EXPECT("greatest($2)", "Nullable(Float64)", "\\N|\\N|nan|2.5");
}

/* Two numbers that are not Nullable: typed as `if` types them (ClickHouse's
 * binary least/greatest), not by the least supertype. */
static void test_greatest_least_two_numbers(void **state) {
    (void)state;
    EXPECT("greatest({Float32:1.5}, {Int32:2})", "Float64", "2");
    EXPECT("greatest({Float32:1.5}, {Int16:2})", "Float32", "2");
    EXPECT("least({UInt8:200}, {Int8:-1})", "Int16", "-1");
    EXPECT("greatest({UInt32:7}, {Int32:-1})", "Int64", "7");
    EXPECT("greatest({Bool:true}, {Bool:false})", "UInt8", "1");
    EXPECT_ERR("greatest({UInt64:1}, {Int8:-1})", "NOT_IMPLEMENTED", "Int128");
    h2_input("Float64", "0.5|-2|7");
    h2_input("Int64", "1|-3|5");
    EXPECT("greatest($0, $1)", "Float64", "1|-2|7");
    EXPECT("least($1, $0)", "Float64", "0.5|-3|5");
}

int main(void) {
    const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, h2_setup, h2_teardown)
        T(test_unary_values), T(test_unary_edges_and_types), T(test_binary_and_constants),
        T(test_sign_and_predicates), T(test_int_exp), T(test_round_floats),
        T(test_round_integers), T(test_round_decimals), T(test_round_columns_and_errors),
        T(test_round_to_exp2), T(test_round_down),
        T(test_greatest_least_constants), T(test_greatest_least_columns),
        T(test_greatest_least_two_numbers),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
