"""Graceful shutdown of the real binary: SIGTERM and SIGINT end it with exit
code 0, idle keep-alive connections do not hold it up, a request in flight
when the signal arrives still gets its answer (with Connection: Close), and
each step is logged."""

import signal
import time


def test_sigterm_with_idle_keep_alive_connection(server):
    conn = server.connect()
    conn.send("GET /ping HTTP/1.1\r\n\r\n")
    assert conn.read_response().header("Connection") == "Keep-Alive"
    start = time.monotonic()
    assert server.stop(signal.SIGTERM) == 0
    assert time.monotonic() - start < 2.0
    assert conn.closed_by_server(timeout=1)
    conn.close()
    log = server.log()
    for event in ("event=server.signal signal=SIGTERM",
                  "event=server.shutdown step=stop_accepting",
                  "event=server.shutdown step=close_idle closed=1 in_flight=0",
                  "event=server.shutdown step=drained",
                  "event=server.stop status=clean"):
        assert event in log, log


def test_sigint(server):
    assert server.stop(signal.SIGINT) == 0
    assert "event=server.signal signal=SIGINT" in server.log()


def test_request_in_flight_completes(server):
    """A request half sent when SIGTERM arrives is finished and answered."""
    conn = server.connect()
    conn.send("GET /ping HTTP/1.1\r\nHost: x\r\n")
    time.sleep(0.1)
    server.send_signal(signal.SIGTERM)
    server.wait_log(r"step=close_idle closed=0 in_flight=1")
    time.sleep(0.2)  # the server waits for us
    assert server.proc.poll() is None
    conn.send("X-Late: yes\r\n\r\n")
    resp = conn.read_response()
    assert (resp.status, resp.body) == (200, b"Ok.\n")
    assert resp.header("Connection") == "Close"
    assert conn.closed_by_server()
    conn.close()
    assert server.wait() == 0


def test_chunked_upload_in_flight_completes(server):
    """A slow chunked body in progress at SIGTERM is read to its end."""
    conn = server.connect()
    conn.send("GET /live HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n")
    time.sleep(0.1)
    server.send_signal(signal.SIGTERM)
    server.wait_log(r"step=close_idle closed=0 in_flight=1")
    for _ in range(3):
        time.sleep(0.05)
        conn.send("2\r\nde\r\n")
    conn.send("0\r\n\r\n")
    resp = conn.read_response()
    assert resp.status == 200
    conn.close()
    assert server.wait() == 0


def test_shutdown_timeout_bounds_the_drain(make_server):
    srv = make_server(env={"MUSCLES_SERVER_SHUTDOWN_TIMEOUT_MS": "300",
                           "MUSCLES_HTTP_REQUEST_TIMEOUT_MS": "60000"})
    conn = srv.connect()
    conn.send("GET /ping HTTP/1.1\r\n")  # never finished
    time.sleep(0.1)
    start = time.monotonic()
    assert srv.stop(signal.SIGTERM) == 0
    assert 0.25 <= time.monotonic() - start < 3.0
    assert "level=warn event=server.shutdown step=timeout" in srv.log()
    assert conn.closed_by_server(timeout=1)
    conn.close()
