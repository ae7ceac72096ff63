/* batch.c: a batch is up to TY_BATCH_ROWS_MAX rows of named columns plus
 * an optional selection vector. The batch owns its columns (malloc'd
 * buffers charged to its tracker) and keeps names, copies of the column
 * types and the selection in its own arena, so a batch decoded from a WAL
 * record stands alone. Invariant after ty_batch_seal: every column has
 * row_count rows and row_count <= TY_BATCH_ROWS_MAX.
 */
#include "types/types_int.h"

#include <stdlib.h>
#include <string.h>

#define BATCH_ARENA_BLOCK_BYTES 4096

int ty_batch_create(mu_mem_tracker *tracker, ty_batch **batch_out, mu_err *err) {
    MU_ASSERT(batch_out != NULL);
    ty_batch *b = calloc(1, sizeof(*b));
    if (b == NULL) return MU_ERR(err, MU_ENOMEM, "batch: out of memory");
    b->tracker = tracker;
    int rc = mu_arena_create(&b->arena, tracker, BATCH_ARENA_BLOCK_BYTES, err);
    if (rc != 0) {
        free(b);
        return rc;
    }
    *batch_out = b;
    return 0;
}

void ty_batch_destroy(ty_batch *batch) {
    if (batch == NULL) return;
    for (uint32_t i = 0; i < batch->column_count; i++) ty_column_destroy(batch->columns[i]);
    free(batch->columns);
    free(batch->names);
    mu_arena_destroy(batch->arena);
    free(batch);
}

ty_column *ty_batch_find_column(const ty_batch *batch, const char *name) {
    for (uint32_t i = 0; i < batch->column_count; i++) {
        if (strcmp(batch->names[i], name) == 0) return batch->columns[i];
    }
    return NULL;
}

static int batch_grow(ty_batch *b, mu_err *err) {
    if (b->column_count < b->column_capacity) return 0;
    uint32_t capacity = b->column_capacity ? b->column_capacity * 2 : 8;
    char **names = realloc(b->names, capacity * sizeof(*names));
    if (names != NULL) b->names = names;
    ty_column **columns = names ? realloc(b->columns, capacity * sizeof(*columns)) : NULL;
    if (columns != NULL) b->columns = columns;
    if (names == NULL || columns == NULL) return MU_ERR(err, MU_ENOMEM, "batch: out of memory");
    b->column_capacity = capacity;
    return 0;
}

/* Adds a column whose type already lives in the batch's arena. */
int ty__batch_add_owned(ty_batch *b, const char *name, size_t name_bytes, const ty_type *type,
                        ty_column **column_out, mu_err *err) {
    if (name_bytes == 0 || name_bytes > TY_COLUMN_NAME_BYTES_MAX ||
        memchr(name, 0, name_bytes) != NULL)
        return MU_ERR(err, MU_EINVAL, "batch: bad column name of %zu bytes", name_bytes);
    if (b->column_count >= TY_BATCH_COLUMNS_MAX)
        return MU_ERR(err, MU_ETOO_LARGE, "batch: more than %u columns", TY_BATCH_COLUMNS_MAX);
    for (uint32_t i = 0; i < b->column_count; i++) {
        if (strlen(b->names[i]) == name_bytes && memcmp(b->names[i], name, name_bytes) == 0)
            return MU_ERR(err, MU_EEXISTS, "batch: duplicate column %.*s", (int)name_bytes, name);
    }
    char *copy = mu_arena_strndup(b->arena, name, name_bytes, err);
    if (copy == NULL) return err ? err->code : MU_ENOMEM;
    int rc = batch_grow(b, err);
    ty_column *column = NULL;
    if (rc == 0) rc = ty_column_create(type, b->tracker, &column, err);
    if (rc != 0) return rc;
    b->names[b->column_count] = copy;
    b->columns[b->column_count++] = column;
    if (column_out) *column_out = column;
    return 0;
}

int ty_batch_add_column(ty_batch *batch, const char *name, const ty_type *type,
                        ty_column **column_out, mu_err *err) {
    MU_ASSERT(batch != NULL && name != NULL && type != NULL);
    const ty_type *copy;
    int rc = ty_type_clone(type, batch->arena, &copy, err);
    if (rc != 0) return rc;
    return ty__batch_add_owned(batch, name, strlen(name), copy, column_out, err);
}

int ty_batch_add_column_take(ty_batch *batch, const char *name, ty_column *column, mu_err *err) {
    MU_ASSERT(batch != NULL && name != NULL && column != NULL);
    size_t name_bytes = strlen(name);
    int rc = 0;
    char *copy = NULL;
    if (name_bytes > TY_COLUMN_NAME_BYTES_MAX)
        rc = MU_ERR(err, MU_EINVAL, "batch: column name of %zu bytes", name_bytes);
    else if (batch->column_count >= TY_BATCH_COLUMNS_MAX)
        rc = MU_ERR(err, MU_ETOO_LARGE, "batch: more than %u columns", TY_BATCH_COLUMNS_MAX);
    if (rc == 0) {
        copy = mu_arena_strndup(batch->arena, name, name_bytes, err);
        if (copy == NULL) rc = err ? err->code : MU_ENOMEM;
    }
    if (rc == 0) rc = batch_grow(batch, err);
    if (rc != 0) {
        ty_column_destroy(column);
        return rc;
    }
    batch->names[batch->column_count] = copy;
    batch->columns[batch->column_count++] = column;
    return 0;
}

int ty_batch_seal(ty_batch *batch, mu_err *err) {
    MU_ASSERT(batch != NULL);
    uint32_t rows = batch->column_count ? batch->columns[0]->row_count : 0;
    for (uint32_t i = 0; i < batch->column_count; i++) {
        if (batch->columns[i]->row_count != rows)
            return MU_ERR(err, MU_EINVAL, "batch: column %s has %u rows, column %s has %u",
                          batch->names[i], batch->columns[i]->row_count, batch->names[0], rows);
    }
    if (rows > TY_BATCH_ROWS_MAX)
        return MU_ERR(err, MU_ETOO_LARGE, "batch of %u rows, at most %u", rows,
                      TY_BATCH_ROWS_MAX);
    batch->row_count = rows;
    return 0;
}

int ty_batch_set_selection(ty_batch *batch, const uint32_t *rows, uint32_t count, mu_err *err) {
    MU_ASSERT(batch != NULL && (rows != NULL || count == 0));
    if (count > TY_BATCH_ROWS_MAX)
        return MU_ERR(err, MU_ETOO_LARGE, "selection of %u rows, at most %u", count,
                      TY_BATCH_ROWS_MAX);
    for (uint32_t i = 0; i < count; i++) {
        if (rows[i] >= batch->row_count)
            return MU_ERR(err, MU_EINVAL, "selection row %u past the batch's %u rows", rows[i],
                          batch->row_count);
    }
    uint32_t *copy = mu_arena_alloc(batch->arena, (size_t)MU_MAX(count, 1) * 4, err);
    if (copy == NULL) return err ? err->code : MU_ENOMEM;
    if (count > 0) memcpy(copy, rows, (size_t)count * 4);
    batch->selection = copy;
    batch->selection_count = count;
    return 0;
}
