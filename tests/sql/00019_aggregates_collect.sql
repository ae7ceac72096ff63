-- groupArray, groupUniqArray, topK, variance/stddev, the -If combinator.
CREATE TABLE t (k UInt32, g String, v Int32, n Nullable(Int32)) ENGINE = MergeTree ORDER BY k;
INSERT INTO t VALUES (1, 'a', 5, 1), (2, 'a', 3, NULL), (3, 'b', 5, 3), (4, 'b', 8, NULL), (5, 'b', 1, 5), (6, 'c', 5, 6), (7, 'a', 3, 7);
SELECT arraySort(groupArray(v)), arraySort(groupArray(g)), arraySort(groupArray(n)) FROM t;
SELECT groupArray(k) FROM (SELECT k FROM t ORDER BY k DESC);
SELECT groupArray(3)(k) FROM (SELECT k FROM t ORDER BY k);
SELECT arraySort(groupUniqArray(v)), arraySort(groupUniqArray(g)), arraySort(groupUniqArray(n)) FROM t;
SELECT g, arraySort(groupArray(v)), arraySort(groupUniqArray(v)) FROM t GROUP BY g ORDER BY g;
SELECT toTypeName(groupArray(v)), toTypeName(groupArray(n)), toTypeName(groupUniqArray(g)) FROM t;
SELECT topK(1)(v), topK(2)(v) FROM t;
SELECT topK(2)(g), topK(1)(g) FROM t WHERE k != 7;
SELECT topK(3)(x) FROM (SELECT arrayJoin([1, 1, 1, 1, 2, 2, 2, 3, 3, 4]) AS x);
SELECT topK(x) FROM (SELECT arrayJoin(['q', 'q', 'w']) AS x);
SELECT varPop(v), varSamp(v), stddevPop(v), stddevSamp(v) FROM (SELECT arrayJoin([2, 4, 4, 4, 5, 5, 7, 9]) AS v);
SELECT round(varPop(v), 6), round(varSamp(v), 6), round(stddevPop(v), 6), round(stddevSamp(v), 6) FROM t;
SELECT varSamp(v), stddevSamp(v), varPop(v) FROM (SELECT 1 AS v);
SELECT round(varPop(number), 4), round(stddevSamp(number), 4) FROM numbers(1000);
SELECT VAR_POP(v), STDDEV_SAMP(v) FROM (SELECT arrayJoin([1, 3]) AS v);
SELECT countIf(v > 3), sumIf(v, g = 'a'), avgIf(v, g = 'b'), minIf(k, v = 5), maxIf(k, v = 5) FROM t;
SELECT uniqIf(g, v = 5), uniqExactIf(v, k > 2), arraySort(groupArrayIf(k, v = 3)), anyIf(g, k = 4), argMaxIf(k, v, g = 'a') FROM t;
SELECT g, countIf(n IS NULL), sumIf(v, v > 2) FROM t GROUP BY g ORDER BY g;
SELECT sumIf(v, 0), countIf(0), avgIf(v, 0) FROM t;
SELECT groupArray(v), groupUniqArray(v), topK(2)(v) FROM t WHERE k > 100;
SELECT countIf(v) FROM t; -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT sumIf(v) FROM t; -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
