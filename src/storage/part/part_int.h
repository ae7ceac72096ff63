/* part_int.h: private interface shared by the part_*.c files of
 * src/storage/part (never included elsewhere): the writer and reader
 * structs, the manifest and marks encodings (part_format.c), the value
 * encoding of keys and minmax entries (part_value.c), granule stream
 * encoding and decoding (part_stream.c) and small file helpers. Byte
 * layouts: part.h and docs/formats/part.md.
 */
#ifndef MUSCLES_PART_INT_H
#define MUSCLES_PART_INT_H

#include <string.h>

#include "io/io.h"
#include "storage/part/part.h"

#define PART__MANIFEST_MAGIC "MUMF"
#define PART__MARKS_MAGIC "MUMK"
#define PART__MINMAX_MAGIC "MUMX"
#define PART__MANIFEST_HEADER_BYTES 12u
#define PART__MARKS_HEADER_BYTES 32u
#define PART__MINMAX_HEADER_BYTES 12u
#define PART__MARK_BYTES 16u /* u64 offset, u32 size, u32 crc32c */
/* A column's encoded granules are written once this many bytes are
 * pending: the budget shared by all columns, per column within
 * [MIN, MAX], so wide tables do not hold 1 MiB per column. */
#define PART__FLUSH_BUDGET_BYTES ((size_t)32 << 20)
#define PART__FLUSH_BYTES_MIN ((size_t)16 << 10)
#define PART__FLUSH_BYTES_MAX ((size_t)1 << 20)

/* ------------------------------------------------------------------ */
/* Manifest (part_format.c)                                            */
/* ------------------------------------------------------------------ */

typedef struct part__column {
    const char *name;           /* NUL-terminated */
    const ty_type *type;
    part_codec_chain codec;
    bool minmax;
    char file_stem[PART_FILE_STEM_BYTES_MAX + 1];
} part__column;

typedef struct part__file {
    const char *name;           /* relative to the part directory: "x.bin", "idx/..." */
    uint64_t size_bytes;
    uint32_t crc32c;
} part__file;

/* Everything the manifest holds. Decoded manifests point into the
 * manifest bytes and into the part's arena. */
typedef struct part__manifest {
    uint16_t format_version;  /* PART_FORMAT_VERSION_MIN..PART_FORMAT_VERSION */
    uint8_t table_uuid[16];
    const char *partition_id;
    const char *partition_value;
    uint64_t lsn_min;
    uint64_t lsn_max;
    uint32_t level;
    uint64_t row_count;
    uint32_t granule_count;
    uint32_t index_granularity;
    bool has_ttl;
    uint64_t ttl_min;
    uint64_t ttl_max;
    uint32_t column_count;
    part__column *columns;
    uint32_t key_count;
    uint32_t *key_columns;
    const uint8_t *key_first;   /* value encoding of the first row's key */
    uint32_t key_first_bytes;
    const uint8_t *key_last;
    uint32_t key_last_bytes;
    uint32_t token_count;
    const part_token *tokens;
    uint32_t file_count;
    part__file *files;
} part__manifest;

int part__manifest_encode(const part__manifest *m, mu_buf *out, mu_err *err);
/* Decodes untrusted bytes (which must outlive m) into m, allocating in
 * arena; types are parsed there too. MU_ECORRUPT naming the byte offset. */
int part__manifest_decode(const uint8_t *bytes, size_t length_bytes, mu_arena *arena,
                          part__manifest *m, mu_err *err);
/* Checks a partition id: 1..PART_PARTITION_ID_BYTES_MAX of [A-Za-z0-9_-]. */
bool part__partition_id_valid(const char *id, size_t id_bytes);
/* The chain of structure streams: the column chain's compressor, else LZ4. */
void part__aux_chain(const part_codec_chain *chain, part_codec_chain *aux_out);
/* MU_EINVAL unless chain is what CODEC(...) text gives for the type. */
int part__codec_check(const part_codec_chain *chain, const ty_type *type, mu_err *err);

/* ------------------------------------------------------------------ */
/* Marks (part_format.c)                                               */
/* ------------------------------------------------------------------ */

typedef struct part__mark {
    uint64_t offset;
    uint32_t size_bytes;
    uint32_t crc32c;
} part__mark;

typedef struct part__marks {
    uint32_t granule_count;
    uint32_t column_count;
    uint64_t row_count;
    uint32_t *granule_rows;       /* [granule] */
    uint64_t *granule_first_row;  /* [granule] */
    part__mark *marks;            /* [granule * column_count + column] */
    const uint8_t **keys;         /* [granule]: value encoding of the first key */
    uint32_t *key_bytes;          /* [granule] */
} part__marks;

/* Writes the 32-byte marks header. */
void part__marks_header(uint8_t out[PART__MARKS_HEADER_BYTES], uint16_t format_version,
                        uint32_t granule_count,
                        uint32_t column_count, uint32_t key_count, uint64_t row_count);
/* Decodes the marks file (checksum first) against the manifest's counts;
 * arrays in arena, keys point into bytes. */
int part__marks_decode(const uint8_t *bytes, size_t length_bytes, const part__manifest *m,
                       mu_arena *arena, part__marks *marks, mu_err *err);

/* ------------------------------------------------------------------ */
/* Value encoding (part_value.c)                                       */
/* ------------------------------------------------------------------ */

/* Appends the value encoding of row `row` of c. */
int part__value_encode(const ty_column *c, uint32_t row, mu_buf *out, mu_err *err);
/* Appends one row decoded from bytes[0..length) to c; *consumed gets the
 * bytes used. MU_ECORRUPT naming the offset on any inconsistency. */
int part__value_decode(ty_column *c, const uint8_t *bytes, size_t length_bytes,
                       size_t *consumed, mu_err *err);
/* Decodes one key (key_count values, one per key column) into rows of
 * columns and requires it to fill bytes exactly. */
int part__key_decode(ty_column *const *columns, uint32_t key_count, const uint8_t *bytes,
                     size_t length_bytes, mu_err *err);

/* ------------------------------------------------------------------ */
/* Granule streams (part_stream.c)                                     */
/* ------------------------------------------------------------------ */

/* Writer scratch, reused across granules and columns. */
typedef struct part__encoder {
    mu_buf lengths;
    mu_buf bytes;
    mu_buf bits;
    uint32_t *lc_map;         /* source dictionary index -> local index */
    uint32_t *lc_stamp;       /* generation of each lc_map entry */
    uint32_t lc_capacity;
    uint32_t lc_generation;
    uint32_t *lc_entries;     /* local index -> source index */
    uint32_t lc_entries_capacity;
    uint64_t raw_bytes;       /* stream bytes encoded so far */
} part__encoder;

void part__encoder_init(part__encoder *e);
void part__encoder_deinit(part__encoder *e);
/* Appends the blocks of rows [from, from + count) of c (every stream of
 * its type) to out. */
int part__granule_encode(part__encoder *e, const ty_column *c, const part_codec_chain *chain,
                         const part_codec_chain *aux, uint32_t from, uint32_t count,
                         mu_buf *out, mu_err *err);

/* Reader scratch: one buffer per stream of a granule, dictionaries. */
typedef struct part__decoder {
    const uint8_t *data;      /* the granule's bytes (checksum verified) */
    size_t size_bytes;
    size_t pos;
    uint32_t stream_index;
    mu_buf *streams;
    uint32_t stream_capacity;
    ty_column **dictionaries; /* [stream index], created on first use */
    uint16_t format_version;  /* of the part (PART_FORMAT_VERSION after init) */
    mu_buf scratch;           /* lengths of interleaved strings */
} part__decoder;

void part__decoder_init(part__decoder *d);
void part__decoder_deinit(part__decoder *d);
/* Appends `rows` rows decoded from data[0..size) to out; every block
 * must be consumed exactly. On failure out may hold extra rows: the caller
 * truncates. */
int part__granule_decode(part__decoder *d, const uint8_t *data, size_t size_bytes,
                         uint32_t rows, ty_column *out, mu_err *err);

/* ------------------------------------------------------------------ */
/* Order-preserving u64 of fixed-width values (sorting, order checks,  */
/* minmax): a < b under ty_column_compare_rows iff norm(a) < norm(b).  */
/* ------------------------------------------------------------------ */

#define PART__NORM_NULL UINT64_MAX /* after every value of a class that leaves room */

/* 'u' unsigned, 's' signed, 'f' float, 0 for kinds without a u64 form
 * (Decimal128, UUID, FixedString, ...). With nullable, 8-byte integers get
 * 0 too: their values use every u64, leaving no room for NULL. */
static inline char part__norm_class(const ty_type *v, bool nullable) {
    size_t width = ty_type_value_bytes(v);
    switch (v->kind) {
    case TY_UINT8: case TY_UINT16: case TY_UINT32: case TY_UINT64: case TY_BOOL: case TY_DATE:
    case TY_DATETIME:
        return width < 8 || !nullable ? 'u' : 0;
    case TY_INT8: case TY_INT16: case TY_INT32: case TY_INT64: case TY_DATE32:
    case TY_DATETIME64: case TY_ENUM8: case TY_ENUM16:
        return width < 8 || !nullable ? 's' : 0;
    case TY_DECIMAL:
        return width < 8 || (width == 8 && !nullable) ? 's' : 0;
    case TY_FLOAT32: case TY_FLOAT64:
        return 'f';
    default:
        return 0;
    }
}

/* NaN after +inf (and before NULL); -0 == +0. */
static inline uint64_t part__norm_double(double x) {
    if (x != x) return PART__NORM_NULL - 1;
    if (x == 0) x = 0;
    uint64_t bits;
    memcpy(&bits, &x, 8);
    return (bits >> 63) ? ~bits : bits | ((uint64_t)1 << 63);
}

static inline uint64_t part__norm_fixed(char cls, const ty_type *v, const uint8_t *p,
                                        size_t width) {
    if (cls == 'u')
        return width == 1 ? p[0] : width == 2 ? mu_load_u16le(p)
                                 : width == 4 ? mu_load_u32le(p) : mu_load_u64le(p);
    if (cls == 's') {
        int64_t s = width == 1   ? (int8_t)p[0]
                    : width == 2 ? (int16_t)mu_load_u16le(p)
                    : width == 4 ? (int32_t)mu_load_u32le(p)
                                 : (int64_t)mu_load_u64le(p);
        return (uint64_t)s ^ ((uint64_t)1 << 63);
    }
    if (v->kind == TY_FLOAT32) {
        float f;
        memcpy(&f, p, 4);
        return part__norm_double(f);
    }
    double d;
    memcpy(&d, p, 8);
    return part__norm_double(d);
}

/* The first row in (from, from + count) that sorts before the row before
 * it by the key columns, or UINT32_MAX if the rows are in order
 * (part_sort.c). */
uint32_t part__first_unsorted(const ty_column *const *columns, const uint32_t *keys,
                              uint32_t key_count, uint32_t from, uint32_t count);

/* ------------------------------------------------------------------ */
/* Minmax entries (part_minmax.c)                                      */
/* ------------------------------------------------------------------ */

/* Appends the entry of rows [from, from + count) of c: a flags byte, then
 * min and max in the value encoding if the granule has non-NULL values. */
int part__minmax_granule(mu_buf *entries, const ty_column *c, uint32_t from, uint32_t count,
                         mu_err *err);
/* The whole index file: header, the entries, crc32c. */
int part__minmax_file_encode(const mu_buf *entries, uint32_t granule_count, mu_buf *out,
                             mu_err *err);

/* ------------------------------------------------------------------ */
/* Files and paths (part_publish.c)                                    */
/* ------------------------------------------------------------------ */

/* dir + "/" + name into out (IO_PATH_MAX_BYTES); MU_EINVAL if too long. */
int part__path_join(char *out, const char *dir, const char *name, mu_err *err);
/* Creates path (which must not exist), writes data, fsyncs and closes. */
int part__file_write_synced(const char *path, const void *data, size_t length_bytes,
                            mu_err *err);
/* The last path component of path (no trailing slashes) into out. */
void part__path_base(const char *path, char *out, size_t out_bytes);

/* ------------------------------------------------------------------ */
/* Writer and part structs                                             */
/* ------------------------------------------------------------------ */

struct part {
    char *dir;
    char *table_name;
    mu_arena *arena;          /* names, types, marks arrays */
    mu_buf manifest_bytes;    /* decoded manifest points into it */
    mu_buf marks_bytes;       /* marks keys point into it */
    part__manifest manifest;
    const part__file **files_sorted; /* the file list sorted by name */
    part__marks marks;
    part_info info;
    ty_column **key_range;    /* [key]: 2 rows */
    ty_column **first_keys;   /* [key]: granule_count rows */
};

/* The manifest's entry for a file name, or NULL (part_reader.c). */
const part__file *part__find_file(const part *p, const char *name);

#endif /* MUSCLES_PART_INT_H */
