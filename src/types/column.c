/* column.c: column vectors in the Arrow layout (types.h describes the
 * buffers): creation for a type tree, growth, and the primitive appends.
 * Ownership: a column owns its buffers and children; they are malloc'd and
 * charged to the column's memory tracker (NULL: not charged), because
 * columns outlive any one query arena (memtables, WAL batches). Every
 * append either completes or leaves the column exactly as it was: a
 * failed composite append is undone with ty__column_truncate.
 */
#include "types/types_int.h"

#include <stdlib.h>
#include <string.h>

#define COLUMN_BUFFER_BYTES_MIN 64

int ty__buffer_reserve(ty_buffer *b, mu_mem_tracker *tracker, size_t extra_bytes, mu_err *err) {
    size_t need;
    if (!mu_size_add(b->length_bytes, extra_bytes, &need))
        return MU_ERR(err, MU_ETOO_LARGE, "column buffer size overflows");
    if (need <= b->capacity_bytes) return 0;
    size_t capacity = MU_MAX(need, MU_MAX(b->capacity_bytes * 2, COLUMN_BUFFER_BYTES_MIN));
    size_t growth = capacity - b->capacity_bytes;
    if (tracker != NULL) {
        int rc = mu_mem_tracker_charge(tracker, growth, err);
        if (rc != 0) return rc;
    }
    uint8_t *data = realloc(b->data, capacity);
    if (data == NULL) {
        if (tracker != NULL) mu_mem_tracker_release(tracker, growth);
        return MU_ERR(err, MU_ENOMEM, "column buffer of %zu bytes: out of memory", capacity);
    }
    b->data = data;
    b->capacity_bytes = capacity;
    return 0;
}

int ty__buffer_append(ty_buffer *b, mu_mem_tracker *tracker, const void *data, size_t bytes,
                      mu_err *err) {
    int rc = ty__buffer_reserve(b, tracker, bytes, err);
    if (rc != 0) return rc;
    if (bytes > 0) memcpy(b->data + b->length_bytes, data, bytes);
    b->length_bytes += bytes;
    return 0;
}

void ty__buffer_free(ty_buffer *b, mu_mem_tracker *tracker) {
    if (tracker != NULL && b->capacity_bytes > 0)
        mu_mem_tracker_release(tracker, b->capacity_bytes);
    free(b->data);
    memset(b, 0, sizeof(*b));
}

static const ty_type *column_value_type(const ty_column *c) {
    return ty_type_strip_nullable(c->type);
}

static uint32_t column_offset_at(const ty_column *c, uint32_t i) {
    return mu_load_u32le(c->offsets.data + (size_t)i * 4);
}

/* ------------------------------------------------------------------ */
/* Create / destroy                                                    */
/* ------------------------------------------------------------------ */

void ty_column_destroy(ty_column *column) {
    if (column == NULL) return;
    ty_column_destroy(column->children[0]);
    ty_column_destroy(column->children[1]);
    ty__lc_index_destroy(column);
    ty__buffer_free(&column->validity, column->tracker);
    ty__buffer_free(&column->values, column->tracker);
    ty__buffer_free(&column->offsets, column->tracker);
    free(column);
}

/* Recursion is bounded by the type's depth (at most TY_TYPE_DEPTH_MAX). */
static int column_create_at(const ty_type *type, mu_mem_tracker *tracker, unsigned depth,
                            ty_column **out, mu_err *err) {
    if (depth > TY_TYPE_DEPTH_MAX)
        return MU_ERR(err, MU_ETOO_DEEP, "type nested deeper than %d levels", TY_TYPE_DEPTH_MAX);
    ty_column *c = calloc(1, sizeof(*c));
    if (c == NULL) return MU_ERR(err, MU_ENOMEM, "column: out of memory");
    const ty_type *v = ty_type_strip_nullable(type);
    c->type = type;
    c->tracker = tracker;
    c->nullable = type->kind == TY_NULLABLE ||
                  (type->kind == TY_LOW_CARDINALITY && type->child->kind == TY_NULLABLE);
    int rc = 0;
    if (v->kind == TY_STRING || v->kind == TY_ARRAY || v->kind == TY_MAP) {
        uint8_t zero[4] = {0};
        rc = ty__buffer_append(&c->offsets, tracker, zero, 4, err);
    }
    if (rc == 0 && (v->kind == TY_ARRAY || v->kind == TY_MAP))
        rc = column_create_at(v->child, tracker, depth + 1, &c->children[0], err);
    if (rc == 0 && v->kind == TY_MAP)
        rc = column_create_at(v->child2, tracker, depth + 1, &c->children[1], err);
    if (rc == 0 && v->kind == TY_LOW_CARDINALITY) {
        const ty_type *dictionary_type = ty_type_strip_nullable(v->child);
        rc = column_create_at(dictionary_type, tracker, depth + 1, &c->children[0], err);
        /* Entry 0 is the default value, so NULL rows have a valid index. */
        if (rc == 0) rc = ty__lc_index_create(c, err);
        if (rc == 0) rc = ty_column_append_default(c->children[0], err);
        if (rc == 0) rc = ty__lc_index_rebuild(c, err);
    }
    if (rc != 0) {
        ty_column_destroy(c);
        return rc;
    }
    *out = c;
    return 0;
}

int ty_column_create(const ty_type *type, mu_mem_tracker *tracker, ty_column **column_out,
                     mu_err *err) {
    MU_ASSERT(type != NULL && column_out != NULL);
    int rc = column_create_at(type, tracker, 1, column_out, err);
    MU_ASSERT(rc != 0 || (*column_out)->row_count == 0);
    return rc;
}

int ty_column_reserve(ty_column *column, uint32_t rows, mu_err *err) {
    const ty_type *v = column_value_type(column);
    size_t width = ty_type_value_bytes(v), bytes;
    int rc = 0;
    if (width > 0 && mu_size_mul(width, rows, &bytes))
        rc = ty__buffer_reserve(&column->values, column->tracker, bytes, err);
    if (rc == 0 && column->offsets.data != NULL)
        rc = ty__buffer_reserve(&column->offsets, column->tracker, (size_t)rows * 4, err);
    if (rc == 0 && column->nullable)
        rc = ty__buffer_reserve(&column->validity, column->tracker, rows / 8 + 1, err);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Truncate / clear                                                    */
/* ------------------------------------------------------------------ */

/* Buffer lengths follow from the row count alone, which is what makes an
 * interrupted append undoable. Recursion is bounded by the type depth. */
void ty__column_truncate(ty_column *c, uint32_t rows) {
    MU_ASSERT(rows <= c->row_count);
    const ty_type *v = column_value_type(c);
    if (c->nullable) {
        c->validity.length_bytes = ((size_t)rows + 7) / 8;
        if (rows % 8 != 0) c->validity.data[rows / 8] &= (uint8_t)((1u << (rows % 8)) - 1);
    }
    switch (v->kind) {
    case TY_STRING:
        c->values.length_bytes = column_offset_at(c, rows);
        c->offsets.length_bytes = ((size_t)rows + 1) * 4;
        break;
    case TY_ARRAY:
    case TY_MAP:
        for (unsigned i = 0; i < 2 && c->children[i] != NULL; i++)
            ty__column_truncate(c->children[i], column_offset_at(c, rows));
        c->offsets.length_bytes = ((size_t)rows + 1) * 4;
        break;
    default:
        c->values.length_bytes = (size_t)rows * ty_type_value_bytes(v);
        break;
    }
    c->row_count = rows;
}

void ty_column_clear(ty_column *column) {
    MU_ASSERT(column != NULL);
    ty__column_truncate(column, 0);
    if (column_value_type(column)->kind == TY_LOW_CARDINALITY) {
        /* Keep only the default entry; rebuilding an index of one entry
         * cannot need memory beyond what the index already holds. */
        ty__column_truncate(column->children[0], 1);
        int rc = ty__lc_index_rebuild(column, NULL);
        MU_ASSERT(rc == 0);
    }
}

/* ------------------------------------------------------------------ */
/* Appends                                                             */
/* ------------------------------------------------------------------ */

static int column_room_for_row(const ty_column *c, mu_err *err) {
    if (c->row_count >= TY_COLUMN_ROWS_MAX)
        return MU_ERR(err, MU_ETOO_LARGE, "column holds the maximum of %u rows",
                      TY_COLUMN_ROWS_MAX);
    return 0;
}

int ty__validity_push(ty_column *c, bool valid, mu_err *err) {
    if (!c->nullable) return 0;
    uint32_t row = c->row_count;
    if (row % 8 == 0) {
        uint8_t zero = 0;
        int rc = ty__buffer_append(&c->validity, c->tracker, &zero, 1, err);
        if (rc != 0) return rc;
    }
    if (valid) c->validity.data[row / 8] |= (uint8_t)(1u << (row % 8));
    return 0;
}

int ty__offsets_push(ty_column *c, uint32_t end, mu_err *err) {
    uint8_t bytes[4];
    mu_store_u32le(bytes, end);
    return ty__buffer_append(&c->offsets, c->tracker, bytes, 4, err);
}

/* Finishes a row whose payload is in place: validity bit, row count. On
 * failure the caller truncates. */
static int column_finish_row(ty_column *c, bool valid, mu_err *err) {
    int rc = ty__validity_push(c, valid, err);
    if (rc == 0) c->row_count++;
    return rc;
}

/* The layout's default payload for one row (zeros, empty, index 0). */
static int column_push_default_payload(ty_column *c, mu_err *err) {
    const ty_type *v = column_value_type(c);
    switch (v->kind) {
    case TY_STRING:
        return ty__offsets_push(c, (uint32_t)c->values.length_bytes, err);
    case TY_ARRAY:
    case TY_MAP:
        return ty__offsets_push(c, column_offset_at(c, c->row_count), err);
    default: {
        size_t width = ty_type_value_bytes(v);
        int rc = ty__buffer_reserve(&c->values, c->tracker, width, err);
        if (rc != 0) return rc;
        uint8_t *at = c->values.data + c->values.length_bytes;
        memset(at, 0, width); /* LC: index 0 */
        if (v->enum_count > 0 && width == 1) /* Enum's default: its smallest value */
            *at = (uint8_t)v->enum_entries[0].value;
        if (v->enum_count > 0 && width == 2)
            mu_store_u16le(at, (uint16_t)v->enum_entries[0].value);
        c->values.length_bytes += width;
        return 0;
    }
    }
}

static int column_append_default_or_null(ty_column *c, bool valid, mu_err *err) {
    uint32_t rows = c->row_count;
    int rc = column_room_for_row(c, err);
    if (rc == 0) rc = column_push_default_payload(c, err);
    if (rc == 0) rc = column_finish_row(c, valid, err);
    if (rc != 0) ty__column_truncate(c, rows);
    return rc;
}

int ty_column_append_null(ty_column *column, mu_err *err) {
    MU_ASSERT(column != NULL);
    if (!column->nullable) {
        char name[128];
        return MU_ERR(err, MU_ETYPE, "cannot insert NULL into a column of type %s",
                      ty_type_name(column->type, name, sizeof(name)));
    }
    return column_append_default_or_null(column, false, err);
}

/* The default of a Nullable column is NULL, as in ClickHouse. */
int ty_column_append_default(ty_column *column, mu_err *err) {
    MU_ASSERT(column != NULL);
    return column_append_default_or_null(column, !column->nullable, err);
}

static bool column_is_fixed_width(const ty_type *v) {
    return v->kind != TY_STRING && v->kind != TY_ARRAY && v->kind != TY_MAP &&
           v->kind != TY_LOW_CARDINALITY;
}

int ty_column_append_value(ty_column *column, const void *value, mu_err *err) {
    MU_ASSERT(column != NULL && value != NULL);
    const ty_type *v = column_value_type(column);
    if (v->kind == TY_LOW_CARDINALITY) {
        const ty_type *d = column->children[0]->type;
        if (d->kind != TY_STRING)
            return ty__lc_append_bytes(column, value, ty_type_value_bytes(d), err);
    }
    if (!column_is_fixed_width(v)) {
        char name[128];
        return MU_ERR(err, MU_ETYPE, "%s is not a fixed-width type",
                      ty_type_name(column->type, name, sizeof(name)));
    }
    uint32_t rows = column->row_count;
    int rc = column_room_for_row(column, err);
    if (rc == 0)
        rc = ty__buffer_append(&column->values, column->tracker, value, ty_type_value_bytes(v),
                               err);
    if (rc == 0) rc = column_finish_row(column, true, err);
    if (rc != 0) ty__column_truncate(column, rows);
    return rc;
}

static int column_fixed_string_too_long(const ty_type *v, const void *data, size_t bytes,
                                        mu_err *err) {
    return ty__parse_error(err, v, data, bytes, "too long: %zu bytes, at most %u", bytes,
                           v->length);
}

int ty_column_append_bytes(ty_column *column, const void *data, size_t bytes, mu_err *err) {
    MU_ASSERT(column != NULL && (data != NULL || bytes == 0));
    const ty_type *v = column_value_type(column);
    if (v->kind == TY_LOW_CARDINALITY) return ty__lc_append_bytes(column, data, bytes, err);
    if (v->kind != TY_STRING && v->kind != TY_FIXED_STRING) {
        char name[128];
        return MU_ERR(err, MU_ETYPE, "%s does not take raw bytes",
                      ty_type_name(column->type, name, sizeof(name)));
    }
    uint32_t rows = column->row_count;
    int rc = column_room_for_row(column, err);
    if (rc != 0) return rc;
    if (v->kind == TY_FIXED_STRING) {
        if (bytes > v->length) return column_fixed_string_too_long(v, data, bytes, err);
        rc = ty__buffer_reserve(&column->values, column->tracker, v->length, err);
        if (rc != 0) return rc;
        if (bytes > 0) memcpy(column->values.data + column->values.length_bytes, data, bytes);
        memset(column->values.data + column->values.length_bytes + bytes, 0, v->length - bytes);
        column->values.length_bytes += v->length;
    } else {
        if (bytes > UINT32_MAX - column->values.length_bytes)
            return MU_ERR(err, MU_ETOO_LARGE, "String column past 4 GiB of bytes");
        rc = ty__buffer_append(&column->values, column->tracker, data, bytes, err);
        if (rc == 0) rc = ty__offsets_push(column, (uint32_t)column->values.length_bytes, err);
    }
    if (rc == 0) rc = column_finish_row(column, true, err);
    if (rc != 0) ty__column_truncate(column, rows);
    MU_ASSERT(column->row_count == rows + (rc == 0 ? 1u : 0u));
    return rc;
}

/* Looks the value up in the dictionary (adding it if new) and appends its
 * index. FixedString dictionary values are zero padded first. */
int ty__lc_append_bytes(ty_column *column, const void *data, size_t bytes, mu_err *err) {
    const ty_type *d = column->children[0]->type;
    uint8_t padded_small[256];
    uint8_t *padded = NULL;
    uint32_t rows = column->row_count, index;
    int rc = column_room_for_row(column, err);
    if (rc != 0) return rc;
    if (data == NULL) data = ""; /* bytes == 0: no NULL pointers into mem* calls */
    if (d->kind == TY_FIXED_STRING && bytes != d->length) {
        if (bytes > d->length) return column_fixed_string_too_long(d, data, bytes, err);
        padded = d->length <= sizeof(padded_small) ? padded_small : calloc(1, d->length);
        if (padded == NULL) return MU_ERR(err, MU_ENOMEM, "column: out of memory");
        memset(padded, 0, d->length);
        memcpy(padded, data, bytes);
        data = padded;
        bytes = d->length;
    }
    if (d->kind != TY_STRING && d->kind != TY_FIXED_STRING && bytes != ty_type_value_bytes(d)) {
        rc = MU_ERR(err, MU_EINVAL, "LowCardinality value of %zu bytes, expected %u", bytes,
                    ty_type_value_bytes(d));
        goto done;
    }
    rc = ty__lc_index_find_or_insert(column, data, bytes, &index, err);
    MU_ASSERT(rc != 0 || index < column->children[0]->row_count);
    uint8_t encoded[4];
    mu_store_u32le(encoded, index);
    if (rc == 0) rc = ty__buffer_append(&column->values, column->tracker, encoded, 4, err);
    if (rc == 0) rc = column_finish_row(column, true, err);
    if (rc != 0) ty__column_truncate(column, rows);
done:
    if (padded != padded_small) free(padded);
    return rc;
}

int ty_column_append_nested_end(ty_column *column, mu_err *err) {
    MU_ASSERT(column != NULL);
    const ty_type *v = column_value_type(column);
    if (v->kind != TY_ARRAY && v->kind != TY_MAP) {
        char name[128];
        return MU_ERR(err, MU_ETYPE, "%s is not an Array or Map",
                      ty_type_name(column->type, name, sizeof(name)));
    }
    uint32_t end = column->children[0]->row_count;
    if (v->kind == TY_MAP && column->children[1]->row_count != end)
        return MU_ERR(err, MU_EINVAL, "Map row with %u keys and %u values", end,
                      column->children[1]->row_count);
    MU_ASSERT(end >= column_offset_at(column, column->row_count));
    uint32_t rows = column->row_count;
    int rc = column_room_for_row(column, err);
    if (rc == 0) rc = ty__offsets_push(column, end, err);
    if (rc == 0) rc = column_finish_row(column, true, err);
    if (rc != 0) ty__column_truncate(column, rows);
    return rc;
}
