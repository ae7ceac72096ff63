/* http_internal.h: structures shared by http_server.c (loop side: sockets,
 * timers, parsing, shutdown) and http_exchange.c (the request object that
 * the loop and one worker share). Private to these two files.
 *
 * Locking: http_request.mu guards every field marked "mu" below; the loop
 * thread alone touches http_conn and the "loop" fields. http_server.wake_mu
 * guards the wake list and wake_closed, and is held across uv_async_send so
 * the async handle cannot be closed under a worker's feet.
 */
#ifndef MUSCLES_SERVER_HTTP_INTERNAL_H
#define MUSCLES_SERVER_HTTP_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "server/http.h"

/* Socket reads land here; one per connection, allocated at first read. */
#define HTTP_READ_BUFFER_BYTES (64 * 1024)
/* Body bytes queued for a worker: reading stops above MAX (back-pressure
 * towards the client) and resumes once the worker drained below LOW. */
#define HTTP_BODY_QUEUE_MAX_BYTES (1024 * 1024)
#define HTTP_BODY_QUEUE_LOW_BYTES (256 * 1024)
/* Response bytes queued or in flight: a writing worker blocks above this. */
#define HTTP_OUT_QUEUE_MAX_BYTES (1024 * 1024)
/* Large writes are cut into pieces (one chunk each) of at most this. */
#define HTTP_OUT_PIECE_BYTES (256 * 1024)
/* A first write up to this size is held back: if end follows, the response
 * gets Content-Length instead of chunked framing. */
#define HTTP_HOLD_MAX_BYTES (64 * 1024)
/* After the last response on a closing connection: send FIN, then read and
 * discard for up to this long so the client sees the response, not a RST. */
#define HTTP_LINGER_MS 2000
#define HTTP_ABORT_MESSAGE_BYTES 160

/* A heap byte run in a singly linked queue (body or output). */
typedef struct http_chunk {
    struct http_chunk *next;
    size_t length_bytes;
    size_t offset_bytes; /* bytes already consumed (body queue) */
    uint8_t data[];
} http_chunk;

typedef struct http_conn http_conn;

enum http_response_state {
    HTTP_RESPONSE_NONE,      /* nothing begun */
    HTTP_RESPONSE_OPEN,      /* status line queued, fields may follow one by one */
    HTTP_RESPONSE_HELD,      /* begun; head (and maybe one write) not queued yet */
    HTTP_RESPONSE_STREAMING, /* head queued */
    HTTP_RESPONSE_ENDED,     /* complete */
    HTTP_RESPONSE_BROKEN,    /* cannot be completed: the connection must close */
};

struct http_request {
    /* Immutable after creation. */
    http_server *server;
    const http_route *route;
    http_head head;
    mu_buf head_storage;
    http_slice path;
    http_slice query;
    unsigned allowed_methods; /* for 405: the methods the path accepts */
    bool on_loop; /* inline: the loop thread calls the response API */
    bool is_head_method;
    _Atomic int refs;

    pthread_mutex_t mu;
    pthread_cond_t cond;
    http_conn *conn;            /* mu: NULL once detached from its connection */
    bool aborted;               /* mu */
    int abort_code;             /* mu */
    char abort_message[HTTP_ABORT_MESSAGE_BYTES]; /* mu */
    http_chunk *body_first;     /* mu */
    http_chunk *body_last;      /* mu */
    size_t body_queued_bytes;   /* mu */
    bool body_done;             /* mu */
    bool body_paused;           /* mu: the loop stopped reading for this body */
    uint64_t body_consumed_bytes; /* worker only */

    int response_state;           /* mu: enum http_response_state */
    int response_status;          /* mu */
    int64_t response_length;      /* mu: declared Content-Length or HTTP_LENGTH_UNKNOWN */
    uint64_t response_written_bytes; /* mu */
    bool response_opened;         /* mu: the status line went out at open */
    bool response_chunked;        /* mu */
    bool response_keep_alive;     /* mu: what the head said */
    mu_buf response_fields;       /* mu: "Content-Type: ...\r\n" then the handler's fields */
    size_t response_type_bytes;   /* mu: length of the Content-Type line in response_fields */
    http_chunk *held;             /* mu: the first write, held back */
    http_chunk *out_first;        /* mu */
    http_chunk *out_last;         /* mu */
    size_t out_bytes;             /* mu: queued + in flight */
    bool handler_done;            /* mu */
    bool in_wake_list;            /* server wake_mu */
    http_request *wake_next;      /* server wake_mu */
    http_request *serve_next;     /* loop: the batch taken off the wake list */
};

struct http_server {
    uv_loop_t *loop;
    http_server_options opt;
    const http_route *routes;
    size_t route_count;
    mu_pool *pool;
    uv_tcp_t listener;
    uv_timer_t shutdown_timer;
    uv_async_t wake;
    unsigned port;
    atomic_bool ready;
    atomic_bool shutdown_requested;
    atomic_bool shutting_down; /* read by workers when choosing keep-alive */
    bool listener_open;        /* loop */
    bool handles_closed;       /* loop */
    size_t connection_count;   /* loop */
    uint64_t rejected_count;   /* loop: refused at accept since the last warning */
    int64_t rejected_logged_ms; /* loop */
    http_conn *conns;          /* loop: doubly linked */
    pthread_mutex_t wake_mu;
    http_request *wake_first; /* wake_mu */
    bool wake_closed;         /* wake_mu */
};

/* ---- http_exchange.c, called by the loop ---- */

/* Creates a request owning head/storage; refs = 1 (the connection's). */
int http__request_create(http_request **req_out, http_server *server, http_conn *conn,
                         const http_route *route, const http_head *head, mu_buf *storage_take,
                         mu_err *err);
void http__request_release(http_request *req); /* any thread; accepts NULL */
/* Submits the handler to the pool (takes a second reference). */
int http__request_submit(http_request *req, mu_err *err);
/* Runs an inline handler on the loop and finishes it. */
void http__request_run_inline(http_request *req);
/* Queues a copy of body bytes (MU_ENOMEM if it cannot). */
int http__request_body_push(http_request *req, const uint8_t *data, size_t length_bytes);
void http__request_body_end(http_request *req);
/* Detaches req from its connection and wakes a blocked worker. With a
 * nonzero code it also marks the request failed (later calls keep the first
 * reason), and returns true if no response had begun: the caller then owns
 * the answer (e.g. writes a 408) and the worker can no longer start one. */
bool http__request_abort(http_request *req, int code, const char *message);
/* The connection req is attached to, or NULL (loop thread). */
http_conn *http__request_conn(http_request *req);
/* Takes the queued output (caller frees the chunks); *bytes_out is its size. */
http_chunk *http__request_take_output(http_request *req, size_t *bytes_out);
/* A write of `bytes` finished: release the back-pressure they held. */
void http__request_output_done(http_request *req, size_t bytes);

typedef struct http_request_status {
    bool handler_done;
    int response_state;
    bool response_keep_alive;
    bool output_pending;
    bool body_wanted; /* the loop may resume reading for the body queue */
    bool aborted;
} http_request_status;
void http__request_status(http_request *req, http_request_status *out);

/* ---- http_server.c, called from http_exchange.c ---- */

/* Worker side: asks the loop to service req's connection soon. */
void http__server_wake(http_server *server, http_request *req);
/* Loop side: flush output, check completion, resume reading. */
void http__conn_service(http_conn *conn);

http_chunk *http__chunk_new(size_t length_bytes);
void http__chunk_free_list(http_chunk *first);
/* "Sun, 06 Nov 1994 08:49:37 GMT" into out[HTTP_DATE_BYTES]. */
#define HTTP_DATE_BYTES 40
void http__format_date(char *out);

#endif /* MUSCLES_SERVER_HTTP_INTERNAL_H */
