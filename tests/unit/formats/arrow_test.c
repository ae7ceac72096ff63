/* arrow_test.c: goal: Arrow / ArrowStream (src/formats/arrow.c) write the
 * IPC byte structure of the Arrow columnar spec: the file magic, a
 * continuation marker and an 8-aligned metadata length on every message,
 * bodies and messages that are multiples of 8, the EOS marker, a footer
 * whose Blocks point at the messages, an empty result as schema + EOS; the
 * buffers of Nullable, Array, Map, Bool, Date, Decimal and selected rows
 * for small known inputs; lz4_frame and zstd bodies that decompress to the
 * uncompressed buffers; dictionary batches with deltas; and the refusal of
 * types without an Arrow form. The FlatBuffers are read back by a small
 * reader here (independent of arrow_fb.c).
 */
#include "formats_test_util.h"

#include <lz4frame.h>
#include <zstd.h>

/* ------------------------------------------------------------------ */
/* A minimal FlatBuffers reader                                        */
/* ------------------------------------------------------------------ */

typedef struct fbr {
    const uint8_t *p;
    size_t n;
} fbr;

static uint32_t rd_u32(fbr b, size_t at) {
    assert_true(at + 4 <= b.n);
    return mu_load_u32le(b.p + at);
}
static int64_t rd_i64(fbr b, size_t at) {
    assert_true(at + 8 <= b.n);
    return (int64_t)mu_load_u64le(b.p + at);
}
/* Position of field `id` of the table at `table`, or 0 if absent. */
static size_t fb_field(fbr b, size_t table, unsigned id) {
    size_t vtable = table - (size_t)(int32_t)rd_u32(b, table);
    uint16_t vbytes = mu_load_u16le(b.p + vtable);
    if (4 + 2 * id >= vbytes) return 0;
    uint16_t off = mu_load_u16le(b.p + vtable + 4 + 2 * id);
    return off ? table + off : 0;
}
static size_t fb_ref(fbr b, size_t table, unsigned id) { /* offset field -> object */
    size_t at = fb_field(b, table, id);
    assert_true(at != 0);
    return at + rd_u32(b, at);
}
static int64_t fb_int(fbr b, size_t table, unsigned id, unsigned bytes) {
    size_t at = fb_field(b, table, id);
    if (at == 0) return 0;
    return bytes == 1 ? b.p[at] : bytes == 2 ? (int16_t)mu_load_u16le(b.p + at)
         : bytes == 4 ? (int32_t)rd_u32(b, at) : rd_i64(b, at);
}
static size_t fb_root(fbr b) { return rd_u32(b, 0); }
static uint32_t fb_vec_len(fbr b, size_t vec) { return rd_u32(b, vec); }
static size_t fb_vec_ref(fbr b, size_t vec, uint32_t i) { /* element i of a vector of tables */
    size_t at = vec + 4 + (size_t)i * 4;
    return at + rd_u32(b, at);
}
static void fb_expect_string(fbr b, size_t str, const char *want) {
    assert_int_equal(rd_u32(b, str), strlen(want));
    assert_memory_equal(b.p + str + 4, want, strlen(want));
}

/* ------------------------------------------------------------------ */
/* Writing and walking messages                                        */
/* ------------------------------------------------------------------ */

static void at_write(const char *format, const fmt_output_options *opt, ty_batch *const *batches,
                     unsigned count, mu_buf *out) {
    fmt_writer *w;
    mu_err err;
    mu_buf_init(out, 0);
    assert_int_equal(fmt_writer_create(fmt_find(format), opt, &w, &err), 0);
    if (fmt_writer_begin(w, batches[0], out, &err) != 0) fail_msg("%s", err.message);
    for (unsigned i = 0; i < count; i++)
        if (fmt_writer_rows(w, batches[i], out, &err) != 0) fail_msg("%s", err.message);
    assert_int_equal(fmt_writer_end(w, NULL, out, &err), 0);
    fmt_writer_destroy(w);
}

static fmt_output_options at_plain(void) {
    fmt_output_options o;
    fmt_output_options_default(&o);
    o.arrow_compression = FMT_ARROW_COMPRESSION_NONE;
    return o;
}

typedef struct at_msg {
    size_t at;          /* offset of the continuation marker */
    fbr meta;           /* the Message FlatBuffer (padded) */
    size_t header;      /* the header table inside meta */
    uint8_t header_type;
    const uint8_t *body;
    size_t body_bytes;
} at_msg;

/* Reads the message at *pos and moves past it; false at EOS. */
static bool at_next(const mu_buf *s, size_t *pos, at_msg *m) {
    assert_int_equal(*pos % 8, 0);
    assert_true(*pos + 8 <= s->length_bytes);
    assert_int_equal(mu_load_u32le(s->data + *pos), 0xFFFFFFFFu);
    uint32_t len = mu_load_u32le(s->data + *pos + 4);
    if (len == 0) {
        *pos += 8;
        return false;
    }
    assert_int_equal(len % 8, 0);
    m->at = *pos;
    m->meta = (fbr){s->data + *pos + 8, len};
    size_t message = fb_root(m->meta);
    assert_int_equal(fb_int(m->meta, message, 0, 2), 4); /* MetadataVersion V5 */
    m->header_type = (uint8_t)fb_int(m->meta, message, 1, 1);
    m->header = fb_ref(m->meta, message, 2);
    m->body_bytes = (size_t)fb_int(m->meta, message, 3, 8);
    assert_int_equal(m->body_bytes % 8, 0);
    m->body = s->data + *pos + 8 + len;
    *pos += 8 + len + m->body_bytes;
    assert_true(*pos <= s->length_bytes);
    return true;
}

/* Node i (length, null count) and buffer i (offset, length) of a RecordBatch. */
static void at_node(fbr meta, size_t batch, unsigned i, int64_t length, int64_t nulls) {
    size_t vec = fb_ref(meta, batch, 1);
    assert_true(i < fb_vec_len(meta, vec));
    assert_int_equal(rd_i64(meta, vec + 4 + 16 * i), length);
    assert_int_equal(rd_i64(meta, vec + 12 + 16 * i), nulls);
}
static void at_buffer(const at_msg *m, size_t batch, unsigned i, const void *want, size_t n) {
    size_t vec = fb_ref(m->meta, batch, 2);
    assert_true(i < fb_vec_len(m->meta, vec));
    int64_t off = rd_i64(m->meta, vec + 4 + 16 * i), len = rd_i64(m->meta, vec + 12 + 16 * i);
    assert_int_equal(off % 8, 0);
    assert_int_equal(len, n);
    assert_true((size_t)(off + len) <= m->body_bytes);
    if (n) assert_memory_equal(m->body + off, want, n);
}
static uint32_t at_buffer_count(const at_msg *m, size_t batch) {
    return fb_vec_len(m->meta, fb_ref(m->meta, batch, 2));
}

static ty_batch *at_batch1(const char *name, const char *type, const char *const *values,
                           unsigned rows) {
    const char *nt[] = {name, type};
    ty_batch *b = fu_batch(1, nt);
    for (unsigned i = 0; i < rows; i++) fu_row(b, &values[i]);
    return b;
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */
/* ------------------------------------------------------------------ */

static void test_stream_empty_result(void **state) {
    (void)state;
    ty_batch *b = at_batch1("a", "UInt8", NULL, 0);
    fmt_output_options o = at_plain();
    mu_buf s;
    at_write("ArrowStream", &o, &b, 1, &s);
    size_t pos = 0;
    at_msg m;
    assert_true(at_next(&s, &pos, &m));
    assert_int_equal(m.header_type, 1); /* Schema */
    assert_int_equal(m.body_bytes, 0);
    assert_int_equal(fb_int(m.meta, m.header, 0, 2), 0); /* Little */
    size_t fields = fb_ref(m.meta, m.header, 1);
    assert_int_equal(fb_vec_len(m.meta, fields), 1);
    size_t f = fb_vec_ref(m.meta, fields, 0);
    fb_expect_string(m.meta, fb_ref(m.meta, f, 0), "a");
    assert_int_equal(fb_int(m.meta, f, 1, 1), 0);      /* not nullable */
    assert_int_equal(fb_int(m.meta, f, 2, 1), 2);      /* Int */
    size_t t = fb_ref(m.meta, f, 3);
    assert_int_equal(fb_int(m.meta, t, 0, 4), 8);
    assert_int_equal(fb_int(m.meta, t, 1, 1), 0);      /* unsigned */
    assert_false(at_next(&s, &pos, &m));               /* EOS right after */
    assert_int_equal(pos, s.length_bytes);
    mu_buf_deinit(&s);
    ty_batch_destroy(b);
}

/* Footer: version, the schema again, and a Block per record batch that
 * points at its message: offset, 8 + metadata length, body length. */
static void test_file_structure(void **state) {
    (void)state;
    const char *v1[] = {"1", "2"}, *v2[] = {"3"};
    ty_batch *b[2] = {at_batch1("x", "Int64", v1, 2), at_batch1("x", "Int64", v2, 1)};
    fmt_output_options o = at_plain();
    mu_buf f;
    at_write("Arrow", &o, b, 2, &f);
    assert_memory_equal(f.data, "ARROW1\0\0", 8);
    assert_memory_equal(f.data + f.length_bytes - 6, "ARROW1", 6);
    uint32_t footer_bytes = mu_load_u32le(f.data + f.length_bytes - 10);
    size_t footer_at = f.length_bytes - 10 - footer_bytes;
    size_t pos = 8, seen[3];
    at_msg m;
    unsigned n = 0;
    while (at_next(&f, &pos, &m)) seen[n++] = m.at;
    assert_int_equal(n, 3);               /* schema, two record batches */
    assert_int_equal(pos, footer_at);     /* EOS, then the footer */
    fbr ft = {f.data + footer_at, footer_bytes};
    size_t root = fb_root(ft);
    assert_int_equal(fb_int(ft, root, 0, 2), 4);
    assert_int_equal(fb_vec_len(ft, fb_ref(ft, fb_ref(ft, root, 1), 1)), 1); /* schema fields */
    assert_int_equal(fb_vec_len(ft, fb_ref(ft, root, 2)), 0);                /* no dictionaries */
    size_t blocks = fb_ref(ft, root, 3);
    assert_int_equal(fb_vec_len(ft, blocks), 2);
    for (unsigned i = 0; i < 2; i++) {
        size_t blk = blocks + 4 + 24 * i;
        size_t off = (size_t)rd_i64(ft, blk);
        assert_int_equal(off, seen[i + 1]);
        assert_int_equal((uint32_t)rd_u32(ft, blk + 8), 8 + mu_load_u32le(f.data + off + 4));
        size_t p = off;
        assert_true(at_next(&f, &p, &m));
        assert_int_equal(m.header_type, 3);
        assert_int_equal(rd_i64(ft, blk + 16), m.body_bytes);
        assert_int_equal(fb_int(m.meta, m.header, 0, 8), i == 0 ? 2 : 1);
    }
    mu_buf_deinit(&f);
    for (unsigned i = 0; i < 2; i++) ty_batch_destroy(b[i]);
    /* Empty file: schema, EOS, a footer with no blocks. */
    ty_batch *e = at_batch1("x", "String", NULL, 0);
    at_write("Arrow", &o, &e, 1, &f);
    footer_bytes = mu_load_u32le(f.data + f.length_bytes - 10);
    ft = (fbr){f.data + f.length_bytes - 10 - footer_bytes, footer_bytes};
    assert_int_equal(fb_vec_len(ft, fb_ref(ft, fb_root(ft), 3)), 0);
    pos = 8;
    assert_true(at_next(&f, &pos, &m));
    assert_false(at_next(&f, &pos, &m));
    mu_buf_deinit(&f);
    ty_batch_destroy(e);
}

/* The one record batch of a single-column result, body checked by caller. */
static void at_one_batch(const char *type, const char *const *values, unsigned rows,
                         const fmt_output_options *o, mu_buf *s, at_msg *m) {
    ty_batch *b = at_batch1("c", type, values, rows);
    at_write("ArrowStream", o, &b, 1, s);
    size_t pos = 0;
    assert_true(at_next(s, &pos, m));
    assert_true(at_next(s, &pos, m));
    assert_int_equal(m->header_type, 3);
    assert_int_equal(fb_int(m->meta, m->header, 0, 8), rows);
    ty_batch_destroy(b);
}

static void test_nullable_layout(void **state) {
    (void)state;
    const char *v[] = {"1", NULL, "-3"};
    fmt_output_options o = at_plain();
    mu_buf s;
    at_msg m;
    at_one_batch("Nullable(Int32)", v, 3, &o, &s, &m);
    at_node(m.meta, m.header, 0, 3, 1);
    assert_int_equal(at_buffer_count(&m, m.header), 2);
    const uint8_t bits = 0x05;
    const int32_t values[] = {1, 0, -3};
    at_buffer(&m, m.header, 0, &bits, 1);
    at_buffer(&m, m.header, 1, values, sizeof(values));
    assert_int_equal(m.body_bytes, 24);
    mu_buf_deinit(&s);
}

static void test_array_layout(void **state) {
    (void)state;
    const char *v[] = {"['a','bc']", "[]", "['']"};
    fmt_output_options o = at_plain();
    mu_buf s;
    at_msg m;
    at_one_batch("Array(String)", v, 3, &o, &s, &m);
    at_node(m.meta, m.header, 0, 3, 0);
    at_node(m.meta, m.header, 1, 3, 0);
    const int32_t list[] = {0, 2, 2, 3}, strings[] = {0, 1, 3, 3};
    at_buffer(&m, m.header, 0, NULL, 0);                 /* no validity */
    at_buffer(&m, m.header, 1, list, sizeof(list));
    at_buffer(&m, m.header, 2, NULL, 0);
    at_buffer(&m, m.header, 3, strings, sizeof(strings));
    at_buffer(&m, m.header, 4, "abc", 3);
    mu_buf_deinit(&s);
}

/* Map: list offsets, the "entries" struct node, key and value nodes. */
static void test_map_layout(void **state) {
    (void)state;
    const char *v[] = {"{'k':1,'z':NULL}", "{}"};
    fmt_output_options o = at_plain();
    mu_buf s;
    at_msg m;
    at_one_batch("Map(String, Nullable(UInt8))", v, 2, &o, &s, &m);
    at_node(m.meta, m.header, 0, 2, 0);
    at_node(m.meta, m.header, 1, 2, 0); /* entries */
    at_node(m.meta, m.header, 2, 2, 0); /* key */
    at_node(m.meta, m.header, 3, 2, 1); /* value */
    const int32_t offsets[] = {0, 2, 2}, keys[] = {0, 1, 2};
    const uint8_t valid = 0x01, values[] = {1, 0};
    at_buffer(&m, m.header, 1, offsets, sizeof(offsets));
    at_buffer(&m, m.header, 2, NULL, 0);
    at_buffer(&m, m.header, 4, keys, sizeof(keys));
    at_buffer(&m, m.header, 5, "kz", 2);
    at_buffer(&m, m.header, 6, &valid, 1);
    at_buffer(&m, m.header, 7, values, 2);
    assert_int_equal(at_buffer_count(&m, m.header), 8);
    mu_buf_deinit(&s);
}

/* Bool as bits, Date widened to Date32, Decimal(9,2) as Decimal128,
 * DateTime64(1) scaled to milliseconds. */
static void test_converted_values(void **state) {
    (void)state;
    fmt_output_options o = at_plain();
    mu_buf s;
    at_msg m;
    const char *bools[] = {"true", "false", "true", "true"};
    at_one_batch("Bool", bools, 4, &o, &s, &m);
    const uint8_t bits = 0x0D;
    at_buffer(&m, m.header, 1, &bits, 1);
    mu_buf_deinit(&s);
    const char *dates[] = {"1970-01-02", "2149-06-06"};
    at_one_batch("Date", dates, 2, &o, &s, &m);
    const int32_t days[] = {1, 65535};
    at_buffer(&m, m.header, 1, days, sizeof(days));
    mu_buf_deinit(&s);
    const char *decimals[] = {"-1.5"};
    at_one_batch("Decimal(9, 2)", decimals, 1, &o, &s, &m);
    uint8_t want[16];
    memset(want, 0xFF, 16);
    mu_store_u32le(want, (uint32_t)-150);
    at_buffer(&m, m.header, 1, want, 16);
    mu_buf_deinit(&s);
    const char *ticks[] = {"1970-01-01 00:00:01.5"};
    at_one_batch("DateTime64(1)", ticks, 1, &o, &s, &m);
    const int64_t millis = 1500;
    at_buffer(&m, m.header, 1, &millis, 8);
    mu_buf_deinit(&s);
}

static void test_selection(void **state) {
    (void)state;
    const char *v[] = {"a", "b", "c"};
    ty_batch *b = at_batch1("c", "String", v, 3);
    mu_err err;
    const uint32_t rows[] = {2, 0};
    assert_int_equal(ty_batch_set_selection(b, rows, 2, &err), 0);
    fmt_output_options o = at_plain();
    mu_buf s;
    at_write("ArrowStream", &o, &b, 1, &s);
    size_t pos = 0;
    at_msg m;
    assert_true(at_next(&s, &pos, &m));
    assert_true(at_next(&s, &pos, &m));
    assert_int_equal(fb_int(m.meta, m.header, 0, 8), 2);
    const int32_t offsets[] = {0, 1, 2};
    at_buffer(&m, m.header, 1, offsets, sizeof(offsets));
    at_buffer(&m, m.header, 2, "ca", 2);
    mu_buf_deinit(&s);
    ty_batch_destroy(b);
}

/* Each compressed buffer: i64 uncompressed length, then a frame that
 * decompresses to the uncompressed output's buffer. */
static void at_check_compressed(fmt_arrow_compression method) {
    const char *v[] = {"hello", "world", NULL, "hello hello hello hello hello hello"};
    fmt_output_options plain = at_plain(), packed = at_plain();
    packed.arrow_compression = method;
    mu_buf a, c;
    at_msg ma, mc;
    at_one_batch("Nullable(String)", v, 4, &plain, &a, &ma);
    at_one_batch("Nullable(String)", v, 4, &packed, &c, &mc);
    size_t codec = fb_ref(mc.meta, mc.header, 3);
    assert_int_equal(fb_int(mc.meta, codec, 0, 1), method == FMT_ARROW_COMPRESSION_ZSTD);
    size_t va = fb_ref(ma.meta, ma.header, 2), vc = fb_ref(mc.meta, mc.header, 2);
    for (uint32_t i = 0; i < fb_vec_len(ma.meta, va); i++) {
        int64_t ao = rd_i64(ma.meta, va + 4 + 16 * i), al = rd_i64(ma.meta, va + 12 + 16 * i);
        int64_t co = rd_i64(mc.meta, vc + 4 + 16 * i), cl = rd_i64(mc.meta, vc + 12 + 16 * i);
        assert_int_equal(co % 8, 0);
        if (al == 0) {
            assert_int_equal(cl, 0);
            continue;
        }
        assert_int_equal((int64_t)mu_load_u64le(mc.body + co), al);
        uint8_t out[256];
        size_t got = sizeof(out), in = (size_t)cl - 8;
        if (method == FMT_ARROW_COMPRESSION_ZSTD) {
            got = ZSTD_decompress(out, sizeof(out), mc.body + co + 8, in);
            assert_false(ZSTD_isError(got));
        } else {
            LZ4F_dctx *d;
            assert_false(LZ4F_isError(LZ4F_createDecompressionContext(&d, LZ4F_VERSION)));
            assert_false(LZ4F_isError(LZ4F_decompress(d, out, &got, mc.body + co + 8, &in, NULL)));
            LZ4F_freeDecompressionContext(d);
        }
        assert_int_equal(got, al);
        assert_memory_equal(out, ma.body + ao, (size_t)al);
    }
    mu_buf_deinit(&a);
    mu_buf_deinit(&c);
}

static void test_compression(void **state) {
    (void)state;
    at_check_compressed(FMT_ARROW_COMPRESSION_LZ4_FRAME);
    at_check_compressed(FMT_ARROW_COMPRESSION_ZSTD);
}

/* Dictionary mode: the field has a DictionaryEncoding (id 0, Int32); a
 * DictionaryBatch precedes each record batch that adds values, the later
 * ones deltas holding only the new entries. */
static void test_dictionary_deltas(void **state) {
    (void)state;
    const char *v1[] = {"a", "b", "a"}, *v2[] = {"b", "c"};
    ty_batch *b[2] = {at_batch1("d", "LowCardinality(String)", v1, 3),
                      at_batch1("d", "LowCardinality(String)", v2, 2)};
    fmt_output_options o = at_plain();
    o.arrow_low_cardinality_as_dictionary = true;
    mu_buf s;
    at_write("ArrowStream", &o, b, 2, &s);
    size_t pos = 0;
    at_msg m;
    assert_true(at_next(&s, &pos, &m));
    size_t field = fb_vec_ref(m.meta, fb_ref(m.meta, m.header, 1), 0);
    assert_int_equal(fb_int(m.meta, field, 2, 1), 5); /* Utf8 values */
    size_t enc = fb_ref(m.meta, field, 4);
    assert_int_equal(fb_int(m.meta, enc, 0, 8), 0);
    size_t index = fb_ref(m.meta, enc, 1);
    assert_int_equal(fb_int(m.meta, index, 0, 4), 32);
    assert_int_equal(fb_int(m.meta, index, 1, 1), 1);
    const char *entries[2] = {"\0ab", "c"};         /* the default "" first */
    const int32_t first_offsets[] = {0, 0, 1, 2}, delta_offsets[] = {0, 1};
    const int32_t idx1[] = {1, 2, 1}, idx2[] = {2, 3};
    for (unsigned k = 0; k < 2; k++) {
        assert_true(at_next(&s, &pos, &m));
        assert_int_equal(m.header_type, 2); /* DictionaryBatch */
        assert_int_equal(fb_int(m.meta, m.header, 2, 1), k);  /* isDelta */
        size_t data = fb_ref(m.meta, m.header, 1);
        at_buffer(&m, data, 1, k ? delta_offsets : first_offsets, k ? 8 : 16);
        at_buffer(&m, data, 2, entries[k] + (k ? 0 : 1), k ? 1 : 2);
        assert_true(at_next(&s, &pos, &m));
        assert_int_equal(m.header_type, 3);
        at_buffer(&m, m.header, 1, k ? idx2 : idx1, k ? 8 : 12);
    }
    assert_false(at_next(&s, &pos, &m));
    mu_buf_deinit(&s);
    for (unsigned i = 0; i < 2; i++) ty_batch_destroy(b[i]);
}

static void test_uuid_and_timestamp_schema(void **state) {
    (void)state;
    const char *nt[] = {"u", "UUID", "t", "Nullable(DateTime64(6, 'Asia/Tokyo'))"};
    ty_batch *b = fu_batch(2, nt);
    fmt_output_options o = at_plain();
    mu_buf s;
    at_write("ArrowStream", &o, &b, 1, &s);
    size_t pos = 0;
    at_msg m;
    assert_true(at_next(&s, &pos, &m));
    size_t fields = fb_ref(m.meta, m.header, 1);
    size_t u = fb_vec_ref(m.meta, fields, 0), t = fb_vec_ref(m.meta, fields, 1);
    assert_int_equal(fb_int(m.meta, u, 2, 1), 15); /* FixedSizeBinary(16) */
    assert_int_equal(fb_int(m.meta, fb_ref(m.meta, u, 3), 0, 4), 16);
    size_t kv = fb_vec_ref(m.meta, fb_ref(m.meta, u, 6), 0);
    fb_expect_string(m.meta, fb_ref(m.meta, kv, 0), "ARROW:extension:name");
    fb_expect_string(m.meta, fb_ref(m.meta, kv, 1), "arrow.uuid");
    assert_int_equal(fb_int(m.meta, t, 1, 1), 1);  /* nullable */
    assert_int_equal(fb_int(m.meta, t, 2, 1), 10); /* Timestamp */
    size_t ts = fb_ref(m.meta, t, 3);
    assert_int_equal(fb_int(m.meta, ts, 0, 2), 2); /* MICROSECOND */
    fb_expect_string(m.meta, fb_ref(m.meta, ts, 1), "Asia/Tokyo");
    mu_buf_deinit(&s);
    ty_batch_destroy(b);
}

/* Nothing is Binary (all NULL) unless unsupported_types_as_binary is off;
 * AggregateFunction always fails; DateTime64 past Int64 nanoseconds fails. */
static void test_refused_types(void **state) {
    (void)state;
    fmt_writer *w;
    mu_err err;
    mu_buf out;
    mu_buf_init(&out, 0);
    fmt_output_options o = at_plain();
    o.arrow_unsupported_types_as_binary = false;
    ty_batch *n = at_batch1("x", "Nullable(Nothing)", NULL, 0);
    assert_int_equal(fmt_writer_create(FMT_ARROW, &o, &w, &err), 0);
    assert_int_equal(fmt_writer_begin(w, n, &out, &err), MU_EUNKNOWN_TYPE);
    assert_non_null(strstr(err.message, "of a column 'x' is not supported"));
    fmt_writer_destroy(w);
    ty_batch_destroy(n);
    ty_batch *a = at_batch1("st", "AggregateFunction(sum, UInt64)", NULL, 0);
    assert_int_equal(fmt_writer_create(FMT_ARROW_STREAM, NULL, &w, &err), 0);
    assert_int_equal(fmt_writer_begin(w, a, &out, &err), MU_EUNKNOWN_TYPE);
    assert_non_null(strstr(err.message, "AggregateFunction(sum, UInt64)"));
    fmt_writer_destroy(w);
    ty_batch_destroy(a);
    const char *far[] = {"2299-12-31 00:00:00"};
    ty_batch *t = at_batch1("t", "DateTime64(7)", far, 1);
    assert_int_equal(fmt_writer_create(FMT_ARROW_STREAM, NULL, &w, &err), 0);
    assert_int_equal(fmt_writer_begin(w, t, &out, &err), 0);
    assert_int_equal(fmt_writer_rows(w, t, &out, &err), MU_EDECIMAL_OVERFLOW);
    fmt_writer_destroy(w);
    ty_batch_destroy(t);
    mu_buf_deinit(&out);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream_empty_result),
        cmocka_unit_test(test_file_structure),
        cmocka_unit_test(test_nullable_layout),
        cmocka_unit_test(test_array_layout),
        cmocka_unit_test(test_map_layout),
        cmocka_unit_test(test_converted_values),
        cmocka_unit_test(test_selection),
        cmocka_unit_test(test_compression),
        cmocka_unit_test(test_dictionary_deltas),
        cmocka_unit_test(test_uuid_and_timestamp_schema),
        cmocka_unit_test(test_refused_types),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
