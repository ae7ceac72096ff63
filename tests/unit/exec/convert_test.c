/* convert_test.c: goal: CAST, _CAST and the to<Type> family of
 * fn_convert.c convert like ClickHouse: integers wrap, floats truncate
 * (NaN/inf into an integer is CANNOT_CONVERT_TYPE), Decimals check their
 * storage (DECIMAL_OVERFLOW), Strings parse strictly (CANNOT_PARSE_TEXT
 * naming the value, CANNOT_PARSE_DATE/DATETIME/UUID where ClickHouse's
 * reader of that type fails; dates read as ClickHouse reads them;
 * OrZero/OrNull give 0/NULL), numbers become dates by
 * days or seconds with ClickHouse's saturation, zones apply where
 * ClickHouse applies them, Arrays/Maps convert element-wise, NULL into a
 * non-Nullable type is an error. Over constants and columns, NULL rows,
 * edge values, and bind errors with ClickHouse's wording. Expected values
 * come from ClickHouse's source and documentation and from running the
 * queries on clickhouse-server where its (old) behaviour is still current.
 */
#define ET_STYLE_EXPRESSIONS
#include "exec_test_util.h"

/* ---- numbers ------------------------------------------------------- */

static void test_numbers_wrap_and_truncate(void **state) {
    (void)state;
    EXPECT("toInt8(300)", "Int8", "44");
    EXPECT("toUInt8(-1)", "UInt8", "255");
    EXPECT("toUInt64(-1)", "UInt64", "18446744073709551615");
    EXPECT("toInt32(4294967295)", "Int32", "-1");
    EXPECT("toInt64(-2.9)", "Int64", "-2");
    EXPECT("toInt8(300.7)", "Int8", "44");
    EXPECT("toUInt8(-1.5)", "UInt8", "255");
    EXPECT("toInt32(3e9)", "Int32", "-2147483648");
    EXPECT("toUInt32(-1.0)", "UInt32", "4294967295");
    EXPECT("toInt16(-40000.5)", "Int16", "25536");
    EXPECT("toUInt64(1e19)", "UInt64", "10000000000000000000");
    EXPECT("toInt64(1e19)", "Int64", "-9223372036854775808");
    EXPECT("toFloat32(1e300)", "Float32", "inf");
    EXPECT("toFloat32(toUInt64(18446744073709551615))", "Float32", "18446744000000000000");
    EXPECT("toFloat64(-7)", "Float64", "-7");
    EXPECT("toFloat32(0.1)", "Float32", "0.1");
    EXPECT("toBool(2)", "Bool", "true");
    EXPECT("toBool(0.0)", "Bool", "false");
    EXPECT("toBool({Float64:nan})", "Bool", "true");
    EXPECT("toUInt8(toBool(5))", "UInt8", "1");
    EXPECT("toInt32(toInt32(-5))", "Int32", "-5");
}

static void test_numbers_nan_inf(void **state) {
    (void)state;
    EXPECT_ERR("toUInt32({Float64:inf})", "CANNOT_CONVERT_TYPE",
               "Unexpected inf or nan to integer conversion");
    EXPECT_ERR("toInt8({Float32:nan})", "CANNOT_CONVERT_TYPE",
               "Unexpected inf or nan to integer conversion");
    EXPECT_ERR("CAST({Float64:-inf}, 'Int64')", "CANNOT_CONVERT_TYPE", "inf or nan");
    EXPECT("toFloat32({Float64:-inf})", "Float32", "-inf");
    EXPECT("toFloat64({Float32:nan})", "Float64", "nan");
}

static void test_numbers_columns(void **state) {
    (void)state;
    in_col("Nullable(Float64)", "1.5|-1.5|300.7|\\N|1e19|-0");
    EXPECT("toInt8($0)", "Nullable(Int8)", "1|-1|44|\\N|0|0");
    EXPECT("toUInt64($0)", "Nullable(UInt64)",
           "1|18446744073709551615|300|\\N|10000000000000000000|0");
    EXPECT("toFloat32($0)", "Nullable(Float32)", "1.5|-1.5|300.7|\\N|10000000000000000000|-0");
    EXPECT("CAST($0, 'Nullable(Int16)')", "Nullable(Int16)", "1|-1|300|\\N|0|0");
    EXPECT_ERR("CAST($0, 'Int16')", "CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN",
               "Cannot convert NULL value to non-Nullable type");
}

static void test_numbers_column_errors(void **state) {
    (void)state;
    in_col("Float64", "1|nan|2");
    EXPECT_ERR("toInt32($0)", "CANNOT_CONVERT_TYPE", "Unexpected inf or nan");
    EXPECT("toBool($0)", "Bool", "true|true|true");
    EXPECT("toString($0)", "String", "1|nan|2");
}

static void test_numbers_wide_columns(void **state) {
    (void)state;
    in_col("UInt64", "0|18446744073709551615|9223372036854775808");
    in_col("Int64", "-9223372036854775808|-1|9223372036854775807");
    EXPECT("toInt64($0)", "Int64", "0|-1|-9223372036854775808");
    EXPECT("toFloat64($0)", "Float64", "0|18446744073709552000|9223372036854776000");
    EXPECT("toUInt8($1)", "UInt8", "0|255|255");
    EXPECT("toUInt64($1)", "UInt64",
           "9223372036854775808|18446744073709551615|9223372036854775807");
    EXPECT("toFloat32($1)", "Float32", "-9223372000000000000|-1|9223372000000000000");
}

/* ---- decimals ------------------------------------------------------ */

static void test_decimals(void **state) {
    (void)state;
    EXPECT("toDecimal32(1.25, 2)", "Decimal(9, 2)", "1.25");
    EXPECT("toDecimal32(-1.255, 2)", "Decimal(9, 2)", "-1.25");
    EXPECT("toDecimal64(123, 4)", "Decimal(18, 4)", "123");
    EXPECT("toDecimal128(-1, 38)", "Decimal(38, 38)", "-1");
    EXPECT("toDecimal32('1.239', 2)", "Decimal(9, 2)", "1.23");
    EXPECT("toDecimal32('-0.5', 1)", "Decimal(9, 1)", "-0.5");
    EXPECT("CAST(toDecimal32(1.25, 2), 'Decimal(18, 4)')", "Decimal(18, 4)", "1.25");
    EXPECT("CAST(toDecimal64(1.2599, 4), 'Decimal(9, 2)')", "Decimal(9, 2)", "1.25");
    EXPECT("CAST(toDecimal64(-1.2599, 4), 'Decimal(9, 2)')", "Decimal(9, 2)", "-1.25");
    EXPECT("toInt32(toDecimal32(-1.99, 2))", "Int32", "-1");
    EXPECT("toFloat64(toDecimal64(-0.5, 3))", "Float64", "-0.5");
    EXPECT("toFloat32(toDecimal32(1.5, 1))", "Float32", "1.5");
    EXPECT("toBool(toDecimal32(0.01, 2))", "Bool", "true");
    EXPECT("toString(toDecimal32(1.50, 2))", "String", "1.5");
    EXPECT("toDecimal32(toBool(1), 1)", "Decimal(9, 1)", "1");
    EXPECT("toDecimal64(toDecimal128(12.345, 3), 1)", "Decimal(18, 1)", "12.3");
    EXPECT("toDecimal32OrZero('x', 2)", "Decimal(9, 2)", "0");
    EXPECT("toDecimal32OrNull('x', 2)", "Nullable(Decimal(9, 2))", "\\N");
    EXPECT("toDecimal64OrNull('2.5', 1)", "Nullable(Decimal(18, 1))", "2.5");
    EXPECT("toDecimal128OrZero('1e3', 0)", "Decimal(38, 0)", "1000");
}

static void test_decimal_errors(void **state) {
    (void)state;
    EXPECT_ERR("toDecimal32(3000000000, 0)", "DECIMAL_OVERFLOW", "Decimal convert overflow");
    EXPECT_ERR("toDecimal32(1e10, 2)", "DECIMAL_OVERFLOW",
               "Decimal convert overflow. Float is out of Decimal range");
    EXPECT_ERR("toDecimal64({Float64:inf}, 2)", "DECIMAL_OVERFLOW",
               "Cannot convert infinity or NaN to decimal");
    EXPECT_ERR("toDecimal32(toDecimal64(100000000, 0), 2)", "DECIMAL_OVERFLOW",
               "Decimal convert overflow");
    EXPECT_ERR("toUInt8(toDecimal32(-1, 0))", "DECIMAL_OVERFLOW", "Convert overflow");
    EXPECT_ERR("toInt8(toDecimal32(300, 0))", "DECIMAL_OVERFLOW", "Convert overflow");
    EXPECT_ERR("toDecimal32(1, 10)", "ARGUMENT_OUT_OF_BOUND",
               "Scale 10 is out of bounds (max scale: 9)");
    EXPECT_ERR("toDecimal32(1, -1)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type of toDecimal() scale Int8");
    EXPECT_ERR("toDecimal32(1)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 1, should be 2");
    EXPECT_ERR("toDecimal32('1.5.', 2)", "CANNOT_PARSE_TEXT", "1.5.");
    in_col("UInt8", "2|3");
    EXPECT_ERR("toDecimal32(1, $0)", "ILLEGAL_COLUMN",
               "Second argument for function toDecimal32 must be constant");
}

static void test_decimal_columns(void **state) {
    (void)state;
    in_col("Nullable(Float64)", "1.005|\\N|-2.5|1e100");
    EXPECT_ERR("toDecimal32($0, 2)", "DECIMAL_OVERFLOW", "Float is out of Decimal range");
    in_col("Nullable(Int64)", "1|\\N|-300");
    EXPECT("toDecimal32($1, 3)", "Nullable(Decimal(9, 3))", "1|\\N|-300");
    EXPECT("toDecimal128($1, 30)", "Nullable(Decimal(38, 30))", "1|\\N|-300");
    EXPECT_ERR("toDecimal32($1, 8)", "DECIMAL_OVERFLOW", "Decimal convert overflow");
}

/* ---- strings ------------------------------------------------------- */

static void test_strings_parse(void **state) {
    (void)state;
    EXPECT("toInt32('123')", "Int32", "123");
    EXPECT("toInt32('-123')", "Int32", "-123");
    EXPECT("toUInt8('300')", "UInt8", "44");
    EXPECT("toInt8('-129')", "Int8", "127");
    EXPECT("toFloat64('1e3')", "Float64", "1000");
    EXPECT("toFloat32('0.1')", "Float32", "0.1");
    EXPECT("toBool('true')", "Bool", "true");
    EXPECT("toInt32({FixedString(4):12})", "Int32", "12");
    EXPECT("toUUID('61F0C404-5CB3-11E7-907B-A6006AD3DBA0')", "UUID",
           "61f0c404-5cb3-11e7-907b-a6006ad3dba0");
    EXPECT("CAST('[1, 2,3]', 'Array(UInt8)')", "Array(UInt8)", "[1,2,3]");
    EXPECT("CAST('[1,NULL]', 'Array(Nullable(UInt8))')", "Array(Nullable(UInt8))", "[1,NULL]");
    EXPECT("CAST('{\\'a\\':1}', 'Map(String, UInt8)')", "Map(String, UInt8)", "{'a':1}");
    EXPECT("CAST('b', 'Enum8(\\'a\\' = 1, \\'b\\' = 2)')", "Enum8('a' = 1, 'b' = 2)", "b");
    EXPECT("CAST({FixedString(3):ab}, 'FixedString(2)')", "FixedString(2)", "ab");
}

static void test_strings_parse_errors(void **state) {
    (void)state;
    EXPECT_ERR("toInt32(' 123')", "CANNOT_PARSE_TEXT", "\" 123\" as Int32");
    EXPECT_ERR("toInt32('abc')", "CANNOT_PARSE_TEXT", "\"abc\" as Int32");
    EXPECT_ERR("toUInt8('1.5')", "CANNOT_PARSE_TEXT", "\"1.5\" as UInt8");
    EXPECT_ERR("toFloat64('1,5')", "CANNOT_PARSE_TEXT", "\"1,5\" as Float64");
    EXPECT_ERR("toUUID('nope')", "CANNOT_PARSE_UUID", "\"nope\" as UUID");
    EXPECT_ERR("toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0x')", "CANNOT_PARSE_TEXT", "as UUID");
    EXPECT_ERR("CAST('c', 'Enum8(\\'a\\' = 1)')", "CANNOT_PARSE_TEXT", "\"c\"");
    EXPECT_ERR("CAST('[1,', 'Array(UInt8)')", "CANNOT_PARSE_TEXT", "[1,");
    EXPECT_ERR("CAST('abc', 'FixedString(2)')", "TOO_LARGE_STRING_SIZE",
               "String too long for type FixedString(2)");
    EXPECT_ERR("toUInt8('99999999999999999999')", "CANNOT_PARSE_TEXT", "as UInt8");
}

static void test_strings_or_zero_or_null(void **state) {
    (void)state;
    EXPECT("toInt32OrZero('abc')", "Int32", "0");
    EXPECT("toInt32OrNull('abc')", "Nullable(Int32)", "\\N");
    EXPECT("toInt32OrNull('12')", "Nullable(Int32)", "12");
    EXPECT("toInt32OrNull('1.5')", "Nullable(Int32)", "\\N");
    EXPECT("toUInt8OrZero('300')", "UInt8", "44");
    EXPECT("toFloat64OrNull('inf')", "Nullable(Float64)", "inf");
    EXPECT("toFloat32OrZero('')", "Float32", "0");
    EXPECT("toUUIDOrZero('x')", "UUID", "00000000-0000-0000-0000-000000000000");
    EXPECT("toUUIDOrNull('x')", "Nullable(UUID)", "\\N");
    EXPECT("toInt32OrNull(NULL)", "Nullable(Int32)", "\\N");
    EXPECT_ERR("toInt32OrZero(1)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type UInt8 of first argument of function toInt32OrZero. Conversion "
               "functions with postfix 'OrZero' or 'OrNull' should take String argument");
    EXPECT_ERR("toDateOrNull(toDate('2020-01-01'))", "ILLEGAL_TYPE_OF_ARGUMENT",
               "should take String argument");
    in_col("Nullable(String)", "1|x|\\N|-5|");
    EXPECT("toInt32OrNull($0)", "Nullable(Int32)", "1|\\N|\\N|-5|\\N");
    EXPECT("toInt64OrZero($0)", "Nullable(Int64)", "1|0|\\N|-5|0");
    EXPECT_ERR("toInt32($0)", "CANNOT_PARSE_TEXT", "\"x\" as Int32");
    in_col("Nullable(String)", "7|\\N|8|\\N|9");
    EXPECT("toInt32($1)", "Nullable(Int32)", "7|\\N|8|\\N|9");
}

static void test_to_string(void **state) {
    (void)state;
    EXPECT("toString(1.5)", "String", "1.5");
    EXPECT("toString(-0.0)", "String", "-0");
    EXPECT("toString(-128)", "String", "-128");
    EXPECT("toString(toBool(1))", "String", "true");
    EXPECT("toString(toDate('2020-01-02'))", "String", "2020-01-02");
    EXPECT("toString({Array(UInt8):[1,2]})", "String", "[1,2]");
    EXPECT("toString({Array(String):['a','b']})", "String", "['a','b']");
    EXPECT("toString({Map(String, Nullable(UInt8)):{'k':NULL}})", "String", "{'k':NULL}");
    EXPECT("toString({Enum8('a' = 1, 'b' = 2):b})", "String", "b");
    EXPECT("toString({Nullable(Int32):NULL})", "Nullable(String)", "\\N");
    EXPECT("toString('x')", "String", "x");
    /* FixedString loses its zero padding: it fits FixedString(2) again. */
    EXPECT("toFixedString(toString(toFixedString('ab', 4)), 2)", "FixedString(2)", "ab");
    EXPECT("toString(toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0'))", "String",
           "61f0c404-5cb3-11e7-907b-a6006ad3dba0");
    in_col("Nullable(Decimal(9, 3))", "1.5|\\N|-0.001");
    EXPECT("toString($0)", "Nullable(String)", "1.5|\\N|-0.001");
    EXPECT("CAST($0, 'Nullable(String)')", "Nullable(String)", "1.5|\\N|-0.001");
}

static void test_fixed_string(void **state) {
    (void)state;
    EXPECT("toFixedString('abc', 5)", "FixedString(5)", "abc");
    EXPECT("toFixedString('', 1)", "FixedString(1)", "");
    EXPECT_ERR("toFixedString('abc', 2)", "TOO_LARGE_STRING_SIZE",
               "String too long for type FixedString(2)");
    EXPECT_ERR("toFixedString(1, 2)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type UInt8 of argument 1 of function toFixedString");
    EXPECT_ERR("toFixedString('a', 0)", "ARGUMENT_OUT_OF_BOUND", "FixedString size 0");
    EXPECT_ERR("CAST(1, 'FixedString(2)')", "NOT_IMPLEMENTED",
               "CAST AS FixedString is only implemented for types String and FixedString");
    in_col("String", "ab|abc");
    EXPECT_ERR("toFixedString($0, 2)", "TOO_LARGE_STRING_SIZE", "FixedString(2)");
    EXPECT_ERR("toFixedString('ab', toUInt8($0))", "ILLEGAL_COLUMN",
               "Second argument for function toFixedString must be constant");
}

/* ---- dates and times (session zone UTC unless set) ----------------- */

static void test_dates_from_strings(void **state) {
    (void)state;
    EXPECT("toDate('2020-01-02')", "Date", "2020-01-02");
    EXPECT("toDate('2020-01-02 03:04:05')", "Date", "2020-01-02");
    EXPECT("toDate('2020-01-02T03:04:05.123')", "Date", "2020-01-02");
    EXPECT("toDate32('1900-01-01')", "Date32", "1900-01-01");
    EXPECT("toDateTime('2020-01-02 03:04:05')", "DateTime", "2020-01-02 03:04:05");
    EXPECT("toDateTime('1577934245')", "DateTime", "2020-01-02 03:04:05");
    EXPECT("toDateTime64('2020-01-02 03:04:05.123456', 3)", "DateTime64(3)",
           "2020-01-02 03:04:05.123");
    EXPECT("toDateTime64OrNull('2020-01-02 03:04:05.5', 1)", "Nullable(DateTime64(1))",
           "2020-01-02 03:04:05.5");
    EXPECT("toDateOrZero('x')", "Date", "1970-01-01");
    EXPECT("toDate32OrZero('x')", "Date32", "1900-01-01");
    EXPECT("toDateTimeOrZero('x')", "DateTime", "1970-01-01 00:00:00");
    EXPECT("toDateTimeOrNull('x')", "Nullable(DateTime)", "\\N");
    /* ClickHouse's date reader takes any delimiters and one-digit parts;
     * makeDayNum turns a month or day out of range into the default and
     * runs a day past the month's end into the next month. */
    EXPECT("toDateOrNull('2020-02-30')", "Nullable(Date)", "2020-03-01");
    EXPECT("toDate('2021-02-31')", "Date", "2021-03-03");
    EXPECT("toDate('2020-13-01')", "Date", "1970-01-01");
    EXPECT("toDate32('2020-00-01')", "Date32", "1900-01-01");
    EXPECT("toDate('1850-06-01')", "Date", "1970-01-01");
    EXPECT("toDate('2020/1/5')", "Date", "2020-01-05");
    EXPECT("toDate('20200105')", "Date", "2020-01-05");
    EXPECT("CAST('2020.12.31', 'Date')", "Date", "2020-12-31");
    /* Not a date at all: CANNOT_PARSE_DATE; a date with more after it:
     * the value is incompletely parsed, CANNOT_PARSE_TEXT. */
    EXPECT_ERR("toDate('not a date')", "CANNOT_PARSE_DATE", "\"not a date\" as Date");
    EXPECT_ERR("toDate('')", "CANNOT_PARSE_DATE", "as Date");
    EXPECT_ERR("toDate('2020-1')", "CANNOT_PARSE_DATE", "as Date");
    EXPECT_ERR("toDate32('x')", "CANNOT_PARSE_DATE", "as Date32");
    EXPECT_ERR("toDate('2020-01-01abc')", "CANNOT_PARSE_TEXT", "as Date");
    EXPECT_ERR("toDateTime('abc')", "CANNOT_PARSE_DATETIME", "as DateTime");
    EXPECT_ERR("toDateTime64('abc', 3)", "CANNOT_PARSE_DATETIME", "as DateTime64(3");
    EXPECT_ERR("toDateTime('2020-01-02 03:04:05x')", "CANNOT_PARSE_TEXT", "as DateTime");
    EXPECT("toDateOrNull('not a date')", "Nullable(Date)", "\\N");
    EXPECT("toUUIDOrNull('zzz')", "Nullable(UUID)", "\\N");
}

static void test_dates_from_numbers(void **state) {
    (void)state;
    EXPECT("toDate(65535)", "Date", "2149-06-06");
    EXPECT("toDate(65536)", "Date", "1970-01-01");
    EXPECT("toDate(-1)", "Date", "1970-01-01");
    EXPECT("toDate(31536000)", "Date", "1971-01-01");
    EXPECT("toDate(1.5e9)", "Date", "2017-07-14");
    EXPECT("toDate(toUInt64(18446744073709551615))", "Date", "2106-02-07");
    EXPECT("toDate32(-1)", "Date32", "1969-12-31");
    EXPECT("toDate32(toInt32(-30000))", "Date32", "1900-01-01");
    EXPECT("toDate32(-30000)", "Date32", "1887-11-12"); /* Int16 is days as they are */
    EXPECT("toDate32(120529)", "Date32", "2299-12-31");
    EXPECT("toDate32(1700000000)", "Date32", "2023-11-14");
    EXPECT("toDateTime(-1)", "DateTime", "1970-01-01 00:00:00");
    EXPECT("toDateTime(1e10)", "DateTime", "2106-02-07 06:28:15");
    EXPECT("toDateTime(1700000000)", "DateTime", "2023-11-14 22:13:20");
    EXPECT("toDateTime(1700000000.9)", "DateTime", "2023-11-14 22:13:20");
    EXPECT("toDateTime64(1.5, 3)", "DateTime64(3)", "1970-01-01 00:00:01.500");
    EXPECT("toDateTime64(-1, 0)", "DateTime64(0)", "1969-12-31 23:59:59");
    EXPECT("toDateTime64(-1e12, 2)", "DateTime64(2)", "1900-01-01 00:00:00.00");
    EXPECT("toUInt16(toDate('2020-01-02'))", "UInt16", "18263");
    EXPECT("toInt64(toDateTime64('1970-01-01 00:00:01.5', 1))", "Int64", "1");
    EXPECT("toFloat64(toDateTime64('1970-01-01 00:00:01.5', 1))", "Float64", "1.5");
    EXPECT("toUInt32(toDateTime('2020-01-02 03:04:05'))", "UInt32", "1577934245");
}

static void test_dates_between_types(void **state) {
    (void)state;
    EXPECT("CAST(toDateTime64('2020-01-02 03:04:05.999', 3), 'DateTime')", "DateTime",
           "2020-01-02 03:04:05");
    EXPECT("CAST(toDateTime('2020-01-02 03:04:05'), 'Date')", "Date", "2020-01-02");
    EXPECT("CAST(toDate('2020-01-02'), 'DateTime64(3)')", "DateTime64(3)",
           "2020-01-02 00:00:00.000");
    EXPECT("CAST(toDate32('1950-01-01'), 'Date')", "Date", "1970-01-01");
    EXPECT("CAST(toDate32('1950-01-01'), 'DateTime64(0)')", "DateTime64(0)",
           "1950-01-01 00:00:00");
    EXPECT("CAST(toDate('2020-01-02'), 'Date32')", "Date32", "2020-01-02");
    EXPECT("CAST(toDateTime64('2020-01-02 03:04:05.129', 3), 'DateTime64(1)')", "DateTime64(1)",
           "2020-01-02 03:04:05.1");
    EXPECT("CAST(toDateTime64('2020-01-02 03:04:05.1', 1), 'DateTime64(4)')", "DateTime64(4)",
           "2020-01-02 03:04:05.1000");
    EXPECT("toDate32(toDateTime64('1950-06-01 12:00:00', 0))", "Date32", "1950-06-01");
}

static void test_dates_zones(void **state) {
    (void)state;
    EXPECT("toDateTime('2020-01-02 03:04:05', 'Asia/Kolkata')", "DateTime('Asia/Kolkata')",
           "2020-01-02 03:04:05");
    EXPECT("toUInt32(toDateTime('2020-01-02 03:04:05', 'Asia/Kolkata'))", "UInt32",
           "1577914445");
    EXPECT("toUInt32(toDateTime(toDate('2020-01-02'), 'Asia/Kolkata'))", "UInt32", "1577903400");
    EXPECT("toString(toDateTime('2020-01-02 03:04:05'), 'Asia/Kolkata')", "String",
           "2020-01-02 08:34:05");
    EXPECT("toDate(toDateTime('2020-01-01 23:00:00'), 'Asia/Kolkata')", "Date", "2020-01-02");
    EXPECT("toDateTime(toDateTime('2020-01-01 23:00:00'), 'Asia/Kolkata')",
           "DateTime('Asia/Kolkata')", "2020-01-02 04:30:00");
    EXPECT("toDateTime64('2020-01-02 03:04:05', 3, 'Asia/Kolkata')",
           "DateTime64(3, 'Asia/Kolkata')", "2020-01-02 03:04:05.000");
    /* Spring forward in Berlin: 02:30 does not exist and reads as 01:30. */
    EXPECT("toDateTime('2024-03-31 02:30:00', 'Europe/Berlin')", "DateTime('Europe/Berlin')",
           "2024-03-31 01:30:00");
    EXPECT("toUInt32(toDateTime('2024-03-31 02:30:00', 'Europe/Berlin'))", "UInt32",
           "1711845000");
}

static void test_dates_session_zone(void **state) {
    (void)state;
    mu_err err;
    assert_int_equal(ty_tz_get("Asia/Kolkata", &et.ctx.timezone, &err), 0);
    EXPECT("toUInt32(toDateTime('2020-01-02 03:04:05'))", "UInt32", "1577914445");
    EXPECT("toString(toDateTime('2020-01-02 03:04:05'))", "String", "2020-01-02 03:04:05");
    EXPECT("toDate(toDateTime(1577903400))", "Date", "2020-01-02");
    EXPECT("toUInt32(toDateTime(toDate('2020-01-02')))", "UInt32", "1577903400");
    EXPECT("toDate(1577903400)", "Date", "2020-01-02");
}

static void test_dates_errors(void **state) {
    (void)state;
    EXPECT_ERR("toDateTime64(1, 10)", "ARGUMENT_OUT_OF_BOUND",
               "Scale 10 is out of bounds (max scale: 9)");
    EXPECT_ERR("toDateTime(1, 'Mars/Olympus')", "BAD_ARGUMENTS", "Mars/Olympus");
    EXPECT_ERR("toDateTime(1, 5)", "ILLEGAL_TYPE_OF_ARGUMENT", "Illegal type UInt8 of argument 2");
    EXPECT_ERR("toDateTime(1, '')", "ILLEGAL_TYPE_OF_ARGUMENT", "non-empty");
    EXPECT_ERR("toString(1, 'UTC')", "ILLEGAL_TYPE_OF_ARGUMENT", "time zone argument");
    EXPECT_ERR("toDateTime(1, 'UTC', 3)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
               "passed 3, should be 1 to 2");
    EXPECT_ERR("toDate({Decimal(9, 2):1.5})", "CANNOT_CONVERT_TYPE",
               "Conversion from Decimal(9, 2) to Date is not supported");
    in_col("String", "UTC");
    EXPECT_ERR("toDateTime(1, $0)", "ILLEGAL_COLUMN", "must be a constant string");
}

static void test_dates_columns(void **state) {
    (void)state;
    in_col("Nullable(Date)", "2020-01-02|\\N|1970-01-01");
    in_col("Int64", "-5|70000|1577934245");
    EXPECT("toDateTime($0)", "Nullable(DateTime)",
           "2020-01-02 00:00:00|\\N|1970-01-01 00:00:00");
    EXPECT("toDate($1)", "Date", "1970-01-01|1970-01-01|2020-01-02");
    EXPECT("toDate32($1)", "Date32", "1969-12-27|2161-08-27|2020-01-02");
    EXPECT("toDateTime64($1, 2)", "DateTime64(2)",
           "1969-12-31 23:59:55.00|1970-01-01 19:26:40.00|2020-01-02 03:04:05.00");
    EXPECT("CAST($0, 'Nullable(String)')", "Nullable(String)", "2020-01-02|\\N|1970-01-01");
}

/* ---- CAST itself --------------------------------------------------- */

static void test_cast_basics(void **state) {
    (void)state;
    EXPECT("CAST(1, 'Int8')", "Int8", "1");
    EXPECT("cast(1, 'String')", "String", "1");
    EXPECT("_CAST(65536, 'UInt16')", "UInt16", "0");
    EXPECT("CAST('x', 'LowCardinality(String)')", "String", "x");
    EXPECT("CAST('7', 'LowCardinality(Nullable(UInt8))')", "Nullable(UInt8)", "7");
    EXPECT("CAST({Array(UInt8):[1,2]}, 'Array(LowCardinality(String))')", "Array(String)",
           "['1','2']");
    EXPECT("CAST(1, 'INT')", "Int32", "1");
    EXPECT("CAST(1.5, 'Decimal(9, 1)')", "Decimal(9, 1)", "1.5");
}

static void test_cast_nulls(void **state) {
    (void)state;
    EXPECT("CAST(NULL, 'Nullable(Int32)')", "Nullable(Int32)", "\\N");
    EXPECT("CAST(NULL, 'Nullable(String)')", "Nullable(String)", "\\N");
    EXPECT_ERR("CAST(NULL, 'Int32')", "CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN",
               "Cannot convert NULL value to non-Nullable type");
    EXPECT("CAST({Nullable(Int32):5}, 'Int64')", "Int64", "5");
    EXPECT_ERR("CAST({Nullable(Int32):NULL}, 'Int64')", "CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN",
               "Cannot convert NULL value to non-Nullable type");
    EXPECT("CAST({Nullable(Int32):NULL}, 'Nullable(String)')", "Nullable(String)", "\\N");
    EXPECT("CAST({Nullable(String):NULL}, 'Nullable(Int8)')", "Nullable(Int8)", "\\N");
    EXPECT("CAST(5, 'Nullable(Int8)')", "Nullable(Int8)", "5");
    in_col("Nullable(Int32)", "1|2");
    EXPECT("CAST($0, 'String')", "String", "1|2");
    in_col("Nullable(String)", "1|\\N|x");
    EXPECT_ERR("CAST($1, 'Nullable(Int8)')", "CANNOT_PARSE_TEXT", "\"x\" as Int8");
}

static void test_cast_nested(void **state) {
    (void)state;
    EXPECT("CAST({Array(UInt8):[1,2]}, 'Array(String)')", "Array(String)", "['1','2']");
    EXPECT("CAST({Array(Nullable(UInt8)):[1,NULL]}, 'Array(Nullable(String))')",
           "Array(Nullable(String))", "['1',NULL]");
    EXPECT_ERR("CAST({Array(Nullable(UInt8)):[1,NULL]}, 'Array(String)')",
               "CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN",
               "Cannot convert NULL value to non-Nullable type");
    EXPECT("CAST({Array(Array(Int8)):[[1],[],[-1,2]]}, 'Array(Array(Float64))')",
           "Array(Array(Float64))", "[[1],[],[-1,2]]");
    EXPECT("CAST({Map(String, UInt8):{'a':1,'b':2}}, 'Map(String, String)')",
           "Map(String, String)", "{'a':'1','b':'2'}");
    EXPECT("CAST({Array(String):['1','x']}, 'Array(Nullable(String))')",
           "Array(Nullable(String))", "['1','x']");
    EXPECT_ERR("CAST({Array(String):['1','x']}, 'Array(Int8)')", "CANNOT_PARSE_TEXT",
               "\"x\" as Int8");
    EXPECT_ERR("CAST({Array(UInt8):[1]}, 'UInt8')", "CANNOT_CONVERT_TYPE",
               "Conversion from Array(UInt8) to UInt8 is not supported");
    in_col("Array(Int32)", "[1,2]|[]|[300]");
    EXPECT("CAST($0, 'Array(Int8)')", "Array(Int8)", "[1,2]|[]|[44]");
    EXPECT("toString($0)", "String", "[1,2]|[]|[300]");
}

static void test_cast_enums(void **state) {
    (void)state;
    EXPECT("CAST(2, 'Enum8(\\'a\\' = 1, \\'b\\' = 2)')", "Enum8('a' = 1, 'b' = 2)", "b");
    EXPECT_ERR("CAST(3, 'Enum8(\\'a\\' = 1, \\'b\\' = 2)')", "BAD_ARGUMENTS",
               "Unexpected value 3 in enum");
    EXPECT("CAST({Enum8('a' = 1, 'b' = 2):b}, 'Int8')", "Int8", "2");
    EXPECT("CAST({Enum8('a' = 1, 'b' = 2):b}, 'Enum16(\\'b\\' = 500)')", "Enum16('b' = 500)",
           "b");
    EXPECT_ERR("CAST({Enum8('a' = 1, 'b' = 2):a}, 'Enum8(\\'b\\' = 5)')", "BAD_ARGUMENTS",
               "Unknown element 'a' for enum");
    EXPECT("CAST({Nullable(Enum8('a' = 1, 'b' = 2)):NULL}, 'Nullable(Enum8(\\'b\\' = 5))')",
           "Nullable(Enum8('b' = 5))", "\\N");
}

static void test_cast_bind_errors(void **state) {
    (void)state;
    EXPECT_ERR("CAST(1)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 1, should be 2");
    EXPECT_ERR("CAST(1, 'Foo')", "UNKNOWN_TYPE", "Foo");
    EXPECT_ERR("CAST(1, 2)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Second argument to CAST must be a constant string describing type");
    EXPECT_ERR("CAST(toDate('2020-01-02'), 'UUID')", "NOT_IMPLEMENTED",
               "Conversion between numeric types and UUID is not supported");
    EXPECT_ERR("CAST(1, 'Nothing')", "CANNOT_CONVERT_TYPE", "not supported");
    EXPECT_ERR("toInt32(toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0'))", "NOT_IMPLEMENTED",
               "Probably the passed UUID is unquoted");
    in_col("String", "Int8");
    EXPECT_ERR("CAST(1, $0)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Second argument to CAST must be a constant string describing type. Instead "
               "there is non-constant column of type String");
}

/* exec_expr_cast: the binder's CAST(x AS T) goes through _CAST. */
static void test_expr_cast_api(void **state) {
    (void)state;
    in_col("Nullable(String)", "1.25|\\N|-3");
    exec_builder b;
    mu_err err;
    assert_int_equal(exec_builder_init(&b, &et.ctx, et.arena, &err), 0);
    exec_expr *x, *e;
    const ty_type *to = et_type("Nullable(Decimal(9, 2))");
    assert_int_equal(exec_expr_input(&b, 0, et.inputs[0]->type, &x, &err), 0);
    assert_int_equal(exec_expr_cast(&b, x, to, &e, &err), 0);
    assert_true(ty_type_equal(e->type, to));
    ty_column *c;
    const ty_column *const *inputs = (const ty_column *const *)et.inputs;
    assert_int_equal(exec_eval_full(e, &et.ctx, inputs, 3, &c, &err), 0);
    assert_string_equal(et_render(c), "1.25|\\N|-3");
    ty_column_destroy(c);
    const ty_type *plain = et_type("Decimal(9, 2)");
    assert_int_equal(exec_expr_cast(&b, x, plain, &e, &err), 0);
    assert_int_not_equal(exec_eval_full(e, &et.ctx, inputs, 3, &c, &err), 0);
    assert_int_equal(err.code, MU_EINSERT_NULL);
    exec_builder_deinit(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        T(test_numbers_wrap_and_truncate), T(test_numbers_nan_inf), T(test_numbers_columns),
        T(test_numbers_column_errors), T(test_numbers_wide_columns), T(test_decimals),
        T(test_decimal_errors), T(test_decimal_columns), T(test_strings_parse),
        T(test_strings_parse_errors), T(test_strings_or_zero_or_null), T(test_to_string),
        T(test_fixed_string), T(test_dates_from_strings), T(test_dates_from_numbers),
        T(test_dates_between_types), T(test_dates_zones), T(test_dates_session_zone),
        T(test_dates_errors), T(test_dates_columns), T(test_cast_basics), T(test_cast_nulls),
        T(test_cast_nested), T(test_cast_enums), T(test_cast_bind_errors),
        T(test_expr_cast_api),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
