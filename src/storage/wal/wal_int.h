/* wal_int.h: private to src/storage/wal. The wal object, the record and
 * header codec (format.c), the token window (tokens.c), replay (replay.c),
 * the group-commit writer (writer.c) and segment files (wal.c).
 *
 * Locking: w->mu guards every field marked [mu]. The writer thread does its
 * I/O without w->mu; fields marked [writer] belong to it while the state is
 * OPEN, and to wal_recover_after_failure while the state is FAILED and the
 * writer is idle. w->admin_mu serializes truncate_before and recovery.
 * The byte format is specified in wal.h.
 */
#ifndef MUSCLES_WAL_INT_H
#define MUSCLES_WAL_INT_H

#include <pthread.h>

#include "io/io.h"
#include "storage/wal/wal.h"

/* ------------------------------------------------------------------ */
/* format.c: pure encoding and decoding                               */
/* ------------------------------------------------------------------ */

#define WAL__MAGIC 0x4C41574Du /* "MWAL" read as a little-endian u32 */

typedef struct wal__segment_header {
    uint64_t first_lsn;
    uint32_t flags;
    uint32_t salt;
} wal__segment_header;

void wal__header_encode(const wal__segment_header *header,
                        uint8_t out[WAL_SEGMENT_HEADER_BYTES]);
/* Decodes and checks a header; on failure returns MU_ECORRUPT, or
 * MU_ENOT_SUPPORTED for a verified header of another format version, with
 * *why set to a static description. */
int wal__header_decode(const uint8_t *data, size_t length_bytes, wal__segment_header *header,
                       const char **why);

/* Encoded size of a record, or 0 if it would pass WAL_RECORD_BYTES_LIMIT. */
size_t wal__record_bytes(size_t token_bytes, size_t payload_bytes);
/* Writes the record into out, which has wal__record_bytes(...) bytes. */
void wal__record_encode(uint8_t *out, uint32_t salt, uint64_t sync_stamp, uint32_t group_offset,
                        const wal_entry *entry);

typedef struct wal__parsed {
    uint64_t sync_stamp;
    uint8_t type;
    uint32_t group_offset;
    const uint8_t *token;
    size_t token_bytes;
    const uint8_t *payload;
    size_t payload_bytes;
    size_t record_bytes; /* header + token + payload */
} wal__parsed;

/* Parses the record at data (length_bytes available to the end of file).
 * Returns true if it verifies (lengths, checksum, reserved bytes, type);
 * otherwise false with *why describing the first failed check. *crc_bytes
 * (if not NULL) is increased by the bytes checksummed. */
bool wal__record_parse(const uint8_t *data, size_t length_bytes, uint32_t salt,
                       wal__parsed *out, const char **why, uint64_t *crc_bytes);

/* "<20 digits>.log" <-> LSN. Parsing accepts exactly that form. */
bool wal__segment_name_parse(const char *name, uint64_t *lsn_out);
void wal__segment_name_format(uint64_t lsn, char out[WAL_SEGMENT_NAME_BYTES + 1]);

/* ------------------------------------------------------------------ */
/* tokens.c: the token window (hash set + FIFO ring of durable tokens) */
/* ------------------------------------------------------------------ */

enum wal__token_state { WAL__TOKEN_RESERVED = 1, WAL__TOKEN_DURABLE = 2 };

typedef struct wal__token {
    struct wal__token *next_in_bucket;
    uint64_t hash;
    uint64_t lsn;
    int state;
    uint16_t length_bytes;
    uint8_t data[];
} wal__token;

typedef struct wal__tokens {
    wal__token **buckets;
    size_t bucket_count; /* power of two */
    wal__token **ring;   /* durable tokens, oldest at ring_head */
    size_t ring_capacity; /* the window; 0 keeps no durable token */
    size_t ring_head;
    size_t ring_count;
    size_t reserved_count;
} wal__tokens;

int wal__tokens_init(wal__tokens *tokens, uint64_t window, mu_err *err);
void wal__tokens_deinit(wal__tokens *tokens);
wal__token *wal__tokens_find(wal__tokens *tokens, const void *data, size_t length_bytes);
/* Inserts a RESERVED token (it must not be present). */
int wal__tokens_reserve(wal__tokens *tokens, const void *data, size_t length_bytes,
                        wal__token **token_out, mu_err *err);
/* RESERVED -> DURABLE at lsn, entering the window (and evicting its oldest). */
void wal__tokens_commit(wal__tokens *tokens, wal__token *token, uint64_t lsn);
/* Removes a RESERVED token whose append failed. */
void wal__tokens_abort(wal__tokens *tokens, wal__token *token);
/* Adds (or refreshes the LSN of) a durable token, for replay and manifests. */
int wal__tokens_add_durable(wal__tokens *tokens, const void *data, size_t length_bytes,
                            uint64_t lsn, mu_err *err);

/* ------------------------------------------------------------------ */
/* The log                                                             */
/* ------------------------------------------------------------------ */

/* One waiting append, on the appender's stack. */
typedef struct wal__request {
    struct wal__request *next;
    const wal_entry *entry;
    wal__token *token;   /* reserved token, or NULL */
    size_t record_bytes;
    uint64_t lsn;        /* set by the writer */
    uint64_t sync_stamp; /* set by the writer */
    int status;          /* 1 while pending, then 0 or a MU_E* code */
    mu_err *err;         /* the appender's, filled by the writer on failure */
} wal__request;

#define WAL__PENDING 1

struct wal {
    char *dir;
    char *name;
    wal_options opt;

    pthread_mutex_t mu;
    pthread_cond_t work_cond;  /* writer: queue not empty, or stopping */
    pthread_cond_t done_cond;  /* appenders: a group completed, a token moved */
    pthread_cond_t space_cond; /* appenders: queue bytes dropped */
    pthread_mutex_t admin_mu;
    pthread_t writer_thread;
    bool writer_started;

    wal__request *queue_head; /* [mu] FIFO of waiting appends */
    wal__request *queue_tail; /* [mu] */
    uint64_t queue_bytes;     /* [mu] */
    bool writer_busy;         /* [mu] a group is being written and synced */
    bool stopping;            /* [mu] wal_close has begun */
    unsigned appenders;       /* [mu] appends inside wal_append */

    int state;                 /* [mu] enum wal_state */
    mu_err state_err;          /* [mu] why the state is not OPEN */
    char state_path[512];      /* [mu] the file the failure happened on */

    uint64_t next_lsn;    /* [mu] */
    uint64_t last_stamp;  /* [mu] */
    uint64_t durable_lsn; /* [mu] */

    uint64_t *segment_lsns;  /* [mu] first LSNs of live segments, ascending */
    size_t segment_count;    /* [mu] */
    size_t segment_capacity; /* [mu] */

    io_file *active;       /* [writer] the newest segment, opened for append */
    uint64_t active_bytes; /* [writer] its size */
    uint32_t active_salt;  /* [writer] */
    mu_buf group_buf;      /* [writer] encoded records of one group */

    wal__tokens tokens; /* [mu] */
    wal_stats stats;    /* [mu] */
};

/* wal.c: segment files. */
int wal__segment_path(const wal *w, uint64_t first_lsn, char *out, size_t out_bytes,
                      mu_err *err);
/* Creates <first_lsn>.log with a synced header and fsyncs the directory;
 * on failure removes the file again. crashpoint runs after the create. */
int wal__segment_create(wal *w, uint64_t first_lsn, uint32_t flags, const char *crashpoint,
                        io_file **file_out, uint32_t *salt_out, mu_err *err);
/* Appends first_lsn to the live segment list. [mu held] */
int wal__segments_push(wal *w, uint64_t first_lsn, mu_err *err);

/* replay.c: everything wal_open does before the writer starts. Leaves the
 * newest segment open in w->active, or returns MU_ECORRUPT with the state
 * set to CORRUPT (and no active segment). */
int wal__replay(wal *w, wal_replay_fn on_record, void *ctx, mu_err *err);

/* writer.c */
void *wal__writer_main(void *arg);
/* Fills err with why appends are refused in the current state. [mu held] */
int wal__refusal(const wal *w, mu_err *err);

#endif /* MUSCLES_WAL_INT_H */
