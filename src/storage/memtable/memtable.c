/* memtable.c: chunked, append-only in-memory rows with lock-free snapshots.
 * Owns the chunks and their columns. Invariant: every chunk reachable from
 * head within `row_count` rows is complete and immutable; chunks are linked
 * in row order and first_row of each equals the sum of the rows before it.
 * See memtable.h for the publication protocol.
 */
#include "storage/memtable/memtable.h"

#include <stdlib.h>
#include <string.h>

struct memtable {
    memtable_schema schema;
    mu_mem_tracker *tracker;
    _Atomic(memtable_chunk *) head;
    memtable_chunk *tail;           /* writer only */
    _Atomic uint64_t row_count;
    _Atomic uint64_t max_lsn;
    _Atomic uint64_t min_lsn;
};

int memtable_create(memtable **memtable_out, const memtable_schema *schema,
                    mu_mem_tracker *tracker, mu_err *err) {
    MU_ASSERT(memtable_out != NULL);
    MU_ASSERT(schema != NULL);
    if (schema->column_count == 0) {
        return MU_ERR(err, MU_EINVAL, "a memtable needs at least one column");
    }
    memtable *m = calloc(1, sizeof(*m));
    if (m == NULL) return MU_ERR(err, MU_ENOMEM, "cannot allocate a memtable");
    m->schema = *schema;
    m->tracker = tracker;
    atomic_init(&m->head, NULL);
    atomic_init(&m->row_count, 0);
    atomic_init(&m->max_lsn, 0);
    atomic_init(&m->min_lsn, 0);
    *memtable_out = m;
    return 0;
}

static void chunk_destroy(memtable_chunk *chunk, uint32_t column_count) {
    if (chunk == NULL) return;
    if (chunk->columns != NULL) {
        for (uint32_t i = 0; i < column_count; i++) ty_column_destroy(chunk->columns[i]);
        free(chunk->columns);
    }
    free(chunk->token);
    free(chunk);
}

void memtable_destroy(memtable *m) {
    if (m == NULL) return;
    memtable_chunk *chunk = atomic_load_explicit(&m->head, memory_order_acquire);
    while (chunk != NULL) {
        memtable_chunk *next = atomic_load_explicit(&chunk->next, memory_order_relaxed);
        chunk_destroy(chunk, m->schema.column_count);
        chunk = next;
    }
    free(m);
}

/* Checks that the batch has the schema's columns, in order, with equal types. */
static int check_batch(const memtable_schema *schema, const ty_batch *batch, mu_err *err) {
    if (batch->column_count != schema->column_count) {
        return MU_ERR(err, MU_EINVAL, "memtable append: batch has %u columns, schema has %u",
                      batch->column_count, schema->column_count);
    }
    for (uint32_t i = 0; i < batch->column_count; i++) {
        if (!ty_type_equal(batch->columns[i]->type, schema->types[i])) {
            char want[128], got[128];
            return MU_ERR(err, MU_ETYPE, "memtable append: column %s is %s, schema says %s",
                          schema->names[i], ty_type_name(batch->columns[i]->type, got,
                                                         sizeof(got)),
                          ty_type_name(schema->types[i], want, sizeof(want)));
        }
    }
    return 0;
}

struct memtable_pending {
    memtable_chunk *first;
    memtable_chunk *last;
    uint32_t row_count;
    uint32_t column_count;
};

/* Builds one unpublished chunk from visible rows [from, from + count). */
static int chunk_build(const memtable_schema *schema, mu_mem_tracker *tracker,
                       const ty_batch *batch, uint32_t from, uint32_t count,
                       memtable_chunk **chunk_out, mu_err *err) {
    uint32_t column_count = schema->column_count;
    memtable_chunk *chunk = calloc(1, sizeof(*chunk));
    if (chunk == NULL) return MU_ERR(err, MU_ENOMEM, "cannot allocate a memtable chunk");
    chunk->columns = calloc(column_count, sizeof(*chunk->columns));
    if (chunk->columns == NULL) {
        free(chunk);
        return MU_ERR(err, MU_ENOMEM, "cannot allocate a memtable chunk");
    }
    atomic_init(&chunk->next, NULL);
    chunk->row_count = count;
    int rc = 0;
    for (uint32_t c = 0; c < column_count && rc == 0; c++) {
        rc = ty_column_create(schema->types[c], tracker, &chunk->columns[c], err);
        if (rc == 0) rc = ty_column_reserve(chunk->columns[c], count, err);
        const ty_column *src = batch->columns[c];
        for (uint32_t i = 0; i < count && rc == 0; i++) {
            uint32_t row = batch->selection ? batch->selection[from + i] : from + i;
            rc = ty_column_append_from(chunk->columns[c], src, row, err);
        }
    }
    if (rc != 0) {
        chunk_destroy(chunk, column_count);
        return rc;
    }
    *chunk_out = chunk;
    return 0;
}

void memtable_pending_discard(memtable_pending *pending) {
    if (pending == NULL) return;
    memtable_chunk *chunk = pending->first;
    while (chunk != NULL) {
        memtable_chunk *next = atomic_load_explicit(&chunk->next, memory_order_relaxed);
        chunk_destroy(chunk, pending->column_count);
        chunk = next;
    }
    free(pending);
}

int memtable_prepare(const memtable_schema *schema, mu_mem_tracker *tracker,
                     const ty_batch *batch, memtable_pending **pending_out, mu_err *err) {
    MU_ASSERT(schema != NULL);
    MU_ASSERT(batch != NULL);
    int rc = check_batch(schema, batch, err);
    if (rc != 0) return rc;
    memtable_pending *pending = calloc(1, sizeof(*pending));
    if (pending == NULL) return MU_ERR(err, MU_ENOMEM, "cannot allocate memtable rows");
    pending->column_count = schema->column_count;
    uint32_t visible = ty_batch_visible_rows(batch);
    for (uint32_t from = 0; from < visible; from += MEMTABLE_CHUNK_ROWS) {
        uint32_t count = MU_MIN(MEMTABLE_CHUNK_ROWS, visible - from);
        memtable_chunk *chunk = NULL;
        rc = chunk_build(schema, tracker, batch, from, count, &chunk, err);
        if (rc != 0) {
            memtable_pending_discard(pending);
            return rc;
        }
        if (pending->last == NULL) pending->first = chunk;
        else atomic_store_explicit(&pending->last->next, chunk, memory_order_relaxed);
        pending->last = chunk;
    }
    pending->row_count = visible;
    *pending_out = pending;
    return 0;
}

int memtable_pending_set_token(memtable_pending *pending, const void *token, size_t token_bytes,
                               mu_err *err) {
    MU_ASSERT(pending != NULL);
    if (token_bytes > MEMTABLE_TOKEN_BYTES_MAX) {
        return MU_ERR(err, MU_EINVAL, "insert token of %zu bytes; at most %u", token_bytes,
                      MEMTABLE_TOKEN_BYTES_MAX);
    }
    if (pending->first == NULL || token_bytes == 0) return 0; /* no rows to carry it */
    uint8_t *copy = malloc(token_bytes);
    if (copy == NULL) return MU_ERR(err, MU_ENOMEM, "cannot copy an insert token");
    memcpy(copy, token, token_bytes);
    free(pending->first->token);
    pending->first->token = copy;
    pending->first->token_bytes = (uint16_t)token_bytes;
    return 0;
}

void memtable_publish(memtable *m, memtable_pending *pending, uint64_t lsn) {
    MU_ASSERT(m != NULL);
    MU_ASSERT(pending != NULL);
    MU_ASSERT(pending->column_count == m->schema.column_count);
    uint64_t first_row = atomic_load_explicit(&m->row_count, memory_order_relaxed);
    uint64_t row = first_row;
    for (memtable_chunk *c = pending->first; c != NULL;
         c = atomic_load_explicit(&c->next, memory_order_relaxed)) {
        c->first_row = row;
        c->lsn = lsn;
        row += c->row_count;
    }
    MU_ASSERT(row == first_row + pending->row_count);
    if (pending->first != NULL) {
        /* Link, then store the row count that makes the rows visible. */
        if (m->tail == NULL) atomic_store_explicit(&m->head, pending->first, memory_order_release);
        else atomic_store_explicit(&m->tail->next, pending->first, memory_order_release);
        m->tail = pending->last;
        atomic_store_explicit(&m->row_count, row, memory_order_release);
    }
    if (lsn > atomic_load_explicit(&m->max_lsn, memory_order_relaxed)) {
        atomic_store_explicit(&m->max_lsn, lsn, memory_order_release);
    }
    uint64_t min = atomic_load_explicit(&m->min_lsn, memory_order_relaxed);
    if (min == 0 || lsn < min) atomic_store_explicit(&m->min_lsn, lsn, memory_order_release);
    free(pending);
}

int memtable_append(memtable *m, const ty_batch *batch, uint64_t lsn, mu_err *err) {
    memtable_pending *pending = NULL;
    int rc = memtable_prepare(&m->schema, m->tracker, batch, &pending, err);
    if (rc != 0) return rc;
    memtable_publish(m, pending, lsn);
    return 0;
}

void memtable_snapshot_take(const memtable *m, memtable_snapshot *out) {
    MU_ASSERT(m != NULL);
    /* Row count first: the chunks holding those rows were linked before it
     * was stored, so the acquire load makes them visible. */
    out->row_count = atomic_load_explicit(&m->row_count, memory_order_acquire);
    out->head = out->row_count == 0
                    ? NULL
                    : atomic_load_explicit(&((memtable *)m)->head, memory_order_acquire);
    MU_ASSERT(out->row_count == 0 || out->head != NULL);
}

const memtable_chunk *memtable_snapshot_next(const memtable_snapshot *s,
                                             const memtable_chunk *chunk) {
    if (chunk == NULL) return s->head;
    if (chunk->first_row + chunk->row_count >= s->row_count) return NULL;
    memtable_chunk *next =
        atomic_load_explicit(&((memtable_chunk *)chunk)->next, memory_order_acquire);
    MU_ASSERT(next != NULL);
    return next;
}

uint64_t memtable_row_count(const memtable *m) {
    return atomic_load_explicit(&((memtable *)m)->row_count, memory_order_acquire);
}

uint64_t memtable_min_lsn(const memtable *m) {
    return atomic_load_explicit(&((memtable *)m)->min_lsn, memory_order_acquire);
}

uint64_t memtable_max_lsn(const memtable *m) {
    return atomic_load_explicit(&((memtable *)m)->max_lsn, memory_order_acquire);
}

const memtable_schema *memtable_get_schema(const memtable *m) { return &m->schema; }
