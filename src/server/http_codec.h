/* http_codec.h: private to src/server: content codings of the HTTP query
 * interface (gzip, deflate, zstd, lz4) as streams (http_codec.c).
 */
#ifndef MUSCLES_SERVER_HTTP_CODEC_H
#define MUSCLES_SERVER_HTTP_CODEC_H

#include "base/base.h"

typedef enum http_coding {
    HTTP_CODING_IDENTITY = 0,
    HTTP_CODING_GZIP,
    HTTP_CODING_DEFLATE,
    HTTP_CODING_ZSTD,
    HTTP_CODING_LZ4,
} http_coding;

const char *http_coding_name(http_coding c);
/* The first of gzip, deflate, zstd, lz4 that Accept-Encoding allows. */
http_coding http_coding_accepted(const char *accept_encoding);
/* A Content-Encoding value; MU_ENOT_SUPPORTED for others. */
int http_coding_parse(const char *content_encoding, http_coding *out, mu_err *err);

typedef struct http_codec http_codec;
/* level: zlib 1..9 or zstd level (0: a default). */
int http_codec_create(http_coding coding, bool decompress, int level, http_codec **out, mu_err *err);
void http_codec_destroy(http_codec *c); /* accepts NULL */
/* Appends the (de)compressed form of data to out. Damaged input to a
 * decompressor is MU_EINCORRECT_DATA. */
int http_codec_update(http_codec *c, const void *data, size_t length_bytes, mu_buf *out, mu_err *err);
/* Ends the stream (compressor: appends the trailer; decompressor: checks
 * the stream was complete). */
int http_codec_finish(http_codec *c, mu_buf *out, mu_err *err);

#endif /* MUSCLES_SERVER_HTTP_CODEC_H */
