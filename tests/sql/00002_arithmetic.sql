-- Arithmetic operators and their result types, division, modulo, overflow.
SELECT 1 + 2, 10 - 3, 4 * 5, 7 / 2, 7 % 3;
SELECT toTypeName(1 + 2), toTypeName(1 - 2), toTypeName(200 * 200), toTypeName(7 / 2);
SELECT toTypeName(toUInt8(1) + toUInt8(1)), toTypeName(toInt32(1) * toUInt32(1)), toTypeName(toUInt64(1) + toInt64(1));
SELECT toTypeName(1 + 1.5), toTypeName(toFloat32(1) + toFloat32(1)), toTypeName(toFloat32(1) + 1);
SELECT 1 / 0, -1 / 0, 0 / 0;
SELECT intDiv(7, 2), intDiv(-7, 2), intDiv(7, -2), toTypeName(intDiv(7, 2));
SELECT 7 % 3, -7 % 3, 7 % -3, -7 % -3;
SELECT 7.5 % 2, -7.5 % 2, toTypeName(7.5 % 2); -- { differential skip: 18.16 truncates floats in modulo }
SELECT modulo(10, 4), plus(1, 2), minus(5, 7), multiply(3, 4), divide(1, 4);
SELECT intDiv(1, 0); -- { serverError ILLEGAL_DIVISION }
SELECT 1 % 0; -- { serverError ILLEGAL_DIVISION }
SELECT intDivOrZero(1, 0), intDivOrZero(9, 2);
SELECT toUInt8(255) + toUInt8(1), toTypeName(toUInt8(255) + toUInt8(1));
SELECT 18446744073709551615 + 1;
SELECT toInt64(-9223372036854775808) - 1;
SELECT toUInt32(4294967295) * toUInt32(2);
SELECT abs(-5), abs(5), abs(-2.5), toTypeName(abs(toInt8(-5)));
SELECT negate(3), -toUInt8(3), toTypeName(-toUInt8(3));
SELECT 2 + 3 * 4, (2 + 3) * 4, 10 - 2 - 3, 100 / 10 / 5;
SELECT number, number * number, number / 4, intDiv(number, 3), number % 3 FROM numbers(6) ORDER BY number;
SELECT sum(number * 2), sum(number) / count() FROM numbers(100);
SELECT gcd(12, 18), lcm(4, 6);
SELECT 1 + NULL, NULL * 2, toTypeName(1 + NULL);
SELECT 'a' + 1; -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
