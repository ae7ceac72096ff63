/* http_server_test.c: goal — the connection side of the HTTP server
 * (src/server/http_server.c): keep-alive and HTTP/1.0 rules, pipelining,
 * routing (404, 405), parse errors answered with their status and a close
 * while other connections keep working, the request and keep-alive timers,
 * max_connections, 100-continue, start-up errors, and graceful shutdown
 * (idle connections closed, requests in flight finished, forced close after
 * shutdown_timeout_ms). Runs a real server on loopback (server_test_util.h).
 */
#include "server_test_util.h"

#include <signal.h>

static int ping_handler(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    return http_response_send(req, 200, "text/plain; charset=UTF-8", "Ok.\n", 4, err);
}

/* Reads the whole body and answers its size (pool). */
static int size_handler(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    static _Thread_local uint8_t buf[16384];
    size_t total = 0;
    for (;;) {
        size_t got = 0;
        int rc = http_body_read(req, buf, sizeof buf, &got, err);
        if (rc != 0) return rc;
        if (got == 0) break;
        total += got;
    }
    char text[32];
    int n = snprintf(text, sizeof text, "%zu", total);
    return http_response_send(req, 200, "text/plain", text, (size_t)n, err);
}

static _Atomic int block_result;

/* Reads until the body fails (the client never finishes it). */
static int block_handler(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    uint8_t buf[256];
    int rc;
    for (;;) {
        size_t got = 0;
        rc = http_body_read(req, buf, sizeof buf, &got, err);
        if (rc != 0 || got == 0) break;
    }
    atomic_store(&block_result, rc == 0 ? 1 : rc);
    return rc;
}

static const http_route routes[] = {
    {"/ping", HTTP_METHOD_GET | HTTP_METHOD_HEAD, HTTP_RUN_INLINE, ping_handler, NULL},
    {"/size", HTTP_METHOD_POST | HTTP_METHOD_PUT, HTTP_RUN_POOL, size_handler, NULL},
    {"/block", HTTP_METHOD_POST, HTTP_RUN_POOL, block_handler, NULL},
};

static test_server *start_with(const http_server_options *opt) {
    test_server *t = malloc(sizeof *t);
    atomic_store(&block_result, 0);
    test_server_start(t, opt, routes, MU_ARRAY_LEN(routes));
    return t;
}

static int setup(void **state) {
    http_server_options opt = test_server_options();
    *state = start_with(&opt);
    return 0;
}

static int teardown(void **state) {
    test_server *t = *state;
    if (t != NULL) {
        test_server_stop(t);
        free(t);
    }
    return 0;
}

static client_reader *reader_new(int fd) {
    client_reader *r = malloc(sizeof *r);
    assert_non_null(r);
    reader_init(r, fd);
    return r;
}

static void expect_status(client_reader *r, int status, const char *body) {
    client_response resp;
    assert_true(client_read_response(r, &resp, false));
    assert_int_equal(resp.status, status);
    if (body != NULL) assert_true(response_body_is(&resp, body));
    response_free(&resp);
}

/* ---- Keep-alive, versions, pipelining, routing ---------------------------- */

static void test_keep_alive_reuse(void **state) {
    test_server *t = *state;
    int fd = client_connect(t->port);
    client_reader *r = reader_new(fd);
    char v[64];
    for (int i = 0; i < 3; i++) {
        client_send_str(fd, "GET /ping HTTP/1.1\r\nHost: x\r\n\r\n");
        client_response resp;
        assert_true(client_read_response(r, &resp, false));
        assert_int_equal(resp.status, 200);
        assert_true(response_body_is(&resp, "Ok.\n"));
        assert_string_equal(response_header(&resp, "connection", v, sizeof v), "Keep-Alive");
        assert_string_equal(response_header(&resp, "keep-alive", v, sizeof v), "timeout=10");
        assert_non_null(response_header(&resp, "date", v, sizeof v));
        assert_string_equal(response_header(&resp, "content-length", v, sizeof v), "4");
        response_free(&resp);
    }
    free(r);
    close(fd);
}

static void test_http10(void **state) {
    test_server *t = *state;
    int fd = client_connect(t->port);
    client_reader *r = reader_new(fd);
    char v[64];
    client_send_str(fd, "GET /ping HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
    client_response resp;
    assert_true(client_read_response(r, &resp, false));
    assert_string_equal(response_header(&resp, "connection", v, sizeof v), "Keep-Alive");
    response_free(&resp);
    client_send_str(fd, "GET /ping HTTP/1.0\r\n\r\n");
    assert_true(client_read_response(r, &resp, false));
    assert_string_equal(response_header(&resp, "connection", v, sizeof v), "Close");
    assert_null(response_header(&resp, "keep-alive", v, sizeof v));
    response_free(&resp);
    assert_true(client_wait_closed(fd, 3000));
    free(r);
    close(fd);
}

static void test_pipelining(void **state) {
    test_server *t = *state;
    int fd = client_connect(t->port);
    client_reader *r = reader_new(fd);
    client_send_str(fd, "GET /ping HTTP/1.1\r\n\r\n"
                        "GET /nope HTTP/1.1\r\n\r\n"
                        "POST /size HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"
                        "PUT /size HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                        "4\r\nabcd\r\n0\r\n\r\n"
                        "GET /ping HTTP/1.1\r\nConnection: close\r\n\r\n");
    expect_status(r, 200, "Ok.\n");
    expect_status(r, 404, NULL);
    expect_status(r, 200, "3");
    expect_status(r, 200, "4");
    expect_status(r, 200, "Ok.\n");
    assert_true(client_wait_closed(fd, 3000));
    free(r);
    close(fd);
}

/* Complete requests sent before a half-close are still answered. */
static void test_half_close_after_requests(void **state) {
    test_server *t = *state;
    int fd = client_connect(t->port);
    client_reader *r = reader_new(fd);
    client_send_str(fd, "GET /ping HTTP/1.1\r\n\r\n"
                        "POST /size HTTP/1.1\r\nContent-Length: 2\r\n\r\nab");
    shutdown(fd, SHUT_WR);
    expect_status(r, 200, "Ok.\n");
    expect_status(r, 200, "2");
    assert_true(client_wait_closed(fd, 3000));
    free(r);
    close(fd);
}

static void test_not_found_and_method_not_allowed(void **state) {
    test_server *t = *state;
    client_response resp;
    char v[64];
    client_roundtrip(t->port, "GET /nope?x=1 HTTP/1.1\r\n\r\n", &resp);
    assert_int_equal(resp.status, 404);
    assert_true(resp.body.length_bytes > 0);
    assert_non_null(memmem(resp.body.data, resp.body.length_bytes, "/nope", 5));
    response_free(&resp);
    client_roundtrip(t->port, "POST /ping HTTP/1.1\r\nContent-Length: 0\r\n\r\n", &resp);
    assert_int_equal(resp.status, 405);
    assert_string_equal(response_header(&resp, "allow", v, sizeof v), "GET, HEAD");
    response_free(&resp);
    client_roundtrip(t->port, "HEAD /ping HTTP/1.1\r\n\r\n", &resp);
    assert_int_equal(resp.status, 200);
    assert_int_equal(resp.content_length, 4);
    response_free(&resp);
}

/* ---- Bad input --------------------------------------------------------------- */

static void expect_error_and_close(unsigned port, const char *request, size_t n, int status) {
    int fd = client_connect(port);
    client_reader *r = reader_new(fd);
    client_send(fd, request, n);
    client_response resp;
    char v[64];
    assert_true(client_read_response(r, &resp, false));
    assert_int_equal(resp.status, status);
    assert_string_equal(response_header(&resp, "connection", v, sizeof v), "Close");
    assert_true(resp.body.length_bytes > 0);
    response_free(&resp);
    assert_true(client_wait_closed(fd, 3000));
    free(r);
    close(fd);
}

static void test_parse_errors_answered_and_closed(void **state) {
    test_server *t = *state;
    int keep = client_connect(t->port); /* another client, unaffected */
    client_reader *r = reader_new(keep);
    client_send_str(keep, "GET /ping HTTP/1.1\r\n\r\n");
    expect_status(r, 200, "Ok.\n");
#define BAD(s, status) expect_error_and_close(t->port, s, sizeof s - 1, status)
    BAD("GARBAGE\r\n\r\n", 400);
    BAD("GET / HTTP/1.1\r\nA: b\r\n c\r\n\r\n", 400);
    BAD("GET / HTTP/2.0\r\n\r\n", 505);
    BAD("POST /size HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501);
    BAD("POST /size HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400);
    BAD("POST /size HTTP/1.1\r\nExpect: x\r\n\r\n", 417);
    BAD("POST /size HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400);
#undef BAD
    char big[10000];
    memset(big, 'a', sizeof big);
    memcpy(big, "GET / HTTP/1.1\r\nX: ", 19);
    expect_error_and_close(t->port, big, sizeof big, 431);
    client_send_str(keep, "GET /ping HTTP/1.1\r\n\r\n");
    expect_status(r, 200, "Ok.\n");
    free(r);
    close(keep);
}

/* ---- Timers ------------------------------------------------------------------- */

static void test_request_timeout(void **state) {
    test_server *t = *state;
    test_server_stop(t);
    free(t);
    http_server_options opt = test_server_options();
    opt.request_timeout_ms = 200;
    opt.keep_alive_timeout_ms = 300;
    *state = t = start_with(&opt);
    /* A partial head gets 408 and a close. */
    int64_t start = mu_clock_mono_ms();
    expect_error_and_close(t->port, "GET /ping HTTP/1.1\r\nHos", 23, 408);
    assert_true(mu_clock_mono_ms() - start >= 150);
    /* A stalled body too, and the handler's read fails with ETIMEOUT. */
    static const char stalled[] = "POST /block HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc";
    expect_error_and_close(t->port, stalled, sizeof stalled - 1, 408);
    for (int i = 0; i < 300 && atomic_load(&block_result) == 0; i++) mu_sleep_ms(10);
    assert_int_equal(atomic_load(&block_result), MU_ETIMEOUT);
    /* A connection that never sends is closed without an answer. */
    int fd = client_connect(t->port);
    char buf[64];
    assert_true(client_wait_closed(fd, 2000));
    assert_true(recv(fd, buf, sizeof buf, 0) <= 0);
    close(fd);
    /* After a response, the keep-alive timer closes the idle connection. */
    fd = client_connect(t->port);
    client_reader *r = reader_new(fd);
    client_send_str(fd, "GET /ping HTTP/1.1\r\n\r\n");
    expect_status(r, 200, "Ok.\n");
    start = mu_clock_mono_ms();
    assert_true(client_wait_closed(fd, 3000));
    assert_true(mu_clock_mono_ms() - start >= 250);
    free(r);
    close(fd);
}

/* A body that arrives slowly but steadily is not timed out: the body timer
 * measures inactivity. */
static void test_slow_body_within_timeout(void **state) {
    test_server *t = *state;
    test_server_stop(t);
    free(t);
    http_server_options opt = test_server_options();
    opt.request_timeout_ms = 300;
    *state = t = start_with(&opt);
    int fd = client_connect(t->port);
    client_reader *r = reader_new(fd);
    client_send_str(fd, "POST /size HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n");
    for (int i = 0; i < 6; i++) {
        mu_sleep_ms(150);
        client_send_str(fd, "1\r\nx\r\n");
    }
    client_send_str(fd, "0\r\n\r\n");
    expect_status(r, 200, "6");
    free(r);
    close(fd);
}

static void test_max_connections(void **state) {
    test_server *t = *state;
    test_server_stop(t);
    free(t);
    http_server_options opt = test_server_options();
    opt.max_connections = 2;
    *state = t = start_with(&opt);
    int a = client_connect(t->port), b = client_connect(t->port);
    client_reader *ra = reader_new(a), *rb = reader_new(b);
    client_send_str(a, "GET /ping HTTP/1.1\r\n\r\n");
    expect_status(ra, 200, "Ok.\n");
    client_send_str(b, "GET /ping HTTP/1.1\r\n\r\n");
    expect_status(rb, 200, "Ok.\n");
    int c = client_connect(t->port); /* the kernel accepts; the server closes it */
    assert_true(client_wait_closed(c, 3000));
    close(c);
    close(a);
    bool served = false;
    for (int attempt = 0; attempt < 50 && !served; attempt++) {
        mu_sleep_ms(20);
        int d = client_connect(t->port);
        client_reader *rd = reader_new(d);
        send(d, "GET /ping HTTP/1.1\r\n\r\n", 22, MSG_NOSIGNAL);
        client_response resp;
        served = client_read_response(rd, &resp, false) && resp.status == 200;
        response_free(&resp);
        free(rd);
        close(d);
    }
    assert_true(served);
    free(ra);
    free(rb);
    close(b);
}

static void test_expect_continue(void **state) {
    test_server *t = *state;
    int fd = client_connect(t->port);
    client_reader *r = reader_new(fd);
    client_send_str(fd, "POST /size HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
    expect_status(r, 100, NULL);
    client_send_str(fd, "hello");
    expect_status(r, 200, "5");
    free(r);
    close(fd);
}

/* ---- Start-up errors ---------------------------------------------------------- */

static void test_start_errors(void **state) {
    test_server *t = *state;
    uv_loop_t loop;
    assert_int_equal(uv_loop_init(&loop), 0);
    mu_pool *pool = NULL;
    mu_err err;
    assert_int_equal(mu_pool_create(&pool, "test-start", 1, 4, &err), 0);
    http_server *s = NULL;
    http_server_options opt = test_server_options();
    opt.port = t->port; /* taken by the running server */
    assert_int_equal(http_server_start(&s, &loop, &opt, routes, 1, pool, &err), MU_EIO);
    assert_non_null(strstr(err.message, "127.0.0.1"));
    char port_text[16];
    snprintf(port_text, sizeof port_text, "%u", t->port);
    assert_non_null(strstr(err.message, port_text));
    uv_run(&loop, UV_RUN_DEFAULT);
    opt.port = 0;
    opt.listen_host = "localhost";
    assert_int_equal(http_server_start(&s, &loop, &opt, routes, 1, pool, &err), MU_EINVAL);
    assert_non_null(strstr(err.message, "localhost"));
    opt.listen_host = "999.1.1.1";
    assert_int_equal(http_server_start(&s, &loop, &opt, routes, 1, pool, &err), MU_EINVAL);
    opt.listen_host = "192.0.2.1"; /* TEST-NET: not an address of this host */
    assert_int_equal(http_server_start(&s, &loop, &opt, routes, 1, pool, &err), MU_EINVAL);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(uv_loop_close(&loop), 0);
    mu_pool_destroy(pool);
}

static void test_ipv6_literal(void **state) {
    test_server *t = *state;
    test_server_stop(t);
    free(t);
    *state = NULL;
    int probe = socket(AF_INET6, SOCK_STREAM, 0);
    struct sockaddr_in6 addr = {0};
    addr.sin6_family = AF_INET6;
    addr.sin6_addr = in6addr_loopback;
    bool have_ipv6 = probe >= 0 && bind(probe, (struct sockaddr *)&addr, sizeof addr) == 0;
    if (probe >= 0) close(probe);
    if (!have_ipv6) skip();
    http_server_options opt = test_server_options();
    opt.listen_host = "[::1]";
    *state = t = start_with(&opt);
    int fd = socket(AF_INET6, SOCK_STREAM, 0);
    addr.sin6_port = htons((uint16_t)t->port);
    assert_int_equal(connect(fd, (struct sockaddr *)&addr, sizeof addr), 0);
    client_reader *r = reader_new(fd);
    client_send_str(fd, "GET /ping HTTP/1.1\r\n\r\n");
    expect_status(r, 200, "Ok.\n");
    free(r);
    close(fd);
}

/* ---- Shutdown ------------------------------------------------------------------- */

static void test_shutdown_drains(void **state) {
    test_server *t = *state;
    *state = NULL;
    int idle = client_connect(t->port);
    client_reader *ri = reader_new(idle);
    client_send_str(idle, "GET /ping HTTP/1.1\r\n\r\n");
    expect_status(ri, 200, "Ok.\n");
    int busy = client_connect(t->port);
    client_reader *rb = reader_new(busy);
    client_send_str(busy, "POST /size HTTP/1.1\r\nContent-Length: 4\r\n\r\nab");
    mu_sleep_ms(50);
    http_server_shutdown(t->server);
    assert_true(client_wait_closed(idle, 2000)); /* idle: closed at once */
    /* New connections are refused once the listener is closed. */
    int refused = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)t->port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_not_equal(connect(refused, (struct sockaddr *)&addr, sizeof addr), 0);
    close(refused);
    client_send_str(busy, "cd");
    client_response resp;
    char v[64];
    assert_true(client_read_response(rb, &resp, false));
    assert_true(response_body_is(&resp, "4"));
    assert_string_equal(response_header(&resp, "connection", v, sizeof v), "Close");
    response_free(&resp);
    assert_true(client_wait_closed(busy, 3000));
    assert_int_equal(pthread_join(t->thread, NULL), 0);
    mu_pool_destroy(t->pool);
    http_server_destroy(t->server);
    assert_int_equal(uv_loop_close(&t->loop), 0);
    free(t);
    free(ri);
    free(rb);
    close(idle);
    close(busy);
}

static void test_shutdown_timeout_forces(void **state) {
    test_server *t = *state;
    test_server_stop(t);
    free(t);
    http_server_options opt = test_server_options();
    opt.shutdown_timeout_ms = 300;
    t = start_with(&opt);
    *state = NULL;
    int fd = client_connect(t->port);
    client_send_str(fd, "POST /block HTTP/1.1\r\nContent-Length: 100\r\n\r\nabc");
    mu_sleep_ms(50);
    int64_t start = mu_clock_mono_ms();
    http_server_shutdown(t->server);
    assert_int_equal(pthread_join(t->thread, NULL), 0);
    int64_t took = mu_clock_mono_ms() - start;
    assert_true(took >= 250 && took < 3000);
    mu_pool_destroy(t->pool);
    assert_int_equal(atomic_load(&block_result), MU_ESHUTDOWN);
    http_server_destroy(t->server);
    assert_int_equal(uv_loop_close(&t->loop), 0);
    free(t);
    assert_true(client_wait_closed(fd, 1000));
    close(fd);
}

int main(void) {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_keep_alive_reuse),
        T(test_http10),
        T(test_pipelining),
        T(test_half_close_after_requests),
        T(test_not_found_and_method_not_allowed),
        T(test_parse_errors_answered_and_closed),
        T(test_request_timeout),
        T(test_slow_body_within_timeout),
        T(test_max_connections),
        T(test_expect_continue),
        T(test_start_errors),
        T(test_ipv6_literal),
        T(test_shutdown_drains),
        T(test_shutdown_timeout_forces),
    };
#undef T
    signal(SIGPIPE, SIG_IGN);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
