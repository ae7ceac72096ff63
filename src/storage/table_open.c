/* table_open.c: opening and closing a table, i.e. crash recovery. Order:
 * (1) delete tmp_ part directories (unpublished parts), (2) load the parts,
 * moving any whose manifest or marks fail their checksums to detached/ and
 * setting aside those above flushed_lsn, (3) open the WAL with first LSN
 * after the parts and replay only records newer than the parts: batches
 * into the memtable, stage commits adopt their parts (from stage/ or from
 * the set-aside ones), then remove the set-aside parts no commit adopted
 * and stage/, (4) give the WAL the parts' insert tokens, (5) start the
 * flusher.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/io.h"
#include "storage/table_int.h"

int table__memtable_ref_create(table *t, table_memtable_ref **out, mu_err *err) {
    table_memtable_ref *ref = calloc(1, sizeof(*ref));
    if (ref == NULL) return MU_ERR(err, MU_ENOMEM, "cannot allocate a memtable for %s", t->name);
    memtable_schema schema = {t->column_count, t->column_names, t->column_types};
    int rc = memtable_create(&ref->mem, &schema, t->tracker, err);
    if (rc != 0) {
        free(ref);
        return rc;
    }
    atomic_init(&ref->refs, 1);
    *out = ref;
    return 0;
}

/* Replay: each durable batch record newer than the parts goes back into the
 * memtable, in LSN order. */
static int table_open_on_record(void *ctx, const wal_record *record, mu_err *err) {
    table *t = ctx;
    if (record->lsn <= t->parts_max_lsn) return 0; /* already in a part */
    if (record->type == TABLE_RECORD_STAGE_MARK) return 0;
    if (record->type == TABLE_RECORD_STAGE_COMMIT) return table__stage_replay_commit(t, record, err);
    if (record->type != TABLE_RECORD_BATCH) {
        return MU_CORRUPT(err, "%s offset %llu: unknown record type %u", record->segment_path,
                          (unsigned long long)record->offset, record->type);
    }
    ty_batch *batch = NULL;
    int rc = ty_batch_decode(record->payload, record->payload_bytes, t->tracker, &batch, err);
    if (rc == 0 && !table__batch_matches_schema(t, batch)) {
        rc = MU_CORRUPT(err, "record does not match the schema of %s", t->name);
    }
    memtable_pending *pending = NULL;
    memtable_schema schema = {t->column_count, t->column_names, t->column_types};
    if (rc == 0) rc = memtable_prepare(&schema, t->tracker, batch, &pending, err);
    if (rc == 0) rc = memtable_pending_set_token(pending, record->token, record->token_bytes, err);
    if (rc == 0) {
        if (memtable_row_count(t->active->mem) == 0) t->active_since_ms = mu_clock_mono_ms();
        memtable_publish(t->active->mem, pending, record->lsn);
        pending = NULL;
    }
    memtable_pending_discard(pending);
    ty_batch_destroy(batch);
    if (rc != 0) {
        mu_err_prefix(err, "replaying %s offset %llu", record->segment_path,
                      (unsigned long long)record->offset);
    }
    return rc;
}

/* After replay: removes the parts above flushed_lsn that no commit record
 * adopted (a replayed stage commit takes its names out of the list) and
 * the stage directory (parts of inserts that never committed). Kept when
 * the log is damaged: records past the damage may adopt them, so an
 * operator decides. */
static int table_open_drop_candidates(table *t, bool log_damaged, mu_err *err) {
    int rc = 0;
    for (uint32_t i = 0; i < t->open_candidate_count; i++) {
        char dir[4096];
        if (t->open_candidates[i] == NULL || log_damaged) continue;
        snprintf(dir, sizeof(dir), "%s/%s", t->parts_dir, t->open_candidates[i]);
        mu_log_info("table.uncommitted_part_removed", "table=%s part=%s", t->name,
                    t->open_candidates[i]);
        if (rc == 0) rc = io_remove_tree(dir, NULL, err);
    }
    for (uint32_t i = 0; i < t->open_candidate_count; i++) free(t->open_candidates[i]);
    free(t->open_candidates);
    t->open_candidates = NULL;
    t->open_candidate_count = 0;
    if (rc == 0 && !log_damaged) {
        char stage[4096];
        snprintf(stage, sizeof(stage), "%s/%s", t->parts_dir, TABLE_STAGE_DIR);
        rc = io_remove_tree(stage, NULL, err);
        if (rc == MU_ENOT_FOUND) rc = 0;
    }
    return rc;
}

static int table_open_log(table *t, const table_options *opt, mu_err *err) {
    wal_options wopt;
    wal_options_init(&wopt);
    wopt.dir = opt->wal_dir;
    wopt.name = t->name;
    if (opt->wal_segment_bytes != 0) wopt.segment_bytes = opt->wal_segment_bytes;
    wopt.token_window = opt->token_window;
    wopt.first_lsn = t->parts_max_lsn + 1;
    wopt.corrupt_read_only = true;
    wopt.on_durable = table__on_durable;
    wopt.on_durable_ctx = t;
    int rc = wal_open(&t->log, &wopt, table_open_on_record, t, err);
    if (rc == MU_ECORRUPT && t->log != NULL) {
        /* Serve reads of what replayed; refuse writes until an operator acts. */
        mu_log_err(MU_LOG_ERROR, "table.wal_corrupt", err);
        return table_open_drop_candidates(t, true, err);
    }
    if (rc == 0) rc = table_open_drop_candidates(t, false, err);
    return rc;
}

/* Gives the WAL the tokens of the parts, newest parts last, so a retried
 * insert whose records were checkpointed away is still "already stored". */
static int table_open_remember_tokens(table *t, mu_err *err) {
    table_version *v = t->current;
    for (uint32_t i = 0; i < v->part_count; i++) {
        const part *p = v->parts[i]->part;
        const part_info *info = part_get_info(p);
        for (uint32_t k = 0; k < info->token_count; k++) {
            uint32_t bytes = 0;
            const uint8_t *token = part_token_get(p, k, &bytes);
            int rc = wal_token_remember(t->log, token, bytes, info->lsn_max, err);
            if (rc != 0) return rc;
        }
    }
    return 0;
}

/* Moves a part that fails to open to detached/, so the table opens with
 * the rest and an operator can inspect it. */
static void table_open_detach(table *t, const char *name, const mu_err *why) {
    char detached[4096], from[4096], to[4400];
    snprintf(detached, sizeof(detached), "%s/detached", t->parts_dir);
    snprintf(from, sizeof(from), "%s/%s", t->parts_dir, name);
    snprintf(to, sizeof(to), "%s/%s", detached, name);
    mu_err err;
    char reason[600];
    mu_log_error("table.part_detached", "table=%s part=%s reason=%s", t->name, name,
                 mu_log_quote(why->message, reason, sizeof(reason)));
    if (io_mkdir_p(detached, NULL, &err) != 0 ||
        io_rename(from, to, IO_RENAME_SYNC_DIR, NULL, &err) != 0) {
        mu_log_err(MU_LOG_ERROR, "table.part_detach_failed", &err);
    }
}

/* Opens one directory entry as a part; returns 1 if it became a part, 0 if
 * it was skipped (tmp_, detached, uncommitted, damaged), or an error. */
static int table_open_part(table *t, const char *name, table_part_ref **ref_out, mu_err *err) {
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s/%s", t->parts_dir, name);
    if (strncmp(name, "tmp_", 4) == 0) {
        mu_log_info("table.tmp_removed", "table=%s dir=%s", t->name, name);
        int rc = io_remove_tree(dir, NULL, err);
        return rc != 0 ? rc : 0;
    }
    if (strcmp(name, "detached") == 0 || strncmp(name, "flushed_lsn", 11) == 0 ||
        strcmp(name, TABLE_STAGE_DIR) == 0)
        return 0;
    part *p = NULL;
    mu_err why;
    if (part_open(&p, dir, t->name, &why) != 0) {
        table_open_detach(t, name, &why);
        return 0;
    }
    if (part_get_info(p)->lsn_max > t->parts_max_lsn) {
        /* Published by a flush that crashed before its commit (its rows
         * are still in the WAL, which replays them), or moved in by a
         * stage commit whose record replay will find: decided after
         * replay (table_open_drop_candidates). */
        part_close(p);
        char **grown = realloc(t->open_candidates,
                               (t->open_candidate_count + 1) * sizeof(*grown));
        if (grown == NULL) return MU_ERR(err, MU_ENOMEM, "cannot list parts of %s", t->name);
        t->open_candidates = grown;
        if ((grown[t->open_candidate_count] = strdup(name)) == NULL)
            return MU_ERR(err, MU_ENOMEM, "cannot list parts of %s", t->name);
        t->open_candidate_count++;
        return 0;
    }
    table_part_ref *ref = calloc(1, sizeof(*ref));
    if (ref == NULL || (ref->dir = strdup(dir)) == NULL) {
        free(ref);
        part_close(p);
        return MU_ERR(err, MU_ENOMEM, "cannot allocate part %s", name);
    }
    ref->part = p;
    atomic_init(&ref->refs, 1);
    atomic_init(&ref->obsolete, false);
    *ref_out = ref;
    return 1;
}

int table__load_parts(table *t, mu_err *err) {
    int rc = io_mkdir_p(t->parts_dir, NULL, err);
    if (rc == 0) rc = table__flushed_lsn_read(t, &t->parts_max_lsn, err);
    if (rc != 0) return rc;
    io_dir_list list = {0};
    rc = io_list_dir(t->parts_dir, &list, err);
    table_part_ref **refs = rc == 0 ? calloc(list.count + 1, sizeof(*refs)) : NULL;
    if (rc == 0 && refs == NULL) rc = MU_ERR(err, MU_ENOMEM, "cannot list parts");
    uint32_t count = 0;
    for (size_t i = 0; i < list.count && rc == 0; i++) {
        int opened = table_open_part(t, list.names[i], &refs[count], err);
        if (opened < 0) rc = opened;
        else count += (uint32_t)opened;
    }
    io_dir_list_deinit(&list);
    table_version *v = NULL;
    if (rc == 0) rc = table_version_create(count, 0, &v, err);
    if (rc != 0) {
        for (uint32_t i = 0; i < count; i++) table_part_ref_release(refs[i]);
        free(refs);
        return rc;
    }
    if (count > 0) {
        memcpy(v->parts, refs, count * sizeof(*refs));
    }
    v->part_count = count;
    table__version_sort_parts(v);
    free(refs);
    t->current = v;
    return 0;
}

static int table_open_copy_options(table *t, const table_options *opt, mu_err *err) {
    t->name = strdup(opt->name);
    t->parts_dir = strdup(opt->parts_dir);
    t->sort_key = calloc(opt->sort_key_count + 1, sizeof(*t->sort_key));
    if (t->name == NULL || t->parts_dir == NULL || t->sort_key == NULL) {
        return MU_ERR(err, MU_ENOMEM, "cannot allocate table %s", opt->name);
    }
    for (uint32_t i = 0; i < opt->sort_key_count; i++) {
        if (opt->sort_key[i] >= opt->column_count) {
            return MU_ERR(err, MU_EINVAL, "table %s: sort key column %u of %u", opt->name,
                          opt->sort_key[i], opt->column_count);
        }
        t->sort_key[i] = opt->sort_key[i];
    }
    t->sort_key_count = opt->sort_key_count;
    uint32_t limit = opt->column_count + opt->computed_key_count;
    const uint32_t *order = opt->sort_order ? opt->sort_order : opt->sort_key;
    t->sort_order_count = opt->sort_order ? opt->sort_order_count : opt->sort_key_count;
    t->sort_order = calloc(t->sort_order_count + 1, sizeof(*t->sort_order));
    if (t->sort_order == NULL) return MU_ERR(err, MU_ENOMEM, "cannot allocate table %s", opt->name);
    for (uint32_t i = 0; i < t->sort_order_count; i++) {
        if (order[i] >= limit) {
            return MU_ERR(err, MU_EINVAL, "table %s: sort item %u of %u columns and keys",
                          opt->name, order[i], limit);
        }
        t->sort_order[i] = order[i];
    }
    if ((opt->partitioned && opt->partition_key >= limit) ||
        (opt->computed_key_count > 0 && opt->key_fn == NULL)) {
        return MU_ERR(err, MU_EINVAL, "table %s: bad partition or computed key", opt->name);
    }
    t->partitioned = opt->partitioned;
    t->partition_key = opt->partition_key;
    t->computed_key_count = opt->computed_key_count;
    t->key_fn = opt->key_fn;
    t->key_ctx = opt->key_ctx;
    t->column_count = opt->column_count;
    t->column_names = opt->column_names;
    t->column_types = opt->column_types;
    t->column_codecs = opt->column_codecs;
    t->index_granularity = opt->index_granularity ? opt->index_granularity : 8192;
    t->flush_rows = opt->flush_rows ? opt->flush_rows : 1048576;
    t->flush_interval_ms = opt->flush_interval_ms;
    t->tracker = opt->tracker;
    memcpy(t->uuid, opt->uuid, sizeof(t->uuid));
    return 0;
}

int table_open(table **table_out, const table_options *opt, mu_err *err) {
    MU_ASSERT(table_out != NULL);
    MU_ASSERT(opt != NULL && opt->name != NULL && opt->wal_dir != NULL);
    MU_ASSERT(opt->parts_dir != NULL);
    table *t = calloc(1, sizeof(*t));
    if (t == NULL) return MU_ERR(err, MU_ENOMEM, "cannot allocate table %s", opt->name);
    pthread_mutex_init(&t->publish_lock, NULL);
    atomic_init(&t->stage_broken, false);
    pthread_mutex_init(&t->version_lock, NULL);
    pthread_mutex_init(&t->active_lock, NULL);
    pthread_mutex_init(&t->flush_lock, NULL);
    pthread_cond_init(&t->flush_wake, NULL);
    pthread_cond_init(&t->flush_done, NULL);
    int rc = table_open_copy_options(t, opt, err);
    if (rc == 0) rc = table__load_parts(t, err); /* sets current (parts only) */
    if (rc == 0) rc = table__memtable_ref_create(t, &t->active, err);
    if (rc == 0) {
        /* The version takes the table's reference to the active memtable. */
        table_version *v = NULL;
        rc = table__version_derive(t, NULL, 0, NULL, t->active, &v, err);
        if (rc == 0) table__version_install(t, v);
        else table_memtable_ref_release(t->active);
        if (rc != 0) t->active = NULL;
    }
    if (rc == 0) rc = table_open_log(t, opt, err);
    if (rc == 0) rc = table_open_remember_tokens(t, err);
    if (rc == 0) rc = table__flusher_start(t, err);
    if (rc != 0) {
        table_close(t);
        return rc;
    }
    *table_out = t;
    return 0;
}

void table_close(table *t) {
    if (t == NULL) return;
    table__flusher_stop(t);
    wal_close(t->log);
    table_version_release(t->current);
    pthread_cond_destroy(&t->flush_done);
    pthread_cond_destroy(&t->flush_wake);
    pthread_mutex_destroy(&t->flush_lock);
    pthread_mutex_destroy(&t->active_lock);
    pthread_mutex_destroy(&t->version_lock);
    pthread_mutex_destroy(&t->publish_lock);
    for (uint32_t i = 0; i < t->open_candidate_count; i++) free(t->open_candidates[i]);
    free(t->open_candidates);
    free(t->sort_key);
    free(t->sort_order);
    free(t->parts_dir);
    free(t->name);
    free(t);
}
