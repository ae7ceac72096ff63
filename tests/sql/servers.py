"""Servers for the SQL corpus: the real `muscles` binary, Debian's
ClickHouse 18.16 (the differential peer) or any server given by URL.

Every server is spoken to over HTTP on loopback, one POST per statement:
`query(sql, database)` returns a Result (status, body, ClickHouse error
code). Servers this module starts get a free port below Linux's ephemeral
range, a temporary directory (removed by stop()) and run as foreground
child processes that stop() ends by pid: SIGTERM, then SIGKILL past a
timeout.
"""

import http.client
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.parse

HOST = "127.0.0.1"
READY_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 15.0
QUERY_TIMEOUT_S = 120.0
IDLE_RECONNECT_S = 5.0


class ServerError(Exception):
    """A server could not be started or stopped properly."""


def free_port(exclude=()):
    """A port that was free a moment ago, below the ephemeral range
    (32768-60999) so outgoing connections cannot take it before the bind."""
    for _ in range(500):
        port = random.randint(20000, 32000)
        if port in exclude:
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind((HOST, port))
            except OSError:
                continue
            return port
    raise ServerError("no free port in 20000-32000")


class Result:
    """One statement's answer. `code` is the ClickHouse error code (from
    X-ClickHouse-Exception-Code, else the `Code: N` of the body) or None."""

    def __init__(self, status, body, code, headers=()):
        self.status = status
        self.body = body
        self.code = code
        self.headers = {k.lower(): v for k, v in headers}  # names in lower case

    @property
    def ok(self):
        return self.code is None and 200 <= self.status < 300

    def message(self):
        return self.body.decode("utf-8", "replace").strip()


_CODE_RE = re.compile(rb"Code:\s*(\d+)")
_TRAILING_ERROR_RE = re.compile(
    rb"(?:(?:^|\n)Code: (\d+)[.,] [^\n]*DB::Exception[^\n]*\n?$)|"
    # current ClickHouse (and muscles): the tagged frame
    rb"(?:\r\n__exception__\r\n[a-z0-9]{16}\r\nCode: (\d+)\. [^\r]*\r\n\d+ [a-z0-9]{16}\r\n"
    rb"__exception__\r\n$)")


class HttpServer:
    """A server reachable at http://host:port/ (started elsewhere)."""

    name = "server"

    def __init__(self, url=None):
        self.host = HOST
        self.port = None
        if url:
            parsed = urllib.parse.urlsplit(url if "//" in url else "http://" + url)
            if parsed.scheme not in ("", "http"):
                raise ServerError(f"only http:// servers are supported: {url}")
            self.host = parsed.hostname or HOST
            self.port = parsed.port or 8123
        self._conn = None
        self._last_used = 0.0

    @property
    def url(self):
        return f"http://{self.host}:{self.port}/"

    def _connection(self):
        if self._conn is None:
            self._conn = http.client.HTTPConnection(self.host, self.port,
                                                    timeout=QUERY_TIMEOUT_S)
        return self._conn

    def query(self, sql, database=None, params=None):
        """POSTs `sql` (str or bytes) as the body; returns a Result. One
        keep-alive connection per HttpServer object, replaced when it was
        idle for a while (the server may have closed it). A statement is
        never sent twice: connection errors propagate (OSError or
        http.client.HTTPException)."""
        qs = {}
        if database:
            qs["database"] = database
        qs.update(params or {})
        path = "/" + ("?" + urllib.parse.urlencode(qs) if qs else "")
        body = sql.encode("utf-8") if isinstance(sql, str) else sql
        if self._conn is not None and time.monotonic() - self._last_used > IDLE_RECONNECT_S:
            self.close()
        conn = self._connection()
        try:
            conn.request("POST", path, body=body,
                         headers={"Content-Type": "text/plain; charset=UTF-8"})
            resp = conn.getresponse()
            data = resp.read()
        except BaseException:
            self.close()
            raise
        self._last_used = time.monotonic()
        if (resp.getheader("Connection") or "").lower() == "close":
            self.close()
        code = resp.getheader("X-ClickHouse-Exception-Code")
        if code is not None:
            code = int(code)
        elif not 200 <= resp.status < 300:
            m = _CODE_RE.search(data)
            code = int(m.group(1)) if m else -1
        else:
            # An error after the first bytes were sent (status already
            # 200) is appended to the body as its last line.
            m = _TRAILING_ERROR_RE.search(data)
            if m:
                code = int(m.group(1) or m.group(2))
        return Result(resp.status, data, code, resp.getheaders())

    def query_ok(self, sql, database=None):
        r = self.query(sql, database)
        if not r.ok:
            raise ServerError(f"{self.name}: `{sql}` failed: {r.message()}")
        return r.body

    def close(self):
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def is_muscles(self):
        """Whether the server is muscles (it answers with
        `X-ClickHouse-Server-Display-Name: muscles`; ClickHouse sends its
        host name there, 18.16 no such header)."""
        try:
            r = self.query("SELECT 1")
        finally:
            self.close()
        return r.headers.get("x-clickhouse-server-display-name") == "muscles"

    def start(self):
        return self

    def stop(self):
        self.close()

    def exit_status(self):
        """None while running (or not started here), else how it ended."""
        return None

    def log_tail(self, lines=40):
        return ""

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


class _Process(HttpServer):
    """Shared part of the servers this module starts itself."""

    def __init__(self, prefix):
        super().__init__()
        self.prefix = prefix
        self.tmp = tempfile.mkdtemp(prefix=prefix)
        self.proc = None
        self.log_path = os.path.join(self.tmp, "server.out")
        self._log = None

    def _spawn(self, argv, env, preexec=None):
        self._log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(argv, env=env, stdout=self._log,
                                     stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     preexec_fn=preexec)

    def _ready(self):
        raise NotImplementedError

    def _wait_ready(self):
        deadline = time.monotonic() + READY_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise ServerError(f"{self.name} exited with {self.proc.returncode} during "
                                  f"start-up:\n{self.log_tail()}")
            try:
                if self._ready():
                    return
            except (OSError, http.client.HTTPException):
                self.close()
            time.sleep(0.05)
        raise ServerError(f"{self.name} not ready on port {self.port} within "
                          f"{READY_TIMEOUT_S:.0f} s:\n{self.log_tail()}")

    def exit_status(self):
        if self.proc is None or self.proc.poll() is None:
            return None
        rc = self.proc.returncode
        if rc < 0:
            try:
                return f"killed by signal {signal.Signals(-rc).name}"
            except ValueError:
                return f"killed by signal {-rc}"
        return f"exited with status {rc}"

    def log_tail(self, lines=40):
        try:
            with open(self.log_path, "rb") as f:
                text = f.read().decode("utf-8", "replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def restart(self):
        """A fresh server (new port and empty data directory) after a crash."""
        self.stop()
        self.tmp = tempfile.mkdtemp(prefix=self.prefix)
        self.log_path = os.path.join(self.tmp, "server.out")
        self.proc = None
        return self.start()

    def stop(self):
        self.close()
        try:
            if self.proc is not None and self.proc.poll() is None:
                self.proc.send_signal(signal.SIGTERM)
                try:
                    self.proc.wait(timeout=STOP_TIMEOUT_S)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
        finally:
            if self._log is not None:
                self._log.close()
                self._log = None
            shutil.rmtree(self.tmp, ignore_errors=True)


class MusclesServer(_Process):
    """`muscles server` from $MUSCLES_BIN (or `binary`) on a temporary data
    directory; ready once GET /ready answers 200."""

    name = "muscles"

    def is_muscles(self):
        return True

    def __init__(self, binary=None):
        super().__init__("muscles-sql-")
        self.binary = binary or os.environ.get("MUSCLES_BIN")
        if not self.binary:
            raise ServerError("MUSCLES_BIN is not set (run through ctest, or export "
                              "MUSCLES_BIN=/path/to/muscles, or pass --server URL)")
        if not os.access(self.binary, os.X_OK):
            raise ServerError(f"MUSCLES_BIN={self.binary} is not an executable file")

    def _ready(self):
        conn = http.client.HTTPConnection(HOST, self.port, timeout=2)
        try:
            conn.request("GET", "/ready")
            return conn.getresponse().status == 200
        finally:
            conn.close()

    def start(self):
        for attempt in range(3):
            self.port = free_port()
            env = {k: v for k, v in os.environ.items() if not k.startswith("MUSCLES_")}
            env.update({"MUSCLES_HTTP_PORT": str(self.port),
                        "MUSCLES_HTTP_LISTEN_HOST": HOST,
                        "MUSCLES_STORAGE_DATA_DIR": os.path.join(self.tmp, "data"),
                        "TZ": "UTC"})
            self._spawn([self.binary, "server"], env)
            try:
                self._wait_ready()
                return self
            except ServerError:
                # Another process may have taken the port before the bind.
                if attempt == 2 or self.proc.poll() is None or "in use" not in self.log_tail():
                    self.stop()
                    raise
                self._log.close()
        return self


CLICKHOUSE_CONFIG = """<?xml version="1.0"?>
<yandex>
  <logger>
    <level>warning</level>
    <log>{dir}/logs/server.log</log>
    <errorlog>{dir}/logs/error.log</errorlog>
    <size>100M</size>
    <count>1</count>
  </logger>
  <listen_host>{host}</listen_host>
  <http_port>{http_port}</http_port>
  <tcp_port>{tcp_port}</tcp_port>
  <path>{dir}/data/</path>
  <tmp_path>{dir}/tmp/</tmp_path>
  <user_files_path>{dir}/user_files/</user_files_path>
  <format_schema_path>{dir}/format_schemas/</format_schema_path>
  <users_config>{dir}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mark_cache_size>104857600</mark_cache_size>
  <max_concurrent_queries>100</max_concurrent_queries>
</yandex>
"""

# The peer's default profile sets what makes 18.16 behave like current
# ClickHouse's defaults where 18.16 has a setting for it:
#   join_default_strictness=ALL  plain `JOIN` means ALL JOIN (18.16 wants
#                                ANY or ALL written out otherwise);
#   max_threads=1                deterministic order of non-ORDER BY results
#                                (any(), groupArray(), ...) on both sides;
#   max_execution_time=60        no runaway query (18.16 reads numbers(0)
#                                as an endless table).
CLICKHOUSE_USERS = """<?xml version="1.0"?>
<yandex>
  <profiles><default>
    <max_memory_usage>4000000000</max_memory_usage>
    <join_default_strictness>ALL</join_default_strictness>
    <max_threads>1</max_threads>
    <max_execution_time>60</max_execution_time>
  </default></profiles>
  <users>
    <default>
      <password></password>
      <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </default>
  </users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors>
    <result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time>
  </interval></default></quotas>
</yandex>
"""


def clickhouse_server_binary():
    for path in (shutil.which("clickhouse-server"), "/usr/sbin/clickhouse-server",
                 "/usr/bin/clickhouse-server"):
        if path and os.access(path, os.X_OK):
            return path
    return None


class ClickHouseServer(_Process):
    """Debian's clickhouse-server (18.16) with a temporary config and data
    directory, listening on 127.0.0.1 only, as a foreground child. As root
    it runs as the `clickhouse` user (it refuses root-owned data otherwise)."""

    name = "clickhouse"

    def is_muscles(self):
        return False

    def __init__(self, binary=None):
        super().__init__("clickhouse-sql-")
        self.binary = binary or clickhouse_server_binary()
        if not self.binary:
            raise ServerError("clickhouse-server is not installed "
                              "(apt-get install clickhouse-server)")
        self.version = None

    def _ready(self):
        r = self.query("SELECT version()")
        if r.ok:
            self.version = r.body.decode().strip()
            return True
        return False

    def start(self):
        for d in ("data", "tmp", "user_files", "format_schemas", "logs"):
            os.makedirs(os.path.join(self.tmp, d), exist_ok=True)
        preexec = None
        if os.getuid() == 0:
            import pwd
            try:
                pw = pwd.getpwnam("clickhouse")
            except KeyError:
                pw = None
            if pw is not None:
                os.chmod(self.tmp, 0o755)
                for root, dirs, files in os.walk(self.tmp):
                    os.chown(root, pw.pw_uid, pw.pw_gid)
                    for f in files:
                        os.chown(os.path.join(root, f), pw.pw_uid, pw.pw_gid)
                uid, gid = pw.pw_uid, pw.pw_gid

                def preexec():
                    os.setgroups([gid])
                    os.setgid(gid)
                    os.setuid(uid)
        for attempt in range(3):
            self.port = free_port()
            tcp_port = free_port(exclude=(self.port,))
            with open(os.path.join(self.tmp, "config.xml"), "w") as f:
                f.write(CLICKHOUSE_CONFIG.format(dir=self.tmp, host=HOST, http_port=self.port,
                                                 tcp_port=tcp_port))
            with open(os.path.join(self.tmp, "users.xml"), "w") as f:
                f.write(CLICKHOUSE_USERS)
            env = dict(os.environ, TZ="UTC")
            self._spawn([self.binary, "--config-file=" + os.path.join(self.tmp, "config.xml")],
                        env, preexec)
            try:
                self._wait_ready()
                return self
            except ServerError:
                if attempt == 2 or self.proc.poll() is None:
                    self.stop()
                    raise
                self._log.close()
        return self

    def log_tail(self, lines=40):
        text = super().log_tail(lines)
        try:
            with open(os.path.join(self.tmp, "logs", "error.log"), "rb") as f:
                err = f.read().decode("utf-8", "replace").splitlines()[-lines:]
            text += "\n" + "\n".join(err)
        except OSError:
            pass
        return text


class Supervisor:
    """Shares one server between worker threads and restarts it (when this
    script started it) after it died."""

    def __init__(self, server):
        self.server = server
        self.lock = threading.Lock()
        self.crashes = 0

    def url(self):
        with self.lock:
            return self.server.url

    def check(self, lost_connection=False):
        """None if the server is alive, else how it ended (and restarts it).
        After a lost connection the process may take a moment to exit."""
        with self.lock:
            status = self.server.exit_status()
            deadline = time.monotonic() + (5.0 if lost_connection else 0.0)
            while status is None and time.monotonic() < deadline:
                time.sleep(0.05)
                status = self.server.exit_status()
            if status is None:
                return None
            self.crashes += 1
            tail = self.server.log_tail(15)
            try:
                self.server.restart()
            except ServerError as e:
                raise ServerError(f"{self.server.name} {status}; restart failed: {e}")
            return f"{self.server.name} {status}; log tail:\n{tail}"


def make_server(spec):
    """`muscles` (start $MUSCLES_BIN), `clickhouse` (start 18.16) or a URL."""
    if spec in (None, "", "muscles"):
        return MusclesServer()
    if spec == "clickhouse":
        return ClickHouseServer()
    return HttpServer(spec)
