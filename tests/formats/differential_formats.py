#!/usr/bin/env python3
"""Differential test of output formats: the same tables and rows on
ClickHouse 18.16 and muscles, the same SELECTs in every output format,
response bodies compared byte for byte.

Both servers get a fresh database (DATABASE) and the statements of SETUP
(MergeTree tables; INSERT ... VALUES and INSERT ... SELECT from numbers(N)),
which must succeed on both. Every query of QUERIES then runs once per format
of FORMATS on each side (`<query> FORMAT <name>`, one POST each) and the
bodies must be identical, with these documented exceptions:

  * JSONCompact: the "statistics" object (elapsed time, rows and bytes
    read) is removed from both bodies before the comparison.
  * RowBinaryWithNamesAndTypes does not exist in 18.16: muscles' body is
    compared with the one built from 18.16's TabSeparatedWithNamesAndTypes
    header (names and types) and its RowBinary body.
  * `decimal` queries: 18.16 always prints Decimal trailing zeros, current
    ClickHouse does not by default (output_format_decimal_trailing_zeros=0
    since 21.9). Each text format is checked twice: 18.16's body with the
    zeros removed against muscles' default output, and 18.16's body as it
    is against muscles with the setting = 1 (check name `<format> +zeros`).
  * SKIPS: (query, check) pairs where 18.16 differs from current ClickHouse,
    which muscles follows; not compared, listed with the reason at the end.
  * TODO: known muscles bugs (muscles differs from current ClickHouse);
    compared and listed at the end, but they do not fail the test.

  differential_formats.py                  start 18.16 and $MUSCLES_BIN
  differential_formats.py --muscles URL    compare with a running muscles
  differential_formats.py q05 CSV          only queries whose name contains
                                           a filter, or formats named by one

Exit status: 0 when every compared body matched, 1 on a difference, 2 on a
harness error, 77 when clickhouse-server is not installed (ctest: skipped).
"""

import argparse
import http.client
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sql"))

import servers  # noqa: E402

SKIP_EXIT = 77
DATABASE = "test_formats_differential"
SHOW_BYTES = 160  # bytes of each body shown around the first difference

FORMATS = [
    "TabSeparated",
    "TabSeparatedWithNames",
    "TabSeparatedWithNamesAndTypes",
    "CSV",
    "CSVWithNames",
    "JSONEachRow",
    "JSONCompact",
    "RowBinary",
    "RowBinaryWithNamesAndTypes",
]
TEXT_FORMATS = set(FORMATS) - {"RowBinary", "RowBinaryWithNamesAndTypes"}
DECIMAL_SETTING = {"output_format_decimal_trailing_zeros": "1"}

# ---------------------------------------------------------------------------
# Data. Types both versions support; values that stress escaping and number
# printing. Every row has a unique `id` (the sort key of every query).

ENUM = ("Enum8('a' = 1, 'b' = 2, 'it\\'s' = 3, 'tab\\t' = -1, 'x\"y' = 127, "
        "'\u65e5\u672c' = -128, 'back\\\\slash' = 0)")

SETUP = [
    # Integers: every width at its limits, then hashed-looking sequences.
    "CREATE TABLE t_int (id UInt32, u8 UInt8, u16 UInt16, u32 UInt32, u64 UInt64, "
    "i8 Int8, i16 Int16, i32 Int32, i64 Int64) ENGINE = MergeTree ORDER BY id",
    "INSERT INTO t_int VALUES (0, 0, 0, 0, 0, 0, 0, 0, 0), "
    "(1, 255, 65535, 4294967295, 18446744073709551615, 127, 32767, 2147483647, "
    "9223372036854775807)",
    "INSERT INTO t_int VALUES (2, 0, 0, 0, 0, -128, -32768, -2147483648, "
    "-9223372036854775808), (3, 1, 1, 1, 1, -1, -1, -1, -1)",
    "INSERT INTO t_int VALUES (4, 10, 1000, 100000, 10000000000, -10, -1000, -100000, "
    "-10000000000), (5, 128, 32768, 2147483648, 9223372036854775808, 64, 256, 65536, "
    "4294967296)",
    "INSERT INTO t_int SELECT number + 100, number * 37 % 256, number * 7919 % 65536, "
    "number * 2654435761 % 4294967296, number * 11400714819323198485, "
    "toInt8(number % 256 - 128), toInt16(number * 331 % 65536 - 32768), "
    "toInt32(number * 2654435761 % 4294967296 - 2147483648), "
    "toInt64(number * 11400714819323198485 % 9223372036854775807) - 4611686018427387904 "
    "FROM numbers(300)",
    "INSERT INTO t_int SELECT number + 1000, 200, 60000, number, number * number * number, "
    "-1, -2, -3, -toInt64(number * number * number) FROM numbers(50)",

    # Floats: signed zero, nan, infinities, subnormals, limits, the points
    # where the shortest form switches to exponent notation.
    "CREATE TABLE t_float (id UInt32, f32 Float32, f64 Float64) "
    "ENGINE = MergeTree ORDER BY id",
    "INSERT INTO t_float VALUES (0, 0, 0), (1, -0., -0.), (2, nan, nan), (3, inf, inf), "
    "(4, -inf, -inf), (5, -nan, -nan)",
    "INSERT INTO t_float VALUES (10, 0.1, 0.1), (11, 0.2, 0.30000000000000004), "
    "(12, 1.5, -1.5), (13, 100, 100), (14, 123456.79, 123456.789), "
    "(15, 3.4028235e38, 1.7976931348623157e308), (18, -3.4028235e38, -1.7976931348623157e308)",
    # Subnormals and the smallest normals are computed: 18.16's text parser
    # does not round them correctly (5e-324 reads as 0).
    "INSERT INTO t_float SELECT 16, toFloat32(pow(2, -149)), pow(2, -1074)",
    "INSERT INTO t_float SELECT 17, toFloat32(pow(2, -126)), pow(2, -1022)",
    "INSERT INTO t_float SELECT 19, toFloat32(pow(2, -140)) * 3, pow(2, -1060) * 7",
    "INSERT INTO t_float VALUES (20, 1e15, 1e15), (21, 1e16, 1e16), (22, 1e20, 1e20), "
    "(23, 1e21, 1e21), (24, 1e22, 1e22), (25, 1e-5, 1e-5), (26, 1e-6, 1e-6), "
    "(27, 1e-7, 1e-7), (28, 16777216, 9007199254740992), (29, 16777217, 9007199254740993)",
    "INSERT INTO t_float VALUES (30, 0.3333333, 0.3333333333333333), (31, 2.5e-10, 2.5e-300), "
    "(32, 12345678, 123456789012345680000), (33, -0.000001, -0.0000001), "
    "(34, 4294967296, 36893488147419103232), (35, 1e10, 1e100)",
    "INSERT INTO t_float SELECT number + 100, number / 7, number / 3 - 50 FROM numbers(200)",
    "INSERT INTO t_float SELECT number + 400, toFloat32(number) * 1.25e-3, "
    "exp(toFloat64(number) - 40) FROM numbers(56)",
    "INSERT INTO t_float SELECT number + 500, -toFloat32(number) / 1000, "
    "sqrt(toFloat64(number)) FROM numbers(40)",
    # (Float32 exponents chosen to stay out of the integral range of t_float_big.)
    "INSERT INTO t_float SELECT number + 600, toFloat32(pow(10, "
    "[-20, -15, -10, -7, -5, -3, -1, 0, 1, 3, 5, 11, 14, 20, 25, 30, 35][number % 17 + 1]) "
    "* (number + 1) / 7), "
    "pow(10, number % 600 - 300) * (number + 1) / 7 FROM numbers(300)",
    # Integral floats above 2^24 (Float32) and 2^53 (Float64): their own table,
    # see TODO.
    "CREATE TABLE t_float_big (id UInt32, f32 Float32, f64 Float64) "
    "ENGINE = MergeTree ORDER BY id",
    "INSERT INTO t_float_big SELECT number, toFloat32(pow(2, 24 + number % 8) + number * 3), "
    "pow(2, 53 + number % 12) + number * 3 FROM numbers(60)",

    # Strings: every escaped byte, quotes, UTF-8, control and invalid bytes.
    "CREATE TABLE t_str (id UInt32, s String, fs FixedString(6), ns Nullable(String), "
    "a Array(String)) ENGINE = MergeTree ORDER BY id",
    "INSERT INTO t_str VALUES (0, '', '', NULL, []), (1, 'plain', 'abcdef', 'x', ['a'])",
    "INSERT INTO t_str VALUES (2, 'tab\\there', 'a\\tb', 'new\\nline', ['t\\tt', 'n\\nn']), "
    "(3, 'quote\\'single', 'q\\'', 'dq\"double', ['\\'', '\"'])",
    "INSERT INTO t_str VALUES (4, 'back\\\\slash', '\\\\', 'end\\\\', ['\\\\', '\\\\\\\\']), "
    "(5, 'cr\\rlf\\r\\n', 'cr\\r', '\\b\\f', ['\\r\\n', '\\b\\f'])",
    "INSERT INTO t_str VALUES (6, 'nul\\0byte', '\\0\\0', 'a\\0', ['\\0']), "
    "(7, 'ctl\\x01\\x02\\x1f\\x7f', '\\x01\\x1f', '\\x1b[0m', ['\\x01', '\\x7f'])",
    "INSERT INTO t_str VALUES (8, 'caf\u00e9 \u65e5\u672c\u8a9e \U0001f600', '\u00e9\u00e9', "
    "'\u0416', ['\u65e5', '\U0001f600'])",
    "INSERT INTO t_str VALUES (9, 'sep\u2028\u2029sep', 'x', '\u00a0', ['\u2028']), "
    "(10, 'slash/and</script>', '/', '//', ['/'])",
    "INSERT INTO t_str VALUES (11, 'bad\\xff\\xfeutf8\\xc3', '\\xff', '\\xc3\\x28', ['\\xff']), "
    "(12, 'comma,semi;pipe|', ',', ';', [',', ''])",
    "INSERT INTO t_str VALUES (13, '  spaces  ', ' ', ' ', [' ', '  ']), "
    "(14, 'NULL', 'NULL', 'NULL', ['NULL']), (15, '\\\\N', '\\\\N', '\\\\N', ['\\\\N'])",
    "INSERT INTO t_str VALUES (16, '[1,2]', '[]', '{}', ['[', ']']), "
    "(17, '\"quoted\"', '\"\"', '\"', ['\"\"']), (18, 'x\\'\\'y', '\\'\\'', '', [])",
    "INSERT INTO t_str VALUES (19, 'raw\ttab\nnewline', 'r\tn', 'raw\x01ctl', ['raw\ttab'])",
    "INSERT INTO t_str SELECT number + 100, concat('row ', toString(number), "
    "if(number % 3 = 0, '\\t', if(number % 3 = 1, '\\n', '\"'))), "
    "toFixedString(toString(number * 7), 6), "
    "if(number % 4 = 0, NULL, arrayStringConcat(arrayMap(x -> 'ab\\\\', range(number % 5)))), "
    "arrayMap(x -> toString(x * number), range(number % 4)) FROM numbers(150)",

    # Dates and times (DateTime in UTC on both sides).
    "CREATE TABLE t_dt (id UInt32, d Date, dt DateTime('UTC'), nd Nullable(Date), "
    "ndt Nullable(DateTime('UTC')), ad Array(Date), adt Array(DateTime('UTC'))) "
    "ENGINE = MergeTree ORDER BY id",
    "INSERT INTO t_dt VALUES (0, '1970-01-02', '1970-01-02 00:00:00', NULL, NULL, [], []), "
    "(1, '1970-01-03', '1970-01-02 23:59:59', '2000-01-01', '2000-01-01 00:00:00', "
    "['2000-01-01'], ['2000-01-01 12:34:56'])",
    "INSERT INTO t_dt VALUES (2, '2000-02-29', '2000-02-29 23:59:59', '2004-02-29', NULL, "
    "['1999-12-31', '2000-01-01'], ['1999-12-31 23:59:59', '2000-01-01 00:00:00']), "
    "(3, '2038-01-19', '2038-01-19 03:14:07', NULL, '2038-01-19 03:14:08', [], [])",
    "INSERT INTO t_dt VALUES (4, '2100-12-31', '2100-12-31 23:59:59', '2099-01-01', "
    "'2099-12-31 00:00:00', ['2100-02-28'], ['2100-03-01 00:00:00'])",
    "INSERT INTO t_dt SELECT number + 100, toDate('1995-06-15') + number * 97, "
    "toDateTime('1990-01-01 00:00:00', 'UTC') + number * 3607 * 53, "
    "if(number % 3 = 0, NULL, toDate('2010-01-01') + number), "
    "if(number % 5 = 0, NULL, toDateTime('2020-02-29 00:00:00', 'UTC') + number * 61), "
    "arrayMap(x -> toDate('2020-01-01') + x, range(number % 3)), "
    "arrayMap(x -> toDateTime('2020-01-01 00:00:00', 'UTC') + x * 3600, range(number % 4)) "
    "FROM numbers(120)",

    # The zero Date and DateTime (the epoch): 18.16 prints them as 0000-00-00.
    "CREATE TABLE t_dt0 (id UInt32, d Date, dt DateTime('UTC'), nd Nullable(Date), "
    "adt Array(DateTime('UTC'))) ENGINE = MergeTree ORDER BY id",
    "INSERT INTO t_dt0 VALUES (0, '1970-01-01', '1970-01-01 00:00:00', '1970-01-01', "
    "['1970-01-01 00:00:00']), (1, '1970-01-02', '1970-01-01 00:00:01', NULL, [])",

    # Decimals of every width.
    "CREATE TABLE t_dec (id UInt32, d32 Decimal(9, 2), d64 Decimal(18, 4), "
    "d128 Decimal(38, 10), d0 Decimal(9, 0), nd Nullable(Decimal(9, 3)), "
    "ad Array(Decimal(18, 2))) ENGINE = MergeTree ORDER BY id",
    "INSERT INTO t_dec VALUES (0, 0, 0, 0, 0, NULL, []), "
    "(1, 1.5, 1.5, 1.5, 1, 1.5, [1.5, 2]), (2, -1.5, -0.0001, -0.0000000001, -1, -0.001, [-0.01])",
    "INSERT INTO t_dec VALUES (3, 9999999.99, 99999999999999.9999, "
    "9999999999999999999999999999.9999999999, 999999999, 999999.999, [99999999999.99]), "
    "(4, -9999999.99, -99999999999999.9999, -9999999999999999999999999999.9999999999, "
    "-999999999, -999999.999, [-99999999999.99])",
    # Array(Decimal) elements beyond 2^53 (their own table, see TODO).
    "CREATE TABLE t_dec_wide (id UInt32, d Decimal(18, 2), ad Array(Decimal(18, 2))) "
    "ENGINE = MergeTree ORDER BY id",
    "INSERT INTO t_dec_wide VALUES (0, 9999999999999999.99, [9999999999999999.99]), "
    "(1, -9007199254740993.25, [-9007199254740993.25, 0.01])",
    "INSERT INTO t_dec VALUES (5, 0.01, 0.1, 0.01, 10, 0.1, [0.1, 0.01, 10]), "
    "(6, 100, 100, 100, 100, 100, [100]), (7, 0.1, 1.0001, 3.1415926535, 7, NULL, [])",
    "INSERT INTO t_dec SELECT number + 100, "
    "toDecimal32(concat(toString(intDiv(number * 7919, 100) % 1000000), '.', "
    "toString(number * 13 % 100)), 2), "
    "toDecimal64(concat('-', toString(number * 104729), '.', toString(number % 10000)), 4), "
    "toDecimal128(concat(toString(number), '.', toString(number * 7 % 100000)), 10), "
    "toDecimal32(toString(number * 3 - 150), 0), "
    "if(number % 3 = 0, NULL, toDecimal32(toString(number % 17), 3)), "
    "arrayMap(x -> toDecimal64(toString(x * 25), 2), range(number % 4)) FROM numbers(100)",

    # Enum8, UUID.
    "CREATE TABLE t_misc (id UInt32, e " + ENUM + ", ne Nullable(" + ENUM + "), u UUID, "
    "nu Nullable(UUID), ae Array(" + ENUM + ")) ENGINE = MergeTree ORDER BY id",
    "INSERT INTO t_misc VALUES (0, 'a', NULL, '00000000-0000-0000-0000-000000000000', NULL, []), "
    "(1, 'it\\'s', 'tab\\t', '61f0c404-5cb3-11e7-907b-a6006ad3dba0', "
    "'ffffffff-ffff-ffff-ffff-ffffffffffff', ['a', 'b'])",
    "INSERT INTO t_misc VALUES (2, 'x\"y', '\u65e5\u672c', '01234567-89ab-cdef-0123-456789abcdef', "
    "'00000000-0000-0000-0000-000000000001', ['x\"y', 'tab\\t']), "
    "(3, 'back\\\\slash', 'back\\\\slash', '80000000-0000-0000-8000-000000000000', "
    "NULL, ['back\\\\slash'])",
    "INSERT INTO t_misc SELECT number + 100, "
    "CAST(['a', 'b', 'it\\'s', 'tab\\t', 'x\"y', '\u65e5\u672c', 'back\\\\slash']"
    "[number % 7 + 1] AS " + ENUM + "), "
    "if(number % 2 = 0, NULL, CAST(['b', 'a'][number % 2 + 1] AS " + ENUM + ")), "
    "toUUID(concat('00000000-0000-4000-8000-', "
    "substring(concat('000000000000', lower(hex(number * 2654435761))), "
    "length(concat('000000000000', lower(hex(number * 2654435761)))) - 11, 12))), "
    "if(number % 3 = 0, NULL, toUUID(concat('deadbeef-0000-0000-0000-0000000000', "
    "lower(hex(toUInt8(number)))))), "
    "arrayMap(x -> CAST('b' AS " + ENUM + "), range(number % 3)) FROM numbers(80)",

    # Nullable scalars and nested arrays.
    "CREATE TABLE t_nested (id UInt32, ai Array(Int32), aai Array(Array(UInt8)), "
    "an Array(Nullable(Int64)), af Array(Float64), afs Array(FixedString(3)), "
    "au Array(UUID), ans Array(Nullable(String)), nu8 Nullable(UInt8), "
    "ni64 Nullable(Int64), nf Nullable(Float64), nfs Nullable(FixedString(2))) "
    "ENGINE = MergeTree ORDER BY id",
    "INSERT INTO t_nested VALUES (0, [], [], [], [], [], [], [], NULL, NULL, NULL, NULL), "
    "(1, [1, -2, 2147483647], [[1, 2], [], [255]], [NULL, 1, -9223372036854775808], "
    "[nan, inf, -inf, -0., 0.5], ['abc', 'x'], ['61f0c404-5cb3-11e7-907b-a6006ad3dba0'], "
    "[NULL, 'a\\tb', '\\\\N'], 0, 0, 0, 'ab')",
    "INSERT INTO t_nested VALUES (2, [-2147483648], [[]], [NULL], [1e100, 1e-100], "
    "['\\0\\0\\0'], [], [NULL, NULL], 255, -9223372036854775808, nan, '\\t\\n'), "
    "(3, [0], [[0], [0, 0]], [9223372036854775807], [0.1, 0.2, 0.3], ['\\'\\'\\''], [], "
    "['\\'', '\"', '\\n'], 1, 9223372036854775807, -inf, 'x')",
    "INSERT INTO t_nested VALUES (4, [3], [[9]], [], [-1.5], [], [], [], NULL, 1, inf, NULL), "
    "(5, [4], [], [5], [], [], [], [''], 5, NULL, -0., '')",
    "INSERT INTO t_nested SELECT number + 100, "
    "arrayMap(x -> toInt32(x * number) - 1000, range(number % 5)), "
    "arrayMap(x -> arrayMap(y -> toUInt8(y + x), range(x % 3)), range(number % 4)), "
    "arrayMap(x -> if(x % 2 = 0, NULL, toInt64(x) * 4294967296), range(number % 4)), "
    "arrayMap(x -> x / 8, range(number % 3)), "
    "arrayMap(x -> toFixedString(toString(x), 3), range(number % 3)), "
    "arrayMap(x -> toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0'), range(number % 2)), "
    "arrayMap(x -> if(x = 1, NULL, concat('s', toString(x))), range(number % 4)), "
    "if(number % 3 = 0, NULL, toUInt8(number)), "
    "if(number % 4 = 0, NULL, toInt64(number) * -1000000007), "
    "if(number % 5 = 0, NULL, number / 16), "
    "if(number % 6 = 0, NULL, toFixedString(toString(number % 100), 2)) FROM numbers(100)",

    "CREATE TABLE t_empty (id UInt32, s String, a Array(UInt8), n Nullable(Int32)) "
    "ENGINE = MergeTree ORDER BY id",
]


class Query:
    """`decimal`: has Decimal values (see the module comment). `numbers`:
    reads numbers(N) without LIMIT, for which 18.16's JSONCompact has a
    "rows_before_limit_at_least" that current ClickHouse does not write
    (see NUMBERS_LIMIT)."""

    def __init__(self, name, sql, decimal=False, numbers=False):
        self.name = name
        self.sql = sql
        self.decimal = decimal
        self.numbers = numbers


QUERIES = [
    Query("q01_int_all", "SELECT * FROM t_int ORDER BY id"),
    Query("q02_int_exprs",
          "SELECT id, u8 + u16 AS sum_small, i32 * 2 AS twice, intDiv(u64, 3) AS third, "
          "-i16 AS neg, toUInt64(u32) * 4294967296 AS big, i8 < 0 AS is_neg "
          "FROM t_int ORDER BY id"),
    Query("q03_float_all", "SELECT * FROM t_float ORDER BY id"),
    Query("q04_float_exprs",
          "SELECT id, f64 * 2 AS twice, toFloat32(f64) AS narrowed, toFloat64(f32) AS widened, "
          "-f32 AS neg, f64 / 3 AS third FROM t_float ORDER BY id"),
    Query("q05_str_all", "SELECT * FROM t_str ORDER BY id"),
    Query("q06_str_exprs",
          "SELECT id, length(s) AS len, concat(s, '|', fs) AS joined, [s, ns] AS pair, "
          "toNullable(fs) AS nfs FROM t_str ORDER BY id"),
    Query("q07_dt_all", "SELECT * FROM t_dt ORDER BY id"),
    Query("q08_dt_exprs",
          "SELECT id, d + 1 AS next_day, toDate(dt) AS day, toYear(d) AS y, "
          "toUnixTimestamp(dt) AS ts, [d, d] AS days FROM t_dt ORDER BY id"),
    Query("q09_dec_all", "SELECT * FROM t_dec ORDER BY id", decimal=True),
    Query("q10_dec_exprs",
          "SELECT id, d32 + d32 AS doubled, d64 * 2 AS times2, -d128 AS neg, "
          "toDecimal64(d32, 4) AS widened, d0 AS whole FROM t_dec ORDER BY id", decimal=True),
    Query("q11_misc_all", "SELECT * FROM t_misc ORDER BY id"),
    Query("q12_misc_exprs",
          "SELECT id, CAST(e AS Int8) AS code, toString(e) AS name, toString(u) AS us, "
          "[u] AS us_arr FROM t_misc ORDER BY id"),
    Query("q13_nested_all", "SELECT * FROM t_nested ORDER BY id"),
    Query("q14_nullable_sort",
          "SELECT id, nf, nu8 FROM t_nested ORDER BY nf DESC, id"),
    Query("q15_group_by",
          "SELECT u8 % 4 AS k, count() AS c, sum(u64) AS s, min(i64) AS lo, max(i32) AS hi, "
          "avg(u16) AS mean FROM t_int GROUP BY k ORDER BY k"),
    Query("q16_group_strings",
          "SELECT id % 3 AS k, groupArray(s) AS ss, count(ns) AS c FROM "
          "(SELECT * FROM t_str ORDER BY id) GROUP BY k ORDER BY k"),
    Query("q17_limit", "SELECT id, s FROM t_str ORDER BY id LIMIT 5"),
    Query("q18_limit_offset", "SELECT id, f64 FROM t_float ORDER BY id LIMIT 3 OFFSET 10"),
    Query("q19_empty_result", "SELECT * FROM t_str WHERE id > 1000000 ORDER BY id"),
    Query("q20_empty_table", "SELECT * FROM t_empty ORDER BY id"),
    Query("q21_constants",
          "SELECT 1 AS one, -1 AS minus, 'x\\ty' AS s, NULL AS n, [1, 2] AS arr, "
          "[NULL, 1] AS narr, 0.5 AS half, toNullable(3) AS nn ORDER BY one"),
    Query("q22_many_rows",
          "SELECT number AS n, toString(number * 3) AS s, number / 4 AS q "
          "FROM numbers(30000) ORDER BY n", numbers=True),
    Query("q23_many_rows_signed",
          "SELECT toInt64(number) - 5000 AS i, [number % 3, number % 5] AS a "
          "FROM numbers(12000) ORDER BY i DESC", numbers=True),
    Query("q24_totals",
          "SELECT u8 % 3 AS k, count() AS c FROM t_int GROUP BY k WITH TOTALS ORDER BY k"),
    Query("q25_in_subquery",
          "SELECT id, u64, i64 FROM t_int WHERE id IN (SELECT id FROM t_float) ORDER BY id"),
    Query("q26_names",
          "SELECT id AS `tab\tname`, s AS `quote\"name`, fs AS `back\\\\name`, "
          "ns AS `\u65e5\u672c` FROM t_str ORDER BY id LIMIT 4"),
    Query("q27_distinct_enum", "SELECT DISTINCT e FROM t_misc ORDER BY e"),
    Query("q28_join",
          "SELECT t_int.id AS id, u8, f32 FROM t_int ALL INNER JOIN t_float USING id "
          "ORDER BY id"),
    Query("q29_nullable_aggregates",
          "SELECT id % 4 AS k, sum(nu8) AS s, count(ni64) AS c, max(nf) AS m, "
          "min(nfs) AS f FROM t_nested GROUP BY k ORDER BY k"),
    Query("q30_float_arrays",
          "SELECT id, [f64, f64 / 2] AS pair, [f32] AS one FROM t_float ORDER BY id"),
    Query("q31_dec_nullable",
          "SELECT id, nd, ad, d32 = d64 AS eq FROM t_dec ORDER BY id", decimal=True),
    Query("q32_uint_widths",
          "SELECT toUInt8(id) AS a, toUInt16(id * 300) AS b, toInt32(id) - 500 AS c, "
          "toFloat32(id) / 8 AS d FROM t_int ORDER BY id"),
    Query("q33_zero_date", "SELECT * FROM t_dt0 ORDER BY id"),
    Query("q34_dec_wide", "SELECT * FROM t_dec_wide ORDER BY id", decimal=True),
    Query("q35_float_big_integers",
          "SELECT id, f32, f64, -f32 AS neg32, [f64] AS arr FROM t_float_big ORDER BY id"),
]

TEXT_ONLY = [f for f in FORMATS if f in TEXT_FORMATS]
ZEROS = " +zeros"  # check name suffix: muscles gets DECIMAL_SETTING


def checks(query):
    """(check name, format, URL parameters for muscles) of a query: one per
    format, two per text format of a `decimal` query (18.16's body without
    trailing zeros against muscles' default, and 18.16's body as it is
    against muscles with DECIMAL_SETTING)."""
    for fmt in FORMATS:
        yield fmt, fmt, None
        if query.decimal and fmt in TEXT_FORMATS:
            yield fmt + ZEROS, fmt, DECIMAL_SETTING


# Where 18.16's body differs from current ClickHouse's (which muscles
# follows): not compared, listed with the reason at the end. Each reason was
# checked against current ClickHouse's source or documentation.
ZERO_DATE = ("18.16 prints the zero Date/DateTime as 0000-00-00 / 0000-00-00 00:00:00; "
             "current ClickHouse prints 1970-01-01 / 1970-01-01 00:00:00 since 20.7 "
             "(ClickHouse PR #12442 'Deprecate special printing of zero Date/DateTime'); "
             "the RowBinary formats are compared")
TOTALS_COMPACT = ("18.16 writes the JSONCompact \"totals\" row as [0,\"356\"]; current "
                  "ClickHouse separates its values with \", \" like the data rows "
                  "(JSONCompactRowOutputFormat::writeTotals -> JSONUtils::writeCompactColumns "
                  "-> writeFieldCompactDelimiter)")
SKIPS = {}
for _fmt in TEXT_ONLY:
    SKIPS[("q33_zero_date", _fmt)] = ZERO_DATE
SKIPS[("q24_totals", "JSONCompact")] = TOTALS_COMPACT

# Comparisons made after an adjustment, listed at the end.
DECIMAL_DEFAULT = ("18.16's body with the Decimal trailing zeros removed (1.50 -> 1.5, "
                   "2.00 -> 2): 18.16 always prints them, current ClickHouse does not by "
                   "default since 21.9 (output_format_decimal_trailing_zeros = 0); these "
                   "queries have no other numbers with a fraction")
DECIMAL_ZEROS = ("muscles gets output_format_decimal_trailing_zeros=1 (18.16 has no such "
                 "setting and rejects unknown ones); 18.16's body as it is")
NUMBERS_LIMIT = ("\"rows_before_limit_at_least\" removed from 18.16's body: 18.16 reads "
                 "numbers(N) through an internal LIMIT and reports it; current ClickHouse "
                 "writes the field only for a query with LIMIT (docs, JSON format: "
                 "'Output only if the query contains LIMIT')")
ROW_BINARY_NAMES_TYPES = ("18.16 has no RowBinaryWithNamesAndTypes: the expected body is "
                          "varuint(columns), names and types as binary strings (from 18.16's "
                          "TabSeparatedWithNamesAndTypes header), then 18.16's RowBinary body, "
                          "as current ClickHouse's BinaryRowOutputFormat::writePrefix writes it")


def adjustment(query, check, fmt):
    if fmt == "RowBinaryWithNamesAndTypes":
        return ROW_BINARY_NAMES_TYPES
    if query.decimal and fmt in TEXT_FORMATS:
        return DECIMAL_ZEROS if check.endswith(ZEROS) else DECIMAL_DEFAULT
    if query.numbers and fmt == "JSONCompact":
        return NUMBERS_LIMIT
    return None


# Known muscles differences from current ClickHouse (muscles bugs, not
# version differences): still compared, but a difference is listed apart
# and does not fail the test; one that matches again is reported so that
# its entry can be removed.
DECIMAL_ZEROS_IGNORED = ("muscles ignores output_format_decimal_trailing_zeros=1 in "
                         "TSV/CSV/JSONEachRow (src/formats: only json.c and pretty.c read "
                         "the option); current ClickHouse honours it in every text format")
ARRAY_DECIMAL_VALUES = ("muscles' INSERT ... VALUES reads Array(Decimal(18, 2)) elements "
                        "through Float64: 9999999999999999.99 is stored as "
                        "10000000000000000.00 (scalar Decimal columns are exact)")
TODO = {}
for _check, _fmt, _ in checks(next(q for q in QUERIES if q.name == "q34_dec_wide")):
    TODO[("q34_dec_wide", _check)] = ARRAY_DECIMAL_VALUES


# ---------------------------------------------------------------------------

def varuint(value):
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


_TSV_UNESCAPE = {ord("t"): b"\t", ord("n"): b"\n", ord("r"): b"\r", ord("b"): b"\b",
                 ord("f"): b"\f", ord("0"): b"\0", ord("\\"): b"\\", ord("'"): b"'"}


def tsv_unescape(field):
    out = bytearray()
    i = 0
    while i < len(field):
        c = field[i]
        if c == 0x5C and i + 1 < len(field):
            out += _TSV_UNESCAPE.get(field[i + 1], bytes([field[i + 1]]))
            i += 2
        else:
            out.append(c)
            i += 1
    return bytes(out)


def row_binary_with_names_and_types(tsv_names_types, row_binary):
    """RowBinaryWithNamesAndTypes as current ClickHouse writes it: varuint
    column count, the names, the types (varuint length + bytes each), then
    the RowBinary rows; built from 18.16's TabSeparatedWithNamesAndTypes
    body (its two header lines) and its RowBinary body."""
    lines = tsv_names_types.split(b"\n")
    if len(lines) < 3:
        raise ValueError("TabSeparatedWithNamesAndTypes body without two header lines")
    names = [tsv_unescape(f) for f in lines[0].split(b"\t")]
    types = [tsv_unescape(f) for f in lines[1].split(b"\t")]
    if len(names) != len(types):
        raise ValueError("header lines of different widths")
    out = bytearray(varuint(len(names)))
    for s in names + types:
        out += varuint(len(s)) + s
    return bytes(out) + row_binary


_STATISTICS_RE = re.compile(rb',\n\n\t"statistics":\n\t\{\n.*?\n\t\}(?=\n\}\n$)', re.S)
_ROWS_BEFORE_LIMIT_RE = re.compile(rb',\n\n\t"rows_before_limit_at_least": \d+')


def normalized(fmt, body, drop_rows_before_limit=False):
    """The body as compared: JSONCompact without its "statistics" object
    (and, when asked, without "rows_before_limit_at_least")."""
    if fmt != "JSONCompact":
        return body
    body, n = _STATISTICS_RE.subn(b"", body)
    if n != 1:
        body += b'\n(no "statistics" object at the end)'
    if drop_rows_before_limit:
        body = _ROWS_BEFORE_LIMIT_RE.sub(b"", body)
    return body


def excerpt(body, at):
    """SHOW_BYTES of `body` around offset `at`, as a Python bytes literal."""
    start = max(0, at - SHOW_BYTES // 2)
    end = min(len(body), start + SHOW_BYTES)
    text = repr(body[start:end])[2:-1]
    return ("..." if start else "") + text + ("..." if end < len(body) else "")


def first_difference(a, b):
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


def summary(sql, width=110):
    one_line = " ".join(sql.split())
    return one_line if len(one_line) <= width else one_line[:width - 3] + "..."


class Side:
    """One server and the bodies fetched for the current query."""

    def __init__(self, server, label):
        self.server = server
        self.label = label
        self.cache = {}

    def run(self, sql, params=None):
        return self.server.query(sql, DATABASE, params)

    def body(self, query, fmt, params=None):
        key = (fmt, tuple(sorted((params or {}).items())))
        if key not in self.cache:
            self.cache[key] = self.run(f"{query.sql} FORMAT {fmt}", params)
        return self.cache[key]


def setup_side(side):
    """A fresh database and the SETUP statements; returns the errors."""
    for sql in (f"DROP DATABASE IF EXISTS {DATABASE}", f"CREATE DATABASE {DATABASE}"):
        r = side.server.query(sql)
        if not r.ok:
            return [f"{side.label}: `{sql}`: {r.message()}"]
    errors = []
    for sql in SETUP:
        r = side.run(sql)
        if not r.ok:
            errors.append(f"{side.label}: `{summary(sql)}`: {r.message()[:400]}")
    return errors


_DECIMAL_ZEROS_RE = re.compile(rb"(?<![\w.])(-?\d+)\.(\d*?)0+(?![\d.])")


def without_decimal_zeros(body):
    """1.50 -> 1.5, 2.00 -> 2 for every number with a fraction in `body`."""
    return _DECIMAL_ZEROS_RE.sub(
        lambda m: m.group(1) + (b"." + m.group(2) if m.group(2) else b""), body)


def compare(ch, mu, query, check, fmt, mu_params):
    """None when the bodies are equal, else a text showing the difference."""
    if fmt == "RowBinaryWithNamesAndTypes":
        header = ch.body(query, "TabSeparatedWithNamesAndTypes")
        rows = ch.body(query, "RowBinary")
        for r in (header, rows):
            if not r.ok:
                return f"clickhouse 18.16 failed: {r.message()[:400]}"
        expected = row_binary_with_names_and_types(header.body, rows.body)
    else:
        r = ch.body(query, fmt)
        if not r.ok:
            return f"clickhouse 18.16 failed: {r.message()[:400]}"
        expected = normalized(fmt, r.body, drop_rows_before_limit=query.numbers)
        if adjustment(query, check, fmt) == DECIMAL_DEFAULT:
            expected = without_decimal_zeros(expected)
    got = mu.body(query, fmt, mu_params)
    if not got.ok:
        return (f"muscles failed: {got.message()[:400]}\n"
                f"    clickhouse 18.16: {excerpt(expected, 0)}")
    actual = normalized(fmt, got.body)
    if actual == expected:
        return None
    at = first_difference(expected, actual)
    return (f"bodies differ at byte {at} (lengths {len(expected)} / {len(actual)})\n"
            f"    clickhouse 18.16: {excerpt(expected, at)}\n"
            f"    muscles:          {excerpt(actual, at)}")


def selected(query, check, filters):
    return not filters or any(f in query.name or f == check.split()[0] for f in filters)


def print_grouped(title, entries):
    """entries: (query, check, reason); one paragraph per reason."""
    print(f"\n{title} ({len(entries)}):")
    by_reason = {}
    for query, check, reason in entries:
        by_reason.setdefault(reason, {}).setdefault(query.name, []).append(check)
    for reason, queries in by_reason.items():
        print(f"  {reason}:")
        checks_seen = {tuple(c) for c in queries.values()}
        if len(queries) == len(QUERIES) and len(checks_seen) == 1:
            print(f"      every query: {', '.join(checks_seen.pop())}")
            continue
        for name, names in queries.items():
            print(f"      {name}: {', '.join(names)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("filters", nargs="*", help="substrings of query names, or format names")
    ap.add_argument("--clickhouse", default="clickhouse",
                    help="URL of a running ClickHouse 18.16 (default: start one)")
    ap.add_argument("--muscles", default="muscles",
                    help="URL of a running muscles (default: start $MUSCLES_BIN)")
    ap.add_argument("--keep", action="store_true",
                    help=f"keep the database {DATABASE} on both servers")
    args = ap.parse_args()

    if args.clickhouse == "clickhouse" or args.muscles == "clickhouse":
        if servers.clickhouse_server_binary() is None:
            print("SKIP: clickhouse-server (18.16) is not installed; "
                  "apt-get install clickhouse-server", flush=True)
            return SKIP_EXIT

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
        ch = Side(ch_server, "clickhouse 18.16")
        mu = Side(mu_server, "muscles")
        try:
            version = ch_server.query("SELECT version()")
            print(f"clickhouse: {ch_server.url} (version "
                  f"{version.body.decode().strip() if version.ok else '?'}); "
                  f"muscles: {mu_server.url}", flush=True)
            errors = setup_side(ch) + setup_side(mu)
        except (OSError, http.client.HTTPException) as e:
            print(f"harness error during set-up: {type(e).__name__}: {e}", file=sys.stderr)
            return 2
        if errors:
            print("set-up statements failed:")
            for e in errors:
                print("  " + e)
            return 1 if all(e.startswith("muscles") for e in errors) else 2
        print(f"set-up: {len(SETUP)} statements on both servers", flush=True)

        compared = failures = 0
        skipped, adjusted, todo_differs, todo_matches = [], [], [], []
        for query in QUERIES:
            ch.cache.clear()
            mu.cache.clear()
            for check, fmt, mu_params in checks(query):
                if not selected(query, check, args.filters):
                    continue
                reason = SKIPS.get((query.name, check))
                if reason:
                    skipped.append((query, check, reason))
                    continue
                try:
                    diff = compare(ch, mu, query, check, fmt, mu_params)
                except (OSError, http.client.HTTPException) as e:
                    diff = f"harness error: {type(e).__name__}: {e}"
                    ch.server.close()
                    mu.server.close()
                except ValueError as e:
                    diff = f"cannot build the expected body: {e}"
                compared += 1
                note = adjustment(query, check, fmt)
                if note:
                    adjusted.append((query, check, note))
                todo = TODO.get((query.name, check))
                if todo:
                    (todo_differs if diff else todo_matches).append((query, check, todo))
                    if diff:
                        print(f"known muscles difference {query.name} {check}:\n  {diff}",
                              flush=True)
                    continue
                if diff is None:
                    continue
                failures += 1
                print(f"FAIL {query.name} {check}: {summary(query.sql)}\n  {diff}", flush=True)
        for s in (ch, mu):
            status = s.server.exit_status()
            if status is not None:
                print(f"{s.label} {status}:\n{s.server.log_tail(15)}")
                failures += 1

        print_grouped("skipped: 18.16 differs from current ClickHouse", skipped)
        print_grouped("compared after an adjustment", adjusted)
        print_grouped("known muscles differences (muscles bugs; not failing)", todo_differs)
        if todo_matches:
            print_grouped("known muscles differences that now match: remove them from TODO",
                          todo_matches)
        print(f"\nsummary: {compared} bodies compared ({len(QUERIES)} queries, "
              f"{len(FORMATS)} formats), {failures} differ, {len(todo_differs)} known muscles "
              f"differences, {len(skipped)} skipped")
        if not args.keep:
            for s in (ch, mu):
                s.server.query(f"DROP DATABASE IF EXISTS {DATABASE}")
        return 1 if failures else 0
    finally:
        for s in started:
            s.stop()


if __name__ == "__main__":
    sys.exit(main())
