/* compare_test.c: goal: equals, notEquals, less, greater, lessOrEquals and
 * greaterOrEquals of fn_compare.c decide like ClickHouse: numbers of any
 * mix exactly (UInt64 against Int64, integers against floats, NaN false
 * and != true), Decimal and DateTime64 rescaled (overflow is
 * DECIMAL_OVERFLOW), dates of different kinds by instant in the time
 * zone, strings bytewise and zero-padded with FixedString, UUIDs second
 * half first, Enums by value or by name, arrays lexicographically, String
 * constants parsed as the other side's type (bad text fails, numbers out
 * of range compare unequal), and ClickHouse's errors for incompatible
 * types. Over constants, columns, both orders and NULL rows.
 */
#define ET_STYLE_EXPRESSIONS
#include "exec_test_util.h"

/* ---- numbers ---------------------------------------------------------- */

static void test_numbers_constants(void **state) {
    (void)state;
    EXPECT("equals(1, 1)", "UInt8", "1");
    EXPECT("notEquals(1, 2)", "UInt8", "1");
    EXPECT("less(1, 2)", "UInt8", "1");
    EXPECT("greater(1, 2)", "UInt8", "0");
    EXPECT("lessOrEquals(2, 2)", "UInt8", "1");
    EXPECT("greaterOrEquals(1, 2)", "UInt8", "0");
    EXPECT("equals({UInt64:18446744073709551615}, {Int64:-1})", "UInt8", "0");
    EXPECT("less({Int64:-1}, {UInt64:18446744073709551615})", "UInt8", "1");
    EXPECT("greater({UInt64:18446744073709551615}, {Int8:-1})", "UInt8", "1");
    EXPECT("equals({UInt64:9223372036854775808}, {Int64:-9223372036854775808})", "UInt8", "0");
    EXPECT("equals({UInt32:4294967295}, {Int64:4294967295})", "UInt8", "1");
    EXPECT("equals({Int64:9007199254740993}, {Float64:9007199254740992})", "UInt8", "0");
    EXPECT("greater({Int64:9007199254740993}, {Float64:9007199254740992})", "UInt8", "1");
    EXPECT("less({UInt64:18446744073709551615}, {Float64:18446744073709551616})", "UInt8", "1");
    EXPECT("equals({Int64:-9223372036854775808}, {Float64:-9223372036854775808})", "UInt8", "1");
    EXPECT("greater(1, 0.5)", "UInt8", "1");
    EXPECT("less(-1, -0.5)", "UInt8", "1");
    EXPECT("equals({Float32:0.1}, 0.1)", "UInt8", "0");
    EXPECT("equals({Float32:0.5}, 0.5)", "UInt8", "1");
    EXPECT("equals({Float64:-0}, 0)", "UInt8", "1");
    EXPECT("equals({Bool:true}, 1)", "UInt8", "1");
    EXPECT("less({Bool:false}, {Bool:true})", "UInt8", "1");
    EXPECT("equals({DateTime:100}, 100)", "UInt8", "1");
    EXPECT("less({DateTime:100}, 100.5)", "UInt8", "1");
}

static void test_numbers_nan(void **state) {
    (void)state;
    EXPECT("equals({Float64:nan}, {Float64:nan})", "UInt8", "0");
    EXPECT("notEquals({Float64:nan}, {Float64:nan})", "UInt8", "1");
    EXPECT("less({Float64:nan}, 1)", "UInt8", "0");
    EXPECT("greater({Float64:nan}, 1)", "UInt8", "0");
    EXPECT("greaterOrEquals(1, {Float64:nan})", "UInt8", "0");
    EXPECT("lessOrEquals({Float32:nan}, {Float32:nan})", "UInt8", "0");
    EXPECT("notEquals({UInt64:1}, {Float64:nan})", "UInt8", "1");
    EXPECT("equals({Int32:1}, {Float64:nan})", "UInt8", "0");
    EXPECT("less({Float64:-inf}, {Int64:-9223372036854775808})", "UInt8", "1");
    EXPECT("greater({Float64:inf}, {UInt64:18446744073709551615})", "UInt8", "1");
}

static void test_numbers_columns(void **state) {
    (void)state;
    in_col("Nullable(Int32)", "1|-5|\\N|100");
    in_col("UInt64", "1|18446744073709551615|0|99");
    in_col("Float32", "1|-5.5|nan|100");
    in_col("Int32", "2|-5|7|-100");
    EXPECT("equals($0, 1)", "Nullable(UInt8)", "1|0|\\N|0");
    EXPECT("greater(3, $0)", "Nullable(UInt8)", "1|1|\\N|0");
    EXPECT("lessOrEquals($0, -5)", "Nullable(UInt8)", "0|1|\\N|0");
    EXPECT("less($0, $1)", "Nullable(UInt8)", "0|1|\\N|0");
    EXPECT("greater($1, $0)", "Nullable(UInt8)", "0|1|\\N|0");
    EXPECT("equals($0, $2)", "Nullable(UInt8)", "1|0|\\N|1");
    EXPECT("less($2, $0)", "Nullable(UInt8)", "0|1|\\N|0");
    EXPECT("notEquals($2, $2)", "UInt8", "0|0|1|0");
    EXPECT("equals($0, $3)", "Nullable(UInt8)", "0|1|\\N|0");
    EXPECT("greaterOrEquals($3, $0)", "Nullable(UInt8)", "1|1|\\N|0");
    EXPECT("less($3, 0.5)", "UInt8", "0|1|0|1");
    EXPECT("greater($1, -1)", "UInt8", "1|1|1|1");
    EXPECT("equals($1, {UInt64:18446744073709551615})", "UInt8", "0|1|0|0");
    EXPECT("less($1, {Float64:1e19})", "UInt8", "1|0|1|1");
    EXPECT("greater($2, {Int64:-9223372036854775808})", "UInt8", "1|1|0|1");
    EXPECT("equals($3, {UInt8:7})", "UInt8", "0|0|1|0");
    EXPECT("less({Int16:0}, $3)", "UInt8", "1|0|1|0");
    EXPECT("equals($0, NULL)", "Nullable(Nothing)", "\\N|\\N|\\N|\\N");
}

static void test_typed_columns(void **state) {
    (void)state;
    in_col("Int8", "-128|0|127");
    in_col("UInt16", "0|65535|127");
    in_col("Float64", "-128|0.5|127");
    in_col("Int8", "-128|1|-1");
    EXPECT("less($0, $3)", "UInt8", "0|1|0");
    EXPECT("equals($0, $3)", "UInt8", "1|0|0");
    EXPECT("greaterOrEquals($0, $1)", "UInt8", "0|0|1");
    EXPECT("equals($0, $2)", "UInt8", "1|0|1");
    EXPECT("less($0, $2)", "UInt8", "0|1|0");
    EXPECT("lessOrEquals($1, {UInt64:127})", "UInt8", "1|0|1");
    EXPECT("greater($1, {Int64:-1})", "UInt8", "1|1|1");
    EXPECT("greater($2, {Float32:0.5})", "UInt8", "0|0|1");
    EXPECT("notEquals({Float32:0.5}, $2)", "UInt8", "1|0|1");
}

static void test_enum(void **state) {
    (void)state;
    EXPECT("equals({Enum8('a' = 1, 'b' = 2):a}, 1)", "UInt8", "1");
    EXPECT("less({Enum8('a' = 1, 'b' = 2):a}, {Enum8('a' = 1, 'b' = 2):b})", "UInt8", "1");
    EXPECT("equals({Enum8('a' = 1, 'b' = 2):a}, 'a')", "UInt8", "1");
    EXPECT("equals({Enum8('a' = 1, 'b' = 2):a}, 'b')", "UInt8", "0");
    EXPECT("less({Enum8('a' = 1, 'b' = 2):a}, 'b')", "UInt8", "1");
    EXPECT("greater('b', {Enum16('a' = 1000, 'b' = -1000):a})", "UInt8", "0");
    /* A name the Enum lacks: false, except != which fails to parse it. */
    EXPECT("equals({Enum8('a' = 1, 'b' = 2):a}, 'c')", "UInt8", "0");
    EXPECT("less({Enum8('a' = 1, 'b' = 2):a}, 'c')", "UInt8", "0");
    EXPECT_ERR("notEquals({Enum8('a' = 1, 'b' = 2):a}, 'c')", "CANNOT_PARSE_TEXT",
               "while converting 'c' to Enum8('a' = 1, 'b' = 2)");
    in_col("Enum8('x' = -1, 'y' = 5)", "x|y|x");
    EXPECT("equals($0, 'y')", "UInt8", "0|1|0");
    EXPECT("less($0, 0)", "UInt8", "1|0|1");
    EXPECT_ERR("equals({Enum8('a' = 1):a}, {Enum8('b' = 1):b})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types of arguments (Enum8('a' = 1), Enum8('b' = 1)) of function equals");
    EXPECT_ERR("less({Enum8('a' = 1):a}, {Decimal(9, 2):1})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "No operation less between Enum8('a' = 1) and Decimal(9, 2)");
}

/* ---- dates and times -------------------------------------------------- */

static void test_dates(void **state) {
    (void)state;
    EXPECT("equals({Date:2020-01-01}, {DateTime:2020-01-01 00:00:00})", "UInt8", "1");
    EXPECT("less({Date:2020-01-01}, {DateTime:2020-01-01 00:00:01})", "UInt8", "1");
    EXPECT("equals({Date:2020-01-01}, {DateTime('Asia/Tokyo'):2020-01-01 00:00:00})", "UInt8",
           "1");
    EXPECT("greater({DateTime('Asia/Tokyo'):2019-12-31 23:00:00}, {Date:2020-01-01})", "UInt8",
           "0");
    EXPECT("equals({Date:2020-01-01}, {Date32:2020-01-01})", "UInt8", "1");
    EXPECT("less({Date32:1950-01-01}, {Date:1970-01-01})", "UInt8", "1");
    EXPECT("less({Date32:1950-01-01}, {DateTime:1970-01-01 00:00:00})", "UInt8", "1");
    EXPECT("equals({DateTime64(3):2020-01-01 00:00:00.000}, {DateTime:2020-01-01 00:00:00})",
           "UInt8", "1");
    EXPECT("greater({DateTime64(3):2020-01-01 00:00:00.001}, {DateTime:2020-01-01 00:00:00})",
           "UInt8", "1");
    EXPECT("equals({DateTime64(3):2020-01-01 00:00:00.5}, {DateTime64(6):2020-01-01 00:00:00.5})",
           "UInt8", "1");
    EXPECT("less({DateTime64(6):2020-01-01 00:00:00.000001}, {DateTime64(3):2020-01-01 00:00:00})",
           "UInt8", "0");
    EXPECT("equals({Date32:1960-01-01}, {DateTime64(3, 'Europe/Berlin'):1960-01-01 00:00:00})",
           "UInt8", "1");
    EXPECT("equals({DateTime('UTC'):2020-01-01 00:00:00}, "
           "{DateTime('Asia/Tokyo'):2020-01-01 09:00:00})",
           "UInt8", "1");
    EXPECT("equals({DateTime64(3):1970-01-01 00:00:01}, 1)", "UInt8", "1");
    EXPECT("less({DateTime64(3):1970-01-01 00:00:01.500}, 1.6)", "UInt8", "1");
    EXPECT_ERR("less({Date:2020-01-01}, 18262)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types of arguments (Date, UInt16) of function less");
    EXPECT_ERR("equals({DateTime:0}, {Decimal(9, 2):1})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "No operation equals between DateTime and Decimal(9, 2)");
    in_col("Nullable(Date)", "2020-01-01|\\N|2021-06-30");
    in_col("DateTime('Asia/Tokyo')", "2020-01-01 00:00:00|2020-01-01 00:00:00|2021-06-30 12:00:00");
    EXPECT("equals($0, $1)", "Nullable(UInt8)", "1|\\N|0");
    EXPECT("less($0, $1)", "Nullable(UInt8)", "0|\\N|1");
    EXPECT("greater($0, '2020-06-01')", "Nullable(UInt8)", "0|\\N|1");
    EXPECT("equals('2021-06-30', $0)", "Nullable(UInt8)", "0|\\N|1");
}

static void test_dates_const_string(void **state) {
    (void)state;
    EXPECT("equals({Date:2020-01-01}, '2020-01-01')", "UInt8", "1");
    EXPECT("less({Date:2020-01-01}, '2020-01-02')", "UInt8", "1");
    EXPECT("equals({DateTime('Asia/Tokyo'):2020-01-01 09:00:00}, '2020-01-01 09:00:00')",
           "UInt8", "1");
    EXPECT("equals({DateTime64(3):2020-01-01 00:00:00.123}, '2020-01-01 00:00:00.123')",
           "UInt8", "1");
    EXPECT("equals({Date32:1900-01-01}, '1900-01-01')", "UInt8", "1");
    EXPECT_ERR("equals({Date:2020-01-01}, 'garbage')", "CANNOT_PARSE_DATE",
               "while converting 'garbage' to Date");
    EXPECT_ERR("less({DateTime:0}, '2020-01-01 00:00:0')", "CANNOT_PARSE_DATETIME",
               "while converting '2020-01-01 00:00:0' to DateTime");
}

/* ---- Decimal ---------------------------------------------------------- */

static void test_decimal(void **state) {
    (void)state;
    EXPECT("equals({Decimal(9, 2):1.5}, {Decimal(18, 5):1.5})", "UInt8", "1");
    EXPECT("less({Decimal(9, 2):1.5}, {Decimal(18, 5):1.50001})", "UInt8", "1");
    EXPECT("less({Decimal(9, 2):1.5}, 2)", "UInt8", "1");
    EXPECT("greater(2, {Decimal(9, 2):1.5})", "UInt8", "1");
    EXPECT("equals({Decimal(9, 2):1.5}, 1.5)", "UInt8", "1");
    EXPECT("less({Decimal(9, 2):1.5}, {Float32:1.75})", "UInt8", "1");
    EXPECT("equals({Decimal(38, 10):1}, {Decimal(38, 0):1})", "UInt8", "1");
    EXPECT("less({Decimal(18, 2):1}, {Int64:100000000000})", "UInt8", "1");
    EXPECT("equals({Decimal(9, 2):1.5}, '1.50')", "UInt8", "1");
    EXPECT("equals({Decimal(9, 2):1.5}, {Bool:true})", "UInt8", "0");
    /* ClickHouse compares in the Decimal's width and fails on overflow. */
    EXPECT_ERR("less({Decimal(9, 2):1}, 1000000000)", "DECIMAL_OVERFLOW",
               "Can't compare decimal number due to overflow");
    EXPECT_ERR("equals({Decimal(38, 0):99999999999999999999999999999999999999}, "
               "{Decimal(38, 10):1})",
               "DECIMAL_OVERFLOW", "Can't compare");
    EXPECT_ERR("less({Decimal(9, 2):1}, {Date:2020-01-01})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types of arguments (Decimal(9, 2), Date) of function less");
    in_col("Nullable(Decimal(9, 2))", "1.25|\\N|-3");
    in_col("Nullable(Int64)", "\\N|100000000000|-3");
    EXPECT("greater($0, 1)", "Nullable(UInt8)", "1|\\N|0");
    EXPECT("equals($0, $1)", "Nullable(UInt8)", "\\N|\\N|1"); /* the NULL row never overflows */
    EXPECT("equals({Nullable(Decimal(9, 2)):NULL}, 1)", "Nullable(UInt8)", "\\N|\\N|\\N");
}

/* ---- strings ----------------------------------------------------------- */

static void test_strings(void **state) {
    (void)state;
    EXPECT("equals('a', 'a')", "UInt8", "1");
    EXPECT("less('a', 'b')", "UInt8", "1");
    EXPECT("less('a', 'ab')", "UInt8", "1");
    EXPECT("greater('b', 'ab')", "UInt8", "1");
    EXPECT("equals('', '')", "UInt8", "1");
    EXPECT("lessOrEquals('', 'a')", "UInt8", "1");
    EXPECT("equals({FixedString(3):ab}, 'ab')", "UInt8", "1");
    EXPECT("less('ab', {FixedString(3):ab})", "UInt8", "0");
    EXPECT("equals({FixedString(3):ab}, {FixedString(4):ab})", "UInt8", "1");
    EXPECT("less({FixedString(2):ab}, {FixedString(3):abc})", "UInt8", "1");
    EXPECT("greater({FixedString(3):abc}, 'ab')", "UInt8", "1");
    in_col("Nullable(String)", "b|\\N|abc|");
    in_col("FixedString(2)", "b|zz|ab|");
    EXPECT("equals($0, 'b')", "Nullable(UInt8)", "1|\\N|0|0");
    EXPECT("less('ab', $0)", "Nullable(UInt8)", "1|\\N|1|0");
    EXPECT("equals($0, $1)", "Nullable(UInt8)", "1|\\N|0|1");
    EXPECT("greater($0, $1)", "Nullable(UInt8)", "0|\\N|1|0");
    EXPECT("equals($1, 'b')", "UInt8", "1|0|0|0");
    EXPECT_ERR("equals($0, $0, $0)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 3, should be 2");
}

static void test_strings_against_numbers(void **state) {
    (void)state;
    EXPECT("equals(1, '1')", "UInt8", "1");
    EXPECT("less({UInt8:1}, '2')", "UInt8", "1");
    EXPECT("greater('2', {UInt8:1})", "UInt8", "1");
    EXPECT("equals(1.5, '1.5')", "UInt8", "1");
    EXPECT("equals({Float32:0.1}, '0.1')", "UInt8", "1");
    EXPECT("equals({Bool:true}, 'true')", "UInt8", "1");
    /* Out of the type's range: never equal. */
    EXPECT("equals({UInt8:1}, '257')", "UInt8", "0");
    EXPECT("notEquals({UInt8:1}, '257')", "UInt8", "1");
    EXPECT("less({Int8:1}, '-129')", "UInt8", "0");
    /* ClickHouse's convertFieldToType: the text is read as the 64-bit type
     * (readIntTextUnsafe for integers: a leading 0 is the whole number,
     * no '+', '-' only for signed types, digits wrap) and must be read
     * whole, else TYPE_MISMATCH; nothing to read is an error of the
     * reader. */
    EXPECT_ERR("equals({UInt8:1}, 'abc')", "TYPE_MISMATCH", "Cannot convert string 'abc' to type UInt8");
    EXPECT_ERR("equals(1, 'a')", "TYPE_MISMATCH", "Cannot convert string 'a' to type UInt8");
    EXPECT_ERR("less('a', 1)", "TYPE_MISMATCH", "Cannot convert string 'a' to type UInt8");
    EXPECT_ERR("equals({UInt8:1}, '1.5')", "TYPE_MISMATCH", "to type UInt8");
    EXPECT_ERR("equals({UInt8:1}, '01')", "TYPE_MISMATCH", "'01'");
    EXPECT_ERR("equals({UInt8:1}, '+1')", "TYPE_MISMATCH", "'+1'");
    EXPECT_ERR("equals({UInt8:1}, '-1')", "TYPE_MISMATCH", "'-1'");
    EXPECT_ERR("equals({UInt8:1}, ' 1')", "TYPE_MISMATCH", "' 1'");
    EXPECT_ERR("equals({UInt8:1}, '')", "CANNOT_PARSE_TEXT", "Attempt to read after eof");
    EXPECT_ERR("equals({Int8:1}, '-')", "CANNOT_PARSE_TEXT", "Attempt to read after eof");
    EXPECT("equals({UInt8:0}, '0')", "UInt8", "1");
    EXPECT("equals({Int8:0}, '-0')", "UInt8", "1");
    EXPECT("equals({Int8:-5}, '-5')", "UInt8", "1");
    EXPECT("equals({Int8:-1}, '18446744073709551615')", "UInt8", "1");
    EXPECT("equals({UInt64:0}, '18446744073709551616')", "UInt8", "1");
    EXPECT("notEquals({UInt8:44}, '300')", "UInt8", "1");
    EXPECT("greater({Int64:-1}, '-9223372036854775808')", "UInt8", "1");
    EXPECT("equals(1.5, '15e-1')", "UInt8", "1");
    EXPECT("less(1.5, 'inf')", "UInt8", "1");
    EXPECT("equals(1.5, '.5')", "UInt8", "0");
    EXPECT_ERR("equals(1.5, 'abc')", "CANNOT_PARSE_TEXT", "Cannot read floating point value");
    EXPECT_ERR("equals(1.5, '1.5x')", "TYPE_MISMATCH", "Cannot convert string '1.5x' to type Float64");
    EXPECT_ERR("equals(1.5, '1e')", "TYPE_MISMATCH", "'1e'");
    EXPECT_ERR("equals({Date:2020-01-01}, 'x')", "CANNOT_PARSE_DATE", "to Date");
    EXPECT_ERR("equals({Date:2020-01-01}, '2020-01-01x')", "TYPE_MISMATCH",
               "Cannot convert string '2020-01-01x' to type Date");
    EXPECT_ERR("equals({DateTime('UTC'):2020-01-01 00:00:00}, 'x')", "CANNOT_PARSE_DATETIME",
               "to DateTime");
    EXPECT("equals({Nullable(String):NULL}, 1)", "Nullable(UInt8)", "\\N");
    in_col("String", "1|2");
    in_col("UInt8", "1|3");
    EXPECT_ERR("equals($0, $1)", "NO_COMMON_TYPE",
               "There is no supertype for types String, UInt8 because some of them are "
               "String/FixedString and some of them are not");
    EXPECT("equals($1, '3')", "UInt8", "0|1");
    EXPECT("less('2', $1)", "UInt8", "0|1");
}

/* ---- UUID ---------------------------------------------------------------- */

static void test_uuid(void **state) {
    (void)state;
    EXPECT("equals({UUID:61f0c404-5cb3-11e7-907b-a6006ad3dba0}, "
           "{UUID:61f0c404-5cb3-11e7-907b-a6006ad3dba0})", "UInt8", "1");
    /* ClickHouse's order: the second half decides first. */
    EXPECT("less({UUID:00000000-0000-0001-0000-000000000000}, "
           "{UUID:00000000-0000-0000-0000-000000000001})", "UInt8", "1");
    EXPECT("less({UUID:00000000-0000-0000-0000-000000000001}, "
           "{UUID:00000000-0000-0001-0000-000000000001})", "UInt8", "1");
    EXPECT("equals({UUID:61f0c404-5cb3-11e7-907b-a6006ad3dba0}, "
           "'61f0c404-5cb3-11e7-907b-a6006ad3dba0')", "UInt8", "1");
    EXPECT_ERR("equals({UUID:61f0c404-5cb3-11e7-907b-a6006ad3dba0}, 'x')", "CANNOT_PARSE_UUID",
               "to UUID");
    EXPECT_ERR("equals({UUID:61f0c404-5cb3-11e7-907b-a6006ad3dba0}, 1)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types of arguments (UUID, UInt8) of function equals");
    in_col("Nullable(UUID)", "00000000-0000-0000-0000-000000000001|\\N");
    EXPECT("greater($0, {UUID:ffffffff-ffff-ffff-0000-000000000000})", "Nullable(UInt8)", "1|\\N");
}

/* ---- arrays and other types ---------------------------------------------- */

static void test_arrays(void **state) {
    (void)state;
    EXPECT("equals({Array(UInt8):[1,2]}, {Array(UInt8):[1,2]})", "UInt8", "1");
    EXPECT("less({Array(UInt8):[1,2]}, {Array(UInt8):[1,3]})", "UInt8", "1");
    EXPECT("less({Array(UInt8):[1,2]}, {Array(UInt8):[1,2,0]})", "UInt8", "1");
    EXPECT("less({Array(UInt8):[2]}, {Array(UInt8):[1,2,3]})", "UInt8", "0");
    EXPECT("equals({Array(UInt8):[1,2]}, {Array(Int64):[1,2]})", "UInt8", "1");
    EXPECT("greater({Array(UInt8):[255]}, {Array(Int8):[-1]})", "UInt8", "1");
    EXPECT("greater({Array(Nullable(UInt8)):[1,NULL]}, {Array(UInt8):[1,2]})", "UInt8", "1");
    EXPECT("equals({Array(Float64):[nan]}, {Array(Float64):[nan]})", "UInt8", "1");
    EXPECT("less({Array(Float32):[1.5]}, {Array(Int32):[2]})", "UInt8", "1");
    EXPECT("equals({Array(String):['a']}, {Array(FixedString(1)):['a']})", "UInt8", "1");
    EXPECT("equals({Array(UInt8):[1,2]}, '[1,2]')", "UInt8", "1");
    EXPECT("equals({Map(String, UInt8):{'a':1}}, {Map(String, UInt8):{'a':1}})", "UInt8", "1");
    EXPECT_ERR("equals({Array(UInt8):[1]}, 1)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types of arguments (Array(UInt8), UInt8) of function equals");
    EXPECT_ERR("less({Array(Date):[]}, {Array(DateTime):[]})", "NOT_IMPLEMENTED",
               "Function less of Array(Date) and Array(DateTime) is not supported");
    EXPECT_ERR("less({Array(String):[]}, {Array(UInt8):[]})", "NO_COMMON_TYPE", "no supertype");
    in_col("Array(Int32)", "[]|[1,2]|[3]");
    in_col("Array(UInt8)", "[]|[1]|[2,9]");
    EXPECT("less($0, $1)", "UInt8", "0|0|0");
    EXPECT("greater($0, $1)", "UInt8", "0|1|1");
    EXPECT("equals($0, {Array(Int32):[1,2]})", "UInt8", "0|1|0");
    EXPECT("lessOrEquals($1, {Array(UInt8):[1]})", "UInt8", "1|1|0");
}

static void test_errors(void **state) {
    (void)state;
    EXPECT_ERR("equals(1)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
               "Number of arguments for function equals doesn't match: passed 1, should be 2");
    EXPECT_ERR("greaterOrEquals()", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 0, should be 2");
    EXPECT("equals(NULL, 1)", "Nullable(Nothing)", "\\N");
    EXPECT("less(NULL, NULL)", "Nullable(Nothing)", "\\N");
}

/* ---- many rows: kernels work in chunks; every chunk boundary counts --- */

static void test_many_rows(void **state) {
    (void)state;
    const uint32_t n = 3000;
    in_col_sequence("Int32", n, false);
    in_col_sequence("Decimal(18, 1)", n, false);
    in_col_sequence("UInt64", n, false);
    const char *exprs[] = {"less($0, 1500)", "equals($1, 2999)", "greater($0, $2)",
                           "lessOrEquals($1, {Decimal(9, 3):1000.5})", "less($0, 1499.5)"};
    uint32_t want_true[] = {1500, 1, 0, 1001, 1500};
    for (size_t e = 0; e < sizeof(exprs) / sizeof(exprs[0]); e++) {
        const char *got = ev(exprs[e]);
        uint32_t ones = 0, rows = 1;
        for (const char *p = got; *p; p++) {
            ones += *p == '1';
            rows += *p == '|';
        }
        assert_int_equal(rows, n);
        if (ones != want_true[e])
            fail_msg("%s: %u rows true, expected %u", exprs[e], ones, want_true[e]);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_numbers_constants, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_numbers_nan, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_numbers_columns, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_typed_columns, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_enum, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_dates, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_dates_const_string, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_decimal, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_strings, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_strings_against_numbers, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_uuid, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_arrays, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_errors, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_many_rows, et_setup, et_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
