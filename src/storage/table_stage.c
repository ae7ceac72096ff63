/* table_stage.c: atomic multi-batch inserts (table.h, table_stage_*).
 * A stage buffers checked rows in schema order; at flush_rows it logs a
 * TABLE_RECORD_STAGE_MARK record (the staged parts' LSN: names stay
 * unique and ordered with the rest of the table) and writes the rows as
 * parts under <parts>/stage/. The commit:
 *
 *   write the last staged parts, fsynced          (table__write_parts)
 *   log STAGE_COMMIT (names, token), durable      <- the commit point
 *   rename stage/<part> -> <part>, fsync the dir  (under publish_lock)
 *   one version swap adds every part
 *
 * publish_lock is held from before the commit record until the swap, so
 * the flusher cannot move flushed_lsn past the commit record while parts
 * are still in stage/. Recovery: parts above flushed_lsn are set aside at
 * open; replay of a commit record adopts its parts (renaming those a crash
 * left in stage/); then the set-aside parts nothing adopted and stage/ are
 * removed. A staged part whose LSN is at or below flushed_lsn is never in
 * the parts directory before its commit record is durable, so startup
 * never takes an uncommitted insert's part for a committed one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/io.h"
#include "storage/table_int.h"

#define TABLE_STAGE_NAMES_MAX 65536u

struct table_stage {
    table *t;
    ty_column **columns;       /* buffered rows, schema order */
    uint32_t row_count;
    uint64_t total_rows;
    uint8_t token[WAL_TOKEN_BYTES_MAX];
    size_t token_bytes;
    char **names;              /* staged parts, under dir */
    uint32_t name_count;
    char dir[4096];            /* <parts>/stage */
    bool committed;
};

static void stage_columns_destroy(table_stage *s) {
    for (uint32_t c = 0; s->columns != NULL && c < s->t->column_count; c++) {
        ty_column_destroy(s->columns[c]);
        s->columns[c] = NULL;
    }
    s->row_count = 0;
}

static int stage_columns_create(table_stage *s, mu_err *err) {
    int rc = 0;
    for (uint32_t c = 0; c < s->t->column_count && rc == 0; c++)
        rc = ty_column_create(s->t->column_types[c], s->t->tracker, &s->columns[c], err);
    return rc;
}

int table_stage_open(table *t, const void *token, size_t token_bytes, table_stage **stage_out,
                     mu_err *err) {
    MU_ASSERT(t != NULL && stage_out != NULL);
    int rc = table__check_writable(t, token, token_bytes, err);
    if (rc != 0) return rc;
    table_stage *s = calloc(1, sizeof(*s));
    if (s == NULL) return MU_ERR(err, MU_ENOMEM, "cannot stage an insert into %s", t->name);
    s->t = t;
    s->columns = calloc(t->column_count, sizeof(*s->columns));
    if (token_bytes > 0) memcpy(s->token, token, token_bytes);
    s->token_bytes = token_bytes;
    snprintf(s->dir, sizeof(s->dir), "%s/%s", t->parts_dir, TABLE_STAGE_DIR);
    rc = s->columns ? 0 : MU_ERR(err, MU_ENOMEM, "cannot stage an insert into %s", t->name);
    if (rc == 0) rc = io_mkdir_p(s->dir, NULL, err);
    if (rc == 0) rc = stage_columns_create(s, err);
    if (rc != 0) {
        table_stage_close(s);
        return rc;
    }
    *stage_out = s;
    return 0;
}

/* Logs a record of the stage (no rows) and waits until it is durable. */
static int stage_log(table_stage *s, uint8_t type, const void *payload, size_t payload_bytes,
                     const void *token, size_t token_bytes, wal_ack *ack, mu_err *err) {
    wal_entry entry = {type, token, token_bytes, payload, payload_bytes};
    return wal_append(s->t->log, &entry, ack, err);
}

/* Writes the buffered rows as staged parts and empties the buffer. */
static int stage_write(table_stage *s, mu_err *err) {
    if (s->row_count == 0) return 0;
    table *t = s->t;
    wal_ack ack = {0};
    int rc = stage_log(s, TABLE_RECORD_STAGE_MARK, NULL, 0, NULL, 0, &ack, err);
    if (rc != 0) return rc;
    part_token token = {s->token, (uint32_t)s->token_bytes};
    table_rows rows = {s->columns, s->row_count, ack.lsn, ack.lsn, s->token_bytes ? 1 : 0,
                       s->token_bytes ? &token : NULL};
    table_part_ref **refs = NULL;
    uint32_t count = 0;
    rc = table__write_parts(t, &rows, s->dir, &refs, &count, err);
    for (uint32_t i = 0; i < count; i++) {
        char **grown = realloc(s->names, (s->name_count + 1) * sizeof(*grown));
        const char *slash = strrchr(refs[i]->dir, '/');
        char *name = strdup(slash ? slash + 1 : refs[i]->dir);
        if (grown != NULL) s->names = grown;
        if (grown == NULL || name == NULL || s->name_count >= TABLE_STAGE_NAMES_MAX) {
            free(name);
            if (rc == 0) rc = MU_ERR(err, MU_ENOMEM, "too many staged parts for %s", t->name);
            atomic_store(&refs[i]->obsolete, true); /* removed with its last reference */
        } else {
            s->names[s->name_count++] = name;
        }
        table_part_ref_release(refs[i]); /* closes the part; the files stay staged */
    }
    free(refs);
    stage_columns_destroy(s);
    if (rc == 0) rc = stage_columns_create(s, err);
    return rc;
}

int table_stage_append(table_stage *s, const ty_batch *batch, mu_err *err) {
    MU_ASSERT(s != NULL && batch != NULL && !s->committed);
    table *t = s->t;
    ty_batch *coerced = NULL;
    const ty_batch *rows = batch;
    int rc = table__prepare_batch(t, batch, &coerced, &rows, err);
    if (rc != 0) return rc;
    uint32_t count = ty_batch_visible_rows(rows);
    if ((uint64_t)s->row_count + count > t->flush_rows) rc = stage_write(s, err);
    for (uint32_t c = 0; c < t->column_count && rc == 0; c++) {
        rc = rows->selection
                 ? ty_column_append_gather(s->columns[c], rows->columns[c], rows->selection,
                                           count, err)
                 : ty_column_append_rows_from(s->columns[c], rows->columns[c], 0, count, err);
    }
    ty_batch_destroy(coerced);
    if (rc != 0) return rc;
    s->row_count += count;
    s->total_rows += count;
    return 0;
}

/* The commit record's payload: u32 count, then u16 length + name each. */
static int stage_commit_payload(const table_stage *s, mu_buf *out, mu_err *err) {
    int rc = mu_buf_append_u32le(out, s->name_count, err);
    for (uint32_t i = 0; i < s->name_count && rc == 0; i++) {
        size_t n = strlen(s->names[i]);
        uint8_t length[2];
        mu_store_u16le(length, (uint16_t)n);
        rc = mu_buf_append(out, length, sizeof(length), err);
        if (rc == 0) rc = mu_buf_append(out, s->names[i], n, err);
    }
    return rc;
}

/* Moves the named parts from stage/ into the table (a name already there
 * was moved before a crash), opens them and publishes them in one version
 * swap. Called with publish_lock held, or at open. */
static int stage_adopt(table *t, char *const *names, uint32_t count, mu_err *err) {
    table_part_ref **refs = calloc(count + 1, sizeof(*refs));
    if (refs == NULL) return MU_ERR(err, MU_ENOMEM, "cannot adopt staged parts of %s", t->name);
    int rc = 0;
    uint32_t opened = 0;
    for (uint32_t i = 0; i < count && rc == 0; i++) {
        char from[4096], to[4096];
        snprintf(from, sizeof(from), "%s/%s/%s", t->parts_dir, TABLE_STAGE_DIR, names[i]);
        snprintf(to, sizeof(to), "%s/%s", t->parts_dir, names[i]);
        if (access(to, F_OK) != 0) {
            rc = io_rename(from, to, IO_RENAME_SYNC_DIR, "table.stage.rename", err);
            if (i == 0) MU_CRASHPOINT("table.stage.after_first_rename");
        }
        table_part_ref *ref = rc == 0 ? calloc(1, sizeof(*ref)) : NULL;
        if (rc == 0 && (ref == NULL || (ref->dir = strdup(to)) == NULL)) {
            free(ref);
            ref = NULL;
            rc = MU_ERR(err, MU_ENOMEM, "cannot adopt staged parts of %s", t->name);
        }
        if (rc == 0) rc = part_open(&ref->part, to, t->name, err);
        if (rc != 0 && ref != NULL) {
            free(ref->dir);
            free(ref);
            break;
        }
        if (rc == 0) {
            atomic_init(&ref->refs, 1);
            atomic_init(&ref->obsolete, false);
            refs[opened++] = ref;
        }
    }
    table_version *next = NULL;
    if (rc == 0) rc = table__version_derive(t, refs, opened, NULL, NULL, &next, err);
    if (rc == 0) {
        table__version_sort_parts(next);
        table__version_install(t, next);
    } else {
        for (uint32_t i = 0; i < opened; i++) table_part_ref_release(refs[i]); /* files stay */
    }
    free(refs);
    return rc;
}

int table_stage_commit(table_stage *s, table_append_result *result, mu_err *err) {
    MU_ASSERT(s != NULL && result != NULL && !s->committed);
    table *t = s->t;
    int rc = stage_write(s, err);
    mu_buf payload;
    mu_buf_init(&payload, WAL_RECORD_BYTES_LIMIT);
    if (rc == 0) rc = stage_commit_payload(s, &payload, err);
    if (rc != 0) {
        mu_buf_deinit(&payload);
        return rc;
    }
    MU_CRASHPOINT("table.stage.before_commit");
    pthread_mutex_lock(&t->publish_lock);
    wal_ack ack = {0};
    rc = stage_log(s, TABLE_RECORD_STAGE_COMMIT, payload.data, payload.length_bytes,
                   s->token_bytes ? s->token : NULL, s->token_bytes, &ack, err);
    mu_buf_deinit(&payload);
    if (rc == 0 && !ack.already_stored) {
        MU_CRASHPOINT("table.stage.after_commit");
        rc = stage_adopt(t, s->names, s->name_count, err);
        if (rc != 0) {
            /* Committed in the log but not in the table: stop the flusher
             * before flushed_lsn passes the record; the next start's replay
             * finishes the move. */
            atomic_store(&t->stage_broken, true);
            mu_err_prefix(err, "insert into %s committed but not yet visible (a restart "
                          "completes it)", t->name);
            mu_log_err(MU_LOG_ERROR, "table.stage_adopt_failed", err);
        }
        s->committed = true;
    }
    pthread_mutex_unlock(&t->publish_lock);
    if (rc != 0) return rc;
    *result = (table_append_result){ack.lsn, ack.already_stored ? 0 : (uint32_t)MU_MIN(
                                                                     s->total_rows, UINT32_MAX),
                                    ack.already_stored};
    return 0;
}

void table_stage_close(table_stage *s) {
    if (s == NULL) return;
    if (!s->committed) {
        for (uint32_t i = 0; i < s->name_count; i++) {
            char dir[4096 + PART_NAME_BYTES_MAX + 2];
            mu_err ignored;
            snprintf(dir, sizeof(dir), "%s/%s", s->dir, s->names[i]);
            if (part_dir_remove(dir, &ignored) != 0)
                mu_log_err(MU_LOG_WARN, "table.stage_remove_failed", &ignored);
        }
    }
    for (uint32_t i = 0; i < s->name_count; i++) free(s->names[i]);
    free(s->names);
    stage_columns_destroy(s);
    free(s->columns);
    free(s);
}

/* ------------------------------------------------------------------ */
/* Replay                                                              */
/* ------------------------------------------------------------------ */

int table__stage_replay_commit(table *t, const wal_record *record, mu_err *err) {
    const uint8_t *p = record->payload, *end = p + record->payload_bytes;
    if (end - p < 4) return MU_CORRUPT(err, "%s offset %llu: stage commit record too short",
                                       record->segment_path, (unsigned long long)record->offset);
    uint32_t count = mu_load_u32le(p);
    p += 4;
    if (count > TABLE_STAGE_NAMES_MAX)
        return MU_CORRUPT(err, "%s offset %llu: stage commit of %u parts", record->segment_path,
                          (unsigned long long)record->offset, count);
    char **names = calloc(count + 1, sizeof(*names));
    if (names == NULL) return MU_ERR(err, MU_ENOMEM, "cannot replay a stage commit");
    int rc = 0;
    uint32_t adopt = 0;
    for (uint32_t i = 0; i < count && rc == 0; i++) {
        uint16_t n = end - p >= 2 ? mu_load_u16le(p) : 0;
        if (end - p < 2 || n == 0 || n > PART_NAME_BYTES_MAX || end - p - 2 < n) {
            rc = MU_CORRUPT(err, "%s offset %llu: bad part name in a stage commit",
                            record->segment_path, (unsigned long long)record->offset);
            break;
        }
        char name[PART_NAME_BYTES_MAX + 1];
        memcpy(name, p + 2, n);
        name[n] = '\0';
        p += 2 + n;
        /* Loaded already (at or below flushed_lsn, moved before the crash)? */
        bool loaded = false;
        for (uint32_t k = 0; k < t->current->part_count && !loaded; k++)
            loaded = strcmp(part_get_info(t->current->parts[k]->part)->name, name) == 0;
        for (uint32_t k = 0; k < t->open_candidate_count; k++) {
            if (t->open_candidates[k] && strcmp(t->open_candidates[k], name) == 0) {
                free(t->open_candidates[k]); /* adopted: not removed after replay */
                t->open_candidates[k] = NULL;
            }
        }
        if (!loaded && (names[adopt++] = strdup(name)) == NULL)
            rc = MU_ERR(err, MU_ENOMEM, "cannot replay a stage commit");
    }
    if (rc == 0 && p != end)
        rc = MU_CORRUPT(err, "%s offset %llu: bytes after a stage commit", record->segment_path,
                        (unsigned long long)record->offset);
    if (rc == 0) rc = stage_adopt(t, names, adopt, err);
    for (uint32_t i = 0; i < adopt; i++) free(names[i]);
    free(names);
    if (rc == 0)
        mu_log_info("table.stage_replayed", "table=%s lsn=%llu parts=%u", t->name,
                    (unsigned long long)record->lsn, count);
    return rc;
}
