/* formats_int.h: declarations shared by the files of src/formats and not
 * part of the public interface (formats.h).
 */
#ifndef MUSCLES_FORMATS_INT_H
#define MUSCLES_FORMATS_INT_H

#include "formats/formats.h"

/* JSONEachRow rows of the batch's visible rows (json_each_row.c);
 * flags: enum ty_render_flags for the values (decimal trailing zeros). */
int fmt__write_json_each_row(const ty_batch *batch, unsigned flags, mu_buf *out, mu_err *err);
/* fmt_write_rows with render flags (writer.c passes the output options). */
int fmt__write_rows_flags(fmt_kind kind, const ty_batch *batch, unsigned flags, mu_buf *out,
                          mu_err *err);

/* escape.c: ClickHouse's TSV escaping and the inside of a JSON string. */
int fmt__tsv_escape(const uint8_t *s, size_t n, mu_buf *out, mu_err *err);
int fmt__json_escape(const uint8_t *s, size_t n, mu_buf *out, mu_err *err);

/* ---- writers: one vtable per family, in its own file ------------------ */

/* The writer object every family shares. state is the family's own. */
struct fmt_writer {
    fmt_kind kind;
    fmt_output_options opt;
    const struct fmt__writer_vt *vt;
    void *state;
    uint64_t rows;           /* rows written so far (fmt_writer_rows) */
    const ty_batch *schema;  /* borrowed from begin until end */
};

typedef struct fmt__writer_vt {
    /* Each may be NULL: nothing to write at that step. */
    int (*begin)(fmt_writer *w, const ty_batch *schema, mu_buf *out, mu_err *err);
    int (*rows)(fmt_writer *w, const ty_batch *batch, mu_buf *out, mu_err *err);
    int (*totals)(fmt_writer *w, const ty_batch *totals, mu_buf *out, mu_err *err);
    int (*end)(fmt_writer *w, const fmt_result_info *info, mu_buf *out, mu_err *err);
    void (*destroy)(fmt_writer *w); /* frees w->state */
} fmt__writer_vt;

/* Returns the family's vtable for kind, or NULL if the family does not
 * write it. Each family file defines one (weakly ordered in writer.c). */
const fmt__writer_vt *fmt__writer_text(fmt_kind kind);    /* TSV, CSV, JSONEachRow (writer.c) */
const fmt__writer_vt *fmt__writer_json(fmt_kind kind);    /* json.c */
const fmt__writer_vt *fmt__writer_pretty(fmt_kind kind);  /* pretty.c: Pretty*, Vertical, Markdown, TSKV, Values, Null */
const fmt__writer_vt *fmt__writer_binary(fmt_kind kind);  /* binary.c: RowBinary*, Native */
const fmt__writer_vt *fmt__writer_arrow(fmt_kind kind);   /* arrow.c: Arrow, ArrowStream */

/* ---- what the readers share (read.c) ----------------------------------- */

/* fmt_reader.input_map: an input field no batch column takes. */
#define FMT__FIELD_SKIP UINT32_MAX

/* ClickHouse's parse errors (isParseError): those a reader may skip. */
bool fmt__is_parse_error(int rc);
/* After row r->row_number + 1 failed with rc (already taken back): true
 * when fmt_reader_allow_errors lets it be dropped (counted in
 * rows_skipped and row_number); false when the error stands (err gets
 * ClickHouse's note when a limit was passed or the kind cannot skip). */
bool fmt__skip_row(fmt_reader *r, int rc, mu_err *err);
/* Marks row `row` of batch column `column` as omitted by the input. */
int fmt__mark_missing(fmt_reader *r, uint32_t column, uint32_t row, mu_err *err);
/* Forgets the marks of rows >= row (a row taken back). */
void fmt__unmark_rows_from(fmt_reader *r, uint32_t row);

/* ---- readers of the kinds after TSV/CSV -------------------------------- */

typedef struct fmt__reader_vt {
    /* r->kind, r->batch, r->flags are set; allocate r->impl. */
    int (*init)(fmt_reader *r, mu_err *err);
    /* As fmt_reader_feed / fmt_reader_finish (returns 0, 1 or MU_E*). */
    int (*feed)(fmt_reader *r, const void *data, size_t length_bytes, mu_err *err);
    int (*finish)(fmt_reader *r, mu_err *err);
    void (*deinit)(fmt_reader *r); /* frees r->impl */
} fmt__reader_vt;

const fmt__reader_vt *fmt__reader_json(fmt_kind kind);    /* json_read.c */
/* json_read.c's parts of fmt_reader_cut / _detach / _resume. */
size_t fmt__json_cut(fmt_kind kind, const uint8_t *p, size_t n);
bool fmt__json_detachable(const fmt_reader *r);
bool fmt__json_at_boundary(const fmt_reader *r);
void fmt__json_reset_scan(fmt_reader *r);
void fmt__json_resume(fmt_reader *r, const fmt_reader *from);
const fmt__reader_vt *fmt__reader_binary(fmt_kind kind);  /* binary.c */

#endif /* MUSCLES_FORMATS_INT_H */
