"""INSERT input settings over HTTP, as URL parameters (ClickHouse's
semantics): input_format_allow_errors_num / _ratio skip bad rows of the
TSV, CSV and JSON*EachRow families (not RowBinary, which says so) and are
logged; date_time_input_format=best_effort[_us] in every text format and
Values; input_format_skip_unknown_fields for WithNames headers,
RowBinaryWithNamesAndTypes, Native and JSON keys; header columns in any
order, missing ones taking their DEFAULT expression; and
input_format_null_as_default both ways. Stored rows and error bodies
(code, row, column, value) are checked."""

import requests


def post(server, sql, data=b"", **params):
    return requests.post(f"http://127.0.0.1:{server.port}/", params={"query": sql, **params},
                         data=data)


def ok(server, sql, data=b"", **params):
    r = post(server, sql, data, **params)
    assert r.status_code == 200, r.text
    return r.text


def err(server, sql, data=b"", code=None, **params):
    r = post(server, sql, data, **params)
    assert r.status_code != 200, r.text
    if code is not None:
        assert r.headers["X-ClickHouse-Exception-Code"] == str(code), r.text
    return r.text


def fresh(server, ddl="id UInt32, s String DEFAULT 'dflt', n Int32 DEFAULT id * 10"):
    ok(server, "DROP TABLE IF EXISTS t")
    ok(server, f"CREATE TABLE t ({ddl}) ENGINE = MergeTree ORDER BY id")


def rows(server):
    return ok(server, "SELECT * FROM t ORDER BY id")


# Bodies with rows 2 and 4 bad (and the rest good) in each text family.
BAD_BODIES = {
    "TabSeparated": b"1\ta\t1\nx\tb\t2\n3\tc\t3\n4\td\tfour\n5\te\t5\n",
    "TabSeparatedRaw": b"1\ta\t1\nx\tb\t2\n3\tc\t3\n4\td\tfour\n5\te\t5\n",
    "TabSeparatedWithNames": b"id\ts\tn\n1\ta\t1\nx\tb\t2\n3\tc\t3\n4\td\tfour\n5\te\t5\n",
    "TabSeparatedWithNamesAndTypes": b"id\ts\tn\nUInt32\tString\tInt32\n"
                                     b"1\ta\t1\nx\tb\t2\n3\tc\t3\n4\td\tfour\n5\te\t5\n",
    "CSV": b'1,a,1\nx,b,2\n3,"c",3\n4,"d"junk,4\n5,e,5\n',
    "CSVWithNames": b'"id","s","n"\n1,a,1\nx,b,2\n3,"c",3\n4,"d"junk,4\n5,e,5\n',
    "CSVWithNamesAndTypes": b'id,s,n\nUInt32,String,Int32\n1,a,1\nx,b,2\n3,c,3\n4,d,\n5,e,5\n',
    "JSONEachRow": b'{"id":1,"s":"a","n":1}\n{"id":"x"}\n{"id":3,"s":"c","n":3}\n'
                   b'{"id":4,"n":[}\n{"id":5,"s":"e","n":5}\n',
    "JSONStringsEachRow": b'{"id":"1","s":"a","n":"1"}\n{"id":"x"}\n{"id":"3","s":"c","n":"3"}\n'
                          b'{"id":4}\n{"id":"5","s":"e","n":"5"}\n',
    "JSONCompactEachRow": b'[1, "a", 1]\n[2, "b"]\n[3, "c", 3]\n["4", "d", "four"]\n[5, "e", 5]\n',
}
GOOD_ROWS = "1\ta\t1\n3\tc\t3\n5\te\t5\n"


def test_allow_errors_every_text_format(make_server):
    server = make_server(env={"MUSCLES_LOG_LEVEL": "debug"})
    for fmt, body in BAD_BODIES.items():
        if fmt == "CSVWithNamesAndTypes":
            body = body.replace(b"4,d,\n", b"4,d,x\n")  # an empty field would be the default
        fresh(server)
        # without the settings: the first bad row fails the insert, nothing is stored
        text = err(server, f"INSERT INTO t FORMAT {fmt}", body)
        assert "row 2" in text, (fmt, text)
        assert "Already have" not in text
        assert rows(server) == ""
        # within the limit: the bad rows are skipped
        ok(server, f"INSERT INTO t FORMAT {fmt}", body, input_format_allow_errors_num="2")
        assert rows(server) == GOOD_ROWS, fmt
        # one error too many: fails, naming the row and the count
        fresh(server)
        text = err(server, f"INSERT INTO t FORMAT {fmt}", body, input_format_allow_errors_num="1")
        assert "row 4" in text and "(Already have 2 errors out of 4 rows, which is 0.5 of all rows)" \
            in text, (fmt, text)
        assert rows(server) == ""
        # the ratio alone: 1/2 and 2/4 do not pass 0.5
        ok(server, f"INSERT INTO t FORMAT {fmt}", body, input_format_allow_errors_ratio="0.5")
        assert rows(server) == GOOD_ROWS, fmt
        fresh(server)
        text = err(server, f"INSERT INTO t FORMAT {fmt}", body, input_format_allow_errors_ratio="0.4")
        assert "(Already have 1 errors out of 2 rows, which is 0.5 of all rows)" in text, (fmt, text)
    # ClickHouse logs the skipped rows at debug level
    server.wait_log(r"event=sql\.insert\.rows_skipped table=default\.t format=JSONCompactEachRow "
                    r"rows=5 skipped=2")


def test_allow_errors_error_bodies_and_binary(server):
    fresh(server)
    text = err(server, "INSERT INTO t FORMAT TabSeparated", b"1\ta\t1\n2\tb\tzz\n", code=27)
    assert "Cannot parse input (TabSeparated): row 2, column 3 'n': value 'zz'" in text
    assert "(CANNOT_PARSE_INPUT_ASSERTION_FAILED)" in text
    text = err(server, "INSERT INTO t FORMAT CSV", b'1,a,1\n2,"b\n', code=6)
    assert "row 2, column 2 's'" in text and "bad quoting" in text
    text = err(server, "INSERT INTO t FORMAT JSONEachRow", b'{"id":1}\n{"id":2,"s":[1}\n',
               code=27)
    assert "row 2, key 's'" in text, text
    # RowBinary cannot skip a bad row: the error says so
    data = requests.post(f"http://127.0.0.1:{server.port}/",
                         data=b"SELECT toUInt32(1) AS id, 'a' AS s, toInt32(1) AS n "
                              b"FORMAT RowBinary").content
    text = err(server, "INSERT INTO t FORMAT RowBinary", data + b"\x02\x00\x00\x00\x09",
               input_format_allow_errors_num="5")
    assert "(Input format doesn't allow to skip errors)" in text
    assert rows(server) == ""
    # bad setting values are refused before reading
    err(server, "INSERT INTO t FORMAT TSV", b"", code=36, input_format_allow_errors_num="-1")
    err(server, "INSERT INTO t FORMAT TSV", b"", code=36, input_format_allow_errors_ratio="x")
    err(server, "INSERT INTO t FORMAT TSV", b"", code=36, date_time_input_format="fuzzy")
    err(server, "INSERT INTO t FORMAT TSV", b"", code=36, input_format_null_as_default="maybe")


def test_date_time_best_effort(server):
    fresh(server, "id UInt32, t DateTime('UTC'), t64 DateTime64(3, 'UTC'), d Date")
    bodies = {
        "TabSeparated": b"1\t2024-01-15T10:30:00Z\t2024-01-15T10:30:00.123+01:00\t2024-01-15\n",
        "CSV": b'2,"Mon, 15 Jan 2024 10:30:00 GMT",1705314600123,2024-01-15\n',
        "JSONEachRow": b'{"id":3,"t":"15/01/2024 10:30:00","t64":"20240115103000",'
                       b'"d":"2024-01-15"}\n{"id":4,"t":1705314600,"t64":"2024-01-15 10:30:00",'
                       b'"d":"2024-01-15"}\n',
    }
    for fmt, body in bodies.items():
        text = err(server, f"INSERT INTO t FORMAT {fmt}", body, code=41)
        assert "column" in text or "key" in text
        ok(server, f"INSERT INTO t FORMAT {fmt}", body, date_time_input_format="best_effort")
    ok(server, "INSERT INTO t VALUES (5, '2024-01-15T10:30:00Z', '2024-01-15 10:30:00', '2024-01-15')",
       date_time_input_format="best_effort")
    err(server, "INSERT INTO t VALUES (6, '2024-01-15T10:30:00Z', 0, '2024-01-15')", code=41)
    ok(server, "INSERT INTO t FORMAT CSV", b'7,"01/02/2024 1:02:03 PM",2024-01-02,2024-01-02\n',
       date_time_input_format="best_effort_us")
    # Date is not read best effort (as in ClickHouse)
    err(server, "INSERT INTO t FORMAT TSV", b"8\t1705314600\t1705314600\t2024-01-15T00:00:00Z\n",
        code=38,
        date_time_input_format="best_effort")
    assert rows(server) == (
        "1\t2024-01-15 10:30:00\t2024-01-15 09:30:00.123\t2024-01-15\n"
        "2\t2024-01-15 10:30:00\t2024-01-15 10:30:00.123\t2024-01-15\n"
        "3\t2024-01-15 10:30:00\t2024-01-15 10:30:00.000\t2024-01-15\n"
        "4\t2024-01-15 10:30:00\t2024-01-15 10:30:00.000\t2024-01-15\n"
        "5\t2024-01-15 10:30:00\t2024-01-15 10:30:00.000\t2024-01-15\n"
        "7\t2024-01-02 13:02:03\t2024-01-02 00:00:00.000\t2024-01-02\n")


def test_headers_unknown_and_missing_columns(server):
    fresh(server)
    # reordered header, an unknown column skipped, a missing one gets its DEFAULT
    ok(server, "INSERT INTO t FORMAT TabSeparatedWithNames", b"extra\tid\ts\nq\t1\ta\n")
    ok(server, "INSERT INTO t FORMAT CSVWithNamesAndTypes",
       b'n,extra,id\nInt32,"Map(String, UInt8)",UInt32\n7,"{\'k\':1}",2\n')
    ok(server, "INSERT INTO t FORMAT JSONEachRow", b'{"zz":{"a":[1]},"id":3}\n')
    assert rows(server) == "1\ta\t10\n2\tdflt\t7\n3\tdflt\t30\n"
    # skip_unknown_fields=0: INCORRECT_DATA naming the column
    text = err(server, "INSERT INTO t FORMAT TSVWithNames", b"extra\tid\nq\t9\n", code=117,
               input_format_skip_unknown_fields="0")
    assert "Unknown field found in format header: 'extra' at position 0" in text
    text = err(server, "INSERT INTO t FORMAT JSONEachRow", b'{"id":9,"zz":1}\n', code=117,
               input_format_skip_unknown_fields="0")
    assert "key 'zz'" in text
    err(server, "INSERT INTO t FORMAT CSVWithNamesAndTypes", b"id\nInt32\n1\n", code=117)
    # with_names_use_header=0 / with_types_use_header=0
    ok(server, "INSERT INTO t FORMAT TSVWithNames", b"a\tb\tc\n4\td\t40\n",
       input_format_with_names_use_header="0")
    ok(server, "INSERT INTO t FORMAT CSVWithNamesAndTypes", b"id\nInt32\n5\n",
       input_format_with_types_use_header="0")
    assert rows(server).endswith("4\td\t40\n5\tdflt\t50\n")


def test_binary_unknown_and_missing_columns(server):
    url = f"http://127.0.0.1:{server.port}/"
    fresh(server)
    select = (b"SELECT toUInt32(number + 1) AS id, [toString(number)] AS extra, "
              b"toInt32(number + 5) AS n FROM numbers(2) ORDER BY id FORMAT ")
    for fmt in ("RowBinaryWithNamesAndTypes", "Native"):
        fresh(server)
        data = requests.post(url, data=select + fmt.encode()).content
        # extra is decoded and dropped; s is missing: its DEFAULT
        ok(server, f"INSERT INTO t FORMAT {fmt}", data)
        assert rows(server) == "1\tdflt\t5\n2\tdflt\t6\n", fmt
        text = err(server, f"INSERT INTO t FORMAT {fmt}", data, code=117,
                   input_format_skip_unknown_fields="0")
        assert "extra" in text
    # Native: a NULL for a column that is not Nullable takes its DEFAULT
    fresh(server)
    data = requests.post(url, data=b"SELECT toUInt32(number + 1) AS id, "
                                   b"if(number = 0, NULL, toInt32(number)) AS n FROM numbers(2) "
                                   b"ORDER BY id FORMAT Native").content
    ok(server, "INSERT INTO t FORMAT Native", data)
    assert rows(server) == "1\tdflt\t10\n2\tdflt\t1\n"
    # RowBinaryWithNames has no types: an unknown column cannot be skipped
    data = requests.post(url, data=b"SELECT toUInt32(1) AS id, 'x' AS extra "
                                   b"FORMAT RowBinaryWithNames").content
    text = err(server, "INSERT INTO t FORMAT RowBinaryWithNames", data, code=48)
    assert "Cannot skip unknown field in RowBinaryWithNames format" in text


def test_null_as_default(server):
    url = f"http://127.0.0.1:{server.port}/"
    fresh(server)
    ok(server, "INSERT INTO t FORMAT TabSeparated", b"1\t\\N\t\\N\n")
    ok(server, "INSERT INTO t FORMAT CSV", b"2,\\N,\n")
    ok(server, "INSERT INTO t FORMAT JSONEachRow", b'{"id":3,"s":null,"n":null}\n')
    ok(server, "INSERT INTO t FORMAT JSONStringsEachRow", b'{"id":"4","s":"NULL","n":"null"}\n')
    ok(server, "INSERT INTO t VALUES (5, NULL, NULL)")
    assert rows(server) == ("1\tdflt\t10\n2\tdflt\t20\n3\tdflt\t30\n4\tdflt\t40\n"
                            "5\tdflt\t50\n")
    # input_format_defaults_for_omitted_fields=0: the type's default instead
    ok(server, "INSERT INTO t FORMAT JSONEachRow", b'{"id":6}\n',
       input_format_defaults_for_omitted_fields="0")
    assert rows(server).endswith("6\t\t0\n")
    # input_format_null_as_default=0: TSV/CSV read \N as text, the rest refuse NULL
    fresh(server)
    ok(server, "INSERT INTO t FORMAT TabSeparated", b"1\t\\N\t1\n", input_format_null_as_default="0")
    ok(server, "INSERT INTO t FORMAT CSV", b"2,\\N,2\n", input_format_null_as_default="0")
    assert rows(server) == "1\tN\t1\n2\t\\\\N\t2\n"
    text = err(server, "INSERT INTO t FORMAT TabSeparated", b"3\ts\t\\N\n", code=27,
               input_format_null_as_default="0")
    assert "row 1, column 3 'n'" in text
    err(server, "INSERT INTO t FORMAT JSONEachRow", b'{"id":3,"n":null}\n', code=6,
        input_format_null_as_default="0")
    text = err(server, "INSERT INTO t VALUES (3, NULL, 1)", code=53, input_format_null_as_default="0")
    assert "Cannot insert NULL value into a column of type 'String'" in text
    data = requests.post(url, data=b"SELECT toUInt32(3) AS id, CAST(NULL AS Nullable(String)) AS s "
                                   b"FORMAT Native").content
    err(server, "INSERT INTO t FORMAT Native", data, code=349, input_format_null_as_default="0")
    assert rows(server) == "1\tN\t1\n2\t\\\\N\t2\n"
