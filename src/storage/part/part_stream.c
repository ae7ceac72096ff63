/* part_stream.c: a column's granule as a sequence of codec blocks, one per
 * stream of its type (the stream list is in part.h and
 * docs/formats/part.md). The encoder reads the column's Arrow buffers in
 * place: fixed-width values and String bytes go to the codec straight from
 * the column, only validity bits, lengths and LowCardinality dictionaries
 * are rebuilt in scratch buffers reused across granules. The decoder knows
 * every stream's exact raw size (or a bound) from the row count before it
 * decompresses anything, then rebuilds the column with the bulk appends of
 * src/types. Recursion follows the type tree (depth <= TY_TYPE_DEPTH_MAX).
 */
#include "storage/part/part_int.h"

#include <stdlib.h>
#include <string.h>

static const uint8_t stream_empty[1];

/* Data of a column buffer at byte `at`, never a NULL pointer. */
static const uint8_t *stream_at(const uint8_t *data, size_t at) {
    return data != NULL ? data + at : stream_empty;
}

static uint32_t stream_offset(const ty_column *c, uint32_t i) {
    return ty_column_offsets(c)[i];
}

void part__encoder_init(part__encoder *e) {
    memset(e, 0, sizeof(*e));
    mu_buf_init(&e->lengths, 0);
    mu_buf_init(&e->bytes, 0);
    mu_buf_init(&e->bits, 0);
}

void part__encoder_deinit(part__encoder *e) {
    mu_buf_deinit(&e->lengths);
    mu_buf_deinit(&e->bytes);
    mu_buf_deinit(&e->bits);
    free(e->lc_map);
    free(e->lc_stamp);
    free(e->lc_entries);
    memset(e, 0, sizeof(*e));
}

static int stream_put(part__encoder *e, const part_codec_chain *chain, const void *data,
                      size_t bytes, mu_buf *out, mu_err *err) {
    e->raw_bytes += bytes;
    return part_codec_encode(chain, bytes > 0 ? data : stream_empty, bytes, out, err);
}

/* Validity bits of rows [from, from + count), repacked from bit 0. */
static int stream_put_validity(part__encoder *e, const ty_column *c, uint32_t from,
                               uint32_t count, const part_codec_chain *aux, mu_buf *out,
                               mu_err *err) {
    size_t bytes = ((size_t)count + 7) / 8;
    mu_buf_clear(&e->bits);
    int rc = mu_buf_reserve(&e->bits, bytes, err);
    if (rc != 0) return rc;
    uint8_t *dst = e->bits.data;
    const uint8_t *src = ty_column_validity(c);
    if (from % 8 == 0) {
        if (bytes > 0) memcpy(dst, src + from / 8, bytes);
        if (count % 8 != 0) dst[bytes - 1] &= (uint8_t)((1u << (count % 8)) - 1);
    } else if (bytes > 0) {
        memset(dst, 0, bytes);
        for (uint32_t i = 0; i < count; i++) {
            uint32_t bit = from + i;
            if (src[bit >> 3] & (1u << (bit & 7))) dst[i >> 3] |= (uint8_t)(1u << (i & 7));
        }
    }
    return stream_put(e, aux, dst, bytes, out, err);
}

/* Lengths of rows [from, from + count) from the offsets, each in the
 * narrowest of 1, 2 or 4 bytes that holds the granule's longest (the
 * reader derives the width from the stream's size): most strings and
 * arrays are short, and a stream of small u32s compresses poorly. */
static int stream_put_lengths(part__encoder *e, const ty_column *c, uint32_t from,
                              uint32_t count, const part_codec_chain *aux, mu_buf *out,
                              mu_err *err) {
    const uint32_t *offsets = ty_column_offsets(c);
    uint32_t longest = 0;
    for (uint32_t i = 0; i < count; i++)
        longest = MU_MAX(longest, offsets[from + i + 1] - offsets[from + i]);
    size_t width = longest <= UINT8_MAX ? 1 : longest <= UINT16_MAX ? 2 : 4;
    mu_buf_clear(&e->lengths);
    int rc = mu_buf_reserve(&e->lengths, (size_t)count * width, err);
    if (rc != 0) return rc;
    uint8_t *dst = e->lengths.data;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t length = offsets[from + i + 1] - offsets[from + i];
        if (width == 1) dst[i] = (uint8_t)length;
        else if (width == 2) mu_store_u16le(dst + (size_t)i * 2, (uint16_t)length);
        else mu_store_u32le(dst + (size_t)i * 4, length);
    }
    return stream_put(e, aux, dst, (size_t)count * width, out, err);
}

/* String rows [from, from + count) as one stream of LEB128 length +
 * bytes per row (ClickHouse's layout): a compressor's matches then cover
 * a repeated value's length too, where a separate lengths stream costs
 * about a byte per row even for repeated values. */
static int stream_put_strings(part__encoder *e, const ty_column *c, const part_codec_chain *chain,
                              uint32_t from, uint32_t count, mu_buf *out, mu_err *err) {
    const uint32_t *offsets = ty_column_offsets(c);
    const uint8_t *values = stream_at(ty_column_values(c), 0);
    size_t total = offsets[from + count] - offsets[from];
    mu_buf_clear(&e->bytes);
    int rc = mu_buf_reserve(&e->bytes, total + (size_t)count * 5, err);
    if (rc != 0) return rc;
    uint8_t *dst = e->bytes.data;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t start = offsets[from + i], length = offsets[from + i + 1] - start;
        uint32_t v = length;
        while (v >= 0x80) {
            *dst++ = (uint8_t)(v | 0x80);
            v >>= 7;
        }
        *dst++ = (uint8_t)v;
        memcpy(dst, values + start, length);
        dst += length;
    }
    return stream_put(e, chain, e->bytes.data, (size_t)(dst - e->bytes.data), out, err);
}

/* ------------------------------------------------------------------ */
/* LowCardinality: a dictionary of the values the granule uses          */
/* ------------------------------------------------------------------ */

static int stream_lc_reserve(part__encoder *e, uint32_t source_entries, uint32_t count,
                             mu_err *err) {
    if (source_entries > e->lc_capacity) {
        uint32_t *map = realloc(e->lc_map, (size_t)source_entries * sizeof(uint32_t));
        if (map != NULL) e->lc_map = map;
        uint32_t *stamp = map ? realloc(e->lc_stamp, (size_t)source_entries * 4) : NULL;
        if (map == NULL || stamp == NULL)
            return MU_ERR(err, MU_ENOMEM, "part writer: out of memory");
        memset(stamp + e->lc_capacity, 0, (size_t)(source_entries - e->lc_capacity) * 4);
        e->lc_stamp = stamp;
        e->lc_capacity = source_entries;
    }
    uint32_t entries_max = MU_MIN(count, source_entries);
    if (entries_max > e->lc_entries_capacity) {
        uint32_t *entries = realloc(e->lc_entries, (size_t)entries_max * sizeof(uint32_t));
        if (entries == NULL) return MU_ERR(err, MU_ENOMEM, "part writer: out of memory");
        e->lc_entries = entries;
        e->lc_entries_capacity = entries_max;
    }
    if (++e->lc_generation == 0) { /* wrapped: forget every stamp */
        memset(e->lc_stamp, 0, (size_t)e->lc_capacity * 4);
        e->lc_generation = 1;
    }
    return 0;
}

/* Narrowest index width for `entries` values that every transform of the
 * chain divides (transform widths of a LowCardinality chain are 1, 2, 4). */
static unsigned stream_lc_index_bytes(const part_codec_chain *chain, uint32_t entries) {
    unsigned width = entries <= 256u ? 1 : entries <= 65536u ? 2 : 4;
    for (unsigned i = 0; i < chain->step_count; i++) {
        uint8_t id = chain->steps[i].id;
        if (id == PART_CODEC_DELTA || id == PART_CODEC_DOUBLE_DELTA || id == PART_CODEC_GORILLA ||
            id == PART_CODEC_T64)
            width = MU_MAX(width, chain->steps[i].param);
    }
    MU_ASSERT(width == 1 || width == 2 || width == 4);
    return width;
}

/* The used dictionary entries, in order of first use, as the streams of
 * the dictionary type. */
static int stream_put_lc_dictionary(part__encoder *e, const ty_column *dictionary,
                                    uint32_t entries, const part_codec_chain *aux, mu_buf *out,
                                    mu_err *err) {
    bool is_string = dictionary->type->kind == TY_STRING;
    mu_buf_clear(&e->lengths);
    mu_buf_clear(&e->bytes);
    int rc = is_string ? mu_buf_reserve(&e->lengths, (size_t)entries * 4, err) : 0;
    for (uint32_t i = 0; rc == 0 && i < entries; i++) {
        size_t bytes;
        const uint8_t *data = ty_column_row_bytes(dictionary, e->lc_entries[i], &bytes);
        if (is_string) mu_store_u32le(e->lengths.data + (size_t)i * 4, (uint32_t)bytes);
        rc = mu_buf_append(&e->bytes, data, bytes, err);
    }
    if (rc == 0 && is_string)
        rc = stream_put(e, aux, e->lengths.data, (size_t)entries * 4, out, err);
    if (rc == 0) rc = stream_put(e, aux, e->bytes.data, e->bytes.length_bytes, out, err);
    return rc;
}

static int stream_put_lc(part__encoder *e, const ty_column *c, const part_codec_chain *chain,
                         const part_codec_chain *aux, uint32_t from, uint32_t count,
                         mu_buf *out, mu_err *err) {
    const ty_column *dictionary = ty_column_child(c, 0);
    int rc = stream_lc_reserve(e, ty_column_row_count(dictionary), count, err);
    if (rc != 0) return rc;
    const uint8_t *indices = stream_at(ty_column_values(c), (size_t)from * 4);
    uint32_t entries = 0, generation = e->lc_generation;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t source = mu_load_u32le(indices + (size_t)i * 4);
        if (e->lc_stamp[source] != generation) {
            e->lc_stamp[source] = generation;
            e->lc_map[source] = entries;
            e->lc_entries[entries++] = source;
        }
    }
    rc = stream_put_lc_dictionary(e, dictionary, entries, aux, out, err);
    unsigned width = stream_lc_index_bytes(chain, entries);
    mu_buf_clear(&e->lengths);
    if (rc == 0) rc = mu_buf_reserve(&e->lengths, (size_t)count * width, err);
    if (rc != 0) return rc;
    uint8_t *dst = e->lengths.data;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t local = e->lc_map[mu_load_u32le(indices + (size_t)i * 4)];
        if (width == 1) dst[i] = (uint8_t)local;
        else if (width == 2) mu_store_u16le(dst + (size_t)i * 2, (uint16_t)local);
        else mu_store_u32le(dst + (size_t)i * 4, local);
    }
    return stream_put(e, chain, dst, (size_t)count * width, out, err);
}

/* ------------------------------------------------------------------ */
/* Encode                                                              */
/* ------------------------------------------------------------------ */

static int stream_encode(part__encoder *e, const ty_column *c, const part_codec_chain *chain,
                         const part_codec_chain *aux, uint32_t from, uint32_t count,
                         unsigned depth, mu_buf *out, mu_err *err) {
    MU_ASSERT(depth <= TY_TYPE_DEPTH_MAX);
    MU_ASSERT(from <= ty_column_row_count(c) && count <= ty_column_row_count(c) - from);
    int rc = c->nullable ? stream_put_validity(e, c, from, count, aux, out, err) : 0;
    if (rc != 0) return rc;
    const ty_type *v = ty_type_strip_nullable(c->type);
    switch (v->kind) {
    case TY_LOW_CARDINALITY:
        return stream_put_lc(e, c, chain, aux, from, count, out, err);
    case TY_STRING:
        return stream_put_strings(e, c, chain, from, count, out, err);
    case TY_ARRAY:
    case TY_MAP: {
        uint32_t start = stream_offset(c, from), end = stream_offset(c, from + count);
        rc = stream_put_lengths(e, c, from, count, aux, out, err);
        for (unsigned i = 0; rc == 0 && i < (v->kind == TY_MAP ? 2u : 1u); i++)
            rc = stream_encode(e, ty_column_child(c, i), chain, aux, start, end - start,
                               depth + 1, out, err);
        return rc;
    }
    default: {
        size_t width = ty_type_value_bytes(v);
        return stream_put(e, chain, stream_at(ty_column_values(c), (size_t)from * width),
                          (size_t)count * width, out, err);
    }
    }
}

int part__granule_encode(part__encoder *e, const ty_column *c, const part_codec_chain *chain,
                         const part_codec_chain *aux, uint32_t from, uint32_t count,
                         mu_buf *out, mu_err *err) {
    MU_ASSERT(e != NULL && c != NULL && chain != NULL && aux != NULL && out != NULL);
    size_t start = out->length_bytes;
    int rc = stream_encode(e, c, chain, aux, from, count, 1, out, err);
    if (rc != 0) out->length_bytes = start;
    MU_ASSERT(rc != 0 || out->length_bytes > start);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Decode                                                              */
/* ------------------------------------------------------------------ */

void part__decoder_init(part__decoder *d) {
    memset(d, 0, sizeof(*d));
    d->format_version = PART_FORMAT_VERSION;
    mu_buf_init(&d->scratch, 0);
}

void part__decoder_deinit(part__decoder *d) {
    mu_buf_deinit(&d->scratch);
    for (uint32_t i = 0; i < d->stream_capacity; i++) {
        mu_buf_deinit(&d->streams[i]);
        ty_column_destroy(d->dictionaries[i]);
    }
    free(d->streams);
    free(d->dictionaries);
    memset(d, 0, sizeof(*d));
}

static int decoder_grow(part__decoder *d, mu_err *err) {
    uint32_t capacity = d->stream_capacity == 0 ? 8 : d->stream_capacity * 2;
    mu_buf *streams = realloc(d->streams, capacity * sizeof(mu_buf));
    if (streams != NULL) d->streams = streams;
    ty_column **dictionaries =
        streams ? realloc(d->dictionaries, capacity * sizeof(ty_column *)) : NULL;
    if (streams == NULL || dictionaries == NULL)
        return MU_ERR(err, MU_ENOMEM, "part reader: out of memory");
    d->dictionaries = dictionaries;
    for (uint32_t i = d->stream_capacity; i < capacity; i++) {
        mu_buf_init(&d->streams[i], 0);
        d->dictionaries[i] = NULL;
    }
    d->stream_capacity = capacity;
    return 0;
}

static int decoder_corrupt(part__decoder *d, mu_err *err, const char *what, uint64_t a,
                           uint64_t b) {
    return MU_CORRUPT(err, "stream %u at granule byte %zu: %s (%llu, expected %llu)",
                      d->stream_index, d->pos, what, (unsigned long long)a,
                      (unsigned long long)b);
}

/* Decodes the next block, whose raw size must lie in [min_bytes,
 * max_bytes] (checked before decompressing). */
static int decoder_next(part__decoder *d, uint64_t min_bytes, uint64_t max_bytes,
                        const uint8_t **data_out, size_t *bytes_out, mu_err *err) {
    if (d->pos >= d->size_bytes)
        return decoder_corrupt(d, err, "granule data ends early", d->pos, d->size_bytes);
    part_codec_block_info info;
    int rc = part_codec_block_info_read(d->data + d->pos, d->size_bytes - d->pos, &info, err);
    if (rc != 0) return rc;
    if (info.raw_bytes < min_bytes || info.raw_bytes > max_bytes)
        return decoder_corrupt(d, err, "unexpected stream size", info.raw_bytes, max_bytes);
    if (d->stream_index == d->stream_capacity && (rc = decoder_grow(d, err)) != 0) return rc;
    mu_buf *buf = &d->streams[d->stream_index];
    mu_buf_clear(buf);
    size_t consumed = 0;
    rc = part_codec_decode(d->data + d->pos, d->size_bytes - d->pos, buf, &consumed, err);
    if (rc != 0) return rc;
    MU_ASSERT(buf->length_bytes == info.raw_bytes);
    d->pos += consumed;
    d->stream_index++;
    *data_out = buf->length_bytes > 0 ? buf->data : stream_empty;
    *bytes_out = buf->length_bytes;
    return 0;
}

static uint64_t decoder_sum_lengths(const uint8_t *lengths, uint32_t count) {
    uint64_t total = 0;
    for (uint32_t i = 0; i < count; i++) total += mu_load_u32le(lengths + (size_t)i * 4);
    return total;
}

/* Reads a per-row lengths stream (1, 2 or 4 bytes per row, see
 * stream_put_lengths) and widens it in place to u32 in its own stream
 * buffer, which stays valid while later streams are decoded. */
static int decoder_lengths(part__decoder *d, uint32_t rows, const uint8_t **lengths_out,
                           mu_err *err) {
    const uint8_t *data = NULL;
    size_t bytes = 0;
    int rc = decoder_next(d, rows, (uint64_t)rows * 4, &data, &bytes, err);
    if (rc != 0 || rows == 0) {
        *lengths_out = data;
        return rc;
    }
    size_t width = bytes / rows;
    if ((width != 1 && width != 2 && width != 4) || width * rows != bytes)
        return decoder_corrupt(d, err, "lengths stream size", bytes, rows);
    if (width == 4) {
        *lengths_out = data;
        return 0;
    }
    mu_buf *buf = &d->streams[d->stream_index - 1];
    rc = mu_buf_reserve(buf, (size_t)rows * 4 - bytes, err);
    if (rc != 0) return rc;
    uint8_t *p = buf->data;
    /* Back to front: entry i is read before any wider entry lands on it. */
    for (uint32_t i = rows; i-- > 0;) {
        uint32_t length = width == 1 ? p[i] : mu_load_u16le(p + (size_t)i * 2);
        mu_store_u32le(p + (size_t)i * 4, length);
    }
    buf->length_bytes = (size_t)rows * 4;
    *lengths_out = p;
    return 0;
}

static int decoder_validity(part__decoder *d, uint32_t rows, const uint8_t **bits, mu_err *err) {
    size_t bytes = 0, expected = ((size_t)rows + 7) / 8;
    int rc = decoder_next(d, expected, expected, bits, &bytes, err);
    if (rc == 0 && rows % 8 != 0 && ((*bits)[bytes - 1] >> (rows % 8)) != 0)
        rc = decoder_corrupt(d, err, "validity bits past the last row", rows, rows);
    return rc;
}

/* Format 2: one stream of LEB128 length + bytes per row. The bytes are
 * compacted in place (the write position never passes the read one) and
 * the lengths gathered in scratch, for the bulk append. */
static int decoder_strings_interleaved(part__decoder *d, ty_column *c, uint32_t rows,
                                       const uint8_t *validity, mu_err *err) {
    const uint8_t *data = NULL;
    size_t bytes = 0;
    int rc = decoder_next(d, rows, UINT32_MAX, &data, &bytes, err);
    if (rc != 0) return rc;
    mu_buf_clear(&d->scratch);
    rc = mu_buf_reserve(&d->scratch, (size_t)rows * 4 + 4, err);
    if (rc != 0) return rc;
    uint8_t *base = d->streams[d->stream_index - 1].data, *lengths = d->scratch.data;
    size_t at = 0, put = 0;
    for (uint32_t i = 0; i < rows; i++) {
        uint64_t length = 0;
        unsigned shift = 0;
        for (;;) {
            if (at == bytes || shift > 28)
                return decoder_corrupt(d, err, "string length at byte", at, bytes);
            uint8_t b = base[at++];
            length |= (uint64_t)(b & 0x7F) << shift;
            shift += 7;
            if (!(b & 0x80)) break;
        }
        if (length > bytes - at) return decoder_corrupt(d, err, "string length", length, bytes - at);
        memmove(base + put, base + at, (size_t)length);
        put += (size_t)length;
        at += (size_t)length;
        mu_store_u32le(lengths + (size_t)i * 4, (uint32_t)length);
    }
    if (at != bytes) return decoder_corrupt(d, err, "bytes after the last string", bytes - at, 0);
    return ty_column_append_strings_raw(c, lengths, put > 0 ? base : stream_empty, put, rows,
                                        validity, err);
}

static int decoder_strings(part__decoder *d, ty_column *c, uint32_t rows, const uint8_t *validity,
                           mu_err *err) {
    if (d->format_version >= 2) return decoder_strings_interleaved(d, c, rows, validity, err);
    const uint8_t *lengths = NULL, *bytes = NULL;
    size_t total_bytes = 0;
    int rc = decoder_lengths(d, rows, &lengths, err);
    if (rc != 0) return rc;
    uint64_t total = decoder_sum_lengths(lengths, rows);
    rc = decoder_next(d, total, total, &bytes, &total_bytes, err);
    return rc ? rc : ty_column_append_strings_raw(c, lengths, bytes, total_bytes, rows, validity,
                                                  err);
}

static int decoder_column(part__decoder *d, ty_column *c, uint32_t rows, unsigned depth,
                          mu_err *err);

/* The granule's dictionary goes into a scratch column of the dictionary
 * type (one per stream position), then the indices are mapped. */
static int decoder_lc(part__decoder *d, ty_column *c, uint32_t rows, const uint8_t *validity,
                      mu_err *err) {
    const ty_type *dictionary_type = ty_column_child(c, 0)->type;
    uint32_t slot = d->stream_index;
    int rc = slot < d->stream_capacity ? 0 : decoder_grow(d, err);
    if (rc == 0 && d->dictionaries[slot] == NULL)
        rc = ty_column_create(dictionary_type, NULL, &d->dictionaries[slot], err);
    if (rc != 0) return rc;
    ty_column *dictionary = d->dictionaries[slot];
    ty_column_clear(dictionary);
    size_t width = ty_type_value_bytes(dictionary_type), bytes = 0;
    const uint8_t *data = NULL;
    if (dictionary_type->kind == TY_STRING) {
        rc = decoder_next(d, 0, (uint64_t)rows * 4, &data, &bytes, err);
        uint32_t entries = (uint32_t)(bytes / 4);
        if (rc == 0 && bytes % 4 != 0) rc = decoder_corrupt(d, err, "dictionary size", bytes, 4);
        const uint8_t *strings = NULL;
        size_t total = 0;
        if (rc == 0) {
            uint64_t sum = decoder_sum_lengths(data, entries);
            rc = decoder_next(d, sum, sum, &strings, &total, err);
        }
        if (rc == 0)
            rc = ty_column_append_strings_raw(dictionary, data, strings, total, entries, NULL, err);
    } else {
        rc = decoder_next(d, 0, (uint64_t)rows * width, &data, &bytes, err);
        if (rc == 0 && bytes % width != 0)
            rc = decoder_corrupt(d, err, "dictionary size", bytes, width);
        if (rc == 0)
            rc = ty_column_append_fixed_raw(dictionary, data, (uint32_t)(bytes / width), NULL, err);
    }
    uint32_t entries = ty_column_row_count(dictionary);
    if (rc == 0 && (rows > 0) != (entries > 0))
        rc = decoder_corrupt(d, err, "dictionary entries", entries, rows);
    if (rc == 0) rc = decoder_next(d, rows, (uint64_t)rows * 4, &data, &bytes, err);
    unsigned index_bytes = rows > 0 ? (unsigned)(bytes / rows) : 4;
    if (rc == 0 && ((index_bytes != 1 && index_bytes != 2 && index_bytes != 4) ||
                    (size_t)index_bytes * rows != bytes))
        rc = decoder_corrupt(d, err, "index stream size", bytes, rows);
    return rc ? rc : ty_column_append_lc_raw(c, dictionary, data, index_bytes, rows, validity, err);
}

static int decoder_nested(part__decoder *d, ty_column *c, const ty_type *v, uint32_t rows,
                          unsigned depth, mu_err *err) {
    const uint8_t *lengths = NULL;
    int rc = decoder_lengths(d, rows, &lengths, err);
    if (rc != 0) return rc;
    uint64_t total = decoder_sum_lengths(lengths, rows);
    uint32_t have = ty_column_row_count(ty_column_child(c, 0));
    if (total > TY_COLUMN_ROWS_MAX - have)
        return decoder_corrupt(d, err, "too many elements", total, TY_COLUMN_ROWS_MAX - have);
    for (unsigned i = 0; rc == 0 && i < (v->kind == TY_MAP ? 2u : 1u); i++)
        rc = decoder_column(d, ty_column_child_mut(c, i), (uint32_t)total, depth + 1, err);
    /* lengths stays valid: later streams use other buffers. */
    return rc ? rc : ty_column_append_nested_raw(c, lengths, rows, err);
}

static int decoder_column(part__decoder *d, ty_column *c, uint32_t rows, unsigned depth,
                          mu_err *err) {
    if (depth > TY_TYPE_DEPTH_MAX) return MU_CORRUPT(err, "type nested too deeply");
    const uint8_t *validity = NULL;
    int rc = c->nullable ? decoder_validity(d, rows, &validity, err) : 0;
    if (rc != 0) return rc;
    const ty_type *v = ty_type_strip_nullable(c->type);
    switch (v->kind) {
    case TY_LOW_CARDINALITY:
        return decoder_lc(d, c, rows, validity, err);
    case TY_STRING:
        return decoder_strings(d, c, rows, validity, err);
    case TY_ARRAY:
    case TY_MAP:
        return decoder_nested(d, c, v, rows, depth, err);
    default: {
        uint64_t bytes = (uint64_t)rows * ty_type_value_bytes(v);
        const uint8_t *values = NULL;
        size_t got = 0;
        rc = decoder_next(d, bytes, bytes, &values, &got, err);
        return rc ? rc : ty_column_append_fixed_raw(c, values, rows, validity, err);
    }
    }
}

int part__granule_decode(part__decoder *d, const uint8_t *data, size_t size_bytes,
                         uint32_t rows, ty_column *out, mu_err *err) {
    MU_ASSERT(d != NULL && out != NULL && (data != NULL || size_bytes == 0));
    d->data = data;
    d->size_bytes = size_bytes;
    d->pos = 0;
    d->stream_index = 0;
    int rc = decoder_column(d, out, rows, 1, err);
    if (rc == 0 && d->pos != size_bytes)
        rc = decoder_corrupt(d, err, "bytes after the last stream", size_bytes - d->pos, 0);
    return rc;
}
