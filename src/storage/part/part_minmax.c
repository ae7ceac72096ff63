/* part_minmax.c: the minmax skip index, idx/minmax_<col>.idx: per granule
 * a flags byte (PART_MINMAX_HAS_NULL, PART_MINMAX_HAS_VALUES) and, when the
 * granule has non-NULL rows, its smallest and largest value in the order
 * of ty_column_compare_rows (value encoding of the column's type). The
 * file is advisory: a reader that cannot load it scans without it, so
 * every problem is reported as MU_ECORRUPT naming the file and never
 * reaches query results. Layout: docs/formats/part.md.
 */
#include "storage/part/part_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fixed-width numbers: compare order-preserving u64s, no call per row.
 * Ties keep the first row, as the generic loop does. */
static void minmax_fixed(const ty_column *c, char cls, uint32_t from, uint32_t count,
                         uint32_t *min_row, uint32_t *max_row, bool *has_null) {
    const ty_type *v = ty_type_strip_nullable(c->type);
    size_t width = ty_type_value_bytes(v);
    const uint8_t *values = ty_column_values(c);
    uint64_t min = 0, max = 0;
    for (uint32_t row = from; row < from + count; row++) {
        if (ty_column_is_null(c, row)) {
            *has_null = true;
            continue;
        }
        uint64_t x = part__norm_fixed(cls, v, values + (size_t)row * width, width);
        if (*min_row == UINT32_MAX) {
            *min_row = *max_row = row;
            min = max = x;
        } else if (x < min) {
            *min_row = row;
            min = x;
        } else if (x > max) {
            *max_row = row;
            max = x;
        }
    }
}

/* Any type with an order: ty_column_compare_rows per row. */
static void minmax_generic(const ty_column *c, uint32_t from, uint32_t count, uint32_t *min_row,
                           uint32_t *max_row, bool *has_null) {
    for (uint32_t row = from; row < from + count; row++) {
        if (ty_column_is_null(c, row)) {
            *has_null = true;
        } else if (*min_row == UINT32_MAX) {
            *min_row = *max_row = row;
        } else if (ty_column_compare_rows(c, row, c, *min_row) < 0) {
            *min_row = row;
        } else if (ty_column_compare_rows(c, row, c, *max_row) > 0) {
            *max_row = row;
        }
    }
}

int part__minmax_granule(mu_buf *entries, const ty_column *c, uint32_t from, uint32_t count,
                         mu_err *err) {
    MU_ASSERT(entries != NULL && c != NULL && count > 0);
    MU_ASSERT(from <= ty_column_row_count(c) && count <= ty_column_row_count(c) - from);
    uint32_t min_row = UINT32_MAX, max_row = UINT32_MAX;
    bool has_null = false;
    const ty_type *v = ty_type_strip_nullable(c->type);
    char cls = v->kind == TY_LOW_CARDINALITY ? 0 : part__norm_class(v, false);
    if (cls != 0) {
        minmax_fixed(c, cls, from, count, &min_row, &max_row, &has_null);
    } else {
        minmax_generic(c, from, count, &min_row, &max_row, &has_null);
    }
    uint8_t flags = (has_null ? PART_MINMAX_HAS_NULL : 0) |
                    (min_row != UINT32_MAX ? PART_MINMAX_HAS_VALUES : 0);
    size_t start = entries->length_bytes;
    int rc = mu_buf_append_u8(entries, flags, err);
    if (rc == 0 && min_row != UINT32_MAX) rc = part__value_encode(c, min_row, entries, err);
    if (rc == 0 && min_row != UINT32_MAX) rc = part__value_encode(c, max_row, entries, err);
    if (rc != 0) entries->length_bytes = start;
    MU_ASSERT(rc != 0 || (min_row == UINT32_MAX) == (max_row == UINT32_MAX));
    return rc;
}

int part__minmax_file_encode(const mu_buf *entries, uint32_t granule_count, mu_buf *out,
                             mu_err *err) {
    MU_ASSERT(entries != NULL && out != NULL && granule_count > 0);
    uint8_t header[PART__MINMAX_HEADER_BYTES];
    memcpy(header, PART__MINMAX_MAGIC, 4);
    mu_store_u16le(header + 4, PART_FORMAT_VERSION);
    mu_store_u16le(header + 6, 0);
    mu_store_u32le(header + 8, granule_count);
    size_t start = out->length_bytes;
    int rc = mu_buf_append(out, header, sizeof(header), err);
    if (rc == 0) rc = mu_buf_append(out, entries->data, entries->length_bytes, err);
    if (rc == 0)
        rc = mu_buf_append_u32le(out, mu_crc32c(0, out->data + start, out->length_bytes - start),
                                 err);
    if (rc != 0) out->length_bytes = start;
    return rc;
}

/* ------------------------------------------------------------------ */
/* Load                                                                */
/* ------------------------------------------------------------------ */

void part_minmax_deinit(part_minmax *minmax) {
    if (minmax == NULL) return;
    ty_column_destroy(minmax->min);
    ty_column_destroy(minmax->max);
    free(minmax->flags);
    memset(minmax, 0, sizeof(*minmax));
}

/* Reads the file and checks it against the manifest and its own checksum. */
static int minmax_read(const part *p, const part__file *listed, mu_buf *bytes, mu_err *err) {
    char path[IO_PATH_MAX_BYTES];
    int rc = part__path_join(path, p->dir, listed->name, err);
    if (rc == 0) rc = io_read_file(path, bytes, err);
    if (rc == MU_ENOT_FOUND || rc == MU_ETOO_LARGE) rc = MU_CORRUPT(err, "missing or too large");
    if (rc != 0) return rc;
    if (bytes->length_bytes != listed->size_bytes)
        return MU_CORRUPT(err, "%zu bytes, the manifest says %llu", bytes->length_bytes,
                          (unsigned long long)listed->size_bytes);
    if (mu_crc32c(0, bytes->data, bytes->length_bytes) != listed->crc32c)
        return MU_CORRUPT(err, "checksum mismatch with the manifest");
    if (bytes->length_bytes < PART__MINMAX_HEADER_BYTES + 4 ||
        mu_crc32c(0, bytes->data, bytes->length_bytes - 4) !=
            mu_load_u32le(bytes->data + bytes->length_bytes - 4))
        return MU_CORRUPT(err, "truncated or checksum mismatch");
    if (memcmp(bytes->data, PART__MINMAX_MAGIC, 4) != 0 ||
        mu_load_u16le(bytes->data + 4) != p->manifest.format_version ||
        mu_load_u16le(bytes->data + 6) != 0 ||
        mu_load_u32le(bytes->data + 8) != p->manifest.granule_count)
        return MU_CORRUPT(err, "bad header");
    return 0;
}

static int minmax_entry(part_minmax *m, uint32_t g, const uint8_t *data, size_t length,
                        size_t *pos, mu_err *err) {
    if (*pos >= length) return MU_CORRUPT(err, "truncated at granule %u", g);
    uint8_t flags = data[(*pos)++];
    bool values = (flags & PART_MINMAX_HAS_VALUES) != 0;
    if (flags > 3 || (!m->min->nullable && flags != PART_MINMAX_HAS_VALUES))
        return MU_CORRUPT(err, "bad flags 0x%02x at granule %u", flags, g);
    m->flags[g] = flags;
    if (!values) {
        int rc = ty_column_append_null(m->min, err);
        return rc ? rc : ty_column_append_null(m->max, err);
    }
    size_t used = 0;
    int rc = part__value_decode(m->min, data + *pos, length - *pos, &used, err);
    *pos += used;
    if (rc == 0) rc = part__value_decode(m->max, data + *pos, length - *pos, &used, err);
    *pos += rc == 0 ? used : 0;
    if (rc == 0 && (ty_column_is_null(m->min, g) || ty_column_is_null(m->max, g) ||
                    ty_column_compare_rows(m->min, g, m->max, g) > 0))
        rc = MU_CORRUPT(err, "bad range at granule %u", g);
    return rc;
}

static int minmax_decode(const part *p, uint32_t column_index, const mu_buf *bytes,
                         part_minmax *m, mu_err *err) {
    const ty_type *type = p->manifest.columns[column_index].type;
    uint32_t g_count = p->manifest.granule_count;
    int rc = ty_column_create(type, NULL, &m->min, err);
    if (rc == 0) rc = ty_column_create(type, NULL, &m->max, err);
    if (rc != 0) return rc;
    m->flags = calloc(g_count, 1);
    if (m->flags == NULL) return MU_ERR(err, MU_ENOMEM, "minmax: out of memory");
    m->granule_count = g_count;
    size_t pos = PART__MINMAX_HEADER_BYTES, length = bytes->length_bytes - 4;
    for (uint32_t g = 0; rc == 0 && g < g_count; g++)
        rc = minmax_entry(m, g, bytes->data, length, &pos, err);
    if (rc == 0 && pos != length) rc = MU_CORRUPT(err, "unexpected bytes after the entries");
    if (rc == 0) rc = ty_column_validate(m->min, err);
    if (rc == 0) rc = ty_column_validate(m->max, err);
    return rc;
}

int part_minmax_load(const part *p, uint32_t column_index, part_minmax *minmax_out,
                     mu_err *err) {
    MU_ASSERT(p != NULL && minmax_out != NULL);
    MU_ASSERT(column_index < p->manifest.column_count);
    memset(minmax_out, 0, sizeof(*minmax_out));
    const part__column *column = &p->manifest.columns[column_index];
    if (!column->minmax)
        return MU_ERR(err, MU_ENOT_FOUND, "part %s has no minmax index on column %.100s",
                      p->info.name, column->name);
    char name[PART_FILE_NAME_BYTES_MAX + 1];
    snprintf(name, sizeof(name), PART_INDEX_DIR "/minmax_%s.idx", column->file_stem);
    const part__file *listed = part__find_file(p, name);
    mu_buf bytes;
    mu_buf_init(&bytes, listed != NULL ? listed->size_bytes + 1 : 1);
    int rc = listed != NULL ? minmax_read(p, listed, &bytes, err)
                            : MU_CORRUPT(err, "not listed in the manifest");
    if (rc == 0) rc = minmax_decode(p, column_index, &bytes, minmax_out, err);
    mu_buf_deinit(&bytes);
    if (rc != 0) {
        part_minmax_deinit(minmax_out);
        if (rc != MU_ENOMEM && rc != MU_EMEMLIMIT) rc = MU_ECORRUPT;
        if (err != NULL) err->code = rc;
        mu_err_prefix(err, "table %s part %s: %s", p->table_name, p->info.name, name);
        return rc;
    }
    MU_ASSERT(ty_column_row_count(minmax_out->min) == p->manifest.granule_count);
    return 0;
}
