-- GROUP BY keys and expressions, WITH TOTALS, HAVING.
CREATE TABLE t (k UInt32, a String, b UInt8, v Float64) ENGINE = MergeTree ORDER BY k;
INSERT INTO t SELECT number, ['x', 'y'][number % 2 + 1], number % 3, number * 1.5 FROM numbers(12);
SELECT a, count() FROM t GROUP BY a ORDER BY a;
SELECT a, b, count(), sum(v) FROM t GROUP BY a, b ORDER BY a, b;
SELECT b * 10 AS bb, count() FROM t GROUP BY bb ORDER BY bb;
SELECT k % 4, count() FROM t GROUP BY k % 4 ORDER BY k % 4;
SELECT a, count() AS c FROM t GROUP BY a HAVING c > 5 ORDER BY a;
SELECT b, sum(v) FROM t GROUP BY b HAVING sum(v) > 50 ORDER BY b;
SELECT b, count() FROM t GROUP BY b HAVING b != 1 ORDER BY b;
SELECT a, max(v) - min(v) FROM t GROUP BY a HAVING count() = 6 AND a = 'y';
SELECT a, count() FROM t GROUP BY a WITH TOTALS ORDER BY a;
SELECT a, b, sum(k) FROM t GROUP BY a, b WITH TOTALS ORDER BY a, b;
SELECT b, count() FROM t GROUP BY b WITH TOTALS HAVING count() > 3 ORDER BY b;
SELECT a, count() FROM t WHERE k > 100 GROUP BY a WITH TOTALS ORDER BY a;
SELECT count(), sum(k) FROM t WITH TOTALS;
SELECT a, count() FROM t GROUP BY a WITH TOTALS ORDER BY a FORMAT TabSeparatedWithNames;
SELECT a, count() AS c FROM t GROUP BY a WITH TOTALS ORDER BY a FORMAT JSONEachRow;
SELECT a, arraySort(groupArray(k)) FROM t GROUP BY a ORDER BY a;
SELECT k FROM t GROUP BY k HAVING k < 3 ORDER BY k;
SELECT toString(b) AS s, count() FROM t GROUP BY s ORDER BY s;
SELECT count() FROM (SELECT a FROM t GROUP BY a);
SELECT a, count() FROM t WHERE 0 GROUP BY a ORDER BY a;
SELECT n, count() FROM (SELECT arrayJoin([1, NULL, 2, NULL, 1]) AS n) GROUP BY n ORDER BY n;
SELECT a, count() FROM t GROUP BY a HAVING nosuch > 1; -- { serverError UNKNOWN_IDENTIFIER }
SELECT a, v FROM t GROUP BY a; -- { serverError NOT_AN_AGGREGATE }
