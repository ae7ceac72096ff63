#!/usr/bin/env python3
"""ctest `js_client`: starts muscles ($MUSCLES_BIN) on loopback and runs the
official ClickHouse JS client's test (tests/clients/js/client_test.mjs)
against it. node_modules come from `npm ci` in tests/clients/js (run by
deploy/dev/test.sh). Exit 77 (skipped) only when node is not installed."""

import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "sql"))

from servers import MusclesServer  # noqa: E402


def main():
    node = shutil.which("node")
    if node is None:
        print("node is not installed: deploy/dev/setup-debian.sh test installs it")
        return 77
    js = os.path.join(HERE, "js")
    if not os.path.isdir(os.path.join(js, "node_modules", "@clickhouse", "client")):
        print("tests/clients/js/node_modules is missing: run `npm ci` there (deploy/dev/test.sh does)")
        return 1
    server = MusclesServer().start()
    try:
        env = dict(os.environ, MUSCLES_URL=server.url.rstrip("/"))
        return subprocess.run([node, "client_test.mjs"], cwd=js, env=env, timeout=600).returncode
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
