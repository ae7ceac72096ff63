/* fuzz_format_tsv.c: libFuzzer target for the streaming TabSeparated
 * reader (src/formats/read.c) with a fixed schema of mixed types. Input:
 * byte 0 the reader options, byte 1 the chunk size, then the format body.
 * Options (bits of byte 0): 0-1 the variant (plain, WithNames,
 * WithNamesAndTypes, Raw; CSV has no Raw: plain), 2 null_as_default, 3
 * best-effort DateTime (4: US style), 5 unknown header columns refused,
 * 6 header names and types ignored, 7 allowed errors (num 4, ratio 0.25).
 * Parsing must never crash; a failure must leave every column with the
 * same row count and no omitted-value mark past the rows; accepted input
 * must write, and the written text must read back (plain variant, default
 * options) to a batch that writes the same bytes. fuzz_format_csv.c reuses
 * this file with FUZZ_FORMAT_NAME "CSV".
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/formats.h"

#ifndef FUZZ_FORMAT_NAME
#define FUZZ_FORMAT_NAME "TabSeparated"
#endif

static const char *const fuzz_schema[] = {
    "i", "Int64", "s", "Nullable(String)", "f", "Float64", "d", "Date",
    "t", "DateTime('UTC')", "a", "Array(Nullable(String))", "m", "Map(String, Int8)",
    "e", "Enum8('a' = 1, 'b\\'' = 2)", "x", "Decimal(9, 2)", "l", "LowCardinality(String)",
};
enum { FUZZ_COLS = 10 };

static ty_batch *fuzz_batch(void) {
    ty_batch *b;
    mu_err err;
    mu_arena *arena;
    if (ty_batch_create(NULL, &b, &err) != 0) abort();
    if (mu_arena_create(&arena, NULL, 4096, &err) != 0) abort();
    for (unsigned i = 0; i < FUZZ_COLS; i++) {
        const ty_type *t;
        if (ty_type_parse(fuzz_schema[2 * i + 1], arena, &t, &err) != 0) abort();
        if (ty_batch_add_column(b, fuzz_schema[2 * i], t, NULL, &err) != 0) abort();
    }
    mu_arena_destroy(arena);
    return b;
}

typedef struct fuzz_options {
    fmt_kind kind;
    unsigned flags;
    bool allow_errors;
} fuzz_options;

static fuzz_options fuzz_options_of(uint8_t byte) {
    fmt_kind base = fmt_find(FUZZ_FORMAT_NAME);
    bool csv = base == FMT_CSV;
    static const fmt_kind tsv_kinds[] = {FMT_TSV, FMT_TSV_WITH_NAMES, FMT_TSV_WITH_NAMES_AND_TYPES,
                                         FMT_TSV_RAW};
    static const fmt_kind csv_kinds[] = {FMT_CSV, FMT_CSV_WITH_NAMES, FMT_CSV_WITH_NAMES_AND_TYPES,
                                         FMT_CSV};
    fuzz_options o = {.kind = csv ? csv_kinds[byte & 3] : tsv_kinds[byte & 3]};
    if (byte & 4) o.flags |= FMT_READ_NULL_AS_DEFAULT;
    if (byte & 8)
        o.flags |= (byte & 16) ? FMT_READ_DATETIME_BEST_EFFORT_US : FMT_READ_DATETIME_BEST_EFFORT;
    if (byte & 32) o.flags |= FMT_READ_UNKNOWN_FIELDS_ERROR;
    if (byte & 64) o.flags |= FMT_READ_HEADER_NAMES_IGNORED | FMT_READ_HEADER_TYPES_IGNORED;
    o.allow_errors = (byte & 128) != 0;
    return o;
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

/* Parses data in chunks of `chunk` bytes; returns the rc. */
static int fuzz_parse(ty_batch *b, const fuzz_options *o, const uint8_t *data, size_t size,
                      size_t chunk) {
    fmt_reader r;
    mu_err err;
    if (fmt_reader_init(&r, o->kind, b, o->flags, 4096, &err) != 0) abort();
    if (o->allow_errors && fmt_reader_allow_errors(&r, 4, 0.25, &err) != 0) abort();
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

static void fuzz_write(const ty_batch *b, mu_buf *out) {
    mu_err err;
    fmt_kind k = fmt_find(FUZZ_FORMAT_NAME);
    if (fmt_write_rows(k, b, out, &err) != 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2 || size > 1 << 16) return 0;
    fuzz_options o = fuzz_options_of(data[0]);
    size_t chunk = (size_t)data[1] + 1;
    ty_batch *b = fuzz_batch();
    mu_err err;
    if (fuzz_parse(b, &o, data + 2, size - 2, chunk) != 0) {
        ty_batch_destroy(b);
        return 0;
    }
    if (ty_batch_seal(b, &err) != 0) abort();
    mu_buf first, second;
    mu_buf_init(&first, 0);
    mu_buf_init(&second, 0);
    fuzz_write(b, &first);
    ty_batch *again = fuzz_batch();
    fuzz_options plain = {.kind = fmt_find(FUZZ_FORMAT_NAME)};
    if (fuzz_parse(again, &plain, first.data, first.length_bytes, first.length_bytes + 1) != 0)
        abort();
    if (ty_batch_seal(again, &err) != 0 || again->row_count != b->row_count) abort();
    fuzz_write(again, &second);
    if (first.length_bytes != second.length_bytes ||
        (first.length_bytes > 0 && memcmp(first.data, second.data, first.length_bytes) != 0))
        abort();
    mu_buf_deinit(&first);
    mu_buf_deinit(&second);
    ty_batch_destroy(again);
    ty_batch_destroy(b);
    return 0;
}
