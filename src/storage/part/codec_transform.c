/* codec_transform.c: the integer transforms Delta, DoubleDelta and T64
 * (Gorilla is in codec_gorilla.c), and the dispatch over all transforms.
 * Each works on whole arrays, 64 values at a time where it packs bits, with
 * the width chosen once per call so the inner loops see no per-value
 * indirection. All arithmetic wraps modulo 2^(8 * width), so every input
 * round-trips. Stream layouts: docs/formats/codecs.md. Decoders trust
 * nothing: every frame header, length and padding bit is checked.
 */
#include "storage/part/codec.h"

#include <string.h>

/* Values are stored little-endian on disk and in column buffers alike. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "codecs assume a little-endian host");

#define FRAME_VALUES 64
#define SPARSE_FLAG 0x80u

static inline uint64_t width_mask(unsigned width) {
    return width == 8 ? UINT64_MAX : ((uint64_t)1 << (8 * width)) - 1;
}

/* The width-byte value x read as a signed number, widened to 64 bits. */
static inline uint64_t sign_extend(uint64_t x, unsigned width) {
    unsigned shift = 64 - 8 * width;
    return (uint64_t)((int64_t)(x << shift) >> shift);
}

static inline unsigned bit_length(uint64_t x) {
    return x == 0 ? 0 : 64 - (unsigned)__builtin_clzll(x);
}

static inline uint64_t low_bits_mask(unsigned bits) {
    return bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
}

/* Loads count values of the given width, zero-extended. */
static void values_load(const uint8_t *src, unsigned width, size_t count, uint64_t *v) {
    switch (width) {
    case 1:
        for (size_t i = 0; i < count; i++) v[i] = src[i];
        break;
    case 2:
        for (size_t i = 0; i < count; i++) v[i] = mu_load_u16le(src + 2 * i);
        break;
    case 4:
        for (size_t i = 0; i < count; i++) v[i] = mu_load_u32le(src + 4 * i);
        break;
    default:
        MU_ASSERT(width == 8);
        memcpy(v, src, 8 * count);
        break;
    }
}

/* Stores the low `width` bytes of count values. */
static void values_store(uint8_t *dst, unsigned width, size_t count, const uint64_t *v) {
    switch (width) {
    case 1:
        for (size_t i = 0; i < count; i++) dst[i] = (uint8_t)v[i];
        break;
    case 2:
        for (size_t i = 0; i < count; i++) mu_store_u16le(dst + 2 * i, (uint16_t)v[i]);
        break;
    case 4:
        for (size_t i = 0; i < count; i++) mu_store_u32le(dst + 4 * i, (uint32_t)v[i]);
        break;
    default:
        MU_ASSERT(width == 8);
        memcpy(dst, v, 8 * count);
        break;
    }
}

/* ------------------------------------------------------------------ */
/* Delta(n): v[0], v[1]-v[0], v[2]-v[1], ... in n-byte words; same size */
/* ------------------------------------------------------------------ */

#define DEFINE_DELTA(T, SUFFIX)                                                   \
    static void delta_encode_##SUFFIX(const uint8_t *src, size_t count, uint8_t *dst) { \
        T prev = 0;                                                               \
        for (size_t i = 0; i < count; i++) {                                      \
            T v, d;                                                               \
            memcpy(&v, src + i * sizeof(T), sizeof(T));                           \
            d = (T)(v - prev);                                                    \
            memcpy(dst + i * sizeof(T), &d, sizeof(T));                           \
            prev = v;                                                             \
        }                                                                         \
    }                                                                             \
    static void delta_decode_##SUFFIX(const uint8_t *src, size_t count, uint8_t *dst) { \
        T sum = 0;                                                                \
        for (size_t i = 0; i < count; i++) {                                      \
            T d;                                                                  \
            memcpy(&d, src + i * sizeof(T), sizeof(T));                           \
            sum = (T)(sum + d);                                                   \
            memcpy(dst + i * sizeof(T), &sum, sizeof(T));                         \
        }                                                                         \
    }

DEFINE_DELTA(uint8_t, u8)
DEFINE_DELTA(uint16_t, u16)
DEFINE_DELTA(uint32_t, u32)
DEFINE_DELTA(uint64_t, u64)

static void delta_apply(bool encode, unsigned width, const uint8_t *src, size_t bytes,
                        uint8_t *dst) {
    size_t count = bytes / width;
    switch (width) {
    case 1: encode ? delta_encode_u8(src, count, dst) : delta_decode_u8(src, count, dst); break;
    case 2: encode ? delta_encode_u16(src, count, dst) : delta_decode_u16(src, count, dst); break;
    case 4: encode ? delta_encode_u32(src, count, dst) : delta_decode_u32(src, count, dst); break;
    default:
        MU_ASSERT(width == 8);
        encode ? delta_encode_u64(src, count, dst) : delta_decode_u64(src, count, dst);
        break;
    }
}

/* ------------------------------------------------------------------ */
/* Bit packing of up to 64 values into whole 64-bit words              */
/* ------------------------------------------------------------------ */

static inline size_t packed_words(size_t count, unsigned bits) {
    return (count * bits + 63) / 64;
}

/* Packs count values (each < 2^bits, bits 1..64) so value i occupies bits
 * [i*bits, (i+1)*bits) of the word sequence; returns bytes written. Bits
 * gather in a register and whole words are stored as they fill. */
static size_t bits_pack(const uint64_t *values, size_t count, unsigned bits, uint8_t *dst) {
    MU_DEBUG_ASSERT(count <= FRAME_VALUES && bits >= 1 && bits <= 64);
    uint64_t acc = 0;
    unsigned fill = 0; /* bits pending in acc, 0..63 */
    size_t pos = 0;
    for (size_t i = 0; i < count; i++) {
        uint64_t v = values[i];
        acc |= v << fill;
        fill += bits;
        if (fill >= 64) {
            mu_store_u64le(dst + pos, acc);
            pos += 8;
            fill -= 64;
            acc = fill == 0 ? 0 : v >> (bits - fill);
        }
    }
    if (fill > 0) {
        mu_store_u64le(dst + pos, acc);
        pos += 8;
    }
    MU_DEBUG_ASSERT(pos == 8 * packed_words(count, bits));
    return pos;
}

/* Unpacks what bits_pack wrote (the caller checked that the bytes are
 * there); returns false if the unused high bits of the last word are set. */
static bool bits_unpack(const uint8_t *src, size_t count, unsigned bits, uint64_t *values) {
    size_t word_count = packed_words(count, bits);
    uint64_t mask = low_bits_mask(bits);
    uint64_t cur = mu_load_u64le(src);
    size_t next = 1;
    unsigned shift = 0; /* bits of cur already used, 0..63 */
    for (size_t i = 0; i < count; i++) {
        uint64_t v = cur >> shift;
        shift += bits;
        if (shift >= 64) {
            shift -= 64;
            cur = next < word_count ? mu_load_u64le(src + 8 * next) : 0;
            next++;
            if (shift > 0) v |= cur << (bits - shift);
        }
        values[i] = v & mask;
    }
    return shift == 0 || (cur >> shift) == 0;
}

/* ------------------------------------------------------------------ */
/* DoubleDelta                                                        */
/* ------------------------------------------------------------------ */

static size_t dd_frames(size_t count) {
    return count <= 2 ? 0 : (count - 2 + FRAME_VALUES - 1) / FRAME_VALUES;
}

static size_t dd_bound(unsigned width, size_t bytes) {
    size_t count = bytes / width;
    if (count <= 1) return bytes;
    /* A frame is a head byte plus at most 64 values of 8*width bits. */
    return 2 * width + dd_frames(count) * (1 + 64 * (size_t)width);
}

static size_t dd_min(unsigned width, size_t bytes) {
    size_t count = bytes / width;
    if (count <= 1) return bytes;
    return 2 * width + dd_frames(count);
}

/* Writes one frame of zigzagged delta-of-deltas, dense or sparse
 * (whichever is smaller); returns bytes written. */
static size_t dd_frame_write(const uint64_t *z, size_t count, uint8_t *dst) {
    uint64_t any = 0;
    uint64_t nonzero_map = 0;
    for (size_t i = 0; i < count; i++) any |= z[i];
    for (size_t i = 0; i < count; i++) nonzero_map |= (uint64_t)(z[i] != 0) << i;
    unsigned bits = bit_length(any);
    if (bits == 0) {
        dst[0] = 0;
        return 1;
    }
    size_t nonzero_count = (size_t)__builtin_popcountll(nonzero_map);
    size_t dense_words = packed_words(count, bits);
    size_t sparse_words = 1 + packed_words(nonzero_count, bits);
    if (sparse_words >= dense_words) {
        dst[0] = (uint8_t)bits;
        return 1 + bits_pack(z, count, bits, dst + 1);
    }
    uint64_t packed[FRAME_VALUES];
    size_t k = 0;
    for (size_t i = 0; i < count; i++) {
        if (z[i] != 0) packed[k++] = z[i];
    }
    dst[0] = (uint8_t)(SPARSE_FLAG | bits);
    mu_store_u64le(dst + 1, nonzero_map);
    return 9 + bits_pack(packed, k, bits, dst + 9);
}

static size_t dd_encode(unsigned width, const uint8_t *src, size_t bytes, uint8_t *dst) {
    size_t count = bytes / width;
    if (count <= 1) {
        memcpy(dst, src, bytes);
        return bytes;
    }
    uint64_t mask = width_mask(width);
    uint64_t v[FRAME_VALUES];
    uint64_t z[FRAME_VALUES];
    values_load(src, width, 2, v);
    uint64_t prev = v[1];
    uint64_t delta = (v[1] - v[0]) & mask;
    memcpy(dst, src, width);
    values_store(dst + width, width, 1, &delta);
    size_t pos = 2 * width;
    for (size_t start = 2; start < count; start += FRAME_VALUES) {
        size_t k = MU_MIN((size_t)FRAME_VALUES, count - start);
        values_load(src + start * width, width, k, v);
        for (size_t i = 0; i < k; i++) {
            uint64_t d = (v[i] - prev) & mask;
            uint64_t dd = (d - delta) & mask;
            z[i] = mu_zigzag_encode((int64_t)sign_extend(dd, width));
            prev = v[i];
            delta = d;
        }
        pos += dd_frame_write(z, k, dst + pos);
    }
    MU_ASSERT(pos <= dd_bound(width, bytes));
    return pos;
}

/* Reads one frame of k zigzagged values at src[*pos]; returns 0 or
 * MU_ECORRUPT. */
static int dd_frame_read(unsigned width, const uint8_t *src, size_t bytes, size_t *pos,
                         size_t k, uint64_t *z, mu_err *err) {
    size_t at = *pos;
    if (at >= bytes) return MU_CORRUPT(err, "DoubleDelta stream byte %zu: truncated frame", at);
    unsigned head = src[at];
    unsigned bits = head & ~SPARSE_FLAG;
    bool sparse = (head & SPARSE_FLAG) != 0;
    if (bits > 8 * width || (sparse && bits == 0)) {
        return MU_CORRUPT(err, "DoubleDelta stream byte %zu: bad frame head 0x%02x for %u-byte "
                          "values", at, head, width);
    }
    size_t p = at + 1;
    uint64_t map = UINT64_MAX >> (64 - k);
    if (sparse) {
        if (bytes - p < 8) {
            return MU_CORRUPT(err, "DoubleDelta stream byte %zu: truncated sparse map", p);
        }
        uint64_t all = map;
        map = mu_load_u64le(src + p);
        if ((map & ~all) != 0 || map == 0) {
            return MU_CORRUPT(err, "DoubleDelta stream byte %zu: bad sparse frame map", p);
        }
        p += 8;
    }
    size_t stored = bits == 0 ? 0 : sparse ? (size_t)__builtin_popcountll(map) : k;
    size_t payload = 8 * packed_words(stored, bits);
    if (bytes - p < payload) {
        return MU_CORRUPT(err, "DoubleDelta stream byte %zu: %zu packed bytes run past the end "
                          "(%zu bytes)", p, payload, bytes);
    }
    uint64_t packed[FRAME_VALUES];
    if (bits == 0) {
        memset(z, 0, k * sizeof(*z));
    } else if (!bits_unpack(src + p, stored, bits, sparse ? packed : z)) {
        return MU_CORRUPT(err, "DoubleDelta stream byte %zu: padding bits set", p);
    }
    if (sparse) {
        size_t j = 0;
        for (size_t i = 0; i < k; i++) z[i] = (map >> i) & 1 ? packed[j++] : 0;
    }
    *pos = p + payload;
    return 0;
}

static int dd_decode(unsigned width, const uint8_t *src, size_t bytes, uint8_t *dst,
                     size_t dst_bytes, mu_err *err) {
    size_t count = dst_bytes / width;
    if (count <= 1 || bytes < 2 * width) {
        if (bytes != dst_bytes) {
            return MU_CORRUPT(err, "DoubleDelta stream byte 0: %zu bytes cannot hold %zu values",
                              bytes, count);
        }
        memcpy(dst, src, bytes);
        return 0;
    }
    uint64_t mask = width_mask(width);
    uint64_t v[FRAME_VALUES];
    uint64_t z[FRAME_VALUES];
    values_load(src, width, 2, v);
    uint64_t prev = (v[0] + v[1]) & mask;
    uint64_t delta = v[1];
    v[1] = prev;
    values_store(dst, width, 2, v);
    size_t pos = 2 * width;
    for (size_t start = 2; start < count; start += FRAME_VALUES) {
        size_t k = MU_MIN((size_t)FRAME_VALUES, count - start);
        int rc = dd_frame_read(width, src, bytes, &pos, k, z, err);
        if (rc != 0) return rc;
        for (size_t i = 0; i < k; i++) {
            delta = (delta + (uint64_t)mu_zigzag_decode(z[i])) & mask;
            prev = (prev + delta) & mask;
            v[i] = prev;
        }
        values_store(dst + start * width, width, k, v);
    }
    if (pos != bytes) {
        return MU_CORRUPT(err, "DoubleDelta stream byte %zu: %zu bytes left after %zu values",
                          pos, bytes - pos, count);
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* T64                                                                */
/* ------------------------------------------------------------------ */

/* One round of the transpose: swaps the off-diagonal j x j blocks of
 * every 2j x 2j block. Inlined with constant j, the inner loop over
 * contiguous rows vectorizes. */
static inline __attribute__((always_inline)) void transpose64_round(uint64_t *a, unsigned j,
                                                                   uint64_t m) {
    for (unsigned base = 0; base < 64; base += 2 * j) {
        for (unsigned k = base; k < base + j; k++) {
            uint64_t t = ((a[k] >> j) ^ a[k + j]) & m;
            a[k] ^= t << j;
            a[k + j] ^= t;
        }
    }
}

/* Transposes a 64x64 bit matrix in place: afterwards bit i of a[j] is
 * what bit j of a[i] was. Swaps ever smaller off-diagonal blocks
 * (6 rounds of 32 word pairs) instead of moving 4096 single bits. */
static void transpose64(uint64_t a[FRAME_VALUES]) {
    transpose64_round(a, 32, 0x00000000FFFFFFFFull);
    transpose64_round(a, 16, 0x0000FFFF0000FFFFull);
    transpose64_round(a, 8, 0x00FF00FF00FF00FFull);
    transpose64_round(a, 4, 0x0F0F0F0F0F0F0F0Full);
    transpose64_round(a, 2, 0x3333333333333333ull);
    transpose64_round(a, 1, 0x5555555555555555ull);
}

/* Transposes the 8x8 bit matrix held in x (row r = byte r, column c =
 * bit c): bit c of byte r trades places with bit r of byte c. */
static inline uint64_t transpose8(uint64_t x) {
    uint64_t t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAull;
    x ^= t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCull;
    x ^= t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ull;
    x ^= t ^ (t << 28);
    return x;
}

/* Frames of few bit planes are transposed 8x8 bits at a time, touching
 * only the low bytes that hold bits; wider ones use transpose64. */
#define T64_BYTEWISE_BITS_MAX 16

/* Writes the low `bits` planes of d[0..63] (plane j, byte k, bit r = bit j
 * of d[8k + r]) to planes, 8 bytes per plane, for bits <= 16. */
static void t64_planes_bytewise(const uint64_t *d, unsigned bits, uint8_t *planes) {
    for (unsigned p = 0; p * 8 < bits; p++) {
        unsigned planes_here = MU_MIN(8u, bits - 8 * p);
        for (unsigned k = 0; k < 8; k++) {
            uint64_t g = 0;
            for (unsigned r = 0; r < 8; r++) g |= ((d[8 * k + r] >> (8 * p)) & 0xFF) << (8 * r);
            g = transpose8(g);
            for (unsigned c = 0; c < planes_here; c++) {
                planes[(8 * p + c) * 8 + k] = (uint8_t)(g >> (8 * c));
            }
        }
    }
}

/* The inverse of t64_planes_bytewise: fills d[0..63] from `bits` planes. */
static void t64_values_bytewise(const uint8_t *planes, unsigned bits, uint64_t *d) {
    memset(d, 0, FRAME_VALUES * sizeof(*d));
    for (unsigned p = 0; p * 8 < bits; p++) {
        unsigned planes_here = MU_MIN(8u, bits - 8 * p);
        for (unsigned k = 0; k < 8; k++) {
            uint64_t g = 0;
            for (unsigned c = 0; c < planes_here; c++) {
                g |= (uint64_t)planes[(8 * p + c) * 8 + k] << (8 * c);
            }
            g = transpose8(g);
            for (unsigned r = 0; r < 8; r++) d[8 * k + r] |= ((g >> (8 * r)) & 0xFF) << (8 * p);
        }
    }
}

static size_t t64_frames(unsigned width, size_t bytes) {
    return (bytes / width + FRAME_VALUES - 1) / FRAME_VALUES;
}

static size_t t64_bound(unsigned width, size_t bytes) {
    return t64_frames(width, bytes) * (1 + (size_t)width + 64 * (size_t)width);
}

static size_t t64_min(unsigned width, size_t bytes) {
    return t64_frames(width, bytes) * (1 + (size_t)width);
}

/* Picks the frame base: the unsigned or the signed minimum, whichever
 * leaves the smaller range, so small negative and small positive values
 * alike need few bit planes. Returns the range's bit length. */
static unsigned t64_base(const uint64_t *v, size_t k, unsigned width, uint64_t *base) {
    uint64_t umin = v[0], umax = v[0];
    int64_t smin = (int64_t)sign_extend(v[0], width), smax = smin;
    for (size_t i = 1; i < k; i++) {
        umin = MU_MIN(umin, v[i]);
        umax = MU_MAX(umax, v[i]);
        int64_t s = (int64_t)sign_extend(v[i], width);
        smin = MU_MIN(smin, s);
        smax = MU_MAX(smax, s);
    }
    unsigned ubits = bit_length(umax - umin);
    unsigned sbits = bit_length((uint64_t)smax - (uint64_t)smin);
    *base = sbits < ubits ? (uint64_t)smin & width_mask(width) : umin;
    return MU_MIN(ubits, sbits);
}

static size_t t64_encode(unsigned width, const uint8_t *src, size_t bytes, uint8_t *dst) {
    size_t count = bytes / width;
    uint64_t mask = width_mask(width);
    uint64_t a[FRAME_VALUES];
    size_t pos = 0;
    for (size_t start = 0; start < count; start += FRAME_VALUES) {
        size_t k = MU_MIN((size_t)FRAME_VALUES, count - start);
        values_load(src + start * width, width, k, a);
        uint64_t base;
        unsigned bits = t64_base(a, k, width, &base);
        dst[pos] = (uint8_t)bits;
        values_store(dst + pos + 1, width, 1, &base);
        pos += 1 + width;
        if (bits == 0) continue;
        for (size_t i = 0; i < k; i++) a[i] = (a[i] - base) & mask;
        for (size_t i = k; i < FRAME_VALUES; i++) a[i] = 0;
        if (bits <= T64_BYTEWISE_BITS_MAX) {
            t64_planes_bytewise(a, bits, dst + pos);
        } else {
            transpose64(a);
            memcpy(dst + pos, a, 8 * (size_t)bits);
        }
        pos += 8 * (size_t)bits;
    }
    MU_ASSERT(pos <= t64_bound(width, bytes));
    return pos;
}

/* Reads the frame of k values at src[*pos] into v; returns 0 or
 * MU_ECORRUPT. */
static int t64_frame_read(unsigned width, const uint8_t *src, size_t bytes, size_t *pos,
                          size_t k, uint64_t *v, mu_err *err) {
    size_t at = *pos;
    if (bytes - at < 1 + (size_t)width) {
        return MU_CORRUPT(err, "T64 stream byte %zu: truncated frame head (%zu bytes)", at,
                          bytes);
    }
    unsigned bits = src[at];
    if (bits > 8 * width) {
        return MU_CORRUPT(err, "T64 stream byte %zu: %u bit planes for %u-byte values", at, bits,
                          width);
    }
    uint64_t base;
    values_load(src + at + 1, width, 1, &base);
    size_t planes_at = at + 1 + width;
    if (bytes - planes_at < 8 * (size_t)bits) {
        return MU_CORRUPT(err, "T64 stream byte %zu: %u bit planes run past the end (%zu bytes)",
                          planes_at, bits, bytes);
    }
    if (bits <= T64_BYTEWISE_BITS_MAX) {
        t64_values_bytewise(src + planes_at, bits, v);
    } else {
        memset(v, 0, FRAME_VALUES * sizeof(*v));
        memcpy(v, src + planes_at, 8 * (size_t)bits);
        transpose64(v);
    }
    for (size_t i = k; i < FRAME_VALUES; i++) {
        if (v[i] != 0) {
            return MU_CORRUPT(err, "T64 stream byte %zu: bits set for value %zu of a frame of %zu",
                              planes_at, i, k);
        }
    }
    uint64_t mask = width_mask(width);
    for (size_t i = 0; i < k; i++) v[i] = (v[i] + base) & mask;
    *pos = planes_at + 8 * (size_t)bits;
    return 0;
}

static int t64_decode(unsigned width, const uint8_t *src, size_t bytes, uint8_t *dst,
                      size_t dst_bytes, mu_err *err) {
    size_t count = dst_bytes / width;
    uint64_t v[FRAME_VALUES];
    size_t pos = 0;
    for (size_t start = 0; start < count; start += FRAME_VALUES) {
        size_t k = MU_MIN((size_t)FRAME_VALUES, count - start);
        int rc = t64_frame_read(width, src, bytes, &pos, k, v, err);
        if (rc != 0) return rc;
        values_store(dst + start * width, width, k, v);
    }
    if (pos != bytes) {
        return MU_CORRUPT(err, "T64 stream byte %zu: %zu bytes left after %zu values", pos,
                          bytes - pos, count);
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Dispatch                                                           */
/* ------------------------------------------------------------------ */

size_t part__codec_transform_bound(uint8_t id, unsigned width, size_t src_bytes) {
    switch (id) {
    case PART_CODEC_DELTA: return src_bytes;
    case PART_CODEC_DOUBLE_DELTA: return dd_bound(width, src_bytes);
    case PART_CODEC_GORILLA: return part__codec_gorilla_bound(width, src_bytes);
    case PART_CODEC_T64: return t64_bound(width, src_bytes);
    default: MU_ASSERT(!"not a transform"); return 0;
    }
}

size_t part__codec_transform_min(uint8_t id, unsigned width, size_t src_bytes) {
    switch (id) {
    case PART_CODEC_DELTA: return src_bytes;
    case PART_CODEC_DOUBLE_DELTA: return dd_min(width, src_bytes);
    case PART_CODEC_GORILLA: return part__codec_gorilla_min(width, src_bytes);
    case PART_CODEC_T64: return t64_min(width, src_bytes);
    default: MU_ASSERT(!"not a transform"); return 0;
    }
}

size_t part__codec_transform_encode(uint8_t id, unsigned width, const uint8_t *src,
                                    size_t src_bytes, uint8_t *dst) {
    MU_ASSERT(width == 1 || width == 2 || width == 4 || width == 8);
    MU_ASSERT(src_bytes % width == 0);
    if (src_bytes == 0) return 0;
    switch (id) {
    case PART_CODEC_DELTA: delta_apply(true, width, src, src_bytes, dst); return src_bytes;
    case PART_CODEC_DOUBLE_DELTA: return dd_encode(width, src, src_bytes, dst);
    case PART_CODEC_GORILLA: return part__codec_gorilla_encode(width, src, src_bytes, dst);
    case PART_CODEC_T64: return t64_encode(width, src, src_bytes, dst);
    default: MU_ASSERT(!"not a transform"); return 0;
    }
}

int part__codec_transform_decode(uint8_t id, unsigned width, const uint8_t *src,
                                 size_t src_bytes, uint8_t *dst, size_t dst_bytes, mu_err *err) {
    MU_ASSERT(width == 1 || width == 2 || width == 4 || width == 8);
    MU_ASSERT(dst_bytes % width == 0);
    if (dst_bytes == 0 || src_bytes == 0) {
        if (dst_bytes == src_bytes) return 0;
        return MU_CORRUPT(err, "%s stream byte 0: %zu bytes for %zu raw bytes",
                          part_codec_id_name(id), src_bytes, dst_bytes);
    }
    switch (id) {
    case PART_CODEC_DELTA:
        if (src_bytes != dst_bytes) {
            return MU_CORRUPT(err, "Delta stream byte 0: %zu bytes for %zu raw bytes", src_bytes,
                              dst_bytes);
        }
        delta_apply(false, width, src, src_bytes, dst);
        return 0;
    case PART_CODEC_DOUBLE_DELTA: return dd_decode(width, src, src_bytes, dst, dst_bytes, err);
    case PART_CODEC_GORILLA:
        return part__codec_gorilla_decode(width, src, src_bytes, dst, dst_bytes, err);
    case PART_CODEC_T64: return t64_decode(width, src, src_bytes, dst, dst_bytes, err);
    default: MU_ASSERT(!"not a transform"); return MU_EINTERNAL;
    }
}
