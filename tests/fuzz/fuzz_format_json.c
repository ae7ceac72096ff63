/* fuzz_format_json.c: libFuzzer target for the streaming JSON readers
 * (src/formats/json_read.c). Input: byte 0 picks the format (bits 0-1:
 * JSONEachRow, JSONStringsEachRow, JSONCompactEachRow, JSONEachRow) and
 * the reader options (bit 2 null as default, bit 3 best-effort DateTime,
 * bit 4 unknown keys refused, bits 5-6 allowed errors: none, 3 rows, ratio
 * 0.5, 1000 rows; bit 7 a row length limit of 64 bytes instead of 4096),
 * byte 1 the chunk size, byte 2 the column count (1..4), then one byte per
 * column picks its type; the rest is the body, fed in chunks. Parsing
 * must never crash; after a failure every column must still be valid with
 * the same row count and no omitted-value mark past the rows;
 * accepted input must write in the same format, and writing what that
 * reads back must reach a fixed point (the first write may normalise, e.g.
 * nan is written as null and read back as 0).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/formats.h"

static const char *const fuzz_types[] = {
    "Int8", "UInt64", "Int64", "Float32", "Float64", "Bool", "String", "Nullable(String)",
    "FixedString(2)", "Date", "Date32", "DateTime('UTC')", "DateTime64(3, 'UTC')", "UUID",
    "Decimal(9, 2)", "Enum8('a' = 1, 'b' = 2)", "LowCardinality(Nullable(String))",
    "Array(Nullable(Int32))", "Map(String, Array(UInt8))", "Nullable(Nothing)",
    "Array(Array(String))", "Map(UInt16, Nullable(Float64))",
};
static const char *const fuzz_names[] = {"a", "b", "c", "d"};
static const fmt_kind fuzz_kinds[] = {FMT_JSON_EACH_ROW, FMT_JSON_STRINGS_EACH_ROW,
                                      FMT_JSON_COMPACT_EACH_ROW};
enum { FUZZ_TYPES = sizeof fuzz_types / sizeof fuzz_types[0], FUZZ_HEAD = 3 };

typedef struct fuzz_setup {
    fmt_kind kind;
    unsigned flags;
    unsigned errors_mode; /* 0 none, 1 num 3, 2 ratio 0.5, 3 num 1000 */
    size_t max_row_bytes;
    size_t chunk;
    unsigned columns;
    unsigned type_index[4];
} fuzz_setup;

static ty_batch *fuzz_batch(const fuzz_setup *s) {
    ty_batch *b;
    mu_err err;
    mu_arena *arena;
    if (ty_batch_create(NULL, &b, &err) != 0) abort();
    if (mu_arena_create(&arena, NULL, 4096, &err) != 0) abort();
    for (unsigned i = 0; i < s->columns; i++) {
        const ty_type *t;
        if (ty_type_parse(fuzz_types[s->type_index[i]], arena, &t, &err) != 0) abort();
        if (ty_batch_add_column(b, fuzz_names[i], t, NULL, &err) != 0) abort();
    }
    mu_arena_destroy(arena);
    return b;
}

/* Omitted-value marks exist only for rows the batch holds. */
static void fuzz_check_marks(const fmt_reader *r, const ty_batch *b) {
    uint32_t rows = b->columns[0]->row_count;
    for (uint32_t i = 0; i < b->column_count; i++) {
        if (!fmt_reader_column_has_missing(r, i)) continue;
        for (uint32_t k = rows; k < rows + 64 && k < TY_BATCH_ROWS_MAX; k++)
            if (fmt_reader_missing(r, i, k)) abort();
    }
    if (r->rows_skipped > r->row_number) abort();
}

/* Parses data in chunks; returns the rc (1: the batch filled up). */
static int fuzz_parse(const fuzz_setup *s, ty_batch *b, unsigned flags, unsigned errors_mode,
                      size_t max_row_bytes, const uint8_t *data, size_t size, size_t chunk) {
    static const uint64_t nums[] = {0, 3, 0, 1000};
    static const double ratios[] = {0, 0, 0.5, 0};
    fmt_reader r;
    mu_err err;
    if (fmt_reader_init(&r, s->kind, b, flags, max_row_bytes, &err) != 0) abort();
    if (fmt_reader_allow_errors(&r, nums[errors_mode], ratios[errors_mode], &err) != 0) abort();
    int rc = 0;
    for (size_t at = 0; rc == 0 && at < size; at += chunk) {
        size_t step = size - at < chunk ? size - at : chunk;
        rc = fmt_reader_feed(&r, data + at, step, &err);
    }
    if (rc == 0) rc = fmt_reader_finish(&r, &err);
    fuzz_check_marks(&r, b);
    fmt_reader_deinit(&r);
    uint32_t rows = b->columns[0]->row_count;
    for (uint32_t i = 0; i < b->column_count; i++)
        if (b->columns[i]->row_count != rows || ty_column_validate(b->columns[i], &err) != 0)
            abort();
    return rc;
}

static void fuzz_write(const fuzz_setup *s, ty_batch *b, mu_buf *out) {
    mu_err err;
    fmt_writer *w;
    if (ty_batch_seal(b, &err) != 0) abort();
    if (fmt_writer_create(s->kind, NULL, &w, &err) != 0) abort();
    if (fmt_writer_begin(w, b, out, &err) != 0 || fmt_writer_rows(w, b, out, &err) != 0 ||
        fmt_writer_end(w, NULL, out, &err) != 0)
        abort();
    fmt_writer_destroy(w);
}

/* Reads `text` back (null as default, one feed, rows up to the default
 * limit: escaping may lengthen them) and writes it again. */
static void fuzz_again(const fuzz_setup *s, const mu_buf *text, uint32_t rows, mu_buf *out) {
    ty_batch *b = fuzz_batch(s);
    if (fuzz_parse(s, b, FMT_READ_NULL_AS_DEFAULT, 0, 0, text->data, text->length_bytes,
                   text->length_bytes + 1) != 0)
        abort();
    if (b->columns[0]->row_count != rows) abort();
    fuzz_write(s, b, out);
    ty_batch_destroy(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < FUZZ_HEAD || size > 1 << 16) return 0;
    fuzz_setup s = {.kind = fuzz_kinds[(data[0] & 3) % 3],
                    .flags = (data[0] & 4) ? FMT_READ_NULL_AS_DEFAULT : 0,
                    .errors_mode = (data[0] >> 5) & 3,
                    .max_row_bytes = (data[0] & 128) ? 64 : 4096,
                    .chunk = (size_t)data[1] + 1,
                    .columns = 1 + (data[2] & 3)};
    if (data[0] & 8) s.flags |= FMT_READ_DATETIME_BEST_EFFORT;
    if (data[0] & 16) s.flags |= FMT_READ_UNKNOWN_FIELDS_ERROR;
    if (size < FUZZ_HEAD + s.columns) return 0;
    for (unsigned i = 0; i < s.columns; i++) s.type_index[i] = data[FUZZ_HEAD + i] % FUZZ_TYPES;
    const uint8_t *body = data + FUZZ_HEAD + s.columns;
    size_t body_size = size - FUZZ_HEAD - s.columns;
    ty_batch *b = fuzz_batch(&s);
    if (fuzz_parse(&s, b, s.flags, s.errors_mode, s.max_row_bytes, body, body_size, s.chunk) !=
        0) {
        ty_batch_destroy(b);
        return 0;
    }
    uint32_t rows = b->columns[0]->row_count;
    mu_buf first, second, third;
    mu_buf_init(&first, 0);
    mu_buf_init(&second, 0);
    mu_buf_init(&third, 0);
    fuzz_write(&s, b, &first);
    fuzz_again(&s, &first, rows, &second);
    fuzz_again(&s, &second, rows, &third);
    if (second.length_bytes != third.length_bytes ||
        (second.length_bytes > 0 && memcmp(second.data, third.data, second.length_bytes) != 0))
        abort();
    mu_buf_deinit(&first);
    mu_buf_deinit(&second);
    mu_buf_deinit(&third);
    ty_batch_destroy(b);
    return 0;
}
