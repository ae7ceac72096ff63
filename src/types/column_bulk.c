/* column_bulk.c: appends of many rows at once, for code that moves whole
 * ranges (the part writer's partial granule, merges) and for decoders that
 * rebuild a column from raw little-endian stream buffers (the part reader).
 * Fixed-width data moves with memcpy, never a call per row. The raw appends
 * treat their input as untrusted: lengths, indexes, Bool and Enum values
 * and the "NULL rows hold the default" rule are checked, and anything wrong
 * is MU_ECORRUPT with the column left exactly as it was. Recursion follows
 * the type tree and is bounded by TY_TYPE_DEPTH_MAX.
 */
#include "types/types_int.h"

#include <stdlib.h>
#include <string.h>

static uint32_t bulk_offset(const ty_column *c, uint32_t i) {
    return mu_load_u32le(c->offsets.data + (size_t)i * 4);
}

static const ty_type *bulk_value_type(const ty_column *c) {
    return ty_type_strip_nullable(c->type);
}

static int bulk_room(const ty_column *c, uint32_t count, mu_err *err) {
    if (count > TY_COLUMN_ROWS_MAX - c->row_count)
        return MU_ERR(err, MU_ETOO_LARGE, "column would pass the maximum of %u rows",
                      TY_COLUMN_ROWS_MAX);
    return 0;
}

static int bulk_corrupt(const ty_column *c, mu_err *err, const char *what, uint64_t where) {
    char name[128];
    return MU_CORRUPT(err, "column of type %s: %s (row %llu)",
                      ty_type_name(c->type, name, sizeof(name)), what, (unsigned long long)where);
}

void ty_column_truncate(ty_column *column, uint32_t rows) {
    MU_ASSERT(column != NULL);
    MU_ASSERT(rows <= column->row_count);
    ty__column_truncate(column, rows);
}

/* ------------------------------------------------------------------ */
/* Validity bits                                                       */
/* ------------------------------------------------------------------ */

/* Appends `count` bits of src starting at bit src_bit (NULL: all valid)
 * to the column's bitmap, which grows to cover row_count + count rows.
 * The row count itself is not changed here. */
static int bulk_push_bits(ty_column *c, const uint8_t *src, size_t src_bit, uint32_t count,
                          mu_err *err) {
    if (count == 0) return 0;
    size_t have = c->validity.length_bytes;
    size_t need = ((size_t)c->row_count + count + 7) / 8;
    if (need > have) {
        int rc = ty__buffer_reserve(&c->validity, c->tracker, need - have, err);
        if (rc != 0) return rc;
        memset(c->validity.data + have, 0, need - have);
        c->validity.length_bytes = need;
    }
    uint8_t *dst = c->validity.data;
    size_t dst_bit = c->row_count;
    if (src == NULL) {
        for (uint32_t i = 0; i < count; i++, dst_bit++)
            dst[dst_bit >> 3] |= (uint8_t)(1u << (dst_bit & 7));
        return 0;
    }
    if ((dst_bit & 7) == 0 && (src_bit & 7) == 0) {
        /* Aligned: whole bytes, then clear the bits past the last row. */
        memcpy(dst + dst_bit / 8, src + src_bit / 8, ((size_t)count + 7) / 8);
        if (count % 8 != 0) dst[(dst_bit + count) / 8] &= (uint8_t)((1u << (count % 8)) - 1);
        return 0;
    }
    for (uint32_t i = 0; i < count; i++, dst_bit++, src_bit++) {
        if (src[src_bit >> 3] & (1u << (src_bit & 7)))
            dst[dst_bit >> 3] |= (uint8_t)(1u << (dst_bit & 7));
    }
    return 0;
}

static bool bulk_bit(const uint8_t *bits, size_t i) {
    return bits == NULL || (bits[i >> 3] & (1u << (i & 7))) != 0;
}

/* ------------------------------------------------------------------ */
/* Range copy between columns of equal types                           */
/* ------------------------------------------------------------------ */

static int bulk_copy_range(ty_column *dst, const ty_column *src, uint32_t from, uint32_t count,
                           unsigned depth, mu_err *err);

/* Offsets of rows [from, from + count) of src rebased onto dst's end. */
static int bulk_copy_offsets(ty_column *dst, const ty_column *src, uint32_t from, uint32_t count,
                             mu_err *err) {
    uint32_t base_src = bulk_offset(src, from), base_dst = bulk_offset(dst, dst->row_count);
    uint64_t last = (uint64_t)base_dst + (bulk_offset(src, from + count) - base_src);
    if (last > UINT32_MAX) return MU_ERR(err, MU_ETOO_LARGE, "column offsets past 4 GiB");
    int rc = ty__buffer_reserve(&dst->offsets, dst->tracker, (size_t)count * 4, err);
    if (rc != 0) return rc;
    uint8_t *out = dst->offsets.data + dst->offsets.length_bytes;
    for (uint32_t i = 0; i < count; i++)
        mu_store_u32le(out + (size_t)i * 4, base_dst + (bulk_offset(src, from + i + 1) - base_src));
    dst->offsets.length_bytes += (size_t)count * 4;
    return 0;
}

/* Dictionary rows of src are found or inserted in dst's dictionary once
 * each: through a map when the range is large next to the dictionary,
 * else one lookup per row. */
static int bulk_copy_lc(ty_column *dst, const ty_column *src, uint32_t from, uint32_t count,
                        mu_err *err) {
    const ty_column *dictionary = src->children[0];
    uint32_t entries = dictionary->row_count;
    uint32_t *map = NULL;
    if ((uint64_t)entries <= (uint64_t)count * 4 + 64) {
        map = malloc((size_t)entries * sizeof(uint32_t));
        if (map == NULL) return MU_ERR(err, MU_ENOMEM, "dictionary map: out of memory");
        memset(map, 0xFF, (size_t)entries * sizeof(uint32_t));
    }
    int rc = ty__buffer_reserve(&dst->values, dst->tracker, (size_t)count * 4, err);
    uint8_t *out = rc == 0 ? dst->values.data + dst->values.length_bytes : NULL;
    for (uint32_t i = 0; rc == 0 && i < count; i++) {
        uint32_t index = mu_load_u32le(src->values.data + ((size_t)from + i) * 4);
        uint32_t mapped = map != NULL ? map[index] : UINT32_MAX;
        if (mapped == UINT32_MAX) {
            size_t bytes;
            const uint8_t *data = ty_column_row_bytes(dictionary, index, &bytes);
            rc = ty__lc_index_find_or_insert(dst, data, bytes, &mapped, err);
            if (rc == 0 && map != NULL) map[index] = mapped;
        }
        if (rc == 0) mu_store_u32le(out + (size_t)i * 4, mapped);
    }
    if (rc == 0) dst->values.length_bytes += (size_t)count * 4;
    free(map);
    return rc;
}

static int bulk_copy_payload(ty_column *dst, const ty_column *src, const ty_type *v,
                             uint32_t from, uint32_t count, unsigned depth, mu_err *err) {
    switch (v->kind) {
    case TY_STRING: {
        uint32_t start = bulk_offset(src, from), end = bulk_offset(src, from + count);
        int rc = bulk_copy_offsets(dst, src, from, count, err);
        if (rc == 0 && end > start)
            rc = ty__buffer_append(&dst->values, dst->tracker, src->values.data + start,
                                   end - start, err);
        return rc;
    }
    case TY_ARRAY:
    case TY_MAP: {
        uint32_t start = bulk_offset(src, from), end = bulk_offset(src, from + count);
        int rc = bulk_copy_offsets(dst, src, from, count, err);
        for (unsigned i = 0; rc == 0 && i < 2 && src->children[i] != NULL; i++)
            rc = bulk_copy_range(dst->children[i], src->children[i], start, end - start,
                                 depth + 1, err);
        return rc;
    }
    case TY_LOW_CARDINALITY:
        return bulk_copy_lc(dst, src, from, count, err);
    default: {
        size_t width = ty_type_value_bytes(v);
        return ty__buffer_append(&dst->values, dst->tracker,
                                 src->values.data + (size_t)from * width, (size_t)count * width,
                                 err);
    }
    }
}

static int bulk_copy_range(ty_column *dst, const ty_column *src, uint32_t from, uint32_t count,
                           unsigned depth, mu_err *err) {
    MU_ASSERT(depth <= TY_TYPE_DEPTH_MAX);
    if (count == 0) return 0;
    int rc = bulk_room(dst, count, err);
    if (rc == 0 && dst->nullable) rc = bulk_push_bits(dst, src->validity.data, from, count, err);
    if (rc == 0) rc = bulk_copy_payload(dst, src, bulk_value_type(src), from, count, depth, err);
    if (rc == 0) dst->row_count += count;
    return rc;
}

int ty_column_append_rows_from(ty_column *dst, const ty_column *src, uint32_t from,
                               uint32_t count, mu_err *err) {
    MU_ASSERT(dst != NULL && src != NULL && dst != src);
    MU_ASSERT(from <= src->row_count && count <= src->row_count - from);
    if (dst->type != src->type && !ty_type_equal(dst->type, src->type)) {
        char a[128], b[128];
        return MU_ERR(err, MU_ETYPE, "cannot copy %s rows into a %s column",
                      ty_type_name(src->type, a, sizeof(a)), ty_type_name(dst->type, b, sizeof(b)));
    }
    uint32_t rows = dst->row_count;
    int rc = bulk_copy_range(dst, src, from, count, 1, err);
    if (rc != 0) ty__column_truncate(dst, rows);
    MU_ASSERT(dst->row_count == rows + (rc == 0 ? count : 0));
    return rc;
}

/* ------------------------------------------------------------------ */
/* Raw appends (decoders)                                              */
/* ------------------------------------------------------------------ */

static int bulk_check_validity_arg(const ty_column *c, const uint8_t *validity, mu_err *err) {
    if (validity != NULL && !c->nullable) {
        char name[128];
        return MU_ERR(err, MU_ETYPE, "a validity bitmap for a %s column",
                      ty_type_name(c->type, name, sizeof(name)));
    }
    return 0;
}

/* Bool must be 0/1, Enum values declared, NULL rows the type's default. */
static int bulk_check_fixed(const ty_column *c, const ty_type *v, const uint8_t *values,
                            uint32_t count, size_t width, const uint8_t *validity, mu_err *err) {
    for (uint32_t row = 0; row < count && v->kind == TY_BOOL; row++) {
        if (values[row] > 1) return bulk_corrupt(c, err, "Bool value not 0 or 1", row);
    }
    for (uint32_t row = 0; row < count && v->enum_count > 0; row++) {
        int16_t value = v->kind == TY_ENUM8 ? (int8_t)values[row]
                                            : (int16_t)mu_load_u16le(values + (size_t)row * 2);
        if (ty__enum_find_value(v, value) == NULL)
            return bulk_corrupt(c, err, "undeclared Enum value", row);
    }
    for (uint32_t row = 0; validity != NULL && row < count; row++) {
        if (bulk_bit(validity, row)) continue;
        const uint8_t *at = values + (size_t)row * width;
        bool is_default = true;
        if (v->enum_count > 0) {
            int16_t value = width == 1 ? (int8_t)at[0] : (int16_t)mu_load_u16le(at);
            is_default = value == v->enum_entries[0].value;
        } else {
            for (size_t i = 0; i < width && is_default; i++) is_default = at[i] == 0;
        }
        if (!is_default) return bulk_corrupt(c, err, "NULL row without the default value", row);
    }
    return 0;
}

int ty_column_append_fixed_raw(ty_column *column, const void *values, uint32_t count,
                               const uint8_t *validity, mu_err *err) {
    MU_ASSERT(column != NULL && (values != NULL || count == 0));
    const ty_type *v = bulk_value_type(column);
    if (v->kind == TY_STRING || v->kind == TY_ARRAY || v->kind == TY_MAP ||
        v->kind == TY_LOW_CARDINALITY) {
        char name[128];
        return MU_ERR(err, MU_ETYPE, "%s is not a fixed-width type",
                      ty_type_name(column->type, name, sizeof(name)));
    }
    size_t width = ty_type_value_bytes(v);
    int rc = bulk_check_validity_arg(column, validity, err);
    if (rc == 0) rc = bulk_room(column, count, err);
    if (rc == 0) rc = bulk_check_fixed(column, v, values, count, width, validity, err);
    if (rc != 0) return rc;
    uint32_t rows = column->row_count;
    if (column->nullable) rc = bulk_push_bits(column, validity, 0, count, err);
    if (rc == 0)
        rc = ty__buffer_append(&column->values, column->tracker, values, (size_t)count * width,
                               err);
    if (rc == 0) column->row_count += count;
    if (rc != 0) ty__column_truncate(column, rows);
    MU_ASSERT(column->values.length_bytes == (size_t)column->row_count * width);
    return rc;
}

/* Sum of `count` u32 lengths, checked against expected_total when it is
 * not UINT64_MAX and against NULL rows (which must be empty). */
static int bulk_sum_lengths(const ty_column *c, const uint8_t *lengths, uint32_t count,
                            const uint8_t *validity, uint64_t *total_out, mu_err *err) {
    uint64_t total = 0;
    for (uint32_t row = 0; row < count; row++) {
        uint32_t length = mu_load_u32le(lengths + (size_t)row * 4);
        if (length != 0 && !bulk_bit(validity, row))
            return bulk_corrupt(c, err, "NULL row without the default value", row);
        total += length;
    }
    *total_out = total;
    return 0;
}

/* Appends count offsets made from u32 lengths; the caller checked that the
 * end fits in a u32. */
static int bulk_push_lengths(ty_column *c, const uint8_t *lengths, uint32_t count, mu_err *err) {
    int rc = ty__buffer_reserve(&c->offsets, c->tracker, (size_t)count * 4, err);
    if (rc != 0) return rc;
    uint32_t end = bulk_offset(c, c->row_count);
    uint8_t *out = c->offsets.data + c->offsets.length_bytes;
    for (uint32_t row = 0; row < count; row++) {
        end += mu_load_u32le(lengths + (size_t)row * 4);
        mu_store_u32le(out + (size_t)row * 4, end);
    }
    c->offsets.length_bytes += (size_t)count * 4;
    return 0;
}

int ty_column_append_strings_raw(ty_column *column, const void *lengths, const void *bytes,
                                 size_t bytes_length, uint32_t count, const uint8_t *validity,
                                 mu_err *err) {
    MU_ASSERT(column != NULL && (lengths != NULL || count == 0));
    MU_ASSERT(bytes != NULL || bytes_length == 0);
    if (bulk_value_type(column)->kind != TY_STRING) {
        char name[128];
        return MU_ERR(err, MU_ETYPE, "%s is not a String column",
                      ty_type_name(column->type, name, sizeof(name)));
    }
    uint64_t total = 0;
    int rc = bulk_check_validity_arg(column, validity, err);
    if (rc == 0) rc = bulk_room(column, count, err);
    if (rc == 0) rc = bulk_sum_lengths(column, lengths, count, validity, &total, err);
    if (rc != 0) return rc;
    if (total != bytes_length)
        return bulk_corrupt(column, err, "string lengths do not add up to the bytes", count);
    if (total > UINT32_MAX - column->values.length_bytes)
        return MU_ERR(err, MU_ETOO_LARGE, "String column past 4 GiB of bytes");
    uint32_t rows = column->row_count;
    if (column->nullable) rc = bulk_push_bits(column, validity, 0, count, err);
    if (rc == 0) rc = bulk_push_lengths(column, lengths, count, err);
    if (rc == 0) rc = ty__buffer_append(&column->values, column->tracker, bytes, total, err);
    if (rc == 0) column->row_count += count;
    if (rc != 0) ty__column_truncate(column, rows);
    MU_ASSERT(column->values.length_bytes == bulk_offset(column, column->row_count));
    return rc;
}

int ty_column_append_nested_raw(ty_column *column, const void *lengths, uint32_t count,
                                mu_err *err) {
    MU_ASSERT(column != NULL && (lengths != NULL || count == 0));
    const ty_type *v = bulk_value_type(column);
    if (v->kind != TY_ARRAY && v->kind != TY_MAP) {
        char name[128];
        return MU_ERR(err, MU_ETYPE, "%s is not an Array or Map",
                      ty_type_name(column->type, name, sizeof(name)));
    }
    uint64_t total = 0;
    int rc = bulk_room(column, count, err);
    if (rc == 0) rc = bulk_sum_lengths(column, lengths, count, NULL, &total, err);
    if (rc != 0) return rc;
    uint64_t end = (uint64_t)bulk_offset(column, column->row_count) + total;
    for (unsigned i = 0; i < (v->kind == TY_MAP ? 2u : 1u); i++) {
        if (column->children[i]->row_count != end)
            return bulk_corrupt(column, err, "element count does not match the lengths", count);
    }
    rc = bulk_push_lengths(column, lengths, count, err);
    if (rc == 0) column->row_count += count;
    return rc;
}

/* Maps each entry of `dictionary` to its position in the column's own
 * dictionary, inserting new values. */
static int bulk_map_dictionary(ty_column *column, const ty_column *dictionary, uint32_t *map,
                               mu_err *err) {
    for (uint32_t i = 0; i < dictionary->row_count; i++) {
        size_t bytes;
        const uint8_t *data = ty_column_row_bytes(dictionary, i, &bytes);
        int rc = ty__lc_index_find_or_insert(column, data, bytes, &map[i], err);
        if (rc != 0) return rc;
    }
    return 0;
}

static uint32_t bulk_load_index(const uint8_t *indices, unsigned index_bytes, uint32_t row) {
    if (index_bytes == 1) return indices[row];
    if (index_bytes == 2) return mu_load_u16le(indices + (size_t)row * 2);
    return mu_load_u32le(indices + (size_t)row * 4);
}

static int bulk_push_indices(ty_column *column, const uint32_t *map, uint32_t entries,
                             const void *indices, unsigned index_bytes, uint32_t count,
                             const uint8_t *validity, mu_err *err) {
    int rc = ty__buffer_reserve(&column->values, column->tracker, (size_t)count * 4, err);
    if (rc != 0) return rc;
    uint8_t *out = column->values.data + column->values.length_bytes;
    for (uint32_t row = 0; row < count; row++) {
        uint32_t index = bulk_load_index(indices, index_bytes, row);
        if (index >= entries)
            return bulk_corrupt(column, err, "dictionary index out of range", row);
        if (!bulk_bit(validity, row) && map[index] != 0)
            return bulk_corrupt(column, err, "NULL row without the default value", row);
        mu_store_u32le(out + (size_t)row * 4, map[index]);
    }
    column->values.length_bytes += (size_t)count * 4;
    return 0;
}

int ty_column_append_lc_raw(ty_column *column, const ty_column *dictionary, const void *indices,
                            unsigned index_bytes, uint32_t count, const uint8_t *validity,
                            mu_err *err) {
    MU_ASSERT(column != NULL && dictionary != NULL && (indices != NULL || count == 0));
    MU_ASSERT(index_bytes == 1 || index_bytes == 2 || index_bytes == 4);
    char name[128], other[128];
    if (bulk_value_type(column)->kind != TY_LOW_CARDINALITY)
        return MU_ERR(err, MU_ETYPE, "%s is not a LowCardinality column",
                      ty_type_name(column->type, name, sizeof(name)));
    if (!ty_type_equal(dictionary->type, column->children[0]->type) || dictionary->nullable)
        return MU_ERR(err, MU_ETYPE, "a %s dictionary for a %s column",
                      ty_type_name(dictionary->type, other, sizeof(other)),
                      ty_type_name(column->type, name, sizeof(name)));
    int rc = bulk_check_validity_arg(column, validity, err);
    if (rc == 0) rc = bulk_room(column, count, err);
    if (rc != 0) return rc;
    uint32_t *map = malloc(((size_t)dictionary->row_count + 1) * sizeof(uint32_t));
    if (map == NULL) return MU_ERR(err, MU_ENOMEM, "dictionary map: out of memory");
    uint32_t rows = column->row_count;
    rc = bulk_map_dictionary(column, dictionary, map, err);
    if (rc == 0 && column->nullable) rc = bulk_push_bits(column, validity, 0, count, err);
    if (rc == 0)
        rc = bulk_push_indices(column, map, dictionary->row_count, indices, index_bytes, count,
                               validity, err);
    if (rc == 0) column->row_count += count;
    if (rc != 0) ty__column_truncate(column, rows);
    free(map);
    return rc;
}
