/* read.c: the streaming TabSeparated / TabSeparatedRaw / CSV reader, and
 * what every reader shares (options, omitted-value marks, error skipping).
 * Bytes fed in chunks collect in a pending buffer; a small state machine
 * finds record ends (a TSV line ends at an unescaped \n, a Raw line at any
 * \n, a CSV record at a \n outside quotes) so a record split across chunks
 * is parsed only once complete. The WithNames header maps input fields to
 * batch columns by name (input_format_with_names_use_header): unknown
 * names are skipped or refused, columns it lacks get defaults. Each field
 * is un-escaped (TSV) or un-quoted (CSV) and handed to the types module's
 * strict text parser; \N is NULL. A failing row leaves the columns as
 * before the row and reports row number, column and value; under
 * fmt_reader_allow_errors the record is dropped and reading goes on with
 * the next one (the record scanner never loses the record boundaries).
 */
#include "formats/formats_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    FR_VALUE_SHOWN_MAX = 100, /* bytes of a bad value quoted in messages */
    FR_NAME_SHOWN_MAX = 200,  /* bytes of a header name quoted in messages */
    FR_MISSING_BYTES = TY_BATCH_ROWS_MAX / 8,
};

static bool fr_is_csv(fmt_kind kind) {
    return kind == FMT_CSV || kind == FMT_CSV_WITH_NAMES || kind == FMT_CSV_WITH_NAMES_AND_TYPES;
}

static bool fr_has_types_line(fmt_kind kind) {
    return kind == FMT_TSV_WITH_NAMES_AND_TYPES || kind == FMT_CSV_WITH_NAMES_AND_TYPES;
}

/* ------------------------------------------------------------------ */
/* What every reader shares                                            */
/* ------------------------------------------------------------------ */

bool fmt__is_parse_error(int rc) {
    /* ClickHouse's isParseError, in muscles' codes: a value or a record
     * that does not parse. Limits (MU_ETOO_LARGE, MU_ETOO_DEEP), escape
     * errors in JSON (CANNOT_PARSE_ESCAPE_SEQUENCE there) and memory are
     * not. */
    return rc == MU_EPARSE || rc == MU_EINPUT_ASSERTION || rc == MU_EPARSE_DATE ||
           rc == MU_EPARSE_DATETIME || rc == MU_EPARSE_UUID || rc == MU_EINCORRECT_DATA ||
           rc == MU_EDECIMAL_OVERFLOW || rc == MU_EOUT_OF_BOUND;
}

static void fr_err_append(mu_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fr_err_append(mu_err *err, const char *fmt, ...) {
    if (err == NULL) return;
    size_t used = strlen(err->message);
    if (used + 1 >= sizeof(err->message)) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message + used, sizeof(err->message) - used, fmt, ap);
    va_end(ap);
}

/* Kinds whose reader can drop a bad row and find the next one. */
static bool fr_can_skip_rows(fmt_kind kind) {
    return kind == FMT_TSV || kind == FMT_TSV_RAW || kind == FMT_TSV_WITH_NAMES ||
           kind == FMT_TSV_WITH_NAMES_AND_TYPES || fr_is_csv(kind) ||
           kind == FMT_JSON_EACH_ROW || kind == FMT_JSON_STRINGS_EACH_ROW ||
           kind == FMT_JSON_COMPACT_EACH_ROW;
}

/* ClickHouse's IRowInputFormat rule: an error is fatal when both limits
 * are passed, counting the failing row among the rows read. */
bool fmt__skip_row(fmt_reader *r, int rc, mu_err *err) {
    MU_ASSERT(rc < 0);
    if (!fmt__is_parse_error(rc)) return false;
    if (r->allow_errors_num == 0 && r->allow_errors_ratio == 0) return false;
    uint64_t rows = r->row_number + 1, errors = r->rows_skipped + 1;
    double ratio = (double)errors / (double)rows;
    if (errors > r->allow_errors_num && ratio > r->allow_errors_ratio) {
        char text[TY_FLOAT_TEXT_BYTES];
        ty_float64_format(ratio, text);
        fr_err_append(err, " (Already have %llu errors out of %llu rows, which is %s of all "
                      "rows)", (unsigned long long)errors, (unsigned long long)rows, text);
        return false;
    }
    if (!fr_can_skip_rows(r->kind)) {
        fr_err_append(err, " (Input format doesn't allow to skip errors)");
        return false;
    }
    r->rows_skipped = errors;
    r->row_number = rows;
    return true;
}

int fmt_reader_allow_errors(fmt_reader *r, uint64_t num, double ratio, mu_err *err) {
    MU_ASSERT(r != NULL);
    if (!(ratio >= 0 && isfinite(ratio)))
        return MU_ERR(err, MU_EINVAL, "input_format_allow_errors_ratio must be a number of at "
                      "least 0");
    r->allow_errors_num = num;
    r->allow_errors_ratio = ratio;
    return 0;
}

int fmt__mark_missing(fmt_reader *r, uint32_t column, uint32_t row, mu_err *err) {
    MU_ASSERT(column < r->missing_count && row < TY_BATCH_ROWS_MAX);
    if (r->missing[column] == NULL) {
        r->missing[column] = calloc(FR_MISSING_BYTES, 1);
        if (r->missing[column] == NULL)
            return MU_ERR(err, MU_ENOMEM, "out of memory for the omitted values of column '%s'",
                          r->batch->names[column]);
    }
    r->missing[column][row >> 3] |= (uint8_t)(1u << (row & 7));
    return 0;
}

void fmt__unmark_rows_from(fmt_reader *r, uint32_t row) {
    for (uint32_t c = 0; c < r->missing_count; c++) {
        if (r->missing[c] == NULL) continue;
        for (uint32_t i = row; i < TY_BATCH_ROWS_MAX && (i & 7) != 0; i++)
            r->missing[c][i >> 3] &= (uint8_t)~(1u << (i & 7));
        uint32_t from = (row + 7) / 8;
        if (from < FR_MISSING_BYTES) memset(r->missing[c] + from, 0, FR_MISSING_BYTES - from);
    }
}

bool fmt_reader_missing(const fmt_reader *r, uint32_t column, uint32_t row) {
    MU_ASSERT(column < r->missing_count);
    if (r->missing[column] == NULL || row >= TY_BATCH_ROWS_MAX) return false;
    return (r->missing[column][row >> 3] >> (row & 7)) & 1;
}

bool fmt_reader_column_has_missing(const fmt_reader *r, uint32_t column) {
    MU_ASSERT(column < r->missing_count);
    return r->missing[column] != NULL;
}

void fmt_reader_missing_take(fmt_reader *r, uint8_t **out) {
    for (uint32_t c = 0; c < r->missing_count; c++) {
        out[c] = r->missing[c];
        r->missing[c] = NULL;
    }
}

void fmt_reader_missing_clear(fmt_reader *r) {
    for (uint32_t c = 0; r->missing != NULL && c < r->missing_count; c++) {
        free(r->missing[c]);
        r->missing[c] = NULL;
    }
}

/* ------------------------------------------------------------------ */
/* Setup                                                               */
/* ------------------------------------------------------------------ */

static void fr_text_options(fmt_reader *r) {
    r->text_options.datetime_input = TY_DATETIME_INPUT_BASIC;
    if (r->flags & FMT_READ_DATETIME_BEST_EFFORT)
        r->text_options.datetime_input = TY_DATETIME_INPUT_BEST_EFFORT;
    if (r->flags & FMT_READ_DATETIME_BEST_EFFORT_US)
        r->text_options.datetime_input = TY_DATETIME_INPUT_BEST_EFFORT_US;
    r->text_options.now_seconds = mu_clock_wall_ns() / 1000000000;
}

/* TSV / CSV: every batch column is an input field, in order, until a
 * names header says otherwise. */
static int fr_text_init(fmt_reader *r, mu_err *err) {
    uint32_t n = r->batch->column_count;
    r->input_map = calloc(n, sizeof(uint32_t));
    r->present = calloc(n, sizeof(bool));
    if (r->input_map == NULL || r->present == NULL)
        return MU_ERR(err, MU_ENOMEM, "out of memory for a %s reader", fmt_name(r->kind));
    for (uint32_t i = 0; i < n; i++) {
        r->input_map[i] = i;
        r->present[i] = true;
    }
    r->input_count = n;
    if (r->kind == FMT_TSV_WITH_NAMES || r->kind == FMT_CSV_WITH_NAMES) r->header_lines = 1;
    if (fr_has_types_line(r->kind)) r->header_lines = 2;
    return 0;
}

int fmt_reader_init(fmt_reader *r, fmt_kind kind, ty_batch *batch, unsigned flags,
                    size_t max_record_bytes, mu_err *err) {
    MU_ASSERT(r != NULL && batch != NULL);
    memset(r, 0, sizeof *r);
    if (!fmt_can_read(kind))
        return MU_ERR(err, MU_EINVAL, "format %s cannot be read", fmt_name(kind));
    if (batch->column_count == 0)
        return MU_ERR(err, MU_EINVAL, "cannot read %s into a batch without columns",
                      fmt_name(kind));
    r->kind = kind;
    r->flags = flags;
    r->batch = batch;
    r->max_record_bytes = max_record_bytes ? max_record_bytes : FMT_LINE_BYTES_DEFAULT;
    fr_text_options(r);
    mu_buf_init(&r->pending, 0);
    mu_buf_init(&r->field, 0);
    r->missing = calloc(batch->column_count, sizeof(uint8_t *));
    r->missing_count = batch->column_count;
    int rc = r->missing == NULL ? MU_ERR(err, MU_ENOMEM, "out of memory for a reader") : 0;
    r->vt = fmt__reader_json(kind);
    if (r->vt == NULL) r->vt = fmt__reader_binary(kind);
    if (rc == 0) rc = r->vt != NULL ? r->vt->init(r, err) : fr_text_init(r, err);
    if (rc != 0) {
        r->vt = NULL; /* the family's init cleaned up after itself */
        fmt_reader_deinit(r);
    }
    return rc;
}

void fmt_reader_deinit(fmt_reader *r) {
    if (r == NULL) return;
    if (r->vt != NULL && r->vt->deinit) r->vt->deinit(r);
    fmt_reader_missing_clear(r);
    free(r->missing);
    free(r->input_map);
    free(r->present);
    r->missing = NULL;
    r->input_map = NULL;
    r->present = NULL;
    mu_buf_deinit(&r->pending);
    mu_buf_deinit(&r->field);
}

/* ------------------------------------------------------------------ */
/* Record scanning                                                     */
/* ------------------------------------------------------------------ */

/* TSV states: 0 plain, 1 after a backslash (Raw has no escapes). CSV
 * states: 0 field start, 1 unquoted field, 2 inside quotes, 3 a quote
 * inside quotes (closing or the first of a doubled pair). */
static int fr_step(fmt_kind kind, int state, uint8_t ch, bool *end) {
    *end = false;
    if (kind == FMT_TSV_RAW) {
        *end = ch == '\n';
        return 0;
    }
    if (!fr_is_csv(kind)) {
        if (state == 1) return 0;
        if (ch == '\\') return 1;
        *end = ch == '\n';
        return 0;
    }
    switch (state) {
    case 2:
        return ch == '"' ? 3 : 2;
    case 0:
        if (ch == '"') return 2;
        /* fall through */
    default: /* 1, 3 */
        if (state == 3 && ch == '"') return 2;
        if (ch == ',') return 0;
        *end = ch == '\n';
        return *end ? 0 : 1;
    }
}

/* Finds the end of the record starting at `start`; true with *len set
 * (line end excluded) if complete. Resumes from r->scan_pos. */
static bool fr_scan(fmt_reader *r, size_t start, size_t *len) {
    const uint8_t *p = r->pending.data;
    if (!fr_is_csv(r->kind)) {
        /* Speed: TSV needs no state machine. A \n ends the record unless
         * an odd run of backslashes (within the record) stands before it. */
        size_t n = r->pending.length_bytes, i = r->scan_pos;
        while (i < n) {
            const uint8_t *nl = memchr(p + i, '\n', n - i);
            if (nl == NULL) break;
            size_t at = (size_t)(nl - p), k = at;
            if (r->kind != FMT_TSV_RAW)
                while (k > start && p[k - 1] == '\\') k--;
            i = at + 1;
            if (((at - k) & 1) == 0) {
                *len = at - start;
                r->scan_pos = i;
                r->scan_state = 0;
                return true;
            }
        }
        r->scan_pos = n;
        return false;
    }
    for (size_t i = r->scan_pos; i < r->pending.length_bytes; i++) {
        bool end;
        r->scan_state = fr_step(r->kind, r->scan_state, p[i], &end);
        if (end) {
            *len = i - start;
            r->scan_pos = i + 1;
            r->scan_state = 0;
            return true;
        }
    }
    r->scan_pos = r->pending.length_bytes;
    return false;
}

/* ------------------------------------------------------------------ */
/* Fields                                                              */
/* ------------------------------------------------------------------ */

static bool fr_is_composite(const ty_type *type) {
    const ty_type *t = ty_type_strip_nullable(type);
    return t->kind == TY_ARRAY || t->kind == TY_MAP;
}

static int fr_hex(uint8_t ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* Un-escapes one TSV field into out; 1 on a dangling backslash or a
 * bad \x escape. */
static int fr_tsv_unescape(const uint8_t *s, size_t n, bool raw, mu_buf *out, mu_err *err) {
    mu_buf_clear(out);
    int rc = mu_buf_reserve(out, n, err);
    if (rc == 0 && raw) {
        if (n > 0) memcpy(out->data, s, n); /* Raw, or an Array/Map read as is */
        out->length_bytes = n;
        return 0;
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        uint8_t ch = s[i];
        if (ch != '\\') {
            out->data[out->length_bytes++] = ch;
            continue;
        }
        if (++i == n) return 1;
        switch (s[i]) {
        case 'b': ch = '\b'; break;
        case 'f': ch = '\f'; break;
        case 'n': ch = '\n'; break;
        case 'r': ch = '\r'; break;
        case 't': ch = '\t'; break;
        case '0': ch = '\0'; break;
        case 'a': ch = '\a'; break;
        case 'v': ch = '\v'; break;
        case 'x':
            if (i + 2 >= n) return 1;
            if (fr_hex(s[i + 1]) < 0 || fr_hex(s[i + 2]) < 0) return 1;
            ch = (uint8_t)(fr_hex(s[i + 1]) * 16 + fr_hex(s[i + 2]));
            i += 2;
            break;
        default: ch = s[i]; break; /* \\ \' \" \newline and any \c */
        }
        out->data[out->length_bytes++] = ch;
    }
    return rc;
}

/* Splits off the next CSV field at *pos of rec[0..n). Sets *quoted and
 * un-quotes into out. 1 on junk after a closing quote or none. */
static int fr_csv_field(const uint8_t *rec, size_t n, size_t *pos, bool *quoted, mu_buf *out,
                        mu_err *err) {
    size_t i = *pos;
    mu_buf_clear(out);
    *quoted = i < n && rec[i] == '"';
    int rc = mu_buf_reserve(out, n - i, err);
    if (rc != 0) return rc;
    if (!*quoted) {
        while (i < n && rec[i] != ',') out->data[out->length_bytes++] = rec[i++];
        *pos = i;
        return 0;
    }
    for (i++;; i++) {
        if (i >= n) return 1; /* unterminated (only at end of input) */
        if (rec[i] != '"') {
            out->data[out->length_bytes++] = rec[i];
        } else if (i + 1 < n && rec[i + 1] == '"') {
            out->data[out->length_bytes++] = '"';
            i++;
        } else {
            break;
        }
    }
    i++;
    if (i < n && rec[i] != ',') return 1;
    *pos = i;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Rows                                                                */
/* ------------------------------------------------------------------ */

/* code: ClickHouse's for the failure (a number that does not parse is
 * CANNOT_PARSE_INPUT_ASSERTION_FAILED there: the reader stops before the
 * bad byte and then misses the delimiter; dates and UUIDs keep theirs).
 * `field` is the input field's position, `col` the batch column. */
static int fr_row_error(fmt_reader *r, uint32_t field, uint32_t col, const uint8_t *value,
                        size_t n, const char *reason, int code, mu_err *err) {
    int shown = (int)(n > FR_VALUE_SHOWN_MAX ? FR_VALUE_SHOWN_MAX : n);
    return MU_ERR(err, code,
                  "Cannot parse input (%s): row %llu, column %u '%s': value '%.*s'%s: %s",
                  fmt_name(r->kind), (unsigned long long)r->row_number + 1, field + 1,
                  col == FMT__FIELD_SKIP ? "(skipped)" : r->batch->names[col], shown,
                  (const char *)value,
                  (size_t)shown < n ? "..." : "", reason);
}

/* The type's default for a value the input left out (marked missing). */
static int fr_append_omitted(fmt_reader *r, uint32_t col, mu_err *err) {
    ty_column *c = r->batch->columns[col];
    uint32_t row = c->row_count;
    int rc = ty_column_append_default(c, err);
    return rc != 0 ? rc : fmt__mark_missing(r, col, row, err);
}

/* Appends one field's value (already un-escaped in r->field). `null` is
 * the raw field being \N: NULL, or with input_format_null_as_default the
 * default; otherwise (ClickHouse's null_as_default=0) the field is read as
 * the type's text like any other. */
static int fr_store(fmt_reader *r, uint32_t field, uint32_t col, const uint8_t *v, size_t n,
                    bool null, bool empty_default, mu_err *err) {
    ty_column *c = r->batch->columns[col];
    if (null && c->nullable) return ty_column_append_null(c, err);
    if (null && (r->flags & FMT_READ_NULL_AS_DEFAULT)) return fr_append_omitted(r, col, err);
    const ty_type *t = ty_type_strip_nullable(c->type);
    if (empty_default && n == 0 && t->kind != TY_STRING && t->kind != TY_FIXED_STRING)
        return fr_append_omitted(r, col, err); /* input_format_csv_empty_as_default */
    mu_err inner;
    mu_err_clear(&inner);
    int rc = ty_column_append_text_opt(c, (const char *)v, n, &r->text_options, &inner);
    if (rc == MU_EPARSE || rc == MU_EPARSE_DATE || rc == MU_EPARSE_DATETIME || rc == MU_EPARSE_UUID)
        return fr_row_error(r, field, col, v, n, inner.message,
                            rc == MU_EPARSE ? MU_EINPUT_ASSERTION : rc, err);
    if (rc != 0) return MU_ERR(err, rc, "%s", inner.message);
    return 0;
}

static int fr_field_count(fmt_reader *r, uint32_t got, const uint8_t *rec, size_t n,
                          mu_err *err) {
    int shown = (int)(n > FR_VALUE_SHOWN_MAX ? FR_VALUE_SHOWN_MAX : n);
    uint32_t want = r->input_count;
    return MU_ERR(err, MU_EPARSE,
                  "Cannot parse input (%s): row %llu: expected %u fields, found %s%u: '%.*s'",
                  fmt_name(r->kind), (unsigned long long)r->row_number + 1, want,
                  got > want ? "more than " : "", got > want ? want : got, shown,
                  (const char *)rec);
}

/* Columns the header did not name: their defaults, marked missing. */
static int fr_fill_absent(fmt_reader *r, mu_err *err) {
    int rc = 0;
    for (uint32_t col = 0; rc == 0 && col < r->batch->column_count; col++)
        if (!r->present[col]) rc = fr_append_omitted(r, col, err);
    return rc;
}

/* Parses one TSV (or Raw) record of data into the columns. */
static int fr_tsv_row(fmt_reader *r, const uint8_t *rec, size_t n, mu_err *err) {
    size_t pos = 0;
    for (uint32_t i = 0; i < r->input_count; i++) {
        if (pos > n) return fr_field_count(r, i, rec, n, err);
        const uint8_t *tab = memchr(rec + pos, '\t', n - pos);
        size_t end = tab ? (size_t)(tab - rec) : n;
        uint32_t col = r->input_map[i];
        if (col != FMT__FIELD_SKIP) {
            const uint8_t *f = rec + pos;
            size_t len = end - pos;
            bool null = len == 2 && f[0] == '\\' && f[1] == 'N';
            bool raw = r->kind == FMT_TSV_RAW || fr_is_composite(r->batch->columns[col]->type);
            int rc = 0;
            const uint8_t *value = f;
            size_t value_len = len;
            /* Speed: a field without a backslash is stored from the record. */
            if (!raw && len > 0 && memchr(f, '\\', len) != NULL) {
                rc = fr_tsv_unescape(f, len, false, &r->field, err);
                if (rc < 0) return rc;
                if (rc > 0)
                    return fr_row_error(r, i, col, f, len, "bad escape sequence", MU_EPARSE, err);
                value = r->field.data;
                value_len = r->field.length_bytes;
            }
            rc = fr_store(r, i, col, value, value_len, null, false, err);
            if (rc != 0) return rc;
        }
        pos = end + 1;
    }
    if (pos <= n) return fr_field_count(r, r->input_count + 1, rec, n, err);
    return fr_fill_absent(r, err);
}

/* Parses one CSV record of data into the columns. */
static int fr_csv_row(fmt_reader *r, const uint8_t *rec, size_t n, mu_err *err) {
    size_t pos = 0;
    for (uint32_t i = 0; i < r->input_count; i++) {
        if (i > 0 && pos >= n) return fr_field_count(r, i, rec, n, err);
        if (i > 0) pos++; /* the comma */
        size_t from = pos;
        bool quoted;
        uint32_t col = r->input_map[i];
        int rc = fr_csv_field(rec, n, &pos, &quoted, &r->field, err);
        if (rc < 0) return rc;
        if (rc > 0)
            return fr_row_error(r, i, col, rec + from, n - from, "bad quoting", MU_EPARSE, err);
        if (col == FMT__FIELD_SKIP) continue;
        bool null = !quoted && r->field.length_bytes == 2 && r->field.data[0] == '\\' &&
                    r->field.data[1] == 'N';
        rc = fr_store(r, i, col, r->field.data, r->field.length_bytes, null, !quoted, err);
        if (rc != 0) return rc;
    }
    if (pos < n) return fr_field_count(r, r->input_count + 1, rec, n, err);
    return fr_fill_absent(r, err);
}

/* ------------------------------------------------------------------ */
/* Header lines                                                        */
/* ------------------------------------------------------------------ */

/* The next field of a header line at *pos into r->field (*pos > n after
 * the last one); 1 on bad quoting or escaping. */
static int fr_header_field(fmt_reader *r, const uint8_t *rec, size_t n, size_t *pos,
                           mu_err *err) {
    if (fr_is_csv(r->kind)) {
        bool quoted;
        int rc = fr_csv_field(rec, n, pos, &quoted, &r->field, err);
        if (rc == 0) *pos = *pos < n ? *pos + 1 : n + 1; /* past the comma, or done */
        return rc;
    }
    const uint8_t *tab = memchr(rec + *pos, '\t', n - *pos);
    size_t end = tab ? (size_t)(tab - rec) : n;
    int rc = fr_tsv_unescape(rec + *pos, end - *pos, r->kind == FMT_TSV_RAW, &r->field, err);
    *pos = end + 1;
    return rc;
}

static int fr_header_error(fmt_reader *r, const uint8_t *rec, size_t n, const char *what,
                           mu_err *err) {
    int shown = (int)MU_MIN(n, (size_t)FR_NAME_SHOWN_MAX);
    return MU_ERR(err, MU_EINCORRECT_DATA, "Cannot parse input (%s): %s in the header line "
                  "'%.*s'", fmt_name(r->kind), what, shown, (const char *)rec);
}

static int fr_find_column(const ty_batch *b, const mu_buf *name) {
    for (uint32_t i = 0; i < b->column_count; i++)
        if (strlen(b->names[i]) == name->length_bytes &&
            (name->length_bytes == 0 || memcmp(b->names[i], name->data, name->length_bytes) == 0))
            return (int)i;
    return -1;
}

/* One header name at input position i: its batch column, or skipped. */
static int fr_header_name(fmt_reader *r, uint32_t i, mu_err *err) {
    const mu_buf *name = &r->field;
    int shown = (int)MU_MIN(name->length_bytes, (size_t)FR_NAME_SHOWN_MAX);
    int col = fr_find_column(r->batch, name);
    if (col < 0 && (r->flags & FMT_READ_UNKNOWN_FIELDS_ERROR))
        return MU_ERR(err, MU_EINCORRECT_DATA, "Unknown field found in format header: '%.*s' "
                      "at position %u\nSet the 'input_format_skip_unknown_fields' parameter "
                      "explicitly to ignore and proceed", shown, (const char *)name->data, i);
    if (col >= 0 && r->present[col])
        return MU_ERR(err, MU_EINCORRECT_DATA, "Duplicate field found while parsing format "
                      "header: %.*s", shown, (const char *)name->data);
    if (col >= 0) r->present[col] = true;
    r->input_map[i] = col < 0 ? FMT__FIELD_SKIP : (uint32_t)col;
    return 0;
}

/* The names line: maps each input field to a batch column by name
 * (input_format_with_names_use_header=1). */
static int fr_header_names(fmt_reader *r, const uint8_t *rec, size_t n, mu_err *err) {
    uint32_t capacity = r->batch->column_count;
    memset(r->present, 0, r->batch->column_count * sizeof(bool));
    r->input_count = 0;
    for (size_t pos = 0; pos <= n;) {
        int rc = fr_header_field(r, rec, n, &pos, err);
        if (rc > 0) return fr_header_error(r, rec, n, "bad quoting or escaping", err);
        if (rc < 0) return rc;
        if (r->input_count == TY_BATCH_COLUMNS_MAX)
            return fr_header_error(r, rec, n, "too many columns", err);
        if (r->input_count == capacity) {
            capacity *= 2;
            uint32_t *map = realloc(r->input_map, capacity * sizeof(uint32_t));
            if (map == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for a header");
            r->input_map = map;
        }
        rc = fr_header_name(r, r->input_count, err);
        if (rc != 0) return rc;
        r->input_count++;
    }
    return 0;
}

/* The types line: each named column's type must be the batch column's
 * (input_format_with_types_use_header=1), as ClickHouse compares names. */
static int fr_header_types(fmt_reader *r, const uint8_t *rec, size_t n, mu_err *err) {
    mu_buf want;
    mu_buf_init(&want, 0);
    uint32_t i = 0;
    int rc = 0;
    for (size_t pos = 0; rc == 0 && pos <= n; i++) {
        rc = fr_header_field(r, rec, n, &pos, err);
        if (rc > 0) rc = fr_header_error(r, rec, n, "bad quoting or escaping", err);
        if (rc != 0 || i >= r->input_count || r->input_map[i] == FMT__FIELD_SKIP) continue;
        uint32_t col = r->input_map[i];
        mu_buf_clear(&want);
        rc = ty_type_render(r->batch->columns[col]->type, &want, err);
        if (rc == 0 && (want.length_bytes != r->field.length_bytes ||
                        memcmp(want.data, r->field.data, want.length_bytes) != 0))
            rc = MU_ERR(err, MU_EINCORRECT_DATA, "Type of '%s' must be %.*s, not %.*s",
                        r->batch->names[col], (int)want.length_bytes, (const char *)want.data,
                        (int)MU_MIN(r->field.length_bytes, (size_t)FR_NAME_SHOWN_MAX),
                        (const char *)r->field.data);
    }
    if (rc == 0 && i != r->input_count)
        rc = MU_ERR(err, MU_EINCORRECT_DATA, "Cannot parse input (%s): the number of data types "
                    "(%u) differs from the number of column names in input data (%u)",
                    fmt_name(r->kind), i, r->input_count);
    mu_buf_deinit(&want);
    return rc;
}

static int fr_header(fmt_reader *r, const uint8_t *rec, size_t n, mu_err *err) {
    bool types = r->header_lines == 1 && fr_has_types_line(r->kind);
    r->header_lines--;
    if (!types && !(r->flags & FMT_READ_HEADER_NAMES_IGNORED))
        return fr_header_names(r, rec, n, err);
    if (types && !(r->flags & FMT_READ_HEADER_TYPES_IGNORED))
        return fr_header_types(r, rec, n, err);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Records                                                             */
/* ------------------------------------------------------------------ */

/* Parses one complete record rec[0..n) (line end excluded). A data row
 * that fails is taken back; it is dropped if fmt__skip_row allows. */
static int fr_record(fmt_reader *r, const uint8_t *rec, size_t n, mu_err *err) {
    bool csv = fr_is_csv(r->kind);
    if (csv && n > 0 && rec[n - 1] == '\r') n--;
    if (n > r->max_record_bytes)
        return MU_ERR(err, MU_ETOO_LARGE, "Cannot parse input (%s): row %llu is longer than "
                      "%zu bytes", fmt_name(r->kind), (unsigned long long)r->row_number + 1,
                      r->max_record_bytes);
    if (r->header_lines > 0) return fr_header(r, rec, n, err);
    uint32_t rows = r->batch->columns[0]->row_count;
    int rc = csv ? fr_csv_row(r, rec, n, err) : fr_tsv_row(r, rec, n, err);
    if (rc != 0) {
        for (uint32_t i = 0; i < r->batch->column_count; i++)
            if (r->batch->columns[i]->row_count > rows)
                ty_column_truncate(r->batch->columns[i], rows);
        fmt__unmark_rows_from(r, rows);
        return fmt__skip_row(r, rc, err) ? 0 : rc;
    }
    MU_ASSERT(r->batch->columns[r->batch->column_count - 1]->row_count == rows + 1);
    r->row_number++;
    return 0;
}

/* Parses complete records from the pending bytes; `final` also parses a
 * last record without a line end. */
static int fr_drain(fmt_reader *r, bool final, mu_err *err) {
    size_t start = 0;
    int rc = 0;
    for (;;) {
        if (r->header_lines == 0 && r->batch->columns[0]->row_count >= TY_BATCH_ROWS_MAX) {
            rc = 1;
            break;
        }
        size_t len;
        if (fr_scan(r, start, &len)) {
            rc = fr_record(r, r->pending.data + start, len, err);
            if (rc != 0) break;
            start += len + 1;
            continue;
        }
        len = r->pending.length_bytes - start;
        if (len > r->max_record_bytes) {
            rc = MU_ERR(err, MU_ETOO_LARGE, "Cannot parse input (%s): row %llu is longer "
                        "than %zu bytes", fmt_name(r->kind),
                        (unsigned long long)r->row_number + 1, r->max_record_bytes);
            break;
        }
        if (final && len > 0) {
            rc = fr_record(r, r->pending.data + start, len, err);
            if (rc != 0) break;
            start += len;
            r->scan_state = 0;
        }
        break;
    }
    mu_buf_consume(&r->pending, start);
    r->scan_pos -= start;
    return rc;
}

int fmt_reader_feed(fmt_reader *r, const void *data, size_t length_bytes, mu_err *err) {
    MU_ASSERT(r != NULL && r->batch != NULL && (data != NULL || length_bytes == 0));
    if (r->vt != NULL) return r->vt->feed(r, data, length_bytes, err);
    int rc = length_bytes ? mu_buf_append(&r->pending, data, length_bytes, err) : 0;
    if (rc != 0) return rc;
    return fr_drain(r, false, err);
}

int fmt_reader_finish(fmt_reader *r, mu_err *err) {
    MU_ASSERT(r != NULL && r->batch != NULL);
    if (r->vt != NULL) return r->vt->finish(r, err);
    return fr_drain(r, true, err); /* empty input without header: no rows */
}

/* ------------------------------------------------------------------ */
/* Cutting the input for parallel parsing                              */
/* ------------------------------------------------------------------ */

bool fmt_can_cut(fmt_kind kind) {
    return kind == FMT_TSV || kind == FMT_TSV_RAW || kind == FMT_TSV_WITH_NAMES ||
           kind == FMT_TSV_WITH_NAMES_AND_TYPES || fmt__reader_json(kind) != NULL;
}

/* TSV: the last line end not escaped by an odd run of backslashes. */
static size_t fr_cut_tsv(fmt_kind kind, const uint8_t *p, size_t n) {
    while (n > 0) {
        const uint8_t *nl = memrchr(p, '\n', n);
        if (nl == NULL) return 0;
        size_t at = (size_t)(nl - p), k = at;
        if (kind != FMT_TSV_RAW)
            while (k > 0 && p[k - 1] == '\\') k--;
        if (((at - k) & 1) == 0) return at + 1;
        n = at;
    }
    return 0;
}

size_t fmt_reader_cut(fmt_kind kind, const uint8_t *p, size_t n) {
    MU_ASSERT(fmt_can_cut(kind) && (p != NULL || n == 0));
    if (fmt__reader_json(kind) != NULL) return fmt__json_cut(kind, p, n);
    return fr_cut_tsv(kind, p, n);
}

bool fmt_reader_at_boundary(const fmt_reader *r) {
    if (r->pending.length_bytes != 0 || r->header_lines != 0) return false;
    return r->vt == NULL || fmt__json_at_boundary(r);
}

bool fmt_reader_detach(fmt_reader *r, mu_buf *tail, mu_err *err) {
    if (!fmt_can_cut(r->kind) || r->header_lines > 0 || r->allow_errors_num != 0 ||
        r->allow_errors_ratio != 0)
        return false;
    if (r->vt != NULL && !fmt__json_detachable(r)) return false;
    mu_buf_clear(tail);
    if (mu_buf_append(tail, r->pending.data, r->pending.length_bytes, err) != 0) return false;
    mu_buf_clear(&r->pending);
    r->scan_pos = 0;
    r->scan_state = 0;
    if (r->vt != NULL) fmt__json_reset_scan(r);
    return true;
}

int fmt_reader_resume(fmt_reader *r, const fmt_reader *from, mu_err *err) {
    MU_ASSERT(r->kind == from->kind && r->batch->column_count == from->batch->column_count);
    r->header_lines = 0;
    r->row_number = 0;
    if (r->vt != NULL) {
        fmt__json_resume(r, from);
        return 0;
    }
    if (from->input_count > r->batch->column_count) {
        uint32_t *map = realloc(r->input_map, from->input_count * sizeof(uint32_t));
        if (map == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for a %s reader",
                                       fmt_name(r->kind));
        r->input_map = map;
    }
    memcpy(r->input_map, from->input_map, from->input_count * sizeof(uint32_t));
    memcpy(r->present, from->present, r->batch->column_count * sizeof(bool));
    r->input_count = from->input_count;
    return 0;
}
