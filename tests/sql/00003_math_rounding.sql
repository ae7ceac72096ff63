-- Rounding and math functions.
SELECT round(2.5), round(3.5), round(-2.5), round(0.5), round(-0.5); -- { differential skip: 18.16 rounds half away from zero; now Float rounding is banker's }
SELECT round(2.7), round(-2.2), round(1.2345, 2), round(1234.5, -2), round(1.5e10 + 0.4);
SELECT floor(1.7), floor(-1.2), ceil(1.2), ceil(-1.7), trunc(1.9), trunc(-1.9);
SELECT floor(123.456, 1), ceil(123.456, 1), floor(1234, -2), ceil(1234, -2);
SELECT round(toUInt8(17), -1), toTypeName(round(toUInt8(17), -1)), toTypeName(floor(1.5));
SELECT roundToExp2(5), roundToExp2(16), roundToExp2(0.3);
SELECT roundDown(7, [1, 5, 10]), roundDown(0, [1, 5, 10]); -- { differential skip: roundDown is newer than 18.16 }
SELECT sqrt(16), sqrt(2), round(cbrt(27), 6), pow(2, 10), power(2, 0.5);
SELECT exp(0), exp(1), log(1), log(exp(2)), ln(1);
SELECT log2(8), log10(1000), exp2(3), exp10(2);
SELECT sqrt(-1), log(0), log(-1);
SELECT sin(0), cos(0), tan(0), atan(1) * 4, asin(1), acos(1);
SELECT pi(), e();
SELECT greatest(1, 5), least(1, 5), greatest(1.5, 2), least(-1, toUInt8(1)), toTypeName(greatest(1.5, 2));
SELECT greatest(1, 5, 3), least(1, 5, 3), greatest('a', 'b'); -- { differential skip: 18.16 greatest/least take exactly two numbers }
SELECT sign(-5), sign(0), sign(3.2); -- { differential skip: sign is newer than 18.16 }
SELECT number, round(number / 3, 2), floor(number / 3), ceil(number / 3) FROM numbers(5) ORDER BY number;
SELECT isNaN(0 / 0), isNaN(1), isInfinite(1 / 0), isInfinite(1), isFinite(1), isFinite(1 / 0);
SELECT round(NULL), floor(toNullable(1.5));
SELECT sqrt('a'); -- { serverError ILLEGAL_TYPE_OF_ARGUMENT }
SELECT round(1, 2, 3); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
