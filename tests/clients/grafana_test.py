#!/usr/bin/env python3
"""ctest `grafana_client`: Grafana's ClickHouse data source against muscles
over HTTP, request for request.

The data source (grafana/clickhouse-datasource 4.20) runs its queries through
clickhouse-go v2.47 in HTTP mode. This test sends what that pair sends, byte
for byte where it matters (clickhouse-compat.md sections 1, 2.7, 3.1, 3.4,
5; the plugin's src/data/sqlGenerator.ts, src/data/CHDatasource.ts,
src/data/CHVariableSupport.tsx, src/data/logs.ts, pkg/macros and
pkg/plugin/driver.go; clickhouse-go's conn_http*.go and lib/proto/block.go):

* every request a POST to /?client_protocol_version=54460&default_format=Native
  (plus the data source's settings, here `limit`, keys sorted as Go's
  url.Values encodes them), SQL in the body, HTTP Basic auth,
  `Accept-Encoding: gzip`, the User-Agent clickhouse-go builds for Grafana;
* the connection's hello `SELECT displayName(), version(), revision(),
  timezone()` decoded at revision 54460, then every answer decoded at the
  revision it returned, by a strict Native reader (grafana_native.py);
* the health check `SELECT 1`, the schema browser, the variable helpers,
  clickhouse-go's batch insert (DESCRIBE TABLE, then a gzip, chunked,
  revision-0 Native body), and the SQL the query builder generates for
  time-series, table and logs panels and the logs-volume query, with the
  backend's macros expanded as pkg/macros expands them. Every answer is
  compared with values computed here from the inserted rows.

Shapes the data source can generate that muscles does not run yet (tuples,
window functions, lttb, JSON columns, ad-hoc filters) are listed in
UNSUPPORTED_SHAPES with the reason; each is sent in its smallest form and
must fail with an error rather than answer wrongly.
"""

import base64
import gzip
import hashlib
import http.client
import os
import re
import sys
import tempfile
import urllib.parse
import zoneinfo

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "sql"))
sys.path.insert(0, HERE)

from grafana_native import NativeError, read_blocks, write_block  # noqa: E402
from servers import MusclesServer  # noqa: E402

CLIENT_REVISION = 54460          # clickhouse-go's DBMS_TCP_PROTOCOL_VERSION
CUSTOM_SERIALIZATION_REVISION = 54454
# clickhouse-go's ClientInfo.String(): the data source's products (grafana,
# then clickhouse-datasource), clickhouse-go last, then the comments
# (Grafana's user, dashboard and panel) and the Go and OS parts.
USER_AGENT = ("grafana/12.1.0 clickhouse-datasource/4.20.0 clickhouse-go/2.47.0 "
              "(grafana_user:admin; grafana_dashboard:gf-dash; grafana_panel:2; "
              "lv:go/1.24.6; os:linux)")
USER, PASSWORD = "grafana", "s3cret-for-grafana"
ROW_LIMIT = 100000               # the data source's "row limit" setting, sent as limit=

BASE = 1714557600                # 2024-05-01 10:00:00 UTC
FROM_S, TO_S = BASE, BASE + 3600  # the dashboard's time range
INTERVAL_S = 60                  # the panel's $__interval
ROWS = 480                       # one row every 15 s from BASE-30min to BASE+90min


class ClickHouseError(Exception):
    def __init__(self, status, body):
        super().__init__(f"HTTP {status}: {body[:400]!r}")
        self.status = status
        self.body = body
        m = re.search(rb"Code: (\d+)\.", body)
        self.code = int(m.group(1)) if m else None


class Result:
    def __init__(self, blocks, headers):
        self.blocks = blocks
        self.headers = headers
        data = [b for b in blocks if b.names]
        self.names = data[0].names if data else []
        self.types = data[0].types if data else []
        for b in data:
            if b.names != self.names or b.types != self.types:
                raise NativeError(f"blocks disagree on the header: {b.names} {b.types} vs "
                                  f"{self.names} {self.types}")
        self.rows = [r for b in data for r in b.row_tuples()]

    def column(self, name):
        i = self.names.index(name)
        return [r[i] for r in self.rows]


class GoHttpClient:
    """clickhouse-go v2's HTTP connection (conn_http.go) as the data source
    opens it: Protocol HTTP, Compression GZIP, Settings {limit}, Auth user and
    password over plain HTTP (URL userinfo, i.e. Basic)."""

    def __init__(self, host, port, settings=None):
        self.host, self.port = host, port
        params = dict(settings or {})
        params["default_format"] = "Native"
        params["client_protocol_version"] = str(CLIENT_REVISION)
        self.base_params = params
        self.revision = CLIENT_REVISION  # the hello is read at this revision
        self.conn = http.client.HTTPConnection(host, port, timeout=60)
        token = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
        self.auth = "Basic " + token
        self.requests = 0

    def close(self):
        self.conn.close()

    def _url(self, extra=None):
        params = dict(self.base_params)
        params.update(extra or {})
        # Go's url.Values.Encode(): keys sorted, QueryEscape (space as +).
        return "/?" + urllib.parse.urlencode(sorted(params.items()))

    def _post(self, url, headers, body):
        """One request as Go's net/http writes it (no Accept-Encoding of its
        own: the transport has DisableCompression)."""
        self.requests += 1
        self.conn.putrequest("POST", url, skip_accept_encoding=True)
        self.conn.putheader("User-Agent", USER_AGENT)
        for k, v in headers.items():
            self.conn.putheader(k, v)
        self.conn.putheader("Authorization", self.auth)
        if isinstance(body, bytes):
            self.conn.putheader("Content-Length", str(len(body)))
            self.conn.endheaders(body)
        else:  # an io.Pipe body: length unknown, chunked
            self.conn.putheader("Transfer-Encoding", "chunked")
            self.conn.endheaders()
            for chunk in body:
                self.conn.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            self.conn.send(b"0\r\n\r\n")
        resp = self.conn.getresponse()
        data = resp.read()
        if (resp.getheader("Content-Encoding") or "") == "gzip":
            data = gzip.decompress(data)
        return resp, data

    def query(self, sql, settings=None, query_id=None):
        """httpConnect.query: non-200 is an error with the body as message;
        Content-Length 0 is an empty result; otherwise Native blocks at the
        handshake's revision. A body that does not decode is an error, with
        the server's message when it carries the __exception__ marker."""
        extra = dict(settings or {})
        if query_id:
            extra["query_id"] = query_id
        resp, data = self._post(self._url(extra), {"Accept-Encoding": "gzip"},
                                sql.encode("utf-8"))
        if resp.status != 200:
            raise ClickHouseError(resp.status, data)
        if resp.getheader("X-ClickHouse-Exception-Code"):
            raise AssertionError(f"exception code header on a 200 answer to {sql!r}")
        headers = {k.lower(): v for k, v in resp.getheaders()}
        if resp.getheader("Content-Length") == "0":
            return Result([], headers)
        try:
            blocks = read_blocks(data, self.revision)
        except NativeError as e:
            if b"__exception__" in data or re.search(rb"Code: \d+\. DB::Exception", data):
                raise ClickHouseError(resp.status, data) from None
            raise AssertionError(f"{sql!r}: the answer is not Native at revision "
                                 f"{self.revision}: {e}") from None
        return Result(blocks, headers)

    def exec(self, sql):
        """httpConnect.exec (DDL): the body is discarded."""
        resp, data = self._post(self._url(), {}, sql.encode("utf-8"))
        if resp.status != 200:
            raise ClickHouseError(resp.status, data)

    def hello(self):
        """queryHello: scanned into (string, string, uint32, string)."""
        r = self.query("SELECT displayName(), version(), revision(), timezone()")
        expect(r.types == ["String", "String", "UInt32", "String"],
               f"hello types {r.types}")
        expect(len(r.rows) == 1, f"hello rows {r.rows}")
        display_name, version, revision, tz = r.rows[0]
        parts = version.split(".")
        expect(len(parts) >= 3 and all(p.isdigit() and int(p) <= 255 for p in parts[:3]),
               f"version {version!r}: clickhouse-go needs 3 dotted parts of 0..255")
        expect(revision >= CUSTOM_SERIALIZATION_REVISION,
               f"revision {revision}: the server writes the custom-serialization byte for "
               f"client_protocol_version={CLIENT_REVISION}, so revision() must be >= 54454")
        zoneinfo.ZoneInfo(tz)  # clickhouse-go's timezone.Load
        expect(display_name != "", "empty displayName()")
        self.revision = revision  # conn.revision = handshake.Revision
        return display_name, version, revision, tz

    def ping(self):
        r = self.query("SELECT 1")
        expect(r.names == ["1"], f"ping column names {r.names}")
        expect(r.rows == [(1,)], f"ping rows {r.rows}")

    def describe(self, table):
        """fetchColumnNamesAndTypesForInsert: 7 strings per row."""
        r = self.query(f"DESCRIBE TABLE {table}")
        expect(r.types == ["String"] * 7, f"DESCRIBE TABLE types {r.types}")
        return [(row[0], row[1]) for row in r.rows if row[2] not in ("MATERIALIZED", "ALIAS")]

    def batch_insert(self, query, rows):
        """prepareBatch + Append + Send: DESCRIBE TABLE, then the block
        encoded at revision 0, gzip, streamed (chunked)."""
        m = re.match(r"(?is)(INSERT\s+INTO\s+([^(]+)(?:\s*\(([^()]*)\))?)", query)
        table = m.group(2).strip()
        normalized = m.group(1) + " FORMAT Native"
        wanted = [c.strip().strip('"').replace("`", "") for c in m.group(3).split(",")]
        types = dict(self.describe(table))
        for c in wanted:
            expect(c in types, f"column {c} is not in DESCRIBE TABLE {table}")
        columns = [[row[i] for row in rows] for i in range(len(wanted))]
        body = gzip.compress(write_block(wanted, [types[c] for c in wanted], columns))
        chunks = [body[i:i + 4096] for i in range(0, len(body), 4096)]
        resp, data = self._post(self._url({"query": normalized}),
                                {"Content-Encoding": "gzip",
                                 "Content-Type": "application/octet-stream"}, iter(chunks))
        if resp.status != 200:
            raise ClickHouseError(resp.status, data)


def expect(cond, message):
    if not cond:
        raise AssertionError(message)


def expect_eq(actual, expected, what):
    if actual != expected:
        lines = [f"{what}: answers differ"]
        if isinstance(actual, list) and isinstance(expected, list):
            lines.append(f"  got {len(actual)} rows, expected {len(expected)}")
            for i, (a, e) in enumerate(zip(actual, expected)):
                if a != e:
                    lines.append(f"  first difference at row {i}:\n    got      {a!r}\n"
                                 f"    expected {e!r}")
                    break
        else:
            lines.append(f"  got      {actual!r}\n  expected {expected!r}")
        raise AssertionError("\n".join(lines))


# ---- the data ----------------------------------------------------------------------

TABLE_DDL = """CREATE TABLE app_logs
(
    ts DateTime,
    ts64 DateTime64(3),
    day Date,
    level LowCardinality(String),
    message String,
    service String,
    value Float64,
    latency_ms UInt32,
    status Int16,
    bytes UInt64,
    ok Bool,
    trace_id Nullable(String),
    tags Array(String),
    attrs Map(String, String)
)
ENGINE = MergeTree
ORDER BY ts"""

COLUMNS = ["ts", "ts64", "day", "level", "message", "service", "value", "latency_ms",
           "status", "bytes", "ok", "trace_id", "tags", "attrs"]
LEVELS = ["info", "error", "warn", "debug", "info", "ERROR", "critical", "Warning",
          "information", "trace"]
SERVICES = ["api", "web", "worker"]


def make_rows():
    rows = []
    for i in range(ROWS):
        ts = BASE - 1800 + i * 15
        if i % 11 == 0:
            message = f"req {i}: disk full on /var"
        elif i % 5 == 0:
            message = f"req {i}: upstream timeout"
        elif i % 13 == 0:
            message = f"req {i}: quote ' tab\tand \u00e9t\u00e9 \"json\" \\ slash/"
        else:
            message = f"req {i}: ok"
        attrs = {"host": f"h{i % 5}"}
        if i % 3:
            attrs["region"] = "eu" if i % 2 else "us"
        rows.append((
            ts,
            ts * 1000 + (i * 37) % 1000,
            ts // 86400,
            LEVELS[i % len(LEVELS)],
            message,
            SERVICES[(i + i // 7) % 3],
            (i % 17) * 0.25 - 1.0,
            (i * 37) % 500,
            [200, 404, 500, -1][i % 4],
            (1 << 40) + i * 1_000_003,
            i % 3 != 0,
            None if i % 4 == 0 else f"{i:032x}",
            ["a", "b", "c"][:i % 4],
            attrs,
        ))
    return rows


def col(row, name):
    return row[COLUMNS.index(name)]


def bucket(t, width):
    return t - t % width  # floor for the non-negative times used here


# ---- the data source's macros (pkg/macros/macros.go) -----------------------------------

class Macros:
    """The backend's expansion of $__ macros for one query: time range
    [from, to] in seconds (milliseconds where the _ms macros use them), the
    panel interval. Only the macros this test sends are known; an unknown
    one is a test error, not left in the SQL."""

    def __init__(self, frm_ms, to_ms, interval_ms):
        self.frm_ms, self.to_ms, self.interval_ms = frm_ms, to_ms, interval_ms

    def _dt(self, ms):
        return f"toDateTime({ms // 1000})"

    def _dt64(self, ms):
        return f"fromUnixTimestamp64Milli({ms})"

    def _date(self, ms):
        import datetime
        d = datetime.datetime.fromtimestamp(ms // 1000, datetime.timezone.utc)
        return f"toDate('{d:%Y-%m-%d}')"

    def expand_one(self, name, args):
        f, t = self.frm_ms, self.to_ms
        seconds = max(self.interval_ms // 1000, 1)
        simple = {
            "fromTime": self._dt(f), "toTime": self._dt(t),
            "fromTime_ms": self._dt64(f), "toTime_ms": self._dt64(t),
            "interval_s": str(seconds),
        }
        if args is None:
            if name not in simple:
                raise AssertionError(f"macro $__{name} without arguments is not known here")
            return simple[name]
        c = args[0]
        if name == "timeFilter":
            return f"{c} >= {self._dt(f)} AND {c} <= {self._dt(t)}"
        if name == "timeFilter_ms":
            return f"{c} >= {self._dt64(f)} AND {c} <= {self._dt64(t)}"
        if name == "dateFilter":
            return f"{c} >= {self._date(f)} AND {c} <= {self._date(t)}"
        if name in ("dateTimeFilter", "dt"):
            d, tc = args
            return (f"({d} >= {self._date(f)} AND {d} <= {self._date(t)}) AND "
                    f"({tc} >= {self._dt(f)} AND {tc} <= {self._dt(t)})")
        if name == "timeInterval":
            return f"toStartOfInterval(toDateTime({c}), INTERVAL {seconds} second)"
        if name == "timeInterval_ms":
            return (f"toStartOfInterval(toDateTime64({c}, 3), "
                    f"INTERVAL {max(self.interval_ms, 1)} millisecond)")
        if name == "timeFrom":
            return f"{c} >= {self._dt(f)}"
        if name == "timeTo":
            return f"{c} <= {self._dt(t)}"
        if name == "timeGroup":
            units = {"s": 1, "m": 60, "h": 3600}
            period = args[1].strip().strip("'\"")
            return (f"toStartOfInterval(toDateTime({c.strip()}), "
                    f"INTERVAL {int(period[:-1]) * units[period[-1]]} second)")
        raise AssertionError(f"macro $__{name} is not known here")

    def expand(self, sql):
        sql = self._statement_macros(sql)
        out, i = [], 0
        for m in re.finditer(r"\$__([A-Za-z_]+)", sql):
            if m.start() < i:
                continue
            out.append(sql[i:m.start()])
            name, end, args = m.group(1), m.end(), None
            if end < len(sql) and sql[end] == "(":
                depth, j = 0, end
                while True:
                    depth += {"(": 1, ")": -1}.get(sql[j], 0)
                    if depth == 0:
                        break
                    j += 1
                args = [a.strip() for a in sql[end + 1:j].split(",")]
                end = j + 1
            out.append(self.expand_one(name, args))
            i = end
        out.append(sql[i:])
        return "".join(out)

    @staticmethod
    def _statement_macros(sql):
        """$__columns(time, key, value) FROM <from> [WHERE <cond>] (statement.go,
        buildColumnsFamily without a window): the only statement macro whose
        expansion needs no window function."""
        m = re.fullmatch(r"\$__columns\(([^,]+), ([^,]+), (.+?)\) (FROM \S+)(?: WHERE (.*))?",
                         sql, re.S)
        if not m:
            expect("$__columns" not in sql, f"unexpected $__columns form: {sql}")
            return sql
        time_col, key, value, frm, cond = m.groups()
        key_expr, _, key_alias = key.partition(" AS ")
        value_expr, _, value_alias = value.partition(" AS ")
        where = f"WHERE $__timeFilter({time_col})" + (f" AND ({cond})" if cond else "")
        key_alias = key_alias or "metric"
        return (f"SELECT $__timeInterval({time_col}) AS t, toString({key_expr}) AS {key_alias}, "
                f"{value_expr} AS {value_alias or 'value'} {frm} {where} "
                f"GROUP BY t, {key_alias} ORDER BY t, {key_alias}")


# ---- the panels' SQL ---------------------------------------------------------------------
#
# Each query below is what sqlGenerator.ts's generateSql() returns for the
# builder options written next to it (escapeIdentifier, getFilters,
# getOrderBy and concatQueryParts as in the plugin), before the backend
# expands the macros.

LOG_LEVELS = {  # logs.ts LOG_LEVEL_TO_IN_CLAUSE, in its order
    "critical": ["critical", "fatal", "crit", "alert", "emerg"],
    "error": ["error", "err", "eror"],
    "warn": ["warn", "warning"],
    "info": ["info", "information", "informational"],
    "debug": ["debug", "dbug"],
    "trace": ["trace"],
    "unknown": ["unknown"],
}


def level_needles(level):
    words = LOG_LEVELS[level]
    return words + [w.upper() for w in words] + [w[0].upper() + w[1:] for w in words]


def logs_volume_sql(level_filter):
    """getSupplementaryLogsVolumeQuery for LOGS_QUERY's options (with or
    without its level filter) at a 1 min interval (getTimeFieldRoundingClause:
    MINUTE), through generateSimpleTimeSeriesQuery."""
    aggs = ", ".join(
        "sum(multiSearchAny(toString(\"level\"), [%s])) as %s"
        % (",".join(f"'{w}'" for w in level_needles(level)), level) for level in LOG_LEVELS)
    levels = " AND ( level IN ('error', 'critical') )" if level_filter else ""
    return ('SELECT toStartOfInterval("ts64", INTERVAL 1 MINUTE) as "time", ' + aggs +
            ' FROM "default"."app_logs" WHERE ( time >= $__fromTime AND time <= $__toTime )' +
            levels + " AND ( message LIKE '%disk%' ) GROUP BY time ORDER BY time ASC")


# Time series, Trend mode (generateAggregateTimeSeriesQuery): columns
# [ts (DateTime, hint Time)], groupBy [service], aggregates [sum(value) as
# total, count(*)], filters [time range (hint Time), level = 'error'],
# orderBy [hint Time ASC], limit 1000.
TS_TREND_QUERY = (
    'SELECT $__timeInterval(ts) as "time", service, sum(value) as total, count(*)'
    ' FROM "default"."app_logs" WHERE ( time >= $__fromTime AND time <= $__toTime )'
    " AND ( level = 'error' ) GROUP BY service, time ORDER BY time ASC LIMIT 1000")

# Time series, List mode (generateSimpleTimeSeriesQuery): columns [ts (hint
# Time), value, latency_ms], filters [time range (hint Time), value > 0
# (Float64)], orderBy [hint Time ASC], limit 1000.
TS_LIST_QUERY = (
    'SELECT ts as "time", value, latency_ms FROM "default"."app_logs"'
    " WHERE ( time >= $__fromTime AND time <= $__toTime ) AND ( value > 0 )"
    " ORDER BY time ASC LIMIT 1000")

# Table, List mode (generateTableQuery): ten columns, filters [ts in the
# time range, Map key attrs['region'] = 'eu', trace_id IS NOT NULL, message
# NOT LIKE timeout, status != 404 (Int16)], orderBy [ts DESC], limit 50.
TABLE_LIST_QUERY = (
    "SELECT ts, level, message, service, trace_id, tags, attrs, ok, bytes, status"
    ' FROM "default"."app_logs" WHERE ( ts >= $__fromTime AND ts <= $__toTime )'
    " AND ( attrs['region'] = 'eu' ) AND ( trace_id IS NOT NULL )"
    " AND ( NOT ( message LIKE '%timeout%' ) ) AND ( status != 404 ) ORDER BY ts DESC LIMIT 50")

# Table, Aggregate mode: columns [service], aggregates [count(*) as n,
# avg(latency_ms) as "avg latency" (spaces become _), max(bytes)], groupBy
# [service], filters [ts in range AND level IN (...) OR message ILIKE DISK],
# orderBy [n DESC, service ASC], limit 100.
TABLE_AGG_QUERY = (
    "SELECT service, count(*) as n, avg(latency_ms) as avg_latency, max(bytes)"
    ' FROM "default"."app_logs" WHERE ( ts >= $__fromTime AND ts <= $__toTime )'
    " AND ( level IN ('error', 'warn', 'ERROR') ) OR ( message ILIKE '%DISK%' )"
    " GROUP BY service ORDER BY n DESC, service ASC LIMIT 100")

# Logs (generateLogsQuery): columns [ts64 (DateTime64(3), hint Time),
# message (hint LogMessage), level (hint LogLevel), trace_id (hint TraceId),
# service, attrs], filters [time range (hint Time), level IN (error,
# critical) (hint LogLevel)], meta.logMessageLike 'disk', orderBy [hint Time
# DESC], limit 1000.
LOGS_QUERY = (
    'SELECT ts64 as "timestamp", message as "body", level, trace_id as "traceID", service, attrs'
    ' FROM "default"."app_logs" WHERE ( timestamp >= $__fromTime AND timestamp <= $__toTime )'
    " AND ( level IN ('error', 'critical') ) AND (body LIKE '%disk%')"
    " ORDER BY timestamp DESC LIMIT 1000")

# Logs with a FilterTime column (the OTel schema's TimestampTime): columns
# [ts (hint FilterTime), ts64 (hint Time), message, level], filters [time
# range (hint FilterTime)], orderBy [hint FilterTime DESC, hint Time DESC]
# grouped into one tuple, limit 1000.
LOGS_FILTER_TIME_QUERY = (
    'SELECT ts64 as "timestamp", message as "body", level FROM "default"."app_logs"'
    " WHERE ( ts >= $__fromTime AND ts <= $__toTime ) ORDER BY (ts, timestamp) DESC LIMIT 1000")

# Traces, search mode (generateTraceSearchQuery) with the OTel columns,
# duration in nanoseconds: filters [time range (hint Time), ParentSpanId is
# empty, Duration > 0], orderBy [hint Time DESC, hint TraceDurationTime
# DESC], limit 1000.
TRACE_SEARCH_QUERY = (
    'SELECT "TraceId" as traceID, "ServiceName" as serviceName, "SpanName" as operationName,'
    ' "Timestamp" as startTime, multiply("Duration", 0.000001) as duration'
    ' FROM "default"."otel_traces" WHERE ( Timestamp >= $__fromTime AND Timestamp <= $__toTime )'
    " AND ( ParentSpanId = '' ) AND ( Duration > 0 ) ORDER BY Timestamp DESC, Duration DESC"
    " LIMIT 1000")

# Traces, trace-ID mode (generateTraceIdQuery) without event or link
# columns (those need tuples, see UNSUPPORTED_SHAPES).
TRACE_ID_QUERY = (
    'SELECT "TraceId" as traceID, "SpanId" as spanID, "ParentSpanId" as parentSpanID,'
    ' "ServiceName" as serviceName, "SpanName" as operationName,'
    ' multiply(toUnixTimestamp64Nano("Timestamp"), 0.000001) as startTime,'
    ' multiply("Duration", 0.000001) as duration,'
    " arrayMap(key -> map('key', key, 'value',\"SpanAttributes\"[key]),"
    ' mapKeys("SpanAttributes")) as tags,'
    " arrayMap(key -> map('key', key, 'value',\"ResourceAttributes\"[key]),"
    ' mapKeys("ResourceAttributes")) as serviceTags,'
    " if(\"StatusCode\" IN ('Error', 'STATUS_CODE_ERROR'), 2, 0) as statusCode,"
    ' "SpanKind" as kind, "StatusMessage" as statusMessage'
    " FROM \"default\".\"otel_traces\" WHERE traceID = 'trace-b'")

TRACES_DDL = """CREATE TABLE otel_traces
(
    Timestamp DateTime64(9),
    TraceId String,
    SpanId String,
    ParentSpanId String,
    ServiceName LowCardinality(String),
    SpanName LowCardinality(String),
    SpanKind LowCardinality(String),
    Duration UInt64,
    StatusCode LowCardinality(String),
    StatusMessage String,
    SpanAttributes Map(LowCardinality(String), String),
    ResourceAttributes Map(LowCardinality(String), String)
)
ENGINE = MergeTree
ORDER BY (ServiceName, SpanName, Timestamp)"""

TRACE_COLUMNS = ["Timestamp", "TraceId", "SpanId", "ParentSpanId", "ServiceName", "SpanName",
                 "SpanKind", "Duration", "StatusCode", "StatusMessage", "SpanAttributes",
                 "ResourceAttributes"]


def make_spans():
    spans = []
    for i in range(12):
        trace = "trace-" + "abc"[i % 3]
        root = i < 3
        ns = (BASE + 600 * i) * 1_000_000_000 + i * 123_456_789
        spans.append((
            ns, trace, f"span-{i}", "" if root else f"span-{i % 3}",
            ["checkout", "cart", "payment"][i % 3], ["GET /", "POST /pay", "db.query"][i % 3],
            "Server" if root else "Internal", 0 if i == 5 else 1_500_000 + i * 250_000,
            ["Ok", "Error", "STATUS_CODE_ERROR", "Unset"][i % 4], "" if i % 4 else "fine",
            {"http.method": "GET", "i": str(i)} if i % 2 else {"db": "pg"},
            {"service.name": ["checkout", "cart", "payment"][i % 3]},
        ))
    return spans


def span(row, name):
    return row[TRACE_COLUMNS.index(name)]


# Shapes the data source generates that muscles does not run yet. Each is
# sent (in its smallest self-contained form) and must fail with an error,
# never answer wrongly.
UNSUPPORTED_SHAPES = [
    ("trace-ID query with span events or links: arrayMap to tuple(...)::Tuple(...)",
     "tuples are not supported yet",
     "SELECT arrayMap((name, timestamp) -> tuple(name, toString(toUnixTimestamp64Milli(timestamp)))"
     "::Tuple(name String, timestamp String), ['e'], [now64(3)]) AS logs"),
    ("trace-ID query over JSON attribute columns: [map('key', '__ch_json__', 'value',"
     " toJSONString(attrs))] inside the same tuple cast", "tuples are not supported yet",
     "SELECT tuple('a', [map('key', '__ch_json__', 'value', toJSONString(map('k', 1)))])"
     "::Tuple(name String, fields Array(Map(String, String))) AS logs"),
    ("$__rateColumns / $__perSecondColumns / $__increaseColumns statement macros:"
     " lagInFrame(...) OVER w ... WINDOW w AS (...)", "window functions are not supported",
     "SELECT toStartOfInterval(toDateTime(ts), INTERVAL 60 second) AS t, toString(service)"
     " AS metric, if((t - lagInFrame(t, 1, t) OVER w) = 0, nan, count() / (t - lagInFrame(t, 1, t)"
     " OVER w)) AS value FROM app_logs GROUP BY t, metric WINDOW w AS (PARTITION BY metric"
     " ORDER BY t ASC ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) ORDER BY t, metric"),
    ("$__lttb statement macro: arrayJoin(lttb(n)(x, y)) and tuple elements point.1",
     "lttb and tuples are not supported",
     "SELECT point.1 AS x, point.2 AS y FROM (SELECT arrayJoin(lttb(10)(ts, value)) AS point"
     " FROM app_logs) ORDER BY x"),
    ("JSON columns: JSONAllPaths / distinctJSONPathsAndTypes path discovery",
     "the JSON type is not supported",
     "SELECT DISTINCT arrayJoin(JSONAllPaths(\"attrs\")) as path FROM \"default\".\"app_logs\""
     " LIMIT 1000"),
    ("ad-hoc filters: SETTINGS additional_table_filters={...} (the data source enables them"
     " only for version() >= 22.7, so it never sends this to muscles)",
     "additional_table_filters is not a setting muscles knows",
     "SELECT count() FROM app_logs settings additional_table_filters={'default.app_logs' :"
     " ' level = \\'error\\' '}"),
]


# ---- steps ----------------------------------------------------------------------------------

class Context:
    def __init__(self, server):
        self.server = server
        self.client = GoHttpClient(server.host, server.port, {"limit": ROW_LIMIT})
        self.rows = make_rows()
        self.spans = make_spans()
        self.macros = Macros(FROM_S * 1000, TO_S * 1000, INTERVAL_S * 1000)
        self.version = None

    def run(self, sql, macros=None, **kw):
        return self.client.query((macros or self.macros).expand(sql), **kw)


def in_range(t):
    return FROM_S <= t <= TO_S


def step_codec(ctx):
    """This test's Native reader and writer against clickhouse-compat.md
    2.7's worked example and against bad input (every one must be refused)."""
    del ctx
    check = b"\x01\x01\x05check\x05UInt8\x01"
    check_54454 = check[:14] + b"\x00" + check[14:]  # custom-serialization byte after the type
    info = b"\x01\x00\x02\xff\xff\xff\xff\x00"
    for data, revision in ((check, 0), (info + check, 54405), (info + check_54454, 54460)):
        blocks = read_blocks(data, revision)
        expect(len(blocks) == 1 and blocks[0].names == ["check"] and blocks[0].types == ["UInt8"]
               and blocks[0].row_tuples() == [(1,)], f"worked example at revision {revision}")
    types = ["UInt8", "Int16", "UInt64", "Float64", "Bool", "String", "Date", "DateTime",
             "DateTime64(3, 'UTC')", "Nullable(String)", "Array(Array(Int32))",
             "Map(String, Array(Nullable(UInt8)))", "LowCardinality(String)",
             "LowCardinality(Nullable(String))", "Array(LowCardinality(String))",
             "Enum8('a' = 1, 'b' = -2)"]
    columns = [[1, 255], [-3, 7], [1 << 63, 0], [0.5, -2.25], [True, False], ["", "h\u00e9"],
               [19844, 0], [1714557600, 0], [1714557600123, -1], [None, "x"], [[[1], []], []],
               [{"k": [1, None]}, {}], ["x", "x"], [None, "y"], [["p", "q"], ["q"]], [1, -2]]
    data = write_block([f"c{i}" for i in range(len(types))], types, columns)
    columns[-1] = ["a", "b"]
    expect(read_blocks(data, 0)[0].row_tuples() == [tuple(c[i] for c in columns)
                                                   for i in range(2)], "writer/reader round trip")
    lc = write_block(["l"], ["LowCardinality(String)"], [["a", "b"]])
    lc_version_2 = lc.replace(b"\x01" + b"\x00" * 7, b"\x02" + b"\x00" * 7, 1)
    bad = [
        ("truncated block", check[:-1], 0),
        ("a byte after the last block", check + b"\x00", 0),
        ("no BlockInfo at revision 54460", check_54454, 54460),
        ("no custom-serialization byte at revision 54460", info + check, 54460),
        ("custom serialization 1", info + check[:14] + b"\x01" + check[14:], 54460),
        ("BlockInfo field 3 for field 2", info[:2] + b"\x03" + info[3:] + check_54454, 54460),
        ("bucket_num other than -1", info[:3] + b"\x00" * 4 + info[7:] + check_54454, 54460),
        ("Bool 2", b"\x01\x01\x01b\x04Bool\x02", 0),
        ("null map byte 7", b"\x01\x01\x01n\x0fNullable(UInt8)\x07\x00", 0),
        ("LowCardinality key version 2", lc_version_2, 0),
        ("LowCardinality without HasAdditionalKeys", lc.replace(b"\x00\x06", b"\x00\x04", 1), 0),
        ("LowCardinality index past the dictionary", lc[:-1] + b"\x09", 0),
        ("Array offsets going down",
         b"\x01\x02\x01a\x0cArray(UInt8)" + (1).to_bytes(8, "little") + bytes(8) + b"\x07", 0),
        ("Enum value outside the enum", b"\x01\x01\x01e\x0eEnum8('a' = 1)\x02", 0),
        ("a type this reader does not know", b"\x01\x01\x01x\x07UInt512\x00", 0),
    ]
    for what, data, revision in bad:
        try:
            read_blocks(data, revision)
        except NativeError:
            continue
        raise AssertionError(f"the reader accepted {what}")


def step_hello(ctx):
    display_name, version, revision, tz = ctx.client.hello()
    ctx.version = version
    expect(tz == "UTC", f"timezone() {tz!r} (the test server runs in UTC)")
    ctx.client.ping()
    r = ctx.client.query("SELECT 1", query_id="grafana-test-ping-1")
    expect(r.headers.get("x-clickhouse-query-id") == "grafana-test-ping-1",
           f"query_id not echoed: {r.headers.get('x-clickhouse-query-id')!r}")
    expect(r.headers.get("x-clickhouse-server-display-name") == display_name,
           "X-ClickHouse-Server-Display-Name differs from displayName()")
    print(f"     server {display_name} {version}, revision {revision}, timezone {tz}")


def step_auth(ctx):
    bad = GoHttpClient(ctx.server.host, ctx.server.port, {"limit": ROW_LIMIT})
    bad.auth = "Basic " + base64.b64encode(f"{USER}:wrong".encode()).decode()
    try:
        bad.query("SELECT 1")
        raise AssertionError("a wrong password was accepted")
    except ClickHouseError as e:
        expect(e.code == 516, f"wrong password: code {e.code}, expected 516 AUTHENTICATION_FAILED")
    finally:
        bad.close()


def step_insert(ctx):
    ctx.client.exec(TABLE_DDL)
    ctx.client.exec(TRACES_DDL)
    query = "INSERT INTO app_logs (" + ", ".join(COLUMNS) + ")"
    half = len(ctx.rows) // 2
    ctx.client.batch_insert(query, ctx.rows[:half])
    ctx.client.batch_insert(query, ctx.rows[half:])
    ctx.client.batch_insert("INSERT INTO otel_traces (" + ", ".join(TRACE_COLUMNS) + ")",
                            ctx.spans)
    r = ctx.client.query("SELECT count() FROM app_logs")
    expect_eq(r.rows, [(len(ctx.rows),)], "rows after the batch inserts")
    # Every value back as inserted (the batch path's encoder against the
    # server's decoder and the server's encoder against ours).
    r = ctx.client.query("SELECT " + ", ".join(COLUMNS) + " FROM app_logs ORDER BY ts")
    expect_eq(r.rows, ctx.rows, "SELECT * after the batch inserts")
    r = ctx.client.query("SELECT " + ", ".join(TRACE_COLUMNS) + " FROM otel_traces ORDER BY SpanId")
    expect_eq(r.rows, sorted(ctx.spans, key=lambda s: s[2]), "spans after the batch insert")


DESCRIBE_NAMES = ["name", "type", "default_type", "default_expression", "comment",
                  "codec_expression", "ttl_expression"]
APP_LOGS_TYPES = ["DateTime", "DateTime64(3)", "Date", "LowCardinality(String)", "String",
                  "String", "Float64", "UInt32", "Int16", "UInt64", "Bool", "Nullable(String)",
                  "Array(String)", "Map(String, String)"]


def step_schema_browser(ctx):
    c = ctx.client
    r = c.query("SHOW DATABASES")
    expect(r.names == ["name"] and r.types == ["String"],
           f"SHOW DATABASES header {r.names} {r.types}")
    expect({"default", "system"} <= set(r.column("name")), f"SHOW DATABASES: {r.rows}")
    for sql in ('SHOW TABLES FROM "default"', "SHOW TABLES"):
        r = c.query(sql)
        expect(r.names == ["name"] and r.types == ["String"], f"{sql} header {r.names} {r.types}")
        expect_eq(sorted(r.column("name")), ["app_logs", "otel_traces"], sql)
    expected = [(n, t, "", "", "", "", "") for n, t in zip(COLUMNS, APP_LOGS_TYPES)]
    for sql in ('DESC TABLE "default"."app_logs"', 'DESC TABLE "app_logs"'):
        r = c.query(sql)
        expect(r.names == DESCRIBE_NAMES, f"{sql} names {r.names}")
        expect(r.types == ["String"] * 7, f"{sql} types {r.types}")
        expect_eq(r.rows, expected, sql)
    # Ad-hoc filter keys and the tag-key lists read system.columns.
    for sql in ["SELECT name, type, table FROM system.columns WHERE database IN ('default')"
                " AND table = 'app_logs'",
                "SELECT name, type, table FROM system.columns WHERE database IN ('default')",
                "SELECT name, type, table FROM system.columns WHERE database = 'default'"
                " AND table = 'app_logs'",
                "SELECT name, type, table FROM system.columns"]:
        r = c.query(sql)
        expect(r.types == ["String"] * 3, f"{sql}: types {r.types}")
        mine = [row for row in r.rows if row[2] == "app_logs"]
        expect_eq(mine, [(n, t, "app_logs") for n, t in zip(COLUMNS, APP_LOGS_TYPES)], sql)
    # Filter-editor suggestions.
    r = c.query('SELECT DISTINCT "service" FROM "default"."app_logs" WHERE "service" IS NOT NULL'
                " LIMIT 1000")
    expect_eq(sorted(r.column("service")), sorted(SERVICES), "distinct values")
    keys = sorted({k for row in ctx.rows for k in col(row, "attrs")})
    r = c.query('SELECT DISTINCT arrayJoin(mapKeys("attrs")) as keys FROM (SELECT "attrs" FROM'
                ' "default"."app_logs" LIMIT 100000) LIMIT 1000')
    expect(r.names == ["keys"], f"map keys names {r.names}")
    expect_eq(sorted(r.column("keys")), keys, "map keys (row sample)")
    r = c.query('SELECT DISTINCT arrayJoin(mapKeys("attrs")) as keys FROM "default"."app_logs"'
                ' WHERE "ts" >= now() - INTERVAL 6 HOUR LIMIT 1000')
    # An empty result: ClickHouse's Native output may hold no block at all
    # (clickhouse-go then shows no columns) or a header block.
    expect(r.names in (["keys"], []) and r.rows == [], f"map keys of the last 6 hours: {r.rows}")
    r = c.query('SELECT DISTINCT "attrs"[\'region\'] FROM "default"."app_logs" WHERE'
                " mapContains(\"attrs\", 'region') LIMIT 1000")
    expect_eq(sorted(r.rows), [("eu",), ("us",)], "distinct map values")
    r = c.query('select distinct "level" from "default"."app_logs" limit 1000')
    expect_eq(sorted(r.column("level")), sorted(set(LEVELS)), "tag values")
    # The SQL editor's function list (fetchSqlFunctions, text as sent).
    r = c.query("""
      SELECT
        name, is_aggregate, case_insensitive, alias_to, origin, description,
        syntax, arguments, returned_value, examples, categories
      FROM system.functions
      LIMIT 10000
    """)
    expect(r.names == ["name", "is_aggregate", "case_insensitive", "alias_to", "origin",
                       "description", "syntax", "arguments", "returned_value", "examples",
                       "categories"], f"system.functions names {r.names}")
    funcs = {row[0]: row for row in r.rows}
    for name in ("count", "sum", "toStartOfInterval", "multiSearchAny", "toJSONString",
                 "fromUnixTimestamp64Milli", "toUnixTimestamp64Milli", "displayName", "revision"):
        expect(name in funcs, f"system.functions lacks {name}")
    expect(funcs["sum"][1] == 1 and funcs["count"][1] == 1 and funcs["toJSONString"][1] == 0,
           "is_aggregate")
    expect(all(row[4] in ("System", "SQLUserDefined", "ExecutableUserDefined") for row in r.rows),
           "origin values")
    # Ad-hoc filters need version() >= 22.7 (canUseAdhocFilters).
    r = c.query("SELECT version()")
    expect_eq(r.rows, [(ctx.version,)], "SELECT version()")


def step_variables(ctx):
    c = ctx.client
    r = c.query("SELECT name FROM system.databases ORDER BY name")
    names = r.column("name")
    expect(names == sorted(names) and {"default", "system"} <= set(names), f"databases {names}")
    r = c.query("SELECT name FROM system.tables WHERE database = 'default' ORDER BY name")
    expect_eq(r.column("name"), ["app_logs", "otel_traces"], "tables variable")
    r = c.query("SELECT name FROM system.tables ORDER BY name")
    names = r.column("name")
    expect(names == sorted(names) and {"app_logs", "otel_traces"} <= set(names), "all tables")
    r = c.query("SELECT name FROM system.columns WHERE database = 'default' AND table = 'app_logs'"
                " ORDER BY name")
    expect_eq(r.column("name"), sorted(COLUMNS), "columns variable")
    r = c.query('SELECT DISTINCT "service" AS value FROM "default"."app_logs" WHERE "service" IS'
                " NOT NULL ORDER BY value LIMIT 1000")
    expect_eq(r.column("value"), sorted(SERVICES), "column values variable")
    r = c.query('SELECT DISTINCT "attrs"[\'host\'] AS value FROM "default"."app_logs" WHERE'
                " mapContains(\"attrs\", 'host') ORDER BY value LIMIT 1000")
    expect_eq(r.column("value"), [f"h{i}" for i in range(5)], "map column values variable")


def step_time_series(ctx):
    # Trend mode: buckets of $__interval, one series per service.
    r = ctx.run(TS_TREND_QUERY)
    expect(r.names == ["time", "service", "total", "count()"], f"names {r.names}")
    expect(r.types == ["DateTime", "String", "Float64", "UInt64"], f"types {r.types}")
    groups = {}
    for row in ctx.rows:
        b = bucket(col(row, "ts"), INTERVAL_S)
        if col(row, "level") == "error" and in_range(b):
            g = groups.setdefault((b, col(row, "service")), [0.0, 0])
            g[0] += col(row, "value")
            g[1] += 1
    times = r.column("time")
    expect(times == sorted(times), "ORDER BY time ASC")
    expect_eq(sorted(r.rows), sorted((b, s, v[0], v[1]) for (b, s), v in groups.items()),
              "time series (trend)")
    # List mode: the raw points.
    r = ctx.run(TS_LIST_QUERY)
    expect(r.names == ["time", "value", "latency_ms"], f"names {r.names}")
    expected = [(col(row, "ts"), col(row, "value"), col(row, "latency_ms")) for row in ctx.rows
                if in_range(col(row, "ts")) and col(row, "value") > 0]
    expect_eq(r.rows, expected, "time series (list)")
    # $__columns (statement macro without a window).
    r = ctx.run("$__columns(ts, service, count() AS c) FROM app_logs WHERE level != 'debug'")
    expect(r.names == ["t", "metric", "c"], f"names {r.names}")
    counts = {}
    for row in ctx.rows:
        if in_range(col(row, "ts")) and col(row, "level") != "debug":
            k = (bucket(col(row, "ts"), INTERVAL_S), col(row, "service"))
            counts[k] = counts.get(k, 0) + 1
    expect_eq(r.rows, sorted((b, s, n) for (b, s), n in counts.items()), "$__columns")


def step_tables(ctx):
    r = ctx.run(TABLE_LIST_QUERY)
    names = ["ts", "level", "message", "service", "trace_id", "tags", "attrs", "ok", "bytes",
             "status"]
    expect(r.names == names, f"names {r.names}")
    types = dict(zip(COLUMNS, APP_LOGS_TYPES))
    for n, t in zip(names, r.types):
        expect(t == types[n] or (types[n] == "LowCardinality(String)" and t == "String"),
               f"column {n}: type {t}, the table says {types[n]}")
    rows = [row for row in ctx.rows
            if in_range(col(row, "ts")) and col(row, "attrs").get("region") == "eu"
            and col(row, "trace_id") is not None and "timeout" not in col(row, "message")
            and col(row, "status") != 404]
    rows.sort(key=lambda row: -col(row, "ts"))
    expected = [tuple(col(row, n) for n in names) for row in rows[:50]]
    expect(len(expected) > 10, "the table filters leave too few rows to mean much")
    expect_eq(r.rows, expected, "table (list)")
    ctx.table_list_expected = expected

    r = ctx.run(TABLE_AGG_QUERY)
    expect(r.names == ["service", "n", "avg_latency", "max(bytes)"], f"names {r.names}")
    expect(r.types == ["String", "UInt64", "Float64", "UInt64"], f"types {r.types}")
    groups = {}
    for row in ctx.rows:
        keep = (in_range(col(row, "ts")) and col(row, "level") in ("error", "warn", "ERROR")) \
            or "disk" in col(row, "message").lower()
        if keep:
            groups.setdefault(col(row, "service"), []).append(row)
    expected = [(s, len(g), sum(col(x, "latency_ms") for x in g) / len(g),
                 max(col(x, "bytes") for x in g)) for s, g in groups.items()]
    expected.sort(key=lambda e: (-e[1], e[0]))
    expect_eq(r.rows, expected, "table (aggregate)")


def step_logs(ctx):
    r = ctx.run(LOGS_QUERY)
    expect(r.names == ["timestamp", "body", "level", "traceID", "service", "attrs"],
           f"names {r.names}")
    expect(r.types[0] == "DateTime64(3)", f"timestamp type {r.types[0]}")
    rows = [row for row in ctx.rows
            if FROM_S * 1000 <= col(row, "ts64") <= TO_S * 1000
            and col(row, "level") in ("error", "critical") and "disk" in col(row, "message")]
    rows.sort(key=lambda row: -col(row, "ts64"))
    expected = [tuple(col(row, n) for n in ("ts64", "message", "level", "trace_id", "service",
                                              "attrs")) for row in rows]
    expect(expected, "the logs filters leave no row")
    expect_eq(r.rows, expected, "logs")

    r = ctx.run(LOGS_FILTER_TIME_QUERY)
    expect(r.names == ["timestamp", "body", "level"], f"names {r.names}")
    rows = [row for row in ctx.rows if in_range(col(row, "ts"))]
    rows.sort(key=lambda row: (-col(row, "ts"), -col(row, "ts64")))
    expect_eq(r.rows, [(col(x, "ts64"), col(x, "message"), col(x, "level")) for x in rows],
              "logs ordered by (FilterTime, Time)")

    for level_filter in (True, False):
        r = ctx.run(logs_volume_sql(level_filter))
        expect(r.names == ["time"] + list(LOG_LEVELS), f"names {r.names}")
        buckets = {}
        for row in ctx.rows:
            b = bucket(col(row, "ts64") // 1000, 60)
            if in_range(b) and "disk" in col(row, "message") and \
                    (not level_filter or col(row, "level") in ("error", "critical")):
                counts = buckets.setdefault(b, [0] * len(LOG_LEVELS))
                for i, level in enumerate(LOG_LEVELS):  # multiSearchAny: any substring
                    if any(w in col(row, "level") for w in level_needles(level)):
                        counts[i] += 1
        expect_eq(r.rows, [(b, *c) for b, c in sorted(buckets.items())],
                  f"logs volume ({'with' if level_filter else 'without'} the level filter)")

    # A hand-written logs query with the plugin's millisecond helpers.
    r = ctx.run("SELECT toUnixTimestamp64Milli(ts64) AS ts_ms, level,"
                " toJSONString(attrs) AS labels, mapKeys(attrs) AS keys,"
                " toJSONString(tags) AS tags_json FROM app_logs"
                " WHERE $__timeFilter_ms(ts64) ORDER BY ts64 LIMIT 20")
    expect(r.types == ["Int64", "LowCardinality(String)", "String", "Array(String)", "String"]
           or r.types == ["Int64", "String", "String", "Array(String)", "String"],
           f"types {r.types}")
    rows = [row for row in ctx.rows if FROM_S * 1000 <= col(row, "ts64") <= TO_S * 1000][:20]
    expect_eq(r.rows, [(col(x, "ts64"), col(x, "level"), json_compact(col(x, "attrs")),
                        list(col(x, "attrs")), json_compact(col(x, "tags"))) for x in rows],
              "toUnixTimestamp64Milli / toJSONString / mapKeys")


def json_compact(value):
    """ClickHouse's JSON text of a String map or array (no spaces, / escaped)."""
    import json
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).replace("/", "\\/")


def step_traces(ctx):
    r = ctx.run(TRACE_SEARCH_QUERY)
    expect(r.names == ["traceID", "serviceName", "operationName", "startTime", "duration"],
           f"names {r.names}")
    rows = [s for s in ctx.spans if FROM_S * 10**9 <= span(s, "Timestamp") <= TO_S * 10**9
            and span(s, "ParentSpanId") == "" and span(s, "Duration") > 0]
    rows.sort(key=lambda s: (-span(s, "Timestamp"), -span(s, "Duration")))
    expect(rows, "the trace search filters leave no span")
    expect_eq(r.rows, [(span(s, "TraceId"), span(s, "ServiceName"), span(s, "SpanName"),
                        span(s, "Timestamp"), span(s, "Duration") * 0.000001) for s in rows],
              "trace search")

    r = ctx.run(TRACE_ID_QUERY)
    expect(r.names == ["traceID", "spanID", "parentSpanID", "serviceName", "operationName",
                       "startTime", "duration", "tags", "serviceTags", "statusCode", "kind",
                       "statusMessage"], f"names {r.names}")
    rows = sorted((s for s in ctx.spans if span(s, "TraceId") == "trace-b"),
                  key=lambda s: span(s, "SpanId"))
    expected = [(span(s, "TraceId"), span(s, "SpanId"), span(s, "ParentSpanId"),
                 span(s, "ServiceName"), span(s, "SpanName"), span(s, "Timestamp") * 0.000001,
                 span(s, "Duration") * 0.000001,
                 [{"key": k, "value": v} for k, v in span(s, "SpanAttributes").items()],
                 [{"key": k, "value": v} for k, v in span(s, "ResourceAttributes").items()],
                 2 if span(s, "StatusCode") in ("Error", "STATUS_CODE_ERROR") else 0,
                 span(s, "SpanKind"), span(s, "StatusMessage")) for s in rows]
    expect_eq(sorted(r.rows, key=lambda x: x[1]), expected, "trace by id")


def step_macros(ctx):
    rows = ctx.rows
    r = ctx.run("SELECT $__timeInterval(ts) AS t, count() AS c, sum(bytes) AS b FROM app_logs"
                " WHERE $__timeFilter(ts) GROUP BY t ORDER BY t")
    groups = {}
    for row in rows:
        if in_range(col(row, "ts")):
            g = groups.setdefault(bucket(col(row, "ts"), INTERVAL_S), [0, 0])
            g[0] += 1
            g[1] += col(row, "bytes")
    expect_eq(r.rows, [(b, g[0], g[1]) for b, g in sorted(groups.items())],
              "$__timeInterval / $__timeFilter")

    ms = Macros(FROM_S * 1000 + 250, TO_S * 1000 - 250, 30000)
    r = ctx.run("SELECT $__timeInterval_ms(ts64) AS t, count() AS c FROM app_logs"
                " WHERE $__timeFilter_ms(ts64) GROUP BY t ORDER BY t", macros=ms)
    expect(r.types == ["DateTime64(3)", "UInt64"], f"types {r.types}")
    groups = {}
    for row in rows:
        if ms.frm_ms <= col(row, "ts64") <= ms.to_ms:
            b = bucket(col(row, "ts64"), 30000)
            groups[b] = groups.get(b, 0) + 1
    expect_eq(r.rows, sorted(groups.items()), "$__timeInterval_ms / $__timeFilter_ms")

    r = ctx.run("SELECT min(ts64) AS lo, max(ts64) AS hi, count() AS c FROM app_logs"
                " WHERE ts64 >= $__fromTime_ms AND ts64 < $__toTime_ms", macros=ms)
    sel = [col(x, "ts64") for x in rows if ms.frm_ms <= col(x, "ts64") < ms.to_ms]
    expect_eq(r.rows, [(min(sel), max(sel), len(sel))], "$__fromTime_ms / $__toTime_ms")

    day = FROM_S // 86400
    r = ctx.run("SELECT day, count() AS c FROM app_logs WHERE $__dateFilter(day) GROUP BY day"
                " ORDER BY day")
    expect_eq(r.rows, [(day, sum(1 for x in rows if col(x, "day") == day))], "$__dateFilter")
    n = sum(1 for x in rows if in_range(col(x, "ts")))
    r = ctx.run("SELECT count() AS c FROM app_logs WHERE $__dateTimeFilter(day, ts)")
    expect_eq(r.rows, [(n,)], "$__dateTimeFilter")
    r = ctx.run("SELECT count() AS c FROM app_logs WHERE $__dt(day, ts)")
    expect_eq(r.rows, [(n,)], "$__dt")
    r = ctx.run("SELECT count() AS c FROM app_logs WHERE $__timeFrom(ts) AND $__timeTo(ts)")
    expect_eq(r.rows, [(n,)], "$__timeFrom / $__timeTo")
    r = ctx.run("SELECT $__timeGroup(ts, '5m') AS t, count() AS c FROM app_logs"
                " WHERE $__timeFilter(ts) GROUP BY t ORDER BY t")
    groups = {}
    for row in rows:
        if in_range(col(row, "ts")):
            b = bucket(col(row, "ts"), 300)
            groups[b] = groups.get(b, 0) + 1
    expect_eq(r.rows, sorted(groups.items()), "$__timeGroup")
    # The bundled OTel logs dashboard's shape: $__interval_s inside INTERVAL.
    r = ctx.run("SELECT toStartOfInterval(ts, INTERVAL $__interval_s second) AS time, level AS"
                " metric, count() AS count FROM app_logs WHERE $__timeFilter(ts)"
                " GROUP BY time, metric ORDER BY time")
    groups = {}
    for row in rows:
        if in_range(col(row, "ts")):
            k = (bucket(col(row, "ts"), INTERVAL_S), col(row, "level"))
            groups[k] = groups.get(k, 0) + 1
    times = r.column("time")
    expect(times == sorted(times), "ORDER BY time")
    expect_eq(sorted(r.rows), sorted((b, lv, c) for (b, lv), c in groups.items()),
              "$__interval_s")


def step_limit_setting(ctx):
    """The data source's row limit: limit=<n> on every request caps every
    SELECT's result (as if it were wrapped in SELECT * FROM (...) LIMIT n)."""
    small = GoHttpClient(ctx.server.host, ctx.server.port, {"limit": 7})
    try:
        small.hello()
        small.ping()
        r = small.query(ctx.macros.expand(TABLE_LIST_QUERY))
        expect_eq(r.rows, ctx.table_list_expected[:7], "table (list) with limit=7")
        r = small.query("SHOW DATABASES")
        expect({"default", "system"} <= set(r.column("name")), "SHOW DATABASES with limit=7")
        r = small.query('DESC TABLE "default"."app_logs"')
        expect(len(r.rows) == len(COLUMNS), "DESC TABLE with limit=7")
    finally:
        small.close()


def step_compression(ctx):
    """A custom setting enable_http_compression=1: the answer to the
    client's Accept-Encoding: gzip comes back gzip-compressed."""
    gz = GoHttpClient(ctx.server.host, ctx.server.port,
                      {"limit": ROW_LIMIT, "enable_http_compression": 1})
    try:
        gz.hello()
        plain = ctx.run(TS_LIST_QUERY)
        resp, raw = gz._post(gz._url(), {"Accept-Encoding": "gzip"},
                             ctx.macros.expand(TS_LIST_QUERY).encode())
        expect(resp.status == 200, f"status {resp.status}")
        expect(resp.getheader("Content-Encoding") == "gzip",
               f"Content-Encoding {resp.getheader('Content-Encoding')!r}")
        r = gz.query(ctx.macros.expand(TS_LIST_QUERY))
        expect_eq(r.rows, plain.rows, "gzip answer")
    finally:
        gz.close()


def step_midstream_error(ctx):
    """An error after the first bytes: clickhouse-go finds the __exception__
    frame (tagged by X-ClickHouse-Exception-Tag) where the next block would
    be and reports the server's error."""
    # The first 65536 rows (5 MB) are sent before the failing row is
    # computed; the row limit (limit=100000) lets the query reach it.
    sql = ("SELECT number, repeat('x', 64) AS s, throwIf(number = 70000, 'boom') AS t"
           " FROM numbers(80000)")
    resp, data = ctx.client._post(ctx.client._url(), {"Accept-Encoding": "gzip"}, sql.encode())
    expect(resp.status == 200, f"status {resp.status}: the error was not after the first bytes")
    try:
        read_blocks(data, ctx.client.revision)
        raise AssertionError("the stream decoded although the query failed")
    except NativeError:
        pass
    expect(re.search(rb"Code: 395\. DB::Exception: .*boom", data) is not None,
           f"no error text at the end: {data[-200:]!r}")
    tag = resp.getheader("X-ClickHouse-Exception-Tag") or ""
    expect(data.endswith(f"{tag}\r\n__exception__\r\n".encode()) and len(tag) == 16,
           f"no __exception__ frame with the tag {tag!r}: {data[-200:]!r}")
    # The connection is still usable afterwards.
    ctx.client.ping()


def step_unsupported(ctx):
    for what, why, sql in UNSUPPORTED_SHAPES:
        try:
            ctx.client.query(sql)
        except ClickHouseError as e:
            print(f"     unsupported ({why}): {what}: error {e.code}")
            continue
        raise AssertionError(f"{what}: answered, but muscles was expected to refuse it ({why})")


STEPS = [
    ("the test's Native codec", step_codec, True),
    ("hello, ping, query_id", step_hello, True),
    ("wrong password", step_auth, False),
    ("DDL and clickhouse-go batch insert", step_insert, True),
    ("schema browser", step_schema_browser, False),
    ("template variables", step_variables, False),
    ("time series panels", step_time_series, False),
    ("table panels", step_tables, False),
    ("logs panels and logs volume", step_logs, False),
    ("traces panels (no events, no links)", step_traces, False),
    ("macros", step_macros, False),
    ("row limit setting", step_limit_setting, False),
    ("gzip answers", step_compression, False),
    ("error after the first bytes", step_midstream_error, False),
    ("known unsupported shapes", step_unsupported, False),
]


class GrafanaServer(MusclesServer):
    """muscles with a users file holding the data source's user."""

    def __init__(self):
        super().__init__()
        fd, self.users_path = tempfile.mkstemp(prefix="muscles-grafana-users-")
        digest = hashlib.sha256(PASSWORD.encode()).hexdigest()
        with os.fdopen(fd, "w") as f:
            f.write(f"# the data source's user\n{USER} {digest}\n")

    def _spawn(self, argv, env, preexec=None):
        env = dict(env, MUSCLES_SECURITY_USERS_FILE=self.users_path)
        super()._spawn(argv, env, preexec)

    def stop(self):
        try:
            super().stop()
        finally:
            if os.path.exists(self.users_path):
                os.unlink(self.users_path)


def main():
    server = GrafanaServer().start()
    failures = 0
    try:
        ctx = Context(server)
        for name, fn, required in STEPS:
            try:
                fn(ctx)
                print(f"ok   {name}")
            except (AssertionError, ClickHouseError, NativeError) as e:
                failures += 1
                print(f"FAIL {name}: {e}")
                if required:
                    break
        ctx.client.close()
        status = server.exit_status()
        if status is not None:
            print(f"FAIL the server {status}:\n{server.log_tail()}")
            failures += 1
        print(f"{ctx.client.requests} requests as clickhouse-go sends them, "
              f"{failures} failed step(s)")
    finally:
        server.stop()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
