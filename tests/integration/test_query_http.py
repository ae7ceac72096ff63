"""The ClickHouse HTTP query interface on "/" (issue 5's part of it): the
query in the body or ?query=, INSERT data in the body, TabSeparated answers,
ClickHouse's error bodies and codes, GET as read-only, query parameters,
durability of acknowledged inserts across a restart."""

import http.client
import os
import signal
import time

import requests

from conftest import MusclesServer


def q(server, sql, **params):
    return requests.post(f"http://127.0.0.1:{server.port}/", params=params, data=sql.encode())


def ok(server, sql, **params):
    r = q(server, sql, **params)
    assert r.status_code == 200, r.text
    return r.text


def test_select_in_body_and_query_param(server):
    assert ok(server, "SELECT 1") == "1\n"
    r = requests.get(f"http://127.0.0.1:{server.port}/", params={"query": "SELECT 'a\tb'"})
    assert r.status_code == 200
    assert r.text == "a\\tb\n"
    assert r.headers["X-ClickHouse-Format"] == "TabSeparated"


def test_create_insert_select_roundtrip(server):
    ok(server, "CREATE TABLE t (id UInt64, name String, d Date) ENGINE = MergeTree ORDER BY id")
    ok(server, "INSERT INTO t VALUES (2, 'b', '2024-01-02'), (1, 'a', '2024-01-01')")
    r = requests.post(f"http://127.0.0.1:{server.port}/",
                      params={"query": "INSERT INTO t FORMAT TabSeparated"},
                      data=b"3\tc\t2024-01-03\n4\td\t2024-01-04\n")
    assert r.status_code == 200, r.text
    assert ok(server, "SELECT id, name, d FROM t ORDER BY id") == (
        "1\ta\t2024-01-01\n2\tb\t2024-01-02\n3\tc\t2024-01-03\n4\td\t2024-01-04\n")
    assert ok(server, "SELECT name FROM t WHERE id >= 3 ORDER BY id DESC") == "d\nc\n"
    assert ok(server, "SELECT id FROM t ORDER BY id LIMIT 1 OFFSET 2 FORMAT TabSeparatedWithNames") == (
        "id\n3\n")


def test_errors_have_clickhouse_shape(server):
    r = q(server, "SELECT * FROM no_such_table")
    assert r.status_code == 404
    assert r.headers["X-ClickHouse-Exception-Code"] == "60"
    assert r.text.startswith("Code: 60. DB::Exception: ")
    assert "(UNKNOWN_TABLE)" in r.text
    r = q(server, "SELEC 1")
    assert r.status_code == 400
    assert r.headers["X-ClickHouse-Exception-Code"] == "62"
    r = q(server, "SELECT no_such_function(1)")
    assert r.headers["X-ClickHouse-Exception-Code"] == "46"
    r = q(server, "SELECT x FROM numbers(1)")
    assert r.headers["X-ClickHouse-Exception-Code"] == "47"


def test_get_is_readonly(server):
    r = requests.get(f"http://127.0.0.1:{server.port}/",
                     params={"query": "CREATE TABLE g (a UInt8) ENGINE = MergeTree ORDER BY a"})
    assert r.status_code == 500  # ClickHouse maps READONLY to 500
    assert r.headers["X-ClickHouse-Exception-Code"] == "164"


def test_query_parameters_and_settings(server):
    assert ok(server, "SELECT {x:UInt32}, {s:String}", param_x="7", param_s="hi") == "7\thi\n"
    r = q(server, "SELECT {x:UInt32}")
    assert r.headers["X-ClickHouse-Exception-Code"] == "456"
    r = q(server, "SELECT 1", no_such_setting="1")
    assert r.headers["X-ClickHouse-Exception-Code"] == "115"


def test_database_parameter_and_show(server):
    ok(server, "CREATE DATABASE d1")
    ok(server, "CREATE TABLE d1.x (a UInt8) ENGINE = MergeTree ORDER BY a")
    assert ok(server, "SHOW TABLES", database="d1") == "x\n"
    assert "d1\n" in ok(server, "SHOW DATABASES")
    assert ok(server, "EXISTS TABLE d1.x") == "1\n"
    assert ok(server, "DESCRIBE TABLE d1.x") == "a\tUInt8\t\t\t\t\t\n"


def test_inserted_rows_survive_restart():
    s = MusclesServer().start()
    try:
        ok(s, "CREATE TABLE r (k UInt32, v String) ENGINE = MergeTree ORDER BY k")
        body = "".join(f"{i}\tv{i}\n" for i in range(10000)).encode()
        r = requests.post(f"http://127.0.0.1:{s.port}/",
                          params={"query": "INSERT INTO r FORMAT TabSeparated"}, data=body)
        assert r.status_code == 200, r.text
        s.stop(signum=signal.SIGKILL)  # no flush: the WAL must hold the rows
        s.log_file.close()
        s.start()
        out = ok(s, "SELECT k, v FROM r ORDER BY k")
        assert out.encode() == body
    finally:
        s.stop()
        s.cleanup()


def test_large_insert_is_atomic():
    """An INSERT of several 65,536-row batches stores everything or nothing:
    a bad row near its end fails it with the row number and leaves the table
    as it was; a good one shows every row at once, survives kill -9, and a
    retry with its insert_deduplication_token stores nothing twice. With
    flush_rows 50,000 the insert writes staged parts before its commit."""
    import glob
    s = MusclesServer(env={"MUSCLES_STORAGE_FLUSH_ROWS": "50000"}).start()
    url = f"http://127.0.0.1:{s.port}/"
    try:
        ok(s, "CREATE TABLE a (k UInt64, v String) ENGINE = MergeTree PARTITION BY k % 4 "
              "ORDER BY k")
        ok(s, "INSERT INTO a VALUES (1000000, 'before')")
        rows = 300000
        good = "".join(f"{i}\tv{i}\n" for i in range(rows)).encode()
        bad = good.replace(b"\n290000\t", b"\nnot-a-number\t", 1)
        r = requests.post(url, params={"query": "INSERT INTO a FORMAT TabSeparated"}, data=bad)
        assert r.status_code != 200
        assert "row 290001" in r.text and "not-a-number" in r.text, r.text
        assert ok(s, "SELECT count() FROM a") == "1\n"
        staged = glob.glob(os.path.join(s.data_dir, "parts", "*", "stage", "*"))
        assert staged == [], staged  # the failed insert's staged parts are gone
        params = {"query": "INSERT INTO a FORMAT TabSeparated",
                  "insert_deduplication_token": "big-1"}
        r = requests.post(url, params=params, data=good)
        assert r.status_code == 200, r.text
        assert ok(s, "SELECT count(), sum(k) FROM a WHERE k < 1000000") == \
            f"{rows}\t{rows * (rows - 1) // 2}\n"
        s.stop(signum=signal.SIGKILL)
        s.log_file.close()
        s.start()
        assert ok(s, "SELECT count(), uniqExact(v) FROM a") == f"{rows + 1}\t{rows + 1}\n"
        r = requests.post(url, params=params, data=good)  # the retry
        assert r.status_code == 200, r.text
        assert ok(s, "SELECT count() FROM a") == f"{rows + 1}\n"
    finally:
        s.stop()
        s.cleanup()


def test_insert_query_and_megabytes_of_data_in_the_body(server):
    """The query text at the start of the body, then data far past the 1 MiB
    the server reads before executing: the head is cut at 1 MiB whatever
    sizes the reads return, and the rest streams."""
    ok(server, "CREATE TABLE body_data (k UInt64, v String) ENGINE = MergeTree ORDER BY k")
    for attempt in range(3):
        data = "".join(f"{i}\tvalue-{i}-{attempt}\n" for i in range(200000))
        body = ("INSERT INTO body_data FORMAT TabSeparated\n" + data).encode()
        r = requests.post(f"http://127.0.0.1:{server.port}/", data=body)
        assert r.status_code == 200, r.text
    assert ok(server, "SELECT count(), uniqExact(v) FROM body_data") == "600000\t600000\n"


def test_error_after_the_head_is_framed_with_the_exception_tag(server):
    """An error after the first bytes: status 200 is gone, so the body ends
    with current ClickHouse's frame, tagged by the response's
    X-ClickHouse-Exception-Tag (http_write_exception_in_output_format only
    changes the JSON formats, see the next test)."""
    import re
    sql = b"SELECT number, throwIf(number = 1500000) FROM numbers(2000000) FORMAT TSV"
    for params in ({}, {"http_write_exception_in_output_format": "1"}):
        r = requests.post(f"http://127.0.0.1:{server.port}/", params=params, data=sql)
        assert r.status_code == 200
        tag = r.headers["X-ClickHouse-Exception-Tag"]
        assert re.fullmatch(r"[a-z0-9]{16}", tag), tag
        m = re.search(rb"\r\n__exception__\r\n([a-z0-9]{16})\r\n(.*)\r\n(\d+) ([a-z0-9]{16})\r\n"
                      rb"__exception__\r\n$", r.content, re.S)
        assert m, r.content[-300:]
        assert m.group(1).decode() == tag and m.group(4).decode() == tag
        message = m.group(2)
        assert int(m.group(3)) == len(message)
        assert message.startswith(b"Code: 395. DB::Exception: ") and b"(version " in message
        assert r.content.startswith(b"0\t0\n1\t0\n")
    other = requests.post(f"http://127.0.0.1:{server.port}/", data=b"SELECT 1")
    assert other.headers["X-ClickHouse-Exception-Tag"] != tag  # one per response


def test_error_after_the_head_ends_json_formats(server):
    """http_write_exception_in_output_format=1 (ClickHouse's default): a
    JSON format whose rows were already sent ends its output validly with
    the exception: JSON/JSONStrings/JSONCompact close the document with
    "rows" and "exception", JSONEachRow adds a last {"exception": ...}
    line, JSONCompactEachRow a last ["..."] line. With 0 they are framed
    like any other format."""
    import json
    import re
    sql = "SELECT number, throwIf(number = 1500000) AS t FROM numbers(2000000) FORMAT "
    url = f"http://127.0.0.1:{server.port}/"
    for fmt in ("JSON", "JSONStrings", "JSONCompact"):
        r = requests.post(url, data=(sql + fmt).encode())
        assert r.status_code == 200
        doc = json.loads(r.content)
        assert doc["exception"].startswith("Code: 395. DB::Exception: "), fmt
        assert doc["rows"] == len(doc["data"]) > 0 and "statistics" not in doc, fmt
        assert b"__exception__" not in r.content
    r = requests.post(url, data=(sql + "JSONEachRow").encode())
    lines = r.content.decode().splitlines()
    assert json.loads(lines[0]) == {"number": "0", "t": 0}
    assert list(json.loads(lines[-1])) == ["exception"]
    assert json.loads(lines[-1])["exception"].startswith("Code: 395. DB::Exception: ")
    assert r.content.endswith(b"}\n") and len(lines) > 100000
    r = requests.post(url, data=(sql + "JSONCompactEachRow").encode())
    last = json.loads(r.content.decode().splitlines()[-1])
    assert len(last) == 1 and last[0].startswith("Code: 395. DB::Exception: ")
    r = requests.post(url, params={"http_write_exception_in_output_format": "0"},
                      data=(sql + "JSONEachRow").encode())
    assert re.search(rb"\r\n__exception__\r\n[a-z0-9]{16}\r\nCode: 395\. ", r.content)


def test_sessions_keep_settings_and_database(server):
    ok(server, "CREATE DATABASE sdb")
    r = q(server, "USE sdb")
    assert r.headers["X-ClickHouse-Exception-Code"] == "113"  # no session
    ok(server, "USE sdb", session_id="s1")
    ok(server, "SET max_block_size = 7", session_id="s1")
    assert ok(server, "SELECT currentDatabase()", session_id="s1") == "sdb\n"
    assert ok(server, "SELECT value FROM system.settings WHERE name = 'max_block_size'",
              session_id="s1") == "7\n"
    assert ok(server, "SELECT currentDatabase()", session_id="s2") == "default\n"
    r = q(server, "SELECT 1", session_id="nosuch", session_check="1")
    assert r.headers["X-ClickHouse-Exception-Code"] == "372"


def test_system_processes_and_query_log(server):
    out = ok(server, "SELECT query FROM system.processes")
    assert "system.processes" in out
    ok(server, "SELECT 42", query_id="my-query-id")
    out = ok(server, "SELECT query_id, type, query FROM system.query_log WHERE query_id = 'my-query-id'")
    assert out == "my-query-id\tQueryFinish\tSELECT 42\n"


def test_show_create_table_reparses_to_the_same_table(server):
    ok(server, "CREATE TABLE sc (k UInt64 CODEC(Delta, LZ4), s String DEFAULT 'x' COMMENT 'c''s', "
               "d Date, m UInt32 MATERIALIZED k * 2, a UInt64 ALIAS k + 1, "
               "INDEX i s TYPE bloom_filter GRANULARITY 2) ENGINE = MergeTree "
               "PARTITION BY toYYYYMM(d) ORDER BY (k, d) TTL d + INTERVAL 1 YEAR "
               "SETTINGS index_granularity = 1024 COMMENT 'tbl'")
    first = ok(server, "SHOW CREATE TABLE sc FORMAT TabSeparatedRaw")
    ok(server, "DROP TABLE sc")
    ok(server, first)
    assert ok(server, "SHOW CREATE TABLE sc FORMAT TabSeparatedRaw") == first


def test_alter_keeps_rows_across_restart():
    s = MusclesServer().start()
    try:
        ok(s, "CREATE TABLE a (k UInt32, v String) ENGINE = MergeTree ORDER BY k")
        ok(s, "INSERT INTO a SELECT number, toString(number) FROM numbers(1000)")
        ok(s, "ALTER TABLE a ADD COLUMN w UInt64 DEFAULT k * 2, MODIFY COLUMN v String DEFAULT 'x'")
        ok(s, "INSERT INTO a (k) VALUES (5000)")
        before = ok(s, "SELECT count(), sum(k), sum(w), countIf(v = 'x') FROM a")
        assert before == "1001\t504500\t1009000\t1\n"
        s.stop(signum=signal.SIGKILL)
        s.log_file.close()
        s.start()
        assert ok(s, "SELECT count(), sum(k), sum(w), countIf(v = 'x') FROM a") == before
        ok(s, "ALTER TABLE a DROP COLUMN v")
        assert ok(s, "SELECT * FROM a WHERE k = 7") == "7\t14\n"
    finally:
        s.stop()
        s.cleanup()


def test_headers_summary_and_wait_end_of_query(server):
    r = requests.post(f"http://127.0.0.1:{server.port}/", params={"wait_end_of_query": "1"},
                      data=b"SELECT number FROM numbers(3)")
    assert r.status_code == 200 and r.text == "0\n1\n2\n"
    assert r.headers["Content-Length"] == "6"
    summary = r.headers["X-ClickHouse-Summary"]
    assert '"read_rows":"3"' in summary and '"result_rows":"3"' in summary
    assert r.headers["X-ClickHouse-Timezone"]
    # An error raised after output started is still a proper error response
    # when the result is buffered.
    r = requests.post(f"http://127.0.0.1:{server.port}/", params={"wait_end_of_query": "1"},
                      data=b"SELECT throwIf(number = 70000) FROM numbers(100000)")
    assert r.status_code != 200
    assert r.headers["X-ClickHouse-Exception-Code"] == "395"


def test_prometheus_metrics(server):
    q(server, "SELECT nosuch")
    ok(server, "CREATE TABLE mt (k UInt8) ENGINE = MergeTree ORDER BY k")
    ok(server, "INSERT INTO mt VALUES (1), (2)")
    r = requests.get(f"http://127.0.0.1:{server.port}/metrics")
    assert r.status_code == 200
    assert r.headers["Content-Type"].startswith("text/plain; version=0.0.4")
    lines = dict(line.rsplit(" ", 1) for line in r.text.splitlines() if not line.startswith("#"))
    assert lines['muscles_errors_total{code="47"}'] == "1"
    assert lines["muscles_inserted_rows_total"] == "2"
    assert lines["muscles_tables"] == "1"
    assert lines["muscles_memtable_rows"] == "2"


def test_http_compression_both_ways(server):
    import gzip
    import zlib
    url = f"http://127.0.0.1:{server.port}/"
    for coding, decode in (("gzip", gzip.decompress), ("deflate", zlib.decompress)):
        r = requests.post(url, params={"enable_http_compression": "1"},
                          headers={"Accept-Encoding": coding}, data=b"SELECT number FROM numbers(1000)",
                          stream=True)
        assert r.headers["Content-Encoding"] == coding
        assert decode(r.raw.read()) == "".join(f"{i}\n" for i in range(1000)).encode()
    # Without enable_http_compression the answer is plain even if the client accepts gzip.
    r = requests.post(url, headers={"Accept-Encoding": "gzip"}, data=b"SELECT 1")
    assert "Content-Encoding" not in r.headers and r.text == "1\n"
    ok(server, "CREATE TABLE gz (k UInt32, s String) ENGINE = MergeTree ORDER BY k")
    body = "".join(f"{i}\ts{i}\n" for i in range(50000)).encode()
    r = requests.post(url, params={"query": "INSERT INTO gz FORMAT TabSeparated"},
                      headers={"Content-Encoding": "gzip"}, data=gzip.compress(body))
    assert r.status_code == 200, r.text
    r = requests.post(url, headers={"Content-Encoding": "deflate"},
                      data=zlib.compress(b"SELECT count(), sum(k) FROM gz"))
    assert r.text == "50000\t1249975000\n"
    r = requests.post(url, headers={"Content-Encoding": "gzip"}, data=b"not gzip at all")
    assert r.headers["X-ClickHouse-Exception-Code"] == "117"


def test_kill_query(server):
    import threading
    import time
    url = f"http://127.0.0.1:{server.port}/"
    result = {}

    def long_query():
        r = requests.post(url, params={"query_id": "long-one"},
                          data=b"SELECT count() FROM numbers(100000000000)")
        result["status"] = r.status_code
        result["code"] = r.headers.get("X-ClickHouse-Exception-Code")

    t = threading.Thread(target=long_query)
    t.start()
    for _ in range(200):
        if "long-one" in ok(server, "SELECT query_id FROM system.processes"):
            break
        time.sleep(0.02)
    out = ok(server, "KILL QUERY WHERE query_id = 'long-one' SYNC")
    assert out.startswith("finished\tlong-one\tdefault\t")
    t.join(timeout=30)
    assert result == {"status": 500, "code": "394"}
    assert ok(server, "KILL QUERY WHERE query_id = 'nothing-runs'") == ""


def test_insert_body_arriving_in_pieces(server):
    """A multi-MiB INSERT body sent in 50,000-byte pieces: the server reads
    the head of the body up to 1 MiB, and a length off the 64 KiB grid must
    not make it ask for more than that (it answered TOO_LARGE_STRING_SIZE)."""
    ok(server, "CREATE TABLE pieces (k UInt32, v String) ENGINE = MergeTree ORDER BY k")
    body = "".join(f"{i}\t{'x' * (i % 90)}\n" for i in range(60000)).encode()
    assert len(body) > 2 * 1024 * 1024
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        conn.putrequest("POST", "/?query=INSERT%20INTO%20pieces%20FORMAT%20TabSeparated")
        conn.putheader("Content-Length", str(len(body)))
        conn.endheaders()
        for at in range(0, len(body), 50000):
            conn.send(body[at:at + 50000])
            time.sleep(0.002)  # one piece per read on the server side
        resp = conn.getresponse()
        text = resp.read().decode()
    finally:
        conn.close()
    assert resp.status == 200, text
    assert ok(server, "SELECT count(), sum(k), sum(length(v)) FROM pieces") == (
        f"60000\t{sum(range(60000))}\t{sum(i % 90 for i in range(60000))}\n")


def test_binary_formats_round_trip(server):
    url = f"http://127.0.0.1:{server.port}/"
    ok(server, "CREATE TABLE rb (k UInt64, s String, d Date, n Nullable(Int32), a Array(String)) "
               "ENGINE = MergeTree ORDER BY k")
    ok(server, "INSERT INTO rb VALUES (1, '\\tx', '2024-01-02', NULL, ['p']), (2, '', '1970-01-01', -5, [])")
    for fmt in ("RowBinary", "RowBinaryWithNamesAndTypes", "Native"):
        data = requests.post(url, data=f"SELECT * FROM rb ORDER BY k FORMAT {fmt}".encode()).content
        ok(server, "DROP TABLE IF EXISTS rb2")
        ok(server, "CREATE TABLE rb2 (k UInt64, s String, d Date, n Nullable(Int32), a Array(String)) "
                   "ENGINE = MergeTree ORDER BY k")
        r = requests.post(url, params={"query": f"INSERT INTO rb2 FORMAT {fmt}"}, data=data)
        assert r.status_code == 200, (fmt, r.text)
        assert ok(server, "SELECT * FROM rb2 ORDER BY k") == ok(server, "SELECT * FROM rb ORDER BY k")


def test_users_passwords_readonly_and_databases(make_server, tmp_path):
    import hashlib
    sha = lambda p: hashlib.sha256(p.encode()).hexdigest()  # noqa: E731
    users = tmp_path / "users"
    users.write_text(f"# name sha256 options\n"
                     f"default {sha('root-pw')}\n"
                     f"alice {sha('a-pw')}\n"
                     f"reader {sha('r-pw')} readonly\n"
                     f"limited {sha('l-pw')} databases=db1\n")
    s = make_server(env={"MUSCLES_SECURITY_USERS_FILE": str(users)})
    url = f"http://127.0.0.1:{s.port}/"
    r = requests.post(url, data=b"SELECT 1")
    assert r.status_code == 403 and r.headers["X-ClickHouse-Exception-Code"] == "516"
    r = requests.post(url, params={"user": "alice", "password": "wrong"}, data=b"SELECT 1")
    assert r.headers["X-ClickHouse-Exception-Code"] == "516"
    assert requests.post(url, auth=("alice", "a-pw"), data=b"SELECT 1").text == "1\n"
    assert requests.post(url, headers={"X-ClickHouse-User": "alice", "X-ClickHouse-Key": "a-pw"},
                         data=b"SELECT currentUser()").text == "alice\n"
    assert requests.post(url, auth=("default", "root-pw"), data=b"CREATE DATABASE db1").status_code == 200
    assert requests.post(url, auth=("default", "root-pw"), data=b"CREATE DATABASE db2").status_code == 200
    r = requests.post(url, auth=("reader", "r-pw"), data=b"CREATE TABLE db1.t (k UInt8) ENGINE = MergeTree ORDER BY k")
    assert r.headers["X-ClickHouse-Exception-Code"] == "164"
    r = requests.post(url, auth=("limited", "l-pw"), data=b"CREATE TABLE db2.t (k UInt8) ENGINE = MergeTree ORDER BY k")
    assert r.headers["X-ClickHouse-Exception-Code"] == "497"
    r = requests.post(url, auth=("limited", "l-pw"), data=b"CREATE TABLE db1.t (k UInt8) ENGINE = MergeTree ORDER BY k")
    assert r.status_code == 200, r.text
    r = requests.post(url, auth=("limited", "l-pw"), data=b"SELECT * FROM db2.nothing")
    assert r.headers["X-ClickHouse-Exception-Code"] == "497"


def test_query_limits(server):
    """max_execution_time, max_result_rows/bytes with result_overflow_mode,
    max_rows_to_read, max_memory_usage and readonly are enforced, with
    ClickHouse's codes; from the URL and from a query's SETTINGS."""
    def code(sql, **params):
        r = requests.post(f"http://127.0.0.1:{server.port}/", params=params, data=sql.encode())
        return r.headers.get("X-ClickHouse-Exception-Code"), r.text
    c, text = code("SELECT count() FROM numbers(100000000000)", max_execution_time="0.3")
    assert c == "159" and "Timeout exceeded" in text, text
    c, text = code("SELECT count() FROM numbers(100000000000) SETTINGS max_execution_time = 0.3")
    assert c == "159", text
    c, text = code("SELECT number FROM numbers(10)", max_result_rows="5")
    assert c == "396" and "max rows: 5" in text, text
    c, text = code("SELECT number FROM numbers(10)", max_result_rows="10")
    assert c is None and text.count("\n") == 10, text
    c, text = code("SELECT toString(number) FROM numbers(100)", max_result_bytes="100")
    assert c == "396" and "max bytes: 100" in text, text
    # break: the result stops at the block that crossed the limit.
    c, text = code("SELECT number FROM numbers(300000)", max_result_rows="100000",
                   result_overflow_mode="break")
    assert c is None and 100000 < text.count("\n") < 300000, text[-200:]
    c, text = code("SELECT count() FROM numbers(1000000)", max_rows_to_read="1000")
    assert c == "158" and "max_rows_to_read" in text, text
    c, text = code("SELECT uniqExact(number) FROM numbers(5000000)", max_memory_usage="10000000")
    assert c == "241", text
    assert code("SELECT uniqExact(number) FROM numbers(5000)", max_memory_usage="10000000") == \
        (None, "5000\n")
    c, text = code("CREATE TABLE lim (a UInt8) ENGINE = MergeTree ORDER BY a", readonly="1")
    assert c == "164", text
    c, text = code("SELECT 1", max_execution_time="soon")
    assert c == "36", text


def test_per_user_limits(make_server, tmp_path):
    """A users file's limits are the user's settings and their ceiling: a
    request may lower them, never raise them or set them to 0 (unlimited):
    SETTING_CONSTRAINT_VIOLATION (452)."""
    import hashlib
    users = tmp_path / "users"
    users.write_text("default -\n"
                     f"capped {hashlib.sha256(b'c-pw').hexdigest()} max_result_rows=5 "
                     "max_execution_time=0.5\n")
    s = make_server(env={"MUSCLES_SECURITY_USERS_FILE": str(users)})
    url = f"http://127.0.0.1:{s.port}/"

    def run(sql, **params):
        r = requests.post(url, auth=("capped", "c-pw"), params=params, data=sql.encode())
        return r.headers.get("X-ClickHouse-Exception-Code"), r.text
    assert run("SELECT number FROM numbers(5)")[0] is None
    assert run("SELECT number FROM numbers(6)")[0] == "396"
    assert run("SELECT number FROM numbers(3)", max_result_rows="2")[0] == "396"
    c, text = run("SELECT 1", max_result_rows="100")
    assert c == "452" and "shouldn't be greater than 5" in text, text
    assert run("SELECT 1", max_result_rows="0")[0] == "452"
    assert run("SELECT 1 SETTINGS max_execution_time = 10")[0] == "452"
    assert run("SELECT count() FROM numbers(100000000000)")[0] == "159"
    # The default user has no limits.
    r = requests.post(url, data=b"SELECT number FROM numbers(6)")
    assert r.status_code == 200 and r.text.count("\n") == 6
    bad = tmp_path / "bad_users"
    bad.write_text("default -\nx - max_result_rows=lots\n")
    from conftest import run_muscles
    r = run_muscles(["server"], env_extra={"MUSCLES_SECURITY_USERS_FILE": str(bad)})
    assert r.returncode == 2 and "max_result_rows=lots" in r.stderr, r.stderr


def test_no_open_default_user_beyond_loopback():
    from conftest import run_muscles
    r = run_muscles(["server"], env_extra={"MUSCLES_HTTP_LISTEN_HOST": "0.0.0.0",
                                           "MUSCLES_HTTP_PORT": "28999",
                                           "MUSCLES_STORAGE_DATA_DIR": "/tmp/muscles-open-check"})
    assert r.returncode == 2
    assert "has no password" in r.stderr
