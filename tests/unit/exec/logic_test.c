/* logic_test.c: goal: and, or, xor, not, if and multiIf of fn_logic.c
 * behave like ClickHouse's: and/or use three-valued logic with NULLs and
 * give UInt8, Nullable(UInt8) or Bool; xor and not use the default NULL
 * handling; if/multiIf take UInt8 conditions (NULL is false) and return
 * the least supertype of their branches, converting numbers, Decimal,
 * dates, strings, Nullable and Nothing branches and arrays; errors are
 * ClickHouse's words. Over constants, columns and mixes of the two.
 */
#define ET_STYLE_EXPRESSIONS
#include "exec_test_util.h"

/* ---- and / or --------------------------------------------------------- */

static void test_and_or_constants(void **state) {
    (void)state;
    EXPECT("and(1, 1)", "UInt8", "1");
    EXPECT("and(0, 1)", "UInt8", "0");
    EXPECT("and(1, 2, 3)", "UInt8", "1");
    EXPECT("and(1, 1, 1, 1, 1, 1, 1, 1, 1, 0)", "UInt8", "0");
    EXPECT("or(0, 0)", "UInt8", "0");
    EXPECT("or(0, 0.5)", "UInt8", "1");
    EXPECT("or({Int64:-1}, 0)", "UInt8", "1");
    EXPECT("and({Float64:nan}, 1)", "UInt8", "1");
    EXPECT("and({Float64:-0}, 1)", "UInt8", "0");
    EXPECT("and(NULL, 1)", "Nullable(UInt8)", "\\N");
    EXPECT("and(NULL, 0)", "Nullable(UInt8)", "0");
    EXPECT("and(0, NULL)", "Nullable(UInt8)", "0");
    EXPECT("or(NULL, 1)", "Nullable(UInt8)", "1");
    EXPECT("or(NULL, 0)", "Nullable(UInt8)", "\\N");
    EXPECT("and(NULL, NULL)", "Nullable(UInt8)", "\\N");
    EXPECT("and({Bool:true}, 1)", "Bool", "true");
    EXPECT("or({Bool:false}, {Nullable(UInt8):NULL})", "Nullable(Bool)", "\\N");
}

static void test_and_or_columns(void **state) {
    (void)state;
    in_col("Nullable(UInt8)", "1|0|\\N|\\N|1");
    in_col("Nullable(Int32)", "1|\\N|0|\\N|5");
    in_col("Float32", "0|1|0.5|0|nan");
    EXPECT("and($0, $1)", "Nullable(UInt8)", "1|0|0|\\N|1");
    EXPECT("or($0, $1)", "Nullable(UInt8)", "1|\\N|\\N|\\N|1");
    EXPECT("and($0, 1)", "Nullable(UInt8)", "1|0|\\N|\\N|1");
    EXPECT("and($0, 0)", "Nullable(UInt8)", "0|0|0|0|0");
    EXPECT("or(1, $1)", "Nullable(UInt8)", "1|1|1|1|1");
    EXPECT("and($2, 1)", "UInt8", "0|1|1|0|1");
    EXPECT("or($2, $2, $2)", "UInt8", "0|1|1|0|1");
    EXPECT("and($0, $1, $2)", "Nullable(UInt8)", "0|0|0|0|1");
    EXPECT("or($0, NULL)", "Nullable(UInt8)", "1|\\N|\\N|\\N|1");
}

static void test_and_or_errors(void **state) {
    (void)state;
    EXPECT_ERR("and(1)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
               "Number of arguments for function \"and\" should be at least 2: passed 1");
    EXPECT_ERR("or()", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "should be at least 2: passed 0");
    EXPECT_ERR("and('a', 1)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type (String) of 1 argument of function and");
    EXPECT_ERR("or(1, {Decimal(9, 2):1})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type (Decimal(9, 2)) of 2 argument of function or");
    EXPECT_ERR("and(1, {Nullable(Date):NULL})", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type (Nullable(Date)) of 2 argument of function and");
}

/* ---- xor / not ----------------------------------------------------------- */

static void test_xor_not(void **state) {
    (void)state;
    EXPECT("xor(1, 0)", "UInt8", "1");
    EXPECT("xor(1, 1)", "UInt8", "0");
    EXPECT("xor(1, 1, 1)", "UInt8", "1");
    EXPECT("xor(0.5, {Int64:0})", "UInt8", "1");
    EXPECT("xor({Bool:true}, 0)", "Bool", "true");
    EXPECT("xor(NULL, 1)", "Nullable(Nothing)", "\\N");
    EXPECT("not(1)", "UInt8", "0");
    EXPECT("not(0)", "UInt8", "1");
    EXPECT("not({Float64:nan})", "UInt8", "0");
    EXPECT("NOT(0)", "UInt8", "1");
    EXPECT("not({Bool:true})", "Bool", "false");
    EXPECT("not(NULL)", "Nullable(Nothing)", "\\N");
    in_col("Nullable(Int16)", "0|\\N|-3");
    EXPECT("not($0)", "Nullable(UInt8)", "1|\\N|0");
    EXPECT("xor($0, 1)", "Nullable(UInt8)", "1|\\N|0");
    EXPECT_ERR("xor(1)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
               "Number of arguments for function \"xor\" should be at least 2: passed 1");
    EXPECT_ERR("xor(1, 'a')", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type (String) of 2 argument of function xor");
    EXPECT_ERR("not('a')", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type (String) of argument of function not");
    EXPECT_ERR("not(1, 2)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH", "passed 2, should be 1");
}

/* ---- if ------------------------------------------------------------------ */

static void test_if_constants(void **state) {
    (void)state;
    EXPECT("if(1, 2, 3)", "UInt8", "2");
    EXPECT("if(0, 2, 3)", "UInt8", "3");
    EXPECT("IF(2, 2, 3)", "UInt8", "2");
    EXPECT("if({Bool:true}, 1, 2)", "UInt8", "1");
    EXPECT("if(1, 1, -1)", "Int16", "1");
    EXPECT("if(0, 1, -1)", "Int16", "-1");
    EXPECT("if(0, {UInt32:1}, 0.5)", "Float64", "0.5");
    EXPECT("if(1, {UInt64:18446744073709551615}, 0)", "UInt64", "18446744073709551615");
    EXPECT("if(0, 'a', 'b')", "String", "b");
    EXPECT("if(1, {FixedString(2):ab}, 'x')", "String", "ab");
    EXPECT("if(NULL, 1, 2)", "UInt8", "2");
    EXPECT("if({Nullable(UInt8):NULL}, 1, 2)", "UInt8", "2");
    EXPECT("if(1, NULL, 2)", "Nullable(UInt8)", "\\N");
    EXPECT("if(0, NULL, 2)", "Nullable(UInt8)", "2");
    EXPECT("if(1, {Date:2020-01-01}, {DateTime:2020-01-02 00:00:00})", "DateTime",
           "2020-01-01 00:00:00");
    EXPECT("if(1, {Date:2020-01-01}, {DateTime64(3):2020-01-02 00:00:00})", "DateTime64(3)",
           "2020-01-01 00:00:00.000");
    EXPECT("if(1, {Date:2020-01-01}, {Date32:1950-01-01})", "Date32", "2020-01-01");
    EXPECT("if(1, {Decimal(9, 2):1.5}, 1)", "Decimal(9, 2)", "1.5");
    EXPECT("if(0, {Decimal(9, 2):1.5}, 1)", "Decimal(9, 2)", "1");
    EXPECT("if(0, {Decimal(9, 2):1.5}, {Decimal(18, 4):2.25})", "Decimal(18, 4)", "2.25");
    EXPECT("if(1, {Decimal(9, 2):1.5}, {Decimal(18, 4):2.25})", "Decimal(18, 4)", "1.5");
    EXPECT("if(1, {Array(UInt8):[1]}, {Array(Int64):[2,3]})", "Array(Int64)", "[1]");
    EXPECT("if(0, {Array(UInt8):[1]}, {Array(Int64):[2,3]})", "Array(Int64)", "[2,3]");
    EXPECT("if(1, {Array(Nullable(UInt8)):[1,NULL]}, {Array(UInt16):[]})",
           "Array(Nullable(UInt16))", "[1,NULL]");
    EXPECT("if(1, {Enum8('a' = 1):a}, {Enum8('a' = 1):a})", "Enum8('a' = 1)", "a");
}

static void test_if_errors(void **state) {
    (void)state;
    EXPECT_ERR("if({Int32:1}, 1, 2)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type Int32 of first argument (condition) of function if. Must be UInt8.");
    EXPECT_ERR("if({Nullable(Float64):1}, 1, 2)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type Float64 of first argument (condition) of function if");
    EXPECT_ERR("if('1', 1, 2)", "ILLEGAL_TYPE_OF_ARGUMENT", "Illegal type String");
    EXPECT_ERR("if(1, 2)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
               "Number of arguments for function if doesn't match: passed 2, should be 3");
    EXPECT_ERR("if(1, {UInt64:1}, {Int64:1})", "NO_COMMON_TYPE",
               "There is no supertype for types UInt64, Int64");
    EXPECT_ERR("if(1, 'a', 1)", "NO_COMMON_TYPE", "There is no supertype for types String, UInt8");
}

/* The branches' least supertype (supertype.c), ClickHouse's
 * getLeastSupertype rule by rule. */
static void test_if_supertype(void **state) {
    (void)state;
    /* Dates: Date with DateTime is that DateTime, zone kept; two zones:
     * the first; DateTime with Date32 is DateTime64(0); DateTime64 of the
     * highest precision. */
    EXPECT("if(1, {Date:2020-01-01}, {DateTime('Asia/Tokyo'):2020-01-02 00:00:00})",
           "DateTime('Asia/Tokyo')", "2020-01-01 00:00:00");
    EXPECT("if(0, {DateTime('UTC'):2020-01-01 00:00:00}, "
           "{DateTime('Asia/Tokyo'):2020-01-02 09:00:00})",
           "DateTime('UTC')", "2020-01-02 00:00:00");
    EXPECT("if(1, {DateTime('UTC'):2020-01-01 00:00:00}, {Date32:1950-01-01})", "DateTime64(0)",
           "2020-01-01 00:00:00");
    EXPECT("if(1, {DateTime64(3, 'Asia/Tokyo'):2020-01-01 00:00:00}, {DateTime64(6):2020-01-01 "
           "00:00:00})",
           "DateTime64(6)", "2019-12-31 15:00:00.000000");
    EXPECT("if(1, {Date:2020-01-01}, {DateTime64(2, 'UTC'):2020-01-01 00:00:00})",
           "DateTime64(2, 'UTC')", "2020-01-01 00:00:00.00");
    /* Decimals: the widest of the Decimal types present, unless the
     * integers' digits plus the largest scale need more; Int32 and Int64
     * with scale 0 need 9 and 18 digits. */
    EXPECT("if(1, {Decimal(9, 2):1.5}, {Decimal(9, 8):0.5})", "Decimal(9, 8)", "1.5");
    EXPECT("if(1, {Int32:1}, {Decimal(9, 0):2})", "Decimal(9, 0)", "1");
    EXPECT("if(1, {Int64:1}, {Decimal(9, 0):2})", "Decimal(18, 0)", "1");
    EXPECT("if(1, {UInt32:1}, {Decimal(9, 0):2})", "Decimal(18, 0)", "1");
    EXPECT("if(1, {UInt64:1}, {Decimal(9, 0):2})", "Decimal(38, 0)", "1");
    EXPECT("if(1, {Int8:1}, {Decimal(9, 7):2})", "Decimal(18, 7)", "1");
    EXPECT_ERR("if(1, 1.5, {Decimal(9, 2):2})", "NO_COMMON_TYPE",
               "There is no supertype for types Float64, Decimal(9, 2) because some of them have "
               "no lossless conversion to Decimal");
    /* Numbers: a float needs a mantissa that holds every integer. */
    EXPECT("if(1, {Float32:1.5}, {Int16:1})", "Float32", "1.5");
    EXPECT("if(1, {Float32:1.5}, {Int32:1})", "Float64", "1.5");
    EXPECT("if(1, {Float32:1.5}, {UInt16:1})", "Float32", "1.5");
    EXPECT("if(0, {UInt8:1}, {Int8:-1})", "Int16", "-1");
    EXPECT("if(0, {UInt16:1}, {Int8:-1})", "Int32", "-1");
    EXPECT("if(0, {UInt8:1}, {Int32:-1})", "Int32", "-1");
    EXPECT("if(0, {UInt32:1}, {Int32:-1})", "Int64", "-1");
    EXPECT("if(1, {Bool:true}, {UInt16:2})", "UInt16", "1");
    EXPECT_ERR("if(1, 1.5, {Int64:1})", "NO_COMMON_TYPE",
               "There is no supertype for types Float64, Int64 because some of them are integers "
               "and some are floating point, but there is no floating point type, that can "
               "exactly represent all required integers");
    EXPECT_ERR("if(1, {Float32:1}, {UInt64:1})", "NO_COMMON_TYPE", "floating point");
    EXPECT_ERR("if(1, {UUID:61f0c404-5cb3-11e7-907b-a6006ad3dba0}, 1)", "NO_COMMON_TYPE",
               "because some of them are numbers and some of them are not");
    EXPECT_ERR("if(1, {Date:2020-01-01}, 1)", "NO_COMMON_TYPE",
               "some of them are Date/Date32/DateTime/DateTime64 and some of them are not");
    /* Enums: with Strings a String, with numbers Int8/Int16. */
    EXPECT("if(1, {Enum8('a' = 1):a}, 'b')", "String", "a");
    EXPECT("if(1, {Enum8('a' = 1):a}, {UInt8:5})", "Int16", "1");
    EXPECT("if(0, {Enum8('a' = 1):a}, {Enum16('b' = 300):b})", "Int16", "300");
    /* Nothing, Nullable, Arrays, Maps. */
    EXPECT("if(0, {Array(Nothing):[]}, {Array(UInt8):[1]})", "Array(UInt8)", "[1]");
    EXPECT("if(0, {Array(Array(Nothing)):[]}, {Array(Array(Int8)):[[-1]]})", "Array(Array(Int8))",
           "[[-1]]");
    EXPECT("if(0, {Array(Nullable(Nothing)):[NULL]}, {Array(UInt8):[1]})",
           "Array(Nullable(UInt8))", "[1]");
    EXPECT("if(1, {Map(String, UInt8):{'a':1}}, {Map(String, Int64):{}})", "Map(String, Int64)",
           "{'a':1}");
    EXPECT_ERR("if(1, {Map(String, UInt8):{}}, {Array(UInt8):[]})", "NO_COMMON_TYPE",
               "some of them are Array and some of them are not");
    /* Arrays are matched before Nullable: NULL elements and array elements
     * have no supertype. */
    EXPECT_ERR("if(1, {Array(Nullable(Nothing)):[]}, {Array(Array(UInt8)):[]})", "NO_COMMON_TYPE",
               "There is no supertype for types Nullable(Nothing), Array(UInt8) because some of "
               "them are Array and some of them are not");
}

static void test_if_columns(void **state) {
    (void)state;
    in_col("Nullable(UInt8)", "1|0|\\N|1");
    in_col("Int32", "10|20|30|40");
    in_col("Nullable(String)", "a|\\N|c|d");
    in_col("Array(String)", "['x']|[]|['y','z']|['w']");
    EXPECT("if($0, $1, 0)", "Int32", "10|0|0|40");
    EXPECT("if($0, $1, -1)", "Int32", "10|-1|-1|40");
    EXPECT("if($0, 0, $1)", "Int32", "0|20|30|0");
    EXPECT("if($0, $2, 'z')", "Nullable(String)", "a|z|z|d");
    EXPECT("if($0, 'y', $2)", "Nullable(String)", "y|\\N|c|y");
    EXPECT("if($0, NULL, $1)", "Nullable(Int32)", "\\N|20|30|\\N");
    EXPECT("if($0, $1, 1.5)", "Float64", "10|1.5|1.5|40");
    EXPECT("if($0, $1, $1)", "Int32", "10|20|30|40");
    EXPECT("if($0, $3, {Array(String):['q']})", "Array(String)", "['x']|['q']|['q']|['w']");
    EXPECT("if(1, $2, 'k')", "Nullable(String)", "a|\\N|c|d");
    EXPECT("if(0, $1, $1)", "Int32", "10|20|30|40");
    EXPECT("if(NULL, $1, 7)", "Int32", "7|7|7|7");
    EXPECT_ERR("if($0, $1, $2)", "NO_COMMON_TYPE", "no supertype");
}

/* ---- multiIf ------------------------------------------------------------- */

static void test_multi_if(void **state) {
    (void)state;
    EXPECT("multiIf(1, 'a', 'b')", "String", "a");
    EXPECT("multiIf(0, 'a', 1, 'b', 'c')", "String", "b");
    EXPECT("multiIf(0, 1, 0, 2, 3)", "UInt8", "3");
    EXPECT("multiIf(NULL, 1, 2)", "UInt8", "2");
    EXPECT("multiIf(0, 1, {Nullable(UInt8):1}, -1, 0.5)", "Float64", "-1");
    EXPECT("multiIf(0, 1, 0, NULL, 3)", "Nullable(UInt8)", "3");
    EXPECT_ERR("multiIf(1, 2)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
               "Invalid number of arguments for function multiIf");
    EXPECT_ERR("multiIf(1, 2, 3, 4)", "NUMBER_OF_ARGUMENTS_DOESNT_MATCH",
               "Invalid number of arguments for function multiIf");
    EXPECT_ERR("multiIf({Int8:1}, 1, 2)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type Int8 of argument (condition) of function multiIf. Must be UInt8.");
    EXPECT_ERR("multiIf(1, 1, {Nullable(Int8):1}, 2, 3)", "ILLEGAL_TYPE_OF_ARGUMENT",
               "Illegal type Nullable(Int8) of argument (condition) of function multiIf");
    in_col("Nullable(UInt8)", "1|0|\\N|0");
    in_col("Int32", "10|20|30|40");
    in_col("UInt8", "0|1|1|0");
    EXPECT("multiIf($0, 'x', $2, 'y', 'z')", "String", "x|y|y|z");
    EXPECT("multiIf($0, $1, $2, NULL, -1)", "Nullable(Int32)", "10|\\N|\\N|-1");
    EXPECT("multiIf($2, $1, $0, 100, {Int64:-5})", "Int64", "100|20|30|-5");
    EXPECT("multiIf(0, $1, $2, 1, 2)", "Int32", "2|1|1|2");
    EXPECT("multiIf(0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9, $2, 10, 11)", "UInt8",
           "11|10|10|11");
}

/* ---- many rows --------------------------------------------------------- */

static void test_many_rows(void **state) {
    (void)state;
    const uint32_t n = 3000;
    size_t cap = (size_t)n * 12 + 1;
    char *text = malloc(cap);
    size_t used = 0;
    for (uint32_t i = 0; i < n; i++)
        used += (size_t)snprintf(text + used, cap - used, "%s%u", i ? "|" : "", i % 5);
    in_col("UInt8", text);
    in_col("Nullable(String)", text);
    free(text);
    const char *got = ev("if($0, $1, 'z')");
    assert_string_equal(et.type_name, "Nullable(String)");
    const char *p = got;
    for (uint32_t i = 0; i < n; i++) {
        char want[8];
        snprintf(want, sizeof(want), "%u", i % 5);
        if (i % 5 == 0) want[0] = 'z';
        if (strncmp(p, want, 1) != 0) fail_msg("row %u: %.8s", i, p);
        p += 2;
    }
    got = ev("and($0, 1)");
    for (uint32_t i = 0; i < n; i++)
        if (got[2 * i] != (i % 5 ? '1' : '0')) fail_msg("and row %u: %.8s", i, got + 2 * i);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_and_or_constants, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_and_or_columns, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_and_or_errors, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_xor_not, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_if_constants, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_if_errors, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_if_supertype, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_if_columns, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_multi_if, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_many_rows, et_setup, et_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
