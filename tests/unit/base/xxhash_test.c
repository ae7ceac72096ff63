/* xxhash_test.c: goal — prove that mu_xxhash64 is XXH64: it reproduces the
 * values ClickHouse's xxHash64() returns, the sanity vectors of the xxHash
 * project (its generated buffer, lengths 1..222, seeds 0 and PRIME32_1), and
 * further strings cross-checked against libxxhash 0.8.1; that it reads
 * unaligned input; and that mu_hash64/mu_hash_u64 behave as documented.
 * Bad inputs: one-bit flips, truncation, appended zero bytes and a changed
 * seed must each change the hash.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

#define PRIME32_1 2654435761ULL

static void test_clickhouse_values(void **state) {
    (void)state;
    /* SELECT xxHash64('') = 17241709254077376921 */
    assert_true(mu_xxhash64("", 0, 0) == 17241709254077376921ULL);
    assert_true(mu_xxhash64("", 0, 0) == 0xEF46DB3751D8E999ULL);
    assert_true(mu_xxhash64(NULL, 0, 0) == 0xEF46DB3751D8E999ULL);
    assert_true(mu_xxhash64("a", 1, 0) == 0xD24EC4F1A98C6E5BULL);
    assert_true(mu_xxhash64("abc", 3, 0) == 0x44BC2CF5AD770999ULL);
}

/* The xxHash project's sanity buffer: a byte stream from a multiplicative
 * generator seeded with PRIME32_1. */
static void sanity_buffer(uint8_t *out, size_t n) {
    uint64_t gen = PRIME32_1;
    for (size_t i = 0; i < n; i++) {
        out[i] = (uint8_t)(gen >> 56);
        gen *= 11400714785074694797ULL;
    }
}

static void test_sanity_vectors(void **state) {
    (void)state;
    uint8_t buf[2048];
    sanity_buffer(buf, sizeof(buf));
    const struct {
        size_t length_bytes;
        uint64_t seed;
        uint64_t expected;
    } vectors[] = {
        {1, 0, 0xE934A84ADB052768ULL},       {1, PRIME32_1, 0x5014607643A9B4C3ULL},
        {4, 0, 0x9136A0DCA57457EEULL},       {4, PRIME32_1, 0xCAAB286BD8E9FDB5ULL},
        {14, 0, 0x8282DCC4994E35C8ULL},      {14, PRIME32_1, 0xC3BD6BF63DEB6DF0ULL},
        {222, 0, 0xB641AE8CB691C174ULL},     {222, PRIME32_1, 0x20CB8AB7AE10C14AULL},
        {2048, 0, 0x5940F2752BC04387ULL},    {2048, PRIME32_1, 0xAA26F33C2898013BULL},
        {0, PRIME32_1, 0xAC75FDA2929B17EFULL},
    };
    for (size_t i = 0; i < MU_ARRAY_LEN(vectors); i++) {
        uint64_t got = mu_xxhash64(buf, vectors[i].length_bytes, vectors[i].seed);
        if (got != vectors[i].expected) {
            fail_msg("length %zu seed %llu: got %016llx", vectors[i].length_bytes,
                     (unsigned long long)vectors[i].seed, (unsigned long long)got);
        }
    }
}

/* Strings covering each tail path (1-3 bytes, 4, 8, stripes + tails). */
static void test_string_vectors(void **state) {
    (void)state;
    const struct {
        const char *text;
        uint64_t seed;
        uint64_t expected;
    } vectors[] = {
        {"123456789", 0, 0x8CB841DB40E6AE83ULL},
        {"123456789", PRIME32_1, 0x6BC432BF21C3E5E2ULL},
        {"a", PRIME32_1, 0x393DA8B78992279BULL},
        {"abc", PRIME32_1, 0x1318DF30094A85FDULL},
        {"message digest", 0, 0x066ED728FCEEB3BEULL},
        {"abcdefghijklmnopqrstuvwxyz", 0, 0xCFE1F278FA89835CULL},
        {"The quick brown fox jumps over the lazy dog", 0, 0x0B242D361FDA71BCULL},
        {"The quick brown fox jumps over the lazy dog", PRIME32_1, 0xB31B9019EC176B0CULL},
        {"12345678901234567890123456789012", 0, 0x40FD1AA52D98274CULL},
        {"1234567890123456789012345678901234567890123456789012345678901234567890"
         "123456789012345678901234567890",
         0, 0xE488DBEC0AF11E01ULL},
    };
    for (size_t i = 0; i < MU_ARRAY_LEN(vectors); i++) {
        uint64_t got = mu_xxhash64(vectors[i].text, strlen(vectors[i].text), vectors[i].seed);
        if (got != vectors[i].expected) {
            fail_msg("\"%s\": got %016llx", vectors[i].text, (unsigned long long)got);
        }
    }
}

static void test_unaligned_input_same_hash(void **state) {
    (void)state;
    uint8_t src[300];
    sanity_buffer(src, sizeof(src));
    uint8_t shifted[300 + 8];
    for (size_t len = 0; len <= 300; len += 7) {
        uint64_t want = mu_xxhash64(src, len, 42);
        for (size_t offset = 1; offset < 8; offset++) {
            memcpy(shifted + offset, src, len);
            assert_true(mu_xxhash64(shifted + offset, len, 42) == want);
        }
    }
}

static void test_hash64_is_seed_zero(void **state) {
    (void)state;
    const char *s = "events.user_id";
    assert_true(mu_hash64(s, strlen(s)) == mu_xxhash64(s, strlen(s), 0));
}

static void test_bit_flips_change_hash(void **state) {
    (void)state;
    uint8_t buf[100];
    sanity_buffer(buf, sizeof(buf));
    uint64_t good = mu_xxhash64(buf, sizeof(buf), 0);
    for (size_t bit = 0; bit < sizeof(buf) * 8; bit++) {
        buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        assert_true(mu_xxhash64(buf, sizeof(buf), 0) != good);
        buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
}

static void test_length_and_seed_matter(void **state) {
    (void)state;
    uint8_t buf[65] = {0};
    /* All-zero inputs of every length up to 64 hash differently. */
    for (size_t a = 0; a <= 64; a++) {
        for (size_t b = a + 1; b <= 64; b++) {
            assert_true(mu_xxhash64(buf, a, 0) != mu_xxhash64(buf, b, 0));
        }
    }
    assert_true(mu_xxhash64("abc", 3, 0) != mu_xxhash64("abc", 3, 1));
    assert_true(mu_xxhash64("abc", 3, 0) != mu_xxhash64("abc", 2, 0));
    assert_true(mu_xxhash64("abc", 3, 0) != mu_xxhash64("abc\0", 4, 0));
}

static int compare_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void test_hash_u64_mixes_without_collisions(void **state) {
    (void)state;
    enum { N = 100000 };
    uint64_t *h = malloc(N * sizeof(*h));
    for (uint64_t i = 0; i < N; i++) h[i] = mu_hash_u64(i);
    assert_true(mu_hash_u64(0) == 0); /* the finaliser fixes zero */
    qsort(h, N, sizeof(*h), compare_u64);
    for (size_t i = 1; i < N; i++) assert_true(h[i] != h[i - 1]);
    /* Neighbouring keys differ in about half their bits. */
    int bits = __builtin_popcountll(mu_hash_u64(1000) ^ mu_hash_u64(1001));
    assert_true(bits > 16 && bits < 48);
    free(h);
}

static void test_throughput_report(void **state) {
    (void)state;
    size_t n = 16u << 20;
    uint8_t *buf = malloc(n);
    sanity_buffer(buf, n);
    uint64_t sink = 0;
    int64_t start = mu_clock_mono_ns();
    for (int i = 0; i < 4; i++) sink ^= mu_xxhash64(buf, n, sink);
    int64_t ns = mu_clock_mono_ns() - start;
    printf("xxhash64 throughput: %.2f GB/s (sink %016llx)\n",
           4.0 * (double)n / (double)MU_MAX(ns, 1), (unsigned long long)sink);
    free(buf);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clickhouse_values),
        cmocka_unit_test(test_sanity_vectors),
        cmocka_unit_test(test_string_vectors),
        cmocka_unit_test(test_unaligned_input_same_hash),
        cmocka_unit_test(test_hash64_is_seed_zero),
        cmocka_unit_test(test_bit_flips_change_hash),
        cmocka_unit_test(test_length_and_seed_matter),
        cmocka_unit_test(test_hash_u64_mixes_without_collisions),
        cmocka_unit_test(test_throughput_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
