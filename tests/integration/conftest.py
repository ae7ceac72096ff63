"""Harness for the integration suite: runs the real `muscles` binary.

The binary comes from $MUSCLES_BIN (set by ctest, test `integration`). Each
server gets a free loopback port (bound to port 0 here, closed, then passed
as MUSCLES_HTTP_PORT), a temporary data directory (MUSCLES_STORAGE_DATA_DIR)
and an environment without any MUSCLES_* variable of the caller. `start()`
waits for GET /ready; `stop()` sends SIGTERM and, past a timeout, SIGKILL,
and returns the exit code so tests can assert a clean exit (0).
"""

import os
import re
import signal
import socket
import subprocess
import tempfile
import time

import pytest

READY_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 10.0


def muscles_bin():
    path = os.environ.get("MUSCLES_BIN")
    if not path:
        pytest.fail("MUSCLES_BIN is not set: run the suite through ctest "
                    "(ctest -R integration) or export MUSCLES_BIN=/path/to/muscles")
    if not os.access(path, os.X_OK):
        pytest.fail(f"MUSCLES_BIN={path} is not an executable file")
    return path


def repo_root():
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    """A port that was free a moment ago, chosen below Linux's ephemeral
    range (32768-60999) so that outgoing connections of parallel tests
    cannot take it between this check and the server's bind."""
    import random
    for _ in range(200):
        port = random.randint(20000, 32000)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError("no free port in 20000-32000")


def clean_env(extra=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("MUSCLES_")}
    env.update(extra or {})
    return env


def run_muscles(args, env_extra=None, timeout=10):
    """Runs the binary to completion (version, help, failing start-ups)."""
    return subprocess.run([muscles_bin()] + list(args), env=clean_env(env_extra),
                          capture_output=True, text=True, timeout=timeout)


class HttpResponse:
    def __init__(self, status, reason, headers, body):
        self.status = status
        self.reason = reason
        self.headers = headers  # list of (name, value) as sent
        self.body = body

    def header(self, name):
        for k, v in self.headers:
            if k.lower() == name.lower():
                return v
        return None


class RawConnection:
    """A blocking client socket that reads responses byte-exactly, so tests
    can send malformed, partial or pipelined requests."""

    def __init__(self, port, timeout=5.0):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""

    def send(self, data):
        if isinstance(data, str):
            data = data.encode()
        self.sock.sendall(data)

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise EOFError("connection closed by the server")
        self.buf += chunk

    def _line(self):
        while b"\r\n" not in self.buf:
            self._fill()
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def _exact(self, n):
        while len(self.buf) < n:
            self._fill()
        data, self.buf = self.buf[:n], self.buf[n:]
        return data

    def read_response(self, head=False):
        status_line = self._line().decode("latin-1")
        m = re.match(r"HTTP/1\.1 (\d{3}) (.*)$", status_line)
        assert m, f"bad status line {status_line!r}"
        headers = []
        while True:
            line = self._line().decode("latin-1")
            if line == "":
                break
            name, value = line.split(":", 1)
            headers.append((name, value.strip()))
        resp = HttpResponse(int(m.group(1)), m.group(2), headers, b"")
        if head or resp.status < 200 or resp.status == 204:
            return resp
        if (resp.header("Transfer-Encoding") or "").lower() == "chunked":
            body = b""
            while True:
                size = int(self._line().split(b";")[0], 16)
                if size == 0:
                    while self._line() != b"":
                        pass
                    break
                body += self._exact(size)
                assert self._exact(2) == b"\r\n"
            resp.body = body
        elif resp.header("Content-Length") is not None:
            resp.body = self._exact(int(resp.header("Content-Length")))
        else:
            resp.body = self.read_until_close()
        return resp

    def read_until_close(self):
        data = self.buf
        self.buf = b""
        while True:
            try:
                chunk = self.sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            data += chunk
        return data

    def closed_by_server(self, timeout=3.0):
        """True if the server closes within timeout (EOF or reset)."""
        self.sock.settimeout(timeout)
        try:
            while True:
                if not self.sock.recv(65536):
                    return True
        except ConnectionResetError:
            return True
        except socket.timeout:
            return False

    def close(self):
        self.sock.close()


class MusclesServer:
    """One `muscles server` process with its own port, data dir and log."""

    def __init__(self, env=None, args=None, port=None):
        self.port = port or free_port()
        self.tmp = tempfile.TemporaryDirectory(prefix="muscles-it-")
        self.data_dir = os.path.join(self.tmp.name, "data")
        self.log_path = os.path.join(self.tmp.name, "server.log")
        self.env = {"MUSCLES_HTTP_PORT": str(self.port),
                    "MUSCLES_STORAGE_DATA_DIR": self.data_dir}
        self.env.update(env or {})
        self.args = list(args or ["server"])
        self.proc = None
        self.returncode = None

    def start(self, wait_ready=True):
        binary = muscles_bin()
        for attempt in range(3):
            self.log_file = open(self.log_path, "wb")
            self.proc = subprocess.Popen([binary] + self.args, env=clean_env(self.env),
                                         stdout=self.log_file, stderr=subprocess.STDOUT)
            if not wait_ready:
                return self
            try:
                self.wait_ready()
                return self
            except AssertionError:
                # Another process took the port between free_port() and the
                # bind: try a new one (only a port conflict is retried).
                if attempt == 2 or self.proc.poll() is None or "in use" not in self.log():
                    raise
                self.log_file.close()
                self.port = free_port()
                self.env["MUSCLES_HTTP_PORT"] = str(self.port)
        return self

    def log(self):
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def wait_log(self, pattern, timeout=5.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            m = re.search(pattern, self.log())
            if m:
                return m
            time.sleep(0.02)
        raise AssertionError(f"log never matched {pattern!r}:\n{self.log()}")

    def wait_ready(self):
        deadline = time.monotonic() + READY_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"muscles exited with {self.proc.returncode} before "
                                     f"becoming ready:\n{self.log()}")
            try:
                conn = RawConnection(self.port, timeout=1.0)
                conn.send("GET /ready HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                ok = conn.read_response().status == 200
                conn.close()
                if ok:
                    listen = re.search(r"event=http\.listen addr=\S+ port=(\d+)", self.log())
                    assert listen and int(listen.group(1)) == self.port, self.log()
                    return
            except (OSError, EOFError):
                pass
            time.sleep(0.02)
        raise AssertionError(f"muscles not ready within {READY_TIMEOUT_S}s:\n{self.log()}")

    def connect(self, timeout=5.0):
        return RawConnection(self.port, timeout=timeout)

    def request(self, text, head=False):
        """Sends one request on a new connection and returns the response."""
        conn = self.connect()
        try:
            conn.send(text)
            return conn.read_response(head=head)
        finally:
            conn.close()

    def send_signal(self, signum):
        self.proc.send_signal(signum)

    def wait(self, timeout=STOP_TIMEOUT_S):
        """Waits for exit and returns the code; past timeout, SIGKILL and fail."""
        try:
            self.returncode = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.returncode = self.proc.wait()
            raise AssertionError(f"muscles did not exit within {timeout}s; killed:\n{self.log()}")
        return self.returncode

    def stop(self, signum=signal.SIGTERM, timeout=STOP_TIMEOUT_S):
        """Signals the process (unless it already exited) and waits for it."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.send_signal(signum)
        return self.wait(timeout)

    def cleanup(self):
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self.log_file.close()
        self.tmp.cleanup()


@pytest.fixture
def make_server():
    """Factory: make_server(env={...}) starts a server; all are stopped at
    the end of the test, which fails unless each exited with 0."""
    servers = []

    def make(env=None, args=None, wait_ready=True):
        srv = MusclesServer(env=env, args=args)
        servers.append(srv)
        return srv.start(wait_ready=wait_ready)

    yield make
    try:
        for srv in servers:
            if srv.proc is not None and srv.returncode is None:
                code = srv.stop()
                assert code == 0, f"muscles exited with {code}:\n{srv.log()}"
    finally:
        for srv in servers:
            srv.cleanup()


@pytest.fixture
def server(make_server):
    """A server with default settings (except port and data dir)."""
    return make_server()
