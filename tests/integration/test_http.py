"""HTTP interface of the real binary: probes and their headers, 404/405,
keep-alive and HTTP/1.0 rules, pipelining, request bodies on probe routes,
and the answers to bad input (400, 431, 501, 505, 408) after which the
server keeps serving; max_connections."""

import email.utils
import http.client
import socket
import time

import requests


def test_ping_body_and_headers(server):
    resp = server.request("GET /ping HTTP/1.1\r\nHost: localhost\r\n\r\n")
    assert resp.status == 200
    assert resp.body == b"Ok.\n"
    assert resp.header("Content-Type") == "text/html; charset=UTF-8"  # as ClickHouse's /ping
    assert resp.header("Content-Length") == "4"
    assert resp.header("Connection") == "Keep-Alive"
    assert resp.header("Keep-Alive") == "timeout=10"
    date = email.utils.parsedate_to_datetime(resp.header("Date"))
    assert abs(date.timestamp() - time.time()) < 60
    assert resp.header("Transfer-Encoding") is None


def test_live_ready_head(server):
    for path in ("/live", "/ready"):
        resp = server.request(f"GET {path} HTTP/1.1\r\n\r\n")
        assert (resp.status, resp.body) == (200, b"Ok.\n")
    head = server.request("HEAD /ping HTTP/1.1\r\n\r\n", head=True)
    assert head.status == 200
    assert head.header("Content-Length") == "4"


def test_requests_library(server):
    r = requests.get(f"http://127.0.0.1:{server.port}/ping", timeout=5)
    assert r.status_code == 200 and r.text == "Ok.\n"
    r = requests.get(f"http://127.0.0.1:{server.port}/nope", timeout=5)
    assert r.status_code == 404


def test_not_found_and_method_not_allowed(server):
    resp = server.request("GET /missing?x=1 HTTP/1.1\r\n\r\n")
    assert resp.status == 404
    assert b"/missing" in resp.body
    assert resp.header("Content-Type").startswith("text/plain")
    resp = server.request("POST /ping HTTP/1.1\r\nContent-Length: 0\r\n\r\n")
    assert resp.status == 405
    assert resp.header("Allow") == "GET, HEAD"


def test_keep_alive_reuse(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    conn.connect()
    first_socket = conn.sock
    for path in ("/ping", "/live", "/ready", "/nope"):
        conn.request("GET", path)
        resp = conn.getresponse()
        resp.read()
        assert resp.status in (200, 404)
        assert conn.sock is first_socket  # http.client reconnects if the server closed
    conn.close()


def test_http10(server):
    conn = server.connect()
    conn.send("GET /ping HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
    resp = conn.read_response()
    assert resp.header("Connection") == "Keep-Alive"
    conn.send("GET /ping HTTP/1.0\r\n\r\n")
    resp = conn.read_response()
    assert resp.body == b"Ok.\n"
    assert resp.header("Connection") == "Close"
    assert conn.closed_by_server()
    conn.close()


def test_pipelined_requests(server):
    conn = server.connect()
    conn.send("GET /ping HTTP/1.1\r\n\r\n"
              "GET /nope HTTP/1.1\r\n\r\n"
              "HEAD /live HTTP/1.1\r\n\r\n"
              "GET /ready HTTP/1.1\r\nConnection: close\r\n\r\n")
    assert conn.read_response().status == 200
    assert conn.read_response().status == 404
    assert conn.read_response(head=True).status == 200
    last = conn.read_response()
    assert (last.status, last.body, last.header("Connection")) == (200, b"Ok.\n", "Close")
    assert conn.closed_by_server()
    conn.close()


def test_chunked_request_body(server):
    """A body sent to a probe is read and dropped; the connection goes on."""
    conn = server.connect()
    conn.send("GET /ping HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n")
    conn.send("5\r\nhello\r\n6;ext=1\r\n world\r\n")
    time.sleep(0.05)
    conn.send("0\r\nX-Trailer: t\r\n\r\n")
    assert conn.read_response().body == b"Ok.\n"
    conn.send("GET /ping HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcGET /live HTTP/1.1\r\n\r\n")
    assert conn.read_response().status == 200
    assert conn.read_response().status == 200
    conn.close()


def test_malformed_request_line_then_ping(server):
    conn = server.connect()
    conn.send("THIS IS NOT HTTP\r\n\r\n")
    resp = conn.read_response()
    assert resp.status == 400
    assert resp.header("Connection") == "Close"
    assert resp.body.startswith(b"Bad Request: ")
    assert conn.closed_by_server()
    conn.close()
    assert server.request("GET /ping HTTP/1.1\r\n\r\n").status == 200


def test_bad_input_statuses(server):
    cases = [
        ("GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", 400),
        ("GET /ping HTTP/2.0\r\n\r\n", 505),
        ("GET /ping HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        ("GET /ping HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400),
        ("GET /ping HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        # A probe answers at once; a malformed body after that closes the
        # connection without a second answer.
        ("GET /ping HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nxyz\r\n", 200),
    ]
    for text, status in cases:
        conn = server.connect()
        conn.send(text)
        resp = conn.read_response()
        assert resp.status == status, text
        assert conn.closed_by_server(), text
        conn.close()
    assert server.request("GET /ping HTTP/1.1\r\n\r\n").status == 200


def test_header_too_large(make_server):
    srv = make_server(env={"MUSCLES_HTTP_MAX_HEADER_BYTES": "2KiB"})
    conn = srv.connect()
    conn.send("GET /ping HTTP/1.1\r\nX-Big: " + "a" * 3000 + "\r\n\r\n")
    resp = conn.read_response()
    assert resp.status == 431
    assert conn.closed_by_server()
    conn.close()
    ok = srv.request("GET /ping HTTP/1.1\r\nX-Fits: " + "a" * 1500 + "\r\n\r\n")
    assert ok.status == 200


def test_request_timeout(make_server):
    srv = make_server(env={"MUSCLES_HTTP_REQUEST_TIMEOUT_MS": "300"})
    conn = srv.connect()
    start = time.monotonic()
    conn.send("GET /ping HTTP/1.1\r\nHost: slow")
    resp = conn.read_response()
    assert resp.status == 408
    assert time.monotonic() - start >= 0.25
    assert conn.closed_by_server()
    conn.close()
    assert srv.request("GET /ping HTTP/1.1\r\n\r\n").status == 200


def test_keep_alive_timeout(make_server):
    srv = make_server(env={"MUSCLES_HTTP_KEEP_ALIVE_TIMEOUT_MS": "300"})
    conn = srv.connect()
    conn.send("GET /ping HTTP/1.1\r\n\r\n")
    resp = conn.read_response()
    assert resp.header("Keep-Alive") == "timeout=0"
    start = time.monotonic()
    assert conn.closed_by_server(timeout=3)
    assert time.monotonic() - start >= 0.2
    conn.close()


def served_connection(srv, timeout=3.0):
    """A connection that got an answer: retried while slots of connections
    the client already closed are still being released by the server."""
    deadline = time.monotonic() + timeout
    while True:
        conn = srv.connect()
        try:
            conn.send("GET /ping HTTP/1.1\r\n\r\n")
            assert conn.read_response().status == 200
            return conn
        except (EOFError, ConnectionResetError, BrokenPipeError):
            conn.close()
            assert time.monotonic() < deadline, "no connection slot became free"
            time.sleep(0.05)


def test_max_connections(make_server):
    srv = make_server(env={"MUSCLES_HTTP_MAX_CONNECTIONS": "2"})
    a = served_connection(srv)
    b = served_connection(srv)
    extra = srv.connect()
    assert extra.closed_by_server(timeout=3)
    extra.close()
    srv.wait_log(r"level=warn event=http\.connection_rejected reason=max_connections limit=2")
    a.close()
    served_connection(srv).close()
    b.close()


def test_many_sequential_connections(make_server):
    """Closed connections free their slot: 50 in sequence under a limit of 4."""
    srv = make_server(env={"MUSCLES_HTTP_MAX_CONNECTIONS": "4"})
    for _ in range(50):
        with socket.create_connection(("127.0.0.1", srv.port), timeout=5) as s:
            s.sendall(b"GET /ping HTTP/1.1\r\nConnection: close\r\n\r\n")
            data = b""
            while True:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
            assert data.startswith(b"HTTP/1.1 200 OK\r\n")
