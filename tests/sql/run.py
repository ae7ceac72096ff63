#!/usr/bin/env python3
"""Runs the SQL corpus (tests/sql/NNNNN_name.sql) against a server and
compares each file's output with NNNNN_name.reference.

  run.py                         start $MUSCLES_BIN on a temporary data dir
  run.py --server URL            use a running server (http://127.0.0.1:8123)
  run.py --server clickhouse     start ClickHouse 18.16 (clickhouse-server)
  run.py --peer ...              leave out what is marked `differential skip`
                                 (files and statements) and check the rest of
                                 each reference; for ClickHouse 18.16
  run.py --record --server clickhouse [FILTER...]
                                 rewrite references from the server's output
  run.py 00012 joins ...         only files whose name contains a filter

A server this script started is restarted (empty, new port) when it dies;
the file that was running fails with the exit status and the log's tail.
Exit status: 0 when every file passed, 1 otherwise, 2 on a harness error.
"""

import argparse
import concurrent.futures
import http.client
import os
import sys
import threading

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import corpus  # noqa: E402
import servers  # noqa: E402

_print_lock = threading.Lock()


def say(text):
    with _print_lock:
        print(text, flush=True)


class FileResult:
    def __init__(self, cf):
        self.cf = cf
        self.passed = False
        self.skipped = None     # reason when not run
        self.report = ""
        self.statements = 0


def check_file(sup, cf, args):
    res = FileResult(cf)
    if args.peer and cf.skip_reason:
        res.skipped = cf.skip_reason
        res.passed = True
        return res
    client = servers.HttpServer(sup.url())
    try:
        outcomes = corpus.run_file(client, cf, skip_marked=args.peer, keep=args.keep)
    finally:
        client.close()
    res.statements = sum(1 for o in outcomes if o is not None)
    problems = [o.problem for o in outcomes if o is not None and o.problem]
    crash = sup.check(lost_connection=any(o is not None and o.code == -1 for o in outcomes))
    if crash:
        problems.append(f"the server died while this file ran (with -j, maybe because of "
                        f"a file running in parallel); restarted it: {crash}")
    actual = corpus.joined(outcomes)
    reference = cf.reference()
    if args.record:
        return record(sup, cf, outcomes, reference, problems, res)
    lines = []
    if reference is None:
        lines.append(f"no reference file {os.path.basename(cf.reference_path)}")
    elif args.peer:
        if corpus.align(reference, outcomes) is None:
            lines.append("output differs from the reference (statements marked "
                         "`differential skip` left out, so their expected output shows "
                         "up as removed lines):")
            lines.append(corpus.unified_diff(reference, actual, cf.stem))
    elif actual != reference:
        lines.append(corpus.unified_diff(reference, actual, cf.stem))
    lines.extend(problems)
    res.passed = not lines
    res.report = "\n".join(lines)
    return res


def record(sup, cf, outcomes, reference, problems, res):
    """Writes the reference from the server's output. Hand-written output of
    statements marked `differential skip` is kept when the old reference
    still lines up with the new output of the other statements; otherwise
    those statements are run on this server too and flagged for review."""
    lines = []
    if any(o is None for o in outcomes):
        kept = corpus.align_for_record(reference, outcomes) if reference is not None else None
        if kept is not None:
            parts, k, prev, empty = [], 0, False, []
            for o, st in zip(outcomes, cf.statements):
                if o is None:
                    if not prev:
                        parts.append(kept[k])
                        if not kept[k]:
                            empty.append(f"line {st.line}: {st.summary()}")
                        k += 1
                    prev = True
                else:
                    parts.append(o.output)
                    prev = False
            data = b"".join(parts)
            if empty:
                lines.append("REVIEW: these `differential skip` statements (or runs of them) "
                             "kept an empty expected output; check that it is right:\n  "
                             + "\n  ".join(empty))
        else:
            client = servers.HttpServer(sup.url())
            try:
                full = corpus.run_file(client, cf, skip_marked=False)
            finally:
                client.close()
            data = corpus.joined(full)
            review = [f"line {o.stmt.line}: {o.stmt.summary()}" for o in full
                      if o.stmt.skip_reason]
            lines.append("REVIEW: the output of these `differential skip` statements was "
                         "recorded from this server; write the current-ClickHouse output "
                         "by hand:\n  " + "\n  ".join(review))
            problems = [o.problem for o in full if o.problem and not o.stmt.skip_reason]
    else:
        data = corpus.joined(outcomes)
    if data != reference:
        with open(cf.reference_path, "wb") as f:
            f.write(data)
        lines.insert(0, f"recorded {os.path.basename(cf.reference_path)}")
    lines.extend(problems)
    res.passed = not problems
    res.report = "\n".join(lines)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("filters", nargs="*", help="substrings of file names (e.g. 00012)")
    ap.add_argument("--server", help="URL of a running server, or `clickhouse` to start "
                    "ClickHouse 18.16, or `muscles` (default: start $MUSCLES_BIN)")
    ap.add_argument("--record", action="store_true",
                    help="rewrite the references from this server's output "
                    "(ClickHouse 18.16 only; implies --peer)")
    ap.add_argument("--peer", action="store_true",
                    help="leave out files and statements marked `differential skip`")
    ap.add_argument("--keep", action="store_true", help="keep each file's database")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="files run in parallel")
    ap.add_argument("--dir", default=corpus.CORPUS_DIR, help="corpus directory")
    args = ap.parse_args()
    if args.record:
        args.peer = True

    try:
        files = [corpus.CorpusFile(p) for p in corpus.list_files(args.dir, args.filters)]
    except corpus.CorpusError as e:
        print(f"corpus error: {e}", file=sys.stderr)
        return 2
    if not files:
        print("no corpus files match", file=sys.stderr)
        return 2
    if args.record and args.server in (None, "", "muscles"):
        print("--record takes its output from ClickHouse 18.16: pass --server clickhouse "
              "(or the URL of one)", file=sys.stderr)
        return 2

    try:
        server = servers.make_server(args.server).start()
    except servers.ServerError as e:
        print(f"cannot start the server: {e}", file=sys.stderr)
        return 2
    sup = servers.Supervisor(server)
    failed = []
    total_statements = 0
    skipped_files = []
    try:
        def one(cf):
            try:
                return check_file(sup, cf, args)
            except (OSError, http.client.HTTPException, servers.ServerError) as e:
                res = FileResult(cf)
                res.report = f"harness error: {type(e).__name__}: {e}"
                try:
                    crash = sup.check(lost_connection=True)
                except servers.ServerError as e2:
                    crash = str(e2)
                if crash:
                    res.report += f"\nthe server died; restarted it: {crash}"
                return res

        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            for res in pool.map(one, files):
                total_statements += res.statements
                if res.skipped:
                    skipped_files.append(res)
                    say(f"SKIP {res.cf.stem}: {res.skipped}")
                    continue
                say(f"{'OK  ' if res.passed else 'FAIL'} {res.cf.stem}"
                    f" ({res.statements} statements)")
                if res.report:
                    say("  " + res.report.replace("\n", "\n  "))
                if not res.passed:
                    failed.append(res.cf.stem)
    finally:
        server.stop()
    run = len(files) - len(skipped_files)
    print(f"\n{run} files, {total_statements} statements run, {len(failed)} failed"
          + (f", {len(skipped_files)} files skipped" if skipped_files else "")
          + (f", server restarted {sup.crashes} times" if sup.crashes else ""))
    if failed:
        print("failed: " + " ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
