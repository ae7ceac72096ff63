/* binary.c: ClickHouse's binary formats, output and input: RowBinary,
 * RowBinaryWithNames, RowBinaryWithNamesAndTypes (row by row, each value in
 * its binary serialization) and Native (column by column in blocks, as
 * ClickHouse sends it over HTTP with FORMAT Native: no TCP packet framing).
 * The readers are streaming: bytes collect in r->pending; a RowBinary row is
 * appended to the batch whole or not at all, a Native block is decoded value
 * by value into private columns and moved into the batch once complete, so
 * the batch's columns always hold whole rows. Columns are matched to the
 * batch by name (WithNames headers, Native column names); one the batch
 * lacks is decoded by its own type into a scratch column and dropped
 * (input_format_skip_unknown_fields), one the input lacks gets defaults
 * marked omitted, as are NULLs read as defaults. Neither family can find
 * the next row after a bad one, so errors are never skipped.
 * Specification: clickhouse-compat.md sections 2.6 and 2.7; byte layout
 * below.
 */
#include "formats/formats_int.h"

#include <stdlib.h>
#include <string.h>

/*
 * Byte layout (all integers little-endian; "varint" = unsigned LEB128):
 *
 * RowBinary: rows back to back, no separators. RowBinaryWithNames starts
 * with varint N and N names; RowBinaryWithNamesAndTypes then adds N type
 * names (each a String: varint length + bytes). One value of type T:
 *   (U)Int8..64, Float32/64     1..8 bytes
 *   Bool                        1 byte, 0 or 1
 *   String                      varint length + bytes
 *   FixedString(N)              N bytes
 *   Date / Date32               u16 / i32 days since 1970-01-01
 *   DateTime / DateTime64(P)    u32 seconds / i64 ticks of 10^-P s (zone: name only)
 *   UUID                        16 bytes: bytes 0..7 of the text order reversed,
 *                               then bytes 8..15 reversed (two u64 halves)
 *   Decimal(P, S)               i32 / i64 / i128 of value * 10^S (P <= 9 / 18 / 38)
 *   Enum8 / Enum16              i8 / i16 value
 *   Nullable(T)                 u8 1 = NULL (nothing follows), 0 = a T follows
 *   LowCardinality(T)           as T
 *   Array(T) / Map(K, V)        varint count, then the elements / key, value pairs
 *
 * Native: a sequence of blocks. Block:
 *   [BlockInfo 01 00 02 FF FF FF FF 00]   only for a client revision > 0
 *   varint columns, varint rows
 *   per column: String name, String type name,
 *               [u8 0: no custom serialization]   only for revision >= 54454
 *               column data for `rows` rows (nothing at all when rows is 0)
 * Column data of n rows of T:
 *   LowCardinality key versions first: u64 1 per LowCardinality inside T
 *   fixed-width types           n values as in RowBinary (Nothing: n bytes '0')
 *   String                      n times varint length + bytes
 *   Nullable(T)                 n bytes, 1 = NULL; then the T data of n rows
 *   Array(T) / Map(K, V)        n u64 cumulative end offsets; then the data of
 *                               the last offset rows of T / of K, then of V
 *   LowCardinality(T)           granules until n rows: u64 flags (bits 0..7 index
 *                               width 1/2/4/8 bytes as 0..3; 1<<9 keys follow;
 *                               1<<10 new dictionary), u64 key count K, K keys as
 *                               the data of T without Nullable (for a Nullable T,
 *                               key 0 stands for NULL), u64 rows m, m indexes
 */

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "column values are in host order, which the binary formats take as little-endian");

enum {
    BIN_MORE = 2,            /* internal: the input ends inside the unit being read */
    BIN_CHUNK_VALUES = 4096, /* fixed-width values converted per step */
};

#define NAT_REVISION_TIMEZONE 54337u        /* DateTime('zone') type names from here on */
#define NAT_REVISION_LOW_CARDINALITY 54405u /* LowCardinality columns from here on */
#define NAT_REVISION_CUSTOM_SERIALIZATION 54454u
#define LC_KEY_VERSION 1u                   /* SharedDictionariesWithAdditionalKeys */
#define LC_INDEX_WIDTH_MASK 0xFFu
#define LC_NEED_GLOBAL_DICTIONARY (1u << 8)
#define LC_HAS_ADDITIONAL_KEYS (1u << 9)
#define LC_NEED_UPDATE_DICTIONARY (1u << 10)

/* ================================================================== */
/* Shared helpers                                                      */
/* ================================================================== */

/* Text-order UUID bytes <-> ClickHouse's two little-endian u64 halves
 * (the mapping is its own inverse). */
static void bin_uuid_swap(const uint8_t *in, uint8_t *out) {
    for (int i = 0; i < 8; i++) {
        out[i] = in[7 - i];
        out[8 + i] = in[15 - i];
    }
}

static bool bin_is_row_binary(fmt_kind kind) {
    return kind == FMT_ROW_BINARY || kind == FMT_ROW_BINARY_WITH_NAMES ||
           kind == FMT_ROW_BINARY_WITH_NAMES_AND_TYPES;
}

/* The type of the values a column of `t` holds: no LowCardinality, no Nullable. */
static const ty_type *bin_value_type(const ty_type *t) {
    if (t->kind == TY_LOW_CARDINALITY) t = t->child;
    return ty_type_strip_nullable(t);
}

/* AggregateFunction states are muscles' own bytes, not ClickHouse's
 * serialization, so they cannot travel in a binary format. */
static int bin_check_type(const ty_type *t, const char *column, unsigned depth, mu_err *err) {
    MU_ASSERT(depth <= TY_TYPE_DEPTH_MAX + 1);
    if (t->aggregate_function != NULL) {
        char name[128];
        return MU_ERR(err, MU_ENOT_SUPPORTED, "column '%s': type %s in a binary format is not "
                      "supported", column, ty_type_name(t, name, sizeof(name)));
    }
    int rc = t->child ? bin_check_type(t->child, column, depth + 1, err) : 0;
    if (rc == 0 && t->child2) rc = bin_check_type(t->child2, column, depth + 1, err);
    return rc;
}

static bool bin_enum_has(const ty_type *t, int value) {
    for (uint32_t i = 0; i < t->enum_count; i++)
        if (t->enum_entries[i].value == value) return true;
    return false;
}

/* Checks one wire value of a Bool or Enum; other types take any bytes. */
static int bin_check_value(const ty_type *t, const uint8_t *p, mu_err *err) {
    char name[128];
    int value;
    switch (t->kind) {
    case TY_BOOL:
        if (p[0] <= 1) return 0;
        return MU_ERR(err, MU_EPARSE, "value %u is not a Bool (0 or 1)", p[0]);
    case TY_ENUM8:
    case TY_ENUM16:
        value = t->kind == TY_ENUM8 ? (int8_t)p[0] : (int16_t)mu_load_u16le(p);
        if (bin_enum_has(t, value)) return 0;
        return MU_ERR(err, MU_EPARSE, "unexpected value %d in %s", value,
                      ty_type_name(t, name, sizeof(name)));
    default:
        return 0;
    }
}

/* Appends one wire value of scalar type t (checked, UUID reordered). */
static int bin_append_scalar(ty_column *c, const ty_type *t, const uint8_t *p, mu_err *err) {
    uint8_t uuid[16];
    int rc = bin_check_value(t, p, err);
    if (rc != 0) return rc;
    if (t->kind == TY_FIXED_STRING) return ty_column_append_bytes(c, p, t->length, err);
    if (t->kind == TY_UUID) {
        bin_uuid_swap(p, uuid);
        p = uuid;
    }
    return ty_column_append_value(c, p, err);
}

/* ================================================================== */
/* Output                                                              */
/* ================================================================== */

typedef struct bin_writer {
    uint64_t revision; /* Native: the client's protocol revision; 0 over HTTP */
} bin_writer;

static bin_writer *bin_writer_state(fmt_writer *w, mu_err *err) {
    if (w->state == NULL) {
        w->state = calloc(1, sizeof(bin_writer));
        if (w->state == NULL) MU_ERR(err, MU_ENOMEM, "out of memory for a %s writer",
                                     fmt_name(w->kind));
    }
    return w->state;
}

static void bin_writer_destroy(fmt_writer *w) {
    free(w->state);
    w->state = NULL;
}

/* Makes a Native writer answer as to a client of protocol `revision`
 * (ClickHouse's client_protocol_version): BlockInfo from 1, the custom
 * serialization byte from 54454, DateTime zones in type names from 54337.
 * Call before fmt_writer_begin. */
int fmt__native_writer_set_revision(fmt_writer *w, uint64_t revision, mu_err *err) {
    MU_ASSERT(w != NULL);
    if (w->kind != FMT_NATIVE)
        return MU_ERR(err, MU_EINVAL, "a client revision is only for Native, not %s",
                      fmt_name(w->kind));
    bin_writer *st = bin_writer_state(w, err);
    if (st == NULL) return MU_ENOMEM;
    st->revision = revision;
    return 0;
}

static int bin_put_string(mu_buf *out, const void *data, size_t bytes, mu_err *err) {
    int rc = mu_buf_append_varint(out, bytes, err);
    return rc != 0 || bytes == 0 ? rc : mu_buf_append(out, data, bytes, err);
}

/* One scalar value (String, FixedString, numbers, dates, UUID, Decimal,
 * Enum) of a column without NULL at that row. */
static int bin_put_scalar(const ty_column *c, const ty_type *t, uint32_t row, mu_buf *out,
                          mu_err *err) {
    uint8_t uuid[16];
    size_t bytes;
    const uint8_t *p;
    switch (t->kind) {
    case TY_STRING:
        p = ty_column_row_bytes(c, row, &bytes);
        return bin_put_string(out, p, bytes, err);
    case TY_NOTHING:
        return MU_ERR(err, MU_ENOT_SUPPORTED, "a value of type Nothing cannot be written");
    case TY_UUID:
        bin_uuid_swap(c->values.data + (size_t)row * 16, uuid);
        return mu_buf_append(out, uuid, 16, err);
    default:
        bytes = ty_type_value_bytes(t);
        return mu_buf_append(out, c->values.data + (size_t)row * bytes, bytes, err);
    }
}

/* One value in the RowBinary serialization. */
static int rb_put_value(const ty_column *c, uint32_t row, unsigned depth, mu_buf *out,
                        mu_err *err) {
    MU_ASSERT(depth <= TY_TYPE_DEPTH_MAX + 1);
    int rc;
    if (c->nullable) {
        bool null = ty_column_is_null(c, row);
        rc = mu_buf_append_u8(out, null ? 1 : 0, err);
        if (rc != 0 || null) return rc;
    }
    const ty_type *t = ty_type_strip_nullable(c->type);
    if (t->kind == TY_LOW_CARDINALITY) {
        uint32_t index = mu_load_u32le(c->values.data + (size_t)row * 4);
        const ty_column *dictionary = ty_column_child(c, 0);
        return bin_put_scalar(dictionary, dictionary->type, index, out, err);
    }
    if (t->kind != TY_ARRAY && t->kind != TY_MAP) return bin_put_scalar(c, t, row, out, err);
    uint32_t start = mu_load_u32le(c->offsets.data + (size_t)row * 4);
    uint32_t end = mu_load_u32le(c->offsets.data + ((size_t)row + 1) * 4);
    rc = mu_buf_append_varint(out, end - start, err);
    for (uint32_t i = start; rc == 0 && i < end; i++) {
        rc = rb_put_value(ty_column_child(c, 0), i, depth + 1, out, err);
        if (rc == 0 && t->kind == TY_MAP)
            rc = rb_put_value(ty_column_child(c, 1), i, depth + 1, out, err);
    }
    return rc;
}

static int rb_begin(fmt_writer *w, const ty_batch *schema, mu_buf *out, mu_err *err) {
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < schema->column_count; i++)
        rc = bin_check_type(schema->columns[i]->type, schema->names[i], 1, err);
    if (rc != 0 || w->kind == FMT_ROW_BINARY) return rc;
    rc = mu_buf_append_varint(out, schema->column_count, err);
    for (uint32_t i = 0; rc == 0 && i < schema->column_count; i++)
        rc = bin_put_string(out, schema->names[i], strlen(schema->names[i]), err);
    if (w->kind != FMT_ROW_BINARY_WITH_NAMES_AND_TYPES) return rc;
    mu_buf name;
    mu_buf_init(&name, 0);
    for (uint32_t i = 0; rc == 0 && i < schema->column_count; i++) {
        mu_buf_clear(&name);
        rc = ty_type_render(schema->columns[i]->type, &name, err);
        if (rc == 0) rc = bin_put_string(out, name.data, name.length_bytes, err);
    }
    mu_buf_deinit(&name);
    return rc;
}

static int rb_rows(fmt_writer *w, const ty_batch *batch, mu_buf *out, mu_err *err) {
    (void)w;
    uint32_t visible = ty_batch_visible_rows(batch);
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < visible; i++) {
        uint32_t row = batch->selection ? batch->selection[i] : i;
        for (uint32_t col = 0; rc == 0 && col < batch->column_count; col++)
            rc = rb_put_value(batch->columns[col], row, 1, out, err);
    }
    return rc;
}

/* Rows of one column that a Native block writes: the range
 * [first, first + count) or, with a selection, list[0..count). */
typedef struct nat_rows {
    const uint32_t *list;
    uint32_t first;
    uint32_t count;
} nat_rows;

static uint32_t nat_row(const nat_rows *rows, uint32_t i) {
    return rows->list ? rows->list[i] : rows->first + i;
}

static int nat_put_column(const ty_column *c, const nat_rows *rows, unsigned depth,
                          mu_buf *out, mu_err *err);

/* The u64 key version of every LowCardinality inside t, before any data. */
static int nat_put_prefixes(const ty_type *t, unsigned depth, mu_buf *out, mu_err *err) {
    MU_ASSERT(depth <= TY_TYPE_DEPTH_MAX + 1);
    int rc = t->kind == TY_LOW_CARDINALITY ? mu_buf_append_u64le(out, LC_KEY_VERSION, err) : 0;
    if (rc == 0 && t->child && t->kind != TY_LOW_CARDINALITY)
        rc = nat_put_prefixes(t->child, depth + 1, out, err);
    if (rc == 0 && t->child2) rc = nat_put_prefixes(t->child2, depth + 1, out, err);
    return rc;
}

static int nat_put_fixed(const ty_column *c, const ty_type *t, const nat_rows *rows,
                         mu_buf *out, mu_err *err) {
    size_t width = ty_type_value_bytes(t);
    if (rows->count == 0) return 0;
    if (t->kind == TY_NOTHING) {
        int rc = mu_buf_reserve(out, rows->count, err);
        if (rc != 0) return rc;
        memset(out->data + out->length_bytes, '0', rows->count); /* as ClickHouse writes it */
        out->length_bytes += rows->count;
        return 0;
    }
    if (rows->list == NULL && t->kind != TY_UUID)
        return mu_buf_append(out, c->values.data + (size_t)rows->first * width,
                             (size_t)rows->count * width, err);
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < rows->count; i++)
        rc = bin_put_scalar(c, t, nat_row(rows, i), out, err);
    return rc;
}

/* Array/Map: cumulative u64 end offsets of the rows, then the element
 * columns for exactly the elements of those rows. */
static int nat_put_nested(const ty_column *c, const ty_type *t, const nat_rows *rows,
                          unsigned depth, mu_buf *out, mu_err *err) {
    uint64_t total = 0;
    int rc = mu_buf_reserve(out, (size_t)rows->count * 8, err);
    for (uint32_t i = 0; rc == 0 && i < rows->count; i++) {
        uint32_t row = nat_row(rows, i);
        total += mu_load_u32le(c->offsets.data + ((size_t)row + 1) * 4) -
                 mu_load_u32le(c->offsets.data + (size_t)row * 4);
        rc = mu_buf_append_u64le(out, total, err);
    }
    nat_rows elements = {NULL, 0, (uint32_t)total};
    uint32_t *list = NULL;
    if (rc == 0 && rows->list == NULL && rows->count > 0) {
        elements.first = mu_load_u32le(c->offsets.data + (size_t)rows->first * 4);
    } else if (rc == 0 && total > 0) {
        list = malloc((size_t)total * sizeof(uint32_t));
        if (list == NULL) rc = MU_ERR(err, MU_ENOMEM, "out of memory for a Native column");
        for (uint32_t i = 0, k = 0; rc == 0 && i < rows->count; i++) {
            uint32_t row = nat_row(rows, i);
            uint32_t end = mu_load_u32le(c->offsets.data + ((size_t)row + 1) * 4);
            for (uint32_t e = mu_load_u32le(c->offsets.data + (size_t)row * 4); e < end; e++)
                list[k++] = e;
        }
        elements.list = list;
    }
    for (unsigned i = 0; rc == 0 && i < (t->kind == TY_MAP ? 2u : 1u); i++)
        rc = nat_put_column(ty_column_child(c, i), &elements, depth + 1, out, err);
    free(list);
    return rc;
}

/* LowCardinality: one granule with the whole dictionary as its keys. A
 * Nullable one gets key 0 for NULL in front (so its indexes shift by one),
 * as ClickHouse's dictionaries keep NULL at 0 and the default at 1. */
static int nat_put_low_cardinality(const ty_column *c, const nat_rows *rows, mu_buf *out,
                                   mu_err *err) {
    const ty_column *dictionary = ty_column_child(c, 0);
    if (rows->count == 0) return 0; /* as ClickHouse: nothing at all (empty arrays) */
    uint32_t shift = c->nullable ? 1 : 0;
    uint64_t keys = (uint64_t)dictionary->row_count + shift;
    unsigned width_code = keys - 1 <= 0xFF ? 0 : keys - 1 <= 0xFFFF ? 1 : 2;
    unsigned width = 1u << width_code;
    int rc = mu_buf_append_u64le(out, width_code | LC_HAS_ADDITIONAL_KEYS |
                                 LC_NEED_UPDATE_DICTIONARY, err);
    if (rc == 0) rc = mu_buf_append_u64le(out, keys, err);
    if (rc == 0 && shift == 1) { /* the NULL key holds the default value */
        nat_rows first = {NULL, 0, 1};
        rc = nat_put_column(dictionary, &first, 1, out, err);
    }
    nat_rows all = {NULL, 0, dictionary->row_count};
    if (rc == 0) rc = nat_put_column(dictionary, &all, 1, out, err);
    if (rc == 0) rc = mu_buf_append_u64le(out, rows->count, err);
    if (rc == 0) rc = mu_buf_reserve(out, (size_t)rows->count * width, err);
    for (uint32_t i = 0; rc == 0 && i < rows->count; i++) {
        uint32_t row = nat_row(rows, i);
        uint32_t index = ty_column_is_null(c, row)
                             ? 0 : mu_load_u32le(c->values.data + (size_t)row * 4) + shift;
        uint8_t bytes[4];
        mu_store_u32le(bytes, index);
        rc = mu_buf_append(out, bytes, width, err);
    }
    return rc;
}

/* The data of one column for `rows` (key versions excluded). */
static int nat_put_column(const ty_column *c, const nat_rows *rows, unsigned depth,
                          mu_buf *out, mu_err *err) {
    MU_ASSERT(depth <= TY_TYPE_DEPTH_MAX + 1);
    int rc = 0;
    if (c->type->kind == TY_NULLABLE) {
        rc = mu_buf_reserve(out, rows->count, err);
        for (uint32_t i = 0; rc == 0 && i < rows->count; i++)
            out->data[out->length_bytes++] = ty_column_is_null(c, nat_row(rows, i)) ? 1 : 0;
        if (rc != 0) return rc;
    }
    const ty_type *t = ty_type_strip_nullable(c->type);
    switch (t->kind) {
    case TY_LOW_CARDINALITY:
        return nat_put_low_cardinality(c, rows, out, err);
    case TY_ARRAY:
    case TY_MAP:
        return nat_put_nested(c, t, rows, depth, out, err);
    case TY_STRING:
        for (uint32_t i = 0; rc == 0 && i < rows->count; i++)
            rc = bin_put_scalar(c, t, nat_row(rows, i), out, err);
        return rc;
    default:
        return nat_put_fixed(c, t, rows, out, err);
    }
}

static bool nat_has_low_cardinality(const ty_type *t, unsigned depth) {
    MU_ASSERT(depth <= TY_TYPE_DEPTH_MAX + 1);
    return t->kind == TY_LOW_CARDINALITY ||
           (t->child && nat_has_low_cardinality(t->child, depth + 1)) ||
           (t->child2 && nat_has_low_cardinality(t->child2, depth + 1));
}

/* Name, type name (as the client's revision expects it) of one column. */
static int nat_put_column_header(const char *name, const ty_type *type, uint64_t revision,
                                 mu_buf *scratch, mu_buf *out, mu_err *err) {
    if (revision > 0 && revision < NAT_REVISION_LOW_CARDINALITY &&
        nat_has_low_cardinality(type, 1))
        return MU_ERR(err, MU_ENOT_SUPPORTED, "column '%s': LowCardinality for a client of "
                      "revision %llu (before %u)", name, (unsigned long long)revision,
                      NAT_REVISION_LOW_CARDINALITY);
    mu_buf_clear(scratch);
    int rc = bin_put_string(out, name, strlen(name), err);
    if (rc == 0) rc = ty_type_render(type, scratch, err);
    if (rc != 0) return rc;
    size_t bytes = scratch->length_bytes;
    /* Older clients (HTTP without client_protocol_version is revision 0)
     * get DateTime('zone') as plain DateTime, as ClickHouse does. */
    if (revision < NAT_REVISION_TIMEZONE && bytes > 9 && memcmp(scratch->data, "DateTime(", 9) == 0)
        bytes = 8;
    rc = bin_put_string(out, scratch->data, bytes, err);
    if (rc == 0 && revision >= NAT_REVISION_CUSTOM_SERIALIZATION)
        rc = mu_buf_append_u8(out, 0, err);
    return rc;
}

static int nat_begin(fmt_writer *w, const ty_batch *schema, mu_buf *out, mu_err *err) {
    (void)out;
    bin_writer *st = bin_writer_state(w, err);
    if (st == NULL) return MU_ENOMEM;
    if (w->opt.client_protocol_version != 0 && st->revision == 0)
        st->revision = w->opt.client_protocol_version;
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < schema->column_count; i++)
        rc = bin_check_type(schema->columns[i]->type, schema->names[i], 1, err);
    return rc;
}

/* One block per batch with rows; an empty batch writes nothing (so an
 * empty result is an empty body, as from ClickHouse). */
static int nat_rows_write(fmt_writer *w, const ty_batch *batch, mu_buf *out, mu_err *err) {
    static const uint8_t block_info[8] = {1, 0, 2, 0xFF, 0xFF, 0xFF, 0xFF, 0};
    const bin_writer *st = w->state;
    MU_ASSERT(st != NULL);
    nat_rows rows = {batch->selection, 0, ty_batch_visible_rows(batch)};
    if (rows.count == 0) return 0;
    int rc = st->revision > 0 ? mu_buf_append(out, block_info, sizeof(block_info), err) : 0;
    if (rc == 0) rc = mu_buf_append_varint(out, batch->column_count, err);
    if (rc == 0) rc = mu_buf_append_varint(out, rows.count, err);
    mu_buf scratch;
    mu_buf_init(&scratch, 0);
    for (uint32_t i = 0; rc == 0 && i < batch->column_count; i++) {
        const ty_column *c = batch->columns[i];
        rc = nat_put_column_header(batch->names[i], c->type, st->revision, &scratch, out, err);
        if (rc == 0) rc = nat_put_prefixes(c->type, 1, out, err);
        if (rc == 0) rc = nat_put_column(c, &rows, 1, out, err);
    }
    mu_buf_deinit(&scratch);
    return rc;
}

/* Neither family writes totals (ClickHouse leaves them out of both). */
static const fmt__writer_vt rb_writer_vt = {rb_begin, rb_rows, NULL, NULL, bin_writer_destroy};
static const fmt__writer_vt nat_writer_vt = {nat_begin, nat_rows_write, NULL, NULL,
                                             bin_writer_destroy};

const fmt__writer_vt *fmt__writer_binary(fmt_kind kind) {
    if (bin_is_row_binary(kind)) return &rb_writer_vt;
    return kind == FMT_NATIVE ? &nat_writer_vt : NULL;
}

/* ================================================================== */
/* Input: cursor over the pending bytes                                */
/* ================================================================== */

typedef struct bin_cursor {
    const uint8_t *data;
    size_t length_bytes;
    size_t pos;
    size_t need; /* after BIN_MORE: bytes of data needed to go on */
} bin_cursor;

static size_t cur_left(const bin_cursor *c) { return c->length_bytes - c->pos; }

static int cur_more(bin_cursor *c, size_t bytes) {
    c->need = c->pos + bytes;
    return BIN_MORE;
}

static int cur_take(bin_cursor *c, size_t bytes, const uint8_t **out) {
    if (cur_left(c) < bytes) return cur_more(c, bytes);
    *out = c->data != NULL ? c->data + c->pos : (const uint8_t *)"";
    c->pos += bytes;
    return 0;
}

static int cur_u64(bin_cursor *c, uint64_t *v) {
    const uint8_t *p;
    int rc = cur_take(c, 8, &p);
    if (rc == 0) *v = mu_load_u64le(p);
    return rc;
}

static int cur_varint(bin_cursor *c, uint64_t *v, mu_err *err) {
    size_t left = cur_left(c);
    if (left == 0) return cur_more(c, 1);
    size_t used = mu_varint_decode(c->data + c->pos, left, v);
    if (used > 0) {
        c->pos += used;
        return 0;
    }
    bool open = left < MU_VARINT_MAX_BYTES;
    for (size_t i = 0; open && i < left; i++) open = (c->data[c->pos + i] & 0x80) != 0;
    if (open) return cur_more(c, left + 1);
    return MU_ERR(err, MU_EPARSE, "malformed variable-length integer");
}

/* A String (varint length + bytes) of at most max_bytes; on BIN_MORE the
 * cursor is back at its start. */
static int cur_string(bin_cursor *c, size_t max_bytes, const uint8_t **data, size_t *bytes,
                      mu_err *err) {
    size_t start = c->pos;
    uint64_t length;
    int rc = cur_varint(c, &length, err);
    if (rc == 0 && length > max_bytes)
        return MU_ERR(err, MU_ETOO_LARGE, "string of %llu bytes is longer than the limit of "
                      "%zu bytes", (unsigned long long)length, max_bytes);
    if (rc == 0) rc = cur_take(c, (size_t)length, data);
    if (rc == 0) *bytes = (size_t)length;
    if (rc == BIN_MORE) c->pos = start;
    return rc;
}

/* ================================================================== */
/* Input: reader state                                                 */
/* ================================================================== */

typedef enum nat_step_kind {
    NAT_PREFIX,     /* count u64 LowCardinality key versions, each 1 */
    NAT_NULL_MAP,   /* count bytes, 1 = NULL */
    NAT_FIXED,      /* count fixed-width values (also FixedString) */
    NAT_STRING,     /* count varint-prefixed strings */
    NAT_NOTHING,    /* count placeholder bytes of Nothing */
    NAT_OFFSETS,    /* count u64 cumulative end offsets of Array/Map rows */
    NAT_NESTED_END, /* closes count Array/Map rows with the lengths of step `ref` */
    NAT_LC,         /* LowCardinality granules until count rows */
} nat_step_kind;

/* Values of one type going into one column: count in all, done so far. */
typedef struct nat_leaf {
    ty_column *target;
    const ty_type *type;  /* the values' type: no Nullable, no LowCardinality */
    const uint8_t *nulls; /* count flags (1 = NULL) or NULL */
    uint64_t count;
    uint64_t done;
} nat_leaf;

/* One step of decoding a Native column, in stream order. */
typedef struct nat_step {
    nat_step_kind kind;
    int count_from;   /* the step whose `total` is this step's count; -1: the block's rows */
    int ref;          /* leaf: its NULL_MAP step; NESTED_END: its OFFSETS step; else -1 */
    bool started;
    bool lc_nullable; /* LC: key 0 stands for NULL */
    nat_leaf leaf;
    uint64_t total;   /* OFFSETS: the last offset read */
    mu_buf data;      /* NULL_MAP: the flags; OFFSETS: u32 lengths of the rows */
    int lc_phase;     /* LC: 0 flags, 1 key count, 2 keys, 3 row count, 4 indexes */
    unsigned lc_index_bytes;
    uint64_t lc_rows, lc_rows_done;
    ty_column *lc_keys;
    nat_leaf lc_key_leaf;
} nat_step;

typedef enum nat_phase { NAT_AT_BLOCK, NAT_AT_COLUMN, NAT_IN_DATA, NAT_MOVING } nat_phase;

typedef struct bin_reader {
    size_t need_bytes;  /* parse again once pending holds this many bytes */
    bool failed;        /* an error was returned: no more input is taken */
    mu_buf scratch;
    bool *present;      /* batch column i is in the input (header / block) */
    /* RowBinary */
    bool header_done;
    uint32_t input_count; /* values per row */
    uint32_t *input_map;  /* input value i -> batch column, or FMT__FIELD_SKIP */
    ty_column **skipped;  /* per input value: a scratch column of a skipped one's type */
    /* Native */
    nat_phase phase;
    uint64_t block_number, block_columns, block_rows, column_index, moved;
    uint32_t current;     /* batch column being read, FMT__FIELD_SKIP for an unknown one */
    ty_column *skip_column; /* the unknown column's values, decoded and dropped */
    const char *skip_name;  /* its name (wire_arena) */
    mu_arena *arena;      /* the temp columns' types (the reader's lifetime) */
    mu_arena *wire_arena; /* the current column's type as sent */
    ty_column **temp;     /* per batch column: the current block's rows */
    uint8_t **null_rows;  /* per batch column: bitmap of the block's rows that were NULL
                             and took the default (null_as_default), or NULL */
    uint32_t temp_count;
    nat_step *steps;
    uint32_t step_count, step_capacity, step_index;
} bin_reader;

static void nat_steps_reset(bin_reader *st) {
    for (uint32_t i = 0; i < st->step_count; i++) {
        mu_buf_deinit(&st->steps[i].data);
        ty_column_destroy(st->steps[i].lc_keys);
    }
    st->step_count = 0;
    st->step_index = 0;
}

static void rb_skipped_free(bin_reader *st) {
    for (uint32_t i = 0; st->skipped != NULL && i < st->input_count; i++)
        ty_column_destroy(st->skipped[i]);
    free(st->skipped);
    st->skipped = NULL;
}

static void bin_reader_deinit(fmt_reader *r) {
    bin_reader *st = r->impl;
    if (st == NULL) return;
    nat_steps_reset(st);
    ty_column_destroy(st->skip_column);
    rb_skipped_free(st);
    free(st->steps);
    for (uint32_t i = 0; i < st->temp_count; i++) {
        ty_column_destroy(st->temp[i]);
        free(st->null_rows[i]);
    }
    free(st->temp);
    free(st->null_rows);
    mu_arena_destroy(st->arena);
    mu_arena_destroy(st->wire_arena);
    free(st->present);
    free(st->input_map);
    mu_buf_deinit(&st->scratch);
    free(st);
    r->impl = NULL;
}

/* Native: a private column per batch column, of a copy of its type (a
 * reader outlives the batches it fills). */
static int nat_init(fmt_reader *r, bin_reader *st, mu_err *err) {
    ty_batch *b = r->batch;
    int rc = mu_arena_create(&st->arena, b->tracker, 4096, err);
    if (rc == 0) rc = mu_arena_create(&st->wire_arena, b->tracker, 4096, err);
    if (rc != 0) return rc;
    st->temp = calloc(b->column_count, sizeof(ty_column *));
    st->null_rows = calloc(b->column_count, sizeof(uint8_t *));
    if (st->temp == NULL || st->null_rows == NULL)
        return MU_ERR(err, MU_ENOMEM, "out of memory for a Native reader");
    st->temp_count = b->column_count;
    for (uint32_t i = 0; rc == 0 && i < b->column_count; i++) {
        const ty_type *type;
        rc = bin_check_type(b->columns[i]->type, b->names[i], 1, err);
        if (rc == 0) rc = ty_type_clone(b->columns[i]->type, st->arena, &type, err);
        if (rc == 0) rc = ty_column_create(type, b->tracker, &st->temp[i], err);
    }
    return rc;
}

static int bin_reader_setup(fmt_reader *r, mu_err *err) {
    ty_batch *b = r->batch;
    bin_reader *st = calloc(1, sizeof(*st));
    if (st == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for a %s reader",
                                  fmt_name(r->kind));
    r->impl = st;
    mu_buf_init(&st->scratch, 0);
    st->present = calloc(b->column_count, sizeof(bool));
    if (st->present == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for a reader");
    if (r->kind == FMT_NATIVE) return nat_init(r, st, err);
    int rc = mu_arena_create(&st->wire_arena, b->tracker, 4096, err); /* header types */
    for (uint32_t i = 0; rc == 0 && i < b->column_count; i++)
        rc = bin_check_type(b->columns[i]->type, b->names[i], 1, err);
    if (rc != 0 || r->kind != FMT_ROW_BINARY) return rc;
    st->input_map = calloc(b->column_count, sizeof(uint32_t));
    if (st->input_map == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for a reader");
    for (uint32_t i = 0; i < b->column_count; i++) {
        st->input_map[i] = i;
        st->present[i] = true;
    }
    st->input_count = b->column_count;
    st->header_done = true;
    return 0;
}

/* On failure nothing stays allocated (callers do not deinit a reader
 * whose init failed). */
static int bin_reader_init(fmt_reader *r, mu_err *err) {
    int rc = bin_reader_setup(r, err);
    if (rc != 0) bin_reader_deinit(r);
    return rc;
}

static int bin_batch_column(const ty_batch *b, const uint8_t *name, size_t bytes) {
    for (uint32_t i = 0; i < b->column_count; i++)
        if (strlen(b->names[i]) == bytes && memcmp(b->names[i], name, bytes) == 0) return (int)i;
    return -1;
}

/* Shrinks every column of the batch back to `rows` rows, also dropping
 * Array/Map elements of a row that was begun but not closed. */
static void bin_batch_truncate(ty_batch *b, uint32_t rows) {
    for (uint32_t i = 0; i < b->column_count; i++) ty_column_truncate(b->columns[i], rows);
}

/* ================================================================== */
/* RowBinary input                                                     */
/* ================================================================== */

static int rb_read_value(fmt_reader *r, bin_cursor *cur, ty_column *c, unsigned depth,
                         mu_err *err);

static int rb_read_nested(fmt_reader *r, bin_cursor *cur, ty_column *c, const ty_type *t,
                          unsigned depth, mu_err *err) {
    uint64_t count;
    int rc = cur_varint(cur, &count, err);
    if (rc != 0) return rc;
    /* Every element takes at least one byte, so a count past the record
     * limit can never complete. */
    if (count > r->max_record_bytes || count > UINT32_MAX)
        return MU_ERR(err, MU_ETOO_LARGE, "%s of %llu elements is longer than the limit of "
                      "%zu bytes", t->kind == TY_MAP ? "Map" : "Array",
                      (unsigned long long)count, r->max_record_bytes);
    for (uint64_t i = 0; rc == 0 && i < count; i++) {
        rc = rb_read_value(r, cur, ty_column_child_mut(c, 0), depth + 1, err);
        if (rc == 0 && t->kind == TY_MAP)
            rc = rb_read_value(r, cur, ty_column_child_mut(c, 1), depth + 1, err);
    }
    return rc != 0 ? rc : ty_column_append_nested_end(c, err);
}

/* Reads one value of c's type and appends it; BIN_MORE if the input ends
 * first (the caller then truncates the row away). */
static int rb_read_value(fmt_reader *r, bin_cursor *cur, ty_column *c, unsigned depth,
                         mu_err *err) {
    MU_ASSERT(depth <= TY_TYPE_DEPTH_MAX + 1);
    const ty_type *t = c->type->kind == TY_LOW_CARDINALITY ? c->type->child : c->type;
    const uint8_t *p;
    size_t bytes;
    int rc;
    if (t->kind == TY_NULLABLE) {
        rc = cur_take(cur, 1, &p);
        if (rc != 0) return rc;
        if (p[0] == 1) return ty_column_append_null(c, err);
        if (p[0] != 0) return MU_ERR(err, MU_EPARSE, "NULL marker %u is not 0 or 1", p[0]);
        t = t->child;
    }
    switch (t->kind) {
    case TY_ARRAY:
    case TY_MAP:
        return rb_read_nested(r, cur, c, t, depth, err);
    case TY_STRING:
        rc = cur_string(cur, r->max_record_bytes, &p, &bytes, err);
        return rc != 0 ? rc : ty_column_append_bytes(c, p, bytes, err);
    case TY_NOTHING:
        return MU_ERR(err, MU_EPARSE, "a value of type Nothing cannot be read");
    default:
        rc = cur_take(cur, ty_type_value_bytes(t), &p);
        return rc != 0 ? rc : bin_append_scalar(c, t, p, err);
    }
}

/* One value of an input column the batch lacks: decoded by the header's
 * type into a scratch column and dropped (input_format_skip_unknown_fields).
 * RowBinaryWithNames has no types, so such a column cannot be skipped. */
static int rb_skip_value(fmt_reader *r, bin_reader *st, bin_cursor *cur, uint32_t i,
                         mu_err *err) {
    if (st->skipped == NULL || st->skipped[i] == NULL)
        return MU_ERR(err, MU_ENOT_SUPPORTED, "Cannot skip unknown field in %s format, "
                      "because its type is unknown", fmt_name(r->kind));
    int rc = rb_read_value(r, cur, st->skipped[i], 1, err);
    ty_column_clear(st->skipped[i]);
    return rc;
}

/* One row: the input's values, then defaults for the batch columns the
 * header left out (marked missing). A failed or incomplete row is taken
 * back. */
static int rb_read_row(fmt_reader *r, bin_reader *st, bin_cursor *cur, mu_err *err) {
    ty_batch *b = r->batch;
    uint32_t rows = b->columns[0]->row_count;
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < st->input_count; i++) {
        uint32_t col = st->input_map[i];
        rc = col == FMT__FIELD_SKIP ? rb_skip_value(r, st, cur, i, err)
                                    : rb_read_value(r, cur, b->columns[col], 1, err);
        if (rc < 0 && col != FMT__FIELD_SKIP)
            mu_err_prefix(err, "Cannot parse input (%s): row %llu, column %u '%s'",
                          fmt_name(r->kind), (unsigned long long)r->row_number + 1, i + 1,
                          b->names[col]);
        else if (rc < 0)
            mu_err_prefix(err, "Cannot parse input (%s): row %llu, column %u", fmt_name(r->kind),
                          (unsigned long long)r->row_number + 1, i + 1);
    }
    for (uint32_t col = 0; rc == 0 && col < b->column_count; col++) {
        if (st->present[col]) continue;
        rc = ty_column_append_default(b->columns[col], err);
        if (rc == 0) rc = fmt__mark_missing(r, col, rows, err);
    }
    if (rc != 0) {
        bin_batch_truncate(b, rows);
        fmt__unmark_rows_from(r, rows);
    }
    return rc;
}

static int rb_header_error(fmt_reader *r, int code, mu_err *err, const char *what,
                           const uint8_t *name, size_t bytes) {
    int shown = (int)MU_MIN(bytes, 200);
    return MU_ERR(err, code, "Cannot parse input (%s): %s '%.*s' in the header",
                  fmt_name(r->kind), what, shown, (const char *)name);
}

/* Header name i: its batch column by name (input_format_with_names_use_header),
 * or skipped when unknown (input_format_skip_unknown_fields). */
static int rb_header_name(fmt_reader *r, bin_reader *st, uint32_t i, const uint8_t *name,
                          size_t bytes, mu_err *err) {
    if (r->flags & FMT_READ_HEADER_NAMES_IGNORED) return 0; /* identity, set by the caller */
    int col = bin_batch_column(r->batch, name, bytes);
    if (col < 0 && (r->flags & FMT_READ_UNKNOWN_FIELDS_ERROR))
        return MU_ERR(err, MU_EINCORRECT_DATA, "Unknown field found in format header: '%.*s' "
                      "at position %u\nSet the 'input_format_skip_unknown_fields' parameter "
                      "explicitly to ignore and proceed", (int)MU_MIN(bytes, 200),
                      (const char *)name, i);
    if (col >= 0 && st->present[col])
        return rb_header_error(r, MU_EINCORRECT_DATA, err, "duplicate column", name, bytes);
    if (col >= 0) st->present[col] = true;
    st->input_map[i] = col < 0 ? FMT__FIELD_SKIP : (uint32_t)col;
    return 0;
}

/* Header type i: a known column's must be the batch column's type
 * (input_format_with_types_use_header); a skipped one's is parsed to
 * decode its values. */
static int rb_header_type(fmt_reader *r, bin_reader *st, uint32_t i, const uint8_t *text,
                          size_t bytes, mu_err *err) {
    uint32_t col = st->input_map[i];
    if (col == FMT__FIELD_SKIP) {
        const ty_type *type;
        int rc = ty_type_parse_n((const char *)text, bytes, st->wire_arena, &type, err);
        if (rc == 0) rc = bin_check_type(type, "(skipped)", 1, err);
        if (rc == 0) rc = ty_column_create(type, r->batch->tracker, &st->skipped[i], err);
        if (rc != 0) mu_err_prefix(err, "Cannot parse input (%s): the type of skipped column "
                                   "%u", fmt_name(r->kind), i + 1);
        return rc;
    }
    if (r->flags & FMT_READ_HEADER_TYPES_IGNORED) return 0;
    mu_buf_clear(&st->scratch);
    int rc = ty_type_render(r->batch->columns[col]->type, &st->scratch, err);
    if (rc == 0 && (bytes != st->scratch.length_bytes ||
                    memcmp(text, st->scratch.data, bytes) != 0))
        rc = MU_ERR(err, MU_EINCORRECT_DATA, "Cannot parse input (%s): type of '%s' must be "
                    "%.*s, not %.*s", fmt_name(r->kind), r->batch->names[col],
                    (int)st->scratch.length_bytes, (const char *)st->scratch.data,
                    (int)MU_MIN(bytes, 200), (const char *)text);
    return rc;
}

/* Room for n header entries; with the names ignored the fields are the
 * batch's columns in order. */
static int rb_header_setup(fmt_reader *r, bin_reader *st, uint64_t n, mu_err *err) {
    ty_batch *b = r->batch;
    bool ignored = r->flags & FMT_READ_HEADER_NAMES_IGNORED;
    if (n > TY_BATCH_COLUMNS_MAX || (ignored && n != b->column_count))
        return MU_ERR(err, MU_EINCORRECT_DATA, "Cannot parse input (%s): the header names %llu "
                      "columns, the insert has %u", fmt_name(r->kind), (unsigned long long)n,
                      b->column_count);
    free(st->input_map);
    rb_skipped_free(st);
    st->input_map = calloc(n + 1, sizeof(uint32_t));
    st->skipped = calloc(n + 1, sizeof(ty_column *));
    if (st->input_map == NULL || st->skipped == NULL)
        return MU_ERR(err, MU_ENOMEM, "out of memory for a %s header", fmt_name(r->kind));
    for (uint32_t i = 0; i < b->column_count; i++) st->present[i] = ignored;
    for (uint32_t i = 0; ignored && i < n; i++) st->input_map[i] = i;
    st->input_count = (uint32_t)n;
    return 0;
}

/* The WithNames header: varint N, N names, and for WithNamesAndTypes N
 * type names. A header cut by the end of the pending bytes is BIN_MORE
 * (read again from its start once more bytes came). */
static int rb_read_header(fmt_reader *r, bin_reader *st, bin_cursor *cur, mu_err *err) {
    uint64_t n = 0;
    const uint8_t *p = NULL;
    size_t bytes = 0;
    int rc = cur_varint(cur, &n, err);
    if (rc == 0) rc = rb_header_setup(r, st, n, err);
    for (uint32_t i = 0; rc == 0 && i < n; i++) {
        rc = cur_string(cur, TY_COLUMN_NAME_BYTES_MAX, &p, &bytes, err);
        if (rc == 0) rc = rb_header_name(r, st, i, p, bytes, err);
    }
    for (uint32_t i = 0; rc == 0 && i < n && r->kind == FMT_ROW_BINARY_WITH_NAMES_AND_TYPES;
         i++) {
        rc = cur_string(cur, TY_TYPE_NAME_BYTES_MAX, &p, &bytes, err);
        if (rc == 0) rc = rb_header_type(r, st, i, p, bytes, err);
    }
    if (rc == 0) {
        st->header_done = true;
        return 0;
    }
    rb_skipped_free(st); /* their types live in wire_arena */
    mu_arena_reset(st->wire_arena);
    return rc;
}

static int rb_incomplete(fmt_reader *r, size_t bytes, mu_err *err) {
    return MU_ERR(err, MU_EPARSE, "Cannot parse input (%s): the input ends inside row %llu "
                  "(%zu bytes of it)", fmt_name(r->kind), (unsigned long long)r->row_number + 1,
                  bytes);
}

/* Parses the header and every complete row of the pending bytes. */
static int rb_drain(fmt_reader *r, bin_reader *st, bool final, mu_err *err) {
    if (!final && r->pending.length_bytes < st->need_bytes) return 0;
    bin_cursor cur = {r->pending.data, r->pending.length_bytes, 0, 0};
    size_t start = 0;
    int rc = 0;
    if (!st->header_done && cur_left(&cur) > 0) rc = rb_read_header(r, st, &cur, err);
    if (rc == 0 && cur.pos > r->max_record_bytes)
        return MU_ERR(err, MU_ETOO_LARGE, "Cannot parse input (%s): the header is longer than "
                      "%zu bytes", fmt_name(r->kind), r->max_record_bytes);
    while (rc == 0 && st->header_done && cur_left(&cur) > 0) {
        if (r->batch->columns[0]->row_count >= TY_BATCH_ROWS_MAX) {
            rc = 1;
            break;
        }
        if (st->input_count == 0)
            return MU_ERR(err, MU_EPARSE, "Cannot parse input (%s): data after a header of no "
                          "columns", fmt_name(r->kind));
        start = cur.pos;
        rc = rb_read_row(r, st, &cur, err);
        if (rc == 0 && cur.pos - start > r->max_record_bytes) {
            uint32_t rows = r->batch->columns[0]->row_count - 1;
            bin_batch_truncate(r->batch, rows);
            fmt__unmark_rows_from(r, rows);
            cur.need = cur.pos; /* the same error as when the row comes in pieces */
            rc = BIN_MORE;
        }
        if (rc == 0) r->row_number++;
        /* RowBinary cannot find the next row after a bad one: the error
         * stands, with ClickHouse's note if errors were allowed. */
        bool skipped = rc < 0 && fmt__skip_row(r, rc, err);
        MU_ASSERT(!skipped);
    }
    if (rc == BIN_MORE) {
        if (cur.need - start > r->max_record_bytes && st->header_done)
            return MU_ERR(err, MU_ETOO_LARGE, "Cannot parse input (%s): row %llu is longer than "
                          "%zu bytes", fmt_name(r->kind), (unsigned long long)r->row_number + 1,
                          r->max_record_bytes);
        if (cur.need - start > r->max_record_bytes)
            return MU_ERR(err, MU_ETOO_LARGE, "Cannot parse input (%s): the header is longer "
                          "than %zu bytes", fmt_name(r->kind), r->max_record_bytes);
        st->need_bytes = cur.need - start;
        cur.pos = start;
        rc = 0;
    } else {
        st->need_bytes = 0;
    }
    if (rc < 0) return rc;
    mu_buf_consume(&r->pending, cur.pos);
    if (final && rc == 0 && r->pending.length_bytes > 0) {
        rc = rb_incomplete(r, r->pending.length_bytes, err);
        bool skipped = st->header_done && fmt__skip_row(r, rc, err); /* only the note */
        MU_ASSERT(!skipped);
    }
    return rc;
}

/* ================================================================== */
/* Native input: the decoding plan of one column                       */
/* ================================================================== */

static int nat_step_push(bin_reader *st, nat_step_kind kind, int count_from, int ref,
                         ty_column *target, const ty_type *type, int *index_out, mu_err *err) {
    if (st->step_count == st->step_capacity) {
        uint32_t capacity = st->step_capacity ? st->step_capacity * 2 : 16;
        nat_step *steps = realloc(st->steps, capacity * sizeof(nat_step));
        if (steps == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for a Native reader");
        st->steps = steps;
        st->step_capacity = capacity;
    }
    nat_step *s = &st->steps[st->step_count];
    memset(s, 0, sizeof(*s));
    s->kind = kind;
    s->count_from = count_from;
    s->ref = ref;
    s->leaf.target = target;
    s->leaf.type = type;
    mu_buf_init(&s->data, 0);
    if (index_out) *index_out = (int)st->step_count;
    st->step_count++;
    return 0;
}

/* Whether values of wire type w read into a column of value type t:
 * equal types, except that DateTime zones may differ (the seconds are the
 * same instant). Array and Map elements are checked by the caller. */
static bool nat_types_fit(const ty_type *w, const ty_type *t) {
    if (w->kind != t->kind) return false;
    switch (w->kind) {
    case TY_ARRAY:
    case TY_MAP:
    case TY_DATETIME:
        return true;
    case TY_DATETIME64:
        return w->precision == t->precision;
    default:
        return ty_type_equal(w, t);
    }
}

static int nat_mismatch(const ty_type *wire, const ty_type *target, mu_err *err) {
    char a[128], b[128];
    return MU_ERR(err, MU_ETYPE, "values of type %s cannot be read into a column of type %s",
                  ty_type_name(wire, a, sizeof(a)), ty_type_name(target, b, sizeof(b)));
}

static int nat_leaf_kind(const ty_type *t) {
    if (t->kind == TY_STRING) return NAT_STRING;
    return t->kind == TY_NOTHING ? NAT_NOTHING : NAT_FIXED;
}

/* Wire LowCardinality(T) into a column whose values are of type tv. The
 * keys decode into a column of the target's dictionary type when the
 * target is LowCardinality too (then indexes can be appended in bulk). */
static int nat_plan_low_cardinality(bin_reader *st, const ty_type *wire, ty_column *target,
                                    const ty_type *tv, int count_from, mu_err *err) {
    const ty_type *inner = ty_type_strip_nullable(wire->child);
    if (!nat_types_fit(inner, tv) || tv->kind == TY_ARRAY || tv->kind == TY_MAP)
        return nat_mismatch(wire, target->type, err);
    int index;
    int rc = nat_step_push(st, NAT_LC, count_from, -1, target, tv, &index, err);
    if (rc != 0) return rc;
    nat_step *s = &st->steps[index];
    s->lc_nullable = wire->child->kind == TY_NULLABLE;
    const ty_type *key_type = target->type->kind == TY_LOW_CARDINALITY
                                  ? ty_column_child(target, 0)->type : tv;
    return ty_column_create(key_type, target->tracker, &s->lc_keys, err);
}

/* Appends the steps that read wire type `wire` into `target`. */
static int nat_plan(bin_reader *st, const ty_type *wire, ty_column *target, int count_from,
                    unsigned depth, mu_err *err) {
    MU_ASSERT(depth <= TY_TYPE_DEPTH_MAX + 1);
    const ty_type *tv = bin_value_type(target->type);
    if (wire->kind == TY_LOW_CARDINALITY)
        return nat_plan_low_cardinality(st, wire, target, tv, count_from, err);
    int nulls = -1, rc = 0;
    if (wire->kind == TY_NULLABLE) {
        rc = nat_step_push(st, NAT_NULL_MAP, count_from, -1, NULL, NULL, &nulls, err);
        wire = wire->child;
    }
    if (rc != 0) return rc;
    if (!nat_types_fit(wire, tv)) return nat_mismatch(wire, target->type, err);
    if (wire->kind != TY_ARRAY && wire->kind != TY_MAP)
        return nat_step_push(st, nat_leaf_kind(tv), count_from, nulls, target, tv, NULL, err);
    int offsets;
    rc = nat_step_push(st, NAT_OFFSETS, count_from, -1, target, tv, &offsets, err);
    if (rc == 0) rc = nat_plan(st, wire->child, ty_column_child_mut(target, 0), offsets,
                               depth + 1, err);
    if (rc == 0 && wire->kind == TY_MAP)
        rc = nat_plan(st, wire->child2, ty_column_child_mut(target, 1), offsets, depth + 1, err);
    if (rc == 0) rc = nat_step_push(st, NAT_NESTED_END, count_from, offsets, target, tv, NULL,
                                    err);
    return rc;
}

static uint32_t nat_count_low_cardinality(const ty_type *t, unsigned depth) {
    MU_ASSERT(depth <= TY_TYPE_DEPTH_MAX + 1);
    if (t->kind == TY_LOW_CARDINALITY) return 1;
    return (t->child ? nat_count_low_cardinality(t->child, depth + 1) : 0) +
           (t->child2 ? nat_count_low_cardinality(t->child2, depth + 1) : 0);
}

static int nat_plan_column(bin_reader *st, const ty_type *wire, ty_column *target,
                           mu_err *err) {
    nat_steps_reset(st);
    uint32_t versions = nat_count_low_cardinality(wire, 1);
    int index, rc = 0;
    if (versions > 0) {
        rc = nat_step_push(st, NAT_PREFIX, -1, -1, NULL, NULL, &index, err);
        if (rc == 0) {
            st->steps[index].leaf.count = versions;
            st->steps[index].started = true;
        }
    }
    return rc != 0 ? rc : nat_plan(st, wire, target, -1, 1, err);
}

/* ================================================================== */
/* Native input: running the steps                                     */
/* ================================================================== */

/* Row `row` of the block's column was a NULL read as the default: marked
 * missing once the block moves into the batch (nat_move), as ClickHouse's
 * insertNullAsDefaultIfNeeded marks it. */
static int nat_null_row(bin_reader *st, uint32_t row, mu_err *err) {
    uint32_t col = st->current;
    if (st->null_rows[col] == NULL) {
        st->null_rows[col] = calloc(st->block_rows / 8 + 1, 1);
        if (st->null_rows[col] == NULL)
            return MU_ERR(err, MU_ENOMEM, "out of memory for a Native block");
    }
    MU_ASSERT(row < st->block_rows);
    st->null_rows[col][row >> 3] |= (uint8_t)(1u << (row & 7));
    return 0;
}

/* A NULL row into `target`: NULL, else the default if
 * input_format_null_as_default (marked missing at the top level), else an
 * error. */
static int nat_append_null(fmt_reader *r, ty_column *target, mu_err *err) {
    if (target->nullable) return ty_column_append_null(target, err);
    if (r->flags & FMT_READ_NULL_AS_DEFAULT) {
        bin_reader *st = r->impl;
        uint32_t row = target->row_count;
        int rc = ty_column_append_default(target, err);
        bool top = st->current != FMT__FIELD_SKIP && target == st->temp[st->current];
        return rc == 0 && top ? nat_null_row(st, row, err) : rc;
    }
    char name[128];
    return MU_ERR(err, MU_EINSERT_NULL, "NULL in a column of type %s",
                  ty_type_name(target->type, name, sizeof(name)));
}

static bool nat_null_at(const nat_leaf *lf, uint64_t i) { return lf->nulls && lf->nulls[i]; }

/* n wire values at p (rows lf->done..) into the leaf's column: checked,
 * UUIDs reordered, runs without NULL appended in bulk. On error *failed
 * is the value at fault. */
static int nat_fixed_values(fmt_reader *r, bin_reader *st, nat_leaf *lf, const uint8_t *p,
                            uint32_t n, size_t width, uint32_t *failed, mu_err *err) {
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < n; i++) {
        if (!nat_null_at(lf, lf->done + i)) rc = bin_check_value(lf->type, p + i * width, err);
        *failed = i;
    }
    if (rc == 0 && lf->type->kind == TY_UUID) {
        mu_buf_clear(&st->scratch);
        rc = mu_buf_reserve(&st->scratch, (size_t)n * width, err);
        for (uint32_t i = 0; rc == 0 && i < n; i++)
            bin_uuid_swap(p + i * width, st->scratch.data + i * width);
        p = st->scratch.data;
    }
    bool bulk = lf->target->type->kind != TY_LOW_CARDINALITY;
    for (uint32_t i = 0; rc == 0 && i < n;) {
        *failed = i;
        if (nat_null_at(lf, lf->done + i)) {
            rc = nat_append_null(r, lf->target, err);
            i++;
            continue;
        }
        uint32_t j = i + 1;
        while (bulk && j < n && !nat_null_at(lf, lf->done + j)) j++;
        rc = bulk ? ty_column_append_fixed_raw(lf->target, p + i * width, j - i, NULL, err)
                  : ty_column_append_value(lf->target, p + i * width, err);
        i = j;
    }
    return rc;
}

static int nat_leaf_fixed(fmt_reader *r, bin_reader *st, nat_leaf *lf, bin_cursor *cur,
                          mu_err *err) {
    size_t width = ty_type_value_bytes(lf->type);
    while (lf->done < lf->count) {
        uint64_t n = MU_MIN(lf->count - lf->done, cur_left(cur) / width);
        n = MU_MIN(n, (uint64_t)BIN_CHUNK_VALUES);
        if (n == 0) return cur_more(cur, width);
        uint32_t failed = 0;
        int rc = nat_fixed_values(r, st, lf, cur->data + cur->pos, (uint32_t)n, width, &failed,
                                  err);
        if (rc != 0) {
            lf->done += failed; /* for the message */
            return rc;
        }
        cur->pos += n * width;
        lf->done += n;
    }
    return 0;
}

static int nat_leaf_strings(fmt_reader *r, nat_leaf *lf, bin_cursor *cur, mu_err *err) {
    while (lf->done < lf->count) {
        const uint8_t *p;
        size_t bytes;
        int rc = cur_string(cur, r->max_record_bytes, &p, &bytes, err);
        if (rc == 0)
            rc = nat_null_at(lf, lf->done) ? nat_append_null(r, lf->target, err)
                                           : ty_column_append_bytes(lf->target, p, bytes, err);
        if (rc != 0) return rc;
        lf->done++;
    }
    return 0;
}

/* Nothing has no values: its placeholder bytes are skipped, each row
 * is NULL or the default. */
static int nat_leaf_nothing(fmt_reader *r, nat_leaf *lf, bin_cursor *cur, mu_err *err) {
    while (lf->done < lf->count) {
        uint64_t n = MU_MIN(lf->count - lf->done, cur_left(cur));
        if (n == 0) return cur_more(cur, 1);
        for (uint64_t i = 0; i < n; i++) {
            int rc = nat_null_at(lf, lf->done) ? nat_append_null(r, lf->target, err)
                                               : ty_column_append_default(lf->target, err);
            if (rc != 0) return rc;
            lf->done++;
            cur->pos++;
        }
    }
    return 0;
}

static int nat_leaf_run(fmt_reader *r, bin_reader *st, nat_leaf *lf, bin_cursor *cur,
                        mu_err *err) {
    switch (nat_leaf_kind(lf->type)) {
    case NAT_STRING:
        return nat_leaf_strings(r, lf, cur, err);
    case NAT_NOTHING:
        return nat_leaf_nothing(r, lf, cur, err);
    default:
        return nat_leaf_fixed(r, st, lf, cur, err);
    }
}

static int nat_null_map(nat_step *s, bin_cursor *cur, mu_err *err) {
    nat_leaf *lf = &s->leaf;
    while (lf->done < lf->count) {
        uint64_t n = MU_MIN(lf->count - lf->done, cur_left(cur));
        if (n == 0) return cur_more(cur, 1);
        const uint8_t *p = cur->data + cur->pos;
        for (uint64_t i = 0; i < n; i++)
            if (p[i] > 1) {
                lf->done += i;
                return MU_ERR(err, MU_EPARSE, "NULL map byte %u is not 0 or 1", p[i]);
            }
        int rc = mu_buf_append(&s->data, p, (size_t)n, err);
        if (rc != 0) return rc;
        cur->pos += n;
        lf->done += n;
    }
    return 0;
}

/* Cumulative end offsets into u32 row lengths; the last one is the
 * element count of the nested steps. */
static int nat_offsets(nat_step *s, bin_cursor *cur, mu_err *err) {
    nat_leaf *lf = &s->leaf;
    while (lf->done < lf->count) {
        uint64_t end;
        int rc = cur_u64(cur, &end);
        if (rc != 0) return rc;
        if (end < s->total)
            return MU_ERR(err, MU_EPARSE, "offset %llu after offset %llu: offsets must not "
                          "decrease", (unsigned long long)end, (unsigned long long)s->total);
        if (end > TY_COLUMN_ROWS_MAX)
            return MU_ERR(err, MU_ETOO_LARGE, "offset %llu: more than %u elements",
                          (unsigned long long)end, TY_COLUMN_ROWS_MAX);
        rc = mu_buf_append_u32le(&s->data, (uint32_t)(end - s->total), err);
        if (rc != 0) return rc;
        s->total = end;
        lf->done++;
    }
    return 0;
}

static int nat_prefix(nat_step *s, bin_cursor *cur, mu_err *err) {
    while (s->leaf.done < s->leaf.count) {
        uint64_t version;
        int rc = cur_u64(cur, &version);
        if (rc != 0) return rc;
        if (version != LC_KEY_VERSION)
            return MU_ERR(err, MU_EPARSE, "LowCardinality key version %llu is not %u",
                          (unsigned long long)version, LC_KEY_VERSION);
        s->leaf.done++;
    }
    return 0;
}

/* The flags and key count that open a LowCardinality granule. */
static int nat_lc_granule_head(nat_step *s, bin_cursor *cur, mu_err *err) {
    uint64_t value;
    int rc = cur_u64(cur, &value);
    if (rc != 0) return rc;
    if (s->lc_phase == 0) {
        uint64_t known = LC_INDEX_WIDTH_MASK | LC_NEED_GLOBAL_DICTIONARY |
                         LC_HAS_ADDITIONAL_KEYS | LC_NEED_UPDATE_DICTIONARY;
        if ((value & ~known) != 0 || (value & LC_INDEX_WIDTH_MASK) > 3)
            return MU_ERR(err, MU_EPARSE, "bad LowCardinality flags 0x%llx",
                          (unsigned long long)value);
        if ((value & LC_NEED_GLOBAL_DICTIONARY) || !(value & LC_HAS_ADDITIONAL_KEYS))
            return MU_ERR(err, MU_ENOT_SUPPORTED, "LowCardinality with a global dictionary "
                          "(flags 0x%llx)", (unsigned long long)value);
        s->lc_index_bytes = 1u << (value & LC_INDEX_WIDTH_MASK);
        s->lc_phase = 1;
        return 0;
    }
    if (value > TY_COLUMN_ROWS_MAX)
        return MU_ERR(err, MU_ETOO_LARGE, "LowCardinality granule of %llu keys",
                      (unsigned long long)value);
    ty_column_clear(s->lc_keys);
    s->lc_key_leaf = (nat_leaf){s->lc_keys, s->lc_keys->type, NULL, value, 0};
    s->lc_phase = 2;
    return 0;
}

static int nat_lc_index(nat_step *s, const uint8_t *p, uint64_t *index, mu_err *err) {
    switch (s->lc_index_bytes) {
    case 1: *index = p[0]; break;
    case 2: *index = mu_load_u16le(p); break;
    case 4: *index = mu_load_u32le(p); break;
    default: *index = mu_load_u64le(p); break;
    }
    if (*index < s->lc_keys->row_count) return 0;
    return MU_ERR(err, MU_EPARSE, "LowCardinality index %llu past the %u keys",
                  (unsigned long long)*index, s->lc_keys->row_count);
}

/* Indexes of the granule: in bulk into a LowCardinality column when no
 * key stands for NULL, else one value at a time. */
static int nat_lc_indexes(fmt_reader *r, nat_step *s, bin_cursor *cur, mu_err *err) {
    ty_column *target = s->leaf.target;
    bool bulk = target->type->kind == TY_LOW_CARDINALITY && !s->lc_nullable &&
                s->lc_index_bytes <= 4;
    while (s->lc_rows_done < s->lc_rows) {
        uint64_t n = MU_MIN(s->lc_rows - s->lc_rows_done, cur_left(cur) / s->lc_index_bytes);
        n = MU_MIN(n, (uint64_t)BIN_CHUNK_VALUES);
        if (n == 0) return cur_more(cur, s->lc_index_bytes);
        const uint8_t *p = cur->data + cur->pos;
        uint64_t index;
        int rc = 0;
        uint64_t i = 0;
        for (; rc == 0 && i < n; i++) {
            rc = nat_lc_index(s, p + i * s->lc_index_bytes, &index, err);
            if (rc != 0 || bulk) continue;
            if (s->lc_nullable && index == 0) {
                rc = nat_append_null(r, target, err);
                continue;
            }
            size_t bytes;
            const uint8_t *value = ty_column_row_bytes(s->lc_keys, (uint32_t)index, &bytes);
            rc = s->lc_keys->type->kind == TY_STRING || s->lc_keys->type->kind == TY_FIXED_STRING
                     ? ty_column_append_bytes(target, value, bytes, err)
                     : ty_column_append_value(target, value, err);
        }
        if (rc != 0) {
            s->lc_rows_done += i - 1; /* for the message */
            return rc;
        }
        if (bulk)
            rc = ty_column_append_lc_raw(target, s->lc_keys, p, s->lc_index_bytes, (uint32_t)n,
                                         NULL, err);
        if (rc != 0) return rc;
        cur->pos += n * s->lc_index_bytes;
        s->lc_rows_done += n;
    }
    return 0;
}

/* LowCardinality granules until the step's rows are read. */
static int nat_low_cardinality(fmt_reader *r, bin_reader *st, nat_step *s, bin_cursor *cur,
                               mu_err *err) {
    int rc = 0;
    while (rc == 0 && s->leaf.done < s->leaf.count) {
        uint64_t rows;
        switch (s->lc_phase) {
        case 0:
        case 1:
            rc = nat_lc_granule_head(s, cur, err);
            break;
        case 2:
            rc = nat_leaf_run(r, st, &s->lc_key_leaf, cur, err);
            if (rc == 0) s->lc_phase = 3;
            break;
        case 3:
            rc = cur_u64(cur, &rows);
            if (rc != 0) break;
            if (rows > s->leaf.count - s->leaf.done)
                return MU_ERR(err, MU_EPARSE, "LowCardinality granule of %llu rows where %llu "
                              "remain", (unsigned long long)rows,
                              (unsigned long long)(s->leaf.count - s->leaf.done));
            s->lc_rows = rows;
            s->lc_rows_done = 0;
            s->lc_phase = 4;
            break;
        default:
            rc = nat_lc_indexes(r, s, cur, err);
            if (rc == 0) {
                s->leaf.done += s->lc_rows;
                s->lc_phase = 0;
            }
            break;
        }
    }
    return rc;
}

static int nat_step_run(fmt_reader *r, bin_reader *st, nat_step *s, bin_cursor *cur,
                        mu_err *err) {
    if (!s->started) {
        s->leaf.count = s->count_from < 0 ? st->block_rows : st->steps[s->count_from].total;
        if (s->ref >= 0 && s->kind != NAT_NESTED_END) s->leaf.nulls = st->steps[s->ref].data.data;
        s->started = true;
    }
    switch (s->kind) {
    case NAT_PREFIX:
        return nat_prefix(s, cur, err);
    case NAT_NULL_MAP:
        return nat_null_map(s, cur, err);
    case NAT_OFFSETS:
        return nat_offsets(s, cur, err);
    case NAT_NESTED_END:
        return ty_column_append_nested_raw(s->leaf.target, st->steps[s->ref].data.data,
                                           (uint32_t)s->leaf.count, err);
    case NAT_LC:
        return nat_low_cardinality(r, st, s, cur, err);
    default:
        return nat_leaf_run(r, st, &s->leaf, cur, err);
    }
}

/* ================================================================== */
/* Native input: blocks                                                */
/* ================================================================== */

static int nat_error(fmt_reader *r, bin_reader *st, int rc, mu_err *err) {
    if (st->phase == NAT_IN_DATA) {
        const nat_step *s = &st->steps[st->step_index];
        const char *name = st->current == FMT__FIELD_SKIP ? st->skip_name
                                                          : r->batch->names[st->current];
        mu_err_prefix(err, "Cannot parse input (Native): block %llu, column '%s', %s %llu",
                      (unsigned long long)st->block_number + 1, name,
                      s->count_from < 0 ? "row" : "element",
                      (unsigned long long)(s->kind == NAT_LC ? s->leaf.done + s->lc_rows_done
                                                             : s->leaf.done) + 1);
    } else {
        mu_err_prefix(err, "Cannot parse input (Native): block %llu",
                      (unsigned long long)st->block_number + 1);
    }
    return rc;
}

static int nat_block_header(fmt_reader *r, bin_reader *st, bin_cursor *cur, mu_err *err) {
    size_t start = cur->pos;
    uint64_t columns, rows;
    int rc = cur_varint(cur, &columns, err);
    if (rc == 0) rc = cur_varint(cur, &rows, err);
    if (rc == BIN_MORE) cur->pos = start;
    if (rc != 0) return rc;
    if (columns > TY_BATCH_COLUMNS_MAX)
        return MU_ERR(err, MU_ETOO_LARGE, "%llu columns, more than %u",
                      (unsigned long long)columns, TY_BATCH_COLUMNS_MAX);
    if (rows > TY_COLUMN_ROWS_MAX)
        return MU_ERR(err, MU_ETOO_LARGE, "%llu rows", (unsigned long long)rows);
    if (columns == 0 && rows > 0)
        return MU_ERR(err, MU_EINCORRECT_DATA, "%llu rows without columns",
                      (unsigned long long)rows);
    st->block_columns = columns;
    st->block_rows = rows;
    st->column_index = 0;
    st->moved = 0;
    memset(st->present, 0, r->batch->column_count * sizeof(bool));
    st->phase = columns > 0 ? NAT_AT_COLUMN : NAT_MOVING;
    return 0;
}

/* A column the batch lacks (input_format_skip_unknown_fields): its data
 * is decoded by its own type into a scratch column and dropped. */
static int nat_unknown_column(fmt_reader *r, bin_reader *st, const uint8_t *name,
                              size_t name_bytes, const ty_type *wire, mu_err *err) {
    int shown = (int)MU_MIN(name_bytes, 200);
    if (r->flags & FMT_READ_UNKNOWN_FIELDS_ERROR)
        return MU_ERR(err, MU_EINCORRECT_DATA, "Unknown column with name %.*s found while "
                      "reading data in Native format", shown, (const char *)name);
    char *copy = mu_arena_alloc(st->wire_arena, name_bytes + 1, err);
    if (copy == NULL) return MU_ENOMEM;
    if (name_bytes > 0) memcpy(copy, name, name_bytes);
    copy[name_bytes] = 0;
    st->skip_name = copy;
    st->current = FMT__FIELD_SKIP;
    int rc = bin_check_type(wire, copy, 1, err);
    if (rc == 0) rc = ty_column_create(wire, r->batch->tracker, &st->skip_column, err);
    if (rc == 0) rc = nat_plan_column(st, wire, st->skip_column, err);
    return rc;
}

/* Name and type of the next column: picks the batch column and plans
 * the decoding of its data. */
static int nat_column_header(fmt_reader *r, bin_reader *st, bin_cursor *cur, mu_err *err) {
    size_t start = cur->pos, name_bytes, type_bytes;
    const uint8_t *name, *type_name;
    int rc = cur_string(cur, MU_MIN(TY_COLUMN_NAME_BYTES_MAX, r->max_record_bytes), &name,
                        &name_bytes, err);
    if (rc == 0)
        rc = cur_string(cur, MU_MIN(TY_TYPE_NAME_BYTES_MAX, r->max_record_bytes), &type_name,
                        &type_bytes, err);
    if (rc == BIN_MORE) cur->pos = start;
    if (rc != 0) return rc;
    int col = bin_batch_column(r->batch, name, name_bytes);
    if (col >= 0 && st->present[col])
        return MU_ERR(err, MU_EINCORRECT_DATA, "duplicate column '%.*s'",
                      (int)MU_MIN(name_bytes, 200), (const char *)name);
    ty_column_destroy(st->skip_column);
    st->skip_column = NULL;
    mu_arena_reset(st->wire_arena);
    const ty_type *wire;
    rc = ty_type_parse_n((const char *)type_name, type_bytes, st->wire_arena, &wire, err);
    if (rc == 0 && col < 0) {
        rc = nat_unknown_column(r, st, name, name_bytes, wire, err);
    } else if (rc == 0) {
        st->present[col] = true;
        st->current = (uint32_t)col;
        rc = bin_check_type(wire, r->batch->names[col], 1, err);
        if (rc == 0) rc = nat_plan_column(st, wire, st->temp[col], err);
    }
    if (rc != 0) {
        mu_err_prefix(err, "column '%.*s'", (int)MU_MIN(name_bytes, 200), (const char *)name);
        return rc;
    }
    st->phase = st->block_rows > 0 ? NAT_IN_DATA : NAT_AT_COLUMN;
    if (st->block_rows == 0 && ++st->column_index == st->block_columns) st->phase = NAT_MOVING;
    return 0;
}

static int nat_column_data(fmt_reader *r, bin_reader *st, bin_cursor *cur, mu_err *err) {
    while (st->step_index < st->step_count) {
        int rc = nat_step_run(r, st, &st->steps[st->step_index], cur, err);
        if (rc != 0) return rc;
        st->step_index++;
    }
    const ty_column *read = st->current == FMT__FIELD_SKIP ? st->skip_column
                                                           : st->temp[st->current];
    MU_ASSERT(read->row_count == st->block_rows);
    nat_steps_reset(st);
    ty_column_destroy(st->skip_column); /* an unknown column's values are dropped */
    st->skip_column = NULL;
    st->phase = ++st->column_index < st->block_columns ? NAT_AT_COLUMN : NAT_MOVING;
    return 0;
}

/* Moves the decoded block into the batch (defaults for the columns the
 * block lacks); 1 when the batch is full first. */
static int nat_move(fmt_reader *r, bin_reader *st, mu_err *err) {
    ty_batch *b = r->batch;
    while (st->moved < st->block_rows) {
        uint32_t have = b->columns[0]->row_count;
        if (have >= TY_BATCH_ROWS_MAX) return 1;
        uint32_t n = (uint32_t)MU_MIN((uint64_t)(TY_BATCH_ROWS_MAX - have),
                                      st->block_rows - st->moved);
        int rc = 0;
        for (uint32_t i = 0; rc == 0 && i < b->column_count; i++) {
            if (st->present[i]) {
                rc = ty_column_append_rows_from(b->columns[i], st->temp[i], (uint32_t)st->moved,
                                                n, err);
                for (uint32_t k = 0; rc == 0 && st->null_rows[i] != NULL && k < n; k++) {
                    uint64_t row = st->moved + k;
                    if ((st->null_rows[i][row >> 3] >> (row & 7)) & 1)
                        rc = fmt__mark_missing(r, i, have + k, err);
                }
                continue;
            }
            for (uint32_t k = 0; rc == 0 && k < n; k++) {
                rc = ty_column_append_default(b->columns[i], err);
                if (rc == 0) rc = fmt__mark_missing(r, i, have + k, err);
            }
        }
        if (rc != 0) {
            bin_batch_truncate(b, have);
            fmt__unmark_rows_from(r, have);
            return rc;
        }
        st->moved += n;
        r->row_number += n;
    }
    for (uint32_t i = 0; i < b->column_count; i++) {
        ty_column_clear(st->temp[i]);
        free(st->null_rows[i]);
        st->null_rows[i] = NULL;
    }
    st->block_number++;
    st->phase = NAT_AT_BLOCK;
    return 0;
}

/* Parses what the pending bytes hold; BIN_MORE never leaves here. */
static int nat_drain(fmt_reader *r, bin_reader *st, bool final, mu_err *err) {
    if (!final && st->phase != NAT_MOVING && r->pending.length_bytes < st->need_bytes) return 0;
    bin_cursor cur = {r->pending.data, r->pending.length_bytes, 0, 0};
    int rc = 0;
    while (rc == 0) {
        if (st->phase == NAT_MOVING) {
            rc = nat_move(r, st, err);
            continue;
        }
        if (st->phase == NAT_AT_BLOCK && cur_left(&cur) == 0) break;
        if (st->phase == NAT_AT_BLOCK) rc = nat_block_header(r, st, &cur, err);
        else if (st->phase == NAT_AT_COLUMN) rc = nat_column_header(r, st, &cur, err);
        else rc = nat_column_data(r, st, &cur, err);
    }
    if (rc < 0) return nat_error(r, st, rc, err);
    st->need_bytes = rc == BIN_MORE ? cur.need - cur.pos : 0;
    mu_buf_consume(&r->pending, cur.pos);
    if (rc == BIN_MORE) rc = 0;
    if (final && rc == 0 && (st->phase != NAT_AT_BLOCK || r->pending.length_bytes > 0))
        return MU_ERR(err, MU_EPARSE, "Cannot parse input (Native): the input ends inside "
                      "block %llu", (unsigned long long)st->block_number + 1);
    return rc;
}

/* ================================================================== */
/* Reader vtable                                                       */
/* ================================================================== */

static int bin_drain(fmt_reader *r, bool final, mu_err *err) {
    bin_reader *st = r->impl;
    if (st->failed)
        return MU_ERR(err, MU_EINVAL, "the %s reader failed before", fmt_name(r->kind));
    int rc = r->kind == FMT_NATIVE ? nat_drain(r, st, final, err)
                                   : rb_drain(r, st, final, err);
    if (rc < 0) st->failed = true;
    if (rc == 0 && r->batch->columns[0]->row_count >= TY_BATCH_ROWS_MAX) rc = 1;
    MU_ASSERT(rc <= 1);
    return rc;
}

static int bin_reader_feed(fmt_reader *r, const void *data, size_t length_bytes, mu_err *err) {
    int rc = length_bytes > 0 ? mu_buf_append(&r->pending, data, length_bytes, err) : 0;
    return rc != 0 ? rc : bin_drain(r, false, err);
}

static int bin_reader_finish(fmt_reader *r, mu_err *err) { return bin_drain(r, true, err); }

static const fmt__reader_vt bin_reader_vt = {bin_reader_init, bin_reader_feed,
                                             bin_reader_finish, bin_reader_deinit};

const fmt__reader_vt *fmt__reader_binary(fmt_kind kind) {
    return bin_is_row_binary(kind) || kind == FMT_NATIVE ? &bin_reader_vt : NULL;
}
