"""Settings as the binary applies them: precedence default < YAML (--config
or MUSCLES_CONFIG) < environment, exit code 2 with a message naming the
setting, variable, key or path on bad settings, exit 1 on start-up failures
(port taken, bad address), and the version/help subcommands."""

import os
import re
import socket

import pytest

from conftest import MusclesServer, free_port, repo_root, run_muscles


def write_yaml(tmp_path, text, name="muscles.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def keep_alive_seconds(srv):
    return srv.request("GET /ping HTTP/1.1\r\n\r\n").header("Keep-Alive")


def test_precedence_default_yaml_env(tmp_path, make_server):
    """http.keep_alive_timeout_ms shows in every answer's Keep-Alive header."""
    assert keep_alive_seconds(make_server()) == "timeout=10"  # built-in default
    yaml_path = write_yaml(tmp_path, "http:\n  keep_alive_timeout_ms: 5000\n")
    assert keep_alive_seconds(make_server(args=["server", "--config", yaml_path])) == "timeout=5"
    assert keep_alive_seconds(make_server(env={"MUSCLES_CONFIG": yaml_path})) == "timeout=5"
    over = make_server(args=["server", "--config", yaml_path],
                       env={"MUSCLES_HTTP_KEEP_ALIVE_TIMEOUT_MS": "7000"})
    assert keep_alive_seconds(over) == "timeout=7"  # environment wins over the file


def test_config_flag_wins_over_muscles_config(tmp_path, make_server):
    env_yaml = write_yaml(tmp_path, "http:\n  keep_alive_timeout_ms: 3000\n", "env.yaml")
    flag_yaml = write_yaml(tmp_path, "http:\n  keep_alive_timeout_ms: 4000\n", "flag.yaml")
    srv = make_server(args=["--config=" + flag_yaml], env={"MUSCLES_CONFIG": env_yaml})
    assert keep_alive_seconds(srv) == "timeout=4"


def test_port_from_yaml(tmp_path):
    port = free_port()
    yaml_path = write_yaml(tmp_path, f"http:\n  port: {port}\n  listen_host: 127.0.0.1\n")
    srv = MusclesServer(args=["server", "--config", yaml_path], port=port)
    del srv.env["MUSCLES_HTTP_PORT"]
    try:
        srv.start()
        assert re.search(rf"event=http\.listen addr=127\.0\.0\.1 port={port}\b", srv.log())
        assert srv.stop() == 0
    finally:
        srv.cleanup()


def test_bad_port_variable_exits_2():
    res = run_muscles(["server"], {"MUSCLES_HTTP_PORT": "notaport"})
    assert res.returncode == 2
    assert "http.port" in res.stderr and "MUSCLES_HTTP_PORT" in res.stderr
    assert "notaport" in res.stderr
    res = run_muscles(["server"], {"MUSCLES_HTTP_PORT": "0"})
    assert res.returncode == 2 and "1..65535" in res.stderr


def test_unknown_yaml_key_exits_2(tmp_path):
    yaml_path = write_yaml(tmp_path, "http:\n  prot: 8123\n")
    res = run_muscles(["server", "--config", yaml_path])
    assert res.returncode == 2
    assert "prot" in res.stderr and yaml_path in res.stderr


def test_unreadable_config_exits_2(tmp_path):
    missing = str(tmp_path / "does-not-exist.yaml")
    res = run_muscles(["server", "--config", missing])
    assert res.returncode == 2
    assert missing in res.stderr
    res = run_muscles(["server"], {"MUSCLES_CONFIG": str(tmp_path)})  # a directory
    assert res.returncode == 2
    assert str(tmp_path) in res.stderr


def test_node_modes(make_server):
    res = run_muscles(["server"], {"MUSCLES_NODE_MODE": "data"})
    assert res.returncode == 2
    assert "not supported yet" in res.stderr
    res = run_muscles(["server"], {"MUSCLES_NODE_MODE": "bogus"})
    assert res.returncode == 2
    assert "all|data|query|ingest" in res.stderr
    make_server(env={"MUSCLES_NODE_MODE": "all"})  # the one mode that runs


def test_bad_arguments_exit_2():
    res = run_muscles(["server", "--bogus"])
    assert res.returncode == 2 and "--bogus" in res.stderr
    res = run_muscles(["frobnicate"])
    assert res.returncode == 2 and "frobnicate" in res.stderr


def test_port_in_use_exits_1():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        res = run_muscles(["server"], {"MUSCLES_HTTP_PORT": str(port)})
    assert res.returncode == 1
    assert "127.0.0.1" in res.stderr and str(port) in res.stderr
    assert "event=server.failed" in res.stderr


def test_bad_listen_host_exits_1():
    port = free_port()
    res = run_muscles(["server"], {"MUSCLES_HTTP_PORT": str(port),
                                   "MUSCLES_HTTP_LISTEN_HOST": "not-an-address"})
    assert res.returncode == 1
    assert "not-an-address" in res.stderr and str(port) in res.stderr


def test_ipv6_listen_host(make_server):
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
            s.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback on this host")
    srv = make_server(env={"MUSCLES_HTTP_LISTEN_HOST": "::1"}, wait_ready=False)
    srv.wait_log(r"event=http\.listen addr=::1 port=%d" % srv.port)
    srv.wait_log(r"event=server\.ready")  # /ready answers 503 until storage is open
    with socket.create_connection(("::1", srv.port), timeout=5) as s:
        s.sendall(b"GET /ready HTTP/1.1\r\nConnection: close\r\n\r\n")
        data = b""
        while True:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    assert data.startswith(b"HTTP/1.1 200 OK\r\n") and data.endswith(b"Ok.\n")


def test_version_and_help():
    res = run_muscles(["version"])
    assert res.returncode == 0
    assert re.fullmatch(r"muscles \d+\.\d+\.\d+\n", res.stdout)
    res = run_muscles(["help"])
    assert res.returncode == 0 and res.stdout.startswith("usage: muscles")
    res = run_muscles(["help", "settings"])
    assert res.returncode == 0
    with open(os.path.join(repo_root(), "muscles.yaml.example")) as f:
        assert res.stdout == f.read()
    res = run_muscles(["help", "nothing"])
    assert res.returncode == 2
