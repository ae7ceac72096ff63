/* wal.h: the per-table write-ahead log (DESIGN.md section 4) and its whole
 * interface. It stores opaque records (the table layer encodes batches),
 * makes each durable with group commit before acknowledging it, replays them
 * on open, remembers insert tokens for a window, and refuses writes after a
 * failed sync or when it finds acknowledged data damaged. The on-disk format
 * is specified byte by byte below; locking and state rules in README.md.
 */
#ifndef MUSCLES_WAL_H
#define MUSCLES_WAL_H

#include "base/base.h"

/* ------------------------------------------------------------------ */
/* On-disk format, version 1. All integers little-endian.
 *
 * A log is a directory (wal/<table-uuid>/) of segment files named
 * <first-lsn>.log, the LSN of the segment's first record in 20 zero-padded
 * decimal digits, so names sort in LSN order. Other names are ignored with a
 * warning. Records are numbered by LSN: a segment's records have LSNs
 * first_lsn, first_lsn + 1, ... in file order (the LSN is not stored), and
 * each segment after the first starts where its predecessor ended, so a
 * missing segment is detected.
 *
 * Segment header (WAL_SEGMENT_HEADER_BYTES = 32):
 *   off size
 *     0    4  magic "MWAL" (4D 57 41 4C)
 *     4    2  format version (1)
 *     6    2  header size in bytes (32)
 *     8    8  first LSN (equals the number in the file name)
 *    16    4  flags: bit 0 FRESH_START - when this segment was created every
 *             acknowledged record of all older segments was in synced parts
 *             (wal_recover_after_failure); older segments are obsolete
 *    20    4  salt: random per segment, mixed into every record checksum so
 *             that bytes copied from elsewhere (a payload holding a record,
 *             an old file) never verify
 *    24    4  reserved, zero
 *    28    4  CRC-32C of bytes 0..27
 *
 * Record (WAL_RECORD_HEADER_BYTES = 24, then token and payload):
 *   off size
 *     0    4  length: bytes after offset 8, = 16 + token bytes + payload bytes
 *     4    4  CRC-32C of: the segment salt (4 bytes LE), bytes 0..3 of the
 *             record, then its `length` bytes from offset 8. A damaged length
 *             therefore fails the check too.
 *     8    8  sync stamp: the number of the group commit (one fdatasync) that
 *             made the record durable; equal within a group, increasing
 *             from group to group across segments
 *    16    1  type, 1..255, chosen by the caller (0 is never written, so a
 *             zero-filled tail never parses)
 *    17    1  reserved, zero
 *    18    2  token bytes, 0..WAL_TOKEN_BYTES_MAX
 *    20    4  group offset: bytes from the first record of this record's group
 *             to this record (0 for the first); a group never spans segments
 *    24    t  insert token (opaque bytes)
 *  24+t    p  payload (opaque bytes)
 * A segment's bytes are its header followed by records back to back; the
 * writer appends one group with one write and syncs it with one fdatasync
 * before it writes the next group (replay relies on this order).
 *
 * Replay (wal_open). Records are read in LSN order; the first that fails a
 * check (length out of range or past the end of the file, checksum, a
 * reserved field, a stamp or group offset inconsistent with the records
 * before it) is "damaged" at byte offset X:
 *   - In the newest segment, scan forward from X for any record that
 *     verifies. One whose group starts after X belongs to a later group,
 *     which was written only after the group holding X was synced, so the
 *     damaged bytes were acknowledged: CORRUPTION. If none is found (or only
 *     records of the same, unsynced group), the tail is torn: the file is
 *     truncated at X and synced, and the log continues from there.
 *   - In any older segment: CORRUPTION (those were synced before the roll).
 *   - A bad segment header is CORRUPTION, except in the newest segment when
 *     the file is no longer than a header: a roll torn before the header was
 *     synced; that file is deleted.
 * Corruption stops replay: no record at or after X is delivered. wal_open
 * returns MU_ECORRUPT naming the file and offset.
 * ------------------------------------------------------------------ */

#define WAL_FORMAT_VERSION 1
#define WAL_SEGMENT_HEADER_BYTES 32
#define WAL_RECORD_HEADER_BYTES 24
#define WAL_SEGMENT_FLAG_FRESH_START 1u
#define WAL_TOKEN_BYTES_MAX 256
/* The largest record the format accepts, header included. Replay judges a
 * length against this constant, never against the current settings, so a
 * lowered setting cannot turn old records into "damaged" ones. */
#define WAL_RECORD_BYTES_LIMIT (1u << 30)
/* Segment file names: 20 digits + ".log". */
#define WAL_SEGMENT_NAME_BYTES 24

/* Failpoints (through io) and crash points (MU_CRASHPOINT) of the log. */
#define WAL_FP_WRITE "wal.write"       /* the group write */
#define WAL_FP_FSYNC "wal.fsync"       /* the group fdatasync */
#define WAL_FP_SEGMENT "wal.segment"   /* creating, syncing, deleting segments */
#define WAL_CP_AFTER_WRITE "wal.after_write_before_fsync"
#define WAL_CP_AFTER_FSYNC "wal.after_fsync_before_ack"
#define WAL_CP_ROLL "wal.roll.after_create"
#define WAL_CP_TRUNCATE "wal.truncate.after_unlink"
#define WAL_CP_RECOVER "wal.recover.after_create"

/* ------------------------------------------------------------------ */
/* Opening and replay                                                  */
/* ------------------------------------------------------------------ */

typedef struct wal wal;
typedef struct wal_entry wal_entry;

/* Called by the writer thread for each record of a group in LSN order, after
 * the group's fdatasync succeeded and before any of its appenders returns:
 * the place to publish rows in log order. entry is the very pointer given to
 * wal_append, so a caller finds its own context by embedding the wal_entry
 * in a struct of its own. Runs without the log's locks; must be quick and
 * must not call back into the log. Not called for replayed records or for
 * "already stored" answers. */
typedef void (*wal_durable_fn)(void *ctx, uint64_t lsn, const wal_entry *entry);

typedef struct wal_options {
    const char *dir;           /* the log's directory; created if missing */
    const char *name;          /* the table's name, for messages and logs */
    uint64_t segment_bytes;    /* roll to a new segment past this size */
    uint64_t queue_bytes_max;  /* bytes of records waiting for the writer;
                                  appenders block (back-pressure) above it */
    uint64_t record_bytes_max; /* largest record accepted (<= WAL_RECORD_BYTES_LIMIT) */
    uint64_t token_window;     /* durable tokens remembered; 0 remembers none */
    uint64_t first_lsn;        /* LSN of the first record if the dir has no segment */
    /* On corruption, wal_open still returns MU_ECORRUPT, but also hands out
     * the log in the CORRUPT state: records before the damage were replayed,
     * appends fail with MU_ECORRUPT, reads of the table can go on. */
    bool corrupt_read_only;
    /* Operator repair: treat damage as a torn tail even when acknowledged
     * records follow: truncate there, delete later segments, log each loss
     * at error level, and open normally. Never set by the server itself. */
    bool discard_after_corruption;
    wal_durable_fn on_durable; /* optional */
    void *on_durable_ctx;
} wal_options;

/* Defaults: 64 MiB segments, 64 MiB queue, 64 MiB records, 10000 tokens,
 * first LSN 1, no corrupt or repair mode, no on_durable. dir and name are
 * left NULL. */
void wal_options_init(wal_options *opt);

/* One replayed record. Pointers are valid only during the callback. */
typedef struct wal_record {
    uint64_t lsn;
    uint64_t sync_stamp;
    uint8_t type;
    const uint8_t *token;
    size_t token_bytes;
    const uint8_t *payload;
    size_t payload_bytes;
    const char *segment_path; /* where it was read, for the caller's messages */
    uint64_t offset;          /* byte offset of the record in that file */
} wal_record;

/* Called for each valid record in LSN order. A non-zero return (with err
 * filled) stops replay and makes wal_open fail with that code. */
typedef int (*wal_replay_fn)(void *ctx, const wal_record *record, mu_err *err);

/* Opens the log: replays every segment through on_record (which may be
 * NULL), truncates a torn tail, starts the writer thread and positions for
 * appending. MU_ECORRUPT when acknowledged records are damaged (see above;
 * *wal_out is then set only with opt->corrupt_read_only). */
int wal_open(wal **wal_out, const wal_options *opt, wal_replay_fn on_record, void *ctx,
             mu_err *err);
/* Waits for every queued append to finish, stops the writer and frees the
 * log. Accepts NULL. Appends must not start once close has begun. */
void wal_close(wal *w);

/* ------------------------------------------------------------------ */
/* Appending (thread-safe; any number of concurrent callers)           */
/* ------------------------------------------------------------------ */

struct wal_entry {
    uint8_t type;          /* 1..255 */
    const void *token;     /* insert token, or NULL */
    size_t token_bytes;    /* 0..WAL_TOKEN_BYTES_MAX */
    const void *payload;   /* borrowed until wal_append returns */
    size_t payload_bytes;
};

typedef struct wal_ack {
    uint64_t lsn;         /* the record's LSN (or the earlier one, if already stored) */
    uint64_t sync_stamp;  /* the group that made it durable (0 if already stored) */
    bool already_stored;  /* the token was seen: nothing was written */
} wal_ack;

/* Appends one record and returns once it is durable (its group's fdatasync
 * succeeded). With a token: if a durable record in the window carries it,
 * returns 0 with ack->already_stored and writes nothing; if another append
 * with it is in flight, waits for that one's outcome first. Blocks while the
 * queue is over queue_bytes_max. Errors: MU_EINVAL/MU_ETOO_LARGE for a bad
 * entry; the sync's MU_EFSYNC/MU_EWRITE/MU_ENOSPC naming the file for the
 * group that failed; then MU_ETABLE_READONLY for every append until
 * wal_recover_after_failure; MU_ECORRUPT in the CORRUPT state;
 * MU_ESHUTDOWN once wal_close has begun. */
int wal_append(wal *w, const wal_entry *entry, wal_ack *ack, mu_err *err);

/* ------------------------------------------------------------------ */
/* Tokens                                                              */
/* ------------------------------------------------------------------ */

/* True if a durable record in the window carries token; *lsn_out (may be
 * NULL) receives its LSN. Tokens of in-flight appends are not "seen". */
bool wal_token_seen(wal *w, const void *token, size_t token_bytes, uint64_t *lsn_out);
/* Adds a durable token that the log no longer holds (e.g. from a part
 * manifest after its segments were truncated) to the window. */
int wal_token_remember(wal *w, const void *token, size_t token_bytes, uint64_t lsn,
                       mu_err *err);

/* ------------------------------------------------------------------ */
/* Maintenance                                                         */
/* ------------------------------------------------------------------ */

/* Deletes the segments whose records all have LSN < lsn (never the segment
 * being appended to), oldest first, then fsyncs the directory. Called once
 * the records below lsn are in synced parts. */
int wal_truncate_before(wal *w, uint64_t lsn, mu_err *err);

/* Leaves the FAILED state. The caller promises that every record this log
 * acknowledged is in synced parts. Opens a new segment flagged FRESH_START
 * (never reusing the failed descriptor), then deletes all older segments.
 * On error the log stays FAILED. MU_EINVAL if the log is not FAILED. */
int wal_recover_after_failure(wal *w, mu_err *err);

enum wal_state {
    WAL_STATE_OPEN = 0,    /* accepting appends */
    WAL_STATE_FAILED = 1,  /* a write or sync failed; see wal_recover_after_failure */
    WAL_STATE_CORRUPT = 2, /* replay found damage; read-only until an operator acts */
};
/* Current state; when not OPEN and reason is not NULL, copies the error that
 * caused it. */
int wal_state_get(wal *w, mu_err *reason);

typedef struct wal_stats {
    uint64_t records;        /* records appended since open */
    uint64_t record_bytes;   /* their encoded bytes */
    uint64_t groups;         /* group writes */
    uint64_t syncs;          /* fdatasync calls on segments (one per group) */
    uint64_t segments_rolled;
    uint64_t segments_deleted;
    uint64_t tokens_deduplicated; /* appends answered "already stored" */
    uint64_t replayed_records;    /* at open */
    uint64_t next_lsn;            /* LSN the next record will get */
    uint64_t durable_lsn;         /* highest acknowledged LSN (0 if none) */
} wal_stats;
void wal_stats_get(wal *w, wal_stats *out);

#endif /* MUSCLES_WAL_H */
