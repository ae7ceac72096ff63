/* http_server.c: the loop side of the HTTP server: listener, connections,
 * reads into a per-connection buffer, the parser, routing, timers, writes,
 * graceful close and shutdown. Everything here runs on the loop thread
 * except http_server_shutdown and http__server_wake.
 *
 * A connection serves one request at a time. Its phases:
 *   idle --first byte--> head --HEADERS/dispatch--> body --END--> waiting
 *   waiting --handler done, response written--> idle (keep-alive) | closing
 * Pipelined bytes stay unparsed in the read buffer while a request is
 * waiting. Timers: idle (keep_alive_timeout_ms; request_timeout_ms before
 * the first request), head (request_timeout_ms from the first byte), body
 * and write (request_timeout_ms without progress), linger (after FIN). No
 * timer while a handler computes or drains the body queue slowly.
 */
#include "server/http_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum conn_timer {
    TIMER_NONE,
    TIMER_IDLE,
    TIMER_HEAD,
    TIMER_BODY,
    TIMER_WRITE,
    TIMER_LINGER,
};

struct http_conn {
    http_server *server;
    http_conn *prev;
    http_conn *next;
    uv_tcp_t tcp;
    uv_timer_t timer;
    uv_shutdown_t shutdown_req;
    int open_handles;
    http_parser parser;
    uint8_t *rbuf; /* HTTP_READ_BUFFER_BYTES; [rbuf_start, rbuf_end) unparsed */
    size_t rbuf_start;
    size_t rbuf_end;
    http_request *req; /* the exchange in progress (the connection's reference) */
    uint64_t served_count;
    size_t writes_in_flight;
    int timer_kind;
    bool reading;
    bool closing;           /* uv_close called */
    bool lingering;         /* FIN sent; reading and discarding until EOF or timer */
    bool linger_clean;      /* nothing unread when lingering began: close after FIN */
    bool close_after_write; /* an error response is going out; then linger */
    bool peer_eof;
    bool body_done;    /* the parser reported END for the current request */
    bool body_discard; /* body bytes are dropped (inline route, finished exchange) */
    bool in_process;   /* conn_process_input is on the stack */
};

typedef struct conn_write {
    uv_write_t uv;
    http_conn *conn;
    http_request *req; /* reference held for the back-pressure accounting, or NULL */
    http_chunk *chunks;
    size_t bytes;
    uv_buf_t bufs[];
} conn_write;

static void conn_process_input(http_conn *conn);
static void conn_on_alloc(uv_handle_t *handle, size_t suggested_bytes, uv_buf_t *buf);
static void conn_on_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf);
static void conn_on_timer(uv_timer_t *timer);
static void conn_update_reading(http_conn *conn);
static void conn_arm_timer(http_conn *conn);
static void server_check_drained(http_server *s);

/* ---- Built-in answers -------------------------------------------------- */

static int not_found_handler(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    http_slice path = http_request_path(req);
    char body[512];
    int n = snprintf(body, sizeof body,
                     "There is no handle %.*s\n\nUse /ping, /live or /ready for health checks.\n",
                     (int)MU_MIN(path.length_bytes, (size_t)200), path.data);
    return http_response_send(req, 404, "text/plain; charset=UTF-8", body,
                              MU_MIN((size_t)n, sizeof body - 1), err);
}

static int method_not_allowed_handler(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    static const char *const names[] = {"GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS",
                                        "PATCH"};
    char allow[128] = "";
    size_t used = 0;
    for (size_t i = 0; i < MU_ARRAY_LEN(names); i++) {
        if ((req->allowed_methods & (1u << i)) == 0) continue;
        used += (size_t)snprintf(allow + used, sizeof allow - used, "%s%s", used ? ", " : "",
                                 names[i]);
    }
    static const char body[] = "Method not allowed for this path.\n";
    http_field field = {"Allow", allow};
    int rc = http_response_begin(req, 405, "text/plain; charset=UTF-8", &field, 1,
                                 (int64_t)sizeof body - 1, err);
    if (rc == 0) rc = http_response_write(req, body, sizeof body - 1, err);
    if (rc == 0) rc = http_response_end(req, err);
    return rc;
}

static const http_route route_not_found = {
    "", 0, HTTP_RUN_INLINE, not_found_handler, NULL};
static const http_route route_method_not_allowed = {
    "", 0, HTTP_RUN_INLINE, method_not_allowed_handler, NULL};

static const http_route *route_find(const http_server *s, http_slice path, unsigned method,
                                    unsigned *allowed_out) {
    *allowed_out = 0;
    for (size_t i = 0; i < s->route_count; i++) {
        const http_route *r = &s->routes[i];
        if (strlen(r->path) != path.length_bytes ||
            memcmp(r->path, path.data, path.length_bytes) != 0) {
            continue;
        }
        if ((r->methods & method) != 0) return r;
        *allowed_out = r->methods;
        return &route_method_not_allowed;
    }
    return &route_not_found;
}

/* ---- Writes ------------------------------------------------------------ */

static void conn_on_close(uv_handle_t *handle) {
    http_conn *conn = handle->data;
    if (--conn->open_handles > 0) return;
    http_server *s = conn->server;
    if (conn->prev != NULL) conn->prev->next = conn->next;
    else s->conns = conn->next;
    if (conn->next != NULL) conn->next->prev = conn->prev;
    MU_ASSERT(s->connection_count > 0);
    s->connection_count--;
    MU_ASSERT(conn->req == NULL);
    http_parser_deinit(&conn->parser);
    free(conn->rbuf);
    free(conn);
    server_check_drained(s);
}

/* Closes at once (no linger): disconnects, errors, forced shutdown. */
static void conn_close(http_conn *conn, int code, const char *why) {
    if (conn->closing) return;
    conn->closing = true;
    if (conn->req != NULL) {
        (void)http__request_abort(conn->req, code, why);
        http__request_release(conn->req);
        conn->req = NULL;
    }
    uv_close((uv_handle_t *)&conn->tcp, conn_on_close);
    uv_close((uv_handle_t *)&conn->timer, conn_on_close);
}

static void conn_on_write(uv_write_t *uv, int status) {
    conn_write *w = (conn_write *)uv;
    http_conn *conn = w->conn;
    MU_ASSERT(conn->writes_in_flight > 0);
    conn->writes_in_flight--;
    if (w->req != NULL) {
        http__request_output_done(w->req, w->bytes);
        http__request_release(w->req);
    }
    http__chunk_free_list(w->chunks);
    free(w);
    if (conn->closing) return;
    if (conn->timer_kind == TIMER_WRITE) { /* progress: arm_timer starts it afresh */
        uv_timer_stop(&conn->timer);
        conn->timer_kind = TIMER_NONE;
    }
    if (status < 0) {
        mu_log_debug("http.write_failed", "error=%s", uv_strerror(status));
        conn_close(conn, MU_ECANCELLED, "the client connection was lost while writing");
        return;
    }
    http__conn_service(conn);
}

/* Writes a chunk list (taking it); req, if given, is charged for the bytes. */
static void conn_write_chunks(http_conn *conn, http_request *req, http_chunk *first,
                              size_t bytes) {
    size_t count = 0;
    for (http_chunk *c = first; c != NULL; c = c->next) count++;
    conn_write *w = malloc(sizeof *w + count * sizeof(uv_buf_t));
    if (w == NULL) {
        http__chunk_free_list(first);
        if (req != NULL) http__request_output_done(req, bytes);
        conn_close(conn, MU_ENOMEM, "out of memory while writing a response");
        return;
    }
    w->conn = conn;
    w->req = req;
    w->chunks = first;
    w->bytes = bytes;
    size_t i = 0;
    for (http_chunk *c = first; c != NULL; c = c->next) {
        w->bufs[i++] = uv_buf_init((char *)c->data, (unsigned)c->length_bytes);
    }
    if (req != NULL) atomic_fetch_add(&req->refs, 1);
    conn->writes_in_flight++;
    int rc = uv_write(&w->uv, (uv_stream_t *)&conn->tcp, w->bufs, (unsigned)count,
                      conn_on_write);
    if (rc != 0) conn_on_write(&w->uv, rc);
}

static void conn_write_copy(http_conn *conn, const void *data, size_t length_bytes) {
    http_chunk *c = http__chunk_new(length_bytes);
    if (c == NULL) {
        conn_close(conn, MU_ENOMEM, "out of memory while writing a response");
        return;
    }
    memcpy(c->data, data, length_bytes);
    conn_write_chunks(conn, NULL, c, length_bytes);
}

/* ---- Closing ----------------------------------------------------------- */

static void conn_on_shutdown(uv_shutdown_t *uv, int status) {
    http_conn *conn = uv->data;
    if (conn->closing) return;
    if (status < 0 || conn->peer_eof || conn->linger_clean) conn_close(conn, 0, NULL);
}

/* Sends FIN after the queued writes. If the client may still be sending
 * (unparsed bytes, a request or body cut short), then reads and drops what
 * comes until it closes or HTTP_LINGER_MS pass, so that the response is not
 * destroyed by a RST for unread data; otherwise closes once FIN is out. */
static void conn_close_graceful(http_conn *conn) {
    if (conn->closing || conn->lingering) return;
    conn->linger_clean = conn->rbuf_end == conn->rbuf_start &&
                         !http_parser_in_message(&conn->parser) && !conn->close_after_write;
    if (conn->req != NULL) {
        (void)http__request_abort(conn->req, 0, NULL);
        http__request_release(conn->req);
        conn->req = NULL;
    }
    conn->lingering = true;
    conn->shutdown_req.data = conn;
    if (uv_shutdown(&conn->shutdown_req, (uv_stream_t *)&conn->tcp, conn_on_shutdown) != 0) {
        conn_close(conn, 0, NULL);
        return;
    }
    conn->rbuf_start = conn->rbuf_end = 0;
    if (!conn->reading && !conn->peer_eof) {
        conn->reading = true;
        uv_read_start((uv_stream_t *)&conn->tcp, conn_on_alloc, conn_on_read);
    }
    conn->timer_kind = TIMER_LINGER;
    uv_timer_start(&conn->timer, conn_on_timer, HTTP_LINGER_MS, 0);
}

static int abort_code_for_status(int status) {
    switch (status) {
    case 408: return MU_ETIMEOUT;
    case 413: return MU_EQUERY_TOO_LARGE;
    case 503: return MU_ENOMEM;
    default: return MU_EPROTOCOL;
    }
}

/* Answers a bad or timed-out request with `status` and closes. If a handler
 * already started the response, or the request was answered and only its
 * body is being discarded, it just closes. */
static void conn_fail(http_conn *conn, int status, const char *message) {
    if (conn->closing || conn->lingering || conn->close_after_write) return;
    bool answer = !conn->body_discard;
    if (conn->req != NULL) {
        answer = http__request_abort(conn->req, abort_code_for_status(status), message);
        http__request_release(conn->req);
        conn->req = NULL;
    }
    mu_log_debug("http.bad_request", "status=%d reason=\"%s\"", status, message);
    if (!answer) {
        conn_close(conn, 0, NULL);
        return;
    }
    const char *reason = http_status_reason(status);
    char body[256];
    int body_bytes = snprintf(body, sizeof body, "%s: %s\n", reason, message);
    body_bytes = (int)MU_MIN((size_t)MU_MAX(body_bytes, 0), sizeof body - 1);
    char date[HTTP_DATE_BYTES];
    http__format_date(date);
    char text[512];
    int n = snprintf(text, sizeof text,
                     "HTTP/1.1 %d %s\r\nDate: %s\r\nConnection: Close\r\n"
                     "Content-Type: text/plain; charset=UTF-8\r\nContent-Length: %d\r\n\r\n%.*s",
                     status, reason, date, body_bytes, body_bytes, body);
    MU_ASSERT(n > 0 && (size_t)n < sizeof text);
    conn->close_after_write = true;
    conn_write_copy(conn, text, (size_t)n);
}

/* ---- Requests ---------------------------------------------------------- */

static void conn_dispatch(http_conn *conn) {
    http_server *s = conn->server;
    const http_head *parsed = http_parser_head(&conn->parser);
    http_slice path, query;
    http_target_split(parsed->target, parsed->target_bytes, &path, &query);
    unsigned allowed = 0;
    const http_route *route = route_find(s, path, http_method_bit(parsed->method), &allowed);
    bool inline_route = route->run == HTTP_RUN_INLINE;
    /* A streaming handler sees the body as it comes, so the size limit is
     * its business (http_body_read_all); an inline route ignores the body
     * and only bounds what it drains. */
    http_parser_set_body_limit(&conn->parser,
                               inline_route ? s->opt.max_body_bytes : HTTP_BODY_UNLIMITED);
    http_head head;
    mu_buf storage;
    http_parser_take_head(&conn->parser, &head, &storage);
    mu_log_debug("http.request", "method=%s path=%.*s", head.method, (int)path.length_bytes,
                 path.data);
    http_request *req = NULL;
    mu_err err;
    if (http__request_create(&req, s, conn, route, &head, &storage, &err) != 0) {
        conn_fail(conn, 503, "out of memory for the request");
        return;
    }
    req->allowed_methods = allowed;
    conn->req = req;
    conn->body_done = false;
    conn->body_discard = inline_route;
    if (inline_route) {
        req->on_loop = true;
        http__request_run_inline(req);
        return;
    }
    if (head.expect_continue && (head.chunked || head.content_length > 0)) {
        static const char interim[] = "HTTP/1.1 100 Continue\r\n\r\n";
        conn_write_copy(conn, interim, sizeof interim - 1);
        if (conn->closing) return;
    }
    if (http__request_submit(req, &err) != 0) {
        mu_log_warn("http.pool_full", "path=%.*s", (int)path.length_bytes, path.data);
        conn->body_discard = true; /* answered 503 on the loop */
    }
}

static void conn_on_body(http_conn *conn, const uint8_t *data, size_t length_bytes) {
    if (conn->req == NULL || conn->body_discard || length_bytes == 0) return;
    if (http__request_body_push(conn->req, data, length_bytes) != 0) {
        conn_fail(conn, 503, "out of memory for the request body");
    }
}

static void conn_on_end(http_conn *conn) {
    if (conn->req == NULL) {
        conn->body_discard = false; /* the drained body of an answered request */
        return;
    }
    conn->body_done = true;
    if (!conn->body_discard) http__request_body_end(conn->req);
}

/* Runs the parser over the unparsed bytes until it needs more input, or a
 * request waits for its handler (pipelined bytes then stay in rbuf). */
static void conn_process_input(http_conn *conn) {
    if (conn->in_process) return;
    conn->in_process = true;
    while (!conn->closing && !conn->lingering && !conn->close_after_write &&
           !(conn->req != NULL && conn->body_done)) {
        http_event ev;
        size_t available = conn->rbuf_end - conn->rbuf_start;
        const uint8_t *data = conn->rbuf != NULL ? conn->rbuf + conn->rbuf_start : NULL;
        conn->rbuf_start += http_parser_execute(&conn->parser, data, available, &ev);
        if (ev.type == HTTP_EVENT_NONE) break;
        if (ev.type == HTTP_EVENT_HEADERS) {
            conn_dispatch(conn);
        } else if (ev.type == HTTP_EVENT_BODY) {
            conn_on_body(conn, ev.data, ev.length_bytes);
        } else if (ev.type == HTTP_EVENT_END) {
            conn_on_end(conn);
        } else {
            conn_fail(conn, ev.status, ev.message);
        }
        /* An inline handler may have queued its answer already. */
        if (conn->req != NULL && conn->req->on_loop) http__conn_service(conn);
    }
    conn->in_process = false;
    if (conn->closing || conn->lingering) return;
    if (conn->rbuf_start > 0) {
        size_t left = conn->rbuf_end - conn->rbuf_start;
        memmove(conn->rbuf, conn->rbuf + conn->rbuf_start, left);
        conn->rbuf_start = 0;
        conn->rbuf_end = left;
    }
    if (conn->peer_eof && conn->req == NULL) {
        conn_close(conn, 0, NULL); /* nothing more can arrive */
        return;
    }
    if (atomic_load(&conn->server->shutting_down) && conn->req == NULL &&
        !http_parser_in_message(&conn->parser) && !conn->close_after_write) {
        conn_close(conn, 0, NULL);
        return;
    }
    conn_update_reading(conn);
    conn_arm_timer(conn);
}

/* The handler returned and its response is on the wire. */
static void conn_finish_exchange(http_conn *conn, const http_request_status *st) {
    http_request *req = conn->req;
    bool keep = st->response_state == HTTP_RESPONSE_ENDED && st->response_keep_alive &&
                !atomic_load(&conn->server->shutting_down);
    (void)http__request_abort(req, 0, NULL);
    http__request_release(req);
    conn->req = NULL;
    conn->served_count++;
    if (!keep) {
        conn_close_graceful(conn);
        return;
    }
    /* Drain the unread rest of the body before the next request; when the
     * parser loop is on the stack it goes on by itself. */
    conn->body_discard = !conn->body_done;
    if (!conn->in_process) conn_process_input(conn);
}

void http__conn_service(http_conn *conn) {
    if (conn->closing || conn->lingering) return;
    http_request *req = conn->req;
    if (req != NULL) {
        size_t bytes = 0;
        http_chunk *out = http__request_take_output(req, &bytes);
        if (out != NULL) conn_write_chunks(conn, req, out, bytes);
        if (conn->closing) return;
        http_request_status st;
        http__request_status(req, &st);
        if (st.handler_done && !st.output_pending && conn->writes_in_flight == 0) {
            conn_finish_exchange(conn, &st);
            return;
        }
    }
    if (conn->close_after_write && conn->writes_in_flight == 0) {
        conn_close_graceful(conn);
        return;
    }
    if (!conn->in_process) {
        conn_update_reading(conn);
        conn_arm_timer(conn);
    }
}

/* ---- Reading and timers ---------------------------------------------- */

static void conn_update_reading(http_conn *conn) {
    bool want = !conn->closing && !conn->lingering && !conn->peer_eof &&
                conn->rbuf_end < HTTP_READ_BUFFER_BYTES;
    if (want && conn->req != NULL && !conn->body_done && !conn->body_discard) {
        http_request_status st;
        http__request_status(conn->req, &st);
        want = st.body_wanted;
    }
    if (want == conn->reading) return;
    conn->reading = want;
    if (!want) {
        uv_read_stop((uv_stream_t *)&conn->tcp);
        return;
    }
    int rc = uv_read_start((uv_stream_t *)&conn->tcp, conn_on_alloc, conn_on_read);
    if (rc != 0) conn_close(conn, MU_ECANCELLED, "cannot read from the client connection");
}

static void conn_arm_timer(http_conn *conn) {
    const http_server_options *opt = &conn->server->opt;
    int kind = TIMER_NONE;
    uint64_t ms = opt->request_timeout_ms;
    if (conn->req != NULL && (conn->body_done || !conn->reading)) {
        /* A handler computes, or drains the body slowly: no limit. But a
         * response the client does not read must not hold a worker forever. */
        kind = conn->writes_in_flight > 0 ? TIMER_WRITE : TIMER_NONE;
    } else if (http_parser_in_body(&conn->parser)) {
        kind = TIMER_BODY; /* restarted on every call: an inactivity limit */
    } else if (http_parser_in_message(&conn->parser)) {
        kind = TIMER_HEAD;
    } else if (conn->req == NULL && !conn->reading) {
        kind = TIMER_NONE; /* read buffer full of pipelined requests */
    } else {
        kind = TIMER_IDLE;
        if (conn->served_count > 0) ms = opt->keep_alive_timeout_ms;
    }
    if (kind == conn->timer_kind && kind != TIMER_BODY) return;
    conn->timer_kind = kind;
    if (kind == TIMER_NONE) {
        uv_timer_stop(&conn->timer);
    } else {
        uv_timer_start(&conn->timer, conn_on_timer, ms, 0);
    }
}

static void conn_on_timer(uv_timer_t *timer) {
    http_conn *conn = timer->data;
    int kind = conn->timer_kind;
    conn->timer_kind = TIMER_NONE;
    if ((kind == TIMER_HEAD || kind == TIMER_BODY) && !conn->close_after_write) {
        mu_log_debug("http.request_timeout", "timeout_ms=%" PRIu64,
                     conn->server->opt.request_timeout_ms);
        conn_fail(conn, 408, "the request was not received within http.request_timeout_ms");
        return;
    }
    if (kind == TIMER_WRITE) {
        mu_log_debug("http.write_timeout", "timeout_ms=%" PRIu64,
                     conn->server->opt.request_timeout_ms);
        conn_close(conn, MU_ETIMEOUT,
                   "the client did not read the response within http.request_timeout_ms");
        return;
    }
    MU_ASSERT(kind == TIMER_IDLE || kind == TIMER_LINGER || kind == TIMER_HEAD ||
              kind == TIMER_BODY);
    conn_close(conn, MU_ETIMEOUT, "connection timed out"); /* idle, linger, or failing */
}

static void conn_on_alloc(uv_handle_t *handle, size_t suggested_bytes, uv_buf_t *buf) {
    (void)suggested_bytes;
    http_conn *conn = handle->data;
    if (conn->rbuf == NULL) conn->rbuf = malloc(HTTP_READ_BUFFER_BYTES);
    if (conn->rbuf == NULL) {
        *buf = uv_buf_init(NULL, 0); /* the read callback gets UV_ENOBUFS */
        return;
    }
    if (conn->lingering) {
        *buf = uv_buf_init((char *)conn->rbuf, HTTP_READ_BUFFER_BYTES);
        return;
    }
    MU_ASSERT(conn->rbuf_end < HTTP_READ_BUFFER_BYTES);
    *buf = uv_buf_init((char *)conn->rbuf + conn->rbuf_end,
                       (unsigned)(HTTP_READ_BUFFER_BYTES - conn->rbuf_end));
}

static void conn_on_eof(http_conn *conn) {
    conn->peer_eof = true;
    conn->reading = false;
    uv_read_stop((uv_stream_t *)&conn->tcp);
    if (conn->req != NULL && conn->body_done) return; /* answer, then close */
    if (conn->req != NULL) {
        conn_close(conn, MU_ECANCELLED, "the client closed the connection during the request");
        return;
    }
    conn_process_input(conn); /* complete pipelined requests still get answers */
}

static void conn_on_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf) {
    (void)buf;
    http_conn *conn = stream->data;
    if (nread == 0 || conn->closing) return;
    if (conn->lingering) {
        if (nread < 0) conn_close(conn, 0, NULL);
        return;
    }
    if (nread > 0) {
        conn->rbuf_end += (size_t)nread;
        conn_process_input(conn);
        return;
    }
    if (nread == UV_EOF) {
        conn_on_eof(conn);
        return;
    }
    mu_log_debug("http.read_failed", "error=%s", uv_strerror((int)nread));
    conn_close(conn, MU_ECANCELLED, "the client connection was lost");
}

/* ---- Server ------------------------------------------------------------- */

static void server_log_rejection(http_server *s) {
    s->rejected_count++;
    int64_t now = mu_clock_mono_ms();
    if (s->rejected_logged_ms != 0 && now - s->rejected_logged_ms < 1000) return;
    mu_log_warn("http.connection_rejected", "reason=max_connections limit=%zu rejected=%" PRIu64,
                s->opt.max_connections, s->rejected_count);
    s->rejected_count = 0;
    s->rejected_logged_ms = now;
}

static void conn_free_refused(uv_handle_t *handle) { free(handle->data); }

static void server_on_connection(uv_stream_t *listener, int status) {
    http_server *s = listener->data;
    if (status < 0) {
        mu_log_warn("http.accept_failed", "error=%s", uv_strerror(status));
        return;
    }
    http_conn *conn = calloc(1, sizeof *conn);
    if (conn == NULL) {
        mu_log_warn("http.accept_failed", "error=\"out of memory\"");
        return;
    }
    conn->server = s;
    conn->open_handles = 1;
    uv_tcp_init(s->loop, &conn->tcp);
    conn->tcp.data = conn;
    bool refuse = s->connection_count >= s->opt.max_connections;
    if (uv_accept(listener, (uv_stream_t *)&conn->tcp) != 0 || refuse) {
        if (refuse) server_log_rejection(s);
        uv_close((uv_handle_t *)&conn->tcp, conn_free_refused);
        return;
    }
    conn->open_handles = 2;
    uv_timer_init(s->loop, &conn->timer);
    conn->timer.data = conn;
    http_parser_limits limits = {s->opt.max_header_bytes, HTTP_HEADER_COUNT_MAX,
                                 s->opt.max_body_bytes};
    http_parser_init(&conn->parser, &limits);
    conn->next = s->conns;
    if (s->conns != NULL) s->conns->prev = conn;
    s->conns = conn;
    s->connection_count++;
    uv_tcp_nodelay(&conn->tcp, 1);
    conn_update_reading(conn);
    conn_arm_timer(conn);
}

void http__server_wake(http_server *s, http_request *req) {
    pthread_mutex_lock(&s->wake_mu);
    if (!s->wake_closed && !req->in_wake_list) {
        req->in_wake_list = true;
        atomic_fetch_add(&req->refs, 1);
        req->wake_next = s->wake_first;
        s->wake_first = req;
        uv_async_send(&s->wake);
    }
    pthread_mutex_unlock(&s->wake_mu);
}

/* Takes the wake list as a batch linked through serve_next (a worker may
 * re-queue an entry, rewriting wake_next, as soon as the lock is released).
 * The caller releases each entry's reference. */
static http_request *server_take_wakes(http_server *s) {
    pthread_mutex_lock(&s->wake_mu);
    http_request *first = s->wake_first;
    s->wake_first = NULL;
    for (http_request *r = first; r != NULL; r = r->wake_next) {
        r->in_wake_list = false;
        r->serve_next = r->wake_next;
    }
    pthread_mutex_unlock(&s->wake_mu);
    return first;
}

static void server_release_wakes(http_request *first) {
    while (first != NULL) {
        http_request *next = first->serve_next;
        http__request_release(first);
        first = next;
    }
}

static void server_begin_shutdown(http_server *s);

static void server_on_wake(uv_async_t *async) {
    http_server *s = async->data;
    if (atomic_load(&s->shutdown_requested)) server_begin_shutdown(s);
    http_request *first = server_take_wakes(s);
    for (http_request *r = first; r != NULL; r = r->serve_next) {
        http_conn *conn = http__request_conn(r);
        if (conn != NULL && conn->req == r) http__conn_service(conn);
    }
    server_release_wakes(first);
}

/* Closes the server's own handles once no connection is left. */
static void server_check_drained(http_server *s) {
    if (!atomic_load(&s->shutting_down) || s->connection_count > 0 || s->handles_closed) return;
    s->handles_closed = true;
    mu_log_info("server.shutdown", "step=drained");
    uv_close((uv_handle_t *)&s->shutdown_timer, NULL);
    pthread_mutex_lock(&s->wake_mu);
    s->wake_closed = true; /* workers stop calling uv_async_send */
    pthread_mutex_unlock(&s->wake_mu);
    server_release_wakes(server_take_wakes(s));
    uv_close((uv_handle_t *)&s->wake, NULL);
}

static void server_on_shutdown_timeout(uv_timer_t *timer) {
    http_server *s = timer->data;
    mu_log_warn("server.shutdown", "step=timeout timeout_ms=%" PRIu64 " forced_connections=%zu",
                s->opt.shutdown_timeout_ms, s->connection_count);
    http_conn *next = NULL;
    for (http_conn *conn = s->conns; conn != NULL; conn = next) {
        next = conn->next;
        conn_close(conn, MU_ESHUTDOWN, "the server is shutting down");
    }
}

static bool conn_is_idle(const http_conn *conn) {
    return !conn->closing && !conn->lingering && !conn->close_after_write &&
           conn->req == NULL && !http_parser_in_message(&conn->parser);
}

static void server_begin_shutdown(http_server *s) {
    if (atomic_load(&s->shutting_down)) return;
    atomic_store(&s->shutting_down, true);
    if (s->listener_open) {
        s->listener_open = false;
        uv_close((uv_handle_t *)&s->listener, NULL);
    }
    mu_log_info("server.shutdown", "step=stop_accepting");
    size_t idle = 0;
    http_conn *next = NULL;
    for (http_conn *conn = s->conns; conn != NULL; conn = next) {
        next = conn->next;
        if (!conn_is_idle(conn)) continue;
        conn_close(conn, 0, NULL);
        idle++;
    }
    mu_log_info("server.shutdown", "step=close_idle closed=%zu in_flight=%zu timeout_ms=%" PRIu64,
                idle, s->connection_count - idle, s->opt.shutdown_timeout_ms);
    uv_timer_start(&s->shutdown_timer, server_on_shutdown_timeout, s->opt.shutdown_timeout_ms, 0);
    server_check_drained(s);
}

void http_server_shutdown(http_server *s) {
    atomic_store(&s->shutdown_requested, true);
    pthread_mutex_lock(&s->wake_mu);
    if (!s->wake_closed) uv_async_send(&s->wake);
    pthread_mutex_unlock(&s->wake_mu);
}

/* Parses listen_host (an IP literal; IPv6 may be bracketed) and port. */
static int server_address(const http_server_options *opt, struct sockaddr_storage *addr,
                          mu_err *err) {
    char host[64];
    size_t n = strlen(opt->listen_host);
    if (n >= 2 && opt->listen_host[0] == '[' && opt->listen_host[n - 1] == ']') {
        snprintf(host, sizeof host, "%.*s", (int)(n - 2), opt->listen_host + 1);
    } else {
        snprintf(host, sizeof host, "%s", opt->listen_host);
    }
    int rc = strchr(host, ':') != NULL
                 ? uv_ip6_addr(host, (int)opt->port, (struct sockaddr_in6 *)addr)
                 : uv_ip4_addr(host, (int)opt->port, (struct sockaddr_in *)addr);
    if (rc != 0 || n >= sizeof host) {
        return MU_ERR(err, MU_EINVAL,
                      "http.listen_host \"%s\" is not an IPv4 or IPv6 address literal "
                      "(port %u)", opt->listen_host, opt->port);
    }
    return 0;
}

static unsigned server_bound_port(http_server *s) {
    struct sockaddr_storage addr;
    int len = sizeof addr;
    if (uv_tcp_getsockname(&s->listener, (struct sockaddr *)&addr, &len) != 0) return s->opt.port;
    if (addr.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&addr)->sin6_port);
    return ntohs(((struct sockaddr_in *)&addr)->sin_port);
}

static void server_free_on_close(uv_handle_t *handle) {
    http_server *s = handle->data;
    pthread_mutex_destroy(&s->wake_mu);
    free(s);
}

int http_server_start(http_server **server_out, uv_loop_t *loop, const http_server_options *opt,
                      const http_route *routes, size_t route_count, mu_pool *pool, mu_err *err) {
    MU_ASSERT(loop != NULL && opt != NULL && pool != NULL);
    MU_ASSERT(routes != NULL || route_count == 0);
    *server_out = NULL;
    struct sockaddr_storage addr;
    int rc = server_address(opt, &addr, err);
    if (rc != 0) return rc;
    http_server *s = calloc(1, sizeof *s);
    if (s == NULL) return MU_ERR_SYS(err, MU_ENOMEM, ENOMEM, "cannot allocate the HTTP server");
    s->loop = loop;
    s->opt = *opt;
    s->routes = routes;
    s->route_count = route_count;
    s->pool = pool;
    pthread_mutex_init(&s->wake_mu, NULL);
    uv_tcp_init(loop, &s->listener);
    s->listener.data = s;
    int uv_rc = uv_tcp_bind(&s->listener, (const struct sockaddr *)&addr, 0);
    if (uv_rc == 0) uv_rc = uv_listen((uv_stream_t *)&s->listener, 511, server_on_connection);
    if (uv_rc != 0) {
        rc = MU_ERR(err, uv_rc == UV_EADDRNOTAVAIL ? MU_EINVAL : MU_EIO,
                    "cannot listen on %s port %u (http.listen_host, http.port): %s",
                    opt->listen_host, opt->port, uv_strerror(uv_rc));
        /* The loop must run once more to finish this close (see http.h). */
        uv_close((uv_handle_t *)&s->listener, server_free_on_close);
        return rc;
    }
    s->listener_open = true;
    s->port = server_bound_port(s);
    uv_async_init(loop, &s->wake, server_on_wake);
    s->wake.data = s;
    uv_timer_init(loop, &s->shutdown_timer);
    s->shutdown_timer.data = s;
    mu_log_info("http.listen", "addr=%s port=%u", opt->listen_host, s->port);
    *server_out = s;
    return 0;
}

unsigned http_server_port(const http_server *s) { return s->port; }
void http_server_set_ready(http_server *s, bool ready) { atomic_store(&s->ready, ready); }
bool http_server_ready(const http_server *s) { return atomic_load(&s->ready); }

void http_server_destroy(http_server *s) {
    if (s == NULL) return;
    MU_ASSERT(s->handles_closed);
    MU_ASSERT(s->connection_count == 0);
    MU_ASSERT(s->wake_first == NULL);
    pthread_mutex_destroy(&s->wake_mu);
    free(s);
}
