/* column_ops.c: operations over rows of existing columns: raw row bytes,
 * copying a row between columns of equal types, row equality, and the
 * structural validation every decoded column passes (the invariants of
 * the layout described in types.h). Recursion follows the type tree and
 * is bounded by TY_TYPE_DEPTH_MAX.
 */
#include "types/types_int.h"

#include <math.h>
#include <string.h>

static uint32_t ops_offset(const ty_column *c, uint32_t i) {
    return mu_load_u32le(c->offsets.data + (size_t)i * 4);
}

static uint32_t ops_lc_index(const ty_column *c, uint32_t row) {
    return mu_load_u32le(c->values.data + (size_t)row * 4);
}

const uint8_t *ty_column_row_bytes(const ty_column *column, uint32_t row, size_t *bytes_out) {
    MU_ASSERT(row < column->row_count);
    const ty_type *v = ty_type_strip_nullable(column->type);
    switch (v->kind) {
    case TY_STRING: {
        static const uint8_t empty[1];
        uint32_t start = ops_offset(column, row);
        *bytes_out = ops_offset(column, row + 1) - start;
        return column->values.data ? column->values.data + start : empty; /* all rows empty */
    }
    case TY_LOW_CARDINALITY:
        return ty_column_row_bytes(column->children[0], ops_lc_index(column, row), bytes_out);
    case TY_ARRAY:
    case TY_MAP:
        *bytes_out = 0;
        return NULL;
    default: {
        size_t width = ty_type_value_bytes(v);
        *bytes_out = width;
        return column->values.data + (size_t)row * width;
    }
    }
}

/* ------------------------------------------------------------------ */
/* Copy a row                                                          */
/* ------------------------------------------------------------------ */

static int ops_copy_row(ty_column *dst, const ty_column *src, uint32_t row, mu_err *err) {
    if (ty_column_is_null(src, row)) return ty_column_append_null(dst, err);
    const ty_type *v = ty_type_strip_nullable(src->type);
    size_t bytes;
    const uint8_t *data;
    switch (v->kind) {
    case TY_STRING:
    case TY_FIXED_STRING:
    case TY_LOW_CARDINALITY:
        data = ty_column_row_bytes(src, row, &bytes);
        return ty_column_append_bytes(dst, data, bytes, err);
    case TY_ARRAY:
    case TY_MAP: {
        uint32_t rows = dst->row_count;
        uint32_t start = ops_offset(src, row), end = ops_offset(src, row + 1);
        int rc = 0;
        for (uint32_t i = start; i < end && rc == 0; i++) {
            rc = ops_copy_row(dst->children[0], src->children[0], i, err);
            if (rc == 0 && v->kind == TY_MAP)
                rc = ops_copy_row(dst->children[1], src->children[1], i, err);
        }
        if (rc == 0) rc = ty_column_append_nested_end(dst, err);
        if (rc != 0) ty__column_truncate(dst, rows);
        return rc;
    }
    default:
        data = ty_column_row_bytes(src, row, &bytes);
        return ty_column_append_value(dst, data, err);
    }
}

int ty_column_append_from(ty_column *dst, const ty_column *src, uint32_t row, mu_err *err) {
    MU_ASSERT(dst != NULL && src != NULL && row < src->row_count);
    /* A plain value goes into LowCardinality of its type too. */
    bool into_lc = dst->type->kind == TY_LOW_CARDINALITY &&
                   ty_type_equal(dst->type->child, src->type);
    if (dst->type != src->type && !into_lc && !ty_type_equal(dst->type, src->type)) {
        char a[128], b[128];
        return MU_ERR(err, MU_ETYPE, "cannot copy a %s value into a %s column",
                      ty_type_name(src->type, a, sizeof(a)), ty_type_name(dst->type, b, sizeof(b)));
    }
    return ops_copy_row(dst, src, row, err);
}

/* ------------------------------------------------------------------ */
/* Equality                                                            */
/* ------------------------------------------------------------------ */

static bool ops_float_equal(double x, double y) {
    return x == y || (isnan(x) && isnan(y));
}

static bool ops_fixed_equal(const ty_type *v, const uint8_t *x, const uint8_t *y, size_t width) {
    if (v->kind == TY_FLOAT32) {
        float a, b;
        memcpy(&a, x, 4);
        memcpy(&b, y, 4);
        return ops_float_equal(a, b);
    }
    if (v->kind == TY_FLOAT64) {
        double a, b;
        memcpy(&a, x, 8);
        memcpy(&b, y, 8);
        return ops_float_equal(a, b);
    }
    return memcmp(x, y, width) == 0;
}

bool ty_column_equal_row(const ty_column *a, uint32_t row_a, const ty_column *b, uint32_t row_b) {
    MU_ASSERT(row_a < a->row_count && row_b < b->row_count);
    bool null_a = ty_column_is_null(a, row_a), null_b = ty_column_is_null(b, row_b);
    if (null_a || null_b) return null_a && null_b;
    const ty_type *v = ty_type_strip_nullable(a->type);
    if (v->kind == TY_ARRAY || v->kind == TY_MAP) {
        uint32_t start_a = ops_offset(a, row_a), end_a = ops_offset(a, row_a + 1);
        uint32_t start_b = ops_offset(b, row_b), end_b = ops_offset(b, row_b + 1);
        if (end_a - start_a != end_b - start_b) return false;
        for (uint32_t i = 0; i < end_a - start_a; i++) {
            for (unsigned c = 0; c < 2 && a->children[c] != NULL; c++) {
                if (!ty_column_equal_row(a->children[c], start_a + i, b->children[c], start_b + i))
                    return false;
            }
        }
        return true;
    }
    size_t bytes_a, bytes_b;
    const uint8_t *x = ty_column_row_bytes(a, row_a, &bytes_a);
    const uint8_t *y = ty_column_row_bytes(b, row_b, &bytes_b);
    if (bytes_a != bytes_b) return false;
    if (v->kind == TY_LOW_CARDINALITY) v = a->children[0]->type;
    return bytes_a == 0 || ops_fixed_equal(v, x, y, bytes_a);
}

/* ------------------------------------------------------------------ */
/* Validation                                                          */
/* ------------------------------------------------------------------ */

static int ops_corrupt(const ty_column *c, mu_err *err, const char *what, uint64_t where) {
    char name[128];
    return MU_CORRUPT(err, "column of type %s: %s (at %llu)",
                      ty_type_name(c->type, name, sizeof(name)), what, (unsigned long long)where);
}

static int ops_validate_offsets(const ty_column *c, mu_err *err) {
    if (c->offsets.length_bytes != ((size_t)c->row_count + 1) * 4)
        return ops_corrupt(c, err, "offsets buffer size", c->offsets.length_bytes);
    if (ops_offset(c, 0) != 0) return ops_corrupt(c, err, "first offset is not 0", 0);
    for (uint32_t i = 0; i < c->row_count; i++) {
        if (ops_offset(c, i + 1) < ops_offset(c, i))
            return ops_corrupt(c, err, "offsets decrease", i + 1);
    }
    return 0;
}

static int ops_validate_fixed(const ty_column *c, const ty_type *v, mu_err *err) {
    size_t width = ty_type_value_bytes(v);
    if (c->values.length_bytes != (size_t)c->row_count * width)
        return ops_corrupt(c, err, "values buffer size", c->values.length_bytes);
    for (uint32_t row = 0; row < c->row_count && v->kind == TY_BOOL; row++) {
        if (c->values.data[row] > 1) return ops_corrupt(c, err, "Bool value not 0 or 1", row);
    }
    for (uint32_t row = 0; row < c->row_count && v->enum_count > 0; row++) {
        int16_t value = v->kind == TY_ENUM8 ? (int8_t)c->values.data[row]
                                            : (int16_t)mu_load_u16le(c->values.data + row * 2);
        if (ty__enum_find_value(v, value) == NULL)
            return ops_corrupt(c, err, "undeclared Enum value", row);
    }
    return 0;
}

/* The type's default payload: empty string, all-zero bytes, index 0, or
 * an Enum's smallest value. */
static bool ops_row_is_default(const ty_column *c, uint32_t row) {
    const ty_type *v = ty_type_strip_nullable(c->type);
    if (v->kind == TY_STRING || v->kind == TY_ARRAY || v->kind == TY_MAP)
        return ops_offset(c, row) == ops_offset(c, row + 1);
    if (v->kind == TY_LOW_CARDINALITY) return ops_lc_index(c, row) == 0;
    size_t bytes;
    const uint8_t *data = ty_column_row_bytes(c, row, &bytes);
    if (v->enum_count > 0) {
        int16_t value = bytes == 1 ? (int8_t)data[0] : (int16_t)mu_load_u16le(data);
        return value == v->enum_entries[0].value;
    }
    for (size_t i = 0; i < bytes; i++) {
        if (data[i] != 0) return false;
    }
    return true;
}

/* NULL rows hold the default, so kernels may read them blindly. */
static int ops_validate_null_rows(const ty_column *c, mu_err *err) {
    for (uint32_t row = 0; c->nullable && row < c->row_count; row++) {
        if (ty_column_is_null(c, row) && !ops_row_is_default(c, row))
            return ops_corrupt(c, err, "NULL row without the default value", row);
    }
    return 0;
}

static int ops_validate_lc(const ty_column *c, mu_err *err) {
    const ty_column *d = c->children[0];
    if (c->values.length_bytes != (size_t)c->row_count * 4)
        return ops_corrupt(c, err, "index buffer size", c->values.length_bytes);
    if (d == NULL || d->row_count == 0 || d->nullable || !ops_row_is_default(d, 0))
        return ops_corrupt(c, err, "dictionary missing, empty, nullable or without default", 0);
    for (uint32_t row = 0; row < c->row_count; row++) {
        if (ops_lc_index(c, row) >= d->row_count)
            return ops_corrupt(c, err, "dictionary index out of range", row);
    }
    return 0;
}

static int ops_validate_at(const ty_column *c, unsigned depth, mu_err *err) {
    if (depth > TY_TYPE_DEPTH_MAX) return ops_corrupt(c, err, "nested too deeply", depth);
    const ty_type *v = ty_type_strip_nullable(c->type);
    bool nullable = c->type->kind == TY_NULLABLE ||
                    (c->type->kind == TY_LOW_CARDINALITY && c->type->child->kind == TY_NULLABLE);
    if (c->row_count > TY_COLUMN_ROWS_MAX || nullable != c->nullable)
        return ops_corrupt(c, err, "bad row count or nullability", c->row_count);
    size_t validity_bytes = nullable ? ((size_t)c->row_count + 7) / 8 : 0;
    if (c->validity.length_bytes != validity_bytes)
        return ops_corrupt(c, err, "validity bitmap size", c->validity.length_bytes);
    if (nullable && c->row_count % 8 != 0 &&
        (c->validity.data[c->row_count / 8] >> (c->row_count % 8)) != 0)
        return ops_corrupt(c, err, "validity bits set past the last row", c->row_count);
    int rc = 0;
    switch (v->kind) {
    case TY_STRING:
        rc = ops_validate_offsets(c, err);
        if (rc == 0 && c->values.length_bytes != ops_offset(c, c->row_count))
            rc = ops_corrupt(c, err, "string bytes do not match the last offset",
                             c->values.length_bytes);
        return rc ? rc : ops_validate_null_rows(c, err);
    case TY_ARRAY:
    case TY_MAP:
        rc = ops_validate_offsets(c, err);
        for (unsigned i = 0; rc == 0 && i < (v->kind == TY_MAP ? 2u : 1u); i++) {
            if (c->children[i] == NULL || c->children[i]->row_count != ops_offset(c, c->row_count))
                return ops_corrupt(c, err, "element count does not match the last offset", i);
            rc = ops_validate_at(c->children[i], depth + 1, err);
        }
        return rc;
    case TY_LOW_CARDINALITY:
        rc = ops_validate_lc(c, err);
        if (rc == 0) rc = ops_validate_at(c->children[0], depth + 1, err);
        return rc ? rc : ops_validate_null_rows(c, err);
    default:
        rc = ops_validate_fixed(c, v, err);
        return rc ? rc : ops_validate_null_rows(c, err);
    }
}

int ty_column_validate(const ty_column *column, mu_err *err) {
    MU_ASSERT(column != NULL);
    return ops_validate_at(column, 1, err);
}
