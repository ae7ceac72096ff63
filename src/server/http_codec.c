/* http_codec.c: HTTP content codings of ClickHouse's interface: response
 * bodies compressed when the query sets enable_http_compression=1 and the
 * client's Accept-Encoding names gzip, deflate, zstd or lz4; request bodies
 * decompressed by their Content-Encoding. Both are streams: a 10 GB body
 * is never held whole. gzip and deflate use zlib (deflate is the zlib
 * format, as ClickHouse sends it), zstd and lz4 their frame formats.
 */
#include "server/http_codec.h"

#include <lz4frame.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>
#include <zstd.h>

#define CODEC_CHUNK_BYTES (64u * 1024u)

struct http_codec {
    http_coding coding;
    bool decompress;
    z_stream z;
    ZSTD_CStream *zc;
    ZSTD_DStream *zd;
    LZ4F_cctx *lc;
    LZ4F_dctx *ld;
    bool lz4_header_written;
    bool finished;
};

const char *http_coding_name(http_coding c) {
    switch (c) {
    case HTTP_CODING_GZIP: return "gzip";
    case HTTP_CODING_DEFLATE: return "deflate";
    case HTTP_CODING_ZSTD: return "zstd";
    case HTTP_CODING_LZ4: return "lz4";
    default: return "identity";
    }
}

/* True when the comma-separated list names token with a non-zero q. */
static bool codec_token(const char *list, const char *token) {
    size_t n = strlen(token);
    const char *p = list;
    while (p && *p) {
        size_t item = strcspn(p, ",");
        const char *name = p;
        while (name < p + item && *name == ' ') name++;
        size_t name_len = strcspn(name, ";, ");
        if (name + name_len > p + item) name_len = (size_t)(p + item - name);
        if (name_len == n && strncasecmp(name, token, n) == 0) {
            const char *q = name + name_len;
            bool zero = false;
            while (q < p + item) {
                if (*q == 'q' && q + 1 < p + item && q[1] == '=') {
                    zero = strtod(q + 2, NULL) == 0.0;
                    break;
                }
                q++;
            }
            if (!zero) return true;
        }
        p += item;
        if (*p == ',') p++;
    }
    return false;
}

http_coding http_coding_accepted(const char *accept_encoding) {
    if (accept_encoding == NULL) return HTTP_CODING_IDENTITY;
    static const http_coding order[] = {HTTP_CODING_GZIP, HTTP_CODING_DEFLATE, HTTP_CODING_ZSTD,
                                        HTTP_CODING_LZ4};
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
        if (codec_token(accept_encoding, http_coding_name(order[i]))) return order[i];
    return HTTP_CODING_IDENTITY;
}

int http_coding_parse(const char *content_encoding, http_coding *out, mu_err *err) {
    if (content_encoding == NULL || content_encoding[0] == 0 ||
        strcasecmp(content_encoding, "identity") == 0) {
        *out = HTTP_CODING_IDENTITY;
        return 0;
    }
    static const http_coding all[] = {HTTP_CODING_GZIP, HTTP_CODING_DEFLATE, HTTP_CODING_ZSTD,
                                      HTTP_CODING_LZ4};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        if (strcasecmp(content_encoding, http_coding_name(all[i])) == 0) {
            *out = all[i];
            return 0;
        }
    return MU_ERR(err, MU_ENOT_SUPPORTED, "Content-Encoding %s is not supported (gzip, deflate, "
                  "zstd, lz4 are)", content_encoding);
}

int http_codec_create(http_coding coding, bool decompress, int level, http_codec **out,
                      mu_err *err) {
    http_codec *c = calloc(1, sizeof(*c));
    if (c == NULL) return MU_ERR(err, MU_ENOMEM, "out of memory for a %s stream", http_coding_name(coding));
    c->coding = coding;
    c->decompress = decompress;
    int ok = 1;
    switch (coding) {
    case HTTP_CODING_GZIP:
    case HTTP_CODING_DEFLATE: {
        int bits = coding == HTTP_CODING_GZIP ? 15 + 16 : 15;
        if (level < 1 || level > 9) level = 3;
        ok = decompress ? inflateInit2(&c->z, coding == HTTP_CODING_GZIP ? 15 + 32 : 15) == Z_OK
                        : deflateInit2(&c->z, level, Z_DEFLATED, bits, 8, Z_DEFAULT_STRATEGY) == Z_OK;
        break;
    }
    case HTTP_CODING_ZSTD:
        if (decompress) {
            c->zd = ZSTD_createDStream();
            ok = c->zd != NULL && !ZSTD_isError(ZSTD_initDStream(c->zd));
        } else {
            c->zc = ZSTD_createCStream();
            ok = c->zc != NULL && !ZSTD_isError(ZSTD_initCStream(c->zc, level > 0 ? level : 3));
        }
        break;
    case HTTP_CODING_LZ4:
        ok = decompress ? !LZ4F_isError(LZ4F_createDecompressionContext(&c->ld, LZ4F_VERSION))
                        : !LZ4F_isError(LZ4F_createCompressionContext(&c->lc, LZ4F_VERSION));
        break;
    default:
        ok = 0;
    }
    if (!ok) {
        http_codec_destroy(c);
        return MU_ERR(err, MU_ENOMEM, "cannot start a %s stream", http_coding_name(coding));
    }
    *out = c;
    return 0;
}

void http_codec_destroy(http_codec *c) {
    if (c == NULL) return;
    if (c->coding == HTTP_CODING_GZIP || c->coding == HTTP_CODING_DEFLATE) {
        if (c->decompress) inflateEnd(&c->z);
        else deflateEnd(&c->z);
    }
    ZSTD_freeCStream(c->zc);
    ZSTD_freeDStream(c->zd);
    if (c->lc) LZ4F_freeCompressionContext(c->lc);
    if (c->ld) LZ4F_freeDecompressionContext(c->ld);
    free(c);
}

static int codec_zlib_compress(http_codec *c, const uint8_t *in, size_t n, bool finish, mu_buf *out,
                               mu_err *err) {
    c->z.next_in = (Bytef *)(uintptr_t)in;
    c->z.avail_in = (uInt)n;
    for (;;) {
        int rc = mu_buf_reserve(out, CODEC_CHUNK_BYTES, err);
        if (rc != 0) return rc;
        c->z.next_out = out->data + out->length_bytes;
        c->z.avail_out = CODEC_CHUNK_BYTES;
        int zr = deflate(&c->z, finish ? Z_FINISH : Z_NO_FLUSH);
        out->length_bytes += CODEC_CHUNK_BYTES - c->z.avail_out;
        if (zr == Z_STREAM_ERROR) return MU_ERR(err, MU_EINTERNAL, "deflate failed");
        if (finish ? zr == Z_STREAM_END : (c->z.avail_in == 0 && c->z.avail_out != 0)) return 0;
    }
}

static int codec_zlib_decompress(http_codec *c, const uint8_t *in, size_t n, mu_buf *out,
                                 mu_err *err) {
    c->z.next_in = (Bytef *)(uintptr_t)in;
    c->z.avail_in = (uInt)n;
    while (c->z.avail_in > 0 && !c->finished) {
        int rc = mu_buf_reserve(out, CODEC_CHUNK_BYTES, err);
        if (rc != 0) return rc;
        c->z.next_out = out->data + out->length_bytes;
        c->z.avail_out = CODEC_CHUNK_BYTES;
        int zr = inflate(&c->z, Z_NO_FLUSH);
        out->length_bytes += CODEC_CHUNK_BYTES - c->z.avail_out;
        if (zr == Z_STREAM_END) c->finished = true;
        else if (zr != Z_OK && zr != Z_BUF_ERROR)
            return MU_ERR(err, MU_EINCORRECT_DATA, "cannot decompress the %s request body: %s",
                          http_coding_name(c->coding), c->z.msg ? c->z.msg : "bad data");
    }
    return 0;
}

int http_codec_update(http_codec *c, const void *data, size_t n, mu_buf *out, mu_err *err) {
    const uint8_t *in = data;
    switch (c->coding) {
    case HTTP_CODING_GZIP:
    case HTTP_CODING_DEFLATE:
        return c->decompress ? codec_zlib_decompress(c, in, n, out, err)
                             : codec_zlib_compress(c, in, n, false, out, err);
    case HTTP_CODING_ZSTD: {
        ZSTD_inBuffer ib = {in, n, 0};
        while (ib.pos < ib.size) {
            int rc = mu_buf_reserve(out, CODEC_CHUNK_BYTES, err);
            if (rc != 0) return rc;
            ZSTD_outBuffer ob = {out->data + out->length_bytes, CODEC_CHUNK_BYTES, 0};
            size_t zr = c->decompress ? ZSTD_decompressStream(c->zd, &ob, &ib)
                                      : ZSTD_compressStream(c->zc, &ob, &ib);
            out->length_bytes += ob.pos;
            if (ZSTD_isError(zr))
                return MU_ERR(err, c->decompress ? MU_EINCORRECT_DATA : MU_EINTERNAL, "zstd: %s",
                              ZSTD_getErrorName(zr));
        }
        return 0;
    }
    case HTTP_CODING_LZ4: {
        if (c->decompress) {
            size_t pos = 0;
            while (pos < n) {
                int rc = mu_buf_reserve(out, CODEC_CHUNK_BYTES, err);
                if (rc != 0) return rc;
                size_t dst = CODEC_CHUNK_BYTES, src = n - pos;
                size_t lr = LZ4F_decompress(c->ld, out->data + out->length_bytes, &dst, in + pos, &src, NULL);
                if (LZ4F_isError(lr))
                    return MU_ERR(err, MU_EINCORRECT_DATA, "lz4: %s", LZ4F_getErrorName(lr));
                out->length_bytes += dst;
                pos += src;
                if (src == 0 && dst == 0) break;
            }
            return 0;
        }
        if (!c->lz4_header_written) {
            int rc = mu_buf_reserve(out, LZ4F_HEADER_SIZE_MAX, err);
            if (rc != 0) return rc;
            size_t hr = LZ4F_compressBegin(c->lc, out->data + out->length_bytes, LZ4F_HEADER_SIZE_MAX, NULL);
            if (LZ4F_isError(hr)) return MU_ERR(err, MU_EINTERNAL, "lz4: %s", LZ4F_getErrorName(hr));
            out->length_bytes += hr;
            c->lz4_header_written = true;
        }
        size_t bound = LZ4F_compressBound(n, NULL);
        int rc = mu_buf_reserve(out, bound, err);
        if (rc != 0) return rc;
        size_t lr = LZ4F_compressUpdate(c->lc, out->data + out->length_bytes, bound, in, n, NULL);
        if (LZ4F_isError(lr)) return MU_ERR(err, MU_EINTERNAL, "lz4: %s", LZ4F_getErrorName(lr));
        out->length_bytes += lr;
        return 0;
    }
    default:
        return MU_ERR(err, MU_EINTERNAL, "no codec");
    }
}

int http_codec_finish(http_codec *c, mu_buf *out, mu_err *err) {
    if (c->decompress) {
        if ((c->coding == HTTP_CODING_GZIP || c->coding == HTTP_CODING_DEFLATE) && !c->finished)
            return MU_ERR(err, MU_EINCORRECT_DATA, "the %s request body ends early",
                          http_coding_name(c->coding));
        return 0;
    }
    switch (c->coding) {
    case HTTP_CODING_GZIP:
    case HTTP_CODING_DEFLATE: return codec_zlib_compress(c, NULL, 0, true, out, err);
    case HTTP_CODING_ZSTD: {
        for (;;) {
            int rc = mu_buf_reserve(out, CODEC_CHUNK_BYTES, err);
            if (rc != 0) return rc;
            ZSTD_outBuffer ob = {out->data + out->length_bytes, CODEC_CHUNK_BYTES, 0};
            size_t left = ZSTD_endStream(c->zc, &ob);
            out->length_bytes += ob.pos;
            if (ZSTD_isError(left)) return MU_ERR(err, MU_EINTERNAL, "zstd: %s", ZSTD_getErrorName(left));
            if (left == 0) return 0;
        }
    }
    case HTTP_CODING_LZ4: {
        if (!c->lz4_header_written) {
            int rc = http_codec_update(c, NULL, 0, out, err);
            if (rc != 0) return rc;
        }
        size_t bound = LZ4F_compressBound(0, NULL);
        int rc = mu_buf_reserve(out, bound, err);
        if (rc != 0) return rc;
        size_t lr = LZ4F_compressEnd(c->lc, out->data + out->length_bytes, bound, NULL);
        if (LZ4F_isError(lr)) return MU_ERR(err, MU_EINTERNAL, "lz4: %s", LZ4F_getErrorName(lr));
        out->length_bytes += lr;
        return 0;
    }
    default: return 0;
    }
}
