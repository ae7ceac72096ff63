/* json_each_row.c: the JSONEachRow writer: one object per row, no spaces,
 * {"name":value,...}\n. Values follow ClickHouse's defaults: 64-bit
 * integers quoted (output_format_json_quote_64bit_integers=1), smaller
 * integers, floats and decimals bare, nan/inf as null, Bool true/false,
 * strings, dates, UUIDs and enum names as JSON strings (forward slash
 * escaped, control bytes as \u00XX), arrays as [..], maps as {..}.
 */
#include "formats/formats_int.h"

#include <string.h>

/* Appends s as a JSON string with ClickHouse's escaping. Bytes are passed
 * through otherwise (no UTF-8 validation in JSONEachRow). */
static int fj_string(const uint8_t *s, size_t n, mu_buf *out, mu_err *err) {
    int rc = mu_buf_reserve(out, n + 2, err);
    if (rc == 0) rc = mu_buf_append_u8(out, '"', err);
    if (rc == 0) rc = fmt__json_escape(s, n, out, err);
    if (rc == 0) rc = mu_buf_append_u8(out, '"', err);
    return rc;
}

static int fj_value(const ty_column *c, uint32_t row, unsigned flags, mu_buf *scratch, mu_buf *out,
                    mu_err *err);

static int fj_nested(const ty_column *c, bool is_map, uint32_t row, unsigned flags, mu_buf *scratch,
                     mu_buf *out, mu_err *err) {
    const uint32_t *offsets = ty_column_offsets(c);
    uint32_t start = offsets[row], end = offsets[row + 1];
    int rc = mu_buf_append_u8(out, is_map ? '{' : '[', err);
    for (uint32_t i = start; rc == 0 && i < end; i++) {
        if (i > start) rc = mu_buf_append_u8(out, ',', err);
        if (rc != 0) break;
        if (!is_map) {
            rc = fj_value(ty_column_child(c, 0), i, flags, scratch, out, err);
            continue;
        }
        /* map keys are always JSON strings (their text form) */
        mu_buf_clear(scratch);
        rc = ty_column_render_text(ty_column_child(c, 0), i, flags, scratch, err);
        if (rc == 0) rc = fj_string(scratch->data, scratch->length_bytes, out, err);
        if (rc == 0) rc = mu_buf_append_u8(out, ':', err);
        if (rc == 0) rc = fj_value(ty_column_child(c, 1), i, flags, scratch, out, err);
    }
    if (rc == 0) rc = mu_buf_append_u8(out, is_map ? '}' : ']', err);
    return rc;
}

typedef enum fj_style { FJ_BARE, FJ_QUOTED, FJ_FLOAT } fj_style;

static fj_style fj_style_of(ty_kind kind) {
    switch (kind) {
    case TY_UINT8: case TY_UINT16: case TY_UINT32:
    case TY_INT8: case TY_INT16: case TY_INT32:
    case TY_BOOL: case TY_DECIMAL:
        return FJ_BARE;
    case TY_FLOAT32: case TY_FLOAT64:
        return FJ_FLOAT;
    default:
        return FJ_QUOTED; /* 64-bit integers, strings, dates, UUID, enums */
    }
}

static int fj_value(const ty_column *c, uint32_t row, unsigned flags, mu_buf *scratch, mu_buf *out,
                    mu_err *err) {
    if (c->nullable && ty_column_is_null(c, row)) return mu_buf_append(out, "null", 4, err);
    const ty_type *t = ty_type_strip_nullable(c->type);
    if (t->kind == TY_ARRAY || t->kind == TY_MAP)
        return fj_nested(c, t->kind == TY_MAP, row, flags, scratch, out, err);
    if (t->kind == TY_STRING) { /* speed: straight from the column's bytes */
        size_t bytes = 0;
        const uint8_t *data = ty_column_row_bytes(c, row, &bytes);
        return fj_string(data, bytes, out, err);
    }
    if (t->kind == TY_LOW_CARDINALITY) t = ty_type_strip_nullable(t->child);
    mu_buf_clear(scratch);
    int rc = ty_column_render_text(c, row, flags, scratch, err);
    if (rc != 0) return rc;
    const uint8_t *s = scratch->data;
    size_t n = scratch->length_bytes;
    switch (fj_style_of(t->kind)) {
    case FJ_FLOAT:
        /* nan, inf, -inf: null (output_format_json_quote_denormals=0) */
        if (n > 0 && (s[n - 1] == 'f' || s[n - 1] == 'n')) return mu_buf_append_str(out, "null",
                                                                                     err);
        return mu_buf_append(out, s, n, err);
    case FJ_BARE:
        return mu_buf_append(out, s, n, err);
    default:
        return fj_string(s, n, out, err);
    }
}

int fmt_json_value(const ty_column *c, uint32_t row, mu_buf *scratch, mu_buf *out, mu_err *err) {
    MU_ASSERT(row < ty_column_row_count(c));
    return fj_value(c, row, 0, scratch, out, err);
}

int fmt__write_json_each_row(const ty_batch *batch, unsigned flags, mu_buf *out, mu_err *err) {
    uint32_t rows = ty_batch_visible_rows(batch);
    mu_buf scratch;
    mu_buf_init(&scratch, 0);
    int rc = 0;
    for (uint32_t v = 0; rc == 0 && v < rows; v++) {
        uint32_t row = batch->selection ? batch->selection[v] : v;
        rc = mu_buf_append_u8(out, '{', err);
        for (uint32_t i = 0; rc == 0 && i < batch->column_count; i++) {
            if (i > 0) rc = mu_buf_append_u8(out, ',', err);
            const char *name = batch->names[i];
            if (rc == 0) rc = fj_string((const uint8_t *)name, strlen(name), out, err);
            if (rc == 0) rc = mu_buf_append_u8(out, ':', err);
            if (rc == 0) rc = fj_value(batch->columns[i], row, flags, &scratch, out, err);
        }
        if (rc == 0) rc = mu_buf_append(out, "}\n", 2, err);
    }
    mu_buf_deinit(&scratch);
    return rc;
}
