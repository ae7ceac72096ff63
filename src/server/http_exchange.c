/* http_exchange.c: the request object one connection shares with the worker
 * running its handler: the body as a bounded pull queue (the loop pushes,
 * http_body_read pulls) and the response as a bounded output queue (the
 * worker formats and queues, the loop writes). Every shared field is under
 * req->mu; the loop is woken through http__server_wake, never directly.
 *
 * Response states (all under mu):
 *   NONE --begin--> HELD --write (2nd, or large)--> STREAMING --end--> ENDED
 *   HELD --end--> ENDED (one body: Content-Length)     any --failure--> BROKEN
 *   NONE --open--> OPEN --add_field--> OPEN --begin--> HELD (as above)
 * OPEN (http_response_open) has sent only the status line: the fields added
 * while the handler works follow it at once, and begin sends the rest of
 * the head (Date, Connection, Content-Type, framing, its fields) as usual,
 * so the status is fixed at open and framing is still chosen at begin/end.
 * The request is freed by the last of its references: the connection's, the
 * worker's, and one per pending wake or socket write.
 */
#include "server/http_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

http_chunk *http__chunk_new(size_t length_bytes) {
    http_chunk *c = malloc(sizeof *c + length_bytes);
    if (c == NULL) return NULL;
    c->next = NULL;
    c->length_bytes = length_bytes;
    c->offset_bytes = 0;
    return c;
}

void http__chunk_free_list(http_chunk *first) {
    while (first != NULL) {
        http_chunk *next = first->next;
        free(first);
        first = next;
    }
}

void http__format_date(char *out) {
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    /* The C locale is in effect (muscles never calls setlocale), so the day
     * and month names are the English ones HTTP requires. */
    strftime(out, HTTP_DATE_BYTES, "%a, %d %b %Y %H:%M:%S GMT", &tm);
}

int http__request_create(http_request **req_out, http_server *server, http_conn *conn,
                         const http_route *route, const http_head *head, mu_buf *storage_take,
                         mu_err *err) {
    MU_ASSERT(route != NULL && head != NULL);
    http_request *req = calloc(1, sizeof *req);
    if (req == NULL) {
        mu_buf_deinit(storage_take);
        return MU_ERR_SYS(err, MU_ENOMEM, ENOMEM, "cannot allocate a request object");
    }
    req->server = server;
    req->route = route;
    req->head = *head;
    req->head_storage = *storage_take;
    mu_buf_init(storage_take, 0);
    http_target_split(head->target, head->target_bytes, &req->path, &req->query);
    req->is_head_method = strcmp(head->method, "HEAD") == 0;
    atomic_init(&req->refs, 1);
    pthread_mutex_init(&req->mu, NULL);
    pthread_cond_init(&req->cond, NULL);
    req->conn = conn;
    req->response_length = HTTP_LENGTH_UNKNOWN;
    mu_buf_init(&req->response_fields, 0);
    *req_out = req;
    return 0;
}

void http__request_release(http_request *req) {
    if (req == NULL) return;
    int before = atomic_fetch_sub(&req->refs, 1);
    MU_ASSERT(before >= 1);
    if (before != 1) return;
    MU_ASSERT(req->conn == NULL);
    http__chunk_free_list(req->body_first);
    http__chunk_free_list(req->out_first);
    free(req->held);
    mu_buf_deinit(&req->response_fields);
    mu_buf_deinit(&req->head_storage);
    pthread_cond_destroy(&req->cond);
    pthread_mutex_destroy(&req->mu);
    free(req);
}

/* Called without req->mu held (lock order: never mu then wake_mu). */
static void request_wake(http_request *req) {
    if (req->on_loop) return; /* the loop services the connection itself */
    http__server_wake(req->server, req);
}

static int abort_error_locked(http_request *req, mu_err *err) {
    return MU_ERR(err, req->abort_code, "%s", req->abort_message);
}

bool http__request_abort(http_request *req, int code, const char *message) {
    pthread_mutex_lock(&req->mu);
    if (!req->aborted && code != 0) {
        req->aborted = true;
        req->abort_code = code;
        snprintf(req->abort_message, sizeof req->abort_message, "%s", message);
    }
    bool claimed = false;
    if (code != 0 && req->response_state == HTTP_RESPONSE_NONE) {
        req->response_state = HTTP_RESPONSE_BROKEN;
        claimed = true;
    }
    req->conn = NULL;
    pthread_cond_broadcast(&req->cond);
    pthread_mutex_unlock(&req->mu);
    return claimed;
}

http_conn *http__request_conn(http_request *req) {
    pthread_mutex_lock(&req->mu);
    http_conn *conn = req->conn;
    pthread_mutex_unlock(&req->mu);
    return conn;
}

/* ---- Handler execution ---------------------------------------------- */

/* After the handler returned: make sure the client gets an answer, then let
 * the loop finish the exchange. */
static void request_finish(http_request *req, int rc, const mu_err *handler_err) {
    if (rc != 0) {
        http_slice path = req->path;
        mu_log_info("http.handler_failed", "path=%.*s status=%d code=%s", (int)path.length_bytes,
                    path.data, mu_code_http_status(rc), mu_code_name(rc));
    }
    if (!http_response_started(req)) {
        mu_err fallback, ignored;
        const mu_err *e = handler_err;
        if (rc == 0) {
            MU_ERR(&fallback, MU_EINTERNAL, "the handler of %s sent no response",
                   req->route->path);
            e = &fallback;
        } else if (handler_err->code == 0) {
            MU_ERR(&fallback, rc, "%s", mu_code_description(rc));
            e = &fallback;
        }
        (void)http_response_send_error(req, e, &ignored); /* fails only if aborted */
    }
    pthread_mutex_lock(&req->mu);
    if (req->response_state != HTTP_RESPONSE_ENDED) req->response_state = HTTP_RESPONSE_BROKEN;
    req->handler_done = true;
    pthread_mutex_unlock(&req->mu);
    request_wake(req);
}

static bool request_aborted(http_request *req) {
    pthread_mutex_lock(&req->mu);
    bool aborted = req->aborted;
    pthread_mutex_unlock(&req->mu);
    return aborted;
}

static void request_run(void *arg) {
    http_request *req = arg;
    mu_err err;
    mu_err_clear(&err);
    int rc = MU_ECANCELLED;
    if (!request_aborted(req)) {
        rc = req->route->handler(req, req->route->ctx, &err);
    } else {
        MU_ERR(&err, MU_ECANCELLED, "the client went away before the handler started");
    }
    request_finish(req, rc, &err);
    http__request_release(req);
}

int http__request_submit(http_request *req, mu_err *err) {
    MU_ASSERT(!req->on_loop);
    atomic_fetch_add(&req->refs, 1);
    int rc = mu_pool_submit(req->server->pool, request_run, req, err);
    if (rc == 0) return 0;
    atomic_fetch_sub(&req->refs, 1);
    /* Pool full or stopping: answer 503 (CANNOT_SCHEDULE_TASK) from the
     * loop. */
    if (rc == MU_EBUSY) rc = err->code = MU_ESCHEDULE;
    req->on_loop = true;
    request_finish(req, rc, err);
    return rc;
}

void http__request_run_inline(http_request *req) {
    MU_ASSERT(req->on_loop);
    mu_err err;
    mu_err_clear(&err);
    int rc = req->route->handler(req, req->route->ctx, &err);
    request_finish(req, rc, &err);
}

/* ---- Body queue ----------------------------------------------------- */

int http__request_body_push(http_request *req, const uint8_t *data, size_t length_bytes) {
    MU_ASSERT(length_bytes > 0);
    http_chunk *c = http__chunk_new(length_bytes);
    if (c == NULL) return MU_ENOMEM;
    memcpy(c->data, data, length_bytes);
    pthread_mutex_lock(&req->mu);
    if (req->body_last != NULL) {
        req->body_last->next = c;
    } else {
        req->body_first = c;
    }
    req->body_last = c;
    req->body_queued_bytes += length_bytes;
    if (req->body_queued_bytes > HTTP_BODY_QUEUE_MAX_BYTES) req->body_paused = true;
    pthread_cond_broadcast(&req->cond);
    pthread_mutex_unlock(&req->mu);
    return 0;
}

void http__request_body_end(http_request *req) {
    pthread_mutex_lock(&req->mu);
    req->body_done = true;
    pthread_cond_broadcast(&req->cond);
    pthread_mutex_unlock(&req->mu);
}

/* Copies up to capacity queued bytes out; under mu. */
static size_t body_take_locked(http_request *req, uint8_t *out, size_t capacity_bytes) {
    size_t n = 0;
    while (n < capacity_bytes && req->body_first != NULL) {
        http_chunk *c = req->body_first;
        size_t take = MU_MIN(capacity_bytes - n, c->length_bytes - c->offset_bytes);
        memcpy(out + n, c->data + c->offset_bytes, take);
        c->offset_bytes += take;
        n += take;
        if (c->offset_bytes == c->length_bytes) {
            req->body_first = c->next;
            if (req->body_first == NULL) req->body_last = NULL;
            free(c);
        }
    }
    MU_ASSERT(n <= req->body_queued_bytes);
    req->body_queued_bytes -= n;
    return n;
}

int http_body_read(http_request *req, void *buf, size_t capacity_bytes, size_t *read_bytes_out,
                   mu_err *err) {
    MU_ASSERT(!req->on_loop); /* inline handlers must not wait for the socket */
    MU_ASSERT(buf != NULL || capacity_bytes == 0);
    *read_bytes_out = 0;
    pthread_mutex_lock(&req->mu);
    while (!req->aborted && req->body_first == NULL && !req->body_done) {
        pthread_cond_wait(&req->cond, &req->mu);
    }
    if (req->aborted) {
        int rc = abort_error_locked(req, err);
        pthread_mutex_unlock(&req->mu);
        return rc;
    }
    size_t n = body_take_locked(req, buf, capacity_bytes);
    bool resume = req->body_paused && req->body_queued_bytes <= HTTP_BODY_QUEUE_LOW_BYTES;
    if (resume) req->body_paused = false;
    pthread_mutex_unlock(&req->mu);
    if (resume) request_wake(req);
    req->body_consumed_bytes += n;
    *read_bytes_out = n;
    return 0;
}

int http_body_read_all(http_request *req, mu_buf *out, mu_err *err) {
    uint64_t limit = req->server->opt.max_body_bytes;
    if (req->head.has_content_length && req->head.content_length > limit) {
        return MU_ERR(err, MU_EQUERY_TOO_LARGE,
                      "request body of %" PRIu64 " bytes exceeds http.max_body_bytes (%" PRIu64
                      " bytes)", req->head.content_length, limit);
    }
    for (;;) {
        int rc = mu_buf_reserve(out, 64 * 1024, err);
        if (rc != 0) return rc;
        size_t got = 0;
        rc = http_body_read(req, out->data + out->length_bytes,
                            out->capacity_bytes - out->length_bytes, &got, err);
        if (rc != 0) return rc;
        if (got == 0) return 0;
        if (req->body_consumed_bytes > limit) {
            return MU_ERR(err, MU_EQUERY_TOO_LARGE,
                          "request body exceeds http.max_body_bytes (%" PRIu64 " bytes)", limit);
        }
        out->length_bytes += got;
    }
}

/* ---- Output queue ---------------------------------------------------- */

static void out_append_locked(http_request *req, http_chunk *c) {
    if (req->out_last != NULL) {
        req->out_last->next = c;
    } else {
        req->out_first = c;
    }
    req->out_last = c;
    req->out_bytes += c->length_bytes;
}

static int out_copy_locked(http_request *req, const void *data, size_t length_bytes, mu_err *err) {
    http_chunk *c = http__chunk_new(length_bytes);
    if (c == NULL) return MU_ERR_SYS(err, MU_ENOMEM, ENOMEM, "cannot queue %zu response bytes",
                                     length_bytes);
    memcpy(c->data, data, length_bytes);
    out_append_locked(req, c);
    return 0;
}

http_chunk *http__request_take_output(http_request *req, size_t *bytes_out) {
    pthread_mutex_lock(&req->mu);
    http_chunk *first = req->out_first;
    req->out_first = NULL;
    req->out_last = NULL;
    pthread_mutex_unlock(&req->mu);
    size_t bytes = 0;
    for (http_chunk *c = first; c != NULL; c = c->next) bytes += c->length_bytes;
    *bytes_out = bytes;
    return first;
}

void http__request_output_done(http_request *req, size_t bytes) {
    pthread_mutex_lock(&req->mu);
    MU_ASSERT(bytes <= req->out_bytes);
    req->out_bytes -= bytes;
    pthread_cond_broadcast(&req->cond);
    pthread_mutex_unlock(&req->mu);
}

void http__request_status(http_request *req, http_request_status *out) {
    pthread_mutex_lock(&req->mu);
    out->handler_done = req->handler_done;
    out->response_state = req->response_state;
    out->response_keep_alive = req->response_keep_alive;
    out->output_pending = req->out_first != NULL;
    out->body_wanted = !req->body_paused;
    out->aborted = req->aborted;
    pthread_mutex_unlock(&req->mu);
}

/* ---- Accessors ------------------------------------------------------- */

const http_head *http_request_head(const http_request *req) { return &req->head; }
http_slice http_request_path(const http_request *req) { return req->path; }
http_slice http_request_query(const http_request *req) { return req->query; }
http_server *http_request_server(const http_request *req) { return req->server; }

const char *http_request_header(const http_request *req, const char *name) {
    return http_head_find(&req->head, name);
}

/* ---- Response -------------------------------------------------------- */

static int check_live_locked(http_request *req, mu_err *err) {
    if (req->aborted) return abort_error_locked(req, err);
    if (req->response_state == HTTP_RESPONSE_BROKEN) {
        return MU_ERR(err, MU_EINTERNAL, "the response to %.*s cannot be completed",
                      (int)req->path.length_bytes, req->path.data);
    }
    return 0;
}

/* Formats and queues the response head. body_length is the body size when
 * known, else HTTP_LENGTH_UNKNOWN (chunked, or unframed for HTTP/1.0). */
static int queue_head_locked(http_request *req, int64_t body_length, mu_err *err) {
    MU_ASSERT(req->response_state == HTTP_RESPONSE_HELD);
    const http_server_options *opt = &req->server->opt;
    bool known = body_length >= 0;
    req->response_chunked = !known && req->head.version != HTTP_VERSION_1_0;
    /* An inline route never reads a body it was promised with 100-continue:
     * close rather than guess where the next request starts. */
    req->response_keep_alive = req->head.keep_alive && (known || req->response_chunked) &&
                               opt->keep_alive_timeout_ms > 0 &&
                               !atomic_load(&req->server->shutting_down) &&
                               !(req->on_loop && req->head.expect_continue);
    char date[HTTP_DATE_BYTES];
    http__format_date(date);
    mu_buf head;
    mu_buf_init(&head, 0);
    int rc = 0;
    if (!req->response_opened) { /* else http_response_open sent it */
        rc = mu_buf_printf(&head, err, "HTTP/1.1 %d %s\r\n", req->response_status,
                           http_status_reason(req->response_status));
    }
    if (rc == 0) {
        rc = mu_buf_printf(&head, err, "Date: %s\r\nConnection: %s\r\n", date,
                           req->response_keep_alive ? "Keep-Alive" : "Close");
    }
    /* ClickHouse's order: Date, Connection, Content-Type, framing, Keep-Alive. */
    size_t type_bytes = req->response_type_bytes;
    if (rc == 0) rc = mu_buf_append(&head, req->response_fields.data, type_bytes, err);
    if (rc == 0 && known) {
        rc = mu_buf_printf(&head, err, "Content-Length: %" PRId64 "\r\n", body_length);
    }
    if (rc == 0 && req->response_chunked) {
        rc = mu_buf_append_str(&head, "Transfer-Encoding: chunked\r\n", err);
    }
    if (rc == 0 && req->response_keep_alive) {
        rc = mu_buf_printf(&head, err, "Keep-Alive: timeout=%" PRIu64 "\r\n",
                           opt->keep_alive_timeout_ms / 1000);
    }
    if (rc == 0) {
        rc = mu_buf_append(&head, req->response_fields.data + type_bytes,
                           req->response_fields.length_bytes - type_bytes, err);
    }
    if (rc == 0) rc = mu_buf_append(&head, "\r\n", 2, err);
    if (rc == 0) rc = out_copy_locked(req, head.data, head.length_bytes, err);
    mu_buf_deinit(&head);
    req->response_state = rc == 0 ? HTTP_RESPONSE_STREAMING : HTTP_RESPONSE_BROKEN;
    return rc;
}

/* Response field names are tokens and values carry no CR, LF or NUL: some
 * values (query ids) come from the client and must not split the head. */
static int check_field(const http_field *f, mu_err *err) {
    size_t n = strlen(f->name);
    if (n == 0 || strcspn(f->name, " \t\r\n:") != n || strcspn(f->value, "\r\n") !=
                                                             strlen(f->value)) {
        return MU_ERR(err, MU_EINVAL, "response header \"%.64s\" has a forbidden byte", f->name);
    }
    return 0;
}

bool http_response_can_open(const http_request *req) {
    /* HTTP/1.0 has no chunks: a body of unknown length would have to end
     * with the connection, so its head is sent whole. HEAD answers are only
     * a head: nothing is gained by sending it early. */
    return req->head.version != HTTP_VERSION_1_0 && !req->is_head_method;
}

int http_response_open(http_request *req, int status, mu_err *err) {
    MU_ASSERT(status >= 200 && status <= 599);
    MU_ASSERT(http_response_can_open(req));
    char line[64];
    int n = snprintf(line, sizeof line, "HTTP/1.1 %d %s\r\n", status, http_status_reason(status));
    MU_ASSERT(n > 0 && (size_t)n < sizeof line);
    pthread_mutex_lock(&req->mu);
    int rc = check_live_locked(req, err);
    if (rc == 0) {
        MU_ASSERT(req->response_state == HTTP_RESPONSE_NONE);
        rc = out_copy_locked(req, line, (size_t)n, err);
    }
    if (rc == 0) {
        req->response_status = status;
        req->response_opened = true;
        req->response_state = HTTP_RESPONSE_OPEN;
    }
    pthread_mutex_unlock(&req->mu);
    if (rc == 0) request_wake(req);
    return rc;
}

int http_response_add_field(http_request *req, const http_field *field, mu_err *err) {
    MU_ASSERT(field != NULL);
    int rc = check_field(field, err);
    if (rc != 0) return rc;
    mu_buf line;
    mu_buf_init(&line, 0);
    rc = mu_buf_printf(&line, err, "%s: %s\r\n", field->name, field->value);
    pthread_mutex_lock(&req->mu);
    /* Fields added for hours (a progress report every 100 ms) must not grow
     * the queue past its bound while the client does not read. */
    while (rc == 0 && !req->on_loop && !req->aborted &&
           req->out_bytes >= HTTP_OUT_QUEUE_MAX_BYTES) {
        pthread_cond_wait(&req->cond, &req->mu);
    }
    if (rc == 0) rc = check_live_locked(req, err);
    if (rc == 0) {
        MU_ASSERT(req->response_state == HTTP_RESPONSE_OPEN);
        rc = out_copy_locked(req, line.data, line.length_bytes, err);
    }
    pthread_mutex_unlock(&req->mu);
    mu_buf_deinit(&line);
    if (rc == 0) request_wake(req);
    return rc;
}

int http_response_begin(http_request *req, int status, const char *content_type,
                        const http_field *fields, size_t field_count, int64_t content_length,
                        mu_err *err) {
    MU_ASSERT(status >= 200 && status <= 599);
    MU_ASSERT(content_length >= HTTP_LENGTH_UNKNOWN);
    MU_ASSERT(fields != NULL || field_count == 0);
    pthread_mutex_lock(&req->mu);
    int rc = check_live_locked(req, err);
    if (rc != 0) goto out;
    MU_ASSERT(req->response_state == HTTP_RESPONSE_NONE ||
              req->response_state == HTTP_RESPONSE_OPEN);
    /* After open the status line is on the wire: it cannot change. */
    if (req->response_state == HTTP_RESPONSE_OPEN) status = req->response_status;
    if (content_type != NULL) {
        rc = mu_buf_printf(&req->response_fields, err, "Content-Type: %s\r\n", content_type);
        req->response_type_bytes = req->response_fields.length_bytes;
    }
    for (size_t i = 0; rc == 0 && i < field_count; i++) {
        rc = check_field(&fields[i], err);
        if (rc == 0) {
            rc = mu_buf_printf(&req->response_fields, err, "%s: %s\r\n", fields[i].name,
                               fields[i].value);
        }
    }
    if (rc != 0) {
        mu_buf_clear(&req->response_fields);
        goto out;
    }
    req->response_status = status;
    req->response_length = content_length;
    req->response_state = HTTP_RESPONSE_HELD;
    if (content_length >= 0) rc = queue_head_locked(req, content_length, err);
out:;
    bool queued = req->out_first != NULL;
    pthread_mutex_unlock(&req->mu);
    if (queued) request_wake(req);
    return rc;
}

/* One piece of body as it goes on the wire: chunk-framed when chunked. */
static http_chunk *piece_new(const void *data, size_t length_bytes, bool chunked) {
    char prefix[24];
    size_t prefix_bytes = 0;
    if (chunked) prefix_bytes = (size_t)snprintf(prefix, sizeof prefix, "%zx\r\n", length_bytes);
    http_chunk *c = http__chunk_new(prefix_bytes + length_bytes + (chunked ? 2 : 0));
    if (c == NULL) return NULL;
    memcpy(c->data, prefix, prefix_bytes);
    memcpy(c->data + prefix_bytes, data, length_bytes);
    if (chunked) memcpy(c->data + prefix_bytes + length_bytes, "\r\n", 2);
    return c;
}

/* The body turned out longer than one held write: send the head (chunked)
 * and the held bytes. */
static int release_held_locked(http_request *req, mu_err *err) {
    int rc = queue_head_locked(req, HTTP_LENGTH_UNKNOWN, err);
    http_chunk *held = req->held;
    req->held = NULL;
    if (rc == 0 && held != NULL && !req->is_head_method) {
        http_chunk *c = piece_new(held->data, held->length_bytes, req->response_chunked);
        if (c == NULL) {
            req->response_state = HTTP_RESPONSE_BROKEN;
            rc = MU_ERR_SYS(err, MU_ENOMEM, ENOMEM, "cannot queue a response piece");
        } else {
            out_append_locked(req, c);
        }
    }
    free(held);
    return rc;
}

static int write_piece(http_request *req, const uint8_t *data, size_t n, mu_err *err) {
    pthread_mutex_lock(&req->mu);
    while (!req->on_loop && !req->aborted && req->out_bytes >= HTTP_OUT_QUEUE_MAX_BYTES) {
        pthread_cond_wait(&req->cond, &req->mu);
    }
    int rc = check_live_locked(req, err);
    if (rc == 0 && req->response_length >= 0 &&
        req->response_written_bytes + n > (uint64_t)req->response_length) {
        req->response_state = HTTP_RESPONSE_BROKEN;
        rc = MU_ERR(err, MU_EINTERNAL, "the response to %.*s is longer than its Content-Length",
                    (int)req->path.length_bytes, req->path.data);
    }
    bool chunked = req->response_chunked;
    bool skip = req->is_head_method;
    pthread_mutex_unlock(&req->mu);
    if (rc != 0) return rc;
    http_chunk *c = skip ? NULL : piece_new(data, n, chunked);
    if (!skip && c == NULL) {
        return MU_ERR_SYS(err, MU_ENOMEM, ENOMEM, "cannot queue %zu response bytes", n);
    }
    pthread_mutex_lock(&req->mu);
    rc = check_live_locked(req, err);
    if (rc == 0) {
        req->response_written_bytes += n;
        if (c != NULL) out_append_locked(req, c);
        c = NULL;
    }
    pthread_mutex_unlock(&req->mu);
    free(c);
    if (rc == 0 && !skip) request_wake(req);
    return rc;
}

int http_response_write(http_request *req, const void *data, size_t length_bytes, mu_err *err) {
    MU_ASSERT(data != NULL || length_bytes == 0);
    if (length_bytes == 0) return 0; /* an empty chunk would end the body */
    pthread_mutex_lock(&req->mu);
    int rc = check_live_locked(req, err);
    bool held = false;
    if (rc == 0) {
        MU_ASSERT(req->response_state == HTTP_RESPONSE_HELD ||
                  req->response_state == HTTP_RESPONSE_STREAMING);
        if (req->response_state == HTTP_RESPONSE_HELD && req->held == NULL &&
            length_bytes <= HTTP_HOLD_MAX_BYTES) {
            req->held = http__chunk_new(length_bytes);
            if (req->held == NULL) {
                rc = MU_ERR_SYS(err, MU_ENOMEM, ENOMEM, "cannot hold %zu response bytes",
                                length_bytes);
            } else {
                memcpy(req->held->data, data, length_bytes);
                held = true;
            }
        } else if (req->response_state == HTTP_RESPONSE_HELD) {
            rc = release_held_locked(req, err);
        }
    }
    pthread_mutex_unlock(&req->mu);
    if (rc != 0 || held) return rc;
    const uint8_t *p = data;
    while (length_bytes > 0 && rc == 0) {
        size_t n = MU_MIN(length_bytes, (size_t)HTTP_OUT_PIECE_BYTES);
        rc = write_piece(req, p, n, err);
        p += n;
        length_bytes -= n;
    }
    return rc;
}

/* Under mu: completes the framing of a begun response. */
static int end_locked(http_request *req, mu_err *err) {
    if (req->response_state == HTTP_RESPONSE_HELD) {
        http_chunk *held = req->held;
        req->held = NULL;
        int64_t length = held != NULL ? (int64_t)held->length_bytes : 0;
        int rc = queue_head_locked(req, length, err);
        if (rc == 0 && held != NULL && !req->is_head_method) {
            out_append_locked(req, held);
            held = NULL;
        }
        free(held);
        return rc;
    }
    MU_ASSERT(req->response_state == HTTP_RESPONSE_STREAMING);
    if (req->response_chunked) {
        return req->is_head_method ? 0 : out_copy_locked(req, "0\r\n\r\n", 5, err);
    }
    if (req->response_length >= 0 &&
        req->response_written_bytes != (uint64_t)req->response_length) {
        return MU_ERR(err, MU_EINTERNAL, "the response to %.*s is shorter than its Content-Length",
                      (int)req->path.length_bytes, req->path.data);
    }
    return 0; /* HTTP/1.0 unframed body: closing the connection ends it */
}

int http_response_end(http_request *req, mu_err *err) {
    pthread_mutex_lock(&req->mu);
    int rc = check_live_locked(req, err);
    if (rc == 0) {
        rc = end_locked(req, err);
        req->response_state = rc == 0 ? HTTP_RESPONSE_ENDED : HTTP_RESPONSE_BROKEN;
    }
    pthread_mutex_unlock(&req->mu);
    request_wake(req);
    return rc;
}

int http_response_send(http_request *req, int status, const char *content_type, const void *body,
                       size_t body_bytes, mu_err *err) {
    int rc = http_response_begin(req, status, content_type, NULL, 0, (int64_t)body_bytes, err);
    if (rc == 0) rc = http_response_write(req, body, body_bytes, err);
    if (rc == 0) rc = http_response_end(req, err);
    return rc;
}

int http_response_send_error(http_request *req, const mu_err *error, mu_err *err) {
    MU_ASSERT(error != NULL);
    int code = error->code < 0 ? error->code : MU_EINTERNAL;
    char body[MU_ERR_MSG_BYTES + 160];
    size_t length = mu_err_clickhouse_text(error, body, sizeof body - 1);
    body[length++] = '\n';
    char code_text[16];
    snprintf(code_text, sizeof code_text, "%d", mu_code_ch_number(code));
    http_field field = {"X-ClickHouse-Exception-Code", code_text};
    int rc = http_response_begin(req, mu_code_http_status(code), "text/plain; charset=UTF-8",
                                 &field, 1, length, err);
    if (rc == 0) rc = http_response_write(req, body, (size_t)length, err);
    if (rc == 0) rc = http_response_end(req, err);
    return rc;
}

bool http_response_started(http_request *req) {
    pthread_mutex_lock(&req->mu);
    bool started = req->response_state != HTTP_RESPONSE_NONE &&
                   req->response_state != HTTP_RESPONSE_OPEN;
    pthread_mutex_unlock(&req->mu);
    return started;
}
