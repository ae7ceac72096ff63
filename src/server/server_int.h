/* server_int.h: glue between server.c (server_run: loop, pool, signals,
 * settings) and routes.c (the route table). Private to src/server/.
 */
#ifndef MUSCLES_SERVER_INT_H
#define MUSCLES_SERVER_INT_H

#include "config/config.h"
#include "server/http.h"
#include "server/server.h"

#include "sql/sql.h"
#include "storage/storage.h"

#include <pthread.h>

#define SERVER_SESSIONS_MAX 256
#define SERVER_SESSION_ID_BYTES 128

/* A ClickHouse HTTP session (session_id): settings and current database
 * kept between requests until it expires; one request at a time. */
typedef struct server_session {
    char id[SERVER_SESSION_ID_BYTES];
    sql_session sql;
    int64_t expires_ms;   /* monotonic; 0 = free slot */
    bool busy;
} server_session;

/* What the query handler shares with server_run: the storage once open
 * (NULL before: queries answer 503), the engine description, sessions. */
typedef struct server_query_state {
    _Atomic(storage *) storage;
    sql_engine engine;
    char hostname[256];
    http_route routes[8];
    pthread_mutex_t sessions_lock;
    server_session sessions[SERVER_SESSIONS_MAX];
} server_query_state;

/* The route table (kept in state). */
const http_route *server__routes(server_query_state *state, size_t *count_out);
/* The ClickHouse HTTP query handler (query_handler.c) on "/". */
int server__handle_query(http_request *req, void *ctx, mu_err *err);
/* GET /metrics: Prometheus exposition (query_handler.c). */
int server__handle_metrics(http_request *req, void *ctx, mu_err *err);
/* Maps the http.* and server.* settings onto server options. */
void server__http_options(const cfg_settings *cfg, http_server_options *out);

#endif /* MUSCLES_SERVER_INT_H */
