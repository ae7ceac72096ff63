-- Edge values: integer bounds, NaN/inf, Date/DateTime bounds, empty strings, UTF-8, escapes.
CREATE TABLE ints (k UInt8, u8 UInt8, i8 Int8, u16 UInt16, i16 Int16, u32 UInt32, i32 Int32, u64 UInt64, i64 Int64) ENGINE = MergeTree ORDER BY k;
INSERT INTO ints VALUES (1, 0, -128, 0, -32768, 0, -2147483648, 0, -9223372036854775808), (2, 255, 127, 65535, 32767, 4294967295, 2147483647, 18446744073709551615, 9223372036854775807);
SELECT * FROM ints ORDER BY k;
SELECT max(u64), min(i64), max(i64), sum(u8), sum(i8) FROM ints;
SELECT u64 + 1, i64 - 1, u8 + 1, i8 - 1 FROM ints ORDER BY k;
SELECT toTypeName(u64 + i64), u64 = 18446744073709551615, i64 < 0 FROM ints ORDER BY k;
SELECT toString(u64), toString(i64), length(toString(i64)) FROM ints ORDER BY k;
SELECT -9223372036854775808, toTypeName(-9223372036854775808), 18446744073709551615 - 1;
SELECT toInt64(-9223372036854775808) / -1, intDiv(toInt64(-9223372036854775807), -1);
CREATE TABLE floats (k UInt8, f32 Float32, f64 Float64) ENGINE = MergeTree ORDER BY k;
INSERT INTO floats VALUES (1, nan, nan), (2, inf, inf), (3, -inf, -inf), (4, 0, -0), (5, 1.17549435e-38, 2.2250738585072014e-308), (6, 3.4028235e38, 1.7976931348623157e308), (7, 0.1, 0.1);
SELECT * FROM floats ORDER BY k;
SELECT k, isNaN(f64), isInfinite(f64), f64 > 0, f64 = f64 FROM floats ORDER BY k;
SELECT count(), countIf(isNaN(f64)), countIf(isInfinite(f64)) FROM floats;
SELECT min(f64), max(f64) FROM floats WHERE NOT isNaN(f64);
SELECT f64 * 2, f64 / 0, -f64 FROM floats WHERE k IN (2, 6, 7) ORDER BY k;
SELECT toFloat32(0.1), toFloat64(toFloat32(0.1)), 1e-7, 1e21, 123456789012345680000, 0.000001;
SELECT 1 / 3, 2 / 3, 10 / 3, 1e15 + 0.3, 1e-300 * 1e-300;
SELECT 5e-324, 4.9406564584124654e-324; -- { differential skip: 18.16 cannot parse a denormal literal }
CREATE TABLE dates (k UInt8, d Date, dt DateTime('UTC')) ENGINE = MergeTree ORDER BY k;
INSERT INTO dates VALUES (1, '1970-01-02', '1970-01-01 00:00:01'), (2, '2000-02-29', '2000-02-29 23:59:59'), (3, '2105-12-31', '2105-12-31 23:59:59'), (4, '2038-01-19', '2038-01-19 03:14:08');
SELECT * FROM dates ORDER BY k;
SELECT k, toUInt16(d), toUInt32(dt), toYear(d), toDayOfWeek(d) FROM dates ORDER BY k;
SELECT toDate('1970-01-01'), toDateTime(0, 'UTC'); -- { differential skip: 18.16 prints the zero date as 0000-00-00 }
SELECT toDate('2149-06-06'), toDateTime(4294967295, 'UTC'); -- { differential skip: 18.16 dates end in 2105 and its zero date prints as 0000-00-00 }
SELECT toDate(65535); -- { differential skip: 18.16 dates end in 2105 }
CREATE TABLE strs (k UInt8, s String) ENGINE = MergeTree ORDER BY k;
INSERT INTO strs VALUES (1, ''), (2, ' '), (3, 'ascii'), (4, 'ünïcödé'), (5, '日本語テキスト'), (6, '😀 emoji'), (7, 'tab\tnl\nbs\\q\'dq"'), (8, 'nul\0byte');
SELECT k, s, length(s), lengthUTF8(s), empty(s) FROM strs ORDER BY k;
SELECT k, upper(s), lowerUTF8(s), reverseUTF8(s) FROM strs WHERE k IN (3, 4) ORDER BY k;
SELECT k, substringUTF8(s, 1, 2), positionUTF8(s, 'テ') FROM strs WHERE k = 5;
SELECT s FROM strs ORDER BY s;
SELECT min(s), max(s), count(DISTINCT s) FROM strs;
SELECT k FROM strs WHERE s = '' OR s = ' ' ORDER BY k;
SELECT '\x41\x42', '\\N', 'a\\tb', length('\\'), '\'' AS q;
SELECT toFixedString('', 2), toFixedString('é', 2), length(toFixedString('a', 5));
SELECT [], [[]], [''], [NULL], ([], ''); -- { muscles todo: tuples (the Tuple type) are not supported yet }
