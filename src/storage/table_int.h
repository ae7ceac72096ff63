/* table_int.h: private to src/storage/table*.c. The table's fields, its
 * versions and the pieces the flusher and startup share. Locking:
 *   version_lock  guards `current` (held only to read or swap the pointer);
 *   active_lock   guards `active` (the memtable the WAL writer publishes to)
 *                 against the flusher's seal;
 *   flush_lock    guards the flusher's state and its condition variable.
 * Lock order: flush_lock, then active_lock, then version_lock.
 */
#ifndef MUSCLES_TABLE_INT_H
#define MUSCLES_TABLE_INT_H

#include <pthread.h>

#include "storage/part/part.h"
#include "storage/table.h"
#include "storage/wal/wal.h"

/* A part in one or more versions. Deleted with its last version once
 * obsolete (no longer in the current version). */
typedef struct table_part_ref {
    _Atomic uint32_t refs;
    _Atomic bool obsolete;
    part *part;
    char *dir;
} table_part_ref;

typedef struct table_memtable_ref {
    _Atomic uint32_t refs;
    memtable *mem;
} table_memtable_ref;

struct table_version {
    _Atomic uint32_t refs;
    uint32_t part_count;
    table_part_ref **parts;       /* in LSN order */
    uint32_t memtable_count;
    table_memtable_ref **memtables; /* sealed ones first, the active one last */
};

struct table {
    char *name;
    uint32_t column_count;
    const char *const *column_names;
    const ty_type *const *column_types;
    const part_codec_chain *const *column_codecs; /* NULL entries: LZ4 */
    uint32_t sort_key_count;
    uint32_t *sort_key;           /* column indexes */
    uint32_t sort_order_count;
    uint32_t *sort_order;         /* columns and computed keys (table_options) */
    bool partitioned;
    uint32_t partition_key;
    uint32_t computed_key_count;
    table_key_fn key_fn;
    void *key_ctx;
    uint32_t index_granularity;
    uint64_t flush_rows;
    uint64_t flush_interval_ms;
    uint8_t uuid[16];
    mu_mem_tracker *tracker;
    char *parts_dir;              /* this table's parts directory */
    wal *log;
    uint64_t parts_max_lsn;       /* every LSN <= this is in published parts */

    /* Held across every derive + install of a version (the flusher's
     * rounds, a stage commit), so two publishers never lose each other's
     * change. Order: publish_lock, then active_lock, then version_lock. */
    pthread_mutex_t publish_lock;
    pthread_mutex_t version_lock;
    table_version *current;
    /* A stage commit whose record is durable could not move its parts into
     * the table: writes are refused and flushes stop (so flushed_lsn never
     * passes the commit record) until a restart's replay completes it. */
    _Atomic bool stage_broken;
    /* At open only: parts above flushed_lsn, kept until replay tells
     * which a commit record adopts (the others are removed). */
    char **open_candidates;
    uint32_t open_candidate_count;

    pthread_mutex_t active_lock;
    table_memtable_ref *active;   /* also the last memtable of `current` */

    pthread_mutex_t flush_lock;
    pthread_cond_t flush_wake;    /* flusher waits; appends and table_flush signal */
    pthread_cond_t flush_done;    /* table_flush waits for a completed round */
    pthread_t flusher;
    bool flusher_started;
    bool stopping;
    uint64_t flush_requests;      /* table_flush calls so far */
    uint64_t flush_rounds_done;   /* rounds completed */
    int flush_last_rc;
    mu_err flush_last_err;
    int64_t active_since_ms;      /* when the active memtable got its first row */
};

int table_version_create(uint32_t part_count, uint32_t memtable_count, table_version **out,
                         mu_err *err);
void table_part_ref_release(table_part_ref *ref);
void table_memtable_ref_release(table_memtable_ref *ref);
void table__version_install(table *t, table_version *next);
int table__version_derive(table *t, table_part_ref *const *add_parts, uint32_t add_part_count,
                          const table_memtable_ref *drop_memtable,
                          table_memtable_ref *add_memtable, table_version **out, mu_err *err);
int table__memtable_ref_create(table *t, table_memtable_ref **out, mu_err *err);

/* Append path (table.c). */
void table__on_durable(void *ctx, uint64_t lsn, const wal_entry *entry);
bool table__batch_matches_schema(const table *t, const ty_batch *batch);
/* The refusals table_append starts with (token size, failed log, broken
 * stage commit). */
int table__check_writable(table *t, const void *token, size_t token_bytes, mu_err *err);
/* table_append's step 1: the batch in schema order and types (*coerced_out
 * when it had to be converted, else NULL and *rows_out = batch), with every
 * computed key checked. */
int table__prepare_batch(table *t, const ty_batch *batch, ty_batch **coerced_out,
                         const ty_batch **rows_out, mu_err *err);

/* Rows of a flush or a stage: columns in schema order (owned). */
typedef struct table_rows {
    ty_column **columns;
    uint32_t row_count;
    uint64_t min_lsn;
    uint64_t max_lsn;
    uint32_t token_count;
    part_token *tokens;
} table_rows;

/* Sorts and partitions the rows and writes one part per partition under
 * dir (tmp_<name>, fsynced, renamed to <name>); the parts are named and
 * stamped with the rows' LSN range. *refs_out gets the opened parts (not
 * yet in any version); on failure nothing is left under dir. */
int table__write_parts(table *t, const table_rows *r, const char *dir, table_part_ref ***refs_out,
                       uint32_t *count_out, mu_err *err);
/* Orders a version's parts by LSN (the invariant of table_version). */
void table__version_sort_parts(table_version *v);
/* Replay of a stage commit record (table_stage.c): moves the named parts
 * from stage/ into the table if a crash left them there, and adds them to
 * the version. */
int table__stage_replay_commit(table *t, const wal_record *record, mu_err *err);

/* Flusher (table_flush.c). */
int table__flusher_start(table *t, mu_err *err);
void table__flusher_stop(table *t);
void table__flusher_poke(table *t, uint64_t active_rows);

/* Startup (table_open.c): removes tmp_ directories, loads parts (moving
 * damaged ones to detached/), sets parts_max_lsn. */
int table__load_parts(table *t, mu_err *err);
/* The committed-flush mark (table_flush.c): every part whose LSNs are at most
 * this is committed; 0 when no flush ever committed. */
int table__flushed_lsn_read(const table *t, uint64_t *lsn_out, mu_err *err);

#endif /* MUSCLES_TABLE_INT_H */
