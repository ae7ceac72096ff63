/* server.h: the network front end of muscles. Owns the libuv event loop,
 * the HTTP/1.1 server (our own parser, keep-alive, limits), the routes on
 * the HTTP port (/ping, /live, /ready; the ClickHouse handler and /metrics
 * come later) and graceful shutdown on SIGTERM/SIGINT.
 *
 * Threads: one loop thread does socket I/O only; request handlers that do
 * real work run on a worker pool and talk to the loop through thread-safe
 * request/response objects (see http.h).
 */
#ifndef MUSCLES_SERVER_H
#define MUSCLES_SERVER_H

#include "base/base.h"
#include "config/config.h"

/* Binds the listeners named by cfg, serves until SIGTERM or SIGINT, drains
 * in-flight requests (up to server.shutdown_timeout_ms), and returns 0.
 * Returns a negative code (err filled) if start-up fails, e.g. the port is
 * taken. */
int server_run(const cfg_settings *cfg, mu_err *err);

#endif /* MUSCLES_SERVER_H */
