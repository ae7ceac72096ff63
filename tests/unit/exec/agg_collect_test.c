/* agg_collect_test.c: goal: groupArray, groupUniqArray, uniqExact, uniq
 * (and uniqCombined), topK and groupBitAnd/Or/Xor of agg_collect.c give
 * ClickHouse's result types and values: arrays in arrival order with the
 * max_size limit, NULLs skipped and never a NULL result, exact distinct
 * counts over any type and over tuples of arguments, uniq exact below
 * 65536 distinct values and within its error above, Space-Saving's most
 * frequent values; with parameter errors worded as ClickHouse's, the -If
 * combinator, constants and big inputs. Every state must give the same
 * answer by update_all, update, merged halves, a serialize/deserialize
 * round trip and a merge into an empty state.
 */
#define ET_STYLE_AGGREGATES
#include "exec_test_util.h"

#include <math.h>

/* ---- groupArray ------------------------------------------------------------------- */

static void test_group_array(void **state) {
    (void)state;
    ag_col("UInt8", "3|1|2");
    AG_CHECK("groupArray", "[3,1,2]", "Array(UInt8)");
    ag_col("String", "b|a|b");
    AG_CHECK("groupArray", "['b','a','b']", "Array(String)");
    ag_col("Nullable(Int32)", "\\N|5|\\N|-1");
    AG_CHECK("groupArray", "[5,-1]", "Array(Int32)");
    ag_col("Nullable(Int32)", "\\N|\\N");
    AG_CHECK("groupArray", "[]", "Array(Int32)");
    ag_col("Float64", NULL);
    AG_CHECK("groupArray", "[]", "Array(Float64)");
    ag_col("Nullable(Nothing)", "\\N");
    AG_CHECK("groupArray", "[]", "Array(Nothing)");
    ag_col("Array(UInt8)", "[1]|[]|[2,3]");
    AG_CHECK("groupArray", "[[1],[],[2,3]]", "Array(Array(UInt8))");
    ag_col("Map(String, UInt8)", "{'a':1}|{}");
    AG_CHECK("groupArray", "[{'a':1},{}]", "Array(Map(String, UInt8))");
    ag_col("Date", "2020-01-02|2020-01-01");
    AG_CHECK("array_agg", "['2020-01-02','2020-01-01']", "Array(Date)");
    ag_col("Decimal(20, 2)", "1.5|-2");
    AG_CHECK("ARRAY_AGG", "[1.5,-2]", "Array(Decimal(20, 2))");
    ag_col("UInt8", "1|2|3|4|5");
    ag_param("UInt8", "3");
    AG_CHECK("groupArray", "[1,2,3]", "Array(UInt8)");
    ag_col("UInt8", "1|2|3|4|5");
    ag_param("UInt64", "100");
    AG_CHECK("groupArray", "[1,2,3,4,5]", "Array(UInt8)");
    ag_col("Nullable(String)", "\\N|a|\\N|b|c");
    ag_param("UInt8", "2");
    AG_CHECK("groupArray", "['a','b']", "Array(String)");
    ag_col("Int32", "1|2|3|4");
    ag_col("UInt8", "0|1|0|1");
    AG_CHECK("groupArrayIf", "[2,4]", "Array(Int32)");
    ag_const("String", "k");
    ag_set_rows(3);
    AG_CHECK("groupArray", "['k','k','k']", "Array(String)");
    ag_const("String", "k");
    ag_set_rows(3);
    ag_param("UInt8", "2");
    AG_CHECK("groupArray", "['k','k']", "Array(String)");
}

static void test_group_array_errors(void **state) {
    (void)state;
    ag_col("UInt8", "1");
    ag_param("UInt8", "0");
    AG_CHECK("groupArray", "ERR EINVAL: Parameter for aggregate function groupArray should be "
                           "positive number", "");
    ag_col("UInt8", "1");
    ag_param("Float64", "1.5");
    AG_CHECK("groupArray", "ERR EINVAL: Parameter for aggregate function groupArray should be "
                           "positive number", "");
    ag_col("UInt8", "1");
    ag_param("Int8", "-2");
    AG_CHECK("groupArray", "ERR EINVAL: Parameter for aggregate function groupArray should be "
                           "positive number", "");
    ag_col("UInt8", "1");
    ag_param("UInt8", "1");
    ag_param("UInt8", "1");
    AG_CHECK("groupArray", "ERR ENUMBER_OF_ARGUMENTS: Incorrect number of parameters for "
                           "aggregate function groupArray, should be 0 or 1", "");
    ag_col("UInt8", "1");
    ag_col("UInt8", "1");
    AG_CHECK("groupArray", "ERR ENUMBER_OF_ARGUMENTS: Aggregate function groupArray requires "
                           "single argument", "");
}

static void test_group_array_big(void **state) {
    (void)state;
    ag_col_gen("UInt32", 70000, gen_number);
    ag_param("UInt32", "3");
    AG_CHECK("groupArray", "[1,2,3]", "Array(UInt32)");
    /* 70000 rows: the serialized state spans two batches */
    ag_col_gen("UInt32", 70000, gen_number);
    const char *got = ag_run("groupArray");
    assert_int_equal(strncmp(got, "[1,2,3,", 7), 0);
    assert_non_null(strstr(got, ",69999,70000]"));
    ag_reset();
}

/* ---- groupUniqArray ------------------------------------------------------------- */

static void test_group_uniq_array(void **state) {
    (void)state;
    /* first-seen order (ClickHouse's is its hash table's order) */
    ag_col("UInt8", "3|1|2|3|1|5");
    AG_CHECK("groupUniqArray", "[3,1,2,5]", "Array(UInt8)");
    ag_col("String", "x|y|x|z|y");
    AG_CHECK("groupUniqArray", "['x','y','z']", "Array(String)");
    ag_col("Float64", "nan|nan|0|-0|1");
    AG_CHECK("groupUniqArray", "[nan,0,1]", "Array(Float64)");
    ag_col("Nullable(Int8)", "\\N|1|\\N|1");
    AG_CHECK("groupUniqArray", "[1]", "Array(Int8)");
    ag_col("Array(String)", "['a']|[]|['a']|['a','b']");
    AG_CHECK("groupUniqArray", "[['a'],[],['a','b']]", "Array(Array(String))");
    ag_col("UInt8", "3|1|2|3|1|5");
    ag_param("UInt8", "2");
    AG_CHECK("groupUniqArray", "[3,1]", "Array(UInt8)");
    ag_col("UInt8", NULL);
    AG_CHECK("groupUniqArray", "[]", "Array(UInt8)");
    ag_col("UInt8", "1|2|1|3");
    ag_col("UInt8", "1|1|1|0");
    AG_CHECK("groupUniqArrayIf", "[1,2]", "Array(UInt8)");
    ag_col("UInt8", "1");
    ag_param("UInt8", "0");
    AG_CHECK("groupUniqArray", "ERR EINVAL: Parameter for aggregate function groupUniqArray "
                               "should be positive number", "");
}

static const char *gen_mod(uint32_t i) {
    static char text[32];
    snprintf(text, sizeof(text), "v%u", (i * 7u) % 1000u);
    return text;
}

static void test_group_uniq_array_big(void **state) {
    (void)state;
    ag_col_gen("String", 20000, gen_mod);
    ag_param("UInt8", "4");
    AG_CHECK("groupUniqArray", "['v0','v7','v14','v21']", "Array(String)");
    ag_col_gen("String", 20000, gen_mod);
    const char *got = ag_run("groupUniqArray");
    size_t commas = 0;
    for (const char *p = got; *p; p++) commas += *p == ',';
    assert_int_equal(commas, 999);
    ag_reset();
}

/* ---- uniqExact, uniq ------------------------------------------------------------ */

static void test_uniq_exact(void **state) {
    (void)state;
    static const char *const names[] = {"uniqExact", "uniq", "uniqCombined"};
    for (size_t n = 0; n < 3; n++) {
        ag_col("UInt8", "1|2|2|3");
        AG_CHECK(names[n], "3", "UInt64");
        ag_col("String", "a|b|a||");
        AG_CHECK(names[n], "3", "UInt64");
        ag_col("Float64", "0|-0|nan|nan|1");
        AG_CHECK(names[n], "3", "UInt64");
        ag_col("UInt64", "0|0|18446744073709551615");
        AG_CHECK(names[n], "2", "UInt64");
        ag_col("Nullable(Int32)", "\\N|1|\\N|2|1");
        AG_CHECK(names[n], "2", "UInt64");
        ag_col("Nullable(Int32)", "\\N|\\N");
        AG_CHECK(names[n], "0", "UInt64");
        ag_col("Nullable(Nothing)", "\\N|\\N");
        AG_CHECK(names[n], "0", "UInt64");
        ag_col("Int32", NULL);
        AG_CHECK(names[n], "0", "UInt64");
        /* tuples: (1,'a') (1,'b') (2,'a') (1,'a') */
        ag_col("UInt8", "1|1|2|1");
        ag_col("String", "a|b|a|a");
        AG_CHECK(names[n], "3", "UInt64");
        ag_col("UInt8", "1|1|2");
        ag_col("Nullable(String)", "a|\\N|a");
        AG_CHECK(names[n], "2", "UInt64");
        ag_col("UUID", "00000000-0000-0000-0000-000000000001|00000000-0000-0000-0000-000000000001"
                       "|00000000-0000-0000-0000-000000000002");
        AG_CHECK(names[n], "2", "UInt64");
        ag_col("Decimal(38, 2)", "1.5|1.50|-1.5");
        AG_CHECK(names[n], "2", "UInt64");
        ag_col("Array(UInt8)", "[1,2]|[1]|[2]|[1,2]");
        AG_CHECK(names[n], "3", "UInt64");
        ag_const("String", "x");
        ag_set_rows(4);
        AG_CHECK(names[n], "1", "UInt64");
    }
    ag_col("UInt8", "1|2|3|4");
    ag_col("UInt8", "1|0|1|0");
    AG_CHECK("uniqExactIf", "2", "UInt64");
    AG_CHECK("uniqExact", "ERR ENUMBER_OF_ARGUMENTS: Incorrect number of arguments for aggregate "
                          "function uniqExact", "");
    ag_col("UInt8", "1");
    ag_param("UInt8", "1");
    AG_CHECK("uniq", "ERR EINVAL: Aggregate function uniq cannot have parameters", "");
    ag_col("UInt8", "1");
    ag_param("UInt8", "17");
    AG_CHECK("uniqCombined", "1", "UInt64");
    ag_col("UInt8", "1");
    ag_param("UInt8", "5");
    AG_CHECK("uniqCombined64", "ERR EOUT_OF_BOUND: Parameter for aggregate function "
                               "uniqCombined64 is out of range: [12, 20].", "");
}

static const char *gen_repeat(uint32_t i) {
    static char text[32];
    snprintf(text, sizeof(text), "%u", (i * 7919u) % 60000u); /* 7919 is prime to 60000 */
    return text;
}

static const char *gen_wide(uint32_t i) {
    static char text[32];
    snprintf(text, sizeof(text), "s%u", i * 3u);
    return text;
}

static void test_uniq_big(void **state) {
    (void)state;
    /* 60000 distinct values among 120000 rows: below 65536, exact */
    ag_col_gen("UInt32", 120000, gen_repeat);
    AG_CHECK("uniqExact", "60000", "UInt64");
    ag_col_gen("UInt32", 120000, gen_repeat);
    AG_CHECK("uniq", "60000", "UInt64");
    /* 300000 distinct: sampled, within 2% (merged halves reach the same state) */
    ag_col_gen("String", 300000, gen_wide);
    const char *got = ag_run("uniq");
    double v = strtod(got, NULL);
    if (fabs(v - 300000) > 6000) fail_msg("uniq of 300000 distinct values: %s", got);
    ag_reset();
    ag_col_gen("String", 300000, gen_wide);
    AG_CHECK("uniqExact", "300000", "UInt64");
}

/* ---- topK ------------------------------------------------------------------------ */

static void test_top_k(void **state) {
    (void)state;
    ag_col("UInt8", "1|2|2|3|3|4");
    ag_param("UInt8", "2");
    AG_CHECK("topK", "[2,3]", "Array(UInt8)");
    ag_col("String", "a|b|b|c|c|c|d");
    AG_CHECK("topK", "['c','b','a','d']", "Array(String)");
    ag_col("String", "a|b|b|c|c|c|d");
    ag_param("UInt8", "1");
    AG_CHECK("topK", "['c']", "Array(String)");
    ag_col("Nullable(Int32)", "\\N|\\N|\\N|5|6|6");
    AG_CHECK("topK", "[6,5]", "Array(Int32)");
    ag_col("Nullable(Int32)", "\\N");
    AG_CHECK("topK", "[]", "Array(Int32)");
    ag_col("Array(UInt8)", "[1]|[2]|[2]");
    AG_CHECK("topK", "[[2],[1]]", "Array(Array(UInt8))");
    ag_col("Int32", "1|2|2|3");
    ag_col("UInt8", "1|0|0|1");
    AG_CHECK("topKIf", "[1,3]", "Array(Int32)");
    ag_const("UInt8", "9");
    ag_set_rows(3);
    AG_CHECK("topK", "[9]", "Array(UInt8)");
    ag_col("UInt8", "1|2|2|3|3|3");
    ag_param("UInt8", "2");
    ag_param("UInt8", "1");
    AG_CHECK("topK", "[3,2]", "Array(UInt8)");
}

static void test_top_k_errors(void **state) {
    (void)state;
    ag_col("UInt8", "1");
    ag_param("UInt8", "0");
    AG_CHECK("topK", "ERR EOUT_OF_BOUND: Parameter 0 is illegal for aggregate function 'topK'",
             "");
    ag_col("UInt8", "1");
    ag_param("UInt8", "1");
    ag_param("UInt8", "0");
    AG_CHECK("topK", "ERR EOUT_OF_BOUND: Too small parameter 'load_factor' for aggregate "
                     "function 'topK' (got 0, minimum is 1)", "");
    ag_col("UInt8", "1");
    ag_param("UInt32", "20000000");
    AG_CHECK("topK", "ERR EOUT_OF_BOUND: Too large parameter(s) for aggregate function 'topK' "
                     "(maximum is 16777215)", "");
    ag_col("UInt8", "1");
    ag_param("UInt8", "1");
    ag_param("UInt8", "2");
    ag_param("String", "counts");
    AG_CHECK("topK", "ERR ENOT_SUPPORTED: topK with 'counts' is not supported yet", "");
    ag_col("UInt8", "1");
    ag_param("UInt8", "1");
    ag_param("UInt8", "2");
    ag_param("String", "x");
    AG_CHECK("topK", "ERR EINVAL: Aggregate function topK doesn't support a parameter: x", "");
    ag_col("UInt8", "1");
    for (int i = 0; i < 4; i++) ag_param("UInt8", "1");
    AG_CHECK("topK", "ERR ENUMBER_OF_ARGUMENTS: Aggregate function 'topK' requires three "
                     "parameters or less", "");
    ag_col("UInt8", "1");
    ag_param("Float64", "2.5");
    AG_CHECK("topK", "ERR ECANNOT_CONVERT: Cannot convert Float64 to UInt64", "");
}

/* Heavy hitters among 100000 rows of mostly distinct values: 1 in 1/7 of
 * the rows, 2 in about 8%, the rest spread over 5000 values. */
static const char *gen_skewed(uint32_t i) {
    static char text[32];
    uint32_t v = i % 7 == 0 ? 1 : i % 11 == 0 ? 2 : 1000 + (i * 2654435761u) % 5000u;
    snprintf(text, sizeof(text), "%u", v);
    return text;
}

static void test_top_k_big(void **state) {
    (void)state;
    ag_col_gen("UInt32", 100000, gen_skewed);
    ag_param("UInt8", "2");
    ag_param("UInt8", "10");
    AG_CHECK("topK", "[1,2]", "Array(UInt32)");
    /* every value counted exactly while distinct values fit the counters */
    ag_col_gen("UInt32", 100000, gen_skewed);
    ag_param("UInt8", "2");
    ag_param("UInt16", "3000");
    AG_CHECK("topK", "[1,2]", "Array(UInt32)");
}

/* ---- groupBit* ----------------------------------------------------------------------- */

static void test_group_bit(void **state) {
    (void)state;
    ag_col("UInt8", "1|3|5");
    AG_CHECK("groupBitAnd", "1", "UInt8");
    ag_col("UInt8", "1|3|5");
    AG_CHECK("groupBitOr", "7", "UInt8");
    ag_col("UInt8", "1|3|5");
    AG_CHECK("groupBitXor", "7", "UInt8");
    ag_col("UInt8", NULL);
    AG_CHECK("groupBitAnd", "255", "UInt8");
    ag_col("UInt64", NULL);
    AG_CHECK("BIT_AND", "18446744073709551615", "UInt64");
    ag_col("Int8", "-1|1");
    AG_CHECK("groupBitAnd", "1", "Int8");
    ag_col("Int16", "-2|1");
    AG_CHECK("bit_or", "-1", "Int16");
    ag_col("Bool", "true|true");
    AG_CHECK("groupBitXor", "0", "UInt8");
    ag_col("Nullable(UInt32)", "\\N|12|\\N|10");
    AG_CHECK("groupBitAnd", "8", "Nullable(UInt32)");
    ag_col("Nullable(UInt32)", "\\N");
    AG_CHECK("groupBitOr", "\\N", "Nullable(UInt32)");
    ag_col("UInt8", "1|2|4");
    ag_col("UInt8", "1|0|1");
    AG_CHECK("groupBitOrIf", "5", "UInt8");
    ag_col("Float64", "1");
    AG_CHECK("groupBitOr", "ERR EILLEGAL_TYPE: The type Float64 of argument for aggregate "
                           "function groupBitOr is illegal, because it cannot be used in "
                           "bitwise operations", "");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_group_array, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_group_array_errors, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_group_array_big, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_group_uniq_array, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_group_uniq_array_big, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_uniq_exact, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_uniq_big, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_top_k, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_top_k_errors, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_top_k_big, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_group_bit, ag_setup, ag_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
