-- JOIN: INNER/LEFT/RIGHT/FULL/CROSS with USING and ON.
CREATE TABLE l (k UInt32, a String) ENGINE = MergeTree ORDER BY k;
CREATE TABLE r (k UInt32, b String, w Int32) ENGINE = MergeTree ORDER BY k;
INSERT INTO l VALUES (1, 'a1'), (2, 'a2'), (3, 'a3'), (5, 'a5');
INSERT INTO r VALUES (2, 'b2', 20), (3, 'b3', 30), (3, 'b3x', 31), (4, 'b4', 40);
SELECT k, a, b FROM l INNER JOIN r USING k ORDER BY k, b;
SELECT k, a, b FROM l JOIN r USING (k) ORDER BY k, b;
SELECT k, a, b, w FROM l LEFT JOIN r USING k ORDER BY k, b;
SELECT k, a, b, w FROM l LEFT OUTER JOIN r USING k ORDER BY k, b;
SELECT k, a, b FROM l RIGHT JOIN r USING k ORDER BY k, b;
SELECT k, a, b FROM l FULL JOIN r USING k ORDER BY k, b;
SELECT k, a, b FROM l FULL OUTER JOIN r USING k ORDER BY k, b;
SELECT a, b FROM l CROSS JOIN r ORDER BY a, b;
SELECT count() FROM l CROSS JOIN r;
SELECT a, b FROM l, r WHERE l.k = r.k ORDER BY a, b; -- { differential skip: 18.16 cannot read r.k in a comma join }
SELECT l.k, a, b FROM l INNER JOIN r ON l.k = r.k ORDER BY l.k, b;
SELECT l.k, a, b, w FROM l LEFT JOIN r ON l.k = r.k ORDER BY l.k, b;
SELECT a, b FROM l RIGHT JOIN r ON l.k = r.k ORDER BY b;
SELECT l.k, r.k, a, b FROM l JOIN r ON l.k = r.k ORDER BY l.k, b; -- { differential skip: 18.16 returns wrong values for the right key column }
SELECT l.k, r.k, a, b FROM l FULL JOIN r ON l.k = r.k ORDER BY l.k, r.k, b; -- { differential skip: 18.16 fails FULL JOIN ... ON }
SELECT x.k, a, b FROM l AS x JOIN r AS y ON x.k = y.k ORDER BY x.k, b;
SELECT a, b FROM l JOIN r ON l.k = r.k AND l.k > 2 ORDER BY a, b; -- { differential skip: 18.16 accepts only equalities in ON }
SELECT a, b FROM l JOIN r ON l.k + 1 = r.k ORDER BY a, b; -- { differential skip: 18.16 accepts only columns in ON }
SELECT k, a, s FROM l JOIN (SELECT k, sum(w) AS s FROM r GROUP BY k) AS agg USING k ORDER BY k;
SELECT k, a, b FROM l JOIN (SELECT k, b FROM r WHERE w > 25) USING k ORDER BY k, b;
SELECT k, count() FROM l JOIN r USING k GROUP BY k ORDER BY k;
SELECT k, a, b FROM l LEFT JOIN r USING k WHERE b = '' ORDER BY k;
SELECT k, a, b, toTypeName(b), toTypeName(w) FROM l LEFT JOIN r USING k WHERE k = 1;
SELECT k, a, b FROM l LEFT JOIN r USING k ORDER BY k, b SETTINGS join_use_nulls = 1;
SELECT k, a, b FROM l ALL INNER JOIN r USING k ORDER BY k, b;
SELECT k, a, b FROM l ANY LEFT JOIN r USING k WHERE k != 3 ORDER BY k;
SELECT k, a FROM l JOIN (SELECT toUInt32(1) AS k) USING k;
SELECT k, a FROM l JOIN (SELECT 1 AS k) USING k; -- { differential skip: 18.16 needs identical key types in USING }
SELECT k, a, b FROM l JOIN r USING k WHERE 0;
SELECT k FROM l JOIN r USING nosuch; -- { serverError UNKNOWN_IDENTIFIER }
SELECT a FROM l JOIN nosuch USING k; -- { serverError UNKNOWN_TABLE }
