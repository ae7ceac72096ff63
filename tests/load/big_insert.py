#!/usr/bin/env python3
"""ctest `big_insert`: an INSERT of 5 GB of TabSeparated through curl, with
the server's peak memory under 512 MiB.

Starts muscles ($MUSCLES_BIN) on loopback with default settings, creates an
events table, and streams BIG_INSERT_BYTES (default 5 GiB) of rows into
`curl -X POST -T -` (chunked transfer encoding): the body is never a file
and never sits in curl's or the server's memory. Rows repeat a 1 MiB block whose
ids are distinct within it (the test is about memory, not about values).
Checks: curl gets 200, count() is the number of rows sent, sum(bytes) agrees,
and VmHWM (peak resident set) of the server process is below 512 MiB.
Prints the numbers. The sanitizer run leaves this test out (ASan's shadow
memory is not the server's)."""

import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "sql"))

from servers import MusclesServer  # noqa: E402

LIMIT_BYTES = 512 * 1024 * 1024


def block():
    """1 MiB (about) of rows and its row count and sum of `bytes`."""
    lines, total, rows, size_sum = [], 0, 0, 0
    while total < (1 << 20):
        size = (rows * 7919) % 65536
        line = (f"2024-01-{1 + rows % 28:02d} {rows % 24:02d}:{rows % 60:02d}:00\t{rows % 100000}\t"
                f"{['GET', 'POST', 'PUT'][rows % 3]}\t/api/v1/items/{rows % 5000}?page={rows % 17}"
                f"\t{200 if rows % 10 else 500}\t{size}\n")
        lines.append(line)
        total += len(line)
        rows += 1
        size_sum += size
    return "".join(lines).encode(), rows, size_sum


def peak_rss_bytes(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmHWM in /proc/%d/status" % pid)


def main():
    want = int(os.environ.get("BIG_INSERT_BYTES", str(5 << 30)))
    data, block_rows, block_sum = block()
    repeats = max(1, want // len(data))
    server = MusclesServer().start()
    try:
        server.query_ok("CREATE TABLE events (ts DateTime, user UInt32, method String, url String, "
                     "status UInt16, bytes UInt32) ENGINE = MergeTree PARTITION BY toYYYYMM(ts) "
                     "ORDER BY (status, ts)")
        url = (f"http://{server.host}:{server.port}/"
               "?query=INSERT%20INTO%20events%20FORMAT%20TabSeparated")
        started = time.monotonic()
        # -T - streams stdin (chunked); --data-binary @- would read it all first.
        curl = subprocess.Popen(["curl", "-sS", "--fail-with-body", "-X", "POST", "-T", "-", url],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        try:
            for _ in range(repeats):
                curl.stdin.write(data)
            curl.stdin.close()
        except BrokenPipeError:
            pass  # curl ended early: its output says why
        curl.stdin = None
        out, err = curl.communicate(timeout=3600)
        seconds = time.monotonic() - started
        if curl.returncode != 0:
            print(f"curl failed ({curl.returncode}): {out.decode()[-2000:]} {err.decode()[-2000:]}")
            return 1
        sent_bytes = repeats * len(data)
        rows = repeats * block_rows
        got = server.query_ok("SELECT count(), sum(bytes) FROM events").decode().strip()
        peak = peak_rss_bytes(server.proc.pid)
        print(f"inserted {sent_bytes / (1 << 30):.2f} GiB ({rows} rows) in {seconds:.1f} s "
              f"({sent_bytes / seconds / (1 << 20):.0f} MiB/s); server peak RSS "
              f"{peak / (1 << 20):.0f} MiB (limit {LIMIT_BYTES >> 20} MiB)")
        expected = f"{rows}\t{repeats * block_sum}"
        if got != expected:
            print(f"FAIL: count(), sum(bytes) = {got!r}, expected {expected!r}")
            return 1
        if peak >= LIMIT_BYTES:
            print("FAIL: peak RSS over the limit")
            return 1
        print("ok")
        return 0
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
