/* codec.h: column compression codecs of muscles' on-disk parts, private to
 * src/storage/part. A codec chain is written as inside ClickHouse's
 * CODEC(...) clause ("Delta(4), ZSTD(1)"): value transforms (Delta,
 * DoubleDelta, Gorilla, T64) first, then at most one general compressor
 * (NONE, LZ4, LZ4HC, ZSTD) last. Each encoded block names its chain, so any
 * block decodes without the schema. The algorithms are the published ones;
 * the byte formats are muscles' own (not ClickHouse's), specified below and
 * in docs/formats/codecs.md. All functions are reentrant; ZSTD and LZ4HC keep
 * one context per thread.
 */
#ifndef MUSCLES_PART_CODEC_H
#define MUSCLES_PART_CODEC_H

#include "base/base.h"

/* ------------------------------------------------------------------ */
/* Block format, version 1 (all integers little-endian)
 *
 *   offset       size  field
 *   0            1     format version, 1
 *   1            1     step count n, 1..4
 *   2            2n    steps in the order they were applied when encoding:
 *                        u8 codec id (enum part_codec_id), u8 parameter
 *   2+2n         4     stage 0 bytes: the raw (uncompressed) size,
 *                      at most PART_CODEC_RAW_BYTES_MAX
 *   6+2n         4n    stage 1..n bytes: size after each step; stage n is
 *                      the payload size
 *   6+6n         4     crc32c of bytes [0, 6+6n) followed by the payload
 *   10+6n        ...   payload: stage n bytes
 *
 * The header is 10 + 6n bytes (16 for plain "LZ4"). Parameters: LZ4HC and
 * ZSTD store the level, Delta its width n, DoubleDelta/Gorilla/T64 the value
 * width they were applied with, NONE and LZ4 zero. Decoding verifies the
 * crc32c before it runs any step, then undoes step n-1 first. A block of
 * zero raw bytes has every stage zero bytes. The part writer can copy the
 * checksum into its marks (part_codec_block_info) instead of computing
 * another. The payload of each transform: docs/formats/codecs.md.
 */
/* ------------------------------------------------------------------ */

#define PART_CODEC_FORMAT_VERSION 1
#define PART_CODEC_STEPS_MAX 4
#define PART_CODEC_HEADER_BYTES(n) (10u + 6u * (n))
#define PART_CODEC_HEADER_BYTES_MAX PART_CODEC_HEADER_BYTES(PART_CODEC_STEPS_MAX)
/* Largest raw size of one block. A part block holds one granule (at most
 * 8192 rows), so 1 GiB is far above any real block and keeps every stage
 * size, even after a transform's worst-case growth, inside a u32. */
#define PART_CODEC_RAW_BYTES_MAX ((size_t)1 << 30)

enum part_codec_id {
    /* General compressors: at most one, always last. */
    PART_CODEC_NONE = 0x01,
    PART_CODEC_LZ4 = 0x02,
    PART_CODEC_LZ4HC = 0x03, /* param: level 1..12 */
    PART_CODEC_ZSTD = 0x04,  /* param: level 1..22 */
    /* Transforms of fixed-width little-endian values. */
    PART_CODEC_DELTA = 0x10,        /* param: width 1, 2, 4 or 8 */
    PART_CODEC_DOUBLE_DELTA = 0x11, /* param: value width 1, 2, 4 or 8 */
    PART_CODEC_GORILLA = 0x12,      /* param: value width 4 or 8 */
    PART_CODEC_T64 = 0x13,          /* param: value width 1, 2, 4 or 8 */
};

#define PART_CODEC_LZ4HC_LEVEL_DEFAULT 9
#define PART_CODEC_ZSTD_LEVEL_DEFAULT 1

typedef struct part_codec_step {
    uint8_t id;    /* enum part_codec_id */
    uint8_t param; /* level or width, see enum part_codec_id; 0 if none */
} part_codec_step;

/* An ordered chain. Unused steps are zero so chains compare with memcmp.
 * Rules (part_codec_chain_check): 1..4 steps; Delta steps, then at most one
 * of DoubleDelta/Gorilla/T64 (their output is a bit stream, not values),
 * then at most one compressor; NONE only alone. */
typedef struct part_codec_chain {
    uint8_t step_count;
    part_codec_step steps[PART_CODEC_STEPS_MAX];
} part_codec_chain;

/* What a block header says (part_codec_block_info). */
typedef struct part_codec_block_info {
    part_codec_chain chain;
    uint32_t header_bytes;
    uint32_t raw_bytes;     /* stage_bytes[0] */
    uint32_t payload_bytes; /* stage_bytes[step_count] */
    size_t block_bytes;     /* header_bytes + payload_bytes */
    uint32_t checksum;      /* the stored crc32c (not verified here) */
    uint32_t stage_bytes[PART_CODEC_STEPS_MAX + 1];
} part_codec_block_info;

/* ------------------------------------------------------------------ */
/* Chains                                                             */
/* ------------------------------------------------------------------ */

/* The default chain of a column without CODEC(...): LZ4. */
void part_codec_chain_default(part_codec_chain *chain_out);

/* Parses the text inside CODEC(...) for a column whose values are
 * value_bytes wide (ty_type_value_bytes; 0 for String and other variable
 * layouts, which accept compressors only). Names are case-insensitive;
 * ZSTD defaults to level 1, LZ4HC to 9 (0 also means 9), Delta to the value
 * width. Malformed text is MU_ESYNTAX, a well-formed but invalid chain
 * (unknown codec, bad level or width, order) MU_EINVAL; both messages name
 * the byte offset in text. *chain_out is written only on success. */
int part_codec_chain_parse(const char *text, size_t text_bytes, uint32_t value_bytes,
                           part_codec_chain *chain_out, mu_err *err);

/* Appends the canonical text ClickHouse shows ("Delta(4), ZSTD(1)"); for a
 * chain parsed with value_bytes w, parse(render(c), w) == c. */
int part_codec_chain_render(const part_codec_chain *chain, mu_buf *out, mu_err *err);
/* The same into a fixed buffer, truncated; for messages. Returns out. */
const char *part_codec_chain_name(const part_codec_chain *chain, char *out, size_t out_bytes);

/* MU_EINVAL if chain breaks a rule above (for chains built by hand). */
int part_codec_chain_check(const part_codec_chain *chain, mu_err *err);
bool part_codec_chain_equal(const part_codec_chain *a, const part_codec_chain *b);
/* Canonical name of a codec id ("DoubleDelta"), or NULL if unknown. */
const char *part_codec_id_name(uint8_t id);

/* ------------------------------------------------------------------ */
/* Blocks                                                             */
/* ------------------------------------------------------------------ */

/* Upper bound of the block part_codec_encode appends for src_bytes raw
 * bytes (header included), or 0 if src_bytes passes the raw maximum or the
 * chain is invalid. */
size_t part_codec_encode_bound(const part_codec_chain *chain, size_t src_bytes);

/* Appends one block holding src[0..src_bytes) encoded through chain. The
 * value widths come from the chain's steps: src_bytes must be a multiple of
 * every transform's width (MU_EINVAL otherwise); compressor-only chains
 * take any length. MU_ETOO_LARGE past PART_CODEC_RAW_BYTES_MAX or out's
 * maximum. On failure out is left as it was. */
int part_codec_encode(const part_codec_chain *chain, const void *src, size_t src_bytes,
                      mu_buf *out, mu_err *err);

/* Reads and checks the header of the block at block[0..block_bytes): any
 * bad field, or a payload that does not fit in block_bytes, is MU_ECORRUPT
 * naming the byte offset. Does not read the payload, so the checksum is
 * not verified: only part_codec_decode trusts what it decodes. */
int part_codec_block_info_read(const uint8_t *block, size_t block_bytes,
                               part_codec_block_info *info_out, mu_err *err);

/* Decodes the first block of the untrusted bytes block[0..block_bytes) and
 * appends its raw bytes to out; *consumed (may be NULL) gets the block's
 * size, so blocks can be read back to back. A checksum mismatch or
 * anything inconsistent is MU_ECORRUPT naming the byte offset and the
 * codec; a raw size past out's maximum is MU_ETOO_LARGE. Nothing is
 * allocated before the header's sizes and the checksum have been checked,
 * and then at most the declared raw size plus the intermediate stages.
 * On failure out is left as it was. */
int part_codec_decode(const uint8_t *block, size_t block_bytes, mu_buf *out, size_t *consumed,
                      mu_err *err);

/* ------------------------------------------------------------------ */
/* Private to codec*.c: the transforms (codec_transform.c,            */
/* codec_gorilla.c). Widths are in bytes. Encoders take input that is  */
/* a multiple of the width and a destination of at least              */
/* part__codec_transform_bound() bytes, and return the bytes written. */
/* Decoders check everything and return 0 or MU_ECORRUPT naming the   */
/* byte offset in the transform's stream.                             */
/* ------------------------------------------------------------------ */

size_t part__codec_transform_bound(uint8_t id, unsigned width, size_t src_bytes);
/* Smallest encoded size of src_bytes: lets the decoder reject a declared
 * raw size that its stream is too short to hold. */
size_t part__codec_transform_min(uint8_t id, unsigned width, size_t src_bytes);
size_t part__codec_transform_encode(uint8_t id, unsigned width, const uint8_t *src,
                                    size_t src_bytes, uint8_t *dst);
int part__codec_transform_decode(uint8_t id, unsigned width, const uint8_t *src,
                                 size_t src_bytes, uint8_t *dst, size_t dst_bytes, mu_err *err);

size_t part__codec_gorilla_bound(unsigned width, size_t src_bytes);
size_t part__codec_gorilla_min(unsigned width, size_t src_bytes);
size_t part__codec_gorilla_encode(unsigned width, const uint8_t *src, size_t src_bytes,
                                  uint8_t *dst);
int part__codec_gorilla_decode(unsigned width, const uint8_t *src, size_t src_bytes,
                               uint8_t *dst, size_t dst_bytes, mu_err *err);

#endif /* MUSCLES_PART_CODEC_H */
