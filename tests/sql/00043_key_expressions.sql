-- PARTITION BY and ORDER BY expressions: rows sort by the expressions,
-- parts never mix partitions, keys are computed at INSERT (a failing key
-- refuses the whole INSERT), and non-deterministic keys are refused.
CREATE TABLE e (ts DateTime('UTC'), user UInt64, v Float64, s String) ENGINE = MergeTree PARTITION BY toStartOfDay(ts) ORDER BY (toStartOfHour(ts), user);
INSERT INTO e VALUES ('2024-01-01 05:10:00', 1, 1.5, 'a'), ('2024-01-01 03:50:00', 2, 2.5, 'b'), ('2024-01-02 00:00:00', 3, 3, 'c'), ('2024-01-01 05:20:00', 0, 4, 'd');
SELECT * FROM e ORDER BY toStartOfHour(ts), user;
SELECT toDate(ts) AS d, count(), sum(v) FROM e GROUP BY d ORDER BY d;
SHOW CREATE TABLE e; -- { differential skip: 18.16 prints SHOW CREATE on one line }
CREATE TABLE m (k UInt32, s String) ENGINE = MergeTree PARTITION BY k % 3 ORDER BY (lower(s), k);
INSERT INTO m SELECT number, concat(if(number % 2 = 0, 'A', 'b'), toString(number % 5)) FROM numbers(30);
SELECT k % 3 AS p, count(), sum(k), groupUniqArray(s) = groupUniqArray(s) FROM m GROUP BY p ORDER BY p;
SELECT s, count() FROM m GROUP BY s ORDER BY s;
CREATE TABLE h (id UInt64, name String) ENGINE = MergeTree PARTITION BY cityHash64(name) % 4 ORDER BY (intDiv(id, 10), id);
INSERT INTO h SELECT number, toString(number % 7) FROM numbers(100);
SELECT count(), sum(id), uniqExact(name) FROM h;
SELECT id FROM h WHERE id BETWEEN 41 AND 44 ORDER BY id;
-- A key that cannot be computed refuses the INSERT; nothing of it is stored.
CREATE TABLE z (x UInt32, y UInt32) ENGINE = MergeTree PARTITION BY intDiv(100, x) ORDER BY y;
INSERT INTO z VALUES (1, 1), (0, 2); -- { serverError ILLEGAL_DIVISION }
INSERT INTO z VALUES (5, 3);
SELECT * FROM z;
-- Refused key expressions.
CREATE TABLE bad (ts DateTime) ENGINE = MergeTree PARTITION BY toYYYYMM(now()) ORDER BY ts; -- { serverError BAD_ARGUMENTS } -- { differential skip: 18.16 accepts a non-deterministic partition key }
CREATE TABLE bad (ts DateTime) ENGINE = MergeTree ORDER BY (ts, rand()); -- { serverError BAD_ARGUMENTS } -- { differential skip: 18.16 accepts a non-deterministic sort key }
CREATE TABLE bad (ts DateTime) ENGINE = MergeTree ORDER BY (ts, nosuch); -- { serverError UNKNOWN_IDENTIFIER }
CREATE TABLE bad (ts DateTime) ENGINE = MergeTree ORDER BY nosuchfunction(ts); -- { serverError UNKNOWN_FUNCTION }
EXISTS TABLE bad;
-- A column read by a key expression cannot be dropped.
ALTER TABLE m DROP COLUMN s; -- { serverError ALTER_OF_COLUMN_IS_FORBIDDEN } -- { differential skip: 18.16 answers ILLEGAL_COLUMN }
ALTER TABLE e ADD COLUMN ts2 DateTime('UTC') DEFAULT ts;
ALTER TABLE e DROP COLUMN ts2;
SELECT count() FROM e;
