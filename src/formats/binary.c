/* binary.c: RowBinary* and Native, output and input (being written). */
#include "formats/formats_int.h"

const fmt__writer_vt *fmt__writer_binary(fmt_kind kind) {
    (void)kind;
    return NULL;
}

const fmt__reader_vt *fmt__reader_binary(fmt_kind kind) {
    (void)kind;
    return NULL;
}
