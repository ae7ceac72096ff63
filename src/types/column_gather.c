/* column_gather.c: ty_column_append_gather, appending rows of a column in
 * an arbitrary order (a sort permutation) without a function call per row
 * for the common shapes: non-nullable fixed-width values and Strings.
 * Other shapes go row by row through ty_column_append_from. On failure the
 * column is left as it was.
 */
#include <string.h>

#include "types/types_int.h"

static bool gather_fixed_kind(ty_kind kind) {
    return kind != TY_STRING && kind != TY_LOW_CARDINALITY && kind != TY_ARRAY &&
           kind != TY_MAP && kind != TY_NULLABLE;
}

static int gather_fixed(ty_column *dst, const ty_column *src, const uint32_t *rows,
                        uint32_t count, mu_err *err) {
    size_t width = ty_type_value_bytes(dst->type);
    int rc = ty__buffer_reserve(&dst->values, dst->tracker, (size_t)count * width, err);
    if (rc != 0) return rc;
    uint8_t *out = dst->values.data + dst->values.length_bytes;
    const uint8_t *in = src->values.data;
    switch (width) {
    case 1:
        for (uint32_t i = 0; i < count; i++) out[i] = in[rows[i]];
        break;
    case 2:
        for (uint32_t i = 0; i < count; i++) memcpy(out + (size_t)i * 2, in + (size_t)rows[i] * 2, 2);
        break;
    case 4:
        for (uint32_t i = 0; i < count; i++) memcpy(out + (size_t)i * 4, in + (size_t)rows[i] * 4, 4);
        break;
    case 8:
        for (uint32_t i = 0; i < count; i++) memcpy(out + (size_t)i * 8, in + (size_t)rows[i] * 8, 8);
        break;
    default:
        for (uint32_t i = 0; i < count; i++) {
            memcpy(out + (size_t)i * width, in + (size_t)rows[i] * width, width);
        }
    }
    dst->values.length_bytes += (size_t)count * width;
    dst->row_count += count;
    return 0;
}

static int gather_strings(ty_column *dst, const ty_column *src, const uint32_t *rows,
                          uint32_t count, mu_err *err) {
    const uint8_t *offsets = src->offsets.data;
    uint64_t total = 0;
    for (uint32_t i = 0; i < count; i++) {
        total += mu_load_u32le(offsets + (size_t)rows[i] * 4 + 4) -
                 mu_load_u32le(offsets + (size_t)rows[i] * 4);
    }
    uint32_t base = mu_load_u32le(dst->offsets.data + (size_t)dst->row_count * 4);
    if (base + total > UINT32_MAX) return MU_ERR(err, MU_ETOO_LARGE, "column offsets past 4 GiB");
    int rc = ty__buffer_reserve(&dst->offsets, dst->tracker, (size_t)count * 4, err);
    if (rc == 0) rc = ty__buffer_reserve(&dst->values, dst->tracker, (size_t)total, err);
    if (rc != 0) return rc;
    uint8_t *out_offsets = dst->offsets.data + dst->offsets.length_bytes;
    /* With no bytes at all (only empty strings) values.data may be NULL. */
    uint8_t *out_bytes = total > 0 ? dst->values.data + dst->values.length_bytes : NULL;
    uint32_t end = base;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t start = mu_load_u32le(offsets + (size_t)rows[i] * 4);
        uint32_t bytes = mu_load_u32le(offsets + (size_t)rows[i] * 4 + 4) - start;
        if (bytes > 0) memcpy(out_bytes + (end - base), src->values.data + start, bytes);
        end += bytes;
        mu_store_u32le(out_offsets + (size_t)i * 4, end);
    }
    dst->offsets.length_bytes += (size_t)count * 4;
    dst->values.length_bytes += (size_t)total;
    dst->row_count += count;
    return 0;
}

int ty_column_append_gather(ty_column *dst, const ty_column *src, const uint32_t *rows,
                            uint32_t count, mu_err *err) {
    MU_ASSERT(dst != NULL && src != NULL && dst != src);
    if (dst->type != src->type && !ty_type_equal(dst->type, src->type)) {
        char a[128], b[128];
        return MU_ERR(err, MU_ETYPE, "cannot copy %s rows into a %s column",
                      ty_type_name(src->type, a, sizeof(a)), ty_type_name(dst->type, b, sizeof(b)));
    }
    if (count > TY_COLUMN_ROWS_MAX - dst->row_count) {
        return MU_ERR(err, MU_ETOO_LARGE, "column would pass the maximum of %u rows",
                      TY_COLUMN_ROWS_MAX);
    }
    for (uint32_t i = 0; i < count; i++) MU_ASSERT(rows[i] < src->row_count);
    if (count == 0) return 0;
    if (!dst->nullable && dst->type->kind == TY_STRING) {
        return gather_strings(dst, src, rows, count, err);
    }
    if (!dst->nullable && gather_fixed_kind(dst->type->kind)) {
        return gather_fixed(dst, src, rows, count, err);
    }
    uint32_t before = dst->row_count;
    int rc = 0;
    for (uint32_t i = 0; i < count && rc == 0; i++) {
        rc = ty_column_append_from(dst, src, rows[i], err);
    }
    if (rc != 0) ty__column_truncate(dst, before);
    return rc;
}
