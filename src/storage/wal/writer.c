/* writer.c: appends and group commit. Any number of threads call
 * wal_append; each queues a request and sleeps. One writer thread per log
 * takes every waiting request, encodes them into one buffer, writes it with
 * one write, issues one fdatasync, calls opt->on_durable for each record in
 * LSN order, and wakes the whole group.
 *
 * Invariants: a group is written only after the previous group's fdatasync
 * returned (replay's torn-tail rule depends on it); a request is acknowledged
 * only after its group's sync succeeded; waiting bytes never exceed
 * queue_bytes_max except for one oversized record admitted to an empty
 * queue. A write or sync error moves the log to FAILED (see wal.c).
 */
#include "storage/wal/wal_int.h"

#include <stdio.h>
#include <string.h>

int wal__refusal(const wal *w, mu_err *err) {
    switch (w->state) {
    case WAL_STATE_FAILED:
        return MU_ERR(err, MU_ETABLE_READONLY,
                      "write-ahead log of %s failed at %s: %s; writes resume after every row "
                      "is in a synced part",
                      w->name, w->state_path, w->state_err.message);
    case WAL_STATE_CORRUPT:
        return MU_ERR(err, MU_ECORRUPT,
                      "write-ahead log of %s is corrupt: %s; writes are refused until an "
                      "operator repairs the log",
                      w->name, w->state_err.message);
    default:
        break;
    }
    if (w->stopping) return MU_ERR(err, MU_ESHUTDOWN, "write-ahead log of %s is closing", w->name);
    return 0;
}

static int wal__entry_check(const wal *w, const wal_entry *entry, size_t *record_bytes,
                            mu_err *err) {
    if (entry->type == 0) {
        return MU_ERR(err, MU_EINVAL, "write-ahead log of %s: record type 0 is reserved", w->name);
    }
    if (entry->token_bytes > WAL_TOKEN_BYTES_MAX) {
        return MU_ERR(err, MU_ETOO_LARGE, "insert token of %zu bytes (at most %d)",
                      entry->token_bytes, WAL_TOKEN_BYTES_MAX);
    }
    if ((entry->token == NULL && entry->token_bytes > 0) ||
        (entry->payload == NULL && entry->payload_bytes > 0)) {
        return MU_ERR(err, MU_EINVAL, "write-ahead log of %s: NULL token or payload", w->name);
    }
    size_t total = wal__record_bytes(entry->token_bytes, entry->payload_bytes);
    if (total == 0 || total > w->opt.record_bytes_max) {
        return MU_ERR(err, MU_ETOO_LARGE,
                      "write-ahead log of %s: record of %zu payload bytes exceeds the limit of "
                      "%llu bytes",
                      w->name, entry->payload_bytes, (unsigned long long)w->opt.record_bytes_max);
    }
    *record_bytes = total;
    return 0;
}

/* Reserves the entry's token, or finds it durable (returns 1, ack filled),
 * waiting while another append holds it. [mu held] */
static int wal__token_claim(wal *w, const wal_entry *entry, wal_ack *ack,
                            wal__token **token_out, mu_err *err) {
    for (;;) {
        int rc = wal__refusal(w, err);
        if (rc != 0) return rc;
        wal__token *token = wal__tokens_find(&w->tokens, entry->token, entry->token_bytes);
        if (token == NULL) {
            return wal__tokens_reserve(&w->tokens, entry->token, entry->token_bytes, token_out,
                                       err);
        }
        if (token->state == WAL__TOKEN_DURABLE) {
            ack->lsn = token->lsn;
            ack->already_stored = true;
            w->stats.tokens_deduplicated++;
            return 1;
        }
        /* In flight elsewhere: its outcome decides (stored, or free to retry). */
        pthread_cond_wait(&w->done_cond, &w->mu);
    }
}

/* Back-pressure: waits until the queue has room for record_bytes. An empty
 * queue always admits, so one record larger than the queue cannot stall.
 * [mu held] */
static int wal__wait_for_room(wal *w, size_t record_bytes, mu_err *err) {
    for (;;) {
        int rc = wal__refusal(w, err);
        if (rc != 0) return rc;
        if (w->queue_bytes == 0 || w->queue_bytes + record_bytes <= w->opt.queue_bytes_max) {
            return 0;
        }
        pthread_cond_wait(&w->space_cond, &w->mu);
    }
}

int wal_append(wal *w, const wal_entry *entry, wal_ack *ack, mu_err *err) {
    MU_ASSERT(w != NULL);
    MU_ASSERT(entry != NULL);
    MU_ASSERT(ack != NULL);
    memset(ack, 0, sizeof(*ack));
    wal__request request = {.entry = entry, .status = WAL__PENDING, .err = err};
    int rc = wal__entry_check(w, entry, &request.record_bytes, err);
    if (rc != 0) return rc;
    pthread_mutex_lock(&w->mu);
    w->appenders++;
    rc = wal__refusal(w, err);
    if (rc == 0 && entry->token_bytes > 0) {
        rc = wal__token_claim(w, entry, ack, &request.token, err);
    }
    if (rc == 0) rc = wal__wait_for_room(w, request.record_bytes, err);
    if (rc == 0) {
        if (w->queue_tail != NULL) {
            w->queue_tail->next = &request;
        } else {
            w->queue_head = &request;
        }
        w->queue_tail = &request;
        w->queue_bytes += request.record_bytes;
        pthread_cond_signal(&w->work_cond);
        while (request.status == WAL__PENDING) pthread_cond_wait(&w->done_cond, &w->mu);
        rc = request.status; /* the writer settled the token too */
        if (rc == 0) {
            ack->lsn = request.lsn;
            ack->sync_stamp = request.sync_stamp;
        }
    } else if (request.token != NULL) {
        wal__tokens_abort(&w->tokens, request.token);
        pthread_cond_broadcast(&w->done_cond);
    }
    if (rc == 1) rc = 0; /* already stored */
    w->appenders--;
    if (w->stopping && w->appenders == 0) pthread_cond_broadcast(&w->done_cond);
    pthread_mutex_unlock(&w->mu);
    return rc;
}

/* Starts a new segment at first_lsn (between groups). [writer] */
static int wal__roll(wal *w, uint64_t first_lsn, mu_err *err) {
    io_file *file = NULL;
    uint32_t salt = 0;
    int rc = wal__segment_create(w, first_lsn, 0, WAL_CP_ROLL, &file, &salt, err);
    if (rc != 0) return rc;
    pthread_mutex_lock(&w->mu);
    rc = wal__segments_push(w, first_lsn, err);
    if (rc == 0) w->stats.segments_rolled++;
    pthread_mutex_unlock(&w->mu);
    if (rc != 0) {
        io_close(file, NULL);
        return rc;
    }
    /* Every group in the old segment was synced before it was acknowledged. */
    io_close(w->active, NULL);
    w->active = file;
    w->active_bytes = WAL_SEGMENT_HEADER_BYTES;
    w->active_salt = salt;
    mu_log_info("wal.roll", "table=%s first_lsn=%llu", w->name, (unsigned long long)first_lsn);
    return 0;
}

/* Writes and syncs one group. [writer, without mu] */
static int wal__group_write(wal *w, wal__request *batch, uint64_t first_lsn, uint64_t stamp,
                            mu_err *err) {
    int rc = 0;
    if (w->active_bytes >= w->opt.segment_bytes) rc = wal__roll(w, first_lsn, err);
    if (rc != 0) return rc;
    mu_buf_clear(&w->group_buf);
    for (wal__request *r = batch; r != NULL; r = r->next) {
        size_t offset = w->group_buf.length_bytes;
        rc = mu_buf_reserve(&w->group_buf, r->record_bytes, err);
        if (rc != 0) return rc;
        MU_ASSERT(offset <= UINT32_MAX);
        wal__record_encode(w->group_buf.data + offset, w->active_salt, stamp, (uint32_t)offset,
                           r->entry);
        w->group_buf.length_bytes += r->record_bytes;
    }
    rc = io_write_all(w->active, w->group_buf.data, w->group_buf.length_bytes, WAL_FP_WRITE,
                      err);
    if (rc != 0) return rc;
    MU_CRASHPOINT(WAL_CP_AFTER_WRITE);
    rc = io_fdatasync(w->active, WAL_FP_FSYNC, err);
    if (rc != 0) return rc;
    MU_CRASHPOINT(WAL_CP_AFTER_FSYNC);
    w->active_bytes += w->group_buf.length_bytes;
    return 0;
}

/* Settles every request of a finished group and, on failure, fails the
 * log. [writer, mu held] */
static void wal__group_complete(wal *w, wal__request *batch, int rc, const mu_err *group_err) {
    mu_err waiter_err = *group_err;
    if (rc != 0) {
        mu_err_prefix(&waiter_err, "write-ahead log of %s", w->name);
        MU_ASSERT(w->state == WAL_STATE_OPEN);
        w->state = WAL_STATE_FAILED;
        w->state_err = *group_err;
        snprintf(w->state_path, sizeof(w->state_path), "%s", io_file_path(w->active));
        mu_log_err(MU_LOG_ERROR, "wal.failed", &waiter_err);
    }
    size_t records = 0;
    while (batch != NULL) {
        wal__request *r = batch;
        batch = r->next; /* r lives on its appender's stack: read first */
        if (rc == 0) {
            if (r->token != NULL) wal__tokens_commit(&w->tokens, r->token, r->lsn);
            MU_ASSERT(r->lsn > w->durable_lsn);
            w->durable_lsn = r->lsn;
            w->stats.record_bytes += r->record_bytes;
            records++;
        } else {
            if (r->token != NULL) wal__tokens_abort(&w->tokens, r->token);
            if (r->err != NULL) *r->err = waiter_err;
        }
        r->status = rc;
    }
    if (rc == 0) {
        w->stats.records += records;
        w->stats.groups++;
        w->stats.syncs++;
    }
    pthread_cond_broadcast(&w->done_cond);
}

/* Refuses every request of a batch taken while the log is not OPEN.
 * [writer, mu held] */
static void wal__group_refuse(wal *w, wal__request *batch) {
    while (batch != NULL) {
        wal__request *r = batch;
        batch = r->next;
        if (r->token != NULL) wal__tokens_abort(&w->tokens, r->token);
        r->status = wal__refusal(w, r->err);
        MU_ASSERT(r->status < 0);
    }
    pthread_cond_broadcast(&w->done_cond);
}

/* Takes the whole queue as one group and numbers it. [mu held] */
static wal__request *wal__group_take(wal *w, uint64_t *first_lsn, uint64_t *stamp) {
    wal__request *batch = w->queue_head;
    w->queue_head = NULL;
    w->queue_tail = NULL;
    w->queue_bytes = 0;
    pthread_cond_broadcast(&w->space_cond);
    if (w->state != WAL_STATE_OPEN) return batch;
    *first_lsn = w->next_lsn;
    *stamp = ++w->last_stamp;
    for (wal__request *r = batch; r != NULL; r = r->next) {
        r->lsn = w->next_lsn++;
        r->sync_stamp = *stamp;
    }
    return batch;
}

void *wal__writer_main(void *arg) {
    wal *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (w->queue_head == NULL && !w->stopping) pthread_cond_wait(&w->work_cond, &w->mu);
        if (w->queue_head == NULL) break; /* stopping, and nothing left to write */
        uint64_t first_lsn = 0;
        uint64_t stamp = 0;
        wal__request *batch = wal__group_take(w, &first_lsn, &stamp);
        if (w->state != WAL_STATE_OPEN) {
            wal__group_refuse(w, batch);
            continue;
        }
        w->writer_busy = true;
        pthread_mutex_unlock(&w->mu);
        mu_err group_err;
        mu_err_clear(&group_err);
        int rc = wal__group_write(w, batch, first_lsn, stamp, &group_err);
        if (rc == 0 && w->opt.on_durable != NULL) {
            /* The requests' LSNs were set under mu and their appenders are
             * still waiting, so reading them here is safe. */
            for (wal__request *r = batch; r != NULL; r = r->next) {
                w->opt.on_durable(w->opt.on_durable_ctx, r->lsn, r->entry);
            }
        }
        pthread_mutex_lock(&w->mu);
        w->writer_busy = false;
        wal__group_complete(w, batch, rc, &group_err);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}
