-- Queries over empty tables and empty results.
CREATE TABLE e (k UInt32, s String, f Float64, n Nullable(Int32), d Date) ENGINE = MergeTree ORDER BY k;
SELECT * FROM e;
SELECT count() FROM e;
SELECT count(), sum(k), avg(f), min(s), any(s), uniq(k), uniqExact(s) FROM e;
SELECT max(d), min(d) FROM e; -- { differential skip: 18.16 prints the zero Date as 0000-00-00 }
SELECT sum(n), min(n), max(n), avg(n), count(n) FROM e;
SELECT groupArray(k), groupUniqArray(s), topK(3)(k) FROM e;
SELECT quantile(0.5)(f), median(k), quantileExact(k), varPop(f), stddevSamp(f) FROM e; -- { differential skip: 18.16 keeps UInt32 for median(UInt32) and returns 0; now it is Float64 nan }
SELECT argMin(s, k), argMax(s, k), anyLast(k) FROM e;
SELECT k, count() FROM e GROUP BY k;
SELECT k, count() FROM e GROUP BY k WITH TOTALS;
SELECT count() FROM e WITH TOTALS;
SELECT DISTINCT s FROM e;
SELECT * FROM e ORDER BY k LIMIT 10;
SELECT * FROM e FORMAT TabSeparatedWithNames;
SELECT * FROM e FORMAT TabSeparatedWithNamesAndTypes;
SELECT * FROM e FORMAT JSONEachRow;
SELECT * FROM e FORMAT CSVWithNames;
SELECT k FROM e WHERE k IN (SELECT k FROM e);
SELECT (SELECT count() FROM e);
SELECT k, s FROM e JOIN (SELECT toUInt32(1) AS k) USING k;
SELECT count() FROM (SELECT k FROM e UNION ALL SELECT k FROM e);
SELECT count() FROM e WHERE 1;
SELECT sumIf(k, k > 0), countIf(k > 0) FROM e;
INSERT INTO e SELECT * FROM e;
SELECT count() FROM e;
TRUNCATE TABLE e;
SELECT count() FROM e;
