#!/usr/bin/env python3
"""ctests `js_client` and `arrow_client`: starts muscles ($MUSCLES_BIN) on
loopback and runs one node script of tests/clients/js against it (argument:
the script, default client_test.mjs, the official ClickHouse JS client's
test; arrow_test.mjs reads Arrow output with apache-arrow and
nodejs-polars). node_modules come from `npm ci` in tests/clients/js (run by
deploy/dev/test.sh). Exit 77 (skipped) only when node is not installed."""

import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "sql"))

from servers import MusclesServer  # noqa: E402


# The package each script needs in node_modules.
PACKAGES = {"client_test.mjs": "@clickhouse/client", "arrow_test.mjs": "nodejs-polars"}


def main():
    script = sys.argv[1] if len(sys.argv) > 1 else "client_test.mjs"
    node = shutil.which("node")
    if node is None:
        print("node is not installed: deploy/dev/setup-debian.sh test installs it")
        return 77
    js = os.path.join(HERE, "js")
    if not os.path.isfile(os.path.join(js, script)):
        print(f"tests/clients/js/{script} does not exist")
        return 1
    package = PACKAGES.get(script, "apache-arrow")
    if not os.path.isdir(os.path.join(js, "node_modules", package)):
        print("tests/clients/js/node_modules is missing: run `npm ci` there (deploy/dev/test.sh does)")
        return 1
    server = MusclesServer().start()
    try:
        env = dict(os.environ, MUSCLES_URL=server.url.rstrip("/"))
        return subprocess.run([node, script], cwd=js, env=env, timeout=600).returncode
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
