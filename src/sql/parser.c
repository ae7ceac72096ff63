/* parser.c: the parser's machinery and entry points: token cursor, the
 * bounded set of expected tokens behind "Expected one of:", ClickHouse-shaped
 * syntax errors, the depth counter, node allocation, and small shared pieces
 * (names, type text, SETTINGS, FORMAT). Statements live in parser_stmt.c,
 * parser_select.c and parser_ddl.c; expressions in parser_expr.c.
 * Invariant: the first failure is sticky in p->rc and is never overwritten.
 */
#include "sql/sql_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

int sql__syntax_error(const char *text, size_t length, size_t at, size_t token_bytes,
                      const char *what, mu_err *err) {
    char token[64];
    if (at >= length) {
        snprintf(token, sizeof(token), "end of query");
    } else {
        int n = (int)MU_MIN(token_bytes, (size_t)40);
        snprintf(token, sizeof(token), "'%.*s'", n, text + at);
    }
    size_t rest = at < length ? length - at : 0;
    int excerpt = (int)MU_MIN(rest, (size_t)SQL_EXCERPT_BYTES);
    return MU_ERR(err, MU_ESYNTAX, "Syntax error: failed at position %zu (%s): %.*s%s. %s",
                  at + 1, token, excerpt, at < length ? text + at : "",
                  rest > SQL_EXCERPT_BYTES ? "..." : "", what);
}

void sql__advance(sql_parser *p) {
    MU_ASSERT(p != NULL);
    if (p->rc < 0) return;
    int rc = sql_lexer_next(&p->lx, &p->tok, p->err);
    if (rc < 0) {
        p->rc = rc;
        p->tok.kind = SQL_TOK_EOF;
        p->tok.offset = p->lx.length;
        p->tok.length = 0;
    }
}

bool sql__is(const sql_parser *p, sql_token_kind kind) { return p->tok.kind == kind; }

/* Whether the token after the current one has `kind` (and, for a word, is
 * keyword kw when kw is not NULL). Lexes on a copy, so nothing moves. */
bool sql__peek_is(sql_parser *p, sql_token_kind kind, const char *kw) {
    sql_lexer copy = p->lx;
    sql_token next;
    mu_err ignored;
    if (sql_lexer_next(&copy, &next, &ignored) < 0) return false;
    if (next.kind != kind) return false;
    if (kw == NULL) return true;
    return next.length == strlen(kw) && strncasecmp(copy.text + next.offset, kw, next.length) == 0;
}

bool sql__is_kw(const sql_parser *p, const char *kw) {
    size_t n = strlen(kw);
    return p->tok.kind == SQL_TOK_WORD && p->tok.length == n &&
           strncasecmp(p->lx.text + p->tok.offset, kw, n) == 0;
}

void sql__expect_note(sql_parser *p, const char *what) {
    if (p->tok.offset < p->expected_offset) return;
    if (p->tok.offset > p->expected_offset) {
        p->expected_offset = p->tok.offset;
        p->expected_count = 0;
    }
    for (size_t i = 0; i < p->expected_count; i++)
        if (strcmp(p->expected[i], what) == 0) return;
    if (p->expected_count < SQL_EXPECTED_MAX) p->expected[p->expected_count++] = what;
}

bool sql__accept_kw(sql_parser *p, const char *kw) {
    if (sql__is_kw(p, kw)) {
        sql__advance(p);
        return true;
    }
    sql__expect_note(p, kw);
    return false;
}

bool sql__accept(sql_parser *p, sql_token_kind kind) {
    if (p->tok.kind == kind) {
        sql__advance(p);
        return true;
    }
    sql__expect_note(p, sql_token_kind_name(kind));
    return false;
}

int sql__expect_kw(sql_parser *p, const char *kw) {
    if (sql__accept_kw(p, kw)) return p->rc;
    return sql__fail_here(p);
}

int sql__expect(sql_parser *p, sql_token_kind kind) {
    if (sql__accept(p, kind)) return p->rc;
    return sql__fail_here(p);
}

/* Fails at the current token with what was expected there. */
int sql__fail_here(sql_parser *p) {
    if (p->rc < 0) return p->rc;
    char what[400];
    size_t used = 0;
    bool here = p->expected_offset == p->tok.offset && p->expected_count > 0;
    if (!here) {
        snprintf(what, sizeof(what), "Unexpected token");
    } else {
        used = (size_t)snprintf(what, sizeof(what), "Expected %s",
                                p->expected_count > 1 ? "one of: " : "");
        for (size_t i = 0; i < p->expected_count && used < sizeof(what); i++)
            used += (size_t)snprintf(what + used, sizeof(what) - used, "%s%s",
                                     i > 0 ? ", " : "", p->expected[i]);
    }
    p->rc = sql__syntax_error(p->lx.text, p->lx.length, p->tok.offset, p->tok.length, what,
                              p->err);
    return p->rc;
}

int sql__fail(sql_parser *p, const char *what) {
    sql__expect_note(p, what);
    return sql__fail_here(p);
}

int sql__enter(sql_parser *p) {
    if (p->rc < 0) return p->rc;
    if (p->depth >= p->depth_max) {
        p->rc = MU_ERR(p->err, MU_ETOO_DEEP,
                       "Maximum parse depth (%u) exceeded at position %zu (TOO_DEEP_AST)",
                       p->depth_max, p->tok.offset + 1);
        return p->rc;
    }
    p->depth++;
    return 0;
}

void sql__leave(sql_parser *p) {
    MU_ASSERT(p->depth > 0);
    p->depth--;
}

int sql__oom(sql_parser *p) {
    if (p->rc == 0) p->rc = p->err->code < 0 ? p->err->code : MU_ENOMEM;
    return p->rc;
}

sql_node *sql__node(sql_parser *p, sql_kind kind, size_t offset) {
    MU_ASSERT(kind > 0 && kind < SQL_KIND_COUNT);
    sql_node *n = mu_arena_calloc(p->arena, 1, sizeof(*n), p->err);
    if (n == NULL) {
        sql__oom(p);
        return NULL;
    }
    n->kind = kind;
    n->offset = offset;
    return n;
}

/* End of the last consumed token: the lexer position minus the current token. */
size_t sql__prev_end(const sql_parser *p) {
    const char *s = p->lx.text;
    size_t end = p->tok.offset;
    /* Step back over whitespace; comments between tokens stay in the span. */
    while (end > 0 && (s[end - 1] == ' ' || s[end - 1] == '\t' || s[end - 1] == '\n' ||
                       s[end - 1] == '\r'))
        end--;
    return end;
}

void sql__finish(sql_parser *p, sql_node *node) {
    size_t end = sql__prev_end(p);
    node->length = end > node->offset ? end - node->offset : 0;
}

int sql__list_push(sql_parser *p, sql_list *list, sql_node *item) {
    MU_ASSERT(item != NULL);
    /* Capacity doubles at powers of two; the arena never frees the old array. */
    size_t n = list->count;
    if (n == 0 || (n & (n - 1)) == 0) {
        size_t cap = n == 0 ? 4 : n * 2;
        sql_node **items = mu_arena_alloc(p->arena, cap * sizeof(*items), p->err);
        if (items == NULL) return sql__oom(p);
        if (n > 0) memcpy(items, list->items, n * sizeof(*items));
        list->items = items;
    }
    list->items[list->count++] = item;
    return 0;
}

/* Copies n bytes (NUL bytes included, unlike strndup) plus a terminator. */
int sql__str_copy(sql_parser *p, const char *s, size_t n, sql_str *out) {
    char *copy = mu_arena_alloc(p->arena, n + 1, p->err);
    if (copy == NULL) return sql__oom(p);
    if (n > 0) memcpy(copy, s, n);
    copy[n] = '\0';
    out->ptr = copy;
    out->length = n;
    return 0;
}

/* An identifier: a bare word that is not reserved, or a quoted identifier. */
int sql__ident_word(sql_parser *p, const char *what, sql_str *out) {
    const char *s = p->lx.text + p->tok.offset;
    if (p->tok.kind == SQL_TOK_WORD && !sql_word_is_reserved(s, p->tok.length)) {
        int rc = sql__str_copy(p, s, p->tok.length, out);
        if (rc < 0) return rc;
    } else if (p->tok.kind == SQL_TOK_QUOTED_IDENT) {
        char *text = NULL;
        size_t n = 0;
        if (sql_unquote(s, p->tok.length, p->arena, &text, &n, p->err) < 0) return sql__oom(p);
        out->ptr = text;
        out->length = n;
    } else {
        return sql__fail(p, what);
    }
    sql__advance(p);
    return p->rc;
}

/* A name after '.': keywords are names there (system.settings, t.from). */
int sql__ident_after_dot(sql_parser *p, sql_str *out) {
    if (p->tok.kind != SQL_TOK_WORD) return sql__ident_word(p, "identifier", out);
    int rc = sql__str_copy(p, p->lx.text + p->tok.offset, p->tok.length, out);
    if (rc < 0) return rc;
    sql__advance(p);
    return p->rc;
}

/* [db.]name */
int sql__name_pair(sql_parser *p, sql_str *database, sql_str *name) {
    int rc = sql__ident_word(p, "identifier", name);
    if (rc < 0) return rc;
    if (sql__accept(p, SQL_TOK_DOT)) {
        *database = *name;
        return sql__ident_after_dot(p, name);
    }
    return p->rc;
}

/* Appends token text to the canonical type text being built in buf. */
static int type_text_add(sql_parser *p, mu_buf *buf, sql_token_kind prev) {
    sql_token_kind k = p->tok.kind;
    /* "-1" stays glued; "- -" never becomes the comment opener "--". */
    bool space = buf->length_bytes > 0 && prev != SQL_TOK_LPAREN &&
                 !(prev == SQL_TOK_MINUS && k == SQL_TOK_NUMBER) && k != SQL_TOK_LPAREN &&
                 k != SQL_TOK_RPAREN && k != SQL_TOK_COMMA;
    if (space && mu_buf_append_u8(buf, ' ', p->err) < 0) return sql__oom(p);
    if (mu_buf_append(buf, p->lx.text + p->tok.offset, p->tok.length, p->err) < 0)
        return sql__oom(p);
    return 0;
}

/* A type name: a word and an optional parenthesised argument list with any
 * balanced contents. The text is rebuilt from tokens with canonical spacing
 * ("Decimal(10, 2)") for ty_type_parse; it is not interpreted here. */
int sql__type_text(sql_parser *p, sql_str *out) {
    if (p->tok.kind != SQL_TOK_WORD && p->tok.kind != SQL_TOK_QUOTED_IDENT)
        return sql__fail(p, "type name");
    mu_buf buf;
    mu_buf_init(&buf, 1u << 20);
    int rc = type_text_add(p, &buf, SQL_TOK_EOF);
    sql_token_kind prev = p->tok.kind;
    sql__advance(p);
    if (rc == 0 && p->tok.kind == SQL_TOK_LPAREN) {
        long parens = 0;
        do {
            if (p->tok.kind == SQL_TOK_EOF) {
                rc = sql__fail(p, ")");
                break;
            }
            parens += p->tok.kind == SQL_TOK_LPAREN ? 1 : p->tok.kind == SQL_TOK_RPAREN ? -1 : 0;
            rc = type_text_add(p, &buf, prev);
            prev = p->tok.kind;
            sql__advance(p);
        } while (rc == 0 && parens > 0 && p->rc == 0);
    }
    if (rc == 0 && p->rc == 0) rc = sql__str_copy(p, (const char *)buf.data, buf.length_bytes, out);
    mu_buf_deinit(&buf);
    MU_ASSERT(rc < 0 || p->rc < 0 || out->length > 0);
    return rc < 0 ? rc : p->rc;
}

int sql__string_literal(sql_parser *p, sql_str *out) {
    if (p->tok.kind != SQL_TOK_STRING) return sql__fail(p, "string literal");
    char *text = NULL;
    size_t n = 0;
    if (sql_unquote(p->lx.text + p->tok.offset, p->tok.length, p->arena, &text, &n, p->err) < 0)
        return sql__oom(p);
    out->ptr = text;
    out->length = n;
    sql__advance(p);
    return p->rc;
}

/* name = expr [, name = expr ...]; the SETTINGS keyword is already consumed.
 * A setting name may be a keyword: SETTINGS limit = 10, offset = 5. */
int sql__settings(sql_parser *p, sql_list *out) {
    do {
        sql_node *s = sql__node(p, SQL_SETTING, p->tok.offset);
        if (s == NULL) return p->rc;
        int rc = p->tok.kind == SQL_TOK_WORD ? sql__ident_after_dot(p, &s->setting.name)
                                             : sql__ident_word(p, "setting name", &s->setting.name);
        if (rc == 0) rc = sql__expect(p, SQL_TOK_EQ);
        if (rc == 0) rc = sql__expr(p, &s->setting.value);
        if (rc < 0) return rc;
        sql__finish(p, s);
        if (sql__list_push(p, out, s) < 0) return p->rc;
    } while (sql__accept(p, SQL_TOK_COMMA));
    return p->rc;
}

/* [FORMAT name]; a format name may be a keyword (FORMAT Null). */
int sql__format_clause(sql_parser *p, sql_str *out) {
    if (!sql__accept_kw(p, "FORMAT")) return p->rc;
    if (p->tok.kind != SQL_TOK_WORD) return sql__ident_word(p, "format name", out);
    return sql__ident_after_dot(p, out);
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */
/* ------------------------------------------------------------------ */

static void parser_init(sql_parser *p, const char *text, size_t length, mu_arena *arena,
                        const sql_parse_options *options, mu_err *err) {
    memset(p, 0, sizeof(*p));
    sql_lexer_init(&p->lx, text, length);
    p->arena = arena;
    p->err = err;
    p->depth_max = options != NULL && options->depth_max > 0 ? options->depth_max
                                                             : SQL_DEPTH_MAX_DEFAULT;
    sql__advance(p);
}

/* After the statement: an optional ';' and then nothing. */
static int parser_end(sql_parser *p, bool allow_semicolon) {
    if (p->rc < 0) return p->rc;
    if (allow_semicolon && p->tok.kind == SQL_TOK_SEMICOLON) {
        sql__advance(p);
        if (p->rc == 0 && p->tok.kind != SQL_TOK_EOF) {
            p->rc = sql__syntax_error(p->lx.text, p->lx.length, p->tok.offset, p->tok.length,
                                      "Multi-statements are not allowed", p->err);
        }
        return p->rc;
    }
    if (p->tok.kind != SQL_TOK_EOF) {
        sql__expect_note(p, "end of query");
        return sql__fail_here(p);
    }
    return 0;
}

int sql_parse(const char *text, size_t length, mu_arena *arena,
              const sql_parse_options *options, sql_node **stmt_out, mu_err *err) {
    MU_ASSERT(text != NULL || length == 0);
    MU_ASSERT(arena != NULL && stmt_out != NULL);
    mu_err local;
    sql_parser p;
    parser_init(&p, text, length, arena, options, err != NULL ? err : &local);
    sql_node *stmt = NULL;
    int rc = sql__statement(&p, &stmt);
    /* An INSERT with a data tail ends at its FORMAT name or VALUES keyword. */
    bool has_tail = rc == 0 && stmt->kind == SQL_INSERT && stmt->insert.format.ptr != NULL;
    if (rc == 0 && !has_tail) rc = parser_end(&p, true);
    if (rc < 0) return rc;
    MU_ASSERT(p.depth == 0);
    *stmt_out = stmt;
    return 0;
}

int sql_parse_expr(const char *text, size_t length, mu_arena *arena,
                   const sql_parse_options *options, sql_node **expr_out, mu_err *err) {
    MU_ASSERT(text != NULL || length == 0);
    MU_ASSERT(arena != NULL && expr_out != NULL);
    mu_err local;
    sql_parser p;
    parser_init(&p, text, length, arena, options, err != NULL ? err : &local);
    sql_node *expr = NULL;
    int rc = sql__expr_alias(&p, false, &expr);
    if (rc == 0) rc = parser_end(&p, false);
    if (rc < 0) return rc;
    *expr_out = expr;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Words                                                               */
/* ------------------------------------------------------------------ */

/* Words that end an expression or start a clause, and the literal words; to
 * be an identifier or alias they must be back-quoted. */
static const char *const sql_reserved[] = {
    "ALL", "AND", "ANTI", "ANY", "ARRAY", "AS", "ASC", "ASOF", "BETWEEN", "BY", "CASE",
    "CAST", "CROSS", "DESC", "DISTINCT", "ELSE", "END", "EXCEPT", "EXTRACT", "FALSE",
    "FINAL", "FORMAT", "FROM", "FULL", "GLOBAL", "GROUP", "HAVING", "ILIKE", "IN", "INF",
    "INNER", "INTERSECT", "INTERVAL", "INTO", "IS", "JOIN", "LEFT", "LIKE", "LIMIT", "NAN",
    "NOT", "NULL", "OFFSET", "ON", "OR", "ORDER", "OUTER", "PREWHERE", "RIGHT",
    "SAMPLE", "SELECT", "SEMI", "SETTINGS", "THEN", "TRUE", "UNION", "USING", "VALUES",
    "WHEN", "WHERE", "WITH",
};

bool sql_word_is_reserved(const char *word, size_t length) {
    for (size_t i = 0; i < MU_ARRAY_LEN(sql_reserved); i++) {
        if (strlen(sql_reserved[i]) == length && strncasecmp(sql_reserved[i], word, length) == 0)
            return true;
    }
    return false;
}

bool sql_str_eq(sql_str a, const char *text) {
    size_t n = strlen(text);
    return a.ptr != NULL && a.length == n && memcmp(a.ptr, text, n) == 0;
}

bool sql_str_ieq(sql_str a, const char *text) {
    size_t n = strlen(text);
    return a.ptr != NULL && a.length == n && strncasecmp(a.ptr, text, n) == 0;
}
