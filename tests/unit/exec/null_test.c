/* null_test.c: goal: the NULL functions of fn_null.c behave like
 * ClickHouse's: isNull/isNotNull/isZeroOrNull give UInt8, coalesce and
 * ifNull return the first non-NULL argument in the least supertype (and
 * are non-Nullable when the last argument looked at is), nullIf makes NULL
 * where x = y in the common type, assumeNotNull yields the default under
 * NULLs, toNullable wraps. Over constants, columns, mixed constant and
 * column arguments, the NULL literal, and bind errors. Expected values from
 * ClickHouse's source and from clickhouse-server.
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

static void test_is_null(void **state) {
    (void)state;
    EXPECT("isNull(NULL)", "UInt8", "1");
    EXPECT("isNull(1)", "UInt8", "0");
    EXPECT("isNotNull(NULL)", "UInt8", "0");
    EXPECT("isNotNull('x')", "UInt8", "1");
    EXPECT("ISNULL({Nullable(String):NULL})", "UInt8", "1");
    EXPECT("isNull({Array(UInt8):[]})", "UInt8", "0");
    h2_input("Nullable(Int32)", "1|\\N|0|\\N");
    h2_input("String", "a|b|c|d");
    EXPECT("isNull($0)", "UInt8", "0|1|0|1");
    EXPECT("isNotNull($0)", "UInt8", "1|0|1|0");
    EXPECT("isNull($1)", "UInt8", "0|0|0|0");
    EXPECT("isNotNull($1)", "UInt8", "1|1|1|1");
    EXPECT_ERR("isNull()", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 0, should be 1");
    EXPECT_ERR("isNotNull(1, 2)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 2, should be 1");
}

static void test_is_zero_or_null(void **state) {
    (void)state;
    EXPECT("isZeroOrNull(0)", "UInt8", "1");
    EXPECT("isZeroOrNull(-0.0)", "UInt8", "1");
    EXPECT("isZeroOrNull(0.5)", "UInt8", "0");
    EXPECT("isZeroOrNull(NULL)", "UInt8", "1");
    EXPECT("isZeroOrNull({Float64:nan})", "UInt8", "0");
    EXPECT("isZeroOrNull({Decimal(9, 2):0.00})", "UInt8", "1");
    h2_input("Nullable(Int64)", "0|\\N|-1|9223372036854775807");
    EXPECT("isZeroOrNull($0)", "UInt8", "1|1|0|0");
    EXPECT_ERR("isZeroOrNull('0')", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type String of argument 1 of function isZeroOrNull");
}

static void test_coalesce_constants(void **state) {
    (void)state;
    EXPECT("coalesce(NULL, 1, 2)", "UInt8", "1");
    EXPECT("coalesce(NULL, NULL)", "Nullable(Nothing)", "\\N");
    EXPECT("coalesce(NULL)", "Nullable(Nothing)", "\\N");
    EXPECT("coalesce(toNullable(1), toNullable(2.5))", "Nullable(Float64)", "1");
    EXPECT("coalesce({Nullable(UInt8):NULL}, toNullable(2.5))", "Nullable(Float64)", "2.5");
    EXPECT("coalesce(toNullable(1), 300)", "UInt16", "1");
    EXPECT("coalesce({Nullable(Int8):NULL}, 300)", "Int32", "300");
    EXPECT("coalesce(toNullable(-1), toNullable(300), 2)", "Int32", "-1");
    EXPECT("coalesce('a', 1)", "String", "a");
    EXPECT("COALESCE({Nullable(String):NULL}, 'b')", "String", "b");
    EXPECT("coalesce({Array(UInt8):[1]})", "Array(UInt8)", "[1]");
    EXPECT("coalesce({Nullable(Date):NULL}, toDateTime('2020-01-02 03:04:05'))", "DateTime",
           "2020-01-02 03:04:05");
    /* The least supertype keeps a DateTime's zone next to a Date. */
    EXPECT("coalesce({Nullable(Date):NULL}, {DateTime('Asia/Tokyo'):2020-01-02 03:04:05})",
           "DateTime('Asia/Tokyo')", "2020-01-02 03:04:05");
    EXPECT("coalesce({Nullable(Date):2020-01-02}, {DateTime('Asia/Tokyo'):2020-01-02 03:04:05})",
           "DateTime('Asia/Tokyo')", "2020-01-02 00:00:00");
    EXPECT("ifNull({Nullable(Int64):NULL}, 0)", "Int64", "0");
    EXPECT_ERR("ifNull({Nullable(Int64):NULL}, 0.5)", "NO_COMMON_TYPE",
               "There is no supertype for types Int64, Float64");
    EXPECT_ERR("coalesce()", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 0, should be at least 1");
    EXPECT_ERR("coalesce(toNullable('a'), 1)", "NO_COMMON_TYPE",
               "There is no supertype for types String, UInt8");
}

static void test_coalesce_columns(void **state) {
    (void)state;
    h2_input("Nullable(Int32)", "1|\\N|\\N|4");
    h2_input("Nullable(Int64)", "10|20|\\N|\\N");
    h2_input("Nullable(String)", "a|\\N|c|\\N");
    EXPECT("coalesce($0, $1)", "Nullable(Int64)", "1|20|\\N|4");
    EXPECT("coalesce($0, $1, 0)", "Int64", "1|20|0|4");
    EXPECT("coalesce($0, 0)", "Int32", "1|0|0|4");
    EXPECT("coalesce(NULL, $1, -7)", "Int64", "10|20|-7|-7");
    EXPECT("coalesce($0, 2.5)", "Float64", "1|2.5|2.5|4");
    EXPECT("coalesce($2, 'z')", "String", "a|z|c|z");
    EXPECT("coalesce($2, NULL)", "Nullable(String)", "a|\\N|c|\\N");
    EXPECT("coalesce($2, {FixedString(2):xy})", "String", "a|xy|c|xy");
}

static void test_if_null(void **state) {
    (void)state;
    EXPECT("ifNull(NULL, 'x')", "String", "x");
    EXPECT("ifNull(1, 2.5)", "UInt8", "1");
    EXPECT("IFNULL({Nullable(Int8):NULL}, -3)", "Int8", "-3");
    EXPECT("ifNull({Nullable(Int8):NULL}, NULL)", "Nullable(Int8)", "\\N");
    h2_input("Nullable(Float32)", "1.5|\\N");
    EXPECT("ifNull($0, 0)", "Float32", "1.5|0");
    EXPECT("ifNull($0, -1e300)", "Float64", "1.5|-1e300");
    EXPECT_ERR("ifNull(1)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
               "Number of arguments for function ifNull doesn't match: passed 1, should be 2");
    EXPECT_ERR("ifNull(1, 2, 3)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 3, should be 2");
}

static void test_null_if(void **state) {
    (void)state;
    EXPECT("nullIf(1, 1)", "Nullable(UInt8)", "\\N");
    EXPECT("nullIf(1, 2)", "Nullable(UInt8)", "1");
    EXPECT("nullIf(1, 1.0)", "Nullable(UInt8)", "\\N");
    EXPECT("nullIf(1, 2.0)", "Nullable(UInt8)", "1");
    EXPECT("nullIf(NULL, 1)", "Nullable(Nothing)", "\\N");
    EXPECT("nullIf(1, NULL)", "Nullable(UInt8)", "1");
    EXPECT("NULLIF('a', 'a')", "Nullable(String)", "\\N");
    EXPECT("nullIf({FixedString(2):ab}, 'ab')", "Nullable(FixedString(2))", "\\N");
    EXPECT("nullIf(-1, 255)", "Nullable(Int8)", "-1");
    h2_input("Nullable(Int32)", "1|\\N|2|3");
    h2_input("Int64", "1|1|3|3");
    EXPECT("nullIf($0, 2)", "Nullable(Int32)", "1|\\N|\\N|3");
    EXPECT("nullIf($0, $1)", "Nullable(Int32)", "\\N|\\N|2|\\N");
    EXPECT("nullIf($1, $0)", "Nullable(Int64)", "\\N|1|3|\\N");
    EXPECT("nullIf($1, NULL)", "Nullable(Int64)", "1|1|3|3");
    EXPECT_ERR("nullIf({Array(UInt8):[1]}, {Array(UInt8):[1]})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Nested type Array(UInt8) cannot be inside Nullable type");
    EXPECT_ERR("nullIf('a', 1)", "NO_COMMON_TYPE", "There is no supertype");
    EXPECT_ERR("nullIf(1)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 1, should be 2");
}

static void test_assume_not_null(void **state) {
    (void)state;
    EXPECT("assumeNotNull(toNullable(5))", "UInt8", "5");
    EXPECT("assumeNotNull({Nullable(Int32):NULL})", "Int32", "0");
    EXPECT("assumeNotNull({Nullable(String):NULL})", "String", "");
    EXPECT("assumeNotNull(3)", "UInt8", "3");
    EXPECT("assumeNotNull({Nullable(Enum8('b' = 2, 'c' = 3)):NULL})",
           "Enum8('b' = 2, 'c' = 3)", "b");
    h2_input("Nullable(String)", "x|\\N|yz");
    h2_input("Nullable(Decimal(18, 2))", "1.5|\\N|-2");
    EXPECT("assumeNotNull($0)", "String", "x||yz");
    EXPECT("assumeNotNull($1)", "Decimal(18, 2)", "1.5|0|-2");
}

static void test_to_nullable(void **state) {
    (void)state;
    EXPECT("toNullable(1)", "Nullable(UInt8)", "1");
    EXPECT("toNullable(NULL)", "Nullable(Nothing)", "\\N");
    EXPECT("toNullable({Nullable(String):NULL})", "Nullable(String)", "\\N");
    EXPECT("toNullable({Array(UInt8):[1,2]})", "Array(UInt8)", "[1,2]");
    h2_input("Date", "2020-01-02|1970-01-01");
    EXPECT("toNullable($0)", "Nullable(Date)", "2020-01-02|1970-01-01");
    EXPECT("isNull(toNullable($0))", "UInt8", "0|0");
    EXPECT_ERR("toNullable()", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 0, should be 1");
}

int main(void) {
    const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, h2_setup, h2_teardown)
        T(test_is_null), T(test_is_zero_or_null), T(test_coalesce_constants),
        T(test_coalesce_columns), T(test_if_null), T(test_null_if), T(test_assume_not_null),
        T(test_to_nullable),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
