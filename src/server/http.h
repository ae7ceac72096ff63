/* http.h: the HTTP/1.1 layer of src/server/ (private to this folder; other
 * modules include only server.h). Three parts:
 *   1. http_parser: an incremental request parser (RFC 9112) with no I/O,
 *      fed arbitrary byte chunks; it owns the request head, not the body.
 *   2. URL helpers: split a request-target, %XX/'+' decoding, query params.
 *   3. http_server + http_request: the libuv server, its route table and the
 *      thread-safe request/response API handlers use from pool workers.
 * Limits, threading and back-pressure rules: src/server/README.md.
 */
#ifndef MUSCLES_SERVER_HTTP_H
#define MUSCLES_SERVER_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include "base/base.h"

/* ------------------------------------------------------------------ */
/* Parser                                                              */
/* ------------------------------------------------------------------ */

/* Header fields kept per request; more fields is 431 (Poco's default too). */
#define HTTP_HEADER_COUNT_MAX 100
/* A chunk extension is skipped, but not forever. */
#define HTTP_CHUNK_EXT_MAX_BYTES 4096
#define HTTP_BODY_UNLIMITED UINT64_MAX

enum http_version { HTTP_VERSION_1_0 = 10, HTTP_VERSION_1_1 = 11 };

/* One header field. name and value are NUL-terminated inside the parser's
 * head storage; value has leading and trailing whitespace removed and never
 * contains NUL, CR or LF. */
typedef struct http_header {
    const char *name;
    const char *value;
    size_t value_bytes;
} http_header;

/* The parsed request line and header section. Strings point into the head
 * storage (see http_parser_take_head for their lifetime). */
typedef struct http_head {
    const char *method; /* token as sent, case-sensitive ("GET") */
    const char *target; /* request-target as sent, NUL-terminated */
    size_t target_bytes;
    int version; /* enum http_version */
    size_t header_count;
    http_header headers[HTTP_HEADER_COUNT_MAX];
    uint64_t content_length; /* meaningful when has_content_length */
    bool has_content_length;
    bool chunked;         /* Transfer-Encoding: chunked */
    bool keep_alive;      /* the client allows another request after this one */
    bool expect_continue; /* Expect: 100-continue */
} http_head;

enum http_event_type {
    HTTP_EVENT_NONE = 0, /* all input consumed, nothing to report: feed more */
    HTTP_EVENT_HEADERS,  /* head complete: http_parser_head() is valid */
    HTTP_EVENT_BODY,     /* data/length_bytes: body bytes (points into the input) */
    HTTP_EVENT_END,      /* message complete; the rest of the input is the next one */
    HTTP_EVENT_ERROR,    /* status and message set; the parser stays in error */
};

typedef struct http_event {
    enum http_event_type type;
    const uint8_t *data;
    size_t length_bytes;
    int status;          /* ERROR: 400, 413, 417, 431, 501, 503 or 505 */
    const char *message; /* ERROR: static text for the response body */
} http_event;

typedef struct http_parser_limits {
    size_t max_header_bytes; /* request line + headers, terminator included */
    size_t max_header_count; /* at most HTTP_HEADER_COUNT_MAX */
    uint64_t max_body_bytes; /* default per message; HTTP_BODY_UNLIMITED for none */
} http_parser_limits;

typedef struct http_parser {
    http_parser_limits limits;
    uint64_t body_limit_bytes; /* this message's limit */
    int state;
    mu_buf head_storage; /* head bytes, parsed in place */
    bool line_has_bytes; /* head scanner: current line is not empty */
    bool connection_close;      /* Connection: close seen */
    bool connection_keep_alive; /* Connection: keep-alive seen */
    http_head head;
    uint64_t body_remaining_bytes; /* Content-Length left, or current chunk left */
    uint64_t body_received_bytes;
    uint64_t chunk_size;
    size_t chunk_size_digits;
    size_t aux_bytes; /* chunk extension or trailer bytes seen */
    int error_status;
    const char *error_message;
} http_parser;

void http_parser_init(http_parser *p, const http_parser_limits *limits);
void http_parser_deinit(http_parser *p);

/* Consumes a prefix of data[0..length_bytes) and reports one event in *ev;
 * returns the number of bytes consumed. HTTP_EVENT_NONE is reported only when
 * every byte was consumed, so callers loop until NONE (length 0 is allowed and
 * may still yield END). After END the next call starts the next message and
 * invalidates http_parser_head(). */
size_t http_parser_execute(http_parser *p, const uint8_t *data, size_t length_bytes,
                           http_event *ev);
/* After HEADERS and before the body: the largest body this message may carry
 * (413 past it). Defaults to limits.max_body_bytes. */
void http_parser_set_body_limit(http_parser *p, uint64_t max_body_bytes);
/* Valid from HEADERS until the next message starts. */
const http_head *http_parser_head(const http_parser *p);
/* After HEADERS: moves the head and its storage to the caller, who frees the
 * storage with mu_buf_deinit; the strings in *head_out stay valid until then
 * (those of http_parser_head() no longer are). The parser continues with the
 * body and starts the next message in a fresh buffer. */
void http_parser_take_head(http_parser *p, http_head *head_out, mu_buf *storage_out);
/* True once a byte of a request (other than leading empty lines) arrived
 * and until its END. */
bool http_parser_in_message(const http_parser *p);
/* True between HEADERS and END. */
bool http_parser_in_body(const http_parser *p);

/* Case-insensitive lookup of the first field named `name`; NULL if absent. */
const char *http_head_find(const http_head *head, const char *name);
/* ASCII case-insensitive equality of a NUL-terminated string and a slice. */
bool http_token_equal(const char *a, size_t a_bytes, const char *b);

enum http_method_bits {
    HTTP_METHOD_GET = 1u << 0,
    HTTP_METHOD_HEAD = 1u << 1,
    HTTP_METHOD_POST = 1u << 2,
    HTTP_METHOD_PUT = 1u << 3,
    HTTP_METHOD_DELETE = 1u << 4,
    HTTP_METHOD_OPTIONS = 1u << 5,
    HTTP_METHOD_PATCH = 1u << 6,
    HTTP_METHOD_OTHER = 1u << 7,
};
unsigned http_method_bit(const char *method);
/* "OK", "Not Found", ...; "Unknown" for codes without a phrase here. */
const char *http_status_reason(int status);

/* ------------------------------------------------------------------ */
/* URL helpers                                                         */
/* ------------------------------------------------------------------ */

typedef struct http_slice {
    const char *data;
    size_t length_bytes;
} http_slice;

/* Splits origin-form "/p?q" or absolute-form "http://h/p?q" into path and
 * query (without '?'); a fragment is dropped. Never fails: a target with no
 * path yields path "" (the router answers 404). */
void http_target_split(const char *target, size_t target_bytes, http_slice *path_out,
                       http_slice *query_out);
/* Decodes %XX (and '+' as space when plus_is_space) from in into out, which
 * must hold in_bytes (out may equal in). Returns MU_EINVAL on a bad escape. */
int http_url_decode(const char *in, size_t in_bytes, bool plus_is_space, char *out,
                    size_t *out_bytes);
/* Iterates "a=1&b=2": fills the next raw (still encoded) name and value and
 * returns true, or false at the end. Empty pieces ("&&") are skipped; a
 * piece without '=' has an empty value. */
bool http_query_next(http_slice *cursor, http_slice *name_out, http_slice *value_out);
/* Finds the first parameter `name` (compared after decoding) in a raw query
 * string and appends its decoded value to value_out. Returns 1 if found, 0 if
 * absent, or a negative code (MU_EINVAL: bad escape in a name compared or in
 * the value found; MU_ETOO_LARGE: value_out full). Other parameters are not
 * decoded, so their bad escapes are not reported here. */
int http_query_get(http_slice query, const char *name, mu_buf *value_out, mu_err *err);

/* ------------------------------------------------------------------ */
/* Server, routes, request/response                                    */
/* ------------------------------------------------------------------ */

typedef struct http_server http_server;
typedef struct http_request http_request;

/* A handler answers one request. It returns 0, or a negative code with err
 * filled; if no response was begun yet the server then answers with the
 * ClickHouse-shaped error (http_response_send_error). */
typedef int (*http_handler_fn)(http_request *req, void *ctx, mu_err *err);

enum http_run {
    HTTP_RUN_INLINE, /* on the loop thread: cheap, never blocks, ignores the body */
    HTTP_RUN_POOL,   /* on a worker: may block on body reads and response writes */
};

typedef struct http_route {
    const char *path; /* exact match on the raw path (no query) */
    unsigned methods; /* http_method_bits; other methods get 405 */
    enum http_run run;
    http_handler_fn handler;
    void *ctx;
} http_route;

typedef struct http_server_options {
    const char *listen_host; /* IPv4 or IPv6 literal */
    unsigned port;           /* 0 picks a free port (tests); see http_server_port */
    size_t max_connections;
    size_t max_header_bytes;
    uint64_t max_body_bytes; /* applies to http_body_read_all only, see README */
    uint64_t keep_alive_timeout_ms;
    uint64_t request_timeout_ms;
    uint64_t shutdown_timeout_ms;
} http_server_options;

/* On the loop thread, before uv_run: binds, listens and logs http.listen.
 * routes must outlive the server. pool runs HTTP_RUN_POOL handlers and must
 * outlive the server too (destroy the pool, then the server). On failure
 * (MU_EINVAL: bad address; MU_EIO: cannot listen, e.g. port in use) the
 * caller runs the loop once more so the listener's close completes. */
int http_server_start(http_server **server_out, uv_loop_t *loop, const http_server_options *opt,
                      const http_route *routes, size_t route_count, mu_pool *pool, mu_err *err);
/* The bound port (useful when options.port was 0). */
unsigned http_server_port(const http_server *server);
void http_server_set_ready(http_server *server, bool ready);
bool http_server_ready(const http_server *server);
/* Thread-safe. Stops accepting, closes idle connections, lets requests in
 * flight finish up to shutdown_timeout_ms, then closes every handle the
 * server owns so that uv_run returns. Idempotent. */
void http_server_shutdown(http_server *server);
/* After uv_run returned and the pool was destroyed: frees the server. */
void http_server_destroy(http_server *server);

/* Request accessors (any thread; the data is immutable while the handler runs). */
const http_head *http_request_head(const http_request *req);
http_slice http_request_path(const http_request *req);
http_slice http_request_query(const http_request *req);
const char *http_request_header(const http_request *req, const char *name);
http_server *http_request_server(const http_request *req);

/* Pull stream of the request body (pool handlers only). Blocks until bytes
 * arrive; *read_bytes_out == 0 means the body is complete. Fails with
 * MU_ECANCELLED when the client went away, MU_ETIMEOUT after the request
 * timeout, MU_EPROTOCOL on a malformed body. */
int http_body_read(http_request *req, void *buf, size_t capacity_bytes, size_t *read_bytes_out,
                   mu_err *err);
/* Reads the rest of the body into out; fails with MU_ETOO_LARGE (413) past
 * http.max_body_bytes. */
int http_body_read_all(http_request *req, mu_buf *out, mu_err *err);

typedef struct http_field {
    const char *name;
    const char *value;
} http_field;

#define HTTP_LENGTH_UNKNOWN (-1)

/* Starts the response. The server adds Date, Connection, Keep-Alive and the
 * framing (Content-Length or Transfer-Encoding: chunked); fields must not
 * name those. content_length HTTP_LENGTH_UNKNOWN lets the server choose:
 * a body given in one write before end gets Content-Length, otherwise it is
 * sent chunked (HTTP/1.0: unframed, then close). Writes block while more
 * than HTTP_OUT_QUEUE_MAX_BYTES are queued unsent. All three fail with
 * MU_ECANCELLED once the connection is gone. */
int http_response_begin(http_request *req, int status, const char *content_type,
                        const http_field *fields, size_t field_count, int64_t content_length,
                        mu_err *err);
int http_response_write(http_request *req, const void *data, size_t length_bytes, mu_err *err);
int http_response_end(http_request *req, mu_err *err);
/* An open head: the status line goes out now, header fields may follow
 * one at a time while the handler works (ClickHouse's X-ClickHouse-Progress
 * lines), and http_response_begin completes the head as usual (Date,
 * Connection, Content-Type, framing, its fields). The status is fixed from
 * here on: begin's status argument is then ignored, so an error response
 * (http_response_send_error) keeps it and only adds its code field and body.
 * Only where http_response_can_open says so: HTTP/1.1 and not HEAD (an
 * HTTP/1.0 head is sent whole). Fields are checked like begin's; adding
 * blocks while the output queue is full, like writes. */
bool http_response_can_open(const http_request *req);
int http_response_open(http_request *req, int status, mu_err *err);
int http_response_add_field(http_request *req, const http_field *field, mu_err *err);
/* begin + write + end with a known length. */
int http_response_send(http_request *req, int status, const char *content_type, const void *body,
                       size_t body_bytes, mu_err *err);
/* ClickHouse-shaped error: status from errors.def, X-ClickHouse-Exception-Code,
 * body "Code: N. DB::Exception: <message>. (NAME) (version V)\n". */
int http_response_send_error(http_request *req, const mu_err *error, mu_err *err);
/* True once begin was called (an open head alone does not count). */
bool http_response_started(http_request *req);

#endif /* MUSCLES_SERVER_HTTP_H */
