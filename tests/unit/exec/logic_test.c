/* logic_test.c: goal: and, or, xor, not, if and multiIf of fn_logic.c
 * behave like ClickHouse's: and/or use three-valued logic with NULLs and
 * give UInt8, Nullable(UInt8) or Bool; xor and not use the default NULL
 * handling; if/multiIf take UInt8 conditions (NULL is false) and return
 * the least supertype of their branches, converting numbers, Decimal,
 * dates, strings, Nullable and Nothing branches and arrays; errors are
 * ClickHouse's words. Over constants, columns and mixes of the two.
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

/* ---- and / or --------------------------------------------------------- */

static void test_and_or_constants(void **state) {
    (void)state;
    EXPECT("and(1, 1)", "UInt8", "1");
    EXPECT("and(0, 1)", "UInt8", "0");
    EXPECT("and(1, 2, 3)", "UInt8", "1");
    EXPECT("and(1, 1, 1, 1, 1, 1, 1, 1, 1, 0)", "UInt8", "0");
    EXPECT("or(0, 0)", "UInt8", "0");
    EXPECT("or(0, 0.5)", "UInt8", "1");
    EXPECT("or({Int64:-1}, 0)", "UInt8", "1");
    EXPECT("and({Float64:nan}, 1)", "UInt8", "1");
    EXPECT("and({Float64:-0}, 1)", "UInt8", "0");
    EXPECT("and(NULL, 1)", "Nullable(UInt8)", "\\N");
    EXPECT("and(NULL, 0)", "Nullable(UInt8)", "0");
    EXPECT("and(0, NULL)", "Nullable(UInt8)", "0");
    EXPECT("or(NULL, 1)", "Nullable(UInt8)", "1");
    EXPECT("or(NULL, 0)", "Nullable(UInt8)", "\\N");
    EXPECT("and(NULL, NULL)", "Nullable(UInt8)", "\\N");
    EXPECT("and({Bool:true}, 1)", "Bool", "true");
    EXPECT("or({Bool:false}, {Nullable(UInt8):NULL})", "Nullable(Bool)", "\\N");
}

static void test_and_or_columns(void **state) {
    (void)state;
    in_col("Nullable(UInt8)", "1|0|\\N|\\N|1");
    in_col("Nullable(Int32)", "1|\\N|0|\\N|5");
    in_col("Float32", "0|1|0.5|0|nan");
    EXPECT("and($0, $1)", "Nullable(UInt8)", "1|0|0|\\N|1");
    EXPECT("or($0, $1)", "Nullable(UInt8)", "1|\\N|\\N|\\N|1");
    EXPECT("and($0, 1)", "Nullable(UInt8)", "1|0|\\N|\\N|1");
    EXPECT("and($0, 0)", "Nullable(UInt8)", "0|0|0|0|0");
    EXPECT("or(1, $1)", "Nullable(UInt8)", "1|1|1|1|1");
    EXPECT("and($2, 1)", "UInt8", "0|1|1|0|1");
    EXPECT("or($2, $2, $2)", "UInt8", "0|1|1|0|1");
    EXPECT("and($0, $1, $2)", "Nullable(UInt8)", "0|0|0|0|1");
    EXPECT("or($0, NULL)", "Nullable(UInt8)", "1|\\N|\\N|\\N|1");
}

static void test_and_or_errors(void **state) {
    (void)state;
    EXPECT_ERR("and(1)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
               "Number of arguments for function \"and\" should be at least 2: passed 1");
    EXPECT_ERR("or()", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "should be at least 2: passed 0");
    EXPECT_ERR("and('a', 1)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type (String) of 1 argument of function and");
    EXPECT_ERR("or(1, {Decimal(9, 2):1})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type (Decimal(9, 2)) of 2 argument of function or");
    EXPECT_ERR("and(1, {Nullable(Date):NULL})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type (Nullable(Date)) of 2 argument of function and");
}

/* ---- xor / not ----------------------------------------------------------- */

static void test_xor_not(void **state) {
    (void)state;
    EXPECT("xor(1, 0)", "UInt8", "1");
    EXPECT("xor(1, 1)", "UInt8", "0");
    EXPECT("xor(1, 1, 1)", "UInt8", "1");
    EXPECT("xor(0.5, {Int64:0})", "UInt8", "1");
    EXPECT("xor({Bool:true}, 0)", "Bool", "true");
    EXPECT("xor(NULL, 1)", "Nullable(Nothing)", "\\N");
    EXPECT("not(1)", "UInt8", "0");
    EXPECT("not(0)", "UInt8", "1");
    EXPECT("not({Float64:nan})", "UInt8", "0");
    EXPECT("NOT(0)", "UInt8", "1");
    EXPECT("not({Bool:true})", "Bool", "false");
    EXPECT("not(NULL)", "Nullable(Nothing)", "\\N");
    in_col("Nullable(Int16)", "0|\\N|-3");
    EXPECT("not($0)", "Nullable(UInt8)", "1|\\N|0");
    EXPECT("xor($0, 1)", "Nullable(UInt8)", "1|\\N|0");
    EXPECT_ERR("xor(1)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
               "Number of arguments for function \"xor\" should be at least 2: passed 1");
    EXPECT_ERR("xor(1, 'a')", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type (String) of 2 argument of function xor");
    EXPECT_ERR("not('a')", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type (String) of argument of function not");
    EXPECT_ERR("not(1, 2)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 2, should be 1");
}

/* ---- if ------------------------------------------------------------------ */

static void test_if_constants(void **state) {
    (void)state;
    EXPECT("if(1, 2, 3)", "UInt8", "2");
    EXPECT("if(0, 2, 3)", "UInt8", "3");
    EXPECT("IF(2, 2, 3)", "UInt8", "2");
    EXPECT("if({Bool:true}, 1, 2)", "UInt8", "1");
    EXPECT("if(1, 1, -1)", "Int16", "1");
    EXPECT("if(0, 1, -1)", "Int16", "-1");
    EXPECT("if(0, {UInt32:1}, 0.5)", "Float64", "0.5");
    EXPECT("if(1, {UInt64:18446744073709551615}, 0)", "UInt64", "18446744073709551615");
    EXPECT("if(0, 'a', 'b')", "String", "b");
    EXPECT("if(1, {FixedString(2):ab}, 'x')", "String", "ab");
    EXPECT("if(NULL, 1, 2)", "UInt8", "2");
    EXPECT("if({Nullable(UInt8):NULL}, 1, 2)", "UInt8", "2");
    EXPECT("if(1, NULL, 2)", "Nullable(UInt8)", "\\N");
    EXPECT("if(0, NULL, 2)", "Nullable(UInt8)", "2");
    EXPECT("if(1, {Date:2020-01-01}, {DateTime:2020-01-02 00:00:00})", "DateTime",
           "2020-01-01 00:00:00");
    EXPECT("if(1, {Date:2020-01-01}, {DateTime64(3):2020-01-02 00:00:00})", "DateTime64(3)",
           "2020-01-01 00:00:00.000");
    EXPECT("if(1, {Date:2020-01-01}, {Date32:1950-01-01})", "Date32", "2020-01-01");
    EXPECT("if(1, {Decimal(9, 2):1.5}, 1)", "Decimal(9, 2)", "1.5");
    EXPECT("if(0, {Decimal(9, 2):1.5}, 1)", "Decimal(9, 2)", "1");
    EXPECT("if(0, {Decimal(9, 2):1.5}, {Decimal(18, 4):2.25})", "Decimal(18, 4)", "2.25");
    EXPECT("if(1, {Decimal(9, 2):1.5}, {Decimal(18, 4):2.25})", "Decimal(18, 4)", "1.5");
    EXPECT("if(1, {Array(UInt8):[1]}, {Array(Int64):[2,3]})", "Array(Int64)", "[1]");
    EXPECT("if(0, {Array(UInt8):[1]}, {Array(Int64):[2,3]})", "Array(Int64)", "[2,3]");
    EXPECT("if(1, {Array(Nullable(UInt8)):[1,NULL]}, {Array(UInt16):[]})",
           "Array(Nullable(UInt16))", "[1,NULL]");
    EXPECT("if(1, {Enum8('a' = 1):a}, {Enum8('a' = 1):a})", "Enum8('a' = 1)", "a");
}

static void test_if_errors(void **state) {
    (void)state;
    EXPECT_ERR("if({Int32:1}, 1, 2)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type Int32 of first argument (condition) of function if. Must be UInt8.");
    EXPECT_ERR("if({Nullable(Float64):1}, 1, 2)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type Float64 of first argument (condition) of function if");
    EXPECT_ERR("if('1', 1, 2)", "ILLEGAL_TYPE_OF_ARGUMENT", "Illegal type String");
    EXPECT_ERR("if(1, 2)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
               "Number of arguments for function if doesn't match: passed 2, should be 3");
    EXPECT_ERR("if(1, {UInt64:1}, {Int64:1})", "NO_COMMON_TYPE",
               "There is no supertype for types UInt64, Int64");
    EXPECT_ERR("if(1, 'a', 1)", "NO_COMMON_TYPE", "There is no supertype for types String, UInt8");
}

/* The branches' least supertype (supertype.c), ClickHouse's
 * getLeastSupertype rule by rule. */
static void test_if_supertype(void **state) {
    (void)state;
    /* Dates: Date with DateTime is that DateTime, zone kept; two zones:
     * the first; DateTime with Date32 is DateTime64(0); DateTime64 of the
     * highest precision. */
    EXPECT("if(1, {Date:2020-01-01}, {DateTime('Asia/Tokyo'):2020-01-02 00:00:00})",
           "DateTime('Asia/Tokyo')", "2020-01-01 00:00:00");
    EXPECT("if(0, {DateTime('UTC'):2020-01-01 00:00:00}, "
           "{DateTime('Asia/Tokyo'):2020-01-02 09:00:00})",
           "DateTime('UTC')", "2020-01-02 00:00:00");
    EXPECT("if(1, {DateTime('UTC'):2020-01-01 00:00:00}, {Date32:1950-01-01})", "DateTime64(0)",
           "2020-01-01 00:00:00");
    EXPECT("if(1, {DateTime64(3, 'Asia/Tokyo'):2020-01-01 00:00:00}, {DateTime64(6):2020-01-01 "
           "00:00:00})",
           "DateTime64(6)", "2019-12-31 15:00:00.000000");
    EXPECT("if(1, {Date:2020-01-01}, {DateTime64(2, 'UTC'):2020-01-01 00:00:00})",
           "DateTime64(2, 'UTC')", "2020-01-01 00:00:00.00");
    /* Decimals: the widest of the Decimal types present, unless the
     * integers' digits plus the largest scale need more; Int32 and Int64
     * with scale 0 need 9 and 18 digits. */
    EXPECT("if(1, {Decimal(9, 2):1.5}, {Decimal(9, 8):0.5})", "Decimal(9, 8)", "1.5");
    EXPECT("if(1, {Int32:1}, {Decimal(9, 0):2})", "Decimal(9, 0)", "1");
    EXPECT("if(1, {Int64:1}, {Decimal(9, 0):2})", "Decimal(18, 0)", "1");
    EXPECT("if(1, {UInt32:1}, {Decimal(9, 0):2})", "Decimal(18, 0)", "1");
    EXPECT("if(1, {UInt64:1}, {Decimal(9, 0):2})", "Decimal(38, 0)", "1");
    EXPECT("if(1, {Int8:1}, {Decimal(9, 7):2})", "Decimal(18, 7)", "1");
    EXPECT_ERR("if(1, 1.5, {Decimal(9, 2):2})", "NO_COMMON_TYPE",
               "There is no supertype for types Float64, Decimal(9, 2) because some of them have "
               "no lossless conversion to Decimal");
    /* Numbers: a float needs a mantissa that holds every integer. */
    EXPECT("if(1, {Float32:1.5}, {Int16:1})", "Float32", "1.5");
    EXPECT("if(1, {Float32:1.5}, {Int32:1})", "Float64", "1.5");
    EXPECT("if(1, {Float32:1.5}, {UInt16:1})", "Float32", "1.5");
    EXPECT("if(0, {UInt8:1}, {Int8:-1})", "Int16", "-1");
    EXPECT("if(0, {UInt16:1}, {Int8:-1})", "Int32", "-1");
    EXPECT("if(0, {UInt8:1}, {Int32:-1})", "Int32", "-1");
    EXPECT("if(0, {UInt32:1}, {Int32:-1})", "Int64", "-1");
    EXPECT("if(1, {Bool:true}, {UInt16:2})", "UInt16", "1");
    EXPECT_ERR("if(1, 1.5, {Int64:1})", "NO_COMMON_TYPE",
               "There is no supertype for types Float64, Int64 because some of them are integers "
               "and some are floating point, but there is no floating point type, that can "
               "exactly represent all required integers");
    EXPECT_ERR("if(1, {Float32:1}, {UInt64:1})", "NO_COMMON_TYPE", "floating point");
    EXPECT_ERR("if(1, {UUID:61f0c404-5cb3-11e7-907b-a6006ad3dba0}, 1)", "NO_COMMON_TYPE",
               "because some of them are numbers and some of them are not");
    EXPECT_ERR("if(1, {Date:2020-01-01}, 1)", "NO_COMMON_TYPE",
               "some of them are Date/Date32/DateTime/DateTime64 and some of them are not");
    /* Enums: with Strings a String, with numbers Int8/Int16. */
    EXPECT("if(1, {Enum8('a' = 1):a}, 'b')", "String", "a");
    EXPECT("if(1, {Enum8('a' = 1):a}, {UInt8:5})", "Int16", "1");
    EXPECT("if(0, {Enum8('a' = 1):a}, {Enum16('b' = 300):b})", "Int16", "300");
    /* Nothing, Nullable, Arrays, Maps. */
    EXPECT("if(0, {Array(Nothing):[]}, {Array(UInt8):[1]})", "Array(UInt8)", "[1]");
    EXPECT("if(0, {Array(Array(Nothing)):[]}, {Array(Array(Int8)):[[-1]]})", "Array(Array(Int8))",
           "[[-1]]");
    EXPECT("if(0, {Array(Nullable(Nothing)):[NULL]}, {Array(UInt8):[1]})",
           "Array(Nullable(UInt8))", "[1]");
    EXPECT("if(1, {Map(String, UInt8):{'a':1}}, {Map(String, Int64):{}})", "Map(String, Int64)",
           "{'a':1}");
    EXPECT_ERR("if(1, {Map(String, UInt8):{}}, {Array(UInt8):[]})", "NO_COMMON_TYPE",
               "some of them are Array and some of them are not");
    /* Arrays are matched before Nullable: NULL elements and array elements
     * have no supertype. */
    EXPECT_ERR("if(1, {Array(Nullable(Nothing)):[]}, {Array(Array(UInt8)):[]})", "NO_COMMON_TYPE",
               "There is no supertype for types Nullable(Nothing), Array(UInt8) because some of "
               "them are Array and some of them are not");
}

static void test_if_columns(void **state) {
    (void)state;
    in_col("Nullable(UInt8)", "1|0|\\N|1");
    in_col("Int32", "10|20|30|40");
    in_col("Nullable(String)", "a|\\N|c|d");
    in_col("Array(String)", "['x']|[]|['y','z']|['w']");
    EXPECT("if($0, $1, 0)", "Int32", "10|0|0|40");
    EXPECT("if($0, $1, -1)", "Int32", "10|-1|-1|40");
    EXPECT("if($0, 0, $1)", "Int32", "0|20|30|0");
    EXPECT("if($0, $2, 'z')", "Nullable(String)", "a|z|z|d");
    EXPECT("if($0, 'y', $2)", "Nullable(String)", "y|\\N|c|y");
    EXPECT("if($0, NULL, $1)", "Nullable(Int32)", "\\N|20|30|\\N");
    EXPECT("if($0, $1, 1.5)", "Float64", "10|1.5|1.5|40");
    EXPECT("if($0, $1, $1)", "Int32", "10|20|30|40");
    EXPECT("if($0, $3, {Array(String):['q']})", "Array(String)", "['x']|['q']|['q']|['w']");
    EXPECT("if(1, $2, 'k')", "Nullable(String)", "a|\\N|c|d");
    EXPECT("if(0, $1, $1)", "Int32", "10|20|30|40");
    EXPECT("if(NULL, $1, 7)", "Int32", "7|7|7|7");
    EXPECT_ERR("if($0, $1, $2)", "NO_COMMON_TYPE", "no supertype");
}

/* ---- multiIf ------------------------------------------------------------- */

static void test_multi_if(void **state) {
    (void)state;
    EXPECT("multiIf(1, 'a', 'b')", "String", "a");
    EXPECT("multiIf(0, 'a', 1, 'b', 'c')", "String", "b");
    EXPECT("multiIf(0, 1, 0, 2, 3)", "UInt8", "3");
    EXPECT("multiIf(NULL, 1, 2)", "UInt8", "2");
    EXPECT("multiIf(0, 1, {Nullable(UInt8):1}, -1, 0.5)", "Float64", "-1");
    EXPECT("multiIf(0, 1, 0, NULL, 3)", "Nullable(UInt8)", "3");
    EXPECT_ERR("multiIf(1, 2)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
               "Invalid number of arguments for function multiIf");
    EXPECT_ERR("multiIf(1, 2, 3, 4)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
               "Invalid number of arguments for function multiIf");
    EXPECT_ERR("multiIf({Int8:1}, 1, 2)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type Int8 of argument (condition) of function multiIf. Must be UInt8.");
    EXPECT_ERR("multiIf(1, 1, {Nullable(Int8):1}, 2, 3)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type Nullable(Int8) of argument (condition) of function multiIf");
    in_col("Nullable(UInt8)", "1|0|\\N|0");
    in_col("Int32", "10|20|30|40");
    in_col("UInt8", "0|1|1|0");
    EXPECT("multiIf($0, 'x', $2, 'y', 'z')", "String", "x|y|y|z");
    EXPECT("multiIf($0, $1, $2, NULL, -1)", "Nullable(Int32)", "10|\\N|\\N|-1");
    EXPECT("multiIf($2, $1, $0, 100, {Int64:-5})", "Int64", "100|20|30|-5");
    EXPECT("multiIf(0, $1, $2, 1, 2)", "Int32", "2|1|1|2");
    EXPECT("multiIf(0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9, $2, 10, 11)", "UInt8",
           "11|10|10|11");
}

/* ---- many rows --------------------------------------------------------- */

static void test_many_rows(void **state) {
    (void)state;
    const uint32_t n = 3000;
    size_t cap = (size_t)n * 12 + 1;
    char *text = malloc(cap);
    size_t used = 0;
    for (uint32_t i = 0; i < n; i++)
        used += (size_t)snprintf(text + used, cap - used, "%s%u", i ? "|" : "", i % 5);
    in_col("UInt8", text);
    in_col("Nullable(String)", text);
    free(text);
    const char *got = ev("if($0, $1, 'z')");
    assert_string_equal(t_type, "Nullable(String)");
    const char *p = got;
    for (uint32_t i = 0; i < n; i++) {
        char want[8];
        snprintf(want, sizeof(want), "%u", i % 5);
        if (i % 5 == 0) want[0] = 'z';
        if (strncmp(p, want, 1) != 0) fail_msg("row %u: %.8s", i, p);
        p += 2;
    }
    got = ev("and($0, 1)");
    for (uint32_t i = 0; i < n; i++)
        if (got[2 * i] != (i % 5 ? '1' : '0')) fail_msg("and row %u: %.8s", i, got + 2 * i);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_and_or_constants, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_and_or_columns, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_and_or_errors, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_xor_not, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_if_constants, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_if_errors, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_if_supertype, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_if_columns, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_multi_if, t_setup, t_teardown),
        cmocka_unit_test_setup_teardown(test_many_rows, t_setup, t_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
