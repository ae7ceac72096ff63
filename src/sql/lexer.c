/* lexer.c: tokens of muscles' ClickHouse SQL dialect, pulled one at a time so
 * that the parser can stop before the raw data tail of an INSERT.
 * Owns: token boundaries, comment skipping, the quoted-token unescaper and the
 * lexer's syntax-error messages. Invariant: every token lies inside the input
 * and tokens are delivered in order without overlap; the lexer never reads
 * past `length`. Token rules: src/sql/README.md.
 */
#include "sql/sql_int.h"

#include <string.h>

void sql_lexer_init(sql_lexer *lx, const char *text, size_t length) {
    MU_ASSERT(lx != NULL);
    MU_ASSERT(text != NULL || length == 0);
    lx->text = text;
    lx->length = length;
    lx->pos = 0;
    lx->prev_kind = SQL_TOK_EOF;
    lx->prev_end = 0;
}

static bool lex_is_word_start(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}

static bool lex_is_word_char(unsigned char c) {
    return lex_is_word_start(c) || (c >= '0' && c <= '9') || c == '$';
}

static bool lex_is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static bool lex_is_hex(unsigned char c) {
    return lex_is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Fills err with the ClickHouse-shaped lexer error at byte offset `at`. */
static int lex_fail(const sql_lexer *lx, size_t at, size_t token_bytes, const char *what,
                    mu_err *err) {
    return sql__syntax_error(lx->text, lx->length, at, token_bytes, what, err);
}

/* Skips whitespace and comments; fails on an unclosed block comment. */
static int lex_skip_space(sql_lexer *lx, mu_err *err) {
    const char *s = lx->text;
    while (lx->pos < lx->length) {
        unsigned char c = (unsigned char)s[lx->pos];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            lx->pos++;
        } else if (c == '-' && lx->pos + 1 < lx->length && s[lx->pos + 1] == '-') {
            while (lx->pos < lx->length && s[lx->pos] != '\n') lx->pos++;
        } else if (c == '/' && lx->pos + 1 < lx->length && s[lx->pos + 1] == '*') {
            size_t start = lx->pos;
            lx->pos += 2;
            while (lx->pos + 1 < lx->length && !(s[lx->pos] == '*' && s[lx->pos + 1] == '/'))
                lx->pos++;
            if (lx->pos + 1 >= lx->length) {
                lx->pos = lx->length;
                return lex_fail(lx, start, 2, "Multi-line comment is not closed", err);
            }
            lx->pos += 2;
        } else {
            break;
        }
    }
    return 0;
}

/* Scans a quoted token starting at lx->pos (the opening quote); a backslash
 * escapes the next byte and a doubled quote stands for one quote. */
static int lex_quoted(sql_lexer *lx, char quote, mu_err *err) {
    size_t start = lx->pos;
    size_t i = start + 1;
    while (i < lx->length) {
        char c = lx->text[i];
        if (c == '\\') {
            i += 2;
        } else if (c == quote) {
            if (i + 1 < lx->length && lx->text[i + 1] == quote) {
                i += 2;
            } else {
                lx->pos = i + 1;
                return 0;
            }
        } else {
            i++;
        }
    }
    lx->pos = lx->length;
    const char *what =
        quote == '\'' ? "Quoted string is not closed" : "Quoted identifier is not closed";
    return lex_fail(lx, start, 1, what, err);
}

/* Numbers: decimal integers, 0x / 0b integers, decimals with optional
 * fraction and exponent. A number glued to a word character is an error. */
static int lex_number(sql_lexer *lx, mu_err *err) {
    /* After '.', "2.1" in tup.2.1 is two elements, not a decimal. */
    bool integer_only =
        lx->prev_kind == SQL_TOK_DOT && lex_is_digit((unsigned char)lx->text[lx->pos]);
    const char *s = lx->text;
    size_t start = lx->pos, i = start, n = lx->length;
    if (i + 1 < n && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X') && i + 2 < n &&
        lex_is_hex((unsigned char)s[i + 2])) {
        i += 2;
        while (i < n && lex_is_hex((unsigned char)s[i])) i++;
    } else if (i + 1 < n && s[i] == '0' && (s[i + 1] == 'b' || s[i + 1] == 'B') && i + 2 < n &&
               (s[i + 2] == '0' || s[i + 2] == '1')) {
        i += 2;
        while (i < n && (s[i] == '0' || s[i] == '1')) i++;
    } else {
        while (i < n && lex_is_digit((unsigned char)s[i])) i++;
        if (integer_only) {
            /* no fraction or exponent */
        } else if (i < n && s[i] == '.') {
            i++;
            while (i < n && lex_is_digit((unsigned char)s[i])) i++;
        }
        if (!integer_only && i < n && (s[i] == 'e' || s[i] == 'E')) {
            size_t j = i + 1;
            if (j < n && (s[j] == '+' || s[j] == '-')) j++;
            if (j < n && lex_is_digit((unsigned char)s[j])) {
                while (j < n && lex_is_digit((unsigned char)s[j])) j++;
                i = j;
            }
        }
    }
    if (i < n && lex_is_word_char((unsigned char)s[i])) {
        while (i < n && lex_is_word_char((unsigned char)s[i])) i++;
        lx->pos = i;
        return lex_fail(lx, start, i - start, "Wrong number", err);
    }
    lx->pos = i;
    return 0;
}

/* {name:Type}: a word, a colon, then type text up to the matching '}' with
 * parentheses balanced and quotes skipped. Returns 1 when the bytes at pos
 * are not a parameter (then '{' is an ordinary token). */
static int lex_param(sql_lexer *lx) {
    const char *s = lx->text;
    size_t i = lx->pos + 1, n = lx->length;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    if (i >= n || !lex_is_word_start((unsigned char)s[i])) return 1;
    while (i < n && lex_is_word_char((unsigned char)s[i])) i++;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    if (i >= n || s[i] != ':' || (i + 1 < n && s[i + 1] == ':')) return 1;
    for (i++; i < n && (s[i] == ' ' || s[i] == '\t');) i++;
    if (i >= n || !lex_is_word_start((unsigned char)s[i])) return 1; /* a type name */
    int parens = 0;
    for (; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        /* Type text is printable: no control bytes, no nested braces. */
        if ((c < 0x20 && c != '\t') || c == 0x7f || c == '{') return 1;
        if (s[i] == '\'') {
            for (i++; i < n && s[i] != '\''; i++) {
                if ((unsigned char)s[i] < 0x20) return 1;
                if (s[i] == '\\') i++;
            }
            if (i >= n) return 1;
        } else if (s[i] == '(') {
            parens++;
        } else if (s[i] == ')') {
            if (--parens < 0) return 1;
        } else if (s[i] == '}' && parens == 0) {
            lx->pos = i + 1;
            return 0;
        }
    }
    return 1;
}

typedef struct lex_punct {
    const char *text;
    sql_token_kind kind;
} lex_punct;

/* Longest first, so "::" wins over ":" and "<=" over "<". */
static const lex_punct lex_puncts[] = {
    {"||", SQL_TOK_CONCAT}, {"==", SQL_TOK_EQEQ}, {"!=", SQL_TOK_NE}, {"<>", SQL_TOK_LTGT},
    {"<=", SQL_TOK_LE}, {">=", SQL_TOK_GE}, {"::", SQL_TOK_DCOLON}, {"->", SQL_TOK_ARROW},
    {"+", SQL_TOK_PLUS}, {"-", SQL_TOK_MINUS}, {"*", SQL_TOK_STAR}, {"/", SQL_TOK_SLASH},
    {"%", SQL_TOK_PERCENT}, {"=", SQL_TOK_EQ}, {"<", SQL_TOK_LT}, {">", SQL_TOK_GT},
    {"?", SQL_TOK_QUESTION}, {":", SQL_TOK_COLON}, {".", SQL_TOK_DOT}, {",", SQL_TOK_COMMA},
    {";", SQL_TOK_SEMICOLON}, {"(", SQL_TOK_LPAREN}, {")", SQL_TOK_RPAREN},
    {"[", SQL_TOK_LBRACKET}, {"]", SQL_TOK_RBRACKET}, {"{", SQL_TOK_LBRACE},
    {"}", SQL_TOK_RBRACE},
};

/* Tuple element access x.1 versus the number .1. */
static bool lex_after_name(const sql_lexer *lx) {
    sql_token_kind k = lx->prev_kind;
    return k == SQL_TOK_WORD || k == SQL_TOK_QUOTED_IDENT || k == SQL_TOK_RPAREN ||
           k == SQL_TOK_RBRACKET || (k == SQL_TOK_NUMBER && lx->prev_end == lx->pos);
}

static int lex_punct_match(sql_lexer *lx, sql_token *tok, mu_err *err) {
    size_t left = lx->length - lx->pos;
    for (size_t i = 0; i < MU_ARRAY_LEN(lex_puncts); i++) {
        size_t len = strlen(lex_puncts[i].text);
        if (len <= left && memcmp(lx->text + lx->pos, lex_puncts[i].text, len) == 0) {
            tok->kind = lex_puncts[i].kind;
            if (tok->kind == SQL_TOK_LBRACE && lex_param(lx) == 0) {
                tok->kind = SQL_TOK_PARAM;
                return 0;
            }
            lx->pos += len;
            return 0;
        }
    }
    return lex_fail(lx, lx->pos, 1, "Unrecognized token", err);
}

int sql_lexer_next(sql_lexer *lx, sql_token *tok, mu_err *err) {
    MU_ASSERT(lx != NULL && tok != NULL);
    MU_ASSERT(lx->pos <= lx->length);
    int rc = lex_skip_space(lx, err);
    if (rc < 0) return rc;
    tok->offset = lx->pos;
    tok->length = 0;
    if (lx->pos >= lx->length) {
        tok->kind = SQL_TOK_EOF;
        return 0;
    }
    unsigned char c = (unsigned char)lx->text[lx->pos];
    unsigned char c1 = lx->pos + 1 < lx->length ? (unsigned char)lx->text[lx->pos + 1] : 0;
    if (lex_is_word_start(c)) {
        while (lx->pos < lx->length && lex_is_word_char((unsigned char)lx->text[lx->pos]))
            lx->pos++;
        tok->kind = SQL_TOK_WORD;
    } else if (lex_is_digit(c) || (c == '.' && lex_is_digit(c1) && !lex_after_name(lx))) {
        tok->kind = SQL_TOK_NUMBER;
        rc = lex_number(lx, err);
    } else if (c == '\'') {
        tok->kind = SQL_TOK_STRING;
        rc = lex_quoted(lx, '\'', err);
    } else if (c == '`' || c == '"') {
        tok->kind = SQL_TOK_QUOTED_IDENT;
        rc = lex_quoted(lx, (char)c, err);
    } else {
        rc = lex_punct_match(lx, tok, err);
    }
    if (rc < 0) return rc;
    tok->length = lx->pos - tok->offset;
    lx->prev_kind = tok->kind;
    lx->prev_end = lx->pos;
    MU_ASSERT(tok->length > 0);
    return 0;
}

static int unquote_hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes one backslash escape at in[*i] (just past the backslash) into out. */
static size_t unquote_escape(const char *in, size_t n, size_t *i, char *out) {
    char c = in[*i];
    static const char from[] = "nrtbfva0e";
    static const char to[] = "\n\r\t\b\f\v\a\0\x1b";
    const char *hit = c != '\0' ? strchr(from, c) : NULL;
    if (hit != NULL) {
        out[0] = to[hit - from];
        (*i)++;
        return 1;
    }
    if (c == 'x' && *i + 2 < n && unquote_hex(in[*i + 1]) >= 0 &&
        unquote_hex(in[*i + 2]) >= 0) {
        out[0] = (char)(unquote_hex(in[*i + 1]) * 16 + unquote_hex(in[*i + 2]));
        *i += 3;
        return 1;
    }
    if (c == '\\' || c == '\'' || c == '"' || c == '`' || c == '?') {
        out[0] = c;
        (*i)++;
        return 1;
    }
    out[0] = '\\';
    out[1] = c;
    (*i)++;
    return 2;
}

int sql_unquote(const char *token_text, size_t token_bytes, mu_arena *arena, char **out,
                size_t *length_out, mu_err *err) {
    MU_ASSERT(token_text != NULL && token_bytes >= 2);
    MU_ASSERT(out != NULL && length_out != NULL);
    char quote = token_text[0];
    const char *in = token_text + 1;
    size_t n = token_bytes - 2, o = 0;
    char *buf = mu_arena_alloc(arena, n + 1, err);
    if (buf == NULL) return err != NULL ? err->code : MU_ENOMEM;
    for (size_t i = 0; i < n;) {
        if (in[i] == '\\' && i + 1 < n) {
            i++;
            o += unquote_escape(in, n, &i, buf + o);
        } else if (in[i] == quote && i + 1 < n && in[i + 1] == quote) {
            buf[o++] = quote;
            i += 2;
        } else {
            buf[o++] = in[i++];
        }
    }
    MU_ASSERT(o <= n);
    buf[o] = '\0';
    *out = buf;
    *length_out = o;
    return 0;
}

const char *sql_token_kind_name(sql_token_kind kind) {
    /* ClickHouse's token names, as its "Expected one of:" lists show them. */
    static const char *const names[SQL_TOK_KIND_COUNT] = {
        "end of query", "BareWord", "QuotedIdentifier", "Number", "StringLiteral",
        "query parameter", "Plus", "Minus", "Asterisk", "Slash", "Percent", "Concatenation",
        "Equals", "Equals", "NotEquals", "NotEquals", "Less", "LessOrEquals", "Greater",
        "GreaterOrEquals", "QuestionMark", "Colon", "DoubleColon", "Arrow", "Dot", "Comma",
        "Semicolon", "OpeningRoundBracket", "ClosingRoundBracket", "OpeningSquareBracket",
        "ClosingSquareBracket", "OpeningCurlyBrace", "ClosingCurlyBrace",
    };
    if ((unsigned)kind >= SQL_TOK_KIND_COUNT) return "?";
    return names[kind];
}
