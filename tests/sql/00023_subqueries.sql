-- Subqueries in FROM, IN / NOT IN subqueries, scalar subqueries.
CREATE TABLE t (k UInt32, g String, v Int32) ENGINE = MergeTree ORDER BY k;
INSERT INTO t VALUES (1, 'a', 10), (2, 'b', 20), (3, 'a', 30), (4, 'c', 40), (5, 'b', 50);
CREATE TABLE u (g String, w UInt8) ENGINE = MergeTree ORDER BY g;
INSERT INTO u VALUES ('a', 1), ('c', 3), ('d', 4);
SELECT * FROM (SELECT k, v FROM t WHERE v > 15) ORDER BY k;
SELECT x FROM (SELECT k * 2 AS x FROM t) WHERE x > 4 ORDER BY x;
SELECT g, s FROM (SELECT g, sum(v) AS s FROM t GROUP BY g) WHERE s > 25 ORDER BY g;
SELECT count() FROM (SELECT DISTINCT g FROM t);
SELECT sub.k FROM (SELECT k FROM t WHERE k < 3) AS sub ORDER BY sub.k;
SELECT k FROM (SELECT k FROM (SELECT k FROM t WHERE k > 1) WHERE k < 5) ORDER BY k;
SELECT k FROM t WHERE g IN (SELECT g FROM u) ORDER BY k;
SELECT k FROM t WHERE g NOT IN (SELECT g FROM u) ORDER BY k;
SELECT k FROM t WHERE (g, k) IN (SELECT g, toUInt32(w) FROM u) ORDER BY k; -- { muscles todo: tuples (the Tuple type) are not supported yet }
SELECT k FROM t WHERE k IN (SELECT toUInt32(w) FROM u WHERE w > 2) ORDER BY k;
SELECT k, g IN (SELECT g FROM u) AS in_u FROM t ORDER BY k;
SELECT k FROM t WHERE g IN (SELECT g FROM u WHERE 0) ORDER BY k;
SELECT (SELECT max(v) FROM t), (SELECT count() FROM u);
SELECT k, v, v - (SELECT min(v) FROM t) FROM t ORDER BY k;
SELECT k FROM t WHERE v > (SELECT avg(v) FROM t) ORDER BY k;
SELECT (SELECT g FROM u ORDER BY w DESC LIMIT 1);
SELECT toTypeName((SELECT 1)), (SELECT 'x', 2); -- { muscles todo: tuples (the Tuple type) are not supported yet }
SELECT number FROM numbers(10) WHERE number IN (SELECT number * 3 FROM numbers(4)) ORDER BY number;
SELECT k FROM t WHERE k IN (1, 3) AND g IN (SELECT g FROM u) ORDER BY k;
SELECT count() FROM t WHERE v IN (SELECT v FROM t);
SELECT (SELECT k FROM t); -- { serverError INCORRECT_RESULT_OF_SCALAR_SUBQUERY }
SELECT k FROM (SELECT k FROM nosuch); -- { serverError UNKNOWN_TABLE }
