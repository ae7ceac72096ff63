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
  run.py --run-todo ...          run `muscles todo` statements on muscles too
                                 and list those that now give the reference
  run.py --dir DIR ...           the corpus in DIR instead of tests/sql
  run.py 00012 joins ...         only files whose name contains a filter

Against muscles (started here, or a URL answering with the display name
`muscles`), files and statements marked `muscles todo` are not sent; the
rest of each reference must match around them, and a summary of the todo
marks and their reasons ends the output. Against ClickHouse they run.

A server this script started is restarted (empty, new port) when it dies;
the file that was running fails with the exit status and the log's tail.
Exit status: 0 when every file passed, 1 otherwise, 2 on a harness error.
"""

import argparse
import collections
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
        self.skipped = None     # reason when not run (file-level differential skip)
        self.todo = None        # reason when not run (file-level muscles todo)
        self.report = ""
        self.statements = 0
        self.left_out = 0       # statements not sent (differential skip, muscles todo)
        self.todo_passing = []  # --run-todo: todo statements giving the reference


def check_file(sup, cf, args):
    res = FileResult(cf)
    if args.peer and cf.skip_reason:
        res.skipped = cf.skip_reason
        res.passed = True
        return res
    if args.skip_todo and cf.todo_reason:
        res.todo = cf.todo_reason
        res.passed = True
        return res
    client = servers.HttpServer(sup.url())
    try:
        outcomes = corpus.run_file(client, cf, skip_marked=args.peer, keep=args.keep,
                                   skip_todo=args.skip_todo)
    finally:
        client.close()
    res.statements = sum(1 for o in outcomes if o is not None)
    res.left_out = sum(1 for o in outcomes if o is None)
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
    elif any(o is None for o in outcomes):
        if corpus.align(reference, outcomes) is None:
            lines.extend(mismatch_around_left_out(cf, reference, outcomes, args))
    elif actual != reference:
        lines.append(corpus.unified_diff(reference, actual, cf.stem,
                                         args.diff_lines).rstrip("\n"))
    lines.extend(problems)
    res.passed = not lines
    if args.run_todo and reference is not None:
        passing, note = todo_now_passing(cf, reference, outcomes)
        res.todo_passing = passing
        if passing:
            lines.append("muscles todo statements that now give the reference output "
                         "(remove the annotation):\n  " + "\n  ".join(passing))
        if note:
            lines.append(note)
    res.report = "\n".join(lines)
    return res


def mismatch_around_left_out(cf, reference, outcomes, args):
    """The report when the output of the statements sent does not line up
    with the reference. When one statement alone is at fault, the expected
    output of the statements left out is filled in from the reference so
    that the diff shows that statement only."""
    kinds = []
    if any(o is None and st.skip_reason and args.peer
           for o, st in zip(outcomes, cf.statements)):
        kinds.append("`differential skip`")
    if any(o is None and st.todo_reason and args.skip_todo
           for o, st in zip(outcomes, cf.statements)):
        kinds.append("`muscles todo`")
    what = "statements marked " + " or ".join(kinds or ["to be left out"])
    kept, loose = corpus.align_one_loose(reference, outcomes)
    if kept is not None:
        return [f"output of line {outcomes[loose].stmt.line} differs from the reference "
                f"(the expected output of the {what}, left out, is filled in from the "
                f"reference):",
                corpus.unified_diff(reference, corpus.filled_in(outcomes, kept), cf.stem,
                                    args.diff_lines).rstrip("\n")]
    return [f"output differs from the reference ({what} left out, so their expected "
            f"output shows up as removed lines):",
            corpus.unified_diff(reference, corpus.joined(outcomes), cf.stem,
                                args.diff_lines).rstrip("\n")]


def todo_now_passing(cf, reference, outcomes):
    """--run-todo: the `muscles todo` statements (runs of consecutive ones)
    whose output is the reference's. Returns (list of texts, note or None)."""
    if not cf.todo_statements():
        return [], None
    if len(outcomes) < len(cf.statements):
        return [], "(muscles todo statements not checked: the file did not run to its end)"
    masked = [None if o is None or o.stmt.todo_reason or cf.todo_reason else o
              for o in outcomes]
    kept = corpus.align(reference, masked)
    if kept is None:
        return [], ("(cannot tell which muscles todo statements give the reference output: "
                    "the other statements do not line up with the reference)")
    passing = []
    for text, run in zip(kept, corpus.wildcard_runs(masked)):
        if any(outcomes[i] is None for i in run):
            continue  # differential-skipped statements in the run: undecided
        if b"".join(outcomes[i].output for i in run) == text and \
                not any(outcomes[i].problem for i in run):
            passing.extend(f"line {outcomes[i].stmt.line}: {outcomes[i].stmt.summary()}"
                           for i in run)
    if passing and cf.todo_reason and len(passing) == len(cf.statements):
        return ["the whole file (`-- muscles: todo` line)"], None
    return passing, None


def todo_summary(files, skip_todo, run_todo):
    """The closing summary of the `muscles todo` marks of the files run."""
    todo_files = [cf for cf in files if cf.todo_reason]
    todo_stmts = [(cf, st) for cf in files if not cf.todo_reason
                  for st in cf.statements if st.todo_reason]
    if not todo_files and not todo_stmts:
        return []
    head = (f"muscles todo: {len(todo_stmts)} statements / {len(todo_files)} files "
            f"marked muscles todo")
    if not skip_todo and not run_todo:
        return [f"{head}, run as usual (the server is not muscles)"]
    out = [f"{head}, " + ("run anyway (--run-todo):" if run_todo
                          else "not run (ClickHouse behaviour muscles lacks):")]
    groups = collections.OrderedDict()
    for cf, st in todo_stmts:
        groups.setdefault(("statement", st.todo_reason), []).append(
            f"{cf.stem.split('_')[0]}:{st.line}")
    for cf in todo_files:
        groups.setdefault(("file", cf.todo_reason), []).append(
            f"{cf.stem} ({len(cf.statements)} statements)")
    order = sorted(groups.items(), key=lambda kv: (kv[0][0] != "statement", -len(kv[1]),
                                                   kv[0][1]))
    for (kind, reason), where in order:
        n = len(where)
        shown = where if n <= 8 else where[:8] + [f"+{n - 8} more"]
        out.append(f"  {n:4d} {kind}{'s' if n != 1 else ''}: {reason}  [{', '.join(shown)}]")
    return out


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
    ap.add_argument("--run-todo", action="store_true",
                    help="send the files and statements marked `muscles todo` to muscles "
                    "too and list those that give the reference output")
    ap.add_argument("--diff-lines", type=int, default=40, metavar="N",
                    help="diff lines shown per failing file (default 40, 0: all)")
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
    try:
        is_muscles = server.is_muscles()
    except (OSError, http.client.HTTPException) as e:
        server.stop()
        print(f"the server does not answer: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
    if args.record and is_muscles:
        server.stop()
        print("--record takes its output from ClickHouse 18.16, not from muscles",
              file=sys.stderr)
        return 2
    # Statements marked `muscles todo` are left out against muscles only.
    args.skip_todo = is_muscles and not args.run_todo
    args.run_todo = args.run_todo and is_muscles
    sup = servers.Supervisor(server)
    failed = []
    total_statements = 0
    total_left_out = 0
    skipped_files = []
    todo_files = []
    todo_passing = 0
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
                total_left_out += res.left_out
                todo_passing += len(res.todo_passing)
                if res.skipped:
                    skipped_files.append(res)
                    say(f"SKIP {res.cf.stem}: {res.skipped}")
                    continue
                if res.todo:
                    todo_files.append(res)
                    say(f"TODO {res.cf.stem}: {res.todo}")
                    continue
                say(f"{'OK  ' if res.passed else 'FAIL'} {res.cf.stem}"
                    f" ({res.statements} statements"
                    + (f", {res.left_out} left out" if res.left_out else "") + ")")
                if res.report:
                    say("  " + res.report.replace("\n", "\n  "))
                if not res.passed:
                    failed.append(res.cf.stem)
    finally:
        server.stop()
    run = len(files) - len(skipped_files) - len(todo_files)
    print()
    for line in todo_summary(files, args.skip_todo, args.run_todo):
        print(line)
    if todo_passing:
        print(f"muscles todo: {todo_passing} marked statements give the reference output "
              f"now (listed above): remove their annotation")
    print(f"{run} files, {total_statements} statements run, {len(failed)} failed"
          + (f", {total_left_out} statements left out" if total_left_out else "")
          + (f", {len(skipped_files)} files skipped" if skipped_files else "")
          + (f", {len(todo_files)} files muscles todo" if todo_files else "")
          + (f", server restarted {sup.crashes} times" if sup.crashes else ""))
    if failed:
        print("failed: " + " ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
