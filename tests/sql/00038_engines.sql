-- ReplacingMergeTree, SummingMergeTree, AggregatingMergeTree (queries do not depend on merges).
CREATE TABLE r (k UInt32, ver UInt32, v String) ENGINE = ReplacingMergeTree(ver) ORDER BY k;
INSERT INTO r VALUES (1, 1, 'a'), (2, 1, 'b');
INSERT INTO r VALUES (1, 2, 'a2'), (3, 1, 'c');
SELECT k, argMax(v, ver), max(ver) FROM r GROUP BY k ORDER BY k;
SELECT count(DISTINCT k) FROM r;
CREATE TABLE r2 (k UInt32, v String) ENGINE = ReplacingMergeTree ORDER BY k;
INSERT INTO r2 VALUES (1, 'only');
SELECT k, v FROM r2;
CREATE TABLE s (k UInt32, g String, a UInt64, b Float64) ENGINE = SummingMergeTree ORDER BY (k, g);
INSERT INTO s VALUES (1, 'x', 10, 0.5), (2, 'y', 1, 1);
INSERT INTO s VALUES (1, 'x', 5, 0.25), (2, 'z', 3, 2);
SELECT k, g, sum(a), sum(b) FROM s GROUP BY k, g ORDER BY k, g;
CREATE TABLE s2 (k UInt32, a UInt64, b UInt64) ENGINE = SummingMergeTree(a) ORDER BY k;
INSERT INTO s2 VALUES (1, 1, 100), (1, 2, 200);
SELECT k, sum(a) FROM s2 GROUP BY k;
CREATE TABLE ag (k UInt32, total AggregateFunction(sum, UInt64), users AggregateFunction(uniq, UInt8), top AggregateFunction(max, Int32)) ENGINE = AggregatingMergeTree ORDER BY k; -- { muscles todo: AggregateFunction columns and -State/-Merge combinators are not supported yet }
INSERT INTO ag SELECT number % 3, sumState(number), uniqState(number % 5), maxState(toInt32(number)) FROM numbers(30) GROUP BY number % 3; -- { muscles todo: AggregateFunction columns and -State/-Merge combinators are not supported yet }
INSERT INTO ag SELECT number % 3, sumState(number), uniqState(number % 5), maxState(toInt32(number)) FROM numbers(30, 30) GROUP BY number % 3; -- { muscles todo: AggregateFunction columns and -State/-Merge combinators are not supported yet }
SELECT k, sumMerge(total), uniqMerge(users), maxMerge(top) FROM ag GROUP BY k ORDER BY k; -- { muscles todo: AggregateFunction columns and -State/-Merge combinators are not supported yet }
SELECT sumMerge(total) FROM ag; -- { muscles todo: AggregateFunction columns and -State/-Merge combinators are not supported yet }
SELECT name, engine FROM system.tables WHERE database = currentDatabase() ORDER BY name;
