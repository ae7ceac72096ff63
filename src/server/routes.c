/* routes.c: the route table of the HTTP port in release builds and the
 * probe handlers. Probes are inline (loop thread, no I/O, no locks beyond an
 * atomic load) so they answer even when every worker is busy. /ping matches
 * ClickHouse (body "Ok.\n", text/html like its StaticRequestHandler); /live
 * and /ready are muscles' Kubernetes probes.
 */
#include "server/server_int.h"

#include <string.h>

static const char probe_ok_body[] = "Ok.\n";

static int probe_ping(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    return http_response_send(req, 200, "text/html; charset=UTF-8", probe_ok_body,
                              sizeof probe_ok_body - 1, err);
}

/* Liveness: the loop thread answers, so the process is not wedged. */
static int probe_live(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    return http_response_send(req, 200, "text/plain; charset=UTF-8", probe_ok_body,
                              sizeof probe_ok_body - 1, err);
}

/* Readiness: 503 until server_run declares the node ready (later: after WAL
 * replay and catalog load). */
static int probe_ready(http_request *req, void *ctx, mu_err *err) {
    (void)ctx;
    static const char not_ready[] = "Not ready.\n";
    if (!http_server_ready(http_request_server(req))) {
        return http_response_send(req, 503, "text/plain; charset=UTF-8", not_ready,
                                  sizeof not_ready - 1, err);
    }
    return http_response_send(req, 200, "text/plain; charset=UTF-8", probe_ok_body,
                              sizeof probe_ok_body - 1, err);
}

#define PROBE_METHODS (HTTP_METHOD_GET | HTTP_METHOD_HEAD)

const http_route *server__routes(server_query_state *state, size_t *count_out) {
    const http_route routes[] = {
        {"/ping", PROBE_METHODS, HTTP_RUN_INLINE, probe_ping, NULL},
        {"/live", PROBE_METHODS, HTTP_RUN_INLINE, probe_live, NULL},
        {"/ready", PROBE_METHODS, HTTP_RUN_INLINE, probe_ready, NULL},
        {"/", HTTP_METHOD_GET | HTTP_METHOD_POST, HTTP_RUN_POOL, server__handle_query, state},
        {"/metrics", HTTP_METHOD_GET, HTTP_RUN_POOL, server__handle_metrics, state},
    };
    MU_ASSERT(MU_ARRAY_LEN(routes) <= MU_ARRAY_LEN(state->routes));
    memcpy(state->routes, routes, sizeof(routes));
    *count_out = MU_ARRAY_LEN(routes);
    return state->routes;
}
