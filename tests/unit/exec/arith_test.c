/* arith_test.c: goal: the arithmetic functions of fn_arith.c give
 * ClickHouse's result types (NumberTraits), values (wrapping integers,
 * C++ modulo semantics, float division), errors (Division by zero, the
 * minimum by -1, float ranges, Decimal overflow, illegal types) and date
 * and Decimal rules, over constants, columns, mixed constant and column
 * arguments and NULL rows (which never raise a per-value error). Expected
 * values come from ClickHouse's source (DivisionUtils.h, NumberTraits.h,
 * FunctionBinaryArithmetic.h) and were checked against clickhouse-server
 * where its version behaves like the current one.
 */
#define ET_STYLE_EXPRESSIONS
#include "exec_test_util.h"

/* ---- plus / minus / multiply ----------------------------------------- */

static void test_plus_types(void **state) {
    (void)state;
    EXPECT("plus(1, 2)", "UInt16", "3");
    EXPECT("plus({UInt8:255}, {UInt8:1})", "UInt16", "256");
    EXPECT("plus({UInt8:1}, {Int8:-1})", "Int16", "0");
    EXPECT("plus({UInt32:1}, {Int8:-2})", "Int64", "-1");
    EXPECT("plus({UInt16:1}, {UInt32:1})", "UInt64", "2");
    EXPECT("plus({Int64:1}, {Int8:1})", "Int64", "2");
    EXPECT("plus({Float32:1.5}, {Float32:1.5})", "Float64", "3");
    EXPECT("plus({UInt8:1}, {Float32:0.25})", "Float64", "1.25");
    EXPECT("plus(1, 0.5)", "Float64", "1.5");
    EXPECT("plus({Bool:true}, {Bool:true})", "UInt16", "2");
    EXPECT("minus(1, 2)", "Int16", "-1");
    EXPECT("minus({UInt64:0}, {UInt64:1})", "Int64", "-1");
    EXPECT("minus({Int8:-128}, {Int8:1})", "Int16", "-129");
    EXPECT("minus(0.5, {Float32:1})", "Float64", "-0.5");
    EXPECT("multiply({UInt8:255}, {UInt8:255})", "UInt16", "65025");
    EXPECT("multiply({Int32:65536}, {Int32:65536})", "Int64", "4294967296");
    EXPECT("multiply({Int8:-3}, {UInt8:7})", "Int16", "-21");
    EXPECT("multiply(2.5, {Int64:-2})", "Float64", "-5");
}

static void test_plus_wraps(void **state) {
    (void)state;
    EXPECT("plus({UInt64:18446744073709551615}, {UInt64:1})", "UInt64", "0");
    EXPECT("plus({UInt64:18446744073709551615}, {Int64:1})", "Int64", "0");
    EXPECT("plus({Int64:9223372036854775807}, {Int8:1})", "Int64", "-9223372036854775808");
    EXPECT("minus({UInt64:18446744073709551615}, {UInt64:0})", "Int64", "-1");
    EXPECT("minus({Int64:-9223372036854775808}, 1)", "Int64", "9223372036854775807");
    EXPECT("multiply({Int64:-9223372036854775808}, {Int8:-1})", "Int64", "-9223372036854775808");
    EXPECT("multiply({UInt64:4294967296}, {UInt64:4294967296})", "UInt64", "0");
    EXPECT("plus({Float64:1e308}, {Float64:1e308})", "Float64", "inf");
}

static void test_plus_columns(void **state) {
    (void)state;
    in_col("Nullable(Int32)", "1|-2|2147483647|\\N");
    in_col("UInt8", "1|2|3|4");
    EXPECT("plus($0, 1)", "Nullable(Int64)", "2|-1|2147483648|\\N");
    EXPECT("plus(1, $0)", "Nullable(Int64)", "2|-1|2147483648|\\N");
    EXPECT("plus($0, $1)", "Nullable(Int64)", "2|0|2147483650|\\N");
    EXPECT("minus($1, $0)", "Nullable(Int64)", "0|4|-2147483644|\\N");
    EXPECT("multiply($0, $0)", "Nullable(Int64)", "1|4|4611686014132420609|\\N");
    EXPECT("minus($1, 10)", "Int16", "-9|-8|-7|-6");
    EXPECT("multiply($1, 0.5)", "Float64", "0.5|1|1.5|2");
    EXPECT("plus($0, NULL)", "Nullable(Nothing)", "\\N|\\N|\\N|\\N");
    EXPECT("plus($1, {Nullable(UInt8):NULL})", "Nullable(UInt16)", "\\N|\\N|\\N|\\N");
}

static void test_plus_errors(void **state) {
    (void)state;
    EXPECT_ERR("plus('a', 1)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types String and UInt8 of arguments of function plus");
    EXPECT_ERR("multiply(1, {UUID:61f0c404-5cb3-11e7-907b-a6006ad3dba0})",
               "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types UInt8 and UUID of arguments of function multiply");
    EXPECT_ERR("plus(1)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
               "Number of arguments for function plus doesn't match: passed 1, should be 2");
    EXPECT_ERR("minus(1, 2, 3)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 3, should be 2");
    EXPECT_ERR("plus({Array(UInt8):[1]}, {Array(UInt8):[2]})", "NOT_IMPLEMENTED",
               "Function plus over arrays is not supported");
    EXPECT_ERR("plus({Enum8('a' = 1):a}, 1)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types Enum8('a' = 1) and UInt8 of arguments of function plus");
    EXPECT("plus(NULL, 1)", "Nullable(Nothing)", "\\N");
}

/* ---- divide ------------------------------------------------------------ */

static void test_divide(void **state) {
    (void)state;
    EXPECT("divide(1, 2)", "Float64", "0.5");
    EXPECT("divide(1, 0)", "Float64", "inf");
    EXPECT("divide(-1, 0)", "Float64", "-inf");
    EXPECT("divide(0, 0)", "Float64", "nan");
    EXPECT("divide({Float32:1}, {Float32:4})", "Float64", "0.25");
    EXPECT("divide({UInt64:18446744073709551615}, 1)", "Float64", "18446744073709552000");
    EXPECT("divide({Int64:-9223372036854775808}, -2)", "Float64", "4611686018427388000");
    in_col("Nullable(Int16)", "10|0|\\N|-3");
    EXPECT("divide($0, 4)", "Nullable(Float64)", "2.5|0|\\N|-0.75");
    EXPECT("divide(1, $0)", "Nullable(Float64)", "0.1|inf|\\N|-0.3333333333333333");
    EXPECT("divide($0, $0)", "Nullable(Float64)", "1|nan|\\N|1");
}

/* ---- intDiv / intDivOrZero --------------------------------------------- */

static void test_int_div(void **state) {
    (void)state;
    EXPECT("intDiv(7, 2)", "UInt8", "3");
    EXPECT("intDiv(-7, 2)", "Int8", "-3");
    EXPECT("intDiv(7, -2)", "Int8", "-3");
    EXPECT("intDiv({UInt64:18446744073709551615}, 2)", "UInt64", "9223372036854775807");
    EXPECT("intDiv({UInt16:1000}, {UInt64:3})", "UInt16", "333");
    /* Mixed signedness: both are read as signed of their own width. */
    EXPECT("intDiv({UInt8:200}, {Int8:-1})", "Int8", "56");
    EXPECT("intDiv({UInt32:4000000000}, {Int8:2})", "Int32", "-147483648");
    EXPECT("intDiv({Int16:1000}, {UInt8:200})", "Int16", "5");
    EXPECT("intDiv({Int8:100}, {UInt16:65535})", "Int8", "-100");
    EXPECT_ERR("intDiv(1, 0)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT_ERR("intDiv({Int64:-9223372036854775808}, -1)", "ILLEGAL_DIVISION",
               "Division of minimal signed number by minus one");
    EXPECT_ERR("intDiv({Int8:-128}, {Int8:-1})", "ILLEGAL_DIVISION",
               "Division of minimal signed number by minus one");
    EXPECT_ERR("intDiv({Int8:-128}, {Int16:-1})", "ILLEGAL_DIVISION", "minus one");
}

static void test_int_div_floats(void **state) {
    (void)state;
    EXPECT("intDiv(10.5, 3)", "Int64", "3");
    EXPECT("intDiv(-10.5, 3)", "Int64", "-3");
    EXPECT("intDiv({Float32:10}, 3)", "Int32", "3");
    EXPECT("intDiv({UInt8:10}, 2.5)", "Int8", "4");
    EXPECT("intDiv({Int64:9007199254740993}, 1.0)", "Int64", "9007199254740992");
    EXPECT_ERR("intDiv(1.5, 0)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT_ERR("intDiv({Float64:inf}, 1)", "ILLEGAL_DIVISION",
               "Cannot perform integer division on infinite or too large floating point numbers");
    EXPECT_ERR("intDiv(1, {Float64:nan})", "ILLEGAL_DIVISION",
               "Cannot perform integer division on infinite or too large floating point numbers");
    EXPECT_ERR("intDiv(1e300, 1e-300)", "ILLEGAL_DIVISION",
               "Cannot perform integer division, because it will produce infinite or too large "
               "number");
    /* The quotient's range check is not strict, as in ClickHouse. */
    EXPECT_ERR("intDiv({Int8:-128}, 1.0)", "ILLEGAL_DIVISION", "will produce infinite");
    EXPECT("intDiv({Int8:-127}, 1.0)", "Int8", "-127");
}

static void test_int_div_columns(void **state) {
    (void)state;
    in_col("Nullable(Int64)", "-9223372036854775808|7|\\N|-7");
    in_col("Nullable(Int8)", "1|0|0|\\N");
    /* A constant divisor of the same signedness wraps -min (no error). */
    EXPECT("intDiv($0, -1)", "Nullable(Int64)", "-9223372036854775808|-7|\\N|7");
    EXPECT("intDiv($0, 2)", "Nullable(Int64)", "-4611686018427387904|3|\\N|-3");
    /* NULL rows never fail even though their divisor is 0. */
    EXPECT_ERR("intDiv($0, $1)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT("intDivOrZero($0, $1)", "Nullable(Int64)", "-9223372036854775808|0|\\N|\\N");
    EXPECT_ERR("intDiv($0, 0)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT_ERR("intDiv(100, $1)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT("intDivOrZero(100, $1)", "Nullable(Int8)", "100|0|0|\\N");
}

static void test_int_div_nulls(void **state) {
    (void)state;
    in_col("Nullable(UInt32)", "10|\\N|30");
    in_col("Nullable(UInt32)", "\\N|0|3");
    EXPECT("intDiv($0, $1)", "Nullable(UInt32)", "\\N|\\N|10");
    EXPECT("modulo($0, $1)", "Nullable(UInt32)", "\\N|\\N|0");
    EXPECT("gcd($0, $1)", "Nullable(UInt64)", "\\N|\\N|3");
    EXPECT("intDiv($0, NULL)", "Nullable(Nothing)", "\\N|\\N|\\N");
}

static void test_int_div_or_zero(void **state) {
    (void)state;
    EXPECT("intDivOrZero(5, 0)", "UInt8", "0");
    EXPECT("intDivOrZero(5, 2)", "UInt8", "2");
    EXPECT("intDivOrZero({Int64:-9223372036854775808}, -1)", "Int64", "0");
    EXPECT("intDivOrZero(5.5, 0)", "Int64", "0");
    EXPECT_ERR("intDivOrZero({Float64:inf}, 2)", "ILLEGAL_DIVISION", "infinite or too large");
    /* The signed reading of UInt8 128 is the minimum: still an error. */
    EXPECT_ERR("intDivOrZero({UInt8:128}, {Int8:-1})", "ILLEGAL_DIVISION",
               "Division of minimal signed number by minus one");
    EXPECT_ERR("intDivOrZero(1)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 1, should be 2");
}

/* ---- modulo / moduloOrZero ---------------------------------------------- */

static void test_modulo(void **state) {
    (void)state;
    EXPECT("modulo(7, 3)", "UInt8", "1");
    EXPECT("modulo(-7, 3)", "Int16", "-1");
    EXPECT("modulo(7, -3)", "UInt8", "1");
    EXPECT("modulo({UInt32:100}, {UInt8:7})", "UInt8", "2");
    EXPECT("modulo({Int32:-199}, {UInt8:200})", "Int16", "-199");
    /* C++ conversions: Int32 % UInt32 computes in unsigned. */
    EXPECT("modulo({Int32:-1}, {UInt32:3})", "Int64", "0");
    EXPECT("modulo({Int8:-1}, {UInt8:3})", "Int16", "-1");
    EXPECT("modulo({Int64:-1}, {UInt32:3})", "Int64", "-1");
    EXPECT("modulo({UInt64:18446744073709551615}, {Int8:10})", "UInt8", "5");
    EXPECT("modulo(5.5, 2)", "Float64", "1.5");
    EXPECT("modulo(-5.5, 2)", "Float64", "-1.5");
    EXPECT("modulo(5.5, 0)", "Float64", "nan");
    EXPECT("modulo({Float32:7}, {Int8:-2})", "Float64", "1");
    EXPECT_ERR("modulo(1, 0)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT_ERR("modulo({Int64:-9223372036854775808}, {Int64:-1})", "ILLEGAL_DIVISION",
               "Division of minimal signed number by minus one");
    EXPECT_ERR("modulo({Int8:-128}, {Int8:-1})", "ILLEGAL_DIVISION", "minus one");
    EXPECT_ERR("modulo('7', 2)", "ILLEGAL_TYPE_OF_ARGUMENT", "Illegal types String and UInt8");
}

static void test_modulo_columns(void **state) {
    (void)state;
    in_col("Int64", "-9223372036854775808|-7|7|0");
    in_col("Nullable(UInt32)", "4000000000|5|\\N|3");
    /* A constant divisor: -1 and 1 give 0, huge divisors copy. */
    EXPECT("modulo($0, -1)", "Int16", "0|0|0|0");
    EXPECT("modulo($0, 1)", "Int16", "0|0|0|0");
    EXPECT("modulo($0, 4)", "Int16", "0|-3|3|0");
    EXPECT("modulo($0, 3)", "Int16", "-2|-1|1|0");
    EXPECT_ERR("modulo($0, 0)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT_ERR("modulo($0, {Int64:-9223372036854775808})", "ILLEGAL_DIVISION",
               "Division by the most negative number");
    EXPECT("modulo($1, {UInt64:5000000000})", "Nullable(UInt64)", "4000000000|5|\\N|3");
    EXPECT("modulo($1, 7)", "Nullable(UInt8)", "3|5|\\N|3");
    EXPECT("modulo(10, $1)", "Nullable(UInt32)", "10|0|\\N|1");
    EXPECT("moduloOrZero($0, 0)", "Int16", "0|0|0|0");
    EXPECT("moduloOrZero($0, -1)", "Int16", "0|0|0|0");
    EXPECT("modulo($0, $1)", "Nullable(Int64)", "-854775808|-2|\\N|0");
}

static void test_modulo_or_zero(void **state) {
    (void)state;
    EXPECT("moduloOrZero(5, 0)", "UInt8", "0");
    EXPECT("moduloOrZero(-5, 3)", "Int16", "-2");
    EXPECT("moduloOrZero({Int64:-9223372036854775808}, {Int64:-1})", "Int64", "0");
    EXPECT("moduloOrZero(5.5, 0)", "Float64", "nan");
    EXPECT("moduloOrZero(5.5, 2)", "Float64", "1.5");
}

/* ---- negate / abs ------------------------------------------------------- */

static void test_negate_abs(void **state) {
    (void)state;
    EXPECT("negate({UInt8:255})", "Int16", "-255");
    EXPECT("negate({Int8:-128})", "Int8", "-128");
    EXPECT("negate({UInt64:1})", "Int64", "-1");
    EXPECT("negate({UInt32:4294967295})", "Int64", "-4294967295");
    EXPECT("negate(1.5)", "Float64", "-1.5");
    EXPECT("negate({Float32:2.5})", "Float32", "-2.5");
    EXPECT("negate({Bool:true})", "Int16", "-1");
    EXPECT("negate({Decimal(9, 2):1.50})", "Decimal(9, 2)", "-1.5");
    EXPECT("negate({Decimal(38, 2):-12345678901234567890.12})", "Decimal(38, 2)",
           "12345678901234567890.12");
    EXPECT("abs({Int8:-128})", "UInt8", "128");
    EXPECT("abs({Int64:-9223372036854775808})", "UInt64", "9223372036854775808");
    EXPECT("abs(-1.5)", "Float64", "1.5");
    EXPECT("abs({Float32:-0})", "Float32", "0");
    EXPECT("abs({UInt32:5})", "UInt32", "5");
    EXPECT("ABS({Int16:-7})", "UInt16", "7");
    EXPECT("abs({Decimal(18, 3):-1.25})", "Decimal(18, 3)", "1.25");
    in_col("Nullable(Int32)", "-5|\\N|7");
    EXPECT("abs($0)", "Nullable(UInt32)", "5|\\N|7");
    EXPECT("negate($0)", "Nullable(Int32)", "5|\\N|-7");
    EXPECT_ERR("negate('a')", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type String of argument of function negate");
    EXPECT_ERR("abs({Date:2020-01-01})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type Date of argument of function abs");
    EXPECT_ERR("abs(1, 2)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 2, should be 1");
}

/* ---- gcd / lcm ----------------------------------------------------------- */

static void test_gcd_lcm(void **state) {
    (void)state;
    EXPECT("gcd(12, 18)", "UInt16", "6");
    EXPECT("lcm(4, 6)", "UInt16", "12");
    EXPECT("gcd({Int8:-12}, {Int8:18})", "Int16", "6");
    EXPECT("lcm({Int8:-4}, {Int8:6})", "Int16", "12");
    EXPECT("lcm({UInt64:18446744073709551615}, 2)", "UInt64", "18446744073709551614");
    EXPECT("lcm({UInt32:4294967295}, {UInt32:4294967294})", "UInt64", "18446744060824649730");
    EXPECT("gcd({Bool:true}, 5)", "UInt16", "1");
    EXPECT_ERR("gcd(0, 5)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT_ERR("lcm(5, 0)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT_ERR("gcd({Int64:-9223372036854775808}, 2)", "DECIMAL_OVERFLOW",
               "Intermediate result overflow (signed a = -9223372036854775808, signed b = 2, "
               "min = -9223372036854775808, max = 9223372036854775807)");
    EXPECT_ERR("gcd({Int64:-9223372036854775808}, -1)", "ILLEGAL_DIVISION", "minus one");
    EXPECT_ERR("gcd(1.5, 2)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types Float64 and UInt8 of arguments of function gcd");
    EXPECT_ERR("lcm({Decimal(9, 2):1}, 2)", "ILLEGAL_TYPE_OF_ARGUMENT", "function lcm");
    in_col("Nullable(Int32)", "12|\\N|-9|0");
    EXPECT_ERR("gcd($0, 6)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT("gcd(6, {Nullable(Int32):NULL})", "Nullable(Int64)", "\\N|\\N|\\N|\\N");
}

static void test_gcd_columns(void **state) {
    (void)state;
    in_col("Nullable(Int32)", "12|\\N|-9|27");
    in_col("UInt16", "18|0|6|36");
    EXPECT("gcd($0, $1)", "Nullable(Int64)", "6|\\N|3|9");
    EXPECT("lcm($0, $1)", "Nullable(Int64)", "36|\\N|18|108");
    EXPECT_ERR("lcm($1, 4)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT("lcm($0, 4)", "Nullable(Int64)", "12|\\N|36|108");
}

/* ---- dates --------------------------------------------------------------- */

static void test_date_arith(void **state) {
    (void)state;
    EXPECT("plus({Date:2020-01-01}, 1)", "Date", "2020-01-02");
    EXPECT("plus(31, {Date:2020-01-01})", "Date", "2020-02-01");
    EXPECT("minus({Date:2020-01-01}, 1)", "Date", "2019-12-31");
    EXPECT("plus({Date:2149-06-06}, 1)", "Date", "1970-01-01");
    EXPECT("plus({Date:2020-01-01}, 1.9)", "Date", "2020-01-02");
    EXPECT("minus({Date:2020-01-01}, {Int64:-366})", "Date", "2021-01-01");
    EXPECT("plus({Date32:1950-01-01}, 365)", "Date32", "1951-01-01");
    EXPECT("minus({Date32:1950-01-01}, 1)", "Date32", "1949-12-31");
    EXPECT("plus({DateTime:2020-01-01 00:00:00}, 1.9)", "DateTime", "2020-01-01 00:00:01");
    EXPECT("plus({DateTime('Asia/Tokyo'):2020-01-01 00:00:00}, 3600)",
           "DateTime('Asia/Tokyo')", "2020-01-01 01:00:00");
    EXPECT("minus({DateTime:2020-01-01 00:00:00}, 86400)", "DateTime", "2019-12-31 00:00:00");
    EXPECT("plus({DateTime64(3):2020-01-01 00:00:00.250}, 1)", "DateTime64(3)",
           "2020-01-01 00:00:01.250");
    EXPECT("minus({DateTime64(6, 'UTC'):2020-01-01 00:00:00}, 60)", "DateTime64(6, 'UTC')",
           "2019-12-31 23:59:00.000000");
    EXPECT_ERR("minus(1, {Date:2020-01-01})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Wrong order of arguments for function minus: argument of type Interval cannot be "
               "first");
    EXPECT_ERR("plus({Date:2020-01-01}, {Decimal(9, 2):1})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Second argument for function addDays (delta) must be a number");
    EXPECT_ERR("plus({Date:2020-01-01}, {Date:2020-01-01})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types Date and Date of arguments of function plus");
    EXPECT_ERR("multiply({Date:2020-01-01}, 2)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types Date and UInt8 of arguments of function multiply");
    EXPECT_ERR("intDiv({DateTime:2020-01-01 00:00:00}, 60)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types DateTime and UInt8 of arguments of function intDiv");
}

static void test_date_difference(void **state) {
    (void)state;
    EXPECT("minus({Date:2020-01-02}, {Date:2019-01-01})", "Int32", "366");
    EXPECT("minus({Date:2019-01-01}, {Date:2020-01-02})", "Int32", "-366");
    EXPECT("minus({DateTime:2020-01-01 00:01:00}, {DateTime('Asia/Tokyo'):2020-01-01 09:00:00})",
           "Int32", "60");
    EXPECT("minus({DateTime:4294967295}, {DateTime:0})", "Int32", "-1");
    EXPECT("minus({DateTime64(3):2020-01-01 00:00:01.500}, {DateTime64(3):2020-01-01 00:00:00})",
           "Decimal(18, 3)", "1.5");
    EXPECT("minus({DateTime64(3):2020-01-01 00:00:01.500}, {DateTime:2020-01-01 00:00:00})",
           "Decimal(18, 3)", "1.5");
    EXPECT("minus({DateTime:2020-01-01 00:00:00}, {DateTime64(6):2020-01-01 00:00:00.000001})",
           "Decimal(18, 6)", "-0.000001");
    EXPECT_ERR("minus({Date:2020-01-02}, {DateTime:2020-01-01 00:00:00})",
               "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types Date and DateTime of arguments of function minus");
    EXPECT_ERR("minus({Date32:2020-01-02}, {Date32:2020-01-01})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal types Date32 and Date32 of arguments of function minus");
    EXPECT("modulo({DateTime:100}, {UInt8:7})", "UInt8", "2");
    EXPECT("modulo({Date:1970-01-11}, {Int32:-3})", "Int32", "1");
    EXPECT("modulo({Date:1970-01-11}, 4.0)", "Float64", "2");
    in_col("Nullable(Date)", "2020-01-01|\\N|2020-02-29");
    in_col("Int32", "1|2|-60");
    EXPECT("plus($0, $1)", "Nullable(Date)", "2020-01-02|\\N|2019-12-31");
    EXPECT("minus($0, {Date:2020-01-01})", "Nullable(Int32)", "0|\\N|59");
}

/* ---- Decimal ------------------------------------------------------------- */

static void test_decimal(void **state) {
    (void)state;
    EXPECT("plus({Decimal(9, 2):1.5}, {Decimal(9, 3):2.25})", "Decimal(9, 3)", "3.75");
    EXPECT("plus({Decimal(9, 2):1.5}, {Decimal(18, 1):2.2})", "Decimal(18, 2)", "3.7");
    EXPECT("minus({Decimal(9, 2):1.5}, {Decimal(38, 4):0.0001})", "Decimal(38, 4)", "1.4999");
    EXPECT("plus({Decimal(9, 2):1.5}, 1)", "Decimal(9, 2)", "2.5");
    EXPECT("minus(1, {Decimal(10, 2):1.5})", "Decimal(10, 2)", "-0.5");
    EXPECT("multiply({Decimal(9, 2):1.5}, 2)", "Decimal(9, 2)", "3");
    EXPECT("multiply({Decimal(9, 2):1.5}, {Decimal(9, 3):2.002})", "Decimal(9, 5)", "3.003");
    EXPECT("divide({Decimal(9, 2):10}, {Decimal(9, 1):3})", "Decimal(9, 2)", "3.33");
    EXPECT("divide({Decimal(9, 2):-10}, 4)", "Decimal(9, 2)", "-2.5");
    EXPECT("divide(1, {Decimal(9, 2):4})", "Decimal(9, 2)", "0.25");
    EXPECT("plus({Decimal(9, 2):1.5}, 0.25)", "Float64", "1.75");
    EXPECT("divide(3.0, {Decimal(18, 1):1.5})", "Float64", "2");
    EXPECT("plus({Decimal(38, 10):12345678901234567890.0123456789}, {Decimal(38, 10):1})",
           "Decimal(38, 10)", "12345678901234567891.0123456789");
    EXPECT_ERR("plus({Decimal(9, 0):999999999}, {UInt32:2000000000})", "DECIMAL_OVERFLOW",
               "Decimal math overflow");
    EXPECT_ERR("multiply({Decimal(18, 0):9999999999}, {Decimal(18, 0):9999999999})",
               "DECIMAL_OVERFLOW", "Decimal math overflow");
    EXPECT_ERR("divide({Decimal(9, 2):1}, 0)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT_ERR("divide({Decimal(9, 2):1}, {Decimal(9, 2):0})", "ILLEGAL_DIVISION",
               "Division by zero");
    EXPECT_ERR("multiply({Decimal(18, 10):1}, {Decimal(18, 10):1})", "ARGUMENT_OUT_OF_BOUND",
               "Scale 20 is out of bounds (max scale: 18)");
    EXPECT_ERR("divide({Decimal(18, 10):1}, {Decimal(18, 10):1})", "DECIMAL_OVERFLOW",
               "Overflow during decimal division");
    EXPECT_ERR("modulo({Decimal(9, 2):1}, 1)", "NOT_IMPLEMENTED",
               "Function modulo is not supported for Decimal arguments");
    EXPECT_ERR("plus({Decimal(9, 2):1}, {Date:2020-01-01})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Second argument for function addDays (delta) must be a number");
    in_col("Nullable(Decimal(9, 2))", "1.25|\\N|-3");
    in_col("Nullable(Decimal(9, 2))", "0|\\N|2");
    EXPECT("plus($0, 1)", "Nullable(Decimal(9, 2))", "2.25|\\N|-2");
    EXPECT("multiply($0, $0)", "Nullable(Decimal(9, 4))", "1.5625|\\N|9");
    EXPECT_ERR("divide($0, $1)", "ILLEGAL_DIVISION", "Division by zero");
    EXPECT("divide($1, {Decimal(9, 1):2})", "Nullable(Decimal(9, 2))", "0|\\N|1");
}

/* ---- many rows: kernels work in chunks; every chunk boundary counts --- */

static void test_many_rows(void **state) {
    (void)state;
    const uint32_t n = 3000;
    in_col_sequence("Nullable(Int64)", n, true);
    in_col_sequence("Decimal(18, 2)", n, false);
    const char *exprs[] = {"plus($0, 1)", "intDiv($0, 3)", "modulo($0, 7)", "multiply($1, 2)",
                           "minus({Date:1970-01-01}, $0)", "divide($0, 2)"};
    for (size_t e = 0; e < sizeof(exprs) / sizeof(exprs[0]); e++) {
        const char *got = ev(exprs[e]);
        const char *p = got;
        for (uint32_t i = 0; i < n; i++) {
            char want[64];
            const char *end = strchr(p, '|');
            size_t len = end ? (size_t)(end - p) : strlen(p);
            if (e < 5 && e != 3 && i % 7 == 3) snprintf(want, sizeof(want), "\\N");
            else if (e == 0) snprintf(want, sizeof(want), "%u", i + 1);
            else if (e == 1) snprintf(want, sizeof(want), "%u", i / 3);
            else if (e == 2) snprintf(want, sizeof(want), "%u", i % 7);
            else if (e == 3) snprintf(want, sizeof(want), "%u", i * 2);
            else if (e == 4) {
                int64_t day = (int64_t)(65536 - i) % 65536;
                int64_t y;
                unsigned m, d;
                ty_civil_from_days(day, &y, &m, &d);
                snprintf(want, sizeof(want), "%04lld-%02u-%02u", (long long)y, m, d);
            } else if (i % 7 == 3) snprintf(want, sizeof(want), "\\N");
            else if (i % 2) snprintf(want, sizeof(want), "%u.5", i / 2);
            else snprintf(want, sizeof(want), "%u", i / 2);
            if (len != strlen(want) || memcmp(p, want, len) != 0)
                fail_msg("%s row %u: got %.*s, expected %s", exprs[e], i, (int)len, p, want);
            p = end ? end + 1 : p + len;
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_plus_types, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_plus_wraps, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_plus_columns, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_plus_errors, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_divide, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_int_div, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_int_div_floats, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_int_div_columns, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_int_div_nulls, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_int_div_or_zero, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_modulo, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_modulo_columns, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_modulo_or_zero, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_negate_abs, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_gcd_lcm, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_gcd_columns, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_date_arith, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_date_difference, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_decimal, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_many_rows, et_setup, et_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
