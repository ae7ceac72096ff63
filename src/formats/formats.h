/* formats.h: the interface of the formats module: writers that append a
 * ty_batch's visible rows to a mu_buf byte-exactly as ClickHouse renders
 * each output format, and a streaming reader that parses the input formats
 * (TSV, TSVRaw, CSV and their WithNames variants, JSON*EachRow, RowBinary*,
 * Native), fed chunk by chunk, into the columns of a caller-supplied
 * ty_batch, under ClickHouse's input_format_* settings (fmt_read_flags,
 * fmt_reader_allow_errors). fmt_writer also writes the Arrow family.
 * Byte-level rules: docs reference
 * clickhouse-compat.md section 2; the input rules: README.md.
 */
#ifndef MUSCLES_FORMATS_H
#define MUSCLES_FORMATS_H

#include "base/base.h"
#include "types/types.h"

typedef enum fmt_kind {
    FMT_UNKNOWN = 0,
    FMT_TSV,                       /* TabSeparated, TSV */
    FMT_TSV_RAW,                   /* TabSeparatedRaw, TSVRaw */
    FMT_TSV_WITH_NAMES,            /* TabSeparatedWithNames, TSVWithNames */
    FMT_TSV_WITH_NAMES_AND_TYPES,  /* TabSeparatedWithNamesAndTypes, TSVWithNamesAndTypes */
    FMT_CSV,
    FMT_CSV_WITH_NAMES,
    FMT_CSV_WITH_NAMES_AND_TYPES,
    FMT_JSON_EACH_ROW,             /* JSONEachRow, JSONLines, NDJSON */
    /* The kinds below are read and written through fmt_writer / the
     * reader table (each implemented in its own file, see README.md). */
    FMT_JSON,
    FMT_JSON_COMPACT,
    FMT_JSON_STRINGS,
    FMT_JSON_COLUMNS,
    FMT_JSON_COMPACT_EACH_ROW,
    FMT_JSON_STRINGS_EACH_ROW,
    FMT_PRETTY,
    FMT_PRETTY_COMPACT,
    FMT_PRETTY_COMPACT_MONO_BLOCK,
    FMT_PRETTY_SPACE,
    FMT_VERTICAL,
    FMT_MARKDOWN,
    FMT_TSKV,
    FMT_VALUES,
    FMT_NULL,
    FMT_ROW_BINARY,
    FMT_ROW_BINARY_WITH_NAMES,
    FMT_ROW_BINARY_WITH_NAMES_AND_TYPES,
    FMT_NATIVE,
    FMT_ARROW,                     /* Arrow IPC file format (arrow.c) */
    FMT_ARROW_STREAM,              /* Arrow IPC streaming format (arrow.c) */
    FMT_KIND_COUNT
} fmt_kind;

/* Case-sensitive ClickHouse format name or alias; FMT_UNKNOWN if none. */
fmt_kind fmt_find(const char *name);
/* Canonical ClickHouse name of a kind ("TabSeparated", ...). */
const char *fmt_name(fmt_kind kind);
/* True for the kinds fmt_reader accepts: TSV (Raw, WithNames[AndTypes]), CSV
 * (WithNames[AndTypes]), JSON*EachRow, RowBinary*, Native. */
bool fmt_can_read(fmt_kind kind);

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

/* Appends the header lines (names, types) of WithNames kinds; nothing for
 * the others. Call once per result, before the first rows. */
int fmt_write_header(fmt_kind kind, const ty_batch *batch, mu_buf *out, mu_err *err);
/* Appends the batch's visible rows (selection applied). May be called
 * once per batch of a result. On error `out` may hold a partial row. */
int fmt_write_rows(fmt_kind kind, const ty_batch *batch, mu_buf *out, mu_err *err);
/* Appends what ends a result; nothing for the kinds above. */
int fmt_write_footer(fmt_kind kind, mu_buf *out, mu_err *err);

/* Appends one value of column c as JSONEachRow writes it (compact;
 * 64-bit integers quoted, nan/inf null, maps as objects with string keys,
 * NULL null): ClickHouse's toJSONString. scratch is working space. */
int fmt_json_value(const ty_column *c, uint32_t row, mu_buf *scratch, mu_buf *out, mu_err *err);

/* ------------------------------------------------------------------ */
/* Stateful output: one result (header, rows in batches, totals, end)  */
/* ------------------------------------------------------------------ */

/* The client protocol revision muscles answers as: revision() returns it,
 * and clickhouse-go's HTTP transport decodes every later Native answer at
 * that value. The Native writer follows the client's revision up to here
 * (BlockInfo from 1, DateTime zones from 54337, LowCardinality from 54405,
 * the custom-serialization byte from 54454); no revision from 54454 to
 * 54460 changes a Native block. */
#define FMT_NATIVE_REVISION 54460u

/* Body compression of Arrow / ArrowStream (output_format_arrow_compression_method). */
typedef enum fmt_arrow_compression {
    FMT_ARROW_COMPRESSION_NONE,
    FMT_ARROW_COMPRESSION_LZ4_FRAME,  /* ClickHouse's default */
    FMT_ARROW_COMPRESSION_ZSTD,
} fmt_arrow_compression;

/* Writer options; each field is the ClickHouse setting of the same name.
 * Start from fmt_output_options_default (a zeroed struct is not the
 * defaults for the Arrow fields). */
typedef struct fmt_output_options {
    bool quote_64bit_integers;    /* JSON: (U)Int64 as strings (ClickHouse's default: true) */
    bool decimal_trailing_zeros;  /* output_format_decimal_trailing_zeros */
    uint64_t client_protocol_version; /* Native: the client's revision (0: plain blocks) */
    /* Arrow / ArrowStream: output_format_arrow_* (defaults of current ClickHouse). */
    fmt_arrow_compression arrow_compression;     /* compression_method: lz4_frame */
    bool arrow_string_as_string;                  /* String as Utf8, not Binary: true */
    bool arrow_fixed_string_as_fixed_byte_array;  /* FixedString as FixedSizeBinary: true */
    bool arrow_low_cardinality_as_dictionary;     /* dictionary-encoded fields: false */
    bool arrow_use_signed_indexes_for_dictionary; /* Int32/64 indexes, not UInt: true */
    bool arrow_use_64_bit_indexes_for_dictionary; /* 64-bit indexes, not 32: false */
    bool arrow_date_as_uint16;                    /* Date as UInt16, not Date32: false */
    bool arrow_unsupported_types_as_binary;       /* Nothing as Binary, not an error: true */
    /* UUID without the arrow.uuid extension metadata (chdb's setting, not in
     * ClickHouse 26.x; for readers such as polars that refuse the extension): false */
    bool arrow_uuid_as_fixed_byte_array;
} fmt_output_options;

/* ClickHouse's defaults for every option. */
void fmt_output_options_default(fmt_output_options *opt);

/* What the JSON formats print after the rows ("rows", "statistics"). */
typedef struct fmt_result_info {
    uint64_t rows_before_limit;
    bool has_rows_before_limit;
    double elapsed_s;
    uint64_t rows_read;
    uint64_t bytes_read;
} fmt_result_info;

typedef struct fmt_writer fmt_writer;

/* True when fmt_writer_create accepts the kind. */
bool fmt_can_write(fmt_kind kind);
/* The Content-Type ClickHouse's HTTP interface sends for the format. */
const char *fmt_content_type(fmt_kind kind);
/* opt may be NULL (ClickHouse's defaults). MU_ENOT_SUPPORTED for kinds not
 * written yet. */
int fmt_writer_create(fmt_kind kind, const fmt_output_options *opt, fmt_writer **out,
                      mu_err *err);
void fmt_writer_destroy(fmt_writer *w); /* accepts NULL */
/* Once, before any row: schema is a sealed batch with the result's
 * columns (its rows are not written). */
int fmt_writer_begin(fmt_writer *w, const ty_batch *schema, mu_buf *out, mu_err *err);
/* The visible rows of a batch of the schema's columns; any number of
 * calls. */
int fmt_writer_rows(fmt_writer *w, const ty_batch *batch, mu_buf *out, mu_err *err);
/* WITH TOTALS: one row, after the last fmt_writer_rows. */
int fmt_writer_totals(fmt_writer *w, const ty_batch *totals, mu_buf *out, mu_err *err);
/* Once, at the end (info may be NULL). */
int fmt_writer_end(fmt_writer *w, const fmt_result_info *info, mu_buf *out, mu_err *err);
/* Instead of fmt_writer_end, after an error once rows were sent: the JSON
 * formats end their output with the exception text `message` as current
 * ClickHouse does under http_write_exception_in_output_format=1 (JSON,
 * JSONStrings, JSONCompact: the document closes with "rows" and
 * "exception"; JSONEachRow, JSONStringsEachRow: a last line
 * {"exception": "..."}; JSONCompactEachRow: ["..."]) and return 1;
 * every other kind writes nothing and returns 0. */
int fmt_writer_exception(fmt_writer *w, const char *message, mu_buf *out, mu_err *err);

/* ------------------------------------------------------------------ */
/* Input                                                               */
/* ------------------------------------------------------------------ */

#define FMT_LINE_BYTES_DEFAULT (1u << 20) /* longest record before MU_ETOO_LARGE */

/* ClickHouse's input settings as reader flags. 0 gives ClickHouse's
 * defaults except input_format_null_as_default (set
 * FMT_READ_NULL_AS_DEFAULT for it). */
enum fmt_read_flags {
    /* input_format_null_as_default=1: a NULL (\N, null) for a column that is
     * not Nullable appends the type's default (marked missing). Without it
     * a NULL there is an error, except in TSV/CSV where \N is then plain
     * text of the type, as ClickHouse reads it ("N" / "\N" into String). */
    FMT_READ_NULL_AS_DEFAULT = 1,
    /* input_format_skip_unknown_fields=0: a column (header name, JSON key,
     * Native column) that the batch lacks is INCORRECT_DATA naming it;
     * by default it is read and dropped. */
    FMT_READ_UNKNOWN_FIELDS_ERROR = 2,
    /* date_time_input_format=best_effort / best_effort_us: DateTime and
     * DateTime64 text through ty_datetime_best_effort (JSON: strings only;
     * a bare JSON number stays a Unix time). */
    FMT_READ_DATETIME_BEST_EFFORT = 4,
    FMT_READ_DATETIME_BEST_EFFORT_US = 8,
    /* input_format_with_names_use_header=0: the names line / header of the
     * WithNames kinds is read and ignored; fields come in batch order. */
    FMT_READ_HEADER_NAMES_IGNORED = 16,
    /* input_format_with_types_use_header=0: the types line / header is read
     * and not compared with the batch's types. */
    FMT_READ_HEADER_TYPES_IGNORED = 32,
};

/* A streaming reader. Records (lines; CSV records may span lines inside
 * quotes) may be split anywhere between fmt_reader_feed calls; the
 * incomplete tail is kept until more bytes arrive. */
struct fmt__reader_vt;

typedef struct fmt_reader {
    fmt_kind kind;
    /* Kinds other than TSV/CSV: their reader (formats_int.h) and its state. */
    const struct fmt__reader_vt *vt;
    void *impl;
    unsigned flags;
    ty_batch *batch;        /* borrowed: rows are appended to its columns */
    ty_text_options text_options; /* from the flags, for ty_column_append_text_opt */
    mu_buf pending;         /* bytes not yet parsed */
    size_t scan_pos;        /* bytes of `pending` already scanned for a record end */
    int scan_state;         /* record-scanner state at scan_pos */
    size_t max_record_bytes;
    uint64_t row_number;    /* data rows read so far, skipped ones included (headers not) */
    uint64_t rows_skipped;  /* rows dropped for errors under fmt_reader_allow_errors */
    uint64_t allow_errors_num;
    double allow_errors_ratio;
    unsigned header_lines;  /* header lines still to read */
    /* Input fields -> batch columns (TSV/CSV): FMT__FIELD_SKIP drops one. */
    uint32_t *input_map;
    uint32_t input_count;
    bool *present;          /* batch column i is given by the input */
    uint8_t **missing;      /* per batch column: bitmap of rows left out, or NULL */
    uint32_t missing_count; /* entries of `missing`: the batch's column count */
    mu_buf field;           /* scratch: one un-escaped field */
} fmt_reader;

/* Prepares a reader appending to the columns of `batch` (its columns are
 * the schema, in input order). max_record_bytes 0 = default. MU_EINVAL if
 * the kind cannot be read. */
int fmt_reader_init(fmt_reader *r, fmt_kind kind, ty_batch *batch, unsigned flags,
                    size_t max_record_bytes, mu_err *err);
void fmt_reader_deinit(fmt_reader *r);
/* input_format_allow_errors_num / _ratio (before the first feed): a row
 * that fails to parse is dropped and counted (rows_skipped) instead of
 * failing, until both limits are passed, as ClickHouse decides it:
 * errors > num and errors / rows-so-far > ratio. Then, and for errors that
 * are not parse errors (limits, memory, headers), the error stands, with
 * ClickHouse's "(Already have N errors out of M rows, ...)" appended.
 * TSV, CSV and JSON*EachRow skip to the next record; RowBinary* cannot
 * ("(Input format doesn't allow to skip errors)"); Native ignores it.
 * MU_EINVAL for a negative or not finite ratio (above 1 never trips). */
int fmt_reader_allow_errors(fmt_reader *r, uint64_t num, double ratio, mu_err *err);
/* Parses every complete record of the bytes fed so far plus `data`.
 * Returns 0 when all complete records are parsed, 1 when the batch's
 * columns reached TY_BATCH_ROWS_MAX rows (take the rows out, then call
 * again with length 0), or a negative MU_E* code naming the row, column
 * and value (the failed row is not appended): ClickHouse's
 * CANNOT_PARSE_INPUT_ASSERTION_FAILED (MU_EINPUT_ASSERTION) for a value
 * that does not parse, CANNOT_PARSE_DATE / _DATETIME / _UUID for those
 * types, MU_EPARSE for a malformed record, MU_EINCORRECT_DATA for a bad
 * header, MU_ETOO_LARGE for a record longer than the limit. After an
 * error the reader must not be fed again. */
int fmt_reader_feed(fmt_reader *r, const void *data, size_t length_bytes, mu_err *err);
/* Ends the input: parses a last record without its line end. Same returns
 * as fmt_reader_feed (1: drain and call again). */
int fmt_reader_finish(fmt_reader *r, mu_err *err);

/* Omitted values (ClickHouse's block_missing_values, what
 * input_format_defaults_for_omitted_fields computes DEFAULT expressions
 * for): rows of the batch where the reader appended the type's default
 * because the input left the value out: a column the header or Native
 * block lacks, a JSON key absent, a NULL read as default, an empty CSV
 * field. Rows count from 0 in the current batch; call
 * fmt_reader_missing_clear once the rows are taken out. */
bool fmt_reader_missing(const fmt_reader *r, uint32_t column, uint32_t row);
/* True when some row of the column is marked. */
bool fmt_reader_column_has_missing(const fmt_reader *r, uint32_t column);
void fmt_reader_missing_clear(fmt_reader *r);
/* Moves the marks of the current batch into out[0..batch column count)
 * (NULL where a column has none; the caller frees each), leaving none:
 * for rows taken out of the reader together with their batch. */
void fmt_reader_missing_take(fmt_reader *r, uint8_t **out);

/* ---- Parallel parsing (input_format_parallel_parsing) --------------- */
/* The input of the kinds fmt_can_cut accepts (the TabSeparated family,
 * JSONEachRow, JSONStringsEachRow, JSONCompactEachRow) can be cut into
 * runs of records without parsing it, each run parsed by a reader of its
 * own (fmt_reader_resume) and checked to have ended where its run ended
 * (fmt_reader_at_boundary): then the rows are those one reader reading
 * it all would give. */
bool fmt_can_cut(fmt_kind kind);
/* Where to cut p[0..n) (which starts between records): the length of a
 * prefix that most likely holds whole records, found from the end (TSV:
 * an unescaped line end; JSON: a line end between a closing and an
 * opening bracket); 0 if none. A wrong cut is caught by
 * fmt_reader_at_boundary of the reader of the run before it. */
size_t fmt_reader_cut(fmt_kind kind, const uint8_t *p, size_t n);
/* True when every byte fed to r was parsed and r stands between records
 * as a reader resumed from the one it was resumed from does: no partial
 * record, and (JSON) not after the data's end (';' or ']'). */
bool fmt_reader_at_boundary(const fmt_reader *r);
/* Takes the bytes fed to r and not yet parsed (an incomplete record) out
 * into tail, when r stands where fmt_reader_cut can go on: data records
 * next (headers read), no error skipping, and (JSON) rows neither in [ ]
 * nor separated by ','. false leaves r unchanged: read serially. */
bool fmt_reader_detach(fmt_reader *r, mu_buf *tail, mu_err *err);
/* Prepares r (fresh from fmt_reader_init: same kind, batch columns and
 * flags as `from`) to parse records cut from the input `from` detached:
 * from's header mapping, between rows. */
int fmt_reader_resume(fmt_reader *r, const fmt_reader *from, mu_err *err);

#endif /* MUSCLES_FORMATS_H */
