/* http_parser_test.c: goal — the HTTP/1.1 request parser (src/server/
 * http_parser.c) accepts exactly the requests RFC 9112 allows, reports the
 * documented status for each kind of bad input (400, 413, 417, 431, 501,
 * 505), and gives the same events whether it is fed the whole input at once,
 * one byte at a time or in odd-sized pieces.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "server/http.h"

/* ---- Driver: feed, record events as text, compare ------------------- */

#define TRANSCRIPT_BYTES 65536

typedef struct transcript {
    char text[TRANSCRIPT_BYTES];
    size_t used;
    char body[TRANSCRIPT_BYTES];
    size_t body_bytes;
} transcript;

static void say(transcript *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->text + t->used, sizeof t->text - t->used, fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && (size_t)n < sizeof t->text - t->used);
    t->used += (size_t)n;
}

static void record(transcript *t, const http_parser *p, const http_event *ev) {
    switch (ev->type) {
    case HTTP_EVENT_HEADERS: {
        const http_head *h = http_parser_head(p);
        say(t, "H %s %s %d ka%d ", h->method, h->target, h->version, h->keep_alive);
        if (h->has_content_length) {
            say(t, "cl%llu", (unsigned long long)h->content_length);
        } else {
            say(t, "cl-");
        }
        say(t, " ch%d ex%d\n", h->chunked, h->expect_continue);
        for (size_t i = 0; i < h->header_count; i++) {
            assert_int_equal(strlen(h->headers[i].value), h->headers[i].value_bytes);
            say(t, "  %s: %s\n", h->headers[i].name, h->headers[i].value);
        }
        t->body_bytes = 0;
        break;
    }
    case HTTP_EVENT_BODY:
        assert_true(ev->length_bytes > 0);
        assert_true(t->body_bytes + ev->length_bytes <= sizeof t->body);
        memcpy(t->body + t->body_bytes, ev->data, ev->length_bytes);
        t->body_bytes += ev->length_bytes;
        break;
    case HTTP_EVENT_END:
        say(t, "E %zu:%.*s\n", t->body_bytes, (int)t->body_bytes, t->body);
        t->body_bytes = 0;
        break;
    case HTTP_EVENT_ERROR:
        assert_non_null(ev->message);
        say(t, "X %d\n", ev->status);
        break;
    default:
        fail();
    }
}

static const http_parser_limits default_limits = {8192, HTTP_HEADER_COUNT_MAX,
                                                   HTTP_BODY_UNLIMITED};

/* Feeds input in pieces of `step` bytes (0: all at once). */
static void run(const http_parser_limits *limits, const char *input, size_t n, size_t step,
                transcript *t) {
    memset(t, 0, sizeof *t);
    http_parser p;
    http_parser_init(&p, limits);
    size_t pos = 0;
    do {
        size_t piece = step == 0 ? n - pos : (n - pos < step ? n - pos : step);
        const uint8_t *data = (const uint8_t *)input + pos;
        size_t off = 0;
        for (;;) {
            http_event ev;
            size_t used = http_parser_execute(&p, data + off, piece - off, &ev);
            assert_true(used <= piece - off);
            off += used;
            if (ev.type == HTTP_EVENT_NONE) {
                assert_int_equal(off, piece); /* NONE only once everything is consumed */
                break;
            }
            record(t, &p, &ev);
            if (ev.type == HTTP_EVENT_ERROR) {
                /* Sticky: asking again repeats the error and consumes nothing. */
                http_event again;
                assert_int_equal(http_parser_execute(&p, data, piece, &again), 0);
                assert_int_equal(again.type, HTTP_EVENT_ERROR);
                assert_int_equal(again.status, ev.status);
                http_parser_deinit(&p);
                return;
            }
        }
        pos += piece;
    } while (pos < n);
    http_parser_deinit(&p);
}

/* Parses input whole, byte by byte and in pieces of 2, 3, 7 and 64; every
 * way must give `expected`. */
static void check_with(const http_parser_limits *limits, const char *input, size_t n,
                       const char *expected) {
    static transcript whole, other;
    run(limits, input, n, 0, &whole);
    if (strcmp(whole.text, expected) != 0) {
        print_error("input:\n%.*s\nexpected:\n%s\ngot:\n%s\n", (int)n, input, expected,
                    whole.text);
        fail();
    }
    static const size_t steps[] = {1, 2, 3, 7, 64};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        run(limits, input, n, steps[i], &other);
        if (strcmp(other.text, whole.text) != 0) {
            print_error("step %zu differs:\n%s\nvs whole:\n%s\n", steps[i], other.text,
                        whole.text);
            fail();
        }
    }
}

static void check(const char *input, const char *expected) {
    check_with(&default_limits, input, strlen(input), expected);
}

/* ---- Good requests ---------------------------------------------------- */

static void test_simple_get(void **state) {
    (void)state;
    check("GET /ping HTTP/1.1\r\nHost: localhost:8123\r\nUser-Agent: curl/8\r\n\r\n",
          "H GET /ping 11 ka1 cl- ch0 ex0\n  Host: localhost:8123\n  User-Agent: curl/8\nE 0:\n");
}

static void test_http10_keep_alive_rules(void **state) {
    (void)state;
    check("GET / HTTP/1.0\r\n\r\n", "H GET / 10 ka0 cl- ch0 ex0\nE 0:\n");
    check("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n",
          "H GET / 10 ka1 cl- ch0 ex0\n  Connection: Keep-Alive\nE 0:\n");
    check("GET / HTTP/1.1\r\nConnection: close\r\n\r\n",
          "H GET / 11 ka0 cl- ch0 ex0\n  Connection: close\nE 0:\n");
    check("GET / HTTP/1.1\r\nConnection: Upgrade, CLOSE\r\n\r\n",
          "H GET / 11 ka0 cl- ch0 ex0\n  Connection: Upgrade, CLOSE\nE 0:\n");
    check("GET / HTTP/1.0\r\nConnection: keep-alive, close\r\n\r\n",
          "H GET / 10 ka0 cl- ch0 ex0\n  Connection: keep-alive, close\nE 0:\n");
    /* A higher minor version is answered as 1.1 (RFC 9110 section 6.2). */
    check("GET / HTTP/1.2\r\n\r\n", "H GET / 11 ka1 cl- ch0 ex0\nE 0:\n");
}

static void test_content_length_body(void **state) {
    (void)state;
    check("POST /?query=INSERT HTTP/1.1\r\nContent-Length: 11\r\n\r\nhello world",
          "H POST /?query=INSERT 11 ka1 cl11 ch0 ex0\n  Content-Length: 11\nE 11:hello world\n");
    check("POST / HTTP/1.1\r\ncontent-length: 0\r\n\r\n",
          "H POST / 11 ka1 cl0 ch0 ex0\n  content-length: 0\nE 0:\n");
    /* Repeated identical values are one value (RFC 9110 section 8.6). */
    check("POST / HTTP/1.1\r\nContent-Length: 3\r\nCONTENT-LENGTH: 003\r\n\r\nabc",
          "H POST / 11 ka1 cl3 ch0 ex0\n  Content-Length: 3\n  CONTENT-LENGTH: 003\nE 3:abc\n");
}

static void test_chunked_body(void **state) {
    (void)state;
    check("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
          "5\r\nhello\r\n1;name=value;x\r\n \r\nA \r\n0123456789\r\n0\r\n\r\n",
          "H POST / 11 ka1 cl- ch1 ex0\n  Transfer-Encoding: chunked\nE 16:hello 0123456789\n");
    /* Upper-case hex, leading zeros, trailers parsed and dropped. */
    check("POST / HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n"
          "000B\r\nhello world\r\n0\r\nX-Checksum: abc\r\nX-Other:\r\n\r\n",
          "H POST / 11 ka1 cl- ch1 ex0\n  Transfer-Encoding: Chunked\nE 11:hello world\n");
    /* Bare LF line ends in the framing are accepted like in the head. */
    check("POST / HTTP/1.1\nTransfer-Encoding: chunked\n\n3\nabc\n0\n\n",
          "H POST / 11 ka1 cl- ch1 ex0\n  Transfer-Encoding: chunked\nE 3:abc\n");
    check("POST / HTTP/1.1\r\nTransfer-Encoding: ,chunked\r\n\r\n0\r\n\r\n",
          "H POST / 11 ka1 cl- ch1 ex0\n  Transfer-Encoding: ,chunked\nE 0:\n");
}

static void test_pipelined_requests(void **state) {
    (void)state;
    check("GET /a HTTP/1.1\r\n\r\n"
          "POST /b HTTP/1.1\r\nContent-Length: 4\r\n\r\nbody"
          "POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nxy\r\n0\r\n\r\n"
          "GET /d HTTP/1.0\r\n\r\n",
          "H GET /a 11 ka1 cl- ch0 ex0\nE 0:\n"
          "H POST /b 11 ka1 cl4 ch0 ex0\n  Content-Length: 4\nE 4:body\n"
          "H POST /c 11 ka1 cl- ch1 ex0\n  Transfer-Encoding: chunked\nE 2:xy\n"
          "H GET /d 10 ka0 cl- ch0 ex0\nE 0:\n");
}

static void test_whitespace_and_line_ends(void **state) {
    (void)state;
    /* Empty lines before the request line are ignored (RFC 9112 section 2.2). */
    check("\r\n\r\n\nGET / HTTP/1.1\r\n\r\n", "H GET / 11 ka1 cl- ch0 ex0\nE 0:\n");
    check("GET / HTTP/1.1\nA:   spaced value \t \nB:\nC:\t\tx\n\n",
          "H GET / 11 ka1 cl- ch0 ex0\n  A: spaced value\n  B: \n  C: x\nE 0:\n");
    /* obs-text (bytes >= 0x80) is allowed in values. */
    check("GET / HTTP/1.1\r\nX-Name: caf\xc3\xa9\r\n\r\n",
          "H GET / 11 ka1 cl- ch0 ex0\n  X-Name: caf\xc3\xa9\nE 0:\n");
}

static void test_expect_and_targets(void **state) {
    (void)state;
    check("POST / HTTP/1.1\r\nExpect: 100-Continue\r\nContent-Length: 1\r\n\r\nx",
          "H POST / 11 ka1 cl1 ch0 ex1\n  Expect: 100-Continue\n  Content-Length: 1\nE 1:x\n");
    /* HTTP/1.0 expectations are ignored (RFC 9110 section 10.1.1). */
    check("GET / HTTP/1.0\r\nExpect: something\r\n\r\n",
          "H GET / 10 ka0 cl- ch0 ex0\n  Expect: something\nE 0:\n");
    check("GET http://example.com/ping?x=1 HTTP/1.1\r\n\r\n",
          "H GET http://example.com/ping?x=1 11 ka1 cl- ch0 ex0\nE 0:\n");
    check("OPTIONS * HTTP/1.1\r\n\r\n", "H OPTIONS * 11 ka1 cl- ch0 ex0\nE 0:\n");
    check("M-SEARCH /%7E?q=a+b HTTP/1.1\r\n\r\n",
          "H M-SEARCH /%7E?q=a+b 11 ka1 cl- ch0 ex0\nE 0:\n");
}

/* Limits are inclusive: exactly at the limit is accepted. */
static void test_limits_at_the_edge(void **state) {
    (void)state;
    const char head[] = "GET / HTTP/1.1\r\nA: 1234\r\n\r\n";
    http_parser_limits tight = {sizeof head - 1, 1, 5};
    check_with(&tight, head, sizeof head - 1, "H GET / 11 ka1 cl- ch0 ex0\n  A: 1234\nE 0:\n");
    const char body[] = "POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\n12345";
    http_parser_limits body_limit = {8192, 4, 5};
    check_with(&body_limit, body, sizeof body - 1,
               "H POST / 11 ka1 cl5 ch0 ex0\n  Content-Length: 5\nE 5:12345\n");
    const char chunked[] =
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n123\r\n2\r\n45\r\n0\r\n\r\n";
    check_with(&body_limit, chunked, sizeof chunked - 1,
               "H POST / 11 ka1 cl- ch1 ex0\n  Transfer-Encoding: chunked\nE 5:12345\n");
}

/* take_head: the head's strings outlive the parser moving to the next message. */
static void test_take_head(void **state) {
    (void)state;
    http_parser p;
    http_parser_init(&p, &default_limits);
    const char in[] = "GET /first HTTP/1.1\r\nX-A: one\r\n\r\nGET /second HTTP/1.1\r\n\r\n";
    const uint8_t *data = (const uint8_t *)in;
    size_t n = sizeof in - 1, off = 0;
    http_event ev;
    assert_false(http_parser_in_message(&p));
    off += http_parser_execute(&p, data, n, &ev);
    assert_int_equal(ev.type, HTTP_EVENT_HEADERS);
    assert_true(http_parser_in_body(&p));
    http_head head;
    mu_buf storage;
    http_parser_take_head(&p, &head, &storage);
    off += http_parser_execute(&p, data + off, n - off, &ev);
    assert_int_equal(ev.type, HTTP_EVENT_END);
    assert_false(http_parser_in_message(&p));
    off += http_parser_execute(&p, data + off, n - off, &ev);
    assert_int_equal(ev.type, HTTP_EVENT_HEADERS);
    assert_string_equal(http_parser_head(&p)->target, "/second");
    assert_string_equal(head.target, "/first");
    assert_string_equal(http_head_find(&head, "x-a"), "one");
    assert_null(http_head_find(&head, "x-b"));
    assert_int_equal(off, n);
    mu_buf_deinit(&storage);
    http_parser_deinit(&p);
}

/* In the middle of a body, in_message stays true and NONE means "feed more". */
static void test_partial_input(void **state) {
    (void)state;
    http_parser p;
    http_parser_init(&p, &default_limits);
    http_event ev;
    const char part1[] = "POST / HTTP/1.1\r\nContent-Le";
    assert_int_equal(http_parser_execute(&p, (const uint8_t *)part1, sizeof part1 - 1, &ev),
                     sizeof part1 - 1);
    assert_int_equal(ev.type, HTTP_EVENT_NONE);
    assert_true(http_parser_in_message(&p));
    assert_false(http_parser_in_body(&p));
    const char part2[] = "ngth: 2\r\n\r\na";
    size_t used = http_parser_execute(&p, (const uint8_t *)part2, sizeof part2 - 1, &ev);
    assert_int_equal(ev.type, HTTP_EVENT_HEADERS);
    used += http_parser_execute(&p, (const uint8_t *)part2 + used, sizeof part2 - 1 - used, &ev);
    assert_int_equal(ev.type, HTTP_EVENT_BODY);
    assert_int_equal(ev.length_bytes, 1);
    assert_int_equal(used, sizeof part2 - 1);
    assert_int_equal(http_parser_execute(&p, NULL, 0, &ev), 0);
    assert_int_equal(ev.type, HTTP_EVENT_NONE);
    assert_true(http_parser_in_body(&p));
    http_parser_deinit(&p);
}

/* ---- Bad requests ------------------------------------------------------ */

static void test_bad_request_line(void **state) {
    (void)state;
    check(" GET / HTTP/1.1\r\n\r\n", "X 400\n");
    check("GET  / HTTP/1.1\r\n\r\n", "X 400\n");
    check("GET / HTTP/1.1 \r\n\r\n", "X 400\n");
    check("GET /\r\n\r\n", "X 400\n");
    check("GET\r\n\r\n", "X 400\n");
    check("G(T / HTTP/1.1\r\n\r\n", "X 400\n");
    check("GET / http/1.1\r\n\r\n", "X 400\n");
    check("GET / HTTP/11\r\n\r\n", "X 400\n");
    check("GET / HTTP/1.1x\r\n\r\n", "X 400\n");
    check("GET / HTTP/1.\r\n\r\n", "X 400\n");
    check("GET /a\x01 HTTP/1.1\r\n\r\n", "X 400\n");
    check("GET /caf\xc3\xa9 HTTP/1.1\r\n\r\n", "X 400\n");
    check("GET /\tx HTTP/1.1\r\n\r\n", "X 400\n");
    check("GET / HTTP/1.1\rX: y\r\n\r\n", "X 400\n");
}

static void test_bad_version(void **state) {
    (void)state;
    check("GET / HTTP/2.0\r\n\r\n", "X 505\n");
    check("GET / HTTP/0.9\r\n\r\n", "X 505\n");
    check("GET / HTTP/3.1\r\n\r\n", "X 505\n");
}

static void test_bad_header_lines(void **state) {
    (void)state;
    check("GET / HTTP/1.1\r\nNoColon\r\n\r\n", "X 400\n");
    check("GET / HTTP/1.1\r\nName : value\r\n\r\n", "X 400\n");
    check("GET / HTTP/1.1\r\n: value\r\n\r\n", "X 400\n");
    check("GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", "X 400\n");
    check("GET / HTTP/1.1\r\n\tA: b\r\n\r\n", "X 400\n");
    check("GET / HTTP/1.1\r\nA: b\rc\r\n\r\n", "X 400\n");
    check_with(&default_limits, "GET / HTTP/1.1\r\nA: b\0c\r\n\r\n", 26, "X 400\n");
    check("GET / HTTP/1.1\r\nA: b\x7f\r\n\r\n", "X 400\n");
    check("GET / HTTP/1.1\r\nA: \x1b[31m\r\n\r\n", "X 400\n");
    check("GET / HTTP/1.1\r\nA(b): c\r\n\r\n", "X 400\n");
    check("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "X 400\n");
    check("GET / HTTP/1.1\r\nA: b\r\n\r\r\n", "X 400\n");
}

static void test_bad_content_length(void **state) {
    (void)state;
    check("POST / HTTP/1.1\r\nContent-Length: abc\r\n\r\n", "X 400\n");
    check("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", "X 400\n");
    check("POST / HTTP/1.1\r\nContent-Length: +5\r\n\r\n", "X 400\n");
    check("POST / HTTP/1.1\r\nContent-Length: 5, 5\r\n\r\n", "X 400\n");
    check("POST / HTTP/1.1\r\nContent-Length: 1 2\r\n\r\n", "X 400\n");
    check("POST / HTTP/1.1\r\nContent-Length:\r\n\r\n", "X 400\n");
    check("POST / HTTP/1.1\r\nContent-Length: 0x10\r\n\r\n", "X 400\n");
    check("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n", "X 400\n");
    check("POST / HTTP/1.1\r\nContent-Length: 18446744073709551616\r\n\r\n", "X 400\n");
    check("POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", "X 400\n");
}

static void test_bad_transfer_encoding(void **state) {
    (void)state;
    check("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", "X 501\n");
    check("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", "X 501\n");
    check("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n",
          "X 501\n");
    check("POST / HTTP/1.1\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", "X 400\n");
    check("POST / HTTP/1.1\r\nTransfer-Encoding:\r\n\r\n", "X 400\n");
    check("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", "X 400\n");
    check("POST / HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
          "0\r\n\r\n",
          "X 400\n");
    check("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n", "X 400\n");
}

static void test_bad_chunked_framing(void **state) {
    (void)state;
    const char *head = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
    const char *ok = "H POST / 11 ka1 cl- ch1 ex0\n  Transfer-Encoding: chunked\n";
    static const char *const bodies[] = {
        "zz\r\n",                              /* not hex */
        "\r\n",                                /* no size */
        " 5\r\nhello\r\n0\r\n\r\n",            /* whitespace before the size */
        "5\r\nhelloXX0\r\n\r\n",               /* data not followed by CRLF */
        "5\r\nhello\rX",                       /* CR not followed by LF */
        "5x\r\nhello\r\n",                     /* junk after the size */
        "5\rhello",                            /* CR not followed by LF in size line */
        "10000000000000000\r\n",               /* 17 hex digits: overflow */
        "5;a=\x01\r\nhello\r\n",               /* control byte in an extension */
        "0\r\n folded: x\r\n\r\n",             /* trailer starting with whitespace */
        "0\r\nNoColon\r\n\r\n",                /* trailer without a colon */
        "0\r\nA: b\rc\r\n\r\n",                /* bare CR in a trailer */
        "0\r\n\rX",                            /* CR not followed by LF at the end */
    };
    char input[512], expected[256];
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        snprintf(input, sizeof input, "%s%s", head, bodies[i]);
        snprintf(expected, sizeof expected, "%sX 400\n", ok);
        check(input, expected);
    }
}

static void test_header_limits(void **state) {
    (void)state;
    const char head[] = "GET / HTTP/1.1\r\nA: 12345\r\n\r\n";
    http_parser_limits tight = {sizeof head - 2, 4, HTTP_BODY_UNLIMITED};
    check_with(&tight, head, sizeof head - 1, "X 431\n");
    /* Never completed heads fail as soon as they pass the limit. */
    char endless[300];
    memset(endless, 'a', sizeof endless);
    memcpy(endless, "GET /", 5);
    http_parser_limits small = {256, 4, HTTP_BODY_UNLIMITED};
    check_with(&small, endless, sizeof endless, "X 431\n");
    const char many[] = "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n";
    http_parser_limits two = {8192, 2, HTTP_BODY_UNLIMITED};
    check_with(&two, many, sizeof many - 1, "X 431\n");
    char trailer[512];
    snprintf(trailer, sizeof trailer,
             "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-Long: %0200d\r\n\r\n", 0);
    http_parser_limits trailer_limit = {100, 4, HTTP_BODY_UNLIMITED};
    check_with(&trailer_limit, trailer, strlen(trailer),
               "H POST / 11 ka1 cl- ch1 ex0\n  Transfer-Encoding: chunked\nX 431\n");
}

static void test_body_limits(void **state) {
    (void)state;
    http_parser_limits limit = {8192, 4, 4};
    const char cl[] = "POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\n12345";
    check_with(&limit, cl, sizeof cl - 1,
               "H POST / 11 ka1 cl5 ch0 ex0\n  Content-Length: 5\nX 413\n");
    const char chunked[] =
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n123\r\n2\r\n45\r\n0\r\n\r\n";
    check_with(&limit, chunked, sizeof chunked - 1,
               "H POST / 11 ka1 cl- ch1 ex0\n  Transfer-Encoding: chunked\nX 413\n");
    /* The per-message limit set after HEADERS wins over the default. */
    http_parser p;
    http_parser_init(&p, &default_limits);
    http_event ev;
    size_t used = http_parser_execute(&p, (const uint8_t *)cl, sizeof cl - 1, &ev);
    assert_int_equal(ev.type, HTTP_EVENT_HEADERS);
    http_parser_set_body_limit(&p, 2);
    http_parser_execute(&p, (const uint8_t *)cl + used, sizeof cl - 1 - used, &ev);
    assert_int_equal(ev.type, HTTP_EVENT_ERROR);
    assert_int_equal(ev.status, 413);
    http_parser_deinit(&p);
}

static void test_chunk_extension_limit(void **state) {
    (void)state;
    char input[HTTP_CHUNK_EXT_MAX_BYTES + 200];
    int n = snprintf(input, sizeof input,
                     "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1;");
    memset(input + n, 'e', HTTP_CHUNK_EXT_MAX_BYTES + 10);
    size_t total = (size_t)n + HTTP_CHUNK_EXT_MAX_BYTES + 10;
    check_with(&default_limits, input, total,
               "H POST / 11 ka1 cl- ch1 ex0\n  Transfer-Encoding: chunked\nX 400\n");
}

static void test_bad_expect(void **state) {
    (void)state;
    check("POST / HTTP/1.1\r\nExpect: 200-ok\r\nContent-Length: 1\r\n\r\nx", "X 417\n");
}

/* After an error in one message nothing of the next is parsed. */
static void test_error_after_good_message(void **state) {
    (void)state;
    check("GET /a HTTP/1.1\r\n\r\nBAD\r\n\r\nGET /b HTTP/1.1\r\n\r\n",
          "H GET /a 11 ka1 cl- ch0 ex0\nE 0:\nX 400\n");
}

/* ---- Small tables ------------------------------------------------------ */

static void test_methods_and_reasons(void **state) {
    (void)state;
    assert_int_equal(http_method_bit("GET"), HTTP_METHOD_GET);
    assert_int_equal(http_method_bit("HEAD"), HTTP_METHOD_HEAD);
    assert_int_equal(http_method_bit("POST"), HTTP_METHOD_POST);
    assert_int_equal(http_method_bit("get"), HTTP_METHOD_OTHER); /* methods are case-sensitive */
    assert_int_equal(http_method_bit("BREW"), HTTP_METHOD_OTHER);
    assert_string_equal(http_status_reason(431), "Request Header Fields Too Large");
    assert_string_equal(http_status_reason(299), "Unknown");
    assert_true(http_token_equal("Chunked", 7, "chunked"));
    assert_false(http_token_equal("chunke", 6, "chunked"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_simple_get),
        cmocka_unit_test(test_http10_keep_alive_rules),
        cmocka_unit_test(test_content_length_body),
        cmocka_unit_test(test_chunked_body),
        cmocka_unit_test(test_pipelined_requests),
        cmocka_unit_test(test_whitespace_and_line_ends),
        cmocka_unit_test(test_expect_and_targets),
        cmocka_unit_test(test_limits_at_the_edge),
        cmocka_unit_test(test_take_head),
        cmocka_unit_test(test_partial_input),
        cmocka_unit_test(test_bad_request_line),
        cmocka_unit_test(test_bad_version),
        cmocka_unit_test(test_bad_header_lines),
        cmocka_unit_test(test_bad_content_length),
        cmocka_unit_test(test_bad_transfer_encoding),
        cmocka_unit_test(test_bad_chunked_framing),
        cmocka_unit_test(test_header_limits),
        cmocka_unit_test(test_body_limits),
        cmocka_unit_test(test_chunk_extension_limit),
        cmocka_unit_test(test_bad_expect),
        cmocka_unit_test(test_error_after_good_message),
        cmocka_unit_test(test_methods_and_reasons),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
