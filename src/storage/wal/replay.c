/* replay.c: what wal_open does before the writer starts. Lists the
 * segments, drops a torn roll and the segments a FRESH_START made obsolete,
 * replays every record in LSN order, truncates a torn tail, detects damaged
 * acknowledged records, and leaves the newest segment open for appending.
 *
 * The rules (torn tail versus corruption) are specified in wal.h. Replay
 * never skips a damaged record and never delivers a record after one; the
 * only bytes it removes are a torn tail, a header-only torn roll, obsolete
 * segments, and what an operator's discard_after_corruption asks for.
 */
#include "storage/wal/wal_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest segment replay reads into memory (a sanity bound: segments are
 * normally segment_bytes plus one group). */
#define WAL__SEGMENT_READ_BYTES_MAX ((size_t)1 << 34)
/* The forward scan after a damaged record checksums at most this many bytes
 * per byte of file (plus a constant) before it gives up and reports the
 * damage as corruption rather than guess. */
#define WAL__SCAN_CRC_FACTOR 4
#define WAL__SCAN_CRC_EXTRA_BYTES (1u << 20)

typedef struct wal__segment_info {
    uint64_t first_lsn;
    wal__segment_header header;
    uint64_t size_bytes;
} wal__segment_info;

typedef struct wal__cursor {
    wal_replay_fn on_record;
    void *ctx;
    uint64_t next_lsn;    /* LSN of the next record */
    uint64_t last_stamp;  /* stamp of the last valid record, 0 before any */
    bool segment_seen;    /* a segment was replayed before this one */
    mu_buf data;          /* the current segment's bytes */
} wal__cursor;

/* Where the valid records of a segment end, and why. */
typedef struct wal__damage {
    size_t offset;        /* first byte not covered by a valid record */
    const char *why;      /* NULL if the segment parsed to its end */
    size_t group_start;   /* offset of the last valid record's group, or SIZE_MAX */
    bool acknowledged;    /* a later group follows: the damage was acknowledged */
    bool unclassified;    /* the scan budget ran out: treated as acknowledged */
    size_t later_offset;  /* that later record's offset */
} wal__damage;

/* Collects the LSNs of files named like segments, ascending. */
static int wal__replay_list(wal *w, uint64_t **lsns_out, size_t *count_out, mu_err *err) {
    io_dir_list list;
    int rc = io_list_dir(w->dir, &list, err);
    if (rc != 0) return rc;
    uint64_t *lsns = calloc(list.count + 1, sizeof(*lsns));
    if (lsns == NULL) {
        io_dir_list_deinit(&list);
        return MU_ERR(err, MU_ENOMEM, "write-ahead log %s: out of memory", w->name);
    }
    size_t count = 0;
    for (size_t i = 0; i < list.count; i++) {
        uint64_t lsn = 0;
        if (wal__segment_name_parse(list.names[i], &lsn)) {
            lsns[count++] = lsn; /* fixed-width names: sorted by name is sorted by LSN */
            continue;
        }
        char quoted[300];
        mu_log_warn("wal.ignored_file", "table=%s dir=%s file=%s", w->name, w->dir,
                    mu_log_quote(list.names[i], quoted, sizeof(quoted)));
    }
    io_dir_list_deinit(&list);
    *lsns_out = lsns;
    *count_out = count;
    return 0;
}

static int wal__corrupt_at(wal *w, const char *path, uint64_t offset, const char *detail,
                           mu_err *err) {
    return MU_CORRUPT(err, "write-ahead log of %s: %s at %s offset %llu; replay stopped",
                      w->name, detail, path, (unsigned long long)offset);
}

/* Reads and checks the header of one segment. Sets *torn_roll for a
 * header-only leftover of an interrupted roll (only legal as the newest). */
static int wal__read_header(wal *w, uint64_t lsn, wal__segment_info *info, bool *torn_roll,
                            mu_err *err) {
    char path[IO_PATH_MAX_BYTES];
    uint8_t bytes[WAL_SEGMENT_HEADER_BYTES];
    io_file *file = NULL;
    int rc = wal__segment_path(w, lsn, path, sizeof(path), err);
    if (rc == 0) rc = io_open_read(&file, path, err);
    if (rc == 0) rc = io_file_size(file, &info->size_bytes, err);
    size_t have = (size_t)MU_MIN(info->size_bytes, (uint64_t)sizeof(bytes));
    if (rc == 0) rc = io_pread_all(file, bytes, have, 0, NULL, err);
    io_close(file, NULL);
    if (rc != 0) return rc;
    info->first_lsn = lsn;
    *torn_roll = false;
    const char *why = NULL;
    rc = wal__header_decode(bytes, have, &info->header, &why);
    if (rc == MU_ECORRUPT && info->size_bytes <= WAL_SEGMENT_HEADER_BYTES) {
        *torn_roll = true;
        return 0;
    }
    if (rc == MU_ENOT_SUPPORTED) {
        return MU_ERR(err, rc, "write-ahead log of %s: %s: %s", w->name, path, why);
    }
    if (rc != 0) return wal__corrupt_at(w, path, 0, why, err);
    if (info->header.first_lsn != lsn) {
        return wal__corrupt_at(w, path, 8, "segment header names another first LSN", err);
    }
    return 0;
}

static int wal__unlink_segment(wal *w, uint64_t lsn, mu_err *err) {
    char path[IO_PATH_MAX_BYTES];
    int rc = wal__segment_path(w, lsn, path, sizeof(path), err);
    if (rc == 0) rc = io_unlink(path, IO_UNLINK_MISSING_OK, WAL_FP_SEGMENT, err);
    return rc;
}

/* Deletes segments [from, *count) (operator discard or a torn roll) and
 * shortens the list. */
static int wal__drop_segments(wal *w, wal__segment_info *infos, size_t from, size_t *count,
                              mu_err *err) {
    for (size_t i = from; i < *count; i++) {
        int rc = wal__unlink_segment(w, infos[i].first_lsn, err);
        if (rc != 0) return rc;
    }
    bool any = from < *count;
    *count = from;
    return any ? io_fsync_dir(w->dir, WAL_FP_SEGMENT, err) : 0;
}

/* Pass 1: headers. Removes a torn roll and segments older than the newest
 * FRESH_START one; any other bad header is corruption (or, in discard mode,
 * the end of the log). */
static int wal__replay_headers(wal *w, const uint64_t *lsns, wal__segment_info *infos,
                               size_t *count, mu_err *err) {
    size_t fresh_index = 0;
    for (size_t i = 0; i < *count; i++) infos[i].first_lsn = lsns[i]; /* for drops */
    for (size_t i = 0; i < *count; i++) {
        bool torn_roll = false;
        int rc = wal__read_header(w, lsns[i], &infos[i], &torn_roll, err);
        if (rc == 0 && torn_roll && i + 1 < *count) {
            rc = wal__corrupt_at(w, w->dir, 0, "header-only segment before newer segments", err);
        }
        if (rc == 0 && torn_roll) {
            mu_log_warn("wal.torn_roll", "table=%s first_lsn=%llu", w->name,
                        (unsigned long long)lsns[i]);
            return wal__drop_segments(w, infos, i, count, err);
        }
        if (rc == MU_ECORRUPT && w->opt.discard_after_corruption) {
            mu_log_err(MU_LOG_ERROR, "wal.discard", err);
            mu_err_clear(err);
            return wal__drop_segments(w, infos, i, count, err);
        }
        if (rc != 0) return rc;
        if (infos[i].header.flags & WAL_SEGMENT_FLAG_FRESH_START) fresh_index = i;
    }
    for (size_t i = 0; i < fresh_index; i++) {
        mu_err unlink_err;
        if (wal__unlink_segment(w, infos[i].first_lsn, &unlink_err) != 0) {
            mu_log_err(MU_LOG_WARN, "wal.obsolete_unlink_failed", &unlink_err);
        }
    }
    if (fresh_index > 0) {
        memmove(infos, infos + fresh_index, (*count - fresh_index) * sizeof(*infos));
        *count -= fresh_index;
        return io_fsync_dir(w->dir, WAL_FP_SEGMENT, err);
    }
    return 0;
}

/* Is a verified record at pos in sequence after the records before it? */
static bool wal__in_sequence(const wal__cursor *c, const wal__parsed *rec, size_t pos,
                             size_t group_start) {
    if (rec->sync_stamp > c->last_stamp) return rec->group_offset == 0;
    return rec->sync_stamp == c->last_stamp && group_start != SIZE_MAX &&
           rec->group_offset == pos - group_start;
}

static int wal__deliver(wal *w, wal__cursor *c, const wal__parsed *rec, const char *path,
                        size_t pos, mu_err *err) {
    wal_record record = {
        .lsn = c->next_lsn,
        .sync_stamp = rec->sync_stamp,
        .type = rec->type,
        .token = rec->token_bytes > 0 ? rec->token : NULL,
        .token_bytes = rec->token_bytes,
        .payload = rec->payload,
        .payload_bytes = rec->payload_bytes,
        .segment_path = path,
        .offset = pos,
    };
    if (rec->token_bytes > 0) {
        int rc = wal__tokens_add_durable(&w->tokens, rec->token, rec->token_bytes, c->next_lsn,
                                         err);
        if (rc != 0) return rc;
    }
    if (c->on_record != NULL) {
        int rc = c->on_record(c->ctx, &record, err);
        if (rc != 0) {
            return rc < 0 ? rc : MU_ERR(err, MU_EINTERNAL, "replay callback returned %d", rc);
        }
    }
    c->next_lsn++;
    w->stats.replayed_records++;
    return 0;
}

/* Replays the records of one segment held in c->data and reports where the
 * valid records end (damage->why NULL if at the end of the file). */
static int wal__scan_records(wal *w, wal__cursor *c, const wal__segment_info *info,
                             const char *path, wal__damage *damage, mu_err *err) {
    const uint8_t *data = c->data.data;
    size_t size = c->data.length_bytes;
    size_t pos = WAL_SEGMENT_HEADER_BYTES;
    size_t group_start = SIZE_MAX;
    const char *why = NULL;
    /* Bounded: each iteration consumes at least one record header. */
    while (pos < size) {
        wal__parsed rec;
        if (!wal__record_parse(data + pos, size - pos, info->header.salt, &rec, &why, NULL)) {
            break;
        }
        if (!wal__in_sequence(c, &rec, pos, group_start)) {
            why = "record sync stamp or group offset out of sequence";
            break;
        }
        if (rec.sync_stamp > c->last_stamp) group_start = pos;
        c->last_stamp = rec.sync_stamp;
        int rc = wal__deliver(w, c, &rec, path, pos, err);
        if (rc != 0) return rc;
        pos += rec.record_bytes;
        why = NULL;
    }
    damage->offset = pos;
    damage->why = pos < size ? why : NULL;
    damage->group_start = group_start;
    damage->acknowledged = false;
    damage->unclassified = false;
    damage->later_offset = 0;
    return 0;
}

/* Decides whether damage at damage->offset in the newest segment is a torn
 * tail or damaged acknowledged data, by looking for a record of a later
 * group after it (see wal.h). Only verified records count as evidence. */
static void wal__classify(const wal__cursor *c, uint32_t salt, wal__damage *damage) {
    const uint8_t *data = c->data.data;
    size_t size = c->data.length_bytes;
    size_t x = damage->offset;
    uint64_t crc_bytes = 0;
    uint64_t budget = (uint64_t)size * WAL__SCAN_CRC_FACTOR + WAL__SCAN_CRC_EXTRA_BYTES;
    size_t y = x + 1;
    while (y < size && size - y >= WAL_RECORD_HEADER_BYTES) {
        wal__parsed rec;
        const char *why = NULL;
        if (wal__record_parse(data + y, size - y, salt, &rec, &why, &crc_bytes)) {
            size_t start = rec.group_offset <= y ? y - rec.group_offset : SIZE_MAX;
            /* Same group as the damaged bytes: that group was never synced. */
            if (start == x || (start == damage->group_start && rec.sync_stamp == c->last_stamp)) {
                y += rec.record_bytes;
                continue;
            }
            damage->acknowledged = true; /* a later group, or facts that contradict */
            damage->later_offset = y;
            return;
        }
        if (crc_bytes > budget) {
            damage->acknowledged = true; /* cannot prove it torn: do not truncate */
            damage->unclassified = true;
            damage->later_offset = y;
            return;
        }
        y++;
    }
}

/* Cuts a torn tail off the newest segment and makes the new size durable. */
static int wal__truncate_tail(wal *w, const char *path, uint64_t offset, uint64_t size,
                              const char *why, mu_err *err) {
    io_file *file = NULL;
    int rc = io_open(&file, path, IO_OPEN_WRITE, WAL_FP_SEGMENT, err);
    if (rc == 0) rc = io_truncate(file, offset, WAL_FP_SEGMENT, err);
    if (rc == 0) rc = io_fsync(file, WAL_FP_SEGMENT, err);
    int close_rc = io_close(file, rc == 0 ? err : NULL);
    if (rc == 0) rc = close_rc;
    if (rc != 0) return rc;
    char quoted[128];
    mu_log_warn("wal.torn_tail", "table=%s file=%s offset=%llu dropped_bytes=%llu reason=%s",
                w->name, path, (unsigned long long)offset, (unsigned long long)(size - offset),
                mu_log_quote(why, quoted, sizeof(quoted)));
    return 0;
}

/* Turns a damage report into MU_ECORRUPT (the acknowledged case, or any
 * damage in an older segment). */
static int wal__damage_error(wal *w, const char *path, const wal__damage *damage, bool newest,
                             mu_err *err) {
    if (!newest) {
        return MU_CORRUPT(err,
                          "write-ahead log of %s: damaged record at %s offset %zu (%s) in a "
                          "segment followed by newer ones; replay stopped",
                          w->name, path, damage->offset, damage->why);
    }
    if (damage->unclassified) {
        return MU_CORRUPT(err,
                          "write-ahead log of %s: damaged record at %s offset %zu (%s) that "
                          "the scan up to offset %zu could not prove to be a torn tail; "
                          "replay stopped",
                          w->name, path, damage->offset, damage->why, damage->later_offset);
    }
    return MU_CORRUPT(err,
                      "write-ahead log of %s: damaged record at %s offset %zu (%s) followed by "
                      "a valid record of a later group at offset %zu, so acknowledged data "
                      "is damaged; replay stopped",
                      w->name, path, damage->offset, damage->why, damage->later_offset);
}

/* Replays segment i of *count. In discard mode, damage ends the log: the
 * damaged segment is cut and later ones are deleted (*count shrinks). */
static int wal__replay_segment(wal *w, wal__cursor *c, wal__segment_info *infos, size_t i,
                               size_t *count, mu_err *err) {
    wal__segment_info *info = &infos[i];
    char path[IO_PATH_MAX_BYTES];
    int rc = wal__segment_path(w, info->first_lsn, path, sizeof(path), err);
    if (rc != 0) return rc;
    if (c->segment_seen && info->first_lsn != c->next_lsn) {
        rc = MU_CORRUPT(err, "write-ahead log of %s: segment %s starts at LSN %llu but the "
                        "records before it end before LSN %llu (missing segment?)", w->name,
                        path, (unsigned long long)info->first_lsn,
                        (unsigned long long)c->next_lsn);
        if (!w->opt.discard_after_corruption) return rc;
        mu_log_err(MU_LOG_ERROR, "wal.discard", err);
        mu_err_clear(err);
        return wal__drop_segments(w, infos, i, count, err);
    }
    c->next_lsn = info->first_lsn;
    c->segment_seen = true;
    mu_buf_clear(&c->data);
    rc = io_read_file(path, &c->data, err);
    if (rc != 0) return rc;
    if (c->data.length_bytes < WAL_SEGMENT_HEADER_BYTES) { /* changed under us since pass 1 */
        return wal__corrupt_at(w, path, 0, "segment shorter than its header", err);
    }
    info->size_bytes = c->data.length_bytes;
    wal__damage damage;
    rc = wal__scan_records(w, c, info, path, &damage, err);
    if (rc != 0 || damage.why == NULL) return rc;
    bool newest = i + 1 == *count;
    if (newest) wal__classify(c, info->header.salt, &damage);
    if (newest && !damage.acknowledged) {
        rc = wal__truncate_tail(w, path, damage.offset, info->size_bytes, damage.why, err);
        if (rc == 0) info->size_bytes = damage.offset;
        return rc;
    }
    rc = wal__damage_error(w, path, &damage, newest, err);
    if (!w->opt.discard_after_corruption) return rc;
    mu_log_err(MU_LOG_ERROR, "wal.discard", err);
    mu_err_clear(err);
    rc = wal__truncate_tail(w, path, damage.offset, info->size_bytes, damage.why, err);
    if (rc == 0) info->size_bytes = damage.offset;
    if (rc == 0) rc = wal__drop_segments(w, infos, i + 1, count, err);
    return rc;
}

/* Opens the newest segment for appending, or creates the first one. */
static int wal__position(wal *w, const wal__segment_info *infos, size_t count, mu_err *err) {
    for (size_t i = 0; i < count; i++) {
        int rc = wal__segments_push(w, infos[i].first_lsn, err);
        if (rc != 0) return rc;
    }
    if (count == 0) {
        int rc = wal__segment_create(w, w->next_lsn, 0, WAL_CP_ROLL, &w->active,
                                     &w->active_salt, err);
        if (rc == 0) rc = wal__segments_push(w, w->next_lsn, err);
        w->active_bytes = WAL_SEGMENT_HEADER_BYTES;
        return rc;
    }
    const wal__segment_info *newest = &infos[count - 1];
    char path[IO_PATH_MAX_BYTES];
    int rc = wal__segment_path(w, newest->first_lsn, path, sizeof(path), err);
    if (rc == 0) rc = io_open(&w->active, path, IO_OPEN_APPEND, WAL_FP_SEGMENT, err);
    w->active_bytes = newest->size_bytes;
    w->active_salt = newest->header.salt;
    return rc;
}

static int wal__replay_all(wal *w, wal__cursor *c, mu_err *err) {
    uint64_t *lsns = NULL;
    size_t count = 0;
    int rc = wal__replay_list(w, &lsns, &count, err);
    if (rc != 0) return rc;
    wal__segment_info *infos = calloc(count + 1, sizeof(*infos));
    if (infos == NULL) {
        free(lsns);
        return MU_ERR(err, MU_ENOMEM, "write-ahead log %s: out of memory", w->name);
    }
    rc = wal__replay_headers(w, lsns, infos, &count, err);
    for (size_t i = 0; rc == 0 && i < count; i++) {
        rc = wal__replay_segment(w, c, infos, i, &count, err);
    }
    w->next_lsn = c->segment_seen ? c->next_lsn : w->opt.first_lsn;
    w->last_stamp = c->last_stamp;
    w->durable_lsn = w->next_lsn - 1;
    if (rc == 0) rc = wal__position(w, infos, count, err);
    free(infos);
    free(lsns);
    return rc;
}

int wal__replay(wal *w, wal_replay_fn on_record, void *ctx, mu_err *err) {
    MU_ASSERT(w != NULL);
    MU_ASSERT(w->active == NULL);
    mu_err local_err;
    mu_err_clear(&local_err);
    if (err == NULL) err = &local_err; /* the CORRUPT state keeps the message */
    wal__cursor c = {.on_record = on_record, .ctx = ctx};
    mu_buf_init(&c.data, WAL__SEGMENT_READ_BYTES_MAX);
    int rc = wal__replay_all(w, &c, err);
    mu_buf_deinit(&c.data);
    if (rc == MU_ECORRUPT) {
        w->state = WAL_STATE_CORRUPT;
        w->state_err = *err; /* returned to the caller, who reports it */
    }
    MU_ASSERT(rc != 0 || w->active != NULL);
    return rc;
}
