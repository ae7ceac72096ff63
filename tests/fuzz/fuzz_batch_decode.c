/* fuzz_batch_decode.c: libFuzzer target for the binary batch decoder
 * (src/types/batch_codec.c), which reads WAL record payloads. Decoding
 * must never crash, over-read, leak or allocate beyond what the input can
 * describe; an accepted input must decode to valid columns whose rows all
 * render and copy, and must re-encode to exactly the input bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "types/types.h"

static void fuzz_exercise(const ty_batch *b) {
    mu_buf text;
    mu_err err;
    mu_buf_init(&text, 0);
    for (uint32_t i = 0; i < b->column_count; i++) {
        const ty_column *c = b->columns[i];
        ty_column *copy;
        if (ty_column_validate(c, &err) != 0) abort();
        if (ty_column_create(c->type, NULL, &copy, &err) != 0) abort();
        for (uint32_t r = 0; r < c->row_count; r++) {
            mu_buf_clear(&text);
            if (ty_column_render_text(c, r, TY_RENDER_QUOTED, &text, &err) != 0) abort();
            if (ty_column_append_from(copy, c, r, &err) != 0) abort();
            if (!ty_column_equal_row(c, r, copy, r)) abort();
        }
        ty_column_destroy(copy);
    }
    mu_buf_deinit(&text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ty_batch *b;
    mu_err err;
    if (ty_batch_decode(data, size, NULL, &b, &err) != 0) return 0;
    fuzz_exercise(b);
    mu_buf again;
    mu_buf_init(&again, 0);
    if (ty_batch_encode(b, &again, &err) != 0) abort();
    if (again.length_bytes != size || memcmp(again.data, data, size) != 0) abort();
    mu_buf_deinit(&again);
    ty_batch_destroy(b);
    return 0;
}
