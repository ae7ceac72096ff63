/* read.c: the streaming TabSeparated / CSV reader. Bytes fed in chunks
 * collect in a pending buffer; a small state machine finds record ends
 * (a TSV line ends at an unescaped \n, a CSV record at a \n outside
 * quotes) so a record split across chunks is parsed only once complete.
 * Each field is un-escaped (TSV) or un-quoted (CSV) and handed to the
 * types module's strict text parser; \N is NULL. A failing row leaves the
 * columns as before the row and reports row number, column and value.
 */
#include "formats/formats_int.h"

#include <string.h>

enum { FR_VALUE_SHOWN_MAX = 100 }; /* bytes of a bad value quoted in messages */

static bool fr_is_csv(fmt_kind kind) {
    return kind == FMT_CSV || kind == FMT_CSV_WITH_NAMES || kind == FMT_CSV_WITH_NAMES_AND_TYPES;
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
    mu_buf_init(&r->pending, 0);
    mu_buf_init(&r->field, 0);
    r->vt = fmt__reader_json(kind);
    if (r->vt == NULL) r->vt = fmt__reader_binary(kind);
    if (r->vt != NULL) return r->vt->init(r, err);
    if (kind == FMT_TSV_WITH_NAMES || kind == FMT_CSV_WITH_NAMES) r->header_lines = 1;
    if (kind == FMT_TSV_WITH_NAMES_AND_TYPES || kind == FMT_CSV_WITH_NAMES_AND_TYPES)
        r->header_lines = 2;
    return 0;
}

void fmt_reader_deinit(fmt_reader *r) {
    if (r == NULL) return;
    if (r->vt != NULL && r->vt->deinit) r->vt->deinit(r);
    mu_buf_deinit(&r->pending);
    mu_buf_deinit(&r->field);
}

/* ------------------------------------------------------------------ */
/* Record scanning                                                     */
/* ------------------------------------------------------------------ */

/* TSV states: 0 plain, 1 after a backslash. CSV states: 0 field start,
 * 1 unquoted field, 2 inside quotes, 3 a quote inside quotes (closing or
 * the first of a doubled pair). */
static int fr_step(bool csv, int state, uint8_t ch, bool *end) {
    *end = false;
    if (!csv) {
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
    bool csv = fr_is_csv(r->kind);
    const uint8_t *p = r->pending.data;
    for (size_t i = r->scan_pos; i < r->pending.length_bytes; i++) {
        bool end;
        r->scan_state = fr_step(csv, r->scan_state, p[i], &end);
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
        memcpy(out->data, s, n); /* an Array/Map: its quoted form is read as is */
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
/* Records                                                             */
/* ------------------------------------------------------------------ */

/* code: ClickHouse's for the failure (a number that does not parse is
 * CANNOT_PARSE_INPUT_ASSERTION_FAILED there: the reader stops before the
 * bad byte and then misses the delimiter; dates and UUIDs keep theirs). */
static int fr_row_error(fmt_reader *r, uint32_t col, const uint8_t *value, size_t n,
                        const char *reason, int code, mu_err *err) {
    int shown = (int)(n > FR_VALUE_SHOWN_MAX ? FR_VALUE_SHOWN_MAX : n);
    return MU_ERR(err, code,
                  "Cannot parse input (%s): row %llu, column %u '%s': value '%.*s'%s: %s",
                  fmt_name(r->kind), (unsigned long long)r->row_number + 1, col + 1,
                  r->batch->names[col], shown, (const char *)value,
                  (size_t)shown < n ? "..." : "", reason);
}

/* Appends one field's value (already un-escaped in r->field). `null` is
 * the raw field being \N. */
static int fr_store(fmt_reader *r, uint32_t col, bool null, bool empty_default, mu_err *err) {
    ty_column *c = r->batch->columns[col];
    const uint8_t *v = r->field.data;
    size_t n = r->field.length_bytes;
    if (null && c->nullable) return ty_column_append_null(c, err);
    if (null && (r->flags & FMT_READ_NULL_AS_DEFAULT)) return ty_column_append_default(c, err);
    if (null)
        return fr_row_error(r, col, (const uint8_t *)"\\N", 2,
                            "NULL in a column that is not Nullable", MU_EPARSE, err);
    const ty_type *t = ty_type_strip_nullable(c->type);
    if (empty_default && n == 0 && t->kind != TY_STRING && t->kind != TY_FIXED_STRING)
        return ty_column_append_default(c, err); /* input_format_csv_empty_as_default */
    mu_err inner;
    mu_err_clear(&inner);
    int rc = ty_column_append_text(c, (const char *)v, n, &inner);
    if (rc == MU_EPARSE || rc == MU_EPARSE_DATE || rc == MU_EPARSE_DATETIME || rc == MU_EPARSE_UUID)
        return fr_row_error(r, col, v, n, inner.message, rc == MU_EPARSE ? MU_EINPUT_ASSERTION : rc,
                            err);
    if (rc != 0) return MU_ERR(err, rc, "%s", inner.message);
    return 0;
}

static int fr_field_count(fmt_reader *r, uint32_t got, const uint8_t *rec, size_t n,
                          mu_err *err) {
    int shown = (int)(n > FR_VALUE_SHOWN_MAX ? FR_VALUE_SHOWN_MAX : n);
    return MU_ERR(err, MU_EPARSE,
                  "Cannot parse input (%s): row %llu: expected %u fields, found %s%u: '%.*s'",
                  fmt_name(r->kind), (unsigned long long)r->row_number + 1,
                  r->batch->column_count, got > r->batch->column_count ? "more than " : "",
                  got > r->batch->column_count ? r->batch->column_count : got, shown,
                  (const char *)rec);
}

/* Parses one TSV record of data into the columns. */
static int fr_tsv_row(fmt_reader *r, const uint8_t *rec, size_t n, mu_err *err) {
    size_t pos = 0;
    uint32_t cols = r->batch->column_count;
    for (uint32_t col = 0; col < cols; col++) {
        if (pos > n) return fr_field_count(r, col, rec, n, err);
        const uint8_t *tab = memchr(rec + pos, '\t', n - pos);
        size_t end = tab ? (size_t)(tab - rec) : n;
        const uint8_t *f = rec + pos;
        size_t len = end - pos;
        bool null = len == 2 && f[0] == '\\' && f[1] == 'N';
        bool raw = fr_is_composite(r->batch->columns[col]->type);
        int rc = null ? 0 : fr_tsv_unescape(f, len, raw, &r->field, err);
        if (rc < 0) return rc;
        if (rc > 0) return fr_row_error(r, col, f, len, "bad escape sequence", MU_EPARSE, err);
        rc = fr_store(r, col, null, false, err);
        if (rc != 0) return rc;
        pos = end + 1;
    }
    if (pos <= n) return fr_field_count(r, cols + 1, rec, n, err);
    return 0;
}

/* Parses one CSV record of data into the columns. */
static int fr_csv_row(fmt_reader *r, const uint8_t *rec, size_t n, mu_err *err) {
    size_t pos = 0;
    uint32_t cols = r->batch->column_count;
    for (uint32_t col = 0; col < cols; col++) {
        if (col > 0 && pos >= n) return fr_field_count(r, col, rec, n, err);
        if (col > 0) pos++; /* the comma */
        size_t from = pos;
        bool quoted;
        int rc = fr_csv_field(rec, n, &pos, &quoted, &r->field, err);
        if (rc < 0) return rc;
        if (rc > 0)
            return fr_row_error(r, col, rec + from, n - from, "bad quoting", MU_EPARSE, err);
        bool null = !quoted && r->field.length_bytes == 2 && r->field.data[0] == '\\' &&
                    r->field.data[1] == 'N';
        rc = fr_store(r, col, null, !quoted, err);
        if (rc != 0) return rc;
    }
    if (pos < n) return fr_field_count(r, cols + 1, rec, n, err);
    return 0;
}

/* Checks one header line (names, or type names when `types`) against the
 * batch's columns. */
static int fr_header(fmt_reader *r, const uint8_t *rec, size_t n, bool types, mu_err *err) {
    bool csv = fr_is_csv(r->kind);
    mu_buf want;
    mu_buf_init(&want, 0);
    size_t pos = 0;
    int rc = 0;
    for (uint32_t col = 0; rc == 0 && col < r->batch->column_count; col++) {
        if (col > 0 && pos >= n) goto fail;
        if (col > 0) pos++;
        bool quoted;
        if (csv) {
            rc = fr_csv_field(rec, n, &pos, &quoted, &r->field, err);
        } else {
            const uint8_t *tab = memchr(rec + pos, '\t', n - pos);
            size_t end = tab ? (size_t)(tab - rec) : n;
            rc = fr_tsv_unescape(rec + pos, end - pos, false, &r->field, err);
            pos = end;
        }
        if (rc > 0) goto fail;
        mu_buf_clear(&want);
        if (rc == 0 && types) rc = ty_type_render(r->batch->columns[col]->type, &want, err);
        if (rc == 0 && !types) rc = mu_buf_append_str(&want, r->batch->names[col], err);
        if (rc == 0 && (want.length_bytes != r->field.length_bytes ||
                        memcmp(want.data, r->field.data, want.length_bytes) != 0))
            goto fail;
    }
    if (rc == 0 && pos < n) goto fail;
    mu_buf_deinit(&want);
    return rc;
fail:
    mu_buf_deinit(&want);
    return MU_ERR(err, MU_EPARSE, "Cannot parse input (%s): header line of column %s does "
                  "not match the expected columns: '%.*s'", fmt_name(r->kind),
                  types ? "types" : "names", (int)(n > 200 ? 200 : n), (const char *)rec);
}

/* Parses one complete record rec[0..n) (line end excluded). */
static int fr_record(fmt_reader *r, const uint8_t *rec, size_t n, mu_err *err) {
    bool csv = fr_is_csv(r->kind);
    if (csv && n > 0 && rec[n - 1] == '\r') n--;
    if (n > r->max_record_bytes)
        return MU_ERR(err, MU_ETOO_LARGE, "Cannot parse input (%s): row %llu is longer than "
                      "%zu bytes", fmt_name(r->kind), (unsigned long long)r->row_number + 1,
                      r->max_record_bytes);
    if (r->header_lines > 0) {
        bool types = r->header_lines == 1 && (r->kind == FMT_TSV_WITH_NAMES_AND_TYPES ||
                                              r->kind == FMT_CSV_WITH_NAMES_AND_TYPES);
        r->header_lines--;
        return fr_header(r, rec, n, types, err);
    }
    uint32_t rows = r->batch->columns[0]->row_count;
    int rc = csv ? fr_csv_row(r, rec, n, err) : fr_tsv_row(r, rec, n, err);
    if (rc != 0) {
        for (uint32_t i = 0; i < r->batch->column_count; i++)
            if (r->batch->columns[i]->row_count > rows)
                ty_column_truncate(r->batch->columns[i], rows);
        return rc;
    }
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
