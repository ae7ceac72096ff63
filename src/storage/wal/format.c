/* format.c: the byte format of WAL segments (specified in wal.h): segment
 * header and record encoding, verification of both, and segment file names.
 *
 * Pure functions over memory: no I/O, no locks. Decoding treats its input as
 * untrusted: every length is checked against the bytes available and the
 * format limits before it is used, and nothing here asserts on the input.
 */
#include "storage/wal/wal_int.h"

#include <stdio.h>
#include <string.h>

_Static_assert(WAL_SEGMENT_HEADER_BYTES == 32, "segment header layout is fixed by the format");
_Static_assert(WAL_RECORD_HEADER_BYTES == 24, "record header layout is fixed by the format");
_Static_assert(WAL_TOKEN_BYTES_MAX <= UINT16_MAX, "token length is stored in 2 bytes");
_Static_assert(WAL_RECORD_BYTES_LIMIT <= UINT32_MAX - 8, "record length is stored in 4 bytes");

/* Offsets inside the record header. */
enum {
    WAL__REC_LENGTH = 0,
    WAL__REC_CRC = 4,
    WAL__REC_STAMP = 8,
    WAL__REC_TYPE = 16,
    WAL__REC_RESERVED = 17,
    WAL__REC_TOKEN_BYTES = 18,
    WAL__REC_GROUP_OFFSET = 20,
    WAL__REC_BODY_MIN = WAL_RECORD_HEADER_BYTES - 8, /* length of an empty record */
};

void wal__header_encode(const wal__segment_header *header,
                        uint8_t out[WAL_SEGMENT_HEADER_BYTES]) {
    MU_ASSERT(header != NULL);
    MU_ASSERT(header->first_lsn > 0);
    memset(out, 0, WAL_SEGMENT_HEADER_BYTES);
    mu_store_u32le(out, WAL__MAGIC);
    mu_store_u16le(out + 4, WAL_FORMAT_VERSION);
    mu_store_u16le(out + 6, WAL_SEGMENT_HEADER_BYTES);
    mu_store_u64le(out + 8, header->first_lsn);
    mu_store_u32le(out + 16, header->flags);
    mu_store_u32le(out + 20, header->salt);
    mu_store_u32le(out + 28, mu_crc32c(0, out, 28));
}

int wal__header_decode(const uint8_t *data, size_t length_bytes, wal__segment_header *header,
                       const char **why) {
    MU_ASSERT(header != NULL);
    MU_ASSERT(why != NULL);
    if (length_bytes < WAL_SEGMENT_HEADER_BYTES) {
        *why = "file shorter than a segment header";
        return MU_ECORRUPT;
    }
    if (mu_load_u32le(data) != WAL__MAGIC) {
        *why = "bad segment magic";
        return MU_ECORRUPT;
    }
    if (mu_load_u32le(data + 28) != mu_crc32c(0, data, 28)) {
        *why = "segment header checksum mismatch";
        return MU_ECORRUPT;
    }
    if (mu_load_u16le(data + 4) != WAL_FORMAT_VERSION) {
        *why = "segment written in an unknown format version";
        return MU_ENOT_SUPPORTED;
    }
    if (mu_load_u16le(data + 6) != WAL_SEGMENT_HEADER_BYTES || mu_load_u32le(data + 24) != 0) {
        *why = "segment header size or reserved field invalid";
        return MU_ECORRUPT;
    }
    header->first_lsn = mu_load_u64le(data + 8);
    header->flags = mu_load_u32le(data + 16);
    header->salt = mu_load_u32le(data + 20);
    if (header->first_lsn == 0 || (header->flags & ~WAL_SEGMENT_FLAG_FRESH_START) != 0) {
        *why = "segment header first LSN or flags invalid";
        return MU_ECORRUPT;
    }
    return 0;
}

size_t wal__record_bytes(size_t token_bytes, size_t payload_bytes) {
    if (token_bytes > WAL_TOKEN_BYTES_MAX) return 0;
    size_t body = WAL_RECORD_HEADER_BYTES + token_bytes;
    if (payload_bytes > WAL_RECORD_BYTES_LIMIT - body) return 0;
    return body + payload_bytes;
}

/* The record checksum: salt, the length field, then the body after offset 8. */
static uint32_t wal__record_crc(uint32_t salt, const uint8_t *record, size_t body_bytes) {
    uint8_t salt_bytes[4];
    mu_store_u32le(salt_bytes, salt);
    uint32_t crc = mu_crc32c(0, salt_bytes, sizeof(salt_bytes));
    crc = mu_crc32c(crc, record + WAL__REC_LENGTH, 4);
    return mu_crc32c(crc, record + WAL__REC_STAMP, body_bytes);
}

void wal__record_encode(uint8_t *out, uint32_t salt, uint64_t sync_stamp, uint32_t group_offset,
                        const wal_entry *entry) {
    MU_ASSERT(entry != NULL);
    MU_ASSERT(entry->type != 0);
    size_t total = wal__record_bytes(entry->token_bytes, entry->payload_bytes);
    MU_ASSERT(total != 0);
    size_t body_bytes = total - 8;
    mu_store_u32le(out + WAL__REC_LENGTH, (uint32_t)body_bytes);
    mu_store_u64le(out + WAL__REC_STAMP, sync_stamp);
    out[WAL__REC_TYPE] = entry->type;
    out[WAL__REC_RESERVED] = 0;
    mu_store_u16le(out + WAL__REC_TOKEN_BYTES, (uint16_t)entry->token_bytes);
    mu_store_u32le(out + WAL__REC_GROUP_OFFSET, group_offset);
    uint8_t *cursor = out + WAL_RECORD_HEADER_BYTES;
    if (entry->token_bytes > 0) memcpy(cursor, entry->token, entry->token_bytes);
    cursor += entry->token_bytes;
    if (entry->payload_bytes > 0) memcpy(cursor, entry->payload, entry->payload_bytes);
    mu_store_u32le(out + WAL__REC_CRC, wal__record_crc(salt, out, body_bytes));
    /* Pair with the reader: what was just written must verify. */
    MU_DEBUG_ASSERT(wal__record_parse(out, total, salt, &(wal__parsed){0}, &(const char *){0},
                                      NULL));
}

/* The cheap structural checks, before any checksum is computed. */
static bool wal__record_plausible(const uint8_t *data, size_t length_bytes, const char **why) {
    if (length_bytes < WAL_RECORD_HEADER_BYTES) {
        *why = "record header runs past the end of the file";
        return false;
    }
    uint32_t body_bytes = mu_load_u32le(data + WAL__REC_LENGTH);
    if (body_bytes < WAL__REC_BODY_MIN || body_bytes > WAL_RECORD_BYTES_LIMIT - 8) {
        *why = "impossible record length";
        return false;
    }
    if ((uint64_t)body_bytes + 8 > length_bytes) {
        *why = "record runs past the end of the file";
        return false;
    }
    uint16_t token_bytes = mu_load_u16le(data + WAL__REC_TOKEN_BYTES);
    if (data[WAL__REC_TYPE] == 0 || data[WAL__REC_RESERVED] != 0 ||
        token_bytes > WAL_TOKEN_BYTES_MAX || token_bytes > body_bytes - WAL__REC_BODY_MIN) {
        *why = "record type, token length or reserved byte invalid";
        return false;
    }
    return true;
}

bool wal__record_parse(const uint8_t *data, size_t length_bytes, uint32_t salt,
                       wal__parsed *out, const char **why, uint64_t *crc_bytes) {
    MU_ASSERT(out != NULL);
    MU_ASSERT(why != NULL);
    if (!wal__record_plausible(data, length_bytes, why)) return false;
    uint32_t body_bytes = mu_load_u32le(data + WAL__REC_LENGTH);
    if (crc_bytes != NULL) *crc_bytes += body_bytes;
    if (mu_load_u32le(data + WAL__REC_CRC) != wal__record_crc(salt, data, body_bytes)) {
        *why = "record checksum mismatch";
        return false;
    }
    out->sync_stamp = mu_load_u64le(data + WAL__REC_STAMP);
    out->type = data[WAL__REC_TYPE];
    out->group_offset = mu_load_u32le(data + WAL__REC_GROUP_OFFSET);
    out->token_bytes = mu_load_u16le(data + WAL__REC_TOKEN_BYTES);
    out->token = data + WAL_RECORD_HEADER_BYTES;
    out->payload = out->token + out->token_bytes;
    out->record_bytes = (size_t)body_bytes + 8;
    out->payload_bytes = out->record_bytes - WAL_RECORD_HEADER_BYTES - out->token_bytes;
    return true;
}

bool wal__segment_name_parse(const char *name, uint64_t *lsn_out) {
    MU_ASSERT(name != NULL);
    MU_ASSERT(lsn_out != NULL);
    if (strlen(name) != WAL_SEGMENT_NAME_BYTES || strcmp(name + 20, ".log") != 0) return false;
    uint64_t lsn = 0;
    for (int i = 0; i < 20; i++) {
        if (name[i] < '0' || name[i] > '9') return false;
        uint64_t digit = (uint64_t)(name[i] - '0');
        if (lsn > (UINT64_MAX - digit) / 10) return false; /* does not fit in 64 bits */
        lsn = lsn * 10 + digit;
    }
    if (lsn == 0) return false;
    *lsn_out = lsn;
    return true;
}

void wal__segment_name_format(uint64_t lsn, char out[WAL_SEGMENT_NAME_BYTES + 1]) {
    MU_ASSERT(lsn > 0);
    int n = snprintf(out, WAL_SEGMENT_NAME_BYTES + 1, "%020llu.log", (unsigned long long)lsn);
    MU_ASSERT(n == WAL_SEGMENT_NAME_BYTES);
}
