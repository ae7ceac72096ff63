/* lambda_test.c: the higher-order array functions of src/exec/lambda.c
 * through exec_expr_call_lambda, as the SQL binder builds them: a body
 * bound over inputs [parameters..., captures...], constant and column
 * arrays, several arrays, captured outer columns, nested lambdas,
 * LowCardinality and Nullable elements, lambdas that return NULL, and the
 * errors (code and message). Expected text and type names are what
 * ClickHouse prints for the same calls.
 */
#define ET_STYLE_BUILDER
#include "exec_test_util.h"

/* ---- arrayMap ------------------------------------------------------ */

static void test_map(void **state) {
    (void)state;
    exec_expr *x = P(0, "UInt8");
    exec_expr *m = L("arrayMap", F("multiply", 2, x, U(2)), 1, 0, K("Array(UInt8)", "[1,2,3]"));
    assert_int_equal(m->kind, EXEC_EXPR_CONST); /* constant arrays fold */
    EXPECT(m, "Array(UInt16): [2,4,6]");
    EXPECT(L("arrayMap", F("concat", 2, P(0, "String"), S("!")), 1, 0,
             K("Array(String)", "['a','b']")),
           "Array(String): ['a!','b!']");
    EXPECT(L("arrayMap", F("plus", 2, P(0, "UInt8"), P(1, "UInt8")), 2, 0,
             K("Array(UInt8)", "[1,2]"), K("Array(UInt8)", "[10,20]")),
           "Array(UInt16): [11,22]");
    EXPECT(L("arrayMap", U(1), 1, 0, K("Array(Nothing)", "[]")), "Array(UInt8): []");
    EXPECT(L("arrayMap", NUL(), 1, 0, K("Array(UInt8)", "[1]")),
           "Array(Nullable(Nothing)): [NULL]");
}

static void test_map_columns(void **state) {
    (void)state;
    /* arrayMap(x -> x + n, a) over rows: the capture repeats per element. */
    exec_expr *a = C("Array(UInt8)", "[1,2]", "[]", "[3]");
    exec_expr *n = C("UInt8", "10", "20", "30");
    exec_expr *body = F("plus", 2, P(0, "UInt8"), P(1, "UInt8"));
    exec_expr *m = L("arrayMap", body, 1, 1, a, n);
    assert_int_equal(m->kind, EXEC_EXPR_CALL);
    EXPECT(m, "Array(UInt16): [11,12] | [] | [33]");
    /* A constant array with a column capture. */
    EXPECT(L("arrayMap", body, 1, 1, K("Array(UInt8)", "[1,2]"), n),
           "Array(UInt16): [11,12] | [21,22] | [31,32]");
    /* Nested: arrayMap(x -> arrayMap(y -> y + x, [1, 2]), [10, 20]). */
    exec_expr *inner = L("arrayMap", F("plus", 2, P(0, "UInt8"), P(1, "UInt8")), 1, 1,
                         K("Array(UInt8)", "[1,2]"), P(0, "UInt8"));
    EXPECT(L("arrayMap", inner, 1, 0, K("Array(UInt8)", "[10,20]")),
           "Array(Array(UInt16)): [[11,12],[21,22]]");
}

static void test_map_errors(void **state) {
    (void)state;
    exec_expr *a = C("Array(UInt8)", "[1,2]", "[3]");
    exec_expr *b = C("Array(UInt8)", "[1,2]", "[]");
    exec_expr *m = L("arrayMap", F("plus", 2, P(0, "UInt8"), P(1, "UInt8")), 2, 0, a, b);
    EXPECT_ERR(MU_EARRAY_SIZES, "Arrays passed to arrayMap must have equal size. Argument 3 "
               "has size 0 which differs with the size of another argument, 1",
               EVAL_ERR(m));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "Argument 2 of function arrayMap must be Array. Found UInt8 "
               "instead", L_ERR("arrayMap", P(0, "UInt8"), 1, 0, U(1)));
    EXPECT_ERR(MU_EUNKNOWN_FUNCTION, "Unknown function arrayNope",
               L_ERR("arrayNope", P(0, "UInt8"), 1, 0, a));
    assert_true(exec_function_takes_lambda("arrayMap"));
    assert_true(exec_function_takes_lambda("arrayReverseFill"));
    assert_false(exec_function_takes_lambda("arrayConcat"));
    assert_false(exec_function_takes_lambda("length"));
}

/* ---- arrayFilter, arrayExists, arrayAll, arrayCount ---------------- */

static void test_filter_and_tests(void **state) {
    (void)state;
    exec_expr *even = F("equals", 2, F("modulo", 2, P(0, "UInt8"), U(2)), U(0));
    exec_expr *k = K("Array(UInt8)", "[1,2,3,4]");
    EXPECT(L("arrayFilter", even, 1, 0, k), "Array(UInt8): [2,4]");
    EXPECT(L("arrayFilter", U(0), 1, 0, K("Array(UInt8)", "[1]")), "Array(UInt8): []");
    EXPECT(L("arrayFilter", F("notEquals", 2, P(0, "String"), S("")), 1, 0,
             K("Array(String)", "['a','','b']")),
           "Array(String): ['a','b']");
    /* The lambda sees the second array; the first is filtered. */
    EXPECT(L("arrayFilter", F("greater", 2, P(1, "UInt8"), U(0)), 2, 0,
             K("Array(String)", "['a','b','c']"), K("Array(UInt8)", "[0,1,2]")),
           "Array(String): ['b','c']");
    exec_expr *gt1 = F("greater", 2, P(0, "UInt8"), U(1));
    exec_expr *a = C("Array(UInt8)", "[1,2,3]", "[]", "[0]");
    EXPECT(L("arrayExists", gt1, 1, 0, a), "UInt8: 1 | 0 | 0");
    EXPECT(L("arrayAll", gt1, 1, 0, a), "UInt8: 0 | 1 | 0");
    EXPECT(L("arrayCount", gt1, 1, 0, a), "UInt32: 2 | 0 | 0");
    EXPECT(L("arrayFilter", gt1, 1, 0, a), "Array(UInt8): [2,3] | [] | []");
}

static void test_boolean_results(void **state) {
    (void)state;
    /* A Nullable(UInt8) result: NULL counts as false. */
    exec_expr *a = K("Array(Nullable(UInt8))", "[1,NULL,3]");
    exec_expr *gt1 = F("greater", 2, P(0, "Nullable(UInt8)"), U(1));
    EXPECT(L("arrayFilter", gt1, 1, 0, a), "Array(Nullable(UInt8)): [3]");
    EXPECT(L("arrayCount", gt1, 1, 0, a), "UInt32: 1");
    /* A lambda that returns NULL (Nullable(Nothing)) is never true. */
    EXPECT(L("arrayCount", NUL(), 1, 0, K("Array(UInt8)", "[1,2]")), "UInt32: 0");
    EXPECT(L("arrayAll", NUL(), 1, 0, K("Array(UInt8)", "[1,2]")), "UInt8: 0");
    EXPECT(L("arrayFilter", K("Bool", "true"), 1, 0, K("Array(UInt8)", "[1,2]")),
           "Array(UInt8): [1,2]");
    EXPECT_ERR(MU_EILLEGAL_TYPE, "Expression for function arrayFilter must return UInt8 or "
               "Nullable(UInt8), found Float64",
               L_ERR("arrayFilter", P(0, "Float64"), 1, 0, K("Array(Float64)", "[1.5]")));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "Expression for function arrayCount must return UInt8 or "
               "Nullable(UInt8), found UInt16",
               L_ERR("arrayCount", P(0, "UInt16"), 1, 0, K("Array(UInt16)", "[1]")));
}

/* ---- arrayFirst, arrayLast and their Index / OrNull forms ---------- */

static void test_first_last(void **state) {
    (void)state;
    exec_expr *gt1 = F("greater", 2, P(0, "UInt8"), U(1));
    exec_expr *k = K("Array(UInt8)", "[1,2,3]");
    EXPECT(L("arrayFirst", gt1, 1, 0, k), "UInt8: 2");
    EXPECT(L("arrayLast", gt1, 1, 0, k), "UInt8: 3");
    EXPECT(L("arrayFirstIndex", gt1, 1, 0, k), "UInt32: 2");
    EXPECT(L("arrayLastIndex", gt1, 1, 0, k), "UInt32: 3");
    exec_expr *gt5 = F("greater", 2, P(0, "UInt8"), U(5));
    EXPECT(L("arrayFirst", gt5, 1, 0, k), "UInt8: 0");
    EXPECT(L("arrayFirstIndex", gt5, 1, 0, k), "UInt32: 0");
    EXPECT(L("arrayFirstOrNull", gt5, 1, 0, k), "Nullable(UInt8): \\N");
    EXPECT(L("arrayLastOrNull", gt1, 1, 0, k), "Nullable(UInt8): 3");
    exec_expr *s = C("Array(String)", "['a','b']", "[]", "['b','b']");
    exec_expr *is_b = F("equals", 2, P(0, "String"), S("b"));
    EXPECT(L("arrayFirst", is_b, 1, 0, s), "String: b |  | b");
    EXPECT(L("arrayLastIndex", is_b, 1, 0, s), "UInt32: 2 | 0 | 2");
    EXPECT(L("arrayFirstOrNull", is_b, 1, 0, s), "Nullable(String): b | \\N | b");
    /* Elements that cannot be Nullable stay as they are. */
    EXPECT(L("arrayFirstOrNull", U(1), 1, 0, K("Array(Array(UInt8))", "[[1]]")),
           "Array(UInt8): [1]");
}

/* ---- arraySort, arrayReverseSort, arrayCompact --------------------- */

static void test_sort(void **state) {
    (void)state;
    exec_expr *neg = F("negate", 1, P(0, "UInt8"));
    EXPECT(L("arraySort", neg, 1, 0, K("Array(UInt8)", "[1,3,2]")), "Array(UInt8): [3,2,1]");
    EXPECT(L("arrayReverseSort", neg, 1, 0, K("Array(UInt8)", "[1,3,2]")),
           "Array(UInt8): [1,2,3]");
    /* Sorted by the second array. */
    EXPECT(L("arraySort", P(1, "UInt8"), 2, 0, K("Array(String)", "['a','b','c']"),
             K("Array(UInt8)", "[3,1,2]")),
           "Array(String): ['b','c','a']");
    EXPECT(L("arrayReverseSort", P(1, "String"), 2, 0, K("Array(UInt8)", "[4,3,5]"),
             K("Array(String)", "['a','b','c']")),
           "Array(UInt8): [5,3,4]");
    /* NaN and NULL keys last in both directions; equal keys keep their order. */
    exec_expr *f = K("Array(Nullable(Float64))", "[3,NULL,1,nan,1]");
    EXPECT(L("arraySort", P(0, "Nullable(Float64)"), 1, 0, f),
           "Array(Nullable(Float64)): [1,1,3,nan,NULL]");
    EXPECT(L("arrayReverseSort", P(0, "Nullable(Float64)"), 1, 0, f),
           "Array(Nullable(Float64)): [3,1,1,nan,NULL]");
    exec_expr *c = C("Array(Int8)", "[1,-5,3]", "[]", "[2,-2]");
    EXPECT(L("arraySort", F("abs", 1, P(0, "Int8")), 1, 0, c),
           "Array(Int8): [1,3,-5] | [] | [2,-2]");
    EXPECT(L("arrayCompact", F("abs", 1, P(0, "Int8")), 1, 0, c),
           "Array(Int8): [1,-5,3] | [] | [2]");
    EXPECT(L("arrayCompact", F("intDiv", 2, P(0, "UInt8"), U(10)), 1, 0,
             K("Array(UInt8)", "[1,5,12,19,3]")),
           "Array(UInt8): [1,12,3]");
}

/* ---- arraySplit, arrayFill ----------------------------------------- */

static void test_split_fill(void **state) {
    (void)state;
    exec_expr *a = K("Array(UInt8)", "[1,2,3,4,5]"), *cut = K("Array(UInt8)", "[1,0,0,1,0]");
    EXPECT(L("arraySplit", P(1, "UInt8"), 2, 0, a, cut),
           "Array(Array(UInt8)): [[1,2,3],[4,5]]");
    EXPECT(L("arrayReverseSplit", P(1, "UInt8"), 2, 0, a, cut),
           "Array(Array(UInt8)): [[1],[2,3,4],[5]]");
    EXPECT(L("arraySplit", U(1), 1, 0, K("Array(UInt8)", "[1,2]")),
           "Array(Array(UInt8)): [[1],[2]]");
    EXPECT(L("arraySplit", U(0), 1, 0, K("Array(UInt8)", "[1,2]")), "Array(Array(UInt8)): [[1,2]]");
    EXPECT(L("arraySplit", U(1), 1, 0, K("Array(UInt8)", "[]")), "Array(Array(UInt8)): []");
    exec_expr *n = K("Array(Nullable(UInt8))", "[1,NULL,2,NULL]");
    exec_expr *not_null = F("isNotNull", 1, P(0, "Nullable(UInt8)"));
    EXPECT(L("arrayFill", not_null, 1, 0, n), "Array(Nullable(UInt8)): [1,1,2,2]");
    EXPECT(L("arrayReverseFill", not_null, 1, 0, n), "Array(Nullable(UInt8)): [1,2,2,NULL]");
    exec_expr *lead = K("Array(Nullable(UInt8))", "[NULL,NULL,3]");
    EXPECT(L("arrayFill", not_null, 1, 0, lead), "Array(Nullable(UInt8)): [NULL,NULL,3]");
    EXPECT(L("arrayReverseFill", not_null, 1, 0, lead), "Array(Nullable(UInt8)): [3,3,3]");
    exec_expr *c = C("Array(String)", "['a','','b','']", "[]", "['']");
    exec_expr *nonempty = F("notEmpty", 1, P(0, "String"));
    EXPECT(L("arrayFill", nonempty, 1, 0, c), "Array(String): ['a','a','b','b'] | [] | ['']");
    EXPECT(L("arraySplit", nonempty, 1, 0, c),
           "Array(Array(String)): [['a',''],['b','']] | [] | [['']]");
}

/* ---- the plain functions over the lambda's results ----------------- */

static void test_plain_over_results(void **state) {
    (void)state;
    exec_expr *sq = F("multiply", 2, P(0, "UInt8"), P(0, "UInt8"));
    exec_expr *k = K("Array(UInt8)", "[1,2,3]");
    EXPECT(L("arraySum", sq, 1, 0, k), "UInt64: 14");
    EXPECT(L("arrayAvg", sq, 1, 0, k), "Float64: 4.666666666666667");
    EXPECT(L("arrayProduct", sq, 1, 0, k), "Float64: 36");
    EXPECT(L("arrayMin", F("negate", 1, P(0, "UInt8")), 1, 0, k), "Int16: -3");
    EXPECT(L("arrayMax", sq, 1, 0, k), "UInt16: 9");
    EXPECT(L("arrayCumSum", sq, 1, 0, k), "Array(UInt64): [1,5,14]");
    EXPECT(L("arrayDifference", sq, 1, 0, k), "Array(Int32): [0,3,5]");
    EXPECT(L("arrayCumSumNonNegative", F("plus", 2, P(0, "UInt8"), I(-2)), 1, 0, k),
           "Array(Int64): [0,0,1]");
    EXPECT(L("arraySum", F("divide", 2, P(0, "UInt8"), P(1, "UInt8")), 2, 0,
             K("Array(UInt8)", "[4,8]"), K("Array(UInt8)", "[1,2]")),
           "Float64: 8");
    exec_expr *c = C("Array(Int16)", "[1,-2]", "[]");
    EXPECT(L("arraySum", F("abs", 1, P(0, "Int16")), 1, 0, c), "UInt64: 3 | 0");
    EXPECT(L("arrayMax", P(0, "Int16"), 1, 0, c), "Int16: 1 | 0");
    EXPECT_ERR(MU_EILLEGAL_TYPE, "array aggregation function cannot be performed on type String",
               L_ERR("arraySum", S("x"), 1, 0, k));
    EXPECT_ERR(MU_EILLEGAL_TYPE, "arrayCumSum cannot add values of type String",
               L_ERR("arrayCumSum", S("x"), 1, 0, k));
}

/* ---- LowCardinality elements --------------------------------------- */

static void test_low_cardinality(void **state) {
    (void)state;
    exec_expr *a = C("Array(LowCardinality(String))", "['b','','a']", "['c']");
    exec_expr *nonempty = F("notEmpty", 1, P(0, "LowCardinality(String)"));
    EXPECT(L("arrayFilter", nonempty, 1, 0, a), "Array(String): ['b','a'] | ['c']");
    EXPECT(L("arraySort", P(0, "LowCardinality(String)"), 1, 0, a),
           "Array(String): ['','a','b'] | ['c']");
    EXPECT(L("arrayFirst", nonempty, 1, 0, a), "String: b | c");
    EXPECT(L("arrayMap", F("length", 1, P(0, "LowCardinality(String)")), 1, 0, a),
           "Array(UInt64): [1,0,1] | [1]");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_map, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_map_columns, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_map_errors, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_filter_and_tests, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_boolean_results, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_first_last, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_sort, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_split_fill, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_plain_over_results, et_setup, et_teardown),
        cmocka_unit_test_setup_teardown(test_low_cardinality, et_setup, et_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
