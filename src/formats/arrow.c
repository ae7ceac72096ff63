/* arrow.c: the Arrow and ArrowStream output formats: Apache Arrow IPC
 * written by our own encoder (FlatBuffers metadata from arrow_fb.c, no
 * libarrow), with the types, field names and options of current
 * ClickHouse's writer (26.x: output_format_arrow_*; mapping table in
 * src/formats/README.md). The schema goes out at begin, one RecordBatch per
 * batch with visible rows (selection applied), and at end the EOS marker
 * (plus the footer for Arrow). Specification: Arrow Columnar Format, "IPC
 * Streaming Format" and "IPC File Format"; Schema.fbs, Message.fbs,
 * File.fbs for field ids. Byte layout below.
 */
#include "formats/arrow_int.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lz4frame.h>
#include <zstd.h>

/*
 * Byte layout (all integers little-endian):
 *
 * Encapsulated message (every message, so each is a multiple of 8 bytes):
 *   u32 0xFFFFFFFF (continuation), i32 M, M bytes = a Message FlatBuffer
 *   padded with zeros to a multiple of 8, then the body (a multiple of 8).
 * ArrowStream: Schema message, then per batch [DictionaryBatch messages]
 *   RecordBatch message, then EOS = u32 0xFFFFFFFF, u32 0.
 * Arrow (file): "ARROW1" 00 00, the stream above including EOS, the Footer
 *   FlatBuffer, i32 its length, "ARROW1". The footer's Blocks give each
 *   message's file offset (of its 0xFFFFFFFF), 8 + M, and its body length.
 * Body: the buffers of every field node in pre-order, each at an offset
 *   that is a multiple of 8 (zero padding): a validity bitmap (zero length
 *   when the field is not Nullable), then per type: values (Bool: bits);
 *   String/Binary: i32 offsets (rows + 1), bytes; List/Map: i32 offsets
 *   then the child's nodes; Map's child is a Struct "entries" node (an
 *   empty validity buffer) over "key" and "value". Compressed bodies
 *   (lz4_frame or zstd level 1): each non-empty buffer becomes i64
 *   uncompressed length + one LZ4 frame / zstd frame; empty buffers stay
 *   empty (never the raw "-1" form, see body_compress).
 */

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "column buffers are copied as Arrow's little-endian buffers");

#define ARROW_CONTINUATION 0xFFFFFFFFu
#define ARROW_ALIGN 8u              /* buffer and message alignment, as ClickHouse and Arrow C++ */
#define ARROW_METADATA_BYTES_MAX (256u << 20)

enum { /* Message.fbs / Schema.fbs enum values */
    ARROW_V5 = 4,
    ARROW_HEADER_SCHEMA = 1, ARROW_HEADER_DICTIONARY_BATCH = 2, ARROW_HEADER_RECORD_BATCH = 3,
    ARROW_TYPE_INT = 2, ARROW_TYPE_FLOAT = 3, ARROW_TYPE_BINARY = 4, ARROW_TYPE_UTF8 = 5,
    ARROW_TYPE_BOOL = 6, ARROW_TYPE_DECIMAL = 7, ARROW_TYPE_DATE = 8, ARROW_TYPE_TIMESTAMP = 10,
    ARROW_TYPE_LIST = 12, ARROW_TYPE_STRUCT = 13, ARROW_TYPE_FIXED_BINARY = 15,
    ARROW_TYPE_MAP = 17,
    ARROW_FEATURE_COMPRESSED_BODY = 2,
};

typedef struct arrow_node {   /* FieldNode struct: 16 bytes */
    int64_t length;
    int64_t null_count;
} arrow_node;

typedef struct arrow_span {   /* Buffer struct: 16 bytes */
    int64_t offset;
    int64_t length;
} arrow_span;

typedef struct arrow_block {  /* File.fbs Block struct: 24 bytes with padding */
    int64_t offset;
    int32_t metadata_bytes;
    int32_t padding;
    int64_t body_bytes;
} arrow_block;

_Static_assert(sizeof(arrow_node) == 16 && sizeof(arrow_span) == 16 && sizeof(arrow_block) == 24,
               "FlatBuffers struct sizes of FieldNode, Buffer and Block");

/* One message body being built: the buffers back to back (uncompressed),
 * their spans and the field nodes; `packed` is the compressed body. */
/* Compressing a batch's buffers: at most this many threads, and only
 * when its buffers hold this many bytes. */
#define ARROW_PACK_THREADS 4
#define ARROW_PACK_SHARE_BYTES (256u * 1024u)

typedef struct arrow_body {
    mu_buf bytes;
    mu_buf packed;
    arrow_node *nodes;
    uint32_t node_count, node_capacity;
    arrow_span *spans;
    uint32_t span_count, span_capacity;
} arrow_body;

/* A dictionary-encoded LowCardinality node: `values` is a column of the
 * LowCardinality type used to map each batch's values to positions in one
 * growing dictionary (its child 0), which goes out as deltas. */
typedef struct arrow_dict {
    ty_column *values;
    uint32_t sent; /* dictionary entries already written */
} arrow_dict;

typedef struct arrow_writer {
    bool file;
    mu_arena *arena;           /* the schema's names and types, cloned at begin */
    uint32_t column_count;
    const char **names;
    const ty_type **types;
    arrow_dict *dicts;         /* one per LowCardinality node, in pre-order */
    uint32_t dict_count, dict_capacity;
    uint32_t dict_cursor;      /* while building a schema or encoding a batch */
    const char *column;        /* the column being encoded (messages) */
    arrow_body batch, dictionary;
    fmt__fb fb;
    uint64_t position;         /* bytes written so far */
    arrow_block *blocks[2];    /* file: [0] dictionary batches, [1] record batches */
    uint32_t block_count[2], block_capacity[2];
} arrow_writer;

/* ================================================================== */
/* Small helpers                                                       */
/* ================================================================== */

static int arrow_grow(void **items, uint32_t *capacity, uint32_t need, size_t item_bytes,
                      mu_err *err) {
    if (need <= *capacity) return 0;
    uint32_t n = MU_MAX(*capacity * 2, MU_MAX(need, 16u));
    void *p = realloc(*items, (size_t)n * item_bytes);
    if (p == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for Arrow output");
    *items = p;
    *capacity = n;
    return 0;
}

static void body_clear(arrow_body *b) {
    mu_buf_clear(&b->bytes);
    mu_buf_clear(&b->packed);
    b->node_count = 0;
    b->span_count = 0;
}

static void body_deinit(arrow_body *b) {
    mu_buf_deinit(&b->bytes);
    mu_buf_deinit(&b->packed);
    free(b->nodes);
    free(b->spans);
}

static int body_pad(mu_buf *buf, mu_err *err) {
    static const uint8_t zeros[ARROW_ALIGN];
    size_t pad = (size_t)(-buf->length_bytes) & (ARROW_ALIGN - 1);
    return pad ? mu_buf_append(buf, zeros, pad, err) : 0;
}

/* Starts a buffer of n bytes at the next aligned offset; *p is where its
 * bytes go (all n must be written before the next call). */
static int body_buffer_uninit(arrow_body *b, size_t n, uint8_t **p, mu_err *err) {
    int rc = body_pad(&b->bytes, err);
    if (rc == 0) rc = arrow_grow((void **)&b->spans, &b->span_capacity, b->span_count + 1,
                                 sizeof(arrow_span), err);
    if (rc == 0) rc = mu_buf_reserve(&b->bytes, n, err);
    if (rc != 0) return rc;
    b->spans[b->span_count++] = (arrow_span){(int64_t)b->bytes.length_bytes, (int64_t)n};
    *p = n > 0 ? b->bytes.data + b->bytes.length_bytes : NULL;
    b->bytes.length_bytes += n;
    return 0;
}

static int body_buffer(arrow_body *b, const void *data, size_t n, mu_err *err) {
    uint8_t *p;
    int rc = body_buffer_uninit(b, n, &p, err);
    if (rc == 0 && n > 0) memcpy(p, data, n);
    return rc;
}

/* A field node and its validity buffer (empty without a bitmap). */
static int body_node(arrow_body *b, uint32_t rows, const uint8_t *validity, mu_err *err) {
    int64_t nulls = 0;
    for (uint32_t i = 0; validity != NULL && i < rows; i++)
        nulls += !(validity[i >> 3] & (1u << (i & 7)));
    int rc = arrow_grow((void **)&b->nodes, &b->node_capacity, b->node_count + 1,
                        sizeof(arrow_node), err);
    if (rc != 0) return rc;
    b->nodes[b->node_count++] = (arrow_node){rows, nulls};
    return body_buffer(b, validity, validity ? ((size_t)rows + 7) / 8 : 0, err);
}

static int arrow_emit(arrow_writer *st, mu_buf *out, const void *data, size_t n, mu_err *err) {
    int rc = n ? mu_buf_append(out, data, n, err) : 0;
    if (rc == 0) st->position += n;
    return rc;
}

/* ================================================================== */
/* Types: checks and the schema                                        */
/* ================================================================== */

static int arrow_unknown_type(const arrow_writer *st, const ty_type *type, const char *why,
                              mu_err *err) {
    char name[128];
    return MU_ERR(err, MU_EUNKNOWN_TYPE, "The type '%s' of a column '%s' is not supported for "
                  "conversion into Arrow data format%s", ty_type_name(type, name, sizeof(name)),
                  st->column, why);
}

/* Refuses what has no Arrow form and sets up one dictionary per
 * LowCardinality node when they are dictionary-encoded (pre-order, the
 * order in which the schema and the encoder meet them). */
static int arrow_plan(fmt_writer *w, arrow_writer *st, const ty_type *t, unsigned depth,
                      mu_err *err) {
    MU_ASSERT(depth <= TY_TYPE_DEPTH_MAX + 1);
    if (t->aggregate_function != NULL)
        return arrow_unknown_type(st, t, ": aggregate states are muscles' own bytes, not "
                                  "ClickHouse's serialization", err);
    if (t->kind == TY_NOTHING && !w->opt.arrow_unsupported_types_as_binary)
        return arrow_unknown_type(st, t, " (output_format_arrow_unsupported_types_as_binary "
                                  "is 0)", err);
    if (t->kind == TY_LOW_CARDINALITY && w->opt.arrow_low_cardinality_as_dictionary) {
        int rc = arrow_grow((void **)&st->dicts, &st->dict_capacity, st->dict_count + 1,
                            sizeof(arrow_dict), err);
        arrow_dict *d = rc == 0 ? &st->dicts[st->dict_count] : NULL;
        if (rc == 0) rc = ty_column_create(t, NULL, &d->values, err);
        if (rc != 0) return rc;
        d->sent = 0;
        st->dict_count++;
    }
    int rc = t->child ? arrow_plan(w, st, t->child, depth + 1, err) : 0;
    if (rc == 0 && t->child2) rc = arrow_plan(w, st, t->child2, depth + 1, err);
    return rc;
}

static fmt__fb_ref fb_int_type(fmt__fb *fb, int bits, bool is_signed) {
    fmt__fb_table_start(fb);
    fmt__fb_add_i32(fb, 0, bits);
    fmt__fb_add_u8(fb, 1, is_signed);
    return fmt__fb_table_end(fb);
}

/* A type table with one small scalar field (or none: id < 0). */
static fmt__fb_ref fb_simple_type(fmt__fb *fb, int id, int16_t v) {
    fmt__fb_table_start(fb);
    if (id >= 0) fmt__fb_add_i16(fb, (unsigned)id, v);
    return fmt__fb_table_end(fb);
}

static unsigned arrow_time_unit(unsigned scale) {
    return scale == 0 ? 0 : scale <= 3 ? 1 : scale <= 6 ? 2 : 3; /* SECOND .. NANOSECOND */
}

static fmt__fb_ref fb_string_type(fmt__fb *fb, const fmt_writer *w, uint8_t *type_id) {
    *type_id = w->opt.arrow_string_as_string ? ARROW_TYPE_UTF8 : ARROW_TYPE_BINARY;
    return fb_simple_type(fb, -1, 0);
}

/* The type table of a value type (no Nullable, no LowCardinality, not
 * Array or Map) and its union id, as ClickHouse maps it. */
static fmt__fb_ref fb_scalar_type(fmt__fb *fb, const fmt_writer *w, const ty_type *t,
                                  uint8_t *type_id) {
    static const struct { uint8_t bits; bool is_signed; } ints[] = {
        [TY_UINT8] = {8, false}, [TY_UINT16] = {16, false}, [TY_UINT32] = {32, false},
        [TY_UINT64] = {64, false}, [TY_INT8] = {8, true}, [TY_INT16] = {16, true},
        [TY_INT32] = {32, true}, [TY_INT64] = {64, true}, [TY_ENUM8] = {8, true},
        [TY_ENUM16] = {16, true}, [TY_DATETIME] = {32, false},
    };
    fmt__fb_ref zone = 0;
    *type_id = ARROW_TYPE_INT;
    switch (t->kind) {
    case TY_FLOAT32: case TY_FLOAT64:
        *type_id = ARROW_TYPE_FLOAT;
        return fb_simple_type(fb, 0, t->kind == TY_FLOAT32 ? 1 : 2); /* SINGLE, DOUBLE */
    case TY_BOOL:
        *type_id = ARROW_TYPE_BOOL;
        return fb_simple_type(fb, -1, 0);
    case TY_DATE:
        if (w->opt.arrow_date_as_uint16) return fb_int_type(fb, 16, false);
        /* fallthrough */
    case TY_DATE32:
        *type_id = ARROW_TYPE_DATE;
        return fb_simple_type(fb, 0, 0); /* DAY */
    case TY_DATETIME64:
        if (t->timezone_name) zone = fmt__fb_string(fb, t->timezone_name, strlen(t->timezone_name));
        fmt__fb_table_start(fb);
        fmt__fb_add_i16(fb, 0, (int16_t)arrow_time_unit(t->precision));
        fmt__fb_add_ref(fb, 1, zone);
        *type_id = ARROW_TYPE_TIMESTAMP;
        return fmt__fb_table_end(fb);
    case TY_DECIMAL:
        fmt__fb_table_start(fb);
        fmt__fb_add_i32(fb, 0, t->precision);
        fmt__fb_add_i32(fb, 1, t->scale);
        fmt__fb_add_i32(fb, 2, 128);
        *type_id = ARROW_TYPE_DECIMAL;
        return fmt__fb_table_end(fb);
    case TY_STRING:
        return fb_string_type(fb, w, type_id);
    case TY_FIXED_STRING: case TY_UUID:
        if (t->kind == TY_FIXED_STRING && !w->opt.arrow_fixed_string_as_fixed_byte_array)
            return fb_string_type(fb, w, type_id);
        fmt__fb_table_start(fb);
        fmt__fb_add_i32(fb, 0, t->kind == TY_UUID ? 16 : (int32_t)t->length);
        *type_id = ARROW_TYPE_FIXED_BINARY;
        return fmt__fb_table_end(fb);
    case TY_NOTHING: /* output_format_arrow_unsupported_types_as_binary */
        *type_id = ARROW_TYPE_BINARY;
        return fb_simple_type(fb, -1, 0);
    default:
        MU_ASSERT(t->kind < sizeof(ints) / sizeof(ints[0]) && ints[t->kind].bits != 0);
        return fb_int_type(fb, ints[t->kind].bits, ints[t->kind].is_signed);
    }
}

/* UUID fields carry Arrow's canonical extension name, as ClickHouse's. */
static fmt__fb_ref fb_uuid_metadata(fmt__fb *fb) {
    static const char *const kv[2][2] = {{"ARROW:extension:name", "arrow.uuid"},
                                         {"ARROW:extension:metadata", ""}};
    fmt__fb_ref pairs[2];
    for (unsigned i = 0; i < 2; i++) {
        fmt__fb_ref key = fmt__fb_string(fb, kv[i][0], strlen(kv[i][0]));
        fmt__fb_ref value = fmt__fb_string(fb, kv[i][1], strlen(kv[i][1]));
        fmt__fb_table_start(fb);
        fmt__fb_add_ref(fb, 0, key);
        fmt__fb_add_ref(fb, 1, value);
        pairs[i] = fmt__fb_table_end(fb);
    }
    return fmt__fb_vector_refs(fb, pairs, 2);
}

static fmt__fb_ref fb_field(fmt_writer *w, arrow_writer *st, const char *name, const ty_type *t,
                            unsigned depth);

/* Map's child: the non-nullable Struct "entries" of "key" and "value". */
static fmt__fb_ref fb_map_entries(fmt_writer *w, arrow_writer *st, const ty_type *t,
                                  unsigned depth) {
    fmt__fb_ref kv[2] = {fb_field(w, st, "key", t->child, depth + 1),
                         fb_field(w, st, "value", t->child2, depth + 1)};
    fmt__fb *fb = &st->fb;
    fmt__fb_ref children = fmt__fb_vector_refs(fb, kv, 2);
    fmt__fb_ref name = fmt__fb_string(fb, "entries", 7);
    fmt__fb_ref type = fb_simple_type(fb, -1, 0);
    fmt__fb_table_start(fb);
    fmt__fb_add_ref(fb, 0, name);
    fmt__fb_add_u8(fb, 1, 0);
    fmt__fb_add_u8(fb, 2, ARROW_TYPE_STRUCT);
    fmt__fb_add_ref(fb, 3, type);
    fmt__fb_add_ref(fb, 5, children);
    return fmt__fb_table_end(fb);
}

/* DictionaryEncoding of the next dictionary id: Int index type per the
 * use_signed / use_64_bit settings (ClickHouse: Int32 by default). */
static fmt__fb_ref fb_dictionary(fmt_writer *w, arrow_writer *st) {
    fmt__fb *fb = &st->fb;
    MU_ASSERT(st->dict_cursor < st->dict_count);
    fmt__fb_ref index = fb_int_type(fb, w->opt.arrow_use_64_bit_indexes_for_dictionary ? 64 : 32,
                                    w->opt.arrow_use_signed_indexes_for_dictionary);
    fmt__fb_table_start(fb);
    fmt__fb_add_i64(fb, 0, st->dict_cursor++);
    fmt__fb_add_ref(fb, 1, index);
    fmt__fb_add_u8(fb, 2, 0);
    return fmt__fb_table_end(fb);
}

/* A Field table (children first: back-to-front building). */
static fmt__fb_ref fb_field(fmt_writer *w, arrow_writer *st, const char *name, const ty_type *t,
                            unsigned depth) {
    MU_ASSERT(depth <= TY_TYPE_DEPTH_MAX + 1);
    fmt__fb *fb = &st->fb;
    fmt__fb_ref dictionary = 0, children = 0, metadata = 0, type, child;
    if (t->kind == TY_LOW_CARDINALITY) {
        if (w->opt.arrow_low_cardinality_as_dictionary) dictionary = fb_dictionary(w, st);
        t = t->child;
    }
    bool nullable = t->kind == TY_NULLABLE;
    t = ty_type_strip_nullable(t);
    uint8_t type_id = t->kind == TY_ARRAY ? ARROW_TYPE_LIST : ARROW_TYPE_MAP;
    if (t->kind == TY_ARRAY || t->kind == TY_MAP) {
        child = t->kind == TY_ARRAY ? fb_field(w, st, "item", t->child, depth + 1)
                                    : fb_map_entries(w, st, t, depth);
        children = fmt__fb_vector_refs(fb, &child, 1);
        fmt__fb_table_start(fb);
        if (t->kind == TY_MAP) fmt__fb_add_u8(fb, 0, 0); /* keysSorted */
        type = fmt__fb_table_end(fb);
    } else {
        type = fb_scalar_type(fb, w, t, &type_id);
        if (t->kind == TY_UUID && !w->opt.arrow_uuid_as_fixed_byte_array)
            metadata = fb_uuid_metadata(fb);
    }
    fmt__fb_ref name_ref = fmt__fb_string(fb, name, strlen(name));
    fmt__fb_table_start(fb);
    fmt__fb_add_ref(fb, 0, name_ref);
    fmt__fb_add_u8(fb, 1, nullable);
    fmt__fb_add_u8(fb, 2, type_id);
    fmt__fb_add_ref(fb, 3, type);
    fmt__fb_add_ref(fb, 4, dictionary);
    fmt__fb_add_ref(fb, 5, children);
    fmt__fb_add_ref(fb, 6, metadata);
    return fmt__fb_table_end(fb);
}

/* The Schema table; fields refer to dictionary ids 0, 1, ... */
static fmt__fb_ref fb_schema(fmt_writer *w, arrow_writer *st, mu_err *err) {
    fmt__fb *fb = &st->fb;
    fmt__fb_ref *fields = calloc(st->column_count ? st->column_count : 1, sizeof(fmt__fb_ref));
    if (fields == NULL) {
        MU_ERR(err, MU_ENOMEM, "out of memory for an Arrow schema");
        return 0;
    }
    st->dict_cursor = 0;
    for (uint32_t i = 0; i < st->column_count; i++)
        fields[i] = fb_field(w, st, st->names[i], st->types[i], 1);
    MU_ASSERT(fb->rc != 0 || st->dict_cursor == st->dict_count);
    fmt__fb_ref vector = fmt__fb_vector_refs(fb, fields, st->column_count);
    free(fields);
    int64_t feature = ARROW_FEATURE_COMPRESSED_BODY;
    fmt__fb_ref features = w->opt.arrow_compression != FMT_ARROW_COMPRESSION_NONE
                               ? fmt__fb_vector_raw(fb, &feature, 1, 8, 8) : 0;
    fmt__fb_table_start(fb);
    fmt__fb_add_i16(fb, 0, 0); /* Little */
    fmt__fb_add_ref(fb, 1, vector);
    fmt__fb_add_ref(fb, 3, features);
    return fmt__fb_table_end(fb);
}

/* ================================================================== */
/* Messages                                                            */
/* ================================================================== */

static int arrow_block_add(arrow_writer *st, unsigned kind, arrow_block block, mu_err *err) {
    int rc = arrow_grow((void **)&st->blocks[kind], &st->block_capacity[kind],
                        st->block_count[kind] + 1, sizeof(arrow_block), err);
    if (rc == 0) st->blocks[kind][st->block_count[kind]++] = block;
    return rc;
}

/* Wraps the header built last in st->fb into a Message and writes the
 * encapsulated message with `body`; in the file format its Block is noted
 * (block_kind 0: dictionary batch, 1: record batch, 2: none). */
static int arrow_message(arrow_writer *st, uint8_t header_type, fmt__fb_ref header,
                         const mu_buf *body, unsigned block_kind, mu_buf *out, mu_err *err) {
    static const uint8_t zeros[ARROW_ALIGN];
    fmt__fb *fb = &st->fb;
    size_t body_bytes = body ? body->length_bytes : 0;
    MU_ASSERT(body_bytes % ARROW_ALIGN == 0);
    fmt__fb_table_start(fb);
    fmt__fb_add_i16(fb, 0, ARROW_V5);
    fmt__fb_add_u8(fb, 1, header_type);
    fmt__fb_add_ref(fb, 2, header);
    fmt__fb_add_i64(fb, 3, (int64_t)body_bytes);
    fmt__fb_ref message = fmt__fb_table_end(fb);
    const uint8_t *meta;
    size_t meta_bytes;
    int rc = fmt__fb_finish(fb, message, &meta, &meta_bytes);
    if (rc != 0) return rc;
    size_t padded = (meta_bytes + ARROW_ALIGN - 1) & ~(size_t)(ARROW_ALIGN - 1);
    arrow_block block = {(int64_t)st->position, (int32_t)(8 + padded), 0, (int64_t)body_bytes};
    uint8_t prefix[8];
    mu_store_u32le(prefix, ARROW_CONTINUATION);
    mu_store_u32le(prefix + 4, (uint32_t)padded);
    rc = arrow_emit(st, out, prefix, 8, err);
    if (rc == 0) rc = arrow_emit(st, out, meta, meta_bytes, err);
    if (rc == 0) rc = arrow_emit(st, out, zeros, padded - meta_bytes, err);
    if (rc == 0 && body_bytes) rc = arrow_emit(st, out, body->data, body_bytes, err);
    if (rc == 0 && st->file && block_kind < 2) rc = arrow_block_add(st, block_kind, block, err);
    return rc;
}

/* One buffer's compression: span `span`'s bytes, then (malloc'd) the i64
 * length prefix and the frame, or why it failed. */
typedef struct arrow_pack_job {
    uint32_t span;
    const uint8_t *src;
    size_t n;
    uint8_t *dst;
    size_t dst_bytes;
    const char *why;
} arrow_pack_job;

/* The jobs of a batch, largest first, taken by the threads in turn. */
typedef struct arrow_pack {
    arrow_pack_job *jobs;
    uint32_t count;
    bool zstd;
    _Atomic uint32_t next;
} arrow_pack;

static void pack_one(arrow_pack_job *j, bool zstd) {
    size_t bound = zstd ? ZSTD_compressBound(j->n) : LZ4F_compressFrameBound(j->n, NULL);
    j->dst = malloc(8 + MU_MAX(bound, j->n));
    if (j->dst == NULL) {
        j->why = "out of memory";
        return;
    }
    size_t got = zstd ? ZSTD_compress(j->dst + 8, bound, j->src, j->n, 1)
                      : LZ4F_compressFrame(j->dst + 8, bound, j->src, j->n, NULL);
    if (zstd ? ZSTD_isError(got) : LZ4F_isError(got)) {
        j->why = zstd ? ZSTD_getErrorName(got) : LZ4F_getErrorName(got);
        return;
    }
    mu_store_u64le(j->dst, j->n);
    j->dst_bytes = 8 + got;
}

static void *pack_main(void *arg) {
    arrow_pack *p = arg;
    for (uint32_t i; (i = atomic_fetch_add(&p->next, 1)) < p->count;)
        pack_one(&p->jobs[i], p->zstd);
    return NULL;
}

/* Compresses the jobs: on up to ARROW_PACK_THREADS threads (the calling
 * one among them) when there are ARROW_PACK_SHARE_BYTES to share. */
static void pack_run(arrow_pack *p, size_t total_bytes) {
    for (uint32_t i = 1; i < p->count; i++) { /* largest first: few jobs */
        arrow_pack_job j = p->jobs[i];
        uint32_t k = i;
        for (; k > 0 && p->jobs[k - 1].n < j.n; k--) p->jobs[k] = p->jobs[k - 1];
        p->jobs[k] = j;
    }
    long cores = total_bytes < ARROW_PACK_SHARE_BYTES ? 1 : sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t threads = (uint32_t)MU_MIN(MU_MAX(cores, 1L), (long)ARROW_PACK_THREADS);
    threads = MU_MIN(threads, p->count);
    pthread_t helpers[ARROW_PACK_THREADS];
    uint32_t started = 0;
    for (uint32_t i = 1; i < threads; i++)
        if (pthread_create(&helpers[started], NULL, pack_main, p) == 0) started++;
    pack_main(p);
    for (uint32_t i = 0; i < started; i++) pthread_join(helpers[i], NULL);
}

/* Compresses every non-empty buffer of b into b->packed (spans rewritten).
 * Always compressed, even when that does not make a buffer smaller (as
 * Arrow C++ by default; ClickHouse stores such buffers raw with length -1):
 * polars casts raw buffers in place and fails on Decimal128 data that is
 * 8- but not 16-byte aligned, which the 8-byte prefix makes common. Speed:
 * a batch's buffers are compressed on several threads (pack_run), then
 * laid out in span order. */
static int body_compress(const fmt_writer *w, arrow_body *b, mu_err *err) {
    arrow_pack p = {.zstd = w->opt.arrow_compression == FMT_ARROW_COMPRESSION_ZSTD};
    atomic_init(&p.next, 0);
    p.jobs = calloc(b->span_count + 1, sizeof(*p.jobs));
    if (p.jobs == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for Arrow output");
    size_t total = 0;
    for (uint32_t i = 0; i < b->span_count; i++) {
        size_t n = (size_t)b->spans[i].length;
        if (n == 0) continue;
        p.jobs[p.count++] = (arrow_pack_job){i, b->bytes.data + b->spans[i].offset, n, NULL,
                                             0, NULL};
        total += n;
    }
    pack_run(&p, total);
    /* by span again */
    arrow_pack_job **by_span = calloc(b->span_count + 1, sizeof(*by_span));
    int rc = by_span ? 0 : MU_ERR(err, MU_ENOMEM, "out of memory for Arrow output");
    for (uint32_t i = 0; rc == 0 && i < p.count; i++) by_span[p.jobs[i].span] = &p.jobs[i];
    for (uint32_t i = 0; rc == 0 && i < b->span_count; i++) {
        const arrow_pack_job *j = by_span[i];
        rc = body_pad(&b->packed, err);
        b->spans[i].offset = (int64_t)b->packed.length_bytes;
        if (rc != 0 || j == NULL) continue;
        if (j->why != NULL) {
            rc = MU_ERR(err, MU_EINTERNAL, "%s compression of an Arrow buffer of %zu bytes "
                        "failed: %s", p.zstd ? "zstd" : "lz4_frame", j->n, j->why);
            break;
        }
        rc = mu_buf_append(&b->packed, j->dst, j->dst_bytes, err);
        b->spans[i].length = (int64_t)j->dst_bytes;
    }
    for (uint32_t i = 0; i < p.count; i++) free(p.jobs[i].dst);
    free(p.jobs);
    free(by_span);
    if (rc == 0) rc = body_pad(&b->packed, err);
    return rc;
}

/* A RecordBatch table of `rows` over b's nodes and spans; compresses the
 * body first if asked. *body is the body to send. */
static fmt__fb_ref fb_record_batch(const fmt_writer *w, arrow_writer *st, arrow_body *b,
                                   uint32_t rows, const mu_buf **body, mu_err *err) {
    fmt__fb *fb = &st->fb;
    bool compress = w->opt.arrow_compression != FMT_ARROW_COMPRESSION_NONE;
    int rc = body_pad(&b->bytes, err);
    if (rc == 0 && compress) rc = body_compress(w, b, err);
    if (rc != 0) return 0;
    *body = compress ? &b->packed : &b->bytes;
    fmt__fb_reset(fb, err);
    fmt__fb_ref nodes = fmt__fb_vector_raw(fb, b->nodes, b->node_count, sizeof(arrow_node), 8);
    fmt__fb_ref spans = fmt__fb_vector_raw(fb, b->spans, b->span_count, sizeof(arrow_span), 8);
    fmt__fb_ref codec = 0;
    if (compress) {
        fmt__fb_table_start(fb);
        fmt__fb_add_u8(fb, 0, w->opt.arrow_compression == FMT_ARROW_COMPRESSION_ZSTD);
        fmt__fb_add_u8(fb, 1, 0); /* BUFFER */
        codec = fmt__fb_table_end(fb);
    }
    fmt__fb_table_start(fb);
    fmt__fb_add_i64(fb, 0, rows);
    fmt__fb_add_ref(fb, 1, nodes);
    fmt__fb_add_ref(fb, 2, spans);
    fmt__fb_add_ref(fb, 3, codec);
    return fmt__fb_table_end(fb);
}

/* ================================================================== */
/* Column encoding                                                     */
/* ================================================================== */

static int enc_column(fmt_writer *w, arrow_writer *st, arrow_body *b, const ty_column *c,
                      uint32_t rows, unsigned depth, mu_err *err);

static int enc_too_large(const arrow_writer *st, mu_err *err) {
    return MU_ERR(err, MU_ETOO_LARGE, "column '%s': more than 2147483647 bytes or elements in "
                  "one batch, past Arrow's 32-bit offsets", st->column);
}

/* String / Array / Map offsets: muscles' u32 offsets (first 0) are Arrow's
 * i32 offsets while the last fits. */
static int enc_offsets(const arrow_writer *st, arrow_body *b, const ty_column *c, uint32_t rows,
                       mu_err *err) {
    if (ty_column_offsets(c)[rows] > INT32_MAX) return enc_too_large(st, err);
    return body_buffer(b, c->offsets.data, ((size_t)rows + 1) * 4, err);
}

/* FixedString as Binary/Utf8 (all N bytes) and Nothing as Binary (empty). */
static int enc_binary_fixed(const arrow_writer *st, arrow_body *b, const ty_column *c,
                            uint32_t width, uint32_t rows, mu_err *err) {
    if ((uint64_t)width * rows > INT32_MAX) return enc_too_large(st, err);
    uint8_t *p;
    int rc = body_buffer_uninit(b, ((size_t)rows + 1) * 4, &p, err);
    for (uint32_t i = 0; rc == 0 && i <= rows; i++) mu_store_u32le(p + (size_t)i * 4, i * width);
    if (rc == 0) rc = body_buffer(b, c->values.data, (size_t)width * rows, err);
    return rc;
}

/* Date: days widened to Date32's i32; Bool: packed bits; DateTime64:
 * ticks scaled up to the unit's 10^-(3k) s; Decimal: Decimal128. */
static int enc_converted(const arrow_writer *st, arrow_body *b, const ty_column *c,
                         const ty_type *t, uint32_t rows, mu_err *err) {
    uint8_t *p;
    const uint8_t *v = c->values.data;
    size_t width = t->kind == TY_DATE ? 4 : t->kind == TY_DATETIME64 ? 8 : 16;
    size_t n = t->kind == TY_BOOL ? ((size_t)rows + 7) / 8 : (size_t)rows * width;
    int rc = body_buffer_uninit(b, n, &p, err);
    if (rc != 0) return rc;
    if (t->kind == TY_BOOL) memset(p, 0, n);
    int64_t factor = 1;
    unsigned unit_scale = t->kind == TY_DATETIME64 ? arrow_time_unit(t->precision) * 3 : 0;
    for (unsigned i = t->precision; i < unit_scale; i++) factor *= 10;
    uint32_t src_width = ty_type_value_bytes(t);
    for (uint32_t i = 0; i < rows; i++) {
        int64_t ticks;
        __int128 d = 0;
        switch (t->kind) {
        case TY_BOOL:
            if (v[i]) p[i >> 3] |= (uint8_t)(1u << (i & 7));
            break;
        case TY_DATE:
            mu_store_u32le(p + (size_t)i * 4, mu_load_u16le(v + (size_t)i * 2));
            break;
        case TY_DATETIME64:
            if (__builtin_mul_overflow((int64_t)mu_load_u64le(v + (size_t)i * 8), factor, &ticks))
                return MU_ERR(err, MU_EDECIMAL_OVERFLOW, "Decimal math overflow: column '%s', "
                              "a DateTime64(%u) value past Arrow's timestamp range", st->column,
                              t->precision);
            mu_store_u64le(p + (size_t)i * 8, (uint64_t)ticks);
            break;
        default: /* TY_DECIMAL: sign-extend i32 / i64 / i128 */
            if (src_width == 4) d = (int32_t)mu_load_u32le(v + (size_t)i * 4);
            else if (src_width == 8) d = (int64_t)mu_load_u64le(v + (size_t)i * 8);
            else memcpy(&d, v + (size_t)i * 16, 16);
            memcpy(p + (size_t)i * 16, &d, 16);
            break;
        }
    }
    return 0;
}

/* The buffers after the validity bitmap of a value type's node. */
static int enc_values(fmt_writer *w, arrow_writer *st, arrow_body *b, const ty_column *c,
                      const ty_type *t, uint32_t rows, unsigned depth, mu_err *err) {
    int rc;
    switch (t->kind) {
    case TY_BOOL: case TY_DATETIME64: case TY_DECIMAL:
        return enc_converted(st, b, c, t, rows, err);
    case TY_DATE:
        if (w->opt.arrow_date_as_uint16)
            return body_buffer(b, c->values.data, (size_t)rows * 2, err);
        return enc_converted(st, b, c, t, rows, err);
    case TY_STRING:
        rc = enc_offsets(st, b, c, rows, err);
        if (rc == 0) rc = body_buffer(b, c->values.data, ty_column_offsets(c)[rows], err);
        return rc;
    case TY_FIXED_STRING:
        if (w->opt.arrow_fixed_string_as_fixed_byte_array)
            return body_buffer(b, c->values.data, (size_t)rows * t->length, err);
        return enc_binary_fixed(st, b, c, t->length, rows, err);
    case TY_NOTHING:
        return enc_binary_fixed(st, b, c, 0, rows, err);
    case TY_ARRAY:
        rc = enc_offsets(st, b, c, rows, err);
        if (rc == 0) rc = enc_column(w, st, b, ty_column_child(c, 0), ty_column_offsets(c)[rows],
                                     depth + 1, err);
        return rc;
    case TY_MAP: {
        uint32_t entries = ty_column_offsets(c)[rows];
        rc = enc_offsets(st, b, c, rows, err);
        if (rc == 0) rc = body_node(b, entries, NULL, err); /* the "entries" struct */
        for (unsigned i = 0; rc == 0 && i < 2; i++)
            rc = enc_column(w, st, b, ty_column_child(c, i), entries, depth + 1, err);
        return rc;
    }
    default: /* numbers, Enum, Date32, DateTime, UUID (text order is Arrow's) */
        return body_buffer(b, c->values.data, (size_t)rows * ty_type_value_bytes(t), err);
    }
}

/* A dictionary-encoded LowCardinality node: indexes into the writer's
 * growing dictionary for this node (its new entries go out as a delta). */
static int enc_dictionary_indexes(fmt_writer *w, arrow_writer *st, arrow_body *b,
                                  const ty_column *c, uint32_t rows, mu_err *err) {
    MU_ASSERT(st->dict_cursor < st->dict_count);
    arrow_dict *d = &st->dicts[st->dict_cursor++];
    ty_column_truncate(d->values, 0);
    int rc = ty_column_append_rows_from(d->values, c, 0, rows, err);
    if (rc == 0 && ty_column_child(d->values, 0)->row_count > (uint32_t)INT32_MAX)
        rc = enc_too_large(st, err);
    if (rc == 0) rc = body_node(b, rows, c->nullable ? c->validity.data : NULL, err);
    if (rc != 0 || !w->opt.arrow_use_64_bit_indexes_for_dictionary)
        return rc != 0 ? rc : body_buffer(b, d->values->values.data, (size_t)rows * 4, err);
    uint8_t *p;
    rc = body_buffer_uninit(b, (size_t)rows * 8, &p, err);
    for (uint32_t i = 0; rc == 0 && i < rows; i++)
        mu_store_u64le(p + (size_t)i * 8, mu_load_u32le(d->values->values.data + (size_t)i * 4));
    return rc;
}

/* A LowCardinality node written as its values: the dictionary gathered by
 * the indexes, with the LowCardinality column's validity. */
static int enc_low_cardinality_values(fmt_writer *w, arrow_writer *st, arrow_body *b,
                                      const ty_column *c, uint32_t rows, unsigned depth,
                                      mu_err *err) {
    const ty_column *dictionary = ty_column_child(c, 0);
    ty_column *values = NULL;
    int rc = ty_column_create(dictionary->type, NULL, &values, err);
    if (rc == 0) rc = ty_column_append_gather(values, dictionary,
                                              (const uint32_t *)(const void *)c->values.data,
                                              rows, err);
    if (rc == 0) rc = body_node(b, rows, c->nullable ? c->validity.data : NULL, err);
    if (rc == 0) rc = enc_values(w, st, b, values, dictionary->type, rows, depth, err);
    ty_column_destroy(values);
    return rc;
}

/* Rows [0, rows) of c: its node(s) and buffers, children included. */
static int enc_column(fmt_writer *w, arrow_writer *st, arrow_body *b, const ty_column *c,
                      uint32_t rows, unsigned depth, mu_err *err) {
    MU_ASSERT(depth <= TY_TYPE_DEPTH_MAX + 1);
    MU_ASSERT(rows <= c->row_count);
    if (c->type->kind == TY_LOW_CARDINALITY) {
        if (w->opt.arrow_low_cardinality_as_dictionary)
            return enc_dictionary_indexes(w, st, b, c, rows, err);
        return enc_low_cardinality_values(w, st, b, c, rows, depth, err);
    }
    int rc = body_node(b, rows, c->nullable ? c->validity.data : NULL, err);
    if (rc != 0) return rc;
    return enc_values(w, st, b, c, ty_type_strip_nullable(c->type), rows, depth, err);
}

/* ================================================================== */
/* The writer                                                          */
/* ================================================================== */

/* The dictionary entries added since the last delta of every dictionary,
 * as DictionaryBatch messages (the first one of an id is not a delta). */
static int arrow_dictionaries(fmt_writer *w, arrow_writer *st, mu_buf *out, mu_err *err) {
    int rc = 0;
    for (uint32_t id = 0; rc == 0 && id < st->dict_count; id++) {
        arrow_dict *d = &st->dicts[id];
        const ty_column *all = ty_column_child(d->values, 0);
        uint32_t from = d->sent, count = all->row_count - d->sent;
        if (count == 0) continue;
        ty_column *delta = NULL;
        body_clear(&st->dictionary);
        rc = ty_column_create(all->type, NULL, &delta, err);
        if (rc == 0) rc = ty_column_append_rows_from(delta, all, from, count, err);
        if (rc == 0) rc = enc_column(w, st, &st->dictionary, delta, count, 1, err);
        ty_column_destroy(delta);
        const mu_buf *body = NULL;
        fmt__fb_ref data = rc == 0 ? fb_record_batch(w, st, &st->dictionary, count, &body, err) : 0;
        if (rc == 0 && data == 0) rc = st->fb.rc != 0 ? st->fb.rc : MU_ENOMEM;
        if (rc != 0) break;
        fmt__fb_table_start(&st->fb);
        fmt__fb_add_i64(&st->fb, 0, id);
        fmt__fb_add_ref(&st->fb, 1, data);
        fmt__fb_add_u8(&st->fb, 2, from > 0);
        fmt__fb_ref header = fmt__fb_table_end(&st->fb);
        rc = arrow_message(st, ARROW_HEADER_DICTIONARY_BATCH, header, body, 0, out, err);
        if (rc == 0) d->sent += count;
    }
    return rc;
}

static void arrow_writer_destroy(fmt_writer *w) {
    arrow_writer *st = w->state;
    if (st == NULL) return;
    for (uint32_t i = 0; i < st->dict_count; i++) ty_column_destroy(st->dicts[i].values);
    free(st->dicts);
    body_deinit(&st->batch);
    body_deinit(&st->dictionary);
    fmt__fb_deinit(&st->fb);
    free(st->blocks[0]);
    free(st->blocks[1]);
    mu_arena_destroy(st->arena);
    free(st);
    w->state = NULL;
}

/* Keeps the schema's names and types (cloned) for the footer and the
 * dictionaries, and checks every type before anything is written. */
static int arrow_setup(fmt_writer *w, arrow_writer *st, const ty_batch *schema, mu_err *err) {
    int rc = mu_arena_create(&st->arena, NULL, 4096, err);
    uint32_t n = schema->column_count;
    if (rc == 0) st->names = mu_arena_alloc(st->arena, (n ? n : 1) * sizeof(char *), err);
    if (rc == 0 && st->names == NULL) rc = MU_ENOMEM;
    if (rc == 0) st->types = mu_arena_alloc(st->arena, (n ? n : 1) * sizeof(ty_type *), err);
    if (rc == 0 && st->types == NULL) rc = MU_ENOMEM;
    for (uint32_t i = 0; rc == 0 && i < n; i++) {
        size_t bytes = strlen(schema->names[i]) + 1;
        char *name = mu_arena_alloc(st->arena, bytes, err);
        if (name == NULL) return MU_ENOMEM;
        memcpy(name, schema->names[i], bytes);
        st->names[i] = name;
        st->column = name;
        rc = ty_type_clone(schema->columns[i]->type, st->arena, &st->types[i], err);
        if (rc == 0) rc = arrow_plan(w, st, st->types[i], 1, err);
        st->column_count = i + 1;
    }
    return rc;
}

static int arrow_begin(fmt_writer *w, const ty_batch *schema, mu_buf *out, mu_err *err) {
    static const uint8_t magic[8] = {'A', 'R', 'R', 'O', 'W', '1', 0, 0};
    arrow_writer *st = calloc(1, sizeof(*st));
    if (st == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for an Arrow writer");
    w->state = st;
    st->file = w->kind == FMT_ARROW;
    mu_buf_init(&st->batch.bytes, 0);
    mu_buf_init(&st->batch.packed, 0);
    mu_buf_init(&st->dictionary.bytes, 0);
    mu_buf_init(&st->dictionary.packed, 0);
    fmt__fb_init(&st->fb, ARROW_METADATA_BYTES_MAX);
    int rc = arrow_setup(w, st, schema, err);
    if (rc == 0 && st->file) rc = arrow_emit(st, out, magic, sizeof(magic), err);
    if (rc != 0) return rc;
    fmt__fb_reset(&st->fb, err);
    fmt__fb_ref header = fb_schema(w, st, err);
    if (header == 0) return st->fb.rc != 0 ? st->fb.rc : MU_ENOMEM;
    return arrow_message(st, ARROW_HEADER_SCHEMA, header, NULL, 2, out, err);
}

/* The visible rows of a batch with a selection, as compact columns. */
static int arrow_compact(const ty_batch *batch, ty_column **columns, mu_err *err) {
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < batch->column_count; i++) {
        const ty_column *c = batch->columns[i];
        rc = ty_column_create(c->type, batch->tracker, &columns[i], err);
        if (rc == 0) rc = ty_column_append_gather(columns[i], c, batch->selection,
                                                  batch->selection_count, err);
    }
    return rc;
}

/* One RecordBatch (after any dictionary deltas) per batch with rows. */
static int arrow_rows(fmt_writer *w, const ty_batch *batch, mu_buf *out, mu_err *err) {
    arrow_writer *st = w->state;
    MU_ASSERT(st != NULL && batch->column_count == st->column_count);
    uint32_t rows = ty_batch_visible_rows(batch);
    if (rows == 0) return 0;
    ty_column **compact = NULL;
    int rc = 0;
    if (batch->selection) {
        compact = calloc(batch->column_count, sizeof(ty_column *));
        rc = compact ? arrow_compact(batch, compact, err)
                     : MU_ERR(err, MU_ENOMEM, "out of memory for an Arrow batch");
    }
    body_clear(&st->batch);
    st->dict_cursor = 0;
    for (uint32_t i = 0; rc == 0 && i < batch->column_count; i++) {
        st->column = st->names[i];
        rc = enc_column(w, st, &st->batch, compact ? compact[i] : batch->columns[i], rows, 1, err);
    }
    for (uint32_t i = 0; compact && i < batch->column_count; i++) ty_column_destroy(compact[i]);
    free(compact);
    if (rc == 0) rc = arrow_dictionaries(w, st, out, err);
    const mu_buf *body = NULL;
    fmt__fb_ref header = rc == 0 ? fb_record_batch(w, st, &st->batch, rows, &body, err) : 0;
    if (rc == 0 && header == 0) rc = st->fb.rc != 0 ? st->fb.rc : MU_ENOMEM;
    if (rc == 0) rc = arrow_message(st, ARROW_HEADER_RECORD_BATCH, header, body, 1, out, err);
    return rc;
}

/* EOS; for the file format then the footer, its length and the magic. */
static int arrow_end(fmt_writer *w, const fmt_result_info *info, mu_buf *out, mu_err *err) {
    (void)info;
    arrow_writer *st = w->state;
    MU_ASSERT(st != NULL);
    uint8_t eos[8];
    mu_store_u32le(eos, ARROW_CONTINUATION);
    mu_store_u32le(eos + 4, 0);
    int rc = arrow_emit(st, out, eos, 8, err);
    if (rc != 0 || !st->file) return rc;
    fmt__fb *fb = &st->fb;
    fmt__fb_reset(fb, err);
    fmt__fb_ref schema = fb_schema(w, st, err);
    fmt__fb_ref blocks[2];
    for (unsigned k = 0; k < 2; k++)
        blocks[k] = fmt__fb_vector_raw(fb, st->blocks[k], st->block_count[k],
                                       sizeof(arrow_block), 8);
    if (schema == 0) return fb->rc != 0 ? fb->rc : MU_ENOMEM;
    fmt__fb_table_start(fb);
    fmt__fb_add_i16(fb, 0, ARROW_V5);
    fmt__fb_add_ref(fb, 1, schema);
    fmt__fb_add_ref(fb, 2, blocks[0]);
    fmt__fb_add_ref(fb, 3, blocks[1]);
    fmt__fb_ref footer = fmt__fb_table_end(fb);
    const uint8_t *bytes;
    size_t length;
    rc = fmt__fb_finish(fb, footer, &bytes, &length);
    uint8_t tail[10] = {0, 0, 0, 0, 'A', 'R', 'R', 'O', 'W', '1'};
    mu_store_u32le(tail, (uint32_t)length);
    if (rc == 0) rc = arrow_emit(st, out, bytes, length, err);
    if (rc == 0) rc = arrow_emit(st, out, tail, sizeof(tail), err);
    return rc;
}

/* No totals: ClickHouse's Arrow formats leave them out. */
static const fmt__writer_vt arrow_writer_vt = {arrow_begin, arrow_rows, NULL, arrow_end,
                                               arrow_writer_destroy};

const fmt__writer_vt *fmt__writer_arrow(fmt_kind kind) {
    return kind == FMT_ARROW || kind == FMT_ARROW_STREAM ? &arrow_writer_vt : NULL;
}
