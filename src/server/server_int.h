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

/* What the query handler shares with server_run: the storage once open
 * (NULL before: queries answer 503) and the engine description. */
typedef struct server_query_state {
    _Atomic(storage *) storage;
    sql_engine engine;
    char hostname[256];
    http_route routes[8];
} server_query_state;

/* The route table (kept in state). */
const http_route *server__routes(server_query_state *state, size_t *count_out);
/* The ClickHouse HTTP query handler (query_handler.c) on "/". */
int server__handle_query(http_request *req, void *ctx, mu_err *err);
/* Maps the http.* and server.* settings onto server options. */
void server__http_options(const cfg_settings *cfg, http_server_options *out);

#endif /* MUSCLES_SERVER_INT_H */
