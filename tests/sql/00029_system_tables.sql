-- system.one, system.numbers, numbers(N), system.databases/tables/columns/functions.
SELECT * FROM system.one;
SELECT dummy, toTypeName(dummy) FROM system.one;
SELECT number FROM system.numbers LIMIT 3;
SELECT number FROM system.numbers WHERE number > 10 LIMIT 2;
SELECT sum(number) FROM (SELECT number FROM system.numbers LIMIT 100);
SELECT number FROM numbers(3);
SELECT * FROM numbers(2);
SELECT number, toTypeName(number) FROM numbers(1);
SELECT count(), min(number), max(number), sum(number) FROM numbers(1000);
SELECT number FROM numbers(5, 3) ORDER BY number;
SELECT count() FROM numbers(1);
SELECT number FROM numbers(10) WHERE number % 4 = 1 ORDER BY number;
CREATE TABLE tbl (id UInt64, name String DEFAULT 'n', score Float32, created Date) ENGINE = MergeTree ORDER BY id;
CREATE TABLE other (x UInt8) ENGINE = MergeTree ORDER BY tuple();
SELECT name FROM system.databases WHERE name = currentDatabase();
SELECT name FROM system.databases WHERE name IN ('system', 'default', currentDatabase()) ORDER BY name;
SELECT name, engine FROM system.tables WHERE database = currentDatabase() ORDER BY name;
SELECT database, name, is_temporary FROM system.tables WHERE database = currentDatabase() AND name = 'tbl';
SELECT count() > 0 FROM system.tables WHERE database = 'system' AND name IN ('one', 'numbers', 'tables', 'columns');
SELECT name, type FROM system.columns WHERE database = currentDatabase() AND table = 'tbl' ORDER BY name;
SELECT table, name, type, default_kind FROM system.columns WHERE database = currentDatabase() ORDER BY table, name;
SELECT name, default_kind, default_expression FROM system.columns WHERE database = currentDatabase() AND table = 'tbl' AND name = 'name';
SELECT name, position FROM system.columns WHERE database = currentDatabase() AND table = 'tbl' ORDER BY position; -- { differential skip: system.columns.position is newer than 18.16 }
SELECT name, is_aggregate FROM system.functions WHERE name IN ('sum', 'length', 'count', 'toDate', 'uniq') ORDER BY name;
SELECT count() > 100 FROM system.functions;
SELECT name, case_insensitive FROM system.functions WHERE name IN ('length', 'lower') ORDER BY name;
SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE 'tb%';
DROP TABLE other;
SELECT name FROM system.tables WHERE database = currentDatabase() ORDER BY name;
SELECT * FROM system.nosuch; -- { serverError UNKNOWN_TABLE }
SELECT nosuch FROM system.one; -- { serverError UNKNOWN_IDENTIFIER }
