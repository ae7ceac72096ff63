/* codec_gorilla.c: the Gorilla transform (XOR of each value with the one
 * before, after Pelkonen et al., "Gorilla: A Fast, Scalable, In-Memory Time
 * Series Database", VLDB 2015) for 4- and 8-byte values. It works on raw
 * bits, so NaN payloads, -0.0 and denormals round-trip exactly, and it
 * applies to integers of the same width. The bit stream is packed
 * least-significant bit first; its layout is in docs/formats/codecs.md.
 * The decoder checks every field and that the stream ends exactly.
 */
#include "storage/part/codec.h"

#include <string.h>

/* Bits of the "leading zeros" and "meaningful length - 1" fields. */
static inline unsigned gorilla_field_bits(unsigned width) { return width == 8 ? 6 : 5; }

size_t part__codec_gorilla_bound(unsigned width, size_t src_bytes) {
    size_t count = src_bytes / width;
    if (count == 0) return 0;
    size_t value_bits = 8 * (size_t)width;
    size_t worst = 2 + 2 * gorilla_field_bits(width) + value_bits;
    return (value_bits + (count - 1) * worst + 7) / 8;
}

size_t part__codec_gorilla_min(unsigned width, size_t src_bytes) {
    size_t count = src_bytes / width;
    if (count == 0) return 0;
    return (8 * (size_t)width + (count - 1) + 7) / 8;
}

/* ------------------------------------------------------------------ */
/* Bit writer and reader                                              */
/* ------------------------------------------------------------------ */

typedef struct bit_writer {
    uint8_t *dst;
    size_t pos_bytes; /* whole words written so far */
    uint64_t acc;     /* pending bits, the oldest in bit 0 */
    unsigned fill;    /* pending bit count, 0..63 */
} bit_writer;

/* Appends the low n bits of v (n 1..64, v < 2^n). */
static inline void bit_put(bit_writer *w, uint64_t v, unsigned n) {
    w->acc |= v << w->fill;
    if (w->fill + n < 64) {
        w->fill += n;
        return;
    }
    mu_store_u64le(w->dst + w->pos_bytes, w->acc);
    w->pos_bytes += 8;
    unsigned taken = 64 - w->fill;
    w->acc = taken == 64 ? 0 : v >> taken;
    w->fill = w->fill + n - 64;
}

static size_t bit_finish(bit_writer *w) {
    size_t tail = (w->fill + 7) / 8;
    for (size_t i = 0; i < tail; i++) w->dst[w->pos_bytes + i] = (uint8_t)(w->acc >> (8 * i));
    return w->pos_bytes + tail;
}

typedef struct bit_reader {
    const uint8_t *src;
    size_t bytes;
    size_t bit_pos;
    size_t bit_end; /* 8 * bytes */
} bit_reader;

/* The next bits of the stream from bit_pos on, at least 57 of them (bits
 * past the end read as 0); the caller checks how many really remain. */
static inline uint64_t bit_peek(const bit_reader *r) {
    size_t at = r->bit_pos >> 3;
    uint64_t word = 0;
    if (r->bytes - at >= 8) {
        word = mu_load_u64le(r->src + at);
    } else {
        for (size_t i = 0; i < r->bytes - at; i++) word |= (uint64_t)r->src[at + i] << (8 * i);
    }
    return word >> (r->bit_pos & 7);
}

/* Reads n bits (1..64) into *v; false if the stream has fewer left. */
static inline bool bit_get(bit_reader *r, unsigned n, uint64_t *v) {
    if (n > r->bit_end - r->bit_pos) return false;
    uint64_t x = bit_peek(r);
    unsigned shift = (unsigned)(r->bit_pos & 7);
    /* Only when 57+ bits start mid-byte does the value reach a 9th byte,
     * which the length check above proved present. */
    if (shift + n > 64) x |= (uint64_t)r->src[(r->bit_pos >> 3) + 8] << (64 - shift);
    *v = n == 64 ? x : x & (((uint64_t)1 << n) - 1);
    r->bit_pos += n;
    return true;
}

/* ------------------------------------------------------------------ */
/* Encode and decode                                                  */
/* ------------------------------------------------------------------ */

static inline uint64_t gorilla_load(const uint8_t *p, unsigned width) {
    return width == 8 ? mu_load_u64le(p) : mu_load_u32le(p);
}

/* The body is inlined into width-specific callers so the width is a
 * constant in the loop. */
static inline __attribute__((always_inline)) size_t
gorilla_encode_width(unsigned width, const uint8_t *src, size_t count, uint8_t *dst) {
    const unsigned value_bits = 8 * width;
    const unsigned field_bits = gorilla_field_bits(width);
    bit_writer w = {.dst = dst};
    uint64_t prev = gorilla_load(src, width);
    bit_put(&w, prev, value_bits);
    unsigned window_lead = 0, window_len = 0; /* window_len 0: no window yet */
    for (size_t i = 1; i < count; i++) {
        uint64_t v = gorilla_load(src + i * width, width);
        uint64_t x = v ^ prev;
        prev = v;
        if (x == 0) {
            bit_put(&w, 0, 1);
            continue;
        }
        unsigned lead = (unsigned)__builtin_clzll(x) - (64 - value_bits);
        unsigned trail = (unsigned)__builtin_ctzll(x);
        unsigned len = value_bits - lead - trail;
        /* Reuse the previous window when x fits in it and that is not
         * dearer than describing a new one. */
        if (window_len != 0 && lead >= window_lead &&
            trail >= value_bits - window_lead - window_len &&
            window_len <= len + 2 * field_bits) {
            bit_put(&w, 1, 2); /* bits 1, 0 */
            bit_put(&w, x >> (value_bits - window_lead - window_len), window_len);
            continue;
        }
        bit_put(&w, 3 | (uint64_t)lead << 2 | (uint64_t)(len - 1) << (2 + field_bits),
                2 + 2 * field_bits);
        bit_put(&w, x >> trail, len);
        window_lead = lead;
        window_len = len;
    }
    return bit_finish(&w);
}

size_t part__codec_gorilla_encode(unsigned width, const uint8_t *src, size_t src_bytes,
                                  uint8_t *dst) {
    MU_ASSERT(width == 4 || width == 8);
    MU_ASSERT(src_bytes % width == 0);
    size_t count = src_bytes / width;
    if (count == 0) return 0;
    size_t written = width == 8 ? gorilla_encode_width(8, src, count, dst)
                                : gorilla_encode_width(4, src, count, dst);
    MU_ASSERT(written <= part__codec_gorilla_bound(width, src_bytes));
    return written;
}

/* Reads the XOR of value i with value i-1 into *x; returns NULL or a
 * static reason the stream is bad. The control bits and window fields
 * (at most 14 bits) come from one peek. */
static inline __attribute__((always_inline)) const char *
gorilla_read_xor(bit_reader *r, unsigned width, unsigned *window_lead, unsigned *window_len,
                 uint64_t *x) {
    const unsigned value_bits = 8 * width;
    const unsigned field_bits = gorilla_field_bits(width);
    size_t left = r->bit_end - r->bit_pos;
    uint64_t peek = bit_peek(r);
    if (left < 1) return "truncated";
    if ((peek & 1) == 0) {
        r->bit_pos += 1;
        *x = 0;
        return NULL;
    }
    if (left < 2) return "truncated";
    if ((peek & 2) != 0) {
        if (left < 2 + 2 * field_bits) return "truncated";
        uint64_t fields = peek >> 2;
        unsigned lead = (unsigned)(fields & ((1u << field_bits) - 1));
        unsigned len = (unsigned)((fields >> field_bits) & ((1u << field_bits) - 1)) + 1;
        if (lead + len > value_bits) return "leading zeros plus length pass the value width";
        *window_lead = lead;
        *window_len = len;
        r->bit_pos += 2 + 2 * field_bits;
    } else if (*window_len == 0) {
        return "reuses a window before one was set";
    } else {
        r->bit_pos += 2;
    }
    uint64_t meaningful;
    if (!bit_get(r, *window_len, &meaningful)) return "truncated";
    *x = meaningful << (value_bits - *window_lead - *window_len);
    return NULL;
}

static inline __attribute__((always_inline)) int
gorilla_decode_width(unsigned width, bit_reader *r, uint8_t *dst, size_t count, mu_err *err) {
    uint64_t prev;
    if (!bit_get(r, 8 * width, &prev)) {
        return MU_CORRUPT(err, "Gorilla(%u) stream byte 0: too short for the first value", width);
    }
    unsigned window_lead = 0, window_len = 0;
    for (size_t i = 0; i < count; i++) {
        if (i > 0) {
            size_t at = r->bit_pos / 8;
            uint64_t x;
            const char *problem = gorilla_read_xor(r, width, &window_lead, &window_len, &x);
            if (problem != NULL) {
                return MU_CORRUPT(err, "Gorilla(%u) stream byte %zu, value %zu: %s", width, at,
                                  i, problem);
            }
            prev ^= x;
        }
        if (width == 8) {
            mu_store_u64le(dst + 8 * i, prev);
        } else {
            mu_store_u32le(dst + 4 * i, (uint32_t)prev);
        }
    }
    return 0;
}

int part__codec_gorilla_decode(unsigned width, const uint8_t *src, size_t src_bytes,
                               uint8_t *dst, size_t dst_bytes, mu_err *err) {
    MU_ASSERT(width == 4 || width == 8);
    MU_ASSERT(dst_bytes % width == 0);
    size_t count = dst_bytes / width;
    if (count == 0) {
        if (src_bytes == 0) return 0;
        return MU_CORRUPT(err, "Gorilla(%u) stream byte 0: %zu bytes for no values", width,
                          src_bytes);
    }
    bit_reader r = {.src = src, .bytes = src_bytes, .bit_end = 8 * src_bytes};
    int rc = width == 8 ? gorilla_decode_width(8, &r, dst, count, err)
                        : gorilla_decode_width(4, &r, dst, count, err);
    if (rc != 0) return rc;
    size_t used = (r.bit_pos + 7) / 8;
    if (used != src_bytes) {
        return MU_CORRUPT(err, "Gorilla(%u) stream byte %zu: %zu bytes left after %zu values",
                          width, used, src_bytes - used, count);
    }
    unsigned tail_bits = (unsigned)(r.bit_pos & 7);
    if (tail_bits != 0 && (src[used - 1] >> tail_bits) != 0) {
        return MU_CORRUPT(err, "Gorilla(%u) stream byte %zu: padding bits set", width, used - 1);
    }
    return 0;
}
