/* varint_test.c: goal — prove that LEB128 encoding round-trips every
 * boundary value with the documented size and byte layout, that zigzag and
 * the little-endian load/store helpers are exact, and that decoding rejects
 * hostile input. Bad inputs: empty, truncated at every byte, 11-byte and
 * all-continuation sequences, a 10th byte carrying bits past 63.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <string.h>

#include "base/base.h"

static const uint64_t boundary_values[] = {
    0, 1, 127, 128, 255, 300, 16383, 16384, 2097151, 2097152,
    (1ULL << 28) - 1, 1ULL << 28, (1ULL << 35) - 1, 1ULL << 35, (1ULL << 42) - 1, 1ULL << 42,
    (1ULL << 49) - 1, 1ULL << 49, (1ULL << 56) - 1, 1ULL << 56, (1ULL << 63) - 1, 1ULL << 63,
    UINT64_MAX - 1, UINT64_MAX,
};

static void test_round_trip_boundaries(void **state) {
    (void)state;
    for (size_t i = 0; i < MU_ARRAY_LEN(boundary_values); i++) {
        uint64_t v = boundary_values[i];
        uint8_t out[MU_VARINT_MAX_BYTES];
        size_t n = mu_varint_encode(v, out);
        assert_int_equal(n, mu_varint_size(v));
        uint64_t back = ~v;
        assert_int_equal(mu_varint_decode(out, n, &back), n);
        assert_true(back == v);
        /* Trailing bytes after the varint are not consumed. */
        uint8_t longer[MU_VARINT_MAX_BYTES + 4];
        memcpy(longer, out, n);
        memset(longer + n, 0xFF, 4);
        assert_int_equal(mu_varint_decode(longer, n + 4, &back), n);
        assert_true(back == v);
    }
}

static void test_sizes(void **state) {
    (void)state;
    assert_int_equal(mu_varint_size(0), 1);
    assert_int_equal(mu_varint_size(127), 1);
    assert_int_equal(mu_varint_size(128), 2);
    assert_int_equal(mu_varint_size(16383), 2);
    assert_int_equal(mu_varint_size(16384), 3);
    assert_int_equal(mu_varint_size((1ULL << 63) - 1), 9);
    assert_int_equal(mu_varint_size(1ULL << 63), 10);
    assert_int_equal(mu_varint_size(UINT64_MAX), 10);
    for (int bit = 0; bit < 64; bit++) {
        uint64_t v = 1ULL << bit;
        assert_int_equal(mu_varint_size(v), (size_t)(bit / 7 + 1));
    }
}

static void test_known_encodings(void **state) {
    (void)state;
    uint8_t out[MU_VARINT_MAX_BYTES];
    assert_int_equal(mu_varint_encode(0, out), 1);
    assert_int_equal(out[0], 0x00);
    assert_int_equal(mu_varint_encode(300, out), 2);
    assert_memory_equal(out, "\xAC\x02", 2);
    assert_int_equal(mu_varint_encode(624485, out), 3);
    assert_memory_equal(out, "\xE5\x8E\x26", 3);
    assert_int_equal(mu_varint_encode(UINT64_MAX, out), 10);
    assert_memory_equal(out, "\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x01", 10);
}

static void test_non_minimal_is_accepted(void **state) {
    (void)state;
    uint64_t v = 99;
    assert_int_equal(mu_varint_decode((const uint8_t *)"\x80\x00", 2, &v), 2);
    assert_true(v == 0);
    assert_int_equal(mu_varint_decode((const uint8_t *)"\x81\x80\x00", 3, &v), 3);
    assert_true(v == 1);
}

static void test_reject_empty_and_truncated(void **state) {
    (void)state;
    uint64_t v = 7;
    assert_int_equal(mu_varint_decode(NULL, 0, &v), 0);
    assert_int_equal(mu_varint_decode((const uint8_t *)"\x80", 1, &v), 0);
    assert_int_equal(mu_varint_decode((const uint8_t *)"\xFF\xFF", 2, &v), 0);
    /* Every strict prefix of every multi-byte encoding is truncated. */
    for (size_t i = 0; i < MU_ARRAY_LEN(boundary_values); i++) {
        uint8_t out[MU_VARINT_MAX_BYTES];
        size_t n = mu_varint_encode(boundary_values[i], out);
        for (size_t cut = 0; cut < n; cut++) assert_int_equal(mu_varint_decode(out, cut, &v), 0);
    }
    assert_true(v == 7); /* untouched by failed decodes */
}

static void test_reject_too_long_and_overflow(void **state) {
    (void)state;
    uint64_t v = 7;
    uint8_t bytes[12];
    /* Ten bytes that all say "more follows", with and without an 11th. */
    memset(bytes, 0xFF, sizeof(bytes));
    assert_int_equal(mu_varint_decode(bytes, 10, &v), 0);
    assert_int_equal(mu_varint_decode(bytes, 12, &v), 0);
    /* An 11-byte non-minimal zero. */
    memset(bytes, 0x80, 10);
    bytes[10] = 0x00;
    assert_int_equal(mu_varint_decode(bytes, 11, &v), 0);
    /* The 10th byte may carry only bit 63. */
    memset(bytes, 0xFF, 9);
    bytes[9] = 0x02;
    assert_int_equal(mu_varint_decode(bytes, 10, &v), 0);
    bytes[9] = 0x7F;
    assert_int_equal(mu_varint_decode(bytes, 10, &v), 0);
    bytes[9] = 0x81;
    assert_int_equal(mu_varint_decode(bytes, 12, &v), 0);
    assert_true(v == 7);
    bytes[9] = 0x01;
    assert_int_equal(mu_varint_decode(bytes, 10, &v), 10);
    assert_true(v == UINT64_MAX);
    bytes[9] = 0x00; /* non-minimal but in range */
    assert_int_equal(mu_varint_decode(bytes, 10, &v), 10);
    assert_true(v == (UINT64_MAX >> 1));
}

static void test_zigzag(void **state) {
    (void)state;
    assert_true(mu_zigzag_encode(0) == 0);
    assert_true(mu_zigzag_encode(-1) == 1);
    assert_true(mu_zigzag_encode(1) == 2);
    assert_true(mu_zigzag_encode(-2) == 3);
    assert_true(mu_zigzag_encode(INT64_MAX) == UINT64_MAX - 1);
    assert_true(mu_zigzag_encode(INT64_MIN) == UINT64_MAX);
    const int64_t values[] = {0, 1, -1, 63, -64, 64, -65, INT32_MAX, INT32_MIN, INT64_MAX,
                              INT64_MIN};
    for (size_t i = 0; i < MU_ARRAY_LEN(values); i++) {
        assert_true(mu_zigzag_decode(mu_zigzag_encode(values[i])) == values[i]);
    }
}

static void test_little_endian_helpers(void **state) {
    (void)state;
    uint8_t b[8];
    mu_store_u16le(b, 0x1234);
    assert_memory_equal(b, "\x34\x12", 2);
    assert_int_equal(mu_load_u16le(b), 0x1234);
    mu_store_u32le(b, 0xA1B2C3D4u);
    assert_memory_equal(b, "\xD4\xC3\xB2\xA1", 4);
    assert_true(mu_load_u32le(b) == 0xA1B2C3D4u);
    mu_store_u64le(b, 0x0102030405060708ULL);
    assert_memory_equal(b, "\x08\x07\x06\x05\x04\x03\x02\x01", 8);
    assert_true(mu_load_u64le(b) == 0x0102030405060708ULL);
}

static void test_size_arithmetic_overflow(void **state) {
    (void)state;
    size_t out = 0;
    assert_true(mu_size_add(1, 2, &out));
    assert_int_equal(out, 3);
    assert_false(mu_size_add(SIZE_MAX, 1, &out));
    assert_true(mu_size_mul(1u << 20, 1u << 10, &out));
    assert_false(mu_size_mul(SIZE_MAX / 2 + 1, 2, &out));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_boundaries),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_known_encodings),
        cmocka_unit_test(test_non_minimal_is_accepted),
        cmocka_unit_test(test_reject_empty_and_truncated),
        cmocka_unit_test(test_reject_too_long_and_overflow),
        cmocka_unit_test(test_zigzag),
        cmocka_unit_test(test_little_endian_helpers),
        cmocka_unit_test(test_size_arithmetic_overflow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
