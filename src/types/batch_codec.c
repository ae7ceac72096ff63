/* batch_codec.c: the binary batch encoding WAL records carry (layout in
 * types.h, "Binary batch encoding"). Encoding copies the column buffers as
 * they are (they are little-endian already). Decoding treats the bytes as
 * hostile: every count is checked against the bytes that remain before
 * anything is allocated, offsets must start at 0 and never decrease,
 * indexes must be in range, type names must parse and be canonical, and
 * the result passes ty_column_validate; any failure is MU_ECORRUPT naming
 * the byte position. enc(dec(x)) == x for every accepted x.
 */
#include "types/types_int.h"

#include <stdlib.h>
#include <string.h>

/* Fixed-width values are copied in host order, and the format is LE. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "muscles needs a little-endian host");

/* ------------------------------------------------------------------ */
/* Encode                                                              */
/* ------------------------------------------------------------------ */

static int codec_put_body(const ty_column *c, mu_buf *out, unsigned depth, mu_err *err);

static int codec_put_children(const ty_column *c, const ty_type *v, mu_buf *out,
                              unsigned depth, mu_err *err) {
    int rc = 0;
    if (v->kind == TY_LOW_CARDINALITY) {
        rc = mu_buf_append_u32le(out, c->children[0]->row_count, err);
        if (rc == 0) rc = codec_put_body(c->children[0], out, depth + 1, err);
        if (rc == 0) rc = mu_buf_append(out, c->values.data, c->values.length_bytes, err);
        return rc;
    }
    for (unsigned i = 0; rc == 0 && i < 2 && c->children[i] != NULL; i++)
        rc = codec_put_body(c->children[i], out, depth + 1, err);
    return rc;
}

/* Recursion follows the type tree (depth <= TY_TYPE_DEPTH_MAX). */
static int codec_put_body(const ty_column *c, mu_buf *out, unsigned depth, mu_err *err) {
    MU_ASSERT(depth <= TY_TYPE_DEPTH_MAX);
    const ty_type *v = ty_type_strip_nullable(c->type);
    int rc = mu_buf_append_u8(out, c->nullable ? 1 : 0, err);
    if (rc == 0 && c->nullable)
        rc = mu_buf_append(out, c->validity.data, c->validity.length_bytes, err);
    if (rc != 0) return rc;
    switch (v->kind) {
    case TY_STRING:
        rc = mu_buf_append(out, c->offsets.data, c->offsets.length_bytes, err);
        return rc ? rc : mu_buf_append(out, c->values.data, c->values.length_bytes, err);
    case TY_ARRAY:
    case TY_MAP:
        rc = mu_buf_append(out, c->offsets.data, c->offsets.length_bytes, err);
        return rc ? rc : codec_put_children(c, v, out, depth, err);
    case TY_LOW_CARDINALITY:
        return codec_put_children(c, v, out, depth, err);
    default:
        return mu_buf_append(out, c->values.data, c->values.length_bytes, err);
    }
}

static int codec_put_column(const char *name, const ty_column *c, mu_buf *out, mu_err *err) {
    size_t name_bytes = strlen(name), type_at;
    int rc = mu_buf_append_u32le(out, (uint32_t)name_bytes, err);
    if (rc == 0) rc = mu_buf_append(out, name, name_bytes, err);
    if (rc == 0) rc = mu_buf_append_u32le(out, 0, err); /* type name length, patched below */
    type_at = out->length_bytes;
    if (rc == 0) rc = ty_type_render(c->type, out, err);
    if (rc != 0) return rc;
    mu_store_u32le(out->data + type_at - 4, (uint32_t)(out->length_bytes - type_at));
    return codec_put_body(c, out, 1, err);
}

/* Copies the selected rows into a new, selection-free batch. */
static int codec_materialize(const ty_batch *batch, ty_batch **out, mu_err *err) {
    ty_batch *copy = NULL;
    int rc = ty_batch_create(batch->tracker, &copy, err);
    if (rc != 0) return rc;
    for (uint32_t i = 0; rc == 0 && i < batch->column_count; i++) {
        ty_column *column;
        rc = ty_batch_add_column(copy, batch->names[i], batch->columns[i]->type, &column, err);
        for (uint32_t s = 0; rc == 0 && s < batch->selection_count; s++)
            rc = ty_column_append_from(column, batch->columns[i], batch->selection[s], err);
    }
    if (rc == 0) rc = ty_batch_seal(copy, err);
    if (rc != 0) {
        ty_batch_destroy(copy);
        return rc;
    }
    *out = copy;
    return 0;
}

int ty_batch_encode(const ty_batch *batch, mu_buf *out, mu_err *err) {
    MU_ASSERT(batch != NULL && out != NULL);
    for (uint32_t i = 0; i < batch->column_count; i++) {
        if (batch->columns[i]->row_count != batch->row_count)
            return MU_ERR(err, MU_EINVAL, "batch: encode before ty_batch_seal");
    }
    if (batch->selection != NULL) {
        ty_batch *dense = NULL;
        int rc = codec_materialize(batch, &dense, err);
        if (rc == 0) rc = ty_batch_encode(dense, out, err);
        ty_batch_destroy(dense);
        return rc;
    }
    size_t start = out->length_bytes;
    uint8_t header[TY_BATCH_HEADER_BYTES];
    memcpy(header, TY_BATCH_MAGIC, 4);
    mu_store_u16le(header + 4, TY_BATCH_FORMAT_VERSION);
    mu_store_u16le(header + 6, 0);
    mu_store_u32le(header + 8, batch->row_count);
    mu_store_u32le(header + 12, batch->column_count);
    int rc = mu_buf_append(out, header, sizeof(header), err);
    for (uint32_t i = 0; rc == 0 && i < batch->column_count; i++)
        rc = codec_put_column(batch->names[i], batch->columns[i], out, err);
    if (rc != 0) out->length_bytes = start; /* leave out as it was */
    MU_ASSERT(rc != 0 || out->length_bytes >= start + TY_BATCH_HEADER_BYTES);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Decode                                                              */
/* ------------------------------------------------------------------ */

typedef struct codec_reader {
    const uint8_t *p;
    size_t n;
    size_t pos;
    mu_err *err;
} codec_reader;

static int codec_corrupt(codec_reader *r, const char *what) {
    return MU_CORRUPT(r->err, "batch: %s at byte %zu", what, r->pos);
}

/* Checks that `bytes` more bytes exist (count * size, overflow-checked). */
static int codec_need(codec_reader *r, size_t count, size_t size, size_t *bytes_out) {
    size_t bytes = 0;
    if (!mu_size_mul(count, size, &bytes) || bytes > r->n - r->pos)
        return codec_corrupt(r, "truncated input");
    *bytes_out = bytes;
    return 0;
}

static int codec_u32(codec_reader *r, uint32_t *v) {
    size_t bytes = 0;
    int rc = codec_need(r, 1, 4, &bytes);
    if (rc != 0) return rc;
    *v = mu_load_u32le(r->p + r->pos);
    r->pos += 4;
    return 0;
}

/* Reads count * size bytes into a column buffer. */
static int codec_take(codec_reader *r, ty_column *c, ty_buffer *b, size_t count, size_t size) {
    size_t bytes = 0;
    int rc = codec_need(r, count, size, &bytes);
    if (rc == 0) rc = ty__buffer_append(b, c->tracker, r->p + r->pos, bytes, r->err);
    if (rc == 0) r->pos += bytes;
    return rc;
}

/* n + 1 offsets starting at 0, non-decreasing; returns the last. */
static int codec_offsets(codec_reader *r, ty_column *c, uint32_t n, uint32_t *last_out) {
    size_t at = r->pos;
    c->offsets.length_bytes = 0;
    int rc = codec_take(r, c, &c->offsets, (size_t)n + 1, 4);
    if (rc != 0) return rc;
    uint32_t previous = 0;
    for (uint32_t i = 0; i <= n; i++) {
        uint32_t offset = mu_load_u32le(c->offsets.data + (size_t)i * 4);
        if ((i == 0 && offset != 0) || offset < previous) {
            r->pos = at + (size_t)i * 4;
            return codec_corrupt(r, "bad offset");
        }
        previous = offset;
    }
    *last_out = previous;
    return 0;
}

static int codec_validity(codec_reader *r, ty_column *c, uint32_t n) {
    if (r->pos >= r->n) return codec_corrupt(r, "truncated input");
    if (r->p[r->pos] != (c->nullable ? 1 : 0)) return codec_corrupt(r, "bad validity flag");
    r->pos++;
    if (!c->nullable) return 0;
    int rc = codec_take(r, c, &c->validity, ((size_t)n + 7) / 8, 1);
    if (rc == 0 && n % 8 != 0 && (c->validity.data[n / 8] >> (n % 8)) != 0) {
        r->pos--;
        return codec_corrupt(r, "validity bits past the last row");
    }
    return rc;
}

static int codec_get_body(codec_reader *r, ty_column *c, uint32_t n, unsigned depth);

static int codec_get_low_cardinality(codec_reader *r, ty_column *c, uint32_t n,
                                     unsigned depth) {
    uint32_t entries;
    int rc = codec_u32(r, &entries);
    if (rc != 0) return rc;
    if (entries == 0) return codec_corrupt(r, "empty LowCardinality dictionary");
    ty_column *dictionary = c->children[0];
    ty__column_truncate(dictionary, 0); /* drop the default entry made at creation */
    rc = codec_get_body(r, dictionary, entries, depth + 1);
    size_t at = r->pos;
    if (rc == 0) rc = codec_take(r, c, &c->values, n, 4);
    for (uint32_t row = 0; rc == 0 && row < n; row++) {
        if (mu_load_u32le(c->values.data + (size_t)row * 4) >= entries) {
            r->pos = at + (size_t)row * 4;
            return codec_corrupt(r, "dictionary index out of range");
        }
    }
    return rc ? rc : ty__lc_index_rebuild(c, r->err);
}

/* Recursion follows the type tree (depth <= TY_TYPE_DEPTH_MAX). */
static int codec_get_body(codec_reader *r, ty_column *c, uint32_t n, unsigned depth) {
    if (depth > TY_TYPE_DEPTH_MAX) return codec_corrupt(r, "nested too deeply");
    if (n > TY_COLUMN_ROWS_MAX) return codec_corrupt(r, "too many rows");
    const ty_type *v = ty_type_strip_nullable(c->type);
    uint32_t last = 0;
    int rc = codec_validity(r, c, n);
    if (rc != 0) return rc;
    switch (v->kind) {
    case TY_STRING:
        rc = codec_offsets(r, c, n, &last);
        if (rc == 0) rc = codec_take(r, c, &c->values, last, 1);
        break;
    case TY_ARRAY:
    case TY_MAP:
        rc = codec_offsets(r, c, n, &last);
        for (unsigned i = 0; rc == 0 && i < (v->kind == TY_MAP ? 2u : 1u); i++)
            rc = codec_get_body(r, c->children[i], last, depth + 1);
        break;
    case TY_LOW_CARDINALITY:
        rc = codec_get_low_cardinality(r, c, n, depth);
        break;
    default:
        rc = codec_take(r, c, &c->values, n, ty_type_value_bytes(v));
        break;
    }
    if (rc == 0) c->row_count = n;
    return rc;
}

/* The type name must parse and be exactly the canonical rendering, so
 * that a damaged name cannot silently mean another type. */
static int codec_get_type(codec_reader *r, ty_batch *b, uint32_t bytes, const ty_type **out) {
    mu_err parse_err;
    mu_err_clear(&parse_err);
    const char *text = (const char *)r->p + r->pos;
    int rc = ty_type_parse_n(text, bytes, b->arena, out, &parse_err);
    if (rc == MU_ENOMEM || rc == MU_EMEMLIMIT) {
        if (r->err) *r->err = parse_err;
        return rc;
    }
    if (rc != 0)
        return MU_CORRUPT(r->err, "batch: bad type name at byte %zu: %s", r->pos,
                          parse_err.message);
    mu_buf canonical;
    mu_buf_init(&canonical, 0);
    rc = ty_type_render(*out, &canonical, r->err);
    if (rc == 0 && (canonical.length_bytes != bytes || memcmp(canonical.data, text, bytes) != 0))
        rc = codec_corrupt(r, "type name is not canonical");
    mu_buf_deinit(&canonical);
    if (rc == 0) r->pos += bytes;
    return rc;
}

static int codec_get_column(codec_reader *r, ty_batch *b, uint32_t rows) {
    uint32_t name_bytes, type_bytes;
    size_t bytes = 0;
    int rc = codec_u32(r, &name_bytes);
    if (rc == 0 && (name_bytes == 0 || name_bytes > TY_COLUMN_NAME_BYTES_MAX))
        rc = codec_corrupt(r, "bad column name length");
    if (rc == 0) rc = codec_need(r, name_bytes, 1, &bytes);
    if (rc != 0) return rc;
    const char *name = (const char *)r->p + r->pos;
    size_t name_at = r->pos;
    r->pos += name_bytes;
    rc = codec_u32(r, &type_bytes);
    if (rc == 0 && (type_bytes == 0 || type_bytes > TY_TYPE_NAME_BYTES_MAX))
        rc = codec_corrupt(r, "bad type name length");
    if (rc == 0) rc = codec_need(r, type_bytes, 1, &bytes);
    const ty_type *type = NULL;
    if (rc == 0) rc = codec_get_type(r, b, type_bytes, &type);
    if (rc != 0) return rc;
    ty_column *column;
    mu_err add_err;
    rc = ty__batch_add_owned(b, name, name_bytes, type, &column, &add_err);
    if (rc == MU_EEXISTS || rc == MU_EINVAL) {
        r->pos = name_at;
        return codec_corrupt(r, "duplicate or invalid column name");
    }
    if (rc != 0) {
        if (r->err) *r->err = add_err;
        return rc;
    }
    return codec_get_body(r, column, rows, 1);
}

static int codec_get_header(codec_reader *r, uint32_t *rows, uint32_t *columns) {
    if (r->n < TY_BATCH_HEADER_BYTES) return codec_corrupt(r, "truncated header");
    if (memcmp(r->p, TY_BATCH_MAGIC, 4) != 0) return codec_corrupt(r, "bad magic");
    if (mu_load_u16le(r->p + 4) != TY_BATCH_FORMAT_VERSION) {
        r->pos = 4;
        return codec_corrupt(r, "unknown format version");
    }
    if (mu_load_u16le(r->p + 6) != 0) {
        r->pos = 6;
        return codec_corrupt(r, "unknown flags");
    }
    *rows = mu_load_u32le(r->p + 8);
    *columns = mu_load_u32le(r->p + 12);
    r->pos = TY_BATCH_HEADER_BYTES;
    /* The smallest column is 11 bytes; refuse counts the input cannot hold. */
    if (*rows > TY_BATCH_ROWS_MAX || *columns > TY_BATCH_COLUMNS_MAX ||
        (size_t)*columns * 11 > r->n - r->pos)
        return codec_corrupt(r, "bad row or column count");
    return 0;
}

int ty_batch_decode(const uint8_t *bytes, size_t length_bytes, mu_mem_tracker *tracker,
                    ty_batch **batch_out, mu_err *err) {
    MU_ASSERT((bytes != NULL || length_bytes == 0) && batch_out != NULL);
    codec_reader r = {.p = bytes, .n = length_bytes, .err = err};
    uint32_t rows = 0, columns = 0;
    ty_batch *b = NULL;
    int rc = codec_get_header(&r, &rows, &columns);
    if (rc == 0) rc = ty_batch_create(tracker, &b, err);
    for (uint32_t i = 0; rc == 0 && i < columns; i++) rc = codec_get_column(&r, b, rows);
    if (rc == 0 && r.pos != r.n) rc = codec_corrupt(&r, "unexpected bytes after the batch");
    if (rc == 0) rc = ty_batch_seal(b, err);
    if (rc == 0 && columns == 0) b->row_count = rows;
    for (uint32_t i = 0; rc == 0 && i < columns; i++) {
        rc = ty_column_validate(b->columns[i], err);
        if (rc != 0 && err) mu_err_prefix(err, "batch column %s", b->names[i]);
    }
    if (rc != 0) {
        ty_batch_destroy(b);
        return rc;
    }
    MU_ASSERT(b->row_count <= TY_BATCH_ROWS_MAX && r.pos == r.n);
    *batch_out = b;
    return 0;
}
