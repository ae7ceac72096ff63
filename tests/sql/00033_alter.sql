-- ALTER TABLE ADD/DROP/MODIFY COLUMN, MODIFY SETTING, MODIFY TTL.
CREATE TABLE t (k UInt32, v String) ENGINE = MergeTree ORDER BY k;
INSERT INTO t VALUES (1, 'a'), (2, 'b');
ALTER TABLE t ADD COLUMN n UInt16 DEFAULT 7;
SELECT k, v, n FROM t ORDER BY k;
INSERT INTO t VALUES (3, 'c', 30);
SELECT k, v, n FROM t ORDER BY k;
ALTER TABLE t ADD COLUMN IF NOT EXISTS n UInt8; -- { differential skip: ADD COLUMN IF NOT EXISTS is newer than 18.16 }
ALTER TABLE t ADD COLUMN e String AFTER k;
SELECT * FROM t ORDER BY k;
SELECT name, type FROM system.columns WHERE database = currentDatabase() AND table = 't' ORDER BY name;
ALTER TABLE t ADD COLUMN z Nullable(Float64);
SELECT k, z FROM t ORDER BY k;
ALTER TABLE t MODIFY COLUMN v String DEFAULT 'dv';
INSERT INTO t (k) VALUES (4);
SELECT k, v, n FROM t ORDER BY k;
ALTER TABLE t DROP COLUMN e;
ALTER TABLE t DROP COLUMN IF EXISTS e; -- { differential skip: DROP COLUMN IF EXISTS is newer than 18.16 }
SELECT * FROM t ORDER BY k;
ALTER TABLE t DROP COLUMN z, ADD COLUMN w UInt8 DEFAULT 1;
SELECT * FROM t ORDER BY k;
ALTER TABLE t ADD COLUMN c UInt32 MATERIALIZED k * 10;
INSERT INTO t (k, v) VALUES (5, 'e');
SELECT k, c FROM t WHERE k = 5;
SELECT name, type FROM system.columns WHERE database = currentDatabase() AND table = 't' ORDER BY name;
CREATE TABLE m (k UInt32, n UInt16, s String) ENGINE = MergeTree ORDER BY k;
INSERT INTO m VALUES (1, 7, '10'), (2, 300, '-3');
ALTER TABLE m MODIFY COLUMN n UInt64;
SELECT k, n, toTypeName(n) FROM m ORDER BY k;
ALTER TABLE m MODIFY COLUMN n String;
SELECT k, n, toTypeName(n) FROM m ORDER BY k;
ALTER TABLE m MODIFY COLUMN s Int32;
SELECT k, s, s * 2 FROM m ORDER BY k;
INSERT INTO m VALUES (3, 'x', 5);
SELECT k, n, s FROM m ORDER BY k;
ALTER TABLE t MODIFY SETTING index_granularity_bytes = 1048576; -- { differential skip: ALTER ... MODIFY SETTING is newer than 18.16 }
CREATE TABLE d (dt Date, k UInt32) ENGINE = MergeTree ORDER BY k;
INSERT INTO d VALUES ('2020-01-01', 1);
ALTER TABLE d MODIFY TTL dt + INTERVAL 50 YEAR; -- { differential skip: ALTER ... MODIFY TTL is newer than 18.16 }
SELECT dt, k FROM d;
ALTER TABLE t ADD COLUMN k UInt8; -- { serverError DUPLICATE_COLUMN } -- { differential skip: 18.16 reports ILLEGAL_COLUMN }
ALTER TABLE t DROP COLUMN nosuch; -- { serverError NOT_FOUND_COLUMN_IN_BLOCK } -- { differential skip: 18.16 reports ILLEGAL_COLUMN }
ALTER TABLE t MODIFY COLUMN nosuch UInt8; -- { serverError NOT_FOUND_COLUMN_IN_BLOCK } -- { differential skip: 18.16 reports ILLEGAL_COLUMN }
ALTER TABLE t DROP COLUMN k; -- { serverError ALTER_OF_COLUMN_IS_FORBIDDEN } -- { differential skip: 18.16 reports ILLEGAL_COLUMN }
CREATE TABLE kk (k UInt32, v UInt8) ENGINE = MergeTree ORDER BY k;
ALTER TABLE kk DROP COLUMN k; -- { serverError ALTER_OF_COLUMN_IS_FORBIDDEN } -- { differential skip: 18.16 reports ILLEGAL_COLUMN }
ALTER TABLE nosuch ADD COLUMN x UInt8; -- { serverError UNKNOWN_TABLE }
ALTER TABLE t MODIFY COLUMN n NoSuchType; -- { serverError UNKNOWN_TYPE }
