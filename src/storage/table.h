/* table.h: a stored table and THE ingest entry point. A table owns its
 * write-ahead log, its memtables, its parts, the flusher that turns sealed
 * memtables into parts, and the refcounted versions readers hold.
 * table_append is the only way rows enter a table: HTTP
 * inserts, remote-write, Kafka, the agent, INSERT SELECT and IMPORT all end
 * there (DESIGN.md section 4).
 *
 * table_append, in order: (1) check the batch against the schema and coerce
 * it into schema order and types; a bad row fails the whole batch and
 * nothing is written; (2) copy the rows into unpublished memtable chunks;
 * (3) encode the batch as one WAL record and wait for its group commit (the
 * WAL answers "already stored" for a token it has seen); (4) publish the
 * rows to readers, then return. Only then may a caller acknowledge.
 */
#ifndef MUSCLES_TABLE_H
#define MUSCLES_TABLE_H

#include "base/base.h"
#include "storage/memtable/memtable.h"
#include "storage/part/part.h"
#include "types/types.h"

/* WAL record types written by tables. */
#define TABLE_RECORD_BATCH 1 /* payload: ty_batch_encode of rows in schema order */
#define TABLE_RECORD_STAGE_MARK 2   /* no payload: an LSN for staged parts */
#define TABLE_RECORD_STAGE_COMMIT 3 /* payload: u32 count, then u16 length + name of each
                                     * staged part; the insert's token */
#define TABLE_STAGE_DIR "stage"     /* under the parts directory */

typedef struct table table;
typedef struct table_version table_version;

/* A computed key: the PARTITION BY expression, or an ORDER BY item that is
 * an expression, evaluated by the layer that owns expressions (sql). It
 * writes to *out a new column holding key `key`'s value for each of the
 * `rows` rows of `columns` (the stored columns, in schema order). It must
 * be deterministic and safe to call from several threads: table_append
 * evaluates every computed key over a batch before logging it (a failure
 * rejects the batch and nothing is written), the flusher again over the
 * sealed memtable. */
typedef int (*table_key_fn)(void *ctx, uint32_t key, const ty_column *const *columns,
                            uint32_t rows, ty_column **out, mu_err *err);

typedef struct table_options {
    const char *name;                  /* "database.table", for messages */
    const char *wal_dir;               /* this table's log directory */
    const char *parts_dir;             /* this table's parts directory */
    uint8_t uuid[16];                  /* the table's uuid (in part manifests) */
    uint32_t column_count;
    const char *const *column_names;   /* borrowed; outlive the table */
    const ty_type *const *column_types;
    const part_codec_chain *const *column_codecs; /* NULL or NULL entries: LZ4 */
    /* The parts' sort key: column indexes (borrowed); the ORDER BY items
     * before the first computed one. Parts record its ranges. */
    const uint32_t *sort_key;
    uint32_t sort_key_count;
    /* The whole ORDER BY the flusher sorts by: an item below column_count
     * is a column, item column_count + k is computed key k. NULL: sort_key. */
    const uint32_t *sort_order;
    uint32_t sort_order_count;
    /* PARTITION BY: a column or computed key, numbered as in sort_order;
     * without it one partition, "all". The partition value is the key's
     * text (ClickHouse's rendering, e.g. "202401"). */
    bool partitioned;
    uint32_t partition_key;
    uint32_t computed_key_count;
    table_key_fn key_fn;               /* required when computed_key_count > 0 */
    void *key_ctx;
    uint32_t index_granularity;        /* 0: 8192 */
    uint64_t flush_rows;               /* seal the memtable at this many rows (0: 1048576) */
    uint64_t flush_interval_ms;        /* ... or when its oldest row is this old (0: never) */
    uint64_t wal_segment_bytes;        /* 0: the WAL's default */
    uint64_t token_window;             /* insert tokens remembered */
    mu_mem_tracker *tracker;           /* memtable memory; may be NULL */
} table_options;

/* Opens the table: deletes tmp_ part directories left by a crash, loads its
 * parts (a part whose manifest or marks fail their checksums is moved to
 * detached/ and logged), replays the WAL records newer than the parts into
 * the memtable and starts the flusher. Damage to
 * acknowledged log records does not fail the open: the table opens
 * read-only (table_append fails with MU_ECORRUPT naming file and offset,
 * reads see every record before the damage) and the error is logged.
 * Other failures return an error. */
int table_open(table **table_out, const table_options *opt, mu_err *err);
/* Waits for appends in flight, closes the log, frees the table. The caller
 * guarantees no snapshot is in use. Accepts NULL. */
void table_close(table *t);

typedef struct table_append_result {
    uint64_t lsn;          /* the WAL record holding the rows */
    uint32_t rows;         /* rows stored (0 when already stored) */
    bool already_stored;   /* the token was seen: nothing was written */
} table_append_result;

/* An INSERT of several batches, atomic: its rows become visible together
 * once table_stage_commit returns 0, and nothing of it is ever visible
 * (not even after a crash) if it fails or is closed without committing.
 * Each batch is checked like table_append's (schema, types, computed
 * keys) and buffered; every flush_rows rows the buffer is sorted and
 * written as parts into <parts>/stage/, named with the LSN of a
 * TABLE_RECORD_STAGE_MARK record, so memory stays bounded whatever the
 * insert's size. The commit writes the remaining rows the same way, logs
 * a TABLE_RECORD_STAGE_COMMIT record naming every staged part (with the
 * token, which deduplicates the whole insert) and, once it is durable,
 * moves the parts into the table and publishes them in one version swap.
 * A crash before the commit record is durable leaves nothing (startup
 * removes stage/); after it, replay finishes the move. Not thread-safe
 * per stage; stages of one table may run concurrently. */
typedef struct table_stage table_stage;
/* token (may be NULL) deduplicates the whole insert; staged parts carry it
 * in their manifests, as flushed parts carry their batches' tokens. */
int table_stage_open(table *t, const void *token, size_t token_bytes, table_stage **stage_out,
                     mu_err *err);
int table_stage_append(table_stage *s, const ty_batch *batch, mu_err *err);
/* result->rows is the insert's row count (0 and already_stored when the
 * token was seen: the staged parts are dropped). */
int table_stage_commit(table_stage *s, table_append_result *result, mu_err *err);
/* Frees the stage; an uncommitted stage's parts are removed. Accepts NULL. */
void table_stage_close(table_stage *s);

/* Stores the batch's visible rows durably (see above). token may be NULL;
 * token_bytes at most WAL_TOKEN_BYTES_MAX. Batch columns are matched to
 * the schema by name; a missing column gets its type's default, an unknown
 * one is MU_EUNKNOWN_COLUMN, a value that does not convert to the column's
 * type is MU_EPARSE/MU_ETYPE naming row (1-based), column and value.
 * Write refusals: MU_ETABLE_READONLY after a failed sync, MU_ECORRUPT after
 * replay found damage. Thread-safe. */
int table_append(table *t, const ty_batch *batch, const void *token, size_t token_bytes,
                 table_append_result *result, mu_err *err);

/* The version readers use: parts plus memtables, held until released. A
 * version never changes; rows appended later show in later versions only
 * through the memtables it lists, whose snapshots give a consistent view. */
table_version *table_version_acquire(table *t);
void table_version_release(table_version *v); /* accepts NULL */
uint32_t table_version_part_count(const table_version *v);
const part *table_version_part(const table_version *v, uint32_t index);
uint32_t table_version_memtable_count(const table_version *v);
const memtable *table_version_memtable(const table_version *v, uint32_t index);

/* Marks in keep_out[0..granule_count) the granules of p that may hold rows
 * whose column column_index lies in [bounds row 0, bounds row 1] (a
 * column of that column's type). Uses the part's minmax index if it has
 * one; a missing or damaged index is logged as a warning and every
 * granule is kept: an index never changes a result. */
int table_part_prune(const part *p, uint32_t column_index, const ty_column *bounds,
                     uint8_t *keep_out, mu_err *err);

/* Seals the memtable and waits until every row acknowledged before the
 * call is in a synced part and the WAL is checkpointed (SYSTEM FLUSH).
 * Also the path that lets a table whose log failed accept writes again. */
int table_flush(table *t, mu_err *err);

/* A lock-free view of the active memtable's rows (tests and tools). */
void table_snapshot(table *t, memtable_snapshot *out);
uint32_t table_column_count(const table *t);
const char *table_column_name(const table *t, uint32_t index);
const ty_type *table_column_type(const table *t, uint32_t index);
/* 0 when writable; otherwise the refusal code, with reason filled. */
int table_write_state(table *t, mu_err *reason);

#endif /* MUSCLES_TABLE_H */
