-- CREATE TABLE: column defaults, MergeTree engines and clauses, CREATE TABLE AS SELECT.
CREATE TABLE t (k UInt32, v String DEFAULT 'dflt', m UInt64 MATERIALIZED k * 2, a UInt64 ALIAS k + 100, n Nullable(Int8)) ENGINE = MergeTree ORDER BY k;
INSERT INTO t (k, n) VALUES (1, NULL), (2, -2);
INSERT INTO t (k, v) VALUES (3, 'given');
SELECT * FROM t ORDER BY k;
SELECT k, v, m, a, n FROM t ORDER BY k;
SELECT sum(m), sum(a) FROM t;
CREATE TABLE IF NOT EXISTS t (x UInt8) ENGINE = MergeTree ORDER BY x;
SELECT count() FROM t;
CREATE TABLE p (d Date, k UInt32, s String) ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY (k, d);
INSERT INTO p VALUES ('2020-01-05', 1, 'a'), ('2020-02-05', 2, 'b'), ('2020-01-20', 3, 'c');
SELECT d, k, s FROM p ORDER BY k;
CREATE TABLE pk (a UInt32, b UInt32, c String) ENGINE = MergeTree PRIMARY KEY a ORDER BY (a, b) SETTINGS index_granularity = 256;
INSERT INTO pk SELECT number % 10, number, toString(number) FROM numbers(1000);
SELECT count(), sum(b) FROM pk WHERE a = 3;
CREATE TABLE nokey (x String, y Float64) ENGINE = MergeTree ORDER BY tuple();
INSERT INTO nokey VALUES ('b', 2), ('a', 1);
SELECT x, y FROM nokey ORDER BY x;
CREATE TABLE ctas ENGINE = MergeTree ORDER BY n AS SELECT number AS n, toString(number) AS s FROM numbers(5);
SELECT n, s FROM ctas ORDER BY n;
SELECT name, type FROM system.columns WHERE database = currentDatabase() AND table = 'ctas' ORDER BY name;
CREATE TABLE ctas2 ENGINE = MergeTree ORDER BY k AS SELECT k, v FROM t WHERE k < 3;
SELECT k, v FROM ctas2 ORDER BY k;
CREATE TABLE types (i8 Int8, i16 Int16, i32 Int32, i64 Int64, u8 UInt8, u16 UInt16, u32 UInt32, u64 UInt64, f32 Float32, f64 Float64, s String, fs FixedString(3), d Date, dt DateTime, dtz DateTime('Asia/Tokyo'), u UUID, arr Array(UInt32), ns Nullable(String), dec Decimal(10, 2)) ENGINE = MergeTree ORDER BY tuple();
INSERT INTO types VALUES (-1, -2, -3, -4, 1, 2, 3, 4, 1.5, 2.5, 's', 'abc', '2020-01-01', '2020-01-01 00:00:00', '2020-01-01 09:00:00', '00000000-0000-0000-0000-000000000001', [1, 2], NULL, 3.25);
SELECT i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, s, fs, d, u, arr, ns FROM types;
SELECT toUnixTimestamp(dtz), toString(dtz) FROM types;
SELECT dec, toString(dec) FROM types;
SELECT name, type FROM system.columns WHERE database = currentDatabase() AND table = 'types' ORDER BY name;
CREATE TABLE t (x UInt8) ENGINE = MergeTree ORDER BY x; -- { serverError TABLE_ALREADY_EXISTS }
CREATE TABLE bad (x UInt8) ENGINE = NoSuchEngine; -- { serverError UNKNOWN_STORAGE }
CREATE TABLE bad (x NoSuchType) ENGINE = MergeTree ORDER BY tuple(); -- { serverError UNKNOWN_TYPE }
CREATE TABLE bad (x UInt8, x String) ENGINE = MergeTree ORDER BY tuple(); -- { serverError DUPLICATE_COLUMN }
CREATE TABLE bad (x UInt8) ENGINE = MergeTree ORDER BY nosuch; -- { serverError UNKNOWN_IDENTIFIER }
CREATE TABLE bad (x UInt8 ENGINE = MergeTree ORDER BY x; -- { serverError SYNTAX_ERROR }
EXISTS TABLE bad;
