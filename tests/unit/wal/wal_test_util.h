/* wal_test_util.h: helpers shared by the WAL unit tests, header-only so each
 * test stays one executable from one source file: a temporary log
 * directory, a replay callback that collects records, hand-built segment
 * files (to place damage exactly), byte-level file edits, and running a
 * function in a child process for crash points.
 */
#ifndef MUSCLES_WAL_TEST_UTIL_H
#define MUSCLES_WAL_TEST_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "storage/wal/wal_int.h"

static char wt_dir[256];

static inline int wt_setup(void **state) {
    (void)state;
    const char *base = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
    snprintf(wt_dir, sizeof(wt_dir), "%s/wal_test.XXXXXX", base);
    if (mkdtemp(wt_dir) == NULL) return -1;
    mu_failpoints_configure("", NULL);
    return 0;
}

static inline int wt_teardown(void **state) {
    (void)state;
    mu_failpoints_configure("", NULL);
    char command[512];
    snprintf(command, sizeof(command), "rm -rf '%s'", wt_dir);
    return system(command) == 0 ? 0 : -1;
}

/* Records delivered by replay, copied. */
typedef struct wt_record {
    uint64_t lsn;
    uint64_t sync_stamp;
    uint8_t type;
    char token[WAL_TOKEN_BYTES_MAX + 1];
    size_t token_bytes;
    uint8_t *payload;
    size_t payload_bytes;
} wt_record;

typedef struct wt_replay {
    wt_record *records;
    size_t count;
    size_t capacity;
    int fail_at_count; /* if > 0: return MU_EPARSE when this many were seen */
} wt_replay;

static inline int wt_collect(void *ctx, const wal_record *record, mu_err *err) {
    wt_replay *r = ctx;
    if (r->fail_at_count > 0 && (int)r->count == r->fail_at_count) {
        return MU_ERR(err, MU_EPARSE, "test callback refuses LSN %llu",
                      (unsigned long long)record->lsn);
    }
    if (r->count == r->capacity) {
        r->capacity = r->capacity == 0 ? 64 : r->capacity * 2;
        r->records = realloc(r->records, r->capacity * sizeof(*r->records));
    }
    wt_record *out = &r->records[r->count++];
    memset(out, 0, sizeof(*out));
    out->lsn = record->lsn;
    out->sync_stamp = record->sync_stamp;
    out->type = record->type;
    out->token_bytes = record->token_bytes;
    if (record->token_bytes > 0) memcpy(out->token, record->token, record->token_bytes);
    out->payload_bytes = record->payload_bytes;
    out->payload = malloc(record->payload_bytes + 1);
    if (record->payload_bytes > 0) memcpy(out->payload, record->payload, record->payload_bytes);
    return 0;
}

static inline void wt_replay_reset(wt_replay *r) {
    for (size_t i = 0; i < r->count; i++) free(r->records[i].payload);
    free(r->records);
    memset(r, 0, sizeof(*r));
}

static inline void wt_options(wal_options *opt) {
    wal_options_init(opt);
    opt->dir = wt_dir;
    opt->name = "t";
}

static inline int wt_append_text(wal *w, const char *text, const char *token, wal_ack *ack,
                                 mu_err *err) {
    wal_entry entry = {.type = 1, .payload = text, .payload_bytes = strlen(text)};
    if (token != NULL) {
        entry.token = token;
        entry.token_bytes = strlen(token);
    }
    return wal_append(w, &entry, ack, err);
}

static inline void wt_segment_path(uint64_t lsn, char *out, size_t out_bytes) {
    char name[WAL_SEGMENT_NAME_BYTES + 1];
    wal__segment_name_format(lsn, name);
    snprintf(out, out_bytes, "%s/%s", wt_dir, name);
}

static inline long wt_file_size(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    return (long)st.st_size;
}

static inline int wt_count_segments(void) {
    io_dir_list list;
    if (io_list_dir(wt_dir, &list, NULL) != 0) return -1;
    int count = 0;
    for (size_t i = 0; i < list.count; i++) {
        uint64_t lsn;
        if (wal__segment_name_parse(list.names[i], &lsn)) count++;
    }
    io_dir_list_deinit(&list);
    return count;
}

/* XORs one byte of a file with mask. */
static inline void wt_flip_byte(const char *path, long offset, uint8_t mask) {
    int fd = open(path, O_RDWR);
    uint8_t byte = 0;
    if (fd < 0 || pread(fd, &byte, 1, offset) != 1) abort();
    byte ^= mask;
    if (pwrite(fd, &byte, 1, offset) != 1) abort();
    close(fd);
}

static inline void wt_truncate_file(const char *path, long size) {
    if (truncate(path, size) != 0) abort();
}

static inline void wt_write_raw(const char *path, const void *data, size_t length_bytes) {
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(data, 1, length_bytes, f) != length_bytes) abort();
    fclose(f);
}

/* Hand-built segment: header, then records appended with explicit stamps
 * and group offsets (to place damage exactly). */
typedef struct wt_segment {
    uint8_t bytes[1 << 16];
    size_t length_bytes;
    uint32_t salt;
    size_t group_start;
} wt_segment;

static inline void wt_segment_begin(wt_segment *s, uint64_t first_lsn, uint32_t flags) {
    wal__segment_header header = {.first_lsn = first_lsn, .flags = flags, .salt = 0x5eed1234};
    wal__header_encode(&header, s->bytes);
    s->length_bytes = WAL_SEGMENT_HEADER_BYTES;
    s->salt = header.salt;
    s->group_start = 0;
}

/* Appends a record; new_group starts a new group at this record. Returns its offset. */
static inline size_t wt_segment_add(wt_segment *s, uint64_t stamp, bool new_group,
                                    const char *text) {
    wal_entry entry = {.type = 7, .payload = text, .payload_bytes = strlen(text)};
    size_t bytes = wal__record_bytes(0, entry.payload_bytes);
    size_t offset = s->length_bytes;
    if (new_group) s->group_start = offset;
    if (offset + bytes > sizeof(s->bytes)) abort();
    wal__record_encode(s->bytes + offset, s->salt, stamp, (uint32_t)(offset - s->group_start),
                       &entry);
    s->length_bytes += bytes;
    return offset;
}

static inline void wt_segment_save(const wt_segment *s, uint64_t first_lsn) {
    char path[512];
    wt_segment_path(first_lsn, path, sizeof(path));
    wt_write_raw(path, s->bytes, s->length_bytes);
}

/* Runs fn(arg) in a child with stderr discarded; returns the wait status. */
typedef void (*wt_child_fn)(void *arg);
static inline int wt_run_child(wt_child_fn fn, void *arg) {
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) dup2(devnull, STDERR_FILENO);
        fn(arg);
        _exit(0);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) return -1;
    }
    return status;
}

#endif /* MUSCLES_WAL_TEST_UTIL_H */
