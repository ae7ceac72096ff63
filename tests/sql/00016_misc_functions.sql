-- Server and miscellaneous functions: version(), currentDatabase(), timezone(), toTypeName.
SELECT length(version()) > 0, toTypeName(version());
SELECT match(version(), '^[0-9]+\\.[0-9]+');
SELECT currentDatabase();
SELECT currentDatabase() = 'test_00016_misc_functions';
SELECT timezone(); -- { differential skip: 18.16 reports Etc/UTC for the UTC server time zone }
SELECT toTypeName(timezone());
SELECT toTypeName(1), toTypeName(toInt16(1)), toTypeName(toFloat32(1)), toTypeName(toDate('2020-01-01')), toTypeName(toDateTime(0, 'Asia/Tokyo'));
SELECT toTypeName(toNullable('a')), toTypeName(toFixedString('ab', 2)), toTypeName(toUUID('00000000-0000-0000-0000-000000000000'));
SELECT toFixedString('ab', 4), length(toFixedString('ab', 4)), toFixedString('ab', 2) = 'ab';
SELECT identity(5), ignore(1, 'a'), materialize(3), toTypeName(materialize('x'));
SELECT isConstant(1), isConstant(materialize(1)); -- { differential skip: isConstant is newer than 18.16 }
SELECT bin(5), bin(toUInt8(255)); -- { differential skip: bin is newer than 18.16 }
SELECT hex(255), hex('abc'), unhex('616263'), hex(toUInt64(0));
SELECT bitAnd(12, 10), bitOr(12, 10), bitXor(12, 10), bitNot(toUInt8(0)), bitShiftLeft(1, 4), bitShiftRight(256, 4);
SELECT tuple(1, 'a'), tupleElement((1, 'a'), 2), (1, 'a').1; -- { muscles todo: tuples (the Tuple type) are not supported yet }
SELECT toTypeName(tuple(1, 'a', NULL)); -- { muscles todo: tuples (the Tuple type) are not supported yet }
SELECT nosuchfunction(1); -- { serverError UNKNOWN_FUNCTION }
SELECT currentDatabase(1); -- { serverError NUMBER_OF_ARGUMENTS_DOESNT_MATCH }
