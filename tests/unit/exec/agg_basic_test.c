/* agg_basic_test.c: goal: count, sum, sumWithOverflow, sumKahan, avg, min,
 * max, any, anyLast, argMin and argMax of agg_basic.c give ClickHouse's
 * result types and values (expected values from ClickHouse's source and
 * documentation, checked against clickhouse-server where it agrees with
 * current releases), over empty input, NULLs (through the NULL wrapper),
 * the -If combinator, constants, edge values and large inputs; and that
 * every state gives the same answer by update_all, by per-row update, by
 * merging two halves, after a serialize/deserialize round trip and merged
 * into an empty state, while every truncated serialization is rejected.
 */
#define ET_STYLE_AGGREGATES
#include "exec_test_util.h"

/* ---- count ----------------------------------------------------------------- */

static void test_count(void **state) {
    (void)state;
    ag_set_rows(5);
    AG_CHECK("count", "5", "UInt64");
    ag_set_rows(0);
    AG_CHECK("count", "0", "UInt64");
    ag_col("Nullable(Int32)", "1|\\N|3|\\N|5");
    AG_CHECK("count", "3", "UInt64");
    ag_col("String", "a|b");
    AG_CHECK("COUNT", "2", "UInt64");
    ag_col("Nullable(Nothing)", "\\N|\\N");
    AG_CHECK("count", "0", "UInt64");
    ag_const("Nullable(Nothing)", "\\N");
    ag_set_rows(7);
    AG_CHECK("count", "0", "UInt64");
    ag_const("UInt8", "1");
    ag_set_rows(7);
    AG_CHECK("count", "7", "UInt64");
    ag_col("Nullable(String)", NULL);
    AG_CHECK("count", "0", "UInt64");
    /* countIf(cond) and countIf(x, cond) */
    ag_col("UInt8", "1|0|1|1");
    AG_CHECK("countIf", "3", "UInt64");
    ag_col("Nullable(UInt8)", "1|\\N|1|\\N");
    ag_col("UInt8", "1|1|0|1");
    AG_CHECK("countIf", "1", "UInt64");
    ag_col("Int8", "1");
    ag_col("Int8", "1");
    AG_CHECK("count", "ERR ENUMBER_OF_ARGUMENTS: Aggregate function count requires zero or "
                      "one argument", "");
    ag_col("Int8", "1");
    ag_param("UInt8", "1");
    AG_CHECK("count", "ERR EINVAL: Aggregate function count cannot have parameters", "");
}

static const char *gen_nullable_number(uint32_t i) {
    static char text[32];
    if (i % 3 == 0) return "\\N";
    snprintf(text, sizeof(text), "%u", i);
    return text;
}

static void test_count_big(void **state) {
    (void)state;
    ag_col_gen("Nullable(UInt32)", 100000, gen_nullable_number);
    AG_CHECK("count", "66666", "UInt64");
    ag_col_gen("UInt32", 100001, gen_number);
    AG_CHECK("count", "100001", "UInt64");
}

/* ---- sum ------------------------------------------------------------------------ */

static void test_sum_types(void **state) {
    (void)state;
    ag_col("UInt8", "1|2|3");
    AG_CHECK("sum", "6", "UInt64");
    ag_col("Bool", "true|true|false");
    AG_CHECK("sum", "2", "UInt64");
    ag_col("Int8", "-128|-1");
    AG_CHECK("sum", "-129", "Int64");
    ag_col("UInt64", "18446744073709551615|2");
    AG_CHECK("sum", "1", "UInt64");
    ag_col("Int64", "9223372036854775807|1");
    AG_CHECK("SUM", "-9223372036854775808", "Int64");
    ag_col("Float32", "0.5|0.25|-1");
    AG_CHECK("sum", "-0.25", "Float64");
    ag_col("Float64", "1e308|1e308");
    AG_CHECK("sum", "inf", "Float64");
    ag_col("Decimal(9, 2)", "1.25|2.50|-0.01");
    AG_CHECK("sum", "3.74", "Decimal(38, 2)");
    ag_col("Decimal(18, 4)", "99999999999999.9999|0.0001");
    AG_CHECK("sum", "100000000000000", "Decimal(38, 4)");
    ag_col("Decimal(38, 0)", "99999999999999999999999999999999999999|1");
    AG_CHECK("sum", "100000000000000000000000000000000000000", "Decimal(38, 0)");
    ag_col("UInt32", NULL);
    AG_CHECK("sum", "0", "UInt64");
    ag_col("Float64", NULL);
    AG_CHECK("sum", "0", "Float64");
}

static void test_sum_nulls_if_const(void **state) {
    (void)state;
    ag_col("Nullable(Int32)", "1|\\N|-3");
    AG_CHECK("sum", "-2", "Nullable(Int64)");
    ag_col("Nullable(Int32)", "\\N|\\N");
    AG_CHECK("sum", "\\N", "Nullable(Int64)");
    ag_col("Nullable(Int32)", NULL);
    AG_CHECK("sum", "\\N", "Nullable(Int64)");
    ag_col("Nullable(Nothing)", "\\N|\\N");
    AG_CHECK("sum", "\\N", "Nullable(Nothing)");
    ag_col("UInt16", "10|20|30|40");
    ag_col("UInt8", "1|0|0|1");
    AG_CHECK("sumIf", "50", "UInt64");
    ag_col("Nullable(UInt16)", "10|\\N|30|40");
    ag_col("Nullable(UInt8)", "1|1|\\N|0");
    AG_CHECK("sumIf", "10", "Nullable(UInt64)");
    ag_col("UInt16", "10|20");
    ag_col("UInt8", "0|0");
    AG_CHECK("sumIf", "0", "UInt64");
    ag_const("UInt8", "3");
    ag_set_rows(5);
    AG_CHECK("sum", "15", "UInt64");
    /* Repeated addition, as ClickHouse: sum(0.1) over ten rows. */
    ag_const("Float64", "0.1");
    ag_set_rows(10);
    et_agg.loose = true; /* halves round differently */
    AG_CHECK("sum", "0.9999999999999999", "Float64");
    ag_col("UInt8", "1|2");
    ag_col("UInt16", "1|1");
    AG_CHECK("sumIf", "ERR EILLEGAL_TYPE: Illegal type UInt16 of last argument for aggregate "
                      "function with If suffix", "");
}

static void test_sum_errors(void **state) {
    (void)state;
    ag_col("String", "a");
    AG_CHECK("sum", "ERR EILLEGAL_TYPE: Illegal type String of argument for aggregate function "
                    "sum", "");
    ag_col("Date", "2020-01-01");
    AG_CHECK("sum", "ERR EILLEGAL_TYPE: Illegal type Date of argument for aggregate function "
                    "sum", "");
    ag_col("Nullable(String)", "a");
    AG_CHECK("sum", "ERR EILLEGAL_TYPE: Illegal type String of argument for aggregate function "
                    "sum", "");
    AG_CHECK("sum", "ERR ENUMBER_OF_ARGUMENTS: Aggregate function sum requires single "
                    "argument", "");
    ag_col("UInt8", "1");
    ag_param("UInt8", "1");
    AG_CHECK("sum", "ERR EINVAL: Aggregate function sum cannot have parameters", "");
    ag_col("UInt8", "1");
    AG_CHECK("summ", "ERR EUNKNOWN_AGGREGATE: Unknown aggregate function summ", "");
}

static void test_sum_variants(void **state) {
    (void)state;
    ag_col("UInt8", "200|100");
    AG_CHECK("sumWithOverflow", "44", "UInt8");
    ag_col("Int16", "32767|1");
    AG_CHECK("sumWithOverflow", "-32768", "Int16");
    ag_col("Float32", "0.5|1.25");
    AG_CHECK("sumWithOverflow", "1.75", "Float32");
    ag_col("Decimal(9, 1)", "1.5|2.5");
    AG_CHECK("sumWithOverflow", "4", "Decimal(9, 1)");
    ag_col("Bool", "true|true");
    AG_CHECK("sumWithOverflow", "2", "UInt8");
    ag_const("Float64", "0.1");
    ag_set_rows(10);
    AG_CHECK("sumKahan", "1", "Float64");
    ag_col("Int32", "1|2|3");
    AG_CHECK("sumKahan", "6", "Float64");
    ag_col("Decimal(9, 2)", "1.01|2.02");
    AG_CHECK("sumKahan", "3.03", "Decimal(38, 2)");
    ag_col("String", "x");
    AG_CHECK("sumKahan", "ERR EILLEGAL_TYPE: Illegal type String of argument for aggregate "
                         "function sumKahan", "");
}

static void test_sum_big(void **state) {
    (void)state;
    ag_col_gen("UInt32", 100000, gen_number);
    AG_CHECK("sum", "5000050000", "UInt64");
    ag_col_gen("Nullable(UInt32)", 100000, gen_nullable_number);
    AG_CHECK("sum", "3333266667", "Nullable(UInt64)");
    ag_col_gen("Float64", 100000, gen_number);
    AG_CHECK("sum", "5000050000", "Float64");
    ag_col_gen("UInt32", 100000, gen_number);
    AG_CHECK("avg", "50000.5", "Float64");
}

/* ---- avg ------------------------------------------------------------------ */

static void test_avg(void **state) {
    (void)state;
    ag_col("UInt8", "1|2|3|4");
    AG_CHECK("avg", "2.5", "Float64");
    ag_col("Int64", "-1|-2");
    AG_CHECK("AVG", "-1.5", "Float64");
    ag_col("Float32", "0.5|1");
    AG_CHECK("avg", "0.75", "Float64");
    ag_col("Decimal(9, 2)", "1.25|2.50");
    AG_CHECK("avg", "1.875", "Float64");
    ag_col("Decimal(38, 3)", "-1.5|0.5");
    AG_CHECK("avg", "-0.5", "Float64");
    ag_col("Bool", "true|false|false|false");
    AG_CHECK("avg", "0.25", "Float64");
    ag_col("UInt8", NULL);
    AG_CHECK("avg", "nan", "Float64");
    ag_col("Nullable(UInt8)", "\\N|4|\\N|8");
    AG_CHECK("avg", "6", "Nullable(Float64)");
    ag_col("Nullable(UInt8)", "\\N");
    AG_CHECK("avg", "\\N", "Nullable(Float64)");
    ag_col("Int32", "1|2|3|10");
    ag_col("UInt8", "1|1|1|0");
    AG_CHECK("avgIf", "2", "Float64");
    ag_col("Int32", "1");
    ag_col("UInt8", "0");
    AG_CHECK("avgIf", "nan", "Float64");
    ag_col("Int64", "9223372036854775807|9223372036854775807");
    AG_CHECK("avg", "-1", "Float64"); /* the Int64 numerator wraps, as ClickHouse's */
    ag_col("DateTime", "2020-01-01 00:00:00");
    AG_CHECK("avg", "ERR EILLEGAL_TYPE: Illegal type DateTime of argument for aggregate "
                    "function avg", "");
}

/* ---- min, max --------------------------------------------------------------- */

static void test_min_max_numbers(void **state) {
    (void)state;
    static const struct {
        const char *type, *rows, *min, *max;
    } cases[] = {
        {"UInt8", "3|1|2|255|0", "0", "255"},
        {"UInt64", "18446744073709551615|0|5", "0", "18446744073709551615"},
        {"Int8", "-128|127|0", "-128", "127"},
        {"Int32", "5|-7|3", "-7", "5"},
        {"Int64", "-9223372036854775808|9223372036854775807", "-9223372036854775808",
         "9223372036854775807"},
        {"Float32", "1.5|-2.5|0", "-2.5", "1.5"},
        {"Float64", "1|nan|0|3", "0", "nan"},
        {"Float64", "nan|nan", "nan", "nan"},
        {"Float64", "-inf|inf|-0", "-inf", "inf"},
        {"Decimal(9, 3)", "1.5|-2.25|0.001", "-2.25", "1.5"},
        {"Decimal(20, 3)", "12345678901234567.5|-12345678901234567.5|0",
         "-12345678901234567.5", "12345678901234567.5"},
        {"Date", "2020-01-02|1970-01-01|2149-06-06", "1970-01-01", "2149-06-06"},
        {"Date32", "1900-01-01|2299-12-31|1970-01-01", "1900-01-01", "2299-12-31"},
        {"DateTime", "2020-01-01 10:00:00|2019-12-31 23:59:59", "2019-12-31 23:59:59",
         "2020-01-01 10:00:00"},
        {"DateTime64(3)", "2020-01-01 00:00:00.001|2020-01-01 00:00:00.000",
         "2020-01-01 00:00:00.000", "2020-01-01 00:00:00.001"},
        {"Bool", "true|false|true", "false", "true"},
        {"Enum8('b' = -1, 'a' = 5)", "a|b|a", "b", "a"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        ag_col(cases[i].type, cases[i].rows);
        AG_CHECK("min", cases[i].min, cases[i].type);
        ag_col(cases[i].type, cases[i].rows);
        AG_CHECK("MAX", cases[i].max, cases[i].type);
    }
}

static void test_min_max_other_types(void **state) {
    (void)state;
    static const struct {
        const char *type, *rows, *min, *max;
    } cases[] = {
        {"String", "b|a|ab||c", "", "c"},
        {"String", "b|a|ab", "a", "b"},
        /* FixedString renders its zero padding raw: compared up to the first NUL */
        {"FixedString(3)", "ab|a|b", "a", "b"},
        {"FixedString(20)", "ab|a|b", "a", "b"},
        {"UUID", "10000000-0000-0000-0000-000000000000|00000000-0000-0000-0000-000000000001",
         "00000000-0000-0000-0000-000000000001", "10000000-0000-0000-0000-000000000000"},
        {"Array(UInt8)", "[1,2]|[1]|[0,5]|[]", "[]", "[1,2]"},
        {"Array(String)", "['b']|['a','z']", "['a','z']", "['b']"},
        {"Map(String, UInt8)", "{'a':1}|{'a':0,'b':1}", "{'a':0,'b':1}", "{'a':1}"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        ag_col(cases[i].type, cases[i].rows);
        AG_CHECK("min", cases[i].min, cases[i].type);
        ag_col(cases[i].type, cases[i].rows);
        AG_CHECK("max", cases[i].max, cases[i].type);
    }
}

static void test_min_max_empty_nulls_const(void **state) {
    (void)state;
    ag_col("UInt8", NULL);
    AG_CHECK("min", "0", "UInt8");
    ag_col("String", NULL);
    AG_CHECK("max", "", "String");
    ag_col("Date", NULL);
    AG_CHECK("max", "1970-01-01", "Date");
    ag_col("Array(UInt8)", NULL);
    AG_CHECK("max", "[]", "Array(UInt8)");
    ag_col("Nullable(Int32)", "\\N|5|\\N|-2|\\N");
    AG_CHECK("min", "-2", "Nullable(Int32)");
    ag_col("Nullable(Int32)", "\\N|5|\\N|-2|\\N");
    AG_CHECK("max", "5", "Nullable(Int32)");
    ag_col("Nullable(String)", "\\N|zz|\\N|a");
    AG_CHECK("max", "zz", "Nullable(String)");
    ag_col("Nullable(String)", "\\N|\\N");
    AG_CHECK("min", "\\N", "Nullable(String)");
    ag_col("Nullable(Nothing)", "\\N");
    AG_CHECK("min", "\\N", "Nullable(Nothing)");
    ag_const("String", "k");
    ag_set_rows(3);
    AG_CHECK("min", "k", "String");
    ag_const("Int16", "-4");
    ag_set_rows(3);
    AG_CHECK("max", "-4", "Int16");
    ag_col("Int32", "5|1|9|3");
    ag_col("UInt8", "1|0|0|1");
    AG_CHECK("minIf", "3", "Int32");
    ag_col("String", "q|a|z|b");
    ag_col("UInt8", "1|0|0|1");
    AG_CHECK("maxIf", "q", "String");
    ag_col("Int32", "5");
    ag_col("UInt8", "0");
    AG_CHECK("maxIf", "0", "Int32");
    ag_col("Int32", "1");
    ag_col("Int32", "1");
    AG_CHECK("min", "ERR ENUMBER_OF_ARGUMENTS: Aggregate function min requires single "
                    "argument", "");
}

static const char *gen_scrambled(uint32_t i) {
    static char text[32];
    snprintf(text, sizeof(text), "%d", (int)((i * 2654435761u) % 1000003u) - 500000);
    return text;
}

static const char *gen_scrambled_string(uint32_t i) {
    static char text[32];
    snprintf(text, sizeof(text), "s%07u", (i * 2654435761u) % 1000003u);
    return text;
}

static void test_min_max_big(void **state) {
    (void)state;
    ag_col_gen("Int32", 100000, gen_scrambled);
    AG_CHECK("min", "-500000", "Int32");
    ag_col_gen("Int32", 100000, gen_scrambled);
    AG_CHECK("max", "499999", "Int32");
    ag_col_gen("String", 20000, gen_scrambled_string);
    AG_CHECK("min", "s0000000", "String");
}

/* ---- any, anyLast ------------------------------------------------------------ */

static void test_any(void **state) {
    (void)state;
    ag_col("Int32", "7|8|9");
    AG_CHECK("any", "7", "Int32");
    ag_col("Int32", "7|8|9");
    AG_CHECK("anyLast", "9", "Int32");
    ag_col("Nullable(String)", "\\N|b|c|\\N");
    AG_CHECK("any", "b", "Nullable(String)");
    ag_col("Nullable(String)", "\\N|b|c|\\N");
    AG_CHECK("anyLast", "c", "Nullable(String)");
    ag_col("Nullable(String)", "\\N|\\N");
    AG_CHECK("any", "\\N", "Nullable(String)");
    ag_col("Array(Int8)", "[1]|[2,3]");
    AG_CHECK("anyLast", "[2,3]", "Array(Int8)");
    ag_col("Array(Int8)", "[1]|[2,3]");
    AG_CHECK("any_value", "[1]", "Array(Int8)");
    ag_col("String", "x|y");
    AG_CHECK("FIRST_VALUE", "x", "String");
    ag_col("String", "x|y");
    AG_CHECK("last_value", "y", "String");
    ag_col("UUID", "00000000-0000-0000-0000-000000000001|00000000-0000-0000-0000-000000000002");
    AG_CHECK("any", "00000000-0000-0000-0000-000000000001", "UUID");
    ag_col("Float64", NULL);
    AG_CHECK("any", "0", "Float64");
    ag_col("Int32", "1|2|3|4");
    ag_col("UInt8", "0|1|1|0");
    AG_CHECK("anyIf", "2", "Int32");
    ag_col("Int32", "1|2|3|4");
    ag_col("UInt8", "0|1|1|0");
    AG_CHECK("anyLastIf", "3", "Int32");
    ag_const("String", "c");
    ag_set_rows(4);
    AG_CHECK("anyLast", "c", "String");
}

/* ---- argMin, argMax ------------------------------------------------------------ */

static void test_arg_min_max(void **state) {
    (void)state;
    ag_col("String", "director|manager|worker");
    ag_col("UInt32", "5000|3000|1000");
    AG_CHECK("argMin", "worker", "String");
    ag_col("String", "director|manager|worker");
    ag_col("UInt32", "5000|3000|1000");
    AG_CHECK("argMax", "director", "String");
    /* ties keep the first row */
    ag_col("String", "a|b|c");
    ag_col("Int8", "2|1|1");
    AG_CHECK("argMin", "b", "String");
    ag_col("String", "a|b|c");
    ag_col("Int8", "1|2|2");
    AG_CHECK("argMax", "b", "String");
    /* ClickHouse's documented example: rows with a NULL argument are skipped. */
    ag_col("Nullable(String)", "\\N|a|b|c|\\N|d");
    ag_col("Nullable(Int64)", "0|1|2|2|\\N|\\N");
    AG_CHECK("argMin", "a", "Nullable(String)");
    ag_col("Nullable(String)", "\\N|a|b|c|\\N|d");
    ag_col("Nullable(Int64)", "0|1|2|2|\\N|\\N");
    AG_CHECK("argMax", "b", "Nullable(String)");
    ag_col("Nullable(String)", "\\N");
    ag_col("Int64", "1");
    AG_CHECK("argMax", "\\N", "Nullable(String)");
    ag_col("Array(UInt8)", "[1]|[2]|[3]");
    ag_col("String", "m|a|z");
    AG_CHECK("argMin", "[2]", "Array(UInt8)");
    ag_col("Int32", "10|20|30");
    ag_col("Float64", "1|nan|0.5");
    AG_CHECK("argMax", "20", "Int32");
    ag_col("Int32", "10|20|30");
    ag_col("Float64", "1|nan|0.5");
    AG_CHECK("min_by", "30", "Int32");
    ag_const("String", "k");
    ag_col("Int32", "3|1|2");
    AG_CHECK("argMin", "k", "String");
    ag_col("Int32", "3|1|2");
    ag_const("Int32", "7");
    AG_CHECK("argMax", "3", "Int32");
    ag_col("Int32", "10|20|30");
    ag_col("Int32", "3|1|2");
    ag_col("UInt8", "1|0|1");
    AG_CHECK("argMinIf", "30", "Int32");
    ag_col("Int32", "10");
    ag_col("Int32", "3");
    ag_col("UInt8", "0");
    AG_CHECK("argMaxIf", "0", "Int32");
    ag_col("Int32", "1");
    AG_CHECK("argMin", "ERR ENUMBER_OF_ARGUMENTS: Aggregate function argMin requires two "
                       "arguments", "");
}

static void test_arg_min_max_big(void **state) {
    (void)state;
    ag_col_gen("String", 50000, gen_scrambled_string);
    ag_col_gen("Int32", 50000, gen_scrambled);
    AG_CHECK("argMax", "s0999999", "String");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_count, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_count_big, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_sum_types, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_sum_nulls_if_const, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_sum_errors, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_sum_variants, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_sum_big, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_avg, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_min_max_numbers, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_min_max_other_types, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_min_max_empty_nulls_const, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_min_max_big, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_any, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_arg_min_max, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_arg_min_max_big, ag_setup, ag_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
