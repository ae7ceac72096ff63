/* fuzz_type_parse.c: libFuzzer target for ClickHouse type names
 * (src/types/type_parse.c). Parsing must never crash, hang or recurse
 * past its depth limit; an accepted name must render to a canonical name
 * that parses to an equal type and renders identically (a fixed point),
 * and a column of the type must work (default row, validation, render,
 * binary round trip).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "types/types.h"

static void fuzz_check_column(const ty_type *type) {
    ty_column *c;
    ty_batch *b = NULL, *decoded = NULL;
    mu_buf text, bytes;
    mu_err err;
    mu_buf_init(&text, 0);
    mu_buf_init(&bytes, 0);
    if (ty_column_create(type, NULL, &c, &err) != 0) abort();
    if (ty_column_append_default(c, &err) != 0 || ty_column_validate(c, &err) != 0) abort();
    if (ty_column_render_text(c, 0, 0, &text, &err) != 0) abort();
    ty_column_destroy(c);
    ty_column *column;
    if (ty_batch_create(NULL, &b, &err) != 0) abort();
    if (ty_batch_add_column(b, "c", type, &column, &err) != 0) abort();
    if (ty_column_append_default(column, &err) != 0 || ty_batch_seal(b, &err) != 0) abort();
    if (ty_batch_encode(b, &bytes, &err) != 0) abort();
    if (ty_batch_decode(bytes.data, bytes.length_bytes, NULL, &decoded, &err) != 0) abort();
    if (!ty_column_equal_row(b->columns[0], 0, decoded->columns[0], 0)) abort();
    ty_batch_destroy(decoded);
    ty_batch_destroy(b);
    mu_buf_deinit(&bytes);
    mu_buf_deinit(&text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    mu_arena *arena;
    mu_err err;
    if (mu_arena_create(&arena, NULL, 4096, &err) != 0) abort();
    const ty_type *type;
    if (ty_type_parse_n((const char *)data, size, arena, &type, &err) == 0) {
        mu_buf first, second;
        mu_buf_init(&first, 0);
        mu_buf_init(&second, 0);
        const ty_type *again;
        if (ty_type_render(type, &first, &err) != 0) abort();
        if (ty_type_parse_n((const char *)first.data, first.length_bytes, arena, &again, &err))
            abort();
        if (!ty_type_equal(type, again)) abort();
        if (ty_type_render(again, &second, &err) != 0) abort();
        if (first.length_bytes != second.length_bytes ||
            memcmp(first.data, second.data, first.length_bytes) != 0)
            abort();
        fuzz_check_column(type);
        mu_buf_deinit(&first);
        mu_buf_deinit(&second);
    }
    mu_arena_destroy(arena);
    return 0;
}
