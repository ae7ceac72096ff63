/* writer.c: the stateful result writer (fmt_writer_*) over the per-family
 * vtables, and the text family's vtable (TabSeparated, CSV and their
 * header variants, JSONEachRow) built on write.c's stateless functions.
 */
#include "formats/formats_int.h"

#include <stdlib.h>
#include <string.h>

static int text_begin(fmt_writer *w, const ty_batch *schema, mu_buf *out, mu_err *err) {
    return fmt_write_header(w->kind, schema, out, err);
}

static unsigned text_flags(const fmt_writer *w) {
    return w->opt.decimal_trailing_zeros ? TY_RENDER_DECIMAL_TRAILING_ZEROS : 0;
}

static int text_rows(fmt_writer *w, const ty_batch *batch, mu_buf *out, mu_err *err) {
    return fmt__write_rows_flags(w->kind, batch, text_flags(w), out, err);
}

/* Totals after an empty line, without the header lines again (as
 * ClickHouse's TabSeparated and CSV); JSONEachRow leaves them out. */
static int text_totals(fmt_writer *w, const ty_batch *totals, mu_buf *out, mu_err *err) {
    if (w->kind == FMT_JSON_EACH_ROW) return 0;
    fmt_kind plain = w->kind;
    if (plain == FMT_TSV_WITH_NAMES || plain == FMT_TSV_WITH_NAMES_AND_TYPES) plain = FMT_TSV;
    if (plain == FMT_CSV_WITH_NAMES || plain == FMT_CSV_WITH_NAMES_AND_TYPES) plain = FMT_CSV;
    int rc = mu_buf_append_u8(out, '\n', err);
    return rc != 0 ? rc : fmt__write_rows_flags(plain, totals, text_flags(w), out, err);
}

static int text_end(fmt_writer *w, const fmt_result_info *info, mu_buf *out, mu_err *err) {
    (void)info;
    return fmt_write_footer(w->kind, out, err);
}

static const fmt__writer_vt text_vt = {text_begin, text_rows, text_totals, text_end, NULL};

const fmt__writer_vt *fmt__writer_text(fmt_kind kind) {
    return kind >= FMT_TSV && kind <= FMT_JSON_EACH_ROW ? &text_vt : NULL;
}

static const fmt__writer_vt *writer_find(fmt_kind kind) {
    const fmt__writer_vt *vt = fmt__writer_text(kind);
    if (vt == NULL) vt = fmt__writer_json(kind);
    if (vt == NULL) vt = fmt__writer_pretty(kind);
    if (vt == NULL) vt = fmt__writer_binary(kind);
    if (vt == NULL) vt = fmt__writer_arrow(kind);
    return vt;
}

bool fmt_can_write(fmt_kind kind) { return kind > FMT_UNKNOWN && kind < FMT_KIND_COUNT && writer_find(kind); }

const char *fmt_content_type(fmt_kind kind) {
    switch (kind) {
    case FMT_CSV: case FMT_CSV_WITH_NAMES: case FMT_CSV_WITH_NAMES_AND_TYPES:
        return "text/csv; charset=UTF-8; header=absent";
    case FMT_JSON: case FMT_JSON_COMPACT: case FMT_JSON_STRINGS: case FMT_JSON_COLUMNS:
        return "application/json; charset=UTF-8";
    case FMT_JSON_EACH_ROW: case FMT_JSON_COMPACT_EACH_ROW: case FMT_JSON_STRINGS_EACH_ROW:
        return "application/x-ndjson; charset=UTF-8";
    case FMT_ROW_BINARY: case FMT_ROW_BINARY_WITH_NAMES: case FMT_ROW_BINARY_WITH_NAMES_AND_TYPES:
    case FMT_NATIVE:
    case FMT_ARROW: case FMT_ARROW_STREAM: /* ClickHouse's ArrowBlockOutputFormat */
        return "application/octet-stream";
    case FMT_TSV: case FMT_TSV_RAW: case FMT_TSV_WITH_NAMES: case FMT_TSV_WITH_NAMES_AND_TYPES:
    case FMT_TSKV:
        return "text/tab-separated-values; charset=UTF-8";
    default:
        return "text/plain; charset=UTF-8";
    }
}

void fmt_output_options_default(fmt_output_options *opt) {
    MU_ASSERT(opt != NULL);
    memset(opt, 0, sizeof(*opt));
    opt->quote_64bit_integers = true;
    opt->arrow_compression = FMT_ARROW_COMPRESSION_LZ4_FRAME;
    opt->arrow_string_as_string = true;
    opt->arrow_fixed_string_as_fixed_byte_array = true;
    opt->arrow_use_signed_indexes_for_dictionary = true;
    opt->arrow_unsupported_types_as_binary = true;
}

int fmt_writer_create(fmt_kind kind, const fmt_output_options *opt, fmt_writer **out,
                      mu_err *err) {
    if (kind <= FMT_UNKNOWN || kind >= FMT_KIND_COUNT)
        return MU_ERR(err, MU_EINVAL, "unknown output format %d", (int)kind);
    const fmt__writer_vt *vt = writer_find(kind);
    if (vt == NULL)
        return MU_ERR(err, MU_ENOT_SUPPORTED, "output format %s is not supported yet", fmt_name(kind));
    fmt_writer *w = calloc(1, sizeof(*w));
    if (w == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for a %s writer", fmt_name(kind));
    w->kind = kind;
    w->vt = vt;
    if (opt) w->opt = *opt;
    else fmt_output_options_default(&w->opt);
    *out = w;
    return 0;
}

void fmt_writer_destroy(fmt_writer *w) {
    if (w == NULL) return;
    if (w->vt->destroy) w->vt->destroy(w);
    free(w);
}

int fmt_writer_begin(fmt_writer *w, const ty_batch *schema, mu_buf *out, mu_err *err) {
    w->schema = schema;
    return w->vt->begin ? w->vt->begin(w, schema, out, err) : 0;
}

int fmt_writer_rows(fmt_writer *w, const ty_batch *batch, mu_buf *out, mu_err *err) {
    int rc = w->vt->rows ? w->vt->rows(w, batch, out, err) : 0;
    if (rc == 0) w->rows += ty_batch_visible_rows(batch);
    return rc;
}

int fmt_writer_totals(fmt_writer *w, const ty_batch *totals, mu_buf *out, mu_err *err) {
    return w->vt->totals ? w->vt->totals(w, totals, out, err) : 0;
}

int fmt_writer_end(fmt_writer *w, const fmt_result_info *info, mu_buf *out, mu_err *err) {
    fmt_result_info none = {0};
    int rc = w->vt->end ? w->vt->end(w, info ? info : &none, out, err) : 0;
    w->schema = NULL;
    return rc;
}
