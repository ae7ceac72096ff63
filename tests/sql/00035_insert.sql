-- INSERT VALUES / SELECT / FORMAT TabSeparated, column lists, defaults, SYSTEM FLUSH.
CREATE TABLE t (k UInt32, s String, f Float64 DEFAULT 0.5, d Date DEFAULT '2020-01-01', n Nullable(Int32)) ENGINE = MergeTree ORDER BY k;
INSERT INTO t VALUES (1, 'one', 1.5, '2021-02-03', 10);
INSERT INTO t (k, s) VALUES (2, 'two');
INSERT INTO t (s, k) VALUES ('three', 3), ('four', 4);
INSERT INTO TABLE t (k, s, n) VALUES (5, 'five', NULL);
INSERT INTO t VALUES (6, 'six', -1e10, '2000-12-31', -5), (7, 'with ''quote''', 0, '2020-02-29', 0);
SELECT k, s, f, d, n FROM t ORDER BY k;
INSERT INTO t (k, s) SELECT number + 100, toString(number) FROM numbers(3);
SELECT k, s, f, d FROM t WHERE k >= 100 ORDER BY k;
INSERT INTO t SELECT k + 1000, upper(s), f * 2, d, n FROM t WHERE k < 3;
SELECT k, s, f, n FROM t WHERE k > 1000 ORDER BY k;
INSERT INTO t FORMAT TabSeparated
200	tsv row	2.25	2022-03-04	7
201	tab\there	0	2022-03-05	\N
202	nl\nhere	-1	2022-03-06	-7
;
SELECT k, s, f, d, n FROM t WHERE k >= 200 AND k < 300 ORDER BY k;
INSERT INTO t (k, s) FORMAT TabSeparated
300	partial
;
SELECT k, s, f, d, n FROM t WHERE k = 300;
INSERT INTO t (k, s) FORMAT TSV
301	tsv alias
;
SELECT k, s FROM t WHERE k = 301;
INSERT INTO t (k, s) FORMAT CSV
302,"csv, quoted"
;
SELECT k, s FROM t WHERE k = 302;
INSERT INTO t (k, s) FORMAT JSONEachRow
{"k": 303, "s": "json"}
{"s": "json2", "k": 304}
;
SELECT k, s FROM t WHERE k IN (303, 304) ORDER BY k;
SELECT count() FROM t;
SYSTEM FLUSH LOGS;
SYSTEM FLUSH TABLE t; -- { differential skip: SYSTEM FLUSH TABLE is muscles' own statement }
SYSTEM FLUSH t; -- { differential skip: SYSTEM FLUSH TABLE is muscles' own statement }
SELECT count(), sum(k) FROM t;
CREATE TABLE e (k UInt32) ENGINE = MergeTree ORDER BY k;
INSERT INTO e SELECT number FROM numbers(10) WHERE 0;
SELECT count() FROM e;
INSERT INTO e SELECT number FROM numbers(100000);
SELECT count(), sum(k), min(k), max(k) FROM e;
INSERT INTO t (k, nosuch) VALUES (1, 2); -- { serverError NO_SUCH_COLUMN_IN_TABLE }
INSERT INTO nosuch VALUES (1); -- { serverError UNKNOWN_TABLE }
INSERT INTO t (k, s) SELECT 1; -- { serverError NUMBER_OF_COLUMNS_DOESNT_MATCH }
INSERT INTO t (k, s) FORMAT TabSeparated
abc	bad number
; -- { serverError CANNOT_PARSE_INPUT_ASSERTION_FAILED }
SELECT count() FROM t;
CREATE TABLE nn (k UInt32, s String) ENGINE = MergeTree ORDER BY k;
INSERT INTO nn VALUES (NULL, NULL); -- { differential skip: 18.16 refuses NULL for a non-Nullable column; now it becomes the default (input_format_null_as_default) }
SELECT k, s FROM nn; -- { differential skip: see the INSERT of NULL above }
