/* column_compare.c: the total order of values that sort keys, part key
 * ranges and minmax indexes rely on (ty_column_compare_rows). Numbers
 * compare by value (signed or unsigned by kind, Enum by its number,
 * Decimal as its scaled integer); floats put NaN after every number and
 * treat -0 and +0 as equal; String and FixedString compare bytewise with a
 * shorter prefix first; UUIDs bytewise in text order; LowCardinality by
 * dictionary value; Array and Map lexicographically by element (Map by key,
 * then value); NULL after every value and equal to NULL. Recursion follows
 * the type tree (depth <= TY_TYPE_DEPTH_MAX).
 */
#include "types/types_int.h"

#include <math.h>
#include <string.h>

#define CMP(x, y) (((x) > (y)) - ((x) < (y)))

static int compare_double(double x, double y) {
    bool nan_x = isnan(x), nan_y = isnan(y);
    if (nan_x || nan_y) return (int)nan_x - (int)nan_y;
    return CMP(x, y); /* -0 == +0 under == and < */
}

static int compare_signed(const uint8_t *x, const uint8_t *y, size_t width) {
    switch (width) {
    case 1: return CMP((int8_t)x[0], (int8_t)y[0]);
    case 2: return CMP((int16_t)mu_load_u16le(x), (int16_t)mu_load_u16le(y));
    case 4: return CMP((int32_t)mu_load_u32le(x), (int32_t)mu_load_u32le(y));
    case 8: return CMP((int64_t)mu_load_u64le(x), (int64_t)mu_load_u64le(y));
    default: {
        MU_ASSERT(width == 16);
        __int128 a, b;
        memcpy(&a, x, 16);
        memcpy(&b, y, 16);
        return CMP(a, b);
    }
    }
}

static int compare_unsigned(const uint8_t *x, const uint8_t *y, size_t width) {
    switch (width) {
    case 1: return CMP(x[0], y[0]);
    case 2: return CMP(mu_load_u16le(x), mu_load_u16le(y));
    case 4: return CMP(mu_load_u32le(x), mu_load_u32le(y));
    default: MU_ASSERT(width == 8); return CMP(mu_load_u64le(x), mu_load_u64le(y));
    }
}

static int compare_bytes(const uint8_t *x, size_t nx, const uint8_t *y, size_t ny) {
    size_t n = MU_MIN(nx, ny);
    int c = n > 0 ? memcmp(x, y, n) : 0;
    if (c != 0) return c < 0 ? -1 : 1;
    return CMP(nx, ny);
}

/* One fixed-width value of kind v (not String, Array, Map or LC). */
static int compare_fixed(const ty_type *v, const uint8_t *x, const uint8_t *y, size_t width) {
    switch (v->kind) {
    case TY_UINT8:
    case TY_UINT16:
    case TY_UINT32:
    case TY_UINT64:
    case TY_BOOL:
    case TY_DATE:
    case TY_DATETIME:
        return compare_unsigned(x, y, width);
    case TY_FLOAT32: {
        float a, b;
        memcpy(&a, x, 4);
        memcpy(&b, y, 4);
        return compare_double(a, b);
    }
    case TY_FLOAT64: {
        double a, b;
        memcpy(&a, x, 8);
        memcpy(&b, y, 8);
        return compare_double(a, b);
    }
    case TY_FIXED_STRING:
    case TY_UUID:
        return compare_bytes(x, width, y, width);
    default: /* Int*, Date32, DateTime64, Decimal, Enum */
        return compare_signed(x, y, width);
    }
}

static uint32_t compare_offset(const ty_column *c, uint32_t i) {
    return mu_load_u32le(c->offsets.data + (size_t)i * 4);
}

static int compare_at(const ty_column *a, uint32_t ra, const ty_column *b, uint32_t rb,
                      unsigned depth);

static int compare_nested(const ty_column *a, uint32_t ra, const ty_column *b, uint32_t rb,
                          unsigned depth) {
    uint32_t start_a = compare_offset(a, ra), count_a = compare_offset(a, ra + 1) - start_a;
    uint32_t start_b = compare_offset(b, rb), count_b = compare_offset(b, rb + 1) - start_b;
    uint32_t n = MU_MIN(count_a, count_b);
    for (uint32_t i = 0; i < n; i++) {
        for (unsigned k = 0; k < 2 && a->children[k] != NULL; k++) {
            int c = compare_at(a->children[k], start_a + i, b->children[k], start_b + i,
                               depth + 1);
            if (c != 0) return c;
        }
    }
    return CMP(count_a, count_b);
}

static int compare_at(const ty_column *a, uint32_t ra, const ty_column *b, uint32_t rb,
                      unsigned depth) {
    MU_ASSERT(depth <= TY_TYPE_DEPTH_MAX);
    bool null_a = ty_column_is_null(a, ra), null_b = ty_column_is_null(b, rb);
    if (null_a || null_b) return (int)null_a - (int)null_b;
    const ty_type *v = ty_type_strip_nullable(a->type);
    switch (v->kind) {
    case TY_LOW_CARDINALITY:
        return compare_at(a->children[0], mu_load_u32le(a->values.data + (size_t)ra * 4),
                          b->children[0], mu_load_u32le(b->values.data + (size_t)rb * 4),
                          depth + 1);
    case TY_ARRAY:
    case TY_MAP:
        return compare_nested(a, ra, b, rb, depth);
    case TY_STRING: {
        size_t bytes_a, bytes_b;
        const uint8_t *x = ty_column_row_bytes(a, ra, &bytes_a);
        const uint8_t *y = ty_column_row_bytes(b, rb, &bytes_b);
        return compare_bytes(x, bytes_a, y, bytes_b);
    }
    default: {
        size_t width = ty_type_value_bytes(v);
        return compare_fixed(v, a->values.data + (size_t)ra * width,
                             b->values.data + (size_t)rb * width, width);
    }
    }
}

int ty_column_compare_rows(const ty_column *a, uint32_t row_a, const ty_column *b,
                           uint32_t row_b) {
    MU_ASSERT(a != NULL && b != NULL);
    MU_ASSERT(row_a < a->row_count && row_b < b->row_count);
    MU_ASSERT(a->type->kind == b->type->kind);
    MU_DEBUG_ASSERT(a->type == b->type || ty_type_equal(a->type, b->type));
    return compare_at(a, row_a, b, row_b, 1);
}
