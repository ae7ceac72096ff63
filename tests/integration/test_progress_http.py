"""send_progress_in_http_headers over HTTP, as ClickHouse does it: the status
line goes out early, X-ClickHouse-Progress lines follow while the query runs
(ClickHouse's keys in its order, only the non-zero ones, values as strings,
at most one per http_headers_progress_interval_ms), and the rest of the head
comes when the body starts; an error after the status line keeps 200 and
adds X-ClickHouse-Exception-Code. Without the setting the head is the one
muscles always sent. Reads heads byte-exactly (conftest.RawConnection)."""

import json
from urllib.parse import urlencode

import requests

# ClickHouse's Progress::writeJSON keys, in its order.
CH_KEYS = ["read_rows", "read_bytes", "written_rows", "written_bytes", "total_rows_to_read",
           "result_rows", "result_bytes", "elapsed_ns"]

# The head of a query answer without progress, field by field (muscles' layout).
PLAIN_HEAD = ["Date", "Connection", "Content-Type", "Content-Length", "Keep-Alive",
              "X-ClickHouse-Exception-Tag", "X-ClickHouse-Query-Id", "X-ClickHouse-Server-Display-Name",
              "X-ClickHouse-Format", "X-ClickHouse-Timezone", "X-ClickHouse-Summary"]


def post(server, sql, conn=None, version="1.1", **params):
    """POSTs sql with URL params on a raw connection; returns the response."""
    own = conn is None
    conn = conn or server.connect(timeout=30)
    try:
        body = sql.encode() if isinstance(sql, str) else sql
        conn.send(f"POST /?{urlencode(params)} HTTP/{version}\r\nHost: x\r\n"
                  f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        return conn.read_response()
    finally:
        if own:
            conn.close()


def progress_lines(resp):
    """The X-ClickHouse-Progress values, parsed and checked for ClickHouse's
    shape: keys in CH_KEYS order, non-zero decimal strings."""
    out = []
    for name, value in resp.headers:
        if name != "X-ClickHouse-Progress":
            continue
        pairs = json.loads(value, object_pairs_hook=list)
        keys = [k for k, _ in pairs]
        assert keys == [k for k in CH_KEYS if k in keys], value
        for _, v in pairs:
            assert isinstance(v, str) and v.isdigit() and int(v) > 0, value
        assert value == json.dumps(dict(pairs), separators=(",", ":")), value
        out.append({k: int(v) for k, v in pairs})
    return out


def summary(resp):
    pairs = json.loads(resp.header("X-ClickHouse-Summary"), object_pairs_hook=list)
    assert [k for k, _ in pairs] == CH_KEYS
    return {k: int(v) for k, v in pairs}


def names(resp):
    return [name for name, _ in resp.headers]


def test_progress_lines_come_before_the_rest_of_the_head(server):
    resp = post(server, "SELECT sum(number) FROM numbers(3000000)",
                send_progress_in_http_headers=1, http_headers_progress_interval_ms=0,
                max_block_size=10000)
    assert resp.status == 200 and resp.body == b"4499998500000\n"
    lines = progress_lines(resp)
    assert len(lines) >= 100  # one per block read, interval 0
    n = len(lines)
    assert names(resp)[:n] == ["X-ClickHouse-Progress"] * n
    assert names(resp)[n:] == PLAIN_HEAD
    reads = [p["read_rows"] for p in lines]
    assert reads == sorted(reads) and len(set(reads)) == n
    assert all(p["total_rows_to_read"] == 3000000 for p in lines)
    assert "written_rows" not in lines[0] and "read_bytes" not in lines[0]
    s = summary(resp)
    assert s["read_rows"] == 3000000 and s["total_rows_to_read"] == 3000000
    assert s["read_rows"] >= reads[-1] and s["elapsed_ns"] >= lines[-1]["elapsed_ns"]


def test_progress_is_rate_limited(server):
    resp = post(server, "SELECT sum(number) FROM numbers(50000000)",
                send_progress_in_http_headers=1, http_headers_progress_interval_ms=20)
    assert resp.status == 200 and resp.body == b"1249999975000000\n"
    lines = progress_lines(resp)
    assert lines, "a query of 50M rows lasts longer than 20 ms"
    elapsed = [p["elapsed_ns"] for p in lines]
    assert elapsed[0] >= 20_000_000
    for a, b in zip(elapsed, elapsed[1:]):
        assert b - a >= 19_000_000, elapsed
    assert len(lines) <= summary(resp)["elapsed_ns"] // 20_000_000 + 1


def test_wait_end_of_query_reports_the_whole_query(server):
    resp = post(server, "SELECT number FROM numbers(2000000) WHERE number % 500000 = 0",
                send_progress_in_http_headers=1, http_headers_progress_interval_ms=0,
                wait_end_of_query=1)
    assert resp.status == 200 and resp.body == b"0\n500000\n1000000\n1500000\n"
    lines = progress_lines(resp)
    assert lines[-1]["read_rows"] == 2000000
    assert lines[-1]["result_rows"] == 4
    assert names(resp)[len(lines):] == PLAIN_HEAD
    assert resp.header("Content-Length") == str(len(resp.body))
    s = summary(resp)
    assert s["read_rows"] == 2000000 and s["result_rows"] == 4
    assert s["result_bytes"] == len(resp.body)


def test_insert_reports_written_rows(server):
    assert post(server, "CREATE TABLE pt (k UInt64) ENGINE = MergeTree ORDER BY k").status == 200
    data = "".join(f"{i}\n" for i in range(300000)).encode()
    resp = post(server, data, query="INSERT INTO pt FORMAT TSV",
                send_progress_in_http_headers=1, http_headers_progress_interval_ms=0)
    assert resp.status == 200, resp.body
    lines = progress_lines(resp)
    written = [p["written_rows"] for p in lines]
    assert written == sorted(written) and written[-1] == 300000
    assert summary(resp)["written_rows"] == 300000
    # INSERT ... SELECT: rows read and rows written both move.
    resp = post(server, "INSERT INTO pt SELECT number FROM numbers(200000)",
                send_progress_in_http_headers=1, http_headers_progress_interval_ms=0)
    assert resp.status == 200, resp.body
    last = progress_lines(resp)[-1]
    assert last["read_rows"] == 200000 and last["written_rows"] == 200000
    assert last["total_rows_to_read"] == 200000
    # A table scan knows the table's rows.
    resp = post(server, "SELECT count() FROM pt WHERE k % 7 = 3",
                send_progress_in_http_headers=1, http_headers_progress_interval_ms=0)
    assert resp.status == 200
    last = progress_lines(resp)[-1]
    assert last["total_rows_to_read"] == 500000 and last["read_rows"] == 500000


def test_error_after_progress_keeps_status_200(server):
    conn = server.connect(timeout=30)
    try:
        resp = post(server, "SELECT sum(throwIf(number = 3000000)) FROM numbers(4000000)",
                    conn=conn, send_progress_in_http_headers=1,
                    http_headers_progress_interval_ms=0)
        assert resp.status == 200
        lines = progress_lines(resp)
        assert lines and lines[-1]["read_rows"] < 4000000
        assert resp.header("X-ClickHouse-Exception-Code") == "395"
        text = resp.body.decode()
        assert text.startswith("Code: 395. DB::Exception: ") and text.endswith("\n")
        assert "(FUNCTION_THROW_IF_VALUE_IS_NON_ZERO)" in text
        assert resp.header("Content-Length") == str(len(resp.body))
        # The response was complete: the connection serves the next query.
        assert resp.header("Connection") == "Keep-Alive"
        again = post(server, "SELECT 1", conn=conn)
        assert again.status == 200 and again.body == b"1\n"
    finally:
        conn.close()


def test_without_the_setting_the_head_is_unchanged(server):
    sql = "SELECT sum(number) FROM numbers(3000000)"
    for params in ({}, {"send_progress_in_http_headers": 0},
                   {"send_progress_in_http_headers": "false"}):
        resp = post(server, sql, http_headers_progress_interval_ms=0, max_block_size=10000,
                    **params)
        assert resp.status == 200 and resp.body == b"4499998500000\n"
        assert names(resp) == PLAIN_HEAD
    # An error before any output is the usual error answer.
    resp = post(server, "SELECT sum(throwIf(number = 3000000)) FROM numbers(4000000)")
    assert resp.status != 200 and resp.header("X-ClickHouse-Exception-Code") == "395"
    assert "X-ClickHouse-Progress" not in names(resp)


def test_http10_gets_no_progress(server):
    conn = server.connect(timeout=30)
    try:
        conn.send("POST /?send_progress_in_http_headers=1&http_headers_progress_interval_ms=0"
                  "&max_block_size=10000 HTTP/1.0\r\nContent-Length: 40\r\n\r\n"
                  "SELECT sum(number) FROM numbers(3000000)")
        head = conn.read_until_close().split(b"\r\n\r\n", 1)[0].decode()
    finally:
        conn.close()
    assert head.startswith("HTTP/1.1 200 OK\r\n")
    assert "X-ClickHouse-Progress" not in head


def test_bad_setting_values_are_refused(server):
    r = requests.post(f"http://127.0.0.1:{server.port}/",
                      params={"send_progress_in_http_headers": "maybe"}, data=b"SELECT 1")
    assert r.headers["X-ClickHouse-Exception-Code"] == "36", r.text
    r = requests.post(f"http://127.0.0.1:{server.port}/",
                      params={"send_progress_in_http_headers": "1",
                              "http_headers_progress_interval_ms": "-5"}, data=b"SELECT 1")
    assert r.headers["X-ClickHouse-Exception-Code"] == "36", r.text
    # Through requests (urllib3): progress lines are ordinary header fields.
    r = requests.post(f"http://127.0.0.1:{server.port}/",
                      params={"send_progress_in_http_headers": "1",
                              "http_headers_progress_interval_ms": "0"},
                      data=b"SELECT count() FROM numbers(1000000)")
    assert r.status_code == 200 and r.text == "1000000\n"
    assert '"read_rows":"' in r.headers["X-ClickHouse-Progress"]
