-- DESCRIBE, SHOW CREATE TABLE and USE (current ClickHouse output shapes).
CREATE TABLE t (k UInt32, v String DEFAULT 'x', m UInt64 MATERIALIZED k * 2, a UInt64 ALIAS k + 1, n Nullable(Float64)) ENGINE = MergeTree ORDER BY k;
DESCRIBE TABLE t; -- { differential skip: DESCRIBE has 5 columns in 18.16 and 7 now; 18.16 wraps defaults in CAST }
DESC t; -- { differential skip: DESCRIBE has 5 columns in 18.16 and 7 now; 18.16 wraps defaults in CAST }
DESCRIBE t FORMAT TabSeparatedWithNames; -- { differential skip: DESCRIBE has 5 columns in 18.16 and 7 now; 18.16 wraps defaults in CAST }
SHOW CREATE TABLE t; -- { differential skip: 18.16 prints SHOW CREATE TABLE on one line }
CREATE TABLE p (d Date, k UInt32, s String) ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY (k, d) SETTINGS index_granularity = 1024;
SHOW CREATE TABLE p; -- { differential skip: 18.16 prints SHOW CREATE TABLE on one line }
SHOW CREATE p; -- { differential skip: 18.16 prints SHOW CREATE TABLE on one line }
SELECT name, type, default_kind FROM system.columns WHERE database = currentDatabase() AND table = 't' ORDER BY name;
-- Without a session_id, USE has no session to change: THERE_IS_NO_SESSION (as in ClickHouse).
USE system; -- { serverError THERE_IS_NO_SESSION }
USE test_00034_describe_show_use; -- { serverError THERE_IS_NO_SESSION }
EXISTS TABLE t;
USE nosuch_database_00034; -- { serverError THERE_IS_NO_SESSION }
DESCRIBE TABLE nosuch; -- { serverError UNKNOWN_TABLE }
SHOW CREATE TABLE nosuch; -- { serverError CANNOT_GET_CREATE_TABLE_QUERY }
