/* varint.c: unsigned LEB128, the variable-length integer of ClickHouse's
 * Native and RowBinary formats and of our own WAL and part metadata.
 *
 * Each byte carries 7 value bits, least significant group first; the high
 * bit says another byte follows. A u64 needs at most 10 bytes, and the 10th
 * may only carry bit 63 (value 0 or 1). Decoding treats its input as hostile:
 * truncated, overlong (>10 bytes) and overflowing sequences are rejected.
 * Non-minimal encodings (0x80 0x00 for 0) are accepted, as ClickHouse does.
 */
#include "base/base.h"

size_t mu_varint_size(uint64_t v) {
    int bits = 64 - __builtin_clzll(v | 1);
    return (size_t)(bits + 6) / 7;
}

size_t mu_varint_encode(uint64_t v, uint8_t out[MU_VARINT_MAX_BYTES]) {
    MU_ASSERT(out != NULL);
    size_t n = 0;
    while (v >= 0x80) {
        out[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    out[n++] = (uint8_t)v;
    MU_ASSERT(n <= MU_VARINT_MAX_BYTES);
    return n;
}

size_t mu_varint_decode(const uint8_t *p, size_t length_bytes, uint64_t *value_out) {
    MU_ASSERT(p != NULL || length_bytes == 0);
    MU_ASSERT(value_out != NULL);
    size_t limit = MU_MIN(length_bytes, (size_t)MU_VARINT_MAX_BYTES);
    uint64_t v = 0;
    for (size_t i = 0; i < limit; i++) {
        uint8_t byte = p[i];
        if (i == MU_VARINT_MAX_BYTES - 1 && byte > 1) return 0; /* past bit 63 */
        v |= (uint64_t)(byte & 0x7f) << (7 * i);
        if ((byte & 0x80) == 0) {
            *value_out = v;
            return i + 1;
        }
    }
    return 0; /* truncated, or 10 bytes that all say "more follows" */
}
