/* column_exec.c: the two column operations the query kernels need beyond
 * row appends: room for many fixed-width values written in place, and
 * turning a computed column into a Nullable one from a validity bitmap
 * (ClickHouse's default NULL handling of functions). Both keep every
 * invariant of types.h: NULL rows end with the type's default payload.
 */
#include "types/types_int.h"

#include <string.h>

int ty_column_append_fixed_uninit(ty_column *column, uint32_t count, void **values_out,
                                  mu_err *err) {
    MU_ASSERT(column != NULL && values_out != NULL);
    const ty_type *t = column->type;
    char name[128];
    if (column->nullable || t->kind == TY_STRING || t->kind == TY_ARRAY || t->kind == TY_MAP ||
        t->kind == TY_LOW_CARDINALITY || t->kind == TY_NULLABLE)
        return MU_ERR(err, MU_ETYPE, "%s is not a non-nullable fixed-width type",
                      ty_type_name(t, name, sizeof(name)));
    if ((uint64_t)column->row_count + count > TY_COLUMN_ROWS_MAX)
        return MU_ERR(err, MU_ETOO_LARGE, "column holds the maximum of %u rows",
                      TY_COLUMN_ROWS_MAX);
    size_t bytes = (size_t)count * ty_type_value_bytes(t);
    int rc = ty__buffer_reserve(&column->values, column->tracker, bytes, err);
    if (rc != 0) return rc;
    *values_out = column->values.data + column->values.length_bytes;
    column->values.length_bytes += bytes;
    column->row_count += count;
    return 0;
}

/* Strings: rebuild bytes and offsets without the payload of NULL rows. */
static void column_exec_clear_null_strings(ty_column *c, const uint8_t *validity) {
    uint32_t *offsets = (uint32_t *)(void *)c->offsets.data;
    uint32_t write = 0, start = offsets[0];
    for (uint32_t i = 0; i < c->row_count; i++) {
        uint32_t end = offsets[i + 1];
        bool valid = (validity[i >> 3] >> (i & 7)) & 1u;
        if (valid) {
            if (write != start) memmove(c->values.data + write, c->values.data + start, end - start);
            write += end - start;
        }
        start = end;
        offsets[i + 1] = write;
    }
    c->values.length_bytes = write;
}

int ty_column_and_validity(ty_column *column, const uint8_t *validity, mu_err *err) {
    MU_ASSERT(column != NULL && validity != NULL);
    char name[128];
    const ty_type *t = column->type;
    if (!column->nullable || t->kind != TY_NULLABLE)
        return MU_ERR(err, MU_ETYPE, "%s is not Nullable", ty_type_name(t, name, sizeof(name)));
    const ty_type *v = t->child;
    uint32_t rows = column->row_count;
    for (uint32_t i = 0; i < rows; i++)
        if (!((validity[i >> 3] >> (i & 7)) & 1u))
            column->validity.data[i >> 3] &= (uint8_t)~(1u << (i & 7));
    if (v->kind == TY_STRING) {
        column_exec_clear_null_strings(column, column->validity.data);
        return 0;
    }
    if (v->kind == TY_ARRAY || v->kind == TY_MAP || v->kind == TY_LOW_CARDINALITY)
        return MU_ERR(err, MU_ETYPE, "Nullable(%s) is not a column type",
                      ty_type_name(v, name, sizeof(name)));
    uint32_t width = ty_type_value_bytes(v);
    uint8_t def[256] = {0};
    if (v->enum_count > 0 && width == 1) def[0] = (uint8_t)v->enum_entries[0].value;
    if (v->enum_count > 0 && width == 2) mu_store_u16le(def, (uint16_t)v->enum_entries[0].value);
    for (uint32_t i = 0; i < rows; i++) {
        if ((column->validity.data[i >> 3] >> (i & 7)) & 1u) continue;
        uint8_t *at = column->values.data + (size_t)i * width;
        if (width <= sizeof(def)) memcpy(at, def, width);
        else memset(at, 0, width);
    }
    return 0;
}

int ty_column_make_nullable(ty_column *column, const ty_type *nullable_type,
                            const uint8_t *validity, mu_err *err) {
    MU_ASSERT(column != NULL && nullable_type != NULL && validity != NULL);
    char a[128], b[128];
    if (column->nullable || nullable_type->kind != TY_NULLABLE ||
        !ty_type_equal(nullable_type->child, column->type))
        return MU_ERR(err, MU_ETYPE, "cannot make a column of %s into %s",
                      ty_type_name(column->type, a, sizeof(a)),
                      ty_type_name(nullable_type, b, sizeof(b)));
    uint32_t rows = column->row_count;
    size_t bitmap_bytes = (rows + 7) / 8;
    ty_buffer bits = {0};
    int rc = ty__buffer_append(&bits, column->tracker, validity, bitmap_bytes, err);
    if (rc != 0) return rc;
    if (rows % 8 != 0) bits.data[bitmap_bytes - 1] &= (uint8_t)((1u << (rows % 8)) - 1u);
    const ty_type *t = column->type;
    if (t->kind == TY_STRING) {
        column_exec_clear_null_strings(column, bits.data);
    } else {
        uint32_t width = ty_type_value_bytes(t);
        uint8_t def[256] = {0};
        MU_ASSERT(t->kind != TY_ARRAY && t->kind != TY_MAP && t->kind != TY_LOW_CARDINALITY);
        if (t->enum_count > 0 && width == 1) def[0] = (uint8_t)t->enum_entries[0].value;
        if (t->enum_count > 0 && width == 2) mu_store_u16le(def, (uint16_t)t->enum_entries[0].value);
        for (uint32_t i = 0; i < rows; i++) {
            if ((bits.data[i >> 3] >> (i & 7)) & 1u) continue;
            uint8_t *at = column->values.data + (size_t)i * width;
            if (width <= sizeof(def)) memcpy(at, def, width);
            else memset(at, 0, width);
        }
    }
    ty__buffer_free(&column->validity, column->tracker);
    column->validity = bits;
    column->nullable = true;
    column->type = nullable_type;
    return 0;
}
