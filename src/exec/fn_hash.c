/* fn_hash.c: ClickHouse's hash functions, byte-exact with its outputs:
 * sipHash64/128, halfMD5, cityHash64 (CityHash v1.0.2), xxHash32/64,
 * murmurHash2_32/64, murmurHash3_32/64/128, intHash32/64, CRC32, and the
 * digests MD5 and SHA1/224/256/384/512 (OpenSSL EVP).
 *
 * The variadic hashes follow FunctionsHashing.h: each argument is hashed
 * on its own (strings as their bytes, FixedString with its padding,
 * numbers, dates, Enum and Decimal as their little-endian value bytes,
 * UUID as ClickHouse keeps it in memory; cityHash64 runs intHash64 over
 * integers and floats instead), and the running hash is combined with the
 * next one by the function's own combiner. An Array hashes as the
 * intHash of its length combined with each element's hash; a Map as an
 * array of (key, value) pairs. Zero arguments give a fixed constant.
 */
#include "exec/exec_int.h"

#include <openssl/evp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Hash algorithms                                                     */
/* ------------------------------------------------------------------ */

static inline uint64_t rotl64(uint64_t x, unsigned r) { return (x << r) | (x >> (64 - r)); }
static inline uint32_t rotl32(uint32_t x, unsigned r) { return (x << r) | (x >> (32 - r)); }
static inline uint64_t rotr64(uint64_t x, unsigned r) {
    return r == 0 ? x : (x >> r) | (x << (64 - r));
}

/* ClickHouse's intHash64 (the MurmurHash3 finaliser) and its salted
 * IntHash64Impl / IntHash32Impl. */
static uint64_t int_hash64(uint64_t x) { return mu_hash_u64(x ^ 0x4CF2D2BAAE6DA887ULL); }

static uint32_t int_hash32(uint64_t key) {
    key ^= 0x75D9543DE018BF45ULL;
    key = (~key) + (key << 18);
    key = key ^ rotr64(key, 31);
    key = key * 21;
    key = key ^ rotr64(key, 11);
    key = key + (key << 6);
    key = key ^ rotr64(key, 22);
    return (uint32_t)key;
}

/* ---- SipHash-2-4 with a zero key (ClickHouse's SipHash.h) ------------- */

#define SIP_ROUND(v0, v1, v2, v3)                                                           \
    do {                                                                                    \
        v0 += v1; v1 = rotl64(v1, 13); v1 ^= v0; v0 = rotl64(v0, 32);                       \
        v2 += v3; v3 = rotl64(v3, 16); v3 ^= v2;                                            \
        v0 += v3; v3 = rotl64(v3, 21); v3 ^= v0;                                            \
        v2 += v1; v1 = rotl64(v1, 17); v1 ^= v2; v2 = rotl64(v2, 32);                       \
    } while (0)

/* out[0] = v0 ^ v1, out[1] = v2 ^ v3: sipHash64 is their xor, sipHash128
 * their little-endian concatenation. */
static void siphash(const uint8_t *p, size_t n, uint64_t out[2]) {
    uint64_t v0 = 0x736f6d6570736575ULL, v1 = 0x646f72616e646f6dULL;
    uint64_t v2 = 0x6c7967656e657261ULL, v3 = 0x7465646279746573ULL;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t m = mu_load_u64le(p + i);
        v3 ^= m;
        SIP_ROUND(v0, v1, v2, v3);
        SIP_ROUND(v0, v1, v2, v3);
        v0 ^= m;
    }
    uint64_t last = (uint64_t)(n & 0xFF) << 56;
    for (size_t k = 0; i + k < n; k++) last |= (uint64_t)p[i + k] << (8 * k);
    v3 ^= last;
    SIP_ROUND(v0, v1, v2, v3);
    SIP_ROUND(v0, v1, v2, v3);
    v0 ^= last;
    v2 ^= 0xFF;
    for (int r = 0; r < 4; r++) SIP_ROUND(v0, v1, v2, v3);
    out[0] = v0 ^ v1;
    out[1] = v2 ^ v3;
}

/* ---- CityHash64, v1.0.2 (the version ClickHouse pins) ----------------- */

#define CITY_K0 0xc3a5c85c97cb3127ULL
#define CITY_K1 0xb492b66fbe98f273ULL
#define CITY_K2 0x9ae16a3b2f90404fULL
#define CITY_K3 0xc949d7c7509e6557ULL

static uint64_t city_hash128_to_64(uint64_t low, uint64_t high) {
    const uint64_t mul = 0x9ddfea08eb382d69ULL;
    uint64_t a = (low ^ high) * mul;
    a ^= a >> 47;
    uint64_t b = (high ^ a) * mul;
    b ^= b >> 47;
    return b * mul;
}

static inline uint64_t city_shift_mix(uint64_t v) { return v ^ (v >> 47); }

static uint64_t city_len0to16(const uint8_t *s, size_t len) {
    if (len > 8) {
        uint64_t a = mu_load_u64le(s), b = mu_load_u64le(s + len - 8);
        return city_hash128_to_64(a, rotr64(b + len, (unsigned)len)) ^ b;
    }
    if (len >= 4) {
        uint64_t a = mu_load_u32le(s);
        return city_hash128_to_64(len + (a << 3), mu_load_u32le(s + len - 4));
    }
    if (len > 0) {
        uint32_t y = (uint32_t)s[0] + ((uint32_t)s[len >> 1] << 8);
        uint32_t z = (uint32_t)len + ((uint32_t)s[len - 1] << 2);
        return city_shift_mix(y * CITY_K2 ^ z * CITY_K3) * CITY_K2;
    }
    return CITY_K2;
}

static uint64_t city_len17to32(const uint8_t *s, size_t len) {
    uint64_t a = mu_load_u64le(s) * CITY_K1, b = mu_load_u64le(s + 8);
    uint64_t c = mu_load_u64le(s + len - 8) * CITY_K2, d = mu_load_u64le(s + len - 16) * CITY_K0;
    return city_hash128_to_64(rotr64(a - b, 43) + rotr64(c, 30) + d,
                              a + rotr64(b ^ CITY_K3, 20) - c + len);
}

static uint64_t city_len33to64(const uint8_t *s, size_t len) {
    uint64_t z = mu_load_u64le(s + 24);
    uint64_t a = mu_load_u64le(s) + (len + mu_load_u64le(s + len - 16)) * CITY_K0;
    uint64_t b = rotr64(a + z, 52), c = rotr64(a, 37);
    a += mu_load_u64le(s + 8);
    c += rotr64(a, 7);
    a += mu_load_u64le(s + 16);
    uint64_t vf = a + z, vs = b + rotr64(a, 31) + c;
    a = mu_load_u64le(s + 16) + mu_load_u64le(s + len - 32);
    z = mu_load_u64le(s + len - 8);
    b = rotr64(a + z, 52);
    c = rotr64(a, 37);
    a += mu_load_u64le(s + len - 24);
    c += rotr64(a, 7);
    a += mu_load_u64le(s + len - 16);
    uint64_t wf = a + z, ws = b + rotr64(a, 31) + c;
    uint64_t r = city_shift_mix((vf + ws) * CITY_K2 + (wf + vs) * CITY_K0);
    return city_shift_mix(r * CITY_K0 + vs) * CITY_K2;
}

typedef struct city_pair {
    uint64_t first, second;
} city_pair;

static city_pair city_weak32(const uint8_t *s, uint64_t a, uint64_t b) {
    uint64_t w = mu_load_u64le(s), x = mu_load_u64le(s + 8);
    uint64_t y = mu_load_u64le(s + 16), z = mu_load_u64le(s + 24);
    a += w;
    b = rotr64(b + a + z, 21);
    uint64_t c = a;
    a += x;
    a += y;
    b += rotr64(a, 44);
    return (city_pair){a + z, b + c};
}

static uint64_t city_hash64(const uint8_t *s, size_t len) {
    if (len <= 16) return city_len0to16(s, len);
    if (len <= 32) return city_len17to32(s, len);
    if (len <= 64) return city_len33to64(s, len);
    uint64_t x = mu_load_u64le(s), y = mu_load_u64le(s + len - 16) ^ CITY_K1;
    uint64_t z = mu_load_u64le(s + len - 56) ^ CITY_K0;
    city_pair v = city_weak32(s + len - 64, len, y);
    city_pair w = city_weak32(s + len - 32, len * CITY_K1, CITY_K0);
    z += city_shift_mix(v.second) * CITY_K1;
    x = rotr64(z + x, 39) * CITY_K1;
    y = rotr64(y, 33) * CITY_K1;
    len = (len - 1) & ~(size_t)63; /* whole 64-byte chunks from the front */
    do {
        x = rotr64(x + y + v.first + mu_load_u64le(s + 16), 37) * CITY_K1;
        y = rotr64(y + v.second + mu_load_u64le(s + 48), 42) * CITY_K1;
        x ^= w.second;
        y ^= v.first;
        z = rotr64(z ^ w.first, 33);
        v = city_weak32(s, v.second * CITY_K1, x + w.first);
        w = city_weak32(s + 32, z + w.second, y);
        uint64_t t = z;
        z = x;
        x = t;
        s += 64;
        len -= 64;
    } while (len != 0);
    uint64_t low = city_hash128_to_64(v.first, w.first) + city_shift_mix(y) * CITY_K1 + z;
    return city_hash128_to_64(low, city_hash128_to_64(v.second, w.second) + x);
}

/* ---- xxHash32 (seed 0); xxHash64 is mu_xxhash64 ---------------------- */

#define XXH_P32_1 2654435761U
#define XXH_P32_2 2246822519U
#define XXH_P32_3 3266489917U
#define XXH_P32_4 668265263U
#define XXH_P32_5 374761393U

static inline uint32_t xxh32_round(uint32_t acc, uint32_t input) {
    return rotl32(acc + input * XXH_P32_2, 13) * XXH_P32_1;
}

static uint32_t xxh32(const uint8_t *p, size_t n) {
    size_t i = 0;
    uint32_t h;
    if (n >= 16) {
        uint32_t v1 = XXH_P32_1 + XXH_P32_2, v2 = XXH_P32_2, v3 = 0, v4 = 0u - XXH_P32_1;
        for (; i + 16 <= n; i += 16) {
            v1 = xxh32_round(v1, mu_load_u32le(p + i));
            v2 = xxh32_round(v2, mu_load_u32le(p + i + 4));
            v3 = xxh32_round(v3, mu_load_u32le(p + i + 8));
            v4 = xxh32_round(v4, mu_load_u32le(p + i + 12));
        }
        h = rotl32(v1, 1) + rotl32(v2, 7) + rotl32(v3, 12) + rotl32(v4, 18);
    } else {
        h = XXH_P32_5;
    }
    h += (uint32_t)n;
    for (; i + 4 <= n; i += 4) h = rotl32(h + mu_load_u32le(p + i) * XXH_P32_3, 17) * XXH_P32_4;
    for (; i < n; i++) h = rotl32(h + p[i] * XXH_P32_5, 11) * XXH_P32_1;
    h ^= h >> 15;
    h *= XXH_P32_2;
    h ^= h >> 13;
    h *= XXH_P32_3;
    h ^= h >> 16;
    return h;
}

/* ---- MurmurHash2 (32 and 64A) and MurmurHash3 (x86_32, x64_128) ------ */

static uint32_t murmur2_32(const uint8_t *p, size_t n) {
    const uint32_t m = 0x5bd1e995;
    uint32_t h = (uint32_t)n;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        uint32_t k = mu_load_u32le(p + i) * m;
        k ^= k >> 24;
        h = h * m ^ k * m;
    }
    switch (n - i) {
    case 3: h ^= (uint32_t)p[i + 2] << 16; /* fall through */
    case 2: h ^= (uint32_t)p[i + 1] << 8;  /* fall through */
    case 1: h ^= p[i]; h *= m;
    }
    h ^= h >> 13;
    h *= m;
    return h ^ (h >> 15);
}

static uint64_t murmur2_64(const uint8_t *p, size_t n) {
    const uint64_t m = 0xc6a4a7935bd1e995ULL;
    uint64_t h = n * m;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t k = mu_load_u64le(p + i) * m;
        k ^= k >> 47;
        h = (h ^ k * m) * m;
    }
    size_t tail = n - i;
    if (tail > 0) {
        for (size_t k = tail; k > 0; k--) h ^= (uint64_t)p[i + k - 1] << (8 * (k - 1));
        h *= m;
    }
    h ^= h >> 47;
    h *= m;
    return h ^ (h >> 47);
}

static uint32_t murmur3_fmix32(uint32_t h) {
    h ^= h >> 16;
    h *= 0x85ebca6b;
    h ^= h >> 13;
    h *= 0xc2b2ae35;
    return h ^ (h >> 16);
}

static uint32_t murmur3_32(const uint8_t *p, size_t n) {
    const uint32_t c1 = 0xcc9e2d51, c2 = 0x1b873593;
    uint32_t h = 0, k;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        k = rotl32(mu_load_u32le(p + i) * c1, 15) * c2;
        h = rotl32(h ^ k, 13) * 5 + 0xe6546b64;
    }
    k = 0;
    for (size_t t = n - i; t > 0; t--) k ^= (uint32_t)p[i + t - 1] << (8 * (t - 1));
    if (n - i > 0) h ^= rotl32(k * c1, 15) * c2;
    return murmur3_fmix32(h ^ (uint32_t)n);
}

static void murmur3_128(const uint8_t *p, size_t n, uint64_t out[2]) {
    const uint64_t c1 = 0x87c37b91114253d5ULL, c2 = 0x4cf5ad432745937fULL;
    uint64_t h1 = 0, h2 = 0, k1, k2;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        k1 = rotl64(mu_load_u64le(p + i) * c1, 31) * c2;
        h1 = (rotl64(h1 ^ k1, 27) + h2) * 5 + 0x52dce729;
        k2 = rotl64(mu_load_u64le(p + i + 8) * c2, 33) * c1;
        h2 = (rotl64(h2 ^ k2, 31) + h1) * 5 + 0x38495ab5;
    }
    size_t tail = n - i;
    k1 = k2 = 0;
    for (size_t t = tail; t > 8; t--) k2 ^= (uint64_t)p[i + t - 1] << (8 * (t - 9));
    if (tail > 8) h2 ^= rotl64(k2 * c2, 33) * c1;
    for (size_t t = MU_MIN(tail, (size_t)8); t > 0; t--)
        k1 ^= (uint64_t)p[i + t - 1] << (8 * (t - 1));
    if (tail > 0) h1 ^= rotl64(k1 * c1, 31) * c2;
    h1 ^= n;
    h2 ^= n;
    h1 += h2;
    h2 += h1;
    h1 = mu_hash_u64(h1);
    h2 = mu_hash_u64(h2);
    h1 += h2;
    h2 += h1;
    out[0] = h1;
    out[1] = h2;
}

/* ---- digests through OpenSSL, fetched once per process --------------- */

enum { DIGEST_MD5, DIGEST_SHA1, DIGEST_SHA224, DIGEST_SHA256, DIGEST_SHA384, DIGEST_SHA512,
       DIGEST_COUNT };

static const char *const digest_names[DIGEST_COUNT] = {"MD5", "SHA1", "SHA224",
                                                       "SHA256", "SHA384", "SHA512"};
static const uint32_t digest_bytes[DIGEST_COUNT] = {16, 20, 28, 32, 48, 64};
static EVP_MD *digest_md[DIGEST_COUNT];
static pthread_once_t digest_once = PTHREAD_ONCE_INIT;

static void digest_load(void) {
    for (int i = 0; i < DIGEST_COUNT; i++) digest_md[i] = EVP_MD_fetch(NULL, digest_names[i], NULL);
}

static const EVP_MD *digest_get(int which) {
    pthread_once(&digest_once, digest_load);
    return digest_md[which];
}

/* ------------------------------------------------------------------ */
/* The variadic hash engine                                            */
/* ------------------------------------------------------------------ */

typedef enum hash_algo {
    HASH_SIP64, HASH_SIP128, HASH_HALF_MD5, HASH_CITY64, HASH_XX64, HASH_XX32,
    HASH_MURMUR2_32, HASH_MURMUR2_64, HASH_MURMUR3_32, HASH_MURMUR3_64, HASH_MURMUR3_128,
} hash_algo;

typedef struct hash_value {
    uint64_t lo, hi; /* 32-bit hashes use lo's low half; 128-bit ones both */
} hash_value;

static bool hash_is_128(hash_algo a) { return a == HASH_SIP128 || a == HASH_MURMUR3_128; }
static bool hash_is_32(hash_algo a) {
    return a == HASH_XX32 || a == HASH_MURMUR2_32 || a == HASH_MURMUR3_32;
}

static hash_value hash_bytes(hash_algo a, const uint8_t *p, size_t n) {
    hash_value h = {0, 0};
    uint64_t two[2];
    switch (a) {
    case HASH_SIP64: siphash(p, n, two); h.lo = two[0] ^ two[1]; break;
    case HASH_SIP128: siphash(p, n, two); h.lo = two[0]; h.hi = two[1]; break;
    case HASH_HALF_MD5: {
        uint8_t md[EVP_MAX_MD_SIZE];
        unsigned len = 0;
        if (EVP_Digest(p, n, md, &len, digest_get(DIGEST_MD5), NULL) == 1 && len == 16)
            for (int i = 0; i < 8; i++) h.lo = h.lo << 8 | md[i]; /* big-endian, as ClickHouse */
        break;
    }
    case HASH_CITY64: h.lo = city_hash64(p, n); break;
    case HASH_XX64: h.lo = mu_xxhash64(p, n, 0); break;
    case HASH_XX32: h.lo = xxh32(p, n); break;
    case HASH_MURMUR2_32: h.lo = murmur2_32(p, n); break;
    case HASH_MURMUR2_64: h.lo = murmur2_64(p, n); break;
    case HASH_MURMUR3_32: h.lo = murmur3_32(p, n); break;
    case HASH_MURMUR3_64: murmur3_128(p, n, two); h.lo = two[0] ^ two[1]; break;
    case HASH_MURMUR3_128: murmur3_128(p, n, two); h.lo = two[0]; h.hi = two[1]; break;
    }
    return h;
}

/* Combines the running hash h1 with the next argument's h2. */
static hash_value hash_combine(hash_algo a, hash_value h1, hash_value h2) {
    hash_value h = {0, 0};
    uint8_t buf[32];
    switch (a) {
    case HASH_SIP64: case HASH_HALF_MD5:
        mu_store_u64le(buf, h1.lo);
        mu_store_u64le(buf + 8, h2.lo);
        return hash_bytes(a, buf, 16);
    case HASH_SIP128: case HASH_MURMUR3_128:
        mu_store_u64le(buf, h1.lo);
        mu_store_u64le(buf + 8, h1.hi);
        mu_store_u64le(buf + 16, h2.lo);
        mu_store_u64le(buf + 24, h2.hi);
        return hash_bytes(a, buf, 32);
    case HASH_CITY64: case HASH_XX64:
        h.lo = city_hash128_to_64(h1.lo, h2.lo);
        return h;
    case HASH_XX32: case HASH_MURMUR2_32: case HASH_MURMUR3_32:
        h.lo = (uint32_t)(int_hash32(h1.lo) ^ (uint32_t)h2.lo);
        return h;
    case HASH_MURMUR2_64: case HASH_MURMUR3_64:
        h.lo = int_hash64(h1.lo) ^ h2.lo;
        return h;
    }
    return h;
}

/* ClickHouse's UUID in memory: each 8-byte half of the text order reversed. */
static void hash_uuid_bytes(const uint8_t *text_order, uint8_t *out) {
    for (int i = 0; i < 8; i++) {
        out[i] = text_order[7 - i];
        out[8 + i] = text_order[15 - i];
    }
}

static bool hash_type_scalar(const ty_type *t) {
    switch (t->kind) {
    case TY_UINT8: case TY_UINT16: case TY_UINT32: case TY_UINT64:
    case TY_INT8: case TY_INT16: case TY_INT32: case TY_INT64:
    case TY_FLOAT32: case TY_FLOAT64: case TY_BOOL: case TY_STRING: case TY_FIXED_STRING:
    case TY_DATE: case TY_DATE32: case TY_DATETIME: case TY_DATETIME64: case TY_UUID:
    case TY_DECIMAL: case TY_ENUM8: case TY_ENUM16:
        return true;
    default:
        return false;
    }
}

/* The hash of one scalar value (row r of column c, whose type is t). */
static hash_value hash_scalar(hash_algo a, const ty_type *t, const ty_column *c, uint32_t r) {
    size_t n;
    const uint8_t *p = ty_column_row_bytes(c, r, &n);
    bool pod = t->kind != TY_STRING && t->kind != TY_FIXED_STRING && t->kind != TY_UUID &&
               t->kind != TY_DECIMAL && t->kind != TY_DATETIME64;
    if (a == HASH_CITY64 && pod) { /* use_int_hash_for_pods: intHash64 of the zero-extended bits */
        uint8_t word[8] = {0};
        memcpy(word, p, MU_MIN(n, sizeof(word)));
        hash_value h = {int_hash64(mu_load_u64le(word)), 0};
        return h;
    }
    if (t->kind == TY_UUID) {
        uint8_t mem[16];
        hash_uuid_bytes(p, mem);
        return hash_bytes(a, mem, 16);
    }
    return hash_bytes(a, p, n);
}

/* intHash of an array length: 64-bit for UInt64 results, else 32-bit. */
static hash_value hash_length(hash_algo a, uint64_t len) {
    hash_value h = {0, 0};
    bool wide64 = !hash_is_32(a) && !hash_is_128(a);
    h.lo = wide64 ? int_hash64(len) : int_hash32(len);
    return h;
}

/* The hash of row r of an Array or Map column (elements are scalars). */
static hash_value hash_nested(hash_algo a, const ty_type *t, const ty_column *c, uint32_t r) {
    const uint32_t *off = ty_column_offsets(c);
    const ty_column *keys = ty_column_child(c, 0);
    const ty_column *values = t->kind == TY_MAP ? ty_column_child(c, 1) : NULL;
    const ty_type *kt = ty_type_strip_nullable(keys->type);
    hash_value h = hash_length(a, off[r + 1] - off[r]);
    for (uint32_t k = off[r]; k < off[r + 1]; k++) {
        hash_value e = hash_scalar(a, kt, keys, k);
        if (values != NULL) e = hash_combine(a, e, hash_scalar(a, values->type, values, k));
        h = hash_combine(a, h, e);
    }
    return h;
}

static hash_value hash_row(hash_algo a, const exec_arg *arg, uint32_t i) {
    const ty_column *c = arg->column;
    const ty_type *t = ty_type_strip_nullable(c->type);
    uint32_t r = exec_arg_row(arg, i);
    if (t->kind == TY_ARRAY || t->kind == TY_MAP) return hash_nested(a, t, c, r);
    return hash_scalar(a, t, c, r);
}

/* Checks one argument type: a scalar, or an Array/Map of non-Nullable scalars. */
static int hash_check_type(const exec_call *call, uint32_t index, mu_err *err) {
    const ty_type *t = call->arg_types[index];
    if (hash_type_scalar(t)) return 0;
    const ty_type *e1 = t->kind == TY_ARRAY || t->kind == TY_MAP ? t->child : NULL;
    const ty_type *e2 = t->kind == TY_MAP ? t->child2 : NULL;
    if (e1 == NULL) return exec__error_arg_type(call, index, err);
    if (e1->kind == TY_NULLABLE || e1->kind == TY_ARRAY || e1->kind == TY_MAP ||
        e1->kind == TY_LOW_CARDINALITY || (e2 != NULL && !hash_type_scalar(e2))) {
        char name[128];
        return MU_ERR(err, MU_ENOT_SUPPORTED, "function %s does not hash %s yet (argument %u)",
                      call->function->name, ty_type_name(t, name, sizeof(name)), index + 1);
    }
    return hash_type_scalar(e1) ? 0 : exec__error_arg_type(call, index, err);
}

static int hash_store(hash_algo a, const hash_value *acc, uint32_t rows, ty_column *out,
                      mu_err *err) {
    void *at;
    int rc = ty_column_append_fixed_uninit(out, rows, &at, err);
    if (rc != 0) return rc;
    uint8_t *dst = at;
    for (uint32_t i = 0; i < rows; i++) {
        if (hash_is_128(a)) {
            mu_store_u64le(dst + 16 * (size_t)i, acc[i].lo);
            mu_store_u64le(dst + 16 * (size_t)i + 8, acc[i].hi);
        } else if (hash_is_32(a)) {
            ((uint32_t *)at)[i] = (uint32_t)acc[i].lo;
        } else {
            ((uint64_t *)at)[i] = acc[i].lo;
        }
    }
    return 0;
}

static int hash_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                       ty_column *out, mu_err *err) {
    hash_algo a = (hash_algo)(uintptr_t)call->state;
    MU_ASSERT(a <= HASH_MURMUR3_128);
    hash_value *acc = exec__scratch(rows, sizeof(*acc), err);
    if (acc == NULL) return err->code;
    const hash_value filler = {0xe28dbde7fe22e41cULL, 0}; /* hash of no arguments */
    for (uint32_t i = 0; i < rows; i++) acc[i] = filler;
    if (hash_is_32(a))
        for (uint32_t i = 0; i < rows; i++) acc[i].lo &= 0xFFFFFFFFu;
    for (uint32_t k = 0; k < call->arg_count; k++) {
        const exec_arg *arg = &args[k];
        hash_value once = arg->is_const ? hash_row(a, arg, 0) : filler;
        for (uint32_t i = 0; i < rows; i++) {
            hash_value h = arg->is_const ? once : hash_row(a, arg, i);
            acc[i] = k == 0 ? h : hash_combine(a, acc[i], h);
        }
    }
    int rc = hash_store(a, acc, rows, out, err);
    free(acc);
    MU_ASSERT(rc != 0 || out->row_count >= rows);
    return rc;
}

static int hash_bind_common(exec_call *call, mu_arena *arena, hash_algo a, mu_err *err) {
    for (uint32_t i = 0; i < call->arg_count; i++) {
        int rc = hash_check_type(call, i, err);
        if (rc != 0) return rc;
    }
    if (a == HASH_HALF_MD5 && digest_get(DIGEST_MD5) == NULL)
        return MU_ERR(err, MU_ENOT_SUPPORTED, "function halfMD5 needs MD5, which OpenSSL refuses");
    call->kernel = hash_kernel;
    call->state = (void *)(uintptr_t)a;
    if (hash_is_128(a)) {
        ty_type *t = mu_arena_calloc(arena, 1, sizeof(*t), err);
        if (t == NULL) return err->code;
        t->kind = TY_FIXED_STRING;
        t->length = 16;
        call->result_type = t;
    } else {
        call->result_type = ty_type_builtin(hash_is_32(a) ? TY_UINT32 : TY_UINT64);
    }
    return 0;
}

#define HASH_BIND(name, algo)                                                             \
    static int name(exec_call *call, mu_arena *arena, mu_err *err) {                      \
        return hash_bind_common(call, arena, algo, err);                                  \
    }
HASH_BIND(sip64_bind, HASH_SIP64)
HASH_BIND(sip128_bind, HASH_SIP128)
HASH_BIND(half_md5_bind, HASH_HALF_MD5)
HASH_BIND(city64_bind, HASH_CITY64)
HASH_BIND(xx64_bind, HASH_XX64)
HASH_BIND(xx32_bind, HASH_XX32)
HASH_BIND(murmur2_32_bind, HASH_MURMUR2_32)
HASH_BIND(murmur2_64_bind, HASH_MURMUR2_64)
HASH_BIND(murmur3_32_bind, HASH_MURMUR3_32)
HASH_BIND(murmur3_64_bind, HASH_MURMUR3_64)
HASH_BIND(murmur3_128_bind, HASH_MURMUR3_128)

static const exec_function fn_sip64 = {"sipHash64", 0, sip64_bind};
static const exec_function fn_sip128 = {"sipHash128", 0, sip128_bind};
static const exec_function fn_half_md5 = {"halfMD5", 0, half_md5_bind};
static const exec_function fn_city64 = {"cityHash64", 0, city64_bind};
static const exec_function fn_xx64 = {"xxHash64", 0, xx64_bind};
static const exec_function fn_xx32 = {"xxHash32", 0, xx32_bind};
static const exec_function fn_murmur2_32 = {"murmurHash2_32", 0, murmur2_32_bind};
static const exec_function fn_murmur2_64 = {"murmurHash2_64", 0, murmur2_64_bind};
static const exec_function fn_murmur3_32 = {"murmurHash3_32", 0, murmur3_32_bind};
static const exec_function fn_murmur3_64 = {"murmurHash3_64", 0, murmur3_64_bind};
static const exec_function fn_murmur3_128 = {"murmurHash3_128", 0, murmur3_128_bind};

/* ------------------------------------------------------------------ */
/* intHash32, intHash64                                                */
/* ------------------------------------------------------------------ */

/* The argument converted to UInt64 as C++ does (signed values extend). */
static int int_hash_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                           ty_column *out, mu_err *err) {
    bool wide = call->result_type->kind == TY_UINT64;
    uint64_t *v = exec__scratch(rows, sizeof(*v), err);
    if (v == NULL) return err->code;
    exec__load_u64(&args[0], rows, v);
    for (uint32_t i = 0; i < rows; i++) v[i] = wide ? int_hash64(v[i]) : int_hash32(v[i]);
    int rc = exec__store_u64(out, v, rows, err);
    free(v);
    return rc;
}

static int int_hash_bind_common(exec_call *call, bool wide, mu_err *err) {
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    const ty_type *t = call->arg_types[0];
    bool ok = exec_type_is_integer(t) || t->kind == TY_BOOL || t->kind == TY_DATE ||
              t->kind == TY_DATE32 || t->kind == TY_DATETIME;
    if (!ok) return exec__error_arg_type(call, 0, err);
    call->kernel = int_hash_kernel;
    call->result_type = ty_type_builtin(wide ? TY_UINT64 : TY_UINT32);
    return 0;
}

static int int_hash32_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    return int_hash_bind_common(call, false, err);
}

static int int_hash64_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    return int_hash_bind_common(call, true, err);
}

static const exec_function fn_int_hash32 = {"intHash32", 0, int_hash32_bind};
static const exec_function fn_int_hash64 = {"intHash64", 0, int_hash64_bind};

/* ------------------------------------------------------------------ */
/* MD5, SHA*: FixedString digests of one String or FixedString         */
/* ------------------------------------------------------------------ */

static int digest_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                         ty_column *out, mu_err *err) {
    int which = (int)(uintptr_t)call->state;
    const EVP_MD *md = digest_get(which);
    uint8_t *dst;
    int rc = ty_column_append_fixed_uninit(out, rows, (void **)&dst, err);
    if (rc != 0) return rc;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx == NULL) {
        ty_column_truncate(out, out->row_count - rows);
        return MU_ERR(err, MU_ENOMEM, "out of memory for a %s context", digest_names[which]);
    }
    for (uint32_t i = 0; i < rows && rc == 0; i++) {
        size_t n;
        const uint8_t *p = ty_column_row_bytes(args[0].column, exec_arg_row(&args[0], i), &n);
        unsigned len = 0;
        if (EVP_DigestInit_ex2(ctx, md, NULL) != 1 || EVP_DigestUpdate(ctx, p, n) != 1 ||
            EVP_DigestFinal_ex(ctx, dst + (size_t)i * digest_bytes[which], &len) != 1 ||
            len != digest_bytes[which])
            rc = MU_ERR(err, MU_EINTERNAL, "OpenSSL failed to compute %s", digest_names[which]);
    }
    EVP_MD_CTX_free(ctx);
    if (rc != 0) ty_column_truncate(out, out->row_count - rows);
    return rc;
}

static int digest_bind_common(exec_call *call, mu_arena *arena, int which, mu_err *err) {
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    const ty_type *t = call->arg_types[0];
    if (t->kind != TY_STRING && t->kind != TY_FIXED_STRING)
        return exec__error_arg_type(call, 0, err);
    if (digest_get(which) == NULL)
        return MU_ERR(err, MU_ENOT_SUPPORTED, "function %s: OpenSSL has no %s digest here",
                      call->function->name, digest_names[which]);
    ty_type *r = mu_arena_calloc(arena, 1, sizeof(*r), err);
    if (r == NULL) return err->code;
    r->kind = TY_FIXED_STRING;
    r->length = digest_bytes[which];
    call->kernel = digest_kernel;
    call->state = (void *)(uintptr_t)which;
    call->result_type = r;
    return 0;
}

#define DIGEST_BIND(name, which)                                                          \
    static int name(exec_call *call, mu_arena *arena, mu_err *err) {                      \
        return digest_bind_common(call, arena, which, err);                               \
    }
DIGEST_BIND(md5_bind, DIGEST_MD5)
DIGEST_BIND(sha1_bind, DIGEST_SHA1)
DIGEST_BIND(sha224_bind, DIGEST_SHA224)
DIGEST_BIND(sha256_bind, DIGEST_SHA256)
DIGEST_BIND(sha384_bind, DIGEST_SHA384)
DIGEST_BIND(sha512_bind, DIGEST_SHA512)

static const exec_function fn_md5 = {"MD5", 0, md5_bind};
static const exec_function fn_sha1 = {"SHA1", 0, sha1_bind};
static const exec_function fn_sha224 = {"SHA224", 0, sha224_bind};
static const exec_function fn_sha256 = {"SHA256", 0, sha256_bind};
static const exec_function fn_sha384 = {"SHA384", 0, sha384_bind};
static const exec_function fn_sha512 = {"SHA512", 0, sha512_bind};

/* ------------------------------------------------------------------ */
/* CRC32 (zlib's: reflected 0xEDB88320)                                */
/* ------------------------------------------------------------------ */

static uint32_t crc32_table[256];
static pthread_once_t crc32_once = PTHREAD_ONCE_INIT;

static void crc32_table_build(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc32_table[i] = c;
    }
}

static int crc32_kernel(const exec_call *call, const exec_arg *args, uint32_t rows,
                        ty_column *out, mu_err *err) {
    (void)call;
    uint32_t *dst;
    int rc = ty_column_append_fixed_uninit(out, rows, (void **)&dst, err);
    if (rc != 0) return rc;
    for (uint32_t i = 0; i < rows; i++) {
        size_t n;
        const uint8_t *p = ty_column_row_bytes(args[0].column, exec_arg_row(&args[0], i), &n);
        uint32_t c = 0xFFFFFFFFu;
        for (size_t k = 0; k < n; k++) c = crc32_table[(c ^ p[k]) & 0xFF] ^ (c >> 8);
        dst[i] = c ^ 0xFFFFFFFFu;
    }
    return 0;
}

static int crc32_bind(exec_call *call, mu_arena *arena, mu_err *err) {
    (void)arena;
    int rc = exec__check_arg_count(call, 1, 1, err);
    if (rc != 0) return rc;
    const ty_type *t = call->arg_types[0];
    if (t->kind != TY_STRING && t->kind != TY_FIXED_STRING)
        return exec__error_arg_type(call, 0, err);
    pthread_once(&crc32_once, crc32_table_build);
    call->kernel = crc32_kernel;
    call->result_type = ty_type_builtin(TY_UINT32);
    return 0;
}

static const exec_function fn_crc32 = {"CRC32", EXEC_FN_CASE_INSENSITIVE, crc32_bind};

const exec_function *const exec__functions_hash[] = {
    &fn_sip64, &fn_sip128, &fn_half_md5, &fn_city64, &fn_xx64, &fn_xx32, &fn_murmur2_32,
    &fn_murmur2_64, &fn_murmur3_32, &fn_murmur3_64, &fn_murmur3_128, &fn_int_hash32,
    &fn_int_hash64, &fn_md5, &fn_sha1, &fn_sha224, &fn_sha256, &fn_sha384, &fn_sha512,
    &fn_crc32, NULL,
};
