/* codec_block.c: encoded blocks — the block header (codec.h), running a
 * chain's steps forward to encode and backward to decode, and the general
 * compressors (liblz4, libzstd). Decoding treats its input as hostile:
 * every header field and stage size is checked against the chain's bounds
 * before any memory is allocated from it, and every decompressor's result
 * must match the size the header declared. ZSTD contexts and the LZ4HC
 * state are kept per thread and freed when the thread exits.
 */
#include "storage/part/codec.h"

#include <errno.h>
#include <lz4.h>
#include <lz4hc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* Stage sizes are u32 on disk and LZ4 takes int sizes: the raw maximum
 * plus the worst growth of any chain (Gorilla on 4-byte values: 44 bits per
 * 32, then a compressor's < 1%) must fit both. */
_Static_assert(PART_CODEC_RAW_BYTES_MAX / 2 * 3 <= (size_t)LZ4_MAX_INPUT_SIZE, "LZ4 stage");
_Static_assert(PART_CODEC_RAW_BYTES_MAX / 2 * 3 <= (size_t)UINT32_MAX, "u32 stage sizes");

/* LZ4 emits at most 255 bytes per input byte (match lengths grow by 255
 * per length byte), so a stage more than this many times its compressed
 * size is corrupt; checked before allocating. */
#define LZ4_EXPANSION_MAX 255

/* ------------------------------------------------------------------ */
/* Per-thread compressor state                                        */
/* ------------------------------------------------------------------ */

typedef struct codec_thread_state {
    ZSTD_CCtx *zstd_compress;
    ZSTD_DCtx *zstd_decompress;
    void *lz4hc_state;
} codec_thread_state;

static pthread_once_t thread_key_once = PTHREAD_ONCE_INIT;
static pthread_key_t thread_key;
static int thread_key_rc;

static void thread_state_destroy(void *arg) {
    codec_thread_state *state = arg;
    ZSTD_freeCCtx(state->zstd_compress);
    ZSTD_freeDCtx(state->zstd_decompress);
    free(state->lz4hc_state);
    free(state);
}

static void thread_key_create(void) {
    thread_key_rc = pthread_key_create(&thread_key, thread_state_destroy);
}

static int thread_state_get(codec_thread_state **state_out, mu_err *err) {
    pthread_once(&thread_key_once, thread_key_create);
    if (thread_key_rc != 0) {
        return MU_ERR_SYS(err, MU_EINTERNAL, thread_key_rc, "codec: cannot create a thread key");
    }
    codec_thread_state *state = pthread_getspecific(thread_key);
    if (state == NULL) {
        state = calloc(1, sizeof(*state));
        if (state == NULL) {
            return MU_ERR_SYS(err, MU_ENOMEM, ENOMEM, "codec: cannot allocate per-thread state");
        }
        int rc = pthread_setspecific(thread_key, state);
        if (rc != 0) {
            free(state);
            return MU_ERR_SYS(err, MU_EINTERNAL, rc, "codec: cannot set per-thread state");
        }
    }
    *state_out = state;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Steps                                                              */
/* ------------------------------------------------------------------ */

static bool step_is_compressor(uint8_t id) { return id < PART_CODEC_DELTA; }

/* Largest output of a step for `bytes` input (at most 1.5 GiB). */
static size_t step_bound(const part_codec_step *step, size_t bytes) {
    if (bytes == 0) return 0;
    switch (step->id) {
    case PART_CODEC_NONE: return bytes;
    case PART_CODEC_LZ4:
    case PART_CODEC_LZ4HC: return (size_t)LZ4_compressBound((int)bytes);
    case PART_CODEC_ZSTD: return ZSTD_compressBound(bytes);
    default: return part__codec_transform_bound(step->id, step->param, bytes);
    }
}

/* Smallest output of a step for `bytes` input. */
static size_t step_min(const part_codec_step *step, size_t bytes) {
    if (bytes == 0) return 0;
    switch (step->id) {
    case PART_CODEC_NONE: return bytes;
    case PART_CODEC_LZ4:
    case PART_CODEC_LZ4HC: return (bytes + LZ4_EXPANSION_MAX - 1) / LZ4_EXPANSION_MAX;
    case PART_CODEC_ZSTD: return 1;
    default: return part__codec_transform_min(step->id, step->param, bytes);
    }
}

static int compress_lz4hc(codec_thread_state *state, int level, const uint8_t *src,
                          size_t bytes, uint8_t *dst, size_t capacity, size_t *written,
                          mu_err *err) {
    if (state->lz4hc_state == NULL) {
        state->lz4hc_state = malloc((size_t)LZ4_sizeofStateHC());
        if (state->lz4hc_state == NULL) {
            return MU_ERR_SYS(err, MU_ENOMEM, ENOMEM, "codec LZ4HC: cannot allocate its state");
        }
    }
    int n = LZ4_compress_HC_extStateHC(state->lz4hc_state, (const char *)src, (char *)dst,
                                       (int)bytes, (int)capacity, level);
    if (n <= 0) return MU_ERR(err, MU_EINTERNAL, "codec LZ4HC failed on %zu bytes", bytes);
    *written = (size_t)n;
    return 0;
}

/* Runs compressor `step` over src into dst (capacity >= step_bound). */
static int compress_step(const part_codec_step *step, const uint8_t *src, size_t bytes,
                         uint8_t *dst, size_t capacity, size_t *written, mu_err *err) {
    *written = 0;
    if (bytes == 0) return 0;
    if (step->id == PART_CODEC_NONE) {
        memcpy(dst, src, bytes);
        *written = bytes;
        return 0;
    }
    if (step->id == PART_CODEC_LZ4) {
        int n = LZ4_compress_default((const char *)src, (char *)dst, (int)bytes, (int)capacity);
        if (n <= 0) return MU_ERR(err, MU_EINTERNAL, "codec LZ4 failed on %zu bytes", bytes);
        *written = (size_t)n;
        return 0;
    }
    codec_thread_state *state = NULL;
    int rc = thread_state_get(&state, err);
    if (rc != 0) return rc;
    if (step->id == PART_CODEC_LZ4HC) {
        return compress_lz4hc(state, step->param, src, bytes, dst, capacity, written, err);
    }
    MU_ASSERT(step->id == PART_CODEC_ZSTD);
    if (state->zstd_compress == NULL) state->zstd_compress = ZSTD_createCCtx();
    if (state->zstd_compress == NULL) {
        return MU_ERR_SYS(err, MU_ENOMEM, ENOMEM, "codec ZSTD: cannot create a context");
    }
    size_t n = ZSTD_compressCCtx(state->zstd_compress, dst, capacity, src, bytes, step->param);
    if (ZSTD_isError(n)) {
        return MU_ERR(err, MU_EINTERNAL, "codec ZSTD(%u) failed on %zu bytes: %s",
                      (unsigned)step->param, bytes, ZSTD_getErrorName(n));
    }
    *written = n;
    return 0;
}

/* Undoes compressor `step`: src[0..src_bytes) must expand to exactly
 * dst_bytes. */
static int decompress_step(const part_codec_step *step, const uint8_t *src, size_t src_bytes,
                           uint8_t *dst, size_t dst_bytes, mu_err *err) {
    const char *name = part_codec_id_name(step->id);
    if (step->id == PART_CODEC_NONE) {
        MU_ASSERT(src_bytes == dst_bytes); /* checked with the header */
        if (src_bytes > 0) memcpy(dst, src, src_bytes);
        return 0;
    }
    if (dst_bytes == 0) return 0; /* header check: then src_bytes is 0 too */
    if (step->id == PART_CODEC_LZ4 || step->id == PART_CODEC_LZ4HC) {
        int n = LZ4_decompress_safe((const char *)src, (char *)dst, (int)src_bytes,
                                    (int)dst_bytes);
        if (n < 0 || (size_t)n != dst_bytes) {
            return MU_CORRUPT(err, "%s payload of %zu bytes does not decompress to the declared "
                              "%zu bytes (result %d)", name, src_bytes, dst_bytes, n);
        }
        return 0;
    }
    MU_ASSERT(step->id == PART_CODEC_ZSTD);
    codec_thread_state *state = NULL;
    int rc = thread_state_get(&state, err);
    if (rc != 0) return rc;
    if (state->zstd_decompress == NULL) state->zstd_decompress = ZSTD_createDCtx();
    if (state->zstd_decompress == NULL) {
        return MU_ERR_SYS(err, MU_ENOMEM, ENOMEM, "codec ZSTD: cannot create a context");
    }
    size_t n = ZSTD_decompressDCtx(state->zstd_decompress, dst, dst_bytes, src, src_bytes);
    if (ZSTD_isError(n) || n != dst_bytes) {
        return MU_CORRUPT(err, "ZSTD payload of %zu bytes does not decompress to the declared "
                          "%zu bytes (%s)", src_bytes, dst_bytes,
                          ZSTD_isError(n) ? ZSTD_getErrorName(n) : "size differs");
    }
    return 0;
}

/* Before anything is allocated for a ZSTD payload: it must be exactly one
 * frame whose header declares the expected content size. */
static int zstd_frame_check(const uint8_t *payload, size_t bytes, size_t content_bytes,
                            size_t at, mu_err *err) {
    unsigned long long declared = ZSTD_getFrameContentSize(payload, bytes);
    size_t frame_bytes = ZSTD_findFrameCompressedSize(payload, bytes);
    if (declared != content_bytes || ZSTD_isError(frame_bytes) || frame_bytes != bytes) {
        return MU_CORRUPT(err, "codec block byte %zu: ZSTD payload is not one frame of %zu "
                          "content bytes", at, content_bytes);
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Header                                                             */
/* ------------------------------------------------------------------ */

/* Writes the header for a payload already in place right after it. */
static void header_write(uint8_t *dst, const part_codec_chain *chain,
                         const uint32_t *stage_bytes) {
    unsigned n = chain->step_count;
    dst[0] = PART_CODEC_FORMAT_VERSION;
    dst[1] = (uint8_t)n;
    for (unsigned i = 0; i < n; i++) {
        dst[2 + 2 * i] = chain->steps[i].id;
        dst[3 + 2 * i] = chain->steps[i].param;
    }
    for (unsigned i = 0; i <= n; i++) mu_store_u32le(dst + 2 + 2 * n + 4 * i, stage_bytes[i]);
    size_t checked_bytes = PART_CODEC_HEADER_BYTES(n) - 4;
    uint32_t crc = mu_crc32c(0, dst, checked_bytes);
    crc = mu_crc32c(crc, dst + PART_CODEC_HEADER_BYTES(n), stage_bytes[n]);
    mu_store_u32le(dst + checked_bytes, crc);
}

/* Checks the stage sizes of a header against the steps' bounds. */
static int header_check_stages(const part_codec_block_info *info, mu_err *err) {
    unsigned n = info->chain.step_count;
    size_t sizes_at = 2 + 2 * (size_t)n;
    if (info->raw_bytes > PART_CODEC_RAW_BYTES_MAX) {
        return MU_CORRUPT(err, "codec block byte %zu: raw size %u passes the maximum %zu",
                          sizes_at, info->raw_bytes, PART_CODEC_RAW_BYTES_MAX);
    }
    for (unsigned i = 0; i < n; i++) {
        const part_codec_step *step = &info->chain.steps[i];
        size_t in = info->stage_bytes[i], got = info->stage_bytes[i + 1];
        const char *name = part_codec_id_name(step->id);
        if (!step_is_compressor(step->id) && in % step->param != 0) {
            return MU_CORRUPT(err, "codec block byte %zu: %s input of %zu bytes is not a "
                              "multiple of its width %u", sizes_at + 4 * i, name, in,
                              (unsigned)step->param);
        }
        if (got > step_bound(step, in) || got < step_min(step, in)) {
            return MU_CORRUPT(err, "codec block byte %zu: %s cannot turn %zu bytes into %zu",
                              sizes_at + 4 * (i + 1), name, in, got);
        }
    }
    return 0;
}

int part_codec_block_info_read(const uint8_t *block, size_t block_bytes,
                               part_codec_block_info *info_out, mu_err *err) {
    MU_ASSERT(block != NULL || block_bytes == 0);
    MU_ASSERT(info_out != NULL);
    part_codec_block_info info;
    memset(&info, 0, sizeof(info));
    if (block_bytes < 2) {
        return MU_CORRUPT(err, "codec block byte 0: %zu bytes is too short for a header",
                          block_bytes);
    }
    if (block[0] != PART_CODEC_FORMAT_VERSION) {
        return MU_CORRUPT(err, "codec block byte 0: unknown format version %u", block[0]);
    }
    unsigned n = block[1];
    if (n < 1 || n > PART_CODEC_STEPS_MAX) {
        return MU_CORRUPT(err, "codec block byte 1: %u steps, not 1..%d", n, PART_CODEC_STEPS_MAX);
    }
    info.header_bytes = PART_CODEC_HEADER_BYTES(n);
    if (block_bytes < info.header_bytes) {
        return MU_CORRUPT(err, "codec block byte %zu: header of %u bytes is truncated",
                          block_bytes, info.header_bytes);
    }
    info.chain.step_count = (uint8_t)n;
    for (unsigned i = 0; i < n; i++) {
        info.chain.steps[i].id = block[2 + 2 * i];
        info.chain.steps[i].param = block[3 + 2 * i];
    }
    mu_err chain_err;
    mu_err_clear(&chain_err);
    if (part_codec_chain_check(&info.chain, &chain_err) != 0) {
        return MU_CORRUPT(err, "codec block byte 2: bad chain: %s", chain_err.message);
    }
    for (unsigned i = 0; i <= n; i++) {
        info.stage_bytes[i] = mu_load_u32le(block + 2 + 2 * n + 4 * i);
    }
    info.raw_bytes = info.stage_bytes[0];
    info.payload_bytes = info.stage_bytes[n];
    info.checksum = mu_load_u32le(block + info.header_bytes - 4);
    info.block_bytes = (size_t)info.header_bytes + info.payload_bytes;
    int rc = header_check_stages(&info, err);
    if (rc != 0) return rc;
    if (info.payload_bytes > block_bytes - info.header_bytes) {
        return MU_CORRUPT(err, "codec block byte %u: payload of %u bytes runs past the %zu "
                          "bytes available", info.header_bytes, info.payload_bytes,
                          block_bytes - info.header_bytes);
    }
    *info_out = info;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Encode                                                             */
/* ------------------------------------------------------------------ */

size_t part_codec_encode_bound(const part_codec_chain *chain, size_t src_bytes) {
    MU_ASSERT(chain != NULL);
    if (src_bytes > PART_CODEC_RAW_BYTES_MAX || part_codec_chain_check(chain, NULL) != 0) return 0;
    size_t bytes = src_bytes;
    for (unsigned i = 0; i < chain->step_count; i++) bytes = step_bound(&chain->steps[i], bytes);
    return PART_CODEC_HEADER_BYTES(chain->step_count) + bytes;
}

/* Checks the arguments of an encode: the chain and the input length. */
static int encode_check(const part_codec_chain *chain, size_t src_bytes, mu_err *err) {
    int rc = part_codec_chain_check(chain, err);
    if (rc != 0) return rc;
    if (src_bytes > PART_CODEC_RAW_BYTES_MAX) {
        return MU_ERR(err, MU_ETOO_LARGE, "codec block of %zu bytes passes the maximum %zu",
                      src_bytes, PART_CODEC_RAW_BYTES_MAX);
    }
    for (unsigned i = 0; i < chain->step_count; i++) {
        const part_codec_step *step = &chain->steps[i];
        if (!step_is_compressor(step->id) && src_bytes % step->param != 0) {
            return MU_ERR(err, MU_EINVAL, "codec %s: %zu bytes is not a whole number of "
                          "%u-byte values", part_codec_id_name(step->id), src_bytes,
                          (unsigned)step->param);
        }
    }
    return 0;
}

int part_codec_encode(const part_codec_chain *chain, const void *src, size_t src_bytes,
                      mu_buf *out, mu_err *err) {
    MU_ASSERT(chain != NULL && out != NULL);
    MU_ASSERT(src != NULL || src_bytes == 0);
    int rc = encode_check(chain, src_bytes, err);
    if (rc != 0) return rc;
    unsigned n = chain->step_count;
    if (src_bytes == 0) {
        /* Every stage of an empty block is empty; no step runs. */
        uint8_t header[PART_CODEC_HEADER_BYTES_MAX];
        uint32_t zero_stages[PART_CODEC_STEPS_MAX + 1] = {0};
        header_write(header, chain, zero_stages);
        return mu_buf_append(out, header, PART_CODEC_HEADER_BYTES(n), err);
    }
    size_t bound[PART_CODEC_STEPS_MAX + 1] = {src_bytes};
    size_t scratch_bytes = 0;
    for (unsigned i = 0; i < n; i++) {
        bound[i + 1] = step_bound(&chain->steps[i], bound[i]);
        if (i + 1 < n) scratch_bytes = MU_MAX(scratch_bytes, bound[i + 1]);
    }
    size_t start = out->length_bytes;
    size_t header_bytes = PART_CODEC_HEADER_BYTES(n);
    uint8_t *scratch = NULL;
    rc = mu_buf_reserve(out, header_bytes + bound[n], err);
    if (rc != 0) goto fail;
    if (scratch_bytes > 0) {
        scratch = malloc(2 * scratch_bytes);
        if (scratch == NULL) {
            rc = MU_ERR_SYS(err, MU_ENOMEM, ENOMEM, "codec: cannot allocate %zu scratch bytes",
                            2 * scratch_bytes);
            goto fail;
        }
    }
    uint32_t stage_bytes[PART_CODEC_STEPS_MAX + 1] = {(uint32_t)src_bytes};
    const uint8_t *cur = src;
    for (unsigned i = 0; i < n; i++) {
        const part_codec_step *step = &chain->steps[i];
        uint8_t *dst = i + 1 == n ? out->data + start + header_bytes
                                  : scratch + (i % 2) * scratch_bytes;
        size_t written = 0;
        if (step_is_compressor(step->id)) {
            rc = compress_step(step, cur, stage_bytes[i], dst, bound[i + 1], &written, err);
            if (rc != 0) goto fail;
        } else {
            written = part__codec_transform_encode(step->id, step->param, cur, stage_bytes[i], dst);
        }
        MU_ASSERT(written <= bound[i + 1]);
        stage_bytes[i + 1] = (uint32_t)written;
        cur = dst;
    }
    header_write(out->data + start, chain, stage_bytes);
    out->length_bytes = start + header_bytes + stage_bytes[n];
    free(scratch);
    return 0;
fail:
    free(scratch);
    out->length_bytes = start;
    return rc;
}

/* ------------------------------------------------------------------ */
/* Decode                                                             */
/* ------------------------------------------------------------------ */

/* Undoes the steps of a checked block, last first, into dst. */
static int decode_steps(const part_codec_block_info *info, const uint8_t *payload, uint8_t *dst,
                        mu_err *err) {
    unsigned n = info->chain.step_count;
    size_t scratch_bytes = 0;
    for (unsigned i = 1; i < n; i++) scratch_bytes = MU_MAX(scratch_bytes, info->stage_bytes[i]);
    uint8_t *scratch = NULL;
    if (scratch_bytes > 0) {
        scratch = malloc(2 * scratch_bytes);
        if (scratch == NULL) {
            return MU_ERR_SYS(err, MU_ENOMEM, ENOMEM, "codec: cannot allocate %zu scratch bytes",
                              2 * scratch_bytes);
        }
    }
    int rc = 0;
    const uint8_t *cur = payload;
    for (unsigned i = n; i-- > 0;) {
        const part_codec_step *step = &info->chain.steps[i];
        uint8_t *target = i == 0 ? dst : scratch + (i % 2) * scratch_bytes;
        if (step_is_compressor(step->id)) {
            rc = decompress_step(step, cur, info->stage_bytes[i + 1], target,
                                 info->stage_bytes[i], err);
        } else {
            rc = part__codec_transform_decode(step->id, step->param, cur,
                                              info->stage_bytes[i + 1], target,
                                              info->stage_bytes[i], err);
        }
        if (rc != 0) {
            char name[96];
            mu_err_prefix(err, "codec block (%s) step %u",
                          part_codec_chain_name(&info->chain, name, sizeof(name)), i + 1);
            break;
        }
        cur = target;
    }
    free(scratch);
    return rc;
}

int part_codec_decode(const uint8_t *block, size_t block_bytes, mu_buf *out, size_t *consumed,
                      mu_err *err) {
    MU_ASSERT(block != NULL || block_bytes == 0);
    MU_ASSERT(out != NULL);
    part_codec_block_info info;
    int rc = part_codec_block_info_read(block, block_bytes, &info, err);
    if (rc != 0) return rc;
    const uint8_t *payload = block + info.header_bytes;
    uint32_t crc = mu_crc32c(0, block, info.header_bytes - 4u);
    crc = mu_crc32c(crc, payload, info.payload_bytes);
    if (crc != info.checksum) {
        char name[96];
        return MU_CORRUPT(err, "codec block (%s) byte %u: checksum 0x%08x does not match "
                          "0x%08x computed over %u header and %u payload bytes",
                          part_codec_chain_name(&info.chain, name, sizeof(name)),
                          info.header_bytes - 4u, info.checksum, crc, info.header_bytes - 4u,
                          info.payload_bytes);
    }
    if (info.raw_bytes > out->max_bytes - MU_MIN(out->length_bytes, out->max_bytes)) {
        return MU_ERR(err, MU_ETOO_LARGE, "codec block of %u raw bytes does not fit in the "
                      "output buffer (maximum %zu bytes, %zu used)", info.raw_bytes,
                      out->max_bytes, out->length_bytes);
    }
    unsigned last = info.chain.step_count - 1u;
    if (info.chain.steps[last].id == PART_CODEC_ZSTD && info.payload_bytes > 0) {
        rc = zstd_frame_check(payload, info.payload_bytes, info.stage_bytes[last],
                              info.header_bytes, err);
        if (rc != 0) return rc;
    }
    if (info.raw_bytes > 0) {
        /* A raw size of 0 forces every stage to 0 (header_check_stages). */
        rc = mu_buf_reserve(out, info.raw_bytes, err);
        if (rc != 0) return rc;
        rc = decode_steps(&info, payload, out->data + out->length_bytes, err);
        if (rc != 0) return rc;
        out->length_bytes += info.raw_bytes;
    }
    if (consumed != NULL) *consumed = info.block_bytes;
    return 0;
}
