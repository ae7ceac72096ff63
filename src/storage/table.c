/* table.c: a table = its WAL + its memtable, and table_append, the one ingest
 * path. Owns the schema copy, the log and the memtable; rows are published
 * by the WAL writer thread in LSN order (table__on_durable).
 * Invariant: a row is visible to readers only after the WAL record holding
 * it is durable, and a durable record's rows are published exactly once
 * (at append, or at replay after a restart).
 */
#include <stdlib.h>
#include <string.h>

#include "storage/table_int.h"

/* True if the batch already has the schema's columns, in order and types. */
bool table__batch_matches_schema(const table *t, const ty_batch *batch) {
    if (batch->column_count != t->column_count) return false;
    for (uint32_t i = 0; i < t->column_count; i++) {
        if (strcmp(batch->names[i], t->column_names[i]) != 0) return false;
        if (!ty_type_equal(batch->columns[i]->type, t->column_types[i])) return false;
    }
    return true;
}

static int find_schema_column(const table *t, const char *name) {
    for (uint32_t i = 0; i < t->column_count; i++) {
        if (strcmp(t->column_names[i], name) == 0) return (int)i;
    }
    return -1;
}

/* Appends src[row] to dst of another type through the text form, so every
 * conversion obeys the same strict parser as text input. */
static int convert_value(ty_column *dst, const ty_column *src, uint32_t row, mu_buf *text,
                         mu_err *err) {
    if (ty_column_is_null(src, row)) {
        if (dst->nullable) return ty_column_append_null(dst, err);
        char type_name[128];
        return MU_ERR(err, MU_ETYPE, "NULL into non-Nullable type %s",
                      ty_type_name(dst->type, type_name, sizeof(type_name)));
    }
    mu_buf_clear(text);
    int rc = ty_column_render_text(src, row, 0, text, err);
    if (rc == 0) rc = ty_column_append_text(dst, (const char *)text->data, text->length_bytes, err);
    return rc;
}

/* Fills one schema column of the coerced batch from the input batch. */
static int coerce_column(const ty_batch *in, const char *name, ty_column *dst, mu_buf *text,
                         mu_err *err) {
    const ty_column *src = ty_batch_find_column(in, name);
    uint32_t rows = ty_batch_visible_rows(in);
    bool same_type = src != NULL && ty_type_equal(src->type, dst->type);
    int rc = ty_column_reserve(dst, rows, err);
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        uint32_t row = in->selection ? in->selection[i] : i;
        if (src == NULL) rc = ty_column_append_default(dst, err);
        else if (same_type) rc = ty_column_append_from(dst, src, row, err);
        else rc = convert_value(dst, src, row, text, err);
        if (rc != 0) mu_err_prefix(err, "row %u, column %s", i + 1, name);
    }
    return rc;
}

/* Builds a batch in schema order and types from any batch (see table.h). */
static int coerce_batch(table *t, const ty_batch *in, ty_batch **out, mu_err *err) {
    for (uint32_t i = 0; i < in->column_count; i++) {
        if (find_schema_column(t, in->names[i]) < 0) {
            return MU_ERR(err, MU_EUNKNOWN_COLUMN, "no column %s in table %s", in->names[i],
                          t->name);
        }
    }
    ty_batch *batch = NULL;
    mu_buf text;
    mu_buf_init(&text, 1u << 30);
    int rc = ty_batch_create(t->tracker, &batch, err);
    for (uint32_t c = 0; c < t->column_count && rc == 0; c++) {
        ty_column *dst = NULL;
        rc = ty_batch_add_column(batch, t->column_names[c], t->column_types[c], &dst, err);
        if (rc == 0) rc = coerce_column(in, t->column_names[c], dst, &text, err);
    }
    if (rc == 0) rc = ty_batch_seal(batch, err);
    mu_buf_deinit(&text);
    if (rc != 0) {
        ty_batch_destroy(batch);
        return rc;
    }
    *out = batch;
    return 0;
}

/* One append in flight: the WAL hands the entry back to table__on_durable,
 * which finds the prepared rows through the enclosing struct. */
typedef struct table_append_op {
    wal_entry entry; /* first member: the WAL gives back this pointer */
    table *t;
    memtable_pending *pending;
} table_append_op;

/* Runs on the WAL writer thread after the record's group is synced, in LSN
 * order, so the memtable holds records in log order and the highest LSN it
 * holds has every lower durable LSN before it (what the flusher's WAL
 * checkpoint relies on). */
void table__on_durable(void *ctx, uint64_t lsn, const wal_entry *entry) {
    if (entry->type != TABLE_RECORD_BATCH) return; /* stage records carry no rows */
    table_append_op *op = (table_append_op *)(void *)entry;
    table *t = op->t;
    MU_ASSERT(t == ctx);
    pthread_mutex_lock(&t->active_lock);
    memtable *active = t->active->mem;
    if (memtable_row_count(active) == 0) t->active_since_ms = mu_clock_mono_ms();
    memtable_publish(active, op->pending, lsn);
    uint64_t rows = memtable_row_count(active);
    pthread_mutex_unlock(&t->active_lock);
    op->pending = NULL;
    table__flusher_poke(t, rows);
}

/* Writes the record; the rows are published by table__on_durable. */
static int table_append_durable(table *t, const ty_batch *batch, memtable_pending *pending,
                                const void *token, size_t token_bytes,
                                table_append_result *result, mu_err *err) {
    mu_buf payload;
    mu_buf_init(&payload, WAL_RECORD_BYTES_LIMIT);
    int rc = ty_batch_encode(batch, &payload, err);
    wal_ack ack = {0};
    table_append_op op = {{TABLE_RECORD_BATCH, token, token_bytes, payload.data,
                           payload.length_bytes},
                          t, pending};
    if (rc == 0) rc = wal_append(t->log, &op.entry, &ack, err);
    mu_buf_deinit(&payload);
    bool published = op.pending == NULL;
    /* Not published: failed, or the token was already stored. */
    memtable_pending_discard(op.pending);
    if (rc != 0) return rc;
    MU_ASSERT(published != ack.already_stored);
    uint32_t rows = published ? ty_batch_visible_rows(batch) : 0;
    *result = (table_append_result){ack.lsn, rows, ack.already_stored};
    return 0;
}

/* Evaluates every computed key over the batch's visible rows, so that a
 * row the flusher could not place is refused before it is logged. */
static int table_check_keys(const table *t, const ty_batch *rows, mu_err *err) {
    if (t->computed_key_count == 0) return 0;
    ty_column **gathered = NULL;
    const ty_column *const *columns = (const ty_column *const *)rows->columns;
    uint32_t count = ty_batch_visible_rows(rows);
    int rc = 0;
    if (rows->selection != NULL) {
        gathered = calloc(t->column_count, sizeof(*gathered));
        if (gathered == NULL) return MU_ERR(err, MU_ENOMEM, "cannot check keys of %s", t->name);
        for (uint32_t c = 0; c < t->column_count && rc == 0; c++) {
            rc = ty_column_create(t->column_types[c], t->tracker, &gathered[c], err);
            if (rc == 0) rc = ty_column_append_gather(gathered[c], rows->columns[c],
                                                      rows->selection, count, err);
        }
        columns = (const ty_column *const *)gathered;
    }
    for (uint32_t k = 0; k < t->computed_key_count && rc == 0; k++) {
        ty_column *key = NULL;
        rc = t->key_fn(t->key_ctx, k, columns, count, &key, err);
        ty_column_destroy(key);
    }
    for (uint32_t c = 0; gathered != NULL && c < t->column_count; c++) ty_column_destroy(gathered[c]);
    free(gathered);
    return rc;
}

int table__check_writable(table *t, const void *token, size_t token_bytes, mu_err *err) {
    if (token_bytes > WAL_TOKEN_BYTES_MAX) {
        return MU_ERR(err, MU_EINVAL, "insert token of %zu bytes for %s; at most %d", token_bytes,
                      t->name, WAL_TOKEN_BYTES_MAX);
    }
    if (atomic_load(&t->stage_broken)) {
        return MU_ERR(err, MU_ETABLE_READONLY, "table %s is read-only: a committed insert could "
                      "not be moved into the table; a restart completes it", t->name);
    }
    return wal_state_get(t->log, NULL) == WAL_STATE_OPEN ? 0 : table_write_state(t, err);
}

int table__prepare_batch(table *t, const ty_batch *batch, ty_batch **coerced_out,
                         const ty_batch **rows_out, mu_err *err) {
    *coerced_out = NULL;
    *rows_out = batch;
    int rc = 0;
    if (!table__batch_matches_schema(t, batch)) {
        rc = coerce_batch(t, batch, coerced_out, err);
        if (rc == 0) *rows_out = *coerced_out;
    }
    if (rc == 0) rc = table_check_keys(t, *rows_out, err);
    if (rc != 0) {
        mu_err_prefix(err, "insert into %s", t->name);
        ty_batch_destroy(*coerced_out);
        *coerced_out = NULL;
    }
    return rc;
}

int table_append(table *t, const ty_batch *batch, const void *token, size_t token_bytes,
                 table_append_result *result, mu_err *err) {
    MU_ASSERT(t != NULL);
    MU_ASSERT(batch != NULL && result != NULL);
    /* Refuse early so a failed log costs no conversion work. */
    int rc = table__check_writable(t, token, token_bytes, err);
    if (rc != 0) return rc;
    ty_batch *coerced = NULL;
    const ty_batch *rows = batch;
    rc = table__prepare_batch(t, batch, &coerced, &rows, err);
    if (rc != 0) return rc;
    memtable_pending *pending = NULL;
    memtable_schema schema = {t->column_count, t->column_names, t->column_types};
    rc = memtable_prepare(&schema, t->tracker, rows, &pending, err);
    if (rc == 0) rc = memtable_pending_set_token(pending, token, token_bytes, err);
    if (rc != 0) memtable_pending_discard(pending);
    if (rc == 0) rc = table_append_durable(t, rows, pending, token, token_bytes, result, err);
    ty_batch_destroy(coerced);
    return rc;
}

void table_snapshot(table *t, memtable_snapshot *out) {
    pthread_mutex_lock(&t->active_lock);
    memtable_snapshot_take(t->active->mem, out);
    pthread_mutex_unlock(&t->active_lock);
}

uint32_t table_version_part_count(const table_version *v) { return v->part_count; }

const part *table_version_part(const table_version *v, uint32_t index) {
    MU_ASSERT(index < v->part_count);
    return v->parts[index]->part;
}

uint32_t table_version_memtable_count(const table_version *v) { return v->memtable_count; }

const memtable *table_version_memtable(const table_version *v, uint32_t index) {
    MU_ASSERT(index < v->memtable_count);
    return v->memtables[index]->mem;
}

uint32_t table_column_count(const table *t) { return t->column_count; }

const char *table_column_name(const table *t, uint32_t index) {
    MU_ASSERT(index < t->column_count);
    return t->column_names[index];
}

const ty_type *table_column_type(const table *t, uint32_t index) {
    MU_ASSERT(index < t->column_count);
    return t->column_types[index];
}

int table_write_state(table *t, mu_err *reason) {
    mu_err cause;
    int state = wal_state_get(t->log, &cause);
    if (state == WAL_STATE_OPEN) return 0;
    if (state == WAL_STATE_CORRUPT) {
        return MU_ERR(reason, MU_ECORRUPT, "table %s refuses writes: %s", t->name,
                      cause.message);
    }
    return MU_ERR(reason, MU_ETABLE_READONLY,
                  "table %s refuses writes: its write-ahead log failed (%s); writes resume "
                  "after every row is in a synced part",
                  t->name, cause.message);
}
