/* crc32c.c: CRC-32C (Castagnoli, reflected polynomial 0x82F63B78, initial
 * and final value 0xFFFFFFFF), the checksum of WAL records and part blocks.
 * Two implementations must agree bit for bit: the SSE4.2 `crc32` instruction
 * (x86-64, chosen at run time) and a portable slicing-by-8 table. The
 * hardware path runs three streams over long inputs to hide the instruction's
 * latency and joins them with precomputed "append n zero bytes" tables.
 * Tables are built once under pthread_once, then only read: thread-safe.
 */
#include "base/base.h"

#include <pthread.h>

#if defined(__x86_64__)
#include <nmmintrin.h>
#define CRC_HAVE_SSE42 1
#else
#define CRC_HAVE_SSE42 0
#endif

#define CRC_POLY_REFLECTED 0x82F63B78u

/* Stream lengths of the three-way hardware loop. LONG amortises the join
 * over big blocks; SHORT keeps mid-sized inputs (a few KiB) parallel too. */
#define CRC_LONG_BYTES 8192
#define CRC_SHORT_BYTES 256

static uint32_t crc_table[8][256];
static uint32_t crc_shift_long[4][256];
static uint32_t crc_shift_short[4][256];
static bool crc_use_hardware;
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

/* Advances a raw register (no pre/post inversion) over length_bytes zeros. */
static uint32_t crc_raw_zeros(uint32_t reg, size_t length_bytes) {
    for (size_t i = 0; i < length_bytes; i++) reg = (reg >> 8) ^ crc_table[0][reg & 0xff];
    return reg;
}

/* Builds tables with shift[k][b] = register (b << 8k) advanced over
 * length_bytes zero bytes. The zero-advance is linear over GF(2), so the
 * value for any register is the XOR of its four byte lookups. */
static void crc_build_shift(uint32_t shift[4][256], size_t length_bytes) {
    uint32_t basis[32];
    for (int bit = 0; bit < 32; bit++) basis[bit] = crc_raw_zeros(1u << bit, length_bytes);
    for (int k = 0; k < 4; k++) {
        for (uint32_t b = 0; b < 256; b++) {
            uint32_t v = 0;
            for (int bit = 0; bit < 8; bit++) {
                if (b & (1u << bit)) v ^= basis[8 * k + bit];
            }
            shift[k][b] = v;
        }
    }
}

static void crc_init(void) {
    for (uint32_t b = 0; b < 256; b++) {
        uint32_t reg = b;
        for (int bit = 0; bit < 8; bit++) {
            reg = (reg >> 1) ^ (CRC_POLY_REFLECTED & (0u - (reg & 1)));
        }
        crc_table[0][b] = reg;
    }
    for (int k = 1; k < 8; k++) {
        for (uint32_t b = 0; b < 256; b++) {
            uint32_t prev = crc_table[k - 1][b];
            crc_table[k][b] = (prev >> 8) ^ crc_table[0][prev & 0xff];
        }
    }
    crc_build_shift(crc_shift_long, CRC_LONG_BYTES);
    crc_build_shift(crc_shift_short, CRC_SHORT_BYTES);
#if CRC_HAVE_SSE42
    __builtin_cpu_init();
    crc_use_hardware = __builtin_cpu_supports("sse4.2");
#else
    crc_use_hardware = false;
#endif
}

static uint32_t crc_raw_portable(uint32_t reg, const uint8_t *p, size_t n) {
    while (n > 0 && ((uintptr_t)p & 7) != 0) {
        reg = (reg >> 8) ^ crc_table[0][(reg ^ *p++) & 0xff];
        n--;
    }
    while (n >= 8) {
        uint32_t lo = mu_load_u32le(p) ^ reg;
        uint32_t hi = mu_load_u32le(p + 4);
        reg = crc_table[7][lo & 0xff] ^ crc_table[6][(lo >> 8) & 0xff] ^
              crc_table[5][(lo >> 16) & 0xff] ^ crc_table[4][lo >> 24] ^
              crc_table[3][hi & 0xff] ^ crc_table[2][(hi >> 8) & 0xff] ^
              crc_table[1][(hi >> 16) & 0xff] ^ crc_table[0][hi >> 24];
        p += 8;
        n -= 8;
    }
    while (n > 0) {
        reg = (reg >> 8) ^ crc_table[0][(reg ^ *p++) & 0xff];
        n--;
    }
    return reg;
}

uint32_t mu_crc32c_portable(uint32_t crc, const void *data, size_t length_bytes) {
    pthread_once(&crc_once, crc_init);
    MU_ASSERT(data != NULL || length_bytes == 0);
    return ~crc_raw_portable(~crc, data, length_bytes);
}

#if CRC_HAVE_SSE42

static inline uint32_t crc_shift(const uint32_t shift[4][256], uint32_t reg) {
    return shift[0][reg & 0xff] ^ shift[1][(reg >> 8) & 0xff] ^ shift[2][(reg >> 16) & 0xff] ^
           shift[3][reg >> 24];
}

static inline uint64_t crc_load64(const uint8_t *p) {
    uint64_t v;
    __builtin_memcpy(&v, p, sizeof(v)); /* x86 is little-endian: same as the LE load */
    return v;
}

/* Three interleaved streams of `stride` bytes each, repeated while the input
 * holds 3 * stride bytes. Since crc(r, A||B) = zeros(crc(r, A), |B|) ^
 * crc(0, B), the streams are joined as shift(shift(a) ^ b) ^ c. */
__attribute__((target("sse4.2"))) static uint32_t crc_hw_triple(
    uint32_t reg, const uint8_t **pp, size_t *np, size_t stride, const uint32_t shift[4][256]) {
    const uint8_t *p = *pp;
    size_t n = *np;
    while (n >= 3 * stride) {
        uint64_t a = reg, b = 0, c = 0;
        const uint8_t *end = p + stride;
        do {
            a = _mm_crc32_u64(a, crc_load64(p));
            b = _mm_crc32_u64(b, crc_load64(p + stride));
            c = _mm_crc32_u64(c, crc_load64(p + 2 * stride));
            p += 8;
        } while (p < end);
        reg = crc_shift(shift, crc_shift(shift, (uint32_t)a) ^ (uint32_t)b) ^ (uint32_t)c;
        p += 2 * stride;
        n -= 3 * stride;
    }
    *pp = p;
    *np = n;
    return reg;
}

__attribute__((target("sse4.2"))) static uint32_t crc_raw_hardware(uint32_t reg,
                                                                   const uint8_t *p, size_t n) {
    while (n > 0 && ((uintptr_t)p & 7) != 0) {
        reg = _mm_crc32_u8(reg, *p++);
        n--;
    }
    reg = crc_hw_triple(reg, &p, &n, CRC_LONG_BYTES, crc_shift_long);
    reg = crc_hw_triple(reg, &p, &n, CRC_SHORT_BYTES, crc_shift_short);
    uint64_t reg64 = reg;
    while (n >= 8) {
        reg64 = _mm_crc32_u64(reg64, crc_load64(p));
        p += 8;
        n -= 8;
    }
    reg = (uint32_t)reg64;
    while (n > 0) {
        reg = _mm_crc32_u8(reg, *p++);
        n--;
    }
    return reg;
}

#endif /* CRC_HAVE_SSE42 */

bool mu_crc32c_hardware(void) {
    pthread_once(&crc_once, crc_init);
    return crc_use_hardware;
}

uint32_t mu_crc32c(uint32_t crc, const void *data, size_t length_bytes) {
    pthread_once(&crc_once, crc_init);
    MU_ASSERT(data != NULL || length_bytes == 0);
#if CRC_HAVE_SSE42
    if (crc_use_hardware) return ~crc_raw_hardware(~crc, data, length_bytes);
#endif
    return ~crc_raw_portable(~crc, data, length_bytes);
}
