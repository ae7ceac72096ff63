-- Comparison and logical operators, BETWEEN, IN lists, NULL semantics.
SELECT 1 = 1, 1 == 2, 1 != 2, 1 <> 1, 1 < 2, 2 <= 2, 3 > 2, 2 >= 3;
SELECT toTypeName(1 = 1), equals(1, 1), notEquals(1, 2), less(1, 2), greater(1, 2), lessOrEquals(2, 2), greaterOrEquals(1, 2);
SELECT 'a' < 'b', 'abc' = 'abc', 'B' < 'a', '' < 'a';
SELECT toUInt64(18446744073709551615) > toInt64(-1), toInt8(-1) < toUInt8(1), -1 < 18446744073709551615;
SELECT 1.0 = 1, 0.1 + 0.2 = 0.3, nan = nan, nan != nan, inf > 1e308;
SELECT toDate('2020-01-02') > toDate('2020-01-01'), toDateTime('2020-01-01 00:00:00', 'UTC') = toDateTime('2020-01-01 00:00:00', 'UTC');
SELECT 1 AND 1, 1 AND 0, 0 OR 1, 0 OR 0, NOT 1, NOT 0;
SELECT and(1, 1, 0), or(0, 0, 1), not(5), xor(1, 0), xor(1, 1);
SELECT 5 AND 7, 0 OR 3, NOT -1;
SELECT NULL AND 1, NULL AND 0, NULL OR 1, NULL OR 0, NOT NULL; -- { differential skip: 18.16 has no three-valued AND/OR with NULL }
SELECT NULL = NULL, 1 = NULL, NULL != 1, NULL < 1;
SELECT 5 BETWEEN 1 AND 10, 0 BETWEEN 1 AND 10, 10 BETWEEN 1 AND 10, 11 BETWEEN 1 AND 10;
SELECT 5 NOT BETWEEN 1 AND 10, 0 NOT BETWEEN 1 AND 10; -- { differential skip: NOT BETWEEN is newer than 18.16 }
SELECT 2 IN (1, 2, 3), 4 IN (1, 2, 3), 4 NOT IN (1, 2, 3), 'b' IN ('a', 'b');
SELECT number FROM numbers(10) WHERE number IN (2, 4, 8) ORDER BY number;
SELECT number FROM numbers(10) WHERE number NOT IN (2, 4, 8) AND number % 2 = 0 ORDER BY number;
SELECT number FROM numbers(20) WHERE (number > 3 AND number < 7) OR number = 15 ORDER BY number;
SELECT number FROM numbers(10) WHERE NOT (number % 3 = 0) ORDER BY number;
SELECT number FROM numbers(10) WHERE number BETWEEN 3 AND 5 ORDER BY number;
SELECT 1 < 2 AND 2 < 3, 1 = 1 OR 1 / 0 > 0;
SELECT number, number > 2 AS gt, number = 2 OR number = 4 AS two_or_four FROM numbers(5) ORDER BY number;
SELECT 1 = 'a'; -- { serverError TYPE_MISMATCH } -- { differential skip: 18.16 reports ILLEGAL_TYPE_OF_ARGUMENT; now the string is converted and fails }
