/* parser_test.c: goal — every statement form and expression form of the
 * dialect parses, formats to canonical SQL that re-parses to the same AST
 * (second format byte-identical), builds the node kinds the binder expects,
 * and every malformed statement fails with MU_ESYNTAX at the right 1-based
 * position with a useful "Expected" list; nesting past the limit fails with
 * MU_ETOO_DEEP instead of recursing without bound.
 */
#include "sql_test_util.h"

static const char *const good_statements[] = {
    /* SELECT basics */
    "SELECT 1",
    "select 1;",
    "SELECT 1, 2, 3",
    "SELECT *",
    "SELECT * FROM t",
    "SELECT t.* FROM t",
    "SELECT db.t.a FROM db.t",
    "SELECT a, b FROM db.t",
    "SELECT DISTINCT a FROM t",
    "SELECT ALL a FROM t",
    "SELECT a AS x, b y, c AS `select` FROM t",
    "SELECT `a b`, \"c d\" FROM `my table`",
    "SELECT a FROM t AS x",
    "SELECT a FROM t x",
    "SELECT a FROM t FINAL",
    "SELECT a FROM t AS x FINAL WHERE a > 1",
    "SELECT number FROM numbers(10)",
    "SELECT number FROM numbers(10) AS n WHERE n.number % 2 = 0",
    "SELECT * FROM (SELECT 1 AS x) AS s",
    "SELECT * FROM (SELECT 1 AS x) s",
    "SELECT * FROM (SELECT 1 UNION ALL SELECT 2)",
    "SELECT a FROM t PREWHERE b = 1 WHERE c = 2",
    "SELECT a, count() FROM t GROUP BY a",
    "SELECT a, count() FROM t GROUP BY a WITH TOTALS",
    "SELECT count() FROM t WITH TOTALS",
    "SELECT map(1, 2)",
    "SELECT {'k': 1, 'j': 2}",
    "SELECT a, count() AS c FROM t GROUP BY a HAVING c > 10",
    "SELECT a FROM t ORDER BY a",
    "SELECT a FROM t ORDER BY a ASC, b DESC",
    "SELECT a FROM t ORDER BY a DESC NULLS FIRST, b NULLS LAST",
    "SELECT a FROM t ORDER BY a ASCENDING, b DESCENDING",
    "SELECT a FROM t LIMIT 10",
    "SELECT a FROM t LIMIT 10 OFFSET 5",
    "SELECT a FROM t LIMIT 5, 10",
    "SELECT a FROM t LIMIT 2 BY a",
    "SELECT a FROM t LIMIT 2 OFFSET 1 BY a, b",
    "SELECT a FROM t LIMIT 1, 2 BY a LIMIT 10",
    "SELECT a FROM t LIMIT 2 BY a LIMIT 10 OFFSET 20",
    "SELECT 1 SETTINGS max_threads = 1",
    "SELECT 1 SETTINGS max_threads = 1, readonly = 1, s = 'x'",
    "SELECT 1 FORMAT JSON",
    "SELECT 1 FORMAT JSONEachRow;",
    "SELECT 1 SETTINGS max_threads = 2 FORMAT TabSeparated",
    /* A setting name may be a keyword (Grafana's row limit). */
    "SELECT 1 SETTINGS limit = 10, offset = 5",
    "SELECT a FROM t ORDER BY (a, b) DESC, c ASC",
    "SELECT 1 UNION ALL SELECT 2",
    "SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3",
    "SELECT 1 UNION DISTINCT SELECT 2",
    "SELECT a FROM t ORDER BY a LIMIT 1 UNION ALL SELECT b FROM u",
    "SELECT 1 UNION ALL SELECT 2 FORMAT CSV",
    /* WITH */
    "WITH 1 AS x SELECT x",
    "WITH 1 AS x, 'a' AS y SELECT x, y",
    "WITH x AS (SELECT 1) SELECT * FROM x",
    "WITH x AS (SELECT 1), y AS (SELECT 2) SELECT * FROM x, y",
    "WITH (SELECT max(a) FROM t) AS m SELECT m",
    "WITH a AS b SELECT b",
    "WITH `x y` AS (SELECT 1) SELECT * FROM `x y`",
    /* joins */
    "SELECT * FROM a JOIN b ON a.id = b.id",
    "SELECT * FROM a INNER JOIN b ON a.id = b.id",
    "SELECT * FROM a LEFT JOIN b ON a.id = b.id",
    "SELECT * FROM a LEFT OUTER JOIN b ON a.id = b.id",
    "SELECT * FROM a RIGHT JOIN b USING (id)",
    "SELECT * FROM a RIGHT OUTER JOIN b USING id",
    "SELECT * FROM a FULL OUTER JOIN b USING (id, k)",
    "SELECT * FROM a CROSS JOIN b",
    "SELECT * FROM a, b",
    "SELECT * FROM a, b, c WHERE a.x = b.x",
    "SELECT * FROM a ANY LEFT JOIN b ON a.id = b.id",
    "SELECT * FROM a LEFT ANY JOIN b ON a.id = b.id",
    "SELECT * FROM a ALL INNER JOIN b ON a.id = b.id",
    "SELECT * FROM a SEMI LEFT JOIN b USING (id)",
    "SELECT * FROM a ANTI LEFT JOIN b USING (id)",
    "SELECT * FROM a ASOF JOIN b ON a.id = b.id AND a.t >= b.t",
    "SELECT * FROM a GLOBAL LEFT JOIN b USING (id)",
    "SELECT * FROM a AS x JOIN b AS y ON x.id = y.id JOIN c ON c.id = y.id",
    "SELECT * FROM a JOIN (SELECT id FROM b) AS s ON a.id = s.id",
    "SELECT * FROM a JOIN numbers(3) AS n ON a.id = n.number",
    "SELECT x FROM t ARRAY JOIN arr AS x",
    "SELECT x FROM t ARRAY JOIN arr x, arr2 AS y",
    "SELECT x FROM t LEFT ARRAY JOIN arr AS x",
    "SELECT x FROM t ARRAY JOIN arr AS x JOIN u ON u.v = x",
    /* expressions: literals */
    "SELECT 0, 42, 18446744073709551615, 18446744073709551616",
    "SELECT 0x1F, 0XFF, 0b101, 0B1",
    "SELECT 1.5, .5, 1., 1e10, 1E-5, 2.5e+3",
    "SELECT inf, nan, -inf",
    "SELECT NULL, true, false, TRUE, FALSE",
    "SELECT 'abc', '', 'it''s', 'a\\'b', 'x\\\\y'",
    "SELECT 'a\\nb\\tc\\0d', '\\x41\\x7a'",
    "SELECT -1, - 1, -(-1), -a",
    "SELECT {x:UInt32}, {name: String}, {arr:Array(Nullable(String))}",
    "SELECT {d:DateTime64(3, 'UTC')}",
    /* operators */
    "SELECT 1 + 2 * 3",
    "SELECT (1 + 2) * 3",
    "SELECT 1 - 2 - 3",
    "SELECT 1 - (2 - 3)",
    "SELECT 10 / 2 % 3",
    "SELECT a || b || 'c'",
    "SELECT a = 1, a == 1, a != 1, a <> 1, a < 1, a <= 1, a > 1, a >= 1",
    "SELECT a = 1 AND b = 2 OR c = 3",
    "SELECT a = 1 AND (b = 2 OR c = 3)",
    "SELECT NOT a",
    "SELECT NOT a AND b",
    "SELECT NOT (a AND b)",
    "SELECT NOT NOT a",
    "SELECT NOT a = b",
    "SELECT a LIKE 'x%', a NOT LIKE 'y', a ILIKE 'z', a NOT ILIKE 'w'",
    "SELECT a IN (1, 2, 3), a NOT IN (1), b IN t, c IN (SELECT x FROM u)",
    "SELECT a GLOBAL IN (SELECT x FROM u), a GLOBAL NOT IN (1, 2)",
    "SELECT a BETWEEN 1 AND 10, a NOT BETWEEN 1 + 1 AND 2 * 5",
    "SELECT a BETWEEN 1 AND 2 AND b",
    "SELECT a IS NULL, a IS NOT NULL, a + 1 IS NULL",
    "SELECT NOT a IS NULL",
    "SELECT a ? b : c",
    "SELECT a ? b : c ? d : e",
    "SELECT (a ? b : c) ? d : e",
    "SELECT a > 1 ? 'big' : 'small' AS size",
    "SELECT x -> x + 1",
    "SELECT arrayMap(x -> x * 2, [1, 2, 3])",
    "SELECT arrayMap((x, y) -> x + y, a, b)",
    "SELECT arrayFilter(x -> x > 1 AND x < 5, arr)",
    "SELECT arrayMap(x -> arrayMap(y -> x + y, b), a)",
    "SELECT a::Int32, '1'::UInt8, x::Array(Nullable(String)), (-1)::Int8",
    "SELECT a::Decimal(10,2)",
    "SELECT CAST(a AS String), CAST(a AS Nullable(Int64)), cast(1, 'UInt8')",
    "SELECT CAST(x AS DateTime64(3, 'Europe/Berlin'))",
    "SELECT arr[1], arr[1][2], m['key'], t.1, tup.2.1, f(x).1, (1, 2).2",
    "SELECT INTERVAL 1 DAY, INTERVAL 3 hours, now() - INTERVAL 5 MINUTE",
    "SELECT d + INTERVAL (n * 2) WEEK",
    "SELECT EXTRACT(YEAR FROM d), extract(DAY FROM now())",
    "SELECT extract(s, '[0-9]+')",
    "SELECT [], [1], [1, 2, 3], [[1], [2, 3]], ['a', NULL]",
    "SELECT (), (1, 2), (1,), ((1, 2), 3), tuple(1, 2)",
    "SELECT CASE WHEN a = 1 THEN 'one' WHEN a = 2 THEN 'two' ELSE 'many' END",
    "SELECT CASE a WHEN 1 THEN 'one' END",
    "SELECT CASE WHEN a THEN b END AS c",
    /* functions */
    "SELECT now(), today(), version()",
    "SELECT count(), count(*), count(DISTINCT a), count(ALL a)",
    "SELECT quantile(0.5)(x), quantiles(0.5, 0.9)(x), topK(10)(s)",
    "SELECT sumIf(x, y > 0), countIf(DISTINCT x, y)",
    "SELECT any(x), anyLast(x), left(s, 2), right(s, 3), if(a, b, c)",
    "SELECT f(x AS y, y + 1)",
    "SELECT exists(SELECT 1)",
    "SELECT (SELECT 1), (SELECT max(x) FROM t) + 1",
    "SELECT map('k', 1, 'j', 2)['k']",
    "SELECT toStartOfInterval(ts, INTERVAL 1 HOUR) AS h, count() FROM t GROUP BY h ORDER BY h",
    "SELECT (1 AS x) + x",
    "SELECT format('{}', 1), array(1, 2), array(1)",
    "SELECT a FROM t WHERE (a, b) IN ((1, 2), (3, 4))",
    "SELECT sum(x) / count() AS avg FROM t WHERE ts >= now() - INTERVAL 1 DAY GROUP BY k",
    "SELECT -a * b, -(a * b), a * -b, a - -b, 2 - -2",
    "SELECT -a[1], -x::Int8, -(1)",
    "SELECT a.b.c, `a`.`b c`, a.`1`",
    "SELECT x FROM t WHERE x = {p:String} LIMIT {n:UInt32}",
    "SELECT /* comment */ 1 -- trailing\n",
    "SELECT 1 -- comment only",
    "SELECT\n\t1\n,\n2",
    "SELECT `weird``name`, `back\\`tick`",
    "SELECT 'multi\nline'",
    "SELECT nullIf(a, ''), coalesce(a, b, 0)",
    "SELECT a AS `from` FROM t",
    "SELECT `null`, `true`, `inf`, `index`, `default` FROM t",
    "SELECT count() AS c FROM system.tables WHERE database = currentDatabase()",
    /* INSERT */
    "INSERT INTO t VALUES (1, 'a')",
    "INSERT INTO db.t (a, b) VALUES (1, 2), (3, 4)",
    "INSERT INTO TABLE t VALUES",
    "INSERT INTO t FORMAT JSONEachRow",
    "INSERT INTO t (a) FORMAT CSV\n1\n2\n",
    "INSERT INTO t SELECT * FROM u",
    "INSERT INTO t (a, b) SELECT x, y FROM u WHERE x > 1",
    "INSERT INTO t WITH 1 AS x SELECT x",
    /* CREATE */
    "CREATE DATABASE db",
    "CREATE DATABASE IF NOT EXISTS db",
    "CREATE DATABASE db ENGINE = Atomic COMMENT 'test'",
    "CREATE TABLE t (a UInt64) ENGINE = MergeTree ORDER BY a",
    "CREATE TABLE t (a UInt64) ENGINE = MergeTree() ORDER BY a",
    "CREATE TABLE IF NOT EXISTS db.t (a UInt64, b String) ENGINE = MergeTree ORDER BY (a, b)",
    "CREATE TABLE t (ts DateTime, v Float64) ENGINE = MergeTree PARTITION BY toYYYYMM(ts) "
    "ORDER BY ts",
    "CREATE TABLE t (a UInt8) ENGINE = MergeTree ORDER BY tuple()",
    "CREATE TABLE t (a UInt8, b UInt8) ENGINE = MergeTree PRIMARY KEY a ORDER BY (a, b)",
    "CREATE TABLE t (ts DateTime) ENGINE = MergeTree ORDER BY ts TTL ts + INTERVAL 30 DAY",
    "CREATE TABLE t (a UInt8) ENGINE = MergeTree ORDER BY a SETTINGS index_granularity = 8192",
    "CREATE TABLE t (a UInt8) ENGINE = MergeTree ORDER BY a COMMENT 'table comment'",
    "CREATE TABLE t (a UInt8 DEFAULT 1, b UInt8 MATERIALIZED a * 2, c UInt8 ALIAS a + b) "
    "ENGINE = MergeTree ORDER BY a",
    "CREATE TABLE t (a UInt8 COMMENT 'the a', b String CODEC(ZSTD(3))) ENGINE = Memory",
    "CREATE TABLE t (a UInt8 CODEC(Delta, LZ4)) ENGINE = MergeTree ORDER BY a",
    "CREATE TABLE t (a UInt8 DEFAULT 0 COMMENT 'c' CODEC(ZSTD(1)) TTL d + INTERVAL 1 DAY, "
    "d Date) ENGINE = MergeTree ORDER BY d",
    "CREATE TABLE t (a Nullable(String), b Array(LowCardinality(String)), "
    "c Map(String, UInt64), d Tuple(x UInt8, y String)) ENGINE = Memory",
    "CREATE TABLE t (e Enum8('a' = 1, 'b' = -2), d Decimal(10, 2), "
    "ts DateTime64(3, 'UTC')) ENGINE = Memory",
    "CREATE TABLE t (a UInt8, x DEFAULT now()) ENGINE = Memory",
    "CREATE TABLE t (s String, INDEX idx s TYPE bloom_filter(0.01) GRANULARITY 4) "
    "ENGINE = MergeTree ORDER BY s",
    "CREATE TABLE t (s String, n UInt32, INDEX i1 n TYPE minmax GRANULARITY 1, "
    "INDEX i2 lower(s) TYPE tokenbf_v1(256, 2, 0)) ENGINE = MergeTree ORDER BY n",
    "CREATE TABLE t ENGINE = Memory AS SELECT 1 AS x",
    "CREATE TABLE t (x UInt8) ENGINE = MergeTree ORDER BY x AS SELECT 1",
    "CREATE TABLE t ENGINE = MergeTree ORDER BY x AS SELECT number AS x FROM numbers(10)",
    "CREATE TABLE `my db`.`my table` (`col 1` UInt8) ENGINE = Memory",
    "CREATE TABLE t (a UInt8) ENGINE = ReplacingMergeTree(ver) ORDER BY a",
    "CREATE TABLE t (a UInt8) ENGINE MergeTree ORDER BY a",
    "CREATE TABLE t (a UInt8) ENGINE = MergeTree SETTINGS a = 1 ORDER BY a",
    /* DROP / TRUNCATE / RENAME / EXISTS */
    "DROP TABLE t",
    "DROP TABLE IF EXISTS db.t",
    "DROP TABLE t SYNC",
    "DROP DATABASE db",
    "DROP DATABASE IF EXISTS db",
    "TRUNCATE TABLE t",
    "TRUNCATE t",
    "TRUNCATE TABLE IF EXISTS db.t",
    "RENAME TABLE a TO b",
    "RENAME TABLE db.a TO db.b, c TO d",
    "EXISTS t",
    "EXISTS TABLE db.t",
    "EXISTS DATABASE db",
    "EXISTS TABLE t FORMAT TabSeparated",
    /* ALTER */
    "ALTER TABLE t ADD COLUMN c UInt8",
    "ALTER TABLE t ADD COLUMN IF NOT EXISTS c UInt8 DEFAULT 1 AFTER b",
    "ALTER TABLE t ADD COLUMN c String FIRST",
    "ALTER TABLE db.t DROP COLUMN c",
    "ALTER TABLE t DROP COLUMN IF EXISTS c",
    "ALTER TABLE t MODIFY COLUMN c UInt16",
    "ALTER TABLE t MODIFY COLUMN IF EXISTS c UInt16 COMMENT 'x'",
    "ALTER TABLE t MODIFY TTL ts + INTERVAL 1 DAY",
    "ALTER TABLE t MODIFY SETTING merge_max = 5, other = 'x'",
    "ALTER TABLE t ADD COLUMN a UInt8, DROP COLUMN b, MODIFY COLUMN c String",
    /* SHOW / DESCRIBE / USE / SET / OPTIMIZE / DELETE / SYSTEM / KILL */
    "SHOW DATABASES",
    "SHOW DATABASES LIKE 'd%'",
    "SHOW TABLES",
    "SHOW TABLES FROM db",
    "SHOW TABLES IN db LIKE 'x%'",
    "SHOW TABLES NOT LIKE '%tmp%'",
    "SHOW TABLES FORMAT JSON",
    "SHOW CREATE TABLE t",
    "SHOW CREATE t",
    "SHOW CREATE TABLE db.t FORMAT TSVRaw",
    "DESCRIBE TABLE t",
    "DESCRIBE t",
    "DESC t",
    "DESC TABLE db.t FORMAT JSON",
    "USE db",
    "USE `my db`",
    "SET max_threads = 4",
    "SET a = 1, b = 'two', c = 3.5",
    "OPTIMIZE TABLE t",
    "OPTIMIZE TABLE db.t FINAL",
    "DELETE FROM t WHERE a = 1",
    "DELETE FROM db.t WHERE a IN (SELECT x FROM u)",
    "SYSTEM FLUSH LOGS",
    "SYSTEM FLUSH t",
    "SYSTEM FLUSH TABLE db.t",
    "SYSTEM FLUSH TABLE logs",
    "KILL QUERY WHERE query_id = 'abc'",
    "KILL QUERY WHERE user = 'x' SYNC",
    /* queries drivers and tools send (docs: clickhouse-compat.md) */
    "SELECT 1 AS check",
    "SELECT 'ping'",
    "SELECT name, type, table FROM system.columns WHERE database IN ('db') AND table = 't'",
    "SELECT DISTINCT c FROM \"db\".\"t\" WHERE c IS NOT NULL LIMIT 1000",
    "SELECT DISTINCT arrayJoin(mapKeys(col)) FROM t",
    "SELECT name, is_aggregate, case_insensitive, alias_to, origin, description, syntax, "
    "arguments, returned_value, examples, categories FROM system.functions LIMIT 10000",
    "SELECT currentUser() AS user, timezone() AS timezone, version() AS version LIMIT 1",
    "SELECT version() as server_version",
    "SELECT displayName(), version(), revision(), timezone()",
    "SHOW TABLES FROM \"db\"",
    "SELECT name, value, readonly FROM system.settings LIMIT 10000",
    "SELECT name FROM system.tables WHERE database = 'db' ORDER BY name",
    "SELECT toStartOfInterval(ts, INTERVAL 60 second) as time, host, avg(v) as v FROM db.t "
    "WHERE ts >= toDateTime(1700000000) GROUP BY host, time ORDER BY time ASC LIMIT 1000",
    "SELECT 1 FORMAT TabSeparated",
    "SELECT t.from, db.select.where FROM db.select AS t",
    "SELECT a IN ('x'), a IN (1 + 1), a NOT IN ((1, 2)), a IN t, a IN db.t",
    /* keyword case and spacing */
    "sElEcT a FrOm t wHeRe a iS nOt NuLl",
    "select distinct on_time from t",
    "SELECT a FROM t WHERE a IN (1,2,3) AND b LIKE '%x%' ORDER BY a DESC LIMIT 5",
};

static void test_good_statements_round_trip(void **state) {
    (void)state;
    for (size_t i = 0; i < MU_ARRAY_LEN(good_statements); i++)
        sqlt_round_trip(good_statements[i]);
}

typedef struct bad_case {
    const char *sql;
    size_t position; /* 1-based, as in the message */
    const char *needle; /* substring of the message */
} bad_case;

static const bad_case bad_statements[] = {
    {"", 1, "end of query"},
    {";", 1, "Expected one of"},
    {"SELEC 1", 1, "SELECT"},
    {"SELECT", 7, "end of query"},
    {"SELECT * FORM t", 10, "('FORM')"},
    {"SELECT * FORM t", 10, "FORMAT"},
    {"SELECT FROM t", 8, "expression"},
    {"SELECT 1,", 10, "expression"},
    {"SELECT 1 +", 11, "expression"},
    {"SELECT (1", 10, "ClosingRoundBracket"},
    {"SELECT (1, 2", 13, "ClosingRoundBracket"},
    {"SELECT [1, 2", 13, "ClosingSquareBracket"},
    {"SELECT f(1", 11, "ClosingRoundBracket"},
    {"SELECT * FROM", 14, "identifier"},
    {"SELECT * FROM t WHERE", 22, "expression"},
    {"SELECT * FROM t GROUP a", 23, "BY"},
    {"SELECT * FROM t ORDER a", 23, "BY"},
    {"SELECT * FROM t ORDER BY a NULLS", 33, "FIRST"},
    {"SELECT * FROM t LIMIT", 22, "expression"},
    {"SELECT 1 UNION SELECT 2", 16, "ALL"},
    {"SELECT 1; SELECT 2", 11, "Multi-statements are not allowed"},
    {"SELECT 1 2", 10, "end of query"},
    {"SELECT * FROM a JOIN b", 23, "ON"},
    {"SELECT * FROM a JOIN b", 23, "USING"},
    {"SELECT * FROM a LEFT b", 22, "JOIN"},
    {"SELECT * FROM a JOIN b ON", 26, "expression"},
    {"SELECT CASE END", 13, "WHEN"},
    {"SELECT CASE WHEN 1 2 END", 20, "THEN"},
    {"SELECT CASE WHEN 1 THEN 2", 26, "END"},
    {"SELECT CAST(1 AS)", 17, "type name"},
    {"SELECT CAST(1 AS Nullable(String)", 34, "ClosingRoundBracket"},
    {"SELECT 1::", 11, "type name"},
    {"SELECT INTERVAL 1", 18, "interval unit"},
    {"SELECT INTERVAL 1 FORTNIGHT", 19, "interval unit"},
    {"SELECT EXTRACT(YEAR FROM)", 25, "expression"},
    {"SELECT a BETWEEN 1", 19, "AND"},
    {"SELECT a IS 1", 13, "NULL"},
    {"SELECT a NOT 1", 10, "end of query"},
    {"SELECT a ? b", 13, "Colon"},
    {"SELECT 1 + 2 -> 3", 14, "lambda parameters"},
    {"SELECT f(x) -> 1", 13, "lambda parameters"},
    {"SELECT a AS", 12, "alias"},
    {"SELECT a AS 1", 13, "alias"},
    {"SELECT t.1.", 11, "end of query"},
    {"SELECT 'unterminated", 8, "Quoted string is not closed"},
    {"SELECT `unterminated", 8, "Quoted identifier is not closed"},
    {"SELECT \"unterminated", 8, "Quoted identifier is not closed"},
    {"SELECT 1 /* open comment", 10, "Multi-line comment is not closed"},
    {"SELECT 12abc", 8, "Wrong number"},
    {"SELECT 0x", 8, "Wrong number"},
    {"SELECT 1 $", 10, "Unrecognized token"},
    {"SELECT 1 @ 2", 10, "Unrecognized token"},
    {"SELECT 0b11111111111111111111111111111111111111111111111111111111111111111", 8,
     "number that fits 64 bits"},
    {"SELECT {x}", 10, "':'"},
    {"SELECT a FROM t SETTINGS", 25, "setting name"},
    {"SELECT a FROM t SETTINGS x", 27, "Equals"},
    {"SELECT a FROM t SETTINGS limit", 31, "Equals"},
    {"SELECT a FROM t SETTINGS 'limit' = 1", 26, "setting name"},
    {"SELECT a FROM t FORMAT", 23, "format name"},
    {"SELECT 1 FORMAT JSON extra", 22, "end of query"},
    {"WITH SELECT 1", 6, "expression"},
    {"WITH x AS (SELECT 1 SELECT 2", 21, "ClosingRoundBracket"},
    {"SELECT * FROM (1)", 16, "SELECT subquery"},
    {"INSERT t VALUES", 8, "INTO"},
    {"INSERT INTO VALUES", 13, "identifier"},
    {"INSERT INTO t", 14, "VALUES"},
    {"INSERT INTO t (a, b", 20, "ClosingRoundBracket"},
    {"INSERT INTO t (a,) VALUES", 18, "identifier"},
    {"INSERT INTO t FORMAT", 21, "format name"},
    {"CREATE", 7, "DATABASE"},
    {"CREATE VIEW v AS SELECT 1", 8, "TABLE"},
    {"CREATE TABLE", 13, "identifier"},
    {"CREATE TABLE t", 15, "AS SELECT"},
    {"CREATE TABLE t (", 17, "column name"},
    {"CREATE TABLE t (a)", 18, "type name"},
    {"CREATE TABLE t (a UInt8", 24, "ClosingRoundBracket"},
    {"CREATE TABLE t (a UInt8,)", 25, "column name"},
    {"CREATE TABLE t (a UInt8) ENGINE =", 34, "engine name"},
    {"CREATE TABLE t (a UInt8) ENGINE = MergeTree ORDER", 50, "BY"},
    {"CREATE TABLE t (a UInt8) ENGINE = MergeTree ORDER BY a ORDER BY a", 56, "end of query"},
    {"CREATE TABLE t (a Nullable(String) ENGINE = Memory", 36, "ClosingRoundBracket"},
    {"CREATE TABLE t (a UInt8 CODEC) ENGINE = Memory", 30, "("},
    {"CREATE TABLE t (a UInt8 COMMENT 5) ENGINE = Memory", 33, "string literal"},
    {"CREATE TABLE t (s String, INDEX i s TYPE) ENGINE = Memory", 41, "index type"},
    {"CREATE TABLE t (s String, INDEX i s) ENGINE = Memory", 36, "TYPE"},
    {"CREATE TABLE IF EXISTS t (a UInt8) ENGINE = Memory", 17, "NOT"},
    {"CREATE DATABASE", 16, "database name"},
    {"CREATE TABLE t AS", 18, "SELECT"},
    {"DROP t", 6, "TABLE"},
    {"DROP TABLE", 11, "identifier"},
    {"DROP TABLE IF t", 15, "end of query"},
    {"TRUNCATE TABLE", 15, "identifier"},
    {"RENAME TABLE a b", 16, "TO"},
    {"RENAME a TO b", 8, "TABLE"},
    {"RENAME TABLE a TO b,", 21, "identifier"},
    {"EXISTS", 7, "identifier"},
    {"ALTER t ADD COLUMN c UInt8", 7, "TABLE"},
    {"ALTER TABLE t", 14, "ADD"},
    {"ALTER TABLE t ADD c UInt8", 19, "COLUMN"},
    {"ALTER TABLE t ADD COLUMN c", 27, "type name"},
    {"ALTER TABLE t DROP COLUMN", 26, "column name"},
    {"ALTER TABLE t MODIFY x", 22, "COLUMN"},
    {"ALTER TABLE t MODIFY SETTING", 29, "setting name"},
    {"SHOW", 5, "DATABASES"},
    {"SHOW TABLES FROM", 17, "database name"},
    {"SHOW TABLES LIKE x", 18, "string literal"},
    {"DESCRIBE", 9, "identifier"},
    {"USE", 4, "database name"},
    {"SET", 4, "setting name"},
    {"SET a", 6, "Equals"},
    {"SET a = ", 9, "expression"},
    {"OPTIMIZE t", 10, "TABLE"},
    {"DELETE t WHERE 1", 8, "FROM"},
    {"DELETE FROM t", 14, "WHERE"},
    {"SYSTEM", 7, "FLUSH"},
    {"SYSTEM RELOAD CONFIG", 8, "FLUSH"},
    {"KILL QUERY", 11, "WHERE"},
    {"KILL MUTATION WHERE 1", 6, "QUERY"},
    {"GRANT ALL ON *.* TO u", 1, "SELECT"},
    {"SELECT a FROM t WHERE a = 1 AND", 32, "expression"},
    {"SELECT count(DISTINCT) FROM t", 22, "expression"},
    {"SELECT quantile(0.5)(", 22, "expression"},
    {"SELECT a[1", 11, "ClosingSquareBracket"},
    {"SELECT a[]", 10, "expression"},
    {"SELECT a FROM t LIMIT 1 BY", 27, "expression"},
    {"SELECT a FROM t ARRAY JOIN", 27, "expression"},
    {"SELECT a FROM t ARRAY x", 23, "JOIN"},
    {"SELECT a FROM t WHERE a IN", 27, "expression"},
    {"SELECT a FROM t WHERE a GLOBAL x", 32, "IN"},
    {"SELECT * FROM t FINAL FINAL", 23, "end of query"},
    {"SELECT substring(s FROM)", 24, "expression"},
    {"SELECT substring(s FROM 1 FOR)", 30, "expression"},
    {"SELECT substring(s FROM 1 2)", 27, "FOR"},
    {"SELECT substring(s FOR 1)", 20, "FROM"},
    {"SELECT substring()", 18, "expression"},
    {"SELECT 1 +* 2", 13, "AS"},
    {"SELECT * 2", 10, "Comma"},
    {"SELECT a.", 9, "AS"},
    {"SELECT a.*.b", 11, "Comma"},
    {"SELECT t.* AS x", 12, "Comma"},
    {"SELECT * AS x", 10, "Comma"},
    {"SELECT (SELECT 1", 17, "AS"},
    {"SELECT (SELECT 1))", 18, "AS"},
    {"SELECT f(,)", 10, "DISTINCT"},
    {"SELECT f(1,,2)", 12, "ClosingRoundBracket"},
    {"SELECT f(1)(2)(3)", 15, "AS"},
    {"SELECT [1,,2]", 11, "ClosingSquareBracket"},
    {"SELECT (,)", 9, "ClosingRoundBracket"},
    {"SELECT a = = b", 12, "expression"},
    {"SELECT a < > b", 12, "expression"},
    {"SELECT a AND", 13, "expression"},
    {"SELECT a OR OR b", 13, "expression"},
    {"SELECT NOT", 11, "expression"},
    {"SELECT - ", 10, "expression"},
    {"SELECT a IS NOT", 16, "NULL"},
    {"SELECT a NOT BETWEEN 1", 23, "AND"},
    {"SELECT a LIKE", 14, "expression"},
    {"SELECT a GLOBAL", 16, "NOT"},
    {"SELECT a GLOBAL NOT LIKE 'x'", 26, "IN"},
    {"SELECT x ->", 12, "expression"},
    {"SELECT (x, 1) -> x", 15, "lambda parameters as bare identifiers"},
    {"SELECT (x AS y) -> x", 17, "lambda parameters as bare identifiers"},
    {"SELECT a ? : b", 12, "expression"},
    {"SELECT a ? b : ", 16, "expression"},
    {"SELECT CASE WHEN 1 THEN 2 ELSE END", 32, "expression"},
    {"SELECT CASE 1 END", 15, "WHEN"},
    {"SELECT CAST(1 AS Int8 Int16)", 23, "ClosingRoundBracket"},
    {"SELECT CAST(AS Int8)", 13, "expression"},
    {"SELECT 1::(Int8)", 11, "type name"},
    {"SELECT 1::1", 11, "type name"},
    {"SELECT EXTRACT(FROM d)", 16, "DISTINCT"},
    {"SELECT EXTRACT(YEAR d)", 21, "AS"},
    {"SELECT INTERVAL DAY", 20, "interval unit"},
    {"SELECT a[1]]", 12, "AS"},
    {"SELECT (1, 2", 13, "AS"},
    {"SELECT t.1.2.x", 13, "AS"},
    {"SELECT 'a' 'b'", 12, "AS"},
    {"SELECT 1 AS select", 13, "alias"},
    {"SELECT 1 AS from", 13, "alias"},
    {"SELECT a FROM select", 15, "identifier"},
    {"SELECT a FROM t AS", 19, "alias"},
    {"SELECT a FROM t AS where", 20, "alias"},
    {"SELECT a FROM db.", 18, "identifier"},
    {"SELECT a FROM db.t.u", 19, "AS"},
    {"SELECT a FROM numbers(", 23, "DISTINCT"},
    {"SELECT a FROM numbers(10", 25, "AS"},
    {"SELECT a FROM (SELECT 1", 24, "AS"},
    {"SELECT a FROM t JOIN", 21, "identifier"},
    {"SELECT a FROM t JOIN u USING", 29, "OpeningRoundBracket"},
    {"SELECT a FROM t JOIN u USING (", 31, "expression"},
    {"SELECT a FROM t JOIN u USING (a", 32, "AS"},
    {"SELECT a FROM t CROSS JOIN", 27, "identifier"},
    {"SELECT a FROM t FULL OUTER u", 28, "ANY"},
    {"SELECT a FROM t INNER LEFT JOIN u ON 1", 23, "ANY"},
    {"SELECT a FROM t ANY ALL JOIN u ON 1", 21, "INNER"},
    {"SELECT a FROM t, ", 18, "identifier"},
    {"SELECT a FROM t LEFT ARRAY arr", 28, "JOIN"},
    {"SELECT a FROM t PREWHERE", 25, "expression"},
    {"SELECT a FROM t GROUP BY", 25, "expression"},
    {"SELECT a FROM t GROUP BY a WITH", 28, "AS"},
    {"SELECT a FROM t GROUP BY a WITH ROLLUP", 28, "AS"},
    {"SELECT a FROM t HAVING", 23, "expression"},
    {"SELECT a FROM t ORDER BY", 25, "expression"},
    {"SELECT a FROM t ORDER BY a DESC DESC", 33, "NULLS"},
    {"SELECT a FROM t ORDER BY a NULLS LAST FIRST", 39, "Comma"},
    {"SELECT a FROM t LIMIT 1,", 25, "expression"},
    {"SELECT a FROM t LIMIT 1 OFFSET", 31, "expression"},
    {"SELECT a FROM t LIMIT 1 BY", 27, "expression"},
    {"SELECT a FROM t LIMIT 1 LIMIT 2 LIMIT 3", 25, "Comma"},
    {"SELECT a FROM t SETTINGS a = ", 30, "expression"},
    {"SELECT a FROM t SETTINGS a = 1,", 32, "setting name"},
    {"SELECT a FROM t SETTINGS a == 1", 28, "Equals"},
    {"SELECT a FROM t WHERE a FORMAT", 31, "format name"},
    {"SELECT a FROM t FORMAT 'JSON'", 24, "format name"},
    {"SELECT a FROM t UNION", 22, "ALL"},
    {"SELECT a FROM t UNION ALL", 26, "WITH"},
    {"SELECT a FROM t UNION ALL INSERT", 27, "WITH"},
    {"SELECT 1 INTERSECT SELECT 2", 10, "AS"},
    {"SELECT 1 EXCEPT SELECT 2", 10, "AS"},
    {"WITH 1 SELECT 1", 8, "AS"},
    {"WITH 1 AS SELECT 1", 11, "alias"},
    {"WITH x AS (SELECT 1) ", 22, "Comma"},
    {"WITH x AS () SELECT 1", 11, "alias"},
    {"INSERT INTO t VALUE (1)", 15, "Dot"},
    {"INSERT INTO t (a b) VALUES", 18, "Dot"},
    {"INSERT INTO t () VALUES", 16, "identifier"},
    {"INSERT INTO t SELECT", 21, "DISTINCT"},
    {"INSERT INTO t FORMAT 1", 22, "format name"},
    {"INSERT INTO db. VALUES", 23, "VALUES"},
    {"CREATE TABLE t (a UInt8) ENGINE", 32, "Equals"},
    {"CREATE TABLE t (a UInt8) ENGINE = ", 35, "engine name"},
    {"CREATE TABLE t (a UInt8) ENGINE = MergeTree(", 45, "DISTINCT"},
    {"CREATE TABLE t (a UInt8) ENGINE = MergeTree PARTITION a", 55, "BY"},
    {"CREATE TABLE t (a UInt8) ENGINE = MergeTree PRIMARY a", 53, "KEY"},
    {"CREATE TABLE t (a UInt8) ENGINE = MergeTree TTL", 48, "expression"},
    {"CREATE TABLE t (a UInt8) ENGINE = MergeTree SETTINGS", 53, "setting name"},
    {"CREATE TABLE t (a UInt8) ENGINE = MergeTree COMMENT x", 53, "string literal"},
    {"CREATE TABLE t (a UInt8 DEFAULT) ENGINE = Memory", 32, "expression"},
    {"CREATE TABLE t (a UInt8 MATERIALIZED) ENGINE = Memory", 37, "expression"},
    {"CREATE TABLE t (a UInt8 DEFAULT 1 DEFAULT 2) ENGINE = Memory", 35, "COMMENT"},
    {"CREATE TABLE t (a UInt8 CODEC(ZSTD(1)) CODEC(LZ4)) ENGINE = Memory", 40, "DEFAULT"},
    {"CREATE TABLE t (a UInt8 TTL) ENGINE = Memory", 28, "expression"},
    {"CREATE TABLE t (a Array(String) ENGINE = Memory", 33, "DEFAULT"},
    {"CREATE TABLE t (1 UInt8) ENGINE = Memory", 17, "column name"},
    {"CREATE TABLE t (a UInt8, INDEX) ENGINE = Memory", 31, "index name"},
    {"CREATE TABLE t (s String, INDEX i TYPE minmax) ENGINE = Memory", 40, "TYPE"},
    {"CREATE TABLE t (s String, INDEX i s TYPE minmax GRANULARITY) ENGINE = Memory",
     60, "expression"},
    {"CREATE TABLE t (s String, INDEX i s TYPE minmax GRANULARITY x) ENGINE = Memory",
     62, "number"},
    {"CREATE TABLE t () ENGINE = Memory", 17, "column name"},
    {"CREATE TABLE t (a UInt8) AS", 28, "SELECT"},
    {"CREATE TABLE t (a UInt8) ENGINE = Memory AS INSERT", 45, "SELECT"},
    {"CREATE DATABASE IF NOT db", 24, "EXISTS"},
    {"CREATE DATABASE db ENGINE", 26, "Equals"},
    {"CREATE DATABASE db COMMENT", 27, "string literal"},
    {"CREATE DATABASE db.x", 19, "ENGINE"},
    {"DROP TABLE IF EXISTS", 21, "identifier"},
    {"DROP DATABASE db.x", 17, "SYNC"},
    {"DROP TABLE t t", 14, "Dot"},
    {"RENAME TABLE a TO", 18, "identifier"},
    {"RENAME TABLE TO b", 17, "Dot"},
    {"EXISTS TABLE", 13, "identifier"},
    {"EXISTS t FORMAT", 16, "format name"},
    {"ALTER TABLE t ADD COLUMN IF NOT c UInt8", 33, "EXISTS"},
    {"ALTER TABLE t ADD COLUMN c UInt8 AFTER", 39, "column name"},
    {"ALTER TABLE t DROP COLUMN IF c", 30, "Comma"},
    {"ALTER TABLE t MODIFY COLUMN", 28, "column name"},
    {"ALTER TABLE t MODIFY TTL", 25, "expression"},
    {"ALTER TABLE t ADD COLUMN c UInt8,", 34, "ADD"},
    {"ALTER TABLE t RENAME COLUMN a TO b", 15, "Dot"},
    {"SHOW TABLE", 6, "DATABASES"},
    {"SHOW TABLES FROM db LIKE", 25, "string literal"},
    {"SHOW TABLES NOT 'x'", 13, "FROM"},
    {"SHOW CREATE", 12, "TABLE"},
    {"SHOW DATABASES FORMAT", 22, "format name"},
    {"DESCRIBE TABLE", 15, "identifier"},
    {"DESCRIBE t FORMAT", 18, "format name"},
    {"USE db.x", 7, "end of query"},
    {"USE db x", 8, "end of query"},
    {"SET a = 1,", 11, "setting name"},
    {"SET a = 1 b = 2", 11, "Comma"},
    {"OPTIMIZE TABLE", 15, "identifier"},
    {"OPTIMIZE TABLE t FINAL FINAL", 24, "end of query"},
    {"DELETE FROM t WHERE", 20, "expression"},
    {"DELETE FROM WHERE 1", 13, "identifier"},
    {"SYSTEM FLUSH", 13, "LOGS"},
    {"SYSTEM FLUSH TABLE", 19, "identifier"},
    {"SYSTEM FLUSH LOGS t", 19, "end of query"},
    {"KILL QUERY WHERE", 17, "expression"},
    {"KILL QUERY WHERE 1 NOW", 20, "SYNC"},
    {"TRUNCATE TABLE t u", 18, "Dot"},
};

static void test_bad_statements(void **state) {
    (void)state;
    for (size_t i = 0; i < MU_ARRAY_LEN(bad_statements); i++) {
        const bad_case *c = &bad_statements[i];
        mu_arena *arena = sqlt_arena();
        sql_node *stmt = NULL;
        mu_err err;
        mu_err_clear(&err);
        int rc = sql_parse(c->sql, strlen(c->sql), arena, NULL, &stmt, &err);
        if (rc != MU_ESYNTAX) fail_msg("expected ESYNTAX (rc %d) for: %s", rc, c->sql);
        char want[64];
        snprintf(want, sizeof(want), "failed at position %zu ", c->position);
        if (strstr(err.message, want) == NULL || strstr(err.message, c->needle) == NULL)
            fail_msg("for %s\n  got: %s\n  want position %zu and '%s'", c->sql, err.message,
                     c->position, c->needle);
        if (strncmp(err.message, "Syntax error: failed at position ", 33) != 0)
            fail_msg("bad shape: %s", err.message);
        mu_arena_destroy(arena);
    }
}

static sql_node *parse_ok(mu_arena *arena, const char *sql) {
    sql_node *stmt = NULL;
    mu_err err;
    mu_err_clear(&err);
    int rc = sql_parse(sql, strlen(sql), arena, NULL, &stmt, &err);
    if (rc != 0) fail_msg("parse failed: %s: %s", sql, err.message);
    return stmt;
}

static void test_exact_message(void **state) {
    (void)state;
    mu_arena *arena = sqlt_arena();
    sql_node *stmt = NULL;
    mu_err err;
    const char *sql = "SELECT * FORM t";
    assert_int_equal(sql_parse(sql, strlen(sql), arena, NULL, &stmt, &err), MU_ESYNTAX);
    assert_string_equal(err.message,
                        "Syntax error: failed at position 10 ('FORM'): FORM t. Expected one of: "
                        "Comma, FROM, PREWHERE, WHERE, GROUP, HAVING, ORDER, LIMIT, "
                        "SETTINGS, UNION, FORMAT, end of query");
    sql = "SELECT (";
    assert_int_equal(sql_parse(sql, strlen(sql), arena, NULL, &stmt, &err), MU_ESYNTAX);
    assert_string_equal(err.message,
                        "Syntax error: failed at position 9 (end of query): . Expected one of: "
                        "ClosingRoundBracket, expression");
    mu_arena_destroy(arena);
}

static void test_select_structure(void **state) {
    (void)state;
    mu_arena *arena = sqlt_arena();
    sql_node *q = parse_ok(arena, "SELECT a AS x, count(DISTINCT b) FROM db.t AS s FINAL "
                                  "WHERE a > 1 GROUP BY a WITH TOTALS ORDER BY x DESC "
                                  "LIMIT 10 OFFSET 5 FORMAT JSON");
    assert_int_equal(q->kind, SQL_QUERY);
    assert_true(sql_str_eq(q->query.format, "JSON"));
    assert_int_equal(q->query.selects.count, 1);
    sql_node *s = q->query.selects.items[0];
    assert_int_equal(s->select.columns.count, 2);
    assert_true(sql_str_eq(s->select.columns.items[0]->alias, "x"));
    sql_node *f = s->select.columns.items[1];
    assert_int_equal(f->kind, SQL_FUNC);
    assert_true(f->func.distinct);
    assert_true(sql_str_eq(f->func.name, "count"));
    assert_int_equal(s->select.from->kind, SQL_TABLE);
    assert_true(sql_str_eq(s->select.from->table.database, "db"));
    assert_true(sql_str_eq(s->select.from->table.name, "t"));
    assert_true(sql_str_eq(s->select.from->alias, "s"));
    assert_true(s->select.from->table.final);
    assert_int_equal(s->select.where->kind, SQL_BINARY);
    assert_int_equal(s->select.where->binary.op, SQL_OP_GT);
    assert_true(s->select.with_totals);
    assert_true(s->select.order_by.items[0]->order_item.desc);
    assert_int_equal(s->select.limit->literal.u64, 10);
    assert_int_equal(s->select.offset->literal.u64, 5);
    /* Spans: the WHERE expression covers "a > 1". */
    const char *text = "SELECT a + 1 FROM t";
    q = parse_ok(arena, text);
    sql_node *e = q->query.selects.items[0]->select.columns.items[0];
    assert_int_equal(e->offset, 7);
    assert_int_equal(e->length, 5);
    mu_arena_destroy(arena);
}

static void test_precedence(void **state) {
    (void)state;
    mu_arena *arena = sqlt_arena();
    sql_node *q = parse_ok(arena, "SELECT 1 + 2 * 3 = 7 AND NOT a OR b");
    sql_node *e = q->query.selects.items[0]->select.columns.items[0];
    assert_int_equal(e->binary.op, SQL_OP_OR);
    sql_node *and = e->binary.left;
    assert_int_equal(and->binary.op, SQL_OP_AND);
    assert_int_equal(and->binary.left->binary.op, SQL_OP_EQ);
    assert_int_equal(and->binary.left->binary.left->binary.op, SQL_OP_ADD);
    assert_int_equal(and->binary.left->binary.left->binary.right->binary.op, SQL_OP_MUL);
    assert_int_equal(and->binary.right->kind, SQL_UNARY);
    q = parse_ok(arena, "SELECT quantile(0.5)(x), -a::Int8, t.1, x -> x");
    sql_list *c = &q->query.selects.items[0]->select.columns;
    assert_true(c->items[0]->func.has_params);
    assert_int_equal(c->items[0]->func.params.count, 1);
    assert_int_equal(c->items[0]->func.args.count, 1);
    assert_int_equal(c->items[1]->kind, SQL_UNARY);
    assert_int_equal(c->items[1]->unary.operand->kind, SQL_CAST);
    assert_true(sql_str_eq(c->items[1]->unary.operand->cast.type, "Int8"));
    assert_int_equal(c->items[2]->kind, SQL_TUPLE_ELEMENT);
    assert_int_equal(c->items[3]->kind, SQL_LAMBDA);
    mu_arena_destroy(arena);
}

static void test_insert_data_offset(void **state) {
    (void)state;
    mu_arena *arena = sqlt_arena();
    const char *sql = "INSERT INTO t (a, b) VALUES (1, 'x')";
    sql_node *n = parse_ok(arena, sql);
    assert_int_equal(n->kind, SQL_INSERT);
    assert_true(sql_str_eq(n->insert.format, "Values"));
    assert_string_equal(sql + n->insert.data_offset, " (1, 'x')");
    assert_int_equal(n->insert.columns.count, 2);
    /* Binary data after FORMAT is not lexed, even when it is not valid SQL. */
    static const char bin[] = "INSERT INTO t FORMAT RowBinary  \r\n\x01'\"`\x00\xff";
    sql_node *stmt = NULL;
    mu_err err;
    assert_int_equal(sql_parse(bin, sizeof(bin) - 1, arena, NULL, &stmt, &err), 0);
    assert_true(sql_str_eq(stmt->insert.format, "RowBinary"));
    assert_int_equal(stmt->insert.data_offset, strlen("INSERT INTO t FORMAT RowBinary  \r\n"));
    sql = "INSERT INTO t FORMAT CSV 1,2";
    n = parse_ok(arena, sql);
    assert_string_equal(sql + n->insert.data_offset, "1,2");
    sql = "INSERT INTO t FORMAT TSV";
    n = parse_ok(arena, sql);
    assert_int_equal(n->insert.data_offset, strlen(sql));
    sql = "INSERT INTO t VALUES 'unterminated";
    n = parse_ok(arena, sql);
    assert_string_equal(sql + n->insert.data_offset, " 'unterminated");
    mu_arena_destroy(arena);
}

static void test_create_structure(void **state) {
    (void)state;
    mu_arena *arena = sqlt_arena();
    sql_node *n = parse_ok(arena, "CREATE TABLE IF NOT EXISTS db.t (a Decimal(10,2) DEFAULT 0 "
                                  "COMMENT 'x', b   Nullable( String ), INDEX i b TYPE set(10) "
                                  "GRANULARITY 2) ENGINE = MergeTree ORDER BY (a, b) "
                                  "PARTITION BY a SETTINGS k = 1 COMMENT 'tc'");
    assert_int_equal(n->kind, SQL_CREATE_TABLE);
    assert_true(n->create.if_not_exists);
    assert_int_equal(n->create.columns.count, 2);
    assert_int_equal(n->create.indexes.count, 1);
    sql_node *a = n->create.columns.items[0];
    assert_true(sql_str_eq(a->column_def.type, "Decimal(10, 2)"));
    assert_int_equal(a->column_def.default_kind, SQL_DEFAULT_DEFAULT);
    assert_true(sql_str_eq(a->column_def.comment, "x"));
    assert_true(sql_str_eq(n->create.columns.items[1]->column_def.type, "Nullable(String)"));
    assert_true(sql_str_eq(n->create.engine->func.name, "MergeTree"));
    assert_true(n->create.engine->flag);
    assert_int_equal(n->create.order_by->kind, SQL_TUPLE);
    assert_true(sql_str_eq(n->create.comment, "tc"));
    char out[1024];
    mu_err err;
    assert_int_equal(sqlt_format("CREATE TABLE IF NOT EXISTS db.t (a Decimal(10,2) DEFAULT 0 "
                                 "COMMENT 'x', b Nullable(String)) ENGINE = MergeTree "
                                 "ORDER BY (a, b) PARTITION BY a COMMENT 'tc'",
                                 out, sizeof(out), &err), 0);
    assert_string_equal(out, "CREATE TABLE IF NOT EXISTS db.t (a Decimal(10, 2) DEFAULT 0 "
                             "COMMENT 'x', b Nullable(String)) ENGINE = MergeTree "
                             "PARTITION BY a ORDER BY (a, b) COMMENT 'tc'");
    mu_arena_destroy(arena);
}

static int parse_nested(const char *open, const char *mid, const char *close, int depth,
                        unsigned depth_max) {
    mu_buf b;
    mu_buf_init(&b, 0);
    mu_err err;
    assert_int_equal(mu_buf_append_str(&b, "SELECT ", &err), 0);
    for (int i = 0; i < depth; i++) assert_int_equal(mu_buf_append_str(&b, open, &err), 0);
    assert_int_equal(mu_buf_append_str(&b, mid, &err), 0);
    for (int i = 0; i < depth; i++) assert_int_equal(mu_buf_append_str(&b, close, &err), 0);
    mu_arena *arena = sqlt_arena();
    sql_node *stmt = NULL;
    sql_parse_options opt = {.depth_max = depth_max};
    int rc = sql_parse((const char *)b.data, b.length_bytes, arena, &opt, &stmt, &err);
    if (rc == 0) {
        mu_buf out;
        mu_buf_init(&out, 0);
        assert_int_equal(sql_ast_format(stmt, &out, &err), 0);
        mu_buf_deinit(&out);
    } else {
        assert_non_null(strstr(err.message, "TOO_DEEP_AST"));
    }
    mu_arena_destroy(arena);
    mu_buf_deinit(&b);
    return rc;
}

static void test_depth_limit(void **state) {
    (void)state;
    assert_int_equal(parse_nested("(", "1", ")", 100, 0), 0);
    assert_int_equal(parse_nested("(", "1", ")", 5000, 0), MU_ETOO_DEEP);
    assert_int_equal(parse_nested("f(", "1", ")", 5000, 0), MU_ETOO_DEEP);
    assert_int_equal(parse_nested("[", "1", "]", 100000, 0), MU_ETOO_DEEP);
    assert_int_equal(parse_nested("NOT ", "1", "", 5000, 0), MU_ETOO_DEEP);
    assert_int_equal(parse_nested("- ", "1", "", 5000, 0), MU_ETOO_DEEP);
    assert_int_equal(parse_nested("(SELECT ", "1", ")", 5000, 0), MU_ETOO_DEEP);
    assert_int_equal(parse_nested("", "1", " + 1", 5000, 0), MU_ETOO_DEEP);
    assert_int_equal(parse_nested("", "a", "[1]", 5000, 0), MU_ETOO_DEEP);
    assert_int_equal(parse_nested("", "1", " + 1", 500, 0), 0);
    assert_int_equal(parse_nested("(", "1", ")", 50, 20), MU_ETOO_DEEP);
    assert_int_equal(parse_nested("(", "1", ")", 10, 20), 0);
}

static void test_parse_expr(void **state) {
    (void)state;
    mu_arena *arena = sqlt_arena();
    sql_node *e = NULL;
    mu_err err;
    assert_int_equal(sql_parse_expr("now() + 1", 9, arena, NULL, &e, &err), 0);
    assert_int_equal(e->kind, SQL_BINARY);
    assert_int_equal(sql_parse_expr("1;", 2, arena, NULL, &e, &err), MU_ESYNTAX);
    assert_int_equal(sql_parse_expr("", 0, arena, NULL, &e, &err), MU_ESYNTAX);
    assert_int_equal(sql_parse_expr("a b", 3, arena, NULL, &e, &err), MU_ESYNTAX);
    mu_arena_destroy(arena);
}

static void test_arena_limit(void **state) {
    (void)state;
    mu_mem_tracker tracker;
    mu_mem_tracker_init(&tracker, "sql", NULL, 64 * 1024);
    mu_arena *arena = NULL;
    mu_err err;
    assert_int_equal(mu_arena_create(&arena, &tracker, 4096, &err), 0);
    mu_buf b;
    mu_buf_init(&b, 0);
    assert_int_equal(mu_buf_append_str(&b, "SELECT 1", &err), 0);
    for (int i = 0; i < 20000; i++) assert_int_equal(mu_buf_append_str(&b, ", a", &err), 0);
    sql_node *stmt = NULL;
    int rc = sql_parse((const char *)b.data, b.length_bytes, arena, NULL, &stmt, &err);
    assert_int_equal(rc, MU_EMEMLIMIT);
    mu_buf_deinit(&b);
    mu_arena_destroy(arena);
}

/* Inputs the fuzzer once crashed on: each either fails cleanly or formats to a
 * fixed point. */
static void test_fuzz_regressions(void **state) {
    (void)state;
    static const struct { const char *bytes; size_t length; } cases[] = {
        {"SELECT {x:UIn\x01\0\0\0, :nea{Sm tring}, {arr:Array(Nullable(String))}", 64},
        {"SELECT aa..1``", 14},
        {"SELECT CAST(x AS DateTime64(3, 'Europe/Berlin'.b, a - -b,))", 59},
        {"SELECT {x:UIot32}, {namee: St@ring}, {ar: :rSt@nrgtam}", 54},
    };
    for (size_t i = 0; i < MU_ARRAY_LEN(cases); i++) {
        mu_arena *arena = sqlt_arena();
        sql_node *stmt = NULL;
        mu_err err;
        int rc = sql_parse(cases[i].bytes, cases[i].length, arena, NULL, &stmt, &err);
        assert_true(rc == 0 || rc == MU_ESYNTAX);
        if (rc == 0) {
            char text[512];
            mu_buf out;
            mu_buf_init(&out, sizeof(text) - 1);
            assert_int_equal(sql_ast_format(stmt, &out, &err), 0);
            memcpy(text, out.data, out.length_bytes);
            text[out.length_bytes] = '\0';
            mu_buf_deinit(&out);
            sqlt_round_trip(text);
        }
        mu_arena_destroy(arena);
    }
    sqlt_round_trip("SELECT aa.1 AS ``, t.0x1, a.2.1");
    sqlt_round_trip("SELECT CAST(x AS DateTime64(3, 'UTC' . b, a - -b, -1))");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_statements_round_trip),
        cmocka_unit_test(test_bad_statements),
        cmocka_unit_test(test_exact_message),
        cmocka_unit_test(test_select_structure),
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_insert_data_offset),
        cmocka_unit_test(test_create_structure),
        cmocka_unit_test(test_depth_limit),
        cmocka_unit_test(test_parse_expr),
        cmocka_unit_test(test_arena_limit),
        cmocka_unit_test(test_fuzz_regressions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
