/* pretty.c: Pretty*, Vertical, Markdown, TSKV, Values, Null output (being written). */
#include "formats/formats_int.h"

const fmt__writer_vt *fmt__writer_pretty(fmt_kind kind) {
    (void)kind;
    return NULL;
}
