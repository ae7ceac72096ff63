/* json_read.c: the streaming readers of JSONEachRow (JSONLines, NDJSON),
 * JSONStringsEachRow and JSONCompactEachRow. Bytes fed in chunks collect
 * in the reader's pending buffer; a scanner that knows JSON strings finds
 * where the next row's top-level object ({..}) or array ([..]) closes, so
 * a row is parsed only once complete, from contiguous bytes. Between rows:
 * whitespace, one optional ',' (JSONCompactEachRow: ',' or ';'), a UTF-8
 * BOM at the start, and for the object kinds an optional enclosing [ .. ]
 * or a final ';', as ClickHouse's JSONEachRowRowInputFormat accepts.
 *
 * Values follow ClickHouse's deserializeTextJSON with its defaults: keys
 * are matched to the batch's column names (unknown keys skipped,
 * input_format_skip_unknown_fields=1, or INCORRECT_DATA under
 * FMT_READ_UNKNOWN_FIELDS_ERROR; a missing key gives the column's
 * default, marked missing; a repeated key is INCORRECT_DATA), null gives
 * NULL or, for a column that is not Nullable, its default under
 * FMT_READ_NULL_AS_DEFAULT; numbers may be quoted, true/false read as 1/0
 * into numbers; a String column also takes numbers, booleans, objects and
 * arrays as their JSON text; Array and Map nest; a DateTime in a JSON
 * string follows date_time_input_format, a bare number is a Unix time.
 * JSONStringsEachRow values are JSON strings holding the value's text
 * form. A failing row leaves the columns as they were and the error names
 * row, key (or column) and value.
 *
 * Under fmt_reader_allow_errors a bad row is dropped: a row whose brackets
 * close is skipped whole; bytes that cannot start a row, and a row that
 * never closes (found at the end of the input, or past the row length
 * limit with a syntax error before its end), are skipped to the end of
 * their line, as ClickHouse's syncAfterError does, and reading goes on.
 */
#include "formats/formats_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
    JR_VALUE_SHOWN_MAX = 100,  /* bytes of a bad value quoted in messages */
    JR_KEY_SHOWN_MAX = 100,    /* bytes of a key quoted in messages */
    JR_SKIP_DEPTH_MAX = 1024,  /* nesting of a value read without a type (skipped key) */
    JR_NO_COLUMN = -1,
};

typedef struct jr_reader {
    /* Between rows. */
    bool bom_checked;
    bool started;        /* the first byte that is not a space was seen */
    bool in_brackets;    /* the rows are inside [ ... ] */
    bool ended;          /* ']' or ';' ended the data: only spaces (and one ';') follow */
    bool semicolon_seen;
    bool after_row;      /* a row ended and no separator followed yet */
    bool after_comma;    /* a ',' followed the last row */
    bool skip_line;      /* after a bad row: bytes up to the next \n are dropped */
    /* Inside a row: the scanner looking for its end (resumes at r->scan_pos). */
    bool in_row;
    bool in_string;
    bool escaped;
    uint32_t depth;
    /* Key lookup: open addressing over the column names. */
    uint32_t *slots;     /* column index + 1; 0 = empty */
    uint32_t slot_mask;
    size_t *name_bytes;
    uint8_t *seen;       /* per column: its key was read in this row */
    uint32_t *row_counts; /* per column: rows before the row being parsed */
    mu_buf text;         /* the decoded JSON string being read */
    mu_buf skip_text;    /* strings decoded only to be checked */
} jr_reader;

/* One row being parsed: its bytes and what messages name. */
typedef struct jr_ctx {
    fmt_reader *r;
    jr_reader *st;
    const uint8_t *p;
    size_t n;
    int col;             /* column being read, JR_NO_COLUMN for an unknown key */
    bool hit_end;        /* the row ended where more was expected (a cut row) */
    char key[JR_KEY_SHOWN_MAX + 1];
    mu_err *err;
} jr_ctx;

static bool jr_compact(const fmt_reader *r) { return r->kind == FMT_JSON_COMPACT_EACH_ROW; }

static bool jr_space(uint8_t ch) {
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v';
}

/* Bytes that end a bare token (number, true, false, null). */
static bool jr_delimiter(uint8_t ch) {
    return jr_space(ch) || ch == ',' || ch == ':' || ch == '[' || ch == ']' || ch == '{' ||
           ch == '}' || ch == '"';
}

static void jr_ws(const jr_ctx *x, size_t *i) {
    while (*i < x->n && jr_space(x->p[*i])) (*i)++;
}

static size_t jr_token_end(const jr_ctx *x, size_t at) {
    while (at < x->n && !jr_delimiter(x->p[at])) at++;
    return at;
}

static bool jr_word(const jr_ctx *x, size_t at, size_t end, const char *word) {
    size_t n = strlen(word);
    return end - at == n && memcmp(x->p + at, word, n) == 0;
}

/* A JSON number, loosely: sign, digits, '.', exponent; the typed parsers
 * check the rest. */
static bool jr_numeric(const uint8_t *s, size_t n) {
    bool digit = false;
    if (n == 0 || !strchr("+-.0123456789", s[0])) return false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] >= '0' && s[i] <= '9') digit = true;
        else if (!strchr("+-.eE", s[i])) return false;
    }
    return digit;
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

/* "row N, key 'k'" (object kinds) or "row N, column K 'name'". */
static void jr_where(const jr_ctx *x, char *out, size_t out_bytes) {
    unsigned long long row = (unsigned long long)x->r->row_number + 1;
    if (jr_compact(x->r) && x->col >= 0)
        snprintf(out, out_bytes, "row %llu, column %d '%s'", row, x->col + 1, x->key);
    else if (x->key[0] != 0 || x->col != JR_NO_COLUMN)
        snprintf(out, out_bytes, "row %llu, key '%s'", row, x->key);
    else
        snprintf(out, out_bytes, "row %llu", row);
}

/* Malformed JSON at byte `at` of the row. */
static int jr_syntax(jr_ctx *x, size_t at, const char *reason) {
    char where[JR_KEY_SHOWN_MAX + 64];
    if (at >= x->n) x->hit_end = true;
    jr_where(x, where, sizeof where);
    size_t shown = x->n - MU_MIN(at, x->n);
    shown = MU_MIN(shown, (size_t)40);
    return MU_ERR(x->err, MU_EINPUT_ASSERTION,
                  "Cannot parse input (%s): %s: %s at byte %zu of the row: '%.*s'%s",
                  fmt_name(x->r->kind), where, reason, at + 1, (int)shown,
                  (const char *)x->p + MU_MIN(at, x->n), at + shown < x->n ? "..." : "");
}

/* A value (input bytes [at, end)) that does not fit its column. */
static int jr_value_error(const jr_ctx *x, size_t at, size_t end, const char *reason,
                          int code) {
    char where[JR_KEY_SHOWN_MAX + 64];
    jr_where(x, where, sizeof where);
    size_t n = end > at ? end - at : 0;
    int shown = (int)MU_MIN(n, (size_t)JR_VALUE_SHOWN_MAX);
    return MU_ERR(x->err, code, "Cannot parse input (%s): %s: value '%.*s'%s: %s",
                  fmt_name(x->r->kind), where, shown, (const char *)x->p + at,
                  (size_t)shown < n ? "..." : "", reason);
}

/* ------------------------------------------------------------------ */
/* Strings and untyped values                                          */
/* ------------------------------------------------------------------ */

static int jr_hex4(const uint8_t *s, uint32_t *out) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        uint8_t ch = s[i];
        int d = ch >= '0' && ch <= '9' ? ch - '0'
              : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
              : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
        if (d < 0) return -1;
        v = v * 16 + (uint32_t)d;
    }
    *out = v;
    return 0;
}

static int jr_utf8(uint32_t cp, mu_buf *out, mu_err *err) {
    uint8_t b[4];
    size_t n;
    if (cp <= 0x7F) {
        b[0] = (uint8_t)cp;
        n = 1;
    } else if (cp <= 0x7FF) {
        b[0] = (uint8_t)(0xC0 | (cp >> 6));
        b[1] = (uint8_t)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp <= 0xFFFF) {
        b[0] = (uint8_t)(0xE0 | (cp >> 12));
        b[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (uint8_t)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        b[0] = (uint8_t)(0xF0 | (cp >> 18));
        b[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        b[3] = (uint8_t)(0x80 | (cp & 0x3F));
        n = 4;
    }
    return mu_buf_append(out, b, n, err);
}

/* \uXXXX at p[*k] (the backslash), with a surrogate pair as one code
 * point; a lone low surrogate is encoded as it is, as ClickHouse does. */
static int jr_unicode_escape(jr_ctx *x, size_t *k, size_t at, mu_buf *out) {
    const uint8_t *p = x->p;
    uint32_t cp, low;
    if (*k + 6 > x->n) x->hit_end = true;
    if (*k + 6 > x->n || jr_hex4(p + *k + 2, &cp) != 0)
        return jr_value_error(x, at, *k + 2, "bad \\u escape sequence", MU_EESCAPE);
    *k += 6;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        if (*k + 6 > x->n) x->hit_end = true;
        if (*k + 6 > x->n || p[*k] != '\\' || p[*k + 1] != 'u' || jr_hex4(p + *k + 2, &low) != 0)
            return jr_value_error(x, at, *k, "missing second part of surrogate pair",
                                  MU_EESCAPE);
        if (low < 0xDC00 || low > 0xDFFF)
            return jr_value_error(x, at, *k + 6, "incorrect surrogate pair", MU_EESCAPE);
        cp = 0x10000 + (cp - 0xD800) * 1024 + (low - 0xDC00);
        *k += 6;
    }
    return jr_utf8(cp, out, x->err);
}

/* Decodes the JSON string at p[*i] (a '"') into out; *i moves past it.
 * Escapes as ClickHouse's readJSONString: \" \\ \/ \b \f \n \r \t \uXXXX,
 * any other escaped byte stands for itself. */
static int jr_string(jr_ctx *x, size_t *i, mu_buf *out) {
    MU_ASSERT(*i < x->n && x->p[*i] == '"');
    size_t at = *i, k = at + 1;
    mu_buf_clear(out);
    for (;;) {
        size_t from = k;
        while (k < x->n && x->p[k] != '"' && x->p[k] != '\\') k++;
        int rc = mu_buf_append(out, x->p + from, k - from, x->err);
        if (rc != 0) return rc;
        if (k >= x->n || (x->p[k] == '\\' && k + 1 >= x->n)) {
            x->hit_end = true; /* the row's bytes end inside the string */
            return jr_syntax(x, at, "unterminated string");
        }
        if (x->p[k] == '"') break;
        uint8_t ch = x->p[k + 1];
        if (ch == 'u') {
            rc = jr_unicode_escape(x, &k, at, out);
            if (rc != 0) return rc;
            continue;
        }
        switch (ch) {
        case 'b': ch = '\b'; break;
        case 'f': ch = '\f'; break;
        case 'n': ch = '\n'; break;
        case 'r': ch = '\r'; break;
        case 't': ch = '\t'; break;
        default: break; /* \" \\ \/ and any other byte: itself */
        }
        rc = mu_buf_append_u8(out, ch, x->err);
        if (rc != 0) return rc;
        k += 2;
    }
    *i = k + 1;
    return 0;
}

typedef enum jr_skip_state { JR_WANT_VALUE, JR_WANT_KEY, JR_AFTER_VALUE } jr_skip_state;

/* Opens an object or array while skipping; an empty one closes at once. */
static int jr_skip_open(jr_ctx *x, size_t *k, uint8_t *closers, uint32_t *depth,
                        jr_skip_state *s) {
    if (*depth == JR_SKIP_DEPTH_MAX)
        return MU_ERR(x->err, MU_ETOO_DEEP, "Cannot parse input (%s): row %llu: JSON nested "
                      "deeper than %d levels", fmt_name(x->r->kind),
                      (unsigned long long)x->r->row_number + 1, JR_SKIP_DEPTH_MAX);
    uint8_t open = x->p[*k];
    closers[(*depth)++] = open == '{' ? '}' : ']';
    (*k)++;
    jr_ws(x, k);
    if (*k < x->n && x->p[*k] == closers[*depth - 1]) {
        (*depth)--;
        (*k)++;
        *s = JR_AFTER_VALUE;
    } else {
        *s = open == '{' ? JR_WANT_KEY : JR_WANT_VALUE;
    }
    return 0;
}

/* Moves *i past one JSON value of any shape, checking its syntax, without
 * recursion (depth bounded by JR_SKIP_DEPTH_MAX). */
static int jr_skip(jr_ctx *x, size_t *i) {
    uint8_t closers[JR_SKIP_DEPTH_MAX];
    uint32_t depth = 0;
    jr_skip_state s = JR_WANT_VALUE;
    size_t k = *i;
    int rc = 0;
    for (;;) {
        if (s == JR_AFTER_VALUE && depth == 0) break;
        jr_ws(x, &k);
        if (k >= x->n) return jr_syntax(x, k, "unexpected end of the row");
        uint8_t ch = x->p[k];
        if (s == JR_AFTER_VALUE) {
            if (ch == ',') {
                k++;
                s = closers[depth - 1] == '}' ? JR_WANT_KEY : JR_WANT_VALUE;
            } else if (ch == closers[depth - 1]) {
                k++;
                depth--;
            } else {
                return jr_syntax(x, k, closers[depth - 1] == '}' ? "expected ',' or '}'"
                                                                 : "expected ',' or ']'");
            }
        } else if (s == JR_WANT_KEY) {
            if (ch != '"') return jr_syntax(x, k, "expected a key");
            rc = jr_string(x, &k, &x->st->skip_text);
            jr_ws(x, &k);
            if (rc == 0 && (k >= x->n || x->p[k] != ':')) return jr_syntax(x, k, "expected ':'");
            k++;
            s = JR_WANT_VALUE;
        } else if (ch == '{' || ch == '[') {
            rc = jr_skip_open(x, &k, closers, &depth, &s);
        } else if (ch == '"') {
            rc = jr_string(x, &k, &x->st->skip_text);
            s = JR_AFTER_VALUE;
        } else {
            size_t end = jr_token_end(x, k);
            if (!jr_word(x, k, end, "true") && !jr_word(x, k, end, "false") &&
                !jr_word(x, k, end, "null") && !jr_numeric(x->p + k, end - k))
                return jr_syntax(x, k, "expected a JSON value");
            k = end;
            s = JR_AFTER_VALUE;
        }
        if (rc != 0) return rc;
    }
    *i = k;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Typed values                                                        */
/* ------------------------------------------------------------------ */

/* The type that decides how a value is read: Nullable and LowCardinality
 * removed. */
static const ty_type *jr_base_type(const ty_type *type) {
    const ty_type *t = ty_type_strip_nullable(type);
    if (t->kind == TY_LOW_CARDINALITY) t = ty_type_strip_nullable(t->child);
    return t;
}

/* Appends text parsed strictly as the column's type; the input bytes
 * [at, end) are quoted if it does not parse. Text from a JSON string
 * follows date_time_input_format; a bare token is read the basic way (a
 * DateTime as Unix time, as ClickHouse reads a JSON number). */
static int jr_append_text(jr_ctx *x, ty_column *c, const void *text, size_t n, size_t at,
                          size_t end, bool from_string) {
    if (jr_base_type(c->type)->kind == TY_NOTHING)
        return jr_value_error(x, at, end, "a Nothing column holds only null",
                              MU_EINPUT_ASSERTION);
    mu_err inner;
    mu_err_clear(&inner);
    const ty_text_options *opt = from_string ? &x->r->text_options : NULL;
    int rc = ty_column_append_text_opt(c, text, n, opt, &inner);
    if (rc == MU_EPARSE)
        return jr_value_error(x, at, end, inner.message, MU_EINPUT_ASSERTION);
    if (rc == MU_EPARSE_DATE || rc == MU_EPARSE_DATETIME || rc == MU_EPARSE_UUID)
        return jr_value_error(x, at, end, inner.message, rc);
    if (rc != 0) return MU_ERR(x->err, rc, "%s", inner.message);
    return 0;
}

/* null: NULL, or the default of a column that is not Nullable
 * (input_format_null_as_default; at the top level the row is marked
 * missing, so the column's DEFAULT expression may replace it). */
static int jr_null(jr_ctx *x, ty_column *c, size_t at, size_t end) {
    if (c->nullable) return ty_column_append_null(c, x->err);
    if (!(x->r->flags & FMT_READ_NULL_AS_DEFAULT))
        return jr_value_error(x, at, end, "null in a column that is not Nullable", MU_EPARSE);
    uint32_t row = c->row_count;
    int rc = ty_column_append_default(c, x->err);
    bool top = x->col >= 0 && c == x->r->batch->columns[x->col];
    return rc == 0 && top ? fmt__mark_missing(x->r, (uint32_t)x->col, row, x->err) : rc;
}

static int jr_value(jr_ctx *x, ty_column *c, size_t *i);

/* [v, ...] into an Array column. */
static int jr_array(jr_ctx *x, ty_column *c, size_t *i) {
    size_t k = *i;
    if (x->p[k] != '[') {
        size_t end = k;
        (void)jr_skip(x, &end);
        return jr_value_error(x, k, end, "expected an array", MU_EINPUT_ASSERTION);
    }
    ty_column *elements = ty_column_child_mut(c, 0);
    k++;
    jr_ws(x, &k);
    bool more = k < x->n && x->p[k] != ']';
    while (more) {
        int rc = jr_value(x, elements, &k);
        if (rc != 0) return rc;
        jr_ws(x, &k);
        if (k < x->n && x->p[k] == ',') k++;
        else if (k < x->n && x->p[k] == ']') more = false;
        else return jr_syntax(x, k, "expected ',' or ']'");
    }
    if (k >= x->n) return jr_syntax(x, k, "expected ']'");
    *i = k + 1;
    return ty_column_append_nested_end(c, x->err);
}

/* {"key": v, ...} into a Map column; keys are read as text of the key type. */
static int jr_map(jr_ctx *x, ty_column *c, size_t *i) {
    size_t k = *i;
    if (x->p[k] != '{') {
        size_t end = k;
        (void)jr_skip(x, &end);
        return jr_value_error(x, k, end, "expected an object", MU_EINPUT_ASSERTION);
    }
    k++;
    jr_ws(x, &k);
    bool more = k < x->n && x->p[k] != '}';
    while (more) {
        jr_ws(x, &k);
        if (k >= x->n || x->p[k] != '"') return jr_syntax(x, k, "expected a key");
        size_t key_at = k;
        int rc = jr_string(x, &k, &x->st->text);
        if (rc == 0)
            rc = jr_append_text(x, ty_column_child_mut(c, 0), x->st->text.data,
                                x->st->text.length_bytes, key_at, k, true);
        if (rc != 0) return rc;
        jr_ws(x, &k);
        if (k >= x->n || x->p[k] != ':') return jr_syntax(x, k, "expected ':'");
        k++;
        rc = jr_value(x, ty_column_child_mut(c, 1), &k);
        if (rc != 0) return rc;
        jr_ws(x, &k);
        if (k < x->n && x->p[k] == ',') k++;
        else if (k < x->n && x->p[k] == '}') more = false;
        else return jr_syntax(x, k, "expected ',' or '}'");
    }
    if (k >= x->n) return jr_syntax(x, k, "expected '}'");
    *i = k + 1;
    return ty_column_append_nested_end(c, x->err);
}

/* A String column also takes objects and arrays (their JSON text, as
 * input_format_json_read_objects_as_strings / _arrays_as_strings), true,
 * false and numbers (as written: _read_bools_as_strings,
 * _read_numbers_as_strings). */
static int jr_string_unquoted(jr_ctx *x, ty_column *c, size_t *i) {
    size_t at = *i, end = at;
    if (x->p[at] == '{' || x->p[at] == '[') {
        int rc = jr_skip(x, &end);
        if (rc != 0) return rc;
    } else {
        end = jr_token_end(x, at);
        if (end == at) return jr_syntax(x, at, "expected a value");
        if (!jr_word(x, at, end, "true") && !jr_word(x, at, end, "false") &&
            !jr_numeric(x->p + at, end - at))
            return jr_value_error(x, at, end, "cannot parse JSON String value here",
                                  MU_EINCORRECT_DATA);
    }
    *i = end;
    return jr_append_text(x, c, x->p + at, end - at, at, end, false);
}

/* Scalars: a JSON string holds the value's text (numbers may be quoted);
 * bare tokens are numbers (true/false read as 1/0 into numbers), Bool,
 * Decimal, DateTime[64] as Unix time and Enum values; Date, Date32, UUID
 * and FixedString must be strings. */
static int jr_scalar(jr_ctx *x, ty_column *c, size_t *i) {
    size_t at = *i;
    ty_kind kind = jr_base_type(c->type)->kind;
    if (x->p[at] == '"') {
        int rc = jr_string(x, i, &x->st->text);
        if (rc != 0) return rc;
        return jr_append_text(x, c, x->st->text.data, x->st->text.length_bytes, at, *i, true);
    }
    if (kind == TY_STRING) return jr_string_unquoted(x, c, i);
    size_t end = at;
    if (x->p[at] == '{' || x->p[at] == '[') {
        (void)jr_skip(x, &end);
        return jr_value_error(x, at, end, "expected a scalar value", MU_EINPUT_ASSERTION);
    }
    end = jr_token_end(x, at);
    if (end == at) return jr_syntax(x, at, "expected a value");
    if (kind == TY_FIXED_STRING || kind == TY_DATE || kind == TY_DATE32 || kind == TY_UUID ||
        kind == TY_NOTHING)
        return jr_value_error(x, at, end, "expected a JSON string", MU_EINPUT_ASSERTION);
    *i = end;
    bool number = kind <= TY_FLOAT64;
    if (number && jr_word(x, at, end, "true")) return jr_append_text(x, c, "1", 1, at, end, false);
    if (number && jr_word(x, at, end, "false"))
        return jr_append_text(x, c, "0", 1, at, end, false);
    return jr_append_text(x, c, x->p + at, end - at, at, end, false);
}

/* One value of column c at p[*i]. Recursion follows the type tree, whose
 * depth is bounded by TY_TYPE_DEPTH_MAX. */
static int jr_value(jr_ctx *x, ty_column *c, size_t *i) {
    jr_ws(x, i);
    if (*i >= x->n) return jr_syntax(x, *i, "expected a value");
    size_t at = *i;
    if (x->p[at] == 'n') {
        size_t end = jr_token_end(x, at);
        if (jr_word(x, at, end, "null")) {
            *i = end;
            return jr_null(x, c, at, end);
        }
    }
    ty_kind kind = ty_type_strip_nullable(c->type)->kind;
    if (kind == TY_ARRAY) return jr_array(x, c, i);
    if (kind == TY_MAP) return jr_map(x, c, i);
    return jr_scalar(x, c, i);
}

/* JSONStringsEachRow: the value is a JSON string holding the text form;
 * the whole text NULL (any case) or ᴺᵁᴸᴸ is NULL (or the default, as
 * ClickHouse's deserializeWholeText under input_format_null_as_default). */
static int jr_text_value(jr_ctx *x, ty_column *c, size_t *i) {
    jr_ws(x, i);
    size_t at = *i;
    if (at >= x->n || x->p[at] != '"') {
        size_t end = at;
        (void)jr_skip(x, &end);
        return jr_value_error(x, at, end, "expected a JSON string", MU_EINPUT_ASSERTION);
    }
    int rc = jr_string(x, i, &x->st->text);
    if (rc != 0) return rc;
    const mu_buf *t = &x->st->text;
    static const char pretty_null[] = "\xE1\xB4\xBA\xE1\xB5\x81\xE1\xB4\xB8\xE1\xB4\xB8";
    bool null = (t->length_bytes == 4 && strncasecmp((const char *)t->data, "null", 4) == 0) ||
                (t->length_bytes == sizeof pretty_null - 1 &&
                 memcmp(t->data, pretty_null, sizeof pretty_null - 1) == 0);
    if (null && (c->nullable || (x->r->flags & FMT_READ_NULL_AS_DEFAULT)))
        return jr_null(x, c, at, *i);
    return jr_append_text(x, c, t->data, t->length_bytes, at, *i, true);
}

/* ------------------------------------------------------------------ */
/* Rows                                                                */
/* ------------------------------------------------------------------ */

static void jr_set_key(jr_ctx *x, const void *key, size_t n) {
    n = MU_MIN(n, (size_t)JR_KEY_SHOWN_MAX);
    if (n > 0) memcpy(x->key, key, n); /* an empty key may have no bytes at all */
    x->key[n] = 0;
}

/* The column of a key: the one at the key's position if its name matches
 * (rows usually repeat the column order), else a hash lookup. */
static int jr_lookup(const jr_ctx *x, const uint8_t *key, size_t n, uint32_t key_index) {
    const ty_batch *b = x->r->batch;
    const jr_reader *st = x->st;
    if (key_index < b->column_count && st->name_bytes[key_index] == n &&
        memcmp(b->names[key_index], key, n) == 0)
        return (int)key_index;
    uint32_t h = (uint32_t)mu_hash64(key, n) & st->slot_mask;
    for (uint32_t probe = 0; probe <= st->slot_mask; probe++) {
        uint32_t slot = st->slots[(h + probe) & st->slot_mask];
        if (slot == 0) break;
        if (st->name_bytes[slot - 1] == n && memcmp(b->names[slot - 1], key, n) == 0)
            return (int)slot - 1;
    }
    return JR_NO_COLUMN;
}

/* One "key": value pair of an object row, k after the key's quote. */
static int jr_pair(jr_ctx *x, size_t *k, uint32_t key_index) {
    size_t key_at = *k;
    int rc = jr_string(x, k, &x->st->text);
    if (rc != 0) return rc;
    size_t key_end = *k;
    const mu_buf *key = &x->st->text;
    jr_set_key(x, key->data, key->length_bytes);
    x->col = jr_lookup(x, key->data, key->length_bytes, key_index);
    jr_ws(x, k);
    if (*k >= x->n || x->p[*k] != ':') return jr_syntax(x, *k, "expected ':'");
    (*k)++;
    if (x->col == JR_NO_COLUMN && (x->r->flags & FMT_READ_UNKNOWN_FIELDS_ERROR))
        return jr_value_error(x, key_at, key_end, "unknown field found while parsing "
                              "JSONEachRow format (input_format_skip_unknown_fields=0)",
                              MU_EINCORRECT_DATA);
    if (x->col == JR_NO_COLUMN) {
        jr_ws(x, k);
        return jr_skip(x, k); /* input_format_skip_unknown_fields=1 */
    }
    if (x->st->seen[x->col])
        return jr_value_error(x, key_at, key_end,
                              "duplicate field found while parsing JSONEachRow format",
                              MU_EINCORRECT_DATA);
    x->st->seen[x->col] = 1;
    ty_column *c = x->r->batch->columns[x->col];
    return x->r->kind == FMT_JSON_STRINGS_EACH_ROW ? jr_text_value(x, c, k) : jr_value(x, c, k);
}

/* {"key": value, ...}; columns whose key is missing get their default,
 * marked missing. */
static int jr_object_row(jr_ctx *x) {
    ty_batch *b = x->r->batch;
    memset(x->st->seen, 0, b->column_count);
    size_t k = 1;
    for (uint32_t key_index = 0;; key_index++) {
        x->col = JR_NO_COLUMN;
        jr_ws(x, &k);
        if (k >= x->n) return jr_syntax(x, k, "expected '}'");
        if (x->p[k] == '}') break;
        if (key_index > 0) {
            if (x->p[k] != ',') return jr_syntax(x, k, "expected ',' or '}'");
            k++;
            jr_ws(x, &k);
        }
        if (k >= x->n || x->p[k] != '"') return jr_syntax(x, k, "expected a key");
        int rc = jr_pair(x, &k, key_index);
        if (rc != 0) return rc;
        x->key[0] = 0;
    }
    if (k + 1 != x->n) return jr_syntax(x, k + 1, "unexpected data after the object");
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < b->column_count; i++) {
        if (x->st->seen[i]) continue;
        uint32_t row = b->columns[i]->row_count;
        rc = ty_column_append_default(b->columns[i], x->err);
        if (rc == 0) rc = fmt__mark_missing(x->r, i, row, x->err);
    }
    return rc;
}

/* [v1, v2, ...] with exactly one value per column, in order. */
static int jr_compact_row(jr_ctx *x) {
    ty_batch *b = x->r->batch;
    size_t k = 1;
    for (uint32_t col = 0; col < b->column_count; col++) {
        x->col = (int)col;
        jr_set_key(x, b->names[col], strlen(b->names[col]));
        jr_ws(x, &k);
        if (k < x->n && x->p[k] == ']')
            return MU_ERR(x->err, MU_EINPUT_ASSERTION, "Cannot parse input (%s): row %llu: "
                          "expected %u values, found %u", fmt_name(x->r->kind),
                          (unsigned long long)x->r->row_number + 1, b->column_count, col);
        if (col > 0) {
            if (k >= x->n || x->p[k] != ',') return jr_syntax(x, k, "expected ',' or ']'");
            k++;
        }
        int rc = jr_value(x, b->columns[col], &k);
        if (rc != 0) return rc;
    }
    x->col = JR_NO_COLUMN;
    x->key[0] = 0;
    jr_ws(x, &k);
    if (k < x->n && x->p[k] == ',')
        return MU_ERR(x->err, MU_EINPUT_ASSERTION, "Cannot parse input (%s): row %llu: "
                      "expected %u values, found more", fmt_name(x->r->kind),
                      (unsigned long long)x->r->row_number + 1, b->column_count);
    if (k + 1 != x->n || x->p[k] != ']') return jr_syntax(x, k, "expected ']'");
    return 0;
}

/* Parses one complete row p[0..n); on failure every column is cut back to
 * its row count before the row, and *hit_end (may be NULL) tells whether
 * the row's bytes ended where more were expected. */
static int jr_row(fmt_reader *r, const uint8_t *p, size_t n, bool *hit_end, mu_err *err) {
    jr_ctx x = {.r = r, .st = r->impl, .p = p, .n = n, .col = JR_NO_COLUMN, .err = err};
    ty_batch *b = r->batch;
    uint32_t *rows = x.st->row_counts;
    for (uint32_t i = 0; i < b->column_count; i++) rows[i] = b->columns[i]->row_count;
    int rc = jr_compact(r) ? jr_compact_row(&x) : jr_object_row(&x);
    if (rc != 0) {
        /* also when the row count did not move: an Array may hold
         * elements of an unfinished row */
        for (uint32_t i = 0; i < b->column_count; i++)
            ty_column_truncate(b->columns[i], rows[i]);
        fmt__unmark_rows_from(r, rows[0]);
        if (hit_end) *hit_end = x.hit_end;
        return rc;
    }
    r->row_number++;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Streaming                                                           */
/* ------------------------------------------------------------------ */

/* Error about the bytes between rows at pending[at]. */
static int jr_between_error(fmt_reader *r, size_t at, const char *reason, mu_err *err) {
    size_t n = r->pending.length_bytes - at;
    int shown = (int)MU_MIN(n, (size_t)40);
    return MU_ERR(err, MU_EINPUT_ASSERTION, "Cannot parse input (%s): row %llu: %s: '%.*s'%s",
                  fmt_name(r->kind), (unsigned long long)r->row_number + 1, reason, shown,
                  (const char *)r->pending.data + at, (size_t)shown < n ? "..." : "");
}

/* Skips what may stand between rows at pending[*at]. Returns 1 with a row
 * starting at *at, 0 when more bytes are needed (or, if final, the data
 * ended well), or an error. */
static int jr_between(fmt_reader *r, size_t *at, bool final, mu_err *err) {
    jr_reader *st = r->impl;
    const uint8_t *p = r->pending.data;
    size_t n = r->pending.length_bytes;
    bool compact = jr_compact(r);
    if (!st->bom_checked) {
        size_t have = MU_MIN(n - *at, (size_t)3);
        if (!final && have < 3 && (have == 0 || memcmp(p + *at, "\xEF\xBB\xBF", have) == 0))
            return 0; /* too few bytes yet to tell a BOM */
        if (have == 3 && memcmp(p + *at, "\xEF\xBB\xBF", 3) == 0) *at += 3;
        st->bom_checked = true;
    }
    for (;;) {
        while (*at < n && jr_space(p[*at])) (*at)++;
        if (*at == n) {
            if (final && st->in_brackets && !st->ended)
                return jr_between_error(r, *at, "expected ']' at the end of the data", err);
            return 0;
        }
        uint8_t ch = p[*at];
        if (st->ended) {
            if (ch != ';' || st->semicolon_seen)
                return jr_between_error(r, *at, "unexpected data after the end", err);
            st->semicolon_seen = true;
        } else if (!st->started && !compact && ch == '[') {
            st->in_brackets = true;
        } else if (st->after_row && (ch == ',' || (compact && ch == ';'))) {
            st->after_row = false;
            st->after_comma = ch == ',';
        } else if (!compact && ((ch == ';' && !st->in_brackets) ||
                                (ch == ']' && st->in_brackets && !st->after_comma))) {
            st->ended = true;
            st->semicolon_seen = ch == ';';
        } else if (ch == (compact ? '[' : '{')) {
            st->started = true;
            return 1;
        } else {
            return jr_between_error(r, *at, compact ? "expected '[' at the start of a row"
                                                    : "expected '{' at the start of a row",
                                    err);
        }
        st->started = true;
        (*at)++;
    }
}

/* Scans the row starting at `at` from r->scan_pos; true with *end (one
 * past its closing bracket) once the brackets balance outside strings. */
static bool jr_scan(fmt_reader *r, size_t at, size_t *end) {
    jr_reader *st = r->impl;
    const uint8_t *p = r->pending.data;
    size_t n = r->pending.length_bytes;
    MU_ASSERT(r->scan_pos >= at);
    /* Speed: the state lives in locals (stores through st would be
     * reloaded after every byte, which may alias it), and a string's body
     * is skipped by a tight loop. */
    bool in_string = st->in_string, escaped = st->escaped;
    uint32_t depth = st->depth;
    bool found = false;
    size_t i = r->scan_pos;
    while (i < n) {
        if (in_string) {
            if (escaped) {
                escaped = false;
                i++;
                continue;
            }
            while (i < n && p[i] != '"' && p[i] != '\\') i++;
            if (i == n) break;
            if (p[i] == '\\') escaped = true;
            else in_string = false;
            i++;
            continue;
        }
        uint8_t ch = p[i++];
        if (ch == '"') {
            in_string = true;
        } else if (ch == '{' || ch == '[') {
            depth++;
        } else if ((ch == '}' || ch == ']') && --depth == 0) {
            found = true;
            break;
        }
    }
    st->in_string = in_string;
    st->escaped = escaped;
    st->depth = depth;
    r->scan_pos = i;
    if (found) *end = i;
    return found;
}

static int jr_too_large(fmt_reader *r, mu_err *err) {
    return MU_ERR(err, MU_ETOO_LARGE, "Cannot parse input (%s): row %llu is longer than %zu "
                  "bytes", fmt_name(r->kind), (unsigned long long)r->row_number + 1,
                  r->max_record_bytes);
}

/* skip_line: drops bytes up to and including the next line end; false
 * when the pending bytes end first (all of them dropped). */
static bool jr_skip_line(fmt_reader *r, size_t *at) {
    jr_reader *st = r->impl;
    const uint8_t *p = r->pending.data;
    size_t n = r->pending.length_bytes;
    const uint8_t *nl = *at < n ? memchr(p + *at, '\n', n - *at) : NULL;
    if (nl == NULL) {
        *at = n;
        return false;
    }
    *at = (size_t)(nl - p) + 1;
    st->skip_line = false;
    st->after_row = st->after_comma = false;
    return true;
}

/* A row, or bytes between rows, that failed with rc: dropped with the rest
 * of its line when fmt_reader_allow_errors lets it (0), else rc. */
static int jr_drop_line(fmt_reader *r, int rc, mu_err *err) {
    if (!fmt__skip_row(r, rc, err)) return rc;
    jr_reader *st = r->impl;
    st->in_row = false;
    st->skip_line = true;
    st->started = true;
    return 0;
}

enum { JR_ROW_TAKEN = 2 };

/* A row at pending[at] whose brackets have not closed: more bytes may
 * come (0), unless the input ended or the row passed the length limit.
 * The bytes are parsed to find the error (at the end of the input, for
 * the message; past the limit, to tell a broken row from a long one
 * under fmt_reader_allow_errors). A syntax error before their end, or the
 * end of the input, drops the row to the end of its first line when
 * allowed; a row only cut by the limit is MU_ETOO_LARGE. JR_ROW_TAKEN if
 * the bytes were a whole row after all. */
static int jr_unclosed(fmt_reader *r, size_t at, bool final, mu_err *err) {
    size_t have = r->pending.length_bytes - at;
    bool too_long = have > r->max_record_bytes;
    bool allowed = r->allow_errors_num != 0 || r->allow_errors_ratio != 0;
    if (!final && !too_long) return 0;
    if (too_long && !allowed) return jr_too_large(r, err);
    bool hit_end = false;
    int rc = jr_row(r, r->pending.data + at, have, &hit_end, err);
    if (rc == 0) return JR_ROW_TAKEN; /* not expected: the scanner found no end */
    if (too_long && !final && hit_end) return jr_too_large(r, err);
    return jr_drop_line(r, rc, err);
}

/* Parses every complete row of the pending bytes. */
static int jr_drain(fmt_reader *r, bool final, mu_err *err) {
    jr_reader *st = r->impl;
    size_t at = 0, end;
    int rc = 0;
    for (;;) {
        if (st->skip_line && !jr_skip_line(r, &at)) break;
        if (!st->in_row) {
            if (r->batch->columns[0]->row_count >= TY_BATCH_ROWS_MAX) {
                rc = 1;
                break;
            }
            rc = jr_between(r, &at, final, err);
            if (rc < 0) rc = jr_drop_line(r, rc, err);
            if (rc == 0 && st->skip_line) continue;
            if (rc <= 0) break;
            st->in_row = true;
            st->in_string = st->escaped = false;
            st->depth = 0;
            r->scan_pos = at;
        }
        if (!jr_scan(r, at, &end)) {
            rc = jr_unclosed(r, at, final, err);
            if (rc == 0 && st->skip_line) continue;
            if (rc != JR_ROW_TAKEN) break;
            end = r->pending.length_bytes;
        } else if (end - at > r->max_record_bytes) {
            rc = jr_too_large(r, err);
            break;
        } else {
            rc = jr_row(r, r->pending.data + at, end - at, NULL, err);
            if (rc != 0 && !fmt__skip_row(r, rc, err)) break;
        }
        rc = 0;
        st->in_row = false;
        st->after_row = true;
        st->after_comma = false;
        at = end;
    }
    mu_buf_consume(&r->pending, at);
    r->scan_pos = r->scan_pos >= at ? r->scan_pos - at : 0;
    return rc;
}

static int jr_feed(fmt_reader *r, const void *data, size_t length_bytes, mu_err *err) {
    int rc = length_bytes ? mu_buf_append(&r->pending, data, length_bytes, err) : 0;
    return rc != 0 ? rc : jr_drain(r, false, err);
}

static int jr_finish(fmt_reader *r, mu_err *err) { return jr_drain(r, true, err); }

static void jr_deinit(fmt_reader *r) {
    jr_reader *st = r->impl;
    if (st == NULL) return;
    free(st->slots);
    free(st->name_bytes);
    free(st->seen);
    free(st->row_counts);
    mu_buf_deinit(&st->text);
    mu_buf_deinit(&st->skip_text);
    free(st);
    r->impl = NULL;
}

/* Builds the key lookup over the batch's column names (a repeated name:
 * its first column). */
static int jr_init(fmt_reader *r, mu_err *err) {
    const ty_batch *b = r->batch;
    MU_ASSERT(b->column_count > 0 && b->column_count <= TY_BATCH_COLUMNS_MAX);
    jr_reader *st = calloc(1, sizeof(*st));
    if (st == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for a %s reader",
                                  fmt_name(r->kind));
    r->impl = st;
    mu_buf_init(&st->text, 0);
    mu_buf_init(&st->skip_text, 0);
    uint32_t slots = 8;
    while (slots < 2 * b->column_count) slots *= 2;
    st->slots = calloc(slots, sizeof(uint32_t));
    st->name_bytes = calloc(b->column_count, sizeof(size_t));
    st->seen = calloc(b->column_count, 1);
    st->row_counts = calloc(b->column_count, sizeof(uint32_t));
    if (st->slots == NULL || st->name_bytes == NULL || st->seen == NULL ||
        st->row_counts == NULL) {
        jr_deinit(r);
        return MU_ERR(err, MU_ENOMEM, "out of memory for a %s reader", fmt_name(r->kind));
    }
    st->slot_mask = slots - 1;
    for (uint32_t i = 0; i < b->column_count; i++) {
        size_t n = strlen(b->names[i]);
        st->name_bytes[i] = n;
        uint32_t h = (uint32_t)mu_hash64(b->names[i], n) & st->slot_mask;
        while (st->slots[h] != 0 && strcmp(b->names[st->slots[h] - 1], b->names[i]) != 0)
            h = (h + 1) & st->slot_mask;
        if (st->slots[h] == 0) st->slots[h] = i + 1;
    }
    return 0;
}

static const fmt__reader_vt jr_vt = {jr_init, jr_feed, jr_finish, jr_deinit};

/* ---- Cutting the input for parallel parsing (formats.h) -------------- */

/* The last line end with a row's closing bracket before it (spaces
 * aside) and, unless it ends the bytes, the next row's opening bracket
 * right after it. */
size_t fmt__json_cut(fmt_kind kind, const uint8_t *p, size_t n) {
    uint8_t open = kind == FMT_JSON_COMPACT_EACH_ROW ? '[' : '{';
    uint8_t close = kind == FMT_JSON_COMPACT_EACH_ROW ? ']' : '}';
    while (n > 0) {
        const uint8_t *nl = memrchr(p, '\n', n);
        if (nl == NULL) return 0;
        size_t at = (size_t)(nl - p), k = at;
        while (k > 0 && jr_space(p[k - 1])) k--;
        if (k > 0 && p[k - 1] == close && (at + 1 == n || p[at + 1] == open)) return at + 1;
        n = at;
    }
    return 0;
}

bool fmt__json_at_boundary(const fmt_reader *r) {
    const jr_reader *st = r->impl;
    return !st->in_row && !st->ended && !st->in_brackets && !st->skip_line;
}

bool fmt__json_detachable(const fmt_reader *r) {
    const jr_reader *st = r->impl;
    return st->bom_checked && st->started && !st->in_brackets && !st->ended &&
           !st->after_comma && !st->skip_line;
}

void fmt__json_reset_scan(fmt_reader *r) {
    jr_reader *st = r->impl;
    st->in_row = st->in_string = st->escaped = false;
    st->depth = 0;
}

void fmt__json_resume(fmt_reader *r, const fmt_reader *from) {
    jr_reader *st = r->impl;
    const jr_reader *f = from->impl;
    st->bom_checked = f->bom_checked;
    st->started = f->started;
    st->after_row = f->after_row;
}

const fmt__reader_vt *fmt__reader_json(fmt_kind kind) {
    if (kind == FMT_JSON_EACH_ROW || kind == FMT_JSON_STRINGS_EACH_ROW ||
        kind == FMT_JSON_COMPACT_EACH_ROW)
        return &jr_vt;
    return NULL;
}
