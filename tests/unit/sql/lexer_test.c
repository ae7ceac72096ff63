/* lexer_test.c: goal — every token kind is recognised with the right byte
 * offset and length (identifiers in three spellings, numbers in every radix
 * and shape including edge values, strings with every escape, operators with
 * longest match, comments, query parameters), the unquoting rules match
 * ClickHouse, and every malformed token fails with MU_ESYNTAX at its position.
 */
#include "sql_test_util.h"

typedef struct tok_case {
    const char *text;
    sql_token_kind kinds[12];
    size_t count;
} tok_case;

static size_t lex_all(const char *text, sql_token *toks, size_t max, int *rc_out) {
    sql_lexer lx;
    mu_err err;
    sql_lexer_init(&lx, text, strlen(text));
    size_t n = 0;
    for (; n < max; n++) {
        int rc = sql_lexer_next(&lx, &toks[n], &err);
        if (rc < 0) {
            *rc_out = rc;
            return n;
        }
        if (toks[n].kind == SQL_TOK_EOF) break;
    }
    *rc_out = 0;
    return n;
}

static const tok_case tok_cases[] = {
    {"abc _x a1$ ÄÖ", {SQL_TOK_WORD, SQL_TOK_WORD, SQL_TOK_WORD, SQL_TOK_WORD}, 4},
    {"`a b` \"c\" `x``y`", {SQL_TOK_QUOTED_IDENT, SQL_TOK_QUOTED_IDENT, SQL_TOK_QUOTED_IDENT}, 3},
    {"0 123 0x1F 0Xff 0b101 1.5 .5 1. 1e10 1E-5 2.5e+3 18446744073709551616",
     {SQL_TOK_NUMBER, SQL_TOK_NUMBER, SQL_TOK_NUMBER, SQL_TOK_NUMBER, SQL_TOK_NUMBER,
      SQL_TOK_NUMBER, SQL_TOK_NUMBER, SQL_TOK_NUMBER, SQL_TOK_NUMBER, SQL_TOK_NUMBER,
      SQL_TOK_NUMBER, SQL_TOK_NUMBER}, 12},
    {"'a' '' 'it''s' 'a\\'b' '\\\\'", {SQL_TOK_STRING, SQL_TOK_STRING, SQL_TOK_STRING,
                                     SQL_TOK_STRING, SQL_TOK_STRING}, 5},
    {"+ - * / % || = == != <> < <=", {SQL_TOK_PLUS, SQL_TOK_MINUS, SQL_TOK_STAR, SQL_TOK_SLASH,
                                      SQL_TOK_PERCENT, SQL_TOK_CONCAT, SQL_TOK_EQ, SQL_TOK_EQEQ,
                                      SQL_TOK_NE, SQL_TOK_LTGT, SQL_TOK_LT, SQL_TOK_LE}, 12},
    {"> >= ? : :: -> . , ; ( ) [", {SQL_TOK_GT, SQL_TOK_GE, SQL_TOK_QUESTION, SQL_TOK_COLON,
                                    SQL_TOK_DCOLON, SQL_TOK_ARROW, SQL_TOK_DOT, SQL_TOK_COMMA,
                                    SQL_TOK_SEMICOLON, SQL_TOK_LPAREN, SQL_TOK_RPAREN,
                                    SQL_TOK_LBRACKET}, 12},
    {"] { } {x:UInt8} { y : Array(Nullable(String)) } {z:Enum('}' = 1)}",
     {SQL_TOK_RBRACKET, SQL_TOK_LBRACE, SQL_TOK_RBRACE, SQL_TOK_PARAM, SQL_TOK_PARAM,
      SQL_TOK_PARAM}, 6},
    {"{'k': 1}", {SQL_TOK_LBRACE, SQL_TOK_STRING, SQL_TOK_COLON, SQL_TOK_NUMBER,
                  SQL_TOK_RBRACE}, 5},
    {"a -- comment\n b /* block\n comment */ c --", {SQL_TOK_WORD, SQL_TOK_WORD, SQL_TOK_WORD}, 3},
    {"a-->b", {SQL_TOK_WORD}, 1},
    {"a->b a - >b", {SQL_TOK_WORD, SQL_TOK_ARROW, SQL_TOK_WORD, SQL_TOK_WORD, SQL_TOK_MINUS,
                     SQL_TOK_GT, SQL_TOK_WORD}, 7},
    {"t.1 t.2.1 (x).1 [a].2 1.5", {SQL_TOK_WORD, SQL_TOK_DOT, SQL_TOK_NUMBER, SQL_TOK_WORD,
                                   SQL_TOK_DOT, SQL_TOK_NUMBER, SQL_TOK_DOT, SQL_TOK_NUMBER,
                                   SQL_TOK_LPAREN, SQL_TOK_WORD, SQL_TOK_RPAREN,
                                   SQL_TOK_DOT}, 12},
    {"x::Int8", {SQL_TOK_WORD, SQL_TOK_DCOLON, SQL_TOK_WORD}, 3},
    {"", {0}, 0},
    {"  \t\r\n\f\v ", {0}, 0},
};

static void test_token_kinds(void **state) {
    (void)state;
    for (size_t i = 0; i < MU_ARRAY_LEN(tok_cases); i++) {
        const tok_case *c = &tok_cases[i];
        sql_token toks[16];
        int rc = 0;
        size_t n = lex_all(c->text, toks, 16, &rc);
        if (rc != 0) fail_msg("lex failed: %s", c->text);
        size_t limit = c->count < 12 ? c->count : 12;
        if (c->count < 12 && n != c->count)
            fail_msg("%s: %zu tokens, want %zu", c->text, n, c->count);
        for (size_t k = 0; k < limit; k++)
            if (toks[k].kind != c->kinds[k])
                fail_msg("%s: token %zu is %s, want %s", c->text, k,
                         sql_token_kind_name(toks[k].kind), sql_token_kind_name(c->kinds[k]));
    }
}

static void test_offsets(void **state) {
    (void)state;
    const char *text = "SELECT  `a b`, 'x''y' /* c */ 0x1F";
    sql_token t[8];
    int rc = 0;
    size_t n = lex_all(text, t, 8, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal(n, 5);
    assert_int_equal(t[0].offset, 0);
    assert_int_equal(t[0].length, 6);
    assert_int_equal(t[1].offset, 8);
    assert_int_equal(t[1].length, 5);
    assert_int_equal(t[2].offset, 13);
    assert_int_equal(t[3].offset, 15);
    assert_int_equal(t[3].length, 6);
    assert_int_equal(t[4].offset, 30);
    assert_int_equal(t[4].length, 4);
    sql_lexer lx;
    mu_err err;
    sql_lexer_init(&lx, text, strlen(text));
    for (size_t i = 0; i < 6; i++) assert_int_equal(sql_lexer_next(&lx, &t[0], &err), 0);
    assert_int_equal(t[0].kind, SQL_TOK_EOF);
    assert_int_equal(t[0].offset, strlen(text));
    /* EOF repeats. */
    assert_int_equal(sql_lexer_next(&lx, &t[0], &err), 0);
    assert_int_equal(t[0].kind, SQL_TOK_EOF);
}

typedef struct unquote_case {
    const char *token;
    const char *want;
    size_t want_bytes;
} unquote_case;

static const unquote_case unquote_cases[] = {
    {"'abc'", "abc", 3},
    {"''", "", 0},
    {"'it''s'", "it's", 4},
    {"'a\\'b'", "a'b", 3},
    {"'a\\\\b'", "a\\b", 3},
    {"'\\n\\t\\r\\b\\f\\v\\a'", "\n\t\r\b\f\v\a", 7},
    {"'a\\0b'", "a\0b", 3},
    {"'\\x41\\x7a\\xFF'", "Az\xff", 3},
    {"'\\x4'", "\\x4", 3},
    {"'\\xZZ'", "\\xZZ", 4},
    {"'\\z\\%'", "\\z\\%", 4},
    {"'\\e'", "\x1b", 1},
    {"'\\\"\\`\\?'", "\"`?", 3},
    {"`a``b`", "a`b", 3},
    {"`a\\`b`", "a`b", 3},
    {"\"a\"\"b\"", "a\"b", 3},
    {"'ÄÖ'", "ÄÖ", 4},
};

static void test_unquote(void **state) {
    (void)state;
    mu_arena *arena = sqlt_arena();
    for (size_t i = 0; i < MU_ARRAY_LEN(unquote_cases); i++) {
        const unquote_case *c = &unquote_cases[i];
        char *out = NULL;
        size_t n = 0;
        mu_err err;
        assert_int_equal(sql_unquote(c->token, strlen(c->token), arena, &out, &n, &err), 0);
        if (n != c->want_bytes || memcmp(out, c->want, n) != 0)
            fail_msg("unquote %s: got %zu bytes '%s'", c->token, n, out);
        assert_int_equal(out[n], '\0');
    }
    mu_arena_destroy(arena);
}

typedef struct lex_bad {
    const char *text;
    size_t position;
    const char *needle;
} lex_bad;

static const lex_bad lex_bads[] = {
    {"'abc", 1, "Quoted string is not closed"},
    {"x 'abc\\'", 3, "Quoted string is not closed"},
    {"'", 1, "Quoted string is not closed"},
    {"`abc", 1, "Quoted identifier is not closed"},
    {"\"abc", 1, "Quoted identifier is not closed"},
    {"a /* x", 3, "Multi-line comment is not closed"},
    {"/*", 1, "Multi-line comment is not closed"},
    {"12abc", 1, "Wrong number"},
    {"0x", 1, "Wrong number"},
    {"0xZZ", 1, "Wrong number"},
    {"0b2", 1, "Wrong number"},
    {"1.5.6x", 5, "Wrong number"},
    {"1e", 1, "Wrong number"},
    {"1e5e", 1, "Wrong number"},
    {"$", 1, "Unrecognized token"},
    {"a @ b", 3, "Unrecognized token"},
    {"a ! b", 3, "Unrecognized token"},
    {"a | b", 3, "Unrecognized token"},
    {"a & b", 3, "Unrecognized token"},
    {"a ^ b", 3, "Unrecognized token"},
    {"\\", 1, "Unrecognized token"},
    {"a \x01", 3, "Unrecognized token"},
};

static void test_bad_tokens(void **state) {
    (void)state;
    for (size_t i = 0; i < MU_ARRAY_LEN(lex_bads); i++) {
        const lex_bad *c = &lex_bads[i];
        sql_token toks[8];
        int rc = 0;
        sql_lexer lx;
        mu_err err;
        mu_err_clear(&err);
        sql_lexer_init(&lx, c->text, strlen(c->text));
        for (size_t k = 0; k < 8; k++) {
            rc = sql_lexer_next(&lx, &toks[k], &err);
            if (rc < 0 || toks[k].kind == SQL_TOK_EOF) break;
        }
        if (rc != MU_ESYNTAX) fail_msg("%s: rc %d", c->text, rc);
        char want[64];
        snprintf(want, sizeof(want), "failed at position %zu ", c->position);
        if (strstr(err.message, want) == NULL || strstr(err.message, c->needle) == NULL)
            fail_msg("%s: %s", c->text, err.message);
    }
}

static void test_kind_names(void **state) {
    (void)state;
    for (int k = 0; k < SQL_TOK_KIND_COUNT; k++) {
        const char *name = sql_token_kind_name((sql_token_kind)k);
        assert_non_null(name);
        assert_string_not_equal(name, "?");
    }
    assert_string_equal(sql_token_kind_name(SQL_TOK_KIND_COUNT), "?");
    assert_string_equal(sql_token_kind_name(SQL_TOK_COMMA), "Comma");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_token_kinds),
        cmocka_unit_test(test_offsets),
        cmocka_unit_test(test_unquote),
        cmocka_unit_test(test_bad_tokens),
        cmocka_unit_test(test_kind_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
