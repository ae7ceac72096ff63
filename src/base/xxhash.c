/* xxhash.c: XXH64, written from the algorithm's published specification
 * (xxHash "XXH64 algorithm description"), so that hashes computed here equal
 * ClickHouse's xxHash64() and can be stored or compared across systems.
 *
 * Input is consumed as four 64-bit lanes per 32-byte stripe, then 8-, 4- and
 * 1-byte tails, then an avalanche. All loads are little-endian whatever the
 * host. Pure function; no state.
 */
#include "base/base.h"

#define XXH_PRIME64_1 0x9E3779B185EBCA87ULL
#define XXH_PRIME64_2 0xC2B2AE3D27D4EB4FULL
#define XXH_PRIME64_3 0x165667B19E3779F9ULL
#define XXH_PRIME64_4 0x85EBCA77C2B2AE63ULL
#define XXH_PRIME64_5 0x27D4EB2F165667C5ULL
#define XXH_STRIPE_BYTES 32

static inline uint64_t xxh_rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static inline uint64_t xxh_round(uint64_t acc, uint64_t lane) {
    acc += lane * XXH_PRIME64_2;
    acc = xxh_rotl(acc, 31);
    return acc * XXH_PRIME64_1;
}

static inline uint64_t xxh_merge(uint64_t acc, uint64_t lane_acc) {
    acc ^= xxh_round(0, lane_acc);
    return acc * XXH_PRIME64_1 + XXH_PRIME64_4;
}

/* Consumes every whole stripe of p[0..n) and returns the converged state. */
static uint64_t xxh_stripes(const uint8_t *p, size_t n, uint64_t seed) {
    uint64_t v1 = seed + XXH_PRIME64_1 + XXH_PRIME64_2;
    uint64_t v2 = seed + XXH_PRIME64_2;
    uint64_t v3 = seed;
    uint64_t v4 = seed - XXH_PRIME64_1;
    const uint8_t *end = p + (n / XXH_STRIPE_BYTES) * XXH_STRIPE_BYTES;
    while (p < end) {
        v1 = xxh_round(v1, mu_load_u64le(p));
        v2 = xxh_round(v2, mu_load_u64le(p + 8));
        v3 = xxh_round(v3, mu_load_u64le(p + 16));
        v4 = xxh_round(v4, mu_load_u64le(p + 24));
        p += XXH_STRIPE_BYTES;
    }
    uint64_t acc = xxh_rotl(v1, 1) + xxh_rotl(v2, 7) + xxh_rotl(v3, 12) + xxh_rotl(v4, 18);
    acc = xxh_merge(acc, v1);
    acc = xxh_merge(acc, v2);
    acc = xxh_merge(acc, v3);
    return xxh_merge(acc, v4);
}

uint64_t mu_xxhash64(const void *data, size_t length_bytes, uint64_t seed) {
    MU_ASSERT(data != NULL || length_bytes == 0);
    const uint8_t *p = data;
    size_t n = length_bytes;
    uint64_t acc;
    if (n >= XXH_STRIPE_BYTES) {
        acc = xxh_stripes(p, n, seed);
        p += (n / XXH_STRIPE_BYTES) * XXH_STRIPE_BYTES;
        n %= XXH_STRIPE_BYTES;
    } else {
        acc = seed + XXH_PRIME64_5;
    }
    acc += (uint64_t)length_bytes;
    for (; n >= 8; p += 8, n -= 8) {
        acc ^= xxh_round(0, mu_load_u64le(p));
        acc = xxh_rotl(acc, 27) * XXH_PRIME64_1 + XXH_PRIME64_4;
    }
    if (n >= 4) {
        acc ^= (uint64_t)mu_load_u32le(p) * XXH_PRIME64_1;
        acc = xxh_rotl(acc, 23) * XXH_PRIME64_2 + XXH_PRIME64_3;
        p += 4;
        n -= 4;
    }
    for (; n > 0; p++, n--) {
        acc ^= (uint64_t)*p * XXH_PRIME64_5;
        acc = xxh_rotl(acc, 11) * XXH_PRIME64_1;
    }
    acc ^= acc >> 33;
    acc *= XXH_PRIME64_2;
    acc ^= acc >> 29;
    acc *= XXH_PRIME64_3;
    acc ^= acc >> 32;
    return acc;
}
