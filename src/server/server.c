/* server.c: server_run, the front end's entry point. Owns the libuv loop of
 * the calling thread, the worker pool for HTTP handlers, the SIGTERM/SIGINT
 * watchers and the mapping of settings onto the HTTP server. Shutdown order:
 * signal -> http_server_shutdown (stop accepting, drain) -> uv_run returns
 * -> pool destroyed (workers joined) -> server freed -> loop closed.
 */
#include "server/server_int.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <stdlib.h>
#include <unistd.h>

#include "storage/storage.h"

/* Handlers block on sockets while streaming, so the pool is sized for
 * concurrency rather than for cores. */
#define SERVER_WORKER_THREADS_MIN 8
#define SERVER_WORKER_THREADS_MAX 64

typedef struct server_signals {
    uv_signal_t term;
    uv_signal_t interrupt;
    http_server *http;
} server_signals;

void server__http_options(const cfg_settings *cfg, http_server_options *out) {
    out->listen_host = cfg->http_listen_host;
    out->port = (unsigned)cfg->http_port;
    out->max_connections = (size_t)cfg->http_max_connections;
    out->max_header_bytes = (size_t)cfg->http_max_header_bytes;
    out->max_body_bytes = cfg->http_max_body_bytes;
    out->keep_alive_timeout_ms = cfg->http_keep_alive_timeout_ms;
    out->request_timeout_ms = cfg->http_request_timeout_ms;
    out->shutdown_timeout_ms = cfg->server_shutdown_timeout_ms;
}

static unsigned server_worker_threads(void) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned n = cpus > 0 ? (unsigned)cpus * 2 : SERVER_WORKER_THREADS_MIN;
    return MU_MIN(MU_MAX(n, (unsigned)SERVER_WORKER_THREADS_MIN),
                  (unsigned)SERVER_WORKER_THREADS_MAX);
}

static void server_on_signal(uv_signal_t *handle, int signum) {
    server_signals *sig = handle->data;
    mu_log_info("server.signal", "signal=%s", signum == SIGTERM ? "SIGTERM" : "SIGINT");
    http_server_shutdown(sig->http);
    /* Closing the watchers restores the default action: a second signal
     * during the drain ends the process at once. */
    if (!uv_is_closing((uv_handle_t *)&sig->term)) uv_close((uv_handle_t *)&sig->term, NULL);
    if (!uv_is_closing((uv_handle_t *)&sig->interrupt)) {
        uv_close((uv_handle_t *)&sig->interrupt, NULL);
    }
}

static int server_watch_signals(uv_loop_t *loop, server_signals *sig, mu_err *err) {
    uv_signal_init(loop, &sig->term);
    uv_signal_init(loop, &sig->interrupt);
    sig->term.data = sig;
    sig->interrupt.data = sig;
    int rc = uv_signal_start(&sig->term, server_on_signal, SIGTERM);
    if (rc == 0) rc = uv_signal_start(&sig->interrupt, server_on_signal, SIGINT);
    if (rc != 0) {
        uv_close((uv_handle_t *)&sig->term, NULL);
        uv_close((uv_handle_t *)&sig->interrupt, NULL);
        return MU_ERR(err, MU_EIO, "cannot watch SIGTERM/SIGINT: %s", uv_strerror(rc));
    }
    return 0;
}

/* Every handle is closed by now; one left open is a bug, not worth a crash
 * in release at exit. */
static void server_close_loop(uv_loop_t *loop) {
    if (MU_NEVER(uv_loop_close(loop) != 0)) {
        mu_log_warn("server.loop_close", "error=\"handles still open at exit\"");
    }
}

/* Opening the storage replays every table's WAL, which can take a while, so
 * it runs off the loop: /live answers meanwhile and /ready only after. */
typedef struct server_storage_open {
    uv_work_t work;
    const cfg_settings *cfg;
    http_server *http;
    storage *engine;
    server_query_state *query;
    int rc;
    mu_err err;
} server_storage_open;

static void server_storage_open_run(uv_work_t *work) {
    server_storage_open *op = work->data;
    const cfg_settings *cfg = op->cfg;
    char *wal_dir = cfg_wal_dir(cfg), *parts_dir = cfg_parts_dir(cfg);
    storage_options opt = {0};
    opt.data_dir = cfg->storage_data_dir;
    opt.wal_dir = wal_dir;
    opt.parts_dir = parts_dir;
    opt.wal_segment_bytes = cfg->wal_segment_bytes;
    opt.token_window = cfg->wal_token_window;
    opt.flush_rows = cfg->storage_flush_rows;
    opt.flush_interval_ms = cfg->storage_flush_interval_ms;
    opt.key_compiler = sql_key_compiler();
    op->rc = wal_dir && parts_dir ? storage_open(&op->engine, &opt, &op->err)
                                  : MU_ERR(&op->err, MU_ENOMEM, "cannot allocate paths");
    free(wal_dir);
    free(parts_dir);
}

static void server_storage_open_on_done(uv_work_t *work, int status) {
    server_storage_open *op = work->data;
    if (op->rc == 0 && status == 0) {
        atomic_store(&op->query->storage, op->engine);
        http_server_set_ready(op->http, true);
        mu_log_info("server.ready", "storage=open");
        return;
    }
    if (op->rc == 0) op->rc = MU_ERR(&op->err, MU_ECANCELLED, "storage open cancelled");
    mu_log_err(MU_LOG_ERROR, "server.storage_failed", &op->err);
    http_server_shutdown(op->http);
}

int server_run(const cfg_settings *cfg, mu_err *err) {
    MU_ASSERT(cfg != NULL && err != NULL);
    /* A peer that closes early must cost a failed write, not the process. */
    signal(SIGPIPE, SIG_IGN);
    uv_loop_t loop;
    int uv_rc = uv_loop_init(&loop);
    if (uv_rc != 0) return MU_ERR(err, MU_EIO, "cannot create the event loop: %s",
                                  uv_strerror(uv_rc));
    mu_pool *pool = NULL;
    http_server *http = NULL;
    server_signals sig = {0};
    unsigned threads = server_worker_threads();
    int rc = mu_pool_create(&pool, "http", threads, (size_t)cfg->http_max_connections, err);
    if (rc != 0) goto fail;
    http_server_options opt;
    server__http_options(cfg, &opt);
    static server_query_state query;
    memset(&query, 0, sizeof(query));
    pthread_mutex_init(&query.sessions_lock, NULL);
    if (gethostname(query.hostname, sizeof(query.hostname) - 1) != 0)
        snprintf(query.hostname, sizeof(query.hostname), "localhost");
    query.engine.version = MUSCLES_VERSION;
    query.engine.hostname = query.hostname;
    query.engine.display_name = SERVER_DISPLAY_NAME;
    query.engine.start_time_s = (int64_t)time(NULL);
    rc = server__users_load(cfg->security_users_file, &query.users, err);
    if (rc != 0) goto fail;
    const char *open_user;
    const char *host = cfg->http_listen_host;
    bool loopback = strncmp(host, "127.", 4) == 0 || strcmp(host, "::1") == 0 ||
                    strcmp(host, "[::1]") == 0 || strcmp(host, "localhost") == 0;
    /* Only a valid address is judged here; a bad one is reported by the
     * listener with its own message. */
    struct sockaddr_in6 a6;
    struct sockaddr_in a4;
    bool valid = uv_ip4_addr(host, 0, &a4) == 0 || uv_ip6_addr(host, 0, &a6) == 0;
    if (valid && !loopback && !cfg->security_allow_insecure_default_user &&
        server__users_insecure(&query.users, &open_user)) {
        rc = MU_ERR(err, MU_ECONFIG, "http.listen_host %s is not a loopback address while user %s "
                    "has no password: give it one (security.users_file) or set "
                    "security.allow_insecure_default_user=true", host, open_user);
        goto fail;
    }
    rc = sql_activity_create(&query.engine.activity, err);
    if (rc != 0) goto fail;
    size_t route_count = 0;
    const http_route *routes = server__routes(&query, &route_count);
    rc = http_server_start(&http, &loop, &opt, routes, route_count, pool, err);
    if (rc != 0) goto fail;
    sig.http = http;
    rc = server_watch_signals(&loop, &sig, err);
    if (rc != 0) {
        http_server_shutdown(http);
        uv_run(&loop, UV_RUN_DEFAULT);
        goto fail;
    }
    mu_log_info("server.listening", "workers=%u", threads);
    server_storage_open open = {.cfg = cfg, .http = http, .query = &query};
    open.work.data = &open;
    uv_queue_work(&loop, &open.work, server_storage_open_run, server_storage_open_on_done);
    uv_run(&loop, UV_RUN_DEFAULT);
    mu_pool_destroy(pool);
    http_server_destroy(http);
    server_close_loop(&loop);
    storage_close(open.engine);
    sql_activity_destroy(query.engine.activity);
    query.engine.activity = NULL;
    if (open.rc != 0) {
        *err = open.err;
        return open.rc;
    }
    mu_log_info("server.shutdown", "step=done");
    return 0;
fail:
    sql_activity_destroy(query.engine.activity);
    query.engine.activity = NULL;
    mu_pool_destroy(pool);
    if (http != NULL) http_server_destroy(http);
    uv_run(&loop, UV_RUN_DEFAULT); /* completes closes begun on failure */
    server_close_loop(&loop);
    return rc;
}
