#!/usr/bin/env python3
"""Differential test: runs the SQL corpus against ClickHouse 18.16 and
muscles and requires the same TabSeparated output, statement by statement.

Each corpus file runs in a fresh database on both servers (its statements
create and load the data: numbers(N), VALUES, TabSeparated), except files
and statements marked `differential skip` (features 18.16 lacks or where it
differs from current ClickHouse, whose output the .reference holds) and
files and statements marked `muscles todo` (ClickHouse behaviour muscles
does not implement yet), which are listed apart. Bodies
must be byte-identical; a failing statement must fail on both sides with
the same ClickHouse error code (names and messages of 18.16 differ).

  differential.py                     start 18.16 and $MUSCLES_BIN
  differential.py --muscles URL       compare with a running muscles
  differential.py --muscles clickhouse
                                      sanity check: 18.16 against a second 18.16
  differential.py 00012 joins         only files whose name contains a filter

Exit status: 0 when every statement matched, 1 on a difference, 2 on a
harness error, 77 when clickhouse-server is not installed (ctest: skipped).
"""

import argparse
import concurrent.futures
import http.client
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import corpus  # noqa: E402
import servers  # noqa: E402

SKIP_EXIT = 77
SHOW_BYTES = 600


def shown(outcome):
    if outcome.code is not None:
        return f"Error: {outcome.code} ({corpus.error_name(outcome.code)})"
    text = outcome.output.decode("utf-8", "replace")
    if len(text) > SHOW_BYTES:
        text = text[:SHOW_BYTES] + "...(truncated)"
    return text.rstrip("\n") if text else "(empty)"


def same(a, b):
    if a.code is not None or b.code is not None:
        return a.code == b.code
    return a.output == b.output


def run_side(sup, cf):
    """Runs the file on one side; returns (outcomes, crash text or None)."""
    client = servers.HttpServer(sup.url())
    try:
        outcomes = corpus.run_file(client, cf, skip_marked=True, skip_todo=True)
    except (OSError, http.client.HTTPException) as e:
        crash = sup.check(lost_connection=True)
        raise servers.ServerError(f"{sup.server.name}: {type(e).__name__}: {e}"
                                  + (f"\nthe server died; restarted it: {crash}" if crash else ""))
    finally:
        client.close()
    crash = sup.check(lost_connection=any(o is not None and o.code == -1 for o in outcomes))
    return outcomes, crash


def compare_file(ch, mu, cf):
    """Returns (statements compared, list of difference texts)."""
    ch_out, ch_crash = run_side(ch, cf)
    mu_out, mu_crash = run_side(mu, cf)
    diffs = []
    compared = 0
    for a, b in zip(ch_out, mu_out):
        if a is None:
            continue
        compared += 1
        if not same(a, b):
            indent = "\n      "
            diffs.append(f"line {a.stmt.line}: {a.stmt.summary(100)}\n"
                         f"    clickhouse 18.16:{indent}{shown(a).replace(chr(10), indent)}\n"
                         f"    muscles:{indent}{shown(b).replace(chr(10), indent)}")
    if len(mu_out) < len(ch_out) or len(ch_out) < len(mu_out):
        diffs.append("a server stopped answering; the rest of the file was not compared")
    for name, crash in (("clickhouse 18.16", ch_crash), ("muscles", mu_crash)):
        if crash:
            diffs.append(f"{name} died while this file ran (with -j, maybe because of a "
                         f"file running in parallel); restarted it: {crash}")
    return compared, diffs


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("filters", nargs="*", help="substrings of file names")
    ap.add_argument("--clickhouse", default="clickhouse",
                    help="URL of a running ClickHouse 18.16 (default: start one)")
    ap.add_argument("--muscles", default="muscles",
                    help="URL of a running muscles, `clickhouse` for a second 18.16 "
                    "(sanity check), default: start $MUSCLES_BIN")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="files run in parallel")
    ap.add_argument("--dir", default=corpus.CORPUS_DIR, help="corpus directory")
    args = ap.parse_args()

    if args.clickhouse == "clickhouse" or args.muscles == "clickhouse":
        if servers.clickhouse_server_binary() is None:
            print("SKIP: clickhouse-server (18.16) is not installed; "
                  "apt-get install clickhouse-server", flush=True)
            return SKIP_EXIT
    try:
        files = [corpus.CorpusFile(p) for p in corpus.list_files(args.dir, args.filters)]
    except corpus.CorpusError as e:
        print(f"corpus error: {e}", file=sys.stderr)
        return 2
    if not files:
        print("no corpus files match", file=sys.stderr)
        return 2

    started = []
    try:
        try:
            ch_server = servers.make_server(args.clickhouse).start()
            started.append(ch_server)
            mu_server = servers.make_server(args.muscles).start()
            started.append(mu_server)
        except servers.ServerError as e:
            print(f"cannot start a server: {e}", file=sys.stderr)
            return 2
        version = ch_server.query("SELECT version()")
        ch_server.close()
        print(f"clickhouse: {ch_server.url} (version "
              f"{version.body.decode().strip() if version.ok else '?'}); "
              f"muscles: {mu_server.url}", flush=True)
        ch = servers.Supervisor(ch_server)
        mu = servers.Supervisor(mu_server)

        skipped_files = [cf for cf in files if cf.skip_reason]
        todo_files = [cf for cf in files if cf.todo_reason and not cf.skip_reason]
        run_files = [cf for cf in files if not cf.skip_reason and not cf.todo_reason]
        skipped_statements = [(cf, st) for cf in run_files for st in cf.statements
                              if st.skip_reason]
        todo_statements = [(cf, st) for cf in run_files for st in cf.statements
                           if st.todo_reason]
        both = sum(1 for _, st in todo_statements if st.skip_reason)
        failures = 0
        total = 0

        def one(cf):
            try:
                return cf, compare_file(ch, mu, cf), None
            except (OSError, http.client.HTTPException, servers.ServerError) as e:
                return cf, (0, []), f"{type(e).__name__}: {e}"

        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            for cf, (compared, diffs), error in pool.map(one, run_files):
                total += compared
                if error:
                    failures += 1
                    print(f"FAIL {cf.stem}: harness error: {error}", flush=True)
                elif diffs:
                    failures += 1
                    print(f"FAIL {cf.stem}: {len(diffs)} of {compared} statements differ",
                          flush=True)
                    for d in diffs:
                        print("  " + d.replace("\n", "\n  "), flush=True)
                else:
                    print(f"OK   {cf.stem} ({compared} statements)", flush=True)

        print(f"\nskipped files ({len(skipped_files)}):")
        for cf in skipped_files:
            print(f"  {cf.stem} ({len(cf.statements)} statements): {cf.skip_reason}")
        print(f"skipped statements ({len(skipped_statements)}):")
        for cf, st in skipped_statements:
            print(f"  {cf.stem}:{st.line}: {st.skip_reason}\n      {st.summary(90)}")
        print(f"\nmuscles todo files ({len(todo_files)}, not compared):")
        for cf in todo_files:
            print(f"  {cf.stem} ({len(cf.statements)} statements): {cf.todo_reason}")
        print(f"muscles todo statements ({len(todo_statements)}, not compared"
              + (f"; {both} also marked differential skip" if both else "") + "):")
        for cf, st in todo_statements:
            print(f"  {cf.stem}:{st.line}: {st.todo_reason}"
                  + (" (also differential skip)" if st.skip_reason else "")
                  + f"\n      {st.summary(90)}")
        print(f"\nsummary: {len(run_files)} files compared, {total} statements compared, "
              f"{len(skipped_files)} files and {len(skipped_statements)} statements skipped, "
              f"{len(todo_files)} files and {len(todo_statements)} statements muscles todo, "
              f"{failures} files differ")
        if mu.crashes or ch.crashes:
            print(f"restarts after a crash: muscles {mu.crashes}, clickhouse {ch.crashes}")
        return 1 if failures else 0
    finally:
        for s in started:
            s.stop()


if __name__ == "__main__":
    sys.exit(main())
