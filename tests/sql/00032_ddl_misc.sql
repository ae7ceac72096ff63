-- CREATE/DROP DATABASE, DROP/TRUNCATE/RENAME/EXISTS TABLE, SHOW DATABASES/TABLES.
CREATE TABLE a (x UInt32) ENGINE = MergeTree ORDER BY x;
CREATE TABLE b (y String) ENGINE = MergeTree ORDER BY y;
INSERT INTO a VALUES (1), (2), (3);
SHOW TABLES;
SHOW TABLES FROM test_00032_ddl_misc;
SHOW TABLES LIKE 'a%';
EXISTS TABLE a;
EXISTS TABLE nosuch;
EXISTS a;
EXISTS TABLE test_00032_ddl_misc.b;
TRUNCATE TABLE a;
SELECT count() FROM a;
INSERT INTO a VALUES (7);
SELECT x FROM a;
TRUNCATE a; -- { differential skip: TRUNCATE without TABLE is newer than 18.16 }
SELECT count() AS after_truncate FROM a; -- { differential skip: follows TRUNCATE without TABLE }
RENAME TABLE b TO b2;
EXISTS TABLE b;
EXISTS TABLE b2;
INSERT INTO b2 VALUES ('kept');
RENAME TABLE b2 TO b3, a TO a2;
SHOW TABLES;
SELECT y FROM b3;
DROP TABLE b3;
EXISTS TABLE b3;
DROP TABLE IF EXISTS b3;
DROP TABLE IF EXISTS nosuch;
CREATE DATABASE test_00032_ddl_misc_other;
CREATE DATABASE IF NOT EXISTS test_00032_ddl_misc_other;
SELECT name FROM system.databases WHERE name LIKE 'test\\_00032\\_ddl\\_misc%' ORDER BY name;
CREATE TABLE test_00032_ddl_misc_other.z (v UInt8) ENGINE = MergeTree ORDER BY v;
INSERT INTO test_00032_ddl_misc_other.z VALUES (42);
SELECT v FROM test_00032_ddl_misc_other.z;
SHOW TABLES FROM test_00032_ddl_misc_other;
RENAME TABLE test_00032_ddl_misc_other.z TO test_00032_ddl_misc.z_moved;
SELECT v FROM z_moved;
SHOW TABLES FROM test_00032_ddl_misc_other;
DROP DATABASE test_00032_ddl_misc_other;
SELECT count() FROM system.databases WHERE name = 'test_00032_ddl_misc_other';
DROP DATABASE IF EXISTS test_00032_ddl_misc_other;
SHOW DATABASES LIKE 'test\\_00032\\_ddl\\_misc'; -- { differential skip: SHOW DATABASES LIKE is newer than 18.16 }
SELECT x FROM nosuch; -- { serverError UNKNOWN_TABLE }
DROP TABLE nosuch; -- { serverError UNKNOWN_TABLE }
TRUNCATE TABLE nosuch; -- { serverError UNKNOWN_TABLE }
RENAME TABLE nosuch TO other; -- { serverError UNKNOWN_TABLE }
RENAME TABLE a2 TO z_moved; -- { serverError TABLE_ALREADY_EXISTS }
CREATE DATABASE test_00032_ddl_misc; -- { serverError DATABASE_ALREADY_EXISTS }
DROP DATABASE nosuch_database_00032; -- { serverError UNKNOWN_DATABASE }
SELECT 1 FROM nosuch_database_00032.t; -- { serverError UNKNOWN_TABLE } -- { differential skip: 18.16 reports UNKNOWN_DATABASE; the analyzer reports an unknown table expression (UNKNOWN_TABLE) }
SHOW TABLES FROM nosuch_database_00032; -- { serverError UNKNOWN_DATABASE }
CREATE TABLE nosuch_database_00032.t (x UInt8) ENGINE = MergeTree ORDER BY x; -- { serverError UNKNOWN_DATABASE }
