/* server_int.h: glue between server.c (server_run: loop, pool, signals,
 * settings) and routes.c (the route table). Private to src/server/.
 */
#ifndef MUSCLES_SERVER_INT_H
#define MUSCLES_SERVER_INT_H

#include "config/config.h"
#include "server/http.h"
#include "server/server.h"

/* The release route table (static storage). */
const http_route *server__routes(size_t *count_out);
/* Maps the http.* and server.* settings onto server options. */
void server__http_options(const cfg_settings *cfg, http_server_options *out);

#endif /* MUSCLES_SERVER_INT_H */
