-- PREWHERE and WHERE filtering on MergeTree tables.
CREATE TABLE t (k UInt32, d Date, s String, v Float64) ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY k;
INSERT INTO t SELECT number, toDate('2020-01-15') + number * 10, concat('s', toString(number)), number / 2 FROM numbers(20);
SELECT k, d FROM t PREWHERE k < 3 ORDER BY k;
SELECT k, s FROM t PREWHERE d >= toDate('2020-06-01') WHERE k % 2 = 0 ORDER BY k;
SELECT count() FROM t PREWHERE s LIKE 's1%';
SELECT k FROM t PREWHERE v > 8 AND k < 19 ORDER BY k;
SELECT count() FROM t PREWHERE 0;
SELECT count() FROM t PREWHERE 1 WHERE 1;
SELECT k, v FROM t WHERE v BETWEEN 2 AND 3 ORDER BY k;
SELECT k FROM t WHERE toYYYYMM(d) = 202003 ORDER BY k;
SELECT k FROM t WHERE d = toDate('2020-02-04') OR s = 's19' ORDER BY k;
SELECT k FROM t WHERE k IN (1, 2, 3) AND v > 0.5 ORDER BY k;
SELECT k FROM t WHERE s != '' AND length(s) = 3 ORDER BY k LIMIT 3;
SELECT count() FROM t WHERE k > 5 AND k < 5;
SELECT toYYYYMM(d) AS m, count() FROM t WHERE k >= 10 GROUP BY m ORDER BY m;
SELECT k FROM t WHERE k = 7;
SELECT k FROM t WHERE 'a'; -- { serverError ILLEGAL_TYPE_OF_COLUMN_FOR_FILTER }
SELECT k FROM t PREWHERE nosuch = 1; -- { serverError UNKNOWN_IDENTIFIER }
