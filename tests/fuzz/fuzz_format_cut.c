/* fuzz_format_cut.c: libFuzzer target for parallel parsing's cutting of
 * the input (formats.h: fmt_reader_cut, _detach, _resume, _at_boundary),
 * as sql_insert.c's parser threads use it. Input: byte 0 the kind (TSV,
 * TSVRaw, TSVWithNames, JSONEachRow, JSONCompactEachRow,
 * JSONStringsEachRow) and flags, byte 1 how many bytes the first reader
 * reads serially, byte 2 the window each cut is searched in, then the
 * body. The body is read twice: by one reader from start to end, and the
 * parallel way (the first reader, then cut segments each read by a
 * resumed reader and kept only if the reader ended on a record boundary,
 * else the first reader goes on serially from that segment). Both must
 * agree: the same rows in the same order (written as TSV), the same
 * omitted-value marks, or the same error code at the same row (the text
 * after it quotes the bytes the reader had, which depends on how the
 * input was fed, in serial reads too).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/formats.h"

static const char *const cut_schema[] = {
    "i", "Int64", "s", "Nullable(String)", "f", "Float64", "d", "Date",
    "a", "Array(Int32)", "l", "LowCardinality(String)",
};
enum { CUT_COLS = 6 };

static ty_batch *cut_batch(void) {
    ty_batch *b;
    mu_err err;
    mu_arena *arena;
    if (ty_batch_create(NULL, &b, &err) != 0) abort();
    if (mu_arena_create(&arena, NULL, 4096, &err) != 0) abort();
    for (unsigned i = 0; i < CUT_COLS; i++) {
        const ty_type *t;
        if (ty_type_parse(cut_schema[2 * i + 1], arena, &t, &err) != 0) abort();
        if (ty_batch_add_column(b, cut_schema[2 * i], t, NULL, &err) != 0) abort();
    }
    mu_arena_destroy(arena);
    return b;
}

/* What a read produced: rows as TSV, one mark byte per row and column,
 * the rc and the error message. */
typedef struct cut_result {
    mu_buf rows;
    mu_buf marks;
    int rc;
    char message[MU_ERR_MSG_BYTES];
} cut_result;

/* Moves the reader's rows (and marks) into res; the reader gets a fresh
 * batch. */
static void cut_take(fmt_reader *r, cut_result *res) {
    mu_err err;
    ty_batch *b = r->batch;
    uint32_t rows = b->columns[0]->row_count;
    for (uint32_t c = 0; c < b->column_count; c++)
        if (b->columns[c]->row_count != rows) abort();
    if (ty_batch_seal(b, &err) != 0) abort();
    if (fmt_write_rows(FMT_TSV, b, &res->rows, &err) != 0) abort();
    for (uint32_t row = 0; row < rows; row++)
        for (uint32_t c = 0; c < b->column_count; c++) {
            uint8_t m = fmt_reader_missing(r, c, row) ? 1 : 0;
            if (mu_buf_append(&res->marks, &m, 1, &err) != 0) abort();
        }
    fmt_reader_missing_clear(r);
    ty_batch_destroy(b);
    r->batch = cut_batch();
}

/* Feeds bytes (or, with data NULL and final, finishes), taking full
 * batches out; the rc. */
static int cut_feed(fmt_reader *r, const uint8_t *data, size_t n, bool final, cut_result *res) {
    mu_err err;
    mu_err_clear(&err);
    for (;;) {
        int rc = final ? fmt_reader_finish(r, &err) : fmt_reader_feed(r, data, n, &err);
        data = NULL;
        n = 0;
        if (rc < 0) {
            res->rc = rc;
            memcpy(res->message, err.message, sizeof(res->message));
            return rc;
        }
        cut_take(r, res);
        if (rc == 0) return 0;
    }
}

static void cut_result_init(cut_result *res) {
    mu_buf_init(&res->rows, 0);
    mu_buf_init(&res->marks, 0);
    res->rc = 0;
    res->message[0] = 0;
}

static void cut_result_deinit(cut_result *res) {
    mu_buf_deinit(&res->rows);
    mu_buf_deinit(&res->marks);
}

static void cut_reader_init(fmt_reader *r, fmt_kind kind, unsigned flags) {
    mu_err err;
    if (fmt_reader_init(r, kind, cut_batch(), flags, 4096, &err) != 0) abort();
}

static void cut_reader_deinit(fmt_reader *r) {
    ty_batch_destroy(r->batch);
    r->batch = NULL;
    fmt_reader_deinit(r);
}

static void cut_serial(fmt_kind kind, unsigned flags, const uint8_t *p, size_t n,
                       cut_result *res) {
    fmt_reader r;
    cut_reader_init(&r, kind, flags);
    if (cut_feed(&r, p, n, false, res) == 0) cut_feed(&r, NULL, 0, true, res);
    cut_reader_deinit(&r);
}

/* The parallel way, on one thread; false when the first reader could not
 * be detached (the insert would read serially: nothing to compare). */
static bool cut_parallel(fmt_kind kind, unsigned flags, const uint8_t *p, size_t n,
                         size_t first_bytes, size_t window, cut_result *res) {
    mu_err err;
    fmt_reader first;
    cut_reader_init(&first, kind, flags);
    bool detached = false;
    mu_buf rest;
    mu_buf_init(&rest, 0);
    if (cut_feed(&first, p, first_bytes, false, res) == 0) {
        detached = fmt_reader_detach(&first, &rest, &err);
        if (!detached) {
            cut_reader_deinit(&first);
            mu_buf_deinit(&rest);
            return false;
        }
        if (mu_buf_append(&rest, p + first_bytes, n - first_bytes, &err) != 0) abort();
        size_t at = 0;
        bool serial = false;
        while (!serial && at < rest.length_bytes) {
            size_t have = rest.length_bytes - at;
            size_t cut = fmt_reader_cut(kind, rest.data + at, have < window ? have : window);
            if (cut == 0) break;
            fmt_reader seg;
            cut_reader_init(&seg, kind, flags);
            if (fmt_reader_resume(&seg, &first, &err) != 0) abort();
            cut_result part;
            cut_result_init(&part);
            if (cut_feed(&seg, rest.data + at, cut, false, &part) == 0 &&
                fmt_reader_at_boundary(&seg)) {
                if (mu_buf_append(&res->rows, part.rows.data, part.rows.length_bytes, &err) ||
                    mu_buf_append(&res->marks, part.marks.data, part.marks.length_bytes, &err))
                    abort();
                first.row_number += part.marks.length_bytes / CUT_COLS;
                at += cut;
            } else {
                serial = true;
            }
            cut_result_deinit(&part);
            cut_reader_deinit(&seg);
        }
        const uint8_t *left = at < rest.length_bytes ? rest.data + at : NULL;
        if (cut_feed(&first, left, rest.length_bytes - at, false, res) == 0)
            cut_feed(&first, NULL, 0, true, res);
    }
    cut_reader_deinit(&first);
    mu_buf_deinit(&rest);
    return true;
}

/* The row number an error message names, or -1 (a header error). */
static long long cut_error_row(const char *message) {
    const char *at = strstr(message, ": row ");
    return at != NULL ? atoll(at + 6) : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 3 || size > 1 << 16) return 0;
    static const fmt_kind kinds[] = {FMT_TSV, FMT_TSV_RAW, FMT_TSV_WITH_NAMES,
                                     FMT_JSON_EACH_ROW, FMT_JSON_COMPACT_EACH_ROW,
                                     FMT_JSON_STRINGS_EACH_ROW, FMT_TSV, FMT_JSON_EACH_ROW};
    fmt_kind kind = kinds[data[0] & 7];
    unsigned flags = (data[0] & 8) ? FMT_READ_NULL_AS_DEFAULT : 0;
    if (data[0] & 16) flags |= FMT_READ_UNKNOWN_FIELDS_ERROR;
    const uint8_t *p = data + 3;
    size_t n = size - 3;
    size_t first_bytes = n * data[1] / 255;
    size_t window = (size_t)data[2] + 1;
    cut_result serial, parallel;
    cut_result_init(&serial);
    cut_result_init(&parallel);
    cut_serial(kind, flags, p, n, &serial);
    if (cut_parallel(kind, flags, p, n, first_bytes, window, &parallel)) {
        if (serial.rc != parallel.rc ||
            cut_error_row(serial.message) != cut_error_row(parallel.message))
            abort();
        if (serial.rc == 0 &&
            (serial.rows.length_bytes != parallel.rows.length_bytes ||
             serial.marks.length_bytes != parallel.marks.length_bytes ||
             (serial.rows.length_bytes &&
              memcmp(serial.rows.data, parallel.rows.data, serial.rows.length_bytes) != 0) ||
             (serial.marks.length_bytes &&
              memcmp(serial.marks.data, parallel.marks.data, serial.marks.length_bytes) != 0)))
            abort();
    }
    cut_result_deinit(&serial);
    cut_result_deinit(&parallel);
    return 0;
}
