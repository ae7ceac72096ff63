/* fuzz_http_parser.c: libFuzzer target for the HTTP/1.1 request parser
 * (src/server/http_parser.c). The first two input bytes choose the limits
 * and the seed of the split points; the rest is fed twice, whole and in
 * pieces, and must give the same events. Invariants checked on every event:
 * consumption never passes the input, NONE only when all is consumed, body
 * bytes point into the input, heads are well-formed (NUL-terminated strings,
 * no CR/LF in values, no Content-Length together with chunked), a message
 * with Content-Length ends after exactly that many bytes, errors are one of
 * the documented statuses and stay sticky.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/http.h"

#define CHECK(x)                                                                 \
    do {                                                                         \
        if (!(x)) {                                                              \
            fprintf(stderr, "fuzz_http_parser: invariant failed: %s (line %d)\n", #x, \
                    __LINE__);                                                   \
            abort();                                                             \
        }                                                                        \
    } while (0)

/* The event log compared between the two feeding patterns: a running hash
 * of every event and of every body byte (body events may be split
 * differently, so bytes are hashed one by one, not per event). */
typedef struct fuzz_log {
    uint64_t hash;
    uint64_t events;
    uint64_t body_in_message;
} fuzz_log;

static void mix(fuzz_log *log, uint64_t v) {
    log->hash = (log->hash ^ v) * 0x100000001b3ULL;
}

static void check_head(const http_head *h, fuzz_log *log) {
    CHECK(h->method != NULL && h->target != NULL);
    CHECK(strlen(h->target) == h->target_bytes);
    CHECK(h->version == HTTP_VERSION_1_0 || h->version == HTTP_VERSION_1_1);
    CHECK(!(h->chunked && h->has_content_length));
    CHECK(!h->has_content_length || h->content_length <= (UINT64_C(1) << 62));
    CHECK(h->header_count <= HTTP_HEADER_COUNT_MAX);
    for (size_t i = 0; i < h->header_count; i++) {
        const http_header *f = &h->headers[i];
        CHECK(strlen(f->value) == f->value_bytes);
        CHECK(strpbrk(f->value, "\r\n") == NULL);
        CHECK(strlen(f->name) > 0);
        mix(log, mu_hash64(f->name, strlen(f->name)));
        mix(log, mu_hash64(f->value, f->value_bytes));
    }
    mix(log, mu_hash64(h->method, strlen(h->method)));
    mix(log, mu_hash64(h->target, h->target_bytes));
    mix(log, (uint64_t)h->version * 4 + h->keep_alive * 2 + h->chunked);
}

static bool is_documented_status(int status) {
    return status == 400 || status == 413 || status == 417 || status == 431 || status == 501 ||
           status == 503 || status == 505;
}

/* Handles one event; returns false when parsing must stop (error). */
static bool on_event(http_parser *p, const http_event *ev, const uint8_t *piece, size_t piece_bytes,
                     fuzz_log *log) {
    log->events++;
    switch (ev->type) {
    case HTTP_EVENT_HEADERS:
        mix(log, 1);
        check_head(http_parser_head(p), log);
        log->body_in_message = 0;
        return true;
    case HTTP_EVENT_BODY:
        CHECK(ev->length_bytes > 0);
        CHECK(ev->data >= piece && ev->data + ev->length_bytes <= piece + piece_bytes);
        for (size_t i = 0; i < ev->length_bytes; i++) mix(log, 0x100 + ev->data[i]);
        log->body_in_message += ev->length_bytes;
        return true;
    case HTTP_EVENT_END: {
        const http_head *h = http_parser_head(p);
        if (h->has_content_length) CHECK(log->body_in_message == h->content_length);
        mix(log, 2);
        return true;
    }
    default:
        CHECK(ev->type == HTTP_EVENT_ERROR);
        CHECK(is_documented_status(ev->status));
        CHECK(ev->message != NULL);
        mix(log, 3000 + (uint64_t)ev->status);
        return false;
    }
}

/* Feeds data in pieces of 1..max_piece bytes chosen by seed (0: whole). */
static void feed(const http_parser_limits *limits, const uint8_t *data, size_t n, uint32_t seed,
                 size_t max_piece, fuzz_log *log) {
    memset(log, 0, sizeof *log);
    http_parser p;
    http_parser_init(&p, limits);
    size_t pos = 0;
    bool go = true;
    do {
        size_t piece_bytes = n - pos;
        if (max_piece != 0) {
            seed = seed * 1103515245u + 12345u;
            piece_bytes = MU_MIN(piece_bytes, (size_t)1 + (seed >> 16) % max_piece);
        }
        const uint8_t *piece = data + pos;
        size_t off = 0;
        while (go) {
            http_event ev;
            size_t used = http_parser_execute(&p, piece + off, piece_bytes - off, &ev);
            CHECK(used <= piece_bytes - off);
            off += used;
            if (ev.type == HTTP_EVENT_NONE) {
                CHECK(off == piece_bytes);
                break;
            }
            go = on_event(&p, &ev, piece, piece_bytes, log);
            if (!go) {
                http_event again;
                CHECK(http_parser_execute(&p, piece, piece_bytes, &again) == 0);
                CHECK(again.type == HTTP_EVENT_ERROR && again.status == ev.status);
            }
        }
        pos += piece_bytes;
    } while (go && pos < n);
    http_parser_deinit(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    /* Small limits half of the time so 431 and 413 paths are reached. */
    bool tight = (data[0] & 1) != 0;
    http_parser_limits limits = {
        tight ? 64 + (size_t)(data[0] >> 1) * 4 : 64 * 1024,
        tight ? 1 + (size_t)(data[1] % 8) : HTTP_HEADER_COUNT_MAX,
        tight ? (uint64_t)(data[1] >> 3) * 8 : HTTP_BODY_UNLIMITED,
    };
    uint32_t seed = ((uint32_t)data[0] << 8 | data[1]) | 1u;
    fuzz_log whole, pieces, bytes;
    feed(&limits, data + 2, size - 2, seed, 0, &whole);
    feed(&limits, data + 2, size - 2, seed, 17, &pieces);
    CHECK(whole.hash == pieces.hash);
    if (size <= 4096) {
        feed(&limits, data + 2, size - 2, seed, 1, &bytes);
        CHECK(whole.hash == bytes.hash);
    }
    return 0;
}
