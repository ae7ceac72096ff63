-- DISTINCT and WITH (expression aliases).
CREATE TABLE t (k UInt32, a String, b UInt8) ENGINE = MergeTree ORDER BY k;
INSERT INTO t VALUES (1, 'x', 1), (2, 'y', 1), (3, 'x', 2), (4, 'x', 1), (5, 'z', 2);
SELECT DISTINCT a FROM t ORDER BY a;
SELECT DISTINCT a, b FROM t ORDER BY a, b;
SELECT DISTINCT b FROM t ORDER BY b DESC;
SELECT count(DISTINCT a), count(DISTINCT a, b) FROM t;
SELECT DISTINCT k % 2 FROM t ORDER BY k % 2;
SELECT DISTINCT a FROM t WHERE b = 1 ORDER BY a LIMIT 1;
SELECT DISTINCT x FROM (SELECT arrayJoin([NULL, 1, NULL, 2, 1]) AS x) ORDER BY x;
SELECT DISTINCT number % 3 AS r FROM numbers(100) ORDER BY r;
WITH 10 AS ten SELECT ten + 1;
WITH 2 AS two, two * 3 AS six SELECT six, two;
WITH 'x' AS needle SELECT k FROM t WHERE a = needle ORDER BY k;
WITH (SELECT max(k) FROM t) AS mk SELECT k FROM t WHERE k = mk;
WITH k * 10 AS kk SELECT k, kk FROM t ORDER BY kk DESC LIMIT 2;
WITH sum(b) AS s SELECT a, s FROM t GROUP BY a ORDER BY a;
WITH [1, 2, 3] AS arr SELECT arrayMap(x -> x * 2, arr), length(arr);
WITH cte AS (SELECT k, a FROM t WHERE b = 2) SELECT k, a FROM cte ORDER BY k; -- { differential skip: WITH name AS (subquery) is newer than 18.16 }
WITH cte AS (SELECT number AS n FROM numbers(5)) SELECT sum(n) FROM cte; -- { differential skip: WITH name AS (subquery) is newer than 18.16 }
SELECT
    a,            -- the group
    count() AS c  -- rows in it
FROM t
-- only the rows with b = 1
WHERE b = 1
GROUP BY a
ORDER BY a;
SELECT DISTINCT
    b
FROM t
ORDER BY b DESC;
SELECT a
FROM nosuch_table_00022
WHERE 1; -- { serverError UNKNOWN_TABLE }
SELECT DISTINCT nosuch FROM t; -- { serverError UNKNOWN_IDENTIFIER }
