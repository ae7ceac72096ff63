-- -State and -Merge combinators and AggregateFunction columns.
SELECT toTypeName(sumState(number)) FROM numbers(10);
SELECT toTypeName(quantileState(0.5)(number)) FROM numbers(10);
SELECT sumMerge(s) FROM (SELECT sumState(number) AS s FROM numbers(10));
SELECT uniqMerge(u), avgMerge(a) FROM (SELECT uniqState(number % 7) AS u, avgState(number) AS a FROM numbers(100));
SELECT k, quantileMerge(0.5)(q) FROM (SELECT number % 2 AS k, quantileState(0.5)(number) AS q FROM numbers(10) GROUP BY k) GROUP BY k ORDER BY k;
SELECT countMerge(c) FROM (SELECT countState() AS c FROM numbers(5) UNION ALL SELECT countState() FROM numbers(7));
SELECT minMerge(m), maxMerge(x) FROM (SELECT minState(number) AS m, maxState(number) AS x FROM numbers(3) UNION ALL SELECT minState(number + 10), maxState(number + 10) FROM numbers(3));
SELECT sumIfMerge(s) FROM (SELECT sumIfState(number, number % 2 = 0) AS s FROM numbers(10));
CREATE TABLE agg (k UInt8, s AggregateFunction(sum, UInt64), u AggregateFunction(uniq, UInt64)) ENGINE = AggregatingMergeTree ORDER BY k;
INSERT INTO agg SELECT number % 2, sumState(number), uniqState(number) FROM numbers(10) GROUP BY number % 2;
INSERT INTO agg SELECT number % 2, sumState(number), uniqState(number) FROM numbers(5, 10) GROUP BY number % 2;
SELECT k, sumMerge(s), uniqMerge(u) FROM agg GROUP BY k ORDER BY k;
SELECT sumMerge(s) FROM agg;
SELECT sumMerge(number) FROM numbers(1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
