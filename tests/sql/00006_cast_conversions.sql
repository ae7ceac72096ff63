-- CAST, the :: operator, to* conversions, *OrZero and *OrNull.
SELECT CAST(1 AS String), CAST('42' AS UInt32), CAST(3.9 AS Int32), CAST(-1 AS UInt8);
SELECT CAST('2020-05-06' AS Date), CAST('2020-05-06 07:08:09' AS DateTime('UTC'));
SELECT toTypeName(CAST(1 AS Nullable(UInt8))), CAST(NULL AS Nullable(String));
SELECT CAST(1.5, 'Float32'), toTypeName(CAST(1, 'Int64'));
SELECT CAST([1, 2] AS Array(String)), CAST('[1,2,3]' AS Array(UInt8));
SELECT 42::String, '7'::UInt8 + 1, toTypeName(1::Int16); -- { differential skip: the :: operator is newer than 18.16 }
SELECT toUInt8(300), toUInt16(70000), toUInt32(-1), toUInt64(-1);
SELECT toInt8(200), toInt16(40000), toInt32(3000000000), toInt64(18446744073709551615);
SELECT toUInt8('255'), toInt8('-128'), toInt32('-2147483648'), toUInt64('18446744073709551615'), toInt64('-9223372036854775808');
SELECT toInt32(3.99), toInt32(-3.99), toUInt8(1.5), toInt64(1e18);
SELECT toFloat32(1.1), toFloat64('1.25'), toFloat32('inf'), toFloat64('-inf'), toFloat64('nan'), toFloat32(16777217);
SELECT toString(123), toString(-1.5), toString(toDate('2020-01-02')), toString([1, 2]), toString(NULL);
SELECT toString(toDateTime('2020-01-02 03:04:05', 'UTC')), toString(1e20), toString(0.1), toString(1 / 3);
SELECT toUInt32OrZero('123'), toUInt32OrZero('abc'), toUInt32OrZero(''), toInt8OrZero('-5'), toFloat64OrZero('1.5x');
SELECT toUInt32OrNull('123'), toUInt32OrNull('abc'), toInt64OrNull('-7'), toFloat32OrNull('x'), toTypeName(toUInt8OrNull('1'));
SELECT toDateOrZero('2020-01-01'), toDateTimeOrNull('nope');
SELECT toDecimal32('1.5', 2), toDecimal64('-3.1415', 4), toDecimal128('1', 10); -- { differential skip: 18.16 prints trailing zeros of Decimal }
SELECT toTypeName(toDecimal32('1', 2)), toTypeName(toDecimal64('1', 4)), toTypeName(toDecimal128('1', 10));
SELECT toDecimal32(2, 4) + toDecimal32(1, 2), toDecimal64(10, 2) / 4; -- { differential skip: 18.16 prints trailing zeros of Decimal }
SELECT toDecimal32OrNull('abc', 2), toDecimal32OrZero('abc', 2); -- { differential skip: toDecimal*OrNull/OrZero are newer than 18.16 }
SELECT toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0'), toUUID('00000000-0000-0000-0000-000000000000');
SELECT toUUIDOrNull('not-a-uuid'), toUUIDOrZero('x'); -- { differential skip: toUUIDOrNull/OrZero are newer than 18.16 }
SELECT toUInt32('abc'); -- { serverError CANNOT_PARSE_TEXT }
SELECT toDate('not a date'); -- { serverError CANNOT_PARSE_DATE } -- { differential skip: 18.16 reports CANNOT_PARSE_TEXT }
SELECT toUUID('zzz'); -- { serverError CANNOT_PARSE_UUID }
SELECT CAST(1 AS NoSuchType); -- { serverError UNKNOWN_TYPE }
SELECT toUInt8(); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
