/* regex_test.c: goal: match, extract, regexpExtract, extractAll and
 * replaceRegexpOne/All behave as ClickHouse's RE2-based functions for the
 * patterns both engines share: '.' matches newlines, '$' only the end,
 * UTF-8 subjects (also invalid ones), groups and \0-\9 substitutions,
 * empty matches; constant and per-row patterns agree; bad patterns and
 * bad substitutions fail with the engine's message; NULLs stay NULL.
 */
#include "exec/exec.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- harness: q(fn, spec, ...) binds and evaluates one call ---------- */
/*
 * spec has one letter per argument:
 *   s  const String (NUL-terminated)      b  const String (bytes, length)
 *   i  const Int64 literal (narrowest)    u  const UInt64 literal
 *   f  const Float64                      n  NULL
 *   k  const of a type (type, text)       c  column (type, rows joined by '|',
 *                                            "\N" is NULL)
 * The result is the rows rendered as ClickHouse text joined by '|', or
 * "ERR <CODE>: <message>". q_type holds the result type's name.
 */
static char q_slots[8][4096];
static unsigned q_next;
static char q_type[256];
static bool q_hex; /* render String/FixedString results as uppercase hex */

static ty_column *q_column(mu_arena *arena, const char *type_name, const char *rows,
                           uint32_t *row_count) {
    const ty_type *type;
    mu_err err;
    assert_int_equal(ty_type_parse(type_name, arena, &type, &err), 0);
    ty_column *c;
    assert_int_equal(ty_column_create(type, NULL, &c, &err), 0);
    uint32_t count = 0;
    const char *p = rows;
    for (;;) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (n == 2 && memcmp(p, "\\N", 2) == 0) assert_int_equal(ty_column_append_null(c, &err), 0);
        else if (ty_column_append_text(c, p, n, &err) != 0)
            fail_msg("bad row '%.*s': %s", (int)n, p, err.message);
        count++;
        if (bar == NULL) break;
        p = bar + 1;
    }
    *row_count = count;
    return c;
}

/* Adds one argument (spec letter `letter`) to args; columns go to inputs. */
static void q_arg(exec_builder *b, mu_arena *arena, char letter, va_list *ap, exec_expr **e,
                  ty_column **inputs, uint32_t *input_count, uint32_t *rows) {
    mu_err err;
    int rc = 0;
    if (letter == 's') {
        const char *v = va_arg(*ap, const char *);
        rc = exec_expr_const_string(b, v, strlen(v), e, &err);
    } else if (letter == 'b') {
        const char *v = va_arg(*ap, const char *);
        size_t n = va_arg(*ap, size_t);
        rc = exec_expr_const_string(b, v, n, e, &err);
    } else if (letter == 'i') {
        rc = exec_expr_const_int(b, va_arg(*ap, int64_t), e, &err);
    } else if (letter == 'u') {
        rc = exec_expr_const_uint(b, va_arg(*ap, uint64_t), e, &err);
    } else if (letter == 'f') {
        rc = exec_expr_const_float(b, va_arg(*ap, double), e, &err);
    } else if (letter == 'n') {
        rc = exec_expr_const_null(b, e, &err);
    } else if (letter == 'k') {
        const char *type = va_arg(*ap, const char *);
        const char *text = va_arg(*ap, const char *);
        uint32_t one;
        rc = exec_expr_const_take(b, q_column(arena, type, text, &one), e, &err);
    } else if (letter == 'c') {
        const char *type = va_arg(*ap, const char *);
        const char *text = va_arg(*ap, const char *);
        inputs[*input_count] = q_column(arena, type, text, rows);
        rc = exec_expr_input(b, *input_count, inputs[*input_count]->type, e, &err);
        (*input_count)++;
    } else {
        fail_msg("bad spec letter %c", letter);
    }
    assert_int_equal(rc, 0);
}

/* Renders every row of result into out, '|'-separated. */
static void q_render(const ty_column *result, uint32_t rows, char *out) {
    mu_err err;
    mu_buf text;
    mu_buf_init(&text, 0);
    for (uint32_t r = 0; r < rows; r++) {
        if (r > 0) assert_int_equal(mu_buf_append_u8(&text, '|', &err), 0);
        const ty_type *vt = ty_type_strip_nullable(result->type);
        bool bytes = vt->kind == TY_STRING || vt->kind == TY_FIXED_STRING;
        if (q_hex && bytes && !ty_column_is_null(result, r)) {
            size_t n;
            const uint8_t *p = ty_column_row_bytes(result, r, &n);
            for (size_t k = 0; k < n; k++)
                assert_int_equal(mu_buf_printf(&text, &err, "%02X", p[k]), 0);
        } else {
            assert_int_equal(ty_column_render_text(result, r, 0, &text, &err), 0);
        }
    }
    snprintf(out, 4096, "%.*s", (int)text.length_bytes, (const char *)text.data);
    mu_buf_deinit(&text);
}

static const char *q(const char *fn, const char *spec, ...) {
    char *out = q_slots[q_next++ % 8];
    mu_arena *arena;
    mu_err err;
    assert_int_equal(mu_arena_create(&arena, NULL, 1 << 16, &err), 0);
    exec_context ctx = {.timezone = ty_tz_utc()};
    exec_builder b;
    assert_int_equal(exec_builder_init(&b, &ctx, arena, &err), 0);
    exec_expr *args[16];
    ty_column *inputs[16];
    uint32_t argc = 0, input_count = 0, rows = 1;
    va_list ap;
    va_start(ap, spec);
    for (const char *s = spec; *s; s++)
        q_arg(&b, arena, *s, &ap, &args[argc++], inputs, &input_count, &rows);
    va_end(ap);
    exec_expr *call;
    ty_column *result = NULL;
    int rc = exec_expr_call(&b, fn, args, argc, &call, &err);
    if (rc == 0)
        rc = exec_eval_full(call, &ctx, (const ty_column *const *)inputs, rows, &result, &err);
    if (rc != 0) {
        snprintf(out, 4096, "ERR %s: %s", mu_code_name(rc), err.message);
    } else {
        ty_type_name(call->type, q_type, sizeof(q_type));
        assert_int_equal(ty_column_row_count(result), rows);
        assert_int_equal(ty_column_validate(result, &err), 0);
        q_render(result, rows, out);
    }
    ty_column_destroy(result);
    for (uint32_t i = 0; i < input_count; i++) ty_column_destroy(inputs[i]);
    exec_builder_deinit(&b);
    mu_arena_destroy(arena);
    return out;
}

#define EQ(expected, actual) assert_string_equal((actual), (expected))
#define I(x) ((int64_t)(x))
#define U(x) ((uint64_t)(x))
#define HEX(expected, actual)                                                               \
    do {                                                                                    \
        q_hex = true;                                                                       \
        const char *hex_result_ = (actual);                                                 \
        q_hex = false;                                                                      \
        assert_string_equal(hex_result_, (expected));                                       \
    } while (0)


static void test_match(void **state) {
    (void)state;
    EQ("1", q("match", "ss", "Hello", "ell"));
    EQ("UInt8", q_type);
    EQ("0", q("match", "ss", "Hello", "^ell"));
    EQ("1", q("match", "ss", "a\nb", "a.b"));        /* dot matches newline */
    EQ("0", q("match", "ss", "abc\n", "c$"));        /* $ is the very end */
    EQ("1", q("match", "ss", "abc\n", "c\n$"));
    EQ("1", q("match", "ss", "привет", "^п.ивет$")); /* UTF-8 characters */
    EQ("1", q("match", "ss", "ABC", "(?i)abc"));
    EQ("1", q("match", "ss", "ПРИВЕТ", "(?i)привет"));
    EQ("1", q("match", "ss", "", ""));
    EQ("1", q("match", "ss", "x\xFFy", "y$"));       /* invalid UTF-8 is fine */
    EQ("0", q("match", "ss", "\xFF", "^.$"));
    EQ("1", q("match", "ks", "FixedString(3)", "ab", "^ab\\x00$"));
    EQ("1|0|\\N", q("match", "cs", "Nullable(String)", "abc|xyz|\\N", "^a"));
    EQ("Nullable(UInt8)", q_type);
    EQ("1|0|1", q("match", "cc", "String", "abc|abc|abc", "String", "b|^b|c$"));
    EQ("\\N", q("match", "sn", "a", NULL));
    EQ("ERR EILLEGAL_TYPE: Illegal type UInt8 of argument 2 of function match",
       q("match", "su", "a", U(1)));
    const char *bad = q("match", "ss", "a", "a(");
    assert_non_null(strstr(bad, "ERR EREGEXP: OptimizedRegularExpression: cannot compile re2: a(, "
                                "error: missing closing parenthesis"));
    bad = q("match", "cc", "String", "a|b", "String", "a|(");
    assert_non_null(strstr(bad, "ERR EREGEXP: OptimizedRegularExpression: cannot compile re2: (,"));
}

static void test_extract(void **state) {
    (void)state;
    EQ("123", q("extract", "ss", "number: 123 and 456", "\\d+"));
    EQ("String", q_type);
    EQ("key", q("extract", "ss", "key=val", "(\\w+)=(\\w+)"));
    EQ("", q("extract", "ss", "abc", "x"));
    EQ("", q("extract", "ss", "abc", "b(x)?")); /* the group did not take part */
    EQ("ив", q("extract", "ss", "привет", "р(..)"));
    EQ("1|\\N|", q("extract", "cs", "Nullable(String)", "a1|\\N|b", "\\d"));
    EQ("a|b", q("extract", "cc", "String", "ab|ab", "String", "a|b"));
    EQ("val", q("regexpExtract", "ssi", "key=val", "(\\w+)=(\\w+)", I(2)));
    EQ("key", q("regexpExtract", "ss", "key=val", "(\\w+)=(\\w+)"));
    EQ("key=val", q("REGEXP_EXTRACT", "ssi", "key=val", "(\\w+)=(\\w+)", I(0)));
    EQ("", q("regexpExtract", "ssi", "nothing", "(\\d+)", I(1)));
    EQ("ERR EOUT_OF_BOUND: Index value 3 is out of range, should be in [0, 3)",
       q("regexpExtract", "ssi", "key=val", "(\\w+)=(\\w+)", I(3)));
    EQ("ERR EOUT_OF_BOUND: Index value 1 is out of range, should be in [0, 1)",
       q("regexpExtract", "ss", "abc", "b"));
    EQ("ERR EOUT_OF_BOUND: Index value -1 is out of range, should be in [0, 2)",
       q("regexpExtract", "csc", "String", "a|b", "(.)", "Int8", "1|-1"));
    EQ("ERR EILLEGAL_TYPE: Illegal type String of argument 3 of function regexpExtract",
       q("regexpExtract", "sss", "a", "a", "1"));
}

static void test_extract_all(void **state) {
    (void)state;
    EQ("['123','456']", q("extractAll", "ss", "hello 123 world 456", "[0-9]+"));
    EQ("Array(String)", q_type);
    EQ("['a','b']", q("extractAll", "ss", "a=1, b=2", "(\\w)="));
    EQ("[]", q("extractAll", "ss", "abc", "x*")); /* stops at an empty match */
    EQ("[]", q("extractAll", "ss", "", "a"));
    EQ("['при','вет']", q("extractAll", "ss", "привет", "..."));
    EQ("['','']", q("extractAll", "ss", "xbxb", "(a)?b")); /* an unset group gives '' */
    EQ("['','b']", q("extractAll", "ss", "ab", "a|(b)"));
    EQ("['a','b']|[]", q("extractAll", "cs", "String", "a b|", "\\w"));
    EQ("ERR EILLEGAL_TYPE: Illegal type FixedString(2) of argument 1 of function extractAll",
       q("extractAll", "ks", "FixedString(2)", "ab", "a"));
}

static void test_replace_regexp(void **state) {
    (void)state;
    EQ("Hell0, World!", q("replaceRegexpOne", "sss", "Hello, World!", "o", "0"));
    EQ("Hell0, W0rld!", q("replaceRegexpAll", "sss", "Hello, World!", "o", "0"));
    EQ("Hell0, W0rld!", q("REGEXP_REPLACE", "sss", "Hello, World!", "o", "0"));
    EQ("15/01/2020", q("replaceRegexpOne", "sss", "2020-01-15", "(\\d+)-(\\d+)-(\\d+)",
                       "\\3/\\2/\\1"));
    EQ("here: Hello, World!", q("replaceRegexpAll", "sss", "Hello, World!", "^", "here: "));
    EQ("X", q("replaceRegexpAll", "sss", "aaa", "a*", "X"));
    EQ("abbc", q("replaceRegexpAll", "sss", "abc", "b", "\\0\\0"));
    EQ("a\\b", q("replaceRegexpAll", "sss", "a.b", "\\.", "\\\\"));
    EQ("a$b", q("replaceRegexpAll", "sss", "a.b", "\\.", "\\$"));
    EQ("-a-b-c", q("replaceRegexpAll", "sss", "abc", "x*", "-"));
    EQ("-п-р", q("replaceRegexpAll", "sss", "пр", "", "-"));
    EQ("-abc", q("replaceRegexpOne", "sss", "abc", "", "-"));
    EQ("", q("replaceRegexpAll", "sss", "", "^", "x"));
    EQ("a\\", q("replaceRegexpAll", "sss", "ab", "b", "\\"));
    EQ("ac", q("replaceRegexpAll", "sss", "abc", "b(x)?", "\\1"));
    EQ("a_b|\\N|_", q("replaceRegexpAll", "css", "Nullable(String)", "a b|\\N| ", " ", "_"));
    EQ("X|aY", q("replaceRegexpOne", "ccc", "String", "a|ab", "String", "a|b", "String", "X|Y"));
    EQ("ERR EINVAL: Id 2 in replacement string is an invalid substitution, regexp has only 1 "
       "capturing groups", q("replaceRegexpAll", "sss", "abc", "(b)", "\\2"));
    EQ("ERR EINVAL: Id 1 in replacement string is an invalid substitution, regexp has only 0 "
       "capturing groups", q("replaceRegexpOne", "sss", "abc", "b", "\\1"));
    EQ("ERR EILLEGAL_TYPE: Illegal type UInt8 of argument 3 of function replaceRegexpAll",
       q("REGEXP_REPLACE", "ssu", "a", "a", U(1)));
    const char *bad = q("replaceRegexpAll", "sss", "a", "[", "b");
    assert_non_null(
        strstr(bad, "ERR EREGEXP: OptimizedRegularExpression: cannot compile re2: [, "));
}

/* Many distinct patterns in one column go through the per-thread cache and
 * its eviction; results must not depend on what was cached before. */
static void test_pattern_cache(void **state) {
    (void)state;
    char haystacks[2048] = "", patterns[2048] = "", expected[2048] = "";
    for (int i = 0; i < 40; i++) {
        char h[32], p[32];
        snprintf(h, sizeof(h), "%sx%d", i ? "|" : "", i);
        snprintf(p, sizeof(p), "%s^x%d$", i ? "|" : "", i % 20);
        strcat(haystacks, h);
        strcat(patterns, p);
        strcat(expected, i ? (i < 20 ? "|1" : "|0") : "1");
    }
    EQ(expected, q("match", "cc", "String", haystacks, "String", patterns));
    EQ(expected, q("match", "cc", "String", haystacks, "String", patterns));
}

static void test_count_matches(void **state) {
    (void)state;
    EQ("2", q("countMatches", "ss", "abababa", "aba")); /* non-overlapping */
    EQ("UInt64", q_type);
    EQ("3", q("countMatches", "ss", "aaa", "a"));
    EQ("2", q("countMatches", "ss", "foo bar foo", "fo+"));
    EQ("0", q("countMatches", "ss", "abc", ""));   /* an empty match ends the count */
    EQ("0", q("countMatches", "ss", "abc", "x*"));
    EQ("1", q("countMatches", "ss", "aab", "a*"));  /* "aa", then an empty match */
    EQ("3", q("countMatches", "ss", "aaa", "^a")); /* each search starts a new subject */
    EQ("0", q("countMatches", "ss", "", "a"));
    EQ("2", q("countMatches", "ss", "привет пока", "п."));
    EQ("1", q("countMatches", "ss", "FOO foo", "foo"));
    EQ("2", q("countMatchesCaseInsensitive", "ss", "FOO foo", "foo"));
    EQ("2", q("countMatchesCaseInsensitive", "ss", "ПРИВЕТ привет", "привет"));
    EQ("1", q("countMatches", "ks", "FixedString(4)", "ab", "\\x00\\x00"));
    EQ("2|0|\\N", q("countMatches", "cs", "Nullable(String)", "a1b2|xyz|\\N", "\\d"));
    EQ("Nullable(UInt64)", q_type);
    EQ("ERR EILLEGAL_COLUMN: Illegal type of argument 2 of function countMatches: expected "
       "constant String", q("countMatches", "sc", "a", "String", "a"));
    EQ("ERR EILLEGAL_TYPE: Illegal type FixedString(1) of argument 2 of function countMatches",
       q("countMatches", "sk", "a", "FixedString(1)", "a"));
    EQ("ERR EILLEGAL_TYPE: Illegal type UInt8 of argument 1 of function countMatches",
       q("countMatches", "us", U(1), "a"));
    const char *bad = q("countMatches", "ss", "a", "(");
    assert_non_null(strstr(bad, "ERR EREGEXP: OptimizedRegularExpression: cannot compile re2: ("));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_match),          cmocka_unit_test(test_extract),
        cmocka_unit_test(test_extract_all),    cmocka_unit_test(test_replace_regexp),
        cmocka_unit_test(test_pattern_cache),  cmocka_unit_test(test_count_matches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
