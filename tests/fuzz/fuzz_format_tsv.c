/* fuzz_format_tsv.c: libFuzzer target for the streaming TabSeparated
 * reader (src/formats/read.c) with a fixed schema of mixed types. Input:
 * one byte choosing the chunk size, then the format body. Parsing must
 * never crash; a failure must leave every column with the same row count;
 * accepted input must write, and the written text must read back to a
 * batch that writes the same bytes. fuzz_format_csv.c reuses this file
 * with FUZZ_FORMAT_NAME "CSV".
 */
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

/* Parses data in chunks of `chunk` bytes; returns the rc. */
static int fuzz_parse(ty_batch *b, const uint8_t *data, size_t size, size_t chunk) {
    fmt_reader r;
    mu_err err;
    if (fmt_reader_init(&r, fmt_find(FUZZ_FORMAT_NAME), b, 0, 4096, &err) != 0) abort();
    int rc = 0;
    for (size_t at = 0; rc == 0 && at < size; at += chunk) {
        size_t step = size - at < chunk ? size - at : chunk;
        rc = fmt_reader_feed(&r, data + at, step, &err);
    }
    if (rc == 0) rc = fmt_reader_finish(&r, &err);
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
    if (size < 1 || size > 1 << 16) return 0;
    size_t chunk = (size_t)data[0] + 1;
    ty_batch *b = fuzz_batch();
    mu_err err;
    if (fuzz_parse(b, data + 1, size - 1, chunk) != 0) {
        ty_batch_destroy(b);
        return 0;
    }
    if (ty_batch_seal(b, &err) != 0) abort();
    mu_buf first, second;
    mu_buf_init(&first, 0);
    mu_buf_init(&second, 0);
    fuzz_write(b, &first);
    ty_batch *again = fuzz_batch();
    if (fuzz_parse(again, first.data, first.length_bytes, first.length_bytes + 1) != 0) abort();
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
