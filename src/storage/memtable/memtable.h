/* memtable.h: a table's in-memory rows between the WAL and the parts, and
 * its whole interface. One writer appends (the table serialises appends);
 * any number of readers take snapshots without a lock.
 *
 * Layout: a singly linked list of chunks. A chunk holds up to
 * MEMTABLE_CHUNK_ROWS rows of every column of the schema, as one ty_column
 * per column in schema order. A chunk is complete when it is published and
 * is never written again, so nothing a reader can see is ever reallocated
 * or modified. Publishing is two release stores: the chunk into the tail's
 * `next`, then the new total row count; a snapshot is one acquire load of
 * the row count plus the head pointer, and a reader walks `next` pointers
 * (acquire) only while the rows it has seen are below its snapshot count.
 *
 * Why whole immutable chunks rather than appending into an open chunk: a
 * validity bitmap packs eight rows per byte, so appending row 8k+1 would
 * rewrite the byte a reader of row 8k is reading, a data race. An append of
 * n rows therefore adds ceil(n / MEMTABLE_CHUNK_ROWS) chunks; many small
 * appends make small chunks, which the flusher merges when it writes a part.
 *
 * Lifetime: chunks are freed only by memtable_destroy, which the owner calls
 * once no snapshot of the memtable is in use (table versions enforce that).
 */
#ifndef MUSCLES_MEMTABLE_H
#define MUSCLES_MEMTABLE_H

#include "base/base.h"
#include "types/types.h"

#define MEMTABLE_CHUNK_ROWS 8192u
#define MEMTABLE_TOKEN_BYTES_MAX 256u

typedef struct memtable_chunk {
    _Atomic(struct memtable_chunk *) next;
    uint64_t first_row;   /* row number of this chunk's first row in the memtable */
    uint32_t row_count;   /* 1..MEMTABLE_CHUNK_ROWS */
    uint64_t lsn;         /* LSN of the WAL record the rows came from */
    uint8_t *token;       /* that record's insert token (first chunk of a record only) */
    uint16_t token_bytes;
    ty_column **columns;  /* column_count columns in schema order */
} memtable_chunk;

/* The columns a memtable stores: names and types are borrowed and must
 * outlive it. */
typedef struct memtable_schema {
    uint32_t column_count;
    const char *const *names;
    const ty_type *const *types;
} memtable_schema;

typedef struct memtable memtable;

int memtable_create(memtable **memtable_out, const memtable_schema *schema,
                    mu_mem_tracker *tracker, mu_err *err);
void memtable_destroy(memtable *m); /* accepts NULL; no snapshot may be in use */

/* Rows copied into chunks but not yet published. Preparing may fail (memory
 * limits); publishing cannot, so the table prepares before it writes the
 * WAL record and publishes after the record is durable. */
typedef struct memtable_pending memtable_pending;

/* Copies the batch's visible rows into new, unpublished chunks. The batch
 * must hold exactly the schema's columns, in schema order, with equal types
 * (the table validates and coerces before calling). Thread-safe: touches no
 * shared state. An empty batch gives a pending of no rows. */
int memtable_prepare(const memtable_schema *schema, mu_mem_tracker *tracker,
                     const ty_batch *batch, memtable_pending **pending_out, mu_err *err);
/* Attaches the insert token of the WAL record the rows will come from
 * (copied), so the flusher can carry it into the part manifest. */
int memtable_pending_set_token(memtable_pending *pending, const void *token, size_t token_bytes,
                               mu_err *err);
/* Publishes pending rows (consumed) into m, whose schema must be the one
 * they were prepared for, as coming from WAL record `lsn`. Callers
 * serialise publishes. Cannot fail. */
void memtable_publish(memtable *m, memtable_pending *pending, uint64_t lsn);
/* Frees rows that will not be published. Accepts NULL. */
void memtable_pending_discard(memtable_pending *pending);
/* prepare + publish, for callers that need no step in between. */
int memtable_append(memtable *m, const ty_batch *batch, uint64_t lsn, mu_err *err);

/* A consistent view: the first `row_count` rows, reached from `head`. */
typedef struct memtable_snapshot {
    const memtable_chunk *head;
    uint64_t row_count;
} memtable_snapshot;

/* Lock-free; safe concurrently with memtable_append. */
void memtable_snapshot_take(const memtable *m, memtable_snapshot *out);
/* Iterates the chunks of a snapshot: pass NULL to get the first. Returns
 * NULL past the snapshot's last chunk. */
const memtable_chunk *memtable_snapshot_next(const memtable_snapshot *s,
                                             const memtable_chunk *chunk);

uint64_t memtable_row_count(const memtable *m);
/* Lowest LSN appended (0 if none). */
uint64_t memtable_min_lsn(const memtable *m);
/* Highest LSN appended (0 if none); written only by the appender. */
uint64_t memtable_max_lsn(const memtable *m);
const memtable_schema *memtable_get_schema(const memtable *m);

#endif /* MUSCLES_MEMTABLE_H */
