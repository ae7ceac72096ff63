/* bench_codecs.c: single-thread encode and decode throughput of the part
 * codecs (src/storage/part/codec.h) on about 64 MiB per data set of
 * realistic columns — millisecond timestamps, counters, DateTime seconds,
 * float gauges, HTTP status codes and log-line bytes — cut into granule
 * blocks (8192 values; 1 MiB for bytes) the way the part writer cuts them.
 * The peer, measured in the same run on the same blocks, is liblz4's
 * LZ4_compress_default / LZ4_decompress_safe without muscles' framing; each
 * row prints MB/s of raw bytes and the ratio to that peer, plus the
 * compression ratio. Usage: bench_codecs [--mib N] [--runs R]
 */
#include <getopt.h>
#include <lz4.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "storage/part/codec.h"

typedef struct bench_data {
    const char *name;
    uint32_t value_bytes; /* 0: bytes */
    size_t block_bytes;
    uint8_t *bytes;
    size_t length_bytes;
} bench_data;

typedef struct bench_speed {
    double encode_mbps, decode_mbps, ratio;
} bench_speed;

static uint64_t bench_rng = 0x2545F4914F6CDD1Dull;
static uint64_t bench_next(void) {
    bench_rng ^= bench_rng << 13;
    bench_rng ^= bench_rng >> 7;
    bench_rng ^= bench_rng << 17;
    return bench_rng;
}

static void bench_die(const char *what, const mu_err *err) {
    fprintf(stderr, "bench_codecs: %s: %s\n", what, err != NULL ? err->message : "");
    exit(1);
}

static void bench_fill(bench_data *d, int kind, size_t total_bytes) {
    d->bytes = malloc(total_bytes);
    if (d->bytes == NULL) bench_die("out of memory", NULL);
    size_t count = d->value_bytes == 0 ? 0 : total_bytes / d->value_bytes;
    int64_t ts = 1700000000000, counter = 0;
    double gauge = 50.0;
    static const uint16_t statuses[] = {200, 200, 200, 200, 200, 304, 404, 500, 201, 200};
    for (size_t i = 0; i < count; i++) {
        if (kind == 0) { /* ms timestamps every 15 s, 1 in 10 late by a few ms */
            ts += 15000 + (bench_next() % 10 == 0 ? (int64_t)(bench_next() % 7) - 3 : 0);
            memcpy(d->bytes + 8 * i, &ts, 8);
        } else if (kind == 1) { /* a request counter */
            counter += (int64_t)(bench_next() % 2000);
            memcpy(d->bytes + 8 * i, &counter, 8);
        } else if (kind == 2) { /* DateTime seconds, several events per second */
            uint32_t s = 1700000000u + (uint32_t)(i / 4);
            memcpy(d->bytes + 4 * i, &s, 4);
        } else if (kind == 3) { /* a CPU gauge rounded to 0.1 */
            gauge += ((double)(bench_next() % 21) - 10.0) / 10.0;
            gauge = fmin(100.0, fmax(0.0, gauge));
            double v = round(gauge * 10.0) / 10.0;
            memcpy(d->bytes + 8 * i, &v, 8);
        } else { /* UInt16 HTTP status */
            memcpy(d->bytes + 2 * i, &statuses[bench_next() % 10], 2);
        }
    }
    d->length_bytes = count * d->value_bytes;
}

/* Log-like text: a few templates with varying numbers, paths and ids. */
static void bench_fill_text(bench_data *d, size_t total_bytes) {
    static const char *const words[] = {"GET", "POST", "/api/v1/users", "/api/v1/orders",
                                        "/static/app.js", "status=200", "status=404",
                                        "user_id=", "latency_ms=", "INFO", "WARN",
                                        "request served", "cache miss", "db query"};
    d->bytes = malloc(total_bytes + 256);
    if (d->bytes == NULL) bench_die("out of memory", NULL);
    size_t at = 0;
    while (at < total_bytes) {
        int n = snprintf((char *)d->bytes + at, 256, "2024-11-%02u %s %s %s%llu %s%llu\n",
                         (unsigned)(bench_next() % 28 + 1), words[9 + bench_next() % 2],
                         words[bench_next() % 5], words[7],
                         (unsigned long long)(bench_next() % 100000), words[8],
                         (unsigned long long)(bench_next() % 900));
        at += (size_t)n;
    }
    d->length_bytes = total_bytes;
}

static double bench_seconds(int64_t start_ns) {
    return (double)(mu_clock_mono_ns() - start_ns) / 1e9;
}

/* Encodes every block of d through chain, then decodes them; best of runs. */
static bench_speed bench_chain(const bench_data *d, const part_codec_chain *chain, int runs) {
    mu_buf encoded, decoded;
    mu_buf_init(&encoded, 0);
    mu_buf_init(&decoded, 0);
    mu_err err;
    bench_speed best = {0, 0, 0};
    for (int r = 0; r < runs; r++) {
        mu_buf_clear(&encoded);
        int64_t t0 = mu_clock_mono_ns();
        for (size_t at = 0; at < d->length_bytes; at += d->block_bytes) {
            size_t n = MU_MIN(d->block_bytes, d->length_bytes - at);
            if (part_codec_encode(chain, d->bytes + at, n, &encoded, &err) != 0) {
                bench_die("encode", &err);
            }
        }
        double encode_s = bench_seconds(t0);
        mu_buf_clear(&decoded);
        t0 = mu_clock_mono_ns();
        for (size_t at = 0; at < encoded.length_bytes;) {
            size_t consumed = 0;
            if (part_codec_decode(encoded.data + at, encoded.length_bytes - at, &decoded,
                                  &consumed, &err) != 0) {
                bench_die("decode", &err);
            }
            at += consumed;
        }
        double decode_s = bench_seconds(t0);
        if (decoded.length_bytes != d->length_bytes ||
            memcmp(decoded.data, d->bytes, d->length_bytes) != 0) {
            bench_die("round trip differs", NULL);
        }
        double mb = (double)d->length_bytes / 1e6;
        best.encode_mbps = fmax(best.encode_mbps, mb / encode_s);
        best.decode_mbps = fmax(best.decode_mbps, mb / decode_s);
        best.ratio = (double)d->length_bytes / (double)encoded.length_bytes;
    }
    mu_buf_deinit(&encoded);
    mu_buf_deinit(&decoded);
    return best;
}

/* The peer: plain liblz4 on the same blocks, no header, no checksum. */
static bench_speed bench_peer_lz4(const bench_data *d, int runs) {
    size_t blocks = (d->length_bytes + d->block_bytes - 1) / d->block_bytes;
    size_t cap = (size_t)LZ4_compressBound((int)d->block_bytes);
    char *packed = malloc(blocks * cap);
    int *sizes = malloc(blocks * sizeof(int));
    char *back = malloc(d->block_bytes);
    if (packed == NULL || sizes == NULL || back == NULL) bench_die("out of memory", NULL);
    bench_speed best = {0, 0, 0};
    for (int r = 0; r < runs; r++) {
        size_t total = 0;
        int64_t t0 = mu_clock_mono_ns();
        for (size_t b = 0; b < blocks; b++) {
            size_t n = MU_MIN(d->block_bytes, d->length_bytes - b * d->block_bytes);
            sizes[b] = LZ4_compress_default((const char *)d->bytes + b * d->block_bytes,
                                            packed + b * cap, (int)n, (int)cap);
            total += (size_t)sizes[b];
        }
        double encode_s = bench_seconds(t0);
        t0 = mu_clock_mono_ns();
        for (size_t b = 0; b < blocks; b++) {
            if (LZ4_decompress_safe(packed + b * cap, back, sizes[b], (int)d->block_bytes) < 0) {
                bench_die("peer decode", NULL);
            }
        }
        double decode_s = bench_seconds(t0);
        double mb = (double)d->length_bytes / 1e6;
        best.encode_mbps = fmax(best.encode_mbps, mb / encode_s);
        best.decode_mbps = fmax(best.decode_mbps, mb / decode_s);
        best.ratio = (double)d->length_bytes / (double)total;
    }
    free(packed);
    free(sizes);
    free(back);
    return best;
}

/* What creating a ZSTD context per call would cost (ZSTD_compress). */
static double bench_zstd_per_call(const bench_data *d) {
    size_t cap = ZSTD_compressBound(d->block_bytes);
    void *dst = malloc(cap);
    if (dst == NULL) bench_die("out of memory", NULL);
    int64_t t0 = mu_clock_mono_ns();
    for (size_t at = 0; at < d->length_bytes; at += d->block_bytes) {
        size_t n = MU_MIN(d->block_bytes, d->length_bytes - at);
        if (ZSTD_isError(ZSTD_compress(dst, cap, d->bytes + at, n, 1))) bench_die("zstd", NULL);
    }
    double s = bench_seconds(t0);
    free(dst);
    return (double)d->length_bytes / 1e6 / s;
}

static const char *const BENCH_CHAINS[] = {
    "NONE", "LZ4", "LZ4HC(9)", "ZSTD(1)", "ZSTD(3)", "Delta, LZ4", "Delta, ZSTD(1)",
    "DoubleDelta", "DoubleDelta, LZ4", "DoubleDelta, ZSTD(1)", "Gorilla", "Gorilla, LZ4",
    "T64", "T64, LZ4", "T64, ZSTD(1)", "Delta, T64, LZ4",
};

static void bench_data_set(bench_data *d, int runs) {
    bench_speed peer = bench_peer_lz4(d, runs);
    printf("\n%s: %.1f MiB in %zu-byte blocks; peer liblz4: encode %.0f MB/s, decode %.0f "
           "MB/s, ratio %.2f; ZSTD(1) with a context per call: encode %.0f MB/s\n",
           d->name, (double)d->length_bytes / (1 << 20), d->block_bytes, peer.encode_mbps,
           peer.decode_mbps, peer.ratio, bench_zstd_per_call(d));
    printf("  %-22s %10s %8s %10s %8s %8s\n", "chain", "enc MB/s", "vs peer", "dec MB/s",
           "vs peer", "ratio");
    for (size_t c = 0; c < MU_ARRAY_LEN(BENCH_CHAINS); c++) {
        part_codec_chain chain;
        const char *text = BENCH_CHAINS[c];
        if (part_codec_chain_parse(text, strlen(text), d->value_bytes, &chain, NULL) != 0) {
            continue; /* not applicable to this width */
        }
        bench_speed s = bench_chain(d, &chain, runs);
        printf("  %-22s %10.0f %7.2fx %10.0f %7.2fx %8.2f\n", text, s.encode_mbps,
               s.encode_mbps / peer.encode_mbps, s.decode_mbps, s.decode_mbps / peer.decode_mbps,
               s.ratio);
        fflush(stdout);
    }
}

int main(int argc, char **argv) {
    size_t mib = 64;
    int runs = 3;
    static const struct option options[] = {
        {"mib", required_argument, NULL, 'm'}, {"runs", required_argument, NULL, 'r'}, {0}};
    int opt;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        if (opt == 'm') mib = (size_t)strtoul(optarg, NULL, 10);
        else if (opt == 'r') runs = atoi(optarg);
        else return 2;
    }
    if (mib < 1 || mib > 1024 || runs < 1) {
        fprintf(stderr, "usage: bench_codecs [--mib 1..1024] [--runs R]\n");
        return 2;
    }
    size_t total = mib << 20;
    bench_data sets[] = {
        {"timestamps Int64 ms, 15 s step with jitter", 8, 8 * 8192, NULL, 0},
        {"counter UInt64, random increments", 8, 8 * 8192, NULL, 0},
        {"DateTime UInt32 seconds, 4 rows/s", 4, 4 * 8192, NULL, 0},
        {"gauge Float64, random walk of 0.1", 8, 8 * 8192, NULL, 0},
        {"status UInt16", 2, 2 * 8192, NULL, 0},
        {"log lines (String bytes)", 0, 1 << 20, NULL, 0},
    };
    for (size_t i = 0; i < MU_ARRAY_LEN(sets); i++) {
        if (sets[i].value_bytes == 0) {
            bench_fill_text(&sets[i], total);
        } else {
            bench_fill(&sets[i], (int)i, total);
        }
        bench_data_set(&sets[i], runs);
        free(sets[i].bytes);
    }
    return 0;
}
