/* fuzz_wal_replay.c: libFuzzer target for WAL replay (src/storage/wal).
 * Replay must never crash, leak, assert or hang on any segment bytes.
 *
 * The first input byte picks a mode. Raw mode (even): the rest of the input
 * is written as segment 1 and the log is opened. Built mode (odd): the input
 * is a program that builds well-formed segments (valid checksums, chosen
 * stamps and group offsets) and then damages them, so the fuzzer reaches the
 * torn-tail/corruption classification that random bytes never verify into.
 * Bit 1 of the mode byte opens in corrupt_read_only, bit 2 in discard mode.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "storage/wal/wal_int.h"

static char fuzz_dir[256];

static void fuzz_init_dir(void) {
    if (fuzz_dir[0] != '\0') return;
    const char *base = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
    snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/fuzz_wal.XXXXXX", base);
    if (mkdtemp(fuzz_dir) == NULL) abort();
    mu_log_set_level(MU_LOG_ERROR);
}

static void fuzz_clear_dir(void) {
    io_dir_list list;
    if (io_list_dir(fuzz_dir, &list, NULL) != 0) return;
    for (size_t i = 0; i < list.count; i++) {
        char path[512];
        snprintf(path, sizeof(path), "%s/%s", fuzz_dir, list.names[i]);
        unlink(path);
    }
    io_dir_list_deinit(&list);
}

static void fuzz_write(uint64_t lsn, const uint8_t *data, size_t size) {
    char name[WAL_SEGMENT_NAME_BYTES + 1];
    char path[512];
    wal__segment_name_format(lsn, name);
    snprintf(path, sizeof(path), "%s/%s", fuzz_dir, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL) abort();
    if (size > 0 && fwrite(data, 1, size, f) != size) abort();
    fclose(f);
}

/* Touches every delivered byte so ASan sees any out-of-bounds pointer. */
static int fuzz_on_record(void *ctx, const wal_record *record, mu_err *err) {
    (void)err;
    uint64_t *sum = ctx;
    for (size_t i = 0; i < record->payload_bytes; i++) *sum += record->payload[i];
    for (size_t i = 0; i < record->token_bytes; i++) *sum += record->token[i];
    return 0;
}

/* Built mode. Each step reads an opcode byte:
 *   0-3: add a record (next byte: payload length), 3 starts a new group
 *   4:   start a new segment at the next LSN
 *   5:   flip a byte (next two bytes: offset from the end of the segment)
 *   6:   cut the segment (next byte: bytes to drop)
 *   7:   add a record with a stamp from the input (next byte) */
#define FUZZ_SEGMENTS_MAX 4
#define FUZZ_SEGMENT_BYTES 8192

typedef struct fuzz_builder {
    uint8_t bytes[FUZZ_SEGMENTS_MAX][FUZZ_SEGMENT_BYTES];
    size_t length[FUZZ_SEGMENTS_MAX];
    uint64_t first_lsn[FUZZ_SEGMENTS_MAX];
    int count;
    uint64_t next_lsn;
    uint64_t stamp;
    size_t group_start;
} fuzz_builder;

static void fuzz_segment_begin(fuzz_builder *b) {
    if (b->count == FUZZ_SEGMENTS_MAX) return;
    wal__segment_header header = {.first_lsn = b->next_lsn, .salt = 0x1234u * (b->count + 1)};
    wal__header_encode(&header, b->bytes[b->count]);
    b->length[b->count] = WAL_SEGMENT_HEADER_BYTES;
    b->first_lsn[b->count] = b->next_lsn;
    b->count++;
    b->stamp++;
    b->group_start = WAL_SEGMENT_HEADER_BYTES;
}

static void fuzz_add(fuzz_builder *b, size_t payload_bytes, bool new_group, uint64_t stamp) {
    int s = b->count - 1;
    size_t total = wal__record_bytes(0, payload_bytes);
    if (b->length[s] + total > FUZZ_SEGMENT_BYTES) return;
    uint8_t payload[256];
    memset(payload, (int)payload_bytes, sizeof(payload));
    size_t offset = b->length[s];
    if (new_group) {
        b->group_start = offset;
        b->stamp++;
    }
    wal_entry entry = {.type = 1, .payload = payload, .payload_bytes = payload_bytes};
    uint32_t salt = mu_load_u32le(b->bytes[s] + 20);
    wal__record_encode(b->bytes[s] + offset, salt, stamp != 0 ? stamp : b->stamp,
                       (uint32_t)(offset - b->group_start), &entry);
    b->length[s] += total;
    b->next_lsn++;
}

static void fuzz_build(fuzz_builder *b, const uint8_t *data, size_t size) {
    b->next_lsn = 1;
    fuzz_segment_begin(b);
    size_t i = 0;
    while (i < size) {
        uint8_t op = data[i++] & 7;
        uint8_t arg = i < size ? data[i++] : 0;
        int s = b->count - 1;
        if (op <= 3) {
            fuzz_add(b, arg, op == 3, 0);
        } else if (op == 4) {
            fuzz_segment_begin(b);
        } else if (op == 5) {
            size_t back = ((size_t)arg << 8) | (i < size ? data[i++] : 0);
            if (back < b->length[s]) b->bytes[s][b->length[s] - 1 - back] ^= 0x5A;
        } else if (op == 6) {
            b->length[s] -= MU_MIN((size_t)arg, b->length[s]);
        } else {
            fuzz_add(b, 8, true, arg);
        }
    }
    for (int s = 0; s < b->count; s++) fuzz_write(b->first_lsn[s], b->bytes[s], b->length[s]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    fuzz_init_dir();
    fuzz_clear_dir();
    uint8_t mode = data[0];
    if (mode & 1) {
        static fuzz_builder builder;
        memset(&builder, 0, sizeof(builder));
        fuzz_build(&builder, data + 1, size - 1);
    } else {
        fuzz_write(1, data + 1, size - 1);
    }
    wal_options opt;
    wal_options_init(&opt);
    opt.dir = fuzz_dir;
    opt.name = "fuzz";
    opt.token_window = 16;
    opt.corrupt_read_only = (mode & 2) != 0;
    opt.discard_after_corruption = (mode & 4) != 0;
    uint64_t sum = 0;
    wal *w = NULL;
    mu_err err;
    int rc = wal_open(&w, &opt, fuzz_on_record, &sum, &err);
    if (w != NULL && rc == 0) {
        /* The log must also accept an append after whatever replay did. */
        wal_entry entry = {.type = 1, .payload = "x", .payload_bytes = 1};
        wal_ack ack;
        if (wal_append(w, &entry, &ack, &err) != 0) abort();
    }
    wal_close(w);
    return 0;
}
