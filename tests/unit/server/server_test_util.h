/* server_test_util.h: harness for the HTTP server unit tests. Runs an
 * http_server with a caller's route table on a libuv loop in its own thread
 * (port 0: the kernel picks a free one) and offers blocking loopback client
 * helpers: connect, send, read one response (Content-Length, chunked or
 * until close), wait for the peer to close. Header-only; static functions.
 */
#ifndef MUSCLES_TESTS_SERVER_TEST_UTIL_H
#define MUSCLES_TESTS_SERVER_TEST_UTIL_H

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "server/http.h"

typedef struct test_server {
    uv_loop_t loop;
    mu_pool *pool;
    http_server *server;
    pthread_t thread;
    unsigned port;
} test_server;

static void *test_server_thread(void *arg) {
    test_server *t = arg;
    uv_run(&t->loop, UV_RUN_DEFAULT);
    return NULL;
}

static http_server_options test_server_options(void) {
    http_server_options opt = {
        .listen_host = "127.0.0.1",
        .port = 0,
        .max_connections = 64,
        .max_header_bytes = 8192,
        .max_body_bytes = 1024 * 1024,
        .keep_alive_timeout_ms = 10000,
        .request_timeout_ms = 10000,
        .shutdown_timeout_ms = 5000,
    };
    return opt;
}

/* Starts a server whose pool has `threads` workers and a queue of `queue`. */
static void test_server_start_pool(test_server *t, const http_server_options *opt,
                                   const http_route *routes, size_t route_count,
                                   unsigned threads, size_t queue) {
    memset(t, 0, sizeof *t);
    mu_err err;
    assert_int_equal(uv_loop_init(&t->loop), 0);
    assert_int_equal(mu_pool_create(&t->pool, "test-http", threads, queue, &err), 0);
    int rc = http_server_start(&t->server, &t->loop, opt, routes, route_count, t->pool, &err);
    if (rc != 0) print_error("http_server_start: %s\n", err.message);
    assert_int_equal(rc, 0);
    t->port = http_server_port(t->server);
    assert_true(t->port > 0);
    http_server_set_ready(t->server, true);
    assert_int_equal(pthread_create(&t->thread, NULL, test_server_thread, t), 0);
}

__attribute__((unused)) static void test_server_start(test_server *t,
                                                      const http_server_options *opt,
                                                      const http_route *routes,
                                                      size_t route_count) {
    test_server_start_pool(t, opt, routes, route_count, 4, 64);
}

/* Graceful shutdown from another thread, as SIGTERM does it. */
static void test_server_stop(test_server *t) {
    http_server_shutdown(t->server);
    assert_int_equal(pthread_join(t->thread, NULL), 0);
    mu_pool_destroy(t->pool);
    http_server_destroy(t->server);
    assert_int_equal(uv_loop_close(&t->loop), 0);
}

/* ---- Client side -------------------------------------------------------- */

static int client_connect(unsigned port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in addr = {0};
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&addr, sizeof addr), 0);
    struct timeval tv = {10, 0}; /* a hung test fails instead of hanging */
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

static void client_send(int fd, const void *data, size_t n) {
    const char *p = data;
    while (n > 0) {
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR) continue;
        assert_true(k > 0);
        p += k;
        n -= (size_t)k;
    }
}

static void client_send_str(int fd, const char *s) { client_send(fd, s, strlen(s)); }

/* Buffered reader over one connection (keeps bytes of the next response). */
typedef struct client_reader {
    int fd;
    char buf[1 << 16];
    size_t start;
    size_t end;
    bool eof;
} client_reader;

static void reader_init(client_reader *r, int fd) {
    r->fd = fd;
    r->start = r->end = 0;
    r->eof = false;
}

/* Reads more bytes; returns false at EOF or on a reset. */
static bool reader_fill(client_reader *r) {
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
    }
    assert_true(r->end < sizeof r->buf);
    ssize_t k = recv(r->fd, r->buf + r->end, sizeof r->buf - r->end, 0);
    if (k <= 0) {
        assert_true(k == 0 || errno == ECONNRESET); /* not a timeout */
        r->eof = true;
        return false;
    }
    r->end += (size_t)k;
    return true;
}

/* Reads one line (without CRLF) into out; false at EOF. */
static bool reader_line(client_reader *r, char *out, size_t cap) {
    for (;;) {
        char *lf = memchr(r->buf + r->start, '\n', r->end - r->start);
        if (lf != NULL) {
            size_t n = (size_t)(lf - (r->buf + r->start));
            size_t copy = n > 0 && r->buf[r->start + n - 1] == '\r' ? n - 1 : n;
            assert_true(copy < cap);
            memcpy(out, r->buf + r->start, copy);
            out[copy] = '\0';
            r->start += n + 1;
            return true;
        }
        if (!reader_fill(r)) return false;
    }
}

static void reader_exact(client_reader *r, mu_buf *out, size_t n) {
    while (n > 0) {
        if (r->end == r->start) assert_true(reader_fill(r));
        size_t take = MU_MIN(n, r->end - r->start);
        assert_int_equal(mu_buf_append(out, r->buf + r->start, take, NULL), 0);
        r->start += take;
        n -= take;
    }
}

typedef struct client_response {
    int status;
    char headers[4096]; /* "name: value\n" lines, names lower-cased */
    mu_buf body;
    bool chunked;
    long content_length; /* -1 if absent */
} client_response;

/* Value of a header in a response, or NULL; name in lower case. */
static const char *response_header(const client_response *resp, const char *name, char *out,
                                   size_t cap) {
    char key[128];
    snprintf(key, sizeof key, "%s: ", name);
    const char *line = resp->headers;
    while (*line != '\0') {
        const char *nl = strchr(line, '\n');
        if (strncmp(line, key, strlen(key)) == 0) {
            size_t n = (size_t)(nl - line) - strlen(key);
            snprintf(out, cap, "%.*s", (int)n, line + strlen(key));
            return out;
        }
        line = nl + 1;
    }
    return NULL;
}

static void read_chunked_body(client_reader *r, client_response *resp) {
    char line[256];
    for (;;) {
        assert_true(reader_line(r, line, sizeof line));
        unsigned long size = strtoul(line, NULL, 16);
        if (size == 0) break;
        reader_exact(r, &resp->body, size);
        assert_true(reader_line(r, line, sizeof line));
        assert_string_equal(line, "");
    }
    assert_true(reader_line(r, line, sizeof line)); /* no trailers from our server */
    assert_string_equal(line, "");
}

/* Reads one response (a 1xx is returned like any other). Returns false if
 * the connection closed before a status line. is_head: no body follows. */
static bool client_read_response(client_reader *r, client_response *resp, bool is_head) {
    memset(resp, 0, sizeof *resp);
    mu_buf_init(&resp->body, 0);
    resp->content_length = -1;
    char line[2048];
    if (!reader_line(r, line, sizeof line)) return false;
    assert_int_equal(strncmp(line, "HTTP/1.1 ", 9), 0);
    resp->status = atoi(line + 9);
    size_t used = 0;
    while (reader_line(r, line, sizeof line) && line[0] != '\0') {
        char *colon = strchr(line, ':');
        assert_non_null(colon);
        for (char *c = line; c < colon; c++) *c = (char)tolower((unsigned char)*c);
        used += (size_t)snprintf(resp->headers + used, sizeof resp->headers - used, "%s\n", line);
        if (strncmp(line, "content-length: ", 16) == 0) resp->content_length = atol(line + 16);
        if (strcmp(line, "transfer-encoding: chunked") == 0) resp->chunked = true;
    }
    if (is_head || resp->status / 100 == 1 || resp->status == 204) return true;
    if (resp->chunked) {
        read_chunked_body(r, resp);
    } else if (resp->content_length >= 0) {
        reader_exact(r, &resp->body, (size_t)resp->content_length);
    } else {
        while (r->end > r->start || reader_fill(r)) {
            assert_int_equal(mu_buf_append(&resp->body, r->buf + r->start, r->end - r->start, NULL),
                             0);
            r->start = r->end;
        }
    }
    return true;
}

static void response_free(client_response *resp) { mu_buf_deinit(&resp->body); }

static bool response_body_is(const client_response *resp, const char *want) {
    return resp->body.length_bytes == strlen(want) &&
           memcmp(resp->body.data, want, resp->body.length_bytes) == 0;
}

/* True if the server closes the connection within timeout_ms (EOF or RST,
 * after discarding whatever it still sends). */
__attribute__((unused)) static bool client_wait_closed(int fd, int timeout_ms) {
    int64_t deadline = mu_clock_mono_ms() + timeout_ms;
    char buf[4096];
    for (;;) {
        int64_t left = deadline - mu_clock_mono_ms();
        if (left <= 0) return false;
        struct pollfd pfd = {fd, POLLIN, 0};
        if (poll(&pfd, 1, (int)left) <= 0) return false;
        ssize_t k = recv(fd, buf, sizeof buf, 0);
        if (k <= 0) return true;
    }
}

/* One request on a fresh connection; returns the response. */
static void client_roundtrip(unsigned port, const char *request, client_response *resp) {
    int fd = client_connect(port);
    client_send_str(fd, request);
    client_reader *r = malloc(sizeof *r);
    assert_non_null(r);
    reader_init(r, fd);
    assert_true(client_read_response(r, resp, strncmp(request, "HEAD ", 5) == 0));
    free(r);
    close(fd);
}

#endif /* MUSCLES_TESTS_SERVER_TEST_UTIL_H */
