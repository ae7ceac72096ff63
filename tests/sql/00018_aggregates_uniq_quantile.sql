-- uniq, uniqExact, quantile family and median (approximate ones rounded).
CREATE TABLE t (k UInt32, g UInt8, v Float64, s String) ENGINE = MergeTree ORDER BY k;
INSERT INTO t SELECT number, number % 4, (number * 7) % 100, toString(number % 13) FROM numbers(200);
SELECT uniq(k), uniq(g), uniq(s), uniq(v), uniqExact(k), uniqExact(g), uniqExact(s), uniqExact(v) FROM t;
SELECT uniq(g, s), uniqExact(g, s), uniqExact(k % 10, k % 7) FROM t;
SELECT g, uniqExact(s), uniq(s) FROM t GROUP BY g ORDER BY g;
SELECT toTypeName(uniq(k)), toTypeName(uniqExact(k)) FROM t;
SELECT uniq(number), uniqExact(number) FROM numbers(10000);
SELECT uniqExact(x) FROM (SELECT arrayJoin([1, 1, NULL, 2, NULL]) AS x);
SELECT quantileExact(0.5)(v), quantileExact(0.1)(v), quantileExact(0.9)(v), quantileExact(v) FROM t;
SELECT quantile(0.5)(v), quantile(0.25)(v), quantile(v), median(v) FROM t;
SELECT arrayMap(x -> round(x, 6), quantiles(0.1, 0.5, 0.9)(v)), quantilesExact(0.25, 0.75)(v) FROM t;
SELECT round(quantileTDigest(0.5)(v) / 10), round(quantileTDigest(0.9)(v) / 10), round(medianTDigest(v) / 10) FROM t;
SELECT quantile(0.5)(number), median(number), quantileExact(0.5)(number), round(quantileTDigest(0.5)(number)) FROM numbers(11);
SELECT quantile(0.5)(number), median(number), quantileExact(0.5)(number) FROM numbers(10);
SELECT g, median(v), quantileExact(0.5)(v) FROM t GROUP BY g ORDER BY g;
SELECT medianExact(v), quantileExactLow(0.5)(k), quantileExactHigh(0.5)(k) FROM t; -- { differential skip: quantileExactLow/High are newer than 18.16 }
SELECT toTypeName(quantile(0.5)(k)), toTypeName(quantileExact(0.5)(k)), toTypeName(median(v)), toTypeName(quantiles(0.5)(k)) FROM t; -- { differential skip: 18.16 keeps the argument type for quantile of UInt32; now it is Float64 }
SELECT quantile(0.5)(v), median(v), quantileExact(v), quantiles(0.5)(v) FROM t WHERE k > 1000;
SELECT uniq(v), uniqExact(v) FROM t WHERE k > 1000;
SELECT quantile(2)(v) FROM t; -- { serverError PARAMETER_OUT_OF_BOUND }
SELECT quantile(0.5)(s) FROM t; -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
