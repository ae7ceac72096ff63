/* crc32c_test.c: goal — prove that mu_crc32c computes CRC-32C exactly as
 * published (RFC 3720 appendix B.4 and the "123456789" check value), that
 * chaining equals one pass over the concatenation, and that the SSE4.2 path
 * and the portable table agree on every length and alignment, including the
 * lengths where the three-stream loop starts and stops. Bad inputs: flipped
 * bits, swapped bytes, truncation and zero padding must change the checksum.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

typedef uint32_t (*crc_fn)(uint32_t crc, const void *data, size_t length_bytes);
static const crc_fn crc_impls[] = {mu_crc32c, mu_crc32c_portable};

static uint64_t rng_state = 0x243F6A8885A308D3ULL;
static uint64_t rng_next(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static void fill_random(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)rng_next();
}

static void test_rfc3720_vectors(void **state) {
    (void)state;
    uint8_t buf[32];
    for (size_t k = 0; k < MU_ARRAY_LEN(crc_impls); k++) {
        memset(buf, 0, sizeof(buf));
        assert_int_equal(crc_impls[k](0, buf, 32), 0x8A9136AAu);
        memset(buf, 0xFF, sizeof(buf));
        assert_int_equal(crc_impls[k](0, buf, 32), 0x62A8AB43u);
        for (int i = 0; i < 32; i++) buf[i] = (uint8_t)i;
        assert_int_equal(crc_impls[k](0, buf, 32), 0x46DD794Eu);
        for (int i = 0; i < 32; i++) buf[i] = (uint8_t)(31 - i);
        assert_int_equal(crc_impls[k](0, buf, 32), 0x113FDB5Cu);
    }
}

/* RFC 3720 B.4: an iSCSI READ command PDU, 48 bytes. */
static void test_rfc3720_iscsi_pdu(void **state) {
    (void)state;
    const uint8_t pdu[48] = {
        0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
        0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    };
    for (size_t k = 0; k < MU_ARRAY_LEN(crc_impls); k++) {
        assert_int_equal(crc_impls[k](0, pdu, sizeof(pdu)), 0xD9963A56u);
    }
}

static void test_check_value_and_empty(void **state) {
    (void)state;
    for (size_t k = 0; k < MU_ARRAY_LEN(crc_impls); k++) {
        assert_int_equal(crc_impls[k](0, "123456789", 9), 0xE3069283u);
        assert_int_equal(crc_impls[k](0, "a", 1), 0xC1D04330u);
        assert_int_equal(crc_impls[k](0, NULL, 0), 0u);
        assert_int_equal(crc_impls[k](0xDEADBEEFu, NULL, 0), 0xDEADBEEFu);
    }
}

static void test_incremental_equals_one_pass(void **state) {
    (void)state;
    enum { N = 1200 };
    uint8_t *buf = malloc(N);
    fill_random(buf, N);
    for (size_t k = 0; k < MU_ARRAY_LEN(crc_impls); k++) {
        uint32_t whole = crc_impls[k](0, buf, N);
        for (size_t split = 0; split <= N; split++) {
            uint32_t part = crc_impls[k](0, buf, split);
            assert_int_equal(crc_impls[k](part, buf + split, N - split), whole);
        }
        uint32_t crc = 0;
        for (size_t at = 0; at < N;) {
            size_t random_step = (size_t)(rng_next() % 97); /* MU_MIN evaluates twice */
            size_t step = MU_MIN(random_step, N - at);
            crc = crc_impls[k](crc, buf + at, step);
            at += step;
        }
        assert_int_equal(crc, whole);
    }
    free(buf);
}

static void test_hardware_matches_portable(void **state) {
    (void)state;
    enum { MAX = 3 * 8192 * 2 + 4096 };
    uint8_t *buf = malloc(MAX + 16);
    fill_random(buf, MAX + 16);
    /* Every length near the edges of the 8-byte, 3x256 and 3x8192 loops. */
    const size_t edges[] = {0, 8, 16, 768, 3 * 8192, 2 * 3 * 8192};
    for (size_t e = 0; e < MU_ARRAY_LEN(edges); e++) {
        for (size_t len = edges[e] > 40 ? edges[e] - 40 : 0; len <= edges[e] + 40; len++) {
            for (size_t offset = 0; offset < 16; offset++) {
                uint32_t seed = (uint32_t)rng_next();
                assert_int_equal(mu_crc32c(seed, buf + offset, len),
                                 mu_crc32c_portable(seed, buf + offset, len));
            }
        }
    }
    for (int round = 0; round < 300; round++) {
        size_t len = (size_t)(rng_next() % MAX);
        size_t offset = (size_t)(rng_next() % 16);
        assert_int_equal(mu_crc32c(0, buf + offset, len), mu_crc32c_portable(0, buf + offset, len));
    }
    free(buf);
}

static void test_hardware_probe(void **state) {
    (void)state;
#if defined(__x86_64__)
    __builtin_cpu_init();
    assert_int_equal(mu_crc32c_hardware(), __builtin_cpu_supports("sse4.2") != 0);
#else
    assert_false(mu_crc32c_hardware());
#endif
    printf("crc32c: %s path\n", mu_crc32c_hardware() ? "SSE4.2" : "portable");
}

static void test_every_single_bit_flip_is_detected(void **state) {
    (void)state;
    uint8_t buf[1024];
    fill_random(buf, sizeof(buf));
    uint32_t good = mu_crc32c(0, buf, sizeof(buf));
    for (size_t bit = 0; bit < sizeof(buf) * 8; bit++) {
        buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        assert_int_not_equal(mu_crc32c(0, buf, sizeof(buf)), good);
        buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
    assert_int_equal(mu_crc32c(0, buf, sizeof(buf)), good);
}

static void test_swaps_truncation_and_padding_are_detected(void **state) {
    (void)state;
    uint8_t buf[256];
    fill_random(buf, sizeof(buf));
    buf[10] = 1;
    buf[11] = 2;
    uint32_t good = mu_crc32c(0, buf, sizeof(buf));
    buf[10] = 2;
    buf[11] = 1;
    assert_int_not_equal(mu_crc32c(0, buf, sizeof(buf)), good);
    buf[10] = 1;
    buf[11] = 2;
    assert_int_not_equal(mu_crc32c(0, buf, sizeof(buf) - 1), good);
    uint8_t padded[257];
    memcpy(padded, buf, sizeof(buf));
    padded[256] = 0;
    assert_int_not_equal(mu_crc32c(0, padded, sizeof(padded)), good);
    /* Leading zeros matter too, thanks to the inverted initial value. */
    uint8_t zeros[8] = {0};
    assert_int_not_equal(mu_crc32c(0, zeros, 8), mu_crc32c(0, zeros, 4));
}

static void test_throughput_report(void **state) {
    (void)state;
    size_t n = 16u << 20;
    uint8_t *buf = malloc(n);
    fill_random(buf, n);
    uint32_t sink = 0;
    int64_t start = mu_clock_mono_ns();
    for (int i = 0; i < 8; i++) sink ^= mu_crc32c(sink, buf, n);
    int64_t hw_ns = mu_clock_mono_ns() - start;
    start = mu_clock_mono_ns();
    for (int i = 0; i < 2; i++) sink ^= mu_crc32c_portable(sink, buf, n);
    int64_t sw_ns = mu_clock_mono_ns() - start;
    printf("crc32c throughput: dispatch %.2f GB/s, portable %.2f GB/s (sink %08x)\n",
           8.0 * (double)n / (double)MU_MAX(hw_ns, 1), 2.0 * (double)n / (double)MU_MAX(sw_ns, 1),
           sink);
    free(buf);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rfc3720_vectors),
        cmocka_unit_test(test_rfc3720_iscsi_pdu),
        cmocka_unit_test(test_check_value_and_empty),
        cmocka_unit_test(test_incremental_equals_one_pass),
        cmocka_unit_test(test_hardware_matches_portable),
        cmocka_unit_test(test_hardware_probe),
        cmocka_unit_test(test_every_single_bit_flip_is_detected),
        cmocka_unit_test(test_swaps_truncation_and_padding_are_detected),
        cmocka_unit_test(test_throughput_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
