"""Parallel parsing of INSERT data (input_format_parallel_parsing, on by
default): bodies of several MiB in the TabSeparated and JSON*EachRow
families, sent once with the setting on and once with it off, must store
the same rows in the same order (tables ORDER BY tuple() keep the input's
order), fill omitted values with the same DEFAULTs, and fail with the
same error naming the same row, storing nothing. The bodies hold what
makes cutting them hard: escaped line ends and backslash runs before a
line end (TSV), rows spread over lines, braces inside strings and rows
separated by commas (JSON)."""

import json
import random
import re

import pytest

import requests

ROWS = 120_000  # several MiB: the body is cut into many segments


def post(server, sql, data=b"", **params):
    return requests.post(f"http://127.0.0.1:{server.port}/", params={"query": sql, **params},
                         data=data)


def ok(server, sql, data=b"", **params):
    r = post(server, sql, data, **params)
    assert r.status_code == 200, r.text[:2000]
    return r.text


def tables(server, ddl):
    for t in ("par", "ser"):
        ok(server, f"DROP TABLE IF EXISTS {t}")
        ok(server, f"CREATE TABLE {t} ({ddl}) ENGINE = MergeTree ORDER BY tuple()")


def both(server, fmt, body, serial_after="none", **params):
    """Inserts body into par (parallel) and ser (serial); returns both tables' rows."""
    before = server.log().count(f"event=sql.insert.parallel_parsing format={fmt} ")
    ok(server, f"INSERT INTO par FORMAT {fmt}", body, input_format_parallel_parsing="1",
       **params)
    # the parallel path ran (debug log), in several segments; serial_after
    # None: the rows' form may keep it from starting at all
    runs = re.findall(rf"event=sql\.insert\.parallel_parsing format={fmt} parsers=\d+ "
                      rf"segments=(\d+) serial_after=(\w+)", server.log())
    if serial_after is not None:
        assert len(runs) == before + 1, runs
        assert runs[-1][1] == serial_after, runs
    if serial_after == "none":
        assert int(runs[-1][0]) >= 2, runs
    ok(server, f"INSERT INTO ser FORMAT {fmt}", body, input_format_parallel_parsing="0",
       **params)
    return (ok(server, "SELECT * FROM par FORMAT TSV"), ok(server, "SELECT * FROM ser FORMAT TSV"))


def tsv_escape(s):
    return (s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n"))


def strings(rng, i):
    """Values whose escaping ends right before the line end in every way."""
    kinds = [f"plain {i}", "tab\there", "line\nbreak", "ends with a backslash\\",
             "two\\\\", "three\\\\\\", "{\"json\": [1, 2]}", "", "é ü ß " * (i % 5)]
    return kinds[rng.randrange(len(kinds))] + ("x" * rng.randrange(0, 300))


@pytest.fixture
def server(make_server):
    return make_server(env={"MUSCLES_LOG_LEVEL": "debug"})


def test_tsv_family_same_rows(server):
    rng = random.Random(7)
    tables(server, "id UInt32, s String, n Nullable(Int64), f Float64")
    lines = []
    expected = []
    for i in range(ROWS):
        s = strings(rng, i)
        n = "\\N" if i % 7 == 0 else str(i * 3 - 50000)
        text = tsv_escape(s)
        if i % 11 == 0:
            # ClickHouse also reads a backslash before a real line end as \n
            text = text.replace("\\n", "\\\n")
        lines.append(f"{i}\t{text}\t{n}\t{i / 8}\n")
        expected.append(i)
    body = "".join(lines).encode()
    assert len(body) > 8 << 20
    par, ser = both(server, "TabSeparated", body)
    assert par == ser
    check = "SELECT count(), sum(id), countIf(endsWith(s, '\\\\')), countIf(n IS NULL) FROM "
    assert ok(server, check + "par") == ok(server, check + "ser")
    assert ok(server, check + "par").split("\t")[2] != "0"
    assert ok(server, "SELECT count() FROM par") == f"{ROWS}\n"
    # WithNames: columns in another order, one left out (its default)
    ok(server, "TRUNCATE TABLE par")
    ok(server, "TRUNCATE TABLE ser")
    head = b"f\tid\ts\n"
    rows = b"".join(f"{i / 4}\t{i}\tv{i}\\tw\n".encode() for i in range(ROWS))
    par, ser = both(server, "TabSeparatedWithNames", head + rows)
    assert par == ser and par.count("\n") == ROWS
    assert par.startswith("0\tv0\\tw\t\\N\t0\n")
    # Raw: no escapes at all
    ok(server, "TRUNCATE TABLE par")
    ok(server, "TRUNCATE TABLE ser")
    raw = b"".join(f"{i}\traw\\{i}\\\t\\N\t1.5\n".encode() for i in range(ROWS))
    par, ser = both(server, "TabSeparatedRaw", raw)
    assert par == ser and par.count("\n") == ROWS


def test_json_each_row_same_rows_and_defaults(server):
    rng = random.Random(11)
    tables(server, "id UInt32, s String DEFAULT concat('d', toString(id)), "
                   "n Int64 DEFAULT id * 2, a Array(String)")
    out = []
    for i in range(ROWS):
        row = {"id": i}
        if i % 3:
            row["s"] = strings(rng, i) + "}\n{"  # brackets and a line end inside a string
        if i % 5:
            row["n"] = -i
        row["a"] = ["}", "{", str(i)][: i % 4]
        text = json.dumps(row, ensure_ascii=i % 2 == 0)
        if i % 13 == 0:
            text = json.dumps(row, indent=2)  # one row over several lines
        out.append(text + "\n")
    body = "".join(out).encode()
    assert len(body) > 8 << 20
    par, ser = both(server, "JSONEachRow", body)
    assert par == ser and par.count("\n") == ROWS
    # DEFAULT expressions filled for the keys left out, in both
    assert ok(server, "SELECT s, n FROM par WHERE id IN (15, 100005) ORDER BY id") == (
        "d15\t30\nd100005\t200010\n")
    # rows separated by commas: never cut (read serially), same rows
    ok(server, "TRUNCATE TABLE par")
    ok(server, "TRUNCATE TABLE ser")
    commas = ",\n".join(json.dumps({"id": i, "s": "x" * (i % 50)}) for i in range(ROWS))
    par, ser = both(server, "JSONEachRow", commas.encode(), serial_after=None)
    assert par == ser and par.count("\n") == ROWS
    # JSONCompactEachRow and JSONStringsEachRow
    for fmt, make in (("JSONCompactEachRow", lambda i: json.dumps([i, f"s{i}", i, ["a"]])),
                      ("JSONStringsEachRow",
                       lambda i: json.dumps({"id": str(i), "s": f"]{i}[", "a": "['q']"}))):
        ok(server, "TRUNCATE TABLE par")
        ok(server, "TRUNCATE TABLE ser")
        par, ser = both(server, fmt, "".join(make(i) + "\n" for i in range(ROWS)).encode())
        assert par == ser and par.count("\n") == ROWS, fmt


def test_bad_row_late_in_the_body_same_error(server):
    tables(server, "id UInt32, s String")
    bad_at = ROWS - 1234  # row number counted from 1
    for fmt, make, bad in (
            ("TabSeparated", lambda i: f"{i}\tv{i}\n", "oops\tv\n"),
            ("JSONEachRow", lambda i: json.dumps({"id": i, "s": f"v{i}"}) + "\n",
             '{"id": "oops"}\n')):
        body = "".join(bad if i == bad_at - 1 else make(i) for i in range(ROWS)).encode()
        texts = []
        for parallel in ("1", "0"):
            r = post(server, f"INSERT INTO par FORMAT {fmt}", body,
                     input_format_parallel_parsing=parallel)
            assert r.status_code != 200
            texts.append((r.headers["X-ClickHouse-Exception-Code"], r.text.split(": '")[0]))
        assert texts[0] == texts[1], texts
        assert f"row {bad_at}" in texts[0][1], texts
        assert ok(server, "SELECT count() FROM par") == "0\n"
