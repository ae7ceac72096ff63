/* http_exchange_test.c: goal — the request/response API that pool handlers
 * use (src/server/http_exchange.c) streams both ways without buffering whole
 * bodies: the body is a pull stream with back-pressure to the client, the
 * response is written chunked or with Content-Length as documented, a slow
 * client blocks the writing worker instead of growing memory, a client that
 * goes away makes reads and writes fail, and handler errors reach the client
 * in ClickHouse's shape; an open head sends its status line and fields as
 * they come, completes in the usual order, and an error after it keeps the
 * status. Runs a real server on loopback (server_test_util.h).
 */
#include "server_test_util.h"

#include <fcntl.h>
#include <signal.h>

#define MIB (1024 * 1024)

/* ---- Test handlers ------------------------------------------------------ */

/* Echoes the body back as it arrives, in odd-sized pieces. */
static int echo_handler(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    int rc = http_response_begin(req, 200, "application/octet-stream", NULL, 0,
                                 HTTP_LENGTH_UNKNOWN, err);
    static _Thread_local uint8_t buf[7001];
    while (rc == 0) {
        size_t got = 0;
        rc = http_body_read(req, buf, sizeof buf, &got, err);
        if (rc != 0 || got == 0) break;
        rc = http_response_write(req, buf, got, err);
    }
    if (rc == 0) rc = http_response_end(req, err);
    return rc;
}

static pthread_mutex_t gate_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
static bool gate_open;

static void gate_set(bool open) {
    pthread_mutex_lock(&gate_mu);
    gate_open = open;
    pthread_cond_broadcast(&gate_cond);
    pthread_mutex_unlock(&gate_mu);
}

/* Waits for the gate, then counts the body and answers the count. */
static int gate_handler(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    pthread_mutex_lock(&gate_mu);
    while (!gate_open) pthread_cond_wait(&gate_cond, &gate_mu);
    pthread_mutex_unlock(&gate_mu);
    static _Thread_local uint8_t buf[65536];
    uint64_t total = 0;
    for (;;) {
        size_t got = 0;
        int rc = http_body_read(req, buf, sizeof buf, &got, err);
        if (rc != 0) return rc;
        if (got == 0) break;
        total += got;
    }
    char text[32];
    int n = snprintf(text, sizeof text, "%llu", (unsigned long long)total);
    return http_response_send(req, 200, "text/plain", text, (size_t)n, err);
}

static _Atomic uint64_t big_handed_bytes;
#define BIG_TOTAL_BYTES (48 * MIB)

static uint8_t pattern_at(uint64_t offset) { return (uint8_t)(offset % 251); }

/* Writes BIG_TOTAL_BYTES of a known pattern, counting what it handed over. */
static int big_handler(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    int rc = http_response_begin(req, 200, NULL, NULL, 0, HTTP_LENGTH_UNKNOWN, err);
    static _Thread_local uint8_t buf[65536];
    for (uint64_t off = 0; rc == 0 && off < BIG_TOTAL_BYTES; off += sizeof buf) {
        for (size_t i = 0; i < sizeof buf; i++) buf[i] = pattern_at(off + i);
        rc = http_response_write(req, buf, sizeof buf, err);
        if (rc == 0) atomic_fetch_add(&big_handed_bytes, sizeof buf);
    }
    if (rc == 0) rc = http_response_end(req, err);
    return rc;
}

/* Handlers that run until an I/O call fails, and report how. */
static _Atomic int stream_failure;

static int write_forever_handler(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    int rc = http_response_begin(req, 200, NULL, NULL, 0, HTTP_LENGTH_UNKNOWN, err);
    static _Thread_local uint8_t buf[65536];
    while (rc == 0) rc = http_response_write(req, buf, sizeof buf, err);
    atomic_store(&stream_failure, rc);
    return rc;
}

static int read_forever_handler(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    static _Thread_local uint8_t buf[4096];
    int rc = 0;
    for (;;) {
        size_t got = 0;
        rc = http_body_read(req, buf, sizeof buf, &got, err);
        if (rc != 0 || got == 0) break;
    }
    atomic_store(&stream_failure, rc == 0 ? 1 : rc);
    return rc;
}

static int fail_handler(http_request *req, void *ctx, mu_err *err) {
    (void)req;
    (void)ctx;
    return MU_ERR(err, MU_EUNKNOWN_TABLE, "Table default.foo does not exist");
}

static int silent_handler(http_request *req, void *ctx, mu_err *err) {
    (void)req;
    (void)ctx;
    (void)err;
    return 0; /* a bug: no response */
}

static int one_write_handler(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    int rc = http_response_begin(req, 200, "text/plain", NULL, 0, HTTP_LENGTH_UNKNOWN, err);
    if (rc == 0) rc = http_response_write(req, "hello", 5, err);
    if (rc == 0) rc = http_response_end(req, err);
    return rc;
}

static int two_writes_handler(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    http_field fields[] = {{"X-Test", "two"}};
    int rc = http_response_begin(req, 200, "text/plain", fields, 1, HTTP_LENGTH_UNKNOWN, err);
    if (rc == 0) rc = http_response_write(req, "hello ", 6, err);
    if (rc == 0) rc = http_response_write(req, "world", 5, err);
    if (rc == 0) rc = http_response_end(req, err);
    return rc;
}

static int explicit_length_handler(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    int rc = http_response_begin(req, 201, "text/plain", NULL, 0, 10, err);
    if (rc == 0) rc = http_response_write(req, "0123", 4, err);
    if (rc == 0) rc = http_response_write(req, "456789", 6, err);
    if (rc == 0) rc = http_response_end(req, err);
    return rc;
}

static int short_length_handler(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    int rc = http_response_begin(req, 200, "text/plain", NULL, 0, 10, err);
    if (rc == 0) rc = http_response_write(req, "0123", 4, err);
    if (rc == 0) rc = http_response_end(req, err);
    return rc;
}

static int injection_handler(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    http_field fields[] = {{"X-ClickHouse-Query-Id", "abc\r\nSet-Cookie: x=1"}};
    int rc = http_response_begin(req, 200, "text/plain", fields, 1, HTTP_LENGTH_UNKNOWN, err);
    if (rc == 0) rc = http_response_end(req, err);
    return rc;
}

static int read_all_handler(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    mu_buf body;
    mu_buf_init(&body, 0);
    int rc = http_body_read_all(req, &body, err);
    if (rc == 0) {
        char text[32];
        int n = snprintf(text, sizeof text, "%zu", body.length_bytes);
        rc = http_response_send(req, 200, "text/plain", text, (size_t)n, err);
    }
    mu_buf_deinit(&body);
    return rc;
}

/* Answers at once without reading the body. */
static int early_handler(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    return http_response_send(req, 200, "text/plain", "early", 5, err);
}

/* An open head: the status line and X-Step: 1 go out, the gate holds the
 * handler, then X-Step: 2 and the rest of the head (begin's 404 is ignored:
 * the status was fixed at open). HTTP/1.0 cannot open: a plain answer. */
static int open_handler(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    if (!http_response_can_open(req)) {
        return http_response_send(req, 200, "text/plain", "plain", 5, err);
    }
    http_field step1 = {"X-Step", "1"}, step2 = {"X-Step", "2"}, last = {"X-Last", "yes"};
    int rc = http_response_open(req, 200, err);
    if (rc == 0) rc = http_response_add_field(req, &step1, err);
    pthread_mutex_lock(&gate_mu);
    while (!gate_open) pthread_cond_wait(&gate_cond, &gate_mu);
    pthread_mutex_unlock(&gate_mu);
    if (rc == 0) rc = http_response_add_field(req, &step2, err);
    if (rc == 0) {
        rc = http_response_begin(req, 404, "text/plain", &last, 1, HTTP_LENGTH_UNKNOWN, err);
    }
    if (rc == 0) rc = http_response_write(req, "hello", 5, err);
    if (rc == 0) rc = http_response_end(req, err);
    return rc;
}

/* Open, then a streamed (chunked) body. */
static int open_stream_handler(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    http_field step = {"X-Step", "1"};
    int rc = http_response_open(req, 200, err);
    if (rc == 0) rc = http_response_add_field(req, &step, err);
    if (rc == 0) {
        rc = http_response_begin(req, 200, "text/plain", NULL, 0, HTTP_LENGTH_UNKNOWN, err);
    }
    if (rc == 0) rc = http_response_write(req, "hello ", 6, err);
    if (rc == 0) rc = http_response_write(req, "world", 5, err);
    if (rc == 0) rc = http_response_end(req, err);
    return rc;
}

/* Open, then fail: the server's error answer keeps the status sent. */
static int open_fail_handler(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    http_field step = {"X-Step", "1"};
    int rc = http_response_open(req, 200, err);
    if (rc == 0) rc = http_response_add_field(req, &step, err);
    if (rc != 0) return rc;
    return MU_ERR(err, MU_EUNKNOWN_TABLE, "Table default.foo does not exist");
}

/* A field value from a client must not split an open head either. */
static int open_inject_handler(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    http_field bad = {"X-Step", "1\r\nSet-Cookie: x=1"};
    int rc = http_response_open(req, 200, err);
    if (rc == 0) rc = http_response_add_field(req, &bad, err);
    if (rc == 0) rc = http_response_send(req, 200, "text/plain", "not reached", 11, err);
    return rc;
}

#define POST_ROUTE(path, fn) {path, HTTP_METHOD_POST, HTTP_RUN_POOL, fn, NULL}
#define GET_ROUTE(path, fn) {path, HTTP_METHOD_GET | HTTP_METHOD_HEAD, HTTP_RUN_POOL, fn, NULL}

static const http_route routes[] = {
    POST_ROUTE("/echo", echo_handler),
    POST_ROUTE("/gate", gate_handler),
    GET_ROUTE("/big", big_handler),
    GET_ROUTE("/write-forever", write_forever_handler),
    POST_ROUTE("/read-forever", read_forever_handler),
    GET_ROUTE("/fail", fail_handler),
    GET_ROUTE("/silent", silent_handler),
    GET_ROUTE("/one", one_write_handler),
    GET_ROUTE("/two", two_writes_handler),
    GET_ROUTE("/explicit", explicit_length_handler),
    GET_ROUTE("/short", short_length_handler),
    GET_ROUTE("/inject", injection_handler),
    POST_ROUTE("/all", read_all_handler),
    POST_ROUTE("/early", early_handler),
    GET_ROUTE("/open", open_handler),
    GET_ROUTE("/open-stream", open_stream_handler),
    GET_ROUTE("/open-fail", open_fail_handler),
    GET_ROUTE("/open-inject", open_inject_handler),
};

static int setup(void **state) {
    test_server *t = malloc(sizeof *t);
    http_server_options opt = test_server_options();
    atomic_store(&stream_failure, 0);
    atomic_store(&big_handed_bytes, 0);
    gate_set(false);
    test_server_start(t, &opt, routes, MU_ARRAY_LEN(routes));
    *state = t;
    return 0;
}

static int teardown(void **state) {
    test_server *t = *state;
    gate_set(true);
    test_server_stop(t);
    free(t);
    return 0;
}

static bool wait_for_failure(int timeout_ms) {
    for (int i = 0; i < timeout_ms / 10; i++) {
        if (atomic_load(&stream_failure) != 0) return true;
        mu_sleep_ms(10);
    }
    return false;
}

/* ---- Streaming both ways ----------------------------------------------- */

typedef struct sender {
    int fd;
    size_t total_bytes;
} sender;

/* Sends a chunked body of total_bytes (pattern bytes) in uneven chunks. */
static void *send_chunked_body(void *arg) {
    sender *s = arg;
    uint8_t *buf = malloc(100000);
    size_t sent = 0, size = 1;
    while (sent < s->total_bytes) {
        size = MU_MIN(s->total_bytes - sent, size * 3 % 99991 + 1);
        for (size_t i = 0; i < size; i++) buf[i] = pattern_at(sent + i);
        char line[32];
        int n = snprintf(line, sizeof line, "%zx\r\n", size);
        client_send(s->fd, line, (size_t)n);
        client_send(s->fd, buf, size);
        client_send(s->fd, "\r\n", 2);
        sent += size;
    }
    client_send_str(s->fd, "0\r\n\r\n");
    free(buf);
    return NULL;
}

static void test_echo_streams_large_body(void **state) {
    test_server *t = *state;
    int fd = client_connect(t->port);
    client_send_str(fd, "POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n");
    sender s = {fd, 6 * MIB + 12345};
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, send_chunked_body, &s), 0);
    client_reader *r = malloc(sizeof *r);
    reader_init(r, fd);
    client_response resp;
    assert_true(client_read_response(r, &resp, false));
    pthread_join(thread, NULL);
    assert_int_equal(resp.status, 200);
    assert_true(resp.chunked);
    assert_int_equal(resp.body.length_bytes, s.total_bytes);
    for (size_t i = 0; i < resp.body.length_bytes; i++) {
        if (resp.body.data[i] != pattern_at(i)) fail_msg("echo differs at byte %zu", i);
    }
    /* The connection is reusable afterwards. */
    client_send_str(fd, "GET /one HTTP/1.1\r\n\r\n");
    client_response again;
    assert_true(client_read_response(r, &again, false));
    assert_true(response_body_is(&again, "hello"));
    response_free(&again);
    response_free(&resp);
    free(r);
    close(fd);
}

/* A worker that does not read stops the loop reading the socket: the
 * client's sends block long before the whole body is accepted. */
static void test_body_backpressure(void **state) {
    test_server *t = *state;
    int fd = client_connect(t->port);
    const size_t total = 64 * MIB;
    char head[128];
    snprintf(head, sizeof head, "POST /gate HTTP/1.1\r\nContent-Length: %zu\r\n\r\n", total);
    client_send_str(fd, head);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    static uint8_t block[65536];
    size_t sent = 0;
    int64_t stalled_since = 0;
    while (sent < total) {
        ssize_t k = send(fd, block, MU_MIN(sizeof block, total - sent), MSG_NOSIGNAL);
        if (k > 0) {
            sent += (size_t)k;
            stalled_since = 0;
            continue;
        }
        assert_true(errno == EAGAIN || errno == EWOULDBLOCK);
        if (stalled_since == 0) stalled_since = mu_clock_mono_ms();
        if (mu_clock_mono_ms() - stalled_since > 300) break;
        mu_sleep_ms(5);
    }
    /* Kernel socket buffers on loopback can hold several MiB; the server's
     * own queue holds about HTTP_BODY_QUEUE_MAX_BYTES + one read. */
    assert_true(sent < 24 * MIB);
    gate_set(true);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    while (sent < total) {
        size_t n = MU_MIN(sizeof block, total - sent);
        client_send(fd, block, n);
        sent += n;
    }
    client_reader *r = malloc(sizeof *r);
    reader_init(r, fd);
    client_response resp;
    assert_true(client_read_response(r, &resp, false));
    char want[32];
    snprintf(want, sizeof want, "%zu", total);
    assert_true(response_body_is(&resp, want));
    response_free(&resp);
    free(r);
    close(fd);
}

/* A client that does not read blocks the writing worker (bounded queue). */
static void test_response_backpressure(void **state) {
    test_server *t = *state;
    int fd = client_connect(t->port);
    int small = 64 * 1024;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    client_send_str(fd, "GET /big HTTP/1.1\r\n\r\n");
    mu_sleep_ms(400);
    uint64_t handed = atomic_load(&big_handed_bytes);
    assert_true(handed > 0);
    assert_true(handed < 16 * MIB);
    client_reader *r = malloc(sizeof *r);
    reader_init(r, fd);
    client_response resp;
    assert_true(client_read_response(r, &resp, false));
    assert_int_equal(resp.body.length_bytes, BIG_TOTAL_BYTES);
    for (size_t i = 0; i < resp.body.length_bytes; i += 4099) {
        assert_int_equal(resp.body.data[i], pattern_at(i));
    }
    response_free(&resp);
    free(r);
    close(fd);
}

/* ---- Disconnects ---------------------------------------------------------- */

static void test_disconnect_fails_writes(void **state) {
    test_server *t = *state;
    int fd = client_connect(t->port);
    client_send_str(fd, "GET /write-forever HTTP/1.1\r\n\r\n");
    char buf[4096];
    assert_true(recv(fd, buf, sizeof buf, 0) > 0);
    close(fd); /* unread data: the kernel sends RST */
    assert_true(wait_for_failure(3000));
    assert_int_equal(atomic_load(&stream_failure), MU_ECANCELLED);
}

static void test_disconnect_fails_body_reads(void **state) {
    test_server *t = *state;
    int fd = client_connect(t->port);
    client_send_str(fd, "POST /read-forever HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                        "5\r\nhello\r\n");
    mu_sleep_ms(50);
    close(fd);
    assert_true(wait_for_failure(3000));
    assert_int_equal(atomic_load(&stream_failure), MU_ECANCELLED);
}

/* A client that stops reading: the worker's write fails after
 * request_timeout_ms without progress instead of blocking forever. */
static void test_unread_response_times_out(void **state) {
    test_server *t = *state;
    test_server_stop(t);
    http_server_options opt = test_server_options();
    opt.request_timeout_ms = 300;
    test_server_start(t, &opt, routes, MU_ARRAY_LEN(routes));
    int fd = client_connect(t->port);
    int small = 16 * 1024;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    client_send_str(fd, "GET /write-forever HTTP/1.1\r\n\r\n");
    int64_t start = mu_clock_mono_ms();
    assert_true(wait_for_failure(5000));
    assert_int_equal(atomic_load(&stream_failure), MU_ETIMEOUT);
    assert_true(mu_clock_mono_ms() - start >= 250);
    close(fd);
}

/* Every worker busy and the queue full: the loop answers 503 itself. */
static void test_pool_full_is_503(void **state) {
    test_server *t = *state;
    test_server_stop(t);
    http_server_options opt = test_server_options();
    test_server_start_pool(t, &opt, routes, MU_ARRAY_LEN(routes), 1, 1);
    int busy = client_connect(t->port), queued = client_connect(t->port);
    client_send_str(busy, "POST /gate HTTP/1.1\r\nContent-Length: 1\r\n\r\nx");
    mu_sleep_ms(100); /* the only worker waits at the gate */
    client_send_str(queued, "POST /gate HTTP/1.1\r\nContent-Length: 1\r\n\r\ny");
    mu_sleep_ms(100); /* the only queue slot is taken */
    client_response resp;
    char v[64];
    client_roundtrip(t->port, "POST /gate HTTP/1.1\r\nContent-Length: 1\r\n\r\nz", &resp);
    assert_int_equal(resp.status, 503);
    assert_string_equal(response_header(&resp, "x-clickhouse-exception-code", v, sizeof v),
                        "439");
    response_free(&resp);
    gate_set(true);
    client_reader *r = malloc(sizeof *r);
    int fds[] = {busy, queued};
    for (int i = 0; i < 2; i++) {
        reader_init(r, fds[i]);
        assert_true(client_read_response(r, &resp, false));
        assert_true(response_body_is(&resp, "1"));
        response_free(&resp);
        close(fds[i]);
    }
    free(r);
}

/* A malformed chunk after the handler started reading: the handler's read
 * fails and the client gets 400 (no response had begun). */
static void test_bad_chunk_fails_body_reads(void **state) {
    test_server *t = *state;
    int fd = client_connect(t->port);
    client_send_str(fd, "POST /read-forever HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                        "5\r\nhello\r\n");
    mu_sleep_ms(100); /* the handler is reading by now */
    client_send_str(fd, "zz\r\n");
    client_reader *r = malloc(sizeof *r);
    reader_init(r, fd);
    client_response resp;
    assert_true(client_read_response(r, &resp, false));
    assert_int_equal(resp.status, 400);
    response_free(&resp);
    free(r);
    close(fd);
    assert_true(wait_for_failure(3000));
    assert_int_equal(atomic_load(&stream_failure), MU_EPROTOCOL);
}

/* ---- Framing choices ------------------------------------------------------ */

static void test_framing_choices(void **state) {
    test_server *t = *state;
    client_response resp;
    char v[64];
    client_roundtrip(t->port, "GET /one HTTP/1.1\r\n\r\n", &resp);
    assert_int_equal(resp.content_length, 5);
    assert_false(resp.chunked);
    assert_true(response_body_is(&resp, "hello"));
    response_free(&resp);
    client_roundtrip(t->port, "GET /two HTTP/1.1\r\n\r\n", &resp);
    assert_true(resp.chunked);
    assert_int_equal(resp.content_length, -1);
    assert_true(response_body_is(&resp, "hello world"));
    assert_string_equal(response_header(&resp, "x-test", v, sizeof v), "two");
    assert_string_equal(response_header(&resp, "content-type", v, sizeof v), "text/plain");
    response_free(&resp);
    client_roundtrip(t->port, "GET /explicit HTTP/1.1\r\n\r\n", &resp);
    assert_int_equal(resp.status, 201);
    assert_int_equal(resp.content_length, 10);
    assert_true(response_body_is(&resp, "0123456789"));
    response_free(&resp);
    /* HTTP/1.0 cannot take chunks: the body ends with the connection. */
    client_roundtrip(t->port, "GET /two HTTP/1.0\r\n\r\n", &resp);
    assert_false(resp.chunked);
    assert_int_equal(resp.content_length, -1);
    assert_string_equal(response_header(&resp, "connection", v, sizeof v), "Close");
    assert_true(response_body_is(&resp, "hello world"));
    response_free(&resp);
}

static void test_head_sends_no_body(void **state) {
    test_server *t = *state;
    int fd = client_connect(t->port);
    client_reader *r = malloc(sizeof *r);
    reader_init(r, fd);
    client_response resp;
    client_send_str(fd, "HEAD /two HTTP/1.1\r\n\r\n"
                        "HEAD /one HTTP/1.1\r\n\r\n"
                        "GET /one HTTP/1.1\r\n\r\n");
    assert_true(client_read_response(r, &resp, true));
    assert_true(resp.chunked);
    response_free(&resp);
    assert_true(client_read_response(r, &resp, true));
    assert_int_equal(resp.content_length, 5);
    response_free(&resp);
    assert_true(client_read_response(r, &resp, false));
    assert_true(response_body_is(&resp, "hello"));
    response_free(&resp);
    free(r);
    close(fd);
}

/* ---- Errors ----------------------------------------------------------------- */

static void test_handler_error_is_clickhouse_shaped(void **state) {
    test_server *t = *state;
    client_response resp;
    char v[64];
    client_roundtrip(t->port, "GET /fail HTTP/1.1\r\n\r\n", &resp);
    assert_int_equal(resp.status, 404);
    assert_string_equal(response_header(&resp, "x-clickhouse-exception-code", v, sizeof v), "60");
    char want[256];
    snprintf(want, sizeof want,
             "Code: 60. DB::Exception: Table default.foo does not exist. (UNKNOWN_TABLE) "
             "(version %s)\n", MUSCLES_VERSION);
    assert_true(response_body_is(&resp, want));
    response_free(&resp);
}

static void test_handler_bugs_are_500(void **state) {
    test_server *t = *state;
    client_response resp;
    char v[64];
    client_roundtrip(t->port, "GET /silent HTTP/1.1\r\n\r\n", &resp);
    assert_int_equal(resp.status, 500);
    assert_string_equal(response_header(&resp, "x-clickhouse-exception-code", v, sizeof v), "49");
    response_free(&resp);
    /* Content-Length promised but not delivered: the connection is cut so the
     * client sees a truncated body, never a wrong one. */
    int fd = client_connect(t->port);
    client_send_str(fd, "GET /short HTTP/1.1\r\n\r\n");
    char buf[1024];
    size_t got = 0;
    for (;;) {
        ssize_t k = recv(fd, buf + got, sizeof buf - got, 0);
        if (k <= 0) break;
        got += (size_t)k;
    }
    buf[got] = '\0';
    assert_non_null(strstr(buf, "Content-Length: 10"));
    assert_non_null(strstr(buf, "\r\n\r\n0123"));
    assert_null(strstr(buf, "0123456789"));
    close(fd);
}

static void test_response_field_injection_refused(void **state) {
    test_server *t = *state;
    client_response resp;
    char v[64];
    client_roundtrip(t->port, "GET /inject HTTP/1.1\r\n\r\n", &resp);
    assert_int_equal(resp.status, 400);
    assert_null(response_header(&resp, "set-cookie", v, sizeof v));
    response_free(&resp);
}

static void test_read_all_limit(void **state) {
    test_server *t = *state;
    client_response resp;
    client_roundtrip(t->port, "POST /all HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello", &resp);
    assert_true(response_body_is(&resp, "5"));
    response_free(&resp);
    /* Declared too large: refused before reading; the body is drained and
     * the connection serves the next request. */
    int fd = client_connect(t->port);
    client_reader *r = malloc(sizeof *r);
    reader_init(r, fd);
    size_t big = 2 * MIB;
    char head[128];
    snprintf(head, sizeof head, "POST /all HTTP/1.1\r\nContent-Length: %zu\r\n\r\n", big);
    client_send_str(fd, head);
    assert_true(client_read_response(r, &resp, false));
    assert_int_equal(resp.status, 413);
    response_free(&resp);
    uint8_t *zeros = calloc(1, big);
    client_send(fd, zeros, big);
    free(zeros);
    client_send_str(fd, "GET /one HTTP/1.1\r\n\r\n");
    assert_true(client_read_response(r, &resp, false));
    assert_true(response_body_is(&resp, "hello"));
    response_free(&resp);
    free(r);
    close(fd);
    /* Chunked, no declared size: refused once past the limit. */
    fd = client_connect(t->port);
    reader_init(r = malloc(sizeof *r), fd);
    client_send_str(fd, "POST /all HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n");
    sender s = {fd, 2 * MIB};
    send_chunked_body(&s);
    assert_true(client_read_response(r, &resp, false));
    assert_int_equal(resp.status, 413);
    response_free(&resp);
    free(r);
    close(fd);
}

/* A response before the body was read: the rest of the body is drained and
 * the keep-alive connection stays usable. */
static void test_early_response_drains_body(void **state) {
    test_server *t = *state;
    int fd = client_connect(t->port);
    client_reader *r = malloc(sizeof *r);
    reader_init(r, fd);
    client_send_str(fd, "POST /early HTTP/1.1\r\nContent-Length: 100000\r\n\r\n");
    client_response resp;
    assert_true(client_read_response(r, &resp, false));
    assert_true(response_body_is(&resp, "early"));
    response_free(&resp);
    uint8_t *junk = malloc(100000);
    memset(junk, 'G', 100000); /* would parse as requests if not drained */
    client_send(fd, junk, 100000);
    free(junk);
    client_send_str(fd, "GET /one HTTP/1.1\r\n\r\n");
    assert_true(client_read_response(r, &resp, false));
    assert_true(response_body_is(&resp, "hello"));
    response_free(&resp);
    free(r);
    close(fd);
}

/* ---- Open heads --------------------------------------------------------- */

/* The status line and the fields added go out while the handler works;
 * begin completes the head in the usual order, keeping the status. */
static void test_open_head_fields_go_out_early(void **state) {
    test_server *t = *state;
    int fd = client_connect(t->port);
    client_reader *r = malloc(sizeof *r);
    reader_init(r, fd);
    client_send_str(fd, "GET /open HTTP/1.1\r\n\r\n");
    char line[256];
    assert_true(reader_line(r, line, sizeof line));
    assert_string_equal(line, "HTTP/1.1 200 OK");
    assert_true(reader_line(r, line, sizeof line));
    assert_string_equal(line, "X-Step: 1");
    /* Nothing else until the handler goes on. */
    struct pollfd pfd = {fd, POLLIN, 0};
    assert_int_equal(r->end - r->start, 0);
    assert_int_equal(poll(&pfd, 1, 200), 0);
    gate_set(true);
    static const char *const want[] = {"X-Step: 2", "Date: ", "Connection: Keep-Alive",
                                       "Content-Type: text/plain", "Content-Length: 5",
                                       "Keep-Alive: timeout=10", "X-Last: yes", ""};
    for (size_t i = 0; i < MU_ARRAY_LEN(want); i++) {
        assert_true(reader_line(r, line, sizeof line));
        assert_int_equal(strncmp(line, want[i], strlen(want[i])), 0);
        if (want[i][0] == '\0') assert_string_equal(line, "");
    }
    mu_buf body;
    mu_buf_init(&body, 0);
    reader_exact(r, &body, 5);
    assert_memory_equal(body.data, "hello", 5);
    mu_buf_deinit(&body);
    /* The connection stays usable. */
    client_response resp;
    client_send_str(fd, "GET /one HTTP/1.1\r\n\r\n");
    assert_true(client_read_response(r, &resp, false));
    assert_true(response_body_is(&resp, "hello"));
    response_free(&resp);
    free(r);
    close(fd);
}

static void test_open_head_streams_and_skips_http10(void **state) {
    test_server *t = *state;
    client_response resp;
    char v[64];
    client_roundtrip(t->port, "GET /open-stream HTTP/1.1\r\n\r\n", &resp);
    assert_int_equal(resp.status, 200);
    assert_true(resp.chunked);
    assert_string_equal(response_header(&resp, "x-step", v, sizeof v), "1");
    assert_true(response_body_is(&resp, "hello world"));
    response_free(&resp);
    /* HTTP/1.0: no open head, a plain answer. */
    client_roundtrip(t->port, "GET /open HTTP/1.0\r\n\r\n", &resp);
    assert_int_equal(resp.status, 200);
    assert_null(response_header(&resp, "x-step", v, sizeof v));
    assert_true(response_body_is(&resp, "plain"));
    response_free(&resp);
}

static void test_open_head_error_keeps_status(void **state) {
    test_server *t = *state;
    client_response resp;
    char v[64];
    client_roundtrip(t->port, "GET /open-fail HTTP/1.1\r\n\r\n", &resp);
    assert_int_equal(resp.status, 200);
    assert_string_equal(response_header(&resp, "x-step", v, sizeof v), "1");
    assert_string_equal(response_header(&resp, "x-clickhouse-exception-code", v, sizeof v), "60");
    char want[256];
    snprintf(want, sizeof want,
             "Code: 60. DB::Exception: Table default.foo does not exist. (UNKNOWN_TABLE) "
             "(version %s)\n", MUSCLES_VERSION);
    assert_true(response_body_is(&resp, want));
    assert_int_equal(resp.content_length, (long)strlen(want));
    response_free(&resp);
    client_roundtrip(t->port, "GET /open-inject HTTP/1.1\r\n\r\n", &resp);
    assert_int_equal(resp.status, 200);
    assert_null(response_header(&resp, "set-cookie", v, sizeof v));
    assert_non_null(response_header(&resp, "x-clickhouse-exception-code", v, sizeof v));
    response_free(&resp);
}

int main(void) {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_echo_streams_large_body),
        T(test_body_backpressure),
        T(test_response_backpressure),
        T(test_disconnect_fails_writes),
        T(test_disconnect_fails_body_reads),
        T(test_unread_response_times_out),
        T(test_pool_full_is_503),
        T(test_bad_chunk_fails_body_reads),
        T(test_framing_choices),
        T(test_head_sends_no_body),
        T(test_handler_error_is_clickhouse_shaped),
        T(test_handler_bugs_are_500),
        T(test_response_field_injection_refused),
        T(test_read_all_limit),
        T(test_early_response_drains_body),
        T(test_open_head_fields_go_out_early),
        T(test_open_head_streams_and_skips_http10),
        T(test_open_head_error_keeps_status),
    };
#undef T
    signal(SIGPIPE, SIG_IGN);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
