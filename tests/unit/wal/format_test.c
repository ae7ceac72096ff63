/* format_test.c: goal — prove that the WAL byte format (wal.h) round-trips
 * and that verification rejects every kind of damage: a flipped bit in any
 * byte of a record, a wrong salt, impossible or truncated lengths, reserved
 * fields, type 0, token lengths, and every malformed segment header and
 * file name. Bad inputs outnumber good ones on purpose; the good cases pin
 * the exact byte layout so a change to it cannot go unnoticed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <string.h>

#include "storage/wal/wal_int.h"

static void test_header_round_trip_and_layout(void **state) {
    (void)state;
    wal__segment_header in = {.first_lsn = 0x0102030405060708ull,
                              .flags = WAL_SEGMENT_FLAG_FRESH_START,
                              .salt = 0xAABBCCDD};
    uint8_t bytes[WAL_SEGMENT_HEADER_BYTES];
    wal__header_encode(&in, bytes);
    assert_memory_equal(bytes, "MWAL", 4);
    assert_int_equal(mu_load_u16le(bytes + 4), 1);
    assert_int_equal(mu_load_u16le(bytes + 6), 32);
    assert_int_equal(mu_load_u64le(bytes + 8), in.first_lsn);
    assert_int_equal(mu_load_u32le(bytes + 16), 1);
    assert_int_equal(mu_load_u32le(bytes + 20), 0xAABBCCDD);
    assert_int_equal(mu_load_u32le(bytes + 24), 0);
    assert_int_equal(mu_load_u32le(bytes + 28), mu_crc32c(0, bytes, 28));
    wal__segment_header out;
    const char *why = NULL;
    assert_int_equal(wal__header_decode(bytes, sizeof(bytes), &out, &why), 0);
    assert_int_equal(out.first_lsn, in.first_lsn);
    assert_int_equal(out.flags, in.flags);
    assert_int_equal(out.salt, in.salt);
}

/* Re-seals a header after a deliberate edit, so only the edited field fails. */
static void reseal(uint8_t *bytes) { mu_store_u32le(bytes + 28, mu_crc32c(0, bytes, 28)); }

static void test_header_rejects_damage(void **state) {
    (void)state;
    wal__segment_header in = {.first_lsn = 5, .flags = 0, .salt = 1};
    uint8_t good[WAL_SEGMENT_HEADER_BYTES];
    wal__header_encode(&in, good);
    wal__segment_header out;
    const char *why = NULL;
    for (size_t length = 0; length < WAL_SEGMENT_HEADER_BYTES; length++) {
        assert_int_equal(wal__header_decode(good, length, &out, &why), MU_ECORRUPT);
    }
    for (size_t i = 0; i < WAL_SEGMENT_HEADER_BYTES; i++) {
        uint8_t bytes[WAL_SEGMENT_HEADER_BYTES];
        memcpy(bytes, good, sizeof(bytes));
        bytes[i] ^= 0x10;
        assert_int_equal(wal__header_decode(bytes, sizeof(bytes), &out, &why), MU_ECORRUPT);
        assert_non_null(why);
    }
    uint8_t bytes[WAL_SEGMENT_HEADER_BYTES];
    memcpy(bytes, good, sizeof(bytes));
    mu_store_u16le(bytes + 4, 2);
    reseal(bytes);
    assert_int_equal(wal__header_decode(bytes, sizeof(bytes), &out, &why), MU_ENOT_SUPPORTED);
    memcpy(bytes, good, sizeof(bytes));
    mu_store_u16le(bytes + 6, 40);
    reseal(bytes);
    assert_int_equal(wal__header_decode(bytes, sizeof(bytes), &out, &why), MU_ECORRUPT);
    memcpy(bytes, good, sizeof(bytes));
    mu_store_u32le(bytes + 24, 9);
    reseal(bytes);
    assert_int_equal(wal__header_decode(bytes, sizeof(bytes), &out, &why), MU_ECORRUPT);
    memcpy(bytes, good, sizeof(bytes));
    mu_store_u64le(bytes + 8, 0);
    reseal(bytes);
    assert_int_equal(wal__header_decode(bytes, sizeof(bytes), &out, &why), MU_ECORRUPT);
    memcpy(bytes, good, sizeof(bytes));
    mu_store_u32le(bytes + 16, 2); /* unknown flag */
    reseal(bytes);
    assert_int_equal(wal__header_decode(bytes, sizeof(bytes), &out, &why), MU_ECORRUPT);
    memset(bytes, 0, sizeof(bytes));
    assert_int_equal(wal__header_decode(bytes, sizeof(bytes), &out, &why), MU_ECORRUPT);
}

static void test_record_round_trip_and_layout(void **state) {
    (void)state;
    const char token[] = "tok-1";
    const char payload[] = "payload bytes";
    wal_entry entry = {.type = 9, .token = token, .token_bytes = 5, .payload = payload,
                       .payload_bytes = 13};
    size_t total = wal__record_bytes(5, 13);
    assert_int_equal(total, 24 + 5 + 13);
    uint8_t bytes[64];
    wal__record_encode(bytes, 77, 42, 100, &entry);
    assert_int_equal(mu_load_u32le(bytes), total - 8);
    assert_int_equal(mu_load_u64le(bytes + 8), 42);
    assert_int_equal(bytes[16], 9);
    assert_int_equal(bytes[17], 0);
    assert_int_equal(mu_load_u16le(bytes + 18), 5);
    assert_int_equal(mu_load_u32le(bytes + 20), 100);
    assert_memory_equal(bytes + 24, token, 5);
    assert_memory_equal(bytes + 29, payload, 13);
    /* The checksum covers salt, the length field and the body. */
    uint8_t salt[4];
    mu_store_u32le(salt, 77);
    uint32_t crc = mu_crc32c(mu_crc32c(mu_crc32c(0, salt, 4), bytes, 4), bytes + 8, total - 8);
    assert_int_equal(mu_load_u32le(bytes + 4), crc);
    wal__parsed rec;
    const char *why = NULL;
    uint64_t crc_bytes = 0;
    assert_true(wal__record_parse(bytes, total, 77, &rec, &why, &crc_bytes));
    assert_int_equal(crc_bytes, total - 8);
    assert_int_equal(rec.sync_stamp, 42);
    assert_int_equal(rec.type, 9);
    assert_int_equal(rec.group_offset, 100);
    assert_int_equal(rec.token_bytes, 5);
    assert_memory_equal(rec.token, token, 5);
    assert_int_equal(rec.payload_bytes, 13);
    assert_memory_equal(rec.payload, payload, 13);
    assert_int_equal(rec.record_bytes, total);
    /* Trailing bytes after the record do not matter. */
    assert_true(wal__record_parse(bytes, sizeof(bytes), 77, &rec, &why, NULL));
}

static void test_record_empty_payload(void **state) {
    (void)state;
    wal_entry entry = {.type = 1};
    uint8_t bytes[WAL_RECORD_HEADER_BYTES];
    assert_int_equal(wal__record_bytes(0, 0), WAL_RECORD_HEADER_BYTES);
    wal__record_encode(bytes, 0, 1, 0, &entry);
    wal__parsed rec;
    const char *why = NULL;
    assert_true(wal__record_parse(bytes, sizeof(bytes), 0, &rec, &why, NULL));
    assert_int_equal(rec.payload_bytes, 0);
    assert_int_equal(rec.token_bytes, 0);
}

static void test_record_every_flipped_bit_fails(void **state) {
    (void)state;
    wal_entry entry = {.type = 3, .token = "ab", .token_bytes = 2, .payload = "xyz",
                       .payload_bytes = 3};
    size_t total = wal__record_bytes(2, 3);
    uint8_t good[64];
    wal__record_encode(good, 5, 8, 0, &entry);
    for (size_t i = 0; i < total; i++) {
        for (int bit = 0; bit < 8; bit++) {
            uint8_t bytes[64];
            memcpy(bytes, good, total);
            bytes[i] ^= (uint8_t)(1u << bit);
            wal__parsed rec;
            const char *why = NULL;
            assert_false(wal__record_parse(bytes, total, 5, &rec, &why, NULL));
            assert_non_null(why);
        }
    }
    wal__parsed rec;
    const char *why = NULL;
    assert_false(wal__record_parse(good, total, 6, &rec, &why, NULL)); /* other salt */
    assert_string_equal(why, "record checksum mismatch");
}

static void test_record_rejects_bad_lengths(void **state) {
    (void)state;
    wal_entry entry = {.type = 3, .payload = "xyz", .payload_bytes = 3};
    size_t total = wal__record_bytes(0, 3);
    uint8_t bytes[64];
    wal__parsed rec;
    const char *why = NULL;
    wal__record_encode(bytes, 0, 1, 0, &entry);
    for (size_t available = 0; available < total; available++) {
        assert_false(wal__record_parse(bytes, available, 0, &rec, &why, NULL));
    }
    mu_store_u32le(bytes, 15); /* shorter than an empty record */
    assert_false(wal__record_parse(bytes, total, 0, &rec, &why, NULL));
    assert_string_equal(why, "impossible record length");
    mu_store_u32le(bytes, WAL_RECORD_BYTES_LIMIT);
    assert_false(wal__record_parse(bytes, total, 0, &rec, &why, NULL));
    assert_string_equal(why, "impossible record length");
    mu_store_u32le(bytes, UINT32_MAX);
    assert_false(wal__record_parse(bytes, total, 0, &rec, &why, NULL));
    memset(bytes, 0, sizeof(bytes)); /* a zero-filled tail never parses */
    assert_false(wal__record_parse(bytes, sizeof(bytes), 0, &rec, &why, NULL));
    assert_int_equal(wal__record_bytes(WAL_TOKEN_BYTES_MAX + 1, 0), 0);
    assert_int_equal(wal__record_bytes(0, WAL_RECORD_BYTES_LIMIT), 0);
    assert_int_equal(wal__record_bytes(0, SIZE_MAX), 0);
    assert_int_equal(wal__record_bytes(0, WAL_RECORD_BYTES_LIMIT - WAL_RECORD_HEADER_BYTES),
                     WAL_RECORD_BYTES_LIMIT);
}

/* Verified checksum but invalid fields (a writer bug, not a torn write):
 * still not a valid record. */
static void test_record_rejects_sealed_bad_fields(void **state) {
    (void)state;
    wal_entry entry = {.type = 3, .payload = "xyz", .payload_bytes = 3};
    size_t total = wal__record_bytes(0, 3);
    const uint32_t salt = 11;
    struct {
        size_t offset;
        uint8_t value;
    } edits[] = {{16, 0}, {17, 1}, {18, 4}, {19, 1}};
    for (size_t e = 0; e < MU_ARRAY_LEN(edits); e++) {
        uint8_t bytes[64];
        wal__record_encode(bytes, salt, 1, 0, &entry);
        bytes[edits[e].offset] = edits[e].value;
        uint8_t salt_bytes[4];
        mu_store_u32le(salt_bytes, salt);
        uint32_t crc = mu_crc32c(mu_crc32c(mu_crc32c(0, salt_bytes, 4), bytes, 4), bytes + 8,
                                 total - 8);
        mu_store_u32le(bytes + 4, crc);
        wal__parsed rec;
        const char *why = NULL;
        assert_false(wal__record_parse(bytes, total, salt, &rec, &why, NULL));
    }
}

static void test_segment_names(void **state) {
    (void)state;
    char name[WAL_SEGMENT_NAME_BYTES + 1];
    wal__segment_name_format(1, name);
    assert_string_equal(name, "00000000000000000001.log");
    wal__segment_name_format(UINT64_MAX, name);
    assert_string_equal(name, "18446744073709551615.log");
    uint64_t lsn = 0;
    assert_true(wal__segment_name_parse(name, &lsn));
    assert_int_equal(lsn, UINT64_MAX);
    assert_true(wal__segment_name_parse("00000000000000001234.log", &lsn));
    assert_int_equal(lsn, 1234);
    const char *bad[] = {
        "",
        "1.log",
        "0000000000000000001.log",   /* 19 digits */
        "000000000000000000001.log", /* 21 digits */
        "00000000000000000000.log",  /* LSN 0 */
        "18446744073709551616.log",  /* 2^64 */
        "99999999999999999999.log",
        "0000000000000000000a.log",
        "00000000000000000001.LOG",
        "00000000000000000001.log.tmp",
        "00000000000000000001.lo",
        "-0000000000000000001.log",
        "+0000000000000000001.log",
        " 0000000000000000001.log",
    };
    for (size_t i = 0; i < MU_ARRAY_LEN(bad); i++) {
        lsn = 77;
        assert_false(wal__segment_name_parse(bad[i], &lsn));
        assert_int_equal(lsn, 77);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_round_trip_and_layout),
        cmocka_unit_test(test_header_rejects_damage),
        cmocka_unit_test(test_record_round_trip_and_layout),
        cmocka_unit_test(test_record_empty_payload),
        cmocka_unit_test(test_record_every_flipped_bit_fails),
        cmocka_unit_test(test_record_rejects_bad_lengths),
        cmocka_unit_test(test_record_rejects_sealed_bad_fields),
        cmocka_unit_test(test_segment_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
