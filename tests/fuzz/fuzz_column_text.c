/* fuzz_column_text.c: libFuzzer target for strict text parsing of values
 * (src/types/value_parse.c, column_text.c). Input: a type name, a newline,
 * then the value text. Parsing must never crash; a failed append must
 * leave the column unchanged; an accepted value must render, and the
 * rendering must read back to an equal value (NaN aside).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "types/types.h"

static void fuzz_value(const ty_type *type, const char *text, size_t n) {
    ty_column *c;
    mu_err err;
    mu_buf out;
    if (ty_column_create(type, NULL, &c, &err) != 0) abort();
    if (ty_column_append_text(c, text, n, &err) != 0) {
        if (ty_column_row_count(c) != 0 || ty_column_validate(c, &err) != 0) abort();
        ty_column_destroy(c);
        return;
    }
    if (ty_column_row_count(c) != 1 || ty_column_validate(c, &err) != 0) abort();
    mu_buf_init(&out, 0);
    if (ty_column_render_text(c, 0, 0, &out, &err) != 0) abort();
    /* Top-level String and FixedString render raw; the rest reads back. */
    const ty_type *v = ty_type_strip_nullable(type);
    bool reparse = v->kind != TY_FIXED_STRING &&
                   (out.length_bytes == 0 || memmem(out.data, out.length_bytes, "nan", 3) == NULL);
    if (reparse) {
        if (ty_column_append_text(c, (const char *)out.data, out.length_bytes, &err) != 0) abort();
        if (!ty_column_equal_row(c, 0, c, 1)) abort();
    }
    mu_buf_deinit(&out);
    ty_column_destroy(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const uint8_t *newline = memchr(data, '\n', size);
    if (newline == NULL) return 0;
    mu_arena *arena;
    mu_err err;
    if (mu_arena_create(&arena, NULL, 4096, &err) != 0) abort();
    const ty_type *type;
    size_t name_bytes = (size_t)(newline - data);
    if (ty_type_parse_n((const char *)data, name_bytes, arena, &type, &err) == 0)
        fuzz_value(type, (const char *)newline + 1, size - name_bytes - 1);
    mu_arena_destroy(arena);
    return 0;
}
