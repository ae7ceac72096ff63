/* agg_stats_test.c: goal: the statistics of agg_stats.c give ClickHouse's
 * types and values: varPop, varSamp, stddevPop, stddevSamp, covarPop,
 * covarSamp and corr (NaN where ClickHouse answers NaN, exact where its
 * sums of squares lose digits), quantile/quantiles/median with the
 * reservoir's interpolation rule, quantileExact (Low, High) with
 * ClickHouse's index rule and the argument's type, quantileTDigest with
 * its singleton rule and bounded error; over empty input, NULLs, the -If
 * combinator, dates, decimals, big inputs and bind errors (level range,
 * level count, argument types). Every state must give the same answer by
 * update_all, update, merged halves (sampled states: within their error),
 * a serialize/deserialize round trip and a merge into an empty state.
 */
#define ET_STYLE_AGGREGATES
#include "exec_test_util.h"

#include <math.h>

/* 1..n in a scrambled order, so sorting and sampling matter. */
static const char *gen_scrambled(uint32_t i) {
    static char text[32];
    snprintf(text, sizeof(text), "%u", (uint32_t)(((uint64_t)i * 7919u) % 100000u) + 1);
    return text;
}

/* ---- moments ------------------------------------------------------------------- */

static void test_variance(void **state) {
    (void)state;
    et_agg.loose = true; /* blocks and rows round differently in the last bits */
    ag_col("UInt8", "1|2|3|4|10");
    AG_CHECK("varPop", "10", "Float64");
    et_agg.loose = true;
    ag_col("UInt8", "1|2|3|4|10");
    AG_CHECK("varSamp", "12.5", "Float64");
    et_agg.loose = true;
    ag_col("Int32", "1|2|3|4|10");
    AG_CHECK("stddevPop", "3.1622776601683795", "Float64");
    et_agg.loose = true;
    ag_col("Float64", "1|2|3|4|10");
    AG_CHECK("stddevSamp", "3.5355339059327378", "Float64");
    ag_col("Float64", "5");
    AG_CHECK("varSamp", "nan", "Float64");
    ag_col("Float64", "5");
    AG_CHECK("varPop", "0", "Float64");
    ag_col("Float64", "5");
    AG_CHECK("stddevSamp", "nan", "Float64");
    ag_col("Float64", NULL);
    AG_CHECK("varPop", "nan", "Float64");
    ag_col("Float64", NULL);
    AG_CHECK("stddevPop", "nan", "Float64");
    ag_col("Decimal(9, 2)", "1.00|2.00|3.00");
    AG_CHECK("varPop", "0.6666666666666666", "Float64");
    /* large offsets: sums of squares would lose every digit */
    ag_col("Float64", "1000000001|1000000002|1000000003");
    AG_CHECK("varPop", "0.6666666666666666", "Float64");
    ag_col("Float64", "1e15|1e15|1e15");
    AG_CHECK("varSamp", "0", "Float64");
    ag_col("Nullable(Int64)", "\\N|2|\\N|4");
    AG_CHECK("varSamp", "2", "Nullable(Float64)");
    ag_col("Nullable(Int64)", "\\N|\\N");
    AG_CHECK("varPop", "\\N", "Nullable(Float64)");
    ag_col("Nullable(Nothing)", "\\N");
    AG_CHECK("varPop", "\\N", "Nullable(Nothing)");
    ag_col("Int32", "1|100|3|1000");
    ag_col("UInt8", "1|0|1|0");
    AG_CHECK("varPopIf", "1", "Float64");
    ag_col("Bool", "true|false");
    AG_CHECK("VAR_POP", "0.25", "Float64");
    ag_col("Int8", "1|3");
    AG_CHECK("STDDEV_SAMP", "1.4142135623730951", "Float64");
    ag_const("Float64", "2.5");
    ag_set_rows(4);
    AG_CHECK("varSamp", "0", "Float64");
}

static void test_variance_big(void **state) {
    (void)state;
    et_agg.loose = true;
    ag_col_gen("UInt32", 100000, gen_scrambled);
    AG_CHECK("varPop", "833333333.25", "Float64");
    et_agg.loose = true;
    ag_col_gen("UInt32", 100000, gen_number);
    AG_CHECK("varSamp", "833341666.6666666", "Float64");
}

static void test_covariance(void **state) {
    (void)state;
    et_agg.loose = true;
    ag_col("Int32", "1|2|3");
    ag_col("Float64", "1|2|3");
    AG_CHECK("covarPop", "0.6666666666666666", "Float64");
    et_agg.loose = true;
    ag_col("Int32", "1|2|3");
    ag_col("Float64", "1|2|3");
    AG_CHECK("covarSamp", "1", "Float64");
    et_agg.loose = true;
    ag_col("Int32", "1|2|3");
    ag_col("Float64", "1|2|3");
    AG_CHECK("corr", "1", "Float64");
    et_agg.loose = true;
    ag_col("Int32", "1|2|3");
    ag_col("Int32", "3|2|1");
    AG_CHECK("CORR", "-1", "Float64");
    ag_col("Int32", "1|2|3");
    ag_col("Int32", "5|5|5");
    AG_CHECK("corr", "nan", "Float64");
    ag_col("Int32", "1");
    ag_col("Int32", "2");
    AG_CHECK("covarSamp", "nan", "Float64");
    ag_col("Int32", "1");
    ag_col("Int32", "2");
    AG_CHECK("covarPop", "0", "Float64");
    ag_col("Int32", NULL);
    ag_col("Int32", NULL);
    AG_CHECK("covarPop", "nan", "Float64");
    ag_col("Nullable(Int32)", "1|\\N|3|5");
    ag_col("Nullable(Int32)", "2|100|6|\\N");
    AG_CHECK("covarPop", "2", "Nullable(Float64)");
    et_agg.loose = true;
    ag_col("Decimal(9, 1)", "0.5|1.0|1.5");
    ag_col("Int8", "1|2|3");
    AG_CHECK("COVAR_SAMP", "0.5", "Float64");
}

static void test_moment_errors(void **state) {
    (void)state;
    ag_col("String", "a");
    AG_CHECK("varPop", "ERR EILLEGAL_TYPE: Illegal type String of argument for aggregate "
                       "function varPop", "");
    ag_col("Date", "2020-01-01");
    AG_CHECK("stddevSamp", "ERR EILLEGAL_TYPE: Illegal type Date of argument for aggregate "
                           "function stddevSamp", "");
    ag_col("String", "a");
    ag_col("Int32", "1");
    AG_CHECK("covarPop", "ERR EILLEGAL_TYPE: Illegal types String and Int32 of arguments for "
                         "aggregate function covarPop", "");
    ag_col("Int32", "1");
    AG_CHECK("corr", "ERR ENUMBER_OF_ARGUMENTS: Aggregate function corr requires two "
                     "arguments", "");
    ag_col("Int32", "1");
    ag_col("Int32", "1");
    AG_CHECK("varSamp", "ERR ENUMBER_OF_ARGUMENTS: Aggregate function varSamp requires single "
                        "argument", "");
    ag_col("Int32", "1");
    ag_param("Float64", "0.5");
    AG_CHECK("varSamp", "ERR EINVAL: Aggregate function varSamp cannot have parameters", "");
}

/* ---- quantile (reservoir) ------------------------------------------------------------ */

static void test_quantile(void **state) {
    (void)state;
    ag_col("UInt8", "1|2|3|4|10");
    ag_param("Float64", "0.3");
    AG_CHECK("quantile", "2.2", "Float64");
    ag_col("UInt8", "4|1|3|2");
    AG_CHECK("quantile", "2.5", "Float64");
    ag_col("UInt8", "4|1|3|2");
    AG_CHECK("median", "2.5", "Float64");
    ag_col("UInt32", "1|1|2|3|4|5|6|7|8|9|10");
    ag_param("Float64", "0.25");
    ag_param("Float64", "0.5");
    ag_param("Float64", "0.75");
    ag_param("Float64", "0.9");
    /* (ClickHouse's documentation shows [3,5.5,8,9.5]; its servers answer this) */
    AG_CHECK("quantiles", "[2.5,5,7.5,9]", "Array(Float64)");
    ag_col("Int64", "-5|7|0");
    ag_param("UInt8", "0");
    AG_CHECK("quantile", "-5", "Float64");
    ag_col("Int64", "-5|7|0");
    ag_param("UInt8", "1");
    AG_CHECK("quantile", "7", "Float64");
    ag_col("Float64", "nan|1|3|nan");
    AG_CHECK("quantile", "2", "Float64");
    ag_col("Float32", "0.5");
    AG_CHECK("quantile", "0.5", "Float64");
    ag_col("Float64", NULL);
    AG_CHECK("quantile", "nan", "Float64");
    ag_col("Nullable(Float64)", "\\N|\\N");
    AG_CHECK("quantile", "\\N", "Nullable(Float64)");
    ag_col("Nullable(UInt8)", "\\N|10|\\N|20");
    AG_CHECK("median", "15", "Nullable(Float64)");
    ag_col("Nullable(Nothing)", "\\N");
    AG_CHECK("quantile", "\\N", "Nullable(Nothing)");
    ag_col("UInt8", "1|2|3|100");
    ag_col("UInt8", "1|1|1|0");
    AG_CHECK("quantileIf", "2", "Float64");
    ag_const("Int8", "-3");
    ag_set_rows(5);
    AG_CHECK("quantile", "-3", "Float64");
}

static void test_quantile_value_types(void **state) {
    (void)state;
    ag_col("Date", "2020-01-01|2020-01-02|2020-01-03|2020-01-04|2020-01-11");
    ag_param("Float64", "0.3");
    AG_CHECK("quantile", "2020-01-02", "Date");
    ag_col("DateTime", "2020-01-01 00:00:00|2020-01-01 00:00:03");
    AG_CHECK("quantile", "2020-01-01 00:00:01", "DateTime");
    ag_col("Decimal(9, 2)", "1.00|2.00");
    AG_CHECK("quantile", "1.5", "Decimal(9, 2)");
    ag_col("Decimal(38, 2)", "-1.01|-1.02");
    AG_CHECK("quantile", "-1.01", "Decimal(38, 2)");
    ag_col("DateTime64(3)", "2020-01-01 00:00:00.000|2020-01-01 00:00:00.003");
    AG_CHECK("quantile", "2020-01-01 00:00:00.001", "DateTime64(3)");
    ag_col("Date", NULL);
    AG_CHECK("quantile", "1970-01-01", "Date");
    ag_col("Date", NULL);
    ag_param("Float64", "0.5");
    AG_CHECK("quantiles", "['1970-01-01']", "Array(Date)");
    ag_col("Nullable(Date)", "\\N|2021-05-05");
    ag_param("Float64", "0.1");
    ag_param("Float64", "0.9");
    AG_CHECK("quantiles", "['2021-05-05','2021-05-05']", "Array(Date)");
}

static void test_quantiles_nulls(void **state) {
    (void)state;
    ag_col("Nullable(Float64)", "\\N|\\N");
    ag_param("Float64", "0.5");
    ag_param("Float64", "0.1");
    AG_CHECK("quantiles", "[nan,nan]", "Array(Float64)");
    ag_col("Nullable(Int32)", "\\N|4|\\N|2");
    ag_param("Float64", "0.5");
    AG_CHECK("quantiles", "[3]", "Array(Float64)");
    ag_col("Int32", "1|2|3|4");
    ag_col("UInt8", "0|1|1|0");
    ag_param("Float64", "1");
    ag_param("Float64", "0");
    AG_CHECK("quantilesIf", "[3,2]", "Array(Float64)");
}

static void test_quantile_errors(void **state) {
    (void)state;
    ag_col("UInt8", "1");
    ag_param("Float64", "1.5");
    AG_CHECK("quantile", "ERR EPARAMETER_OUT_OF_BOUND: Quantile level is out of range [0..1]", "");
    ag_col("UInt8", "1");
    ag_param("Int8", "-1");
    AG_CHECK("quantileExact",
             "ERR EPARAMETER_OUT_OF_BOUND: Quantile level is out of range [0..1]", "");
    ag_col("UInt8", "1");
    ag_param("Float64", "nan");
    AG_CHECK("quantiles", "ERR EPARAMETER_OUT_OF_BOUND: Quantile level is out of range [0..1]", "");
    ag_col("UInt8", "1");
    ag_param("Float64", "0.1");
    ag_param("Float64", "0.2");
    AG_CHECK("quantile", "ERR ENUMBER_OF_ARGUMENTS: Aggregate function quantile requires one "
                         "level parameter or less", "");
    ag_col("UInt8", "1");
    AG_CHECK("quantiles", "ERR ENUMBER_OF_ARGUMENTS: Aggregate function for calculation of "
                          "multiple quantiles require at least one parameter", "");
    ag_col("UInt8", "1");
    ag_param("String", "a");
    AG_CHECK("quantile", "ERR ECANNOT_CONVERT: Cannot convert String to Float64", "");
    ag_col("String", "a");
    AG_CHECK("quantile", "ERR EILLEGAL_TYPE: Illegal type String of argument for aggregate "
                         "function quantile", "");
    ag_col("Date32", "2020-01-01");
    AG_CHECK("median", "ERR EILLEGAL_TYPE: Illegal type Date32 of argument for aggregate "
                       "function median", "");
    ag_col("Decimal(9, 2)", "1");
    AG_CHECK("quantileTDigest", "ERR EILLEGAL_TYPE: Illegal type Decimal(9, 2) of argument for "
                                "aggregate function quantileTDigest", "");
    AG_CHECK("quantile", "ERR ENUMBER_OF_ARGUMENTS: Aggregate function quantile requires at "
                         "least one argument", "");
    ag_col("UInt8", "1");
    ag_col("UInt8", "1");
    AG_CHECK("quantile", "ERR ENUMBER_OF_ARGUMENTS: Aggregate function quantile requires single "
                         "argument", "");
}

static void test_quantile_big(void **state) {
    (void)state;
    /* 100000 values: a reservoir of 8192 answers within a few percent. */
    et_agg.sketch = true;
    ag_col_gen("UInt32", 100000, gen_scrambled);
    double median = ag_number("quantile");
    if (fabs(median - 50000) > 2500) fail_msg("sampled median %g", median);
    et_agg.sketch = true;
    ag_col_gen("UInt32", 100000, gen_scrambled);
    ag_param("Float64", "0.99");
    double p99 = ag_number("quantile");
    if (fabs(p99 - 99000) > 1000) fail_msg("sampled p99 %g", p99);
    /* up to 8192 values the reservoir holds them all: exact */
    ag_col_gen("UInt32", 8192, gen_number);
    AG_CHECK("quantile", "4096.5", "Float64");
}

/* ---- quantileExact ------------------------------------------------------------------ */

static void test_quantile_exact(void **state) {
    (void)state;
    ag_col("UInt8", "1|2|3|4|10");
    ag_param("Float64", "0.3");
    AG_CHECK("quantileExact", "2", "UInt8");
    ag_col("UInt8", "4|1|3|2");
    AG_CHECK("quantileExact", "3", "UInt8");
    ag_col("UInt8", "4|1|3|2");
    AG_CHECK("medianExact", "3", "UInt8");
    ag_col("Int32", "4|1|3|2");
    AG_CHECK("quantileExactLow", "2", "Int32");
    ag_col("Int32", "4|1|3|2");
    AG_CHECK("medianExactHigh", "3", "Int32");
    ag_col("Int32", "3|1|2");
    AG_CHECK("medianExactLow", "2", "Int32");
    ag_col("Int32", "3|1|2");
    AG_CHECK("quantileExactHigh", "2", "Int32");
    ag_col("Int32", "4|1|3|2");
    ag_param("Float64", "0.25");
    AG_CHECK("quantileExactLow", "2", "Int32");
    ag_col("Int64", "9223372036854775807|-9223372036854775808|0");
    ag_param("UInt8", "1");
    AG_CHECK("quantileExact", "9223372036854775807", "Int64");
    ag_col("UInt64", "18446744073709551615|18446744073709551614");
    ag_param("UInt8", "0");
    AG_CHECK("quantileExact", "18446744073709551614", "UInt64");
    ag_col("Float32", "0.5|-1.25|nan");
    ag_param("UInt8", "0");
    AG_CHECK("quantileExact", "-1.25", "Float32");
    ag_col("Decimal(38, 2)", "123456789012345678901234567890123456.78|-5.01|0");
    ag_param("UInt8", "1");
    AG_CHECK("quantileExact", "123456789012345678901234567890123456.78", "Decimal(38, 2)");
    ag_col("Decimal(18, 3)", "1.5|-2.25|7");
    AG_CHECK("quantileExact", "1.5", "Decimal(18, 3)");
    ag_col("Date", "2020-03-01|2020-01-01|2020-02-01");
    AG_CHECK("quantileExact", "2020-02-01", "Date");
    ag_col("Bool", "true|false|true");
    AG_CHECK("quantileExact", "true", "Bool");
    ag_col("Float64", NULL);
    AG_CHECK("quantileExact", "nan", "Float64");
    ag_col("Int16", NULL);
    AG_CHECK("quantileExact", "0", "Int16");
    ag_col("Float64", NULL);
    ag_param("Float64", "0.5");
    AG_CHECK("quantilesExact", "[0]", "Array(Float64)");
    ag_col("Int32", "5|1|4|2|3");
    ag_param("Float64", "0.9");
    ag_param("Float64", "0.1");
    ag_param("Float64", "0.5");
    AG_CHECK("quantilesExact", "[5,1,3]", "Array(Int32)");
    ag_col("Int32", "5|1|4|2");
    ag_param("Float64", "0.5");
    ag_param("Float64", "0.25");
    AG_CHECK("quantilesExactLow", "[2,2]", "Array(Int32)");
    ag_col("Int32", "5|1|4|2");
    ag_param("Float64", "0.5");
    AG_CHECK("quantilesExactHigh", "[4]", "Array(Int32)");
    ag_col("Nullable(Int32)", "\\N|7|\\N");
    AG_CHECK("quantileExact", "7", "Nullable(Int32)");
}

static void test_quantile_exact_big(void **state) {
    (void)state;
    ag_col_gen("UInt32", 100000, gen_scrambled);
    AG_CHECK("quantileExact", "50001", "UInt32");
    ag_col_gen("UInt32", 100000, gen_scrambled);
    ag_param("Float64", "0.999");
    AG_CHECK("quantileExact", "99901", "UInt32");
}

/* ---- quantileTDigest ------------------------------------------------------------------- */

static void test_tdigest(void **state) {
    (void)state;
    /* Below ~200 values every value is its own centroid: order statistics
     * by ClickHouse's singleton rule (numbers(10): 4, numbers(100): [24,49,74]). */
    ag_col_gen("UInt32", 10, gen_number);
    AG_CHECK("quantileTDigest", "5", "Float32");
    ag_col_gen("UInt32", 10, gen_number);
    ag_param("Float64", "0.1");
    AG_CHECK("quantileTDigest", "1", "Float32");
    ag_col_gen("UInt32", 10, gen_number);
    ag_param("Float64", "0.9");
    AG_CHECK("medianTDigest", "9", "Float32");
    ag_col_gen("UInt32", 100, gen_scrambled);
    ag_reset();
    ag_col_gen("UInt32", 100, gen_number);
    ag_param("Float64", "0.25");
    ag_param("Float64", "0.5");
    ag_param("Float64", "0.75");
    AG_CHECK("quantilesTDigest", "[25,50,75]", "Array(Float32)");
    /* two singletons: the median is the lower one (releases before the
     * singleton rule interpolated 1.5) */
    ag_col("Float64", "1|2");
    AG_CHECK("quantileTDigest", "1", "Float32");
    ag_col("Float64", "7");
    AG_CHECK("quantileTDigest", "7", "Float32");
    ag_col("Float64", NULL);
    AG_CHECK("quantileTDigest", "nan", "Float32");
    ag_col("Float64", "nan|nan");
    AG_CHECK("quantileTDigest", "nan", "Float32");
    ag_col("Date", "2020-01-01|2020-01-02|2020-01-05");
    AG_CHECK("quantileTDigest", "2020-01-02", "Date");
    ag_col("Nullable(Int32)", "\\N|3|\\N");
    AG_CHECK("quantileTDigest", "3", "Nullable(Float32)");
    ag_col("Nullable(Int32)", "\\N|\\N");
    ag_param("Float64", "0.5");
    AG_CHECK("quantilesTDigest", "[nan]", "Array(Float32)");
    ag_col("Int32", "1|2|3|4");
    ag_col("UInt8", "1|0|0|0");
    AG_CHECK("quantileTDigestIf", "1", "Float32");
}

static const char *gen_index(uint32_t i) {
    static char text[32];
    snprintf(text, sizeof(text), "%u", i);
    return text;
}

/* ClickHouse's test 00273_quantiles over numbers 0..1000 (its reference
 * answers, from a release with the t-digest singleton rule). */
static void test_clickhouse_00273(void **state) {
    (void)state;
    static const char *const levels[] = {"0",   "0.001", "0.01", "0.05", "0.1", "0.2",
                                         "0.3", "0.4",   "0.5",  "0.6",  "0.7", "0.8",
                                         "0.9", "0.95",  "0.99", "0.999", "1"};
    static const struct {
        const char *name, *want;
    } cases[] = {
        {"quantiles", "[0,1,10,50,100,200,300,400,500,600,700,800,900,950,990,999,1000]"},
        {"quantilesExact", "[0,1,10,50,100,200,300,400,500,600,700,800,900,950,990,999,1000]"},
        {"quantilesTDigest",
         "[0,1,10,50,99.6,199.7,299.8,399.9,500,600.1,700.2,800.3,900.4,950,990,999,1000]"},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        ag_col_gen("UInt64", 1001, gen_index);
        for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
            ag_param("Float64", levels[i]);
        AG_EQ(cases[c].name, cases[c].want, NULL);
        ag_reset();
        ag_col_gen("UInt64", 1001, gen_index);
        ag_param("Float64", "0.5");
        AG_CHECK(cases[c].name, "[500]", NULL);
    }
}

static void test_tdigest_big(void **state) {
    (void)state;
    /* ~1% rank error near the median, less in the tails. */
    static const double levels[] = {0.01, 0.1, 0.5, 0.9, 0.99};
    for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
        char text[32];
        snprintf(text, sizeof(text), "%g", levels[i]);
        et_agg.sketch = true;
        et_agg.loose = true;
        ag_col_gen("UInt32", 100000, gen_scrambled);
        ag_param("Float64", text);
        double v = ag_number("quantileTDigest"), want = levels[i] * 100000;
        double bound = 100000 * (0.002 + 0.04 * levels[i] * (1 - levels[i]));
        if (fabs(v - want) > bound)
            fail_msg("t-digest q%g = %g, want %g +- %g", levels[i], v, want, bound);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_variance, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_variance_big, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_covariance, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_moment_errors, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_quantile, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_quantile_value_types, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_quantiles_nulls, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_quantile_errors, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_quantile_big, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_quantile_exact, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_quantile_exact_big, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_tdigest, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_tdigest_big, ag_setup, ag_teardown),
        cmocka_unit_test_setup_teardown(test_clickhouse_00273, ag_setup, ag_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
