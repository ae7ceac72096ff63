/* part.h: the on-disk part of muscles and the whole interface of the part
 * module (prefix part_): the writer that turns sorted rows into a part
 * directory, publication by rename, the reader that opens, verifies and
 * decodes a part, minmax skip indexes, and the stable sort permutation the
 * flusher and merges sort rows with. A part is read-only once published.
 * Byte layout summary below; every field in docs/formats/part.md; codec
 * blocks in codec.h. Threads: a writer belongs to one thread; an open part
 * is immutable and part_read/part_minmax_load/part_verify_files may run
 * from any number of threads at once (each opens its own file handles).
 */
#ifndef MUSCLES_PART_H
#define MUSCLES_PART_H

#include "base/base.h"
#include "storage/part/codec.h"
#include "types/types.h"

/* ------------------------------------------------------------------ */
/* Format summary (version 2, all integers little-endian; readers also
 * take version 1, whose String is two streams: lengths, then bytes)
 *
 * Directory <partition_id>_<lsn_min>_<lsn_max>_<level>/ holding:
 *   <col>.bin   per column: for each granule of up to index_granularity
 *               rows, one codec block (codec.h) per stream of the column
 *               type, back to back. Streams (pre-order over the type):
 *                 Nullable(T)        validity bitmap, then T's streams
 *                 fixed width, FixedString   values
 *                 String             one stream: per row LEB128
 *                                    length + bytes (version 1: lengths,
 *                                    bytes)
 *                 Array(E)           lengths, then E's over the elements
 *                 Map(K, V)          lengths, K's streams, V's streams
 *                 LowCardinality(T)  [validity], the granule's dictionary
 *                                    (T's streams without NULLs), indices
 *                                    of 1, 2 or 4 bytes (raw size / rows)
 *               Values streams (and LC indices) use the column's chain;
 *               validity, lengths and dictionaries use its compressor only
 *               (LZ4 if the chain has none). Lengths are 1, 2 or 4
 *               bytes each, the narrowest for the granule (raw size / n).
 *   marks       "MUMK", header, per granule {u32 rows, per column {u64
 *               offset, u32 size, u32 crc32c of the granule's bytes}},
 *               then per granule its first sort key, then crc32c.
 *   manifest    "MUMF", u32 body length, body (uuid, partition, LSNs,
 *               level, counts, TTL, schema, key, key range, tokens, file
 *               list with sizes and crc32c), crc32c.
 *   idx/minmax_<col>.idx   optional: "MUMX", per granule flags and
 *               min/max values, crc32c. Advisory: never changes results.
 * <col> is the column name with bytes outside [A-Za-z0-9_] written %XX;
 * escaped names longer than PART_FILE_STEM_BYTES_MAX become "~" + 16 hex
 * digits of XXH64(name).
 *
 * Values in keys and minmax entries use the value encoding: fixed width
 * as LE bytes, String as LEB128 length + bytes, FixedString N bytes,
 * Nullable a byte (1 = NULL, 0 = a value follows), LowCardinality as its
 * dictionary type, Array as LEB128 count + elements, Map as LEB128 count
 * + key, value pairs.
 */
/* ------------------------------------------------------------------ */

/* Written by this build; every file of a part (manifest, marks, minmax)
 * carries the part's version. Readers take MIN..VERSION. */
#define PART_FORMAT_VERSION 2
#define PART_FORMAT_VERSION_MIN 1
#define PART_INDEX_GRANULARITY_DEFAULT 8192u
#define PART_INDEX_GRANULARITY_MAX (1u << 20)
#define PART_COLUMNS_MAX 4096u
#define PART_KEY_COLUMNS_MAX 256u
#define PART_TOKEN_BYTES_MAX 256u
#define PART_TOKENS_MAX (1u << 20)
#define PART_PARTITION_ID_BYTES_MAX 128u
#define PART_PARTITION_VALUE_BYTES_MAX 65536u
#define PART_NAME_BYTES_MAX 200u
/* Escaped column names longer than this are hashed (file names <= 255). */
#define PART_FILE_STEM_BYTES_MAX 200u
#define PART_FILE_NAME_BYTES_MAX 240u
/* Marks and manifest larger than this are refused (writer and reader). */
#define PART_MARKS_BYTES_MAX ((size_t)1 << 30)
#define PART_MANIFEST_BYTES_MAX ((size_t)1 << 30)
#define PART_MINMAX_BYTES_MAX ((size_t)1 << 30)

#define PART_MANIFEST_FILE "manifest"
#define PART_MARKS_FILE "marks"
#define PART_INDEX_DIR "idx"

/* Failpoints passed to io (besides io's generic ones). */
#define PART_FP_MKDIR "part.mkdir"
#define PART_FP_OPEN "part.open"
#define PART_FP_WRITE "part.write"
#define PART_FP_FSYNC "part.fsync"
#define PART_FP_FSYNC_DIR "part.fsync_dir"
#define PART_FP_RENAME "part.rename"
#define PART_FP_UNLINK "part.unlink"
/* Crash points of part_publish. */
#define PART_CP_BEFORE_RENAME "part.before_rename"
#define PART_CP_AFTER_RENAME "part.after_rename"

/* ------------------------------------------------------------------ */
/* Names                                                               */
/* ------------------------------------------------------------------ */

/* "<partition_id>_<lsn_min>_<lsn_max>_<level>" into out. The partition id
 * is 1..PART_PARTITION_ID_BYTES_MAX bytes of [A-Za-z0-9_-]; MU_EINVAL
 * otherwise or if lsn_min > lsn_max. */
int part_name_format(const char *partition_id, uint64_t lsn_min, uint64_t lsn_max,
                     uint32_t level, char *out, size_t out_bytes, mu_err *err);
/* Parses a part directory name (from the right: the last three fields are
 * decimal numbers). MU_EINVAL if it is not one. partition_id_out gets the
 * NUL-terminated id. */
int part_name_parse(const char *name, char *partition_id_out, size_t partition_id_bytes,
                    uint64_t *lsn_min_out, uint64_t *lsn_max_out, uint32_t *level_out,
                    mu_err *err);
/* File name stem of a column (no ".bin"): %XX-escaped or hashed, see above.
 * out must hold PART_FILE_STEM_BYTES_MAX + 1 bytes. Returns out. */
char *part_column_file_stem(const char *column_name, size_t name_bytes, char *out);

/* ------------------------------------------------------------------ */
/* Writer                                                              */
/* ------------------------------------------------------------------ */

typedef struct part_column_def {
    const char *name;               /* 1..TY_COLUMN_NAME_BYTES_MAX bytes, unique */
    const ty_type *type;            /* borrowed until the writer closes */
    const part_codec_chain *codec;  /* NULL: LZ4. Must be a chain CODEC(...) text accepts
                                     * for the type: part_codec_chain_parse with
                                     * ty_type_value_bytes(type) */
    bool minmax;                    /* write idx/minmax_<col>.idx (not Array/Map) */
} part_column_def;

typedef struct part_schema {
    const part_column_def *columns;  /* 1..PART_COLUMNS_MAX */
    uint32_t column_count;
    const uint32_t *key_columns;     /* sort key: column indexes, in key order */
    uint32_t key_count;              /* 0..PART_KEY_COLUMNS_MAX */
    uint32_t index_granularity;      /* rows per granule; 0 = the default 8192 */
} part_schema;

typedef struct part_token {
    const uint8_t *data;
    uint32_t bytes; /* 1..PART_TOKEN_BYTES_MAX */
} part_token;

/* What the manifest says about where the rows came from. */
typedef struct part_meta {
    uint8_t table_uuid[16];
    const char *partition_id;     /* see part_name_format */
    const char *partition_value;  /* partition key value as text; NULL = "" */
    uint64_t lsn_min;             /* LSN range of the WAL records in the part */
    uint64_t lsn_max;
    uint32_t level;               /* 0 for a flush, merges: 1 + max of the inputs */
    bool has_ttl;
    uint64_t ttl_min;             /* TTL range (seconds), if has_ttl */
    uint64_t ttl_max;
    const part_token *tokens;     /* insert tokens of the records flushed into the part */
    uint32_t token_count;
} part_meta;

typedef struct part_writer_stats {
    uint64_t row_count;
    uint32_t granule_count;
    uint64_t raw_bytes;      /* stream bytes before compression */
    uint64_t written_bytes;  /* bytes of every file of the part */
} part_writer_stats;

typedef struct part_writer part_writer;

/* Creates tmp_dir (which must not exist: MU_EEXISTS) and one .bin file per
 * column. The schema is copied; its types are borrowed. Bad schemas
 * (names, codecs, key or minmax columns) are MU_EINVAL naming the column.
 * tracker (may be NULL) is charged for the writer's buffers. */
int part_writer_open(part_writer **writer_out, const char *tmp_dir, const part_schema *schema,
                     mu_mem_tracker *tracker, mu_err *err);
/* Appends rows [from, from + count) of columns[0..column_count), in schema
 * order and types (MU_ETYPE otherwise). Rows must arrive sorted by the key
 * across all calls: a row smaller than its predecessor is MU_EINVAL and
 * nothing of that call is written. Full granules are encoded straight
 * from the caller's buffers; a partial granule is copied and completed by
 * later calls. Any other failure breaks the writer (part_writer_abort). */
int part_writer_append(part_writer *w, const ty_column *const *columns, uint32_t from,
                       uint32_t count, mu_err *err);
/* Writes the last granule, the minmax indexes, marks and the manifest,
 * fsyncs every file and the directories (idx/ and tmp_dir). An empty part
 * (no rows) is MU_EINVAL. On success tmp_dir is ready for part_publish; on
 * failure the writer is broken and only part_writer_abort remains. */
int part_writer_finish(part_writer *w, const part_meta *meta, mu_err *err);
void part_writer_get_stats(const part_writer *w, part_writer_stats *stats_out);
/* Frees the writer. If part_writer_finish has not succeeded, the tmp
 * directory is removed as by part_writer_abort. Accepts NULL. */
void part_writer_close(part_writer *w);
/* Removes the tmp directory and everything in it (best effort: a failure
 * is logged; startup removes leftover tmp_ directories) and frees the
 * writer. Accepts NULL. */
void part_writer_abort(part_writer *w);

/* ------------------------------------------------------------------ */
/* Publish and remove                                                  */
/* ------------------------------------------------------------------ */

/* Publishes a finished part: rename(tmp_dir, final_dir) (never replacing:
 * MU_EEXISTS), then fsync of final_dir's parent (and tmp_dir's, if
 * different). Crash points PART_CP_BEFORE_RENAME, PART_CP_AFTER_RENAME
 * (after the rename, before the parent fsync). MU_EINVAL if tmp_dir holds
 * no manifest. If the parent fsync fails the part may or may not survive a
 * crash; either way it is complete: the caller must not treat it as
 * durable (keep the WAL records) and must not retry the fsync. */
int part_publish(const char *tmp_dir, const char *final_dir, mu_err *err);
/* Removes a part directory. A directory whose name does not start with
 * "tmp_" is first renamed to "tmp_delete_<name>" (durably), so a crash
 * never leaves a half-deleted part under its own name. */
int part_dir_remove(const char *dir, mu_err *err);

/* ------------------------------------------------------------------ */
/* Reader                                                              */
/* ------------------------------------------------------------------ */

typedef struct part_info {
    const char *name;             /* from the manifest */
    const char *dir;
    const char *partition_id;
    const char *partition_value;
    uint8_t table_uuid[16];
    uint64_t row_count;
    uint32_t granule_count;
    uint32_t index_granularity;
    uint32_t column_count;
    uint32_t key_count;
    uint64_t lsn_min;
    uint64_t lsn_max;
    uint32_t level;
    bool has_ttl;
    uint64_t ttl_min;
    uint64_t ttl_max;
    uint32_t token_count;
    uint64_t bytes_on_disk;       /* listed files + the manifest */
} part_info;

typedef struct part part;

/* Opens the part in dir: reads and verifies the manifest (checksum, every
 * field, schema types and codecs), the marks (checksum, counts, offsets
 * contiguous, first keys decodable and non-decreasing) and the size of
 * every listed file except idx/ (whole-file checksums: part_verify_files).
 * The directory's name must be the manifest's part name or start with
 * "tmp_". Damage is MU_ECORRUPT naming table, part and file. table_name is
 * only used in messages (may be NULL). */
int part_open(part **part_out, const char *dir, const char *table_name, mu_err *err);
void part_close(part *p); /* accepts NULL */

const part_info *part_get_info(const part *p);
const char *part_column_name(const part *p, uint32_t column_index);
const ty_type *part_column_type(const part *p, uint32_t column_index);
const part_codec_chain *part_column_codec(const part *p, uint32_t column_index);
bool part_column_has_minmax(const part *p, uint32_t column_index);
/* Index of the column named name, or false if the part has none. */
bool part_column_find(const part *p, const char *name, uint32_t *column_index_out);
uint32_t part_key_column(const part *p, uint32_t key_index); /* column index */
/* Key column key_index of the part's key range: row 0 is the first row's
 * value, row 1 the last row's. */
const ty_column *part_key_range(const part *p, uint32_t key_index);
/* Key column key_index of every granule's first row: row g = granule g. */
const ty_column *part_first_keys(const part *p, uint32_t key_index);
uint32_t part_granule_rows(const part *p, uint32_t granule_index);
uint64_t part_granule_first_row(const part *p, uint32_t granule_index);
/* Insert token i (data valid while the part is open). */
const uint8_t *part_token_get(const part *p, uint32_t token_index, uint32_t *bytes_out);

/* Appends the rows of granules [first_granule, first_granule + count) of
 * a column to out (a column of exactly the column's type: MU_ETYPE). Each
 * granule's bytes are checked against the crc32c in the marks before they
 * are decoded: a mismatch is MU_ECHECKSUM, "table T part P column C
 * granule G: checksum mismatch in C.bin at offset O". Inconsistent
 * decoded data is MU_ECORRUPT with the same prefix. On failure out is left
 * as it was (LowCardinality dictionary entries may remain). */
int part_read(const part *p, uint32_t column_index, uint32_t first_granule,
              uint32_t granule_count, ty_column *out, mu_err *err);
/* Reads every listed file whole and compares its size and crc32c with the
 * manifest (the `check` command): MU_ECHECKSUM or MU_ECORRUPT naming the
 * first bad file. */
int part_verify_files(const part *p, mu_err *err);

/* Per granule minimum and maximum of a column, in the order of
 * ty_column_compare_rows over its non-NULL values. */
enum part_minmax_flag {
    PART_MINMAX_HAS_NULL = 1u << 0,   /* the granule has NULL rows */
    PART_MINMAX_HAS_VALUES = 1u << 1, /* ... and non-NULL rows: min/max are set */
};
typedef struct part_minmax {
    uint32_t granule_count;
    ty_column *min;   /* granule_count rows of the column's type; NULL rows */
    ty_column *max;   /* where the granule has no non-NULL value */
    uint8_t *flags;   /* granule_count enum part_minmax_flag sets */
} part_minmax;

/* Loads idx/minmax_<col>.idx. MU_ENOT_FOUND if the column has none; a
 * missing or damaged file is MU_ECORRUPT naming it: callers log it and
 * scan without the index (an index never changes a result). */
int part_minmax_load(const part *p, uint32_t column_index, part_minmax *minmax_out,
                     mu_err *err);
void part_minmax_deinit(part_minmax *minmax); /* accepts a zeroed struct */

/* ------------------------------------------------------------------ */
/* Sorting                                                             */
/* ------------------------------------------------------------------ */

/* Fills perm_out[0..row_count) with the row order that sorts the rows by
 * the key columns (ty_column_compare_rows, first key first), stable: rows
 * with equal keys keep their order. Every key column must hold at least
 * row_count rows. MU_ENOMEM if scratch memory runs out. */
int part_sort_permutation(const ty_column *const *columns, const uint32_t *key_column_indexes,
                          uint32_t key_count, uint32_t row_count, uint32_t *perm_out,
                          mu_err *err);

#endif /* MUSCLES_PART_H */
