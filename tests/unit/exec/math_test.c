/* math_test.c: goal: the functions of fn_math.c match ClickHouse's values
 * and result types: rounding keeps the argument's type (floats round half
 * to even, integers and Decimals half away from zero, roundBankers half to
 * even, N negative, constant or per row), libm functions give Float64
 * (Float32 kept by exp, log, tanh), sign is Int8, intExp2/intExp10 UInt64,
 * greatest/least pick in the least supertype and skip NULL and NaN.
 * Constants and columns, NULL rows, edge values (inf, nan, -0, 64-bit
 * limits), and bind errors. Expected values from ClickHouse's source and
 * documentation and from clickhouse-server where it is still current.
 */
#define ET_STYLE_EXPRESSIONS
#include "exec_test_util.h"

/* ---- libm family --------------------------------------------------- */

static void test_unary_values(void **state) {
    (void)state;
    EXPECT("sqrt(2)", "Float64", "1.4142135623730951");
    EXPECT("cbrt(-8)", "Float64", "-2");
    EXPECT("exp(1)", "Float64", "2.718281828459045");
    EXPECT("exp2(10)", "Float64", "1024");
    EXPECT("exp2(0.5)", "Float64", "1.4142135623730951");
    EXPECT("exp10(3)", "Float64", "1000");
    EXPECT("exp10(-1)", "Float64", "0.1");
    EXPECT("log(e())", "Float64", "1");
    EXPECT("ln(1)", "Float64", "0");
    EXPECT("log2(8)", "Float64", "3");
    EXPECT("log10(1000)", "Float64", "3");
    EXPECT("log1p(0)", "Float64", "0");
    EXPECT("sin(0)", "Float64", "0");
    EXPECT("sin(1)", "Float64", "0.8414709848078965");
    EXPECT("cos(0)", "Float64", "1");
    EXPECT("tan(0)", "Float64", "0");
    EXPECT("asin(1)", "Float64", "1.5707963267948966");
    EXPECT("acos(1)", "Float64", "0");
    EXPECT("atan(1)", "Float64", "0.7853981633974483");
    EXPECT("sinh(0)", "Float64", "0");
    EXPECT("cosh(0)", "Float64", "1");
    EXPECT("tanh(0)", "Float64", "0");
    EXPECT("SQRT(16)", "Float64", "4");
    EXPECT("sqrt({Decimal(9, 2):2.25})", "Float64", "1.5");
    EXPECT("sqrt({Bool:true})", "Float64", "1");
}

static void test_unary_edges_and_types(void **state) {
    (void)state;
    EXPECT("sqrt(-1)", "Float64", "nan");
    EXPECT("log(0)", "Float64", "-inf");
    EXPECT("log(-1)", "Float64", "nan");
    EXPECT("exp(1000)", "Float64", "inf");
    EXPECT("sqrt({Float64:inf})", "Float64", "inf");
    EXPECT("sqrt({Float32:4})", "Float64", "2");
    EXPECT("exp({Float32:1})", "Float32", "2.7182817");
    EXPECT("log({Float32:1})", "Float32", "0");
    EXPECT("tanh({Float32:0})", "Float32", "0");
    EXPECT("log2({Float32:8})", "Float64", "3");
    EXPECT_ERR("sqrt('a')", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type String of argument 1 of function sqrt");
    EXPECT_ERR("exp()", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 0, should be 1");
    in_col("Nullable(Float64)", "4|\\N|-1|0");
    EXPECT("sqrt($0)", "Nullable(Float64)", "2|\\N|nan|0");
    EXPECT("log10($0)", "Nullable(Float64)", "0.6020599913279624|\\N|nan|-inf");
}

static void test_binary_and_constants(void **state) {
    (void)state;
    EXPECT("pow(2, 10)", "Float64", "1024");
    EXPECT("power(2, 0.5)", "Float64", "1.4142135623730951");
    EXPECT("POW(-8, 1)", "Float64", "-8");
    EXPECT("atan2(1, 1)", "Float64", "0.7853981633974483");
    EXPECT("hypot(3, 4)", "Float64", "5");
    EXPECT("pow({Decimal(9, 1):1.5}, 2)", "Float64", "2.25");
    EXPECT("pi()", "Float64", "3.141592653589793");
    EXPECT("e()", "Float64", "2.718281828459045");
    EXPECT_ERR("pi(1)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 1, should be 0");
    EXPECT_ERR("pow(2)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 1, should be 2");
    EXPECT_ERR("pow(2, 'x')", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type String of argument 2 of function pow");
    in_col("Nullable(Int32)", "2|\\N|-3");
    in_col("Float64", "3|1|0.5");
    EXPECT("pow($0, $1)", "Nullable(Float64)", "8|\\N|nan");
    EXPECT("pow($0, 2)", "Nullable(Float64)", "4|\\N|9");
    EXPECT("hypot($1, 4)", "Float64", "5|4.123105625617661|4.031128874149275");
    EXPECT("pi()", "Float64", "3.141592653589793|3.141592653589793|3.141592653589793");
}

/* ---- sign, predicates, intExp -------------------------------------- */

static void test_sign_and_predicates(void **state) {
    (void)state;
    EXPECT("sign(-3)", "Int8", "-1");
    EXPECT("sign(0)", "Int8", "0");
    EXPECT("SIGN(toUInt64(18446744073709551615))", "Int8", "1");
    EXPECT("sign(-0.0)", "Int8", "0");
    EXPECT("sign({Float64:nan})", "Int8", "1");
    EXPECT("sign({Float64:-inf})", "Int8", "-1");
    EXPECT("sign({Decimal(9, 1):-1.5})", "Int8", "-1");
    EXPECT("sign({Decimal(38, 2):-123456789012345678901234567890.5})", "Int8", "-1");
    EXPECT("isFinite({Float64:inf})", "UInt8", "0");
    EXPECT("isFinite(5)", "UInt8", "1");
    EXPECT("isInfinite({Float64:-inf})", "UInt8", "1");
    EXPECT("isInfinite({Float32:nan})", "UInt8", "0");
    EXPECT("isNaN({Float64:nan})", "UInt8", "1");
    EXPECT("isNaN(1)", "UInt8", "0");
    EXPECT("isNaN({Decimal(9, 1):1})", "UInt8", "0");
    EXPECT_ERR("isNaN('x')", "ILLEGAL_TYPE_OF_ARGUMENT", "of function isNaN");
    in_col("Nullable(Float32)", "1|\\N|-2|nan|inf");
    EXPECT("sign($0)", "Nullable(Int8)", "1|\\N|-1|1|1");
    EXPECT("isNaN($0)", "Nullable(UInt8)", "0|\\N|0|1|0");
    EXPECT("isFinite($0)", "Nullable(UInt8)", "1|\\N|1|0|0");
}

static void test_int_exp(void **state) {
    (void)state;
    EXPECT("intExp2(3)", "UInt64", "8");
    EXPECT("intExp2(0)", "UInt64", "1");
    EXPECT("intExp2(63)", "UInt64", "9223372036854775808");
    EXPECT("intExp2(2.9)", "UInt64", "4");
    EXPECT("intExp10(3)", "UInt64", "1000");
    EXPECT("intExp10(19)", "UInt64", "10000000000000000000");
    EXPECT("intExp10(20)", "UInt64", "18446744073709551615");
    EXPECT("intExp10(-1)", "UInt64", "0");
    EXPECT("intExp10(2.9)", "UInt64", "100");
    EXPECT_ERR("intExp2({Decimal(9, 1):1})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type Decimal(9, 1) of argument 1 of function intExp2");
    in_col("Nullable(Int16)", "1|\\N|10");
    EXPECT("intExp2($0)", "Nullable(UInt64)", "2|\\N|1024");
    EXPECT("intExp10($0)", "Nullable(UInt64)", "10|\\N|10000000000");
}

/* ---- rounding ------------------------------------------------------ */

static void test_round_floats(void **state) {
    (void)state;
    EXPECT("round(2.5)", "Float64", "2");
    EXPECT("round(-2.5)", "Float64", "-2");
    EXPECT("round(3.5)", "Float64", "4");
    EXPECT("round(3.55, 1)", "Float64", "3.6");
    EXPECT("round(3.65, 1)", "Float64", "3.6");
    EXPECT("round(1.005, 2)", "Float64", "1");
    EXPECT("round(4.1267, 2)", "Float64", "4.13");
    EXPECT("round(1234.5678, -2)", "Float64", "1200");
    EXPECT("round({Float32:1.25}, 1)", "Float32", "1.2");
    EXPECT("roundBankers(10.35, 1)", "Float64", "10.4");
    EXPECT("roundBankers(-3.5)", "Float64", "-4");
    EXPECT("floor(123.45, 1)", "Float64", "123.4");
    EXPECT("floor(123.45, -1)", "Float64", "120");
    EXPECT("floor(-0.5)", "Float64", "-1");
    EXPECT("ceil(-0.5)", "Float64", "-0");
    EXPECT("ceiling(1.1)", "Float64", "2");
    EXPECT("trunc(-2.7)", "Float64", "-2");
    EXPECT("truncate(123.499, 1)", "Float64", "123.4");
    EXPECT("round({Float64:inf}, 2)", "Float64", "inf");
    EXPECT("round({Float64:nan})", "Float64", "nan");
    EXPECT("round(1e300, 20)", "Float64", "1e300");
    EXPECT("round(123.456, 400)", "Float64", "123.456");
    EXPECT("round(123.456, -400)", "Float64", "0");
    EXPECT("ROUND(0.5)", "Float64", "0");
}

static void test_round_integers(void **state) {
    (void)state;
    EXPECT("round(467, -2)", "UInt16", "500");
    EXPECT("round(-467, -2)", "Int16", "-500");
    EXPECT("round(15, -1)", "UInt8", "20");
    EXPECT("round(-15, -1)", "Int8", "-20");
    EXPECT("round(25, -1)", "UInt8", "30");
    EXPECT("roundBankers(25, -1)", "UInt8", "20");
    EXPECT("roundBankers(35, -1)", "UInt8", "40");
    EXPECT("roundBankers(-25, -1)", "Int8", "-20");
    EXPECT("floor(-15, -1)", "Int8", "-20");
    EXPECT("ceil(14, -1)", "UInt8", "20");
    EXPECT("trunc(-19, -1)", "Int8", "-10");
    EXPECT("round(255, 2)", "UInt8", "255");
    EXPECT("round(12345, -40)", "UInt16", "0");
    EXPECT("round(toInt64(-9223372036854775807), -18)", "Int64", "-9000000000000000000");
    EXPECT("floor(toUInt64(18446744073709551615), -19)", "UInt64", "10000000000000000000");
}

static void test_round_decimals(void **state) {
    (void)state;
    EXPECT("round({Decimal(9, 3):1.25}, 1)", "Decimal(9, 3)", "1.3");
    EXPECT("round({Decimal(9, 3):-1.25}, 1)", "Decimal(9, 3)", "-1.3");
    EXPECT("roundBankers({Decimal(9, 3):1.25}, 1)", "Decimal(9, 3)", "1.2");
    EXPECT("roundBankers({Decimal(9, 3):1.35}, 1)", "Decimal(9, 3)", "1.4");
    EXPECT("floor({Decimal(9, 2):-1.21}, 1)", "Decimal(9, 2)", "-1.3");
    EXPECT("ceil({Decimal(9, 2):1.21}, 1)", "Decimal(9, 2)", "1.3");
    EXPECT("trunc({Decimal(9, 2):-1.29}, 1)", "Decimal(9, 2)", "-1.2");
    EXPECT("round({Decimal(18, 3):123.456}, -1)", "Decimal(18, 3)", "120");
    EXPECT("round({Decimal(9, 1):1.5})", "Decimal(9, 1)", "2");
    EXPECT("round({Decimal(9, 3):1.234}, 5)", "Decimal(9, 3)", "1.234");
    EXPECT("round({Decimal(38, 10):-12345678901234567890.5}, 0)", "Decimal(38, 10)",
           "-12345678901234567891");
    EXPECT("round({Decimal(9, 2):-0.5}, -50)", "Decimal(9, 2)", "0");
    EXPECT("ceil({Decimal(38, 0):99999999999999999999999999999999999999}, -38)", "Decimal(38, 0)",
           "100000000000000000000000000000000000000");
    EXPECT("round({Decimal(38, 0):-99999999999999999999999999999999999999}, -38)",
           "Decimal(38, 0)", "-100000000000000000000000000000000000000");
    EXPECT("roundBankers({Decimal(38, 0):-50000000000000000000000000000000000000}, -38)",
           "Decimal(38, 0)", "0");
}

static void test_round_columns_and_errors(void **state) {
    (void)state;
    in_col("Int8", "0|1|-1|2");
    in_col("Nullable(Float64)", "2.5|\\N|1.15|-1.5");
    EXPECT("round(1234.5678, $0)", "Float64", "1235|1234.6|1230|1234.57");
    EXPECT("round($1)", "Nullable(Float64)", "2|\\N|1|-2");
    EXPECT("floor($1, 1)", "Nullable(Float64)", "2.5|\\N|1.1|-1.5");
    EXPECT("round($1, $0)", "Nullable(Float64)", "2|\\N|0|-1.5");
    EXPECT("round({Decimal(9, 3):5.555}, $0)", "Decimal(9, 3)", "6|5.6|10|5.56");
    EXPECT("round(toInt32(-555), $0)", "Int32", "-555|-555|-560|-555");
    EXPECT_ERR("round(1.5, 1.5)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type Float64 of argument 2 of function round");
    EXPECT_ERR("round('a')", "ILLEGAL_TYPE_OF_ARGUMENT", "Illegal type String of argument 1");
    EXPECT_ERR("floor()", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 0, should be 1 to 2");
    EXPECT_ERR("round(1.5, 40000)", "ARGUMENT_OUT_OF_BOUND",
               "Scale argument for rounding function is too large");
}

/* ---- roundToExp2, roundDown ------------------------------------------ */

static void test_round_to_exp2(void **state) {
    (void)state;
    EXPECT("roundToExp2(5)", "UInt8", "4");
    EXPECT("roundToExp2(16)", "UInt8", "16");
    EXPECT("roundToExp2(0)", "UInt8", "0");
    EXPECT("roundToExp2(0.3)", "Float64", "0.25");
    EXPECT("roundToExp2(-0.3)", "Float64", "-0.25");
    EXPECT("roundToExp2(3.0)", "Float64", "2");
    EXPECT("roundToExp2({Float32:0.7})", "Float32", "0.5");
    EXPECT("roundToExp2({Float64:nan})", "Float64", "inf");
    EXPECT("roundToExp2({Int8:-3})", "Int8", "0");
    EXPECT("roundToExp2({Int16:1000})", "Int16", "512");
    EXPECT("roundToExp2({UInt64:18446744073709551615})", "UInt64", "9223372036854775808");
    EXPECT("roundToExp2({Int64:9223372036854775807})", "Int64", "4611686018427387904");
    EXPECT("roundToExp2({Bool:true})", "UInt8", "1");
    EXPECT("roundToExp2(NULL)", "Nullable(Nothing)", "\\N");
    in_col("Nullable(UInt32)", "0|1|2|3|100|\\N|4294967295");
    EXPECT("roundToExp2($0)", "Nullable(UInt32)", "0|1|2|2|64|\\N|2147483648");
    EXPECT_ERR("roundToExp2('a')", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type String of argument 1 of function roundToExp2");
    EXPECT_ERR("roundToExp2({Decimal(9, 2):1.5})", "ILLEGAL_TYPE_OF_ARGUMENT", "Decimal(9, 2)");
    EXPECT_ERR("roundToExp2(1, 2)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 2, should be 1");
}

static void test_round_down(void **state) {
    (void)state;
    EXPECT("roundDown(7, {Array(UInt8):[1,5,10]})", "UInt8", "5");
    EXPECT("roundDown(0, {Array(UInt8):[1,5,10]})", "UInt8", "1");
    EXPECT("roundDown(99, {Array(UInt8):[10,5,1,5]})", "UInt8", "10");
    EXPECT("roundDown(-5, {Array(UInt8):[3,10]})", "Int16", "3");
    EXPECT("roundDown(7.9, {Array(UInt8):[1,5,10]})", "Float64", "5");
    EXPECT("roundDown({Decimal(9, 2):5.5}, {Array(UInt8):[1,5]})", "Decimal(9, 2)", "5");
    EXPECT("roundDown(NULL, {Array(UInt8):[1]})", "Nullable(Nothing)", "\\N");
    in_col("Nullable(Int64)", "-3|0|2|3|4|\\N|100");
    EXPECT("roundDown($0, {Array(Int8):[3,-1,2]})", "Nullable(Int64)", "-1|-1|2|3|3|\\N|3");
    /* 32 boundaries and more: a binary search, same answers. */
    EXPECT("roundDown($0, {Array(UInt8):[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,"
           "22,23,24,25,26,27,28,29,30,31,32,33]})",
           "Nullable(Int64)", "1|1|2|3|4|\\N|33");
    EXPECT_ERR("roundDown('a', {Array(UInt8):[1]})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Unsupported type String of first argument of function roundDown, must be numeric "
               "type.");
    EXPECT_ERR("roundDown(1, 2)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Second argument of function roundDown, must be array of boundaries to round to.");
    EXPECT_ERR("roundDown(1, {Array(String):['a']})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Elements of array of second argument of function roundDown must be numeric type.");
    EXPECT_ERR("roundDown(1, {Array(UInt8):[]})", "BAD_ARGUMENTS",
               "Empty array is illegal for boundaries in roundDown function");
    EXPECT_ERR("roundDown({UInt64:1}, {Array(Int8):[1]})", "NO_COMMON_TYPE", "UInt64, Int8");
    in_col("Array(UInt8)", "[1]|[2]|[3]|[4]|[5]|[6]|[7]");
    EXPECT_ERR("roundDown(1, $1)", "ILLEGAL_COLUMN",
               "Argument at index 1 for function roundDown must be constant");
}

/* ---- greatest, least ----------------------------------------------- */

static void test_greatest_least_constants(void **state) {
    (void)state;
    EXPECT("greatest(1, 2.5)", "Float64", "2.5");
    EXPECT("least(1, 2.5)", "Float64", "1");
    EXPECT("greatest(1, -2)", "Int16", "1");
    EXPECT("least(1, -2)", "Int16", "-2");
    EXPECT("greatest(1, 2, 3, 0)", "UInt8", "3");
    EXPECT("GREATEST(toUInt64(18446744073709551615), toInt64(-1))", "UInt64",
           "18446744073709551615");
    EXPECT("least(toUInt64(18446744073709551615), toInt64(-1))", "Int64", "-1");
    EXPECT("greatest('a', 'b', 'ab')", "String", "b");
    EXPECT("least('a', 'b', 'ab')", "String", "a");
    EXPECT("greatest(toDate('2020-01-01'), toDateTime('2020-01-01 12:00:00'))", "DateTime",
           "2020-01-01 12:00:00");
    EXPECT("greatest(1, NULL)", "Nullable(UInt8)", "1");
    EXPECT("least(NULL, -1, NULL)", "Nullable(Int8)", "-1");
    EXPECT("least(NULL, NULL)", "Nullable(Nothing)", "\\N");
    EXPECT("greatest({Float64:nan}, 1.0)", "Float64", "1");
    EXPECT("least(1.0, {Float64:nan})", "Float64", "1");
    EXPECT("greatest({Float64:nan})", "Float64", "nan");
    EXPECT("greatest({Decimal(9, 2):1.5}, 2)", "Decimal(9, 2)", "2");
    EXPECT("greatest({Array(UInt8):[1,2]}, {Array(UInt8):[1,3]})", "Array(UInt8)", "[1,3]");
    EXPECT_ERR("greatest()", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
               "Function greatest cannot be called without arguments");
    EXPECT_ERR("least('a', 1)", "NO_COMMON_TYPE", "There is no supertype for types String, UInt8");
}

static void test_greatest_least_columns(void **state) {
    (void)state;
    in_col("Nullable(Int32)", "1|\\N|5|\\N");
    in_col("Int64", "3|4|-1|0");
    in_col("Nullable(Float64)", "\\N|\\N|nan|2.5");
    EXPECT("greatest($0, $1)", "Nullable(Int64)", "3|4|5|0");
    EXPECT("least($0, $1)", "Nullable(Int64)", "1|4|-1|0");
    EXPECT("greatest($1, 0)", "Int64", "3|4|0|0");
    EXPECT("least($0, NULL)", "Nullable(Int32)", "1|\\N|5|\\N");
    EXPECT("greatest($0, $2)", "Nullable(Float64)", "1|\\N|5|2.5");
    /* Three arguments take the least supertype: Float64 and a 64-bit
     * integer have none (no float holds every Int64). */
    EXPECT_ERR("least($2, $1, $0)", "NO_COMMON_TYPE",
               "There is no supertype for types Float64, Int64, Int32 because some of them are "
               "integers and some are floating point, but there is no floating point type, "
               "that can exactly represent all required integers");
    EXPECT("greatest($2)", "Nullable(Float64)", "\\N|\\N|nan|2.5");
}

/* Two numbers that are not Nullable: typed as `if` types them (ClickHouse's
 * binary least/greatest), not by the least supertype. */
static void test_greatest_least_two_numbers(void **state) {
    (void)state;
    EXPECT("greatest({Float32:1.5}, {Int32:2})", "Float64", "2");
    EXPECT("greatest({Float32:1.5}, {Int16:2})", "Float32", "2");
    EXPECT("least({UInt8:200}, {Int8:-1})", "Int16", "-1");
    EXPECT("greatest({UInt32:7}, {Int32:-1})", "Int64", "7");
    EXPECT("greatest({Bool:true}, {Bool:false})", "UInt8", "1");
    EXPECT_ERR("greatest({UInt64:1}, {Int8:-1})", "NOT_IMPLEMENTED", "Int128");
    in_col("Float64", "0.5|-2|7");
    in_col("Int64", "1|-3|5");
    EXPECT("greatest($0, $1)", "Float64", "1|-2|7");
    EXPECT("least($1, $0)", "Float64", "0.5|-3|5");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        T(test_unary_values), T(test_unary_edges_and_types), T(test_binary_and_constants),
        T(test_sign_and_predicates), T(test_int_exp), T(test_round_floats),
        T(test_round_integers), T(test_round_decimals), T(test_round_columns_and_errors),
        T(test_round_to_exp2), T(test_round_down),
        T(test_greatest_least_constants), T(test_greatest_least_columns),
        T(test_greatest_least_two_numbers),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
