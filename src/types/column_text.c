/* column_text.c: one row of text <-> one row of a column. Scalars use the
 * strict parsers of value_parse.c; String takes the text as is. Array and
 * Map read and write ClickHouse's quoted composite form, the one TSV and
 * CSV carry for them: [1,2], ['a','b\'c'], {'k':1}, NULL inside (for
 * Nullable elements), dates, UUIDs and enum names single-quoted. A failed
 * append leaves the column as it was (the row is truncated away).
 */
#include "types/types_int.h"

#include <string.h>
#include <strings.h>

typedef struct ct_reader {
    const char *s;
    size_t n;
    size_t pos;
    const ty_type *top; /* for messages */
    const ty_text_options *opt;
    mu_buf scratch;     /* unescaped quoted strings */
} ct_reader;

static int ct_append_scalar(ty_column *column, const char *text, size_t n,
                            const ty_text_options *opt, mu_err *err);
static int ct_value(ct_reader *r, ty_column *column, unsigned depth, mu_err *err);

static int ct_syntax(ct_reader *r, mu_err *err, const char *expected) {
    return ty__parse_error(err, r->top, r->s, r->n, "expected %s at position %zu", expected,
                           r->pos);
}

static void ct_skip_space(ct_reader *r) {
    while (r->pos < r->n && (r->s[r->pos] == ' ' || r->s[r->pos] == '\t' ||
                             r->s[r->pos] == '\n' || r->s[r->pos] == '\r'))
        r->pos++;
}

static bool ct_delimiter(char c) {
    return c == ',' || c == ']' || c == '}' || c == ':' || c == ' ' || c == '\t' || c == '\n' ||
           c == '\r';
}

static int ct_unescape_char(char c) {
    switch (c) {
    case 'b': return '\b';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case '0': return '\0';
    case 'a': return '\a';
    case 'v': return '\v';
    default: return (unsigned char)c;
    }
}

static int ct_hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* A single-quoted string with ClickHouse's escapes into r->scratch. */
static int ct_quoted(ct_reader *r, mu_err *err) {
    mu_buf_clear(&r->scratch);
    r->pos++; /* the opening quote */
    for (;;) {
        if (r->pos >= r->n) return ct_syntax(r, err, "a closing quote");
        char c = r->s[r->pos++];
        int out = (unsigned char)c;
        if (c == '\'' && r->pos < r->n && r->s[r->pos] == '\'') {
            r->pos++;
        } else if (c == '\'') {
            return 0;
        } else if (c == '\\') {
            if (r->pos >= r->n) return ct_syntax(r, err, "a character after '\\'");
            c = r->s[r->pos++];
            out = ct_unescape_char(c);
            if (c == 'x' && r->pos + 1 < r->n && ct_hex(r->s[r->pos]) >= 0 &&
                ct_hex(r->s[r->pos + 1]) >= 0) {
                out = ct_hex(r->s[r->pos]) << 4 | ct_hex(r->s[r->pos + 1]);
                r->pos += 2;
            }
        }
        int rc = mu_buf_append_u8(&r->scratch, (uint8_t)out, err);
        if (rc != 0) return rc;
    }
}

/* Elements of an Array ('[' ... ']') or entries of a Map ('{' k:v ... '}'). */
static int ct_nested(ct_reader *r, ty_column *column, bool is_map, unsigned depth, mu_err *err) {
    char open = is_map ? '{' : '[', close = is_map ? '}' : ']';
    ct_skip_space(r);
    if (r->pos >= r->n || r->s[r->pos] != open) return ct_syntax(r, err, is_map ? "'{'" : "'['");
    r->pos++;
    ct_skip_space(r);
    bool first = true;
    while (r->pos < r->n && r->s[r->pos] != close) {
        if (!first) {
            if (r->s[r->pos] != ',') return ct_syntax(r, err, "',' or the closing bracket");
            r->pos++;
        }
        first = false;
        int rc = ct_value(r, column->children[0], depth + 1, err);
        if (rc == 0 && is_map) {
            ct_skip_space(r);
            if (r->pos >= r->n || r->s[r->pos] != ':') return ct_syntax(r, err, "':'");
            r->pos++;
            rc = ct_value(r, column->children[1], depth + 1, err);
        }
        if (rc != 0) return rc;
        ct_skip_space(r);
    }
    if (r->pos >= r->n) return ct_syntax(r, err, is_map ? "'}'" : "']'");
    r->pos++;
    return ty_column_append_nested_end(column, err);
}

/* Kinds ClickHouse reads only single-quoted inside composites. DateTime
 * and DateTime64 also take a bare Unix time, numbers are bare (a quoted
 * number is tolerated). */
static bool ct_needs_quotes(const ty_type *v) {
    switch (v->kind) {
    case TY_STRING: case TY_FIXED_STRING: case TY_DATE: case TY_DATE32: case TY_UUID:
    case TY_ENUM8: case TY_ENUM16:
        return true;
    default:
        return false;
    }
}

/* One element in quoted form. Recursion is bounded by the type depth. */
static int ct_value(ct_reader *r, ty_column *column, unsigned depth, mu_err *err) {
    MU_ASSERT(depth <= TY_TYPE_DEPTH_MAX + 1);
    ct_skip_space(r);
    const ty_type *v = ty_type_strip_nullable(column->type);
    if (column->nullable && r->n - r->pos >= 4 && strncasecmp(r->s + r->pos, "NULL", 4) == 0 &&
        (r->n - r->pos == 4 || ct_delimiter(r->s[r->pos + 4]))) {
        r->pos += 4;
        return ty_column_append_null(column, err);
    }
    if (v->kind == TY_ARRAY || v->kind == TY_MAP)
        return ct_nested(r, column, v->kind == TY_MAP, depth, err);
    if (r->pos < r->n && r->s[r->pos] == '\'') {
        int rc = ct_quoted(r, err);
        if (rc != 0) return rc;
        return ct_append_scalar(column, (const char *)r->scratch.data, r->scratch.length_bytes,
                                r->opt, err);
    }
    size_t start = r->pos;
    while (r->pos < r->n && !ct_delimiter(r->s[r->pos])) r->pos++;
    if (r->pos == start) return ct_syntax(r, err, "a value");
    if (ct_needs_quotes(v->kind == TY_LOW_CARDINALITY ? column->children[0]->type : v)) {
        r->pos = start;
        return ct_syntax(r, err, "a quoted value");
    }
    /* A bare DateTime is a Unix time whatever the options (ClickHouse's
     * quoted form reads it as a number). */
    return ct_append_scalar(column, r->s + start, r->pos - start, NULL, err);
}

static int ct_append_scalar(ty_column *column, const char *text, size_t n,
                            const ty_text_options *opt, mu_err *err) {
    const ty_type *v = ty_type_strip_nullable(column->type);
    uint8_t value[16];
    if (v->kind == TY_STRING || v->kind == TY_FIXED_STRING)
        return ty_column_append_bytes(column, text, n, err);
    if (v->kind == TY_LOW_CARDINALITY) {
        const ty_type *d = column->children[0]->type;
        if (d->kind == TY_STRING || d->kind == TY_FIXED_STRING)
            return ty__lc_append_bytes(column, text, n, err);
        int rc = ty_value_parse_opt(d, text, n, opt, value, err);
        return rc ? rc : ty__lc_append_bytes(column, value, ty_type_value_bytes(d), err);
    }
    int rc = ty_value_parse_opt(v, text, n, opt, value, err);
    return rc ? rc : ty_column_append_value(column, value, err);
}

int ty_column_append_text(ty_column *column, const char *text, size_t text_bytes, mu_err *err) {
    return ty_column_append_text_opt(column, text, text_bytes, NULL, err);
}

int ty_column_append_text_opt(ty_column *column, const char *text, size_t text_bytes,
                              const ty_text_options *opt, mu_err *err) {
    MU_ASSERT(column != NULL && (text != NULL || text_bytes == 0));
    if (text == NULL) text = ""; /* no NULL pointers into mem* calls */
    const ty_type *v = ty_type_strip_nullable(column->type);
    if (v->kind != TY_ARRAY && v->kind != TY_MAP)
        return ct_append_scalar(column, text, text_bytes, opt, err);
    ct_reader r = {.s = text, .n = text_bytes, .top = column->type, .opt = opt};
    mu_buf_init(&r.scratch, 0);
    uint32_t rows = column->row_count;
    int rc = ct_nested(&r, column, v->kind == TY_MAP, 1, err);
    if (rc == 0) {
        ct_skip_space(&r);
        if (r.pos != r.n) rc = ct_syntax(&r, err, "the end of the value");
    }
    if (rc != 0) ty__column_truncate(column, rows);
    mu_buf_deinit(&r.scratch);
    MU_ASSERT(rc != 0 || column->row_count == rows + 1);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Rendering                                                           */
/* ------------------------------------------------------------------ */

static int ct_render_nested(const ty_column *c, bool is_map, uint32_t row, unsigned flags,
                            mu_buf *out, mu_err *err) {
    const uint32_t *offsets = ty_column_offsets(c);
    uint32_t start = mu_load_u32le((const uint8_t *)&offsets[row]);
    uint32_t end = mu_load_u32le((const uint8_t *)&offsets[row + 1]);
    unsigned inner = flags | TY_RENDER_QUOTED;
    int rc = mu_buf_append_u8(out, is_map ? '{' : '[', err);
    for (uint32_t i = start; rc == 0 && i < end; i++) {
        if (i > start) rc = mu_buf_append_u8(out, ',', err);
        if (rc == 0) rc = ty_column_render_text(c->children[0], i, inner, out, err);
        if (rc == 0 && is_map) rc = mu_buf_append_u8(out, ':', err);
        if (rc == 0 && is_map) rc = ty_column_render_text(c->children[1], i, inner, out, err);
    }
    return rc ? rc : mu_buf_append_u8(out, is_map ? '}' : ']', err);
}

/* Recursion follows the type tree (depth <= TY_TYPE_DEPTH_MAX). */
int ty_column_render_text(const ty_column *column, uint32_t row, unsigned flags, mu_buf *out,
                          mu_err *err) {
    MU_ASSERT(column != NULL && row < column->row_count);
    if (ty_column_is_null(column, row))
        return mu_buf_append_str(out, flags & TY_RENDER_QUOTED ? "NULL" : "\\N", err);
    const ty_type *v = ty_type_strip_nullable(column->type);
    size_t bytes;
    const uint8_t *data;
    switch (v->kind) {
    case TY_STRING:
    case TY_FIXED_STRING:
        data = ty_column_row_bytes(column, row, &bytes);
        if (flags & TY_RENDER_QUOTED) return ty__render_quoted_bytes(data, bytes, out, err);
        return mu_buf_append(out, data, bytes, err);
    case TY_LOW_CARDINALITY: {
        uint32_t index = mu_load_u32le(column->values.data + (size_t)row * 4);
        return ty_column_render_text(column->children[0], index, flags, out, err);
    }
    case TY_ARRAY:
    case TY_MAP:
        return ct_render_nested(column, v->kind == TY_MAP, row, flags, out, err);
    default:
        data = ty_column_row_bytes(column, row, &bytes);
        return ty_value_render(v, data, flags, out, err);
    }
}
