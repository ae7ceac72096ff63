-- Basic aggregates: count, count(DISTINCT), sum, avg, min, max, any, anyLast, argMin, argMax.
CREATE TABLE t (k UInt32, g String, v Int64, f Float64, s String) ENGINE = MergeTree ORDER BY k;
INSERT INTO t SELECT number, ['a', 'b', 'c'][number % 3 + 1], toInt64(number) - 10, number / 4, concat('s', toString(number % 7)) FROM numbers(30);
SELECT count(), count(*), count(k), count(1) FROM t;
SELECT count(DISTINCT g), count(DISTINCT s), count(DISTINCT v % 5), countDistinct(g) FROM t;
SELECT sum(v), sum(k), sum(f), avg(v), avg(f), avg(k) FROM t;
SELECT toTypeName(sum(v)), toTypeName(sum(k)), toTypeName(sum(f)), toTypeName(avg(v)), toTypeName(count()) FROM t;
SELECT min(v), max(v), min(s), max(s), min(f), max(f) FROM t;
SELECT any(k), anyLast(k) FROM (SELECT k FROM t ORDER BY k);
SELECT argMin(s, v), argMax(s, v), argMin(k, f), argMax(g, k) FROM t;
SELECT g, count(), sum(v), min(v), max(v), avg(v) FROM t GROUP BY g ORDER BY g;
SELECT g, argMax(k, v), argMin(k, v) FROM t GROUP BY g ORDER BY g;
SELECT count(), sum(v), avg(v), min(v), max(v) FROM t WHERE k > 100;
SELECT sum(v), min(s), max(s), any(s) FROM t WHERE 0;
SELECT g, count() FROM t WHERE k > 100 GROUP BY g ORDER BY g;
SELECT sum(number), sum(toUInt8(number)), toTypeName(sum(toUInt8(number))), sum(toFloat32(number)) FROM numbers(300);
SELECT sum(toUInt64(18446744073709551615)) FROM numbers(2);
SELECT min(x), max(x), sum(x) FROM (SELECT arrayJoin([1, -1, 0.5]) AS x);
SELECT avg(x) FROM (SELECT arrayJoin([1, 2, 3, 4]) AS x);
SELECT max(toDate('2020-01-01') + number), min(toDateTime('2020-01-01 00:00:00', 'UTC') + number) FROM numbers(10);
SELECT count() FROM numbers(1000000);
SELECT sum(k) AS total, total * 2 FROM t;
SELECT sum(s) FROM t; -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT k, count() FROM t; -- { serverError NOT_AN_AGGREGATE }
SELECT sum(count()) FROM t; -- { serverError ILLEGAL_AGGREGATION }
SELECT argMax(k) FROM t; -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT nosuchaggregate(k) FROM t; -- { serverError UNKNOWN_FUNCTION }
