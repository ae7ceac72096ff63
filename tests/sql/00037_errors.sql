-- Error codes (the name is part of the reference; the message is not).
CREATE TABLE t (k UInt32, s String) ENGINE = MergeTree ORDER BY k;
INSERT INTO t VALUES (1, 'a');
SELECT * FROM nosuch_table; -- { serverError UNKNOWN_TABLE }
SELECT * FROM nosuch_db_00037.t; -- { serverError UNKNOWN_TABLE } -- { differential skip: 18.16 reports UNKNOWN_DATABASE; the analyzer reports an unknown table expression (UNKNOWN_TABLE) }
SELECT nosuch_column FROM t; -- { serverError UNKNOWN_IDENTIFIER }
SELECT k, nosuch_column + 1 FROM t; -- { serverError UNKNOWN_IDENTIFIER }
SELECT nosuch_column; -- { serverError UNKNOWN_IDENTIFIER }
SELECT t.nosuch FROM t; -- { serverError UNKNOWN_IDENTIFIER }
SELEC 1; -- { serverError SYNTAX_ERROR }
SELECT 1 +; -- { serverError SYNTAX_ERROR }
SELECT (1; -- { serverError SYNTAX_ERROR }
SELECT 'unclosed; -- { serverError SYNTAX_ERROR }
SELECT * FROM t WHERE; -- { serverError SYNTAX_ERROR }
SELECT 1 FROM; -- { serverError SYNTAX_ERROR }
CREATE TABLE; -- { serverError SYNTAX_ERROR }
SELECT 1 2; -- { serverError SYNTAX_ERROR }
SELECT nosuch_function(1); -- { serverError UNKNOWN_FUNCTION }
SELECT lenght('typo'); -- { serverError UNKNOWN_FUNCTION }
SELECT length(123); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT upper(1); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT sum('a'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT lower(); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT length(); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT length('a', 'b'); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
SELECT intDiv(10, 0); -- { serverError ILLEGAL_DIVISION }
SELECT k % 0 FROM t; -- { serverError ILLEGAL_DIVISION }
SELECT intDiv(k, k - 1) FROM t; -- { serverError ILLEGAL_DIVISION }
CREATE TABLE t (x UInt8) ENGINE = MergeTree ORDER BY x; -- { serverError TABLE_ALREADY_EXISTS }
SELECT toUInt32('12x'); -- { serverError CANNOT_PARSE_TEXT }
SELECT toInt64('abc'); -- { serverError CANNOT_PARSE_TEXT }
SELECT toFloat64('1.5.5'); -- { serverError CANNOT_PARSE_TEXT }
SELECT toDateTime('garbage', 'UTC'); -- { serverError CANNOT_PARSE_DATETIME }
SELECT k, count() FROM t; -- { serverError NOT_AN_AGGREGATE }
SELECT sum(sum(k)) FROM t; -- { serverError ILLEGAL_AGGREGATION }
SELECT k FROM t WHERE sum(k) > 0; -- { serverError ILLEGAL_AGGREGATION }
SELECT 1 FORMAT NoSuchFormat; -- { serverError UNKNOWN_FORMAT }
SELECT 1 SETTINGS no_such_setting = 1; -- { serverError UNKNOWN_SETTING }
SELECT CAST(1 AS NoSuchType); -- { serverError UNKNOWN_TYPE }
SELECT (SELECT number FROM numbers(2)); -- { serverError INCORRECT_RESULT_OF_SCALAR_SUBQUERY }
SELECT 'a' = 1; -- { serverError TYPE_MISMATCH } -- { differential skip: 18.16 reports ILLEGAL_TYPE_OF_ARGUMENT; now the string is converted and fails }
SELECT if('a', 1, 2); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT k FROM t;
