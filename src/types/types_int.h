/* types_int.h: private interface shared by the files of src/types. Nothing
 * outside this folder includes it. It owns the column buffer growth rules
 * (malloc + tracker charge), the LowCardinality dictionary index, and the
 * helpers that build MU_EPARSE messages in one shape:
 *   cannot parse "300" as UInt8: value out of range 0..255
 */
#ifndef MUSCLES_TYPES_INT_H
#define MUSCLES_TYPES_INT_H

#include "types/types.h"

/* Bytes of a value quoted in an error message before it is cut with "...". */
#define TY__MESSAGE_VALUE_BYTES 64

/* Buffers: growth doubles, charged to the tracker (NULL = uncharged). */
int ty__buffer_reserve(ty_buffer *b, mu_mem_tracker *tracker, size_t extra_bytes, mu_err *err);
int ty__buffer_append(ty_buffer *b, mu_mem_tracker *tracker, const void *data, size_t bytes,
                      mu_err *err);
void ty__buffer_free(ty_buffer *b, mu_mem_tracker *tracker);

/* Shrinks a column back to `rows` rows (rows <= row_count), children
 * included; used to undo a partly appended composite value. Dictionary
 * entries added meanwhile stay (unused entries are allowed). */
void ty__column_truncate(ty_column *column, uint32_t rows);
/* Appends a valid-row bit or a null-row bit to the validity bitmap. */
int ty__validity_push(ty_column *column, bool valid, mu_err *err);
/* Appends a new row's end offset (String/Array/Map). */
int ty__offsets_push(ty_column *column, uint32_t end, mu_err *err);
/* Appends a value (raw bytes of the dictionary type; FixedString may be
 * shorter) to a LowCardinality column, adding it to the dictionary if new. */
int ty__lc_append_bytes(ty_column *column, const void *data, size_t bytes, mu_err *err);

/* Adds a column whose type already lives in the batch's arena (decoding). */
int ty__batch_add_owned(ty_batch *b, const char *name, size_t name_bytes, const ty_type *type,
                        ty_column **column_out, mu_err *err);

/* LowCardinality dictionary index: value bytes -> dictionary position. */
struct ty__lc_index;
int ty__lc_index_create(ty_column *column, mu_err *err);
void ty__lc_index_destroy(ty_column *column);
/* Position of the dictionary entry equal to data, inserting it if absent. */
int ty__lc_index_find_or_insert(ty_column *column, const void *data, size_t bytes,
                                uint32_t *index_out, mu_err *err);
/* Rebuilds the index from the dictionary (after decoding). */
int ty__lc_index_rebuild(ty_column *column, mu_err *err);

/* Fills err with MU_EPARSE: cannot parse "<text>" as <type>: <reason>. */
int ty__parse_error(mu_err *err, const ty_type *type, const char *text, size_t text_bytes,
                    const char *reason_fmt, ...) __attribute__((format(printf, 5, 6)));
/* Writes text into out as a printable, cut message fragment. */
void ty__message_value(const char *text, size_t text_bytes, char *out, size_t out_bytes);

/* The entry of an Enum with this value, or NULL (entries sorted by value). */
const ty_enum_entry *ty__enum_find_value(const ty_type *t, int16_t value);

/* Quoted string as ClickHouse writes it inside composites ('a\'b'). */
int ty__render_quoted_bytes(const uint8_t *data, size_t bytes, mu_buf *out, mu_err *err);

/* Date and time text (calendar.c). Days are since 1970-01-01. */
bool ty__parse_date_fields(const char *p, size_t n, int64_t *days_out);
bool ty__parse_time_fields(const char *p, size_t n, int64_t *seconds_out);
/* "YYYY-MM-DD" into out (24 bytes); years outside 0..9999 render with
 * more digits or a sign. Returns the length. */
size_t ty__format_date(int64_t days, char *out);
/* "YYYY-MM-DD hh:mm:ss" of local seconds; out holds 40 bytes. */
size_t ty__format_datetime(int64_t local_seconds, char *out);

/* Floor division and modulo for negative tick counts. */
static inline int64_t ty__floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
static inline int64_t ty__floor_mod(int64_t a, int64_t b) {
    int64_t r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

/* Limits of the date types, in days since 1970-01-01 and seconds. */
#define TY__DATE_DAYS_MAX 65535            /* 2149-06-06 */
#define TY__DATE32_DAYS_MIN (-25567)       /* 1900-01-01 */
#define TY__DATE32_DAYS_MAX 120529         /* 2299-12-31 */
#define TY__DATETIME_SECONDS_MAX 4294967295LL

static inline int64_t ty__pow10_i64(unsigned e) {
    int64_t v = 1;
    while (e-- > 0) v *= 10;
    return v;
}

#endif /* MUSCLES_TYPES_INT_H */
