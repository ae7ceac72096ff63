/* null_test.c: goal: the NULL functions of fn_null.c behave like
 * ClickHouse's: isNull/isNotNull/isZeroOrNull give UInt8, coalesce and
 * ifNull return the first non-NULL argument in the least supertype (and
 * are non-Nullable when the last argument looked at is), nullIf makes NULL
 * where x = y in the common type, assumeNotNull yields the default under
 * NULLs, toNullable wraps. Over constants, columns, mixed constant and
 * column arguments, the NULL literal, and bind errors. Expected values from
 * ClickHouse's source and from clickhouse-server.
 */
#define ET_STYLE_EXPRESSIONS
#include "exec_test_util.h"

static void test_is_null(void **state) {
    (void)state;
    EXPECT("isNull(NULL)", "UInt8", "1");
    EXPECT("isNull(1)", "UInt8", "0");
    EXPECT("isNotNull(NULL)", "UInt8", "0");
    EXPECT("isNotNull('x')", "UInt8", "1");
    EXPECT("ISNULL({Nullable(String):NULL})", "UInt8", "1");
    EXPECT("isNull({Array(UInt8):[]})", "UInt8", "0");
    in_col("Nullable(Int32)", "1|\\N|0|\\N");
    in_col("String", "a|b|c|d");
    EXPECT("isNull($0)", "UInt8", "0|1|0|1");
    EXPECT("isNotNull($0)", "UInt8", "1|0|1|0");
    EXPECT("isNull($1)", "UInt8", "0|0|0|0");
    EXPECT("isNotNull($1)", "UInt8", "1|1|1|1");
    EXPECT_ERR("isNull()", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 0, should be 1");
    EXPECT_ERR("isNotNull(1, 2)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 2, should be 1");
}

static void test_is_zero_or_null(void **state) {
    (void)state;
    EXPECT("isZeroOrNull(0)", "UInt8", "1");
    EXPECT("isZeroOrNull(-0.0)", "UInt8", "1");
    EXPECT("isZeroOrNull(0.5)", "UInt8", "0");
    EXPECT("isZeroOrNull(NULL)", "UInt8", "1");
    EXPECT("isZeroOrNull({Float64:nan})", "UInt8", "0");
    EXPECT("isZeroOrNull({Decimal(9, 2):0.00})", "UInt8", "1");
    in_col("Nullable(Int64)", "0|\\N|-1|9223372036854775807");
    EXPECT("isZeroOrNull($0)", "UInt8", "1|1|0|0");
    EXPECT_ERR("isZeroOrNull('0')", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type String of argument 1 of function isZeroOrNull");
}

static void test_coalesce_constants(void **state) {
    (void)state;
    EXPECT("coalesce(NULL, 1, 2)", "UInt8", "1");
    EXPECT("coalesce(NULL, NULL)", "Nullable(Nothing)", "\\N");
    EXPECT("coalesce(NULL)", "Nullable(Nothing)", "\\N");
    EXPECT("coalesce(toNullable(1), toNullable(2.5))", "Nullable(Float64)", "1");
    EXPECT("coalesce({Nullable(UInt8):NULL}, toNullable(2.5))", "Nullable(Float64)", "2.5");
    EXPECT("coalesce(toNullable(1), 300)", "UInt16", "1");
    EXPECT("coalesce({Nullable(Int8):NULL}, 300)", "Int32", "300");
    EXPECT("coalesce(toNullable(-1), toNullable(300), 2)", "Int32", "-1");
    EXPECT("coalesce('a', 1)", "String", "a");
    EXPECT("COALESCE({Nullable(String):NULL}, 'b')", "String", "b");
    EXPECT("coalesce({Array(UInt8):[1]})", "Array(UInt8)", "[1]");
    EXPECT("coalesce({Nullable(Date):NULL}, toDateTime('2020-01-02 03:04:05'))", "DateTime",
           "2020-01-02 03:04:05");
    /* The least supertype keeps a DateTime's zone next to a Date. */
    EXPECT("coalesce({Nullable(Date):NULL}, {DateTime('Asia/Tokyo'):2020-01-02 03:04:05})",
           "DateTime('Asia/Tokyo')", "2020-01-02 03:04:05");
    EXPECT("coalesce({Nullable(Date):2020-01-02}, {DateTime('Asia/Tokyo'):2020-01-02 03:04:05})",
           "DateTime('Asia/Tokyo')", "2020-01-02 00:00:00");
    EXPECT("ifNull({Nullable(Int64):NULL}, 0)", "Int64", "0");
    EXPECT_ERR("ifNull({Nullable(Int64):NULL}, 0.5)", "NO_COMMON_TYPE",
               "There is no supertype for types Int64, Float64");
    EXPECT_ERR("coalesce()", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 0, should be at least 1");
    EXPECT_ERR("coalesce(toNullable('a'), 1)", "NO_COMMON_TYPE",
               "There is no supertype for types String, UInt8");
}

static void test_coalesce_columns(void **state) {
    (void)state;
    in_col("Nullable(Int32)", "1|\\N|\\N|4");
    in_col("Nullable(Int64)", "10|20|\\N|\\N");
    in_col("Nullable(String)", "a|\\N|c|\\N");
    EXPECT("coalesce($0, $1)", "Nullable(Int64)", "1|20|\\N|4");
    EXPECT("coalesce($0, $1, 0)", "Int64", "1|20|0|4");
    EXPECT("coalesce($0, 0)", "Int32", "1|0|0|4");
    EXPECT("coalesce(NULL, $1, -7)", "Int64", "10|20|-7|-7");
    EXPECT("coalesce($0, 2.5)", "Float64", "1|2.5|2.5|4");
    EXPECT("coalesce($2, 'z')", "String", "a|z|c|z");
    EXPECT("coalesce($2, NULL)", "Nullable(String)", "a|\\N|c|\\N");
    EXPECT("coalesce($2, {FixedString(2):xy})", "String", "a|xy|c|xy");
}

static void test_if_null(void **state) {
    (void)state;
    EXPECT("ifNull(NULL, 'x')", "String", "x");
    EXPECT("ifNull(1, 2.5)", "UInt8", "1");
    EXPECT("IFNULL({Nullable(Int8):NULL}, -3)", "Int8", "-3");
    EXPECT("ifNull({Nullable(Int8):NULL}, NULL)", "Nullable(Int8)", "\\N");
    in_col("Nullable(Float32)", "1.5|\\N");
    EXPECT("ifNull($0, 0)", "Float32", "1.5|0");
    EXPECT("ifNull($0, -1e300)", "Float64", "1.5|-1e300");
    EXPECT_ERR("ifNull(1)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
               "Number of arguments for function ifNull doesn't match: passed 1, should be 2");
    EXPECT_ERR("ifNull(1, 2, 3)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 3, should be 2");
}

static void test_null_if(void **state) {
    (void)state;
    EXPECT("nullIf(1, 1)", "Nullable(UInt8)", "\\N");
    EXPECT("nullIf(1, 2)", "Nullable(UInt8)", "1");
    EXPECT("nullIf(1, 1.0)", "Nullable(UInt8)", "\\N");
    EXPECT("nullIf(1, 2.0)", "Nullable(UInt8)", "1");
    EXPECT("nullIf(NULL, 1)", "Nullable(Nothing)", "\\N");
    EXPECT("nullIf(1, NULL)", "Nullable(UInt8)", "1");
    EXPECT("NULLIF('a', 'a')", "Nullable(String)", "\\N");
    EXPECT("nullIf({FixedString(2):ab}, 'ab')", "Nullable(FixedString(2))", "\\N");
    EXPECT("nullIf(-1, 255)", "Nullable(Int8)", "-1");
    in_col("Nullable(Int32)", "1|\\N|2|3");
    in_col("Int64", "1|1|3|3");
    EXPECT("nullIf($0, 2)", "Nullable(Int32)", "1|\\N|\\N|3");
    EXPECT("nullIf($0, $1)", "Nullable(Int32)", "\\N|\\N|2|\\N");
    EXPECT("nullIf($1, $0)", "Nullable(Int64)", "\\N|1|3|\\N");
    EXPECT("nullIf($1, NULL)", "Nullable(Int64)", "1|1|3|3");
    EXPECT_ERR("nullIf({Array(UInt8):[1]}, {Array(UInt8):[1]})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Nested type Array(UInt8) cannot be inside Nullable type");
    EXPECT_ERR("nullIf('a', 1)", "NO_COMMON_TYPE", "There is no supertype");
    EXPECT_ERR("nullIf(1)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 1, should be 2");
}

static void test_assume_not_null(void **state) {
    (void)state;
    EXPECT("assumeNotNull(toNullable(5))", "UInt8", "5");
    EXPECT("assumeNotNull({Nullable(Int32):NULL})", "Int32", "0");
    EXPECT("assumeNotNull({Nullable(String):NULL})", "String", "");
    EXPECT("assumeNotNull(3)", "UInt8", "3");
    EXPECT("assumeNotNull({Nullable(Enum8('b' = 2, 'c' = 3)):NULL})",
           "Enum8('b' = 2, 'c' = 3)", "b");
    in_col("Nullable(String)", "x|\\N|yz");
    in_col("Nullable(Decimal(18, 2))", "1.5|\\N|-2");
    EXPECT("assumeNotNull($0)", "String", "x||yz");
    EXPECT("assumeNotNull($1)", "Decimal(18, 2)", "1.5|0|-2");
}

static void test_to_nullable(void **state) {
    (void)state;
    EXPECT("toNullable(1)", "Nullable(UInt8)", "1");
    EXPECT("toNullable(NULL)", "Nullable(Nothing)", "\\N");
    EXPECT("toNullable({Nullable(String):NULL})", "Nullable(String)", "\\N");
    EXPECT("toNullable({Array(UInt8):[1,2]})", "Array(UInt8)", "[1,2]");
    in_col("Date", "2020-01-02|1970-01-01");
    EXPECT("toNullable($0)", "Nullable(Date)", "2020-01-02|1970-01-01");
    EXPECT("isNull(toNullable($0))", "UInt8", "0|0");
    EXPECT_ERR("toNullable()", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 0, should be 1");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        T(test_is_null), T(test_is_zero_or_null), T(test_coalesce_constants),
        T(test_coalesce_columns), T(test_if_null), T(test_null_if), T(test_assume_not_null),
        T(test_to_nullable),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
