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

/* Users of the HTTP interface (users.c). */
#define SERVER_USERS_MAX 256
typedef struct server_user {
    char name[64];
    bool has_password;
    uint8_t sha256[32];
    bool readonly;
    char databases[1024];   /* comma-separated; empty: every database */
    /* Limits (max_memory_usage=..., max_execution_time=..., ...): the
     * user's value of the setting and the most a query may ask for. */
    uint32_t limit_count;
    struct {
        char name[64];
        char value[32];
    } limits[8];
} server_user;

typedef struct server_users {
    uint32_t count;
    server_user users[SERVER_USERS_MAX];
} server_users;

/* Reads security.users_file (path may be empty); the user default is added
 * without a password unless the file defines it. MU_ECONFIG naming the line. */
int server__users_load(const char *path, server_users *u, mu_err *err);
const server_user *server__users_find(const server_users *u, const char *name);
/* MU_EAUTH (516) unless name exists and password matches. */
int server__users_authenticate(const server_users *u, const char *name, const char *password,
                               const server_user **out, mu_err *err);
/* True (and the user's name) when some user has no password. */
bool server__users_insecure(const server_users *u, const char **name_out);

/* displayName() and X-ClickHouse-Server-Display-Name (ClickHouse's
 * display_name; tests recognise muscles by it). */
#define SERVER_DISPLAY_NAME "muscles"

/* What the query handler shares with server_run: the storage once open
 * (NULL before: queries answer 503), the engine description, sessions. */
typedef struct server_query_state {
    _Atomic(storage *) storage;
    sql_engine engine;
    char hostname[256];
    http_route routes[8];
    server_users users;
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
