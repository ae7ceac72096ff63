/* escape.c: the string escaping of the text writers, one copy each:
 * TabSeparated (ClickHouse's writeEscapedString: \b \f \n \r \t \0 \' \\)
 * and JSON (writeJSONString: \" \\ \/ \b \f \n \r \t, other bytes below
 * 0x20 as \u00XX, U+2028 and U+2029 as \u2028 / \u2029, everything else
 * as is). Speed: strings are most of the bytes of a text result, and most
 * of their bytes need no escape. Where SSE2 is there (every x86-64) the
 * next byte that may need one is found 16 bytes at a time; the runs
 * between are copied whole.
 */
#include "formats/formats_int.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* The escape letter of each byte TSV escapes, else 0. */
static const char tsv_escapes[256] = {
    ['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't',
    ['\0'] = '0', ['\\'] = '\\', ['\''] = '\'',
};

/* The escape letter of each byte JSON escapes as a pair, 'u' for the
 * other control bytes (\u00XX), 'E' for the lead byte of U+2028 and
 * U+2029 (checked with the two after it), else 0. */
static const char json_escapes[256] = {
    [0x00] = 'u', [0x01] = 'u', [0x02] = 'u', [0x03] = 'u', [0x04] = 'u', [0x05] = 'u',
    [0x06] = 'u', [0x07] = 'u', ['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n', [0x0B] = 'u',
    ['\f'] = 'f', ['\r'] = 'r', [0x0E] = 'u', [0x0F] = 'u', [0x10] = 'u', [0x11] = 'u',
    [0x12] = 'u', [0x13] = 'u', [0x14] = 'u', [0x15] = 'u', [0x16] = 'u', [0x17] = 'u',
    [0x18] = 'u', [0x19] = 'u', [0x1A] = 'u', [0x1B] = 'u', [0x1C] = 'u', [0x1D] = 'u',
    [0x1E] = 'u', [0x1F] = 'u', ['"'] = '"', ['\\'] = '\\', ['/'] = '/',
    [0xE2] = 'E',
};

/* The first i' >= i with table[s[i']] != 0, or n. `low` is the largest
 * control byte the table holds, `a` to `d` its other bytes (repeat one
 * when fewer). */
static size_t esc_next(const uint8_t *s, size_t i, size_t n, const char *table, uint8_t low,
                       uint8_t a, uint8_t b, uint8_t c, uint8_t d) {
#ifdef __SSE2__
    const __m128i vlow = _mm_set1_epi8((char)low), va = _mm_set1_epi8((char)a),
                  vb = _mm_set1_epi8((char)b), vc = _mm_set1_epi8((char)c),
                  vd = _mm_set1_epi8((char)d);
    while (i + 16 <= n) {
        __m128i x = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i hit = _mm_cmpeq_epi8(_mm_min_epu8(x, vlow), x); /* x <= low */
        hit = _mm_or_si128(hit, _mm_cmpeq_epi8(x, va));
        hit = _mm_or_si128(hit, _mm_cmpeq_epi8(x, vb));
        hit = _mm_or_si128(hit, _mm_cmpeq_epi8(x, vc));
        hit = _mm_or_si128(hit, _mm_cmpeq_epi8(x, vd));
        unsigned mask = (unsigned)_mm_movemask_epi8(hit);
        while (mask != 0) {
            unsigned k = (unsigned)__builtin_ctz(mask);
            if (table[s[i + k]] != 0) return i + k;
            mask &= mask - 1;
        }
        i += 16;
    }
#else
    (void)low, (void)a, (void)b, (void)c, (void)d;
#endif
    while (i < n && table[s[i]] == 0) i++;
    return i;
}

int fmt__tsv_escape(const uint8_t *s, size_t n, mu_buf *out, mu_err *err) {
    /* Speed: room for the worst case (every byte escaped) once, then
     * plain stores. */
    size_t worst;
    if (n == 0) return 0;
    if (!mu_size_mul(n, 2, &worst)) return MU_ERR(err, MU_ETOO_LARGE, "string too long to escape");
    int rc = mu_buf_reserve(out, worst, err);
    if (rc != 0) return rc;
    uint8_t *o = out->data + out->length_bytes;
    size_t from = 0;
    for (;;) {
        size_t i = esc_next(s, from, n, tsv_escapes, '\r', '\\', '\'', '\\', '\\');
        memcpy(o, s + from, i - from);
        o += i - from;
        if (i == n) break;
        o[0] = '\\';
        o[1] = (uint8_t)tsv_escapes[s[i]];
        o += 2;
        from = i + 1;
    }
    out->length_bytes = (size_t)(o - out->data);
    return 0;
}

int fmt__json_escape(const uint8_t *s, size_t n, mu_buf *out, mu_err *err) {
    static const char hex[] = "0123456789ABCDEF";
    size_t worst;
    if (n == 0) return 0;
    if (!mu_size_mul(n, 6, &worst)) return MU_ERR(err, MU_ETOO_LARGE, "string too long to escape");
    int rc = mu_buf_reserve(out, worst, err);
    if (rc != 0) return rc;
    uint8_t *o = out->data + out->length_bytes;
    size_t from = 0, i = 0;
    for (;;) {
        i = esc_next(s, i, n, json_escapes, 0x1F, '"', '\\', '/', 0xE2);
        char esc = i < n ? json_escapes[s[i]] : 0;
        bool line_sep = esc == 'E' && i + 2 < n && s[i + 1] == 0x80 &&
                        (s[i + 2] == 0xA8 || s[i + 2] == 0xA9);
        if (esc == 'E' && !line_sep) { /* another character led by 0xE2 */
            i++;
            continue;
        }
        memcpy(o, s + from, i - from);
        o += i - from;
        if (i == n) break;
        if (line_sep) {
            memcpy(o, s[i + 2] == 0xA8 ? "\\u2028" : "\\u2029", 6);
            o += 6;
            i += 2;
        } else if (esc == 'u') {
            memcpy(o, "\\u00", 4);
            o[4] = (uint8_t)hex[s[i] >> 4];
            o[5] = (uint8_t)hex[s[i] & 15];
            o += 6;
        } else {
            o[0] = '\\';
            o[1] = (uint8_t)esc;
            o += 2;
        }
        from = i = i + 1;
    }
    out->length_bytes = (size_t)(o - out->data);
    return 0;
}
