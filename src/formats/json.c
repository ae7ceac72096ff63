/* json.c: the JSON output family: JSON, JSONStrings, JSONCompact (one
 * document: "meta", "data", "totals", "rows", "rows_before_limit_at_least",
 * "statistics", tab indented), JSONColumns (one object of column arrays,
 * the whole result buffered as ClickHouse's mono block does), and the line
 * kinds JSONCompactEachRow and JSONStringsEachRow. Layout and value rules
 * follow ClickHouse's JSONUtils / JSONRowOutputFormat and the types'
 * serializeTextJSON[Pretty]: output_format_json_pretty_print=1 (arrays and
 * maps in "data" of JSON span lines, indented with tabs), 64-bit integers
 * quoted (fmt_output_options), floats bare with nan/inf as null, decimals
 * bare, NULL null (JSONStrings: "ᴺᵁᴸᴸ", the text form of NULL). JSON,
 * JSONStrings and JSONCompact replace invalid UTF-8 in their output with
 * U+FFFD as ClickHouse's WriteBufferValidUTF8 does (one per run of bad
 * bytes); the other kinds pass bytes through (output_format_json_validate_utf8=0).
 * Reference: docs clickhouse-compat.md section 2.4.
 */
#include "formats/formats_int.h"

#include <stdlib.h>
#include <string.h>

/* Indentation levels of the JSON document (tabs). */
enum { FJ_ROW_INDENT = 2, FJ_FIELD_INDENT = 3 };

typedef struct fj_state {
    uint32_t column_count;
    char **names;         /* JSON-escaped column names, without quotes */
    uint64_t rows;        /* rows written so far */
    bool data_closed;     /* JSON family: the "data" array has been ended */
    mu_buf *column_text;  /* JSONColumns: the values of each column so far */
    mu_buf scratch;       /* one value's text form */
} fj_state;

static fj_state *fj_st(fmt_writer *w) { return (fj_state *)w->state; }

static bool fj_is_document(fmt_kind kind) {
    return kind == FMT_JSON || kind == FMT_JSON_COMPACT || kind == FMT_JSON_STRINGS;
}

/* ------------------------------------------------------------------ */
/* Escaping and UTF-8 repair                                           */
/* ------------------------------------------------------------------ */

static int fj_string(const uint8_t *s, size_t n, mu_buf *out, mu_err *err) {
    int rc = mu_buf_append_u8(out, '"', err);
    if (rc == 0) rc = fmt__json_escape(s, n, out, err);
    if (rc == 0) rc = mu_buf_append_u8(out, '"', err);
    return rc;
}

/* Bytes of the UTF-8 sequence a lead byte announces, as ClickHouse's
 * table: continuation bytes count 1 (and are illegal), 0xF8.. count 5-6. */
static unsigned fj_utf8_length(uint8_t b) {
    if (b < 0xC0) return 1;
    if (b < 0xE0) return 2;
    if (b < 0xF0) return 3;
    if (b < 0xF8) return 4;
    return b < 0xFC ? 5 : 6;
}

/* Poco's UTF8Encoding::isLegal for a sequence of len (1..4) bytes. */
static bool fj_utf8_legal(const uint8_t *s, unsigned len) {
    for (unsigned k = len - 1; k >= 2; k--)
        if (s[k] < 0x80 || s[k] > 0xBF) return false;
    if (len >= 2) {
        uint8_t a = s[1];
        if (a > 0xBF) return false;
        switch (s[0]) {
        case 0xE0: if (a < 0xA0) return false; break;
        case 0xED: if (a > 0x9F) return false; break;
        case 0xF0: if (a < 0x90) return false; break;
        case 0xF4: if (a > 0x8F) return false; break;
        default: if (a < 0x80) return false; break;
        }
    }
    if (s[0] >= 0x80 && s[0] < 0xC2) return false;
    return s[0] <= 0xF4;
}

/* Offset of the first byte at or after `from` that starts an illegal
 * sequence, or n. */
static size_t fj_utf8_scan(const uint8_t *s, size_t from, size_t n) {
    size_t i = from;
    while (i < n) {
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        unsigned len = fj_utf8_length(s[i]);
        if (len > 4 || i + len > n || !fj_utf8_legal(s + i, len)) return i;
        i += len;
    }
    return n;
}

/* Rewrites out[from..] so it is valid UTF-8: each illegal byte is dropped
 * and a run of them (no valid byte between) becomes one U+FFFD, as
 * ClickHouse's WriteBufferValidUTF8 with grouped replacements. Every
 * region ends with an ASCII byte, so validating regions one by one equals
 * validating the whole stream. */
static int fj_utf8_repair(mu_buf *out, size_t from, mu_err *err) {
    size_t n = out->length_bytes;
    size_t bad = fj_utf8_scan(out->data, from, n);
    if (bad == n) return 0;
    mu_buf fixed;
    mu_buf_init(&fixed, 0);
    int rc = 0;
    size_t valid_from = bad, i = bad;
    bool just_replaced = false;
    while (rc == 0 && i < n) {
        i = fj_utf8_scan(out->data, i, n);
        if (i > valid_from) just_replaced = false;
        rc = mu_buf_append(&fixed, out->data + valid_from, i - valid_from, err);
        if (rc != 0 || i == n) break;
        if (!just_replaced) rc = mu_buf_append(&fixed, "\xEF\xBF\xBD", 3, err);
        just_replaced = true;
        valid_from = ++i;
    }
    if (rc == 0) {
        out->length_bytes = bad;
        rc = mu_buf_append(out, fixed.data, fixed.length_bytes, err);
    }
    mu_buf_deinit(&fixed);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Values                                                              */
/* ------------------------------------------------------------------ */

static int fj_tabs(unsigned count, mu_buf *out, mu_err *err) {
    int rc = mu_buf_reserve(out, count, err);
    for (unsigned i = 0; rc == 0 && i < count; i++) out->data[out->length_bytes++] = '\t';
    return rc;
}

static unsigned fj_render_flags(const fmt_writer *w) {
    return w->opt.decimal_trailing_zeros ? TY_RENDER_DECIMAL_TRAILING_ZEROS : 0;
}

/* The kind that decides a scalar's JSON form: Nullable and LowCardinality
 * removed. */
static ty_kind fj_scalar_kind(const ty_type *type) {
    const ty_type *t = ty_type_strip_nullable(type);
    if (t->kind == TY_LOW_CARDINALITY) t = ty_type_strip_nullable(t->child);
    return t->kind;
}

/* One non-NULL scalar (serializeTextJSON of its type). */
static int fj_scalar(const fmt_writer *w, const ty_column *c, uint32_t row, mu_buf *scratch,
                     mu_buf *out, mu_err *err) {
    ty_kind kind = fj_scalar_kind(c->type);
    if (kind == TY_NOTHING) return mu_buf_append_str(out, "null", err);
    if (kind == TY_STRING || kind == TY_FIXED_STRING) {
        size_t n;
        const uint8_t *s = ty_column_row_bytes(c, row, &n);
        return fj_string(s, n, out, err);
    }
    mu_buf_clear(scratch);
    int rc = ty_column_render_text(c, row, fj_render_flags(w), scratch, err);
    if (rc != 0) return rc;
    const uint8_t *s = scratch->data;
    size_t n = scratch->length_bytes;
    switch (kind) {
    case TY_UINT64:
    case TY_INT64:
        if (w->opt.quote_64bit_integers) return fj_string(s, n, out, err);
        return mu_buf_append(out, s, n, err);
    case TY_FLOAT32:
    case TY_FLOAT64:
        /* nan, inf, -inf: null (output_format_json_quote_denormals=0) */
        if (n > 0 && (s[n - 1] == 'n' || s[n - 1] == 'f')) return mu_buf_append_str(out, "null",
                                                                                     err);
        return mu_buf_append(out, s, n, err);
    case TY_UINT8: case TY_UINT16: case TY_UINT32:
    case TY_INT8: case TY_INT16: case TY_INT32:
    case TY_BOOL: case TY_DECIMAL:
        return mu_buf_append(out, s, n, err);
    default: /* dates, UUID, enum names */
        return fj_string(s, n, out, err);
    }
}

static int fj_value(const fmt_writer *w, const ty_column *c, uint32_t row, bool pretty,
                    unsigned indent, mu_buf *scratch, mu_buf *out, mu_err *err);

/* Opening of element i of an Array or Map: "," or ",\n" plus the
 * indentation of the next level when pretty. */
static int fj_element_start(uint32_t i, bool pretty, unsigned indent, mu_buf *out,
                            mu_err *err) {
    int rc = 0;
    if (i > 0) rc = mu_buf_append(out, ",\n", pretty ? 2 : 1, err);
    if (rc == 0 && pretty) rc = fj_tabs(indent + 1, out, err);
    return rc;
}

/* An Array ([..]) or Map ({"key":value,..}; keys are JSON strings of their
 * text form). Pretty (JSON's "data"): one element a line at indent + 1,
 * the closing bracket at indent, empty ones as [] and {}. */
static int fj_nested(const fmt_writer *w, const ty_column *c, bool is_map, uint32_t row,
                     bool pretty, unsigned indent, mu_buf *scratch, mu_buf *out, mu_err *err) {
    const uint32_t *offsets = ty_column_offsets(c);
    uint32_t start = offsets[row], end = offsets[row + 1];
    bool multiline = pretty && end > start;
    int rc = mu_buf_append(out, is_map ? "{\n" : "[\n", multiline ? 2 : 1, err);
    for (uint32_t i = start; rc == 0 && i < end; i++) {
        rc = fj_element_start(i - start, multiline, indent, out, err);
        if (rc == 0 && is_map) {
            mu_buf_clear(scratch);
            rc = ty_column_render_text(ty_column_child(c, 0), i, fj_render_flags(w), scratch,
                                       err);
            if (rc == 0) rc = fj_string(scratch->data, scratch->length_bytes, out, err);
            if (rc == 0) rc = mu_buf_append(out, ": ", multiline ? 2 : 1, err);
        }
        if (rc == 0)
            rc = fj_value(w, ty_column_child(c, is_map ? 1 : 0), i, pretty, indent + 1, scratch,
                          out, err);
    }
    if (rc == 0 && multiline) rc = mu_buf_append_u8(out, '\n', err);
    if (rc == 0 && multiline) rc = fj_tabs(indent, out, err);
    if (rc == 0) rc = mu_buf_append_u8(out, is_map ? '}' : ']', err);
    return rc;
}

/* One value as JSON (serializeTextJSON, or serializeTextJSONPretty at
 * `indent` when pretty). Recursion follows the type tree, whose depth is
 * bounded by TY_TYPE_DEPTH_MAX. */
static int fj_value(const fmt_writer *w, const ty_column *c, uint32_t row, bool pretty,
                    unsigned indent, mu_buf *scratch, mu_buf *out, mu_err *err) {
    if (c->nullable && ty_column_is_null(c, row)) return mu_buf_append_str(out, "null", err);
    const ty_type *t = ty_type_strip_nullable(c->type);
    if (t->kind == TY_ARRAY || t->kind == TY_MAP)
        return fj_nested(w, c, t->kind == TY_MAP, row, pretty, indent, scratch, out, err);
    return fj_scalar(w, c, row, scratch, out, err);
}

/* One value as a JSON string of its text form (JSONStrings and
 * JSONStringsEachRow); NULL is the text ᴺᵁᴸᴸ, as ClickHouse's
 * SerializationNullable::serializeText writes it. */
static int fj_value_text(const fmt_writer *w, const ty_column *c, uint32_t row, mu_buf *scratch,
                         mu_buf *out, mu_err *err) {
    if (c->nullable && ty_column_is_null(c, row))
        return mu_buf_append_str(out, "\"\xE1\xB4\xBA\xE1\xB5\x81\xE1\xB4\xB8\xE1\xB4\xB8\"", err);
    mu_buf_clear(scratch);
    int rc = ty_column_render_text(c, row, fj_render_flags(w), scratch, err);
    return rc != 0 ? rc : fj_string(scratch->data, scratch->length_bytes, out, err);
}

/* ------------------------------------------------------------------ */
/* State                                                               */
/* ------------------------------------------------------------------ */

static void fj_destroy(fmt_writer *w) {
    fj_state *st = fj_st(w);
    if (st == NULL) return;
    for (uint32_t i = 0; i < st->column_count; i++) {
        if (st->names) free(st->names[i]);
        if (st->column_text) mu_buf_deinit(&st->column_text[i]);
    }
    free(st->names);
    free(st->column_text);
    mu_buf_deinit(&st->scratch);
    free(st);
    w->state = NULL;
}

/* Escapes the schema's names once (ClickHouse's makeNamesValidJSONStrings;
 * the UTF-8 repair of the JSON family's output covers them too). */
static int fj_state_create(fmt_writer *w, const ty_batch *schema, mu_err *err) {
    MU_ASSERT(w->state == NULL);
    fj_state *st = calloc(1, sizeof(*st));
    if (st == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for a %s writer",
                                  fmt_name(w->kind));
    w->state = st;
    mu_buf_init(&st->scratch, 0);
    uint32_t n = schema->column_count;
    st->names = calloc(n ? n : 1, sizeof(char *));
    if (w->kind == FMT_JSON_COLUMNS) st->column_text = calloc(n ? n : 1, sizeof(mu_buf));
    if (st->names == NULL || (w->kind == FMT_JSON_COLUMNS && st->column_text == NULL))
        return MU_ERR(err, MU_ENOMEM, "out of memory for %u column names", n);
    st->column_count = n;
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < n; i++) {
        if (st->column_text) mu_buf_init(&st->column_text[i], 0);
        const char *name = schema->names[i];
        mu_buf_clear(&st->scratch);
        rc = fmt__json_escape((const uint8_t *)name, strlen(name), &st->scratch, err);
        if (rc == 0) rc = mu_buf_append_u8(&st->scratch, 0, err);
        if (rc != 0) break;
        st->names[i] = malloc(st->scratch.length_bytes);
        if (st->names[i] == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for a name");
        memcpy(st->names[i], st->scratch.data, st->scratch.length_bytes);
    }
    return rc;
}

/* ------------------------------------------------------------------ */
/* JSON, JSONStrings, JSONCompact                                      */
/* ------------------------------------------------------------------ */

/* "\t...\"title\": " (writeTitle with a space after the colon). */
static int fj_title(unsigned indent, const char *title, mu_buf *out, mu_err *err) {
    int rc = fj_tabs(indent, out, err);
    if (rc == 0) rc = mu_buf_append_u8(out, '"', err);
    if (rc == 0) rc = mu_buf_append_str(out, title, err);
    if (rc == 0) rc = mu_buf_append(out, "\": ", 3, err);
    return rc;
}

static int fj_meta(fmt_writer *w, const ty_batch *schema, mu_buf *out, mu_err *err) {
    fj_state *st = fj_st(w);
    int rc = mu_buf_append_str(out, "{\n\t\"meta\":\n\t[\n", err);
    for (uint32_t i = 0; rc == 0 && i < st->column_count; i++) {
        if (i > 0) rc = mu_buf_append(out, ",\n", 2, err);
        if (rc == 0) rc = mu_buf_append_str(out, "\t\t{\n", err);
        if (rc == 0) rc = fj_title(3, "name", out, err);
        if (rc == 0) rc = mu_buf_append_u8(out, '"', err);
        if (rc == 0) rc = mu_buf_append_str(out, st->names[i], err);
        if (rc == 0) rc = mu_buf_append(out, "\",\n", 3, err);
        if (rc == 0) rc = fj_title(3, "type", out, err);
        mu_buf_clear(&st->scratch);
        if (rc == 0) rc = ty_type_render(schema->columns[i]->type, &st->scratch, err);
        if (rc == 0) rc = fj_string(st->scratch.data, st->scratch.length_bytes, out, err);
        if (rc == 0) rc = mu_buf_append(out, "\n\t\t}", 4, err);
    }
    if (rc == 0) rc = mu_buf_append_str(out, "\n\t],\n\n\t\"data\":\n\t[\n", err);
    return rc;
}

static int fj_doc_begin(fmt_writer *w, const ty_batch *schema, mu_buf *out, mu_err *err) {
    size_t from = out->length_bytes;
    int rc = fj_state_create(w, schema, err);
    if (rc == 0) rc = fj_meta(w, schema, out, err);
    if (rc == 0) rc = fj_utf8_repair(out, from, err);
    return rc;
}

/* The fields of one row: JSON `"name": value` at `indent` joined by
 * ",\n" (values pretty inside "data"), JSONCompact values joined by ", ". */
static int fj_doc_fields(fmt_writer *w, const ty_batch *b, uint32_t row, unsigned indent,
                         bool pretty, mu_buf *out, mu_err *err) {
    fj_state *st = fj_st(w);
    bool compact = w->kind == FMT_JSON_COMPACT;
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < b->column_count; i++) {
        if (i > 0) rc = mu_buf_append(out, compact ? ", " : ",\n", 2, err);
        if (rc == 0 && !compact) rc = fj_title(indent, st->names[i], out, err);
        if (rc != 0) break;
        if (w->kind == FMT_JSON_STRINGS)
            rc = fj_value_text(w, b->columns[i], row, &st->scratch, out, err);
        else
            rc = fj_value(w, b->columns[i], row, pretty && !compact, indent, &st->scratch, out,
                          err);
    }
    return rc;
}

static int fj_doc_rows(fmt_writer *w, const ty_batch *b, mu_buf *out, mu_err *err) {
    fj_state *st = fj_st(w);
    MU_ASSERT(st != NULL && !st->data_closed);
    size_t from = out->length_bytes;
    bool compact = w->kind == FMT_JSON_COMPACT;
    uint32_t rows = ty_batch_visible_rows(b);
    int rc = 0;
    for (uint32_t v = 0; rc == 0 && v < rows; v++) {
        uint32_t row = b->selection ? b->selection[v] : v;
        if (st->rows > 0) rc = mu_buf_append(out, ",\n", 2, err);
        if (rc == 0) rc = mu_buf_append_str(out, compact ? "\t\t[" : "\t\t{\n", err);
        if (rc == 0) rc = fj_doc_fields(w, b, row, FJ_FIELD_INDENT, true, out, err);
        if (rc == 0) rc = mu_buf_append_str(out, compact ? "]" : "\n\t\t}", err);
        if (rc == 0) st->rows++;
    }
    if (rc == 0) rc = fj_utf8_repair(out, from, err);
    return rc;
}

/* Ends the "data" array once (before totals or at the end). */
static int fj_doc_close_data(fj_state *st, mu_buf *out, mu_err *err) {
    if (st->data_closed) return 0;
    st->data_closed = true;
    return mu_buf_append(out, "\n\t]", 3, err);
}

/* WITH TOTALS: `"totals":` an object (JSON, JSONStrings) or an array
 * (JSONCompact) of the one row, values not pretty printed. */
static int fj_doc_totals(fmt_writer *w, const ty_batch *totals, mu_buf *out, mu_err *err) {
    fj_state *st = fj_st(w);
    MU_ASSERT(st != NULL);
    if (ty_batch_visible_rows(totals) == 0) return 0;
    size_t from = out->length_bytes;
    uint32_t row = totals->selection ? totals->selection[0] : 0;
    bool compact = w->kind == FMT_JSON_COMPACT;
    int rc = fj_doc_close_data(st, out, err);
    if (rc == 0)
        rc = mu_buf_append_str(out, compact ? ",\n\n\t\"totals\": [" : ",\n\n\t\"totals\":\n\t{\n",
                               err);
    if (rc == 0) rc = fj_doc_fields(w, totals, row, FJ_ROW_INDENT, false, out, err);
    if (rc == 0) rc = mu_buf_append_str(out, compact ? "]" : "\n\t}", err);
    if (rc == 0) rc = fj_utf8_repair(out, from, err);
    return rc;
}

static int fj_doc_end(fmt_writer *w, const fmt_result_info *info, mu_buf *out, mu_err *err) {
    fj_state *st = fj_st(w);
    MU_ASSERT(st != NULL);
    int rc = fj_doc_close_data(st, out, err);
    if (rc == 0)
        rc = mu_buf_printf(out, err, ",\n\n\t\"rows\": %llu", (unsigned long long)st->rows);
    if (rc == 0 && info->has_rows_before_limit)
        rc = mu_buf_printf(out, err, ",\n\n\t\"rows_before_limit_at_least\": %llu",
                           (unsigned long long)info->rows_before_limit);
    char elapsed[TY_FLOAT_TEXT_BYTES];
    size_t elapsed_bytes = ty_float64_format(info->elapsed_s, elapsed);
    if (rc == 0)
        rc = mu_buf_printf(out, err, ",\n\n\t\"statistics\":\n\t{\n\t\t\"elapsed\": %.*s,\n"
                           "\t\t\"rows_read\": %llu,\n\t\t\"bytes_read\": %llu\n\t}\n}\n",
                           (int)elapsed_bytes, elapsed, (unsigned long long)info->rows_read,
                           (unsigned long long)info->bytes_read);
    return rc;
}

static const fmt__writer_vt fj_doc_vt = {fj_doc_begin, fj_doc_rows, fj_doc_totals, fj_doc_end,
                                         fj_destroy};

int fmt_writer_exception(fmt_writer *w, const char *message, mu_buf *out, mu_err *err) {
    const uint8_t *text = (const uint8_t *)message;
    size_t n = strlen(message);
    int rc;
    switch (w->kind) {
    case FMT_JSON:
    case FMT_JSON_STRINGS:
    case FMT_JSON_COMPACT: {
        fj_state *st = fj_st(w);
        if (st == NULL) return 0; /* not begun */
        rc = fj_doc_close_data(st, out, err);
        if (rc == 0)
            rc = mu_buf_printf(out, err, ",\n\n\t\"rows\": %llu,\n\n\t\"exception\": ",
                               (unsigned long long)st->rows);
        if (rc == 0) rc = fj_string(text, n, out, err);
        if (rc == 0) rc = mu_buf_append_str(out, "\n}\n", err);
        break;
    }
    case FMT_JSON_EACH_ROW:
    case FMT_JSON_STRINGS_EACH_ROW:
        rc = mu_buf_append_str(out, "{\"exception\": ", err);
        if (rc == 0) rc = fj_string(text, n, out, err);
        if (rc == 0) rc = mu_buf_append_str(out, "}\n", err);
        break;
    case FMT_JSON_COMPACT_EACH_ROW:
        rc = mu_buf_append_u8(out, '[', err);
        if (rc == 0) rc = fj_string(text, n, out, err);
        if (rc == 0) rc = mu_buf_append_str(out, "]\n", err);
        break;
    default:
        return 0;
    }
    return rc != 0 ? rc : 1;
}

/* ------------------------------------------------------------------ */
/* JSONColumns                                                         */
/* ------------------------------------------------------------------ */

static int fj_columns_begin(fmt_writer *w, const ty_batch *schema, mu_buf *out, mu_err *err) {
    (void)out;
    return fj_state_create(w, schema, err);
}

/* Collects each column's values, ", " between them; written at the end. */
static int fj_columns_rows(fmt_writer *w, const ty_batch *b, mu_buf *out, mu_err *err) {
    (void)out;
    fj_state *st = fj_st(w);
    MU_ASSERT(st != NULL && b->column_count == st->column_count);
    uint32_t rows = ty_batch_visible_rows(b);
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < b->column_count; i++) {
        mu_buf *text = &st->column_text[i];
        for (uint32_t v = 0; rc == 0 && v < rows; v++) {
            uint32_t row = b->selection ? b->selection[v] : v;
            if (st->rows + v > 0) rc = mu_buf_append(text, ", ", 2, err);
            if (rc == 0) rc = fj_value(w, b->columns[i], row, false, 0, &st->scratch, text, err);
        }
    }
    if (rc == 0) st->rows += rows;
    return rc;
}

/* {\n\t"name": [v, ...],\n ...\n}\n */
static int fj_columns_end(fmt_writer *w, const fmt_result_info *info, mu_buf *out,
                          mu_err *err) {
    (void)info;
    fj_state *st = fj_st(w);
    MU_ASSERT(st != NULL);
    int rc = mu_buf_append(out, "{\n", 2, err);
    for (uint32_t i = 0; rc == 0 && i < st->column_count; i++) {
        rc = fj_title(1, st->names[i], out, err);
        if (rc == 0) rc = mu_buf_append_u8(out, '[', err);
        if (rc == 0)
            rc = mu_buf_append(out, st->column_text[i].data, st->column_text[i].length_bytes,
                               err);
        if (rc == 0) rc = mu_buf_append(out, "],\n", i + 1 < st->column_count ? 3 : 1, err);
    }
    if (rc == 0) rc = mu_buf_append(out, "\n}\n", 3, err);
    return rc;
}

static const fmt__writer_vt fj_columns_vt = {fj_columns_begin, fj_columns_rows, NULL,
                                             fj_columns_end, fj_destroy};

/* ------------------------------------------------------------------ */
/* JSONCompactEachRow, JSONStringsEachRow                              */
/* ------------------------------------------------------------------ */

static int fj_lines_begin(fmt_writer *w, const ty_batch *schema, mu_buf *out, mu_err *err) {
    (void)out;
    return fj_state_create(w, schema, err);
}

/* [v, v]\n (JSONCompactEachRow) or {"name":"text",...}\n (JSONStringsEachRow). */
static int fj_line(fmt_writer *w, const ty_batch *b, uint32_t row, mu_buf *out, mu_err *err) {
    fj_state *st = fj_st(w);
    bool compact = w->kind == FMT_JSON_COMPACT_EACH_ROW;
    int rc = mu_buf_append_u8(out, compact ? '[' : '{', err);
    for (uint32_t i = 0; rc == 0 && i < b->column_count; i++) {
        if (i > 0) rc = mu_buf_append(out, ", ", compact ? 2 : 1, err);
        if (rc == 0 && !compact) rc = mu_buf_append_u8(out, '"', err);
        if (rc == 0 && !compact) rc = mu_buf_append_str(out, st->names[i], err);
        if (rc == 0 && !compact) rc = mu_buf_append(out, "\":", 2, err);
        if (rc != 0) break;
        if (compact)
            rc = fj_value(w, b->columns[i], row, false, 0, &st->scratch, out, err);
        else
            rc = fj_value_text(w, b->columns[i], row, &st->scratch, out, err);
    }
    if (rc == 0) rc = mu_buf_append(out, compact ? "]\n" : "}\n", 2, err);
    return rc;
}

static int fj_lines_rows(fmt_writer *w, const ty_batch *b, mu_buf *out, mu_err *err) {
    MU_ASSERT(fj_st(w) != NULL);
    uint32_t rows = ty_batch_visible_rows(b);
    int rc = 0;
    for (uint32_t v = 0; rc == 0 && v < rows; v++)
        rc = fj_line(w, b, b->selection ? b->selection[v] : v, out, err);
    return rc;
}

/* JSONCompactEachRow writes totals after an empty line; JSONStringsEachRow
 * (like JSONEachRow) leaves them out. */
static int fj_lines_totals(fmt_writer *w, const ty_batch *totals, mu_buf *out, mu_err *err) {
    if (w->kind != FMT_JSON_COMPACT_EACH_ROW || ty_batch_visible_rows(totals) == 0) return 0;
    int rc = mu_buf_append_u8(out, '\n', err);
    if (rc == 0) rc = fj_line(w, totals, totals->selection ? totals->selection[0] : 0, out, err);
    return rc;
}

static const fmt__writer_vt fj_lines_vt = {fj_lines_begin, fj_lines_rows, fj_lines_totals, NULL,
                                           fj_destroy};

const fmt__writer_vt *fmt__writer_json(fmt_kind kind) {
    if (fj_is_document(kind)) return &fj_doc_vt;
    if (kind == FMT_JSON_COLUMNS) return &fj_columns_vt;
    if (kind == FMT_JSON_COMPACT_EACH_ROW || kind == FMT_JSON_STRINGS_EACH_ROW) return &fj_lines_vt;
    return NULL;
}
