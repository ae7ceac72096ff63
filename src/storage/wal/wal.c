/* wal.c: the life of a log: options, open (replay, then the writer thread),
 * close, segment files, truncation after a checkpoint, recovery from a
 * failed sync, tokens, state and statistics.
 *
 * State machine (transitions under w->mu):
 *
 *   wal_open --replay ok--> OPEN --write/fsync error (writer.c)--> FAILED
 *      |                     ^                                        |
 *      |                     +---- wal_recover_after_failure ---------+
 *      +--damage, corrupt_read_only--> CORRUPT (final until reopened)
 *
 * Segment files are created with a synced header and a synced directory
 * entry before any record goes into them; wal.h specifies the format.
 */
#include "storage/wal/wal_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#define WAL__DEFAULT_BYTES (64u * 1024 * 1024)

void wal_options_init(wal_options *opt) {
    MU_ASSERT(opt != NULL);
    memset(opt, 0, sizeof(*opt));
    opt->segment_bytes = WAL__DEFAULT_BYTES;
    opt->queue_bytes_max = WAL__DEFAULT_BYTES;
    opt->record_bytes_max = WAL__DEFAULT_BYTES;
    opt->token_window = 10000;
    opt->first_lsn = 1;
}

static int wal__options_check(const wal_options *opt, mu_err *err) {
    if (opt->dir == NULL || opt->dir[0] == '\0') {
        return MU_ERR(err, MU_EINVAL, "write-ahead log: no directory given");
    }
    if (opt->segment_bytes <= WAL_SEGMENT_HEADER_BYTES) {
        return MU_ERR(err, MU_EINVAL, "write-ahead log %s: segment_bytes %llu too small",
                      opt->dir, (unsigned long long)opt->segment_bytes);
    }
    if (opt->record_bytes_max < WAL_RECORD_HEADER_BYTES ||
        opt->record_bytes_max > WAL_RECORD_BYTES_LIMIT) {
        return MU_ERR(err, MU_EINVAL, "write-ahead log %s: record_bytes_max %llu outside %d..%u",
                      opt->dir, (unsigned long long)opt->record_bytes_max,
                      WAL_RECORD_HEADER_BYTES, WAL_RECORD_BYTES_LIMIT);
    }
    /* A group (at most the queue plus one record) must fit the u32 group offset. */
    if (opt->queue_bytes_max == 0 || opt->queue_bytes_max > ((uint64_t)1 << 31)) {
        return MU_ERR(err, MU_EINVAL, "write-ahead log %s: queue_bytes_max %llu out of range",
                      opt->dir, (unsigned long long)opt->queue_bytes_max);
    }
    if (opt->first_lsn == 0) {
        return MU_ERR(err, MU_EINVAL, "write-ahead log %s: first_lsn must be at least 1",
                      opt->dir);
    }
    return 0;
}

int wal__segment_path(const wal *w, uint64_t first_lsn, char *out, size_t out_bytes,
                      mu_err *err) {
    char name[WAL_SEGMENT_NAME_BYTES + 1];
    wal__segment_name_format(first_lsn, name);
    int n = snprintf(out, out_bytes, "%s/%s", w->dir, name);
    if (n < 0 || (size_t)n >= out_bytes) {
        return MU_ERR(err, MU_EINVAL, "write-ahead log %s: path too long", w->dir);
    }
    return 0;
}

static uint32_t wal__random_u32(void) {
    uint32_t value = 0;
    if (getrandom(&value, sizeof(value), GRND_NONBLOCK) == (ssize_t)sizeof(value)) return value;
    /* No entropy yet (early boot): a clock-derived salt still differs per
     * segment, which is what the salt is for. */
    return (uint32_t)mu_hash_u64((uint64_t)mu_clock_wall_ns() ^ (uint64_t)mu_clock_mono_ns());
}

int wal__segment_create(wal *w, uint64_t first_lsn, uint32_t flags, const char *crashpoint,
                        io_file **file_out, uint32_t *salt_out, mu_err *err) {
    MU_ASSERT(first_lsn > 0);
    MU_ASSERT(file_out != NULL);
    char path[IO_PATH_MAX_BYTES];
    int rc = wal__segment_path(w, first_lsn, path, sizeof(path), err);
    if (rc != 0) return rc;
    io_file *file = NULL;
    rc = io_open(&file, path, IO_OPEN_APPEND | IO_OPEN_CREATE | IO_OPEN_EXCL, WAL_FP_SEGMENT,
                 err);
    if (rc != 0) return rc;
    MU_CRASHPOINT(crashpoint);
    (void)crashpoint;
    wal__segment_header header = {
        .first_lsn = first_lsn, .flags = flags, .salt = wal__random_u32()};
    uint8_t bytes[WAL_SEGMENT_HEADER_BYTES];
    wal__header_encode(&header, bytes);
    /* The header is synced before the directory entry and before any record,
     * so a segment longer than its header always has a durable header. */
    rc = io_write_all(file, bytes, sizeof(bytes), WAL_FP_SEGMENT, err);
    if (rc == 0) rc = io_fdatasync(file, WAL_FP_SEGMENT, err);
    if (rc == 0) rc = io_fsync_dir(w->dir, WAL_FP_SEGMENT, err);
    if (rc != 0) goto fail;
    *file_out = file;
    *salt_out = header.salt;
    return 0;
fail:
    io_close(file, NULL);
    /* It never held a record: removing it loses nothing, and replay would
     * remove a header-only leftover anyway. */
    io_unlink(path, IO_UNLINK_MISSING_OK, NULL, NULL);
    return rc;
}

int wal__segments_push(wal *w, uint64_t first_lsn, mu_err *err) {
    MU_ASSERT(w->segment_count == 0 || w->segment_lsns[w->segment_count - 1] < first_lsn);
    if (w->segment_count == w->segment_capacity) {
        size_t grown = w->segment_capacity == 0 ? 16 : w->segment_capacity * 2;
        uint64_t *lsns = realloc(w->segment_lsns, grown * sizeof(*lsns));
        if (lsns == NULL) return MU_ERR(err, MU_ENOMEM, "write-ahead log %s: out of memory",
                                        w->name);
        w->segment_lsns = lsns;
        w->segment_capacity = grown;
    }
    w->segment_lsns[w->segment_count++] = first_lsn;
    return 0;
}

/* Allocates the log object and everything that does not touch the disk. */
static int wal__alloc(wal **w_out, const wal_options *opt, mu_err *err) {
    wal *w = calloc(1, sizeof(*w));
    if (w == NULL) return MU_ERR(err, MU_ENOMEM, "write-ahead log %s: out of memory", opt->dir);
    w->opt = *opt;
    w->dir = strdup(opt->dir);
    w->name = strdup(opt->name != NULL ? opt->name : opt->dir);
    w->opt.dir = w->dir;
    w->opt.name = w->name;
    pthread_mutex_init(&w->mu, NULL);
    pthread_mutex_init(&w->admin_mu, NULL);
    pthread_cond_init(&w->work_cond, NULL);
    pthread_cond_init(&w->done_cond, NULL);
    pthread_cond_init(&w->space_cond, NULL);
    mu_buf_init(&w->group_buf, (size_t)(opt->queue_bytes_max + opt->record_bytes_max));
    mu_err_clear(&w->state_err);
    w->next_lsn = opt->first_lsn;
    *w_out = w;
    if (w->dir == NULL || w->name == NULL) {
        return MU_ERR(err, MU_ENOMEM, "write-ahead log %s: out of memory", opt->dir);
    }
    return wal__tokens_init(&w->tokens, opt->token_window, err);
}

static void wal__free(wal *w) {
    if (w == NULL) return;
    io_close(w->active, NULL); /* every acknowledged byte was synced */
    wal__tokens_deinit(&w->tokens);
    mu_buf_deinit(&w->group_buf);
    pthread_cond_destroy(&w->space_cond);
    pthread_cond_destroy(&w->done_cond);
    pthread_cond_destroy(&w->work_cond);
    pthread_mutex_destroy(&w->admin_mu);
    pthread_mutex_destroy(&w->mu);
    free(w->segment_lsns);
    free(w->name);
    free(w->dir);
    free(w);
}

static int wal__start_writer(wal *w, mu_err *err) {
    int rc = pthread_create(&w->writer_thread, NULL, wal__writer_main, w);
    if (rc != 0) {
        return MU_ERR_SYS(err, MU_ENOMEM, rc, "write-ahead log %s: cannot start writer",
                          w->name);
    }
    w->writer_started = true;
    char thread_name[16];
    snprintf(thread_name, sizeof(thread_name), "wal-%s", w->name);
    pthread_setname_np(w->writer_thread, thread_name);
    return 0;
}

int wal_open(wal **wal_out, const wal_options *opt, wal_replay_fn on_record, void *ctx,
             mu_err *err) {
    MU_ASSERT(wal_out != NULL);
    MU_ASSERT(opt != NULL);
    *wal_out = NULL;
    int rc = wal__options_check(opt, err);
    if (rc != 0) return rc;
    wal *w = NULL;
    rc = wal__alloc(&w, opt, err);
    if (rc == 0) rc = io_mkdir_p(w->dir, WAL_FP_SEGMENT, err);
    if (rc == 0) rc = wal__replay(w, on_record, ctx, err);
    if (rc == MU_ECORRUPT && opt->corrupt_read_only) {
        MU_ASSERT(w->state == WAL_STATE_CORRUPT);
        *wal_out = w; /* read-only: no writer, appends are refused */
        return rc;
    }
    if (rc == 0) rc = wal__start_writer(w, err);
    if (rc != 0) goto fail;
    MU_ASSERT(w->active != NULL);
    MU_ASSERT(w->state == WAL_STATE_OPEN);
    mu_log_info("wal.open", "table=%s dir=%s segments=%zu next_lsn=%llu replayed=%llu",
                w->name, w->dir, w->segment_count, (unsigned long long)w->next_lsn,
                (unsigned long long)w->stats.replayed_records);
    *wal_out = w;
    return 0;
fail:
    wal__free(w);
    return rc;
}

void wal_close(wal *w) {
    if (w == NULL) return;
    pthread_mutex_lock(&w->mu);
    w->stopping = true;
    pthread_cond_broadcast(&w->work_cond);
    pthread_cond_broadcast(&w->space_cond);
    pthread_cond_broadcast(&w->done_cond);
    pthread_mutex_unlock(&w->mu);
    /* The writer finishes every queued append before it exits. */
    if (w->writer_started) pthread_join(w->writer_thread, NULL);
    pthread_mutex_lock(&w->mu);
    while (w->appenders > 0) pthread_cond_wait(&w->done_cond, &w->mu);
    MU_ASSERT(w->queue_head == NULL);
    pthread_mutex_unlock(&w->mu);
    wal__free(w);
}

/* Deletes the oldest live segment (never the newest). [admin_mu held] */
static int wal__delete_oldest(wal *w, bool *crashpoint_due, mu_err *err) {
    pthread_mutex_lock(&w->mu);
    MU_ASSERT(w->segment_count >= 2);
    uint64_t first_lsn = w->segment_lsns[0];
    pthread_mutex_unlock(&w->mu);
    char path[IO_PATH_MAX_BYTES];
    int rc = wal__segment_path(w, first_lsn, path, sizeof(path), err);
    if (rc == 0) rc = io_unlink(path, IO_UNLINK_MISSING_OK, WAL_FP_SEGMENT, err);
    if (rc != 0) return rc;
    if (*crashpoint_due) {
        MU_CRASHPOINT(WAL_CP_TRUNCATE);
        *crashpoint_due = false;
    }
    pthread_mutex_lock(&w->mu);
    MU_ASSERT(w->segment_lsns[0] == first_lsn);
    memmove(w->segment_lsns, w->segment_lsns + 1, (w->segment_count - 1) * sizeof(uint64_t));
    w->segment_count--;
    w->stats.segments_deleted++;
    pthread_mutex_unlock(&w->mu);
    return 0;
}

int wal_truncate_before(wal *w, uint64_t lsn, mu_err *err) {
    MU_ASSERT(w != NULL);
    pthread_mutex_lock(&w->admin_mu);
    int rc = 0;
    size_t deleted = 0;
    bool crashpoint_due = true;
    pthread_mutex_lock(&w->mu);
    /* A corrupt log keeps every file for the operator. */
    if (w->state == WAL_STATE_CORRUPT) rc = wal__refusal(w, err);
    pthread_mutex_unlock(&w->mu);
    while (rc == 0) {
        pthread_mutex_lock(&w->mu);
        /* Segment 0 holds LSNs [lsns[0], lsns[1]): all below lsn iff lsns[1] <= lsn. */
        bool deletable = w->segment_count >= 2 && w->segment_lsns[1] <= lsn;
        pthread_mutex_unlock(&w->mu);
        if (!deletable) break;
        rc = wal__delete_oldest(w, &crashpoint_due, err);
        if (rc != 0) break;
        deleted++;
    }
    /* Deletions are made durable even after a failed one, so that what is
     * gone stays gone; a later call retries the rest. */
    if (deleted > 0) {
        int sync_rc = io_fsync_dir(w->dir, WAL_FP_SEGMENT, rc == 0 ? err : NULL);
        if (rc == 0) rc = sync_rc;
    }
    pthread_mutex_unlock(&w->admin_mu);
    if (rc == 0 && deleted > 0) {
        mu_log_info("wal.truncate", "table=%s before_lsn=%llu segments_deleted=%zu", w->name,
                    (unsigned long long)lsn, deleted);
    }
    return rc;
}

/* Removes the files of segments made obsolete by a FRESH_START segment.
 * Failures are only logged: replay deletes obsolete segments again. */
static void wal__delete_obsolete(wal *w, const uint64_t *lsns, size_t count) {
    for (size_t i = 0; i < count; i++) {
        char path[IO_PATH_MAX_BYTES];
        mu_err unlink_err;
        mu_err_clear(&unlink_err);
        int rc = wal__segment_path(w, lsns[i], path, sizeof(path), &unlink_err);
        if (rc == 0) rc = io_unlink(path, IO_UNLINK_MISSING_OK, WAL_FP_SEGMENT, &unlink_err);
        if (rc != 0) mu_log_err(MU_LOG_WARN, "wal.recover.unlink_failed", &unlink_err);
    }
    mu_err sync_err;
    mu_err_clear(&sync_err);
    if (count > 0 && io_fsync_dir(w->dir, WAL_FP_SEGMENT, &sync_err) != 0) {
        mu_log_err(MU_LOG_WARN, "wal.recover.fsync_dir_failed", &sync_err);
    }
}

/* Swaps in the new FRESH_START segment and reopens for appends; returns the
 * old segment list (to delete) through *old_lsns. [admin_mu held] */
static int wal__recover_switch(wal *w, uint64_t first_lsn, io_file *file, uint32_t salt,
                               uint64_t **old_lsns, size_t *old_count, mu_err *err) {
    uint64_t *fresh = malloc(16 * sizeof(*fresh));
    if (fresh == NULL) return MU_ERR(err, MU_ENOMEM, "write-ahead log %s: out of memory",
                                     w->name);
    /* The failed descriptor is never synced again: its data is untrusted,
     * and everything acknowledged from it is in parts by now. */
    io_close(w->active, NULL);
    w->active = file;
    w->active_bytes = WAL_SEGMENT_HEADER_BYTES;
    w->active_salt = salt;
    pthread_mutex_lock(&w->mu);
    *old_lsns = w->segment_lsns;
    *old_count = w->segment_count;
    fresh[0] = first_lsn;
    w->segment_lsns = fresh;
    w->segment_count = 1;
    w->segment_capacity = 16;
    w->state = WAL_STATE_OPEN;
    mu_err_clear(&w->state_err);
    w->state_path[0] = '\0';
    w->stats.segments_rolled++;
    pthread_cond_broadcast(&w->done_cond);
    pthread_mutex_unlock(&w->mu);
    return 0;
}

int wal_recover_after_failure(wal *w, mu_err *err) {
    MU_ASSERT(w != NULL);
    pthread_mutex_lock(&w->admin_mu);
    pthread_mutex_lock(&w->mu);
    int state = w->state;
    while (w->writer_busy) pthread_cond_wait(&w->done_cond, &w->mu);
    uint64_t first_lsn = w->next_lsn;
    /* A failure burns the LSNs of its group, so no live segment has this name. */
    MU_ASSERT(state != WAL_STATE_FAILED || w->segment_count == 0 ||
              w->segment_lsns[w->segment_count - 1] < first_lsn);
    pthread_mutex_unlock(&w->mu);
    int rc = 0;
    if (state != WAL_STATE_FAILED) {
        rc = MU_ERR(err, MU_EINVAL, "write-ahead log of %s has not failed", w->name);
        goto done;
    }
    char path[IO_PATH_MAX_BYTES];
    rc = wal__segment_path(w, first_lsn, path, sizeof(path), err);
    /* A file of this name can only be left from an earlier recovery attempt
     * that failed before its header was synced. */
    if (rc == 0) rc = io_unlink(path, IO_UNLINK_MISSING_OK, WAL_FP_SEGMENT, err);
    io_file *file = NULL;
    uint32_t salt = 0;
    if (rc == 0) {
        rc = wal__segment_create(w, first_lsn, WAL_SEGMENT_FLAG_FRESH_START, WAL_CP_RECOVER,
                                 &file, &salt, err);
    }
    uint64_t *old_lsns = NULL;
    size_t old_count = 0;
    if (rc == 0) rc = wal__recover_switch(w, first_lsn, file, salt, &old_lsns, &old_count, err);
    if (rc != 0) {
        io_close(file, NULL);
        goto done;
    }
    wal__delete_obsolete(w, old_lsns, old_count);
    free(old_lsns);
    mu_log_info("wal.recovered", "table=%s first_lsn=%llu obsolete_segments=%zu", w->name,
                (unsigned long long)first_lsn, old_count);
done:
    pthread_mutex_unlock(&w->admin_mu);
    return rc;
}

int wal_state_get(wal *w, mu_err *reason) {
    MU_ASSERT(w != NULL);
    pthread_mutex_lock(&w->mu);
    int state = w->state;
    if (reason != NULL) {
        if (state != WAL_STATE_OPEN) {
            *reason = w->state_err;
        } else {
            mu_err_clear(reason);
        }
    }
    pthread_mutex_unlock(&w->mu);
    return state;
}

void wal_stats_get(wal *w, wal_stats *out) {
    MU_ASSERT(w != NULL);
    MU_ASSERT(out != NULL);
    pthread_mutex_lock(&w->mu);
    *out = w->stats;
    out->next_lsn = w->next_lsn;
    out->durable_lsn = w->durable_lsn;
    pthread_mutex_unlock(&w->mu);
}

bool wal_token_seen(wal *w, const void *token, size_t token_bytes, uint64_t *lsn_out) {
    MU_ASSERT(w != NULL);
    if (token == NULL || token_bytes == 0 || token_bytes > WAL_TOKEN_BYTES_MAX) return false;
    pthread_mutex_lock(&w->mu);
    wal__token *found = wal__tokens_find(&w->tokens, token, token_bytes);
    bool seen = found != NULL && found->state == WAL__TOKEN_DURABLE;
    if (seen && lsn_out != NULL) *lsn_out = found->lsn;
    pthread_mutex_unlock(&w->mu);
    return seen;
}

int wal_token_remember(wal *w, const void *token, size_t token_bytes, uint64_t lsn,
                       mu_err *err) {
    MU_ASSERT(w != NULL);
    if (token == NULL) return MU_ERR(err, MU_EINVAL, "insert token missing");
    pthread_mutex_lock(&w->mu);
    int rc = wal__tokens_add_durable(&w->tokens, token, token_bytes, lsn, err);
    pthread_mutex_unlock(&w->mu);
    return rc;
}
