"""The SQL corpus: parsing tests/sql/NNNNN_name.sql files and running them.

File format (ClickHouse stateless-test style, see README.md):
  * a statement ends on a line ending with `;` (after annotations are cut);
    statements may span lines; lines whose first non-blank characters are
    `--` are comments (outside INSERT data) and are dropped;
  * `INSERT ... FORMAT <fmt>` is followed by its data lines and a line `;`:
    the body sent is the statement line, `\n`, and the data lines each
    ending with `\n` (the `;` line is not sent);
  * annotations are comments on a statement's lines:
      -- { serverError NAME }             the statement must fail with NAME
      -- { differential skip: <reason> }  not compared against ClickHouse 18.16
      -- { muscles todo: <reason> }         the reference holds ClickHouse's
                                            answer, muscles does not give it
                                            yet: not sent to muscles
    and file-level comment lines `-- differential: skip <reason>` (the whole
    file is left out of the differential run) and `-- muscles: todo <reason>`
    (the whole file is not run against muscles).
Output of a file = the concatenation of every statement's response body; a
failing statement contributes the line `Error: NAME` instead.
"""

import difflib
import http.client
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
# ctest passes the source tree; the corpus is its tests/sql (this folder).
CORPUS_DIR = (os.path.join(os.environ["MUSCLES_SOURCE_DIR"], "tests", "sql")
              if os.environ.get("MUSCLES_SOURCE_DIR") else HERE)

# ClickHouse error codes (src/Common/ErrorCodes.cpp) that the corpus or the
# servers may produce: code -> current name.
ERROR_NAMES = {
    1: "UNSUPPORTED_METHOD", 2: "UNSUPPORTED_PARAMETER", 3: "UNEXPECTED_END_OF_FILE",
    4: "EXPECTED_END_OF_FILE", 6: "CANNOT_PARSE_TEXT", 7: "INCORRECT_NUMBER_OF_COLUMNS",
    8: "THERE_IS_NO_COLUMN", 9: "SIZES_OF_COLUMNS_DOESNT_MATCH",
    10: "NOT_FOUND_COLUMN_IN_BLOCK", 11: "POSITION_OUT_OF_BOUND", 12: "PARAMETER_OUT_OF_BOUND",
    15: "DUPLICATE_COLUMN", 16: "NO_SUCH_COLUMN_IN_TABLE",
    20: "NUMBER_OF_COLUMNS_DOESNT_MATCH", 21: "CANNOT_READ_ALL_DATA_FROM_TAB_SEPARATED_INPUT",
    22: "CANNOT_PARSE_ALL_VALUE_FROM_TAB_SEPARATED_INPUT", 25: "CANNOT_PARSE_ESCAPE_SEQUENCE",
    26: "CANNOT_PARSE_QUOTED_STRING", 27: "CANNOT_PARSE_INPUT_ASSERTION_FAILED",
    32: "ATTEMPT_TO_READ_AFTER_EOF", 33: "CANNOT_READ_ALL_DATA",
    34: "TOO_MANY_ARGUMENTS_FOR_FUNCTION", 35: "TOO_FEW_ARGUMENTS_FOR_FUNCTION",
    36: "BAD_ARGUMENTS", 37: "UNKNOWN_ELEMENT_IN_AST", 38: "CANNOT_PARSE_DATE",
    41: "CANNOT_PARSE_DATETIME", 42: "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
    43: "ILLEGAL_TYPE_OF_ARGUMENT", 44: "ILLEGAL_COLUMN", 45: "ILLEGAL_NUMBER_OF_RESULT_COLUMNS",
    46: "UNKNOWN_FUNCTION", 47: "UNKNOWN_IDENTIFIER", 48: "NOT_IMPLEMENTED", 49: "LOGICAL_ERROR",
    50: "UNKNOWN_TYPE", 51: "EMPTY_LIST_OF_COLUMNS_QUERIED", 52: "COLUMN_QUERIED_MORE_THAN_ONCE",
    53: "TYPE_MISMATCH", 54: "STORAGE_DOESNT_ALLOW_PARAMETERS", 55: "STORAGE_REQUIRES_PARAMETER",
    56: "UNKNOWN_STORAGE", 57: "TABLE_ALREADY_EXISTS", 58: "TABLE_METADATA_ALREADY_EXISTS",
    59: "ILLEGAL_TYPE_OF_COLUMN_FOR_FILTER", 60: "UNKNOWN_TABLE", 62: "SYNTAX_ERROR",
    63: "UNKNOWN_AGGREGATE_FUNCTION", 67: "ILLEGAL_KEY_OF_AGGREGATION",
    69: "ARGUMENT_OUT_OF_BOUND", 70: "CANNOT_CONVERT_TYPE", 72: "CANNOT_PARSE_NUMBER",
    73: "UNKNOWN_FORMAT", 78: "UNKNOWN_TYPE_OF_QUERY", 80: "INCORRECT_QUERY",
    81: "UNKNOWN_DATABASE", 82: "DATABASE_ALREADY_EXISTS", 85: "FORMAT_IS_NOT_SUITABLE_FOR_INPUT",
    92: "EMPTY_DATA_PASSED", 107: "FILE_DOESNT_EXIST", 108: "NO_DATA_TO_INSERT",
    113: "THERE_IS_NO_SESSION", 115: "UNKNOWN_SETTING", 116: "THERE_IS_NO_DEFAULT_VALUE",
    117: "INCORRECT_DATA", 119: "ENGINE_REQUIRED", 121: "UNSUPPORTED_JOIN_KEYS",
    122: "INCOMPATIBLE_COLUMNS", 125: "INCORRECT_RESULT_OF_SCALAR_SUBQUERY",
    127: "ILLEGAL_INDEX", 128: "TOO_LARGE_ARRAY_SIZE", 130: "CANNOT_READ_ARRAY_FROM_TEXT",
    131: "TOO_LARGE_STRING_SIZE", 133: "AGGREGATE_FUNCTION_DOESNT_ALLOW_PARAMETERS",
    134: "PARAMETERS_TO_AGGREGATE_FUNCTIONS_MUST_BE_LITERALS", 135: "ZERO_ARRAY_OR_TUPLE_INDEX",
    151: "INDEX_OF_COLUMN_IN_SORT_CLAUSE_IS_OUT_OF_RANGE", 152: "UNKNOWN_DIRECTION_OF_SORTING",
    153: "ILLEGAL_DIVISION", 158: "TOO_MANY_ROWS", 159: "TIMEOUT_EXCEEDED", 164: "READONLY",
    167: "TOO_DEEP_AST", 168: "TOO_BIG_AST", 169: "BAD_TYPE_OF_FIELD", 170: "BAD_GET",
    174: "CYCLIC_ALIASES", 179: "MULTIPLE_EXPRESSIONS_FOR_ALIAS", 181: "ILLEGAL_FINAL",
    182: "ILLEGAL_PREWHERE", 183: "UNEXPECTED_EXPRESSION", 184: "ILLEGAL_AGGREGATION",
    190: "SIZES_OF_ARRAYS_DOESNT_MATCH", 202: "TOO_MANY_SIMULTANEOUS_QUERIES",
    207: "AMBIGUOUS_IDENTIFIER", 210: "NETWORK_ERROR", 211: "EMPTY_QUERY", 215: "NOT_AN_AGGREGATE",
    219: "DATABASE_NOT_EMPTY", 223: "UNEXPECTED_AST_STRUCTURE", 241: "MEMORY_LIMIT_EXCEEDED",
    242: "TABLE_IS_READ_ONLY", 246: "CORRUPTED_DATA", 258: "UNION_ALL_RESULT_STRUCTURES_MISMATCH",
    264: "INCOMPATIBLE_TYPE_OF_JOIN", 290: "LIMIT_EXCEEDED",
    321: "VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE", 336: "UNKNOWN_DATABASE_ENGINE",
    349: "CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN", 351: "AMBIGUOUS_TABLE_NAME",
    352: "AMBIGUOUS_COLUMN_NAME", 356: "BAD_LAMBDA", 376: "CANNOT_PARSE_UUID",
    377: "ILLEGAL_SYNTAX_FOR_DATA_TYPE", 378: "DATA_TYPE_CANNOT_HAVE_ARGUMENTS",
    386: "NO_COMMON_TYPE", 390: "CANNOT_GET_CREATE_TABLE_QUERY", 394: "QUERY_WAS_CANCELLED",
    403: "INVALID_JOIN_ON_EXPRESSION",
    407: "DECIMAL_OVERFLOW", 417: "EXPECTED_ALL_OR_ANY", 418: "UNKNOWN_JOIN",
    427: "CANNOT_COMPILE_REGEXP", 431: "ILLEGAL_SYNTAX_FOR_CODEC_TYPE", 432: "UNKNOWN_CODEC",
    433: "ILLEGAL_CODEC_PARAMETER", 440: "INVALID_LIMIT_EXPRESSION",
    441: "CANNOT_PARSE_DOMAIN_VALUE_FROM_STRING", 450: "BAD_TTL_EXPRESSION",
    456: "UNKNOWN_QUERY_PARAMETER", 457: "BAD_QUERY_PARAMETER", 467: "CANNOT_PARSE_BOOL",
    471: "INVALID_SETTING_VALUE", 472: "READONLY_SETTING", 490: "CANNOT_FORMAT_DATETIME",
    497: "ACCESS_DENIED", 516: "AUTHENTICATION_FAILED", 524: "ALTER_OF_COLUMN_IS_FORBIDDEN",
    1000: "POCO_EXCEPTION",
    1001: "STD_EXCEPTION", 1002: "UNKNOWN_EXCEPTION",
}
ERROR_CODES = {name: code for code, name in ERROR_NAMES.items()}


def error_name(code):
    return ERROR_NAMES.get(code, f"CODE_{code}")


class CorpusError(Exception):
    """A malformed corpus file."""


class Statement:
    def __init__(self, text, line, expect_error=None, skip_reason=None, todo_reason=None):
        self.text = text              # what is POSTed (str)
        self.line = line              # 1-based line of its first line
        self.expect_error = expect_error  # ClickHouse error name or None
        self.skip_reason = skip_reason    # differential skip reason or None
        self.todo_reason = todo_reason    # muscles todo reason or None

    def summary(self, width=70):
        one = " ".join(self.text.split())
        return one if len(one) <= width else one[:width - 3] + "..."


class CorpusFile:
    def __init__(self, path):
        self.path = path
        self.stem = os.path.splitext(os.path.basename(path))[0]
        self.reference_path = os.path.join(os.path.dirname(path), self.stem + ".reference")
        self.database = "test_" + re.sub(r"[^A-Za-z0-9_]", "_", self.stem)
        self.skip_reason = None       # file-level differential skip reason
        self.todo_reason = None       # file-level muscles todo reason
        self.statements = []
        with open(path, encoding="utf-8") as f:
            self._parse(f.read())

    def reference(self):
        try:
            with open(self.reference_path, "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None

    _ANNOT = re.compile(r"--\s*\{([^{}]*)\}")
    _FILE_SKIP = re.compile(r"^--\s*differential:\s*skip\b\s*(.*)$")
    _FILE_TODO = re.compile(r"^--\s*muscles:\s*todo\b\s*(.*)$")
    _FORMAT_INSERT = re.compile(r"^\s*INSERT\b.*\bFORMAT\s+\w+\s*$", re.I | re.S)

    def _annotations(self, line, number, ann):
        """Adds the annotations of `line` to `ann` (keys expect, skip, todo)."""
        for m in self._ANNOT.finditer(line):
            body = m.group(1).strip()
            em = re.fullmatch(r"serverError\s+([A-Z0-9_]+)", body)
            sm = re.fullmatch(r"differential\s+skip\s*:\s*(.+)", body)
            tm = re.fullmatch(r"muscles\s+todo\s*:\s*(.+)", body)
            if em:
                if em.group(1) not in ERROR_CODES:
                    raise CorpusError(f"{self.path}:{number}: unknown error name "
                                      f"{em.group(1)} (add it to ERROR_NAMES)")
                ann["expect"] = em.group(1)
            elif sm:
                ann["skip"] = sm.group(1).strip()
            elif tm:
                ann["todo"] = tm.group(1).strip()
            else:
                raise CorpusError(f"{self.path}:{number}: unknown annotation {{{body}}}")

    def _parse(self, text):
        buf = []           # lines of the statement being read
        start = 0
        ann = {}           # annotations of the statement being read
        in_data = False    # between `INSERT ... FORMAT x` and the `;` line
        for number, raw in enumerate(text.split("\n"), 1):
            stripped = raw.strip()
            if not in_data and stripped.startswith("--"):
                m = self._FILE_SKIP.match(stripped)
                t = self._FILE_TODO.match(stripped)
                if m or t:
                    if buf:
                        raise CorpusError(f"{self.path}:{number}: file-level annotation "
                                          "inside a statement")
                    if m:
                        self.skip_reason = m.group(1).strip() or "(no reason given)"
                    else:
                        self.todo_reason = t.group(1).strip() or "(no reason given)"
                    continue
                if self._ANNOT.search(stripped) and not buf:
                    raise CorpusError(f"{self.path}:{number}: annotation outside a statement")
                if not self._ANNOT.search(stripped):
                    continue
            line = raw
            if not in_data:
                # `stmt; -- remark`: the remark is not sent.
                line = re.sub(r";\s*--(?!\s*\{).*$", ";", raw)
                raw = line
                self._annotations(raw, number, ann)
                line = self._ANNOT.sub("", raw).rstrip()
                if line.strip().startswith("--"):
                    line = ""
            if not buf and not line.strip():
                if ann:
                    raise CorpusError(f"{self.path}:{number}: annotation outside a statement")
                continue
            if not buf:
                start = number
            buf.append(line)
            if in_data:
                if line.strip().startswith(";"):
                    self._annotations(line, number, ann)
                    if self._ANNOT.sub("", line).strip() != ";":
                        raise CorpusError(f"{self.path}:{number}: INSERT data must end with "
                                          "a line `;` (annotations allowed after it)")
                    data = buf[1:-1]
                    self.statements.append(self._statement(
                        buf[0].rstrip() + "\n" + "".join(d + "\n" for d in data),
                        start, ann))
                    buf, ann, in_data = [], {}, False
                continue
            if line.rstrip().endswith(";"):
                stmt = "\n".join(buf).rstrip()[:-1].rstrip()
                if not stmt.strip():
                    raise CorpusError(f"{self.path}:{number}: empty statement")
                self.statements.append(self._statement(stmt, start, ann))
                buf, ann = [], {}
            elif len(buf) == 1 and self._FORMAT_INSERT.match(line):
                in_data = True
        if in_data:
            raise CorpusError(f"{self.path}: INSERT data at line {start} has no closing `;` line")
        if buf and "\n".join(buf).strip():
            stmt = "\n".join(buf).strip()
            self.statements.append(self._statement(stmt, start, ann))

    @staticmethod
    def _statement(text, start, ann):
        return Statement(text, start, ann.get("expect"), ann.get("skip"), ann.get("todo"))

    def todo_statements(self):
        """Statements marked `muscles todo` (all of them when the file is)."""
        return list(self.statements) if self.todo_reason else \
            [st for st in self.statements if st.todo_reason]


def list_files(directory=CORPUS_DIR, filters=()):
    """Corpus files, sorted; `filters` are substrings or NNNNN numbers."""
    names = sorted(n for n in os.listdir(directory)
                   if re.fullmatch(r"\d{5}_\w+\.sql", n))
    if filters:
        names = [n for n in names if any(f in n for f in filters)]
    return [os.path.join(directory, n) for n in names]


class Outcome:
    """One statement's result on one server."""

    def __init__(self, stmt, output, code, problem=None):
        self.stmt = stmt
        self.output = output     # bytes contributed to the file's output
        self.code = code         # error code or None
        self.problem = problem   # text when the outcome breaks the test


def run_statement(server, stmt, database):
    r = server.query(stmt.text, database)
    if r.ok:
        if stmt.expect_error:
            return Outcome(stmt, r.body, None,
                           f"line {stmt.line}: expected {stmt.expect_error}, but it succeeded")
        return Outcome(stmt, r.body, None)
    name = error_name(r.code)
    out = f"Error: {name}\n".encode()
    if stmt.expect_error is None:
        return Outcome(stmt, out, r.code,
                       f"line {stmt.line}: unexpected error: {r.message()}\n  in: {stmt.summary()}")
    if stmt.expect_error != name:
        return Outcome(stmt, out, r.code,
                       f"line {stmt.line}: expected {stmt.expect_error}, got {name}: "
                       f"{r.message()}\n  in: {stmt.summary()}")
    return Outcome(stmt, out, r.code)


def setup_database(server, cf):
    server.query_ok(f"DROP DATABASE IF EXISTS {cf.database}")
    server.query_ok(f"CREATE DATABASE {cf.database}")


def drop_database(server, cf):
    r = server.query(f"DROP DATABASE IF EXISTS {cf.database}")
    return r.ok


def left_out(stmt, skip_marked=False, skip_todo=False):
    """Whether a run leaves the statement out: `differential skip` ones when
    skip_marked, `muscles todo` ones when skip_todo."""
    return bool((skip_marked and stmt.skip_reason) or (skip_todo and stmt.todo_reason))


def run_file(server, cf, skip_marked=False, keep=False, skip_todo=False):
    """Runs every statement (but the differential-skipped ones when
    skip_marked and the `muscles todo` ones when skip_todo) in a fresh
    database; returns the list of Outcomes (None in place of a statement
    left out). When the server does not answer a statement (connection
    lost: it may have crashed), that statement's Outcome says so and the
    rest of the file is not run."""
    setup_database(server, cf)
    outcomes = []
    try:
        for stmt in cf.statements:
            if left_out(stmt, skip_marked, skip_todo):
                outcomes.append(None)
                continue
            try:
                outcomes.append(run_statement(server, stmt, cf.database))
            except (OSError, http.client.HTTPException) as e:
                outcomes.append(Outcome(stmt, b"Error: NO_RESPONSE\n", -1,
                                        f"line {stmt.line}: no response from the server "
                                        f"({type(e).__name__}: {e}); the rest of the file "
                                        f"was not run\n  in: {stmt.summary()}"))
                return outcomes
    finally:
        if not keep:
            try:
                drop_database(server, cf)
            except (OSError, http.client.HTTPException):
                pass
    return outcomes


def joined(outcomes):
    return b"".join(o.output for o in outcomes if o is not None)


def align(reference, outcomes, loose=()):
    """Matches `reference` against the outputs with a wildcard for each run
    of skipped statements (None). Returns the list of texts matched by the
    wildcards, or None when the known outputs are not where they should be.
    Outcomes whose index is in `loose` match anything (a changed or new
    statement when re-recording)."""
    pattern = []
    prev_wild = False
    for i, o in enumerate(outcomes):
        if o is None:
            if not prev_wild:
                pattern.append(b"(.*?)")
            prev_wild = True
        elif i in loose:
            pattern.append(b"(?:.*?)")
            prev_wild = False
        else:
            pattern.append(re.escape(o.output))
            prev_wild = False
    m = re.fullmatch(b"".join(pattern), reference, re.S)
    return list(m.groups()) if m else None


def align_for_record(reference, outcomes):
    """Like align, but when the reference no longer lines up because one
    compared statement changed or was added, retries with that statement
    matching anything. Returns the wildcard texts or None."""
    kept = align(reference, outcomes)
    if kept is not None:
        return kept
    return align_one_loose(reference, outcomes)[0]


def align_one_loose(reference, outcomes):
    """Finds the one compared statement whose output, matching anything,
    makes the reference line up. Returns (wildcard texts, its index) or
    (None, None)."""
    if not any(o is None for o in outcomes):
        return None, None
    for i, o in enumerate(outcomes):
        # Only between two compared statements: next to a skipped one the
        # split between the two wildcards would be a guess.
        if o is None or (i > 0 and outcomes[i - 1] is None) or \
                (i + 1 < len(outcomes) and outcomes[i + 1] is None):
            continue
        kept = align(reference, outcomes, loose={i})
        if kept is not None:
            return kept, i
    return None, None


def filled_in(outcomes, kept):
    """The output of a run whose left-out statements (None) print the texts
    the wildcards of align matched (the reference's expected output)."""
    parts, k, prev = [], 0, False
    for o in outcomes:
        if o is None:
            if not prev:
                parts.append(kept[k])
                k += 1
            prev = True
        else:
            parts.append(o.output)
            prev = False
    return b"".join(parts)


def wildcard_runs(outcomes):
    """The runs of consecutive left-out statements (None), in the order of
    align's wildcards: a list of lists of indexes."""
    runs, prev = [], False
    for i, o in enumerate(outcomes):
        if o is None:
            if not prev:
                runs.append([])
            runs[-1].append(i)
        prev = o is None
    return runs


def unified_diff(expected, actual, name, max_lines=0):
    """`-` expected, `+` actual; with max_lines > 0 at most that many lines
    of the diff, then `... N more lines`."""
    a = expected.decode("utf-8", "replace").splitlines(keepends=True)
    b = actual.decode("utf-8", "replace").splitlines(keepends=True)
    lines = difflib.unified_diff(a, b, f"{name}.reference", f"{name}.result")
    text = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in lines)
    return truncate_lines(text, max_lines)


def truncate_lines(text, max_lines):
    """At most max_lines lines of text (all when max_lines <= 0), then a
    line `... N more lines`."""
    lines = text.splitlines(keepends=True)
    if max_lines <= 0 or len(lines) <= max_lines:
        return text
    more = len(lines) - max_lines
    return "".join(lines[:max_lines]) + f"... {more} more line{'s' if more != 1 else ''}\n"
