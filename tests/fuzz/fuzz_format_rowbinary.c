/* fuzz_format_rowbinary.c: libFuzzer target for the streaming RowBinary
 * readers (src/formats/binary.c) with a fixed schema of every type family.
 * Input: one byte choosing the chunk size, one byte whose bits 0-1 choose
 * RowBinary, RowBinaryWithNames or RowBinaryWithNamesAndTypes (Native:
 * unused) and whose higher bits set the reader options (2 unknown columns
 * refused, 3 header names ignored, 4 header types ignored, 5 NULL not read
 * as default, 6 allowed errors, which only add a note), then the body.
 * Parsing must never crash; a failure must leave every column with the
 * same row count and valid, and no omitted-value mark past the rows;
 * accepted input must write, and the written bytes must read back (default
 * options) to a batch that writes the same bytes.
 * fuzz_format_native.c reuses this file with FUZZ_FORMAT_NATIVE defined.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/formats.h"

static const char *const fuzz_schema[] = {
    "i", "Int64", "s", "Nullable(String)", "f", "Float64", "d", "Date",
    "t", "DateTime('UTC')", "a", "Array(Nullable(String))", "m", "Map(String, Int8)",
    "e", "Enum8('a' = 1, 'b\\'' = 2)", "x", "Decimal(9, 2)", "l", "LowCardinality(String)",
    "ln", "LowCardinality(Nullable(String))", "u", "UUID", "b", "Bool", "fs", "FixedString(3)",
    "aa", "Array(Array(UInt8))", "al", "Array(LowCardinality(String))",
    "t64", "DateTime64(3, 'UTC')", "d32", "Date32", "big", "Decimal(38, 4)",
};
enum { FUZZ_COLS = 19 };

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

static void fuzz_move_rows(ty_batch *all, ty_batch *b) {
    mu_err err;
    for (uint32_t i = 0; i < b->column_count; i++) {
        if (ty_column_append_rows_from(all->columns[i], b->columns[i], 0,
                                       b->columns[i]->row_count, &err) != 0)
            abort();
        ty_column_clear(b->columns[i]);
    }
}

/* Omitted-value marks exist only for rows the batch holds. */
static void fuzz_check_marks(const fmt_reader *r, const ty_batch *b) {
    uint32_t rows = b->columns[0]->row_count;
    for (uint32_t i = 0; i < b->column_count; i++) {
        if (!fmt_reader_column_has_missing(r, i)) continue;
        for (uint32_t k = rows; k < rows + 64 && k < TY_BATCH_ROWS_MAX; k++)
            if (fmt_reader_missing(r, i, k)) abort();
    }
}

static unsigned fuzz_flags_of(uint8_t byte) {
    unsigned flags = (byte & 32) ? 0 : FMT_READ_NULL_AS_DEFAULT;
    if (byte & 4) flags |= FMT_READ_UNKNOWN_FIELDS_ERROR;
    if (byte & 8) flags |= FMT_READ_HEADER_NAMES_IGNORED;
    if (byte & 16) flags |= FMT_READ_HEADER_TYPES_IGNORED;
    return flags;
}

/* Parses data in chunks of `chunk` bytes into `all`, taking the rows out
 * whenever the reader's batch fills; returns the rc. */
static int fuzz_parse(fmt_kind kind, uint8_t options, ty_batch *all, const uint8_t *data,
                      size_t size, size_t chunk) {
    ty_batch *b = fuzz_batch();
    fmt_reader r;
    mu_err err;
    if (fmt_reader_init(&r, kind, b, fuzz_flags_of(options), 4096, &err) != 0) abort();
    if ((options & 64) && fmt_reader_allow_errors(&r, 10, 0.5, &err) != 0) abort();
    int rc = 0;
    for (size_t at = 0;;) {
        bool final = at >= size;
        if (!final) {
            size_t step = size - at < chunk ? size - at : chunk;
            rc = fmt_reader_feed(&r, data + at, step, &err);
            at += step;
        } else {
            rc = fmt_reader_finish(&r, &err);
        }
        while (rc == 1) {
            fuzz_check_marks(&r, b);
            fuzz_move_rows(all, b);
            fmt_reader_missing_clear(&r);
            rc = final ? fmt_reader_finish(&r, &err) : fmt_reader_feed(&r, NULL, 0, &err);
        }
        if (rc < 0 || final) break;
    }
    fuzz_check_marks(&r, b);
    if (r.rows_skipped != 0) abort(); /* binary readers never skip rows */
    fmt_reader_deinit(&r);
    uint32_t rows = b->columns[0]->row_count;
    for (uint32_t i = 0; i < b->column_count; i++)
        if (b->columns[i]->row_count != rows || ty_column_validate(b->columns[i], &err) != 0)
            abort();
    if (rc == 0) fuzz_move_rows(all, b);
    ty_batch_destroy(b);
    return rc;
}

static void fuzz_write(fmt_kind kind, const ty_batch *b, mu_buf *out) {
    fmt_writer *w;
    mu_err err;
    if (fmt_writer_create(kind, NULL, &w, &err) != 0) abort();
    if (fmt_writer_begin(w, b, out, &err) != 0) abort();
    if (fmt_writer_rows(w, b, out, &err) != 0) abort();
    if (fmt_writer_end(w, NULL, out, &err) != 0) abort();
    fmt_writer_destroy(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2 || size > 1 << 16) return 0;
    size_t chunk = (size_t)data[0] + 1;
#ifdef FUZZ_FORMAT_NATIVE
    fmt_kind kind = FMT_NATIVE;
#else
    static const fmt_kind kinds[] = {FMT_ROW_BINARY, FMT_ROW_BINARY_WITH_NAMES,
                                     FMT_ROW_BINARY_WITH_NAMES_AND_TYPES};
    fmt_kind kind = kinds[(data[1] & 3) % 3];
#endif
    ty_batch *b = fuzz_batch();
    mu_err err;
    if (fuzz_parse(kind, data[1], b, data + 2, size - 2, chunk) != 0) {
        ty_batch_destroy(b);
        return 0;
    }
    if (ty_batch_seal(b, &err) != 0) abort();
    mu_buf first, second;
    mu_buf_init(&first, 0);
    mu_buf_init(&second, 0);
    fuzz_write(kind, b, &first);
    ty_batch *again = fuzz_batch();
    if (fuzz_parse(kind, 0, again, first.data, first.length_bytes, first.length_bytes + 1) != 0)
        abort();
    if (ty_batch_seal(again, &err) != 0 || again->row_count != b->row_count) abort();
    fuzz_write(kind, again, &second);
    if (first.length_bytes != second.length_bytes ||
        (first.length_bytes > 0 && memcmp(first.data, second.data, first.length_bytes) != 0))
        abort();
    mu_buf_deinit(&first);
    mu_buf_deinit(&second);
    ty_batch_destroy(again);
    ty_batch_destroy(b);
    return 0;
}
