/* part_value.c: the value encoding of single rows that part keys (marks,
 * manifest key range) and minmax entries use; close to ClickHouse's
 * RowBinary: fixed width as little-endian bytes, String as LEB128 length
 * + bytes, FixedString(N) as N bytes, Nullable as a byte (1 = NULL, 0 = a
 * value follows), LowCardinality as its dictionary type, Array as LEB128
 * count + elements, Map as LEB128 count + key, value pairs. Decoding checks
 * every length against the remaining bytes. Recursion follows the type
 * tree (depth <= TY_TYPE_DEPTH_MAX).
 */
#include "storage/part/part_int.h"

#include <string.h>

static uint32_t value_offset(const ty_column *c, uint32_t i) {
    return ty_column_offsets(c)[i];
}

static int value_put(const ty_column *c, uint32_t row, unsigned depth, mu_buf *out,
                     mu_err *err) {
    MU_ASSERT(depth <= TY_TYPE_DEPTH_MAX);
    if (c->nullable) {
        bool is_null = ty_column_is_null(c, row);
        int rc = mu_buf_append_u8(out, is_null ? 1 : 0, err);
        if (rc != 0 || is_null) return rc;
    }
    const ty_type *v = ty_type_strip_nullable(c->type);
    size_t bytes;
    const uint8_t *data;
    switch (v->kind) {
    case TY_LOW_CARDINALITY:
        return value_put(ty_column_child(c, 0), mu_load_u32le(ty_column_values(c) + row * 4u),
                         depth + 1, out, err);
    case TY_ARRAY:
    case TY_MAP: {
        uint32_t start = value_offset(c, row), end = value_offset(c, row + 1);
        int rc = mu_buf_append_varint(out, end - start, err);
        for (uint32_t i = start; rc == 0 && i < end; i++) {
            rc = value_put(ty_column_child(c, 0), i, depth + 1, out, err);
            if (rc == 0 && v->kind == TY_MAP)
                rc = value_put(ty_column_child(c, 1), i, depth + 1, out, err);
        }
        return rc;
    }
    case TY_STRING: {
        data = ty_column_row_bytes(c, row, &bytes);
        int rc = mu_buf_append_varint(out, bytes, err);
        return rc ? rc : mu_buf_append(out, data, bytes, err);
    }
    default:
        data = ty_column_row_bytes(c, row, &bytes);
        return mu_buf_append(out, data, bytes, err);
    }
}

int part__value_encode(const ty_column *c, uint32_t row, mu_buf *out, mu_err *err) {
    MU_ASSERT(c != NULL && out != NULL && row < ty_column_row_count(c));
    size_t start = out->length_bytes;
    int rc = value_put(c, row, 1, out, err);
    if (rc != 0) out->length_bytes = start;
    return rc;
}

/* ------------------------------------------------------------------ */
/* Decode                                                              */
/* ------------------------------------------------------------------ */

typedef struct value_reader {
    const uint8_t *p;
    size_t n;
    size_t pos;
    mu_err *err;
} value_reader;

static int value_corrupt(value_reader *r, const char *what) {
    return MU_CORRUPT(r->err, "value encoding: %s at byte %zu", what, r->pos);
}

/* A LEB128 length that the remaining bytes can hold (each element or
 * byte takes at least one byte). */
static int value_count(value_reader *r, uint64_t *count) {
    size_t used = mu_varint_decode(r->p + r->pos, r->n - r->pos, count);
    if (used == 0) return value_corrupt(r, "bad length");
    r->pos += used;
    if (*count > r->n - r->pos) return value_corrupt(r, "length past the end");
    return 0;
}

/* Raw bytes of one value of a dictionary-able type (String, FixedString,
 * fixed width), pointing into the input. */
static int value_scalar(value_reader *r, const ty_type *v, const uint8_t **data, size_t *bytes) {
    if (v->kind == TY_STRING) {
        uint64_t length = 0;
        int rc = value_count(r, &length);
        if (rc != 0) return rc;
        *bytes = (size_t)length;
    } else {
        *bytes = ty_type_value_bytes(v);
        if (*bytes > r->n - r->pos) return value_corrupt(r, "truncated value");
    }
    *data = r->p + r->pos;
    r->pos += *bytes;
    return 0;
}

static int value_get(value_reader *r, ty_column *c, unsigned depth);

static int value_get_nested(value_reader *r, ty_column *c, const ty_type *v, unsigned depth) {
    uint64_t count = 0;
    int rc = value_count(r, &count);
    for (uint64_t i = 0; rc == 0 && i < count; i++) {
        rc = value_get(r, ty_column_child_mut(c, 0), depth + 1);
        if (rc == 0 && v->kind == TY_MAP) rc = value_get(r, ty_column_child_mut(c, 1), depth + 1);
    }
    return rc ? rc : ty_column_append_nested_end(c, r->err);
}

static int value_get(value_reader *r, ty_column *c, unsigned depth) {
    if (depth > TY_TYPE_DEPTH_MAX) return value_corrupt(r, "nested too deeply");
    if (c->nullable) {
        if (r->pos >= r->n) return value_corrupt(r, "truncated value");
        uint8_t flag = r->p[r->pos++];
        if (flag > 1) return value_corrupt(r, "bad NULL flag");
        if (flag == 1) return ty_column_append_null(c, r->err);
    }
    const ty_type *v = ty_type_strip_nullable(c->type);
    const uint8_t *data = NULL;
    size_t bytes = 0;
    int rc;
    switch (v->kind) {
    case TY_ARRAY:
    case TY_MAP:
        return value_get_nested(r, c, v, depth);
    case TY_LOW_CARDINALITY:
        rc = value_scalar(r, ty_column_child(c, 0)->type, &data, &bytes);
        return rc ? rc : ty_column_append_bytes(c, data, bytes, r->err);
    case TY_STRING:
    case TY_FIXED_STRING:
        rc = value_scalar(r, v, &data, &bytes);
        return rc ? rc : ty_column_append_bytes(c, data, bytes, r->err);
    default:
        rc = value_scalar(r, v, &data, &bytes);
        return rc ? rc : ty_column_append_value(c, data, r->err);
    }
}

int part__value_decode(ty_column *c, const uint8_t *bytes, size_t length_bytes,
                       size_t *consumed, mu_err *err) {
    MU_ASSERT(c != NULL && (bytes != NULL || length_bytes == 0));
    value_reader r = {.p = bytes, .n = length_bytes, .err = err};
    uint32_t rows = ty_column_row_count(c);
    int rc = value_get(&r, c, 1);
    if (rc != 0) {
        ty_column_truncate(c, rows);
        return rc;
    }
    MU_ASSERT(ty_column_row_count(c) == rows + 1);
    if (consumed != NULL) *consumed = r.pos;
    return 0;
}

int part__key_decode(ty_column *const *columns, uint32_t key_count, const uint8_t *bytes,
                     size_t length_bytes, mu_err *err) {
    size_t pos = 0;
    for (uint32_t k = 0; k < key_count; k++) {
        size_t used = 0;
        int rc = part__value_decode(columns[k], bytes + pos, length_bytes - pos, &used, err);
        if (rc != 0) {
            for (uint32_t j = 0; j < k; j++)
                ty_column_truncate(columns[j], ty_column_row_count(columns[j]) - 1);
            return rc;
        }
        pos += used;
    }
    if (pos != length_bytes) {
        for (uint32_t k = 0; k < key_count; k++)
            ty_column_truncate(columns[k], ty_column_row_count(columns[k]) - 1);
        return MU_CORRUPT(err, "key: %zu unexpected bytes after the last value",
                          length_bytes - pos);
    }
    return 0;
}
