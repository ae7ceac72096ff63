/* types.h: the type system of muscles and its whole interface: type
 * descriptors parsed from and rendered to ClickHouse type names, column
 * vectors in the Arrow memory layout, batches of named columns, strict
 * text parsing and ClickHouse text rendering of values, time zones (a TZif
 * reader, no libc TZ switching), and the self-describing binary batch
 * encoding that WAL records carry (byte layout at the end of this file).
 * Ownership and layout rules for this folder: src/types/README.md.
 */
#ifndef MUSCLES_TYPES_H
#define MUSCLES_TYPES_H

#include "base/base.h"

/* ------------------------------------------------------------------ */
/* Type descriptors                                                    */
/* ------------------------------------------------------------------ */

typedef enum ty_kind {
    TY_UINT8,
    TY_UINT16,
    TY_UINT32,
    TY_UINT64,
    TY_INT8,
    TY_INT16,
    TY_INT32,
    TY_INT64,
    TY_FLOAT32,
    TY_FLOAT64,
    TY_BOOL,            /* 1 byte, 0 or 1 */
    TY_STRING,          /* u32 offsets + bytes */
    TY_FIXED_STRING,    /* length bytes per value, zero padded */
    TY_DATE,            /* u16 days since 1970-01-01 */
    TY_DATE32,          /* i32 days since 1970-01-01, 1900-01-01..2299-12-31 */
    TY_DATETIME,        /* u32 seconds since the epoch (UTC) */
    TY_DATETIME64,      /* i64 ticks of 10^-precision seconds since the epoch */
    TY_UUID,            /* 16 bytes in text order (byte 0 = first two hex digits) */
    TY_DECIMAL,         /* i32 / i64 / __int128 of value * 10^scale by precision */
    TY_ENUM8,           /* i8 value */
    TY_ENUM16,          /* i16 value */
    TY_NULLABLE,        /* child's layout + validity bitmap */
    TY_LOW_CARDINALITY, /* u32 indices + dictionary column of the child */
    TY_ARRAY,           /* u32 offsets + element column */
    TY_MAP,             /* u32 offsets + key column + value column */
    TY_NOTHING,         /* 1 zero byte; only ever NULL (Nullable(Nothing), the NULL literal) */
    TY_KIND_COUNT
} ty_kind;

typedef struct ty_tz ty_tz;

/* One name of an Enum8/Enum16; entries are kept sorted by value, as
 * ClickHouse renders them. */
typedef struct ty_enum_entry {
    const char *name; /* not NUL-safe: use name_bytes */
    uint32_t name_bytes;
    int16_t value;
} ty_enum_entry;

/* A type descriptor. Immutable once built; descriptors live in the arena
 * they were parsed into (or are static, see ty_type_builtin) and are only
 * borrowed by columns and batches. */
typedef struct ty_type {
    ty_kind kind;
    uint32_t length;               /* FixedString(N): N */
    uint8_t precision;             /* Decimal P (1..38), DateTime64 P (0..9) */
    uint8_t scale;                 /* Decimal S (0..P) */
    const char *timezone_name;     /* DateTime/DateTime64 explicit zone, else NULL */
    const ty_tz *timezone;         /* resolved zone of timezone_name, else NULL */
    const struct ty_type *child;   /* Nullable, LowCardinality, Array element; Map key */
    const struct ty_type *child2;  /* Map value */
    const ty_enum_entry *enum_entries;
    uint32_t enum_count;
    /* AggregateFunction(f, T...): kind is TY_STRING (each value is the
     * serialized state of aggregate f in muscles' own state format, so
     * every String path stores and moves it), and these name it. */
    const char *aggregate_function;        /* "sum", "quantile(0.5)"; NULL otherwise */
    const struct ty_type *const *aggregate_args;
    uint32_t aggregate_arg_count;
} ty_type;

#define TY_TYPE_DEPTH_MAX 32                 /* nesting levels; deeper: MU_ETOO_DEEP */
#define TY_TYPE_NAME_BYTES_MAX (1u << 20)    /* longer type names: MU_ETOO_LARGE */
#define TY_FIXED_STRING_BYTES_MAX 0xFFFFFFu  /* as ClickHouse */
#define TY_DECIMAL_PRECISION_MAX 38
#define TY_DATETIME64_PRECISION_MAX 9

/* Parses a ClickHouse type name such as "Nullable(DateTime64(3, 'Europe/Berlin'))"
 * into descriptors allocated in `arena`. Canonical names are case-sensitive;
 * the aliases listed in README.md (BOOLEAN, INT, BIGINT, TEXT, VARCHAR(n),
 * FLOAT, DOUBLE, TIMESTAMP, DEC, NUMERIC, ...) are case-insensitive.
 * Errors: MU_ESYNTAX (malformed), MU_EUNKNOWN_TYPE (unknown name),
 * MU_ETYPE (bad parameter or nesting, e.g. Nullable(Array(...))),
 * MU_ETOO_DEEP (more than TY_TYPE_DEPTH_MAX levels), MU_ETOO_LARGE,
 * MU_ENOT_SUPPORTED (a ClickHouse type muscles lacks, e.g. Int128),
 * MU_EINVAL (unknown or invalid time zone), MU_ENOMEM/MU_EMEMLIMIT. */
int ty_type_parse(const char *name, mu_arena *arena, const ty_type **type_out, mu_err *err);
/* As ty_type_parse, for a name that is not NUL-terminated. */
int ty_type_parse_n(const char *name, size_t name_bytes, mu_arena *arena,
                    const ty_type **type_out, mu_err *err);
/* Appends the canonical name exactly as ClickHouse prints it
 * ("DateTime64(3, 'Europe/Berlin')", "Decimal(10, 2)", "Map(String, UInt64)"). */
int ty_type_render(const ty_type *type, mu_buf *out, mu_err *err);
/* Canonical name into a fixed buffer, truncated with "..." (for messages). */
const char *ty_type_name(const ty_type *type, char *out, size_t out_bytes);
/* Static descriptor of a parameterless type (numbers, Bool, String, Date,
 * Date32, DateTime without zone, UUID); NULL for other kinds. */
const ty_type *ty_type_builtin(ty_kind kind);
/* Deep copy into arena (enum names and zone names included). */
int ty_type_clone(const ty_type *type, mu_arena *arena, const ty_type **type_out, mu_err *err);
bool ty_type_equal(const ty_type *a, const ty_type *b);
/* Width in bytes of one value in the values buffer: 1..16 for fixed-width
 * kinds, N for FixedString, 4 (the index) for LowCardinality, the child's
 * width for Nullable, 0 for String, Array and Map. */
uint32_t ty_type_value_bytes(const ty_type *type);
bool ty_type_is_nullable(const ty_type *type); /* Nullable(T) */
/* The type without one Nullable wrapper (itself if not Nullable). */
static inline const ty_type *ty_type_strip_nullable(const ty_type *type) {
    return type->kind == TY_NULLABLE ? type->child : type; /* inline: called per value */
}
/* The zone DateTime/DateTime64 values are rendered and parsed in: the
 * explicit zone, else the process default (ty_tz_default). */
const ty_tz *ty_type_timezone(const ty_type *type);
/* 10^scale as the Decimal's storage integer (scale <= 38). */
__int128 ty_decimal_pow10(unsigned exponent);

/* ------------------------------------------------------------------ */
/* Time zones                                                          */
/* ------------------------------------------------------------------ */

/* Zones are read from $TZDIR or /usr/share/zoneinfo (TZif v1..v4, the
 * 64-bit section and the POSIX footer rule for later years), loaded once
 * and kept for the life of the process; lookups are thread-safe. "UTC"
 * needs no file. A name may hold only [A-Za-z0-9_+-/] in non-empty
 * components. Unknown or invalid names: MU_EINVAL; damaged files:
 * MU_ECORRUPT. */
int ty_tz_get(const char *name, const ty_tz **tz_out, mu_err *err);
const ty_tz *ty_tz_utc(void);
/* The zone of DateTime columns without an explicit zone (UTC unless set).
 * ty_tz_set_default must be called before other threads start. */
const ty_tz *ty_tz_default(void);
int ty_tz_set_default(const char *name, mu_err *err);
const char *ty_tz_name(const ty_tz *tz);
/* Offset from UTC in seconds in effect at the instant utc_seconds. */
int32_t ty_tz_offset_at(const ty_tz *tz, int64_t utc_seconds);
/* The instant whose wall-clock time in tz is local_seconds (seconds since
 * 1970-01-01 00:00:00 of the wall clock). Like ClickHouse: a time that
 * exists twice (clocks go back) maps to the earlier instant; a time in a
 * gap (clocks go forward) is read with the offset after the change, which
 * yields an instant before the change (02:30 in Europe/Berlin on the
 * spring-forward day is 00:30 UTC and renders as 01:30). */
int64_t ty_tz_local_to_utc(const ty_tz *tz, int64_t local_seconds);

/* Proleptic Gregorian calendar helpers. */
int64_t ty_days_from_civil(int64_t year, unsigned month, unsigned day);
void ty_civil_from_days(int64_t days, int64_t *year, unsigned *month, unsigned *day);

/* ------------------------------------------------------------------ */
/* Best-effort date and time text (best_effort.c)                      */
/* ------------------------------------------------------------------ */

/* What ty_datetime_best_effort read. */
typedef struct ty_best_effort {
    int64_t seconds;          /* Unix seconds */
    int64_t fraction;         /* fraction of the second, fraction_digits digits */
    unsigned fraction_digits; /* 0..18 */
    size_t used_bytes;        /* bytes read: a prefix of the text, maybe all of it */
    char reason[128];         /* on failure: ClickHouse's message */
} ty_best_effort;

/* ClickHouse's parseDateTimeBestEffort (us_style: parseDateTimeBestEffortUS,
 * month before day): ISO 8601 with 'T', 'Z', offsets and fractions, RFC
 * 1123 / 2822, Unix timestamps (9 or 10 digits, 13 with milliseconds),
 * YYYYMMDD[hhmmss], DD/MM/YYYY, month and weekday names, AM/PM. A wall
 * clock without an offset is in `local`; a date without a year gets
 * now_seconds' year (the year before if that date is still to come). Reads
 * a prefix of s[0..n) (out->used_bytes); false with out->reason when
 * nothing readable is there. */
bool ty_datetime_best_effort(const char *s, size_t n, bool us_style, const ty_tz *local,
                             int64_t now_seconds, ty_best_effort *out);

/* ------------------------------------------------------------------ */
/* Columns                                                             */
/* ------------------------------------------------------------------ */

#define TY_COLUMN_ROWS_MAX (UINT32_MAX - 1u)  /* offsets need rows + 1 entries */

/* A growable buffer owned by a column; malloc'd and charged to the
 * column's tracker. */
typedef struct ty_buffer {
    uint8_t *data;
    size_t length_bytes;
    size_t capacity_bytes;
} ty_buffer;

struct ty__lc_index;

/* A column vector in the Arrow layout. Fields are read-only outside
 * src/types: change a column only through the functions below.
 *   validity   bit i set = row i is valid (Nullable only, else empty);
 *              bits past row_count are zero.
 *   values     fixed-width values (row_count * value width), FixedString
 *              bytes, String bytes, or LowCardinality u32 indices.
 *   offsets    String/Array/Map: row_count + 1 u32, offsets[0] == 0,
 *              non-decreasing; row i spans [offsets[i], offsets[i+1]).
 *   children   Array: [0] elements; Map: [0] keys, [1] values (a struct
 *              of two fields without nulls, as Arrow's Map); LowCardinality:
 *              [0] the dictionary (the child type without Nullable; entry 0
 *              is always the default value, so NULL rows point at it).
 * Values at NULL rows hold the type's default (zeros, empty string). */
typedef struct ty_column {
    const ty_type *type;       /* borrowed: must outlive the column */
    uint32_t row_count;
    bool nullable;             /* Nullable(T) or LowCardinality(Nullable(T)) */
    ty_buffer validity;
    ty_buffer values;
    ty_buffer offsets;
    struct ty_column *children[2];
    mu_mem_tracker *tracker;   /* borrowed; NULL = uncharged */
    struct ty__lc_index *lc_index;
} ty_column;

/* Creates an empty column of `type` (borrowed). Buffers are charged to
 * tracker (may be NULL). */
int ty_column_create(const ty_type *type, mu_mem_tracker *tracker, ty_column **column_out,
                     mu_err *err);
void ty_column_destroy(ty_column *column); /* accepts NULL */
/* Drops every row, keeping the capacity. */
void ty_column_clear(ty_column *column);
/* Room for `rows` more rows without reallocating the fixed-width buffers. */
int ty_column_reserve(ty_column *column, uint32_t rows, mu_err *err);

static inline uint32_t ty_column_row_count(const ty_column *c) { return c->row_count; }
static inline bool ty_column_is_null(const ty_column *c, uint32_t row) {
    return c->nullable && !(c->validity.data[row >> 3] & (1u << (row & 7)));
}
static inline const uint8_t *ty_column_values(const ty_column *c) { return c->values.data; }
static inline const uint32_t *ty_column_offsets(const ty_column *c) {
    return (const uint32_t *)(const void *)c->offsets.data;
}
static inline const uint8_t *ty_column_validity(const ty_column *c) { return c->validity.data; }
static inline const ty_column *ty_column_child(const ty_column *c, unsigned i) {
    return c->children[i];
}
/* Mutable child, to append Array elements / Map entries before
 * ty_column_append_nested_end. */
static inline ty_column *ty_column_child_mut(ty_column *c, unsigned i) { return c->children[i]; }

/* Parses `text` strictly as one value of the column's type (see README.md
 * for every type's accepted forms) and appends it. Composite types read
 * ClickHouse's quoted form: [1,2], ['a',NULL], {'k':1}. "\N" is not NULL
 * here: null markers are the formats' business. On error (MU_EPARSE with
 * a message naming value, type and reason) the column is unchanged. */
int ty_column_append_text(ty_column *column, const char *text, size_t text_bytes, mu_err *err);

/* How text becomes a DateTime or DateTime64: ClickHouse's
 * date_time_input_format (Date and Date32 are not affected, as there). */
typedef enum ty_datetime_input {
    TY_DATETIME_INPUT_BASIC = 0,      /* YYYY-MM-DD[( |T)hh:mm:ss[.f]] or Unix seconds */
    TY_DATETIME_INPUT_BEST_EFFORT,    /* ty_datetime_best_effort, day before month */
    TY_DATETIME_INPUT_BEST_EFFORT_US, /* the same, month before day */
} ty_datetime_input;

/* Options of the text parsers. NULL stands for ClickHouse's defaults. */
typedef struct ty_text_options {
    ty_datetime_input datetime_input;
    int64_t now_seconds; /* best effort: the clock, for a date without a year */
} ty_text_options;

/* ty_column_append_text with options (NULL: the defaults). Inside Array
 * and Map, a quoted DateTime follows the options; a bare one is a Unix
 * time, as ClickHouse reads quoted composites. */
int ty_column_append_text_opt(ty_column *column, const char *text, size_t text_bytes,
                              const ty_text_options *opt, mu_err *err);
/* MU_ETYPE if the column is not nullable. */
int ty_column_append_null(ty_column *column, mu_err *err);
int ty_column_append_default(ty_column *column, mu_err *err);
/* Appends one fixed-width value of the type's width (host byte order, as
 * in the values buffer); for FixedString, exactly N bytes. */
int ty_column_append_value(ty_column *column, const void *value, mu_err *err);
/* Appends a String, FixedString (shorter is zero padded, longer is
 * MU_EPARSE) or LowCardinality value from raw bytes. */
int ty_column_append_bytes(ty_column *column, const void *data, size_t data_bytes,
                           mu_err *err);
/* Array/Map: closes one row made of the elements appended to the children
 * since the previous row. MU_EINVAL if a Map's key and value counts differ. */
int ty_column_append_nested_end(ty_column *column, mu_err *err);
/* Appends row `row` of src; both columns must have equal types (ETYPE),
 * or dst be LowCardinality of src's type. */
int ty_column_append_from(ty_column *dst, const ty_column *src, uint32_t row, mu_err *err);
/* Value equality of two rows of columns of equal types. NULL equals NULL;
 * float NaN equals NaN; +0 equals -0. */
bool ty_column_equal_row(const ty_column *a, uint32_t row_a, const ty_column *b, uint32_t row_b);
/* String/FixedString/LowCardinality: the bytes of one row (for FixedString
 * all N bytes). */
const uint8_t *ty_column_row_bytes(const ty_column *column, uint32_t row, size_t *bytes_out);
/* Checks every structural invariant above (for tests and after decoding);
 * returns MU_ECORRUPT describing the first violation. */
int ty_column_validate(const ty_column *column, mu_err *err);

/* Total order of two rows of columns of equal types, for sort keys, key
 * ranges and minmax indexes: <0, 0 or >0. Numbers by value, floats with
 * NaN after every number (NaN == NaN) and -0 == +0; String/FixedString
 * bytewise (a shorter prefix first); UUID bytewise in text order;
 * LowCardinality by dictionary value; Array/Map lexicographically by
 * element (Map: key, then value); NULL after every value, NULL == NULL. */
int ty_column_compare_rows(const ty_column *a, uint32_t row_a, const ty_column *b,
                           uint32_t row_b);

/* ------------------------------------------------------------------ */
/* Bulk appends (column_bulk.c)                                        */
/*
 * Many rows per call, fixed-width data moved with memcpy. On any failure
 * the column is left exactly as it was (LowCardinality dictionary entries
 * added meanwhile may stay; unused entries are allowed).
 */
/* ------------------------------------------------------------------ */

/* Appends rows [from, from + count) of src (same type, else MU_ETYPE). */
int ty_column_append_rows_from(ty_column *dst, const ty_column *src, uint32_t from,
                               uint32_t count, mu_err *err);
/* Appends src rows rows[0..count) in that order (same type, else MU_ETYPE;
 * each index < src's row count): the sort permutation of a flush or merge.
 * Non-nullable fixed-width and String columns are copied without a call
 * per row. On failure the column is left as it was. */
int ty_column_append_gather(ty_column *dst, const ty_column *src, const uint32_t *rows,
                            uint32_t count, mu_err *err);
/* Appends `count` rows of a non-nullable fixed-width column (numbers,
 * dates, UUID, Decimal, Enum, FixedString, Nothing) and returns where their
 * count * width value bytes go: the caller must write every byte before
 * the column is used (query kernels). Enum and Bool values written must be
 * valid. MU_ETYPE for other columns. */
int ty_column_append_fixed_uninit(ty_column *column, uint32_t count, void **values_out,
                                  mu_err *err);
/* Turns a non-nullable column into one of nullable_type (Nullable of the
 * column's type; borrowed) in place: row i is NULL where bit i of
 * `validity` (ceil(rows/8) bytes, LSB first) is clear; the payload of those
 * rows is reset to the type's default. MU_ETYPE if the types do not fit. */
int ty_column_make_nullable(ty_column *column, const ty_type *nullable_type,
                            const uint8_t *validity, mu_err *err);
/* A Nullable column: rows whose bit in `validity` is clear become NULL
 * (their payload reset to the default). MU_ETYPE for other columns. */
int ty_column_and_validity(ty_column *column, const uint8_t *validity, mu_err *err);
/* Shrinks the column to its first `rows` rows (rows <= row_count),
 * children included; capacity is kept. */
void ty_column_truncate(ty_column *column, uint32_t rows);

/* Appends from raw little-endian buffers that come from outside (a part
 * file): anything inconsistent is MU_ECORRUPT naming the row; a call that
 * does not fit the column's kind is MU_ETYPE. `validity` is a bitmap (bit
 * i, least significant first, set = row i valid) or NULL for "all valid";
 * only nullable columns take one, and NULL rows must hold the type's
 * default payload (zeros, empty string, the Enum's smallest value). */

/* Fixed-width kinds and FixedString: count * ty_type_value_bytes values.
 * Bool must be 0/1 and Enum values declared. */
int ty_column_append_fixed_raw(ty_column *column, const void *values, uint32_t count,
                               const uint8_t *validity, mu_err *err);
/* String: count u32 lengths and their bytes, which must add up to exactly
 * bytes_length. */
int ty_column_append_strings_raw(ty_column *column, const void *lengths, const void *bytes,
                                 size_t bytes_length, uint32_t count, const uint8_t *validity,
                                 mu_err *err);
/* Array/Map: count u32 lengths; the children (ty_column_child_mut) must
 * already hold exactly the elements these rows add up to. */
int ty_column_append_nested_raw(ty_column *column, const void *lengths, uint32_t count,
                                mu_err *err);
/* LowCardinality: count indices of index_bytes (1, 2 or 4) each into
 * `dictionary`, a column of the column's dictionary type without NULLs.
 * Each dictionary value is looked up (or added) in the column's own
 * dictionary once; NULL rows must point at the default value. */
int ty_column_append_lc_raw(ty_column *column, const ty_column *dictionary, const void *indices,
                            unsigned index_bytes, uint32_t count, const uint8_t *validity,
                            mu_err *err);

/* ------------------------------------------------------------------ */
/* Text parsing and rendering of single values                         */
/* ------------------------------------------------------------------ */

/* Parses one scalar value (fixed-width kinds: numbers, Bool, Date, Date32,
 * DateTime, DateTime64, UUID, Decimal, Enum) into `value_out`, which must
 * hold ty_type_value_bytes(type) bytes. MU_EPARSE on bad input, MU_ETYPE
 * for other kinds. */
int ty_value_parse(const ty_type *type, const char *text, size_t text_bytes, void *value_out,
                   mu_err *err);
/* ty_value_parse with options (NULL: the defaults). Best effort reads the
 * whole text with ty_datetime_best_effort in the type's zone: a DateTime
 * saturates to 1970-01-01 00:00:00 .. 2106-02-07 06:28:15 UTC as
 * ClickHouse's does; a DateTime64 keeps the basic range check. */
int ty_value_parse_opt(const ty_type *type, const char *text, size_t text_bytes,
                       const ty_text_options *opt, void *value_out, mu_err *err);

enum ty_render_flags {
    /* As an element of an Array or Map: strings, dates, UUIDs and enum
     * names single-quoted with ClickHouse's escaping, NULL as NULL. */
    TY_RENDER_QUOTED = 1,
    /* Decimals with exactly S fraction digits; by default trailing zeros
     * are dropped (ClickHouse's output_format_decimal_trailing_zeros=0). */
    TY_RENDER_DECIMAL_TRAILING_ZEROS = 2,
};

/* Renders one fixed-width value (same kinds as ty_value_parse). */
int ty_value_render(const ty_type *type, const void *value, unsigned flags, mu_buf *out,
                    mu_err *err);
/* Renders row `row` as ClickHouse's text form without TSV escaping;
 * a NULL renders as \N (NULL with TY_RENDER_QUOTED). */
int ty_column_render_text(const ty_column *column, uint32_t row, unsigned flags, mu_buf *out,
                          mu_err *err);
/* Shortest text that reads back to the same value, as ClickHouse prints
 * floats: integers in int64 range exactly, plain notation for decimal
 * exponents -6 < e <= 21, else "1e21", "1.5e-7"; inf, -inf, nan. out must
 * hold TY_FLOAT_TEXT_BYTES; returns the length. */
#define TY_FLOAT_TEXT_BYTES 40
size_t ty_float64_format(double value, char *out);
size_t ty_float32_format(float value, char *out);

/* ------------------------------------------------------------------ */
/* Batches                                                             */
/* ------------------------------------------------------------------ */

#define TY_BATCH_ROWS_MAX 65536u
#define TY_BATCH_COLUMNS_MAX 4096u
#define TY_COLUMN_NAME_BYTES_MAX 65535u

/* Up to TY_BATCH_ROWS_MAX rows of named columns plus an optional
 * selection vector (ascending or not; each index < row_count). A batch
 * owns its columns, their names and its own copies of their types. */
typedef struct ty_batch {
    uint32_t row_count;         /* set by ty_batch_seal */
    uint32_t column_count;
    uint32_t column_capacity;
    char **names;
    ty_column **columns;
    uint32_t *selection;        /* NULL = all rows */
    uint32_t selection_count;
    mu_mem_tracker *tracker;
    mu_arena *arena;            /* names, types, selection */
} ty_batch;

int ty_batch_create(mu_mem_tracker *tracker, ty_batch **batch_out, mu_err *err);
void ty_batch_destroy(ty_batch *batch); /* accepts NULL */
/* Adds an empty column named `name` of a copy of `type`; the new column
 * is returned in column_out (owned by the batch). MU_EEXISTS on a
 * duplicate name, MU_ETOO_LARGE past TY_BATCH_COLUMNS_MAX. */
int ty_batch_add_column(ty_batch *batch, const char *name, const ty_type *type,
                        ty_column **column_out, mu_err *err);
/* Adds `column` (taken: the batch destroys it) under `name`. Its type
 * stays borrowed and must outlive the batch. Unlike ty_batch_add_column,
 * names may repeat: query results may have equal column names, as in
 * ClickHouse (SELECT 1, 1). */
int ty_batch_add_column_take(ty_batch *batch, const char *name, ty_column *column, mu_err *err);
/* Checks that every column has the same number of rows, at most
 * TY_BATCH_ROWS_MAX, and sets row_count. */
int ty_batch_seal(ty_batch *batch, mu_err *err);
ty_column *ty_batch_find_column(const ty_batch *batch, const char *name);
/* Copies a selection vector of `count` row indexes (each < row_count). */
int ty_batch_set_selection(ty_batch *batch, const uint32_t *rows, uint32_t count, mu_err *err);
/* Number of rows a consumer sees: selection_count or row_count. */
static inline uint32_t ty_batch_visible_rows(const ty_batch *b) {
    return b->selection ? b->selection_count : b->row_count;
}

/* ------------------------------------------------------------------ */
/* Binary batch encoding (WAL record payload)                          */
/*
 * All integers little-endian. Version 1:
 *
 *   offset size  meaning
 *   0      4     magic "MUB1" (0x4D 0x55 0x42 0x31)
 *   4      2     format version = 1
 *   6      2     flags, 0 (decoders reject others)
 *   8      4     row count R (<= 65536)
 *   12     4     column count C (<= 4096)
 *   16     ...   C columns, each:
 *                  u32 name length, name bytes (1..65535, no NUL)
 *                  u32 type-name length, canonical type name bytes
 *                  column body for R rows (below)
 *   end          nothing may follow the last column
 *
 * Column body for n rows of type T (recursive, depth <= TY_TYPE_DEPTH_MAX):
 *   u8 has_validity: 1 iff T is Nullable or LowCardinality(Nullable);
 *      then ceil(n / 8) validity bytes, bit i set = valid, unused high
 *      bits of the last byte zero
 *   fixed width (numbers, Bool, dates, UUID, Decimal, Enum):
 *      n * width bytes (Bool 0/1 only; Enum values declared;
 *      Date32/DateTime64 unchecked ranges are accepted as stored)
 *   FixedString(N): n * N bytes
 *   String: (n + 1) u32 offsets (first 0, non-decreasing), then
 *      offsets[n] bytes
 *   Array(E): (n + 1) u32 offsets, then the body of E for offsets[n] rows
 *   Map(K, V): (n + 1) u32 offsets, then the body of K and the body of V,
 *      each for offsets[n] rows (K and V bodies have no validity unless
 *      they are Nullable)
 *   LowCardinality(T): u32 dictionary count D (>= 1), the body of T
 *      without Nullable for D rows, then n u32 indices, each < D
 */
/* ------------------------------------------------------------------ */

#define TY_BATCH_MAGIC "MUB1"
#define TY_BATCH_FORMAT_VERSION 1u
#define TY_BATCH_HEADER_BYTES 16u

/* Appends the encoding of the batch's visible rows (a selection vector is
 * applied) to out. The batch must be sealed. */
int ty_batch_encode(const ty_batch *batch, mu_buf *out, mu_err *err);
/* Decodes untrusted bytes into a new batch charged to tracker. Every
 * length, offset, index and value is checked; anything wrong is
 * MU_ECORRUPT naming the byte position (also unknown or invalid type
 * names). The result passes ty_column_validate. */
int ty_batch_decode(const uint8_t *bytes, size_t length_bytes, mu_mem_tracker *tracker,
                    ty_batch **batch_out, mu_err *err);

#endif /* MUSCLES_TYPES_H */
