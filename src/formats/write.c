/* write.c: format names and the TabSeparated / CSV writers. Each value
 * is rendered by the types module (ty_column_render_text, composite
 * values in their quoted form) and then escaped for the format: TSV
 * escapes \b \f \n \r \t NUL \ and ' in scalars (arrays and maps keep
 * their quoted form as is), Raw escapes nothing, CSV quotes
 * strings, dates, UUIDs, enums and composites with "" doubling and leaves
 * numbers and Bool bare. NULL is \N in both.
 */
#include "formats/formats_int.h"

#include <string.h>

typedef struct fmt_alias {
    const char *name;
    fmt_kind kind;
} fmt_alias;

static const fmt_alias fmt_aliases[] = {
    {"TabSeparated", FMT_TSV},
    {"TSV", FMT_TSV},
    {"TabSeparatedRaw", FMT_TSV_RAW},
    {"TSVRaw", FMT_TSV_RAW},
    {"TabSeparatedWithNames", FMT_TSV_WITH_NAMES},
    {"TSVWithNames", FMT_TSV_WITH_NAMES},
    {"TabSeparatedWithNamesAndTypes", FMT_TSV_WITH_NAMES_AND_TYPES},
    {"TSVWithNamesAndTypes", FMT_TSV_WITH_NAMES_AND_TYPES},
    {"CSV", FMT_CSV},
    {"CSVWithNames", FMT_CSV_WITH_NAMES},
    {"CSVWithNamesAndTypes", FMT_CSV_WITH_NAMES_AND_TYPES},
    {"JSONEachRow", FMT_JSON_EACH_ROW},
    {"JSONLines", FMT_JSON_EACH_ROW},
    {"NDJSON", FMT_JSON_EACH_ROW},
    {"JSON", FMT_JSON},
    {"JSONCompact", FMT_JSON_COMPACT},
    {"JSONStrings", FMT_JSON_STRINGS},
    {"JSONColumns", FMT_JSON_COLUMNS},
    {"JSONCompactEachRow", FMT_JSON_COMPACT_EACH_ROW},
    {"JSONStringsEachRow", FMT_JSON_STRINGS_EACH_ROW},
    {"Pretty", FMT_PRETTY},
    {"PrettyCompact", FMT_PRETTY_COMPACT},
    {"PrettyCompactMonoBlock", FMT_PRETTY_COMPACT_MONO_BLOCK},
    {"PrettySpace", FMT_PRETTY_SPACE},
    {"Vertical", FMT_VERTICAL},
    {"Markdown", FMT_MARKDOWN},
    {"MD", FMT_MARKDOWN},
    {"TSKV", FMT_TSKV},
    {"Values", FMT_VALUES},
    {"Null", FMT_NULL},
    {"RowBinary", FMT_ROW_BINARY},
    {"RowBinaryWithNames", FMT_ROW_BINARY_WITH_NAMES},
    {"RowBinaryWithNamesAndTypes", FMT_ROW_BINARY_WITH_NAMES_AND_TYPES},
    {"Native", FMT_NATIVE},
    {"Arrow", FMT_ARROW},
    {"ArrowStream", FMT_ARROW_STREAM},
};

fmt_kind fmt_find(const char *name) {
    if (name == NULL) return FMT_UNKNOWN;
    for (size_t i = 0; i < sizeof fmt_aliases / sizeof fmt_aliases[0]; i++)
        if (strcmp(fmt_aliases[i].name, name) == 0) return fmt_aliases[i].kind;
    return FMT_UNKNOWN;
}

const char *fmt_name(fmt_kind kind) {
    /* the first alias of each kind is its canonical name */
    for (size_t i = 0; i < sizeof fmt_aliases / sizeof fmt_aliases[0]; i++)
        if (fmt_aliases[i].kind == kind) return fmt_aliases[i].name;
    return "Unknown";
}

bool fmt_can_read(fmt_kind kind) {
    return kind == FMT_TSV || kind == FMT_TSV_RAW || kind == FMT_TSV_WITH_NAMES ||
           kind == FMT_TSV_WITH_NAMES_AND_TYPES || kind == FMT_CSV ||
           kind == FMT_CSV_WITH_NAMES || kind == FMT_CSV_WITH_NAMES_AND_TYPES ||
           fmt__reader_json(kind) != NULL || fmt__reader_binary(kind) != NULL;
}

static bool fmt_is_csv(fmt_kind kind) {
    return kind == FMT_CSV || kind == FMT_CSV_WITH_NAMES || kind == FMT_CSV_WITH_NAMES_AND_TYPES;
}

/* The escape letter of each byte TabSeparated escapes, else 0. */
/* Appends s double-quoted with "" doubling. */
static int fmt_csv_quote(const uint8_t *s, size_t n, mu_buf *out, mu_err *err) {
    int rc = mu_buf_append_u8(out, '"', err);
    size_t from = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (s[i] != '"') continue;
        rc = mu_buf_append(out, s + from, i + 1 - from, err); /* includes the quote */
        if (rc == 0) rc = mu_buf_append_u8(out, '"', err);
        from = i + 1;
    }
    if (rc == 0) rc = mu_buf_append(out, s + from, n - from, err);
    if (rc == 0) rc = mu_buf_append_u8(out, '"', err);
    return rc;
}

/* Numbers and Bool are written bare in CSV; everything else quoted. */
static bool fmt_csv_bare(const ty_type *type) {
    const ty_type *t = ty_type_strip_nullable(type);
    if (t->kind == TY_LOW_CARDINALITY) t = ty_type_strip_nullable(t->child);
    return t->kind <= TY_BOOL || t->kind == TY_DECIMAL;
}

/* Arrays and maps: their quoted text form is written as is in TSV (no
 * escaping on top: ClickHouse's text serialization of composites is the
 * same in TSV and elsewhere; strings inside are already escaped). */
static bool fmt_is_composite(const ty_type *type) {
    const ty_type *t = ty_type_strip_nullable(type);
    return t->kind == TY_ARRAY || t->kind == TY_MAP;
}

/* Types whose text never holds a byte TSV escapes or CSV quotes (digits,
 * signs, '.', '-', ':', ' ', 'e', 'inf', 'nan', hex): rendered straight
 * into the output. */
static bool fmt_text_is_plain(const ty_type *t) {
    return t->kind <= TY_BOOL || (t->kind >= TY_DATE && t->kind <= TY_DECIMAL);
}

static int fmt_write_value(fmt_kind kind, const ty_column *c, uint32_t row, unsigned flags,
                           mu_buf *scratch, mu_buf *out, mu_err *err) {
    if (c->nullable && ty_column_is_null(c, row)) return mu_buf_append(out, "\\N", 2, err);
    /* Speed: the common kinds skip the scratch copy. */
    const ty_type *t = ty_type_strip_nullable(c->type);
    if (fmt_text_is_plain(t) && (!fmt_is_csv(kind) || fmt_csv_bare(t)))
        return ty_column_render_text(c, row, flags, out, err);
    if (t->kind == TY_STRING) {
        size_t n = 0;
        const uint8_t *bytes = ty_column_row_bytes(c, row, &n);
        if (kind == FMT_TSV_RAW) return mu_buf_append(out, bytes, n, err);
        if (!fmt_is_csv(kind)) return fmt__tsv_escape(bytes, n, out, err);
        return fmt_csv_quote(bytes, n, out, err);
    }
    mu_buf_clear(scratch);
    int rc = ty_column_render_text(c, row, flags, scratch, err);
    if (rc != 0) return rc;
    if (kind == FMT_TSV_RAW) return mu_buf_append(out, scratch->data, scratch->length_bytes, err);
    if (!fmt_is_csv(kind) && !fmt_is_composite(c->type))
        return fmt__tsv_escape(scratch->data, scratch->length_bytes, out, err);
    if (!fmt_is_csv(kind)) return mu_buf_append(out, scratch->data, scratch->length_bytes, err);
    if (fmt_csv_bare(c->type))
        return mu_buf_append(out, scratch->data, scratch->length_bytes, err);
    return fmt_csv_quote(scratch->data, scratch->length_bytes, out, err);
}

/* One header line: names (types = false) or type names. */
static int fmt_header_line(fmt_kind kind, const ty_batch *batch, bool types, mu_buf *scratch,
                           mu_buf *out, mu_err *err) {
    bool csv = fmt_is_csv(kind);
    int rc = 0;
    for (uint32_t i = 0; rc == 0 && i < batch->column_count; i++) {
        if (i > 0) rc = mu_buf_append_u8(out, csv ? ',' : '\t', err);
        mu_buf_clear(scratch);
        if (rc == 0 && types) rc = ty_type_render(batch->columns[i]->type, scratch, err);
        if (rc == 0 && !types) rc = mu_buf_append_str(scratch, batch->names[i], err);
        if (rc != 0) break;
        if (csv)
            rc = fmt_csv_quote(scratch->data, scratch->length_bytes, out, err);
        else
            rc = fmt__tsv_escape(scratch->data, scratch->length_bytes, out, err);
    }
    if (rc == 0) rc = mu_buf_append_u8(out, '\n', err);
    return rc;
}

int fmt_write_header(fmt_kind kind, const ty_batch *batch, mu_buf *out, mu_err *err) {
    MU_ASSERT(batch != NULL && out != NULL);
    bool names = kind == FMT_TSV_WITH_NAMES || kind == FMT_TSV_WITH_NAMES_AND_TYPES ||
                 kind == FMT_CSV_WITH_NAMES || kind == FMT_CSV_WITH_NAMES_AND_TYPES;
    bool types = kind == FMT_TSV_WITH_NAMES_AND_TYPES || kind == FMT_CSV_WITH_NAMES_AND_TYPES;
    if (kind <= FMT_UNKNOWN || kind >= FMT_KIND_COUNT)
        return MU_ERR(err, MU_EINVAL, "unknown output format %d", (int)kind);
    if (!names) return 0;
    mu_buf scratch;
    mu_buf_init(&scratch, 0);
    int rc = fmt_header_line(kind, batch, false, &scratch, out, err);
    if (rc == 0 && types) rc = fmt_header_line(kind, batch, true, &scratch, out, err);
    mu_buf_deinit(&scratch);
    return rc;
}


int fmt_write_rows(fmt_kind kind, const ty_batch *batch, mu_buf *out, mu_err *err) {
    return fmt__write_rows_flags(kind, batch, 0, out, err);
}

int fmt__write_rows_flags(fmt_kind kind, const ty_batch *batch, unsigned flags, mu_buf *out,
                          mu_err *err) {
    MU_ASSERT(batch != NULL && out != NULL);
    if (kind == FMT_JSON_EACH_ROW) return fmt__write_json_each_row(batch, flags, out, err);
    if (kind <= FMT_UNKNOWN || kind >= FMT_KIND_COUNT)
        return MU_ERR(err, MU_EINVAL, "unknown output format %d", (int)kind);
    char sep = fmt_is_csv(kind) ? ',' : '\t';
    uint32_t rows = ty_batch_visible_rows(batch);
    mu_buf scratch;
    mu_buf_init(&scratch, 0);
    int rc = 0;
    for (uint32_t v = 0; rc == 0 && v < rows; v++) {
        uint32_t row = batch->selection ? batch->selection[v] : v;
        for (uint32_t i = 0; rc == 0 && i < batch->column_count; i++) {
            if (i > 0) rc = mu_buf_append_u8(out, (uint8_t)sep, err);
            if (rc == 0) rc = fmt_write_value(kind, batch->columns[i], row, flags, &scratch, out, err);
        }
        if (rc == 0) rc = mu_buf_append_u8(out, '\n', err);
    }
    mu_buf_deinit(&scratch);
    return rc;
}

int fmt_write_footer(fmt_kind kind, mu_buf *out, mu_err *err) {
    MU_ASSERT(out != NULL);
    if (kind <= FMT_UNKNOWN || kind >= FMT_KIND_COUNT)
        return MU_ERR(err, MU_EINVAL, "unknown output format %d", (int)kind);
    return 0;
}
